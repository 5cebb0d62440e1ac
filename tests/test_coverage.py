"""`mjcheck spec coverage`: statements per document, reasons, unnamed rule ids, clauses no statement traces."""
from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from checker.cli import app
import dataclasses

from checker.coverage import clause_line, coverage, sentences
from checker.engine import load_ruleset

runner = CliRunner()
KNOCKING_DOC = "000_10956719290e0934.txt"
SEEDS = Path(__file__).resolve().parents[2] / "shared" / "seeds"


def test_sentences_split_at_sentence_ends_and_leave_out_headings():
    text = "Rules\nThe tiles\n144 tiles, four copies each. Dealer draws 14!\n庄家：\n谁胡牌下盘当庄家。若流局则继续。\n| x |\n"
    assert sentences(text) == ["144 tiles, four copies each.", "Dealer draws 14!", "庄家：", "谁胡牌下盘当庄家。",
                               "若流局则继续。"]


def test_a_line_is_cut_into_clauses_at_its_punctuation_with_its_list_marker_set_aside():
    text, spans = clause_line("- 13 tiles, 14 to win; dealer at 2.5 odds: no.")
    assert text == "13 tiles, 14 to win; dealer at 2.5 odds: no."
    assert [text[a:b] for a, b in spans] == ["13 tiles", "14 to win", "dealer at 2.5 odds", "no"]
    text, spans = clause_line("1、抓满8朵花即可马上胡牌。此牌型叫做八花齐。")
    assert [text[a:b] for a, b in spans] == ["抓满8朵花即可马上胡牌", "此牌型叫做八花齐"]


def _with_statements(ruleset, *phrases):
    """The ruleset with its statements replaced by modeled ones quoting `phrases` (ids t-1, t-2, …)."""
    first = ruleset.statements[0]
    return dataclasses.replace(ruleset, statements=tuple(
        dataclasses.replace(first, id=f"t-{i + 1}", phrase=p) for i, p in enumerate(phrases)))


def test_coverage_traces_whole_clauses_each_by_a_statement_of_its_own(tmp_path):
    ruleset = load_ruleset("shanghai-knocking")
    (tmp_path / KNOCKING_DOC).write_text(
        "Rules\nChow upstream only, pong and kong standard.\nKnock to win; a knock locks the hand.\n"
        "A sentence nobody wrote a statement for.\n", encoding="utf-8")
    rs = _with_statements(ruleset, "Chow upstream only, pong and kong standard.",  # the whole line: whole
                          "Knock to win",  # one clause: whole
                          "a knock locks",  # a fragment of a clause: not whole
                          "pong and kong standard",  # a clause t-1 traces too: shadowed
                          "Not in the document")
    (cov,) = coverage(rs, tmp_path)
    assert cov.document_found and cov.statements == 5
    assert cov.phrases_not_found == ["t-5"] and cov.phrases_not_whole == ["t-3"] and cov.shadowed == ["t-4"]
    # the heading needs no statement; the fragment traces nothing
    assert cov.untraced == ["a knock locks the hand", "A sentence nobody wrote a statement for"]
    assert cov.problems()


def test_deleting_any_statement_of_the_knocking_spec_leaves_a_clause_untraced():
    # each statement is the only one tracing some clause, so the check notices every deletion (the old check,
    # any phrase inside a sentence, noticed 2 of 6)
    if not SEEDS.is_dir():
        import pytest
        pytest.skip("source documents not beside this checkout")
    ruleset = load_ruleset("shanghai-knocking")
    (whole,) = coverage(ruleset, SEEDS)
    assert not whole.problems()
    for gone in ruleset.statements:
        rs = dataclasses.replace(ruleset, statements=tuple(st for st in ruleset.statements if st is not gone))
        (cov,) = coverage(rs, SEEDS)
        assert cov.untraced, gone.id


def test_coverage_command_json_and_missing_documents(tmp_path):
    r = runner.invoke(app, ["spec", "coverage", "shanghai-knocking", "--documents", str(tmp_path), "--json"])
    (row,) = json.loads(r.stdout)
    assert row["doc"] == KNOCKING_DOC and row["document_found"] is False and row["statements"] > 0
    # the sentences were not checked: not a pass (exit 3), said with the document and the folder
    assert r.exit_code == 3 and KNOCKING_DOC in r.stderr and "not checked" in r.stderr
    r = runner.invoke(app, ["spec", "coverage", "--documents", str(tmp_path / "nope")])
    assert r.exit_code == 2 and "not a folder" in r.output


def test_the_checked_in_fidelity_table_is_current():
    if not SEEDS.is_dir():
        import pytest
        pytest.skip("source documents not beside this checkout")
    r = runner.invoke(app, ["spec", "coverage", "--markdown", "--documents", str(SEEDS)])
    table = (Path(__file__).resolve().parents[1] / "docs" / "fidelity.md").read_text(encoding="utf-8")
    assert r.output == table, "docs/fidelity.md is stale: mjcheck spec coverage --markdown > docs/fidelity.md"


def test_every_clause_of_the_three_documents_is_traced():
    # Every clause traced by a statement of its own quoting it whole, every not-modeled statement with its
    # reason: the command exits 0.
    if not SEEDS.is_dir():
        import pytest
        pytest.skip("source documents not beside this checkout")
    r = runner.invoke(app, ["spec", "coverage", "--documents", str(SEEDS), "--json"])
    rows = json.loads(r.output)
    assert r.exit_code == 0 and {row["ruleset"] for row in rows} == {"mcr", "shanghai-knocking", "shanghai-classic"}
    assert all(not row["untraced_clauses"] and not row["phrases_not_found"] and not row["phrases_not_whole"]
               and not row["shadowed_statements"] and "none" not in row["not_modeled"] for row in rows)


def test_a_source_locator_whose_section_does_not_hold_its_phrase_is_named():
    """计分规则：1个勒子=10个花。 stands in 计分方式 (seed 001): cited under 游戏简介, whose lines end where the next
    section any locator names begins, it is named with the section that holds it; every locator of the three
    shipped specs names the innermost section holding its phrase (a heading cited as its own phrase included)."""
    from checker.spec import Locator

    if not SEEDS.is_dir():
        import pytest
        pytest.skip("source documents not beside this checkout")
    ruleset = load_ruleset("shanghai-classic")
    doc = "001_83aec190f966708c.txt"
    wrong = Locator(doc, "游戏简介", "计分规则：1个勒子=10个花。")
    moved = dataclasses.replace(ruleset, cited=(*ruleset.cited, wrong))
    (row,) = [r for r in coverage(moved, SEEDS) if r.doc == doc]
    assert row.sections_wrong == ["section '游戏简介' does not hold '计分规则：1个勒子=10个花。' (the section before "
                                  "it: '计分方式')"]
    assert row.problems()
    for rid in ("mcr", "shanghai-knocking", "shanghai-classic"):
        assert all(not r.sections_wrong for r in coverage(load_ruleset(rid), SEEDS)), rid
