"""Load, validate and type ruleset specs (`spec/*.yaml`): reading a spec file (here), the typed records
(`model`), where files are found (`files`), the checks beyond the schema (`checks`) and building the records
(`build`).

A spec is read with PyYAML's safe loader (no aliases, bounded size), checked against
`spec/schema/ruleset.schema.json` and then for references the schema cannot see: options, pattern ids,
predicates and their parameters, statement rule ids. Every problem becomes a `SpecIssue` naming the file,
the JSON pointer, the YAML line and the reason. The result is a tree of frozen dataclasses.
"""
from __future__ import annotations

import re
from pathlib import Path
from collections.abc import Mapping
from typing import Any

import jsonschema
import yaml

from checker import parse_cache
from checker.inputs import MAX_SPEC_BYTES, InputError, excerpt, read_text_file

from checker.spec.build import _build, defined_rules
from checker.spec.checks import _check_references, _schema_reason
from checker.spec.files import (DEFAULT_RULESET, RULESET_ID, SPEC_PATH, accepted, available_rulesets, corpus_dir, given_files_args,
                                given_files_record, given_key, given_rulesets, ruleset_files, rulesets_given,
                                ruleset_path, schema, spec_dir)
from checker.spec.model import (ENGINE_RULES, PAYMENT_PATHS, Condition, ConditionalExclusion, Counter, Decision,
                                HandCheck, Locator, Option, OptionMap, OptionRef, Pattern, Predicate, Principles,
                                Ruleset, Scoring, Settlement, Shape, SpecError, SpecIssue, Statement, Step, WinRefusal, WinRule,
                                _value, chosen, options_text, value_key)

__all__ = [  # the names the rest of the project takes from checker.spec, wherever they are defined
    "DEFAULT_RULESET", "ENGINE_RULES", "PAYMENT_PATHS", "RULESET_ID", "SPEC_PATH", "Condition", "ConditionalExclusion", "Counter",
    "Decision", "HandCheck", "Locator", "Option", "OptionMap", "OptionRef", "Pattern", "Predicate", "Principles",
    "Ruleset", "Scoring", "Settlement", "Shape", "SpecError", "SpecIssue", "SpecLines", "Statement", "Step",
    "WinRefusal", "WinRule", "_value", "accepted", "available_rulesets", "chosen", "corpus_dir", "defined_rules",
    "load_ruleset", "load_ruleset_file", "named_by_id", "options_text", "pointer_of", "read_yaml", "ruleset_files", "ruleset_path",
    "given_files_args", "given_files_record", "given_key", "given_rulesets", "rulesets_given",
    "schema", "spec_dir", "value_key",
]

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
    parameter specs (from the engine's registry); when given, predicate names and parameters are checked too.
    A ruleset given on the command line (`rulesets_given`) is the one loaded from its file then."""
    given = given_rulesets().get(ruleset_id)
    if given is not None:
        return given
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
    if predicates is not None:
        _bind_defaults(data, predicates)
    return _build(data, label, tuple(warnings))


# where an entry names what it calls, and the prefix its declaration is registered under (checker.engine)
_CALLS = (("predicate", ""), ("step", "step:"), ("check", "check:"))


def _bind_defaults(node: Any, predicates: Mapping[str, Any]) -> None:
    """Give every call to a predicate, shape, step or check (an entry naming one, with its `params`) the
    declared default of each parameter it leaves out (checker.params.Params.defaults): the one place a default
    is applied, so every reader of the bound spec (the scorer, the table) sees the same value."""
    if isinstance(node, dict):
        for key, prefix in _CALLS:
            name = node.get(key)
            declared = predicates.get(prefix + name) if isinstance(name, str) else None
            defaults = getattr(declared, "defaults", None)
            if defaults:
                raw = node.get("params")
                given: dict[str, Any] = raw if isinstance(raw, dict) else {}
                missing = {k: v for k, v in defaults.items() if k not in given}
                if missing:
                    node["params"] = {**given, **missing}
        for value in node.values():
            _bind_defaults(value, predicates)
    elif isinstance(node, list):
        for value in node:
            _bind_defaults(value, predicates)
