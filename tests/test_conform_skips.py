"""An engine that skips cases on purpose (`{"skip": "reason"}`): skips are counted apart, grouped by reason,
declarable in a known file (`skips:`), never hide a failure, and a run left wholly unchecked exits 2."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from checker.case import CaseRunner
from checker.conform import run_conformance
from checker.conform.adapters import EngineInfo, InProcessEngine
from checker.conform.known import load_known

ROOT = Path(__file__).resolve().parents[1]
MCR = ROOT / "corpus" / "mcr.jsonl"
REASON = "robbing the kong is not modelled here"


def _robbed(case) -> bool:
    data = case.get("input")
    return isinstance(data, dict) and data.get("win_by") == "robbing_kong"


def skipping_robbed_kongs(case):
    """The reference engine, except that every hand won by robbing the kong is skipped."""
    if _robbed(case):
        return {"skip": REASON}
    return CaseRunner().run(case)


def run(tmp_path: Path, function, known: str | None = None, name: str = "out"):
    known_path = None
    if known is not None:
        known_path = tmp_path / f"{name}.yaml"
        known_path.write_text(known, encoding="utf-8")
    return run_conformance(str(MCR), InProcessEngine(function, EngineInfo("skipping", "1")), str(tmp_path / name),
                           known=load_known(str(known_path)) if known_path else None)


def robbed_cases() -> int:
    return sum(1 for line in MCR.read_text(encoding="utf-8").splitlines()
               if line.strip() and _robbed(json.loads(line)))


def test_skips_are_counted_apart_by_reason_and_undeclared_ones_fail_the_run(tmp_path):
    n = robbed_cases()
    assert n > 0
    done = run(tmp_path, skipping_robbed_kongs)
    counts = done.summary["counts"]
    assert counts["failed"] == counts["errored"] == 0
    assert counts["skipped_by_engine"] == counts["skipped_undeclared"] == n
    assert done.summary["engine_skips"] == [{"ruleset": "mcr", "reason": REASON, "cases": n, "declared": False}]
    assert done.status == 1  # n cases were left unchecked and nothing declares them
    report = (tmp_path / "out" / "report.md").read_text(encoding="utf-8")
    assert "## Skipped by the engine" in report and REASON in report


def test_declared_skips_let_the_run_pass_and_a_skip_declaring_nothing_is_stale(tmp_path):
    done = run(tmp_path, skipping_robbed_kongs, "skips:\n"
               "  - {reason: 'robbing the kong*', note: 'not modelled'}\n"
               "  - {reason: 'knitted hands*', note: 'never said'}\n")
    counts = done.summary["counts"]
    assert counts["skipped_undeclared"] == 0 and counts["skipped_by_engine"] == robbed_cases()
    assert done.status == 0
    known = done.summary["known"]
    assert known["skips_declared"] == robbed_cases()
    assert [d["id"] for d in known["stale"]] == ["knitted hands*"]
    assert [d["skips"] for d in known["declarations"]] == [robbed_cases(), 0]


def test_a_skip_declaration_never_declares_a_failure(tmp_path):
    """Skips declared with `*` (any reason); the engine also fails every hand won on a discard (it answers total
    0): those failures are not declared by the skip, and the run fails."""
    def failing_discards(case):
        if _robbed(case):
            return {"skip": REASON}
        result = dict(CaseRunner().run(case))
        if case["input"].get("win_by") == "discard" and result.get("valid"):
            result["total"] = 0
        return result

    done = run(tmp_path, failing_discards, "skips:\n  - {reason: '*', note: 'anything skipped'}\n")
    assert done.summary["counts"]["failed"] > 0 and done.summary["counts"]["skipped_undeclared"] == 0
    assert done.status == 1


def test_a_run_the_engine_skips_wholly_exits_2(tmp_path):
    done = run(tmp_path, lambda case: {"skip": "not today"}, "skips:\n  - {reason: 'not today', note: 'all'}\n")
    assert done.summary["counts"]["passed"] == 0 and done.status == 2


def test_a_command_engine_skips_by_id_and_a_skip_beside_a_result_is_an_error(tmp_path):
    script = tmp_path / "engine.py"
    script.write_text(
        "import json, sys\n"
        "for raw in sys.stdin:\n"
        "    m = json.loads(raw)\n"
        "    if m['cmd'] == 'start':\n"
        "        print(json.dumps({'name': 's', 'version': '1', 'rulesets': ['mcr'], 'kinds': ['score']}), flush=True)\n"
        "    elif m['cmd'] == 'stop':\n"
        "        break\n"
        "    elif m['case']['input'].get('win_by') == 'robbing_kong':\n"
        "        print(json.dumps({'id': m['id'], 'skip': 'no robbing'}), flush=True)\n"
        "    elif m['case']['input'].get('win_by') == 'discard':\n"
        "        print(json.dumps({'id': m['id'], 'skip': 'both', 'result': m['case']['expect']}), flush=True)\n"
        "    else:\n"
        "        print(json.dumps({'id': m['id'], 'result': m['case']['expect']}), flush=True)\n", encoding="utf-8")
    from checker.conform import engine_from_spec

    engine = engine_from_spec(f'cmd:"{sys.executable} {script}"', {}, 20.0)
    done = run_conformance(str(MCR), engine, str(tmp_path / "cmd"))
    counts = done.summary["counts"]
    assert counts["skipped_by_engine"] == robbed_cases()
    assert counts["errored"] > 0  # the discard wins: a skip beside a result is answered or skipped, not both
    assert any("not both" in e["reason"] for e in done.summary["errored"])
    assert done.status == 1


def test_one_case_is_declared_by_a_reading_only_when_the_reading_gives_the_engines_whole_answer(tmp_path):
    """checker.conform.declared, as the pytest plugin's --mjcheck-known uses it: a case of the MCR corpus that
    parts option four_concealed_pungs_with_fully_concealed, answered by an engine that follows the other reading
    (the reference under it), is declared by `readings: {that option: the other value}` and not by a reading of
    another option."""
    from checker.conform.declared import declaring
    from checker.conform.results import CaseResult

    runner = CaseRunner()
    option = "four_concealed_pungs_with_fully_concealed"
    found = None
    for line in MCR.read_text(encoding="utf-8").splitlines():
        case = json.loads(line)
        if f"mcr.option.{option}" not in case.get("covers", []):
            continue
        for value in (True, False):
            other = runner.run({**case, "options": {**case.get("options", {}), option: value}})
            if other != runner.run(case):
                found = case, value, other
                break
        if found:
            break
    assert found is not None
    case, value, answer = found
    result = CaseResult(case["id"], 1, "failed", answer, None, case)
    shown = "true" if value else "false"
    (tmp_path / "k.yaml").write_text(f"readings:\n  {option}: {{value: {shown}, note: 'its reading'}}\n"
                                     f"  chicken_hand_scores: {{value: true, note: 'another'}}\n", encoding="utf-8")
    declared = declaring(load_known(str(tmp_path / "k.yaml")), result, runner)
    assert [d.id for d in declared] == [f"option:{option}={shown}"]


def test_each_case_records_the_engines_time_and_junit_gives_it(tmp_path):
    """An engine that takes 50 ms over one case: that case's result line says so (`seconds`), junit.xml gives it
    as the testcase's time (never a made-up 0), and a suite's time is the sum of its cases'."""
    import time
    import xml.etree.ElementTree as ET

    from checker.conform.results import read_results

    slow = json.loads(MCR.read_text(encoding="utf-8").splitlines()[0])["id"]

    def engine(case):
        if case.get("id") == slow:
            time.sleep(0.05)
        return CaseRunner().run(case)

    done = run_conformance(str(MCR), InProcessEngine(engine, EngineInfo("timed", "1")), str(tmp_path / "t"))
    assert done.status == 0
    seconds = {r.id: r.seconds for r in read_results(str(tmp_path / "t" / "results.jsonl"))}
    assert seconds[slow] >= 0.05 and all(s is not None for s in seconds.values())
    root = ET.parse(tmp_path / "t" / "junit.xml").getroot()
    times = {c.get("name").split(" (")[0]: float(c.get("time")) for c in root.iter("testcase")}
    assert times[slow] >= 0.05
    suite = next(root.iter("testsuite"))
    assert abs(float(suite.get("time")) - sum(float(c.get("time")) for c in suite.iter("testcase"))) < 1e-3


