"""Single changes to a legal game log: the raw material of illegal procedure cases and of the hunt.

Each operator takes the table as it stands before event i of a legal log (never changed by the operator), the
log's events (dicts, as in a log file) and i, and gives the events with one change there (or nothing where it
does not apply). `witnesses` replays each changed log and keeps, per rule id,
the first change whose replay is refused at that very event with that rule: a minimal, readable witness that
the rule is enforced. Nothing here decides legality: the state machine does.
"""
from __future__ import annotations

from typing import Any, Callable, Iterator, Mapping

from checker import tiles as T
from checker.table.events import parse_event
from checker.table.hands import chows_with
from checker.table.log import ILLEGAL, LEGAL, new_table, replay_events
from checker.table.state import Table

Events = list[dict[str, Any]]
CLAIMS = ("chow", "pung", "kong", "win")


def _held(table: Table, seat: int) -> list[str]:
    """The tiles seat `seat` holds at this point of the hand."""
    counts = table.players[seat].counts
    return [T.tile_name(t) for t in range(T.NUM_TILES_WITH_FLOWERS) if counts[t]]


def other_seat(table: Table, events: Events, i: int) -> Iterator[tuple[str, Events]]:
    """The event at i made by another seat (a draw or claim out of turn)."""
    e = events[i]
    if "seat" not in e:
        return
    for k in (1, 2, 3):
        yield f"event {i} by seat {(e['seat'] + k) % 4} instead", \
            events[:i] + [{**e, "seat": (e["seat"] + k) % 4}] + events[i + 1:]


def other_discard(table: Table, events: Events, i: int) -> Iterator[tuple[str, Events]]:
    """A discard of another tile the seat holds (the drawn or just claimed tile, a tile a lock forbids)."""
    e = events[i]
    if e.get("event") != "discard":
        return
    for tile in _held(table, e["seat"]):
        if tile != e["tile"]:
            yield f"seat {e['seat']} discards {tile} instead of {e['tile']}", \
                events[:i] + [{**e, "tile": tile}] + events[i + 1:]


def inserted_claim(table: Table, events: Events, i: int) -> Iterator[tuple[str, Events]]:
    """A claim (chow, pung, kong, win) by any seat inserted before event i, which follows a discard, a kong
    or a claim."""
    if i == 0 or events[i - 1].get("event") not in ("discard", "add_kong", "concealed_kong", "kong", "chow", "pung"):
        return
    for seat in range(4):
        for kind in ("pung", "kong", "win"):
            yield f"seat {seat} {kind}s before event {i}", events[:i] + [{"event": kind, "seat": seat}] + events[i:]
        last = events[i - 1]
        if last.get("event") == "discard":
            held = set(_held(table, seat))
            t = T.parse_tile(last["tile"])
            if T.is_suited(t):
                for low in (t - 2, t - 1, t):
                    run = [low, low + 1, low + 2]
                    if low // 9 == t // 9 == (low + 2) // 9 and low >= 0 and \
                            all(x == t or T.tile_name(x) in held for x in run):
                        yield f"seat {seat} chows {T.format_tiles(run)} before event {i}", \
                            events[:i] + [{"event": "chow", "seat": seat, "tiles": T.format_tiles(run)}] + events[i:]


def second_win(table: Table, events: Events, i: int) -> Iterator[tuple[str, Events]]:
    """Another seat's win appended after the last event, a win on a discard (several winners on one tile)."""
    e = events[i]
    if i == len(events) - 1 and e.get("event") == "win":
        for k in (1, 2, 3):
            seat = (e["seat"] + k) % 4
            yield f"seat {seat} also wins", events + [{"event": "win", "seat": seat}]


def inserted_knock(table: Table, events: Events, i: int) -> Iterator[tuple[str, Events]]:
    """A knock inserted before a discard, by the discarding seat."""
    e = events[i]
    if e.get("event") == "discard":
        yield f"seat {e['seat']} knocks before its discard {i}", events[:i] + [{"event": "knock", "seat": e["seat"]}] + events[i:]


def dropped(table: Table, events: Events, i: int) -> Iterator[tuple[str, Events]]:
    """Event i left out (a flower not exposed, a win not taken, a replacement not drawn)."""
    yield f"event {i} ({events[i].get('event')}) left out", events[:i] + events[i + 1:]


