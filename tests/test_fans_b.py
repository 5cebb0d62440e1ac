"""Hand-worked scoring tests for 27 MCR fans (group B), in the guide's table order.

Every expected value below was worked out by hand from the guide's "Patterns and scoring table" and the
fan's entry in spec/mcr.yaml (points, excludes, implies, implies_within), never copied from the engine.
Each comment lists the hand's groups, the tiles it waits on before the winning tile (wait fans need a
single tile type), every fan with its points, the fans found but not counted and why, and the total.

Default options throughout: seat East, prevalent wind East, no flowers, non_repeat_reading
table_plus_implied (a counted fan also keeps the closure of its excludes + implies from counting).

Exclusions that can never hold in the same interpretation as the fan that lists them are documented in
`test_quadruple_chow_pung_reading_is_a_different_interpretation`,
`test_pure_triple_chow_and_pure_shifted_pungs_never_share_an_interpretation` and
`test_three_suited_terminal_chows_cannot_hold_a_pure_double_chow`.
"""
from __future__ import annotations

from mcr_helpers import fans, score, withheld


# --------------------------------------------------------------------------- Big three dragons (88)

def test_big_three_dragons(mcr):
    # [555z] [666z] [777z] exposed, concealed 234m (4m won on seat 1's discard) + pair 66p.
    # Before the win: 2m3m + 6p6p + three melds -> waits 1m and 4m (open wait, no wait fan).
    #   Big three dragons ........................ 88
    #   One voided suit (m and p only, no s) ...... 1
    # Not counted: Two dragon pungs (6) and Dragon pung (2 x 3) - both in Big three dragons' excludes.
    # No concealed hand (exposed melds), no self drawn, no outside hand (234m), no no-honors.
    # Total 88 + 1 = 89.
    s = score(mcr, "2m3m6p6p", win="4m", melds=["pung:555z", "pung:666z", "pung:777z"], discard=1)
    assert s.valid
    assert fans(s) == {"big_three_dragons": 88, "one_voided_suit": 1}
    assert s.total == 89
    assert withheld(s)["two_dragon_pungs"] == "big_three_dragons"
    assert withheld(s)["dragon_pung"] == "big_three_dragons"
    # discard: seat 1 pays 8 + 89, the other two pay 8 each.
    assert s.payments == (97 + 8 + 8, -97, -8, -8)


# --------------------------------------------------------------------------- Four kongs (88)

def test_four_kongs(mcr):
    # Four exposed kongs [2222m] [5555p] [8888s] [3333s], pair 6m6m, 6m self-drawn.
    # Before the win the hand is one lone 6m: waits on 6m only -> Single wait found.
    #   Four kongs ............................... 88
    #   All simples (2, 3, 5, 6, 8 only) ......... 2
    #   Self drawn ................................ 1
    # Not counted: Single wait (Four kongs' excludes); Three kongs, Two melded kongs, Melded kong and
    # All pungs (Four kongs implies them); No honors (implied by All simples).
    # No double pung (ranks 2, 5, 8, 3 all differ), no shifted pungs, no fully concealed hand (exposed).
    # Total 88 + 2 + 1 = 91.
    s = score(mcr, "6m", win="6m", melds=["kong:2222m", "kong:5555p", "kong:8888s", "kong:3333s"])
    assert s.valid
    assert fans(s) == {"four_kongs": 88, "all_simples": 2, "self_drawn": 1}
    assert s.total == 91
    w = withheld(s)
    assert w["single_wait"] == "four_kongs"
    for implied in ("three_kongs", "two_melded_kongs", "melded_kong", "all_pungs"):
        assert w[implied] == "four_kongs"
    assert w["no_honors"] == "all_simples"
    assert s.payments == (3 * 99, -99, -99, -99)


def test_four_kongs_with_concealed_kongs(mcr):
    # Same tiles, but 2222m and 5555p are concealed kongs; 8888s, 3333s exposed; 6m self-drawn.
    #   Four kongs 88 + All simples 2 + Self drawn 1 + Two concealed pungs 2 (the two concealed kongs) = 93.
    # Not counted: the kong fans formed from Four kongs' own kongs (spec implies_within: Three kongs,
    # Two concealed kongs, Concealed kong, Two melded kongs, Melded kong), All pungs (implies), Single wait
    # (excludes; the hand waited on 6m alone). Two concealed pungs is not part of Four kongs by definition
    # and counts, as in the common MCR calculators (ChineseOfficialMahjongHelper: Four kongs + Two concealed
    # pungs for two concealed kongs). Two exposed kongs -> no Fully concealed hand.
    s = score(mcr, "6m", win="6m",
              melds=["concealed_kong:2222m", "concealed_kong:5555p", "kong:8888s", "kong:3333s"])
    assert s.valid
    assert fans(s) == {"four_kongs": 88, "all_simples": 2, "self_drawn": 1, "two_concealed_pungs": 2}
    assert s.total == 93
    w = withheld(s)
    for implied in ("two_concealed_kongs", "concealed_kong", "three_kongs",
                    "two_melded_kongs", "melded_kong", "all_pungs", "single_wait"):
        assert w[implied] == "four_kongs"


