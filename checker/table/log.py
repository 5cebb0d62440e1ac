"""Game logs (JSON Lines, spec/schema/game.schema.json): a header line, then one event per line. Replaying a log
checks every event against the procedure and ends with the hand's result, or stops at the first illegal event.

Header: `{"game": "mjcheck-table", "version": 1, "ruleset": "mcr", "options": {}, "seed": 7}` (or `"wall"`: the
144 tiles in draw order), with `dealer` (seat 0-3, default 0), `round_wind`, `counters` (荒番, 底分), `flags`
(context of the whole hand: 开宝) and `seats` (free labels: who or what played each seat).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, BinaryIO, Iterator, Mapping, Sequence

import jsonschema

from checker import tiles as T
from checker.inputs import InputError, excerpt, parse_json, read_lines, schema_message, whole
from checker.scorers import CaseError, Scorers
from checker.spec import accepted, given_key, pointer_of, schema
from checker.table.events import Event, LogError, Violation, parse_event
from checker.engine import Scorer
from checker.spec.procedure import ProcedureError, TableRules
from checker.table.settle import hand_result
from checker.table.state import Table
from checker.table.wall import WallError, parse_wall, shuffled_wall

GAME = "mjcheck-table"
VERSION = 1
# what the validator says of a log (and the exit status each gives)
LEGAL, ILLEGAL, UNFINISHED, BAD_INPUT = "legal", "illegal", "unfinished", "bad input"
EXIT = {LEGAL: 0, ILLEGAL: 1, UNFINISHED: 1, BAD_INPUT: 2}


def shared_runner() -> Scorers:
    """One set of scorers for the process (and rulesets given on the command line, checker.spec.rulesets_given):
    each ruleset loaded, and each scorer bound, once."""
    return _scorers_for(given_key())


@lru_cache(maxsize=2)
def _scorers_for(given: tuple) -> Scorers:
    return Scorers()


@lru_cache(maxsize=1)
def _header_validator() -> jsonschema.Draft202012Validator:
    whole = schema("game")
    return jsonschema.Draft202012Validator({**whole["$defs"]["header"], "$defs": whole["$defs"]})


def header_problem(header: Any) -> str | None:
    if accepted("game", header, "header"):  # the fast path (checker.spec.accepted); jsonschema words a refusal
        return None
    errors = sorted(_header_validator().iter_errors(header), key=lambda e: list(map(str, e.absolute_path)))
    if not errors:
        return None
    err = errors[0]
    return f"header {pointer_of(err.absolute_path) or '/'}: {schema_message(err)}"


def new_table(header: Mapping[str, Any], runner: Scorers | None = None) -> Table:
    """The table a header describes, dealt; LogError (bad input) for an unknown ruleset, option or bad wall."""
    problem = header_problem(header)
    if problem:
        raise LogError(problem, "input.header")
    header = _whole_numbers(header)
    runner = runner or shared_runner()
    try:
        scorer = runner.scorer(header["ruleset"], header.get("options"))
        rules = scorer.bound.procedure
    except (CaseError, ProcedureError, ValueError) as exc:
        raise LogError(str(exc), getattr(exc, "rule", "input.header")) from None
    if "wall" in header:
        try:
            given = header["wall"]  # the 144 tiles (136 without flowers), or four strings: each seat's quarter
            wall = parse_wall("".join(given) if isinstance(given, list) else given, rules.flowers_in_wall)
            if isinstance(given, list):
                sizes = [len(T.parse_tiles(q)) for q in given]
                if len(set(sizes)) != 1:
                    raise WallError(f"wall: the four quarters hold {', '.join(map(str, sizes))} tiles; each seat's "
                                    f"quarter is a fourth of the wall ({len(wall) // 4})")
        except WallError as exc:
            raise LogError(str(exc), "input.wall") from None
    else:
        wall = shuffled_wall(header["seed"], rules.flowers_in_wall)
    flags = [k for k, v in (header.get("flags") or {}).items() if v]
    unknown = [f for f in flags if f not in scorer.ruleset.flags]
    if unknown:
        raise LogError(f"header flags: unknown flag {excerpt(unknown[0])} for {scorer.ruleset.id}", "input.flags")
    counters = dict(header.get("counters") or {})
    for name, value in counters.items():
        spec = scorer.ruleset.counters.get(name)
        if spec is None or not spec.min <= value <= spec.max:
            raise LogError(f"header counters: {excerpt(name)} is not a counter of {scorer.ruleset.id} or is out of "
                           f"its range", "input.counters")
    return Table(rules, scorer, wall, dealer=header.get("dealer", 0), round_wind=_round_wind(header, rules),
                 counters=counters, flags=flags, hand_number=header.get("hand", 0),
                 claims_as_declared=header.get("claim_order") == "declared")


def _round_wind(header: Mapping[str, Any], rules: TableRules) -> str:
    """The header's round wind; left out, East, or under a deal that passes every hand with a round wind every
    `round_wind_every` hands (MCR's dealer_rotation), the wind its hand number falls in."""
    if "round_wind" in header:
        return str(header["round_wind"])
    if rules.rotates_each_hand and rules.round_wind_every:
        return "ESWN"[(header.get("hand", 0) // rules.round_wind_every) % 4]
    return "E"


def _whole_numbers(header: Mapping[str, Any]) -> Mapping[str, Any]:
    """A checked header with its numbers written with a zero fraction (2.0) as the integers they are, as the
    game schema reads them (JSON Schema's `integer`): the seed, dealer, hand number and counters."""
    counters = header.get("counters") or {}
    if not any(type(header.get(k)) is float for k in ("seed", "dealer", "hand")) \
            and not any(type(v) is float for v in counters.values()):
        return header
    out = {k: whole(v) if k in ("seed", "dealer", "hand") else v for k, v in header.items()}
    if counters:
        out["counters"] = {name: whole(value) for name, value in counters.items()}
    return out


@dataclass
class Replay:
    """What replaying one log found: its verdict, the line it stopped at, and the hand's result when it ended."""

    source: str
    verdict: str = LEGAL
    line: int = 0
    event: str = ""
    rule: str = ""
    message: str = ""
    expected: str = ""
    statements: list[dict[str, str]] = field(default_factory=list)
    result: dict[str, Any] | None = None
    events: int = 0

    @property
    def status(self) -> int:
        return EXIT[self.verdict]

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"log": self.source, "verdict": self.verdict, "events": self.events}
        if self.verdict != LEGAL:
            out.update({"line": self.line, "rule": self.rule, "message": self.message})
            if self.event:
                out["event"] = self.event
            if self.expected:
                out["expected"] = self.expected
            if self.statements:
                out["statements"] = self.statements
        if self.result is not None:
            out["result"] = self.result
        return out


def replay_lines(lines: Iterator[tuple[int, str | None, str | None]], source: str,
                 runner: Scorers | None = None) -> Replay:
    """Replay a log given as (line number, text or None, error) triples."""
    out = Replay(source)
    table: Table | None = None
    last_line = 0
    for number, text, error in lines:
        last_line = number
        if text is None:
            return _bad(out, number, error or "unreadable line", "input.line")
        text = text.strip()
        if not text or text.startswith("#"):
            continue
        try:
            data = parse_json(text, source, number)
        except InputError as exc:
            return _bad(out, number, exc.reason, "input.json")
        try:
            if table is None:
                table = new_table(data, runner)
                continue
            ev = parse_event(data)
            problem = table.apply(ev)
        except LogError as exc:
            return _bad(out, number, str(exc), exc.rule)
        if problem is not None:
            return _illegal(out, table, number, ev, problem)
        out.events += 1
    if table is None:
        return _bad(out, last_line, "the log has no header line", "input.header")
    if not table.ended:
        out.verdict, out.line, out.rule = UNFINISHED, last_line, "procedure.turn"
        out.message = "the log ends before the hand does"
        out.expected = table._expected()
        return out
    out.result = hand_result(table)
    return out


def replay(stream: BinaryIO, source: str, runner: Scorers | None = None) -> Replay:
    """Replay the log in `stream` (bounded reading, one line at a time)."""
    return replay_lines(((ln.number, ln.text, ln.error) for ln in read_lines(stream, source)), source, runner)


def replay_events(header: Mapping[str, Any], events: Sequence[Mapping[str, Any]],
                  runner: Scorers | None = None) -> Replay:
    """Replay a log given as data (a header and its events), e.g. a procedure case."""
    import json

    lines = [json.dumps(header)] + [json.dumps(e) for e in events]
    return replay_lines(((i + 1, text, None) for i, text in enumerate(lines)), "<events>", runner)


def expected_winners(winners: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """A hand's winners (checker.table.settle) as a procedure result gives them: seat, win_by, total and fans, and
    the fans of the hand's other readings of the same worth (`or_fans`) where it has them."""
    return [{"seat": w["seat"], "win_by": w["win_by"], "total": w["total"], "fans": w["fans"],
             **({"or_fans": w["or_fans"]} if w.get("or_fans") else {})} for w in winners]


def procedure_result(case: Mapping[str, Any], runner: Scorers | None = None) -> dict[str, Any]:
    """The result of a `kind: procedure` case in its `expect` shape (case.schema.json $defs/procedure_result):
    the case's ruleset and options with its input's deal make the log's header, its events the log. An ended hand
    also gives what the next hand starts from: `next_dealer`, `next_round_wind` (rulesets whose round wind
    advances by the table's count of hands: MCR) and `next_huangfan` (rulesets keeping a 荒番 count: classic)."""
    data = dict(case["input"])
    events = data.pop("events")
    header = {"game": GAME, "version": VERSION, "ruleset": case["ruleset"], "options": case.get("options") or {},
              **data}
    found = replay_events(header, events, runner)
    out: dict[str, Any] = {"verdict": found.verdict}
    if found.verdict != LEGAL:
        out["rule"] = found.rule
        if found.line >= 2:
            out["event"] = found.line - 2  # line 1 is the header
        out["message"] = found.message
    if found.result is not None:
        result = found.result
        out["ended"] = result["ended"]
        out["winners"] = expected_winners(result["winners"])
        out["payments"] = result["payments"]
        # what the next hand starts from, as the table decides it after this one (settle.hand_result): who deals
        # (absolute seat), the round wind where the ruleset says when it advances (MCR's dealer_rotation), and the
        # 荒番 count where the ruleset keeps one (classic's huangfan_count)
        following = result["next"]
        out["next_dealer"] = following["dealer"]
        if "round_wind" in following:
            out["next_round_wind"] = following["round_wind"]
        kept = following.get("counters", {})  # the table keeps one count across hands: huangfan_count's
        if kept:
            (out["next_huangfan"],) = kept.values()
    return out


def statements_for(table: Table, rule: str) -> list[dict[str, str]]:
    """The statements of the ruleset's document that name `rule` (document, section, phrase)."""
    return [{"doc": s.doc, "section": s.section, "phrase": s.phrase} for s in table.rules.ruleset.statements
            if rule in s.rules][:3]


def _bad(out: Replay, line: int, message: str, rule: str) -> Replay:
    out.verdict, out.line, out.message, out.rule = BAD_INPUT, line, message, rule
    return out


def _illegal(out: Replay, table: Table, line: int, ev: Event, problem: Violation) -> Replay:
    out.verdict, out.line, out.event = ILLEGAL, line, ev.text()
    out.rule, out.message, out.expected = problem.rule, problem.message, problem.expected
    out.statements = statements_for(table, problem.rule)
    return out
