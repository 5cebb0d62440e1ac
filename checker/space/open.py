"""Every hand with declared melds, each once: one to `melds` melds (a multiset of the meld kinds below) and every
concealed part of the remaining sets and a pair that completes them, no tile type used more than four times.

The meld kinds: a chow on each of the 21 starting tiles, claimed from `chow_seat` (the sweep reads it from the
ruleset's `chow_from` hand check: the previous player, seat 3, in all three), and per tile type a pung (claimed
from seat 2), an exposed kong (from seat 2) and a concealed kong: 123 kinds. No rule limits the seat a pung or kong
comes from, and it changes no MCR fan, so one seat stands for the three (a ruleset that pays by it needs a sweep
per seat, with `--meld`).

Hands are numbered by meld multiset (fewer melds first, then the kinds in order), then by the concealed part's
number in its space (checker.space.concealed, narrowed by the copies the melds leave): a shard is an id range
whose size is known before it runs. Sizing a space counts the completions of every multiset once, keeping only
where each multiset's hands start (the multisets themselves are recounted from their number): one meld in about
3 s (94,285,956 hands), up to two in about 20 s (390,860,172), up to three or four in under a minute
(docs/scale.md gives the sizes). Three and four melds leave one set and a pair, or a pair, to complete, which are
counted directly (`completions`; a test holds the count to the concealed space's).
"""
from __future__ import annotations

from array import array
from bisect import bisect_right
from functools import lru_cache
from math import comb
from typing import Iterator, Sequence

from checker import tiles as T
from checker.engine.hand import Meld
from checker.space.concealed import ALL_TILES, SETS, ConcealedSpace

MAX_MELDS = SETS  # every set of the hand declared: the concealed part is the pair

CLAIM_SEAT = 2  # the seat the space's pungs and exposed kongs are claimed from (across: any seat would do)


def meld_kinds(chow_seat: int = 3) -> tuple[Meld, ...]:
    """The 123 meld kinds, in the space's order: chows claimed from `chow_seat`, pungs, exposed and concealed
    kongs."""
    return tuple([Meld("chow", 9 * suit + rank, source=chow_seat) for suit in range(3) for rank in range(7)]
                 + [Meld("pung", t, source=CLAIM_SEAT) for t in range(T.NUM_TILE_TYPES)]
                 + [Meld("kong", t, source=CLAIM_SEAT) for t in range(T.NUM_TILE_TYPES)]
                 + [Meld("kong", t, concealed=True) for t in range(T.NUM_TILE_TYPES)])


def caps_of(melds: tuple[Meld, ...]) -> tuple[int, ...]:
    """Per tile type, the copies the melds leave (negative: the melds hold more than four)."""
    left = [4] * T.NUM_TILE_TYPES
    for m in melds:
        for t in m.tiles:
            left[t] -= 1
    return tuple(left)


@lru_cache(maxsize=4096)
def _concealed(sets: int, caps: tuple[int, ...], tiles: int) -> ConcealedSpace:
    return ConcealedSpace(tiles=tiles, sets=sets, caps=caps)


def completions(sets: int, caps: Sequence[int], tiles: int = ALL_TILES) -> int:
    """How many concealed parts of `sets` sets and a pair fit within `caps` copies of each tile type of the mask
    `tiles`: `ConcealedSpace(tiles=tiles, sets=sets, caps=caps).size`, counted directly for none or one set (five
    tiles of one set and a pair divide only one way, so each fitting set and pair is one part)."""
    pairs = [t for t in range(T.NUM_TILE_TYPES) if tiles >> t & 1 and caps[t] >= 2]
    if sets == 0:
        return len(pairs)
    if sets == SETS - 1:  # one meld: 123 spaces, kept for walking their hands after counting them
        return _concealed(sets, tuple(caps), tiles).size
    if sets > 1:
        return ConcealedSpace(tiles=tiles, sets=sets, caps=caps).size
    total = 0
    for used in _ONE_SET:  # per set, each tile type it uses with its copies
        fits = True
        for t, n in used:
            if not (tiles >> t & 1 and caps[t] >= n):
                fits = False
        if fits:
            total += len(pairs)
            for t, n in used:
                if caps[t] >= 2 > caps[t] - n:  # the set leaves too few for a pair of t
                    total -= 1
    return total


_ONE_SET: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    [((t, 1), (t + 1, 1), (t + 2, 1)) for t in range(T.NUM_SUITED) if t % 9 < 7]
    + [((t, 3),) for t in range(T.NUM_TILE_TYPES)])


