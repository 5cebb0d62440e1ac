"""Load, validate and type ruleset specs (`spec/*.yaml`).

A spec is read with PyYAML's safe loader (no aliases, bounded size), checked against
`spec/schema/ruleset.schema.json` and then for references the schema cannot see: options, pattern ids,
predicates and their parameters, statement rule ids. Every problem becomes a `SpecIssue` naming the file,
the JSON pointer, the YAML line and the reason. The result is a tree of frozen dataclasses.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, Mapping

import jsonschema
import yaml

MAX_SPEC_BYTES = 4 * 1024 * 1024

# Rule-id namespaces a statement may name besides fan./option./shape. (which are checked against the spec).
FREE_NAMESPACES = ("win.", "principle.", "settlement.", "context.", "tiles.", "procedure.", "hua.", "double.")


# --------------------------------------------------------------------------- errors

@dataclass(frozen=True)
class SpecIssue:
    """One problem in a spec file: where it is and what is wrong."""

    file: str
    pointer: str
    reason: str
    line: int | None = None

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.pointer or '/'}: {self.reason}"


class SpecError(Exception):
    """A spec failed to load or validate; `issues` lists every problem found."""

    def __init__(self, issues: list[SpecIssue]):
        self.issues = tuple(issues)
        super().__init__("\n".join(str(i) for i in issues))


# --------------------------------------------------------------------------- typed spec

@dataclass(frozen=True)
class Locator:
    doc: str
    section: str
    phrase: str


@dataclass(frozen=True)
class OptionRef:
    """A parameter or value that takes the value of a ruleset option."""

    option: str


@dataclass(frozen=True)
class Condition:
    """True when option `option` has the value `is_`."""

    option: str
    is_: Any


@dataclass(frozen=True)
class Option:
    id: str
    values: tuple
    default: Any
    readings: Mapping[str, str]
    sources: tuple[Locator, ...]
    note: str = ""

    def coerce(self, raw: Any) -> Any:
        """Turn a user-given value (often a string from the command line) into one of `values`."""
        for value in self.values:
            if raw == value and type(raw) is type(value):
                return value
        text = str(raw).strip().lower()
        for value in self.values:
            if value_key(value) == text:
                return value
        allowed = ", ".join(value_key(v) for v in self.values)
        raise ValueError(f"option {self.id!r} has no value {raw!r}; allowed: {allowed}")


@dataclass(frozen=True)
class Predicate:
    name: str
    params: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True)
class Pattern:
    """A scoring pattern (fan, hua item, double): its value, what it excludes, the predicate deciding it."""

    id: str
    name_en: str
    name_zh: str
    points: int | OptionRef
    counting: str
    when: Predicate
    excludes: tuple[str, ...] = ()
    implies: tuple[str, ...] = ()
    implies_within: tuple[str, ...] = ()
    excludes_if: tuple[tuple[Condition, tuple[str, ...]], ...] = ()
    requirement: str = ""
    note: str = ""
    sources: tuple[Locator, ...] = ()
    kind: str = "fan"
    allows_win: bool = False
    active_if: Condition | None = None
    cap: int | None = None


@dataclass(frozen=True)
class Shape:
    id: str
    name_en: str
    when: Predicate
    sources: tuple[Locator, ...] = ()


@dataclass(frozen=True)
class WinRule:
    shapes: tuple[Shape, ...]
    minimum_points: int = 0
    minimum_excludes: tuple[str, ...] = ()
    requires_flags: tuple[tuple[str, str, str, tuple[str, ...]], ...] = ()  # (flag, rule id, message, exempt)
    requires_allowing_pattern: bool | Condition = False
    allowing_pattern_rule: str = "win.allowed_hands"


@dataclass(frozen=True)
class Step:
    """One step of a hua ruleset's scoring, in order."""

    name: str
    params: Mapping[str, Any]
    rule: str = ""


@dataclass(frozen=True)
class Scoring:
    method: str = "fan_sum"
    unit: str = "points"
    steps: tuple[Step, ...] = ()


@dataclass(frozen=True)
class HandCheck:
    id: str
    check: Predicate
    message: str


@dataclass(frozen=True)
class Principles:
    non_repeat: bool | Condition = False
    account_once: bool | Condition = False
    highest_interpretation: bool | Condition = True
    chicken_hand: str | None = None


@dataclass(frozen=True)
class Settlement:
    method: str
    base: int = 0
    payers: Mapping[str, Mapping[str, Any]] = field(default_factory=lambda: MappingProxyType({}))
    note: str = ""
    per_share: tuple[str, ...] = ("value",)
    contract: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    base_counter: str | None = None