# --------------------------------------------------------------------------- All terminals (64)

def test_all_terminals(mcr):
    # [111m] [999m] [111p] exposed, concealed 9s9s + 9p9p, 9s won on seat 1's discard.
    # Before the win: 9s9s 9p9p -> waits on 9s and 9p (no wait fan; the 9s pung is a "pung" wait).
    # Groups: 111m 999m 111p 999s(discard) + pair 9p.  Tiles only 1s and 9s, three suits.
    #   All terminals ............................ 64
    # Not counted, all by All terminals: All pungs, Outside hand, Pung of terminals or honors (x4),
    # No honors (its excludes) and Double pung (111m+111p, 999m+999s; its implies).
    # All terminals and honors needs an honor: not found. No concealed pungs (exposed / discard-completed).
    # Total 64.
    s = score(mcr, "9s9s9p9p", win="9s", melds=["pung:111m", "pung:999m", "pung:111p"], discard=1)
    assert s.valid
    assert fans(s) == {"all_terminals": 64}
    assert s.total == 64
    w = withheld(s)
    for excluded in ("all_pungs", "outside_hand", "pung_of_terminals_or_honors", "no_honors", "double_pung"):
        assert w[excluded] == "all_terminals"
    assert "all_terminals_and_honors" not in w  # needs both terminals and honors: never with All terminals


# --------------------------------------------------------------------------- All honors (64)

def test_all_honors(mcr):
    # [222z] [333z] [555z] exposed, concealed 6z6z + 4z4z, 6z won on seat 1's discard (waits 6z / 4z).
    # Groups: S pung, W pung, White pung, Green pung (discard), pair N. Seat E, round E: S and W are
    # non-value winds.
    #   All honors ............................... 64
    #   Two dragon pungs (White, Green) .......... 6
    # Not counted: All pungs, Outside hand, Pung of terminals or honors (S, W) - All honors' excludes;
    # Dragon pung x2 - implied by Two dragon pungs. Only two dragon pungs and a wind pair: no Little three
    # dragons; two wind pungs: no Big three winds. No suits: no One voided suit, no Half flush.
    # All terminals and honors needs a terminal: not found.
    # Total 64 + 6 = 70.
    s = score(mcr, "6z6z4z4z", win="6z", melds=["pung:222z", "pung:333z", "pung:555z"], discard=1)
    assert s.valid
    assert fans(s) == {"all_honors": 64, "two_dragon_pungs": 6}
    assert s.total == 70
    w = withheld(s)
    for excluded in ("all_pungs", "outside_hand", "pung_of_terminals_or_honors"):
        assert w[excluded] == "all_honors"
    assert w["dragon_pung"] == "two_dragon_pungs"
    assert "all_terminals_and_honors" not in w


# --------------------------------------------------------------------------- Quadruple chow (48)

def test_quadruple_chow(mcr):
    # [345m] [345m] exposed chows, concealed 345m + 34m + 8p8p, 5m won on seat 1's discard.
    # Before the win: 3m4m5m3m4m 8p8p -> waits 2m (234m+345m) and 5m -> open wait, no wait fan.
    # Groups: 345m x4 + pair 8p. 3m, 4m, 5m: four copies each, none in a kong.
    #   Quadruple chow ........................... 48
    #   All chows (four chows, numbered pair) .... 2
    #   All simples ............................... 2
    #   One voided suit (m, p) .................... 1
    # Not counted: Pure triple chow (implied), Pure double chow and Tile hog x3 (excludes) - by Quadruple
    # chow; No honors - by All chows (its excludes; All chows comes before All simples, both 2 points).
    # Total 48 + 2 + 2 + 1 = 53.
    s = score(mcr, "3m4m5m3m4m8p8p", win="5m", melds=["chow:345m", "chow:345m"], discard=1)
    assert s.valid
    assert fans(s) == {"quadruple_chow": 48, "all_chows": 2, "all_simples": 2, "one_voided_suit": 1}
    assert s.total == 53
    w = withheld(s)
    for excluded in ("pure_triple_chow", "pure_double_chow", "tile_hog"):
        assert w[excluded] == "quadruple_chow"
    assert w["no_honors"] == "all_chows"


