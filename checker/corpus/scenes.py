"""Hand-made hands of play for procedure rules that bot-played hands seldom reach: knocking's mandatory kong (a
knocked player must extend its exposed pung with the fourth tile, unless that tile wins) and robbing the kong
(only a kong that exposes a tile may be robbed). Each scene is worked by hand, its outcome included, in
tests/test_table_knocking_classic.py, which reads the scenes from here; the procedure corpus takes them as
cases (`mjcheck corpus generate --kind procedure`).

Events are written short, one string each: "0 draw 5p", "1 discard 3s", "0 add_kong 7p", "0 draw 9s back" (a
replacement draw from the back of the wall), "2 win"; `event` turns one into the log's form.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from checker.table.log import GAME, VERSION
from checker.table.wall import arrange_wall
from checker.tiles import format_tiles

# the procedure entries the scenes below were made and worked under (the knocking guide's): a ruleset plays them
# when its spec executes every one of these entries, whatever it names its rules
MANDATORY_KONG_SCENE = ("knock", "mandatory_kong")


def event(text: str) -> dict[str, Any]:
    """'1 draw 5p' -> {"event": "draw", "seat": 1, "tile": "5p"}; '0 chow 345m'; '0 draw 9s back'."""
    words = text.split()
    if words == ["draw_game"]:
        return {"event": "draw_game"}
    seat, kind, rest = int(words[0]), words[1], words[2:]
    out: dict[str, Any] = {"event": kind, "seat": seat}
    if "back" in rest:
        rest.remove("back")
        out["from"] = "back"
    if rest:
        out["tiles" if kind in ("chow", "swap") else "tile"] = rest[0]
    return out


def header(ruleset: str, hands: dict[int, str], draws: str = "", back: str = "",
           options: dict[str, Any] | None = None, dealer: int = 0) -> dict[str, Any]:
    """A log header whose wall deals `hands` (seat -> tiles), then gives `draws` from the front and `back` from
    the back of the wall, in order."""
    wall = arrange_wall(hands, draws, back, dealer=dealer)
    return {"game": GAME, "version": VERSION, "ruleset": ruleset, "options": dict(options or {}),
            "wall": format_tiles(wall), "dealer": dealer}


@dataclass(frozen=True)
class Scene:
    id: str
    plays: tuple[str, ...]  # the procedure entries a ruleset executes for the scene to be its own
    hands: dict[int, str]
    draws: str
    events: tuple[str, ...]
    covers: tuple[str, ...]
    back: str = ""
    options: dict[str, Any] = field(default_factory=dict)
    test: str = ""  # the test that works it by hand

    def header(self, ruleset_id: str) -> dict[str, Any]:
        return header(ruleset_id, self.hands, self.draws, self.back, self.options)

    def played_by(self, executed: Iterable[str]) -> bool:
        """Whether a ruleset executing the procedure entries `executed` plays this scene."""
        return set(self.plays) <= set(executed)

    def log_events(self) -> list[dict[str, Any]]:
        return [event(e) for e in self.events]


# Seat 0: 123m 456m 789m 77p 1s 2s (and 5s). It discards 1s; seat 1 draws and discards 7p; seat 0 pungs it, knocks
# and discards 2s: 123m 456m 789m 5s [777p], waiting on 5s. Seats 1-3 draw and discard 3s, 4s, 8s; seat 0 draws
# the fourth 7p.
MK_FILL_1 = "1z1z1z2z2z2z3z3z3z4z4z4z9m"
MK_FILL_2 = "1z2z3z4z5m5m6m6m7m7m8m8m9m"
MK_FILL_3 = "1m1m2m2m3m3m4m4m6s6s7s7s8s"
MK_HANDS = {0: "123m456m789m77p5s1s2s", 1: MK_FILL_1, 2: MK_FILL_2, 3: MK_FILL_3}
MK_OPEN = ("0 discard 1s", "1 draw 7p", "1 discard 7p", "0 pung", "0 knock", "0 discard 2s")
MK_ROUND = ("1 draw 3s", "1 discard 3s", "2 draw 4s", "2 discard 4s", "3 draw 8s", "3 discard 8s", "0 draw 7p")

SCENES = (
    Scene("mandatory-kong-refused", MANDATORY_KONG_SCENE, MK_HANDS, "7p3s4s8s7p", MK_OPEN + MK_ROUND + ("0 discard 7p",),
          ("procedure.mandatory_kong",),
          test="test_knocked_player_discarding_the_fourth_tile_of_its_pung_is_illegal"),
    Scene("mandatory-kong-then-win", MANDATORY_KONG_SCENE, MK_HANDS, "7p3s4s8s7p5s",
          MK_OPEN + MK_ROUND + ("0 add_kong 7p", "0 draw 9s back", "0 discard 9s", "1 draw 5s", "1 discard 5s",
                                "0 win"),
          ("procedure.mandatory_kong", "procedure.replacement_draw", "procedure.knock"), back="9s",
          test="test_mandatory_add_kong_then_back_draw_is_legal"),
    Scene("mandatory-kong-robbed", MANDATORY_KONG_SCENE, {0: "123m456m789m77p5s1s2s", 1: MK_FILL_1, 2: "123s456s789s68p55m",
                                              3: MK_FILL_3}, "7p3p4p9p7p",
          MK_OPEN + ("1 draw 3p", "1 discard 3p", "2 draw 4p", "2 knock", "2 discard 4p", "3 draw 9p", "3 discard 9p",
                     "0 draw 7p", "0 add_kong 7p", "2 win"),
          ("procedure.robbing_kong", "procedure.mandatory_kong", "settlement.robbing_kong"),
          test="test_ready_knocked_player_robs_the_mandatory_add_kong"),
    Scene("concealed-kong-not-robbed", MANDATORY_KONG_SCENE, {0: "1111m456m789m23p5s9s", 1: MK_FILL_1,
                                                  2: "1z2z3z4z5p5p6p6p7p7p8p8p9p", 3: "123s456s789s11p23m"},
          "9p3s4s5s",
          ("0 discard 9s", "1 draw 9p", "1 discard 9p", "2 draw 3s", "2 discard 3s", "3 draw 4s", "3 knock",
           "3 discard 4s", "0 draw 5s", "0 concealed_kong 1m", "3 win"),
          ("procedure.robbing_kong",), test="test_robbing_a_concealed_kong_is_illegal"),
)
