"""Corpus strength: how many wrong engines a corpus of score and procedure cases would let through, and which.

Each ruleset the corpora hold score cases for is mutated one step at a time (`checker.mutate.catalog`: fan and
hua points, caps, exclusions and implied links dropped and added, the minimum, base, shares, 承包 and 包 numbers,
option defaults, counters ignored). Every score case with an `expect` that the reference engine passes is run
under each mutant, through the reference engine only (`checker.mutate.Rescorer`): a mutant is **killed** when
some case's result under it no longer `matches` the case's `expect` (the first killing case is kept; cases that
count a pattern the mutant touches are tried first). A mutant no case kills is a **survivor**, and the search
looks for a hand that tells it from the spec: seeded candidate hands of the corpus generator
(`checker.mutate.candidates`: its targeted constructions, then `POOL_HANDS` random hands under its themes),
each scored by the reference engine under the spec and under the mutant, under the default options (and under
the reading that makes the mutant's pattern or 包 apply, where one is needed). The first hand whose results
differ is written as a case in the case format, `expect` the reference engine's result: *a case that kills
it*. When no hand differs the survivor is *not separated*, with the verdict "not separated within the budget"
and the number of hands searched: a sample, never a proof; it is never called equivalent (that word is kept for
a survivor proved to change no result a case can see, checker.corpus.equivalence), and it stays in the kill
rate's denominator.

A mutant whose edited spec does not bind (`checker.mutate.catalog.binding_problem`), or under which the engine
cannot score a case, is dropped and counted `unbound`. `sample` takes that many mutants per ruleset, drawn by the
seed, the families taken in turn. The same corpora, seed and sample give the same report, byte for byte, as long
as the search finishes within `budget` seconds (the report says when it did not: then the survivors not yet
searched are "not separated within the budget" with 0 hands searched).

Procedure cases (`kind: procedure`) are measured alike against the ruleset's procedure mutants
(`checker.mutate.procedure`, judged by `checker.corpus.procedure_strength` through the reference table): killed,
`unbound`, `not observable` (no procedure case's result can show the change, said why), or a survivor, searched
for a hand of play that tells it from the spec (`checker.corpus.procedure_search`: the corpus's own cases under
other readings and headers, hand-written scenes, bot-played hands and single changes of each, at most
`PROCEDURE_TRIALS` candidates a mutant, a count and not a time, so the same seed finds the same case): `separated`
with the case found, or `not separated within the budget`. Their families are rows of the same table; `sample`
draws that many procedure mutants per ruleset besides, by the seed.
"""
from __future__ import annotations

import random
import re
import time
from dataclasses import dataclass, field, replace
from itertools import combinations
from pathlib import Path
from typing import Any, Callable, Collection, Iterable, Mapping, Sequence

from checker.case import INCOMPLETE, CaseError, CaseRunner, matches, read_cases, readings_of
from checker.mutate.candidates import random_candidates, search_candidates, targeted_candidates
from checker.corpus.equivalence import differing_readings, proof
from checker.corpus.procedure_search import Separation, separate
from checker.corpus.procedure_strength import judge, readings as table_readings, reference_problems, table_options
from checker.inputs import InputError, json_text, open_input
from checker.mutate.catalog import FAMILIES, binding_problem, scoring_mutations
from checker.mutate.mutation import Mutation, Rescorer
from checker.mutate.procedure import FAMILIES as PROCEDURE_FAMILIES, is_procedure, procedure_mutations
from checker.spec import OptionRef, Ruleset, options_text
from checker.spec.bind import bind

POOL_HANDS = 3000  # random candidate hands per ruleset searched for a case that kills a survivor
SEARCH_READINGS = 3  # readings searched where a mutant binds as the spec does under the defaults
PROCEDURE_TRIALS = 20_000  # candidates (whole cases and screened changes) searched per procedure survivor
DEFAULT_BUDGET = 300.0  # seconds the search for killing cases and the proofs that read hands may take in all
CHECK_EVERY = 50  # hands searched between looks at the clock
RENEW_EVERY = 20  # mutants one Rescorer scores before a fresh one (it keeps each mutant's scorer and its caches)

