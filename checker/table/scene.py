"""Short hand-written hands of play (scenes): the deal and events of a situation bots seldom reach, written as a
few lines of events, with a wall built to deal and draw exactly the tiles they name.

A scene names the tiles that matter and nothing else:

    scene("shanghai-knocking", {0: "5p", 2: "5p5p"},
          ["0 discard 5p", "1 draw 5p", "1 discard 5p", "2 pung"])

- `hands`: each seat's tiles that matter (any notation); the rest of its deal (14 tiles for the dealer, seat 0,
  13 for the others) is filler;
- each event is "SEAT KIND [TILES]": a `draw` names the tile the wall gives (none: a filler tile; `draw back`:
  a replacement from the back of the wall), a `discard ?` throws the seat's latest filler tile, any other kind
  takes its tiles as a log writes them (`chow 5p6p7p`), or none (`pung`, `kong`, `win`, `knock`).

Filler tiles are suited tiles the scene does not name, handed out three tile numbers apart, so that a seat's
filler forms no pair, chow or ready hand with the tiles that matter; no honour tile is used (a ruleset may
count dragons as flowers), and the wall keeps its flowers in the middle, far from both ends (`arrange_wall`).
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Iterator, Mapping, Sequence

from checker import tiles as T
from checker.table.log import GAME, VERSION
from checker.table.wall import SEATS, WallError, arrange_wall

SUITED = 27
DEALT = {0: 14, 1: 13, 2: 13, 3: 13}  # the dealer is seat 0


class SceneError(ValueError):
    """A scene that cannot be dealt: more copies of a tile than the game holds, a seat dealt too many tiles, an
    event that cannot be read."""


def _filler(named: Counter[int]) -> Iterator[int]:
    """Suited tiles the scene does not name, three tile numbers apart (1m 4m 7m 1p … then 2m 5m …), round after
    round while copies are left."""
    free = [t for t in range(SUITED) if named[t] == 0]
    order = sorted(free, key=lambda t: ((t % 9) % 3, t))
    for _ in range(4):
        yield from order


def scene(ruleset_id: str, hands: Mapping[int, str], events: Sequence[str], dealer: int = 0
          ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The header (a wall dealing and drawing what the scene names) and the events of a log of `events`.
    SceneError when the scene cannot be dealt."""
    if dealer != 0:
        raise SceneError("a scene is written with seat 0 dealing")
    named_hands = {seat: list(T.parse_tiles(text)) for seat, text in hands.items()}
    parsed = [_event(line) for line in events]
    named = Counter(t for tiles in named_hands.values() for t in tiles)
    for kind, _, tiles, _ in parsed:
        if kind == "draw":
            named.update(tiles)
    filler = _filler(named)
    dealt: dict[int, list[int]] = {}
    fill: dict[int, list[int]] = {}
    for seat in range(SEATS):
        own = named_hands.get(seat, [])
        if len(own) > DEALT[seat]:
            raise SceneError(f"seat {seat} is dealt {DEALT[seat]} tiles; the scene names {len(own)}")
        fill[seat] = [next(filler) for _ in range(DEALT[seat] - len(own))]
        dealt[seat] = own + fill[seat]
    front: list[int] = []
    back: list[int] = []
    out: list[dict[str, Any]] = []
    for kind, seat, tiles, source in parsed:
        e: dict[str, Any] = {"event": kind, "seat": seat}
        if kind == "draw":
            tile = tiles[0] if tiles else next(filler)
            if not tiles:
                fill[seat].append(tile)
            (back if source == "back" else front).append(tile)
            if source == "back":
                e["from"] = "back"
        elif kind == "discard" and not tiles:
            if not fill[seat]:
                raise SceneError(f"'{seat} discard ?': seat {seat} holds no filler tile to throw")
            e["tile"] = T.tile_name(fill[seat].pop())
        elif tiles:
            e["tiles" if kind in ("chow", "swap") else "tile"] = T.format_tiles(tiles)
        out.append(e)
    try:
        wall = arrange_wall({s: T.format_tiles(t) for s, t in dealt.items()}, draws=T.format_tiles(front),
                            replacements=T.format_tiles(back))
    except WallError as exc:
        raise SceneError(str(exc)) from None
    return {"game": GAME, "version": VERSION, "ruleset": ruleset_id, "wall": T.format_tiles(wall), "dealer": 0}, out


def _event(line: str) -> tuple[str, int, list[int], str]:
    """"SEAT KIND [back] [TILES]" as (kind, seat, tiles, "back" or "")."""
    words = line.split()
    if len(words) < 2 or not words[0].isdigit() or int(words[0]) >= SEATS:
        raise SceneError(f"{line!r}: write SEAT KIND [TILES], e.g. '1 discard 5p'")
    seat, kind, rest = int(words[0]), words[1], words[2:]
    source = ""
    if kind == "draw" and rest[:1] == ["back"]:
        source, rest = "back", rest[1:]
    if rest == ["?"]:
        rest = []
    try:
        tiles = list(T.parse_tiles("".join(rest))) if rest else []
    except T.TileError as exc:
        raise SceneError(f"{line!r}: {exc}") from None
    return kind, seat, tiles, source
