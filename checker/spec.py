"""Load, validate and type ruleset specs (`spec/*.yaml`).

A spec is read with PyYAML's safe loader (no aliases, bounded size), checked against
`spec/schema/ruleset.schema.json` and then for references the schema cannot see: options, pattern ids,
predicates and their parameters, statement rule ids. Every problem becomes a `SpecIssue` naming the file,
the JSON pointer, the YAML line and the reason. The result is a tree of frozen dataclasses.
"""
from __future__ import annotations

import difflib
import json
import os
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from collections.abc import Mapping
from typing import Any

import jsonschema
import jsonschema_rs
import yaml

from checker import params, parse_cache
from checker.inputs import MAX_SPEC_BYTES, InputError, excerpt, read_text_file


# Rules the engine enforces on every hand under any ruleset (Hand.build and the scorer report them).
ENGINE_RULES = {
    "tiles.hand_size": "the engine: 14 tiles plus one per kong",
    "tiles.four_copies": "the engine: four copies of each tile, one of each flower",
    "win.shape": "the engine: the tiles form one of the ruleset's winning shapes (win.shapes)",
}


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
        return f"{where}: {self.pointer}: {self.reason}" if self.pointer else f"{where}: {self.reason}"


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
class ConditionalExclusion:
    """Patterns a pattern keeps from counting when an option has a value (`excludes_if`): all their instances,
    or at most `count` of them (the rest count)."""

    when: Condition
    excludes: tuple[str, ...]
    count: int | None = None


@dataclass(frozen=True)
class Option:
    id: str
    values: tuple
    default: Any
    readings: Mapping[str, str]
    sources: tuple[Locator, ...]
    note: str = ""
    read_by: str = "scorer"  # "table": a reading of the table procedure (checker.table); the scorer never reads it
    # values the spec brings in from elsewhere (`imported.from`), which the document itself does not read
    imported: tuple = ()
    imported_from: str = ""

    def other_values(self, current: Any = None) -> list[Any]:
        """The values other than `current` (the default when not given), in the spec's order; compared by value
        and type, so True is not taken for 1."""
        current = self.default if current is None else current
        return [v for v in self.values if not (v == current and type(v) is type(current))]

    def coerce(self, raw: Any) -> Any:
        """Turn a user-given value (often a string from the command line) into one of `values`."""
        for value in self.values:
            if raw == value and (type(raw) is type(value) or (type(raw) is float and type(value) is int)):
                return value  # (a number written 6.0 is 6, as the schemas read it; true is no number)
        text = str(raw).strip().lower()
        for value in self.values:
            if value_key(value) == text:
                return value
        allowed = ", ".join(value_key(v) for v in self.values)
        raise ValueError(f"option {self.id!r} has no value {excerpt(raw)}; allowed: {allowed}")


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
    excludes_if: tuple[ConditionalExclusion, ...] = ()
    requirement: str = ""
    note: str = ""
    sources: tuple[Locator, ...] = ()
    kind: str = "fan"
    allows_win: bool | OptionRef = False
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

    @property
    def required_flags(self) -> tuple[str, ...]:
        """The flags an ordinary win needs (`requires_flags`: the knock), by name."""
        return tuple(flag for flag, _, _, _ in self.requires_flags)


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
    per_share: tuple[str, ...] | OptionMap = ("value",)  # the terms of one share, or an option's choice of them
    contract: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    base_counter: str | None = None
    # 包: a discard win the discarder pays for all (applies, patterns, claimed_sets, discarder, others)
    liability: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True)
class Counter:
    """Whole-number context a hand may carry (荒番 count, 底分), with the range a hand may give it; a value
    outside it is bad input reported as `rule`."""

    name: str
    about: str
    min: int
    max: int
    rule: str = "input.counters"
    note: str = ""


@dataclass(frozen=True)
class Statement:
    id: str
    doc: str
    section: str
    phrase: str
    rules: tuple[str, ...] = ()
    status: str = "modeled"
    why: str = ""
    reason: str = ""  # for a not-modeled statement: platform, advice or scope


