"""`mjcheck score`: one hand from the arguments, a case file or a batch of cases."""
from __future__ import annotations

import json
import sys
from typing import Any, List, Optional

import typer
from rich.markup import escape
from rich.progress import MofNCompleteColumn, Progress, SpinnerColumn, TextColumn
from rich.table import Table

from checker import tiles as T
from checker.case import (NOT_WON, REFUSED, WON, CaseError, CaseLine, CaseRunner, hand_from_input, read_case,
                          read_cases)
from checker.commands.common import err, fail, load_ruleset_files, open_case_input, out, safe
from checker.engine import Hand, HandError, Scorer, load_ruleset, parse_meld_text
from checker.engine.hand import MAX_TILE_TEXT
from checker.inputs import InputError, bounded, excerpt, json_text, option_pairs
from checker.engine.scoring import Score
from checker.spec import DEFAULT_RULESET, SpecError, rulesets_given

SEAT_NAMES = ("winner", "player 1 (next)", "player 2 (across)", "player 3 (previous)")


# ----------------------------------------------------------------------------- score

def _parse_options(items: List[str]) -> dict:
    try:
        return option_pairs(items)
    except ValueError as exc:
        fail(str(exc))


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
    if len(hand_text) > MAX_TILE_TEXT:
        raise HandError(f"hand: {len(hand_text):,} characters; a tile field is limited to {MAX_TILE_TEXT}",
                        "input.tile")
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
            raise HandError(f"--counter {excerpt(item)}: write it as NAME=WHOLE_NUMBER, e.g. huangfan=2",
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
    out.print(f"[bold]{safe(rs.title)}[/] ({safe(rs.id)})", highlight=False)
    winds = {v: k for k, v in T.WIND_TILES.items()}
    shown = " ".join(x for x in (T.format_tiles(hand.concealed), melds) if x)
    out.print(escape(f"hand: {shown} + {T.tile_name(hand.win_tile)} {win_text}; "
              f"seat wind {winds[hand.seat_wind]}, round wind {winds[hand.round_wind]}"
              + (f"; flowers {T.format_tiles(hand.flowers)}" if hand.flowers else "")
              + (f"; flags {', '.join(sorted(hand.flags))}" if hand.flags else "")), highlight=False)
    changed = {k: v for k, v in score.options.items() if v != rs.options[k].default}
    if changed:
        out.print(safe("options: " + ", ".join(f"{k}={json.dumps(v)}" for k, v in changed.items())), highlight=False)
    if score.error == "win.shape" or not score.fans:
        out.print(f"[bold red]not a win:[/] {safe(score.message)}", highlight=False)
        return
    out.print(safe(f"reading: {score.interpretation}"), highlight=False)
    unit = rs.scoring.unit
    table = Table("pattern", "名称", "value", "why it counts")
    for f in score.fans:
        label = {"hua": " hua", "double": " double" if f.points == 1 else " doubles"}.get(f.kind, "")
        pts = f"{f.points}{label}" if f.count == 1 else f"{f.points}{label} × {f.count} = {f.total}"
        why = f.requirement + (f" ({'; '.join(f.groups)})" if f.groups else "")
        table.add_row(safe(f.name), safe(f.name_zh), pts, safe(why))
    out.print(table)
    for line in score.explain:
        out.print(safe(line), highlight=False)
    if rs.scoring.method == "hua":
        out.print(f"value [bold]{score.total}[/] {safe(unit)}", highlight=False)
    else:
        out.print(f"total [bold]{score.total}[/] {safe(unit)} ({score.qualifying} qualifying"
                  + (f", {score.total - score.qualifying} from flowers" if score.total != score.qualifying else "")
                  + ")", highlight=False)
    if score.withheld:
        names = {p.id: p.name_en for p in rs.patterns}
        out.print(safe("not counted again: " + "; ".join(
            f"{names[f]} ({'account-once principle' if by == 'account_once' else 'included in ' + names[by]})"
            for f, by in score.withheld)), highlight=False)
    for alt in score.alternatives:
        out.print(safe("equally scored reading: " + ", ".join(f"{f.name}×{f.count}" for f in alt)), highlight=False)
    if not score.valid:
        out.print(f"[bold red]may not win:[/] {safe(score.message)}", highlight=False)
        return
    pays = " · ".join(f"{name} {p:+d}" for name, p in zip(SEAT_NAMES, score.payments or ()))
    out.print(f"payments: {pays}", highlight=False)


def score(
    hand: Optional[str] = typer.Argument(
        None, help="Concealed tiles without the winning tile, in any notation (2p3p4p…, W1 B2, 一万, 🀇). "
                   "Without --win the last tile is taken as the winning tile."),
    ruleset: Optional[str] = typer.Option(None, "--ruleset", "-r", show_default=False,
                                          help="Ruleset id (see `mjcheck rulesets`); default mcr."),
    ruleset_file: List[str] = typer.Option(
        [], "--ruleset-file", metavar="SPEC.yaml",
        help="Load a ruleset from a spec file of your own. A hand on the command line is scored under it; "
             "cases whose `ruleset` is its id use it (a case names its ruleset by id only, never by path). "
             "Repeat for several."),
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
                                                            "lists, within its range, e.g. huangfan=2 "
                                                            "(`mjcheck rulesets` shows each range). "
                                                            "Repeat for several."),
    option: List[str] = typer.Option([], "--option", "-o", help="Choose a reading: NAME=VALUE "
                                                                "(see `mjcheck rulesets`)."),
    case: Optional[str] = typer.Option(None, "--case", help="Score one case in the DESIGN.md case format "
                                                            "(a JSON file, or - for stdin)."),
    batch: Optional[str] = typer.Option(None, "--batch", help="Score every case of a JSON Lines file "
                                                              "(or - for stdin, or a shipped corpus's name); prints "
                                                              "one JSON line per input line, each scored or refused "
                                                              "on its own."),
    as_json: bool = typer.Option(False, "--json", help="Print the result in the case format's `expect` shape."),
) -> None:
    """Score a hand: its fans with the reason each counts, the total, and the four payments.

    Examples:

      mjcheck score "2p3p4p2s3s4s6m6m6m5p" --win 5p --meld chow:234m --self-draw

      mjcheck score 1m1m1m2m2m2m3p3p3p4s4s4s5m5m          (last tile = winning tile)

      mjcheck score "234567s234567p5m" --win 5m --discard 2 --json

      mjcheck score --batch corpus/mcr-examples.jsonl

      mjcheck score --ruleset-file my-rules.yaml 1m1m1m2m2m2m3p3p3p4s4s4s5m5m

    Exit status, the same for a hand, --case and --batch: 0 a valid win (or every case meets its `expect`);
    1 the hand may not win, or a case's result differs from its `expect`; 2 bad input (a tile, meld, flag,
    counter, option, file, line or spec the tool cannot accept). A batch exits with the highest status of
    its lines.
    """
    extra = load_ruleset_files(ruleset_file)
    if batch is not None:
        with rulesets_given(extra):
            raise typer.Exit(_score_batch(batch, extra))
    if case is not None:
        with rulesets_given(extra):
            raise typer.Exit(_score_case(case, as_json, extra))
    if hand is None:
        fail("give a hand (e.g. mjcheck score 2p3p4p2s3s4s6m6m6m5p --win 5p --meld chow:234m), --case or --batch")
    if ruleset is not None and extra and ruleset not in extra:
        fail(f"--ruleset {ruleset} and --ruleset-file {ruleset_file[0]} name different rulesets; give one")
    try:
        rs = extra[ruleset] if ruleset in extra else next(iter(extra.values())) if extra \
            else load_ruleset(ruleset or DEFAULT_RULESET)
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
            print(json_text({"valid": False, "error": exc.rule, "message": bounded(str(exc))}))
        fail(f"{exc} [{exc.rule}]")
    result = scorer.score(the_hand)
    if as_json:
        print(json_text(result.as_expect()))
    else:
        _render(result, rs)
    raise typer.Exit(WON if result.valid else NOT_WON)


