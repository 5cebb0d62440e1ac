"""Hand-made game logs for the table procedure engine (checker/table/state.py) under Shanghai 敲麻 "Knocking"
(spec/shanghai-knocking.yaml) and classic Shanghai (spec/shanghai-classic.yaml): for each procedure entry, a
legal log and an illegal one, the illegal one refused at its last event with the exact rule id.

Every wall is built with `arrange_wall`, so each seat holds exactly the tiles written in the test and draws
exactly the tiles the log names (the engine checks every named draw against the wall). Seats that only fill the
table ("fillers") draw a tile and discard it at once. Under Knocking the dragons 5z 6z 7z are flowers: they are
kept out of every Knocking hand and draw.

Seats are absolute (seat + 1 is the next player, downstream); seat 0 deals unless a test says otherwise. An event
is written "seat kind [tile(s)] [back]", e.g. "1 draw 5p", "0 chow 345m", "0 draw 9s back" (a replacement from
the back of the wall), "draw_game".

Knocking reminders (spec): a win needs the knock (win.knocked) and four sets and a pair. Value = hua × 2^doubles:
going out 1 hua; a suited pung 0, a wind pung 1; no hua beyond the base is the fig, 10 hua (then doubled);
doubles 门清 1 (nothing claimed; on a discard too), 碰碰胡 1, 混一色 1, 清一色 2. The discarder alone pays a
discard win; each opponent pays a self-draw; the robbed konger pays 3 × the value.

Classic reminders (spec, default options): a win needs the knock (报听) and, under win_hands=special_only, a
碰碰胡-or-better hand. 花: wind pung 1 (suited pungs 0); 清一色 settles directly at 1 勒 = 10; 碰碰胡 and 混一色
add nothing (unpriced_fan_value=0); 门清 doubles once (menqing_doubles=1) and raises the cap to 2 勒 = 20; the
cap is otherwise 1 勒 = 10. One share = 底分 2 + the value (base_placement=after_caps). The discarder alone pays
one share; a self-draw is one share from each opponent; 承包 (settlement.contract): on a self-draw the partner
pays 5 shares and the others nothing (contract_self_draw_others=0).
"""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from checker.case import CaseRunner
from checker.table.events import parse_event
from checker.table.log import new_table, replay_events
from checker.corpus.scenes import MK_FILL_1, MK_FILL_2, MK_FILL_3, MK_OPEN, MK_ROUND, SCENES, event, header
from checker.spec import load_ruleset, load_ruleset_file
from checker.tiles import format_tiles, parse_tile

KNOCKING, CLASSIC = "shanghai-knocking", "shanghai-classic"
ROOT = Path(__file__).resolve().parents[1]


# --------------------------------------------------------------------------- helpers

def replay(hdr, events):
    return replay_events(hdr, [event(e) for e in events])


def assert_legal(hdr, events):
    """The whole log is legal and the hand has ended; its result."""
    r = replay(hdr, events)
    assert r.verdict == "legal", (r.verdict, r.line, r.event, r.rule, r.message)
    return r.result


def assert_illegal(hdr, events, rule):
    """The log is refused at its last event (line 1 is the header), citing `rule`."""
    r = replay(hdr, events)
    assert (r.verdict, r.rule, r.line) == ("illegal", rule, len(events) + 1), (r.verdict, r.line, r.event,
                                                                                r.rule, r.message)
    return r


def table_after(hdr, events):
    """The table after `events`, each of which must be legal."""
    table = new_table(hdr)
    for e in events:
        problem = table.apply(parse_event(event(e)))
        assert problem is None, (e, problem)
    return table


def only_winner(result):
    (w,) = result["winners"]
    return w


# =========================================================================== Shanghai Knocking

# Seat 0 (dealer): 123m 456m 789m 123p 5p 9s. Knocking and discarding 9s leaves 123m456m789m123p 5p: a wait on 5p.
KNOCK_H0 = "123m456m789m123p5p9s"
FILL_1 = "1z1z1z2z2z2z6p6p6p7p7p7p8p"
FILL_2 = "3z3z3z4z4z4z6s6s6s7s7s7s8s"
FILL_3 = "1z2z3z4z4p4p8p8p9p9p8s9s9s"
KNOCK_HANDS = {0: KNOCK_H0, 1: FILL_1, 2: FILL_2, 3: FILL_3}


# --------------------------------------------------------------------------- 1. procedure.knock

def test_knock_then_win_on_the_next_winning_tile_is_legal_and_flagged_knocked():
    """procedure.knock: seat 0 knocks with its first discard (9s), waiting on 5p; seat 1 draws 5p and discards
    it; seat 0 wins.
    Hand 123m 456m 789m 123p 55p: hua = going out 1, nothing beyond it -> fig 10; doubles: 门清 1 (nothing
    claimed) -> 10 × 2 = 20. Discard win: seat 1 alone pays 20 -> payments [+20, -20, 0, 0].
    Winner deals next (procedure.dealer): seat 0."""
    hdr = header(KNOCKING, KNOCK_HANDS, draws="5p")
    result = assert_legal(hdr, ["0 knock", "0 discard 9s", "1 draw 5p", "1 discard 5p", "0 win"])
    w = only_winner(result)
    assert (w["seat"], w["tile"], w["win_by"], w["discarder"]) == (0, "5p", "discard", 1)
    assert "knocked" in w["flags"]
    assert w["total"] == 20
    assert result["payments"] == [20, -20, 0, 0]
    assert result["next"]["dealer"] == 0


def test_knock_with_a_discard_that_leaves_no_wait_is_illegal():
    """procedure.knock: discarding 1m after the knock leaves 23m 456m 789m 123p 5p 9s, which waits on nothing."""
    hdr = header(KNOCKING, KNOCK_HANDS)
    assert_illegal(hdr, ["0 knock", "0 discard 1m"], "procedure.knock")


def test_knock_waiting_only_on_a_tile_it_holds_four_of_is_illegal():
    """procedure.knock: seat 0 holds 1111m 456m 789m 123p 9s; knocking with 9s leaves 1111m 456m 789m 123p,
    whose only winning shape is 111m + a pair of 1m: a fifth 1m, which does not exist. It waits on no tile."""
    hdr = header(KNOCKING, {0: "1111m456m789m123p9s", 1: FILL_1, 2: FILL_2, 3: FILL_3})
    assert_illegal(hdr, ["0 knock", "0 discard 9s"], "procedure.knock")


def test_knock_followed_by_a_kong_instead_of_its_discard_is_illegal():
    """procedure.knock: the knock goes with the same seat's discard. Seat 0 holds 1111m 456m 789m 23p 55p and
    declares a concealed kong of 1m right after knocking."""
    hdr = header(KNOCKING, {0: "1111m456m789m23p55p", 1: FILL_1, 2: FILL_2, 3: FILL_3})
    assert_illegal(hdr, ["0 knock", "0 concealed_kong 1m"], "procedure.knock")


def test_knocking_twice_is_illegal():
    """procedure.knock: seat 0 knocks (discarding 9s), the others draw and discard 1s 2s 3s (no win for seat 0,
    which waits on 5p), seat 0 draws 4s and knocks again."""
    hdr = header(KNOCKING, KNOCK_HANDS, draws="1s2s3s4s")
    assert_illegal(hdr, ["0 knock", "0 discard 9s", "1 draw 1s", "1 discard 1s", "2 draw 2s", "2 discard 2s",
                         "3 draw 3s", "3 discard 3s", "0 draw 4s", "0 knock"], "procedure.knock")


def test_win_without_having_knocked_is_refused_with_win_knocked():
    """win.knocked: the same hand and the same 5p as the legal win, but seat 0 discarded 9s without knocking."""
    hdr = header(KNOCKING, KNOCK_HANDS, draws="5p")
    assert_illegal(hdr, ["0 discard 9s", "1 draw 5p", "1 discard 5p", "0 win"], "win.knocked")


# --------------------------------------------------------------------------- 2. procedure.knock_locks_hand

# Seat 0: 123m 456m 789m 23p 55s 9s. Knock, discard 9s: waits on 1p or 4p; 55s is a pair outside the wait.
LOCK_HANDS = {0: "123m456m789m23p55s9s", 1: FILL_1, 2: FILL_2, 3: FILL_3}


def test_pung_before_knocking_is_legal():
    """procedure.knock_locks_hand (legal side): unknocked, seat 0 pungs seat 1's 5s, then knocks and discards 2p
    (123m 456m 789m 3p: waits on 3p) and wins on seat 1's next discard, 3p."""
    hdr = header(KNOCKING, LOCK_HANDS, draws="5s3p")
    result = assert_legal(hdr, ["0 discard 9s", "1 draw 5s", "1 discard 5s", "0 pung", "0 knock", "0 discard 2p",
                                "1 draw 3p", "1 discard 3p", "0 win"])
    assert only_winner(result)["seat"] == 0


