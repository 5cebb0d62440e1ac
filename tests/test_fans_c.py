"""Hand-worked scoring tests for 27 MCR fans, in the order of the guide's "Patterns and scoring table":
All green, Seven shifted pairs, Little four winds, Four concealed pungs, Four pure shifted pungs,
All terminals and honors, All even pungs, Pure shifted pungs, Lower tiles, Pure shifted chows,
Three concealed pungs, Upper four, Mixed straight, Mixed shifted pungs, Last tile claim, Two concealed kongs,
Mixed shifted chows, Two dragon pungs, Two melded kongs, Prevalent wind, All chows, Two concealed pungs,
Pure double chow, Two terminal chows, One voided suit, Closed wait, Flower tiles.

Every expectation is worked out by hand in the comment above it (guide:
/work/shared/seeds/002_3a615137eafec6e0.txt, spec: spec/mcr.yaml), fan by fan, then the total.
Conventions: seat and round wind are East unless said; `discard=N` means seat N discarded the winning tile;
"waits" lists every tile type that completes the 13 tiles before the win (a wait fan needs exactly one).
Payments: self-draw, each opponent pays 8 + total; discard, the discarder pays 8 + total, the others 8.
"""
from __future__ import annotations

from mcr_helpers import fans, score, withheld


# ---------------------------------------------------------------------------------------------- All green (88)

def test_all_green_with_green_dragons_includes_half_flush(mcr):
    # [234s] [6z6z6z] + concealed 3s4s 6s6s6s 8s8s, wins on 2s from seat 1.
    # Sets: 234s (exposed), 666z (exposed), 234s (concealed, 2s on 34s = open: waits 2s/5s), 666s, pair 88s.
    #   All green: only 2 3 4 6 8 bamboo and green dragons ............ 88
    #   Half flush (bamboo + honours) is included in All green ........ withheld (implies)
    #   Pure double chow: 234s + 234s .................................. 1
    #   Dragon pung: 666z ............................................... 2
    #   not: One voided suit (only one suit), No honors (6z), Two concealed pungs (only 666s), wait fans (open).
    # Total 88 + 1 + 2 = 91. Seat 1 pays 8 + 91 = 99, seats 2 and 3 pay 8: winner +115.
    s = score(mcr, "3s4s6s6s6s8s8s", win="2s", melds=["chow:234s", "pung:6z6z6z"], discard=1)
    assert s.valid
    assert fans(s) == {"all_green": 88, "pure_double_chow": 1, "dragon_pung": 2}
    assert s.total == 91
    assert s.payments == (115, -99, -8, -8)
    assert withheld(s)["half_flush"] == "all_green"


# ------------------------------------------------------------------------------------- Seven shifted pairs (88)

def test_seven_shifted_pairs_excludes_full_flush_concealed_hand_single_wait(mcr):
    # Concealed 1m1m 2m2m 3m 4m4m 5m5m 6m6m 7m7m, wins on 3m from seat 1: pairs 1m..7m.
    # Waits, by hand: the 1s must be a pair or two 123 chows, and with a single 3 neither leaves a hand unless
    #   the new tile is 1, 2 or 3; 1 (111+22+3...) and 2 (11+222+3...) fail, 3 gives 11223344556677
    #   (seven pairs, or 123 123 456 456 77). Waits = {3m}: one tile type.
    # Seven-pairs reading:
    #   Seven shifted pairs ............................................ 88
    #   Seven pairs, No honors: included (implies) ...................... withheld
    #   Full flush (only characters) .................................... withheld (excludes)
    #   Concealed hand (no melds, won on a discard) ..................... withheld (excludes)
    #   Single wait (3m completes the lone 3m, one waiting type) ........ withheld (excludes)
    #   not: Lower tiles / Lower four (ranks up to 7), One voided suit (one suit), Tile hog (no 4 copies).
    # The regular reading 123m 123m 456m 456m 77m (Full flush 24 + double chows...) is far lower.
    # Total 88. Seat 1 pays 96, the others 8: winner +112.
    s = score(mcr, "1m1m2m2m3m4m4m5m5m6m6m7m7m", win="3m", discard=1)
    assert s.valid
    assert fans(s) == {"seven_shifted_pairs": 88}
    assert s.total == 88
    assert s.payments == (112, -96, -8, -8)
    w = withheld(s)
    for fan in ("seven_pairs", "no_honors", "full_flush", "concealed_hand", "single_wait"):
        assert w[fan] == "seven_shifted_pairs"


# --------------------------------------------------------------------------------------- Little four winds (64)

