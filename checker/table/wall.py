"""The 144 tiles, a wall shuffled from a seed or given tile by tile, and the deal.

The wall is a sequence in draw order: the live draws take tiles from its front, replacement draws (after a kong
or a flower) from its back (`procedure.replacement_draw`). A shuffle from a seed is `random.Random(seed)`'s, the
same on every machine and Python version this project supports.
"""
from __future__ import annotations

import random
from collections import Counter

from checker import tiles as T

# every tile of the game: four copies of each of the 34 suit and honour tiles, one of each of the 8 flowers
FULL_SET: tuple[int, ...] = tuple(t for t in range(T.NUM_TILE_TYPES) for _ in range(4)) + tuple(T.FLOWERS)
NO_FLOWERS: tuple[int, ...] = FULL_SET[:-len(T.FLOWERS)]  # the 136 suit and honour tiles (flowers not in the wall)
SEATS = 4


def tile_set(flowers: bool = True) -> tuple[int, ...]:
    """Every tile of the wall: the 144, or the 136 without the flowers (`procedure.flower_exposure.in_wall`)."""
    return FULL_SET if flowers else NO_FLOWERS


class WallError(ValueError):
    """A wall that is not the 144 tiles of the game (bad input): names what is wrong."""


def shuffled_wall(seed: int, flowers: bool = True) -> list[int]:
    """The 144 tiles (136 without `flowers`) in the order `seed` shuffles them to."""
    wall = list(tile_set(flowers))
    random.Random(seed).shuffle(wall)
    return wall


def parse_wall(text: str, flowers: bool = True) -> list[int]:
    """A wall written tile by tile (any notation `checker.tiles` reads), checked to be the 144 tiles (the 136
    without the flowers when `flowers` is false)."""
    try:
        wall = list(T.parse_tiles(text))
    except T.TileError as exc:
        raise WallError(f"wall: {exc}") from None
    have, want = Counter(wall), Counter(tile_set(flowers))
    if have != want:
        extra = sorted((have - want).elements())
        missing = sorted((want - have).elements())
        parts = []
        if extra:
            parts.append("too many " + ", ".join(T.tile_name(t) for t in sorted(set(extra))))
        if missing:
            parts.append("missing " + ", ".join(T.tile_name(t) for t in sorted(set(missing))))
        size = len(tile_set(flowers))
        raise WallError(f"wall: not the {size} tiles of the game{'' if flowers else ' without flowers'} "
                        f"({len(wall)} tiles; {'; '.join(parts)})")
    return wall


def deal_order(dealer: int, dealer_tiles: int, others: int) -> list[int]:
    """The seat that takes each dealt tile from the wall's front: blocks of four going round from the dealer
    until each holds all but at most three of its tiles, then one at a time, the dealer's extra tiles last."""
    order: list[int] = []
    for _ in range(others // 4):
        for k in range(SEATS):
            order += [(dealer + k) % SEATS] * 4
    for _ in range(others % 4):
        for k in range(SEATS):
            order.append((dealer + k) % SEATS)
    order += [dealer] * (dealer_tiles - others)
    return order


def arrange_wall(hands: dict[int, str], draws: str = "", replacements: str = "", dealer: int = 0,
                 dealer_tiles: int = 14, others: int = 13) -> list[int]:
    """A wall that deals `hands` (seat -> its tiles, in any notation; a seat left out gets whatever is left),
    then gives `draws` from the front in order and `replacements` from the back in order; the tiles left over
    fill the rest in tile order, flowers in the middle (far from both ends). For hand-written logs and cases.
    WallError when the tiles asked for are not among the 144."""
    from collections import Counter as _Counter

    wanted = {seat: list(T.parse_tiles(text)) for seat, text in hands.items()}
    front, back = list(T.parse_tiles(draws)), list(T.parse_tiles(replacements))
    pool = _Counter(FULL_SET)
    for tiles in [*wanted.values(), front, back]:
        for t in tiles:
            if pool[t] <= 0:
                raise WallError(f"arrange_wall: no {T.tile_name(t)} left (a fifth copy, or a second flower)")
            pool[t] -= 1
    order = deal_order(dealer, dealer_tiles, others)
    sizes = {s: order.count(s) for s in range(SEATS)}
    for seat, tiles in wanted.items():
        if len(tiles) != sizes[seat]:
            raise WallError(f"arrange_wall: seat {seat} is dealt {sizes[seat]} tiles, not {len(tiles)}")
    plain = [t for t in sorted(pool.elements()) if not T.is_flower(t)]
    flowers = [t for t in sorted(pool.elements()) if T.is_flower(t)]
    for seat in range(SEATS):  # seats left out take the first plain tiles
        if seat not in wanted:
            wanted[seat], plain = plain[:sizes[seat]], plain[sizes[seat]:]
    fill = plain[: len(plain) // 2] + flowers + plain[len(plain) // 2:]
    taken = {seat: 0 for seat in range(SEATS)}
    wall = []
    for seat in order:
        wall.append(wanted[seat][taken[seat]])
        taken[seat] += 1
    wall += front + fill + list(reversed(back))
    return wall
