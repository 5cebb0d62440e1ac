"""`mjcheck reproduce --engine ENGINE FILE`: cases put to the engine under test beside the reference engine.

A failure class's reproducer is a file of cases (its witness and the probes that tried its cause, written by a
conformance run to `DIR/reproducers/class-N.jsonl`); reproducing it runs every case on the engine under test and
on the reference engine and shows, for each, the case in words, what the case expects, what the reference gives
and what the engine answers, and how the answer departs from the expectation (checker.diagnose.diff). The engine
is run as `mjcheck conform` runs it (checker.conform.engines): so an engine author sees the engine's own answer,
not the reference's, and can rerun it after a fix.
"""
from __future__ import annotations

import json
import os
import shlex
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any, Iterable, Mapping, Sequence

from checker.case import CaseError, CaseRunner, matches
from checker.conform.adapters import Engine
from checker.corpus.canonical import canonical_case
from checker.diagnose.classes import in_words
from checker.diagnose.diff import describe, diff
from checker.files import OwnedFileError, write_text
from checker.inputs import json_text
from checker.spec import given_files_args

REPRODUCERS = "reproducers"  # the folder of a run's reproducer files


@dataclass(frozen=True)
class Reproduced:
    """One case put to both engines: the reference's result, the engine's answer or why there is none."""

    case: Mapping[str, Any]
    reference: Mapping[str, Any] | None
    answer: Mapping[str, Any] | None
    error: str | None
    compared: Any = None  # the expectation as the engine is judged on it, where narrower (checker.conform.compared)

    @property
    def expected(self) -> Any:
        return self.compared if self.compared is not None else self.case.get("expect")

    @property
    def agrees(self) -> bool:
        """Whether the engine's answer meets the case's expectation."""
        return self.answer is not None and isinstance(self.expected, Mapping) and matches(self.answer, self.expected)

    def as_json(self) -> dict[str, Any]:
        return {"id": self.case.get("id"), "case": dict(self.case), "reference": self.reference,
                "answer": self.answer, "error": self.error, "agrees": self.agrees}

    def lines(self) -> list[str]:
        """The case in words, then each side's result and how the engine's departs from the expectation."""
        words = in_words(SimpleNamespace(input=self.case.get("input") or {}, options=self.case.get("options")))
        out = [f"{self.case.get('id') or '(no id)'}: {'the engine agrees' if self.agrees else 'the engine departs'}",
               f"  the case: {words}" if self.case.get("kind", "score") == "score" else
               f"  the case: a hand of play, {len((self.case.get('input') or {}).get('events') or [])} events",
               f"  expected:  {json_text(self.expected)}",
               f"  reference: {json_text(self.reference)}"]
        if self.answer is None:
            out.append(f"  engine:    no answer ({self.error})")
        else:
            out.append(f"  engine:    {json_text(self.answer)}")
            out += [f"    {line}" for line in describe(diff(self.expected, self.answer))]
        return out


def reproduce(cases: Sequence[Mapping[str, Any]], engine: Engine, runner: CaseRunner | None = None) -> list[Reproduced]:
    """Every case on `engine` (started and stopped here) and on the reference engine, in order."""
    runner = runner or CaseRunner()
    wire = [canonical_case(c) for c in cases]
    info = engine.start()
    try:
        answers = dict(engine.run(enumerate(wire)))
    finally:
        engine.stop()
    out = []
    for i, case in enumerate(wire):
        try:
            reference: Mapping[str, Any] | None = runner.run(case)
        except CaseError:
            reference = None
        answer = answers.get(i)
        expect = case.get("expect")
        compared = info.compared(expect, str(case.get("kind", "score")))
        out.append(Reproduced(case, reference, answer.result if answer is not None else None,
                              (answer.error if answer is not None else "the engine gave none") if
                              answer is None or answer.result is None else None,
                              compared if compared is not expect else None))
    return out


def write_reproducers(out_dir: str, classes: Iterable[dict[str, Any]], engine_spec: str) -> None:
    """For each class of a summary: DIR/reproducers/class-N.jsonl (its witness, then the probes its cause was
    tried by) and, in the class, `reproducer_file` (that file, named within the run's folder) and
    `reproduce_engine`: the command, run in the run's folder, that puts them to the engine again."""
    folder = os.path.join(out_dir, REPRODUCERS)
    if os.path.islink(folder) or (os.path.exists(folder) and not os.path.isdir(folder)):
        raise OwnedFileError(folder, "not a folder the tool made (a link or a file in its place): nothing was "
                                     "written through it")
    for number, c in enumerate(classes, 1):
        cases = [_witness_case(c)] + [p["case"] for e in _explanations(c)
                                      for p in [*(e.get("probes") or []),
                                                *(q for r in e.get("reach") or [] for q in r.get("probes") or [])]]
        cases = [case for case in cases if case]
        if not cases or not engine_spec:
            continue
        os.makedirs(folder, exist_ok=True)
        name = f"{REPRODUCERS}/class-{number}.jsonl"  # (in the run's folder: the same when the folder moves)
        write_text(os.path.join(out_dir, name),
                   "".join(json.dumps(case, ensure_ascii=False, sort_keys=True) + "\n" for case in cases))
        c["reproducer_file"] = name
        c["reproduce_engine"] = f"mjcheck reproduce --engine {shlex.quote(engine_spec)}{given_files_args()} {name}"


def _witness_case(c: Mapping[str, Any]) -> dict[str, Any] | None:
    w = c.get("witness") or {}
    if not isinstance(w.get("input"), Mapping):
        return None
    return {"id": w.get("id") or f"line-{w.get('line')}", "ruleset": c.get("ruleset"), "options": w.get("options") or {},
            "kind": w.get("kind") or "score", "input": w["input"], "expect": w.get("expected")}


def _explanations(c: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    cause = c.get("cause") or {}
    return [e for key in ("explained_by", "contradicted", "untested") for e in cause.get(key) or []
            if isinstance(e, Mapping)]