def test_an_engine_that_edits_its_case_or_raises_an_unspeakable_exception_is_contained(tmp_path):
    """A python: engine that pops the case's `expect` and empties its hand, and one whose exception cannot even be
    turned into words: every case still gets its result (judged against the corpus's own case), none is lost."""
    reference = CaseRunner()

    def editing(case):
        case.pop("expect", None)
        case["input"]["concealed"] = ""
        return reference.run(case)

    class Unspeakable(Exception):
        def __str__(self):
            raise RuntimeError("no words")

    def unspeakable(case):
        raise Unspeakable()

    n = sum(1 for line in MCR.read_text(encoding="utf-8").splitlines() if line.strip())
    edited = run(tmp_path, editing, name="edited")
    assert sum(edited.summary["counts"][o] for o in ("passed", "failed", "errored")) == n
    assert edited.summary["counts"]["failed"] > 0  # the emptied hands answer a refusal the corpus does not expect
    raised = run(tmp_path, unspeakable, name="raised")
    assert raised.summary["counts"]["errored"] == n
    assert "its message cannot be read: RuntimeError in its __str__" in raised.summary["errored"][0]["reason"]


WRONG_SHAPES = {
    "flags a text": lambda d: d["case"]["input"].__setitem__("flags", "knocked"),
    "a meld not an object": lambda d: d["case"]["input"].__setitem__("melds", ["chow"]),
    "counters a text": lambda d: d["case"]["input"].__setitem__("counters", "x"),
    "options a list": lambda d: d["case"].__setitem__("options", [1]),
    "a fan's points a boolean": lambda d: d.__setitem__("actual", {"valid": True, "total": 3,
                                                                   "fans": [{"id": "x", "points": True, "count": 1}]}),
}