def test_quadruple_chow_pung_reading_is_a_different_interpretation(mcr):
    # Concealed 3333m 4444m 555m + 8p8p, 5m self-drawn. Waits before the win: 2m, 5m, 8p (no wait fan).
    # Three readings:
    #  (a) 345m x4 + 8p8p: Quadruple chow 48 + Fully concealed hand 4 + All chows 2 + All simples 2
    #      + One voided suit 1 = 57 (Self drawn implied by Fully concealed; Tile hog x3, Pure triple /
    #      double chow by Quadruple chow; No honors by All chows).
    #  (b) 333m 444m 555m 345m + 8p8p: Pure shifted pungs 24 + Three concealed pungs 16 + Tile hog 2x3
    #      + Fully concealed 4 + All simples 2 + One voided suit 1 = 53.
    #  (c) seven pairs (33 33 44 44 55 55 m, 88p): Seven pairs 24 + Tile hog 6 + Fully concealed 4
    #      + All simples 2 + One voided suit 1 = 37.
    # (a) is the best: 57. Quadruple chow's exclusion of Pure shifted pungs can never apply inside one
    # interpretation (its four chows leave no pung), so Pure shifted pungs is simply absent, not withheld.
    s = score(mcr, "3m3m3m3m4m4m4m4m5m5m5m8p8p", win="5m")
    assert s.valid
    assert fans(s) == {"quadruple_chow": 48, "fully_concealed_hand": 4, "all_chows": 2, "all_simples": 2,
                       "one_voided_suit": 1}
    assert s.total == 57
    w = withheld(s)
    assert w["tile_hog"] == "quadruple_chow"
    assert w["self_drawn"] == "fully_concealed_hand"
    assert "pure_shifted_pungs" not in w and "pure_shifted_pungs" not in fans(s)


# --------------------------------------------------------------------------- Three kongs (32)

def test_three_kongs(mcr):
    # [2222m] [5555p] [8888s] exposed kongs, concealed 3s4s + 6m6m, 5s won on seat 1's discard.
    # Before the win: 3s4s 6m6m -> waits 2s and 5s (no wait fan). Groups: three kongs, 345s, pair 6m.
    #   Three kongs .............................. 32
    #   All simples ............................... 2
    # Not counted: Two melded kongs, Melded kong (implied by Three kongs); No honors (by All simples).
    # Total 32 + 2 = 34.
    s = score(mcr, "3s4s6m6m", win="5s", melds=["kong:2222m", "kong:5555p", "kong:8888s"], discard=1)
    assert s.valid
    assert fans(s) == {"three_kongs": 32, "all_simples": 2}
    assert s.total == 34
    w = withheld(s)
    assert w["two_melded_kongs"] == "three_kongs"
    assert w["melded_kong"] == "three_kongs"
    assert w["no_honors"] == "all_simples"


def test_three_kongs_with_two_concealed_kongs(mcr):
    # As above but 2222m and 5555p are concealed kongs; 8888s exposed; 5s on seat 1's discard.
    #   Three kongs 32 + All simples 2 + Two concealed pungs 2 (the two concealed kongs) = 36.
    # Not counted, by Three kongs (spec implies_within: kong fans made of its own kongs): Two concealed
    # kongs (8), Concealed kong, Melded kong. Two concealed pungs is not a kong fan and counts
    # (ChineseOfficialMahjongHelper gives Three kongs + Two concealed pungs for 2 concealed + 1 exposed kong).
    # One exposed kong -> no Concealed hand.
    s = score(mcr, "3s4s6m6m", win="5s", melds=["concealed_kong:2222m", "concealed_kong:5555p", "kong:8888s"],
              discard=1)
    assert s.valid
    assert fans(s) == {"three_kongs": 32, "all_simples": 2, "two_concealed_pungs": 2}
    assert s.total == 36
    w = withheld(s)
    for implied in ("two_concealed_kongs", "concealed_kong", "melded_kong"):
        assert w[implied] == "three_kongs"


# --------------------------------------------------------------------------- Greater honors and knitted tiles (24)

def test_greater_honors_and_knitted_tiles(mcr):
    # Concealed 1m4m7m 2p5p 3s9s + E S W N White Green, Red (7z) won on seat 1's discard.
    # 14 distinct tiles: all seven honors + seven from the 147m/258p/369s assignment.
    #   Greater honors and knitted tiles ......... 24
    # Not counted: All types (m, p, s, winds, dragons) and Concealed hand (no melds, discard) - its
    # excludes; Lesser honors and knitted tiles - implied. No knitted straight (only 7 knitted tiles).
    # Wait fans never apply to the knitted shape. Total 24.
    s = score(mcr, "1m4m7m2p5p3s9s1z2z3z4z5z6z", win="7z", discard=1)
    assert s.valid
    assert fans(s) == {"greater_honors_and_knitted_tiles": 24}
    assert s.total == 24
    w = withheld(s)
    for excluded in ("all_types", "concealed_hand", "lesser_honors_and_knitted_tiles"):
        assert w[excluded] == "greater_honors_and_knitted_tiles"


# --------------------------------------------------------------------------- Pure triple chow (24)

