"""Failure classes: an engine's failed and errored cases grouped by how they depart from the rules.

A case's *signature* is the shape of its departure, from the closest pair of expected and actual readings:
the verdict when one side wins and the other refuses (with the rule each names), else the fans missing, extra
or scored with other points and every other field that differs (the total, the payments, a refusal's rule),
after fans the engine names in the documents' words are read as the spec's ids (itself a part); an errored
case's signature is its reason with the parts that vary from case to case (tiles, numbers, ids) masked. Cases
of one signature form a class, shown by its *witness*: the member with the fewest tiles and patterns, then the
fewest context items, then the earliest line. Each class carries its witness in words, a one-line command
that reproduces it, and the source sentences of the rules it involves.
"""
from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

from checker.case import fans_of, readings_of
from checker.diagnose.answers import lists_no_zero, read_fan_names
from checker.diagnose.diff import diff
from checker.diagnose.judged import Judged as CaseResult
from checker.diagnose.notation import current as notation, paired_hands
from checker.spec import Ruleset, given_files_args, options_text
from checker.table.log import ILLEGAL, LEGAL, UNFINISHED

NO_RULE = "(no rule compared)"  # a refusal's rule where the case is not judged on it (the engine's ids are its own)
UNLISTED = "fans at 0 points not listed"  # a signature's part: the engine lists no fan that adds no points
NOTATION = "fans written in the engine's own way"  # a part: fans left out or in its own units (diagnose.notation)
OWN_NAMES = "fans named in the documents' or the engine's own words"  # a part: names read, some learned
MAX_SIGNATURE_PARTS = 24  # the differences a class's signature names (the rest counted): its size is bounded
SEATS = {0: "the winner", 1: "seat 1 (next)", 2: "seat 2 (across)", 3: "seat 3 (previous)"}
WIN_WORDS = {"self_draw": "self-drawn", "discard": "on a discard", "robbing_kong": "by robbing a kong"}
MAX_SOURCES = 6  # source sentences quoted per class
PLAY_VERDICTS = (LEGAL, ILLEGAL, UNFINISHED)  # a hand of play's verdicts


@dataclass(frozen=True)
class FailureClass:
    """Cases of one signature: `key` (hashable, stable), `parts` (the signature as JSON), `members` in witness
    order (the witness first): all its cases, or a sample of them when `total` says how many it has
    (checker.diagnose.sample)."""

    key: tuple
    parts: tuple[Mapping[str, Any], ...]
    members: tuple[CaseResult, ...]
    total: int | None = None

    @property
    def count(self) -> int:
        """How many cases the class has (its members, or more when they are a sample)."""
        return len(self.members) if self.total is None else self.total

    @property
    def witness(self) -> CaseResult:
        return self.members[0]

    @property
    def ruleset(self) -> str | None:
        return self.witness.ruleset

    @property
    def fan_ids(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(str(p["fan"]) for p in self.parts if "fan" in p))

    def title(self) -> str:
        return signature_words(self.parts)


def unlisted_by_winners(wants: Sequence[Any], gots: Sequence[Any]) -> list[Mapping[str, Any]]:
    """The fans at 0 points a hand of play's winners hold by the rules (`wants`: the expectation's readings) and
    the engine's winners (`gots`) leave out, where each of those winners lists no fan at 0 (how an engine writes:
    answers.listed); the winners paired where the hand ends alike (notation.paired_hands). Empty for a hand to
    score (its fans are compared directly) or winners not paired."""
    out: list[Mapping[str, Any]] = []
    for want in wants:
        for got in gots:
            if not isinstance(want, Mapping) or not isinstance(got, Mapping) or "verdict" not in want:
                continue
            for mine, theirs in paired_hands(want, got):
                listed_ids = {f.get("id") for f in fans_of(theirs)}
                if lists_no_zero(theirs.get("fans")):
                    out += [f for f in fans_of(mine) if f.get("points") == 0 and f.get("id") not in listed_ids]
            if out:
                return out
    return out


