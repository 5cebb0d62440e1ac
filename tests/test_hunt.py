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

ROOT = Path(__file__).resolve().parents[1]


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


def test_a_table_reading_no_bot_hand_parts_is_found_by_the_procedure_search():
    # knock_concealed_kong (shanghai-knocking): bots almost never knock holding three of a tile and then draw the
    # fourth, so no bot hand parts the readings; the procedure search's scene does (checker/separating/scenes.py
    # concealed_kong_after_knocking): seat 1 knocks waiting on 1p/4p holding 111m, draws the
    # fourth 1m and declares a concealed kong that keeps the wait: the default (keeps_wait) lets it stand, the log
    # goes on (unfinished); under never it is refused at that event, citing the option
    knocking = load_ruleset("shanghai-knocking")
    f = hunt_table_option(knocking, "knock_concealed_kong", "never", hands=0, seed=1)
    assert f is not None and f.kind == "ambiguity" and f.deciding_option == "knock_concealed_kong"
    events = f.witness["input"]["events"]
    assert events[-1]["event"] == "concealed_kong" and any(e["event"] == "knock" for e in events)
    results = {o["reading"]: o["result"] for o in f.outcomes}
    assert results["knock_concealed_kong=keeps_wait"]["verdict"] == "unfinished"
    assert (results["knock_concealed_kong=never"]["verdict"], results["knock_concealed_kong=never"]["rule"],
            results["knock_concealed_kong=never"]["event"]) == ("illegal", "option.knock_concealed_kong", len(events) - 1)


def test_hunt_command_writes_findings_and_pages(tmp_path):
    r = CliRunner().invoke(app, ["hunt", "--ruleset", "shanghai-knocking", "--budget", "4", "--seed", "3",
                                 "--out", str(tmp_path), "--json"])
    body = json.loads((tmp_path / "findings-shanghai-knocking.json").read_text())
    assert r.exit_code == (3 if body["stopped_early"] else 0), r.output  # 3: it stopped early, and says so
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
    # the cause is named first, and its statement quoted: the fig step, not the flower and base rows alone
    assert f.rules[0] == "scoring.fig" and "scoring.fig" in f.note
    assert any("scoring.fig" in s["rules"] for s in f.statements)
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


def test_a_reading_under_other_readings_is_searched_only_where_a_drawn_hand_parts_it():
    """knocking's robbing_kong_triple_on=each_payer changes nothing while the discarder alone pays (the default):
    under fig_then_doubled=false no drawn hand parts it, so that base is passed over unsearched; under
    discard_others_pay=1 the others pay for a robbed kong and it parts, and the search made there finds what
    hunt_option alone finds under that base."""
    from checker.hunt.options import Drawn, hunt_option, hunt_option_under
    from checker.hunt.run import EXAMPLES, _strategy

    knocking = load_ruleset("shanghai-knocking")
    strategy = _strategy(knocking)
    hands = Drawn(CaseRunner(), knocking, strategy, EXAMPLES, 1)
    option, value = "robbing_kong_triple_on", "each_payer"
    assert not hands.parts(option, value, {}) and not hands.parts(option, value, {"fig_then_doubled": False})
    found, base = hunt_option_under(CaseRunner(), knocking, option, value,
                                    [{"fig_then_doubled": False}, {"discard_others_pay": 1}], hands, strategy,
                                    EXAMPLES, 1)
    assert base == {"discard_others_pay": 1} and found is not None
    alone = hunt_option(CaseRunner(), knocking, option, value, strategy, EXAMPLES, 1, base=base)
    assert alone is not None and found.as_dict() == alone.as_dict()


def test_pairs_searched_at_once_find_what_each_search_alone_finds():
    """hunt_pairs draws the hands once (the draws of a seeded search that finds nothing) and scores each under
    every reading: the pair the single search finds (above) is found with the same witness, shrunk the same way,
    and pairs no drawn hand separates are found by neither."""
    from checker.hunt.options import drawn, hunt_pair, hunt_pairs
    from checker.hunt.run import EXAMPLES, _strategy

    knocking = load_ruleset("shanghai-knocking")
    strategy = _strategy(knocking)
    pairs = [(("discard_others_pay", 1), ("robbing_kong_triple_on", "each_payer")),
             (("fig_then_doubled", False), ("discard_others_pay", 1)),
             (("fig_then_doubled", False), ("robbing_kong_triple_on", "each_payer"))]
    together, whole = hunt_pairs(CaseRunner(), knocking, pairs, strategy, EXAMPLES, 1)
    assert whole
    alone = {pair: hunt_pair(CaseRunner(), knocking, *pair, strategy, EXAMPLES, 1) for pair in pairs}
    assert set(together) == {pair for pair, found in alone.items() if found is not None} == {pairs[0]}
    assert together[pairs[0]].as_dict() == alone[pairs[0]].as_dict()
    assert len(drawn(strategy, EXAMPLES, 1)) == EXAMPLES
    # a run out of time says so: no hand looked at, nothing found, not whole
    assert hunt_pairs(CaseRunner(), knocking, pairs, strategy, EXAMPLES, 1, until=0.0) == ({}, False)


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