def test_little_four_winds_excludes_big_three_winds_and_wind_pungs(mcr):
    # [2z2z2z] [3z3z3z] [4z4z4z] + concealed 2m3m 1z1z, wins on 4m from seat 1; seat East, round East.
    # Waits: 23m -> 1m or 4m (two types), so no wait fan; 4m completes 234m.
    #   Little four winds: S, W, N pungs + East pair ...................... 64
    #   Big three winds (three wind pungs) ............................... withheld (excludes)
    #   Pung of terminals or honors: S, W, N are neither seat nor round wind  withheld (excludes), 3 instances
    #   Half flush: characters + honours .................................. 6
    #   not: Seat/Prevalent wind (East is only the pair), Outside hand (234m), All types (one suit).
    # Total 64 + 6 = 70. Seat 1 pays 78: winner +94.
    s = score(mcr, "2m3m1z1z", win="4m", melds=["pung:2z2z2z", "pung:3z3z3z", "pung:4z4z4z"], discard=1)
    assert s.valid
    assert fans(s) == {"little_four_winds": 64, "half_flush": 6}
    assert s.total == 70
    assert s.payments == (94, -78, -8, -8)
    assert withheld(s)["big_three_winds"] == "little_four_winds"
    assert withheld(s)["pung_of_terminals_or_honors"] == "little_four_winds"


# ------------------------------------------------------------------------------------ Four concealed pungs (64)

def test_four_concealed_pungs_on_discard_excludes_all_pungs_and_concealed_hand(mcr):
    # Concealed 2m2m2m 5m5m5m 3p3p3p 7s7s7s 9p, wins on 9p from seat 1 (the pair, so every pung stays concealed).
    # Waits: the lone 9p can only pair with 9p (no 789p), so {9p}.
    #   Four concealed pungs ............................................. 64
    #   All pungs, Concealed hand (no melds, discard win) ................ withheld (excludes)
    #   Three concealed pungs, Two concealed pungs ....................... withheld (implies)
    #   Single wait (9p, one waiting type) ............................... 1
    #   No honors ........................................................ 1
    #   not: Mixed shifted pungs (2m 3p + no 4s; 5m + no 4p/6s), Double pung (ranks 2 5 3 7), Pung of terminals.
    # Total 64 + 1 + 1 = 66. Seat 1 pays 74: winner +90.
    s = score(mcr, "2m2m2m5m5m5m3p3p3p7s7s7s9p", win="9p", discard=1)
    assert s.valid
    assert fans(s) == {"four_concealed_pungs": 64, "single_wait": 1, "no_honors": 1}
    assert s.total == 66
    assert s.payments == (90, -74, -8, -8)
    w = withheld(s)
    for fan in ("all_pungs", "concealed_hand", "three_concealed_pungs", "two_concealed_pungs"):
        assert w[fan] == "four_concealed_pungs"


def test_four_concealed_pungs_lost_when_the_discard_completes_a_pung(mcr):
    # Concealed 2m2m2m 5m5m5m 3p3p3p 7s7s 9p9p, wins on 7s from seat 1: the 7s pung is completed by the
    # discard, so it is not concealed: three concealed pungs only. Waits 7s / 9p (two types): no wait fan.
    #   Three concealed pungs (222m 555m 333p) ........................... 16
    #   Two concealed pungs: included ..................................... withheld
    #   All pungs (four pungs + pair) ...................................... 6
    #   Concealed hand (no melds, discard win) ............................. 2
    #   No honors .......................................................... 1
    # Total 16 + 6 + 2 + 1 = 25.
    s = score(mcr, "2m2m2m5m5m5m3p3p3p7s7s9p9p", win="7s", discard=1)
    assert s.valid
    assert fans(s) == {"three_concealed_pungs": 16, "all_pungs": 6, "concealed_hand": 2, "no_honors": 1}
    assert s.total == 25


# ---------------------------------------------------------------------------------- Four pure shifted pungs (48)

def test_four_pure_shifted_pungs_excludes_all_pungs(mcr):
    # [2m2m2m] [3m3m3m] [4m4m4m] + concealed 5m5m 9p9p, wins on 5m from seat 2 (shanpon 5m/9p: no wait fan;
    # the discard-completed 555m is not concealed, so no concealed pungs at all).
    #   Four pure shifted pungs: 222 333 444 555m ........................ 48
    #   Pure shifted pungs: included (implies) ............................ withheld
    #   All pungs ......................................................... withheld (excludes)
    #   One voided suit (m, p) ............................................. 1
    #   No honors .......................................................... 1
    #   not: All simples (9p), Full flush (9p).
    # Total 48 + 1 + 1 = 50. Seat 2 pays 58: winner +74.
    s = score(mcr, "5m5m9p9p", win="5m", melds=["pung:2m2m2m", "pung:3m3m3m", "pung:4m4m4m"], discard=2)
    assert s.valid
    assert fans(s) == {"four_pure_shifted_pungs": 48, "one_voided_suit": 1, "no_honors": 1}
    assert s.total == 50
    assert s.payments == (74, -8, -58, -8)
    assert withheld(s)["pure_shifted_pungs"] == "four_pure_shifted_pungs"
    assert withheld(s)["all_pungs"] == "four_pure_shifted_pungs"


