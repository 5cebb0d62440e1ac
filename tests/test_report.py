"""Conformance reports: report.md, report.html and junit.xml from one results file, `mjcheck report DIR`,
the inferred profile, and report.html in a real headless browser (Debian's chromium driven by Playwright).

The engines under test are built to behave a known way: the example engine (every hand "valid, 0 points"),
and an engine that scores with the reference engine under one non-default reading (tile hog for honours)
whatever the case says, so its profile must name that reading. Expectations come from the corpus files.
"""
from __future__ import annotations

import importlib.util
import json
import os
import shutil
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any, Mapping

import pytest
from typer.testing import CliRunner

from checker.case import CaseRunner
from checker.cli import app
from checker.conform.adapters import EngineInfo, InProcessEngine
from checker.conform.html import PAGE_SIZE, tile_codes
from checker.draw import TILE_CODES
from checker.conform.runner import run_conformance

ROOT = Path(__file__).resolve().parents[1]
MCR = ROOT / "corpus" / "mcr.jsonl"
MCR_EXAMPLES = ROOT / "corpus" / "mcr-examples.jsonl"
EXAMPLE_ENGINE = ROOT / "examples" / "engine.py"
OUTPUTS = ("summary.json", "report.md", "report.html", "junit.xml")
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
cli = CliRunner()

_runner = CaseRunner()


def hog_engine(case: Mapping[str, Any]) -> Mapping[str, Any]:
    """An MCR engine that counts tile hog with honours (tile_hog_honors=true) whatever the case asks."""
    options = {**(case.get("options") or {}), "tile_hog_honors": True}
    return _runner.run({**case, "options": options})


def extra_fan_engine(case: Mapping[str, Any]) -> Mapping[str, Any]:
    """The reference answer with a fan the spec does not have on every valid hand; one case raises."""
    if case.get("id") == "mcr-guide-regular-discard":
        raise RuntimeError("on purpose")
    result = dict(_runner.run(case))
    if result.get("valid"):
        result["fans"] = [*result["fans"], {"id": "明暗杠", "points": 5, "count": 1}]
        result["total"] += 5
    return result


