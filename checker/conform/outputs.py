"""Writing a conformance run's outputs, and `rebuild` (for `mjcheck report DIR`) from the results alone.

`DIR/summary.json`, `DIR/report.md`, `DIR/report.html` and `DIR/junit.xml` are all made from the result lines
of `DIR/results.jsonl` (and the run's engine and corpus, kept in summary.json), and the engine's answers to
diagnosis's probes (`DIR/probes.jsonl`), so rebuilding them without running the engine gives the same bytes. The results are read again for each pass (checker.conform.stream),
never held all at once. Each file is replaced whole (written aside, then renamed).
"""
from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from typing import Any, Iterator, Mapping, TextIO

from checker.conform.compared import judged_on
from checker.conform.known import Known, KnownError, known_from_summary
from checker.conform.probing import recorded_probes, write_probes
from checker.conform.reproduce import write_reproducers
from checker.conform.results import RESULTS_FILE
from checker.conform.stream import Cases, ResultStream
from checker.diagnose import Settings
from checker.diagnose.probes import Prober
from checker.files import OwnedFileError, file_sha256, read_owned, write_text
from checker.inputs import FILE_JSON, InputError, json_text, parse_json
from checker.spec import given_files_record, rulesets_given

SUMMARY_FILE = "summary.json"
REPORT_FILE = "report.md"
HTML_FILE = "report.html"
JUNIT_FILE = "junit.xml"
RULESET_FILES = "ruleset_files"  # the run's record of the spec files given on the command line (--ruleset-file)
META_KEYS = ("engine", "engine_spec", "corpus", RULESET_FILES)  # what summary.json keeps of the run beyond its results


class ReportError(Exception):
    """A directory that holds no results to report on (or one a run is writing to)."""


LOCK_FILE = ".mjcheck.lock"  # in DIR: held (flock) by the command writing there (conform, report)


class DirBusy(Exception):
    """DIR's lock is held by another process (a run or a rebuild writing there)."""


def lock_dir(out_dir: str) -> int:
    """DIR's lock, taken without waiting (its descriptor, to close when done; the holder's process id written
    in it); DirBusy naming the holder when another process has it. Never follows a link planted there."""
    import fcntl

    path = os.path.join(out_dir, LOCK_FILE)
    fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        holder = os.read(fd, 64).decode("ascii", "replace").strip()
        os.close(fd)
        raise DirBusy(f"{out_dir}: another run is writing there (process {holder or '?'})") from None
    os.ftruncate(fd, 0)
    os.write(fd, str(os.getpid()).encode("ascii"))
    return fd


def write_reports(out_dir: str, meta: Mapping[str, Any], partial: bool, results: Cases | None = None,
                  run: Mapping[str, Any] | None = None, damaged: int = 0, known: Known | None = None,
                  prober: Prober | None = None, settings: Settings = Settings()) -> dict[str, Any]:
    """summary.json, and when the results are given report.md, report.html and junit.xml; the summary. Each is
    made from `results` in passes (a ResultStream reads DIR/results.jsonl again for each: memory holds a few
    cases whatever the run's size) and written as it is made. (The report modules are imported only for those:
    jinja2's import alone cost a run's first summary 0.14 s.) `known`: declared departures
    (checker.conform.known), recorded in the summary and shown apart. `prober`: the engine asked the probes
    of diagnosis (checker.conform.probing), whose answers are written to DIR/probes.jsonl; `settings`: how much
    diagnosis does."""
    from checker.conform.report import markdown, summarize

    summary = summarize(results or [], meta, partial, run, damaged, known, prober=prober, settings=settings)
    if results is not None and prober is not None:
        write_probes(out_dir, prober)
    if results is not None:
        write_reproducers(out_dir, summary["classes"], str(meta.get("engine_spec") or ""))
    write_text(os.path.join(out_dir, SUMMARY_FILE), json_text(summary, indent=2) + "\n")
    if results is not None:
        from checker.conform import html, junit

        write_text(os.path.join(out_dir, REPORT_FILE), markdown(summary, results))
        with written_aside(os.path.join(out_dir, HTML_FILE)) as stream:
            html.html_report(summary, results, stream)
        with written_aside(os.path.join(out_dir, JUNIT_FILE)) as stream:
            junit.junit_xml(summary, results, stream)
    return summary


