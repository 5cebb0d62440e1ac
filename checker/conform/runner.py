"""Run a corpus on an engine: classify every case, write results as they come, summarize at the end.

`run_conformance` starts the engine (an EngineError stops the run before any case) and streams the corpus
through it: each line is read, checked and, unless it is skipped, run and judged, and its result appended to
`DIR/results.jsonl` before the corpus is read much further (an in-process engine: the next line; a `cmd:`
engine: up to its window of cases in flight), so memory holds a few cases whatever the corpus's size. A line
that is not a case is recorded `skipped`, with the reason, and makes the run's status 2; so are the cases the
engine does not run or that carry no `expect`. Each case is sent in its canonical form (checker.corpus.canonical:
tile fields as two-character tile names), and each answer checked against the result schema (`answer_problem`:
an answer it refuses makes the case `errored`, the reason naming the field). `DIR/summary.json` is written first marked partial and rewritten with
`DIR/report.md`, `DIR/report.html` and `DIR/junit.xml` at the end (`checker.conform.outputs`, from results.jsonl
read again a case at a time: checker.conform.stream); a run cut
short (Ctrl-C, or SIGTERM through the command line) still writes them all, marked partial (cut short while they
are written: summary.json alone, partial, with no profile or causes, the others removed and named in its
`interrupted_reports`; `mjcheck report DIR` writes them), and
`resume=True` runs only the cases the results file does not hold yet. `jobs=N` runs N parts of the corpus in
forked processes (`checker.conform.shards`), each as above. (Streaming is also what makes a run fast: each
case is judged and written while what was parsed of it is still in the processor's caches; holding the whole
corpus parsed in memory cost a third of the time of two processes side by side, docs/performance.md section 4.)
"""
from __future__ import annotations

import copy
import hashlib
import io
import os
import sys
from collections import OrderedDict
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, BinaryIO, Callable, Iterable, Iterator, Mapping

import jsonschema
import jsonschema_rs

from checker.case import NOT_WON, REFUSED, WON, CaseLine, count_case_lines, matches, read_cases, schema_message
from checker.collector import held_aside
from checker.conform.adapters import Answer, Engine, EngineInfo, InProcessEngine
from checker.conform.known import Known, new_failures
from checker.conform.probing import EngineAsk, recorded_probes
from checker.conform.outputs import (HTML_FILE, JUNIT_FILE, REPORT_FILE, RULESET_FILES, SUMMARY_FILE, DirBusy,
                                     lock_dir, write_interrupted, write_reports)
from checker.conform.report import NOT_A_CASE
from checker.conform.results import ENGINE_SKIP, RESULTS_FILE, CaseResult, FinishedCases, ResultsWriter, finished_cases
from checker.conform.shards import (INTERRUPTED_STATUS, Progress, RangeReader, Shard, can_fork, cut, merge_parts,
                                    part_path, remove_parts, run_forked)
from checker.conform.stream import ResultStream
from checker.diagnose import Settings
from checker.diagnose.probes import Prober
from checker.corpus.canonical import canonical_case
from checker.files import open_append
from checker.inputs import bounded, excerpt, open_input
from checker.spec import given_files_record, pointer_of, schema

REANSWER_MEMORY = 8192  # cases kept after their answer, for an engine that answers one again

STDIN = "-"  # the corpus read from standard input
__all__ = ["ConformRun", "RunError", "run_conformance", "RESULTS_FILE", "SUMMARY_FILE", "REPORT_FILE", "HTML_FILE", "JUNIT_FILE"]


@dataclass(frozen=True)
class ConformRun:
    """What a run gave: its summary (as in summary.json) and exit status (0 all passed, skipped allowed, or
    every failed or errored case is in a class a known file declares; 1 a case failed or errored outside
    them, the engine skipped a case no skip declaration of the known file declares, or the run was cut short;
    2 a corpus line is not a case, or no case was run)."""

    summary: Mapping[str, Any]
    status: int
    out_dir: str

    @property
    def partial(self) -> bool:
        return bool(self.summary.get("partial"))


class RunError(ValueError):
    """A run the tool will not start: `--resume` on a results file of another corpus or engine, or one it
    cannot trust (exit status 2)."""


def run_conformance(corpus: str, engine: Engine, out_dir: str, *, engine_spec: str = "", resume: bool = False,
                    jobs: int = 1, on_start: Callable[[int], None] | None = None,
                    on_result: Callable[[str], None] | None = None, known: Known | None = None,
                    diagnosis: Settings = Settings()) -> ConformRun:
    """`_run_conformance` (below) holding DIR's lock from the moment DIR exists to the end: a second run into
    the same DIR while this one lasts is refused (RunError naming the holder), never mixed into it."""
    held: list[int] = []
    try:
        return _run_conformance(corpus, engine, out_dir, held, engine_spec=engine_spec, resume=resume, jobs=jobs,
                                on_start=on_start, on_result=on_result, known=known, diagnosis=diagnosis)
    finally:
        for fd in held:
            os.close(fd)


