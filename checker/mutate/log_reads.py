"""Log readings: a judge of play that reads a hand's log otherwise than the case format writes it.

Each returns a `Mutation` whose `replay` rewrites a procedure case as such a judge reads it, so the reference
table, replaying the rewritten log under the rules, gives what that judge gives (the context readings of
`checker.mutate.context` do the same for a hand to score). The rewrite asks the table itself what each event
means where the log leaves it unsaid; nothing here judges a log.

- `draw_end_inferred`: a `draw` written without `"from": "back"` where the seat owes a replacement (after a kong
  or a flower) is read as that replacement: the judge infers the wall's end from the state of play, where the
  case format asks for it (docs/contracts.md, the hand of play's events);
- `knock_awaits_its_discard`: a log that stops at a knock is read as stopping before it: the judge does not
  refuse a knock on its own (one no discard can make ready). What it makes of the knock once the log goes on is
  not modelled: the reading says nothing of it.
"""
from __future__ import annotations

from typing import Any, Mapping

from checker.mutate.mutation import Mutation
from checker.spec import Ruleset

LOG_READING = "log reading"
REPLACEMENT_RULE = "procedure.replacement_draw"


def draw_end_inferred(ruleset_id: str) -> Mutation:
    """The judge takes a draw that does not say where it comes from as the replacement the seat owes."""
    return Mutation("log:draw-end-inferred", LOG_READING, ruleset_id,
                    "the judge reads a draw written without \"from\": \"back\" as the replacement its seat owes (after "
                    "a kong or a flower), where the case format writes a replacement draw \"from\": \"back\"",
                    (REPLACEMENT_RULE,), replay=_replacements_written)


def knock_awaits_its_discard(ruleset_id: str) -> Mutation:
    """The judge does not refuse a knock on its own: a log stopping at the knock is unfinished to it, whatever the
    knock (what it makes of the knock when the log goes on is not read)."""
    return Mutation("log:knock-awaits-its-discard", LOG_READING, ruleset_id,
                    "the judge does not refuse a knock on its own: a log that stops at a knock (one no discard can "
                    "leave waiting) is unfinished to it",
                    ("procedure.knock",), replay=_last_knock_dropped)


def log_readings(ruleset: Ruleset) -> list[Mutation]:
    """Every log reading of a ruleset's hands of play (the knock's where the ruleset knocks)."""
    knocks = "knock" in ruleset.procedure
    return [draw_end_inferred(ruleset.id)] + ([knock_awaits_its_discard(ruleset.id)] if knocks else [])


def _last_knock_dropped(case: Mapping[str, Any]) -> Mapping[str, Any]:
    """The case without its last event where that is a knock."""
    data = case.get("input") or {}
    events = data.get("events") if isinstance(data, Mapping) else None
    if not isinstance(events, list) or not events or not isinstance(events[-1], Mapping) \
            or events[-1].get("event") != "knock":
        return case
    return {**case, "input": {**dict(data), "events": list(events[:-1])}}


def _replacements_written(case: Mapping[str, Any]) -> Mapping[str, Any]:
    """The case with each draw the table refuses for lack of `"from": "back"` (a replacement owed) written with it,
    as long as the table takes the draw so written; the log as it is from the first other refusal on."""
    from checker.table.events import parse_event
    from checker.table.log import GAME, VERSION, LogError, new_table

    given = case.get("input")
    if not isinstance(given, Mapping):
        return case
    data = dict(given)
    events = data.pop("events", None)
    if not isinstance(events, list):
        return case
    header = {"game": GAME, "version": VERSION, "ruleset": case.get("ruleset"), "options": case.get("options") or {},
              **data}
    try:
        table = new_table(header)
    except (LogError, ValueError, KeyError, TypeError):
        return case
    out = list(events)
    changed = False
    for i, ev in enumerate(events):
        try:
            if isinstance(ev, Mapping) and ev.get("event") == "draw" and "from" not in ev:
                problem = table.apply(parse_event(ev))  # (a refused event leaves the table as it was)
                if problem is None:
                    continue
                written = {**ev, "from": "back"}
                if problem.rule != REPLACEMENT_RULE or table.apply(parse_event(written)) is not None:
                    break
                out[i], changed = written, True
            elif table.apply(parse_event(ev)) is not None:
                break
        except (LogError, ValueError, KeyError, TypeError):
            break
    if not changed:
        return case
    return {**case, "input": {**dict(case.get("input") or {}), "events": out}}
