"""report.html at scale: page size, first paint and filter changes for a run of many cases, in headless Chromium.

    python benchmarks/report_html.py [--cases 100000] [--rounds 3] [--keep DIR]

Builds a synthetic results set of --cases cases (corpus/mcr.jsonl's cases repeated with distinct ids and lines;
an engine's answers made up without running one: most cases pass, about 8% fail with a fan dropped or added, 2%
error, 2% are skipped, every tenth sets an option), its summary (failure classes by signature, a made-up cause
for the largest classes; no profile: that needs re-scoring, which this does not measure), writes report.html
with `checker.conform.html.html_report`, and opens it in Debian's chromium (/usr/bin/chromium) through
Playwright, at 1280 and 390 pixels wide. It prints the page's size, the time to write it, and per width the
median over --rounds loads of: first contentful paint, the script ready (the case data parsed, the filters
filled: the `report-ready` mark), and the load event; then the time from a filter change (each filter alone, two
combined, clearing them, a page turn) to the next frame after the list is drawn again. The issue's targets, for
100,000 cases: first paint within 1 s, a filter change within 200 ms. Not a test: it prints, it does not assert.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from checker.case import fans_of, readings_of
from checker.conform.html import html_report
from checker.conform.results import OUTCOMES, CaseResult
from checker.diagnose import diagnose
from checker.diagnose.diff import diff

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def synthetic_results(n: int) -> list[CaseResult]:
    """n results: the MCR corpus's cases again and again, each with a made-up answer."""
    corpus = [json.loads(line) for line in (ROOT / "corpus" / "mcr.jsonl").read_text(encoding="utf-8").splitlines()
              if line.strip()]
    scored = [c for c in corpus if readings_of(c.get("expect")) and fans_of(readings_of(c["expect"])[0])]
    results = []
    for i in range(n):
        base = scored[i % len(scored)]
        case = {**base, "id": f"{base['id']}-{i:06d}"}
        if i % 10 == 3:
            case["options"] = {"tile_hog_honors": True}
        expect = readings_of(case["expect"])[0]
        fans = fans_of(expect)
        slot = i % 50
        if slot < 4:  # a fan dropped
            dropped = fans[(i // 50) % len(fans)]
            actual = {**expect, "fans": [f for f in fans if f is not dropped],
                      "total": expect.get("total", 0) - dropped.get("points", 0) * dropped.get("count", 1)}
            results.append(CaseResult(case["id"], i + 1, "failed", actual, None, case))
        elif slot < 5:  # a fan added
            actual = {**expect, "fans": [*fans, {"id": "tile_hog", "points": 2, "count": 1}],
                      "total": expect.get("total", 0) + 2}
            results.append(CaseResult(case["id"], i + 1, "failed", actual, None, case))
        elif slot == 5:
            results.append(CaseResult(case["id"], i + 1, "errored", None,
                                      f"the engine crashed (exit status {1 + i % 3})", case))
        elif slot == 6:
            results.append(CaseResult(case["id"], i + 1, "skipped", None, "the engine does not run kind score", case))
        else:
            results.append(CaseResult(case["id"], i + 1, "passed", expect, None, case))
    return results


def synthetic_summary(results: list[CaseResult]) -> dict[str, Any]:
    """The summary's counts, failures by rule and by fan, and failure classes (a made-up cause for the largest
    ten; the rest not searched), as checker.conform.report.summarize lays them out."""
    counts = {o: sum(1 for r in results if r.outcome == o) for o in OUTCOMES}
    by_rule: dict[str, list[str]] = {}
    by_fan: dict[str, dict[str, Any]] = {}
    for r in results:
        if r.outcome != "failed":
            continue
        name = f"{r.id} (line {r.line})"
        for rule in r.covers:
            by_rule.setdefault(rule, []).append(name)
        found = diff(r.expected, r.actual)
        for how, fans in (("missing", found.missing), ("extra", found.extra)):
            for fan in fans:
                entry = by_fan.setdefault(str(fan.get("id")), {"missing": 0, "extra": 0, "different": 0, "cases": []})
                entry[how] += 1
                entry["cases"].append(name)
    classes = diagnose(results, search=False)
    for c in classes[:10]:
        part: str | None = next((str(p["fan"]) for p in c["parts"] if "fan" in p), None)
        if part is not None:
            c["cause"] = {"explained_by": [{"kind": "spec edit", "id": f"points:{part}=0", "words": f"{part} scores 0",
                                            "rules": [], "explains": c["count"], "of": c["count"],
                                            "passing_checked": 0}], "verdict": f"{part} scores 0"}
    return {"engine": {"name": "synthetic", "version": "1"}, "engine_spec": "synthetic", "corpus": "synthetic",
            "partial": False, "counts": {**counts, "missing": 0, "damaged": 0, "total": len(results)},
            "classes": classes, "failures": {"by_rule": by_rule, "by_fan": by_fan, "by_field": {}, "by_option": {}},
            "errored": [], "skipped": {}, "profile": {}}


CHANGE = """async ([id, value]) => {
  const select = document.getElementById(id);
  const t0 = performance.now();
  select.value = value;
  select.dispatchEvent(new Event("change"));
  await new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
  return performance.now() - t0;
}"""
TURN = """async () => {
  const t0 = performance.now();
  document.getElementById("next").click();
  await new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
  return performance.now() - t0;
}"""
TIMES = """() => ({
  paint: (performance.getEntriesByName("first-contentful-paint")[0] || {}).startTime,
  ready: (performance.getEntriesByName("report-ready")[0] || {}).startTime,
  load: performance.getEntriesByType("navigation")[0].loadEventEnd,
})"""


def measure(page_file: Path, rounds: int) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for width in (1280, 390):
                loads = []
                for _ in range(rounds):
                    page = browser.new_page(viewport={"width": width, "height": 900})
                    page.goto(page_file.as_uri())
                    page.wait_for_selector("html[data-ready]")
                    page.wait_for_timeout(100)  # the paint entries are recorded after the frame
                    loads.append(page.evaluate(TIMES))
                    page.close()
                med = {k: statistics.median(x[k] for x in loads) for k in ("paint", "ready", "load")}
                print(f"width {width}: first contentful paint {med['paint']:.0f} ms, script ready {med['ready']:.0f} ms, "
                      f"load event {med['load']:.0f} ms (median of {rounds})")
                page = browser.new_page(viewport={"width": width, "height": 900})
                page.goto(page_file.as_uri())
                page.wait_for_selector("html[data-ready]")

                def first_value(select: str, skip: int = 0) -> str:
                    return page.eval_on_selector(f"#{select}", f"e => e.options[{1 + skip}].value")

                steps = [("fan", "filter-fan", first_value("filter-fan")),
                         ("outcome", "filter-outcome", "failed"),
                         ("class (with the two above)", "filter-class", first_value("filter-class")),
                         ("clear class", "filter-class", ""), ("clear outcome", "filter-outcome", ""),
                         ("clear fan", "filter-fan", ""),
                         ("rule", "filter-rule", first_value("filter-rule")), ("clear rule", "filter-rule", ""),
                         ("option", "filter-option", first_value("filter-option")),
                         ("clear option", "filter-option", ""),
                         ("cause", "filter-cause", first_value("filter-cause")), ("clear cause", "filter-cause", "")]
                for label, select, value in steps:
                    page.wait_for_timeout(300)  # as a person would: the URL written after the last change
                    took = page.evaluate(CHANGE, [select, value])
                    print(f"  filter change, {label}: {took:.0f} ms ({page.inner_text('#shown')} cases match)")
                page.wait_for_timeout(300)
                print(f"  page turn: {page.evaluate(TURN):.0f} ms")
                page.close()
        finally:
            browser.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--keep", type=Path, help="write report.html in this directory (kept)")
    args = parser.parse_args()
    t0 = time.perf_counter()
    results = synthetic_results(args.cases)
    summary = synthetic_summary(results)
    t1 = time.perf_counter()
    text = html_report(summary, results)
    t2 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        out = args.keep or Path(tmp)
        out.mkdir(parents=True, exist_ok=True)
        page_file = out / "report.html"
        page_file.write_text(text, encoding="utf-8")
        size = page_file.stat().st_size
        print(f"{args.cases:,} cases ({summary['counts']['failed']:,} failed, {len(summary['classes'])} classes): "
              f"results and summary made in {t1 - t0:.1f} s, report.html written in {t2 - t1:.1f} s, "
              f"{size:,} bytes ({size / args.cases:.0f} a case)")
        measure(page_file, args.rounds)
    print(f"(load average {' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
