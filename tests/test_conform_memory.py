"""Reports made with memory flat in the run's size (issue 28, item 4): the summary, report.md, report.html and
junit.xml are made from DIR/results.jsonl read again at each pass, one result at a time, never from all results
held at once.

What each test expects is worked out from the results file it wrote (read here with plain loops), or from the
functions that held every result (`checker.diagnose.classes_of`, `CauseSearch` over a list), never from the
streamed path it checks.
"""
from __future__ import annotations

import gc
import json
import random
import re
import shutil
import tracemalloc
from collections import Counter
from pathlib import Path
from typing import Any, Mapping

import pytest
from conftest import browser_test, no_sideways_scroll, opened

from checker.case import CaseRunner
from checker.conform.adapters import EngineInfo, InProcessEngine
from checker.conform.outputs import rebuild
from checker.conform.results import CaseResult, ResultsWriter, checked_line, read_results, read_results_file
from checker.conform.runner import run_conformance
from checker.conform.stream import ResultStream
from checker.files import OwnedFileError
from checker.inputs import json_line

ROOT = Path(__file__).resolve().parents[1]
MCR = ROOT / "corpus" / "mcr.jsonl"
MCR_CASES = sum(1 for line in MCR.read_text(encoding="utf-8").splitlines() if line.strip())
OUTPUTS = ("summary.json", "report.md", "report.html", "junit.xml")
_runner = CaseRunner()


def corpus_cases() -> list[dict[str, Any]]:
    return [json.loads(line) for line in MCR.read_text(encoding="utf-8").splitlines() if line.strip()]


def departing_engine(case: Mapping[str, Any]) -> Mapping[str, Any]:
    """The reference answer, its total one more when it scores all_simples (those cases fail, one class); raises
    on every case won by robbing a kong (errored, another class)."""
    if case["input"].get("win_by") == "robbing_kong":
        raise RuntimeError("robbing a kong is not supported")
    result = dict(_runner.run(case))
    if any(f["id"] == "all_simples" for f in result.get("fans") or []):
        result["total"] += 1
    return result


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("memory") / "run"
    run_conformance(str(MCR), InProcessEngine(departing_engine, EngineInfo("departing", "1")), str(out))
    return out


def written(out: Path) -> list[dict[str, Any]]:
    """The result lines of a results file, as written (after the header)."""
    return [json.loads(line) for line in (out / "results.jsonl").read_text(encoding="utf-8").splitlines()[1:]]


def copy_run(run: Path, to: Path) -> Path:
    shutil.copytree(run, to)
    return to


# ------------------------------------------------------------------ results read again, in corpus order

def test_a_shuffled_results_file_with_stale_answers_gives_the_same_reports(run, tmp_path, monkeypatch):
    """A results file whose lines are out of corpus order (a cmd: engine answers within its window) and holds
    earlier answers of some cases (an engine that answered twice: the later counts) is read in corpus order, one
    result per case, sorted on disk in runs of 7 keys here: every report is the same, byte for byte."""
    monkeypatch.setattr("checker.conform.stream.SORT_RUN", 7)
    ordered = copy_run(run, tmp_path / "ordered")
    shuffled = copy_run(run, tmp_path / "shuffled")
    header, *lines = (run / "results.jsonl").read_bytes().splitlines(keepends=True)
    rng = random.Random(28)
    stale = []
    for raw in rng.sample(lines, 20):  # an earlier answer of the case, of another outcome, written before it
        data = json.loads(raw)
        del data["sum"]
        data["outcome"], data["actual"] = ("failed" if data["outcome"] == "passed" else "passed"), {"total": -1}
        stale.append(checked_line(json_line(data)))
    order = lines + stale
    rng.shuffle(order)
    for line in stale:  # each stale answer before the case's own line
        own = next(raw for raw in lines if json.loads(raw)["line"] == json.loads(line)["line"])
        order.remove(line)
        order.insert(order.index(own), line)
    (shuffled / "results.jsonl").write_bytes(header + b"".join(order))
    for out in (ordered, shuffled):
        rebuild(str(out))
    for name in OUTPUTS:
        assert (shuffled / name).read_bytes() == (ordered / name).read_bytes(), name
    # the stream itself: the last line written for each (id, line), by line then id
    last: dict[tuple[Any, int], dict[str, Any]] = {}
    for raw in order:
        data = json.loads(raw)
        last[(data["id"], data["line"])] = data
    expected = sorted(last.values(), key=lambda d: (d["line"], d["id"] or ""))
    with ResultStream(str(shuffled / "results.jsonl")) as stream:
        assert len(stream) == len(lines) == MCR_CASES
        got = [(r.id, r.line, r.outcome) for r in stream]
        assert got == [(d["id"], d["line"], d["outcome"]) for d in expected]
        assert got == [(r.id, r.line, r.outcome) for r in stream]  # read again: the same


