"""What a case's expectation is compared on, given what the engine says it models (its start reply's `fields`
and `rule_ids`, docs/contracts.md "What an engine models").

An engine may answer only some of the result fields (a game judge that names no next dealer), and may name the
rules a move or hand breaks in words of its own. It says so when it starts: `fields` lists the result fields it
answers (a winner's field as `winners.FIELD`; `winners` alone: every field of each winner), and `rule_ids: "own"`
says its rule ids are its own. A case is then judged on the fields it declares, and on a refusal by the verdict
and, for a hand of play, the event, never by the rule id; what was left out is counted (`not_compared`), and
the pairs of rule ids (the spec's, the engine's) are listed apart as a mapping table. The answer itself is
always compared: `valid` of a score case, `verdict` and `event` of a hand of play, `seat` of each winner.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Callable, Iterable, Mapping

SCORE_FIELDS = ("valid", "total", "fans", "payments", "error")
PROCEDURE_FIELDS = ("verdict", "rule", "event", "ended", "winners", "payments", "next_dealer", "next_round_wind",
                    "next_huangfan")
WINNER_FIELDS = ("seat", "win_by", "total", "fans")
ALWAYS = frozenset({"valid", "verdict", "event"})  # the answer itself (a winner's `seat` likewise)
RULE_FIELDS = {"score": "error", "procedure": "rule"}  # where a refusal names its rule
RULE_IDS = ("spec", "own")
OTHER_PAIRS = "(other pairs)"  # the summary's entry for refusals past RuleMap.MAX_PAIRS distinct pairs  # the start reply's `rule_ids`: the spec's own ids (the default), or the engine's


def known_fields() -> tuple[str, ...]:
    """Every name a start reply's `fields` may hold."""
    names = dict.fromkeys((*SCORE_FIELDS, *PROCEDURE_FIELDS, *(f"winners.{f}" for f in WINNER_FIELDS)))
    return tuple(names)


def compared_expect(expect: Any, kind: str, fields: Iterable[str] | None, own_rule_ids: bool) -> Any:
    """The expectation as the case is judged for this engine: only the fields it declares (None: all), and
    without the rule a refusal names when its rule ids are its own. The same object when nothing is left out."""
    if (fields is None and not own_rule_ids) or not isinstance(expect, Mapping):
        return expect
    declared = None if fields is None else frozenset(fields)
    if isinstance(expect.get("either"), list):
        members = [_kept(e, kind, declared, own_rule_ids) if isinstance(e, Mapping) else e for e in expect["either"]]
        return expect if all(m is e for m, e in zip(members, expect["either"])) else {**expect, "either": members}
    return _kept(expect, kind, declared, own_rule_ids)


def _kept(result: Mapping[str, Any], kind: str, declared: frozenset[str] | None, own_rule_ids: bool) -> Any:
    rule_field = RULE_FIELDS.get(kind, "error")
    kept: dict[str, Any] = {}
    for key, value in result.items():
        if own_rule_ids and key == rule_field:
            continue
        if key == "winners" and isinstance(value, list):
            if declared is None or key in declared:
                kept[key] = value
            elif any(name.startswith("winners.") for name in declared):
                kept[key] = [{k: v for k, v in w.items() if k == "seat" or f"winners.{_field(k)}" in declared}
                             if isinstance(w, Mapping) else w for w in value]
            continue
        if declared is None or key in ALWAYS or key in declared:
            kept[key] = value
    return result if kept == dict(result) else kept


def _field(key: str) -> str:
    """The declared field a winner's key is compared with (a winner's other readings' fans go with its fans)."""
    return "fans" if key == "or_fans" else key


def judged_on(engine: Any) -> Callable[[Any, str], Any]:
    """`compared_expect` for the engine a run's header or summary describes (its `fields` and `rule_ids`, as
    checker.conform.adapters.EngineInfo.as_json writes them): what a rebuilt report judges probes by."""
    engine = engine if isinstance(engine, Mapping) else {}
    fields = engine.get("fields")
    declared = tuple(f for f in fields if isinstance(f, str)) if isinstance(fields, list) else None
    own = engine.get("rule_ids") == "own"
    return lambda expect, kind: compared_expect(expect, kind, declared, own)


def left_out(expect: Any, compared: Any) -> list[str]:
    """The fields of the expectation that were not compared (a winner's as `winners.FIELD`), in order."""
    names: dict[str, None] = {}
    for whole, kept in zip(_members(expect), _members(compared)):
        for key, value in whole.items():
            if key not in kept:
                names[key] = None
            elif key == "winners" and isinstance(value, list) and isinstance(kept[key], list):
                for w, k in zip(value, kept[key]):
                    if isinstance(w, Mapping) and isinstance(k, Mapping):
                        names.update((f"winners.{_field(f)}", None) for f in w if f not in k)
    return list(names)


def rule_pair(expect: Any, actual: Any, kind: str) -> tuple[str, str] | None:
    """(the spec's rule, the engine's) when both refuse (a score case: neither valid; a hand of play: both
    illegal) and name a rule; else None. For the mapping table of an engine whose rule ids are its own."""
    rule_field = RULE_FIELDS.get(kind, "error")
    want = next(iter(_members(expect)), None)
    got = next(iter(_members(actual)), None)
    if want is None or got is None:
        return None
    refused = (lambda r: r.get("verdict") == "illegal") if kind == "procedure" else \
        (lambda r: r.get("valid") is False)
    if not (refused(want) and refused(got)):
        return None
    a, b = want.get(rule_field), got.get(rule_field)
    return (a, b) if isinstance(a, str) and isinstance(b, str) else None


def _members(result: Any) -> list[Mapping[str, Any]]:
    if not isinstance(result, Mapping):
        return []
    if isinstance(result.get("either"), list):
        return [r for r in result["either"] if isinstance(r, Mapping)]
    return [result]


class RuleMap:
    """The pairs of rule ids (the spec's, the engine's) met on refusals both gave, counted, for the summary."""

    MAX_PAIRS = 1000

    def __init__(self) -> None:
        self.pairs: Counter[tuple[str, str]] = Counter()
        self.past = 0  # pairs met past MAX_PAIRS distinct ones

    def add(self, pair: tuple[str, str] | None) -> None:
        if pair is None:
            return
        if pair in self.pairs or len(self.pairs) < self.MAX_PAIRS:
            self.pairs[pair] += 1
        else:
            self.past += 1

    def as_json(self) -> list[dict[str, Any]]:
        """summary.json's `rule_ids`: each pair with its cases, most cases first; the spec's ids that the engine
        names two ways, and the engine's that stand for two of the spec's, say so (`ambiguous`)."""
        by_spec = Counter(spec for spec, _ in self.pairs)
        by_engine = Counter(engine for _, engine in self.pairs)
        listed = [{"spec": spec, "engine": engine, "cases": n,
                   **({"ambiguous": True} if by_spec[spec] > 1 or by_engine[engine] > 1 else {})}
                  for (spec, engine), n in sorted(self.pairs.items(), key=lambda kv: (-kv[1], kv[0]))]
        if self.past:  # cases of pairs met past MAX_PAIRS distinct ones: counted, not dropped unsaid
            listed.append({"spec": OTHER_PAIRS, "engine": OTHER_PAIRS, "cases": self.past})
        return listed
