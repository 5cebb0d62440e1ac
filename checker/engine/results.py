"""What the scorer answers: a hand's `Score` with its `FanLine`s, and the readings (`Reading`, `Tallied`) it
compares to choose the best interpretation (principle.highest_interpretation); `BoundPattern`, a pattern with
its option values applied. Built by checker.engine.scoring."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from checker import tiles as T
from checker.engine.hand import Hand
from checker.engine.interpretation import Interpretation
from checker.engine.exclusions import Withheld
from checker.engine.steps import Acted, Running
from checker.spec import Pattern


@dataclass(frozen=True)
class BoundPattern:
    """A pattern with its option values applied."""

    pattern: Pattern
    points: int
    scope: str
    decide: Callable[[Any], Any] | None
    blocks: frozenset[str]
    blocks_within: frozenset[str]
    blocks_some: Mapping[str, int]  # patterns it withholds at most so many instances of (excludes_if with count)
    qualifies: bool

    @property
    def id(self) -> str:
        return self.pattern.id


@dataclass(init=False)
class Tallied:
    """A fan a reading counts: its rank, how many times it counts, and the instances found (each the indices of
    the groups it was found in; () for a fan of the whole hand)."""

    def __init__(self, rank: int, count: int, instances: tuple) -> None:
        self.rank, self.count, self.instances = rank, count, instances


class Reading:
    """An interpretation as scored: its qualifying points and total, the fans it counts in value order, what
    was withheld from it, and under hua scoring the run of the steps."""

    def __init__(self, qualifying: int, total: int, tally: tuple[Tallied, ...], interpretation: Interpretation,
                 withheld: Withheld, run: Running | None) -> None:
        self.qualifying, self.total, self.tally = qualifying, total, tally
        self.interpretation, self.withheld, self.run = interpretation, withheld, run


class FanLine:
    """One counted fan: its value, how many times, and the groups it was found in. Read-only by contract (a
    plain class with a written-out constructor: the compiled engine builds one per counted fan)."""

    id: str
    name: str
    name_zh: str
    points: int
    count: int  # how many times the fan counts
    sets: tuple[tuple[tuple[int, ...], ...], ...]  # per counted instance, the tiles of each group it uses
    requirement: str
    kind: str

    def __init__(self, id: str, name: str, name_zh: str, points: int, count: int,
                 sets: tuple[tuple[tuple[int, ...], ...], ...] = (), requirement: str = "", kind: str = "fan"):
        self.id, self.name, self.name_zh, self.points, self.count = id, name, name_zh, points, count
        self.sets, self.requirement, self.kind = sets, requirement, kind

    @property
    def groups(self) -> tuple[str, ...]:
        """Each instance's groups written out, e.g. ('2m3m4m 2p3p4p 2s3s4s',)."""
        return tuple(" ".join(T.format_tiles(tiles) for tiles in instance) for instance in self.sets)

    @property
    def total(self) -> int:
        return self.points * self.count

    def as_expect(self) -> dict:
        return {"id": self.id, "points": self.points, "count": self.count}


@dataclass(init=False)
class Score:
    """The outcome of scoring one hand: a read-only record (not frozen, and with a written-out constructor,
    because a dataclass's generated constructor runs as plain Python even in the compiled engine: about 7%
    of the scoring time)."""

    ruleset: str
    valid: bool
    total: int
    qualifying: int
    fans: tuple[FanLine, ...]
    payments: tuple[int, ...] | None
    error: str | None
    message: str
    reading: Interpretation | None = field(repr=False, compare=False)
    alternatives: tuple[tuple[FanLine, ...], ...]
    withheld: tuple[tuple[str, str], ...]
    explain: tuple[str, ...]
    hand: Hand | None
    options: Mapping[str, Any]
    steps: tuple[Acted, ...]  # the scoring steps that did something (hua rulesets), in order
    cap: int | None  # the hand's cap after the steps (None: no cap step)

    def __init__(self, ruleset: str, valid: bool, total: int = 0, qualifying: int = 0, fans: tuple[FanLine, ...] = (),
                 payments: tuple[int, ...] | None = None, error: str | None = None, message: str = "",
                 reading: Interpretation | None = None, alternatives: tuple[tuple[FanLine, ...], ...] = (),
                 withheld: tuple[tuple[str, str], ...] = (), explain: tuple[str, ...] = (), hand: Hand | None = None,
                 options: Mapping[str, Any] | None = None, steps: tuple[Acted, ...] = (), cap: int | None = None):
        self.ruleset, self.valid, self.total, self.qualifying, self.fans = ruleset, valid, total, qualifying, fans
        self.payments, self.error, self.message, self.reading = payments, error, message, reading
        self.alternatives, self.withheld, self.explain, self.hand = alternatives, withheld, explain, hand
        self.options = options if options is not None else {}
        self.steps, self.cap = steps, cap

    @property
    def interpretation(self) -> str:
        """The chosen interpretation, written out (melds in brackets, the winning tile's group starred)."""
        return self.reading.describe() if self.reading is not None else ""

    def as_expect(self) -> dict:
        """The `expect` shape of the case format."""
        if not self.valid:
            return {"valid": False, "error": self.error}
        result = {"valid": True, "total": self.total, "fans": [f.as_expect() for f in self.fans],
                  "payments": list(self.payments or [])}
        if self.alternatives:
            others = [{**result, "fans": [f.as_expect() for f in alt]} for alt in self.alternatives]
            return {"either": [result] + others}
        return result


def other_readings(winners: list[Reading]) -> list[Reading]:
    """The best readings after the first that count other fans than it and than each other (`Score.alternatives`)."""
    if len(winners) < 2:
        return []
    seen = {tally_signature(winners[0].tally)}
    out = []
    for w in winners[1:]:
        sig = tally_signature(w.tally)
        if sig not in seen:
            seen.add(sig)
            out.append(w)
    return out


def tally_signature(tally: tuple[Tallied, ...]) -> tuple:
    return tuple(sorted([(t.rank, t.count) for t in tally]))


def counts_any(tally: tuple[Tallied, ...], ranks: frozenset[int]) -> bool:
    """Whether the tally counts one of these fans."""
    for t in tally:
        if t.rank in ranks:
            return True
    return False
