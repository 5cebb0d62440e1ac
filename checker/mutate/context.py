"""Context readings: an engine that reads a case's context otherwise than the case format says.

Each constructor returns a `Mutation` whose `read` rewrites a case's input as such an engine reads it, so the
reference engine, scoring the rewritten input under the rules, gives what that engine gives: a flag ignored,
a flag read as another or as implying another, a flag read as a win on a kong's replacement draw whatever the way
of winning (the last tile claimed from a discard as Out with replacement tile), a way of winning read as another
(robbing the kong as a discard or a self-draw), a counter or the flowers ignored, a claimed meld read as
concealed. `context_readings(ruleset)`
lists every one a ruleset's flags, counters and ways of winning allow. Two more read what the rules refuse as bad
input as if it were not there: a flag where it does not fit (`flag_unfit_ignored`), a counter outside its range
(`counter_out_of_range_ignored`); the diagnosis tries them where an engine scores a hand such a check refuses.
"""
from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType
from typing import Any, Mapping

from checker.case import hand_from_input
from checker.engine.hand import WIN_BY, HandError
from checker.engine.scoring import Scorer
from checker.mutate.mutation import Mutation
from checker.spec import Ruleset
from checker.spec.roles import roles

REPLACEMENT_PREDICATE = "replacement_draw_win"

WIN_KINDS = ("self_draw", "discard", "robbing_kong")
WIN_WORDS = {"self_draw": "a self-draw", "discard": "a discard", "robbing_kong": "robbing the kong"}


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


def flag_unfit_ignored(ruleset: Ruleset, flag: str, checks: tuple[str, ...]) -> Mutation:
    """The engine reads `flag` only where it fits: a hand that one of the flag's hand checks (`checks`, by id)
    refuses is read without the flag, neither refused nor scored with it (a kong's replacement flag on a hand
    with no kong: no 杠开). The checks are held under the default options (a case's read sees its input alone),
    on the input as given: a counter outside its range does not stop them (another reading may read it away)."""
    wide = MappingProxyType({name: replace(c, min=min(c.min, -(1 << 30)), max=max(c.max, 1 << 30))
                             for name, c in ruleset.counters.items()})
    kept = replace(ruleset, hand_checks=tuple(hc for hc in ruleset.hand_checks if hc.id in checks), counters=wide)
    scorers: list[Scorer] = []  # built at the first hand with the flag

    def read(data: Mapping[str, Any]) -> Mapping[str, Any]:
        flags = _flags(data)
        if not flags.get(flag):
            return data
        if not scorers:
            scorers.append(Scorer(kept))
        try:
            hand = hand_from_input(data, scorers[0], checked=False)
        except (HandError, KeyError, TypeError, ValueError):  # bad input besides: read as it is, refused as such
            return data
        if scorers[0].accepts(hand):
            return data
        flags.pop(flag)
        return {**data, "flags": flags}

    return Mutation(f"flag-unfit-ignored:{flag}", "context: flag ignored where it does not fit", ruleset.id,
                    f"a {flag} flag where it does not fit ({', '.join(checks)}) is ignored: the hand is scored "
                    f"without it, not refused", (f"flag.{flag}", *checks), read=read)


def counter_out_of_range_ignored(ruleset: Ruleset, counter: str) -> Mutation:
    """The engine reads a `counter` outside the range the rules give it as absent, not as bad input."""
    spec = ruleset.counters[counter]

    def read(data: Mapping[str, Any]) -> Mapping[str, Any]:
        counters = data.get("counters")
        if not isinstance(counters, Mapping):
            return data
        value = counters.get(counter)
        if not isinstance(value, int) or isinstance(value, bool) or spec.min <= value <= spec.max:
            return data
        return {**data, "counters": {k: v for k, v in counters.items() if k != counter}}

    return Mutation(f"counter-out-of-range-ignored:{counter}", "context: counter ignored out of its range",
                    ruleset.id, f"a {counter} counter outside {spec.min}–{spec.max} is ignored ({spec.rule} not "
                    f"made): the hand is scored as if it had none", (f"counter.{counter}", spec.rule), read=read)


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


def read_as_replacement(ruleset_id: str, flag: str, kong_flag: str, win_by: str | None = None) -> Mutation:
    """The engine reads a win with `flag` (by `win_by`; None: any way of winning) as a win on a kong's replacement
    draw (the ruleset's `kong_flag`, its kong-replacement role): the fans decided by `replacement_draw_win` hold on it too (e.g. the last tile claimed from a discard
    scored as Out with replacement tile). A spec edit of the predicate's parameters, so the hand checks still
    hold the input as the case gives it."""
    ways = WIN_BY if win_by is None else (win_by,)

    def edit(ruleset: Ruleset) -> Ruleset:
        also = {"also_flag": flag, "also_win_by": ways}
        patterns = tuple(replace(p, when=replace(p.when, params=MappingProxyType({**p.when.params, **also})))
                         if p.when.name == REPLACEMENT_PREDICATE else p for p in ruleset.patterns)
        return replace(ruleset, patterns=patterns)

    how = f"a win by {WIN_WORDS[win_by]}" if win_by is not None else "a win"
    return Mutation(f"read-as-replacement:{flag}" + (f"/{win_by}" if win_by is not None else ""),
                    "context: flag read as a replacement draw", ruleset_id,
                    f"{how} with the {flag} flag is read as a win on a kong's replacement draw",
                    (f"flag.{flag}", f"flag.{kong_flag}"), edit=edit)


def win_read_as(ruleset_id: str, kind: str, other: str) -> Mutation:
    """The engine reads a `kind` win as an `other` win (the discarder kept: a self-draw has none)."""
    def read(data: Mapping[str, Any]) -> Mapping[str, Any]:
        if data.get("win_by", "self_draw") != kind:
            return data
        changed = {**data, "win_by": other}
        if other == "self_draw":
            changed.pop("discarder", None)
        return changed

    return Mutation(f"win-read-as:{kind}/{other}", "context: win kind", ruleset_id,
                    f"a win by {WIN_WORDS[kind]} is read as a win by {WIN_WORDS[other]}",
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
    """Every context reading the ruleset's flags, counters, ways of winning, flowers and melds allow (a flag read
    as a replacement draw only where a fan is decided by `replacement_draw_win`)."""
    rid = ruleset.id
    found = [flag_ignored(rid, flag) for flag in ruleset.flags]
    found += [flag_implies(rid, a, b) for a in ruleset.flags for b in ruleset.flags if a != b]
    kong_flag = roles(ruleset).kong_replacement
    if kong_flag is not None and kong_flag in ruleset.flags and any(p.when.name == REPLACEMENT_PREDICATE for p in ruleset.patterns):
        found += [read_as_replacement(rid, flag, kong_flag, way) for flag in ruleset.flags if flag != kong_flag
                  for way in (None, *WIN_KINDS)]
    found += [win_read_as(rid, a, b) for a in WIN_KINDS for b in WIN_KINDS if a != b]
    found += [counter_ignored(rid, name) for name in ruleset.counters]
    found.append(flowers_ignored(rid))
    found += [claimed_read_as_concealed(rid, kind) for kind in ("chow", "pung", "kong")]
    return found
