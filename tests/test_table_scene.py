"""Hand-written scenes (checker/table/scene.py): the wall deals and draws exactly the tiles a scene names, filler
forms nothing with them, and a scene that cannot be dealt is refused by name."""
from __future__ import annotations

import pytest

from checker import tiles as T
from checker.case import CaseRunner
from checker.separating.scenes import SCENES, scene_data
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


# What the spec's table makes of each search scene (checker/separating/scenes.py), worked from the rules and
# the documents' sentences; seat 0 deals, seat 1 is A, 2 is B, 3 is C. Event indexes count the scene's events
# (eight_flowers_pass_a_win opens with A's 16 flower and replacement events). Only the verdict, the refused
# event and its rule, and the winner are asserted: a winner's score rests on the scoring rules that the score
# corpora's hand-worked tests check.
ILLEGAL, UNFINISHED = "illegal", "unfinished"
KNOCKING = {
    # s-000-014 "pass on a discard and you can't claim a later copy of that same tile": B let D's 5p go, so its
    # pung (or chow) of A's 5p, before B has drawn, is refused at event 3
    "pung_of_a_tile_let_go": (ILLEGAL, 3, "procedure.forgo_then_reclaim"),
    "chow_of_a_tile_let_go": (ILLEGAL, 3, "procedure.forgo_then_reclaim"),
    # B's pung of D's 5p outranks A's chow (claim_priority win, pung_kong, chow), so A let nothing go it could
    # have claimed: its chow of D's next 5p stands and the log ends with A to discard
    "chow_let_go_beside_a_pung": (UNFINISHED, 7, "procedure.turn"),
    # s-000-021 "unless a self-draw win is sitting right there instead": the fourth 3m completes 1m2m3m, A wins
    "fourth_tile_of_a_pung_wins": ("win", 1, "self_draw"),
    # knock_lock_covers_kongs false (the default): the kong on C's 9s is allowed; the log ends after A's discard
    "kong_claimed_after_knocking": (UNFINISHED, 10, "procedure.turn"),
    # s-000-006 "Knock to declare readiness: it locks your hand": A's pung (event 8), its chow (event 10)
    "passed_win_then_pung": (ILLEGAL, 8, "procedure.knock_locks_hand"),
    "passed_win_then_chow": (ILLEGAL, 10, "procedure.knock_locks_hand"),
    # s-000-007 "Miss a win after knocking and you forfeit the hand": A let B's winning tile go, so its later win
    # is refused (after a kong, which the lock allows, at event 13; after a draw at event 14)
    "passed_win_then_kong": (ILLEGAL, 13, "procedure.knock"),
    "passed_win_then_draw": (ILLEGAL, 14, "procedure.knock"),
    # s-000-001 "can win, but only after you've formally knocked ready": no knock, no win (knocking has no
    # eight-flower hand that wins without one)
    "passed_win_without_knocking": (ILLEGAL, 7, "win.knocked"),
    "eight_flowers_pass_a_win": (ILLEGAL, 23, "win.knocked"),
    # no shape is declared on flowers in knocking: A's win after its flowers, in the dealer's turn, is out of turn
    "eight_flowers_declared_at_the_deal": (ILLEGAL, 16, "procedure.turn"),
    "win_without_knocking": (ILLEGAL, 5, "win.knocked"),
    # A has not knocked: no win, robbing or not
    "claimed_kong_robbed": (ILLEGAL, 2, "win.knocked"),
    # pungs before the knock, a knock, a win on the discard: knocking has no contract (承包), A simply wins
    "three_calls_then_won": ("win", 1, "discard"),
    "two_calls_then_won": ("win", 1, "discard"),
}
CLASSIC = {
    # no forgo-then-reclaim in classic: the claims stand and the log ends there
    "pung_of_a_tile_let_go": (UNFINISHED, 3, "procedure.turn"),
    "chow_of_a_tile_let_go": (UNFINISHED, 3, "procedure.turn"),
    "chow_let_go_beside_a_pung": (UNFINISHED, 7, "procedure.turn"),  # A, D's 下家, chows the next 5p
    # A's hand mixes three suits: classic wins only its special hands (win_hands special_only), refused at event 11
    "fourth_tile_of_a_pung_wins": (ILLEGAL, 11, "win.special_hands_only"),
    # classic's knock does not lock the hand
    "kong_claimed_after_knocking": (UNFINISHED, 10, "procedure.turn"),
    # s-001-024a/024b: 动牌 (碰、上、杠、摸牌) lifts the 漏胡 block, so A's full flush wins on the next copy
    "passed_win_then_pung": ("win", 1, "discard"),
    "passed_win_then_chow": ("win", 1, "discard"),
    "passed_win_then_kong": ("win", 1, "discard"),
    "passed_win_then_draw": ("win", 1, "discard"),
    # s-001-004 必须先敲（报听）才可以胡牌
    "passed_win_without_knocking": (ILLEGAL, 7, "win.knocked"),
    # s-001-056 八花齐 wins without the knock (win.requires_flags exempts it), and 漏胡 binds a player who has
    # knocked (the table reads knock.required_to_win so): A's win on C's 3m stands
    "eight_flowers_pass_a_win": ("win", 1, "discard"),
    # s-001-056 抓满…8朵花即可马上胡牌 (eight_flowers_at_deal=at_once): A declares right after its last replacement,
    # out of turn, as a self-drawn win
    "eight_flowers_declared_at_the_deal": ("win", 1, "self_draw"),
    "win_without_knocking": (ILLEGAL, 5, "win.knocked"),
    # robbing_only_added_kongs: a kong claimed from a discard may not be robbed (refused before the knock is asked)
    "claimed_kong_robbed": (ILLEGAL, 2, "procedure.robbing_only_added_kongs"),
    # A's 清碰 (all pungs of one suit) wins on D's 9m; the payments: test_three_calls_on_one_seat_make_a_contract
    "three_calls_then_won": ("win", 1, "discard"),
    "two_calls_then_won": ("win", 1, "discard"),
}
MCR = {
    "pung_of_a_tile_let_go": (UNFINISHED, 3, "procedure.turn"),  # MCR has no forgo-then-reclaim
    "chow_of_a_tile_let_go": (UNFINISHED, 3, "procedure.turn"),
    "chow_let_go_beside_a_pung": (UNFINISHED, 7, "procedure.turn"),  # A chows its previous player's 5p
    **{name: ("bad input", 2, "input.event") for name in  # MCR has no knock: the event cannot be read
       ("fourth_tile_of_a_pung_wins", "kong_claimed_after_knocking", "passed_win_then_pung", "passed_win_then_chow",
        "passed_win_then_kong", "passed_win_then_draw")},
    # no knock and no 漏胡 in MCR: A's full flush (24 points, over the minimum of 8) wins on the discard
    "passed_win_without_knocking": ("win", 1, "discard"),
    "eight_flowers_pass_a_win": ("win", 1, "discard"),
    "eight_flowers_declared_at_the_deal": (ILLEGAL, 16, "procedure.turn"),  # no shape declared on flowers in MCR
    "win_without_knocking": ("win", 1, "discard"),
    # robbing_only_added_kongs (MCR 2006: Robbing the kong is a win on a tile added to a melded pung)
    "claimed_kong_robbed": (ILLEGAL, 2, "procedure.robbing_only_added_kongs"),
    "three_calls_then_won": ("bad input", 18, "input.event"),  # A's knock, after its three pungs
    "two_calls_then_won": ("bad input", 16, "input.event"),
}
# added_kong_after_claim allowed (the MCR default, the fixed reading of both Shanghai specs): A's added kong in
# its claim turn stands, A draws its replacement and discards; the log ends with the next seat to draw
for worked_here in (KNOCKING, CLASSIC, MCR):
    worked_here["added_kong_in_the_claim_turn"] = (UNFINISHED, 4, "procedure.turn")
