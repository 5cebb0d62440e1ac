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
import time
from dataclasses import dataclass
from typing import Any, Mapping

from checker.case import without_nulls
from checker.inputs import InputError, json_line, parse_json

OUTCOMES = ("passed", "failed", "errored", "skipped")
RESULTS_FILE = "results.jsonl"
FLUSH_SECONDS = 0.2  # the longest a finished result waits in the buffer while more come
WRITE_BUFFER_BYTES = 1 << 20  # written out when full or flushed at FLUSH_SECONDS (the default 8 KiB made a
# system call every nine result lines or so)


@dataclass(slots=True)
class CaseResult:
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

    @property
    def expected(self) -> Any:
        return self.case.get("expect") if self.case is not None else None

    @property
    def covers(self) -> tuple[str, ...]:
        return tuple(self.case.get("covers") or ()) if self.case is not None else ()

    @property
    def ruleset(self) -> str | None:
        return self.case.get("ruleset") if self.case is not None else None

    @property
    def options(self) -> Mapping[str, Any] | None:
        return self.case.get("options") if self.case is not None else None

    @property
    def input(self) -> Mapping[str, Any] | None:
        return self.case.get("input") if self.case is not None else None

    def as_json(self) -> dict[str, Any]:
        return {**self._head(), "case": self.case}

    def _head(self) -> dict[str, Any]:
        return {"id": self.id, "line": self.line, "outcome": self.outcome, "actual": self.actual,
                "reason": self.reason}

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
    return CaseResult(case_id if isinstance(case_id, str) else None, data["line"], data["outcome"],
                      data.get("actual"), data.get("reason"), None if case is None else _case_shape(case))


def _case_shape(case: dict[str, Any]) -> dict[str, Any]:
    kept = without_nulls(case)  # null is absent, in the case, its input and its melds, as when it was read
    covers = kept.get("covers")
    if covers is not None:
        kept["covers"] = [c for c in covers if isinstance(c, str)] if isinstance(covers, list) else []
    for key, kind in (("ruleset", str), ("options", dict), ("input", dict)):
        if key in kept and not isinstance(kept[key], kind):
            del kept[key]
    return kept


MAX_RESULT_LINE_BYTES = 4 * 1024 * 1024  # one result line: a case, its expectation and the engine's answer


def read_results(path: str) -> list[CaseResult]:
    """The whole result lines of a results file (a torn, foreign, too deeply nested or overlong line is passed
    over, read no further than MAX_RESULT_LINE_BYTES); [] if none."""
    try:
        stream = open(path, "rb")
    except FileNotFoundError:
        return []
    found = []
    with stream:
        while True:
            raw = stream.readline(MAX_RESULT_LINE_BYTES + 1)
            if not raw:
                break
            if len(raw) > MAX_RESULT_LINE_BYTES:
                while raw and not raw.endswith(b"\n"):  # pass over the rest of the overlong line
                    raw = stream.readline(MAX_RESULT_LINE_BYTES)
                continue
            if not raw.endswith(b"\n"):
                break  # a line torn by a kill: the case runs again on --resume
            try:
                item = from_json(parse_json(raw.decode("utf-8"), path))
            except (InputError, ValueError):
                continue
            if item is not None:
                found.append(item)
    return found


class ResultsWriter:
    """Appends result lines to `DIR/results.jsonl`, each written whole, flushed at least every FLUSH_SECONDS
    and on closing."""

    def __init__(self, path: str, resume: bool):
        self.path = path
        if resume:
            drop_torn_tail(path)
        self._stream = open(path, "ab" if resume else "wb", buffering=WRITE_BUFFER_BYTES)
        self._flushed = time.monotonic()

    def write(self, result: CaseResult) -> None:
        self._stream.write(result.as_line())
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
        with open(path, "rb+") as stream:
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


