"""Whole hands played by bots (checker.table.bots), each written as a game log, and what they add up to.

A hand is fully determined by its header (ruleset, options, seed, dealer) and the bots' seed: the same
arguments give the same log, byte for byte.
"""
from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from checker.scorers import Scorers
from checker.table.bots import Bot, next_events
from checker.table.log import GAME, VERSION, new_table
from checker.table.settle import hand_result
from checker.table.state import Table

MAX_EVENTS = 2000  # a hand has at most a few hundred events; more means a bug, never an endless loop


class SimulationError(RuntimeError):
    """The bots found no legal move (a defect of the procedure engine or of the bots): names the hand."""


@dataclass
class Hand:
    header: dict[str, Any]
    events: list[dict[str, Any]]
    result: dict[str, Any]
    table: Table

    def lines(self) -> list[str]:
        return [json.dumps(self.header, ensure_ascii=False)] + \
            [json.dumps(e, ensure_ascii=False) for e in self.events]


def play_hand(ruleset: str, seed: int, bots: Sequence[str] = ("greedy",) * 4,
              options: Mapping[str, Any] | None = None, dealer: int = 0, counters: Mapping[str, int] | None = None,
              runner: Scorers | None = None, hand_number: int = 0, round_wind: str = "E") -> Hand:
    """Play one hand on the wall `seed` shuffles, the bots deciding from a generator seeded by `seed` too."""
    header: dict[str, Any] = {"game": GAME, "version": VERSION, "ruleset": ruleset, "seed": seed, "dealer": dealer,
                              "seats": list(bots)}
    if hand_number:
        header["hand"] = hand_number
    if round_wind != "E":
        header["round_wind"] = round_wind
    if options:
        header["options"] = dict(options)
    if counters:
        header["counters"] = dict(counters)
    table = new_table(header, runner)
    rng = random.Random(seed ^ 0x5EED)
    players = [Bot(kind, rng) for kind in bots]
    events: list[dict[str, Any]] = []
    while not table.ended or (table.wins and table._more_wins_open() and _more(table, players)):
        for ev in next_events(table, players):
            if table.apply(ev) is None:
                events.append(ev.as_dict())
                break
        else:
            if table.ended:
                break
            raise SimulationError(f"{ruleset} seed {seed}: no legal move found in phase {table.phase} "
                                  f"(seat {table.turn}; {table._expected()})")
        if len(events) > MAX_EVENTS:
            raise SimulationError(f"{ruleset} seed {seed}: more than {MAX_EVENTS} events")
    return Hand(header, events, hand_result(table), table)


def _more(table: Table, players: list[Bot]) -> bool:
    return bool(next_events(table, players))


@dataclass
class Summary:
    """What a run of simulated hands adds up to (the table `mjcheck game simulate` prints)."""

    ruleset: str
    hands: int = 0
    wins: int = 0
    self_draws: int = 0
    discard_wins: int = 0
    robbing_wins: int = 0
    drawn: int = 0
    multiple_wins: int = 0
    forfeits: int = 0
    lou_hu_blocks: int = 0
    value: int = 0
    patterns: Counter = field(default_factory=Counter)

    def add(self, hand: Hand) -> None:
        result, table = hand.result, hand.table
        self.hands += 1
        winners = result["winners"]
        if not winners:
            self.drawn += 1
        if len(winners) > 1:
            self.multiple_wins += 1
        for w in winners:
            self.wins += 1
            self.value += w["total"]
            self.self_draws += w["win_by"] == "self_draw"
            self.discard_wins += w["win_by"] == "discard"
            self.robbing_wins += w["win_by"] == "robbing_kong"
            top = max(w["fans"], key=lambda f: f["points"])["id"] if w["fans"] else "(none)"
            self.patterns[top] += 1
        self.forfeits += len(result.get("forfeits", []))
        self.lou_hu_blocks += table.lou_hu_blocks

    def as_dict(self) -> dict[str, Any]:
        return {"ruleset": self.ruleset, "hands": self.hands, "wins": self.wins, "self_draws": self.self_draws,
                "discard_wins": self.discard_wins, "robbing_kong_wins": self.robbing_wins, "drawn": self.drawn,
                "multiple_wins": self.multiple_wins, "forfeits": self.forfeits,
                "lou_hu_blocks": self.lou_hu_blocks,
                "average_value": round(self.value / self.wins, 2) if self.wins else 0,
                "top_patterns": dict(self.patterns.most_common())}
