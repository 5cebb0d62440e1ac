"""Hands that two rulesets, or two shapes of one ruleset, decide differently.

- `cross-variant`: the same hand (its context carried over: flags and counters the other ruleset lacks left
  out, the knock it requires given) wins under one ruleset and may not under the other: where the documents
  decide differently (seven pairs, dragons as flowers, minimum values), with the smallest such hand.
- `gap`: a shape a ruleset's document excludes (it is not among its winning shapes, and another ruleset wins
  with it) that its scorer still lets win, because the same tiles also form a shape it allows: the document
  does not say whether the exclusion covers such a hand.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any

from checker import tiles as T
from checker.case import CaseRunner
from checker.engine import load_ruleset
from checker.engine.shapes import SHAPES
from checker.hunt.findings import Finding, statements_naming
from checker.hunt.options import _search, outcome
from checker.spec import Ruleset, options_text
from checker.spec.bind import bind
from checker.spec.roles import roles


def carried_over(data: Mapping[str, Any], source: Ruleset, target: Ruleset) -> dict[str, Any] | None:
    """The hand as `target` would see it: flags and counters it lacks left out, the flags its win requires
    (the knock) given; None when its tiles cannot be a hand there (dragons are flowers under `target`)."""
    if target.dragons_as_flowers and not source.dragons_as_flowers:
        tiles = list(T.parse_tiles(data.get("concealed", ""))) + list(T.parse_tiles(data["win_tile"]))
        for m in data.get("melds") or []:
            tiles += list(T.parse_tiles(m["tiles"]))
        if any(T.is_dragon(t) for t in tiles):
            return None
    if source.dragons_as_flowers and not target.dragons_as_flowers:
        flowers = data.get("flowers") or ""
        if any(T.is_dragon(t) for t in T.parse_tiles(flowers if isinstance(flowers, str) else "".join(flowers))):
            return None
    flags = {k: v for k, v in (data.get("flags") or {}).items() if k in target.flags}
    for required in target.win.required_flags:
        flags[required] = True
    counters = {k: v for k, v in (data.get("counters") or {}).items() if k in target.counters}
    out = {**data, "flags": flags, "counters": counters}
    melds = []
    for m in data.get("melds") or []:
        melds.append({k: v for k, v in m.items() if k != "after_knock" or roles(target).knocked in target.flags})
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

    witness = _search(strategy, parts, examples, seed, first)
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

    witness = _search(strategy, wins, examples, seed, ruleset)
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
        counts = tuple(tiles.count(t) for t in range(T.NUM_TILE_TYPES))
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


def passed_tile_readings(ruleset: Ruleset) -> list[dict[str, Any]]:
    """The ruleset's readings of a passed winning tile: its defaults first, then each other value of each option
    that reads one (漏胡, forgo-then-reclaim, a knocked player's missed win)."""
    out: list[dict[str, Any]] = [{}]
    for oid in passed_tile_options(ruleset):
        option = ruleset.options[oid]
        out += [{oid: v} for v in option.other_values()]
    return out


def hunt_cross_scene(first: Ruleset, second: Ruleset, scenario: str, strategy: Any, examples: int,
                     seed: int) -> Finding | None:
    """The shortest scene (checker.hunt.scenarios) whose last event one ruleset allows and the other refuses by
    the rule the scene is about (`scene_rules`): a win on a passed tile come again (001's 漏胡, 000's
    forgo-then-reclaim), or a second win on one discard (一炮多响). Under both rulesets' default readings if
    they part there, else under the first pair of their passed-tile readings that does (named in the finding)."""
    from checker.hunt.procedure import judged
    from checker.hunt.scenarios import SCENE_WORDS, build

    def verdicts(data: Mapping[str, Any], mine: Mapping[str, Any], theirs: Mapping[str, Any]) -> Any:
        built = build(first.id, scenario, data)
        if built is None:
            return None
        header, events = built
        return (header, judged({**header, "options": dict(mine)}, events),
                judged({**header, "ruleset": second.id, "options": dict(theirs)}, events), events)

    deciding = scene_rules(scenario, first, second)
    readings = (passed_tile_readings(first), passed_tile_readings(second)) if scenario in PASSED_TILE_SCENES \
        else ([{}], [{}])
    for mine in readings[0]:
        for theirs in readings[1]:
            def parts(data: Mapping[str, Any]) -> bool:
                got = verdicts(data, mine, theirs)
                if got is None:
                    return False
                _, a, b, events = got
                if sorted((a["verdict"], b["verdict"])) != ["illegal", "legal"]:
                    return False
                refused = a if a["verdict"] == "illegal" else b
                return refused.get("event") == len(events) - 1 and str(refused.get("rule")) in deciding

            witness = _search(strategy, parts, examples, seed)
            if witness is not None:
                return _scene_finding(first, second, scenario, SCENE_WORDS[scenario], mine, theirs,
                                      verdicts(witness, mine, theirs))
    return None


def scene_rules(scenario: str, first: Ruleset, second: Ruleset) -> set[str]:
    """The refusals a cross scene is about: for a passed-tile scene the passed-tile entries and the options they
    read; for 一炮多响 the one-winner-per-discard entry."""
    if scenario in PASSED_TILE_SCENES:
        return set(PASSED_TILE_RULES) | {f"option.{o}" for o in passed_tile_options(first) +
                                         passed_tile_options(second)}
    return {"procedure.multiple_winners"}


def several_winners_part(first: Ruleset, second: Ruleset) -> bool:
    """Whether the two rulesets settle a second win on one discard differently (`procedure.multiple_winners`),
    and the two-winner scene, whose players knock, can be played under both (both require the knock)."""
    a, b = bind(first).procedure, bind(second).procedure
    return a.multiple_winners != b.multiple_winners and a.knock_required and b.knock_required


def _scene_finding(first: Ruleset, second: Ruleset, scenario: str, words: str, mine: Mapping[str, Any],
                   theirs: Mapping[str, Any], got: Any) -> Finding:
    header, a, b, events = got
    deal = {k: v for k, v in header.items() if k not in ("game", "version", "ruleset")}
    refused = a if a["verdict"] == "illegal" else b

    def named(rs: Ruleset, opts: Mapping[str, Any]) -> str:
        return rs.id + (" with " + options_text(opts) if opts else "")

    if scenario in PASSED_TILE_SCENES:
        rules = [refused["rule"], "procedure.lou_hu", "procedure.forgo_then_reclaim"]
        why = ("the hand the waiting player wins with is one both let win, so the verdicts part on the passed "
               "tile alone.")
        verb = "judge the win differently"
    else:
        rules = [refused["rule"], "procedure.multiple_winners"]
        why = ("both winning hands are ones both rulesets let win, so the verdicts part on the second win on one "
               "discard alone: one document lets several players win on a discard, the other has one winner.")
        verb = "judge the second win differently"
    return Finding(
        ruleset=first.id, kind="cross-variant", key=f"cross-variant.{second.id}.{scenario}",
        title=f"{words}: {named(first, mine)} and {named(second, theirs)} {verb} ({refused['rule']})",
        rules=[refused["rule"]] + [f"option.{k}" for k in list(mine) + list(theirs)],
        witness={"ruleset": first.id, "options": dict(mine), "kind": "procedure", "input": {**deal, "events": events}},
        outcomes=[{"reading": named(first, mine), "means": first.title, "result": a},
                  {"reading": named(second, theirs), "means": second.title, "result": b,
                   "case": {"ruleset": second.id, "options": dict(theirs), "kind": "procedure",
                            "input": {**deal, "events": events}}}],
        method="hypothesis",
        statements=statements_naming(first, rules)[:3] + statements_naming(second, rules)[:3],
        note="The same deal and the same events under each ruleset" + (
            "'s default readings" if not mine and not theirs else " (the readings named; under the defaults "
            "they agree on every scene searched)") + ": " + why)


# the scenes about a passed winning tile (the others: two_win_on_one_discard, about 一炮多响)
PASSED_TILE_SCENES = ("forgone_then_won", "again_from_the_same_seat", "drawn_by_the_waiting_player")
# the procedure entries that rule on a passed winning tile: 001's 漏胡, 000's forgo-then-reclaim, and the knock
# (a knocked player's missed win); the options they read are taken from the spec (`passed_tile_options`)
PASSED_TILE_RULES = ("procedure.lou_hu", "procedure.forgo_then_reclaim", "procedure.knock_locks_hand")
# the TableRules fields 001's 漏胡, 000's forgo-then-reclaim and the knock are bound into, in that order
PASSED_TILE_FIELDS = ("lou_hu", "forgo", "knock")


def passed_tile_options(ruleset: Ruleset) -> list[str]:
    """The options the ruleset's passed-tile entries read: those whose other values change what the bound
    procedure rules on them (its `lou_hu`, `forgo` and `knock` fields), in the order of those entries."""
    def ruled(reading: Mapping[str, Any]) -> tuple[tuple, ...]:
        rules = bind(ruleset, reading).procedure
        return tuple(tuple(getattr(rules, f.name) for f in fields(rules) if f.name.startswith(prefix))
                     for prefix in PASSED_TILE_FIELDS)

    plain = ruled({})
    found: list[tuple[int, str]] = []
    for oid, option in ruleset.options.items():
        changed = [i for v in option.other_values() for i, part in enumerate(ruled({oid: v})) if part != plain[i]]
        if option.read_by == "table" and changed:
            found.append((min(changed), oid))
    return [oid for _, oid in sorted(found, key=lambda f: f[0])]
