"""`mjcheck conform`: a corpus run on an engine under test, every case classified, the report always written.

Expectations here come from the corpus files or from how a test engine is built to behave. The example
corpora (corpus/*-examples.jsonl) are cited from the source documents; the generated corpora's expectations
are the reference engine's own (corpus/README.md says how each part was checked), so running the reference
engine on them shows only that the runner and the engine agree, not that a score is right.
"""
from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from checker.cli import app
from checker.diagnose.diff import diff
from checker.conform.pymahjonggb import fan_id, fan_table
from checker.conform.results import read_results

ROOT = Path(__file__).resolve().parents[1]
MCR = ROOT / "corpus" / "mcr-examples.jsonl"
SHANGHAI = ROOT / "corpus" / "shanghai-examples.jsonl"
EXAMPLE_ENGINE = ROOT / "examples" / "engine.py"
cli = CliRunner()


def conform(*args: str):
    result = cli.invoke(app, ["conform", *args])
    assert "Traceback" not in result.output, result.output
    return result


def cases(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def outcomes(out: Path) -> dict[str, str]:
    return {r.id or f"line {r.line}": r.outcome for r in read_results(str(out / "results.jsonl"))}


def summary(out: Path) -> dict:
    return json.loads((out / "summary.json").read_text(encoding="utf-8"))


def cmd(script: Path) -> str:
    return f'cmd:"{sys.executable} {script}"'


def numbered_corpus(tmp_path: Path, n: int) -> Path:
    """n copies of the guide's regular self-draw case (expect cited in corpus/mcr-examples.jsonl), ids case-1…"""
    base = cases(MCR)[0]
    path = tmp_path / "numbered.jsonl"
    path.write_text("".join(json.dumps({**base, "id": f"case-{i}"}) + "\n" for i in range(1, n + 1)), encoding="utf-8")
    return path


# ------------------------------------------------------------------ the reference engine

EVERY_CORPUS = sorted(MCR.parent.glob("*.jsonl"))


@pytest.mark.parametrize("corpus", EVERY_CORPUS, ids=[p.stem for p in EVERY_CORPUS])
def test_reference_engine_passes_every_example(tmp_path, corpus):
    """Every checked-in corpus, its source examples and its generated cases alike."""
    r = conform("--corpus", str(corpus), "--engine", "reference", "--out", str(tmp_path))
    assert r.exit_code == 0, r.output
    got = summary(tmp_path)
    assert got["partial"] is False
    assert got["counts"] == {"passed": len(cases(corpus)), "failed": 0, "errored": 0, "skipped": 0,
                             "missing": 0, "damaged": 0, "total": len(cases(corpus))}
    assert (tmp_path / "report.md").read_text(encoding="utf-8").startswith("# Conformance: mjcheck reference engine")


def test_cases_without_expect_and_unlisted_rulesets_are_skipped(tmp_path):
    first = cases(MCR)[0]
    no_expect = {k: v for k, v in first.items() if k != "expect"} | {"id": "no-expect"}
    corpus = tmp_path / "c.jsonl"
    corpus.write_text(json.dumps(first) + "\n" + json.dumps(no_expect) + "\n" + SHANGHAI.read_text(), encoding="utf-8")
    r = conform("--corpus", str(corpus), "--engine", "pymahjonggb" if _has_gb() else "reference",
                "--out", str(tmp_path / "out"))
    got = outcomes(tmp_path / "out")
    assert got["no-expect"] == "skipped"
    if _has_gb():  # PyMahjongGB's start info lists mcr only: the Shanghai cases are skipped
        assert [got[c["id"]] for c in cases(SHANGHAI)] == ["skipped"] * len(cases(SHANGHAI))
    assert r.exit_code == 0


def test_a_line_that_is_not_a_case_is_bad_input_but_the_run_completes(tmp_path):
    corpus = tmp_path / "c.jsonl"
    corpus.write_text(MCR.read_text(encoding="utf-8") + "{not json\n", encoding="utf-8")
    r = conform("--corpus", str(corpus), "--engine", "reference", "--out", str(tmp_path / "out"))
    assert r.exit_code == 2
    got = summary(tmp_path / "out")
    assert got["counts"]["passed"] == len(cases(MCR)) and got["not_cases"] == 1


# ------------------------------------------------------------------ python: engines

ECHO_MODULE = '''
def expected(case):
    return case["expect"]

def wrong_total(case):
    result = dict(case["expect"].get("either", [case["expect"]])[0])
    if result.get("valid"):
        result["total"] += 1
        result["fans"] = [dict(f, points=f["points"] + 1) if f["id"] == "self_drawn" else f for f in result["fans"]]
    return result

def raises(case):
    raise ZeroDivisionError("on purpose")

INTERRUPT_AT = "mcr-guide-79"

def interrupted(case):
    if case["id"] == INTERRUPT_AT:
        raise KeyboardInterrupt
    return case["expect"]
'''


@pytest.fixture
def echo_module(tmp_path, monkeypatch):
    (tmp_path / "echo_engine_mod.py").write_text(ECHO_MODULE, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield "echo_engine_mod"
    sys.modules.pop("echo_engine_mod", None)


def test_python_engine_answering_the_expectations_passes(tmp_path, echo_module):
    r = conform("--corpus", str(MCR), "--engine", f"python:{echo_module}:expected", "--out", str(tmp_path))
    assert r.exit_code == 0, r.output
    assert summary(tmp_path)["counts"]["passed"] == len(cases(MCR))


def test_python_engine_failures_are_grouped_by_rule_and_fan(tmp_path, echo_module):
    r = conform("--corpus", str(MCR), "--engine", f"python:{echo_module}:wrong_total", "--out", str(tmp_path))
    assert r.exit_code == 1
    got = summary(tmp_path)
    valid = [c for c in cases(MCR) if c["expect"].get("valid", True)]
    assert got["counts"]["failed"] == len(valid)  # every valid case has its total one off
    self_drawn = [c["id"] for c in valid if any(f["id"] == "self_drawn" for f in c["expect"].get("fans", []))]
    assert got["failures"]["by_fan"]["self_drawn"]["different"] == len(self_drawn) > 0
    assert "mcr.settlement.self_draw" in got["failures"]["by_rule"]
    report = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert "## Failures by rule" in report and "different: self_drawn expected 1×1, got 2×1" in report


def test_python_engine_exceptions_are_errored(tmp_path, echo_module):
    r = conform("--corpus", str(MCR), "--engine", f"python:{echo_module}:raises", "--out", str(tmp_path))
    assert r.exit_code == 1
    got = summary(tmp_path)
    assert got["counts"]["errored"] == len(cases(MCR))
    assert "ZeroDivisionError: 'on purpose'" in got["errored"][0]["reason"]


@pytest.mark.parametrize("engine", ["nonsense", "python:no_such_module_xyz:f", "python:json:no_such_function",
                                    'cmd:"/no/such/engine"', "cmd:" + sys.executable + " -c pass"])
def test_an_engine_that_cannot_be_used_is_bad_input(tmp_path, engine):
    r = conform("--corpus", str(MCR), "--engine", engine, "--out", str(tmp_path))
    assert r.exit_code == 2 and "error:" in r.output


def test_an_unreadable_corpus_is_bad_input(tmp_path):
    r = conform("--corpus", str(tmp_path / "missing.jsonl"), "--engine", "reference", "--out", str(tmp_path))
    assert r.exit_code == 2 and "missing.jsonl" in r.output


# ------------------------------------------------------------------ cmd: engines

def test_example_engine_fails_every_case_and_the_report_is_written(tmp_path):
    r = conform("--corpus", str(MCR), "--engine", cmd(EXAMPLE_ENGINE), "--out", str(tmp_path))
    assert r.exit_code == 1
    got = summary(tmp_path)
    # It answers every hand "valid, 0 points": the corpus has no such expectation, so every case fails.
    assert got["counts"] == {"passed": 0, "failed": len(cases(MCR)), "errored": 0, "skipped": 0,
                             "missing": 0, "damaged": 0, "total": len(cases(MCR))}
    assert got["engine"]["name"] == "example engine" and got["engine"]["version"] == "0.1"
    lines = read_results(str(tmp_path / "results.jsonl"))
    assert all(line.actual == {"valid": True, "total": 0, "fans": [], "payments": [0, 0, 0, 0]} for line in lines)
    assert "# Conformance: example engine 0.1" in (tmp_path / "report.md").read_text(encoding="utf-8")


BROKEN_ENGINE = '''
import json, sys, time
echo = sys.argv[1:] != ["no-ids"]
for line in sys.stdin:
    message = json.loads(line)
    if message["cmd"] == "start":
        print(json.dumps({"name": "broken", "version": "1", "rulesets": ["mcr"], "kinds": ["score"]}), flush=True)
        continue
    if message["cmd"] == "stop":
        break
    case_id = message["case"]["id"]
    if case_id == "case-3":
        sys.stderr.write("crashing on purpose\\n")
        sys.exit(3)
    if case_id == "case-5":
        time.sleep(60)
    if case_id == "case-7":
        print("this is not JSON", flush=True)
        continue
    reply = {"result": message["case"]["expect"]}
    if echo:
        reply["id"] = message["id"] + (1000 if case_id == "case-9" else 0)
    print(json.dumps(reply), flush=True)
'''


def test_broken_engine_errors_each_breakage_and_answers_every_other_case(tmp_path):
    engine = tmp_path / "broken.py"
    engine.write_text(BROKEN_ENGINE, encoding="utf-8")
    corpus = numbered_corpus(tmp_path, 12)
    r = conform("--corpus", str(corpus), "--engine", cmd(engine), "--out", str(tmp_path / "out"), "--timeout", "1")
    assert r.exit_code == 1
    got = outcomes(tmp_path / "out")
    assert len(got) == 12
    broken = {"case-3", "case-5", "case-7", "case-9"}
    assert {k for k, v in got.items() if v == "errored"} == broken
    assert all(v == "passed" for k, v in got.items() if k not in broken)
    reasons = {e["id"]: e["reason"] for e in summary(tmp_path / "out")["errored"]}
    assert "exited with status 3" in reasons["case-3"] and "crashing on purpose" in reasons["case-3"]
    assert "no answer within 1 s" in reasons["case-5"]
    assert "not an answer of the protocol" in reasons["case-7"]
    assert "answered id" in reasons["case-9"]
    s = summary(tmp_path / "out")
    assert s["partial"] is False and s["counts"]["total"] == 12
    report = (tmp_path / "out" / "report.md").read_text(encoding="utf-8")
    assert "## Errored cases" in report and "case-5" in report


def test_an_engine_that_does_not_echo_ids_is_read_in_order(tmp_path):
    engine = tmp_path / "broken.py"
    engine.write_text(BROKEN_ENGINE, encoding="utf-8")
    corpus = numbered_corpus(tmp_path, 2)  # case-1 and case-2: answered, without ids
    r = conform("--corpus", str(corpus), "--engine", f'cmd:"{sys.executable} {engine} no-ids"',
                "--out", str(tmp_path / "out"))
    assert r.exit_code == 0, r.output
    assert outcomes(tmp_path / "out") == {"case-1": "passed", "case-2": "passed"}


# ------------------------------------------------------------------ interrupted and resumed runs

def test_an_interrupted_run_leaves_a_partial_report_and_resume_completes_it(tmp_path, echo_module):
    out = tmp_path / "out"
    r = conform("--corpus", str(MCR), "--engine", f"python:{echo_module}:interrupted", "--out", str(out))
    assert r.exit_code == 1 and "interrupted" in r.output
    assert summary(out)["partial"] is True
    before = outcomes(out)
    assert "mcr-guide-79" not in before and all(v == "passed" for v in before.values())
    sys.modules[echo_module].INTERRUPT_AT = None  # the same engine, no longer interrupted
    r = conform("--corpus", str(MCR), "--engine", f"python:{echo_module}:interrupted", "--out", str(out), "--resume")
    assert r.exit_code == 0, r.output
    assert summary(out)["partial"] is False and summary(out)["counts"]["passed"] == len(cases(MCR))


def test_resume_after_a_run_cut_short_gives_the_same_counts(tmp_path):
    corpus = tmp_path / "both.jsonl"
    corpus.write_text(MCR.read_text(encoding="utf-8") + SHANGHAI.read_text(encoding="utf-8"), encoding="utf-8")
    out = tmp_path / "out"
    assert conform("--corpus", str(corpus), "--engine", "reference", "--out", str(out)).exit_code == 0
    full = summary(out)["counts"]
    results = out / "results.jsonl"
    lines = results.read_bytes().splitlines(keepends=True)
    results.write_bytes(b"".join(lines[:len(lines) // 2]) + lines[len(lines) // 2][:20])  # and a torn line
    r = conform("--corpus", str(corpus), "--engine", "reference", "--out", str(out), "--resume")
    assert r.exit_code == 0
    assert summary(out)["counts"] == full
    kept = read_results(str(results))
    assert len(kept) == len({r.key for r in kept}) == full["total"]  # no case twice, none lost


# ------------------------------------------------------------------ PyMahjongGB

def _has_gb() -> bool:
    return importlib.util.find_spec("MahjongGB") is not None


def test_pymahjonggb_fan_names_map_to_spec_ids(mcr_ruleset):
    table = fan_table(mcr_ruleset)
    assert fan_id(table, "Self-Drawn", "自摸") == "self_drawn"
    assert fan_id(table, "Four Pure Shifted Chows", "一色四步高") == "four_shifted_chows"
    assert fan_id(table, "Two Dragons Pungs", "双箭刻") == "two_dragon_pungs"
    assert fan_id(table, "Concealed Kong and Melded Kong", "明暗杠") == "明暗杠"  # no spec counterpart


@pytest.mark.skipif(not _has_gb(), reason="PyMahjongGB (module MahjongGB) is not installed")
def test_pymahjonggb_runs_the_mcr_examples_and_classifies_each_case(tmp_path):
    r = conform("--corpus", str(MCR), "--engine", "pymahjonggb", "--out", str(tmp_path))
    assert r.exit_code in (0, 1)
    got = summary(tmp_path)
    assert got["partial"] is False and got["counts"]["total"] == len(cases(MCR)) and got["counts"]["errored"] == 0
    assert got["engine"]["name"] == "PyMahjongGB"
    assert set(outcomes(tmp_path).values()) <= {"passed", "failed"}


def test_fan_diff_picks_the_closest_either_member():
    expect = {"either": [{"total": 2, "fans": [{"id": "a", "points": 1, "count": 2}]},
                         {"total": 2, "fans": [{"id": "b", "points": 2, "count": 1}]}]}
    found = diff(expect, {"total": 2, "fans": [{"id": "b", "points": 1, "count": 1}]})
    assert found.different == (({"id": "b", "points": 2, "count": 1}, {"id": "b", "points": 1, "count": 1}),)
    assert found.size == 1 and not found.missing and not found.extra and not found.fields


def test_the_reference_engine_behind_the_protocol_passes_every_example(tmp_path):
    engine = cmd(ROOT / "examples" / "reference_engine.py")
    r = conform("--corpus", str(MCR), "--engine", engine, "--out", str(tmp_path))
    assert r.exit_code == 0, r.output
    got = summary(tmp_path)
    assert got["counts"]["passed"] == len(cases(MCR)) and got["engine"]["name"].startswith("mjcheck reference")


def test_pymahjonggb_refusals_map_to_rules_and_anything_else_is_an_engine_error():
    # PyMahjongGB refuses with a TypeError naming a code: the codes it documents are verdicts (rule ids), any
    # other TypeError is the engine failing on the case (errored, not failed).
    from checker.case import CaseRunner
    from checker.conform.adapters import EngineError
    from checker.conform.pymahjonggb import PyMahjongGB

    def refusing(code):
        def calculate(*args):
            raise TypeError(code)
        return calculate

    runner = CaseRunner()
    case = {"ruleset": "mcr", "input": {"concealed": "1m1m1m2m2m2m3p3p3p4s4s4s5m", "win_tile": "5m"}}
    assert PyMahjongGB(runner, refusing("ERROR_NOT_WIN"))(case)["error"] == "win.shape"
    with pytest.raises(EngineError, match="SEGMENTATION"):
        PyMahjongGB(runner, refusing("SEGMENTATION"))(case)


def test_a_results_file_with_overlong_and_deeply_nested_lines_is_read_around_them(tmp_path, monkeypatch):
    # results.jsonl is read back by --resume and `mjcheck report DIR`, which may be pointed at any folder: a line
    # longer than the bound is passed over without being held whole, a line nested too deeply is passed over
    from checker.conform import results

    conform("--corpus", str(MCR), "--engine", "reference", "--out", str(tmp_path))
    path = tmp_path / "results.jsonl"
    good = path.read_bytes().splitlines(keepends=True)
    monkeypatch.setattr(results, "MAX_RESULT_LINE_BYTES", max(len(line) for line in good) + 10)
    overlong = b'{"id": "' + b"x" * (3 * results.MAX_RESULT_LINE_BYTES) + b'"}\n'
    nested = b"[" * 5000 + b"]" * 5000 + b"\n"
    path.write_bytes(good[0] + overlong + nested + b"".join(good[1:]))
    assert [r.id for r in read_results(str(path))] == [r.id for r in read_results_of(good, tmp_path)]


def read_results_of(lines, tmp_path):
    other = tmp_path / "plain.jsonl"
    other.write_bytes(b"".join(lines))
    return read_results(str(other))


def test_a_result_keeps_its_case_whole_as_written_or_encoded_again_when_not_plain_ascii(tmp_path):
    """A case line of plain ASCII is kept as written (spaces, key order, nulls); one with other characters or
    a tab is encoded again, one printable line; either way the case reads back with its nulls left out."""
    from checker.conform import results, run_conformance
    from checker.conform.adapters import EngineInfo, InProcessEngine

    base = json.loads(numbered_corpus(tmp_path, 1).read_text(encoding="utf-8"))  # its input.discarder is null
    plain = json.dumps({"note": None, **base}, separators=(" ,  ", ":  "))  # odd spacing, a null note first
    wide = json.dumps({**base, "id": "wide", "note": "碰 \u2028 line separator"}, ensure_ascii=False)
    tabbed = json.dumps({**base, "id": "tabbed"}).replace(", ", ",\t", 1)
    corpus = tmp_path / "kept.jsonl"
    corpus.write_text("\n".join([plain, wide, tabbed]) + "\n", encoding="utf-8")
    run_conformance(str(corpus), InProcessEngine(lambda case: case["expect"], EngineInfo("t", "1")),
                    str(tmp_path / "out"))
    written = (tmp_path / "out" / "results.jsonl").read_bytes()
    lines = [line.rsplit(b',"sum":"', 1)[0] + b"}" for line in written.split(b"\n")[1:-1]]  # (the header first)
    assert len(lines) == 3
    assert all(line.decode("utf-8").isprintable() for line in lines)  # U+2028 and the tab escaped
    assert lines[0].endswith(b',"case":' + plain.encode() + b"}")  # byte for byte
    assert json.loads(lines[1])["case"]["note"] == "碰 \u2028 line separator" and b"\\u2028" in lines[1]
    read = results.read_results(str(tmp_path / "out" / "results.jsonl"))
    assert [r.outcome for r in read] == ["passed"] * 3
    assert "note" not in read[0].case and read[0].case["id"] == "case-1"  # null is absent
    assert [r.expected for r in read] == [base["expect"]] * 3 and read[2].covers == tuple(base["covers"])
    assert read[0].input == {k: v for k, v in base["input"].items() if v is not None}


def test_a_result_line_is_standard_json_when_its_case_holds_numbers_json_has_not(tmp_path):
    # the standard library (which reads what orjson refuses) takes NaN and Infinity; a procedure case's events
    # are free-form, so such a case is valid: its result line must still be JSON (they are written null)
    from checker.conform import run_conformance
    from checker.conform.adapters import EngineInfo, InProcessEngine

    corpus = tmp_path / "nan.jsonl"
    corpus.write_text('{"id": "n1", "ruleset": "mcr", "kind": "procedure", "input": {"seed": 1, "events": '
                      '[{"event": "draw", "x": NaN, "y": -Infinity}]}, "expect": {"verdict": "bad input"}}\n',
                      encoding="utf-8")
    run_conformance(str(corpus), InProcessEngine(lambda case: {"verdict": "bad input"}, EngineInfo("t", "1")),
                    str(tmp_path / "out"))
    _, line = (tmp_path / "out" / "results.jsonl").read_text(encoding="utf-8").splitlines()  # (the header first)

    def refuse(constant):
        raise ValueError(constant)

    event = json.loads(line, parse_constant=refuse)["case"]["input"]["events"][0]
    assert event == {"event": "draw", "x": None, "y": None}


def test_a_run_cut_short_before_its_first_result_does_not_report_the_last_run_of_that_directory(tmp_path):
    from checker.conform import run_conformance
    from checker.conform.adapters import EngineInfo, InProcessEngine

    engine = InProcessEngine(lambda case: case["expect"], EngineInfo("t", "1"))
    first = run_conformance(str(numbered_corpus(tmp_path, 3)), engine, str(tmp_path / "out"))
    assert first.summary["counts"]["passed"] == 3

    def interrupted(count):
        raise KeyboardInterrupt

    again = run_conformance(str(numbered_corpus(tmp_path, 3)), engine, str(tmp_path / "out"), on_start=interrupted)
    counts = again.summary["counts"]  # a new run: the old results are gone, its three cases have none yet
    assert again.partial and counts["passed"] == 0 and counts["missing"] == counts["total"] == 3


def test_a_results_file_of_the_earlier_layout_or_of_odd_shapes_still_reads():
    from checker.conform.results import from_json

    earlier = {"id": "a", "line": 3, "outcome": "failed", "expected": {"total": 8}, "actual": {"total": 9},
               "reason": None, "covers": ["mcr.fan.x", 7], "ruleset": "mcr", "options": {"o": 1},
               "input": {"concealed": "1m", "discarder": None}}
    r = from_json(earlier)
    assert (r.id, r.line, r.outcome, r.expected, r.actual, r.covers, r.ruleset, r.options, r.input) == \
        ("a", 3, "failed", {"total": 8}, {"total": 9}, ("mcr.fan.x",), "mcr", {"o": 1}, {"concealed": "1m"})
    odd = from_json({"id": 5, "line": 1, "outcome": "passed", "case": {"covers": "x", "ruleset": 2,
                                                                        "options": [], "input": "1m"}})
    assert (odd.id, odd.covers, odd.ruleset, odd.options, odd.input) == (None, (), None, None, None)
    assert from_json({"line": 1, "outcome": "skipped", "case": None}).case is None
    assert from_json({"line": 1, "outcome": "odd"}) is None


def test_results_are_flushed_at_least_every_few_tenths_of_a_second_and_at_the_end(tmp_path, monkeypatch):
    # One flush a line cost as much as a fast engine's answer: a result may wait in the buffer, never longer
    # than FLUSH_SECONDS while more come, and never past the end of the run.
    from checker.conform import results

    clock = [100.0]
    monkeypatch.setattr(results.time, "monotonic", lambda: clock[0])
    path = tmp_path / "results.jsonl"
    writer = results.ResultsWriter(str(path), resume=False)
    writer.write(results.CaseResult("a", 1, "passed"))
    assert path.read_bytes() == b""  # held: no time has passed
    clock[0] += results.FLUSH_SECONDS
    writer.write(results.CaseResult("b", 2, "failed"))
    assert [r.id for r in results.read_results(str(path))] == ["a", "b"]
    writer.write(results.CaseResult("c", 3, "passed"))
    writer.close()
    assert [r.id for r in results.read_results(str(path))] == ["a", "b", "c"]


def test_the_profile_reads_each_case_once_even_when_lines_repeat_across_files():
    # A merged summary's cases come from several results files, so two cases may share a line number: each
    # must be re-scored from its own hand. 1m-9m chows + 1p pung + 5s pair (Pure straight 16) and concealed pungs
    # of 2m 4p 6s 8m won on the 5p pair (Four concealed pungs 64, All simples 2), both on line 1.
    from checker.case import CaseRunner
    from checker.conform.profile import _Memo, _reference
    from checker.conform.results import CaseResult

    def case(concealed: str, win: str) -> CaseResult:
        data = {"concealed": concealed, "win_tile": win, "win_by": "discard", "discarder": 1}
        return CaseResult("c", 1, "passed", {"fans": []}, None, {"expect": {"fans": []}, "ruleset": "mcr",
                                                                   "options": {}, "input": data})

    straight = case("1m2m3m4m5m6m7m8m9m1p1p1p5s", "5s")
    pungs = case("2m2m2m4p4p4p6s6s6s8m8m8m5p", "5p")
    runner, memo = CaseRunner(), _Memo()
    found = [_reference(runner, r, None, None, memo) for r in (straight, pungs, straight)]
    ids = [sorted(f["id"] for f in result["fans"]) for result in found]
    assert "pure_straight" in ids[0] and ids[2] == ids[0]
    assert ids[1] == ["all_simples", "four_concealed_pungs"]


# ------------------------------------------------------------------ streaming, and the garbage collector

def test_the_corpus_is_streamed_each_case_run_before_the_next_line_is_read(tmp_path, monkeypatch):
    """A run holds a case at a time, not the corpus: when an in-process engine runs the case of line k, the
    runner has read no line after k; the progress hears the count first (every line but the blank one and the
    comment), then one outcome per result, the skipped line's when it is read."""
    import checker.conform.runner as runner
    from checker.conform import run_conformance
    from checker.conform.adapters import EngineInfo, InProcessEngine

    read, seen, heard = [], [], []
    real = runner.read_cases

    def reading(*args, **kwargs):
        for item in real(*args, **kwargs):
            read.append(item.line)
            yield item

    def engine(case):
        seen.append((case["id"], read[-1]))
        return case["expect"]

    monkeypatch.setattr(runner, "read_cases", reading)
    lines = numbered_corpus(tmp_path, 4).read_text(encoding="utf-8").splitlines()
    no_expect = {k: v for k, v in json.loads(lines[2]).items() if k != "expect"}
    corpus = tmp_path / "streamed.jsonl"
    corpus.write_text("\n".join(lines[:2] + ["", "# a comment", json.dumps(no_expect)] + lines[3:]) + "\n",
                      encoding="utf-8")
    run_conformance(str(corpus), InProcessEngine(engine, EngineInfo("t", "1")), str(tmp_path / "out"),
                    on_start=lambda n: heard.append(n), on_result=heard.append)
    assert seen == [("case-1", 1), ("case-2", 2), ("case-4", 6)]  # lines 3-4 blank and comment, 5 no expect
    assert heard == [4, "passed", "passed", "skipped", "passed"]
    assert [json.loads(x)["line"] for x in (tmp_path / "out" / "results.jsonl").read_text().splitlines()[1:]] \
        == [1, 2, 5, 6]


def test_a_run_holds_what_exists_aside_from_the_collector_and_gives_it_back_after(tmp_path, monkeypatch):
    """While cases run, what existed when the run started is frozen out of the collector's full collections,
    and the results read back for the reports while the reports are written (checker.collector); after the
    run, however it ends, nothing stays frozen and the collector is as it was, a caller's own frozen objects
    and disabled collector left alone."""
    import gc

    import checker.conform.runner as runner
    from checker.conform import run_conformance
    from checker.conform.adapters import EngineInfo, InProcessEngine

    seen = []

    def engine(case):
        seen.append((gc.get_freeze_count() > 0, gc.isenabled()))
        if case["id"] == "case-3":
            raise KeyboardInterrupt
        return case["expect"]

    writing, real = [], runner.write_reports

    def write_reports(out_dir, meta, partial, results=None, **more):
        if results is not None:
            writing.append((len(results), gc.get_freeze_count() > 0, gc.isenabled()))
        return real(out_dir, meta, partial, results, **more)

    monkeypatch.setattr(runner, "write_reports", write_reports)
    corpus = numbered_corpus(tmp_path, 5)
    assert gc.get_freeze_count() == 0 and gc.isenabled()
    run = run_conformance(str(corpus), InProcessEngine(engine, EngineInfo("t", "1")), str(tmp_path / "out"))
    assert run.partial and seen == [(True, True)] * 3  # frozen while running, the collector still on for the rest
    assert writing == [(2, True, True)]  # the two results before the interrupt, frozen
    assert gc.get_freeze_count() == 0 and gc.isenabled()

    mine = [[]]  # a caller's own choices are kept: its collector off, and objects it froze itself
    gc.disable()
    gc.freeze()
    try:
        run_conformance(str(corpus), InProcessEngine(lambda case: case["expect"], EngineInfo("t", "1")),
                        str(tmp_path / "again"))
        assert not any(o is mine for o in gc.get_objects())  # still frozen: in no generation
        assert gc.get_freeze_count() > 0 and not gc.isenabled()
    finally:
        gc.unfreeze()
        gc.enable()


def test_a_corpus_read_from_standard_input_and_a_reproducer_put_to_the_engine_from_it(tmp_path):
    """`--corpus -` reads the cases from standard input (no hash, no count: a pipe is read once); `mjcheck
    reproduce --engine E -` puts cases from standard input to the engine beside the reference."""
    text = "".join(line + "\n" for line in MCR.read_text(encoding="utf-8").splitlines()[:3])
    r = cli.invoke(app, ["conform", "--corpus", "-", "--engine", "reference", "--out", str(tmp_path / "out")], input=text)
    assert r.exit_code == 0, r.output
    assert summary(tmp_path / "out")["counts"]["passed"] == 3
    r = cli.invoke(app, ["reproduce", "--engine", "reference", "-"], input=text)
    assert r.exit_code == 0 and r.output.count("the engine agrees") == 3