def test_a_results_file_replaced_between_passes_is_refused(run, tmp_path):
    out = copy_run(run, tmp_path / "out")
    stream = ResultStream(str(out / "results.jsonl"))
    assert len(stream) == MCR_CASES and stream.run is not None and stream.damaged == 0
    (out / "other.jsonl").write_bytes((out / "results.jsonl").read_bytes())
    (out / "other.jsonl").replace(out / "results.jsonl")
    with pytest.raises(OwnedFileError, match="replaced"):
        next(iter(stream))
    assert len(ResultStream(str(tmp_path / "none.jsonl"))) == 0  # no file: no results


# ------------------------------------------------------------------ bounded lists in the summary

def test_lists_of_case_names_are_cut_with_their_totals_said(run, tmp_path, monkeypatch):
    monkeypatch.setattr("checker.conform.report.MAX_LISTED", 3)
    out = copy_run(run, tmp_path / "out")
    rebuild(str(out))
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    lines = written(out)
    failed = [d for d in lines if d["outcome"] == "failed"]
    errored = [d for d in lines if d["outcome"] == "errored"]
    name = lambda d: f"{d['id']} (line {d['line']})"  # noqa: E731
    by_rule = Counter(rule for d in failed for rule in d["case"].get("covers") or [])
    # every failed case departs by its total alone (the engine adds one to it): no fan differs
    assert summary["failures"]["by_fan"] == {} and summary["failures"]["by_field"] == {"total": len(failed)}
    rule = "mcr.fan.all_simples"
    assert by_rule[rule] > 3
    assert summary["failures"]["by_rule"][rule] == [name(d) for d in failed if rule in d["case"]["covers"]][:3]
    cut = summary["failures"]["cut"]
    assert cut["at_most"] == 3 and cut["by_rule"] == {r: n for r, n in sorted(by_rule.items()) if n > 3}
    assert list(summary["failures"]["by_rule"]) == sorted(by_rule, key=lambda r: (-by_rule[r], r))
    assert len(errored) > 3 and summary["counts"]["errored"] == len(errored)
    assert [{k: e[k] for k in ("id", "line", "reason")} for e in summary["errored"]] == \
        [{"id": d["id"], "line": d["line"], "reason": d["reason"]} for d in errored[:3]]
    assert all(e["words"].startswith("hand ") for e in summary["errored"])  # each with the case in words
    report = (out / "report.md").read_text(encoding="utf-8")
    first = ", ".join([name(d) for d in failed if rule in d["case"]["covers"]][:3])
    assert f"| {rule} | {by_rule[rule]}: {first}{' …' if by_rule[rule] > 10 else ''} |" in report
    assert f"… {len(errored) - 3} more errored cases: results.jsonl holds them all." in report
    assert "Each list above names at most 3 cases" in report
    page = (out / "report.html").read_text(encoding="utf-8")
    assert f'data-set-rule="{rule}">{rule}</button></td><td>{by_rule[rule]}</td>' in page


# ------------------------------------------------------------------ diagnosis on a bounded sample

def test_diagnosis_streamed_is_the_search_over_every_case_while_classes_are_small(run):
    """Classes of at most MAX_MEMBERS_SEARCHED cases keep them all: the classes and causes are those of the
    search that held every result (classes_of and a CauseSearch over the whole list)."""
    from checker.diagnose import MAX_CLASSES_SEARCHED, MAX_MEMBERS_SEARCHED, CauseSearch, class_json, classes_of, diagnose

    results = read_results(str(run / "results.jsonl"))
    found = classes_of(results)
    assert len(found) == 2 and all(len(c.members) <= MAX_MEMBERS_SEARCHED for c in found)
    searcher = CauseSearch(results)
    causes = searcher.explain_all(found[:MAX_CLASSES_SEARCHED])
    assert diagnose(results) == [class_json(c, cause, searcher) for c, cause in zip(found, causes)]
    with ResultStream(str(run / "results.jsonl")) as stream:
        assert diagnose(stream) == diagnose(results)


