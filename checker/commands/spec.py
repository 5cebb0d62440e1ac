"""`mjcheck rulesets` and `mjcheck spec validate|coverage`: what the rulesets are and whether their files hold."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, List, Optional

import typer
from rich.markup import escape

from checker.case import INCOMPLETE, NOT_WON, WON
from checker.commands.common import err, fail, out, safe
from checker.engine import load_ruleset, load_ruleset_file, reading_issues
from checker.inputs import InputError, bounded, excerpt, json_text
from checker.spec import SpecError, available_rulesets, named_by_id, ruleset_files, spec_dir, value_key

spec_app = typer.Typer(help="Work with ruleset spec files (spec/*.yaml).", no_args_is_help=True)


# ----------------------------------------------------------------------------- rulesets

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
            if r.sections_wrong:
                out.print(f"  source locators whose section does not hold their phrase ({len(r.sections_wrong)}):",
                          highlight=False)
                for said in r.sections_wrong:
                    out.print(f"    - {safe(said)}", highlight=False)
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


