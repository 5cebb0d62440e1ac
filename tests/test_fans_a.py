"""Hand-worked scoring tests for 27 MCR fans (group A), in the order of the guide's scoring table.

Every expected value below was worked out by hand from the guide's "Patterns and scoring table" and the
fan's entry in spec/mcr.yaml (points, excludes, implies, when): each comment lists the hand's groups, its
waiting tiles (for the wait fans), every fan it scores with its points, the fans kept from counting and by
which fan, and the total. Unless a test says otherwise the winner sits East in an East round (seat="E",
round_="E"), so a pung of East would be both Seat wind and Prevalent wind; the other three winds are
non-value winds (Pung of terminals or honors, 1).

Settlement (spec): self-draw, each opponent pays 8 + total; discard, the discarder pays 8 + total and the
other two pay 8. `s.payments` is (winner, seat 1, seat 2, seat 3).
"""
from __future__ import annotations


from checker.engine import Scorer
from mcr_helpers import fans, score, withheld


# --------------------------------------------------------------------------- Big four winds (88)

def test_big_four_winds_withholds_its_table_exclusions(mcr):
    # Melds: pung 1z (E), pung 2z (S), pung 3z (W); concealed 4z4z 5m5m; wins on 4z from seat 1.
    # Before the win 4z4z5m5m waits on 4z and 5m (two tile types): no wait fan can count.
    # Groups: [EEE] [SSS] [WWW] NNN (completed by the discard, so not concealed) + pair 5m5m.
    #   Big four winds ............................ 88
    #   Half flush (characters + honours only) .....  6   (not in Big four winds' excludes)
    #   withheld by Big four winds (its "Not counted again" column):
    #     Big three winds (three wind pungs hold), All pungs (4 pungs + pair),
    #     Prevalent wind + Seat wind (pung of East, the round and seat wind),
    #     Pung of terminals or honors (pungs of S, W, N: non-value winds).
    #   No Concealed hand (exposed melds), no Self drawn (discard), no pung is concealed.
    # Total 88 + 6 = 94. Payments: seat 1 pays 8 + 94 = 102, seats 2 and 3 pay 8: winner +118.
    s = score(mcr, "4z4z5m5m", win="4z", melds=["pung:1z1z1z", "pung:2z2z2z", "pung:3z3z3z"], discard=1)
    assert s.valid
    assert fans(s) == {"big_four_winds": 88, "half_flush": 6}
    assert s.total == 94
    assert s.payments == (118, -102, -8, -8)
    w = withheld(s)
    for excluded in ("big_three_winds", "all_pungs", "prevalent_wind", "seat_wind", "pung_of_terminals_or_honors"):
        assert excluded not in fans(s)
        assert w[excluded] == "big_four_winds"


# --------------------------------------------------------------------------- Nine gates (88)

def test_nine_gates_withholds_full_flush_concealed_hand_terminal_pungs(mcr):
    # Concealed 1112345678999m, wins on 5m from seat 1 (no melds).
    # Nine gates waits on all nine characters, so no wait fan (Single wait needs one tile type).
    # The only division: 111m 234m 678m 999m + pair 55m (the 5m completes the pair; both pungs stay
    # concealed since the discard went into the pair).
    #   Nine gates ................................. 88
    #   Two concealed pungs (111m, 999m) ............  2   (not excluded by Nine gates)
    #   withheld by Nine gates: Full flush, Concealed hand (no melds, won on a discard),
    #     Pung of terminals or honors (111m, 999m) -- its table exclusions -- and No honors (implied).
    #   No combination fan: 234m and 678m start 4 apart.
    # Total 88 + 2 = 90.
    s = score(mcr, "1m1m1m2m3m4m5m6m7m8m9m9m9m", win="5m", discard=1)
    assert s.valid
    assert fans(s) == {"nine_gates": 88, "two_concealed_pungs": 2}
    assert s.total == 90
    w = withheld(s)
    for excluded in ("full_flush", "concealed_hand", "pung_of_terminals_or_honors", "no_honors"):
        assert excluded not in fans(s)
        assert w[excluded] == "nine_gates"


# --------------------------------------------------------------------------- Thirteen orphans (88)

def test_thirteen_orphans_thirteen_sided_wait_on_a_discard(mcr):
    # Concealed 1m9m1p9p1s9s + all seven honours, wins on 1m (the duplicate) from seat 1.
    # Before the win the hand waits on all 13 orphans: no wait fan.
    #   Thirteen orphans ........................... 88
    #   withheld by Thirteen orphans: All types (all three suits, winds and dragons), Concealed hand.
    #   All terminals and honors: its tiles are only terminals and honours, but a Thirteen orphans hand is
    #     made of nothing else by definition, so under the non-repeat principle (option non_repeat_reading:
    #     table_plus_implied -- "every fan it includes by definition") it is not counted again; the WMO
    #     reading and the reference calculators give Thirteen orphans alone.
    # Total 88.
    s = score(mcr, "1m9m1p9p1s9s1z2z3z4z5z6z7z", win="1m", discard=1)
    assert s.valid
    assert fans(s) == {"thirteen_orphans": 88}
    assert s.total == 88


