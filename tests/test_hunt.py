"""The hunter: findings keep their ids, pages render, every witness replays with the outcome its finding
states, and `mjcheck hunt` runs end to end."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from checker.case import CaseRunner
from checker.cli import app
from checker.engine import load_ruleset
from checker.hunt.findings import Finding, numbered, read_findings, write_findings
from checker.hunt.page import drawn, page
from checker.hunt.procedure import hunt_table_option, judged
from checker.table.log import GAME, VERSION


def _finding(key: str, kind: str = "ambiguity") -> Finding:
    return Finding(ruleset="mcr", kind=kind, key=key, title=f"about {key}", rules=["option.tile_hog_honors"],
                   witness={"ruleset": "mcr", "options": {}, "kind": "score",
                            "input": {"concealed": "1m2m3m4m5m6m7m8m9m1p1p1p2p", "win_tile": "2p"}},
                   outcomes=[{"reading": "a", "result": {"valid": True, "total": 8, "fans": [], "payments": [1]}}],
                   method="hypothesis", deciding_option="tile_hog_honors")


def test_a_known_finding_keeps_its_id_and_a_new_one_gets_the_next(tmp_path):
    mcr = load_ruleset("mcr")
    path = tmp_path / "findings-mcr.json"
    first = numbered(mcr, [_finding("option.a"), _finding("option.b")], {})
    assert [f.id for f in first] == ["mcr-0001", "mcr-0002"]
    write_findings(path, "mcr", first, {"budget": 1, "seed": 1})
    again = numbered(mcr, [_finding("option.c"), _finding("option.b")], read_findings(path))
    ids = {f.key: f.id for f in again}
    assert ids == {"option.b": "mcr-0002", "option.c": "mcr-0003", "option.a": "mcr-0001"}
    kept = next(f for f in again if f.key == "option.a")
    assert "not found again" in kept.note  # an earlier finding a shorter run missed is kept, and says so


def test_statements_are_quoted_from_the_spec():
    mcr = load_ruleset("mcr")
    [f] = numbered(mcr, [_finding("option.tile_hog_honors=true")], {})
    assert f.statements and all(s["phrase"] and s["doc"].endswith(".txt") for s in f.statements)


def test_a_findings_file_that_is_not_one_is_refused(tmp_path):
    path = tmp_path / "findings-mcr.json"
    path.write_text('{"findings": 3}')
    with pytest.raises(ValueError):
        read_findings(path)


def test_the_page_counts_findings_by_kind_and_draws_tiles(tmp_path):
    mcr = load_ruleset("mcr")
    found = numbered(mcr, [_finding("option.a"), _finding("nm", "non-monotonic")], {})
    body = write_findings(tmp_path / "f.json", "mcr", found, {"budget": 5, "seed": 2})
    text = page("mcr", mcr.title, body)
    assert "| ambiguity |" in text and "| non-monotonic |" in text and "**2**" in text
    assert "🀇🀈🀉" in text and "(1m2m3m" in text
    assert drawn("1z5z7z") == "🀀🀆🀄 (1z5z7z)"


def test_a_table_option_witness_replays_with_the_outcomes_it_states():
    # knock_missed_win (shanghai-knocking): random bots let a win go one time in ten; under not_allowed the
    # knocked player's pass is illegal, under forfeit_hand the hand goes on.
    knocking = load_ruleset("shanghai-knocking")
    f = hunt_table_option(knocking, "knock_missed_win", "not_allowed", hands=40, seed=1)
    assert f is not None and f.kind == "ambiguity" and f.deciding_option == "knock_missed_win"
    case = f.witness
    header = {"game": GAME, "version": VERSION, "ruleset": case["ruleset"],
              **{k: v for k, v in case["input"].items() if k != "events"}}
    for o in f.outcomes:
        reading = dict([o["reading"].split("=", 1)])
        assert judged({**header, "options": reading}, case["input"]["events"]) == o["result"]
    verdicts = {o["result"]["verdict"] for o in f.outcomes}
    assert "illegal" in verdicts
    # the witness is cut right after the first event the readings judge differently
    illegal = next(o["result"] for o in f.outcomes if o["result"]["verdict"] == "illegal")
    assert illegal["event"] == len(case["input"]["events"]) - 1 and illegal["rule"] == "option.knock_missed_win"
    # and it runs as a procedure case: the reference engine gives the stated outcome under the case's options
    outcome = CaseRunner().outcome(case)
    assert outcome.result["verdict"] == next(o["result"]["verdict"] for o in f.outcomes
                                             if o["reading"] == "knock_missed_win=not_allowed")


def test_hunt_command_writes_findings_and_pages(tmp_path):
    r = CliRunner().invoke(app, ["hunt", "--ruleset", "shanghai-knocking", "--budget", "4", "--seed", "3",
                                 "--out", str(tmp_path), "--json"])
    assert r.exit_code == 0, r.output
    body = json.loads((tmp_path / "findings-shanghai-knocking.json").read_text())
    assert body["seed"] == 3 and set(body["counts"]) >= {"ambiguity", "non-monotonic"}
    assert (tmp_path / "findings-shanghai-knocking.md").read_text().startswith("# What the hunt found")


def test_hunt_refuses_an_unknown_ruleset(tmp_path):
    r = CliRunner().invoke(app, ["hunt", "--ruleset", "nope", "--seed", "1", "--out", str(tmp_path)])
    assert r.exit_code == 2 and "unknown ruleset" in r.output


# ------------------------------------------------------------------------------------------- must-finds
# Findings the issue names, rediscovered by the searches themselves (nothing is copied in): each witness replays
# through `mjcheck score --case` with the outcome the finding states.

def _replays(tmp_path, witness: dict, options: dict, stated: dict) -> None:
    case = {**witness, "options": options, "expect": {k: stated[k] for k in ("valid", "total", "payments")
                                                      if k in stated}}
    path = tmp_path / "case.json"
    path.write_text(json.dumps(case), encoding="utf-8")
    r = CliRunner().invoke(app, ["score", "--case", str(path), "--json"])
    assert r.exit_code in (0, 1), r.output
    got = json.loads(r.output.splitlines()[0])
    got = got["either"][0] if "either" in got else got  # equal-valued readings of one hand: the same total
    for key in ("valid", "total", "payments"):
        if key in stated:
            assert got.get(key) == stated[key], (key, got, stated)


def test_must_find_knocking_fig_worth_more_than_a_flower(tmp_path):
    # 无花果: a hand with no hua beyond the base is a flat 10-hua fig; one flower makes it 1 + 1 = 2 hua.
    from checker.hunt.monotonic import hunt_growth
    from checker.hunt.run import _strategy

    knocking = load_ruleset("shanghai-knocking")
    f = hunt_growth(CaseRunner(), knocking, "flower", _strategy(knocking), 300, 1)
    assert f is not None and f.kind == "non-monotonic"
    without, with_flower = f.outcomes
    assert "wu_hua_guo" in {x["id"] for x in without["result"]["fans"]} or without["result"]["total"] > \
        with_flower["result"]["total"]
    assert with_flower["result"]["total"] < without["result"]["total"]
    _replays(tmp_path, f.witness, {}, with_flower["result"])
    _replays(tmp_path, {**f.witness, "input": without["input"]}, {}, without["result"])


@pytest.mark.parametrize("option_id", ["single_hand_limit", "menqing_doubles", "win_hands", "feng_tiles", "lift_to"])
def test_must_find_classic_readings(tmp_path, option_id):
    # the 5-勒 limit against 风碰 + 荒番 = 8 勒; 门清 "2番" against "×2"; only 碰碰胡-and-above hands against a
    # standard hand winning; 风 read as the four winds; lift_to readings of 杠开: each an ambiguity with a hand
    # whose result the readings part.
    from checker.hunt.options import hunt_option
    from checker.hunt.run import _strategy

    classic = load_ruleset("shanghai-classic")
    option = classic.options[option_id]
    value = next(v for v in option.values if v != option.default)
    f = hunt_option(CaseRunner(), classic, option_id, value, _strategy(classic), 1200, 1)
    assert f is not None and f.kind == "ambiguity" and f.deciding_option == option_id
    first, second = f.outcomes
    assert first["result"] != second["result"]
    assert any(s["doc"].startswith("001_") for s in numbered(classic, [f], {})[0].statements)
    _replays(tmp_path, f.witness, {option_id: option.default}, first["result"])
    _replays(tmp_path, f.witness, {option_id: value}, second["result"])


def test_must_find_knocking_seven_pairs_that_are_also_four_sets(tmp_path):
    # "4 melds and 1 pair, with seven pairs excluded": a hand that is both seven pairs and four sets and a pair
    # wins as four sets; the document does not say whether the exclusion covers it (a gap).
    from checker.engine.shapes import SHAPES
    from checker.hunt.cross import hunt_excluded_shape, overlap_inputs
    from checker import tiles as T

    knocking = load_ruleset("shanghai-knocking")
    f = hunt_excluded_shape(CaseRunner(), knocking, "seven_pairs", overlap_inputs("shanghai-knocking", "seven_pairs"),
                            300, 1)
    assert f is not None and f.kind == "gap"
    data = f.witness["input"]
    tiles = list(T.parse_tiles(data["concealed"])) + list(T.parse_tiles(data["win_tile"]))
    counts = tuple(tiles.count(t) for t in range(34))
    assert SHAPES["seven_pairs"].complete(counts, 0) and SHAPES["regular"].complete(counts, 0)
    _replays(tmp_path, f.witness, {}, f.outcomes[0]["result"])


def test_cross_variant_witness_wins_under_one_ruleset_and_not_the_other(tmp_path):
    from checker.hunt.cross import hunt_cross
    from checker.hunt.run import _strategy

    mcr = load_ruleset("mcr")
    f = hunt_cross(CaseRunner(), mcr, load_ruleset("shanghai-knocking"), _strategy(mcr), 300, 1)
    assert f is not None and f.kind == "cross-variant"
    here, there = f.outcomes
    assert here["result"]["valid"] and not there["result"]["valid"]
    _replays(tmp_path, f.witness, {}, here["result"])
    _replays(tmp_path, there["case"], {}, there["result"])


def test_two_readings_that_change_a_hand_only_together(tmp_path):
    # knocking: robbing_kong_triple_on=each_payer changes nothing while the discarder alone pays for a discard
    # (discard_others_pay=0), and discard_others_pay=1 changes nothing for a robbed kong while the konger alone
    # pays 3x (robbing_kong_triple_on=konger_alone); together every opponent pays 3x for a robbed kong.
    from checker.hunt.options import hunt_pair
    from checker.hunt.run import _strategy

    knocking = load_ruleset("shanghai-knocking")
    f = hunt_pair(CaseRunner(), knocking, ("discard_others_pay", 1), ("robbing_kong_triple_on", "each_payer"),
                  _strategy(knocking), 600, 1)
    assert f is not None and f.key == "options.discard_others_pay=1&robbing_kong_triple_on=each_payer"
    assert f.witness["input"]["win_by"] == "robbing_kong"
    base, both = f.outcomes[0]["result"], f.outcomes[-1]["result"]
    # the konger alone pays 3x the value; with both readings each opponent does
    value = base["total"]
    assert base["payments"] == [3 * value, -3 * value, 0, 0] or sorted(base["payments"][1:]) == [-3 * value, 0, 0]
    assert both["payments"] == [9 * value, -3 * value, -3 * value, -3 * value]
    _replays(tmp_path, f.witness, {"discard_others_pay": 1, "robbing_kong_triple_on": "each_payer"}, both)


@pytest.mark.parametrize("ruleset_id, scenario, option_id", [
    ("shanghai-classic", "again_from_the_same_seat", "lou_hu_later_copy"),
    ("shanghai-classic", "drawn_by_the_waiting_player", "lou_hu_own_draw_win"),
    ("shanghai-knocking", "forgone_then_won", "forgo_blocks_win")])
def test_must_find_passed_tile_scope_in_a_short_hand_of_play(ruleset_id, scenario, option_id):
    # 漏胡 (classic): a passed winning tile comes again, and the two readings of the block judge the win
    # differently: from the seat that discarded the passed tile (对家C或上家D named, 下家B not), or drawn by the
    # waiting player himself (摸牌 lifts the block: is that very draw won on?). Forgo-then-reclaim (knocking): a
    # tile let go, then another claimed and a knock made without drawing: does the forgone tile block the win?
    from checker.hunt.scenarios import hunt_scenario, waiting_hands

    rs = load_ruleset(ruleset_id)
    f = hunt_scenario(rs, scenario, waiting_hands(rs.id, scenario), 300, 1)
    assert f is not None and f.deciding_option == option_id
    events = f.witness["input"]["events"]
    assert len(events) <= 15 and events[-1]["event"] == "win"
    verdicts = sorted(o["result"]["verdict"] for o in f.outcomes)
    assert verdicts == ["illegal", "legal"]
    for o in f.outcomes:  # each reading, replayed as a procedure case, gives the stated verdict
        reading = dict([o["reading"].split("=", 1)])
        case = {**f.witness, "options": reading}
        assert CaseRunner().outcome(case).result["verdict"] == o["result"]["verdict"]


def test_must_find_the_dealer_after_two_winners_on_one_discard():
    # 点炮者最近的一个胡牌者下家为下盘庄家: two knocked players win on the dealer's discard (seats 1 and 3); the
    # winner nearest the discarder going downstream is seat 1: it deals next under the default reading, its
    # next player (seat 2) under the other. Both hands are legal and paid alike.
    from checker.hunt.scenarios import hunt_scenario, waiting_hands

    classic = load_ruleset("shanghai-classic")
    f = hunt_scenario(classic, "two_win_on_one_discard", waiting_hands(classic.id), 300, 1)
    assert f is not None and f.deciding_option == "multiple_win_dealer"
    first, second = (o["result"] for o in f.outcomes)
    assert first["verdict"] == second["verdict"] == "legal" and first["payments"] == second["payments"]
    assert (first["next_dealer"], second["next_dealer"]) == (1, 2)
    assert [e["event"] for e in f.witness["input"]["events"][-2:]] == ["win", "win"]
