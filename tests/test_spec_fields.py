"""Every spec field does something: each field of each shipped spec is read by the code that executes it, or
the schema declares it data (with its reason), or the schema holds it to the one value the engine plays.

How a field is known to be read (spec/schema/ruleset.schema.json, on the field's property):

- `x-read-by: MODULE` (or `MODULE:NAME` when the typed record calls it otherwise, e.g. a pattern's `name` is
  `name_en`): that module reads it. Checked two ways.
  Statically, for every field: the module's code (its syntax tree, so not a comment or a docstring) names the key
  as an attribute, a variable or a string. That alone is weak (a name may be read for something else), so:
  At run time, for the table procedure and for the settlement's contract (承包) and liability (包), the parts of
  a spec no scorer test walks field by field: `checker.spec.bind` (through checker.spec.procedure) is the only code that reads a
  spec's `procedure:` (checker.table.state, settle and bots see only the `TableRules` it makes, and
  `TableRules.has`, an entry's presence) and it records every field it reads (`TableRules.read`); binding it under
  the default options and under every other value of every option the table reads must read every `x-read-by`
  field the spec holds. The contract and liability are handed to the scorer and the table wrapped in a mapping
  that records each key looked up, and the same holds of them. A test then checks that every field of
  `TableRules` is used by the table's own modules, so what is read goes somewhere.
  Binding reads everything the table will ever read (it reads nothing later), so replaying the procedure corpora
  would find no other read: binding under every reading is the stronger check, and much cheaper.
- `x-data-only: REASON`: documentation, provenance, names, notes; the whole subtree is data. A procedure entry
  holding `not_executed` is data too (the schema's rule for procedure entries; the table skips it).
- `x-fixed: REASON`: the engine plays one value only and the schema admits no other; `spec validate` refuses any
  other naming the file, the field and the value (checked below on a copy of each spec, field by field).

What reading a field is worth is shown for the fields an audit found doing nothing: a copy of a spec with each
set otherwise either is refused, or plays differently (a hand-made log whose verdict changes).
"""
from __future__ import annotations

import ast
import copy
import dataclasses
import json
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator

import jsonschema
import pytest
import yaml
from typer.testing import CliRunner

import checker
from checker.case import CaseRunner
from checker.cli import app
from checker.corpus.scenes import MK_FILL_1, MK_FILL_2, MK_FILL_3, MK_OPEN, MK_ROUND, SCENES, event, header
from checker.engine import Scorer, load_ruleset, load_ruleset_file
from checker.spec import SpecError, spec_dir
from checker.table.events import parse_event
from checker.table.log import new_table, replay_events
from checker.tiles import format_tiles
from checker.spec.bind import bind
from checker.spec.procedure import FIXED, TableRules

RULESETS = ("mcr", "shanghai-knocking", "shanghai-classic")
ROOT = Path(__file__).resolve().parents[1]
KNOCKING, CLASSIC = "shanghai-knocking", "shanghai-classic"
KINDS = ("x-read-by", "x-data-only", "x-fixed")
runner = CliRunner()


# --------------------------------------------------------------------------- the walk over a spec's fields

@lru_cache(maxsize=1)
def ruleset_schema() -> dict:
    return json.loads((spec_dir() / "schema" / "ruleset.schema.json").read_text(encoding="utf-8"))


def fragments(node: Mapping[str, Any], value: Any) -> list[Mapping[str, Any]]:
    """The schemas that hold of `value` at `node`: the node, what its $ref names, and each alternative of its
    oneOf / anyOf that accepts the value (each followed the same way)."""
    root = ruleset_schema()
    out, todo = [], [node]
    while todo:
        n = todo.pop()
        out.append(n)
        if "$ref" in n:
            target: Any = root
            for step in n["$ref"][2:].split("/"):
                target = target[step]
            todo.append(target)
        for key in ("oneOf", "anyOf", "allOf"):
            for alt in n.get(key, []):
                if key == "allOf" or jsonschema.Draft202012Validator({**alt, "$defs": root["$defs"]}).is_valid(value):
                    todo.append(alt)
    return out


def annotation(schemas: list[Mapping[str, Any]]) -> tuple[str, str] | None:
    """The field's declaration: x-fixed over x-data-only over x-read-by (a field a fixed use narrows, such as
    highest_interpretation's `applies`, is fixed whatever the shared definition says)."""
    for kind in ("x-fixed", "x-data-only", "x-read-by"):
        for s in schemas:
            if kind in s:
                return kind, s[kind]
    return None


@dataclasses.dataclass(frozen=True)
class Field:
    pointer: str  # in the spec, e.g. /procedure/lou_hu/lifted_by
    key: str
    kind: str | None  # x-read-by, x-data-only, x-fixed; None: not declared
    says: str


