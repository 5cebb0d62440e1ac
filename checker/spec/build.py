"""A checked spec built into its typed records (checker.spec.model)."""
from __future__ import annotations

from types import MappingProxyType
from collections.abc import Mapping
from typing import Any

from checker.spec.model import (ENGINE_RULES, PAYMENT_PATHS, Condition, ConditionalExclusion, Counter, Decision, Example,
                                HandCheck, Locator, Option, Pattern, Predicate, Principles, ProcedureExample, Ruleset, Scoring,
                                Settlement, Shape, SpecIssue, Statement, Step, WinRefusal, WinRule, _value)

def defined_rules(data: Mapping[str, Any]) -> dict[str, str]:
    """Every rule id a spec defines, each with where it is defined (a JSON pointer, or the engine): the ids a
    statement's `rules` and a case's `covers` may name."""
    rules: dict[str, str] = dict(ENGINE_RULES)
    for i, p in enumerate(data.get("patterns", [])):
        rules[f"fan.{p['id']}"] = f"/patterns/{i}"
    for oid in data.get("options", {}):
        rules[f"option.{oid}"] = f"/options/{oid}"
    win = data.get("win", {})
    for i, shape in enumerate(win.get("shapes", [])):
        rules[f"shape.{shape['id']}"] = f"/win/shapes/{i}"
    if win.get("minimum_points"):
        rules["win.minimum_points"] = "/win/minimum_points"
    if win.get("minimum_excludes"):
        rules["win.minimum_excludes"] = "/win/minimum_excludes"
    for i, req in enumerate(win.get("requires_flags", [])):
        rules[req["rule"]] = f"/win/requires_flags/{i}"
    for i, refusal in enumerate(win.get("refused_when", [])):
        rules[refusal["rule"]] = f"/win/refused_when/{i}"
    if "requires_allowing_pattern" in win:
        rules[win.get("allowing_pattern_rule", "win.allowed_hands")] = "/win/requires_allowing_pattern"
    for i, st in enumerate((data.get("scoring") or {}).get("steps", [])):
        if st.get("rule"):
            rules[st["rule"]] = f"/scoring/steps/{i}"
    for i, hc in enumerate(data.get("hand_checks", [])):
        rules[hc["id"]] = f"/hand_checks/{i}"
    for name, counter in data.get("counters", {}).items():
        if "rule" in counter:
            rules[counter["rule"]] = f"/counters/{name}"
    if (data.get("tiles") or {}).get("dragons_as_flowers"):
        rules["tiles.dragons_as_flowers"] = "/tiles/dragons_as_flowers"
    for key in data.get("principles", {}):
        rules[f"principle.{key}"] = f"/principles/{key}"
    settlement = data.get("settlement", {})
    for key in PAYMENT_PATHS + ("liability",):
        if key in settlement:
            rules[f"settlement.{key}"] = f"/settlement/{key}"
    if settlement.get("base") or settlement.get("base_counter"):
        rules["settlement.base"] = "/settlement/" + ("base_counter" if settlement.get("base_counter") else "base")
    if "per_share" in settlement:
        rules["settlement.per_share"] = "/settlement/per_share"
    for key in data.get("procedure") or {}:
        rules[f"procedure.{key}"] = f"/procedure/{key}"
    return rules


