"""Recorded Botzone matches (checker/matchlog/botzone.py) and the flowerless wall they are played on.

The format, as the judge of Botzone's Chinese Standard Mahjong (duplicate format) writes it: `initdata.walltiles`
holds 136 tiles, player i's part is tiles 34i..34i+33, dealt and drawn from its end; player 0 deals and draws
first; displays DEAL, DRAW, PLAY, PENG (with the tile discarded after the pung), CHI (with `tileCHI`, the chow's
middle tile, and the tile discarded after it), GANG (concealed after the player's own draw, else the claim of the
discard), BUGANG, HU, HUANG, or a penalty code. Each expectation below is read off those sentences.
"""
from __future__ import annotations

import json
from typing import Any

import pytest
from typer.testing import CliRunner

from checker import tiles as T
from checker.cli import app
from checker.matchlog import MatchLogError
from checker.matchlog import botzone
from checker.table.log import LogError, new_table, replay_events
from checker.table.simulate import play_hand
from checker.table.wall import WallError, parse_wall, shuffled_wall

OPTIONS = {"wall_model": "quarters", "flower_tiles_in_wall": False}
HEADER = {"game": "mjcheck-table", "version": 1, "ruleset": "mcr"}

# A wall of the 136 tiles in tile order (1m 1m 1m 1m 2m … 7z), written as Botzone names: part 0 is the 34 tiles
# 1m×4 … 8m×4, 9m×2; its end (the last tile) is dealt first.
ORDERED = [t for t in range(T.NUM_TILE_TYPES) for _ in range(4)]
WALLTILES = " ".join(botzone.botzone_name(T.format_tiles([t])) for t in ORDERED)


def _turn(display: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"output": {"command": "request", "display": display}}, {"0": {"response": "PASS"}}]


def _match(*displays: dict[str, Any], initdata: Any = None) -> dict[str, Any]:
    log = [e for d in ({"action": "INIT", "quan": 1}, {"action": "DEAL"}, *displays) for e in _turn(d)]
    return {"initdata": initdata if initdata is not None else {"walltiles": WALLTILES, "quan": 1}, "log": log}


def test_tile_names():
    # W characters, B dots, T bamboos; F1-F4 East to North; J1 red 中, J2 green 发, J3 white 白
    assert [botzone.tile(n, "t") for n in ("W1", "B5", "T9", "F1", "F4", "J1", "J2", "J3")] == \
        ["1m", "5p", "9s", "1z", "4z", "7z", "6z", "5z"]
    assert [botzone.botzone_name(t) for t in ("1m", "5p", "9s", "1z", "7z", "5z")] == ["W1", "B5", "T9", "F1", "J1", "J3"]
    with pytest.raises(MatchLogError, match="'H1' is not a tile of the duplicate format"):
        botzone.tile("H1", "here")


def test_the_wall_is_each_part_read_from_its_end_and_the_header_plays_the_judges_readings():
    imported = botzone.read(_match({"action": "DRAW", "player": 0, "tile": "W6"}, {"action": "HUANG"}))
    h = imported.header
    assert (h["ruleset"], h["options"], h["dealer"], h["round_wind"]) == ("mcr", OPTIONS, 0, "S")  # quan 1: South
    # part 0 = 1m×4 2m×4 … 8m×4 9m 9m; read from its end: 9m 9m 8m×4 … 1m×4
    assert h["wall"][0] == "9m9m" + "".join(f"{n}m" * 4 for n in range(8, 0, -1))
    # part 3 = tiles 102..135: 8s 8s (the third and fourth copies), 9s×4, 1z×4 … 7z×4; read from its end
    assert h["wall"][3] == "".join(f"{n}z" * 4 for n in range(7, 0, -1)) + "9s" * 4 + "8s8s"
    # the dealer's first DRAW is its 14th dealt tile (no event); HUANG is the drawn hand
    assert imported.events == [{"event": "draw_game"}] and imported.recorded_payments == [0, 0, 0, 0]


