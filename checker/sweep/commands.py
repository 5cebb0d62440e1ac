"""`mjcheck sweep`: every hand of a space, checked against another engine (or the reference under other
readings), on Dask."""
from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Mapping, Optional

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from checker.inputs import bounded
from checker.spec import DEFAULT_RULESET, available_rulesets

out = Console(soft_wrap=True)
err = Console(stderr=True, soft_wrap=True)
ENGINES = ("pymahjonggb", "reference")


def _options(pairs: list[str], ruleset_id: str, flag: str) -> dict[str, Any]:
    from checker.case import CaseRunner

    ruleset = CaseRunner().ruleset(ruleset_id)
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, text = pair.partition("=")
        if not sep or key not in ruleset.scoring_options():
            raise typer.BadParameter(f"{flag} {pair!r}: write OPTION=VALUE with a scoring option of {ruleset_id} "
                                     f"({', '.join(ruleset.scoring_options())})")
        try:
            options[key] = ruleset.options[key].coerce(text)
        except ValueError as exc:
            raise typer.BadParameter(f"{flag} {pair!r}: {exc}") from None
    return options


def _engine_refusal(spec: str, ruleset_id: str) -> str | None:
    """Why an engine named python:… or cmd:… cannot be swept (it does not start, or does not score this ruleset),
    or None; the engine is started and stopped once to find out."""
    from checker.conform.adapters import EngineError
    from checker.conform.engines import engine_from_spec

    try:
        engine = engine_from_spec(spec)
        info = engine.start()
    except EngineError as exc:
        return str(exc)
    try:
        return info.refuses({"kind": "score", "ruleset": ruleset_id})
    finally:
        engine.stop()


def space_words(space: str, context_data: Mapping[str, Any], open_melds: int) -> str:
    """What a sweep's space holds beside its name, for the line printed before it runs (the context; for the open
    space, how many melds)."""
    from checker.sweep.work import describe_context

    melds = ("one meld" if open_melds == 1 else f"1 to {open_melds} melds") if space == "open" else ""
    return "; ".join(part for part in (describe_context(context_data), melds) if part)


