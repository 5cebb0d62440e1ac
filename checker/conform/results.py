"""One case's conformance result, and the results file (`DIR/results.jsonl`) that holds one per line.

A result line is `{"id", "line", "outcome", "actual", "reason", "case"}`, `case` the corpus's case whole, as it
was read (so reports can draw its hand, name what it covers and re-score it; null when the line was not a
case): `outcome` is `passed` (the engine's result meets the case's `expect`), `failed` (it does not), `errored`
(the engine crashed, hung, wrote garbage, answered another case or said `{"error": …}`) or `skipped` (the engine
does not run the case's ruleset or kind, the case has no `expect`, or the line is not a case). A case line of
plain ASCII is written as it was read (encoding it again was most of writing a result); any other is encoded
from the case read, with every character that is not printable escaped. Lines are appended whole and flushed
at least every FLUSH_SECONDS and when the run ends (one write a line cost as much as a fast engine's answer), so
a run cut short keeps its finished cases on whole lines (a kill loses at most the last FLUSH_SECONDS, run again
by `--resume`); reading skips a torn last line. Files written before the case was kept whole
(`"expected", "covers", "ruleset", "options", "input"` beside the outcome) still read.
"""
from __future__ import annotations

import os
import stat
import time
from dataclasses import dataclass
from typing import Any, BinaryIO, Iterator, Mapping

from checker.case import without_nulls
from checker.diagnose.judged import CaseFields
from checker.files import OwnedFileError, line_sum, open_append, open_fresh, open_owned
from checker.inputs import MAX_RESULT_LINE_BYTES, RESULT_JSON, InputError, json_line, parse_json

OUTCOMES = ("passed", "failed", "errored", "skipped")
ENGINE_SKIP = "the engine skips it: "  # how the reason of a case the engine skipped (`{"skip": "…"}`) begins
NOT_RUN = "not run: "  # how the reason of a case never put to the engine begins (it was given up): --resume runs it
RESULTS_FILE = "results.jsonl"
RESULTS_LAYOUT = 2  # the header's `results`: a header line naming the run, and a checksum on every line
FLUSH_SECONDS = 0.2  # the longest a finished result waits in the buffer while more come
WRITE_BUFFER_BYTES = 1 << 20  # written out when full or flushed at FLUSH_SECONDS (the default 8 KiB made a
# system call every nine result lines or so)


@dataclass(slots=True)
class CaseResult(CaseFields):
    """What running one case on an engine gave. Read-only by convention (not frozen, as checker.case.CaseLine:
    one is made for every case). `case` is the case as read (its null fields left out), None for a line that
    is not a case; `text` its JSON text as read, "" when not known (a result read back)."""

    id: str | None
    line: int
    outcome: str
    actual: Mapping[str, Any] | None = None
    reason: str | None = None
    case: Mapping[str, Any] | None = None
    text: str = ""
    seconds: float | None = None  # the engine's time on the case (None: not measured, or not run)
    # the expectation as the engine was judged on it, where narrower than the case's (the engine answers only some
    # fields, or names rules in its own words: checker.conform.compared); None: the case's own. Never written:
    # derived from the case and the engine the results file's header names (checker.conform.stream)
    compared: Mapping[str, Any] | None = None

    @property
    def expected(self) -> Any:
        if self.compared is not None:
            return self.compared
        return self.case.get("expect") if self.case is not None else None

    @property
    def covers(self) -> tuple[str, ...]:
        return tuple(self.case.get("covers") or ()) if self.case is not None else ()

    def as_json(self) -> dict[str, Any]:
        return {**self._head(), "case": self.case}

    def _head(self) -> dict[str, Any]:
        head: dict[str, Any] = {"id": self.id, "line": self.line, "outcome": self.outcome, "actual": self.actual,
                "reason": self.reason}
        if self.seconds is not None:
            head["seconds"] = round(self.seconds, 6)
        return head

    def as_line(self) -> bytes:
        """The result line: the case's own text when it is plain ASCII with no tab, carriage return or DEL
        and no NaN or Infinity (a parsed case line is then one line of printable characters and standard
        JSON), else the case encoded again."""
        text = self.text
        if self.case is None or not text or not text.isascii() or "\t" in text or "\r" in text or "\x7f" in text \
                or "NaN" in text or "Infinity" in text:  # (the standard library reads those; JSON has no such number)
            return json_line(self.as_json())
        head = json_line(self._head())
        return b"".join((head[:-2], b',"case":', text.encode("ascii"), b"}\n"))

    @property
    def key(self) -> tuple[str | None, int]:
        """Which case of the corpus this is (`--resume` skips the keys already in the results file)."""
        return (self.id, self.line)


