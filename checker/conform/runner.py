"""Run a corpus on an engine: classify every case, write results as they come, summarize at the end.

`run_conformance` starts the engine (an EngineError stops the run before any case) and streams the corpus
through it: each line is read, checked and, unless it is skipped, run and judged, and its result appended to
`DIR/results.jsonl` before the corpus is read much further (an in-process engine: the next line; a `cmd:`
engine: up to its window of cases in flight), so memory holds a few cases whatever the corpus's size. A line
that is not a case is recorded `skipped`, with the reason, and makes the run's status 2; so are the cases the
engine does not run or that carry no `expect`. `DIR/summary.json` is written first marked partial and rewritten with
`DIR/report.md`, `DIR/report.html` and `DIR/junit.xml` at the end (`checker.conform.outputs`); a run cut
short (Ctrl-C, or SIGTERM through the command line) still writes them all, marked partial, and
`resume=True` runs only the cases the results file does not hold yet. `jobs=N` runs N parts of the corpus in
forked processes (`checker.conform.shards`), each as above. (Streaming is also what makes a run fast: each
case is judged and written while what was parsed of it is still in the processor's caches; holding the whole
corpus parsed in memory cost a third of the time of two processes side by side, docs/performance.md section 4.)
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, Mapping

from checker.case import NOT_WON, REFUSED, WON, CaseLine, count_case_lines, matches, read_cases
from checker.collector import held_aside
from checker.conform.adapters import Answer, Engine, EngineInfo, InProcessEngine
from checker.conform.outputs import HTML_FILE, JUNIT_FILE, REPORT_FILE, SUMMARY_FILE, write_reports
from checker.conform.report import NOT_A_CASE
from checker.conform.results import RESULTS_FILE, CaseResult, ResultsWriter, read_results
from checker.conform.shards import (Progress, RangeReader, Shard, can_fork, cut, merge_parts, part_path, remove_parts,
                                    run_forked)
from checker.inputs import bounded, excerpt, open_input

__all__ = ["ConformRun", "run_conformance", "RESULTS_FILE", "SUMMARY_FILE", "REPORT_FILE", "HTML_FILE", "JUNIT_FILE"]


@dataclass(frozen=True)
class ConformRun:
    """What a run gave: its summary (as in summary.json) and exit status (0 all passed, skipped allowed;
    1 a case failed or errored, or the run was cut short; 2 a corpus line is not a case)."""

    summary: Mapping[str, Any]
    status: int
    out_dir: str

    @property
    def partial(self) -> bool:
        return bool(self.summary.get("partial"))


def run_conformance(corpus: str, engine: Engine, out_dir: str, *, engine_spec: str = "", resume: bool = False,
                    jobs: int = 1, on_start: Callable[[int], None] | None = None,
                    on_result: Callable[[str], None] | None = None) -> ConformRun:
    """Run every case of `corpus` on `engine`, writing DIR/results.jsonl, summary.json and the reports.
    `jobs` > 1: in that many forked processes (checker.conform.shards) when the engine runs in this process,
    the corpus is a regular file and the system forks; else in this one. `on_start(n)`: how many results the
    run will write, counted before it streams the corpus (each line not blank nor a comment, less those a
    resumed run has: called again as each process counts its own part; not called for a corpus read from a
    pipe); `on_result(outcome)`: once per result written, skipped ones too.
    InputError: the corpus cannot be read; EngineError: the engine does not start; OSError: DIR."""
    sharded = jobs > 1 and why_one_process(engine, corpus) is None
    # (sharded: each process opens and reads its own part; each inherits what is held aside)
    with open_input(corpus, "corpus") as stream, held_aside():
        os.makedirs(out_dir, exist_ok=True)
        results_path = os.path.join(out_dir, RESULTS_FILE)
        done = {r.key for r in read_results(results_path)} if resume else set()
        info = engine.start()
        meta = {"engine": info.as_json(), "engine_spec": engine_spec, "corpus": corpus}
        _write_summary(out_dir, meta, partial=True)
        interrupted = False
        try:
            if sharded:
                interrupted = _run_sharded(corpus, engine, info, done, out_dir, resume, jobs, on_start, on_result)
            else:
                with ResultsWriter(results_path, resume) as writer:  # (a new run's file emptied before anything)
                    if on_start is not None and stream.seekable():  # a pipe is read once: no count, no total
                        on_start(count_case_lines(stream, leaving={line for _, line in done}))
                        stream.seek(0)
                    _run_lines(read_cases(stream, corpus), engine, info, done, writer, on_result)
        except KeyboardInterrupt:
            interrupted = True
        finally:
            engine.stop()
    with held_aside(lambda: read_results(results_path)) as results:
        summary = _write_summary(out_dir, meta, partial=interrupted, results=results)
    counts = summary["counts"]
    status = REFUSED if summary["not_cases"] else \
        NOT_WON if interrupted or counts["failed"] or counts["errored"] else WON
    return ConformRun(summary, status, out_dir)


def why_one_process(engine: Engine, corpus: str) -> str | None:
    """Why --jobs cannot split this run into processes, or None when it can."""
    if not can_fork():
        return "shards are forked processes, on Linux only"
    if not isinstance(engine, InProcessEngine):
        return "a cmd: engine runs in one process (its cases are pipelined already)"
    if not os.path.isfile(corpus):
        return "the corpus is not a regular file (it is read from a pipe)"
    return None


def _run_lines(lines: Iterable[CaseLine], engine: Engine, info: EngineInfo, done: set[tuple[str | None, int]],
               writer: ResultsWriter, on_result: Callable[[str], None] | None) -> None:
    """Skip, run and judge the cases of `lines` that `done` does not hold, as they are read, writing each
    result as it comes: a skipped line's when it is read, a run case's when the engine answers it."""
    def record(result: CaseResult) -> None:
        writer.write(result)
        if on_result is not None:
            on_result(result.outcome)

    asked: dict[int, CaseLine] = {}  # the cases the engine has been given and has not answered yet

    def to_run() -> Iterator[tuple[int, Mapping[str, Any]]]:
        for item in lines:
            if (item.case.get("id") if item.case is not None else None, item.line) in done:
                continue
            skipped = _skip_reason(item, info.refuses)
            if skipped is not None:
                record(_result(item, "skipped", reason=skipped))
            elif item.case is not None:
                asked[item.line] = item
                yield item.line, item.case

    for line, answer in engine.run(to_run()):
        record(judge(asked.pop(line), answer))


def _run_sharded(corpus: str, engine: Engine, info: EngineInfo, done: set[tuple[str | None, int]], out_dir: str,
                 resume: bool, jobs: int, on_start: Callable[[int], None] | None,
                 on_result: Callable[[str], None] | None) -> bool:
    """The run in forked processes, each on a range of the corpus's lines; their results are appended to
    results.jsonl in the order of their parts once all have ended, however they end. True: cut short
    (interrupted, or a process failed: its traceback is on stderr, its cases missing)."""
    results_path = os.path.join(out_dir, RESULTS_FILE)
    ResultsWriter(results_path, resume).close()  # as one process would: a new file, or a torn last line cut
    remove_parts(out_dir)
    shards = cut(corpus, jobs)

    def work(shard: Shard, progress: Progress) -> None:
        with open(corpus, "rb") as stream, ResultsWriter(part_path(out_dir, shard), False) as writer:
            progress.start(count_case_lines(RangeReader(stream, shard.start, shard.end), shard.first_line,
                                            leaving={line for _, line in done}))
            part = RangeReader(stream, shard.start, shard.end)
            _run_lines(read_cases(part, corpus, lines_before=shard.first_line), engine, info, done, writer,
                       progress.result)

    statuses: list[int] = []
    try:
        statuses = run_forked(shards, work, on_start, on_result)
    finally:
        with open(results_path, "ab") as results:
            merge_parts(out_dir, shards, results)
    return any(status != 0 for status in statuses)


def _skip_reason(item: CaseLine, refuses: Callable[[Mapping[str, Any]], str | None]) -> str | None:
    if item.case is None:
        return f"{NOT_A_CASE} ({item.rule}): {bounded(item.error or '', 300)}"
    return skip_reason(item.case, refuses)


def skip_reason(case: Mapping[str, Any], refuses: Callable[[Mapping[str, Any]], str | None]) -> str | None:
    """Why a case is not run on an engine (None: it is run): it has no `expect`, or the engine does not list
    its ruleset or kind (`refuses`, asked only when the case has an `expect`). The pytest plugin skips the same."""
    if "expect" not in case:
        return "no expect: conformance needs an expected result"
    return refuses(case)


def _result(item: CaseLine, outcome: str, *, reason: str | None = None, actual: Any = None) -> CaseResult:
    case = item.case
    return CaseResult(case.get("id") if case is not None else None, item.line, outcome, actual, reason, case,
                      item.text)


def judge(item: CaseLine, answer: Answer) -> CaseResult:
    """passed / failed by checker.case.matches; errored when there is no result or it is not in the expect
    shape (a fan without an id, fans that are not a list)."""
    case = item.case or {}
    if answer.result is None:
        return _result(item, "errored", reason=bounded(answer.error or "no answer", 1000))
    try:
        met = matches(answer.result, case["expect"])
    except (KeyError, TypeError, AttributeError) as exc:
        return _result(item, "errored", actual=answer.result,
                       reason=f"a result not in the expect shape ({type(exc).__name__}: {excerpt(str(exc))})")
    return _result(item, "passed" if met else "failed", actual=answer.result)


def _write_summary(out_dir: str, meta: Mapping[str, Any], partial: bool,
                   results: list[CaseResult] | None = None) -> dict[str, Any]:
    """summary.json (and report.md, report.html and junit.xml when the results are given), each replaced
    whole (written aside, then renamed), so a reader never sees half a file."""
    return write_reports(out_dir, meta, partial, results)