def fields(data: Any) -> Iterator[Field]:
    """Every field of a spec's data, each with its declaration. A key of a map of names (an option's id, a
    counter's name, a parameter) is no field; what it maps to is walked. A data-only or fixed field's subtree, and
    a procedure entry holding `not_executed`, are data: not walked further."""
    def walk(node: Mapping[str, Any], value: Any, pointer: str) -> Iterator[Field]:
        schemas = fragments(node, value)
        if isinstance(value, dict):
            for key, inner in value.items():
                props = [s["properties"][key] for s in schemas if key in s.get("properties", {})]
                where = f"{pointer}/{key}"
                if props:
                    inner_schemas = [f for p in props for f in fragments(p, inner)]
                    declared = annotation(inner_schemas)
                    kind, says = declared if declared else (None, "")
                    yield Field(where, key, kind, says)
                    if kind in ("x-data-only", "x-fixed"):
                        continue
                    if pointer == "/procedure" and isinstance(inner, dict) and "not_executed" in inner:
                        continue
                    for p in props:
                        yield from walk(p, inner, where)
                else:
                    extra = [s["additionalProperties"] for s in schemas if isinstance(s.get("additionalProperties"), dict)]
                    if extra and annotation(extra) and annotation(extra)[0] == "x-data-only":
                        yield Field(where, key, "x-data-only", annotation(extra)[1])
                        continue
                    for e in extra:
                        yield from walk(e, inner, where)
        elif isinstance(value, list):
            for s in schemas:
                if isinstance(s.get("items"), dict):
                    for i, inner in enumerate(value):
                        yield from walk(s["items"], inner, f"{pointer}/{i}")

    seen: set[str] = set()
    for f in walk(ruleset_schema(), data, ""):
        if f.pointer not in seen:  # a field two alternatives both define is one field
            seen.add(f.pointer)
            yield f


def spec_data(ruleset_id: str) -> dict:
    return yaml.safe_load((spec_dir() / f"{ruleset_id}.yaml").read_text(encoding="utf-8"))


@lru_cache(maxsize=None)
def names_in(module: str) -> frozenset[str]:
    """What a module's code names: attributes, variables and strings (comments and docstrings left out)."""
    path = Path(checker.__file__).resolve().parent.joinpath(*module.split(".")[1:]).with_suffix(".py")
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                  if isinstance(n, (ast.Module, ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)) and n.body
                  and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    found: set[str] = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Attribute):
            found.add(n.attr)
        elif isinstance(n, ast.Name):
            found.add(n.id)
        elif isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docstrings:
            found.add(n.value)
    return frozenset(found)


# --------------------------------------------------------------------------- every field: read, data or fixed

@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_every_field_of_every_shipped_spec_is_read_or_declared(ruleset_id):
    # The walk meets every field of the spec (the audit's offenders among them); each must be declared, and an
    # x-read-by field must be named by the code of the module said to read it.
    found = list(fields(spec_data(ruleset_id)))
    pointers = {f.pointer for f in found}
    # the walk reaches the nested fields (a sample from every section it must cover)
    sample = {"mcr": ["/procedure/dealer_rotation/draws_count", "/principles/highest_interpretation/applies",
                      "/procedure/replacement_draw/after_flower", "/tiles/total", "/win/minimum_points",
                      "/patterns/0/excludes", "/settlement/robbing_kong/others"],
              KNOCKING: ["/procedure/mandatory_kong/robbable", "/procedure/mandatory_kong/unless_self_draw_win",
                         "/procedure/flower_exposure/continues_after_knock", "/procedure/forgo_then_reclaim/blocks",
                         "/scoring/steps/1/params", "/hand_checks/0/message"],
              CLASSIC: ["/procedure/lou_hu/lifted_by", "/procedure/melds_shown/claimed",
                        "/procedure/dealer_discards_first", "/settlement/contract/calls",
                        "/settlement/liability/claimed_sets", "/counters/huangfan/max", "/procedure/dice"]}
    assert set(sample[ruleset_id]) <= pointers, set(sample[ruleset_id]) - pointers
    undeclared = [f.pointer for f in found if f.kind is None]
    assert undeclared == [], f"fields neither read nor declared data-only or fixed: {undeclared}"
    unread = []
    for f in found:
        if f.kind == "x-read-by":
            module, _, name = f.says.partition(":")
            if (name or f.key) not in names_in(module):
                unread.append((f.pointer, f.says))
    assert unread == [], f"x-read-by names a module whose code never names the field: {unread}"
    assert all(f.says.strip() for f in found), "a declaration with no module or reason"


def test_every_field_the_schema_admits_is_declared():
    # Not only the fields the shipped specs use: every property a spec of one's own could give, reached from the
    # schema's root (through $ref, oneOf, anyOf, items, maps), carries a declaration of its own or through the
    # definition it names; beneath a data-only or fixed one, nothing more is asked.
    root = ruleset_schema()
    undeclared, seen, checked = [], set(), []

    def named(ref: str) -> Mapping[str, Any]:
        target: Any = root
        for step in ref[2:].split("/"):
            target = target[step]
        return target

    def declared(prop: Mapping[str, Any]) -> bool:
        return any(k in prop for k in KINDS) or ("$ref" in prop and any(k in named(prop["$ref"]) for k in KINDS))

    def walk(node: Any, path: str) -> None:
        if not isinstance(node, Mapping):
            return
        if "$ref" in node and node["$ref"] not in seen:
            seen.add(node["$ref"])
            walk(named(node["$ref"]), node["$ref"])
        for name, prop in node.get("properties", {}).items():
            here = f"{path}/properties/{name}"
            checked.append(here)
            if not declared(prop):
                undeclared.append(here)
            elif not any(k in prop for k in ("x-data-only", "x-fixed")):
                walk(prop, here)
        for key in ("oneOf", "anyOf", "allOf"):
            for i, alt in enumerate(node.get(key, [])):
                walk(alt, f"{path}/{key}/{i}")
        for key in ("items", "additionalProperties"):
            if isinstance(node.get(key), Mapping) and not any(k in node[key] for k in ("x-data-only", "x-fixed")):
                walk(node[key], f"{path}/{key}")

    walk(root, "#")
    assert undeclared == []
    # the walk reached the fields of the definitions too (a pattern's cap, a contract's calls, a payer's share)
    assert {"#/$defs/pattern/properties/cap", "#/$defs/payers/properties/others",
            "#/properties/settlement/properties/contract/properties/calls"} <= set(checked), len(checked)


