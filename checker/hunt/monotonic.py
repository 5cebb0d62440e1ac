"""Non-monotonicity: a hand worth less when it holds more. For each way a hand can hold more — one more flower,
a pung made a kong, one more 荒番 — the smallest winning hand Hypothesis finds whose value (or the winner's
payment) drops when it does, under the spec's default readings. Each is a `non-monotonic` finding.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

from checker import tiles as T
from checker.case import CaseRunner
from checker.hunt.findings import Finding
from checker.hunt.options import _search, outcome
from checker.spec import Ruleset


def one_more_flower(ruleset: Ruleset, data: Mapping[str, Any]) -> dict[str, Any] | None:
    """The hand with the lowest flower it does not hold added (None: it holds all it can)."""
    raw = data.get("flowers") or ""
    held = set(T.parse_tiles(raw if isinstance(raw, str) else "".join(raw)))
    used = set(T.parse_tiles(data.get("concealed", ""))) | set(T.parse_tiles(data["win_tile"]))
    candidates = list(range(34, 42))
    if ruleset.tiles.get("dragons_as_flowers"):
        candidates = [31, 32, 33] + candidates
    for t in candidates:
        if t not in held and t not in used and not (31 <= t <= 33 and _dragon_copies(data, t)):
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


def one_more_huangfan(ruleset: Ruleset, data: Mapping[str, Any]) -> dict[str, Any] | None:
    """The hand one 荒番 higher (None: the ruleset keeps no 荒番 count, or it is at its bound)."""
    counter = ruleset.counters.get("huangfan")
    if counter is None:
        return None
    now = (data.get("counters") or {}).get("huangfan", 0)
    if now >= counter.max:
        return None
    return {**data, "counters": {**(data.get("counters") or {}), "huangfan": now + 1}}


GROWTHS: dict[str, tuple[Callable[[Ruleset, Mapping[str, Any]], dict[str, Any] | None], str]] = {
    "flower": (one_more_flower, "one more flower"),
    "kong": (pung_made_kong, "an exposed pung made a kong"),
    "huangfan": (one_more_huangfan, "one more 荒番 (drawn hand before it)"),
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

    witness = _search(strategy, drops, examples, seed)
    if witness is None:
        return None
    more = grow(ruleset, witness)
    assert more is not None
    before, after = outcome(runner, ruleset.id, {}, witness), outcome(runner, ruleset.id, {}, more)
    rules = sorted({f"fan.{f['id']}" for f in before.get("fans", []) + after.get("fans", [])})
    return Finding(
        ruleset=ruleset.id, kind="non-monotonic", key=f"non-monotonic.{growth}",
        title=f"a winning hand is worth less with {words}: {_paid(before)} against {_paid(after)}",
        rules=rules, witness={"ruleset": ruleset.id, "options": {}, "kind": "score", "input": dict(more)},
        outcomes=[{"reading": "the hand as it is", "result": before, "input": dict(witness)},
                  {"reading": f"with {words}", "result": after}],
        method="hypothesis",
        note=f"Under the spec's default readings. The witness case is the hand with {words}; the first outcome is "
             f"the same hand without it.")


def _paid(result: Mapping[str, Any]) -> str:
    if not result.get("valid"):
        return f"may not win ({result.get('error')})"
    return f"{result.get('total')} (the winner gets {(result.get('payments') or [0])[0]})"
