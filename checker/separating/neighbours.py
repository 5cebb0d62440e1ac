"""Hands of play one change away from a hand, around one of its events, that keep that event: the neighbours of
the event where an engine departs from the rules.

A class of hands of play departs at one event (the win the engine refuses, the knock it lets stand). A reading of
the rules that explains the class claims to say how the engine plays that event; the hand changed just before it
(an event left out, a claim or a knock put in, another discard: `checker.table.mutate.OPERATORS`) with the event
itself kept as it was, tries that claim where the class's own hands cannot: 八花齐 declared before the eighth
flower's replacement instead of after it, a win after one discard more. Nothing here decides legality or asks
an engine: it gives the changed logs, each with where the kept event now stands.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator, Mapping, Sequence

from checker.case import CaseError
from checker.table.events import LogError, parse_event
from checker.table.log import GAME, VERSION, new_table
from checker.table.mutate import OPERATORS
from checker.scorers import Scorers

BEFORE = 2  # events before the kept one a change is made at
FAILURES = (CaseError, LogError, ValueError, KeyError, IndexError, TypeError)


@dataclass(frozen=True)
class Neighbour:
    """A hand of play changed at one event before `at` (the kept event's index in the changed log), what was
    changed, in words, and the kind of change (the operator's name: `dropped`, `other_seat`, ...)."""

    case: Mapping[str, Any]
    at: int
    change: str
    operator: str


def departing_event(events: Sequence[Mapping[str, Any]], *answers: Any) -> int:
    """The event where answers to a hand of play part: the first event any of them refuses, else its last."""
    refused = [a["event"] for a in answers if isinstance(a, Mapping) and a.get("verdict") == "illegal"
               and isinstance(a.get("event"), int) and 0 <= a["event"] < len(events)]
    return min(refused) if refused else len(events) - 1


def neighbours(case: Mapping[str, Any], at: int, runner: Scorers | None = None) -> Iterator[Neighbour]:
    """The hand of play `case` changed at one of the BEFORE events before event `at`, event `at` kept as it is
    (each operator's changes in turn, the nearest event first), on the table the case's header deals."""
    data = case["input"]
    events: list[dict[str, Any]] = list(data.get("events") or [])
    if not 0 <= at < len(events):
        return
    kept = events[at]
    header = {"game": GAME, "version": VERSION, "ruleset": case["ruleset"], "options": case.get("options") or {},
              **{k: v for k, v in data.items() if k != "events"}}
    try:
        table = new_table(header, runner)
        for i in range(max(0, at - BEFORE)):
            if table.ended or table.apply(parse_event(events[i])) is not None:
                return
    except FAILURES:
        return
    before = []  # the table before each event changed, nearest the kept one last
    for i in range(max(0, at - BEFORE), at):
        before.append((i, table.copy()))
        try:
            if table.ended or table.apply(parse_event(events[i])) is not None:
                break
        except FAILURES:
            break
    for i, state in reversed(before):
        for operator in OPERATORS:
            for change, changed in operator(state, events, i):
                where = _kept_at(changed, kept, at)
                if where is not None:
                    yield Neighbour({**case, "input": {**data, "events": changed}}, where, change, operator.__name__)


def _kept_at(changed: Sequence[Mapping[str, Any]], kept: Mapping[str, Any], at: int) -> int | None:
    """Where the kept event stands in a changed log (one event left out before it, or one put in), if it does."""
    for where in (at, at - 1, at + 1):
        if 0 <= where < len(changed) and changed[where] == kept:
            return where
    return None
