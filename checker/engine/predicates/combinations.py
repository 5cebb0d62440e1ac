"""Fans made of several chows or several pungs: double / triple / shifted / straight combinations.

Each returns its instances (tuples of group indices) so the account-once principle can choose among them.
"""
from __future__ import annotations

from functools import lru_cache
from itertools import combinations as subsets, combinations_with_replacement
from typing import Any, Callable, Final, Sequence

from checker import tiles as T
from checker.engine.interpretation import Interpretation
from checker.engine.predicates.registry import gate, predicate
from checker.engine.shapes import CHOW, PUNG
from checker.params import integer, list_of, one_of


# SUBSETS[n][k]: the k-element combinations of positions 0..n-1 (a hand has at most four chows or pungs)
SUBSETS: Final = tuple(tuple(tuple(subsets(range(n), k)) for k in range(5)) for n in range(5))


def _suit_table(size: int, rule: str) -> list[bool]:
    """Indexed by a mask of suits (bit 0 characters, 1 dots, 2 bamboo, 3 honours): whether `size` sets with
    those suits are all of one suit (`same`) or of pairwise different suits (`different`). Honours never."""
    table = []
    for mask in range(16):
        n_suits = len([s for s in range(3) if mask >> s & 1])
        table.append(not mask & 8 and (n_suits == 1 if rule == "same" else n_suits == size))
    return table


_RANK_TABLES: Final[dict[tuple[int, str, tuple[int, ...]], list[bool]]] = {}


def _rank_table(size: int, rule: str, steps: tuple[int, ...]) -> list[bool]:
    """Indexed by a mask of ranks (bit r for rank r + 1): whether `size` sets with those ranks have equal ranks,
    ranks shifted by one of `steps`, the 123-456-789 starts (`straight`) or 123 and 789 (`terminal`). A rank
    held twice shows once in the mask, so any rule but `equal` needs `size` distinct ranks. Made once for each
    set of arguments (a scorer is made for each set of options; the tables never change)."""
    key = (size, rule, steps)
    made = _RANK_TABLES.get(key)
    if made is None:
        made = _RANK_TABLES[key] = _make_rank_table(size, rule, steps)
    return made


def _make_rank_table(size: int, rule: str, steps: tuple[int, ...]) -> list[bool]:
    table = []
    for mask in range(512):
        ranks = [r for r in range(9) if mask >> r & 1]
        if rule == "equal":
            ok = len(ranks) == 1
        elif len(ranks) != size:
            ok = False
        elif rule == "shifted":
            step = ranks[1] - ranks[0]
            ok = step in steps and all(b - a == step for a, b in zip(ranks, ranks[1:]))
        elif rule == "straight":
            ok = ranks == [0, 3, 6]  # 123, 456, 789
        elif rule == "terminal":
            ok = ranks == [0, 6]  # 123 and 789
        else:
            raise AssertionError(rule)
        table.append(ok)
    return table