def test_thirteen_orphans_withholds_all_types_and_concealed_hand(mcr):
    # Same hand as above (the full fan dict is asserted in the test above): All types and Concealed hand
    # both hold and are kept from counting by Thirteen orphans, its first-ranked fan.
    s = score(mcr, "1m9m1p9p1s9s1z2z3z4z5z6z7z", win="1m", discard=1)
    assert s.valid
    w = withheld(s)
    for excluded in ("all_types", "concealed_hand"):
        assert excluded not in fans(s)
        assert w[excluded] == "thirteen_orphans"


def test_thirteen_orphans_single_wait_never_counts(mcr, mcr_ruleset):
    # (a) Concealed 1m1m9m1p9p1s9s1z2z3z4z5z6z, wins on 7z (Red) from seat 1: the hand waited on 7z only,
    #     but 7z completes no pair (the pair is 1m1m): no Single wait to find, and none counts.
    s = score(mcr, "1m1m9m1p9p1s9s1z2z3z4z5z6z", win="7z", discard=1)
    assert s.valid
    assert "single_wait" not in fans(s)
    # (b) Under the default option (wait fans need a single waiting tile type) the win that completes the pair
    #     is the thirteen-sided wait, so Single wait cannot even hold alongside Thirteen orphans. With
    #     wait_fans_single_tile_type=false, winning on 1m into the 1m1m pair holds Single wait, and
    #     Thirteen orphans keeps it from counting (its table exclusion).
    loose = Scorer(mcr_ruleset, {"wait_fans_single_tile_type": False})
    s = score(loose, "1m9m1p9p1s9s1z2z3z4z5z6z7z", win="1m", discard=1)
    assert s.valid
    assert "single_wait" not in fans(s)
    assert withheld(s)["single_wait"] == "thirteen_orphans"


# --------------------------------------------------------------------------- Little three dragons (64)

def test_little_three_dragons_withholds_dragon_pungs(mcr):
    # Melds: pung 5z (White), pung 6z (Green), chow 234m; concealed 7z7z 6p7p; wins on 8p from seat 1.
    # 6p7p waits on 5p and 8p: no wait fan.
    # Groups: [555z] [666z] [234m] 678p + pair 7z7z (Red).
    #   Little three dragons ....................... 64
    #   One voided suit (characters and dots, no bamboo)  1
    #   withheld by Little three dragons: Dragon pung (White, Green) and Two dragon pungs.
    #   No Half flush (two suits), no All types (no bamboo, no wind).
    # Total 64 + 1 = 65.
    s = score(mcr, "7z7z6p7p", win="8p", melds=["pung:5z5z5z", "pung:6z6z6z", "chow:2m3m4m"], discard=1)
    assert s.valid
    assert fans(s) == {"little_three_dragons": 64, "one_voided_suit": 1}
    assert s.total == 65
    w = withheld(s)
    for excluded in ("dragon_pung", "two_dragon_pungs"):
        assert excluded not in fans(s)
        assert w[excluded] == "little_three_dragons"


# --------------------------------------------------------------------------- Pure terminal chows (64)

def test_pure_terminal_chows_with_a_melded_chow(mcr):
    # Melds: chow 123m; concealed 123m 789m 55m 7m8m; wins on 9m from seat 1.
    # Waits before the win: 6m (123 123 789 678 + 55) and 9m: two types, no wait fan
    # (the 9m is not an edge wait anyway: only a 7 completing 89 is).
    # Groups: [123m] 123m 789m 789m + pair 55m.
    #   Pure terminal chows ........................ 64
    #   withheld by Pure terminal chows: Full flush, All chows, Pure double chow (123/123 and 789/789),
    #     Two terminal chows (its table exclusions) and No honors (implied).
    #   No Concealed hand (a melded chow), no Self drawn. Seven pairs cannot hold (a meld).
    # Total 64. Payments: seat 1 pays 72, the others 8: winner +88.
    s = score(mcr, "1m2m3m7m8m9m5m5m7m8m", win="9m", melds=["chow:1m2m3m"], discard=1)
    assert s.valid
    assert fans(s) == {"pure_terminal_chows": 64}
    assert s.total == 64
    assert s.payments == (88, -72, -8, -8)
    w = withheld(s)
    for excluded in ("full_flush", "all_chows", "pure_double_chow", "two_terminal_chows", "no_honors"):
        assert excluded not in fans(s)
        assert w[excluded] == "pure_terminal_chows"