def test_the_walk_fails_on_a_field_nobody_declared():
    # The check above can fail: the schema with the declaration of procedure.knock.signal taken away leaves that
    # field (in shanghai-knocking) undeclared, and the walk reports it.
    schema = ruleset_schema()
    signal = schema["properties"]["procedure"]["properties"]["knock"]["properties"]["signal"]
    saved = dict(signal)
    try:
        signal.pop("x-data-only")
        undeclared = [f.pointer for f in fields(spec_data(KNOCKING)) if f.kind is None]
    finally:
        signal.clear()
        signal.update(saved)
    assert undeclared == ["/procedure/knock/signal"]


def value_at(data: Any, pointer: str) -> Any:
    for part in pointer.strip("/").split("/"):
        data = data[int(part)] if isinstance(data, list) else data[part]
    return data


def entry_of_fields(value: Any) -> bool:
    """A mapping of fields (not a value an option chooses: {option} or {option, map})."""
    return isinstance(value, dict) and not (value and set(value) <= {"option", "map"})


def table_readings(rs) -> list[dict[str, Any]]:
    """The default options, then each other value of each option the table reads, one at a time."""
    return [{}] + [{oid: v} for oid, o in rs.options.items() if o.read_by == "table" for v in o.other_values()]


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_every_procedure_field_said_to_be_read_by_the_table_is_read_when_it_is_bound(ruleset_id):
    # Runtime: binding records each procedure field it reads (Bound.procedure.read); under the readings of the table's options
    # together, it reads every procedure field the schema says checker.spec.procedure reads (an entry holding fields
    # is read through them: knock/locks_hand is asked for, not knock; an option's choice is a value).
    rs = load_ruleset(ruleset_id)
    read: set[str] = set()
    for reading in table_readings(rs):
        read |= bind(rs, reading).procedure.read
    data = spec_data(ruleset_id)
    said = {f.pointer[len("/procedure/"):] for f in fields(data) if f.pointer.startswith("/procedure/")
            and f.kind == "x-read-by" and f.says == "checker.spec.procedure" and not entry_of_fields(value_at(data, f.pointer))}
    assert said, "no procedure field is said to be read"
    assert sorted(said - read) == []


class Recorded(Mapping):
    """A mapping that records each key looked up (get, [], in)."""

    def __init__(self, data: Mapping[str, Any], seen: set[str]):
        self._data, self._seen = dict(data), seen

    def __getitem__(self, key):
        self._seen.add(key)
        return self._data[key]

    def __contains__(self, key):
        self._seen.add(key)
        return key in self._data

    def get(self, key, default=None):
        self._seen.add(key)
        return self._data.get(key, default)

    def __iter__(self):
        return iter(self._data)

    def __len__(self):
        return len(self._data)


def test_every_contract_and_liability_field_said_to_be_read_is_read_when_bound():
    # Runtime, shanghai-classic (the spec with a contract and a liability): the scorer (its settlement) and the
    # table are bound under the default options and every other value of every option, one at a time, with the
    # contract and the liability wrapped in Recorded; every field the schema says checker.engine.settlement or
    # checker.spec.procedure reads is looked up. (`calls` is the table's: the count of calls that makes a contract.)
    rs = load_ruleset(CLASSIC)
    seen = {"contract": set(), "liability": set()}
    settlement = dataclasses.replace(rs.settlement, contract=Recorded(rs.settlement.contract, seen["contract"]),
                                     liability=Recorded(rs.settlement.liability, seen["liability"]))
    recorded = dataclasses.replace(rs, settlement=settlement)
    readings = [{}] + [{oid: v} for oid, o in rs.options.items() for v in o.other_values()]
    for reading in readings:
        Scorer(recorded, reading)
        bind(recorded, {k: v for k, v in reading.items() if rs.options[k].read_by == "table"}).procedure
    for part in ("contract", "liability"):
        said = {f.key for f in fields(spec_data(CLASSIC))
                if f.pointer.startswith(f"/settlement/{part}/") and f.pointer.count("/") == 3 and f.kind == "x-read-by"}
        assert said and sorted(said - seen[part]) == [], part
    # the data-only ones are not handed on at all (spec.py keeps the notes and sources out of the bound record)
    assert "note" not in rs.settlement.contract and "sources" not in rs.settlement.liability