def test_each_display_becomes_the_events_the_table_reads():
    d = botzone.read(_match(
        {"action": "DRAW", "player": 0, "tile": "W6"},               # the dealer's 14th tile: no event
        {"action": "PLAY", "player": 0, "tile": "W1"},
        {"action": "CHI", "player": 1, "tileCHI": "W2", "tile": "B9"},  # chow 1m2m3m, then discards 9p
        {"action": "PENG", "player": 3, "tile": "T1"},                # pung of the 9p, then discards 1s
        {"action": "DRAW", "player": 0, "tile": "F1"},
        {"action": "GANG", "player": 0, "tile": "F1"},                # after its own draw: concealed
        {"action": "DRAW", "player": 0, "tile": "F2"},                # its replacement: from the back
        {"action": "PLAY", "player": 0, "tile": "J1"},
        {"action": "GANG", "player": 2, "tile": "J1"},                # on another's discard: the claim
        {"action": "DRAW", "player": 2, "tile": "F3"},
        {"action": "BUGANG", "player": 2, "tile": "T5"},
        {"action": "HU", "player": 1, "fanCnt": 8, "fan": [{"name": "抢杠和", "cnt": 1, "value": 8}],
         "score": [0, 48, -16, 0]}))                                   # on the added kong: robbing it, 5s
    assert d.events == [
        {"event": "discard", "seat": 0, "tile": "1m"},
        {"event": "chow", "seat": 1, "tiles": "1m2m3m"}, {"event": "discard", "seat": 1, "tile": "9p"},
        {"event": "pung", "seat": 3}, {"event": "discard", "seat": 3, "tile": "1s"},
        {"event": "draw", "seat": 0, "tile": "1z"},
        {"event": "concealed_kong", "seat": 0, "tile": "1z"},
        {"event": "draw", "seat": 0, "tile": "2z", "from": "back"},
        {"event": "discard", "seat": 0, "tile": "7z"},
        {"event": "kong", "seat": 2},
        {"event": "draw", "seat": 2, "tile": "3z", "from": "back"},
        {"event": "add_kong", "seat": 2, "tile": "5s"},
        {"event": "win", "seat": 1, "tile": "5s"},
    ]
    assert d.recorded_payments == [0, 48, -16, 0] and d.recorded["fan_total"] == 8


def test_what_the_format_cannot_be_is_refused_naming_it():
    with pytest.raises(MatchLogError, match="144 tiles: the single-wall format"):
        botzone.read(_match(initdata={"walltiles": WALLTILES + " H1 H2 H3 H4 H5 H6 H7 H8", "quan": 0}))
    with pytest.raises(MatchLogError, match="holds 135 tiles"):
        botzone.read(_match(initdata={"walltiles": WALLTILES.rsplit(" ", 1)[0], "quan": 0}))
    with pytest.raises(MatchLogError, match=r"initdata.walltiles\[0\]: 'X1'"):
        botzone.read(_match(initdata={"walltiles": "X1 " + WALLTILES.split(" ", 1)[1], "quan": 0}))
    with pytest.raises(MatchLogError, match="quan is '7'"):
        botzone.read(_match(initdata={"walltiles": WALLTILES, "quan": 7}))
    with pytest.raises(MatchLogError, match="ends before the hand does"):
        botzone.read(_match({"action": "DRAW", "player": 0, "tile": "W6"}))
    with pytest.raises(MatchLogError, match="no `log` list"):
        botzone.read({"initdata": {}})
    # a CHI's middle tile must be a suit tile 2-8 (W1 has no tile below it): named, not a traceback
    with pytest.raises(MatchLogError, match=r"tileCHI: W1 cannot be a chow's middle tile"):
        botzone.read(_match({"action": "PLAY", "player": 0, "tile": "W5"},
                            {"action": "CHI", "player": 1, "tileCHI": "W1", "tile": "B9"}))
    with pytest.raises(MatchLogError, match=r"tileCHI: F1 cannot be"):
        botzone.read(_match({"action": "PLAY", "player": 0, "tile": "W5"},
                            {"action": "CHI", "player": 1, "tileCHI": "F1", "tile": "B9"}))
    # initdata as the JSON string the judge may write
    assert botzone.read(_match({"action": "HUANG"}, initdata=json.dumps({"walltiles": WALLTILES, "quan": 0}))).events


def test_a_penalty_ends_the_match_there():
    d = botzone.read(_match({"action": "DRAW", "player": 0, "tile": "W6"}, {"action": "PLAY", "player": 0, "tile": "W1"},
                            {"action": "WA", "player": 2, "score": [10, 10, -30, 10]}))
    assert d.events == [{"event": "discard", "seat": 0, "tile": "1m"}]
    assert d.ended_by_penalty == "WA by player 2" and d.recorded_payments == [10, 10, -30, 10]


# ----------------------------------------------------------------------------- the flowerless wall