def test_pure_terminal_chows_concealed_beats_the_seven_pairs_reading(mcr):
    # Concealed 11223355778899m less one 9m, self-drawn 9m.
    # Waits before the win: 6m (123 123 55 678 789) and 9m (regular and seven pairs): two types.
    # Two interpretations:
    #   regular 123m 123m 789m 789m + 55m:
    #     Pure terminal chows 64 + Fully concealed hand 4 = 68 (Self drawn implied by Fully concealed hand;
    #     Full flush, All chows, Pure double chow, Two terminal chows, No honors withheld as above).
    #   seven pairs 11 22 33 55 77 88 99:
    #     Seven pairs 24 + Full flush 24 + Fully concealed hand 4 = 52.
    # The highest, 68, is kept. Seven pairs (a table exclusion of Pure terminal chows) is absent; it is not
    # listed among the withheld fans because it only ever holds in the other interpretation: a
    # Pure-terminal-chows reading has four chows, never seven pairs, so the guide's exclusion is realised by
    # never combining interpretations rather than by withholding within one.
    s = score(mcr, "1m1m2m2m3m3m5m5m7m7m8m8m9m", win="9m")
    assert s.valid
    assert fans(s) == {"pure_terminal_chows": 64, "fully_concealed_hand": 4}
    assert s.total == 68
    assert "seven_pairs" not in fans(s)
    assert "seven_pairs" not in withheld(s)
    assert withheld(s)["self_drawn"] == "fully_concealed_hand"
    assert withheld(s)["full_flush"] == "pure_terminal_chows"


def test_pure_terminal_chows_concealed_on_a_discard_keeps_concealed_hand(mcr):
    # Same tiles as above, 9m won from seat 1's discard.
    #   Pure terminal chows ........................ 64
    #   Concealed hand (no exposed set, won on a discard)  2
    # Pure terminal chows' "Not counted again" column is Seven pairs, Full flush, All chows, Pure double
    # chow, Two terminal chows; it does not include Concealed hand by definition (it may be melded, see the
    # test above), so neither reading of non_repeat_reading withholds it. Seven pairs excludes Concealed hand
    # because a seven-pairs hand is always concealed; that reason does not pass on to Pure terminal chows,
    # and Seven pairs is not even counted here. (WMO / reference calculators: 64 + 2.)
    # Seven pairs reading: 24 + 24 (Full flush) = 48, lower.
    # Total 64 + 2 = 66.
    s = score(mcr, "1m1m2m2m3m3m5m5m7m7m8m8m9m", win="9m", discard=1)
    assert s.valid
    assert fans(s) == {"pure_terminal_chows": 64, "concealed_hand": 2}
    assert s.total == 66


# --------------------------------------------------------------------------- Four shifted chows (32)

def test_four_shifted_chows_step_one_withholds_short_straight(mcr):
    # Melds: chow 123m, chow 234m; concealed 345m 4m5m 5p5p; wins on 6m from seat 1.
    # 4m5m (beside 345m) waits on 3m and 6m: two types, no wait fan.
    # Groups: [123m] [234m] 345m 456m + pair 5p5p.
    #   Four shifted chows (starts 1,2,3,4) ......... 32
    #   All chows (four chows, numbered pair) .......  2
    #   One voided suit (no bamboo) ..................  1
    #   withheld by Four shifted chows: Short straight (123m+456m; its table exclusion) and
    #     Pure shifted chows (implied).
    #   No honors: withheld by All chows (its table exclusion), the first counted fan that excludes it.
    # Total 32 + 2 + 1 = 35.
    s = score(mcr, "3m4m5m4m5m5p5p", win="6m", melds=["chow:1m2m3m", "chow:2m3m4m"], discard=1)
    assert s.valid
    assert fans(s) == {"four_shifted_chows": 32, "all_chows": 2, "one_voided_suit": 1}
    assert s.total == 35
    w = withheld(s)
    assert "short_straight" not in fans(s)
    assert w["short_straight"] == "four_shifted_chows"
    assert w["pure_shifted_chows"] == "four_shifted_chows"
    assert w["no_honors"] == "all_chows"


def test_four_shifted_chows_step_two_withholds_two_terminal_chows(mcr):
    # Melds: chow 123m, chow 345m; concealed 567m 7m8m 5p5p; wins on 9m from seat 1.
    # 7m8m waits on 6m (567 678) and 9m: two types, no wait fan.
    # Groups: [123m] [345m] 567m 789m + pair 5p5p.
    #   Four shifted chows (starts 1,3,5,7) ......... 32
    #   All chows ...................................  2
    #   One voided suit ..............................  1
    #   withheld by Four shifted chows (implied): Two terminal chows (123m+789m), Pure shifted chows.
    #   No Short straight to find (no two chows start 3 apart). No honors withheld by All chows.
    # Total 35.
    s = score(mcr, "5m6m7m7m8m5p5p", win="9m", melds=["chow:1m2m3m", "chow:3m4m5m"], discard=1)
    assert s.valid
    assert fans(s) == {"four_shifted_chows": 32, "all_chows": 2, "one_voided_suit": 1}
    assert s.total == 35
    w = withheld(s)
    assert w["two_terminal_chows"] == "four_shifted_chows"
    assert w["pure_shifted_chows"] == "four_shifted_chows"


