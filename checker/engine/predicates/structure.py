"""Fans decided by the groups of one interpretation: all pungs / chows, concealed pungs, kongs, the special
shapes (seven pairs, knitted tiles, nine gates) and what every set contains."""
from __future__ import annotations

from typing import Any, Final

from checker import tiles as T
from checker.engine.interpretation import HandFacts, Interpretation
from checker.engine.predicates.context import WAYS_OF_WINNING
from checker.engine.predicates.registry import HAND, gate, hand_gate, predicate
from checker.engine.shapes import CHOW, KNITTED_STRAIGHTS, KONG, SHAPES
from checker.params import boolean, integer, one_of

NINE_GATES: Final = (3, 1, 1, 1, 1, 1, 1, 1, 3)


@predicate("shape_is", {"shape": one_of(*SHAPES)}, tiles_only=True)
def shape_is(shape):
    """The interpretation has this shape (Seven pairs, Thirteen orphans)."""

    def decide(x: Interpretation) -> Any:
        return int(x.shape == shape)

    return gate(decide, shapes=(shape,))


@predicate("all_pungs", tiles_only=True)
def all_pungs():
    """Four pungs/kongs and a pair."""

    def decide(x: Interpretation) -> Any:
        return int(x.shape == "regular" and len(x.pungs) == 4)

    return gate(decide, shapes=("regular",), pungs=4)


@predicate("all_chows", {"knitted_straight": boolean("a knitted straight counts as three chows")}, tiles_only=True)
def all_chows(knitted_straight=False):
    """Four chows and a pair of a numbered tile; with `knitted_straight`, a knitted straight counts as three
    chows (knitted straight + a chow + a numbered pair)."""

    def decide(x: Interpretation) -> Any:
        if x.pair is None or x.pair.tile >= T.NUM_SUITED:
            return 0
        if x.shape == "regular":
            return int(len(x.chows) == 4)
        return int(knitted_straight and x.shape == "knitted_straight" and len(x.chows) == 1)

    if knitted_straight:
        return gate(decide, shapes=("regular", "knitted_straight"), chows=1)
    return gate(decide, shapes=("regular",), chows=4)


@predicate("all_even_pungs", tiles_only=True)
def all_even_pungs():
    """Four pungs/kongs and a pair, all of even numbered tiles (2, 4, 6, 8)."""

    def decide(x: Interpretation) -> Any:
        if x.shape != "regular" or len(x.pungs) != 4:
            return 0
        return int(all(g.tile < T.NUM_SUITED and g.tile % 9 in (1, 3, 5, 7) for g in x.groups))

    return gate(decide, shapes=("regular",), pungs=4)


@predicate("every_set_contains", {"tiles": one_of("five", "terminal_or_honor")}, tiles_only=True)
def every_set_contains(tiles):
    """Every set and the pair holds a 5 (`five`) or a terminal or honour (`terminal_or_honor`)."""
    test = (lambda t: t < T.NUM_SUITED and t % 9 == 4) if tiles == "five" else T.is_terminal_or_honor
    # whether a chow starting at t / any other group of tile t holds such a tile
    chow_holds = tuple(t < T.NUM_SUITED and t % 9 <= 6 and any(test(t + k) for k in range(3))
                       for t in range(T.NUM_TILE_TYPES))
    tile_holds = tuple(test(t) for t in range(T.NUM_TILE_TYPES))

    def decide(x: Interpretation) -> Any:
        if x.shape != "regular":
            return 0
        for g in x.groups:
            if not (chow_holds if g.kind == CHOW else tile_holds)[g.tile]:
                return 0
        return 1

    return gate(decide, shapes=("regular",))


@predicate("concealed_pungs", {"at_least": integer(0, 4), "discard_completed": boolean(
    "a pung completed by a discard counts as concealed")})  # at most four pungs
def concealed_pungs(at_least, discard_completed=False):
    """At least `at_least` concealed pungs/kongs. A pung completed by a discard is not concealed (MCR: "a pung
    completed by ron is not concealed"); `discard_completed`: it is (a reading the rules rule out, which an
    engine may make: checker.mutate names it)."""

    def decide(x: Interpretation) -> Any:
        groups = x.groups
        if discard_completed:
            return int(sum(1 for i in x.pungs if groups[i].concealed or not groups[i].melded) >= at_least)
        return int(sum(1 for i in x.pungs if groups[i].concealed) >= at_least)

    return gate(decide, shapes=("regular", "knitted_straight"), pungs=at_least)


@predicate("kongs", {"at_least": integer(0, 4), "concealed": boolean("only concealed kongs count"),
                    "melded": boolean("only exposed kongs count")})