def test_report_over_result_lines_of_the_wrong_shapes_rebuilds_without_a_traceback(tmp_path):
    """Result lines sealed again with checksums that hold but fields of the wrong shapes (a results file may come
    from anywhere), and a header whose engine is a number: `mjcheck report` rebuilds the reports, re-scoring only
    cases in the case format, and counts the header as damaged."""
    from typer.testing import CliRunner

    from checker.cli import app
    from checker.conform.results import checked_line
    from checker.inputs import json_line

    def failing(case):
        result = dict(CaseRunner().run(case))
        if result.get("valid"):
            result["total"] = 0
        return result

    done = run(tmp_path, failing, name="shapes")
    path = tmp_path / "shapes" / "results.jsonl"
    lines = path.read_bytes().splitlines(keepends=True)

    def unsealed(line: bytes) -> dict:
        data = json.loads(line)
        data.pop("sum", None)
        return data

    header = unsealed(lines[0])
    header["run"]["engine"] = 5
    out = [checked_line(json_line(header))]
    for i, line in enumerate(lines[1:]):
        data = unsealed(line)
        edit = list(WRONG_SHAPES.values())[i % len(WRONG_SHAPES)]
        edit(data)
        out.append(checked_line(json_line(data)))
    path.write_bytes(b"".join(out))
    r = CliRunner().invoke(app, ["report", str(tmp_path / "shapes")])
    assert "Traceback" not in r.output and r.exception is None or isinstance(r.exception, SystemExit), r.output
    assert r.exit_code == 3, r.output  # rebuilt, from a partial run: one line is damaged (exit INCOMPLETE)
    assert "1 damaged result line" in r.output and "from a partial run" in r.output
    assert done.summary["counts"]["failed"] > 0


