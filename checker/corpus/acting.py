"""A dropped link proved harmless by reading every hand where it can act.

A mutant that drops an exclusion or an implied link binds otherwise than the spec only in what some patterns
withhold (checker.corpus.binding): the link's holder, and under the non-repeat principle whatever withholds the
holder's implied patterns through it. A withholding acts only on a hand where its pattern is found. When each
such pattern is a combination of sets that declares its cores (every group of sets that makes it hold:
`gate(cores=...)` in checker.engine.predicates), the hands where it can act are the concealed hands holding a
core (checker.space.holding). Each is scored won on each of its tiles, self-drawn and on a discard (as the
sweeps read a hand: checker.space.wins), with the spec and with the mutant, under every reading where the two
bind otherwise. The mutant *meets* the spec on a win when it gives the same verdict and every reading the spec
finds best (its counted fans and their points) is among the mutant's best readings: a case expects one reading,
or `either` of several, and is met by any reading of the result (checker.case.matches), so no case made from the
spec can fail on the mutant. (A mutant that only adds a reading worth as much is, to a case, the spec.)

The proof's domain, which it states: concealed hands without a kong. It is bounded by a count of hands
(`PROOF_HANDS`), never by time, so the same spec proves the same on any machine; the caller's budget may stop
it (then nothing is proved). The hands are shared out over the machine's cores (forked workers that inherit
the scorers).
"""
from __future__ import annotations

import multiprocessing
import os
from collections import deque
from typing import Any, Callable

from checker.corpus.binding import differing_readings, links, unlinked
from checker.engine.scoring import Scorer
from checker.mutate.mutation import Mutation
from checker.space.holding import holding_hands
from checker.space.wins import wins_of
from checker.spec import Ruleset

# the most hands (counted once per reading) one proof may read
PROOF_HANDS = 600_000
CHUNK = 400  # hands a worker reads between two looks at the budget
IN_FLIGHT = 2  # chunks queued a worker at a time (see met_wherever_it_acts)

Work = tuple[Scorer, Scorer, list[tuple[int, ...]]]  # the spec's scorer and the mutant's under one reading, the hands
_WORK: list[Work] = []  # the proof running: set before the workers fork, so they inherit it


def met(spec: tuple, mutant: tuple) -> bool:
    """Whether the mutant's result of a win (`Scorer.fan_totals_of_wins`) meets every expectation the spec's
    result gives a case: the same verdict, and each reading the spec finds best among the mutant's best."""
    if spec[:2] != mutant[:2]:
        return False
    theirs = [mutant[2], *mutant[3]]
    return all(reading in theirs for reading in (spec[2], *spec[3]))


def _chunk_met(task: tuple[int, int, int]) -> bool:
    """Whether the mutant meets the spec on every win of hands start:stop of work item `index`."""
    index, start, stop = task
    spec, mutant, hands = _WORK[index]
    for counts in hands[start:stop]:
        wins = list(wins_of(counts))
        if not all(map(met, spec.fan_totals_of_wins(wins), mutant.fan_totals_of_wins(wins))):
            return False
    return True


def _acting(ruleset: Ruleset, mutation: Mutation, limit: int) -> tuple[list[Work], list[str]] | None:
    """Under each reading where the two bind otherwise: the scorers and the hands where the changed withholding
    can act, with the patterns that withhold otherwise; None when this module cannot prove it (an edit beyond
    the links, a pattern without cores, more hands than `limit`)."""
    edited = mutation.edit(ruleset)
    work: list[Work] = []
    holders: set[str] = set()
    spaces: dict[tuple, list[tuple[int, ...]] | None] = {}
    for reading in differing_readings(ruleset, mutation):
        spec, mutant = Scorer(ruleset, reading), Scorer(edited, reading)
        if unlinked(spec) != unlinked(mutant):
            return None  # the edit reaches more than what the patterns withhold
        mine, theirs = links(spec), links(mutant)
        if mine.keys() != theirs.keys():
            return None
        changed = sorted(pid for pid in mine if mine[pid] != theirs[pid])
        by_id = {b.id: b for b in spec.patterns}
        cores: list[Any] = []
        for pid in changed:
            made = getattr(by_id[pid].decide, "cores", None)
            if made is None:
                return None  # a pattern whose hands this module cannot enumerate
            cores.extend(made())
        key = tuple(sorted(set(cores)))
        if key not in spaces:
            spaces[key] = holding_hands(key, limit)
        hands = spaces[key]
        if hands is None or sum(len(w[2]) for w in work) + len(hands) > limit:
            return None
        holders.update(changed)
        work.append((spec, mutant, hands))
    return (work, sorted(holders)) if work else None


def met_wherever_it_acts(ruleset: Ruleset, mutation: Mutation, out: Callable[[], bool] | None = None,
                         limit: int = PROOF_HANDS, processes: int | None = None) -> str | None:
    """Why no case can tell a dropped link's mutant from the spec, over the hands where the link can act (see
    the module's docstring); None when it is not proved: this module cannot enumerate those hands, a win is
    scored otherwise (a case there may kill the mutant), or `out()` said the budget was spent."""
    acting = _acting(ruleset, mutation, limit)
    if acting is None or (out is not None and out()):
        return None
    work, holders = acting
    tasks = [(i, start, start + CHUNK) for i, (_, _, hands) in enumerate(work) for start in range(0, len(hands), CHUNK)]
    processes = processes or min(os.cpu_count() or 1, len(tasks))
    _WORK[:] = work
    try:
        if processes > 1 and "fork" in multiprocessing.get_all_start_methods():
            with multiprocessing.get_context("fork").Pool(processes) as pool:
                # a few chunks in flight, not every chunk queued; on a chunk not met (or the budget spent) no more
                # are given, those in flight are awaited and the pool is closed and joined before the block ends:
                # a pool stopped with its task feeder busy has waited minutes for it to end (`terminate`)
                waiting: deque[Any] = deque()
                left = iter(tasks)
                met = True
                while True:
                    while met and len(waiting) < IN_FLIGHT * processes and (task := next(left, None)) is not None:
                        waiting.append(pool.apply_async(_chunk_met, (task,)))
                    if not waiting:
                        break
                    if not waiting.popleft().get() or (out is not None and out()):
                        met = False
                pool.close()
                pool.join()
                if not met:
                    return None
        else:
            for task in tasks:
                if not _chunk_met(task) or (out is not None and out()):
                    return None
    finally:
        _WORK[:] = []
    hands = len(set().union(*(hands for _, _, hands in work)))
    verb = "withholds" if len(holders) == 1 else "withhold"
    return (f"equivalent over every concealed hand without a kong: the mutant withholds otherwise only in what "
            f"{', '.join(holders)} {verb}, and every hand where that can act (a division holding "
            f"{' or '.join(holders)}: {hands:,} hands, each under the {len(work)} reading(s) of the options where the "
            f"two bind otherwise), won on each of its tiles self-drawn and on a discard, meets under the mutant "
            f"whatever the spec expects of it (the same verdict, and each best reading of the spec among the "
            f"mutant's); melded hands and kongs are outside it")
