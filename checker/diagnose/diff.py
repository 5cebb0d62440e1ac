"""Where an engine's result departs from a case's `expect`: the fields that differ and the fan diff.

The fan diff lists fans the expectation has and the result lacks (`missing`), fans the result adds (`extra`)
and fans both have with other points or counts (`different`). Where the expectation or the result is an
`either` list, the closest pair is shown (the fewest differences).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from collections.abc import Mapping
from typing import Any

from checker.case import readings_of, winners_match


@dataclass(frozen=True)
class FanDiff:
    """How one result departs from one expectation. `fields` maps a key other than `fans` to (expected, actual)."""

    missing: tuple[Mapping[str, Any], ...] = ()
    extra: tuple[Mapping[str, Any], ...] = ()
    different: tuple[tuple[Mapping[str, Any], Mapping[str, Any]], ...] = ()
    fields: tuple[tuple[str, Any, Any], ...] = ()

    @property
    def size(self) -> int:
        return len(self.missing) + len(self.extra) + len(self.different) + len(self.fields)


    def as_json(self) -> dict[str, Any]:
        return {"missing": list(self.missing), "extra": list(self.extra),
                "different": [{"expected": e, "actual": a} for e, a in self.different],
                "fields": {k: {"expected": e, "actual": a} for k, e, a in self.fields}}


def diff(expected: Mapping[str, Any] | None, actual: Mapping[str, Any] | None) -> FanDiff:
    """The closest reading of how `actual` departs from `expected` (empty when they agree)."""
    wants = _members(expected)
    gots = _members(actual)
    return min((_diff_one(w, g) for w in wants for g in gots), key=lambda d: d.size, default=FanDiff())


def _members(value: Mapping[str, Any] | None) -> list[Mapping[str, Any]]:
    return readings_of(value) or [{}]


def _fans(result: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    fans = result.get("fans")
    if not isinstance(fans, list):
        return {}
    return {str(f.get("id")): f for f in fans if type(f) is dict or isinstance(f, Mapping)}  # (a dict: no ABC check)


def _diff_one(expected: Mapping[str, Any], actual: Mapping[str, Any]) -> FanDiff:
    fields = tuple((key, want, actual.get(key)) for key, want in expected.items()
                   if key != "fans" and actual.get(key) != want and
                   not (key == "winners" and winners_match(actual.get(key), want)))
    if "fans" not in expected:
        return FanDiff(fields=fields)
    want, got = _fans(expected), _fans(actual)
    missing = tuple(f for fan_id, f in want.items() if fan_id not in got)
    extra = tuple(f for fan_id, f in got.items() if fan_id not in want)
    different = tuple((f, got[fan_id]) for fan_id, f in want.items()
                      if fan_id in got and (f.get("points"), f.get("count")) != (got[fan_id].get("points"),
                                                                                  got[fan_id].get("count")))
    return FanDiff(missing, extra, different, fields)


def describe(found: FanDiff) -> list[str]:
    """The diff as plain text lines (for a terminal: the pytest plugin's failure report), one per difference:
    `missing` fans the expectation has and the result lacks, `extra` fans the result adds, `different` fans
    both have with other points or count, then each other field that differs."""
    def fan(f: Mapping[str, Any]) -> str:
        return f"{f.get('id')} {f.get('points')}×{f.get('count')}"

    lines = [f"missing    {fan(f)}  (expected, not in the result)" for f in found.missing]
    lines += [f"extra      {fan(f)}  (in the result, not expected)" for f in found.extra]
    lines += [f"different  {e.get('id')}: expected {e.get('points')}×{e.get('count')}, "
              f"got {a.get('points')}×{a.get('count')}" for e, a in found.different]
    lines += [f"{key}: expected {json.dumps(want, ensure_ascii=False, default=repr)}, got {json.dumps(got, ensure_ascii=False, default=repr)}"
              for key, want, got in found.fields]
    return lines
