"""The manifest of the shipped corpora (corpus/manifest.json): each corpus's version and SHA-256, and every
case id ever shipped with the hash of the case it names.

An id is frozen: it always names the same case. A case whose content changes takes a new id; its old id stays
in the manifest, never to name another case. A case's content is its `ruleset`, `options`, `kind`, `input`
and `expect`, its tile fields in canonical form (checker.corpus.canonical): the same hand in another notation
is the same case, and `covers`, `origin` and `note` say things about a case without being part of it.

Recording is deliberate: `python -m checker.corpus.manifest --write` adds the ids the manifest lacks and gives
each corpus whose file changed its next version; while a recorded id names other content it writes nothing.
A regenerated corpus whose cases changed under their old ids is renumbered first (`--renumber`): each such case
takes its id with `.r2` appended (`.r3`, … while that too is taken), the rest of the file left byte for byte.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Mapping

from checker.case import read_cases, without_nulls
from checker.corpus.canonical import canonical_case
from checker.corpus.shipped import case_count, corpus_sha256, shipped_corpora
from checker.inputs import FILE_JSON, InputError, parse_json, read_text_file
from checker.spec import corpus_dir

FILE = "manifest.json"
MAX_MANIFEST_BYTES = 16 * 1024 * 1024  # the manifest read back (about 65 kB today)
CONTENT = ("ruleset", "options", "kind", "input", "expect")
WRITE = "python -m checker.corpus.manifest --write"
ABOUT = ("Shipped corpora: each one's version and SHA-256; every case id ever shipped and the SHA-256 of the "
         "case it names (checker/corpus/manifest.py). An id always names the same case: a changed case takes "
         f"a new id. Record new ids and versions with `{WRITE}`.")


@dataclass(frozen=True)
class Manifest:
    corpora: Mapping[str, Mapping[str, Any]]  # name -> {"version": N, "sha256": hex}
    ids: Mapping[str, str]  # case id -> case_hash


@dataclass(frozen=True)
class Drift:
    """How the shipped corpora depart from a manifest: ids it lacks (`new`, id -> hash), corpora whose file
    changed (`versions`, name -> their next entry), and what recording cannot mend (`refused`: an id naming
    other content, a case without an id, an id twice in a corpus, a line that is not a case)."""

    new: Mapping[str, str]
    versions: Mapping[str, Mapping[str, Any]]
    refused: tuple[str, ...]


def case_hash(case: Mapping[str, Any]) -> str:
    """The SHA-256 of a case's content (see the module's docstring), as JSON with sorted keys."""
    canonical = canonical_case(without_nulls(case))
    content = {key: canonical[key] for key in CONTENT if key in canonical}
    content["options"] = canonical.get("options") or {}
    text = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def manifest_path() -> Path | None:
    folder = corpus_dir()
    return None if folder is None else folder / FILE


class ManifestError(ValueError):
    """A manifest that cannot be read or is not of the manifest's shape: the message names the file and why."""


def read_manifest(path: Path | None = None) -> Manifest:
    """The manifest at `path` (default: beside the shipped corpora); an empty one where there is none;
    ManifestError when the file cannot be read or is not a manifest (see the module's docstring)."""
    path = path or manifest_path()
    if path is None or not path.exists():
        return Manifest({}, {})
    try:
        data = parse_json(read_text_file(str(path), MAX_MANIFEST_BYTES, "the corpora's manifest"), str(path),
                          limits=FILE_JSON)
    except InputError as exc:
        raise ManifestError(f"the corpora's manifest {path}: {exc}") from None
    problem = _shape_problem(data)
    if problem:
        raise ManifestError(f"the corpora's manifest {path} is damaged: {problem} (restore it from the "
                            f"repository, or record it again with `{WRITE}`)")
    return Manifest(data.get("corpora") or {}, data.get("ids") or {})


def _shape_problem(data: Any) -> str | None:
    """What keeps `data` from being a manifest: an object whose `corpora` map names to {version, sha256} and
    whose `ids` map case ids to hashes."""
    if not isinstance(data, dict):
        return "it is not a JSON object"
    corpora, ids = data.get("corpora") or {}, data.get("ids") or {}
    if not isinstance(corpora, dict) or not all(
            isinstance(e, dict) and isinstance(e.get("version", 0), int) and not isinstance(e.get("version"), bool)
            and isinstance(e.get("sha256", ""), str) for e in corpora.values()):
        return "`corpora` is not a mapping of corpus names to {version, sha256}"
    if not isinstance(ids, dict) or not all(isinstance(h, str) for h in ids.values()):
        return "`ids` is not a mapping of case ids to hashes"
    return None


