"""Parsed spec files kept in the user's cache directory, so a spec is parsed as YAML once, not at every start.

PyYAML builds the MCR spec in some 20-30 ms, a tenth of a 10,000-case conformance run and most of a one-hand
`mjcheck score`; reading what it built back as JSON takes under 2 ms (docs/performance.md, section 4). An
entry is what parsing a text gave, its data and the line where each node starts, keyed by a hash of the text
(and of the parser's version): a changed file is another key, never a stale entry. Everything else a load
does (the schema, the references, binding) runs on the data as before, so the cache can change how fast a
spec loads, never what it says. An entry that is missing, unreadable, not what this module writes or whose
content does not load is a miss: the text is parsed again and the entry written anew. A cache that cannot be
written is no cache. Nothing but JSON is read back. Writing an entry removes all but the MAX_ENTRIES most
recent of the cache's own entries (files named as it names them; nothing else in the folder, no link).

Where: `$MJCHECK_CACHE_DIR` (empty or `off`: no cache), else `$XDG_CACHE_HOME/mjcheck`, else `~/.cache/mjcheck`;
entries go in its `specs/`, which must be a directory of the user's own that no one else may write (else no
cache), and an entry is read only when it is a regular file. The key holds the reading code's own files'
sizes and times too, so a new version of mjcheck (or an edit of checker/spec.py) never reads what an earlier
one parsed.

Each entry carries a keyed checksum (HMAC-SHA256) over its content and its key, made with a secret kept in
`specs/key` (32 random bytes, made once, mode 0600; a key file that is a link, of the wrong size, not the
user's or readable by others is replaced by a new one, and when none can be made there is no cache). This
guards against damage and against entries not written by this tool through this folder: an entry planted or
edited by hand, copied from another cache or moved under another text's name is a miss. It does not guard
against a program running as the same user that reads the key: that program can forge entries, as it could
edit the spec file itself.
"""
from __future__ import annotations

import hashlib
import hmac
import os
import re
import stat
import tempfile
import time
from pathlib import Path
from typing import Any

import orjson
import yaml

from checker.files import open_owned, read_owned, write_whole

FORMAT = 2  # what an entry holds; a new layout takes a new number, and old entries are misses
MAX_ENTRY_BYTES = 32 * 1024 * 1024
MAX_ENTRIES = 64  # a few specs, in a few versions each
KEY_NAME = "key"  # the secret entries are checked with, in `specs/`
KEY_BYTES = 32
_MAC_HEAD = b'{"mac":"'  # an entry: {"mac":"<64 hex>", then the signed part: "format":...,"data":...,"lines":...}
_SIGNED_AT = len(_MAC_HEAD) + 64 + 2
_ENTRY_NAME = re.compile(r"[0-9a-f]{64}\.json")
# what a write cut short leaves: an entry's or a key's file aside (checker.files.write_whole, _new_key), or
# an entry aside as earlier versions named it
_LEFT_ASIDE = re.compile(r"\.[0-9a-f]{64}\.json\.[a-z0-9_]+\.tmp|\.key\.[a-z0-9_]+\.tmp|\.entry-[a-z0-9_]+")
_POSIX = hasattr(os, "getuid")


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


def _mac(secret: bytes, name: str, signed: bytes) -> bytes:
    """The checksum of an entry: over its key (`name`) and `signed` (the JSON object's members after the
    checksum, with its closing brace), as 64 hex digits."""
    return hmac.new(secret, name.encode("ascii") + b"|" + signed, hashlib.sha256).hexdigest().encode("ascii")


def _seal(secret: bytes, name: str, signed: bytes) -> bytes:
    """An entry's bytes: its checksum, then `signed`."""
    return _MAC_HEAD + _mac(secret, name, signed) + b'",' + signed


