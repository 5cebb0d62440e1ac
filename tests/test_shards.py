"""`mjcheck conform --jobs N`: a corpus run in forked processes writes what a run in one process writes.

The expectations are the one-process run's own results (the runner's behaviour, not a score, is under test)
and the example corpora's cited expectations (corpus/*-examples.jsonl).
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from checker.conform import engine_from_spec, run_conformance
from checker.conform.results import read_results
from checker.conform.shards import PART_PREFIX, RangeReader, can_fork, cut

ROOT = Path(__file__).resolve().parents[1]
MCR = ROOT / "corpus" / "mcr-examples.jsonl"
SHANGHAI = ROOT / "corpus" / "shanghai-examples.jsonl"

pytestmark = pytest.mark.skipif(not can_fork(), reason="shards are forked processes (Linux)")


@settings(max_examples=300, deadline=None)
@given(lengths=st.lists(st.sampled_from([0, 1, 2, 7, 40, 70_000]), max_size=25), final_newline=st.booleans(),
       jobs=st.integers(1, 6))
def test_the_corpus_is_cut_into_whole_lines_that_cover_it(tmp_path_factory, lengths, final_newline, jobs):
    data = b"\n".join(b"x" * n for n in lengths) + (b"\n" if final_newline and lengths else b"")
    path = tmp_path_factory.mktemp("cut") / "corpus.jsonl"
    path.write_bytes(data)
    shards = cut(str(path), jobs)
    assert 1 <= len(shards) <= jobs
    assert shards[0].start == 0 and shards[-1].end == len(data)
    read = []
    for before, shard in zip([None] + shards, shards):
        assert before is None or before.end == shard.start
        assert shard.start == 0 or data[shard.start - 1:shard.start] == b"\n"  # a line's start
        assert shard.first_line == data[:shard.start].count(b"\n")
        with open(path, "rb") as stream:
            reader = RangeReader(stream, shard.start, shard.end)
            while line := reader.readline(1000):
                read.append(line)
    assert b"".join(read) == data


def mixed_corpus(tmp_path: Path) -> Path:
    """Both example corpora with what a run records beside cases: a blank line, a comment, a line that is not
    JSON, a case without `expect` (skipped)."""
    mcr = MCR.read_text(encoding="utf-8").splitlines()
    shanghai = SHANGHAI.read_text(encoding="utf-8").splitlines()
    no_expect = json.loads(mcr[0])
    del no_expect["expect"]
    no_expect["id"] = "no-expect"
    lines = mcr[:5] + ["", "# a comment", "{not json"] + shanghai + [json.dumps(no_expect)] + mcr[5:]
    path = tmp_path / "mixed.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def untimed(path: Path) -> list[dict]:
    """A results file's lines without what varies from run to run: the engine's time on each case (`seconds`)
    and so each line's checksum (read_results checks those)."""
    return [{k: v for k, v in json.loads(line).items() if k not in ("seconds", "sum")}
            for line in path.read_text(encoding="utf-8").splitlines()]


def run(corpus: Path, out: Path, jobs: int, engine: str = "reference", resume: bool = False):
    starts, outcomes = [], []
    done = run_conformance(str(corpus), engine_from_spec(engine), str(out), jobs=jobs, resume=resume,
                           on_start=starts.append, on_result=outcomes.append)
    return done, starts, outcomes


def test_a_run_in_shards_writes_what_a_run_in_one_process_writes(tmp_path):
    corpus = mixed_corpus(tmp_path)
    one, starts, outcomes = run(corpus, tmp_path / "one", 1)
    expected = untimed(tmp_path / "one" / "results.jsonl")
    assert one.summary["counts"]["skipped"] == 2 and one.status == 2  # the non-JSON line is bad input
    for jobs in (2, 3):
        out = tmp_path / f"jobs{jobs}"
        got, starts, outcomes = run(corpus, out, jobs)
        # the same file: each part streams its lines in the corpus's order, as one process streams them all
        assert untimed(out / "results.jsonl") == expected
        assert got.summary["counts"] == one.summary["counts"] and got.status == one.status
        assert not [p for p in os.listdir(out) if p.startswith(PART_PREFIX)]
        assert starts[-1] == one.summary["counts"]["total"]  # every line but the blank one and the comment
        assert sorted(outcomes) == sorted(r.outcome for r in read_results(str(out / "results.jsonl")))


