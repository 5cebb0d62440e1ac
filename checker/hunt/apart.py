"""Each claim of the settlement model made in a process of its own.

Z3 keeps state beyond one context (checker.hunt.z3context): a bounded search made after others in the same process
may run out of its bound where alone it does not, so a claim's answer would hang on what ran before it. Here every
claim (checker.hunt.proofs.Task) is made in a fresh process (a pool that never reuses one), forked from a server
that has only imported the modules, so no claim runs after another in its process. Two at a time on the two cores
machines have. That does not make a claim near the solver's bound answer the same in every run: Z3's resource
count for one search differs between processes (checker.hunt.proofs); such a claim says how much of its bound it
used, and is said to be undecided where it is, never answered otherwise.
"""
from __future__ import annotations

from concurrent.futures import Future, ProcessPoolExecutor
from multiprocessing import get_context
from typing import Any

from checker.case import CaseRunner
from checker.engine import load_ruleset
from checker.hunt.examine import hand_pool
from checker.hunt.examples import known_hands
from checker.hunt.proofs import Task, grouped, plan, prove
from checker.hunt.settle import Claim

WORKERS = 2
PROCESS_FAILED = "the process making them failed"


def claims_apart(ruleset_id: str, effort: int, until: float, pairs: bool = True,
                 workers: int = WORKERS) -> list[Claim]:
    """The model's claims of one ruleset in `plan`'s order, each made in a process of its own and cross-examined
    there by the engine, grouped by result. A claim whose process failed is listed as not run, with the error;
    so are all of them when the plan itself cannot be made (a ruleset that does not load)."""
    try:
        tasks = plan(CaseRunner(), load_ruleset(ruleset_id), pairs)
    except Exception as exc:
        return [Claim("settlement-model", "the settlement model's claims", {}, "", "not-run",
                      why=f"{PROCESS_FAILED}: {_reason(exc)}")]
    return made_apart(ruleset_id, tasks, effort, until, workers)


def made_apart(ruleset_id: str, tasks: list[list[Task]], effort: int, until: float,
               workers: int = WORKERS) -> list[Claim]:
    """`tasks` made each in a process of its own, in order, each group grouped by result."""
    context = get_context("forkserver")
    context.set_forkserver_preload([__name__])
    out: list[Claim] = []
    with ProcessPoolExecutor(max_workers=workers, mp_context=context, max_tasks_per_child=1) as apart:
        made = [[apart.submit(_make, ruleset_id, task, effort, until) for task in group] for group in tasks]
        for group, futures in zip(tasks, made):
            out += grouped([_result(task, future) for task, future in zip(group, futures)])
    return out


def _make(ruleset_id: str, task: Task, effort: int, until: float) -> Claim:
    """One claim, in the process it has to itself: the ruleset loaded, the engine's hands gathered, then the claim."""
    ruleset = load_ruleset(ruleset_id)
    return prove(CaseRunner(), ruleset, task, effort, until, hand_pool(ruleset, known_hands(ruleset)))


def _result(task: Task, future: Future[Claim]) -> Claim:
    try:
        return future.result()
    except Exception as exc:  # the process failed or died (BrokenProcessPool): the claim says so, the hunt goes on
        return Claim(task.key, task.words, dict(task.options), "", "not-run",
                     why=f"{PROCESS_FAILED}: {_reason(exc)}")


def _reason(exc: BaseException) -> str:
    return " ".join(f"{type(exc).__name__}: {exc}".split())[:300]


def failed(proved: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The claims (as dicts) whose process failed."""
    return [c for c in proved if c["result"] == "not-run" and c["why"].startswith(PROCESS_FAILED)]
