"""The sweep report (`DIR/sweep.md`, `DIR/sweep.html`, `DIR/sweep.json`): hands and cases checked, agreements, and
every class of disagreement with its count, its smallest witness (the first in the space's order) in words, the
command that reproduces it, and its cause. sweep.html is the same page, self-contained (template
`templates/sweep.html.j2` on the findings pages' layout, `checker.hunt.page`): each witness drawn as tiles
(`checker.draw`, inline SVG titled with each tile's name), fans by their English names, readable 390 pixels wide.

A class's cause is found by the search a conformance run uses (`checker.sweep.causes`, `checker.diagnose`): the
smallest departure from the rules (an option's other reading, a one-step spec edit, a context reading, two of
them, fans outside the spec, alone or after a departure) under which the reference engine gives the other
engine's results on the class's witnesses (one a shard, up to a dozen) and changes none of a sample of the cases
on which both engines agree; else the class is `unexplained`, with what was tried. Causes are named with the
words and ids of a conformance summary (`cause.explained_by[]`: kind, id, words, rules, explains, of,
passing_checked).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping, Sequence

from markupsafe import Markup, escape

from checker.files import write_text
from checker.hunt.page import Drawing, fan_names, gloss, hand_html, prose, render
from checker.spec import value_key
from checker.sweep.causes import MAX_WITNESSES, Sample, agreeing_sample, named_causes
from checker.sweep.run import Plan, write_json
from checker.sweep.work import describe_context


def merge(shards: Sequence[Mapping[str, Any]]) -> tuple[dict[str, Any], list[list[dict[str, Any]]]]:
    """The shards' summaries as one (totals, and each class with its count and the witness of the lowest shard),
    and for each of its classes, in its order, the witness each shard kept (`witness`, `reference`, `other`),
    lowest shard first."""
    hands = sum(s["hands"] for s in shards)
    cases = sum(s["cases"] for s in shards)
    agreed = sum(s["agreed"] for s in shards)
    ruled_out = sum(s.get("ruled_out", 0) for s in shards)
    classes: dict[str, dict[str, Any]] = {}
    seen: dict[str, list[dict[str, Any]]] = {}
    for s in sorted(shards, key=lambda s: s["start"]):
        for c in s["classes"]:
            key = repr(c["key"])
            seen.setdefault(key, []).append({k: c[k] for k in ("witness", "reference", "other")})
            if key in classes:
                classes[key]["count"] += c["count"]
            else:
                classes[key] = dict(c)
    ordered = sorted(classes.values(), key=lambda c: -c["count"])
    return ({"hands": hands, "cases": cases, "agreed": agreed, "ruled_out": ruled_out, "classes": ordered},
            [seen[repr(c["key"])] for c in ordered])


def write_report(plan: Plan, out_dir: Path, shards: Sequence[Mapping[str, Any]], complete: bool,
                 sample: Sample | None = None, effort: int = 1, search: bool = True) -> dict[str, Any]:
    """Merge the shards, name each class's cause (checked against `sample`, by default the agreeing cases of
    hands spread over the space, scored now; `effort` times the default search, none without `search`) and write
    sweep.json, sweep.md and sweep.html; the report's body."""
    merged, witnesses = merge(shards)
    if sample is None:
        sample = agreeing_sample(plan) if merged["classes"] and search else Sample((), 0)
    for c, named in zip(merged["classes"], named_causes(plan, merged["classes"], witnesses, sample, effort, search)):
        c.update(named)
    checked: dict[str, Any] = {"agreeing_cases": len(sample.cases), "hands": sample.hands,
                               "witnesses_a_class": MAX_WITNESSES}
    if sample.problem is not None:
        checked["problem"] = sample.problem
    body = {"sweep": {"ruleset": plan.ruleset, "space": plan.space, "against": plan.against,
                      "options": plan.options, "against_options": plan.against_options, "limit": plan.limit,
                      "context": plan.context, "open_melds": plan.open_melds if plan.space == "open" else None},
            "complete": complete, "planned_hands": plan.hands(), "causes_checked": checked, **merged}
    write_json(out_dir / "sweep.json", body)
    write_text(str(out_dir / "sweep.md"), page(body))
    write_text(str(out_dir / "sweep.html"), html_page(body))
    return body


