"""Diagnosis: an engine's departures grouped into failure classes, each named by its cause, with a hand.

- `checker.diagnose.diff`: how one result departs from one expectation (the fan diff);
- `checker.diagnose.classes`: failed and errored cases grouped by signature, each class's witness in words, a
  command that reproduces it and the source sentences of its rules;
- `checker.diagnose.candidates`: the departures tried for a class, most likely first;
- `checker.diagnose.causes`: the smallest departure (`checker.mutate`) that turns the reference engine's
  answers into the engine's on a class without changing its passing cases, put to the engine by probes;
- `checker.diagnose.answers`: when a re-scored result is the engine's whole answer; fans named in the documents'
  words read back to the spec's ids;
- `checker.diagnose.probes`: experiments: the cases that put a cause (and its rivals) to the live engine;
- `checker.diagnose.sample`: the classes and passing cases of a run, read in two passes with bounded memory;
- `diagnose(results)`: all of them, as the `classes` of a conformance summary.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Collection, Iterable, Mapping

from checker.diagnose.answers import CapItem, cap_items, document_read, known_patterns, step_items
from checker.diagnose.causes import CauseSearch
from checker.diagnose.explanation import Cause
from checker.diagnose.classes import (FailureClass, case_words, class_rules, classes_of, in_words,
                                      reproduce_command, sources_of)
from checker.diagnose.judged import Judged, kind_of
from checker.diagnose.model import Model
from checker.diagnose.notation import Notation, in_notation, learn
from checker.mutate.edits import points, step_dropped
from checker.diagnose.probes import DEFAULT_PROBES, Experiments, Prober
from checker.diagnose.sample import MAX_MEMBERS_SEARCHED, sample_run

MAX_CLASSES_SEARCHED = 50  # classes given a cause search; the rest are listed with "not searched"

__all__ = ["diagnose", "FailureClass", "Cause", "CauseSearch", "classes_of", "MAX_MEMBERS_SEARCHED", "Prober", "Settings"]


@dataclass(frozen=True)
class Settings:
    """How much diagnosis does (`--no-diagnose`, `--effort N`, `--probes N`): `search` for causes at all,
    `effort` times the default re-scorings, at most `probes` cases put to the engine."""

    search: bool = True
    effort: int = 1
    probes: int = DEFAULT_PROBES

    def as_json(self) -> dict[str, Any]:
        return {"search": self.search, "effort": self.effort, "probes": self.probes}

    @classmethod
    def from_json(cls, data: Any) -> "Settings":
        """Settings a summary recorded (what is missing or not a value of its kind: the default)."""
        data = data if isinstance(data, dict) else {}
        whole = [data.get(k) if isinstance(data.get(k), int) and not isinstance(data.get(k), bool) else None
                 for k in ("effort", "probes")]
        return cls(data.get("search") is not False, max(1, whole[0] or 1), max(0, whole[1] if whole[1] is not None
                                                                            else DEFAULT_PROBES))


def diagnose(results: Iterable[Judged], search: bool = True, prober: Prober | None = None,
             effort: int = 1, followed: Mapping[str, Collection[str]] | None = None) -> list[dict[str, Any]]:
    """The failure classes of a run as JSON (summary.json's `classes`), largest first, each with its count,
    signature, witness (case, words, command), source sentences and cause. `results` is read more than once, the
    same each time (a list, or a run's results streamed from its file): the cause of a class of more than
    MAX_MEMBERS_SEARCHED cases is searched on a sample of them (`searched_cases` says how many). `prober`: the
    engine under test (or its recorded answers), asked the probes that confirm or contradict each cause
    (checker.diagnose.probes); without one, no cause is confirmed, and one that no passing case checked is not
    named. `effort`: the search's re-scorings, so many times the default. Where the probes confirm departures
    and the rules under them pay hands as the engine does whose fans it writes in a way not learned yet
    (checker.diagnose.model), the notation is learned again there and the run diagnosed once more with it.
    `followed`: per ruleset, the options the engine follows where a case names them (the run's profile): each
    confirmed cause is probed under their other values too (how far it reaches)."""
    proofs = NotationProofs(Model({}))
    learned = proofs.learn(results)  # how it writes its fans
    with in_notation(learned):
        found, causes, searcher = _diagnose(results, search, prober, effort, followed)
        if searcher is None or prober is None:
            return [class_json(cls, cause, searcher) for cls, cause in zip(found, causes)]
        model = Model.confirmed([cls.ruleset for cls in found], causes, searcher.components)
    if model:
        again = NotationProofs(model).learn(model.rereading(results))
        if again.beyond(learned):
            learned = learned.joined(replace(again, under=model.words()))
            with in_notation(learned):
                found, causes, searcher = _diagnose(results, search, prober, effort, followed)
    with in_notation(learned):
        return [class_json(cls, cause, searcher) for cls, cause in zip(found, causes)]


class NotationProofs:
    """What learning the notation asks of the rules (notation.learn), under the run's model of the engine (none:
    the rules as written)."""

    def __init__(self, model: Model):
        self.model = model

    def learn(self, results: Iterable[Judged]) -> Notation:
        return learn(results, document_read, known_patterns, self.not_its_points, step_items, cap_items,
                     self.cut_by)

    def not_its_points(self, ruleset_id: str, pattern_id: str, value: Any, cases: list[Judged]) -> bool:
        """Whether the rules (under the model) with `pattern_id` at `value` points pay one of `cases` (each
        answered by the engine with the rules' money) otherwise: then the engine's `value` is not the pattern's
        points."""
        if not isinstance(value, int) or isinstance(value, bool):
            return False
        edit = self.model.under(ruleset_id, points(ruleset_id, pattern_id, value))
        for r in cases:
            if r.case is None:
                continue
            result = self.model.rescorer.result(r.case, edit)
            expected = r.expected if isinstance(r.expected, Mapping) else {}
            if result is not None and any(result.get(k) != expected.get(k) for k in ("valid", "total", "payments")
                                          if k in expected):
                return True
        return False

    def cut_by(self, ruleset_id: str, item: CapItem, cases: list[Judged]) -> int:
        """How many of `cases` the rules' (under the model) limit `item` cut the value of: scored without it, the
        case's total is another (an engine listing the cap as an element at the value it left)."""
        edit = self.model.under(ruleset_id, step_dropped(ruleset_id, item.index, item.step))
        cut = 0
        for r in cases:
            expected = r.expected if isinstance(r.expected, Mapping) else {}
            result = self.model.rescorer.result(r.case, edit) if r.case is not None else None
            cut += result is not None and "total" in expected and result.get("total") != expected.get("total")
        return cut


def _diagnose(results: Iterable[Judged], search: bool, prober: Prober | None, effort: int,
              followed: Mapping[str, Collection[str]] | None = None
              ) -> tuple[list[FailureClass], list[Cause | None], CauseSearch | None]:
    sample = sample_run(results, MAX_CLASSES_SEARCHED if search else 0)
    found = sample.classes
    searcher = CauseSearch(sample.passing, totals=sample.passing_total, scale=effort) if search and found else None
    searched = searcher.explain_all(found[:MAX_CLASSES_SEARCHED]) if searcher is not None else []
    if searcher is not None:
        experiments = Experiments(searcher.rescorer, prober, searcher.own_rules, searcher.read_names, effort) \
            if prober is not None else None
        searched = searcher.confirm_all(found[:MAX_CLASSES_SEARCHED], searched, experiments, followed)
    causes: list[Cause | None] = list(searched)
    causes += [None] * (len(found) - len(causes))
    return found, causes, searcher


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
        "count": cls.count,
        "outcome": witness.outcome,
        "cases": [_name(r) for r in cls.members[:20]],
        **({"searched_cases": len(cls.members)} if cause is not None and cause.stopped is None
           and cls.total is not None else {}),
        "witness": {"id": witness.id, "line": witness.line, "kind": (witness.case or {}).get("kind", "score"),
                    "words": case_words(witness.case) if kind_of(witness) == "procedure" else in_words(witness),
                    "input": witness.input, "options": witness.options, "expected": witness.expected,
                    "actual": _bounded_answer(witness.actual), "reason": witness.reason,
                    "reproduce": reproduce_command(witness)},
        "sources": sources_of(ruleset, rules),
        "cause": cause.as_json() if cause is not None else {"verdict": "not searched"},
    }


MAX_WITNESS_FANS = 60  # the fans a class's witness keeps of the engine's answer (the rest counted in `fans_cut`)


def _bounded_answer(answer: Any) -> Any:
    """The engine's answer as a class's witness keeps it: an answer of thousands of fans cut to the first
    MAX_WITNESS_FANS, the number left out said (`fans_cut`)."""
    if not isinstance(answer, Mapping):
        return answer
    if isinstance(answer.get("either"), list):
        return {**answer, "either": [_bounded_answer(a) for a in answer["either"][:MAX_WITNESS_FANS]]}
    fans = answer.get("fans")
    if isinstance(fans, list) and len(fans) > MAX_WITNESS_FANS:
        return {**answer, "fans": fans[:MAX_WITNESS_FANS], "fans_cut": len(fans) - MAX_WITNESS_FANS}
    return answer


def _name(r: Judged) -> str:
    return f"{r.id} (line {r.line})" if r.id else f"line {r.line}"
