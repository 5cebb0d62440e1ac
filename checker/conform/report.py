"""The summary (`DIR/summary.json`) and the Markdown report (`DIR/report.md`) of a conformance run, both
made from the result lines alone, so a run cut short or resumed reports every case its results file holds.

Failures are grouped by the rule ids each case `covers`, by the fans that differ (missing, extra, other
points or count) and by the option reading that explains them (`checker.conform.profile`); errored cases are
listed with their reasons, skipped ones counted by reason. The summary carries the engine's inferred profile.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Mapping, Sequence

from checker.diagnose import diagnose
from checker.diagnose.diff import FanDiff, diff
from checker.conform.known import (Known, declaration_words, declare, declared_cases, declared_counts, in_order,
                                  known_lines)
from checker.conform.profile import FOLLOWS, NEITHER, NO_EVIDENCE, TIE, case_name, infer_profile
from checker.conform.results import OUTCOMES, CaseResult
from checker.inputs import bounded, json_text

NOT_A_CASE = "not a case"  # how the reason of a corpus line that is not a case begins
DETAILED_FAILURES = 500  # failed cases shown one by one in report.md; results.jsonl has them all


def latest(results: Sequence[CaseResult]) -> list[CaseResult]:
    """One result per case (the last written for it), in corpus line order."""
    by_key = {r.key: r for r in results}
    return sorted(by_key.values(), key=lambda r: (r.line, r.id or ""))


def summarize(results: Sequence[CaseResult], meta: Mapping[str, Any], partial: bool,
              run: Mapping[str, Any] | None = None, damaged: int = 0, known: Known | None = None,
              quick: bool = False) -> dict[str, Any]:
    """Counts, failures by rule and by fan, errored cases with reasons, skipped cases by reason. `run`: the
    results file's header (checker.conform.results), whose number of corpus cases the counts add up to: a
    case with no result (the run cut short, a line damaged) is `missing`; `damaged`: the result lines that
    could not be read back. `known`: declared departures (checker.conform.known): each class then says
    whether it is `declared`, the counts add `failed_declared` and `errored_declared`, and `known` the rest.
    `quick`: no profile and no cause search (the summary written when the reports themselves were interrupted)."""
    cases = latest(results)
    counts = Counter(r.outcome for r in cases)
    expected = run.get("corpus_cases") if run is not None else None
    corpus_cases = expected if isinstance(expected, int) and not isinstance(expected, bool) and expected >= 0 \
        else None
    missing = max(0, corpus_cases - len(cases)) if corpus_cases is not None else 0
    by_rule: dict[str, list[str]] = {}
    by_fan: dict[str, dict[str, Any]] = {}
    by_field: Counter[str] = Counter()
    for r in cases:
        if r.outcome != "failed":
            continue
        name = case_name(r)
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
    profile, by_option = infer_profile(cases) if cases and not quick else ({}, {})
    classes = diagnose(cases, search=not quick) if counts.get("failed") or counts.get("errored") else []
    declared: dict[str, Any] = {}
    if known is not None:
        classes, declared["known"] = declare(known, classes)
    return {
        **meta,
        "partial": partial or missing > 0,
        "counts": {**{o: counts.get(o, 0) for o in OUTCOMES}, "missing": missing, "damaged": damaged,
                   "total": corpus_cases if corpus_cases is not None else len(cases),
                   **(declared_counts(classes) if known is not None else {})},
        "corpus_cases": corpus_cases,
        "classes": classes,
        **declared,
        "not_cases": sum(1 for r in cases if r.outcome == "skipped" and (r.reason or "").startswith(NOT_A_CASE)),
        "failures": {"by_rule": dict(sorted(by_rule.items(), key=lambda kv: (-len(kv[1]), kv[0]))),
                     "by_fan": dict(sorted(by_fan.items(), key=lambda kv: (-len(kv[1]["cases"]), kv[0]))),
                     "by_field": dict(by_field.most_common()),
                     "by_option": by_option},
        "errored": [{"id": r.id, "line": r.line, "reason": r.reason} for r in cases if r.outcome == "errored"],
        "skipped": dict(Counter(r.reason or "" for r in cases if r.outcome == "skipped").most_common()),
        "profile": profile,
    }


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


def verdict_text(entry: Mapping[str, Any]) -> str:
    """An option's verdict in words: the reading, or why there is none."""
    verdict = entry.get("verdict")
    if verdict == NO_EVIDENCE:
        return "no evidence (no case tells the readings apart)"
    if verdict == NEITHER:
        return "neither reading"
    if verdict == TIE:
        return "tie (the readings agree equally)"
    if verdict == FOLLOWS:
        return "follows the case's options (honours the option)"
    text = f"{verdict}" + (" (default)" if verdict == entry.get("default") else " (not the default)")
    return text + (", from cases that set the option" if entry.get("evidence") == "cases that set the option" else "")