def front_draw(table: Table, events: Events, i: int) -> Iterator[tuple[str, Events]]:
    """A replacement draw made from the front of the wall instead of the back."""
    e = events[i]
    if e.get("event") == "draw" and e.get("from") == "back":
        yield f"replacement {i} drawn from the front", \
            events[:i] + [{k: v for k, v in e.items() if k not in ("from", "tile")}] + events[i + 1:]


def early_end(table: Table, events: Events, i: int) -> Iterator[tuple[str, Events]]:
    """The hand declared drawn at event i, with tiles left in the wall."""
    if events[i].get("event") == "draw" and events[i].get("from") != "back":
        yield f"draw_game at event {i}", events[:i] + [{"event": "draw_game"}]


def claims_at_once(table: Table, events: Events, i: int) -> Iterator[tuple[str, Events]]:
    """A claim of a discard (chow, pung or kong) answered at once with another seat's claim of the same tile, as a
    game judge collects them (a `claims` event): which of the two the table makes is its claim priority's reading.
    Each other seat's chow, pung or kong for which it holds the tiles, one at a time."""
    e = events[i]
    if i == 0 or e.get("event") not in ("chow", "pung", "kong") or events[i - 1].get("event") != "discard":
        return
    last = events[i - 1]
    t = T.parse_tile(last["tile"])
    made = {"seat": e["seat"], "claim": e["event"], **({"tiles": e["tiles"]} if e.get("tiles") else {})}
    for k in (1, 2, 3):
        seat = (last["seat"] + k) % 4
        if seat == e["seat"]:
            continue
        counts = table.players[seat].counts
        answers: list[dict[str, Any]] = []
        if counts[t] >= 3:
            answers.append({"seat": seat, "claim": "kong"})
        if counts[t] >= 2:
            answers.append({"seat": seat, "claim": "pung"})
        if k == 1:
            answers += [{"seat": seat, "claim": "chow", "tiles": T.format_tiles(list(run))}
                        for run in chows_with(counts, t)[:1]]
        for other in answers:
            yield f"event {i} answered at once with seat {seat}'s {other['claim']}", \
                events[:i] + [{"event": "claims", "answers": [made, other]}] + events[i + 1:]


OPERATORS: tuple[Callable[..., Iterator[tuple[str, Events]]], ...] = (
    other_seat, other_discard, inserted_claim, second_win, inserted_knock, dropped, front_draw, early_end)


def at_once(header: Mapping[str, Any], events: Events, most: int) -> Iterator[Events]:
    """Up to `most` logs in which one claim of a discard is answered at once with another seat's (claims_at_once)
    that the seat could make alone (the rules refuse a `claims` event with an answer they would refuse alone), the
    table replayed up to each claim; the log after it as it was."""
    table = new_table(header)
    made = 0
    for i in range(len(events)):
        for _, changed in claims_at_once(table, events, i):
            if made >= most:
                return
            other = changed[i]["answers"][1]
            alone = {"event": other["claim"], "seat": other["seat"],
                     **({"tiles": other["tiles"]} if other.get("tiles") else {})}
            if replay_events(header, events[:i] + [alone]).verdict == ILLEGAL:
                continue
            made += 1
            yield changed
        if table.ended or table.apply(parse_event(events[i])) is not None:
            return


def witnesses(header: Mapping[str, Any], events: Events, wanted: set[str], budget: int = 4000,
              found: dict[str, dict[str, Any]] | None = None) -> dict[str, dict[str, Any]]:
    """For each rule id in `wanted` not yet in `found`: the first single change of the log whose replay is
    refused at the changed event with that rule. Each witness: {"events", "event" (its index), "rule",
    "change" (what was changed)}. At most `budget` changed logs are replayed."""
    found = dict(found or {})
    tried = 0
    table = new_table(header)
    for i in range(len(events)):
        for operator in OPERATORS:
            for change, changed in operator(table, events, i):
                if not (wanted - set(found)) or tried >= budget:
                    return found
                tried += 1
                r = replay_events(header, changed)
                if r.verdict == LEGAL or r.verdict == "bad input" or r.rule not in wanted or r.rule in found:
                    continue
                index = r.line - 2
                if index != i and not (operator is second_win and index == i + 1):
                    continue  # refused elsewhere: not a witness of this change
                found[r.rule] = {"events": changed[:index + 1], "event": index, "rule": r.rule, "change": change}
        if table.ended or table.apply(parse_event(events[i])) is not None:
            break
    return found
