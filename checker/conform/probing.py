"""The engine under test asked the probes diagnosis builds (checker.diagnose.probes), and their record.

After a run's cases, diagnosis may put new cases to the engine to confirm or contradict a cause: `EngineAsk`
starts the engine again when the first probe comes (an answer checked as a case's is: outside the result
schema it counts as no answer), and stops it when the reports are written. Every probe and the engine's
answer are written to `DIR/probes.jsonl`, one JSON object a line (`{"case": …, "answer": …, "sum": …}`, the
line's checksum last, as results.jsonl's lines), so that `mjcheck report DIR` reads the same answers again,
without the engine, and rebuilds the same reports; a line whose checksum does not hold is not read (that probe is
then said not to have been asked).
"""
from __future__ import annotations

import os
from typing import Any, Callable, Mapping, Sequence

from checker.conform.adapters import Engine
from checker.conform.results import checked_body, checked_line
from checker.diagnose.probes import Prober
from checker.files import OwnedFileError, read_owned, write_whole
from checker.inputs import ANSWER_JSON, InputError, json_text, parse_json

PROBES_FILE = "probes.jsonl"
MAX_PROBES_BYTES = 64 * 1024 * 1024  # a probes file read back


class EngineAsk:
    """Probes asked of a conformance run's engine, started again for them on the first one; `problem` says
    what is wrong with an answer (None: it is a result of the case's kind), as the run judges its cases."""

    def __init__(self, engine: Engine, problem: Callable[[Any, str], str | None]):
        self.engine, self.problem, self.started = engine, problem, False

    def __call__(self, cases: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any] | None]:
        if not self.started:
            self.engine.start()
            self.started = True
        answers = dict(self.engine.run(enumerate(cases)))
        out: list[Mapping[str, Any] | None] = []
        for i, case in enumerate(cases):
            answer = answers.get(i)
            result = answer.result if answer is not None and answer.error is None else None
            ok = result is not None and self.problem(result, str(case.get("kind", "score"))) is None
            out.append(result if ok else None)
        return out

    def close(self) -> None:
        if self.started:
            self.started = False
            self.engine.stop()


def write_probes(out_dir: str, prober: Prober) -> None:
    """DIR/probes.jsonl: every probe asked or read and the engine's answer (none written when there are none,
    and an older one removed)."""
    path = os.path.join(out_dir, PROBES_FILE)
    lines = prober.record()
    if not lines:
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass
        return
    write_whole(path, b"".join(checked_line(json_text(line).encode("utf-8", "replace") + b"\n") for line in lines))


def recorded_probes(out_dir: str) -> dict[str, Mapping[str, Any] | None]:
    """The engine's recorded answers to probes, by the probe's key (checker.diagnose.probes.Prober.key);
    lines that are not a probe and an answer are left out (then that probe is not asked again: it is said
    to be so)."""
    path = os.path.join(out_dir, PROBES_FILE)
    try:
        data = read_owned(path, MAX_PROBES_BYTES)
    except OwnedFileError:
        return {}
    found: dict[str, Mapping[str, Any] | None] = {}
    for raw in (data or b"").splitlines():
        body = checked_body(raw)
        if body is None:  # damaged, or not written by the tool
            continue
        try:
            line = parse_json((body + b"}").decode("utf-8"), path, limits=ANSWER_JSON)
        except (InputError, UnicodeDecodeError):
            continue
        if isinstance(line, dict) and isinstance(line.get("case"), dict) and \
                (line.get("answer") is None or isinstance(line.get("answer"), dict)):
            found[Prober.key(line["case"])] = line.get("answer")
    return found
