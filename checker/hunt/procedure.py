"""Differential hunting over the table procedure's options (`read_by: table`): hands played by bots under one
reading, replayed under the other, until one is judged differently (legal under one, illegal under the other,
or settled differently); where none is, the procedure search of `corpus strength` (its hand-written scenes of
play bots seldom reach, then single changes of bot hands) with the other reading as the option's default. The
witness is the shortest such log found, cut just after the first event the readings judge differently: an
`ambiguity`, as a `kind: procedure` case.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from checker.hunt.findings import Finding
from checker.table.log import GAME, VERSION, replay_events
from checker.table.simulate import play_hand
from checker.spec import Ruleset, value_key

BOTS = (("random",) * 4, ("greedy", "random", "greedy", "random"))
SEARCH_BUDGET = 2_000  # candidates the procedure search runs for a reading no bot hand parted


def judged(header: Mapping[str, Any], events: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """How a log is judged: the verdict, the rule and event of a refusal, the payments of an ended hand."""
    r = replay_events(header, list(events))
    out: dict[str, Any] = {"verdict": r.verdict}
    if r.verdict != "legal":
        out.update({"rule": r.rule, "event": r.line - 2, "message": r.message})
    if r.result is not None:
        out["payments"] = r.result["payments"]
        out["next_dealer"] = r.result["next"]["dealer"]
    return out


def _parting(header: dict[str, Any], events: list[dict[str, Any]], first: Mapping[str, Any],
             second: Mapping[str, Any]) -> tuple[list[dict[str, Any]], dict[str, Any], dict[str, Any]] | None:
    """The log cut at the first event the two option sets judge differently, with both judgements."""
    a = judged({**header, "options": dict(first)}, events)
    b = judged({**header, "options": dict(second)}, events)
    if (a["verdict"], a.get("rule"), a.get("event"), a.get("payments"), a.get("next_dealer")) == \
            (b["verdict"], b.get("rule"), b.get("event"), b.get("payments"), b.get("next_dealer")):
        return None
    cut = min([x["event"] for x in (a, b) if "event" in x] or [len(events) - 1]) + 1
    if cut < len(events):
        events = events[:cut]
        a = judged({**header, "options": dict(first)}, events)
        b = judged({**header, "options": dict(second)}, events)
    return events, a, b


def hunt_table_option(ruleset: Ruleset, option_id: str, value: Any, hands: int, seed: int) -> Finding | None:
    option = ruleset.options[option_id]
    default_opts, other_opts = {option_id: option.default}, {option_id: value}
    best: tuple[list[dict[str, Any]], dict[str, Any], dict[str, Any], dict[str, Any]] | None = None
    for i in range(hands):
        bots = BOTS[i % len(BOTS)]
        for played_under, other in ((default_opts, other_opts), (other_opts, default_opts)):
            hand = play_hand(ruleset.id, seed * 100_000 + i, bots, played_under)
            header = {k: v for k, v in hand.header.items() if k not in ("options", "seats")}
            found = _parting(header, hand.events, default_opts, other_opts)
            if found is not None and (best is None or len(found[0]) < len(best[0])):
                best = (found[0], found[1], found[2], header)
    if best is None:
        best = _searched(ruleset, option_id, value, default_opts, other_opts)
    if best is None:
        return None
    events, a, b, header = best
    d_key, v_key = value_key(option.default), value_key(value)
    deal = {k: v for k, v in header.items() if k not in ("game", "version", "ruleset")}
    return Finding(
        ruleset=ruleset.id, kind="ambiguity", key=f"option.{option_id}={v_key}",
        title=f"{option_id}: a hand of play the two readings judge differently "
              f"({_brief(a)} against {_brief(b)}), after {len(events)} events",
        rules=[f"option.{option_id}"] + sorted({x["rule"] for x in (a, b)
                                                 if x["verdict"] == "illegal" and x["rule"].startswith("procedure.")}),
        witness={"ruleset": ruleset.id, "options": other_opts, "kind": "procedure",
                 "input": {**deal, "events": events}},
        outcomes=[{"reading": f"{option_id}={d_key}", "means": option.readings.get(d_key, ""), "result": a},
                  {"reading": f"{option_id}={v_key}", "means": option.readings.get(v_key, ""), "result": b}],
        method="simulation", deciding_option=option_id,
        note=option.note.strip())


def _searched(ruleset: Ruleset, option_id: str, value: Any, default_opts: Mapping[str, Any],
              other_opts: Mapping[str, Any]) -> tuple[list[dict[str, Any]], dict[str, Any], dict[str, Any],
                                                       dict[str, Any]] | None:
    """A hand of play the procedure search finds to tell the option's other reading (made its default) from the
    spec's, parted as a bot hand is; None when it finds none within SEARCH_BUDGET candidates."""
    from checker.separating.search import PLAY_FAILURES, Separation, separate
    from checker.mutate.edits import option_default

    try:
        found = separate(ruleset, option_default(ruleset.id, ruleset.options[option_id], value), [{}],
                         budget=SEARCH_BUDGET)
    except PLAY_FAILURES:
        return None
    if not isinstance(found, Separation):
        return None
    data = dict(found.case["input"])
    events = list(data.pop("events"))
    header = {"game": GAME, "version": VERSION, "ruleset": ruleset.id, **data}
    parted = _parting(header, events, default_opts, other_opts)
    if parted is None:
        return None
    return parted[0], parted[1], parted[2], header


def hunt_table_options(ruleset: Ruleset, hands: int, seed: int,
                       progress: Callable[[str], None] = lambda _: None) -> list[Finding]:
    out = []
    for oid, option in ruleset.options.items():
        if option.read_by != "table":
            continue
        for value in option.other_values():
            progress(f"{oid}={value_key(value)}")
            found = hunt_table_option(ruleset, oid, value, hands, seed)
            if found is not None:
                out.append(found)
    return out


def _brief(judgement: Mapping[str, Any]) -> str:
    if judgement["verdict"] == "illegal":
        return f"illegal at event {judgement['event']} ({judgement['rule']})"
    if judgement["verdict"] == "legal" and "payments" in judgement:
        return f"legal, payments {judgement['payments']}, next dealer seat {judgement['next_dealer']}"
    return judgement["verdict"]
