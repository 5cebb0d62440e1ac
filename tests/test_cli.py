"""`mjcheck` end to end: outputs, exit statuses, and messages instead of tracebacks."""
from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from checker.cli import app

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "mcr-examples.jsonl"
runner = CliRunner()


def run(*args, input=None):
    result = runner.invoke(app, list(args), input=input)
    assert "Traceback" not in result.output
    return result


def test_score_text_hand_shows_fans_total_and_payments():
    # The guide's regular self-draw: 8 + 2 + 1 = 11, +57 / -19 x 3.
    r = run("score", "2p3p4p2s3s4s6m6m6m5p", "--win", "5p", "--meld", "chow:234m", "--self-draw")
    assert r.exit_code == 0
    for text in ("Mixed triple chow", "三色三同顺", "All simples", "Self drawn", "total 11", "+57", "-19"):
        assert text in r.output
    assert "Mixed double chow" in r.output  # listed as not counted again


def test_score_json_is_the_case_expect_shape():
    r = run("score", "1m1m1m2m2m2m3p3p3p4s4s4s5m5m", "--json")  # last tile = winning tile
    assert r.exit_code == 0
    out = json.loads(r.output)
    assert out["total"] == 79 and out["payments"] == [261, -87, -87, -87]


def test_hand_that_may_not_win_exits_1():
    # 7 qualifying points + a flower (see test_examples): may not win.
    r = run("score", "9m9m5z5z", "--win", "9m", "--meld", "pung:222m", "--meld", "pung:555p", "--meld", "pung:888s",
            "--discard", "2", "--flowers", "1f")
    assert r.exit_code == 1
    assert "at least 8" in r.output


def test_other_notations_score_the_same():
    # The 79-point hand in MahjongGB codes and in Chinese names.
    for hand in ("W1 W1 W1 W2 W2 W2 B3 B3 B3 T4 T4 T4 W5", "一万一万一万二万二万二万三筒三筒三筒四条四条四条五万"):
        r = run("score", hand, "--win", "5m", "--json")
        assert json.loads(r.output)["total"] == 79


def test_bad_tile_exits_2_naming_it():
    r = run("score", "1m1m1m2m2m2m3p3p3p4s4s4s5x", "--win", "5m")
    assert r.exit_code == 2 and "'5' has no suit letter" in r.output and "position 13" in r.output


def test_fifth_copy_exits_2_naming_the_tile():
    r = run("score", "1m1m1m1m2m2m2m3p3p3p4s4s4s", "--win", "1m")
    assert r.exit_code == 2 and "fifth copy of 1m" in r.output


def test_wrong_count_exits_2_with_the_rule():
    r = run("score", "2p3p4p2s3s4s6m6m6m", "--win", "5p", "--meld", "chow:234m")
    assert r.exit_code == 2 and "tiles.hand_size" in r.output


def test_unknown_flag_and_option_are_named():
    r = run("score", "1m1m1m2m2m2m3p3p3p4s4s4s5m5m", "--flag", "heavenly_hand")
    assert r.exit_code == 2 and "heavenly_hand" in r.output
    r = run("score", "1m1m1m2m2m2m3p3p3p4s4s4s5m5m", "--option", "chicken=yes")
    assert r.exit_code == 2 and "no option 'chicken'" in r.output


def test_mcr_chow_from_another_seat_than_the_previous_player_exits_2_naming_the_rule():
    # "Chow takes the previous player's discard": seats are relative to the winner, 3 the previous player.
    for seat in ("1", "2"):
        r = run("score", "2p3p4p2s3s4s6m6m6m5p", "--win", "5p", "--meld", f"chow:234m@{seat}")
        assert r.exit_code == 2 and "procedure.chow_from_previous" in r.output
        assert f"claimed from seat {seat}" in r.output
    # From seat 3 it is the guide's regular self-draw: Mixed triple chow 8 + All simples 2 + Self drawn 1 = 11;
    # each opponent pays 8 + 11 = 19, winner +57.
    r = run("score", "2p3p4p2s3s4s6m6m6m5p", "--win", "5p", "--meld", "chow:234m@3", "--json")
    assert r.exit_code == 0
    out = json.loads(r.output)
    assert out["total"] == 11 and out["payments"] == [57, -19, -19, -19]


def test_option_changes_the_score():
    # four_concealed_pungs_with_fully_concealed=false: 76 instead of 79 (see test_options).
    r = run("score", "1m1m1m2m2m2m3p3p3p4s4s4s5m5m", "--json",
            "--option", "four_concealed_pungs_with_fully_concealed=false")
    assert json.loads(r.output)["total"] == 76


def test_bad_meld_is_named():
    r = run("score", "1m1m1m2m2m2m3p3p3p4s", "--win", "4s", "--meld", "chow:246m")
    assert r.exit_code == 2 and "chow '246m'" in r.output


