"""Experiments on the live engine: a cause is confirmed only by the engine's answers to cases built to test it.

A departure that reproduces a class's cases is a hypothesis. Before it is named, the tool builds *probes*: score
cases on which the hypothesis predicts something other than the rules (the class's own hands with their
context read otherwise, then seeded candidate hands of the ruleset, `checker.mutate.candidates`), and, for each
rival that explains the class alike, a case on which the two predict differently. The engine under test answers
them (`Prober`: at most `limit` probes a run, each answer recorded so `mjcheck report` reads it again rather
than asking). A hypothesis is

- *confirmed* when every probe asked of it was answered as it predicts, at least one of them a case on which it
  departs from the rules (a rival's probe where it answers as the rules do tells it from that rival only);
- *contradicted* when the engine answered a probe otherwise (it is then not named; a rival the same probe
  confirms may be);
- *untested* when no probe could be built or asked (no engine, the budget spent, or no case tells it from
  the rules beyond the class's own): it is named only with what it was checked against, and said to be so.

A rival no probe separates from the hypothesis is named beside it, never left out.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, replace
from itertools import zip_longest
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

from checker import tiles as T
from checker.case import CaseRunner, readings_of, winner_fan_lists
from checker.diagnose.answers import MESSAGES, agreement, fans_apart, outside_only, same_fans
from checker.mutate.candidates import random_candidates, search_candidates, targeted_candidates
from checker.mutate import edits
from checker.mutate.context import context_readings
from checker.mutate.mutation import Mutation, Rescorer, combined, together
from checker.spec import Ruleset
from checker.spec.reads import bears_on, rule_reads
from checker.table.bots import SEAT_MIXES
from checker.table.log import GAME, ILLEGAL, VERSION, LogError
from checker.table.mutate import at_once, witnesses
from checker.table.simulate import SimulationError, play_hand
from checker.table.wall import shuffled_wall

DEFAULT_PROBES = 300  # probes one run may ask the engine (`--probes`)
PROBES_PER_CAUSE = 3  # probes that test a hypothesis against the rules
TRANSPLANTED_FROM = 2  # class cases whose context is laid on the pool's hands (`transplanted`)
TRANSPLANTED_ONTO = 120  # of the pool's hands, the first so many
RIVAL_PROBES = 3  # probes built to tell a hypothesis from one rival, asked until one answer does
POOL_HANDS = 240  # seeded random hands a ruleset's probe pool holds (besides its constructions)
VARIANTS_FROM = 6  # a class's cases whose context is varied into probes
POOL_SEED = 0
PLAYED_HANDS = 24  # hands played by the bots a ruleset's pool holds, for probes of hands of play
CHANGED_FROM = 12  # hands of play changed, one event at a time, to break a rule a class shows broken
CHANGES_TRIED = 800  # changed logs replayed a hand, at most
AT_ONCE_TRIED = 4  # claims of a hand of play answered at once with another seat's, at most
BETWEEN_FANS = {"exclusion added", "implied added"}  # departures probed first on the class's hands regrouped
REGROUPED_CHANGES = 2  # sets whose concealment a regrouped hand changes, at most
REACH_PROBES = 2  # probes of a confirmed cause where a case names an option it follows at another value
SEARCH_BUDGET = 2_000  # candidates the procedure search runs for a hand of play telling a departure from the rules
SEARCHED_FROM = 3  # a class's hands of play the search starts from (itself passed over, then varied and changed)

Ask = Callable[[Sequence[Mapping[str, Any]]], list[Mapping[str, Any] | None]]

CONFIRMED, CONTRADICTED, UNTESTED = "confirmed", "contradicted", "untested"


def result_part(result: Any) -> Any:
    """A result with only the fields a case compares (a refusal's or a verdict's message left out)."""
    if not isinstance(result, Mapping):
        return result
    if "either" in result:
        return {"either": [result_part(r) for r in result["either"]]}
    return {k: v for k, v in result.items() if k not in MESSAGES}


def _text(result: Any) -> str:
    members = readings_of(result) if isinstance(result, Mapping) else []
    canon = sorted(json.dumps({**result_part(m), "fans": sorted(json.dumps(f, sort_keys=True) for f in m.get("fans") or [])},
                              sort_keys=True) for m in members)
    return json.dumps(canon)


def _wins(result: Any) -> bool:
    """Whether every reading of a result is a win."""
    members = readings_of(result) if isinstance(result, Mapping) else []
    return bool(members) and all(bool(m.get("valid", True)) for m in members)


def _money(result: Any) -> str:
    """What a result pays or decides, as text: each reading's win (or refusal), total and payments; a hand of
    play's verdict, the event and rule it refuses, how it ended, its winners' totals and what the next hand starts
    from besides (a departure that makes a hand illegal moves no payment a log that stops has)."""
    members = readings_of(result) if isinstance(result, Mapping) else []
    return json.dumps(sorted(json.dumps([bool(m.get("valid", True)), m.get("error"), m.get("total"),
                                         m.get("payments"), *_decided(m)], default=str) for m in members))


def pays_alike(a: Any, b: Any) -> bool:
    """Whether two results pay and decide alike (`_money`): they differ, if at all, in the fans they list."""
    return _money(a) == _money(b)


def _decided(reading: Mapping[str, Any]) -> list[Any]:
    if "verdict" not in reading:
        return []
    winners = reading.get("winners")
    totals = [w.get("total") for w in winners if isinstance(w, Mapping)] if isinstance(winners, list) else winners
    return [reading.get(k) for k in ("verdict", "rule", "event", "ended", "next_dealer", "next_round_wind",
                                     "next_huangfan")] + [totals]


@dataclass(frozen=True)
class Probe:
    """One case put to the engine: what the hypothesis predicts, what a rival (None: the rules) predicts, the
    engine's answer (None: it gave none, erring or not asked) and whether it bears the hypothesis out."""

    case: Mapping[str, Any]
    predicted: Mapping[str, Any]
    against: str | None
    against_predicted: Mapping[str, Any]
    answer: Mapping[str, Any] | None
    holds: bool | None  # None: no answer, or one that met another departure (`elsewhere`)
    elsewhere: str = ""  # where the answer departs from the rules and the hypothesis both, where it does not move

    @property
    def departs(self) -> bool:
        """Whether the hypothesis answers this case otherwise than the rules (the case's expectation): only such a
        probe can confirm it; a rival's probe where it answers as the rules do tells it from that rival alone."""
        expect = self.case.get("expect")
        return not isinstance(expect, Mapping) or _text(self.predicted) != _text(expect)

    def as_json(self) -> dict[str, Any]:
        return {"case": dict(self.case), "predicted": result_part(self.predicted), "against": self.against or "the rules",
                "against_predicted": result_part(self.against_predicted),
                "answer": result_part(self.answer) if self.answer is not None else None,
                "holds": self.holds, **({"elsewhere": self.elsewhere} if self.elsewhere else {})}


@dataclass(frozen=True)
class Trial:
    """What the probes said of one hypothesis: its status, the probes and the rivals none separated from it."""

    status: str
    probes: tuple[Probe, ...] = ()
    inseparable: tuple[str, ...] = ()  # ids of rivals that explain the class and no case the tool built tells apart
    why: str = ""  # why it is untested
    unasked: tuple[str, ...] = ()  # ids of rivals a probe was built for but not asked (no engine, the budget spent)
    undecided: tuple[str, ...] = ()  # ids of rivals whose probes the engine answered as neither predicts
    parts_unasked: tuple[str, ...] = ()  # of a joint departure, the parts whose probe was built but not asked


