"""A multiplier's saturation: the count past which one more of it changes no outcome under a reading.

荒番 counts up to the counter's declared maximum (99), and the settlement model computes its factor, 2 to that
count, as a chain of 100 cases: the claims over it are where the model's proofs spent most of their time. Where the
reading limits what a payer loses (the single-hand limit), a factor past the limit leaves every positive value at
the limit, so counts past a point change nothing. That point is not assumed: for each multiplier it is proved here
by Z3, under the reading, that a situation counting it more than K times has the same outcome (whether it may win,
each seat's change, each payer's shares) as the same situation counting it K times, K the least count whose
factor alone passes the limit. A claim's model then computes counts past K as K (checker.hunt.arith), over the same
domain: what it proves of the one it proves of the other. A reading with no limit, or whose proof is not reached
within the solver's bound, is left whole.
"""
from __future__ import annotations

from typing import Any

import z3  # type: ignore[import-untyped]

from checker.engine import Scorer
from checker.hunt.bounded import Bounded
from checker.hunt.settle import SettlementModel, limit_of
from checker.hunt.z3context import in_own_context


def candidate(points: int, limit: int) -> int:
    """The least count whose factor (points to that count) alone passes the limit: any positive value times it
    does too."""
    k = 0
    while points ** k <= limit:
        k += 1
    return k


@in_own_context
def saturation(scorer: Scorer, effort: int = 1) -> dict[str, int]:
    """Each multiplier pattern counted over a wider range than its saturation, with the count past which no
    outcome changes under the scorer's reading (proved; see the module's docstring). Empty where the reading
    states no single-hand limit."""
    limit = limit_of(scorer)
    if limit is None:
        return {}
    model = SettlementModel(scorer)
    out = {}
    for b in model.arith.patterns:
        if b.pattern.kind != "multiplier" or b.points < 2:
            continue
        k = candidate(b.points, limit[0])
        if model.arith.top[b.id] <= k:
            continue
        if Bounded(_past(model, b.id, k)).check(effort) == "unsat":
            out[b.id] = k
    return out


def _past(model: SettlementModel, pid: str, k: int) -> Any:
    """A solver for a situation counting `pid` more than k times whose outcome differs from the same situation
    counting it k times: unsatisfiable, counts past k change nothing."""
    at, past, t = model.arith.copy("at."), model.arith.copy("past."), model.table("t.")
    pa, pp = model.paid(at, t), model.paid(past, t)
    solver = z3.Solver()
    solver.add(*model.domain(at, t), *model.domain(past, t), *pa.rules, *pp.rules, at.base == past.base)
    solver.add(*[past.count[other] == count for other, count in at.count.items() if other != pid])
    solver.add(at.count[pid] == k, past.count[pid] > k)
    same = [pa.valid == pp.valid] + [x == y for x, y in zip(pa.changes, pp.changes)] + \
        [x == y for x, y in zip(pa.shares, pp.shares)]
    solver.add(z3.Not(z3.And(same)))
    return solver
