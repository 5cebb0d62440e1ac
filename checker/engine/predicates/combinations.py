"""Fans made of several chows or several pungs: double / triple / shifted / straight combinations.

Each returns its instances (tuples of group indices) so the account-once principle can choose among them.
"""
from __future__ import annotations

from itertools import combinations as subsets

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


@predicate("chow_combination", ("size", "suits", "starts", "steps"))
def chow_combination(size, suits, starts, steps=(1,)):
    """`size` chows whose suits are all the same / all different and whose starting ranks are equal,
    shifted by one of `steps`, a 123-456-789 straight, or 123 and 789 (`terminal`)."""
    choice("size", size, (2, 3, 4))
    choice("suits", suits, ("same", "different"))
    choice("starts", starts, ("equal", "shifted", "straight", "terminal"))
    steps = tuple(steps)

    def decide(x):
        chows = x.chows
        if len(chows) < size:
            return ()
        groups = x.groups
        found = []
        for combo in subsets(chows, size):
            tiles = [groups[i].tile for i in combo]
            if _suits_ok([t // 9 for t in tiles], suits) and _ranks_ok([t % 9 for t in tiles], starts, steps):
                found.append(combo)
        return tuple(found)

    return gate(decide, shapes=("regular", "knitted_straight"), chows=size)


@predicate("pung_combination", ("size", "suits", "ranks"))
def pung_combination(size, suits, ranks):
    """`size` pungs/kongs of numbered tiles, suits all the same / all different, ranks equal or consecutive."""
    choice("size", size, (2, 3, 4))
    choice("suits", suits, ("same", "different"))
    choice("ranks", ranks, ("equal", "shifted"))

    def decide(x):
        groups = x.groups
        pungs = [i for i in x.pungs if groups[i].tile < 27]
        if len(pungs) < size:
            return ()
        found = []
        for combo in subsets(pungs, size):
            tiles = [groups[i].tile for i in combo]
            if _suits_ok([t // 9 for t in tiles], suits) and _ranks_ok([t % 9 for t in tiles], ranks, (1,)):
                found.append(combo)
        return tuple(found)

    return gate(decide, shapes=("regular", "knitted_straight"), pungs=size)


@predicate("terminal_chows", ("suits",))
def terminal_chows(suits):
    """Two 123 and two 789 chows with a pair of 5s: all one suit (`same`), or 123+789 in each of two suits
    with the 5s in the third (`two_and_pair`)."""
    choice("suits", suits, ("same", "two_and_pair"))

    def decide(x):
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
