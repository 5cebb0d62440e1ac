"""An interrupt (Ctrl-C, or SIGTERM through the command line) at any moment of a conformance run: while the engine
runs the cases, or while each part of the reports is made. Whatever the moment, results.jsonl reads back whole,
summary.json is marked partial with counts that add up to the corpus, and every other report is either whole
and marked partial or absent and named in the summary (never stale, never half written)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from checker.case import CaseRunner
from checker.cli import app
from checker.conform import run_conformance
from checker.conform.adapters import EngineInfo, InProcessEngine
from checker.conform.results import read_results_file

ROOT = Path(__file__).resolve().parents[1]
MCR_EXAMPLES = ROOT / "corpus" / "mcr-examples.jsonl"
CASES = sum(1 for line in MCR_EXAMPLES.read_text(encoding="utf-8").splitlines() if line.strip())
REPORTS = ("report.md", "report.html", "junit.xml")


def engine(interrupt_at: int | None = None) -> InProcessEngine:
    """The reference engine with every answer's total one more (so every case fails and the reports have a
    class to search), interrupted (KeyboardInterrupt) on the `interrupt_at`-th case."""
    runner = CaseRunner()
    seen = {"n": 0}

    def score(case):
        seen["n"] += 1
        if interrupt_at is not None and seen["n"] == interrupt_at:
            raise KeyboardInterrupt
        result = dict(runner.run(case))
        if isinstance(result.get("total"), int):
            result["total"] += 1
        return result
    return InProcessEngine(score, EngineInfo("off by one", "1"))


def interrupted_once(original):
    """`original`, whose first call is interrupted (one Ctrl-C); later calls run it."""
    calls = {"n": 0}

    def step(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 1:
            raise KeyboardInterrupt
        return original(*args, **kwargs)
    return step


def check_consistent(out: Path) -> dict:
    read = read_results_file(str(out / "results.jsonl"))
    assert read.damaged == 0 and read.run is not None
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    counts = summary["counts"]
    assert summary["partial"] is True
    assert sum(counts[k] for k in ("passed", "failed", "errored", "skipped", "missing")) == counts["total"] == CASES
    assert counts["passed"] + counts["failed"] + counts["errored"] + counts["skipped"] == len(read.results)
    return summary


# where the reports are made: each step replaced by one that is interrupted
REPORT_STEPS = [
    ("profile", "checker.conform.report.infer_profile"),
    ("cause search", "checker.conform.report.diagnose"),
    ("report.md", "checker.conform.report.markdown"),
    ("report.html", "checker.conform.html.html_report"),
    ("junit.xml", "checker.conform.junit.junit_xml"),
]


@pytest.mark.parametrize("step, target", REPORT_STEPS, ids=[s for s, _ in REPORT_STEPS])
def test_an_interrupt_while_the_reports_are_made_leaves_the_summary_and_says_what_is_missing(tmp_path, monkeypatch,
                                                                                            step, target):
    out = tmp_path / "out"
    out.mkdir()
    for name in REPORTS:  # an earlier run's reports: none may be left beside the new results
        (out / name).write_text("stale", encoding="utf-8")
    module, name = target.rsplit(".", 1)
    monkeypatch.setattr(target, interrupted_once(getattr(__import__(module, fromlist=[name]), name)))
    run = run_conformance(str(MCR_EXAMPLES), engine(), str(out))
    summary = check_consistent(out)
    # every case ran: a winning hand's answer has its total one more (failed), a refusal's is right (passed)
    assert summary["counts"]["missing"] == 0 and summary["counts"]["failed"] > 0
    assert summary["interrupted_reports"] == list(REPORTS)
    assert not any((out / name).exists() for name in REPORTS)
    assert summary["profile"] == {} and all(c["cause"]["verdict"] == "not searched" for c in summary["classes"])
    assert run.status == 1 and run.partial


def test_an_interrupt_while_the_engine_runs_writes_every_report_marked_partial(tmp_path):
    out = tmp_path / "out"
    run_conformance(str(MCR_EXAMPLES), engine(interrupt_at=4), str(out))
    summary = check_consistent(out)
    assert summary["counts"]["missing"] == CASES - 3  # the first three cases ran
    assert "interrupted_reports" not in summary
    assert "partial" in (out / "report.md").read_text(encoding="utf-8").lower()
    assert "Partial report" in (out / "report.html").read_text(encoding="utf-8")
    assert 'name="partial" value="true"' in (out / "junit.xml").read_text(encoding="utf-8")


def test_the_command_says_which_reports_were_not_written_and_report_writes_them(tmp_path, monkeypatch):
    import checker.conform.html

    monkeypatch.setattr("checker.conform.html.html_report", interrupted_once(checker.conform.html.html_report))
    out = tmp_path / "out"
    monkeypatch.setattr("checker.conform.engine_from_spec", lambda *a, **k: engine())
    r = CliRunner().invoke(app, ["conform", "--corpus", str(MCR_EXAMPLES), "--engine", "reference",
                                 "--out", str(out)])
    assert r.exit_code == 1, r.output
    assert "interrupted while the reports were written" in r.output
    assert "not written: report.md, report.html, junit.xml" in r.output
    monkeypatch.undo()
    r = CliRunner().invoke(app, ["report", str(out)])
    assert r.exit_code == 0, r.output  # the reports were written
    assert all((out / name).exists() for name in REPORTS)
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["partial"] is False and summary["counts"]["missing"] == 0  # the run itself was whole