def from_json(data: Any) -> CaseResult | None:
    """A result line read back, or None for a line that is not one. What a report reads of the case is kept
    only in the shape a case has (covers a list of strings, ruleset a string, options and input objects):
    a results file may come from anywhere."""
    if not isinstance(data, dict) or data.get("outcome") not in OUTCOMES or not isinstance(data.get("line"), int):
        return None
    case_id = data.get("id")
    if "case" in data:
        case = data["case"] if isinstance(data["case"], dict) else None
    else:  # written before the case was kept whole: its parts beside the outcome
        case = {"expect": data.get("expected"), "covers": data.get("covers"), "ruleset": data.get("ruleset"),
                "options": data.get("options"), "input": data.get("input")}
    seconds = data.get("seconds")
    return CaseResult(case_id if isinstance(case_id, str) else None, data["line"], data["outcome"],
                      data.get("actual"), data.get("reason"), None if case is None else _case_shape(case),
                      seconds=float(seconds) if isinstance(seconds, (int, float)) and not isinstance(seconds, bool)
                      and 0 <= seconds < 1e9 else None)


def _case_shape(case: dict[str, Any]) -> dict[str, Any]:
    kept = without_nulls(case)  # null is absent, in the case, its input and its melds, as when it was read
    covers = kept.get("covers")
    if covers is not None:
        kept["covers"] = [c for c in covers if isinstance(c, str)] if isinstance(covers, list) else []
    for key, kind in (("ruleset", str), ("options", dict), ("input", dict)):
        if key in kept and not isinstance(kept[key], kind):
            del kept[key]
    return kept


@dataclass(frozen=True)
class ResultsFile:
    """What a results file holds: its run (the first line's identity, None for a file of the earlier layout),
    its result lines whose checksums hold, and how many lines were passed over as damaged (a checksum that
    does not hold, a line that is not a result, too long, too deep or not UTF-8). A torn last line (a kill) is
    not damage: its case had not finished."""

    run: Mapping[str, Any] | None
    results: list[CaseResult]
    damaged: int


def read_results(path: str) -> list[CaseResult]:
    """The result lines of a results file whose checksums hold ([] if there is none): read_results_file's."""
    return read_results_file(path).results


def read_results_file(path: str) -> ResultsFile:
    """A results file read back: no link followed, nothing but a regular file read (OwnedFileError), each
    line by the bounded JSON reader (RESULT_JSON) no further than MAX_RESULT_LINE_BYTES, each checked against
    its checksum. A file with no header line is of the earlier layout: its lines carry no checksum and are
    read as they are."""
    stream = open_owned(path)
    if stream is None:
        return ResultsFile(None, [], 0)
    reading = Reading()
    with stream:
        found = [result for _, result in result_lines(stream, reading)]
    return ResultsFile(reading.run, found, reading.damaged)


@dataclass(frozen=True)
class FinishedCases:
    """What `--resume` reads of a results file: its run (None: the earlier layout, or no file), the cases its
    whole and checked lines hold (by key: id and line) and how many lines were damaged."""

    run: Mapping[str, Any] | None
    keys: set[tuple[str | None, int]]
    damaged: int


