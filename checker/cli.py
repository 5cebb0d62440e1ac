"""`mjcheck`: the command line.

Exit status: 0 success; 1 a result the user asked about is negative (the hand may not win, a case does not
match its expectation); 2 bad input (a tile, meld, flag, option, file or spec the tool cannot accept).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, List, Optional

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import MofNCompleteColumn, Progress, SpinnerColumn, TextColumn
from rich.table import Table

from checker import tiles as T
from checker.case import CaseError, CaseRunner, case_problem, hand_from_input, matches, read_cases
from checker.engine import Hand, HandError, Scorer, load_ruleset, parse_meld_text
from checker.engine.scoring import Score
from checker.spec import SpecError, available_rulesets, spec_dir, value_key

app = typer.Typer(
    help="mjcheck: mahjong rules as executable specifications.\n\n"
         "Score hands under a ruleset (mcr), check spec files, and (later) hunt rule contradictions and "
         "test engines against the rules.",
    no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False,
)
spec_app = typer.Typer(help="Work with ruleset spec files (spec/*.yaml).", no_args_is_help=True)
app.add_typer(spec_app, name="spec")

out = Console(soft_wrap=True)  # a line-oriented tool: messages are never broken mid-word for the width
err = Console(stderr=True, soft_wrap=True)

SEAT_NAMES = ("winner", "player 1 (next)", "player 2 (across)", "player 3 (previous)")


def fail(message: str, code: int = 2) -> None:
    err.print(f"[bold red]error:[/] {escape(message)}", highlight=False)
    raise typer.Exit(code)


# ----------------------------------------------------------------------------- rulesets

@app.command()
def rulesets(as_json: bool = typer.Option(False, "--json", help="Print the list as JSON.")) -> None:
    """List the rulesets in spec/ with their options and defaults."""
    rows: list[dict[str, Any]] = []
    for name in available_rulesets():
        try:
            rs = load_ruleset(name)
        except SpecError as exc:
            rows.append({"id": name, "error": str(exc)})
            continue
        rows.append({"id": rs.id, "title": rs.title, "patterns": len(rs.patterns), "statements": len(rs.statements),
                     "options": {o.id: o.default for o in rs.options.values()},
                     "values": {o.id: [value_key(v) for v in o.values] for o in rs.options.values()}})
    if as_json:
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return
    for r in rows:
        if "error" in r:
            err.print(f"[red]{r['id']}: {escape(r['error'])}[/]", highlight=False)
            continue
        out.print(f"[bold]{r['id']}[/]  {escape(r['title'])}: {r['patterns']} patterns, {r['statements']} statements",
                  highlight=False)
        for name, value in r["options"].items():
            allowed = ", ".join(r["values"][name])
            out.print(f"  --option {name}={json.dumps(value).strip(chr(34))}   (readings: {allowed})", highlight=False)


# ----------------------------------------------------------------------------- spec validate

@spec_app.command("validate")
def spec_validate(
    files: Optional[List[Path]] = typer.Argument(None, help="Spec files to check (default: every spec/*.yaml)."),
    as_json: bool = typer.Option(False, "--json", help="Print the problems as JSON."),
) -> None:
    """Check spec files against the schema and their references (options, patterns, predicates, statements).

    Each problem is printed as FILE:LINE: JSON-POINTER: REASON. Exit status 2 if any file has a problem.
    """
    paths = files or sorted(spec_dir().glob("*.yaml"))
    problems = []
    for path in paths:
        try:
            rs = load_ruleset(str(path))
            if not as_json:
                out.print(f"[green]ok[/] {path}: {len(rs.patterns)} patterns, {len(rs.options)} options, "
                          f"{len(rs.statements)} statements", highlight=False)
        except SpecError as exc:
            for issue in exc.issues:
                problems.append({"file": issue.file, "line": issue.line, "pointer": issue.pointer, "reason": issue.reason})
                if not as_json:
                    err.print(f"[red]{issue}[/]", highlight=False)
    if as_json:
        print(json.dumps({"files": [str(p) for p in paths], "problems": problems}, indent=2))
    if problems:
        raise typer.Exit(2)


# ----------------------------------------------------------------------------- score

def _parse_options(items: List[str]) -> dict:
    options = {}
    for item in items:
        if "=" not in item:
            fail(f"--option {item!r}: write it as NAME=VALUE, e.g. --option tile_hog_honors=true")
        key, value = item.split("=", 1)
        options[key.strip()] = value.strip()
    return options


def _hand_from_args(scorer, hand_text, win, melds, self_draw, discard, robbing_kong, seat_wind, round_wind,
                    flowers, flags, counters) -> Hand:
    chosen = [name for name, on in (("--self-draw", self_draw), ("--discard", discard is not None),
                                    ("--robbing-kong", robbing_kong is not None)) if on]
    if len(chosen) > 1:
        raise HandError(f"choose one way of winning, not {' and '.join(chosen)}", "input.win_by")
    if discard is not None:
        win_by, discarder = "discard", discard
    elif robbing_kong is not None:
        win_by, discarder = "robbing_kong", robbing_kong
    else:
        win_by, discarder = "self_draw", None
    try:
        concealed = T.parse_tiles(hand_text)
    except T.TileError as exc:
        raise HandError(f"hand: {exc}", "input.tile") from None
    if win is None:
        if not concealed:
            raise HandError("no tiles given", "input.tile")
        concealed, win = concealed[:-1], concealed[-1]  # like the guide's calculator: the last tile is the winning one
    values = {}
    for item in counters:
        name, _, number = item.partition("=")
        try:
            values[name.strip()] = int(number)
        except ValueError:
            raise HandError(f"--counter {item!r}: write it as NAME=WHOLE_NUMBER, e.g. huangfan=2",
                            "input.counters") from None
    return scorer.build_hand(concealed=concealed, melds=[parse_meld_text(m) for m in melds], win_tile=win,
                             win_by=win_by, discarder=discarder, seat_wind=seat_wind, round_wind=round_wind,
                             flowers=flowers or "", flags=flags, counters=values)


def _render(score: Score, rs) -> None:
    hand = score.hand
    if hand is None:  # every score the scorer returns carries its hand
        raise ValueError("a score without its hand cannot be shown")
    win_text = {"self_draw": "self-drawn", "discard": f"on player {hand.discarder}'s discard",
                "robbing_kong": f"robbing player {hand.discarder}'s kong"}[hand.win_by]
    melds = " ".join(f"[{m.text()}{'' if m.source is None else f' from {m.source}'}]" for m in hand.melds)
    out.print(f"[bold]{rs.title}[/] ({rs.id})", highlight=False)
    winds = {v: k for k, v in T.WIND_TILES.items()}
    shown = " ".join(x for x in (T.format_tiles(hand.concealed), melds) if x)
    out.print(escape(f"hand: {shown} + {T.tile_name(hand.win_tile)} {win_text}; "
              f"seat wind {winds[hand.seat_wind]}, round wind {winds[hand.round_wind]}"
              + (f"; flowers {T.format_tiles(hand.flowers)}" if hand.flowers else "")
              + (f"; flags {', '.join(sorted(hand.flags))}" if hand.flags else "")), highlight=False)
    changed = {k: v for k, v in score.options.items() if v != rs.options[k].default}
    if changed:
        out.print("options: " + ", ".join(f"{k}={json.dumps(v)}" for k, v in changed.items()), highlight=False)
    if score.error == "win.shape" or not score.fans:
        out.print(f"[bold red]not a win:[/] {score.message}", highlight=False)
        return
    out.print(escape(f"reading: {score.interpretation}"), highlight=False)
    unit = rs.scoring.unit
    table = Table("pattern", "名称", "value", "why it counts")
    for f in score.fans:
        label = {"hua": " hua", "double": " double" if f.points == 1 else " doubles"}.get(f.kind, "")
        pts = f"{f.points}{label}" if f.count == 1 else f"{f.points}{label} × {f.count} = {f.total}"
        why = f.requirement + (f" ({'; '.join(f.groups)})" if f.groups else "")
        table.add_row(f.name, f.name_zh, pts, escape(why))
    out.print(table)
    for line in score.explain:
        out.print(escape(line), highlight=False)
    if rs.scoring.method == "hua":
        out.print(f"value [bold]{score.total}[/] {unit}", highlight=False)
    else:
        out.print(f"total [bold]{score.total}[/] {unit} ({score.qualifying} qualifying"
                  + (f", {score.total - score.qualifying} from flowers" if score.total != score.qualifying else "")
                  + ")", highlight=False)
    if score.withheld:
        names = {p.id: p.name_en for p in rs.patterns}
        out.print("not counted again: " + "; ".join(
            f"{names[f]} ({'account-once principle' if by == 'account_once' else 'included in ' + names[by]})"
            for f, by in score.withheld), highlight=False)
    for alt in score.alternatives:
        out.print("equally scored reading: " + ", ".join(f"{f.name}×{f.count}" for f in alt), highlight=False)
    if not score.valid:
        out.print(f"[bold red]may not win:[/] {score.message}", highlight=False)
        return
    pays = " · ".join(f"{name} {p:+d}" for name, p in zip(SEAT_NAMES, score.payments or ()))
    out.print(f"payments: {pays}", highlight=False)


@app.command()
def score(
    hand: Optional[str] = typer.Argument(
        None, help="Concealed tiles without the winning tile, in any notation (2p3p4p…, W1 B2, 一万, 🀇). "
                   "Without --win the last tile is taken as the winning tile."),
    ruleset: str = typer.Option("mcr", "--ruleset", "-r", help="Ruleset id (see `mjcheck rulesets`) or a spec file."),
    win: Optional[str] = typer.Option(None, "--win", "-w", help="The winning tile, e.g. 5p."),
    meld: List[str] = typer.Option([], "--meld", "-m",
                                   help="A declared meld TYPE:TILES[@SEAT]: chow:234m, pung:555p@2, kong:7777s, "
                                        "concealed_kong:1111z. Repeat for several."),
    self_draw: bool = typer.Option(False, "--self-draw", help="Won by drawing the tile (the default)."),
    discard: Optional[int] = typer.Option(None, "--discard", min=1, max=3,
                                          help="Won on the discard of seat N (1 next, 2 across, 3 previous)."),
    robbing_kong: Optional[int] = typer.Option(None, "--robbing-kong", min=1, max=3,
                                               help="Won by robbing seat N's added kong."),
    seat_wind: str = typer.Option("E", "--seat-wind", help="The winner's seat wind: E, S, W or N."),
    round_wind: str = typer.Option("E", "--round-wind", help="The prevalent (round) wind: E, S, W or N."),
    flowers: Optional[str] = typer.Option(None, "--flowers", help="Flowers held, e.g. 1f3f or 春夏."),
    flag: List[str] = typer.Option([], "--flag", help="A context flag of the ruleset, e.g. last_tile, "
                                                      "kong_replacement, fourth_tile_visible, knocked. "
                                                      "Repeat for several."),
    counter: List[str] = typer.Option([], "--counter", help="A whole-number context value NAME=N the ruleset "
                                                            "lists, e.g. huangfan=2. Repeat for several."),
    option: List[str] = typer.Option([], "--option", "-o", help="Choose a reading: NAME=VALUE "
                                                                "(see `mjcheck rulesets`)."),
    case: Optional[str] = typer.Option(None, "--case", help="Score one case in the DESIGN.md case format "
                                                            "(a JSON file, or - for stdin)."),
    batch: Optional[str] = typer.Option(None, "--batch", help="Score every case of a JSON Lines file "
                                                              "(or - for stdin); prints one JSON result per line."),
    as_json: bool = typer.Option(False, "--json", help="Print the result in the case format's `expect` shape."),
) -> None:
    """Score a hand: its fans with the reason each counts, the total, and the four payments.

    Examples:

      mjcheck score "2p3p4p2s3s4s6m6m6m5p" --win 5p --meld chow:234m --self-draw

      mjcheck score 1m1m1m2m2m2m3p3p3p4s4s4s5m5m          (last tile = winning tile)

      mjcheck score "234567s234567p5m" --win 5m --discard 2 --json

      mjcheck score --batch corpus/mcr-examples.jsonl

    Exit status: 0 a valid win, 1 the hand may not win (or a case's result differs from its `expect`),
    2 bad input.
    """
    if batch is not None:
        raise typer.Exit(_score_batch(batch))
    if case is not None:
        raise typer.Exit(_score_case(case, as_json))
    if hand is None:
        fail("give a hand (e.g. mjcheck score 2p3p4p2s3s4s6m6m6m5p --win 5p --meld chow:234m), --case or --batch")
    try:
        rs = load_ruleset(ruleset)
        scorer = Scorer(rs, _parse_options(option))
    except SpecError as exc:
        fail(str(exc))
    except ValueError as exc:
        fail(str(exc))
    try:
        the_hand = _hand_from_args(scorer, hand, win, meld, self_draw, discard, robbing_kong, seat_wind,
                                   round_wind, flowers, flag, counter)
    except HandError as exc:
        if as_json:
            print(json.dumps({"valid": False, "error": exc.rule, "message": str(exc)}, ensure_ascii=False))
        fail(f"{exc} [{exc.rule}]")
    result = scorer.score(the_hand)
    if as_json:
        print(json.dumps(result.as_expect(), ensure_ascii=False))
    else:
        _render(result, rs)
    raise typer.Exit(0 if result.valid else 1)


def _open(path: str):
    if path == "-":
        return sys.stdin, "<stdin>"
    try:
        return open(path, encoding="utf-8"), path
    except OSError as exc:
        fail(f"cannot read {path}: {exc.strerror}")


def _score_case(path: str, as_json: bool) -> int:
    stream, label = _open(path)
    text = stream.read()
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        lines = [line for line in text.splitlines() if line.strip()]
        if len(lines) != 1:
            fail(f"{label}: --case takes one JSON case; use --batch for a JSON Lines file")
        try:
            data = json.loads(lines[0])
        except json.JSONDecodeError as exc:
            fail(f"{label}: invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}")
    problem = case_problem(data)
    if problem:
        fail(f"{label}: not a valid case: {problem}")
    runner = CaseRunner()
    try:
        result = runner.run(data)
    except CaseError as exc:
        fail(f"{label}: {exc}")
    if as_json:
        print(json.dumps(result, ensure_ascii=False))
    else:
        scorer = runner.scorer(data["ruleset"], data.get("options"))
        try:
            the_hand = hand_from_input(data["input"], scorer)
        except HandError as exc:
            fail(f"{label}: {exc} [{exc.rule}]")
        _render(scorer.score(the_hand), scorer.ruleset)
    if "expect" in data:
        ok = matches(result, data["expect"])
        (out if ok else err).print(f"expectation {'met' if ok else 'NOT met'}: {data.get('id', label)}", highlight=False)
        return 0 if ok else 1
    return 0 if result.get("valid") or "either" in result else 1


def _score_batch(path: str) -> int:
    stream, label = _open(path)
    runner = CaseRunner()
    bad = mismatched = 0
    with Progress(SpinnerColumn(), TextColumn("scoring {task.description}"), MofNCompleteColumn(),
                  console=err, disable=not err.is_terminal, transient=True) as progress:
        task = progress.add_task(label, total=None)
        for item in read_cases(stream, label):
            progress.advance(task)
            outcome = _batch_line(runner, item)
            bad += outcome == "bad"
            mismatched += outcome == "mismatch"
    if bad:
        err.print(f"{bad} case(s) could not be scored", highlight=False)
        return 2
    return 1 if mismatched else 0


def _batch_line(runner: CaseRunner, item) -> str:
    """Score one case line and print its result line; say whether it was bad, mismatched or fine."""
    if item.case is None:
        print(json.dumps({"line": item.line, "error": "input.case", "message": item.error}))
        return "bad"
    try:
        result = runner.run(item.case)
    except CaseError as exc:
        print(json.dumps({"line": item.line, "id": item.case.get("id"), "error": exc.rule, "message": str(exc)},
                         ensure_ascii=False))
        return "bad"
    line = {"line": item.line, "id": item.case.get("id"), "result": result}
    outcome = "ok"
    if "expect" in item.case:
        line["matches"] = matches(result, item.case["expect"])
        outcome = "ok" if line["matches"] else "mismatch"
    print(json.dumps(line, ensure_ascii=False))
    return outcome


def main() -> None:
    app()


if __name__ == "__main__":
    main()
