"""The search for a case that kills a surviving mutant: a pool of seeded candidate hands scored under the spec and
under the mutant, the readings that make the mutant's change apply, the proofs of equivalence, and the clock the
budget runs on (checker.corpus.strength)."""

import re
import time
from typing import Any, Callable, Iterable, Mapping, Sequence

from checker.case import CaseRunner, matches, readings_of
from checker.corpus.equivalence import differing_readings, proof
from checker.corpus.strength_records import NOT_SEPARATED, SEPARATED, CaseRef, MutantResult
from checker.inputs import json_text
from checker.mutate.candidates import random_candidates, search_candidates, targeted_candidates
from checker.mutate.mutation import Mutation, Rescorer
from checker.spec import OptionRef, Ruleset
from checker.spec.bind import bind

POOL_HANDS = 3000  # random candidate hands per ruleset searched for a case that kills a survivor
SEARCH_READINGS = 3  # readings searched where a mutant binds as the spec does under the defaults
PROCEDURE_TRIALS = 20_000  # candidates (whole cases and screened changes) searched per procedure survivor
CHECK_EVERY = 50  # hands searched between looks at the clock


# ----------------------------------------------------------------------------- the search pool

def _plain(result: Mapping[str, Any]) -> dict[str, Any]:
    """A result as a case's `expect` holds it: a refusal without its message."""
    if result.get("valid") is False and "error" in result:
        return {"valid": False, "error": result["error"]}
    return dict(result)


def fan_ids(result: Any) -> frozenset[str]:
    return frozenset(str(f.get("id")) for r in readings_of(result) for f in (r.get("fans") or [])
                     if isinstance(f, Mapping))


