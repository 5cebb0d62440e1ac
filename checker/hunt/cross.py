"""Hands that two rulesets, or two shapes of one ruleset, decide differently.

- `cross-variant`: the same hand (its context carried over: flags and counters the other ruleset lacks left
  out, the knock it requires given) wins under one ruleset and may not under the other: where the documents
  decide differently (seven pairs, dragons as flowers, minimum values), with the smallest such hand.
- `gap`: a shape a ruleset's document excludes (it is not among its winning shapes, and another ruleset wins
  with it) that its scorer still lets win, because the same tiles also form a shape it allows: the document
  does not say whether the exclusion covers such a hand.
"""
from __future__ import annotations

from typing import Any, Mapping

from checker import tiles as T
from checker.case import CaseRunner
from checker.engine import load_ruleset
from checker.engine.shapes import SHAPES
from checker.hunt.findings import Finding, statements_naming
from checker.hunt.options import _search, outcome
from checker.spec import Ruleset


def carried_over(data: Mapping[str, Any], source: Ruleset, target: Ruleset) -> dict[str, Any] | None:
    """The hand as `target` would see it: flags and counters it lacks left out, the flags its win requires
    (the knock) given; None when its tiles cannot be a hand there (dragons are flowers under `target`)."""
    if target.tiles.get("dragons_as_flowers") and not source.tiles.get("dragons_as_flowers"):
        tiles = list(T.parse_tiles(data.get("concealed", ""))) + list(T.parse_tiles(data["win_tile"]))
        for m in data.get("melds") or []:
            tiles += list(T.parse_tiles(m["tiles"]))
        if any(31 <= t <= 33 for t in tiles):
            return None
    if source.tiles.get("dragons_as_flowers") and not target.tiles.get("dragons_as_flowers"):
        flowers = data.get("flowers") or ""
        if any(31 <= t <= 33 for t in T.parse_tiles(flowers if isinstance(flowers, str) else "".join(flowers))):
            return None
    flags = {k: v for k, v in (data.get("flags") or {}).items() if k in target.flags}
    for required in target.win.requires_flags:
        flags[required[0]] = True
    counters = {k: v for k, v in (data.get("counters") or {}).items() if k in target.counters}
    out = {**data, "flags": flags, "counters": counters}
    melds = []
    for m in data.get("melds") or []:
        melds.append({k: v for k, v in m.items() if k != "after_knock" or "knocked" in target.flags})
    out["melds"] = melds
    return out


def hunt_cross(runner: CaseRunner, first: Ruleset, second: Ruleset, strategy: Any, examples: int,
               seed: int) -> Finding | None:
    """The smallest hand winning under `first` that `second` does not let win (its hand accepted there)."""

    def parts(data: Mapping[str, Any]) -> bool:
        there = carried_over(data, first, second)
        if there is None:
            return False
        here = outcome(runner, first.id, {}, data)
        other = outcome(runner, second.id, {}, there)
        if not here.get("valid") or other.get("valid"):
            return False
        return not str(other.get("error", "")).startswith(("input.", "context.", "tiles.", "procedure."))

    witness = _search(strategy, parts, examples, seed)
    if witness is None:
        return None
    there = carried_over(witness, first, second)
    assert there is not None
    here, other = outcome(runner, first.id, {}, witness), outcome(runner, second.id, {}, there)
    rules = [r for r in [str(other.get("error", ""))] if r in second.rules or r == "win.shape"]
    return Finding(
        ruleset=first.id, kind="cross-variant", key=f"cross-variant.{second.id}",
        title=f"a hand that wins under {first.id} may not win under {second.id} ({other.get('error')})",
        rules=rules, witness={"ruleset": first.id, "options": {}, "kind": "score", "input": dict(witness)},
        outcomes=[{"reading": first.id, "means": first.title, "result": here},
                  {"reading": second.id, "means": second.title, "result": other,
                   "case": {"ruleset": second.id, "options": {}, "kind": "score", "input": there}}],
        method="hypothesis",
        statements=statements_naming(first, ["win.shape"] + [f"shape.{s.id}" for s in first.win.shapes])[:2]
        + statements_naming(second, rules + [f"shape.{s.id}" for s in second.win.shapes])[:3],
        note=f"The same tiles, melds and way of winning; flags and counters {second.id} does not know are left "
             f"out, and the knock it requires to win is given.")


def hunt_excluded_shape(runner: CaseRunner, ruleset: Ruleset, shape: str, strategy: Any, examples: int,
                        seed: int) -> Finding | None:
    """A hand complete in `shape` (not among the ruleset's winning shapes) that the ruleset still lets win."""

    def wins(data: Mapping[str, Any]) -> bool:
        return bool(outcome(runner, ruleset.id, {}, data).get("valid"))

    witness = _search(strategy, wins, examples, seed)
    if witness is None:
        return None
    result = outcome(runner, ruleset.id, {}, witness)
    allowed = ", ".join(s.id for s in ruleset.win.shapes)
    rules = [f"shape.{s.id}" for s in ruleset.win.shapes]
    return Finding(
        ruleset=ruleset.id, kind="gap", key=f"gap.excluded_shape.{shape}",
        title=f"a {shape.replace('_', ' ')} hand is excluded, yet this one wins: its tiles also form an allowed "
              f"shape ({allowed})",
        rules=rules, witness={"ruleset": ruleset.id, "options": {}, "kind": "score", "input": dict(witness)},
        outcomes=[{"reading": f"the spec: the exclusion covers only the {shape.replace('_', ' ')} reading",
                   "result": result},
                  {"reading": f"the exclusion covers every hand whose tiles form {shape.replace('_', ' ')}",
                   "result": {"valid": False, "error": "win.shape"}}],
        method="hypothesis",
        note=f"The document excludes {shape.replace('_', ' ')} without saying whether a hand that is also one of "
             f"its allowed shapes is excluded with it; the spec scores the allowed reading.")


def overlap_inputs(ruleset_id: str, shape: str) -> Any:
    """Winning hands of the ruleset's regular shape (no declared melds: the excluded shapes are concealed) whose
    tiles are also complete in `shape` (the engine's own test, with its default parameters)."""
    from checker.hunt.strategies import regular_inputs, with_context

    complete = SHAPES[shape].complete

    def also(data: Mapping[str, Any]) -> bool:
        tiles = list(T.parse_tiles(data["concealed"])) + list(T.parse_tiles(data["win_tile"]))
        counts = tuple(tiles.count(t) for t in range(34))
        return not data.get("melds") and bool(complete(counts, 0))

    return with_context(regular_inputs(ruleset_id, max_melds=0), ruleset_id).filter(also)


def excluded_shapes(ruleset: Ruleset) -> list[str]:
    """Shapes another shipped ruleset wins with that this one does not list."""
    from checker.spec import available_rulesets

    own = {s.when.name for s in ruleset.win.shapes}
    others: set[str] = set()
    for rid in available_rulesets():
        if rid != ruleset.id:
            others |= {s.when.name for s in load_ruleset(rid).win.shapes}
    return sorted(s for s in others - own if s in ("seven_pairs", "thirteen_orphans", "knitted_straight",
                                                   "honors_and_knitted"))
