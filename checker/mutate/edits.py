"""One-step spec edits, made in memory on the frozen `Ruleset` (the spec file and the loaded ruleset untouched).

Each constructor returns a `Mutation` whose `edit` makes the changed ruleset: a pattern's points or counting, an exclusion
(`excludes`) or an implied, account-once link (`implies`) dropped or added, the minimum, the settlement's
base, one payer's share, a number of 承包 or 包, a pattern's cap, a scoring step's numeric parameter (a cap), an
option's default, a predicate's parameter. `neighbours(value)`
gives the values a one-step edit of a number tries when nothing says which value an engine uses.
"""
from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType
from typing import Any, Mapping

from checker.mutate.mutation import DEFAULT_FAMILY, Mutation
from checker.spec import Option, OptionRef, Pattern, Ruleset, Step, WinRefusal, value_key


def spec_said(value: Any) -> str:
    """A spec value in words: a number or text as it is, terms joined by +, a value an option chooses as
    "option X's reading" (never a Python repr)."""
    if isinstance(value, OptionRef):
        return f"option {value.option}'s reading"
    if isinstance(value, Mapping) and "option" in value:
        return f"option {value['option']}'s reading"
    if isinstance(value, (list, tuple)):
        return "+".join(spec_said(v) for v in value) if value else "nothing"
    return value_key(value)


def _with_pattern(ruleset: Ruleset, pattern_id: str, **changes: Any) -> Ruleset:
    patterns = tuple(replace(p, **changes) if p.id == pattern_id else p for p in ruleset.patterns)
    return replace(ruleset, patterns=patterns)


def _pattern(ruleset: Ruleset, pattern_id: str) -> Pattern:
    return ruleset.pattern(pattern_id)


def points(ruleset_id: str, pattern_id: str, value: int, was: Any = None) -> Mutation:
    """`pattern_id` is worth `value` (fan.PATTERN's points)."""
    def edit(ruleset: Ruleset) -> Ruleset:
        _pattern(ruleset, pattern_id)
        return _with_pattern(ruleset, pattern_id, points=value)

    before = f" (the spec: {spec_said(was)})" if was is not None else ""
    return Mutation(f"points:{pattern_id}={value}", "points", ruleset_id,
                    f"{pattern_id} is worth {value}{before}", (f"fan.{pattern_id}",), edit)


def counting(ruleset_id: str, pattern_id: str, value: str, was: str) -> Mutation:
    """`pattern_id` is counted `value` (`once`: one instance at most, `each`: every instance) where the spec says
    `was` (fan.PATTERN's counting): two flowers, or two wind pungs, counted as one."""
    def edit(ruleset: Ruleset) -> Ruleset:
        _pattern(ruleset, pattern_id)
        return _with_pattern(ruleset, pattern_id, counting=value)

    return Mutation(f"counting:{pattern_id}={value}", "counting", ruleset_id,
                    f"{pattern_id} is counted {value} (the spec: {was})", (f"fan.{pattern_id}",), edit)


def exclusion_dropped(ruleset_id: str, by: str, excluded: str) -> Mutation:
    """`by` no longer excludes `excluded`: both count when both are there."""
    def edit(ruleset: Ruleset) -> Ruleset:
        pattern = _pattern(ruleset, by)
        if excluded not in pattern.excludes:
            raise KeyError(excluded)
        return _with_pattern(ruleset, by, excludes=tuple(x for x in pattern.excludes if x != excluded))

    return Mutation(f"exclusion-dropped:{by}/{excluded}", "exclusion dropped", ruleset_id,
                    f"{by} does not exclude {excluded} (both count)", (f"fan.{by}", f"fan.{excluded}"), edit)