def _lock_out(out_dir: str) -> int:
    """DIR's lock (checker.conform.outputs.lock_dir); RunError when another run holds it."""
    try:
        return lock_dir(out_dir)
    except DirBusy as exc:
        raise RunError(f"{exc}; wait for it to end, or give another --out") from None


def _run_conformance(corpus: str, engine: Engine, out_dir: str, held: list[int], *, engine_spec: str = "",
                     resume: bool = False, jobs: int = 1, on_start: Callable[[int], None] | None = None,
                     on_result: Callable[[str], None] | None = None, known: Known | None = None,
                     diagnosis: Settings = Settings()) -> ConformRun:
    """Run every case of `corpus` on `engine`, writing DIR/results.jsonl, summary.json and the reports.
    `jobs` > 1: in that many forked processes (checker.conform.shards) when the engine runs in this process,
    the corpus is a regular file and the system forks; else in this one. `on_start(n)`: how many results the
    run will write, counted before it streams the corpus (each line not blank nor a comment, less those a
    resumed run has: called again as each process counts its own part; not called for a corpus read from a
    pipe); `on_result(outcome)`: once per result written, skipped ones too.
    results.jsonl's first line names the run (`run_identity`: the corpus, its hash and number of cases, the
    engine); `resume` continues only a file of the same corpus and engine (RunError otherwise), keeping the
    result lines whose checksums hold. The summary counts every case of the corpus: one without a readable
    result is `missing` and makes the status 1. `known`: declared departures (checker.conform.known): failed
    and errored cases in the classes they declare do not make the status 1. `diagnosis`: whether causes are
    searched, with what effort, and how many cases diagnosis may put to the engine after the run to confirm or
    contradict them (checker.conform.probing; 0: none).
    InputError: the corpus cannot be read; EngineError: the engine does not start; RunError: see above;
    OSError: DIR (checker.files.OwnedFileError: a file in it that is not the tool's own)."""
    sharded = jobs > 1 and why_one_process(engine, corpus) is None
    # (sharded: each process opens and reads its own part; each inherits what is held aside)
    with _open_corpus(corpus) as stream, held_aside():
        os.makedirs(out_dir, exist_ok=True)
        held.append(_lock_out(out_dir))
        results_path = os.path.join(out_dir, RESULTS_FILE)
        earlier = finished_cases(results_path) if resume else None
        sha256, cases = _corpus_identity(stream)
        info = engine.start()
        run = {"corpus": corpus, "corpus_sha256": sha256, "corpus_cases": cases, "engine_spec": engine_spec,
               "engine": info.as_json(), **_given_files()}
        if earlier is not None and earlier.run is None and not earlier.keys and not earlier.damaged:
            earlier = None  # nothing to resume: a new run
        try:
            if earlier is not None:
                _check_resumable(results_path, earlier, run)
        except RunError:
            engine.stop()
            raise
        done = earlier.keys if earlier is not None else set()
        meta = {"engine": info.as_json(), "engine_spec": engine_spec, "corpus": corpus, **_given_files()}
        _write_summary(out_dir, meta, partial=True, known=known)
        interrupted = False
        try:
            if sharded:
                interrupted = _run_sharded(corpus, engine, info, done, out_dir, earlier is not None, run, jobs,
                                           on_start, on_result)
            else:
                with ResultsWriter(results_path, earlier is not None, run) as writer:
                    if on_start is not None and stream.seekable():  # a pipe is read once: no count, no total
                        on_start(count_case_lines(stream, leaving={line for _, line in done}))
                        stream.seek(0)
                    _run_lines(read_cases(stream, corpus), engine, info, done, writer, on_result)
        except KeyboardInterrupt:
            interrupted = True
        finally:
            engine.stop()
    asking = EngineAsk(engine, answer_problem)  # diagnosis's probes: the engine started again for them, if any is asked
    with ResultStream(results_path) as read, held_aside():
        try:
            summary = _write_summary(out_dir, meta, partial=interrupted, results=read, run=read.run or run,
                                     damaged=read.damaged, known=known,
                                     prober=Prober(None if interrupted else asking, diagnosis.probes,
                                                   recorded_probes(out_dir) if earlier is not None else None,
                                                   info.compared),
                                     settings=diagnosis)
        except KeyboardInterrupt:  # while the reports were made: summary.json partial, the others removed
            interrupted = True
            summary = write_interrupted(out_dir, meta, read, read.run or run, read.damaged, known)
        finally:
            asking.close()
    counts = summary["counts"]
    ran = counts["passed"] + counts["failed"] + counts["errored"]
    status = REFUSED if summary["not_cases"] or (not ran and not interrupted) else \
        NOT_WON if interrupted or new_failures(counts) or counts["missing"] or counts["damaged"] \
        or counts.get("skipped_undeclared") \
        else WON
    return ConformRun(summary, status, out_dir)


