"""Hands of play that tell a procedure mutant from the spec: the search behind `corpus strength`'s procedure
survivors and the procedure generator's killing cases.

A mutant (`checker.mutate.procedure`) is a spec with one rule of play changed; the reference table binds it
exactly as it binds the spec. A candidate is a procedure case: a deal and its events, under a set of options.
It **separates** the mutant when its result under the mutant (`checker.table.log.procedure_result`, through a
`CaseRunner` holding the edited spec) no longer matches its `expect`, the spec's result: the very test
`corpus strength` applies, so a case found here kills the mutant by construction. The candidates, in order:

1. the cases given (a corpus's own), and each with the options it sets to their defaults left out (a case that
   leaves an option to its default tells a mutant that reads the default otherwise);
2. the scenes of `checker.separating.scenes` (short hand-written hands around the rules bots seldom reach:
   a tile let go and claimed again, the fourth tile of a pung, a kong after a knock, 漏胡 and what lifts it), under
   the defaults and each other reading of each option the table reads;
3. the cases given under each other reading of each option the table reads, and with what the next hand starts
   from set in their header: the hand's number (the round wind follows it) and each counter the ruleset
   declares, at its first few values above the minimum;
4. hands played by the simulation's bots on seeded walls, under the defaults and each other reading, played once
   by the spec's table and once by the mutant's (a mutant that allows a move the spec forbids shows in the hands
   its own table lets the bots play);
5. the scene of a whole wall played out, its last discard punged (scenes.last_discard_punged), under
   each reading: which claims the last discard takes;
6. every single change of the cases given, then of the bot-played hands, then of the scenes
   (`checker.table.mutate.OPERATORS`: another seat, another discard, a claim or a knock inserted, an event left
   out, ...).

The changes are screened cheaply, on copies of the two tables as they stand before the changed event, and only a
change whose outcome differs there is run as a whole case on both. `budget` counts candidates run (whole cases,
and changes screened), so the same seed and budget give the same case on any machine. A case found is cut right
after the first event where the spec and the mutant part, when the cut still separates them.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

from checker import tiles as T
from checker.case import CaseError, CaseRunner, matches
from checker.separating.scenes import SCENES, last_discard_punged, scene_data
from checker.mutate.mutation import Mutation
from checker.spec import Ruleset, options_text
from checker.table.bots import SEAT_MIXES
from checker.table.events import LogError, parse_event
from checker.table.log import GAME, VERSION, new_table, procedure_result
from checker.table.mutate import OPERATORS
from checker.table.settle import hand_result
from checker.table.simulate import SimulationError, play_hand
from checker.table.state import Table
from checker.table.wall import shuffled_wall

HANDS = 6  # bot-played hands per reading and per table (the spec's, the mutant's)
HAND_NUMBERS = range(1, 9)  # header hand numbers tried on the given cases (two rounds of four)
COUNTER_VALUES = 3  # values above a counter's minimum tried in the given cases' headers
BUDGET = 20_000  # candidates run per mutant
# what running a candidate may raise under an edited spec the table cannot play through
PLAY_FAILURES = (CaseError, LogError, SimulationError, ValueError, KeyError, TypeError, AttributeError,
                 ArithmeticError, IndexError, AssertionError, StopIteration)


@dataclass(frozen=True)
class Separation:
    """A case that tells the mutant from the spec (`expect`: the spec's result), the mutant's result for it, how
    it was made, and how many candidates the search ran to find it."""

    case: Mapping[str, Any]
    mutant_result: Mapping[str, Any]
    made: str
    tried: int


@dataclass(frozen=True)
class Unseparated:
    """No candidate separated the mutant: how many were run, and whether the budget stopped the search."""

    tried: int
    budget_reached: bool


def expect_of(result: Mapping[str, Any]) -> dict[str, Any]:
    """A procedure result as a case's `expect`: everything but the refusal's message (its words are free)."""
    return {k: v for k, v in result.items() if k != "message" and v is not None}


def procedure_case(ruleset_id: str, data: Mapping[str, Any], options: Mapping[str, Any] | None = None
                   ) -> dict[str, Any]:
    """A procedure case of `data` (the deal and its events) without its expect."""
    return {"ruleset": ruleset_id, "kind": "procedure", "options": dict(options or {}), "input": dict(data)}


def separate(ruleset: Ruleset, mutation: Mutation, options: Sequence[Mapping[str, Any]],
             cases: Sequence[Mapping[str, Any]] = (), seed: int = 0, budget: int = BUDGET,
             runner: CaseRunner | None = None,
             avoid: Callable[[Mapping[str, Any]], bool] | None = None) -> Separation | Unseparated:
    """The first candidate (see the module's docstring) that separates `mutation` from the spec, its bot hands
    played under each of `options` (option sets; {} the defaults), but those `avoid` says to pass over (a
    diagnosis asking for a hand beyond the class's own); or how many candidates were run in vain."""
    spec_runner = runner or CaseRunner()
    edited = mutation.edit(ruleset)
    mutant_runner = CaseRunner({ruleset.id: edited})
    search = _Search(ruleset, spec_runner, mutant_runner, budget)

    def first(found: Iterable[Separation]) -> Separation | None:
        return next((f for f in found if avoid is None or not avoid(f.case)), None)

    sources = list(_given(ruleset, cases))
    scenes = list(_scenes(ruleset, options))
    played: list[tuple[dict[str, Any], str]] = []

    def plays() -> Iterator[tuple[dict[str, Any], str]]:
        played.extend(_played(ruleset, edited, options, seed, spec_runner, mutant_runner))
        yield from played

    rounds: list[Callable[[], Iterable[Separation]]] = [
        lambda: search.whole(sources), lambda: search.whole(scenes),
        lambda: search.whole(_varied(ruleset, cases, options)), lambda: search.whole(plays()),
        lambda: search.whole(_played_out(ruleset, options)),
        lambda: (f for case, made in sources + played + scenes for f in search.changes(case, made))]
    for searched in rounds:
        found = first(searched())
        if found is not None:
            return found
    return Unseparated(search.tried, search.tried >= budget)


def _given(ruleset: Ruleset, cases: Sequence[Mapping[str, Any]]) -> Iterator[tuple[dict[str, Any], str]]:
    """The given cases, then each with its default-valued options left out."""
    for case in cases:
        base = procedure_case(ruleset.id, case["input"], case.get("options"))
        yield base, f"the corpus case {case.get('id')!r}"
    for case in cases:
        options = case.get("options") or {}
        kept = {k: v for k, v in options.items() if k not in ruleset.options or v != ruleset.options[k].default}
        if kept != options:
            yield procedure_case(ruleset.id, case["input"], kept), \
                f"the corpus case {case.get('id')!r} with {', '.join(sorted(set(options) - set(kept)))} left to " \
                f"its default"


def _scenes(ruleset: Ruleset, options: Sequence[Mapping[str, Any]]) -> Iterator[tuple[dict[str, Any], str]]:
    """The hand-written scenes that can be dealt, under each option set."""
    for reading in options:
        under = f" under {_said(reading)}" if reading else ""
        for s in SCENES:
            data = scene_data(ruleset.id, s)
            if data is not None:
                yield procedure_case(ruleset.id, data, reading), f"the scene {s.name} ({s.words}){under}"


def _played_out(ruleset: Ruleset, options: Sequence[Mapping[str, Any]]) -> Iterator[tuple[dict[str, Any], str]]:
    """The scene of a whole wall played out (scenes.last_discard_punged), under each option set: tried
    after the bots' hands (it is long, and no one-event change is made of it)."""
    data = last_discard_punged(ruleset.id)
    if data is None:
        return
    for reading in options:
        under = f" under {_said(reading)}" if reading else ""
        yield procedure_case(ruleset.id, data, reading), \
            f"the scene last_discard_punged (the wall played out, the last discard punged){under}"


def _varied(ruleset: Ruleset, cases: Sequence[Mapping[str, Any]], options: Sequence[Mapping[str, Any]]
            ) -> Iterator[tuple[dict[str, Any], str]]:
    """The given cases under each other option set, then with a hand number or a counter set in their header."""
    for reading in options[1:]:
        for case in cases:
            merged = {**(case.get("options") or {}), **reading}
            if merged != (case.get("options") or {}):
                yield procedure_case(ruleset.id, case["input"], merged), \
                    f"the corpus case {case.get('id')!r} under {_said(reading)}"
    for case in cases:
        data = {k: v for k, v in case["input"].items() if k != "round_wind"}
        for number in HAND_NUMBERS:
            if case["input"].get("hand") != number:
                yield procedure_case(ruleset.id, {**data, "hand": number}, case.get("options")), \
                    f"the corpus case {case.get('id')!r} as hand {number}"
        for name, counter in ruleset.counters.items():
            for value in range(counter.min + 1, min(counter.max, counter.min + COUNTER_VALUES) + 1):
                counters = {**(case["input"].get("counters") or {}), name: value}
                yield procedure_case(ruleset.id, {**case["input"], "counters": counters}, case.get("options")), \
                    f"the corpus case {case.get('id')!r} with {name} {value}"


def _said(reading: Mapping[str, Any]) -> str:
    return options_text(dict(sorted(reading.items()))) or "the default options"


def _played(ruleset: Ruleset, edited: Ruleset, options: Sequence[Mapping[str, Any]], seed: int,
            spec_runner: CaseRunner, mutant_runner: CaseRunner) -> Iterator[tuple[dict[str, Any], str]]:
    """Bot-played hands on seeded walls under each option set, played by the spec's table and by the mutant's."""
    for reading in options:
        for i in range(HANDS):
            hand_seed = seed * 1_000 + 500 + i
            bots = SEAT_MIXES[i % len(SEAT_MIXES)]
            for table_name, runner in (("the spec's", spec_runner), ("the mutant's", mutant_runner)):
                try:
                    hand = play_hand(ruleset.id, hand_seed, bots, reading, runner=runner)
                except PLAY_FAILURES:
                    continue
                wall = shuffled_wall(hand_seed, hand.table.rules.flowers_in_wall)
                data = {"wall": T.format_tiles(wall), "dealer": hand.header.get("dealer", 0),
                        "events": hand.events}
                yield procedure_case(ruleset.id, data, reading), \
                    f"a hand played by bots ({', '.join(bots)}) at {table_name} table, wall seed {hand_seed}"


class _Search:
    def __init__(self, ruleset: Ruleset, spec_runner: CaseRunner, mutant_runner: CaseRunner, budget: int):
        self.ruleset, self.spec_runner, self.mutant_runner = ruleset, spec_runner, mutant_runner
        self.budget, self.tried = budget, 0

    def whole(self, sources: Iterable[tuple[dict[str, Any], str]]) -> Iterator[Separation]:
        for case, made in sources:
            if self.tried >= self.budget:
                return
            self.tried += 1
            found = self._parts(case, made)
            if found is not None:
                yield found

    def changes(self, case: Mapping[str, Any], made: str) -> Iterator[Separation]:
        """Each single change of the case's events, screened on copies of both tables before the change."""
        header = {"game": GAME, "version": VERSION, "ruleset": case["ruleset"], "options": case["options"],
                  **{k: v for k, v in case["input"].items() if k != "events"}}
        events = case["input"]["events"]
        try:
            spec_table, mutant_table = new_table(header, self.spec_runner), new_table(header, self.mutant_runner)
        except PLAY_FAILURES:
            return
        for i in range(len(events)):
            for operator in OPERATORS:
                for change, changed in operator(spec_table, events, i):
                    if self.tried >= self.budget:
                        return
                    self.tried += 1
                    suffix = changed[i:]
                    if _outcome(spec_table, suffix) == _outcome(mutant_table, suffix):
                        continue
                    data = {**case["input"], "events": changed}
                    found = self._parts(procedure_case(case["ruleset"], data, case["options"]),
                                        f"{made}, changed: {change}")
                    if found is not None:
                        yield found
            try:
                event = parse_event(events[i])
                if spec_table.ended or spec_table.apply(event) is not None or mutant_table.ended \
                        or mutant_table.apply(event) is not None:
                    return
            except PLAY_FAILURES:
                return

    def _parts(self, case: dict[str, Any], made: str) -> Separation | None:
        """The case with the spec's result as its expect, cut short where it still separates, if it does."""
        results = self._results(case)
        if results is None or matches(results[1], expect_of(results[0])):
            return None
        spec, mutant = results
        cut = _cut_at(spec, mutant)
        if cut is not None and cut < len(case["input"]["events"]):
            shorter = {**case, "input": {**case["input"], "events": case["input"]["events"][:cut]}}
            again = self._results(shorter)
            if again is not None and not matches(again[1], expect_of(again[0])):
                case, (spec, mutant) = shorter, again
        return Separation({**case, "expect": expect_of(spec)}, mutant, made, self.tried)

    def _results(self, case: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]] | None:
        try:
            spec = procedure_result(case, self.spec_runner)
        except PLAY_FAILURES:
            return None
        try:
            mutant = procedure_result(case, self.mutant_runner)
        except PLAY_FAILURES as exc:  # the mutant's table cannot play it: an engine that would fail the case
            mutant = {"verdict": "error", "message": f"{type(exc).__name__}: {exc}"}
        return spec, mutant


def _cut_at(spec: Mapping[str, Any], mutant: Mapping[str, Any]) -> int | None:
    """How many events to keep: through the first event either table refuses (None: neither refuses one)."""
    refused = [r["event"] for r in (spec, mutant) if r.get("verdict") == "illegal" and "event" in r]
    return min(refused) + 1 if refused else None


def _outcome(table: Table, suffix: Sequence[Mapping[str, Any]]) -> Any:
    """What the events of `suffix` come to on a copy of `table`: the first refused (its index and rule), or the
    ended hand's result, or an open hand."""
    t = table.copy()
    try:
        for k, e in enumerate(suffix):
            problem = t.apply(parse_event(e))
            if problem is not None:
                return ("illegal", k, problem.rule)
        if not t.ended:
            return ("open",)
        result = hand_result(t)
    except PLAY_FAILURES as exc:
        return ("error", type(exc).__name__)
    return ("ended", {k: result.get(k) for k in ("winners", "payments", "next", "forfeits")})
