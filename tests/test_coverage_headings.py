"""Headings are declared, not guessed (issue: rules bound by role, item 8): `spec coverage` used to skip every short
unpunctuated line as a heading, so deleting s-001-087, the statement tracing classic's 底分+花分=输赢分数 (a rule of
settlement written as a heading-like line), went unnoticed. Now only the lines a spec lists under `headings` are
skipped; every other clause must be traced."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from checker.coverage import coverage
from checker.spec import load_ruleset_file, ruleset_path

DOCS = Path(__file__).resolve().parents[2] / "shared" / "seeds"


def _classic(tmp_path, edit) -> list:
    data = yaml.safe_load(ruleset_path("shanghai-classic").read_text(encoding="utf-8"))
    edit(data)
    path = tmp_path / "shanghai-classic.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return coverage(load_ruleset_file(path), DOCS)


@pytest.fixture(autouse=True)
def _documents():
    if not DOCS.is_dir():
        pytest.skip("the source documents are not beside the checkout")


def test_the_shipped_classic_spec_traces_every_clause_and_declares_its_headings(tmp_path):
    (cov,) = _classic(tmp_path, lambda d: None)
    assert not cov.problems() and not cov.untraced and not cov.headings_not_found


def test_deleting_the_statement_of_a_heading_like_rule_leaves_its_line_untraced(tmp_path):
    def drop(d):
        d["statements"] = [s for s in d["statements"] if s["id"] != "s-001-087"]

    (cov,) = _classic(tmp_path, drop)
    assert cov.untraced == ["底分+花分=输赢分数"] and cov.problems()


def test_a_heading_left_undeclared_is_an_untraced_clause_and_a_declared_one_must_be_a_heading(tmp_path):
    def edit(d):
        doc = next(iter(d["headings"]))
        d["headings"][doc] = [h for h in d["headings"][doc] if h != "承包"] + ["玩家一局最多只输5个勒子", "不在文中"]

    (cov,) = _classic(tmp_path, edit)
    assert cov.untraced == ["承包"]
    # a line with punctuation is no heading, and a line not in the document is none either
    assert cov.headings_not_found == ["玩家一局最多只输5个勒子", "不在文中"] and cov.problems()
