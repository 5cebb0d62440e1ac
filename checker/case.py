"""The case format of DESIGN.md: read cases, turn a case's input into a `Hand`, run it, compare results.

A case is one JSON object (`corpus/*.jsonl` holds one per line) checked against
`spec/schema/case.schema.json`. `CaseRunner.outcome` runs one and says which exit status it gives;
`matches` compares a result with an expectation, accepting any member of an `either` list. Each line of a
batch is read and refused on its own (`read_cases`), so one bad line never loses another.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from collections.abc import Mapping
from typing import Any, BinaryIO, Container, Final, Iterator, Sequence

import jsonschema

from checker import tiles as T
from checker.engine import Hand, HandError, Scorer, parse_meld
from checker.inputs import (MAX_CASE_LINE_BYTES, InputError, Line, LineStream, decode, excerpt, parse_json,
                            read_bounded, read_lines, schema_message, whole)
from checker.scorers import CaseError, Scorers
from checker.spec import accepted, pointer_of, schema


# Exit statuses, one rule for every mode of `mjcheck score` (a hand on the command line, --case, --batch):
WON: Final = 0  # a valid win, or a case whose result meets its `expect`
NOT_WON: Final = 1  # the hand may not win (its input is fine), or a case whose result differs from its `expect`
REFUSED: Final = 2  # bad input: a case or hand the tool cannot accept (a batch: any such line)
INCOMPLETE: Final = 3  # nothing found wrong, but something was left unchecked (a partial run, a search cut short)


@dataclass(slots=True)
class CaseLine:
    """A case read from a file, with where it came from; `case` is None when the line was refused. Read-only
    by convention (not frozen: a frozen dataclass sets each field through object.__setattr__, which costs a
    corpus run about a microsecond a case for each such record)."""

    source: str
    line: int
    case: Mapping[str, Any] | None
    error: str | None = None
    rule: str = "input.case"
    text: str = ""  # the line's JSON text as read (a conformance result keeps it as it was written)


def read_cases(stream: LineStream, source: str, as_written: bool = False,
               lines_before: int = 0) -> Iterator[CaseLine]:
    """Cases from a JSON Lines stream, each line read, decoded and checked on its own: a line that is too
    long, not UTF-8, not JSON or not a case yields a CaseLine with its error, and reading goes on. A case's
    null fields are dropped (null stands for absent) unless `as_written`."""
    for line, text in _case_lines(stream, source, lines_before):
        if text is None:
            yield CaseLine(source, line.number, None, line.error, "input.line")
            continue
        try:
            case = parse_json(text, source, line.number)
        except InputError as exc:
            yield CaseLine(source, line.number, None, exc.reason, "input.json")
            continue
        problem = case_problem(case)
        kept = (case if as_written or "null" not in text else without_nulls(case)) if problem is None else None
        yield CaseLine(source, line.number, kept, problem, "input.case", text)


def _case_lines(stream: LineStream, source: str, lines_before: int) -> Iterator[tuple[Line, str | None]]:
    """The lines that read_cases gives a CaseLine for, each with its text stripped (None: the line itself
    was refused, too long or not UTF-8): every line but a blank one or a comment (`#`)."""
    for line in read_lines(stream, source, lines_before=lines_before):
        if line.text is None:
            yield line, None
            continue
        text = line.text.strip()
        if text and not text.startswith("#"):
            yield line, text


def count_case_lines(stream: LineStream, lines_before: int = 0, leaving: Container[int] = ()) -> int:
    """How many CaseLines `read_cases` gives of the stream, less those numbered in `leaving`, read to its end
    a line at a time as read_cases reads it (without parsing: a runner counts a corpus with it before
    streaming it, to tell its progress how many results will come)."""
    return sum(1 for line, _ in _case_lines(stream, "", lines_before) if line.number not in leaving)


def read_case_file(path: Path) -> list[dict[str, Any]]:
    """Every case of a JSON Lines file the project ships (a corpus, the documents' examples), checked as `--batch`
    checks one and kept as written; InputError naming the file and the line of the first case that cannot be read."""
    with open(path, "rb") as stream:
        out = []
        for line in read_cases(stream, str(path), as_written=True):
            if line.case is None:
                raise InputError("read", str(path), line.error or "not a case", line.line)
            out.append(dict(line.case))
    return out


def example_cases(ruleset_id: str, folder: Path | None) -> list[dict[str, Any]]:
    """The source documents' own examples (`FOLDER/*-examples.jsonl`, the shipped ones in checker.spec's
    corpus_dir) for this ruleset, in file order; none without a folder."""
    cases = []
    for path in sorted(folder.glob("*-examples.jsonl")) if folder is not None and folder.is_dir() else []:
        cases += [case for case in read_case_file(path) if case.get("ruleset") == ruleset_id]
    return cases


def read_case(stream: BinaryIO, source: str) -> Mapping[str, Any]:
    """The one case of a --case file (a JSON object, over several lines if need be); InputError or
    CaseError otherwise."""
    data = read_bounded(stream, MAX_CASE_LINE_BYTES + 2, source)  # room for a final line ending
    data = data[:-1] if data.endswith(b"\n") else data
    data = data[:-1] if data.endswith(b"\r") else data
    if len(data) > MAX_CASE_LINE_BYTES:
        raise InputError("read", source, f"it holds more than {MAX_CASE_LINE_BYTES:,} bytes, the limit for a case")
    text = decode(data, source)
    try:
        case = parse_json(text, source)  # (a name of its own: compiled, `data` holds bytes only)
    except InputError as exc:
        lines = [line for line in text.splitlines() if line.strip()]
        if len(lines) > 1 and "Extra data" in exc.reason:
            raise CaseError(f"{source}: --case takes one JSON case; use --batch for a JSON Lines file",
                            "input.case") from None
        raise
    problem = case_problem(case)
    if problem:
        raise CaseError(f"{source}: not a valid case: {problem}", "input.case")
    return without_nulls(case)


def without_nulls(case: Mapping[str, Any]) -> dict[str, Any]:
    """A valid case with its null fields left out: the schema allows null only on optional fields, where it
    means the same as leaving the field out (cases written by other tools), so every consumer (the scorer,
    an engine under test) sees one form. Fields of the case, of its input and of each meld."""
    out = {k: v for k, v in case.items() if v is not None}
    data = out.get("input")
    if isinstance(data, dict):
        data = out["input"] = {k: v for k, v in data.items() if v is not None}
        melds = data.get("melds")
        if isinstance(melds, list):
            data["melds"] = [{k: v for k, v in m.items() if v is not None} if isinstance(m, dict) else m
                             for m in melds]
    return out


def case_problem(case: Any) -> str | None:
    """None for a case the schema accepts, else the first problem with its JSON pointer (quoting at most a
    short excerpt of the value at fault)."""
    if _case_accepts(case):
        return None
    validator = _case_validator()
    try:
        errors = sorted(validator.iter_errors(case), key=lambda e: list(map(str, e.absolute_path)))
    except RecursionError:
        return "/: nested too deeply"
    if not errors:
        return None
    err = errors[0]
    if err.validator in ("anyOf", "oneOf") and err.context:
        err = _closest_alternative(err.context)
    return f"{pointer_of(err.absolute_path) or '/'}: {schema_message(err)}"


def _closest_alternative(context: list[jsonschema.ValidationError]) -> jsonschema.ValidationError:
    """The error to report of a value that fits none of an `anyOf`'s alternatives: from the alternative the
    value got furthest into (its errors the deepest; on a tie the first listed), never `null` of a nullable
    field when there is another."""
    branches: dict[Any, list[jsonschema.ValidationError]] = {}
    for e in context:
        branch = e.relative_schema_path[0] if e.relative_schema_path else None
        branches.setdefault(branch, []).append(e)
    real = [errors for errors in branches.values() if not all(e.schema == {"type": "null"} for e in errors)]
    chosen = max(real or list(branches.values()), key=lambda errors: max(len(e.path) for e in errors))
    return jsonschema.exceptions.best_match(chosen)


@lru_cache(maxsize=1)
def _case_validator() -> jsonschema.Draft202012Validator:
    """The case schema's validator, built once, with its `$ref`s to its own `$defs` written out in place
    (resolving a reference costs more than checking what it names; the case schema has no cycles)."""
    whole = schema("case")
    return jsonschema.Draft202012Validator(_inline(whole, whole.get("$defs", {})))


def _case_accepts(case: Any) -> bool:
    """The fast path: whether the case schema accepts `case` (checker.spec.accepted); a refusal is checked again
    by jsonschema, which words the message."""
    return accepted("case", case)


def _inline(node: Any, defs: Mapping[str, Any]) -> Any:
    if isinstance(node, dict):
        ref = node.get("$ref", "")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            rest = {k: v for k, v in node.items() if k != "$ref"}
            return _inline({**defs[ref[len("#/$defs/"):]], **rest}, defs)
        return {k: _inline(v, defs) for k, v in node.items() if k != "$defs"}
    if isinstance(node, list):
        return [_inline(v, defs) for v in node]
    return node


def _strict_flags(data: Mapping[str, Any]) -> list[str]:
    flags = []
    for name, value in (data.get("flags") or {}).items():
        if not isinstance(value, bool):
            raise HandError(f"flag {excerpt(name)} must be true or false, not {excerpt(value)}", "input.flags")
        if value:
            flags.append(name)
    return flags


def hand_from_input(data: Mapping[str, Any], scorer: Scorer, checked: bool = True) -> Hand:
    """Build the `Hand` a case's `input` describes under the scorer's ruleset, held to its hand checks unless
    not `checked` (they alone depend on the options); HandError names the field, tile, meld or rule at fault."""
    melds = []
    for i, m in enumerate(data.get("melds") or []):
        source = whole(m.get("from"))
        try:
            melds.append(parse_meld(m["type"], m["tiles"], bool(m.get("concealed", False)), source,
                                    bool(m.get("after_knock", False))))
        except HandError as exc:
            raise HandError(f"melds[{i}]: {exc}", exc.rule) from None
    flowers = data.get("flowers") or ""
    if isinstance(flowers, list):
        flowers = " ".join(flowers)
    counters = data.get("counters") or {}
    if counters and any(type(v) is float for v in counters.values()):
        counters = {name: whole(value) for name, value in counters.items()}
    return scorer.build_hand(
        checked, concealed=data.get("concealed", ""), melds=melds, win_tile=data.get("win_tile"),
        win_by=data.get("win_by", "self_draw"), discarder=whole(data.get("discarder")),
        seat_wind=data.get("seat_wind", "E"), round_wind=data.get("round_wind", "E"),
        flowers=flowers, flags=_strict_flags(data), counters=counters,
    )


@dataclass(frozen=True)
class Outcome:
    """What running a case gave: the result in the `expect` shape, whether the input was refused as bad
    input (rather than scored), and whether it met the case's `expect` (None: the case has none)."""

    result: Mapping[str, Any]
    refused: bool
    matches: bool | None

    @property
    def status(self) -> int:
        """The exit status this case alone gives (WON, NOT_WON or REFUSED)."""
        if self.matches is not None:
            return WON if self.matches else NOT_WON
        if self.refused:
            return REFUSED
        legal = self.result.get("verdict") == "legal"
        return WON if self.result.get("valid") or legal or "either" in self.result else NOT_WON


