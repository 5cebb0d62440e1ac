"""Declared departures (`mjcheck conform --known FILE`, `mjcheck report DIR --known FILE`): what an engine is known
to do differently, so that a run shows what is new apart from what is known, and passes when nothing is new.

A known file is YAML (read with a safe loader: no anchors or aliases, at most MAX_KNOWN_BYTES) of up to four
lists, every entry saying why (`note`) or where it is tracked (`link`), and any entry may name the `ruleset`
it holds for (without one, every ruleset):

    readings:                        # options the engine follows: the cause `option:ID=VALUE`
      tile_hog_honors: {value: true, note: "counts honours as tile hog, as its rules book does"}
    causes:                          # cause ids, as summary.json's classes[].cause.explained_by[].id
      - {id: "points:full_flush=32", link: "https://example.org/engine/issues/12"}
    classes:                         # class signatures, as summary.json's classes[].signature
      - {signature: "extra tile_hog 2", ruleset: mcr, note: "…"}
      - {signature: "errored: raised ValueError: not supported*", note: "…"}   # `*`: any text
    skips:                           # cases the engine skips on purpose (`{"skip": "reason"}`), by reason
      - {reason: "robbing the kong is not modelled*", note: "…"}

An errored case's signature is its message with tiles and numbers masked (checker.diagnose.classes), so one
error declared does not declare another: a `*` in a declared signature stands for any text.

A failure class is *declared* when its signature is declared, or when its cause names every case of it
(nothing unexplained) and each departure it is explained by is declared (a pair `A + B`: the pair, or both A
and B), or one of the single departures that explain the whole class alike (`also_explained_by`) is. A
declaration that touches no class of the run is *stale*, unless it declares a departure and some class of its
ruleset was left open (not searched to the end, or with cases unexplained): the search may have missed it there,
so it is *unsettled*, not stale. A skip declaration declares the cases the engine skipped with a reason it
matches (`*` as above); one that matches no skip of the run is stale. Skips never declare a failed or errored
case, and a case skipped but not declared makes a run's status 1: it was left unchecked.
"""
from __future__ import annotations

from dataclasses import dataclass
from fnmatch import fnmatchcase
from typing import Any, Callable, Iterable, Mapping, Sequence

import yaml

from checker.diagnose.classes import signature, signature_words
from checker.diagnose.judged import Judged
from checker.inputs import InputError, bounded, excerpt, read_text_file
from checker.spec import value_key

MAX_KNOWN_BYTES = 1024 * 1024  # a known file: a few hundred declarations take some kilobytes
MAX_DECLARATIONS = 10_000
MAX_TEXT = 2000  # characters of a note, a link, an id or a signature
KINDS = ("reading", "cause", "class", "skip")
_ENTRY_KEYS = {"reading": ("value",), "cause": ("id",), "class": ("signature",), "skip": ("reason",)}
_COMMON_KEYS = ("note", "link", "ruleset")
_SECTIONS = {"readings": "reading", "causes": "cause", "classes": "class", "skips": "skip"}
PAIR = " + "  # how a pair's cause id joins its two departures (checker.mutate.mutation.combined)


class KnownError(ValueError):
    """A known file (or the declarations a summary recorded) that cannot be used: `FILE:LINE: WHERE: REASON`."""


@dataclass(frozen=True)
class Declaration:
    """One declared departure: `kind` reading, cause or class; `id` the cause id (`option:ID=VALUE` for a
    reading) or the class signature; `ruleset` the one it holds for (None: every one); `line` in its file."""

    kind: str
    id: str
    note: str | None = None
    link: str | None = None
    ruleset: str | None = None
    line: int | None = None

    def holds_for(self, ruleset: str | None) -> bool:
        return self.ruleset is None or self.ruleset == ruleset

    def as_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "id": self.id, "ruleset": self.ruleset, "note": self.note, "link": self.link,
                "line": self.line}

    def words(self) -> str:
        """The declaration in one line: what, where, why."""
        said = [f"{self.kind} {self.id}" + (f" ({self.ruleset})" if self.ruleset else "")]
        said += [x for x in (self.note, self.link) if x]
        return " — ".join(said) + (f" [line {self.line}]" if self.line else "")