def test_a_missed_win_after_the_knock_is_shown_in_a_short_hand_of_play():
    # "Miss a win after knocking and you forfeit the hand" against "you must take the first legal win": the
    # knocked player (seat 1) lets its winning tile go (event 5), plays on, and seat 3 wins later. Forfeit: the
    # log is legal (seat 1 is dead, seat 3 is paid). Not allowed: the log breaks the knock rule at the first
    # event after the tile seat 1 could win on. The bot-played witness this replaces took 159 events.
    from checker.hunt.scenarios import hunt_scenario, waiting_hands

    knocking = load_ruleset("shanghai-knocking")
    f = hunt_scenario(knocking, "passed_after_the_knock", waiting_hands(knocking.id), 300, 1)
    assert f is not None and f.deciding_option == "knock_missed_win" and "procedure.knock" in f.rules
    events = f.witness["input"]["events"]
    assert len(events) <= 30 and events[5]["event"] == "discard" and events[5]["seat"] == 2
    assert f"could win on {events[5]['tile']}" in f.outcomes[1]["result"]["message"]
    forfeit, not_allowed = (o["result"] for o in f.outcomes)
    assert forfeit["verdict"] == "legal" and forfeit["payments"][3] > 0
    assert not_allowed["verdict"] == "illegal" and not_allowed["rule"] == "option.knock_missed_win"
    assert not_allowed["event"] == 6
    for o in f.outcomes:
        case = {**f.witness, "options": dict([o["reading"].split("=", 1)])}
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


# ------------------------------------------------------------------ dead rules, proved by enumeration
def _holds_in_a_reading(ruleset_id: str, data: dict, fan: str) -> list[set[str]]:
    """The fans found (before exclusions) in each reading of the witness, by the engine."""
    runner = CaseRunner()
    scorer = runner.scorer(ruleset_id, {})
    from checker.case import hand_from_input
    hand = hand_from_input(data, scorer)
    return [{scorer.ids[r] for r in found} for _, found in scorer.found_fans(hand)]


def test_must_find_three_suited_terminal_chows_never_holds_a_pure_double_chow(tmp_path):
    # 123 and 789 in two suits and a pair of 5s in the third: no two chows are identical in one suit, so the
    # table's exclusion of Pure double chow never applies. The proof reads every concealed hand of four chows
    # over the tiles 1235789 of the three suits.
    import time

    from checker.hunt.dead import hunt_dead_exclusion

    mcr = load_ruleset("mcr")
    f = hunt_dead_exclusion(CaseRunner(), mcr, "three_suited_terminal_chows", "pure_double_chow",
                            time.monotonic() + 60)
    assert f is not None and f.kind == "dead-rule" and f.method == "exhaustive"
    assert f.rules == ["fan.three_suited_terminal_chows", "fan.pure_double_chow"]
    data = f.witness["input"]
    # 55m 123p 789p 123s 789s self-drawn on 9s: Three suited terminal chows 16 + Fully concealed hand 4 (which
    # absorbs Self drawn and Concealed hand); 9s completes 78s on either side, so no wait fan: 20
    assert (data["concealed"], data["win_tile"]) == ("5m5m1p2p3p7p8p9p1s2s3s7s8s", "9s")
    readings = _holds_in_a_reading("mcr", data, "three_suited_terminal_chows")
    assert any("three_suited_terminal_chows" in r for r in readings)
    assert not any({"three_suited_terminal_chows", "pure_double_chow"} <= r for r in readings)
    result = f.outcomes[0]["result"]
    assert result["total"] == 20
    _replays(tmp_path, f.witness, {}, result)
    # and the fan the row should have named: the two 123 chows (and the two 789s) of different suits are a
    # Mixed double chow in every such hand, which the row does not exclude (the default reading withholds it
    # as included by definition; the table_only reading counts it)
    assert "also holds, in the same reading, Mixed double chow (withheld under the default readings" in f.note


