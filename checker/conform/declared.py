"""Whether one judged case is declared by a known file (checker.conform.known), decided from the case alone: what
the pytest plugin (`--mjcheck-known`) needs to mark an item as an expected failure or a declared skip while the
session runs, before any diagnosis of the whole run.

A case is declared by:
- a `classes` entry whose signature names the case's own signature (a class is the cases of one signature);
- a `readings` entry `option:ID=VALUE` when the reference under that reading gives the engine's whole answer
  (checker.diagnose.answers.agreement, as diagnosis compares answers);
- a `skips` entry matching the engine's reason, for a case the engine skipped.
`causes` entries other than readings need the search over the whole run to be matched (a cause is named from
its class's cases): the plugin applies them in its terminal summary's classes only, and says so.
"""
from __future__ import annotations

from typing import Any

import yaml

from checker.case import CaseRunner
from checker.conform.known import Declaration, Known, signature_declared, skip_declarations
from checker.conform.results import ENGINE_SKIP, CaseResult
from checker.diagnose.answers import agreement
from checker.diagnose.classes import signature, signature_words

READING = "option:"


def declaring(known: Known, r: CaseResult, runner: CaseRunner) -> list[Declaration]:
    """The declarations that declare this one case (failed, errored or skipped by the engine); [] if none."""
    if r.outcome == "skipped":
        reason = r.reason or ""
        return skip_declarations(known, r.ruleset, reason[len(ENGINE_SKIP):]) if reason.startswith(ENGINE_SKIP) \
            else []
    if r.outcome not in ("failed", "errored"):
        return []
    words = signature_words(signature(r)[1])
    found = [d for d in known.declarations if d.kind == "class" and d.holds_for(r.ruleset)
             and signature_declared(d.id, words)]
    if r.outcome == "failed" and r.case is not None:
        found += [d for d in known.declarations if d.kind == "reading" and d.holds_for(r.ruleset)
                  and _reading_explains(d.id, r, runner)]
    return found


def _reading_explains(ident: str, r: CaseResult, runner: CaseRunner) -> bool:
    """Whether the reference under the reading `option:ID=VALUE` gives the engine's whole answer to the case."""
    option, _, text = ident[len(READING):].partition("=")
    case: dict[str, Any] = dict(r.case or {})
    try:
        value = yaml.safe_load(text)
        rescored = runner.run({**case, "options": {**dict(case.get("options") or {}), option: value}})
    except (yaml.YAMLError, ValueError, KeyError, TypeError):
        return False
    return agreement(r.actual, rescored, case.get("expect"), kind=str(case.get("kind", "score"))).same


def has_causes(known: Known) -> bool:
    """Whether the file declares causes other than readings (matched in the terminal summary only)."""
    return any(d.kind == "cause" for d in known.declarations)