ENGINES = '''
import os
import sys

STOP = None

def stops(case):
    if case["id"] == STOP:
        raise KeyboardInterrupt
    return case["expect"]

def exits(case):
    if case["id"] == STOP:
        os._exit(3)
    return case["expect"]

SLOW_DONE = 0


def slow(case):
    """20 ms a case; past its tenth case a process waits for the gate file SLOW_GATE names, if any (so a run
    can never end before the test lets it, however the machine is loaded)."""
    import os
    import time
    global SLOW_DONE
    SLOW_DONE += 1
    gate = os.environ.get("SLOW_GATE")
    while gate and SLOW_DONE > 10 and not os.path.exists(gate):
        time.sleep(0.01)
    time.sleep(0.02)
    return case["expect"]
'''


@pytest.fixture
def engines(tmp_path, monkeypatch):
    (tmp_path / "shard_engines_mod.py").write_text(ENGINES, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    import shard_engines_mod

    yield shard_engines_mod
    sys.modules.pop("shard_engines_mod", None)


def late_case_id(corpus: Path) -> str:
    """A case of the corpus's last quarter: in the last shard of a run in two."""
    lines = [json.loads(line) for line in corpus.read_text(encoding="utf-8").splitlines() if line.strip()]
    return lines[len(lines) * 3 // 4]["id"]


def test_an_interrupted_shard_keeps_its_finished_results_and_resume_completes_the_run(tmp_path, engines):
    engines.STOP = late_case_id(MCR)
    out = tmp_path / "out"
    cut_short, _, _ = run(MCR, out, 2, "python:shard_engines_mod:stops")
    assert cut_short.partial and cut_short.status == 1
    first = read_results(str(out / "results.jsonl"))
    assert first and all(r.outcome == "passed" for r in first) and engines.STOP not in {r.id for r in first}
    assert (out / "results.jsonl").read_bytes().endswith(b"\n")
    engines.STOP = None
    resumed, _, _ = run(MCR, out, 2, "python:shard_engines_mod:stops", resume=True)
    assert not resumed.partial and resumed.status == 0
    lines = [json.loads(line) for line in MCR.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert resumed.summary["counts"]["passed"] == len(lines)
    assert sorted(r.id for r in read_results(str(out / "results.jsonl"))) == sorted(c["id"] for c in lines)


def test_a_shard_that_fails_leaves_a_partial_run_with_what_the_shards_finished(tmp_path, engines, capfd):
    engines.STOP = late_case_id(MCR)  # os._exit in the engine: its process ends, no error the runner can catch
    got, _, _ = run(MCR, tmp_path / "out", 2, "python:shard_engines_mod:exits")
    assert got.partial and got.status == 1
    assert "ended with status 3" in capfd.readouterr().err
    assert got.summary["counts"]["missing"] > 0
    ids = {r.id for r in read_results(str(tmp_path / "out" / "results.jsonl"))}
    first = json.loads(MCR.read_text(encoding="utf-8").splitlines()[0])["id"]
    assert first in ids and engines.STOP not in ids  # the first shard finished; the failing one stopped


def test_sigterm_stops_every_shard_and_leaves_a_partial_report_that_resume_completes(tmp_path, engines):
    base = json.loads(MCR.read_text(encoding="utf-8").splitlines()[0])
    corpus = tmp_path / "slow.jsonl"
    corpus.write_text("".join(json.dumps({**base, "id": f"case-{i}"}) + "\n" for i in range(400)), encoding="utf-8")
    out = tmp_path / "out"
    gate = tmp_path / "go"  # each shard runs 10 cases, then waits for it: the signal always finds cases left
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")]),
           "SLOW_GATE": str(gate)}
    command = [sys.executable, "-m", "checker.cli", "conform", "--corpus", str(corpus), "--engine",
               "python:shard_engines_mod:slow", "--out", str(out), "--jobs", "2"]
    proc = subprocess.Popen(command, env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while not (out.exists() and any(p.startswith(PART_PREFIX) for p in os.listdir(out))):  # the shards started
        assert time.monotonic() < deadline and proc.poll() is None
        time.sleep(0.05)
    time.sleep(0.5)  # some cases done (each shard's first 10 take 0.2 s; then it waits for the gate)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 1, err.decode()
    assert b"interrupted" in err and b"Traceback" not in err
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["partial"] is True and 0 < summary["counts"]["passed"] < 400
    assert not [p for p in os.listdir(out) if p.startswith(PART_PREFIX)]
    gate.write_text("go", encoding="utf-8")
    resumed = subprocess.run([*command[:-2], "--resume", "--jobs", "2"], env=env, cwd=ROOT, capture_output=True,
                             timeout=120)
    assert resumed.returncode == 0, resumed.stderr.decode()
    results = read_results(str(out / "results.jsonl"))
    assert sorted(r.id for r in results) == sorted(f"case-{i}" for i in range(400))


def _children(pid: int) -> set[int]:
    """The processes whose parent is `pid` (read from /proc)."""
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.add(int(entry))
    return found


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="shards are forked on Linux only")
def test_a_run_killed_outright_leaves_no_shard_running(tmp_path, engines):
    # SIGKILL cannot be caught: the kernel tells each shard its parent died (SIGINT), and it stops as on Ctrl-C
    base = json.loads(MCR.read_text(encoding="utf-8").splitlines()[0])
    corpus = tmp_path / "slow.jsonl"
    corpus.write_text("".join(json.dumps({**base, "id": f"case-{i}"}) + "\n" for i in range(400)), encoding="utf-8")
    out = tmp_path / "out"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")]),
           "SLOW_GATE": str(tmp_path / "never")}  # each shard runs 10 cases, then waits for a gate that never opens
    proc = subprocess.Popen([sys.executable, "-m", "checker.cli", "conform", "--corpus", str(corpus), "--engine",
                             "python:shard_engines_mod:slow", "--out", str(out), "--jobs", "2"],
                            env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while len(shards := _children(proc.pid)) < 2:
        assert time.monotonic() < deadline and proc.poll() is None
        time.sleep(0.05)
    proc.kill()
    proc.wait(timeout=30)
    deadline = time.monotonic() + 30
    while any(os.path.exists(f"/proc/{pid}") and "Z" not in Path(f"/proc/{pid}/stat").read_text().split()[2]
              for pid in shards):
        assert time.monotonic() < deadline, "a shard outlived its run"
        time.sleep(0.1)


def test_engines_that_cannot_be_forked_and_piped_corpora_run_in_one_process(tmp_path):
    example = f'cmd:"{sys.executable} {ROOT / "examples" / "engine.py"}"'
    one, _, _ = run(MCR, tmp_path / "one", 1, example)
    two, _, _ = run(MCR, tmp_path / "two", 2, example)
    assert untimed(tmp_path / "two" / "results.jsonl") == untimed(tmp_path / "one" / "results.jsonl")
    assert one.summary["counts"] == two.summary["counts"]
    piped = subprocess.run([sys.executable, "-m", "checker.cli", "conform", "--corpus", "/dev/stdin", "--engine",
                            "reference", "--out", str(tmp_path / "piped"), "--jobs", "2"], input=MCR.read_bytes(),
                           cwd=ROOT, capture_output=True, timeout=120)
    assert piped.returncode == 0, piped.stderr.decode()
    assert b"--jobs 2: running in one process: the corpus is not a regular file" in piped.stderr
    assert json.loads((tmp_path / "piped" / "summary.json").read_text(encoding="utf-8"))["counts"]["passed"] == \
        len([line for line in MCR.read_text(encoding="utf-8").splitlines() if line.strip()])


def test_auto_is_a_process_per_processor_each_on_at_least_a_mebibyte(tmp_path, monkeypatch):
    from checker.conform import shards

    corpus = tmp_path / "corpus.jsonl"
    monkeypatch.setattr(shards.os, "sched_getaffinity", lambda pid: {0, 1, 2}, raising=False)
    for size, expected in ((100, 1), (shards.AUTO_PART_BYTES * 2 - 1, 1), (shards.AUTO_PART_BYTES * 2, 2),
                           (shards.AUTO_PART_BYTES * 5, 3)):
        with open(corpus, "wb") as stream:
            stream.truncate(size)  # (sparse: only the size is read)
        assert shards.auto_jobs(str(corpus)) == expected, size
    monkeypatch.setattr(shards.os, "sched_getaffinity", lambda pid: set(range(32)), raising=False)
    with open(corpus, "wb") as stream:
        stream.truncate(shards.AUTO_PART_BYTES * 100)
    assert shards.auto_jobs(str(corpus)) == shards.AUTO_MAX_JOBS
    assert shards.auto_jobs(str(tmp_path / "missing.jsonl")) == 1


def test_jobs_auto_is_the_default_and_forks_only_the_engines_built_in(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    import checker.conform
    from checker.cli import app
    from checker.conform import shards

    asked = []

    def run_conformance(corpus, adapter, out_dir, **kwargs):
        asked.append(kwargs["jobs"])
        raise KeyboardInterrupt  # enough: the number of processes is known

    monkeypatch.setattr(checker.conform, "run_conformance", run_conformance)
    monkeypatch.setattr(shards, "auto_jobs", lambda path: 3)
    echo = tmp_path / "echo_engine.py"
    echo.write_text("def run(case):\n    return case['expect']\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    for engine, jobs, expected in (("reference", [], 3), ("reference", ["--jobs", "auto"], 3),
                                   ("reference", ["--jobs", "2"], 2), ("python:echo_engine:run", [], 1),
                                   ("python:echo_engine:run", ["--jobs", "2"], 2),
                                   (f'cmd:"{sys.executable} {ROOT / "examples" / "engine.py"}"', [], 1)):
        CliRunner().invoke(app, ["conform", "--corpus", str(MCR), "--engine", engine, "--out",
                                 str(tmp_path / "out"), *jobs])
        assert asked[-1] == expected, (engine, jobs)


@pytest.mark.parametrize("jobs", ["0", "65", "two", ""])
def test_a_number_of_jobs_out_of_range_is_bad_input(tmp_path, jobs):
    from typer.testing import CliRunner

    from checker.cli import app

    result = CliRunner().invoke(app, ["conform", "--corpus", str(MCR), "--engine", "reference", "--out",
                                      str(tmp_path / "out"), "--jobs", jobs])
    assert result.exit_code == 2 and "--jobs" in result.output and not (tmp_path / "out").exists()


def children_of(pid: int) -> list[int]:
    """Live child processes of `pid` (from /proc; zombies count: they are not reaped)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry))
    return found


def test_a_progress_callback_that_raises_stops_and_reaps_every_shard(tmp_path, engines):
    before = children_of(os.getpid())

    def on_result(outcome: str) -> None:
        raise RuntimeError("progress display failed")

    with pytest.raises(RuntimeError, match="progress display failed"):
        run_conformance(str(mixed_corpus(tmp_path)), engine_from_spec("python:shard_engines_mod:slow"),
                        str(tmp_path / "out"), jobs=2, on_result=on_result)
    assert children_of(os.getpid()) == before
    assert not [p for p in os.listdir(tmp_path / "out") if p.startswith(PART_PREFIX)]


def test_a_shards_progress_reaches_the_parent_at_least_every_few_tenths_of_a_second(monkeypatch):
    """A slow engine's progress shows: letters are sent every 256 results or after FLUSH_SECONDS (0.2 s)."""
    from checker.conform import shards

    clock = [100.0]
    monkeypatch.setattr(shards.time, "monotonic", lambda: clock[0])
    read_end, write_end = os.pipe()
    os.set_blocking(read_end, False)
    try:
        progress = shards.Progress(write_end)
        progress.result("passed")
        progress.result("failed")
        with pytest.raises(BlockingIOError):  # 0 s later, 2 letters: held
            os.read(read_end, 100)
        clock[0] += 0.25
        progress.result("errored")  # a quarter of a second on: all three go
        assert os.read(read_end, 100) == b"pfe"
        for _ in range(256):  # 256 letters go at once, whatever the clock
            progress.result("skipped")
        assert os.read(read_end, 1000) == b"s" * 256
    finally:
        os.close(read_end)
        os.close(write_end)


def test_merging_appends_the_parts_in_order_whole_lines_only(tmp_path):
    from checker.conform.shards import Shard, merge_parts, part_path

    shards = [Shard(i, 0, 0, 0) for i in range(3)]
    part_path_of = [Path(part_path(str(tmp_path), shard)) for shard in shards]
    part_path_of[0].write_bytes(b'{"a": 1}\n{"a": 2}\n{"a": 3, "torn')  # a kill mid-line: the torn line is cut
    part_path_of[2].write_bytes(b'{"c": 1}\n')  # part 1 wrote nothing (missing)
    with open(tmp_path / "results.jsonl", "wb") as results:
        results.write(b'{"before": 0}\n')
        merge_parts(str(tmp_path), shards, results)
    assert (tmp_path / "results.jsonl").read_bytes() == b'{"before": 0}\n{"a": 1}\n{"a": 2}\n{"c": 1}\n'
    assert not any(path.exists() for path in part_path_of)
