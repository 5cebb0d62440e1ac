"""Whole answers: when a re-scored result is the engine's answer, field by field, and the engine's own words.

A re-scored result *reproduces* an engine's answer only when every field of the result that the case expects or
the engine answered (validity, the refusal's rule, fans with points and counts, total, payments: the case
format's result fields) is the same on both sides. A refusal is compared on its rule too: where the engine
names a rule the spec and the case format do not have (its rule ids are its own), the two refusals are paired
(`Agreement.rule_pair`) and diagnosis requires one engine id to stand for one rule of the reference across the
cases a cause explains (`consistent_rules`), so a refusal is never explained by any other refusal.

Fan names: an engine may name a fan by the documents' own words, the English or Chinese name the spec gives
the pattern (`清一色`, `Full flush`) rather than its id. `FanNames` reads those back to the spec's ids before
anything is called a fan outside the spec, and says which names it read.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Container, Iterable, Mapping, Sequence

from checker.case import readings_of, winner_fan_lists
from checker.diagnose.notation import current as notation
from checker.diagnose.romanized import spelled
from checker.spec import Ruleset, SpecError, Step, given_key, load_ruleset

RESULT_FIELDS = ("valid", "error", "fans", "total", "payments")  # the case schema's result (spec/schema)


@dataclass(frozen=True)
class Agreement:
    """Whether a re-scored result is the engine's answer; where both refuse and the engine names a rule of its
    own, the pair (the engine's rule id, the reference's) that was read as one."""

    same: bool
    rule_pair: tuple[str, str] | None = None


DIFFERENT = Agreement(False)


def agreement(actual: Any, rescored: Mapping[str, Any] | None, expect: Any,
              own_rules: Container[str] = (), kind: str = "score") -> Agreement:
    """How `rescored` stands to the engine's answer `actual`, compared on every result field the case's `expect`
    names or the answer gives (an `either` on either side: some pair of readings). A refusal's rule is compared
    exactly unless the engine's is not in `own_rules` (the spec's and the case format's ids): then it is paired.
    A hand of play (`kind` procedure) is compared on every field but the messages: its verdict, the illegal event
    and its rule (paired alike), how it ended, each winner's fans, total and way of winning, the payments and
    what the next hand starts from."""
    if rescored is None or not isinstance(actual, Mapping):
        return DIFFERENT
    if kind == "procedure":
        return _same_play(actual, rescored, expect, own_rules)
    expected_fields: set[str] = set()
    for member in readings_of(expect):
        expected_fields.update(k for k in member if k in RESULT_FIELDS)
    paired: Agreement | None = None
    for got in readings_of(actual):
        for want in readings_of(rescored):
            found = _same_answer(got, want, expected_fields, own_rules)
            if found.same and found.rule_pair is None:
                return found
            if found.same and paired is None:
                paired = found
    return paired or DIFFERENT


def _same_answer(got: Mapping[str, Any], want: Mapping[str, Any], expected_fields: set[str],
                 own_rules: Container[str]) -> Agreement:
    if bool(got.get("valid", True)) != bool(want.get("valid", True)):
        return DIFFERENT
    if not got.get("valid", True):  # two refusals: their rules (when the engine names one)
        engine_rule, rule = got.get("error"), want.get("error")
        if engine_rule is None or engine_rule == rule:
            return Agreement(True)
        if isinstance(engine_rule, str) and engine_rule not in own_rules and isinstance(rule, str):
            return Agreement(True, (engine_rule, rule))
        return DIFFERENT
    fields = (expected_fields | {k for k in got if k in RESULT_FIELDS}) - {"valid", "error"}
    for name in fields:
        if name == "fans":
            if not same_fans(want.get("fans"), got.get("fans"), getattr(own_rules, "ruleset_id", None),
                             got.get("total")):
                return DIFFERENT
        elif got.get(name) != want.get(name):
            return DIFFERENT
    return Agreement(True)


def same_fans(want: Any, got: Any, ruleset_id: str | None = None, total: Any = None) -> bool:
    """Whether the fans the rules give (`want`) are the engine's (`got`, in an answer whose total is `total`) as
    the engine writes them: fans at 0 points left out where it lists none (`listed`), and the run's learned
    notation (checker.diagnose.notation)."""
    w, g = notation().as_written(ruleset_id, want, got, total)
    return _fan_keys(listed(w, g)) == _fan_keys(g)


def fans_apart(want: Any, got: Any, ruleset_id: str | None = None, total: Any = None) -> set[str] | None:
    """The patterns whose entries differ between the rules' fans (`want`) and the engine's (`got`) as the engine
    writes them (`same_fans`); None where either is not a list of fans."""
    w, g = notation().as_written(ruleset_id, want, got, total)
    mine, theirs = _fan_keys(listed(w, g)), _fan_keys(g)
    if mine is None or theirs is None:
        return None
    return {k[0] for k in set(mine) ^ set(theirs)}


def outside_only(actual: Any, rescored: Mapping[str, Any] | None, known: Container[str],
                 ruleset_id: str | None = None) -> bool:
    """Whether an answer and a prediction, each one reading, agree on everything that moves money (the win, the
    total, the payments) and on every fan but where the answer names fans the spec does not have (`known`: its
    pattern ids) in place of some the prediction lists: fans outside the spec, which a departure cannot predict
    (checker.diagnose.unscored names them from the answers), standing where spec fans stand; or beside all of
    them, the answer's total the prediction's with their worth added (an engine listing 底分 and counting it in
    the hand's total), the payments the same."""
    if not isinstance(actual, Mapping) or not isinstance(rescored, Mapping) or "either" in actual \
            or "either" in rescored or not actual.get("valid", True) or not rescored.get("valid", True):
        return False
    if actual.get("payments") != rescored.get("payments"):
        return False
    got = [f for f in actual.get("fans") or [] if isinstance(f, Mapping)]
    outside = [f for f in got if f.get("id") not in known
               and not notation().cap_listed(ruleset_id, f, actual.get("total"))]
    if not outside:
        return False
    mine, theirs = notation().as_written(ruleset_id, rescored.get("fans"), [f for f in got if f.get("id") in known],
                                         actual.get("total"))
    want = _fan_keys(listed(mine, actual.get("fans"))) or []
    have = _fan_keys(theirs) or []
    if not all(k in want for k in have):
        return False
    if actual.get("total") == rescored.get("total"):
        return True
    # beside every spec fan, none replaced: the outside fans' worth added to the total, the money the same
    return sorted(want) == sorted(have) and actual.get("total") == _plus_worth(rescored.get("total"), outside)


def _plus_worth(total: Any, fans: Sequence[Mapping[str, Any]]) -> Any:
    """`total` with the points of `fans` (each times its count) added; None where any is not a whole number."""
    if not isinstance(total, int) or isinstance(total, bool):
        return None
    for f in fans:
        points, count = f.get("points"), f.get("count", 1)
        if not all(isinstance(x, int) and not isinstance(x, bool) for x in (points, count)):
            return None
        total += points * count
    return total


def _worth_nothing(fan: Any) -> bool:
    return (type(fan) is dict or isinstance(fan, Mapping)) and fan.get("points") == 0  # (a dict: no ABC check)


def lists_no_zero(fans: Any) -> bool:
    """Whether an answer's fans hold no fan worth 0 points (an engine that lists only what adds to the total)."""
    return isinstance(fans, list) and not any(_worth_nothing(f) for f in fans)


def listed(fans: Any, answered: Any) -> Any:
    """The fans `fans` as an engine whose answer is `answered` lists them: where the answer lists no fan at 0
    points, those at 0 are left out (such a fan adds no points: listing it or not is how an engine writes its
    answer; whatever else it does, as a 勒子 hand setting the value, shows in the total and the payments, which
    are compared apart); else `fans` as they are."""
    if not isinstance(fans, list) or not lists_no_zero(answered) or not any(_worth_nothing(f) for f in fans):
        return fans
    return [f for f in fans if not _worth_nothing(f)]


MESSAGES = ("message", "why", "reason")  # free text beside a verdict: never compared


def _same_play(got: Mapping[str, Any], want: Mapping[str, Any], expect: Any, own_rules: Container[str]) -> Agreement:
    fields = {k for k in (expect if isinstance(expect, Mapping) else {})} | set(got)
    if got.get("verdict") == want.get("verdict") == "unfinished":  # no event refused: where the log stops and the
        fields -= {k for k in ("rule", "event") if k not in got}   # rules' word for it are compared if answered
    pair: tuple[str, str] | None = None
    for name in sorted(fields - set(MESSAGES)):
        mine, theirs = got.get(name), want.get(name)
        if name == "rule" and mine != theirs:
            if isinstance(mine, str) and mine not in own_rules and isinstance(theirs, str):
                pair = (mine, theirs)
                continue
            return DIFFERENT
        if name == "winners" and isinstance(mine, list) and isinstance(theirs, list):
            if len(mine) != len(theirs) or not all(_same_winner(a, b, own_rules) for a, b in zip(mine, theirs)):
                return DIFFERENT
        elif mine != theirs:
            return DIFFERENT
    return Agreement(True, pair)


def _same_winner(got: Any, want: Any, own_rules: Container[str]) -> bool:
    """A hand of play's winner as the engine gives it against one predicted: the same but for the fans, and its
    fans those predicted or those of another reading of the same worth (`or_fans`), read as the documents name
    them."""
    if not isinstance(got, Mapping) or not isinstance(want, Mapping):
        return False
    plain = ("fans", "or_fans")
    if {k: v for k, v in got.items() if k not in plain} != {k: v for k, v in want.items() if k not in plain}:
        return False
    return any(same_fans(fans, got.get("fans"), getattr(own_rules, "ruleset_id", None), got.get("total"))
               for fans in winner_fan_lists(want))


def _fan_keys(fans: Any) -> list[tuple] | None:
    if not isinstance(fans, list):
        return None
    return sorted((str(f.get("id")), repr(f.get("points")), repr(f.get("count"))) for f in fans
                  if isinstance(f, Mapping))


def consistent_rules(pairs: Iterable[tuple[str, str] | None]) -> dict[str, str] | None:
    """The engine's own rule ids read as the reference's, when each stands for one rule (None: one engine id
    was read as two rules of the reference, so the refusals are not the same rule)."""
    found: dict[str, str] = {}
    for pair in pairs:
        if pair is None:
            continue
        engine_rule, rule = pair
        if found.setdefault(engine_rule, rule) != rule:
            return None
    return found


class OwnRules(Container[str]):
    """The refusal ids the reference and the case format use: the spec's rule ids, those the run's expectations
    name, and every `input.*` id (the case format's refusals of an input). An engine's id outside them is its own."""

    def __init__(self, ids: frozenset[str], ruleset_id: str | None = None):
        self.ids, self.ruleset_id = ids, ruleset_id  # (the ruleset: its learned notation reads the fans)

    @classmethod
    def of(cls, ruleset: Ruleset | None, named: Iterable[str] = ()) -> "OwnRules":
        return cls(frozenset(named) | (ruleset.rule_ids() if ruleset is not None else frozenset()),
                   ruleset.id if ruleset is not None else None)

    def __contains__(self, rule: object) -> bool:
        return isinstance(rule, str) and (rule in self.ids or rule.startswith("input."))


# ------------------------------------------------------------------ fan names in the documents' words

def _plain_name(name: str) -> str:
    return re.sub(r"[\s_\-]+", " ", name.strip().casefold())


_TABLE_ROW = re.compile(r"^\|\s*([^|]+?)\s*\|")  # a row of a document's scoring table: its first cell
_NAMED = re.compile(r"^([^:：]{1,40})[:：]\s*(.+)$")  # "大挑车: melded down to …": the name and its gloss
_EACH = re.compile(r"^(?:each|every|per)\s+", re.I)


def document_names(phrase: str) -> list[str]:
    """The names a pattern's source phrase gives it in the document's own words: a scoring table row's first
    cell (`| Each flower / dragon-as-flower | 1 |`: that cell, and without its "Each"), or the name and the gloss
    of a "name: gloss" line (`混一色: half flush`). Other phrases give none."""
    row = _TABLE_ROW.match(phrase.strip())
    if row:
        cell = row.group(1).strip()
        return [cell, _EACH.sub("", cell)] if _EACH.match(cell) else [cell]
    named = _NAMED.match(phrase.strip())
    return [named.group(1).strip().lstrip("－-—•· "), named.group(2).strip().rstrip(".。")] if named else []


@dataclass(frozen=True)
class FanNames:
    """The spec's patterns by their names: an engine's fan named `清一色`, `qingyise` or `Full flush` is the spec's
    `full_flush`. Only names that stand for one pattern are read."""

    by_name: Mapping[str, str]

    @classmethod
    def of(cls, ruleset: Ruleset) -> "FanNames":
        seen: dict[str, set[str]] = {}
        ids = {p.id for p in ruleset.patterns}
        for p in ruleset.patterns:
            names = [n for n in (p.name_en, p.name_zh, *(n for s in p.sources for n in document_names(s.phrase))) if n]
            for name in [*names, *(form for n in names for form in spelled(n))]:  # (the Chinese ones in pinyin too)
                if _plain_name(name) not in ids:
                    seen.setdefault(_plain_name(name), set()).add(p.id)
        return cls({name: next(iter(found)) for name, found in seen.items() if len(found) == 1})

    def spec_id(self, fan_id: str) -> str | None:
        """The spec's id of a fan the engine names by its English or Chinese name (None: not such a name)."""
        return self.by_name.get(_plain_name(fan_id))

    def read(self, answer: Any, known: Container[str]) -> tuple[Any, dict[str, str]]:
        """The answer with each fan an engine names by a pattern's name given the pattern's id (ids the spec
        knows are left as they are; a hand of play's winners' fans too), and the names read, {engine's name: spec
        id}."""
        read: dict[str, str] = {}

        def one(result: Mapping[str, Any]) -> Mapping[str, Any]:
            winners = result.get("winners")
            if isinstance(winners, list):  # a hand of play: each winner's fans
                result = {**result, "winners": [one(w) if isinstance(w, Mapping) else w for w in winners]}
            fans = result.get("fans")
            if not isinstance(fans, list):
                return result
            out = []
            for f in fans:
                if isinstance(f, Mapping) and isinstance(f.get("id"), str) and f["id"] not in known:
                    spec_id = self.spec_id(f["id"])
                    if spec_id is not None:
                        read[f["id"]] = spec_id
                        f = {**f, "id": spec_id}
                out.append(f)
            return {**result, "fans": out}

        if not isinstance(answer, Mapping):
            return answer, read
        if isinstance(answer.get("either"), list):
            renamed: Any = {**answer, "either": [one(r) if isinstance(r, Mapping) else r for r in answer["either"]]}
        else:
            renamed = one(answer)
        return (renamed if read else answer), read


def _names_of(ruleset_id: str) -> tuple[FanNames, frozenset[str]] | None:
    return _names_for(ruleset_id, given_key())


@lru_cache(maxsize=32)
def _names_for(ruleset_id: str, given: tuple) -> tuple[FanNames, frozenset[str]] | None:
    """(`given`: the rulesets given on the command line, checker.spec.rulesets_given, in the cache's key.)"""
    try:
        ruleset = load_ruleset(ruleset_id)
    except (SpecError, ValueError, KeyError, OSError):
        return None
    return FanNames.of(ruleset), frozenset(p.id for p in ruleset.patterns)


def read_fan_names(ruleset_id: str | None, answer: Any) -> tuple[Any, dict[str, str]]:
    """An answer with the fans named in the documents' words read as the ruleset's ids (the ruleset found by
    its id, as the shipped specs and MJCHECK_SPEC_PATH name it; none found: the answer as it is)."""
    found = _names_of(ruleset_id) if isinstance(ruleset_id, str) else None
    if found is None:
        return answer, {}
    names, known = found
    answer, read = names.read(answer, known)
    answer, learned = notation().read(ruleset_id, answer)
    return answer, {**read, **learned}


def known_patterns(ruleset_id: str) -> frozenset[str] | None:
    """The spec's pattern ids of a ruleset (None: no such ruleset)."""
    found = _names_of(ruleset_id)
    return found[1] if found is not None else None


@dataclass(frozen=True)
class StepItem:
    """A scoring step that sets a hand's value to a fixed number in place of its patterns (knocking's fig, 无花果: 10
    hua where no hua goes beyond the base): the step's rule, that number, the document's sentences about the step
    (where an engine's name for it is written), and the patterns whose sum it stands in place of (the hua)."""

    rule: str
    value: int
    words: str
    replaces: frozenset[str]


def step_items(ruleset_id: str) -> tuple[StepItem, ...]:
    """The ruleset's steps that set a fixed value (a `value` parameter), each with its sentences: what an engine
    may list as an element of its own (checker.diagnose.notation)."""
    try:
        ruleset = load_ruleset(ruleset_id)
    except (SpecError, ValueError, KeyError, OSError):
        return ()
    hua = frozenset(p.id for p in ruleset.patterns if p.kind == "hua")
    out = []
    for step in ruleset.scoring.steps:
        value = step.params.get("value")
        if step.rule and isinstance(value, int) and not isinstance(value, bool):
            words = " ".join(s.phrase for s in ruleset.statements if step.rule in s.rules)
            out.append(StepItem(step.rule, value, words, hua))
    return tuple(out)


@dataclass(frozen=True)
class CapItem:
    """The step that holds a hand's value to its cap (classic's 勒子: 大过该封顶值以该封顶值计算), which an engine may
    list as an element at the value it left: the step's rule, its place among the scoring steps and the step (to
    score a case without it), and the document's sentences about the cap and the limit (where an engine's name
    for it is written)."""

    rule: str
    index: int
    step: Step
    words: str


def cap_items(ruleset_id: str) -> tuple[CapItem, ...]:
    """The ruleset's limit steps (a value above the cap is the cap), each with the sentences about it and about
    the cap it holds the value to (checker.diagnose.notation)."""
    try:
        ruleset = load_ruleset(ruleset_id)
    except (SpecError, ValueError, KeyError, OSError):
        return ()
    caps = {s.rule for s in ruleset.scoring.steps if s.name == "cap" and s.rule}
    out = []
    for index, step in enumerate(ruleset.scoring.steps):
        if step.name == "limit" and step.rule:
            rules = caps | {step.rule}
            words = " ".join(s.phrase for s in ruleset.statements if rules & set(s.rules))
            out.append(CapItem(step.rule, index, step, words))
    return tuple(out)


def document_read(ruleset_id: str, answer: Any) -> Any:
    """An answer with only the fans named in the documents' words read as spec ids (no learned notation)."""
    found = _names_of(ruleset_id)
    return found[0].read(answer, found[1])[0] if found is not None else answer
