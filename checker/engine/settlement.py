"""Payments: who pays the winner how much, from the settlement section of the spec.

`payments` returns four score changes in seat order relative to the winner: 0 the winner, 1 the next
player (downstream), 2 across, 3 the previous player (upstream). They sum to zero.
"""
from __future__ import annotations

from checker.engine.hand import Hand
from checker.spec import Settlement


def _amount(terms, base: int, points: int) -> int:
    return sum(base if term == "base" else points for term in terms)


def payments(settlement: Settlement, hand: Hand, points: int) -> tuple[int, ...]:
    """MCR-style base-plus-points settlement (settlement.self_draw / settlement.discard)."""
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