def _open_corpus(corpus: str) -> BinaryIO:
    """The corpus's stream: `-` is standard input (read once, as a pipe is, unless it is a file put there)."""
    if corpus == STDIN:
        try:
            return os.fdopen(os.dup(sys.stdin.fileno()), "rb")
        except (AttributeError, OSError, ValueError):  # a standard input with no descriptor (a test's, an embedding's)
            return io.BytesIO(sys.stdin.buffer.read())
    return open_input(corpus, "corpus")


def _corpus_identity(stream: BinaryIO) -> tuple[str | None, int | None]:
    """The corpus's SHA-256 and its number of case lines (each not blank nor a comment), read from its start
    and the stream put back there; (None, None) for a corpus read from a pipe (read once, as it streams)."""
    if not stream.seekable():
        return None, None
    digest = hashlib.sha256()
    while True:
        chunk = stream.read(1 << 20)
        if not chunk:
            break
        digest.update(chunk)
    stream.seek(0)
    cases = count_case_lines(stream)
    stream.seek(0)
    return digest.hexdigest(), cases


def _check_resumable(path: str, earlier: FinishedCases, run: Mapping[str, Any]) -> None:
    """RunError unless `earlier` is a results file of this run: its header names the same corpus content and
    the same engine (name, version and --engine)."""
    if earlier.run is None:
        raise RunError(f"{path}: no header naming its run (written by an earlier mjcheck, by hand, or damaged); "
                       "--resume continues only a run it can check: run without --resume to start again")
    theirs = earlier.run
    if theirs.get("corpus_sha256") != run["corpus_sha256"] or run["corpus_sha256"] is None:
        raise RunError(f"{path}: a run of another corpus (or of one read from a pipe, which cannot be checked); "
                       "--resume continues only the same corpus: run without --resume, or choose another --out")
    if theirs.get("engine_spec") != run["engine_spec"] or theirs.get("engine") != run["engine"]:
        raise RunError(f"{path}: a run of another engine ({excerpt(theirs.get('engine_spec'))}); --resume "
                       "continues only the same engine: run without --resume, or choose another --out")
    if theirs.get(RULESET_FILES) != run.get(RULESET_FILES):
        raise RunError(f"{path}: a run under other spec files (--ruleset-file: "
                       f"{excerpt(_files_words(theirs.get(RULESET_FILES)))}, now "
                       f"{excerpt(_files_words(run.get(RULESET_FILES)))}); --resume continues only a run whose "
                       "rulesets are unchanged: run without --resume, or choose another --out")


def _given_files() -> dict[str, Any]:
    """The run's record of the spec files given on the command line (none: nothing, as runs always wrote)."""
    record = given_files_record()
    return {RULESET_FILES: record} if record else {}


def _files_words(record: Any) -> str:
    if not isinstance(record, list) or not record:
        return "none"
    return ", ".join(f"{f.get('path')} ({str(f.get('sha256'))[:12]})" if isinstance(f, dict) else str(f)
                     for f in record)


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
    judged: OrderedDict[int, CaseLine] = OrderedDict()  # the last cases answered (an engine may answer one twice)

    def to_run() -> Iterator[tuple[int, Mapping[str, Any]]]:
        for item in lines:
            if (item.case.get("id") if item.case is not None else None, item.line) in done:
                continue
            skipped = _skip_reason(item, info.refuses)
            if skipped is not None:
                record(_result(item, "skipped", reason=skipped))
            elif item.case is not None:
                asked[item.line] = item
                yield item.line, canonical_case(item.case)  # the wire form: tile fields canonical

    for line, answer in engine.run(to_run()):
        item = asked.pop(line, None)
        if item is None:  # answered again: recorded again, the later result counting
            item = judged.get(line)
            if item is None:
                continue
        else:
            judged[line] = item
            if len(judged) > REANSWER_MEMORY:
                judged.popitem(last=False)
        record(judge(item, answer, info))


