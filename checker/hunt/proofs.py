"""What the Z3 settlement model (`checker.hunt.settle`) proves of a ruleset, claim by claim: each proved over the
model's domain, refuted with a situation, or not run (with why). The solver is bounded by Z3's resource count
(`rlimit`), not by time. That count is not wholly the same from run to run: the same search has been measured at
57 to 108 million units in different processes (it follows the process's memory layout, which Python's string
hashing moves), so a claim decided with much of its bound used may be left undecided by another run, and the
reverse. Each decided claim records the share of its bound it used (`bound_used`); the findings page marks those
past settle.NEAR_BOUND as decided near the bound.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any, Iterator, Mapping

import z3  # type: ignore[import-untyped]

from checker.case import CaseRunner
from checker.hunt.arith import Situation, cause, context_patterns
from checker.engine.hand import WIN_BY
from checker.hunt.examine import MAX_SCORED, examine
from checker.hunt.settle import NEAR_BOUND, SEATS, Claim, SettlementModel, limit_of, signature
from checker.hunt.z3context import in_own_context
from checker.spec import Ruleset, options_text

RLIMIT = 100_000_000  # Z3 resource units one claim may use at effort 1 (each later effort so many times as many)
RETRIES = 3  # seeded searches a claim gets before it is left undecided
SMALL_COUNT = 3  # the corner a witness is first looked for in: every count at most this, no 底分 counter
SMALLER_SHARE = 20  # a step making a witness smaller gets this part of it (past it, the witness found is kept)


def _shown(options: Mapping[str, Any]) -> str:
    return options_text(options)


class _Search:
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

    def in_corner(self, effort: int, box: list[Any]) -> Any:
        """A model of the satisfiable solver in the small corner `box` where it has one (else the one found),
        pinned in the solver's own terms: the first found, not made smallest (one bounded search instead of one a
        size)."""
        return _pinned(self.solver, self._corner(effort, box))

    def _corner(self, effort: int, box: list[Any] | None) -> Any:
        """A model of the satisfiable solver, in the corner `box` where it has one there."""
        fresh = self.fresh
        if self.answer != "sat" and self.check(effort) != "sat":
            raise ValueError("a witness was asked of a solver that is not satisfiable within its bound")
        model = fresh.model()
        if box:
            fresh.push()
            fresh.add(*[b.translate(self.ctx) for b in box])
            if _check(fresh, effort) == "sat":
                model = fresh.model()
            fresh.pop()
        return model

    def smallest(self, sizes: list[Any], effort: int, box: list[Any] | None = None) -> Any:
        """A model of the satisfiable solver whose sizes are least, each in turn (the first before the second):
        a witness with the fewest patterns, then the smallest counts, as far as a bounded search finds (a step
        past its resource share keeps what was found: still a witness, maybe not the smallest). The witness it
        settles on is pinned in the solver's own terms, whose model is returned."""
        fresh, ctx = self.fresh, self.ctx
        # a small corner of the domain first (every count at most a few): its witness is a start to shrink (the
        # copy is not used again: each size found stays asserted in it)
        model = self._corner(effort, box)
        for size in (s.translate(ctx) for s in sizes):
            best = model.eval(size, model_completion=True).as_long()
            while best > 0:
                fresh.push()
                fresh.add(size < best)
                fresh.set("rlimit", RLIMIT * effort // SMALLER_SHARE)
                if str(fresh.check()) != "sat":
                    fresh.pop()
                    break
                model = fresh.model()
                best = model.eval(size, model_completion=True).as_long()
                fresh.pop()
            fresh.add(size == best)
        return _pinned(self.solver, model)


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
    solver.push()
    solver.add(*pins)
    if solver.check() != z3.sat:
        solver.pop()
        raise ValueError("a witness found in a context of its own does not hold in the solver's own terms")
    model = solver.model()
    solver.pop()
    return model


def _sizes(model: SettlementModel, v: Any, t: Any) -> list[Any]:
    """What makes a situation bigger, most important first: patterns counted, then counts, then the table's
    extras (a 底分 counter, a contract, flags, claimed sets)."""
    counts = list(v.count.values())
    extras = [z3.If(v.base >= 0, 1, 0), z3.If(t.partner > 0, 1, 0), t.claimed] + \
        [z3.If(f, 1, 0) for f in t.flags.values()]
    return [z3.Sum([z3.If(c > 0, 1, 0) for c in counts]), z3.Sum(counts), z3.Sum(extras)]


def _claim(key: str, words: str, options: Mapping[str, Any], rules: list[str], search: _Search, domain: str,
           witness: Any = None) -> Claim:
    answer = search.answer
    if answer == "unknown":
        return Claim(key, words, dict(options), domain, "not-run", rules,
                     why="the solver's resource bound ran out before an answer (raise --effort)")
    used = round(search.used, 4)
    if answer == "unsat":
        return Claim(key, words, dict(options), domain, "proved", rules, bound_used=used)
    return Claim(key, words, dict(options), domain, "refuted", rules, witness=witness, bound_used=used)


@in_own_context
def zero_sum(runner: CaseRunner, ruleset: Ruleset, options: Mapping[str, Any], effort: int = 1) -> Claim:
    """Every hand's payments sum to zero, no payer gains and the winner never loses."""
    model = SettlementModel(runner.scorer(ruleset.id, dict(options)))
    v, t = model.situation("s.")
    paid = model.paid(v, t)
    c = paid.changes
    solver = z3.Solver()
    solver.add(*model.domain(v, t), *paid.rules, paid.valid)
    solver.add(z3.Not(z3.And(c[0] + c[1] + c[2] + c[3] == 0, c[0] >= 0, c[1] <= 0, c[2] <= 0, c[3] <= 0)))
    search = _Search(solver)
    answer = search.check(effort)
    return _claim("zero-sum", "the payments of a winning hand sum to zero, no payer gains and the winner never loses",
                  options, [r for r in ("settlement.self_draw", "settlement.discard", "settlement.robbing_kong",
                                        "settlement.contract", "settlement.liability") if r in ruleset.rules],
                  search, model.domain_words(), model.words(search.smallest(_sizes(model, v, t), effort), v, t, paid)
                  if answer == "sat" else None)


@in_own_context
def single_hand_limit(runner: CaseRunner, ruleset: Ruleset, options: Mapping[str, Any], effort: int = 1) -> Claim:
    """No player loses more than the single-hand limit in value (each share's 底分 on top where the settlement
    keeps it outside the value); where one discard may have several winners (一炮多响, each paid as a hand of its
    own), over all of them together."""
    scorer = runner.scorer(ruleset.id, dict(options))
    limit = limit_of(scorer)
    key = "single-hand-limit"
    model = SettlementModel(scorer)
    if limit is None:
        return Claim(key, "no player loses more than a single-hand limit", dict(options), model.domain_words(),
                     "not-applicable", why="the ruleset states no single-hand limit under this reading")
    top, rule = limit
    v, t = model.situation("s.")
    paid = model.paid(v, t)
    solver = z3.Solver()
    solver.add(*model.domain(v, t), *paid.rules, paid.valid)
    # seats relative to the first winner (0); each other winner of the same discard sits at `at`, neither the
    # first winner's seat nor the discarder's, and reads the discarder's seat relative to its own
    lost = [z3.IntVal(0)] + [_lost(paid, seat) for seat in SEATS]
    others: list[tuple[Any, Any, Any, Any, Any]] = []
    for i in range(1, model.winners_most):
        vi, ti = model.situation(f"w{i}.")
        pi = model.paid(vi, ti)
        present, at = z3.Bool(f"w{i}.present"), z3.Int(f"w{i}.seat")
        solver.add(z3.Implies(present, z3.And(*model.domain(vi, ti), *pi.rules, pi.valid,
                                              t.win == WIN_BY.index("discard"), ti.win == WIN_BY.index("discard"),
                                              at >= 1, at <= 3, at != t.discarder,
                                              ti.discarder == (t.discarder - at + 4) % 4)))
        for _, other_at, other_present, _, _ in others:  # two winners never share a seat
            solver.add(z3.Implies(z3.And(present, other_present), at != other_at))
        for x in range(4):
            relative = (x - at + 4) % 4
            loss = z3.If(relative == 1, _lost(pi, 1), z3.If(relative == 2, _lost(pi, 2), _lost(pi, 3)))
            lost[x] = lost[x] + z3.If(z3.And(present, at != x), loss, 0)
        others.append((vi, at, present, ti, pi))
    solver.add(z3.Or([loss > top for loss in lost]))
    search = _Search(solver)
    answer = search.check(effort)
    words = f"no player loses more than the single-hand limit of {top} in value in one hand"
    if model.winners_most > 1:
        words += ", whoever pays and however many win on one discard"
    witness = None
    if answer == "sat":
        sizes = _sizes(model, v, t)
        for vi, _, present, ti, _ in others:  # a winner more, then patterns, counts and extras of all of them
            sizes = [a + z3.If(present, b, 0) for a, b in zip(sizes, _sizes(model, vi, ti))]
        sizes = [z3.Sum([z3.If(o[2], 1, 0) for o in others])] + sizes if others else sizes
        m = search.smallest(sizes, effort)
        witness = model.words(m, v, t, paid)
        more = [{"seat": m.eval(at, model_completion=True).as_long(), **model.words(m, vi, ti, pi)}
                for vi, at, present, ti, pi in others if z3.is_true(m.eval(present, model_completion=True))]
        if more:  # the other winners of the same discard, each with its seat relative to the first winner
            witness["other_winners"] = more
            witness["lost"] = [m.eval(x, model_completion=True).as_long() for x in lost]
    return _claim(key, words, options, [rule] if rule else [], search, model.domain_words(), witness)


def _lost(paid: Any, seat: int) -> Any:
    """What the payer at `seat` (relative to its winner) loses in value: its change less its shares' 底分."""
    return -paid.changes[seat] - paid.shares[seat - 1] * paid.base_part


@in_own_context
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
    search = _Search(solver)
    answer = search.check(effort)
    pattern = next(p for p in ruleset.patterns if p.id == pid)
    words = (f"a hand that gains one more {pattern.name_en} from its context alone is never left unable to win nor "
             f"worth less to the winner, nor, won the same way, paid less by anyone (the model proves it of count "
             f"vectors, every other count held; real hands, whose other patterns may move with it, are searched by "
             f"the engine)")
    witness: dict[str, Any] | None = None
    rules = [f"fan.{pid}"]
    if answer == "sat":
        m = search.smallest(_sizes(model, a, t), effort)
        witness = {"before": model.words(m, a, t, pa), "after": model.words(m, b, t, pb)}
        base = (witness["before"].get("counters") or {}).get(model.arith.counter)
        step = cause(model.arith, Situation(witness["before"]["counts"], base),
                     Situation(witness["after"]["counts"], base))
        if step:  # the scoring step after which the grown hand falls behind names the cause
            witness["lowered_by"] = step
            rules.insert(0, step)
    return _claim(f"monotone.{pid}", words, options, rules, search, model.domain_words(), witness)


@in_own_context
def interaction(runner: CaseRunner, ruleset: Ruleset, first: tuple[str, Any], second: tuple[str, Any],
                effort: int = 1) -> Claim:
    """Whether what the reading `first` changes in a hand's outcome (may it win, each seat's change) is the
    same whatever `second`'s reading: refuted, the two options interact."""
    readings = [{}, dict([first]), dict([second]), dict([first, second])]
    models = [SettlementModel(runner.scorer(ruleset.id, r)) for r in readings]
    t = models[0].table("s.")
    outcomes, paid_all, vs = [], [], []
    solver = z3.Solver()
    # one situation: each pattern's count and the 底分 counter over the widest range any reading gives it; each
    # reading counts it within its own range (荒番 under huangfan_stacking=once: at most once)
    tops: dict[str, int] = {}
    for model in models:
        for pid, most in model.arith.top.items():
            tops[pid] = max(tops.get(pid, 0), most)
    raw = {pid: z3.Int(f"s.raw.{pid}") for pid in tops}
    base = z3.Int("s.raw.base")
    solver.add(*[z3.And(c >= 0, c <= tops[pid]) for pid, c in raw.items()])
    for i, model in enumerate(models):
        v = model.arith.copy(f"r{i}.")
        paid = model.paid(v, t)
        solver.add(*model.domain(v, t), *paid.rules, v.base == base)
        top = model.arith.top
        solver.add(*[c == z3.If(raw[pid] > top[pid], top[pid], raw[pid]) for pid, c in v.count.items()])
        outcomes.append([z3.If(paid.valid, 1, 0)] + [z3.If(paid.valid, c, 0) for c in paid.changes])
        paid_all.append(paid)
        vs.append(v)
    o00, o10, o01, o11 = outcomes
    solver.add(z3.Or([x11 - x01 != x10 - x00 for x00, x10, x01, x11 in zip(o00, o10, o01, o11)]))
    search = _Search(solver)
    answer = search.check(effort)
    a, b = _shown(dict([first])), _shown(dict([second]))
    witness = None
    if answer == "sat":  # a situation in a small corner, as found: the page lists interacting pairs by name, and
        # making each of some 170 witnesses smallest took most of the claims' time
        small = [c <= SMALL_COUNT for c in raw.values()] + [base == -1]
        m = search.in_corner(effort, small)
        witness = {"under": [{"reading": _shown(r) or "the defaults", **models[i].words(m, vs[i], t, paid_all[i])}
                             for i, r in enumerate(readings)]}
    claim = _claim(f"interaction.{a}&{b}", f"what {a} changes in a hand's outcome is the same whatever {b}", {},
                   [f"option.{first[0]}", f"option.{second[0]}"], search, models[0].domain_words(readings=4),
                   witness)
    claim.readings = readings
    return claim


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
    (refuted the same way: by the model or by a real hand, with one winner or several) is listed under it
    (`also`; the share of the solver's bound used is the most any of them used), one with another result stays
    apart."""
    first, out = found[0], [found[0]]
    for claim in found[1:]:
        if (claim.result, claim.why, claim.by, _several(claim)) == (first.result, first.why, first.by, _several(first)):
            first.also.append(claim.reading)
            first.bound_used = max(first.bound_used, claim.bound_used)
        else:
            out.append(claim)
    return out


def _several(claim: Claim) -> bool:
    """Whether the claim's witness needs several winners of one discard (kept apart from one that does not)."""
    return bool(claim.witness and claim.witness.get("other_winners"))


@dataclass(frozen=True)
class Task:
    """One claim under one reading, before it is made: plain values, so that a process of its own can make it
    (checker.hunt.apart). `kind` names the search; `pid` the pattern of a monotonicity claim; `pair` the two
    readings of an interaction."""

    key: str
    words: str
    options: tuple[tuple[str, Any], ...]
    kind: str
    pid: str = ""
    pair: tuple[tuple[str, Any], tuple[str, Any]] | None = None


def plan(runner: CaseRunner, ruleset: Ruleset, pairs: bool = True) -> list[list[Task]]:
    """Every claim, in a fixed order and in groups whose results are listed together (`grouped`): zero-sum, the
    single-hand limit and monotonicity in each context pattern, each under the defaults and every reading that
    changes the model, then (with `pairs`) whether each pair of readings of two options interacts, one group
    each."""
    models = readings(runner, ruleset)

    def under(key: str, words: str, kind: str, pid: str = "") -> list[Task]:
        return [Task(key, words, tuple(o.items()), kind, pid) for o in models
                if not pid or pid in runner.scorer(ruleset.id, o).rank]

    out = [under("zero-sum", "the payments sum to zero", "zero-sum"),
           under("single-hand-limit", "no player loses more than the single-hand limit", "single-hand-limit")]
    out += [under(f"monotone.{pid}", f"one more {pid} never lowers a hand", "monotone", pid)
            for pid in context_patterns(runner.scorer(ruleset.id, {}))]
    if pairs:
        changing = [next(iter(r.items())) for r in models[1:]]
        for i, first in enumerate(changing):
            for second in changing[i + 1:]:
                if first[0] != second[0]:
                    a, b = _shown(dict([first])), _shown(dict([second]))
                    out.append([Task(f"interaction.{a}&{b}", f"{a} and {b} do not interact", (), "interaction",
                                     pair=(first, second))])
    return [group for group in out if group]


def prove(runner: CaseRunner, ruleset: Ruleset, task: Task, effort: int = 1, until: float = math.inf,
          pool: list[dict[str, Any]] | None = None) -> Claim:
    """One claim made: by the model, then (a proved one, given `pool`) cross-examined by the engine on its
    hands (checker.hunt.examine). Not run when reached after `until` (time.monotonic), and it says so."""
    options = dict(task.options)
    if time.monotonic() >= until:
        return Claim(task.key, task.words, options, "", "not-run", why="the budget ran out before it")
    if task.kind == "zero-sum":
        claim = zero_sum(runner, ruleset, options, effort)
    elif task.kind == "single-hand-limit":
        claim = single_hand_limit(runner, ruleset, options, effort)
    elif task.kind == "monotone":
        claim = monotone(runner, ruleset, options, task.pid, effort)
    else:
        assert task.pair is not None
        claim = interaction(runner, ruleset, task.pair[0], task.pair[1], effort)
    return claim if pool is None else examine(runner, ruleset, claim, pool, MAX_SCORED * effort)


def claims(runner: CaseRunner, ruleset: Ruleset, effort: int = 1, pairs: bool = True,
           until: float = math.inf, pool: list[dict[str, Any]] | None = None) -> Iterator[Claim]:
    """Every claim of `plan`, made in this process one after another and grouped by result (`grouped`). Z3
    keeps state between searches of one process: the hunt makes each in a process of its own
    (checker.hunt.apart); this is for one ruleset's claims read at a glance and for tests."""
    for group in plan(runner, ruleset, pairs):
        yield from grouped([prove(runner, ruleset, task, effort, until, pool) for task in group])
