"""`mjcheck`: the command line.

Exit status: 0 success; 1 a result the user asked about is negative (the hand may not win, a case does not
match its expectation); 2 bad input (a tile, meld, flag, option, file or spec the tool cannot accept).
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any, List, Mapping, NoReturn, Optional

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import MofNCompleteColumn, Progress, SpinnerColumn, TextColumn
from rich.table import Table

from checker import tiles as T
from checker.case import (INCOMPLETE, NOT_WON, REFUSED, WON, CaseError, CaseLine, CaseRunner, hand_from_input, read_case,
                          read_cases)
from checker.engine import Hand, HandError, Scorer, load_ruleset, load_ruleset_file, parse_meld_text, reading_issues
from checker.engine.hand import MAX_TILE_TEXT
from checker.inputs import InputError, bounded, excerpt, json_text, open_input
from checker.engine.scoring import Score
from checker.spec import (DEFAULT_RULESET, SpecError, available_rulesets, named_by_id, ruleset_files, rulesets_given, spec_dir,
                          value_key)
from checker.hunt.commands import hunt_command
from checker.sweep.commands import sweep_command
from checker.table.commands import game_app
from checker.matchlog.commands import export_command, import_command

app = typer.Typer(
    help="mjcheck: mahjong rules as executable specifications.\n\n"
         "Score hands under a ruleset (score), play and check hands of play (game), hunt the specs for "
         "ambiguities and collisions (hunt), check every hand of a space against another engine on Dask (sweep), check spec files (spec), generate test corpora (corpus) and hold "
         "engines to them (conform, report).",
    no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False,
)
spec_app = typer.Typer(help="Work with ruleset spec files (spec/*.yaml).", no_args_is_help=True)
app.add_typer(spec_app, name="spec")
corpus_app = typer.Typer(help="The shipped test corpora (list); generate them and measure their strength.",
                         no_args_is_help=True)
app.add_typer(corpus_app, name="corpus")
game_app.command("import")(import_command)
game_app.command("export")(export_command)
app.add_typer(game_app, name="game")
app.command("hunt")(hunt_command)
app.command("sweep")(sweep_command)

out = Console(soft_wrap=True)  # a line-oriented tool: messages are never broken mid-word for the width
err = Console(stderr=True, soft_wrap=True)

SEAT_NAMES = ("winner", "player 1 (next)", "player 2 (across)", "player 3 (previous)")


def safe(text: str) -> str:
    """Text from a spec or an input made safe for the console: bounded, control characters escaped, and
    no rich markup (a spec file of one's own may name a fan `[blink]…`)."""
    return escape(bounded(text))


def fail(message: str, code: int = REFUSED) -> NoReturn:
    err.print(f"[bold red]error:[/] {safe(message)}", highlight=False)
    raise typer.Exit(code)


@app.callback()
def _rulesets_of_ones_own() -> None:
    """Before any command: the folders MJCHECK_SPEC_PATH names (rulesets of one's own, by id) can be read."""
    try:
        ruleset_files()
    except SpecError as exc:
        fail(str(exc))


# ----------------------------------------------------------------------------- rulesets

@app.command()
def rulesets(
    ruleset_id: Optional[str] = typer.Argument(None, metavar="[RULESET]",
                                               help="Only this ruleset (with --patterns: its whole vocabulary)."),
    patterns: bool = typer.Option(False, "--patterns",
                                  help="Print each ruleset's vocabulary: every pattern id with its English and "
                                       "Chinese names, kind, points and source sentence; the flags, counters and "
                                       "options; and the rule ids an answer that may not win may name."),
    as_json: bool = typer.Option(False, "--json", help="Print the list as JSON."),
) -> None:
    """List the rulesets (spec/ and the folders MJCHECK_SPEC_PATH names) with their options and defaults.

    \b
    Examples:
      mjcheck rulesets
      mjcheck rulesets mcr --patterns          # every fan id an engine may answer, with its names and points
      mjcheck rulesets shanghai-classic --patterns --json
    """
    names = available_rulesets()
    if ruleset_id is not None and ruleset_id not in names:
        fail(f"unknown ruleset {excerpt(ruleset_id)}; known: {', '.join(names)}")
    if patterns:
        from checker.vocabulary import markdown, vocabulary

        try:
            chosen = [load_ruleset(name) for name in ([ruleset_id] if ruleset_id else names)]
        except SpecError as exc:
            fail(str(exc))
        if as_json:
            print(json_text([vocabulary(rs) for rs in chosen], indent=2))
        else:
            print(markdown(chosen), end="")
        return
    rows: list[dict[str, Any]] = []
    names = [ruleset_id] if ruleset_id else names
    for name in names:
        try:
            rs = load_ruleset(name)
        except SpecError as exc:
            rows.append({"id": name, "error": str(exc)})
            continue
        rows.append({"id": rs.id, "title": rs.title, "patterns": len(rs.patterns), "statements": len(rs.statements),
                     "options": {o.id: o.default for o in rs.options.values()},
                     "flags": dict(rs.flags),
                     "counters": {c.name: {"about": c.about, "min": c.min, "max": c.max} for c in rs.counters.values()},
                     "values": {o.id: [value_key(v) for v in o.values] for o in rs.options.values()}})
    if as_json:
        print(json_text(rows, indent=2))
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
        for name, about in r["flags"].items():
            out.print(f"  --flag {name}   {escape(about)}", highlight=False)
        for name, c in r["counters"].items():
            out.print(f"  --counter {name}=N   N from {c['min']} to {c['max']}: {escape(c['about'])}", highlight=False)


# ----------------------------------------------------------------------------- spec validate

@spec_app.command("validate")
def spec_validate(
    files: Optional[List[str]] = typer.Argument(None, help="Spec files to check (default: every ruleset: spec/*.yaml and the folders MJCHECK_SPEC_PATH names)."),
    as_json: bool = typer.Option(False, "--json", help="Print the problems as JSON."),
) -> None:
    """Check spec files against the schema and their references (options, patterns, predicates, statements).

    Each problem is printed as FILE:LINE: JSON-POINTER: REASON. Exit status 2 if any file has a problem (a field
    set to a value the engine does not play; a procedure the table refuses under some reading of its options).
    Warnings (a cycle of exclusions, an exclusion that can never apply) are printed too but do not fail the check.
    """
    try:
        named = {} if files else {str(p): rid for rid, p in ruleset_files().items()}  # each file by the id it names
        paths = files or list(named)
    except SpecError as exc:
        fail(str(exc))
    problems: list[dict] = []
    warnings: list[dict] = []
    for path in paths:
        try:
            rs = load_ruleset_file(path)
            if path in named:
                named_by_id(rs, named[path])
            refused = reading_issues(rs)  # what cannot be bound (scored, played) under each reading of its options
            if refused:
                raise SpecError(refused)
            for warning in rs.warnings:
                warnings.append({"file": warning.file, "line": warning.line, "pointer": warning.pointer,
                                 "reason": warning.reason})
                if not as_json:
                    err.print(f"[yellow]warning:[/] {escape(bounded(str(warning)))}", highlight=False)
            if not as_json:
                out.print(f"[green]ok[/] {escape(bounded(path))}: {len(rs.patterns)} patterns, {len(rs.options)} options, "
                          f"{len(rs.statements)} statements", highlight=False)
        except SpecError as exc:
            for issue in exc.issues:
                problems.append({"file": issue.file, "line": issue.line, "pointer": issue.pointer, "reason": issue.reason})
                if not as_json:
                    err.print(f"[red]{escape(bounded(str(issue)))}[/]", highlight=False)
    if as_json:
        print(json_text({"files": paths, "problems": problems, "warnings": warnings}, indent=2))
    if problems:
        raise typer.Exit(2)


@spec_app.command("coverage")
def spec_coverage(
    rulesets_: Optional[List[str]] = typer.Argument(None, metavar="[RULESET]...",
                                                    help="Ruleset ids (default: every ruleset: spec/ and the "
                                                         "folders MJCHECK_SPEC_PATH names)."),
    documents: Optional[str] = typer.Option(
        None, "--documents", metavar="DIR",
        help="The folder holding the source documents, for the sentence check (default: ../shared/seeds "
             "beside the repository, when it is there)."),
    show_sentences: bool = typer.Option(False, "--sentences", help="List every clause no statement traces."),
    as_json: bool = typer.Option(False, "--json", help="Print the coverage as JSON."),
    as_markdown: bool = typer.Option(False, "--markdown", help="Print the fidelity table (docs/fidelity.md)."),
) -> None:
    """How much of each source document a spec executes.

    Per document: its statements, how many are modeled (and how many of those only by procedure entries,
    read by the table procedure engine), how many are not modeled and why (platform, advice, scope, between_hands), the
    spec's rule ids that no statement names, and, when the document is found, its clauses that no statement
    traces. Each statement quotes a whole clause, or a run of clauses of one line, verbatim; every clause of
    the document must be traced, and every statement must be the only one tracing some clause (so a statement
    deleted from a spec leaves a clause untraced). Exit status 1 if any statement is not modeled without a
    reason, any phrase is not found or not whole, any clause is untraced, or any statement is shadowed; 3 if
    none of those but a source document was not found (its sentences were not checked).
    """
    from checker.coverage import NOT_MODELED_REASONS, coverage, markdown

    folder = Path(documents) if documents else spec_dir().parent.parent / "shared" / "seeds"
    if documents and not folder.is_dir():
        fail(f"--documents {documents}: not a folder")
    rows, options = [], {}
    for name in rulesets_ or available_rulesets():
        try:
            ruleset = load_ruleset(name)
        except SpecError as exc:
            fail(str(exc))
        options[ruleset.id] = len(ruleset.options)
        try:
            rows.extend(coverage(ruleset, folder if folder.is_dir() else None))
        except InputError as exc:  # a source document that is not UTF-8 or too large
            fail(str(exc))
    if as_markdown:
        print(markdown(rows, options), end="")
    elif as_json:
        print(json_text([r.as_json() for r in rows], indent=2))
    else:
        for r in rows:
            out.print(f"[bold]{r.ruleset}[/] — {r.doc}", highlight=False)
            out.print(f"  statements  {r.statements}", highlight=False)
            data_only = (f"; {len(r.procedure_data_only)} of them data only, not executed: "
                         f"{', '.join(r.procedure_data_only)}") if r.procedure_data_only else ""
            out.print(f"  modeled     {r.modeled}" + (f" ({r.procedure_only} by the table procedure engine"
                                                       f"{data_only})" if r.procedure_only else ""),
                      highlight=False)
            reasons = " · ".join(f"{k} {v}" for k, v in sorted(r.not_modeled.items()))
            out.print(f"  not modeled {sum(r.not_modeled.values())}" + (f"  ({reasons})" if reasons else ""),
                      highlight=False)
            if r.unnamed_rules:
                out.print(f"  rule ids no statement names ({len(r.unnamed_rules)}): " + ", ".join(r.unnamed_rules),
                          highlight=False)
            if not r.document_found:
                out.print("  document not found: sentences not checked", highlight=False)
                continue
            out.print(f"  clauses no statement traces: {len(r.untraced)}", highlight=False)
            for clause in r.untraced if show_sentences else r.untraced[:5]:
                out.print(f"    - {safe(clause[:120])}", highlight=False)
            if len(r.untraced) > 5 and not show_sentences:
                out.print(f"    … {len(r.untraced) - 5} more (--sentences lists them all)", highlight=False)
            if r.headings_not_found:
                out.print(f"  headings the spec declares that are no short unpunctuated line of the document "
                          f"({len(r.headings_not_found)}): " + ", ".join(safe(h[:60]) for h in r.headings_not_found),
                          highlight=False)
            for ids, words in ((r.phrases_not_found, "whose phrase is not in the document"),
                               (r.phrases_not_whole, "whose phrase is not a whole clause (or run of clauses) of "
                                                     "one line"),
                               (r.shadowed, "tracing no clause another statement does not also trace")):
                if ids:
                    out.print(f"  statements {words}: {', '.join(ids)}", highlight=False)
        out.print("reasons: " + "; ".join(f"{k}: {v}" for k, v in NOT_MODELED_REASONS.items()), highlight=False)
    problems = any(r.problems() for r in rows)
    unread = sorted({r.doc for r in rows if not r.document_found})
    if unread:
        err.print(safe(f"{len(unread)} source document(s) not found in {folder}: their sentences were not checked "
                       f"({', '.join(unread)}); --documents DIR names the folder that holds them"), highlight=False)
    raise typer.Exit(NOT_WON if problems else INCOMPLETE if unread else WON)


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
) -> None:
    """N seeded random cases with the reference's answers: winning hands in every way of winning and context
    (discarder, winds, flags, counters, flowers), a share with one option read otherwise, a share made invalid
    (the expectation is then the refusal and its rule). With --kind procedure: hands played by bots, a share cut
    after one illegal event. No coverage is aimed at (`corpus generate` does that).

    Examples:

      mjcheck corpus random --ruleset mcr --count 2000 --seed 7 --out mcr-random.jsonl
      mjcheck corpus random --ruleset shanghai-classic --count 500 --seed 1 --theme honours > honours.jsonl
      mjcheck conform --engine ./my-engine --corpus random:mcr:2000:7   (the same cases, made on the fly)

    Exit status 0 when written, 2 on bad input (an unknown ruleset, kind or theme; an --out that cannot be
    written).
    """
    from checker.corpus.random_cases import THEME_NAMES, Mix, RandomCorpusError, random_cases
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
        mix = Mix(invalid, options_share, theme)
        if kind not in ("score", "procedure"):
            raise RandomCorpusError(f"--kind {excerpt(kind)}: score or procedure")
    except RandomCorpusError as exc:
        fail(str(exc))
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
                                     progress=lambda done, total: progress.update(task, completed=done)):
                stream.write(json_text(case) + "\n")
        if partial is not None:
            stream.close()
            os.replace(partial, out_path)  # type: ignore[arg-type]
    except OSError as exc:
        if partial is not None:
            partial.unlink(missing_ok=True)
        fail(f"--out {out_path}: {exc.strerror or exc}")
    if out_path is not None:
        err.print(f"{count} {kind} cases of {ruleset_id} (seed {seed}; {mix.words()}) written to {out_path}",
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
    from checker.corpus.strength import DEFAULT_BUDGET, StrengthError, corpus_strength, markdown
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
    from checker.corpus.manifest import listing

    shipped = listing()
    if as_json:
        print(json_text(shipped, indent=2))
        return
    for entry in shipped:
        version = f"version {entry['version']}" if entry["recorded"] else "unrecorded" + (
            f" (changed since version {entry['version']})" if entry["version"] is not None else "")
        out.print(f"{entry['name']:<28} {version}  {entry['cases']:>5} cases  sha256 {entry['sha256']}",
                  highlight=False, markup=False)


# ----------------------------------------------------------------------------- score

def _parse_options(items: List[str]) -> dict:
    options = {}
    for item in items:
        if "=" not in item:
            fail(f"--option {excerpt(item)}: write it as NAME=VALUE, e.g. --option tile_hog_honors=true")
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


@app.command()
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
    extra = _load_ruleset_files(ruleset_file)
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


def _load_ruleset_files(paths: List[str]) -> dict:
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


def _open(path: str, what: str):
    """A binary stream for --case / --batch: a file, a pipe, or stdin for `-`."""
    if path == "-":
        return sys.stdin.buffer, "<stdin>"
    try:
        return open_input(path, what), path
    except InputError as exc:
        fail(str(exc))


def _score_case(path: str, as_json: bool, extra: dict) -> int:
    stream, label = _open(path, "case file")
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
    stream, label = _open(path, "batch file")
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


# ----------------------------------------------------------------------------- conform

@app.command()
def conform(
    corpus: str = typer.Option(..., "--corpus", metavar="FILE|NAME",
                               help="A JSON Lines file of cases with `expect`, or a shipped corpus's name (mjcheck "
                                    "corpus list): mcr names the same corpus from any directory; or a random "
                                    "corpus random:RULESET:COUNT:SEED[:procedure] (mjcheck corpus random); or - "
                                    "for standard input."),
    engine: str = typer.Option(..., "--engine", metavar="ENGINE",
                               help="reference | pymahjonggb | python:package.module:function | "
                                    "cmd:\"COMMAND\" (a subprocess speaking the JSON-lines protocol)."),
    out_dir: str = typer.Option(..., "--out", metavar="DIR", help="Where results.jsonl, summary.json, "
                                                                  "report.md, report.html and junit.xml are "
                                                                  "written (`mjcheck report DIR` rebuilds the "
                                                                  "last three)."),
    timeout: str = typer.Option("10", "--timeout", metavar="SECONDS",
                                help="Per-case time limit of a cmd: engine, 0.001 to 86400 seconds; past it the "
                                     "engine is restarted (after 3 cases in a row time out, given up)."),
    resume: bool = typer.Option(False, "--resume", help="Skip the cases DIR/results.jsonl already holds and "
                                                        "append the rest."),
    jobs: str = typer.Option("auto", "--jobs", "-j", metavar="N|auto",
                             help="Run the corpus in N processes, 1-64 (on Linux, for engines that run in "
                                  "mjcheck's own process: reference, pymahjonggb, python:), each on a part of its "
                                  "lines; results.jsonl is the same file as from one process. auto: for the "
                                  "reference and pymahjonggb engines, one per processor (at most 8), each on at "
                                  "least 1 MiB of corpus (a small corpus runs in one); one for any other engine. "
                                  "A cmd: engine, or a corpus read from a pipe, runs in one."),
    ruleset_file: List[str] = typer.Option([], "--ruleset-file", metavar="SPEC.yaml",
                                           help="A spec file of your own for the reference engine (cases name "
                                                "it by its id). Repeat for several."),
    known_file: Optional[str] = typer.Option(None, "--known", metavar="FILE",
                                             help="A YAML file of the engine's declared departures (readings, "
                                                  "causes, class signatures, each with a note or link): cases "
                                                  "of the failure classes it declares are reported apart and do "
                                                  "not fail the run; and the reasons for which it skips cases "
                                                  "on purpose (skips)."),
    probes: Optional[str] = typer.Option(None, "--probes", metavar="N",
                                         help="At most N new cases (default 300) diagnosis may put to the engine "
                                              "after the run, each built to confirm or contradict a cause (and to "
                                              "tell it from its rivals); 0: none, and no cause is confirmed. "
                                              "Recorded in DIR/probes.jsonl."),
    effort: Optional[str] = typer.Option(None, "--effort", metavar="N",
                               help="The cause search's effort, N times the default (1-1000); every class gets a "
                                    "share before large classes take the rest. Deterministic on any machine."),
    no_diagnose: bool = typer.Option(False, "--no-diagnose", help="Group the failures into classes but search "
                                                                  "no cause (and ask no probe)."),
) -> None:
    """Run a corpus of cases on an engine and report where it departs from their expectations.

    Each case is passed, failed (result differs from `expect`), errored (the engine crashed, hung, wrote
    garbage or answered another case: it is restarted and the run goes on) or skipped (the engine does not
    run its ruleset or kind, or it has no `expect`, or the engine answered {"skip": "reason"}). Results are
    written as they come; an interrupted run leaves a partial report and --resume continues it.

    Failures are grouped into classes, each with the departure from the rules that explains it: named only
    when the reference engine under it reproduces the engine's whole answers, and when the engine's answers to
    probes (new cases built to tell it from the rules and from its rivals, asked after the run; --probes) bear
    it out. DIR/reproducers/ holds each class's cases for `mjcheck reproduce`.

    Exit status: 0 every case passed (skipped allowed), or every failed and errored case is in a class the
    --known file declares; 1 a case failed or errored outside them, the engine skipped a case no `skips`
    entry of the --known file declares, or the run was cut short; 2 bad input (an unreadable corpus or a line
    that is not a case, an unknown engine, an engine that does not start, a --known file that is not one) or
    no case run at all.
    """
    import signal

    from checker.conform import EngineError, engine_from_spec, run_conformance
    from checker.diagnose import Settings
    from checker.conform.runner import RunError
    from checker.corpus.shipped import CorpusNameError, corpus_path

    try:
        corpus = corpus_path(corpus)
    except CorpusNameError as exc:
        fail(f"--corpus {exc}")
    known = _known_asked(known_file)
    diagnosis = _diagnosis_asked(effort, probes, no_diagnose) or Settings()
    asked = _jobs_asked(jobs)
    seconds = _timeout_asked(timeout, "--timeout")
    extra = _load_ruleset_files(ruleset_file)
    try:
        adapter = engine_from_spec(engine, extra, seconds)
    except EngineError as exc:
        fail(str(exc))

    def terminated(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    processes = asked if asked is not None else _auto_jobs(adapter, corpus)
    if asked is not None and asked > 1:
        from checker.conform.runner import why_one_process

        reason = why_one_process(adapter, corpus)
        if reason is not None:
            err.print(f"[yellow]note:[/] --jobs {jobs}: running in one process: {safe(reason)}", highlight=False)
    previous = signal.signal(signal.SIGTERM, terminated)
    with Progress(SpinnerColumn(), TextColumn("conform {task.description}"), MofNCompleteColumn(),
                  console=err, disable=not err.is_terminal, transient=True) as progress:
        task = progress.add_task(escape(bounded(engine, 60)), total=None)
        try:
            with rulesets_given(extra):  # the spec files given: known by id to the reference and to diagnosis
                run = run_conformance(corpus, adapter, out_dir, engine_spec=engine, resume=resume,
                                      on_start=lambda n: progress.update(task, total=n),
                                      jobs=processes, known=known, diagnosis=diagnosis,
                                      on_result=lambda outcome: progress.advance(task))
        except (InputError, EngineError, RunError) as exc:
            fail(str(exc))
        except OSError as exc:
            fail(f"--out {out_dir}: {exc.strerror or exc}")
        finally:
            signal.signal(signal.SIGTERM, previous)
    line = _counts_line(run.summary["counts"]) + f"; report in {out_dir}"
    if run.summary.get("interrupted_reports"):
        err.print(f"[yellow]interrupted while the reports were written:[/] {safe(line)}; summary.json only "
                  f"(partial, no profile or causes); not written: {', '.join(run.summary['interrupted_reports'])} "
                  f"(mjcheck report {safe(out_dir)} writes them; --resume continues the run)", highlight=False)
    elif run.partial:
        err.print(f"[yellow]interrupted:[/] {safe(line)} (partial; --resume continues)", highlight=False)
    else:
        (out if run.status == WON else err).print(safe(line), highlight=False)
    if run.summary["not_cases"]:
        err.print(f"{run.summary['not_cases']} corpus line(s) are not cases (see report.md)", highlight=False)
    left = run.summary.get("not_compared") or {}
    if left:  # the engine declared it answers fewer fields: say what went unchecked, not only in the reports
        err.print(safe(f"fields not compared, as the engine declared it does not answer them: "
                       f"{', '.join(f'{name} ({n} cases)' for name, n in list(left.items())[:8])}"
                       f"{' …' if len(left) > 8 else ''} (report.md, \"What the engine models\")"), highlight=False)
    counts = run.summary["counts"]
    if not run.partial and counts["passed"] + counts["failed"] + counts["errored"] == 0:
        reasons = "; ".join(list(run.summary.get("skipped") or {})[:3])
        err.print(safe(f"nothing was run: every case was skipped ({reasons or 'the corpus holds no case'})"),
                  highlight=False)
    raise typer.Exit(run.status)


def _diagnosis_asked(effort: str | None, probes: str | None, no_diagnose: bool) -> Any:
    """What `--effort`, `--probes` and `--no-diagnose` ask of diagnosis (checker.diagnose.Settings); None where
    none is given (for `report`: what the run recorded); bad input otherwise."""
    from checker.diagnose import Settings
    from checker.diagnose.probes import DEFAULT_PROBES

    if effort is None and probes is None and not no_diagnose:
        return None
    values = {}
    for name, given, low, high in (("--effort", effort, 1, 1000), ("--probes", probes, 0, 100_000)):
        if given is None:
            continue
        try:
            values[name] = int(given)
        except ValueError:
            values[name] = low - 1
        if not low <= values[name] <= high:
            fail(f"{name} {excerpt(given)}: give a whole number from {low} to {high:,}")
    return Settings(not no_diagnose, values.get("--effort", 1), values.get("--probes", DEFAULT_PROBES))


def _known_asked(path: str | None) -> Any:
    """The declarations of a --known file (checker.conform.known), None without one; bad input otherwise."""
    from checker.conform.known import KnownError, load_known

    if path is None:
        return None
    try:
        return load_known(path)
    except KnownError as exc:
        fail(f"--known {exc}")


def _timeout_asked(given: str, option: str) -> float:
    """The seconds a per-case time limit gives (checker.conform.process.timeout_seconds), else bad input."""
    from checker.conform.process import timeout_seconds

    try:
        return timeout_seconds(given)
    except ValueError as exc:
        fail(f"{option} {excerpt(given)}: {exc}")
        raise


def _counts_line(counts: Mapping[str, Any]) -> str:
    """A run's counts in one line; cases without a result and damaged result lines named when there are any."""
    line = (f"{counts['passed']} passed, {counts['failed']} failed, {counts['errored']} errored, "
            f"{counts['skipped']} skipped")
    if counts.get("missing"):
        line += f", {counts['missing']} with no result"
    line += f" of {counts['total']}"
    if counts.get("damaged"):
        line += f" ({counts['damaged']} damaged result line(s) not read)"
    if "failed_declared" in counts:
        line += (f"; {counts['failed_declared']} failed and {counts.get('errored_declared', 0)} errored in declared "
                 f"classes")
    return line


def _jobs_asked(given: str) -> int | None:
    """The number of processes `--jobs` asks for (1-64), or None for `auto`."""
    if given.strip().lower() == "auto":
        return None
    try:
        count = int(given)
    except ValueError:
        count = 0
    if not 1 <= count <= 64:
        fail(f"--jobs {excerpt(given)}: give a number of processes from 1 to 64, or auto")
    return count


def _auto_jobs(adapter: Any, corpus: str) -> int:
    """`--jobs auto`: checker.conform.shards.auto_jobs for the engines built in, which fork safely
    (`forks_unasked`); one for a python: engine and wherever the run cannot be split."""
    from checker.conform.runner import why_one_process
    from checker.conform.shards import auto_jobs

    if not getattr(adapter, "forks_unasked", False) or why_one_process(adapter, corpus) is not None:
        return 1
    return auto_jobs(corpus)


@app.command()
def report(
    out_dir: str = typer.Argument(..., metavar="DIR", help="A directory `mjcheck conform --out` wrote."),
    known_file: Optional[str] = typer.Option(None, "--known", metavar="FILE",
                                             help="Apply this file's declared departures (as conform --known) "
                                                  "in place of those summary.json recorded."),
    no_known: bool = typer.Option(False, "--no-known", help="Drop the declared departures summary.json recorded."),
    effort: Optional[str] = typer.Option(None, "--effort", metavar="N",
                                         help="The cause search's effort, N times the default (1-1000); without "
                                              "it, what the run recorded. Probes are answered from "
                                              "DIR/probes.jsonl: the engine is not run."),
    no_diagnose: bool = typer.Option(False, "--no-diagnose", help="Search no cause."),
    ruleset_file: List[str] = typer.Option([], "--ruleset-file", metavar="SPEC.yaml",
                                           help="A spec file in place of the one of the same id the run was "
                                                "given (moved or edited since). Repeat for several."),
) -> None:
    """Rebuild DIR's summary.json, report.md, report.html and junit.xml from DIR/results.jsonl (the engine
    and corpus named in DIR/summary.json), without running the engine: the same results give the same files.
    The declared departures summary.json recorded (conform --known) are applied again, unless --known FILE
    replaces them or --no-known drops them. Spec files the run was given (conform --ruleset-file) are read
    again from where they were; one moved or changed since is an error unless --ruleset-file gives it.

    Exit status: 0 rebuilt; 3 rebuilt, but from a partial run (result lines damaged, cases without a result: the
    reports say so); 2 DIR holds no results.jsonl, cannot be written or is being written by a run, a --known file
    that is not one, or a spec file of the run that is gone or changed.
    """
    from checker.conform.outputs import ReportError, rebuild

    if known_file is not None and no_known:
        fail("give --known FILE or --no-known, not both")
    known = _known_asked(known_file)
    extra = _load_ruleset_files(ruleset_file)
    try:
        summary = rebuild(out_dir, known, keep_known=not no_known,
                          settings=_diagnosis_asked(effort, None, no_diagnose), rulesets=extra)
    except ReportError as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"{out_dir}: {exc.strerror or exc}")
    counts = summary["counts"]
    line = _counts_line(counts) + f"; reports rebuilt in {out_dir}"
    if summary.get("partial") or counts.get("damaged"):
        err.print(safe(f"{line}, from a partial run: {counts.get('damaged', 0)} result line(s) damaged, "
                       f"{counts.get('missing', 0)} case(s) without a result (mjcheck conform --resume runs them)"),
                  highlight=False)
        raise typer.Exit(INCOMPLETE)
    out.print(safe(line), highlight=False)


@app.command("diff")
def diff_runs(
    run_a: str = typer.Argument(..., metavar="RUN_A", help="A folder `mjcheck conform --out` wrote (before)."),
    run_b: str = typer.Argument(..., metavar="RUN_B", help="Another run of the same corpus (after)."),
    as_json: bool = typer.Option(False, "--json", help="Print the diff as JSON."),
) -> None:
    """What changed between two conformance runs of one corpus: cases fixed (failing in A, passing in B),
    newly failing, and changed (failing in both, with another answer or class), grouped by class and cause.

    Exit status: 0 nothing newly fails and B holds a result for every case; 1 a case fails in B that did not
    in A; 3 nothing newly fails among the cases compared, but B is partial (cases of its corpus or of A with no
    result in B, or damaged lines): those cases are not known; 2 bad input (a folder with no results.jsonl, runs
    of different corpora).
    """
    from checker.conform.rundiff import DiffError, compare, markdown, read_run

    try:
        found = compare(read_run(run_a), read_run(run_b))
    except DiffError as exc:
        fail(str(exc))
    print(json_text(found, indent=2) if as_json else markdown(found))
    raise typer.Exit(NOT_WON if found["counts"]["newly_failing"] else INCOMPLETE if found["partial"] else WON)


@app.command("reproduce")
def reproduce_cases(
    file: str = typer.Argument(..., metavar="FILE", help="A JSON Lines file of cases (a failure class's reproducer, "
                                                         "DIR/reproducers/class-N.jsonl), or - for standard input."),
    engine: str = typer.Option(..., "--engine", metavar="ENGINE",
                               help="The engine under test, as `conform --engine` names it."),
    ruleset_file: List[str] = typer.Option([], "--ruleset-file", metavar="SPEC.yaml",
                                           help="A spec file of your own for the reference engine."),
    timeout: str = typer.Option("10", "--timeout", metavar="SECONDS", help="Per-case time limit of a cmd: engine."),
    as_json: bool = typer.Option(False, "--json", help="One JSON object a case: the case, the reference's result, "
                                                       "the engine's answer (or its error) and whether it agrees."),
) -> None:
    """Put cases to an engine under test beside the reference engine, and show both answers.

    For each case: the case in words, what it expects, the reference engine's result and the engine's answer, and
    how the answer departs from the expectation. A conformance run writes each failure class's witness and the
    probes that tried its cause to DIR/reproducers/class-N.jsonl, and report.md gives the command; rerun it after
    a fix to see the engine's answers change.

    Exit status: 0 the engine meets every case's expectation; 1 it departs on some case; 2 bad input (an unreadable
    file or a line that is not a case, an unknown engine, an engine that does not start).
    """
    from checker.conform import EngineError, engine_from_spec
    from checker.conform.reproduce import reproduce

    extra = _load_ruleset_files(ruleset_file)
    seconds = _timeout_asked(timeout, "--timeout")
    cases = []
    stream, label = _open(file, "FILE")
    try:
        with stream:
            for item in read_cases(stream, label):
                if item.case is None:
                    fail(f"{label}:{item.line}: {item.error} [{item.rule}]")
                cases.append(item.case)
    except InputError as exc:
        fail(str(exc))
    if not cases:
        fail(f"{file}: no case to reproduce (a JSON Lines file of cases, as DIR/reproducers/class-N.jsonl)")
    try:
        adapter = engine_from_spec(engine, extra, seconds)
        with rulesets_given(extra):
            found = reproduce(cases, adapter, CaseRunner(extra) if extra else None)
    except EngineError as exc:
        fail(str(exc))
    for r in found:
        print(json_text(r.as_json()) if as_json else "\n".join(r.lines()))
    raise typer.Exit(WON if all(r.agrees for r in found) else NOT_WON)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
