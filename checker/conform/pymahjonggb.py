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
    return (tuple(packs), tuple(GB_CODES[t] for t in hand.concealed), GB_CODES[hand.win_tile], len(hand.flowers),
            hand.self_drawn, "fourth_tile_visible" in hand.flags,
            # is_kong: a robbed kong, or a win directly on a kong's replacement (not a flower replacement after a
            # kong: kong_replacement with flower_replacement, which the spec does not count as one by default)
            hand.win_by == "robbing_kong" or ("kong_replacement" in hand.flags
                                              and "flower_replacement" not in hand.flags), "last_tile" in hand.flags,
            GB_WIND[hand.seat_wind], GB_WIND[hand.round_wind])


class PyMahjongGB:
    """A case → result function calling PyMahjongGB."""

    def __init__(self, runner: CaseRunner, calculator: Any):
        self._runner, self._calculate = runner, calculator
        self._fans = fan_table(runner.ruleset(RULESET))

    def __call__(self, case: Mapping[str, Any]) -> dict[str, Any]:
        scorer = self._runner.scorer(RULESET, case.get("options"))
        try:
            hand = hand_from_input(case["input"], scorer)
        except HandError as exc:
            return {"valid": False, "error": exc.rule, "message": str(exc)}
        return self.score(hand, scorer)

    def score(self, hand: Hand, scorer: Any) -> dict[str, Any]:
        """PyMahjongGB's result for a hand already read (the sweep calls this directly), the spec's minimum and
        payments under `scorer`'s options applied to its fans."""
        try:
            found = self._calculate(*to_mahjonggb(hand), True)
        except TypeError as exc:
            code = str(exc)
            return {"valid": False, "error": GB_ERRORS.get(code, "win.shape"), "message": f"PyMahjongGB: {code}"}
        fans = [{"id": fan_id(self._fans, en, zh), "points": points, "count": count}
                for points, count, zh, en in found]
        # PyMahjongGB lists fans only: the minimum and the payments are the spec's (win, settlement), under the
        # case's options, applied to its fans
        win = scorer.ruleset.win
        total = sum(f["points"] * f["count"] for f in fans)
        qualifying = total - sum(f["points"] * f["count"] for f in fans if f["id"] in win.minimum_excludes)
        if qualifying < win.minimum_points:
            return {"valid": False, "error": "win.minimum_points",
                    "message": f"{qualifying} points before flowers; {win.minimum_points} needed"}
        return {"valid": True, "total": total, "fans": fans,
                "payments": list(scorer.settlement.pay(hand, total, False))}


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
    return InProcessEngine(engine, EngineInfo("PyMahjongGB", gb_version, (RULESET,), ("score",)))
