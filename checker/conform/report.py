"""The summary (`DIR/summary.json`) and the Markdown report (`DIR/report.md`) of a conformance run, both
made from the result lines alone, so a run cut short or resumed reports every case its results file holds.

Failures are grouped by the rule ids each case `covers`, by the fans that differ (missing, extra, other
points or count) and by the option reading that explains them (`checker.conform.profile`); errored cases are
listed with their reasons, skipped ones counted by reason. The summary carries the engine's inferred profile.
Both read the results in passes, one result at a time (a run's are streamed from its file again for each:
checker.conform.stream), keeping counts and at most MAX_LISTED case names a list.
"""
from __future__ import annotations

import shlex
from collections import Counter
from typing import Any, Iterable, Mapping, Sequence

from checker.diagnose import Prober, Settings, diagnose
from checker.diagnose.explanation import PARTS_NEEDED, PARTS_UNASKED, PAYS_ALIKE
from checker.diagnose.classes import case_words
from checker.diagnose.diff import FanDiff, diff
from checker.conform.known import (Known, declaration_words, declare, declared_counts, declared_test, in_order,
                                  known_lines, skip_declarations)
from checker.conform.compared import RULE_FIELDS, RuleMap, left_out, rule_pair
from checker.conform.profile import FOLLOWS, NEITHER, NO_EVIDENCE, TIE, case_name, followed_options, infer_profile
from checker.conform.results import ENGINE_SKIP, OUTCOMES, CaseResult
from checker.conform.stream import in_latest_order, latest
from checker.inputs import bounded, json_text

UNEXPLAINED = "unexplained"
NOT_A_CASE = "not a case"  # how the reason of a corpus line that is not a case begins
DETAILED_FAILURES = 500  # failed cases shown one by one in report.md; results.jsonl has them all
MAX_LISTED = 1000  # case names a list of summary.json's `failures` holds (and errored cases, skip reasons listed)
OTHER_REASONS = "(other reasons)"
OTHER_FANS = "(other fans)"  # where failures are counted by fan past MAX_LISTED distinct fans  # where skipped cases are counted past MAX_LISTED distinct reasons


def summarize(results: Iterable[CaseResult], meta: Mapping[str, Any], partial: bool,
              run: Mapping[str, Any] | None = None, damaged: int = 0, known: Known | None = None,
              quick: bool = False, prober: Prober | None = None, settings: Settings = Settings()) -> dict[str, Any]:
    """Counts, failures by rule and by fan, errored cases with reasons, skipped cases by reason. `results`: a
    list, or a run's results streamed from its file (checker.conform.stream), read in passes that each hold one
    result at a time: lists of case names are cut at MAX_LISTED (`failures.cut` then says how many each
    list had). `run`: the results file's header (checker.conform.results), whose number of corpus cases the
    counts add up to: a case with no result (the run cut short, a line damaged) is `missing`; `damaged`: the
    result lines that could not be read back. `known`: declared departures (checker.conform.known): each class
    then says whether it is `declared`, the counts add `failed_declared` and `errored_declared`, and `known` the
    rest. `quick`: no profile and no cause search (the summary written when the reports themselves were
    interrupted). `prober`: the engine (or its recorded answers) asked the probes that confirm or contradict
    each class's cause (checker.diagnose.probes); `settings`: how much diagnosis does (recorded in the summary,
    so `mjcheck report` does the same again)."""
    cases = in_latest_order(results)
    tally = _Tally(known)
    for r in cases:
        tally.add(r)
    counts = tally.outcomes
    expected = run.get("corpus_cases") if run is not None else None
    corpus_cases = expected if isinstance(expected, int) and not isinstance(expected, bool) and expected >= 0 \
        else None
    missing = max(0, corpus_cases - tally.cases) if corpus_cases is not None else 0
    profile, by_option = infer_profile(cases) if tally.cases and not quick else ({}, {})
    classes = diagnose(cases, search=settings.search and not quick, prober=prober, effort=settings.effort,
                       followed=followed_options(profile)) \
        if counts.get("failed") or counts.get("errored") else []
    declared: dict[str, Any] = {}
    if known is not None:
        classes, declared["known"] = declare(known, classes, tally.engine_skips)
    return {
        **meta,
        "partial": partial or missing > 0,
        "counts": {**{o: counts.get(o, 0) for o in OUTCOMES}, "missing": missing, "damaged": damaged,
                   "total": corpus_cases if corpus_cases is not None else tally.cases,
                   **(declared_counts(classes) if known is not None else {}),
                   **({"skipped_by_engine": sum(tally.engine_skips.values()) + tally.engine_skips_past,
                       "skipped_undeclared": tally.undeclared_skips} if tally.engine_skips else {})},
        "corpus_cases": corpus_cases,
        "classes": classes,
        **declared,
        "not_cases": tally.not_cases,
        "failures": tally.failures(by_option),
        "errored": tally.errored,
        "skipped": dict(tally.skipped.most_common()),
        **({"engine_skips": tally.skip_groups()} if tally.engine_skips else {}),
        **tally.modelled(),
        "profile": profile,
        "diagnosis": {**settings.as_json(), "probes_used": len(prober.answers) if prober is not None else 0},
    }