@dataclass(frozen=True)
class Decision:
    """A point the document leaves open that the spec or the engine decides without it (spec `decisions`):
    what decides it (`by`: rule ids or engine files), the reading taken first among `readings`, and the
    sentences that bear on it."""

    id: str
    question: str
    decided: str
    by: tuple[str, ...]
    readings: tuple[str, ...]
    sources: tuple[Locator, ...] = ()


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
    counters: Mapping[str, Counter] = field(default_factory=lambda: MappingProxyType({}))
    scoring: Scoring = field(default_factory=Scoring)
    hand_checks: tuple[HandCheck, ...] = ()
    procedure: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    # fact of play -> the flag (or, for contract_partner, the counter) the table sets for it on a win
    table_context: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    warnings: tuple[SpecIssue, ...] = ()  # what loads but deserves a look (an exclusion cycle)
    rules: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))  # rule id -> where defined
    cited: tuple[Locator, ...] = ()  # every locator anywhere in the spec (statements, patterns' sources, ...)
    decisions: tuple[Decision, ...] = ()  # what the spec or the engine decides where the document is silent

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
                raise ValueError(f"ruleset {self.id!r} has no option {excerpt(key)}; its options: {known}")
            chosen[key] = self.options[key].coerce(raw)
        return MappingProxyType(chosen)

    def scoring_options(self) -> Mapping[str, Option]:
        """The options the scorer reads (those of the table procedure left out: they never change a score)."""
        return {oid: o for oid, o in self.options.items() if o.read_by == "scorer"}

    def rule_ids(self) -> frozenset[str]:
        """Every rule id this spec defines (see `defined_rules`), for statements and case `covers`."""
        return frozenset(self.rules)


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


def corpus_dir() -> Path | None:
    """The directory holding the checked-in corpora and the documents' examples: the repository's `corpus/`, or
    the copy installed with the package; None when neither is there."""
    here = Path(__file__).resolve().parent
    for candidate in (here.parent / "corpus", here / "corpusdata"):
        if (candidate / "mcr-examples.jsonl").is_file():
            return candidate
    return None


SPEC_PATH = "MJCHECK_SPEC_PATH"  # folders of rulesets of one's own, beside the shipped ones (os.pathsep between)


def ruleset_files() -> dict[str, Path]:
    """Every ruleset by id: the shipped ones (`spec_dir()`), then those of each folder the environment variable
    MJCHECK_SPEC_PATH names (a ruleset of one's own is then named by its id like a shipped one; its schema is the
    shipped one). SpecError for a folder that is not there or an id two folders both hold."""
    found: dict[str, Path] = {p.stem: p for p in sorted(spec_dir().glob("*.yaml"))}
    for entry in filter(None, os.environ.get(SPEC_PATH, "").split(os.pathsep)):
        folder = Path(entry)
        if not folder.is_dir():
            raise SpecError([SpecIssue(SPEC_PATH, "", f"{excerpt(entry)} is not a folder (each entry of "
                                                      f"{SPEC_PATH} is a folder of ruleset .yaml files)")])
        for path in sorted(folder.glob("*.yaml")):
            if path.stem in found:
                raise SpecError([SpecIssue(str(path), "", f"ruleset id {path.stem!r} is also {found[path.stem]}: "
                                                          f"a ruleset id names one file")])
            found[path.stem] = path
    return found


def available_rulesets() -> list[str]:
    return sorted(ruleset_files())


RULESET_ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")


def ruleset_path(ruleset_id: str) -> Path:
    """The spec file of a ruleset named by its id (`mcr`; shipped, or in a folder of MJCHECK_SPEC_PATH). An id is
    never read as a path: a spec file of one's own is loaded with `load_ruleset_file`, from a path given on the
    command line."""
    files = ruleset_files()
    known = sorted(files)
    if not isinstance(ruleset_id, str) or ruleset_id not in known:
        shown = excerpt(ruleset_id)
        hint = "" if isinstance(ruleset_id, str) and RULESET_ID.fullmatch(ruleset_id) else \
            " (a ruleset is named by its id; give a spec file of your own with --ruleset-file)"
        raise SpecError([SpecIssue("ruleset", "", f"unknown ruleset {shown}{hint}; known rulesets: {', '.join(known)}")])
    return files[ruleset_id]


@lru_cache(maxsize=None)
def schema(name: str) -> Mapping[str, Any]:
    with open(spec_dir() / "schema" / f"{name}.schema.json", encoding="utf-8") as fh:
        return json.load(fh)


def accepted(name: str, value: Any, definition: str | None = None) -> bool:
    """Whether the schema `name` (or its `$defs/definition`) accepts `value`, by jsonschema-rs: a validator written
    in Rust, ten to a hundred times faster than jsonschema. Only an acceptance is taken from it: every caller
    checks a refusal again with jsonschema, the authority, which also words the message (tests/test_case_schema.py
    checks that the two agree). A value it cannot take in (a key that is not a string, a date) is not accepted."""
    try:
        return _fast_validator(name, definition).is_valid(value)
    except (ValueError, OverflowError, RecursionError):
        return False


@lru_cache(maxsize=None)
def _fast_validator(name: str, definition: str | None) -> Any:
    whole = dict(schema(name))
    if definition is not None:
        whole = {**whole["$defs"][definition], "$defs": whole["$defs"], "$schema": whole["$schema"]}
    return jsonschema_rs.validator_for(whole)


