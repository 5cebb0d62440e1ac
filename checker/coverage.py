"""How much of each source document a spec executes: statements modeled and not, rule ids no statement names,
and the document's clauses that no statement traces.

A spec's `statements` trace each rule sentence of its document to the rule ids that model it, or mark it
`not-modeled` with a reason (`platform`, `advice`, `scope`: never a rule of play whose amounts the document
states). Statements whose rule ids are all procedure entries are executed by the table procedure engine
(checker.table), except entries that say why not (`not_executed`): those are counted apart.

Tracing is by whole clauses. A line of the document is cut into clauses at its
punctuation (，；：。！？ anywhere; , ; : . ! ? before a space or the line's end), a list marker at its start
(`- `, `1、`) set aside. A statement's phrase must be whole: one clause, or a run of consecutive clauses of one
line, verbatim (whitespace squashed, its closing punctuation optional), else it is listed under
`phrases_not_whole`. Every clause with two or more word characters, the headings the spec declares for the
document aside (`headings`: each a short line with no punctuation, else listed under `headings_not_found`; a
heading-like line that states a rule, 底分+花分=输赢分数, is not one), must lie within some statement's phrase,
else it is listed as untraced; and each statement must be the only one tracing at least one clause, else it is
listed as shadowed: deleting a statement from a spec then always leaves a clause untraced.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from checker.inputs import MAX_SPEC_BYTES, read_text_file
from checker.spec import Ruleset
from checker.spec.model import Locator

NOT_MODELED_REASONS = {
    "platform": "a feature of the site or app, not of the game (timers, fees, room set-up, add-on cards)",
    "advice": "strategy, etiquette, commentary or history: how to play well, not what the rules are",
    "scope": "about the document itself: the edition it follows, what its calculator does, what it leaves out",
    "between_hands": "a rule of play between hands (who sits down or leaves), which no hand of play holds: a game log "
                     "is one hand",
}

_SENTENCE_END = re.compile(r"(?<=[。！？])|(?<=[.!?])\s+")


@dataclass
class DocumentCoverage:
    """The coverage of one source document by one spec."""

    ruleset: str
    doc: str
    statements: int = 0
    modeled: int = 0
    procedure_only: int = 0  # modeled only by procedure entries (executed by the table procedure engine)
    procedure_data_only: list[str] = field(default_factory=list)  # ... of which every entry is not executed
    not_modeled: dict[str, int] = field(default_factory=dict)  # reason -> count ("none" when not given)
    unnamed_rules: list[str] = field(default_factory=list)  # rule ids of the spec no statement names
    untraced: list[str] = field(default_factory=list)  # clauses of the document no statement traces
    phrases_not_found: list[str] = field(default_factory=list)  # statement ids whose phrase is not in the doc
    phrases_not_whole: list[str] = field(default_factory=list)  # ... found, but not as whole clauses
    shadowed: list[str] = field(default_factory=list)  # statement ids tracing no clause that another does not
    headings_not_found: list[str] = field(default_factory=list)  # declared headings no short unpunctuated line is
    sections_wrong: list[str] = field(default_factory=list)  # source locators whose section does not hold the phrase
    document_found: bool = False

    def as_json(self) -> dict:
        return {"ruleset": self.ruleset, "doc": self.doc, "statements": self.statements, "modeled": self.modeled,
                "procedure_only": self.procedure_only, "procedure_not_executed": self.procedure_data_only,
                "not_modeled": dict(sorted(self.not_modeled.items())),
                "unnamed_rules": self.unnamed_rules, "document_found": self.document_found,
                "untraced_clauses": self.untraced, "phrases_not_found": self.phrases_not_found,
                "phrases_not_whole": self.phrases_not_whole, "shadowed_statements": self.shadowed,
                "headings_not_found": self.headings_not_found, "sections_wrong": self.sections_wrong}

    def problems(self) -> bool:
        """Whether the spec's tracing of this document fails (see the module's docstring)."""
        return bool(self.not_modeled.get("none") or self.phrases_not_found or self.phrases_not_whole
                    or self.untraced or self.shadowed or self.headings_not_found or self.sections_wrong)


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
                if all(_not_executed(ruleset, r) for r in st.rules):
                    cov.procedure_data_only.append(st.id)
        else:
            reason = st.reason or "none"
            cov.not_modeled[reason] = cov.not_modeled.get(reason, 0) + 1
    named = {rule for st in ruleset.statements for rule in st.rules}
    unnamed = sorted(r for r in ruleset.rules if r not in named)
    for cov in by_doc.values():
        cov.unnamed_rules = unnamed
        path = documents / Path(cov.doc).name if documents is not None else None  # never outside the folder
        if path is not None and path.is_file():
            cov.document_found = True
            text = read_text_file(str(path), MAX_SPEC_BYTES, "source document")
            _trace(cov, [(st.id, st.phrase) for st in ruleset.statements if st.doc == cov.doc], text,
                   ruleset.headings.get(cov.doc, ()))
            cov.sections_wrong = _sections_wrong([c for c in ruleset.cited if c.doc == cov.doc], text)
    return list(by_doc.values())


def _sections_wrong(locators: list[Locator], text: str) -> list[str]:
    """The source locators (statements, patterns' sources, decisions' sources) whose section does not hold their
    phrase. A section holds the lines from its own line to the next line that is any locator's section: a
    locator names the innermost section the spec knows (a question of a list of questions, 换牌规则： within
    计分方式), and a section's own line, cited as a phrase, lies in itself or in the section before it."""
    lines = [clause_line(line)[0] for line in text.splitlines()]
    named = {_squash(c.section) for c in locators}
    section_lines = {n for n, line in enumerate(lines) if line in named}
    wrong = []
    for c in dict.fromkeys(locators):
        wanted = _bare(c.phrase)
        places = [n for n, line in enumerate(lines) if wanted and wanted in line]
        held_by = []
        for n in places:
            held_by.append(next((lines[i] for i in range(n, -1, -1) if i in section_lines), None))
            if n in section_lines and lines[n].rstrip(_CLOSING) == wanted:  # a heading: its own, or the one above
                held_by.append(next((lines[i] for i in range(n - 1, -1, -1) if i in section_lines), None))
        if places and _squash(c.section) not in held_by:
            wrong.append(f"section {c.section!r} does not hold {c.phrase[:60]!r} (the section before it: "
                         f"{held_by[0]!r})")
    return wrong