def write_manifest(manifest: Manifest, path: Path) -> None:
    data = {"about": ABOUT, "corpora": dict(manifest.corpora), "ids": dict(manifest.ids)}
    path.write_text(json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")


def drift(manifest: Manifest, corpora: Mapping[str, Path] | None = None) -> Drift:
    """How the corpora (default: the shipped ones) depart from the manifest."""
    corpora = shipped_corpora() if corpora is None else corpora
    new: dict[str, str] = {}
    versions: dict[str, dict[str, Any]] = {}
    refused: list[str] = []
    for name, path in corpora.items():
        entry = manifest.corpora.get(name) or {}
        sha256 = corpus_sha256(path)
        if entry.get("sha256") != sha256:
            versions[name] = {"version": int(entry.get("version") or 0) + 1, "sha256": sha256}
        seen: set[str] = set()
        for line, case in _cases(path, refused):
            where = f"{name}, line {line}"
            case_id = case.get("id")
            if not case_id:
                refused.append(f"{where}: a case without an id")
                continue
            if case_id in seen:
                refused.append(f"{where}: id {case_id!r} names a second case of this corpus")
            seen.add(case_id)
            digest = case_hash(case)
            frozen = manifest.ids.get(case_id) or new.setdefault(case_id, digest)
            if frozen != digest:
                refused.append(f"{where}: id {case_id!r} names other content than it was first recorded with "
                               f"(sha256 {frozen[:12]}…, here {digest[:12]}…)")
    return Drift(new, versions, tuple(refused))


def renumbered(manifest: Manifest, corpora: Mapping[str, Path] | None = None) -> dict[str, str]:
    """The text of each corpus (default: the shipped ones) in which a case's id names other content than the
    manifest froze it to, with each such case given the first id `ID.rN` (N from 2) that is free or frozen to
    that very content; corpora with no such case are left out."""
    corpora = shipped_corpora() if corpora is None else corpora
    taken = set(manifest.ids)
    for path in corpora.values():
        for _, case in _cases(path, []):
            taken.add(str(case.get("id")))
    changed: dict[str, str] = {}
    for name, path in corpora.items():
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        touched = False
        for i, line in enumerate(lines):
            try:
                read: Any = json.loads(line) if line.strip() else None
            except ValueError:
                read = None  # not a case: left as it is, for `drift` to refuse by its line
            if not isinstance(read, dict):
                continue
            case = read
            case_id, digest = case.get("id"), case_hash(case)
            if not case_id or manifest.ids.get(case_id) in (None, digest):
                continue
            n = 2
            while (f"{case_id}.r{n}" in taken and manifest.ids.get(f"{case_id}.r{n}") != digest):
                n += 1
            case["id"] = f"{case_id}.r{n}"
            taken.add(case["id"])
            lines[i] = json.dumps(case, sort_keys=True, ensure_ascii=False) + "\n"
            touched = True
        if touched:
            changed[name] = "".join(lines)
    return changed


def recorded(manifest: Manifest, found: Drift) -> Manifest:
    """The manifest with the drift's new ids and corpus versions recorded; ValueError while it refuses any."""
    if found.refused:
        raise ValueError("\n".join(found.refused))
    return Manifest({**manifest.corpora, **found.versions}, {**manifest.ids, **found.new})


def listing(manifest: Manifest | None = None) -> list[dict[str, Any]]:
    """Each shipped corpus: its name, file, version (the manifest's; `recorded` false when the file has changed
    since), number of cases and SHA-256."""
    manifest = manifest or read_manifest()
    out = []
    for name, path in shipped_corpora().items():
        sha256 = corpus_sha256(path)
        entry = manifest.corpora.get(name) or {}
        out.append({"name": name, "version": entry.get("version"), "recorded": entry.get("sha256") == sha256,
                    "cases": case_count(path), "sha256": sha256, "file": str(path)})
    return out


def _cases(path: Path, refused: list[str]) -> Iterator[tuple[int, Mapping[str, Any]]]:
    with open(path, "rb") as stream:
        for item in read_cases(stream, str(path), as_written=True):
            if item.case is None:
                refused.append(f"{path.name}, line {item.line}: not a case: {item.error}")
            else:
                yield item.line, item.case


def main(argv: list[str] | None = None) -> int:
    """Show (or with --write record) the new ids and corpus versions; exit 1 while an id names other content."""
    parser = argparse.ArgumentParser(prog="python -m checker.corpus.manifest", description=main.__doc__)
    parser.add_argument("--write", action="store_true", help="record them in the manifest")
    parser.add_argument("--renumber", action="store_true",
                        help="first give each case whose content changed under a recorded id a new id (ID.r2, …)")
    args = parser.parse_args(argv)
    path = manifest_path()
    if path is None:
        parser.error("no corpus folder here (a checkout's corpus/)")
    try:
        manifest = read_manifest(path)
    except ManifestError as exc:
        print(f"error: {exc}")
        return 2
    if args.renumber:
        corpora = shipped_corpora()
        for name, text in renumbered(manifest).items():
            partial = corpora[name].with_name(corpora[name].name + ".partial")
            partial.write_text(text, encoding="utf-8")
            os.replace(partial, corpora[name])
            print(f"renumbered: {corpora[name]}")
    found = drift(manifest)
    for problem in found.refused:
        print(f"refused: {problem}")
    if found.refused:
        print("an id always names the same case: give a changed case a new id (--renumber does), or restore it; "
              "nothing written")
        return 1
    for case_id in sorted(found.new):
        print(f"new id: {case_id}")
    for name, entry in sorted(found.versions.items()):
        print(f"corpus {name}: version {entry['version']}")
    if args.write and (found.new or found.versions):
        write_manifest(recorded(manifest, found), path)
        print(f"written: {path}")
    elif found.new or found.versions:
        print(f"nothing written: run `{WRITE}` to record them")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
