"""`mjcheck game`: replay game logs against the rules (`validate`) and play hands with bots (`simulate`)."""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any, List

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table as RichTable

from checker.inputs import InputError, bounded, excerpt, json_text, open_input, option_pairs
from checker.spec import available_rulesets

game_app = typer.Typer(help="Play and check hands under a ruleset's table procedure (claims, knocking, 漏胡, "
                            "the wall, dealer rotation).", no_args_is_help=True)
out = Console(soft_wrap=True)
err = Console(stderr=True, soft_wrap=True)


def _fail(message: str) -> None:
    err.print(f"[bold red]error:[/] {escape(bounded(message))}", highlight=False)
    raise typer.Exit(2)


@game_app.command("validate")
def validate(
    logs: List[str] = typer.Argument(..., metavar="LOG...", help="Game logs (JSON Lines: a header, then one event "
                                                                 "per line; `-` reads stdin)."),
    as_json: bool = typer.Option(False, "--json", help="One JSON object per log on stdout."),
) -> None:
    """Replay each log event by event against its ruleset's procedure.

    A legal log prints the hand's result: each winner with its fans and total, and the four seats' payments
    (seats 0-3 as the log numbers them), the next dealer and 荒番 count. An illegal one prints the first illegal
    event: its line, the rule id it breaks, the statement of the document that rule comes from, and what was
    expected instead.

    Exit status: 0 every log legal and ended; 1 a log breaks a rule or ends before its hand does; 2 a log
    cannot be read (unknown event or ruleset, a tile or seat that cannot be, a line that is not JSON, an event
    after the hand ended). Every log is reported, whatever an earlier one gave.
    """
    from checker.table.log import replay

    worst = 0
    for path in logs:
        if path == "-":
            stream, label = sys.stdin.buffer, "<stdin>"
        else:
            try:
                stream, label = open_input(path, "game log"), path
            except InputError as exc:
                worst = max(worst, 2)
                _report_unreadable(path, str(exc), as_json)
                continue
        with stream if path != "-" else _nullcontext(stream):
            found = replay(stream, label)
        worst = max(worst, found.status)
        if as_json:
            print(json_text(found.as_dict()))
        else:
            _print_replay(found)
    raise typer.Exit(worst)


class _nullcontext:
    def __init__(self, value: Any):
        self.value = value

    def __enter__(self) -> Any:
        return self.value

    def __exit__(self, *exc: Any) -> None:
        return None


def _report_unreadable(path: str, message: str, as_json: bool) -> None:
    if as_json:
        print(json_text({"log": path, "verdict": "bad input", "line": 0, "rule": "input.file", "message": message}))
    else:
        err.print(f"{escape(bounded(path))}: [red]bad input:[/] {escape(bounded(message))}", highlight=False)


def _print_replay(found: Any) -> None:
    where = escape(bounded(found.source))
    if found.verdict == "legal":
        result = found.result or {}
        if result.get("winners"):
            wins = "; ".join(
                f"seat {w['seat']} wins on {w['tile']} ({w['win_by'].replace('_', ' ')}), {w['total']}: "
                + ", ".join(f"{f['id']} {f['points']}" + (f"×{f['count']}" if f['count'] > 1 else "")
                            for f in w["fans"])
                for w in result["winners"])
        else:
            wins = "drawn hand (the wall ran out)"
        out.print(f"{where}: [green]legal[/], {found.events} events. {escape(wins)}", highlight=False)
        out.print(f"  payments by seat: {result.get('payments')}; next dealer: seat {result['next']['dealer']}"
                  + "".join(f", {name} {n}" for name, n in result["next"].get("counters", {}).items())
                  + (f"; forfeited: seats {result['forfeits']}" if result.get("forfeits") else ""), highlight=False)
        return
    colour = "yellow" if found.verdict == "unfinished" else "red"
    console = err if found.verdict == "bad input" else out
    console.print(f"{where}:{found.line}: [{colour}]{found.verdict}[/] "
                  f"{escape(found.rule)}: {escape(bounded(found.message))}", highlight=False)
    if found.expected:
        console.print(f"  expected: {escape(bounded(found.expected))}", highlight=False)
    for s in found.statements:
        console.print(f"  rule from {escape(s['doc'])} § {escape(s['section'])}: “{escape(s['phrase'])}”",
                      highlight=False)


