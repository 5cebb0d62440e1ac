"""`mjcheck corpus random`: seeded random cases with the reference's answers (checker.corpus.random_cases)."""
from __future__ import annotations

import json
from collections import Counter

import pytest
from typer.testing import CliRunner

from checker.cli import app
from checker.corpus.random_cases import Mix, RandomCorpusError, parse_name, random_cases
from checker.corpus.shipped import CorpusNameError, corpus_path


def test_the_same_seed_gives_the_same_cases_and_a_case_is_the_same_whatever_the_count():
    first = list(random_cases("shanghai-classic", 60, 5))
    assert first == list(random_cases("shanghai-classic", 60, 5))
    assert first[:25] == list(random_cases("shanghai-classic", 25, 5))
    assert first != list(random_cases("shanghai-classic", 60, 6))
    assert len({c["id"] for c in first}) == 60


def test_a_random_case_expects_what_the_rules_give_worked_by_hand():
    """Case 5 of MCR seed 3 with no option and no invalid share: concealed 1m1m1m 3m4m 4m5m 5m6m7m, a claimed
    chow 7m8m9m, 7m self-drawn, no flowers. Sets: 1m1m1m, 3m4m5m, 4m5m6m, 7m8m9m, pair 7m7m. Full flush 24 (which
    leaves out No honors and One voided suit), Short straight 1 (4m5m6m and 7m8m9m), Pung of terminals 1 (1m),
    Self-drawn 1: 27; no Fully concealed hand (the chow is claimed). Each of three pays 8 + 27 = 35: +105."""
    case = list(random_cases("mcr", 6, 3, mix=Mix(invalid=0.0, options=0.0)))[5]
    assert case["input"]["concealed"] == "1m1m1m3m4m4m5m5m6m7m" and case["input"]["win_tile"] == "7m"
    assert case["input"]["win_by"] == "self_draw" and case["options"] == {}
    assert case["expect"]["total"] == 27
    assert {f["id"]: f["points"] for f in case["expect"]["fans"]} == {
        "full_flush": 24, "short_straight": 1, "pung_of_terminals_or_honors": 1, "self_drawn": 1}
    assert case["expect"]["payments"] == [105, -35, -35, -35]


def test_the_mix_holds_every_way_of_winning_flowers_options_and_refusals():
    cases = list(random_cases("mcr", 600, 1))
    ways = Counter(c["input"].get("win_by") for c in cases if isinstance(c["input"], dict))
    assert {"self_draw", "discard", "robbing_kong"} <= set(ways)
    assert sum(1 for c in cases if c["input"].get("flowers")) > 100
    with_options = sum(1 for c in cases if c["options"])
    assert 100 < with_options < 200  # 25% of 600
    broken = [c for c in cases if ", broken: " in c["origin"]]
    assert 30 < len(broken) < 100  # 10% of 600
    assert broken and all(c["expect"].get("valid") is False and c["expect"].get("error") for c in broken)
    every = list(random_cases("mcr", 80, 1, mix=Mix(invalid=1.0, options=0.0)))
    assert all(c["expect"].get("valid") is False and c["expect"].get("error") for c in every)


def test_a_theme_draws_every_hand_under_it_and_bad_requests_are_refused():
    honours = list(random_cases("mcr", 40, 2, mix=Mix(theme="honours", invalid=0.0)))
    assert all("a honours hand" in c["origin"] for c in honours)
    assert sum(1 for c in honours if any(ch == "z" for ch in c["input"]["concealed"])) > 30
    with pytest.raises(RandomCorpusError, match="unknown theme"):
        Mix(theme="nope")
    with pytest.raises(RandomCorpusError, match="between 0 and 1"):
        Mix(invalid=1.5)


def test_procedure_cases_are_played_hands_some_cut_after_an_illegal_event():
    cases = list(random_cases("shanghai-knocking", 6, 1, kind="procedure", mix=Mix(invalid=0.5)))
    assert all(c["kind"] == "procedure" and c["input"]["wall"] and c["input"]["events"] for c in cases)
    verdicts = Counter(c["expect"]["verdict"] for c in cases)
    assert verdicts["legal"] and verdicts["illegal"]
    for c in cases:
        if c["expect"]["verdict"] == "illegal":  # cut right after the changed event the rule refuses
            assert c["expect"]["rule"].startswith("procedure.") and c["expect"]["event"] == len(c["input"]["events"]) - 1


