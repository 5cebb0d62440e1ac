"""`DIR/junit.xml`: a conformance run as JUnit XML, one `testcase` per case, for CI systems.

A failed case carries a `failure` (its fan diff), an errored one an `error` (its reason), a skipped one
`skipped`; with a known file, a failed or errored case of a declared class is `skipped` (type `declared`, its
declarations the message), in a suite of its own (`RULESET: declared departures: CORPUS`). Cases are grouped in one `testsuite` per ruleset; `classname` is `mjcheck.conform.RULESET`, `name`
the case id (or its corpus line). Text is stripped of the characters XML 1.0 cannot hold.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any, Mapping, Sequence

from checker.diagnose.diff import diff
from checker.conform.known import classes_by_case, declaration_words, in_order
from checker.conform.report import fan_diff_lines, latest
from checker.conform.results import CaseResult

_NOT_XML = re.compile("[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _text(value: Any, limit: int = 4000) -> str:
    text = _NOT_XML.sub("\ufffd", str(value))
    return text if len(text) <= limit else text[:limit] + " …"


def junit_xml(summary: Mapping[str, Any], results: Sequence[CaseResult]) -> str:
    """The JUnit XML document (UTF-8 text with its declaration)."""
    engine = summary.get("engine") or {}
    cases = latest(results)
    by_case = classes_by_case(summary.get("classes") or [], cases) if "known" in summary else {}
    declared = {key for key, c in by_case.items() if c.get("declared")}
    suites: dict[tuple[str, bool], list[CaseResult]] = {}  # (ruleset, declared): declared departures apart
    for r in cases:
        suites.setdefault((r.ruleset or "unknown", r.key in declared), []).append(r)
    root = ET.Element("testsuites", {"name": _text(f"mjcheck conform: {engine.get('name', '?')} "
                                                   f"{engine.get('version', '')}".strip()),
                                     **_counts(cases, declared)})
    for (ruleset, apart), members in sorted(suites.items()):
        if declared and not apart:  # new failures first
            members = sorted(members, key=lambda r: r.outcome not in ("failed", "errored"))
        name = f"{ruleset}: declared departures: {summary.get('corpus', '')}" if apart \
            else f"{ruleset}: {summary.get('corpus', '')}"
        suite = ET.SubElement(root, "testsuite", {"name": _text(name), **_counts(members, declared)})
        props = ET.SubElement(suite, "properties")
        for key, value in (("engine", summary.get("engine_spec", "")), ("corpus", summary.get("corpus", "")),
                           ("partial", "true" if summary.get("partial") else "false")):
            ET.SubElement(props, "property", {"name": key, "value": _text(value)})
        for r in members:
            case = ET.SubElement(suite, "testcase", {"classname": _text(f"mjcheck.conform.{ruleset}"),
                                                     "name": _text(r.id or f"line {r.line}"), "time": "0"})
            covers = ", ".join(r.covers)
            if r.key in declared:  # a declared departure: skipped, as pytest reports an expected failure
                said = "; ".join(declaration_words(d) for d in by_case[r.key].get("declared_by") or [])
                ET.SubElement(case, "skipped", {"type": "declared", "message": _text(
                    f"declared departure ({r.outcome}): {said}", 500)}).text = _text(r.reason or "") or None
            elif r.outcome == "failed":
                lines = [line[2:] for line in fan_diff_lines(diff(r.expected, r.actual))]
                body = "\n".join(lines) or "the results differ in shape"
                failure = ET.SubElement(case, "failure", {"type": "failed", "message": _text(
                    f"result departs from expect (line {r.line}" + (f"; covers {covers}" if covers else "") + ")", 500)})
                failure.text = _text(body)
            elif r.outcome == "errored":
                error = ET.SubElement(case, "error", {"type": "errored", "message": _text(r.reason or "errored", 500)})
                error.text = _text(r.reason or "")
            elif r.outcome == "skipped":
                ET.SubElement(case, "skipped", {"message": _text(r.reason or "skipped", 500)})
    classes = in_order(summary.get("classes") or [])  # (new ones first)
    if classes:  # one testcase per failure class, besides the cases: its cause the message
        new = sum(1 for c in classes if not c.get("declared"))
        suite = ET.SubElement(root, "testsuite", {"name": "mjcheck conform: failure classes", "tests": str(len(classes)),
                                                  "failures": str(new), "errors": "0",
                                                  "skipped": str(len(classes) - new)})
        for number, c in enumerate(classes, 1):
            case = ET.SubElement(suite, "testcase", {"classname": "mjcheck.conform.classes",
                                                     "name": _text(f"{number}. {c['signature']}", 500), "time": "0"})
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
        root.set("failures", str(int(root.get("failures", "0")) + new))
        root.set("skipped", str(int(root.get("skipped", "0")) + len(classes) - new))
        root.set("tests", str(int(root.get("tests", "0")) + len(classes)))
    counts = summary.get("counts") or {}
    if counts.get("missing") or counts.get("damaged"):  # the run does not pass: CI must see it as an error too
        suite = ET.SubElement(root, "testsuite", {"name": "mjcheck conform: results", "tests": "1", "failures": "0",
                                                  "errors": "1", "skipped": "0"})
        case = ET.SubElement(suite, "testcase", {"classname": "mjcheck.conform.results", "name": "every case has a "
                                                 "result", "time": "0"})
        message = (f"{counts.get('missing', 0)} of {counts.get('total', 0)} cases have no result; "
                   f"{counts.get('damaged', 0)} damaged line(s) in results.jsonl")
        ET.SubElement(case, "error", {"type": "missing", "message": message}).text = message
        root.set("errors", str(int(root.get("errors", "0")) + 1))
        root.set("tests", str(int(root.get("tests", "0")) + 1))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _counts(cases: Sequence[CaseResult], declared: set[tuple[str | None, int]]) -> dict[str, str]:
    """A suite's counts; a declared departure counts as skipped."""
    def n(outcome: str) -> int:
        return sum(1 for r in cases if r.outcome == outcome and r.key not in declared)
    return {"tests": str(len(cases)), "failures": str(n("failed")), "errors": str(n("errored")),
            "skipped": str(n("skipped") + sum(1 for r in cases if r.key in declared)), "time": "0"}
