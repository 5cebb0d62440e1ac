"""`mjcheck corpus generate|random|strength|list`: the test corpora."""
from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import List, Optional

import typer
from rich.markup import escape
from rich.progress import MofNCompleteColumn, Progress, SpinnerColumn, TextColumn

from checker.case import NOT_WON, WON
from checker.commands.common import err, fail, out, safe
from checker.engine import load_ruleset
from checker.inputs import InputError, bounded, excerpt, json_text, option_pairs
from checker.spec import SpecError, available_rulesets

corpus_app = typer.Typer(help="The shipped test corpora (list); generate them and measure their strength.",
                         no_args_is_help=True)


# ----------------------------------------------------------------------------- corpus generate

@corpus_app.command("generate")
def corpus_generate(
    ruleset_id: str = typer.Option(..., "--ruleset", metavar="RULESET", help="The ruleset id (mjcheck rulesets)."),
    out_path: Path = typer.Option(..., "--out", metavar="FILE", help="Where to write the cases (JSON Lines)."),
    seed: int = typer.Option(..., "--seed", help="Seed of the random candidate hands; the same seed gives the same file."),
    size: Optional[int] = typer.Option(None, "--size", min=0, max=1_000_000,
                                       help="Random candidate hands to search (default: 250 a pattern of the ruleset, at least 6000)."),
    as_json: bool = typer.Option(False, "--json", help="Print the coverage table as JSON on stdout."),
    kind: str = typer.Option("score", "--kind", metavar="KIND",
                             help="score (hands to score) or procedure (hands of play: legal hands played by bots, "
                                  "and for each procedure rule a hand one change makes illegal; --size is the "
                                  "number of hands played, default 6)."),
) -> None:
    """Coverage-directed cases: a hand for every pattern, exclusion pair, option reading, boundary,
    settlement path and invalid input, with the reference engine's expectations; or, with --kind procedure,
    hands of play (`kind: procedure` cases, each dealt from an explicit wall).

    Prints the coverage table (rule id -> cases) on stderr. Exit status 1 when a pattern, settlement path or
    option whose readings part (with --kind procedure: a procedure rule the table executes) is covered by no
    case (rules the search could not reach are listed as "no witness found" with the reason), 2 on bad input.
    """
    from checker.corpus.coverage_table import coverage_table, plain_lines
    from checker.corpus.generate import generate
    from checker.writable import write_problem

    if ruleset_id not in available_rulesets():
        fail(f"unknown ruleset {excerpt(ruleset_id)}; known: {', '.join(available_rulesets())}")
    try:
        load_ruleset(ruleset_id)  # a ruleset of one's own (MJCHECK_SPEC_PATH) may not load: say why, once
    except SpecError as exc:
        fail(str(exc))
    problem = write_problem(out_path)  # before minutes of search, not after
    if problem:
        fail(f"--out {out_path}: {problem}")
    if kind not in ("score", "procedure"):
        fail(f"--kind {excerpt(kind)}: score or procedure")
    if kind == "procedure":
        raise typer.Exit(_procedure_corpus(ruleset_id, out_path, seed, size, as_json))
    with Progress(SpinnerColumn(), TextColumn("generating {task.description}"), MofNCompleteColumn(),
                  console=err, disable=not err.is_terminal, transient=True) as progress:
        task = progress.add_task(escape(ruleset_id), total=None)
        try:
            corpus = generate(ruleset_id, seed, size,
                              progress=lambda done, total: progress.update(task, completed=done, total=total))
        except InputError as exc:  # a document example the generator keeps (corpus/*-examples.jsonl) is not a case
            err.print(f"[bold red]error:[/] {escape(bounded(str(exc)))}", highlight=False)
            raise typer.Exit(2)
    _write_whole(out_path, corpus.jsonl())
    table = coverage_table(corpus.ruleset, corpus.cases, corpus.no_witness)
    if as_json:
        print(json_text({**table.as_json(), "cases": len(corpus.cases), "seed": seed, "size": corpus.size}, indent=2))
    elif err.is_terminal:
        from rich.table import Table

        shown = Table(title=f"coverage of {ruleset_id}: {len(corpus.cases)} cases")
        shown.add_column("rule id")
        shown.add_column("cases", justify="right")
        required = set(table.required)
        for rule, n in table.counts.items():
            style = "red" if rule in required and not n else None
            shown.add_row(escape(rule) + (" *" if rule in required else ""), str(n), style=style)
        err.print(shown)
        for line in plain_lines(table)[len(table.counts) + 1:]:
            err.print(safe(line), highlight=False)
    else:
        for line in plain_lines(table):
            err.print(line, highlight=False, markup=False)
        err.print(f"{len(corpus.cases)} cases written to {out_path}", highlight=False, markup=False)
    raise typer.Exit(NOT_WON if table.gaps else WON)