# --------------------------------------------------------------------------- safe YAML with line numbers

class _NoAliasLoader(yaml.SafeLoader):
    """Safe loader that refuses anchors and aliases (no expansion bombs in spec files)."""

    def compose_node(self, parent, index):  # type: ignore[override]
        event = self.peek_event()
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
            what = "aliases" if isinstance(event, yaml.AliasEvent) else "anchors"
            raise yaml.constructor.ConstructorError(None, None, f"{what} are not allowed in spec files",
                                                    event.start_mark)
        return super().compose_node(parent, index)


_LIBYAML: bool = bool(getattr(yaml, "__with_libyaml__", False))


# An anchor is & and an alias * followed at once by a character of its name (neither a space nor a flow
# indicator): a text without that pair has neither, and its tokens need not be read.
_MAYBE_ANCHOR = re.compile(r"[&*][^\s,\[\]{}]")


def _refuse_anchors(text: str) -> None:
    """ConstructorError at the first anchor or alias of the text (read by libyaml's scanner), as
    _NoAliasLoader refuses them."""
    if _MAYBE_ANCHOR.search(text) is None:
        return
    for token in yaml.scan(text, Loader=yaml.CSafeLoader):
        if isinstance(token, (yaml.AnchorToken, yaml.AliasToken)):
            what = "anchors" if isinstance(token, yaml.AnchorToken) else "aliases"
            raise yaml.constructor.ConstructorError(None, None, f"{what} are not allowed in spec files",
                                                    token.start_mark)


def read_yaml(path: str | Path) -> tuple[Any, SpecLines]:
    """Parse a YAML file safely; returns (data, where each node starts), read from the parse cache when the
    same text was parsed before (checker.parse_cache). Every way the file can be unreadable (missing, a
    directory, too large, not UTF-8, nested too deeply, a number of thousands of digits) is a SpecError naming
    the file and, where known, the line."""
    label = str(path)
    try:
        text = read_text_file(label, MAX_SPEC_BYTES, "spec file")
    except InputError as exc:
        raise SpecError([SpecIssue(exc.label or "(no file name)", "", f"cannot {exc.action}: {exc.reason}",
                                   exc.line)]) from None
    hit = parse_cache.cached(text)
    if hit is not None:
        return hit[0], SpecLines(hit[1])
    try:
        loader: Any
        if _LIBYAML:  # libyaml's safe loader, four times faster; its tokens are read first for anchors and aliases
            _refuse_anchors(text)
            loader = yaml.CSafeLoader(text)
        else:
            loader = _NoAliasLoader(text)  # a SafeLoader subclass
        try:  # parsed once, the data built from the node tree
            node = loader.get_single_node()
            data = loader.construct_document(node) if node is not None else None
        finally:
            loader.dispose()
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        line = mark.line + 1 if mark else None
        reason = getattr(exc, "problem", None) or str(exc)
        if "maximum nesting depth" in reason:  # libyaml's own limit (a thousand levels)
            raise SpecError([SpecIssue(label, "", "cannot parse: YAML nested too deeply", line)]) from None
        raise SpecError([SpecIssue(label, "", f"invalid YAML: {excerpt(reason, 200).strip(chr(39))}", line)]) from None
    except RecursionError:
        raise SpecError([SpecIssue(label, "", "cannot parse: YAML nested too deeply")]) from None
    except ValueError as exc:  # an integer over Python's digit limit, or a value the safe loader cannot build
        reason = "a number with too many digits" if "integer string conversion" in str(exc) else excerpt(str(exc))
        raise SpecError([SpecIssue(label, "", f"cannot parse: {reason}")]) from None
    lines = _node_lines(node)
    parse_cache.store(text, data, lines)
    return data, SpecLines(lines)


class SpecLines:
    """Where each node of a parsed spec starts: its 1-based line by JSON pointer."""

    def __init__(self, by_pointer: Mapping[str, int]):
        self.by_pointer = by_pointer

    def line(self, pointer: str) -> int | None:
        """The line of the node at a JSON pointer, or of the deepest node on its way that exists."""
        while True:
            found = self.by_pointer.get(pointer)
            if found is not None or not pointer:
                return found
            pointer = pointer[:pointer.rfind("/")]


def _node_lines(root: Any) -> dict[str, int]:
    """Every node's line by its JSON pointer (a key given twice: the first, as a reader of the file finds it;
    a key that is not a scalar has no pointer)."""
    lines: dict[str, int] = {}
    stack = [("", root)] if root is not None else []
    while stack:
        pointer, node = stack.pop()
        if pointer in lines:
            continue
        lines[pointer] = node.start_mark.line + 1
        if isinstance(node, yaml.MappingNode):
            stack.extend((pointer + pointer_of([key.value]), value)
                         for key, value in reversed(node.value) if isinstance(key, yaml.ScalarNode))
        elif isinstance(node, yaml.SequenceNode):
            stack.extend((f"{pointer}/{index}", value) for index, value in reversed(list(enumerate(node.value))))
    return lines


