"""Hand-written scenes (checker/table/scene.py): the wall deals and draws exactly the tiles a scene names, filler
forms nothing with them, and a scene that cannot be dealt is refused by name."""
from __future__ import annotations

import pytest

from checker import tiles as T
from checker.case import CaseRunner
from checker.corpus.procedure_scenes import SCENES, scene_data
from checker.table.log import new_table, replay_events
from checker.table.events import parse_event
from checker.table.scene import SceneError, scene


def test_the_wall_deals_the_named_tiles_and_draws_them_in_order():
    header, events = scene("shanghai-knocking", {0: "5p", 2: "5p5p"},
                           ["0 discard 5p", "1 draw 5p", "1 discard 5p", "2 pung"])
    assert events == [{"event": "discard", "seat": 0, "tile": "5p"}, {"event": "draw", "seat": 1},
                      {"event": "discard", "seat": 1, "tile": "5p"}, {"event": "pung", "seat": 2}]
    table = new_table(header, CaseRunner())
    held = [table.players[s].counts for s in range(4)]
    assert held[0][T.parse_tile("5p")] == 1 and held[2][T.parse_tile("5p")] == 2 and held[1][T.parse_tile("5p")] == 0
    assert sum(held[0]) == 14 and sum(held[1]) == sum(held[2]) == sum(held[3]) == 13
    table.apply(parse_event(events[0]))
    table.apply(parse_event(events[1]))
    assert table.players[1].counts[T.parse_tile("5p")] == 1  # the draw the scene named


def test_filler_is_suited_never_named_and_never_paired_with_the_named_tiles():
    header, _ = scene("mcr", {1: "1m2m3m"}, ["0 discard ?"])
    table = new_table(header, CaseRunner())
    for seat in range(4):
        counts = table.players[seat].counts
        assert all(counts[t] == 0 for t in range(27, 42)), seat  # no honour, no flower
    assert sum(table.players[s].counts[t] for s in (0, 2, 3) for t in T.parse_tiles("1m2m3m")) == 0


def test_a_discard_of_filler_throws_the_seats_latest_filler_tile():
    header, events = scene("mcr", {}, ["0 discard ?", "1 draw", "1 discard ?"])
    assert replay_events(header, events).verdict == "unfinished"
    assert events[1] == {"event": "draw", "seat": 1} and events[2]["tile"] != events[0]["tile"]


@pytest.mark.parametrize("hands, events, words", [
    ({0: "5p5p", 2: "5p5p5p"}, [], "no 5p left"),  # a fifth 5p
    ({1: "1m" * 14}, [], "seat 1 is dealt 13 tiles"),
    ({}, ["seat 1 draws"], "write SEAT KIND"),
    ({1: "1m1m1m2m2m2m3m3m3m4m4m4m5m"}, ["1 discard ?"], "holds no filler tile"),  # all 13 named
    ({}, ["1 draw 5x"], "1 draw 5x"),
])
def test_a_scene_that_cannot_be_dealt_is_refused_by_name(hands, events, words):
    with pytest.raises(SceneError, match=words):
        scene("mcr", hands, events)


@pytest.mark.parametrize("ruleset_id", ["mcr", "shanghai-classic", "shanghai-knocking"])
def test_every_search_scene_deals_on_every_ruleset(ruleset_id):
    for s in SCENES:
        data = scene_data(ruleset_id, s)
        assert data is not None and len(data["events"]) == len(s.events), s.name
