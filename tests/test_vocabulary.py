"""The vocabulary an engine author is pointed to (checker/vocabulary.py, `mjcheck rulesets --patterns`,
docs/vocabulary.md): every pattern id with its names, and every rule id an answer that may not win may name."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from checker.cli import app
from checker.spec import load_ruleset
from checker.vocabulary import DOC, markdown, refusals, shipped, vocabulary

ROOT = Path(__file__).resolve().parents[1]


def test_the_docs_page_is_the_vocabulary_of_the_shipped_specs():
    # made by `python -m checker.vocabulary --write`; a spec change that moves it fails here until it is remade
    assert (ROOT / DOC).read_text(encoding="utf-8") == markdown(shipped())


@pytest.mark.parametrize("ruleset_id", ["mcr", "shanghai-classic", "shanghai-knocking"])
def test_every_refusal_the_shipped_corpora_expect_is_in_the_vocabulary(ruleset_id):
    rs = load_ruleset(ruleset_id)
    named = refusals(rs)
    expected = set()
    for path in ROOT.glob(f"corpus/{ruleset_id}*.jsonl"):
        for line in path.read_text(encoding="utf-8").splitlines():
            case = json.loads(line)
            if case.get("kind", "score") == "score" and case["expect"].get("error"):
                expected.add(case["expect"]["error"])
    assert expected and sorted(expected - set(named)) == []
    v = vocabulary(rs)
    assert [p["id"] for p in v["patterns"]] == [p.id for p in rs.patterns]
    assert all(p["en"] and p["zh"] for p in v["patterns"])


def test_the_command_prints_a_rulesets_vocabulary():
    r = CliRunner().invoke(app, ["rulesets", "mcr", "--patterns", "--json"])
    assert r.exit_code == 0, r.output
    (mcr,) = json.loads(r.output)
    flush = next(p for p in mcr["patterns"] if p["id"] == "full_flush")
    assert (flush["en"], flush["zh"], flush["points"]) == ("Full flush", "清一色", 24)  # the guide's table: 24
    assert mcr["refusals"]["win.minimum_points"] == "fewer than 8 points (before flower_tiles)"
    r = CliRunner().invoke(app, ["rulesets", "shanghai-classic", "--patterns"])
    assert r.exit_code == 0 and "| `qing_yi_se` | Full flush | 清一色 | direct | 1 |" in r.output
    r = CliRunner().invoke(app, ["rulesets", "nope", "--patterns"])
    assert r.exit_code == 2 and "unknown ruleset 'nope'" in r.output