def sweep_command(
    ruleset_id: str = typer.Option(DEFAULT_RULESET, "--ruleset", metavar="RULESET", help="The ruleset (mcr)."),
    space: str = typer.Option("concealed", "--space", help="The space of hands: concealed (every concealed "
                                                           "complete regular hand, 11,498,658; with --meld, every "
                                                           "concealed part completing the melds), open (every "
                                                           "hand of 1 to --open-melds declared melds: 94,285,956 of "
                                                           "one meld), or special (every concealed hand of a special "
                                                           "shape: seven pairs, thirteen orphans, honors-and-knitted, "
                                                           "knitted straight; 16,428,853)."),
    open_melds: int = typer.Option(1, "--open-melds", min=1, max=4, metavar="N",
                                   help="With --space open: hands of 1 to N melds (1 to 4; up to two: 390,860,172 "
                                        "hands; up to four: 1,050,550,599, sized in about a minute)."),
    melds: list[str] = typer.Option([], "--meld", metavar="TYPE:TILES[@SEAT]",
                                    help="A meld every hand holds (repeat): chow:234m@3, pung:555p@2, kong:7777s@1, "
                                         "concealed_kong:1z1z1z1z. The space is then the concealed parts that "
                                         "complete them."),
    flags: list[str] = typer.Option([], "--flag", metavar="FLAG",
                                    help="A context flag every case carries (repeat), one the ruleset knows; a case "
                                         "its hand checks refuse (a flag a way of winning may not carry) is counted "
                                         "as ruled out."),
    seat_wind: str = typer.Option("E", "--seat-wind", metavar="E|S|W|N", help="Every case's seat wind."),
    round_wind: str = typer.Option("E", "--round-wind", metavar="E|S|W|N", help="Every case's round wind."),
    against: str = typer.Option(..., "--against", metavar="ENGINE",
                                help="pymahjonggb (in process), reference with --against-options, or any engine "
                                     "mjcheck conform runs: python:MODULE:FUNCTION, cmd:\"COMMAND\" (the JSON-lines "
                                     "protocol; --against-options become the cases' options)."),
    options: list[str] = typer.Option([], "--options", metavar="K=V", help="The reference engine's readings."),
    against_options: list[str] = typer.Option([], "--against-options", metavar="K=V",
                                              help="The readings of the reference it is checked against."),
    workers: Optional[int] = typer.Option(None, "--workers", min=1, max=512,
                                          help="Local worker processes (default: one a core)."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", metavar="ADDRESS",
                                            help="An existing Dask scheduler (tcp://host:8786) instead of a local "
                                                 "cluster."),
    limit: Optional[int] = typer.Option(None, "--limit", min=1, help="Only the first N hands of the space."),
    shard_hands: int = typer.Option(20_000, "--shard-hands", min=1, max=10_000_000, help="Hands a shard."),
    out_dir: Path = typer.Option(..., "--out", metavar="DIR", help="Where plan.json, shards/ and the report go."),
    resume: bool = typer.Option(False, "--resume", help="Continue the sweep in DIR: finished shards are kept."),
    effort: int = typer.Option(1, "--effort", min=1, max=1000, metavar="N",
                               help="The cause search's effort, N times the default; every class gets a share."),
    no_diagnose: bool = typer.Option(False, "--no-diagnose", help="Report the classes, search no cause."),
) -> None:
    """Check every hand of a space, each with every distinct winning tile, self-drawn and on a discard, by the
    reference engine and by ENGINE; report each class of disagreement (the fans that differ) with its count, its
    smallest witness in words, a command that reproduces it and its cause, found by the search mjcheck conform
    uses (a reading the engine follows, a spec edit, a context reading, two of them, fans outside the spec, or
    unexplained), checked against the cases of 64 hands spread over the space on which both engines agree.

    The space is cut into shards (stable id ranges); each shard is a Dask task (a local cluster of --workers
    processes, or --scheduler), and its summary is written to DIR/shards/ when it finishes: a killed sweep
    resumes with --resume and never redoes a finished shard. The report: DIR/sweep.md, DIR/sweep.html (the same
    page, each witness drawn as tiles) and DIR/sweep.json.

    The size of the space is printed before anything runs. Examples:

      mjcheck sweep --against pymahjonggb --out sweep-mcr

      mjcheck sweep --against pymahjonggb --meld pung:5p5p5p@2 --flag last_tile --out sweep-pung-last

      mjcheck sweep --ruleset shanghai-knocking --flag knocked --against reference
        --against-options OPTION=VALUE --out sweep-knocking

    Every file of DIR the sweep reads back carries a checksum, and each shard the sweep's identity: a shard file
    that does not match (damaged, another sweep's, a link, a named pipe) is run again and replaced; a plan.json
    that does not match is refused.

    Exit status: 0 the sweep checked every hand of the space (whatever it found); 3 the report is partial: some
    shard has no summary, so hands were left unchecked (--resume runs them); 2 bad input (an
    unknown engine, option, space, meld, flag or wind, a scheduler that cannot be reached, DIR holding another
    sweep or a damaged plan.json, a context that rules out every case): nothing is started.
    """
    from checker.sweep.report import write_report
    from checker.sweep.run import PARTIAL
    from checker.sweep.run import Plan, SweepError, check_scheduler, complete, prepare, read_shards, run
    from checker.engine import HandError
    from checker.sweep.work import SPACES, context_of, context_refusal

    def fail(message: str) -> None:
        err.print(f"[bold red]error:[/] {escape(message)}", highlight=False)
        raise typer.Exit(2)

    if ruleset_id not in available_rulesets():
        fail(f"unknown ruleset {ruleset_id!r}; known: {', '.join(available_rulesets())}")
    from checker.case import CaseError, CaseRunner

    try:
        ruleset = CaseRunner().ruleset(ruleset_id)
    except CaseError as exc:  # a ruleset of one's own (MJCHECK_SPEC_PATH) that does not load
        fail(str(exc))
        return
    unknown = [f for f in flags if f not in ruleset.flags]
    if unknown:
        fail(f"--flag {', '.join(unknown)}: not a flag of {ruleset_id} (its flags: {', '.join(ruleset.flags)})")
    needs = [flag for flag in ruleset.win.required_flags if flag not in flags]
    if needs:
        fail(f"{ruleset_id} lets a hand win only with the flag(s) {', '.join(needs)}: give them with --flag")
    context_data: dict[str, Any] = {}
    if melds:
        context_data["melds"] = list(melds)
    if flags:
        context_data["flags"] = sorted(set(flags))
    if seat_wind != "E":
        context_data["seat_wind"] = seat_wind
    if round_wind != "E":
        context_data["round_wind"] = round_wind
    try:
        context = context_of(context_data)
    except HandError as exc:
        fail(f"{exc} [{exc.rule}]")
        return
    if len(context.melds) > 4:
        fail(f"{len(context.melds)} melds: a hand has at most four")
    if space == "open" and context.melds:
        fail("--space open places every meld itself: --meld fixes melds of the concealed space")
    if space == "special" and context.melds:
        fail("--space special holds concealed hands only: the special shapes take no declared meld")
    if space != "open" and open_melds != 1:
        fail("--open-melds goes with --space open")
    if space not in SPACES:
        fail(f"unknown space {space!r}; known: {', '.join(SPACES)}")
    if against not in ENGINES and not against.startswith(("python:", "cmd:")):
        fail(f"unknown engine {against!r}: give pymahjonggb, reference (with --against-options), "
             f"python:MODULE:FUNCTION or cmd:\"COMMAND\"")
    if against.startswith(("python:", "cmd:")):
        refused = _engine_refusal(against, ruleset_id)
        if refused:
            fail(refused)
    if against == "reference" and not against_options:
        fail("--against reference needs --against-options K=V (the readings to compare)")
    if against == "pymahjonggb":
        from checker.conform.adapters import EngineError
        from checker.conform.pymahjonggb import calculator
        try:
            calculator()
        except EngineError as exc:
            fail(str(exc))
    try:
        plan = Plan(ruleset_id, space, against, _options(options, ruleset_id, "--options"),
                    _options(against_options, ruleset_id, "--against-options"), shard_hands, limit, context_data,
                    open_melds)
    except typer.BadParameter as exc:
        fail(str(exc))
        return
    refusal = context_refusal(plan)
    if refusal is not None:
        fail(f"the context rules out every case of the space's first hand: {refusal}")
    try:
        if scheduler:
            check_scheduler(scheduler)
        damaged: list[str] = []
        pending = prepare(plan, out_dir, resume, damaged)
    except (SweepError, OSError) as exc:
        fail(str(exc))
        return
    html = out_dir / "sweep.html"
    if html.is_dir() and not html.is_symlink():  # a name the report is written to, which a rename cannot replace
        fail(f"{html}: a folder where the sweep writes a file; remove it or give another --out")
    if damaged:
        listed = "; ".join(damaged[:5]) + (f"; and {len(damaged) - 5:,} more" if len(damaged) > 5 else "")
        err.print(f"{len(damaged):,} shard file(s) are not this sweep's summaries and are run again: "
                  f"{escape(bounded(listed))}", highlight=False)
    total = plan.hands()
    done_before = total - sum(b - a for a, b in pending)
    shown = space_words(space, context_data, open_melds)
    err.print(f"{ruleset_id} {space}{' (' + shown + ')' if shown else ''}: {total:,} hands in "
              f"{len(plan.shards())} shards, {len(pending)} to run; each hand with every distinct winning tile, "
              f"self-drawn and on a discard", highlight=False)
    started = time.monotonic()
    with Progress(TextColumn("sweeping"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.description}"),
                  TimeRemainingColumn(), console=err, disable=not err.is_terminal, transient=True) as progress:
        task = progress.add_task("", total=total, completed=done_before)
        swept = [0]

        def on_shard(summary: Mapping[str, Any]) -> None:
            swept[0] += summary["hands"]
            rate = swept[0] / max(time.monotonic() - started, 1e-9)
            progress.update(task, advance=summary["hands"], description=f"{rate:,.0f} hands/s")

        try:
            run(plan, out_dir, pending, workers, scheduler, on_shard)
        except (SweepError, OSError) as exc:
            fail(str(exc))
    shards = read_shards(plan, out_dir)
    whole = complete(plan, shards)
    try:
        body = write_report(plan, out_dir, shards, complete=whole, effort=effort, search=not no_diagnose)
    except OSError as exc:
        fail(f"cannot write the report in {out_dir}: {exc}")
        return
    if not whole:
        err.print(f"partial: {len(plan.shards()) - len(shards):,} of {len(plan.shards()):,} shards have no summary "
                  f"in {escape(str(out_dir / 'shards'))} (--resume runs them)", highlight=False)
    unexplained = sum(1 for c in body["classes"] if not c["cause"].get("explained_by") or c["cause"].get("unexplained"))
    out.print(f"{body['hands']:,} hands, {body['cases']:,} cases: {body['agreed']:,} agree, "
              f"{len(body['classes'])} classes of disagreement"
              f"{f' ({unexplained} not wholly explained)' if unexplained else ''}; "
              f"{escape(str(out_dir / 'sweep.md'))} and .html", highlight=False)
    if not whole:  # hands left unchecked: never "all good"
        raise typer.Exit(PARTIAL)
