"""What a batch of hands holding the same tiles shares while it is scored (Scorer.score_wins and
fan_totals_of_wins: the sweep's cases of one hand, alike but for the winning tile and the way of winning)."""
from __future__ import annotations

from checker.engine.interpretation import Interpretation
from checker.engine.predicates.registry import Planned


class SharedFans:
    """For a batch's hands with one set of flags and way of winning, or for one division and structure: the fans
    found by tiles_only predicates, and the predicates that read more than the tiles (run for each hand or
    interpretation)."""

    def __init__(self, found: dict[int, tuple], rest: list[Planned]):
        self.found, self.rest = found, rest


class SharedDivision:
    """What a batch's hands share of one division: the tiles_only answers asked so far (by rank; () when the fan
    does not hold), whatever the winning tile completes, and per way the winning tile completes it (which, the
    tiles and melds being the same, decides the interpretation's structure) the tiles_only fans and the rest."""

    def __init__(self) -> None:
        self.answers: dict[int, tuple] = {}
        self.by_win_kind: dict[str | None, SharedFans] = {}


class Shared:
    """What a batch of hands holding the same tiles shares (Scorer.score_wins): the answers of tiles_only
    predicates, the hand-level ones per set of flags and way of winning, the interpretation-level ones per
    division (Interpretation.division: `SharedDivision`); and per division one interpretation made of it."""

    def __init__(self) -> None:
        self.hands: dict[tuple[frozenset[str], str], SharedFans] = {}  # by flags and way of winning
        self.divisions: list[SharedDivision | None] = []  # by division
        self.made: list[Interpretation | None] = []  # per division, one interpretation made of it

    def division(self, index: int) -> SharedDivision:
        known = self.divisions
        while len(known) <= index:
            known.append(None)
        shared = known[index]
        if shared is None:
            shared = known[index] = SharedDivision()
        return shared
