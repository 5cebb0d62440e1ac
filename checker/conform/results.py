"""One case's conformance result, and the results file (`DIR/results.jsonl`) that holds one per line.

A result line is `{"id", "line", "outcome", "expected", "actual", "reason", "covers", "ruleset", "options",
"input"}` (the last three copied from the case, so reports can draw its hand and re-score it): `outcome` is
`passed` (the engine's result meets `expect`), `failed` (it does not), `errored` (the engine crashed, hung,
wrote garbage, answered another case or said `{"error": …}`) or `skipped` (the engine does not run the case's
ruleset or kind, the case has no `expect`, or the line is not a case). Lines are appended whole and flushed at
least every FLUSH_SECONDS and when the run ends (one write a line cost as much as a fast engine's answer), so a
run cut short keeps its finished cases on whole lines (a kill loses at most the last FLUSH_SECONDS, run again
by `--resume`); reading skips a torn last line.
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from checker.inputs import InputError, json_line, parse_json

OUTCOMES = ("passed", "failed", "errored", "skipped")
RESULTS_FILE = "results.jsonl"
FLUSH_SECONDS = 0.2  # the longest a finished result waits in the buffer while more come


@dataclass(slots=True)
class CaseResult:
    """What running one case on an engine gave. Read-only by convention (not frozen, as checker.case.CaseLine:
    one is made for every case)."""

    id: str | None
    line: int
    outcome: str
    expected: Mapping[str, Any] | None = None
    actual: Mapping[str, Any] | None = None
    reason: str | None = None
    covers: Sequence[str] = ()
    ruleset: str | None = None
    options: Mapping[str, Any] | None = None
    input: Mapping[str, Any] | None = None

    def as_json(self) -> dict[str, Any]:
        return {"id": self.id, "line": self.line, "outcome": self.outcome, "expected": self.expected,
                "actual": self.actual, "reason": self.reason, "covers": list(self.covers),
                "ruleset": self.ruleset, "options": self.options, "input": self.input}

    @property
    def key(self) -> tuple[str | None, int]:
        """Which case of the corpus this is (`--resume` skips the keys already in the results file)."""
        return (self.id, self.line)


def from_json(data: Any) -> CaseResult | None:
    """A result line read back, or None for a line that is not one."""
    if not isinstance(data, dict) or data.get("outcome") not in OUTCOMES or not isinstance(data.get("line"), int):
        return None
    case_id = data.get("id")
    covers = data.get("covers") or []
    ruleset, options, given = data.get("ruleset"), data.get("options"), data.get("input")
    return CaseResult(case_id if isinstance(case_id, str) else None, data["line"], data["outcome"],
                      data.get("expected"), data.get("actual"), data.get("reason"),
                      tuple(c for c in covers if isinstance(c, str)) if isinstance(covers, list) else (),
                      ruleset if isinstance(ruleset, str) else None, options if isinstance(options, dict) else None,
                      given if isinstance(given, dict) else None)


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
            _drop_torn_tail(path)
        self._stream = open(path, "ab" if resume else "wb")
        self._flushed = time.monotonic()

    def write(self, result: CaseResult) -> None:
        self._stream.write(json_line(result.as_json()))
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


def _drop_torn_tail(path: str) -> None:
    """Cut a last line without its line ending (left by a kill mid-write), so appending starts on a new line."""
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


