"""What the Z3 settlement model (`checker.hunt.settle`) proves of a ruleset, claim by claim: each proved over the
model's domain, refuted with a situation, or not run (with why). Each search is bounded by Z3's resource count
(checker.hunt.bounded), which is not wholly the same from run to run: each decided claim records the share of its
bound it used (`bound_used`); the findings page marks those past settle.NEAR_BOUND as decided near the bound.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, replace
from typing import Any, Iterator, Mapping

import z3  # type: ignore[import-untyped]

from checker.case import CaseRunner
from checker.hunt.arith import Situation, cause, context_patterns
from checker.engine.hand import WIN_BY
from checker.hunt.examine import MAX_SCORED, examine
from checker.hunt.settle import NEAR_BOUND, SEATS, Claim, SettlementModel, limit_of, signature
from checker.hunt.bounded import Bounded, model_with, named
from checker.hunt.saturation import saturation
from checker.hunt.z3context import in_own_context
from checker.spec import Ruleset, options_text


def _shown(options: Mapping[str, Any]) -> str:
    return options_text(options)


def _inputs(model: SettlementModel, v: Any, t: Any, table: bool = True) -> list[list[tuple[Any, Any]]]:
    """A situation's inputs for `Bounded.shrunk`, what makes it bigger first: the counted patterns, then the
    table's extras (a 底分 counter, a contract partner, claimed sets, flags), then (with `table`) the way of
    winning toward a self-draw and the discarder toward seat 1. A pattern the model derives (the chicken hand)
    follows the others."""
    derived = {model.ruleset.principles.chicken_hand} if model.arith.method == "fan_sum" else set()
    counts = [(c, 0) for pid, c in v.count.items() if pid not in derived]
    extras = [(v.base, -1), (t.partner, 0), (t.claimed, 0)] + [(f, False) for f in t.flags.values()]
    return [counts, extras] + ([[(t.win, 0), (t.discarder, 1)]] if table else [])


def _claim(key: str, words: str, options: Mapping[str, Any], rules: list[str], search: Bounded, domain: str,
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
def zero_sum(runner: CaseRunner, ruleset: Ruleset, options: Mapping[str, Any], effort: int = 1,
             saturated: Mapping[str, int] | None = None) -> Claim:
    """Every hand's payments sum to zero, no payer gains and the winner never loses (`saturated`: the
    reading's multipliers, checker.hunt.saturation)."""
    model = SettlementModel(runner.scorer(ruleset.id, dict(options)), saturated)
    v, t = model.situation("s.")
    paid = model.paid(v, t)
    c = paid.changes
    solver = z3.Solver()
    solver.add(*model.domain(v, t), *paid.rules, paid.valid)
    solver.add(z3.Not(z3.And(c[0] + c[1] + c[2] + c[3] == 0, c[0] >= 0, c[1] <= 0, c[2] <= 0, c[3] <= 0)))
    search = Bounded(solver)
    answer = search.check(effort)
    return _claim("zero-sum", "the payments of a winning hand sum to zero, no payer gains and the winner never loses",
                  options, [r for r in ("settlement.self_draw", "settlement.discard", "settlement.robbing_kong",
                                        "settlement.contract", "settlement.liability") if r in ruleset.rules],
                  search, model.domain_words(), model.words(search.shrunk(effort, _inputs(model, v, t)), v, t, paid)
                  if answer == "sat" else None)