def _write_whole(out_path: Path, text: str) -> None:
    """Write a corpus whole beside the target, then move it over it: a failed write leaves the old file."""
    partial = out_path.with_name(out_path.name + ".partial")
    try:
        partial.write_text(text, encoding="utf-8")
        os.replace(partial, out_path)
    except OSError as exc:
        partial.unlink(missing_ok=True)
        fail(f"--out {out_path}: {exc.strerror or exc}")


def _procedure_corpus(ruleset_id: str, out_path: Path, seed: int, size: int | None, as_json: bool) -> int:
    from checker.corpus.procedure import generate_procedure, procedure_rules

    with Progress(SpinnerColumn(), TextColumn("playing {task.description}"), MofNCompleteColumn(),
                  console=err, disable=not err.is_terminal, transient=True) as progress:
        task = progress.add_task(escape(ruleset_id), total=None)
        corpus = generate_procedure(ruleset_id, seed, size,
                                    progress=lambda done, total: progress.update(task, completed=done, total=total))
    _write_whole(out_path, corpus.jsonl())
    counts = {rule: 0 for rule in sorted(procedure_rules(ruleset_id))}
    for case in corpus.cases:
        for rule in case.get("covers", []):
            short = rule[len(ruleset_id) + 1:]
            if short in counts:
                counts[short] += 1
    gaps = [rule for rule, n in counts.items() if not n]
    if as_json:
        print(json_text({"ruleset": ruleset_id, "cases": len(corpus.cases), "seed": seed, "hands": corpus.size,
                         "counts": counts, "uncovered": gaps, "no_witness": corpus.no_witness,
                         "killing_cases": sum(1 for c in corpus.cases if "-kills-" in str(c.get("id"))),
                         "survivors": [r.mutation.id for r in corpus.survivors]}, indent=2))
    else:
        err.print(f"coverage of {ruleset_id} (procedure): rule id, cases", highlight=False, markup=False)
        for rule, n in counts.items():
            err.print(f"  {rule}  {n}", highlight=False, markup=False)
        for key, why in corpus.no_witness.items():
            err.print(f"  no witness found: {key}: {why}", highlight=False, markup=False)
        for r in corpus.survivors:
            err.print(f"  a procedure mutant no case kills and no hand searched separates: {r.mutation.id} "
                      f"({r.searched:,} candidates tried)", highlight=False, markup=False)
        err.print(f"{len(corpus.cases)} cases written to {out_path}", highlight=False, markup=False)
    return NOT_WON if gaps else WON


# ----------------------------------------------------------------------------- corpus random

