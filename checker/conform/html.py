"""`DIR/report.html`: a self-contained page (inline CSS and script, nothing fetched) of a conformance run.

Each case's hand is drawn as a row of Unicode mahjong tiles (U+1F000…, read with `checker.tiles`); cases can
be filtered by rule (`covers`), by outcome and by option (the case's own options, or the option reading
that explains a failure); each failed case shows its expected and actual fans side by side, the fans that
differ marked. Failures are grouped by the option reading or the rule that explains them, and the inferred
profile is shown. With a known file, new failure classes and cases come first, declared departures apart.
The template `templates/report.html.j2` ships as package data.
"""
from __future__ import annotations

from functools import lru_cache
from importlib import resources
from collections.abc import Mapping
from typing import Any, Sequence

import jinja2

from checker.case import readings_of

from checker.diagnose.diff import FanDiff, diff
from checker.conform.known import declaration_words, declared_cases, in_order
from checker.conform.profile import case_name, shared_runner
from checker.conform.report import fan_diff_lines, latest, verdict_text
from checker.conform.results import OUTCOMES, CaseResult
from checker.inputs import json_text
from checker.spec import value_key
from checker.tiles import parse_tile, parse_tiles, tile_name

MAX_ROWS = 2000  # cases drawn on the page (failed, errored and skipped first); results.jsonl has them all
DEFAULTS = "(defaults)"  # the option filter's entry for cases that set no option


@lru_cache(maxsize=1)
def _glyphs() -> dict[int, str]:
    """Tile number → its Unicode mahjong tile character."""
    return {parse_tile(chr(cp)): chr(cp) for cp in range(0x1F000, 0x1F02A)}


def tile_row(text: Any) -> list[dict[str, str]]:
    """The tiles of a tile string as glyph + name pairs; [] when it does not parse."""
    if not isinstance(text, str) or not text:
        return []
    try:
        tiles = parse_tiles(text)
    except ValueError:
        return []
    glyphs = _glyphs()
    return [{"glyph": glyphs.get(t, "?"), "name": tile_name(t)} for t in tiles]


