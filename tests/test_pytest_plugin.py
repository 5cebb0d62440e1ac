"""The pytest plugin (`pytest --mjcheck-corpus FILE --mjcheck-engine ENGINE`), run in pytest's own `pytester`.

Expectations come from corpus/mcr-examples.jsonl (each case's `expect`, cited there) and from how the test
engines below are written to depart from them; none is taken from the engine under test.
"""
from __future__ import annotations

import json
import sys
from importlib.metadata import entry_points
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parents[1]
MCR = ROOT / "corpus" / "mcr-examples.jsonl"
EXAMPLE_ENGINE = ROOT / "examples" / "engine.py"

# A python: engine of the test's own: right answers its expect, wrong adds one point to self_drawn (and so to
# the total) and a made-up fan, raises raises.
ENGINE = '''
def score(case):
    if case["id"] == "raises":
        raise ZeroDivisionError("on purpose")
    result = dict(case["expect"])
    if case["id"] == "wrong":
        result["total"] += 1
        result["fans"] = [dict(f, points=f["points"] + 1) if f["id"] == "self_drawn" else f for f in result["fans"]]
        result["fans"].append({"id": "made_up", "points": 2, "count": 1})
    return result
'''


def mcr_case(**changes) -> dict:
    """The guide's regular self-draw hand (mixed triple chow 8, all simples 2, self-drawn 1: 11 points)."""
    base = json.loads(MCR.read_text(encoding="utf-8").splitlines()[0])
    assert any(f["id"] == "self_drawn" and f["points"] == 1 for f in base["expect"]["fans"])
    return {**base, **changes}


@pytest.fixture
def corpus(pytester) -> Path:
    no_expect = {k: v for k, v in mcr_case(id="no-expect").items() if k != "expect"}
    lines = [mcr_case(id="right"), mcr_case(id="wrong"), mcr_case(id="raises"), no_expect]
    path = pytester.path / "tiny.jsonl"
    path.write_text("".join(json.dumps(c) + "\n" for c in lines), encoding="utf-8")
    pytester.makepyfile(my_engine=ENGINE)
    pytester.syspathinsert()
    return path


def test_the_plugin_is_registered_under_pytest11():
    assert {ep.name: ep.value for ep in entry_points(group="pytest11")}.get("mjcheck") == "checker.pytest_plugin"


def test_one_item_per_case_passing_failing_with_the_fan_diff_erroring_and_skipped(pytester, corpus):
    result = pytester.runpytest("--mjcheck-corpus", str(corpus), "--mjcheck-engine", "python:my_engine:score", "-v",
                                "-rs")
    result.assert_outcomes(passed=1, failed=1, errors=1, skipped=1)  # an engine that raises: an error, not a failure
    result.stdout.fnmatch_lines(["*tiny.jsonl::right PASSED*", "*tiny.jsonl::wrong FAILED*",
                                 "*tiny.jsonl::raises ERROR*", "*tiny.jsonl::no-expect SKIPPED*"])
    out = result.stdout.str()
    # the fan diff of `wrong`: self_drawn 1 point expected, 2 given; made_up extra; the total one off (11 → 12)
    assert "different  self_drawn: expected 1×1, got 2×1" in out
    assert "extra      made_up 2×1  (in the result, not expected)" in out
    assert "total: expected 11, got 12" in out
    assert "covers: mcr.fan.mixed_triple_chow" in out
    assert "the engine erred: raised ZeroDivisionError: 'on purpose' (at my_engine.py:3)" in out
    assert "| mjcheck reproduce --engine python:my_engine:score -" in out  # the witness put to the engine again
    assert "no expect: conformance needs an expected result" in out
    assert "Traceback" not in out


def test_keyword_selection_and_several_corpora(pytester, corpus):
    other = pytester.path / "other.jsonl"
    other.write_text(json.dumps(mcr_case(id="right-again")) + "\n", encoding="utf-8")
    result = pytester.runpytest("--mjcheck-corpus", str(corpus), "--mjcheck-corpus", str(other),
                                "--mjcheck-engine", "python:my_engine:score", "-k", "right")
    result.assert_outcomes(passed=2, deselected=3)


def test_several_engines_name_each_item_by_engine(pytester, corpus):
    result = pytester.runpytest("--mjcheck-corpus", str(corpus), "--mjcheck-engine", "python:my_engine:score",
                                "--mjcheck-engine", "reference", "-v", "-k", "right")
    result.assert_outcomes(passed=2, deselected=6)
    result.stdout.fnmatch_lines(["*::right?python:my_engine:score? PASSED*", "*::right?reference? PASSED*"])


def test_a_cmd_engine_and_a_line_that_is_not_a_case(pytester):
    path = pytester.path / "c.jsonl"
    path.write_text(json.dumps(mcr_case(id="zero")) + "\n{not json\n", encoding="utf-8")
    engine = f'cmd:"{sys.executable} {EXAMPLE_ENGINE}"'  # answers every hand "valid, 0 points"
    result = pytester.runpytest("--mjcheck-corpus", str(path), "--mjcheck-engine", engine, "--mjcheck-timeout", "5")
    result.assert_outcomes(failed=1, errors=1)  # the line that is not a case: an error of the corpus
    out = result.stdout.str()
    assert "missing    mixed_triple_chow 8×1  (expected, not in the result)" in out
    assert "line 2: not a case (input.json)" in out


