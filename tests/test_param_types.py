"""Every parameter a spec gives a predicate, shape, scoring step or hand check has a declared type and range
(checker.params), and the spec loader refuses a value outside it, naming the parameter's JSON pointer.

The mutation tests replace each parameter value of the shipped specs by values of a wrong type: a string for
a number, a number for a string or a list, a list for a scalar, an out-of-range number. Each mutant must be
refused at load naming that parameter, or else load and score a few fixed hands with no error other than the
engine's HandError (bad input). Loading a spec is slow (mcr: about 0.3 s, most of it parsing YAML), so every
occurrence is mutated at once in one file per kind of wrong value: the loader reports every parameter issue
of a file together, and each parameter is checked on its own. A mutant the batch does not refuse is then
loaded and scored on its own.
"""
from __future__ import annotations

import copy
import inspect
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
import yaml

import checker.engine as engine
import checker.spec as spec_module
from checker import params
from checker.engine import HandError, Scorer, predicate_params
from checker.engine.checks import CHECKS
from checker.engine.predicates import PREDICATES
from checker.engine.shapes import SHAPES
from checker.engine.steps import ENGINE_ARGS, STEPS
from checker.spec import SpecError, spec_dir
from mcr_helpers import score

SPECS = ("mcr", "shanghai-knocking", "shanghai-classic")

# The loader of a spec file: the engine's full load (schema, references, parameter types, a bind with the
# default options). It is `load_ruleset_file` once a path and a ruleset id are loaded apart.
load_file: Callable[[Path], Any] = getattr(engine, "load_ruleset_file", None) or engine.load_ruleset


@lru_cache(maxsize=None)
def _parsed(ruleset_id: str) -> dict:
    return yaml.safe_load((spec_dir() / f"{ruleset_id}.yaml").read_text(encoding="utf-8"))


def shipped(ruleset_id: str) -> dict:
    """A fresh copy of a shipped spec's data, to edit."""
    return copy.deepcopy(_parsed(ruleset_id))


def write(tmp_path: Path, name: str, data: dict) -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def occurrences(data: dict) -> Iterator[tuple[str, str, str, dict]]:
    """(pointer, owner, parameter name, the params dict holding it) for every parameter the spec gives.
    `owner` is the key in `predicate_params()`: a predicate or shape name, `step:NAME` or `check:NAME`."""
    for i, p in enumerate(data["patterns"]):
        for name in p["when"].get("params") or {}:
            yield f"/patterns/{i}/when/params/{name}", p["when"]["predicate"], name, p["when"]["params"]
    for j, s in enumerate(data["win"]["shapes"]):
        for name in s.get("params") or {}:
            yield f"/win/shapes/{j}/params/{name}", s["predicate"], name, s["params"]
    for j, s in enumerate((data.get("scoring") or {}).get("steps", [])):
        for name in s.get("params") or {}:
            yield f"/scoring/steps/{j}/params/{name}", "step:" + s["step"], name, s["params"]
    for j, c in enumerate(data.get("hand_checks", [])):
        for name in c.get("params") or {}:
            yield f"/hand_checks/{j}/params/{name}", "check:" + c["check"], name, c["params"]


def wrong_values(value: Any) -> list[Any]:
    """Values of a wrong type for a parameter the shipped spec gives `value` (each one the ruleset schema
    admits, so the parameter check, not the schema, has to refuse it)."""
    if isinstance(value, bool):
        return ["many", 1, ["many"]]
    if isinstance(value, int):
        return ["many", [value], 10 ** 7, -1]
    if isinstance(value, str):
        return [7, [value]]
    if isinstance(value, list):
        return [7, "many", [], value + value[:1]]  # a number, a string, an empty list, an item twice
    if isinstance(value, dict):  # {option: NAME}
        return ["many", 7, ["many"]]
    raise AssertionError(f"unexpected parameter value {value!r}")


