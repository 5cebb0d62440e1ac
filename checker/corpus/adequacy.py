"""Closing a corpus's gaps: a case for every one-step scoring or procedure mutant its cases let through.

`mjcheck corpus generate` measures its own cases the way `mjcheck corpus strength` does
(`checker.corpus.strength.ruleset_strength`: every mutant of `checker.mutate.catalog`, run through the reference
engine only) and adds, for each survivor the search separates from the spec, the case that kills it (`expect`:
the reference engine's result). A survivor no hand of the search tells from the spec is left as it is (counted
equivalent within the search, never proved). The search is bounded by its pool of hands, not by the clock, so the
same seed gives the same cases.

A procedure corpus is closed alike (`procedure_killing_cases`): each procedure survivor the search of
`checker.separating.search` separates gets the hand of play found (`expect`: the reference table's
result, with what the next hand starts from), unless a case added before it already kills it. Among them are the
cases without `options` that tell each table option's default from its other readings (the `option default`
mutants).
"""
from __future__ import annotations

import json
from typing import Any, Mapping, Sequence

from checker.case import CaseRunner, matches
from checker.corpus.procedure_strength import judge, table_options
from checker.corpus.strength import procedure_strength, ruleset_strength
from checker.corpus.strength_records import NOT_SEPARATED, SEPARATED, CaseRef, MutantResult
from checker.corpus.strength_search import POOL_HANDS, Clock
from checker.mutate.mutation import Rescorer
from checker.spec import Ruleset

POOL = POOL_HANDS  # random candidate hands searched for a case that kills each survivor (as corpus strength does)
ROUNDS = 4  # measures of the corpus with the cases added so far (each can bring new pairs, so new mutants)


def killing_cases(ruleset: Ruleset, cases: Sequence[Mapping[str, Any]], runner: CaseRunner, seed: int,
                  origin: str) -> tuple[list[dict[str, Any]], list[MutantResult]]:
    """Cases that kill the scoring mutants `cases` let through, one per survivor not killed by an earlier one of
    them, in catalogue order; and the survivors that stay (no hand searched separates them, none proved
    equivalent). The cases added bring pairs of fans counted side by side, so the catalogue (whose added links
    come from such pairs) grows: it is measured again with them, up to ROUNDS times, until nothing is added."""
    added: list[dict[str, Any]] = []
    seen: set[str] = set()
    staying: list[MutantResult] = []
    rescorer = Rescorer(runner)
    for _ in range(ROUNDS):
        refs = [CaseRef("generated", i + 1, case) for i, case in enumerate([*cases, *added])
                if case.get("kind") == "score" and isinstance(case.get("expect"), Mapping)]
        measured = ruleset_strength(ruleset, refs, runner, seed, None, Clock(float("inf")), POOL)
        staying = [r for r in measured.results if r.status == NOT_SEPARATED]
        new: list[dict[str, Any]] = []
        for result in measured.results:
            if result.status != SEPARATED or result.killing_case is None:
                continue
            if any(_kills(rescorer, result, case) for case in new):
                continue
            case = {**result.killing_case, "origin": origin}
            same = json.dumps([case["options"], case["input"]], sort_keys=True)
            if same not in seen:
                seen.add(same)
                new.append(case)
        if not new:
            break
        added += new
    return added, staying


def _kills(rescorer: Rescorer, result: MutantResult, case: Mapping[str, Any]) -> bool:
    """Whether `case` (whose expect is the spec's result) already tells the mutant from the spec."""
    got = rescorer.result(case, result.mutation)
    return got is not None and not matches(got, case["expect"])


def procedure_killing_cases(ruleset: Ruleset, cases: Sequence[Mapping[str, Any]], runner: CaseRunner, seed: int,
                            origin: str) -> tuple[list[dict[str, Any]], list[MutantResult]]:
    """Hands of play that kill the procedure mutants `cases` let through, one per survivor not killed by an
    earlier one of them, in catalogue order; and the survivors that stay (no candidate searched separates them)."""
    refs = [CaseRef("generated", i + 1, case) for i, case in enumerate(cases)
            if case.get("kind") == "procedure" and isinstance(case.get("expect"), Mapping)]
    results, _, _ = procedure_strength(ruleset, refs, runner, seed, None, Clock(float("inf")))
    options = table_options(ruleset)
    added: list[dict[str, Any]] = []
    staying: list[MutantResult] = []
    for result in results:
        if result.status == NOT_SEPARATED:
            staying.append(result)
        if result.status != SEPARATED or result.killing_case is None:
            continue
        if added and judge(ruleset, result.mutation, added, options).killer is not None:
            continue
        added.append({**result.killing_case, "origin": f"{origin}: {result.found_as}"})
    return added, staying