def test_a_random_corpus_by_name_is_made_once_and_named_errors_are_clear(tmp_path, monkeypatch):
    monkeypatch.setenv("MJCHECK_CACHE", str(tmp_path / "cache"))
    assert parse_name("random:mcr:2000:7") == ("mcr", 2000, 7, "score")
    assert parse_name("random:mcr:5:7:procedure") == ("mcr", 5, 7, "procedure")
    path = corpus_path("random:mcr:30:7")
    lines = [json.loads(line) for line in open(path, encoding="utf-8")]
    assert lines == list(random_cases("mcr", 30, 7))
    assert corpus_path("random:mcr:30:7") == path  # made once
    with open(path, "a", encoding="utf-8") as damaged:  # a cached file changed since: not trusted, made again
        damaged.write('{"id": "planted"}\n')
    assert [json.loads(line) for line in open(corpus_path("random:mcr:30:7"), encoding="utf-8")] == lines
    for bad, words in (("random:mcr:lots:7", "RULESET:COUNT:SEED"), ("random:nosuch:3:1", "unknown ruleset"),
                       ("random:mcr:3:1:play", "RULESET:COUNT:SEED")):
        with pytest.raises(CorpusNameError, match=words):
            corpus_path(bad)


def test_the_command_writes_the_cases_and_conform_runs_them_by_name(tmp_path, monkeypatch):
    monkeypatch.setenv("MJCHECK_CACHE", str(tmp_path / "cache"))
    runner = CliRunner()
    out = tmp_path / "r.jsonl"
    done = runner.invoke(app, ["corpus", "random", "--ruleset", "mcr", "--count", "40", "--seed", "7", "--out", str(out)])
    assert done.exit_code == 0, done.output
    assert [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()] == list(random_cases("mcr", 40, 7))
    shown = runner.invoke(app, ["corpus", "random", "--ruleset", "mcr", "--count", "2", "--seed", "7"])
    assert shown.exit_code == 0 and len(shown.stdout.splitlines()) == 2
    assert runner.invoke(app, ["corpus", "random", "--ruleset", "mcr", "--count", "2", "--seed", "7",
                               "--theme", "nope"]).exit_code == 2
    assert "honours" in runner.invoke(app, ["corpus", "random", "--ruleset", "mcr", "--count", "1", "--seed", "1",
                                            "--theme", "list"]).stdout
    run = runner.invoke(app, ["conform", "--corpus", "random:mcr:40:7", "--engine", "reference",
                              "--out", str(tmp_path / "run")])
    assert run.exit_code == 0, run.output
    summary = json.loads((tmp_path / "run" / "summary.json").read_text(encoding="utf-8"))
    assert summary["counts"]["passed"] == 40
    bad = runner.invoke(app, ["conform", "--corpus", "random:mcr:x:7", "--engine", "reference", "--out",
                              str(tmp_path / "run2")])
    assert bad.exit_code == 2 and "random:RULESET:COUNT:SEED" in bad.output


def test_every_case_is_read_under_the_options_given_and_a_bad_option_is_refused_naming_it():
    """--option wall_model=quarters --option flower_tiles_in_wall=false: hands of play a quarter-wall judge can
    deal (136 tiles, no flower ever exposed), each case naming the options; score cases keep them and read at
    most one other option otherwise."""
    quarters = {"wall_model": "quarters", "flower_tiles_in_wall": "false"}
    played = list(random_cases("mcr", 12, 4, "procedure", options=quarters))
    assert all(c["options"] == {"wall_model": "quarters", "flower_tiles_in_wall": False} for c in played)
    assert all(len(c["input"]["wall"]) == 136 * 2 for c in played)
    assert not any(e["event"] == "flower" for c in played for e in c["input"]["events"])
    assert all("read with wall_model=quarters, flower_tiles_in_wall=false" in c["origin"] for c in played)
    scored = list(random_cases("mcr", 40, 4, options={"tile_hog_honors": "true"}))
    assert all(c["options"]["tile_hog_honors"] is True and len(c["options"]) <= 2 for c in scored)
    with pytest.raises(RandomCorpusError, match="no option 'wall_modle'"):
        list(random_cases("mcr", 1, 4, "procedure", options={"wall_modle": "quarters"}))
    result = CliRunner().invoke(app, ["corpus", "random", "--ruleset", "mcr", "--count", "1", "--seed", "4",
                                      "--option", "wall_model=diagonal"])
    assert result.exit_code == 2 and "'wall_model' has no value 'diagonal'" in result.output


def test_every_case_written_is_a_case_the_case_schema_accepts():
    # A refusal's expectation is its rule alone: the reference's message is no field of a case, and a corpus
    # holding one was read by `conform` as lines that are not cases (the invalid share, 10%, all skipped).
    from checker.case import _case_accepts
    cases = list(random_cases("shanghai-knocking", 200, 5, mix=Mix(options=0.0, invalid=0.5)))
    refusals = [c for c in cases if c["expect"].get("valid") is False]
    assert len(refusals) > 50 and all("message" not in c["expect"] for c in refusals)
    assert all(_case_accepts(c) for c in cases)