def pointer_of(path: Any) -> str:
    return "".join(f"/{str(p).replace('~', '~0').replace('/', '~1')}" for p in path)


# --------------------------------------------------------------------------- loading

def load_ruleset(ruleset_id: str, predicates: Mapping[str, Any] | None = None) -> Ruleset:
    """Load and validate a shipped ruleset by its id (`mcr`). `predicates` maps predicate names to their
    parameter specs (from the engine's registry); when given, predicate names and parameters are checked too."""
    return named_by_id(load_ruleset_file(ruleset_path(ruleset_id), predicates), ruleset_id)


def named_by_id(ruleset: Ruleset, ruleset_id: str) -> Ruleset:
    """The ruleset loaded by its id, or SpecError when its file's `id` is another: a ruleset is named by its
    file, `<id>.yaml` (in spec/ or a folder of MJCHECK_SPEC_PATH), and cases and corpora name it by that id."""
    if ruleset.id != ruleset_id:
        raise SpecError([SpecIssue(ruleset.path, "/id", f"{excerpt(ruleset.id)}, but the file names the ruleset "
                                                        f"{ruleset_id!r}: a ruleset's file is named <id>.yaml")])
    return ruleset


def load_ruleset_file(path: str | Path, predicates: Mapping[str, Any] | None = None) -> Ruleset:
    """Load and validate the ruleset in a spec file (a path the user gave on the command line)."""
    data, lines = read_yaml(path)
    label = str(path)
    issues: list[SpecIssue] = []

    warnings: list[SpecIssue] = []

    def issue(pointer: str, reason: str) -> None:
        issues.append(SpecIssue(label, pointer, reason, lines.line(pointer)))

    def warn(pointer: str, reason: str) -> None:
        warnings.append(SpecIssue(label, pointer, reason, lines.line(pointer)))

    if not accepted("ruleset", data):
        validator = jsonschema.Draft202012Validator(schema("ruleset"))
        for err in sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.absolute_path))):
            issue(pointer_of(err.absolute_path), _schema_reason(err))
    if issues:
        raise SpecError(issues)

    _check_references(data, predicates, issue, warn)
    if issues:
        raise SpecError(issues)
    return _build(data, label, tuple(warnings))


def _schema_reason(err: jsonschema.ValidationError) -> str:
    fixed = _fixed_field(err)
    if fixed is not None:  # a field whose only value is the one the engine plays (the schema's x-fixed)
        only = f"takes only {_shown(fixed['const'])}" if "const" in fixed else "takes no other value"
        return f"{only}, not {_shown(err.instance)}: {fixed['x-fixed']}"
    if err.validator == "oneOf" and err.context:
        best = jsonschema.exceptions.best_match(err.context)
        return best.message
    return err.message


def _fixed_field(err: jsonschema.ValidationError) -> Mapping[str, Any] | None:
    """The schema of the field a schema error is about when that field is fixed (`x-fixed`: the engine plays one
    value of it and the schema admits no other), else None. Found along the error's path through the schema."""
    root = schema("ruleset")
    node: Any = root
    found = None
    for part in err.absolute_schema_path:
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            return found
        if part == "$ref" and isinstance(node, str) and node.startswith("#/"):
            target: Any = root
            for step in node[2:].split("/"):
                target = target[step]
            node = target
        if isinstance(node, Mapping) and "x-fixed" in node:
            found = node
    return found