@dataclass(frozen=True)
class Known:
    """The declarations of one known file."""

    file: str
    declarations: tuple[Declaration, ...]


# ------------------------------------------------------------------ reading a known file

class _Loader(yaml.SafeLoader):
    """The safe loader, refusing anchors and aliases (no expansion bombs)."""

    def compose_node(self, parent: Any, index: Any) -> Any:  # type: ignore[override]
        event = self.peek_event()
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
            raise yaml.constructor.ConstructorError(None, None, "anchors and aliases are not allowed in a known file",
                                                    event.start_mark)
        return super().compose_node(parent, index)


def load_known(path: str) -> Known:
    """The declarations of a known file; KnownError naming the file, the line and what is wrong."""
    try:
        text = read_text_file(path, MAX_KNOWN_BYTES, "known file")
    except InputError as exc:
        raise KnownError(str(exc)) from None
    try:
        loader = _Loader(text)  # (its reader refuses control characters, NUL, DEL, U+FFFE at once)
    except yaml.YAMLError as exc:
        raise KnownError(f"{path}: not YAML the tool reads: {bounded(str(exc).splitlines()[0], 200)}") from None
    try:
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        where = f"{path}:{mark.line + 1}" if mark is not None else path
        reason = getattr(exc, "problem", None) or str(exc)
        raise KnownError(f"{where}: not YAML the tool reads: {bounded(str(reason), 200)}") from None
    except (RecursionError, ValueError) as exc:
        raise KnownError(f"{path}: cannot read: {excerpt(str(exc), 200)}") from None
    finally:
        loader.dispose()
    return Known(path, tuple(declarations_of(data, path, _lines(node))))


def _lines(root: Any) -> dict[tuple[Any, ...], int]:
    """Each node's 1-based line by its path of keys and indexes (a mapping's value: the line of its key)."""
    found: dict[tuple[Any, ...], int] = {}
    stack: list[tuple[tuple[Any, ...], Any, Any]] = [((), root, root)] if root is not None else []
    while stack:
        path, node, start = stack.pop()
        found.setdefault(path, start.start_mark.line + 1)
        if isinstance(node, yaml.MappingNode):
            stack.extend((path + (key.value,), value, key) for key, value in node.value
                         if isinstance(key, yaml.ScalarNode))
        elif isinstance(node, yaml.SequenceNode):
            stack.extend((path + (i,), value, value) for i, value in enumerate(node.value))
    return found


