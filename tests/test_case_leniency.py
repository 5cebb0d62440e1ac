"""Cases written by other tools: null where the case schema allows it (the same as leaving the field out),
a concealed kong with `"from": null`, and unknown fields refused with their name.

Expected scores are the corpus's own (corpus/mcr.jsonl, each checked as corpus/README.md says): a lenient
spelling of a case must score exactly as the case does.
"""
from __future__ import annotations

import copy
import io
import json
from pathlib import Path
from typing import Any

import pytest

from checker.case import CaseRunner, case_problem, read_cases, without_nulls
from checker.spec import schema

ROOT = Path(__file__).resolve().parents[1]
NULL_NOTE = "null is the same as leaving it out"


def corpus_case(case_id: str) -> dict:
    for line in (ROOT / "corpus" / "mcr.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip() and json.loads(line)["id"] == case_id:
            return json.loads(line)
    raise LookupError(case_id)


# Big four winds with a concealed kong of South (88 + all honors 64 + concealed kong 2 = 154), won on a discard.
KONG_CASE = "mcr-exclusion-all-pungs-big-four-winds"


def read_one(case: dict) -> Any:
    lines = list(read_cases(io.BytesIO((json.dumps(case) + "\n").encode()), "test"))
    assert len(lines) == 1
    return lines[0]


def run(case: dict) -> Any:
    item = read_one(case)
    assert item.case is not None, item.error
    return CaseRunner().outcome(item.case)


def concealed_kong(case: dict) -> dict:
    (meld,) = [m for m in case["input"]["melds"] if m.get("concealed")]
    return meld


@pytest.mark.parametrize("spelling", ["null", "absent"])
def test_a_concealed_kong_from_null_or_without_from_scores_as_the_corpus_case(spelling):
    case = corpus_case(KONG_CASE)
    assert "from" not in concealed_kong(case) and case["expect"]["total"] == 154
    if spelling == "null":
        concealed_kong(case)["from"] = None
    outcome = run(case)
    assert outcome.matches is True, outcome.result


def test_a_concealed_kong_from_a_seat_is_still_bad_input():
    case = corpus_case(KONG_CASE)
    concealed_kong(case)["from"] = 2
    del case["expect"]
    outcome = run(case)
    assert outcome.refused and outcome.result["error"] == "input.meld"


NULLABLE_TOP = ["id", "options", "covers", "origin", "note"]
NULLABLE_INPUT = ["melds", "win_by", "discarder", "seat_wind", "round_wind", "flowers", "flags", "counters"]
NULLABLE_MELD = ["concealed", "after_knock", "from"]


def test_every_nullable_field_given_null_scores_as_if_left_out():
    case = corpus_case("mcr-guide-regular-self-draw")  # self-drawn: no discarder; no melds, flowers, options
    lenient = copy.deepcopy(case)
    for key in NULLABLE_TOP[1:]:
        lenient.setdefault(key, None)
    for key in NULLABLE_INPUT:
        lenient["input"].setdefault(key, None)
    assert case_problem(lenient) is None
    read = read_one(lenient).case
    assert read == without_nulls(case)  # read back without its nulls: one form for every engine
    assert all(v is not None for v in read["input"].values())
    assert run(lenient).matches is True


def test_null_meld_fields_and_a_null_expect():
    case = corpus_case(KONG_CASE)
    for meld in case["input"]["melds"]:
        for key in NULLABLE_MELD:
            meld.setdefault(key, None)
    assert run(case).matches is True
    no_expect = dict(case, expect=None)
    item = read_one(no_expect)
    assert item.case is not None and "expect" not in item.case  # a conformance run skips it (no expect)


@pytest.mark.parametrize("where, path", [("input", ["input"]), ("case", []), ("meld", ["input", "melds", 0]),
                                         ("expect", ["expect"]), ("fan", ["expect", "fans", 0])])
def test_an_unknown_field_is_an_error_naming_it(where, path):
    case = corpus_case(KONG_CASE)
    node: Any = case
    for step in path:
        node = node[step]
    node["colour_of_the_table"] = "green"
    problem = case_problem(case)
    pointer = "/" + "/".join(map(str, path))
    assert problem is not None and problem.startswith(f"{pointer}: unknown field 'colour_of_the_table'"), problem
    assert "the fields here:" in problem
    item = read_one(case)
    assert item.case is None and "colour_of_the_table" in (item.error or "")


def test_an_unknown_field_inside_an_either_member_is_named_at_its_member():
    case = corpus_case(KONG_CASE)
    case["expect"] = {"either": [case["expect"], dict(case["expect"], bonus=1)]}
    assert case_problem(case) == ("/expect/either/1: unknown field 'bonus' (the fields here: valid, total, fans, "
                                  "payments, error)")


@pytest.mark.parametrize("path", [["ruleset"], ["kind"], ["input"], ["input", "win_tile"], ["input", "concealed"],
                                  ["input", "melds", 0, "tiles"], ["expect", "total"]])
def test_null_is_refused_where_the_field_is_required_or_carries_a_result(path):
    case = corpus_case(KONG_CASE)
    node: Any = case
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = None
    assert case_problem(case) is not None


def _accepts_null(node: dict) -> bool:
    kind = node.get("type")
    return (kind == "null" or (isinstance(kind, list) and "null" in kind) or None in node.get("enum", [])
            or any(_accepts_null(alt) for alt in node.get("oneOf", []) + node.get("anyOf", [])))


def test_the_schema_says_which_fields_may_be_null():
    whole = schema("case")
    places = {"case": (whole["properties"], NULLABLE_TOP + ["expect"]),
              "input": (whole["$defs"]["score_input"]["properties"], NULLABLE_INPUT),
              "meld": (whole["$defs"]["meld"]["properties"], NULLABLE_MELD)}
    for where, (properties, nullable) in places.items():
        said = {name for name, node in properties.items() if _accepts_null(node)}
        assert said == set(nullable), where
        for name in said:
            assert NULL_NOTE in properties[name].get("description", ""), (where, name)
    assert NULL_NOTE in whole["description"]
