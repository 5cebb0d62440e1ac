"""Z3 models of a ruleset's arithmetic: what its statements make of a hand's counted patterns.

A situation is how many times each pattern counts (the counted fans, hua items, doubles, direct settlements,
caps, multipliers such as 荒番 and 开宝, lifts such as 杠开), plus the 底分 counter. The model states each rule of
the arithmetic as one tracked Z3 assertion named by its rule id, in the order the spec lists it:
- `hua` rulesets: every scoring step of the spec (add_hua, fig, direct, add_base, doubles, cap, multiply, lift,
  limit, outer_limit), with the values the options choose;
- `fan_sum` rulesets (MCR): the points of the counted fans add up (the method itself, not a statement); qualifying
  points leave out flowers, a hand with no other fan is the chicken hand, and a win needs the minimum.

Two uses:
- `explain`: the statements that cannot all hold with a stated result (a document's own example), as Z3's unsat
  core: a contradiction between the spec's reading and the example, named by rule;
- `value`: the model's value of a situation, which the hunter replays through the engine's own steps
  (`replay`): a model and an engine that disagree is a defect of one of them, reported as such.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import z3  # type: ignore[import-untyped]

from checker.engine import Scorer
from checker.engine.predicates import PREDICATES
from checker.engine.steps import Counted, run_steps

MAX_COUNT = 8  # a pattern counted "each" that no declared range bounds, at most this often (four sets and more)


@dataclass
class Vars:
    """The variables of one situation: each pattern's count and the 底分 counter (-1: not carried). `prefix`
    names the situation's variables (two models given the same prefix share them: the same hand under two
    readings); `inner` names each model's own steps."""

    count: dict[str, Any]
    base: Any
    prefix: str
    inner: str = ""


@dataclass
class Situation:
    """How often each pattern counts, and the hand's 底分 counter if it carries one."""

    counts: dict[str, int]
    base: int | None = None


class _CounterHand:
    """What a scoring step asks of a hand: its counters (the 底分 counter of add_base)."""

    def __init__(self, base: int | None, counter: str):
        self._base, self._counter = base, counter

    def counter(self, name: str, default: int = 0) -> int:
        return self._base if self._base is not None and name == self._counter else default


def _pow(base: int, exponent: Any, most: int) -> Any:
    """base ** exponent for a symbolic exponent from 0 to `most`, as a chain of Ifs."""
    out: Any = z3.IntVal(base ** most)
    for k in range(most - 1, -1, -1):
        out = z3.If(exponent == k, z3.IntVal(base ** k), out)
    return out


def count_range(ruleset: Any, bound: Any, params: Mapping[str, Any]) -> int:
    """The most a pattern counts in one hand over the whole range its input declares: once-counted patterns
    once; a counter's pattern up to the counter's declared maximum (荒番: 99); the flowers up to every flower
    tile (and every dragon, where dragons are set aside as flowers); any other, MAX_COUNT."""
    when = bound.pattern.when
    if bound.pattern.counting == "once":
        return 1
    if when.name == "counter":
        return 1 if params.get("stacking") == "once" else ruleset.counters[params["name"]].max
    if when.name == "flowers":
        return ruleset.flower_tiles + (12 if ruleset.dragons_as_flowers else 0)
    return MAX_COUNT


def _max(items: list[Any]) -> Any:
    out = items[0]
    for x in items[1:]:
        out = z3.If(x > out, x, out)
    return out