def test_pure_triple_chow(mcr):
    # [234p] exposed, concealed 234p 234p 6s7s 5m5m, 8s won on seat 1's discard.
    # Before the win: 6s7s -> waits 5s and 8s (no wait fan). Groups: 234p x3, 678s, pair 5m.
    #   Pure triple chow ......................... 24
    #   All chows ................................. 2
    #   All simples ............................... 2
    # Not counted: Pure double chow (x3 pairs of the 234p chows) - Pure triple chow's excludes;
    # No honors - by All chows. Three suits: no One voided suit. Total 24 + 2 + 2 = 28.
    s = score(mcr, "2p3p4p2p3p4p6s7s5m5m", win="8s", melds=["chow:234p"], discard=1)
    assert s.valid
    assert fans(s) == {"pure_triple_chow": 24, "all_chows": 2, "all_simples": 2}
    assert s.total == 28
    w = withheld(s)
    assert w["pure_double_chow"] == "pure_triple_chow"
    assert w["no_honors"] == "all_chows"


def test_pure_triple_chow_and_pure_shifted_pungs_never_share_an_interpretation(mcr):
    # Pure triple chow excludes Pure shifted pungs, but three identical chows leave one set, and Pure
    # shifted pungs needs three pungs: the two are always in different interpretations.
    # Concealed 222p 333p 444p 678s + 5m, 5m won on seat 1's discard. Before the win the hand waits on
    # 5m only (the p tiles and 678s are complete) -> Single wait.
    #  (a) 234p x3, 678s, 55m: Pure triple chow 24 + All chows 2 + Concealed hand 2 + All simples 2
    #      + Single wait 1 = 31.
    #  (b) 222p 333p 444p (concealed: the discard completed the pair), 678s, 55m: Pure shifted pungs 24
    #      + Three concealed pungs 16 (Two concealed pungs implied) + Concealed hand 2 + All simples 2
    #      + Single wait 1 = 45.
    # (b) wins: 45, and Pure triple chow is absent (not withheld).
    s = score(mcr, "2p2p2p3p3p3p4p4p4p6s7s8s5m", win="5m", discard=1)
    assert s.valid
    assert fans(s) == {"pure_shifted_pungs": 24, "three_concealed_pungs": 16, "concealed_hand": 2,
                       "all_simples": 2, "single_wait": 1}
    assert s.total == 45
    assert "pure_triple_chow" not in withheld(s)


# --------------------------------------------------------------------------- Middle tiles (24)

def test_middle_tiles(mcr):
    # [444m] [666p] [456s] exposed, concealed 5m5m 5p5p, 5p won on seat 1's discard (waits 5m / 5p).
    # Groups: 444m, 666p, 456s, 555p (discard-completed, not concealed), pair 5m. Only 4, 5, 6.
    #   Middle tiles ............................. 24
    # Not counted: All simples and No honors - Middle tiles' excludes.
    # No double pung (ranks 4, 6, 5), no mixed shifted pungs (555p and 666p share a suit), not all pungs
    # (456s chow), no all fives (444m), three suits. Total 24.
    s = score(mcr, "5m5m5p5p", win="5p", melds=["pung:444m", "pung:666p", "chow:456s"], discard=1)
    assert s.valid
    assert fans(s) == {"middle_tiles": 24}
    assert s.total == 24
    w = withheld(s)
    assert w["all_simples"] == "middle_tiles"
    assert w["no_honors"] == "middle_tiles"


# --------------------------------------------------------------------------- Three suited terminal chows (16)

def test_three_suited_terminal_chows(mcr):
    # [123m] exposed, concealed 789m 123p 7p8p 5s5s, 9p won on seat 1's discard.
    # Before the win: 7p8p -> waits 6p and 9p (no edge wait). Groups: 123m 789m 123p 789p + pair 5s.
    #   Three suited terminal chows .............. 16
    # Not counted, by Three suited terminal chows: Two terminal chows (123m+789m, 123p+789p), All chows,
    # No honors (excludes); Mixed double chow (123m+123p, 789m+789p; implied).
    # No outside hand (5s pair). Total 16.
    s = score(mcr, "7m8m9m1p2p3p7p8p5s5s", win="9p", melds=["chow:123m"], discard=1)
    assert s.valid
    assert fans(s) == {"three_suited_terminal_chows": 16}
    assert s.total == 16
    w = withheld(s)
    for excluded in ("two_terminal_chows", "all_chows", "no_honors", "mixed_double_chow"):
        assert w[excluded] == "three_suited_terminal_chows"
    assert s.payments == (24 + 8 + 8, -24, -8, -8)