class CaseRunner(Scorers):
    """Runs cases (a hand to score, a hand of play to replay), keeping one bound scorer per (ruleset, options)
    (checker.scorers)."""

    def outcome(self, case: Mapping[str, Any]) -> Outcome:
        """Run a case (a hand to score, or a hand of play to replay); CaseError when the case itself cannot be
        run (unknown ruleset, option or kind)."""
        result, refused = self._played(case)
        return Outcome(result, refused, matches(result, case["expect"]) if "expect" in case else None)

    def _played(self, case: Mapping[str, Any]) -> tuple[Mapping[str, Any], bool]:
        """A case's result in the `expect` shape, and whether its input was refused as bad input."""
        kind = case.get("kind", "score")
        if kind == "procedure":
            from checker.table.log import procedure_result

            played = procedure_result(case, self)
            return played, played["verdict"] == "bad input"
        if kind != "score":
            raise CaseError(f"case kind {excerpt(case.get('kind'))} is not supported", "input.kind")
        scorer = self.scorer(case["ruleset"], case.get("options"))  # an option it does not know: CaseError first
        return _scored(scorer, self.read_hand(case["ruleset"], case["input"]))

    def read_hand(self, ruleset_id: str, data: Mapping[str, Any]) -> Hand | HandError:
        """The hand a score case's `input` describes under the ruleset, before the hand checks (which the
        options may change), or the HandError reading it gave: read once, then scored under several options
        (`result_of`). CaseError for an unknown ruleset."""
        try:
            return hand_from_input(data, self.scorer(ruleset_id, None), checked=False)
        except HandError as exc:
            return exc

    def result_of(self, ruleset_id: str, options: Mapping[str, Any] | None, read: Hand | HandError) -> Mapping[str, Any]:
        """What `run` gives for a score case under `options` whose input `read_hand` read as `read`."""
        return _scored(self.scorer(ruleset_id, options), read)[0]

    def run(self, case: Mapping[str, Any]) -> Mapping[str, Any]:
        """The result of a case in the `expect` shape (not compared with its `expect`: the caller judges);
        invalid input gives {"valid": false, "error": …}."""
        return self._played(case)[0]


