"""`mjcheck game validate` and `mjcheck game simulate` end to end: verdicts, exit statuses, bad input named by
line, batches that go on past a bad log."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from checker import tiles as T
from checker.cli import app
from checker.table.simulate import play_hand
from checker.table.wall import arrange_wall

runner = CliRunner()
HEADER = {"game": "mjcheck-table", "version": 1, "ruleset": "mcr"}


def run(*args):
    result = runner.invoke(app, list(args))
    assert "Traceback" not in result.output
    return result


def write(path: Path, lines) -> str:
    path.write_text("".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines),
                    encoding="utf-8")
    return str(path)


@pytest.fixture(scope="module")
def legal_lines():
    return play_hand("mcr", 11).lines()


def test_a_legal_log_prints_the_result_and_exits_0(tmp_path, legal_lines):
    r = run("game", "validate", write(tmp_path / "a.jsonl", legal_lines))
    assert r.exit_code == 0, r.output
    assert "legal" in r.output and "payments by seat" in r.output and "next dealer" in r.output


def test_json_output_gives_the_verdict_and_result(tmp_path, legal_lines):
    r = run("game", "validate", "--json", write(tmp_path / "a.jsonl", legal_lines))
    found = json.loads(r.output)
    assert found["verdict"] == "legal" and sum(found["result"]["payments"]) == 0


def test_an_illegal_event_names_its_line_rule_statement_and_what_was_expected(tmp_path):
    # Seat 2 chows the dealer's 1m, but only seat 1 (the dealer's next player) may chow it (procedure.claims).
    wall = arrange_wall({0: "1m9m9m9p9p9p9s9s9s1z1z1z2z2z", 2: "2m3m4p5p6p4s5s6s3z3z3z4z4z"})
    log = [{**HEADER, "wall": T.format_tiles(wall)}, {"event": "discard", "seat": 0, "tile": "1m"},
           {"event": "chow", "seat": 2, "tiles": "123m"}]
    r = run("game", "validate", write(tmp_path / "chow.jsonl", log))
    assert r.exit_code == 1
    assert "chow.jsonl:3" in r.output and "illegal" in r.output and "procedure.claims" in r.output
    assert "002_3a615137eafec6e0.txt" in r.output  # the statement the rule comes from
    assert "expected:" in r.output


def test_a_log_that_stops_before_the_hand_ends_is_unfinished(tmp_path, legal_lines):
    r = run("game", "validate", "--json", write(tmp_path / "cut.jsonl", legal_lines[:10]))
    assert r.exit_code == 1 and json.loads(r.output)["verdict"] == "unfinished"


@pytest.mark.parametrize("line, rule", [
    ({"event": "teleport", "seat": 1}, "input.event"),  # an unknown event
    ({"event": "discard", "seat": 0, "tile": "0m"}, "input.tile"),  # not a tile of the game
    ({"event": "discard", "seat": 0, "tile": "9f"}, "input.tile"),  # there are eight flowers
    ({"event": "discard", "seat": 4, "tile": "1m"}, "input.seat"),  # seats are 0-3
    ({"event": "discard", "seat": True, "tile": "1m"}, "input.seat"),
    ({"event": "discard", "seat": 0}, "input.event"),  # a discard names its tile
    ({"event": "draw", "seat": 1, "from": "side"}, "input.event"),
    ('{"event": "draw", "seat": 1', "input.json"),  # a truncated line
    ("not json at all", "input.json"),
])
def test_bad_input_exits_2_with_the_line_and_the_reason(tmp_path, line, rule):
    wall = arrange_wall({})
    r = run("game", "validate", "--json", write(tmp_path / "bad.jsonl", [{**HEADER, "wall": T.format_tiles(wall)}, line]))
    assert r.exit_code == 2
    found = json.loads(r.output)
    assert found["verdict"] == "bad input" and found["line"] == 2 and found["rule"] == rule, found


@pytest.mark.parametrize("header, rule", [
    ({**HEADER, "ruleset": "no-such-rules", "seed": 1}, "input.ruleset"),
    ({**HEADER, "seed": 1, "options": {"no_such_option": True}}, "input.options"),
    ({**HEADER, "wall": "1m" * 144}, "input.wall"),  # a wall that is not the 144 tiles
    ({**HEADER}, "input.header"),  # neither seed nor wall
    ({**HEADER, "seed": 1, "dealer": 7}, "input.header"),
    ({"event": "draw", "seat": 1}, "input.header"),  # no header line
])
def test_a_bad_header_exits_2(tmp_path, header, rule):
    r = run("game", "validate", "--json", write(tmp_path / "h.jsonl", [header]))
    assert r.exit_code == 2
    found = json.loads(r.output)
    assert found["line"] == 1 and found["rule"] == rule, found


def test_an_event_after_the_hand_ended_is_bad_input(tmp_path, legal_lines):
    extra = {"event": "draw_game"}
    r = run("game", "validate", "--json", write(tmp_path / "after.jsonl", legal_lines + [extra]))
    found = json.loads(r.output)
    assert r.exit_code == 2 and found["line"] == len(legal_lines) + 1 and "ended" in found["message"]


def test_a_batch_reports_every_log_and_exits_with_the_worst(tmp_path, legal_lines):
    good = write(tmp_path / "good.jsonl", legal_lines)
    bad = write(tmp_path / "bad.jsonl", [legal_lines[0], "{"])
    r = run("game", "validate", "--json", bad, str(tmp_path / "missing.jsonl"), good)
    assert r.exit_code == 2
    verdicts = [json.loads(line)["verdict"] for line in r.output.splitlines()]
    assert verdicts == ["bad input", "bad input", "legal"]


def test_simulate_writes_one_log_per_hand_and_a_summary(tmp_path):
    out = tmp_path / "sim"
    r = run("game", "simulate", "--ruleset", "shanghai-knocking", "--games", "3", "--seed", "4", "--out", str(out))
    assert r.exit_code == 0, r.output
    assert sorted(p.name for p in out.iterdir()) == ["shanghai-knocking-000000.jsonl", "shanghai-knocking-000001.jsonl",
                                                      "shanghai-knocking-000002.jsonl", "summary.json"]
    summary = json.loads((out / "summary.json").read_text())["summaries"][0]
    assert summary["hands"] == 3 and summary["wins"] + summary["drawn"] >= 3
    assert "simulated hands" in r.output and "forfeits" in r.output
    # every log it wrote replays as legal
    logs = sorted(str(p) for p in out.glob("*.jsonl"))
    assert run("game", "validate", *logs).exit_code == 0


def test_simulated_hands_follow_each_other_at_the_table(tmp_path):
    # Hand i+1 deals from the seat hand i's result names (mcr: the deal passes every hand).
    out = tmp_path / "sim"
    assert run("game", "simulate", "--ruleset", "mcr", "--games", "3", "--seed", "1", "--out", str(out)).exit_code == 0
    dealers = [json.loads((out / f"mcr-{i:06d}.jsonl").read_text().splitlines()[0]).get("dealer") for i in range(3)]
    assert dealers == [0, 1, 2]


@pytest.mark.parametrize("args, words", [
    (["--ruleset", "nope"], "unknown ruleset"),
    (["--ruleset", "mcr", "--bots", "greedy,greedy"], "four bots"),
    (["--ruleset", "mcr", "--bots", "greedy,greedy,greedy,clever"], "four bots"),
    (["--ruleset", "mcr", "--option", "no_such_option=1"], "no option"),
    (["--ruleset", "mcr", "--option", "dead_wall_tiles"], "NAME=VALUE"),
])
def test_simulate_refuses_bad_input_with_exit_2(tmp_path, args, words):
    r = run("game", "simulate", "--games", "1", "--seed", "1", "--out", str(tmp_path / "o"), *args)
    assert r.exit_code == 2 and words in r.output


def test_simulate_refuses_an_out_path_that_is_a_file(tmp_path):
    target = tmp_path / "file"
    target.write_text("x")
    r = run("game", "simulate", "--ruleset", "mcr", "--games", "1", "--seed", "1", "--out", str(target))
    assert r.exit_code == 2 and "not a folder" in r.output


def test_help_teaches_both_commands():
    text = run("game", "--help").output
    assert "validate" in text and "simulate" in text
    validate = run("game", "validate", "--help").output
    assert "Exit status" in validate and "rule id" in validate
    simulate = run("game", "simulate", "--help").output
    assert "--seed" in simulate and "greedy" in simulate


def _procedure_cases():
    # The dealer discards 1m; seat 2 (across) chows it: only seat 1 may chow the dealer's discard.
    wall = arrange_wall({0: "1m9m9m9p9p9p9s9s9s1z1z1z2z2z", 2: "2m3m4p5p6p4s5s6s3z3z3z4z4z"})
    events = [{"event": "discard", "seat": 0, "tile": "1m"}, {"event": "chow", "seat": 2, "tiles": "123m"}]
    base = {"ruleset": "mcr", "kind": "procedure", "input": {"wall": T.format_tiles(wall), "events": events},
            "covers": ["mcr.procedure.claims"]}
    return [{**base, "id": "chow-from-across", "expect": {"verdict": "illegal", "rule": "procedure.claims", "event": 1}},
            {**base, "id": "says-legal", "expect": {"verdict": "legal"}}]


def test_procedure_cases_run_in_score_batch_and_conform(tmp_path):
    corpus = write(tmp_path / "p.jsonl", _procedure_cases())
    r = run("score", "--batch", corpus)
    lines = [json.loads(line) for line in r.output.splitlines()]
    assert [line["matches"] for line in lines] == [True, False] and r.exit_code == 1
    assert lines[0]["result"]["rule"] == "procedure.claims" and lines[0]["result"]["event"] == 1
    out = tmp_path / "conform"
    r = run("conform", "--corpus", corpus, "--engine", "reference", "--out", str(out))
    assert r.exit_code == 1, r.output
    summary = json.loads((out / "summary.json").read_text())
    assert summary["counts"]["passed"] == 1 and summary["counts"]["failed"] == 1
    assert "says-legal" in (out / "report.md").read_text()
