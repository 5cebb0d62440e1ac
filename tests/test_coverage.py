"""`mjcheck spec coverage`: statements per document, reasons, unnamed rule ids, unquoted sentences."""
from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from checker.cli import app
from checker.coverage import coverage, sentences
from checker.engine import load_ruleset

runner = CliRunner()
KNOCKING_DOC = "000_10956719290e0934.txt"


def test_sentences_split_at_sentence_ends_and_leave_out_headings():
    text = "Rules\nThe tiles\n144 tiles, four copies each. Dealer draws 14!\n庄家：\n谁胡牌下盘当庄家。若流局则继续。\n| x |\n"
    assert sentences(text) == ["144 tiles, four copies each.", "Dealer draws 14!", "庄家：", "谁胡牌下盘当庄家。",
                               "若流局则继续。"]


def test_coverage_counts_statements_and_finds_unquoted_sentences_and_lost_phrases(tmp_path):
    ruleset = load_ruleset("shanghai-knocking")
    st = ruleset.statements[0]
    # A document holding one quoted sentence (the first statement's phrase), one sentence no one quotes.
    (tmp_path / KNOCKING_DOC).write_text(f"{st.phrase}.\nA sentence nobody wrote a statement for.\n",
                                         encoding="utf-8")
    (cov,) = coverage(ruleset, tmp_path)
    assert cov.statements == len(ruleset.statements) == cov.modeled + sum(cov.not_modeled.values())
    assert cov.document_found and cov.unquoted == ["A sentence nobody wrote a statement for."]
    assert st.id not in cov.phrases_not_found and ruleset.statements[1].id in cov.phrases_not_found


def test_coverage_command_json_and_missing_documents(tmp_path):
    r = runner.invoke(app, ["spec", "coverage", "shanghai-knocking", "--documents", str(tmp_path), "--json"])
    (row,) = json.loads(r.output)
    assert row["doc"] == KNOCKING_DOC and row["document_found"] is False and row["statements"] > 0
    r = runner.invoke(app, ["spec", "coverage", "--documents", str(tmp_path / "nope")])
    assert r.exit_code == 2 and "not a folder" in r.output


SEEDS = Path(__file__).resolve().parents[2] / "shared" / "seeds"


def test_the_checked_in_fidelity_table_is_current():
    if not SEEDS.is_dir():
        import pytest
        pytest.skip("source documents not beside this checkout")
    r = runner.invoke(app, ["spec", "coverage", "--markdown", "--documents", str(SEEDS)])
    table = (Path(__file__).resolve().parents[1] / "docs" / "fidelity.md").read_text(encoding="utf-8")
    assert r.output == table, "docs/fidelity.md is stale: mjcheck spec coverage --markdown > docs/fidelity.md"


def test_every_sentence_of_the_three_documents_is_traced():
    # Every sentence quoted by the spec, every phrase found in its document, every not-modeled statement with
    # its reason: the command exits 0.
    if not SEEDS.is_dir():
        import pytest
        pytest.skip("source documents not beside this checkout")
    r = runner.invoke(app, ["spec", "coverage", "--documents", str(SEEDS), "--json"])
    rows = json.loads(r.output)
    assert r.exit_code == 0 and {row["ruleset"] for row in rows} == {"mcr", "shanghai-knocking", "shanghai-classic"}
    assert all(not row["unquoted_sentences"] and not row["phrases_not_found"] and "none" not in row["not_modeled"]
               for row in rows)
