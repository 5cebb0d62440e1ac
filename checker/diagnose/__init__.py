"""Diagnosis: an engine's departures grouped into failure classes, each named by its cause, with a hand.

- `checker.diagnose.diff`: how one result departs from one expectation (the fan diff);
- `checker.diagnose.classes`: failed and errored cases grouped by signature, each class's witness in words, a
  command that reproduces it and the source sentences of its rules;
- `checker.diagnose.causes`: the smallest departure (`checker.mutate`) that turns the reference engine's
  answers into the engine's on a class without changing its passing cases;
- `diagnose(results)`: both, as the `classes` of a conformance summary.
"""
from __future__ import annotations

from typing import Any, Sequence

from checker.diagnose.causes import Cause, CauseSearch
from checker.diagnose.classes import (FailureClass, class_rules, classes_of, in_words, reproduce_command,
                                      sources_of)
from checker.diagnose.judged import Judged

MAX_CLASSES_SEARCHED = 50  # classes given a cause search; the rest are listed with "not searched"

__all__ = ["diagnose", "FailureClass", "Cause", "CauseSearch", "classes_of"]


def diagnose(results: Sequence[Judged], search: bool = True) -> list[dict[str, Any]]:
    """The failure classes of a run as JSON (summary.json's `classes`), largest first, each with its count,
    signature, witness (case, words, command), source sentences and cause."""
    found = classes_of(results)
    searcher = CauseSearch(results) if search and found else None
    searched = searcher.explain_all(found[:MAX_CLASSES_SEARCHED]) if searcher is not None else []
    causes: list[Cause | None] = list(searched)
    causes += [None] * (len(found) - len(causes))
    return [class_json(cls, cause, searcher) for cls, cause in zip(found, causes)]


def class_json(cls: FailureClass, cause: Cause | None, searcher: CauseSearch | None) -> dict[str, Any]:
    witness = cls.witness
    ruleset = searcher.ruleset_of(cls.ruleset) if searcher is not None else None
    rules = class_rules(cls)
    if cause is not None:
        for e in cause.explanations:
            rules += list(e.rules)
    return {
        "signature": cls.title(),
        "parts": [dict(p) for p in cls.parts],
        "ruleset": cls.ruleset,
        "count": len(cls.members),
        "outcome": witness.outcome,
        "cases": [_name(r) for r in cls.members[:20]],
        "witness": {"id": witness.id, "line": witness.line, "words": in_words(witness),
                    "input": witness.input, "options": witness.options, "expected": witness.expected,
                    "actual": witness.actual, "reason": witness.reason, "reproduce": reproduce_command(witness)},
        "sources": sources_of(ruleset, rules),
        "cause": cause.as_json() if cause is not None else {"verdict": "not searched"},
    }


def _name(r: Judged) -> str:
    return f"{r.id} (line {r.line})" if r.id else f"line {r.line}"
