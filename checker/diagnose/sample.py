"""What diagnosis holds of a run: its failure classes, each with a bounded sample of its cases, and the passing
cases its causes are checked against, found in two passes over the results with memory flat in the run's size.

The first pass counts each class (the failed and errored cases of one signature, as `classes_of` groups them)
and the passing score cases of each ruleset, keeping only each class's MAX_MEMBERS_SCREENED first cases in
witness order (by their number in the run). The second keeps, of each class, those first cases (its witness,
the cases it names, the ones a candidate is screened on) and, of a class the cause search looks at, the rest of
its cases up to MAX_MEMBERS_SEARCHED, spread evenly over the run (every k-th); and of the passing cases every
k-th, at most MAX_PASSING_CHECKED a ruleset (as CauseSearch takes them from a list). A class of at most
MAX_MEMBERS_SEARCHED cases keeps them all: the classes are `classes_of`'s. `results` must read the same
twice, in the same order (a list, or a run's results streamed from its file).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from checker.diagnose.explanation import MAX_MEMBERS_SCREENED, passing_step
from checker.diagnose.classes import FailureClass, signature, witness_order
from checker.diagnose.judged import Judged, rescorable

MAX_MEMBERS_SEARCHED = 200  # cases of a class the cause search looks at (the screened first, the rest spread)


@dataclass(frozen=True)
class RunSample:
    """The classes (largest first, as `classes_of` orders them) and the passing cases kept, with how many
    passing cases of each ruleset they were taken from."""

    classes: list[FailureClass]
    passing: list[Judged]
    passing_total: Mapping[str, int]


@dataclass
class _Class:
    parts: tuple[Mapping[str, Any], ...]
    count: int = 0
    first: list[tuple[tuple, int]] | None = None  # (witness order, number) of its first cases in witness order
    step: int = 0  # of a class searched: every step-th of its cases is kept (0: only its first ones)
    seen: int = 0  # its cases met in the second pass
    kept: list[Judged] | None = None


def sample_run(results: Iterable[Judged], searched: int) -> RunSample:
    """The run's classes and passing cases (see the module); the first `searched` classes (largest first) are
    given the sample the cause search looks at, the others only their first cases."""
    classes: dict[tuple, _Class] = {}
    passing: dict[str, int] = {}
    for number, r in enumerate(results):
        if r.outcome in ("failed", "errored"):
            key, parts = signature(r)
            entry = classes.setdefault((r.ruleset or "",) + key, _Class(parts, first=[]))
            entry.count += 1
            assert entry.first is not None
            entry.first.append((witness_order(r), number))
            if len(entry.first) >= 2 * MAX_MEMBERS_SCREENED:
                entry.first = sorted(entry.first)[:MAX_MEMBERS_SCREENED]
        elif r.outcome == "passed" and r.ruleset is not None and rescorable(r):
            passing[r.ruleset] = passing.get(r.ruleset, 0) + 1
    ordered = sorted(classes.items(), key=lambda kv: (-kv[1].count, repr(kv[0])))
    wanted: set[int] = set()
    for rank, (_, entry) in enumerate(ordered):
        assert entry.first is not None
        entry.first = sorted(entry.first)[:MAX_MEMBERS_SCREENED]
        wanted.update(number for _, number in entry.first)
        if rank < searched:
            spread = MAX_MEMBERS_SEARCHED - MAX_MEMBERS_SCREENED
            entry.step = 1 if entry.count <= MAX_MEMBERS_SEARCHED else -(-entry.count // spread)
        entry.kept = []
    steps = {ruleset: passing_step(n) for ruleset, n in passing.items()}
    seen: dict[str, int] = {}
    kept_passing: list[Judged] = []
    for number, r in enumerate(results):
        if r.outcome in ("failed", "errored"):
            entry = classes[(r.ruleset or "",) + signature(r)[0]]
            if number in wanted or (entry.step and entry.seen % entry.step == 0):
                assert entry.kept is not None
                entry.kept.append(r)
            entry.seen += 1
        elif r.outcome == "passed" and r.ruleset is not None and rescorable(r):
            index = seen.get(r.ruleset, 0)
            seen[r.ruleset] = index + 1
            if index % steps[r.ruleset] == 0:
                kept_passing.append(r)
    found = [FailureClass(key, entry.parts, tuple(sorted(entry.kept or [], key=witness_order)),
                          None if entry.count == len(entry.kept or []) else entry.count)
             for key, entry in ordered]
    return RunSample(found, kept_passing, passing)
