"""What every command shares: the consoles, safe text, failing with an exit status, the rulesets of
--ruleset-file and the case input."""
from __future__ import annotations

import sys
from typing import List, NoReturn

import typer
from rich.console import Console
from rich.markup import escape

from checker.case import REFUSED
from checker.engine import load_ruleset_file
from checker.inputs import InputError, bounded, open_input
from checker.spec import SpecError


out = Console(soft_wrap=True)  # a line-oriented tool: messages are never broken mid-word for the width
err = Console(stderr=True, soft_wrap=True)

def safe(text: str) -> str:
    """Text from a spec or an input made safe for the console: bounded, control characters escaped, and
    no rich markup (a spec file of one's own may name a fan `[blink]…`)."""
    return escape(bounded(text))


def fail(message: str, code: int = REFUSED) -> NoReturn:
    err.print(f"[bold red]error:[/] {safe(message)}", highlight=False)
    raise typer.Exit(code)


def load_ruleset_files(paths: List[str]) -> dict:
    """The rulesets of --ruleset-file, by id; a file that cannot be read or validated is bad input."""
    loaded: dict = {}
    for path in paths:
        try:
            rs = load_ruleset_file(path)
        except SpecError as exc:
            fail(str(exc))
        if rs.id in loaded:
            fail(f"--ruleset-file {path}: ruleset id {rs.id!r} is already loaded from {loaded[rs.id].path}")
        loaded[rs.id] = rs
    return loaded


def open_case_input(path: str, what: str):
    """A binary stream for --case / --batch: a file, a pipe, or stdin for `-`."""
    if path == "-":
        return sys.stdin.buffer, "<stdin>"
    try:
        return open_input(path, what), path
    except InputError as exc:
        fail(str(exc))

