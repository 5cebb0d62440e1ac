"""The summary (`DIR/summary.json`) and the Markdown report (`DIR/report.md`) of a conformance run, both
made from the result lines alone, so a run cut short or resumed reports every case its results file holds.

Failures are grouped by the rule ids each case `covers` and by the fans that differ (missing, extra, other
points or count); errored cases are listed with their reasons, skipped ones counted by reason.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Mapping, Sequence

from checker.conform.diff import FanDiff, diff
from checker.conform.results import OUTCOMES, CaseResult
from checker.inputs import bounded, json_text

NOT_A_CASE = "not a case"  # how the reason of a corpus line that is not a case begins
DETAILED_FAILURES = 500  # failed cases shown one by one in report.md; results.jsonl has them all


def latest(results: Sequence[CaseResult]) -> list[CaseResult]:
    """One result per case (the last written for it), in corpus line order."""
    by_key = {r.key: r for r in results}
    return sorted(by_key.values(), key=lambda r: (r.line, r.id or ""))


def summarize(results: Sequence[CaseResult], meta: Mapping[str, Any], partial: bool) -> dict[str, Any]:
    """Counts, failures by rule and by fan, errored cases with reasons, skipped cases by reason."""
    cases = latest(results)
    counts = Counter(r.outcome for r in cases)
    by_rule: dict[str, list[str]] = {}
    by_fan: dict[str, dict[str, Any]] = {}
    by_field: Counter[str] = Counter()
    for r in cases:
        if r.outcome != "failed":
            continue
        name = _name(r)
        for rule in r.covers or ["(no rule named)"]:
            by_rule.setdefault(rule, []).append(name)
        found = diff(r.expected, r.actual)
        for how, fans in (("missing", found.missing), ("extra", found.extra),
                          ("different", [e for e, _ in found.different])):
            for fan in fans:
                entry = by_fan.setdefault(str(fan.get("id")), {"missing": 0, "extra": 0, "different": 0, "cases": []})
                entry[how] += 1
                entry["cases"].append(name)
        by_field.update(key for key, _, _ in found.fields)
    return {
        **meta,
        "partial": partial,
        "counts": {**{o: counts.get(o, 0) for o in OUTCOMES}, "total": len(cases)},
        "not_cases": sum(1 for r in cases if r.outcome == "skipped" and (r.reason or "").startswith(NOT_A_CASE)),
        "failures": {"by_rule": dict(sorted(by_rule.items(), key=lambda kv: (-len(kv[1]), kv[0]))),
                     "by_fan": dict(sorted(by_fan.items(), key=lambda kv: (-len(kv[1]["cases"]), kv[0]))),
                     "by_field": dict(by_field.most_common())},
        "errored": [{"id": r.id, "line": r.line, "reason": r.reason} for r in cases if r.outcome == "errored"],
        "skipped": dict(Counter(r.reason or "" for r in cases if r.outcome == "skipped").most_common()),
    }


def _name(r: CaseResult) -> str:
    return f"{r.id} (line {r.line})" if r.id else f"line {r.line}"


def _md(value: Any, limit: int = 300) -> str:
    """Text for a Markdown table cell or line: bounded, one line, pipes and backticks escaped."""
    text = bounded(str(value), limit).replace("\n", " ")
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("`", "\\`").replace("<", "&lt;")


def _fan(fan: Mapping[str, Any]) -> str:
    return f"{_md(fan.get('id'))} {fan.get('points')}×{fan.get('count')}"


def fan_diff_lines(found: FanDiff) -> list[str]:
    """The fan diff of one failed case as Markdown list items."""
    lines = [f"- missing: {_fan(f)}" for f in found.missing]
    lines += [f"- extra: {_fan(f)}" for f in found.extra]
    lines += [f"- different: {_md(e.get('id'))} expected {e.get('points')}×{e.get('count')}, "
              f"got {a.get('points')}×{a.get('count')}" for e, a in found.different]
    lines += [f"- {_md(key)}: expected {_md(json_text(want))}, got {_md(json_text(got))}"
              for key, want, got in found.fields]
    return lines


def markdown(summary: Mapping[str, Any], results: Sequence[CaseResult]) -> str:
    """report.md: engine, counts, failures by rule and by fan, each failure's fan diff, errored, skipped."""
    engine = summary.get("engine") or {}
    counts = summary["counts"]
    out = [f"# Conformance: {_md(engine.get('name', '?'))} {_md(engine.get('version', ''))}", ""]
    if summary.get("partial"):
        out += ["**Partial report**: the run was cut short; `mjcheck conform --resume` continues it.", ""]
    out += [f"- engine: `{_md(summary.get('engine_spec', ''))}` ({_md(engine.get('name', '?'))}, version "
            f"{_md(engine.get('version', '?'))})",
            f"- corpus: `{_md(summary.get('corpus', ''))}`", "",
            "| passed | failed | errored | skipped | total |", "|---:|---:|---:|---:|---:|",
            f"| {counts['passed']} | {counts['failed']} | {counts['errored']} | {counts['skipped']} | {counts['total']} |",
            ""]
    failures = summary["failures"]
    if failures["by_rule"]:
        out += ["## Failures by rule", "", "| rule | failed cases |", "|---|---|"]
        out += [f"| {_md(rule)} | {len(names)}: {_md(', '.join(names[:10]) + (' …' if len(names) > 10 else ''), 600)} |"
                for rule, names in failures["by_rule"].items()]
        out.append("")
    if failures["by_fan"]:
        out += ["## Failures by fan", "", "| fan | missing | extra | different points | cases |", "|---|---:|---:|---:|---|"]
        out += [f"| {_md(fan)} | {e['missing']} | {e['extra']} | {e['different']} | "
                f"{_md(', '.join(e['cases'][:10]) + (' …' if len(e['cases']) > 10 else ''), 600)} |"
                for fan, e in failures["by_fan"].items()]
        out.append("")
    if failures["by_field"]:
        out += ["Other fields that differ: " + ", ".join(f"{_md(k)} ({n})" for k, n in failures["by_field"].items()), ""]
    failed = [r for r in latest(results) if r.outcome == "failed"]
    if failed:
        out += ["## Failed cases", ""]
        for r in failed[:DETAILED_FAILURES]:
            out += [f"### {_md(_name(r))}", ""]
            if r.covers:
                out += ["covers: " + ", ".join(_md(c) for c in r.covers), ""]
            out += fan_diff_lines(diff(r.expected, r.actual)) or ["- (the results differ in shape)"]
            out.append("")
        if len(failed) > DETAILED_FAILURES:
            out += [f"… {len(failed) - DETAILED_FAILURES} more failed cases: results.jsonl holds them all.", ""]
    if summary["errored"]:
        out += ["## Errored cases", "", "| case | reason |", "|---|---|"]
        out += [f"| {_md(e['id'] or '')} (line {e['line']}) | {_md(e['reason'] or '')} |" for e in summary["errored"]]
        out.append("")
    if summary["skipped"]:
        out += ["## Skipped cases", "", "| reason | cases |", "|---|---:|"]
        out += [f"| {_md(reason)} | {n} |" for reason, n in summary["skipped"].items()]
        out.append("")
    return "\n".join(out)