# --------------------------------------------------------------------------- Seven pairs (24)

def test_seven_pairs_single_wait_on_a_discard(mcr):
    # Concealed 1m1m 4m4m 7p7p 2s2s 5s5s 8s8s 9p; wins on 9p from seat 1.
    # Before the win the hand waits on 9p only (no regular division is one tile away).
    #   Seven pairs ................................ 24
    #   No honors ...................................  1
    #   withheld by Seven pairs: Single wait (9p completes the 9p pair, the only waiting tile) and
    #     Concealed hand (won on a discard, nothing exposed) -- its table exclusions.
    #   No All simples (1m, 9p), no One voided suit (three suits).
    # Total 25.
    s = score(mcr, "1m1m4m4m7p7p2s2s5s5s8s8s9p", win="9p", discard=1)
    assert s.valid
    assert fans(s) == {"seven_pairs": 24, "no_honors": 1}
    assert s.total == 25
    w = withheld(s)
    for excluded in ("single_wait", "concealed_hand"):
        assert excluded not in fans(s)
        assert w[excluded] == "seven_pairs"


# --------------------------------------------------------------------------- Full flush (24)

def test_full_flush_withholds_no_honors(mcr):
    # Melds: chow 123p, pung 555p, pung 777p; concealed 2p3p 8p8p; wins on 4p from seat 1.
    # 2p3p waits on 1p and 4p: no wait fan.
    # Groups: [123p] [555p] [777p] 234p + pair 8p8p.
    #   Full flush ................................. 24
    #   withheld by Full flush: No honors.
    #   No shifted pungs (5p, 7p not consecutive), no chow combination (123p/234p start 1 apart),
    #   no All simples (1p).
    # Total 24.
    s = score(mcr, "2p3p8p8p", win="4p", melds=["chow:1p2p3p", "pung:5p5p5p", "pung:7p7p7p"], discard=1)
    assert s.valid
    assert fans(s) == {"full_flush": 24}
    assert s.total == 24
    assert "no_honors" not in fans(s)
    assert withheld(s)["no_honors"] == "full_flush"


# --------------------------------------------------------------------------- Upper tiles (24)

def test_upper_tiles_withholds_no_honors_and_upper_four(mcr):
    # Melds: chow 789m, pung 888p, pung 777s; concealed 9p9p 8s8s; wins on 9p from seat 1.
    # 9p9p8s8s waits on 9p and 8s: no wait fan.
    # Groups: [789m] [888p] [777s] 999p (discard-completed) + pair 8s8s.
    #   Upper tiles (only 7, 8, 9) ................. 24
    #   Pung of terminals or honors (999p) ..........  1
    #   withheld by Upper tiles: No honors (table) and Upper four (implied: 7-9 is within 6-9).
    #   No Mixed shifted pungs (pungs 8p, 7s, 9p: two in dots), no Double pung, no Outside hand (888p).
    # Total 25.
    s = score(mcr, "9p9p8s8s", win="9p", melds=["chow:7m8m9m", "pung:8p8p8p", "pung:7s7s7s"], discard=1)
    assert s.valid
    assert fans(s) == {"upper_tiles": 24, "pung_of_terminals_or_honors": 1}
    assert s.total == 25
    w = withheld(s)
    for excluded in ("no_honors", "upper_four"):
        assert excluded not in fans(s)
        assert w[excluded] == "upper_tiles"


# --------------------------------------------------------------------------- Pure straight (16)

def test_pure_straight_implies_short_straight_and_two_terminal_chows(mcr):
    # Melds: chow 123p, chow 456p, pung 222s; concealed 7p8p 5m5m; wins on 9p from seat 1.
    # 7p8p waits on 6p and 9p: no wait fan.
    # Groups: [123p] [456p] [222s] 789p + pair 5m5m.
    #   Pure straight .............................. 16
    #   No honors ...................................  1
    #   withheld by Pure straight (implied): Short straight (123p+456p, 456p+789p), Two terminal chows
    #     (123p+789p).
    #   Three suits: no One voided suit; 1p/9p: no All simples.
    # Total 17.
    s = score(mcr, "7p8p5m5m", win="9p", melds=["chow:1p2p3p", "chow:4p5p6p", "pung:2s2s2s"], discard=1)
    assert s.valid
    assert fans(s) == {"pure_straight": 16, "no_honors": 1}
    assert s.total == 17
    w = withheld(s)
    for implied in ("short_straight", "two_terminal_chows"):
        assert implied not in fans(s)
        assert w[implied] == "pure_straight"


# --------------------------------------------------------------------------- All fives (16)

