"""A reading named for a class of hands of play, held to the event where the class departs.

A reading of a rule of play that explains a class (八花齐 waits for the seat's own turn) says how the engine plays
the event its hands depart at (the 八花齐 win refused after the eighth flower's replacement). Its probes tell it
from the rules, where the two part; they do not try the event where the two agree. The class's hands changed
just before that event, the event kept (`checker.separating.neighbours`), do: an engine that takes the 八花齐 win
before the replacement, where the reading and the rules both refuse it, reads the rule in a way the spec does not
offer, and the reading that fits the class is only the nearest the rules have. Such an answer is held against
the reading where nothing the run holds predicts it (`checker.diagnose.confirm`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from checker.diagnose.judged import Judged
from checker.diagnose.probes import Experiments, Probe, _text
from checker.mutate.mutation import Mutation
from checker.separating.neighbours import Neighbour, departing_event, neighbours
from checker.spec import Ruleset

NEIGHBOURS = 2  # neighbours of a class's departing event asked of the engine per reading named
NEIGHBOURS_TRIED = 40  # neighbours re-played under the reading and the rules to find them, per case
MEMBERS_TRIED = 2  # the class's cases (those the reading explains) whose departing event is tried


@dataclass(frozen=True)
class OnItsEvent:
    """A neighbour of a class's departing event asked of the engine: the probe (its prediction the reading's),
    where the kept event stands, what was changed, and the event in words."""

    probe: Probe
    at: int
    change: str
    event: str
    case_id: str

    @property
    def parts(self) -> bool:
        """Whether the engine's answer and the reading's prediction part at the kept event itself: one takes it,
        the other refuses it there (an answer refusing an earlier event tells nothing of this one)."""
        mine, theirs = fate(self.probe.predicted, self.at), fate(self.probe.answer, self.at)
        return mine is not None and theirs is not None and "before" not in (mine, theirs) and mine != theirs

    def words(self) -> str:
        return (f"at {self.event}, where the class departs, the engine answered {self.probe.case.get('id')} (the case "
                f"{self.case_id} with {self.change}) as neither it nor the rules predict: the engine plays this event in "
                f"a way the spec does not offer, and this reading is only the nearest the rules have")


def fate(result: Any, at: int) -> str | None:
    """What a hand of play's answer does with event `at`: refused before it, refused at it, or taken (None: no
    answer to read)."""
    if not isinstance(result, Mapping) or result.get("verdict") not in ("legal", "illegal", "unfinished"):
        return None
    refused = result.get("event")
    if result.get("verdict") == "illegal" and isinstance(refused, int):
        return "before" if refused < at else "refused" if refused == at else "taken"
    return "taken"


def _with_rule(result: Any, at: int) -> tuple[str | None, Any]:
    found = fate(result, at)
    return found, result.get("rule") if found == "refused" and isinstance(result, Mapping) else None


def event_words(event: Mapping[str, Any]) -> str:
    """A log event in a few words: seat 1's win."""
    return f"seat {event.get('seat')}'s {event.get('event')}" if "seat" in event else f"the {event.get('event')}"


def on_its_event(experiments: Experiments, ruleset: Ruleset, explained: list[Judged], m: Mutation
                 ) -> list[OnItsEvent]:
    """Up to NEIGHBOURS neighbours of the departing event of the class's cases `m` explains, asked of the engine:
    each changed at another event before it (one of each change, the nearest first), chosen where the event fares
    otherwise than in the case under `m` or under the rules (its refusal, or the rule refusing it)."""
    found: list[OnItsEvent] = []
    for r in explained[:MEMBERS_TRIED]:
        case = r.case
        if case is None or case.get("kind") != "procedure":
            continue
        events = (case.get("input") or {}).get("events") or []
        witness = {k: v for k, v in case.items() if k not in ("expect", "id")}
        mine, rules = experiments.rescorer.result(witness, m), experiments.rescorer.result(witness, None)
        if mine is None or rules is None:
            continue
        at = departing_event(events, r.actual, mine, rules)
        before = (_with_rule(mine, at), _with_rule(rules, at))
        made: set[str] = set()
        for tried, n in enumerate(neighbours(witness, at, experiments.rescorer.runner)):
            if tried >= NEIGHBOURS_TRIED or len(found) >= NEIGHBOURS:
                break
            predicted = None if n.operator in made else _trying(experiments, n, m, before)
            if predicted is None:
                continue
            probe = experiments.put(ruleset, n.case, predicted, m)
            if probe is None:  # (the --probes budget spent)
                return found
            made.add(n.operator)
            found.append(OnItsEvent(probe, n.at, n.change, event_words(events[at]), str(case.get("id"))))
        if len(found) >= NEIGHBOURS:
            break
    return found


def _trying(experiments: Experiments, n: Neighbour, m: Mutation,
            before: tuple[tuple[str | None, Any], tuple[str | None, Any]]) -> Mapping[str, Any] | None:
    """What `m` predicts for a neighbour that tries the kept event where the class's case did not: `m` and the
    rules answer it alike (where they part, `m`'s own probes try it), and the kept event fares otherwise under
    them than in the case (refused or taken, or refused by another rule)."""
    mine, rules = experiments.rescorer.result(n.case, m), experiments.rescorer.result(n.case, None)
    if mine is None or rules is None or _text(mine) != _text(rules):
        return None
    now = (_with_rule(mine, n.at), _with_rule(rules, n.at))
    if now == before or any(f in (None, "before") for f, _ in now):
        return None
    return mine
