"""`findings-R.md` and `findings-R.html`: the findings of one ruleset as a page a mahjong player reads without the
code: counts by kind at the top, then each finding with the sentences of the document it rests on, the witness
drawn as tiles, what each reading gives, and the option that decides it in the spec.

The Markdown page draws tiles as the Unicode Mahjong Tiles glyphs of `checker.draw.TILE_GLYPHS` (the one glyph
map, read back through the tile parser); the HTML page (template `templates/findings.html.j2`, self-contained:
inline CSS and SVG, nothing fetched) draws them with `checker.draw` (each tile an inline SVG titled with its
name) and fits a 390-pixel-wide screen. Chinese names on the HTML page carry their English (`gloss`): the
names of the specs' patterns and titles, then the terms of `TERMS`. The hand drawing, the glossary and the
page layout (`templates/base.html.j2`) are shared with the sweep's page (`checker.sweep.report`).
"""
from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources
from typing import Any, Mapping, Sequence

import jinja2
from markupsafe import Markup, escape

from checker import tiles as T
from checker.draw import TILE_GLYPHS, sprite, tile_use
from checker.hunt.findings import KINDS, PROVENANCE_WORDS
from checker.hunt.settle import NEAR_BOUND
from checker.spec.roles import CONTRACT_PARTNER

SEAT_WORDS = {1: "the next player", 2: "the player across", 3: "the previous player"}
KIND_WORDS = {
    "contradiction": "two statements prescribe results that cannot both hold",
    "ambiguity": "a sentence reads two ways, and the readings give different results",
    "gap": "the document says nothing where a result is needed",
    "dead-rule": "a rule no legal hand can ever reach",
    "non-monotonic": "a hand worth less when it holds more",
    "cross-variant": "the same hand, decided differently by two rulesets",
    "decided": "a point the document leaves open, decided by the spec or the engine without it",
}


def drawn(text: str) -> str:
    """Tiles as glyphs followed by their notation: `🀇🀈🀉 (1m2m3m)`."""
    if not text:
        return "—"
    tiles = T.parse_tiles(text)
    return "".join(TILE_GLYPHS[t] for t in tiles) + f" ({T.format_tiles(tiles)})"


def command_line(ruleset_id: str, body: Mapping[str, Any]) -> str:
    """The command that makes a findings file, as its meta records it."""
    bounds = ""
    if body.get("effort") is not None:
        bounds += f" --effort {body['effort']}"
    if body.get("budget") is not None:
        bounds += f" --budget {_number(body['budget'])}"
    return f"mjcheck hunt --ruleset {ruleset_id}{bounds} --seed {body.get('seed')}"


def _number(value: Any) -> str:
    """A budget as the command line takes it (60, not 60.0); anything else as it was written."""
    return f"{value:g}" if isinstance(value, (int, float)) and not isinstance(value, bool) else str(value)


def how_bounded(body: Mapping[str, Any]) -> str:
    """How far the run's bound lets it go, in words."""
    if body.get("effort") is not None:
        capped = f", capped at {_number(body['budget'])} s" if body.get("budget") is not None else ""
        return (f"the same seed and effort find the same on any machine: {body['effort']} pass(es) of counted "
                f"work{capped}; but for a claim of the settlement model decided near its solver's bound, marked "
                f"where it stands (Z3's count is not the same in every run)")
    return "the same seed runs each search the same way; how many run depends on the budget and the machine"


def stopped_early(body: Mapping[str, Any]) -> list[str]:
    """What the run set out to do and did not, in words (a findings file from before these were recorded:
    what its lists of skipped searches and proofs cut short say)."""
    told = body.get("stopped_early")
    if isinstance(told, list):
        return [str(x) for x in told]
    out = []
    if body.get("skipped"):
        out.append(f"{len(body['skipped'])} search(es) never ran (the budget ran out)")
    if body.get("cut_short"):
        out.append(f"{len(body['cut_short'])} exhaustive proof(s) stopped before the end of their space")
    return out


def reading_words(reading: Mapping[str, Any]) -> str:
    """Option values as the command line takes them (true, not True); the defaults when there are none."""
    return ", ".join(f"{k}={str(v).lower() if isinstance(v, bool) else _number(v)}"
                     for k, v in reading.items()) or "the default readings"


def left_out(body: Mapping[str, Any]) -> list[tuple[str, list[str]]]:
    """The searches a run left out, by why."""
    undecided = [f"{c['key']} under {reading_words(c['reading'])} ({c['why']})"
                 for c in body.get("proofs") or [] if c["result"] == "not-run"]
    groups = [("Searches that never ran", body.get("skipped") or []),
              ("Exhaustive proofs stopped before the end of their space", body.get("cut_short") or []),
              ("Searches left out of a pass the effort asked for", body.get("not_rerun") or []),
              ("Claims of the settlement model left undecided", undecided),
              ("Findings of an earlier run the engine no longer bears out (its witness scores otherwise now): "
               "not carried", body.get("no_longer_hold") or [])]
    return [(what, list(labels)) for what, labels in groups if labels]


