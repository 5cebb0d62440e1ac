"""The steps that turn counted patterns into a hand's value under a hua (花) ruleset.

A spec's `scoring.steps` lists steps in the order they apply; the order is part of the rules (does the
fig come before the doubles? is the cap applied before or after 荒番 doubles it?). Each step is a pure
function of the running value and the counted patterns, and says what it did, so a result can be explained.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Callable, Final, Mapping, NamedTuple, Sequence

from checker.params import BOOLEAN, MAX_AMOUNT, PATTERN, Params, Schema, integer, one_of


@dataclass
class Counted:
    """One counted pattern as the steps see it."""

    id: str
    name: str
    kind: str
    points: int
    count: int


@dataclass
class Running:
    """The value being built, the cap (None: no cap yet) and what each step did."""

    value: int = 0
    cap: int | None = None
    base_cap: int | None = None  # the cap before patterns raised it (one 勒), times the multipliers applied
    fixed: bool = False  # a fixed value is not changed by later doubles
    direct: bool = False  # the hand settled directly (the direct step): its 底分 may not be paid (add_base, Payments)
    explain: list[str] = field(default_factory=list)
    # the steps that did something (each says so in `explain`): (its place in the run, value before, value after)
    acted: list[tuple[int, int, int]] = field(default_factory=list)


class Acted(NamedTuple):
    """A step that did something to a hand's value: the step's name, the spec rule it implements, and the value
    before and after it (the same when it only noted something, such as a cap)."""

    step: str
    rule: str
    before: int
    after: int


StepFn = Callable[..., None]
_steps: dict[str, tuple[StepFn, Params]] = {}
STEPS: Mapping[str, tuple[StepFn, Params]] = MappingProxyType(_steps)

# Arguments the scorer gives a step itself, never a spec: the caps patterns raise (cap), the settlement's 底分
# and its counter (add_base).
ENGINE_ARGS: Final = {"cap": frozenset({"raised"}), "add_base": frozenset({"base", "counter"})}

VALUE: Final = integer(0, MAX_AMOUNT)  # a hand's value or a number of cap units (MAX_AMOUNT: a bound of the tool)
UNIT: Final = integer(1, MAX_AMOUNT)  # what one cap unit (勒) is worth


def step(name: str, params: Mapping[str, Schema] | None = None, required: tuple[str, ...] = ()):
    """Register a step under `name`, taking the keyword parameters `params`, each with its declared type
    (checker.params), of which a spec must give the `required` ones."""
    def register(fn):
        _steps[name] = (fn, Params(params, required))
        return fn
    return register


def _of(counted: Sequence[Counted], kind: str) -> list[Counted]:
    return [c for c in counted if c.kind == kind]


@step("add_hua")
def add_hua(run: Running, counted: Sequence[Counted], hand) -> None:
    """value = the sum of every hua item (base included, as its own pattern)."""
    items = [c for c in _of(counted, "hua") if c.points]
    run.value = sum(c.points * c.count for c in items)
    parts = " + ".join(f"{c.name} {c.points}" + (f"×{c.count}" if c.count > 1 else "") for c in items) or "0"
    run.explain.append(f"hua: {parts} = {run.value}")


@step("fig", {"base": PATTERN, "value": VALUE, "then_doubled": BOOLEAN}, required=("base", "value"))
def fig(run: Running, counted: Sequence[Counted], hand, base: str, value: int, then_doubled: bool = True) -> None:
    """无花果: a hand with no hua beyond the base pattern is worth `value` instead; with `then_doubled`
    false that value is final (later doubles do not change it)."""
    beyond = sum(c.points * c.count for c in _of(counted, "hua") if c.id != base)
    if beyond == 0:
        run.value = value
        run.fixed = not then_doubled
        run.explain.append(f"no hua beyond the base: fig (无花果) = {value}"
                           + ("" if then_doubled else ", not doubled"))


@step("doubles", {"most": integer(0, 64)})
def doubles(run: Running, counted: Sequence[Counted], hand, most: int | None = None) -> None:
    """value × 2^(number of doubles); with `most`, no more than that many doubles count."""
    items = _of(counted, "double")
    n = sum(c.points * c.count for c in items)
    if most is not None and n > most:
        run.explain.append(f"{n} doubles, of which at most {most} count")
        n = most
    if not n:
        return
    if run.fixed:
        run.explain.append(f"{n} double(s) do not change the fixed value")
        return
    before = run.value
    run.value = before * 2 ** n
    names = ", ".join(f"{c.name} {c.points}" for c in items)
    run.explain.append(f"doubles: {names} = {n}; {before} × 2^{n} = {run.value}")


def run_steps(steps, counted: Sequence[Counted], hand) -> Running:
    """Run the steps `(function, parameters)` in order; `Running.acted` records those that did something."""
    run = Running()
    for i, (fn, params) in enumerate(steps):
        said, before = len(run.explain), run.value
        fn(run, counted, hand, **params)
        if len(run.explain) > said:
            run.acted.append((i, before, run.value))
    return run


@step("direct", {"unit": UNIT, "final": BOOLEAN}, required=("unit",))
def direct(run: Running, counted: Sequence[Counted], hand, unit: int, final: bool = False) -> None:
    """A hand with a direct settlement (清一色 1勒 …) is worth its largest such value, in cap units × `unit`;
    with `final`, later doubles (番) do not change it (multipliers such as 荒番 still do)."""
    items = _of(counted, "direct")
    if items:
        best = max(items, key=lambda c: c.points)
        run.value = best.points * unit
        run.fixed = final
        run.direct = True
        run.explain.append(f"settles directly: {best.name} {best.points} × {unit} = {run.value}"
                           + (", not doubled by 番" if final else ""))


@step("add_base", {"applies": BOOLEAN, "on_direct": BOOLEAN})
def add_base(run: Running, counted: Sequence[Counted], hand, applies: bool = True, on_direct: bool = True,
             base: int = 0, counter: str = "") -> None:
    """底分 enters the value here (where the step stands: before the doubles, or inside the cap) when `applies`:
    the hand's `counter` if it carries it, else `base` (both the settlement's, handed over by the scorer). With
    `on_direct` false a hand the direct step settled carries none (直接结算为N个勒子 read as the whole settlement)."""
    if not applies:
        return
    if run.direct and not on_direct:
        run.explain.append("base (底分) not added: a direct settlement carries none")
        return
    amount = hand.counter(counter, base) if counter else base
    before = run.value
    run.value = before + amount
    run.explain.append(f"base (底分) {amount} added: {before} + {amount} = {run.value}")


@step("cap", {"base": VALUE, "unit": UNIT}, required=("base", "unit"))
def cap(run: Running, counted: Sequence[Counted], hand, base: int, unit: int, raised=None) -> None:
    """The hand's cap: `base` cap units, raised to the largest cap a counted pattern brings (its `cap`,
    or a direct pattern's own value), times `unit`."""
    raised = raised or {}
    candidates = [(base, "base")] + [(raised[c.id], c.name) for c in counted if c.id in raised]
    units, why = max(candidates, key=lambda x: x[0])
    run.cap = units * unit
    run.base_cap = base * unit
    run.explain.append(f"cap: {units} × {unit} = {run.cap}" + ("" if why == "base" else f" ({why})"))