@dataclass(frozen=True)
class Reach:
    """What probes said of a confirmed cause where a case names an option the engine follows (the run showed it
    answering as a case's own value reads it) at a value none of the class's cases holds: the cause holds there
    too (CONFIRMED), the engine answered a hand otherwise there (CONTRADICTED: the cause does not hold everywhere
    there), or no probe was asked (UNTESTED, `why`)."""

    option: str
    value: Any
    held: tuple[Any, ...]  # the option's values the class's cases hold (named or by default)
    status: str
    probes: tuple[Probe, ...] = ()
    why: str = ""

    def words(self) -> str:
        held = " or ".join(json.dumps(v) for v in self.held)
        where = f"where a case names {self.option}={json.dumps(self.value)}"
        if self.status == CONFIRMED:
            asked = [str(p.case.get("id")) for p in self.probes if p.holds]
            return f"{where}, the engine answered as it predicts too (probe {', '.join(asked)})"
        if self.status == CONTRADICTED:
            wrong = next(p for p in self.probes if p.holds is False)
            return (f"not everywhere {where}: there the engine answered a hand otherwise (probe "
                    f"{wrong.case.get('id')}); it is shown where {self.option} is {held}, as its cases have it")
        return f"untried {where} ({self.why})"

    def as_json(self) -> dict[str, Any]:
        return {"option": self.option, "value": self.value, "held": list(self.held), "status": self.status,
                "words": self.words(), "probes": [p.as_json() for p in self.probes],
                **({"why": self.why} if self.why else {})}


class Prober:
    """The engine under test, asked probe cases: every answer kept by the probe's canonical text (`recorded`
    holds answers from an earlier run, asked again never), at most `limit` cases asked of `ask`."""

    def __init__(self, ask: Ask | None, limit: int = DEFAULT_PROBES,
                 recorded: Mapping[str, Mapping[str, Any] | None] | None = None,
                 judged_on: Callable[[Any, str], Any] | None = None):
        """`judged_on(expect, kind)`: a probe's expectation as the engine is judged on it (the fields it says it
        answers, checker.conform.compared); None: whole."""
        self.ask, self.limit = ask, limit
        self.judged_on = judged_on or (lambda expect, kind: expect)
        self.answers: dict[str, Mapping[str, Any] | None] = dict(recorded or {})
        self.asked = 0

    @staticmethod
    def key(case: Mapping[str, Any]) -> str:
        return json.dumps({k: case.get(k) for k in ("ruleset", "options", "kind", "input")}, sort_keys=True,
                          ensure_ascii=False)

    def answer(self, case: Mapping[str, Any]) -> tuple[bool, Mapping[str, Any] | None]:
        """(asked, the engine's answer): not asked when there is no engine or the budget is spent."""
        key = self.key(case)
        if key in self.answers:
            return True, self.answers[key]
        if self.ask is None or self.asked >= self.limit:
            return False, None
        self.asked += 1
        (found,) = self.ask([case])
        self.answers[key] = found
        return True, found

    def why_not(self) -> str:
        if self.ask is None:
            return "no engine to ask (the run's probes were not recorded)"
        return f"the run's {self.limit} probes were spent on larger classes (--probes raises it)"

    def record(self) -> list[dict[str, Any]]:
        """Every probe asked or read, as lines of probes.jsonl: the case and the engine's answer."""
        return [{"case": json.loads(k), "answer": a} for k, a in sorted(self.answers.items())]


