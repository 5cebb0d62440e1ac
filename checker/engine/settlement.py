"""Payments: who pays the winner how much, from the settlement section of the spec.

`payments` returns four score changes in seat order relative to the winner: 0 the winner, 1 the next
player (downstream), 2 across, 3 the previous player (upstream). They sum to zero.
"""
from __future__ import annotations

from checker.engine.hand import Hand
from checker.spec import Settlement


def _amount(terms, base: int, points: int) -> int:
    return sum(base if term == "base" else points for term in terms)


def payments(settlement: Settlement, hand: Hand, points: int, options=None) -> tuple[int, ...]:
    """The four score changes for a win worth `points` (the hand's value)."""
    if settlement.method == "shares":
        return share_payments(settlement, hand, points, options or {})
    if settlement.method != "base_plus_points":
        raise ValueError(f"unknown settlement method {settlement.method!r}")
    rule = settlement.payers.get(hand.win_by) or settlement.payers.get("discard")
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


def share_payments(settlement: Settlement, hand: Hand, value: int, options) -> tuple[int, ...]:
    """Each payer pays a number of shares; one share is the sum of `per_share` terms (base, value)."""
    rule = settlement.payers.get(hand.win_by) or settlement.payers.get("discard")
    base = hand.counter("base", settlement.base) if "base" in settlement.per_share else 0
    share = sum(base if term == "base" else value for term in settlement.per_share)

    def shares(role: str) -> int:
        amount = rule.get(role, 0)
        return options[amount.option] if hasattr(amount, "option") else amount

    paid = [0, 0, 0, 0]
    for seat in (1, 2, 3):
        if "each_opponent" in rule:
            n = shares("each_opponent")
        elif seat == hand.discarder:
            n = shares("discarder")
        else:
            n = shares("others")
        paid[seat] = -n * share
    paid[0] = -sum(paid)
    return tuple(paid)
