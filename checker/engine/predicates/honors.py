"""Fans of wind and dragon pungs, and of single pungs of a kind (dragon, seat / prevalent wind, terminals)."""
from __future__ import annotations

from typing import Any, Final

from checker import tiles as T
from checker.engine.interpretation import Interpretation
from checker.engine.predicates.registry import gate, predicate
from checker.params import boolean, integer, one_of

WINDS: Final = T.WINDS
DRAGONS: Final = T.DRAGONS


@predicate("honor_pungs", {"kind": one_of("wind", "dragon"), "pungs": integer(0, 4), "pair": boolean(
    "the pair must be of the same kind of honour")}, tiles_only=True)
def honor_pungs(kind, pungs, pair=False):
    """At least `pungs` pungs/kongs of winds or dragons; with `pair`, the pair is of that kind too.
    The one instance holds every such pung."""
    tiles = WINDS if kind == "wind" else DRAGONS

    def decide(x: Interpretation) -> Any:
        groups = x.groups
        found = tuple(i for i in x.pungs if groups[i].tile in tiles)
        if len(found) < pungs:
            return ()
        if pair and (x.pair is None or x.pair.tile not in tiles):
            return ()
        return (found,)

    return gate(decide, shapes=("regular", "knitted_straight"), pungs=pungs, honors=kind + "s")


@predicate("pungs_of", {"tiles": one_of("dragons", "seat_wind", "prevalent_wind", "terminals_and_non_value_winds")})
def pungs_of(tiles):
    """Each pung/kong of: a dragon; the seat wind; the prevalent (round) wind; or a terminal or a wind that
    is neither seat nor prevalent wind (MCR's "pung of terminals or honors"). One instance per pung."""

    terminal_or_wind = frozenset(t for t in range(T.NUM_TILE_TYPES) if T.is_terminal(t) or t in WINDS)

    def decide(x: Interpretation) -> Any:
        pungs = x.pungs
        if tiles == "dragons":
            return tuple((i,) for i, t in zip(pungs, x.pung_tiles) if t >= T.FIRST_DRAGON)
        hand = x.facts.hand
        if tiles == "seat_wind":
            return tuple((i,) for i, t in zip(pungs, x.pung_tiles) if t == hand.seat_wind)
        if tiles == "prevalent_wind":
            return tuple((i,) for i, t in zip(pungs, x.pung_tiles) if t == hand.round_wind)
        seat, prevalent = hand.seat_wind, hand.round_wind
        return tuple((i,) for i, t in zip(pungs, x.pung_tiles)
                     if t in terminal_or_wind and t != seat and t != prevalent)

    honors = {"dragons": "dragons", "seat_wind": "winds", "prevalent_wind": "winds"}.get(tiles)
    return gate(decide, shapes=("regular", "knitted_straight"), pungs=1, honors=honors)


@predicate("sets_of", {"tiles": one_of("suited", "winds", "dragons"),
                       "form": one_of("pung", "exposed_kong", "concealed_kong")})
def sets_of(tiles, form):
    """Each set of numbered tiles (`suited`), winds or dragons in one form: a `pung` (concealed or exposed),
    an `exposed_kong` or a `concealed_kong`. One instance per set (Shanghai hua / 花 items)."""
    in_class = {"suited": lambda t: t < T.NUM_SUITED, "winds": lambda t: t in WINDS,
                "dragons": lambda t: t in DRAGONS}[tiles]

    def matches(g):
        if form == "pung":
            return g.kind == "pung"
        if g.kind != "kong":
            return False
        concealed_kong = g.melded and not g.exposed
        return concealed_kong if form == "concealed_kong" else g.exposed

    def decide(x: Interpretation) -> Any:
        groups = x.groups
        return tuple((i,) for i in x.pungs if in_class(groups[i].tile) and matches(groups[i]))

    return gate(decide, pungs=1)  # any shape: declared melds are sets in every reading (乱风, 八花齐)
