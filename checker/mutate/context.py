"""Context readings: an engine that reads a case's context otherwise than the case format says.

Each constructor returns a `Mutation` whose `read` rewrites a case's input as such an engine reads it, so the
reference engine, scoring the rewritten input under the rules, gives what that engine gives: a flag ignored,
a flag read as another or as implying another, a way of winning read as another (robbing the kong as a discard
or a self-draw), a counter or the flowers ignored, a claimed meld read as concealed. `context_readings(ruleset)`
lists every one a ruleset's flags, counters and ways of winning allow.
"""
from __future__ import annotations

from typing import Any, Mapping

from checker.mutate.mutation import Mutation
from checker.spec import Ruleset

WIN_KINDS = ("self_draw", "discard", "robbing_kong")


def _flags(data: Mapping[str, Any]) -> dict[str, Any]:
    flags = data.get("flags")
    return dict(flags) if isinstance(flags, Mapping) else {}


def flag_ignored(ruleset_id: str, flag: str) -> Mutation:
    """The engine does not read `flag`."""
    def read(data: Mapping[str, Any]) -> Mapping[str, Any]:
        flags = _flags(data)
        if not flags.get(flag):
            return data
        flags.pop(flag)
        return {**data, "flags": flags}

    return Mutation(f"flag-ignored:{flag}", "context: flag ignored", ruleset_id, f"the {flag} flag is ignored",
                    (f"flag.{flag}",), read=read)


def flag_implies(ruleset_id: str, flag: str, other: str) -> Mutation:
    """The engine reads `flag` as `other` too (a win on the last discard read as a replacement draw)."""
    def read(data: Mapping[str, Any]) -> Mapping[str, Any]:
        flags = _flags(data)
        if not flags.get(flag) or flags.get(other):
            return data
        flags[other] = True
        return {**data, "flags": flags}

    return Mutation(f"flag-implies:{flag}/{other}", "context: flag read as another", ruleset_id,
                    f"a hand with the {flag} flag is read as having {other} too", (f"flag.{flag}", f"flag.{other}"),
                    read=read)


def win_read_as(ruleset_id: str, kind: str, other: str) -> Mutation:
    """The engine reads a `kind` win as an `other` win (the discarder kept: a self-draw has none)."""
    def read(data: Mapping[str, Any]) -> Mapping[str, Any]:
        if data.get("win_by", "self_draw") != kind:
            return data
        changed = {**data, "win_by": other}
        if other == "self_draw":
            changed.pop("discarder", None)
        return changed

    words = {"self_draw": "a self-draw", "discard": "a discard", "robbing_kong": "robbing the kong"}
    return Mutation(f"win-read-as:{kind}/{other}", "context: win kind", ruleset_id,
                    f"a win by {words[kind]} is read as a win by {words[other]}",
                    (f"settlement.{kind}", f"settlement.{other}"), read=read)


def counter_ignored(ruleset_id: str, counter: str) -> Mutation:
    """The engine does not read `counter` (as if it were left out)."""
    def read(data: Mapping[str, Any]) -> Mapping[str, Any]:
        counters = data.get("counters")
        if not isinstance(counters, Mapping) or counter not in counters:
            return data
        return {**data, "counters": {k: v for k, v in counters.items() if k != counter}}

    return Mutation(f"counter-ignored:{counter}", "context: counter ignored", ruleset_id,
                    f"the {counter} counter is ignored", (f"counter.{counter}",), read=read)


def flowers_ignored(ruleset_id: str) -> Mutation:
    """The engine does not count the flowers."""
    def read(data: Mapping[str, Any]) -> Mapping[str, Any]:
        if not data.get("flowers"):
            return data
        return {**data, "flowers": ""}

    return Mutation("flowers-ignored", "context: flowers ignored", ruleset_id, "the flowers are ignored",
                    ("flowers",), read=read)


def claimed_read_as_concealed(ruleset_id: str, meld_type: str) -> Mutation:
    """The engine counts a claimed `meld_type` as concealed."""
    def read(data: Mapping[str, Any]) -> Mapping[str, Any]:
        melds = data.get("melds")
        if not isinstance(melds, list) or not any(isinstance(m, Mapping) and m.get("type") == meld_type
                                                  and not m.get("concealed") for m in melds):
            return data
        changed = [{**{k: v for k, v in m.items() if k not in ("from", "after_knock")}, "concealed": True}
                   if isinstance(m, Mapping) and m.get("type") == meld_type and not m.get("concealed") else m
                   for m in melds]
        return {**data, "melds": changed}

    return Mutation(f"claimed-concealed:{meld_type}", "context: meld origin", ruleset_id,
                    f"a claimed {meld_type} is counted as concealed", (), read=read)


def context_readings(ruleset: Ruleset) -> list[Mutation]:
    """Every context reading the ruleset's flags, counters, ways of winning, flowers and melds allow."""
    rid = ruleset.id
    found = [flag_ignored(rid, flag) for flag in ruleset.flags]
    found += [flag_implies(rid, a, b) for a in ruleset.flags for b in ruleset.flags if a != b]
    found += [win_read_as(rid, a, b) for a in WIN_KINDS for b in WIN_KINDS if a != b]
    found += [counter_ignored(rid, name) for name in ruleset.counters]
    found.append(flowers_ignored(rid))
    found += [claimed_read_as_concealed(rid, kind) for kind in ("chow", "pung", "kong")]
    return found
