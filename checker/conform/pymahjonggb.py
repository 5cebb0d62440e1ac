"""PyMahjongGB (module `MahjongGB`, the extra `peers`) as an engine under test, for MCR score cases.

A case's input is read into a `Hand` by the reference engine's parser (so a malformed hand is refused the
same way), then given to `MahjongGB.MahjongFanCalculator` as `benchmarks/score_mcr.py` does. PyMahjongGB
names each fan in Chinese and English; the English names are matched to the spec's patterns by their
English names once, when the engine is made (`fan_table`). A fan the spec does not have (明暗杠, 5 points)
keeps PyMahjongGB's own name as its id, so a report shows it as a fan outside the spec.

PyMahjongGB scores fans only. What it leaves to the program around it is read from the spec, under the
case's options, and applied to PyMahjongGB's fans: the minimum before flowers (`win.minimum_points`,
`win.minimum_excludes`) and the payments (`settlement`).
"""
from __future__ import annotations

import importlib
from importlib.metadata import PackageNotFoundError, version
from typing import Any, Mapping

from checker.case import CaseRunner, hand_from_input
from checker.conform.adapters import EngineError, EngineInfo, InProcessEngine
from checker.engine import Hand, HandError
from checker.spec import Ruleset
from checker.inputs import excerpt

RULESET = "mcr"

# MahjongGB tile codes by tile index: W characters, B dots, T bamboo, F1-F4 winds, J1 Red, J2 Green, J3 White.
GB_CODES = tuple([f"W{r}" for r in range(1, 10)] + [f"B{r}" for r in range(1, 10)] + [f"T{r}" for r in range(1, 10)]
                 + ["F1", "F2", "F3", "F4", "J3", "J2", "J1"])
GB_WIND = {27: 0, 28: 1, 29: 2, 30: 3}

# PyMahjongGB's English fan names that the spec spells otherwise (compared after `_plain`).
SPELLED_OTHERWISE = {"four pure shifted chows": "four shifted chows", "all five": "all fives",
                     "two dragons pungs": "two dragon pungs"}

# PyMahjongGB's refusals (a TypeError with one of these codes), as the rule ids the reference engine reports.
GB_ERRORS = {"ERROR_NOT_WIN": "win.shape", "ERROR_WRONG_TILES_COUNT": "tiles.hand_size",
             "ERROR_TILE_COUNT_GREATER_THAN_4": "tiles.four_copies"}


def _plain(name: str) -> str:
    return " ".join(name.casefold().replace("-", " ").split())


def fan_table(ruleset: Ruleset) -> dict[str, str]:
    """Spec fan ids by PyMahjongGB's English fan name (plain-cased), built from the spec's English names."""
    return {_plain(p.name_en): p.id for p in ruleset.patterns}


def fan_id(table: Mapping[str, str], name_en: str, name_zh: str) -> str:
    """The spec id of a PyMahjongGB fan, or its own (Chinese) name when the spec has no such fan."""
    plain = _plain(name_en)
    return table.get(SPELLED_OTHERWISE.get(plain, plain), name_zh)


def to_mahjonggb(hand: Hand) -> tuple:
    """The arguments of MahjongGB.MahjongFanCalculator for one hand (benchmarks/score_mcr.py times it too)."""
    packs = []
    for m in hand.melds:
        if m.kind == "chow":
            packs.append(("CHI", GB_CODES[m.tile + 1], 1))
        elif m.kind == "pung":
            packs.append(("PENG", GB_CODES[m.tile], m.source or 1))
        else:
            packs.append(("GANG", GB_CODES[m.tile], 0 if m.concealed else (m.source or 1)))
    flags, win_by = hand.flags, hand.win_by
    return (tuple(packs), tuple([GB_CODES[t] for t in hand.concealed]), GB_CODES[hand.win_tile], len(hand.flowers),
            win_by == "self_draw", "fourth_tile_visible" in flags,
            # is_kong: a robbed kong, or a win directly on a kong's replacement (not a flower replacement after a
            # kong: kong_replacement with flower_replacement, which the spec does not count as one by default)
            win_by == "robbing_kong" or ("kong_replacement" in flags and "flower_replacement" not in flags),
            "last_tile" in flags, GB_WIND[hand.seat_wind], GB_WIND[hand.round_wind])