class ArithModel:
    """The arithmetic of one ruleset under one set of options (those of `scorer`)."""

    def __init__(self, scorer: Scorer, saturated: Mapping[str, int] | None = None):
        self.scorer = scorer
        # a multiplier's count past which no outcome changes under this reading (checker.hunt.saturation): its
        # factor is computed at that count for any count beyond (the count itself keeps its whole range)
        self.saturated = dict(saturated or {})
        rs = scorer.ruleset
        self.method = rs.scoring.method
        self.patterns = scorer.patterns
        self.vars = self.copy("")
        # the steps the scorer runs (those whose `applies` holds), with the rule each implements
        self.steps = [(rule, name, fn, params) for (name, rule), (fn, params) in zip(scorer.step_ids, scorer.steps)]
        self.counter = rs.settlement.base_counter or ""
        self.base_default = rs.settlement.base
        # the 底分 counter's declared range (-1 in the model: the hand does not carry it)
        self.base_top = rs.counters[self.counter].max if self.counter in rs.counters else 0
        params = {pt.id: pt.params for pt in scorer.bound.patterns}
        self.top = {b.id: count_range(rs, b, params[b.id]) for b in self.patterns}

    # ------------------------------------------------------------------ the model
    def copy(self, prefix: str, inner: str = "") -> "Vars":
        """A fresh set of variables for one situation (two copies compare a hand with a grown one); models of
        two readings given the same `prefix` and their own `inner` share the situation."""
        return Vars({b.id: z3.Int(f"{prefix}count.{b.id}") for b in self.patterns}, z3.Int(f"{prefix}base"), prefix,
                    prefix + inner)

    def _domain(self, v: "Vars") -> list[Any]:
        """Every count and the 底分 counter over its whole declared range (-1: the hand does not carry it); a
        pattern whose predicate holds for every winning hand (going out) counts at least once."""
        out = [v.base >= -1, v.base <= self.base_top]
        for b in self.patterns:
            least = 1 if PREDICATES[b.pattern.when.name].always else 0  # a pattern every winning hand counts
            out += [v.count[b.id] >= least, v.count[b.id] <= self.top[b.id]]
        return out

    def most(self, kinds: tuple[str, ...]) -> int:
        """The most the patterns of these kinds are worth together: each one's points times the most it counts
        (the doubles' exponent reaches 5 with 清一色 read as four 番 and 门清, two patterns counted once each)."""
        return sum(b.points * self.top[b.id] for b in self.patterns if b.pattern.kind in kinds)

    def _sum(self, v: "Vars", kinds: tuple[str, ...] | None = None, leave_out: frozenset[str] = frozenset()) -> Any:
        terms = [b.points * v.count[b.id] for b in self.patterns
                 if (kinds is None or b.pattern.kind in kinds) and b.id not in leave_out]
        return z3.Sum(terms) if terms else z3.IntVal(0)

    def statements(self, v: "Vars | None" = None) -> tuple[list[tuple[str, Any]], Any, Any]:
        """(the rules as (rule id, assertion), the value, whether the hand may win by the arithmetic)."""
        v = v or self.vars
        if self.method == "fan_sum":
            return self._fan_sum(v)
        return self._hua(v)

    def _fan_sum(self, v: "Vars") -> tuple[list[tuple[str, Any]], Any, Any]:
        scorer, rs = self.scorer, self.scorer.ruleset
        qualifying, valid = z3.Int(f"{v.inner}qualifying"), z3.Bool(f"{v.inner}valid")
        total = self._sum(v)  # the method itself (fan_sum): the counted fans' points add up
        flowers = frozenset(rs.win.minimum_excludes)
        rules = [("win.minimum_excludes", qualifying == self._sum(v, leave_out=flowers))]
        chicken = rs.principles.chicken_hand
        if chicken and chicken in scorer.rank:
            others = [v.count[b.id] == 0 for b in self.patterns if b.id != chicken and b.id not in flowers]
            rules.append(("principle.chicken_hand", v.count[chicken] == z3.If(z3.And(others), 1, 0)))
        rules.append(("win.minimum_points", valid == (qualifying >= rs.win.minimum_points)))
        return rules, total, valid

    def _hua(self, v: "Vars") -> tuple[list[tuple[str, Any]], Any, Any]:
        rules: list[tuple[str, Any]] = []
        value: Any = z3.IntVal(0)
        cap: Any = None
        base_cap: Any = None
        fixed: Any = z3.BoolVal(False)
        for i, (rule, name, _, params) in enumerate(self.steps):
            new = z3.Int(f"{v.inner}value.{i}.{name}")
            if name == "add_hua":
                expr = self._sum(v, ("hua",))
            elif name == "fig":
                beyond = self._sum(v, ("hua",), leave_out=frozenset({params["base"]}))
                expr = z3.If(beyond == 0, z3.IntVal(params["value"]), value)
                fixed = z3.If(beyond == 0, z3.BoolVal(not params.get("then_doubled", True)), fixed)
            elif name == "doubles":
                n = self._sum(v, ("double",))
                expr = z3.If(z3.Or(n == 0, fixed), value, value * _pow(2, n, self.most(("double",))))
            elif name == "direct":
                direct = [b for b in self.patterns if b.pattern.kind == "direct"]
                best = _max([z3.If(v.count[b.id] > 0, z3.IntVal(b.points), z3.IntVal(0)) for b in direct]) \
                    if direct else z3.IntVal(0)
                expr = z3.If(best > 0, best * params["unit"], value)
                fixed = z3.If(best > 0, z3.BoolVal(bool(params.get("final", False))), fixed)
            elif name == "add_base":
                default = z3.IntVal(params.get("base", 0))
                amount = z3.If(v.base >= 0, v.base, default) if self.counter else default
                if not params.get("on_direct", True):  # a direct settlement carries no 底分
                    amount = z3.If(self.settles_directly(v), z3.IntVal(0), amount)
                expr = value + amount
            elif name == "cap":
                raised = params.get("raised") or {}
                units = _max([z3.IntVal(params["base"])] + [z3.If(v.count[pid] > 0, z3.IntVal(u), z3.IntVal(0))
                                                             for pid, u in raised.items() if pid in v.count])
                cap, base_cap = units * params["unit"], z3.IntVal(params["base"] * params["unit"])
                expr = value
            elif name == "multiply":  # each multiplier in turn; under cap: when_reached the cap grows only
                expr = value                # when the value had reached it before that multiplier
                for b in self.patterns:
                    if b.pattern.kind == "multiplier":
                        factor = _pow(b.points, v.count[b.id], min(self.top[b.id],
                                                                    self.saturated.get(b.id, self.top[b.id])))
                        if cap is not None:
                            grows = z3.BoolVal(True) if params.get("cap", "always") == "always" else expr >= cap
                            cap, base_cap = z3.If(grows, cap * factor, cap), z3.If(grows, base_cap * factor, base_cap)
                        expr = expr * factor
            elif name == "lift":
                lifts = [v.count[b.id] > 0 for b in self.patterns if b.pattern.kind == "lift"]
                lifted = z3.Or(lifts) if lifts and cap is not None else z3.BoolVal(False)
                if params.get("to", "hand_cap") == "one_cap_unit":
                    expr = z3.If(lifted, base_cap, value)
                else:
                    expr = z3.If(z3.And(lifted, value < cap), cap, value)
            elif name == "limit":
                expr = value if cap is None else z3.If(value > cap, cap, value)
            elif name == "outer_limit":
                top = params["units"] * params["unit"]
                in_settlement = params.get("per", "share") == "payer" or params.get("bounds", "value") == "payment"
                expr = value if in_settlement else z3.If(value > top, z3.IntVal(top), value)
            else:
                raise ValueError(f"no Z3 model of the scoring step {name!r}")
            rules.append((rule, new == expr))
            value = new
        return rules, value, z3.BoolVal(True)

    def settles_directly(self, v: "Vars") -> Any:
        """Whether the hand settles directly (the direct step finds one of its patterns counted: 清一色 1勒 …)."""
        if not any(name == "direct" for _, name, _, _ in self.steps):
            return z3.BoolVal(False)
        counted = [v.count[b.id] > 0 for b in self.patterns if b.pattern.kind == "direct"]
        return z3.Or(counted) if counted else z3.BoolVal(False)

    # ------------------------------------------------------------------ uses
    def _fix(self, v: "Vars", situation: Situation) -> list[Any]:
        """The situation's counts, except for patterns the model derives (the chicken hand)."""
        derived = {self.scorer.ruleset.principles.chicken_hand} if self.method == "fan_sum" else set()
        out = [v.count[b.id] == situation.counts.get(b.id, 0) for b in self.patterns if b.id not in derived]
        out.append(v.base == (situation.base if situation.base is not None else -1))
        return out

    def explain(self, situation: Situation, stated: Mapping[str, Any]) -> list[str] | None:
        """The rules that cannot all hold with the stated result for this situation (an unsat core, in the
        spec's order), or None when they can."""
        rules, value, valid = self.statements()
        solver = z3.Solver()
        solver.set("core.minimize", True)
        solver.add(*self._domain(self.vars), *self._fix(self.vars, situation))
        for i, (rule, assertion) in enumerate(rules):
            solver.assert_and_track(assertion, z3.Bool(f"rule.{i}"))
        claim = valid == bool(stated.get("valid"))
        if stated.get("valid") and "total" in stated:
            claim = z3.And(claim, value == int(stated["total"]))
        solver.assert_and_track(claim, z3.Bool("stated"))
        if solver.check() != z3.unsat:
            return None
        core = {str(c) for c in solver.unsat_core()}
        if "stated" not in core:
            raise ValueError(f"the Z3 model contradicts itself on {situation}")
        return [rule for i, (rule, _) in enumerate(rules) if f"rule.{i}" in core]

    def _solved(self, situation: Situation) -> tuple[Any, list[tuple[str, Any]], Any, Any]:
        """(the solver's model, the rules, the value, may win) for one situation, every count fixed."""
        rules, value, valid = self.statements()
        solver = z3.Solver()
        solver.add(*self._domain(self.vars), *self._fix(self.vars, situation), *[a for _, a in rules])
        if solver.check() != z3.sat:
            raise ValueError(f"the Z3 model has no value for {situation}")
        return solver.model(), rules, value, valid

    def value(self, situation: Situation) -> tuple[bool, int]:
        """(may win by the arithmetic, the value) the model gives the situation."""
        model, _, value, valid = self._solved(situation)
        return z3.is_true(model.eval(valid, model_completion=True)), model.eval(value).as_long()

    def running(self, situation: Situation) -> list[tuple[str, int]]:
        """The value after each scoring step (hua rulesets), with the step's rule: how the model gets there."""
        if self.method != "hua":
            return []
        model, rules, _, _ = self._solved(situation)
        # each rule asserts `value after the step == ...`: its left side is the value after the step
        return [(rule, model.eval(assertion.arg(0), model_completion=True).as_long()) for rule, assertion in rules]

    def replay(self, situation: Situation) -> tuple[bool, int] | None:
        """The engine's own value for the situation (its scoring steps run on these counted patterns); None for
        a fan_sum ruleset, whose sum the engine does not keep apart from choosing the fans."""
        if self.method != "hua":
            return None
        items = [Counted(b.id, b.pattern.name_en, b.pattern.kind, b.points, situation.counts[b.id])
                 for b in self.patterns if situation.counts.get(b.id)]
        run = run_steps(self.scorer.steps, items, _CounterHand(situation.base, self.counter))
        return True, run.value