def conditional_exclusion_dropped(ruleset_id: str, by: str, option: str, value: Any, excluded: str) -> Mutation:
    """`by` no longer excludes `excluded` under `option=value` (one pattern of one clause of its `excludes_if`):
    both count under that reading."""
    def edit(ruleset: Ruleset) -> Ruleset:
        pattern = _pattern(ruleset, by)
        clauses, found = [], False
        for clause in pattern.excludes_if:
            if clause.when.option == option and clause.when.is_ == value and excluded in clause.excludes:
                found = True
                kept = tuple(x for x in clause.excludes if x != excluded)
                if kept:
                    clauses.append(replace(clause, excludes=kept))
            else:
                clauses.append(clause)
        if not found:
            raise KeyError(excluded)
        return _with_pattern(ruleset, by, excludes_if=tuple(clauses))

    said = value_key(value)
    return Mutation(f"exclusion-dropped-if:{by}/{excluded}/{option}={said}", "exclusion dropped", ruleset_id,
                    f"{by} does not exclude {excluded} under {option}={said} (both count)",
                    (f"fan.{by}", f"fan.{excluded}", f"option.{option}"), edit)


def exclusion_added(ruleset_id: str, by: str, excluded: str) -> Mutation:
    """`by` excludes `excluded`, which the spec lets count beside it."""
    def edit(ruleset: Ruleset) -> Ruleset:
        pattern = _pattern(ruleset, by)
        _pattern(ruleset, excluded)
        return _with_pattern(ruleset, by, excludes=pattern.excludes + (excluded,))

    return Mutation(f"exclusion-added:{by}/{excluded}", "exclusion added", ruleset_id,
                    f"{by} excludes {excluded} (the spec counts both)", (f"fan.{by}", f"fan.{excluded}"), edit)


def withheld_fans_withhold(ruleset_id: str) -> Mutation:
    """A fan another one withholds still withholds its own (principles.withheld_fans_withhold): an engine that
    keeps out every fan named beside any fan the hand holds, counted or not (Two concealed kongs, withheld by
    Three kongs, still keeping Two concealed pungs out)."""
    def edit(ruleset: Ruleset) -> Ruleset:
        if ruleset.principles.withheld_fans_withhold is True:
            raise ValueError("withheld fans already withhold")
        return replace(ruleset, principles=replace(ruleset.principles, withheld_fans_withhold=True))

    return Mutation("principle:withheld_fans_withhold=true", "exclusion added", ruleset_id,
                    "a fan another fan withholds still withholds the fans it would withhold (every fan the hand "
                    "holds, counted or not, keeps its 'not counted again' fans out)", ("principle.non_repeat",), edit)


def implied_dropped(ruleset_id: str, by: str, implied: str) -> Mutation:
    """`by` no longer implies `implied` (the account-once link): `implied` is counted again beside it."""
    def edit(ruleset: Ruleset) -> Ruleset:
        pattern = _pattern(ruleset, by)
        if implied in pattern.implies:
            return _with_pattern(ruleset, by, implies=tuple(x for x in pattern.implies if x != implied))
        if implied in pattern.implies_within:
            return _with_pattern(ruleset, by, implies_within=tuple(x for x in pattern.implies_within if x != implied))
        raise KeyError(implied)

    return Mutation(f"implied-dropped:{by}/{implied}", "implied dropped", ruleset_id,
                    f"{by} does not imply {implied} ({implied} is counted again beside it)",
                    (f"fan.{by}", f"fan.{implied}"), edit)


def implied_added(ruleset_id: str, by: str, implied: str) -> Mutation:
    """`by` implies `implied`: `implied` is not counted beside it (nor what it implies)."""
    def edit(ruleset: Ruleset) -> Ruleset:
        pattern = _pattern(ruleset, by)
        _pattern(ruleset, implied)
        return _with_pattern(ruleset, by, implies=pattern.implies + (implied,))

    return Mutation(f"implied-added:{by}/{implied}", "implied added", ruleset_id,
                    f"{by} implies {implied} ({implied} is not counted beside it)", (f"fan.{by}", f"fan.{implied}"),
                    edit)


