"""The wins of one complete hand of tile counts: each distinct tile as the winning tile, self-drawn and on a
discard from the next player. The sweeps score a hand of a space as these cases; the equivalence proofs of corpus
strength read hands the same way."""
from __future__ import annotations

from typing import Iterator

from checker import tiles as T
from checker.engine.hand import Hand, Meld

EAST = T.WIND_TILES["E"]


def wins_of(counts: tuple[int, ...], melds: tuple[Meld, ...] = (), flags: frozenset[str] = frozenset(),
            seat_wind: int = EAST, round_wind: int = EAST) -> Iterator[Hand]:
    """The hand of these concealed tile counts won on each distinct tile, self-drawn and on a discard (from the
    next player), with these melds, flags and winds."""
    tiles = [t for t, n in enumerate(counts) for _ in range(n)]
    for i, win in enumerate(tiles):
        if i and tiles[i - 1] == win:
            continue  # each distinct tile once (the tiles are in order)
        concealed = tuple(tiles[:i] + tiles[i + 1:])
        yield Hand(concealed, melds, win, "self_draw", None, seat_wind, round_wind, (), flags)
        yield Hand(concealed, melds, win, "discard", 1, seat_wind, round_wind, (), flags)