def test_a_chatty_engines_stderr_is_kept_only_in_its_tail_and_names_its_crash(tmp_path):
    """A cmd: engine that writes 8 MiB to its stderr for each case, then exits on the third case with a last
    line: the run keeps no more than checker.conform.process.STDERR_KEPT of it (nothing on disk), and the crash's
    reason quotes that last line."""
    from checker.conform import engine_from_spec
    from checker.conform.process import STDERR_KEPT, SubprocessEngine

    script = tmp_path / "chatty.py"
    script.write_text(
        "import json, sys\n"
        "n = 0\n"
        "for raw in sys.stdin:\n"
        "    m = json.loads(raw)\n"
        "    if m['cmd'] == 'start':\n"
        "        print(json.dumps({'name': 'c', 'version': '1', 'rulesets': ['mcr'], 'kinds': ['score']}), flush=True)\n"
        "    elif m['cmd'] == 'stop':\n"
        "        break\n"
        "    else:\n"
        "        n += 1\n"
        "        sys.stderr.write('x' * (8 << 20) + '\\n')\n"
        "        if n == 3:\n"
        "            sys.stderr.write('the last words of the engine\\n'); sys.stderr.flush(); sys.exit(4)\n"
        "        print(json.dumps({'id': m['id'], 'result': m['case']['expect']}), flush=True)\n", encoding="utf-8")
    engine = engine_from_spec(f'cmd:"{sys.executable} {script}"', {}, 20.0)
    assert isinstance(engine, SubprocessEngine)
    done = run_conformance(str(MCR), engine, str(tmp_path / "chatty"))
    reasons = [e["reason"] for e in done.summary["errored"]]
    assert any("the last words of the engine" in r for r in reasons), reasons
    assert STDERR_KEPT <= 1 << 20


def test_answers_of_twenty_thousand_fans_keep_the_summary_bounded(tmp_path):
    """An engine that adds 20,000 made-up fans to every win of nine cases (answers within the protocol's limits):
    each class's signature names at most 24 differences (the rest counted), its witness keeps 60 of the fans
    (`fans_cut` the rest), failures by fan and fans outside the spec list a bounded number of ids; summary.json
    stays under 2 MB (it was 20 MB)."""
    from checker.diagnose.classes import MAX_SIGNATURE_PARTS

    reference = CaseRunner()

    def many(case):
        result = dict(reference.run(case))
        if result.get("valid"):
            result["fans"] = list(result["fans"]) + [{"id": f"made_up_{i}", "points": 1, "count": 1}
                                                     for i in range(20_000)]
        return result

    corpus = tmp_path / "nine.jsonl"
    corpus.write_text("".join(line + "\n" for line in
                              (ROOT / "corpus" / "mcr-examples.jsonl").read_text(encoding="utf-8").splitlines()[:9]),
                      encoding="utf-8")
    done = run_conformance(str(corpus), InProcessEngine(many, EngineInfo("many", "1")), str(tmp_path / "out"))
    summary = done.summary
    assert (tmp_path / "out" / "summary.json").stat().st_size < 2 * 2**20
    assert summary["classes"] and all(len(c["parts"]) <= MAX_SIGNATURE_PARTS for c in summary["classes"])
    assert all("more differences" in c["signature"] for c in summary["classes"])
    witness = summary["classes"][0]["witness"]["actual"]
    assert len(witness["fans"]) == 60 and witness["fans_cut"] > 19_000
    assert "(other fans)" in summary["failures"]["by_fan"]
    assert "(other fans outside the spec)" in summary["profile"]["mcr"]["fans_outside_spec"]


def test_a_second_run_into_a_folder_another_run_is_writing_is_refused(tmp_path):
    """DIR's lock (DIR/.mjcheck.lock, held while a run writes there): a run started into a folder whose lock is
    held is refused with exit 2, naming the holder, and writes nothing there; once the lock is free it runs."""
    import fcntl
    import os

    from typer.testing import CliRunner

    from checker.cli import app

    out = tmp_path / "out"
    out.mkdir()
    fd = os.open(out / ".mjcheck.lock", os.O_RDWR | os.O_CREAT)
    os.write(fd, b"4242")
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    try:
        r = CliRunner().invoke(app, ["conform", "--corpus", str(MCR), "--engine", "reference", "--out", str(out)])
        assert r.exit_code == 2 and "another run is writing there (process 4242)" in r.output, r.output
        assert not (out / "results.jsonl").exists()
    finally:
        os.close(fd)
    r = CliRunner().invoke(app, ["conform", "--corpus", str(MCR), "--engine", "reference", "--out", str(out)])
    assert r.exit_code == 0, r.output