def test_every_table_rule_is_used_by_the_table():
    # What the binding step reads goes into TableRules; each of its fields is used by the table's own modules (the
    # state machine, the settlement of a hand, the bots, the log), never only made. Two fields are about the
    # binding itself, not rules: `read` (what it read) and `defaulted` (where the spec was silent; the hunter's).
    table = Path(checker.__file__).resolve().parent / "table"
    used = set()
    for path in table.glob("*.py"):
        if path.name != "rules.py":
            used |= names_in(f"checker.table.{path.stem}")
    unused = [f.name for f in dataclasses.fields(TableRules) if f.name not in used
              and f.name not in ("read", "defaulted")]
    assert unused == []


def test_the_fixed_entries_the_table_checks_are_fixed_in_the_schema_alike():
    # checker.spec.procedure.FIXED (what the table refuses to play otherwise) and the schema's x-fixed consts say the
    # same: turn [draw, discard], dealer_discards_first true, unclaimed_discard next_player_draws.
    props = ruleset_schema()["properties"]["procedure"]["properties"]
    assert {name: props[name].get("const") for name in FIXED} == {name: list(v) if isinstance(v, tuple) else v
                                                                  for name, v in FIXED.items()}
    assert all("x-fixed" in props[name] for name in FIXED)


# --------------------------------------------------------------------------- fixed fields: any other value refused

def other_value(value: Any) -> Any:
    """A value of the same type as `value` that is not it."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, str):
        return value + "_otherwise"
    if isinstance(value, list):
        return value[:-1]
    raise AssertionError(value)


def set_at(data: dict, pointer: str, value: Any) -> None:
    parts = pointer.strip("/").split("/")
    node: Any = data
    for part in parts[:-1]:
        node = node[int(part)] if isinstance(node, list) else node[part]
    node[parts[-1]] = value


def write_copy(tmp_path: Path, data: dict, name: str = "edited.yaml") -> Path:
    """The spec's data written out (as JSON, which is YAML: ten times faster to write than YAML)."""
    path = tmp_path / name
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    return path


def refusal(path: Path) -> list:
    with pytest.raises(SpecError) as caught:
        load_ruleset_file(path)
    return list(caught.value.issues)


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_every_fixed_field_of_every_shipped_spec_refuses_another_value(ruleset_id, tmp_path):
    # Each x-fixed field the spec holds, set to another value of its type (true -> false, a number -> one more, a
    # word -> another, a list -> its last item dropped), makes the spec refused, naming that field alone.
    # Counted by hand from the specs and the schema's x-fixed fields:
    #   every spec: tiles total and flowers, procedure turn, flower_exposure order and replacement_from, claims
    #   pung_kong_from (6); mcr adds highest_interpretation's applies and replacement_draw after_kong and
    #   after_flower (9); knocking adds after_kong, after_flower, continues_after_knock, forgo_then_reclaim
    #   lifted_by and mandatory_kong extends (11); classic adds applies, dealer_discards_first, claims by,
    #   melds_shown claimed and concealed_kong, unclaimed_discard, replacement_draw after, lou_hu applies_when and
    #   scope, tile_swap when, with, taken_from and buried (19).
    data = spec_data(ruleset_id)
    fixed = [f for f in fields(data) if f.kind == "x-fixed"]
    assert len(fixed) == {"mcr": 9, KNOCKING: 11, CLASSIC: 19}[ruleset_id]
    for f in fixed:
        edited = copy.deepcopy(data)
        parts = f.pointer.strip("/").split("/")
        node: Any = edited
        for part in parts:
            node = node[int(part)] if isinstance(node, list) else node[part]
        set_at(edited, f.pointer, other_value(node))
        issues = refusal(write_copy(tmp_path, edited))
        assert [i.pointer for i in issues] == [f.pointer], (f.pointer, [str(i) for i in issues])
        assert "takes" in issues[0].reason, str(issues[0])


def test_dealer_discards_first_false_is_refused_by_spec_validate_naming_file_field_and_value(tmp_path):
    # shanghai-classic says 庄家从牌中选出一张最无用的牌丢出 (dealer_discards_first: true); false, which building a
    # game refused while `spec validate` said ok, is now refused by validate: exit 2, the file, the field and
    # the value named.
    data = spec_data(CLASSIC)
    data["procedure"]["dealer_discards_first"] = False
    path = write_copy(tmp_path, data, "classic-dealer-draws.yaml")
    r = runner.invoke(app, ["spec", "validate", str(path)])
    assert r.exit_code == 2
    assert "classic-dealer-draws.yaml" in r.output and "/procedure/dealer_discards_first" in r.output
    assert "takes only true, not false" in r.output
    r = runner.invoke(app, ["spec", "validate", str(path), "--json"])
    (problem,) = json.loads(r.stdout)["problems"]
    assert problem["pointer"] == "/procedure/dealer_discards_first" and problem["line"]


@pytest.mark.parametrize("ruleset_id, pointer", [
    (KNOCKING, "/procedure/flower_exposure/continues_after_knock"),
    ("mcr", "/procedure/replacement_draw/after_flower"),
    ("mcr", "/principles/highest_interpretation/applies"),
    (CLASSIC, "/procedure/melds_shown/claimed"),
    (CLASSIC, "/procedure/melds_shown/concealed_kong"),
])
def test_an_audited_field_the_engine_plays_one_way_is_refused_otherwise(ruleset_id, pointer, tmp_path):
    # Each passed `spec validate` with any value and changed nothing; the engine plays one value of each (flowers
    # go on after a knock; a flower is replaced; the best interpretation is scored; claimed melds shown, concealed
    # kongs hidden): the other is refused, by `spec validate` too (exit 2).
    data = spec_data(ruleset_id)
    parts = pointer.strip("/").split("/")
    node: Any = data
    for part in parts:
        node = node[part]
    set_at(data, pointer, not node)
    path = write_copy(tmp_path, data)
    r = runner.invoke(app, ["spec", "validate", str(path), "--json"])
    assert r.exit_code == 2
    assert [p["pointer"] for p in json.loads(r.stdout)["problems"]] == [pointer]