def _check_references(data: dict, predicates: Mapping[str, Any] | None, issue, warn) -> None:
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
        for j, v in enumerate((opt.get("imported") or {}).get("values", [])):
            if v not in opt["values"] or (v == opt["default"] and type(v) is type(opt["default"])):
                issue(f"{base}/imported/values/{j}", f"{v!r} is not one of the values other than the default "
                      f"{opt['default']!r}: only another reading can be brought in from elsewhere")

    def check_option_ref(value: Any, pointer: str, noun: str = "value") -> None:
        """An option named in place of a value: known, `is` one of its values, a `map` giving a `noun` for each
        of its values and for no other (each mapped value checked in turn: it may name another option)."""
        if isinstance(value, dict) and "option" in value:
            if value["option"] not in options:
                issue(pointer, f"unknown option {value['option']!r}")
            elif "is" in value and value["is"] not in options[value["option"]]["values"]:
                issue(pointer, f"option {value['option']!r} has no value {value['is']!r}")
            elif isinstance(value.get("map"), dict):
                keys = [value_key(v) for v in options[value["option"]]["values"]]
                missing = [k for k in keys if k not in value["map"]]
                if missing:
                    issue(f"{pointer}/map", f"no {noun} for option value(s) {', '.join(missing)}")
                extra = [excerpt(k) for k in value["map"] if k not in keys]
                if extra:
                    issue(f"{pointer}/map", f"option {value['option']!r} has no value(s) {', '.join(extra)}")
            for key, mapped in (value.get("map") or {}).items():
                check_option_ref(mapped, f"{pointer}/map/{key}", noun)

    sections = {"flags": set(data.get("flags") or {}), "counters": set(data.get("counters") or {}),
                "patterns": known_patterns}

    def check_params(entry: dict, accepted: Any, what: str, pointer: str, where: str = "") -> None:
        """The parameters given to one predicate, shape, step or check (`what`, e.g. "predicate 'wait'"):
        each known, each value (or each value its option can take) of its declared type, the required given."""
        given = entry.get("params") or {}
        for pname, pvalue in given.items():
            if pname not in accepted:
                expected = ", ".join(sorted(accepted)) or "no parameters"
                issue(f"{pointer}/params/{pname}", f"{what} takes no parameter {pname!r} (it takes: {expected})")
            elif isinstance(accepted, Mapping):
                reason = _param_problem(pvalue, accepted[pname], options, sections)
                if reason:
                    issue(f"{pointer}/params/{pname}", f"parameter {pname!r} of {what} {reason}{where}")
        missing = sorted(getattr(accepted, "required", frozenset()) - set(given))
        if missing:
            issue(f"{pointer}/params" if "params" in entry else pointer,
                  f"{what} needs parameter(s) {', '.join(missing)}{where}")

    def check_predicate(when: dict, pointer: str, where: str = "", noun: str = "predicate") -> None:
        for pname, pvalue in (when.get("params") or {}).items():
            check_option_ref(pvalue, f"{pointer}/params/{pname}")
        if predicates is None:
            return
        name = when["predicate"]
        if name not in predicates:
            issue(f"{pointer}/predicate", f"unknown predicate {name!r}")
            return
        check_params(when, predicates[name], f"{noun} {name!r}", pointer, where)

    seen: set[str] = set()
    for i, pat in enumerate(data["patterns"]):
        base = f"/patterns/{i}"
        if pat["id"] in seen:
            issue(f"{base}/id", f"duplicate pattern id {pat['id']!r}")
        seen.add(pat["id"])
        check_option_ref(pat["points"], f"{base}/points")
        if "active_if" in pat:
            check_option_ref(pat["active_if"], f"{base}/active_if")
        if isinstance(pat.get("allows_win"), dict):
            check_option_ref(pat["allows_win"], f"{base}/allows_win")
            chosen = options.get(pat["allows_win"]["option"], {}).get("values", [])
            if any(not isinstance(v, bool) for v in chosen):
                issue(f"{base}/allows_win", f"option {pat['allows_win']['option']!r} must take true or false")
        check_predicate(pat["when"], f"{base}/when", f" (in pattern {pat['id']!r})")
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
        check_predicate(shape, f"/win/shapes/{j}", noun="shape")

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
        elif predicates is not None:
            check_params(st, predicates["step:" + st["step"]], f"scoring step {st['step']!r}", f"/scoring/steps/{j}")
    for j, hc in enumerate(data.get("hand_checks", [])):
        if predicates is None:
            continue
        accepted = predicates.get("check:" + hc["check"])
        if accepted is None:
            issue(f"/hand_checks/{j}/check", f"unknown hand check {hc['check']!r}")
            continue
        for pname, pvalue in (hc.get("params") or {}).items():
            check_option_ref(pvalue, f"/hand_checks/{j}/params/{pname}")
        check_params(hc, accepted, f"hand check {hc['check']!r}", f"/hand_checks/{j}", f" (in hand check {hc['id']!r})")
    def walk_procedure(value: Any, pointer: str) -> None:
        """Options named in the procedure: known, and marked as read by the table (never by the scorer)."""
        if isinstance(value, dict) and "option" in value:
            check_option_ref(value, pointer)
            if value["option"] in options and options[value["option"]].get("read_by") != "table":
                issue(pointer, f"option {value['option']!r} is read by the table procedure: mark it read_by: table")
        elif isinstance(value, dict):
            for key, inner in value.items():
                walk_procedure(inner, f"{pointer}/{key}")

    for key, entry in (data.get("procedure") or {}).items():
        walk_procedure(entry, f"/procedure/{key}")
    method = data["settlement"]["method"]
    for kind in ("self_draw", "discard", "robbing_kong"):
        for role, amount in (data["settlement"].get(kind) or {}).items():
            check_option_ref(amount, f"/settlement/{kind}/{role}", "amount")
            misfits = [_shown(a) for a in _amounts(amount, options) if not _fits_method(a, method)]
            if misfits:
                issue(f"/settlement/{kind}/{role}", f"under method {method} an amount is "
                      + ("a list of base and points terms" if method == "base_plus_points" else "a whole number of shares")
                      + f", not {', '.join(misfits[:3])}")
    for name, counter in data.get("counters", {}).items():
        if counter["min"] > counter["max"]:
            issue(f"/counters/{name}", f"counter {name!r} has min {counter['min']} above max {counter['max']}")
    _check_cycles(data["patterns"], warn)
    _check_exclusion_order(data, warn)
    declared_counters, declared_flags = set(data.get("counters", {})), set(data.get("flags", {}))
    settle = data["settlement"]
    if settle.get("base_counter") and settle["base_counter"] not in declared_counters:
        issue("/settlement/base_counter", f"counter {settle['base_counter']!r} is not declared in `counters`")
    if isinstance(settle.get("per_share"), dict):
        check_option_ref(settle["per_share"], "/settlement/per_share", "terms")
    for key, value in (settle.get("contract") or {}).items():
        check_option_ref(value, f"/settlement/contract/{key}", "amount")
    contract = settle.get("contract") or {}
    for key, declared, what in (("partner_counter", declared_counters, "counters"),
                                ("mutual_flag", declared_flags, "flags"), ("ready_flag", declared_flags, "flags")):
        name = contract.get(key)
        if contract and name not in declared:
            issue(f"/settlement/contract/{key}", f"{key} {name!r} is not declared in `{what}`")
    if "double_win_flag" in contract:
        if contract["double_win_flag"] not in declared_flags:
            issue("/settlement/contract/double_win_flag",
                  f"double_win_flag {contract['double_win_flag']!r} is not declared in `flags`")
        missing = [k for k in ("double_win_ready", "double_win_not_ready") if k not in contract]
        if missing:
            issue("/settlement/contract", f"double_win_flag needs {' and '.join(missing)}")
    liability = settle.get("liability") or {}
    for key in ("applies", "discarder", "others"):
        if key in liability:
            check_option_ref(liability[key], f"/settlement/liability/{key}", "amount" if key != "applies" else "value")
    not_bool = [_shown(a) for a in _amounts(liability.get("applies", True), options) if not isinstance(a, bool)]
    if not_bool:
        issue("/settlement/liability/applies", f"applies is true or false, not {', '.join(not_bool[:3])}")
    for key in ("discarder", "others"):
        misfits = [_shown(a) for a in _amounts(liability.get(key, 0), options) if not _fits_method(a, "shares")]
        if misfits:
            issue(f"/settlement/liability/{key}", f"an amount is a whole number of shares, not {', '.join(misfits[:3])}")
    if liability and method != "shares":
        issue("/settlement/liability", f"a liability pays in shares: settlement method {method} has none")
    for j, pid in enumerate(liability.get("patterns", [])):
        if pid not in known_patterns:
            issue(f"/settlement/liability/patterns/{j}", f"unknown pattern {pid!r}")
    for fact, name in (data.get("table_context") or {}).items():
        declared, section = (declared_counters, "counters") if fact == "contract_partner" else (declared_flags, "flags")
        if name not in declared:
            issue(f"/table_context/{fact}", f"{name!r} is not declared in `{section}`")
    for j, req in enumerate(win.get("requires_flags", [])):
        if declared_flags and req["flag"] not in declared_flags:
            issue(f"/win/requires_flags/{j}/flag", f"flag {req['flag']!r} is not declared in `flags`")
    if isinstance(win.get("requires_allowing_pattern"), dict):
        check_option_ref(win["requires_allowing_pattern"], "/win/requires_allowing_pattern")

    defined = defined_rules(data)
    seen_decisions: set[str] = set()
    for i, dec in enumerate(data.get("decisions", [])):
        if dec["id"] in seen_decisions:
            issue(f"/decisions/{i}/id", f"duplicate decision id {dec['id']!r}")
        seen_decisions.add(dec["id"])
        for j, what in enumerate(dec["by"]):
            if not what.startswith("checker/") and what not in defined:
                issue(f"/decisions/{i}/by/{j}", f"decision names rule {what!r}, which this spec does not define "
                                                f"(name a rule id, or an engine file as checker/...)")
    seen_statements: set[str] = set()
    for i, st in enumerate(data["statements"]):
        if st["id"] in seen_statements:
            issue(f"/statements/{i}/id", f"duplicate statement id {st['id']!r}")
        seen_statements.add(st["id"])
        for j, rule in enumerate(st.get("rules", [])):
            if rule in defined:
                continue
            close = difflib.get_close_matches(rule, list(defined), n=1)
            issue(f"/statements/{i}/rules/{j}", f"statement names rule {rule!r}, which this spec does not define"
                  + (f" (did you mean {close[0]!r}?)" if close else "")
                  + "; rule ids name a pattern (fan.), option, shape, scoring step, hand check, counter, "
                    "principle, settlement path, procedure entry, or a rule the engine enforces")