def _cited(data: Any) -> list[Locator]:
    """Every {doc, section, phrase} locator anywhere in the spec's data, in order."""
    found, stack = [], [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if {"doc", "section", "phrase"} <= set(item) and all(isinstance(item[k], str) for k in ("doc", "phrase")):
                found.append(Locator(item["doc"], str(item["section"]), item["phrase"]))
            stack.extend(reversed(list(item.values())))
        elif isinstance(item, list):
            stack.extend(reversed(item))
    return found


def _locators(items: list | None) -> tuple[Locator, ...]:
    return tuple(Locator(s["doc"], s["section"], s["phrase"]) for s in items or [])


def _predicate(when: dict) -> Predicate:
    return Predicate(when["predicate"], MappingProxyType({k: _value(v) for k, v in (when.get("params") or {}).items()}))


def _applies(raw: Any) -> bool | Condition:
    if raw is None:
        return False
    value = raw.get("applies", True) if isinstance(raw, dict) else raw
    if isinstance(value, dict):
        return Condition(value["option"], value["is"])
    return bool(value)


def _build(data: dict, label: str, warnings: tuple[SpecIssue, ...] = ()) -> Ruleset:
    options = {
        oid: Option(oid, tuple(o["values"]), o["default"], MappingProxyType(dict(o["readings"])),
                    _locators(o["sources"]), o.get("note", ""), o.get("read_by", "scorer"),
                    tuple((o.get("imported") or {}).get("values", ())), (o.get("imported") or {}).get("from", ""),
                    o.get("literal"))
        for oid, o in data.get("options", {}).items()
    }
    patterns = tuple(
        Pattern(
            id=p["id"], name_en=p["name"]["en"], name_zh=p["name"].get("zh", ""),
            points=_value(p["points"]), counting=p.get("counting", "once"), when=_predicate(p["when"]),
            excludes=tuple(p.get("excludes", [])), implies=tuple(p.get("implies", [])),
            implies_within=tuple(p.get("implies_within", [])),
            excludes_if=tuple(ConditionalExclusion(Condition(c["if"]["option"], c["if"]["is"]), tuple(c["excludes"]),
                                                   c.get("count")) for c in p.get("excludes_if", [])),
            requirement=p.get("requirement", ""), note=p.get("note", ""), sources=_locators(p["sources"]),
            kind=p.get("kind", "fan"), allows_win=_value(p.get("allows_win", False)),
            active_if=Condition(p["active_if"]["option"], p["active_if"]["is"]) if "active_if" in p else None,
            cap=p.get("cap"),
        )
        for p in data["patterns"]
    )
    win = data["win"]
    shapes = tuple(Shape(s["id"], s.get("name", {}).get("en", s["id"]), _predicate(s), _locators(s.get("sources")))
                   for s in win["shapes"])
    pr = data.get("principles", {})
    principles = Principles(
        non_repeat=_applies(pr.get("non_repeat")), account_once=_applies(pr.get("account_once")),
        highest_interpretation=_applies(pr.get("highest_interpretation", True)),
        withheld_fans_withhold=_applies(pr.get("withheld_fans_withhold")),
        chicken_hand=pr.get("chicken_hand", {}).get("pattern"),
    )
    st = data["settlement"]
    payers = {k: {role: tuple(v) if isinstance(v, list) else v for role, v in st[k].items()}
              for k in ("self_draw", "discard", "robbing_kong") if k in st}
    settlement = Settlement(st["method"], st.get("base", 0),
                            MappingProxyType({k: MappingProxyType({r: _value(v) for r, v in roles.items()})
                                              for k, roles in payers.items()}),
                            st.get("note", ""), _value(st.get("per_share", ["value"])),
                            MappingProxyType({k: _value(v) for k, v in st.get("contract", {}).items()
                                              if k not in ("sources", "note")}),
                            st.get("base_counter"),
                            MappingProxyType({k: _value(v) for k, v in st.get("liability", {}).items()
                                              if k not in ("sources", "note")}),
                            _value(st.get("direct_base", True)))
    sc = data.get("scoring", {"method": "fan_sum"})
    scoring = Scoring(sc["method"], sc.get("unit", "points"),
                      tuple(Step(x["step"], MappingProxyType({k: _value(v) for k, v in (x.get("params") or {}).items()}),
                                 x.get("rule", "")) for x in sc.get("steps", [])))
    checks = tuple(HandCheck(c["id"], Predicate(c["check"], MappingProxyType({k: _value(v) for k, v in
                                                                            (c.get("params") or {}).items()})),
                             c["message"]) for c in data.get("hand_checks", []))
    statements = tuple(
        Statement(s["id"], s["doc"], s["section"], s["phrase"], tuple(s.get("rules", [])),
                  s.get("status", "modeled"), s.get("why", ""), s.get("reason", ""))
        for s in data["statements"]
    )
    return Ruleset(
        id=data["id"], title=data["title"]["en"], title_zh=data["title"].get("zh", ""), path=label,
        sources=tuple(MappingProxyType(dict(s)) for s in data["sources"]),
        options=MappingProxyType(options),
        win=WinRule(shapes, win.get("minimum_points", 0), tuple(win.get("minimum_excludes", [])),
                    tuple((r["flag"], r["rule"], r["message"], tuple(r.get("exempt", [])))
                          for r in win.get("requires_flags", [])),
                    _applies({"applies": win["requires_allowing_pattern"]}) if "requires_allowing_pattern" in win
                    else False,
                    win.get("allowing_pattern_rule", "win.allowed_hands"),
                    tuple(WinRefusal(r["rule"], r["message"], tuple(r.get("win_by", [])), r.get("flowers"),
                                     r.get("without_flag"), r.get("shape")) for r in win.get("refused_when", []))),
        principles=principles, patterns=patterns, settlement=settlement, statements=statements,
        tiles=MappingProxyType(dict(data.get("tiles", {}))), flags=MappingProxyType(dict(data.get("flags", {}))),
        counters=MappingProxyType({name: Counter(name, c["about"], c["min"], c["max"], c.get("rule", "input.counters"),
                                                 c.get("note", "")) for name, c in data.get("counters", {}).items()}),
        scoring=scoring, hand_checks=checks,
        procedure=MappingProxyType(dict(data.get("procedure", {}))),
        table_context=MappingProxyType(dict(data.get("table_context", {}))), warnings=warnings,
        rules=MappingProxyType(defined_rules(data)), cited=tuple(_cited(data)),
        decisions=tuple(Decision(d["id"], d["question"], d["decided"], tuple(d["by"]), tuple(d["readings"]),
                                 _locators(d["sources"])) for d in data.get("decisions", [])),
        headings=MappingProxyType({doc: tuple(" ".join(str(x).split()) for x in lines)
                                   for doc, lines in data.get("headings", {}).items()}),
        examples=tuple(Example(e["aim"], e.get("use", "witness"), e["concealed"], e["win"],
                               tuple(tuple(m) for m in e.get("melds", [])), e.get("win_by", "self_draw"),
                               e.get("discarder"), e.get("flowers", ""), tuple(e.get("flags", [])),
                               MappingProxyType(dict(e.get("counters", {})))) for e in data.get("examples", [])),
        procedure_examples=tuple(ProcedureExample(e["id"], MappingProxyType(dict(e.get("options", {}))), tuple(e["hands"]),
                                                  e.get("draws", ""), e.get("back", ""), tuple(e["events"]),
                                                  tuple(e["covers"]), e["worked_in"])
                                 for e in data.get("procedure_examples", [])),
    )
