"""The one binding step (checker.spec.bind): a ruleset under options becomes typed frozen records, every option
resolved there once; the engine, the table, the hunter and the corpus read those records and resolve nothing
themselves. Expected values are the specs' own numbers (quoted beside each)."""
from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

import checker
from checker.engine import Scorer, load_ruleset, reading_issues, readings
from checker.spec.bind import Bound, ContractTerms, LiabilityTerms, bind

CHECKER = Path(checker.__file__).resolve().parent
# the spec layer resolves options; the spec editors (one-step mutants) edit a spec's raw sections by design
RESOLVERS = {"spec"}
EDITORS = {"spec", "mutate"}
RAW_SECTIONS = {"procedure", "contract", "liability"}


def _modules(outside: set[str]):
    for path in sorted(CHECKER.rglob("*.py")):
        if path.relative_to(CHECKER).parts[0] not in outside:
            yield path, ast.parse(path.read_text(encoding="utf-8"))


def test_no_module_outside_the_spec_layer_resolves_an_option_value():
    # `chosen` (an option's value, or its map's) and `holds` (a condition) are the binding step's; a module that
    # imported or called them would resolve a reading a second way.
    offenders = []
    for path, tree in _modules(RESOLVERS):
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("checker.spec"):
                offenders += [(path.name, a.name) for a in node.names if a.name in ("chosen", "holds")]
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "chosen":
                offenders.append((path.name, node.lineno))
    assert offenders == []


def test_no_module_outside_the_spec_layer_reads_a_raw_section_by_key():
    # ruleset.procedure / settlement.contract / settlement.liability / ruleset.tiles are the spec's data: read
    # through the bound records (TableRules, ContractTerms, LiabilityTerms) or the Ruleset's typed properties
    # (dragons_as_flowers, flower_tiles), never with .get(...) or [...] or .items()
    offenders = []
    for path, tree in _modules(EDITORS):
        for node in ast.walk(tree):
            inner = None
            if isinstance(node, ast.Subscript):
                inner = node.value
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                    node.func.attr in ("get", "items", "keys", "values"):
                inner = node.func.value
            if isinstance(inner, ast.Attribute) and (inner.attr in RAW_SECTIONS or (
                    inner.attr == "tiles" and not isinstance(node, ast.Subscript))):  # (a meld's tiles[0] is no spec)
                offenders.append((str(path.relative_to(CHECKER)), node.lineno, inner.attr))
    assert offenders == []


def test_the_checks_above_can_fail():
    # the same walk over a module that does what they forbid finds it
    tree = ast.parse("from checker.spec import chosen\nx = rs.procedure.get('knock')\ny = chosen(v, o)\n")
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
             and n.func.id == "chosen"]
    gets = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
            and isinstance(n.func.value, ast.Attribute) and n.func.value.attr in RAW_SECTIONS]
    assert len(calls) == 1 and len(gets) == 1


def test_a_pattern_priced_by_an_option_is_bound_to_its_value():
    # mcr.yaml: two_concealed_kongs points {option: two_concealed_kongs_points}, values [8, 6], default 8
    rs = load_ruleset("mcr")
    for options, points in (({}, 8), ({"two_concealed_kongs_points": 6}, 6)):
        bound = bind(rs, options)
        assert {p.id: p.points for p in bound.patterns}["two_concealed_kongs"] == points
        assert Scorer(rs, options).points[Scorer(rs, options).rank["two_concealed_kongs"]] == points