@corpus_app.command("random")
def corpus_random(
    ruleset_id: str = typer.Option(..., "--ruleset", metavar="RULESET", help="The ruleset id (mjcheck rulesets)."),
    count: int = typer.Option(..., "--count", min=0, max=10_000_000, help="How many cases."),
    seed: int = typer.Option(..., "--seed", help="The same seed gives the same cases; case i is the same whatever --count."),
    out_path: Optional[Path] = typer.Option(None, "--out", metavar="FILE",
                                            help="Where to write the cases (JSON Lines); default standard output."),
    kind: str = typer.Option("score", "--kind", metavar="KIND",
                             help="score (hands to score) or procedure (hands of play dealt from explicit walls)."),
    theme: Optional[str] = typer.Option(None, "--theme", metavar="THEME",
                                        help="Draw every hand under one theme (e.g. characters, honours, kongs, "
                                             "special); default the themes in turn. --theme list names them."),
    invalid: float = typer.Option(0.1, "--invalid", min=0.0, max=1.0, metavar="SHARE",
                                  help="Share of cases with one thing of the input broken (or one illegal event)."),
    options_share: float = typer.Option(0.25, "--options", min=0.0, max=1.0, metavar="SHARE",
                                        help="Share of score cases with one option read otherwise."),
    option: List[str] = typer.Option([], "--option", metavar="NAME=VALUE",
                                     help="Read every case under this option (repeat), e.g. wall_model=quarters "
                                          "and flower_tiles_in_wall=false for a game judge that deals each seat "
                                          "its own part of a wall without flowers."),
) -> None:
    """N seeded random cases with the reference's answers: winning hands in every way of winning and context
    (discarder, winds, flags, counters, flowers), a share with one option read otherwise, a share made invalid
    (the expectation is then the refusal and its rule). With --kind procedure: hands played by bots, a share cut
    after one illegal event. No coverage is aimed at (`corpus generate` does that).

    Examples:

      mjcheck corpus random --ruleset mcr --count 2000 --seed 7 --out mcr-random.jsonl
      mjcheck corpus random --ruleset shanghai-classic --count 500 --seed 1 --theme honours > honours.jsonl
      mjcheck conform --engine ./my-engine --corpus random:mcr:2000:7   (the same cases, made on the fly)
      mjcheck corpus random --ruleset mcr --kind procedure --count 200 --seed 3 --option wall_model=quarters
        --option flower_tiles_in_wall=false --out judge.jsonl   (hands of play a quarter-wall judge can deal)

    Exit status 0 when written, 2 on bad input (an unknown ruleset, kind, theme, option or option value; an
    --out that cannot be written).
    """
    from checker.corpus.random_cases import THEME_NAMES, Mix, RandomCorpusError, random_cases, read_options
    from checker.writable import write_problem

    if theme == "list":
        print("\n".join(THEME_NAMES))
        raise typer.Exit(WON)
    if ruleset_id not in available_rulesets():
        fail(f"unknown ruleset {excerpt(ruleset_id)}; known: {', '.join(available_rulesets())}")
    try:
        load_ruleset(ruleset_id)
    except SpecError as exc:
        fail(str(exc))
    try:
        options = option_pairs(option)
    except ValueError as exc:
        fail(str(exc))
    try:
        mix = Mix(invalid, options_share, theme)
        if kind not in ("score", "procedure"):
            raise RandomCorpusError(f"--kind {excerpt(kind)}: score or procedure")
    except RandomCorpusError as exc:
        fail(str(exc))
    try:
        read_options(load_ruleset(ruleset_id), options)
    except RandomCorpusError as exc:
        fail(f"--option: {exc}")
    if out_path is not None:
        problem = write_problem(out_path)
        if problem:
            fail(f"--out {out_path}: {problem}")
    partial = None if out_path is None else out_path.with_name(out_path.name + ".partial")
    try:  # written as made (flat memory at any count), to a file beside the target moved over it at the end
        stream = sys.stdout if partial is None else open(partial, "w", encoding="utf-8")
        with Progress(SpinnerColumn(), TextColumn("random {task.description}"), MofNCompleteColumn(),
                      console=err, disable=not err.is_terminal, transient=True) as progress:
            task = progress.add_task(escape(ruleset_id), total=count)
            for case in random_cases(ruleset_id, count, seed, kind, mix,
                                     progress=lambda done, total: progress.update(task, completed=done),
                                     options=options):
                stream.write(json_text(case) + "\n")
        if partial is not None:
            stream.close()
            os.replace(partial, out_path)  # type: ignore[arg-type]
    except OSError as exc:
        if partial is not None:
            partial.unlink(missing_ok=True)
        fail(f"--out {out_path}: {exc.strerror or exc}")
    if out_path is not None:
        read = f"; every case read with {', '.join(option)}" if option else ""
        err.print(f"{count} {kind} cases of {ruleset_id} (seed {seed}; {mix.words()}{read}) written to {out_path}",
                  highlight=False, markup=False)
    raise typer.Exit(WON)