# A knocks (its filler draw thrown: 111m 456m 789m 23p 55p waits on 1p/4p), draws the fourth 1m and declares a
# concealed kong: 456m 789m 23p 55p [1111m] still waits on 1p/4p, so knocking's lock (knock_concealed_kong
# keeps_wait, the default) lets it stand; A draws its replacement and, locked, throws it: the log ends there.
# Classic's knock does not lock the hand: the same. MCR has no knock: the event cannot be read.
KNOCKING["concealed_kong_after_knocking"] = (UNFINISHED, 13, "procedure.turn")
CLASSIC["concealed_kong_after_knocking"] = (UNFINISHED, 13, "procedure.turn")
MCR["concealed_kong_after_knocking"] = ("bad input", 2, "input.event")


@pytest.mark.parametrize("ruleset_id, worked", [("shanghai-knocking", KNOCKING), ("shanghai-classic", CLASSIC),
                                                ("mcr", MCR)])
def test_each_search_scene_comes_to_what_the_rules_say(ruleset_id, worked):
    from checker.separating.search import procedure_case
    from checker.table.log import procedure_result

    runner = CaseRunner()
    assert set(worked) == {s.name for s in SCENES}
    for s in SCENES:
        result = procedure_result(procedure_case(ruleset_id, scene_data(ruleset_id, s)), runner)
        if worked[s.name][0] == "win":
            got = (result.get("ended"), *[(w["seat"], w["win_by"]) for w in result.get("winners", [])][0])
            assert result["verdict"] == "legal" and len(result["winners"]) == 1, (s.name, result)
        else:
            got = (result["verdict"], result.get("event"), result.get("rule"))
        assert got == worked[s.name], s.name


