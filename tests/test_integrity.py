"""Verdict integrity: no engine can hide a failure, no damaged file is trusted, no file outside --out is touched.

1. The adversarial engine suite (`tests/adversarial_engine.py`, one misbehaviour each behind the protocol):
   every case of the corpus ends in exactly one outcome, the summary, report.md, junit.xml and the exit
   status count it, and the run does not pass.
2. In-process engines that raise SystemExit or return what JSON cannot hold.
3. Time limits: what --timeout and --mjcheck-timeout take.
4. The run folder: links planted in --out are replaced as names, never written through; a FIFO or a foreign,
   damaged or huge file in it is refused or read around, never hangs; --resume continues only the same corpus
   and engine, and re-runs cases whose result lines are damaged.
5. Hypothesis: answers of every shape from an in-process engine, and run folders damaged at random.
"""
from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from checker.cli import app
from checker.conform.results import read_results_file
from conftest import fuzz_factor

pytest_plugins = ["pytester"]
ROOT = Path(__file__).resolve().parents[1]
MCR = ROOT / "corpus" / "mcr-examples.jsonl"
ENGINE = ROOT / "tests" / "adversarial_engine.py"
cli = CliRunner()

sys.path.insert(0, str(ROOT / "tests"))
from adversarial_engine import is_bad  # noqa: E402  (the cases the adversarial engine misbehaves on)


def conform(*args: str):
    return cli.invoke(app, ["conform", *args])


def corpus_ids() -> list[str]:
    return [json.loads(line)["id"] for line in MCR.read_text(encoding="utf-8").splitlines() if line.strip()]


def summary(out: Path) -> dict:
    return json.loads((out / "summary.json").read_text(encoding="utf-8"))


def assert_counts_add_up(out: Path, corpus_cases: int) -> dict:
    """Every case of the corpus counted once in the summary, in report.md and in junit.xml; the results file
    holds one outcome per case or the case is counted missing."""
    got = summary(out)
    counts = got["counts"]
    assert counts["total"] == corpus_cases
    assert sum(counts[o] for o in ("passed", "failed", "errored", "skipped", "missing")) == corpus_cases, counts
    read = read_results_file(str(out / "results.jsonl"))
    assert read.damaged == counts["damaged"]
    latest = {(r.id, r.line): r.outcome for r in read.results}
    assert len(latest) + counts["missing"] == corpus_cases
    for outcome in ("passed", "failed", "errored", "skipped"):
        assert sum(1 for o in latest.values() if o == outcome) == counts[outcome]
    report = (out / "report.md").read_text(encoding="utf-8")
    assert f"| {counts['passed']} | {counts['failed']} | {counts['errored']} | {counts['skipped']} |" in report
    junit = (out / "junit.xml").read_text(encoding="utf-8")
    assert junit.count("<testcase ") >= corpus_cases - counts["missing"]
    assert (out / "report.html").stat().st_size > 0
    return counts


# --------------------------------------------------------------------------- 1. the adversarial engine suite

MODES = ["deep", "deeper", "huge", "many_values", "duplicate", "out_of_order", "wrong_id", "non_utf8",
         "surrogate", "nan", "partial_line", "silent", "forking", "exiting", "signal_killed", "slow",
         "not_an_object", "null_result"]


def test_the_corpus_gives_the_adversarial_engine_cases_to_misbehave_on():
    ids = corpus_ids()
    assert 0 < sum(map(is_bad, ids)) < len(ids)


@pytest.mark.parametrize("mode", MODES)
def test_no_engine_can_hide_a_failure(tmp_path, mode):
    out = tmp_path / "out"
    r = conform("--corpus", str(MCR), "--engine", f'cmd:"{sys.executable}" {ENGINE} {mode}', "--out", str(out),
                "--timeout", "0.5")
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    assert r.exit_code == 1, r.output
    counts = assert_counts_add_up(out, len(corpus_ids()))
    assert counts["passed"] < len(corpus_ids())  # what it did wrong is counted against it


def test_an_engine_whose_start_reply_nests_a_thousand_deep_is_bad_input(tmp_path):
    r = conform("--corpus", str(MCR), "--engine", f'cmd:"{sys.executable}" {ENGINE} start_deep', "--out",
                str(tmp_path / "out"))
    assert r.exit_code == 2 and "nested too deeply" in r.output, r.output