def profile_lines(profile: Mapping[str, Any]) -> list[str]:
    """The inferred profile as Markdown: per ruleset, each option's reading and the counts behind it, and
    the fans the engine scores that the spec does not have."""
    out: list[str] = []
    for ruleset_id, entry in profile.items():
        out += [f"## Profile: {_md(ruleset_id)}", ""]
        if "error" in entry:
            out += [f"Not inferred: {_md(entry['error'])}", ""]
            continue
        out += [f"Inferred from {entry['cases']} answered cases, each scored again by the reference engine under "
                "every reading of each option (agree: cases that tell the readings apart on which the engine "
                "gives that reading's result).", "",
                "| option | engine's reading | agree | neither | distinguishing / re-scored |",
                "|---|---|---|---:|---:|"]
        sampled = max((o["rescored"] for o in entry["options"].values()), default=0)
        if sampled < entry["cases"]:
            out += [f"Each option was re-scored on at most {sampled:,} of the {entry['cases']:,} answered cases (those "
                    "whose `covers` names it first, then in corpus order).", ""]
        for option_id, o in entry["options"].items():
            apart = o.get("agree_other_fans_differ") or {}
            agree = ", ".join(f"{_md(k)}: {n}" + (f" (+{apart[k]} whose other fans differ)" if apart.get(k) else "")
                              for k, n in o["agree"].items())
            out.append(f"| {_md(option_id)} | {_md(verdict_text(o))} | {agree} | {o['neither']} | "
                       f"{o['distinguishing']} / {o['rescored']} |")
        out.append("")
        fans = entry.get("fans_outside_spec") or {}
        if fans:
            out += ["Fans the engine scores that the spec does not have:", "", "| fan | cases | examples |",
                    "|---|---:|---|"]
            out += [f"| {_md(fan)} | {e['cases']} | {_md(', '.join(e['examples'][:5]), 400)} |" for fan, e in fans.items()]
        else:
            out.append("Fans the engine scores that the spec does not have: none.")
        out.append("")
    return out


def class_lines(classes: Sequence[Mapping[str, Any]]) -> list[str]:
    """The failure classes as Markdown, largest first: signature, count, cause, witness in words, the command
    that reproduces it, and the source sentences of the rules involved."""
    if not classes:
        return []
    out = ["## Failure classes", "",
           "Failed and errored cases grouped by how they depart from the rules; each class with the smallest case "
           "that shows it and the departure that explains it (the reference engine, scoring the class's cases under "
           "it, gives the engine's answers and changes none of its passing cases).", ""]
    if all(c.get("declared") for c in classes):
        out += ["No new failure class: the known file declares every one (below).", ""]
    declared_shown = False
    for number, c in enumerate(in_order(classes), 1):  # (with a known file: new classes first, then declared)
        if c.get("declared") and not declared_shown:
            declared_shown = True
            out += ["## Declared departures", "",
                    "Failure classes the known file declares: they do not fail the run.", ""]
        cause = c.get("cause") or {}
        out += [f"### {number}. {_md(c['signature'], 300)} ({c['count']} case{'s' if c['count'] != 1 else ''}, "
                f"{_md(c.get('ruleset') or '?')})", ""]
        for d in c.get("declared_by") or []:
            out.append(f"- **{'declared' if c.get('declared') else 'declared in part'}**: "
                       f"{_md(declaration_words(d), 600)}")
        explained = cause.get("explained_by") or []
        if explained:
            for e in explained:
                out.append(f"- **explained by** ({_md(e['kind'])}) {_md(e['words'], 400)}: {e['explains']} of "
                           f"{e['of']} cases" + (f" (checked against {e['passing_checked']} passing cases)"
                                                 if e.get("passing_checked") else ""))
            if cause.get("unexplained"):
                out.append(f"- {cause['unexplained']} case(s) of the class unexplained")
        else:
            tried = ", ".join(f"{n} {_md(k)}" for k, n in (cause.get("tried") or {}).items())
            out.append(f"- **{_md(cause.get('verdict', 'unexplained'))}**" + (f" (tried: {tried})" if tried else ""))
        w = c["witness"]
        out.append(f"- witness: {_md(w.get('id') or '')} (line {w.get('line')}): {_md(w['words'], 600)}")
        for s in c.get("sources") or []:
            out.append(f"- source ({_md(s['rule'])}): {_md(s['doc'])}, {_md(s['section'])}: \"{_md(s['phrase'], 300)}\"")
        out += ["", "  ```sh", "  " + bounded(w["reproduce"], 4000).replace("\n", " "), "  ```", ""]
    return out