WIN_WORDS = {"self_draw": "self-drawn", "discard": "won on a discard", "robbing_kong": "won by robbing a kong"}
RESULT_WORDS = {"proved": "proved", "refuted": "refuted", "not-run": "not run", "not-applicable": "does not apply"}


def situation(w: Mapping[str, Any]) -> str:
    """A situation of the settlement model (checker.hunt.settle `words`) in words."""
    counted = ", ".join(f"{pid} ×{n}" if n > 1 else pid for pid, n in w.get("counts", {}).items()) or "no pattern"
    table = WIN_WORDS.get(w.get("win_by", ""), str(w.get("win_by")))
    if w.get("discarder"):
        table += f" from {SEAT_WORDS.get(w['discarder'], 'a seat')}"
    if w.get(CONTRACT_PARTNER):
        table += f", a contract (承包) with {SEAT_WORDS.get(w[CONTRACT_PARTNER], 'a seat')}"
        if w.get("flags"):
            table += f" ({', '.join(w['flags'])})"
    if w.get("claimed_sets"):
        table += f", {w['claimed_sets']} claimed set(s)"
    for name, n in (w.get("counters") or {}).items():
        table += f", counter {name}={n}"
    worth = f"worth {w.get('value')}" if w.get("valid") else "may not win"
    out = f"{counted}; {table}; {worth}; {paid(w.get('payments') or [])}"
    if w.get("shares"):
        out += f" (shares paid by seats 1-3: {', '.join(str(n) for n in w['shares'])})"
    return out


def proofs(body: Mapping[str, Any]) -> tuple[list[dict[str, Any]], dict[str, list[tuple[str, str]]]]:
    """The settlement model's claims as rows (claim, result, readings, witness in words), and its pairs of
    readings by result, each key the words that end "Pairs of readings that …" (interact, are independent, were
    not run and why), each pair with what is said of it (decided near the solver's bound, or nothing)."""
    rows: list[dict[str, Any]] = []
    said = {"refuted": "interact", "proved": "are independent"}
    pairs: dict[str, list[tuple[str, str]]] = {words: [] for words in said.values()}
    for c in body.get("proofs") or []:
        if c["key"].startswith("interaction."):
            name = c["key"].removeprefix("interaction.").replace("&", " & ")
            why = f" ({c['why']})" if c.get("why") else ""
            pairs.setdefault(said.get(c["result"], f"were not run{why}"), []).append((name, _near(c, short=True)))
            continue
        reading = reading_words(c["reading"])
        if c.get("also"):
            reading += f" and {len(c['also'])} other reading(s)"
        w = c.get("witness") or None
        if w and c.get("by") == "engine":
            shown = engine_witness(w)
        elif w and "before" in w:
            shown = f"{situation(w['before'])} → with one more: {situation(w['after'])}"
            if w.get("lowered_by"):
                shown += f"; the step that lowers it: {w['lowered_by']}"
        else:
            shown = situation(w) if w else ""
            for other in (w or {}).get("other_winners") or []:
                shown += (f"; on the same discard {SEAT_WORDS.get(other['seat'], 'another seat')} wins too: "
                          f"{situation(other)}")
            if w and w.get("lost"):
                shown += f"; lost in value by seat (0 the first winner): {', '.join(str(x) for x in w['lost'])}"
        result = RESULT_WORDS.get(c["result"], c["result"])
        if c.get("by") == "engine":
            result += " by the engine on a real hand"
        domain = c.get("domain") or ""
        rows.append({"claim": c["claim"], "result": result, "under": reading, "witness": shown,
                     "why": c.get("why") or _near(c), "examined": c.get("examined") or "",
                     "domain": domain if domain != proof_domain(body) else ""})
    return rows, {k: v for k, v in pairs.items() if v}


def _near(claim: Mapping[str, Any], short: bool = False) -> str:
    """Said of a claim decided with more than NEAR_BOUND of its solver's bound used: another run may leave it
    undecided (Z3's resource count for one search differs between runs)."""
    used = claim.get("bound_used") or 0.0
    if used <= NEAR_BOUND:
        return ""
    if used >= 1:  # a search ran out of its bound, a reseeded one decided it
        if short:
            return " (near the bound: decided on a reseeded search)"
        return ("decided only by a reseeded search after one ran out of the solver's bound: Z3's count differs "
                "between runs, so another run may leave it undecided")
    if short:
        return f" (near the bound: {used:.0%} of it used)"
    return (f"decided with {used:.0%} of the solver's bound used: Z3's count differs between runs, so another run "
            f"may leave it undecided")


