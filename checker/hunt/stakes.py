"""What a reading of a scoring option puts at stake: the hands some other reading changes, and the money moved.

Two counts, each with its method stated beside it on the pages:
- `known`: the known legal hands (the checked-in corpus and the document's examples), which carry the context
  the documents price (flowers, 荒番, 开宝, claimed sets) but lean towards the hands someone chose to write down;
- `space`: an even sample of the exhaustive spaces of checker/space, the concealed regular hands and the hands
  with one claimed set, every `stride`-th hand of each in the spaces' own order, each with its every winning tile,
  self-drawn and on a discard, and the flags the ruleset's every win requires (the knock); the hands take in turn
  one context of `contexts` (none, each counter at 1 to 3 within its range, each other flag of the ruleset alone;
  none where the ruleset's hand checks refuse it, as a replacement-draw flag on a hand without a kong), so a
  reading that prices 荒番, 开宝 or a contract partner touches some of them. No flowers. Where one discard may
  have several winners, each paid as a hand of its own (一炮多响, procedure.multiple_winners: all_paid), the wins
  on a discard are also taken two by two in the sample's order, the second won from the other side (its discarder
  the seat before it where the first's is the seat after, or the reverse): the two win on one discard, and the
  discarder pays both (`two_winners`).

A hand is touched when some other reading of the option changes whether it may win, its value or a payment; the
money moved is the sum over touched hands of the largest change of one seat's payment (a hand that may not win
pays nothing).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator, Mapping, Sequence, TypeVar

from checker import tiles as T
from checker.case import CaseRunner
from checker.engine import Scorer
from checker.engine.hand import Hand
from checker.hunt.options import differs, outcome
from checker.space.concealed import ALL_TILES, ConcealedSpace
from checker.space.open import OpenSpace
from checker.space.wins import wins_of
from checker.spec import Ruleset

SPACE_HANDS = 240  # hands drawn from each space (concealed, one claimed set): a few thousand cases in all


@dataclass(frozen=True)
class Count:
    touched: int
    of: int
    moved: int


def _refused_log(result: Mapping[str, Any]) -> bool:
    return result.get("verdict") in ("illegal", "unfinished")


def payments(result: Mapping[str, Any]) -> list[int] | None:
    """The payments of an outcome; None when it pays nothing (a hand that may not win, a refused log)."""
    pays = result.get("payments")
    if result.get("valid") is False or result.get("verdict") in ("illegal", "unfinished"):
        return None
    return [int(x) for x in pays] if pays else None


def change(a: Mapping[str, Any], b: Mapping[str, Any]) -> int:
    """The most one seat's payment differs between two outcomes (a hand that may not win pays nothing). A log of
    play one reading refuses is not priced against the same log the other reading plays out: what the refused
    hand would have paid is not known, so 0."""
    if _refused_log(a) != _refused_log(b):
        return 0
    pa, pb = payments(a), payments(b)
    if pa is None and pb is None:
        return 0
    pa = pa or [0] * len(pb or [])
    pb = pb or [0] * len(pa)
    return max((abs(x - y) for x, y in zip(pa, pb)), default=0)


def counted_known(runner: CaseRunner, ruleset: Ruleset, option_id: str,
                  pool: Sequence[Mapping[str, Any]], defaults: dict[int, Any] | None = None) -> Count:
    """The option's stakes over known hands (case inputs); `defaults`, if given, keeps each hand's result under
    the default readings (by its place in the pool) for the next option's count."""
    option = ruleset.options[option_id]
    touched = moved = 0
    kept = defaults if defaults is not None else {}
    for i, data in enumerate(pool):
        if i not in kept:
            kept[i] = outcome(runner, ruleset.id, {}, data)
        first = kept[i]
        others = [outcome(runner, ruleset.id, {option_id: v}, data) for v in option.other_values()]
        if any(differs(first, other) for other in others):
            touched += 1
            moved += max(change(first, other) for other in others)
    return Count(touched, len(pool), moved)


Context = tuple[frozenset[str], tuple[tuple[str, int], ...]]  # (flags beside the required ones, counters)
MOST_COUNT = 3  # a counter's values in the sample: 1 up to this (within its declared range)


def contexts(ruleset: Ruleset) -> list[Context]:
    """The contexts the sample's hands take in turn: none; each counter of the ruleset at 1 to MOST_COUNT (within
    its range: 荒番 1-3, a contract partner's seat, a room's 底分); each flag a win does not already require, alone
    (开宝, a replacement draw, …; `space_sample` gives a hand no context where its hand checks refuse one)."""
    required = set(ruleset.win.required_flags)
    out: list[Context] = [(frozenset(), ())]
    for name, counter in ruleset.counters.items():
        out += [(frozenset(), ((name, v),)) for v in range(max(1, counter.min), min(MOST_COUNT, counter.max) + 1)]
    out += [(frozenset({flag}), ()) for flag in ruleset.flags if flag not in required]
    return out


