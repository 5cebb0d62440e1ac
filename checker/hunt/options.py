"""Differential hunting over scoring options: for each option of a spec and each reading other than the default,
the smallest hand Hypothesis can find whose result differs between the two readings (whether it may win, its
value, its payments): an `ambiguity` of the document, decided in the spec by that option. Pairs of options are
hunted too: a hand whose result changes only when both leave their defaults.

Witnesses come from checker.hunt.strategies (winning hands with a context), found and shrunk by
`hypothesis.find` with a seeded random, so a seed gives the same witnesses.
"""
from __future__ import annotations

import json
import math
import random
import time
from typing import Any, Callable, Mapping, Sequence

from hypothesis import HealthCheck, Phase, find, settings
from hypothesis.errors import NoSuchExample, Unsatisfiable

from checker.case import CaseRunner, hand_from_input, readings_of
from checker.engine import HandError
from checker.hunt.findings import Finding
from checker.hunt.shrink import plainest, smaller
from checker.spec import Ruleset, options_text, value_key


def outcome(runner: CaseRunner, ruleset_id: str, options: Mapping[str, Any], data: Mapping[str, Any]) -> dict[str, Any]:
    """The scorer's result for a case input under `options`, in the case `expect` shape."""
    scorer = runner.scorer(ruleset_id, dict(options))
    try:
        hand = hand_from_input(data, scorer)
    except HandError as exc:
        return {"valid": False, "error": exc.rule}
    result = scorer.score(hand).as_expect()
    return dict(readings_of(result)[0])


