"""Non-monotonicity: a hand worth less when it holds more. For each way a hand can hold more — one more flower,
a pung made a kong, one more 荒番 — the smallest winning hand Hypothesis finds whose value (or the winner's
payment) drops when it does, under the spec's default readings. Each is a `non-monotonic` finding.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

from checker import tiles as T
from checker.case import CaseRunner
from checker.engine import HandError
from checker.hunt.findings import Finding, NotSearched, covering
from checker.hunt.options import _search, outcome
from checker.hunt.z3context import in_own_context
from checker.spec import Ruleset, options_text
from checker.spec.roles import roles


def one_more_flower(ruleset: Ruleset, data: Mapping[str, Any]) -> dict[str, Any] | None:
    """The hand with the lowest flower it does not hold added (None: it holds all it can)."""
    raw = data.get("flowers") or ""
    held = set(T.parse_tiles(raw if isinstance(raw, str) else "".join(raw)))
    used = set(T.parse_tiles(data.get("concealed", ""))) | set(T.parse_tiles(data["win_tile"]))
    candidates = list(T.FLOWERS)
    if ruleset.dragons_as_flowers:
        candidates = list(T.DRAGONS) + candidates
    for t in candidates:
        if t not in held and t not in used and not (T.is_dragon(t) and _dragon_copies(data, t)):
            return {**data, "flowers": T.format_tiles(sorted(held | {t}))}
    return None


def _dragon_copies(data: Mapping[str, Any], t: int) -> int:
    tiles = list(T.parse_tiles(data.get("concealed", ""))) + list(T.parse_tiles(data["win_tile"]))
    for m in data.get("melds") or []:
        tiles += list(T.parse_tiles(m["tiles"]))
    return tiles.count(t)


def pung_made_kong(ruleset: Ruleset, data: Mapping[str, Any]) -> dict[str, Any] | None:
    """The hand with its first exposed pung extended to a kong (None: it has no exposed pung)."""
    melds = list(data.get("melds") or [])
    for i, m in enumerate(melds):
        tiles = T.parse_tiles(m["tiles"])
        if m["type"] == "pung" and len(set(tiles)) == 1:
            used = list(T.parse_tiles(data.get("concealed", ""))) + list(T.parse_tiles(data["win_tile"]))
            if used.count(tiles[0]) == 0:
                melds[i] = {**m, "type": "kong", "tiles": T.format_tiles([tiles[0]] * 4)}
                return {**data, "melds": melds}
    return None


def one_more_count(ruleset: Ruleset, data: Mapping[str, Any]) -> dict[str, Any] | None:
    """The hand one higher on the counter a pattern counts (荒番 in classic; checker.spec.roles; None: the ruleset
    counts none, or it is at its bound)."""
    name = next(iter(roles(ruleset).counted), None)
    counter = ruleset.counters.get(name) if name is not None else None
    if name is None or counter is None:
        return None
    now = (data.get("counters") or {}).get(name, 0)
    if now >= counter.max:
        return None
    return {**data, "counters": {**(data.get("counters") or {}), name: now + 1}}


GROWTHS: dict[str, tuple[Callable[[Ruleset, Mapping[str, Any]], dict[str, Any] | None], str]] = {
    "flower": (one_more_flower, "one more flower"),
    "kong": (pung_made_kong, "an exposed pung made a kong"),
    "counter": (one_more_count, "one more on a counted counter (荒番: a drawn hand before it)"),
}


def _worth(result: Mapping[str, Any]) -> tuple[bool, int]:
    payments = result.get("payments") or [0]
    return bool(result.get("valid")), int(payments[0]) if payments else 0


def hunt_growth(runner: CaseRunner, ruleset: Ruleset, growth: str, strategy: Any, examples: int,
                seed: int) -> Finding | None:
    grow, words = GROWTHS[growth]

    def drops(data: Mapping[str, Any]) -> bool:
        more = grow(ruleset, data)
        if more is None:
            return False
        before, after = outcome(runner, ruleset.id, {}, data), outcome(runner, ruleset.id, {}, more)
        if not before.get("valid") or after.get("error", "").startswith(("input.", "context.", "tiles.")):
            return False
        return _worth(after) < _worth(before)

    witness = _search(strategy, drops, examples, seed, ruleset)
    if witness is None:
        return None
    more = grow(ruleset, witness)
    assert more is not None
    before, after = outcome(runner, ruleset.id, {}, witness), outcome(runner, ruleset.id, {}, more)
    step = lowering_step(runner, ruleset, {}, witness, more, before, after)
    rules = ([step] if step else []) + sorted({f"fan.{f['id']}" for f in before.get("fans", []) + after.get("fans", [])})
    return Finding(
        ruleset=ruleset.id, kind="non-monotonic", key=f"non-monotonic.{growth}",
        title=f"a winning hand is worth less with {words}: {_paid(before)} against {_paid(after)}",
        rules=rules, witness={"ruleset": ruleset.id, "options": {}, "kind": "score", "input": dict(more)},
        outcomes=[{"reading": "the hand as it is", "result": before, "input": dict(witness)},
                  {"reading": f"with {words}", "result": after}],
        method="hypothesis", statements=covering(ruleset, rules, 5),
        note=f"Under the spec's default readings. The witness case is the hand with {words}; the first outcome is "
             f"the same hand without it." + _lowered_by(step))


def lowering_step(runner: CaseRunner, ruleset: Ruleset, options: Mapping[str, Any], data: Mapping[str, Any],
                  more: Mapping[str, Any], before: Mapping[str, Any], after: Mapping[str, Any]) -> str | None:
    """The rule of the scoring step after which the grown hand falls behind (checker.hunt.arith.cause), when
    both hands win: the cause a finding names first."""
    from checker.hunt.arith import ArithModel, cause, situation_of

    if not before.get("valid") or not after.get("valid"):
        return None
    model = ArithModel(runner.scorer(ruleset.id, dict(options)))
    return cause(model, situation_of(model.scorer, before.get("fans", []), data.get("counters")),
                 situation_of(model.scorer, after.get("fans", []), more.get("counters")))


def _lowered_by(step: str | None) -> str:
    return f" The step that lowers it is {step}: the grown hand falls behind there." if step else ""


def _paid(result: Mapping[str, Any]) -> str:
    if not result.get("valid"):
        return f"may not win ({result.get('error')})"
    return f"{result.get('total')} (the winner gets {(result.get('payments') or [0])[0]})"


# ------------------------------------------------------------------ the same question, put to the Z3 model
def _grown(ruleset: Ruleset, data: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The hand with more context and the same tiles: one more flower, one more 荒番, one more flag, or drawn by
    the winner rather than discarded."""
    out = [g for g in (one_more_flower(ruleset, data), one_more_count(ruleset, data)) if g is not None]
    if data.get("win_by") == "discard":
        out.append({**data, "win_by": "self_draw", "discarder": None})
    flags = dict(data.get("flags") or {})
    for flag in ruleset.flags:
        if not flags.get(flag):
            out.append({**data, "flags": {**flags, flag: True}})
    return out