def _matching(tiles: list[int], size: int, suit_ok: list[bool], rank_ok: list[bool]) -> list[tuple[int, ...]]:
    """The combinations of `size` of these sets (each by its lowest tile) whose suits and ranks pass the tables,
    as positions. Computed afresh each time: a few integer operations cost less than a lookup in a large cache."""
    found = []
    for combo in SUBSETS[len(tiles)][size]:
        suits = ranks = 0
        for p in combo:
            t = tiles[p]
            suits |= 1 << (t // 9)
            ranks |= 1 << (t % 9)
        if suit_ok[suits] and rank_ok[ranks]:
            found.append(combo)
    return found


@lru_cache(maxsize=None)
def _cores(kind: str, size: int, suits: str, rule: str, steps: tuple[int, ...]) -> tuple[tuple[tuple[str, int], ...], ...]:
    """Every group of `size` chows (repeats allowed: identical chows) or distinct pungs that the tables accept,
    each as (kind, lowest tile) pairs: what a hand holding the combination must have among its sets."""
    suit_ok, rank_ok = _suit_table(size, suits), _rank_table(size, rule, steps)
    groups = combinations_with_replacement(T.CHOW_STARTS, size) if kind == CHOW else \
        subsets(range(T.NUM_TILE_TYPES), size)
    found = []
    for group in groups:
        suit_mask = rank_mask = 0
        for t in group:
            suit_mask |= 1 << (t // 9)
            rank_mask |= 1 << (t % 9)
        if suit_ok[suit_mask] and rank_ok[rank_mask]:
            found.append(tuple([(kind, t) for t in group]))
    return tuple(found)


# a combination of 2 to 4 sets: a hand holds at most four chows or pungs (SUBSETS has no more)
SIZE: Final = integer(2, 4)
SUITS: Final = one_of("same", "different")


@predicate("chow_combination", {"size": SIZE, "suits": SUITS,
                                "starts": one_of("equal", "shifted", "straight", "terminal"),
                                # chows start at ranks 1-7: two starts differ by 1 to 6
                                "steps": list_of(integer(1, 6))}, tiles_only=True)
def chow_combination(size: int, suits: str, starts: str, steps: Sequence[int] = (1,)) -> Callable[[Any], Any]:
    """`size` chows whose suits are all the same / all different and whose starting ranks are equal,
    shifted by one of `steps`, a 123-456-789 straight, or 123 and 789 (`terminal`)."""
    suit_ok, rank_ok = _suit_table(size, suits), _rank_table(size, starts, tuple(steps))

    def decide(x: Interpretation) -> Any:
        chows = x.chows
        if len(chows) < size:
            return ()
        found = _matching(x.chow_tiles, size, suit_ok, rank_ok)
        if not found:
            return ()
        return tuple([tuple([chows[p] for p in combo]) for combo in found])

    return gate(decide, shapes=("regular", "knitted_straight"), chows=size,
                cores=lambda: _cores(CHOW, size, suits, starts, tuple(steps)))


@predicate("pung_combination", {"size": SIZE, "suits": SUITS, "ranks": one_of("equal", "shifted")}, tiles_only=True)
def pung_combination(size: int, suits: str, ranks: str) -> Callable[[Any], Any]:
    """`size` pungs/kongs of numbered tiles, suits all the same / all different, ranks equal or consecutive."""
    suit_ok, rank_ok = _suit_table(size, suits), _rank_table(size, ranks, (1,))

    def decide(x: Interpretation) -> Any:
        pungs = x.pungs
        if len(pungs) < size:
            return ()
        found = _matching(x.pung_tiles, size, suit_ok, rank_ok)
        if not found:
            return ()
        return tuple([tuple([pungs[p] for p in combo]) for combo in found])

    return gate(decide, shapes=("regular", "knitted_straight"), pungs=size,
                cores=lambda: _cores(PUNG, size, suits, ranks, (1,)))


@predicate("terminal_chows", {"suits": one_of("same", "two_and_pair")}, tiles_only=True)
def terminal_chows(suits):
    """Two 123 and two 789 chows with a pair of 5s: all one suit (`same`), or 123+789 in each of two suits
    with the 5s in the third (`two_and_pair`)."""

    def decide(x: Interpretation) -> Any:
        pair = x.pair
        if len(x.chows) != 4 or pair is None or pair.tile >= T.NUM_SUITED or pair.tile % 9 != 4:
            return 0
        tiles = sorted(x.groups[i].tile for i in x.chows)
        chow_suits = [t // 9 for t in tiles]
        if sorted(t % 9 for t in tiles) != [0, 0, 6, 6]:
            return 0
        if suits == "same":
            return int(set(chow_suits) == {pair.tile // 9})
        if pair.tile // 9 in chow_suits or len(set(chow_suits)) != 2:
            return 0
        return int(all(sorted(t % 9 for t in tiles if t // 9 == s) == [0, 6] for s in set(chow_suits)))

    return gate(decide, shapes=("regular",), chows=4, within=TERMINAL_CHOW_TILES)


# the tiles a terminal-chows hand can hold: 1, 2, 3, 5, 7, 8 and 9 of each suit
TERMINAL_CHOW_TILES: Final = sum(1 << (9 * s + r) for s in range(3) for r in (0, 1, 2, 4, 6, 7, 8))


__all__ = ["chow_combination", "pung_combination", "terminal_chows", "CHOW"]