@pytest.mark.parametrize("first, second", [("pure_triple_chow", "pure_shifted_pungs"),
                                           ("pure_shifted_pungs", "pure_triple_chow"),
                                           ("four_pure_shifted_pungs", "pure_triple_chow"),
                                           ("quadruple_chow", "pure_shifted_pungs")])
def test_must_find_chow_and_pung_fans_that_exclude_each_other_across_readings_only(first, second):
    # Pure triple chow needs three chows, Pure shifted pungs three pungs: no division of four sets holds both,
    # so the exclusion never applies within one reading (MCR scores each reading on its own). The witness
    # holds the first fan in one of its readings.
    import time

    from checker.hunt.dead import hunt_dead_exclusion

    f = hunt_dead_exclusion(CaseRunner(), load_ruleset("mcr"), first, second, time.monotonic() + 60)
    assert f is not None and f.kind == "dead-rule" and "there is no hand to read" in f.note
    readings = _holds_in_a_reading("mcr", f.witness["input"], first)
    assert any(first in r for r in readings) and not any({first, second} <= r for r in readings)


def test_an_exclusion_between_fans_that_meet_is_not_reported():
    # All pungs and Four pure shifted pungs (111 222 333 444m + a pair) meet in one reading: not dead.
    import time

    from checker.hunt.dead import hunt_dead_exclusion

    assert hunt_dead_exclusion(CaseRunner(), load_ruleset("mcr"), "four_pure_shifted_pungs", "all_pungs",
                               time.monotonic() + 60) is None


def test_a_proof_whose_time_runs_out_is_cut_short_not_a_nothing_found():
    # With its deadline already past the exhaustive search reads no hand: it neither proves nor refutes, and
    # says so (CutShort) rather than returning None as a proof that the fans meet does (the test above).
    import time

    from checker.hunt.dead import CutShort, hunt_dead_exclusion, hunt_dead_pattern

    with pytest.raises(CutShort):
        hunt_dead_exclusion(CaseRunner(), load_ruleset("mcr"), "four_pure_shifted_pungs", "pure_triple_chow",
                            time.monotonic() - 1)
    with pytest.raises(CutShort):
        hunt_dead_pattern(CaseRunner(), load_ruleset("shanghai-classic"), "feng_peng", {"feng_tiles": "winds"},
                          time.monotonic() - 1)


def test_must_find_feng_peng_unreachable_when_feng_means_the_winds(tmp_path):
    # 风碰 is four pungs and a pair of 风 tiles: five tile types. Read as the four winds only, no hand has them
    # (the space of hands of 1z-4z is empty), though the document prices 风碰 at 4 勒.
    import time

    from checker.hunt.dead import hunt_dead_pattern

    classic = load_ruleset("shanghai-classic")
    f = hunt_dead_pattern(CaseRunner(), classic, "feng_peng", {"feng_tiles": "winds"}, time.monotonic() + 60)
    assert f is not None and f.kind == "dead-rule" and f.deciding_option == "feng_tiles"
    default, winds = (o["result"] for o in f.outcomes)
    assert "feng_peng" in {x["id"] for x in default["fans"]}
    assert "feng_peng" not in {x["id"] for x in winds.get("fans", [])}
    # 33z 444z 555z 666z 777z self-drawn, knocked: 风碰 settles at 4 勒 = 40 花, 门清 doubles it to 80, the cap
    # 风碰 brings is 4 勒: 40; each opponent pays 底分 2 + 40
    assert default["total"] == 40 and default["payments"] == [126, -42, -42, -42]
    _replays(tmp_path, f.witness, {}, default)
    _replays(tmp_path, f.outcomes[1]["case"], {"feng_tiles": "winds"}, winds)