def differs(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """Whether two results part where a player would notice: may win, value, or payments."""
    return (a.get("valid"), a.get("total"), a.get("payments")) != (b.get("valid"), b.get("total"), b.get("payments"))


def _search(strategy: Any, condition: Callable[[Any], bool], examples: int, seed: int,
            ruleset: Ruleset | None = None) -> Any | None:
    """The first example Hypothesis finds meeting `condition`, shrunk; with `ruleset` (a hand input) its
    flowers, flags and counters are then dropped wherever the condition still holds (checker.hunt.shrink)."""
    try:
        found = find(strategy, condition, random=random.Random(seed),
                     settings=settings(max_examples=examples, database=None, deadline=None,
                                       phases=[Phase.generate, Phase.shrink],
                                       suppress_health_check=list(HealthCheck)))
    except (NoSuchExample, Unsatisfiable):
        return None
    return smaller(ruleset, found, condition) if ruleset is not None else found


def hunt_option(runner: CaseRunner, ruleset: Ruleset, option_id: str, value: Any, strategy: Any,
                 examples: int, seed: int, base: Mapping[str, Any] | None = None,
                 known: Sequence[Mapping[str, Any]] = (), hands: "Drawn | None" = None) -> Finding | None:
    """An ambiguity finding for `option_id=value` against its default (other options at `base` or default).
    When the search finds nothing, the `known` hands (legal hands of the corpus and the document examples) are
    tried in turn, the one with the fewest tiles first. `hands`, the draws of this search (`Drawn`, of the same
    examples and seed): where none parts the readings the search would find nothing, and is not made."""
    option = ruleset.options[option_id]
    fixed = dict(base or {})
    default_opts = {**fixed, option_id: option.default}
    other_opts = {**fixed, option_id: value}

    def parts(data: Mapping[str, Any]) -> bool:
        return differs(outcome(runner, ruleset.id, default_opts, data),
                       outcome(runner, ruleset.id, other_opts, data))

    searched = None if hands is not None and not hands.parts(option_id, value, fixed) else \
        _search(strategy, parts, examples, seed, ruleset)
    witness = plainest(ruleset, searched, sorted(known, key=_size), parts)
    if witness is None:
        return None
    from_known = witness != searched
    shown = f"{option_id}={value_key(value)}"
    d_key, v_key = value_key(option.default), value_key(value)
    first = outcome(runner, ruleset.id, default_opts, witness)
    second = outcome(runner, ruleset.id, other_opts, witness)
    base_text = options_text(fixed)
    return Finding(
        ruleset=ruleset.id, kind="ambiguity", key=f"option.{shown}",  # found alone or under another reading
        title=f"{option_id}: the reading {v_key} against the default {d_key} changes this hand's result "
              f"({_brief(first)} against {_brief(second)})",
        rules=[f"option.{option_id}"] + [f"option.{k}" for k in fixed],
        witness={"ruleset": ruleset.id, "options": other_opts, "kind": "score", "input": dict(witness)},
        outcomes=[{"reading": f"{option_id}={d_key}", "means": option.readings.get(d_key, ""), "result": first},
                  {"reading": shown, "means": option.readings.get(v_key, ""), "result": second}],
        method="hypothesis", deciding_option=option_id,
        note=option.note.strip() + (f" (found with {base_text})" if base_text else "")
        + (" The witness is the known legal hand (the checked-in corpus and the document examples) whose result the "
           "readings part with the least context beside its tiles: the search found none plainer." if from_known
           else ""))


def _size(data: Mapping[str, Any]) -> tuple[int, str]:
    """Fewer tiles and flowers first (then a fixed order), for trying known hands smallest first."""
    text = str(data.get("concealed", "")) + str(data.get("flowers", "")) + "".join(
        str(m.get("tiles", "")) for m in data.get("melds") or [])
    return len(text), json.dumps(data, sort_keys=True)


def hunt_options(runner: CaseRunner, ruleset: Ruleset, strategy: Any, examples: int, seed: int,
                 progress: Callable[[str], None] = lambda _: None) -> list[Finding]:
    """Every scoring option's non-default readings against the default, one search each."""
    out = []
    for oid, option in ruleset.scoring_options().items():
        for value in option.other_values():
            progress(f"{oid}={value_key(value)}")
            found = hunt_option(runner, ruleset, oid, value, strategy, examples, seed)
            if found is not None:
                out.append(found)
    return out


def _brief(result: Mapping[str, Any]) -> str:
    if not result.get("valid"):
        return f"may not win ({result.get('error')})"
    return f"{result.get('total')}, payments {result.get('payments')}"


def drawn(strategy: Any, examples: int, seed: int) -> list[Any]:
    """The examples a seeded search of `examples` draws from `strategy` while none meets its condition: the same
    draws, in the same order, as every search with that seed that finds nothing (Hypothesis generates from the
    seed and what it drew, not from the condition's answers until one holds)."""
    seen: list[Any] = []

    def keep(example: Any) -> bool:
        seen.append(example)
        return False

    _search(strategy, keep, examples, seed)
    return seen


class Drawn:
    """The hands a seeded search draws (`drawn`), each scored under a set of readings once: the searches of many
    readings that would each draw the same hands share them."""

    def __init__(self, runner: CaseRunner, ruleset: Ruleset, strategy: Any, examples: int, seed: int):
        self.runner, self.ruleset = runner, ruleset
        self.hands = drawn(strategy, examples, seed)
        self._scored: dict[tuple[int, tuple], dict[str, Any]] = {}

    def outcome(self, i: int, options: Mapping[str, Any]) -> dict[str, Any]:
        """The i-th hand's result under `options` (the others at their defaults)."""
        key = (i, tuple(sorted(options.items(), key=str)))
        if key not in self._scored:
            self._scored[key] = outcome(self.runner, self.ruleset.id, options, self.hands[i])
        return self._scored[key]

    def parts(self, option_id: str, value: Any, base: Mapping[str, Any]) -> bool:
        """Whether some hand's result under `base` parts between the option's default and `value`."""
        default = {**base, option_id: self.ruleset.options[option_id].default}
        other = {**base, option_id: value}
        return any(differs(self.outcome(i, default), self.outcome(i, other)) for i in range(len(self.hands)))


def hunt_option_under(runner: CaseRunner, ruleset: Ruleset, option_id: str, value: Any,
                      bases: Sequence[Mapping[str, Any]], hands: Drawn, strategy: Any, examples: int,
                      seed: int) -> tuple[Finding | None, Mapping[str, Any] | None]:
    """`hunt_option` under each of `bases` in turn, stopping at the first that finds (and the base it found
    under): `hands` are the hands each of those searches would draw, so a base under which none parts the
    readings is passed over unsearched, and the first under which one does is searched (`hunt_option`: the same
    first hand, then shrunk)."""
    for base in bases:
        if hands.parts(option_id, value, base):
            found = hunt_option(runner, ruleset, option_id, value, strategy, examples, seed, base=base)
            if found is not None:
                return found, base
    return None, None


def hunt_pairs(runner: CaseRunner, ruleset: Ruleset, pairs: Sequence[tuple[tuple[str, Any], tuple[str, Any]]],
               strategy: Any, examples: int, seed: int, known: Sequence[Mapping[str, Any]] = (),
               until: float = math.inf, hands: Drawn | None = None) -> tuple[dict[tuple, Finding], bool]:
    """`hunt_pair` for each of `pairs` at once: the hands each pair's search would draw are drawn once
    (`Drawn`, or `hands` where given), and each is scored under the defaults and each reading once, so a pair
    costs only the scoring of both its readings together on the hands neither changes alone. A pair some drawn
    hand separates is searched again alone (`hunt_pair`: the same first hand, then shrunk). Gives the findings
    by pair, and whether every hand was looked at before `until` (time.monotonic): only then were the pairs no
    hand separated searched."""
    open_pairs = list(pairs)
    separated: list[tuple[tuple[str, Any], tuple[str, Any]]] = []
    if time.monotonic() >= until:
        return {}, False
    sample = hands or Drawn(runner, ruleset, strategy, examples, seed)
    for i in range(len(sample.hands)):
        if time.monotonic() >= until:
            return _pair_findings(runner, ruleset, separated, strategy, examples, seed, known), False
        base = sample.outcome(i, {})
        unchanged = {r for r in dict.fromkeys(r for pair in open_pairs for r in pair)
                     if not differs(base, sample.outcome(i, dict([r])))}
        for pair in list(open_pairs):
            if pair[0] in unchanged and pair[1] in unchanged and differs(base, sample.outcome(i, dict(pair))):
                open_pairs.remove(pair)
                separated.append(pair)
    return _pair_findings(runner, ruleset, separated, strategy, examples, seed, known), True


def _pair_findings(runner: CaseRunner, ruleset: Ruleset, separated: list[tuple[tuple[str, Any], tuple[str, Any]]],
                   strategy: Any, examples: int, seed: int, known: Sequence[Mapping[str, Any]]) -> dict[tuple, Finding]:
    out = {}
    for first, second in separated:
        found = hunt_pair(runner, ruleset, first, second, strategy, examples, seed, known)
        if found is not None:
            out[(first, second)] = found
    return out


def hunt_pair(runner: CaseRunner, ruleset: Ruleset, first: tuple[str, Any], second: tuple[str, Any], strategy: Any,
              examples: int, seed: int, known: Sequence[Mapping[str, Any]] = ()) -> Finding | None:
    """A hand whose result neither reading changes alone but both together do: `first` and `second` are
    (option id, value) pairs away from their defaults."""
    (a, va), (b, vb) = first, second
    da, db = ruleset.options[a].default, ruleset.options[b].default

    def together_only(data: Mapping[str, Any]) -> bool:
        base = outcome(runner, ruleset.id, {a: da, b: db}, data)
        if differs(base, outcome(runner, ruleset.id, {a: va, b: db}, data)):
            return False
        if differs(base, outcome(runner, ruleset.id, {a: da, b: vb}, data)):
            return False
        return differs(base, outcome(runner, ruleset.id, {a: va, b: vb}, data))

    witness = _search(strategy, together_only, examples, seed, ruleset)
    if witness is None:
        return None
    witness = plainest(ruleset, witness, sorted(known, key=_size), together_only) or witness
    base = outcome(runner, ruleset.id, {a: da, b: db}, witness)
    both = outcome(runner, ruleset.id, {a: va, b: vb}, witness)
    shown = f"{a}={value_key(va)} and {b}={value_key(vb)}"
    return Finding(
        ruleset=ruleset.id, kind="ambiguity", key=f"options.{a}={value_key(va)}&{b}={value_key(vb)}",
        title=f"{shown}: neither reading alone changes this hand, both together do ({_brief(base)} against "
              f"{_brief(both)})",
        rules=[f"option.{a}", f"option.{b}"],
        witness={"ruleset": ruleset.id, "options": {a: va, b: vb}, "kind": "score", "input": dict(witness)},
        outcomes=[{"reading": f"{a}={value_key(da)}, {b}={value_key(db)} (the defaults)", "result": base},
                  {"reading": f"{a}={value_key(va)}, {b}={value_key(db)}", "result": base},
                  {"reading": f"{a}={value_key(da)}, {b}={value_key(vb)}", "result": base},
                  {"reading": shown, "result": both}],
        method="hypothesis", deciding_option=None,
        note=f"Two readings that interact: a player who knows how each one changes a hand cannot tell from that "
             f"what both together do. Readings: {ruleset.options[a].readings.get(value_key(va), '')}; "
             f"{ruleset.options[b].readings.get(value_key(vb), '')}")
