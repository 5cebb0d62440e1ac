"""Invalid inputs and hands that may not win, each with the `error` the reference engine gives.

Each mutation below breaks one thing about a valid winning hand (a tile too few, a fifth copy, a flag the
ruleset does not know, a counter out of range, a chow from the wrong seat, a claim after knocking, a flag
without the context it needs, a winning tile that completes nothing, no knock …). Mutations are applied to
the first valid candidates in order, and the first mutated hand that gives each error rule is kept.
"""
from __future__ import annotations

import copy
from typing import Any, Callable, Iterator, Mapping, Sequence

from checker import tiles as T
from checker.spec import Ruleset
from checker.spec.roles import roles

Mutation = Callable[[dict[str, Any], Ruleset], Iterator[tuple[str, dict[str, Any]]]]


def _drop_tile(data: dict[str, Any], rs: Ruleset) -> Iterator[tuple[str, dict[str, Any]]]:
    tiles = T.parse_tiles(data["concealed"])
    if tiles:
        out = copy.deepcopy(data)
        out["concealed"] = T.format_tiles(tiles[1:])
        yield "one concealed tile removed", out


def _fifth_copy(data: dict[str, Any], rs: Ruleset) -> Iterator[tuple[str, dict[str, Any]]]:
    tiles = T.parse_tiles(data["concealed"])
    everything = tiles + [T.parse_tile(data["win_tile"])] + [t for m in data["melds"] for t in T.parse_tiles(m["tiles"])]
    for t in sorted(set(everything)):
        if everything.count(t) == 4 and tiles and tiles[0] != t:
            out = copy.deepcopy(data)
            out["concealed"] = T.format_tiles(T.sort_tiles([t] + tiles[1:]))
            yield f"a concealed tile replaced by a fifth {T.tile_name(t)}", out
            return


def _unknown_flag(data: dict[str, Any], rs: Ruleset) -> Iterator[tuple[str, dict[str, Any]]]:
    out = copy.deepcopy(data)
    out["flags"] = {**out["flags"], "no_such_flag": True}
    yield "a flag the ruleset does not know", out


def _each_flag(data: dict[str, Any], rs: Ruleset) -> Iterator[tuple[str, dict[str, Any]]]:
    for flag in sorted(rs.flags):
        if not data["flags"].get(flag):
            out = copy.deepcopy(data)
            out["flags"] = dict(sorted({**out["flags"], flag: True}.items()))
            yield f"flag {flag} set", out


def _win_by(data: dict[str, Any], rs: Ruleset) -> Iterator[tuple[str, dict[str, Any]]]:
    for win_by in ("discard", "robbing_kong"):
        if data.get("win_by") != win_by:
            out = copy.deepcopy(data)
            out["win_by"], out["discarder"] = win_by, 1
            yield f"won by {win_by.replace('_', ' ')} from seat 1", out


def _chow_from(data: dict[str, Any], rs: Ruleset) -> Iterator[tuple[str, dict[str, Any]]]:
    for i, meld in enumerate(data["melds"]):
        if meld["type"] == "chow":
            out = copy.deepcopy(data)
            out["melds"][i]["from"] = 1
            yield "a chow claimed from seat 1 (not the previous player)", out
            return


def _after_knock(data: dict[str, Any], rs: Ruleset) -> Iterator[tuple[str, dict[str, Any]]]:
    for kind in ("chow", "pung", "kong"):
        for i, meld in enumerate(data["melds"]):
            if meld["type"] == kind and not meld.get("concealed"):
                out = copy.deepcopy(data)
                out["melds"][i]["after_knock"] = True
                yield f"a {kind} claimed after knocking", out
                break


def _no_knock(data: dict[str, Any], rs: Ruleset) -> Iterator[tuple[str, dict[str, Any]]]:
    knocked = roles(rs).knocked
    if knocked and data["flags"].get(knocked):
        out = copy.deepcopy(data)
        out["flags"] = {k: v for k, v in out["flags"].items() if k != knocked}
        yield "the winner has not knocked", out


def _counters(data: dict[str, Any], rs: Ruleset) -> Iterator[tuple[str, dict[str, Any]]]:
    out = copy.deepcopy(data)
    out["counters"] = {**out.get("counters", {}), "no_such_counter": 1}
    yield "a counter the ruleset does not know", out
    for name, counter in sorted(rs.counters.items()):
        out = copy.deepcopy(data)
        out["counters"] = dict(sorted({**out.get("counters", {}), name: counter.max + 1}.items()))
        yield f"counter {name} one above its range ({counter.max + 1})", out


def _wrong_win_tile(data: dict[str, Any], rs: Ruleset) -> Iterator[tuple[str, dict[str, Any]]]:
    win = T.parse_tile(data["win_tile"])
    held = T.parse_tiles(data["concealed"])
    for t in T.SUITED:
        if t != win and held.count(t) + (1 if t == win else 0) < 3 and abs(t - win) > 2:
            out = copy.deepcopy(data)
            out["win_tile"] = T.tile_name(t)
            yield f"winning tile {T.tile_name(t)} instead of {data['win_tile']}", out
            return


def _bad_tile(data: dict[str, Any], rs: Ruleset) -> Iterator[tuple[str, dict[str, Any]]]:
    out = copy.deepcopy(data)
    out["win_tile"] = "0m"
    yield "a winning tile that is not a tile (0m)", out


MUTATIONS: Sequence[Mutation] = (_drop_tile, _fifth_copy, _unknown_flag, _each_flag, _win_by, _chow_from,
                                 _after_knock, _no_knock, _counters, _wrong_win_tile, _bad_tile)


def mutations(data: Mapping[str, Any], ruleset: Ruleset) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every mutation of a valid case input, as (what was changed, the new input)."""
    base = copy.deepcopy(dict(data))
    base.setdefault("melds", [])
    base.setdefault("flags", {})
    for mutate in MUTATIONS:
        yield from mutate(base, ruleset)
