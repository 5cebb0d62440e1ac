"""What the next hand starts from, in a procedure case's result (checker.table.log.procedure_result):
`next_dealer` (absolute seat), `next_round_wind` (where the ruleset says when the round wind advances: MCR) and
`next_huangfan` (where the ruleset keeps a 荒番 count: shanghai-classic).

Every expected value below is worked out by hand from the spec's rules and the source documents
(/work/shared/seeds/), never read from the tool:

- MCR, spec/mcr.yaml `procedure.dealer_rotation: {rotates_each_hand: true, draws_count: true,
  round_wind_every: 4}`; statements s-002-062 "In friend rooms", s-002-063 "the dealer rotates each hand and the
  round wind advances every four hands", s-002-064 "draws count too" (002_3a615137eafec6e0.txt line 157). Hands are counted from 0
  (the header's `hand`), so hand n is played in round wind "ESWN"[n // 4] and the next hand is n + 1, drawn
  hands included.
- shanghai-knocking, spec/shanghai-knocking.yaml `procedure.dealer: {winner_deals: true, on_draw: dealer_stays}`;
  s-000-025 "The winner deals the next hand, whoever they were; on a draw, East stays dealer."
  (000_10956719290e0934.txt line 25). The document says nothing of the round wind: no `next_round_wind`.
- shanghai-classic, spec/shanghai-classic.yaml `procedure.dealer: {winner_deals: true, on_draw: dealer_stays}`;
  s-001-021 谁胡牌下盘当庄家，若流局则上盘庄家下盘继续当庄家 (001_83aec190f966708c.txt line 53);
  `procedure.huangfan_count: {on_draw: 1, on_win: -1}`, counter huangfan 0-99; s-001-063a 一局结束时为和局，则下局为
  荒番局, s-001-064a 若下局不胡继续追加荒番, s-001-065 每有人胡1次则荒番减1, s-001-065a 同时第5局为荒番（2）
  (line 125: 第4局 at 荒番(3) won, 第5局 is 荒番(2)). The count never goes below the counter's minimum 0 (a hand
  without 荒番 has none to lose). No round wind rule either: no `next_round_wind`.
"""
from __future__ import annotations

from checker import tiles as T
from checker.case import matches
from checker.corpus.procedure_strength import judge, procedure_catalog, unobservable
from checker.engine import load_ruleset
from checker.table.log import new_table, procedure_result
from checker.table.events import parse_event
from checker.table.wall import arrange_wall


def case(ruleset, hands, events, draws="", dealer=0, **fields):
    """A procedure case: a wall dealing `hands` (absolute seat -> tiles; the dealer 14), then `draws` in order."""
    wall = T.format_tiles(arrange_wall(hands, draws, "", dealer=dealer))
    return {"id": "t", "ruleset": ruleset, "kind": "procedure", "options": {},
            "input": {"wall": wall, "dealer": dealer, **fields, "events": events}}


def discard(seat, tile):
    return {"event": "discard", "seat": seat, "tile": tile}


def draw(seat, tile):
    return {"event": "draw", "seat": seat, "tile": tile}


def win(seat, tile):
    return {"event": "win", "seat": seat, "tile": tile}


def knock(seat):
    return {"event": "knock", "seat": seat}


def played_out(c, first_discard):
    """`c` with events played to the wall's end: the dealer discards `first_discard`, then each seat in turn draws
    and discards what it drew (a flower exposed and replaced first); nobody claims; then draw_game."""
    data = c["input"]
    header = {"game": "mjcheck-table", "version": 1, "ruleset": c["ruleset"], "wall": data["wall"],
              "dealer": data["dealer"]}
    table = new_table(header)
    events = []

    def play(ev):
        assert table.apply(parse_event(ev)) is None, ev
        events.append(ev)

    play(discard(data["dealer"], first_discard))
    seat = data["dealer"]
    while table.live_tiles > 0:
        seat = (seat + 1) % 4
        tile = table.wall[table.head]
        play(draw(seat, T.tile_name(tile)))
        while table.is_flower(tile):
            play({"event": "flower", "seat": seat, "tile": T.tile_name(tile)})
            tile = table.wall[table.tail - 1]
            play({"event": "draw", "seat": seat, "tile": T.tile_name(tile), "from": "back"})
        play(discard(seat, T.tile_name(tile)))
    play({"event": "draw_game"})
    return {**c, "input": {**data, "events": events}}