def test_four_pure_shifted_pungs_pure_triple_chow_is_another_interpretation(mcr):
    # The exclusion of Pure triple chow can never be seen: Four pure shifted pungs has four pungs and no chow,
    # while Pure triple chow needs three chows. 222333444555m CAN be read as 234m x3 + 555m, but that is a
    # different interpretation, and fans of different interpretations are never combined.
    # Concealed 2m2m2m 3m3m3m 4m4m4m 5m5m5m 9p, self-drawn 9p. Waits: the lone 9p pairs only with 9p: {9p}.
    # (a) 222 333 444 555m 99p, all concealed (self-drawn):
    #   Four concealed pungs 64 (All pungs, Three / Two concealed pungs withheld)
    #   Four pure shifted pungs 48 (Pure shifted pungs withheld)
    #   Fully concealed hand 4 (Self drawn withheld) ; Single wait 1 ; One voided suit 1 ; No honors 1
    #   = 64 + 48 + 4 + 1 + 1 + 1 = 119
    # (b) 234m x3 + 555m + 99p: Pure triple chow 24 + Fully concealed 4 + Single wait 1 + One voided 1
    #   + No honors 1 = 31; (c) 222m + 345m x3: the same 31.
    # Best (a): 119. Each opponent pays 127: winner +381.
    s = score(mcr, "2m2m2m3m3m3m4m4m4m5m5m5m9p", win="9p")
    assert s.valid
    assert fans(s) == {"four_concealed_pungs": 64, "four_pure_shifted_pungs": 48, "fully_concealed_hand": 4,
                       "single_wait": 1, "one_voided_suit": 1, "no_honors": 1}
    assert s.total == 119
    assert s.payments == (381, -127, -127, -127)
    w = withheld(s)
    assert "pure_triple_chow" not in w
    assert w["pure_shifted_pungs"] == "four_pure_shifted_pungs"
    assert w["self_drawn"] == "fully_concealed_hand"
    # All pungs is excluded by both 64- and 48-point fans; the 64-point fan is counted first.
    assert w["all_pungs"] == "four_concealed_pungs"


# ------------------------------------------------------------------------------- All terminals and honors (32)

def test_all_terminals_and_honors_excludes_all_pungs_and_terminal_pungs(mcr):
    # [1m1m1m] [9p9p9p] [2z2z2z] + concealed 3z3z 5z5z, wins on 3z from seat 3 (shanpon 3z/5z: no wait fan).
    # Seat East, round East: South and West are not value winds.
    #   All terminals and honors (1m 9p + winds + white dragon) .......... 32
    #   All pungs ......................................................... withheld (excludes)
    #   Pung of terminals or honors: 111m 999p SSS WWW ................... withheld (excludes)
    #   Outside hand: included (implies) ................................... withheld
    #   One voided suit (m, p) ............................................. 1
    #   not: Dragon pung (5z only a pair), Big three winds (two winds), Half flush (two suits),
    #        concealed pungs (333z completed by the discard).
    # Total 32 + 1 = 33. Seat 3 pays 41: winner +57.
    s = score(mcr, "3z3z5z5z", win="3z", melds=["pung:1m1m1m", "pung:9p9p9p", "pung:2z2z2z"], discard=3)
    assert s.valid
    assert fans(s) == {"all_terminals_and_honors": 32, "one_voided_suit": 1}
    assert s.total == 33
    assert s.payments == (57, -8, -8, -41)
    w = withheld(s)
    for fan in ("all_pungs", "pung_of_terminals_or_honors", "outside_hand"):
        assert w[fan] == "all_terminals_and_honors"


# ------------------------------------------------------------------------------------------ All even pungs (24)

def test_all_even_pungs_excludes_all_pungs_and_all_simples(mcr):
    # [2m2m2m] [4p4p4p] [6s6s6s] + concealed 8m8m 2p2p, wins on 8m from seat 1 (shanpon 8m/2p).
    #   All even pungs ..................................................... 24
    #   All pungs, All simples ............................................. withheld (excludes)
    #   No honors: included (implies) ....................................... withheld
    #   not: Double pung (ranks 2 4 6 8 all different), Mixed shifted pungs (steps of 2),
    #        One voided suit (three suits), concealed pungs (888m completed by the discard).
    # Total 24.
    s = score(mcr, "8m8m2p2p", win="8m", melds=["pung:2m2m2m", "pung:4p4p4p", "pung:6s6s6s"], discard=1)
    assert s.valid
    assert fans(s) == {"all_even_pungs": 24}
    assert s.total == 24
    w = withheld(s)
    for fan in ("all_pungs", "all_simples", "no_honors"):
        assert w[fan] == "all_even_pungs"


