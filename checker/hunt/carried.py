"""Whether a finding of an earlier run, not found again by this one, still holds before it is carried over
(checker.hunt.findings.numbered keeps such findings: a shorter run may miss what a longer one found).

A finding records, for its witness, the engine's result under each reading it compares. The spec or the engine
may have changed since (a default moved, a rule mended), and a finding carried unchecked would then print
results the engine no longer gives. So each outcome whose reading names options of the ruleset (`name=value`,
several joined by "," or "and", or the defaults in words) is scored again on the witness; one that differs from
what the finding records makes it stale, and it is not carried. Outcomes read otherwise (what a document states,
another ruleset, a hand grown by one pattern) are not scored again; a finding none of whose outcomes can be
scored again is carried as it is, as before.
"""
from __future__ import annotations

import re
from typing import Any, Mapping

from checker.case import CaseRunner
from checker.hunt.options import differs, outcome
from checker.inputs import option_pairs
from checker.spec import Ruleset

DEFAULTS = ("the spec's default readings", "the default readings", "the defaults")
_PARENTHESIS = re.compile(r"\s*\([^)]*\)\s*$")


def options_of(ruleset: Ruleset, reading: str) -> dict[str, Any] | None:
    """The options an outcome's reading names (`{}` for the defaults in words), each value as the ruleset takes
    it (`Ruleset.resolve_options`), or None when it is not read as options of this ruleset."""
    text = _PARENTHESIS.sub("", reading.strip())
    if text in DEFAULTS:
        return {}
    try:
        words = option_pairs(re.split(r",\s*|\s+and\s+", text))
        resolved = ruleset.resolve_options(words)
    except ValueError:  # a part not written NAME=VALUE, or an option or value the ruleset does not have
        return None
    return {name: resolved[name] for name in words} or None


def still_holds(runner: CaseRunner, ruleset: Ruleset, finding: Mapping[str, Any]) -> bool:
    """Whether every outcome of an earlier finding that can be scored again gives what it records."""
    witness = finding.get("witness")
    if not isinstance(witness, Mapping) or witness.get("kind", "score") != "score" \
            or witness.get("ruleset", ruleset.id) != ruleset.id or not isinstance(witness.get("input"), Mapping):
        return True
    for o in finding.get("outcomes") or []:
        recorded = o.get("result") if isinstance(o, Mapping) else None
        options = options_of(ruleset, str(o.get("reading", ""))) if isinstance(recorded, Mapping) else None
        if options is None or not isinstance(recorded, Mapping):
            continue
        try:
            now = outcome(runner, ruleset.id, options, witness["input"])
        except (ValueError, KeyError):
            return False  # the witness cannot be read as it was: not carried
        if differs(now, recorded):
            return False
    return True