KILLED = "killed"
SEPARATED = "separated"  # a survivor: no case of the corpora kills it, a hand the search found does
UNSEARCHED_STATUS = INCOMPLETE  # the exit status of a measure the budget left incomplete
NOT_SEPARATED = "not separated"  # a survivor no hand searched tells from the spec (not known to be equivalent)
EQUIVALENT = "equivalent"  # a survivor proved to change no result a case can see (checker.corpus.equivalence)
UNBOUND = "unbound"
NOT_OBSERVABLE = "not observable"  # a procedure mutant no case kills, whose change no procedure case's result shows
STATUSES = (KILLED, SEPARATED, NOT_SEPARATED, EQUIVALENT, NOT_OBSERVABLE, UNBOUND)
SCORING_FAILURES = (ValueError, KeyError, TypeError, AttributeError, ArithmeticError, IndexError)

Progress = Callable[[int, int], None]  # (mutants judged, mutants in all)


@dataclass(frozen=True)
class CaseRef:
    """A case of the corpora and where it is: the corpus as named, its line."""

    corpus: str
    line: int
    case: Mapping[str, Any]

    @property
    def id(self) -> str | None:
        return self.case.get("id")

    def where(self) -> dict[str, Any]:
        return {"corpus": self.corpus, "line": self.line, "id": self.id}


@dataclass(frozen=True)
class CorpusRead:
    """What one corpus held: its lines that are cases, the score and procedure cases with `expect` kept, the
    others skipped."""

    path: str
    cases: int
    kept: int
    skipped: Mapping[str, int]
    procedure_kept: int = 0

    def as_json(self) -> dict[str, Any]:
        return {"path": self.path, "cases": self.cases, "score_cases": self.kept,
                "procedure_cases": self.procedure_kept, "skipped": dict(self.skipped)}


@dataclass(frozen=True)
class MutantResult:
    """What became of one mutant."""

    mutation: Mutation
    status: str
    killed_by: CaseRef | None = None
    killing_case: Mapping[str, Any] | None = None  # a survivor's, found by the search
    mutant_result: Mapping[str, Any] | None = None  # the killing case's result under the mutant
    searched: int = 0  # hands the search scored under the mutant (a procedure mutant: candidates it ran)
    found_as: str = ""  # how the search made a procedure mutant's killing case
    readings: tuple[Mapping[str, Any], ...] = ()  # the option sets the search used
    reason: str = ""  # why it is unbound, or why no procedure case can observe it
    cut: bool = False  # a survivor whose search the budget stopped before its end (not separated: unsearched)

    def as_json(self) -> dict[str, Any]:
        m = self.mutation
        out: dict[str, Any] = {"id": m.id, "family": m.family, "words": m.words, "rules": list(m.rules),
                               "status": self.status}
        if self.status == KILLED and self.killed_by is not None:
            out["killed_by"] = self.killed_by.where()
        elif self.status in (SEPARATED, NOT_SEPARATED):
            out["searched"] = self.searched
            if self.cut:
                out["cut_short"] = True
            out["readings"] = [dict(r) for r in self.readings]
            out["verdict"] = verdict(self)
            if self.killing_case is not None:
                out["killing_case"] = dict(self.killing_case)
                out["mutant_result"] = dict(self.mutant_result or {})
            if self.found_as:
                out["found_as"] = self.found_as
        elif self.status == EQUIVALENT:
            out["verdict"] = verdict(self)
        elif self.status == NOT_OBSERVABLE:
            out["verdict"] = verdict(self)
        elif self.status == UNBOUND:
            out["reason"] = self.reason
        return out


def verdict(result: MutantResult) -> str:
    if result.status == KILLED:
        return "killed"
    if result.status == SEPARATED:
        return "a case that kills it"
    if result.status == NOT_SEPARATED:
        return "not separated within the budget"
    if result.status == EQUIVALENT:
        return result.reason
    if result.status == NOT_OBSERVABLE:
        return f"not observable by a procedure case: {result.reason}"
    return "does not bind"


@dataclass(frozen=True)
class FamilyCount:
    family: str
    counts: Mapping[str, int]

    @property
    def mutants(self) -> int:
        return sum(self.counts.values())

    @property
    def kill_rate(self) -> float | None:
        """Killed among the mutants that bind, that a case could observe and not proved equivalent (None: none)."""
        bound = self.mutants - self.counts.get(UNBOUND, 0) - self.counts.get(NOT_OBSERVABLE, 0) - \
            self.counts.get(EQUIVALENT, 0)
        return self.counts.get(KILLED, 0) / bound if bound else None

    def as_json(self) -> dict[str, Any]:
        rate = self.kill_rate
        return {"family": self.family, "mutants": self.mutants,
                **{status.replace(" ", "_"): self.counts.get(status, 0) for status in STATUSES},
                "kill_rate": None if rate is None else round(rate, 4)}