def test_three_suited_terminal_chows_cannot_hold_a_pure_double_chow(mcr):
    # The guide lists Pure double chow as not counted again, but the fan's four chows are 123 and 789 in
    # each of two suits - no two identical chows in one suit - so Pure double chow can never be found
    # alongside it (the spec's note says the same). Same hand, self-drawn: Three suited terminal chows 16
    # + Fully concealed? no ([123m] exposed) + Self drawn 1 = 17. Before the win: waits 6p, 9p.
    s = score(mcr, "7m8m9m1p2p3p7p8p5s5s", win="9p", melds=["chow:123m"])
    assert s.valid
    assert fans(s) == {"three_suited_terminal_chows": 16, "self_drawn": 1}
    assert s.total == 17
    assert "pure_double_chow" not in withheld(s)


# --------------------------------------------------------------------------- Triple pung (16)

def test_triple_pung(mcr):
    # [333m] [333p] exposed, concealed 3s3s 5p5p 678m, 3s won on seat 1's discard (waits 3s / 5p).
    # Groups: 333m 333p 333s (discard-completed) 678m + pair 5p.
    #   Triple pung .............................. 16
    #   All simples ............................... 2
    # Not counted: Double pung (333m+333p, 333m+333s, 333p+333s) - implied by Triple pung;
    # No honors - by All simples. No concealed pung (melds, and 333s completed by the discard).
    # Total 16 + 2 = 18.
    s = score(mcr, "3s3s5p5p6m7m8m", win="3s", melds=["pung:333m", "pung:333p"], discard=1)
    assert s.valid
    assert fans(s) == {"triple_pung": 16, "all_simples": 2}
    assert s.total == 18
    w = withheld(s)
    assert w["double_pung"] == "triple_pung"
    assert w["no_honors"] == "all_simples"


# --------------------------------------------------------------------------- Knitted straight (12)

def test_knitted_straight(mcr):
    # Concealed 147m 258p 3s6s + 2z2z2z (South) + 4z4z (North), 9s won on seat 1's discard.
    # Groups: knitted straight 147m/258p/369s, South pung, pair North. Before the win: waits on 9s only,
    # but the tile completes a knitted run, which is no edge / closed / single wait.
    #   Knitted straight ......................... 12
    #   Concealed hand (no melds, discard) ....... 2
    #   Pung of terminals or honors (South: not seat E nor round E) .. 1
    # No dragons: no All types. Total 12 + 2 + 1 = 15.
    s = score(mcr, "1m4m7m2p5p8p3s6s2z2z2z4z4z", win="9s", discard=1)
    assert s.valid
    assert fans(s) == {"knitted_straight": 12, "concealed_hand": 2, "pung_of_terminals_or_honors": 1}
    assert s.total == 15


# --------------------------------------------------------------------------- Big three winds (12)

def test_big_three_winds(mcr):
    # [222z] [333z] [444z] exposed (S, W, N: non-value for seat E / round E), concealed 9m9m 5p5p,
    # 9m won on seat 1's discard (waits 9m / 5p). Groups: S, W, N pungs, 999m, pair 5p.
    #   Big three winds .......................... 12
    #   All pungs ................................. 6
    #   One voided suit (m, p) .................... 1
    #   Pung of terminals or honors: 999m only ... 1   (S, W, N are withheld: implies_within)
    # No outside hand (5p pair). Total 12 + 6 + 1 + 1 = 20.
    s = score(mcr, "9m9m5p5p", win="9m", melds=["pung:222z", "pung:333z", "pung:444z"], discard=1)
    assert s.valid
    assert fans(s) == {"big_three_winds": 12, "all_pungs": 6, "one_voided_suit": 1,
                       "pung_of_terminals_or_honors": 1}
    assert s.total == 20
    assert withheld(s)["pung_of_terminals_or_honors"] == "big_three_winds"


def test_big_three_winds_with_seat_wind(mcr):
    # Same hand with seat South: the South pung scores Seat wind instead of Pung of terminals or honors.
    #   Big three winds 12 + All pungs 6 + Seat wind 2 + One voided suit 1
    #   + Pung of terminals or honors (999m; W and N withheld within Big three winds) 1 = 22.
    s = score(mcr, "9m9m5p5p", win="9m", melds=["pung:222z", "pung:333z", "pung:444z"], discard=1, seat="S")
    assert s.valid
    assert fans(s) == {"big_three_winds": 12, "all_pungs": 6, "seat_wind": 2, "one_voided_suit": 1,
                       "pung_of_terminals_or_honors": 1}
    assert s.total == 22
    assert withheld(s)["pung_of_terminals_or_honors"] == "big_three_winds"


# --------------------------------------------------------------------------- Mixed triple chow (8)