def cause(model: ArithModel, before: Situation, after: Situation) -> str | None:
    """The rule of the first scoring step after which the grown hand (`after`) is worth less than the hand it
    grew from: the step that makes a hand with more worth less (the fig, for a flower in Shanghai: Knocking).
    None when no step does (a fan_sum ruleset, or the drop is not in the value)."""
    for (rule, was), (_, now) in zip(model.running(before), model.running(after)):
        if now < was:
            return rule or None
    return None


def situation_of(scorer: Scorer, fans: Sequence[Mapping[str, Any]], counters: Mapping[str, Any] | None = None) -> Situation:
    """The situation of a scored hand: its counted patterns (a result's `fans`) and its 底分 counter."""
    counter = scorer.ruleset.settlement.base_counter
    base = (counters or {}).get(counter) if counter else None
    return Situation({f["id"]: int(f["count"]) for f in fans}, base)


def context_patterns(scorer: Scorer) -> list[str]:
    """The patterns a winning hand gains from its context alone (predicates registered `context_only`): their
    growth needs no other tiles."""
    return [b.id for b in scorer.patterns if PREDICATES[b.pattern.when.name].context_only]


def find_drop(model: ArithModel, pid: str, pool: list[Situation] | None = None,
              fewest: bool = True) -> Situation | None:
    """A situation (one of `pool`, when given) that may win and is worth less, or may not win, with `pid`
    counted once more; the one with the fewest patterns, of a pool the first of those (without `fewest`, the
    first found: asking only whether there is one, a plain check is several times quicker than minimising).
    None: there is none (without a pool, a proof that one more `pid` never lowers a hand, as far as the
    arithmetic goes)."""
    a, b = model.copy("a."), model.copy("b.")
    rules_a, value_a, valid_a = model.statements(a)
    rules_b, value_b, valid_b = model.statements(b)
    opt = z3.Optimize() if fewest else z3.Solver()
    opt.add(*model._domain(a), *model._domain(b), *[x for _, x in rules_a], *[x for _, x in rules_b])
    opt.add(b.base == a.base, b.count[pid] == a.count[pid] + 1)
    derived = {model.scorer.ruleset.principles.chicken_hand} if model.method == "fan_sum" else set()
    for other in a.count:
        if other != pid and other not in derived:
            opt.add(b.count[other] == a.count[other])
    opt.add(valid_a, z3.Or(z3.Not(valid_b), value_b < value_a))
    index = z3.Int("pool.index")  # which of the pool's situations: the first of the fewest, whatever Z3 met before
    if pool is not None:
        opt.add(z3.Or([z3.And(index == i, *model._fix(a, s)) for i, s in enumerate(pool)]) if pool else
                z3.BoolVal(False))
    if fewest:
        opt.minimize(z3.Sum([z3.If(c > 0, 1, 0) for c in a.count.values()]))
    if fewest and pool:
        opt.minimize(index)
    if opt.check() != z3.sat:
        return None
    m = opt.model()
    counts = {pid_: m.eval(c, model_completion=True).as_long() for pid_, c in a.count.items() if pid_ not in derived}
    base = m.eval(a.base, model_completion=True).as_long()
    return Situation({k: v for k, v in counts.items() if v}, None if base < 0 else base)