def test_a_wall_without_flowers_is_the_136_tiles_only_where_the_ruleset_says_so():
    text = T.format_tiles(ORDERED)
    assert len(parse_wall(text, flowers=False)) == 136
    with pytest.raises(WallError, match="not the 144 tiles of the game .136 tiles; missing 1f"):
        parse_wall(text)
    assert sorted(shuffled_wall(5, flowers=False)) == ORDERED
    header = {**HEADER, "wall": [text[68 * s:68 * (s + 1)] for s in range(4)]}
    with pytest.raises(LogError, match="144 tiles"):
        new_table(header)
    table = new_table({**header, "options": OPTIONS})
    assert table.quarter == 34


def _simulated(seed: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    hand = play_hand("mcr", seed, options=OPTIONS)
    header, *events = [json.loads(line) for line in hand.lines()]
    wall = shuffled_wall(seed, flowers=False)
    header = {k: v for k, v in header.items() if k != "seed"}
    header["wall"] = [T.format_tiles(wall[34 * s:34 * (s + 1)]) for s in range(4)]
    return header, events


def _plain(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Events without the tiles a simulated log leaves the table to know (a draw's, a claim's, a win's)."""
    return [{k: v for k, v in e.items() if not (k == "tile" and e["event"] in ("draw", "pung", "kong", "win"))}
            for e in events]


def test_forty_played_hands_go_out_and_come_back_the_same():
    """Played by the bots under the judge's readings, written as matches and read back: the same events (the
    import names every tile), and the same result replayed. No flower is ever drawn, and a drawn hand ends
    when the seat to draw has taken all 34 tiles of its part (counted from the events alone)."""
    kinds: set[str] = set()
    for seed in range(40):
        header, events = _simulated(seed)
        played = replay_events(header, events)
        assert played.verdict == "legal", (seed, played.rule, played.message)
        match = json.loads(json.dumps(botzone.write(header, events, played.result)))
        back = botzone.read(match)
        again = replay_events(back.header, back.events)
        assert _plain(back.events) == _plain(events) and again.result == played.result, seed
        assert back.recorded_payments == played.result["payments"]
        assert not any(e["event"] == "flower" for e in events)
        kinds |= {e["event"] for e in events}
        if events[-1]["event"] == "draw_game":
            taken = [13 + (s == 0) + sum(1 for e in events if e["event"] == "draw" and e["seat"] == s) for s in range(4)]
            assert 34 in taken, (seed, taken)
    assert {"chow", "pung", "draw_game", "win"} <= kinds


def test_the_commands(tmp_path):
    header, events = _simulated(3)
    log = tmp_path / "hand.jsonl"
    log.write_text("".join(json.dumps(x) + "\n" for x in [header, *events]), encoding="utf-8")
    match = tmp_path / "match.json"
    r = CliRunner().invoke(app, ["game", "export", str(log), "--to", "botzone", "--out", str(match)])
    assert r.exit_code == 0, r.output
    back = tmp_path / "back.jsonl"
    r = CliRunner().invoke(app, ["game", "import", str(match), "--from", "botzone", "--out", str(back)])
    assert r.exit_code == 0 and "legal" in r.output, r.output
    r = CliRunner().invoke(app, ["game", "validate", str(back)])
    assert r.exit_code == 0, r.output
    # a judge that paid otherwise: exit 1, both payments shown
    data = json.loads(match.read_text(encoding="utf-8"))
    hu = next(e for e in data["log"] if e.get("output", {}).get("display", {}).get("action") == "HU")
    hu["output"]["display"]["score"] = [0, 0, 0, 0]
    match.write_text(json.dumps(data), encoding="utf-8")
    r = CliRunner().invoke(app, ["game", "import", str(match), "--from", "botzone", "--out", str(back)])
    said = " ".join(r.output.split())  # (the console wraps its lines where the temporary path makes them long)
    assert r.exit_code == 1 and "they differ" in said and "recorded [0, 0, 0, 0]" in said, r.output
    # what the format cannot say: another ruleset's log; an unknown format
    other = tmp_path / "knocking.jsonl"
    other.write_text(json.dumps({**HEADER, "ruleset": "shanghai-knocking", "seed": 1}) + "\n", encoding="utf-8")
    r = CliRunner().invoke(app, ["game", "export", str(other), "--to", "botzone"])
    assert r.exit_code in (1, 2), r.output
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    r = CliRunner().invoke(app, ["game", "import", str(deep), "--from", "botzone"])
    assert r.exit_code == 2 and "Traceback" not in r.output and "nested too deep" in " ".join(r.output.split())
    r = CliRunner().invoke(app, ["game", "import", str(match), "--from", "tenhou"])
    assert r.exit_code == 2 and "no match-log format 'tenhou'" in " ".join(r.output.split())
