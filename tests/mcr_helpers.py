"""Small helpers for writing MCR scoring tests by hand.

    s = score(mcr, "1m1m1m2m2m2m3p3p3p4s4s4s5m", win="5m")          # self-drawn, seat/round East
    s = score(mcr, "2p3p4p2s3s4s6m6m6m5p", win="5p", melds=["chow:234m"], discard=1)
    assert fans(s) == {"mixed_triple_chow": 8, "all_simples": 2}   # id -> points x count

`score` works for every ruleset (pass its Scorer); `hand` builds an MCR hand without a scorer.
"""
from __future__ import annotations

from checker.engine import Hand, parse_meld


def meld(text: str):
    """`chow:234m`, `pung:555p`, `kong:7777s`, `concealed_kong:1z1z1z1z`; `@N` names the seat it came
    from (`chow:234m@3`), a trailing `:after_knock` marks a claim made after knocking."""
    after_knock = text.endswith(":after_knock")
    if after_knock:
        text = text[: -len(":after_knock")]
    kind, tiles = text.split(":", 1)
    source = None
    if "@" in tiles:
        tiles, seat = tiles.split("@")
        source = int(seat)
    return parse_meld(kind, tiles, source=source, after_knock=after_knock)


def hand(concealed: str, win: str, melds=(), discard=None, robbing_kong=None, seat="E", round_="E",
         flowers="", flags=()) -> Hand:
    if discard is not None:
        win_by, discarder = "discard", discard
    elif robbing_kong is not None:
        win_by, discarder = "robbing_kong", robbing_kong
    else:
        win_by, discarder = "self_draw", None
    return Hand.build(concealed=concealed, melds=[meld(m) for m in melds], win_tile=win, win_by=win_by,
                      discarder=discarder, seat_wind=seat, round_wind=round_, flowers=flowers, flags=flags)


def score(scorer, concealed: str, win: str, melds=(), discard=None, robbing_kong=None, seat="E", round_="E",
          flowers="", flags=(), counters=None):
    """Build the hand under the scorer's ruleset (its flags, counters, flower tiles, hand checks) and score it."""
    if discard is not None:
        win_by, discarder = "discard", discard
    elif robbing_kong is not None:
        win_by, discarder = "robbing_kong", robbing_kong
    else:
        win_by, discarder = "self_draw", None
    built = scorer.build_hand(concealed=concealed, melds=[meld(m) for m in melds], win_tile=win, win_by=win_by,
                              discarder=discarder, seat_wind=seat, round_wind=round_, flowers=flowers, flags=flags,
                              counters=counters or {})
    return scorer.score(built)


def fans(result) -> dict[str, int]:
    """Counted fans as {id: points x count}."""
    return {f.id: f.total for f in result.fans}


def withheld(result) -> dict[str, str]:
    """Fans found but not counted again, as {fan id: the fan (or 'account_once') that withheld it}."""
    return dict(result.withheld)
