"""A ruleset of one's own given on the command line (`--ruleset-file`) is known by its id to the whole run: the
reference engine, diagnosis's re-scoring and its reading of fan names, the reports, `mjcheck report` rebuilding
them, `--resume`, and the commands the reports print. (Before, a failing case of such a ruleset ended the run in
a traceback: diagnosis looked the ruleset up among the shipped ones.)

The ruleset is the shipped knocking spec under another id (`knock-club`), its corpus the shipped knocking corpus
with every case renamed to it; the planted engine is the reference under that spec with the case's flowers
dropped before scoring. Its one cause is written here by hand: the flowers are ignored (`flowers-ignored`).
"""
from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from checker.cli import app

ROOT = Path(__file__).resolve().parents[1]
KNOCKING = ROOT / "corpus" / "shanghai-knocking.jsonl"
cli = CliRunner()

ENGINE = '''
from checker.case import CaseRunner
from checker.spec import load_ruleset_file

def _runner(ruleset_id, path):
    return CaseRunner({ruleset_id: load_ruleset_file(path)})

RUNNERS = {"knock-club": _runner("knock-club", SPEC), "shanghai-knocking": CaseRunner()}

def flowers_ignored(case):
    """The reference, but the case's flowers are never read."""
    case = {**case, "input": {**case["input"], "flowers": ""}}
    return RUNNERS[case["ruleset"]].run(case)
'''


@pytest.fixture
def club(tmp_path, monkeypatch):
    """(spec file, corpus of it, engine module name)."""
    spec = tmp_path / "knock-club.yaml"
    text = (ROOT / "spec" / "shanghai-knocking.yaml").read_text(encoding="utf-8")
    assert "\nid: shanghai-knocking\n" in text
    spec.write_text(text.replace("\nid: shanghai-knocking\n", "\nid: knock-club\n"), encoding="utf-8")
    corpus = tmp_path / "club.jsonl"
    lines = []
    for line in KNOCKING.read_text(encoding="utf-8").splitlines():
        case = json.loads(line)
        lines.append(json.dumps({**case, "ruleset": "knock-club"}, ensure_ascii=False))
    corpus.write_text("\n".join(lines) + "\n", encoding="utf-8")
    (tmp_path / "club_engine_mod.py").write_text(f"SPEC = {str(spec)!r}\n" + ENGINE, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield spec, corpus, "club_engine_mod"
    sys.modules.pop("club_engine_mod", None)


def _summary(out: Path) -> dict:
    return json.loads((out / "summary.json").read_text(encoding="utf-8"))


def _causes(summary: dict) -> set[str]:
    found = set()
    for c in summary["classes"]:
        cause = c["cause"]
        assert cause.get("explained_by"), f"unexplained: {c['signature']} ({cause})"
        assert cause["unexplained"] == 0, c
        found.update(part for e in cause["explained_by"] for part in e["id"].split(" + "))
    return found


def test_a_given_ruleset_is_diagnosed_as_a_shipped_one_is(tmp_path, club):
    spec, corpus, engine = club
    out = tmp_path / "out"
    r = cli.invoke(app, ["conform", "--corpus", str(corpus), "--engine", f"python:{engine}:flowers_ignored",
                         "--ruleset-file", str(spec), "--out", str(out)])
    assert r.exit_code == 1, r.output  # cases failed: the planted departure shows
    assert "Traceback" not in r.output
    summary = _summary(out)
    assert summary["classes"] and all(c["ruleset"] == "knock-club" for c in summary["classes"])
    assert _causes(summary) == {"flowers-ignored"}  # the planted cause, and nothing else
    # the run records the file it was given, and every command the reports print gives it again
    digest = hashlib.sha256(spec.read_bytes()).hexdigest()
    assert summary["ruleset_files"] == [{"id": "knock-club", "path": str(spec.resolve()), "sha256": digest}]
    for c in summary["classes"]:
        assert c["witness"]["reproduce"].endswith(f"--ruleset-file {spec.resolve()}")
        assert f"--ruleset-file {spec.resolve()} " in c["reproduce_engine"]

    # the same engine on the shipped ruleset: the same classes, by signature and size
    shipped = tmp_path / "shipped"
    r = cli.invoke(app, ["conform", "--corpus", str(KNOCKING), "--engine", f"python:{engine}:flowers_ignored",
                         "--out", str(shipped)])
    assert r.exit_code == 1, r.output
    assert [(c["signature"], c["count"]) for c in _summary(shipped)["classes"]] == \
        [(c["signature"], c["count"]) for c in summary["classes"]]


def test_report_rebuilds_from_the_recorded_file_and_refuses_one_gone_or_changed(tmp_path, club):
    spec, corpus, engine = club
    out = tmp_path / "out"
    r = cli.invoke(app, ["conform", "--corpus", str(corpus), "--engine", f"python:{engine}:flowers_ignored",
                         "--ruleset-file", str(spec), "--out", str(out)])
    assert r.exit_code == 1, r.output
    written = {name: (out / name).read_bytes() for name in ("summary.json", "report.md", "report.html", "junit.xml")}
    r = cli.invoke(app, ["report", str(out)])
    assert r.exit_code == 0, r.output
    assert {name: (out / name).read_bytes() for name in written} == written  # the same results: the same bytes

    moved = tmp_path / "elsewhere.yaml"
    spec.rename(moved)
    r = cli.invoke(app, ["report", str(out)])
    assert r.exit_code == 2 and "--ruleset-file" in r.output and "knock-club" in r.output, r.output
    r = cli.invoke(app, ["report", str(out), "--ruleset-file", str(moved)])
    assert r.exit_code == 0, r.output
    assert _summary(out)["ruleset_files"][0]["path"] == str(moved.resolve())

    spec.write_bytes(moved.read_bytes() + b"\n# edited since the run\n")
    moved.unlink()
    r = cli.invoke(app, ["report", str(out)])  # the summary now names `moved`, which is gone
    assert r.exit_code == 2, r.output


def test_resume_refuses_a_run_under_another_spec_file(tmp_path, club):
    spec, corpus, engine = club
    out = tmp_path / "out"
    args = ["conform", "--corpus", str(corpus), "--engine", f"python:{engine}:flowers_ignored",
            "--ruleset-file", str(spec), "--out", str(out)]
    assert cli.invoke(app, args).exit_code == 1
    spec.write_text(spec.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    r = cli.invoke(app, args + ["--resume"])
    assert r.exit_code == 2 and "other spec files" in r.output, r.output
