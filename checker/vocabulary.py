"""A ruleset's vocabulary: every word an engine's answers and a case's input may use, read off the spec. The
pattern ids (with their English and Chinese names, kind, points and source sentence), the flags and counters a
hand may carry, the options with their readings, and the rule ids a refusal may name (with what each refuses).

`mjcheck rulesets --patterns [RULESET]` prints it; docs/vocabulary.md is the same for the shipped rulesets,
made by `python -m checker.vocabulary --write [FILE]` in a checkout (tests/test_vocabulary.py keeps it current).
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from checker.spec import Ruleset, load_ruleset, value_key
from checker.spec.model import ENGINE_RULES, OptionRef

DOC = Path("docs") / "vocabulary.md"  # in a checkout, from its top folder
# the case format's own refusals of an input, whatever the ruleset (docs/contracts.md)
INPUT_RULES = {
    "input.tile": "a tile written wrong (`1m`-`9m`, `1p`-`9p`, `1s`-`9s`, `1z`-`7z`, `1f`-`8f`), or no tiles",
    "input.meld": "a meld of an unknown type, whose tiles do not make it, or holding a flower",
    "input.win_tile": "no winning tile, more than one, or a robbed kong's tile the winner holds another copy of",
    "input.win_by": "a way of winning other than self_draw, discard, robbing_kong",
    "input.discarder": "a self-drawn win with a discarder, or a discard or robbed-kong win without one (seat 1-3)",
    "input.wind": "a seat or round wind other than E, S, W, N",
    "input.flowers": "a tile among the flowers that is not one, or a flower among the hand's tiles",
    "input.flags": "a flag the ruleset does not declare",
    "input.counters": "a counter the ruleset does not declare, or a value outside its range",
}


def vocabulary(ruleset: Ruleset) -> dict[str, Any]:
    """The vocabulary of one ruleset, as data."""
    patterns = []
    for p in ruleset.patterns:
        points = p.points if not isinstance(p.points, OptionRef) else f"option {p.points.option}"
        source = p.sources[0] if p.sources else None
        patterns.append({"id": p.id, "en": p.name_en, "zh": p.name_zh, "kind": p.kind, "points": points,
                         "requirement": p.requirement,
                         "source": {"doc": source.doc, "section": source.section, "phrase": source.phrase}
                         if source is not None else None})
    return {
        "id": ruleset.id, "title": ruleset.title, "patterns": patterns,
        "flags": dict(ruleset.flags),
        "counters": {c.name: {"about": c.about, "min": c.min, "max": c.max, "rule": c.rule}
                     for c in ruleset.counters.values()},
        "options": {o.id: {"default": value_key(o.default), "values": [value_key(v) for v in o.values],
                           "readings": dict(o.readings), "read_by": o.read_by} for o in ruleset.options.values()},
        "refusals": refusals(ruleset),
    }


def refusals(ruleset: Ruleset) -> dict[str, str]:
    """The rule ids a refusal may name (the `error` of an answer that may not win), each with what it refuses:
    the spec's hand checks, the flags a win requires, the wins it refuses by their context, the minimum, the
    counters' own rules, the engine's tile and context rules, and the case format's input rules."""
    out: dict[str, str] = {}
    for check in ruleset.hand_checks:
        out[check.id] = check.message
    for flag, rule, message, _ in ruleset.win.requires_flags:
        out[rule] = message or f"a win needs the flag {flag}"
    for refusal in ruleset.win.refused_when:
        out[refusal.rule] = refusal.words()
    if ruleset.win.minimum_points:
        out["win.minimum_points"] = f"fewer than {ruleset.win.minimum_points} points" + (
            f" (before {', '.join(ruleset.win.minimum_excludes)})" if ruleset.win.minimum_excludes else "")
    if ruleset.win.requires_allowing_pattern is not False:
        allowing = [p.id for p in ruleset.patterns if p.allows_win]
        out[ruleset.win.allowing_pattern_rule] = "a hand with none of the patterns that allow a win (" + \
            ", ".join(allowing) + ")" + (" (under an option)" if ruleset.win.requires_allowing_pattern is not True
                                         else "")
    for c in ruleset.counters.values():
        if c.rule != "input.counters":
            out[c.rule] = f"counter {c.name} outside {c.min}-{c.max}: {c.about}"
    for rule, where in ENGINE_RULES.items():
        if rule.startswith(("tiles.", "context.", "win.")) and rule not in out:
            out[rule] = where.removeprefix("the engine: ")
    out.update(INPUT_RULES)
    return out


def markdown(rulesets: list[Ruleset]) -> str:
    """The vocabulary of these rulesets as a Markdown page."""
    lines = ["# The vocabulary of each ruleset", "",
             "Every id an engine's answers and a case's input may use, read off the specs (made by `python -m "
             "checker.vocabulary --write`; `mjcheck rulesets --patterns RULESET` prints the same). An engine may "
             "name a fan by its id, or by its English or Chinese name (conformance reads those as the id).", ""]
    for rs in rulesets:
        v = vocabulary(rs)
        lines += [f"## {rs.title} (`{rs.id}`)", "", "### Patterns", "",
                  "| id | English | Chinese | kind | points | source |", "|---|---|---|---|---:|---|"]
        for p in v["patterns"]:
            src = p["source"]
            said = f"{src['doc']} ({src['section']}): {src['phrase']}" if src else ""
            lines.append(f"| `{p['id']}` | {_cell(p['en'])} | {_cell(p['zh'])} | {p['kind']} | {p['points']} | "
                         f"{_cell(said)} |")
        lines += ["", "### Flags", ""] + [f"- `{k}`: {_cell(a)}" for k, a in v["flags"].items()]
        lines += ["", "### Counters", ""] + [f"- `{k}` ({c['min']}-{c['max']}): {_cell(c['about'])}"
                                             for k, c in v["counters"].items()] or ["(none)"]
        lines += ["", "### Options", ""]
        for oid, o in v["options"].items():
            readings = "; ".join(f"`{k}`: {_cell(w)}" for k, w in o["readings"].items())
            lines.append(f"- `{oid}` (default `{o['default']}`, read by the {o['read_by']}): {readings}")
        lines += ["", "### Refusals (the rule an answer that may not win names)", ""]
        lines += [f"- `{k}`: {_cell(w)}" for k, w in v["refusals"].items()]
        lines.append("")
    return "\n".join(lines)


def _cell(text: Any) -> str:
    return " ".join(str(text or "").split()).replace("|", "\\|")


def shipped() -> list[Ruleset]:
    """The rulesets shipped in spec/ (not those of MJCHECK_SPEC_PATH folders)."""
    from checker.spec.files import ruleset_files, spec_dir

    folder = spec_dir().resolve()
    return [load_ruleset(rid) for rid, path in ruleset_files().items() if Path(path).resolve().parent == folder]


def main(argv: list[str]) -> int:
    page = markdown(shipped())
    if argv[1:2] == ["--write"]:
        target = Path(argv[2]) if len(argv) > 2 else DOC
        target.write_text(page, encoding="utf-8")
        print(f"written: {target}")
        return 0
    print(page, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