@pytest.mark.parametrize("ruleset_id, edit, pointer, words", [
    # the deal's dragons are flowers exactly when tiles.dragons_as_flowers says so (knocking: true)
    (KNOCKING, lambda d: d["procedure"]["flower_exposure"].__setitem__("dragons_too", False),
     "/procedure/flower_exposure/dragons_too", "false, but tiles.dragons_as_flowers is true"),
    # only added kongs robbed, and no other kong named robbable: false says nothing the table can play
    ("mcr", lambda d: d["procedure"].__setitem__("robbing_only_added_kongs", False),
     "/procedure/robbing_only_added_kongs", "false, but robbing_kong/any_kong_exposing_a_tile is false"),
    # the knock required to win by the table but not by the scorer (win.requires_flags names the knocked flag)
    (KNOCKING, lambda d: d["procedure"]["knock"].__setitem__("required_to_win", False),
     "/procedure/knock/required_to_win", "false, but win.requires_flags names the knocked flag 'knocked'"),
    ("shanghai-classic", lambda d: d["win"]["requires_flags"][0].__setitem__("flag", "kaibao"),
     "/procedure/knock/required_to_win", "true, but win.requires_flags does not name the knocked flag 'knocked'"),
    # a written-out hand of play the wall cannot deal, or an event not in the short form: named by its field
    ("shanghai-classic", lambda d: d["procedure_examples"][0]["hands"].__setitem__(1, "2m1s2s4s5s8s2p4p5p6p5z6z7x"),
     "/procedure_examples/0/hands/1", "7x"),
    ("shanghai-classic", lambda d: d["procedure_examples"][0]["hands"].__setitem__(1, "2m1s2s4s5s8s2p4p5p6p5z6z"),
     "/procedure_examples/0/hands/1", "seat 1 is dealt 13 tiles, not 12"),
    ("shanghai-classic", lambda d: d["procedure_examples"][0]["events"].__setitem__(0, "zero discards 1z"),
     "/procedure_examples/0/events/0", "is not an event written short"),
    # a dead wall said, none kept back
    (KNOCKING, lambda d: d["procedure"].__setitem__("dead_wall", True), "/procedure/dead_wall", "keeps no tile back"),
    # an option value the table cannot play, under that option's reading
    (KNOCKING, lambda d: d["options"]["knock_missed_win"]["values"].append("shrug")
     or d["options"]["knock_missed_win"]["readings"].__setitem__("shrug", "?"),
     "/procedure/knock/missed_win", "'shrug' is not forfeit_hand or not_allowed (under knock_missed_win=shrug)"),
])
def test_spec_validate_refuses_what_building_a_game_refuses(ruleset_id, edit, pointer, words, tmp_path):
    # `spec validate` binds the table under every reading of the table's options: what building a game would
    # refuse, it refuses (exit 2), naming the file and the field. The shipped specs pass (exit 0).
    assert runner.invoke(app, ["spec", "validate"]).exit_code == 0
    data = spec_data(ruleset_id)
    edit(data)
    path = write_copy(tmp_path, data, "own.yaml")
    r = runner.invoke(app, ["spec", "validate", str(path), "--json"])
    assert r.exit_code == 2, r.output
    (problem,) = json.loads(r.stdout)["problems"]
    assert problem["file"].endswith("own.yaml") and problem["pointer"] == pointer and words in problem["reason"]


# --------------------------------------------------------------------------- the audit's fields, now executed

def runner_with(tmp_path: Path, ruleset_id: str, edit) -> CaseRunner:
    """A case runner whose `ruleset_id` is the shipped spec edited by `edit` (loaded and validated)."""
    data = spec_data(ruleset_id)
    edit(data)
    return CaseRunner({ruleset_id: load_ruleset_file(write_copy(tmp_path, data, f"{ruleset_id}-edited.yaml"))})


def verdict(hdr, events, with_runner=None):
    """(verdict, rule, line, result) of replaying the log (events written as text or as dicts)."""
    r = replay_events(hdr, [event(e) if isinstance(e, str) else e for e in events], with_runner)
    return r.verdict, r.rule, r.line, r.result


# 漏胡 (classic): seat 0, 111m 999p 111s 33z 44z 9s, knocks with 9s (waits on 3z/4z) and lets seat 1's 3z go;
# it pungs seat 2's 4z, discards 1m, and wins on seat 1's last 3z (tests/test_table_knocking_classic.py,
# test_lou_hu_is_lifted_by_a_pung).
LH_HANDS = {0: "111m999p111s3z3z4z4z9s", 1: "234m567m234p567p8m", 2: "234s567s234s567s8s",
            3: "1z1z1z2z2z2z8p8p8s5z5z6z7z"}
