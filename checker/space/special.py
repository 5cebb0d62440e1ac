"""The concealed hands of the special shapes, each once, by tile counts, within a tile mask: seven pairs (four
identical tiles counted as two pairs included: whether a ruleset accepts them is the engine's to say), thirteen
orphans, honors-and-knitted and knitted straight. Each space knows its size before it runs and numbers its hands,
so `hands(start, stop)` gives a shard of them; `SpecialSpace` numbers all four in that order (the sweep's
`--space special`).
"""
from __future__ import annotations

from itertools import combinations, islice, permutations, product
from typing import Iterator

from checker import tiles as T
from checker.engine.shapes import ORPHANS
from checker.space.concealed import ALL_TILES, ConcealedSpace

HONORS = tuple(T.HONORS)


def _allowed(tiles: int, mask: int) -> list[int]:
    return [t for t in range(T.NUM_TILE_TYPES) if mask >> t & 1 and tiles >> t & 1]


def knitted_sets() -> list[tuple[int, ...]]:
    """The six knitted straights: 147 in one suit, 258 in another, 369 in the third (nine tiles each)."""
    out = []
    for order in permutations(range(3)):
        out.append(tuple(sorted(9 * suit + rank for suit, start in zip(order, range(3)) for rank in (start, start + 3,
                                                                                                      start + 6))))
    return sorted(out)


class SevenPairsSpace:
    """Seven pairs of tile types within the mask; a type may give two pairs (four identical tiles)."""

    name = "seven_pairs"

    def __init__(self, tiles: int = ALL_TILES):
        self.types = _allowed(tiles, ALL_TILES)
        # ways[i][k]: the multiplicities 0-2 over the types from the i-th on that sum to k pairs
        ways = [[1] + [0] * 7]
        for _ in self.types:
            after = ways[0]
            ways.insert(0, [sum(after[k - m] for m in (0, 1, 2) if k - m >= 0) for k in range(8)])
        self.ways = ways
        self.size = ways[0][7]

    def hands(self, start: int = 0, stop: int | None = None) -> Iterator[tuple[int, ...]]:
        """The hands numbered start … stop-1 (each type gives two pairs, then one, then none, the first type
        first); the hands before `start` are counted past, not made."""
        stop = self.size if stop is None else min(stop, self.size)
        skip, left_to_give = start, stop - start
        counts = [0] * T.NUM_TILE_TYPES
        ways, types = self.ways, self.types

        def walk(i: int, left: int) -> Iterator[tuple[int, ...]]:
            nonlocal skip, left_to_give
            if left == 0:
                left_to_give -= 1
                yield tuple(counts)
                return
            if i == len(types):
                return
            t = types[i]
            for pairs in (2, 1, 0):
                if pairs > left:
                    continue
                below = ways[i + 1][left - pairs]
                if below <= skip:  # every hand below comes before `start` (or there is none)
                    skip -= below
                    continue
                counts[t] = 2 * pairs
                yield from walk(i + 1, left - pairs)
                counts[t] = 0
                if left_to_give <= 0:
                    return

        if left_to_give > 0:
            yield from walk(0, 7)


class ThirteenOrphansSpace:
    """One of each terminal and honour, one of them twice."""

    name = "thirteen_orphans"

    def __init__(self, tiles: int = ALL_TILES):
        self.ok = all(tiles >> t & 1 for t in ORPHANS)
        self.size = len(ORPHANS) if self.ok else 0

    def hands(self, start: int = 0, stop: int | None = None) -> Iterator[tuple[int, ...]]:
        if not self.ok:
            return
        for twice in ORPHANS[start:stop]:
            yield tuple((2 if t == twice else 1) if t in ORPHANS else 0 for t in range(T.NUM_TILE_TYPES))


class HonorsAndKnittedSpace:
    """Fourteen distinct tiles from one knitted straight's nine and the seven honours."""

    name = "honors_and_knitted"

    def __init__(self, tiles: int = ALL_TILES):
        self.pools = [[t for t in k + HONORS if tiles >> t & 1] for k in knitted_sets()]
        self.size = sum(_choose(len(p), 14) for p in self.pools)

    def hands(self, start: int = 0, stop: int | None = None) -> Iterator[tuple[int, ...]]:
        yield from islice(self._all(), start, stop)  # 720 hands at most: counting past them is cheap

    def _all(self) -> Iterator[tuple[int, ...]]:
        for pool in self.pools:
            for chosen in combinations(pool, 14):
                yield tuple(1 if t in chosen else 0 for t in range(T.NUM_TILE_TYPES))


class KnittedStraightSpace:
    """A knitted straight and one set and a pair (each hand once, though two straights could read it)."""

    name = "knitted_straight"

    def __init__(self, tiles: int = ALL_TILES):
        self.tiles = tiles
        rest = ConcealedSpace(tiles=tiles, sets=1)
        self.rests = list(rest.hands())
        self.knits = [k for k in knitted_sets() if all(tiles >> t & 1 for t in k)]
        seen = set()
        for counts in self._all():
            seen.add(counts)
        self.size = len(seen)
        self._seen = sorted(seen)

    def _all(self) -> Iterator[tuple[int, ...]]:
        for knit, rest in product(self.knits, self.rests):
            counts = list(rest)
            for t in knit:
                counts[t] += 1
            if max(counts) <= 4:
                yield tuple(counts)

    def hands(self, start: int = 0, stop: int | None = None) -> Iterator[tuple[int, ...]]:
        yield from self._seen[start:stop]


SPECIAL_SPACES = {cls.name: cls for cls in (SevenPairsSpace, ThirteenOrphansSpace, HonorsAndKnittedSpace,
                                            KnittedStraightSpace)}


class SpecialSpace:
    """Every concealed hand of a special shape within the tile mask: the seven pairs hands, then thirteen
    orphans, honors-and-knitted and knitted straight, numbered in that order. No hand is in two of them (a
    hand of pairs holds no single tile; the others hold at least nine)."""

    name = "special"

    def __init__(self, tiles: int = ALL_TILES):
        self.parts = [cls(tiles) for cls in SPECIAL_SPACES.values()]
        self.starts: list[int] = []
        total = 0
        for part in self.parts:
            self.starts.append(total)
            total += part.size
        self.size = total

    def hands(self, start: int = 0, stop: int | None = None) -> Iterator[tuple[int, ...]]:
        """The hands numbered start … stop-1, as 34 tile counts."""
        stop = self.size if stop is None else min(stop, self.size)
        for part, first in zip(self.parts, self.starts):
            if first >= stop:
                break
            if first + part.size > start:
                yield from part.hands(max(start - first, 0), stop - first)


def _choose(n: int, k: int) -> int:
    if k > n:
        return 0
    out = 1
    for i in range(k):
        out = out * (n - i) // (i + 1)
    return out