# A few hands per ruleset, scored under a mutant the loader accepts: any error but HandError is a crash.
HANDS: dict[str, list[dict]] = {
    "mcr": [
        dict(concealed="1m1m1m2m2m2m3p3p3p4s4s4s5m", win="5m"),
        dict(concealed="2p3p4p2s3s4s6m6m6m5p", win="5p", melds=["chow:234m"], discard=1),
        dict(concealed="1m1m3m3m5p5p7p7p9s9s1z1z2z", win="2z", discard=2),
        dict(concealed="2s2s3s3s4s4s6s6s6s8s8s8s6z", win="6z", flags=["last_tile"]),
        dict(concealed="1z1z1z2z2z2z3z3z4z4z5z5z5z", win="4z", discard=3),
    ],
    "shanghai-knocking": [
        dict(concealed="1s2s3s4s5s6s7s8s9s1z1z1z5s", win="5s", flags=["knocked"], flowers="1f5z"),
        dict(concealed="1m1m1m2m2m2m3m3m3m4m4m4m5m", win="5m", flags=["knocked"], discard=1),
    ],
    "shanghai-classic": [
        dict(concealed="1m1m1m2m2m2m3m3m3m4m4m4m5m", win="5m", flags=["knocked", "kaibao"]),
        dict(concealed="1z1z1z2z2z2z3z3z3z4z4z4z5z", win="5z", discard=2),
        dict(concealed="1s2s3s4s5s6s7s8s9s1z1z1z5s", win="5s", flags=["knocked"], flowers="1f2f"),
    ],
}


def scores_without_crashing(ruleset_id: str, ruleset) -> None:
    scorer = Scorer(ruleset)
    for kwargs in HANDS[ruleset_id]:
        try:
            score(scorer, **kwargs)
        except HandError:
            pass


def refusals(path: Path) -> dict[str, str]:
    """pointer -> reason of each issue the full loader reports for this file (empty: it loads)."""
    try:
        load_file(path)
    except SpecError as exc:
        return {issue.pointer: issue.reason for issue in exc.issues}
    return {}


def named(pointer: str, issues: dict[str, str]) -> str | None:
    """The reason of the issue at the parameter's pointer (or inside it), if any."""
    for at, reason in issues.items():
        if at == pointer or at.startswith(pointer + "/"):
            return reason
    return None


# ---------------------------------------------------------------------------- (a) mutants

@pytest.mark.parametrize("ruleset_id", SPECS)
def test_every_parameter_given_a_wrong_type_is_refused_or_harmless(ruleset_id, tmp_path):
    base = shipped(ruleset_id)
    found = list(occurrences(base))
    assert found, ruleset_id
    mutants = {pointer: wrong_values(params_[name]) for pointer, _, name, params_ in found}
    accepted: list[tuple[str, Any]] = []
    checked = 0
    for slot in range(max(len(v) for v in mutants.values())):
        data = shipped(ruleset_id)
        batch = {}
        for pointer, _, name, params_ in occurrences(data):
            if slot < len(mutants[pointer]):
                params_[name] = batch[pointer] = mutants[pointer][slot]
        issues = refusals(write(tmp_path, f"{ruleset_id}-slot{slot}", data))
        assert issues, f"{ruleset_id}: no mutant of slot {slot} refused"
        for pointer, value in batch.items():
            reason = named(pointer, issues)
            if reason is None:
                accepted.append((pointer, value))
                continue
            name = pointer.rsplit("/", 1)[1]
            assert f"parameter {name!r}" in reason or f"no parameter {name!r}" in reason, (pointer, reason)
            assert len(reason) < 400, reason  # quotes an excerpt of the value, never all of it
            checked += 1
    # A mutant the batch let through must load and score on its own.
    for pointer, value in accepted:
        data = shipped(ruleset_id)
        for at, _, name, params_ in occurrences(data):
            if at == pointer:
                params_[name] = value
        path = write(tmp_path, f"{ruleset_id}-alone", data)
        try:
            ruleset = load_file(path)
        except SpecError as exc:
            assert named(pointer, {i.pointer: i.reason for i in exc.issues}), (pointer, value, str(exc))
            continue
        scores_without_crashing(ruleset_id, ruleset)
    assert checked + len(accepted) == sum(len(v) for v in mutants.values())


