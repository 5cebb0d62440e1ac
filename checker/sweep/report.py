"""The sweep report (`DIR/sweep.md`, `DIR/sweep.json`): hands and cases checked, agreements, and every class of
disagreement with its count, its smallest witness (the first in the space's order) and what explains it.

A class is explained, as in the conformance report, by
- an option of the spec: the reference engine, set to one other reading, gives the other side's result on the
  witness (the reading is named);
- a fan outside the spec: the other side scores a fan the spec does not have;
- two options: the reference engine, set to other readings of two options at once, gives the other side's result
  (both readings are named);
- otherwise it is left `unexplained`, a bug on one side or a reading the spec has not made an option.
"""
from __future__ import annotations

from itertools import combinations
from pathlib import Path
from typing import Any, Mapping, Sequence

from checker.case import hand_from_input
from checker.engine import HandError
from checker.files import write_text
from checker.spec import value_key
from checker.sweep.run import Plan, write_json
from checker.sweep.work import agree, describe_context, reference, worker_runner


def merge(shards: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The shards' summaries as one: totals, and each class with its count and the witness of the lowest shard."""
    hands = sum(s["hands"] for s in shards)
    cases = sum(s["cases"] for s in shards)
    agreed = sum(s["agreed"] for s in shards)
    ruled_out = sum(s.get("ruled_out", 0) for s in shards)
    classes: dict[str, dict[str, Any]] = {}
    for s in sorted(shards, key=lambda s: s["start"]):
        for c in s["classes"]:
            key = repr(c["key"])
            if key in classes:
                classes[key]["count"] += c["count"]
            else:
                classes[key] = dict(c)
    ordered = sorted(classes.values(), key=lambda c: -c["count"])
    return {"hands": hands, "cases": cases, "agreed": agreed, "ruled_out": ruled_out, "classes": ordered}


def explain(plan: Plan, c: Mapping[str, Any]) -> str:
    """What explains one class (see the module's docstring): one reading of the spec's options, a fan outside the
    spec, or two readings together (the other side may follow other readings of several options at once)."""
    runner = worker_runner()
    ruleset = runner.ruleset(plan.ruleset)
    if plan.against == "reference":
        shown = ", ".join(f"{k}={value_key(v)}" for k, v in plan.against_options.items())
        return f"the reading {shown}" if shown else "the same readings: a defect of the reference engine"
    other = c["other"]
    target = (other["valid"], other["error"], other["fans"], ())
    hand = hand_from_input(c["witness"], runner.scorer(plan.ruleset, dict(plan.options)))
    readings = []  # (option, value, what the reading says): every value other than the sweep's own
    for oid, option in ruleset.scoring_options().items():
        readings += [(oid, v, option.readings.get(value_key(v), ""))
                     for v in option.other_values(plan.options.get(oid))]

    def explained_by(chosen: tuple) -> bool:
        scorer = runner.scorer(plan.ruleset, {**plan.options, **{oid: v for oid, v, _ in chosen}})
        return agree(reference(scorer)(hand), target)

    for one in readings:
        if explained_by((one,)):
            oid, value, says = one
            return f"the reading {oid}={value_key(value)} ({says})"
    known = {p.id for p in ruleset.patterns}
    outside = sorted(f for f in other["fans"] if f not in known)
    if outside:
        return f"a fan outside the spec: {', '.join(outside)}"
    for first, second in combinations(readings, 2):
        if first[0] != second[0] and explained_by((first, second)):
            return "the readings " + " and ".join(f"{oid}={value_key(v)} ({says})" for oid, v, says in (first, second))
    return "unexplained"


def write_report(plan: Plan, out_dir: Path, shards: Sequence[Mapping[str, Any]], complete: bool) -> dict[str, Any]:
    merged = merge(shards)
    for c in merged["classes"]:
        try:
            c["explained_by"] = explain(plan, c)
        except (HandError, KeyError, TypeError) as exc:  # a witness that is no hand: a shard forged with its sum
            c["explained_by"] = f"unexplained (its witness cannot be scored: {exc})"
    body = {"sweep": {"ruleset": plan.ruleset, "space": plan.space, "against": plan.against,
                      "options": plan.options, "against_options": plan.against_options, "limit": plan.limit,
                      "context": plan.context, "open_melds": plan.open_melds if plan.space == "open" else None},
            "complete": complete, "planned_hands": plan.hands(), **merged}
    write_json(out_dir / "sweep.json", body)
    write_text(str(out_dir / "sweep.md"), page(body))
    return body


def command_of(sweep: Mapping[str, Any]) -> str:
    """The `mjcheck sweep` command line that makes this sweep (but for --out and the cluster's options)."""
    words = ["mjcheck sweep", f"--ruleset {sweep['ruleset']}", f"--space {sweep['space']}", f"--against {sweep['against']}"]
    words += [f"--options {k}={value_key(v)}" for k, v in sweep["options"].items()]
    words += [f"--against-options {k}={value_key(v)}" for k, v in sweep["against_options"].items()]
    context = sweep.get("context") or {}
    words += [f"--meld {m}" for m in context.get("melds", [])] + [f"--flag {f}" for f in context.get("flags", [])]
    words += [f"--{key.replace('_', '-')} {context[key]}" for key in ("seat_wind", "round_wind") if key in context]
    if sweep.get("open_melds") not in (None, 1):
        words.append(f"--open-melds {sweep['open_melds']}")
    if sweep.get("limit") is not None:
        words.append(f"--limit {sweep['limit']}")
    return " ".join(words) + " --out DIR"


def _diff(key: list) -> str:
    parts = []
    for item in key:
        if item[0] == "verdict":
            parts.append(f"verdict: reference {item[1]}, other {item[2]}")
        else:
            parts.append(f"{item[0]} {item[1]} vs {item[2]}")
    return "; ".join(parts)


def page(body: Mapping[str, Any]) -> str:
    sweep = body["sweep"]
    against = sweep["against"] + (" with " + ", ".join(f"{k}={value_key(v)}" for k, v in
                                                       sweep["against_options"].items())
                                  if sweep["against_options"] else "")
    context = describe_context(sweep.get("context") or {})
    ruled_out = (f" {body['ruled_out']:,} cases the ruleset's hand checks refuse under this context were left out."
                 if body.get("ruled_out") else "")
    lines = [f"# Sweep of `{sweep['ruleset']}` ({sweep['space']}{', ' + context if context else ''}) against {against}",
             "",
             f"{'Complete' if body['complete'] else 'Partial (resume it with --resume)'}: "
             f"{body['hands']:,} of {body['planned_hands']:,} hands, {body['cases']:,} cases (each distinct "
             f"winning tile, self-drawn and on a discard); {body['agreed']:,} agree, "
             f"{body['cases'] - body['agreed']:,} disagree in {len(body['classes'])} classes.{ruled_out}", "",
             f"Made by `{command_of(sweep)}` (DIR/sweep.json holds every class with its witness).", "",
             "| cases | what differs (reference vs other) | explained by | smallest witness |", "|---:|---|---|---|"]
    for c in body["classes"]:
        w = c["witness"]
        melds = "".join(f" [{m['type']} {m['tiles']}]" for m in w.get("melds") or [])
        shown = f"{w['concealed']}{melds} + {w['win_tile']} ({w['win_by'].replace('_', ' ')})"
        lines.append(f"| {c['count']:,} | {_diff(c['key'])} | {c['explained_by']} | `{shown}` |")
    return "\n".join(lines) + "\n"