# ------------------------------------------------------------- contradictions with the documents' examples
@pytest.mark.parametrize("ruleset_id, example, option_id, value, stated, read", [
    # the guide's 11-point example: Mixed triple chow 8 + All simples 2 + Self drawn 1; read alone, the table
    # also adds No honors 1 (the All simples row names no exclusion): 12 (tests/test_options.py)
    ("mcr", "mcr-guide-regular-self-draw", "non_repeat_reading", "table_only", 11, 12),
    # the 79-point example (111m 222m 333p 444s 55m, self-drawn): Four concealed pungs 64 + Mixed shifted pungs 8
    # + Fully concealed hand 4 + Pung of terminals 1 + No honors 1 + Single wait 1; read alone, the table adds
    # Three concealed pungs 16, Two concealed pungs 2 and Self drawn 1: 98
    ("mcr", "mcr-guide-79", "non_repeat_reading", "table_only", 79, 98),
    # the FAQ: "a complete hand shape and flowers alone do not satisfy that minimum": a hand of no fan and one
    # flower may not win; the table's Chicken hand row scores it 8 (+ 1 flower = 9)
    ("mcr", "mcr-faq-shape-and-flowers", "chicken_hand_scores", True, None, 9),
])
def test_must_find_a_reading_against_the_documents_own_example(tmp_path, ruleset_id, example, option_id, value,
                                                               stated, read):
    from checker.hunt.examples import hunt_example, stated_examples

    rs = load_ruleset(ruleset_id)
    case = next(c for c in stated_examples(rs) if c["id"] == example)
    f = hunt_example(CaseRunner(), rs, case, option_id, value)
    assert f is not None and f.kind == "contradiction" and f.deciding_option == option_id
    document, reading = (o["result"] for o in f.outcomes)
    assert (document.get("total"), reading["total"]) == (stated, read)
    _replays(tmp_path, f.witness, {**case["options"], option_id: value}, reading)
    assert any(s["doc"].startswith(("001_", "002_")) for s in f.statements)


def test_the_8_le_example_holds_under_the_default_limit_and_is_contradicted_by_each_share(tmp_path):
    # 风碰+荒番为8勒子: 风碰 4 勒 = 40, 门清 x2 = 80, cap 4 勒; 荒番 x2: 160, cap 8 勒 = 80. With the 5-勒 single-hand
    # limit on, under its default scope (whole_loss: 玩家一局最多只输5个勒子 bounds each payer's loss) the value
    # stays 80 as the example says; read as a bound on each share (each_share) it makes the value 50.
    from checker.hunt.examples import hunt_example, stated_examples

    rs = load_ruleset("shanghai-classic")
    case = next(c for c in stated_examples(rs) if c["id"] == "classic-fengpeng-huangfan-8le")
    limited = {**case, "options": {**case["options"], "single_hand_limit": True}}
    assert hunt_example(CaseRunner(), rs, limited, "single_hand_limit_scope", "whole_loss") is None
    f = hunt_example(CaseRunner(), rs, limited, "single_hand_limit_scope", "each_share")
    assert f is not None and f.kind == "contradiction" and f.deciding_option == "single_hand_limit_scope"
    document, reading = (o["result"] for o in f.outcomes)
    assert (document.get("total"), reading["total"]) == (80, 50)
    _replays(tmp_path, f.witness, {**limited["options"], "single_hand_limit_scope": "each_share"}, reading)


def test_derived_and_hand_built_examples_are_not_read_as_statements():
    from checker.hunt.examples import stated_examples

    ids = {c["id"] for c in stated_examples(load_ruleset("shanghai-classic"))}
    assert "classic-fengpeng-huangfan-8le" in ids and "classic-fengpeng-huangfan-limited" not in ids
    assert "mcr-guide-seven-plus-flower" not in {c["id"] for c in stated_examples(load_ruleset("mcr"))}


def test_must_find_a_passed_tile_judged_differently_by_the_two_shanghai_documents():
    # 000: "pass on a discard and you can't claim a later copy of that same tile" (forgo_blocks_win=true); 001:
    # 漏胡 blocks only a knocked player, and the claim that follows lifts it. A player lets t go unknocked,
    # pungs, knocks, and wins on the next t: the same log is legal under classic and refused under knocking.
    from checker.engine import load_ruleset as load
    from checker.hunt.cross import hunt_cross_scene
    from checker.hunt.scenarios import waiting_hands

    knocking, classic = load("shanghai-knocking"), load("shanghai-classic")
    f = hunt_cross_scene(knocking, classic, "forgone_then_won", waiting_hands(knocking.id, "forgone_then_won"),
                         200, 1)
    assert f is not None and f.kind == "cross-variant"
    here, there = (o["result"] for o in f.outcomes)
    events = f.witness["input"]["events"]
    assert here["verdict"] == "illegal" and here["event"] == len(events) - 1 and events[-1]["event"] == "win"
    assert here["rule"] == "procedure.forgo_then_reclaim" and there["verdict"] == "legal"
    # each side replays as a procedure case with the verdict stated
    assert CaseRunner().outcome(f.witness).result["verdict"] == "illegal"
    assert CaseRunner().outcome(f.outcomes[1]["case"]).result["verdict"] == "legal"


