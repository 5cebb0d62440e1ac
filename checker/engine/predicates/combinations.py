"""Fans made of several chows or several pungs: double / triple / shifted / straight combinations.

Each returns its instances (tuples of group indices) so the account-once principle can choose among them.
"""
from __future__ import annotations

from itertools import combinations as subsets
from typing import Any, Callable, Sequence

from checker.engine.interpretation import Interpretation
from checker.engine.predicates.registry import choice, gate, predicate
from checker.engine.shapes import CHOW


def _suits_ok(suits: list[int], rule: str) -> bool:
    if rule == "same":
        return len(set(suits)) == 1
    return len(set(suits)) == len(suits)  # "different": pairwise distinct suits


def _ranks_ok(ranks: list[int], rule: str, steps) -> bool:
    ranks = sorted(ranks)
    if rule == "equal":
        return ranks[0] == ranks[-1]
    if rule == "shifted":
        step = ranks[1] - ranks[0]
        return step in steps and all(b - a == step for a, b in zip(ranks, ranks[1:]))
    if rule == "straight":
        return ranks == [0, 3, 6]  # 123, 456, 789
    if rule == "terminal":
        return ranks == [0, 6]  # 123 and 789
    raise AssertionError(rule)


def _remembered(known: dict[tuple[int, ...], tuple], matching: Callable[[tuple[int, ...]], tuple],
                tiles: tuple[int, ...]) -> tuple:
    """matching(tiles), kept in `known` (up to 65,536 entries; a plain dict costs less than functools' cache).
    The value is loosely typed: the compiled engine would check a precisely typed tuple item by item."""
    found = known.get(tiles)
    if found is None:
        found = matching(tiles)
        if len(known) < 1 << 16:
            known[tiles] = found
    return found


@predicate("chow_combination", ("size", "suits", "starts", "steps"))
def chow_combination(size: int, suits: str, starts: str, steps: Sequence[int] = (1,)) -> Callable[[Any], Any]:
    """`size` chows whose suits are all the same / all different and whose starting ranks are equal,
    shifted by one of `steps`, a 123-456-789 straight, or 123 and 789 (`terminal`)."""
    choice("size", size, (2, 3, 4))
    choice("suits", suits, ("same", "different"))
    choice("starts", starts, ("equal", "shifted", "straight", "terminal"))
    steps = tuple(steps)

    def matching(chow_tiles: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
        """The combinations of these chows (by their lowest tiles) that form the fan, as positions."""
        return tuple(combo for combo in subsets(range(len(chow_tiles)), size)
                     if _suits_ok([chow_tiles[p] // 9 for p in combo], suits)
                     and _ranks_ok([chow_tiles[p] % 9 for p in combo], starts, steps))

    known: dict[tuple[int, ...], tuple] = {}  # chows repeat from hand to hand

    def decide(x: Interpretation) -> Any:
        chows = x.chows
        if len(chows) < size:
            return ()
        found = _remembered(known, matching, x.chow_tiles)
        if not found:
            return ()
        return tuple(tuple(chows[p] for p in combo) for combo in found)

    return gate(decide, shapes=("regular", "knitted_straight"), chows=size)


@predicate("pung_combination", ("size", "suits", "ranks"))
def pung_combination(size: int, suits: str, ranks: str) -> Callable[[Any], Any]:
    """`size` pungs/kongs of numbered tiles, suits all the same / all different, ranks equal or consecutive."""
    choice("size", size, (2, 3, 4))
    choice("suits", suits, ("same", "different"))
    choice("ranks", ranks, ("equal", "shifted"))

    def matching(pung_tiles: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
        """The combinations of these pungs' tiles (numbered ones only) that form the fan, as positions."""
        numbered = [p for p, t in enumerate(pung_tiles) if t < 27]
        return tuple(combo for combo in subsets(numbered, size)
                     if _suits_ok([pung_tiles[p] // 9 for p in combo], suits)
                     and _ranks_ok([pung_tiles[p] % 9 for p in combo], ranks, (1,)))

    known: dict[tuple[int, ...], tuple] = {}  # pungs repeat from hand to hand

    def decide(x: Interpretation) -> Any:
        pungs = x.pungs
        if len(pungs) < size:
            return ()
        found = _remembered(known, matching, x.pung_tiles)
        if not found:
            return ()
        return tuple(tuple(pungs[p] for p in combo) for combo in found)

    return gate(decide, shapes=("regular", "knitted_straight"), pungs=size)


@predicate("terminal_chows", ("suits",))
def terminal_chows(suits):
    """Two 123 and two 789 chows with a pair of 5s: all one suit (`same`), or 123+789 in each of two suits
    with the 5s in the third (`two_and_pair`)."""
    choice("suits", suits, ("same", "two_and_pair"))

    def decide(x: Interpretation) -> Any:
        pair = x.pair
        if len(x.chows) != 4 or pair is None or pair.tile >= 27 or pair.tile % 9 != 4:
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

    return gate(decide, shapes=("regular",), chows=4)


__all__ = ["chow_combination", "pung_combination", "terminal_chows", "CHOW"]
