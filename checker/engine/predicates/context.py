"""Fans decided by how and when the hand was won: self-draw, last tile, replacement draws, robbing the kong,
and the wait the winning tile filled."""
from __future__ import annotations

from typing import Any, Final

from checker.engine.hand import WIN_BY
from checker.engine.interpretation import HandFacts, Interpretation
from checker.engine.predicates.registry import HAND, SPECIAL, gate, hand_gate, predicate
from checker.params import COUNTER, FLAG, boolean, list_of, one_of

WAYS_OF_WINNING: Final = list_of(one_of(*WIN_BY))  # an empty list would make the predicate never hold


@predicate("win_context", {"win_by": WAYS_OF_WINNING, "flag": FLAG}, scope=HAND, context_only=True)
def win_context(win_by=WIN_BY, flag=None):
    """The hand was won in one of the `win_by` ways and, if given, the context `flag` is set."""

    def decide(f: HandFacts) -> Any:
        return int(f.hand.win_by in win_by and (flag is None or flag in f.flags))

    return hand_gate(decide, flag=flag, win_by=win_by)


@predicate("last_copy", {"flag": FLAG, "own_melds": boolean(
    "the other three copies lying in the winner's own exposed melds make the winning tile its last copy too")},
           scope=HAND, context_only=True, required=("flag",))
def last_copy(flag, own_melds=True):
    """The winning tile is its last copy: the other three are public, either as the context `flag` says or
    (`own_melds`) because they lie in the winner's own exposed melds (a concealed kong is face down)."""

    def decide(f: HandFacts) -> Any:
        hand = f.hand
        if flag in f.flags:
            return 1
        if not own_melds or f.counts[hand.win_tile] < 4:  # three copies shown in melds and the winning tile: four
            return 0
        shown = sum(m.tiles.count(hand.win_tile) for m in hand.melds if m.exposed)
        return int(shown == 3)

    return decide


@predicate("replacement_draw_win", {"kong_flag": FLAG, "flower_flag": FLAG, "flower_replacement_counts": boolean(
    "a win on a flower's replacement tile counts as a replacement draw win too"), "also_flag": FLAG,
                                    "also_win_by": WAYS_OF_WINNING}, scope=HAND, context_only=True,
           required=("kong_flag",))
def replacement_draw_win(kong_flag, flower_flag=None, flower_replacement_counts=False, also_flag=None,
                         also_win_by=WIN_BY):
    """Self-drawn on the replacement tile after a kong (the context `kong_flag`); after a flower too (`flower_flag`)
    when `flower_replacement_counts`. With both flags the winning tile replaced a flower drawn as a kong's replacement: a flower replacement,
    not a kong's own (MCR: "A flower replacement after a kong is not a direct Out with Replacement Tile win").
    `also_flag`: a win by `also_win_by` with that flag counts as well (no ruleset says so: an engine that reads
    the flag as a replacement draw, `checker.mutate.context.read_as_replacement`)."""

    def decide(f: HandFacts) -> Any:
        if also_flag is not None and also_flag in f.flags and f.hand.win_by in also_win_by:
            return 1
        if f.hand.win_by != "self_draw":
            return 0
        if flower_flag is not None and flower_flag in f.flags:
            return int(flower_replacement_counts)
        return int(kong_flag in f.flags)

    return hand_gate(decide, win_by=("self_draw",) if also_flag is None else None)


@predicate("wait", {"kind": one_of("edge", "closed", "single"), "single_tile_type": boolean(
                        "a wait counts only when the hand waits on that one tile type"),
                    "held_four_is_a_wait": boolean(
                        "a tile whose four copies the hand already holds counts among its waits")})
def wait(kind, single_tile_type=True, held_four_is_a_wait=False):
    """The winning tile filled an `edge`, `closed` (middle of a chow) or `single` (pair) wait; with
    `single_tile_type`, only when the hand waited on that one tile type. A tile whose four copies the hand
    already holds counts among its waits only with `held_four_is_a_wait`."""

    def decide(x: Interpretation) -> Any:
        if x.win_kind != kind:
            return 0
        if not single_tile_type:
            return 1
        return int(x.facts.waits_on_one_tile(held_four_is_a_wait))

    return gate(decide, win_kind=kind)


@predicate("counter", {"name": COUNTER, "stacking": one_of("per_count", "once")}, scope=HAND,
           context_only=True)
def counter(name, stacking="per_count"):
    """The hand's whole-number context `name` (e.g. huangfan: drawn hands in a row), counted once per unit
    (`per_count`) or at most once (`once`)."""

    def decide(f: HandFacts) -> Any:
        n = f.hand.counter(name)
        return min(n, 1) if stacking == "once" else n

    return decide


@predicate("going_out", scope=HAND, always=True)
def going_out():
    """Always holds: the base a hand earns for going out."""

    def decide(f: HandFacts) -> Any:
        return 1

    return decide


@predicate("no_other_fan", scope=SPECIAL)
def no_other_fan():
    """Chicken hand: decided by the scorer, which checks that no interpretation has any other fan."""
    return None
