"""Parsed spec files kept in the user's cache directory, so a spec is parsed as YAML once, not at every start.

PyYAML builds the MCR spec in some 20-30 ms, a tenth of a 10,000-case conformance run and most of a one-hand
`mjcheck score`; reading what it built back as JSON takes under 2 ms (docs/performance.md, section 4). An
entry is what parsing a text gave, its data and the line where each node starts, keyed by a hash of the text
(and of the parser's version): a changed file is another key, never a stale entry. Everything else a load
does (the schema, the references, binding) runs on the data as before, so the cache can change how fast a
spec loads, never what it says. An entry that is missing, unreadable or not what this module writes is a miss;
a cache that cannot be written is no cache. Nothing but JSON is read back. Writing an entry removes all but
the MAX_ENTRIES most recent.

Where: `$MJCHECK_CACHE_DIR` (empty or `off`: no cache), else `$XDG_CACHE_HOME/mjcheck`, else `~/.cache/mjcheck`;
entries go in its `specs/`, which must be a directory of the user's own that no one else may write (else no
cache: an entry planted there would change a spec), and an entry is read only when it is a regular file.
The key holds the reading code's own files' sizes and times too, so a new version of mjcheck (or an edit
of checker/spec.py) never reads what an earlier one parsed.
"""
from __future__ import annotations

import hashlib
import os
import stat
import tempfile
import time
from pathlib import Path
from typing import Any

import orjson
import yaml

FORMAT = 1  # what an entry holds; a new layout takes a new number, and old entries are misses
MAX_ENTRY_BYTES = 32 * 1024 * 1024
MAX_ENTRIES = 64  # a few specs, in a few versions each


def cache_dir() -> Path | None:
    """The directory entries go in, or None when the cache is turned off."""
    chosen = os.environ.get("MJCHECK_CACHE_DIR")
    if chosen is not None:
        return None if chosen.strip() in ("", "off") else Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "mjcheck"


def _entry(text: str) -> Path | None:
    where = cache_dir()
    if where is None:
        return None
    key = hashlib.sha256(f"{FORMAT}|{yaml.__version__}|{getattr(yaml, '__with_libyaml__', False)}|{_code()}|"
                         .encode() + text.encode("utf-8", "surrogatepass")).hexdigest()
    return where / "specs" / f"{key}.json"


def _code() -> str:
    """The size and time of the files that parse a spec and keep it here."""
    marks = []
    for path in (Path(__file__).with_name("spec.py"), Path(__file__)):
        try:
            found = os.stat(path)
            marks.append(f"{found.st_size}.{found.st_mtime_ns}")
        except OSError:
            marks.append("?")
    return "/".join(marks)


def _own(directory: Path) -> bool:
    """A directory (not a link to one) of this user's, that no one else may write."""
    try:
        found = os.lstat(directory)
    except OSError:
        return False
    mine = not hasattr(os, "getuid") or found.st_uid == os.getuid()
    return stat.S_ISDIR(found.st_mode) and mine and not found.st_mode & 0o022


def cached(text: str) -> tuple[Any, dict[str, int]] | None:
    """What parsing `text` gave, if an entry holds it: (data, line by JSON pointer)."""
    path = _entry(text)
    if path is None or not _own(path.parent):
        return None
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        with os.fdopen(fd, "rb") as stream:
            if not stat.S_ISREG(os.fstat(stream.fileno()).st_mode):
                return None
            raw = stream.read(MAX_ENTRY_BYTES + 1)
        entry = orjson.loads(raw) if len(raw) <= MAX_ENTRY_BYTES else None
    except (OSError, orjson.JSONDecodeError):
        return None
    if not (isinstance(entry, dict) and entry.get("format") == FORMAT and "data" in entry
            and isinstance(entry.get("lines"), dict)):
        return None
    lines = entry["lines"]
    if not all(isinstance(line, int) for line in lines.values()):
        return None
    return entry["data"], lines


def store(text: str, data: Any, lines: dict[str, int]) -> None:
    """Keep what parsing `text` gave, when JSON holds it exactly (a date, a key that is not a string or a
    number beyond 64 bits would come back otherwise: such a text is parsed every time, and the schema refuses
    it anyway). Written aside and renamed into place, so a reader never sees half an entry."""
    path = _entry(text)
    if path is None:
        return
    try:
        raw = orjson.dumps({"format": FORMAT, "data": data, "lines": lines})
        if orjson.loads(raw)["data"] != data:
            return
    except (TypeError, orjson.JSONEncodeError):
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        if not _own(path.parent):
            return
        fd, aside = tempfile.mkstemp(dir=path.parent, prefix=".entry-")
        try:
            with os.fdopen(fd, "wb") as stream:
                stream.write(raw)
            os.replace(aside, path)
        except BaseException:
            os.unlink(aside)
            raise
        _prune(path.parent, keep=path)
    except OSError:
        return


def _prune(directory: Path, keep: Path) -> None:
    """Entries beyond the MAX_ENTRIES most recently written removed (each edit of a spec file makes a new
    one), and files left aside by a write cut short more than an hour ago."""
    now = time.time()
    entries = []
    for found in os.scandir(directory):
        try:
            written = found.stat(follow_symlinks=False).st_mtime
            if found.name.startswith(".entry-") and now - written > 3600:
                os.unlink(found.path)
            elif found.name.endswith(".json") and found.path != str(keep):
                entries.append((written, found.path))
        except OSError:
            continue
    for _, old in sorted(entries, reverse=True)[MAX_ENTRIES - 1:]:
        try:
            os.unlink(old)
        except OSError:
            continue