class _Tally:
    """What summarize counts in one pass over the results, keeping at most MAX_LISTED names a list."""

    def __init__(self, known: Known | None = None) -> None:
        self.known = known
        self.engine_skips: Counter[tuple[str | None, str]] = Counter()  # (ruleset, the engine's reason) -> cases
        self.engine_skips_past = 0  # engine skips past MAX_LISTED distinct (ruleset, reason) pairs
        self.undeclared_skips = 0
        self._declared_skip: dict[tuple[str | None, str], bool] = {}
        self.cases = 0
        self.outcomes: Counter[str] = Counter()
        self.not_cases = 0
        self.by_rule: dict[str, list[str]] = {}
        self.rule_totals: Counter[str] = Counter()
        self.by_fan: dict[str, dict[str, Any]] = {}
        self.fan_totals: Counter[str] = Counter()
        self.by_field: Counter[str] = Counter()
        self.errored: list[dict[str, Any]] = []
        self.skipped: Counter[str] = Counter()
        self.not_compared: Counter[str] = Counter()  # field -> cases judged without it (checker.conform.compared)
        self.rule_ids = RuleMap()

    def add(self, r: CaseResult) -> None:
        self.cases += 1
        self.outcomes[r.outcome] += 1
        if r.compared is not None and r.case is not None:
            self._compared(r)
        if r.outcome == "skipped":
            reason = r.reason or ""
            if reason.startswith(NOT_A_CASE):
                self.not_cases += 1
            elif reason.startswith(ENGINE_SKIP):
                self._engine_skip(r.ruleset, reason[len(ENGINE_SKIP):])
            self.skipped[reason if reason in self.skipped or len(self.skipped) < MAX_LISTED else OTHER_REASONS] += 1
        elif r.outcome == "errored":
            if len(self.errored) < MAX_LISTED:
                self.errored.append({"id": r.id, "line": r.line, "reason": r.reason,
                                     "words": bounded(case_words(r.case), 400)})
        elif r.outcome == "failed":
            self._failed(r)

    def _engine_skip(self, ruleset: str | None, reason: str) -> None:
        key = (ruleset, reason)
        declared = self._declared_skip.get(key)
        if declared is None:
            declared = self.known is not None and bool(skip_declarations(self.known, ruleset, reason))
            if len(self._declared_skip) < MAX_LISTED:
                self._declared_skip[key] = declared
        self.undeclared_skips += 0 if declared else 1
        if key in self.engine_skips or len(self.engine_skips) < MAX_LISTED:
            self.engine_skips[key] += 1
        else:
            self.engine_skips_past += 1

    def _compared(self, r: CaseResult) -> None:
        """A case judged on fewer fields than it expects: which were left out, and the pair of rule ids."""
        whole, kind = (r.case or {}).get("expect"), str((r.case or {}).get("kind", "score"))
        left = left_out(whole, r.compared)
        self.not_compared.update(left[:64])
        if RULE_FIELDS.get(kind) in left:
            self.rule_ids.add(rule_pair(whole, r.actual, kind))

    def modelled(self) -> dict[str, Any]:
        """summary.json's `not_compared` (field -> cases judged without it) and `rule_ids` (the pairs of the
        spec's rule ids and the engine's own met on refusals both gave), where the engine declared them."""
        out: dict[str, Any] = {}
        if self.not_compared:
            out["not_compared"] = dict(self.not_compared.most_common())
        if self.rule_ids.pairs:
            out["rule_ids"] = self.rule_ids.as_json()
        return out

    def skip_groups(self) -> list[dict[str, Any]]:
        """summary.json's `engine_skips`: the cases the engine skipped, by ruleset and reason, largest first."""
        return [{"ruleset": ruleset, "reason": reason, "cases": n,
                 "declared": bool(self._declared_skip.get((ruleset, reason)))}
                for (ruleset, reason), n in sorted(self.engine_skips.items(),
                                                   key=lambda kv: (-kv[1], kv[0][0] or "", kv[0][1]))]

    def _failed(self, r: CaseResult) -> None:
        name = case_name(r)
        for rule in r.covers or ["(no rule named)"]:
            self.rule_totals[rule] += 1
            names = self.by_rule.setdefault(rule, [])
            if len(names) < MAX_LISTED:
                names.append(name)
        found = diff(r.expected, r.actual)
        for how, fans in (("missing", found.missing), ("extra", found.extra),
                          ("different", [e for e, _ in found.different])):
            for fan in fans:
                fan_id = str(fan.get("id"))
                if fan_id not in self.by_fan and len(self.by_fan) >= MAX_LISTED:  # fans past so many: one entry
                    fan_id = OTHER_FANS
                entry = self.by_fan.setdefault(fan_id, {"missing": 0, "extra": 0, "different": 0, "cases": []})
                entry[how] += 1
                self.fan_totals[fan_id] += 1
                if len(entry["cases"]) < MAX_LISTED:
                    entry["cases"].append(name)
        self.by_field.update(key for key, _, _ in found.fields)

    def failures(self, by_option: Mapping[str, list[str]]) -> dict[str, Any]:
        """summary.json's `failures`, largest first; `cut` only when a list was cut."""
        out: dict[str, Any] = {
            "by_rule": dict(sorted(self.by_rule.items(), key=lambda kv: (-self.rule_totals[kv[0]], kv[0]))),
            "by_fan": dict(sorted(self.by_fan.items(), key=lambda kv: (-self.fan_totals[kv[0]], kv[0]))),
            "by_field": dict(self.by_field.most_common()),
            "by_option": by_option}
        cut = {"by_rule": {k: n for k, n in self.rule_totals.items() if n > len(self.by_rule[k])},
               "by_fan": {k: n for k, n in self.fan_totals.items() if n > len(self.by_fan[k]["cases"])}}
        if cut["by_rule"] or cut["by_fan"]:
            out["cut"] = {"at_most": MAX_LISTED, **{k: dict(sorted(v.items())) for k, v in cut.items() if v}}
        return out