@dataclass(frozen=True)
class RulesetStrength:
    """One ruleset's mutants and what became of each, with the cases they were run on."""

    ruleset: str
    cases: int  # score cases with `expect` of this ruleset in the corpora
    left_out: tuple[tuple[CaseRef, str], ...]  # cases the reference engine does not pass, with why
    catalogue: int  # mutants the catalogue made (before a sample)
    results: tuple[MutantResult, ...]
    pool: int  # hands the search could draw on (0: no survivor needed it)
    procedure_cases: int = 0  # procedure cases with `expect` of this ruleset in the corpora
    procedure_left_out: tuple[tuple[CaseRef, str], ...] = ()  # those the reference table does not pass
    procedure_catalogue: int = 0  # procedure mutants the catalogue made (before a sample)

    def families(self) -> list[FamilyCount]:
        counts: dict[str, dict[str, int]] = {}
        for r in self.results:
            counts.setdefault(r.mutation.family, {})
            counts[r.mutation.family][r.status] = counts[r.mutation.family].get(r.status, 0) + 1
        order = {f: i for i, f in enumerate(FAMILIES + PROCEDURE_FAMILIES)}
        return [FamilyCount(f, counts[f]) for f in sorted(counts, key=lambda f: (order.get(f, len(order)), f))]

    def total(self) -> FamilyCount:
        counts: dict[str, int] = {}
        for r in self.results:
            counts[r.status] = counts.get(r.status, 0) + 1
        return FamilyCount("all", counts)

    def as_json(self) -> dict[str, Any]:
        total = self.total().as_json()
        del total["family"]
        return {"ruleset": self.ruleset, "cases": self.cases, "cases_used": self.cases - len(self.left_out),
                "cases_left_out": [{**ref.where(), "reason": why} for ref, why in self.left_out],
                "catalogue": self.catalogue, "pool_hands": self.pool,
                "procedure_cases": self.procedure_cases,
                "procedure_cases_used": self.procedure_cases - len(self.procedure_left_out),
                "procedure_cases_left_out": [{**ref.where(), "reason": why} for ref, why in self.procedure_left_out],
                "procedure_catalogue": self.procedure_catalogue, "totals": total,
                "families": [f.as_json() for f in self.families()],
                "mutants": [r.as_json() for r in self.results]}


@dataclass(frozen=True)
class Strength:
    """The whole report: the corpora read, the settings, and each ruleset's strength."""

    corpora: tuple[CorpusRead, ...]
    seed: int
    sample: int | None
    budget: float
    budget_reached: bool
    rulesets: tuple[RulesetStrength, ...] = field(default_factory=tuple)

    @property
    def status(self) -> int:
        """1: a survivor that a case found kills; else 3: a survivor the budget left unsearched (or cut short), so
        the measure is not whole; else 0."""
        results = [r for rs in self.rulesets for r in rs.results]
        if any(r.status == SEPARATED for r in results):
            return 1
        return UNSEARCHED_STATUS if self.unsearched() else 0

    def unsearched(self) -> int:
        """Survivors whose search the budget stopped before its end."""
        return sum(1 for rs in self.rulesets for r in rs.results if r.cut)

    def as_json(self) -> dict[str, Any]:
        return {"strength": 1, "seed": self.seed, "sample": self.sample, "budget": self.budget,
                "budget_reached": self.budget_reached, "corpora": [c.as_json() for c in self.corpora],
                "rulesets": [r.as_json() for r in self.rulesets]}


class StrengthError(ValueError):
    """Input corpus strength cannot take: nothing to measure, or a ruleset asked for that no case names."""


# ----------------------------------------------------------------------------- reading the corpora