def declarations_of(data: Any, path: str, lines: Mapping[tuple[Any, ...], int] | None = None) -> list[Declaration]:
    """The declarations of a known file's data, checked; KnownError at the first thing wrong."""
    lines = lines or {}

    def wrong(at: tuple[Any, ...], reason: str) -> KnownError:
        line = None
        for cut in range(len(at), -1, -1):
            line = lines.get(at[:cut])
            if line is not None:
                break
        where = "".join(f"[{p}]" if isinstance(p, int) else (f".{p}" if i else str(p)) for i, p in enumerate(at))
        return KnownError(f"{path}" + (f":{line}" if line else "") + (f": {where}" if where else "") + f": {reason}")

    if not isinstance(data, dict):
        raise wrong((), "a known file is a mapping of readings, causes, classes and skips (see `mjcheck conform "
                        "--help`)")
    for key in data:
        if key not in _SECTIONS:
            raise wrong((key,), f"unknown section {excerpt(str(key))}: a known file has "
                                f"{', '.join(_SECTIONS)}")
    out: list[Declaration] = []
    seen: dict[tuple[str, str, str | None], int | None] = {}
    for section, kind in _SECTIONS.items():
        if section not in data or data[section] is None:
            continue
        given = data[section]
        if kind == "reading":
            if not isinstance(given, dict):
                raise wrong((section,), "a mapping of option id to {value: VALUE, note: … or link: …}")
            entries = [((section, option), option, entry) for option, entry in given.items()]
        else:
            if not isinstance(given, list):
                raise wrong((section,), f"a list of {{{_ENTRY_KEYS[kind][0]}: …, note: … or link: …}}")
            entries = [((section, i), None, entry) for i, entry in enumerate(given)]
        for at, option, entry in entries:
            if not isinstance(entry, dict):
                shape = "{value: VALUE, note: …}" if kind == "reading" else f"{{{_ENTRY_KEYS[kind][0]}: …, note: …}}"
                raise wrong(at, f"each entry is a mapping such as {shape}: it says why (note) or where it is "
                                "tracked (link)")
            allowed = _ENTRY_KEYS[kind] + _COMMON_KEYS
            for key in entry:
                if key not in allowed:
                    raise wrong(at + (key,), f"unknown field {excerpt(str(key))} (the fields here: "
                                             f"{', '.join(allowed)})")
            required = _ENTRY_KEYS[kind][0]
            if required not in entry:
                raise wrong(at, f"no {required}")
            texts: dict[str, str | None] = {}
            for key in _COMMON_KEYS:
                value = entry.get(key)
                if value is not None and (not isinstance(value, str) or not value.strip() or len(value) > MAX_TEXT):
                    raise wrong(at + (key,), f"{key}: a text of 1 to {MAX_TEXT} characters")
                texts[key] = value
            if not texts["note"] and not texts["link"]:
                raise wrong(at, "give a note (why the engine departs) or a link (where it is tracked)")
            if kind == "reading":
                if not isinstance(option, str) or not option or len(option) > MAX_TEXT:
                    raise wrong(at, "an option id (text)")
                value = entry["value"]
                if not isinstance(value, (bool, int, float, str)) or isinstance(value, str) and not value:
                    raise wrong(at + ("value",), "an option value: true, false, a number or a text")
                ident = f"option:{option}={value_key(value)}"
            else:
                ident = entry[required]
                if not isinstance(ident, str) or not ident.strip() or len(ident) > MAX_TEXT:
                    raise wrong(at + (required,), f"{required}: a text of 1 to {MAX_TEXT} characters")
            line = lines.get(at)
            key3 = (kind, ident, texts["ruleset"])
            if key3 in seen:
                first = seen[key3]
                raise wrong(at, f"{kind} {excerpt(ident)} is declared twice" + (f" (first at line {first})"
                                                                                 if first else ""))
            seen[key3] = line
            out.append(Declaration(kind, ident, texts["note"], texts["link"], texts["ruleset"], line))
            if len(out) > MAX_DECLARATIONS:
                raise wrong(at, f"more than {MAX_DECLARATIONS:,} declarations")
    if not out:
        raise wrong((), "declares nothing: give readings, causes, classes or skips")
    return out


def known_from_summary(entry: Any, label: str) -> Known:
    """The declarations a summary recorded (its `known`), checked as a known file's are; KnownError if they
    are not what the tool writes."""
    if not isinstance(entry, dict) or not isinstance(entry.get("file"), str) \
            or not isinstance(entry.get("declarations"), list):
        raise KnownError(f"{label}: its `known` is not what mjcheck writes")
    found: list[Declaration] = []
    for i, d in enumerate(entry["declarations"]):
        if not isinstance(d, dict) or d.get("kind") not in KINDS or not isinstance(d.get("id"), str) \
                or not d["id"] or len(d["id"]) > MAX_TEXT \
                or any(d.get(k) is not None and (not isinstance(d[k], str) or len(d[k]) > MAX_TEXT)
                       for k in _COMMON_KEYS) \
                or not (d.get("note") or d.get("link")) \
                or d.get("line") is not None and (not isinstance(d["line"], int) or isinstance(d["line"], bool)):
            raise KnownError(f"{label}: known.declarations[{i}] is not what mjcheck writes")
        found.append(Declaration(d["kind"], d["id"], d.get("note"), d.get("link"), d.get("ruleset"), d.get("line")))
    if not found or len(found) > MAX_DECLARATIONS:
        raise KnownError(f"{label}: known.declarations is not what mjcheck writes")
    return Known(entry["file"], tuple(found))


# ------------------------------------------------------------------ declared classes

def signature_declared(declared: str, signature: Any) -> bool:
    """Whether a declared signature names a class's: the same words, or a pattern whose `*` stands for any text
    (`errored: raised ValueError: not supported*` declares that error whatever follows, and no other)."""
    if not isinstance(signature, str):
        return False
    return declared == signature or ("*" in declared and fnmatchcase(signature, declared.replace("[", "[[]")))