class OpenSpace:
    """Hands of 1 … `melds` declared melds with their concealed completions, within the tile mask `tiles`, chows
    claimed from `chow_seat`."""

    name = "open"

    def __init__(self, melds: int = 1, tiles: int = ALL_TILES, chow_seat: int = 3):
        if not 1 <= melds <= MAX_MELDS:
            raise ValueError(f"open hands have 1 to {MAX_MELDS} melds, not {melds}")
        if chow_seat not in (1, 2, 3):
            raise ValueError(f"a chow is claimed from seat 1, 2 or 3 (relative to the winner), not {chow_seat!r}")
        self.tiles = tiles
        self.kinds = [m for m in meld_kinds(chow_seat) if all(tiles >> t & 1 for t in m.tiles)]
        kinds = len(self.kinds)
        # the multisets of k melds number comb(kinds + k - 1, k); those of fewer melds come first
        self.first_of: list[int] = [0]
        for k in range(1, melds + 1):
            self.first_of.append(self.first_of[-1] + comb(kinds + k - 1, k))
        self.starts = array("q")  # per multiset, the number of its first hand; then the space's size
        total = 0
        for k in range(1, melds + 1):
            total = self._size_multisets(k, total)
        self.starts.append(total)
        self.size = total

    def _size_multisets(self, k: int, total: int) -> int:
        """Append where each multiset of k melds starts, in order, the first at `total`, counting their
        completions; return the number after the last one's hands. The copies left, the tile types overdrawn and
        the tile types left for a pair are kept as melds are added and taken back."""
        uses = [m.tiles for m in self.kinds]
        starts, tiles, sets = self.starts, self.tiles, SETS - k
        left = [4] * T.NUM_TILE_TYPES
        over = 0  # tile types the melds hold more than four of
        pairs = sum(1 for t in range(T.NUM_TILE_TYPES) if tiles >> t & 1)  # tile types with two copies left for a pair

        def walk(placed: int, lowest: int) -> None:
            nonlocal total, over, pairs
            for i in range(lowest, len(uses)):
                for t in uses[i]:
                    n = left[t] = left[t] - 1
                    over += n == -1
                    pairs -= n == 1 and tiles >> t & 1
                if placed + 1 < k:
                    walk(placed + 1, i)
                else:
                    starts.append(total)
                    if not over:
                        total += pairs if sets == 0 else completions(sets, left, tiles)
                for t in uses[i]:
                    n = left[t] = left[t] + 1
                    over -= n == 0
                    pairs += n == 2 and tiles >> t & 1

        walk(0, 0)
        return total

    def multiset(self, number: int) -> tuple[int, ...]:
        """The kinds (indices into `self.kinds`) of multiset `number`, in the space's order."""
        k = bisect_right(self.first_of, number)
        rank, lowest, out = number - self.first_of[k - 1], 0, []
        kinds = len(self.kinds)
        for slot in range(k):
            rest = k - slot - 1
            a = lowest
            while rank >= comb(kinds - a + rest - 1, rest):  # the multisets whose slot holds a
                rank -= comb(kinds - a + rest - 1, rest)
                a += 1
            out.append(a)
            lowest = a
        return tuple(out)

    def hands(self, start: int = 0, stop: int | None = None) -> Iterator[tuple[tuple[Meld, ...], tuple[int, ...]]]:
        """The hands numbered start … stop-1, each as (its melds, the concealed part's 34 tile counts)."""
        stop = self.size if stop is None else min(stop, self.size)
        if start >= stop:
            return
        number = bisect_right(self.starts, start) - 1
        chosen = list(self.multiset(number))
        while self.starts[number] < stop:
            first, size = self.starts[number], self.starts[number + 1] - self.starts[number]
            if size:
                melds = tuple(self.kinds[i] for i in chosen)
                space = _concealed(SETS - len(melds), caps_of(melds), self.tiles)
                for counts in space.hands(max(start - first, 0), stop - first):
                    yield melds, counts
            number += 1
            if number >= len(self.starts) - 1:
                break
            chosen = _next_multiset(chosen, len(self.kinds))


def _next_multiset(chosen: list[int], kinds: int) -> list[int]:
    """The multiset after `chosen` (kind indices in order): the next of as many melds, or the first of one more."""
    i = len(chosen) - 1
    while i >= 0 and chosen[i] == kinds - 1:
        i -= 1
    if i < 0:
        return [0] * (len(chosen) + 1)
    top = chosen[i] + 1
    return chosen[:i] + [top] * (len(chosen) - i)