def _trace(cov: DocumentCoverage, phrases: list[tuple[str, str]], text: str, declared: tuple[str, ...] = ()) -> None:
    """Fill in the clause tracing of `cov` from the statements' (id, phrase), the document's text and the
    headings the spec declares for it (lines that need no statement: traceable, not required)."""
    lines = [clause_line(line) for line in text.splitlines()]
    heading_like = {_squash(line) for line in text.splitlines() if _is_heading(line)}
    cov.headings_not_found = [h for h in dict.fromkeys(declared) if h not in heading_like]
    headings = {n for n, line in enumerate(text.splitlines()) if _squash(line) in declared and _is_heading(line)}
    squashed = _squash(text)
    tracers: dict[tuple[int, int], list[str]] = {}  # (line, clause) -> the statements tracing it
    for sid, phrase in phrases:
        wanted = _bare(phrase)
        if not wanted or _squash(phrase) not in squashed and wanted not in squashed:
            cov.phrases_not_found.append(sid)
            continue
        found = False
        for n, (line, spans) in enumerate(lines):
            for first, last in _runs(line, spans, wanted):
                found = True
                for k in range(first, last + 1):
                    tracers.setdefault((n, k), []).append(sid)
        if not found:
            cov.phrases_not_whole.append(sid)
    sole = {ids[0] for ids in tracers.values() if len(set(ids)) == 1}
    cov.shadowed = [sid for sid, _ in phrases if sid not in sole and sid not in cov.phrases_not_found
                    and sid not in cov.phrases_not_whole]
    for n, (line, spans) in enumerate(lines):
        for k, (a, b) in enumerate(spans):
            if n not in headings and (n, k) not in tracers and len(re.findall(r"\w", line[a:b])) >= 2:
                cov.untraced.append(line[a:b])