def test_the_settlement_is_bound_whole_with_its_contract_and_liability():
    # shanghai-classic.yaml settlement: per_share {option: base_placement, map: {after_caps: [base, value],
    # doubled: [value], ...}} (default after_caps); self_draw {each_opponent: 1}; liability applies
    # {option: full_flush_liability} (default false), claimed_sets 3, discarder {option: discard_payment,
    # map: {alone: 3, chong_double: 4, ...}} (default alone), others 0.
    rs = load_ruleset("shanghai-classic")
    plain = bind(rs)
    assert plain.settlement.per_share == ("base", "value")
    assert plain.settlement.payers["self_draw"] == {"each_opponent": 1}
    assert plain.settlement.liability is None  # full_flush_liability false by default
    assert isinstance(plain.settlement.contract, ContractTerms)
    liable = bind(rs, {"full_flush_liability": True, "discard_payment": "chong_double"})
    # exempt_applies {option: three_fan_call_exemption} (default true): a hand with the flag discarder_called_three_fan
    # is exempt (三番叫胡却可不包); under false no flag exempts it ("")
    assert liable.settlement.liability == LiabilityTerms(
        frozenset({"qing_yi_se", "qing_yi_se_four_fan", "qing_peng"}), 3, 4, 0, "discarder_called_three_fan")
    unexempt = bind(rs, {"full_flush_liability": True, "three_fan_call_exemption": False})
    assert unexempt.settlement.liability == LiabilityTerms(
        frozenset({"qing_yi_se", "qing_yi_se_four_fan", "qing_peng"}), 3, 3, 0, "")
    assert bind(rs, {"base_placement": "doubled"}).settlement.per_share == ("value",)
    # the scorer pays from exactly these records
    scorer = Scorer(rs, {"full_flush_liability": True})
    assert scorer.settlement.liability is scorer.bound.settlement.liability
    assert scorer.settlement.contract is scorer.bound.settlement.contract


def test_the_bound_records_are_frozen():
    bound = bind(load_ruleset("shanghai-knocking"))
    assert isinstance(bound, Bound)
    for record in (bound, bound.patterns[0], bound.settlement, bound.procedure):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(record, dataclasses.fields(record)[0].name, None)


def test_the_procedure_is_bound_with_the_rest():
    # shanghai-knocking.yaml: knock {missed_win: {option: knock_missed_win}}, values [forfeit_hand, not_allowed]
    rs = load_ruleset("shanghai-knocking")
    assert bind(rs).procedure.missed_win_after_knock == "forfeit_hand"
    assert bind(rs, {"knock_missed_win": "not_allowed"}).procedure.missed_win_after_knock == "not_allowed"


@pytest.mark.parametrize("ruleset_id", ["mcr", "shanghai-knocking", "shanghai-classic"])
def test_every_shipped_spec_binds_under_every_reading(ruleset_id):
    rs = load_ruleset(ruleset_id)
    # the defaults, then every other value of every option, one at a time
    assert len(readings(rs)) == 1 + sum(len(o.values) - 1 for o in rs.options.values())
    assert reading_issues(rs) == []


def test_an_unknown_option_value_names_the_option():
    with pytest.raises(ValueError, match="two_concealed_kongs_points"):
        bind(load_ruleset("mcr"), {"two_concealed_kongs_points": 7})


def _procedure_binders(tree: ast.AST) -> list[str]:
    """The names of a module that reach for the procedure's own binder or bind a spec themselves."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("checker.spec"):
            found += [a.name for a in node.names if a.name in ("table_rules", "_table_rules", "bind")]
        elif isinstance(node, ast.Name) and node.id in ("table_rules", "_table_rules"):
            found.append(node.id)
    return found


def test_the_table_reads_the_bound_procedure_and_nothing_else():
    # the table is handed `scorer.bound.procedure` (checker/table/log.py new_table) and binds nothing itself;
    # the procedure's binder is private to checker.spec.bind: no module outside checker/spec names it
    for path, tree in _modules(set()):
        rel = path.relative_to(CHECKER).as_posix()
        if rel.startswith("spec/"):
            continue
        found = _procedure_binders(tree)
        if rel.startswith("table/"):
            assert found == [], f"{rel} binds the procedure itself: {found}"
        else:
            assert not set(found) & {"table_rules", "_table_rules"}, f"{rel} names the procedure's binder: {found}"
    tree = ast.parse("from checker.spec.procedure import table_rules\nrules = table_rules(rs, {})\n")
    assert _procedure_binders(tree) == ["table_rules", "table_rules"]  # the walk finds what it forbids
