"""What the Z3 settlement model (`checker.hunt.settle`) proves of a ruleset, claim by claim: each proved over the
model's domain, refuted with a situation, or not run (with why). The solver is bounded by Z3's resource count
(`rlimit`), not by time, so the same effort gives the same answers on any machine.
"""
from __future__ import annotations

import math
import time
from functools import partial
from typing import Any, Callable, Iterator, Mapping

import z3  # type: ignore[import-untyped]

from checker.case import CaseRunner
from checker.hunt.arith import MAX_COUNT, Situation, cause, context_patterns
from checker.hunt.settle import DOMAIN, SEATS, Claim, SettlementModel, signature
from checker.spec import Ruleset, options_text

RLIMIT = 100_000_000  # Z3 resource units one claim may use at effort 1 (each later effort so many times as many)


def _shown(options: Mapping[str, Any]) -> str:
    return options_text(options)


def _domain() -> str:
    return DOMAIN.format(most=MAX_COUNT)


def _solve(solver: Any, effort: int) -> str:
    """sat, unsat or unknown (the resource bound ran out)."""
    solver.set("rlimit", RLIMIT * effort)
    return str(solver.check())


def _smallest(solver: Any, sizes: list[Any], effort: int) -> Any:
    """The model of a satisfiable `solver` whose sizes are least, each in turn (the first before the second):
    a witness with the fewest patterns, then the smallest counts. The solver is left as it was."""
    model = solver.model()
    solver.push()
    for size in sizes:
        best = model.eval(size, model_completion=True).as_long()
        while best > 0:
            solver.push()
            solver.add(size < best)
            if _solve(solver, effort) != "sat":
                solver.pop()
                break
            model = solver.model()
            best = model.eval(size, model_completion=True).as_long()
            solver.pop()
        solver.add(size == best)
    solver.pop()
    return model


def _sizes(model: SettlementModel, v: Any, t: Any) -> list[Any]:
    """What makes a situation bigger, most important first: patterns counted, then counts, then the table's
    extras (a 底分 counter, a contract, flags, claimed sets)."""
    counts = list(v.count.values())
    extras = [z3.If(v.base >= 0, 1, 0), z3.If(t.partner > 0, 1, 0), t.claimed] + \
        [z3.If(f, 1, 0) for f in t.flags.values()]
    return [z3.Sum([z3.If(c > 0, 1, 0) for c in counts]), z3.Sum(counts), z3.Sum(extras)]


def _claim(key: str, words: str, options: Mapping[str, Any], rules: list[str], answer: str,
           witness: Any = None) -> Claim:
    if answer == "unknown":
        return Claim(key, words, dict(options), _domain(), "not-run", rules,
                     why="the solver's resource bound ran out before an answer (raise --effort)")
    if answer == "unsat":
        return Claim(key, words, dict(options), _domain(), "proved", rules)
    return Claim(key, words, dict(options), _domain(), "refuted", rules, witness=witness)


def zero_sum(runner: CaseRunner, ruleset: Ruleset, options: Mapping[str, Any], effort: int = 1) -> Claim:
    """Every hand's payments sum to zero, no payer gains and the winner never loses."""
    model = SettlementModel(runner.scorer(ruleset.id, dict(options)))
    v, t = model.situation("s.")
    paid = model.paid(v, t)
    c = paid.changes
    solver = z3.Solver()
    solver.add(*model.domain(v, t), *paid.rules, paid.valid)
    solver.add(z3.Not(z3.And(c[0] + c[1] + c[2] + c[3] == 0, c[0] >= 0, c[1] <= 0, c[2] <= 0, c[3] <= 0)))
    answer = _solve(solver, effort)
    return _claim("zero-sum", "the payments of a winning hand sum to zero, no payer gains and the winner never loses",
                  options, [r for r in ("settlement.self_draw", "settlement.discard", "settlement.robbing_kong",
                                        "settlement.contract", "settlement.liability") if r in ruleset.rules],
                  answer, model.words(_smallest(solver, _sizes(model, v, t), effort), v, t, paid)
                  if answer == "sat" else None)