def hand_input(hand: Hand, flags: Sequence[str] = (), counters: dict[str, int] | None = None,
               extra_flowers: Sequence[int] = ()) -> dict[str, Any]:
    """A case `input` (canonical tile names) for a Hand (the inverse of `hand_from_input`), with the given flags and counters."""
    melds = []
    for m in hand.melds:
        meld: dict[str, Any] = {"type": m.kind, "tiles": T.format_tiles(m.tiles)}
        if m.concealed:
            meld["concealed"] = True
        if m.source is not None:
            meld["from"] = m.source
        if m.after_knock:
            meld["after_knock"] = True
        melds.append(meld)
    data: dict[str, Any] = {
        "concealed": T.format_tiles(T.sort_tiles(hand.concealed)), "melds": melds,
        "win_tile": T.tile_name(hand.win_tile), "win_by": hand.win_by, "discarder": hand.discarder,
        "seat_wind": T.WIND_LETTERS[hand.seat_wind - T.WINDS.start], "round_wind": T.WIND_LETTERS[hand.round_wind - T.WINDS.start],
        "flowers": T.format_tiles(T.sort_tiles(tuple(hand.flowers) + tuple(extra_flowers))),
        "flags": {f: True for f in sorted(flags)},
    }
    if counters:
        data["counters"] = dict(sorted(counters.items()))
    return data


