"""Table events (one per line of a game log) and what can go wrong with one.

An event names its kind, the seat that acts (0-3, absolute: the header says which seat deals) and the tiles it
needs. `LogError` is bad input (an unknown event, a tile or seat that cannot be): the log cannot be read on.
`Violation` is a legal-looking event the rules forbid: it cites the rule id it breaks.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, NamedTuple

from checker import tiles as T
from checker.inputs import excerpt

# event kind -> the fields it takes besides `event` and `seat` (True: required)
EVENT_FIELDS: Mapping[str, Mapping[str, bool]] = {
    "draw": {"tile": False, "from": False},
    "discard": {"tile": True},
    "chow": {"tiles": True},
    "pung": {"tile": False},
    "kong": {"tile": False},
    "add_kong": {"tile": True},
    "concealed_kong": {"tile": True},
    "flower": {"tile": True},
    "knock": {},
    "pass": {},
    "win": {"tile": False},
    "draw_game": {},
    "swap": {"tiles": True},  # 换牌 (shanghai-classic): the tiles a seat buries; it takes as many from the wall
    # every seat's answer to one discard (or robbable kong) at once, as a game judge collects them; resolved by the
    # spec's claim priority (checker.table.claims `_on_claims`)
    "claims": {"answers": True},
}
NO_SEAT = frozenset({"draw_game", "claims"})
ANSWERS = ("pass", "chow", "pung", "kong", "win")  # what a seat may answer in a `claims` event
DRAW_FROM = ("wall", "back")


class LogError(ValueError):
    """A line of a game log that cannot be read as a header or an event (bad input, exit 2)."""

    def __init__(self, message: str, rule: str = "input.event"):
        super().__init__(message)
        self.rule = rule

    def __reduce__(self) -> tuple:
        """Pickled with its rule (an error raised in a worker process reaches the parent whole)."""
        return (type(self), (str(self), self.rule))


@dataclass(frozen=True)
class Violation:
    """An event the rules forbid: the rule id it breaks, what happened and what was expected instead."""

    rule: str
    message: str
    expected: str = ""

    def as_dict(self) -> dict[str, Any]:
        out = {"rule": self.rule, "message": self.message}
        if self.expected:
            out["expected"] = self.expected
        return out


class Event(NamedTuple):
    """One event of a hand (a named tuple: bots make thousands of candidate events per hand)."""

    kind: str
    seat: int = -1
    tile: int = -1  # -1: not given
    tiles: tuple[int, ...] = ()
    source: str = "wall"  # of a draw: the wall's front, or its back (a replacement)
    answers: tuple["Event", ...] = ()  # of a `claims` event: each seat's answer (a pass, chow, pung, kong or win)

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"event": self.kind}
        if self.kind == "claims":
            out["answers"] = [{"seat": a.seat, "claim": a.kind, **{k: v for k, v in a.as_dict().items()
                                                                   if k in ("tile", "tiles")}} for a in self.answers]
        if self.kind not in NO_SEAT:
            out["seat"] = self.seat
        if self.tile >= 0:
            out["tile"] = T.tile_name(self.tile)
        if self.tiles:
            out["tiles"] = T.format_tiles(self.tiles)
        if self.kind == "draw" and self.source != "wall":
            out["from"] = self.source
        return out

    def text(self) -> str:
        """The event as a player would say it: `seat 2 pung 5m`."""
        if self.kind == "claims":
            return "claims: " + (", ".join(a.text() for a in self.answers) or "none")
        parts = [] if self.kind in NO_SEAT else [f"seat {self.seat}"]
        parts.append(self.kind.replace("_", " "))
        if self.tiles:
            parts.append(T.format_tiles(self.tiles))
        elif self.tile >= 0:
            parts.append(T.tile_name(self.tile))
        if self.kind == "draw" and self.source == "back":
            parts.append("(replacement, from the back of the wall)")
        return " ".join(parts)


def parse_event(data: Any) -> Event:
    """An event from one decoded log line; LogError names the field at fault."""
    if not isinstance(data, dict):
        raise LogError(f"an event is a JSON object, not {excerpt(data)}")
    kind = data.get("event")
    if not isinstance(kind, str) or kind not in EVENT_FIELDS:
        known = ", ".join(EVENT_FIELDS)
        raise LogError(f"unknown event {excerpt(kind)}; events: {known}")
    fields = EVENT_FIELDS[kind]
    allowed = set(fields) | {"event", "note"} | (set() if kind in NO_SEAT else {"seat"})
    unknown = sorted(k for k in data if k not in allowed)
    if unknown:
        raise LogError(f"{kind}: unknown field {excerpt(unknown[0])} (it takes: {', '.join(sorted(allowed))})")
    seat = -1
    if kind not in NO_SEAT:
        raw = data.get("seat")
        if type(raw) is float and raw in (0, 1, 2, 3):  # 2.0 is seat 2, as the game schema reads it
            raw = int(raw)
        if isinstance(raw, bool) or not isinstance(raw, int) or not 0 <= raw <= 3:
            raise LogError(f"{kind}: seat must be 0, 1, 2 or 3, not {excerpt(raw)}", "input.seat")
        seat = raw
    for name, required in fields.items():
        if required and name not in data:
            raise LogError(f"{kind}: the field {name!r} is missing")
    tile = -1
    if data.get("tile") is not None:
        tile = _one_tile(kind, data["tile"])
    tiles: tuple[int, ...] = ()
    if "tiles" in data:
        tiles = _tiles(kind, data["tiles"])
    source = data.get("from", "wall")
    if source not in DRAW_FROM:
        raise LogError(f"{kind}: 'from' is wall or back, not {excerpt(source)}")
    answers = _answers(data["answers"]) if kind == "claims" else ()
    return Event(kind, seat, tile, tiles, source, answers)


MAX_ANSWERS = 3  # the seats other than the discarder


def _answers(raw: Any) -> tuple[Event, ...]:
    """A `claims` event's answers: a list of {"seat", "claim", "tile"?, "tiles"?}, each read as the event it
    claims with (a pass as a `pass` event); LogError naming the answer at fault."""
    if not isinstance(raw, list) or not 1 <= len(raw) <= MAX_ANSWERS:
        raise LogError(f"claims: 'answers' is a list of one to three seats' answers, not {excerpt(raw)}")
    out = []
    for i, answer in enumerate(raw):
        if not isinstance(answer, dict):
            raise LogError(f"claims: answer {i} is an object {{\"seat\": N, \"claim\": ...}}, not {excerpt(answer)}")
        claim = answer.get("claim")
        if claim not in ANSWERS:
            raise LogError(f"claims: answer {i}: 'claim' is one of {', '.join(ANSWERS)}, not {excerpt(claim)}")
        unknown = sorted(k for k in answer if k not in ("seat", "claim", "tile", "tiles", "note"))
        if unknown:
            raise LogError(f"claims: answer {i}: unknown field {excerpt(unknown[0])} (it takes: claim, seat, tile, "
                           f"tiles, note)")
        event = {k: v for k, v in answer.items() if k != "claim"}
        try:
            out.append(parse_event({**event, "event": claim}))
        except LogError as exc:
            raise LogError(f"claims: answer {i}: {exc}", exc.rule) from None
    return tuple(out)


def _one_tile(kind: str, raw: Any) -> int:
    got = _tiles(kind, raw)
    if len(got) != 1:
        raise LogError(f"{kind}: 'tile' is one tile, got {len(got)}", "input.tile")
    return got[0]


def _tiles(kind: str, raw: Any) -> tuple[int, ...]:
    if not isinstance(raw, str) or len(raw) > 200:
        raise LogError(f"{kind}: tiles are written as text (e.g. \"5m\" or \"345m\"), not {excerpt(raw)}",
                       "input.tile")
    try:
        return tuple(T.parse_tiles(raw))
    except T.TileError as exc:
        raise LogError(f"{kind}: {exc}", "input.tile") from None