# -------------------------------------------------------------------------------------- Pure shifted pungs (24)

def test_pure_shifted_pungs(mcr):
    # [5p5p5p] [6p6p6p] + concealed 7p7p 2m3m4m 1s1s, wins on 7p from seat 1 (shanpon 7p/1s).
    #   Pure shifted pungs: 555 666 777p ................................... 24
    #   No honors .......................................................... 1
    #   not: concealed pungs (777p completed by the discard), All pungs (234m chow),
    #        One voided suit (m, p, s), All simples (1s), Pung of terminals (1s is the pair).
    # Total 24 + 1 = 25.
    s = score(mcr, "7p7p2m3m4m1s1s", win="7p", melds=["pung:5p5p5p", "pung:6p6p6p"], discard=1)
    assert s.valid
    assert fans(s) == {"pure_shifted_pungs": 24, "no_honors": 1}
    assert s.total == 25


def test_pure_shifted_pungs_pure_triple_chow_is_another_interpretation(mcr):
    # The exclusion of Pure triple chow can never be seen: with three pungs the hand has at most one chow.
    # 555666777p is also 567p x3, but in another interpretation, which is scored separately.
    # [2m3m4m] + concealed 5p5p5p 6p6p6p 7p7p7p 9s, wins on 9s from seat 2.
    # Waits: the lone 9s pairs only with 9s: {9s}.
    # (a) 555 666 777p + 99s: Pure shifted pungs 24 ; Three concealed pungs 16 (won on the pair; Two concealed
    #     pungs withheld) ; Single wait 1 ; No honors 1 = 42.
    # (b) 567p x3 + 99s: Pure triple chow 24 ; All chows 2 (No honors withheld) ; Single wait 1 = 27.
    # Best (a): 42. Seat 2 pays 50: winner +66.
    s = score(mcr, "5p5p5p6p6p6p7p7p7p9s", win="9s", melds=["chow:2m3m4m"], discard=2)
    assert s.valid
    assert fans(s) == {"pure_shifted_pungs": 24, "three_concealed_pungs": 16, "single_wait": 1, "no_honors": 1}
    assert s.total == 42
    assert s.payments == (66, -8, -50, -8)
    assert "pure_triple_chow" not in withheld(s)
    assert withheld(s)["two_concealed_pungs"] == "three_concealed_pungs"


# ------------------------------------------------------------------------------------------- Lower tiles (24)

def test_lower_tiles_excludes_no_honors_and_includes_lower_four(mcr):
    # [1m2m3m] [1p2p3p] [3s3s3s] + concealed 2s2s 1s1s, wins on 2s from seat 1 (shanpon 2s/1s).
    #   Lower tiles: only ranks 1 2 3 ..................................... 24
    #   Lower four: included (implies) ..................................... withheld
    #   No honors .......................................................... withheld (excludes)
    #   Mixed double chow: 123m + 123p ...................................... 1
    #   not: Double pung (333s / 222s same suit), Pung of terminals (1s pair), Outside hand (333s),
    #        Tile hog (no 4 copies), concealed pungs (222s completed by the discard).
    # Total 24 + 1 = 25.
    s = score(mcr, "2s2s1s1s", win="2s", melds=["chow:1m2m3m", "chow:1p2p3p", "pung:3s3s3s"], discard=1)
    assert s.valid
    assert fans(s) == {"lower_tiles": 24, "mixed_double_chow": 1}
    assert s.total == 25
    assert withheld(s)["no_honors"] == "lower_tiles"
    assert withheld(s)["lower_four"] == "lower_tiles"


# ------------------------------------------------------------------------------------- Pure shifted chows (16)

def test_pure_shifted_chows(mcr):
    # [2s3s4s] [4s5s6s] + concealed 7s8s 5p5p5p 9m9m, wins on 6s from seat 1 (78s waits 6s/9s: open).
    #   Pure shifted chows: 234 456 678s, starts stepping by 2 ............ 16
    #   No honors .......................................................... 1
    #   not: Short straight (no two chows 3 apart), One voided suit (three suits), All simples (9m),
    #        Pure straight (no 123/789).
    # Total 16 + 1 = 17.
    s = score(mcr, "7s8s5p5p5p9m9m", win="6s", melds=["chow:2s3s4s", "chow:4s5s6s"], discard=1)
    assert s.valid
    assert fans(s) == {"pure_shifted_chows": 16, "no_honors": 1}
    assert s.total == 17


# ---------------------------------------------------------------------------------- Three concealed pungs (16)

