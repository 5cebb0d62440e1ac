"""Every concealed complete regular hand (four sets and a pair), each once, by tile counts.

A hand is its 34 tile counts. Each suit's share of a complete hand is complete on its own (sets never cross
suits), and the honors take pungs and a pair only, so the space is a product: per suit, the count patterns
of its share (a "part"), combined over the three suits and the honors so that the sizes add up to 14 with
exactly one pair among them. The whole space holds 11,498,658 hands.

Hands are numbered: the compositions (how many tiles in characters, dots, bamboo, honors) in a fixed order,
then within one composition the parts in mixed radix (characters most significant). A shard is an id range,
so its size is known before it runs and the same id always names the same hand.

A space may be narrowed (the hunter's proofs): to hands that use only some tile types, or to hands with a
division into exactly so many chows (the rest pungs). A narrowed space numbers its own hands.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import product
from typing import Iterable, Iterator, Sequence

from checker import tiles as T

ALL_TILES = (1 << T.NUM_TILE_TYPES) - 1
SETS = 4  # a complete regular hand: four sets and a pair


@dataclass(frozen=True)
class Part:
    """One suit's share of a hand: its counts and the numbers of chows its divisions may have (bit c set
    when some division of the share has c chows)."""

    counts: tuple[int, ...]
    chows: int


@lru_cache(maxsize=None)
def _parts(honors: bool) -> dict[int, tuple[Part, ...]]:
    """Every complete pattern of one suit (9 ranks) or of the honors (7 tiles, pungs only), by its number of
    tiles (0, 2, 3, 5, … 14); each pattern once, sorted by counts."""
    size = 7 if honors else 9
    sets: list[tuple[int, tuple[int, ...]]] = []  # (is a chow, the ranks it uses)
    if not honors:
        sets += [(1, (r, r + 1, r + 2)) for r in range(size - 2)]
    sets += [(0, (r, r, r)) for r in range(size)]
    found: dict[tuple[int, ...], int] = {}

    def walk(counts: list[int], start: int, left: int, chows: int) -> None:
        for pair in [None] + list(range(size)):
            c = counts[:]
            if pair is not None:
                c[pair] += 2
                if c[pair] > 4:
                    continue
            key = tuple(c)
            found[key] = found.get(key, 0) | 1 << chows
        if left == 0:
            return
        for i in range(start, len(sets)):
            is_chow, ranks = sets[i]
            c = counts[:]
            for r in ranks:
                c[r] += 1
            if max(c) <= 4:
                walk(c, i, left - 1, chows + is_chow)

    walk([0] * size, 0, SETS, 0)
    by_size: dict[int, list[Part]] = {}
    for counts, chows in found.items():
        by_size.setdefault(sum(counts), []).append(Part(counts, chows))
    return {n: tuple(sorted(parts, key=lambda p: p.counts)) for n, parts in sorted(by_size.items())}


def _compositions(sets: int = SETS) -> list[tuple[int, ...]]:
    """(characters, dots, bamboo, honors) tile numbers of `sets` sets and a pair, in a fixed order."""
    total = 3 * sets + 2
    sizes = [n for n in range(total + 1) if n % 3 != 1]
    return [c for c in product(sizes, repeat=4) if sum(c) == total and sum(1 for n in c if n % 3 == 2) == 1]


def _chow_sums(masks: Sequence[int]) -> int:
    """The chow numbers a hand's divisions may have, from its parts' (bit c: c chows)."""
    total = 1
    for m in masks:
        out = 0
        for c in range(SETS + 1):
            if total >> c & 1:
                out |= m << c
        total = out
    return total


class ConcealedSpace:
    """The concealed complete regular hands, optionally only those within the tile mask `tiles` (bit t for
    tile t) and with a division of exactly `chows` chows (a set of numbers; the other sets are pungs). With
    `sets` other than four, the concealed part of that many sets and a pair (a knitted straight's remainder, or
    what completes a hand's declared melds); `caps`, per tile type, the most copies a hand may hold (what the
    melds leave of the four)."""

    name = "regular"

    def __init__(self, tiles: int = ALL_TILES, chows: Iterable[int] | None = None, sets: int = SETS,
                 caps: Sequence[int] | None = None):
        self.tiles = tiles
        self.chows = frozenset(chows) if chows is not None else None
        self._chow_mask = sum(1 << c for c in self.chows) if self.chows is not None else -1
        suit = _parts(False)
        honor = _parts(True)

        most = tuple(caps) if caps is not None else (4,) * T.NUM_TILE_TYPES

        def allowed(parts: tuple[Part, ...], first: int) -> tuple[Part, ...]:
            return tuple(p for p in parts if all(not n or (tiles >> (first + r) & 1 and n <= most[first + r])
                                                 for r, n in enumerate(p.counts)))

        # blocks: one composition, and per suit the parts sharing one set of chow numbers, so the chow filter
        # is decided once per block
        self.blocks: list[tuple[tuple[Part, ...], ...]] = []
        for comp in _compositions(sets):
            lists = [allowed(suit[n], 9 * s) if s < 3 else allowed(honor[n], T.NUM_SUITED) for s, n in enumerate(comp)]
            by_mask = [_by_chows(parts) for parts in lists]
            for choice in product(*by_mask):
                if self.chows is not None and not _chow_sums([mask for mask, _ in choice]) & self._chow_mask:
                    continue
                self.blocks.append(tuple(parts for _, parts in choice))
        self.sizes = [_product(len(x) for x in block) for block in self.blocks]
        self.size = sum(self.sizes)

    def hands(self, start: int = 0, stop: int | None = None) -> Iterator[tuple[int, ...]]:
        """The hands numbered start … stop-1, as 34 tile counts (characters, dots, bamboo, honours)."""
        stop = self.size if stop is None else min(stop, self.size)
        offset = 0
        for block, size in zip(self.blocks, self.sizes):
            if offset + size <= start:
                offset += size
                continue
            if offset >= stop:
                break
            lo, hi = max(start - offset, 0), min(stop - offset, size)
            if lo == 0 and hi == size:
                for a, b, c, d in product(*block):
                    yield a.counts + b.counts + c.counts + d.counts
            else:
                for index in range(lo, hi):
                    a, b, c, d = _decode(index, block)
                    yield a.counts + b.counts + c.counts + d.counts
            offset += size

    def shards(self, size: int) -> list[tuple[int, int]]:
        """The id ranges [start, stop) of shards of `size` hands (the last one shorter)."""
        return [(i, min(i + size, self.size)) for i in range(0, self.size, size)]


def _by_chows(parts: tuple[Part, ...]) -> list[tuple[int, tuple[Part, ...]]]:
    """Parts grouped by their chow numbers, in order of the first part of each group."""
    groups: dict[int, list[Part]] = {}
    for p in parts:
        groups.setdefault(p.chows, []).append(p)
    return [(mask, tuple(ps)) for mask, ps in groups.items()]


def _product(xs: Iterable[int]) -> int:
    out = 1
    for x in xs:
        out *= x
    return out


def _decode(index: int, lists: tuple[tuple[Part, ...], ...]) -> list[Part]:
    """The parts of hand `index` within one composition (mixed radix, the characters most significant)."""
    out = []
    for parts in reversed(lists):
        index, i = divmod(index, len(parts))
        out.append(parts[i])
    out.reverse()
    return out