def listed(failures: Mapping[str, Any], kind: str, key: str) -> int:
    """How many failed cases a list of `failures` (`by_rule`, `by_fan`, `by_option`) counts under `key`, however
    many of their names it holds."""
    total = ((failures.get("cut") or {}).get(kind) or {}).get(key)
    if isinstance(total, int):
        return total
    entry = failures[kind][key]
    return len(entry["cases"] if kind == "by_fan" else entry)


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
                "gives that reading's result).", ""]
        sampled = max((o["rescored"] for o in entry["options"].values()), default=0)
        if sampled < entry["cases"]:  # said before the table: a line between its header and rows would end it
            out += [f"Each option was re-scored on at most {sampled:,} of the {entry['cases']:,} answered cases (those "
                    "whose `covers` names it first, then in corpus order).", ""]
        out += ["| option | engine's reading | agree | neither | distinguishing / re-scored |",
                "|---|---|---|---:|---:|"]
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
                                                 if e.get("passing_checked") else "") + _evidence(e))
                out += _probe_lines(e)
                for r in e.get("reach") or []:
                    out.append(f"  - **{_REACH_WORDS.get(r.get('status'), 'untried')}**: {_md(r.get('words', ''), 400)}")
                    out += ["  " + line for line in _probe_lines(r)]
            if cause.get("unexplained"):
                out.append(f"- {cause['unexplained']} case(s) of the class unexplained")
        else:
            tried = ", ".join(f"{n} {_md(k)}" for k, n in (cause.get("tried") or {}).items())
            out.append(f"- **{_md(UNEXPLAINED if cause.get('contradicted') or cause.get('untested') else cause.get('verdict', UNEXPLAINED))}**"
                       + (f" (tried: {tried})" if tried else ""))
        for e in cause.get("contradicted") or []:
            but = e["nearest"] if e.get("nearest") else "the engine's answer to a probe built to test it is not what it predicts"
            out.append(f"- **{'nearest only' if e.get('nearest') else 'contradicted'}**: {_md(e['words'], 400)} reproduces "
                       f"{e['explains']} of {e['of']} cases, but {_md(but, 600)}")
            out += _probe_lines(e)
        for e in cause.get("untested") or []:
            out.append(f"- **not named, untested**: {_md(e['words'], 400)} reproduces {e['explains']} of {e['of']} "
                       f"cases, but no passing case checked it and no probe tested it ({_md(e.get('why_untested', ''))})")
        if c.get("searched_cases"):
            out.append(f"- cause searched on {c['searched_cases']} of its {c['count']} cases (its first in witness "
                       "order, the rest spread over the run)")
        w = c["witness"]
        out.append(f"- witness: {_md(w.get('id') or '')} (line {w.get('line')}): {_md(w['words'], 600)}")
        for s in c.get("sources") or []:
            out.append(f"- source ({_md(s['rule'])}): {_md(s['doc'])}, {_md(s['section'])}: \"{_md(s['phrase'], 300)}\"")
        out += ["", "  ```sh", "  " + _reference_command(c),
                *([f"  {c['reproduce_engine']}  # in the run's folder: the engine beside the reference"]
                  if c.get("reproduce_engine") else []), "  ```", ""]
    return out