def test_pung_after_knocking_is_illegal():
    """procedure.knock_locks_hand: seat 0 has knocked (waiting on 1p/4p) and pungs seat 1's 5s with its pair."""
    hdr = header(KNOCKING, LOCK_HANDS, draws="5s")
    assert_illegal(hdr, ["0 knock", "0 discard 9s", "1 draw 5s", "1 discard 5s", "0 pung"],
                   "procedure.knock_locks_hand")


def test_chow_after_knocking_is_illegal():
    """procedure.knock_locks_hand: seat 0 has knocked and chows seat 3's (its previous player's) 6m with 4m 5m."""
    hdr = header(KNOCKING, LOCK_HANDS, draws="1s2s6m")
    assert_illegal(hdr, ["0 knock", "0 discard 9s", "1 draw 1s", "1 discard 1s", "2 draw 2s", "2 discard 2s",
                         "3 draw 6m", "3 discard 6m", "0 chow 456m"], "procedure.knock_locks_hand")


KNOCKED_ROUND = ["0 knock", "0 discard 9s", "1 draw 1s", "1 discard 1s", "2 draw 2s", "2 discard 2s",
                 "3 draw 3s", "3 discard 3s", "0 draw 9p"]


def test_knocked_player_discards_the_tile_it_drew_and_wins_later():
    """procedure.knock_locks_hand (legal side): knocked seat 0 draws 9p and discards it; seat 1 then discards 1p
    and seat 0 wins (123m 456m 789m 123p 55s)."""
    hdr = header(KNOCKING, LOCK_HANDS, draws="1s2s3s9p1p")
    result = assert_legal(hdr, KNOCKED_ROUND + ["0 discard 9p", "1 draw 1p", "1 discard 1p", "0 win"])
    assert only_winner(result)["tile"] == "1p"


def test_knocked_player_discarding_another_tile_than_its_draw_is_illegal():
    """procedure.knock_locks_hand: knocked seat 0 draws 9p and discards 1m from its locked hand."""
    hdr = header(KNOCKING, LOCK_HANDS, draws="1s2s3s9p")
    assert_illegal(hdr, KNOCKED_ROUND + ["0 discard 1m"], "procedure.knock_locks_hand")


# Seat 0: 123m 456m 23p 555s 88s 9s. Knock, discard 9s: waits on 1p/4p, holding a concealed pung of 5s.
# Seat 1 draws and discards the fourth 5s; seat 0 claims it as a kong, draws 1s from the back and discards it;
# seat 1 discards 4p and seat 0 wins.
KONG_LOG = ["0 knock", "0 discard 9s", "1 draw 5s", "1 discard 5s", "0 kong", "0 draw 1s back", "0 discard 1s",
            "1 draw 4p", "1 discard 4p", "0 win"]


def kong_header(**options):
    return header(KNOCKING, {0: "123m456m23p555s88s9s", 1: FILL_1, 2: FILL_2, 3: FILL_3}, draws="5s4p",
                  back="1s", options=options)


def test_kong_claimed_after_knocking_is_legal_by_default():
    """knock_lock_covers_kongs=false (default): a kong claimed on a discard after knocking keeps the hand's sets
    and wait, and is allowed. Win: 123m 456m 234p 88s [5555s claimed]."""
    result = assert_legal(kong_header(knock_lock_covers_kongs=False), KONG_LOG)
    assert only_winner(result)["tile"] == "4p"


def test_kong_claimed_after_knocking_is_illegal_when_the_lock_covers_kongs():
    """knock_lock_covers_kongs=true: the same kong breaks the lock."""
    assert_illegal(kong_header(knock_lock_covers_kongs=True), KONG_LOG[:5], "procedure.knock_locks_hand")


# --------------------------------------------------------------------------- 3. procedure.mandatory_kong
# 7. procedure.robbing_kong

# The scenes of checker/corpus/scenes.py (the procedure corpus takes them as cases), worked by hand here.
SCENE = {sc.test: sc for sc in SCENES}


def scene_log(test_name):
    sc = SCENE[test_name]
    return sc.header("shanghai-knocking"), list(sc.events)


def mk_header(h0="123m456m789m77p5s1s2s", **kw):
    return header(KNOCKING, {0: h0, 1: MK_FILL_1, 2: MK_FILL_2, 3: MK_FILL_3}, **kw)


def test_knocked_player_discarding_the_fourth_tile_of_its_pung_is_illegal():
    """procedure.mandatory_kong: seat 0 (123m 456m 789m 77p 1s 2s 5s) discards 1s, pungs seat 1's 7p, knocks and
    discards 2s: 123m 456m 789m 5s [777p], waiting on 5s. After a round it draws the fourth 7p and discards it
    (the tile it drew, so the lock is kept) instead of extending the pung."""
    hdr, events = scene_log("test_knocked_player_discarding_the_fourth_tile_of_its_pung_is_illegal")
    assert events[-1] == "0 discard 7p"
    assert_illegal(hdr, events, "procedure.mandatory_kong")


def test_mandatory_add_kong_then_back_draw_is_legal():
    """procedure.mandatory_kong (legal side): seat 0 extends the pung (add_kong 7p), draws 9s from the back,
    discards it; seat 1 discards 5s and seat 0 wins: 123m 456m 789m 55s [7777p]."""
    hdr, events = scene_log("test_mandatory_add_kong_then_back_draw_is_legal")
    assert events[-6:] == ["0 add_kong 7p", "0 draw 9s back", "0 discard 9s", "1 draw 5s", "1 discard 5s", "0 win"]
    result = assert_legal(hdr, events)
    assert only_winner(result)["tile"] == "5s"


def test_fourth_tile_that_completes_the_hand_may_be_won_on_instead_of_the_kong():
    """procedure.mandatory_kong (unless a self-draw win is sitting right there): seat 0 holds 123m 456m 68p 99p
    [777p] after its knock, waiting on 7p; the fourth 7p completes 123m 456m 678p 99p and it wins by self-draw.
    Hua: going out 1, suited pung 0 -> fig 10; no double (claimed, two suits) -> 10; each opponent pays 10:
    payments [+30, -10, -10, -10]."""
    hdr = mk_header("123m456m68p99p77p1s2s", draws="7p3s4s8s7p")
    result = assert_legal(hdr, list(MK_OPEN + MK_ROUND) + ["0 win"])
    w = only_winner(result)
    assert (w["seat"], w["tile"], w["win_by"], w["total"]) == (0, "7p", "self_draw", 10)
    assert result["payments"] == [30, -10, -10, -10]


def test_ready_knocked_player_robs_the_mandatory_add_kong():
    """procedure.robbing_kong: seat 2 holds 123s 456s 789s 68p 55m; it draws 4p, knocks and discards it, waiting
    on 7p (after seat 1's 7p was punged, so it passed no win). Seat 0's mandatory add_kong of the fourth 7p is
    robbed by seat 2.
    Seat 2's hand 123s 456s 789s 678p 55m: going out 1 -> fig 10; 门清 1 -> 20. The konger pays 3 × 20 = 60:
    payments [-60, 0, +60, 0]."""
    hdr, events = scene_log("test_ready_knocked_player_robs_the_mandatory_add_kong")
    assert SCENE["test_ready_knocked_player_robs_the_mandatory_add_kong"].hands[2] == "123s456s789s68p55m"
    assert events[-2:] == ["0 add_kong 7p", "2 win"]
    result = assert_legal(hdr, events)
    w = only_winner(result)
    assert (w["seat"], w["tile"], w["win_by"], w["discarder"]) == (2, "7p", "robbing_kong", 0)
    assert w["total"] == 20
    assert result["payments"] == [-60, 0, 60, 0]
    assert result["next"]["dealer"] == 2


def test_robbing_a_concealed_kong_is_illegal():
    """procedure.robbing_kong (illegal side): only a kong that exposes a tile may be robbed. Seat 3 holds
    123s 456s 789s 11p 23m, draws 4s, knocks and discards it, waiting on 1m/4m; seat 0 (1111m 456m 789m 23p 5s
    9s) draws 5s and declares a concealed kong of 1m; seat 3 claims the win on it."""
    hdr, events = scene_log("test_robbing_a_concealed_kong_is_illegal")
    assert events[-2:] == ["0 concealed_kong 1m", "3 win"]
    assert_illegal(hdr, events, "procedure.robbing_kong")