class Pool:
    """Probe candidates of one ruleset, made once each and then the same objects each time under the options of
    the class probed: its constructions and seeded random hands as score cases; hands played by the bots on
    seeded walls (`PLAYED_HANDS`, the log as the table kept it) as hands of play, played under the class's
    options (a class of quarter-wall hands without flowers is probed with such hands, which its engine can deal)."""

    def __init__(self, ruleset: Ruleset):
        self.ruleset = ruleset
        self._inputs: dict[str, list[dict[str, Any]]] = {}
        self._cases: dict[str, list[dict[str, Any]]] = {}

    def inputs(self, kind: str, options: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
        key = kind + (json.dumps(sorted((options or {}).items()), default=str) if kind == "procedure" else "")
        if key not in self._inputs:
            if kind == "procedure":
                self._inputs[key] = list(played_hands(self.ruleset, PLAYED_HANDS, options))
            else:
                found = [data for _, data in targeted_candidates(self.ruleset)]
                found += [data for _, data in search_candidates(self.ruleset)]
                found += [data for _, data in random_candidates(self.ruleset, POOL_SEED, POOL_HANDS)]
                self._inputs[key] = found
        return self._inputs[key]

    def cases(self, options: Mapping[str, Any], kind: str = "score") -> list[dict[str, Any]]:
        key = kind + json.dumps(sorted(options.items()), default=str)
        if key not in self._cases:
            self._cases[key] = [{"ruleset": self.ruleset.id, "options": dict(options), "kind": kind, "input": data}
                                for data in self.inputs(kind, options)]
        return self._cases[key]


def changed_hands(ruleset: Ruleset, hands: Sequence[Mapping[str, Any]], rules: set[str],
                  effort: int = 1, options: Mapping[str, Any] | None = None) -> Iterator[dict[str, Any]]:
    """Single changes of legal hands of play that the rules refuse by one of `rules` (checker.table.mutate): the
    cases that tell a table which does not enforce such a rule from the rules, at most one a hand and rule; from
    CHANGED_FROM hands, CHANGES_TRIED changed logs each, both so many times over at a greater `effort`; the hands
    replayed under `options` (those they were played under)."""
    for data in hands[:CHANGED_FROM * effort]:
        header = {"game": GAME, "version": VERSION, "ruleset": ruleset.id, "wall": data["wall"],
                  "dealer": data["dealer"], **({"options": dict(options)} if options else {})}
        try:
            found = witnesses(header, list(data["events"]), set(rules), CHANGES_TRIED * effort)
        except (ValueError, KeyError, TypeError):
            continue
        for rule in sorted(found):
            yield {"wall": data["wall"], "dealer": data["dealer"], "events": found[rule]["events"]}


def claimed_at_once(ruleset: Ruleset, hands: Sequence[Mapping[str, Any]], effort: int = 1,
                    options: Mapping[str, Any] | None = None) -> Iterator[dict[str, Any]]:
    """Legal hands of play with one claim of a discard answered at once with another seat's claim of the tile
    (checker.table.mutate.claims_at_once): the cases that tell a claim priority read otherwise from the rules',
    which hands written claim by claim seldom do; from CHANGED_FROM hands, AT_ONCE_TRIED logs each, so many times
    over at a greater `effort`."""
    for data in hands[:CHANGED_FROM * effort]:
        header = {"game": GAME, "version": VERSION, "ruleset": ruleset.id, "wall": data["wall"],
                  "dealer": data["dealer"], **({"options": dict(options)} if options else {})}
        try:
            for events in at_once(header, list(data["events"]), AT_ONCE_TRIED * effort):
                yield {"wall": data["wall"], "dealer": data["dealer"], "events": events}
        except (ValueError, KeyError, TypeError):
            continue


def played_hands(ruleset: Ruleset, hands: int, options: Mapping[str, Any] | None = None) -> Iterator[dict[str, Any]]:
    """Hands played by the bots under the rules (read with `options`) on seeded walls, as procedure case inputs
    (the wall written out, the dealer, the events); a hand the bots cannot finish is left out."""
    for i in range(hands):
        seed = POOL_SEED * 1_000 + i
        try:
            hand = play_hand(ruleset.id, seed, SEAT_MIXES[i % len(SEAT_MIXES)], options or None)
        except (SimulationError, ValueError, KeyError, LogError):
            continue
        wall = shuffled_wall(seed, hand.table.rules.flowers_in_wall)
        yield {"wall": T.format_tiles(wall), "dealer": hand.header.get("dealer", 0), "events": hand.events}


def variants(ruleset: Ruleset, cases: Sequence[Mapping[str, Any]]) -> Iterator[dict[str, Any]]:
    """The cases with their context read otherwise, one context reading at a time (a flag dropped, a way of
    winning read as another, the flowers left out, …): hands that differ from the class's in one respect."""
    if not cases:
        return
    readings = context_readings(ruleset)
    for case in cases:
        data = case.get("input")
        if not isinstance(data, Mapping):
            continue
        for m in readings:
            if not m.touches_input:
                continue
            try:
                other = m.read(data)
            except (KeyError, TypeError, ValueError, AttributeError):
                continue
            if other != data:
                yield {"ruleset": case.get("ruleset"), "options": dict(case.get("options") or {}), "kind": "score",
                       "input": dict(other)}


def regrouped(cases: Sequence[Mapping[str, Any]], changes: int = REGROUPED_CHANGES) -> Iterator[dict[str, Any]]:
    """The cases with one set's concealment changed (`regrouped_once`), then two sets' and so on up to `changes`,
    each hand once: the same tiles held another way (a hand of two concealed kongs, a claimed kong and a claimed
    pung becomes one of a concealed kong and a concealed pung)."""
    seen = {json.dumps(c.get("input"), sort_keys=True, default=str) for c in cases}
    frontier: Sequence[Mapping[str, Any]] = cases
    for _ in range(changes):
        found = []
        for case in regrouped_once(frontier):
            key = json.dumps(case["input"], sort_keys=True, default=str)
            if key not in seen:
                seen.add(key)
                found.append(case)
                yield case
        frontier = found


def regrouped_once(cases: Sequence[Mapping[str, Any]]) -> Iterator[dict[str, Any]]:
    """The cases with one set's concealment changed, one at a time: a claimed kong made concealed and a concealed
    one claimed (from the previous player, seat 3), a claimed pung taken into the concealed tiles, a concealed
    pung (three copies of a tile other than the winning one) laid down as claimed. The same tiles held another
    way: where fans that count on sets' concealment (concealed pungs and kongs, a concealed hand) meet otherwise
    than on the class's hands, as "A excludes B" must be tested on hands holding both another way. A hand the rules
    do not take so is left for the rules to refuse (it then tells nothing)."""
    for case in cases:
        data = case.get("input")
        if not isinstance(data, Mapping) or not isinstance(data.get("melds"), list):
            continue
        melds = [dict(x) for x in data["melds"] if isinstance(x, Mapping)]
        if len(melds) != len(data["melds"]) or not isinstance(data.get("concealed"), str):
            continue
        try:
            concealed = T.parse_tiles(data["concealed"])
            win = T.parse_tile(data.get("win_tile"))
        except (T.TileError, ValueError, TypeError):
            continue
        for i, meld in enumerate(melds):
            rest = melds[:i] + melds[i + 1:]
            moved: dict[str, Any]
            claimed = "from" in meld and not meld.get("concealed")
            if meld.get("type") == "kong" and claimed:
                moved = {"melds": [*rest[:i], {"type": "kong", "tiles": meld.get("tiles"), "concealed": True}, *rest[i:]]}
            elif meld.get("type") == "kong" and meld.get("concealed"):
                moved = {"melds": [*rest[:i], {"type": "kong", "tiles": meld.get("tiles"), "from": 3}, *rest[i:]]}
            elif meld.get("type") == "pung" and claimed:
                try:
                    taken = T.parse_tiles(meld.get("tiles"))
                except (T.TileError, ValueError, TypeError):
                    continue
                moved = {"melds": rest, "concealed": T.format_tiles(T.sort_tiles([*concealed, *taken]))}
            else:
                continue
            yield {**case, "input": {**data, **moved}}
        counts = T.tile_counts(concealed)
        for tile, n in enumerate(counts):
            if n >= 3 and tile != win:
                left = list(concealed)
                for _ in range(3):
                    left.remove(tile)
                pung = {"type": "pung", "tiles": T.format_tiles([tile] * 3), "from": 3}
                yield {**case, "input": {**data, "concealed": T.format_tiles(left), "melds": [*melds, pung]}}


def options_named(ruleset: Ruleset, cases: Sequence[Mapping[str, Any]], options: Iterable[str]
                  ) -> Iterator[dict[str, Any]]:
    """The cases with each of `options` they leave out named at its default: hands where an engine that reads an
    option one way whatever a case says parts from one that reads it so only where a case is silent."""
    for case in cases:
        given = dict(case.get("options") or {})
        for oid in sorted(options):
            option = ruleset.options.get(oid)
            if option is not None and oid not in given:
                yield {**case, "options": {**given, oid: option.default}}


def values_held(ruleset: Ruleset, cases: Sequence[Mapping[str, Any]], option_id: str) -> tuple[Any, ...]:
    """The values of an option the cases hold, named or by default, in the option's order."""
    option = ruleset.options[option_id]
    held = []
    for case in cases:
        given = case.get("options") or {}
        try:
            value = option.coerce(given[option_id]) if option_id in given else option.default
        except ValueError:
            continue
        if value not in held:
            held.append(value)
    return tuple(v for v in option.values if v in held)


def with_option(cases: Sequence[Mapping[str, Any]], option_id: str, value: Any) -> list[dict[str, Any]]:
    """The cases with one option named at `value`."""
    return [{**case, "options": {**(case.get("options") or {}), option_id: value}} for case in cases]


def sourced(cases: Sequence[Mapping[str, Any]]) -> Iterator[dict[str, Any]]:
    """The cases with every claimed pung and kong taken from one seat, each seat in turn (chows stay where they
    were: only one seat may feed them): hands whose sources alone differ, where a rule that reads who fed the
    melds (a contract made by so many claims from one seat) shows; a case with fewer than two such melds is left
    out."""
    for case in cases:
        data = case.get("input")
        if not isinstance(data, Mapping):
            continue
        melds = data.get("melds")
        if not isinstance(melds, list) or not all(isinstance(x, Mapping) for x in melds):
            continue
        fed = [i for i, x in enumerate(melds) if x.get("type") in ("pung", "kong") and not x.get("concealed")]
        if len(fed) < 2:
            continue
        for seat in (1, 2, 3):
            moved = [{**x, "from": seat} if i in fed else dict(x) for i, x in enumerate(melds)]
            if moved != melds:
                yield {**case, "input": {**data, "melds": moved}}


def transplanted(members: Sequence[Mapping[str, Any]], pool: Sequence[Mapping[str, Any]]) -> Iterator[dict[str, Any]]:
    """The pool's hands with a class case's context (its flags set and its counters) laid on them, one class case
    at a time: other hands in the class's situation, where a departure of its context shows on a hand that
    lets it count (a flag that fits there, a counter that moves money)."""
    for case in members:
        data = case.get("input")
        if not isinstance(data, Mapping):
            continue
        flags = {k: v for k, v in (data.get("flags") or {}).items() if v} if isinstance(data.get("flags"), Mapping) else {}
        counters = dict(data["counters"]) if isinstance(data.get("counters"), Mapping) else {}
        if not flags and not counters:
            continue
        for other in pool[:TRANSPLANTED_ONTO]:
            given = other.get("input")
            if not isinstance(given, Mapping):
                continue
            moved = {**given, "flags": {**(given.get("flags") or {}), **flags},
                     "counters": {**(given.get("counters") or {}), **counters}}
            if moved != given:
                yield {**other, "input": moved}


def settles_alike(rescorer: Rescorer, case: Mapping[str, Any], m: Mutation) -> bool:
    """Whether the departure `m` leaves the rules' settlement as it is for the case (the same terms and the same
    limit on a payer's loss, the input read as it is): it changes at most what the hand is worth, and the rules
    pay that worth."""
    if m.touches_input or not isinstance(case.get("ruleset"), str):
        return False
    try:
        mine = rescorer.scorer(case["ruleset"], case.get("options"), m)
        rules = rescorer.scorer(case["ruleset"], case.get("options"), None)
    except (KeyError, TypeError, ValueError):
        return False
    return mine is not None and rules is not None and \
        (mine.settlement.settlement, mine.settlement.loss_limit, mine.settlement.payment_limit) == \
        (rules.settlement.settlement, rules.settlement.loss_limit, rules.settlement.payment_limit)


def met_elsewhere(answer: Any, mine: Mapping[str, Any], rules: Mapping[str, Any], ruleset_id: str,
                  settled_alike: bool = False) -> str:
    """Where an engine's answer to a probe departs from a hypothesis only in parts the hypothesis answers as the
    rules do (the win, the total, a payer's payment, the fans), agreeing wherever it moves them: in words (those
    parts), the engine departing there in another way; "" where the answer bears the hypothesis out, or departs
    from it in a part it moves (the probe then contradicts it). The winner's payment, the others' sum, is read
    through theirs. Where the hypothesis leaves the rules' settlement as it is (`settled_alike`: it changes only
    what the hand is worth), an answer that agrees with it on the win, the total and the fans and pays otherwise
    pays that total its own way: the payments met another departure."""
    if isinstance(answer, Mapping) and "verdict" in answer:
        return _met_in_play(answer, mine, rules, ruleset_id)
    if not isinstance(answer, Mapping) or any(len(readings_of(x)) != 1 for x in (answer, mine)) or \
            not readings_of(rules):
        return ""
    got, want = readings_of(answer)[0], readings_of(mine)[0]
    wins = [bool(got.get("valid", True)), bool(want.get("valid", True)),
            all(bool(r.get("valid", True)) for r in readings_of(rules))]
    if wins == [False, True, True]:
        return f"the engine refuses it ({got.get('error')}) where the rules and the departure let it win"
    if len(readings_of(rules)) != 1:  # (the rules read the hand several ways: its parts are compared on one)
        return ""
    base = readings_of(rules)[0]
    if wins != [True, True, True] and wins != [True, True, False]:
        return ""

    def parts(result: Mapping[str, Any]) -> dict[str, Any]:
        given = result.get("payments")
        paid: list[Any] = given if isinstance(given, list) else []
        return {"total": result.get("total"), **{f"the payment of seat {i}": x for i, x in enumerate(paid) if i}}
    a, w, b = parts(got), parts(want), parts(base)
    if wins == [True, True, False]:  # the departure lets the hand win, as the engine does: the engine's own payments
        # of that worth, where the departure leaves the settlement alone, met another departure (else: contradicted)
        return ("the engine pays the hand's worth otherwise, where the departure lets it win and leaves the "
                "settlement as the rules have it") if settled_alike and a.get("total") == w.get("total") and \
            same_fans(want.get("fans"), got.get("fans"), ruleset_id, got.get("total")) and a != w else ""
    if settled_alike and a.get("total") == w.get("total") and same_fans(want.get("fans"), got.get("fans"), ruleset_id, got.get("total")):
        paid = sorted(k for k in set(a) | set(w) if k != "total" and a.get(k) != w.get(k))
        return ("the engine pays the hand's worth otherwise (" + ", ".join(paid) + "), where the departure changes "
                "only what the hand is worth") if paid else ""
    moved = {k for k in w if w.get(k) != b.get(k)}
    differ = {k for k in set(a) | set(w) if a.get(k) != w.get(k)}
    fans_moved = not same_fans(want.get("fans"), base.get("fans"), ruleset_id)
    if not same_fans(want.get("fans"), got.get("fans"), ruleset_id, got.get("total")):
        if fans_moved:
            return ""
        differ.add("the fans")
    if not differ or differ & moved:
        return ""
    return "the engine departs from the rules in " + ", ".join(sorted(differ)) + ", which the departure leaves as the rules have them"


def _met_in_play(answer: Mapping[str, Any], mine: Any, rules: Any, ruleset_id: str) -> str:
    """Where an engine's answer to a hand of play is a hypothesis's but for some winners' fans, and each winner's
    fans differ only in patterns the hypothesis lists as the rules do at that seat (it moves none of them): in
    words, the engine listing those fans otherwise, a departure (or a way of writing) the hypothesis says nothing
    of; "" where the answer departs from it anywhere else, or in fans it moves."""
    if not isinstance(mine, Mapping) or not isinstance(rules, Mapping) or "verdict" not in mine:
        return ""
    fields = (set(answer) | set(mine)) - set(MESSAGES) - {"winners"}
    if any(answer.get(k) != mine.get(k) for k in fields):
        return ""
    got, want, base = (x.get("winners") for x in (answer, mine, rules))
    if not isinstance(got, list) or not isinstance(want, list) or len(got) != len(want):
        return ""
    by_seat = {w.get("seat"): w for w in base if isinstance(w, Mapping)} if isinstance(base, list) else {}
    said = []
    for g, w in zip(got, want):
        if not isinstance(g, Mapping) or not isinstance(w, Mapping):
            return ""
        plain = ("fans", "or_fans")
        if {k: v for k, v in g.items() if k not in plain} != {k: v for k, v in w.items() if k not in plain}:
            return ""
        if any(same_fans(fans, g.get("fans"), ruleset_id, g.get("total")) for fans in winner_fan_lists(w)):
            continue
        theirs = by_seat.get(w.get("seat"))
        apart = next((ids for fans in winner_fan_lists(w)
                      if (ids := fans_apart(fans, g.get("fans"), ruleset_id, g.get("total"))) is not None
                      and isinstance(theirs, Mapping) and all(
                          any(_entries(fans, k) == _entries(other, k) for other in winner_fan_lists(theirs))
                          for k in ids)), None)
        if apart is None:
            return ""
        said.append(f"seat {w.get('seat')}'s {', '.join(sorted(apart))}")
    return ("the engine lists " + "; ".join(said) + " otherwise, fans the departure gives as the rules do") \
        if said else ""


def _entries(fans: Any, pattern: str) -> list[tuple[Any, Any]]:
    return sorted((repr(f.get("points")), repr(f.get("count"))) for f in fans or []
                  if isinstance(f, Mapping) and f.get("id") == pattern)


class Experiments:
    """Builds and asks the probes of the hypotheses of a run (see the module)."""

    def __init__(self, rescorer: Rescorer, prober: Prober, own_rules: Callable[[str], Any],
                 read: Callable[[Ruleset, Any], Any] = lambda ruleset, answer: answer, effort: int = 1):
        """`own_rules`: the refusal ids of a ruleset the engine shares with the reference; `read`: an answer as
        diagnosis compares it (its fans named in the documents' words read as the spec's ids); `effort`: the
        diagnosis's effort, which bounds the hands of play changed into probes (`changed_hands`)."""
        self.rescorer, self.prober, self.own_rules, self.read = rescorer, prober, own_rules, read
        self.effort = max(1, effort)
        self._pools: dict[str, Pool] = {}
        self._reads: dict[str, Mapping[str, frozenset[str]]] = {}
        self._reached: dict[tuple[str, str, str, str], Reach] = {}  # a departure's reach at an option value, once
        self.made = 0  # probe cases made (asked or not): their ids, the same when the reports are rebuilt

    def reads(self, ruleset: Ruleset) -> Mapping[str, frozenset[str]]:
        """What each rule of the ruleset reads (checker.spec.reads), worked out once."""
        if ruleset.id not in self._reads:
            self._reads[ruleset.id] = rule_reads(ruleset)
        return self._reads[ruleset.id]

    def pool(self, ruleset: Ruleset) -> Pool:
        if ruleset.id not in self._pools:
            self._pools[ruleset.id] = Pool(ruleset)
        return self._pools[ruleset.id]

    def _candidates(self, ruleset: Ruleset, members: Sequence[Mapping[str, Any]],
                    naming: frozenset[str] = frozenset()) -> Iterator[Mapping[str, Any]]:
        """The cases a probe is chosen from: the class's hands read otherwise, the pool's, the class's context laid on
        the pool's, claims moved; last, the class's hands with an option of `naming` named (`options_named`)."""
        seen = {Prober.key(c) for c in members}
        options = dict(members[0].get("options") or {}) if members else {}
        kind = str(members[0].get("kind", "score")) if members else "score"
        varied = list(variants(ruleset, members[:VARIANTS_FROM])) if kind == "score" else []
        pool = self.pool(ruleset).cases(options, kind)
        moved = list(transplanted(members[:TRANSPLANTED_FROM], pool)) if kind == "score" else []
        fed = list(sourced([*members[:VARIANTS_FROM], *pool[:TRANSPLANTED_ONTO]])) if kind == "score" else []
        named = list(options_named(ruleset, members[:VARIANTS_FROM], naming)) if kind == "score" else []
        for case in [*varied, *pool, *moved, *fed, *named]:
            key = Prober.key(case)
            if key not in seen:
                seen.add(key)
                yield case
        refused = {str(c["expect"]["rule"]) for c in members
                   if isinstance(c.get("expect"), Mapping) and c["expect"].get("verdict") == ILLEGAL
                   and c["expect"].get("rule")}
        if kind == "procedure":  # claims answered at once: a claim priority read otherwise shows there
            for data in claimed_at_once(ruleset, self.pool(ruleset).inputs(kind, options), self.effort, options):
                case = {"ruleset": ruleset.id, "options": options, "kind": kind, "input": data}
                if Prober.key(case) not in seen:
                    seen.add(Prober.key(case))
                    yield case
        if kind == "procedure" and refused:  # a rule the class shows broken: legal hands changed to break it
            for data in changed_hands(ruleset, self.pool(ruleset).inputs(kind, options), refused, self.effort,
                                      options):
                case = {"ruleset": ruleset.id, "options": options, "kind": kind, "input": data}
                if Prober.key(case) not in seen:
                    seen.add(Prober.key(case))
                    yield case

    def _result(self, case: Mapping[str, Any], m: Mutation | None) -> Mapping[str, Any] | None:
        return self.rescorer.result(case, m)

    def separating(self, ruleset: Ruleset, members: Sequence[Mapping[str, Any]], m: Mutation,
                   rival: Mutation | None, at_most: int) -> list[tuple[Mapping[str, Any], Mapping[str, Any], Mapping[str, Any]]]:
        """Up to `at_most` cases on which `m` and `rival` (None: the rules) predict different answers, with both
        predictions. Cases where they differ in money (the win, the total, the payments) come first and alone
        where there are any: a case where `m` only lists a fan otherwise, the money the same, does not test what
        `m` pays (an engine that writes a double as its factor 2 would bear out "门清 is 2 番" on a capped hand),
        and against a rival it may tell nothing (a fan at 0 points listed by one, which the engine lists by
        neither); fans-only cases are used where the two move no money apart on any case built."""
        Found = list[tuple[Mapping[str, Any], Mapping[str, Any], Mapping[str, Any]]]
        varied = {Prober.key(c) for c in variants(ruleset, members[:VARIANTS_FROM])} if rival is None else set()
        near: Found = []  # the class's own hands with their context read otherwise
        far: Found = []  # other hands: a probe on the class's hands alone may meet the same coincidence each time
        wins: Found = []  # of those, the ones both sides let win
        fans_only: Found = []
        naming = m.option_ids | rival.option_ids if rival is not None else frozenset()
        # a departure between two fans (one excludes or implies the other): first the class's hands with a set's
        # concealment changed, hands holding both fans another way (the pool's seldom hold both)
        between: list[dict[str, Any]] = []
        if rival is None and getattr(m, "family", "") in BETWEEN_FANS and members[0].get("kind", "score") == "score":
            between = list(regrouped(members[:VARIANTS_FROM]))
        seen: set[str] = set()
        for case in [*between, *self._candidates(ruleset, members, naming)]:
            if between:
                key = Prober.key(case)
                if key in seen:
                    continue
                seen.add(key)
            mine = self._result(case, m)
            if mine is None:
                continue
            theirs = self._result(case, rival)
            if theirs is None or _text(mine) == _text(theirs):
                continue
            if _money(mine) == _money(theirs):
                if len(fans_only) < at_most:
                    fans_only.append((case, mine, theirs))
                continue
            if Prober.key(case) in varied:
                near.append((case, mine, theirs))
            elif rival is None and _wins(mine) and _wins(theirs):
                wins.append((case, mine, theirs))
            else:
                far.append((case, mine, theirs))
            if len(wins) >= at_most or (rival is not None and len(far) >= at_most):
                break
        # other hands where both win first: where the departure moves what a winning hand pays, not only whether a
        # hand like the class's wins (a flag ignored where it does not fit, read where it does)
        far = (wins + far)[:at_most]
        # against the rules, the class's hands and other hands taken in turn
        out = [x for pair in zip_longest(near[:at_most], far) for x in pair if x is not None][:at_most] \
            if varied else far
        out = out or fans_only
        if len(out) < at_most and members and members[0].get("kind") == "procedure":
            out += self._searched(ruleset, members, m, rival)[:at_most - len(out)]
        return out

    def _searched(self, ruleset: Ruleset, members: Sequence[Mapping[str, Any]], m: Mutation,
                  rival: Mutation | None = None
                  ) -> list[tuple[Mapping[str, Any], Mapping[str, Any], Mapping[str, Any]]]:
        """A hand of play the procedure search of `corpus strength` finds to tell the departure `m` from the rules
        (or from `rival`, each a spec edit or an option's reading), under the class's options (the class's first
        hands varied, its bots' hands at both tables, then single changes of them all), when the pool held none: a
        hand the class's engine can deal that the class does not hold (the search passes over the class's own
        hands and goes on)."""
        from checker.separating.search import PLAY_FAILURES, Separation, separate

        options = dict(members[0].get("options") or {})
        searched, left_out = _as_edit(ruleset, m)
        against, also_out = _as_edit(ruleset, rival) if rival is not None else (None, set())
        if searched is None or (rival is not None and against is None):
            return []
        # an option the class's cases name at another value than the reading's (an engine that reads it its own
        # way whatever a case says): the rules read it as named, so the rules' table reads it so as its default
        named = {k: options[k] for k in sorted(left_out) if k in options} if rival is None else {}
        if named:
            (option, value), = named.items()
            against = edits.option_default(ruleset.id, ruleset.options[option], value)
        for option in left_out | also_out:  # a reading searched as its option's default: hands that leave it out
            options.pop(option, None)

        def as_asked(c: Mapping[str, Any]) -> dict[str, Any]:  # the hand with the class's named options again
            return {**{k: v for k, v in c.items() if k != "expect"}, "options": {**(c.get("options") or {}), **named}}
        try:
            base, runner = ruleset, None
            if against is not None:  # the rival's table stands for the rules, the departure's is searched against it
                base, mutant = against.edit(ruleset), searched.edit(ruleset)
                runner = CaseRunner({ruleset.id: base})  # (the search's own runner plays the shipped spec)
                searched = Mutation(f"{m.id} against {against.id}", m.family, ruleset.id, m.words, m.rules,
                                    lambda _: mutant)
            own = {Prober.key(c) for c in members}
            given = [{**c, "options": options} for c in members[:SEARCHED_FROM]]  # (varied and changed first)
            found = separate(base, searched, [options], given, budget=SEARCH_BUDGET * self.effort, runner=runner,
                             avoid=lambda c: Prober.key(as_asked(c)) in own)
        except PLAY_FAILURES:
            return []
        if not isinstance(found, Separation):
            return []
        case = as_asked(found.case)
        mine, theirs = self._result(case, m), self._result(case, rival)
        if mine is None or theirs is None or _text(mine) == _text(theirs):
            return []
        return [(case, mine, theirs)]

    def bears_out(self, ruleset: Ruleset, probe: Probe, predicted: Any) -> bool:
        """Whether a probe's recorded answer bears out a result predicted for it (its fans read from the documents'
        names, judged on what the engine answers)."""
        kind = str(probe.case.get("kind", "score"))
        return isinstance(predicted, Mapping) and self._holds(
            ruleset, self.read(ruleset, probe.answer), predicted,
            self.prober.judged_on(probe.case.get("expect") or {}, kind), kind)

    def predicts(self, ruleset: Ruleset, probe: Probe, m: Mutation | None) -> bool:
        """Whether the reference under `m` (None: the rules) gives the engine's recorded answer to a probe already
        asked (no new question: a probe without an answer is predicted by anything)."""
        return probe.answer is None or self.bears_out(ruleset, probe, self.rescorer.result(probe.case, m))

    def _holds(self, ruleset: Ruleset, answer: Any, predicted: Mapping[str, Any], judged_on: Any, kind: str) -> bool:
        """Whether a probe's answer (its fans read from the documents' names) bears out a prediction: the whole
        answer agrees, or it differs only by fans the spec does not have in place of spec fans, everything that
        moves money the same (those fans are the engine's own, named from the answers, and no departure of the
        rules predicts them)."""
        return agreement(answer, predicted, judged_on, self.own_rules(ruleset.id), kind).same or \
            outside_only(answer, predicted, {p.id for p in ruleset.patterns}, ruleset.id)

    def asked(self, ruleset: Ruleset, ids: Mapping[str, str]) -> list[Probe]:
        """Every probe of the ruleset the run has an answer to (asked for any class, or read from the record), in
        the order of their cases' text: each with the rules' answer as its expectation, no hypothesis yet, and its
        id where `ids` (by `Prober.key`) has it."""
        out = []
        for key, answer in sorted(self.prober.answers.items()):
            case = json.loads(key)
            if answer is None or case.get("ruleset") != ruleset.id:
                continue
            expect = self._result(case, None)
            if expect is not None:
                named = {"id": ids[key]} if key in ids else {}
                out.append(Probe({**case, **named, "expect": result_part(expect)}, {}, None, expect, answer, None))
        return out

    def contradicts(self, ruleset: Ruleset, probe: Probe, m: Mutation) -> Probe | None:
        """The probe as one against `m` where the engine's answer to it contradicts `m`: `m` answers otherwise than
        the rules there, the engine answers otherwise than `m` predicts, and not only where `m` answers as the
        rules do (another departure met there, `met_elsewhere`); None where it says nothing against `m`."""
        kind = str(probe.case.get("kind", "score"))
        mine = self._result(probe.case, m)
        if mine is None or probe.answer is None or _text(mine) == _text(probe.against_predicted):
            return None
        answer = self.read(ruleset, probe.answer)
        if self._holds(ruleset, answer, mine, self.prober.judged_on(probe.case["expect"], kind), kind):
            return None
        if met_elsewhere(answer, mine, probe.against_predicted, ruleset.id,
                         kind == "score" and settles_alike(self.rescorer, probe.case, m)):
            return None
        return replace(probe, predicted=mine, holds=False)

    def accounting_for(self, ruleset: Ruleset, probe: Probe, m: Mutation,
                       candidates: Sequence[Mutation]) -> Iterator[Mutation]:
        """The candidates `d` with which `m` predicts a probe's answer that `m` alone does not (`m` and `d`
        together reproduce it: the engine departs there in a second way), in their order."""
        if probe.answer is None:
            return
        kind = str(probe.case.get("kind", "score"))
        judged_on = self.prober.judged_on(probe.case.get("expect") or {}, kind)
        answer = self.read(ruleset, probe.answer)
        for d in candidates:
            if d.id in m.id.split(" + ") or not d.option_ids.isdisjoint(m.option_ids):
                continue
            joint = combined(m, d)
            predicted = self.rescorer.result(probe.case, joint)
            if predicted is not None and self._holds(ruleset, answer, predicted, judged_on, kind):
                yield d

    def put(self, ruleset: Ruleset, case: Mapping[str, Any], predicted: Mapping[str, Any], m: Mutation
            ) -> Probe | None:
        """A case built elsewhere (checker.diagnose.own_event) asked of the engine as a probe of `m` against the
        rules, where the two predict the same answer (`predicted`); None where it was not asked (no engine, or the
        --probes budget spent)."""
        self.made += 1
        probe_case = {**case, "id": f"probe-{self.made}", "expect": result_part(predicted)}
        asked, answer = self.prober.answer(probe_case)
        if not asked:
            return None
        kind = str(case.get("kind", "score"))
        holds = None if answer is None else self._holds(ruleset, self.read(ruleset, answer), predicted,
                                                        self.prober.judged_on(probe_case["expect"], kind), kind)
        return Probe(probe_case, predicted, None, predicted, answer, holds)

    def _ask(self, ruleset: Ruleset, case: Mapping[str, Any], mine: Mapping[str, Any], against: str | None,
             theirs: Mapping[str, Any], m: Mutation | None = None) -> Probe | None:
        expect = self.rescorer.result(case, None) or mine
        self.made += 1  # (numbered in the order made: the same when the reports are rebuilt from the record)
        probe_case = {**case, "id": f"probe-{self.made}", "expect": result_part(expect)}
        asked, answer = self.prober.answer(probe_case)
        if not asked:
            return None
        own, kind = self.own_rules(ruleset.id), str(case.get("kind", "score"))
        holds = None if answer is None else self._holds(ruleset, self.read(ruleset, answer), mine,
                                                        self.prober.judged_on(probe_case["expect"], kind), kind)
        elsewhere = ""
        if holds and self._holds(ruleset, self.read(ruleset, answer), theirs,
                                 self.prober.judged_on(probe_case["expect"], kind), kind):
            # the answer, as the engine writes it, fits the other hypothesis as well (the fans the two list
            # otherwise are ones the engine does not list): the probe tells them apart no more than the class did
            holds, elsewhere = None, "the engine's answer, as it writes it, fits both"
        if holds is False and against is None:
            elsewhere = met_elsewhere(self.read(ruleset, answer), mine, theirs, ruleset.id,
                                      kind == "score" and m is not None and settles_alike(self.rescorer, case, m))
        if elsewhere:  # the engine departs there in another way too: the probe tells nothing of this hypothesis
            holds = None
        return Probe(probe_case, mine, against, theirs, answer, holds, elsewhere)

    def trial_feature(self, ruleset: Ruleset, has: Callable[[Mapping[str, Any]], bool]) -> Trial:
        """That the engine takes no case with some feature of its input, put to it: candidate hands that have it
        (under the default options), each of which it must refuse or err on."""
        probes: list[Probe] = []
        refused = {"valid": False}
        for case in self.pool(ruleset).cases({}):
            if len(probes) >= PROBES_PER_CAUSE:
                break
            if not has(case):
                continue
            expect = self._result(case, None)
            if expect is None:
                continue
            self.made += 1
            probe_case = {**case, "id": f"probe-{self.made}", "expect": result_part(expect)}
            asked, answer = self.prober.answer(probe_case)
            if not asked:
                return Trial(UNTESTED, tuple(probes), (), self.prober.why_not())
            holds = answer is None or not bool(answer.get("valid", True))
            probes.append(Probe(probe_case, refused, None, expect, answer, holds))
            if not holds:
                return Trial(CONTRADICTED, tuple(probes))
        if not probes:
            return Trial(UNTESTED, (), (), "no candidate case the tool built has that feature")
        return Trial(CONFIRMED, tuple(probes))

    def _between(self, ruleset: Ruleset, probe: Probe, mine: Mutation, theirs: Mutation | None,
                 beside: Sequence[Mutation] = ()) -> Probe:
        """A probe between two hypotheses (`mine`, and a rival or `mine` without one of its parts, `theirs`):
        where the engine answers as neither predicts, it departs there in some other way too. A hand of play
        answered as `mine` predicts but for fans a winner lists otherwise that the two give alike (`_met_in_play`)
        bears `mine` out, saying so: the probe asks only where they part. Otherwise the two are then
        predicted again each with the run's other departures (`beside`, those that set no option either sets):
        the one of them that then gives the engine's answer, the other not, is borne out (said so); where
        neither or both do, the probe tells them apart not at all (it holds neither way)."""
        if probe.holds is not False or probe.answer is None:
            return probe
        kind = str(probe.case.get("kind", "score"))
        answer, judged_on = self.read(ruleset, probe.answer), self.prober.judged_on(probe.case["expect"], kind)
        if self._holds(ruleset, answer, probe.against_predicted, judged_on, kind):
            return probe
        listed = _met_in_play(answer, probe.predicted, probe.against_predicted, ruleset.id) \
            if kind == "procedure" else ""
        if listed:  # the answer is `mine` wherever the two part, and lists fans both give alike otherwise
            return replace(probe, holds=True, elsewhere=listed)
        ids = {i for x in (mine, theirs) if x is not None for i in x.id.split(" + ")}
        taken = {k for x in (mine, theirs) if x is not None for k in x.option_ids}
        others = [o for o in beside if o.id not in ids and taken.isdisjoint(o.option_ids)]
        if others:
            with_mine = self.rescorer.result(probe.case, together([mine, *others]))
            with_theirs = self.rescorer.result(probe.case, together([theirs, *others]) if theirs is not None
                                               else together(others))
            held = [r is not None and self._holds(ruleset, answer, r, judged_on, kind) for r in (with_mine, with_theirs)]
            if held[0] != held[1]:
                said = "; ".join(o.words for o in others)
                return replace(probe, holds=held[0], elsewhere=f"predicted with the run's other departures ({said})")
        return replace(probe, holds=None, elsewhere="the engine answers as neither predicts")

    def parts_separating(self, ruleset: Ruleset, members: Sequence[Mapping[str, Any]], m: Mutation,
                         rest: Mutation | None) -> list[tuple[Mapping[str, Any], Mapping[str, Any], Mapping[str, Any]]]:
        """Cases on which `m` and `rest` (`m` without one of its parts; None: the rules) predict different money:
        the first among other hands where both let the hand win (the part moves what a winning hand pays, not only
        whether it wins, as in the class), else the first among other hands, then the first among the class's own
        hands read otherwise (a part of a joint departure is tested where it matters, not only where the class
        shows it)."""
        varied = {Prober.key(c) for c in variants(ruleset, members[:VARIANTS_FROM])}
        found: dict[str, tuple[Mapping[str, Any], Mapping[str, Any], Mapping[str, Any]]] = {}
        for case in self._candidates(ruleset, members):
            where = "near" if Prober.key(case) in varied else "far"
            if where in found and (where == "near" or "wins" in found):
                continue
            mine = self._result(case, m)
            theirs = self._result(case, rest) if mine is not None else None
            if mine is None or theirs is None or _money(mine) == _money(theirs):
                continue
            if where == "far" and _wins(mine) and _wins(theirs):
                found["wins"] = (case, mine, theirs)
            found.setdefault(where, (case, mine, theirs))
            if "wins" in found and "near" in found:
                break
        return [found[k] for k in ("wins" if "wins" in found else "far", "near") if k in found]

    def trial(self, ruleset: Ruleset, members: Sequence[Mapping[str, Any]], m: Mutation,
              rivals: Sequence[Mutation] = (), parts: Sequence[tuple[Mutation, Mutation | None]] = (),
              beside: Sequence[Mutation] = ()) -> Trial:
        """The hypothesis `m` put to the engine: against the rules, then, where `m` is several departures together
        (`parts`: each with `m` without it), against `m` without each (the engine must answer as `m` predicts
        where that part matters: an answer `m` without the part predicts contradicts it; one neither predicts
        says nothing of it), then against each rival."""
        probes: list[Probe] = []
        untested_why = ""
        separations = self.separating(ruleset, members, m, None, PROBES_PER_CAUSE)
        if not separations:
            untested_why = "no case the tool built tells it from the rules beyond the class's own"
        for case, mine, theirs in separations:
            probe = self._ask(ruleset, case, mine, None, theirs, m)
            if probe is None:
                untested_why = untested_why or self.prober.why_not()
                break
            probes.append(probe)
            if probe.holds is False:
                return Trial(CONTRADICTED, tuple(probes))
        parts_unasked: list[str] = []
        for part, rest in parts:
            for case, mine, theirs in self.parts_separating(ruleset, members, m, rest):
                probe = self._ask(ruleset, case, mine, f"{m.id} without {part.id}", theirs)
                if probe is None:
                    parts_unasked.append(part.id)
                    break
                probe = self._between(ruleset, probe, m, rest, beside)
                probes.append(probe)
                if probe.holds is False:
                    return Trial(CONTRADICTED, tuple(probes))
        inseparable, unasked = [], []
        undecided = []
        for rival in rivals:
            found = self.separating(ruleset, members, m, rival, RIVAL_PROBES)
            if not found:
                inseparable.append(rival.id)
                continue
            for case, mine, theirs in found:  # until the engine's answer tells the two apart
                probe = self._ask(ruleset, case, mine, rival.id, theirs)
                if probe is None:
                    unasked.append(rival.id)
                    break
                probe = self._between(ruleset, probe, m, rival, beside)
                probes.append(probe)
                if probe.holds is False:
                    return Trial(CONTRADICTED, tuple(probes))
                if probe.holds:
                    break
            else:
                undecided.append(rival.id)  # the engine answered each as neither predicts
        met = [p for p in probes if p.elsewhere]
        if met and not untested_why and not any(p.holds and p.departs for p in probes):
            untested_why = "its probes met other departures of the engine (" + "; ".join(
                f"{p.case.get('id')}: {p.elsewhere}" for p in met[:2]) + ")"
        if not any(p.holds and p.departs for p in probes):
            if any(p.holds for p in probes):  # only rival probes held, each where the hypothesis gives the rules
                untested_why = (untested_why or "no probe on which it departs from the rules held") + \
                    "; its probes told it only from its rivals, on hands where it answers as the rules do"
            return Trial(UNTESTED, tuple(probes), tuple(inseparable),
                         untested_why or "the engine answered none of its probes", tuple(unasked), tuple(undecided),
                         tuple(parts_unasked))
        return Trial(CONFIRMED, tuple(probes), tuple(inseparable), self.prober.why_not() if parts_unasked else "",
                     tuple(unasked), tuple(undecided), tuple(parts_unasked))


    def reach(self, ruleset: Ruleset, members: Sequence[Mapping[str, Any]], m: Mutation, followed: Iterable[str],
              beside: Sequence[Mutation] = ()) -> tuple[Reach, ...]:
        """A confirmed cause `m` put to the engine where a case names an option the engine follows (`followed`) at
        a value the class's cases do not hold: for each such value of an option `m` does not set, and that bears
        on `m` (a statement of the rules ties the option to a rule `m` reads, a rule reading the option reads what
        `m` reads: checker.spec.reads, or the value makes `m` depart on a class hand where it did not, or agree
        where it departed), the hands on which `m` departs from the rules
        under that value (first those where it does not under the class's own: where the option changes what
        `m` claims) asked until one answer contradicts it or REACH_PROBES are asked. An answer `m` predicts only
        with the run's other departures (`beside`) holds. A departure's reach at one value, once tried (for
        another class), is said again, not asked again."""
        out: list[Reach] = list(self._beyond_where(ruleset, members, m, beside))
        followed = set(followed)
        for oid in sorted(followed - m.option_ids):
            if oid not in ruleset.scoring_options():
                continue
            held = values_held(ruleset, members, oid)
            for value in ruleset.options[oid].values:
                if value in held:
                    continue
                key = (ruleset.id, m.id, oid, json.dumps(value))
                if key in self._reached:  # (the same departure under the same value: asked once a run)
                    out.append(self._reached[key])
                    continue
                named = with_option(members, oid, value)
                if not (_tied(ruleset, m, oid) or bears_on(self.reads(ruleset), m.rules, oid)
                        or self._moved_by_option(members[:VARIANTS_FROM], named[:VARIANTS_FROM], m)):
                    continue
                found = self._departing_there(ruleset, named, m, oid, held[0] if held else None)
                if found:
                    out.append(self._reach_trial(ruleset, oid, value, held, found, m, beside))
                    if out[-1].status != UNTESTED:
                        self._reached[key] = out[-1]
        return tuple(out)

    def _beyond_where(self, ruleset: Ruleset, members: Sequence[Mapping[str, Any]], m: Mutation,
                      beside: Sequence[Mutation]) -> Iterator[Reach]:
        """A departure named only where an option holds one value (`Mutation.where`, from the passing cases it
        changed elsewhere) put to the engine under the option's other values: hands on which the departure, made
        wherever, departs from the rules there, where the named one predicts the rules' answer."""
        wherever = m.unconditional
        if wherever is None:
            return
        for oid in sorted(m.where):
            held = values_held(ruleset, members, oid)
            for value in ruleset.options[oid].values if oid in ruleset.options else ():
                if value in held:
                    continue
                found = self._departing_there(ruleset, with_option(members, oid, value), wherever, oid,
                                              held[0] if held else None)
                if found:  # (the named departure predicts the rules' answer there; made wherever, its own)
                    yield self._reach_trial(ruleset, oid, value, held, [(c, r, w) for c, w, r in found], m, beside,
                                            as_the_rules=True)

    def _moved_by_option(self, cases: Sequence[Mapping[str, Any]], named: Sequence[Mapping[str, Any]],
                         m: Mutation) -> bool:
        """Whether naming the option makes `m` depart from the rules on one of the cases where it did not, or
        agree where it departed."""
        for case, other in zip(cases, named):
            before = [self._result(case, x) for x in (m, None)]
            after = [self._result(other, x) for x in (m, None)]
            if None in before or None in after:
                continue
            if (_text(before[0]) != _text(before[1])) != (_text(after[0]) != _text(after[1])):
                return True
        return False

    def _departing_there(self, ruleset: Ruleset, named: Sequence[Mapping[str, Any]], m: Mutation, oid: str,
                         own: Any) -> list[tuple[Mapping[str, Any], Mapping[str, Any], Mapping[str, Any]]]:
        """Up to REACH_PROBES cases under the option's other value (the class's hands, then the pool's …) on which
        `m` moves money from the rules: first those where, with the option at `own` (the class's value), it
        does not; else cases where it lists fans only otherwise."""
        Found = list[tuple[Mapping[str, Any], Mapping[str, Any], Mapping[str, Any]]]
        new: Found = []
        kept: Found = []
        fans_only: Found = []
        for case in self._candidates(ruleset, named):
            mine = self._result(case, m)
            theirs = self._result(case, None) if mine is not None else None
            if mine is None or theirs is None or _text(mine) == _text(theirs):
                continue
            if _money(mine) == _money(theirs):
                if len(fans_only) < REACH_PROBES:
                    fans_only.append((case, mine, theirs))
                continue
            back = {**case, "options": {k: v for k, v in (case.get("options") or {}).items() if k != oid}}
            if own is not None:
                back["options"][oid] = own
            was = [self._result(back, x) for x in (m, None)]
            if None not in was and _money(was[0]) == _money(was[1]):
                new.append((case, mine, theirs))
                if len(new) >= REACH_PROBES:
                    break
            elif len(kept) < REACH_PROBES:
                kept.append((case, mine, theirs))
        return (new + kept)[:REACH_PROBES] or fans_only

    def _reach_trial(self, ruleset: Ruleset, oid: str, value: Any, held: tuple[Any, ...],
                     found: Sequence[tuple[Mapping[str, Any], Mapping[str, Any], Mapping[str, Any]]], m: Mutation,
                     beside: Sequence[Mutation], as_the_rules: bool = False) -> Reach:
        """The probes of one option value (`found`: case, prediction, the other answer), asked until one
        contradicts; `as_the_rules`: the prediction there is the rules' answer (a departure named only where the
        option holds another value), which an answer as predicted confirms."""
        probes: list[Probe] = []
        others = [o for o in beside if o.id not in m.id.split(" + ") and o.option_ids.isdisjoint(m.option_ids)
                  and oid not in o.option_ids]
        for case, mine, theirs in found:
            probe = self._ask(ruleset, case, mine, None, theirs, m)
            if probe is None:
                return Reach(oid, value, held, UNTESTED if not probes else _reach_status(probes, as_the_rules),
                             tuple(probes), self.prober.why_not())
            if probe.holds is False and others and self.predicts(ruleset, probe, together([m, *others])):
                probe = replace(probe, holds=True, elsewhere="predicted with the run's other departures (" +
                                "; ".join(o.words for o in others) + ")")
            probes.append(probe)
            if probe.holds is False:
                break
        status = _reach_status(probes, as_the_rules)
        return Reach(oid, value, held, status, tuple(probes),
                     "" if status != UNTESTED else "the engine answered its probes as neither predicts")


def _reach_status(probes: Sequence[Probe], as_the_rules: bool = False) -> str:
    if any(p.holds is False for p in probes):
        return CONTRADICTED
    return CONFIRMED if any(p.holds and (p.departs or as_the_rules) for p in probes) else UNTESTED


def _tied(ruleset: Ruleset, m: Mutation, option_id: str) -> bool:
    """Whether a statement of the rules names the option beside a rule the departure `m` reads."""
    rules = set(m.rules)
    return any(f"option.{option_id}" in s.rules and rules & set(s.rules) for s in ruleset.statements)


def _option_reading(ruleset: Ruleset, m: Mutation) -> tuple[str, Any] | None:
    """(option, value) where `m` is a reading of one option (the table's or the scorer's: a hand of play is
    scored too, and a hand check such as the knock's lock is both), else None."""
    if m.edits_spec or m.touches_input or len(m.options) != 1:
        return None
    (option, value), = m.options.items()
    return (option, value) if option in ruleset.options else None


def _as_edit(ruleset: Ruleset, m: Mutation) -> tuple[Mutation | None, set[str]]:
    """`m` as a spec edit the procedure search can play (an option's reading as the option's default, the option
    then left out of the hands searched), with the options to leave out; (None, …) for any other departure."""
    reading = _option_reading(ruleset, m)
    if reading is not None:
        option, value = reading
        return edits.option_default(ruleset.id, ruleset.options[option], value), {option}
    return (m, set()) if m.edits_spec and not m.touches_input else (None, set())