def test_all_fives_withholds_all_simples(mcr):
    # Melds: chow 345m, chow 567p, pung 555s; concealed 4p5p 5m5m; wins on 6p from seat 1.
    # 4p5p waits on 3p and 6p: no wait fan.
    # Groups: [345m] [567p] [555s] 456p + pair 5m5m -- every set and the pair holds a 5.
    #   All fives .................................. 16
    #   withheld by All fives: All simples (table; every tile is 3-7) and No honors (implied).
    #   No Mixed double chow (345m vs 456p/567p), no Mixed shifted chows (no bamboo chow),
    #   456p/567p are only two chows.
    # Total 16.
    s = score(mcr, "4p5p5m5m", win="6p", melds=["chow:3m4m5m", "chow:5p6p7p", "pung:5s5s5s"], discard=1)
    assert s.valid
    assert fans(s) == {"all_fives": 16}
    assert s.total == 16
    w = withheld(s)
    for excluded in ("all_simples", "no_honors"):
        assert excluded not in fans(s)
        assert w[excluded] == "all_fives"


# --------------------------------------------------------------------------- Lesser honors and knitted tiles (12)

def test_lesser_honors_and_knitted_tiles_withholds_all_types_and_concealed_hand(mcr):
    # Concealed 1m4m7m 2p5p8p 3s + East South West North White Green; wins on 6s from seat 1.
    # Fourteen distinct tiles: 147m 258p 36s (all from one knitted 147/258/369 assignment) + six honours.
    # Not all seven honours (no Red): not Greater honors. Only 8 knitted tiles: no Knitted straight.
    #   Lesser honors and knitted tiles ............ 12
    #   withheld by it: All types (three suits, winds, dragons) and Concealed hand (won on a discard).
    # Total 12. Payments: seat 1 pays 20, the others 8: winner +36.
    s = score(mcr, "1m4m7m2p5p8p3s1z2z3z4z5z6z", win="6s", discard=1)
    assert s.valid
    assert fans(s) == {"lesser_honors_and_knitted_tiles": 12}
    assert s.total == 12
    assert s.payments == (36, -20, -8, -8)
    w = withheld(s)
    for excluded in ("all_types", "concealed_hand"):
        assert excluded not in fans(s)
        assert w[excluded] == "lesser_honors_and_knitted_tiles"


# --------------------------------------------------------------------------- Lower four (12)

def test_lower_four_withholds_no_honors(mcr):
    # Melds: chow 123m, pung 444p, pung 222s; concealed 3s3s 4m4m; wins on 3s from seat 1.
    # 3s3s4m4m waits on 3s and 4m: no wait fan.
    # Groups: [123m] [444p] [222s] 333s (discard-completed) + pair 4m4m. Only ranks 1-4, a 4 present
    # (so not Lower tiles, 1-3).
    #   Lower four ................................. 12
    #   withheld by Lower four: No honors.
    #   Pungs 4p, 2s, 3s: no Double pung, no Pure shifted pungs (only 2s/3s in bamboo), no Mixed shifted
    #   pungs (no characters pung). 1m present: no All simples. Three suits.
    # Total 12.
    s = score(mcr, "3s3s4m4m", win="3s", melds=["chow:1m2m3m", "pung:4p4p4p", "pung:2s2s2s"], discard=1)
    assert s.valid
    assert fans(s) == {"lower_four": 12}
    assert s.total == 12
    assert "no_honors" not in fans(s)
    assert withheld(s)["no_honors"] == "lower_four"


# --------------------------------------------------------------------------- Reversible tiles (8)

def test_reversible_tiles_withholds_one_voided_suit(mcr):
    # Melds: chow 123p, chow 456s, pung 888s; concealed 3p4p 5z5z; wins on 5p from seat 1.
    # 3p4p waits on 2p and 5p: no wait fan.
    # Groups: [123p] [456s] [888s] 345p + pair 5z5z (White). Every tile is in dots 1234589,
    # bamboo 245689 or White.
    #   Reversible tiles ...........................  8
    #   withheld by Reversible tiles: One voided suit (dots and bamboo only).
    #   Honours present: no No honors; two suits + honours: no Half flush; no wind: no All types.
    # Total 8 (exactly the minimum).
    s = score(mcr, "3p4p5z5z", win="5p", melds=["chow:1p2p3p", "chow:4s5s6s", "pung:8s8s8s"], discard=1)
    assert s.valid
    assert fans(s) == {"reversible_tiles": 8}
    assert s.total == 8
    assert "one_voided_suit" not in fans(s)
    assert withheld(s)["one_voided_suit"] == "reversible_tiles"


# --------------------------------------------------------------------------- Chicken hand (8)

CHICKEN_MELDS = ["chow:2m3m4m", "chow:5p6p7p", "pung:8s8s8s"]