def test_mixed_triple_chow(mcr):
    # The guide's own example: [234m] exposed, concealed 234p 234s 666m + 5p, 5p won on seat 1's discard.
    # Before the win: 2p3p4p5p -> waits 2p (22p + 345p) and 5p (234p + 55p): no single wait.
    # Groups: 234m 234p 234s 666m + pair 5p.
    #   Mixed triple chow ......................... 8
    #   All simples ............................... 2
    # Not counted: Mixed double chow (implied); No honors (by All simples). Total 10.
    # Discard: seat 1 pays 8 + 10 = 18, the others 8 -> +34 / -18 / -8 / -8 (as the guide shows).
    s = score(mcr, "2p3p4p2s3s4s6m6m6m5p", win="5p", melds=["chow:234m"], discard=1)
    assert s.valid
    assert fans(s) == {"mixed_triple_chow": 8, "all_simples": 2}
    assert s.total == 10
    w = withheld(s)
    assert w["mixed_double_chow"] == "mixed_triple_chow"
    assert w["no_honors"] == "all_simples"
    assert s.payments == (34, -18, -8, -8)


def test_mixed_triple_chow_self_drawn(mcr):
    # Same hand self-drawn: Mixed triple chow 8 + All simples 2 + Self drawn 1 = 11 (the guide's first
    # example); each opponent pays 8 + 11 = 19 -> +57.
    s = score(mcr, "2p3p4p2s3s4s6m6m6m5p", win="5p", melds=["chow:234m"])
    assert s.valid
    assert fans(s) == {"mixed_triple_chow": 8, "all_simples": 2, "self_drawn": 1}
    assert s.total == 11
    assert s.payments == (57, -19, -19, -19)


# --------------------------------------------------------------------------- Last tile draw (8)

def test_last_tile_draw(mcr):
    # [234m] [777p] exposed, concealed 123s 6s7s 9m9m, 8s self-drawn as the last wall tile.
    # Before the win: 6s7s -> waits 5s and 8s (no wait fan). Groups: 234m 777p 123s 678s + pair 9m.
    #   Last tile draw ............................ 8
    #   No honors ................................. 1
    # Not counted: Self drawn - Last tile draw's excludes. No short straight (123s/678s), no two terminal
    # chows (no 789s), no mixed double chow, no pung of terminals (777p), three suits. Total 9.
    s = score(mcr, "1s2s3s6s7s9m9m", win="8s", melds=["chow:234m", "pung:777p"], flags=("last_tile",))
    assert s.valid
    assert fans(s) == {"last_tile_draw": 8, "no_honors": 1}
    assert s.total == 9
    assert withheld(s)["self_drawn"] == "last_tile_draw"
    assert s.payments == (51, -17, -17, -17)


# --------------------------------------------------------------------------- Robbing the kong (8)

def test_robbing_the_kong(mcr):
    # Same tiles; the 8s is robbed from seat 2's added kong, so its other three copies are visible
    # (flag fourth_tile_visible: Last tile's condition holds).
    #   Robbing the kong .......................... 8
    #   No honors ................................. 1
    # Not counted: Last tile (4) - Robbing the kong's excludes. Exposed melds: no concealed hand.
    # Total 9. Seat 2 pays 8 + 9 = 17, seats 1 and 3 pay 8 -> +33.
    s = score(mcr, "1s2s3s6s7s9m9m", win="8s", melds=["chow:234m", "pung:777p"], robbing_kong=2,
              flags=("fourth_tile_visible",))
    assert s.valid
    assert fans(s) == {"robbing_the_kong": 8, "no_honors": 1}
    assert s.total == 9
    assert withheld(s)["last_tile"] == "robbing_the_kong"
    assert s.payments == (33, -8, -17, -8)


# --------------------------------------------------------------------------- Half flush (6)

def test_half_flush(mcr):
    # [123p] [555z] exposed, concealed 234p 8p8p 6z6z, 8p won on seat 1's discard (waits 8p / 6z).
    # Groups: 123p, White pung, 234p, 888p (discard-completed), pair Green.
    #   Half flush (dots + honors) ................ 6
    #   Dragon pung (White) ....................... 2
    # One suit only: no One voided suit. No short straight (123p/234p), no outside hand (234p).
    # Total 8: exactly the minimum. Seat 1 pays 16, the others 8 -> +32.
    s = score(mcr, "2p3p4p8p8p6z6z", win="8p", melds=["chow:123p", "pung:555z"], discard=1)
    assert s.valid
    assert fans(s) == {"half_flush": 6, "dragon_pung": 2}
    assert s.total == 8
    assert s.payments == (32, -16, -8, -8)


# --------------------------------------------------------------------------- Melded hand (6)

def test_melded_hand(mcr):
    # Four exposed sets [234m] [567p] [888s] [345s], lone 6m; 6m won on seat 3's discard completes the pair.
    # Before the win: waits on 6m only -> Single wait found.
    #   Melded hand ............................... 6
    #   All simples ............................... 2
    # Not counted: Single wait - Melded hand's excludes; No honors - by All simples.
    # No mixed shifted chows (starts 2m, 5p, 3s). Total 8. Seat 3 pays 16 -> +8 / +8 / +16 = +32.
    s = score(mcr, "6m", win="6m", melds=["chow:234m", "chow:567p", "pung:888s", "chow:345s"], discard=3)
    assert s.valid
    assert fans(s) == {"melded_hand": 6, "all_simples": 2}
    assert s.total == 8
    w = withheld(s)
    assert w["single_wait"] == "melded_hand"
    assert w["no_honors"] == "all_simples"
    assert s.payments == (32, -8, -8, -16)