def test_the_mutants_cover_every_declared_parameter():
    used = {(owner, name) for rid in SPECS for _, owner, name, _ in occurrences(shipped(rid))}
    declared = {(owner, name) for owner, names in predicate_params().items() for name in names}
    assert used <= declared
    # parameters no spec sets: those a diagnosis sets on an edited ruleset only (an engine that reads a flag as a
    # kong's replacement draw, checker.mutate.context.read_as_replacement; tested in test_diagnose.py; a cap on the
    # doubles, checker.mutate.edits.doubles_capped; tested in test_win_refusals_and_caps.py and
    # test_diagnose_evidence.py; a single-hand limit taking the 底分 in, checker.mutate.edits.limit_takes_base;
    # tested in test_classic_readings.py, test_hunt_settle.py and test_diagnose_evidence.py)
    for_diagnosis = {("replacement_draw_win", "also_flag"), ("replacement_draw_win", "also_win_by"),
                     ("step:doubles", "most"), ("step:outer_limit", "bounds")}
    assert declared - for_diagnosis == used, sorted(declared - for_diagnosis - used)


def test_big_four_winds_with_pungs_many_is_refused_naming_the_parameter(tmp_path):
    data = shipped("mcr")
    index = next(i for i, p in enumerate(data["patterns"]) if p["id"] == "big_four_winds")
    data["patterns"][index]["when"]["params"] = {"kind": "wind", "pungs": "many"}
    with pytest.raises(SpecError) as info:
        load_file(write(tmp_path, "mcr-many", data))
    (issue,) = info.value.issues
    assert issue.pointer == f"/patterns/{index}/when/params/pungs"
    assert ("parameter 'pungs' of predicate 'honor_pungs' must be an integer from 0 to 4, not 'many'"
            in issue.reason)
    assert issue.line and "many" in (tmp_path / "mcr-many.yaml").read_text().splitlines()[issue.line - 1]


def test_an_option_whose_values_do_not_fit_is_refused_naming_the_value(tmp_path):
    # two_concealed_kongs_points takes 8 or 6: neither is a boolean.
    data = shipped("mcr")
    index = next(i for i, p in enumerate(data["patterns"]) if p["id"] == "tile_hog")
    data["patterns"][index]["when"]["params"]["honors"] = {"option": "two_concealed_kongs_points"}
    with pytest.raises(SpecError) as info:
        load_file(write(tmp_path, "mcr-option", data))
    (issue,) = info.value.issues
    assert issue.pointer == f"/patterns/{index}/when/params/honors"
    assert "must be true or false, but option 'two_concealed_kongs_points' can be 8 or 6" in issue.reason


def test_a_long_bad_value_is_quoted_short_with_control_characters_escaped(tmp_path):
    data = shipped("mcr")
    index = next(i for i, p in enumerate(data["patterns"]) if p["id"] == "big_four_winds")
    data["patterns"][index]["when"]["params"]["kind"] = "\x1b[31m" + "w" * 5000
    with pytest.raises(SpecError) as info:
        load_file(write(tmp_path, "mcr-long", data))
    (issue,) = info.value.issues
    assert "\x1b" not in issue.reason and "\\x1b" in issue.reason and len(issue.reason) < 300


def test_a_flag_parameter_must_name_a_declared_flag(tmp_path):
    data = shipped("mcr")
    j = next(j for j, c in enumerate(data["hand_checks"]) if c["check"] == "flag_needs_meld")
    data["hand_checks"][j]["params"]["flag"] = "kong_replacment"
    with pytest.raises(SpecError) as info:
        load_file(write(tmp_path, "mcr-flag", data))
    (issue,) = info.value.issues
    assert issue.pointer == f"/hand_checks/{j}/params/flag" and "'kong_replacment'" in issue.reason


def test_a_required_step_parameter_is_required(tmp_path):
    data = shipped("shanghai-knocking")
    j = next(j for j, s in enumerate(data["scoring"]["steps"]) if s["step"] == "fig")
    del data["scoring"]["steps"][j]["params"]["value"]
    with pytest.raises(SpecError) as info:
        load_file(write(tmp_path, "knocking-fig", data))
    (issue,) = info.value.issues
    assert issue.pointer == f"/scoring/steps/{j}/params" and "needs parameter(s) value" in issue.reason


def test_an_unknown_step_parameter_is_refused(tmp_path):
    data = shipped("shanghai-classic")
    j = next(j for j, s in enumerate(data["scoring"]["steps"]) if s["step"] == "cap")
    data["scoring"]["steps"][j]["params"]["raised"] = 3  # the engine's own argument, not the spec's
    with pytest.raises(SpecError) as info:
        load_file(write(tmp_path, "classic-cap", data))
    (issue,) = info.value.issues
    assert issue.pointer == f"/scoring/steps/{j}/params/raised" and "no parameter 'raised'" in issue.reason


