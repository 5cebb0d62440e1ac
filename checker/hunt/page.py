"""`findings-R.md`: the findings of one ruleset as a page a mahjong player reads without the code: counts by
kind at the top, then each finding with the sentences of the document it rests on, the witness drawn as tiles,
what each reading gives, and the option that decides it in the spec."""
from __future__ import annotations

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
             f" (the same seed runs each search the same way; how many run depends on the budget). Each witness is a case: `mjcheck score --case` (a hand) or "
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
            if o.get("input"):  # the other hand of a comparison (a non-monotonic finding's smaller hand)
                lines.append(f"  (that hand: {hand_line(o['input'])})")
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
        dealer = data.get("dealer", 0)
        lines = [f"**The hand of play** (seat {dealer} deals; {len(events)} events"
                 + (", the last ones" if len(events) > 16 else "") + "):", ""]
        if "wall" in data:
            hands = _dealt(data["wall"], dealer)
            lines += [f"- seat {seat} is dealt {drawn(T.format_tiles(sorted(hands[seat])))}" for seat in range(4)]
            lines.append("")
        else:
            lines += [f"- the wall: the 144 tiles shuffled by seed {data.get('seed')}", ""]
        shown = events if len(events) <= 16 else events[-8:]
        lines += [f"{len(events) - len(shown) + i}. {_event(e)}" for i, e in enumerate(shown)]
        return lines
    return [f"**The hand**: {hand_line(data)}"]


def hand_line(data: Mapping[str, Any]) -> str:
    """A hand (a score case's input) in one line for players: tiles drawn, melds and who they came from, the
    winning tile and how, winds, flowers, context."""
    parts = [drawn(data.get("concealed", ""))]
    for m in data.get("melds") or []:
        how = "concealed kong" if m.get("concealed") else f"{m['type']} from {SEAT_WORDS.get(m.get('from'), 'a seat')}"
        parts.append(f"+ {how} {drawn(m['tiles'])}")
    way = data.get("win_by", "self_draw")
    seat = SEAT_WORDS.get(int(data.get("discarder") or 0), "another seat")
    how = {"self_draw": "drawn by the winner", "discard": f"discarded by {seat}",
           "robbing_kong": f"robbed from the kong of {seat}"}.get(way, way)
    parts.append(f"; wins on {drawn(data['win_tile'])}, {how}")
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
    return " ".join(parts) + f" ({winds}" + ("; " + "; ".join(extra) if extra else "") + ")."


def _dealt(wall_text: str, dealer: int) -> list[list[int]]:
    from checker.table.wall import deal_order

    wall = T.parse_tiles(wall_text)
    hands: list[list[int]] = [[], [], [], []]
    for i, seat in enumerate(deal_order(dealer, 14, 13)):
        hands[seat].append(wall[i])
    return hands


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
