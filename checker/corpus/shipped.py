"""The corpora shipped with mjcheck, by name: `mcr` names corpus/mcr.jsonl in a checkout and the same file
installed inside the package (checker.spec.corpus_dir), so `--corpus mcr` means one corpus from any directory.

A corpus's name is its file's name without `.jsonl`. A value that is a shipped corpus's name names it; any
other value is a path, as given (a file of one's own named like a shipped corpus is written `./mcr`). A name
`random:RULESET:COUNT:SEED[:procedure]` names the random corpus `mjcheck corpus random` writes for those values,
made on first use (checker.corpus.random_cases).
"""
from __future__ import annotations

import os
import re
from pathlib import Path

from checker.case import count_case_lines
from checker.files import file_sha256
from checker.spec import corpus_dir

SUFFIX = ".jsonl"
BARE_NAME = re.compile(r"[a-z0-9][a-z0-9_-]*")  # what a name looks like (a path has a `/` or a `.`)


class CorpusNameError(ValueError):
    """A value that looks like a corpus's name but names neither a shipped corpus nor a file."""


def shipped_corpora() -> dict[str, Path]:
    """Each shipped corpus's name and file, by name."""
    folder = corpus_dir()
    if folder is None:
        return {}
    return dict(sorted((path.name[:-len(SUFFIX)], path) for path in folder.glob(f"*{SUFFIX}")
                       if path.is_file()))  # (a folder, pipe or device named like a corpus is none)


def corpus_path(value: str) -> str:
    """The file a corpus argument names: a shipped corpus's file for its name, else `value` as a path.
    CorpusNameError for a bare name that is neither a shipped corpus nor a file here."""
    if value.startswith("random:"):  # a random corpus by its name (checker.corpus.random_cases), made on first use
        from checker.corpus.random_cases import RandomCorpusError, random_corpus_file

        try:
            return random_corpus_file(value)
        except RandomCorpusError as exc:
            raise CorpusNameError(str(exc)) from None
    shipped = shipped_corpora()
    if value in shipped:
        return str(shipped[value])
    if BARE_NAME.fullmatch(value) and not os.path.exists(value):
        names = ", ".join(shipped) or "none (no corpus is installed)"
        raise CorpusNameError(f"no corpus named {value!r}: give a file, or a shipped corpus ({names}; "
                              f"`mjcheck corpus list` shows them)")
    return value


def corpus_sha256(path: Path) -> str:
    """The SHA-256 of a corpus file's bytes, as a conformance run's header records it."""
    return file_sha256(path)


def case_count(path: Path) -> int:
    """A corpus's number of cases: its lines that are neither blank nor a comment, as a run counts them."""
    with open(path, "rb") as stream:
        return count_case_lines(stream)