# --------------------------------------------------------------------------- 4. option.knock_missed_win

# Seat 0 as KNOCK_H0 (knocks with 9s, waits on 5p). Seat 1: 234s 567s 888s 33z 5p 9p; it draws 9p, knocks and
# discards 5p (234s 567s 888s 33z 99p: waits on 3z/9p). Seat 0 could win on that 5p.
MW_HANDS = {0: KNOCK_H0, 1: "234s567s888s3z3z5p9p", 2: "1z1z1z2z2z2z4z4z4z1s1s9s6s",
            3: "1z2z4z1s6s6s7s9s9s1p1p4p4p"}
MW_OPEN = ["0 knock", "0 discard 9s", "1 draw 9p", "1 knock", "1 discard 5p"]


def test_missed_discard_win_forfeits_the_hand_by_default():
    """knock_missed_win=forfeit_hand (default): seat 2 draws, so knocked seat 0 let seat 1's 5p go: it is dead
    and plays on. Seat 2 discards 3z; seat 1 wins: 234s 567s 888s 333z 99p.
    Hua: going out 1 + wind pung 1 = 2 (no fig); 门清 1 -> 4. Seat 2 pays 4: payments [0, +4, -4, 0].
    Seat 1 won: it deals next."""
    hdr = header(KNOCKING, MW_HANDS, draws="9p3z", options={"knock_missed_win": "forfeit_hand"})
    table = table_after(hdr, MW_OPEN + ["2 draw 3z"])
    assert table.players[0].dead and not table.players[1].dead
    result = assert_legal(hdr, MW_OPEN + ["2 draw 3z", "2 discard 3z", "1 win"])
    w = only_winner(result)
    assert (w["seat"], w["tile"], w["total"]) == (1, "3z", 4)
    assert result["forfeits"] == [0]
    assert result["payments"] == [0, 4, -4, 0]
    assert result["next"]["dealer"] == 1


def test_dead_player_may_not_win_later():
    """procedure.knock: seat 0, dead after letting seat 1's 5p go, wins on seat 2's 5p."""
    hdr = header(KNOCKING, MW_HANDS, draws="9p5p")
    assert_illegal(hdr, MW_OPEN + ["2 draw 5p", "2 discard 5p", "0 win"], "procedure.knock")


def test_missed_discard_win_is_illegal_when_not_allowed():
    """knock_missed_win=not_allowed: the draw by which seat 0 lets seat 1's 5p go breaks the rule."""
    hdr = header(KNOCKING, MW_HANDS, draws="9p3z", options={"knock_missed_win": "not_allowed"})
    assert_illegal(hdr, MW_OPEN + ["2 draw 3z"], "option.knock_missed_win")


# Self-drawn: seat 0 knocks (waits on 5p), seats 1-3 draw and discard 1s 2s 3s, seat 0 draws 5p and discards it.
SD_LOG = ["0 knock", "0 discard 9s", "1 draw 1s", "1 discard 1s", "2 draw 2s", "2 discard 2s", "3 draw 3s",
          "3 discard 3s", "0 draw 5p", "0 discard 5p"]


def test_discarded_self_drawn_win_forfeits_the_hand_by_default():
    """knock_missed_win=forfeit_hand: seat 0 discards its winning draw 5p: dead; seat 1 (not knocked) draws 4s
    and discards its own 5p, and seat 0's win on it is refused under procedure.knock."""
    hdr = header(KNOCKING, MW_HANDS, draws="1s2s3s5p4s")
    table = table_after(hdr, SD_LOG)
    assert table.players[0].dead
    assert_illegal(hdr, SD_LOG + ["1 draw 4s", "1 discard 5p", "0 win"], "procedure.knock")


def test_discarded_self_drawn_win_is_illegal_when_not_allowed():
    """knock_missed_win=not_allowed: the discard of the winning draw breaks the rule."""
    hdr = header(KNOCKING, MW_HANDS, draws="1s2s3s5p", options={"knock_missed_win": "not_allowed"})
    assert_illegal(hdr, SD_LOG, "option.knock_missed_win")


# --------------------------------------------------------------------------- 5. procedure.forgo_then_reclaim

# Seat 0 as KNOCK_H0 with 8s for 9s (knocks with 8s, waits on 5p). Seat 2 holds 88s and lets seat 0's 8s go.
FG_HANDS = {0: "123m456m789m123p5p8s", 1: "1z1z1z2z2z2z3z3z3z4z4z4z9m", 2: "8s8s1z2z3z4z1s1s2s2s3s3s4s",
            3: "4s4s6s6s7s7s9s9s1p1p4p4p6p"}


def test_pung_of_a_later_copy_before_ones_own_draw_is_illegal():
    """procedure.forgo_then_reclaim: seat 2 could pung seat 0's 8s and let it go (seat 1 drew); seat 1 then
    discards another 8s and seat 2, which has not drawn since, pungs it."""
    hdr = header(KNOCKING, FG_HANDS, draws="8s")
    assert_illegal(hdr, ["0 knock", "0 discard 8s", "1 draw 8s", "1 discard 8s", "2 pung"],
                   "procedure.forgo_then_reclaim")


def test_pung_of_a_later_copy_after_ones_own_draw_is_legal():
    """procedure.forgo_then_reclaim (legal side): seat 2 lets seat 0's 8s go, draws (5s) and discards; then it
    pungs seat 3's 8s, discards 1z; seat 3 discards 5p and knocked seat 0 wins (123m 456m 789m 123p 55p:
    fig 10, 门清 -> 20, paid by seat 3)."""
    hdr = header(KNOCKING, FG_HANDS, draws="9p5s8s5p")
    result = assert_legal(hdr, ["0 knock", "0 discard 8s", "1 draw 9p", "1 discard 9p", "2 draw 5s",
                                "2 discard 5s", "3 draw 8s", "3 discard 8s", "2 pung", "2 discard 1z",
                                "3 draw 5p", "3 discard 5p", "0 win"])
    assert result["payments"] == [20, 0, 0, -20]


# Seat 2: 33p 88s 456m 789m 11z 2z. It lets seat 0's 8s go, pungs seat 1's 3p (no draw in between), knocks and
# discards 2z: 88s 456m 789m 11z [333p], waiting on 8s/1z. Seat 3 discards the last 8s.
FW_HANDS = {0: "2z2z3z3z3z4z4z4z1s2s3s5s9s8s", 1: "1p1p2p2p4p4p5p5p6p6p7p1m2m", 2: "3p3p8s8s456m789m1z1z2z",
            3: "3m3m1m2m6s6s7s7s9s9s4s5p9p"}
FW_LOG = ["0 discard 8s", "1 draw 3p", "1 discard 3p", "2 pung", "2 knock", "2 discard 2z", "3 draw 8s",
          "3 discard 8s", "2 win"]


def test_win_on_a_forgone_tile_is_legal_by_default():
    """forgo_blocks_win=false (default): the forgo blocks claims, not a win. Seat 2 wins on seat 3's 8s:
    456m 789m 888s 11z [333p]. Hua: going out 1, suited pungs 0 -> fig 10; no double -> 10; seat 3 pays 10."""
    hdr = header(KNOCKING, FW_HANDS, draws="3p8s", options={"forgo_blocks_win": False})
    result = assert_legal(hdr, FW_LOG)
    w = only_winner(result)
    assert (w["seat"], w["tile"], w["total"]) == (2, "8s", 10)
    assert result["payments"] == [0, 0, 10, -10]


def test_win_on_a_forgone_tile_before_ones_own_draw_is_illegal_when_forgo_blocks_win():
    """forgo_blocks_win=true: the same win is refused under procedure.forgo_then_reclaim."""
    hdr = header(KNOCKING, FW_HANDS, draws="3p8s", options={"forgo_blocks_win": True})
    assert_illegal(hdr, FW_LOG, "procedure.forgo_then_reclaim")


# --------------------------------------------------------------------------- 6. procedure.swap_calling

# Seat 0: 123p 456p 789p 11s 23s + the tile it knocks with: waits on 1s/4s. Seat 2 then draws and discards 4s.
SW_FILL_2 = "4z4z4z3z6s6s6s7s7s7s8s8s9s"
SW_FILL_3 = "4z8s9s9s5s5s5s6s7s7m7m1m2m"


def sw_header(knock_tile, h1, draws=""):
    return header(KNOCKING, {0: "123p456p789p11s23s" + knock_tile, 1: h1, 2: SW_FILL_2, 3: SW_FILL_3},
                  draws=draws)