def minimum(ruleset_id: str, value: int, was: int) -> Mutation:
    """A hand needs `value` points to win (win.minimum_points)."""
    def edit(ruleset: Ruleset) -> Ruleset:
        return replace(ruleset, win=replace(ruleset.win, minimum_points=value))

    return Mutation(f"minimum={value}", "minimum", ruleset_id,
                    f"the minimum to win is {value} (the spec: {spec_said(was)})", ("win.minimum_points",), edit)


def minimum_counts(ruleset_id: str, pattern_id: str) -> Mutation:
    """`pattern_id`'s points count toward the minimum (taken out of win.minimum_excludes: flowers counted)."""
    def edit(ruleset: Ruleset) -> Ruleset:
        if pattern_id not in ruleset.win.minimum_excludes:
            raise KeyError(pattern_id)
        kept = tuple(p for p in ruleset.win.minimum_excludes if p != pattern_id)
        return replace(ruleset, win=replace(ruleset.win, minimum_excludes=kept))

    return Mutation(f"minimum-counts:{pattern_id}", "minimum", ruleset_id,
                    f"{pattern_id} counts toward the minimum to win (the spec adds it only after the minimum)",
                    ("win.minimum_points", f"fan.{pattern_id}"), edit)


def refusal_added(ruleset_id: str, win_by: tuple[str, ...] = (), flowers: str | None = None,
                  without_flag: str | None = None, shape: str | None = None) -> Mutation:
    """A win refused by its context (a win.refused_when entry the spec does not have): the way of winning,
    the flowers (`none` or `some`), a flag missing, the win shape the hand is read in (a win.shapes id)."""
    parts = [*win_by, *([{"none": "no_flowers", "some": "with_flowers"}[flowers]] if flowers else []),
             *([f"without_{without_flag}"] if without_flag else []), *([f"shape_{shape}"] if shape else [])]
    rule = "win.refused." + ".".join(parts)
    refusal = WinRefusal(rule, "", tuple(win_by), flowers, without_flag, shape)

    def edit(ruleset: Ruleset) -> Ruleset:
        return replace(ruleset, win=replace(ruleset.win, refused_when=ruleset.win.refused_when + (refusal,)))

    return Mutation(f"refusal:{'+'.join(parts)}", "refusal", ruleset_id, refusal.words(), (), edit)


def check_dropped(ruleset_id: str, check_id: str, message: str) -> Mutation:
    """A hand check the spec makes (hand_checks, by its id: the rule a refusal names) not made: hands it refuses
    are scored."""
    def edit(ruleset: Ruleset) -> Ruleset:
        return replace(ruleset, hand_checks=tuple(hc for hc in ruleset.hand_checks if hc.id != check_id))

    return Mutation(f"check-dropped:{check_id}", "check dropped", ruleset_id,
                    f"the check {check_id} is not made ({message}): the hands it refuses are scored", (check_id,), edit)


def flag_checks_dropped(ruleset_id: str, flag: str, checks: tuple[str, ...]) -> Mutation:
    """No hand check of a flag is made (`checks`, every check the spec makes of it: that the hand has what the
    flag needs, that it was won the way the flag needs): a hand with the flag where it does not fit is scored,
    the flag read where it counts."""
    def edit(ruleset: Ruleset) -> Ruleset:
        return replace(ruleset, hand_checks=tuple(hc for hc in ruleset.hand_checks if hc.id not in checks))

    return Mutation(f"flag-checks-dropped:{flag}", "check dropped", ruleset_id,
                    f"no check of the {flag} flag is made ({', '.join(checks)}): a hand with the flag where it does "
                    f"not fit is scored, not refused", checks, edit)


def base(ruleset_id: str, value: int, was: int) -> Mutation:
    """The settlement's base is `value` (settlement.base)."""
    def edit(ruleset: Ruleset) -> Ruleset:
        return replace(ruleset, settlement=replace(ruleset.settlement, base=value))

    return Mutation(f"base={value}", "base", ruleset_id, f"the base is {value} (the spec: {spec_said(was)})",
                    ("settlement.base",), edit)


