"""Payments: who pays the winner how much, from the settlement section of the spec.

`payments` returns four score changes in seat order relative to the winner: 0 the winner, 1 the next
player (downstream), 2 across, 3 the previous player (upstream). They sum to zero.
"""
from __future__ import annotations

from typing import Any, Mapping

from checker.engine.hand import Hand
from checker.spec import Settlement, value_key


def _payers(settlement: Settlement, win_by: str) -> Mapping[str, Any]:
    """Who pays for a win of this kind (a robbed kong pays as a discard unless the spec says otherwise). The
    schema requires self_draw and discard, so a loaded spec always names them."""
    rule = settlement.payers.get(win_by) or settlement.payers.get("discard")
    if rule is None:
        raise ValueError(f"the settlement names no payers for a {win_by.replace('_', ' ')} win")
    return rule


def _amount(terms, base: int, points: int) -> int:
    return sum(base if term == "base" else points for term in terms)


def payments(settlement: Settlement, hand: Hand, points: int, options=None) -> tuple[int, ...]:
    """The four score changes for a win worth `points` (the hand's value)."""
    if settlement.method == "shares":
        return share_payments(settlement, hand, points, options or {})
    if settlement.method != "base_plus_points":
        raise ValueError(f"unknown settlement method {settlement.method!r}")
    rule = _payers(settlement, hand.win_by)
    paid = [0, 0, 0, 0]
    for seat in (1, 2, 3):
        if "each_opponent" in rule:
            terms = rule["each_opponent"]
        elif seat == hand.discarder:
            terms = rule["discarder"]
        else:
            terms = rule["others"]
        paid[seat] = -_amount(terms, settlement.base, points)
    paid[0] = -sum(paid)
    return tuple(paid)


def _amount_of(amount, options) -> int:
    """A number of shares: a plain number, an option's value, or an option mapped to numbers."""
    if hasattr(amount, "map"):
        return int(amount.map[value_key(options[amount.option])])
    if hasattr(amount, "option"):
        return int(options[amount.option])
    return int(amount)


def share_payments(settlement: Settlement, hand: Hand, value: int, options) -> tuple[int, ...]:
    """Each payer pays a number of shares; one share is the sum of `per_share` terms (base: 底分, or the hand's
    `base_counter` when given; value: the hand's value). A contract (承包) between the winner and another seat,
    named by the contract's partner counter, changes who pays how many shares."""
    rule = _payers(settlement, hand.win_by)
    base = settlement.base
    if settlement.base_counter:
        base = hand.counter(settlement.base_counter, base)
    share = sum(base if term == "base" else value for term in settlement.per_share)
    shares = [0, 0, 0, 0]
    for seat in (1, 2, 3):
        if "each_opponent" in rule:
            role = "each_opponent"
        elif seat == hand.discarder:
            role = "discarder"
        else:
            role = "others"
        shares[seat] = _amount_of(rule.get(role, 0), options)
    contract = settlement.contract
    partner = hand.counter(contract["partner_counter"]) if contract else 0
    if partner:
        contract_shares(settlement.contract, hand, partner, shares, options)
    paid = [-n * share for n in shares]
    paid[0] = -sum(paid[1:])
    return tuple(paid)


def contract_shares(contract, hand: Hand, partner: int, shares: list[int], options) -> None:
    """承包: the winner and seat `partner` made three or more calls between them. The contract's part is
    counted twice when the relation runs both ways (flag contract_mutual)."""
    factor = _amount_of(contract.get("mutual_factor", 1), options) if contract["mutual_flag"] in hand.flags else 1
    if hand.win_by == "self_draw":
        others = _amount_of(contract.get("self_draw_others", 0), options)
        for seat in (1, 2, 3):
            shares[seat] = others
        shares[partner] = _amount_of(contract["self_draw"], options) * factor
    elif hand.win_by == "robbing_kong":
        shares[partner] += _amount_of(contract["robbing_kong"], options) * factor
    elif hand.discarder == partner:
        shares[partner] = _amount_of(contract["discard"], options) * factor
    elif hand.discarder is None:
        raise ValueError("a discard win needs a discarder")
    elif contract["ready_flag"] in hand.flags:
        shares[hand.discarder] = _amount_of(contract["third_party_discard_ready"], options)
        shares[partner] = _amount_of(contract["third_party_discard_ready"], options) * factor
    else:
        shares[hand.discarder] = _amount_of(contract["third_party_discard_not_ready"], options)