def _declaring(known: Known, cause_id: str, ruleset: str | None) -> list[Declaration]:
    """The declarations that declare one departure (a pair: itself, or both its parts); [] if none does."""
    direct = [d for d in known.declarations if d.kind in ("reading", "cause") and d.id == cause_id
              and d.holds_for(ruleset)]
    if direct or PAIR not in cause_id:
        return direct
    parts = [_declaring(known, part, ruleset) for part in cause_id.split(PAIR)]
    return [d for found in parts for d in found] if all(parts) else []


def skip_declarations(known: Known, ruleset: str | None, reason: str) -> list[Declaration]:
    """The skip declarations that declare a skip of the engine's with this reason, in a case of this ruleset."""
    return [d for d in known.declarations if d.kind == "skip" and d.holds_for(ruleset) and signature_declared(d.id, reason)]


def declare(known: Known, classes: Sequence[Mapping[str, Any]],
            skips: Mapping[tuple[str | None, str], int] | None = None) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The classes with `declared` (true or false) and `declared_by` (the declarations that touch it: all of
    them declare it, or it is declared in part), and summary.json's `known`: the file, each declaration with
    the classes (a skip declaration: the skips) it touched, the stale ones, how many classes are declared and
    how many new, and how many of the engine's skips (`skips`: (ruleset, reason) -> cases) are declared."""
    touched: dict[int, list[Mapping[str, Any]]] = {i: [] for i in range(len(known.declarations))}
    index = {id(d): i for i, d in enumerate(known.declarations)}
    out: list[dict[str, Any]] = []
    for c in classes:
        ruleset = c.get("ruleset")
        by_signature = [d for d in known.declarations if d.kind == "class" and signature_declared(d.id, c.get("signature"))
                        and d.holds_for(ruleset)]
        cause = c.get("cause") or {}
        explained = [e for e in cause.get("explained_by") or [] if isinstance(e, Mapping)]
        per_cause = [_declaring(known, str(e.get("id")), ruleset) for e in explained]
        whole = bool(explained) and not cause.get("unexplained") and all(per_cause)
        by_cause = [d for found in per_cause for d in found]
        if explained and not cause.get("unexplained") and not whole:
            for e in cause.get("also_explained_by") or []:  # each explains the whole class alone
                alone = _declaring(known, str(e.get("id")), ruleset) if isinstance(e, Mapping) else []
                if alone:
                    whole, by_cause = True, alone
                    break
        matched = list({id(d): d for d in by_signature + by_cause}.values())
        declared = bool(by_signature) or whole
        for d in matched:
            touched[index[id(d)]].append(c)
        out.append({**c, "declared": declared, "declared_by": [d.as_json() for d in matched]})
    skipped_by: dict[int, int] = {}
    skips_declared = 0
    for (ruleset, reason), n in sorted((skips or {}).items(), key=lambda kv: (kv[0][0] or "", kv[0][1])):
        found = skip_declarations(known, ruleset, reason)
        skips_declared += n if found else 0
        for d in found:
            skipped_by[index[id(d)]] = skipped_by.get(index[id(d)], 0) + n
    declarations = []
    for i, d in enumerate(known.declarations):
        declarations.append({**d.as_json(), **({"skips": skipped_by.get(i, 0)} if d.kind == "skip" else {
            "classes": [{"signature": c.get("signature"), "ruleset": c.get("ruleset"), "count": c.get("count")}
                        for c in touched[i]]})})
    untouched = [d for i, d in enumerate(known.declarations) if not touched[i] and not skipped_by.get(i)]
    # a declared departure that names no class is stale only where every class was searched and explained: else
    # the search may have missed it, and it is `unsettled`, not stale
    unsettled = [d for d in untouched if d.kind in ("reading", "cause") and any(
        d.holds_for(c.get("ruleset")) and _open(c) for c in classes)]
    return out, {"file": known.file, "declarations": declarations,
                 "stale": [d.as_json() for d in untouched if d not in unsettled],
                 "unsettled": [d.as_json() for d in unsettled],
                 "classes_declared": sum(1 for c in out if c["declared"]),
                 "classes_new": sum(1 for c in out if not c["declared"]),
                 "skips_declared": skips_declared}


