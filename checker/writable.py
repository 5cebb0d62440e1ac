"""Whether a file can be written where the user asked, checked before the search that fills it (a corpus, the
hunt's findings) rather than after: a refusal then costs nothing.

The tool writes such a file whole: beside it as `NAME.partial`, then moved over it (a reader never sees half a
file, and a failed write leaves the old one). So the folder must take a new file, the name must not be a
folder, a named pipe or a device (moving a file over a device's name would replace the device), and the aside
name must not be taken by anything but an earlier regular file.
"""
from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path


def write_problem(path: Path) -> str | None:
    """Why a file cannot be written whole at `path`, or None when it can; a new empty file is made in its
    folder and removed at once to find out."""
    try:
        return _problem(path)
    except OSError as exc:  # a name too long, a loop of links, …
        return exc.strerror or str(exc)
    except ValueError as exc:  # a NUL in the name
        return str(exc)


def _problem(path: Path) -> str | None:
    folder = path.parent
    if not folder.exists():
        return f"its folder {folder} does not exist"
    if not folder.is_dir():
        return f"{folder} is not a folder"
    for name, what in ((path, "it"), (path.with_name(path.name + ".partial"), f"{path.name}.partial (written first)")):
        try:
            mode = os.stat(name).st_mode
        except FileNotFoundError:
            continue
        if stat.S_ISDIR(mode):
            return f"{what} is a folder"
        if not stat.S_ISREG(mode):
            return f"{what} is not a regular file (a named pipe or a device)"
    try:
        fd, probe = tempfile.mkstemp(dir=folder, prefix=f".{path.name[:100]}.", suffix=".probe")
    except OSError as exc:
        return f"no file can be made in its folder {folder}: {exc.strerror or exc}"
    os.close(fd)
    os.unlink(probe)
    return None