PUNG_H1 = "555m1z1z1z2z2z2z3z3z9m8m"  # three 5m: it pungs with two and still holds the third


def test_discarding_a_copy_of_the_tile_just_punged_is_illegal():
    """procedure.swap_calling: seat 1 (555m) pungs seat 0's 5m with two of them and discards its third 5m."""
    assert_illegal(sw_header("5m", PUNG_H1), ["0 knock", "0 discard 5m", "1 pung", "1 discard 5m"],
                   "procedure.swap_calling")


def test_discarding_another_tile_after_a_pung_is_legal():
    """procedure.swap_calling (legal side): after the pung seat 1 discards 9m; seat 2 discards 4s; seat 0 wins
    (123p 456p 789p 11s 234s)."""
    result = assert_legal(sw_header("5m", PUNG_H1, draws="4s"),
                          ["0 knock", "0 discard 5m", "1 pung", "1 discard 9m", "2 draw 4s", "2 discard 4s", "0 win"])
    assert only_winner(result)["tile"] == "4s"


# Seat 1 holds 3m 4m 5m 6m: it chows 345m on a 3m (other end 6m) or 456m on a 6m (other end 3m) with its 4m 5m.
CHOW_END_H1 = "3m4m5m6m1z1z1z2z2z2z3z3z9m"


@pytest.mark.parametrize("claimed, run, other_end", [("3m", "345m", "6m"), ("6m", "456m", "3m")])
def test_discarding_the_other_end_of_a_chow_at_once_is_illegal(claimed, run, other_end):
    """procedure.swap_calling: seat 1 chows seat 0's 3m into 345m (or its 6m into 456m) with 4m 5m and at once
    discards the tile that would complete the run's other end, 6m (or 3m)."""
    assert_illegal(sw_header(claimed, CHOW_END_H1),
                   ["0 knock", f"0 discard {claimed}", f"1 chow {run}", f"1 discard {other_end}"],
                   "procedure.swap_calling")


def test_discarding_another_tile_after_a_chow_is_legal():
    """procedure.swap_calling (legal side): after the 345m chow on 3m seat 1 discards 9m; seat 0 wins on seat 2's
    4s."""
    result = assert_legal(sw_header("3m", CHOW_END_H1, draws="4s"),
                          ["0 knock", "0 discard 3m", "1 chow 345m", "1 discard 9m", "2 draw 4s", "2 discard 4s",
                           "0 win"])
    assert only_winner(result)["tile"] == "4s"


@pytest.mark.parametrize("discard", ["6m", "2m"])
def test_a_chow_claimed_in_its_middle_has_no_other_end(discard):
    """procedure.swap_calling: seat 1 chows seat 0's 4m into 3m 5m (345m, claimed in the middle); discarding 6m
    or 2m at once is legal. Seat 0 then wins on seat 2's 4s."""
    hdr = sw_header("4m", "3m5m2m6m1z1z1z2z2z2z3z3z9m", draws="4s")
    result = assert_legal(hdr, ["0 knock", "0 discard 4m", "1 chow 345m", f"1 discard {discard}", "2 draw 4s",
                                "2 discard 4s", "0 win"])
    assert only_winner(result)["tile"] == "4s"


# --------------------------------------------------------------------------- 8. procedure.dealer, procedure.wall_end

def play_to_the_wall_end(ruleset, hands, dealer, options=None):
    """A log in which nobody claims or knocks: the dealer discards its last tile, then each seat draws and
    discards what it drew (exposing flowers and drawing their replacements) until the wall runs out."""
    hdr = header(ruleset, hands, dealer=dealer, options=options)
    table = new_table(hdr)
    events = []

    def play(text):
        problem = table.apply(parse_event(event(text)))
        assert problem is None, (text, problem)
        events.append(text)

    last = format_tiles(table.players[dealer].hand_tiles()[-1:])
    play(f"{dealer} discard {last}")
    while True:
        seat = (table.discard_seat + 1) % 4
        if table.live_tiles <= 0:
            play("draw_game")
            return hdr, events
        tile = table.next_wall_tile("wall")
        play(f"{seat} draw {format_tiles([tile])}")
        while table.is_flower(tile):
            play(f"{seat} flower {format_tiles([tile])}")
            if table.live_tiles <= 0:
                play("draw_game")
                return hdr, events
            tile = table.next_wall_tile("back")
            play(f"{seat} draw {format_tiles([tile])} back")
        play(f"{seat} discard {format_tiles([tile])}")


def test_winner_deals_next():
    """procedure.dealer: seat 2 deals and discards 7m; seat 3 (234s 567s 888s 33z 5p 9p) draws 9p, knocks and
    discards 5p, waiting on 3z/9p; seat 0 draws and discards 3z and seat 3 wins. The winner, seat 3, deals next."""
    hands = {2: "1z1z1z2z2z2z4z4z4z1s1s9s6s7m", 3: "234s567s888s3z3z5p9p", 0: "1z2z4z1s6s6s7s9s9s1p1p4p4p",
             1: "123m456m789m123p9s"}
    hdr = header(KNOCKING, hands, draws="9p3z", dealer=2)
    result = assert_legal(hdr, ["2 discard 7m", "3 draw 9p", "3 knock", "3 discard 5p", "0 draw 3z",
                                "0 discard 3z", "3 win"])
    assert only_winner(result)["seat"] == 3
    assert result["next"]["dealer"] == 3


def test_drawn_hand_keeps_the_dealer():
    """procedure.dealer: seat 1 deals; nobody knocks; the wall is played out (flowers and dragons exposed and
    replaced) and the hand is drawn: seat 1 deals again."""
    hands = {1: "1z1z1z2z2z2z3z3z3z4z4z4z1m9m", 2: "1p1p1p2p2p2p3p3p3p4p4p4p5p",
             3: "1s1s1s2s2s2s3s3s3s4s4s4s5s", 0: "2m2m2m3m3m3m4m4m4m5m5m5m6m"}
    hdr, events = play_to_the_wall_end(KNOCKING, hands, dealer=1)
    assert sum(" flower " in e for e in events) == 20  # the 8 flowers and the 12 dragons, all in the wall
    result = assert_legal(hdr, events)
    assert result["ended"] == "draw" and result["winners"] == []
    assert result["next"]["dealer"] == 1


def test_draw_game_before_the_wall_runs_out_is_illegal():
    """procedure.wall_end: the hand is drawn only when no tile is left to draw."""
    hdr = header(KNOCKING, KNOCK_HANDS, draws="1s")
    assert_illegal(hdr, ["0 discard 9s", "1 draw 1s", "1 discard 1s", "draw_game"], "procedure.wall_end")


# =========================================================================== classic Shanghai

# --------------------------------------------------------------------------- procedure.wall_end, procedure.dealer
# Nobody knocks or claims; each seat discards what it draws until the wall (less the dead wall) runs out.
DW_HANDS = {0: "1z1z1z2z2z2z3z3z3z4z4z4z1m9m", 1: "1p1p1p2p2p2p3p3p3p4p4p4p5p",
            2: "1s1s1s2s2s2s3s3s3s4s4s4s5s", 3: "2m2m2m3m3m3m4m4m4m5m5m5m6m"}


def test_classic_drawn_hand_with_a_dead_wall_keeps_the_dealer():
    """procedure.wall_end under dead_wall_tiles=14 (classic): the hand is drawn with 14 tiles left undrawn; the
    dealer deals again (procedure.dealer: 若流局则上盘庄家下盘继续当庄家) and the 荒番 count goes from 0 to 1."""
    hdr, events = play_to_the_wall_end(CLASSIC, DW_HANDS, dealer=0, options={"dead_wall_tiles": 14})
    table = table_after(hdr, events)
    assert table.tail - table.head == 14
    result = assert_legal(hdr, events)
    assert result["ended"] == "draw"
    assert result["next"] == {"dealer": 0, "counters": {"huangfan": 1}}


def test_classic_drawn_hand_declared_over_a_dead_wall_it_does_not_have_is_illegal():
    """procedure.wall_end under dead_wall_tiles=0 (default): the same log, drawn with 14 tiles left, stops too
    early: the last event, draw_game, is refused."""
    hdr, events = play_to_the_wall_end(CLASSIC, DW_HANDS, dealer=0, options={"dead_wall_tiles": 14})
    hdr["options"] = {"dead_wall_tiles": 0}
    assert_illegal(hdr, events, "procedure.wall_end")


# --------------------------------------------------------------------------- 9. procedure.lou_hu (漏胡)