def kongs(at_least, concealed=None, melded=None):
    """At least `at_least` kongs; only concealed kongs if `concealed`, only exposed ones if `melded`.
    The one instance holds every such kong."""

    def decide(x: Interpretation) -> Any:
        found = tuple(i for i, g in enumerate(x.groups)
                      if g.kind == KONG and not (concealed and not g.concealed) and not (melded and not g.exposed))
        return (found,) if len(found) >= at_least else ()

    return gate(decide, shapes=("regular", "knitted_straight"), kongs=at_least)


@predicate("melded_hand", {"win_by": WAYS_OF_WINNING, "count_concealed_kongs": boolean(
    "a concealed kong counts as laid down")})
def melded_hand(win_by=("discard",), count_concealed_kongs=False):
    """Four sets laid down (exposed; concealed kongs too if `count_concealed_kongs`); the winning tile,
    won as listed in `win_by`, completes the pair (MCR Melded hand, Shanghai 大吊车 / 大挑车)."""

    def decide(x: Interpretation) -> Any:
        hand = x.facts.hand
        laid = len(hand.melds) if count_concealed_kongs else x.facts.exposed_melds
        return int(laid == 4 and hand.win_by in win_by and x.win_kind == "single")

    return gate(decide, shapes=("regular",), win_kind="single")


@predicate("concealment", {"win_by": WAYS_OF_WINNING}, scope=HAND)
def concealment(win_by):
    """No exposed sets (a concealed kong is not exposed) and the win came as listed
    (Fully concealed hand: self_draw; Concealed hand: a claimed tile)."""

    def decide(f: HandFacts) -> Any:
        return int(f.exposed_melds == 0 and f.hand.win_by in win_by)

    return hand_gate(decide, win_by=win_by)


@predicate("concealed_hand", {"self_draw_only": boolean("the hand must be self-drawn too")}, scope=HAND)
def concealed_hand(self_draw_only=False):
    """Nothing claimed: no chow, pung or exposed kong (concealed kongs allowed); self-drawn too if
    `self_draw_only` (Shanghai 门清)."""

    def decide(f: HandFacts) -> Any:
        return int(f.exposed_melds == 0 and (not self_draw_only or f.hand.win_by == "self_draw"))

    return hand_gate(decide, win_by=("self_draw",) if self_draw_only else None)


@predicate("nine_gates", scope=HAND)
def nine_gates():
    """No melds; before the winning tile the hand is 1112345678999 of one suit; the winning tile is of that suit."""

    def decide(f: HandFacts) -> Any:
        hand = f.hand
        if hand.melds or len(f.suits) != 1 or f.has_winds or f.has_dragons:
            return 0
        suit = hand.win_tile // 9
        before = list(f.closed_counts[9 * suit: 9 * suit + 9])
        before[hand.win_tile % 9] -= 1
        return int(tuple(before) == NINE_GATES)

    return decide


@predicate("seven_shifted_pairs", tiles_only=True)
def seven_shifted_pairs():
    """Seven pairs of seven consecutive ranks in one suit."""

    def decide(x: Interpretation) -> Any:
        if x.shape != "seven_pairs":
            return 0
        tiles = sorted(g.tile for g in x.groups)
        return int(tiles[0] < T.NUM_SUITED and tiles[-1] // 9 == tiles[0] // 9
                   and tiles == list(range(tiles[0], tiles[0] + 7)))

    return gate(decide, shapes=("seven_pairs",))


@predicate("honors_and_knitted_tiles", {"all_honors": boolean("all seven honours must be among its tiles")}, tiles_only=True)
def honors_and_knitted(all_honors):
    """The honours-and-knitted-tiles shape; with `all_honors`, all seven honours are among its tiles."""

    def decide(x: Interpretation) -> Any:
        if x.shape != "honors_and_knitted":
            return 0
        return int(not all_honors or all(x.facts.counts[t] for t in range(T.NUM_SUITED, T.NUM_TILE_TYPES)))

    return gate(decide, shapes=("honors_and_knitted",))


@predicate("contains_knitted_straight", tiles_only=True)
def knitted_straight():
    """The hand holds a full knitted straight: 147, 258 and 369 each in a different suit."""

    def decide(x: Interpretation) -> Any:
        if x.shape == "knitted_straight":
            return 1
        if x.shape == "honors_and_knitted":
            counts = x.facts.counts
            return int(any(all(counts[t] for t in s) for s in KNITTED_STRAIGHTS))
        return 0

    return gate(decide, shapes=("knitted_straight", "honors_and_knitted"))
