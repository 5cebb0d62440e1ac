"""Scenes of play around the rules bots seldom reach: the hand-written candidates of the procedure search.

Each scene is a short log (`checker.table.scene`) built so that one rule of play decides its outcome; the
search (`checker.separating.search`) runs it under the spec and under a mutant, and a scene whose results
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
- an added kong in the claim turn (claims/added_kong_after_claim): A holds three 5p, pungs D's 5p and adds its own
  fourth 5p to the pung before discarding.
- a concealed kong after knocking (knock/concealed_kong, s-000-018): A knocks holding three 1m, draws the fourth
  and declares a concealed kong that leaves its wait as it was.
- the last discard punged (claims/last_discard; `last_discard_punged`, played on a table rather than written): the
  wall played out, each seat throwing what it draws; the seat across from the last discarder pungs it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from checker import tiles as T
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
    Scene("added_kong_in_the_claim_turn", "A holds three 5p, pungs D's 5p and adds its own fourth 5p to the pung "
          "before discarding", {0: "5p", 1: "5p5p5p"},
          ("0 discard 5p", "1 pung", "1 add_kong 5p", "1 draw back", "1 discard ?")),
    Scene("concealed_kong_after_knocking", "A knocks holding three 1m, waiting on 1p or 4p, draws the fourth 1m and "
          "declares a concealed kong, which leaves its wait as it was",
          {1: "1m1m1m4m5m6m7m8m9m2p3p5p5p"},
          ("0 discard ?", "1 draw", "1 knock", "1 discard ?", "2 draw", "2 discard ?", "3 draw", "3 discard ?",
           "0 draw", "0 discard ?", "1 draw 1m", "1 concealed_kong 1m", "1 draw back", "1 discard ?")),
)

# The deal of `last_discard_punged` before the taker is given its pair: no flower, no dragon (a ruleset may count
# the dragons as flowers), no pair (so nobody pungs or wins while the wall is played out).
PLAYED_OUT = {0: "1m2m3m4m5m6m7m8m9m1p2p3p4p5p", 1: "1s2s3s4s5s6s7s8s9s1z2z3z4z",
              2: "1m2m3m4m5m6m7m8m9m6p7p8p9p", 3: "1s2s3s4s5s6s7s8s9s1z2z3z4z"}
PLAYED_OUT_TRIES = 4  # deals tried: each gives the taker a pair of the last discard of the one before


def last_discard_punged(ruleset_id: str) -> dict[str, Any] | None:
    """A procedure case's input (wall, dealer, events): the wall played out (the dealer throws 5p, then each seat
    draws and throws what it drew, a flower exposed and replaced from the back first), then the seat across from
    the last discarder pungs that last discard, throws, and the hand is drawn. The taker is dealt a pair of the
    tile found last on a deal without it (tried again until the two agree); None where no deal gives it."""
    from checker.table.log import GAME, VERSION, LogError, new_table
    from checker.table.wall import WallError, arrange_wall

    hands = dict(PLAYED_OUT)
    for _ in range(PLAYED_OUT_TRIES):
        try:
            header = {"game": GAME, "version": VERSION, "ruleset": ruleset_id, "dealer": 0,
                      "wall": T.format_tiles(arrange_wall(hands))}
            table = new_table(header)
        except (WallError, LogError, ValueError):
            return None
        events = _played_out(table)
        if events is None:
            return None
        seat, tile = int(events[-1]["seat"]), T.parse_tiles(str(events[-1]["tile"]))[0]
        taker = (seat + 2) % 4
        held = list(T.parse_tiles(hands[taker]))
        if held.count(tile) >= 2:
            thrown = next(t for t in held if t != tile)
            events += [{"event": "pung", "seat": taker}, {"event": "discard", "seat": taker,
                                                         "tile": T.tile_name(thrown)}, {"event": "draw_game"}]
            return {"wall": header["wall"], "dealer": 0, "events": events}
        need = 2 - held.count(tile)
        hands[taker] = T.format_tiles(sorted([tile] * 2 + [t for t in held if t != tile][need:]))
    return None


def _played_out(table: Any) -> list[dict[str, Any]] | None:
    """The events of the table's hand played to its last discard (as `last_discard_punged` says); None when the
    table refuses one of them."""
    from checker.table.events import parse_event

    events: list[dict[str, Any]] = []

    def play(ev: dict[str, Any]) -> bool:
        events.append(ev)
        return table.apply(parse_event(ev)) is None

    if not play({"event": "discard", "seat": 0, "tile": "5p"}):
        return None
    seat = 0
    while table.live_tiles > 0:
        seat = (seat + 1) % 4
        if not play({"event": "draw", "seat": seat}):
            return None
        p = table.players[seat]
        while table.holds_flower(p) >= 0:
            if not (play({"event": "flower", "seat": seat, "tile": T.tile_name(table.holds_flower(p))})
                    and play({"event": "draw", "seat": seat, "from": "back"})):
                return None
        drawn = p.drawn
        if drawn < 0 or not play({"event": "discard", "seat": seat, "tile": T.tile_name(drawn)}):
            return None
    return events


def scene_data(ruleset_id: str, s: Scene) -> dict[str, Any] | None:
    """The scene as a procedure case's input (its wall, dealer and events); None where it cannot be dealt."""
    try:
        header, events = scene(ruleset_id, s.hands, s.events)
    except SceneError:
        return None
    return {"wall": header["wall"], "dealer": header["dealer"], "events": events}