# Seat 0: 111m 999p 111s 33z 44z 9s. It knocks (报听) and discards 9s: an all-pungs hand (碰碰胡) waiting on
# 3z or 4z.
LH_H0 = "111m999p111s3z3z4z4z9s"
LH_FILL_1 = "234m567m234p567p8m"
LH_FILL_2 = "234s567s234s567s8s"
LH_FILL_3 = "1z1z1z2z2z2z8p8p8s5z5z6z7z"
LH_HANDS = {0: LH_H0, 1: LH_FILL_1, 2: LH_FILL_2, 3: LH_FILL_3}
LH_OPEN = ["0 knock", "0 discard 9s", "1 draw 3z", "1 discard 3z"]  # seat 0 lets seat 1's 3z go (漏胡)


def test_lou_hu_blocks_the_same_tile_from_another_seat():
    """procedure.lou_hu: seat 0 passed seat 1's 3z; seat 2 draws and discards 3z; seat 0, which has not drawn,
    chowed, punged or konged since, wins on it."""
    hdr = header(CLASSIC, LH_HANDS, draws="3z3z")
    assert_illegal(hdr, LH_OPEN + ["2 draw 3z", "2 discard 3z", "0 win"], "procedure.lou_hu")


def test_lou_hu_is_lifted_by_ones_own_draw():
    """procedure.lou_hu (legal side): seats 2, 3 discard 9s, seat 0 draws 9m and discards it; seat 1 discards
    the last 3z and seat 0 wins: 111m 999p 111s 333z 44z.
    花: wind pung 333z 1; 碰碰胡 adds nothing; 门清 × 2 -> 2 (cap 20). Share 2 + 2 = 4, paid by seat 1:
    payments [+4, -4, 0, 0]."""
    hdr = header(CLASSIC, LH_HANDS, draws="3z9s9s9m3z")
    result = assert_legal(hdr, LH_OPEN + ["2 draw 9s", "2 discard 9s", "3 draw 9s", "3 discard 9s", "0 draw 9m",
                                          "0 discard 9m", "1 draw 3z", "1 discard 3z", "0 win"])
    w = only_winner(result)
    assert (w["seat"], w["tile"], w["discarder"]) == (0, "3z", 1)
    assert "knocked" in w["flags"]
    assert result["payments"] == [4, -4, 0, 0]


def test_lou_hu_blocks_one_tile_only():
    """procedure.lou_hu: the block is on 3z alone; seat 0 wins on seat 2's 4z, its other waiting tile."""
    hdr = header(CLASSIC, LH_HANDS, draws="3z4z")
    result = assert_legal(hdr, LH_OPEN + ["2 draw 4z", "2 discard 4z", "0 win"])
    assert only_winner(result)["tile"] == "4z"


def test_lou_hu_is_lifted_by_a_pung():
    """procedure.lou_hu (lifted by 碰): seat 0 passed seat 1's 3z; it pungs seat 2's 4z and discards 1m
    (11m 999p 111s 33z [444z]: waits on 1m/3z); seat 1 draws and discards the last 3z and seat 0 wins on it."""
    hdr = header(CLASSIC, LH_HANDS, draws="3z4z3z")
    result = assert_legal(hdr, LH_OPEN + ["2 draw 4z", "2 discard 4z", "0 pung", "0 discard 1m", "1 draw 3z",
                                          "1 discard 3z", "0 win"])
    assert (only_winner(result)["tile"], only_winner(result)["discarder"]) == ("3z", 1)


# Seat 1 holds 7z7z and a 3z: after discarding the 3z it drew (passed by seat 0), it pungs seat 2's 7z and
# discards its other 3z before seat 0 has moved.
LC_HANDS = {0: LH_H0, 1: "234m567m234p7z7z3z8m", 2: LH_FILL_2, 3: LH_FILL_3}
LC_LOG = LH_OPEN + ["2 draw 7z", "2 discard 7z", "1 pung", "1 discard 3z", "0 win"]


def test_lou_hu_later_copy_from_the_same_seat_is_blocked_by_default():
    """lou_hu_later_copy=any_seat (default): the block holds whoever discards the tile, seat 1 again included."""
    hdr = header(CLASSIC, LC_HANDS, draws="3z7z", options={"lou_hu_later_copy": "any_seat"})
    assert_illegal(hdr, LC_LOG, "procedure.lou_hu")


def test_lou_hu_later_copy_from_the_same_seat_may_be_won_on_under_other_seats():
    """lou_hu_later_copy=other_seats: the block covers the other players' copies only; seat 0 wins on seat 1's
    second 3z."""
    hdr = header(CLASSIC, LC_HANDS, draws="3z7z", options={"lou_hu_later_copy": "other_seats"})
    result = assert_legal(hdr, LC_LOG)
    assert (only_winner(result)["seat"], only_winner(result)["discarder"]) == (0, 1)


OD_LOG = LH_OPEN + ["2 draw 9s", "2 discard 9s", "3 draw 9s", "3 discard 9s", "0 draw 3z", "0 win"]


def test_lou_hu_own_draw_of_the_passed_tile_may_win_by_default():
    """lou_hu_own_draw_win=true (default): seat 0 draws the passed 3z itself and wins by self-draw.
    111m 999p 111s 333z 44z: 花 1, 门清 × 2 = 2; share 4 from each opponent: payments [+12, -4, -4, -4]."""
    hdr = header(CLASSIC, LH_HANDS, draws="3z9s9s3z", options={"lou_hu_own_draw_win": True})
    result = assert_legal(hdr, OD_LOG)
    assert only_winner(result)["win_by"] == "self_draw"
    assert result["payments"] == [12, -4, -4, -4]


def test_lou_hu_own_draw_of_the_passed_tile_may_not_win_when_refused():
    """lou_hu_own_draw_win=false: the draw that lifts the block is not won on."""
    hdr = header(CLASSIC, LH_HANDS, draws="3z9s9s3z", options={"lou_hu_own_draw_win": False})
    assert_illegal(hdr, OD_LOG, "option.lou_hu_own_draw_win")


def test_lou_hu_own_draw_refusal_covers_the_passed_tile_only():
    """lou_hu_own_draw_win=false: the refusal is of the passed tile (3z); seat 0 draws 4z, its other waiting tile,
    in the turn that lifts the block, and wins by self-draw."""
    hdr = header(CLASSIC, LH_HANDS, draws="3z9s9s4z", options={"lou_hu_own_draw_win": False})
    result = assert_legal(hdr, LH_OPEN + ["2 draw 9s", "2 discard 9s", "3 draw 9s", "3 discard 9s", "0 draw 4z",
                                          "0 win"])
    assert (only_winner(result)["tile"], only_winner(result)["win_by"]) == ("4z", "self_draw")


# --------------------------------------------------------------------------- 10. procedure.multiple_winners (classic, then Knocking)

# Seat 0: 123s 678s 999s 11s 46s 9m; knocks with 9m: 清一色 waiting on 5s.
# Seat 3: 111z 222z 777s 2345s; draws 3z, knocks, discards it: 混一色 waiting on 2s/5s.
# Seat 1 draws 5s and discards it: seats 3 and 0 both win.
MW_CLASSIC = {0: "123s678s999s11s46s9m", 1: "1m1m2m2m3m3m4m4m5m5m6m6m7m", 2: "1p1p2p2p3p3p4p4p5p5p6p6p7p",
              3: "111z222z777s2345s"}
MWC_OPEN = ["0 knock", "0 discard 9m", "1 draw 8p", "1 discard 8p", "2 draw 8p", "2 discard 8p", "3 draw 3z",
            "3 knock", "3 discard 3z", "0 draw 4z", "0 discard 4z", "1 draw 5s", "1 discard 5s"]


def test_two_winners_on_one_discard_both_paid_nearest_deals_next():
    """procedure.multiple_winners (all_paid): seats 3 and 0 win on seat 1's 5s, declared in turn order from the
    discarder (seat 3 is 2 seats after it, seat 0 is 3).
    Seat 3: 111z 222z 777s 234s 55s, 混一色: 花 2 (two wind pungs); 门清 × 2 -> 4; share 2 + 4 = 6.
    Seat 0: 123s 456s 678s 999s 11s, 清一色: directly 1 勒 = 10; 门清 × 2 -> 20, within its cap 20 (门清);
    share 2 + 20 = 22. Seat 1 pays both: payments [+22, -28, 0, +6].
    procedure.dealer: the winner nearest the discarder going downstream, seat 3, deals next."""
    hdr = header(CLASSIC, MW_CLASSIC, draws="8p8p3z4z5s")
    result = assert_legal(hdr, MWC_OPEN + ["3 win", "0 win"])
    assert [w["seat"] for w in result["winners"]] == [3, 0]
    assert [w["discarder"] for w in result["winners"]] == [1, 1]
    assert result["payments"] == [22, -28, 0, 6]
    assert result["next"]["dealer"] == 3