def test_case_file_with_expectation(tmp_path):
    line = CORPUS.read_text(encoding="utf-8").splitlines()[3]  # the 79-point example
    path = tmp_path / "case.json"
    path.write_text(line)
    r = run("score", "--case", str(path))
    assert r.exit_code == 0 and "expectation met" in r.output
    case = json.loads(line)
    case["expect"]["total"] = 80
    path.write_text(json.dumps(case))
    r = run("score", "--case", str(path), "--json")
    assert r.exit_code == 1 and "NOT met" in r.output


def test_case_from_stdin_and_invalid_case():
    line = CORPUS.read_text(encoding="utf-8").splitlines()[0]
    assert run("score", "--case", "-", input=line).exit_code == 0
    r = run("score", "--case", "-", input='{"ruleset": "mcr", "kind": "score", "input": {"win_tile": "5m"}}')
    assert r.exit_code == 2 and "concealed" in r.output


def test_batch_scores_the_corpus_and_reports_bad_lines(tmp_path):
    r = run("score", "--batch", str(CORPUS))
    assert r.exit_code == 0
    results = [json.loads(line) for line in r.output.splitlines() if line.startswith("{")]
    assert len(results) == len(CORPUS.read_text().splitlines()) and all(x["matches"] for x in results)
    path = tmp_path / "mixed.jsonl"
    path.write_text(CORPUS.read_text().splitlines()[0] + "\nnot json\n")
    r = run("score", "--batch", str(path))
    lines = [json.loads(line) for line in r.output.splitlines() if line.startswith("{")]
    assert r.exit_code == 2 and lines[0]["matches"] and lines[1]["line"] == 2 and "invalid JSON" in lines[1]["message"]


def test_spec_validate_ok_and_bad(tmp_path):
    r = run("spec", "validate")
    assert r.exit_code == 0 and "81 patterns" in r.output
    bad = tmp_path / "bad.yaml"
    bad.write_text("id: bad\n")
    r = run("spec", "validate", str(bad), "--json")
    assert r.exit_code == 2
    problems = json.loads(r.output)["problems"]
    assert problems and problems[0]["file"].endswith("bad.yaml") and "required" in problems[0]["reason"]


def test_rulesets_lists_mcr_with_options():
    r = run("rulesets", "--json")
    rows = json.loads(r.output)
    mcr = next(x for x in rows if x["id"] == "mcr")
    assert mcr["patterns"] == 81 and mcr["options"]["two_concealed_kongs_points"] == 8


def test_help_teaches():
    r = run("score", "--help")
    assert r.exit_code == 0 and "Examples" in r.output and "--meld" in r.output


def test_shanghai_knocking_scores_with_its_flags():
    # Hua: base 1 + flowers 1f and 5z (a dragon is a flower here) 2 + East pung 1 = 4; doubles 门清 1 + 混一色 1:
    # 4 x 2^2 = 16; self-drawn, each opponent pays 16.
    r = run("score", "-r", "shanghai-knocking", "1s2s3s4s5s6s7s8s9s1z1z1z5s", "--win", "5s", "--flag", "knocked",
            "--flowers", "1f5z", "--json")
    assert r.exit_code == 0
    assert json.loads(r.output)["payments"] == [48, -16, -16, -16]


def test_shanghai_bad_input_names_the_flag_or_rule():
    r = run("score", "-r", "shanghai-knocking", "4s5s6s7s8s9s1z1z1z5s", "--win", "5s", "--flag", "knocked",
            "--meld", "chow:123s@3:after_knock")
    assert r.exit_code == 2 and "procedure.knock_locks_hand" in r.output
    r = run("score", "-r", "shanghai-knocking", "1s2s3s4s5s6s7s8s9s1z1z1z5s", "--win", "5s", "--flag", "kaibao")
    assert r.exit_code == 2 and "kaibao" in r.output
    r = run("score", "-r", "shanghai-classic", "1m1m1m2m2m2m3m3m3m4m4m4m5m", "--win", "5m", "--flag", "knocked",
            "--counter", "huangfan=-1")
    assert r.exit_code == 2 and "huangfan" in r.output and "it takes 0 to 99" in r.output


def test_shanghai_hand_refused_before_knocking_exits_1():
    r = run("score", "-r", "shanghai-knocking", "1s2s3s4s5s6s7s8s9s1z1z1z5s", "--win", "5s")
    assert r.exit_code == 1 and "knocked" in r.output


def test_every_corpus_file_matches_its_expectations():
    for path in sorted(CORPUS.parent.glob("*.jsonl")):
        r = run("score", "--batch", str(path))
        assert r.exit_code == 0, (path.name, r.output[-500:])