@dataclass(frozen=True)
class Statement:
    id: str
    doc: str
    section: str
    phrase: str
    rules: tuple[str, ...] = ()
    status: str = "modeled"
    why: str = ""


@dataclass(frozen=True)
class Ruleset:
    id: str
    title: str
    title_zh: str
    path: str
    sources: tuple[Mapping[str, str], ...]
    options: Mapping[str, Option]
    win: WinRule
    principles: Principles
    patterns: tuple[Pattern, ...]
    settlement: Settlement
    statements: tuple[Statement, ...]
    tiles: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    flags: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    counters: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    scoring: Scoring = field(default_factory=Scoring)
    hand_checks: tuple[HandCheck, ...] = ()
    procedure: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    def pattern(self, pattern_id: str) -> Pattern:
        for p in self.patterns:
            if p.id == pattern_id:
                return p
        raise KeyError(pattern_id)

    def resolve_options(self, overrides: Mapping[str, Any] | None = None) -> Mapping[str, Any]:
        """Defaults overlaid with `overrides`; an unknown option or value raises ValueError naming it."""
        chosen = {oid: opt.default for oid, opt in self.options.items()}
        for key, raw in (overrides or {}).items():
            if key not in self.options:
                known = ", ".join(sorted(self.options)) or "none"
                raise ValueError(f"ruleset {self.id!r} has no option {key!r}; its options: {known}")
            chosen[key] = self.options[key].coerce(raw)
        return MappingProxyType(chosen)

    def rule_ids(self) -> frozenset[str]:
        """Every rule id this spec defines (fan.*, option.*, shape.*), for statements and case `covers`."""
        ids = {f"fan.{p.id}" for p in self.patterns}
        ids |= {f"option.{o}" for o in self.options}
        ids |= {f"shape.{s.id}" for s in self.win.shapes}
        ids |= {st.rule for st in self.scoring.steps if st.rule}
        ids |= {hc.id for hc in self.hand_checks}
        return frozenset(ids)


def value_key(value: Any) -> str:
    """How an option value is written as a key (`readings`) or on the command line: true, 8, table_only."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


# --------------------------------------------------------------------------- locating files

def spec_dir() -> Path:
    """The directory holding the rulesets: the repository's `spec/`, or the copy installed with the package."""
    here = Path(__file__).resolve().parent
    for candidate in (here.parent / "spec", here / "specdata"):
        if (candidate / "schema" / "ruleset.schema.json").is_file():
            return candidate
    raise SpecError([SpecIssue(str(here), "", "no spec directory found (neither the repository's spec/ "
                                              "nor the installed checker/specdata)")])


def available_rulesets() -> list[str]:
    return sorted(p.stem for p in spec_dir().glob("*.yaml"))


def ruleset_path(name_or_path: str) -> Path:
    """A ruleset id (`mcr`) or a path to a YAML file."""
    candidate = Path(name_or_path)
    if candidate.suffix in (".yaml", ".yml") or candidate.exists():
        return candidate
    path = spec_dir() / f"{name_or_path}.yaml"
    if not path.is_file():
        known = ", ".join(available_rulesets())
        raise SpecError([SpecIssue(name_or_path, "", f"unknown ruleset {name_or_path!r}; known rulesets: {known}")])
    return path


@lru_cache(maxsize=None)
def schema(name: str) -> Mapping[str, Any]:
    with open(spec_dir() / "schema" / f"{name}.schema.json", encoding="utf-8") as fh:
        return json.load(fh)


# --------------------------------------------------------------------------- safe YAML with line numbers

class _NoAliasLoader(yaml.SafeLoader):
    """Safe loader that refuses anchors and aliases (no expansion bombs in spec files)."""

    def compose_node(self, parent, index):  # type: ignore[override]
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise yaml.constructor.ConstructorError(
                None, None, "aliases are not allowed in spec files", event.start_mark)
        node = super().compose_node(parent, index)
        if getattr(node, "anchor", None):
            raise yaml.constructor.ConstructorError(None, None, "anchors are not allowed in spec files", node.start_mark)
        return node


def read_yaml(path: Path) -> tuple[Any, Any]:
    """Parse a YAML file safely; returns (data, node tree for line lookups)."""
    label = str(path)
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise SpecError([SpecIssue(label, "", f"cannot read file: {exc.strerror}")]) from None
    if size > MAX_SPEC_BYTES:
        raise SpecError([SpecIssue(label, "", f"file is {size} bytes; spec files are limited to {MAX_SPEC_BYTES}")])
    text = path.read_text(encoding="utf-8")
    try:
        node = yaml.compose(text, Loader=_NoAliasLoader)
        data = yaml.load(text, Loader=_NoAliasLoader)  # noqa: S506 - a SafeLoader subclass
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        line = mark.line + 1 if mark else None
        reason = getattr(exc, "problem", None) or str(exc)
        raise SpecError([SpecIssue(label, "", f"invalid YAML: {reason}", line)]) from None
    return data, node