def test_two_winners_declared_out_of_turn_order_is_illegal():
    """procedure.multiple_winners: seat 0 (three seats after the discarder) declares first, then seat 3."""
    hdr = header(CLASSIC, MW_CLASSIC, draws="8p8p3z4z5s")
    assert_illegal(hdr, MWC_OPEN + ["0 win", "3 win"], "procedure.multiple_winners")


# Knocking: seat 0 (123m 456m 789m 123p 3z 9s) knocks with 9s, waiting on 3z; seat 1 (234s 567s 888s 33z 5p 9p)
# draws 9p, knocks with 5p, waiting on 3z/9p; seat 2 draws and discards 8m; seat 3 draws and discards 3z. Seat 0
# is the first seat after the discarder, seat 1 the second.
HB_HANDS = {0: "123m456m789m123p3z9s", 1: "234s567s888s3z3z5p9p", 2: "1z1z1z2z2z2z4z4z4z1s1s6s5p",
            3: "1z2z4z1s6s6s7s9s9s1p1p4p4p"}
HB_LOG = ["0 knock", "0 discard 9s", "1 draw 9p", "1 knock", "1 discard 5p", "2 draw 8m", "2 discard 8m",
          "3 draw 3z", "3 discard 3z"]


def test_one_discard_has_one_winner_under_knocking():
    """procedure.multiple_winners (Knocking: nearest_seat_after_discarder, legal side): seat 0, nearest after the
    discarder, wins on seat 3's 3z: 123m 456m 789m 123p 33z: fig 10, 门清 -> 20, paid by seat 3."""
    result = assert_legal(header(KNOCKING, HB_HANDS, draws="9p8m3z"), HB_LOG + ["0 win"])
    assert [w["seat"] for w in result["winners"]] == [0]
    assert result["payments"] == [20, 0, 0, -20]


def test_a_second_winner_on_one_discard_is_illegal_under_knocking():
    """procedure.multiple_winners: after seat 0's win, seat 1 claims the same 3z too. The log is readable; the
    rules forbid the event: illegal, not bad input."""
    hdr = header(KNOCKING, HB_HANDS, draws="9p8m3z")
    assert_illegal(hdr, HB_LOG + ["0 win", "1 win"], "procedure.multiple_winners")


def test_farther_seat_winning_over_a_nearer_knocked_seat_is_illegal_when_missed_wins_are_not_allowed():
    """option.knock_missed_win=not_allowed: seat 1 declares the win on seat 3's 3z; seat 0, nearer the
    discarder and able to win on it, may not let its win go, and one discard has one winner: seat 1's win is the
    event that takes seat 0's win away."""
    hdr = header(KNOCKING, HB_HANDS, draws="9p8m3z", options={"knock_missed_win": "not_allowed"})
    assert_illegal(hdr, HB_LOG + ["1 win"], "option.knock_missed_win")


# --------------------------------------------------------------------------- 11. 承包 (settlement.contract)

# Seat 1: 11m 22p 33s 444z 5z 6z 7z 9m. It pungs seat 0's 1m (discarding 9m), 2p (discarding 7z) and 3s, knocks
# and discards 6z: 444z 5z [111m 222p 333s], waiting on 5z; it draws 5z and wins by self-draw.
CT_H1 = "1m1m2p2p3s3s4z4z4z5z6z7z9m"
CT_FILL_2 = "234m567m567p567s8m"
CT_FILL_3 = "234m567m345p678s9s"
CT_END = ["1 knock", "1 discard 6z", "2 draw 9s", "2 discard 9s", "3 draw 7p", "3 discard 7p", "0 draw 7p",
          "0 discard 7p", "1 draw 5z"]


def _three_calls_on_seat_0():
    """Seat 1 pungs three of seat 0's discards (1m, 2p, 3s), knocks, and draws 5z: the header and events."""
    hands = {0: "1m2p3s1z1z2z2z3z3z8p8p8s8s9p", 1: CT_H1, 2: CT_FILL_2, 3: CT_FILL_3}
    hdr = header(CLASSIC, hands, draws="1p1p4p4p6p6p9s7p7p5z")
    events = ["0 discard 1m", "1 pung", "1 discard 9m",
              "2 draw 1p", "2 discard 1p", "3 draw 1p", "3 discard 1p", "0 draw 4p", "0 discard 2p", "1 pung",
              "1 discard 7z",
              "2 draw 4p", "2 discard 4p", "3 draw 6p", "3 discard 6p", "0 draw 6p", "0 discard 3s", "1 pung"] + CT_END
    return hdr, events


def test_three_calls_on_one_seat_make_a_contract_paid_by_that_seat():
    """settlement.contract (承包): seat 1 claimed seat 0's discards three times: contract_with = seat 0 relative
    to seat 1 = 3 (previous player).
    Seat 1's hand 444z 55z [111m 222p 333s], 碰碰胡: 花 = wind pung 444z 1; 碰碰胡 adds nothing; no 门清 -> 1;
    cap 10. Share 2 + 1 = 3. Self-draw under the contract: seat 0 pays 5 shares = 15, seats 2 and 3 nothing:
    payments [-15, +15, 0, 0]."""
    hdr, events = _three_calls_on_seat_0()
    table = table_after(hdr, events)
    assert table.calls[1][0] == 3
    assert table.hand_input(1, parse_tile("5z"), "self_draw", None)["counters"]["contract_with"] == 3
    result = assert_legal(hdr, events + ["1 win"])
    w = only_winner(result)
    assert (w["seat"], w["win_by"], w["total"]) == (1, "self_draw", 1)
    assert result["payments"] == [-15, 15, 0, 0]


def test_the_flags_and_counters_the_table_sets_are_the_ones_the_spec_names():
    """table_context: the table sees the facts (seat 1 knocked; seat 0 is its contract partner), the spec names
    the flag or counter carrying each. Classic names knocked -> knocked and contract_partner -> contract_with; a
    spec naming no flag for a fact gets none, and one naming another flag gets that one."""
    import dataclasses

    hdr, events = _three_calls_on_seat_0()
    table = table_after(hdr, events)
    seen = table.hand_input(1, parse_tile("5z"), "self_draw", None)
    assert "knocked" in seen["flags"] and seen["counters"]["contract_with"] == 3
    table.rules = dataclasses.replace(table.rules, context={"knocked": "kaibao"})
    seen = table.hand_input(1, parse_tile("5z"), "self_draw", None)
    assert seen["flags"] == ["kaibao"] and "contract_with" not in seen["counters"]


def test_calls_spread_over_two_seats_make_no_contract():
    """settlement.contract (control): the third pung is of seat 2's 3s: two calls on seat 0, one on seat 2, no
    contract. The same hand self-drawn: each opponent pays one share of 3: payments [-3, +9, -3, -3]."""
    hands = {0: "1m2p9p1z1z2z2z3z3z8p8p8s8s9p", 1: CT_H1, 2: CT_FILL_2, 3: CT_FILL_3}
    hdr = header(CLASSIC, hands, draws="1p1p4p3s9s7p7p5z")
    events = ["0 discard 1m", "1 pung", "1 discard 9m",
              "2 draw 1p", "2 discard 1p", "3 draw 1p", "3 discard 1p", "0 draw 4p", "0 discard 2p", "1 pung",
              "1 discard 7z",
              "2 draw 3s", "2 discard 3s", "1 pung"] + CT_END
    table = table_after(hdr, events)
    assert "contract_with" not in table.hand_input(1, parse_tile("5z"), "self_draw", None)["counters"]
    result = assert_legal(hdr, events + ["1 win"])
    assert result["payments"] == [-3, 9, -3, -3]


# --------------------------------------------------------------------------- a concealed kong after knocking

# procedure.knock_locks_hand: a knocked player may make a concealed kong only when it leaves what the hand waits
# on as it was (no reshaping). The other seats draw 4z and discard it.
#   (a) seat 0 (dealer): 1m1m1m 4p5p6p 7s8s9s 2s3s4s 9p 8m; it knocks and discards 8m, waiting on 9p alone. It
#       draws the fourth 1m: a concealed kong of 1m leaves 4p5p6p 7s8s9s 2s3s4s 9p, still waiting on 9p: legal;
#       its replacement (1z) is then discarded (the lock: the tile it drew).
#   (b) seat 0: 2s2s2s2s3s4s 4p5p6p 7s8s9s 9p 8m; it knocks and discards 8m, waiting on 9p (2s2s2s 2s3s4s 4p5p6p
#       7s8s9s, single 9p). It draws 1z; a concealed kong of 2s would leave 3s4s 4p5p6p 7s8s9s 9p, which waits on
#       nothing: the hand is reshaped, illegal.
LOCK_KONG_A = {0: "1m1m1m4p5p6p7s8s9s2s3s4s9p8m", 1: "1s1s1s2m2m2m3m3m3m4m4m4m1z",
               2: "5s5s5s6s6s6s7m7m7m8p8p8p2z", 3: "6m6m6m9m9m9m1p1p1p2p2p2p3z"}