def test_two_winners_on_one_discard_part_the_knocking_and_classic_documents():
    # 000 says 一炮多响 "ships off: the same call every other regional variant here makes"; 001 says 允许一炮多响.
    # A and C have both knocked waiting on t and D discards it: A's win ends the hand under knocking (one winner, the
    # nearest seat after the discarder), so C's win is refused there; classic pays both.
    from checker.engine import load_ruleset as load
    from checker.hunt.cross import hunt_cross_scene, several_winners_part
    from checker.hunt.scenarios import waiting_hands

    knocking, classic, mcr = load("shanghai-knocking"), load("shanghai-classic"), load("mcr")
    # MCR has one winner per discard too, and no knock: the scene is not searched against it
    assert several_winners_part(knocking, classic) and not several_winners_part(classic, mcr)
    f = hunt_cross_scene(knocking, classic, "two_win_on_one_discard",
                         waiting_hands(knocking.id, "two_win_on_one_discard"), 100, 1)
    assert f is not None and f.key == "cross-variant.shanghai-classic.two_win_on_one_discard"
    here, there = (o["result"] for o in f.outcomes)
    events = f.witness["input"]["events"]
    assert len(events) <= 30 and [e["event"] for e in events[-2:]] == ["win", "win"]
    assert here == {**here, "verdict": "illegal", "rule": "procedure.multiple_winners", "event": len(events) - 1}
    assert there["verdict"] == "legal"
    # two winners, each paid by the discarder (seat 0), who pays both
    paid = there["payments"]
    assert paid[0] < 0 and paid[1] > 0 and paid[3] > 0 and paid[2] == 0 and sum(paid) == 0
    # both documents' sentences are cited, the knocking page's whole
    cited = {(s["doc"][:3], s["phrase"]) for s in f.statements}
    assert ("000", "一炮多响 (multiple simultaneous discard wins, each paid in full) ships off: the same call every "
                   "other regional variant here makes.") in cited
    assert ("001", "允许一炮多响") in cited
    assert CaseRunner().outcome(f.witness).result["verdict"] == "illegal"
    assert CaseRunner().outcome(f.outcomes[1]["case"]).result["verdict"] == "legal"


# every must-find of the issue, as the hunt reports it (the key says what the finding is about; see the tests
# above for each one's witness, worked by hand), with the searches that report it (their labels in the hunt's
# `skipped` list). The passed tile judged by both Shanghai documents is reported in the knocking findings.
MUST_FIND = {
    "shanghai-knocking": {
        "gap.excluded_shape.seven_pairs": ["gap: excluded seven_pairs"],
        "non-monotonic.flower": ["non-monotonic (z3): one more flower", "non-monotonic: one more flower"],
        "option.forgo_blocks_win=true": ["forgo_blocks_win=true"],
        "cross-variant.shanghai-classic.forgone_then_won": ["cross-variant: forgone_then_won against shanghai-classic"],
        "cross-variant.shanghai-classic.two_win_on_one_discard":
            ["cross-variant: two_win_on_one_discard against shanghai-classic"],
    },
    "shanghai-classic": {
        "option.menqing_doubles=2": ["menqing_doubles=2"],
        "option.win_hands=any_standard": ["win_hands=any_standard"],
        "dead-rule.pattern.feng_peng.feng_tiles=winds": ["dead-rule: feng_peng under feng_tiles=winds"],
        "option.feng_tiles=winds": ["feng_tiles=winds"],
        "non-monotonic.gang_kai@lift_to=one_cap_unit": ["non-monotonic (z3): one more gang_kai under lift_to=one_cap_unit"],
        "option.lift_to=one_cap_unit": ["lift_to=one_cap_unit"],
        "option.lou_hu_later_copy=": ["lou_hu_later_copy=other_seats"],
        "option.lou_hu_own_draw_win=": ["lou_hu_own_draw_win=false"],
    },
    "mcr": {
        "dead-rule.excludes.three_suited_terminal_chows.pure_double_chow":
            ["dead-rule: three_suited_terminal_chows excludes pure_double_chow"],
        "dead-rule.excludes.pure_triple_chow.pure_shifted_pungs": ["dead-rule: pure_triple_chow excludes pure_shifted_pungs"],
        "dead-rule.excludes.four_pure_shifted_pungs.pure_triple_chow":
            ["dead-rule: four_pure_shifted_pungs excludes pure_triple_chow"],
        "contradiction.example.mcr-faq-shape-and-flowers.chicken_hand_scores=true":
            ["contradiction: mcr-faq-shape-and-flowers under chicken_hand_scores=true"],
        "contradiction.example.mcr-guide-regular-self-draw.non_repeat_reading=table_only":
            ["contradiction: mcr-guide-regular-self-draw under non_repeat_reading=table_only"],
        "contradiction.example.mcr-guide-79.non_repeat_reading=table_only":
            ["contradiction: mcr-guide-79 under non_repeat_reading=table_only"],
    },
}


