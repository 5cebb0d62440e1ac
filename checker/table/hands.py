"""What a player's tiles can do: complete a hand, wait on tiles, claim a discard. Shape questions only, asked
of the engine's own shape functions (checker.engine.shapes) for the ruleset's winning shapes; whether a complete
hand may win (its value, the knock it needs) is the scorer's answer, never decided here."""
from __future__ import annotations

from typing import Callable, Sequence

from checker import tiles as T
from checker.engine.shapes import SHAPES
from checker.engine.scoring import Scorer

Counts = list[int]  # 34 tile counts of a player's concealed tiles


class Shapes:
    """The ruleset's winning shapes as fast tests: `complete(counts, n_melds)` and `waits(counts, n_melds)`.
    Shapes that need the whole hand (all winds, eight flowers) are answered by `needs_scorer`: a hand that
    might be one of them is handed to the scorer."""

    def __init__(self, scorer: Scorer):
        # [declared melds][tile types held]: the completeness tests of the shapes a hand like that can have
        self._complete: list[list[list[Callable[[tuple[int, ...], int], bool]]]] = \
            [[[] for _ in range(15)] for _ in range(5)]
        self._waits: list[list[list[Callable[[tuple[int, ...], int], set[int]]]]] = \
            [[[] for _ in range(15)] for _ in range(5)]
        self.hand_shapes: list[tuple[str, dict]] = []
        for name, params in scorer.shapes.items:
            kind = SHAPES[name]
            if kind.needs_hand:
                self.hand_shapes.append((name, dict(params)))
                continue
            low, high = kind.distinct
            for melds in range(min(kind.max_melds, 4) + 1):
                for types in range(15):
                    if low <= types <= high:
                        self._complete[melds][types].append(_bind(kind.complete, params))
                    if low <= types + 1 and types <= high:  # the winning tile may add a type
                        self._waits[melds][types].append(_bind(kind.waits, params))

    def complete(self, counts: Sequence[int], n_melds: int) -> bool:
        types = 0
        for c in counts:
            if c:
                types += 1
        tests = self._complete[n_melds][types] if types < 15 else ()
        if not tests:
            return False
        key = tuple(counts)
        for test in tests:
            if test(key, n_melds):
                return True
        return False

    def waits(self, counts: Sequence[int], n_melds: int) -> set[int]:
        types = 0
        for c in counts:
            if c:
                types += 1
        out: set[int] = set()
        if types >= 15:
            return out
        key = tuple(counts)
        for waits in self._waits[n_melds][types]:
            out |= waits(key, n_melds)
        return out

    def needs_scorer(self, counts: Sequence[int], meld_tiles: Sequence[int], flowers: int) -> bool:
        """Whether a shape the fast tests cannot answer might hold: every tile an honour (a wind for
        `tiles: winds`) under tiles_of_one_class, or all eight flowers under declared_flowers."""
        for name, params in self.hand_shapes:
            if name == "declared_flowers":
                if flowers >= int(params.get("flowers", 8)):
                    return True
            elif name == "tiles_of_one_class":
                if any(counts[t] for t in T.SUITED):
                    continue
                honours = T.WINDS if params.get("tiles", "winds") == "winds" else T.HONORS
                if all(t in honours for t in meld_tiles) and not any(counts[t] for t in T.HONORS if t not in honours):
                    return True
        return False


_BOUND: dict[int, tuple[Scorer, Shapes]] = {}


def shapes_of(scorer: Scorer) -> Shapes:
    """The scorer's shapes as fast tests, made once per scorer."""
    known = _BOUND.get(id(scorer))
    if known is None or known[0] is not scorer:
        known = _BOUND[id(scorer)] = (scorer, Shapes(scorer))
    return known[1]


def _bind(fn: Callable, params) -> Callable:
    if not params:
        return fn
    return lambda counts, n_melds: fn(counts, n_melds, **params)


def chows_with(counts: Sequence[int], tile: int) -> list[tuple[int, int, int]]:
    """The chows a player can make with `tile` from the tiles in hand: each as its three tiles, lowest first."""
    if not T.is_suited(tile):
        return []
    rank = tile % 9
    base = tile - rank
    out = []
    for low in (rank - 2, rank - 1, rank):
        if low < 0 or low + 2 > 8:
            continue
        run = (base + low, base + low + 1, base + low + 2)
        if all(t == tile or counts[t] > 0 for t in run):
            out.append(run)
    return out


def chow_other_end(run: Sequence[int], claimed: int) -> int:
    """Swap-calling: the tile that would complete the run at the end away from the claimed tile (claim 3 onto
    4-5: 6; claim 9 onto 7-8: 6); -1 for a tile claimed into the middle, or when the run ends the suit (claim 7 onto 8-9)."""
    low, high = run[0], run[2]
    if claimed == low:
        other = high + 1
        return other if other % 9 != 0 and T.is_suited(other) and other // 9 == low // 9 else -1
    if claimed == high:
        other = low - 1
        return other if other >= 0 and low % 9 != 0 and other // 9 == low // 9 else -1
    return -1