# ---------------------------------------------------------------------------- values chosen by an option's map

def knock_lock(data: dict) -> tuple[int, dict]:
    """The index and the params of the knocking spec's procedure.knock_locks_hand check."""
    j = next(j for j, c in enumerate(data["hand_checks"]) if c["id"] == "procedure.knock_locks_hand")
    return j, data["hand_checks"][j]["params"]


def test_a_check_parameter_chosen_by_an_option_map_must_map_every_value_and_no_other(tmp_path):
    data = shipped("shanghai-knocking")
    j, given = knock_lock(data)
    assert given["kinds"]["option"] == "knock_lock_covers_kongs"
    del given["kinds"]["map"]["true"]
    given["kinds"]["map"]["maybe"] = ["chow"]
    with pytest.raises(SpecError) as info:
        load_file(write(tmp_path, "knocking-map", data))
    reasons = [i.reason for i in info.value.issues if i.pointer == f"/hand_checks/{j}/params/kinds/map"]
    assert sorted(reasons) == ["no value for option value(s) true",
                               "option 'knock_lock_covers_kongs' has no value(s) 'maybe'"]


def test_every_value_an_option_map_gives_must_fit_the_parameter(tmp_path):
    data = shipped("shanghai-knocking")
    j, given = knock_lock(data)
    given["kinds"]["map"]["true"] = "kong"  # a string, not a list of meld kinds
    issues = refusals(write(tmp_path, "knocking-map-type", data))
    reason = issues[f"/hand_checks/{j}/params/kinds"]
    assert "parameter 'kinds'" in reason and "maps true to 'kong'" in reason


def test_an_option_map_may_give_another_options_choice_and_each_is_checked(tmp_path):
    data = shipped("shanghai-knocking")
    j, given = knock_lock(data)
    given["kinds"]["map"]["true"] = {"option": "no_such_option"}
    issues = refusals(write(tmp_path, "knocking-map-nested", data))
    assert "unknown option 'no_such_option'" in issues[f"/hand_checks/{j}/params/kinds/map/true"]
    # In the settlement: robbing_kong_triple_on=each_payer gives discard_others_pay's choice, which must map
    # both of its values.
    data = shipped("shanghai-knocking")
    inner = data["settlement"]["robbing_kong"]["others"]["map"]["each_payer"]
    assert inner["option"] == "discard_others_pay"
    del inner["map"]["1"]
    issues = refusals(write(tmp_path, "knocking-settlement-nested", data))
    assert issues == {"/settlement/robbing_kong/others/map/each_payer/map": "no amount for option value(s) 1"}


@pytest.mark.parametrize("ruleset_id, amount, expected", [
    ("shanghai-knocking", ["base"], "under method shares an amount is a whole number of shares, not"),
    ("mcr", 1, "under method base_plus_points an amount is a list of base and points terms, not 1"),
    ("mcr", {"option": "robbing_kong_paid_as", "map": {"discard": ["base"], "self_draw": 2}},
     "under method base_plus_points an amount is a list of base and points terms, not 2"),
])
def test_a_settlement_amount_must_be_of_its_methods_kind(tmp_path, ruleset_id, amount, expected):
    # shares pay whole numbers of shares; base_plus_points pays lists of terms (over every option value).
    data = shipped(ruleset_id)
    data["settlement"]["robbing_kong"]["others"] = amount
    issues = refusals(write(tmp_path, f"{ruleset_id}-amount", data))
    assert expected in issues["/settlement/robbing_kong/others"]


