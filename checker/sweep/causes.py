"""A sweep's classes of disagreement named by their cause, by the same search as a conformance run
(`checker.diagnose.CauseSearch`): each class is made into what diagnosis reads, cases in the case format whose
expectation is the reference engine's result for the witness and whose answer is the other engine's, and its
cause is searched among the same departures (readings, spec edits, context readings, pairs, fans outside the
spec) and said in the same words and ids.

The cases are compared as the sweep compares results (`checker.sweep.work`): whether the hand wins (any refusal
agrees with any other) and, for a win, each fan's points (its points times its count) in some best reading.
So the expectation, the answer and the reference's results under each departure are all written in that form
(`compared_form`: each fan once, with its total as its points and a count of 1), and a departure explains a
case exactly when the reference engine under it gives what the sweep saw the other engine give.

Witnesses: a shard keeps one per class; a class is searched on those of up to MAX_WITNESSES shards, spread
over the space, the report's witness (the first in the space's order) first. A cause must change none of the
cases on which the two engines agree: the shards keep those only as counts, so SAMPLE_RUNS runs of RUN_HANDS
consecutive hands, spread evenly over the hands swept, are scored on both engines when the report is written,
and the cases on which they agree are the passing cases each cause is checked against (the report says how
many).
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable, Iterator, Mapping, Sequence

from checker.case import CaseError, CaseRunner, hand_from_input
from checker.conform.adapters import EngineError
from checker.diagnose import MAX_CLASSES_SEARCHED, class_json
from checker.diagnose.causes import CauseSearch
from checker.diagnose.explanation import Cause
from checker.diagnose.classes import FailureClass
from checker.diagnose.judged import CaseFields
from checker.diagnose.probes import DEFAULT_PROBES, Experiments, Prober
from checker.engine import HandError, Scorer
from checker.mutate.mutation import Mutation, Rescorer
from checker.sweep.run import Plan
from checker.sweep.work import agree, both_engines, cases_at, result_of, shown, worker_runner

MAX_WITNESSES = 12  # witnesses a class is searched on (one a shard, spread over the shards)
SAMPLE_RUNS = 32  # runs of consecutive hands, spread over the space, scored on both engines at report time
RUN_HANDS = 2  # hands a run


@dataclass
class SweepCase(CaseFields):
    """One case of a sweep as diagnosis reads it (`checker.diagnose.judged.Judged`): `case` in the case format
    (its `expect` the reference's whole result, so the reproduce command checks it), `expected` and `actual`
    the two engines' results as the sweep compares them. Read-only by convention."""

    id: str | None
    line: int
    outcome: str  # "failed" (a witness of a class) or "passed" (a case on which the engines agree)
    actual: Mapping[str, Any] | None
    case: Mapping[str, Any] | None
    expected: Any = None
    reason: str | None = None

    @property
    def covers(self) -> tuple[str, ...]:
        return ()


def compared_form(result: Mapping[str, Any], error: bool = True) -> dict[str, Any]:
    """A result as the sweep shows it (`{"valid", "error", "fans": {id: points}, "other_readings"}`) in the case
    format, as the sweep compares it: a refusal (naming its rule when `error`), or a win with each fan once, its
    points the fan's total, its count 1 (an `either` of every best reading)."""
    if not result.get("valid"):
        return {"valid": False, "error": result.get("error")} if error else {"valid": False}
    readings = [result.get("fans") or {}, *(result.get("other_readings") or [])]
    members = [{"valid": True, "fans": [{"id": str(f), "points": points, "count": 1}
                                        for f, points in sorted(fans.items())]} for fans in readings]
    return members[0] if len(members) == 1 else {"either": members}


class ComparedRescorer(Rescorer):
    """The reference engine (the process's runner) under departures (checker.mutate), its results in the form
    the sweep compares; a scorer under a departure is made once a process (`scorer_under`)."""

    def __init__(self) -> None:
        super().__init__(worker_runner())

    def result(self, case: Mapping[str, Any], mutation: Mutation | None = None) -> Mapping[str, Any] | None:
        found = super().result(case, mutation)
        return None if found is None else compared_form(shown(result_of(found)))

    def scorer(self, ruleset_id: str, options: Mapping[str, Any] | None, mutation: Mutation | None) -> Scorer | None:
        if mutation is None:
            return super().scorer(ruleset_id, options, mutation)
        return scorer_under(ruleset_id, tuple(sorted((options or {}).items())), mutation)


@lru_cache(maxsize=1024)
def scorer_under(ruleset_id: str, options: tuple[tuple[str, Any], ...], mutation: Mutation) -> Scorer | None:
    """The process's reference scorer under a departure (None: the departure makes no ruleset), made once: a
    report searches most of the departures the one before it did (a departure's id names it within a ruleset)."""
    return Rescorer(worker_runner()).scorer(ruleset_id, dict(options), mutation)


def class_parts(key: Sequence[Sequence[Any]]) -> tuple[dict[str, Any], ...]:
    """A sweep class's key (`[fan, reference's points, other's points]` each, or `["verdict", reference,
    other]`) as the parts of a diagnosis signature."""
    parts: list[dict[str, Any]] = []
    for item in key:
        if item[0] == "verdict":
            parts.append({"verdict": {"expected": str(item[1]), "actual": str(item[2])}})
            continue
        fan, ours, theirs = str(item[0]), item[1], item[2]
        if not theirs:
            parts.append({"missing": True, "fan": fan, "points": ours})
        elif not ours:
            parts.append({"extra": True, "fan": fan, "points": theirs})
        else:
            parts.append({"different": True, "fan": fan, "expected": [ours, 1], "actual": [theirs, 1]})
    return tuple(parts)


def spread(items: Sequence[Any], most: int) -> list[Any]:
    """At most `most` of `items`, spread evenly over them, the first always kept (the same every time)."""
    if len(items) <= most:
        return list(items)
    return [items[i * len(items) // most] for i in range(most)]


def sample_runs(hands: int) -> list[tuple[int, int]]:
    """The runs of hands (start, stop) scored on both engines for the agreeing cases: SAMPLE_RUNS runs of
    RUN_HANDS hands spread evenly over the `hands` swept (all of them when they are fewer)."""
    if hands <= SAMPLE_RUNS * RUN_HANDS:
        return [(0, hands)] if hands else []
    return [(i * hands // SAMPLE_RUNS, i * hands // SAMPLE_RUNS + RUN_HANDS) for i in range(SAMPLE_RUNS)]


@dataclass(frozen=True)
class Sample:
    """The agreeing cases a report's causes are checked against: the cases, how many hands were scored for
    them, and why none could be (the engine could not be run when the report was written), if so."""

    cases: tuple[SweepCase, ...]
    hands: int
    problem: str | None = None


def agreeing_sample(plan: Plan) -> Sample:
    """The cases of the sample's hands (`sample_runs`) on which the reference engine and the other agree."""
    from checker.conform.adapters import EngineError

    runs = sample_runs(plan.hands())
    try:
        scored = cases_at(plan.ruleset, plan.space, runs, plan.options, plan.against, plan.against_options,
                          plan.context, plan.open_melds)
    except (EngineError, OSError) as exc:
        return Sample((), 0, str(exc))
    base = _case_head(plan)
    cases = tuple(SweepCase(None, i, "passed", compared_form(shown(theirs), error=False),
                            {**base, "input": data}, compared_form(shown(ours), error=False))
                  for i, (data, ours, theirs) in enumerate(scored) if agree(ours, theirs))
    return Sample(cases, sum(b - a for a, b in runs))


def _case_head(plan: Plan) -> dict[str, Any]:
    head: dict[str, Any] = {"ruleset": plan.ruleset, "kind": "score"}
    if plan.options:
        head["options"] = dict(plan.options)
    return head


def witness_case(plan: Plan, number: int, k: int, seen: Mapping[str, Any], runner: CaseRunner) -> SweepCase | None:
    """The `k`-th witness of class `number` (a shard's `{"witness", "other", …}`) as a failed case: the
    reference's result scored now, the other engine's answer as the shard kept it; None for a witness that is
    no case (a shard forged with its checksum)."""
    case: dict[str, Any] = {"id": f"sweep-class-{number}-witness-{k}", **_case_head(plan), "input": seen["witness"]}
    try:
        case["expect"] = runner.run(case)
        expected = compared_form(shown(result_of(case["expect"])))
        actual = compared_form(seen["other"])
    except (CaseError, HandError, KeyError, TypeError, ValueError, AttributeError):
        return None
    return SweepCase(case["id"], k, "failed", actual, case, expected)


@contextmanager
def engine_asked(plan: Plan) -> Iterator[Callable[[Sequence[Mapping[str, Any]]], list[Mapping[str, Any] | None]]]:
    """The other engine of the sweep, asked probe cases (checker.diagnose.probes): each case's hand (read as the
    other engine's options read it) answered as the sweep compares answers; None for a case it cannot be given."""
    with both_engines(plan.ruleset, plan.options, plan.against, plan.against_options) as (_, _, theirs):
        other = worker_runner().scorer(plan.ruleset, dict(plan.against_options))

        def ask(cases: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any] | None]:
            out: list[Mapping[str, Any] | None] = []
            for case in cases:
                try:
                    hand = hand_from_input(case["input"], other, checked=False)
                    out.append(compared_form(shown(theirs([hand])[0])))
                except (HandError, CaseError, KeyError, TypeError, ValueError, AttributeError, IndexError):
                    out.append(None)
            return out
        yield ask


def named_causes(plan: Plan, classes: Sequence[Mapping[str, Any]], witnesses: Sequence[Sequence[Mapping[str, Any]]],
                 sample: Sample, effort: int = 1, search: bool = True,
                 probes: int = DEFAULT_PROBES) -> list[dict[str, Any]]:
    """For each class (merged, largest first) with its witnesses (the shards' own, the report's first): its
    signature, its witness in words, the command that reproduces it, the source sentences of its rules, and its
    cause as a conformance summary gives it (`Cause.as_json`). The first MAX_CLASSES_SEARCHED are searched, with
    `effort` times the default re-scorings (none without `search`), and each cause put to the other engine by at
    most `probes` probes in all (checker.diagnose.probes); where that engine cannot be run now, a cause is said to
    be checked against the agreeing cases, not confirmed, and one no agreeing case checked is not named."""
    runner = worker_runner()
    found: list[FailureClass] = []
    for number, (c, seen) in enumerate(zip(classes, witnesses), 1):
        members = [w for k, s in enumerate(spread(seen, MAX_WITNESSES), 1)
                   if (w := witness_case(plan, number, k, s, runner)) is not None]
        found.append(FailureClass(("sweep", repr(c["key"])), class_parts(c["key"]), tuple(members)))
    searchable = [cls for cls in found if cls.members]
    searcher = CauseSearch(sample.cases, ComparedRescorer(), scale=effort) if searchable and search else None
    causes: dict[int, Cause] = {}
    if searcher is not None:
        chosen = searchable[:MAX_CLASSES_SEARCHED]
        said = searcher.explain_all(chosen)
        try:
            with engine_asked(plan) as ask:
                experiments = Experiments(searcher.rescorer, Prober(ask, probes), searcher.own_rules,
                                          searcher.read_names, effort)
                said = searcher.confirm_all(chosen, said, experiments)
        except (EngineError, OSError):  # the other engine cannot be run now: causes checked, not confirmed
            said = searcher.confirm_all(chosen, said, None)
        causes = {id(cls): cause for cls, cause in zip(chosen, said)}
    out = []
    for cls, seen in zip(found, witnesses):
        if not cls.members:
            out.append({"signature": cls.title(), "witnesses": 0,
                        "cause": {"explained_by": [], "unexplained": len(seen),
                                  "verdict": "unexplained (no witness of it is a case the reference can score)"}})
            continue
        entry = class_json(cls, causes.get(id(cls)), searcher)
        out.append({"signature": entry["signature"], "witnesses": len(cls.members),
                    "words": entry["witness"]["words"], "reproduce": entry["witness"]["reproduce"],
                    "sources": entry["sources"], "cause": entry["cause"]})
    return out