@step("multiply", {"cap": one_of("always", "when_reached")})
def multiply(run: Running, counted: Sequence[Counted], hand, cap: str = "always") -> None:
    """Multipliers (荒番, 开宝) multiply the value and the cap; with `cap: when_reached` the cap only when the
    value had reached it before that multiplier."""
    for c in _of(counted, "multiplier"):
        factor = c.points ** c.count
        reached = run.cap is not None and run.value >= run.cap
        run.value *= factor
        if run.cap is not None and (cap == "always" or reached):
            run.cap *= factor
            run.base_cap *= factor
        run.explain.append(f"{c.name}: × {factor} → value {run.value}" +
                           ("" if run.cap is None else f", cap {run.cap}"))


@step("lift", {"to": one_of("hand_cap", "one_cap_unit")})
def lift(run: Running, counted: Sequence[Counted], hand, to: str = "hand_cap") -> None:
    """A lifting pattern (杠开, 大吊车): with `to: hand_cap` a hand below its cap is lifted to the cap (and
    one at or above it keeps its value); with `to: one_cap_unit` the hand is worth exactly one cap unit
    (one 勒, times the multipliers applied) whatever its value."""
    items = _of(counted, "lift")
    if not items or run.cap is None or run.base_cap is None:  # the cap step sets both
        return
    if to == "one_cap_unit":
        run.explain.append(f"{items[0].name}: {run.value} → one cap unit {run.base_cap}")
        run.value = run.base_cap
    elif run.value < run.cap:
        run.explain.append(f"{items[0].name}: {run.value} → the cap {run.cap}")
        run.value = run.cap


@step("limit")
def limit(run: Running, counted: Sequence[Counted], hand) -> None:
    """The value never exceeds the cap."""
    if run.cap is not None and run.value > run.cap:
        run.explain.append(f"capped: {run.value} → {run.cap}")
        run.value = run.cap


@step("outer_limit", {"units": VALUE, "unit": UNIT, "applies": BOOLEAN, "per": one_of("share", "payer"),
                       "bounds": one_of("value", "payment")},
      required=("units", "unit"))
def outer_limit(run: Running, counted: Sequence[Counted], hand, units: int, unit: int, applies: bool = True,
                per: str = "share", bounds: str = "value") -> None:
    """A limit over everything (单局封顶): with `per: share` the value never exceeds `units` × `unit`; with
    `per: payer` the value is left as it is and the settlement bounds what each payer loses in the hand (the
    scorer hands it the limit when binding). With `bounds: payment` the limit takes the 底分 in too: the value is
    left as it is and the settlement bounds each share (`per: share`) or each payer's whole payment (`per:
    payer`), 底分 included."""
    top = units * unit
    if applies and (per == "payer" or bounds == "payment"):
        if run.value > top:
            whose = "each payer's whole loss" if per == "payer" else "each share"
            run.explain.append(f"single-hand limit {top}: bounds {whose}"
                               f"{', 底分 included' if bounds == 'payment' else ''}, not the value")
        return
    if applies and run.value > top:
        run.explain.append(f"single-hand limit: {run.value} → {top}")
        run.value = top
