"""Points a document leaves open that the spec or the engine decides without it (spec `decisions`), as findings
of their own kind, `decided`: the question, what decides it (rule ids or engine files), the reading taken and
the others the text allows, with the sentences that bear on it. Nothing is searched: the spec lists them, so an
editor reads every silent decision beside the searched findings, each saying it comes from the authors' list (the
readings the hunter finds in the spec's own comments are checker.hunt.silent's)."""
from __future__ import annotations

from checker.hunt.findings import DECIDED, Finding
from checker.spec import Ruleset


def decision_findings(ruleset: Ruleset) -> list[Finding]:
    """One `decided` finding per decision of the spec, in the spec's order."""
    out = []
    for d in ruleset.decisions:
        out.append(Finding(
            ruleset=ruleset.id, kind=DECIDED, key=f"decided.{d.id}", title=d.question, rules=list(d.by),
            witness={}, outcomes=[{"reading": r, "taken": i == 0} for i, r in enumerate(d.readings)],
            method="spec", note=f"From the spec authors' decisions list: {d.decided}",
            statements=[{"doc": s.doc, "section": s.section, "phrase": s.phrase} for s in d.sources]))
    return out
