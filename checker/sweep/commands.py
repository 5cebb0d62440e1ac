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

from checker.spec import available_rulesets

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


def sweep_command(
    ruleset_id: str = typer.Option("mcr", "--ruleset", metavar="RULESET", help="The ruleset (mcr)."),
    space: str = typer.Option("concealed", "--space", help="The space of hands: concealed (every concealed "
                                                           "complete regular hand, 11,498,658)."),
    against: str = typer.Option(..., "--against", metavar="ENGINE",
                                help="pymahjonggb (in process), or reference with --against-options."),
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
) -> None:
    """Check every hand of a space, each with every distinct winning tile, self-drawn and on a discard, by the
    reference engine and by ENGINE; report each class of disagreement (the fans that differ) with its count, its
    smallest witness and what explains it (an option of the spec and the reading the engine follows, a fan
    outside the spec, or unexplained).

    The space is cut into shards (stable id ranges); each shard is a Dask task (a local cluster of --workers
    processes, or --scheduler), and its summary is written to DIR/shards/ when it finishes: a killed sweep
    resumes with --resume and never redoes a finished shard. The report: DIR/sweep.md and DIR/sweep.json.

    Exit status: 0 the sweep finished (whatever it found); 2 bad input (an unknown engine, option or space, a
    scheduler that cannot be reached, DIR holding another sweep): nothing is started.
    """
    from checker.sweep.report import write_report
    from checker.sweep.run import Plan, SweepError, check_scheduler, prepare, read_shards, run
    from checker.sweep.work import SPACES

    def fail(message: str) -> None:
        err.print(f"[bold red]error:[/] {escape(message)}", highlight=False)
        raise typer.Exit(2)

    if ruleset_id not in available_rulesets():
        fail(f"unknown ruleset {ruleset_id!r}; known: {', '.join(available_rulesets())}")
    from checker.case import CaseRunner

    needs = [required[0] for required in CaseRunner().ruleset(ruleset_id).win.requires_flags]
    if needs:
        fail(f"the sweep's spaces are hands without context (no flags, no flowers), and {ruleset_id} lets a hand "
             f"win only with the flag(s) {', '.join(needs)}: it needs a context space, not built yet")
    if space not in SPACES:
        fail(f"unknown space {space!r}; known: {', '.join(SPACES)}")
    if against not in ENGINES:
        fail(f"unknown engine {against!r}: the sweep runs pymahjonggb in process, or the reference under "
             f"--against-options")
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
                    _options(against_options, ruleset_id, "--against-options"), shard_hands, limit)
    except typer.BadParameter as exc:
        fail(str(exc))
        return
    try:
        if scheduler:
            check_scheduler(scheduler)
        pending = prepare(plan, out_dir, resume)
    except (SweepError, OSError) as exc:
        fail(str(exc))
        return
    total = plan.hands()
    done_before = total - sum(b - a for a, b in pending)
    err.print(f"{ruleset_id} {space}: {total:,} hands in {len(plan.shards())} shards, {len(pending)} to run",
              highlight=False)
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
        except SweepError as exc:
            fail(str(exc))
    shards = read_shards(plan, out_dir)
    body = write_report(plan, out_dir, shards, complete=len(shards) == len(plan.shards()))
    out.print(f"{body['hands']:,} hands, {body['cases']:,} cases: {body['agreed']:,} agree, "
              f"{len(body['classes'])} classes of disagreement; {escape(str(out_dir / 'sweep.md'))}", highlight=False)
