"""Scenes of play around the rules bots seldom reach: the hand-written candidates of the procedure search.

Each scene is a short log (`checker.table.scene`) built so that one rule of play decides its outcome; the
search (`checker.corpus.procedure_search`) runs it under the spec and under a mutant, and a scene whose results
differ separates them. A scene is legal under some readings and refused under others: its `expect` is whatever
the spec's table makes of it. Seats: 0 deals (D), 1 is the player the scene is about (A), 2 plays after A (B),
3 across from A (C). Every tile that matters is named; the others are filler.

- forgo-then-reclaim (s-000-014): B holds a pair of 5p and lets D's 5p go; A draws and throws the next 5p before
  B has drawn, and B claims it with a pung, or with a chow (B holds 6p 7p too). Or B pungs D's 5p, which A (holding
  6p 7p) could have chowed, and A chows D's next 5p before its own draw: whether a seat forgoes a tile that a
  claim ranked above its own took is the claim priority's.
- the mandatory kong (s-000-020, s-000-021): A pungs D's 3m, knocks waiting on 3m (1m 2m), and draws the fourth
  3m: a self-drawn win sits right there.
- the knock lock and kongs (s-000-018, knock_lock_covers_kongs): A knocks holding 9s 9s 9s and claims C's 9s as
  a kong.
- 漏胡 and what lifts it (s-001-024, s-001-024a): A knocks, lets a winning tile go, then moves (a pung, a chow, a
  kong, or its own draw) and wins on the next copy.
- robbing the kong: C claims a discard as a kong and A robs it (which kongs may be robbed).
- 承包 (s-001-033, 吃碰杠一家…超过3次（包括3次），则承包): A pungs three of D's discards (or two of D's and one of C's) and wins on D's discard: how
  many calls on one seat make a contract.
- the knock required to win: A wins on B's discard without having knocked, or lets B's winning tile go unknocked
  and wins on C's copy (does 漏胡 bind a player who has not knocked?), also holding all eight flowers, the one
  hand classic lets win without a knock (s-001-056, win.requires_flags exempt).
- 八花齐 at the deal (s-001-056, 即可马上胡牌; eight_flowers_at_deal): A exposes all eight flowers during the deal
  and declares the win right after the last replacement, out of turn.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from checker.table.scene import SceneError, scene

READY_3M = "1m2m3m4m5m6m7m8m9m1m1m2m4m"  # a full flush waiting on 3m alone (classic wins only special hands)


@dataclass(frozen=True)
class Scene:
    name: str
    words: str
    hands: Mapping[int, str]
    events: tuple[str, ...]


SCENES = (
    Scene("pung_of_a_tile_let_go", "B lets D's 5p go and pungs the next 5p, thrown before B has drawn",
          {0: "5p", 2: "5p5p"}, ("0 discard 5p", "1 draw 5p", "1 discard 5p", "2 pung")),
    Scene("chow_of_a_tile_let_go", "B lets D's 5p go and chows the next 5p, thrown before B has drawn",
          {0: "5p", 2: "5p5p6p7p"}, ("0 discard 5p", "1 draw 5p", "1 discard 5p", "2 chow 5p6p7p")),
    Scene("chow_let_go_beside_a_pung", "B pungs D's 5p, which A could have chowed, and A chows D's next 5p before "
          "A has drawn", {0: "5p5p", 1: "6p7p", 2: "5p5p"},
          ("0 discard 5p", "2 pung", "2 discard ?", "3 draw", "3 discard ?", "0 draw", "0 discard 5p",
           "1 chow 5p6p7p")),
    Scene("fourth_tile_of_a_pung_wins", "A pungs 3m, knocks waiting on 3m and draws the fourth 3m, which wins",
          {0: "3m", 1: "3m3m1m2m4p5p6p7p8p9p5s5s"},
          ("0 discard 3m", "1 pung", "1 knock", "1 discard ?", "2 draw", "2 discard ?", "3 draw", "3 discard ?",
           "0 draw", "0 discard ?", "1 draw 3m", "1 win")),
    Scene("kong_claimed_after_knocking", "A knocks holding three 9s and claims C's 9s as a kong",
          {1: "9s9s9s1m2m3m4m5m6m7m8m9m5s"},
          ("0 discard ?", "1 draw", "1 knock", "1 discard ?", "2 draw", "2 discard ?", "3 draw 9s", "3 discard 9s",
           "1 kong", "1 draw back", "1 discard ?")),
    Scene("passed_win_then_pung", "A knocks, lets B's 9m go, pungs C's 8m and wins on D's 9m",
          {0: "9m", 1: "1m1m1m2m3m4m5m6m7m8m8m9m9m", 2: "9m", 3: "8m"},
          ("0 discard ?", "1 draw", "1 knock", "1 discard ?", "2 draw", "2 discard 9m", "3 draw", "3 discard 8m",
           "1 pung", "1 discard 9m", "2 draw", "2 discard ?", "3 draw", "3 discard ?", "0 draw", "0 discard 9m",
           "1 win")),
    Scene("passed_win_then_chow", "A knocks, lets B's 3m go, chows D's 9m and wins on B's next 3m",
          {0: "9m", 1: READY_3M, 2: "3m3m"},
          ("0 discard ?", "1 draw", "1 knock", "1 discard ?", "2 draw", "2 discard 3m", "3 draw", "3 discard ?",
           "0 draw", "0 discard 9m", "1 chow 7m8m9m", "1 discard 9m", "2 draw", "2 discard 3m", "1 win")),
    Scene("passed_win_then_kong", "A knocks, lets B's 9m go, kongs C's 8m and wins on B's next 9m",
          {1: "1m1m1m2m3m4m5m6m7m8m8m8m9m", 2: "9m9m", 3: "8m"},
          ("0 discard ?", "1 draw", "1 knock", "1 discard ?", "2 draw", "2 discard 9m", "3 draw", "3 discard 8m",
           "1 kong", "1 draw back", "1 discard ?", "2 draw", "2 discard 9m", "1 win")),
    Scene("passed_win_then_draw", "A knocks, lets B's 3m go, draws and throws, and wins on B's next 3m",
          {1: READY_3M, 2: "3m3m"},
          ("0 discard ?", "1 draw", "1 knock", "1 discard ?", "2 draw", "2 discard 3m", "3 draw", "3 discard ?",
           "0 draw", "0 discard ?", "1 draw", "1 discard ?", "2 draw", "2 discard 3m", "1 win")),
    Scene("passed_win_without_knocking", "A, not knocked, lets B's 3m go and wins on C's 3m before its own draw",
          {1: READY_3M, 2: "3m", 3: "3m"},
          ("0 discard ?", "1 draw", "1 discard ?", "2 draw", "2 discard 3m", "3 draw", "3 discard 3m", "1 win")),
    Scene("eight_flowers_pass_a_win", "A, dealt all eight flowers and not knocked (八花齐 wins without the knock), "
          "lets B's 3m go and wins on C's 3m before its own draw",
          {1: "1f2f3f4f5f6f7f8f1m2m3m4m5m", 2: "3m", 3: "3m"},
          tuple(e for f, t in zip("12345678", ("6m", "7m", "8m", "9m", "1m", "1m", "2m", "4m"))
                for e in (f"1 flower {f}f", f"1 draw back {t}"))
          + ("0 discard ?", "1 draw", "1 discard ?", "2 draw", "2 discard 3m", "3 draw", "3 discard 3m", "1 win")),
    Scene("eight_flowers_declared_at_the_deal", "A, dealt all eight flowers, declares 八花齐 right after the last "
          "flower's replacement, during the deal and out of turn (eight_flowers_at_deal)",
          {1: "1f2f3f4f5f6f7f8f1m2m3m4m5m"},
          tuple(e for f, t in zip("12345678", ("6m", "7m", "8m", "9m", "1p", "1p", "2p", "4p"))
                for e in (f"1 flower {f}f", f"1 draw back {t}")) + ("1 win",)),
    Scene("claimed_kong_robbed", "C claims D's 4s as a kong and A, waiting on 1s or 4s, robs it",
          {0: "4s", 1: "1m2m3m4m5m6m7m8m9m1p1p2s3s", 3: "4s4s4s"}, ("0 discard 4s", "3 kong", "1 win")),
    Scene("three_calls_then_won", "A pungs three of D's discards (1m, 3m, 6m), knocks and wins on D's 9m: three "
          "calls on one seat make a contract (承包)",
          {0: "1m3m6m9m", 1: "1m1m3m3m6m6m5m5m5m9m"},
          ("0 discard 1m", "1 pung", "1 discard ?", "2 draw", "2 discard ?", "3 draw", "3 discard ?",
           "0 draw", "0 discard 3m", "1 pung", "1 discard ?", "2 draw", "2 discard ?", "3 draw", "3 discard ?",
           "0 draw", "0 discard 6m", "1 pung", "1 knock", "1 discard ?", "2 draw", "2 discard ?", "3 draw",
           "3 discard ?", "0 draw", "0 discard 9m", "1 win")),
    Scene("two_calls_then_won", "A pungs two of D's discards and one of C's, knocks and wins on D's 9m: two calls "
          "on one seat",
          {0: "1m3m9m", 1: "1m1m3m3m6m6m5m5m5m9m", 3: "6m"},
          ("0 discard 1m", "1 pung", "1 discard ?", "2 draw", "2 discard ?", "3 draw", "3 discard ?",
           "0 draw", "0 discard 3m", "1 pung", "1 discard ?", "2 draw", "2 discard ?", "3 draw", "3 discard 6m",
           "1 pung", "1 knock", "1 discard ?", "2 draw", "2 discard ?", "3 draw", "3 discard ?", "0 draw",
           "0 discard 9m", "1 win")),
    Scene("win_without_knocking", "A wins on B's 3m without having knocked",
          {1: READY_3M, 2: "3m"}, ("0 discard ?", "1 draw", "1 discard ?", "2 draw", "2 discard 3m", "1 win")),
)


def scene_data(ruleset_id: str, s: Scene) -> dict[str, Any] | None:
    """The scene as a procedure case's input (its wall, dealer and events); None where it cannot be dealt."""
    try:
        header, events = scene(ruleset_id, s.hands, s.events)
    except SceneError:
        return None
    return {"wall": header["wall"], "dealer": header["dealer"], "events": events}