def _scored(scorer: Scorer, read: Hand | HandError) -> tuple[Mapping[str, Any], bool]:
    """A read hand's result under the scorer (its hand checks, then its score) in the `expect` shape, and whether
    the input was refused: then the result is not valid and names the rule it breaks, and why."""
    if isinstance(read, HandError):
        return _refusal(read), True
    try:
        score = scorer.score(read)  # its hand checks first
    except HandError as exc:
        return _refusal(exc), True
    return score.as_expect(), False


def scored_result(scorer: Scorer, read: Hand | HandError) -> Mapping[str, Any]:
    """A read hand's result under a scorer in the `expect` shape (a refusal naming its rule): what `run` gives
    for a score case (checker.mutate scores cases under edited rulesets through it)."""
    return _scored(scorer, read)[0]


def _refusal(exc: HandError) -> dict[str, Any]:
    return {"valid": False, "error": exc.rule, "message": str(exc)}


def readings_of(result: Any) -> list[Mapping[str, Any]]:
    """The members of an `either` result or expectation (readings worth the same), or the value itself; only
    mappings are kept, so an engine's malformed answer gives [] rather than an error."""
    if type(result) is not dict and not isinstance(result, Mapping):  # (the ABC's check is slow; most are dicts)
        return []
    either = result.get("either")
    if isinstance(either, list):
        return [m for m in either if isinstance(m, Mapping)]
    return [result]


def fans_of(reading: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The fan entries of one reading of a result: its `fans` if they are a list, their mappings only (an
    engine's malformed answer gives [] or fewer entries rather than an error)."""
    fans = reading.get("fans")
    return [f for f in fans if isinstance(f, Mapping)] if isinstance(fans, list) else []


def matches(result: Mapping[str, Any], expect: Mapping[str, Any]) -> bool:
    """True when `result` satisfies `expect` (any member of an `either` list; fan order ignored)."""
    return any(_same(r, e) for r in readings_of(result) for e in readings_of(expect))


def _same(result: Mapping[str, Any], expect: Mapping[str, Any]) -> bool:
    for key, want in expect.items():
        got = result.get(key)
        if key == "fans":  # the same list (most results: the same fans in the same order) needs no sorting
            if got != want and sorted(map(_fan_key, got or [])) != sorted(map(_fan_key, want)):
                return False
        elif key == "winners":  # a procedure case: each winner compared as a result of its own
            if not winners_match(got, want):
                return False
        elif got != want:
            return False
    return True


def winners_match(got: Any, want: Any) -> bool:
    """A hand of play's winners against those expected, each as `_same_winner` compares them."""
    return isinstance(got, list) and isinstance(want, list) and len(got) == len(want) and \
        all(isinstance(w, Mapping) and _same_winner(g, w) for g, w in zip(got, want))


def winner_fan_lists(want: Mapping[str, Any]) -> list[Any]:
    """The fan lists an expected winner of a hand of play takes: its `fans`, then those of the hand's other readings
    of the same worth (`or_fans`: the rules take either list, as a hand's `either` does)."""
    others = want.get("or_fans")
    return [want.get("fans"), *(f for f in (others if isinstance(others, list) else []) if isinstance(f, list))]


def _same_winner(got: Any, want: Mapping[str, Any]) -> bool:
    """A hand of play's winner against the expected one: its fans any list the winner takes (`winner_fan_lists`)."""
    if not isinstance(got, Mapping):
        return False
    plain = {k: v for k, v in want.items() if k != "or_fans"}
    if "fans" not in plain:
        return _same(got, plain)
    return any(_same(got, {**plain, "fans": fans}) for fans in winner_fan_lists(want))


def _fan_key(fan: Mapping[str, Any]) -> tuple:
    return (fan["id"], fan["points"], fan["count"])
