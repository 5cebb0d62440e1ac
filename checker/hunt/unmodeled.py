"""Sentences of the document that price something and that the spec leaves out (`status: not-modeled`), found, not
copied: a statement set aside as platform, advice, scope or between hands is listed as `decided` when its words
carry a price (a number with a unit of money: 一倍底分, 75%, 2 points) or name a pattern the ruleset scores (荒番):
setting it aside decides how much changes hands, and the editor should see that it was the spec, not the
document, that decided it. Key `decided.not-modeled.STATEMENT`; the reading taken is the spec's (left out, with its
reason), the other is the sentence priced as written.
"""
from __future__ import annotations

import re
from pathlib import Path

from checker.hunt.findings import DECIDED, Finding
from checker.spec import Ruleset

# a number with a unit of money or of scoring: 一倍底分, 75%, 2分, 3 points, ×2
_PRICE = re.compile(r"(?:\d+|[一二两三四五六七八九十半]+)\s*(?:倍|分|份|勒|花|番|%|％|points?\b|coins?\b)"
                    r"|[×xX*]\s*\d+(?:\.\d+)?\s*[%％]?", re.I)


def prices(ruleset: Ruleset, phrase: str) -> list[str]:
    """The words of `phrase` that price something: numbers with a unit, and the names of patterns the ruleset
    scores (two characters or more, in the spec's Chinese or English name)."""
    found = [m.group(0).strip() for m in _PRICE.finditer(phrase)]
    for p in ruleset.patterns:
        for name in (p.name_zh, p.name_en):
            if name and len(name) >= 2 and name in phrase and name not in found:
                found.append(name)
    return found


def unmodeled_price_findings(ruleset: Ruleset) -> list[Finding]:
    """A `decided` finding for each not-modeled statement of the ruleset whose words price something."""
    out = []
    for s in ruleset.statements:
        if s.status != "not-modeled":
            continue
        priced = prices(ruleset, s.phrase)
        if not priced:
            continue
        reason = s.reason or "no reason given"
        out.append(Finding(
            ruleset=ruleset.id, kind=DECIDED, key=f"decided.not-modeled.{s.id}",
            title=f"{s.id}: a sentence that prices something ({', '.join(priced)}) is left out of the spec as "
                  f"{reason}",
            rules=[], witness={},
            statements=[{"id": s.id, "doc": s.doc, "section": s.section, "phrase": s.phrase, "rules": []}],
            outcomes=[{"reading": f"left out ({reason}: {s.why})" if s.why else f"left out ({reason})",
                       "taken": True},
                      {"reading": "priced as the sentence says", "taken": False}],
            method="spec",
            note=f"Found by the hunter among the statements {_spec_file(ruleset)} marks not-modeled: "
                 f"its words price something ({', '.join(priced)}), so leaving it out decides what changes hands "
                 f"where the document says otherwise; the spec's reason: {reason}"
                 + (f" ({s.why})" if s.why else "") + "."))
    return out


def _spec_file(ruleset: Ruleset) -> str:
    """The spec file the statements are read from, as the project names it (a file given by path: its name)."""
    if not ruleset.path:
        return f"spec/{ruleset.id}.yaml"
    path = Path(ruleset.path)
    return f"spec/{path.name}" if path.parent.name == "spec" else str(path)
