"""A Z3 search bounded by Z3's resource count (`rlimit`), not by time, in a context of its own, and the witness of a
satisfiable one made small.

That count is not wholly the same from run to run: the same search has been measured at 57 to 108 million units
in different processes (it follows the process's memory layout, which Python's string hashing moves), so a search
decided with much of its bound used may be left undecided by another run, and the reverse: each records the share
of its bound it used (`used`).
"""
from __future__ import annotations

from typing import Any, Sequence

import z3  # type: ignore[import-untyped]

RLIMIT = 100_000_000  # Z3 resource units one claim may use at effort 1 (each later effort so many times as many)
RETRIES = 3  # seeded searches a claim gets before it is left undecided
SMALLER_SHARE = 20  # a step making a witness smaller gets this part of it (past it, the witness found is kept)
GLANCE_SHARE = 5  # a search at a glance gets this part of it


class Bounded:
    """A solver's assertions searched in a Z3 context of their own. Z3's search, and so what one resource bound
    decides and which of several equally small witnesses it shows, depends on every term the process made before;
    in a context of its own it depends on far less (not on nothing: see checker.hunt.z3context). The copy is made
    once: the check and the witness's shrinking share it."""

    def __init__(self, solver: Any):
        self.solver = solver
        self.ctx = z3.Context()
        self.fresh = z3.Solver(ctx=self.ctx)
        self.fresh.add(solver.assertions().translate(self.ctx))
        self.answer = ""
        self.used = 0.0  # the share of its resource bound the search used (1: one ran out, a reseeded one decided)

    def check(self, effort: int) -> str:
        """sat, unsat or unknown (the resource bound ran out on each of RETRIES seeded searches)."""
        before = _spent(self.fresh)
        self.answer = _check(self.fresh, effort)
        self.used = min(1.0, (_spent(self.fresh) - before) / (RLIMIT * effort))
        return self.answer

    def glance(self, effort: int) -> str:
        """sat, unsat or unknown after one search with a share of the bound (GLANCE_SHARE): what is
        decided at a glance (a refutation Z3 finds at once) needs nothing more; `used` is that search's share of
        the whole bound."""
        before = _spent(self.fresh)
        self.fresh.set("rlimit", RLIMIT * effort // GLANCE_SHARE)
        self.answer = str(self.fresh.check())
        self.used = min(1.0, (_spent(self.fresh) - before) / (RLIMIT * effort))
        return self.answer

    def shrunk(self, effort: int, groups: list[list[tuple[Any, Any]]], fixed: Sequence[Any] = (),
               thorough: bool = True) -> Any:
        """A model of the satisfiable solver made small one step at a time: `groups` are the situation's inputs,
        most important first, each (variable, the value it shrinks toward: a count's 0, a flag's False, -1 for no
        底分 counter), `fixed` the inputs kept as found (a way of winning, a seat). Each step sets one input
        toward its floor (to it, then by halves, then by one) and keeps the step where the claim still fails;
        with every input pinned each check is a computation, not a search, so the witness costs little and is the
        same in every run: small, one step from nothing smaller, not proved smallest. Not `thorough`: each input
        tried at its floor once, no more (a witness that only has to exist, at half the checks). The witness it
        settles on is pinned in the solver's own terms, whose model is returned."""
        fresh, ctx = self.fresh, self.ctx
        if self.answer != "sat" and self.check(effort) != "sat":
            raise ValueError("a witness was asked of a solver that is not satisfiable within its bound")
        found = fresh.model()
        shrinking = [[(var.translate(ctx), floor) for var, floor in group if named(var)] for group in groups]
        pinned = [var.translate(ctx) for var in fixed if named(var)]
        now = {var.get_id(): _valued(found, var) for group in shrinking for var, _ in group}
        now.update({var.get_id(): _valued(found, var) for var in pinned})
        every = [var for group in shrinking for var, _ in group] + pinned

        def holds(var: Any, value: Any) -> bool:
            fresh.push()
            fresh.add(*[v == (value if v.eq(var) else now[v.get_id()]) for v in every])
            fresh.set("rlimit", RLIMIT * effort // SMALLER_SHARE)
            ok = str(fresh.check()) == "sat"
            fresh.pop()
            if ok:
                now[var.get_id()] = value
            return ok

        for group in shrinking:  # each input of a group to its floor where it may go, then each made less
            changed = True
            while changed:
                changed = False
                for var, floor in group:
                    if now[var.get_id()] != floor and holds(var, floor):
                        changed = True
                if not thorough:
                    break
                for var, floor in group:
                    value = now[var.get_id()]
                    while not isinstance(value, bool) and value - floor > 1 and \
                            (holds(var, floor + (value - floor) // 2) or holds(var, value - 1)):
                        value, changed = now[var.get_id()], True
        fresh.push()
        fresh.add(*[v == now[v.get_id()] for v in every])
        fresh.set("rlimit", RLIMIT * effort)
        if str(fresh.check()) != "sat":
            raise ValueError("a witness made smaller no longer holds")
        model = fresh.model()
        fresh.pop()
        return _pinned(self.solver, model)


def named(var: Any) -> bool:
    """Whether a term is a variable of the situation (a reading's fixed constant, such as no contract partner
    where the settlement has no contract, is not)."""
    return z3.is_const(var) and var.decl().kind() == z3.Z3_OP_UNINTERPRETED


def _valued(model: Any, var: Any) -> Any:
    value = model.eval(var, model_completion=True)
    return z3.is_true(value) if z3.is_bool(var) else value.as_long()


def _check(fresh: Any, effort: int) -> str:
    """sat, unsat or unknown (the resource bound ran out on each of RETRIES seeded searches)."""
    fresh.set("rlimit", RLIMIT * effort)
    answer = str(fresh.check())
    for seed in range(1, RETRIES):
        if answer != "unknown":
            break
        fresh.set("random_seed", seed)
        answer = str(fresh.check())
    return answer


def _spent(fresh: Any) -> int:
    """The resource units the solver's searches have used so far."""
    stats = fresh.statistics()
    return next((int(stats.get_key_value(k)) for k in stats.keys() if k == "rlimit count"), 0)


def _pinned(solver: Any, found: Any) -> Any:
    """`solver`'s model with every constant as `found` (a model of its copy in another context) has it."""
    pins = []
    for decl in found.decls():
        if decl.arity() != 0:
            continue
        value = found[decl]
        name, sort = decl.name(), decl.range()
        if sort.kind() == z3.Z3_INT_SORT:
            pins.append(z3.Int(name) == value.as_long())
        elif sort.kind() == z3.Z3_BOOL_SORT:
            pins.append(z3.Bool(name) == z3.is_true(value))
    return model_with(solver, pins, "a witness found in a context of its own does not hold in the solver's own terms")


def model_with(solver: Any, pins: Sequence[Any], failing: str) -> Any:
    """A model of `solver` with `pins` (equalities) added for the one check, the solver left as it was;
    ValueError(`failing`) where there is none."""
    solver.push()
    solver.add(*pins)
    if solver.check() != z3.sat:
        solver.pop()
        raise ValueError(failing)
    model = solver.model()
    solver.pop()
    return model