def signature(r: CaseResult) -> tuple[tuple, tuple[Mapping[str, Any], ...]]:
    """A failed or errored case's signature: a hashable key and the same as JSON parts. Fans the engine names
    in the documents' words are read as the spec's ids first (checker.diagnose.answers.FanNames), the reading
    itself one part of the signature."""
    if r.outcome == "errored":
        reason = _varying((r.reason or "").replace(r.id, "‹id›") if r.id else r.reason or "")
        return (("errored", reason),), ({"errored": reason},)
    actual, names = read_fan_names(r.ruleset, r.actual)
    learned = notation().names.get(r.ruleset or "") or {}
    key: list[tuple] = [("names",)] if names else []
    parts: list[Mapping[str, Any]] = [{"names": "fans named in the documents' words" if not set(names) & set(learned)
                                       else OWN_NAMES}] if names else []
    wants, gots = readings_of(r.expected), readings_of(actual)
    played = _play_verdicts(wants, gots)
    if played is not None:  # a hand of play judged otherwise: legal, illegal (by which rule), unfinished
        expected, refused = played
        return (("verdict", expected, refused),), ({"verdict": {"expected": expected, "actual": refused}},)
    if wants and gots:
        want_valid = {bool(w.get("valid", True)) for w in wants}
        got_valid = {bool(g.get("valid", True)) for g in gots}
        if want_valid.isdisjoint(got_valid):
            expected = "win" if True in want_valid else str(wants[0].get("error") or case_rule(r) or NO_RULE)
            refused = "win" if True in got_valid else str(gots[0].get("error") or NO_RULE)
            return (("verdict", expected, refused),), ({"verdict": {"expected": expected, "actual": refused}},)
    found = diff(r.expected, actual)
    unlisted = [f for f in found.missing if f.get("points") == 0] if gots and all(
        lists_no_zero(g.get("fans")) for g in gots) else []
    if unlisted or unlisted_by_winners(wants, gots):  # fans at 0 points the engine leaves out of its list, as it
        key.append(("unlisted",))                      # lists none (answers.listed); a hand of play's, its winners'
        parts.append({"unlisted": UNLISTED})
    # how the run learned the engine writes its fans (checker.diagnose.notation): left out, in its own units
    omitted, units = notation().omitted(r.ruleset), notation().units(r.ruleset)
    left = [f for f in found.missing if f not in unlisted and f.get("id") in omitted]
    own = [(w, g) for w, g in found.different if w.get("id") in units and w.get("count") == g.get("count")]
    capped = [f for f in found.extra if any(notation().cap_listed(r.ruleset, f, g.get("total")) for g in gots)]
    if left or own or capped:
        key.append(("notation",))
        parts.append({"notation": NOTATION})
    for fan in (f for f in found.missing if f not in unlisted and f not in left):
        key.append(("missing", str(fan.get("id")), _plain(fan.get("points"))))
        parts.append({"missing": True, "fan": str(fan.get("id")), "points": _plain(fan.get("points"))})
    for fan in (f for f in found.extra if f not in capped):
        key.append(("extra", str(fan.get("id")), _plain(fan.get("points"))))
        parts.append({"extra": True, "fan": str(fan.get("id")), "points": _plain(fan.get("points"))})
    for want, got in (d for d in found.different if d not in own):
        key.append(("different", str(want.get("id")), _plain(want.get("points")), _plain(got.get("points")),
                    _plain(want.get("count")), _plain(got.get("count"))))
        parts.append({"different": True, "fan": str(want.get("id")), "expected": [want.get("points"), want.get("count")],
                      "actual": [_plain(got.get("points")), _plain(got.get("count"))]})
    for name, _, _ in found.fields:  # every other field that differs, beside the fans
        key.append(("field", str(name)))
        parts.append({"field": str(name)})
    if not key:
        key.append(("shape",))
        parts.append({"shape": "the results differ in shape"})
    rank = {"names": 0, "unlisted": 0, "notation": 0, "missing": 1, "extra": 2, "different": 3, "field": 4}  # fans, then fields
    order = sorted(range(len(key)), key=lambda i: (rank.get(str(key[i][0]), 5), repr(key[i])))
    if len(order) > MAX_SIGNATURE_PARTS:  # an answer of thousands of fans: a class keeps a bounded signature
        more = len(order) - MAX_SIGNATURE_PARTS + 1
        order = order[:MAX_SIGNATURE_PARTS - 1]
        return (*(key[i] for i in order), ("more", more)), (*(parts[i] for i in order), {"more": more})
    return tuple(key[i] for i in order), tuple(parts[i] for i in order)


