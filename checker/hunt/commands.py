"""`mjcheck hunt`: search the specs for contradictions, ambiguities, gaps, dead rules, non-monotonic values and
cross-variant hands, each with a minimal witness."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from checker.case import INCOMPLETE
from checker.inputs import InputError, bounded, excerpt, json_text
from checker.spec import SpecError, available_rulesets

STOPPED_EARLY = INCOMPLETE  # the exit status of a hunt that stopped before doing all it set out to do

out = Console(soft_wrap=True)
err = Console(stderr=True, soft_wrap=True)


def hunt_command(
    ruleset_id: str = typer.Option(..., "--ruleset", metavar="RULESET", help="A ruleset id, or `all`."),
    budget: Optional[float] = typer.Option(None, "--budget", metavar="SECONDS", min=1, max=86_400,
                                           help="Time to spend (default 60 without --effort); searches not started "
                                                "by then are skipped, and the files and pages say so. With "
                                                "--effort, a cap."),
    effort: Optional[int] = typer.Option(None, "--effort", metavar="N", min=1, max=4,
                                         help="Work in counted units instead of time: N passes, the first with "
                                              "300 examples per search, 40 simulated hands per table reading and "
                                              "250,000 hands per exhaustive proof, each later pass four times as "
                                              "many, then every pair of readings. The same seed and effort find "
                                              "the same on a slow or a busy machine."),
    seed: int = typer.Option(..., "--seed", min=0, help="The same seed runs each search the same way."),
    out_dir: Path = typer.Option(..., "--out", metavar="DIR", help="Where findings-R.json, findings-R.md and "
                                                                   "findings-R.html are written; an earlier "
                                                                   "findings-R.json there is "
                                                                   "merged (a known finding keeps its id). Checked "
                                                                   "before the search: a file there the hunt cannot "
                                                                   "read or write is refused at once."),
    as_json: bool = typer.Option(False, "--json", help="Print the counts by kind as JSON on stdout."),
) -> None:
    """Hunt the specs for contradictions, ambiguities, gaps, dead rules, non-monotonic values and cross-variant
    hands, each with the smallest witness the search can make:

    - ambiguity: a reading of the document (an option of the spec) that changes a hand's result, for every
      option and each of its readings; for the table procedure's options, a hand of play the readings judge
      differently, cut after the first event they part on (short scenes for 漏胡, 一炮多响 and
      forgo-then-reclaim); pairs of readings that change a hand only together;
    - non-monotonic: a winning hand worth less with one more flower, a pung made a kong, or one more 荒番 (by
      Hypothesis), or with one more of any pattern a hand gains from its context (by a Z3 model of the
      arithmetic, which also proves where none can lower a hand);
    - gap: a shape the document excludes that still wins because its tiles form an allowed shape;
    - cross-variant: the smallest hand that wins under one ruleset and may not under another; the shortest
      hand of play whose passed tile the two Shanghai documents judge differently;
    - contradiction: a document's own example that a reading prices otherwise (the rules that collide named by
      the Z3 model's unsat core where the arithmetic decides it);
    - dead-rule: an exclusion between fans that never meet in one reading, or a fan no hand can score under a
      reading, proved by enumerating every hand the fans' definitions allow.

    With --effort N the work is counted: N passes of growing effort on what is not found yet, then every pair
    of readings; the same seed and effort find the same on any machine (--budget then caps the time), but for
    a claim of the Z3 settlement model decided near its solver's bound, which the page marks (Z3's resource
    count differs a little between runs, so another run may leave it undecided). With
    --budget alone, passes of growing effort run while seven tenths of it last, then pairs of readings; how
    many run depends on the machine's speed. Either way, a run that stops before doing all it set out to do
    says so in the file (`stopped_early`) and at the top of each page, and lists what it left out.

    Each finding names the statements it rests on (quoted), its witness (a case `mjcheck score --case` or, for
    a hand of play, `mjcheck game validate` replays), the outcome under each reading and the option that
    decides it; findings-R.html is the same page with the tiles drawn. Exit status: 0 the hunt did all it set
    out to do (whatever it found); 3 it stopped early or left something unsearched (the files and the pages say
    what: raise --effort or --budget); 2 bad input.
    """
    from checker.engine import load_ruleset
    from checker.files import write_text
    from checker.hunt.page import html_page
    from checker.hunt.run import hunt
    from checker.writable import write_problem

    names = available_rulesets() if ruleset_id == "all" else [ruleset_id]
    if ruleset_id != "all" and ruleset_id not in available_rulesets():
        err.print(f"[bold red]error:[/] unknown ruleset {escape(excerpt(ruleset_id))}; known: "
                  f"{', '.join(available_rulesets())}, all", highlight=False)
        raise typer.Exit(2)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        err.print(f"[bold red]error:[/] --out {escape(str(out_dir))}: {escape(str(exc.strerror or exc))}")
        raise typer.Exit(2)
    for name in names:  # the HTML pages, written here once the hunt has written the rest, checked before it
        problem = write_problem(out_dir / f"findings-{name}.html")
        if problem:
            err.print(f"[bold red]error:[/] cannot write {escape(str(out_dir / f'findings-{name}.html'))}: "
                      f"{escape(problem)}", highlight=False)
            raise typer.Exit(2)
    with Progress(TextColumn("hunting {task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=err, disable=not err.is_terminal, transient=True) as progress:
        task = progress.add_task("", total=None)
        try:
            written = hunt(names, budget, seed, out_dir,
                           on_start=lambda n: progress.update(task, total=n),
                           on_step=lambda label: progress.update(task, advance=1, description=escape(bounded(label, 60))),
                           effort=effort)
        except InputError as exc:
            err.print(f"[bold red]error:[/] {escape(bounded(str(exc)))}", highlight=False)
            raise typer.Exit(2)
        except SpecError as exc:  # a spec read during the hunt (another ruleset, for a cross-variant search)
            err.print(f"[bold red]error:[/] a ruleset the hunt read is not valid, and the hunt stopped:\n"
                      f"{escape(bounded(str(exc)))}", highlight=False)
            raise typer.Exit(2)
        except OSError as exc:
            err.print(f"[bold red]error:[/] --out {escape(str(out_dir))}: {escape(str(exc.strerror or exc))}")
            raise typer.Exit(2)
    try:
        for r, body in written.items():
            write_text(str(out_dir / f"findings-{r}.html"), html_page(r, load_ruleset(r).title, body))
    except OSError as exc:
        err.print(f"[bold red]error:[/] --out {escape(str(out_dir))}: {escape(str(exc.strerror or exc))}")
        raise typer.Exit(2)
    stopped = any(b["stopped_early"] for b in written.values())
    if as_json:
        print(json_text({r: {"counts": b["counts"], "skipped": len(b["skipped"]), "cut_short": len(b["cut_short"]),
                             "stopped_early": b["stopped_early"]}
                         for r, b in written.items()}, indent=2))
        raise typer.Exit(STOPPED_EARLY if stopped else 0)
    for r, body in written.items():
        counts = ", ".join(f"{n} {kind}" for kind, n in body["counts"].items() if n) or "nothing"
        skipped = f" (stopped early: {'; '.join(body['stopped_early'])})" if body["stopped_early"] else ""
        out.print(f"{escape(r)}: {escape(counts)}{skipped}; {escape(str(out_dir / f'findings-{r}.md'))} "
                  f"and .html", highlight=False)
    if stopped:  # what a run set out to do and did not: said above and in the files, and not exit 0
        raise typer.Exit(STOPPED_EARLY)