def _open(c: Mapping[str, Any]) -> bool:
    """Whether a class's cause is left open: not searched (to the end), or cases of it unexplained."""
    cause = c.get("cause") or {}
    return not cause.get("explained_by") or bool(cause.get("unexplained"))


def declared_counts(classes: Iterable[Mapping[str, Any]]) -> dict[str, int]:
    """The failed and errored cases in declared classes (a class's cases share one outcome)."""
    counts = {"failed_declared": 0, "errored_declared": 0}
    for c in classes:
        if c.get("declared") and c.get("outcome") in ("failed", "errored"):
            counts[f"{c['outcome']}_declared"] += int(c.get("count") or 0)
    return counts


def new_failures(counts: Mapping[str, Any]) -> int:
    """Failed and errored cases in no declared class (all of them when no known file was given)."""
    return int(counts.get("failed", 0)) + int(counts.get("errored", 0)) \
        - int(counts.get("failed_declared", 0)) - int(counts.get("errored_declared", 0))


def in_order(classes: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The classes as the reports show them: new ones first, then the declared (each part largest first)."""
    return [c for c in classes if not c.get("declared")] + [c for c in classes if c.get("declared")]


# ------------------------------------------------------------------ cases and their classes

def class_key(r: Judged) -> tuple[str, str]:
    """A failed or errored case's class as the summary names it: its ruleset and signature in words."""
    return (r.ruleset or "", signature_words(signature(r)[1]))


class ClassOf:
    """Each failed or errored case's class among `classes` (a summary's), one case at a time (None: a case of
    another outcome, or of no class listed)."""

    def __init__(self, classes: Sequence[Mapping[str, Any]]):
        self.named = {(c.get("ruleset") or "", c.get("signature")): c for c in classes}

    def __call__(self, r: Judged) -> Mapping[str, Any] | None:
        if r.outcome not in ("failed", "errored") or not self.named:
            return None
        return self.named.get(class_key(r))


def declared_test(summary: Mapping[str, Any]) -> Callable[[Judged], bool]:
    """Whether a case is a failed or errored case in a declared class (never, without a known file), asked one
    case at a time."""
    classes = summary.get("classes") or []
    if "known" not in summary or not any(c.get("declared") for c in classes):
        return lambda r: False
    class_of = ClassOf(classes)

    def declared(r: Judged) -> bool:
        found = class_of(r)
        return found is not None and bool(found.get("declared"))
    return declared


def declaration_words(d: Mapping[str, Any]) -> str:
    """A declaration of summary.json (`known.declarations`, a class's `declared_by`) in one line."""
    return Declaration(str(d.get("kind")), str(d.get("id")), d.get("note"), d.get("link"), d.get("ruleset"),
                       d.get("line")).words()


def known_lines(summary: Mapping[str, Any], md: Callable[..., str]) -> list[str]:
    """report.md's words on the known file: how many failing cases it declares, and its stale declarations
    (`md` makes a text safe for a Markdown line)."""
    known = summary.get("known")
    if not known:
        return []
    counts = summary["counts"]
    new = new_failures(counts)
    out = [f"Declared departures (`{md(known['file'])}`): {counts.get('failed_declared', 0)} failed and "
           f"{counts.get('errored_declared', 0)} errored case(s) are in {known.get('classes_declared', 0)} declared "
           f"class(es); **{new} failing case(s) are new** (in {known.get('classes_new', 0)} class(es) the file does "
           "not declare).", ""]
    if known.get("stale"):
        out += ["Stale declarations (no failing class of this run matches them):", ""]
        out += [f"- {md(declaration_words(d), 600)}" for d in known["stale"]]
        out.append("")
    if known.get("unsettled"):
        out += ["Declarations neither matched nor stale (some class of their ruleset was not searched to the end or "
                "is partly unexplained, so the departure may be there unseen; `--effort` searches further):", ""]
        out += [f"- {md(declaration_words(d), 600)}" for d in known["unsettled"]]
        out.append("")
    return out