def test_chicken_hand(mcr):
    # Melds: chow 234m, chow 567p, pung 888s; concealed 3s4s 2z2z (South, a pair: no fan); wins on 5s
    # from seat 1. 3s4s waits on 2s and 5s: no wait fan.
    # Groups: [234m] [567p] [888s] 345s + pair 2z2z. Three suits (no voided suit, no flush), a wind but no
    # dragon (no All types), honours present (no No honors / All simples), chows 234m/567p/345s start
    # 2, 5, 3 (no combination), exposed sets and a discard (no concealment fan). Only one division.
    #   Chicken hand ...............................  8
    # Total 8. Payments: seat 1 pays 16, the others 8: winner +32.
    s = score(mcr, "3s4s2z2z", win="5s", melds=CHICKEN_MELDS, discard=1)
    assert s.valid
    assert fans(s) == {"chicken_hand": 8}
    assert s.total == 8
    assert s.payments == (32, -16, -8, -8)


def test_chicken_hand_with_a_flower(mcr):
    # The same hand with one flower: flowers are not fans for Chicken hand.
    #   Chicken hand 8 + Flower tiles 1 = 9. Seat 1 pays 8 + 9 = 17, the others 8: winner +33.
    s = score(mcr, "3s4s2z2z", win="5s", melds=CHICKEN_MELDS, discard=1, flowers="1f")
    assert s.valid
    assert fans(s) == {"chicken_hand": 8, "flower_tiles": 1}
    assert s.total == 9
    assert s.payments == (33, -17, -8, -8)


# --------------------------------------------------------------------------- Out with replacement tile (8)

def test_out_with_replacement_tile_implies_self_drawn(mcr):
    # Melds: exposed kong 8888s, chow 234m, chow 567p; concealed 3s4s 2z2z; self-draws 5s as the
    # replacement tile after the kong (flag kong_replacement). 3s4s waits on 2s and 5s.
    # Groups: [8888s] [234m] [567p] 345s + pair 2z2z (15 tiles: 14 + 1 kong).
    #   Out with replacement tile ..................  8
    #   Melded kong (8888s) .........................  1
    #   withheld by Out with replacement tile: Self drawn (implied).
    # Total 9. Self-draw: each opponent pays 8 + 9 = 17: winner +51.
    s = score(mcr, "3s4s2z2z", win="5s", melds=["kong:8s8s8s8s", "chow:2m3m4m", "chow:5p6p7p"],
              flags=("kong_replacement",))
    assert s.valid
    assert fans(s) == {"out_with_replacement_tile": 8, "melded_kong": 1}
    assert s.total == 9
    assert s.payments == (51, -17, -17, -17)
    assert "self_drawn" not in fans(s)
    assert withheld(s)["self_drawn"] == "out_with_replacement_tile"


# --------------------------------------------------------------------------- All pungs (6)

def test_all_pungs(mcr):
    # Melds: pung 222m, pung 555p, pung 888s; concealed 4m4m 6p6p; wins on 6p from seat 1.
    # 4m4m6p6p waits on 4m and 6p: no wait fan.
    # Groups: [222m] [555p] [888s] 666p (discard-completed: not concealed) + pair 4m4m.
    #   All pungs ..................................  6
    #   All simples (only 2-8) ......................  2
    #   No honors: withheld by All simples (implied).
    #   Pungs 2m 5p 6p 8s: no equal ranks, no three consecutive one per suit, 5p/6p only two in dots.
    # Total 8.
    s = score(mcr, "4m4m6p6p", win="6p", melds=["pung:2m2m2m", "pung:5p5p5p", "pung:8s8s8s"], discard=1)
    assert s.valid
    assert fans(s) == {"all_pungs": 6, "all_simples": 2}
    assert s.total == 8
    assert withheld(s)["no_honors"] == "all_simples"


# --------------------------------------------------------------------------- All types (6)

def test_all_types(mcr):
    # Melds: chow 234m, chow 567p, pung 666z (Green); concealed 3s4s 3z3z (West pair); wins on 5s from
    # seat 1. 3s4s waits on 2s and 5s.
    # Groups: [234m] [567p] [666z] 345s + pair 3z3z: characters, dots, bamboo, a wind and a dragon.
    #   All types ..................................  6
    #   Dragon pung (Green) .........................  2
    # Total 8. Seat 1 pays 16, the others 8: winner +32.
    s = score(mcr, "3s4s3z3z", win="5s", melds=["chow:2m3m4m", "chow:5p6p7p", "pung:6z6z6z"], discard=1)
    assert s.valid
    assert fans(s) == {"all_types": 6, "dragon_pung": 2}
    assert s.total == 8
    assert s.payments == (32, -16, -8, -8)


# --------------------------------------------------------------------------- Outside hand (4)