def test_every_must_find_names_searches_the_hunt_runs():
    # the labels above are the hunt's own (a renamed search would make the budget test below pass vacuously)
    from checker.hunt.run import targets

    runner = CaseRunner()
    for ruleset_id, keys in MUST_FIND.items():
        labels = {t.label for t in targets(load_ruleset(ruleset_id), runner, 1, 1.0)}
        for searches in keys.values():
            assert set(searches) <= labels, (ruleset_id, sorted(set(searches) - labels))


def test_every_must_find_is_found_by_its_own_search_with_counted_effort():
    # Each must-find from a cold start, by the searches the hunt runs for it, in counted work units (--effort):
    # a search that finds nothing at one effort is run again at four times it, as the hunt's passes do, up to
    # the fourth pass; a proof that stops short of its space is given more the same way. No clock decides.
    from checker.hunt.allowance import Allowance
    from checker.hunt.dead import CutShort
    from checker.hunt.run import PROOF_UNITS, targets

    runner = CaseRunner()
    for ruleset_id, keys in MUST_FIND.items():
        plan = {t.label: t for t in targets(load_ruleset(ruleset_id), runner, 1, Allowance(units=PROOF_UNITS))}
        for key, searches in keys.items():
            found = None
            for effort in (1, 4, 16, 64):
                for label in searches:
                    try:
                        f = plan[label].run(effort)
                    except CutShort:
                        continue
                    if f is not None and f.key.startswith(key):
                        found = f
                        break
                if found is not None:
                    break
            assert found is not None, (ruleset_id, key)


def test_a_hunt_by_effort_finds_what_the_checked_in_findings_hold_and_did_all_it_set_out_to_do(tmp_path, monkeypatch):
    # --effort 1 on the knocking spec, from a cold start on whatever machine runs the suite, finds exactly the
    # findings and witnesses checked in under reports/findings/ (made by `mjcheck hunt --ruleset all --effort 1
    # --seed 1` on another machine: counted work gives the same answers anywhere; remake them when the hunter
    # changes what it finds), with nothing left undone, each knocking must-find among them. The checked-in
    # findings are the shipped rulesets' (their cross-variant ones compare those alone): rulesets of one's own
    # that MJCHECK_SPEC_PATH adds are left out here.
    monkeypatch.delenv("MJCHECK_SPEC_PATH", raising=False)
    r = CliRunner().invoke(app, ["hunt", "--ruleset", "shanghai-knocking", "--effort", "1", "--seed", "1",
                                 "--out", str(tmp_path), "--json"])
    assert r.exit_code == 0, r.output
    body = json.loads((tmp_path / "findings-shanghai-knocking.json").read_text())
    assert body["effort"] == 1 and body["budget"] is None and body["passes"] == 1
    assert body["stopped_early"] == [] and body["skipped"] == [] and body["cut_short"] == []
    assert body["pairs"]["searched"] == body["pairs"]["of"] > 0
    have = [f["key"] for f in body["findings"]]
    assert all(any(h.startswith(k) for h in have) for k in MUST_FIND["shanghai-knocking"]), have

    def unnumbered(findings):
        return sorted(({k: v for k, v in f.items() if k != "id"} for f in findings), key=lambda f: f["key"])

    shipped = json.loads((ROOT / "reports" / "findings" / "findings-shanghai-knocking.json").read_text())
    current = [f for f in shipped["findings"] if not f["note"].endswith("(from an earlier run; not found again this run)")]
    assert unnumbered(body["findings"]) == unnumbered(current)
    # the settlement model's claims and the root issues are the same too (Z3 is bounded by its resource count)
    assert [(c["key"], c["reading"], c["result"]) for c in body["proofs"]] == \
        [(c["key"], c["reading"], c["result"]) for c in shipped["proofs"]]

    def roots(file):  # the root issues in rank order, each with its findings' keys (ids differ from a cold start)
        keys = {f["id"]: f["key"] for f in file["findings"]}
        return [(r["key"], sorted(keys[i] for i in r["findings"])) for r in file["roots"]]

    assert roots(body) == roots(shipped)
    assert json.loads((tmp_path / "witnesses-shanghai-knocking.json").read_text())["witnesses"] == \
        json.loads((ROOT / "reports" / "findings" / "witnesses-shanghai-knocking.json").read_text())["witnesses"]
    page_text = (tmp_path / "findings-shanghai-knocking.md").read_text()
    assert "stopped early" not in page_text and "--effort 1 --seed 1" in page_text