def space_sample(ruleset: Ruleset, hands: int = SPACE_HANDS) -> list[list[Hand]]:
    """Every `stride`-th hand of the concealed space and of the one-claimed-set space (dragons left out where they
    are flowers), each as its wins (`wins_of`) with the flags every win of the ruleset requires, the hands taking
    the `contexts` in turn."""
    tiles = ALL_TILES & ~sum(1 << t for t in T.DRAGONS) if ruleset.dragons_as_flowers else ALL_TILES
    required = frozenset(ruleset.win.required_flags)
    cycle = contexts(ruleset)
    checks = Scorer(ruleset)  # its hand checks: a context the hand cannot carry (a replacement draw, no kong) goes
    out: list[list[Hand]] = []
    for space in (ConcealedSpace(tiles), OpenSpace(1, tiles)):
        for melds, counts in _strided(space, hands):
            flags, counters = cycle[len(out) % len(cycle)]
            wins = [_in_context(h, flags, counters) for h in wins_of(counts, melds, required | flags)]
            out.append([h if checks.accepts(h) else _in_context(h, frozenset(), (), required) for h in wins])
    return out


def _in_context(hand: Hand, flags: frozenset[str], counters: tuple[tuple[str, int], ...],
                required: frozenset[str] | None = None) -> Hand:
    """The hand with these counters; with `required` given, its flags are those and `flags` only."""
    kept = hand.flags if required is None else required | flags
    if not counters and kept == hand.flags:
        return hand
    return Hand(hand.concealed, hand.melds, hand.win_tile, hand.win_by, hand.discarder, hand.seat_wind,
                hand.round_wind, hand.flowers, kept, counters)


def _strided(space: Any, hands: int) -> Iterator[tuple[tuple[Any, ...], tuple[int, ...]]]:
    stride = max(space.size // hands, 1)
    for number in range(0, space.size, stride):
        for got in space.hands(number, number + 1):
            yield got if isinstance(space, OpenSpace) else ((), got)


def counted_space(runner: CaseRunner, ruleset: Ruleset, option_id: str, sample: Sequence[Sequence[Hand]],
                  defaults: dict[tuple[int, int], Any] | None = None) -> Count:
    """The option's stakes over a space sample (`space_sample`): cases, not hands, are counted; where one discard
    may have several winners, each pair of `two_winners` too, as one case. `defaults`, if given, keeps each
    win's result under the default readings (by its place in the sample) for the next option's count."""
    option = ruleset.options[option_id]
    first = runner.scorer(ruleset.id, {})
    others = [runner.scorer(ruleset.id, {option_id: v}) for v in option.other_values()]
    touched = moved = of = 0
    on_discard: list[tuple[Hand, dict[str, Any], list[dict[str, Any]]]] = []  # (each reading's result)
    kept = defaults if defaults is not None else {}
    for n, wins in enumerate(sample):
        for i, h in enumerate(wins):
            if (n, i) not in kept:
                kept[(n, i)] = _result(first, h)
        a = [kept[(n, i)] for i in range(len(wins))]
        bs = [[_result(o, h) for h in wins] for o in others]
        for i, mine in enumerate(a):
            of += 1
            theirs = [b[i] for b in bs]
            if any(differs(mine, t) for t in theirs):
                touched += 1
                moved += max(change(mine, t) for t in theirs)
            if wins[i].win_by == "discard":
                on_discard.append((wins[i], mine, theirs))
    if first.bound.procedure.multiple_winners == "all_paid":
        for (one, mine_a, theirs_a), two in two_winners(on_discard, [hand for hand, _, _ in on_discard]):
            mine_b, theirs_b = _result(first, two), [_result(o, two) for o in others]
            of += 1
            if any(differs(mine_a, t) for t in theirs_a) or any(differs(mine_b, t) for t in theirs_b):
                touched += 1
                both = _one_discard(one, mine_a, two, mine_b)
                moved += max(change(both, _one_discard(one, ta, two, tb)) for ta, tb in zip(theirs_a, theirs_b))
    return Count(touched, of, moved)


T_ = TypeVar("T_")


def two_winners(items: Sequence[T_], hands: Sequence[Hand]) -> list[tuple[T_, Hand]]:
    """The wins on a discard two by two in order (`items[i]` stands for `hands[i]`), each pair's second hand won
    from the other side of its winner (its discarder the seat before it where the first's is the seat after, or
    the reverse; across from both where the first's is across), so the two winners sit apart and the discarder
    at neither's seat: (the first's item, the second hand so seated)."""
    other_side = {1: 3, 3: 1, 2: 1}
    out = []
    for i in range(0, len(hands) - 1, 2):
        first, second = hands[i], hands[i + 1]
        seat = other_side.get(int(first.discarder or 1), 3)
        out.append((items[i], Hand(second.concealed, second.melds, second.win_tile, second.win_by, seat,
                                   second.seat_wind, second.round_wind, second.flowers, second.flags,
                                   second.counters)))
    return out


def _one_discard(first: Hand, paid_first: Mapping[str, Any], second: Hand, paid_second: Mapping[str, Any]
                 ) -> dict[str, Any]:
    """Two wins on one discard as one outcome: each winner's payments (relative to it) placed at absolute seats,
    the discarder at seat 0, and added (a hand that may not win pays nothing)."""
    seats = [0, 0, 0, 0]
    for hand, paid in ((first, paid_first), (second, paid_second)):
        pays = payments(paid)
        if pays is None:
            continue
        winner = -int(hand.discarder or 0) % 4
        for k, amount in enumerate(pays):
            seats[(winner + k) % 4] += amount
    return {"valid": True, "payments": seats}


def _result(scorer: Any, hand: Hand) -> dict[str, Any]:
    try:
        s = scorer.score(hand)
    except ValueError as exc:  # a hand check refuses it (HandError is a ValueError)
        return {"valid": False, "error": getattr(exc, "rule", "input")}
    return {"valid": s.valid, "total": s.total if s.valid else None,
            "payments": list(s.payments) if s.valid and s.payments else None}