def line_of(node: Any, pointer: str) -> int | None:
    """The 1-based line of the YAML node at a JSON pointer (the deepest node that exists)."""
    if node is None:
        return None
    parts = [p.replace("~1", "/").replace("~0", "~") for p in pointer.split("/")[1:]] if pointer else []
    line = node.start_mark.line + 1
    for part in parts:
        if isinstance(node, yaml.MappingNode):
            nxt = next((v for k, v in node.value if k.value == part), None)
        elif isinstance(node, yaml.SequenceNode) and part.isdigit() and int(part) < len(node.value):
            nxt = node.value[int(part)]
        else:
            nxt = None
        if nxt is None:
            break
        node = nxt
        line = node.start_mark.line + 1
    return line


def pointer_of(path: Any) -> str:
    return "".join(f"/{str(p).replace('~', '~0').replace('/', '~1')}" for p in path)


# --------------------------------------------------------------------------- loading

def load_ruleset(name_or_path: str | Path, predicates: Mapping[str, Any] | None = None) -> Ruleset:
    """Load and validate one ruleset. `predicates` maps predicate names to their parameter specs
    (from the engine's registry); when given, predicate names and parameters are checked too."""
    path = ruleset_path(str(name_or_path))
    data, node = read_yaml(path)
    label = str(path)
    issues: list[SpecIssue] = []

    def issue(pointer: str, reason: str) -> None:
        issues.append(SpecIssue(label, pointer, reason, line_of(node, pointer)))

    validator = jsonschema.Draft202012Validator(schema("ruleset"))
    for err in sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.absolute_path))):
        issue(pointer_of(err.absolute_path), _schema_reason(err))
    if issues:
        raise SpecError(issues)

    _check_references(data, predicates, issue)
    if issues:
        raise SpecError(issues)
    return _build(data, label)


def _schema_reason(err: jsonschema.ValidationError) -> str:
    if err.validator == "oneOf" and err.context:
        best = jsonschema.exceptions.best_match(err.context)
        return best.message
    return err.message