def read_corpora(paths: Sequence[str | Path], ruleset: str | None = None, runner: CaseRunner | None = None
                 ) -> tuple[list[CorpusRead], dict[str, list[CaseRef]], dict[str, list[CaseRef]]]:
    """The score cases and the procedure cases with `expect` of each corpus, each by ruleset (of `ruleset` only,
    when given). A line that is not a case, or a case naming a ruleset that cannot be loaded, is InputError naming
    the corpus and line."""
    runner = runner or CaseRunner()
    read: list[CorpusRead] = []
    by_kind: dict[str, dict[str, list[CaseRef]]] = {"score": {}, "procedure": {}}
    for path in paths:
        label = str(path)
        skipped: dict[str, int] = {}
        cases = 0
        kept = {"score": 0, "procedure": 0}
        with open_input(label, "corpus") as stream:
            for line in read_cases(stream, label, as_written=False):
                if line.case is None:
                    raise InputError("read", label, line.error or "not a case", line.line, "corpus")
                cases += 1
                case = line.case
                kind = case.get("kind", "score")
                why = "another kind of case" if kind not in by_kind else \
                    "no expect" if "expect" not in case else \
                    "another ruleset" if ruleset is not None and case.get("ruleset") != ruleset else ""
                if why:
                    skipped[why] = skipped.get(why, 0) + 1
                    continue
                try:
                    runner.ruleset(case["ruleset"])
                except CaseError as exc:
                    raise InputError("read", label, str(exc), line.line, "corpus") from None
                kept[kind] += 1
                by_kind[kind].setdefault(case["ruleset"], []).append(CaseRef(label, line.line, case))
        read.append(CorpusRead(label, cases, kept["score"], dict(sorted(skipped.items())), kept["procedure"]))
    return read, by_kind["score"], by_kind["procedure"]


# ----------------------------------------------------------------------------- the search pool

def _plain(result: Mapping[str, Any]) -> dict[str, Any]:
    """A result as a case's `expect` holds it: a refusal without its message."""
    if result.get("valid") is False and "error" in result:
        return {"valid": False, "error": result["error"]}
    return dict(result)


def _fan_ids(result: Any) -> frozenset[str]:
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
    if _patterns(mutation) & _fan_ids(result):
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
    target never applies (a pattern active under one reading only; 包 when an option decides whether it applies;
    each other reading of an option a mutated scoring step reads, such as whether a direct settlement is final)."""
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
        found += _liable_readings(ruleset)[:1]
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


def _proved(ruleset: Ruleset, mutation: Mutation, clock: Clock) -> str | None:
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


def _kill(mutation: Mutation, cases: Sequence[CaseRef], expected_fans: Sequence[frozenset[str]],
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


def _search(mutation: Mutation, pool: Pool, rescorer: Rescorer, clock: Clock,
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


# ----------------------------------------------------------------------------- the whole measure

def _sampled(mutations: Sequence[Mutation], sample: int | None, rng: random.Random) -> list[Mutation]:
    """`sample` of the mutations, the families taken in turn, each shuffled by `rng`; in catalogue order."""
    if sample is None or sample >= len(mutations):
        return list(mutations)
    by_family: dict[str, list[int]] = {}
    for i, m in enumerate(mutations):
        by_family.setdefault(m.family, []).append(i)
    for indices in by_family.values():
        rng.shuffle(indices)
    chosen: list[int] = []
    while len(chosen) < sample:
        for family in list(by_family):
            if by_family[family] and len(chosen) < sample:
                chosen.append(by_family[family].pop())
    return [mutations[i] for i in sorted(chosen)]


def _together(cases: Iterable[CaseRef]) -> set[tuple[str, str]]:
    """Pairs of patterns some case's `expect` counts side by side."""
    pairs: set[tuple[str, str]] = set()
    for ref in cases:
        for reading in readings_of(ref.case["expect"]):
            ids = sorted({str(f.get("id")) for f in (reading.get("fans") or []) if isinstance(f, Mapping)})
            pairs.update(combinations(ids, 2))
    return pairs


