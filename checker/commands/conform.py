"""`mjcheck conform|report|diff|reproduce`: an engine held to a corpus, and what its runs say."""
from __future__ import annotations

from typing import Any, List, Mapping, Optional

import typer
from rich.markup import escape
from rich.progress import MofNCompleteColumn, Progress, SpinnerColumn, TextColumn

from checker.case import INCOMPLETE, NOT_WON, WON, CaseRunner, read_cases
from checker.commands.common import err, fail, load_ruleset_files, open_case_input, out, safe
from checker.inputs import InputError, bounded, excerpt, json_text
from checker.spec import rulesets_given


# ----------------------------------------------------------------------------- conform

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
                                                        "append the rest (and the cases an engine given up "
                                                        "never ran: errored \"not run: ...\")."),
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
    extra = load_ruleset_files(ruleset_file)
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
    extra = load_ruleset_files(ruleset_file)
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

    runs = []
    try:
        runs = [read_run(run_a), read_run(run_b)]
        found = compare(*runs)
    except DiffError as exc:
        fail(str(exc))
    finally:
        for run in runs:
            run.close()
    print(json_text(found, indent=2) if as_json else markdown(found))
    raise typer.Exit(NOT_WON if found["counts"]["newly_failing"] else INCOMPLETE if found["partial"] else WON)


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

    extra = load_ruleset_files(ruleset_file)
    seconds = _timeout_asked(timeout, "--timeout")
    cases = []
    stream, label = open_case_input(file, "FILE")
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