def _check_references(data: dict, predicates: Mapping[str, Any] | None, issue) -> None:
    options: dict = data.get("options", {})
    pattern_ids = [p["id"] for p in data["patterns"]]
    known_patterns = set(pattern_ids)

    for oid, opt in options.items():
        base = f"/options/{oid}"
        if opt["default"] not in opt["values"]:
            issue(f"{base}/default", f"default {opt['default']!r} is not one of the values {opt['values']}")
        missing = [value_key(v) for v in opt["values"] if value_key(v) not in opt["readings"]]
        if missing:
            issue(f"{base}/readings", f"no reading given for value(s) {', '.join(missing)}")

    def check_option_ref(value: Any, pointer: str) -> None:
        if isinstance(value, dict) and "option" in value:
            if value["option"] not in options:
                issue(pointer, f"unknown option {value['option']!r}")
            elif "is" in value and value["is"] not in options[value["option"]]["values"]:
                issue(pointer, f"option {value['option']!r} has no value {value['is']!r}")

    def check_predicate(when: dict, pointer: str) -> None:
        for pname, pvalue in (when.get("params") or {}).items():
            check_option_ref(pvalue, f"{pointer}/params/{pname}")
        if predicates is None:
            return
        name = when["predicate"]
        if name not in predicates:
            issue(f"{pointer}/predicate", f"unknown predicate {name!r}")
            return
        accepted = predicates[name]
        for pname in when.get("params") or {}:
            if pname not in accepted:
                expected = ", ".join(sorted(accepted)) or "no parameters"
                issue(f"{pointer}/params/{pname}", f"predicate {name!r} takes no parameter {pname!r} (it takes: {expected})")

    seen: set[str] = set()
    for i, pat in enumerate(data["patterns"]):
        base = f"/patterns/{i}"
        if pat["id"] in seen:
            issue(f"{base}/id", f"duplicate pattern id {pat['id']!r}")
        seen.add(pat["id"])
        check_option_ref(pat["points"], f"{base}/points")
        if "active_if" in pat:
            check_option_ref(pat["active_if"], f"{base}/active_if")
        check_predicate(pat["when"], f"{base}/when")
        for key in ("excludes", "implies", "implies_within"):
            for j, ref in enumerate(pat.get(key, [])):
                if ref not in known_patterns:
                    issue(f"{base}/{key}/{j}", f"{key} names unknown pattern {ref!r}")
                elif ref == pat["id"]:
                    issue(f"{base}/{key}/{j}", f"pattern {ref!r} {key} itself")
        for j, cond in enumerate(pat.get("excludes_if", [])):
            check_option_ref(cond["if"], f"{base}/excludes_if/{j}/if")
            for k, ref in enumerate(cond["excludes"]):
                if ref not in known_patterns:
                    issue(f"{base}/excludes_if/{j}/excludes/{k}", f"excludes_if names unknown pattern {ref!r}")

    win = data["win"]
    for j, req in enumerate(win.get("requires_flags", [])):
        for k, ref in enumerate(req.get("exempt", [])):
            if ref not in known_patterns:
                issue(f"/win/requires_flags/{j}/exempt/{k}", f"unknown pattern {ref!r}")
    for j, ref in enumerate(win.get("minimum_excludes", [])):
        if ref not in known_patterns:
            issue(f"/win/minimum_excludes/{j}", f"unknown pattern {ref!r}")
    for j, shape in enumerate(win["shapes"]):
        check_predicate(shape, f"/win/shapes/{j}")

    principles = data.get("principles", {})
    for key, value in principles.items():
        if isinstance(value, dict) and isinstance(value.get("applies"), dict):
            check_option_ref(value["applies"], f"/principles/{key}/applies")
    chicken = principles.get("chicken_hand", {}).get("pattern")
    if chicken is not None and chicken not in known_patterns:
        issue("/principles/chicken_hand/pattern", f"unknown pattern {chicken!r}")

    for j, st in enumerate((data.get("scoring") or {}).get("steps", [])):
        for pname, pvalue in (st.get("params") or {}).items():
            check_option_ref(pvalue, f"/scoring/steps/{j}/params/{pname}")
        if predicates is not None and "step:" + st["step"] not in predicates:
            issue(f"/scoring/steps/{j}/step", f"unknown scoring step {st['step']!r}")
    for j, hc in enumerate(data.get("hand_checks", [])):
        if predicates is None:
            continue
        accepted = predicates.get("check:" + hc["check"])
        if accepted is None:
            issue(f"/hand_checks/{j}/check", f"unknown hand check {hc['check']!r}")
            continue
        for pname in hc.get("params") or {}:
            if pname not in accepted:
                expected = ", ".join(sorted(accepted)) or "no parameters"
                issue(f"/hand_checks/{j}/params/{pname}",
                      f"hand check {hc['check']!r} takes no parameter {pname!r} (it takes: {expected})")
    for kind in ("self_draw", "discard", "robbing_kong"):
        for role, amount in (data["settlement"].get(kind) or {}).items():
            check_option_ref(amount, f"/settlement/{kind}/{role}")
            if isinstance(amount, dict) and "map" in amount and amount["option"] in options:
                missing = [value_key(v) for v in options[amount["option"]]["values"] if value_key(v) not in amount["map"]]
                if missing:
                    issue(f"/settlement/{kind}/{role}/map", f"no amount for option value(s) {', '.join(missing)}")
    declared_counters, declared_flags = set(data.get("counters", {})), set(data.get("flags", {}))
    settle = data["settlement"]
    if settle.get("base_counter") and settle["base_counter"] not in declared_counters:
        issue("/settlement/base_counter", f"counter {settle['base_counter']!r} is not declared in `counters`")
    for key, declared, what in (("partner_counter", declared_counters, "counters"),
                                ("mutual_flag", declared_flags, "flags"), ("ready_flag", declared_flags, "flags")):
        name = (settle.get("contract") or {}).get(key)
        if settle.get("contract") and name not in declared:
            issue(f"/settlement/contract/{key}", f"{key} {name!r} is not declared in `{what}`")
    for j, req in enumerate(win.get("requires_flags", [])):
        if declared_flags and req["flag"] not in declared_flags:
            issue(f"/win/requires_flags/{j}/flag", f"flag {req['flag']!r} is not declared in `flags`")
    if isinstance(win.get("requires_allowing_pattern"), dict):
        check_option_ref(win["requires_allowing_pattern"], "/win/requires_allowing_pattern")

    defined = {f"fan.{p}" for p in pattern_ids} | {f"option.{o}" for o in options}
    defined |= {f"shape.{s['id']}" for s in win["shapes"]}
    defined |= {st["rule"] for st in (data.get("scoring") or {}).get("steps", []) if st.get("rule")}
    defined |= {hc["id"] for hc in data.get("hand_checks", [])}
    seen_statements: set[str] = set()
    for i, st in enumerate(data["statements"]):
        if st["id"] in seen_statements:
            issue(f"/statements/{i}/id", f"duplicate statement id {st['id']!r}")
        seen_statements.add(st["id"])
        for j, rule in enumerate(st.get("rules", [])):
            if rule in defined or rule.startswith(FREE_NAMESPACES):
                continue
            issue(f"/statements/{i}/rules/{j}", f"statement names unknown rule {rule!r}")