# The ways a win is paid that a spec's `settlement` may price, each the rule `settlement.<way>`: self-draw, a
# discard, a robbed kong, a contract (承包)
PAYMENT_PATHS: tuple[str, ...] = ("self_draw", "discard", "robbing_kong", "contract")


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


def _check_cycles(patterns: list, warn) -> None:
    """Warn of a cycle of `excludes` / `implies` / `implies_within` (a fan that, through others, withholds
    itself). Which fan of a cycle counts would depend on the order the scorer looks at them, so a cycle
    changes a score wherever its fans can be found together in one reading; whether they can is a question
    for the hunter's exhaustive search, not for the loader (MCR's Pure shifted pungs and Pure triple chow
    exclude each other and never meet in one reading). Reported once per cycle, at its first pattern."""
    index = {p["id"]: i for i, p in enumerate(patterns)}
    edges = {p["id"]: [r for key in ("excludes", "implies", "implies_within") for r in p.get(key, [])
                       if r in index and r != p["id"]] for p in patterns}
    done: set[str] = set()
    for root in edges:  # iterative depth-first search: a hostile spec may chain thousands of patterns
        if root in done:
            continue
        path, on_path, stack = [], set(), [(root, iter(edges[root]))]
        path.append(root)
        on_path.add(root)
        while stack:
            node, children = stack[-1]
            child = next(children, None)
            if child is None:
                stack.pop()
                path.pop()
                on_path.discard(node)
                done.add(node)
            elif child in on_path:
                cycle = path[path.index(child):] + [child]
                first = min(cycle[:-1], key=index.__getitem__)
                warn(f"/patterns/{index[first]}", "excludes/implies cycle: " + " → ".join(cycle)
                     + " (each withholds the next: if they can be found in one reading, which counts depends "
                       "on the order they are looked at)")
            elif child not in done:
                stack.append((child, iter(edges[child])))
                path.append(child)
                on_path.add(child)