@in_own_context
def single_hand_limit(runner: CaseRunner, ruleset: Ruleset, options: Mapping[str, Any], effort: int = 1,
                      saturated: Mapping[str, int] | None = None) -> Claim:
    """No player loses more than the single-hand limit in value (each share's 底分 on top where the settlement
    keeps it outside the value); where one discard may have several winners (一炮多响, each paid as a hand of its
    own), over all of them together."""
    scorer = runner.scorer(ruleset.id, dict(options))
    limit = limit_of(scorer)
    key = "single-hand-limit"
    model = SettlementModel(scorer, saturated)
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
    search = Bounded(solver)
    answer = search.check(effort)
    words = f"no player loses more than the single-hand limit of {top} in value in one hand"
    if model.winners_most > 1:
        words += ", whoever pays and however many win on one discard"
    witness = None
    if answer == "sat":
        groups = _inputs(model, v, t)
        winners: list[tuple[Any, Any]] = []
        for vi, at, present, ti, _ in others:  # a winner fewer first, then patterns and extras of all of them
            winners.append((present, False))  # (each one's table follows from the first's and its seat)
            groups = [g + h for g, h in zip(groups, _inputs(model, vi, ti, table=False))] + groups[2:]
        m = search.shrunk(effort, [winners] + groups if winners else groups, [at for _, at, _, _, _ in others])
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
def monotone(runner: CaseRunner, ruleset: Ruleset, options: Mapping[str, Any], pid: str, effort: int = 1,
             saturated: Mapping[str, int] | None = None) -> Claim:
    """One more `pid` (a pattern a hand gains from its context alone), everything else the same, never leaves
    the winner with less nor lets a payer pay less, nor stops the hand winning."""
    scorer = runner.scorer(ruleset.id, dict(options))
    model = SettlementModel(scorer, saturated)
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
    search = Bounded(solver)
    answer = search.check(effort)
    pattern = next(p for p in ruleset.patterns if p.id == pid)
    words = (f"a hand that gains one more {pattern.name_en} from its context alone is never left unable to win nor "
             f"worth less to the winner, nor, won the same way, paid less by anyone (the model proves it of count "
             f"vectors, every other count held; real hands, whose other patterns may move with it, are searched by "
             f"the engine)")
    witness: dict[str, Any] | None = None
    rules = [f"fan.{pid}"]
    if answer == "sat":
        m = search.shrunk(effort, _inputs(model, a, t))
        witness = {"before": model.words(m, a, t, pa), "after": model.words(m, b, t, pb)}
        base = (witness["before"].get("counters") or {}).get(model.arith.counter)
        step = cause(model.arith, Situation(witness["before"]["counts"], base),
                     Situation(witness["after"]["counts"], base))
        if step:  # the scoring step after which the grown hand falls behind names the cause
            witness["lowered_by"] = step
            rules.insert(0, step)
    return _claim(f"monotone.{pid}", words, options, rules, search, model.domain_words(), witness)


SEPARATED = ("proved by separation: in no situation do both readings change the hand's value or whether it may "
             "win, and the four readings settle a value alike, so what one changes is the same whatever the other")


@in_own_context
def interaction(runner: CaseRunner, ruleset: Ruleset, first: tuple[str, Any], second: tuple[str, Any],
                effort: int = 1, saturated: Mapping[tuple, Mapping[str, int]] | None = None) -> Claim:
    """Whether what the reading `first` changes in a hand's outcome (may it win, each seat's change) is the
    same whatever `second`'s reading: refuted, the two options interact. Three searches, each only where the one
    before decides nothing: where the four readings settle alike, whether the two are separated (no situation
    where both change the value or the right to win: then neither moves what the other changes); the claim at a
    glance (most pairs interact, and Z3 finds one situation at once); the claim with the whole bound, each
    reading's multipliers saturated where the readings count differently (checker.hunt.saturation: `saturated`
    by reading, as `key` gives it; both readings together proved here). Readings that count alike share one
    copy of the count."""
    readings = [{}, dict([first]), dict([second]), dict([first, second])]
    scorers = [runner.scorer(ruleset.id, r) for r in readings]
    models = [SettlementModel(s) for s in scorers]
    a, b = _shown(dict([first])), _shown(dict([second]))
    words = f"what {a} changes in a hand's outcome is the same whatever {b}"
    rules = [f"option.{first[0]}", f"option.{second[0]}"]
    if len({_settles(m) for m in models}) == 1:
        apart = _Interaction(models, values_only=True)
        if apart.search.glance(effort) == "unsat":
            claim = _claim(f"interaction.{a}&{b}", words, {}, rules, apart.search,
                           models[0].domain_words(readings=4))
            claim.why, claim.readings = SEPARATED, readings
            return claim
    whole = apart = _Interaction(models)
    search = apart.search
    if search.glance(effort) == "unknown":
        known = [(saturated or {}).get(key(r), {}) for r in readings[:3]]
        # saturated where the readings count differently (where all four share one value, a shorter chain of
        # 荒番 was measured to make the search slower, not faster: 8 s against 3 s)
        if any(known) and len({_counts(m) for m in models}) > 1:
            known.append(saturation(scorers[3], effort))
            apart = _Interaction([SettlementModel(s, k) for s, k in zip(scorers, known)])
            search = apart.search
        search.check(effort)
    witness = None
    if search.answer == "sat":  # made small only at a glance (the page names interacting pairs), and read off
        # the whole models (a saturated model computes a count past its saturation at it)
        m = search.shrunk(effort, apart.inputs(), thorough=False)
        if apart is not whole:
            m = whole.at(apart.situation(m))
        witness = {"under": [{"reading": _shown(r) or "the defaults", **whole.words(m, i)}
                             for i, r in enumerate(readings)]}
    claim = _claim(f"interaction.{a}&{b}", words, {}, rules, search, apart.models[0].domain_words(readings=4),
                   witness)
    claim.readings = readings
    return claim