def test_an_answer_nested_just_within_the_limit_is_judged_and_read_back(tmp_path):
    """An answer nesting 31 levels was written `failed` and then dropped by the reader (the result line
    nests more): now whatever is written is read back. Its `total` is a list nested 29 deep, outside the
    result schema, so the case is `errored`, the reason naming the field."""
    out = tmp_path / "out"
    conform("--corpus", str(MCR), "--engine", f'cmd:"{sys.executable}" {ENGINE} deep', "--out", str(out))
    read = read_results_file(str(out / "results.jsonl"))
    assert read.damaged == 0 and len(read.results) == len(corpus_ids())
    bad = [r for r in read.results if is_bad(r.id)]
    assert bad and all(r.outcome == "errored" and "/total" in (r.reason or "") for r in bad)


def test_a_case_answered_twice_errs_itself_and_no_innocent_case(tmp_path):
    out = tmp_path / "out"
    conform("--corpus", str(MCR), "--engine", f'cmd:"{sys.executable}" {ENGINE} duplicate', "--out", str(out))
    outcomes = {r.id: r.outcome for r in read_results_file(str(out / "results.jsonl")).results}
    assert {i for i, o in outcomes.items() if o != "passed"} == {i for i in corpus_ids() if is_bad(i)}
    assert all(outcomes[i] == "errored" for i in corpus_ids() if is_bad(i))


def test_a_child_left_holding_the_engines_output_cannot_hold_the_run(tmp_path):
    """The engine starts a child that keeps its stdout open, then falls silent: the timeout still kills
    both, and after three silent cases in a row the engine is given up, its other cases errored."""
    import time

    started = time.monotonic()
    out = tmp_path / "out"
    r = conform("--corpus", str(MCR), "--engine", f'cmd:"{sys.executable}" {ENGINE} forking', "--out", str(out),
                "--timeout", "0.3")
    assert r.exit_code == 1
    assert time.monotonic() - started < 30  # the child sleeps 60 s
    got = summary(out)
    assert got["counts"]["errored"] == sum(map(is_bad, corpus_ids()))


def test_a_crash_behind_a_child_holding_the_output_is_named_a_crash(tmp_path):
    """The engine starts a child that keeps its stdout open and exits with status 5: its output never ends, so
    it looks silent, but its own process is gone: the case is errored as a crash (the status named), not as a
    timeout, and the engine is never given up for silence."""
    out = tmp_path / "out"
    r = conform("--corpus", str(MCR), "--engine", f'cmd:"{sys.executable}" {ENGINE} crashing_behind_a_child',
                "--out", str(out), "--timeout", "0.3", "--no-diagnose")
    assert r.exit_code == 1
    results = read_results_file(str(out / "results.jsonl")).results
    bad = [x for x in results if is_bad(x.id)]
    assert bad and all(x.outcome == "errored" and "exited with status 5" in (x.reason or "") for x in bad)
    assert not any("not run" in (x.reason or "") or "no answer within" in (x.reason or "") for x in results)


HANGS_WHILE = '''
import json, os, sys, time

flag = sys.argv[1]  # while this file exists the engine answers nothing
for line in sys.stdin:
    message = json.loads(line)
    if message["cmd"] == "start":
        print(json.dumps({"name": "hangs-while", "version": "1", "rulesets": ["mcr"], "kinds": ["score"]}), flush=True)
    elif message["cmd"] == "run":
        if os.path.exists(flag):
            time.sleep(60)
        else:
            print(json.dumps({"id": message["id"], "result": message["case"]["expect"]}), flush=True)
    else:
        break
'''