LH_PUNG_LOG = ["0 knock", "0 discard 9s", "1 draw 3z", "1 discard 3z", "2 draw 4z", "2 discard 4z", "0 pung",
               "0 discard 1m", "1 draw 3z", "1 discard 3z", "0 win"]


def test_lou_hu_lifted_by_is_executed(tmp_path):
    # lifted_by [pung, chow, kong, draw] (the spec): the pung lifts the block, the win on the last 3z is legal.
    # lifted_by without pung: the block outlives the pung, and that win (line 12: the header, then 11 events) is
    # refused under procedure.lou_hu.
    hdr = header(CLASSIC, LH_HANDS, draws="3z4z3z")
    assert verdict(hdr, LH_PUNG_LOG)[:2] == ("legal", "")
    edited = runner_with(tmp_path, CLASSIC, lambda d: d["procedure"]["lou_hu"].__setitem__("lifted_by",
                                                                                            ["chow", "kong", "draw"]))
    assert verdict(hdr, LH_PUNG_LOG, edited)[:3] == ("illegal", "procedure.lou_hu", 12)


def test_mandatory_kong_unless_self_draw_win_is_executed(tmp_path):
    # Knocking: seat 0 holds 123m 456m 68p 99p [777p] after its knock (MK_OPEN: it punged seat 1's 7p), draws the
    # fourth 7p, which completes 678p: a self-draw win. unless_self_draw_win true (the spec): the win is legal.
    # false: the compulsion comes first: that win (line 15: the header, 6 + 7 events, then the win) is refused
    # under procedure.mandatory_kong; the kong it asks for is legal.
    hdr = header(KNOCKING, {0: "123m456m68p99p77p1s2s", 1: MK_FILL_1, 2: MK_FILL_2, 3: MK_FILL_3}, draws="7p3s4s8s7p",
                 back="9s")
    log = list(MK_OPEN + MK_ROUND) + ["0 win"]
    assert verdict(hdr, log)[0] == "legal"
    edited = runner_with(tmp_path, KNOCKING, lambda d: d["procedure"]["mandatory_kong"].__setitem__(
        "unless_self_draw_win", False))
    assert verdict(hdr, log, edited)[:3] == ("illegal", "procedure.mandatory_kong", 15)
    assert verdict(hdr, log[:-1] + ["0 add_kong 7p", "0 draw 9s back"], edited)[:2] == ("unfinished", "procedure.turn")


def test_mandatory_kong_robbable_is_executed(tmp_path):
    # Knocking (the scene of test_ready_knocked_player_robs_the_mandatory_add_kong): seat 2, ready on 7p, robs seat
    # 0's mandatory add_kong of the fourth 7p. robbable true (the spec): legal, paid 3 × 20 by the konger.
    # robbable false: that win is refused under procedure.mandatory_kong; seat 0 draws its replacement instead.
    scene = next(sc for sc in SCENES if sc.test == "test_ready_knocked_player_robs_the_mandatory_add_kong")
    hdr, log = scene.header(KNOCKING), list(scene.events)
    assert log[-2:] == ["0 add_kong 7p", "2 win"]
    legal = verdict(hdr, log)
    assert legal[0] == "legal" and legal[3]["payments"] == [-60, 0, 60, 0]
    edited = runner_with(tmp_path, KNOCKING, lambda d: d["procedure"]["mandatory_kong"].__setitem__("robbable", False))
    assert verdict(hdr, log, edited)[:3] == ("illegal", "procedure.mandatory_kong", len(log) + 1)
    assert verdict(hdr, log[:-1] + ["0 draw back"], edited)[0] == "unfinished"


# Forgo-then-reclaim (knocking): seat 2 could pung seat 0's 8s and lets it go; seat 1 discards another 8s and
# seat 2, which has not drawn since, pungs it (test_pung_of_a_later_copy_before_ones_own_draw_is_illegal).
FG_HANDS = {0: "123m456m789m123p5p8s", 1: "1z1z1z2z2z2z3z3z3z4z4z4z9m", 2: "8s8s1z2z3z4z1s1s2s2s3s3s4s",
            3: "4s4s6s6s7s7s9s9s1p1p4p4p6p"}
FG_LOG = ["0 knock", "0 discard 8s", "1 draw 8s", "1 discard 8s", "2 pung"]


def test_forgo_then_reclaim_blocks_is_executed(tmp_path):
    # blocks [chow, pung, kong] (the spec): the pung (line 6) is refused. blocks [chow, kong]: a pung is not
    # blocked, and the log is legal so far (unfinished: seat 2 discards next).
    hdr = header(KNOCKING, FG_HANDS, draws="8s")
    assert verdict(hdr, FG_LOG)[:3] == ("illegal", "procedure.forgo_then_reclaim", 6)
    edited = runner_with(tmp_path, KNOCKING, lambda d: d["procedure"]["forgo_then_reclaim"].__setitem__(
        "blocks", ["chow", "kong"]))
    assert verdict(hdr, FG_LOG, edited)[0] == "unfinished"