def finished_cases(path: str) -> FinishedCases:
    """The cases a results file holds, read as read_results_file reads it, a line at a time (only their keys kept),
    less those whose last result says they were never run (NOT_RUN: the engine was given up before them), which
    --resume runs again (their new results, written later, are the ones read back)."""
    stream = open_owned(path)
    if stream is None:
        return FinishedCases(None, set(), 0)
    reading = Reading()
    keys: set[tuple[str | None, int]] = set()
    with stream:
        for _, result in result_lines(stream, reading):
            if result.outcome == "errored" and (result.reason or "").startswith(NOT_RUN):
                keys.discard(result.key)
            else:
                keys.add(result.key)
    return FinishedCases(reading.run, keys, reading.damaged)


@dataclass
class Reading:
    """What reading a results file found besides its results: the run its header names (None: no header, the
    earlier layout), the damaged lines passed over, and where its last whole line ends."""

    run: Mapping[str, Any] | None = None
    damaged: int = 0
    end: int = 0


def result_lines(stream: BinaryIO, reading: Reading, end: int | None = None) -> Iterator[tuple[int, CaseResult]]:
    """Each result line of a results file open at its start whose checksum holds, with its offset, as
    read_results_file reads them (`reading` told the header, the damaged lines and the end of the last whole
    line as they come); `end`: read no further than that offset (a file read again reads what it read first)."""
    first, at = True, stream.tell()
    while end is None or at < end:
        raw = stream.readline(MAX_RESULT_LINE_BYTES + 1)
        if not raw:
            break
        start, at = at, at + len(raw)
        if len(raw) > MAX_RESULT_LINE_BYTES:
            while raw and not raw.endswith(b"\n"):  # pass over the rest of the overlong line
                raw = stream.readline(MAX_RESULT_LINE_BYTES)
                at += len(raw)
            reading.damaged += 1
            reading.end = at
            first = False
            continue
        if not raw.endswith(b"\n"):
            break  # a line torn by a kill: the case runs again on --resume
        reading.end = at
        if first:
            first = False
            reading.run = _header(raw)
            if reading.run is not None:
                continue
        item = _result_line(raw, checked=reading.run is not None)
        if item is None:
            reading.damaged += 1
        else:
            yield start, item


def result_at(stream: BinaryIO, offset: int, checked: bool) -> CaseResult | None:
    """The result line at `offset` of a results file (`checked`: the file has a header, its lines checksums)."""
    stream.seek(offset)
    return _result_line(stream.readline(MAX_RESULT_LINE_BYTES + 1), checked)


def _header(raw: bytes) -> Mapping[str, Any] | None:
    """The run a results file's first line names, or None when it is not a header."""
    body = checked_body(raw)
    if body is None:
        return None
    try:
        data = parse_json(body.decode("utf-8") + "}", "a results header", limits=RESULT_JSON)
    except (InputError, UnicodeDecodeError):
        return None
    if not isinstance(data, dict) or data.get("results") != RESULTS_LAYOUT or not isinstance(data.get("run"), dict) \
            or not _run_shape(data["run"]):
        return None
    return data["run"]


def _result_line(raw: bytes, checked: bool) -> CaseResult | None:
    """A result line read back, or None when it is damaged. A line that carries a checksum field is checked
    whatever the file's header says; one without is read only in a file of the earlier layout (no header)."""
    line = raw.rstrip(b"\r\n")
    if checked or line.endswith(b'"}') and line.rfind(_SUM_FIELD) == len(line) - len(_SUM_FIELD) - 10:
        body = checked_body(raw)
        if body is None:
            return None
        closing = "}"
    else:
        body, closing = line, ""
    try:
        return from_json(parse_json(body.decode("utf-8") + closing, "a result line", limits=RESULT_JSON))
    except (InputError, UnicodeDecodeError):
        return None


_SUM_FIELD = b',"sum":"'