def integrity_lines(summary: Mapping[str, Any]) -> list[str]:
    """What keeps the counts from being the whole corpus, in words: cases with no result, damaged lines."""
    counts, out = summary["counts"], []
    if counts.get("missing"):
        out += [f"**{counts['missing']} of the corpus's {counts['total']} cases have no result** (the run was cut "
                "short, or their result lines were damaged): they count as neither passed nor failed, and the run "
                "does not pass. `mjcheck conform --resume` runs them.", ""]
    if counts.get("damaged"):
        out += [f"**{counts['damaged']} line(s) of results.jsonl were damaged** (a checksum that does not hold, or "
                "a line that is not a result) and were not read.", ""]
    return out


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
            "| passed | failed | errored | skipped | missing | total |", "|---:|---:|---:|---:|---:|---:|",
            f"| {counts['passed']} | {counts['failed']} | {counts['errored']} | {counts['skipped']} | "
            f"{counts.get('missing', 0)} | {counts['total']} |", ""]
    out += integrity_lines(summary)
    out += known_lines(summary, _md)
    out += class_lines(summary.get("classes") or [])
    out += profile_lines(summary.get("profile") or {})
    failures = summary["failures"]
    if failures.get("by_option"):
        out += ["## Failures explained by an option", "",
                "Failed cases whose result is the reference engine's under another reading of an option.", "",
                "| option = reading | failed cases |", "|---|---|"]
        out += [f"| {_md(key)} | {len(names)}: {_md(', '.join(names[:10]) + (' …' if len(names) > 10 else ''), 600)} |"
                for key, names in failures["by_option"].items()]
        out.append("")
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
    cases = latest(results)
    declared = declared_cases(summary, cases)  # (empty without a known file)
    for title, failed in (("## Failed cases", [r for r in cases if r.outcome == "failed" and r.key not in declared]),
                          ("## Failed cases in declared classes",
                           [r for r in cases if r.outcome == "failed" and r.key in declared])):
        if not failed:
            continue
        out += [title, ""]
        for r in failed[:DETAILED_FAILURES]:
            out += [f"### {_md(case_name(r))}", ""]
            if r.covers:
                out += ["covers: " + ", ".join(_md(c) for c in r.covers), ""]
            out += fan_diff_lines(diff(r.expected, r.actual)) or ["- (the results differ in shape)"]
            out.append("")
        if len(failed) > DETAILED_FAILURES:
            out += [f"… {len(failed) - DETAILED_FAILURES} more failed cases: results.jsonl holds them all.", ""]
    if summary["errored"]:
        errored = sorted(summary["errored"], key=lambda e: (e["id"], e["line"]) in declared)  # new ones first
        out += ["## Errored cases", "", "| case | reason |", "|---|---|"]
        out += [f"| {_md(e['id'] or '')} (line {e['line']}){' (declared)' if (e['id'], e['line']) in declared else ''} "
                f"| {_md(e['reason'] or '')} |" for e in errored]
        out.append("")
    if summary["skipped"]:
        out += ["## Skipped cases", "", "| reason | cases |", "|---|---:|"]
        out += [f"| {_md(reason)} | {n} |" for reason, n in summary["skipped"].items()]
        out.append("")
    return "\n".join(out)