def _score_case(path: str, as_json: bool, extra: dict) -> int:
    stream, label = open_case_input(path, "case file")
    try:
        data = read_case(stream, label)
    except InputError as exc:
        fail(str(exc))
    except CaseError as exc:
        fail(str(exc))
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()
    runner = CaseRunner(extra)
    try:
        outcome = runner.outcome(data)
    except CaseError as exc:
        fail(f"{label}: {exc} [{exc.rule}]")
    if as_json:
        print(json_text(_safe(outcome.result)))
    elif data.get("kind") == "procedure":  # a hand of play: its verdict, as `mjcheck game validate` words it
        result = outcome.result
        said = f"{label}: {result['verdict']}"
        if result["verdict"] != "legal":
            said += f" at event {result.get('event', '?')}: {result['rule']}: {result.get('message', '')}"
        elif "winners" in result:
            said += f"; payments by seat {result['payments']}, next dealer seat {result['next_dealer']}"
        (err if outcome.refused else out).print(safe(said), highlight=False)
    elif outcome.refused:
        message = f"{label}: {outcome.result['message']} [{outcome.result['error']}]"
        err.print(f"[bold red]error:[/] {safe(message)}", highlight=False)
    else:
        scorer = runner.scorer(data["ruleset"], data.get("options"))
        _render(scorer.score(hand_from_input(data["input"], scorer)), scorer.ruleset)
    if outcome.matches is not None:
        (out if outcome.matches else err).print(
            f"expectation {'met' if outcome.matches else 'NOT met'}: {escape(bounded(str(data.get('id', label))))}",
            highlight=False)
    return outcome.status