def _verified(secret: bytes, name: str, raw: bytes) -> bool:
    """Whether `raw` is an entry sealed with `secret` under `name`."""
    if len(raw) <= _SIGNED_AT or not raw.startswith(_MAC_HEAD) or raw[_SIGNED_AT - 2:_SIGNED_AT] != b'",':
        return False
    return hmac.compare_digest(raw[len(_MAC_HEAD):_SIGNED_AT - 2], _mac(secret, name, raw[_SIGNED_AT:]))


def _read_key(folder: Path) -> bytes | None:
    """The secret in `folder`, if its key file is one to trust: a regular file (no link followed) of this
    user's, readable by no one else, of KEY_BYTES bytes."""
    try:
        stream = open_owned(str(folder / KEY_NAME))
        if stream is None:
            return None
        with stream:
            found = os.fstat(stream.fileno())
            if _POSIX and (found.st_uid != os.getuid() or found.st_mode & 0o077):
                return None
            secret = stream.read(KEY_BYTES + 1)
    except OSError:
        return None
    return secret if len(secret) == KEY_BYTES else None


def _new_key(folder: Path) -> bytes | None:
    """A new secret, written aside (created exclusively, mode 0600) and put in place whole: linked where
    there is no key file (a key another process made meanwhile is taken instead), renamed over one not to
    be trusted (a link is replaced as a name, its target left alone). None when none can be made."""
    path = folder / KEY_NAME
    try:
        secret = os.urandom(KEY_BYTES)
        fd, aside = tempfile.mkstemp(dir=folder, prefix=".key.", suffix=".tmp")
    except OSError:
        return None
    try:
        with os.fdopen(fd, "wb") as stream:
            stream.write(secret)
        try:
            os.link(aside, path)
        except FileExistsError:
            theirs = _read_key(folder)
            if theirs is not None:
                return theirs
            os.replace(aside, path)
        except OSError:  # a file system without hard links: renamed into place
            os.replace(aside, path)
    except OSError:
        return None
    finally:
        try:
            os.unlink(aside)
        except OSError:
            pass
    return secret


def cached(text: str) -> tuple[Any, dict[str, int]] | None:
    """What parsing `text` gave, if an entry holds it: (data, line by JSON pointer)."""
    path = _entry(text)
    if path is None or not _own(path.parent):
        return None
    secret = _read_key(path.parent)
    if secret is None:
        return None
    try:
        raw = read_owned(str(path), MAX_ENTRY_BYTES)
    except OSError:  # a link, a named pipe, a directory, too large
        return None
    if raw is None or not _verified(secret, path.stem, raw):
        return None
    try:
        entry = orjson.loads(raw)
    except (ValueError, RecursionError):
        return None
    if not (isinstance(entry, dict) and entry.get("format") == FORMAT and "data" in entry
            and isinstance(entry.get("lines"), dict)):
        return None
    lines = entry["lines"]
    if not all(type(line) is int for line in lines.values()):
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
        secret = _read_key(path.parent) or _new_key(path.parent)
        if secret is None:
            return
        write_whole(str(path), _seal(secret, path.stem, raw[1:]))
        _prune(path.parent, keep=path)
    except OSError:
        return


def _prune(directory: Path, keep: Path) -> None:
    """The cache's own entries beyond the MAX_ENTRIES most recently written removed (each edit of a spec file
    makes a new one), and files left aside by a write cut short more than an hour ago. Only regular files
    named as this module names them are removed; any other file, and any link, is left alone."""
    now = time.time()
    entries = []
    for found in os.scandir(directory):
        try:
            if not found.is_file(follow_symlinks=False):
                continue
            written = found.stat(follow_symlinks=False).st_mtime
            if _LEFT_ASIDE.fullmatch(found.name) and now - written > 3600:
                os.unlink(found.path)
            elif _ENTRY_NAME.fullmatch(found.name) and found.path != str(keep):
                entries.append((written, found.path))
        except OSError:
            continue
    for _, old in sorted(entries, reverse=True)[MAX_ENTRIES - 1:]:
        try:
            os.unlink(old)
        except OSError:
            continue