def model_refuted(body: Mapping[str, Any]) -> list[str]:
    """The model's claims a real hand refutes (checker.hunt.examine), each with its reading, in words."""
    return [f"{c['claim']} (under {reading_words(c['reading'])})" for c in body.get("proofs") or []
            if c.get("by") == "engine"]


def engine_witness(w: Mapping[str, Any]) -> str:
    """A claim's counter-example found by the engine on real hands (checker.hunt.examine), in words."""
    def scored(part: Mapping[str, Any]) -> str:
        r = part.get("result") or {}
        worth = f"worth {r.get('total')}; {paid(r.get('payments') or [])}" if r.get("valid") else \
            f"may not win ({r.get('error')})"
        return f"{hand_line(part['hand'])}: {worth}"

    if "before" in w:
        return f"{scored(w['before'])} → grown: {scored(w['after'])}"
    if "winners" in w:
        return "; ".join(f"winner {i + 1}: {scored(x)}" for i, x in enumerate(w["winners"])) + \
            f"; the discarder loses {w['lost']} in value"
    if "under" in w:
        return f"{hand_line(w['hand'])}: " + "; ".join(
            f"under {reading_words(u['reading'])}: " + (f"{paid(u['result'].get('payments') or [])}"
                                                       if u["result"].get("valid") else "may not win")
            for u in w["under"])
    text = scored(w)
    if w.get("model_pays"):
        text += f"; the model pays {paid(w['model_pays'])}"
    return text


def proof_domain(body: Mapping[str, Any]) -> str:
    """The domain of the first claim (the defaults'); a claim over another domain states its own."""
    return next((c["domain"] for c in body.get("proofs") or [] if c.get("domain")), "")


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def stakes(root: Mapping[str, Any]) -> str:
    """A root issue's stakes in words."""
    st = root.get("stakes") or {}
    parts = []
    if st.get("space_of"):
        parts.append(f"changes {st['space_touched']} of {st['space_of']} sampled wins, moving {st['space_moved']} "
                     f"in all")
    if st.get("of"):
        parts.append(f"changes {st['touched']} of {st['of']} known hands, moving {st['moved']} in all")
    if st.get("money"):
        parts.append(f"up to {st['money']} for one seat on its witness")
    return "; ".join(parts) or "not priced"