def _limit(scorer: Any) -> tuple[int, str] | None:
    """The single-hand limit the scorer applies (value units) and its step's rule, or None."""
    for (fn, params), (_, rule) in zip(scorer.steps, scorer.step_ids):
        if fn.__name__ == "outer_limit":
            return int(params["units"]) * int(params["unit"]), rule
    return None


def single_hand_limit(runner: CaseRunner, ruleset: Ruleset, options: Mapping[str, Any], effort: int = 1) -> Claim:
    """No player loses more than the single-hand limit in value (each share's 底分 on top where the settlement
    keeps it outside the value)."""
    scorer = runner.scorer(ruleset.id, dict(options))
    limit = _limit(scorer)
    key = "single-hand-limit"
    if limit is None:
        return Claim(key, "no player loses more than a single-hand limit", dict(options), _domain(),
                     "not-applicable", why="the ruleset states no single-hand limit under this reading")
    top, rule = limit
    model = SettlementModel(scorer)
    v, t = model.situation("s.")
    paid = model.paid(v, t)
    over = [-paid.changes[seat] - paid.shares[i] * paid.base_part > top for i, seat in enumerate(SEATS)]
    solver = z3.Solver()
    solver.add(*model.domain(v, t), *paid.rules, paid.valid, z3.Or(over))
    answer = _solve(solver, effort)
    words = f"no player loses more than the single-hand limit of {top} in value in one hand"
    return _claim(key, words, options, [rule] if rule else [], answer,
                  model.words(_smallest(solver, _sizes(model, v, t), effort), v, t, paid) if answer == "sat" else None)


def monotone(runner: CaseRunner, ruleset: Ruleset, options: Mapping[str, Any], pid: str, effort: int = 1) -> Claim:
    """One more `pid` (a pattern a hand gains from its context alone), everything else the same, never leaves
    the winner with less nor lets a payer pay less, nor stops the hand winning."""
    scorer = runner.scorer(ruleset.id, dict(options))
    model = SettlementModel(scorer)
    a, b, t = model.arith.copy("a."), model.arith.copy("b."), model.table("t.")
    pa, pb = model.paid(a, t), model.paid(b, t)
    derived = {ruleset.principles.chicken_hand} if model.arith.method == "fan_sum" else set()
    solver = z3.Solver()
    solver.add(*model.domain(a, t), *model.domain(b, t), *pa.rules, *pb.rules, b.base == a.base,
               b.count[pid] == a.count[pid] + 1, pa.valid)
    for other, count in a.count.items():
        if other != pid and other not in derived:
            solver.add(b.count[other] == count)
    solver.add(z3.Not(z3.And(pb.valid, pb.changes[0] >= pa.changes[0],
                             *[pb.changes[s] <= pa.changes[s] for s in SEATS])))
    answer = _solve(solver, effort)
    pattern = next(p for p in ruleset.patterns if p.id == pid)
    words = (f"one more {pattern.name_en}, every other pattern counted the same, never leaves the winner with less, "
             f"a payer paying less, or a winning hand unable to win")
    witness: dict[str, Any] | None = None
    rules = [f"fan.{pid}"]
    if answer == "sat":
        m = _smallest(solver, _sizes(model, a, t), effort)
        witness = {"before": model.words(m, a, t, pa), "after": model.words(m, b, t, pb)}
        base = (witness["before"].get("counters") or {}).get(model.arith.counter)
        step = cause(model.arith, Situation(witness["before"]["counts"], base),
                     Situation(witness["after"]["counts"], base))
        if step:  # the scoring step after which the grown hand falls behind names the cause
            witness["lowered_by"] = step
            rules.insert(0, step)
    return _claim(f"monotone.{pid}", words, options, rules, answer, witness)