# ------------------------------------------------------------------------------------------ witnesses
def test_every_fan_has_a_witness_that_scores_it_with_the_other_fans_it_states(tmp_path):
    # the witness of each MCR fan replays through `mjcheck score --case` with that fan counted and exactly the
    # other fans the entry lists
    from checker.hunt.examples import known_hands
    from checker.hunt.synth import synthesize, witnesses_page

    mcr = load_ruleset("mcr")
    entries = synthesize(CaseRunner(), mcr, known_hands(mcr), 0.05)
    assert [e["pattern"] for e in entries] == [p for p in CaseRunner().scorer("mcr", {}).ids]
    missing = [e["pattern"] for e in entries if "case" not in e]
    assert not missing, missing
    runner = CaseRunner()
    for e in entries:
        got = runner.outcome({**e["case"], "id": e["pattern"]}).result
        got = got["either"][0] if "either" in got else got
        fans = [f["id"] for f in got["fans"]]
        assert e["pattern"] in fans and sorted(fans) == sorted(e["fans"]), (e["pattern"], fans, e["fans"])
        assert e["other_fans"] == len(fans) - 1
    _replays(tmp_path, entries[0]["case"], {}, runner.outcome({**entries[0]["case"], "id": "x"}).result)
    # Chicken hand is a win with no other fan: its witness can have none
    chicken = next(e for e in entries if e["pattern"] == "chicken_hand")
    assert chicken["other_fans"] == 0
    assert "| three_suited_terminal_chows |" in witnesses_page("mcr", mcr.title, entries)


def test_a_hand_edited_corpus_line_that_is_not_a_case_is_named_by_file_and_line(tmp_path, monkeypatch):
    # The hunter reads the checked-in corpus and the documents' examples: a line that is not a case is bad
    # input naming the file and line (the hunt command exits 2 with it), not a traceback
    import checker.corpus.generate as generate
    import checker.spec as spec
    from checker.engine import load_ruleset
    from checker.hunt.examples import known_hands
    from checker.inputs import InputError

    good = ('{"kind": "score", "id": "x", "ruleset": "mcr", "covers": ["mcr.fan.single_wait"], "input": {"concealed": '
            '"1m1m1m2m2m2m3p3p3p4s4s4s5m", "win_tile": "5m"}, "expect": {"valid": true, "total": 79}}\n')
    (tmp_path / "mcr.jsonl").write_text(good + '{"ruleset": "mcr", "input": \n', encoding="utf-8")
    monkeypatch.setattr(spec, "corpus_dir", lambda: tmp_path)
    monkeypatch.setattr(generate, "corpus_dir", lambda: tmp_path)
    with pytest.raises(InputError, match=r"mcr\.jsonl: line 2: "):
        known_hands(load_ruleset("mcr"))
    (tmp_path / "mcr.jsonl").write_text(good, encoding="utf-8")
    assert known_hands(load_ruleset("mcr")) == [{"concealed": "1m1m1m2m2m2m3p3p3p4s4s4s5m", "win_tile": "5m"}]


