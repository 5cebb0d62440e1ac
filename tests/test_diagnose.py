"""Diagnosis with planted departures: engines that wrap the reference engine with one change each (and two with
two changes), run on the shipped corpora. For each, the run's failure classes must be named by exactly the
planted change(s). The expected causes are written here, by hand, from what each engine was made to do; they
are never read from the tool's output.

A planted spec edit is made on the spec's YAML data here (not through checker.mutate, whose edits are what is
being tested) and loaded as a ruleset of its own; a planted context reading rewrites the case before the
reference engine sees it; a planted outside fan or input disagreement rewrites or refuses the answer.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from checker.case import CaseRunner
from checker.conform import run_conformance
from checker.conform.adapters import EngineInfo, InProcessEngine
from checker.spec import load_ruleset_file

ROOT = Path(__file__).resolve().parents[1]
MCR = ROOT / "corpus" / "mcr.jsonl"
CLASSIC = ROOT / "corpus" / "shanghai-classic.jsonl"


def spec_data(ruleset: str) -> dict:
    return yaml.safe_load((ROOT / "spec" / f"{ruleset}.yaml").read_text(encoding="utf-8"))


def pattern(data: dict, pattern_id: str) -> dict:
    return next(p for p in data["patterns"] if p["id"] == pattern_id)


def edited_runner(tmp_path: Path, ruleset: str, edit) -> CaseRunner:
    """A reference runner whose `ruleset` is the shipped spec with `edit` made on its YAML data."""
    data = spec_data(ruleset)
    edit(data)
    path = tmp_path / f"{ruleset}-planted.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return CaseRunner({ruleset: load_ruleset_file(path)})


# ----------------------------------------------------------------------- planted spec edits (YAML data)

def full_flush_32(data):
    pattern(data, "full_flush")["points"] = 32  # the table says 24


def seven_pairs_lets_single_wait_count(data):
    pattern(data, "seven_pairs")["excludes"].remove("single_wait")


def four_concealed_pungs_counts_three_concealed_pungs(data):
    pattern(data, "four_concealed_pungs")["implies"].remove("three_concealed_pungs")


def base_10(data):
    data["settlement"]["base"] = 10  # the guide: 8


def discard_others_pay_nothing(data):
    data["settlement"]["discard"]["others"] = []  # the guide: the other two pay the base


# ----------------------------------------------------------------------- planted context readings and answers

def without_flag(flag):
    def read(case):
        flags = dict(case["input"].get("flags") or {})
        flags.pop(flag, None)
        return {**case, "input": {**case["input"], "flags": flags}}
    return read


def robbing_read_as_discard(case):
    if case["input"].get("win_by") != "robbing_kong":
        return case
    return {**case, "input": {**case["input"], "win_by": "discard"}}


def flowers_uncounted(case):
    return {**case, "input": {**case["input"], "flowers": ""}}


def huangfan_uncounted(case):
    counters = {k: v for k, v in (case["input"].get("counters") or {}).items() if k != "huangfan"}
    return {**case, "input": {**case["input"], "counters": counters}}


def renamed(old, new):
    def answer(result):
        def rename(r):
            return {**r, "fans": [{**f, "id": new} if f["id"] == old else f for f in r.get("fans", [])]}
        if "either" in result:
            return {"either": [rename(r) for r in result["either"]]}
        return rename(result)
    return answer


def engine(runner: CaseRunner | None = None, read=None, answer=None, refuse=None):
    runner = runner or CaseRunner()

    def run(case):
        if refuse is not None and refuse(case):
            raise ValueError("this engine does not take such a case")
        result = runner.run(read(case) if read else case)
        return answer(result) if answer else result
    return run


def diagnosed(tmp_path: Path, corpus: Path, function) -> list[dict]:
    run = run_conformance(str(corpus), InProcessEngine(function, EngineInfo("planted", "1")), str(tmp_path / "out"))
    classes = run.summary["classes"]
    assert classes, "the planted departure shows in the corpus"
    return classes


def causes(classes: list[dict]) -> set[str]:
    """The cause ids named across the classes; every class must be fully explained."""
    found = set()
    for c in classes:
        cause = c["cause"]
        assert cause.get("explained_by"), f"unexplained: {c['signature']} ({cause})"
        assert cause["unexplained"] == 0, f"{c['signature']}: {cause}"
        found.update(e["id"] for e in cause["explained_by"])
    return found


# ----------------------------------------------------------------------- one change each

def pung_completed_by_a_discard_counts_as_concealed(data):
    for p in data["patterns"]:  # the table: "a pung completed by ron is not concealed"
        if p["when"]["predicate"] == "concealed_pungs":
            p["when"]["params"]["discard_completed"] = True


SPEC_EDITS = [
    ("points", full_flush_32, {"points:full_flush=32"}),
    ("exclusion dropped", seven_pairs_lets_single_wait_count, {"exclusion-dropped:seven_pairs/single_wait"}),
    ("implied dropped", four_concealed_pungs_counts_three_concealed_pungs,
     {"implied-dropped:four_concealed_pungs/three_concealed_pungs"}),
    ("base", base_10, {"base=10"}),
    ("settlement share", discard_others_pay_nothing, {"share:discard/others="}),
    ("predicate parameter", pung_completed_by_a_discard_counts_as_concealed,
     {"predicate:concealed_pungs.discard_completed=true"}),
]


@pytest.mark.parametrize("name, edit, planted", SPEC_EDITS, ids=[x[0] for x in SPEC_EDITS])
def test_a_planted_spec_edit_is_named_as_the_cause(tmp_path, name, edit, planted):
    classes = diagnosed(tmp_path, MCR, engine(edited_runner(tmp_path, "mcr", edit)))
    assert causes(classes) == planted


CONTEXT = [
    ("flag ignored", without_flag("last_tile"), MCR, {"flag-ignored:last_tile"}),
    ("win kind", robbing_read_as_discard, MCR, {"win-read-as:robbing_kong/discard"}),
    ("flowers ignored", flowers_uncounted, MCR, {"flowers-ignored"}),
    ("counter ignored", huangfan_uncounted, CLASSIC, {"counter-ignored:huangfan"}),
]


@pytest.mark.parametrize("name, read, corpus, planted", CONTEXT, ids=[x[0] for x in CONTEXT])
def test_a_planted_context_reading_is_named_as_the_cause(tmp_path, name, read, corpus, planted):
    assert causes(diagnosed(tmp_path, corpus, engine(read=read))) == planted


def test_a_fan_outside_the_spec_is_named_with_the_fan_it_replaces(tmp_path):
    classes = diagnosed(tmp_path, MCR, engine(answer=renamed("all_simples", "tanyao")))
    assert causes(classes) == {"outside:tanyao"}
    assert "in place of all_simples" in classes[0]["cause"]["explained_by"][0]["words"]


def test_an_input_the_engine_does_not_take_is_named(tmp_path):
    classes = diagnosed(tmp_path, MCR, engine(refuse=lambda case: case["input"].get("win_by") == "robbing_kong"))
    assert causes(classes) == {"input:a win by robbing_kong"}


def test_an_option_reading_is_named(tmp_path):
    runner = CaseRunner()

    def other_reading(case):  # the engine scores Two concealed kongs at 6, the other reading of the option
        return runner.run({**case, "options": {**(case.get("options") or {}), "two_concealed_kongs_points": 6}})
    assert causes(diagnosed(tmp_path, MCR, other_reading)) == {"option:two_concealed_kongs_points=6"}


# ----------------------------------------------------------------------- two changes at once

def test_two_planted_changes_are_each_named(tmp_path):
    runner = edited_runner(tmp_path, "mcr", full_flush_32)
    assert causes(diagnosed(tmp_path, MCR, engine(runner, read=without_flag("last_tile")))) \
        == {"points:full_flush=32", "flag-ignored:last_tile"}


def test_a_spec_edit_and_an_outside_fan_are_each_named(tmp_path):
    runner = edited_runner(tmp_path, "mcr", base_10)
    assert causes(diagnosed(tmp_path, MCR, engine(runner, answer=renamed("all_simples", "tanyao")))) \
        >= {"base=10", "outside:tanyao"}


# ----------------------------------------------------------------------- the report

def test_classes_lead_the_report_with_witness_command_and_sources(tmp_path):
    classes = diagnosed(tmp_path, MCR, engine(edited_runner(tmp_path, "mcr", full_flush_32)))
    (c,) = classes
    # Full flush 24 -> 32 changes exactly the cases whose expectation counts Full flush: counted in the corpus file
    with_full_flush = [case for case in map(json.loads, MCR.read_text(encoding="utf-8").splitlines())
                       if any(f["id"] == "full_flush" for m in case["expect"].get("either", [case["expect"]])
                              for f in m.get("fans", []))]
    assert c["count"] == len(with_full_flush) > 0
    witness = c["witness"]
    assert "wins on" in witness["words"] and witness["reproduce"].endswith("| mjcheck score --case -")
    assert any(s["rule"] == "fan.full_flush" for s in c["sources"])
    report = (tmp_path / "out" / "report.md").read_text(encoding="utf-8")
    assert report.index("## Failure classes") < report.index("## Profile")
    assert "explained by" in report and "full_flush is worth 32" in report


# ----------------------------------------------------------------------- the profile

def test_an_unrelated_departure_does_not_hide_the_reading_an_engine_follows(tmp_path):
    """The engine follows tile_hog_honors=true and also adds a fan of its own to every winning hand: on the
    cases that tell the readings apart its answer then matches neither reading whole, but where the readings
    differ (the Tile hog fans) it gives the `true` reading's, so the verdict stays `true`."""
    runner = CaseRunner()

    def engine(case):
        result = runner.run({**case, "options": {**(case.get("options") or {}), "tile_hog_honors": True}})
        if not result.get("valid", True) or "either" in result:
            return result
        return {**result, "fans": result["fans"] + [{"id": "lucky_hand", "points": 1, "count": 1}]}

    run = run_conformance(str(MCR), InProcessEngine(engine, EngineInfo("planted", "1")), str(tmp_path / "out"))
    hog = run.summary["profile"]["mcr"]["options"]["tile_hog_honors"]
    assert hog["verdict"] == "true"
    assert hog["agree"]["true"] == 0 and hog["agree_other_fans_differ"]["true"] > 0


def test_a_search_out_of_effort_says_so_and_names_nothing(tmp_path):
    """With no effort to spend, no class is searched, and each says why rather than `unexplained`."""
    from checker.conform.results import read_results
    from checker.diagnose import classes_of
    from checker.diagnose.causes import CauseSearch

    diagnosed(tmp_path, MCR, engine(edited_runner(tmp_path, "mcr", full_flush_32)))
    results = read_results(str(tmp_path / "out" / "results.jsonl"))
    search = CauseSearch(results, effort=0)
    (cause,) = search.explain_all(classes_of(results))
    assert not cause.explanations and cause.verdict.startswith("not searched: the search's effort")