def result(c):
    got = procedure_result(c)
    assert got["verdict"] == "legal", got
    return got


# Hands (tests/test_table_procedure.py DOUBLE_WAIT_MCR with seats 1 and 2 swapped): seat 2 holds
# 1m-9m 2p3p4p 5s and wins on the dealer's 5s (一条龙 / pure straight, 16 points, above MCR's 8-point minimum).
MCR_SEAT2_WINS = {0: "5s6s1z1z1z2z2z2z3z3z3z4z4z4z", 1: "7p7p7p8p8p8p9p9p9p6z6z6z7z",
                  2: "1m2m3m4m5m6m7m8m9m2p3p4p5s", 3: "1s2s3s4s5s6s7s8s9s5z5z5z5s"}
# The dealer holds that pure straight with a 7z to throw; seat 1 draws the fourth 5s and lets it go.
MCR_DEALER_WINS = {0: "1m2m3m4m5m6m7m8m9m2p3p4p5s7z", 1: "1s2s3s4s6s7s8s9s1z2z3z4z5z",
                   2: "7p7p7p8p8p8p9p9p9p6z6z6z1z", 3: "1s2s3s4s5s6s7s8s9s5z5z5z5s"}
# Shanghai (tests/test_table_procedure.py SEAT2_WINS): seat 2 knocks and wins on seat 3's 9s.
SH_SEAT2_WINS = {0: "1p1m1m1m2s2s2s3s3s3s4s4s5s6s", 1: "6p6p6p7p7p7p8m8m8m3z3z3z4z",
                 2: "1z1z1z2m2m2m5m5m5m8p8p9s9s", 3: "2z2z2z3m3m3m6m6m6m7s7s7s9s"}
SH_SEAT2_PLAY = [discard(0, "1p"), draw(1, "2p"), discard(1, "2p"), draw(2, "3p"), knock(2), discard(2, "3p"),
                 draw(3, "4s"), discard(3, "9s"), win(2, "9s")]
# The same winning hand dealt to the dealer with a 1p to throw: the dealer knocks, discards 1p, and wins on
# seat 3's 9s after seats 1 and 2 let their draws go.
SH_DEALER_WINS = {0: "1z1z1z2m2m2m5m5m5m8p8p9s9s1p", 1: "1m1m1m2s2s2s3s3s3s4s4s5s6s",
                  2: "6p6p6p7p7p7p8m8m8m3z3z3z4z", 3: "2z2z2z3m3m3m6m6m6m7s7s7s9s"}
SH_DEALER_PLAY = [knock(0), discard(0, "1p"), draw(1, "2p"), discard(1, "2p"), draw(2, "3p"), discard(2, "3p"),
                  draw(3, "4s"), discard(3, "9s"), win(0, "9s")]
# Nobody can win: each seat discards what it draws until the wall is spent (tests/test_table_procedure.py QUIET).
QUIET = {0: "1m2m3m4m5m6m7m8m9m1p2p3p4p5p", 1: "1s2s3s4s5s6s7s8s9s1z2z3z4z",
         2: "1m2m3m4m5m6m7m8m9m6p7p8p9p", 3: "1s2s3s4s5s6s7s8s9s1z2z3z4z"}


def quiet(dealer):
    return {(dealer + k) % 4: QUIET[k] for k in range(4)}


# ------------------------------------------------------------------------------------------- a non-dealer wins

def test_mcr_non_dealer_win_passes_the_deal_and_the_fourth_hand_turns_the_round_wind():
    # Hand 3 (the last of round E), dealer 0, seat 2 wins: the deal passes to seat 1 whoever won (s-002-063);
    # the next hand is 4, the first of round S (s-002-063: 4 // 4 = 1).
    got = result(case("mcr", MCR_SEAT2_WINS, [discard(0, "5s"), win(2, "5s")], hand=3))
    assert [w["seat"] for w in got["winners"]] == [2]
    assert (got["next_dealer"], got["next_round_wind"]) == (1, "S")
    assert "next_huangfan" not in got  # MCR keeps no 荒番 count