def _locators(items: list | None) -> tuple[Locator, ...]:
    return tuple(Locator(s["doc"], s["section"], s["phrase"]) for s in items or [])


@dataclass(frozen=True)
class OptionMap:
    """A value chosen by an option: `map[value of option]`."""

    option: str
    map: Mapping[str, Any]


def _value(raw: Any) -> Any:
    if isinstance(raw, dict) and set(raw) == {"option"}:
        return OptionRef(raw["option"])
    if isinstance(raw, dict) and set(raw) == {"option", "map"}:
        return OptionMap(raw["option"], MappingProxyType(dict(raw["map"])))
    if isinstance(raw, list):
        return tuple(raw)
    return raw


def _predicate(when: dict) -> Predicate:
    return Predicate(when["predicate"], MappingProxyType({k: _value(v) for k, v in (when.get("params") or {}).items()}))


def _applies(raw: Any) -> bool | Condition:
    if raw is None:
        return False
    value = raw.get("applies", True) if isinstance(raw, dict) else raw
    if isinstance(value, dict):
        return Condition(value["option"], value["is"])
    return bool(value)


def _build(data: dict, label: str) -> Ruleset:
    options = {
        oid: Option(oid, tuple(o["values"]), o["default"], MappingProxyType(dict(o["readings"])),
                    _locators(o["sources"]), o.get("note", ""))
        for oid, o in data.get("options", {}).items()
    }
    patterns = tuple(
        Pattern(
            id=p["id"], name_en=p["name"]["en"], name_zh=p["name"].get("zh", ""),
            points=_value(p["points"]), counting=p.get("counting", "once"), when=_predicate(p["when"]),
            excludes=tuple(p.get("excludes", [])), implies=tuple(p.get("implies", [])),
            implies_within=tuple(p.get("implies_within", [])),
            excludes_if=tuple((Condition(c["if"]["option"], c["if"]["is"]), tuple(c["excludes"]))
                              for c in p.get("excludes_if", [])),
            requirement=p.get("requirement", ""), note=p.get("note", ""), sources=_locators(p["sources"]),
            kind=p.get("kind", "fan"), allows_win=bool(p.get("allows_win", False)),
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
        chicken_hand=pr.get("chicken_hand", {}).get("pattern"),
    )
    st = data["settlement"]
    payers = {k: {role: tuple(v) if isinstance(v, list) else v for role, v in st[k].items()}
              for k in ("self_draw", "discard", "robbing_kong") if k in st}
    settlement = Settlement(st["method"], st.get("base", 0),
                            MappingProxyType({k: MappingProxyType({r: _value(v) for r, v in roles.items()})
                                              for k, roles in payers.items()}),
                            st.get("note", ""), tuple(st.get("per_share", ["value"])),
                            MappingProxyType({k: _value(v) for k, v in st.get("contract", {}).items()
                                              if k not in ("sources", "note")}),
                            st.get("base_counter"))
    sc = data.get("scoring", {"method": "fan_sum"})
    scoring = Scoring(sc["method"], sc.get("unit", "points"),
                      tuple(Step(x["step"], MappingProxyType({k: _value(v) for k, v in (x.get("params") or {}).items()}),
                                 x.get("rule", "")) for x in sc.get("steps", [])))
    checks = tuple(HandCheck(c["id"], Predicate(c["check"], MappingProxyType({k: _value(v) for k, v in
                                                                            (c.get("params") or {}).items()})),
                             c["message"]) for c in data.get("hand_checks", []))
    statements = tuple(
        Statement(s["id"], s["doc"], s["section"], s["phrase"], tuple(s.get("rules", [])),
                  s.get("status", "modeled"), s.get("why", ""))
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
                    win.get("allowing_pattern_rule", "win.allowed_hands")),
        principles=principles, patterns=patterns, settlement=settlement, statements=statements,
        tiles=MappingProxyType(dict(data.get("tiles", {}))), flags=MappingProxyType(dict(data.get("flags", {}))),
        counters=MappingProxyType(dict(data.get("counters", {}))), scoring=scoring, hand_checks=checks,
        procedure=MappingProxyType(dict(data.get("procedure", {}))),
    )