def root_rows(body: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The root issues in rank order, with their provenance and stakes in words."""
    return [{"n": i + 1, "title": r["title"], "provenance": PROVENANCE_WORDS.get(r["provenance"], r["provenance"]),
             "source": r["source"], "stakes": stakes(r), "method": (r.get("stakes") or {}).get("method", ""),
             "findings": r["findings"]} for i, r in enumerate(body.get("roots") or [])]


def ordered(body: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The findings in the order of their root issues (the file's order when it ranks none)."""
    rank = {fid: i for i, r in enumerate(body.get("roots") or []) for fid in r["findings"]}
    return sorted(body["findings"], key=lambda f: rank.get(f["id"], len(rank)))


def page(ruleset_id: str, title: str, body: Mapping[str, Any]) -> str:
    counts = body["counts"]
    lines = [f"# What the hunt found in {title} (`{ruleset_id}`)", "",
             f"Found by `{command_line(ruleset_id, body)}` ({how_bounded(body)}). Each witness is a case: "
             f"`mjcheck score --case` (a hand) or `mjcheck game validate` (a hand of play) replays it.", ""]
    stopped = stopped_early(body)
    if stopped:
        lines += [f"**This run stopped early**, so findings may be missing: {'; '.join(stopped)}. What it left out "
                  f"is listed at the end of the page.", ""]
    wrong = model_refuted(body)
    if wrong:
        lines += [f"**The settlement model proved {len(wrong)} claim(s) that real hands break** (the engine's "
                  f"counter-examples are listed under \"What the Z3 settlement model proves\"): "
                  + "; ".join(wrong) + ".", ""]
    lines += ["| kind | what it means | findings |", "|---|---|---:|"]
    for kind in KINDS:
        lines.append(f"| {kind} | {KIND_WORDS[kind]} | {counts.get(kind, 0)} |")
    lines.append(f"| **all** | | **{sum(counts.values())}** |")
    rows = root_rows(body)
    if rows:
        lines += ["", "## Root issues, by stakes", "",
                  "Findings merged by cause (the option that decides them, a decision, a rule), the document's own "
                  "problems first, then readings the spec brings in from elsewhere, then differences between "
                  "documents; within each, by the money the issue moves over the sampled spaces, then over the "
                  "known hands, then on its witnesses.", "",
                  "| # | issue | whose | stakes | findings |", "|---:|---|---|---|---|"]
        for r in rows:
            whose = r["provenance"] + (f" ({r['source']})" if r["source"] else "")
            lines.append(f"| {r['n']} | {_cell(r['title'])} | {_cell(whose)} | {_cell(r['stakes'])} | "
                         f"{', '.join(r['findings'])} |")
        methods = sorted({r["method"] for r in rows if r["method"]})
        lines += ["", "How the stakes were counted: " + "; ".join(methods) + "."]
    for f in ordered(body):
        lines += ["", f"## {f['id']} · {f['kind']} · {f['title']}", ""]
        if f["statements"]:
            lines.append("**What the document says**")
            lines.append("")
            for s in f["statements"][:6]:
                lines.append(f"> {s['phrase']}  ")
                lines.append(f"> — `{s['doc']}`, {s['section']}")
                lines.append("")
        if f["kind"] == "decided":
            if not f["statements"]:
                lines += ["*The document says nothing on it.*", ""]
            lines += [f"**What the spec does now:** {f['note']}", "", "**The readings the text allows**", ""]
            lines += [f"- {o['reading']}" + (" *(taken)*" if o.get("taken") else "") for o in f["outcomes"]]
            lines += ["", f"<sub>decided by: {', '.join(f'`{r}`' for r in f['rules'])}</sub>"]
            continue
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
    rows, pairs = proofs(body)
    if rows:
        lines += ["", "## What the Z3 settlement model proves", "",
                  f"Over {proof_domain(body)}: wider than the hands tiles can make, so a refuting situation may "
                  f"be one no hand reaches (a finding above then gives a real hand where there is one). Before a "
                  f"claim is called proved, the engine searches real hands for a counter-example (what it searched "
                  f"is said with each claim); one it finds refutes the claim, against the model.", ""]
        for r in rows:
            line = f"- **{r['result']}** under {r['under']}: {r['claim']}"
            line += f". Witness: {r['witness']}" if r["witness"] else ""
            line += f" ({r['why']})" if r["why"] else ""
            line += f". Over {r['domain']}" if r["domain"] else ""
            line += f". Cross-examined: {r['examined']}" if r["examined"] else ""
            lines.append(line)
        for what, names in pairs.items():
            lines += ["", f"**Pairs of readings that {what}** "
                          f"({len(names)}): " + "; ".join(f"`{n}`{near}" for n, near in names)]
    left = left_out(body)
    if left:
        lines += ["", "## What this run left out", ""]
        for what, labels in left:
            lines += [f"**{what}**", ""] + [f"- {label}" for label in labels] + [""]
    return "\n".join(lines) + "\n"


def _witness(case: Mapping[str, Any]) -> list[str]:
    data = case["input"]
    if case.get("kind") == "procedure":
        events = data["events"]
        dealer = data.get("dealer", 0)
        lines = [f"**The hand of play** (seat {dealer} deals; {len(events)} events{_cut_words(events)}):", ""]
        if "wall" in data:
            hands = _dealt(data["wall"], dealer)
            lines += [f"- seat {seat} is dealt {drawn(T.format_tiles(sorted(hands[seat])))}" for seat in range(4)]
            lines.append("")
        else:
            lines += [f"- the wall: the 144 tiles shuffled by seed {data.get('seed')}", ""]
        for part in events_shown(events):
            lines.append(f"{part}. {_event(events[part])}" if isinstance(part, int)
                         else f"- … {_left_out(events, *part)}")
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


WHOLE_UP_TO = 16  # a hand of play of at most this many events is shown whole
LAST_EVENTS = 8  # a longer one: the events that matter, and always its last ones


def events_shown(events: Sequence[Mapping[str, Any]]) -> list[int | tuple[int, int]]:
    """The events of a hand of play a witness shows, by index, with each run it leaves out as (first, last): a
    long hand keeps every event but the plain turns (a draw from the wall; a discard the next player's draw
    follows, so nobody claimed or passed it) and its last LAST_EVENTS; a claim, a flower, a replacement draw, a
    knock, a pass and a win stay, and so does the discard a claim or a pass answers."""
    if len(events) <= WHOLE_UP_TO:
        return list(range(len(events)))
    out: list[int | tuple[int, int]] = []
    for i, e in enumerate(events):
        later = events[i + 1] if i + 1 < len(events) else None
        plain = (e.get("event") == "draw" and e.get("from", "wall") == "wall") or \
            (e.get("event") == "discard" and later is not None and later.get("event") == "draw")
        if not plain or i >= len(events) - LAST_EVENTS:
            out.append(i)
        elif out and isinstance(out[-1], tuple):
            out[-1] = (out[-1][0], i)
        else:
            out.append((i, i))
    return out


def _cut_words(events: Sequence[Mapping[str, Any]]) -> str:
    if len(events) <= WHOLE_UP_TO:
        return ""
    return (f"; shown: its claims, flowers, replacement draws, passes and knocks, the discards they answer and the "
            f"last {LAST_EVENTS}, the plain turns between them summed up")


def _left_out(events: Sequence[Mapping[str, Any]], first: int, last: int) -> str:
    part = events[first:last + 1]
    draws = sum(1 for e in part if e.get("event") == "draw")
    discards = len(part) - draws
    where = f"event {first}" if first == last else f"events {first}-{last}"
    return (f"{where}: {_many(draws, 'draw')} from the wall and {_many(discards, 'discard')} nobody claimed or "
            f"passed")


def _many(n: int, what: str) -> str:
    return f"{n} {what}" + ("" if n == 1 else "s")


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


# a hand's seats relative to the winner (DESIGN.md), in the words of SEAT_WORDS
RELATIVE_SEATS = ("the winner", f"{SEAT_WORDS[1]} (downstream)", SEAT_WORDS[2], f"{SEAT_WORDS[3]} (upstream)")


def paid(payments: Any, relative: bool = True) -> str:
    """A payments array in words, each score change labelled by its seat: relative to the winner for a hand
    (DESIGN.md: 0 the winner, 1 downstream, 2 across, 3 upstream), by absolute seat for a hand of play."""
    if not isinstance(payments, list):
        return str(payments)
    labels = RELATIVE_SEATS if relative and len(payments) == 4 else [f"seat {i}" for i in range(len(payments))]
    return ", ".join(f"{label} {amount:+d}" if isinstance(amount, int) else f"{label} {amount}"
                     for label, amount in zip(labels, payments))


def _result(r: Mapping[str, Any]) -> str:
    if "verdict" in r:
        if r["verdict"] == "illegal":
            return f"illegal at event {r.get('event')}: `{r.get('rule')}` ({r.get('message', '')})"
        if "payments" in r:
            return f"{r['verdict']}; payments {paid(r['payments'], relative=False)}, next dealer seat {r.get('next_dealer')}"
        return f"{r['verdict']} (the hand goes on)" if r["verdict"] == "unfinished" else r["verdict"]
    if not r.get("valid"):
        return f"may not win (`{r.get('error')}`)"
    fans = ", ".join(f"{f['id']} {f['points']}" + (f"×{f['count']}" if f.get("count", 1) > 1 else "")
                     for f in r.get("fans", []))
    return f"worth **{r.get('total')}** ({fans}); payments: {paid(r.get('payments'))}"


# ------------------------------------------------------------------ the HTML page (findings-R.html)

# Terms the pages use that no spec names as a pattern or a title, in English (from the specs' own explanations).
# A page's own ruleset's names come first (`glossary`), then these, then the other rulesets' names.
TERMS: Mapping[str, str] = {
    "勒子": "le, the cap unit: 1 le = 10 hua", "勒": "le, the cap unit", "双勒": "double le",
    "花": "hua, points", "花分": "hua score, the hand's points", "底分": "base score per share",
    "番": "fan, a doubling", "番型": "scoring patterns", "牌型": "hand patterns", "牌型说明": "hand patterns",
    "得分计算": "scoring", "计分方式": "how points are counted", "特殊打法": "special play",
    "游戏简介": "introduction", "用牌": "the tiles", "漏胡": "passed win: a win let go blocks that tile",
    "出冲": "the discarder pays double, the other two one share each", "包冲": "the discarder pays for all",
    "包输": "pays for all", "承包": "contract between two players (three or more calls)",
    "反承包": "the contract the other way", "敲": "knock: declare ready", "报听": "knock: declare ready",
    "听牌": "ready", "叫胡": "ready", "风": "feng, wind tiles", "风向牌": "wind tiles", "字牌": "honour tiles",
    "一炮多响": "several winners on one discard", "一炮两响": "two winners on one discard",
    "下家": "the next player", "上家": "the previous player", "对家": "the player across", "庄家": "the dealer",
    "点炮": "discarding the winning tile", "补张": "replacement draw", "补花": "flower replacement",
    "动牌": "a move: chow, pung, kong or draw", "摸牌": "drawing a tile", "单局封顶": "the cap on one hand",
    "封顶值": "the cap", "输分": "points lost", "输赢分数": "points won or lost",
    "户": "hu, a unit of counting", "胡数": "hu count", "份": "share", "吃": "chow", "碰": "pung", "杠": "kong",
    "抢杠": "robbing the kong", "自摸": "self-drawn", "无花果": "the fig: a flat 10 hua", "落地": "melded down",
    "门前清": "concealed hand",
}
# the word an English name holding a Chinese term reads it as ("All 风 tiles in pungs": All feng tiles in pungs)
WORDS: Mapping[str, str] = {"风": "feng", "番": "fan", "勒子": "le", "勒": "le", "花": "hua"}
CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


@lru_cache(maxsize=None)
def _names(ruleset_id: str) -> tuple[tuple[str, str], tuple[tuple[str, str, str], ...]]:
    """A shipped ruleset's (Chinese title, English title) and its patterns' (id, English, Chinese) names; empty
    when it does not load (a page still draws)."""
    from checker.engine import load_ruleset

    try:
        rs = load_ruleset(ruleset_id)
    except (OSError, ValueError):
        return ("", ""), ()
    return (rs.title_zh, rs.title), tuple((p.id, p.name_en, p.name_zh) for p in rs.patterns)


def _rulesets(first: str | None) -> list[str]:
    from checker.spec import available_rulesets

    return ([first] if first else []) + [r for r in available_rulesets() if r != first]


def fan_names(ruleset_id: str | None) -> dict[str, str]:
    """Pattern id → its English name, the ruleset's own first (then the other shipped rulesets')."""
    names: dict[str, str] = {}
    for rid in _rulesets(ruleset_id):
        for pid, en, _ in _names(rid)[1]:
            names.setdefault(pid, _english(en))
    return names


def _english(name: str) -> str:
    """An English name with the Chinese terms in it read as words (WORDS)."""
    for zh in sorted(WORDS, key=len, reverse=True):
        name = name.replace(zh, WORDS[zh])
    return name


@lru_cache(maxsize=None)
def glossary(ruleset_id: str | None) -> tuple[re.Pattern[str], dict[str, str]]:
    """Chinese name → English: the ruleset's title and pattern names, then TERMS, then the other rulesets' (花 is
    a pattern of shanghai-knocking, the unit of points elsewhere); and the pattern finding them (longest first)."""
    names: dict[str, str] = {}
    for i, rid in enumerate(_rulesets(ruleset_id)):
        if i == (1 if ruleset_id else 0):
            names.update((zh, en) for zh, en in TERMS.items() if zh not in names)
        (title_zh, title), patterns = _names(rid)
        if title_zh:
            names.setdefault(title_zh, _english(title))
        for _, en, zh in patterns:
            if zh:
                names.setdefault(zh, _english(en))
    for zh, en in TERMS.items():
        names.setdefault(zh, en)
    return re.compile("|".join(re.escape(zh) for zh in sorted(names, key=len, reverse=True))), names


def prose(text: Any, ruleset_id: str | None = None) -> Markup:
    """A text of the findings (a note, a reading's meaning) as HTML: `code` between backticks as <code>, the rest
    glossed (`gloss`)."""
    parts = str(text).split("`")
    if len(parts) % 2 == 0:  # an unmatched backtick: no code span
        return gloss(text, ruleset_id)
    return Markup("").join(Markup("<code>{}</code>").format(part) if i % 2 else gloss(part, ruleset_id)
                           for i, part in enumerate(parts))


def gloss(text: Any, ruleset_id: str | None = None) -> Markup:
    """`text` escaped for HTML, each Chinese name in it followed (the first time) by its English in a
    `<span class="en">`, unless the text already gives that English (its letters and digits). A one-character
    term counts only standing alone (not inside a Chinese word: 花 in 花色 is not hua)."""
    text = str(text)
    if not CJK.search(text):
        return escape(text)
    pattern, names = glossary(ruleset_id)
    plain, done, at = _plain(text), set(), 0
    out: list[Markup] = []
    for m in pattern.finditer(text):
        zh, en = m.group(), names[m.group()]
        alone = len(zh) > 1 or not (CJK.match(text[m.start() - 1:m.start()]) or CJK.match(text[m.end():m.end() + 1]))
        if zh in done or not alone or (_plain(en) and _plain(en) in plain):
            continue
        done.add(zh)
        out += [escape(text[at:m.end()]), Markup('<span class="en"> ({})</span>').format(en)]
        at = m.end()
    out.append(escape(text[at:]))
    return Markup("").join(out)


def _plain(text: str) -> str:
    """Letters and digits only, lower case: "Shanghai: Knocking" gives the English "Shanghai Knocking"."""
    return "".join(c for c in text.lower() if c.isascii() and c.isalnum())


class Drawing:
    """Tiles drawn for one page: each use an inline SVG titled with the tile's name (`checker.draw.tile_use`),
    the tiles used remembered so the page defines each once (`sprite`)."""

    def __init__(self) -> None:
        self.used: set[int] = set()

    def tiles(self, text: Any) -> Markup:
        """A tile string drawn as a row of tiles; the text itself (escaped) when it holds no tiles."""
        if isinstance(text, list):
            text = "".join(str(t) for t in text)
        try:
            tiles = T.parse_tiles(text) if text else []
        except ValueError:
            return Markup('<span class="raw">{}</span>').format(text)
        self.used.update(tiles)
        return Markup('<span class="tile-row" title="{}">{}</span>').format(
            T.format_tiles(tiles), Markup("").join(Markup(tile_use(t)) for t in tiles))

    def group(self, label: Any, text: Any, kind: str = "") -> Markup:
        """A labelled group of tiles (the concealed tiles, a meld, the winning tile)."""
        return Markup('<span class="group {}"><small>{}</small>{}</span>').format(kind, label, self.tiles(text))

    def sprite(self) -> Markup:
        return Markup(sprite(self.used))


def hand_html(data: Mapping[str, Any], drawing: Drawing, ruleset_id: str | None = None) -> Markup:
    """A hand (a score case's input) drawn: its concealed tiles, each meld and who it came from, the winning tile
    and how it came, the flowers; then the winds, flags and counters in words (as `hand_line`)."""
    groups = [drawing.group("concealed", data.get("concealed", ""), "concealed")]
    for m in data.get("melds") or []:
        how = "concealed kong" if m.get("concealed") else f"{m['type']} from {SEAT_WORDS.get(m.get('from'), 'a seat')}"
        groups.append(drawing.group(how, m["tiles"], "meld"))
    way = data.get("win_by", "self_draw")
    seat = SEAT_WORDS.get(int(data.get("discarder") or 0), "another seat")
    how = {"self_draw": "drawn by the winner", "discard": f"discarded by {seat}",
           "robbing_kong": f"robbed from the kong of {seat}"}.get(way, way)
    groups.append(drawing.group(f"wins on it, {how}", data["win_tile"], "win"))
    if data.get("flowers"):
        groups.append(drawing.group("flowers", data["flowers"], "flowers"))
    extra = [f"seat wind {data.get('seat_wind', 'E')}, round wind {data.get('round_wind', 'E')}"]
    flags = [k for k, v in (data.get("flags") or {}).items() if v]
    if flags:
        extra.append("context: " + ", ".join(flags))
    if data.get("counters"):
        extra.append("counters: " + ", ".join(f"{k} {v}" for k, v in data["counters"].items()))
    return Markup('<div class="hand"><div class="tiles">{}</div><p class="context">{}</p></div>').format(
        Markup("").join(groups), gloss("; ".join(extra), ruleset_id))


def _witness_html(case: Mapping[str, Any], drawing: Drawing, ruleset_id: str) -> Markup:
    data = case["input"]
    if case.get("kind") != "procedure":
        return Markup('<h4>The hand</h4>{}').format(hand_html(data, drawing, ruleset_id))
    events = data["events"]
    dealer = data.get("dealer", 0)
    out = [Markup("<h4>The hand of play</h4><p>Seat {} deals; {} events{}.</p>").format(
        dealer, len(events), _cut_words(events))]
    if "wall" in data:
        hands = _dealt(data["wall"], dealer)
        out.append(Markup('<div class="tiles">{}</div>').format(Markup("").join(
            drawing.group(f"seat {seat} is dealt", T.format_tiles(sorted(hands[seat])), "concealed")
            for seat in range(4))))
    else:
        out.append(Markup("<p>The wall: the 144 tiles shuffled by seed {}.</p>").format(data.get("seed")))
    items = Markup("").join(
        Markup('<li value="{}">{}</li>').format(part, _event_html(events[part], drawing)) if isinstance(part, int)
        else Markup('<li class="left-out">… {}</li>').format(_left_out(events, *part))
        for part in events_shown(events))
    out.append(Markup('<ol class="events" start="0">{}</ol>').format(items))
    return Markup("").join(out)


def _event_html(e: Mapping[str, Any], drawing: Drawing) -> Markup:
    words = [] if "seat" not in e else [f"seat {e['seat']}"]
    words.append(e["event"].replace("_", " "))
    out = [escape(" ".join(words))]
    if e.get("tiles") or e.get("tile"):
        out.append(drawing.tiles(e.get("tiles") or e.get("tile")))
    if e.get("from") == "back":
        out.append(escape("(replacement)"))
    return Markup(" ").join(out)


def result_html(r: Mapping[str, Any], ruleset_id: str | None, names: Mapping[str, str]) -> Markup:
    """One reading's result in words (as `_result`), each fan by its English name (its id as the title)."""
    if "verdict" in r:
        if r["verdict"] == "illegal":
            return Markup("illegal at event {}: <code>{}</code> ({})").format(
                r.get("event"), r.get("rule"), gloss(r.get("message", ""), ruleset_id))
        if "payments" in r:
            return Markup("{}; payments {}, next dealer seat {}").format(
                r["verdict"], paid(r["payments"], relative=False), r.get("next_dealer"))
        return escape(f"{r['verdict']} (the hand goes on)" if r["verdict"] == "unfinished" else r["verdict"])
    if not r.get("valid"):
        return Markup("may not win (<code>{}</code>)").format(r.get("error"))
    fans = Markup(", ").join(
        Markup('<span class="fan" title="{}">{}</span> {}{}').format(
            f["id"], names.get(f["id"], f["id"]), f["points"], f"×{f['count']}" if f.get("count", 1) > 1 else "")
        for f in r.get("fans", []))
    return Markup("worth <strong>{}</strong> ({}); payments: {}").format(r.get("total"), fans, paid(r.get("payments")))


def html_page(ruleset_id: str, title: str, body: Mapping[str, Any]) -> str:
    """`findings-R.html`: the page of `page` as one self-contained HTML page, tiles drawn as inline SVG."""
    drawing, names = Drawing(), fan_names(ruleset_id)
    findings = []
    for f in ordered(body):
        if f["kind"] == "decided":
            findings.append({
                "id": f["id"], "kind": f["kind"], "title": prose(f["title"], ruleset_id),
                "statements": [{"phrase": gloss(s["phrase"], ruleset_id), "doc": s["doc"],
                                "section": gloss(s["section"], ruleset_id)} for s in f["statements"][:6]],
                "decided": prose(f["note"], ruleset_id), "rules": f["rules"],
                "readings": [(prose(o["reading"], ruleset_id), bool(o.get("taken"))) for o in f["outcomes"]]})
            continue
        outcomes = []
        for o in f["outcomes"]:
            outcomes.append({"reading": gloss(o["reading"], ruleset_id),
                             "means": prose(o.get("means") or "", ruleset_id),
                             "result": result_html(o["result"], ruleset_id, names),
                             "hand": hand_html(o["input"], drawing, ruleset_id) if o.get("input") else None})
        findings.append({
            "id": f["id"], "kind": f["kind"], "title": prose(f["title"], ruleset_id),
            "statements": [{"phrase": gloss(s["phrase"], ruleset_id), "doc": s["doc"],
                            "section": gloss(s["section"], ruleset_id)} for s in f["statements"][:6]],
            "witness": _witness_html(f["witness"], drawing, ruleset_id), "outcomes": outcomes,
            "deciding_option": f.get("deciding_option"), "note": prose(f.get("note") or "", ruleset_id),
            "method": f["method"], "rules": f["rules"]})
    counts = body["counts"]
    return render("checker.hunt/findings.html.j2", ruleset_id=ruleset_id, title=gloss(title, ruleset_id),
                  page_title=f"What the hunt found in {title}", command=command_line(ruleset_id, body),
                  bounded=how_bounded(body), stopped=stopped_early(body), left=left_out(body),
                  wrong=model_refuted(body),
                  kinds=[(k, KIND_WORDS[k], counts.get(k, 0)) for k in KINDS], total=sum(counts.values()),
                  findings=findings, sprite=drawing.sprite(), proofs=proofs(body)[0], pairs=proofs(body)[1],
                  roots=[{**r, "title": prose(r["title"], ruleset_id)} for r in root_rows(body)],
                  root_methods=sorted({r["method"] for r in root_rows(body) if r["method"]}),
                  domain=proof_domain(body))


def _template_source(name: str) -> str:
    """A template by name `PACKAGE/FILE`: the file in that package's `templates` folder (package data)."""
    package, _, file = name.partition("/")
    return resources.files(package).joinpath("templates").joinpath(file).read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def _environment() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.FunctionLoader(_template_source), autoescape=True,
                              undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)