class PyMahjongGB:
    """A case → result function calling PyMahjongGB."""

    def __init__(self, runner: CaseRunner, calculator: Any):
        self._runner, self._calculate = runner, calculator
        self._fans = fan_table(runner.ruleset(RULESET))
        self._ids: dict[str, str] = {}  # PyMahjongGB's English fan name -> fan id, as met

    def __call__(self, case: Mapping[str, Any]) -> dict[str, Any]:
        scorer = self._runner.scorer(RULESET, case.get("options"))
        try:
            hand = hand_from_input(case["input"], scorer)
        except HandError as exc:
            return {"valid": False, "error": exc.rule, "message": str(exc)}
        return self.score(hand, scorer)

    def score(self, hand: Hand, scorer: Any) -> dict[str, Any]:
        """PyMahjongGB's result for a hand already read, the spec's minimum and payments under `scorer`'s
        options applied to its fans."""
        found = self._found(hand)
        if isinstance(found, str):
            if found not in GB_ERRORS:  # not a refusal PyMahjongGB documents: the case is errored, not failed
                raise EngineError(f"PyMahjongGB raised TypeError {excerpt(found, 200)}")
            return {"valid": False, "error": GB_ERRORS[found], "message": f"PyMahjongGB: {found}"}
        fans = [{"id": fid, "points": points, "count": count} for fid, points, count in found]
        total = sum(points * count for _, points, count in found)
        qualifying = _qualifying(found, scorer)
        win = scorer.ruleset.win
        if qualifying < win.minimum_points:
            return {"valid": False, "error": "win.minimum_points",
                    "message": f"{qualifying} points before flowers; {win.minimum_points} needed"}
        return {"valid": True, "total": total, "fans": fans,
                "payments": list(scorer.settlement.pay(hand, total, False))}

    def fan_totals(self, hand: Hand, scorer: Any) -> tuple[bool, str | None, dict[str, int]]:
        """What the sweep compares of `score`'s result (as Scorer.fan_totals_of_wins gives it): whether the hand
        may win, the rule refusing it, the points of each fan by id; no payments or messages are made."""
        return self._totals(self._found(hand), scorer)

    def fan_totals_of_wins(self, hands: list[Hand], scorer: Any) -> list[tuple[bool, str | None, dict[str, int]]]:
        """`fan_totals` of each hand of a sweep's batch (hands alike but for the winning tile and way): a hand won
        on the same tile as the one before it, another way, reuses that one's arguments."""
        out = []
        last: Hand | None = None
        args: list = []
        for hand in hands:
            if last is not None and hand.win_tile == last.win_tile and hand.concealed == last.concealed \
                    and hand.melds == last.melds and hand.flags == last.flags and hand.win_by != "robbing_kong" \
                    and last.win_by != "robbing_kong":
                args[4] = hand.win_by == "self_draw"
            else:
                args = list(to_mahjonggb(hand))
            last = hand
            out.append(self._totals(self._call(args), scorer))
        return out

    def _totals(self, found: list[tuple[str, int, int]] | str, scorer: Any) -> tuple[bool, str | None, dict[str, int]]:
        if isinstance(found, str):  # a refusal; one PyMahjongGB does not document keeps its own words
            return False, GB_ERRORS.get(found, f"PyMahjongGB raised TypeError {excerpt(found, 200)}"), {}
        win = scorer.ruleset.win
        excluded = win.minimum_excludes
        fans: dict[str, int] = {}
        qualifying = 0
        for fid, points, count in found:
            fans[fid] = fans.get(fid, 0) + points * count
            if fid not in excluded:
                qualifying += points * count
        if qualifying < win.minimum_points:
            return False, "win.minimum_points", fans
        return True, None, fans

    def _found(self, hand: Hand) -> list[tuple[str, int, int]] | str:
        """PyMahjongGB's fans of the hand as (spec id, points, count), or its refusal code."""
        return self._call(list(to_mahjonggb(hand)))

    def _call(self, args: list) -> list[tuple[str, int, int]] | str:
        """PyMahjongGB's fans for its arguments (`to_mahjonggb`) as (spec id, points, count), or its refusal code."""
        try:
            found = self._calculate(*args, True)
        except TypeError as exc:
            return str(exc)
        ids = self._ids
        out = []
        for points, count, zh, en in found:
            fid = ids.get(en)
            if fid is None:
                fid = ids[en] = fan_id(self._fans, en, zh)
            out.append((fid, points, count))
        return out


def _qualifying(found: list[tuple[str, int, int]], scorer: Any) -> int:
    """The points that count toward the spec's minimum (win.minimum_excludes left out), under `scorer`."""
    excluded = scorer.ruleset.win.minimum_excludes
    return sum(points * count for fid, points, count in found if fid not in excluded)


def calculator() -> Any:
    """MahjongGB.MahjongFanCalculator; EngineError when PyMahjongGB is not installed."""
    try:
        return importlib.import_module("MahjongGB").MahjongFanCalculator
    except ImportError:
        raise EngineError("pymahjonggb: PyMahjongGB is not installed (module MahjongGB); install it with "
                          "pip install 'mjcheck[peers]' or pip install pymahjonggb") from None


def pymahjonggb_engine(extra: Mapping[str, Ruleset] | None = None) -> InProcessEngine:
    """PyMahjongGB as an in-process engine; EngineError when it is not installed."""
    calculate = calculator()
    try:
        gb_version = version("pymahjonggb")
    except PackageNotFoundError:
        gb_version = "unknown"
    engine = PyMahjongGB(CaseRunner(extra), calculate)
    return InProcessEngine(engine, EngineInfo("PyMahjongGB", gb_version, (RULESET,), ("score",)), forks_unasked=True)
