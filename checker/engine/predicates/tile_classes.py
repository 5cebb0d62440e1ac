"""Fans decided by which tiles the hand holds, whatever its division: flushes, ranges, tile kinds."""
from __future__ import annotations

from typing import Any, Final

from checker import tiles as T
from checker.engine.interpretation import HandFacts, Interpretation, tile_mask
from checker.engine.predicates.registry import HAND, gate, hand_gate, predicate
from checker.params import boolean, integer, list_of, one_of

CLASSES: Final = {
    "terminal": tile_mask(t for t in range(T.NUM_TILE_TYPES) if T.is_terminal(t)),
    "honor": tile_mask(t for t in range(T.NUM_TILE_TYPES) if T.is_honor(t)),
    "simple": tile_mask(t for t in range(T.NUM_TILE_TYPES) if T.is_simple(t)),
    "suited": tile_mask(t for t in range(T.NUM_TILE_TYPES) if T.is_suited(t)),
    "wind": tile_mask(t for t in range(T.NUM_TILE_TYPES) if T.is_wind(t)),
    "dragon": tile_mask(t for t in range(T.NUM_TILE_TYPES) if T.is_dragon(t)),
}


CLASS: Final = one_of(*CLASSES)
# the 34 tile types as the spec writes them (flowers are not among the hand's tiles)
TILE: Final = {"type": "string", "pattern": "^(?:[1-9][mps]|[1-7]z)$",
               "description": "a tile written 1m-9m, 1p-9p, 1s-9s or 1z-7z"}
WINDS_OR_HONORS: Final = one_of("winds", "honors")


@predicate("tile_classes", {"allowed": list_of(CLASS), "required": list_of(CLASS, at_least=0)}, scope=HAND, tiles_only=True)
def tile_classes(allowed, required=()):
    """Every tile belongs to one of the `allowed` classes and each `required` class is present."""
    allowed_mask = 0
    for name in allowed:
        allowed_mask |= CLASSES[name]
    required_masks = tuple(CLASSES[r] for r in required)

    def decide(f: HandFacts) -> Any:
        if f.mask & ~allowed_mask:
            return 0
        return int(all(f.mask & m for m in required_masks))

    return hand_gate(decide, within=allowed_mask)


@predicate("tiles_within", {"tiles": list_of(TILE, description="a list of one or more tiles, each written 1m-9m, "
                                                              "1p-9p, 1s-9s or 1z-7z, none twice")}, scope=HAND, tiles_only=True)
def tiles_within(tiles):
    """Every tile is one of the listed tiles (All green, Reversible tiles)."""
    allowed = tile_mask(T.parse_tile(t) for t in tiles)

    def decide(f: HandFacts) -> Any:
        return int(not f.mask & ~allowed)

    return hand_gate(decide, within=allowed)


@predicate("ranks_within", {"ranks": list_of(integer(1, 9))}, scope=HAND, tiles_only=True)
def ranks_within(ranks):
    """Only numbered tiles, all of the listed ranks (Upper / Middle / Lower tiles, Upper / Lower four)."""
    allowed = tile_mask(9 * s + r - 1 for s in range(3) for r in ranks)

    def decide(f: HandFacts) -> Any:
        return int(not f.mask & ~allowed)

    return hand_gate(decide, within=allowed)


@predicate("one_suit", {"honors": one_of("forbidden", "required")}, scope=HAND, tiles_only=True)
def one_suit(honors):
    """One numbered suit only; honours `forbidden` (Full flush) or `required` (Half flush)."""

    def decide(f: HandFacts) -> Any:
        if len(f.suits) != 1:
            return 0
        has_honors = f.has_winds or f.has_dragons
        return int(has_honors if honors == "required" else not has_honors)

    return decide


@predicate("suits_present", {"count": integer(0, 3)}, scope=HAND, tiles_only=True)
def suits_present(count):
    """Exactly `count` of the three numbered suits are present (One voided suit: 2)."""

    def decide(f: HandFacts) -> Any:
        return int(len(f.suits) == count)

    return decide