def explained_by(c: Mapping[str, Any]) -> str:
    """A class's cause in a line: each departure named (words, then id) with the witnesses it reproduces and the
    agreeing cases it was checked against, or `unexplained` (a report written before causes were searched: its
    `explained_by` text)."""
    if "cause" not in c and isinstance(c.get("explained_by"), str):
        return c["explained_by"]
    cause = c.get("cause") or {}
    named = cause.get("explained_by") or []
    if not named:
        if "tried" in cause:
            tried = ", ".join(f"{n} {kind}" for kind, n in cause["tried"].items())
            return f"unexplained (tried: {tried})" if tried else "unexplained"
        return str(cause.get("verdict", "unexplained"))
    said = "; ".join(f"{e['words']} (`{e['id']}`: {e['explains']} of {e['of']} witnesses"
                     + (f", checked against {e['passing_checked']:,} agreeing cases" if e.get("passing_checked") else "")
                     + ")" for e in named)
    if cause.get("unexplained"):
        said += f"; {cause['unexplained']} witnesses unexplained"
    return said


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


def _heading(body: Mapping[str, Any]) -> tuple[str, str, str]:
    """The sweep's ruleset with its space and context, the engine it is held against (with its options), and the
    sentence of what was checked and found."""
    sweep = body["sweep"]
    against = sweep["against"] + (" with " + ", ".join(f"{k}={value_key(v)}" for k, v in
                                                       sweep["against_options"].items())
                                  if sweep["against_options"] else "")
    context = describe_context(sweep.get("context") or {})
    ruled_out = (f" {body['ruled_out']:,} cases the ruleset's hand checks refuse under this context were left out."
                 if body.get("ruled_out") else "")
    said = (f"{'Complete' if body['complete'] else 'Partial (resume it with --resume)'}: "
            f"{body['hands']:,} of {body['planned_hands']:,} hands, {body['cases']:,} cases (each distinct "
            f"winning tile, self-drawn and on a discard); {body['agreed']:,} agree, "
            f"{body['cases'] - body['agreed']:,} disagree in {len(body['classes'])} classes.{ruled_out}")
    return f"{sweep['space']}{', ' + context if context else ''}", against, said


def page(body: Mapping[str, Any]) -> str:
    sweep = body["sweep"]
    space, against, said = _heading(body)
    lines = [f"# Sweep of `{sweep['ruleset']}` ({space}) against {against}", "", said, "",
             f"Made by `{command_of(sweep)}` (DIR/sweep.json holds every class with its witness).", ""]
    if body["classes"] and "causes_checked" in body:
        lines += [_checked_words(body["causes_checked"]), ""]
    if body["classes"]:
        lines += ["| class | cases | what differs (reference vs other) | explained by | smallest witness |",
                  "|---:|---:|---|---|---|"]
    for number, c in enumerate(body["classes"], 1):
        lines.append(f"| {number} | {c['count']:,} | {_diff(c['key'])} | {_ids(c)} | `{_hand(c['witness'])}` |")
    if body["classes"]:
        lines += ["", "## Classes"]
    for number, c in enumerate(body["classes"], 1):
        lines += ["", f"### {number}. {_diff(c['key'])}: {c['count']:,} cases", "",
                  f"Explained by: {explained_by(c)}.", ""]
        if c.get("words"):
            lines += [f"Witness: {c['words']}.", ""]
        if c.get("reproduce"):
            lines += ["```sh", c["reproduce"], "```"]
    return "\n".join(lines) + "\n"