def share(ruleset_id: str, win_kind: str, payer: str, value: Any, was: Any) -> Mutation:
    """On a `win_kind` win, `payer` pays `value` (a number of shares, or a list of terms)."""
    def edit(ruleset: Ruleset) -> Ruleset:
        payers = {kind: dict(roles) for kind, roles in ruleset.settlement.payers.items()}
        if payer not in payers.get(win_kind, {}):
            raise KeyError(payer)
        payers[win_kind][payer] = value
        frozen = MappingProxyType({kind: MappingProxyType(roles) for kind, roles in payers.items()})
        return replace(ruleset, settlement=replace(ruleset.settlement, payers=frozen))

    shown = "+".join(value) if isinstance(value, (list, tuple)) else value
    return Mutation(f"share:{win_kind}/{payer}={shown}", "settlement share", ruleset_id,
                    f"on a {win_kind.replace('_', ' ')} win, {payer.replace('_', ' ')} pays {shown} "
                    f"(the spec: {spec_said(was)})",
                    (f"settlement.{win_kind}",), edit)


def pattern_cap(ruleset_id: str, pattern_id: str, value: int, was: int) -> Mutation:
    """`pattern_id` raises the hand's cap to `value` cap units (its `cap`)."""
    def edit(ruleset: Ruleset) -> Ruleset:
        ruleset.pattern(pattern_id)
        return replace(ruleset, patterns=tuple(replace(p, cap=value) if p.id == pattern_id else p
                                               for p in ruleset.patterns))

    return Mutation(f"cap:{pattern_id}={value}", "cap", ruleset_id,
                    f"{pattern_id} raises the cap to {value} units (the spec: {spec_said(was)})", (f"fan.{pattern_id}",), edit)


def _with_section(ruleset: Ruleset, section: str, terms: Mapping[str, Any]) -> Ruleset:
    """The ruleset with its settlement's `section` (`contract` or `liability`) holding `terms`."""
    frozen = MappingProxyType(dict(terms))
    settlement = replace(ruleset.settlement, contract=frozen) if section == "contract" else \
        replace(ruleset.settlement, liability=frozen)
    return replace(ruleset, settlement=settlement)


def settlement_number(ruleset_id: str, section: str, key: str, value: int, was: int) -> Mutation:
    """The settlement's `section` (`contract`: 承包; `liability`: 包) gives `key` the number `value`."""
    def edit(ruleset: Ruleset) -> Ruleset:
        current = dict(getattr(ruleset.settlement, section))
        if key not in current:
            raise KeyError(key)
        current[key] = value
        return _with_section(ruleset, section, current)

    what = {"contract": "承包 (contract)", "liability": "包 (liability)"}.get(section, section)
    return Mutation(f"{section}:{key}={value}", section, ruleset_id,
                    f"in {what}, {key.replace('_', ' ')} is {value} (the spec: {spec_said(was)})", (f"settlement.{section}",),
                    edit)


def settlement_pattern_dropped(ruleset_id: str, section: str, pattern: str) -> Mutation:
    """The settlement's `section` (`contract`: 承包; `liability`: 包) no longer applies to hands of `pattern` (one
    of its `patterns` left out): such a hand pays as any other."""
    def edit(ruleset: Ruleset) -> Ruleset:
        current = dict(getattr(ruleset.settlement, section))
        patterns = tuple(current.get("patterns") or ())
        if pattern not in patterns:
            raise KeyError(pattern)
        current["patterns"] = tuple(p for p in patterns if p != pattern)
        return _with_section(ruleset, section, current)

    what = {"contract": "承包 (contract)", "liability": "包 (liability)"}.get(section, section)
    return Mutation(f"{section}:patterns-{pattern}", section, ruleset_id,
                    f"{what} does not apply to {pattern} (a hand of it pays as any other)",
                    (f"settlement.{section}", f"fan.{pattern}"), edit)