_CLAUSE_END = re.compile(r"[，；：。！？]|[,;:.!?](?=\s|$)")
_MARKER = re.compile(r"^(?:[-*•]\s+|\d+[、.)]\s*|[（(]\d+[)）]\s*)")
_CLOSING = "，；：。！？,;:.!? "


def clause_line(line: str) -> tuple[str, list[tuple[int, int]]]:
    """A line of the document as its text (whitespace squashed, a list marker set aside) and its clauses, each
    as (start, end) offsets into that text, the closing punctuation left out."""
    text = _MARKER.sub("", _squash(line))
    spans, start = [], 0
    for m in _CLAUSE_END.finditer(text):
        spans.append((start, m.start()))
        start = m.end()
        while start < len(text) and text[start] == " ":
            start += 1
    if start < len(text):
        spans.append((start, len(text)))
    return text, [(a, b) for a, b in spans if b > a]


def _bare(phrase: str) -> str:
    """A phrase as it is matched against clauses: whitespace squashed, a list marker set aside, its closing
    punctuation left out."""
    return _MARKER.sub("", _squash(phrase)).rstrip(_CLOSING)


def _runs(line: str, spans: list[tuple[int, int]], wanted: str) -> list[tuple[int, int]]:
    """The runs (first clause, last clause) of the line that the phrase is, verbatim."""
    starts = {a: k for k, (a, _) in enumerate(spans)}
    ends = {b: k for k, (_, b) in enumerate(spans)}
    out, at = [], line.find(wanted)
    while at >= 0:
        if at in starts and at + len(wanted) in ends:
            out.append((starts[at], ends[at + len(wanted)]))
        at = line.find(wanted, at + 1)
    return out


def _not_executed(ruleset: Ruleset, rule: str) -> bool:
    entry = rule.split(".", 1)[1]
    return entry in ruleset.procedure and entry not in ruleset.executed_entries()


def markdown(rows: list[DocumentCoverage], options: dict[str, int]) -> str:
    """The fidelity table of docs/fidelity.md: per document, how much of it the spec executes."""
    lines = [
        "# Fidelity: how much of each source document the specs execute",
        "",
        "Generated by `mjcheck spec coverage --markdown > docs/fidelity.md`; a test keeps it current.",
        "A statement is one rule sentence of the document, or a clause of it, quoted whole and traced to the rule",
        "ids that model it; every clause of the document is traced by a statement of its own. Procedure",
        "entries are executed by the table procedure engine (`mjcheck game`), except those that say why not",
        "(counted under *procedure data only*); not-modeled statements are",
        "never rules of play within a hand: " + "; ".join(f"*{k}*: {v}" for k, v in NOT_MODELED_REASONS.items()) + ".",
        "",
        "| document | ruleset | statements | modeled | of which by the table procedure (data only) | not modeled "
        "(platform / advice / scope / between hands) | options (readings made explicit) | clauses no statement traces | "
        "rule ids no statement names |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        reasons = " / ".join(str(r.not_modeled.get(k, 0)) for k in NOT_MODELED_REASONS)
        if r.not_modeled.get("none"):
            reasons += f" (+{r.not_modeled['none']} without a reason)"
        unquoted = str(len(r.untraced)) if r.document_found else "not checked"
        lines.append(f"| `{r.doc}` | `{r.ruleset}` | {r.statements} | {r.modeled} | {r.procedure_only} ({len(r.procedure_data_only)}) | "
                     f"{sum(r.not_modeled.values())} ({reasons}) | {options.get(r.ruleset, 0)} | {unquoted} | "
                     f"{len(r.unnamed_rules)} |")
    return "\n".join(lines) + "\n"


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