def _run_sharded(corpus: str, engine: Engine, info: EngineInfo, done: set[tuple[str | None, int]], out_dir: str,
                 resume: bool, run: Mapping[str, Any], jobs: int, on_start: Callable[[int], None] | None,
                 on_result: Callable[[str], None] | None) -> bool:
    """The run in forked processes, each on a range of the corpus's lines; their results are appended to
    results.jsonl in the order of their parts once all have ended, however they end. True: cut short
    (interrupted, or a process failed: its traceback is on stderr, its cases missing)."""
    results_path = os.path.join(out_dir, RESULTS_FILE)
    ResultsWriter(results_path, resume, run).close()  # as one process would: a new file, or a torn last line cut
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
        with open_append(results_path) as results:
            merge_parts(out_dir, shards, results)
    for shard, status in zip(shards, statuses):
        if status not in (0, INTERRUPTED_STATUS):
            print(f"mjcheck: the process running the part of the corpus from line {shard.first_line + 1} ended with "
                  f"status {status}; that part's cases with no result are counted missing", file=sys.stderr)
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


def _result(item: CaseLine, outcome: str, *, reason: str | None = None, actual: Any = None,
            seconds: float | None = None, compared: Any = None) -> CaseResult:
    case = item.case
    return CaseResult(case.get("id") if case is not None else None, item.line, outcome, actual, reason, case,
                      item.text, seconds, compared)


def judge(item: CaseLine, answer: Answer, info: EngineInfo | None = None) -> CaseResult:
    """passed / failed by checker.case.matches, on the expectation as `info` says the engine is judged (only
    the fields it answers; a refusal by its verdict where its rule ids are its own: checker.conform.compared;
    recorded as the result's `compared`); errored when there is no result or the result schema refuses it
    (`answer_problem`: the reason names the field); skipped when the engine skips it (its reason after
    ENGINE_SKIP)."""
    case, seconds = item.case or {}, answer.seconds
    if answer.skip is not None:
        return _result(item, "skipped", reason=ENGINE_SKIP + answer.skip, seconds=seconds)
    if answer.result is None:
        return _result(item, "errored", reason=bounded(answer.error or "no answer", 1000), seconds=seconds)
    problem = answer_problem(answer.result, case.get("kind", "score"))
    if problem is not None:
        return _result(item, "errored", actual=answer.result, reason=f"a result outside the result schema: {problem}",
                       seconds=seconds)
    expect = case["expect"]
    compared = info.compared(expect, str(case.get("kind", "score"))) if info is not None else expect
    return _result(item, "passed" if matches(answer.result, compared) else "failed", actual=answer.result,
                   seconds=seconds, compared=compared if compared is not expect else None)


def answer_problem(result: Any, kind: str) -> str | None:
    """None for a result the case schema's `expect` of that kind accepts (a score result or an `either` of
    them; a procedure result), each result also taking a `message` string (informative, never compared); else
    its first problem, at its JSON pointer in the result."""
    forms = _answer_forms(kind)
    try:
        if forms[0].is_valid(result):
            return None
    except (ValueError, OverflowError, RecursionError):  # a value jsonschema-rs cannot take in: worded below
        pass
    either = isinstance(result, Mapping) and "either" in result
    validator = forms[2] if either else forms[1]
    error = jsonschema.exceptions.best_match(validator.iter_errors(result))
    if error is None:
        return None
    return f"{pointer_of(error.absolute_path) or '/'}: {schema_message(error)}"


@lru_cache(maxsize=None)
def _answer_forms(kind: str) -> tuple[Any, jsonschema.Draft202012Validator, jsonschema.Draft202012Validator]:
    """The answer schema of a kind of case (checker.spec's case schema, its results taking a `message`): a fast
    validator of every form, and one of the plain form and of the `either` form to word a refusal."""
    whole = schema("case")
    defs = copy.deepcopy(whole["$defs"])
    defs["result"]["properties"]["message"] = {"type": "string"}
    branch = whole["allOf"][0]["then" if kind == "procedure" else "else"]
    forms = [f for f in branch["properties"]["expect"]["anyOf"] if f.get("type") != "null"]
    plain = next(f for f in forms if "either" not in f.get("properties", {}))
    either = next((f for f in forms if "either" in f.get("properties", {})), plain)

    def made(form: Mapping[str, Any]) -> dict[str, Any]:
        return {"$schema": whole["$schema"], "$defs": defs, **form}

    return (jsonschema_rs.validator_for(made({"anyOf": forms})), jsonschema.Draft202012Validator(made(plain)),
            jsonschema.Draft202012Validator(made(either)))


def _write_summary(out_dir: str, meta: Mapping[str, Any], partial: bool, results: ResultStream | None = None,
                   run: Mapping[str, Any] | None = None, damaged: int = 0, known: Known | None = None,
                   prober: Prober | None = None, settings: Settings = Settings()) -> dict[str, Any]:
    """summary.json (and report.md, report.html and junit.xml when the results are given: read from the results
    file again for each pass), each replaced whole (written aside, then renamed), so a reader never sees half a
    file."""
    return write_reports(out_dir, meta, partial, results, run=run, damaged=damaged, known=known, prober=prober,
                         settings=settings)