def step_parameter(ruleset_id: str, index: int, step: Step, name: str, value: int) -> Mutation:
    """Scoring step `index` (e.g. the cap) takes `value` for its parameter `name`."""
    def edit(ruleset: Ruleset) -> Ruleset:
        steps = list(ruleset.scoring.steps)
        steps[index] = replace(steps[index], params=MappingProxyType({**steps[index].params, name: value}))
        return replace(ruleset, scoring=replace(ruleset.scoring, steps=tuple(steps)))

    return Mutation(f"step:{index}:{step.name}.{name}={value}", "cap" if "cap" in step.name or "limit" in step.name
                    else "scoring step", ruleset_id,
                    f"the {step.name} step's {name} is {value} (the spec: {spec_said(step.params.get(name))})",
                    (step.rule,) if step.rule else (), edit)


def step_dropped(ruleset_id: str, index: int, step: Step) -> Mutation:
    """Scoring step `index` is not made (the limit: a value above the cap is left as it is); diagnosis asks it of
    a case to learn whether that step changed its value (checker.diagnose.notation, a cap written as an element)."""
    def edit(ruleset: Ruleset) -> Ruleset:
        steps = ruleset.scoring.steps[:index] + ruleset.scoring.steps[index + 1:]
        return replace(ruleset, scoring=replace(ruleset.scoring, steps=steps))

    return Mutation(f"step:{index}:{step.name}-dropped", "scoring step", ruleset_id,
                    f"the {step.name} step is not made", (step.rule,) if step.rule else (), edit)


def limit_takes_base(ruleset_id: str, index: int, step: Step) -> Mutation:
    """The single-hand limit (scoring step `index`, outer_limit) bounds the payment, 底分 included, where the spec
    bounds the hand's value and adds the 底分 on top: each share, or each payer's whole payment (its `per`)."""
    def edit(ruleset: Ruleset) -> Ruleset:
        steps = list(ruleset.scoring.steps)
        if steps[index].name != step.name:
            raise KeyError(step.name)
        steps[index] = replace(steps[index], params=MappingProxyType({**steps[index].params, "bounds": "payment"}))
        return replace(ruleset, scoring=replace(ruleset.scoring, steps=tuple(steps)))

    return Mutation(f"step:{index}:{step.name}.bounds=payment", "cap", ruleset_id,
                    f"the single-hand limit bounds what is paid, 底分 included (the spec: it bounds the hand's value, "
                    f"底分 paid on top)", (step.rule,) if step.rule else (), edit)


def read_as_kind(ruleset_id: str, pattern_id: str, kind: str, points: int, was: str) -> Mutation:
    """`pattern_id` read as another kind of item: a multiplier (×N on the value and the cap, after the doubles
    and the cap) read as doubles inside the cap (×2^d), or the reverse; `points` its worth as that kind."""
    def edit(ruleset: Ruleset) -> Ruleset:
        if _pattern(ruleset, pattern_id).kind != was:
            raise KeyError(pattern_id)
        return _with_pattern(ruleset, pattern_id, kind=kind, points=points)

    said = {"double": f"{points} double{'s' if points != 1 else ''} (inside the cap)",
            "multiplier": f"a multiplier ×{points} (on the value and the cap)"}
    return Mutation(f"kind:{pattern_id}={kind}", "kind", ruleset_id,
                    f"{pattern_id} counts as {said.get(kind, kind)} (the spec: a {was})", (f"fan.{pattern_id}",), edit)


def kind_swaps(ruleset_id: str, pattern: Pattern) -> list[Mutation]:
    """A multiplier read as doubles (×2^d as d doubles, inside the cap), or doubles as a multiplier."""
    points = pattern.points
    if not isinstance(points, int) or isinstance(points, bool) or points <= 0:
        return []
    if pattern.kind == "multiplier" and points & (points - 1) == 0:
        return [read_as_kind(ruleset_id, pattern.id, "double", points.bit_length() - 1, pattern.kind)]
    if pattern.kind == "double" and points <= 6:
        return [read_as_kind(ruleset_id, pattern.id, "multiplier", 2 ** points, pattern.kind)]
    return []