def cases(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def summary(out: Path) -> dict:
    return json.loads((out / "summary.json").read_text(encoding="utf-8"))


def contents(out: Path) -> dict[str, bytes]:
    return {name: (out / name).read_bytes() for name in OUTPUTS}


@pytest.fixture(scope="module")
def example_run(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("example")
    r = cli.invoke(app, ["conform", "--corpus", str(MCR), "--engine", f'cmd:"{sys.executable} {EXAMPLE_ENGINE}"',
                         "--out", str(out)])
    assert r.exit_code == 1, r.output
    return out


@pytest.fixture(scope="module")
def hog_run(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("hog")
    engine = InProcessEngine(hog_engine, EngineInfo("hog engine", "1", ("mcr",), ("score",)))
    run = run_conformance(str(MCR), engine, str(out), engine_spec="python:test_report:hog_engine")
    assert run.status == 1  # the cases that hold the default reading of tile hog fail
    return out


@pytest.fixture(scope="module")
def mixed_run(tmp_path_factory) -> Path:
    """MCR examples plus a case without expect, on an engine that adds an unknown fan and raises once."""
    out = tmp_path_factory.mktemp("mixed")
    corpus = out.parent / "mixed.jsonl"
    first = cases(MCR_EXAMPLES)[0]
    no_expect = {k: v for k, v in first.items() if k != "expect"} | {"id": "no-expect"}
    corpus.write_text(MCR_EXAMPLES.read_text(encoding="utf-8") + json.dumps(no_expect) + "\n", encoding="utf-8")
    engine = InProcessEngine(extra_fan_engine, EngineInfo("extra fan engine", "2", ("mcr",), ("score",)))
    run_conformance(str(corpus), engine, str(out), engine_spec="python:test_report:extra_fan_engine")
    return out


# ------------------------------------------------------------------ the three outputs

def test_conform_writes_markdown_html_and_junit(example_run):
    for name in OUTPUTS:
        assert (example_run / name).stat().st_size > 0, name
    html = (example_run / "report.html").read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and "Conformance: example engine 0.1" in html
    assert "<link" not in html and "src=" not in html and "http://" not in html and "https://" not in html
    assert 'id="filter-rule"' in html and 'id="filter-outcome"' in html and 'id="filter-option"' in html
    # 5p, the first case's winning tile: drawn as SVG, its symbol defined once and used by reference
    assert html.count('<symbol id="tile-5p"') == 1 and '<use href="#tile-5p"></use>' in html
    assert "<title>5 of dots (5p)</title>" in html
    md = (example_run / "report.md").read_text(encoding="utf-8")
    assert "## Profile: mcr" in md


def test_junit_counts_match_the_run(example_run):
    root = ET.parse(example_run / "junit.xml").getroot()
    assert root.tag == "testsuites"
    suites = [s for s in root.findall("./testsuite") if s.get("name") != "mjcheck conform: failure classes"]
    testcases = [t for s in suites for t in s.findall("testcase")]
    (classes,) = [s for s in root.findall("./testsuite") if s.get("name") == "mjcheck conform: failure classes"]
    n, k = len(cases(MCR)), len(summary(example_run)["classes"])
    assert len(testcases) == n and len(classes.findall("testcase")) == k and int(root.get("tests", "-1")) == n + k
    assert sum(len(s.findall("testcase/failure")) for s in suites) == n and int(root.get("failures", "-1")) == n + k
    assert root.get("errors") == "0" and root.get("skipped") == "0"
    first = testcases[0]
    # the name carries the case's context: won self-drawn, seat and round wind E
    assert first.get("name") == "mcr-guide-regular-self-draw (self_draw; E/E)"
    assert first.get("classname") == "mjcheck.conform.mcr"
    body = first.find("failure").text or ""
    assert "missing: mixed_triple_chow 8×1" in body
    assert "the case: hand 2p3p4p2s3s4s6m6m6m5p; chow 2m3m4m (from seat 3 (previous)); wins on 5p self-drawn" in body


def test_junit_has_failure_error_and_skipped(mixed_run):
    root = ET.parse(mixed_run / "junit.xml").getroot()
    got = summary(mixed_run)["counts"]
    assert got["errored"] == 1 and got["skipped"] == 1 and got["failed"] >= 1
    k = len(summary(mixed_run)["classes"])  # one testcase per failure class besides the cases
    assert int(root.get("tests", "-1")) == got["total"] + k
    assert len(root.findall(".//testcase/failure")) == got["failed"] + k == int(root.get("failures", "-1"))
    assert len(root.findall(".//testcase/error")) == 1 == int(root.get("errors", "-1"))
    assert len(root.findall(".//testcase/skipped")) == 1 == int(root.get("skipped", "-1"))
    error = root.find(".//testcase[@name='mcr-guide-regular-discard (discard from 1; E/E)']/error")
    assert error is not None and "on purpose" in (error.get("message") or "")
    assert "wins on 5p on a discard from seat 1 (next)" in (error.text or "")


# ------------------------------------------------------------------ the profile

def test_profile_names_the_reading_the_engine_follows(hog_run):
    profile = summary(hog_run)["profile"]["mcr"]
    hog = profile["options"]["tile_hog_honors"]
    assert hog["verdict"] == "true" and hog["default"] == "false"
    assert hog["agree"]["true"] > 0 and hog["agree"]["false"] == 0
    for option_id, entry in profile["options"].items():  # every other reading it shows is the default
        if option_id == "tile_hog_honors":
            continue
        assert entry["verdict"] in (entry["default"], "no evidence", "follows the case's options"), option_id
    assert profile["fans_outside_spec"] == {}
    by_option = summary(hog_run)["failures"]["by_option"]
    assert list(by_option) == ["tile_hog_honors=true"]
    assert len(by_option["tile_hog_honors=true"]) == summary(hog_run)["counts"]["failed"]
    md = (hog_run / "report.md").read_text(encoding="utf-8")
    assert "| tile_hog_honors | true (not the default) |" in md
    assert "## Failures explained by an option" in md
    html = (hog_run / "report.html").read_text(encoding="utf-8")
    assert "explained: tile_hog_honors=true" in html


def test_profile_lists_fans_outside_the_spec(mixed_run):
    fans = summary(mixed_run)["profile"]["mcr"]["fans_outside_spec"]
    assert list(fans) == ["明暗杠"] and fans["明暗杠"]["cases"] > 0
    assert "明暗杠" in (mixed_run / "report.md").read_text(encoding="utf-8")
    assert "明暗杠" in (mixed_run / "report.html").read_text(encoding="utf-8")


def test_the_example_engine_follows_no_reading(example_run):
    options = summary(example_run)["profile"]["mcr"]["options"]
    assert options["tile_hog_honors"]["verdict"] == "neither"


def test_rescoring_is_capped_per_option(hog_run):
    from checker.conform.profile import infer_profile
    from checker.conform.results import read_results

    results = read_results(str(hog_run / "results.jsonl"))
    profile, _ = infer_profile(results, cap=3)
    assert {o["rescored"] for o in profile["mcr"]["options"].values()} == {3}
    assert infer_profile([]) == ({}, {})


# ------------------------------------------------------------------ mjcheck report DIR

@pytest.mark.parametrize("run", ["example_run", "hog_run", "mixed_run"])
def test_report_rebuilds_byte_identical_files(run, request, tmp_path):
    source: Path = request.getfixturevalue(run)
    copy = tmp_path / "copy"
    shutil.copytree(source, copy)
    for name in OUTPUTS[1:]:
        (copy / name).unlink()
    r = cli.invoke(app, ["report", str(copy)])
    assert r.exit_code == 0, r.output
    assert "reports rebuilt" in r.output
    assert contents(copy) == contents(source)


def test_report_without_results_is_bad_input(tmp_path):
    r = cli.invoke(app, ["report", str(tmp_path)])
    assert r.exit_code == 2 and "results.jsonl" in r.output


def test_tile_strings_become_one_character_a_tile():
    # 1m is tile 0, 9p tile 17 (9 + 8), 5z tile 31 (27 + 4), 1f tile 34: TILE_CODES's characters at those places
    assert tile_codes("1m9p5z1f") == TILE_CODES[0] + TILE_CODES[17] + TILE_CODES[31] + TILE_CODES[34] == "arFI"
    assert tile_codes("not tiles") is None and tile_codes("") is None


# ------------------------------------------------------------------ report.html in a headless browser

def _browser_missing() -> str | None:
    if not (os.path.exists(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        return f"{CHROMIUM} is not installed (apt-get install chromium)"
    if importlib.util.find_spec("playwright") is None:
        return "playwright is not installed (pip install '.[test]')"
    return None


@pytest.mark.skipif(_browser_missing() is not None, reason=str(_browser_missing()))
def test_report_html_in_a_headless_browser(hog_run):
    from playwright.sync_api import sync_playwright

    problems: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
            page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
            page.on("request", lambda r: problems.append(f"request: {r.url}") if not r.url.startswith("file:") else None)
            page.goto((hog_run / "report.html").as_uri())
            page.wait_for_load_state("load")
            total = summary(hog_run)["counts"]["total"]
            failed = summary(hog_run)["counts"]["failed"]

            def visible() -> int:
                return page.locator("#cases .case:visible").count()

            def shown() -> int:
                return int(page.inner_text("#shown"))

            # a page of PAGE_SIZE cases at a time; #shown counts every case the filters keep
            assert visible() == min(total, PAGE_SIZE) and shown() == total
            page.select_option("#filter-outcome", "failed")
            assert visible() == min(failed, PAGE_SIZE) and shown() == failed
            assert page.locator("#cases .case.passed:visible").count() == 0
            failing = page.locator("#cases .case.failed:visible").first
            assert failing.locator("table.fans.expected").count() == 1
            assert failing.locator("table.fans.actual").count() == 1
            page.select_option("#filter-outcome", "")
            page.select_option("#filter-rule", "mcr.fan.all_honors")
            by_rule = shown()
            assert 0 < by_rule < total
            page.select_option("#filter-rule", "")
            page.select_option("#filter-option", "explained: tile_hog_honors=true")
            assert shown() == failed
            page.select_option("#filter-option", "")
            page.click("button[data-set-rule]")  # a rule of the failures table sets the rule filter
            assert page.eval_on_selector("#filter-rule", "e => e.value") != "" and shown() < total
            tile = page.locator("#cases .case:visible .tile-row svg.tile").first
            box = tile.bounding_box()
            assert box is not None and box["width"] > 5 and box["height"] > 5
            assert tile.locator("title").text_content().endswith(")")  # "5 of dots (5p)"
        finally:
            browser.close()
    assert problems == []


def test_the_profile_table_stays_one_table_when_its_options_were_sampled():
    """Past MAX rescored cases an option is re-scored on a sample; the note saying so comes before the table,
    never between its header and its rows (Markdown would end the table there)."""
    from checker.conform.report import profile_lines

    profile = {"mcr": {"cases": 5000, "fans_outside_spec": {}, "options": {
        "tile_hog_honors": {"default": False, "verdict": "false", "agree": {"false": 3}, "neither": 0,
                            "distinguishing": 3, "rescored": 2000, "evidence": 3, "set_by_case": 0}}}}
    lines = profile_lines(profile)
    header = next(i for i, line in enumerate(lines) if line.startswith("| option |"))
    assert lines[header + 1].startswith("|---") and lines[header + 2].startswith("| tile_hog_honors |")
    note = next(i for i, line in enumerate(lines) if line.startswith("Each option was re-scored on at most 2,000"))
    assert note < header


def test_every_per_case_output_carries_the_cases_context(mixed_run):
    """report.md's failed and errored cases name the hand and its context in words (the way of winning, the
    discarder, the winds, flags, flowers, counters and options), as a class's witness does."""
    md = (mixed_run / "report.md").read_text(encoding="utf-8")
    failed = md.split("## Failed cases", 1)[1]
    assert "the case: hand 2p3p4p2s3s4s6m6m6m5p; chow 2m3m4m (from seat 3 (previous)); wins on 5p self-drawn; " \
           "seat wind E, round wind E" in failed
    errored = md.split("## Errored cases", 1)[1].split("\n## ", 1)[0]
    assert "| case | the case | reason |" in errored and "wins on 5p on a discard from seat 1 (next)" in errored


def test_a_failed_hand_of_play_shows_what_the_engine_said(tmp_path):
    """A procedure engine that answers every hand `illegal` with a message of its own: report.md's failed case
    says the engine's words beside the diff (the message is never compared)."""
    from checker.conform import run_conformance
    from checker.conform.adapters import EngineInfo, InProcessEngine

    corpus = ROOT / "corpus" / "mcr-procedure.jsonl"

    def judge(case):
        return {"verdict": "illegal", "rule": "procedure.claims", "event": 0, "message": "seat 0 may not draw first"}

    run_conformance(str(corpus), InProcessEngine(judge, EngineInfo("judge", "1", ("mcr",), ("procedure",))),
                    str(tmp_path / "out"))
    md = (tmp_path / "out" / "report.md").read_text(encoding="utf-8")
    assert "- the engine said: seat 0 may not draw first" in md.split("## Failed cases", 1)[1]


def test_report_refuses_a_folder_a_run_is_writing_and_exits_3_over_a_partial_run(tmp_path):
    # conform holds DIR/.mjcheck.lock while it writes; report takes the same lock, so it never rebuilds beside a
    # run (exit 2, naming the holder). A results file with a case missing (its line cut off) is rebuilt, but the
    # rebuild says it is partial and exits 3.
    import fcntl
    import os

    from typer.testing import CliRunner

    from checker.cli import app
    from checker.conform.outputs import LOCK_FILE

    out = tmp_path / "run"
    r = CliRunner().invoke(app, ["conform", "--corpus", str(ROOT / "corpus" / "shanghai-knocking.jsonl"),
                                 "--engine", "reference", "--out", str(out), "--no-diagnose"])
    assert r.exit_code == 0, r.output
    fd = os.open(out / LOCK_FILE, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # another process's run, as the lock sees it
        os.write(fd, b"4242")
        r = CliRunner().invoke(app, ["report", str(out)])
        assert r.exit_code == 2 and "another run is writing there" in r.output and "4242" in r.output, r.output
    finally:
        os.close(fd)
    lines = (out / "results.jsonl").read_bytes().splitlines(keepends=True)
    (out / "results.jsonl").write_bytes(b"".join(lines[:-1]))  # the last case's result gone
    r = CliRunner().invoke(app, ["report", str(out)])
    assert r.exit_code == 3 and "1 case(s) without a result" in r.output, r.output