def test_swap_calling_no_discard_of_claimed_tile_is_executed(tmp_path):
    # Knocking: seat 1 (555m) pungs seat 0's 5m with two of them and at once discards its third 5m. The spec
    # (no_discard_of_claimed_tile true): refused at line 5 under procedure.swap_calling. false: legal so far.
    hdr = header(KNOCKING, {0: "123p456p789p11s23s5m", 1: "555m1z1z1z2z2z2z3z3z9m8m",
                            2: "4z4z4z3z6s6s6s7s7s7s8s8s9s", 3: "4z8s9s9s5s5s5s6s7s7m7m1m2m"})
    log = ["0 knock", "0 discard 5m", "1 pung", "1 discard 5m"]
    assert verdict(hdr, log)[:3] == ("illegal", "procedure.swap_calling", 5)
    edited = runner_with(tmp_path, KNOCKING, lambda d: d["procedure"]["swap_calling"].__setitem__(
        "no_discard_of_claimed_tile", False))
    assert verdict(hdr, log, edited)[0] == "unfinished"


# A quiet mcr deal (no flower dealt): seat 0 (dealer) 1m-9m 1p-5p; seats 1 and 3 1s-9s 1z-4z; seat 2 1m-9m 6p-9p.
QUIET = {0: "1m2m3m4m5m6m7m8m9m1p2p3p4p5p", 1: "1s2s3s4s5s6s7s8s9s1z2z3z4z", 2: "1m2m3m4m5m6m7m8m9m6p7p8p9p",
         3: "1s2s3s4s5s6s7s8s9s1z2z3z4z"}


def drawn_hand(ruleset_id: str) -> tuple[dict, list[dict]]:
    """A log played to the wall's end: the dealer discards 5p, then each seat draws and discards the tile it
    drew (a flower exposed and replaced from the back first); nobody claims; then draw_game."""
    hdr = header(ruleset_id, QUIET)
    table = new_table(hdr)
    events: list[dict] = []

    def play(ev: dict) -> None:
        assert table.apply(parse_event(ev)) is None, ev
        events.append(ev)

    play({"event": "discard", "seat": 0, "tile": "5p"})
    seat = 0
    while table.live_tiles > 0:
        seat = (seat + 1) % 4
        tile = table.wall[table.head]
        play({"event": "draw", "seat": seat, "tile": format_tiles([tile])})
        while table.is_flower(tile):
            play({"event": "flower", "seat": seat, "tile": format_tiles([tile])})
            tile = table.wall[table.tail - 1]
            play({"event": "draw", "seat": seat, "tile": format_tiles([tile]), "from": "back"})
        play({"event": "discard", "seat": seat, "tile": format_tiles([tile])})
    play({"event": "draw_game"})
    return hdr, events


def test_dealer_rotation_draws_count_is_executed(tmp_path):
    # mcr (rotates_each_hand, the round wind every 4 hands): the quiet deal played out to a draw, dealer 0, as
    # hand 3 of the session (0-based). draws_count true (the spec): the deal passes to seat 1 and the next hand is
    # hand 4, round wind South (4 // 4 = 1 -> ESWN[1]). false: a drawn hand does not count: seat 0 deals again,
    # still hand 3, round wind East (3 // 4 = 0).
    hdr, log = drawn_hand("mcr")
    hdr["hand"] = 3
    result = verdict(hdr, log)[3]
    assert result["ended"] == "draw" and result["next"] == {"dealer": 1, "hand": 4, "round_wind": "S"}
    edited = runner_with(tmp_path, "mcr", lambda d: d["procedure"]["dealer_rotation"].__setitem__("draws_count", False))
    result = verdict(hdr, log, edited)[3]
    assert result["ended"] == "draw" and result["next"] == {"dealer": 0, "hand": 3, "round_wind": "E"}


# --------------------------------------------------------------------------- an exclusion that can never apply

def test_an_exclusion_pointing_back_at_a_pattern_scored_first_is_warned_of(tmp_path):
    # shanghai-knocking scores hua items in the spec's order (scoring.method hua): going_out is pattern 0,
    # wind_pung pattern 5. wind_pung excludes going_out points backwards: when wind_pung is looked at, going_out
    # has been counted already, so the exclusion never applies. `spec validate` says so (exit 0: a warning),
    # naming both patterns; the same link the other way round (going_out excludes wind_pung) can apply: no warning.
    data = spec_data(KNOCKING)
    ids = [p["id"] for p in data["patterns"]]
    assert ids[0] == "going_out" and ids[5] == "wind_pung"
    backwards = copy.deepcopy(data)
    backwards["patterns"][5].setdefault("excludes", []).append("going_out")
    r = runner.invoke(app, ["spec", "validate", str(write_copy(tmp_path, backwards, "backwards.yaml")), "--json"])
    assert r.exit_code == 0
    (warning,) = json.loads(r.stdout)["warnings"]
    assert warning["pointer"] == "/patterns/5/excludes/0"
    assert "'wind_pung' excludes 'going_out', which can never apply" in warning["reason"]
    r = runner.invoke(app, ["spec", "validate", str(write_copy(tmp_path, backwards, "backwards.yaml"))])
    assert r.exit_code == 0 and "warning" in r.output and "never apply" in r.output
    forwards = copy.deepcopy(data)
    forwards["patterns"][0].setdefault("excludes", []).append("wind_pung")
    r = runner.invoke(app, ["spec", "validate", str(write_copy(tmp_path, forwards, "forwards.yaml")), "--json"])
    assert r.exit_code == 0 and json.loads(r.stdout)["warnings"] == []


