"""Witness synthesis: for each fan (or hua item), a hand that scores it with as few other fans as possible.

Two sources, the better witness kept: the known legal hands (the checked-in corpus and the document examples,
each scored once), and for fans that read only the tiles and their division, the hands of checker.space their
own definition allows (the dead-rule proofs' spaces), read in order while the time each fan is given lasts. A
witness from a space read to the end is the fewest-fans hand of that space, won by self-draw (a hand the space
holds, all concealed); otherwise it is the best found, and the entry says so. A fan neither source reaches is
listed without a witness.
"""
from __future__ import annotations

import time
from typing import Any, Mapping, Sequence

from checker.case import CaseRunner, hand_from_input
from checker.engine import HandError
from checker.hunt.allowance import Allowance
from checker.hunt.dead import case_input, concealed_hand, narrowing
from checker.spec import Ruleset


def _counted(score: Any) -> list[str]:
    return [f.id for f in score.fans]


def synthesize(runner: CaseRunner, ruleset: Ruleset, known: Sequence[Mapping[str, Any]],
               each: Allowance | float) -> list[dict[str, Any]]:
    """One entry per pattern of the ruleset (default readings), in the spec's order: `pattern`, and when a
    witness was found `case`, `fans`, `other_fans`, `source` (known or exhaustive) and `fewest` (true when no
    hand of its space scores it with fewer fans). `each`: how far each fan's search of its space may go (an
    Allowance, or seconds)."""
    scorer = runner.scorer(ruleset.id, {})
    best: dict[str, dict[str, Any]] = {}

    def offer(pid: str, fans: list[str], data: Mapping[str, Any], source: str) -> None:
        entry = best.get(pid)
        if entry is None or len(fans) - 1 < entry["other_fans"]:
            best[pid] = {"pattern": pid, "case": {"ruleset": ruleset.id, "options": {}, "kind": "score",
                                                  "input": dict(data)},
                         "fans": fans, "other_fans": len(fans) - 1, "source": source, "fewest": False}

    for data in known:
        try:
            score = scorer.score(hand_from_input(data, scorer))
        except (HandError, ValueError):
            continue
        if score.valid:
            fans = _counted(score)
            for pid in fans:
                offer(pid, fans, data, "known")
    for b in scorer.patterns:
        narrowed = narrowing(scorer, [b.id])
        if narrowed is None or (b.id in best and best[b.id]["other_fans"] == 0):
            continue
        spaces, described = narrowed
        allowance = each if isinstance(each, Allowance) else Allowance(until=time.monotonic() + each)
        rank, complete, read = scorer.rank[b.id], True, 0
        for space in spaces:
            for counts in space.hands():
                read += 1
                if read % 256 == 1 and allowance.spent(read - 1):
                    complete = False
                    break
                hand = concealed_hand(counts)
                if not any(rank in found for _, found in scorer.found_fans(hand)):
                    continue
                score = scorer.score(hand)
                fans = _counted(score)
                if score.valid and b.id in fans:
                    offer(b.id, fans, case_input(ruleset, counts), "exhaustive")
            if not complete:
                break
        if complete and b.id in best:
            best[b.id]["fewest"] = best[b.id]["source"] == "exhaustive" or best[b.id]["other_fans"] == 0
            best[b.id]["space"] = described
    return [best.get(b.id, {"pattern": b.id}) for b in scorer.patterns]


def witnesses_page(ruleset_id: str, title: str, entries: Sequence[Mapping[str, Any]]) -> str:
    """`witnesses-R.md`: each fan with its witness hand and the other fans that hand scores."""
    from checker.hunt.page import hand_line

    lines = [f"# A hand for each fan of {title} (`{ruleset_id}`)", "",
             "Each hand scores the fan with as few other fans as the synthesis found (`mjcheck hunt`; "
             "`witnesses-R.json` holds each as a case `mjcheck score --case` replays). *fewest*: no hand of the "
             "fan's space scores it with fewer.", "",
             "| fan | other fans | the hand | |", "|---|---|---|---|"]
    for e in entries:
        if "case" not in e:
            lines.append(f"| {e['pattern']} | | no witness found | |")
            continue
        data = e["case"]["input"]
        others = ", ".join(f for f in e["fans"] if f != e["pattern"]) or "none"
        hand = hand_line(data)
        lines.append(f"| {e['pattern']} | {others} | {hand} | {'fewest' if e.get('fewest') else ''} |")
    return "\n".join(lines) + "\n"
