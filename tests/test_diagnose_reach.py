"""How far a confirmed cause reaches: an engine that follows the options a case names is put the cause's hands again
with each option bearing on it named at a value the class's cases do not hold (checker.diagnose.probes
`Experiments.reach`). A cause true only under the class's options says so; one true under the other value too says
that; an engine that ignores a case's options is asked nothing of the kind (its profile shows no option followed)."""
from __future__ import annotations

import json

from checker.case import CaseRunner
from checker.conform import run_conformance
from checker.conform.adapters import EngineInfo, InProcessEngine
from checker.conform.profile import followed_options

from test_diagnose import MCR, causes, edited_runner, pattern

FLOWER_OPTION = "flower_replacement_is_kong_replacement"


def tile_hog_4(data):
    pattern(data, "tile_hog")["points"] = 4  # the guide's table: 2


def planted(tmp_path, follows_options: bool):
    """An MCR engine with two departures: Tile hog at 4 points, whatever the options; the flower_replacement flag
    ignored where the case leaves flower_replacement_is_kong_replacement at false (the engine reads the flag only
    to score Out with replacement tile, which the rules' default withholds; it never refuses a hand for it). With
    `follows_options` false it also ignores every option a case names."""
    runner = edited_runner(tmp_path, "mcr", tile_hog_4)

    def run(case):
        options = dict(case.get("options") or {}) if follows_options else {}
        data = dict(case["input"])
        if not options.get(FLOWER_OPTION):
            data["flags"] = {k: v for k, v in (data.get("flags") or {}).items() if k != "flower_replacement"}
        return runner.run({**case, "options": options, "input": data})
    return run


def summary(tmp_path, follows_options: bool) -> dict:
    """The engine run on the shipped MCR corpus without its cases naming the flower option (those would show the
    engine reading the flag there, and no edit of the catalogue ignores a flag under one value of an option
    alone: "the flag is ignored" is then named for the cases that hold the default, and its reach probed)."""
    corpus = tmp_path / "mcr.jsonl"
    corpus.write_text("".join(line + "\n" for line in MCR.read_text(encoding="utf-8").splitlines()
                              if FLOWER_OPTION not in (json.loads(line).get("options") or {})), encoding="utf-8")
    run = run_conformance(str(corpus), InProcessEngine(planted(tmp_path, follows_options), EngineInfo("planted", "1")),
                          str(tmp_path / "out"))
    return run.summary


def explanations(classes, cause_id):
    return [e for c in classes for e in c["cause"].get("explained_by") or [] if e["id"] == cause_id]


def test_a_cause_true_only_under_the_class_s_options_says_so_and_one_true_beyond_them_says_that(tmp_path):
    found = summary(tmp_path, follows_options=True)
    # the profile: options followed (Two concealed kongs at 6 where a case names it, …); Tile hog's option met by the engine's Tile hog at 4 (its cases
    # answered as neither reading), none answered as another reading than the one named: every option is followed
    options = found["profile"]["mcr"]["options"]
    assert options["two_concealed_kongs_points"]["set_by_case"]["followed"]
    assert not any(o["set_by_case"]["answered_otherwise"] for o in options.values())
    assert followed_options(found["profile"]) == {"mcr": frozenset(options)}
    classes = found["classes"]
    assert causes(classes) == {"flag-ignored:flower_replacement", "points:tile_hog=4"}, causes(classes)

    # the flag ignored: under the class's false; where a case names true, the engine reads it (a flower replacement
    # self-drawn scores Out with replacement tile, 8, which "the flag is ignored" withholds)
    flower = explanations(classes, "flag-ignored:flower_replacement")
    assert flower and all(e["evidence"] == "confirmed" for e in flower)
    reached = [r for e in flower for r in e.get("reach") or []]
    assert reached and all(r["option"] == FLOWER_OPTION and r["value"] is True and r["held"] == [False]
                           and r["status"] == "contradicted" for r in reached), reached
    wrong = [p for r in reached for p in r["probes"] if p["holds"] is False]
    assert wrong and all(p["case"]["options"][FLOWER_OPTION] is True for p in wrong)
    assert all("out_with_replacement_tile" in json.dumps(p["answer"]) for p in wrong)
    assert all("out_with_replacement_tile" not in json.dumps(p["predicted"]) for p in wrong)

    # Tile hog at 4: also where a case counts honours for it (tile_hog_honors=true, the option that reads the fan)
    hog = explanations(classes, "points:tile_hog=4")
    assert hog and all(e["evidence"] == "confirmed" for e in hog)
    reached = [r for e in hog for r in e.get("reach") or []]
    assert reached and all(r["status"] == "confirmed" for r in reached), reached
    # (and where four identical tiles may not stand as two pairs: seven_pairs_four_identical=false changes which
    # hands of the class hold a Tile hog)
    assert ("tile_hog_honors", True) in {(r["option"], r["value"]) for r in reached}
    assert {r["option"] for r in reached} <= {"tile_hog_honors", "seven_pairs_four_identical"}

    report = (tmp_path / "out" / "report.md").read_text(encoding="utf-8")
    assert f"not everywhere where a case names {FLOWER_OPTION}=true" in report
    assert "where a case names tile_hog_honors=true, the engine answered as it predicts too" in report


def test_an_engine_ignoring_the_options_a_case_names_is_asked_nothing_of_their_other_values(tmp_path):
    found = summary(tmp_path, follows_options=False)
    assert not any(o["set_by_case"]["followed"] for o in found["profile"]["mcr"]["options"].values())
    assert followed_options(found["profile"]) == {}
    reached = [e for c in found["classes"] for e in c["cause"].get("explained_by") or [] if e.get("reach")]
    assert not reached, reached


def test_a_departure_on_one_value_of_an_option_is_named_with_that_value(tmp_path):
    """On the whole MCR corpus, a case naming flower_replacement_is_kong_replacement=true with the flower flag passes
    (the engine reads the flag there): "the flag is ignored" changes it, so it is named only where the option is
    false, the value every case it explains holds (edits.where). Every class is explained, by the engine's two
    departures alone."""
    run = run_conformance(str(MCR), InProcessEngine(planted(tmp_path, True), EngineInfo("planted", "1")),
                          str(tmp_path / "out"))
    classes = run.summary["classes"]
    restricted = f"flag-ignored:flower_replacement where {FLOWER_OPTION}=false"
    assert causes(classes) == {restricted, "points:tile_hog=4"}, causes(classes)
    flower = explanations(classes, restricted)
    assert flower and all(e["evidence"] == "confirmed" for e in flower)
    assert all(f"where {FLOWER_OPTION} is false" in e["words"] for e in flower)
    # its probes keep the option as the class's cases hold it (a case naming true is read as the rules read it)
    assert all(p["case"].get("options", {}).get(FLOWER_OPTION, False) is False for e in flower for p in e["probes"])
    # and what it says of the other value is put to the engine: hands where the flag, ignored wherever, would move
    # the answer, with the option named true, which the engine answers as the rules do
    for e in flower:
        (reach,) = e["reach"]
        assert (reach["option"], reach["value"], reach["status"]) == (FLOWER_OPTION, True, "confirmed"), reach
        assert all(p["case"]["options"][FLOWER_OPTION] is True and p["predicted"] == p["case"]["expect"]
                   for p in reach["probes"])
    assert causes(classes) == {restricted, "points:tile_hog=4"}  # (no other departure named beside them)