def test_outside_hand(mcr):
    # Melds: chow 123m, chow 789p, pung 333z (West); concealed 9s9s 1z1z; wins on 9s from seat 1.
    # 9s9s1z1z waits on 9s and 1z.
    # Groups: [123m] [789p] [WWW] 999s + pair 1z1z: every set and the pair holds a terminal or an honour.
    #   Outside hand ...............................  4
    #   Pung of terminals or honors x2 (West: neither seat nor round wind; 999s)  2
    #   A pair of East scores nothing; no dragon: no All types.
    # Total 6: below the 8-point minimum.
    s = score(mcr, "9s9s1z1z", win="9s", melds=["chow:1m2m3m", "chow:7p8p9p", "pung:3z3z3z"], discard=1)
    assert s.valid is False and s.error == "win.minimum_points"
    assert fans(s) == {"outside_hand": 4, "pung_of_terminals_or_honors": 2}
    assert s.total == 6


# --------------------------------------------------------------------------- Last tile (4)

def test_last_tile_removes_chicken_hand(mcr):
    # The Chicken-hand tiles above, the three other 5s visible (flag fourth_tile_visible).
    #   Last tile ..................................  4
    #   Chicken hand no longer applies (the hand has another fan).
    # Total 4: below the minimum.
    s = score(mcr, "3s4s2z2z", win="5s", melds=CHICKEN_MELDS, discard=1, flags=("fourth_tile_visible",))
    assert s.valid is False and s.error == "win.minimum_points"
    assert fans(s) == {"last_tile": 4}
    assert s.total == 4


# --------------------------------------------------------------------------- Seat wind (2)

def test_seat_wind_south_seat_in_east_round(mcr):
    # Seat South, round East. Melds: pung 222z (South), chow 234m, chow 567p; concealed 3s4s 9m9m; wins on
    # 5s from seat 1 (3s4s waits on 2s and 5s).
    #   Seat wind (pung of South, the seat wind) ....  2
    #   South is a value wind here: no Pung of terminals or honors; not the round wind: no Prevalent wind.
    #   Honours present (no No honors), three suits.
    # Total 2.
    s = score(mcr, "3s4s9m9m", win="5s", melds=["pung:2z2z2z", "chow:2m3m4m", "chow:5p6p7p"], discard=1,
              seat="S", round_="E")
    assert s.valid is False and s.error == "win.minimum_points"
    assert fans(s) == {"seat_wind": 2}
    assert s.total == 2


def test_seat_wind_and_prevalent_wind_both_count_for_east_in_east(mcr):
    # The same hand with a pung of East, seat East, round East.
    #   Seat wind 2 + Prevalent wind 2 = 4 (no Pung of terminals or honors for a value wind).
    s = score(mcr, "3s4s9m9m", win="5s", melds=["pung:1z1z1z", "chow:2m3m4m", "chow:5p6p7p"], discard=1)
    assert s.valid is False and s.error == "win.minimum_points"
    assert fans(s) == {"seat_wind": 2, "prevalent_wind": 2}
    assert s.total == 4


# --------------------------------------------------------------------------- Tile hog (2)

def test_tile_hog(mcr):
    # Melds: pung 444p, chow 234m, chow 789s; concealed 5p6p 1z1z; wins on 4p (its fourth copy) from seat 1.
    # 5p6p waits on 4p and 7p: no wait fan.
    # Groups: [444p] [234m] [789s] 456p + pair 1z1z. All four 4p are in the hand, not as a kong.
    #   Last tile (4p: its other three copies are public, in the winner's own exposed pung)  4
    #   Tile hog (4p) ...............................  2
    # Total 6.
    s = score(mcr, "5p6p1z1z", win="4p", melds=["pung:4p4p4p", "chow:2m3m4m", "chow:7s8s9s"], discard=1)
    assert s.valid is False and s.error == "win.minimum_points"
    assert fans(s) == {"last_tile": 4, "tile_hog": 2}
    assert s.total == 6


def test_tile_hog_in_seven_pairs_with_four_identical_tiles(mcr):
    # Concealed 4m4m4m4m 7m7m 2p2p 9p9p 3s3s 6s; wins on 6s from seat 1 (waits on 6s only).
    # Seven pairs with 4m4m4m4m as two pairs (default option).
    #   Seven pairs ................................ 24
    #   Tile hog (4m) ...............................  2
    #   No honors ...................................  1
    #   Single wait and Concealed hand withheld by Seven pairs.
    # Total 27.
    s = score(mcr, "4m4m4m4m7m7m2p2p9p9p3s3s6s", win="6s", discard=1)
    assert s.valid
    assert fans(s) == {"seven_pairs": 24, "tile_hog": 2, "no_honors": 1}
    assert s.total == 27


def test_tile_hog_not_for_honours(mcr):
    # Concealed 1z1z1z1z 7m7m 2p2p 9p9p 3s3s 6s; wins on 6s from seat 1 (waits on 6s only).
    #   Seven pairs ................................ 24
    #   Four Easts: honours do not make a Tile hog (option tile_hog_honors false). A wind but no dragon:
    #   no All types. Single wait and Concealed hand withheld by Seven pairs.
    # Total 24.
    s = score(mcr, "1z1z1z1z7m7m2p2p9p9p3s3s6s", win="6s", discard=1)
    assert s.valid
    assert fans(s) == {"seven_pairs": 24}
    assert s.total == 24