def test_three_calls_on_one_seat_make_a_contract():
    # s-001-033 如果吃碰杠一家或被一家吃碰杠超过3次（包括3次），则承包: A (seat 1) pungs three of D's (seat 0)
    # discards, so A and D are partners; A's 清碰 (qing_peng: "清一色 and 碰碰胡: 2 勒", settled directly at 10
    # a 勒: 20; no 门清, A has melded) wins on D's 9m.
    # One share is the total plus the base of 2 (底分), 22; the partner who discards pays the contract's
    # discard shares, 2: 44, and no one else pays. With two pungs from D (and one from C) there is no contract:
    # D pays the one share of a discard, 22.
    from checker.separating.search import procedure_case
    from checker.table.log import procedure_result

    runner = CaseRunner()
    scenes = {s.name: s for s in SCENES}
    three = procedure_result(procedure_case("shanghai-classic", scene_data("shanghai-classic",
                                                                            scenes["three_calls_then_won"])), runner)
    two = procedure_result(procedure_case("shanghai-classic", scene_data("shanghai-classic",
                                                                          scenes["two_calls_then_won"])), runner)
    assert three["winners"][0]["total"] == two["winners"][0]["total"] == 20
    assert three["payments"] == [-44, 44, 0, 0]
    assert two["payments"] == [-22, 22, 0, 0]


@pytest.mark.parametrize("ruleset_id", ["mcr", "shanghai-knocking", "shanghai-classic"])
def test_the_last_discard_punged_is_drawn_by_default_and_refused_under_win_only(ruleset_id):
    # claims/last_discard any (MCR's default; the fixed reading of both Shanghai specs): the scene's wall is played
    # out, each seat throwing what it draws (flowers exposed and replaced from the back), so the last discard is
    # the one after the wall's last tile; the seat across from its discarder pungs it and throws, and with no
    # tile left the hand is drawn (its events end with draw_game).
    from checker.separating.scenes import last_discard_punged
    from checker.separating.search import procedure_case
    from checker.table.log import procedure_result

    data = last_discard_punged(ruleset_id)
    assert data is not None
    events = data["events"]
    assert [e["event"] for e in events[-4:]] == ["discard", "pung", "discard", "draw_game"]
    assert events[-3]["seat"] == (events[-4]["seat"] + 2) % 4
    result = procedure_result(procedure_case(ruleset_id, data), CaseRunner())
    assert (result["verdict"], result.get("ended")) == ("legal", "draw"), result
    if ruleset_id == "mcr":  # option last_discard_claims = win_only: the pung (event len - 3) is refused
        refused = procedure_result(procedure_case(ruleset_id, data, {"last_discard_claims": "win_only"}),
                                   CaseRunner())
        assert (refused["verdict"], refused["event"], refused["rule"]) == \
            ("illegal", len(events) - 3, "option.last_discard_claims")