def _play_verdicts(wants: Sequence[Mapping[str, Any]], gots: Sequence[Mapping[str, Any]]) -> tuple[str, str] | None:
    """Where a hand of play is judged otherwise (its `verdict`, with the rule an illegal or unfinished one names),
    the two verdicts in words; else None."""
    if len(wants) != 1 or len(gots) != 1 or "verdict" not in wants[0]:
        return None

    def said(result: Mapping[str, Any]) -> str:
        rule = result.get("rule")
        return f"{result.get('verdict')}" + (f" ({rule})" if rule else "")
    want, got = said(wants[0]), said(gots[0])
    return (want, got) if wants[0].get("verdict") != gots[0].get("verdict") else None


def _plain(value: Any) -> Any:
    """A value kept in a signature: a number, text or null as it is, anything else as short text."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value if not isinstance(value, str) else value[:80]
    return json.dumps(value, ensure_ascii=True, default=repr)[:80]


def _varying(reason: str) -> str:
    """An error's reason with the parts that vary from case to case masked (the case's own id is masked before):
    tiles (`5m5m`, `1z`), numbers and ids holding digits (a line number). Its words are kept, quoted or not: `KeyError: 'flowers'` and
    `not supported` are two kinds of error."""
    text = re.sub(r"(?<![A-Za-z0-9])(?:[1-9][mpszf])+(?![A-Za-z0-9])", "‹tiles›", reason)
    text = re.sub(r"[A-Za-z_.\-]*\d[\w.\-]*", "‹n›", text)
    return re.sub(r"\s+", " ", text).strip()[:160]


def signature_words(parts: Sequence[Mapping[str, Any]]) -> str:
    """A signature in one line: `missing all_simples 2; extra self_drawn 1`."""
    out = []
    for p in parts:
        if "errored" in p:
            out.append(f"errored: {p['errored']}")
        elif "verdict" in p and str(p["verdict"]["expected"]).split(" ")[0] in PLAY_VERDICTS:
            v = p["verdict"]
            out.append(f"expected the hand {v['expected']}, engine: {v['actual']}")
        elif "verdict" in p:
            v = p["verdict"]
            out.append(f"expected {'a win' if v['expected'] == 'win' else _refused('refused', v['expected'])}, "
                       f"engine {'wins' if v['actual'] == 'win' else _refused('refuses', v['actual'])}")
        elif p.get("missing"):
            out.append(f"missing {p['fan']} {p['points']}")
        elif p.get("extra"):
            out.append(f"extra {p['fan']} {p['points']}")
        elif p.get("different"):
            (ep, ec), (ap, ac) = p["expected"], p["actual"]
            out.append(f"{p['fan']} {ep}×{ec} scored {ap}×{ac}")
        elif "field" in p:
            out.append(f"{p['field']} differs")
        elif "more" in p:
            out.append(f"and {p['more']} more differences")
        elif "names" in p:
            out.append(str(p["names"]))
        elif "unlisted" in p:
            out.append(str(p["unlisted"]))
        elif "notation" in p:
            out.append(str(p["notation"]))
        else:
            out.append(str(p.get("shape", "")))
    return "; ".join(out)


def classes_of(results: Iterable[CaseResult]) -> list[FailureClass]:
    """The failed and errored cases grouped by signature, largest class first (then by signature)."""
    grouped: dict[tuple, tuple[tuple, list[CaseResult]]] = {}
    for r in results:
        if r.outcome not in ("failed", "errored"):
            continue
        key, parts = signature(r)
        grouped.setdefault((r.ruleset or "",) + key, (parts, []))[1].append(r)
    found = [FailureClass(key, parts, tuple(sorted(members, key=witness_order)))
             for key, (parts, members) in grouped.items()]
    return sorted(found, key=lambda c: (-len(c.members), repr(c.key)))


def tile_count(value: Any) -> int:
    return len(re.findall(r"[1-9][mpszf]", value)) if isinstance(value, str) else 0


def witness_order(r: CaseResult) -> tuple:
    """Fewest tiles and patterns, then fewest context items, then the earliest line."""
    data = r.input or {}
    melds: list[Any] = data.get("melds") or [] if isinstance(data.get("melds"), list) else []
    tiles = tile_count(data.get("concealed")) + sum(tile_count(m.get("tiles")) for m in melds if isinstance(m, Mapping))
    wants = readings_of(r.expected)
    patterns = min((len(w.get("fans") or []) for w in wants if isinstance(w.get("fans"), list)), default=0)
    flags: Mapping[str, Any] = data.get("flags") or {} if isinstance(data.get("flags"), Mapping) else {}
    counters: Mapping[str, Any] = data.get("counters") or {} if isinstance(data.get("counters"), Mapping) else {}
    context = sum(1 for v in flags.values() if v) + len(counters) + tile_count(data.get("flowers")) \
        + len(r.options or {}) + len(melds)
    return (tiles + patterns, context, r.line)


def in_words(r: CaseResult | _Shown) -> str:
    """A case's hand and whole context in words."""
    data = r.input or {}
    out = [f"hand {data.get('concealed', '')}"]
    for m in data.get("melds") or []:
        if isinstance(m, Mapping):
            seat = m.get("from")
            whence = "concealed" if m.get("concealed") else f"from {_seat(seat)}"
            out.append(f"{m.get('type')} {m.get('tiles')} ({whence}{', after knocking' if m.get('after_knock') else ''})")
    win_by = data.get("win_by", "self_draw")
    how = WIN_WORDS.get(win_by, str(win_by))
    if win_by != "self_draw" and data.get("discarder") is not None:
        how += f" from {_seat(data.get('discarder'))}"
    out.append(f"wins on {data.get('win_tile', 'the last tile')} {how}")
    out.append(f"seat wind {data.get('seat_wind', 'E')}, round wind {data.get('round_wind', 'E')}")
    given = data.get("flags")
    flags = [str(k) for k, v in given.items() if v] if isinstance(given, Mapping) else []
    if flags:
        out.append("flags: " + ", ".join(flags))
    flowers = data.get("flowers")
    if flowers:  # a string of tiles, or a list of them (the case format takes both)
        out.append(f"flowers {flowers if isinstance(flowers, str) else ''.join(str(f) for f in flowers)}")
    if isinstance(data.get("counters"), Mapping) and data["counters"]:
        out.append("counters: " + ", ".join(f"{k}={v}" for k, v in data["counters"].items()))
    if isinstance(r.options, Mapping) and r.options:
        out.append("options: " + options_text(r.options))
    return "; ".join(out)