def test_the_cases_a_given_up_engine_never_ran_are_run_by_resume(tmp_path):
    """An engine silent on three cases in a row is given up and the cases it was never given are `errored`
    "not run: …"; `--resume` (the same engine, now answering) runs those cases, not only the ones with no line,
    and their new results are the ones the summary counts: they pass (the engine echoes `expect`). The three it
    was given and let time out stay errored: they were run."""
    engine, flag, out = tmp_path / "hangs_while.py", tmp_path / "hang", tmp_path / "out"
    engine.write_text(HANGS_WHILE, encoding="utf-8")
    flag.write_text("", encoding="utf-8")
    spec = f'cmd:"{sys.executable}" "{engine}" "{flag}"'
    r = conform("--corpus", str(MCR), "--engine", spec, "--out", str(out), "--timeout", "0.3", "--no-diagnose")
    assert r.exit_code == 1
    first = read_results_file(str(out / "results.jsonl")).results
    assert len(first) == len(corpus_ids()) and all(x.outcome == "errored" for x in first)
    not_run = {x.key for x in first if (x.reason or "").startswith("not run: ")}
    assert len(not_run) == len(first) - 3
    flag.unlink()
    r = conform("--corpus", str(MCR), "--engine", spec, "--out", str(out), "--timeout", "0.3", "--no-diagnose",
                "--resume")
    assert r.exit_code == 1
    got = summary(out)
    assert got["counts"]["passed"] == len(not_run) and got["counts"]["errored"] == 3
    timed_out = [x for x in first if x.key not in not_run]
    assert all("not run" not in (x.reason or "") for x in timed_out)


# --------------------------------------------------------------------------- 2. in-process engines

ENGINES = '''
import sys

def exits(case):
    sys.exit(0)

def cyclic(case):
    result = dict(case["expect"])
    result["self"] = result
    return result

def not_json(case):
    return {"valid": True, "total": {1, 2}}

def huge_int(case):
    return {"valid": True, "total": 10 ** 40}
'''


