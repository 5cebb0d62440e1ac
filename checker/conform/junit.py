"""`DIR/junit.xml`: a conformance run as JUnit XML, one `testcase` per case, for CI systems.

A failed case carries a `failure` (its fan diff), an errored one an `error` (its reason), a skipped one
`skipped`; with a known file, a failed or errored case of a declared class is `skipped` (type `declared`, its
declarations the message), in a suite of its own (`RULESET: declared departures: CORPUS`). Cases are grouped in one `testsuite` per ruleset; `classname` is `mjcheck.conform.RULESET`, `name`
the case id (or its corpus line); a case's `time` is the engine's time on it as results.jsonl recorded it
(`seconds`; left out where none was measured), a suite's the sum of its cases'. Text is stripped of the
characters XML 1.0 cannot hold. The document is
written as it is made, a case at a time, each element as ElementTree writes and indents it.
"""
from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET
from collections import Counter
from typing import Any, Callable, Iterable, Mapping, TextIO

from checker.diagnose.classes import case_context, case_words
from checker.diagnose.diff import diff
from checker.conform.known import ClassOf, declaration_words, declared_test, in_order
from checker.conform.report import fan_diff_lines
from checker.conform.results import CaseResult
from checker.conform.stream import in_latest_order

_NOT_XML = re.compile("[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _text(value: Any, limit: int = 4000) -> str:
    text = _NOT_XML.sub("\ufffd", str(value))
    return text if len(text) <= limit else text[:limit] + " …"


def junit_xml(summary: Mapping[str, Any], results: Iterable[CaseResult], out: TextIO | None = None) -> str:
    """The JUnit XML document (UTF-8 text with its declaration), or written to `out` as it is made (then ""
    is returned). `results` is read once to count each suite, then once for each suite (a list, or a run's
    results streamed from its file), so memory holds one case at a time."""
    if out is None:
        text = io.StringIO()
        junit_xml(summary, results, text)
        return text.getvalue()
    engine = summary.get("engine") or {}
    cases = in_latest_order(results)
    class_of = ClassOf(summary.get("classes") or []) if "known" in summary else None
    declared = declared_test(summary)
    suites: dict[tuple[str, bool], Counter[str]] = {}  # (ruleset, declared): declared departures apart
    times: dict[tuple[str, bool], float] = {}  # the engine's time on each suite's cases
    for r in cases:
        apart = declared(r)
        suite_key = (r.ruleset or "unknown", apart)
        suites.setdefault(suite_key, Counter()).update(("tests", _counted(r, apart)))
        times[suite_key] = times.get(suite_key, 0.0) + (r.seconds or 0.0)
    total: Counter[str] = sum(suites.values(), Counter())
    any_declared = any(apart for _, apart in suites)
    classes = in_order(summary.get("classes") or [])  # (new ones first)
    new = sum(1 for c in classes if not c.get("declared"))
    counts = summary.get("counts") or {}
    cut_short = bool(counts.get("missing") or counts.get("damaged"))  # the run does not pass: CI must see it
    root = ET.Element("testsuites", {"name": _text(f"mjcheck conform: {engine.get('name', '?')} "
                                                   f"{engine.get('version', '')}".strip()),
                                     **_attributes(total, len(classes) + cut_short, new, cut_short,
                                                   len(classes) - new, sum(times.values()))})
    out.write('<?xml version="1.0" encoding="UTF-8"?>\n')
    if not suites and not classes and not cut_short:
        out.write(ET.tostring(root, encoding="unicode") + "\n")
        return ""
    out.write(_start_tag(root))
    for (ruleset, apart), tally in sorted(suites.items()):
        name = f"{ruleset}: declared departures: {summary.get('corpus', '')}" if apart \
            else f"{ruleset}: {summary.get('corpus', '')}"
        suite = ET.Element("testsuite", {"name": _text(name), **_attributes(tally, seconds=times[(ruleset, apart)])})
        out.write("\n  " + _start_tag(suite))
        props = ET.Element("properties")
        for key, value in (("engine", summary.get("engine_spec", "")), ("corpus", summary.get("corpus", "")),
                           ("partial", "true" if summary.get("partial") else "false")):
            ET.SubElement(props, "property", {"name": key, "value": _text(value)})
        out.write("\n    " + _element(props))
        parts = (True, False) if any_declared and not apart else (None,)  # new failures first
        for failing in parts:
            for r in cases:
                if (r.ruleset or "unknown") != ruleset or declared(r) != apart \
                        or failing is not None and (r.outcome in ("failed", "errored")) != failing:
                    continue
                out.write("\n    " + _element(_testcase(r, ruleset, apart, class_of)))
        out.write("\n  </testsuite>")
    if classes:  # one testcase per failure class, besides the cases: its cause the message
        suite = ET.Element("testsuite", {"name": "mjcheck conform: failure classes", "tests": str(len(classes)),
                                         "failures": str(new), "errors": "0", "skipped": str(len(classes) - new)})
        for number, c in enumerate(classes, 1):
            case = ET.SubElement(suite, "testcase", {"classname": "mjcheck.conform.classes",
                                                     "name": _text(f"{number}. {c['signature']}", 500)})
            cause = c.get("cause") or {}
            told = [f"{c['count']} case(s); cause: {cause.get('verdict', 'not searched')}",
                    f"witness: {c['witness'].get('id')} (line {c['witness'].get('line')}): {c['witness']['words']}",
                    f"reproduce: {c['witness']['reproduce']}"]
            if c.get("declared"):
                said = "; ".join(declaration_words(d) for d in c.get("declared_by") or [])
                ET.SubElement(case, "skipped", {"type": "declared", "message": _text(
                    f"declared departure: {said}", 500)}).text = _text("\n".join(told))
                continue
            failure = ET.SubElement(case, "failure", {"type": "class", "message": _text(cause.get("verdict", ""), 500)})
            failure.text = _text("\n".join(told))
        out.write("\n  " + _element(suite, 1))
    if cut_short:
        suite = ET.Element("testsuite", {"name": "mjcheck conform: results", "tests": "1", "failures": "0",
                                         "errors": "1", "skipped": "0"})
        case = ET.SubElement(suite, "testcase", {"classname": "mjcheck.conform.results", "name": "every case has a "
                                                 "result"})
        message = (f"{counts.get('missing', 0)} of {counts.get('total', 0)} cases have no result; "
                   f"{counts.get('damaged', 0)} damaged line(s) in results.jsonl")
        ET.SubElement(case, "error", {"type": "missing", "message": message}).text = message
        out.write("\n  " + _element(suite, 1))
    out.write("\n</testsuites>\n")
    return ""


def _testcase(r: CaseResult, ruleset: str, apart: bool,
              class_of: Callable[[CaseResult], Mapping[str, Any] | None] | None) -> ET.Element:
    words = case_words(r.case)
    case = ET.Element("testcase", {"classname": _text(f"mjcheck.conform.{ruleset}"),
                                   "name": _text(f"{r.id or f'line {r.line}'} ({case_context(r.case)})", 500),
                                   **({"time": f"{r.seconds:.6f}"} if r.seconds is not None else {})})
    covers = ", ".join(r.covers)
    found = class_of(r) if apart and class_of is not None else None
    if found is not None:  # a declared departure: skipped, as pytest reports an expected failure
        said = "; ".join(declaration_words(d) for d in found.get("declared_by") or [])
        ET.SubElement(case, "skipped", {"type": "declared", "message": _text(
            f"declared departure ({r.outcome}): {said}", 500)}).text = _text(f"the case: {words}\n{r.reason or ''}")
    elif r.outcome == "failed":
        lines = [line[2:] for line in fan_diff_lines(diff(r.expected, r.actual))]
        body = "\n".join([f"the case: {words}", *lines]) if lines else f"the case: {words}\nthe results differ in shape"
        failure = ET.SubElement(case, "failure", {"type": "failed", "message": _text(
            f"result departs from expect (line {r.line}" + (f"; covers {covers}" if covers else "") + ")", 500)})
        failure.text = _text(body)
    elif r.outcome == "errored":
        error = ET.SubElement(case, "error", {"type": "errored", "message": _text(r.reason or "errored", 500)})
        error.text = _text(f"the case: {words}\n{r.reason or ''}")
    elif r.outcome == "skipped":
        ET.SubElement(case, "skipped", {"message": _text(r.reason or "skipped", 500)}).text = _text(f"the case: {words}")
    return case


def _counted(r: CaseResult, declared: bool) -> str:
    """What a case counts as in its suite's counts; a declared departure counts as skipped."""
    return "skipped" if declared else {"failed": "failures", "errored": "errors", "skipped": "skipped"}.get(
        r.outcome, "passed")


def _attributes(tally: Counter[str], tests: int = 0, failures: int = 0, errors: int = 0,
                skipped: int = 0, seconds: float = 0.0) -> dict[str, str]:
    """A suite's counts (and more `tests`, `failures`, `errors` and `skipped` beside its cases: the root's)."""
    return {"tests": str(tally["tests"] + tests), "failures": str(tally["failures"] + failures),
            "errors": str(tally["errors"] + errors), "skipped": str(tally["skipped"] + skipped),
            "time": f"{seconds:.6f}"}


def _start_tag(element: ET.Element) -> str:
    """An element's start tag, its attributes written as ElementTree writes them."""
    text = ET.tostring(element, encoding="unicode")
    assert text.endswith(" />")
    return text[:-3] + ">"


def _element(element: ET.Element, level: int = 2) -> str:
    """An element written whole, indented as ET.indent indents it at that depth of the document."""
    ET.indent(element, level=level)
    return ET.tostring(element, encoding="unicode")