def _counts(model: SettlementModel) -> tuple:
    """What the model's arithmetic reads: two models alike here give one situation the same value and the same
    right to win (the same patterns, points, steps, ranges and saturations)."""
    return repr(signature(model.scorer)[:-1]), tuple(sorted(model.arith.saturated.items()))


def _settles(model: SettlementModel) -> tuple:
    """What the model's settlement reads besides the value: two models alike here pay one value alike in every
    situation (the same settlement terms, and the same 包 patterns counted)."""
    liability = model.pay.liability
    counted = tuple(sorted(p for p in liability.patterns if p in model.arith.top)) if liability is not None else ()
    return repr(signature(model.scorer)[-1]), counted, tuple(model.flag_names)


class _Interaction:
    """The four readings of an interaction counting one situation: each pattern's count and the 底分 counter over
    the widest range any reading gives it, each reading counting it within its own range (荒番 under
    huangfan_stacking=once: at most once); asserted, what the first reading changes depends on the second's.
    With `values_only`, the value and the right to win alone, with no table: asserted, each reading changes one
    of them under some reading of the other."""

    def __init__(self, models: list[SettlementModel], values_only: bool = False):
        self.models = models
        self.t = t = models[0].table("s.")
        outcomes, self.paid, self.vs = [], [], []
        solver = z3.Solver()
        tops: dict[str, int] = {}
        for model in models:
            for pid, most in model.arith.top.items():
                tops[pid] = max(tops.get(pid, 0), most)
        self.raw = raw = {pid: z3.Int(f"s.raw.{pid}") for pid in tops}
        self.base = z3.Int("s.raw.base")
        solver.add(*[z3.And(c >= 0, c <= tops[pid]) for pid, c in raw.items()])
        counted: dict[tuple, str] = {}  # readings that count alike share one copy of the count (one value)
        for i, model in enumerate(models):
            v = model.arith.copy(counted.setdefault(_counts(model), f"r{i}."))
            top = model.arith.top
            solver.add(v.base == self.base,
                       *[c == z3.If(raw[pid] > top[pid], top[pid], raw[pid]) for pid, c in v.count.items()])
            if values_only:
                rules, value, valid = model.arith.statements(v)
                solver.add(*model.arith._domain(v), *[x for _, x in rules])
                outcomes.append([valid, value])
                continue
            paid = model.paid(v, t)
            solver.add(*model.domain(v, t), *paid.rules)
            outcomes.append([z3.If(paid.valid, 1, 0)] + [z3.If(paid.valid, c, 0) for c in paid.changes])
            self.paid.append(paid)
            self.vs.append(v)
        o00, o10, o01, o11 = outcomes
        if values_only:  # the first reading moves something under one reading of the second, and the reverse
            solver.add(z3.Or([x11 != x01 for x11, x01 in zip(o11, o01)] + [x10 != x00 for x10, x00 in zip(o10, o00)]),
                       z3.Or([x11 != x10 for x11, x10 in zip(o11, o10)] + [x01 != x00 for x01, x00 in zip(o01, o00)]))
        else:
            solver.add(z3.Or([x11 - x01 != x10 - x00 for x00, x10, x01, x11 in zip(o00, o10, o01, o11)]))
        self.search = Bounded(solver)

    def inputs(self) -> list[list[tuple[Any, Any]]]:
        """The situation's inputs for `Bounded.shrunk`, as `_inputs` orders them."""
        t = self.t
        extras = [(self.base, -1), (t.partner, 0), (t.claimed, 0)] + [(f, False) for f in t.flags.values()]
        return [[(c, 0) for c in self.raw.values()], extras, [(t.win, 0), (t.discarder, 1)]]

    def words(self, m: Any, i: int) -> dict[str, Any]:
        return self.models[i].words(m, self.vs[i], self.t, self.paid[i])

    def situation(self, m: Any) -> list[Any]:
        """The situation of a model of this interaction: each input equal to its value there."""
        return [var == m.eval(var, model_completion=True) for group in self.inputs() for var, _ in group if named(var)]

    def at(self, situation: list[Any]) -> Any:
        """This interaction's model of a situation (another's, of the same inputs): the same claim refuted there
        (what a saturated model refutes, the whole one does: checker.hunt.saturation)."""
        return model_with(self.search.solver, situation, "a saturated model's witness does not refute the whole model")