def test_an_exclusion_under_fan_sum_warns_only_when_no_reading_puts_its_holder_first(tmp_path):
    # mcr orders fans by value, then by the spec's order. two_concealed_kongs (pattern 47) is worth 8 or 6 points
    # (option two_concealed_kongs_points); all_pungs (pattern 48) is worth 6.
    # all_pungs excludes two_concealed_kongs: under 8 the 8-point fan is looked at first; under 6 the two tie and
    # the spec's order puts 47 first. Never applies: warned.
    # The same link with all_pungs moved before two_concealed_kongs in the spec: under 6 all_pungs is looked at
    # first, so the link applies under that reading: no warning.
    data = spec_data("mcr")
    ids = [p["id"] for p in data["patterns"]]
    assert ids.index("two_concealed_kongs") == 47 and ids.index("all_pungs") == 48
    assert data["options"]["two_concealed_kongs_points"]["values"] == [8, 6]
    edited = copy.deepcopy(data)
    all_pungs = next(p for p in edited["patterns"] if p["id"] == "all_pungs")
    all_pungs.setdefault("excludes", []).append("two_concealed_kongs")
    warnings = [w for w in load_ruleset_file(write_copy(tmp_path, edited, "a.yaml")).warnings if "never apply" in w.reason]
    assert [w.reason.split(",")[0] for w in warnings] == ["pattern 'all_pungs' excludes 'two_concealed_kongs'"]
    edited["patterns"].remove(all_pungs)
    edited["patterns"].insert(40, all_pungs)
    warnings = [w for w in load_ruleset_file(write_copy(tmp_path, edited, "b.yaml")).warnings if "never apply" in w.reason]
    assert warnings == []
    # the shipped specs carry no such link (mcr's one warning is the Pure shifted pungs / Pure triple chow cycle)
    for ruleset_id in RULESETS:
        assert not [w for w in load_ruleset(ruleset_id).warnings if "never apply" in w.reason], ruleset_id


# --------------------------------------------------------------------------- every number and switch changes an answer

# Fields no answer can show changed, each with why: the example hands are inputs of the candidate search (which
# hands the corpus generator tries first), not rules; and edits shown equivalent by hand.
SEARCH_INPUTS = ("/examples/", "/procedure_examples/")
EQUIVALENT = {
    ("shanghai-knocking", "/win/minimum_points"):
        "every hand counts fan.going_out (1 hua, 'Every hand starts at a 1-hua base for going out'), so a minimum "
        "of 1 hua refuses no hand that a minimum of 0 lets win",
}


def _at(data: Any, pointer: str) -> tuple[Any, Any]:
    """The container holding the field at `pointer`, and its key or index."""
    *path, last = pointer.split("/")[1:]
    for step in path:
        data = data[int(step)] if isinstance(data, list) else data[step]
    return data, (int(last) if isinstance(data, list) else last)


def _answers(runner: Any, cases: list[dict]) -> list[str]:
    out = []
    for case in cases:
        try:
            out.append(json.dumps(runner.run(case), sort_keys=True, default=str))
        except Exception as exc:  # (an edited spec may break a case outright: that too is an answer changed)
            out.append(f"raised {type(exc).__name__}")
    return out


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_every_number_and_switch_of_a_spec_changes_some_answer_of_its_corpora(ruleset_id, tmp_path):
    """The field walk made to act (issue 41, item 8): each whole number of a spec one more and each true/false
    flipped, one field at a time, is either refused by `spec validate` or changes the answer to some case of the
    ruleset's shipped corpora (scores and hands of play) — a field read and then ignored would change none. The
    only exceptions are listed above, each with its reason. (Words chosen from a list are walked by the option
    readings and the procedure mutants of `corpus strength`.)"""
    data = spec_data(ruleset_id)
    cases = [json.loads(line) for name in (f"{ruleset_id}.jsonl", f"{ruleset_id}-procedure.jsonl")
             for line in (ROOT / "corpus" / name).read_text(encoding="utf-8").splitlines()
             if line.strip() and not line.startswith(("#", "//"))]
    before = _answers(CaseRunner(), cases)
    unchanged = []
    for f in fields(data):
        if f.kind != "x-read-by" or f.pointer.startswith(SEARCH_INPUTS):
            continue
        holder, key = _at(data, f.pointer)
        value = holder[key]
        if isinstance(value, bool):
            other: Any = not value
        elif isinstance(value, int):
            other = value + 1
        else:
            continue
        edited = copy.deepcopy(data)
        held, at = _at(edited, f.pointer)
        held[at] = other
        path = tmp_path / f"{ruleset_id}.yaml"
        path.write_text(yaml.safe_dump(edited, allow_unicode=True, sort_keys=False), encoding="utf-8")
        try:
            ruleset = load_ruleset_file(path)
        except SpecError:
            continue  # refused: the field is checked
        if _answers(CaseRunner({ruleset_id: ruleset}), cases) == before:
            unchanged.append(f.pointer)
    expected = sorted(p for (rid, p) in EQUIVALENT if rid == ruleset_id)
    assert unchanged == expected, (
        f"{ruleset_id}: changing these fields changes no answer of its corpora: either the field is ignored, or "
        f"a corpus case is missing: {sorted(set(unchanged) - set(expected))}")
