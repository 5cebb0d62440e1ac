"""Files the tool writes in a folder of its own (a conformance run's `--out`, a sweep's folder, the parse cache),
and reading them back. What the tool writes there is its own: it never follows a link planted in the folder,
never writes through a second name of another file, and reads back only regular files.

- `write_whole(path, data)`: a new file written aside (a fresh name, created exclusively) and renamed over
  `path`; a link or a file at `path` is replaced as a name, its target left alone, and a reader never sees
  half a file.
- `open_fresh(path)`: the same for a file written as a stream (results, a shard's part): an empty file of its
  own renamed into place first, then opened for appending.
- `open_append(path)`: an existing file to append to, opened without following a link and refused unless it
  is a regular file with no other name (a hard link made in the folder would let appending write elsewhere).
- `open_owned(path)` / `read_owned(path, limit)`: a file the tool wrote, to read back: no link followed, no
  FIFO or device waited on, at most `limit` bytes. None when there is no such file.
- `line_sum(data)`: the checksum a line the tool writes carries, so that a damaged line is told from a
  written one (CRC-32: damage, not an adversary, is what it guards against; the run's identity rides on
  each file's first line).
"""
from __future__ import annotations

import os
import stat
import tempfile
import zlib
from typing import BinaryIO

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)


class OwnedFileError(OSError):
    """A file in the tool's own folder that is not what the tool writes there (a link, a FIFO, a device, a
    directory, a file with a second name, one larger than the limit)."""

    def __init__(self, path: str, reason: str):
        super().__init__(f"{path}: {reason}")
        self.path, self.reason = path, reason

    def __reduce__(self) -> tuple:
        """Pickled with its path and reason (an error raised in a worker process reaches the parent whole)."""
        return (type(self), (self.path, self.reason))


def write_whole(path: str, data: bytes) -> None:
    """`data` as the whole of `path`: written to a fresh file beside it, then renamed over it."""
    folder, name = os.path.split(path)
    fd, aside = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder or ".")
    try:
        with os.fdopen(fd, "wb") as stream:
            stream.write(data)
        os.replace(aside, path)
    except BaseException:
        _remove_quietly(aside)
        raise


def write_text(path: str, text: str) -> None:
    """`text` as the whole of `path` (UTF-8; a lone surrogate, which UTF-8 cannot hold, written as U+FFFD)."""
    write_whole(path, text.encode("utf-8", "replace"))


def open_fresh(path: str, buffering: int = -1) -> BinaryIO:
    """An empty file of the tool's own at `path`, open for appending (whatever `path` named before is replaced
    as a name, its target untouched)."""
    folder, name = os.path.split(path)
    fd, aside = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder or ".")
    try:
        os.replace(aside, path)
    except BaseException:
        os.close(fd)
        _remove_quietly(aside)
        raise
    os.close(fd)
    return open_append(path, buffering)


def open_append(path: str, buffering: int = -1) -> BinaryIO:
    """`path`, which must be a regular file with one name, open for appending (created if missing)."""
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | _NOFOLLOW | _CLOEXEC | _NONBLOCK, 0o644)
    try:
        _check_regular(fd, path, writing=True)
        os.set_blocking(fd, True)
        return os.fdopen(fd, "ab", buffering=buffering)
    except BaseException:
        os.close(fd)
        raise


def open_owned(path: str) -> BinaryIO | None:
    """`path` open for reading, if it is a regular file (a link, FIFO, device or directory: OwnedFileError);
    None if there is none."""
    try:
        fd = os.open(path, os.O_RDONLY | _NOFOLLOW | _CLOEXEC | _NONBLOCK)
    except FileNotFoundError:
        return None
    except OSError as exc:
        if os.path.islink(path):
            raise OwnedFileError(path, "a symbolic link, not a file this tool wrote") from None
        raise OwnedFileError(path, exc.strerror or str(exc)) from None
    try:
        _check_regular(fd, path, writing=False)
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_owned(path: str, limit: int) -> bytes | None:
    """The whole of a file the tool wrote, at most `limit` bytes (more: OwnedFileError); None if there is none."""
    stream = open_owned(path)
    if stream is None:
        return None
    with stream:
        data = stream.read(limit + 1)
    if len(data) > limit:
        raise OwnedFileError(path, f"larger than {limit:,} bytes, more than this tool writes there")
    return data


def _check_regular(fd: int, path: str, writing: bool) -> None:
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        kind = "a directory" if stat.S_ISDIR(info.st_mode) else "a named pipe" if stat.S_ISFIFO(info.st_mode) \
            else "not a regular file"
        raise OwnedFileError(path, f"{kind}, not a file this tool wrote")
    if writing and info.st_nlink > 1:
        raise OwnedFileError(path, "a file with another name too (a hard link); this tool writes only files of "
                                   "its own")


def line_sum(data: bytes) -> str:
    """The checksum of one line's content, eight hex digits."""
    return f"{zlib.crc32(data):08x}"


def _remove_quietly(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def file_sha256(path: str | os.PathLike) -> str:
    """The SHA-256 of a file's bytes (hex), read in chunks: what a corpus's or a cache's seal records."""
    import hashlib

    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        for chunk in iter(lambda: stream.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()