LONG_COMMAND = 1000  # characters past which a command is given by its file instead (report.md never cuts one)


def _reference_command(c: Mapping[str, Any]) -> str:
    """The command that runs the reference engine on the class's witness: the one-line `echo … | mjcheck score
    --case -`, or, when that is long, `mjcheck score --batch FILE` on the class's reproducer file."""
    command = str(c["witness"]["reproduce"]).replace("\n", " ")
    if len(command) > LONG_COMMAND and c.get("reproducer_file"):
        return (f"mjcheck score --batch {shlex.quote(str(c['reproducer_file']))}  # in the run's folder: the witness, "
                f"then the probes")
    return command


def _evidence(e: Mapping[str, Any]) -> str:
    """What the engine's answers to probes said of an explanation, in words."""
    probes = e.get("probes") or []
    held = sum(1 for p in probes if p.get("holds"))
    text = ""
    if e.get("evidence") == "confirmed":
        text = f"; **confirmed by {held} probe{'s' if held != 1 else ''}** the engine answered as predicted"
        if e.get("confirmed_for"):
            text += f" (asked for the class \"{_md(e['confirmed_for'], 200)}\", where the same departure was named)"
        if e.get("pays_alike"):
            text += f" ({PAYS_ALIKE})"
    elif e.get("evidence") == "untested":
        text = f"; not confirmed by a probe ({_md(e.get('why_untested', ''))})"
    if e.get("parts_unasked"):
        text += (f"; {PARTS_UNASKED} {', '.join(_md(part) for part in e['parts_unasked'])} "
                 f"({_md(e.get('why_untested') or 'no engine, or the --probes budget spent')})")
    if e.get("parts_needed"):
        text += "; " + PARTS_NEEDED + ", ".join(f"{_md(part)} {n}" for part, n in e["parts_needed"].items())
    for r in e.get("or_equally") or []:
        text += f"; **or equally** {_md(r.get('words', r.get('id', '')), 400)}"
    for engine_rule, rule in (e.get("rules_read") or {}).items():
        text += f"; the engine's refusal `{_md(engine_rule)}` read as `{_md(rule)}`"
    return text