def ruleset_strength(ruleset: Ruleset, cases: Sequence[CaseRef], runner: CaseRunner, seed: int,
                     sample: int | None, clock: Clock, pool_size: int = POOL_HANDS,
                     progress: Progress | None = None, only: Collection[str] | None = None) -> RulesetStrength:
    """Every mutant of one ruleset (`only`: those with these ids) judged on its cases (those the reference engine
    passes), survivors searched."""
    reference = Rescorer(runner)
    used: list[CaseRef] = []
    left_out: list[tuple[CaseRef, str]] = []
    for ref in cases:
        got = reference.result(ref.case)
        if got is None:
            left_out.append((ref, "the reference engine cannot run it (an option or input it does not take)"))
        elif not matches(got, ref.case["expect"]):
            left_out.append((ref, "the reference engine's result differs from its expect"))
        else:
            used.append(ref)
    everything = [m for m in scoring_mutations(ruleset, _together(used)) if only is None or m.id in only]
    chosen = _sampled(everything, sample, random.Random(f"strength:{ruleset.id}:{seed}"))
    expected_fans = [_fan_ids(ref.case["expect"]) for ref in used]
    results: list[MutantResult] = []
    survivors: list[int] = []
    rescorer = reference
    for n, m in enumerate(chosen):
        if n % RENEW_EVERY == 0:
            rescorer = Rescorer(runner)
        problem = binding_problem(ruleset, m)
        if problem is not None:
            results.append(MutantResult(m, UNBOUND, reason=problem))
        else:
            try:
                killer = _kill(m, used, expected_fans, rescorer)
            except SCORING_FAILURES as exc:
                results.append(MutantResult(m, UNBOUND, reason=f"scoring under it fails: {type(exc).__name__}: {exc}"))
            else:
                results.append(MutantResult(m, KILLED, killed_by=killer) if killer is not None else
                               MutantResult(m, NOT_SEPARATED))
                if killer is None:
                    survivors.append(n)
        if progress is not None:
            progress(n + 1, len(chosen) + len(survivors))
    pool: Pool | None = None
    for k, n in enumerate(survivors):
        if pool is None and not clock.out():
            pool = Pool(ruleset, seed, pool_size, runner)
        if k % RENEW_EVERY == 0:
            rescorer = Rescorer(runner)
        m = chosen[n]
        why = _proved(ruleset, m, clock)
        if why is not None:
            results[n] = MutantResult(m, EQUIVALENT, reason=why)
            if progress is not None:
                progress(len(chosen) + k + 1, len(chosen) + len(survivors))
            continue
        try:
            results[n] = _search(m, pool, rescorer, clock, seed) if pool is not None else \
                MutantResult(m, NOT_SEPARATED, readings=tuple(search_readings(ruleset, m)), cut=True)  # budget spent
        except SCORING_FAILURES as exc:
            results[n] = MutantResult(m, UNBOUND, reason=f"scoring under it fails: {type(exc).__name__}: {exc}")
        if progress is not None:
            progress(len(chosen) + k + 1, len(chosen) + len(survivors))
    return RulesetStrength(ruleset.id, len(cases), tuple(left_out), len(everything), tuple(results),
                           len(pool.inputs) if pool is not None else 0)


def procedure_strength(ruleset: Ruleset, cases: Sequence[CaseRef], runner: CaseRunner, seed: int,
                       sample: int | None, clock: Clock, progress: Progress | None = None,
                       only: Collection[str] | None = None, trials: int = PROCEDURE_TRIALS
                       ) -> tuple[list[MutantResult], list[tuple[CaseRef, str]], int]:
    """Every procedure mutant of one ruleset (`only`: those with these ids; `sample`: that many, drawn by the seed
    as the scoring mutants are) judged on its procedure cases that the reference table passes
    (`checker.corpus.procedure_strength`), each survivor searched for a hand of play that kills it (at most
    `trials` candidates, while the clock has time): the results, the cases left out with why, and the
    catalogue's size."""
    problems = reference_problems([ref.case for ref in cases], runner)
    used = [ref for ref, why in zip(cases, problems) if not why]
    left_out = [(ref, why) for ref, why in zip(cases, problems) if why]
    options = table_options(ruleset)
    everything = [m for m in procedure_mutations(ruleset, options) if only is None or m.id in only]
    chosen = _sampled(everything, sample, random.Random(f"strength-procedure:{ruleset.id}:{seed}"))
    under = tuple(table_readings(ruleset, options))
    results = []
    for n, m in enumerate(chosen):
        judged = judge(ruleset, m, [ref.case for ref in used], options)
        if judged.unbound:
            results.append(MutantResult(m, UNBOUND, reason=judged.unbound))
        elif judged.killer is not None:
            results.append(MutantResult(m, KILLED, killed_by=used[judged.killer]))
        elif judged.unseen:
            results.append(MutantResult(m, NOT_OBSERVABLE, reason=judged.unseen))
        elif clock.out():
            results.append(MutantResult(m, NOT_SEPARATED, readings=under, cut=True))  # the budget is spent
        else:
            clock.start()
            found = separate(ruleset, m, under, [ref.case for ref in used], seed, trials, runner)
            clock.stop()
            results.append(MutantResult(m, NOT_SEPARATED, searched=found.tried, readings=under)
                           if not isinstance(found, Separation) else
                           MutantResult(m, SEPARATED, killing_case=killing_case(ruleset, m, found.case["input"],
                                                                found.case.get("options") or {},
                                                                found.case["expect"], seed, "procedure"),
                                        mutant_result=found.mutant_result, searched=found.tried, readings=under,
                                        found_as=found.made))
        if progress is not None:
            progress(n + 1, len(chosen))
    return results, left_out, len(everything)


