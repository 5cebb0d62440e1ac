"""The MCR guide's own worked examples (002_3a615137eafec6e0.txt), reproduced exactly."""
from __future__ import annotations

import pytest

from checker.engine import HandError
from mcr_helpers import fans, hand, score, withheld

# "Regular hands and useful comparisons": 2p 3p 4p 2s 3s 4s 6m 6m 6m 5p 5p with a called chow (234m).
REGULAR = dict(concealed="2p3p4p2s3s4s6m6m6m5p", win="5p", melds=["chow:234m"])


def test_regular_self_draw_scores_11(mcr):
    # Cited: "Total · points: 11 — Mixed triple chow 8, All simples 2, Self drawn 1; +57 / -19 / -19 / -19".
    # By hand: 234m 234p 234s = Mixed triple chow 8; every tile 2-8 = All simples 2; Self drawn 1.
    #   Mixed double chow is included in Mixed triple chow; No honors is included in All simples.
    #   No Single wait: before the win 2p3p4p5p waits on 2p (22p+345p) and 5p (234p+55p).
    #   No Concealed/Fully concealed hand: the 234m chow is exposed.
    # Total 8 + 2 + 1 = 11. Each opponent pays 8 + 11 = 19; the winner gets 3 x 19 = 57.
    s = score(mcr, **REGULAR)
    assert s.valid
    assert fans(s) == {"mixed_triple_chow": 8, "all_simples": 2, "self_drawn": 1}
    assert s.total == 11
    assert s.payments == (57, -19, -19, -19)
    assert withheld(s)["mixed_double_chow"] == "mixed_triple_chow"
    assert withheld(s)["no_honors"] == "all_simples"


def test_regular_discard_win_scores_10(mcr):
    # Cited: "Same hand, discard win ... Player 1 ... Total · points: 10 ... +34 / -18 / -8 / -8".
    # By hand: as above without Self drawn: 8 + 2 = 10. Player 1 pays 8 + 10 = 18, players 2 and 3 pay 8;
    # the winner gets 18 + 8 + 8 = 34.
    s = score(mcr, **REGULAR, discard=1)
    assert fans(s) == {"mixed_triple_chow": 8, "all_simples": 2}
    assert s.total == 10
    assert s.payments == (34, -18, -8, -8)


def test_one_tile_missing_is_rejected():
    # Cited: "One tile missing ... Invalid tile count or identity." 9 concealed + 1 winning + 3 in the chow = 13.
    with pytest.raises(HandError) as info:
        hand("2p3p4p2s3s4s6m6m6m", win="5p", melds=["chow:234m"])
    assert info.value.rule == "tiles.hand_size"
    assert "13" in str(info.value)


def test_four_concealed_pungs_example_scores_79(mcr):
    # Cited: "1m 1m 1m 2m 2m 2m 3p 3p 3p 4s 4s 4s 5m 5m ... 79 qualifying points ... Each opponent pays
    # 8 + 79 = 87; winner receives 261 points", and the FAQ: it "includes 4 points for Fully Concealed Hand;
    # it does not also add Self-Drawn".
    # By hand: 111m 222m 333p 444s all concealed, self-drawn = Four concealed pungs 64;
    #   222m 333p 444s one per suit, consecutive ranks = Mixed shifted pungs 8;
    #   no exposed set, self-drawn = Fully concealed hand 4 (Self drawn included in it);
    #   111m = Pung of terminals 1; no winds or dragons = No honors 1;
    #   the hand waited on 5m alone (1112225m + pungs) = Single wait 1.
    #   All pungs, Three and Two concealed pungs are included in Four concealed pungs.
    # Total 64 + 8 + 4 + 1 + 1 + 1 = 79; 3 x 87 = 261.
    s = score(mcr, "1m1m1m2m2m2m3p3p3p4s4s4s5m", win="5m")
    assert fans(s) == {"four_concealed_pungs": 64, "mixed_shifted_pungs": 8, "fully_concealed_hand": 4,
                       "pung_of_terminals_or_honors": 1, "no_honors": 1, "single_wait": 1}
    assert s.total == 79
    assert s.payments == (261, -87, -87, -87)
    assert withheld(s)["self_drawn"] == "fully_concealed_hand"


# A hand built to hold exactly 7 qualifying points ("7 + 1 flower ... cannot declare a win"):
# exposed pungs 222m 555p 888s, concealed 9m9m + White pair, winning 9m on player 2's discard.
SEVEN_POINTS = dict(concealed="9m9m5z5z", win="9m", melds=["pung:222m", "pung:555p", "pung:888s"])


def test_seven_points_plus_a_flower_may_not_win(mcr):
    # By hand: four pungs = All pungs 6; 999m = Pung of terminals 1. 7 qualifying points.
    #   999m was completed by a discard, so no concealed pungs; the hand waited on 9m and 5z (no Single wait);
    #   all three suits are present (no One voided suit); White is an honour (no No honors, no All simples).
    # Flower 1f adds 1: total 8, but only 7 qualify, below the 8-point minimum.
    s = score(mcr, **SEVEN_POINTS, discard=2, flowers="1f")
    assert fans(s) == {"all_pungs": 6, "pung_of_terminals_or_honors": 1, "flower_tiles": 1}
    assert (s.qualifying, s.total) == (7, 8)
    assert not s.valid and s.error == "win.minimum_points"


def test_eight_points_plus_a_flower_scores_9(mcr):
    # The same tiles self-drawn: All pungs 6 + Pung of terminals 1 + Self drawn 1 = 8 qualifying
    # (999m is now a concealed pung, but one concealed pung scores nothing). Flower 1f: 8 + 1 = 9.
    # Cited: "eight points plus one flower gives a final nine-point hand". Each opponent pays 8 + 9 = 17.
    s = score(mcr, **SEVEN_POINTS, flowers="1f")
    assert fans(s) == {"all_pungs": 6, "pung_of_terminals_or_honors": 1, "self_drawn": 1, "flower_tiles": 1}
    assert (s.qualifying, s.total) == (8, 9)
    assert s.valid and s.payments == (51, -17, -17, -17)


def test_eight_point_payment_examples(mcr):
    # Cited: "an eight-point self-draw receives 16 from each of three opponents, for +48. Winning on a
    # discard receives 16 from the discarder and 8 from each other opponent, for +32."
    # Self-draw at 8: the hand above without its flower: 6 + 1 + 1 = 8; each pays 8 + 8 = 16.
    s = score(mcr, **SEVEN_POINTS)
    assert s.total == 8 and s.payments == (48, -16, -16, -16)
    # Discard at 8: a Chicken hand. Exposed chows 123m and 456p, concealed 222s 78s + White pair, winning 6s
    # on player 1's discard. No fan at all: the chows share no rank or suit pattern, the hand has an honour,
    # all three suits, an exposed meld, a two-sided wait (6s or 9s), no terminal pung: Chicken hand 8.
    # Player 1 pays 8 + 8 = 16, the others 8: 16 + 8 + 8 = 32.
    s = score(mcr, "2s2s2s7s8s5z5z", win="6s", melds=["chow:123m", "chow:456p"], discard=1)
    assert fans(s) == {"chicken_hand": 8}
    assert s.payments == (32, -16, -8, -8)
