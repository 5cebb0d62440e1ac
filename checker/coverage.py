"""How much of each source document a spec executes: statements modeled and not, rule ids no statement names,
and the document's sentences that nothing in the spec quotes (statements, patterns' and options' sources).

A spec's `statements` trace each rule sentence of its document to the rule ids that model it, or mark it
`not-modeled` with a reason (`platform`, `advice`, `scope`: never a rule of play whose amounts the document
states). Statements whose rule ids are all procedure entries are modeled as data that the table procedure
engine reads; they are counted apart until that engine executes them.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from checker.spec import Ruleset

NOT_MODELED_REASONS = {
    "platform": "a feature of the site or app, not of the game (timers, fees, room set-up, add-on cards)",
    "advice": "strategy, etiquette, commentary or history: how to play well, not what the rules are",
    "scope": "about the document itself: the edition it follows, what its calculator does, what it leaves out",
}

_SENTENCE_END = re.compile(r"(?<=[。！？])|(?<=[.!?])\s+")


@dataclass
class DocumentCoverage:
    """The coverage of one source document by one spec."""

    ruleset: str
    doc: str
    statements: int = 0
    modeled: int = 0
    procedure_only: int = 0  # modeled, but only by procedure entries (read by the table procedure engine)
    not_modeled: dict[str, int] = field(default_factory=dict)  # reason -> count ("none" when not given)
    unnamed_rules: list[str] = field(default_factory=list)  # rule ids of the spec no statement names
    unquoted: list[str] = field(default_factory=list)  # sentences of the document no statement quotes
    phrases_not_found: list[str] = field(default_factory=list)  # statement ids whose phrase is not in the doc
    document_found: bool = False

    def as_json(self) -> dict:
        return {"ruleset": self.ruleset, "doc": self.doc, "statements": self.statements, "modeled": self.modeled,
                "procedure_only": self.procedure_only, "not_modeled": dict(sorted(self.not_modeled.items())),
                "unnamed_rules": self.unnamed_rules, "document_found": self.document_found,
                "unquoted_sentences": self.unquoted, "phrases_not_found": self.phrases_not_found}


def coverage(ruleset: Ruleset, documents: Path | None) -> list[DocumentCoverage]:
    """The coverage of each document the ruleset's statements cite; `documents` is the folder holding the
    source documents (the sentence check is skipped for a document not found there)."""
    by_doc: dict[str, DocumentCoverage] = {}
    for st in ruleset.statements:
        cov = by_doc.setdefault(st.doc, DocumentCoverage(ruleset.id, st.doc))
        cov.statements += 1
        if st.status == "modeled":
            cov.modeled += 1
            if st.rules and all(ruleset.rules.get(r, "").startswith("/procedure/") for r in st.rules):
                cov.procedure_only += 1
        else:
            reason = st.reason or "none"
            cov.not_modeled[reason] = cov.not_modeled.get(reason, 0) + 1
    named = {rule for st in ruleset.statements for rule in st.rules}
    unnamed = sorted(r for r in ruleset.rules if r not in named)
    for cov in by_doc.values():
        cov.unnamed_rules = unnamed
        path = documents / cov.doc if documents is not None else None
        if path is not None and path.is_file():
            cov.document_found = True
            text = path.read_text(encoding="utf-8")
            phrases = [_squash(loc.phrase) for loc in ruleset.cited if loc.doc == cov.doc]
            cov.unquoted = [s for s in sentences(text) if not _quoted(_squash(s), phrases)]
            squashed = _squash(text)
            cov.phrases_not_found = [st.id for st in ruleset.statements
                                     if st.doc == cov.doc and _squash(st.phrase) not in squashed]
    return list(by_doc.values())


def sentences(text: str) -> list[str]:
    """The document's sentences: each line split at sentence ends. Headings (a short line with no
    punctuation) and lines with no words are left out."""
    out = []
    for line in text.splitlines():
        if _is_heading(line):
            continue
        for part in _SENTENCE_END.split(line):
            part = part.strip()
            if len(re.findall(r"\w", part)) >= 2:
                out.append(part)
    return out


def _is_heading(line: str) -> bool:
    line = line.strip()
    if re.search(r"[.,;:!?，。；：！？、|]", line):
        return False
    cjk = len(re.findall(r"[\u3400-\u9fff]", line))
    return len(line.split()) <= 5 and cjk <= 12


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _quoted(sentence: str, phrases: list[str]) -> bool:
    """A sentence counts as quoted when a cited phrase lies within it or it lies within a phrase."""
    return any(p and (p in sentence or sentence in p) for p in phrases)