def interaction(runner: CaseRunner, ruleset: Ruleset, first: tuple[str, Any], second: tuple[str, Any],
                effort: int = 1) -> Claim:
    """Whether what the reading `first` changes in a hand's outcome (may it win, each seat's change) is the
    same whatever `second`'s reading: refuted, the two options interact."""
    readings = [{}, dict([first]), dict([second]), dict([first, second])]
    models = [SettlementModel(runner.scorer(ruleset.id, r)) for r in readings]
    t = models[0].table("s.")
    outcomes, paid_all, vs = [], [], []
    solver = z3.Solver()
    for i, model in enumerate(models):
        v = model.arith.copy("s.", f"r{i}.")
        paid = model.paid(v, t)
        solver.add(*model.domain(v, t), *paid.rules)
        outcomes.append([z3.If(paid.valid, 1, 0)] + [z3.If(paid.valid, c, 0) for c in paid.changes])
        paid_all.append(paid)
        vs.append(v)
    o00, o10, o01, o11 = outcomes
    solver.add(z3.Or([x11 - x01 != x10 - x00 for x00, x10, x01, x11 in zip(o00, o10, o01, o11)]))
    answer = _solve(solver, effort)
    a, b = _shown(dict([first])), _shown(dict([second]))
    witness = None
    if answer == "sat":
        m = _smallest(solver, _sizes(models[0], vs[0], t)[:1], effort)  # the fewest patterns: enough to read
        witness = {"under": [{"reading": _shown(r) or "the defaults", **models[i].words(m, vs[i], t, paid_all[i])}
                             for i, r in enumerate(readings)]}
    result = _claim(f"interaction.{a}&{b}", f"what {a} changes in a hand's outcome is the same whatever {b}", {},
                    [f"option.{first[0]}", f"option.{second[0]}"], answer, witness)
    return result


def readings(runner: CaseRunner, ruleset: Ruleset) -> list[dict[str, Any]]:
    """The defaults, then each other value of each scoring option whose model differs from the defaults'."""
    plain = signature(runner.scorer(ruleset.id, {}))
    out: list[dict[str, Any]] = [{}]
    for oid, option in ruleset.scoring_options().items():
        for value in option.other_values():
            if signature(runner.scorer(ruleset.id, {oid: value})) != plain:
                out.append({oid: value})
    return out


def grouped(found: list[Claim]) -> list[Claim]:
    """One claim's answers under several readings, the defaults' first: a reading whose result is the defaults'
    is listed under it (`also`), one with another result stays apart."""
    first, out = found[0], [found[0]]
    for claim in found[1:]:
        if claim.result == first.result and claim.why == first.why:
            first.also.append(claim.reading)
        else:
            out.append(claim)
    return out


def claims(runner: CaseRunner, ruleset: Ruleset, effort: int = 1, pairs: bool = True,
           until: float = math.inf) -> Iterator[Claim]:
    """Every claim, in a fixed order: zero-sum, the single-hand limit and monotonicity in each context pattern,
    each under the defaults and every reading that changes the model (grouped by result), then (with `pairs`)
    whether each pair of readings of two options interacts. A claim reached after `until` (time.monotonic) is
    not run, and says so."""
    def due(key: str, words: str, options: Mapping[str, Any], prove: Callable[[], Claim]) -> Claim:
        if time.monotonic() >= until:
            return Claim(key, words, dict(options), _domain(), "not-run", why="the budget ran out before it")
        return prove()

    models = readings(runner, ruleset)
    yield from grouped([due("zero-sum", "the payments sum to zero", o,
                            partial(zero_sum, runner, ruleset, o, effort)) for o in models])
    yield from grouped([due("single-hand-limit", "no player loses more than the single-hand limit", o,
                            partial(single_hand_limit, runner, ruleset, o, effort)) for o in models])
    for pid in context_patterns(runner.scorer(ruleset.id, {})):
        yield from grouped([due(f"monotone.{pid}", f"one more {pid} never lowers a hand", o,
                                partial(monotone, runner, ruleset, o, pid, effort)) for o in models
                            if pid in runner.scorer(ruleset.id, o).rank])
    if pairs:
        changing = [next(iter(r.items())) for r in models[1:]]
        for i, first in enumerate(changing):
            for second in changing[i + 1:]:
                if first[0] != second[0]:
                    a, b = _shown(dict([first])), _shown(dict([second]))
                    yield due(f"interaction.{a}&{b}", f"{a} and {b} do not interact", {},
                              partial(interaction, runner, ruleset, first, second, effort))