def test_three_concealed_pungs_includes_two_concealed_pungs(mcr):
    # [7m8m9m] + concealed 2m2m2m 4p4p4p 6s6s 9p9p, self-drawn 6s (shanpon 6s/9p: no wait fan).
    # Self-drawn, so 666s is concealed too: 222m 444p 666s.
    #   Three concealed pungs ............................................. 16
    #   Two concealed pungs: included (implies) ............................ withheld
    #   Self drawn ......................................................... 1
    #   No honors .......................................................... 1
    #   not: Fully concealed hand (exposed chow), Pung of terminals (99p pair), Double pung (2 4 6).
    # Total 16 + 1 + 1 = 18. Each opponent pays 26: winner +78.
    s = score(mcr, "2m2m2m4p4p4p6s6s9p9p", win="6s", melds=["chow:7m8m9m"])
    assert s.valid
    assert fans(s) == {"three_concealed_pungs": 16, "self_drawn": 1, "no_honors": 1}
    assert s.total == 18
    assert s.payments == (78, -26, -26, -26)
    assert withheld(s)["two_concealed_pungs"] == "three_concealed_pungs"


# ------------------------------------------------------------------------------------------- Upper four (12)

def test_upper_four_excludes_no_honors(mcr):
    # [6m7m8m] [7p8p9p] + concealed 7s7s7s 6s6s 9m9m, wins on 6s from seat 1 (shanpon 6s/9m).
    #   Upper four: only ranks 6-9 ........................................ 12
    #   No honors .......................................................... withheld (excludes)
    #   not: Upper tiles (6m, 6s), Mixed double chow (678m / 789p differ), Double pung (777s / 666s),
    #        concealed pungs (only 777s; 666s completed by the discard).
    # Total 12. Seat 1 pays 20: winner +36.
    s = score(mcr, "7s7s7s6s6s9m9m", win="6s", melds=["chow:6m7m8m", "chow:7p8p9p"], discard=1)
    assert s.valid
    assert fans(s) == {"upper_four": 12}
    assert s.total == 12
    assert s.payments == (36, -20, -8, -8)
    assert withheld(s)["no_honors"] == "upper_four"


# ------------------------------------------------------------------------------------------ Mixed straight (8)

def test_mixed_straight(mcr):
    # [1m2m3m] [4p5p6p] + concealed 7s8s 4m4m4m 2p2p, wins on 9s from seat 1 (78s waits 6s/9s: open).
    #   Mixed straight: 123m 456p 789s ..................................... 8
    #   No honors .......................................................... 1
    #   not: Outside hand (444m), One voided suit (three suits), All chows (444m).
    # Total 8 + 1 = 9.
    s = score(mcr, "7s8s4m4m4m2p2p", win="9s", melds=["chow:1m2m3m", "chow:4p5p6p"], discard=1)
    assert s.valid
    assert fans(s) == {"mixed_straight": 8, "no_honors": 1}
    assert s.total == 9


# ------------------------------------------------------------------------------------- Mixed shifted pungs (8)

def test_mixed_shifted_pungs(mcr):
    # [3m3m3m] [4p4p4p] [5s5s5s] + concealed 6m7m 9p9p, wins on 8m from seat 1 (67m waits 5m/8m: open).
    #   Mixed shifted pungs: 3m 4p 5s ...................................... 8
    #   No honors .......................................................... 1
    #   not: All simples (9p), Double pung (ranks differ), concealed pungs (all pungs exposed).
    # Total 8 + 1 = 9.
    s = score(mcr, "6m7m9p9p", win="8m", melds=["pung:3m3m3m", "pung:4p4p4p", "pung:5s5s5s"], discard=1)
    assert s.valid
    assert fans(s) == {"mixed_shifted_pungs": 8, "no_honors": 1}
    assert s.total == 9


# ----------------------------------------------------------------------------------------- Last tile claim (8)

LAST_CLAIM = dict(concealed="7s8s7z7z", win="9s", melds=["chow:2m3m4m", "chow:6p7p8p", "pung:5s5s5s"], discard=2)


def test_last_tile_claim(mcr):
    # [2m3m4m] [6p7p8p] [5s5s5s] + concealed 7s8s 7z7z, wins on 9s discarded by seat 2 after the last wall tile.
    #   Last tile claim .................................................... 8
    #   not: Last tile draw (discard), wait fans (78s waits 6s/9s), No honors (7z), All types (no wind),
    #        Mixed double chow (678p / 789s differ).
    # Total 8: valid. Seat 2 pays 16, seats 1 and 3 pay 8: winner +32.
    s = score(mcr, **LAST_CLAIM, flags=("last_tile",))
    assert s.valid
    assert fans(s) == {"last_tile_claim": 8}
    assert s.total == 8
    assert s.payments == (32, -8, -16, -8)


# -------------------------------------------------------------------------------------- Two concealed kongs (8)