def hand_groups(given: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """A case input as groups of tiles: the concealed tiles, each meld, the winning tile, the flowers.
    A group that does not parse is shown as its text."""
    if not isinstance(given, Mapping):
        return []
    groups: list[dict[str, Any]] = []

    def add(label: str, text: Any, kind: str) -> None:
        if text in (None, "", []):
            return
        if isinstance(text, list):
            text = " ".join(str(t) for t in text)
        groups.append({"label": label, "kind": kind, "tiles": tile_row(text), "text": str(text)})

    add("concealed", given.get("concealed"), "concealed")
    melds = given.get("melds")
    for m in melds if isinstance(melds, list) else []:  # a results file is input like any other
        if isinstance(m, Mapping):
            label = f"{'concealed ' if m.get('concealed') else ''}{m.get('type', 'meld')}"
            add(label, m.get("tiles"), "meld")
    add("wins on", given.get("win_tile"), "win")
    add("flowers", given.get("flowers"), "flowers")
    return groups


def _closest(value: Mapping[str, Any] | None, other: Mapping[str, Any] | None, first: bool) -> Mapping[str, Any]:
    """The member of an `either` result closest to the other side (the whole value otherwise)."""
    members = readings_of(value)
    if not members:
        return {}
    return min(members, key=lambda m: (diff(m, other) if first else diff(other, m)).size)


def _fan_rows(result: Mapping[str, Any], marks: Mapping[str, str], names: Mapping[str, str]) -> list[dict[str, Any]]:
    fans = result.get("fans")
    rows = []
    for f in fans if isinstance(fans, list) else []:
        if isinstance(f, Mapping):
            fan_id = str(f.get("id"))
            rows.append({"id": fan_id, "name": names.get(fan_id, ""), "points": f.get("points"),
                         "count": f.get("count"), "mark": marks.get(fan_id, "")})
    return rows


def _side_by_side(r: CaseResult, names: Mapping[str, str]) -> dict[str, Any]:
    expected = _closest(r.expected, r.actual if isinstance(r.actual, Mapping) else None, True)
    actual = _closest(r.actual, expected, False)
    found: FanDiff = diff(expected, actual)
    want = {str(f.get("id")): "missing" for f in found.missing}
    got = {str(f.get("id")): "extra" for f in found.extra}
    for e, _ in found.different:
        want[str(e.get("id"))] = got[str(e.get("id"))] = "different"
    fields = [{"key": k, "expected": json_text(e), "actual": json_text(a)} for k, e, a in found.fields]
    return {"expected": _fan_rows(expected, want, names), "actual": _fan_rows(actual, got, names),
            "expected_total": expected.get("total"), "actual_total": actual.get("total"),
            "fields": fields, "lines": [line[2:] for line in fan_diff_lines(found)]}


def _fan_names(results: Sequence[CaseResult]) -> dict[str, dict[str, str]]:
    """Per ruleset: fan id → "English 中文" from the spec, for the rulesets that load."""
    runner = shared_runner()
    names: dict[str, dict[str, str]] = {}
    for ruleset_id in sorted({r.ruleset for r in results if r.ruleset}):
        try:
            names[ruleset_id] = {p.id: f"{p.name_en} {p.name_zh}".strip()
                                 for p in runner.ruleset(ruleset_id).patterns}
        except ValueError:
            names[ruleset_id] = {}
    return names


def _rows(cases: Sequence[CaseResult], summary: Mapping[str, Any]) -> tuple[list[dict[str, Any]], int]:
    explains: dict[str, list[str]] = {}
    for key, members in (summary.get("failures") or {}).get("by_option", {}).items():
        for name in members:
            explains.setdefault(name, []).append(key)
    shown = [r for r in cases if r.outcome != "passed"][:MAX_ROWS]
    shown += [r for r in cases if r.outcome == "passed"][:MAX_ROWS - len(shown)]
    keep = {id(r) for r in shown}
    names = _fan_names(shown)
    declared = declared_cases(summary, cases)
    if declared:  # new failures first, then the declared departures, then the rest
        failing = ("failed", "errored")
        cases = sorted(cases, key=lambda r: (0 if r.outcome in failing and r.key not in declared
                                             else 1 if r.key in declared else 2))
    rows = []
    for r in cases:
        if id(r) not in keep:
            continue
        name = case_name(r)
        options = [f"{k}={value_key(v)}" for k, v in sorted((r.options or {}).items())]
        rows.append({
            "name": name, "id": r.id or "", "line": r.line, "outcome": r.outcome, "ruleset": r.ruleset or "",
            "covers": list(r.covers), "options": options, "explained": explains.get(name, []),
            "filter_options": options + [f"explained: {k}" for k in explains.get(name, [])] + ([] if options else [DEFAULTS]),
            "hand": hand_groups(r.input), "reason": r.reason or "", "declared": r.key in declared,
            "compare": _side_by_side(r, names.get(r.ruleset or "", {})) if r.outcome == "failed" else None,
        })
    return rows, len(cases) - len(rows)


def html_report(summary: Mapping[str, Any], results: Sequence[CaseResult]) -> str:
    """report.html: the whole page as text."""
    cases = latest(results)
    rows, omitted = _rows(cases, summary)
    rules = sorted({c for row in rows for c in row["covers"]})
    options = sorted({o for row in rows for o in row["filter_options"]}, key=lambda o: (o == DEFAULTS, o))
    profile = {rs: ({**entry, "options": {oid: {**o, "text": verdict_text(o)} for oid, o in entry["options"].items()}}
                    if "options" in entry else entry) for rs, entry in (summary.get("profile") or {}).items()}
    return _template().render(summary=summary, engine=summary.get("engine") or {}, counts=summary["counts"],
                              rows=rows, omitted=omitted, rules=rules, options=options, outcomes=OUTCOMES,
                              failures=summary["failures"], profile=profile,
                              classes=in_order(summary.get("classes") or []), known=summary.get("known"),
                              declaration_words=declaration_words) + "\n"


@lru_cache(maxsize=1)
def _template() -> jinja2.Template:
    text = resources.files("checker.conform").joinpath("templates/report.html.j2").read_text(encoding="utf-8")
    env = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True,
                             lstrip_blocks=True, keep_trailing_newline=False)
    return env.from_string(text)