def test_mcr_non_dealer_win_inside_a_round_keeps_the_round_wind():
    # Hand 0, dealer 0: next hand 1, still round E (1 // 4 = 0); the deal passes to seat 1.
    got = result(case("mcr", MCR_SEAT2_WINS, [discard(0, "5s"), win(2, "5s")]))
    assert (got["next_dealer"], got["next_round_wind"]) == (1, "E")


def test_mcr_next_round_wind_advances_from_the_headers_own_round_wind():
    # The header says round W at hand 3 (a game that did not start in the East, or a hand number counted
    # otherwise): hand 4 passes a multiple of four, so the wind advances one from W to N (s-002-063), not to the S
    # that hand 4 alone would give.
    got = result(case("mcr", MCR_SEAT2_WINS, [discard(0, "5s"), win(2, "5s")], hand=3, round_wind="W"))
    assert (got["next_dealer"], got["next_round_wind"]) == (1, "N")
    # inside a round the header's wind stays: hand 1 of a game said to be in round N
    got = result(case("mcr", MCR_SEAT2_WINS, [discard(0, "5s"), win(2, "5s")], hand=1, round_wind="N"))
    assert got["next_round_wind"] == "N"


def test_knocking_non_dealer_win_the_winner_deals():
    # s-000-025: seat 2 won, seat 2 deals; no round wind rule, no 荒番.
    got = result(case("shanghai-knocking", SH_SEAT2_WINS, SH_SEAT2_PLAY, draws="2p3p4s"))
    assert got["next_dealer"] == 2
    assert "next_round_wind" not in got and "next_huangfan" not in got


def test_classic_non_dealer_win_the_winner_deals_and_huangfan_falls_by_one():
    # s-001-021: seat 2 won, seat 2 deals. s-001-065: 荒番(2), someone wins: the next hand is 荒番(1).
    got = result(case("shanghai-classic", SH_SEAT2_WINS, SH_SEAT2_PLAY, draws="2p3p4s", counters={"huangfan": 2}))
    assert (got["next_dealer"], got["next_huangfan"]) == (2, 1)
    assert "next_round_wind" not in got


# ------------------------------------------------------------------------------------------------ a drawn hand

def test_mcr_drawn_hand_passes_the_deal_and_counts_toward_the_round_wind():
    # s-002-064 "draws count too": dealer 3 at hand 7 (the last of round S), drawn: seat 0 deals hand 8, the
    # first of round W (8 // 4 = 2).
    got = result(played_out(case("mcr", quiet(3), [], dealer=3, hand=7), "5p"))
    assert got["ended"] == "draw"
    assert (got["next_dealer"], got["next_round_wind"]) == (0, "W")


def test_knocking_drawn_hand_keeps_the_dealer():
    # s-000-025 "on a draw, East stays dealer": dealer 1 deals again.
    got = result(played_out(case("shanghai-knocking", quiet(1), [], dealer=1), "5p"))
    assert got["ended"] == "draw" and got["next_dealer"] == 1
    assert "next_round_wind" not in got and "next_huangfan" not in got


def test_classic_drawn_hand_keeps_the_dealer_and_starts_a_huangfan():
    # s-001-021 若流局则上盘庄家下盘继续当庄家: dealer 1 deals again; s-001-063a 一局结束时为和局，则下局为荒番局:
    # no 荒番 before, 荒番(1) next (第1局和局，那么第2局为荒番（1）).
    got = result(played_out(case("shanghai-classic", quiet(1), [], dealer=1), "5p"))
    assert got["ended"] == "draw"
    assert (got["next_dealer"], got["next_huangfan"]) == (1, 1)


def test_classic_drawn_hands_add_up_huangfan():
    # s-001-064a 若下局不胡继续追加荒番: 第2局 at 荒番(1) drawn -> 第3局 荒番(2); at 荒番(2) drawn -> 荒番(3).
    for now in (1, 2):
        got = result(played_out(case("shanghai-classic", quiet(0), [], counters={"huangfan": now}), "5p"))
        assert (got["next_dealer"], got["next_huangfan"]) == (0, now + 1)


# ---------------------------------------------------------------------------------------------- the dealer wins

