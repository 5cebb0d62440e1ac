"""The canonical form of a case on the wire (DESIGN.md): every tile field a string of two-character tile names
(`1m`…`9m`, `1p`…`9p`, `1s`…`9s`, `1z`…`7z`, `1f`…`8f`) in the order written.

The shipped corpora are written in it, and the conformance runner and the pytest plugin send every case to an
engine in it: a case written with a list of tiles or in another notation the tool reads (compact groups `234m`,
MahjongGB codes, Unicode tiles, Chinese names) is rewritten first. A field that holds no tiles at all (`0m`) is
left as written: such a case expects the engine to refuse it.

Tile fields: a score case's `concealed`, `win_tile`, `flowers` and each meld's `tiles`; a procedure case's
`wall` and each event's `tile` and `tiles`.
"""
from __future__ import annotations

import copy
import re
from typing import Any, Mapping

from checker import tiles as T

Path = tuple[Any, ...]  # keys from the case's `input` down to a tile field
SCORE_FIELDS = ("concealed", "win_tile", "flowers")  # and each meld's `tiles`
EVENT_FIELDS = ("tile", "tiles")  # of each event; and the procedure's `wall`
CANONICAL = re.compile(r"(?:[1-9][mps]|[1-7]z|[1-8]f)*")  # what checker.tiles.format_tiles writes


def canonical_tiles(value: Any) -> Any:
    """Tiles in any notation the tool reads (or a list of such strings) as canonical names; `value` itself
    when it holds no tiles the tool reads."""
    if isinstance(value, str) and CANONICAL.fullmatch(value):  # (most are: no parsing)
        return value
    text = " ".join(value) if isinstance(value, list) and all(isinstance(v, str) for v in value) else value
    try:
        return T.format_tiles(T.parse_tiles(text))
    except T.TileError:
        return value


def _canonical_at(path: Path, value: Any) -> Any:
    """A tile field in canonical form; a wall given as its four quarters stays four strings, each canonical."""
    if path == ("wall",) and isinstance(value, list) and all(isinstance(v, str) for v in value):
        quarters = [canonical_tiles(v) for v in value]
        return value if quarters == value else quarters
    return canonical_tiles(value)


def noncanonical_fields(case: Mapping[str, Any]) -> list[str]:
    """The JSON pointers of the case's tile fields that are not in canonical form (and could be)."""
    return [_pointer(path) for path, value in _tile_fields(case) if _canonical_at(path, value) != value]


def canonical_case(case: Mapping[str, Any]) -> Mapping[str, Any]:
    """The case with its tile fields in canonical form: the case itself when they are already, else a copy."""
    changes = [(path, new) for path, value in _tile_fields(case) if (new := _canonical_at(path, value)) is not value]
    if not changes:
        return case
    out = dict(case)
    out["input"] = data = copy.deepcopy(case["input"])
    for path, new in changes:
        holder = data
        for key in path[:-1]:
            holder = holder[key]
        holder[path[-1]] = new
    return out


def _tile_fields(case: Mapping[str, Any]) -> list[tuple[Path, Any]]:
    data = case.get("input")
    if not isinstance(data, Mapping):
        return []
    found: list[tuple[Path, Any]]
    if case.get("kind") == "procedure":
        found = [(("wall",), data.get("wall"))]
        for i, event in enumerate(_list(data.get("events"))):
            if isinstance(event, Mapping):
                found += [(("events", i, name), event.get(name)) for name in EVENT_FIELDS]
                for j, answer in enumerate(_list(event.get("answers"))):  # a `claims` event's answers
                    if isinstance(answer, Mapping):
                        found += [(("events", i, "answers", j, name), answer.get(name)) for name in EVENT_FIELDS]
    else:
        found = [((name,), data.get(name)) for name in SCORE_FIELDS]
        for i, meld in enumerate(_list(data.get("melds"))):
            if isinstance(meld, Mapping):
                found.append((("melds", i, "tiles"), meld.get("tiles")))
    return [(path, value) for path, value in found if value is not None]


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _pointer(path: Path) -> str:
    return "/input" + "".join(f"/{key}" for key in path)