# --------------------------------------------------------------------------- Concealed kong (2)

def test_concealed_kong(mcr):
    # Melds: concealed kong 5555p, chow 234m, chow 678p; concealed 3s4s 1z1z; wins on 5s from seat 1.
    # 3s4s waits on 2s and 5s.
    # Groups: [5555p concealed] [234m] [678p] 345s + pair 1z1z (15 tiles: 14 + 1 kong).
    #   Concealed kong ..............................  2
    #   One concealed pung only (the kong): no Two concealed pungs. Exposed chows: no Concealed hand.
    #   Chows 234m / 678p / 345s: three suits, starts 2, 6, 3: no combination.
    # Total 2.
    # (A first draft melded 678s instead of 678p and forgot that 345s + 678s is a Short straight, 1.)
    s = score(mcr, "3s4s1z1z", win="5s", melds=["concealed_kong:5p5p5p5p", "chow:2m3m4m", "chow:6p7p8p"],
              discard=1)
    assert s.valid is False and s.error == "win.minimum_points"
    assert fans(s) == {"concealed_kong": 2}
    assert s.total == 2


# --------------------------------------------------------------------------- Mixed double chow (1)

def test_mixed_double_chow(mcr):
    # The Chicken-hand melds, concealed 3s4s 2z2z, but the win is 2s (from seat 1): groups
    # [234m] [567p] [888s] 234s + 2z2z.
    #   Mixed double chow (234m + 234s) .............  1
    #   So no Chicken hand. Total 1.
    s = score(mcr, "3s4s2z2z", win="2s", melds=CHICKEN_MELDS, discard=1)
    assert s.valid is False and s.error == "win.minimum_points"
    assert fans(s) == {"mixed_double_chow": 1}
    assert s.total == 1


# --------------------------------------------------------------------------- Pung of terminals or honors (1)

def test_pung_of_terminals_or_honors_counts_each_pung(mcr):
    # Melds: pung 111m, pung 333z (West), chow 567p; concealed 3s4s 8s8s; wins on 5s from seat 1.
    # 3s4s waits on 2s and 5s.
    #   Pung of terminals or honors x2 (111m; West, neither seat nor round wind)  2
    #   Three suits, honours present. Total 2.
    s = score(mcr, "3s4s8s8s", win="5s", melds=["pung:1m1m1m", "pung:3z3z3z", "chow:5p6p7p"], discard=1)
    assert s.valid is False and s.error == "win.minimum_points"
    assert fans(s) == {"pung_of_terminals_or_honors": 2}
    assert s.total == 2


# --------------------------------------------------------------------------- No honors (1)

def test_no_honors(mcr):
    # The Chicken-hand melds; concealed 3s4s 9m9m; wins on 5s from seat 1 (3s4s waits on 2s and 5s).
    # Groups [234m] [567p] [888s] 345s + 9m9m: no wind or dragon; 9m: no All simples.
    #   No honors ...................................  1
    # Total 1.
    s = score(mcr, "3s4s9m9m", win="5s", melds=CHICKEN_MELDS, discard=1)
    assert s.valid is False and s.error == "win.minimum_points"
    assert fans(s) == {"no_honors": 1}
    assert s.total == 1


# --------------------------------------------------------------------------- Single wait (1)

def test_single_wait(mcr):
    # The Chicken-hand melds; concealed 345s 9m; wins on 9m from seat 1.
    # Before the win 3s4s5s9m waits on 9m only (2s/6s would leave 9m alone), and 9m completes the pair.
    #   Single wait .................................  1
    #   No honors ...................................  1
    # Total 2.
    s = score(mcr, "3s4s5s9m", win="9m", melds=CHICKEN_MELDS, discard=1)
    assert s.valid is False and s.error == "win.minimum_points"
    assert fans(s) == {"single_wait": 1, "no_honors": 1}
    assert s.total == 2


def test_single_wait_not_when_the_hand_waits_on_two_tiles(mcr):
    # Melds: chow 123m, chow 567p, pung 888s; concealed 2s3s4s5s; wins on 5s from seat 1.
    # 2s3s4s5s waits on 2s (22s + 345s) and 5s (234s + 55s): two tile types, so completing the 55s pair is
    # no Single wait.
    #   No honors ...................................  1   (1m: no All simples)
    # Total 1.
    s = score(mcr, "2s3s4s5s", win="5s", melds=["chow:1m2m3m", "chow:5p6p7p", "pung:8s8s8s"], discard=1)
    assert s.valid is False and s.error == "win.minimum_points"
    assert fans(s) == {"no_honors": 1}
    assert s.total == 1