@pytest.mark.parametrize("edit, pointer, expected", [
    (lambda st: st["liability"]["patterns"].append("qing_yi_se_five_fan"), "/settlement/liability/patterns/3",
     "unknown pattern 'qing_yi_se_five_fan'"),
    (lambda st: st["liability"].update(applies={"option": "discard_payment"}), "/settlement/liability/applies",
     "applies is true or false, not 'alone'"),
    (lambda st: st["liability"].update(discarder={"option": "full_flush_liability", "map": {"false": 3}}),
     "/settlement/liability/discarder/map", "no amount for option value(s) true"),
    (lambda st: st["liability"].update(others={"option": "qingyise"}), "/settlement/liability/others",
     "a whole number of shares, not 'one_le', 'four_fan'"),
    (lambda st: st["contract"].update(double_win_flag="both_won"), "/settlement/contract/double_win_flag",
     "'both_won' is not declared in `flags`"),
    (lambda st: st["contract"].pop("double_win_not_ready"), "/settlement/contract",
     "double_win_flag needs double_win_not_ready"),
    # who pays 包 under a 承包: one of the schema's three words, through an option that gives one
    (lambda st: st["liability"].update(with_contract={"option": "qingyise"}), "/settlement/liability/with_contract",
     "with_contract is one of contract, liability, both, not 'one_le', 'four_fan'"),
    (lambda st: st["liability"].update(with_contract={"option": "no_such_option"}),
     "/settlement/liability/with_contract", "no_such_option"),
    (lambda st: st.pop("contract"), "/settlement/liability/with_contract",
     "with_contract needs a contract (settlement.contract)"),
])
def test_the_liability_and_the_contract_double_win_are_checked(tmp_path, edit, pointer, expected):
    data = shipped("shanghai-classic")
    edit(data["settlement"])
    issues = refusals(write(tmp_path, "classic-liability", data))
    assert expected in issues.get(pointer, ""), issues


@pytest.mark.parametrize("fact, name, pointer, expected", [
    ("wall_exhausted", "haidi", "/table_context/wall_exhausted", "'haidi' is not declared in `flags`"),
    ("contract_partner", "knocked", "/table_context/contract_partner", "'knocked' is not declared in `counters`"),
    ("last_tile", "knocked", "/table_context", "last_tile"),  # a fact the table does not know (the schema)
])
def test_the_table_context_names_declared_flags_and_counters(tmp_path, fact, name, pointer, expected):
    data = shipped("shanghai-classic")
    data["table_context"][fact] = name
    issues = refusals(write(tmp_path, "classic-table-context", data))
    assert expected in issues.get(pointer, ""), issues


# ---------------------------------------------------------------------------- flag_not_with_win

def test_flag_not_with_win_takes_one_way_of_winning_or_a_list_and_names_the_way_won():
    fn = CHECKS["flag_not_with_win"][0]
    tiles = dict(concealed="1m2m3m4m5m6m7p8p9p5z5z1s2s", win_tile="3s", flags=["kong_replacement"])
    robbed = engine.Hand.build(**tiles, win_by="robbing_kong", discarder=1)
    discard = engine.Hand.build(**tiles, win_by="discard", discarder=1)
    drawn = engine.Hand.build(**tiles)
    both = ("discard", "robbing_kong")
    assert fn(robbed, flag="kong_replacement", win_by=both) == "flag kong_replacement cannot go with a robbing kong win"
    assert fn(discard, flag="kong_replacement", win_by=both) == "flag kong_replacement cannot go with a discard win"
    assert fn(drawn, flag="kong_replacement", win_by=both) is None
    assert fn(robbed, flag="kong_replacement", win_by="robbing_kong") is not None
    assert fn(discard, flag="kong_replacement", win_by="robbing_kong") is None
    declared = CHECKS["flag_not_with_win"][1]["win_by"]
    assert params.fits("discard", declared) and params.fits(["discard", "robbing_kong"], declared)
    assert not params.fits([], declared) and not params.fits("discards", declared)
    assert not params.fits(["discard", "discard"], declared)


def test_a_spec_may_forbid_a_flag_with_a_list_of_ways(tmp_path):
    data = shipped("mcr")
    data["hand_checks"].append({"id": "context.kong_replacement_drawn", "check": "flag_not_with_win",
                                "params": {"flag": "kong_replacement", "win_by": ["discard", "robbing_kong"]},
                                "message": "a replacement tile is drawn, never claimed"})
    scorer = Scorer(load_file(write(tmp_path, "mcr-drawn", data)))
    kong_hand = dict(concealed="1m2m3m4m5m6m7p8p9p1s", win="1s", melds=["kong:2222p"], flags=["kong_replacement"])
    assert score(scorer, **kong_hand).valid  # self-drawn on the replacement tile
    with pytest.raises(HandError, match="flag kong_replacement cannot go with a discard win"):
        score(scorer, **kong_hand, discard=1)


# ---------------------------------------------------------------------------- (c) declarations

