"""Writing a conformance run's outputs, and `rebuild` (for `mjcheck report DIR`) from the results alone.

`DIR/summary.json`, `DIR/report.md`, `DIR/report.html` and `DIR/junit.xml` are all made from the result lines
of `DIR/results.jsonl` (and the run's engine and corpus, kept in summary.json), so rebuilding them without
running the engine gives the same bytes. Each file is replaced whole (written aside, then renamed).
"""
from __future__ import annotations

import json
import os
from typing import Any, Mapping, Sequence

from checker.conform.results import RESULTS_FILE, CaseResult, read_results
from checker.inputs import json_text

SUMMARY_FILE = "summary.json"
REPORT_FILE = "report.md"
HTML_FILE = "report.html"
JUNIT_FILE = "junit.xml"
META_KEYS = ("engine", "engine_spec", "corpus")  # what summary.json keeps of the run beyond its results


class ReportError(Exception):
    """A directory that holds no results to report on."""


def write_reports(out_dir: str, meta: Mapping[str, Any], partial: bool,
                  results: Sequence[CaseResult] | None = None) -> dict[str, Any]:
    """summary.json, and when the results are given report.md, report.html and junit.xml; the summary. (The
    report modules are imported only for those: jinja2's import alone cost a run's first summary 0.14 s.)"""
    from checker.conform.report import markdown, summarize

    summary = summarize(results or [], meta, partial)
    replace(os.path.join(out_dir, SUMMARY_FILE), json_text(summary, indent=2) + "\n")
    if results is not None:
        from checker.conform.html import html_report
        from checker.conform.junit import junit_xml

        replace(os.path.join(out_dir, REPORT_FILE), markdown(summary, results))
        replace(os.path.join(out_dir, HTML_FILE), html_report(summary, results))
        replace(os.path.join(out_dir, JUNIT_FILE), junit_xml(summary, results))
    return summary


def rebuild(out_dir: str) -> dict[str, Any]:
    """Every output of DIR again from DIR/results.jsonl and the engine and corpus named in DIR/summary.json
    (the engine is not run). ReportError when there is no results file."""
    results_path = os.path.join(out_dir, RESULTS_FILE)
    if not os.path.isfile(results_path):
        raise ReportError(f"{results_path}: no such file (run mjcheck conform --out {out_dir} first)")
    previous: Mapping[str, Any] = {}
    try:
        with open(os.path.join(out_dir, SUMMARY_FILE), encoding="utf-8") as stream:
            loaded = json.load(stream)
        previous = loaded if isinstance(loaded, dict) else {}
    except (OSError, ValueError):
        previous = {}
    meta = {key: previous[key] for key in META_KEYS if key in previous}
    return write_reports(out_dir, meta, bool(previous.get("partial", False)), read_results(results_path))


def replace(path: str, text: str) -> None:
    temporary = path + ".tmp"
    with open(temporary, "w", encoding="utf-8", newline="\n") as stream:
        stream.write(text)
    os.replace(temporary, path)