WITHHOLDING = ("excludes", "implies", "implies_within")


def _check_exclusion_order(data: Mapping[str, Any], warn) -> None:
    """Warn of a link (`excludes`, `implies`, `implies_within`, `excludes_if`) that can never apply: the scorer
    looks at patterns in one order (checker.engine.scoring: by value, then the spec's order, under fan_sum; the
    spec's order under any other method) and a counted pattern withholds only those it has not looked at yet, so
    a link to a pattern looked at first withholds nothing. Searched over every reading of the options that decide
    it (the two patterns' points and `active_if`, the `excludes_if` condition). A link inside a cycle of links is
    left to the cycle's own warning."""
    patterns = data["patterns"]
    options = data.get("options", {})
    index = {p["id"]: i for i, p in enumerate(patterns)}
    fan_sum = (data.get("scoring") or {}).get("method", "fan_sum") == "fan_sum"
    edges = {p["id"]: {r for key in WITHHOLDING for r in p.get(key, []) if r in index} for p in patterns}

    def reaches(start: str, goal: str) -> bool:
        seen, todo = {start}, [start]
        while todo:
            for nxt in edges[todo.pop()]:
                if nxt == goal:
                    return True
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return False

    def readable(holder: Mapping[str, Any], target: Mapping[str, Any], condition: Any) -> bool:
        """Whether some reading of the options has both patterns active, the condition holding and the holder
        looked at before the target."""
        named = []
        for p in (holder, target):
            for ref in (p.get("points"), p.get("active_if")):
                if isinstance(ref, dict) and ref.get("option") in options and ref["option"] not in named:
                    named.append(ref["option"])
        if isinstance(condition, dict) and condition.get("option") in options and condition["option"] not in named:
            named.append(condition["option"])
        readings: list[dict[str, Any]] = [{}]
        for oid in named:
            readings = [{**r, oid: v} for r in readings for v in options[oid]["values"]]
        for reading in readings:
            if not all(_holds_in(cond, reading) for cond in (holder.get("active_if"), target.get("active_if"),
                                                             condition)):
                continue
            if not fan_sum:
                return index[holder["id"]] < index[target["id"]]
            points: list[Any] = [reading.get(p["points"]["option"]) if isinstance(p["points"], dict) else p["points"]
                                 for p in (holder, target)]
            if not all(isinstance(x, int) and not isinstance(x, bool) for x in points):
                return True  # a points option that is not a number is reported elsewhere; say nothing here
            if (-points[0], index[holder["id"]]) < (-points[1], index[target["id"]]):
                return True
        return False

    order = ("the scorer looks at patterns by value, then in the spec's order" if fan_sum
             else "the scorer looks at patterns in the spec's order")
    for i, p in enumerate(patterns):
        links = [(f"/patterns/{i}/{key}/{j}", key, ref, None)
                 for key in WITHHOLDING for j, ref in enumerate(p.get(key, []))]
        links += [(f"/patterns/{i}/excludes_if/{j}/excludes/{k}", "excludes_if", ref, cond.get("if"))
                  for j, cond in enumerate(p.get("excludes_if", [])) for k, ref in enumerate(cond.get("excludes", []))]
        for pointer, key, ref, condition in links:
            if ref not in index or ref == p["id"] or reaches(ref, p["id"]):
                continue
            if not readable(p, patterns[index[ref]], condition):
                warn(pointer, f"pattern {p['id']!r} {key} {ref!r}, which can never apply: {order}, and under "
                              f"no reading of the options is {p['id']!r} active and looked at before {ref!r} (a "
                              f"counted pattern withholds only those looked at after it)")


