"""One shard of a sweep: its hands, each with every distinct winning tile and both ways of winning, scored by the
reference engine and by the engine it is checked against; what it returns is a summary small enough to send back
from a worker (counts, and per class of disagreement its count and first witness).

A hand of the space is 14 tile counts. Each distinct tile it holds may be the winning tile, won by self-draw or
on a discard from the next player (seat 1): up to 28 scored cases a hand. A result is (may win, the rule refusing
the win or None, points by fan id, the same for each other reading worth as much): the reference gives every best
reading (the spec keeps the highest-scoring interpretation; readings worth the same are equally right), an engine
one. Two results agree when they agree on whether the hand may win and, when it may, on every fan's points in some
best reading (flowers aside: there are none here). A disagreement's class is the set of fans whose points differ
(with both sides' points), or the two verdicts when one side refuses the win.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable, Iterator, Mapping

from checker.corpus.candidates import hand_input
from checker.engine import Hand, Scorer
from checker.space.concealed import ConcealedSpace

WAYS = ("self_draw", "discard")
FLOWERS = "flower_tiles"  # the fan of flower tiles: no hand of these spaces holds one, and it is not compared
SPACES = {"concealed": "every concealed complete regular hand (four sets and a pair, no melds): 11,498,658 hands"}


def space_of(name: str) -> ConcealedSpace:
    if name != "concealed":
        raise ValueError(f"unknown space {name!r}: this sweep knows {', '.join(SPACES)}")
    return ConcealedSpace()


def cases_of(counts: tuple[int, ...]) -> Iterator[Hand]:
    """The hand with each distinct tile as the winning tile, self-drawn and on a discard."""
    tiles = [t for t, n in enumerate(counts) for _ in range(n)]
    for i, win in enumerate(tiles):
        if i and tiles[i - 1] == win:
            continue  # each distinct tile once (the tiles are in order)
        concealed = tuple(tiles[:i] + tiles[i + 1:])
        yield Hand(concealed, (), win, "self_draw")
        yield Hand(concealed, (), win, "discard", 1)


def compared(s: Any) -> tuple:
    """A reference Score as the sweep compares it (a result: see the module's docstring), flowers aside."""
    return _without_flowers((s.valid, s.error if not s.valid else None, {f.id: f.total for f in s.fans},
                             tuple({f.id: f.total for f in other} for other in s.alternatives)))


def _without_flowers(result: tuple) -> tuple:
    for fans in (result[2], *result[3]):
        if FLOWERS in fans:
            fans.pop(FLOWERS)
    return result


def reference(scorer: Scorer) -> Callable[[Hand], tuple]:
    """The reference engine's result of a hand, as the sweep compares it."""
    def result(hand: Hand) -> tuple:
        return compared(scorer.score(hand))
    return result


def reference_batch(scorer: Scorer) -> Callable[[list[Hand]], list[tuple]]:
    """The reference engine's results of a hand's cases (`cases_of`), scored in one batch
    (Scorer.fan_totals_of_wins: no fan lines, payments or messages are made)."""
    def results(hands: list[Hand]) -> list[tuple]:
        return [_without_flowers(r) for r in scorer.fan_totals_of_wins(hands)]
    return results


def pymahjonggb(scorer: Scorer) -> Callable[[list[Hand]], list[tuple]]:
    """PyMahjongGB's results of a hand's cases (in process), as the sweep compares them."""
    from checker.conform.pymahjonggb import PyMahjongGB, calculator

    engine = PyMahjongGB(_runner(), calculator())

    def results(hands: list[Hand]) -> list[tuple]:
        return [_without_flowers((*r, ())) for r in engine.fan_totals_of_wins(hands, scorer)]
    return results


@lru_cache(maxsize=1)
def _runner() -> Any:
    """The worker process's case runner: the specs are read once a process, not once a shard."""
    from checker.case import CaseRunner
    return CaseRunner()


def agree(mine: tuple, theirs: tuple) -> bool:
    """Whether two results (see the module's docstring) agree: both refuse the win (whatever each calls the reason), or both
    allow it with the same fans in some reading each side counts as best."""
    if mine[0] != theirs[0]:
        return False
    if not mine[0] or mine[2] == theirs[2]:
        return True
    ours = [mine[2], *mine[3]]
    for fans in (theirs[2], *theirs[3]):
        if fans in ours:
            return True
    return False


def difference(mine: tuple, theirs: tuple) -> tuple | None:
    """The class of a disagreement (None: the results agree): the two verdicts when one side refuses the win,
    else the fans whose points differ between the first best readings of each side."""
    if agree(mine, theirs):
        return None
    if mine[0] != theirs[0]:
        return (("verdict", mine[1] or "win", theirs[1] or "win"),)
    fans = sorted(set(mine[2]) | set(theirs[2]))
    return tuple((f, mine[2].get(f, 0), theirs[2].get(f, 0)) for f in fans if mine[2].get(f, 0) != theirs[2].get(f, 0))


def sweep_shard(ruleset_id: str, space: str, start: int, stop: int, options: Mapping[str, Any],
                against: str, against_options: Mapping[str, Any]) -> dict[str, Any]:
    """Score the hands numbered start … stop-1 both ways; return the shard's summary."""
    runner = _runner()
    mine = reference_batch(runner.scorer(ruleset_id, dict(options)))
    other_scorer = runner.scorer(ruleset_id, dict(against_options))
    theirs = reference_batch(other_scorer) if against == "reference" else pymahjonggb(other_scorer)
    hands = cases = agreed = 0
    classes: dict[tuple, dict[str, Any]] = {}
    for counts in space_of(space).hands(start, stop):
        hands += 1
        cases_here = list(cases_of(counts))
        ours = mine(cases_here)
        others = theirs(cases_here)
        for i, hand in enumerate(cases_here):
            cases += 1
            a = ours[i]
            b = others[i]
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
    shown = {"valid": result[0], "error": result[1], "fans": result[2]}
    if result[3]:
        shown["other_readings"] = list(result[3])
    return shown