def test_two_concealed_kongs_includes_concealed_kong_and_two_concealed_pungs(mcr):
    # [2m2m2m2m concealed] [7p7p7p7p concealed] [3s4s5s] + concealed 6m7m 9s9s, wins on 8m from seat 1
    # (67m waits 5m/8m: open).
    #   Two concealed kongs ................................................ 8
    #   Concealed kong, Two concealed pungs: included (implies) ............ withheld
    #   No honors .......................................................... 1
    #   not: Concealed hand (exposed chow), Melded kong (no exposed kong), Tile hog (2m and 7p are kongs),
    #        All simples (9s).
    # Total 8 + 1 = 9.
    s = score(mcr, "6m7m9s9s", win="8m",
              melds=["concealed_kong:2m2m2m2m", "concealed_kong:7p7p7p7p", "chow:3s4s5s"], discard=1)
    assert s.valid
    assert fans(s) == {"two_concealed_kongs": 8, "no_honors": 1}
    assert s.total == 9
    assert withheld(s)["concealed_kong"] == "two_concealed_kongs"
    assert withheld(s)["two_concealed_pungs"] == "two_concealed_kongs"


# ------------------------------------------------------------------------------------- Mixed shifted chows (6)

MIXED_SHIFTED = dict(concealed="5s6s7m7m7m5z5z", win="4s", melds=["chow:2m3m4m", "chow:3p4p5p"])


def test_mixed_shifted_chows(mcr):
    # [2m3m4m] [3p4p5p] + concealed 5s6s 7m7m7m 5z5z, wins on 4s from seat 1 (56s waits 4s/7s: open).
    #   Mixed shifted chows: 234m 345p 456s ................................ 6
    #   not: No honors (5z), All types (no wind), Dragon pung (5z pair), Two concealed pungs (only 777m).
    # Total 6: below the 8-point minimum.
    s = score(mcr, **MIXED_SHIFTED, discard=1)
    assert s.valid is False and s.error == "win.minimum_points"
    assert fans(s) == {"mixed_shifted_chows": 6}
    assert s.total == 6


# ---------------------------------------------------------------------------------------- Two dragon pungs (6)

def test_two_dragon_pungs_includes_dragon_pung(mcr):
    # [5z5z5z] [6z6z6z] + concealed 2m3m4m 7p8p 9s9s, wins on 6p from seat 1 (78p waits 6p/9p: open).
    #   Two dragon pungs ................................................... 6
    #   Dragon pung x2: included (implies) ................................. withheld
    #   not: All types (no wind), One voided suit (three suits).
    # Total 6: below the minimum.
    s = score(mcr, "2m3m4m7p8p9s9s", win="6p", melds=["pung:5z5z5z", "pung:6z6z6z"], discard=1)
    assert s.valid is False and s.error == "win.minimum_points"
    assert fans(s) == {"two_dragon_pungs": 6}
    assert s.total == 6
    assert withheld(s)["dragon_pung"] == "two_dragon_pungs"


# ---------------------------------------------------------------------------------------- Two melded kongs (4)

def test_two_melded_kongs_includes_melded_kong(mcr):
    # [3m3m3m3m] [8p8p8p8p] [4s5s6s] + concealed 2p3p 5z5z, wins on 4p from seat 1 (23p waits 1p/4p: open).
    #   Two melded kongs ................................................... 4
    #   Melded kong: included (implies) .................................... withheld
    #   not: No honors (5z), All simples (5z), Tile hog (both 4-copy tiles are kongs).
    # Total 4: below the minimum.
    s = score(mcr, "2p3p5z5z", win="4p", melds=["kong:3m3m3m3m", "kong:8p8p8p8p", "chow:4s5s6s"], discard=1)
    assert s.valid is False and s.error == "win.minimum_points"
    assert fans(s) == {"two_melded_kongs": 4}
    assert s.total == 4
    assert withheld(s)["melded_kong"] == "two_melded_kongs"


# ------------------------------------------------------------------------------------------ Prevalent wind (2)

def test_prevalent_wind(mcr):
    # Seat West, round South. [2z2z2z] [2m3m4m] [5p6p7p] + concealed 7s8s 4z4z, wins on 9s from
    # seat 1 (78s waits 6s/9s: open).
    #   Prevalent wind: South pung in the South round ...................... 2
    #   not: Seat wind (seat West), Pung of terminals or honors (South is a value wind here, so it never
    #        qualifies: not even withheld), North pair scores nothing, All types (no dragon).
    # Total 2: below the minimum.
    s = score(mcr, "7s8s4z4z", win="9s", melds=["pung:2z2z2z", "chow:2m3m4m", "chow:5p6p7p"], discard=1,
              seat="W", round_="S")
    assert s.valid is False and s.error == "win.minimum_points"
    assert fans(s) == {"prevalent_wind": 2}
    assert s.total == 2
    assert "pung_of_terminals_or_honors" not in withheld(s)