def doubles_capped(ruleset_id: str, index: int, step: Step, most: int) -> Mutation:
    """At most `most` doubles count (the doubles step at `index` given a `most`)."""
    def edit(ruleset: Ruleset) -> Ruleset:
        steps = list(ruleset.scoring.steps)
        if steps[index].name != step.name:
            raise KeyError(step.name)
        steps[index] = replace(steps[index], params=MappingProxyType({**steps[index].params, "most": most}))
        return replace(ruleset, scoring=replace(ruleset.scoring, steps=tuple(steps)))

    was = step.params.get("most")
    return Mutation(f"doubles-at-most:{most}", "step parameter", ruleset_id,
                    f"at most {most} doubles count (the spec: {'no cap' if was is None else spec_said(was)})",
                    (step.rule,) if step.rule else (), edit)


def neighbours(value: int) -> list[int]:
    """The values a one-step edit of a whole number tries: one either side, half, double, and nothing."""
    found = [value - 1, value + 1, value * 2, value // 2, 0]
    return [v for v in dict.fromkeys(found) if v != value and v >= 0]


def option_default(ruleset_id: str, option: Option, value: Any) -> Mutation:
    """`option`'s default is `value`: a case that does not name the option is scored under that reading, one
    that names it as before (an engine that follows another reading when a case leaves the option out)."""
    def edit(ruleset: Ruleset) -> Ruleset:
        current = ruleset.options[option.id]
        if not any(v == value and type(v) is type(value) for v in current.values):
            raise ValueError(f"option {option.id!r} has no value {value!r}")
        changed = replace(current, default=value)
        return replace(ruleset, options=MappingProxyType({**ruleset.options, option.id: changed}))

    means = option.readings.get(value_key(value), "")
    return Mutation(f"default:{option.id}={value_key(value)}", DEFAULT_FAMILY, ruleset_id,
                    f"a case that leaves {option.id} out is read as {option.id}={value_key(value)}"
                    + (f" ({means})" if means else "") + f"; one that names it, as it says (the spec's default: "
                    f"{value_key(option.default)})", (f"option.{option.id}",), edit,
                    defaults=MappingProxyType({option.id: value}), edit_is_defaults=True)


def predicate_parameter(ruleset_id: str, predicate: str, name: str, value: Any, patterns: tuple[str, ...],
                        meaning: str = "") -> Mutation:
    """Every pattern decided by `predicate` is decided with its parameter `name` set to `value` (the patterns that
    choose it by an option keep their choice): an engine that reads one rule of a family of fans otherwise, e.g.
    a pung completed by a discard counted as concealed in every concealed-pungs fan. `meaning`: what the
    parameter set true means, as a rule (the words say it, or that it no longer holds)."""
    def edit(ruleset: Ruleset) -> Ruleset:
        changed = []
        for p in ruleset.patterns:
            given = p.when.params.get(name)
            if p.when.name == predicate and not isinstance(given, OptionRef):
                p = replace(p, when=replace(p.when, params=MappingProxyType({**p.when.params, name: value})))
            changed.append(p)
        return replace(ruleset, patterns=tuple(changed))

    said = (f": {meaning}" if value is True else f": not so that {meaning}") if meaning else ""
    return Mutation(f"predicate:{predicate}.{name}={value_key(value)}", "predicate parameter", ruleset_id,
                    f"{', '.join(patterns)} decided with {name}={value_key(value)} ({predicate}){said}",
                    tuple(f"fan.{p}" for p in patterns), edit)


def where(m: Mutation, option: Option, value: Any) -> Mutation:
    """`m` only where a case holds `option` at `value` (named, or by the spec's default): an engine that departs on
    one reading of an option and follows the rules on the others (its code for the option's other value reads the
    hand as the rules do)."""
    return replace(m, id=f"{m.id} where {option.id}={value_key(value)}",
                   words=f"{m.words}, where {option.id} is {value_key(value)} (a case naming another value is read "
                         f"as the rules read it)",
                   rules=(*m.rules, f"option.{option.id}"),
                   where=MappingProxyType({**m.where, option.id: value}), unconditional=m.unconditional or m)