def checked_body(raw: bytes) -> bytes | None:
    """A line's content without its checksum field and closing brace, if its checksum holds; else None."""
    line = raw.rstrip(b"\r\n")
    at = line.rfind(_SUM_FIELD)
    if at < 0 or not line.endswith(b'"}') or len(line) - at != len(_SUM_FIELD) + 10:
        return None
    body = line[:at]
    return body if line_sum(body) == line[at + len(_SUM_FIELD):-2].decode("ascii", "replace") else None


def checked_line(line: bytes) -> bytes:
    """A JSON object line (ending in `}` and a line ending) with its checksum field added last."""
    body = line.rstrip(b"\n")[:-1]
    return b"".join((body, _SUM_FIELD, line_sum(body).encode("ascii"), b'"}\n'))


def _run_shape(run: Mapping[str, Any]) -> bool:
    """Whether a header's run is in the shape the tool writes it (a file sealed again by hand may hold anything):
    texts where it writes texts, a whole number of cases, the engine an object of texts and lists of texts."""
    def text_or_none(value: Any) -> bool:
        return value is None or isinstance(value, str)

    engine = run.get("engine")
    cases = run.get("corpus_cases")
    return all(text_or_none(run.get(k)) for k in ("corpus", "corpus_sha256", "engine_spec")) \
        and (cases is None or isinstance(cases, int) and not isinstance(cases, bool) and cases >= 0) \
        and isinstance(engine, dict) and all(text_or_none(engine.get(k)) for k in ("name", "version")) \
        and all(engine.get(k) is None or isinstance(engine[k], list) and all(isinstance(x, str) for x in engine[k])
                for k in ("rulesets", "kinds"))


def header_line(run: Mapping[str, Any]) -> bytes:
    """The first line of a results file: the layout and the run's identity."""
    return checked_line(json_line({"results": RESULTS_LAYOUT, "run": run}))


class ResultsWriter:
    """Writes result lines to a results file of its own (checker.files: no link followed), each whole with its
    checksum, flushed at least every FLUSH_SECONDS and on closing. A new file starts with the header naming
    `run`; a resumed one (a file of this run, checked by the caller) is appended to after its torn last
    line is cut. `run` None: a part file of a shard (its lines are appended to results.jsonl whole)."""

    def __init__(self, path: str, resume: bool, run: Mapping[str, Any] | None = None):
        self.path = path
        if resume:
            drop_torn_tail(path)
            self._stream = open_append(path, buffering=WRITE_BUFFER_BYTES)
        else:
            self._stream = open_fresh(path, buffering=WRITE_BUFFER_BYTES)
            if run is not None:
                self._stream.write(header_line(run))
        self._flushed = time.monotonic()

    def write(self, result: CaseResult) -> None:
        self._stream.write(checked_line(result.as_line()))
        now = time.monotonic()
        if now - self._flushed >= FLUSH_SECONDS:
            self._stream.flush()
            self._flushed = now

    def close(self) -> None:
        self._stream.close()

    def __enter__(self) -> "ResultsWriter":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def drop_torn_tail(path: str) -> None:
    """Cut a last line without its line ending (left by a kill mid-write), so appending starts on a new line
    (a results file resumed, a shard's part file merged); a missing file is left missing."""
    try:
        fd = os.open(path, os.O_RDWR | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        return
    except OSError as exc:
        raise OwnedFileError(path, exc.strerror or str(exc)) from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise OwnedFileError(path, "not a regular file, not a file this tool wrote")
    try:
        with os.fdopen(fd, "rb+") as stream:
            size = stream.seek(0, os.SEEK_END)
            if size == 0:
                return
            step, end = 4096, size
            while end > 0:
                start = max(0, end - step)
                stream.seek(start)
                chunk = stream.read(end - start)
                if start + len(chunk) == size and chunk.endswith(b"\n"):
                    return
                newline = chunk.rfind(b"\n")
                if newline >= 0:
                    stream.truncate(start + newline + 1)
                    return
                end = start
            stream.truncate(0)
    except FileNotFoundError:
        return