@in_own_context
def hunt_growth_z3(runner: CaseRunner, ruleset: Ruleset, pid: str, options: Mapping[str, Any],
                   pool: list[dict[str, Any]]) -> Finding | None:
    """A non-monotonic finding when the Z3 model of the arithmetic, under `options`, lets one more `pid` (a pattern
    a hand gains from its context alone) lower a hand: the witness is the known hand (`pool`) the model picks,
    grown by the context that adds `pid` and nothing else, both replayed through the engine."""
    from checker.case import hand_from_input
    from checker.hunt.arith import ArithModel, Situation, find_drop, situation_of

    scorer = runner.scorer(ruleset.id, dict(options))
    if pid not in scorer.rank:
        raise NotSearched(f"{pid} is not a pattern under this reading")
    model = ArithModel(scorer)
    if find_drop(model, pid, fewest=False) is None:
        return None  # proved: one more of it never lowers a hand, whatever the other patterns
    derived = {ruleset.principles.chicken_hand} if model.method == "fan_sum" else set()

    def counted_of(data: Mapping[str, Any]) -> tuple[Any, Situation] | None:
        try:
            score = scorer.score(hand_from_input(data, scorer))
        except (HandError, ValueError):
            return None
        if score.error and score.error != "win.minimum_points":
            return None
        fans = [{"id": f.id, "count": f.count} for f in score.fans if f.id not in derived]
        return score, situation_of(scorer, fans, data.get("counters"))

    # known hands that gain `pid` and nothing else from a change of context: the pairs a witness can be
    growable: list[tuple[Situation, dict[str, Any], dict[str, Any]]] = []
    for data in pool:
        here = counted_of(data)
        if here is None or not here[0].valid:
            continue
        want = {**here[1].counts, pid: here[1].counts.get(pid, 0) + 1}
        for more in _grown(ruleset, data):
            there = counted_of(more)
            if there is not None and there[1].counts == want and there[1].base == here[1].base:
                growable.append((here[1], data, more))
                break
    chosen = find_drop(model, pid, [s for s, _, _ in growable])
    if chosen is None:
        return None
    for situation, data, more in growable:
        if situation != chosen:
            continue
        before, after = outcome(runner, ruleset.id, options, data), outcome(runner, ruleset.id, options, more)
        if not after.get("valid") or _worth(after) < _worth(before):
            return _z3_finding(runner, ruleset, pid, options, data, more, before, after, model, situation)
    return None