@contextmanager
def written_aside(path: str) -> Iterator[TextIO]:
    """A text file written as it is made, aside (a fresh name beside `path`, as checker.files.write_whole
    writes), and renamed over `path` when the block ends; removed, `path` left as it was, if the block fails.
    UTF-8, a lone surrogate written as write_text writes it."""
    folder, name = os.path.split(path)
    fd, aside = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder or ".")
    try:
        with open(fd, "w", encoding="utf-8", errors="replace", newline="", buffering=1 << 20) as stream:
            yield stream
        os.replace(aside, path)
    except BaseException:
        try:
            os.unlink(aside)
        except OSError:
            pass
        raise


def write_interrupted(out_dir: str, meta: Mapping[str, Any], results: Cases,
                      run: Mapping[str, Any] | None = None, damaged: int = 0, known: Known | None = None) -> dict[str, Any]:
    """After an interrupt while the reports were written: summary.json marked partial, its counts from the
    results but no profile and no cause search (`interrupted_reports` names what was not written), and the
    other reports removed, so none is left stale or half made (`mjcheck report DIR` writes them again)."""
    from checker.conform.report import summarize

    summary = summarize(results, meta, True, run, damaged, known, quick=True)
    summary["interrupted_reports"] = [REPORT_FILE, HTML_FILE, JUNIT_FILE]
    for name in summary["interrupted_reports"]:
        try:
            os.unlink(os.path.join(out_dir, name))
        except FileNotFoundError:
            pass
    write_text(os.path.join(out_dir, SUMMARY_FILE), json_text(summary, indent=2) + "\n")
    return summary


