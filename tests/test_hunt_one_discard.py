"""Several winners of one discard against the single-hand limit, played at the table (checker.hunt.one_discard)."""
from __future__ import annotations

from checker.case import CaseRunner
from checker.engine import load_ruleset
from checker.hunt import proofs
from checker.hunt.examine import hand_pool
from checker.hunt.examples import known_hands
from checker.hunt.one_discard import _discarder_lost, _scene, several_winners_finding
from checker.hunt.settle import SettlementModel
from checker.table.log import replay_events

RUNNER = CaseRunner()
CLASSIC = load_ruleset("shanghai-classic")


def test_two_hands_waiting_on_one_tile_are_played_and_the_discarder_pays_both():
    """Worked by hand (the hands of test_hunt_settle's engine counter-example): at 荒番 1, both knocked, one holds
    1m-4m pungs and 5m, the other 6m-9m pungs and 5m. Each: 清一色 settles at 1 勒 = 10, 门清 doubles it to 20, 荒番 1
    to 40; a discard is paid by the discarder alone, one share of 底分 2 + 40 = 42. The first reads its discarder
    across (seat 2 from it), so it sits at seat 2 of the table; the second reads it as its next player, so it sits
    at seat 3. Seat 0 deals, the round goes once, seat 0 discards 5m and both win: seat 0 pays 84, 80 in value
    (40 to each), more than the 5 勒 (50) a player may lose in one hand."""
    table = {"win_tile": "5m", "win_by": "discard", "seat_wind": "E", "round_wind": "E", "flowers": "", "melds": [],
             "flags": {"knocked": True}, "counters": {"huangfan": 1}}
    across = {**table, "concealed": "1m1m1m2m2m2m3m3m3m4m4m4m5m", "discarder": 2}
    after = {**table, "concealed": "6m6m6m7m7m7m8m8m8m9m9m9m5m", "discarder": 1}
    header, events = _scene(CLASSIC, [across, after])
    assert [e["event"] for e in events] == ["discard", "draw", "discard", "draw", "knock", "discard", "draw", "knock",
                                            "discard", "draw", "discard", "win", "win"]
    assert header["counters"] == {"huangfan": 1} and "flags" not in header
    played = replay_events(header, events)
    assert played.verdict == "legal", played.message
    assert [w["seat"] for w in played.result["winners"]] == [2, 3]
    assert played.result["payments"] == [-84, 0, 42, 42]
    model = SettlementModel(RUNNER.scorer(CLASSIC.id, {}))
    assert _discarder_lost(model, header, played.result) == [40, 40]


def test_the_classic_limit_broken_only_by_several_winners_is_a_finding_with_a_legal_hand_of_play():
    """The model refutes classic's limit under the defaults only with several winners (each winner pays as a hand of
    its own: test_hunt_settle); the finding's witness is a log the table judges legal, in which no winner takes more
    than 50 in value from the discarder and all of them together take more."""
    claim = proofs.single_hand_limit(RUNNER, CLASSIC, {})
    assert claim.result == "refuted" and claim.witness["other_winners"]
    found = several_winners_finding(RUNNER, CLASSIC, [claim], hand_pool(CLASSIC, known_hands(CLASSIC)))
    assert found is not None and found.kind == "contradiction" and found.key == "contradiction.single-hand-limit"
    assert found.witness["kind"] == "procedure"
    header = {"game": "mjcheck-table", "version": 1, "ruleset": CLASSIC.id,
              **{k: v for k, v in found.witness["input"].items() if k != "events"}}
    played = replay_events(header, found.witness["input"]["events"])
    assert played.verdict == "legal"
    winners = played.result["winners"]
    assert len(winners) >= 2 and all(w["win_by"] == "discard" for w in winners)
    lost = _discarder_lost(SettlementModel(RUNNER.scorer(CLASSIC.id, {})), header, played.result)
    assert all(x <= 50 for x in lost) and sum(lost) > 50
    assert f"loses {sum(lost)} in value" in found.title
    # 底分 2 on each share, on top of the value: the discarder (seat 0) pays value and 底分 to each winner
    assert played.result["payments"][0] == -(sum(lost) + 2 * len(winners))
    assert {"scoring.single_hand_limit", "procedure.multiple_winners"} <= set(found.rules)


def test_no_finding_when_one_winner_already_breaks_the_limit_or_it_is_proved():
    plain = proofs.Claim("single-hand-limit", "x", {}, "", "refuted", witness={"counts": {}})
    proved = proofs.Claim("single-hand-limit", "x", {}, "", "proved")
    assert several_winners_finding(RUNNER, CLASSIC, [plain], []) is None
    assert several_winners_finding(RUNNER, CLASSIC, [proved], []) is None