@pytest.fixture()
def engines(tmp_path, monkeypatch):
    (tmp_path / "integrity_engines_mod.py").write_text(ENGINES, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield "integrity_engines_mod"
    sys.modules.pop("integrity_engines_mod", None)


@pytest.mark.parametrize("function", ["exits", "cyclic", "not_json", "huge_int"])
def test_an_in_process_engine_errs_each_case_and_the_run_goes_on(tmp_path, engines, function):
    out = tmp_path / "out"
    r = conform("--corpus", str(MCR), "--engine", f"python:{engines}:{function}", "--out", str(out), "--jobs", "1")
    assert r.exit_code == 1, r.output
    counts = assert_counts_add_up(out, len(corpus_ids()))
    assert counts["errored"] == len(corpus_ids())


# --------------------------------------------------------------------------- 3. time limits

@pytest.mark.parametrize("given", ["inf", "1e308", "nan", "0", "-1", "86401", "soon"])
def test_a_time_limit_out_of_range_is_bad_input(tmp_path, given):
    r = conform("--corpus", str(MCR), "--engine", "reference", "--out", str(tmp_path / "out"), "--timeout", given)
    assert r.exit_code == 2 and "--timeout" in r.output and "seconds" in r.output
    assert not (tmp_path / "out").exists()


def test_the_pytest_plugins_time_limit_is_checked_the_same_way(pytester):
    pytester.makepyfile("def test_nothing(): pass")
    got = pytester.runpytest_subprocess("--mjcheck-corpus", str(MCR),
                                        "--mjcheck-engine", "reference", "--mjcheck-timeout", "inf")
    assert got.ret != 0
    assert "--mjcheck-timeout" in got.stderr.str() and "seconds" in got.stderr.str()


# --------------------------------------------------------------------------- 4. the run folder

def finished_run(tmp_path: Path) -> Path:
    out = tmp_path / "out"
    r = conform("--corpus", str(MCR), "--engine", "reference", "--out", str(out), "--jobs", "1")
    assert r.exit_code == 0, r.output
    return out


@pytest.mark.parametrize("name", ["results.jsonl", "summary.json", "report.md", "report.html", "junit.xml"])
def test_links_planted_in_the_out_folder_are_replaced_never_written_through(tmp_path, name):
    out = tmp_path / "out"
    out.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n", encoding="utf-8")
    (out / name).symlink_to(victim)
    r = conform("--corpus", str(MCR), "--engine", "reference", "--out", str(out), "--jobs", "1")
    assert r.exit_code == 0, r.output
    assert victim.read_text(encoding="utf-8") == "keep me\n"
    assert not (out / name).is_symlink()


def test_a_link_planted_as_the_results_file_of_a_resumed_run_is_refused(tmp_path):
    out = finished_run(tmp_path)
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n", encoding="utf-8")
    (out / "results.jsonl").unlink()
    (out / "results.jsonl").symlink_to(victim)
    r = conform("--corpus", str(MCR), "--engine", "reference", "--out", str(out), "--resume", "--jobs", "1")
    assert r.exit_code == 2 and "results.jsonl" in r.output
    assert victim.read_text(encoding="utf-8") == "keep me\n"


@pytest.mark.parametrize("name", ["results.jsonl", "summary.json"])
def test_a_fifo_in_the_run_folder_is_refused_or_passed_over_without_hanging(tmp_path, name):
    out = finished_run(tmp_path)
    (out / name).unlink()
    os.mkfifo(out / name)
    r = cli.invoke(app, ["report", str(out)])
    assert r.exit_code in (0, 2) and r.exception is None or isinstance(r.exception, SystemExit)
    if name == "results.jsonl":
        assert r.exit_code == 2 and "named pipe" in r.output
    r = conform("--corpus", str(MCR), "--engine", "reference", "--out", str(out), "--resume", "--jobs", "1")
    assert r.exit_code in (0, 2), r.output
    assert stat.S_ISFIFO(os.lstat(out / name).st_mode) == (name == "results.jsonl")


def test_a_huge_summary_is_not_read_whole(tmp_path):
    out = finished_run(tmp_path)
    with open(out / "summary.json", "w", encoding="utf-8") as stream:
        stream.write('{"engine_spec": "' + "x" * (20 * 1024 * 1024) + '"}')
    r = cli.invoke(app, ["report", str(out)])
    assert r.exit_code == 0, r.output
    assert summary(out)["engine_spec"] == "reference"  # from the results file's header


def test_resume_refuses_the_results_of_another_corpus_or_engine(tmp_path, engines):
    out = finished_run(tmp_path)
    other = tmp_path / "other.jsonl"
    other.write_text("".join(MCR.read_text(encoding="utf-8").splitlines(keepends=True)[:4]), encoding="utf-8")
    r = conform("--corpus", str(other), "--engine", "reference", "--out", str(out), "--resume")
    assert r.exit_code == 2 and "another corpus" in r.output
    r = conform("--corpus", str(MCR), "--engine", f"python:{engines}:exits", "--out", str(out), "--resume")
    assert r.exit_code == 2 and "another engine" in r.output
    assert summary(out)["counts"]["passed"] == len(corpus_ids())  # the finished run is left as it was


def test_resume_runs_again_the_cases_whose_result_lines_are_damaged(tmp_path):
    out = finished_run(tmp_path)
    lines = (out / "results.jsonl").read_bytes().split(b"\n")
    lines[2] = lines[2].replace(b'"passed"', b'"failed"')  # its checksum no longer holds
    lines[4] = b'{"id": "foreign", "line": 999, "outcome": "passed"}'  # a line this tool did not write
    (out / "results.jsonl").write_bytes(b"\n".join(lines))
    r = cli.invoke(app, ["report", str(out)])
    counts = summary(out)["counts"]
    assert counts["damaged"] == 2 and counts["missing"] == 2 and counts["passed"] == len(corpus_ids()) - 2
    assert "2 with no result" in r.output
    r = conform("--corpus", str(MCR), "--engine", "reference", "--out", str(out), "--resume", "--jobs", "1")
    assert r.exit_code == 1  # the damaged lines are still in the file, and counted
    counts = summary(out)["counts"]
    assert counts["passed"] == len(corpus_ids()) and counts["missing"] == 0 and counts["damaged"] == 2


# --------------------------------------------------------------------------- 5. Hypothesis

FUZZ = settings(max_examples=25 * fuzz_factor(), deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

json_scalars = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20)
answers = st.recursive(json_scalars, lambda inner: st.lists(inner, max_size=4)
                       | st.dictionaries(st.sampled_from(["valid", "total", "fans", "id", "points", "count",
                                                          "payments", "error", "either"]) | st.text(max_size=5),
                                         inner, max_size=5), max_leaves=30)


@FUZZ
@given(values=st.lists(answers, min_size=1, max_size=9))
def test_answers_of_any_shape_are_judged_and_counted(tmp_path_factory, values):
    from checker.conform import run_conformance
    from checker.conform.adapters import EngineInfo, InProcessEngine

    given_back = iter(values * 9)
    out = tmp_path_factory.mktemp("fuzz") / "out"
    run = run_conformance(str(MCR), InProcessEngine(lambda case: next(given_back), EngineInfo("fuzz", "1")), str(out))
    assert run.status in (0, 1)
    assert_counts_add_up(out, len(corpus_ids()))


damages = st.sampled_from(["truncate", "flip", "append_garbage", "random_json", "empty", "delete", "duplicate"])


@FUZZ
@given(target=st.sampled_from(["results.jsonl", "summary.json"]), damage=damages, where=st.integers(0, 10 ** 6),
       junk=st.binary(max_size=200))
def test_a_damaged_run_folder_is_reported_and_resumed_with_counts_that_add_up(tmp_path_factory, target, damage,
                                                                               where, junk):
    out = finished_run(tmp_path_factory.mktemp("damaged"))
    path = out / target
    data = path.read_bytes()
    at = where % max(1, len(data))
    if damage == "truncate":
        data = data[:at]
    elif damage == "flip":
        data = data[:at] + bytes([data[at] ^ 0x5A]) + data[at + 1:] if data else data
    elif damage == "append_garbage":
        data = data + junk
    elif damage == "random_json":
        data = data[:at] + json.dumps({"outcome": "passed", "line": at, "junk": junk.hex()}).encode() + b"\n" + data[at:]
    elif damage == "empty":
        data = b""
    elif damage == "duplicate":
        data = data + data
    if damage == "delete":
        path.unlink()
    else:
        path.write_bytes(data)
    r = cli.invoke(app, ["report", str(out)])
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    if r.exit_code == 0:
        assert_counts_add_up(out, len(corpus_ids()))
    r = conform("--corpus", str(MCR), "--engine", "reference", "--out", str(out), "--resume", "--jobs", "1")
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    assert r.exit_code in (0, 1, 2), r.output
    if r.exit_code != 2:
        counts = assert_counts_add_up(out, len(corpus_ids()))
        assert counts["missing"] == 0
        assert (r.exit_code == 0) == (counts["damaged"] == 0)


def test_lone_surrogates_in_a_case_and_an_answer_never_stop_the_reports(tmp_path):
    """A lone surrogate (which UTF-8 cannot hold) in a case's id and in a python: engine's fan id: the case is
    judged, and summary.json, report.md, report.html and junit.xml are all written."""
    from checker.conform import run_conformance
    from checker.conform.adapters import EngineInfo, InProcessEngine

    line = MCR.read_text(encoding="utf-8").splitlines()[0]
    case = json.loads(line)
    corpus = tmp_path / "surrogate.jsonl"
    corpus.write_text(json.dumps({**case, "id": "odd \ud800 id"}) + "\n", encoding="utf-8")

    def engine(given):
        return {**given["expect"], "fans": [{"id": "\udc80", "points": 8, "count": 1}]}

    out = tmp_path / "out"
    run = run_conformance(str(corpus), InProcessEngine(engine, EngineInfo("t", "1")), str(out))
    assert run.status == 1
    counts = assert_counts_add_up(out, 1)
    assert counts["errored"] == 1  # a fan id that is not Unicode text is not an answer the tool reads


def test_an_engine_that_takes_no_case_of_the_corpus_cannot_pass_it(tmp_path):
    """An engine whose start reply lists no ruleset of the corpus has every case skipped: nothing was run, so the
    run is refused (exit 2, saying so), never passed."""
    engine = tmp_path / "none.py"
    engine.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['cmd'] == 'start':\n"
        "        print(json.dumps({'name': 'takes nothing', 'version': '1', 'rulesets': ['riichi'], "
        "'kinds': ['score']}), flush=True)\n"
        "    elif m['cmd'] == 'stop':\n"
        "        break\n", encoding="utf-8")
    r = conform("--corpus", str(MCR), "--engine", f'cmd:"{sys.executable}" {engine}', "--out", str(tmp_path / "out"))
    assert r.exit_code == 2 and "nothing was run" in r.output
    counts = summary(tmp_path / "out")["counts"]
    assert counts["skipped"] == counts["total"] == len(corpus_ids())
