"""Output the tool cannot write, or an earlier file it cannot read, is refused before the search that would fill
it: `mjcheck hunt --out DIR` and `mjcheck corpus generate --out FILE` refuse at once (exit 2, the file named),
not after spending their budget."""
from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from checker.cli import app

runner = CliRunner()


def invoke(*args: str):
    started = time.monotonic()
    result = runner.invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    return result, time.monotonic() - started


@pytest.fixture
def no_search(monkeypatch):
    """The hunt's and the generator's searches, made to fail the test if they start."""
    import checker.corpus.generate as generate
    import checker.corpus.procedure as procedure
    import checker.hunt.run as run

    def searched(*args, **kwargs):
        raise AssertionError("the search started before the output was checked")

    monkeypatch.setattr(run, "targets", searched)
    monkeypatch.setattr(generate, "generate", searched)
    monkeypatch.setattr(procedure, "generate_procedure", searched)


# ----------------------------------------------------------------------------- hunt --out DIR

def _fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


FINDINGS = "findings-shanghai-knocking.json"
EARLIER = {  # what --out may hold where the hunt reads or writes: each refused, naming the file
    "not JSON": (FINDINGS, lambda p: p.write_text('{"findings": [', encoding="utf-8")),
    "not a findings file": (FINDINGS, lambda p: p.write_text('{"results": []}', encoding="utf-8")),
    "a finding without its fields": (FINDINGS, lambda p: p.write_text(
        json.dumps({"findings": [{"id": "shanghai-knocking-0001", "key": "option.x"}]}), encoding="utf-8")),
    "a finding of an unknown kind": (FINDINGS, lambda p: p.write_text(json.dumps({"findings": [{
        "id": "shanghai-knocking-0001", "key": "k", "ruleset": "shanghai-knocking", "kind": "rumour", "title": "t",
        "rules": [], "statements": [], "witness": {}, "outcomes": [], "method": "z3", "deciding_option": None,
        "note": ""}]}), encoding="utf-8")),
    "not UTF-8": (FINDINGS, lambda p: p.write_bytes(b'{"findings": ["\xff"]}')),
    "a named pipe": (FINDINGS, _fifo),
    "a folder": (FINDINGS, lambda p: p.mkdir()),
    "a named pipe where the page goes": ("findings-shanghai-knocking.md", _fifo),
    "a folder where the witnesses go": ("witnesses-shanghai-knocking.json", lambda p: p.mkdir()),
}


@pytest.mark.parametrize("what", list(EARLIER))
def test_hunt_refuses_an_out_file_it_cannot_use_before_searching(what, tmp_path, no_search):
    name, make = EARLIER[what]
    make(tmp_path / name)
    r, took = invoke("hunt", "--ruleset", "shanghai-knocking", "--budget", "600", "--seed", "1",
                     "--out", str(tmp_path))
    assert r.exit_code == 2, r.output
    assert name in r.output and took < 30


def test_hunt_all_checks_every_rulesets_files_before_any_search(tmp_path, no_search):
    (tmp_path / "findings-shanghai-knocking.json").write_text("[]", encoding="utf-8")
    r, _ = invoke("hunt", "--ruleset", "all", "--budget", "600", "--seed", "1", "--out", str(tmp_path))
    assert r.exit_code == 2 and "findings-shanghai-knocking.json" in r.output


def test_hunt_out_that_is_a_file_is_refused(tmp_path, no_search):
    plain = tmp_path / "plain"
    plain.write_text("x", encoding="utf-8")
    r, _ = invoke("hunt", "--ruleset", "mcr", "--seed", "1", "--out", str(plain))
    assert r.exit_code == 2 and "plain" in r.output


@pytest.mark.parametrize("ruleset", ["mcr", "shanghai-classic", "shanghai-knocking"])
def test_the_check_passes_the_findings_files_the_hunt_wrote(ruleset, tmp_path):
    # the checked-in reports are findings files the hunt wrote (the largest, some 170 KB): the check reads
    # each whole, every finding kept by its key, as the hunt merges them
    from checker.hunt.run import check_out

    written = Path(__file__).resolve().parents[1] / "reports" / "findings" / f"findings-{ruleset}.json"
    (tmp_path / written.name).write_bytes(written.read_bytes())
    earlier = check_out(tmp_path, [ruleset])
    keys = {f["key"] for f in json.loads(written.read_text(encoding="utf-8"))["findings"]}
    assert set(earlier[ruleset]) == keys and keys
    assert sorted(p.name for p in tmp_path.iterdir()) == [written.name]  # nothing left behind by the check


# ----------------------------------------------------------------------------- corpus generate --out FILE

UNWRITABLE = {
    "a folder that takes no files": lambda tmp: "/proc/self/x.jsonl",
    "a named pipe": lambda tmp: str(_fifo(tmp / "pipe.jsonl")),
    "a device": lambda tmp: "/dev/null",
    "a folder": lambda tmp: str(tmp),
    "no such folder": lambda tmp: str(tmp / "missing" / "x.jsonl"),
    "below a file": lambda tmp: (tmp / "file").write_text("x") and str(tmp / "file" / "x.jsonl"),
    "a folder where the file is written aside": lambda tmp: (tmp / "x.jsonl.partial").mkdir() or str(tmp / "x.jsonl"),
}


@pytest.mark.parametrize("kind", ["score", "procedure"])
@pytest.mark.parametrize("what", list(UNWRITABLE))
def test_corpus_generate_refuses_an_out_it_cannot_write_before_generating(what, kind, tmp_path, no_search):
    target = UNWRITABLE[what](tmp_path)
    r, took = invoke("corpus", "generate", "--ruleset", "shanghai-knocking", "--seed", "1", "--kind", kind,
                     "--out", target)
    assert r.exit_code == 2, r.output
    assert "--out" in r.output and Path(target).name in r.output and took < 30
    assert not Path("/proc/self/x.jsonl").exists()


def test_corpus_generate_writes_where_it_may(tmp_path):
    target = tmp_path / "knocking.jsonl"
    r, _ = invoke("corpus", "generate", "--ruleset", "shanghai-knocking", "--seed", "1", "--size", "0",
                  "--out", str(target))
    assert r.exit_code in (0, 1), r.output
    assert target.read_text(encoding="utf-8").count("\n") > 10
    assert sorted(p.name for p in tmp_path.iterdir()) == ["knocking.jsonl"]  # no probe or partial file left
