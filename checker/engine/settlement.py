"""Payments: who pays the winner how much, from the settlement section of the spec.

`Payments.pay` returns four score changes in seat order relative to the winner: 0 the winner, 1 the next
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


def _seat_terms(settlement: Settlement, win_by: str, discarder: int | None) -> tuple[tuple[int, int], ...]:
    """base_plus_points: for seats 1-3, how many times each pays the base and the hand's points."""
    rule = _payers(settlement, win_by)
    out = []
    for seat in (1, 2, 3):
        if "each_opponent" in rule:
            terms = rule["each_opponent"]
        elif seat == discarder:
            terms = rule["discarder"]
        else:
            terms = rule["others"]
        n_base = len([t for t in terms if t == "base"])
        out.append((n_base, len(terms) - n_base))
    return tuple(out)


class Payments:
    """A settlement bound to option values, paying many hands: base_plus_points reads who pays what once per
    way of winning and discarder."""

    def __init__(self, settlement: Settlement, options: Mapping[str, Any]):
        if settlement.method not in ("base_plus_points", "shares"):
            raise ValueError(f"unknown settlement method {settlement.method!r}")
        self.settlement, self.options = settlement, options
        self.shares = settlement.method == "shares"
        self.base: int = settlement.base
        self._terms: dict[tuple[str, int | None], tuple[tuple[int, int], ...]] = {}

    def pay(self, hand: Hand, points: int) -> tuple[int, ...]:
        """The four score changes for `hand` won with `points`."""
        if self.shares:
            return share_payments(self.settlement, hand, points, self.options)
        key = (hand.win_by, hand.discarder)
        terms = self._terms.get(key)
        if terms is None:
            terms = self._terms[key] = _seat_terms(self.settlement, hand.win_by, hand.discarder)
        base = self.base
        (b1, p1), (b2, p2), (b3, p3) = terms
        paid1, paid2, paid3 = b1 * base + p1 * points, b2 * base + p2 * points, b3 * base + p3 * points
        return (paid1 + paid2 + paid3, -paid1, -paid2, -paid3)


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