@predicate("all_types", scope=HAND, tiles_only=True)
def all_types():
    """All three numbered suits, a wind and a dragon are present."""

    def decide(f: HandFacts) -> Any:
        return int(len(f.suits) == 3 and f.has_winds and f.has_dragons)

    return decide


@predicate("tile_hog", {"honors": boolean("four copies of an honour count too")}, scope=HAND, tiles_only=True)
def tile_hog(honors):
    """Each tile type whose four copies are all in the hand without forming a kong; honours only if `honors`."""

    def decide(f: HandFacts) -> Any:
        counts, kongs = f.counts, f.kong_mask
        hogs = 0
        for t in range(T.NUM_TILE_TYPES if honors else T.NUM_SUITED):
            if counts[t] == 4 and not kongs >> t & 1:
                hogs += 1
        return hogs

    return decide


@predicate("flowers", scope=HAND, context_only=True)
def flowers():
    """One per flower tile."""

    def decide(f: HandFacts) -> Any:
        return len(f.hand.flowers)

    return decide


# the flowers of one seat, written as tiles (春 and 梅, East's: "1f5f")
FLOWER_GROUP: Final = {"type": "string", "pattern": "^(?:[1-8]f)+$",
                       "description": "flower tiles written together, e.g. 1f5f"}
SEAT_FLOWERS: Final = {"type": "array", "items": FLOWER_GROUP, "minItems": 4, "maxItems": 4,
                       "description": "four groups of flower tiles, the flowers of East, South, West and North in "
                                      "that order, e.g. [1f5f, 2f6f, 3f7f, 4f8f]"}


@predicate("seat_flowers", {"by_seat": SEAT_FLOWERS}, scope=HAND)
def seat_flowers(by_seat):
    """One per flower of the hand's own seat (坐花): `by_seat` gives the flowers of East, South, West and North."""
    own = {T.WIND_TILES[wind]: frozenset(T.parse_tiles(group)) for wind, group in zip("ESWN", by_seat)}

    def decide(f: HandFacts) -> Any:
        mine = own.get(f.hand.seat_wind)
        if not mine:
            return 0
        n = 0
        for t in f.hand.flowers:
            if t in mine:
                n += 1
        return n

    return decide


@predicate("flush_pungs", {"honors": one_of("forbidden", "winds", "honors"), "pungs": boolean(
    "four pungs or kongs and a pair are needed too")}, tiles_only=True)
def flush_pungs(honors, pungs=True):
    """One numbered suit with no honours (`forbidden`), or with honours of the given class (`winds`: winds and
    no dragons; `honors`: any honours); with `pungs`, also four pungs/kongs and a pair (清碰, 混碰); without,
    any arrangement (Shanghai 混一色)."""

    def decide(x: Interpretation) -> Any:
        f = x.facts
        if len(f.suits) != 1:
            return 0
        if honors == "forbidden" and (f.has_winds or f.has_dragons):
            return 0
        if honors == "winds" and (f.has_dragons or not f.has_winds):
            return 0
        if honors == "honors" and not (f.has_winds or f.has_dragons):
            return 0
        return int(not pungs or (x.shape == "regular" and len(x.pungs) == 4))

    return decide


@predicate("one_class", {"tiles": WINDS_OR_HONORS}, scope=HAND, tiles_only=True)
def one_class(tiles):
    """Every tile is a wind (`winds`) or every tile an honour (`honors`) (Shanghai 风一色)."""
    allowed = CLASSES["wind"] if tiles == "winds" else CLASSES["honor"]

    def decide(f: HandFacts) -> Any:
        return int(not f.mask & ~allowed)

    return hand_gate(decide, within=allowed)


@predicate("class_pungs_only", {"tiles": WINDS_OR_HONORS}, tiles_only=True)
def class_pungs_only(tiles):
    """Every tile a wind (`winds`) or an honour (`honors`), as four pungs/kongs and a pair (风碰)."""
    allowed = CLASSES["wind"] if tiles == "winds" else CLASSES["honor"]

    def decide(x: Interpretation) -> Any:
        return int(x.shape == "regular" and not x.facts.mask & ~allowed and len(x.pungs) == 4)

    return gate(decide, shapes=("regular",), pungs=4, within=allowed)
