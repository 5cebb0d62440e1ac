"""Witnesses a referee accepts at a glance: after a search finds a hand, drop every flower, flag, claimed meld and
counter that does not change what the finding shows.

Hypothesis shrinks the tiles it draws, but context it finds easy to keep stays: a classic hand holding all eight
flowers wins by 八花齐 without a knock, so many searches settle on it. `smaller` tries one-step simplifications in
a fixed order and keeps each one under which the finding's own condition still holds, until none does:
1. every flower and every flag dropped at once, with the flags a win needs (the spec's `win.requires_flags`, the
   knock) given instead: 八花齐 becomes an ordinary knocked win; then the same with the flowers kept;
2. every flower dropped; then each flower alone;
3. each flag dropped (a flag the win needs is kept);
4. each claimed chow or pung taken back into the concealed tiles (no claim to explain);
5. each counter dropped; then each lowered by one.
What the witness keeps, the finding needs. The number of tries is bounded (`TRIES`), never timed.
"""
from __future__ import annotations

from typing import Any, Callable, Iterator, Mapping, Sequence

from checker import tiles as T
from checker.spec import Ruleset

TRIES = 200  # conditions tried at most per witness


def _flowers(data: Mapping[str, Any]) -> list[str]:
    raw = data.get("flowers") or ""
    text = raw if isinstance(raw, str) else "".join(raw)
    return [T.tile_name(t) for t in T.parse_tiles(text)]


def _required(ruleset: Ruleset) -> dict[str, bool]:
    """The flags every ordinary win needs (the knock): given when the flowers and flags go."""
    return dict.fromkeys(ruleset.win.required_flags, True)


def simpler(ruleset: Ruleset, data: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
    """The one-step simplifications of a hand input, in the order tried."""
    flowers = _flowers(data)
    flags = {k: v for k, v in (data.get("flags") or {}).items() if v}
    counters = dict(data.get("counters") or {})
    required = _required(ruleset)
    if any(k not in required for k in flags):
        if flowers:
            yield {**data, "flowers": "", "flags": dict(required)}
        yield {**data, "flags": dict(required)}
    if flowers:
        yield {**data, "flowers": ""}
        if len(flowers) > 1:
            for i in range(len(flowers)):
                yield {**data, "flowers": "".join(flowers[:i] + flowers[i + 1:])}
    for flag in flags:
        if flag not in required:
            yield {**data, "flags": {k: v for k, v in flags.items() if k != flag}}
    melds = list(data.get("melds") or [])
    for i, meld in enumerate(melds):
        if meld.get("type") in ("chow", "pung") and not meld.get("concealed"):
            tiles = list(T.parse_tiles(data.get("concealed", ""))) + list(T.parse_tiles(meld["tiles"]))
            yield {**data, "melds": melds[:i] + melds[i + 1:], "concealed": T.format_tiles(sorted(tiles))}
    for name in counters:
        yield {**data, "counters": {k: v for k, v in counters.items() if k != name}}
    for name, value in counters.items():
        least = ruleset.counters[name].min if name in ruleset.counters else 0
        if isinstance(value, int) and value - 1 > least:
            yield {**data, "counters": {**counters, name: value - 1}}


def smaller(ruleset: Ruleset, data: Mapping[str, Any], holds: Callable[[Mapping[str, Any]], bool],
            tries: int = TRIES) -> dict[str, Any]:
    """The witness with every simplification that keeps `holds` true taken, one at a time (`tries` at most)."""
    best = dict(data)
    left = tries
    moved = True
    while moved and left > 0:
        moved = False
        for candidate in simpler(ruleset, best):
            if left <= 0:
                break
            left -= 1
            if holds(candidate):
                best, moved = candidate, True
                break
    return best


def context(ruleset: Ruleset, data: Mapping[str, Any]) -> tuple[int, int]:
    """How much a referee must take in beyond the tiles: flowers, flags a win does not need, counters and
    claimed sets; then the tiles."""
    required = _required(ruleset)
    extra = len(_flowers(data)) + len([k for k, v in (data.get("flags") or {}).items() if v and k not in required])
    extra += len(data.get("counters") or {}) + len(data.get("melds") or [])
    tiles = len(str(data.get("concealed", ""))) + sum(len(str(m.get("tiles", ""))) for m in data.get("melds") or [])
    return extra, tiles


def plainest(ruleset: Ruleset, found: Mapping[str, Any] | None, known: Sequence[Mapping[str, Any]],
             holds: Callable[[Mapping[str, Any]], bool]) -> dict[str, Any] | None:
    """The witness with the least context (`context`) among the one a search found (already shrunk) and the
    known legal hands meeting `holds` (a known hand taken is shrunk too): a search that settles on 八花齐 (any
    tiles win with all eight flowers) gives way to a known hand that needs none. The first of equals is kept."""
    best = dict(found) if found is not None else None
    for data in known:
        if (best is None or context(ruleset, data) < context(ruleset, best)) and holds(data):
            best = smaller(ruleset, data, holds)
    return best
