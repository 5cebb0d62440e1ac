"""Findings (DESIGN.md's finding format): what the hunt reports, how a finding keeps its id from run to run, and
the files it is written to (`findings-R.json`, and `findings-R.md` for players, in checker.hunt.page).

A finding: `id`, `ruleset`, `kind` (contradiction, ambiguity, gap, dead-rule, non-monotonic, cross-variant, and
decided: a point the document leaves open that the spec decides, with an empty witness and its readings as
outcomes without results),
`title` (one line a player reads), `rules` (the rule ids involved) and `statements` (each with its document,
section and quoted phrase), `witness` (a case, as small as shrinking makes it), `outcomes` (the result under each
reading), `method` (hypothesis, z3, exhaustive, mutation), `deciding_option` (the option that decides it in the
spec, or null), `note`. Its `key` says what it is about (the kind and the option, rule or pair of rules): a
finding read back from an earlier file with the same key keeps its id; a new one gets the next free number.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

from checker.inputs import FILE_JSON, MAX_SPEC_BYTES, InputError, excerpt, parse_json, read_text_file
from checker.spec import Ruleset

class NotSearched(Exception):
    """A search of the hunt's plan that does not apply where it was planned, with why (the reading drops the
    pattern it grows, or the default readings already report it): listed apart, never as "nothing found"."""


KINDS = ("contradiction", "ambiguity", "gap", "dead-rule", "non-monotonic", "cross-variant", "decided")
DECIDED = "decided"  # a point the document leaves open, decided by the spec or the engine (checker.hunt.decisions)
# whose problem a root issue is (checker.hunt.roots), in the order pages list them
PROVENANCE = ("document", "imported", "between documents")
PROVENANCE_WORDS = {"document": "the document's own problem",
                    "imported": "a reading the spec brings in from elsewhere",
                    "between documents": "a difference between two documents"}
METHODS = ("hypothesis", "z3", "exhaustive", "simulation", "mutation", "spec")


@dataclass
class Finding:
    ruleset: str
    kind: str
    key: str  # what the finding is about, stable from run to run: e.g. "option.tile_hog_honors=true"
    title: str
    rules: list[str]
    witness: dict[str, Any]
    outcomes: list[dict[str, Any]]
    method: str
    deciding_option: str | None = None
    note: str = ""
    statements: list[dict[str, Any]] = field(default_factory=list)
    id: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.id, "ruleset": self.ruleset, "kind": self.kind, "key": self.key, "title": self.title,
                "rules": self.rules, "statements": self.statements, "witness": self.witness,
                "outcomes": self.outcomes, "method": self.method, "deciding_option": self.deciding_option,
                "note": self.note}


GENERIC = 12  # a statement naming more rules than this is an overview (a list of every fan): quoted last


def statements_naming(ruleset: Ruleset, rules: Iterable[str]) -> list[dict[str, Any]]:
    """The statements of the ruleset's document that name any of `rules`, with their quoted phrases: those naming
    more of them first, then the more specific (naming fewer rules in all), overviews last; the spec's order
    within a tie."""
    wanted = set(rules)
    named = [s for s in ruleset.statements if wanted & set(s.rules)]
    named.sort(key=lambda s: (len(s.rules) > GENERIC, -len(wanted & set(s.rules)), len(s.rules)))
    return [{"id": s.id, "doc": s.doc, "section": s.section, "phrase": s.phrase,
             "rules": [r for r in s.rules if r in wanted]} for s in named]


def covering(ruleset: Ruleset, rules: Iterable[str], most: int) -> list[dict[str, Any]]:
    """At most `most` statements naming `rules`: first the best one for each rule in turn (so every rule is
    quoted once where it can be), then the best of the rest."""
    rules = list(rules)
    ranked = statements_naming(ruleset, rules)
    chosen: list[dict[str, Any]] = []
    for rule in rules:
        best = next((st for st in ranked if rule in st["rules"] and st not in chosen), None)
        if best is not None and len(chosen) < most and not any(rule in c["rules"] for c in chosen):
            chosen.append(best)
    chosen += [st for st in ranked if st not in chosen][:max(0, most - len(chosen))]
    return chosen


def numbered(ruleset: Ruleset, found: Iterable[Finding], earlier: Mapping[str, Mapping[str, Any]],
             holds: Callable[[Mapping[str, Any]], bool] = lambda old: True,
             stale: list[str] | None = None) -> list[Finding]:
    """`found` with ids: a finding whose key an earlier file holds keeps that id; others get the next numbers
    (`mcr-0007`). Earlier findings not found again are kept (a shorter budget may miss them), marked as such,
    but for decisions (those come from the spec, which no longer lists one it does not give) and for those
    `holds` finds the engine no longer bears out (checker.hunt.carried), whose keys go to `stale`."""
    taken = {f["id"] for f in earlier.values()}
    out: list[Finding] = []
    seen = set()
    counter = 1 + max((int(i.rsplit("-", 1)[1]) for i in taken if i.rsplit("-", 1)[-1].isdigit()), default=0)
    for f in sorted(found, key=lambda f: (KINDS.index(f.kind), f.key)):
        if f.key in seen:
            continue
        seen.add(f.key)
        f.statements = f.statements or statements_naming(ruleset, f.rules)
        if f.key in earlier:
            f.id = earlier[f.key]["id"]
        else:
            f.id = f"{ruleset.id}-{counter:04d}"
            counter += 1
        out.append(f)
    for key, old in earlier.items():
        if key not in seen and old["kind"] != DECIDED and not holds(old):
            if stale is not None:
                stale.append(key)
            continue
        if key not in seen and old["kind"] != DECIDED:  # a decision the spec no longer lists is gone, not missed
            kept = Finding(**{k: old[k] for k in ("ruleset", "kind", "key", "title", "rules", "witness", "outcomes",
                                                  "method", "deciding_option", "note", "statements", "id")})
            kept.note = (kept.note + " " if kept.note else "") + "(from an earlier run; not found again this run)"
            out.append(kept)
    return sorted(out, key=lambda f: (KINDS.index(f.kind), f.id))


# each field of a finding as written, with the types it may have (what `numbered` and the page read back)
FIELDS: dict[str, tuple[type, ...]] = {
    "id": (str,), "ruleset": (str,), "kind": (str,), "key": (str,), "title": (str,), "rules": (list,),
    "statements": (list,), "witness": (dict,), "outcomes": (list,), "method": (str,), "deciding_option": (str, type(None)),
    "note": (str,)}


def read_findings(path: Path) -> dict[str, dict[str, Any]]:
    """The findings of an earlier `findings-R.json`, by key ({} when there is none); InputError naming the file
    (and the finding) when it cannot be read as one."""
    if not path.exists():
        return {}
    text = read_text_file(str(path), MAX_SPEC_BYTES, "findings file")
    data = parse_json(text, str(path), limits=FILE_JSON)
    if not isinstance(data, dict) or not isinstance(data.get("findings"), list):
        raise InputError("read", str(path), "not a findings file (an object with a `findings` list)",
                         what="findings file")
    out = {}
    for i, f in enumerate(data["findings"]):
        problem = finding_problem(f)
        if problem:
            raise InputError("read", str(path), f"findings[{i}]: {problem}", what="findings file")
        out[f["key"]] = f
    return out


def finding_problem(f: Any) -> str | None:
    """Why a finding read back is not one (a missing field, a field of another type, an unknown kind), or None."""
    if not isinstance(f, dict):
        return f"not a finding (an object), but {excerpt(f)}"
    for name, types in FIELDS.items():
        if name not in f:
            return f"the field {name!r} is missing"
        if not isinstance(f[name], types) or isinstance(f[name], bool):
            return f"the field {name!r} is {excerpt(f[name])}, not {' or '.join(t.__name__ for t in types)}"
    if f["kind"] not in KINDS:
        return f"unknown kind {excerpt(f['kind'])} (the kinds: {', '.join(KINDS)})"
    return None


def write_findings(path: Path, ruleset: str, findings: list[Finding], meta: Mapping[str, Any]) -> dict[str, Any]:
    """Write `findings-R.json` whole and return what was written."""
    counts = {kind: sum(f.kind == kind for f in findings) for kind in KINDS}
    body = {"ruleset": ruleset, **meta, "counts": counts, "findings": [f.as_dict() for f in findings]}
    write_json(path, body)
    return body


def write_json(path: Path, body: Any) -> None:
    """Write a JSON file whole: beside the target, then moved over it."""
    write_whole(path, json.dumps(body, indent=2, ensure_ascii=False) + "\n")


def write_whole(path: Path, text: str) -> None:
    """Write a text file whole: beside the target (`NAME.partial`), then moved over it."""
    partial = path.with_name(path.name + ".partial")
    partial.write_text(text, encoding="utf-8")
    os.replace(partial, path)


def out_files(out_dir: Path, ruleset_id: str) -> list[Path]:
    """The files the hunt writes for one ruleset: its findings and witnesses, each as JSON and as a page."""
    return [out_dir / f"{stem}-{ruleset_id}.{ext}" for stem in ("findings", "witnesses") for ext in ("json", "md")]