def no_flowers_engine(case: Mapping[str, Any]) -> Mapping[str, Any]:
    """The reference answer without its flower_tiles fan (its points taken off the total): every case that wins
    with flowers fails alike, one class ("missing flower_tiles 1")."""
    result = dict(_runner.run(case))
    flowers = [f for f in result.get("fans") or [] if f["id"] == "flower_tiles"]
    if flowers:
        result["fans"] = [f for f in result["fans"] if f["id"] != "flower_tiles"]
        result["total"] -= sum(f["points"] * f["count"] for f in flowers)
    return result


def test_a_large_class_is_searched_on_its_first_cases_and_a_spread_sample(tmp_path, monkeypatch):
    from checker.diagnose import MAX_MEMBERS_SEARCHED, classes_of
    from checker.diagnose.causes import MAX_MEMBERS_SCREENED

    bound = MAX_MEMBERS_SCREENED + 5  # the 40 first in witness order, then every k-th case of the class
    monkeypatch.setattr("checker.diagnose.sample.MAX_MEMBERS_SEARCHED", bound)
    assert bound < MAX_MEMBERS_SEARCHED
    out = tmp_path / "out"
    run_conformance(str(MCR), InProcessEngine(no_flowers_engine, EngineInfo("no flowers", "1")), str(out))
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    whole = classes_of(read_results(str(out / "results.jsonl")))
    big = whole[0]
    count = sum(1 for d in written(out) if d["outcome"] == "failed")  # one class: flower_tiles missing
    assert len(whole) == 1 and len(big.members) == count > bound
    c = summary["classes"][0]
    assert c["count"] == count and c["searched_cases"] <= bound
    assert c["cases"] == [f"{r.id} (line {r.line})" for r in big.members[:20]]  # the first in witness order
    assert (c["witness"]["id"], c["witness"]["line"]) == (big.witness.id, big.witness.line)
    for e in c["cause"]["explained_by"]:
        assert e["of"] == c["searched_cases"]
    report = (out / "report.md").read_text(encoding="utf-8")
    assert f"- cause searched on {c['searched_cases']} of its {count} cases" in report
    assert f"cause searched on {c['searched_cases']} of its {count} cases" in \
        (out / "report.html").read_text(encoding="utf-8")


# ------------------------------------------------------------------ report.html of a huge run

def page_data(out: Path) -> dict[str, Any]:
    html = (out / "report.html").read_text(encoding="utf-8")
    found = re.search(r'<script type="application/json" id="case-data">(.*?)</script>', html, re.S)
    assert found is not None
    return json.loads(found.group(1))


@pytest.fixture(scope="module")
def huge(run, tmp_path_factory) -> Path:
    """The run's reports as a run of more than HTML_ALL_CASES cases has them (the limit set to 100 here)."""
    out = tmp_path_factory.mktemp("huge") / "run"
    shutil.copytree(run, out)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("checker.conform.html.HTML_ALL_CASES", 100)
        rebuild(str(out))
    return out


def test_a_huge_run_puts_every_failing_case_on_the_page_and_counts_the_rest(huge):
    lines = written(huge)
    failing = [(d["id"], d["line"]) for d in lines if d["outcome"] in ("failed", "errored")]
    passed = sum(1 for d in lines if d["outcome"] == "passed")
    assert 0 < len(failing) < len(lines) == MCR_CASES
    data = page_data(huge)
    assert [(c[0], c[1]) for c in data["cases"]] == failing
    assert sum(data["counts"]["outcome"]) == len(failing)
    html = (huge / "report.html").read_text(encoding="utf-8")
    assert (f"The run has {MCR_CASES} cases, more than 100: this page lists its {len(failing)} failed and errored cases; "
            f"its {passed} passed and 0 skipped cases are counted above") in html


@browser_test
def test_every_failing_case_of_a_huge_run_is_reachable_in_the_browser(huge, browser):
    lines = written(huge)
    failing = [f"{d['id']} (line {d['line']})" for d in lines if d["outcome"] in ("failed", "errored")]
    with opened(browser, huge / "report.html", 390) as page:
        page.wait_for_selector("html[data-ready]")
        assert int(page.inner_text("#shown")) == len(failing)
        seen: list[str] = []
        while True:
            seen += page.eval_on_selector_all("#cases .case h3", "hs => hs.map(h => h.textContent)")
            if page.is_disabled("#next"):
                break
            page.click("#next")
        assert len(seen) == len(failing) and all(name in heading for name, heading in zip(failing, seen))
        page.select_option("#filter-outcome", "errored")
        assert int(page.inner_text("#shown")) == sum(1 for d in lines if d["outcome"] == "errored")
        no_sideways_scroll(page)