def _checked_words(checked: Mapping[str, Any]) -> str:
    said = (f"Each class's cause is searched as `mjcheck conform` searches a failure class's, on the witnesses "
            f"of up to {checked.get('witnesses_a_class', MAX_WITNESSES)} shards, and checked against "
            f"{checked.get('agreeing_cases', 0):,} cases on which both engines agree (from "
            f"{checked.get('hands', 0):,} hands spread over the space, scored on both when this report was "
            f"written): a cause changes none of them.")
    if checked.get("problem"):
        said += f" No agreeing case could be scored: {checked['problem']}."
    return said


def _ids(c: Mapping[str, Any]) -> str:
    if "cause" not in c and isinstance(c.get("explained_by"), str):
        return c["explained_by"]
    cause = c.get("cause") or {}
    named = [f"`{e['id']}`" for e in cause.get("explained_by") or []]
    if not named:
        return "unexplained" if cause.get("verdict") != "not searched" else "not searched"
    return ", ".join(named) + (f" ({cause['unexplained']} witnesses unexplained)" if cause.get("unexplained") else "")


def _hand(w: Mapping[str, Any]) -> str:
    melds = "".join(f" [{m['type']} {m['tiles']}]" for m in w.get("melds") or [])
    return f"{w['concealed']}{melds} + {w['win_tile']} ({w['win_by'].replace('_', ' ')})"


def html_page(body: Mapping[str, Any]) -> str:
    """sweep.html: the page of `page` as one self-contained HTML page, each witness drawn as tiles."""
    sweep = body["sweep"]
    ruleset_id = sweep["ruleset"]
    space, against, said = _heading(body)
    drawing, names = Drawing(), fan_names(ruleset_id)
    classes = []
    for c in body["classes"]:
        w = c["witness"]
        melds = Markup("").join(Markup(" [{} {}]").format(m["type"], drawing.tiles(m["tiles"]))
                                for m in w.get("melds") or [])
        classes.append({
            "count": f"{c['count']:,}", "diff": _diff_html(c["key"], names), "ids": prose(_ids(c), ruleset_id),
            "explained_by": prose(explained_by(c), ruleset_id),
            "small": Markup("{}{} + {} ({})").format(drawing.tiles(w["concealed"]), melds, drawing.tiles(w["win_tile"]),
                                                     w["win_by"].replace("_", " ")),
            "hand": hand_html(w, drawing, ruleset_id), "words": gloss(c.get("words") or "", ruleset_id),
            "reproduce": c.get("reproduce")})
    checked = _checked_words(body["causes_checked"]) if "causes_checked" in body else ""
    return render("checker.sweep/sweep.html.j2", ruleset_id=ruleset_id, space=gloss(space, ruleset_id),
                  against=against, said=said, command=command_of(sweep), checked=prose(checked, ruleset_id),
                  classes=classes, sprite=drawing.sprite())


def _diff_html(key: list, names: Mapping[str, str]) -> Markup:
    """What differs between the engines (`_diff`), each fan by its English name (its id as the title)."""
    parts = []
    for item in key:
        if item[0] == "verdict":
            parts.append(Markup("verdict: reference <code>{}</code>, other <code>{}</code>").format(item[1], item[2]))
        else:
            parts.append(Markup('<span class="fan" title="{}">{}</span> {} vs {}').format(
                item[0], names.get(item[0], item[0]), item[1], item[2]))
    return Markup("; ").join(parts) if parts else escape("")


def main(argv: list[str]) -> None:
    """`python -m checker.sweep.report DIR/sweep.json …`: write each sweep report's HTML page beside it (the same
    name, `.html`) from the JSON alone, without sweeping again (the checked-in reports/sweep-*.html are made so)."""
    from checker.inputs import FILE_JSON, parse_json, read_text_file

    for name in argv:
        body = parse_json(read_text_file(name, FILE_JSON.max_bytes, "sweep report"), name, limits=FILE_JSON)
        write_text(str(Path(name).with_suffix(".html")), html_page(body))


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