def test_prevalent_wind_and_seat_wind_both_count(mcr):
    # Seat East, round East, the same hand with an East pung: [1z1z1z] [2m3m4m] [5p6p7p] + 7s8s 4z4z, 9s from seat 1.
    #   Prevalent wind 2 + Seat wind 2 (the table lists no exclusion between them) = 4: below the minimum.
    s = score(mcr, "7s8s4z4z", win="9s", melds=["pung:1z1z1z", "chow:2m3m4m", "chow:5p6p7p"], discard=1)
    assert s.valid is False and s.error == "win.minimum_points"
    assert fans(s) == {"prevalent_wind": 2, "seat_wind": 2}
    assert s.total == 4


def test_prevalent_wind_counts_with_little_four_winds(mcr):
    # The Little four winds hand above in the South round (seat East): the South pung is now the prevalent wind.
    #   Little four winds 64 (Big three winds and the W / N Pung of terminals or honors withheld)
    #   Half flush 6 ; Prevalent wind 2 (Little four winds does not exclude it; only Big four winds does).
    # Total 64 + 6 + 2 = 72.
    s = score(mcr, "2m3m1z1z", win="4m", melds=["pung:2z2z2z", "pung:3z3z3z", "pung:4z4z4z"], discard=1,
              round_="S")
    assert s.valid
    assert fans(s) == {"little_four_winds": 64, "half_flush": 6, "prevalent_wind": 2}
    assert s.total == 72


# ----------------------------------------------------------------------------------------------- All chows (2)

def test_all_chows_excludes_no_honors(mcr):
    # [1m2m3m] [4p5p6p] + concealed 6s7s8s 3m4m 9p9p, wins on 5m from seat 1 (34m waits 2m/5m: open).
    #   All chows: 123m 345m 456p 678s + 99p ............................... 2
    #   No honors .......................................................... withheld (excludes)
    #   not: Mixed shifted chows (starts 3m 4p but 6s), Short straight (123m/345m are 2 apart),
    #        Mixed double chow (no equal chows), All simples (1m, 9p).
    # Total 2: below the minimum.
    s = score(mcr, "6s7s8s3m4m9p9p", win="5m", melds=["chow:1m2m3m", "chow:4p5p6p"], discard=1)
    assert s.valid is False and s.error == "win.minimum_points"
    assert fans(s) == {"all_chows": 2}
    assert s.total == 2
    assert withheld(s)["no_honors"] == "all_chows"


# -------------------------------------------------------------------------------------- Two concealed pungs (2)

def test_two_concealed_pungs(mcr):
    # [2m3m4m] [6p7p8p] + concealed 3s3s3s 7m7m 9p9p, self-drawn 7m (shanpon 7m/9p): 333s and 777m concealed.
    #   Two concealed pungs ................................................ 2
    #   Self drawn ......................................................... 1
    #   No honors .......................................................... 1
    #   not: Fully concealed hand (exposed chows), All simples (9p).
    # Total 4: below the minimum.
    s = score(mcr, "3s3s3s7m7m9p9p", win="7m", melds=["chow:2m3m4m", "chow:6p7p8p"])
    assert s.valid is False and s.error == "win.minimum_points"
    assert fans(s) == {"two_concealed_pungs": 2, "self_drawn": 1, "no_honors": 1}
    assert s.total == 4


def test_two_concealed_pungs_not_when_the_discard_completes_one(mcr):
    # The same hand won on seat 1's discard: 777m is completed by the discard and is not concealed, so only
    # 333s is concealed: no Two concealed pungs, and no Self drawn. No honors 1. Total 1.
    s = score(mcr, "3s3s3s7m7m9p9p", win="7m", melds=["chow:2m3m4m", "chow:6p7p8p"], discard=1)
    assert s.valid is False and s.error == "win.minimum_points"
    assert fans(s) == {"no_honors": 1}
    assert s.total == 1


# ---------------------------------------------------------------------------------------- Pure double chow (1)

def test_pure_double_chow(mcr):
    # [2m3m4m] [2m3m4m] + concealed 6p6p6p 7s8s 5z5z, wins on 9s from seat 1 (78s waits 6s/9s: open).
    #   Pure double chow ................................................... 1
    #   not: No honors (5z), Tile hog (2 copies each of 2m 3m 4m), All types (no wind).
    # Total 1: below the minimum.
    s = score(mcr, "6p6p6p7s8s5z5z", win="9s", melds=["chow:2m3m4m", "chow:2m3m4m"], discard=1)
    assert s.valid is False and s.error == "win.minimum_points"
    assert fans(s) == {"pure_double_chow": 1}
    assert s.total == 1


