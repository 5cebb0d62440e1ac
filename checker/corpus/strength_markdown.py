"""A corpus-strength measure as Markdown: the kill rate by family and ruleset, each survivor with the case that
separates it or why none was found."""

from typing import Any, Mapping

from checker.case import readings_of
from checker.corpus.strength_records import (EQUIVALENT, KILLED, NOT_OBSERVABLE, NOT_SEPARATED, SEPARATED, UNBOUND,
                                             Strength, verdict)
from checker.corpus.strength_search import fan_ids
from checker.inputs import json_text
from checker.mutate.procedure import is_procedure
from checker.spec import options_text


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def _rate(rate: float | None) -> str:
    return "–" if rate is None else f"{100 * rate:.0f}%"


def _difference(expect: Mapping[str, Any], got: Mapping[str, Any]) -> str:
    """What the spec and the mutant give for a killing case, in a few words."""
    def said(result: Mapping[str, Any]) -> str:
        first = readings_of(result)[0] if readings_of(result) else {}
        if first.get("valid") is False:
            return f"refused ({first.get('error')})"
        parts = [f"total {first['total']}"] if "total" in first else []
        if "payments" in first:
            parts.append("payments " + "/".join(f"{p:+d}" if isinstance(p, int) else str(p)
                                                  for p in first["payments"]))
        return ", ".join(parts) or "a win"

    spec_fans, mutant_fans = fan_ids(expect), fan_ids(got)
    fans = [f"+{f}" for f in sorted(mutant_fans - spec_fans)] + [f"-{f}" for f in sorted(spec_fans - mutant_fans)]
    refused = any(r.get("valid") is False for r in readings_of(expect) + readings_of(got))
    return f"The spec: {said(expect)}; the mutant: {said(got)}" + \
        (f" (fans {' '.join(fans)})" if fans and not refused else "")


def _procedure_difference(expect: Mapping[str, Any], got: Mapping[str, Any]) -> str:
    """What the spec's table and the mutant's make of a killing hand of play, in a few words."""
    def said(result: Mapping[str, Any]) -> str:
        verdict = result.get("verdict")
        if verdict in ("illegal", "unfinished", "bad input", "error"):
            at = f" at event {result['event']}" if "event" in result else ""
            rule = f" ({result['rule']})" if result.get("rule") else ""
            return f"{verdict}{at}{rule}"
        parts = [f"{verdict}, {result.get('ended')}"]
        if result.get("winners"):
            parts.append("winners " + "/".join(str(w.get("seat")) for w in result["winners"]))
        if result.get("payments"):
            parts.append("payments " + "/".join(f"{p:+d}" for p in result["payments"]))
        for key in ("next_dealer", "next_round_wind", "next_huangfan"):
            if key in result:
                parts.append(f"{key} {result[key]}")
        return ", ".join(parts)

    return f"The spec: {said(expect)}; the mutant: {said(got)}"


