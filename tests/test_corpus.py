"""`mjcheck corpus generate` and the checked-in corpora (corpus/mcr.jsonl, shanghai-knocking.jsonl,
shanghai-classic.jsonl).

The expectations of generated cases are the reference engine's results; these tests check the generator's
contracts (determinism, the case schema, coverage of every pattern, the exit status), that every checked-in
case still meets its expectation through `mjcheck score --batch`, and that the checked-in knocking corpus is
byte for byte what the command generates for its seed. (Regenerating the MCR and classic corpora takes about
30 s on one core, too slow for this file: for those, every checked-in case is re-run instead.)
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from checker.case import case_problem
from checker.cli import app
from checker.corpus.coverage_table import coverage_table
from checker.corpus.generate import generate
from checker.engine import load_ruleset

ROOT = Path(__file__).resolve().parents[1]
CORPORA = {"mcr": ROOT / "corpus" / "mcr.jsonl", "shanghai-knocking": ROOT / "corpus" / "shanghai-knocking.jsonl",
           "shanghai-classic": ROOT / "corpus" / "shanghai-classic.jsonl"}
SEED = 10  # the seed the checked-in corpora were generated with (corpus/README.md)
runner = CliRunner()


def cases(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_same_seed_same_bytes_and_another_seed_differs(tmp_path):
    a, b, c = tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "c.jsonl"
    for out, seed in ((a, "3"), (b, "3"), (c, "4")):
        r = runner.invoke(app, ["corpus", "generate", "--ruleset", "shanghai-knocking", "--seed", seed,
                                "--size", "300", "--out", str(out)])
        assert "Traceback" not in r.output
        assert r.exit_code in (0, 1)
    assert a.read_bytes() == b.read_bytes()
    assert a.read_bytes() != c.read_bytes()
    assert "no_such_flag" in a.read_text()  # the invalid inputs are there too


@pytest.mark.parametrize("ruleset", sorted(CORPORA))
def test_checked_in_corpus_validates_and_is_small(ruleset):
    path = CORPORA[ruleset]
    assert path.stat().st_size < 2_000_000
    rules = load_ruleset(ruleset).rule_ids()
    ids = set()
    for case in cases(path):
        assert case_problem(case) is None, case["id"]
        assert case["id"] not in ids
        ids.add(case["id"])
        assert case["ruleset"] == ruleset and case["origin"] and case["covers"] is not None
        for rule in case["covers"]:
            assert rule.startswith(ruleset + ".") and rule[len(ruleset) + 1:] in rules, (case["id"], rule)


@pytest.mark.parametrize("ruleset", sorted(CORPORA))
def test_score_batch_meets_every_expectation_of_the_checked_in_corpus(ruleset):
    r = runner.invoke(app, ["score", "--batch", str(CORPORA[ruleset])])
    lines = [json.loads(x) for x in r.stdout.splitlines() if x.strip()]
    assert len(lines) == len(cases(CORPORA[ruleset]))
    assert [x["id"] for x in lines if not x.get("matches")] == []
    assert r.exit_code == 0


@pytest.mark.parametrize("ruleset", sorted(CORPORA))
def test_coverage_table_lists_every_pattern_with_a_case(ruleset):
    rs = load_ruleset(ruleset)
    table = coverage_table(rs, cases(CORPORA[ruleset]))
    for p in rs.patterns:
        assert table.counts[f"{ruleset}.fan.{p.id}"] >= 1, p.id
    for path in ("self_draw", "discard", "robbing_kong", "contract"):
        if f"settlement.{path}" in rs.rules:
            assert table.counts[f"{ruleset}.settlement.{path}"] >= 1, path
    assert table.gaps == []


def test_source_document_examples_are_kept_with_their_origin():
    examples = cases(ROOT / "corpus" / "mcr-examples.jsonl")
    kept = {c["id"]: c for c in cases(CORPORA["mcr"])}
    for example in examples:
        assert kept[example["id"]] == example
    classic = {c["id"] for c in cases(CORPORA["shanghai-classic"])}
    assert {c["id"] for c in cases(ROOT / "corpus" / "shanghai-examples.jsonl")} <= classic


def test_checked_in_knocking_corpus_is_what_the_command_generates(tmp_path):
    out = tmp_path / "k.jsonl"
    r = runner.invoke(app, ["corpus", "generate", "--ruleset", "shanghai-knocking", "--seed", str(SEED),
                            "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert out.read_bytes() == CORPORA["shanghai-knocking"].read_bytes()


def test_generated_corpus_has_each_kind_of_case():
    corpus = generate("shanghai-classic", seed=5, size=400)
    ids = [c["id"] for c in corpus.cases]
    assert any("-option-" in i for i in ids)
    assert any("-refusal-tiles-hand-size" in i for i in ids)
    assert any("-refusal-win-knocked" in i for i in ids)
    assert any("boundary-cap" in i for i in ids)
    assert all(c["origin"] == "generated, seed 5" for c in corpus.cases if c["id"] not in
               {e["id"] for e in cases(ROOT / "corpus" / "shanghai-examples.jsonl")})
    # each option case comes with the case of the default reading on the same hand, and that hand again with
    # the option left out, expecting the default reading's result (an engine reading another default fails it)
    by_id = {c["id"]: c for c in corpus.cases}
    readings = [c for c in corpus.cases if "-option-" in c["id"] and "-reading-" in c["id"]]
    unnamed = [c for c in corpus.cases if c["id"].endswith("-default-unnamed")]
    assert len(readings) % 2 == 0 and readings and len(unnamed) == len(readings) // 2
    for c in unnamed:
        option = c["id"].split("-option-")[1].split("-")[0]
        stem = c["id"][: -len("-default-unnamed")]
        default = next(v for k, v in by_id.items() if k.startswith(stem + "-reading-")
                       and v["options"][option] == load_ruleset("shanghai-classic").options[option].default)
        assert option not in c["options"] and c["input"] == default["input"] and c["expect"] == default["expect"]


def test_json_table_and_exit_status_one_when_a_pattern_is_not_covered(tmp_path):
    # with no random candidates, a few patterns only random hands reach are not covered: exit 1, listed
    r = runner.invoke(app, ["corpus", "generate", "--ruleset", "shanghai-knocking", "--seed", "1", "--size", "0",
                            "--out", str(tmp_path / "x.jsonl"), "--json"])
    table = json.loads(r.stdout)
    assert table["ruleset"] == "shanghai-knocking"
    assert set(table["counts"]) >= {f"shanghai-knocking.fan.{p.id}" for p in load_ruleset("shanghai-knocking").patterns}
    assert r.exit_code == (1 if table["gaps"] else 0)
    assert table["gaps"] == table["uncovered"]


def test_unknown_ruleset_is_bad_input(tmp_path):
    r = runner.invoke(app, ["corpus", "generate", "--ruleset", "nope", "--seed", "1", "--out", str(tmp_path / "x")])
    assert r.exit_code == 2
    assert "unknown ruleset" in r.output


PROCEDURE_CORPORA = {r: ROOT / "corpus" / f"{r}-procedure.jsonl" for r in CORPORA}


@pytest.mark.parametrize("ruleset", sorted(PROCEDURE_CORPORA))
def test_checked_in_procedure_corpus_validates_and_every_case_meets_its_expectation(ruleset):
    # Hands of play: legal hands, and a hand one change makes illegal per rule it could reach. Each case deals
    # from an explicit wall (no seed: an engine in any language deals it), and replays as it expects.
    path = PROCEDURE_CORPORA[ruleset]
    assert path.stat().st_size < 1_000_000
    rules = load_ruleset(ruleset).rule_ids()
    got = cases(path)
    # (a killing case may stop where the mutant parts from the spec, mid-hand: unfinished)
    assert {"legal", "illegal"} <= {c["expect"]["verdict"] for c in got} <= {"legal", "illegal", "unfinished"}
    for case in got:
        assert case_problem(case) is None, case["id"]
        assert case["kind"] == "procedure" and "wall" in case["input"] and "seed" not in case["input"]
        for rule in case["covers"]:
            assert rule[len(ruleset) + 1:] in rules, (case["id"], rule)
    r = runner.invoke(app, ["score", "--batch", str(path)])
    lines = [json.loads(x) for x in r.stdout.splitlines() if x.strip()]
    assert [x["id"] for x in lines if not x.get("matches")] == [] and len(lines) == len(got)
    illegal = {c["expect"]["rule"] for c in got if c["expect"]["verdict"] == "illegal"}
    assert {"procedure.turn", "procedure.claims", "procedure.replacement_draw"} <= illegal


def test_procedure_corpus_same_seed_same_bytes(tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    for out in (a, b):
        r = runner.invoke(app, ["corpus", "generate", "--ruleset", "shanghai-knocking", "--kind", "procedure",
                                "--seed", "2", "--size", "1", "--out", str(out), "--json"])
        assert r.exit_code in (0, 1) and "Traceback" not in r.output
        report = json.loads(r.stdout)
        assert report["hands"] == 1 and report["cases"] == len(cases(out))
        # a rule no case reaches is listed, and makes the exit status 1
        assert (r.exit_code == 1) == bool(report["uncovered"])
    assert a.read_bytes() == b.read_bytes()


def test_a_document_example_that_is_not_a_case_is_named_by_file_and_line(tmp_path, monkeypatch):
    # the generator keeps the documents' examples (corpus/*-examples.jsonl): a line that is not a case is bad
    # input (exit 2) naming the file and the line, not a traceback
    import checker.corpus.generate as generate

    (tmp_path / "mcr-examples.jsonl").write_text('{"kind": "score", "ruleset": "mcr"\n', encoding="utf-8")
    monkeypatch.setattr(generate, "corpus_dir", lambda: tmp_path)
    out = tmp_path / "o.jsonl"
    r = runner.invoke(app, ["corpus", "generate", "--ruleset", "mcr", "--seed", "1", "--size", "5", "--out", str(out)])
    assert r.exit_code == 2 and "mcr-examples.jsonl: line 1" in r.output and not out.exists()


# The hand-worked tests corpus/README.md names for each ruleset's patterns and option readings (every expected
# number in them worked out by hand or quoted from a source document), and for the procedure's options.
HAND_WORKED = {
    "mcr": ("test_fans_a.py", "test_fans_b.py", "test_fans_c.py", "test_options.py", "test_examples.py"),
    "shanghai-knocking": ("test_knocking.py",),
    "shanghai-classic": ("test_classic.py", "test_classic_readings.py"),
}
PROCEDURE_WORKED = ("test_table_procedure.py", "test_table_knocking_classic.py", "test_table_knocking_readings.py")


@pytest.mark.parametrize("ruleset_id", sorted(HAND_WORKED))
def test_every_pattern_and_option_a_corpus_covers_has_a_hand_worked_test(ruleset_id):
    # A corpus's expectations are the reference engine's, trusted for a rule because a hand-worked test of that
    # rule agrees with it (corpus/README.md): a pattern or option added to a spec without one fails here.
    # (named in one: a quoted pattern id, an option's name; what the test checks of it is the file's to say)
    import re

    here = Path(__file__).resolve().parent
    scoring = "".join((here / name).read_text(encoding="utf-8") for name in HAND_WORKED[ruleset_id])
    procedure = "".join((here / name).read_text(encoding="utf-8") for name in PROCEDURE_WORKED)
    rs = load_ruleset(ruleset_id)
    unworked = [p.id for p in rs.patterns if not re.search(f"[\"']{re.escape(p.id)}[\"']", scoring)]
    assert unworked == [], f"patterns with no hand-worked test: {unworked}"
    options = set(rs.scoring_options())
    for option in rs.options:
        text = scoring if option in options else procedure
        assert re.search(rf"\b{re.escape(option)}\b", text), f"option {option} has no hand-worked test"


def test_boundary_covers_name_the_rules_of_the_rulesets_own_cap_and_limit_steps(tmp_path):
    # A case at a cap covers the rules of the scoring steps that make the cap (steps of kind cap and limit), and
    # one at the single-hand limit those of the outer_limit step: classic's scoring.cap and scoring.limit, and
    # scoring.single_hand_limit. A variant whose steps carry other rule ids is covered by its own ids, never by
    # classic's (issue: rules bound by role).
    from checker.corpus.generate import _covers
    from checker.corpus.witnesses import Scored
    from checker.engine import load_ruleset, load_ruleset_file

    won = Scored("t", {"win_by": "self_draw"}, {}, {"valid": True, "total": 10, "fans": []}, False)
    classic = load_ruleset("shanghai-classic")
    assert {"scoring.cap", "scoring.limit"} <= _covers(classic, won, ("boundary", "cap", "at"))
    assert "scoring.single_hand_limit" in _covers(classic, won, ("boundary", "single_hand_limit", "at"))
    text = (Path(__file__).resolve().parents[1] / "spec" / "shanghai-classic.yaml").read_text(encoding="utf-8")
    renamed = text.replace("scoring.cap", "scoring.le_zi_cap").replace("scoring.single_hand_limit", "scoring.hand_cap")
    (tmp_path / "shanghai-classic.yaml").write_text(renamed, encoding="utf-8")
    variant = load_ruleset_file(tmp_path / "shanghai-classic.yaml")
    cap = _covers(variant, won, ("boundary", "cap", "at"))
    assert {"scoring.le_zi_cap", "scoring.limit"} <= cap and "scoring.cap" not in cap
    assert "scoring.hand_cap" in _covers(variant, won, ("boundary", "single_hand_limit", "at"))