class Pool:
    """Seeded candidate hands of one ruleset (the generator's targeted constructions, random hands, then the
    search's own constructions), each
    scored by the reference engine once per set of options asked for."""

    def __init__(self, ruleset: Ruleset, seed: int, size: int, runner: CaseRunner):
        self.ruleset = ruleset
        self.inputs = [data for _, data in targeted_candidates(ruleset)]
        self.inputs += [data for _, data in random_candidates(ruleset, seed, size)]
        self.inputs += [data for _, data in search_candidates(ruleset)]
        self._cases: dict[str, list[dict[str, Any]]] = {}
        self._results: dict[str, list[Mapping[str, Any] | None]] = {}

    def cases(self, options: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Every hand as a case under `options`: the same objects each time (a Rescorer keeps a case's hand by
        the case object's identity, so they are kept alive as long as the pool)."""
        key = json_text(sorted(options.items()))
        if key not in self._cases:
            self._cases[key] = [{"ruleset": self.ruleset.id, "options": dict(options), "kind": "score",
                                 "input": data} for data in self.inputs]
        return self._cases[key]

    def results(self, options: Mapping[str, Any], rescorer: Rescorer) -> list[Mapping[str, Any] | None]:
        """The reference engine's result of every hand under `options` (None: it cannot be run)."""
        key = json_text(sorted(options.items()))
        if key not in self._results:
            found: list[Mapping[str, Any] | None] = []
            for case in self.cases(options):
                got = rescorer.result(case)
                found.append(None if got is None else _plain(got))
            self._results[key] = found
        return self._results[key]


# ----------------------------------------------------------------------------- judging one mutant

def _patterns(mutation: Mutation) -> frozenset[str]:
    return frozenset(r[4:] for r in mutation.rules if r.startswith("fan."))


def _counters(mutation: Mutation) -> frozenset[str]:
    return frozenset(r[8:] for r in mutation.rules if r.startswith("counter."))


def _touches(mutation: Mutation, data: Mapping[str, Any], result: Any) -> bool:
    """Whether a case or hand counts a pattern the mutant touches, or carries a counter it reads otherwise."""
    if _patterns(mutation) & fan_ids(result):
        return True
    counters = data.get("counters") if isinstance(data, Mapping) else None
    return bool(_counters(mutation) & set(counters or {}))


def _first_touched(indices: Iterable[int], touched: Callable[[int], bool]) -> list[int]:
    """The indices, those `touched` first, each part in its own order."""
    items = list(indices)
    first = [i for i in items if touched(i)]
    chosen = set(first)
    return first + [i for i in items if i not in chosen]


def search_readings(ruleset: Ruleset, mutation: Mutation) -> list[dict[str, Any]]:
    """The option sets the search scores hands under: the defaults, and a reading without which the mutant's
    target never applies (a pattern active under one reading only; 包 when an option decides whether it applies, and
    both together for 包 on such a pattern; each other reading of an option a mutated scoring step reads, such as
    whether a direct settlement is final)."""
    found: list[dict[str, Any]] = [{}]
    for pid in sorted(_patterns(mutation)):
        try:
            condition = ruleset.pattern(pid).active_if
        except KeyError:
            continue
        if condition is not None and condition.option in ruleset.options:
            found.append({condition.option: condition.is_})
    for step in ruleset.scoring.steps:  # a step mutant: each other reading of an option its step reads
        if step.rule and step.rule in mutation.rules:
            for value in step.params.values():
                if isinstance(value, OptionRef) and value.option in ruleset.options:
                    found += [{value.option: v} for v in ruleset.options[value.option].other_values()]
    if "settlement.liability" in mutation.rules:  # 包 where an option decides it: a reading under which it applies
        liable = _liable_readings(ruleset)[:1]
        activating = [r for r in found if r]
        found += liable
        found += [{**r, **each} for r in activating for each in liable]  # its pattern active and 包 applying at once
    differing = differing_readings(ruleset, mutation)
    if {} not in differing:  # the defaults bind as the spec does: search where the binding differs instead
        found = [r for r in found if r] + differing[:SEARCH_READINGS]
    unique: dict[str, dict[str, Any]] = {}
    for options in found:
        resolved = ruleset.resolve_options(options)
        if all(resolved[k] == o.default and type(resolved[k]) is type(o.default) for k, o in ruleset.options.items()):
            options = {}  # the defaults, written out
        unique.setdefault(json_text(sorted(options.items())), options)
    return list(unique.values())


def _liable_readings(ruleset: Ruleset) -> list[dict[str, Any]]:
    """The one-option readings under which the settlement's liability (包) applies, when it does not under the
    defaults (none when it does, or when no reading makes it apply)."""
    def liable(reading: dict[str, Any]) -> bool:
        try:
            return bind(ruleset, reading).settlement.liability is not None
        except ValueError:
            return False

    if liable({}):
        return []
    return [r for r in ({oid: v} for oid, o in ruleset.options.items() for v in o.other_values()) if liable(r)]


class Clock:
    """The search budget, spent across every survivor of every ruleset."""

    def __init__(self, seconds: float):
        self.left = seconds
        self.reached = False
        self._started: float | None = None

    def start(self) -> None:
        self._started = time.monotonic()

    def out(self) -> bool:
        if self._started is not None:
            now = time.monotonic()
            self.left -= now - self._started
            self._started = now
        if self.left <= 0:
            self.reached = True
        return self.reached

    def stop(self) -> None:
        self.out()
        self._started = None


# proofs found, by (the ruleset object's id, the mutant's id), with the ruleset kept so its id stays its own: a
# proof reads the spec and the mutant alone, never the cases, so the generator's rounds over a growing corpus
# (checker.corpus.adequacy) prove each survivor once
_PROOFS: dict[tuple[int, str], tuple[Ruleset, str]] = {}


def proved(ruleset: Ruleset, mutation: Mutation, clock: Clock) -> str | None:
    """Why no case can tell the mutant from the spec (checker.corpus.equivalence), or None; a proof that reads
    hands spends the budget and stops when it is out."""
    known = _PROOFS.get((id(ruleset), mutation.id))
    if known is not None and known[0] is ruleset:
        return known[1]
    clock.start()
    try:
        why = proof(ruleset, mutation, out=clock.out)
    finally:
        clock.stop()
    if why is not None:
        _PROOFS[(id(ruleset), mutation.id)] = (ruleset, why)
    return why


def kill(mutation: Mutation, cases: Sequence[CaseRef], expected_fans: Sequence[frozenset[str]],
          rescorer: Rescorer) -> CaseRef | None:
    patterns, counters = _patterns(mutation), _counters(mutation)

    def touched(i: int) -> bool:
        if patterns & expected_fans[i]:
            return True
        data = cases[i].case.get("input") or {}
        return bool(counters & set(data.get("counters") or {}))

    for i in _first_touched(range(len(cases)), touched):
        case = cases[i].case
        got = rescorer.result(case, mutation)
        if got is not None and not matches(got, case["expect"]):
            return cases[i]
    return None


def search_pool(mutation: Mutation, pool: Pool, rescorer: Rescorer, clock: Clock,
            seed: int) -> MutantResult:
    readings = search_readings(pool.ruleset, mutation)
    searched = 0
    if clock.out():
        return MutantResult(mutation, NOT_SEPARATED, readings=tuple(readings), cut=True)
    clock.start()
    try:
        for options in readings:
            reference = pool.results(options, rescorer)
            cases = pool.cases(options)
            order = _first_touched(range(len(reference)),
                                   lambda i: reference[i] is not None and _touches(mutation, pool.inputs[i],
                                                                                     reference[i]))
            for i in order:
                expect = reference[i]
                if expect is None:
                    continue
                if searched % CHECK_EVERY == 0 and clock.out():
                    return MutantResult(mutation, NOT_SEPARATED, searched=searched, readings=tuple(readings),
                                        cut=True)
                searched += 1
                got = rescorer.result(cases[i], mutation)
                if got is not None and not matches(got, expect):
                    case = killing_case(pool.ruleset, mutation, pool.inputs[i], options, expect, seed)
                    return MutantResult(mutation, SEPARATED, killing_case=case, mutant_result=_plain(got),
                                        searched=searched, readings=tuple(readings))
    finally:
        clock.stop()
    return MutantResult(mutation, NOT_SEPARATED, searched=searched, readings=tuple(readings))


def killing_case(ruleset: Ruleset, mutation: Mutation, data: Mapping[str, Any], options: Mapping[str, Any],
                 expect: Mapping[str, Any], seed: int, kind: str = "score") -> dict[str, Any]:
    """A hand (a score case's input, or a procedure case's deal and events) that tells the mutant from the spec,
    as a case: `expect` the reference engine's result (or the reference table's)."""
    slug = re.sub(r"[^a-z0-9]+", "-", mutation.id.lower()).strip("-")
    covers = sorted({f"{ruleset.id}.{r}" for r in mutation.rules if r in ruleset.rules})
    return {"id": f"{ruleset.id}-kills-{slug}"[:256], "ruleset": ruleset.id, "options": dict(options),
            "kind": kind, "input": dict(data), "expect": dict(expect), "covers": covers,
            "origin": f"mjcheck corpus strength, seed {seed}",
            "note": f"kills the mutant {mutation.id}: {mutation.words}"}