def test_an_unknown_engine_or_a_missing_corpus_or_option_is_a_usage_error(pytester, corpus):
    result = pytester.runpytest("--mjcheck-corpus", str(corpus), "--mjcheck-engine", "nonsense")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--mjcheck-engine nonsense: unknown engine*"])
    result = pytester.runpytest("--mjcheck-corpus", str(corpus))
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result = pytester.runpytest("--mjcheck-corpus", str(pytester.path / "missing.jsonl"),
                                "--mjcheck-engine", "reference")
    assert result.ret == pytest.ExitCode.INTERRUPTED  # a collection error, as for a test file that does not import
    result.stdout.fnmatch_lines(["*cannot read corpus*missing.j*No such file or directory*"])  # (a long path cut)


def test_under_xdist_an_unknown_engine_or_a_missing_corpus_is_said_not_lost(pytester, corpus):
    # the workers collect; their usage errors would reach the controller as "no tests ran" (exit 5), the message
    # lost: the controller checks the engines and corpora first
    result = pytester.runpytest_subprocess("-n", "2", "-p", "no:cacheprovider", "--mjcheck-corpus", str(corpus),
                                           "--mjcheck-engine", "python:no_such_module:score")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--mjcheck-engine python:no_such_module:score*no_such_module*"])
    result = pytester.runpytest_subprocess("-n", "2", "-p", "no:cacheprovider", "--mjcheck-corpus",
                                           str(pytester.path / "missing.jsonl"), "--mjcheck-engine", "reference")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*cannot read corpus*missing.j*No such file or directory*"])


def test_without_the_options_the_plugin_loads_nothing_of_mjcheck(pytester):
    # In a fresh interpreter: the plugin is loaded (entry point) but imports neither the engine nor jsonschema.
    pytester.makepyfile(test_inert='''
import sys

def test_inert(pytestconfig):
    assert pytestconfig.pluginmanager.has_plugin("mjcheck")
    assert not pytestconfig.pluginmanager.has_plugin("mjcheck-conformance")
    assert "jsonschema" not in sys.modules and "checker.case" not in sys.modules
''')
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)


def test_a_case_the_engine_skips_on_purpose_is_skipped_with_its_reason(pytester):
    path = pytester.path / "skips.jsonl"
    path.write_text("".join(json.dumps(mcr_case(id=name)) + "\n" for name in ("kept", "skip-me")), encoding="utf-8")
    pytester.makepyfile(skipper='''
def score(case):
    if case["id"] == "skip-me":
        return {"skip": "knitted hands are not modelled"}
    return dict(case["expect"])
''')
    pytester.syspathinsert()
    result = pytester.runpytest("--mjcheck-corpus", str(path), "--mjcheck-engine", "python:skipper:score", "-v", "-rs")
    result.assert_outcomes(passed=1, failed=1)  # undeclared: a case left unchecked
    assert "the engine skips it: knitted hands are not modelled; no `skips` entry" in result.stdout.str()
    known = pytester.path / "known.yaml"
    known.write_text("skips:\n  - {reason: 'knitted hands*', note: 'planned'}\n", encoding="utf-8")
    result = pytester.runpytest("--mjcheck-corpus", str(path), "--mjcheck-engine", "python:skipper:score", "-v", "-rs",
                                "--mjcheck-known", str(known))
    result.assert_outcomes(passed=1, skipped=1)
    assert "the engine skips it: knitted hands are not modelled (declared: skip knitted hands*" in result.stdout.str()


def test_a_known_file_makes_declared_failures_expected_by_signature_or_by_reading(pytester, corpus):
    """`wrong` answers self_drawn 2 and a made-up fan 2 (total 12 for 11): declared by its class's signature, it
    is an expected failure; `raises` errs, declared by its error's signature with `*` (readings:
    tests/test_conform_skips.py); a known file that is not one is a usage error."""
    known = pytester.path / "known.yaml"
    known.write_text("classes:\n"
                     "  - {signature: 'extra made_up 2; self_drawn 1×1 scored 2×1*', note: 'its own fan'}\n"
                     "  - {signature: 'errored: raised ZeroDivisionError*', note: 'a known crash'}\n",
                     encoding="utf-8")
    result = pytester.runpytest("--mjcheck-corpus", str(corpus), "--mjcheck-engine", "python:my_engine:score", "-v",
                                "-rsx", "--mjcheck-known", str(known))
    result.assert_outcomes(passed=1, xfailed=2, skipped=1)
    assert "(declared)" in result.stdout.str()
    bad = pytester.path / "bad.yaml"
    bad.write_text("nothing: []\n", encoding="utf-8")
    result = pytester.runpytest("--mjcheck-corpus", str(corpus), "--mjcheck-engine", "python:my_engine:score",
                                "--mjcheck-known", str(bad))
    assert result.ret == pytest.ExitCode.USAGE_ERROR


def test_an_engine_that_answers_a_case_twice_fails_no_later_case_and_the_session(pytester):
    """tests/adversarial_engine.py `duplicate` answers some cases right and then again (`second thoughts`): no
    later case may be judged on that stale answer (each passes), the cases answered twice are listed at the end
    and the session fails. The duplicated cases are those adversarial_engine.is_bad picks (ids whose code points
    sum to a multiple of 3): among the first nine MCR examples, mcr-guide-79, -eight-plus-flower and
    -eight-point-discard."""
    path = pytester.path / "nine.jsonl"
    path.write_text("".join(line + "\n" for line in MCR.read_text(encoding="utf-8").splitlines()[:9]), encoding="utf-8")
    engine = f'cmd:"{sys.executable} {ROOT / "tests" / "adversarial_engine.py"} duplicate"'
    result = pytester.runpytest("--mjcheck-corpus", str(path), "--mjcheck-engine", engine, "--mjcheck-timeout", "5")
    result.assert_outcomes(passed=9)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    out = result.stdout.str()
    for case in ("mcr-guide-79", "mcr-guide-eight-plus-flower", "mcr-guide-eight-point-discard"):
        assert f"nine.jsonl::{case}: the engine answered this case twice" in out