def corpus_strength(corpora: Sequence[str | Path], ruleset: str | None = None, seed: int = 0,
                    sample: int | None = None, budget: float = DEFAULT_BUDGET, pool_size: int = POOL_HANDS,
                    runner: CaseRunner | None = None, progress: Callable[[str, int, int], None] | None = None,
                    only: Collection[str] | None = None) -> Strength:
    """The strength of the corpora's score cases against every one-step scoring mutant, and of their procedure
    cases against every one-step procedure mutant, of each ruleset they hold cases for (`ruleset`: that one only;
    `only`: the mutants with these ids only). InputError for a corpus that cannot be read; StrengthError when
    there is nothing to measure."""
    if sample is not None and sample < 1:
        raise StrengthError(f"sample must be at least 1, not {sample}")
    if budget < 0:
        raise StrengthError(f"budget must be 0 seconds or more, not {budget}")
    runner = runner or CaseRunner()
    read, by_ruleset, played = read_corpora(corpora, ruleset, runner)
    if not by_ruleset and not played:
        what = f"of ruleset {ruleset!r} " if ruleset is not None else ""
        raise StrengthError(f"the corpora hold no score or procedure case {what}with an expect: nothing to measure")
    clock = Clock(budget)
    measured = []
    wanted = None if only is None else frozenset(only)
    for rid in sorted(set(by_ruleset) | set(played)):
        report = None if progress is None else (lambda done, total, rid=rid: progress(rid, done, total))
        measure = ruleset_strength(runner.ruleset(rid), by_ruleset[rid], runner, seed, sample, clock, pool_size,
                                   report, wanted) if rid in by_ruleset else RulesetStrength(rid, 0, (), 0, (), 0)
        if rid in played:
            report = None if progress is None else \
                (lambda done, total, rid=rid: progress(f"{rid} (procedure)", done, total))
            results, left_out, catalogue = procedure_strength(runner.ruleset(rid), played[rid], runner, seed,
                                                              sample, clock, report, wanted)
            measure = replace(measure, results=measure.results + tuple(results), procedure_cases=len(played[rid]),
                              procedure_left_out=tuple(left_out), procedure_catalogue=catalogue)
        measured.append(measure)
    return Strength(tuple(read), seed, sample, budget, clock.reached, tuple(measured))


# ----------------------------------------------------------------------------- Markdown

def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def _rate(rate: float | None) -> str:
    return "–" if rate is None else f"{100 * rate:.0f}%"


def _difference(expect: Mapping[str, Any], got: Mapping[str, Any]) -> str:
    """What the spec and the mutant give for a killing case, in a few words."""
    def said(result: Mapping[str, Any]) -> str:
        first = readings_of(result)[0] if readings_of(result) else {}
        if first.get("valid") is False:
            return f"refused ({first.get('error')})"
        parts = [f"total {first['total']}"] if "total" in first else []
        if "payments" in first:
            parts.append("payments " + "/".join(f"{p:+d}" if isinstance(p, int) else str(p)
                                                  for p in first["payments"]))
        return ", ".join(parts) or "a win"

    spec_fans, mutant_fans = _fan_ids(expect), _fan_ids(got)
    fans = [f"+{f}" for f in sorted(mutant_fans - spec_fans)] + [f"-{f}" for f in sorted(spec_fans - mutant_fans)]
    refused = any(r.get("valid") is False for r in readings_of(expect) + readings_of(got))
    return f"The spec: {said(expect)}; the mutant: {said(got)}" + \
        (f" (fans {' '.join(fans)})" if fans and not refused else "")


