"""One shard of a sweep: its hands, each with every distinct winning tile and both ways of winning, scored by the
reference engine and by the engine it is checked against; what it returns is a summary small enough to send back
from a worker (counts, and per class of disagreement its count and first witness).

A hand of the space is 14 tile counts. Each distinct tile it holds may be the winning tile, won by self-draw or
on a discard from the next player (seat 1): up to 28 scored cases a hand. Two results agree when they agree on
whether the hand may win and on every fan's points (flowers aside, there are none here). A disagreement's class is
the set of fans whose points differ (with both sides' points), or the two verdicts when one side refuses the win.
"""
from __future__ import annotations

from typing import Any, Callable, Iterator, Mapping

from checker.corpus.candidates import hand_input
from checker.engine import Hand, Scorer
from checker.space.concealed import ConcealedSpace

WAYS = ("self_draw", "discard")
SPACES = {"concealed": "every concealed complete regular hand (four sets and a pair, no melds): 11,498,658 hands"}


def space_of(name: str) -> ConcealedSpace:
    if name != "concealed":
        raise ValueError(f"unknown space {name!r}: this sweep knows {', '.join(SPACES)}")
    return ConcealedSpace()


def cases_of(counts: tuple[int, ...]) -> Iterator[Hand]:
    """The hand with each distinct tile as the winning tile, self-drawn and on a discard."""
    tiles = [t for t, n in enumerate(counts) for _ in range(n)]
    for win in sorted(set(tiles)):
        rest = list(tiles)
        rest.remove(win)
        concealed = tuple(rest)
        yield Hand(concealed, (), win, "self_draw")
        yield Hand(concealed, (), win, "discard", 1)


def compared(s: Any) -> tuple:
    """A reference Score as the sweep compares it: (may win, error, fan points by id)."""
    return s.valid, s.error if not s.valid else None, {f.id: f.total for f in s.fans if f.id != "flower_tiles"}


def reference(scorer: Scorer) -> Callable[[Hand], tuple]:
    """The reference engine's result of a hand, as the sweep compares it."""
    def result(hand: Hand) -> tuple:
        return compared(scorer.score(hand))
    return result


def reference_batch(scorer: Scorer) -> Callable[[list[Hand]], list[tuple]]:
    """The reference engine's results of a hand's cases (`cases_of`), scored in one batch."""
    def results(hands: list[Hand]) -> list[tuple]:
        return [compared(s) for s in scorer.score_wins(hands)]
    return results


def pymahjonggb(scorer: Scorer) -> Callable[[Hand], tuple]:
    """PyMahjongGB's result of a hand (in process), as the sweep compares it."""
    from checker.case import CaseRunner
    from checker.conform.pymahjonggb import PyMahjongGB, calculator

    engine = PyMahjongGB(CaseRunner(), calculator())

    def result(hand: Hand) -> tuple:
        r = engine.score(hand, scorer)
        fans: dict[str, int] = {}
        for f in r.get("fans", []):
            if f["id"] != "flower_tiles":
                fans[f["id"]] = fans.get(f["id"], 0) + f["points"] * f["count"]
        return bool(r.get("valid")), r.get("error") if not r.get("valid") else None, fans
    return result


def difference(mine: tuple, theirs: tuple) -> tuple | None:
    """The class of a disagreement (None: the results agree)."""
    if mine[0] != theirs[0]:
        return (("verdict", mine[1] or "win", theirs[1] or "win"),)
    if not mine[0]:
        return None  # both refuse the win (whatever each calls the reason)
    if mine[2] == theirs[2]:
        return None
    fans = sorted(set(mine[2]) | set(theirs[2]))
    return tuple((f, mine[2].get(f, 0), theirs[2].get(f, 0)) for f in fans if mine[2].get(f, 0) != theirs[2].get(f, 0))


def sweep_shard(ruleset_id: str, space: str, start: int, stop: int, options: Mapping[str, Any],
                against: str, against_options: Mapping[str, Any]) -> dict[str, Any]:
    """Score the hands numbered start … stop-1 both ways; return the shard's summary."""
    from checker.case import CaseRunner

    runner = CaseRunner()
    mine = reference_batch(runner.scorer(ruleset_id, dict(options)))
    other_scorer = runner.scorer(ruleset_id, dict(against_options))
    other_batch = reference_batch(other_scorer) if against == "reference" else None
    theirs = pymahjonggb(other_scorer) if against == "pymahjonggb" else reference(other_scorer)
    hands = cases = agreed = 0
    classes: dict[tuple, dict[str, Any]] = {}
    for counts in space_of(space).hands(start, stop):
        hands += 1
        cases_here = list(cases_of(counts))
        ours = mine(cases_here)
        others = other_batch(cases_here) if other_batch is not None else None
        for i, hand in enumerate(cases_here):
            cases += 1
            a = ours[i]
            b = others[i] if others is not None else theirs(hand)
            key = difference(a, b)
            if key is None:
                agreed += 1
                continue
            entry = classes.get(key)
            if entry is None:
                classes[key] = {"count": 1, "witness": hand_input(hand),
                                "reference": _shown(a), "other": _shown(b)}
            else:
                entry["count"] += 1
    return {"start": start, "stop": stop, "hands": hands, "cases": cases, "agreed": agreed,
            "classes": [{"key": [list(k) for k in key], **entry} for key, entry in classes.items()]}


def _shown(result: tuple) -> dict[str, Any]:
    return {"valid": result[0], "error": result[1], "fans": result[2]}
