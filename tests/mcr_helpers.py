"""Small helpers for writing MCR scoring tests by hand.

    s = score(mcr, "1m1m1m2m2m2m3p3p3p4s4s4s5m", win="5m")          # self-drawn, seat/round East
    s = score(mcr, "2p3p4p2s3s4s6m6m6m5p", win="5p", melds=["chow:234m"], discard=1)
    assert fans(s) == {"mixed_triple_chow": 8, "all_simples": 2}   # id -> points x count

`score` works for every ruleset (pass its Scorer); `hand` builds an MCR hand without a scorer.
"""
from __future__ import annotations

from checker.engine import Hand, parse_meld_text


meld = parse_meld_text  # "chow:234m", "pung:555p@2", "concealed_kong:1z1z1z1z", "chow:123s@3:after_knock"


def win_by(discard=None, robbing_kong=None) -> tuple[str, int | None]:
    if discard is not None:
        return "discard", discard
    if robbing_kong is not None:
        return "robbing_kong", robbing_kong
    return "self_draw", None


def hand(concealed: str, win: str, melds=(), discard=None, robbing_kong=None, seat="E", round_="E",
         flowers="", flags=()) -> Hand:
    how, discarder = win_by(discard, robbing_kong)
    return Hand.build(concealed=concealed, melds=[meld(m) for m in melds], win_tile=win, win_by=how,
                      discarder=discarder, seat_wind=seat, round_wind=round_, flowers=flowers, flags=flags)


def score(scorer, concealed: str, win: str, melds=(), discard=None, robbing_kong=None, seat="E", round_="E",
          flowers="", flags=(), counters=None):
    """Build the hand under the scorer's ruleset (its flags, counters, flower tiles, hand checks) and score it."""
    how, discarder = win_by(discard, robbing_kong)
    built = scorer.build_hand(concealed=concealed, melds=[meld(m) for m in melds], win_tile=win, win_by=how,
                              discarder=discarder, seat_wind=seat, round_wind=round_, flowers=flowers, flags=flags,
                              counters=counters or {})
    return scorer.score(built)


def fans(result) -> dict[str, int]:
    """Counted fans as {id: points x count}."""
    return {f.id: f.total for f in result.fans}


def withheld(result) -> dict[str, str]:
    """Fans found but not counted again, as {fan id: the fan (or 'account_once') that withheld it}."""
    return dict(result.withheld)
