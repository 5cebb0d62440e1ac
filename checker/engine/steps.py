"""The steps that turn counted patterns into a hand's value under a hua (花) ruleset.

A spec's `scoring.steps` lists steps in the order they apply; the order is part of the rules (does the
fig come before the doubles? is the cap applied before or after 荒番 doubles it?). Each step is a pure
function of the running value and the counted patterns, and says what it did, so a result can be explained.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Callable, Mapping, Sequence


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
    fixed: bool = False  # a fixed value is not changed by later doubles
    explain: list[str] = field(default_factory=list)


StepFn = Callable[..., None]
_steps: dict[str, tuple[StepFn, frozenset[str]]] = {}
STEPS: Mapping[str, tuple[StepFn, frozenset[str]]] = MappingProxyType(_steps)


def step(name: str, params: tuple[str, ...] = ()):
    def register(fn):
        _steps[name] = (fn, frozenset(params))
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


@step("fig", ("base", "value", "then_doubled"))
def fig(run: Running, counted: Sequence[Counted], hand, base: str, value: int, then_doubled: bool = True) -> None:
    """无花果: a hand with no hua beyond the base pattern is worth `value` instead; with `then_doubled`
    false that value is final (later doubles do not change it)."""
    beyond = sum(c.points * c.count for c in _of(counted, "hua") if c.id != base)
    if beyond == 0:
        run.value = value
        run.fixed = not then_doubled
        run.explain.append(f"no hua beyond the base: fig (无花果) = {value}"
                           + ("" if then_doubled else ", not doubled"))


@step("doubles")
def doubles(run: Running, counted: Sequence[Counted], hand) -> None:
    """value × 2^(number of doubles)."""
    items = _of(counted, "double")
    n = sum(c.points * c.count for c in items)
    if not n:
        return
    if run.fixed:
        run.explain.append(f"{n} double(s) do not change the fixed fig")
        return
    before = run.value
    run.value = before * 2 ** n
    names = ", ".join(f"{c.name} {c.points}" for c in items)
    run.explain.append(f"doubles: {names} = {n}; {before} × 2^{n} = {run.value}")


def run_steps(steps, counted: Sequence[Counted], hand) -> Running:
    run = Running()
    for fn, params in steps:
        fn(run, counted, hand, **params)
    return run
