"""Random complete hands for benchmarks, property tests and corpus generation.

`winning_hand(pick)` builds one hand from a `pick(sequence) -> element` function, so the same generator runs
from a seeded `random.Random` (`pick = rng.choice`, reproducible for a `--seed`) or from Hypothesis
(`pick = lambda seq: data.draw(st.sampled_from(seq))`, which shrinks to small examples).
"""
from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Callable, Sequence, TypeVar

from checker import tiles as T
from checker.engine.hand import Hand, Meld
from checker.engine.shapes import KNITTED_STRAIGHTS, ORPHANS
from checker.spec.roles import FOURTH_TILE_SEEN, KONG_REPLACEMENT, WALL_EXHAUSTED

X = TypeVar("X")
Pick = Callable[[Sequence[X]], X]

SHAPES = ("regular",) * 16 + ("seven_pairs", "thirteen_orphans", "honors_and_knitted", "knitted_straight")


def winning_hand(pick: Pick, context: Mapping[str, str]) -> Hand:
    """A complete hand (shape, melds, winning tile and context) chosen by `pick`; its flags are the names
    `context` (a ruleset's `table_context`: fact of play -> flag) gives the facts chosen, those it names."""
    shape = pick(SHAPES)
    counts = [0] * T.NUM_TILE_TYPES
    melds: list[Meld] = []
    concealed: list[int] = []
    if shape in ("regular", "knitted_straight"):
        n_sets = 4
        if shape == "knitted_straight":
            straight = pick(KNITTED_STRAIGHTS)
            concealed += straight
            for t in straight:
                counts[t] += 1
            n_sets = 1
        for _ in range(n_sets):
            kind, tile = _pick_set(pick, counts)
            for t in _set_tiles(kind, tile):
                counts[t] += 1
            declared = kind == "kong" or (shape == "regular" and pick((False, False, True)))
            if declared:
                concealed_kong, seat = kind == "kong" and pick((False, True)), pick((1, 2, 3))
                # a chow is claimed from the previous player (seat 3) under every shipped ruleset, and a concealed
                # kong from no one; the seat is still picked, so a seed gives the same tiles as before
                source = None if concealed_kong else 3 if kind == "chow" else seat
                melds.append(Meld(kind, tile, concealed=concealed_kong, source=source))
            else:
                concealed += _set_tiles(kind, tile)
        pair = pick([t for t in range(T.NUM_TILE_TYPES) if counts[t] <= 2])
        counts[pair] += 2
        concealed += [pair, pair]
    elif shape == "seven_pairs":
        for _ in range(7):
            t = pick([t for t in range(T.NUM_TILE_TYPES) if counts[t] <= 2])
            counts[t] += 2
            concealed += [t, t]
    elif shape == "thirteen_orphans":
        concealed = list(ORPHANS) + [pick(ORPHANS)]
    else:  # honours and knitted tiles: 14 distinct tiles of honours and one knitted straight
        straight = pick(KNITTED_STRAIGHTS)
        n_honors = pick((5, 6, 7))
        honors = list(T.HONORS)
        while len(honors) > n_honors:
            honors.remove(pick(honors))
        suited = list(straight)
        while len(suited) > 14 - n_honors:
            suited.remove(pick(suited))
        concealed = suited + honors
    win = pick(sorted(set(concealed)))
    concealed.remove(win)
    win_by = pick(("self_draw", "self_draw", "discard", "discard", "robbing_kong"))
    if win_by == "robbing_kong" and (win in concealed or any(win in m.tiles for m in melds)):
        win_by = "discard"  # a robbed kong's other three copies are the konger's: the winner holds none
    flowers = [t for t in T.FLOWERS if pick((False, False, False, True))]
    facts = [f for f in (WALL_EXHAUSTED, FOURTH_TILE_SEEN, KONG_REPLACEMENT) if pick((False,) * 5 + (True,))]
    # keep the context consistent with the hand (each is a hand check of the rulesets)
    if win_by != "self_draw" or not any(m.kind == "kong" for m in melds):
        facts = [f for f in facts if f != KONG_REPLACEMENT]
    if win in concealed:
        facts = [f for f in facts if f != FOURTH_TILE_SEEN]
    if win_by == "robbing_kong":
        facts = [f for f in facts if f != WALL_EXHAUSTED]
    flags = [context[f] for f in facts if f in context]
    return Hand.build(concealed=tuple(concealed), melds=melds, win_tile=win, win_by=win_by,
                      discarder=None if win_by == "self_draw" else pick((1, 2, 3)),
                      seat_wind=pick(T.WIND_LETTERS), round_wind=pick(T.WIND_LETTERS), flowers=tuple(flowers), flags=flags)


def _set_tiles(kind: str, tile: int) -> list[int]:
    if kind == "chow":
        return [tile, tile + 1, tile + 2]
    return [tile] * (4 if kind == "kong" else 3)


def _pick_set(pick: Pick, counts: list[int]) -> tuple[str, int]:
    while True:
        kind = pick(("chow", "chow", "chow", "pung", "pung", "kong"))
        if kind == "chow":
            tile = pick([9 * s + r for s in range(3) for r in range(7)])
        else:
            tile = pick(range(T.NUM_TILE_TYPES))
        if all(counts[t] + _set_tiles(kind, tile).count(t) <= 4 for t in set(_set_tiles(kind, tile))):
            return kind, tile


def seeded_hands(seed: int, n: int, context: Mapping[str, str]) -> list[Hand]:
    """`n` random complete hands, the same list for the same seed (flags named by `context`, as above)."""
    rng = random.Random(seed)
    return [winning_hand(rng.choice, context) for _ in range(n)]
