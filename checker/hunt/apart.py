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

import threading
from concurrent.futures import Future, ProcessPoolExecutor
from multiprocessing import get_context
from typing import Any, Callable

from checker.case import CaseRunner
from checker.engine import load_ruleset
from checker.hunt.examine import hand_pool
from checker.hunt.examples import known_hands
from checker.hunt.proofs import Task, grouped, key, plan, prove, readings_of, saturate
from checker.hunt.saturation import saturation
from checker.hunt.settle import Claim

WORKERS = 2
PROCESS_FAILED = "the process making them failed"


class Apart:
    """A pool that makes claims each in a process of its own, two at a time, while its caller goes on with other
    work (the hunt's searches and pairs of readings run in the main process meanwhile). Use it as a context
    manager: leaving it waits for the claims still running and closes the pool."""

    def __init__(self, workers: int = WORKERS):
        context = get_context("forkserver")
        context.set_forkserver_preload([__name__])
        self._pool = ProcessPoolExecutor(max_workers=workers, mp_context=context, max_tasks_per_child=1)
        self._threads: list[threading.Thread] = []

    def __enter__(self) -> "Apart":
        return self

    def __exit__(self, *exc: Any) -> None:
        for thread in self._threads:  # every claim submitted before the pool closes
            thread.join()
        self._pool.shutdown(wait=True, cancel_futures=exc[0] is not None)

    def claims(self, ruleset_id: str, effort: int, until: float, pairs: bool = True) -> Callable[[], list[Claim]]:
        """Start making the claims of one ruleset (`plan`'s order); the function returned waits for them and
        gives them grouped by result. A claim whose process failed is listed as not run, with the error; so are
        all of them when the plan itself cannot be made (a ruleset that does not load)."""
        try:
            tasks = plan(CaseRunner(), load_ruleset(ruleset_id), pairs)
        except Exception as exc:
            failed = [Claim("settlement-model", "the settlement model's claims", {}, "", "not-run",
                            why=f"{PROCESS_FAILED}: {_reason(exc)}")]
            return lambda: failed
        return self.made(ruleset_id, tasks, effort, until)

    def made(self, ruleset_id: str, tasks: list[list[Task]], effort: int, until: float) -> Callable[[], list[Claim]]:
        """Start making `tasks`, each in a process of its own, the interactions first, once the saturation of
        each reading they model is proved (checker.hunt.saturation; one process a reading, submitted first); the
        function returned waits for them and gives each group, in `tasks`' order, grouped by result. A thread of
        this process waits for the saturations and submits the claims, so the caller goes on meanwhile."""
        lemmas = {key(r): self._pool.submit(_saturation, ruleset_id, r, effort) for r in readings_of(tasks)}
        made: dict[int, list[Future[Claim]]] = {}
        stopped: list[BaseException] = []

        def submit() -> None:
            known = {k: _saturated(future) for k, future in lemmas.items()}
            given = saturate(tasks, known)
            # the interactions first: the longest claims are among them, and started late they would end last
            order = sorted(range(len(given)), key=lambda i: given[i][0].pair is None)
            try:
                for i in order:
                    made[i] = [self._pool.submit(_make, ruleset_id, task, effort, until) for task in given[i]]
            except Exception as exc:  # the pool broke: the claims not submitted are said not made, with why
                stopped.append(exc)

        thread = threading.Thread(target=submit, name=f"claims of {ruleset_id}")
        thread.start()
        self._threads.append(thread)

        def results() -> list[Claim]:
            thread.join()
            out: list[Claim] = []
            for i, group in enumerate(tasks):  # a group the thread could not submit is said not made, not dropped
                futures = made[i] if i in made else [stopped[0] if stopped else None] * len(group)
                out += grouped([_result(task, future) for task, future in zip(group, futures)])
            return out
        return results


def claims_apart(ruleset_id: str, effort: int, until: float, pairs: bool = True,
                 workers: int = WORKERS) -> list[Claim]:
    """The model's claims of one ruleset in `plan`'s order, each made in a process of its own and cross-examined
    there by the engine, grouped by result (Apart.claims, waited for)."""
    with Apart(workers) as apart:
        return apart.claims(ruleset_id, effort, until, pairs)()


def made_apart(ruleset_id: str, tasks: list[list[Task]], effort: int, until: float,
               workers: int = WORKERS) -> list[Claim]:
    """`tasks` made each in a process of its own, in order, each group grouped by result."""
    with Apart(workers) as apart:
        return apart.made(ruleset_id, tasks, effort, until)()


def _make(ruleset_id: str, task: Task, effort: int, until: float) -> Claim:
    """One claim, in the process it has to itself: the ruleset loaded, the engine's hands gathered, then the claim."""
    ruleset = load_ruleset(ruleset_id)
    return prove(CaseRunner(), ruleset, task, effort, until, hand_pool(ruleset, known_hands(ruleset)))


def _saturation(ruleset_id: str, options: dict[str, Any], effort: int) -> dict[str, int]:
    """One reading's saturated multipliers, in the process it has to itself."""
    ruleset = load_ruleset(ruleset_id)
    return saturation(CaseRunner().scorer(ruleset.id, options), effort)


def _saturated(future: Future[dict[str, int]]) -> dict[str, int]:
    """A reading's saturations as proved; none where the process failed (the claims then model it whole)."""
    try:
        return future.result()
    except Exception:
        return {}


def _result(task: Task, future: Future[Claim] | BaseException | None) -> Claim:
    try:
        if future is None:
            raise RuntimeError("the claim was never submitted to a process")
        if isinstance(future, BaseException):
            raise future
        return future.result()
    except Exception as exc:  # the process failed or died (BrokenProcessPool): the claim says so, the hunt goes on
        return Claim(task.key, task.words, dict(task.options), "", "not-run",
                     why=f"{PROCESS_FAILED}: {_reason(exc)}")


def _reason(exc: BaseException) -> str:
    return " ".join(f"{type(exc).__name__}: {exc}".split())[:300]


def failed(proved: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The claims (as dicts) whose process failed."""
    return [c for c in proved if c["result"] == "not-run" and c["why"].startswith(PROCESS_FAILED)]
