"""A `seed` wall can be rebuilt outside Python from docs/contracts.md alone: the tiles' order before the shuffle,
and the shuffle (MT19937 seeded by init_by_array with the seed's 32-bit words, then Fisher-Yates from the end with
each index drawn by rejection from getrandbits). This test rebuilds it with its own MT19937, written from that
description (no use of the `random` module), and compares with the table's walls."""
from __future__ import annotations

import pytest

from checker import tiles as T
from checker.table.wall import shuffled_wall

MASK = 0xFFFFFFFF


class MT19937:
    """The Mersenne Twister, seeded as Python seeds it from a whole number (init_by_array of its 32-bit words,
    least significant first; 0 is one word 0)."""

    def __init__(self, seed: int):
        key = []
        n = abs(seed)
        while True:
            key.append(n & MASK)
            n >>= 32
            if not n:
                break
        self.mt = [0] * 624
        self.mt[0] = 19650218
        for i in range(1, 624):
            self.mt[i] = (1812433253 * (self.mt[i - 1] ^ (self.mt[i - 1] >> 30)) + i) & MASK
        i, j = 1, 0
        for _ in range(max(624, len(key))):
            self.mt[i] = ((self.mt[i] ^ ((self.mt[i - 1] ^ (self.mt[i - 1] >> 30)) * 1664525)) + key[j] + j) & MASK
            i, j = i + 1, j + 1
            if i >= 624:
                self.mt[0], i = self.mt[623], 1
            if j >= len(key):
                j = 0
        for _ in range(623):
            self.mt[i] = ((self.mt[i] ^ ((self.mt[i - 1] ^ (self.mt[i - 1] >> 30)) * 1566083941)) - i) & MASK
            i += 1
            if i >= 624:
                self.mt[0], i = self.mt[623], 1
        self.mt[0] = 0x80000000
        self.index = 624

    def uint32(self) -> int:
        if self.index >= 624:
            for k in range(624):
                y = (self.mt[k] & 0x80000000) | (self.mt[(k + 1) % 624] & 0x7FFFFFFF)
                self.mt[k] = self.mt[(k + 397) % 624] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
            self.index = 0
        y = self.mt[self.index]
        self.index += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        return y ^ (y >> 18)

    def below(self, n: int) -> int:
        """A whole number in [0, n): k = n's bit length, draw the top k bits of one 32-bit output, again while >= n."""
        k = n.bit_length()
        while True:
            r = self.uint32() >> (32 - k)
            if r < n:
                return r


def rebuilt_wall(seed: int) -> list[str]:
    # before the shuffle: four of each of 1m..9m, 1p..9p, 1s..9s, 1z..7z (1m1m1m1m2m...), then 1f..8f
    tiles = [f"{rank}{suit}" for suit, ranks in (("m", 9), ("p", 9), ("s", 9), ("z", 7))
             for rank in range(1, ranks + 1) for _ in range(4)] + [f"{k}f" for k in range(1, 9)]
    mt = MT19937(seed)
    for i in range(len(tiles) - 1, 0, -1):  # Fisher-Yates from the end: swap i with an index below i + 1
        j = mt.below(i + 1)
        tiles[i], tiles[j] = tiles[j], tiles[i]
    return tiles


@pytest.mark.parametrize("seed", [0, 1, 7, 2026, 2**32 + 5, 2**64 - 1])
def test_a_seed_wall_is_rebuilt_from_the_documented_shuffle(seed):
    assert rebuilt_wall(seed) == [T.tile_name(t) for t in shuffled_wall(seed)]