# --------------------------------------------------------------------------- Fully concealed hand (4)

def test_fully_concealed_hand(mcr):
    # No melds; concealed 234m 678m 345p 5s6s 9s9s, 7s self-drawn (waits 4s / 7s: no wait fan).
    # Groups: 234m 678m 345p 567s + pair 9s.
    #   Fully concealed hand ...................... 4
    #   All chows ................................. 2
    # Not counted: Self drawn (implied by Fully concealed hand); No honors (by All chows).
    # No short straight (234m/678m), no mixed double or shifted chows (starts m 2/6, p 3, s 5).
    # Total 6: under the 8-point minimum.
    s = score(mcr, "2m3m4m6m7m8m3p4p5p5s6s9s9s", win="7s")
    assert s.valid is False and s.error == "win.minimum_points"
    assert fans(s) == {"fully_concealed_hand": 4, "all_chows": 2}
    assert s.total == 6
    w = withheld(s)
    assert w["self_drawn"] == "fully_concealed_hand"
    assert w["no_honors"] == "all_chows"


# --------------------------------------------------------------------------- Dragon pung (2)

def test_dragon_pung(mcr):
    # [777z] [234m] [567p] exposed, concealed 3s4s 8m8m, 5s won on seat 1's discard (waits 2s / 5s).
    # Groups: Red pung, 234m, 567p, 345s, pair 8m.
    #   Dragon pung ............................... 2
    # Honors present: no No honors; no winds: no All types. Total 2, under the minimum.
    s = score(mcr, "3s4s8m8m", win="5s", melds=["pung:777z", "chow:234m", "chow:567p"], discard=1)
    assert s.valid is False and s.error == "win.minimum_points"
    assert fans(s) == {"dragon_pung": 2}
    assert s.total == 2


# --------------------------------------------------------------------------- Concealed hand (2)

def test_concealed_hand(mcr):
    # The Fully concealed hand tiles won instead on seat 1's discard (7s; waits 4s / 7s).
    #   Concealed hand ............................ 2
    #   All chows ................................. 2
    # Not counted: No honors (by All chows). Total 4, under the minimum.
    s = score(mcr, "2m3m4m6m7m8m3p4p5p5s6s9s9s", win="7s", discard=1)
    assert s.valid is False and s.error == "win.minimum_points"
    assert fans(s) == {"concealed_hand": 2, "all_chows": 2}
    assert s.total == 4


def test_concealed_hand_with_concealed_kong(mcr):
    # A concealed kong is not an exposed set. [1111p concealed], concealed 234m 678m 5s6s 9s9s, 7s won on
    # seat 1's discard (waits 4s / 7s). Groups: 1111p, 234m, 678m, 567s, pair 9s.
    #   Concealed hand ............................ 2
    #   Concealed kong ............................ 2
    #   Pung of terminals or honors (1111p) ....... 1
    # A kong: no All chows. No honors? yes: no winds / dragons -> No honors ........ 1
    # Total 2 + 2 + 1 + 1 = 6, under the minimum.
    s = score(mcr, "2m3m4m6m7m8m5s6s9s9s", win="7s", melds=["concealed_kong:1111p"], discard=1)
    assert s.valid is False and s.error == "win.minimum_points"
    assert fans(s) == {"concealed_hand": 2, "concealed_kong": 2, "pung_of_terminals_or_honors": 1, "no_honors": 1}
    assert s.total == 6


# --------------------------------------------------------------------------- Double pung (2)

def test_double_pung(mcr):
    # [555m] [234s] exposed, concealed 555p 6m7m 3s3s, 8m won on seat 1's discard (waits 5m / 8m).
    # Groups: 555m, 234s, 555p (concealed), 678m, pair 3s.
    #   Double pung (555m + 555p) ................. 2
    #   All simples ............................... 2
    # Not counted: No honors (by All simples). One concealed pung only. Total 4, under the minimum.
    s = score(mcr, "5p5p5p6m7m3s3s", win="8m", melds=["pung:555m", "chow:234s"], discard=1)
    assert s.valid is False and s.error == "win.minimum_points"
    assert fans(s) == {"double_pung": 2, "all_simples": 2}
    assert s.total == 4


# --------------------------------------------------------------------------- All simples (2)

