"""`findings-R.md`: the findings of one ruleset as a page a mahjong player reads without the code: counts by
kind at the top, then each finding with the sentences of the document it rests on, the witness drawn as tiles,
what each reading gives, and the option that decides it in the spec."""
from __future__ import annotations

import json
from typing import Any, Mapping

from checker import tiles as T
from checker.hunt.findings import KINDS

# the Unicode Mahjong Tiles block, in checker.tiles order (1m-9m, 1p-9p, 1s-9s, E S W N, white green red, flowers)
_GLYPHS = ("🀇🀈🀉🀊🀋🀌🀍🀎🀏" "🀙🀚🀛🀜🀝🀞🀟🀠🀡" "🀐🀑🀒🀓🀔🀕🀖🀗🀘" "🀀🀁🀂🀃🀆🀅🀄" "🀢🀣🀤🀥🀦🀧🀨🀩")
SEAT_WORDS = {1: "the next player", 2: "the player across", 3: "the previous player"}
KIND_WORDS = {
    "contradiction": "two statements prescribe results that cannot both hold",
    "ambiguity": "a sentence reads two ways, and the readings give different results",
    "gap": "the document says nothing where a result is needed",
    "dead-rule": "a rule no legal hand can ever reach",
    "non-monotonic": "a hand worth less when it holds more",
    "cross-variant": "the same hand, decided differently by two rulesets",
}


def drawn(text: str) -> str:
    """Tiles as glyphs followed by their notation: `🀇🀈🀉 (1m2m3m)`."""
    if not text:
        return "—"
    tiles = T.parse_tiles(text)
    return "".join(_GLYPHS[t] for t in tiles) + f" ({T.format_tiles(tiles)})"


def page(ruleset_id: str, title: str, body: Mapping[str, Any]) -> str:
    counts = body["counts"]
    lines = [f"# What the hunt found in {title} (`{ruleset_id}`)", "",
             f"Found by `mjcheck hunt --ruleset {ruleset_id} --budget {body.get('budget')} --seed {body.get('seed')}`"
             f"; the same seed finds the same findings. Each witness is a case: `mjcheck score --case` (a hand) or "
             f"`mjcheck game validate` (a hand of play) replays it.", "",
             "| kind | what it means | findings |", "|---|---|---:|"]
    for kind in KINDS:
        lines.append(f"| {kind} | {KIND_WORDS[kind]} | {counts.get(kind, 0)} |")
    lines.append(f"| **all** | | **{sum(counts.values())}** |")
    for f in body["findings"]:
        lines += ["", f"## {f['id']} · {f['kind']} · {f['title']}", ""]
        if f["statements"]:
            lines.append("**What the document says**")
            lines.append("")
            for s in f["statements"][:6]:
                lines.append(f"> {s['phrase']}  ")
                lines.append(f"> — `{s['doc']}`, {s['section']}")
                lines.append("")
        lines += _witness(f["witness"])
        lines += ["", "**What each reading gives**", ""]
        for o in f["outcomes"]:
            means = f": {o['means']}" if o.get("means") else ""
            lines.append(f"- `{o['reading']}`{means} → {_result(o['result'])}")
        if f.get("deciding_option"):
            lines += ["", f"Decided in the spec by the option `{f['deciding_option']}`."]
        if f.get("note"):
            lines += ["", f"*Why:* {f['note']}"]
        lines += ["", f"<sub>method: {f['method']}; rules: {', '.join(f'`{r}`' for r in f['rules'])}</sub>"]
    return "\n".join(lines) + "\n"


def _witness(case: Mapping[str, Any]) -> list[str]:
    data = case["input"]
    if case.get("kind") == "procedure":
        events = data["events"]
        deal = ", ".join(f"{k} {json.dumps(v)}" for k, v in data.items() if k != "events")
        shown = [_event(e) for e in events[-8:]]
        return ["**The hand of play** (" + deal + f"; {len(events)} events, the last ones:)", "",
                *[f"{len(events) - len(shown) + i}. {s}" for i, s in enumerate(shown)]]
    parts = [f"**The hand**: {drawn(data.get('concealed', ''))}"]
    for m in data.get("melds") or []:
        how = "concealed kong" if m.get("concealed") else f"{m['type']} from {SEAT_WORDS.get(m.get('from'), 'a seat')}"
        parts.append(f"+ {how} {drawn(m['tiles'])}")
    way = data.get("win_by", "self_draw")
    src = f" discarded by {SEAT_WORDS.get(data.get('discarder'), 'another seat')}" if way != "self_draw" else ""
    parts.append(f"; wins on {drawn(data['win_tile'])} by {way.replace('_', ' ')}{src}")
    extra = []
    if data.get("flowers"):
        flowers = data["flowers"] if isinstance(data["flowers"], str) else "".join(data["flowers"])
        extra.append(f"flowers {drawn(flowers)}")
    flags = [k for k, v in (data.get("flags") or {}).items() if v]
    if flags:
        extra.append("context: " + ", ".join(flags))
    if data.get("counters"):
        extra.append("counters: " + ", ".join(f"{k} {v}" for k, v in data["counters"].items()))
    winds = f"seat wind {data.get('seat_wind', 'E')}, round wind {data.get('round_wind', 'E')}"
    return [" ".join(parts) + f" ({winds}" + ("; " + "; ".join(extra) if extra else "") + ")."]


def _event(e: Mapping[str, Any]) -> str:
    words = [] if "seat" not in e else [f"seat {e['seat']}"]
    words.append(e["event"].replace("_", " "))
    if e.get("tiles"):
        words.append(drawn(e["tiles"]))
    elif e.get("tile"):
        words.append(drawn(e["tile"]))
    if e.get("from") == "back":
        words.append("(replacement)")
    return " ".join(words)


def _result(r: Mapping[str, Any]) -> str:
    if "verdict" in r:
        if r["verdict"] == "illegal":
            return f"illegal at event {r.get('event')}: `{r.get('rule')}` ({r.get('message', '')})"
        if "payments" in r:
            return f"{r['verdict']}; payments by seat {r['payments']}, next dealer seat {r.get('next_dealer')}"
        return f"{r['verdict']} (the hand goes on)" if r["verdict"] == "unfinished" else r["verdict"]
    if not r.get("valid"):
        return f"may not win (`{r.get('error')}`)"
    fans = ", ".join(f"{f['id']} {f['points']}" + (f"×{f['count']}" if f.get("count", 1) > 1 else "")
                     for f in r.get("fans", []))
    return f"worth **{r.get('total')}** ({fans}); payments {r.get('payments')}"