def markdown(strength: Strength) -> str:
    """The report as a page: the corpora, then for each ruleset the kill rate by family, each survivor with its
    killing case or verdict, the mutants that do not bind and the cases left out."""
    lines = ["# Corpus strength", ""]
    for c in strength.corpora:
        skipped = ", ".join(f"{n} {why}" for why, n in c.skipped.items())
        played = f" and {c.procedure_kept} procedure cases" if c.procedure_kept else ""
        lines.append(f"- `{c.path}`: {c.cases} cases, {c.kept} score cases{played} with `expect` measured"
                     + (f" (skipped: {skipped})" if skipped else ""))
    any_played = any(rs.procedure_cases for rs in strength.rulesets)
    sample = f"a sample of {strength.sample} mutants per ruleset" + \
        (" (and as many procedure mutants)" if any_played else "") if strength.sample else "every mutant"
    reached = "reached: survivors left unsearched are not separated" if strength.budget_reached else "not reached"
    lines += ["", f"Seed {strength.seed}; {sample}; search budget {strength.budget:g} s ({reached}).", ""]
    cut = strength.unsearched()
    if cut:
        lines += [f"**Not whole**: the budget stopped the search of {cut} survivor(s) before its end (marked "
                  f"*unsearched* below), so they are not known to be equivalent; `--budget "
                  f"{max(2 * strength.budget, strength.budget + 60):g}` or more gives the search more time "
                  f"(exit status 3).", ""]
    for rs in strength.rulesets:
        total = rs.total()
        lines += [f"## {rs.ruleset}", ""]
        procedure = [r for r in rs.results if is_procedure(r.mutation)]
        scored = len(rs.results) - len(procedure)
        if rs.cases:
            run = rs.cases - len(rs.left_out)
            lines += [f"- score cases run: {run}" + (f" ({len(rs.left_out)} left out: the reference engine does not "
                                                     f"pass them; listed below)" if rs.left_out else ""),
                      f"- scoring mutants judged: {scored}" + (f" of the {rs.catalogue} the catalogue makes"
                                                               if scored != rs.catalogue else "")]
        if rs.procedure_cases:
            left = rs.procedure_left_out
            lines += [f"- procedure cases run: {rs.procedure_cases - len(left)}"
                      + (f" ({len(left)} left out: the reference table does not pass them; listed below)" if left
                         else ""),
                      f"- procedure mutants judged: {len(procedure)}"
                      + (f" of the {rs.procedure_catalogue} the catalogue makes"
                         if len(procedure) != rs.procedure_catalogue else "")]
        observable = " and that a case could observe" if rs.procedure_cases else ""
        lines += [f"- killed: {total.counts.get(KILLED, 0)} ({_rate(total.kill_rate)} of those that bind{observable})"]
        lines += [f"- survivors a case kills (found by the search): {total.counts.get(SEPARATED, 0)}",
                  f"- not separated within the budget (not known to be equivalent: a sample, not a proof): "
                  f"{total.counts.get(NOT_SEPARATED, 0)}",
                  f"- proved equivalent: {total.counts.get(EQUIVALENT, 0)}"]
        if rs.procedure_cases:
            lines += [f"- not observable by a procedure case: {total.counts.get(NOT_OBSERVABLE, 0)}"]
        lines += [f"- do not bind: {total.counts.get(UNBOUND, 0)}", ""]
        shown = (KILLED, SEPARATED, NOT_SEPARATED, EQUIVALENT) + ((NOT_OBSERVABLE,) if rs.procedure_cases else ()) + \
            (UNBOUND,)
        heads = {KILLED: "killed", SEPARATED: "survivors with a killing case", NOT_SEPARATED: "not separated",
                 EQUIVALENT: "proved equivalent", NOT_OBSERVABLE: "not observable", UNBOUND: "do not bind"}
        lines += ["| family | mutants | " + " | ".join(heads[k] for k in shown) + " | kill rate |",
                  "|---|---:|" + "---:|" * len(shown) + "---:|"]
        for f in rs.families() + [total]:
            name = f"**{f.family}**" if f is total else f.family
            lines.append(f"| {name} | {f.mutants} | " + " | ".join(str(f.counts.get(k, 0)) for k in shown)
                         + f" | {_rate(f.kill_rate)} |")
        separated = [r for r in rs.results if r.status == SEPARATED]
        if separated:
            lines += ["", "### Survivors a case kills", "",
                      "No case of the corpora kills these; each case below does (add it to the corpus).", ""]
        for r in separated:
            m, case = r.mutation, r.killing_case or {}
            if is_procedure(m):
                said = f"{_procedure_difference(case.get('expect') or {}, r.mutant_result or {})}; found as " \
                       f"{r.found_as}, after {r.searched:,} candidate{'' if r.searched == 1 else 's'}"
            else:
                said = _difference(case.get('expect') or {}, r.mutant_result or {})
            lines += [f"- `{m.id}` ({m.family}): {m.words}. {said}:", "", "  ```json", "  " + json_text(case), "  ```"]
        unseparated = [r for r in rs.results if r.status == NOT_SEPARATED]
        if unseparated:
            lines += ["", "### Not separated within the budget", "",
                      "No case of the corpora kills these, and no hand searched tells them from the spec. They are "
                      "not known to be equivalent (the search is a sample, not a proof) and count against the kill "
                      "rate.", ""]
        for r in unseparated:
            m = r.mutation
            under = " and ".join("the default options" if not o else
                                 options_text(dict(sorted(o.items()))) for o in r.readings)
            what = "candidate cases of play tried" if is_procedure(m) else "hands searched"
            lines.append(f"- `{m.id}` ({m.family}): {m.words}. {r.searched:,} {what}"
                         + (f" under {under}" if under else "")
                         + (" (*unsearched*: the budget stopped its search)" if r.cut else "") + ".")
        proved = [r for r in rs.results if r.status == EQUIVALENT]
        if proved:
            lines += ["", "### Proved equivalent", "",
                      "No case of the corpora kills these, and none can: each proof says over what it holds.", ""]
            lines += [f"- `{r.mutation.id}` ({r.mutation.family}): {r.mutation.words}. {_sentence(r.reason)}."
                      for r in proved]
        unseen = [r for r in rs.results if r.status == NOT_OBSERVABLE]
        if unseen:
            lines += ["", "### Procedure mutants no procedure case can observe", ""]
            lines += [f"- `{r.mutation.id}` ({r.mutation.family}): {r.mutation.words}. {_sentence(verdict(r))}."
                      for r in unseen]
        unbound = [r for r in rs.results if r.status == UNBOUND]
        if unbound:
            lines += ["", "### Mutants that do not bind", ""]
            lines += [f"- `{r.mutation.id}`: {r.reason}" for r in unbound]
        if rs.left_out:
            lines += ["", "### Cases left out", ""]
            lines += [f"- {ref.corpus}:{ref.line} `{ref.id}`: {why}" for ref, why in rs.left_out]
        if rs.procedure_left_out:
            lines += ["", "### Procedure cases left out", ""]
            lines += [f"- {ref.corpus}:{ref.line} `{ref.id}`: {why}" for ref, why in rs.procedure_left_out]
        lines.append("")
    return "\n".join(lines)