def test_all_simples(mcr):
    # [234m] [666p] exposed, concealed 345s 5p6p 8m8m, 7p won on seat 1's discard (waits 4p / 7p;
    # 6p is not a wait: all four copies are already in the hand).
    # Groups: 234m, 666p, 345s, 567p, pair 8m.
    #   All simples ............................... 2
    #   Tile hog (6p: pung 666p + the 6p of 567p, four copies, not a kong) .. 2
    # Not counted: No honors - implied by All simples. No mixed shifted chows (starts 2m, 3s, 5p).
    # Total 2 + 2 = 4, under the minimum.
    # (First worked out as 2: I had noted that all four 6p are in the hand - which is why 6p is no wait -
    # but missed that this is exactly Tile hog. Corrected by hand.)
    s = score(mcr, "3s4s5s5p6p8m8m", win="7p", melds=["chow:234m", "pung:666p"], discard=1)
    assert s.valid is False and s.error == "win.minimum_points"
    assert fans(s) == {"all_simples": 2, "tile_hog": 2}
    assert s.total == 4
    assert withheld(s)["no_honors"] == "all_simples"


# --------------------------------------------------------------------------- Short straight (1)

def test_short_straight(mcr):
    # [234m] [567m] exposed, concealed 345p 7s8s 9p9p, 6s won on seat 1's discard (waits 6s / 9s).
    # Groups: 234m, 567m, 345p, 678s, pair 9p.
    #   All chows (four chows, numbered pair) ..... 2
    #   Short straight (234m + 567m) .............. 1
    # Not counted: No honors - All chows' excludes.
    # No mixed shifted chows (one per suit: 2m or 5m, 3p, 6s - never three consecutive starts).
    # Total 2 + 1 = 3, under the minimum.
    # (First worked out as Short straight 1 + No honors 1 = 2: I overlooked that four chows and a 9p pair
    # are All chows, which then keeps No honors from counting. Corrected by hand.)
    s = score(mcr, "3p4p5p7s8s9p9p", win="6s", melds=["chow:234m", "chow:567m"], discard=1)
    assert s.valid is False and s.error == "win.minimum_points"
    assert fans(s) == {"all_chows": 2, "short_straight": 1}
    assert s.total == 3
    assert withheld(s)["no_honors"] == "all_chows"


# --------------------------------------------------------------------------- Melded kong (1)

def test_melded_kong(mcr):
    # [6666p] [234m] exposed, concealed 345s 7m8m 2p2p, 6m won on seat 1's discard (waits 6m / 9m).
    # Groups: 6666p, 234m, 345s, 678m, pair 2p.
    #   Melded kong ............................... 1
    #   All simples ............................... 2
    # Not counted: No honors (by All simples). Total 3, under the minimum.
    s = score(mcr, "3s4s5s7m8m2p2p", win="6m", melds=["kong:6666p", "chow:234m"], discard=1)
    assert s.valid is False and s.error == "win.minimum_points"
    assert fans(s) == {"melded_kong": 1, "all_simples": 2}
    assert s.total == 3


# --------------------------------------------------------------------------- Edge wait (1)

def test_edge_wait(mcr):
    # [456m] [888p] exposed, concealed 1s2s 567p 4m4m, 3s won on seat 1's discard.
    # Before the win: 1s2s can only become 123s; 4m4m is the only pair -> waits on 3s alone: Edge wait.
    # Groups: 456m, 888p, 123s, 567p, pair 4m.
    #   Edge wait ................................. 1
    #   No honors ................................. 1
    # Total 2, under the minimum.
    s = score(mcr, "1s2s5p6p7p4m4m", win="3s", melds=["chow:456m", "pung:888p"], discard=1)
    assert s.valid is False and s.error == "win.minimum_points"
    assert fans(s) == {"edge_wait": 1, "no_honors": 1}
    assert s.total == 2


def test_edge_wait_not_counted_with_two_waiting_tiles(mcr):
    # [456m] [888p] exposed, concealed 1s2s 345s 4m4m, 3s on seat 1's discard.
    # Before the win: 1s2s3s4s5s waits on 3s (123s + 345s) and 6s (123s + 456s): two tile types, so
    # placing the 3s as 12+3 is no Edge wait. Only No honors 1. Total 1.
    s = score(mcr, "1s2s3s4s5s4m4m", win="3s", melds=["chow:456m", "pung:888p"], discard=1)
    assert s.valid is False and s.error == "win.minimum_points"
    assert fans(s) == {"no_honors": 1}
    assert s.total == 1


# --------------------------------------------------------------------------- Self drawn (1)

def test_self_drawn(mcr):
    # The Short straight hand self-drawn: [234m] [567m] exposed, so no Fully concealed hand.
    #   All chows 2 + Short straight 1 + Self drawn 1 = 4 (No honors withheld by All chows), under the
    #   minimum.
    s = score(mcr, "3p4p5p7s8s9p9p", win="6s", melds=["chow:234m", "chow:567m"])
    assert s.valid is False and s.error == "win.minimum_points"
    assert fans(s) == {"all_chows": 2, "short_straight": 1, "self_drawn": 1}
    assert s.total == 4