# -------------------------------------------------------------------------------------- Two terminal chows (1)

def test_two_terminal_chows(mcr):
    # [1p2p3p] [7p8p9p] + concealed 4m4m4m 5s6s 5z5z, wins on 7s from seat 1 (56s waits 4s/7s: open).
    #   Two terminal chows: 123p + 789p ..................................... 1
    #   not: Outside hand (444m, 567s), No honors (5z).
    # Total 1: below the minimum.
    s = score(mcr, "4m4m4m5s6s5z5z", win="7s", melds=["chow:1p2p3p", "chow:7p8p9p"], discard=1)
    assert s.valid is False and s.error == "win.minimum_points"
    assert fans(s) == {"two_terminal_chows": 1}
    assert s.total == 1


# ----------------------------------------------------------------------------------------- One voided suit (1)

def test_one_voided_suit(mcr):
    # [2m3m4m] [6p7p8p] + concealed 7m7m7m 4p5p 5z5z, wins on 6p from seat 1 (45p waits 3p/6p: open).
    # Suits: characters and dots, no bamboo.
    #   One voided suit .................................................... 1
    #   not: Short straight (456p / 678p are 2 apart), No honors (5z).
    # Total 1: below the minimum.
    s = score(mcr, "7m7m7m4p5p5z5z", win="6p", melds=["chow:2m3m4m", "chow:6p7p8p"], discard=1)
    assert s.valid is False and s.error == "win.minimum_points"
    assert fans(s) == {"one_voided_suit": 1}
    assert s.total == 1


# --------------------------------------------------------------------------------------------- Closed wait (1)

def test_closed_wait(mcr):
    # [2m3m4m] [6p7p8p] + concealed 4s6s 7m7m7m 5z5z, wins on 5s from seat 1.
    # Waits: 46s needs 5s; nothing else completes (7777m or 555z still leave 46s): {5s}.
    #   Closed wait: 5s is the middle of 456s, one waiting type ............. 1
    #   not: Mixed shifted chows (starts 2m 6p 4s: not consecutive), No honors (5z).
    # Total 1: below the minimum.
    s = score(mcr, "4s6s7m7m7m5z5z", win="5s", melds=["chow:2m3m4m", "chow:6p7p8p"], discard=1)
    assert s.valid is False and s.error == "win.minimum_points"
    assert fans(s) == {"closed_wait": 1}
    assert s.total == 1


def test_closed_wait_not_when_waiting_on_two_tile_types(mcr):
    # [2m3m4m] [6p7p8p] [7m7m7m] + concealed 3s5s5s5s, wins on 4s from seat 1.
    # Waits: 4s (345s + 55s) and 3s (33s + 555s): two tile types. The 4s can only sit in the middle of 345s,
    # but with two waiting types there is no Closed wait.
    #   All simples: every tile is 2-8 (my first count gave No honors 1 and missed this) ... 2
    #   No honors: included in All simples ................................. withheld
    #   not: Mixed shifted chows (234m 345s 678p: 2 3 6).
    # Total 2: below the minimum.
    s = score(mcr, "3s5s5s5s", win="4s", melds=["chow:2m3m4m", "chow:6p7p8p", "pung:7m7m7m"], discard=1)
    assert s.valid is False and s.error == "win.minimum_points"
    assert fans(s) == {"all_simples": 2}
    assert s.total == 2
    assert "closed_wait" not in withheld(s)


# -------------------------------------------------------------------------------------------- Flower tiles (1)

def test_flower_tiles_added_after_the_minimum(mcr):
    # The Last tile claim hand (8 qualifying points) with two flowers.
    #   Last tile claim 8 ; Flower tiles 2 x 1 = 2. Total 10, qualifying 8: valid.
    # Seat 2 pays 8 + 10 = 18, seats 1 and 3 pay 8: winner +34.
    s = score(mcr, **LAST_CLAIM, flags=("last_tile",), flowers="1f2f")
    assert s.valid
    assert fans(s) == {"last_tile_claim": 8, "flower_tiles": 2}
    assert s.total == 10
    assert s.payments == (34, -8, -18, -8)


def test_flower_tiles_do_not_unlock_the_minimum(mcr):
    # The Mixed shifted chows hand, self-drawn, with one flower:
    #   Mixed shifted chows 6 ; Self drawn 1 -> 7 qualifying points ; Flower tiles 1.
    # "Seven points plus one flower is not a qualifying win": total 8, but invalid.
    s = score(mcr, **MIXED_SHIFTED, flowers="3f")
    assert s.valid is False and s.error == "win.minimum_points"
    assert fans(s) == {"mixed_shifted_chows": 6, "self_drawn": 1, "flower_tiles": 1}
    assert s.total == 8