def every_declaration() -> Iterator[tuple[str, str, params.Schema]]:
    for owner, declared in predicate_params().items():
        for name, schema in declared.items():
            yield owner, name, schema


def test_the_shipped_specs_validate_against_the_declared_types():
    declared = predicate_params()
    for rid in SPECS:
        data = shipped(rid)
        spec_module.load_ruleset(rid, declared)  # no SpecError
        options = data.get("options", {})
        for pointer, owner, name, params_ in occurrences(data):
            for v in chosen_values(params_[name], options):
                assert params.fits(v, declared[owner][name]), (rid, pointer, v)


def chosen_values(value: Any, options: dict) -> list[Any]:
    """Every value a parameter can take: the values of the option it names, or every value its option's `map`
    gives (itself perhaps another option's choice)."""
    if isinstance(value, dict) and "map" in value:
        return [v for mapped in value["map"].values() for v in chosen_values(mapped, options)]
    if isinstance(value, dict):
        return list(options[value["option"]]["values"])
    return [value]


def test_every_declaration_is_a_json_schema_a_spec_author_can_read():
    count = 0
    for owner, name, schema in every_declaration():
        params.check_declaration(schema)
        words = params.describe(schema)
        assert words and "declared type" not in words, (owner, name, words)
        assert not params.fits(None, schema) and not params.fits({"x": 1}, schema), (owner, name)
        count += 1
    assert count >= 70


def test_integers_are_exact_whole_numbers():
    schema = params.integer(0, 4)
    assert params.fits(4, schema) and not params.fits(4.0, schema) and not params.fits(True, schema)
    assert not params.fits(5, schema) and not params.fits(-1, schema)
    assert params.describe(schema) == "an integer from 0 to 4"


def parameters_of(fn, skip: int) -> set[str]:
    return set(list(inspect.signature(fn).parameters)[skip:])


@pytest.mark.skipif(engine.compiled(), reason="signatures of compiled functions are not introspectable")
def test_every_parameter_of_every_function_is_declared():
    for name, kind in PREDICATES.items():
        assert parameters_of(kind.make, 0) == set(kind.params), name
    for name, shape in SHAPES.items():
        assert parameters_of(shape.decompose, 3 if shape.needs_hand else 2) == set(shape.params), name
    for name, (fn, declared) in STEPS.items():
        assert parameters_of(fn, 3) - ENGINE_ARGS.get(name, frozenset()) == set(declared), name  # the scorer's own
    for name, (fn, declared) in CHECKS.items():
        assert parameters_of(fn, 1) == set(declared), name


def test_a_shape_parameter_left_out_binds_its_declared_default_and_a_required_one_is_named(tmp_path):
    # shanghai-classic's 八花齐 shape (declared_flowers) gives flag eight_flowers_win and flowers 8. Left out,
    # `flowers` binds the default its declaration gives (8: all eight flowers), so the scorer and the table read
    # the same value as the shipped spec; the flag has no default: left out, validation names it (file, line),
    # never a KeyError from the table's binding.
    from checker.engine import Scorer, load_ruleset, load_ruleset_file
    from checker.spec import SpecError

    text = (Path(__file__).resolve().parents[1] / "spec" / "shanghai-classic.yaml").read_text(encoding="utf-8")
    given = "params: {flag: eight_flowers_win, flowers: 8}"
    assert text.count(given) == 1
    (tmp_path / "defaulted").mkdir()
    (tmp_path / "flagless").mkdir()
    defaulted = tmp_path / "defaulted" / "shanghai-classic.yaml"
    defaulted.write_text(text.replace(given, "params: {flag: eight_flowers_win}"), encoding="utf-8")
    flagless = tmp_path / "flagless" / "shanghai-classic.yaml"
    flagless.write_text(text.replace(given, "params: {flowers: 8}"), encoding="utf-8")

    bound = Scorer(load_ruleset_file(defaulted)).bound.procedure
    assert bound.declared_flowers == Scorer(load_ruleset("shanghai-classic")).bound.procedure.declared_flowers \
        == (("eight_flowers_win", 8),)
    with pytest.raises(SpecError) as info:
        load_ruleset_file(flagless)
    (issue,) = info.value.issues
    assert issue.pointer.endswith("/params") and "needs parameter(s) flag" in issue.reason and issue.line