def _procedure_difference(expect: Mapping[str, Any], got: Mapping[str, Any]) -> str:
    """What the spec's table and the mutant's make of a killing hand of play, in a few words."""
    def said(result: Mapping[str, Any]) -> str:
        verdict = result.get("verdict")
        if verdict in ("illegal", "unfinished", "bad input", "error"):
            at = f" at event {result['event']}" if "event" in result else ""
            rule = f" ({result['rule']})" if result.get("rule") else ""
            return f"{verdict}{at}{rule}"
        parts = [f"{verdict}, {result.get('ended')}"]
        if result.get("winners"):
            parts.append("winners " + "/".join(str(w.get("seat")) for w in result["winners"]))
        if result.get("payments"):
            parts.append("payments " + "/".join(f"{p:+d}" for p in result["payments"]))
        for key in ("next_dealer", "next_round_wind", "next_huangfan"):
            if key in result:
                parts.append(f"{key} {result[key]}")
        return ", ".join(parts)

    return f"The spec: {said(expect)}; the mutant: {said(got)}"


def markdown(strength: Strength) -> str:
    """The report as a page: the corpora, then for each ruleset the kill rate by family, each survivor with its
    killing case or verdict, the mutants that do not bind and the cases left out."""
    lines = ["# Corpus strength", ""]
    for c in strength.corpora:
        skipped = ", ".join(f"{n} {why}" for why, n in c.skipped.items())
        played = f" and {c.procedure_kept} procedure cases" if c.procedure_kept else ""
        lines.append(f"- `{c.path}`: {c.cases} cases, {c.kept} score cases{played} with `expect` measured"
                     + (f" (skipped: {skipped})" if skipped else ""))
    any_played = any(rs.procedure_cases for rs in strength.rulesets)
    sample = f"a sample of {strength.sample} mutants per ruleset" + \
        (" (and as many procedure mutants)" if any_played else "") if strength.sample else "every mutant"
    reached = "reached: survivors left unsearched are not separated" if strength.budget_reached else "not reached"
    lines += ["", f"Seed {strength.seed}; {sample}; search budget {strength.budget:g} s ({reached}).", ""]
    cut = strength.unsearched()
    if cut:
        lines += [f"**Not whole**: the budget stopped the search of {cut} survivor(s) before its end (marked "
                  f"*unsearched* below), so they are not known to be equivalent; `--budget "
                  f"{max(2 * strength.budget, strength.budget + 60):g}` or more gives the search more time "
                  f"(exit status 3).", ""]
    for rs in strength.rulesets:
        total = rs.total()
        lines += [f"## {rs.ruleset}", ""]
        procedure = [r for r in rs.results if is_procedure(r.mutation)]
        scored = len(rs.results) - len(procedure)
        if rs.cases:
            run = rs.cases - len(rs.left_out)
            lines += [f"- score cases run: {run}" + (f" ({len(rs.left_out)} left out: the reference engine does not "
                                                     f"pass them; listed below)" if rs.left_out else ""),
                      f"- scoring mutants judged: {scored}" + (f" of the {rs.catalogue} the catalogue makes"
                                                               if scored != rs.catalogue else "")]
        if rs.procedure_cases:
            left = rs.procedure_left_out
            lines += [f"- procedure cases run: {rs.procedure_cases - len(left)}"
                      + (f" ({len(left)} left out: the reference table does not pass them; listed below)" if left
                         else ""),
                      f"- procedure mutants judged: {len(procedure)}"
                      + (f" of the {rs.procedure_catalogue} the catalogue makes"
                         if len(procedure) != rs.procedure_catalogue else "")]
        observable = " and that a case could observe" if rs.procedure_cases else ""
        lines += [f"- killed: {total.counts.get(KILLED, 0)} ({_rate(total.kill_rate)} of those that bind{observable})"]
        lines += [f"- survivors a case kills (found by the search): {total.counts.get(SEPARATED, 0)}",
                  f"- not separated within the budget (not known to be equivalent: a sample, not a proof): "
                  f"{total.counts.get(NOT_SEPARATED, 0)}",
                  f"- proved equivalent: {total.counts.get(EQUIVALENT, 0)}"]
        if rs.procedure_cases:
            lines += [f"- not observable by a procedure case: {total.counts.get(NOT_OBSERVABLE, 0)}"]
        lines += [f"- do not bind: {total.counts.get(UNBOUND, 0)}", ""]
        shown = (KILLED, SEPARATED, NOT_SEPARATED, EQUIVALENT) + ((NOT_OBSERVABLE,) if rs.procedure_cases else ()) + \
            (UNBOUND,)
        heads = {KILLED: "killed", SEPARATED: "survivors with a killing case", NOT_SEPARATED: "not separated",
                 EQUIVALENT: "proved equivalent", NOT_OBSERVABLE: "not observable", UNBOUND: "do not bind"}
        lines += ["| family | mutants | " + " | ".join(heads[k] for k in shown) + " | kill rate |",
                  "|---|---:|" + "---:|" * len(shown) + "---:|"]
        for f in rs.families() + [total]:
            name = f"**{f.family}**" if f is total else f.family
            lines.append(f"| {name} | {f.mutants} | " + " | ".join(str(f.counts.get(k, 0)) for k in shown)
                         + f" | {_rate(f.kill_rate)} |")
        separated = [r for r in rs.results if r.status == SEPARATED]
        if separated:
            lines += ["", "### Survivors a case kills", "",
                      "No case of the corpora kills these; each case below does (add it to the corpus).", ""]
        for r in separated:
            m, case = r.mutation, r.killing_case or {}
            if is_procedure(m):
                said = f"{_procedure_difference(case.get('expect') or {}, r.mutant_result or {})}; found as " \
                       f"{r.found_as}, after {r.searched:,} candidate{'' if r.searched == 1 else 's'}"
            else:
                said = _difference(case.get('expect') or {}, r.mutant_result or {})
            lines += [f"- `{m.id}` ({m.family}): {m.words}. {said}:", "", "  ```json", "  " + json_text(case), "  ```"]
        unseparated = [r for r in rs.results if r.status == NOT_SEPARATED]
        if unseparated:
            lines += ["", "### Not separated within the budget", "",
                      "No case of the corpora kills these, and no hand searched tells them from the spec. They are "
                      "not known to be equivalent (the search is a sample, not a proof) and count against the kill "
                      "rate.", ""]
        for r in unseparated:
            m = r.mutation
            under = " and ".join("the default options" if not o else
                                 options_text(dict(sorted(o.items()))) for o in r.readings)
            what = "candidate cases of play tried" if is_procedure(m) else "hands searched"
            lines.append(f"- `{m.id}` ({m.family}): {m.words}. {r.searched:,} {what}"
                         + (f" under {under}" if under else "")
                         + (" (*unsearched*: the budget stopped its search)" if r.cut else "") + ".")
        proved = [r for r in rs.results if r.status == EQUIVALENT]
        if proved:
            lines += ["", "### Proved equivalent", "",
                      "No case of the corpora kills these, and none can: each proof says over what it holds.", ""]
            lines += [f"- `{r.mutation.id}` ({r.mutation.family}): {r.mutation.words}. {_sentence(r.reason)}."
                      for r in proved]
        unseen = [r for r in rs.results if r.status == NOT_OBSERVABLE]
        if unseen:
            lines += ["", "### Procedure mutants no procedure case can observe", ""]
            lines += [f"- `{r.mutation.id}` ({r.mutation.family}): {r.mutation.words}. {_sentence(verdict(r))}."
                      for r in unseen]
        unbound = [r for r in rs.results if r.status == UNBOUND]
        if unbound:
            lines += ["", "### Mutants that do not bind", ""]
            lines += [f"- `{r.mutation.id}`: {r.reason}" for r in unbound]
        if rs.left_out:
            lines += ["", "### Cases left out", ""]
            lines += [f"- {ref.corpus}:{ref.line} `{ref.id}`: {why}" for ref, why in rs.left_out]
        if rs.procedure_left_out:
            lines += ["", "### Procedure cases left out", ""]
            lines += [f"- {ref.corpus}:{ref.line} `{ref.id}`: {why}" for ref, why in rs.procedure_left_out]
        lines.append("")
    return "\n".join(lines)