# ----------------------------------------------------------------------------- corpus strength

@corpus_app.command("strength")
def corpus_strength_command(
    corpora: List[str] = typer.Argument(..., metavar="CORPUS...",
                                        help="JSON Lines files of cases in the case format (any corpus: yours, "
                                             "or corpus/*.jsonl), or shipped corpora by name (mjcheck corpus "
                                             "list); their score and procedure cases with an `expect` are run."),
    ruleset_id: Optional[str] = typer.Option(None, "--ruleset", metavar="RULESET",
                                             help="Measure only this ruleset's cases (default: every ruleset the "
                                                  "corpora hold score or procedure cases for)."),
    seed: int = typer.Option(0, "--seed", help="Seed of the mutant sample and of the hands searched for killing "
                                               "cases; the same seed gives the same report."),
    sample: Optional[int] = typer.Option(None, "--sample", min=1, metavar="N",
                                         help="Judge N mutants per ruleset (and N procedure mutants), drawn by "
                                              "the seed with the families taken in turn (default: every mutant)."),
    budget: Optional[float] = typer.Option(None, "--budget", min=0, max=86400, metavar="SECONDS",
                                           help="Seconds the search for killing cases and the proofs that "
                                                "read hands may take in all (default 300); survivors left "
                                                "unsearched or unproved when it runs out are reported as not "
                                                "separated, with 0 searched (a procedure survivor's search, "
                                                "once begun, runs its 20,000 candidates)."),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON on stdout (docs/contracts.md)."),
    out_path: Optional[Path] = typer.Option(None, "--out", metavar="FILE.md",
                                            help="Write the Markdown report to FILE.md (stdout then gets a "
                                                 "summary, or the JSON with --json)."),
) -> None:
    """How many wrong engines your cases would let through, and which.

    Each ruleset the corpora hold score cases for is changed one step at a time, each change a *mutant*: a
    fan or hua item worth one more, one less, twice as much or nothing; an exclusion or implied link dropped,
    or added between two patterns a case counts together; a cap, step parameter, the minimum, the base, a
    payer's share, a 承包 or 包 number one step off; a multiplier read as doubles or the reverse, a cap on the
    doubles, flowers counted toward the minimum, a win refused by one condition of its context; an option's
    default read as another of its values; a counter ignored. Every case is scored by the reference engine under each mutant: a mutant is *killed*
    when some case's result no longer matches its `expect`. A *survivor* is searched for a hand that tells it
    from the spec (the corpus generator's seeded candidate hands): the first found is printed as a case, its
    `expect` the reference engine's result, ready to add to the corpus. A survivor is *proved equivalent* where
    that can be shown, over the domain the proof states (the same rules bound under every reading; a dropped
    link whose fans never meet, or that every concealed hand where it can act still meets); one neither
    separated nor proved is "not separated within the budget": not known to be equivalent (a sample, not a proof).

    Procedure cases (hands of play) are run alike, through the reference table, under each one-step change of
    the spec's procedure: who may chow, the claim priority, several winners, which kongs may be robbed, 漏胡,
    forgo-then-reclaim, the knock's obligations and lock, the mandatory kong, swap calling, the deal's flowers,
    the tile swap, the dead wall, who deals next, the 荒番 count, the calls that make a 承包, each table
    option's default. A survivor whose change no procedure case's result can show (a priority that changes
    only a refusal's message) is "not observable by a procedure case", said why; any other survivor is searched for a hand of play that tells
    it from the spec (your cases under other readings and headers, short hand-written scenes, bot-played
    hands, and every single change of each: at most 20,000 candidates a survivor, so the seed decides what
    is found, not the machine's speed); the first found is printed as a procedure case.

    The report gives the kill rate by family, then each survivor with its killing case or verdict.

    \b
    Examples:
      mjcheck corpus strength corpus/mcr.jsonl
      mjcheck corpus strength my-cases.jsonl --ruleset mcr --sample 100 --out strength.md
      mjcheck corpus strength corpus/shanghai-classic.jsonl --json > strength.json
      mjcheck corpus strength corpus/*-procedure.jsonl

    Exit status: 0 every survivor searched to the end and none that a found case kills; 1 a survivor a found
    case kills (the corpus lets a wrong engine through); 3 none found, but the budget stopped the search of a
    survivor before its end (the measure is not whole: raise --budget); 2 bad input (an unreadable corpus,
    a line that is not a case, an unknown ruleset, no score or procedure case with an `expect`).
    """
    from checker.corpus.strength import DEFAULT_BUDGET, StrengthError, corpus_strength
    from checker.corpus.strength_markdown import markdown
    from checker.writable import write_problem

    from checker.corpus.shipped import CorpusNameError, corpus_path

    if ruleset_id is not None and ruleset_id not in available_rulesets():
        fail(f"--ruleset: unknown ruleset {excerpt(ruleset_id)}; known: {', '.join(available_rulesets())}")
    try:
        corpora = [corpus_path(c) for c in corpora]  # a shipped corpus's name, or a file
    except CorpusNameError as exc:
        fail(str(exc))
    if out_path is not None:
        problem = write_problem(out_path)  # before minutes of work, not after
        if problem:
            fail(f"--out {out_path}: {problem}")
    with Progress(SpinnerColumn(), TextColumn("mutants of {task.description}"), MofNCompleteColumn(),
                  console=err, disable=not err.is_terminal, transient=True) as progress:
        tasks: dict = {}

        def advance(rid: str, done: int, total: int) -> None:
            if rid not in tasks:
                tasks[rid] = progress.add_task(escape(rid), total=total)
            progress.update(tasks[rid], completed=done, total=total)

        try:
            strength = corpus_strength(corpora, ruleset_id, seed, sample,
                                       DEFAULT_BUDGET if budget is None else budget, progress=advance)
        except (InputError, StrengthError) as exc:
            fail(str(exc))
    page = markdown(strength)
    if out_path is not None:
        _write_whole(out_path, page)
    if as_json:
        print(json_text(strength.as_json(), indent=2))
    elif out_path is None:
        print(page, end="")
    else:
        for rs in strength.rulesets:
            total = rs.total()
            rate = "–" if total.kill_rate is None else f"{100 * total.kill_rate:.0f}%"
            err.print(f"{rs.ruleset}: killed {total.counts.get('killed', 0)} of {total.mutants} mutants ({rate}); "
                      f"{total.counts.get('separated', 0)} survivors with a killing case; "
                      f"{total.counts.get('not separated', 0)} not separated; "
                      f"{total.counts.get('equivalent', 0)} proved equivalent"
                      + (f"; {total.counts.get('not observable', 0)} not observable by a procedure case"
                         if rs.procedure_cases else ""),
                      highlight=False, markup=False)
        err.print(f"report written to {out_path}", highlight=False, markup=False)
    raise typer.Exit(strength.status)


# ----------------------------------------------------------------------------- corpus list

@corpus_app.command("list")
def corpus_list(as_json: bool = typer.Option(False, "--json", help="Print the list as JSON.")) -> None:
    """The corpora shipped with mjcheck, by name (`conform --corpus NAME` and `pytest --mjcheck-corpus NAME`
    take it from any directory): each with its version, number of cases and content hash (SHA-256 of the
    file, as a conformance run records it). A version is marked `unrecorded` when the file has changed since
    corpus/manifest.json recorded it.
    """
    from checker.corpus.manifest import ManifestError, listing

    try:
        shipped = listing()
    except ManifestError as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"{exc.filename}: cannot read ({exc.strerror or exc})")
    if as_json:
        print(json_text(shipped, indent=2))
        return
    for entry in shipped:
        version = f"version {entry['version']}" if entry["recorded"] else "unrecorded" + (
            f" (changed since version {entry['version']})" if entry["version"] is not None else "")
        out.print(f"{entry['name']:<28} {version}  {entry['cases']:>5} cases  sha256 {entry['sha256']}",
                  highlight=False, markup=False)