_REACH_WORDS = {"confirmed": "borne out under another option value too",
                "contradicted": "not everywhere under another option value",
                "untested": "untried under another option value"}


def _probe_lines(e: Mapping[str, Any]) -> list[str]:
    """Each probe an explanation was tried by: what was predicted, what the engine answered, and the case (a
    reproducer: the same case put to the engine again gives the same answer)."""
    out = []
    for p in e.get("probes") or []:
        case = p.get("case") or {}
        verdict = {True: "as predicted", False: "**not as predicted**", None: "no answer"}[p.get("holds")]
        out.append(f"  - probe {_md(str(case.get('id', '')))} (against {_md(str(p.get('against', 'the rules')))}): "
                   f"{verdict}; predicted {_md(json_text(p.get('predicted')), 300)}, the engine answered "
                   f"{_md(json_text(p.get('answer')), 300)}; the case: `{_md(json_text(case.get('input')), 600)}`"
                   + (f", options `{_md(json_text(case['options']), 300)}`" if case.get("options") else ""))
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


def markdown(summary: Mapping[str, Any], results: Iterable[CaseResult]) -> str:
    """report.md: engine, counts, failures by rule and by fan, each failure's fan diff, errored, skipped.
    `results` is read once, as summarize reads it."""
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

    def names(kind: str, key: str, found: Sequence[str]) -> str:  # the first ten, and … when there are more
        return _md(", ".join(found[:10]) + (" …" if listed(failures, kind, key) > 10 else ""), 600)

    if failures.get("by_option"):
        out += ["## Failures explained by an option", "",
                "Failed cases whose result is the reference engine's under another reading of an option.", "",
                "| option = reading | failed cases |", "|---|---|"]
        out += [f"| {_md(key)} | {listed(failures, 'by_option', key)}: {names('by_option', key, found)} |"
                for key, found in failures["by_option"].items()]
        out.append("")
    if failures["by_rule"]:
        out += ["## Failures by rule", "", "| rule | failed cases |", "|---|---|"]
        out += [f"| {_md(rule)} | {listed(failures, 'by_rule', rule)}: {names('by_rule', rule, found)} |"
                for rule, found in failures["by_rule"].items()]
        out.append("")
    if failures["by_fan"]:
        out += ["## Failures by fan", "", "| fan | missing | extra | different points | cases |", "|---|---:|---:|---:|---|"]
        out += [f"| {_md(fan)} | {e['missing']} | {e['extra']} | {e['different']} | "
                f"{names('by_fan', fan, e['cases'])} |" for fan, e in failures["by_fan"].items()]
        out.append("")
    if failures.get("cut"):
        out += [f"Each list above names at most {failures['cut']['at_most']:,} cases (the first in corpus order); "
                "results.jsonl holds them all.", ""]
    if failures["by_field"]:
        out += ["Other fields that differ: " + ", ".join(f"{_md(k)} ({n})" for k, n in failures["by_field"].items()), ""]
    is_declared = declared_test(summary)  # (never true without a known file)
    listed_errored = {(e["id"], e["line"]) for e in summary["errored"]}
    declared_errored: set[tuple[str | None, int]] = set()
    failed: dict[bool, tuple[list[str], list[int]]] = {False: ([], [0]), True: ([], [0])}  # lines, how many
    for r in in_latest_order(results):
        if r.outcome == "errored" and r.key in listed_errored and is_declared(r):
            declared_errored.add(r.key)
        if r.outcome != "failed":
            continue
        lines, seen = failed[is_declared(r)]
        seen[0] += 1
        if seen[0] <= DETAILED_FAILURES:
            lines += [f"### {_md(case_name(r))}", "", f"the case: {_md(case_words(r.case))}", ""]
            if r.covers:
                lines += ["covers: " + ", ".join(_md(c) for c in r.covers), ""]
            lines += fan_diff_lines(diff(r.expected, r.actual)) or ["- (the results differ in shape)"]
            said = r.actual.get("message") if isinstance(r.actual, Mapping) else None
            if isinstance(said, str) and said:  # (never compared: what the engine says of its answer)
                lines.append(f"- the engine said: {_md(bounded(said, 500))}")
            lines.append("")
    for title, (lines, seen) in (("## Failed cases", failed[False]), ("## Failed cases in declared classes", failed[True])):
        if not seen[0]:
            continue
        out += [title, ""] + lines
        if seen[0] > DETAILED_FAILURES:
            out += [f"… {seen[0] - DETAILED_FAILURES} more failed cases: results.jsonl holds them all.", ""]
    if summary["errored"]:
        errored = sorted(summary["errored"], key=lambda e: (e["id"], e["line"]) in declared_errored)  # new ones first
        out += ["## Errored cases", "", "| case | the case | reason |", "|---|---|---|"]
        out += [f"| {_md(e['id'] or '')} (line {e['line']}){' (declared)' if (e['id'], e['line']) in declared_errored else ''} "
                f"| {_md(e.get('words') or '')} | {_md(e['reason'] or '')} |" for e in errored]
        if counts["errored"] > len(summary["errored"]):
            out += ["", f"… {counts['errored'] - len(summary['errored'])} more errored cases: results.jsonl holds "
                        "them all."]
        out.append("")
    if summary.get("engine_skips"):
        undeclared = counts.get("skipped_undeclared", 0)
        out += ["## Skipped by the engine", "",
                f"{counts.get('skipped_by_engine', 0)} cases the engine skipped on purpose, with its reasons; "
                + (f"{undeclared} declared by no skip of the known file: left unchecked, they fail the run."
                   if undeclared else "every one declared."), "",
                "| ruleset | the engine's reason | cases | declared |", "|---|---|---:|---|"]
        out += [f"| {_md(g['ruleset'] or '')} | {_md(g['reason'])} | {g['cases']} | {'yes' if g['declared'] else 'no'} |"
                for g in summary["engine_skips"]]
        out.append("")
    if summary.get("not_compared") or summary.get("rule_ids"):
        out += ["## What the engine models", "",
                "The engine said when it started which result fields it answers and whether its rule ids are its "
                "own; cases were judged on those fields alone, and a refusal by its verdict (and event).", ""]
        if summary.get("not_compared"):
            out += ["| field not compared | cases |", "|---|---:|"]
            out += [f"| `{_md(name)}` | {n} |" for name, n in summary["not_compared"].items()]
            out.append("")
        if summary.get("rule_ids"):
            out += ["Rule ids, the spec's and the engine's, as both refusals named them (a pair marked ambiguous "
                    "shares a side with another):", "",
                    "| the spec's rule | the engine's | cases | |", "|---|---|---:|---|"]
            out += [f"| `{_md(p['spec'])}` | `{_md(p['engine'])}` | {p['cases']} | "
                    f"{'ambiguous' if p.get('ambiguous') else ''} |" for p in summary["rule_ids"]]
            out.append("")
    if summary["skipped"]:
        out += ["## Skipped cases", "", "| reason | cases |", "|---|---:|"]
        out += [f"| {_md(reason)} | {n} |" for reason, n in summary["skipped"].items()]
        out.append("")
    return "\n".join(out)