# ------------------------------------------------------------------ memory

def synthetic_results(path: Path, size: int) -> None:
    """`size` results of corpus/mcr.jsonl's cases repeated with fresh ids: passed (the answer the expect), one in
    ten failed (its total one more), one in 37 errored."""
    cases = corpus_cases()
    run = {"corpus": "synthetic", "corpus_sha256": None, "corpus_cases": size, "engine_spec": "synthetic",
           "engine": {"name": "synthetic", "version": "1", "rulesets": None, "kinds": None}}
    path.parent.mkdir(parents=True, exist_ok=True)
    with ResultsWriter(str(path), False, run) as writer:
        for i in range(size):
            case = {**cases[i % len(cases)], "id": f"case-{i}"}
            expect = case["expect"]
            if i % 37 == 5:
                writer.write(CaseResult(case["id"], i + 1, "errored", None, "raised RuntimeError", case))
            elif i % 10 == 3 and isinstance(expect.get("total"), int):
                writer.write(CaseResult(case["id"], i + 1, "failed", {**expect, "total": expect["total"] + 1},
                                        None, case))
            else:
                writer.write(CaseResult(case["id"], i + 1, "passed", expect, None, case))


def test_the_reports_hold_no_more_for_ten_times_the_results(tmp_path):
    """Every report of 10,000 results is made in about the memory of 2,000 results' (Python's own allocations,
    tracemalloc): the 8,000 more cost less than a tenth of what holding the 10,000 takes (measured here: the file
    read into a list). 2,000 results hold more than the 1,000 passing cases the cause search keeps a ruleset, so
    that bounded sample is full in both runs. Left out, as they do not grow with the run: the cause search's own work (its scorers of
    edited specs; no class is searched here) and the profile's re-scoring (at most 20 cases an option here, a
    bound both runs reach, so that what grows between them is only what grows with the run). Measured in a
    process of its own (spawned), so that what earlier tests of the same worker left in the caches cannot make
    one run grow more than the other."""
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing import get_context

    with ProcessPoolExecutor(max_workers=1, mp_context=get_context("spawn")) as apart:
        peaks, holding = apart.submit(measured_peaks, str(tmp_path)).result()
    assert holding > 30 * 2**20  # 10,000 results of about 4 KB each
    assert peaks[10_000] - peaks[2_000] < holding / 10, (peaks, holding)


def measured_peaks(tmp: str) -> tuple[dict[int, int], int]:
    """The peaks of making every report of 2,000 and of 10,000 results, and the memory of holding 10,000 (see the
    test above; run in a fresh process)."""
    import checker.conform.profile
    import checker.diagnose.causes

    checker.conform.profile.MAX_CASES_PER_OPTION = 20
    checker.diagnose.causes.EFFORT = 0
    checker.diagnose.causes.EFFORT_PER_CASE = 0
    tmp_path = Path(tmp)
    for size in (100, 2_000, 10_000):
        synthetic_results(tmp_path / str(size) / "results.jsonl", size)
    rebuild(str(tmp_path / "100"))  # the specs, scorers and templates loaded before anything is measured
    peaks: dict[int, int] = {}
    tracemalloc.start()
    try:
        for size in (2_000, 10_000):
            gc.collect()
            tracemalloc.reset_peak()
            before = tracemalloc.get_traced_memory()[0]
            summary = rebuild(str(tmp_path / str(size)))
            peaks[size] = tracemalloc.get_traced_memory()[1] - before
            failed = sum(1 for d in written(tmp_path / str(size)) if d["outcome"] == "failed")
            assert summary["counts"]["total"] == size and summary["counts"]["failed"] == failed > 0
            assert all(c["cause"]["verdict"].startswith("not searched") for c in summary["classes"])
        gc.collect()
        tracemalloc.reset_peak()
        before = tracemalloc.get_traced_memory()[0]
        held = read_results_file(str(tmp_path / "10000" / "results.jsonl"))
        holding = tracemalloc.get_traced_memory()[1] - before
        assert len(held.results) == 10_000
    finally:
        tracemalloc.stop()
    return peaks, holding