def _holds_in(condition: Any, reading: Mapping[str, Any]) -> bool:
    """Whether a condition ({option, is}, or none) holds under a reading of the options it names."""
    return not isinstance(condition, dict) or reading.get(condition.get("option", "")) == condition.get("is")


def _amounts(amount: Any, options: Mapping[str, Any]) -> list[Any]:
    """Every amount a settlement entry can come to, over the values of the options it names."""
    if isinstance(amount, dict) and "option" in amount:
        if isinstance(amount.get("map"), dict):
            return [a for mapped in amount["map"].values() for a in _amounts(mapped, options)]
        return list(options[amount["option"]]["values"]) if amount["option"] in options else []
    return [amount]


def _fits_method(amount: Any, method: str) -> bool:
    """Whether a settlement amount is of the kind its method pays: terms (base_plus_points) or shares."""
    if method == "base_plus_points":
        return isinstance(amount, list)
    return isinstance(amount, int) and not isinstance(amount, bool) and amount >= 0


def _param_problem(value: Any, declared: Mapping[str, Any], options: Mapping[str, Any],
                   sections: Mapping[str, set]) -> str:
    """Why a parameter's value does not fit its declared type (checker.params), or "" if it fits. A value
    taken from an option fits when every value the option can take (or every value its `map` gives, itself
    perhaps taken from another option) fits."""
    if isinstance(value, dict) and "option" in value:
        opt = options.get(value["option"])
        if opt is None:
            return ""  # reported as an unknown option
        if "map" in value:
            bad = [f"{value_key(k)} to {_shown(v)}" for k, v in value["map"].items()
                   if _param_problem(v, declared, options, sections)]
            given = "maps " + ", ".join(bad[:3])
        else:
            bad = [_shown(v) for v in opt["values"] if _value_problem(v, declared, sections)]
            given = "can be " + " or ".join(bad[:3])
        return f"must be {params.describe(declared)}, but option {value['option']!r} {given}" if bad else ""
    return _value_problem(value, declared, sections)


def _value_problem(value: Any, declared: Mapping[str, Any], sections: Mapping[str, set]) -> str:
    if not params.fits(value, declared):
        return f"must be {params.describe(declared)}, not {_shown(value)}"
    section = declared.get(params.NAMES)
    if section and sections.get(section) and value not in sections[section]:
        what = "pattern" if section == "patterns" else section.rstrip("s")
        return f"names {what} {_shown(value)}, which the ruleset does not declare in `{section}`"
    return ""


def _shown(value: Any) -> str:
    """A value as a message quotes it: as YAML writes true, false and null; anything long cut short."""
    if isinstance(value, bool) or value is None:
        return "null" if value is None else value_key(value)
    return excerpt(value)


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
        return OptionMap(raw["option"], MappingProxyType({k: _value(v) for k, v in raw["map"].items()}))
    if isinstance(raw, list):
        return tuple(raw)
    return raw


def chosen(value: Any, options: Mapping[str, Any]) -> Any:
    """A spec value under chosen options: an option's value (OptionRef), or what an option's `map` gives for
    its value, which may name another option in turn (OptionMap); any other value as it is. The engine calls
    it when it binds a ruleset to options, never while scoring."""
    if isinstance(value, OptionRef):
        return options[value.option]
    if isinstance(value, OptionMap):
        return chosen(value.map[value_key(options[value.option])], options)
    return value


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
                    tuple((o.get("imported") or {}).get("values", ())), (o.get("imported") or {}).get("from", ""))
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
                                              if k not in ("sources", "note")}))
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
                    win.get("allowing_pattern_rule", "win.allowed_hands")),
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
    )
