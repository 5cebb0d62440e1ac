"""`mjcheck game import` and `mjcheck game export`: recorded matches of other programs as game logs, and back."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Optional

import typer
from rich.console import Console
from rich.markup import escape

from checker.inputs import InputError, bounded, json_text, open_input, read_bounded
from checker.matchlog import MatchLogError, formats

err = Console(stderr=True)
MAX_MATCH_BYTES = 16 * 1024 * 1024  # one recorded match (a few hundred turns of a few hundred bytes each)


def _fail(message: str) -> None:
    err.print(f"[bold red]error:[/] {escape(bounded(message))}", highlight=False)
    raise typer.Exit(2)


def _format(name: str) -> Any:
    known = formats()
    if name not in known:
        _fail(f"no match-log format {name!r}; known: {', '.join(sorted(known))}")
    return known[name]


def _read(path: str, what: str) -> bytes:
    try:
        if path == "-":
            return read_bounded(sys.stdin.buffer, MAX_MATCH_BYTES, "<stdin>")
        with open_input(path, what) as stream:
            return read_bounded(stream, MAX_MATCH_BYTES, path)
    except InputError as exc:
        _fail(str(exc))
    raise AssertionError("unreachable")


def _write(out: Optional[Path], text: str) -> None:
    if out is None:
        sys.stdout.write(text)
        return
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as exc:
        _fail(f"--out {out}: {exc.strerror or exc}")


def import_command(
    source: str = typer.Argument(..., metavar="MATCH", help="The recorded match (JSON; `-` reads stdin)."),
    from_format: str = typer.Option(..., "--from", metavar="FORMAT", help="Its format: botzone (the Chinese "
                                    "Standard Mahjong judge's duplicate format: 136 tiles, four parts of 34)."),
    out: Optional[Path] = typer.Option(None, "--out", metavar="FILE", help="Where the game log goes (default: "
                                       "stdout)."),
) -> None:
    """Turn a recorded match into a game log, replay it under the rules, and set the rules' payments beside
    the ones the recording program gave.

    The game log (JSON Lines: a header, then one event per line) is what `mjcheck game validate` reads; the
    header names the ruleset and the readings the format plays (botzone: mcr under wall_model=quarters and
    flower_tiles_in_wall=false). On stderr: whether the hand is legal under the rules, the payments both ways, and
    a penalty the program gave (a response it refused ends the match there; the log ends before it).

    Exit status: 0 the hand is legal and its payments are the program's; 1 an event breaks a rule, the hand does
    not end, or the payments differ; 2 the match cannot be read (not the format, a tile or player that cannot be).
    """
    from checker.table.log import replay_events

    fmt = _format(from_format)
    raw = _read(source, "recorded match")
    try:
        imported = fmt.read(json.loads(raw.decode("utf-8")))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        _fail(f"{source}: not a JSON match log ({exc if not isinstance(exc, RecursionError) else 'nested too deep'})")
    except MatchLogError as exc:
        _fail(f"{source}: {exc}")
    lines = [json_text(imported.header)] + [json_text(e) for e in imported.events]
    _write(out, "".join(line + "\n" for line in lines))
    found = replay_events(imported.header, imported.events)
    status = 0 if found.verdict == "legal" else 1
    if found.verdict != "legal":
        err.print(f"{escape(source)}: [red]{found.verdict}[/] at event {max(found.line - 2, 0)} "
                  f"({escape(found.rule)}): {escape(found.message)}", highlight=False)
    ours = (found.result or {}).get("payments")
    theirs = imported.recorded_payments
    if imported.ended_by_penalty:
        err.print(f"{escape(source)}: the program ended the match on a penalty ({escape(imported.ended_by_penalty)}"
                  f"); the log stops before the refused response", highlight=False)
        status = max(status, 1)
    elif found.verdict == "legal":
        agree = theirs is None or ours == theirs
        err.print(f"{escape(source)}: legal, {len(imported.events)} events; payments by seat: rules {ours}"
                  + ("" if theirs is None else f", recorded {theirs}")
                  + ("" if agree else " [red](they differ)[/]"), highlight=False)
        status = max(status, 0 if agree else 1)
    raise typer.Exit(status)


def export_command(
    log: str = typer.Argument(..., metavar="LOG", help="A game log (JSON Lines; `-` reads stdin)."),
    to_format: str = typer.Option(..., "--to", metavar="FORMAT", help="The format: botzone."),
    out: Optional[Path] = typer.Option(None, "--out", metavar="FILE", help="Where the match goes (default: "
                                       "stdout)."),
) -> None:
    """Write a legal game log as the format records a match (botzone: initdata with the wall as the judge deals
    it, and the judge's displays turn by turn), so a procedure corpus can drive such a program without an
    adapter of its own.

    Exit status: 0 written; 1 the log is not legal under its rules (nothing is written); 2 it cannot be read or
    the format cannot say it (another ruleset or reading, a dealer other than seat 0).
    """
    from checker.table.log import replay_events

    fmt = _format(to_format)
    raw = _read(log, "game log")
    try:
        rows = [json.loads(line) for line in raw.decode("utf-8").splitlines() if line.strip()]
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        _fail(f"{log}: not a game log ({exc if not isinstance(exc, RecursionError) else 'nested too deep'})")
    if not rows or not all(isinstance(r, dict) for r in rows):
        _fail(f"{log}: a game log is a header and events, each a JSON object on its own line")
    header, events = rows[0], rows[1:]
    found = replay_events(header, events)
    if found.verdict != "legal":
        err.print(f"{escape(log)}: {found.verdict} ({escape(found.rule or '')}): {escape(found.message or '')}; "
                  f"nothing written", highlight=False)
        raise typer.Exit(1 if found.status == 1 else 2)
    try:
        match = fmt.write(header, events, found.result)
    except MatchLogError as exc:
        _fail(f"{log}: {exc}")
    _write(out, json.dumps(match, ensure_ascii=False) + "\n")
