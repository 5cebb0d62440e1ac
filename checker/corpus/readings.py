"""Where an option's readings part: a hand whose result under one reading differs from its result under
another, found by scoring candidate hands under each reading until the results differ.

For an option with values d (the default) and v1, v2, …, each vi is compared with d. When no candidate
parts them with every other option at its default, the search is repeated with one other option set to each
of its other values (some options only matter under another's reading: 抢杠 ×3 on each payer needs the other
players to pay for a discard at all), still within a fixed budget of scorings.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from checker.case import CaseRunner, readings_of
from checker.corpus.witnesses import Scored, score_input
from checker.spec import Ruleset


@dataclass(frozen=True)
class Parting:
    """Option `option` parts on `input`: `base` options held fixed, `readings` the scored result per value."""

    option: str
    value: Any
    base: Mapping[str, Any]
    readings: tuple[Scored, Scored]  # (under the default reading, under `value`)


def find_partings(runner: CaseRunner, ruleset: Ruleset, inputs: Sequence[Mapping[str, Any]],
                  budget: int = 4000) -> tuple[list[Parting], dict[str, str]]:
    """Partings for every non-default value of every option, and for each option value none was found for,
    the reason. `inputs` are tried in order; `budget` bounds the scorings per option value."""
    partings: list[Parting] = []
    missing: dict[str, str] = {}
    for oid, option in ruleset.scoring_options().items():
        for value in option.other_values():
            found = _search(runner, ruleset, oid, value, inputs, budget)
            if found is None:
                missing[f"{oid}={_shown(value)}"] = (
                    f"no witness found: no result differed from the default reading on {len(inputs)} candidate "
                    f"hands, with every other option at its default or at one other value (budget {budget})")
            else:
                partings.append(found)
    return partings, missing


def _search(runner: CaseRunner, ruleset: Ruleset, oid: str, value: Any, inputs: Sequence[Mapping[str, Any]],
            budget: int) -> Parting | None:
    bases: list[dict[str, Any]] = [{}]
    for other, opt in ruleset.scoring_options().items():
        if other != oid:
            bases += [{other: v} for v in opt.other_values()]
    default = ruleset.options[oid].default
    first = min(len(inputs), budget // 2)
    rest = max(50, (budget - first) // max(1, len(bases) - 1))
    winning: Parting | None = None  # two winning results with other fans but the same value
    fallback: Parting | None = None  # one side refuses the win
    for n, base in enumerate(bases):
        for data in inputs[: first if n == 0 else rest]:
            a = score_input(runner, ruleset.id, {**base, oid: default}, data)
            if a.refused:
                continue
            b = score_input(runner, ruleset.id, {**base, oid: value}, data)
            if a.result != b.result:
                if a.valid and b.valid:
                    if _value(a.result) != _value(b.result):  # two winning results worth differently read best
                        return Parting(oid, value, base, (a, b))
                    winning = winning or Parting(oid, value, base, (a, b))
                fallback = fallback or Parting(oid, value, base, (a, b))
    return winning or fallback


def _value(result: Mapping[str, Any]) -> tuple:
    """What a player is paid: the total and the payments (of each reading, for an `either` result)."""
    return tuple((r.get("total"), tuple(r.get("payments") or ())) for r in readings_of(result))


def _shown(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)
