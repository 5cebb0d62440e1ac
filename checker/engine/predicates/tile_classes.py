"""Fans decided by which tiles the hand holds, whatever its division: flushes, ranges, tile kinds."""
from __future__ import annotations

from typing import Any, Final

from checker import tiles as T
from checker.engine.interpretation import HandFacts, Interpretation, tile_mask
from checker.engine.predicates.registry import HAND, choice, gate, hand_gate, predicate

CLASSES: Final = {
    "terminal": tile_mask(t for t in range(34) if T.is_terminal(t)),
    "honor": tile_mask(t for t in range(34) if T.is_honor(t)),
    "simple": tile_mask(t for t in range(34) if T.is_simple(t)),
    "suited": tile_mask(t for t in range(34) if T.is_suited(t)),
    "wind": tile_mask(t for t in range(34) if T.is_wind(t)),
    "dragon": tile_mask(t for t in range(34) if T.is_dragon(t)),
}


@predicate("tile_classes", ("allowed", "required"), scope=HAND)
def tile_classes(allowed, required=()):
    """Every tile belongs to one of the `allowed` classes and each `required` class is present."""
    for name in tuple(allowed) + tuple(required):
        choice("class", name, CLASSES)
    allowed_mask = 0
    for name in allowed:
        allowed_mask |= CLASSES[name]
    required_masks = tuple(CLASSES[r] for r in required)

    def decide(f: HandFacts) -> Any:
        if f.mask & ~allowed_mask:
            return 0
        return int(all(f.mask & m for m in required_masks))

    return hand_gate(decide, within=allowed_mask)


@predicate("tiles_within", ("tiles",), scope=HAND)
def tiles_within(tiles):
    """Every tile is one of the listed tiles (All green, Reversible tiles)."""
    allowed = tile_mask(T.parse_tile(t) for t in tiles)

    def decide(f: HandFacts) -> Any:
        return int(not f.mask & ~allowed)

    return hand_gate(decide, within=allowed)


@predicate("ranks_within", ("ranks",), scope=HAND)
def ranks_within(ranks):
    """Only numbered tiles, all of the listed ranks (Upper / Middle / Lower tiles, Upper / Lower four)."""
    allowed = tile_mask(9 * s + r - 1 for s in range(3) for r in ranks)

    def decide(f: HandFacts) -> Any:
        return int(not f.mask & ~allowed)

    return hand_gate(decide, within=allowed)


@predicate("one_suit", ("honors",), scope=HAND)
def one_suit(honors):
    """One numbered suit only; honours `forbidden` (Full flush) or `required` (Half flush)."""
    choice("honors", honors, ("forbidden", "required"))

    def decide(f: HandFacts) -> Any:
        if len(f.suits) != 1:
            return 0
        has_honors = f.has_winds or f.has_dragons
        return int(has_honors if honors == "required" else not has_honors)

    return decide


@predicate("suits_present", ("count",), scope=HAND)
def suits_present(count):
    """Exactly `count` of the three numbered suits are present (One voided suit: 2)."""

    def decide(f: HandFacts) -> Any:
        return int(len(f.suits) == count)

    return decide


@predicate("all_types", scope=HAND)
def all_types():
    """All three numbered suits, a wind and a dragon are present."""

    def decide(f: HandFacts) -> Any:
        return int(len(f.suits) == 3 and f.has_winds and f.has_dragons)

    return decide


@predicate("tile_hog", ("honors",), scope=HAND)
def tile_hog(honors):
    """Each tile type whose four copies are all in the hand without forming a kong; honours only if `honors`."""

    def decide(f: HandFacts) -> Any:
        counts, kongs = f.counts, f.kong_mask
        hogs = 0
        for t in range(34 if honors else 27):
            if counts[t] == 4 and not kongs >> t & 1:
                hogs += 1
        return hogs

    return decide


@predicate("flowers", scope=HAND)
def flowers():
    """One per flower tile."""

    def decide(f: HandFacts) -> Any:
        return len(f.hand.flowers)

    return decide


@predicate("flush_pungs", ("honors", "pungs"))
def flush_pungs(honors, pungs=True):
    """One numbered suit with no honours (`forbidden`), or with honours of the given class (`winds`: winds and
    no dragons; `honors`: any honours); with `pungs`, also four pungs/kongs and a pair (清碰, 混碰); without,
    any arrangement (Shanghai 混一色)."""
    choice("honors", honors, ("forbidden", "winds", "honors"))

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


@predicate("one_class", ("tiles",), scope=HAND)
def one_class(tiles):
    """Every tile is a wind (`winds`) or every tile an honour (`honors`) (Shanghai 风一色)."""
    choice("tiles", tiles, ("winds", "honors"))
    allowed = CLASSES["wind"] if tiles == "winds" else CLASSES["honor"]

    def decide(f: HandFacts) -> Any:
        return int(not f.mask & ~allowed)

    return hand_gate(decide, within=allowed)


@predicate("class_pungs_only", ("tiles",))
def class_pungs_only(tiles):
    """Every tile a wind (`winds`) or an honour (`honors`), as four pungs/kongs and a pair (风碰)."""
    choice("tiles", tiles, ("winds", "honors"))
    allowed = CLASSES["wind"] if tiles == "winds" else CLASSES["honor"]

    def decide(x: Interpretation) -> Any:
        return int(x.shape == "regular" and not x.facts.mask & ~allowed and len(x.pungs) == 4)

    return gate(decide, shapes=("regular",), pungs=4)
