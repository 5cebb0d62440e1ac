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
KNOCKING = ROOT / "corpus" / "shanghai-knocking.jsonl"


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
    """The single departures named across the classes (a pair, for cases showing two at once, names both);
    every class must be fully explained."""
    found = set()
    for c in classes:
        cause = c["cause"]
        assert cause.get("explained_by"), f"unexplained: {c['signature']} ({cause})"
        assert cause["unexplained"] == 0, f"{c['signature']}: {cause}"
        found.update(part for e in cause["explained_by"] for part in e["id"].split(" + "))  # a pair: both
    return found


# ----------------------------------------------------------------------- one change each

def pung_completed_by_a_discard_counts_as_concealed(data):
    for p in data["patterns"]:  # the table: "a pung completed by ron is not concealed"
        if p["when"]["predicate"] == "concealed_pungs":
            p["when"]["params"]["discard_completed"] = True


def flowers_counted_once(data):
    pattern(data, "flower_tiles")["counting"] = "once"  # the table: 1 point per flower


SPEC_EDITS = [
    ("points", full_flush_32, {"points:full_flush=32"}),
    ("counting", flowers_counted_once, {"counting:flower_tiles=once"}),
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


def classic_flowers_counted_once(data):
    pattern(data, "flower")["counting"] = "once"  # 春夏秋冬梅兰竹菊每个计一朵花: one 花 per flower


def knocking_wind_pungs_counted_once(data):
    pattern(data, "wind_pung")["counting"] = "once"  # each wind pung is 1 花


@pytest.mark.parametrize("ruleset, corpus, edit, planted", [
    ("shanghai-classic", CLASSIC, classic_flowers_counted_once, {"counting:flower=once"}),
    ("shanghai-knocking", KNOCKING, knocking_wind_pungs_counted_once, {"counting:wind_pung=once"}),
], ids=["classic flowers", "knocking wind pungs"])
def test_a_shanghai_engine_counting_once_what_the_document_counts_each_is_named(tmp_path, ruleset, corpus, edit,
                                                                                planted):
    classes = diagnosed(tmp_path, corpus, engine(edited_runner(tmp_path, ruleset, edit)))
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


def last_tile_claim_scored_as_a_replacement_draw(tmp_path):
    """An engine that scores Out with replacement tile (8) on a win off the last discard, as if the last tile
    were a kong's replacement draw: the reference engine's answer, except on a discard win with the last_tile
    flag, where a spec whose Out with replacement tile is decided by that context scores it."""
    plain = CaseRunner()

    def by_the_last_discard(data):
        pattern(data, "out_with_replacement_tile")["when"] = {
            "predicate": "win_context", "params": {"win_by": ["discard"], "flag": "last_tile"}}
    edited = edited_runner(tmp_path, "mcr", by_the_last_discard)

    def run(case):
        data = case["input"]
        last_discard = data.get("win_by") == "discard" and (data.get("flags") or {}).get("last_tile")
        return (edited if last_discard else plain).run(case)
    return run


def test_the_last_discard_read_as_a_replacement_draw_is_named(tmp_path):
    assert causes(diagnosed(tmp_path, MCR, last_tile_claim_scored_as_a_replacement_draw(tmp_path))) \
        == {"read-as-replacement:last_tile/discard"}


def test_a_fan_outside_the_spec_is_named_with_the_fan_it_replaces(tmp_path):
    """The engine calls All simples `tanyao` everywhere: in every failed case whose money agrees, tanyao stands
    where all_simples is missing, with its count, and the engine lists all_simples under no other name, so the
    run reads tanyao as the engine's own name for it (checker.diagnose.notation), said as such."""
    classes = diagnosed(tmp_path, MCR, engine(answer=renamed("all_simples", "tanyao")))
    assert causes(classes) == {"fan-names"}
    assert "words of its own" in classes[0]["cause"]["explained_by"][0]["words"]
    assert "tanyao for all_simples" in classes[0]["cause"]["explained_by"][0]["words"]


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


def test_a_spec_edit_and_a_name_learned_under_it_are_each_named(tmp_path, monkeypatch):
    """A base of 10 and All simples written as `tanyao`: the base moves the money of every case, so the name can
    be learned only where the rules with the base the probes confirm pay as the engine does (once it was named a
    fan outside the spec, which the engine's tanyao, All simples' worth every time, is not)."""
    # a base of 10 fails every case of the corpus, in many classes; the search's effort bound (30,000 re-scorings
    # and 20 a failed case) is not what this test is about: it is raised so the small tanyao class is reached
    import checker.diagnose.causes as causes_module
    monkeypatch.setattr(causes_module, "EFFORT", 100_000)
    runner = edited_runner(tmp_path, "mcr", base_10)
    classes = diagnosed(tmp_path, MCR, engine(runner, answer=renamed("all_simples", "tanyao")))
    named = causes(classes)
    assert named >= {"base=10", "fan-names"} and not any(n.startswith("outside:") for n in named), named
    words = [e["words"] for c in classes for e in c["cause"].get("explained_by") or [] if e["id"] == "fan-names"]
    assert any("tanyao" in w and "all_simples" in w for w in words), words


def test_a_class_of_two_causes_one_an_outside_fan_is_explained_whole(tmp_path):
    """The engine reads no case options (so Chicken hand scores wherever a case turns it off) and scores a melded
    kong as `big_kong`, 3 points, a fan the spec does not have (in place of Melded kong, 1). Both make it win
    hands the rules refuse under 8 points: one class, which must be explained whole by the two together."""
    def melded_kong_3(data):
        pattern(data, "melded_kong")["points"] = 3
    runner = edited_runner(tmp_path, "mcr", melded_kong_3)
    rename = renamed("melded_kong", "big_kong")

    def run(case):
        return rename(runner.run({**case, "options": {}}))
    classes = diagnosed(tmp_path, MCR, run)
    (refused,) = [c for c in classes if c["signature"].startswith("expected refused: win.minimum_points")]
    ids = {e["id"] for e in refused["cause"]["explained_by"]}
    assert refused["cause"]["unexplained"] == 0
    assert ids == {"option:chicken_hand_scores=true", "outside:big_kong"}, refused["cause"]


def test_a_cause_whose_cases_were_not_screened_first_is_found_for_the_cases_left(tmp_path, monkeypatch):
    """The engine reads no case options and follows two readings that each take Fully concealed hand away from a
    self-drawn hand and give Self drawn instead (concealed shapes, Four concealed pungs): their cases fall in one
    class. Screening only the class's first case finds one reading; the cases it leaves are screened again, and
    the other is found."""
    import checker.diagnose.causes as causes_module
    monkeypatch.setattr(causes_module, "MAX_MEMBERS_SCREENED", 1)
    runner = CaseRunner()
    both = {"fully_concealed_with_concealed_shapes": False, "four_concealed_pungs_with_fully_concealed": False}

    def run(case):
        return runner.run({**case, "options": both})
    classes = diagnosed(tmp_path, MCR, run)
    (shared,) = [c for c in classes
                 if c["signature"] == "missing fully_concealed_hand 4; extra self_drawn 1; payments differs; total differs"]
    assert shared["cause"]["unexplained"] == 0, shared["cause"]
    assert {e["id"] for e in shared["cause"]["explained_by"]} == {
        "option:fully_concealed_with_concealed_shapes=false", "option:four_concealed_pungs_with_fully_concealed=false"}


OWN_DEFAULTS = {"fully_concealed_with_concealed_shapes": False, "four_concealed_pungs_with_fully_concealed": False,
                "nine_gates_terminal_pungs": "one"}


def reads_own_defaults(runner: CaseRunner):
    """An engine that follows the options a case names but reads three the other MCR tables' way where a case
    is silent (`OWN_DEFAULTS`): Seven pairs, Nine gates … and Four concealed pungs without Fully concealed hand,
    one terminal pung left beside Nine gates."""
    def run(case):
        return runner.run({**case, "options": {**OWN_DEFAULTS, **(case.get("options") or {})}})
    return run


OWN_DEFAULT_CAUSES = {"default:fully_concealed_with_concealed_shapes=false",
                      "default:four_concealed_pungs_with_fully_concealed=false",
                      "default:nine_gates_terminal_pungs=one"}


def test_an_engine_with_defaults_of_its_own_is_named_by_its_defaults(tmp_path):
    """Read as overriding a case's options, the three readings change passing cases that name the spec's value (the
    engine follows them): they are the engine's defaults, and named so, not as readings it holds to whatever a case
    says."""
    named = causes(diagnosed(tmp_path, MCR, reads_own_defaults(CaseRunner())))
    assert named == OWN_DEFAULT_CAUSES, named


def test_a_reading_held_whatever_a_case_says_is_told_from_the_same_default_by_a_probe_naming_the_option(tmp_path):
    """The engine reads fully_concealed_with_concealed_shapes=false whatever a case names; the corpus's cases that
    name no option show it only where a case is silent, which the reading and the same default explain alike. A
    probe names the option at the spec's value on the class's own hand: the engine holds to its reading, so the
    reading is named, not the default, and the report shows the options the probe named."""
    silent = tmp_path / "silent.jsonl"
    silent.write_text("".join(line + "\n" for line in MCR.read_text(encoding="utf-8").splitlines()
                              if not json.loads(line).get("options")), encoding="utf-8")
    runner = CaseRunner()

    def run(case):
        return runner.run({**case, "options": {**(case.get("options") or {}),
                                               "fully_concealed_with_concealed_shapes": False}})
    classes = diagnosed(tmp_path, silent, run)
    assert causes(classes) == {"option:fully_concealed_with_concealed_shapes=false"}
    report = (tmp_path / "out" / "report.md").read_text(encoding="utf-8")
    told = [line for line in report.splitlines()
            if "(against default:fully_concealed_with_concealed_shapes=false)" in line]
    assert told and all('options `{"fully_concealed_with_concealed_shapes": true}`' in line for line in told), told


def test_a_departure_tried_with_the_run_s_others_is_held_to_its_own_cases(tmp_path, monkeypatch):
    """One class holds two explanations (Fully concealed hand withheld from Four concealed pungs, and from the
    concealed shapes). The second's probe, a Nine gates hand, meets the engine's third default (a terminal pung
    beside Nine gates): contradicted alone, it is tried with the run's other departures. Here only those that move
    that probe's prediction are tried (all of them together may meet a probe one of them does not belong on, as on
    PyMahjongGB): the Nine gates reading, which must be held to the cases the concealed shapes explain, not to the
    Four concealed pungs cases another explanation covers (before 794f664 the class was left with 2 unexplained)."""
    import checker.diagnose.confirm as confirm_module
    every = confirm_module._model_subsets

    def moving_only(others, moving):
        return [s for s in every(others, moving) if len(s) < len(others)] or every(others, moving)
    monkeypatch.setattr(confirm_module, "_model_subsets", moving_only)
    classes = diagnosed(tmp_path, MCR, reads_own_defaults(CaseRunner()))
    assert causes(classes) == OWN_DEFAULT_CAUSES
    (shared,) = [c for c in classes
                 if c["signature"] == "missing fully_concealed_hand 4; extra self_drawn 1; payments differs; total differs"]
    assert {e["id"] for e in shared["cause"]["explained_by"]} == {
        "default:fully_concealed_with_concealed_shapes=false", "default:four_concealed_pungs_with_fully_concealed=false"}
    assert not shared["cause"].get("contradicted"), shared["cause"]["contradicted"]


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