def _score_batch(path: str, extra: dict) -> int:
    from checker.corpus.shipped import shipped_corpora

    shipped = shipped_corpora()
    path = str(shipped[path]) if path in shipped else path  # a shipped corpus's name, else a file (or -)
    stream, label = open_case_input(path, "batch file")
    runner = CaseRunner(extra)
    worst = WON
    counts = {WON: 0, NOT_WON: 0, REFUSED: 0}
    failed: list[int] = []
    with Progress(SpinnerColumn(), TextColumn("scoring {task.description}"), MofNCompleteColumn(),
                  console=err, disable=not err.is_terminal, transient=True) as progress:
        task = progress.add_task(escape(label), total=None)
        for item in read_cases(stream, label):
            progress.advance(task)
            status = _batch_line(runner, item, failed)
            counts[status] += 1
            worst = max(worst, status)
    if counts[REFUSED] > len(failed):
        err.print(f"{counts[REFUSED] - len(failed)} line(s) refused as bad input", highlight=False)
    if failed:
        shown = ", ".join(map(str, failed[:10])) + (" …" if len(failed) > 10 else "")
        err.print(f"the engine failed on {len(failed)} line(s) ({shown}): a fault of mjcheck, not of the cases; "
                  f"please report it with those lines", highlight=False, markup=False)
    return worst


def _batch_line(runner: CaseRunner, item: CaseLine, failed: list[int]) -> int:
    """Score one case line and print its result line (or why it was refused); return its exit status. A case
    the engine fails on (a fault of the engine) gets a line saying so, its number added to `failed`, and the
    batch goes on: every line gets its own output line."""
    if item.case is None:
        print(json_text({"line": item.line, "error": item.rule, "message": bounded(item.error or "")}))
        return REFUSED
    case_id = item.case.get("id")
    try:
        outcome = runner.outcome(item.case)
    except CaseError as exc:
        print(json_text({"line": item.line, "id": case_id, "error": exc.rule, "message": bounded(str(exc))}))
        return REFUSED
    except Exception as exc:  # noqa: BLE001 - one case the engine cannot run never loses the lines after it
        failed.append(item.line)
        message = f"the engine failed on this case ({type(exc).__name__}: {excerpt(str(exc), 200)})"
        print(json_text({"line": item.line, "id": case_id, "error": "engine.failure", "message": bounded(message)}))
        return REFUSED
    line: dict[str, Any] = {"line": item.line, "id": case_id, "result": _safe(outcome.result)}
    if outcome.matches is not None:
        line["matches"] = outcome.matches
    print(json_text(line))
    return outcome.status


def _safe(result) -> dict:
    """A result with its message made safe to print (bounded, control characters escaped)."""
    result = dict(result)
    if isinstance(result.get("message"), str):
        result["message"] = bounded(result["message"])
    return result


