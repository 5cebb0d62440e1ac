"""Every hand with declared melds, each once: one to `melds` melds (a multiset of the meld kinds below) and every
concealed part of the remaining sets and a pair that completes them, no tile type used more than four times.

The meld kinds: a chow (claimed from the previous player, seat 3) on each of the 21 starting tiles, and per tile
type a pung (claimed from seat 2), an exposed kong (from seat 2) and a concealed kong: 123 kinds. The seat a set
was claimed from changes no MCR fan, so one seat stands for all three (a ruleset that pays by it needs a sweep
per seat, with `--meld`).

Hands are numbered by meld multiset (fewer melds first, then the kinds in order), then by the concealed part's
number in its space (checker.space.concealed, narrowed by the copies the melds leave): a shard is an id range
whose size is known before it runs. Sizing a space builds the concealed space of every multiset once: about
3 s for one meld (94,285,956 hands), 22 s for up to two (390,860,172); more melds are a cluster's sweep
(docs/scale.md estimates them).
"""
from __future__ import annotations

from bisect import bisect_right
from functools import lru_cache
from itertools import combinations_with_replacement
from typing import Iterator

from checker.engine.hand import Meld
from checker.space.concealed import ALL_TILES, SETS, ConcealedSpace

MAX_MELDS = 2  # beyond this, sizing alone takes too long on one machine

KINDS: tuple[Meld, ...] = tuple(
    [Meld("chow", 9 * suit + rank, source=3) for suit in range(3) for rank in range(7)]
    + [Meld("pung", t, source=2) for t in range(34)]
    + [Meld("kong", t, source=2) for t in range(34)]
    + [Meld("kong", t, concealed=True) for t in range(34)])


def caps_of(melds: tuple[Meld, ...]) -> tuple[int, ...]:
    """Per tile type, the copies the melds leave (negative: the melds hold more than four)."""
    left = [4] * 34
    for m in melds:
        for t in m.tiles:
            left[t] -= 1
    return tuple(left)


@lru_cache(maxsize=4096)
def _concealed(sets: int, caps: tuple[int, ...], tiles: int) -> ConcealedSpace:
    return ConcealedSpace(tiles=tiles, sets=sets, caps=caps)


class OpenSpace:
    """Hands of 1 … `melds` declared melds with their concealed completions, within the tile mask `tiles`."""

    name = "open"

    def __init__(self, melds: int = 1, tiles: int = ALL_TILES):
        if not 1 <= melds <= MAX_MELDS:
            raise ValueError(f"open hands of 1 to {MAX_MELDS} melds can be sized here, not {melds}")
        kinds = [m for m in KINDS if all(tiles >> t & 1 for t in m.tiles)]
        self.tiles = tiles
        self.choices: list[tuple[Meld, ...]] = []
        self.sizes: list[int] = []
        for k in range(1, melds + 1):
            for combo in combinations_with_replacement(kinds, k):
                caps = caps_of(combo)
                if min(caps) < 0:
                    continue
                size = _concealed(SETS - k, caps, tiles).size
                if size:
                    self.choices.append(combo)
                    self.sizes.append(size)
        self.starts: list[int] = []
        total = 0
        for size in self.sizes:
            self.starts.append(total)
            total += size
        self.size = total

    def hands(self, start: int = 0, stop: int | None = None) -> Iterator[tuple[tuple[Meld, ...], tuple[int, ...]]]:
        """The hands numbered start … stop-1, each as (its melds, the concealed part's 34 tile counts)."""
        stop = self.size if stop is None else min(stop, self.size)
        i = max(bisect_right(self.starts, start) - 1, 0)
        while i < len(self.choices) and self.starts[i] < stop:
            melds, first = self.choices[i], self.starts[i]
            space = _concealed(SETS - len(melds), caps_of(melds), self.tiles)
            for counts in space.hands(max(start - first, 0), stop - first):
                yield melds, counts
            i += 1
