"""Where rulesets, their schemas and the corpora are found, and the schemas' fast acceptance check."""
from __future__ import annotations

import json
import os
import re
import shlex
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path
from collections.abc import Iterator, Mapping
from typing import Any

import jsonschema_rs

from checker.files import file_sha256
from checker.inputs import excerpt
from checker.spec.model import SpecError, SpecIssue


def spec_dir() -> Path:
    """The directory holding the rulesets: the repository's `spec/`, or the copy installed with the package."""
    here = Path(__file__).resolve().parents[1]  # the checker package
    for candidate in (here.parent / "spec", here / "specdata"):
        if (candidate / "schema" / "ruleset.schema.json").is_file():
            return candidate
    raise SpecError([SpecIssue(str(here), "", "no spec directory found (neither the repository's spec/ "
                                              "nor the installed checker/specdata)")])


def corpus_dir() -> Path | None:
    """The directory holding the checked-in corpora and the documents' examples: the repository's `corpus/`, or
    the copy installed with the package; None when neither is there."""
    here = Path(__file__).resolve().parents[1]  # the checker package
    for candidate in (here.parent / "corpus", here / "corpusdata"):
        if (candidate / "mcr-examples.jsonl").is_file():
            return candidate
    return None


DEFAULT_RULESET = "mcr"  # the ruleset a command reads when none is named (`mjcheck score HAND`, `mjcheck sweep`)

SPEC_PATH = "MJCHECK_SPEC_PATH"  # folders of rulesets of one's own, beside the shipped ones (os.pathsep between)


_GIVEN: ContextVar[Mapping[str, Any]] = ContextVar("mjcheck_given_rulesets", default={})


@contextmanager
def rulesets_given(rulesets: Mapping[str, Any]) -> Iterator[None]:
    """While the block lasts, the rulesets loaded from spec files named on the command line (`--ruleset-file`:
    loaded Ruleset objects by id) are known by their ids like the shipped ones, to every part of the run that
    names a ruleset by id (the reference engine, diagnosis's re-scoring, the profile, the reports); one of them
    with a shipped id stands in for the shipped one. Scoped to the block (and inherited by processes it forks)."""
    token = _GIVEN.set({**_GIVEN.get(), **rulesets})
    try:
        yield
    finally:
        _GIVEN.reset(token)


def given_rulesets() -> Mapping[str, Any]:
    """The rulesets `rulesets_given` makes known now, by id (empty outside such a block)."""
    return _GIVEN.get()


def given_key() -> tuple:
    """A key that changes with the rulesets given now: for caches of things built from rulesets found by id."""
    return tuple(sorted((rid, str(r.path), id(r)) for rid, r in _GIVEN.get().items()))


def given_files_record() -> list[dict[str, str]]:
    """The spec files given now, as a run records them (each id, absolute path and SHA-256 of its bytes, by id):
    what `mjcheck report` loads again to rebuild a run's reports, and what `--resume` requires unchanged."""
    record = []
    for rid, r in sorted(_GIVEN.get().items()):
        path = Path(r.path).resolve()
        try:
            digest = file_sha256(path)
        except OSError:
            digest = ""
        record.append({"id": rid, "path": str(path), "sha256": digest})
    return record


def given_files_args() -> str:
    """The `--ruleset-file PATH` words (each path absolute) a command needs to find the given rulesets again;
    "" when none is given. For the commands a report prints."""
    return "".join(f" --ruleset-file {shlex.quote(str(Path(r.path).resolve()))}"
                   for _, r in sorted(_GIVEN.get().items()))


def ruleset_files() -> dict[str, Path]:
    """Every ruleset by id: the shipped ones (`spec_dir()`), then those of each folder the environment variable
    MJCHECK_SPEC_PATH names (a ruleset of one's own is then named by its id like a shipped one; its schema is the
    shipped one), then the spec files given on the command line (`rulesets_given`, standing in for any of the
    same id). SpecError for a folder that is not there or an id two folders both hold."""
    found: dict[str, Path] = {p.stem: p for p in sorted(spec_dir().glob("*.yaml"))}
    for entry in filter(None, os.environ.get(SPEC_PATH, "").split(os.pathsep)):
        folder = Path(entry)
        if not folder.is_dir():
            raise SpecError([SpecIssue(SPEC_PATH, "", f"{excerpt(entry)} is not a folder (each entry of "
                                                      f"{SPEC_PATH} is a folder of ruleset .yaml files)")])
        for path in sorted(folder.glob("*.yaml")):
            if path.stem in found:
                raise SpecError([SpecIssue(str(path), "", f"ruleset id {path.stem!r} is also {found[path.stem]}: "
                                                          f"a ruleset id names one file")])
            found[path.stem] = path
    found.update({rid: Path(r.path) for rid, r in _GIVEN.get().items()})
    return found


def available_rulesets() -> list[str]:
    return sorted(ruleset_files())


RULESET_ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")


def ruleset_path(ruleset_id: str) -> Path:
    """The spec file of a ruleset named by its id (`mcr`; shipped, or in a folder of MJCHECK_SPEC_PATH). An id is
    never read as a path: a spec file of one's own is loaded with `load_ruleset_file`, from a path given on the
    command line."""
    files = ruleset_files()
    known = sorted(files)
    if not isinstance(ruleset_id, str) or ruleset_id not in known:
        shown = excerpt(ruleset_id)
        hint = "" if isinstance(ruleset_id, str) and RULESET_ID.fullmatch(ruleset_id) else \
            " (a ruleset is named by its id; give a spec file of your own with --ruleset-file)"
        raise SpecError([SpecIssue("ruleset", "", f"unknown ruleset {shown}{hint}; known rulesets: {', '.join(known)}")])
    return files[ruleset_id]


@lru_cache(maxsize=None)
def schema(name: str) -> Mapping[str, Any]:
    with open(spec_dir() / "schema" / f"{name}.schema.json", encoding="utf-8") as fh:
        return json.load(fh)


def accepted(name: str, value: Any, definition: str | None = None) -> bool:
    """Whether the schema `name` (or its `$defs/definition`) accepts `value`, by jsonschema-rs: a validator written
    in Rust, ten to a hundred times faster than jsonschema. Only an acceptance is taken from it: every caller
    checks a refusal again with jsonschema, the authority, which also words the message (tests/test_case_schema.py
    checks that the two agree). A value it cannot take in (a key that is not a string, a date) is not accepted."""
    try:
        return _fast_validator(name, definition).is_valid(value)
    except (ValueError, OverflowError, RecursionError):
        return False


@lru_cache(maxsize=None)
def _fast_validator(name: str, definition: str | None) -> Any:
    whole = dict(schema(name))
    if definition is not None:
        whole = {**whole["$defs"][definition], "$defs": whole["$defs"], "$schema": whole["$schema"]}
    return jsonschema_rs.validator_for(whole)
