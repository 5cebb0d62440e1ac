"""The concealed complete regular hands (four sets and a pair, no kong) that hold a given group of sets: the hands
where a combination fan can hold, each once, by tile counts.

A fan made of several chows or pungs declares its cores (`gate(cores=...)` in checker.engine.predicates): every
group of sets that makes it hold. A hand holds the fan in some division exactly when one of its divisions has a core
among its sets, so the hands here are every core completed by any other sets and a pair that the four copies of each
tile allow. The equivalence proofs of corpus strength read them (checker.corpus.equivalence).
"""
from __future__ import annotations

from itertools import combinations_with_replacement
from typing import Iterable, Sequence

from checker import tiles as T
from checker.space.concealed import SETS

# every set as (is a chow, lowest tile): the 21 chows (ranks 1-7 of each suit), then the 34 pungs
ALL_SETS = tuple([(True, t) for t in T.CHOW_STARTS] + [(False, t) for t in range(T.NUM_TILE_TYPES)])


def _add(counts: list[int], is_chow: bool, tile: int) -> None:
    if is_chow:
        counts[tile] += 1
        counts[tile + 1] += 1
        counts[tile + 2] += 1
    else:
        counts[tile] += 3


def holding_hands(cores: Iterable[Sequence[tuple[str, int]]], limit: int) -> list[tuple[int, ...]] | None:
    """Every hand (34 tile counts) holding one of `cores` (each a group of (\"chow\" or \"pung\", lowest tile)) among
    the sets of a division, sorted; None when there are more than `limit` (counted before any is scored)."""
    found: set[tuple[int, ...]] = set()
    for core in cores:
        if len(core) > SETS:
            continue
        base = [0] * T.NUM_TILE_TYPES
        for kind, tile in core:
            _add(base, kind == "chow", tile)
        for rest in combinations_with_replacement(ALL_SETS, SETS - len(core)):
            counts = base[:]
            for is_chow, tile in rest:
                _add(counts, is_chow, tile)
            if max(counts) > 4:
                continue
            for pair in range(T.NUM_TILE_TYPES):
                if counts[pair] <= 2:
                    counts[pair] += 2
                    found.add(tuple(counts))
                    counts[pair] -= 2
            if len(found) > limit:
                return None
    return sorted(found)
