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


def _seat_terms(settlement: Settlement, win_by: str, discarder: int | None,
                options: Mapping[str, Any]) -> tuple[tuple[int, int], ...]:
    """base_plus_points: for seats 1-3, how many times each pays the base and the hand's points."""
    rule = _payers(settlement, win_by)
    out = []
    for seat in (1, 2, 3):
        if "each_opponent" in rule:
            terms = _chosen(rule["each_opponent"], options)
        elif seat == discarder:
            terms = _chosen(rule["discarder"], options)
        else:
            terms = _chosen(rule["others"], options)
        n_base = len([t for t in terms if t == "base"])
        out.append((n_base, len(terms) - n_base))
    return tuple(out)


class Payments:
    """A settlement bound to option values, paying many hands: base_plus_points reads who pays what once per
    way of winning and discarder."""

    def __init__(self, settlement: Settlement, options: Mapping[str, Any], loss_limit: int | None = None):
        if settlement.method not in ("base_plus_points", "shares"):
            raise ValueError(f"unknown settlement method {settlement.method!r}")
        self.settlement, self.options = settlement, options
        self.shares = settlement.method == "shares"
        self.base: int = settlement.base
        # shares: the terms of one share under the chosen options, and the most any payer loses in the hand
        # on the hand's value (None: no such limit; the scorer reads it from the steps: single-hand limit)
        self.per_share: tuple[str, ...] = tuple(_chosen(settlement.per_share, options))
        self.loss_limit = loss_limit
        self._terms: dict[tuple[str, int | None], tuple[tuple[int, int], ...]] = {}

    def pay(self, hand: Hand, points: int) -> tuple[int, ...]:
        """The four score changes for `hand` won with `points`."""
        if self.shares:
            return share_payments(self.settlement, hand, points, self.options, self.per_share, self.loss_limit)
        key = (hand.win_by, hand.discarder)
        terms = self._terms.get(key)
        if terms is None:
            terms = self._terms[key] = _seat_terms(self.settlement, hand.win_by, hand.discarder, self.options)
        base = self.base
        (b1, p1), (b2, p2), (b3, p3) = terms
        paid1, paid2, paid3 = b1 * base + p1 * points, b2 * base + p2 * points, b3 * base + p3 * points
        return (paid1 + paid2 + paid3, -paid1, -paid2, -paid3)


def _chosen(amount: Any, options: Mapping[str, Any]) -> Any:
    """An amount under the chosen options: a plain amount, an option's value, or what an option's `map` gives
    for its value (which may itself be chosen by another option)."""
    while hasattr(amount, "option"):
        value = options[amount.option]
        amount = amount.map[value_key(value)] if hasattr(amount, "map") else value
    return amount


def _amount_of(amount, options) -> int:
    """A number of shares: a plain number, an option's value, or an option mapped to numbers (see _chosen)."""
    return int(_chosen(amount, options))


def share_payments(settlement: Settlement, hand: Hand, value: int, options, per_share: tuple[str, ...] | None = None,
                   loss_limit: int | None = None) -> tuple[int, ...]:
    """Each payer pays a number of shares; one share is the sum of `per_share` terms (base: 底分, or the hand's
    `base_counter` when given; value: the hand's value; by default the settlement's own terms). A contract (承包)
    between the winner and another seat, named by the contract's partner counter, changes who pays how many
    shares. With a `loss_limit`, the value terms of all a payer's shares together are at most that much."""
    if per_share is None:
        per_share = tuple(_chosen(settlement.per_share, options))
    rule = _payers(settlement, hand.win_by)
    base = settlement.base
    if settlement.base_counter:
        base = hand.counter(settlement.base_counter, base)
    share = sum(base if term == "base" else value for term in per_share)
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
    if loss_limit is None:
        paid = [-n * share for n in shares]
    else:  # the limit bounds the value terms a payer pays over all its shares; base terms stay outside it
        n_value = len([t for t in per_share if t != "base"])
        paid = [-(n * (share - n_value * value) + min(n * n_value * value, loss_limit)) for n in shares]
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
    elif hand.win_by == "robbing_kong":  # the konger already pays its shares; the partner adds the contract's
        added = contract["robbing_kong"]
        if partner == hand.discarder and "robbing_kong_konger" in contract:
            added = contract["robbing_kong_konger"]  # the partner is the konger
        shares[partner] += _amount_of(added, options) * factor
    elif hand.discarder == partner:
        shares[partner] = _amount_of(contract["discard"], options) * factor
    elif hand.discarder is None:
        raise ValueError("a discard win needs a discarder")
    elif contract["ready_flag"] in hand.flags:
        shares[hand.discarder] = _amount_of(contract["third_party_discard_ready"], options)
        shares[partner] = _amount_of(contract["third_party_discard_ready"], options) * factor
    else:
        shares[hand.discarder] = _amount_of(contract["third_party_discard_not_ready"], options)