def render(name: str, **context: Any) -> str:
    """A page from its template (`checker.hunt/findings.html.j2`); every page extends `checker.hunt/base.html.j2`."""
    return _environment().get_template(name).render(**context) + "\n"


def main(argv: list[str]) -> None:
    """`python -m checker.hunt.page DIR/findings-R.json …`: write each findings file's pages beside it
    (`findings-R.md`, `findings-R.html`), without hunting again (the checked-in reports/findings/ pages are made
    so)."""
    from pathlib import Path

    from checker.engine import load_ruleset
    from checker.files import write_text
    from checker.hunt.findings import read_findings
    from checker.inputs import FILE_JSON, MAX_SPEC_BYTES, parse_json, read_text_file

    from checker.inputs import InputError, excerpt
    from checker.spec import available_rulesets

    for name in argv:
        try:
            read_findings(Path(name))  # each finding checked as a hunt merging the file checks it
            body = parse_json(read_text_file(name, MAX_SPEC_BYTES, "findings file"), name, limits=FILE_JSON)
        except InputError as exc:
            raise SystemExit(f"error: {exc}") from None
        rid = body.get("ruleset")
        if rid not in available_rulesets():
            raise SystemExit(f"error: {name}: not a findings file of a known ruleset (its `ruleset` is "
                             f"{excerpt(rid)}; known: {', '.join(available_rulesets())})")
        title = load_ruleset(rid).title
        try:  # the parts read_findings does not check: the run's claims (proofs), root issues and counts
            shown = page(rid, title, body), html_page(rid, title, body)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            raise SystemExit(f"error: {name}: its proofs, roots or counts cannot be shown "
                             f"({type(exc).__name__}: {excerpt(str(exc))}); remake it with `mjcheck hunt`") from None
        write_text(str(Path(name).with_suffix(".md")), shown[0])
        write_text(str(Path(name).with_suffix(".html")), shown[1])


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