def test_mcr_dealer_win_still_passes_the_deal():
    # s-002-063 "the dealer rotates each hand": no dealer repeat under MCR; hand 0 -> 1, round E.
    events = [discard(0, "7z"), draw(1, "5s"), discard(1, "5s"), win(0, "5s")]
    got = result(case("mcr", MCR_DEALER_WINS, events, draws="5s"))
    assert [w["seat"] for w in got["winners"]] == [0]
    assert (got["next_dealer"], got["next_round_wind"]) == (1, "E")


def test_knocking_dealer_win_the_dealer_deals_again():
    # s-000-025 "The winner deals the next hand, whoever they were": the dealer won, the dealer deals again.
    got = result(case("shanghai-knocking", SH_DEALER_WINS, SH_DEALER_PLAY, draws="2p3p4s", dealer=0))
    assert [w["seat"] for w in got["winners"]] == [0]
    assert got["next_dealer"] == 0


def test_classic_dealer_win_at_huangfan_3_deals_again_at_huangfan_2():
    # The document's own example (line 125): 第4局 at 荒番(3) someone wins, 第5局 is 荒番(2); the winner, the
    # dealer, deals again (s-001-021).
    got = result(case("shanghai-classic", SH_DEALER_WINS, SH_DEALER_PLAY, draws="2p3p4s", counters={"huangfan": 3}))
    assert [w["seat"] for w in got["winners"]] == [0]
    assert (got["next_dealer"], got["next_huangfan"]) == (0, 2)


def test_classic_win_without_huangfan_leaves_none():
    # No 荒番 to lose: 0 stays 0 (the counter's minimum).
    got = result(case("shanghai-classic", SH_DEALER_WINS, SH_DEALER_PLAY, draws="2p3p4s"))
    assert (got["next_dealer"], got["next_huangfan"]) == (0, 0)


# ---------------------------------------------------------------------------------------- matching and mutants

def test_an_expect_without_the_new_fields_still_matches():
    got = result(case("shanghai-classic", SH_SEAT2_WINS, SH_SEAT2_PLAY, draws="2p3p4s", counters={"huangfan": 2}))
    assert matches(got, {"verdict": "legal", "next_dealer": 2})
    assert matches(got, {"verdict": "legal", "next_dealer": 2, "next_huangfan": 1})
    assert not matches(got, {"verdict": "legal", "next_dealer": 2, "next_huangfan": 3})


def _judged(ruleset_id, mutant_id, c, expect):
    rs = load_ruleset(ruleset_id)
    [mutant] = [m for m in procedure_catalog(rs).mutants if m.id == mutant_id]
    assert unobservable(rs, mutant) is None  # a procedure result now shows it
    assert matches(procedure_result(c), expect)  # the spec's own table passes the case
    return judge(rs, mutant, [{**c, "expect": expect}])


def test_a_case_naming_next_huangfan_kills_a_huangfan_count_mutant():
    # A drawn hand at no 荒番 expects 荒番(1) next (s-001-063a); under on_draw 2 the table says 2.
    c = played_out(case("shanghai-classic", quiet(0), []), "5p")
    expect = {"verdict": "legal", "ended": "draw", "next_dealer": 0, "next_huangfan": 1}
    assert _judged("shanghai-classic", "procedure:huangfan_count.on_draw=2", c, expect).killer == 0
    # a win at 荒番(3) expects 荒番(2) (line 125's example); under on_win 0 the count stays 3
    c = case("shanghai-classic", SH_DEALER_WINS, SH_DEALER_PLAY, draws="2p3p4s", counters={"huangfan": 3})
    expect = {"verdict": "legal", "next_dealer": 0, "next_huangfan": 2}
    assert _judged("shanghai-classic", "procedure:huangfan_count.on_win=0", c, expect).killer == 0


def test_a_case_naming_next_round_wind_kills_a_round_wind_mutant():
    # Hand 3 won: hand 4 opens round S (s-002-063); counting five hands a round, hand 4 is still round E.
    c = case("mcr", MCR_SEAT2_WINS, [discard(0, "5s"), win(2, "5s")], hand=3)
    expect = {"verdict": "legal", "next_dealer": 1, "next_round_wind": "S"}
    assert _judged("mcr", "procedure:dealer_rotation.round_wind_every=5", c, expect).killer == 0