LOCK_KONG_B = {0: "2s2s2s2s3s4s4p5p6p7s8s9s9p8m", 1: "1s1s1s2m2m2m3m3m3m4m4m4m1z",
               2: "5s5s5s6s6s6s7m7m7m8p8p8p2z", 3: "6m6m6m9m9m9m1p1p1p2p2p2p3z"}
LOCK_KONG_START = ["0 knock", "0 discard 8m", "1 draw 4z", "1 discard 4z", "2 draw 4z", "2 discard 4z",
                   "3 draw 4z", "3 discard 4z"]


def test_concealed_kong_after_knocking_that_keeps_the_wait_is_legal():
    hdr = header(KNOCKING, LOCK_KONG_A, draws="4z4z4z1m", back="1z")
    r = replay(hdr, LOCK_KONG_START + ["0 draw 1m", "0 concealed_kong 1m", "0 draw 1z back", "0 discard 1z"])
    assert r.verdict == "unfinished", (r.verdict, r.rule, r.message)  # every event legal; the hand goes on


def test_concealed_kong_after_knocking_that_reshapes_the_hand_is_illegal():
    # the fourth 2s was dealt; the draw is a 1z; a concealed kong of 2s now changes the wait (see above)
    hdr = header(KNOCKING, LOCK_KONG_B, draws="4z4z4z1z")
    assert_illegal(hdr, LOCK_KONG_START + ["0 draw 1z", "0 concealed_kong 2s"], "procedure.knock_locks_hand")


# --------------------------------------------------------------------------- what a knock waits on (knock_wait)

# Seat 0: 111m 222m 333m 55p 7p 99s. Discarding 7p leaves 111m 222m 333m 55p 99s, waiting on 5p or 9s: all pungs
# (碰碰胡), a hand classic lets win (win_hands=special_only). Discarding 5p leaves 111m 222m 333m 5p 7p 99s, waiting
# on 6p alone (the chow 567p): a four-sets-and-a-pair hand of two suits with a chow, which does not win there.
KW_H0 = "111m222m333m5p5p7p9s9s"
KW_HANDS = {0: KW_H0, 1: LH_FILL_1, 2: LH_FILL_2, 3: LH_FILL_3}


def test_a_knock_s_discard_may_leave_a_wait_the_hand_cannot_win_on_by_default():
    """option.knock_wait=any_shape (the default): the knock declares the hand ready in shape; discarding 5p leaves
    the wait on 6p, which completes four sets and a pair: the knock stands (the hand plays on)."""
    for options in ({}, {"knock_wait": "any_shape"}):
        r = replay(header(CLASSIC, KW_HANDS, options=options), ["0 knock", "0 discard 5p"])
        assert r.verdict == "unfinished", (r.verdict, r.rule, r.message)


def test_a_knock_s_discard_must_leave_a_wait_it_would_win_on_under_winning_hand():
    """option.knock_wait=winning_hand: after the knock, discarding 5p leaves only the wait on 6p, which gives a
    hand with a chow in two suits, no 碰碰胡-and-above hand: refused, citing the option; discarding 7p leaves the
    all-pungs wait on 5p or 9s: the knock stands."""
    hdr = header(CLASSIC, KW_HANDS, options={"knock_wait": "winning_hand"})
    assert_illegal(hdr, ["0 knock", "0 discard 5p"], "option.knock_wait")
    r = replay(hdr, ["0 knock", "0 discard 7p"])
    assert r.verdict == "unfinished", (r.verdict, r.rule, r.message)


def test_a_knock_with_no_discard_leaving_a_wait_it_would_win_on_is_refused_under_winning_hand():
    """option.knock_wait=winning_hand: seat 0 holds 123m 456m 789m 123p 5p 9s; discarding 9s waits on 5p and
    discarding 5p waits on 9s, each a hand of chows in two suits that classic does not let win: the knock itself
    is refused, citing the option. By default it stands, and so does its discard of 9s."""
    hands = {0: KNOCK_H0, 1: LH_FILL_1, 2: LH_FILL_2, 3: LH_FILL_3}
    assert_illegal(header(CLASSIC, hands, options={"knock_wait": "winning_hand"}), ["0 knock"], "option.knock_wait")
    r = replay(header(CLASSIC, hands), ["0 knock", "0 discard 9s"])
    assert r.verdict == "unfinished", (r.verdict, r.rule, r.message)


def test_a_knock_no_discard_leaves_ready_is_refused_at_its_discard_where_the_table_checks_there(tmp_path):
    """procedure.knock, checked_at: the shipped classic refuses the knock of 123m 456m 789m 123p 5p 9s under
    knock_wait=winning_hand at once (event 0, above); a table that checks at the knock's discard (checked_at:
    discard) lets the knock stand and refuses its discard of 9s (event 1), citing the same option; by default
    (any_shape) the discard leaves the wait on 5p and stands."""
    data = yaml.safe_load((ROOT / "spec" / "shanghai-classic.yaml").read_text(encoding="utf-8"))
    data["procedure"]["knock"]["checked_at"] = "discard"
    path = tmp_path / "classic-checked-at-discard.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    runner = CaseRunner({CLASSIC: load_ruleset_file(path)})
    hands = {0: KNOCK_H0, 1: LH_FILL_1, 2: LH_FILL_2, 3: LH_FILL_3}
    events = [event(e) for e in ["0 knock", "0 discard 9s"]]
    r = replay_events(header(CLASSIC, hands, options={"knock_wait": "winning_hand"}), events, runner)
    assert (r.verdict, r.rule, r.line) == ("illegal", "option.knock_wait", 3), (r.verdict, r.line, r.message)
    r = replay_events(header(CLASSIC, hands), events, runner)
    assert r.verdict == "unfinished", (r.verdict, r.rule, r.message)


# --------------------------------------------------------------------------- 换牌 (classic tile swap)

# procedure.tile_swap: right after the deal a seat buries five tiles of its hand (they leave play) and takes the
# wall's next five from its front. Seat 1 is dealt 1s..9s 1z 2z 3z 4z and buries 1z2z3z4z9s; the wall's next five
# tiles (the first "draws") are 5m5m6m6m7m.
SWAP_HANDS = {0: "1m2m3m4m5m6m7m8m9m1p2p3p4p5p", 1: "1s2s3s4s5s6s7s8s9s1z2z3z4z"}


def test_tile_swap_right_after_the_deal_trades_five_tiles_with_the_wall():
    hdr = header(CLASSIC, SWAP_HANDS, draws="5m5m6m6m7m")
    table = new_table(hdr)
    assert table.apply(parse_event(event("1 swap 1z2z3z4z9s"))) is None
    counts = table.players[1].counts
    held = sorted(t for t in range(42) for _ in range(counts[t]))
    assert held == sorted(parse_tile(t) for t in "1s 2s 3s 4s 5s 6s 7s 8s 5m 5m 6m 6m 7m".split())
    assert sorted(table.buried) == sorted(parse_tile(t) for t in "1z 2z 3z 4z 9s".split())
    assert table.apply(parse_event(event("0 discard 9m"))) is None  # the dealer plays on


def test_tile_swap_twice_is_illegal():
    hdr = header(CLASSIC, SWAP_HANDS, draws="5m5m6m6m7m")
    assert_illegal(hdr, ["1 swap 1z2z3z4z9s", "1 swap 1s2s3s4s5s"], "procedure.tile_swap")


def test_tile_swap_of_four_tiles_or_tiles_not_held_is_illegal():
    hdr = header(CLASSIC, SWAP_HANDS)
    assert_illegal(hdr, ["1 swap 1z2z3z4z"], "procedure.tile_swap")
    assert_illegal(hdr, ["1 swap 1z2z3z4z5z"], "procedure.tile_swap")


def test_tile_swap_after_play_began_is_illegal():
    hdr = header(CLASSIC, SWAP_HANDS)
    assert_illegal(hdr, ["0 discard 9m", "1 swap 1z2z3z4z9s"], "procedure.tile_swap")