def case_words(case: Mapping[str, Any] | None) -> str:
    """Any case's input and options in words, for every per-case output (report.md, junit.xml, the pytest
    plugin): a hand to score as `in_words` gives it; a hand of play by its deal and its events."""
    given: Mapping[str, Any] = case if isinstance(case, Mapping) else {}
    data: Mapping[str, Any] = given["input"] if isinstance(given.get("input"), Mapping) else {}
    options: Mapping[str, Any] | None = given["options"] if isinstance(given.get("options"), Mapping) else None
    if given.get("kind") != "procedure":
        return in_words(_Shown(data, options))
    events: list[Any] = data["events"] if isinstance(data.get("events"), list) else []
    wall = data.get("wall")
    out = [f"a hand of play dealt by seat {data.get('dealer', 0)}",
           f"a wall of {len(wall) // 2} tiles" if isinstance(wall, str) else "the wall of its seed",
           f"{len(events)} events"]
    last = events[-1] if events and isinstance(events[-1], Mapping) else None
    if last is not None:
        out.append(f"the last: {last.get('event', '?')} by seat {last.get('seat', '?')}"
                   + (f" ({last['tile']})" if last.get("tile") else ""))
    if options:
        out.append("options: " + options_text(options))
    return "; ".join(out)


def case_context(case: Mapping[str, Any] | None) -> str:
    """A case's context in a few words (junit.xml's testcase names, report.html's cards): the way of winning,
    the discarder, the winds, the flags, flowers and counters, the options (a hand of play: its dealer and
    events)."""
    given: Mapping[str, Any] = case if isinstance(case, Mapping) else {}
    data: Mapping[str, Any] = given["input"] if isinstance(given.get("input"), Mapping) else {}
    if given.get("kind") == "procedure":
        events = data.get("events")
        return f"play, dealer {data.get('dealer', 0)}, {len(events) if isinstance(events, list) else 0} events"
    out = [str(data.get("win_by", "self_draw"))]
    if data.get("discarder") is not None and data.get("win_by") not in (None, "self_draw"):
        out[0] += f" from {data['discarder']}"
    out.append(f"{data.get('seat_wind', 'E')}/{data.get('round_wind', 'E')}")
    flags = data.get("flags")
    if isinstance(flags, Mapping) and any(flags.values()):
        out.append("+".join(str(k) for k, v in flags.items() if v))
    if data.get("flowers"):
        flowers = data["flowers"]
        out.append(f"flowers {flowers if isinstance(flowers, str) else ''.join(map(str, flowers))}")
    if isinstance(data.get("counters"), Mapping) and data["counters"]:
        out.append(", ".join(f"{k}={v}" for k, v in data["counters"].items()))
    options = given.get("options")
    if isinstance(options, Mapping) and options:
        out.append(options_text(options))
    return "; ".join(out)