def _z3_finding(runner: CaseRunner, ruleset: Ruleset, pid: str, options: Mapping[str, Any], data: Mapping[str, Any],
                more: Mapping[str, Any], before: Mapping[str, Any], after: Mapping[str, Any], model: Any,
                situation: Any) -> Finding:
    pattern = next(p for p in ruleset.patterns if p.id == pid)
    growth = {"flowers": "flower", "counter": "counter"}.get(pattern.when.name, pid)
    shown = options_text(options)
    words = f"{pattern.name_en} ({pattern.name_zh})" if pattern.name_zh else pattern.name_en
    valued = model.value(situation)[1]
    step = lowering_step(runner, ruleset, options, data, more, before, after)
    # the step that lowers it, the grown pattern and the reading first: the statements quoted are theirs
    rules = ([step] if step else []) + [f"fan.{pid}"] + [f"option.{k}" for k in options] + sorted(
        {f"fan.{f['id']}" for f in before.get("fans", []) + after.get("fans", [])} - {f"fan.{pid}"})
    check = "" if not before.get("valid") or valued == before.get("total") else \
        f" DEFECT: the Z3 model values the hand at {valued}, the engine at {before.get('total')}."
    return Finding(
        ruleset=ruleset.id, kind="non-monotonic", key=f"non-monotonic.{growth}" + (f"@{shown}" if shown else ""),
        title=f"a winning hand is worth less with {words} as well" + (f" under {shown}" if shown else "")
              + f": {_paid(before)} against {_paid(after)}",
        rules=rules, statements=covering(ruleset, rules, 5),
        witness={"ruleset": ruleset.id, "options": dict(options), "kind": "score", "input": dict(more)},
        outcomes=[{"reading": "the hand as it is", "result": dict(before), "input": dict(data)},
                  {"reading": f"with {words}", "result": dict(after)}],
        method="z3", deciding_option=next(iter(options), None),
        note=f"The Z3 model of the arithmetic{' under ' + shown if shown else ''} finds that one more {words} can "
             f"lower a hand, and picks, among hands known to be legal (the checked-in corpus and the document "
             f"examples), the one with the fewest patterns where it does; the witness adds only the context that "
             f"brings {words}. Both hands are scored by the engine." + _lowered_by(step) + check)
