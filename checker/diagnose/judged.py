"""What diagnosis reads of a judged case: the shape of a conformance result (checker.conform.results.CaseResult
and a sweep's cases alike), so diagnosis depends on no runner."""
from __future__ import annotations

from typing import Any, Mapping, Protocol


class Judged(Protocol):
    """A case, the engine's answer to it and the outcome it was judged."""

    id: str | None
    line: int
    outcome: str
    actual: Mapping[str, Any] | None
    reason: str | None
    case: Mapping[str, Any] | None

    @property
    def expected(self) -> Any: ...

    @property
    def covers(self) -> tuple[str, ...]: ...

    @property
    def ruleset(self) -> str | None: ...

    @property
    def options(self) -> Mapping[str, Any] | None: ...

    @property
    def input(self) -> Mapping[str, Any] | None: ...


class CaseFields:
    """The fields of a judged record read from its `case` (its ruleset, options and input): a mixin for records
    that keep the case whole (checker.conform.results.CaseResult, a sweep's cases)."""

    __slots__ = ()
    case: Mapping[str, Any] | None

    @property
    def ruleset(self) -> str | None:
        return self.case.get("ruleset") if self.case is not None else None

    @property
    def options(self) -> Mapping[str, Any] | None:
        return self.case.get("options") if self.case is not None else None

    @property
    def input(self) -> Mapping[str, Any] | None:
        return self.case.get("input") if self.case is not None else None


def rescorable(r: Judged) -> bool:
    """A score case or a hand of play, with an input and an expectation, in the case format (a results file read
    back may hold anything within its bounds: a flags field that is a string, a meld that is not an object): one
    the reference can run again."""
    if not ((r.case or {}).get("kind", "score") in ("score", "procedure") and isinstance(r.input, Mapping)
            and isinstance(r.expected, Mapping)):
        return False
    key = id(r.case)
    found = _IN_FORMAT.get(key)
    if found is None or found[0] is not r.case:
        from checker.case import case_problem

        found = (r.case, case_problem(r.case) is None)
        _IN_FORMAT[key] = found
        if len(_IN_FORMAT) > _IN_FORMAT_MEMORY:  # the oldest first: memory stays flat whatever the run's size
            del _IN_FORMAT[next(iter(_IN_FORMAT))]
    return found[1]


# id of a case -> (the case, whether the case schema takes it): the cases lately asked of, a few hundred (the
# cause search asks of each of a class's cases many times, one after another)
_IN_FORMAT: dict[int, tuple[Any, bool]] = {}
_IN_FORMAT_MEMORY = 512


def kind_of(r: Judged) -> str:
    """A judged case's kind: `score`, or `procedure` (a hand of play)."""
    return str((r.case or {}).get("kind", "score"))