def test_a_page_labels_each_payment_by_its_seat():
    # The MCR guide's 79-point example, self-drawn: "Each opponent pays 8 + 79 = 87; winner receives 261."
    # A hand's payments are relative to the winner (DESIGN.md: the winner, downstream, across, upstream); a hand
    # of play's are by absolute seat
    from checker.hunt.page import paid

    assert paid([261, -87, -87, -87]) == ("the winner +261, the next player (downstream) -87, the player across -87, "
                                          "the previous player (upstream) -87")
    assert paid([0, 4, -4, 0], relative=False) == "seat 0 +0, seat 1 +4, seat 2 -4, seat 3 +0"
    body = {"ruleset": "mcr", "budget": 1, "seed": 1, "counts": {"ambiguity": 1},
            "findings": [{**_finding("option.x=1").as_dict(), "id": "mcr-0001",
                          "outcomes": [{"reading": "a", "result": {"valid": True, "total": 79, "fans": [],
                                                                   "payments": [261, -87, -87, -87]}}]}]}
    assert "payments: the winner +261, the next player (downstream) -87" in page("mcr", "MCR", body)


def test_remaking_pages_refuses_a_file_that_is_not_a_findings_file_with_a_message(tmp_path):
    # `python -m checker.hunt.page FILE`: a file of an unknown ruleset, or not JSON at all, is named in one line,
    # never a traceback; and a budget written as text in a hand-edited file is shown as written
    import subprocess
    import sys

    from checker.hunt.page import command_line

    for text, said in (('{"ruleset": "nope", "findings": []}', "not a findings file of a known ruleset"),
                       ("x", "invalid JSON")):
        path = tmp_path / "findings-x.json"
        path.write_text(text, encoding="utf-8")
        r = subprocess.run([sys.executable, "-m", "checker.hunt.page", str(path)], capture_output=True, text=True)
        assert r.returncode == 1 and said in r.stderr and "Traceback" not in r.stderr, r.stderr
    assert command_line("mcr", {"budget": "sixty", "seed": 1}) == "mjcheck hunt --ruleset mcr --budget sixty --seed 1"
    assert command_line("mcr", {"budget": 60.0, "effort": 1, "seed": 1}) == \
        "mjcheck hunt --ruleset mcr --effort 1 --budget 60 --seed 1"


def test_a_spec_that_fails_to_load_during_the_hunt_is_named_without_a_traceback(tmp_path, monkeypatch):
    # a ruleset read during the hunt (another one, for a cross-variant search) that no longer validates, as when
    # its file is edited while the hunt runs: one error naming the file and the field, exit status 2
    from checker.spec import SpecError, SpecIssue
    import checker.hunt.run as run

    def broken(*args, **kwargs):
        raise SpecError([SpecIssue("spec/mcr.yaml:136", "/options/two_concealed_kongs_points",
                                   "Additional properties are not allowed ('x' was unexpected)")])

    monkeypatch.setattr(run, "hunt", broken)
    r = CliRunner().invoke(app, ["hunt", "--ruleset", "shanghai-knocking", "--effort", "1", "--seed", "1",
                                 "--out", str(tmp_path)])
    assert r.exit_code == 2
    assert "not valid, and the hunt stopped" in r.output and "spec/mcr.yaml:136" in r.output
    assert "Traceback" not in r.output


def test_the_page_marks_a_claim_decided_near_its_solvers_bound(tmp_path):
    """Z3's resource count differs between runs: a claim decided with more than half its bound used is said to be
    decided near it (another run may leave it undecided); one decided with little of it, and every pair, likewise."""
    def claim(key: str, used: float) -> dict:
        return {"key": key, "claim": f"claim {key}", "reading": {}, "domain": "d", "result": "proved", "rules": [],
                "witness": None, "why": "", "also": [], "by": "model", "examined": "", "bound_used": used}
    proofs = [claim("zero-sum", 0.93), claim("monotone.flower", 0.2), claim("interaction.a=1&b=2", 0.75),
              claim("interaction.a=1&c=2", 0.1)]
    body = write_findings(tmp_path / "f.json", "shanghai-classic", [],
                          {"effort": 1, "budget": None, "seed": 1, "proofs": proofs})
    text = page("shanghai-classic", "Shanghai classic", body)
    near = [line for line in text.splitlines() if "of the solver's bound used" in line]
    assert len(near) == 1 and "claim zero-sum" in near[0] and "93%" in near[0]
    assert "`a=1 & b=2` (near the bound: 75% of it used); `a=1 & c=2`" in text
    assert "decided near its solver's bound" in text  # the run's bound, in words, says answers may differ there