@game_app.command("simulate")
def simulate(
    ruleset_id: str = typer.Option(..., "--ruleset", metavar="RULESET", help="A ruleset id, or `all`."),
    games: int = typer.Option(..., "--games", min=1, max=1_000_000, help="Hands to play per ruleset."),
    seed: int = typer.Option(..., "--seed", min=0, help="The same seed gives the same logs, byte for byte."),
    out_dir: Path = typer.Option(..., "--out", metavar="DIR", help="Where the logs (RULESET-NNNNNN.jsonl) and "
                                                                   "summary.json are written."),
    bots: str = typer.Option("greedy,random,greedy,random", "--bots", metavar="B,B,B,B",
                             help="The bot on each seat: random (any legal move) or greedy (wins, knocks and "
                                  "claims when it can)."),
    option: List[str] = typer.Option([], "--option", metavar="NAME=VALUE", help="A ruleset option (repeat)."),
    as_json: bool = typer.Option(False, "--json", help="Print the summary as JSON on stdout."),
) -> None:
    """Play whole hands with bots, one log per hand, and print what they add up to: wins by top pattern,
    self-draws and discard wins, drawn hands, multiple wins, average value, 漏胡 blocks, forfeits.

    Hands follow each other as at a table: each deals from the seat the last one's result names, with the
    荒番 count it leaves. Hand i plays the wall shuffled by seed S*1000000+i. Every log is replayed by the
    validator before it is written.

    Exit status: 0 all hands played and replayed legal; 1 a simulated log failed its replay (a defect: the
    summary says which); 2 bad input.
    """
    from checker.table.bots import BOTS
    from checker.table.log import replay_lines
    from checker.table.simulate import SimulationError, Summary, play_hand

    names = available_rulesets() if ruleset_id == "all" else [ruleset_id]
    if ruleset_id != "all" and ruleset_id not in available_rulesets():
        _fail(f"unknown ruleset {excerpt(ruleset_id)}; known: {', '.join(available_rulesets())}, all")
    seats = [b.strip() for b in bots.split(",")]
    if len(seats) != 4 or any(b not in BOTS for b in seats):
        _fail(f"--bots {excerpt(bots)}: four bots, comma-separated, each one of {', '.join(BOTS)}")
    try:
        options: dict[str, Any] = dict(option_pairs(option))
    except ValueError as exc:
        _fail(str(exc))
    if out_dir.exists() and not out_dir.is_dir():
        _fail(f"--out {out_dir}: not a folder")
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        _fail(f"--out {out_dir}: {exc.strerror or exc}")
    summaries = []
    broken: list[str] = []
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=err, disable=not err.is_terminal, transient=True) as progress:
        for name in names:
            task = progress.add_task(f"simulating {escape(name)}", total=games)
            summary = Summary(name)
            dealer, counters, hand_number, round_wind = 0, dict[str, int](), 0, "E"
            for i in range(games):
                try:
                    hand = play_hand(name, seed * 1_000_000 + i, seats, options or None, dealer, counters,
                                     hand_number=hand_number, round_wind=round_wind)
                except SimulationError as exc:
                    broken.append(str(exc))
                    progress.advance(task)
                    continue
                except ValueError as exc:  # an option the ruleset does not have, before any hand is played
                    _fail(str(exc))
                lines = hand.lines()
                check = replay_lines(((n + 1, text, None) for n, text in enumerate(lines)), name)
                if check.verdict != "legal" or check.result != hand.result:
                    broken.append(f"{name} hand {i}: the replay of its log gives {check.verdict} "
                                  f"({check.rule}: {check.message})")
                path = out_dir / f"{name}-{i:06d}.jsonl"
                try:
                    _write(path, "".join(line + "\n" for line in lines))
                except OSError as exc:
                    _fail(f"--out {out_dir}: {exc.strerror or exc}")
                summary.add(hand)
                following = hand.result["next"]
                dealer, hand_number = following["dealer"], following.get("hand", i + 1)
                round_wind = following.get("round_wind", "E")
                counters = dict(following.get("counters", {}))
                progress.advance(task)
            summaries.append(summary.as_dict())
    body = {"seed": seed, "games": games, "bots": seats, "options": options, "summaries": summaries,
            "defects": broken}
    try:
        _write(out_dir / "summary.json", json.dumps(body, indent=2, ensure_ascii=False) + "\n")
    except OSError as exc:
        _fail(f"--out {out_dir}: {exc.strerror or exc}")
    if as_json:
        print(json_text(body, indent=2))
    else:
        _print_summaries(summaries)
        for line in broken:
            err.print(f"[red]defect:[/] {escape(bounded(line))}", highlight=False)
    raise typer.Exit(1 if broken else 0)


def _write(path: Path, text: str) -> None:
    partial = path.with_name(path.name + ".partial")
    partial.write_text(text, encoding="utf-8")
    os.replace(partial, path)


def _print_summaries(summaries: list[dict[str, Any]]) -> None:
    table = RichTable(title="simulated hands")
    table.add_column("")
    for s in summaries:
        table.add_column(escape(s["ruleset"]), justify="right")
    rows = [("hands", "hands"), ("wins", "wins"), ("self-draw", "self_draws"), ("on a discard", "discard_wins"),
            ("robbing a kong", "robbing_kong_wins"), ("drawn hands", "drawn"), ("multiple wins", "multiple_wins"),
            ("average value", "average_value"), ("漏胡 blocks", "lou_hu_blocks"), ("forfeits", "forfeits")]
    for label, key in rows:
        table.add_row(label, *[str(s[key]) for s in summaries])
    out.print(table)
    for s in summaries:
        top = ", ".join(f"{k} {v}" for k, v in list(s["top_patterns"].items())[:8])
        out.print(f"{escape(s['ruleset'])}: wins by top pattern: {escape(top) or 'none'}", highlight=False)