def key(options: Mapping[str, Any]) -> tuple:
    """A reading as a key (of the saturations a task carries)."""
    return tuple(sorted(options.items()))


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
    readings of an interaction; `saturated` each reading's saturated multipliers (checker.hunt.saturation), by
    reading (`key`), where they were proved before the claim is made (`saturate`)."""

    key: str
    words: str
    options: tuple[tuple[str, Any], ...]
    kind: str
    pid: str = ""
    pair: tuple[tuple[str, Any], tuple[str, Any]] | None = None
    saturated: tuple[tuple[tuple, tuple[tuple[str, int], ...]], ...] = ()

    def readings(self) -> list[dict[str, Any]]:
        """The readings the claim models whose saturations it is given: its own, or an interaction's defaults
        and each of its two readings alone (both together it proves itself, where needed)."""
        if self.pair is None:
            return [dict(self.options)]
        return [{}, dict([self.pair[0]]), dict([self.pair[1]])]


def saturate(tasks: list[list[Task]], saturations: Mapping[tuple, Mapping[str, int]]) -> list[list[Task]]:
    """The tasks given the saturations of the readings they model (`saturations` by `key`)."""
    return [[replace(task, saturated=tuple((key(r), tuple(sorted(saturations.get(key(r), {}).items())))
                                           for r in task.readings())) for task in group] for group in tasks]


def readings_of(tasks: list[list[Task]]) -> list[dict[str, Any]]:
    """Every reading the tasks model whose saturation they are given, each once, in order."""
    return list({key(r): r for group in tasks for task in group for r in task.readings()}.values())


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
    saturated = {k: dict(v) for k, v in task.saturated}
    own = saturated.get(key(options), {})
    if task.kind == "zero-sum":
        claim = zero_sum(runner, ruleset, options, effort, own)
    elif task.kind == "single-hand-limit":
        claim = single_hand_limit(runner, ruleset, options, effort, own)
    elif task.kind == "monotone":
        claim = monotone(runner, ruleset, options, task.pid, effort, own)
    else:
        assert task.pair is not None
        claim = interaction(runner, ruleset, task.pair[0], task.pair[1], effort, saturated)
    return claim if pool is None else examine(runner, ruleset, claim, pool, MAX_SCORED * effort)


def claims(runner: CaseRunner, ruleset: Ruleset, effort: int = 1, pairs: bool = True,
           until: float = math.inf, pool: list[dict[str, Any]] | None = None) -> Iterator[Claim]:
    """Every claim of `plan`, made in this process one after another and grouped by result (`grouped`). Z3
    keeps state between searches of one process: the hunt makes each in a process of its own
    (checker.hunt.apart); this is for one ruleset's claims read at a glance and for tests."""
    tasks = plan(runner, ruleset, pairs)
    tasks = saturate(tasks, {key(r): saturation(runner.scorer(ruleset.id, r), effort) for r in readings_of(tasks)})
    for group in tasks:
        yield from grouped([prove(runner, ruleset, task, effort, until, pool) for task in group])
