"""Silent readings found in the spec itself, not copied from its `decisions` list: each comment of the ruleset's
YAML that says how a sentence is read or that the document is silent ("read as", "Reading:", "does not say",
"is silent", "neither"), where no listed decision already names the place it sits. Each becomes a `decided`
finding keyed by that place (`decided.comment.PLACE`), its note saying the hunter found it in a comment (file and
line); the findings of the `decisions` list say they come from the authors' list (checker.hunt.decisions).

A comment's place is the YAML key it sits under, or before: a section entry (`procedure.flower_exposure`), an
option (`option.ID`), a pattern or a hand check (its id), a settlement part (`settlement.contract`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from checker.hunt.findings import DECIDED, Finding
from checker.spec import Ruleset

SAYS_A_READING = re.compile(r"\bread as\b|\bReading:|\bread it as\b|\bdoes not say\b|\bdo(?:es)? not say\b|"
                            r"\bis silent\b|\bsilent on\b|\bread as neither\b|\bleaves? (?:it )?open\b", re.I)
_KEY = re.compile(r"^(?P<indent>\s*)(?:- )?(?P<key>[A-Za-z_][\w-]*):")
_ID = re.compile(r"^(?P<indent>\s*)- (?:\{\s*)?id:\s*(?P<id>[\w.-]+)")
SECTIONS = {"options": "option", "patterns": "fan", "procedure": "procedure", "settlement": "settlement"}
NOT_RULES = {"decisions", "statements"}  # sections that speak of the spec's readings rather than make them


@dataclass(frozen=True)
class Comment:
    """A comment of the spec file that says how the document is read: its text, first line, and place."""

    text: str
    line: int
    place: str


def reading_comments(path: Path) -> list[Comment]:
    """The comments of a spec file that say how the document is read, each with the place it describes: the
    key on its own line, else the next key below it (a comment block describes what follows it)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    stack: list[tuple[int, str]] = []  # (indent, key) of the keys enclosing the current line
    places: list[str] = []  # the place of each line
    for raw in lines:
        found = _ID.match(raw) or _KEY.match(raw)
        if found and not raw.lstrip().startswith("#"):
            indent = len(found.group("indent")) + (2 if raw.lstrip().startswith("- ") else 0)
            key = found.groupdict().get("id") or found.group("key")
            while stack and stack[-1][0] >= indent:
                stack.pop()
            stack.append((indent, key))
        places.append(_place([k for _, k in stack]))
    out: list[Comment] = []
    i = 0
    while i < len(lines):
        text, start = _comment_of(lines[i]), i
        if text is None:
            i += 1
            continue
        block = [text]
        own_line = lines[i].lstrip().startswith("#")
        while own_line and i + 1 < len(lines) and lines[i + 1].lstrip().startswith("#"):
            i += 1
            block.append(_comment_of(lines[i]) or "")
        whole = " ".join(t.strip() for t in block).strip()
        if SAYS_A_READING.search(whole):
            # a comment on its own line describes the key below it; one after a value, its own line's key
            below = next((places[j] for j in range(i + 1, len(lines)) if not lines[j].lstrip().startswith("#")
                          and lines[j].strip()), places[i]) if own_line else places[start]
            out.append(Comment(whole, start + 1, below))
        i += 1
    return out


def _comment_of(line: str) -> str | None:
    """The comment on a YAML line (a `#` outside quotes), or None."""
    quote = ""
    for j, ch in enumerate(line):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (j == 0 or line[j - 1].isspace()):
            return line[j + 1:]
    return None


def _place(keys: list[str]) -> str:
    """A place in the spec, as a rule id where there is one: `option.ID`, `fan.ID`, `procedure.KEY`,
    `settlement.KEY`, a hand check's own id; else the keys joined."""
    if not keys:
        return ""
    head = SECTIONS.get(keys[0])
    if head and len(keys) > 1:
        return f"{head}.{keys[1]}"
    if keys[0] == "hand_checks" and len(keys) > 1:
        return keys[1]
    return ".".join(keys[:2])


def comment_findings(ruleset: Ruleset) -> list[Finding]:
    """A `decided` finding for each reading comment whose place no listed decision names."""
    path = Path(ruleset.path)
    if not path.is_file():
        return []
    listed = {rule for d in ruleset.decisions for rule in d.by}
    out, seen = [], set()
    for c in reading_comments(path):
        if not c.place or c.place.split(".")[0] in NOT_RULES or c.place in listed or c.place in seen:
            continue
        seen.add(c.place)
        out.append(Finding(
            ruleset=ruleset.id, kind=DECIDED, key=f"decided.comment.{c.place}",
            title=f"{c.place}: {_shortened(c.text)}", rules=[c.place] if "." in c.place else [],
            witness={}, outcomes=[{"reading": "as the spec's comment reads it", "taken": True}], method="spec",
            note=f"Found by the hunter in a comment of {path.name} (line {c.line}), not in the spec's decisions "
                 f"list: {c.text}"))
    return out


def _shortened(text: str, most: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= most else text[:most - 1].rsplit(" ", 1)[0] + "…"
