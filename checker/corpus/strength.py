"""Corpus strength: how many wrong engines a corpus of score and procedure cases would let through, and which.

Each ruleset the corpora hold score cases for is mutated one step at a time (`checker.mutate.catalog`: fan and
hua points, a pattern counted once where the spec counts each instance, caps, exclusions and implied links dropped
and added, the minimum, base, shares, 承包 and 包 numbers, option defaults, counters ignored). Every score case with an `expect` that the reference engine passes is run
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
for a hand of play that tells it from the spec (`checker.separating.search`: the corpus's own cases under
other readings and headers, hand-written scenes, bot-played hands and single changes of each, at most
`PROCEDURE_TRIALS` candidates a mutant, a count and not a time, so the same seed finds the same case): `separated`
with the case found, or `not separated within the budget`. Their families are rows of the same table; `sample`
draws that many procedure mutants per ruleset besides, by the seed.

The parts: checker.corpus.strength_records (what is recorded), .strength_search (the search for a killing case,
its pool, proofs and clock), .strength_markdown (the report); here, reading the corpora and the whole measure.
"""
from __future__ import annotations

import random
from dataclasses import replace
from itertools import combinations
from pathlib import Path
from typing import Callable, Collection, Iterable, Mapping, Sequence

from checker.case import CaseError, CaseRunner, matches, read_cases, readings_of
from checker.separating.search import Separation, separate
from checker.corpus.procedure_strength import judge, reference_problems, table_options
from checker.corpus.procedure_strength import readings as table_readings
from checker.corpus.strength_records import (EQUIVALENT, KILLED, NOT_OBSERVABLE, NOT_SEPARATED, SCORING_FAILURES,
                                             SEPARATED, UNBOUND, CaseRef, CorpusRead, MutantResult, Progress,
                                             RulesetStrength, Strength, StrengthError)
from checker.corpus.strength_search import (POOL_HANDS, PROCEDURE_TRIALS, Clock, Pool, fan_ids, kill, killing_case,
                                            proved, search_pool, search_readings)
from checker.inputs import InputError, open_input
from checker.mutate.catalog import binding_problem, scoring_mutations
from checker.mutate.mutation import Mutation, Rescorer
from checker.mutate.procedure import procedure_mutations
from checker.spec import Ruleset

DEFAULT_BUDGET = 300.0  # seconds the search for killing cases and the proofs that read hands may take in all
RENEW_EVERY = 20  # mutants one Rescorer scores before a fresh one (it keeps each mutant's scorer and its caches)


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
    expected_fans = [fan_ids(ref.case["expect"]) for ref in used]
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
                killer = kill(m, used, expected_fans, rescorer)
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
        why = proved(ruleset, m, clock)
        if why is not None:
            results[n] = MutantResult(m, EQUIVALENT, reason=why)
            if progress is not None:
                progress(len(chosen) + k + 1, len(chosen) + len(survivors))
            continue
        try:
            results[n] = search_pool(m, pool, rescorer, clock, seed) if pool is not None else \
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
