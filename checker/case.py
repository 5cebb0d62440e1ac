"""The case format of DESIGN.md: read cases, turn a case's input into a `Hand`, run it, compare results.

A case is one JSON object (`corpus/*.jsonl` holds one per line) checked against
`spec/schema/case.schema.json`. `run_case` returns the `expect` shape; `matches` compares a result with an
expectation, accepting any member of an `either` list.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Iterator, Mapping, TextIO

import jsonschema

from checker.engine import Hand, HandError, Scorer, load_ruleset, parse_meld
from checker.spec import Ruleset, SpecError, pointer_of, schema


class CaseError(HandError):
    """A case that cannot be run: an unknown ruleset or option, or a kind the scorer does not run.
    Like HandError it carries the `rule` or input id it breaks."""


@dataclass(frozen=True)
class CaseLine:
    """A case read from a file, with where it came from."""

    source: str
    line: int
    case: Mapping[str, Any] | None
    error: str | None = None


def read_cases(stream: TextIO, source: str) -> Iterator[CaseLine]:
    """Cases from a JSON Lines stream; a bad line yields a CaseLine with its error and reading goes on."""
    for number, text in enumerate(stream, 1):
        text = text.strip()
        if not text or text.startswith("#"):
            continue
        try:
            case = json.loads(text)
        except json.JSONDecodeError as exc:
            yield CaseLine(source, number, None, f"invalid JSON at column {exc.colno}: {exc.msg}")
            continue
        problem = case_problem(case)
        yield CaseLine(source, number, case if problem is None else None, problem)


def case_problem(case: Any) -> str | None:
    """None for a case the schema accepts, else the first problem with its JSON pointer."""
    validator = jsonschema.Draft202012Validator(schema("case"))
    errors = sorted(validator.iter_errors(case), key=lambda e: list(map(str, e.absolute_path)))
    if not errors:
        return None
    err = errors[0]
    if err.validator == "oneOf" and err.context:
        err = jsonschema.exceptions.best_match(err.context)
    return f"{pointer_of(err.absolute_path) or '/'}: {err.message}"


def hand_from_input(data: Mapping[str, Any], scorer: Scorer) -> Hand:
    """Build the `Hand` a case's `input` describes under the scorer's ruleset; HandError names the field,
    tile, meld or rule at fault."""
    melds = []
    for i, m in enumerate(data.get("melds") or []):
        try:
            melds.append(parse_meld(m["type"], m["tiles"], bool(m.get("concealed", False)), m.get("from"),
                                    bool(m.get("after_knock", False))))
        except HandError as exc:
            raise HandError(f"melds[{i}]: {exc}", exc.rule) from None
    flowers = data.get("flowers") or ""
    if isinstance(flowers, list):
        flowers = " ".join(flowers)
    flags = [k for k, v in (data.get("flags") or {}).items() if v]
    return scorer.build_hand(
        concealed=data.get("concealed", ""), melds=melds, win_tile=data.get("win_tile"),
        win_by=data.get("win_by", "self_draw"), discarder=data.get("discarder"),
        seat_wind=data.get("seat_wind", "E"), round_wind=data.get("round_wind", "E"),
        flowers=flowers, flags=flags, counters=data.get("counters") or {},
    )


class CaseRunner:
    """Runs score cases, keeping one bound scorer per (ruleset, options)."""

    def __init__(self):
        self._rulesets: dict[str, Ruleset] = {}
        self._scorers: dict[tuple, Scorer] = {}

    def scorer(self, ruleset_id: str, options: Mapping[str, Any] | None) -> Scorer:
        key = (ruleset_id, tuple(sorted((options or {}).items())))
        if key not in self._scorers:
            if ruleset_id not in self._rulesets:
                try:
                    self._rulesets[ruleset_id] = load_ruleset(ruleset_id)
                except SpecError as exc:
                    raise CaseError(str(exc), "input.ruleset") from None
            try:
                self._scorers[key] = Scorer(self._rulesets[ruleset_id], options)
            except ValueError as exc:
                raise CaseError(str(exc), "input.options") from None
        return self._scorers[key]

    def run(self, case: Mapping[str, Any]) -> dict:
        """The result of a score case in the `expect` shape; invalid input gives {"valid": false, "error": …}."""
        if case.get("kind", "score") != "score":
            raise CaseError(f"case kind {case.get('kind')!r} is not supported by the scorer", "input.kind")
        scorer = self.scorer(case["ruleset"], case.get("options"))
        try:
            hand = hand_from_input(case["input"], scorer)
        except HandError as exc:
            return {"valid": False, "error": exc.rule, "message": str(exc)}
        return scorer.score(hand).as_expect()


def matches(result: Mapping[str, Any], expect: Mapping[str, Any]) -> bool:
    """True when `result` satisfies `expect` (any member of an `either` list; fan order ignored)."""
    options = expect["either"] if "either" in expect else [expect]
    results = result["either"] if "either" in result else [result]
    return any(_same(r, e) for r in results for e in options)


def _same(result: Mapping[str, Any], expect: Mapping[str, Any]) -> bool:
    for key, want in expect.items():
        got = result.get(key)
        if key == "fans":
            if sorted(map(_fan_key, got or [])) != sorted(map(_fan_key, want)):
                return False
        elif got != want:
            return False
    return True


def _fan_key(fan: Mapping[str, Any]) -> tuple:
    return (fan["id"], fan["points"], fan["count"])