@dataclass(frozen=True)
class _Shown:
    """What `in_words` reads of a case: its input and options."""

    input: Mapping[str, Any]
    options: Mapping[str, Any] | None


def _seat(seat: Any) -> str:
    return SEATS[seat] if isinstance(seat, int) and seat in SEATS else f"seat {seat}"


def reproduce_command(r: CaseResult) -> str:
    """A one-line shell command that scores the case with the reference engine and checks its expectation."""
    case = {k: v for k, v in (r.case or {}).items() if k in ("id", "ruleset", "options", "kind", "input", "expect")}
    return f"echo {shlex.quote(json.dumps(case, ensure_ascii=False, separators=(',', ':')))} | mjcheck score " \
           f"--case -{given_files_args()}"


def sources_of(ruleset: Ruleset | None, rules: Iterable[str]) -> list[dict[str, str]]:
    """The source sentences of the rules named (`fan.X`, `option.Y`, …): each pattern's own sources, else the
    statements that name the rule; at most MAX_SOURCES."""
    if ruleset is None:
        return []
    out: list[dict[str, str]] = []
    seen: set[tuple[str, str]] = set()
    for rule in dict.fromkeys(rules):
        located = []
        if rule.startswith("fan."):
            try:
                located = [(loc.doc, loc.section, loc.phrase) for loc in ruleset.pattern(rule[4:]).sources]
            except KeyError:
                located = []
        if rule.startswith("option.") and rule[7:] in ruleset.options:
            located = [(loc.doc, loc.section, loc.phrase) for loc in ruleset.options[rule[7:]].sources]
        if not located:
            located = [(s.doc, s.section, s.phrase) for s in ruleset.statements if rule in s.rules]
        for doc, section, phrase in located[:2]:
            if (rule, phrase) not in seen:
                seen.add((rule, phrase))
                out.append({"rule": rule, "doc": doc, "section": section, "phrase": phrase})
    return out[:MAX_SOURCES]


def case_rule(r: CaseResult) -> str | None:
    """The one rule the case's own expectation refuses by (None: it expects a win, or names several), also where
    the engine is judged without it (its rule ids are its own): the corpus says which rule refuses, so refusals
    of different rules are not one class."""
    expect = r.case.get("expect") if r.case is not None else None
    rules = {str(w.get("error")) for w in readings_of(expect) if not w.get("valid", True) and w.get("error")}
    return rules.pop() if len(rules) == 1 else None


def _refused(verb: str, rule: str) -> str:
    return verb if rule == NO_RULE else f"{verb}: {rule}"


def class_rules(cls: FailureClass) -> list[str]:
    """The rule ids a class's signature involves: its fans, and the rule a refusal names."""
    rules = [f"fan.{f}" for f in cls.fan_ids]
    for p in cls.parts:
        if "verdict" in p:
            for v in (str(p["verdict"]["expected"]), str(p["verdict"]["actual"])):
                played = re.fullmatch(r"(\w+)(?: \((.+)\))?", v) if v.split(" ")[0] in PLAY_VERDICTS else None
                if played is not None:
                    rules += [played.group(2)] if played.group(2) else []
                elif v not in ("win", NO_RULE):
                    rules.append(v)
    return rules