def rebuild(out_dir: str, known: Known | None = None, keep_known: bool = True,
            settings: Settings | None = None, rulesets: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Every output of DIR again from DIR/results.jsonl (its header names the engine and corpus; a file of the
    earlier layout: as DIR/summary.json named them), without running the engine, read in passes with memory
    flat in its size. ReportError when there is no results file, or it is not a regular file. `known`: declared
    departures to apply; without them, those the last summary.json recorded (`keep_known`, a ReportError if they
    are not what the tool writes), so the same results give the same files, or none (`keep_known=False`).
    `settings`: how much diagnosis does (without them, what the last summary.json recorded); the probes are
    answered from DIR/probes.jsonl, never by the engine. The spec files the run was given (--ruleset-file, recorded
    in its header) are loaded again from where they were, unless `rulesets` (loaded Rulesets by id) stands in for
    them: ReportError when one is gone or changed since the run."""
    results_path = os.path.join(out_dir, RESULTS_FILE)
    if not os.path.isdir(out_dir):
        raise ReportError(f"{results_path}: no such file (run mjcheck conform --out {out_dir} first)")
    try:
        held = lock_dir(out_dir)
    except DirBusy as exc:
        raise ReportError(f"{exc}: rebuild its reports when it has ended") from None
    try:
        return _rebuild(out_dir, results_path, known, keep_known, settings, rulesets)
    finally:
        os.close(held)


def _rebuild(out_dir: str, results_path: str, known: Known | None, keep_known: bool, settings: Settings | None,
             rulesets: Mapping[str, Any] | None) -> dict[str, Any]:
    try:
        read = ResultStream(results_path)
    except OwnedFileError as exc:
        raise ReportError(f"{results_path}: {exc.reason}") from None
    with read:
        if read.run is None and not len(read) and not read.damaged and not os.path.isfile(results_path):
            raise ReportError(f"{results_path}: no such file (run mjcheck conform --out {out_dir} first)")
        previous = _previous_summary(os.path.join(out_dir, SUMMARY_FILE))
        run = read.run
        if run is not None:
            meta = {"engine": run.get("engine"), "engine_spec": run.get("engine_spec"), "corpus": run.get("corpus"),
                    **({RULESET_FILES: run[RULESET_FILES]} if run.get(RULESET_FILES) else {})}
        else:  # the earlier layout, or a header damaged: the run as the last summary named it
            meta = {key: previous[key] for key in META_KEYS if key in previous}
            if isinstance(previous.get("corpus_cases"), int):
                run = {"corpus_cases": previous["corpus_cases"]}
            elif not len(read):
                raise ReportError(f"{results_path}: no results and no header naming the run (emptied or damaged): "
                                  f"nothing to report; run mjcheck conform --out {out_dir} again")
        if known is None and keep_known and "known" in previous:
            try:
                known = known_from_summary(previous["known"], os.path.join(out_dir, SUMMARY_FILE))
            except KnownError as exc:
                raise ReportError(f"{exc} (give --known FILE, or --no-known)") from None
        # a summary written because the reports were interrupted is partial for that alone: the run is as whole as
        # its results (a case without one is counted missing, which marks the rebuilt summary partial by itself)
        partial = previous.get("partial") is True and not previous.get("interrupted_reports")
        settings = settings or Settings.from_json(previous.get("diagnosis"))
        prober = Prober(None, settings.probes, recorded_probes(out_dir),  # the answers as the run recorded them
                        judged_on(meta.get("engine")))
        with rulesets_given(_recorded_rulesets(meta.get(RULESET_FILES), rulesets or {})):
            record = given_files_record()  # as the run recorded them, or the files given in their place
            meta = {**{k: v for k, v in meta.items() if k != RULESET_FILES}, **({RULESET_FILES: record} if record else {})}
            return write_reports(out_dir, meta, partial, read, run=run, damaged=read.damaged, known=known,
                                 prober=prober, settings=settings)


def _recorded_rulesets(record: Any, given: Mapping[str, Any]) -> dict[str, Any]:
    """The rulesets of the spec files a run recorded (its header's `ruleset_files`), each loaded again from its
    path unless `given` holds one of its id; ReportError naming the file when it is gone, changed since the run
    (another SHA-256) or no longer a valid spec."""
    from checker.engine import load_ruleset_file
    from checker.spec import SpecError

    loaded = dict(given)
    for entry in record if isinstance(record, list) else []:
        if not isinstance(entry, dict) or not isinstance(entry.get("path"), str) or entry.get("id") in loaded:
            continue
        path, rid = entry["path"], entry.get("id")
        hint = f"give it again with --ruleset-file (the run used {path}, ruleset {rid})"
        try:
            digest = file_sha256(path)
        except OSError as exc:
            raise ReportError(f"{path}: {exc.strerror or exc}: the run's spec file cannot be read; {hint}") from None
        if digest != entry.get("sha256"):
            raise ReportError(f"{path}: changed since the run (another SHA-256): rebuilding with it would re-score "
                              f"the run under other rules; {hint}") from None
        try:
            ruleset = load_ruleset_file(path)
        except SpecError as exc:
            raise ReportError(f"{path}: {exc}") from None
        loaded[ruleset.id] = ruleset
    return loaded


MAX_SUMMARY_BYTES = 16 * 1024 * 1024  # a summary read back for its engine, corpus and partial flag


def _previous_summary(path: str) -> Mapping[str, Any]:
    """What an earlier summary.json says, if it is a file the tool wrote and reads (else nothing: the results
    file's header names the run, and a summary is rebuilt from the results alone)."""
    try:
        data = read_owned(path, MAX_SUMMARY_BYTES)
        loaded = parse_json(data.decode("utf-8"), path, limits=FILE_JSON) if data is not None else None
    except (OSError, InputError, UnicodeDecodeError):
        return {}
    if not isinstance(loaded, dict):
        return {}
    kept = ("partial", "corpus_cases", "known", "interrupted_reports", "diagnosis")
    return {key: value for key, value in loaded.items() if key in META_KEYS + kept
            and (key in kept or key == "engine" and isinstance(value, dict) or isinstance(value, str)
                 or key == RULESET_FILES and isinstance(value, list))}