def test_tile_swap_is_not_part_of_knocking():
    r = replay(header(KNOCKING, {}), ["1 swap 1s2s3s4s5s"])
    assert (r.verdict, r.rule) == ("bad input", "input.event")


# --------------------------------------------------------------------------- 八花齐 at the deal (eight_flowers_at_deal)

# Seat 1 is dealt all eight flowers and 1m-5m; it exposes them one by one during the deal, drawing 6m 7m 8m 9m
# 1p 1p 2p 4p from the back. The dealer (seat 0) holds no flower and 9s among its tiles.
AT_DEAL = {0: "9s1s2s3s4s6s7s8s1p2p3p5p6p7p", 1: "1f2f3f4f5f6f7f8f1m2m3m4m5m"}
AT_DEAL_BACK = "6m7m8m9m1p1p2p4p"
AT_DEAL_FLOWERS = tuple(e for f, t in zip("12345678", ("6m", "7m", "8m", "9m", "1p", "1p", "2p", "4p"))
                        for e in (f"1 flower {f}f", f"1 draw back {t}"))


def test_eight_flowers_completed_at_the_deal_win_at_once_paid_as_self_drawn():
    # 001: 抓满春夏秋冬梅兰竹菊8朵花即可马上胡牌 (eight_flowers_at_deal=at_once, the default). Seat 1 declares right
    # after its eighth flower's replacement, out of turn, holding 13 tiles. 花: 8 flowers; 八花齐 settles directly
    # at 2 勒 = 20 (如果这8个花抓起即可胡牌，此时胡牌直接算两个勒子). One share = 底分 2 + 20 = 22, and as a
    # self-drawn win each opponent pays one: seat 1 +66, the others -22 each (absolute seats).
    result = assert_legal(header(CLASSIC, AT_DEAL, back=AT_DEAL_BACK), [*AT_DEAL_FLOWERS, "1 win"])
    (winner,) = result["winners"]
    assert (winner["seat"], winner["win_by"], winner["total"]) == (1, "self_draw", 20)
    assert "eight_flowers_win" in winner["flags"] and "flower_replacement" not in winner["flags"]
    assert result["payments"] == [-22, 66, -22, -22]


def test_eight_flowers_at_the_deal_wait_for_the_own_turn_under_own_turn():
    # eight_flowers_at_deal=own_turn: the same declaration is refused (procedure.flower_exposure); after the
    # dealer's 9s, seat 1's own draw lets it win self-drawn, the same 22 from each opponent.
    hdr = header(CLASSIC, AT_DEAL, back=AT_DEAL_BACK, options={"eight_flowers_at_deal": "own_turn"})
    assert_illegal(hdr, [*AT_DEAL_FLOWERS, "1 win"], "procedure.flower_exposure")
    result = assert_legal(hdr, [*AT_DEAL_FLOWERS, "0 discard 9s", "1 draw", "1 win"])
    assert result["payments"] == [-22, 66, -22, -22]


def test_the_moment_to_declare_at_once_passes_with_the_next_event():
    # at_once: seat 1 lets the moment go (the dealer discards); its declaration out of turn later, during seat 2's
    # turn, is refused (procedure.flower_exposure). (The dealer's 9s itself it could still win on, as a discard.)
    hdr = header(CLASSIC, AT_DEAL, back=AT_DEAL_BACK)
    assert_illegal(hdr, [*AT_DEAL_FLOWERS, "0 discard 9s", "1 draw", "1 discard 9m", "2 draw", "1 win"],
                   "procedure.flower_exposure")



BEFORE = {"eight_flowers_at_deal": "before_replacement"}


def test_eight_flowers_declared_before_the_last_replacement_under_before_replacement():
    # eight_flowers_at_deal=before_replacement (马上 read as the moment of the eighth flower): seat 1 declares right
    # after exposing 8f, its replacement 4p not drawn, holding 12 tiles (1m-9m 1p 1p 2p; the engine takes 12 for
    # this declaration alone, tiles.hand_size). The same price as at_once: 八花齐 directly 2 勒 = 20, one share
    # 底分 2 + 20 = 22 from each opponent: seat 1 +66, the others -22 each.
    hdr = header(CLASSIC, AT_DEAL, back=AT_DEAL_BACK, options=BEFORE)
    result = assert_legal(hdr, [*AT_DEAL_FLOWERS[:-1], "1 win"])
    (winner,) = result["winners"]
    assert (winner["seat"], winner["win_by"], winner["total"]) == (1, "self_draw", 20)
    assert "eight_flowers_win" in winner["flags"] and "flower_replacement" not in winner["flags"]
    assert result["payments"] == [-22, 66, -22, -22]
    # the rules' default (at_once) and own_turn refuse that win: the replacement is owed first, no other move is
    # open (procedure.turn)
    for options in ({}, {"eight_flowers_at_deal": "own_turn"}):
        assert_illegal(header(CLASSIC, AT_DEAL, back=AT_DEAL_BACK, options=options),
                       [*AT_DEAL_FLOWERS[:-1], "1 win"], "procedure.turn")


def test_drawing_the_last_replacement_lets_the_declaration_pass_under_before_replacement():
    # before_replacement: seat 1 draws 4p instead of declaring; the declaration at_once would take right then is
    # refused (procedure.flower_exposure), and so is one at its own turn: after the dealer's 9s and seat 1's draw
    # the hand (1m-9m 1p 1p 2p 4p and the drawn tile) is no winning hand without 八花齐's flag (win.shape: classic
    # wins only its special shapes, 上海麻将只能胡特殊胡牌方式; under own_turn the same win is 八花齐, above).
    hdr = header(CLASSIC, AT_DEAL, back=AT_DEAL_BACK, options=BEFORE)
    assert_illegal(hdr, [*AT_DEAL_FLOWERS, "1 win"], "procedure.flower_exposure")
    r = replay(hdr, [*AT_DEAL_FLOWERS, "0 discard 9s", "1 draw", "1 win"])
    assert (r.verdict, r.rule, r.line) == ("illegal", "win.shape", 20), (r.verdict, r.rule, r.line, r.message)


# --------------------------------------------------------------------------- 三番叫胡却可不包 (the spec's hands of play)

def test_three_fan_call_is_read_from_the_discarders_own_hand():
    # spec/shanghai-classic.yaml procedure_examples, played as the procedure corpus plays them (one hand of play
    # under two readings). Seat 0 deals 1m 2m2m 3m 4m 5m 6m 7m8m9m 1z 2z 3z 9p; it discards 1z, pungs seat 1's 2m
    # (discards 2z), chows seat 3's 2m as 1m2m3m (discards 3z), chows seat 3's 5m as 4m5m6m, knocks and discards
    # 9p: [222m from 1] [123m from 3] [456m from 3] 7m8m9m 5m, waiting on 5m, which seat 2 draws and discards.
    # No seat claimed from three times (seat 3 twice): no 承包. The winner: 清一色 with three sets laid down, 花 0,
    # direct 1 勒 = 10 (qingyise one_le), no 番 (claimed sets: no 门清), value 10, one share 底分 2 + 10 = 12.
    # Seat 2 holds 1p1p1p 3p3p3p 7s7s7s 9s9s 4z4z, concealed, ready on 9s or 4z; its best winning hand counts
    # 门清 2 番 (menqing_doubles 2) and, under unpriced_fan_value 1, 碰碰胡 1 番 more (no 混一色: two suits).
    # - two 番 < 3: no 三番叫胡, so 包 (full_flush_liability): seat 2 pays three shares, 36;
    # - three 番: 三番叫胡却可不包, seat 2 pays as for any discard, one share, 12.
    rs = load_ruleset(CLASSIC)
    examples = {e.id: e for e in rs.procedure_examples}
    expected = {"three-fan-call-two-fan": ([36, 0, -36, 0], False), "three-fan-call-three-fan": ([12, 0, -12, 0], True)}
    assert set(examples) == set(expected)
    for eid, (payments, called) in expected.items():
        e = examples[eid]
        hdr = header(CLASSIC, dict(enumerate(e.hands)), draws=e.draws, back=e.back, options=dict(e.options))
        result = assert_legal(hdr, list(e.events))
        winner = only_winner(result)
        assert (winner["seat"], winner["win_by"], winner["discarder"], winner["total"]) == (0, "discard", 2, 10)
        assert [f["id"] for f in winner["fans"]] == ["qing_yi_se"]
        assert ("discarder_called_three_fan" in winner["flags"]) is called
        assert result["payments"] == payments
        assert e.worked_in.endswith("::test_three_fan_call_is_read_from_the_discarders_own_hand")
