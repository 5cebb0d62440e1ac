"""Every option of spec/mcr.yaml: the same hand scored under each reading, showing where they part."""
from __future__ import annotations

import pytest

from checker.engine import Scorer
from mcr_helpers import fans, score, withheld


@pytest.fixture(scope="module")
def under(mcr_ruleset):
    """under(option=value, ...) -> a Scorer with those readings."""
    cache = {}

    def make(**options):
        key = tuple(sorted(options.items()))
        if key not in cache:
            cache[key] = Scorer(mcr_ruleset, options)
        return cache[key]

    return make


def test_every_option_is_tested_here(mcr_ruleset):
    tested = {"non_repeat_reading", "seven_pairs_four_identical", "tile_hog_honors",
              "four_concealed_pungs_with_fully_concealed", "two_concealed_kongs_points",
              "flower_replacement_is_kong_replacement", "wait_fans_single_tile_type",
              "fully_concealed_with_concealed_shapes", "knitted_straight_as_chows", "held_four_is_a_wait",
              "robbing_kong_paid_as", "chicken_hand_scores", "nine_gates_terminal_pungs"}
    # the table procedure's options are tested with game logs (tests/test_table_procedure.py: dead_wall_tiles)
    assert set(mcr_ruleset.scoring_options()) == tested


def test_non_repeat_reading_table_only_parts_from_the_examples(under):
    # Default (table_plus_implied) reproduces the guide's 11 points (see test_examples).
    # table_only withholds only what the "Not counted again" column names:
    #   Mixed triple chow 8, All simples 2, Self drawn 1, and No honors 1 (the All simples row names no
    #   exclusion). Mixed double chow still does not count: its pairs of chows would close a cycle with
    #   the triple chow's three chows (account-once). 8 + 2 + 1 + 1 = 12.
    s = score(under(non_repeat_reading="table_only"), "2p3p4p2s3s4s6m6m6m5p", win="5p", melds=["chow:234m"])
    assert fans(s) == {"mixed_triple_chow": 8, "all_simples": 2, "self_drawn": 1, "no_honors": 1}
    assert s.total == 12
    assert withheld(s)["mixed_double_chow"] == "account_once"


def test_non_repeat_reading_table_only_on_the_79_point_example(under):
    # table_only on 111m 222m 333p 444s 55m (self-drawn): Four concealed pungs 64 (its row withholds All pungs
    # and Concealed hand only), Three concealed pungs 16, Two concealed pungs 2, Mixed shifted pungs 8,
    # Fully concealed hand 4, Self drawn 1 (the Fully concealed hand row names no exclusion), Pung of
    # terminals 1, No honors 1, Single wait 1.  64+16+2+8+4+1+1+1+1 = 98, against the guide's 79.
    s = score(under(non_repeat_reading="table_only"), "1m1m1m2m2m2m3p3p3p4s4s4s5m", win="5m")
    assert fans(s) == {"four_concealed_pungs": 64, "three_concealed_pungs": 16, "two_concealed_pungs": 2,
                       "mixed_shifted_pungs": 8, "fully_concealed_hand": 4, "self_drawn": 1,
                       "pung_of_terminals_or_honors": 1, "no_honors": 1, "single_wait": 1}
    assert s.total == 98


def test_chicken_hand_scores_or_the_faq_refuses_a_hand_of_no_fan(under):
    # 234m 567p (chows claimed) 888s (pung claimed) 34s+5s 2z2z, won on a discard, seat and round East, one
    # flower: no fan at all (three suits and an honour pair, a pung, no shared chow ranks, an open wait).
    # The table's row: Chicken hand 8 + Flower 1 = 9. The FAQ: shape and flowers alone never reach the minimum.
    hand = dict(concealed="3s4s2z2z", win="5s", melds=["chow:234m", "chow:567p", "pung:888s@1"], discard=1,
                flowers="1f")
    s = score(under(), **hand)
    assert fans(s) == {"chicken_hand": 8, "flower_tiles": 1} and s.total == 9
    s = score(under(chicken_hand_scores=False), **hand)
    assert not s.valid and s.error == "win.minimum_points"


SEVEN_PAIRS_WITH_FOUR = dict(concealed="1m1m1m1m2m2m3p3p4p4p5s5s6s", win="6s")


def test_seven_pairs_four_identical_allowed(under):
    # Default: 1m1m|1m1m 2m2m 3p3p 4p4p 5s5s 6s6s are seven pairs. Seven pairs 24 (withholds Concealed hand,
    # Single wait); the four 1m outside a kong = Tile hog 2; no exposed set + self-drawn = Fully concealed
    # hand 4 (Self drawn included); no honours = No honors 1 (1m is a terminal, so no All simples).
    # 24 + 2 + 4 + 1 = 31.
    s = score(under(), **SEVEN_PAIRS_WITH_FOUR)
    assert fans(s) == {"seven_pairs": 24, "tile_hog": 2, "fully_concealed_hand": 4, "no_honors": 1}
    assert s.total == 31


def test_seven_pairs_four_identical_refused(under):
    # seven_pairs_four_identical=false: only six distinct pairs, no other shape fits: not a winning hand.
    s = score(under(seven_pairs_four_identical=False), **SEVEN_PAIRS_WITH_FOUR)
    assert not s.valid and s.error == "win.shape"


HONOUR_FOURS = dict(concealed="1z1z1z1z2m2m3m3m4p4p5p5p6s", win="6s")


def test_tile_hog_honors(under):
    # 1z1z|1z1z 2m2m 3m3m 4p4p 5p5p 6s6s as seven pairs, self-drawn:
    # Seven pairs 24 + Fully concealed hand 4 = 28 (no All types: no dragon; East is an honour so no No honors).
    # tile_hog_honors=true adds Tile hog 2 for the four East tiles: 30.
    s = score(under(), **HONOUR_FOURS)
    assert fans(s) == {"seven_pairs": 24, "fully_concealed_hand": 4}
    s = score(under(tile_hog_honors=True), **HONOUR_FOURS)
    assert fans(s) == {"seven_pairs": 24, "fully_concealed_hand": 4, "tile_hog": 2}
    assert s.total == 30


def test_four_concealed_pungs_without_fully_concealed(under):
    # four_concealed_pungs_with_fully_concealed=false: Four concealed pungs withholds Fully concealed hand, and
    # Self drawn counts instead: 64 + 8 (Mixed shifted pungs) + 1 (Self drawn) + 1 (Pung of terminals)
    # + 1 (No honors) + 1 (Single wait) = 76, against the guide's 79.
    s = score(under(four_concealed_pungs_with_fully_concealed=False), "1m1m1m2m2m2m3p3p3p4s4s4s5m", win="5m")
    assert fans(s) == {"four_concealed_pungs": 64, "mixed_shifted_pungs": 8, "self_drawn": 1,
                       "pung_of_terminals_or_honors": 1, "no_honors": 1, "single_wait": 1}
    assert s.total == 76
    assert withheld(s)["fully_concealed_hand"] == "four_concealed_pungs"


TWO_CONCEALED_KONGS = dict(concealed="3s4s7s8s9s1z1z", win="5s",
                           melds=["concealed_kong:2m2m2m2m", "concealed_kong:5p5p5p5p"])


@pytest.mark.parametrize("points, total, each", [(8, 12, 20), (6, 10, 18)])
def test_two_concealed_kongs_points(under, points, total, each):
    # Concealed kongs 2222m 5555p, concealed 345s 789s + East pair, 5s self-drawn (the hand waited on 2s and 5s).
    # Two concealed kongs (8 here, 6 in other tables; Concealed kong and Two concealed pungs included in it)
    # + Fully concealed hand 4 (concealed kongs are not exposed; Self drawn included) = 12 or 10.
    # Each opponent pays 8 + total: 20 or 18.
    s = score(under(two_concealed_kongs_points=points), **TWO_CONCEALED_KONGS)
    assert fans(s) == {"two_concealed_kongs": points, "fully_concealed_hand": 4}
    assert s.total == total
    assert s.payments == (3 * each, -each, -each, -each)


def test_flower_replacement_is_kong_replacement(under):
    # The guide's 11-point hand, holding flower 1f, self-drawn on the flower's replacement tile.
    # Default: not Out with replacement tile: Mixed triple chow 8 + All simples 2 + Self drawn 1 = 11,
    #   + Flower 1 = 12.
    # flower_replacement_is_kong_replacement=true: Out with replacement tile 8 (Self drawn included):
    #   8 + 2 + 8 = 18, + Flower 1 = 19.
    args = dict(concealed="2p3p4p2s3s4s6m6m6m5p", win="5p", melds=["chow:234m"], flowers="1f",
                flags=("flower_replacement",))
    s = score(under(), **args)
    assert fans(s) == {"mixed_triple_chow": 8, "all_simples": 2, "self_drawn": 1, "flower_tiles": 1}
    assert s.total == 12
    s = score(under(flower_replacement_is_kong_replacement=True), **args)
    assert fans(s) == {"mixed_triple_chow": 8, "all_simples": 2, "out_with_replacement_tile": 8, "flower_tiles": 1}
    assert s.total == 19


# [kong 8888s from seat 2] 234m 234p 234s + pair 5p5p, 5p self-drawn, flower 1f.
KONG_HAND = dict(concealed="2m3m4m2p3p4p2s3s4s5p", win="5p", melds=["kong:8s8s8s8s@2"], flowers="1f")


@pytest.mark.parametrize("flags, as_kong, expected_fans, total", [
    ((), False, {"mixed_triple_chow": 8, "all_simples": 2, "melded_kong": 1, "self_drawn": 1, "flower_tiles": 1}, 13),
    (("kong_replacement",), False,
     {"mixed_triple_chow": 8, "out_with_replacement_tile": 8, "all_simples": 2, "melded_kong": 1, "flower_tiles": 1}, 20),
    (("flower_replacement",), False,
     {"mixed_triple_chow": 8, "all_simples": 2, "melded_kong": 1, "self_drawn": 1, "flower_tiles": 1}, 13),
    (("kong_replacement", "flower_replacement"), False,
     {"mixed_triple_chow": 8, "all_simples": 2, "melded_kong": 1, "self_drawn": 1, "flower_tiles": 1}, 13),
    (("kong_replacement", "flower_replacement"), True,
     {"mixed_triple_chow": 8, "out_with_replacement_tile": 8, "all_simples": 2, "melded_kong": 1, "flower_tiles": 1}, 20),
])
def test_a_flower_replacement_after_a_kong_is_not_out_with_replacement_tile(under, flags, as_kong, expected_fans,
                                                                           total):
    # KONG_HAND: Mixed triple chow 8 (234 in m, p and s; Mixed double chow not counted again) + All simples 2
    # (every tile 2-8; No honors included) + Melded kong 1 (8888s, claimed) + Self drawn 1 = 12, + Flower 1 = 13.
    # The hand waited on 2p and 5p (2p3p4p5p): no Single wait. Self-drawn: each opponent pays 8 + total.
    #   no flag: 13; each pays 21, winner +63.
    #   kong_replacement: Out with replacement tile 8 (Self drawn included): 8 + 2 + 1 + 8 = 19, + 1 = 20;
    #     each pays 28, winner +84.
    #   flower_replacement alone: not Out with replacement tile by default: 13.
    #   both flags: the kong's replacement was a flower and the win came on the flower's replacement: "A flower
    #     replacement after a kong is not a direct Out with Replacement Tile win": 13 by default; under
    #     flower_replacement_is_kong_replacement=true every flower replacement counts: 20.
    s = score(under(flower_replacement_is_kong_replacement=as_kong), **KONG_HAND, flags=flags)
    assert s.valid
    assert fans(s) == expected_fans
    assert s.total == total
    each = 8 + total
    assert s.payments == (3 * each, -each, -each, -each)


# [234m] [777p] exposed, concealed 123s 67s 9m9m, 8s robbed from seat 2's added kong (its other three copies
# are visible), as in test_fans_b.test_robbing_the_kong.
ROBBED = dict(concealed="1s2s3s6s7s9m9m", win="8s", melds=["chow:234m", "pung:777p"], robbing_kong=2,
              flags=("fourth_tile_visible",))


@pytest.mark.parametrize("paid_as, payments", [("discard", (33, -8, -17, -8)), ("self_draw", (51, -17, -17, -17))])
def test_robbing_kong_paid_as(under, paid_as, payments):
    # Robbing the kong 8 + No honors 1 = 9 (Last tile not counted again), whatever the payment reading.
    #   discard (default): the konger (seat 2) pays 8 + 9 = 17, seats 1 and 3 pay 8 each; winner +33.
    #   self_draw: each opponent pays 8 + 9 = 17; winner +51.
    s = score(under(robbing_kong_paid_as=paid_as), **ROBBED)
    assert s.valid
    assert fans(s) == {"robbing_the_kong": 8, "no_honors": 1}
    assert s.total == 9
    assert s.payments == payments


def test_wait_fans_single_tile_type(under):
    # The 11-point hand: 5p completes the 5p5p pair, but the hand also waited on 2p, so by default no
    # Single wait (11). With wait_fans_single_tile_type=false the pair placement alone scores it: 12.
    args = dict(concealed="2p3p4p2s3s4s6m6m6m5p", win="5p", melds=["chow:234m"])
    assert score(under(), **args).total == 11
    s = score(under(wait_fans_single_tile_type=False), **args)
    assert fans(s) == {"mixed_triple_chow": 8, "all_simples": 2, "self_drawn": 1, "single_wait": 1}


def test_unknown_option_and_value_are_named(mcr_ruleset):
    with pytest.raises(ValueError, match="no option 'tile_hog'"):
        Scorer(mcr_ruleset, {"tile_hog": "true"})
    with pytest.raises(ValueError, match="two_concealed_kongs_points.*no value '7'.*8, 6"):
        Scorer(mcr_ruleset, {"two_concealed_kongs_points": "7"})
    assert Scorer(mcr_ruleset, {"two_concealed_kongs_points": "6"}).options["two_concealed_kongs_points"] == 6


def test_fully_concealed_with_concealed_shapes(under):
    # The seven-pairs hand above, self-drawn. Default: Seven pairs 24 + Tile hog 2 + Fully concealed hand 4
    # (Self drawn included in it) + No honors 1 = 31.
    # fully_concealed_with_concealed_shapes=false: Seven pairs withholds Fully concealed hand, which then
    # withholds nothing; Self drawn counts: 24 + 2 + 1 + 1 = 28.
    s = score(under(fully_concealed_with_concealed_shapes=False), **SEVEN_PAIRS_WITH_FOUR)
    assert fans(s) == {"seven_pairs": 24, "tile_hog": 2, "self_drawn": 1, "no_honors": 1}
    assert s.total == 28
    assert withheld(s)["fully_concealed_hand"] == "seven_pairs"


@pytest.mark.parametrize("reading, terminal_pungs, total", [("all", 0, 91), ("one", 1, 92)])
def test_nine_gates_terminal_pungs(under, reading, terminal_pungs, total):
    # 1112345678999s + 8s on a discard: the only division is 111 234 567 999 + the pair 88. Nine gates 88, Two
    # concealed pungs 2 (111 and 999: the discard completed the pair), Short straight 1 (234 567); Full flush,
    # Concealed hand, One voided suit and No honors withheld. The two terminal pungs: withheld both under "all"
    # (the guide's column names the fan) = 91; under "one" one of them counts = 92.
    s = score(under(nine_gates_terminal_pungs=reading), "1s1s1s2s3s4s5s6s7s8s9s9s9s", win="8s", discard=1)
    expected = {"nine_gates": 88, "two_concealed_pungs": 2, "short_straight": 1}
    if terminal_pungs:
        expected["pung_of_terminals_or_honors"] = terminal_pungs
    assert fans(s) == expected
    assert s.total == total
    assert withheld(s)["pung_of_terminals_or_honors"] == "nine_gates"


def test_knitted_straight_as_chows(under):
    # 147m 258p 369s knitted straight + 234s chow + 5m5m pair, 8p (a knitted tile) won on seat 1's discard.
    # Default: Knitted straight 12 + Concealed hand 2 + No honors 1 = 15 (no wait fan: the winning tile is in
    # the knitted straight; 1m and 9s are terminals, so no All simples; three suits, no One voided suit).
    # knitted_straight_as_chows=true: All chows 2 also counts and withholds No honors: 12 + 2 + 2 = 16.
    args = dict(concealed="1m4m7m2p5p3s6s9s2s3s4s5m5m", win="8p", discard=1)
    assert fans(score(under(), **args)) == {"knitted_straight": 12, "concealed_hand": 2, "no_honors": 1}
    s = score(under(knitted_straight_as_chows=True), **args)
    assert fans(s) == {"knitted_straight": 12, "concealed_hand": 2, "all_chows": 2}
    assert s.total == 16


def test_held_four_is_a_wait(under):
    # Exposed Red pung 7z7z7z (seat/round East: Red is a dragon -> Dragon pung 2), concealed 222m 777p 9999p,
    # 8p won on seat 1's discard: 222m 789p 999p + 77p pair, 8p in the middle of 789p.
    # Before the win (2m2m2m 7p7p7p 9p9p9p9p) the shape is completed by 8p, and by 9p only as a fifth copy.
    # Default (held four is no wait): single tile type -> Closed wait 1.
    #   Dragon pung 2 + Two concealed pungs 2 (222m, 999p) + Tile hog 2 (four 9p outside a kong)
    #   + Pung of terminals 1 (999p) + One voided suit 1 (m, p) + Closed wait 1 = 9.
    # held_four_is_a_wait=true: waits 8p and 9p -> no Closed wait: 8.
    args = dict(concealed="2m2m2m7p7p7p9p9p9p9p", win="8p", melds=["pung:7z7z7z"], discard=1)
    s = score(under(), **args)
    assert fans(s) == {"dragon_pung": 2, "two_concealed_pungs": 2, "tile_hog": 2, "pung_of_terminals_or_honors": 1,
                       "one_voided_suit": 1, "closed_wait": 1}
    assert s.total == 9
    assert score(under(held_four_is_a_wait=True), **args).total == 8


def test_last_tile_from_the_winners_own_exposed_pung(under):
    # Exposed pung 222m and chow 678m; concealed 345m 67m + 3p3p; 2m self-drawn: 234m 567m + 33p.
    # The other three 2m lie in the winner's exposed pung: public, so Last tile 4 holds without the flag
    # ("The other three copies of the win tile are visible; enter public tiles").
    #   Last tile 4 + Tile hog 2 (all four 2m, no kong) + All simples 2 + Short straight 1 (234m, 567m)
    #   + One voided suit 1 (m, p) + Self drawn 1 = 11 (No honors included in All simples; the hand waited on
    #   2m, 5m and 8m: no wait fan).
    s = score(under(), "3m4m5m6m7m3p3p", win="2m", melds=["pung:222m", "chow:678m"])
    assert fans(s) == {"last_tile": 4, "tile_hog": 2, "all_simples": 2, "short_straight": 1,
                       "one_voided_suit": 1, "self_drawn": 1}
    assert s.total == 11


def test_scorers_share_what_they_bind_alike_and_not_what_an_option_changes(mcr_ruleset):
    """Binding option sets shares each predicate and the winning shapes among the Scorers whose parameters
    are the same (checker.engine.binding.shared); a parameter an option sets is bound apart, and the
    hands score as each reading says (tile hog of honours: the option's own test above)."""
    from checker.engine.binding import _key

    plain, honours = Scorer(mcr_ruleset), Scorer(mcr_ruleset, {"tile_hog_honors": True})
    seven = Scorer(mcr_ruleset, {"seven_pairs_four_identical": not Scorer(mcr_ruleset).options[
        "seven_pairs_four_identical"]})
    by_id = [{b.id: b.decide for b in s.patterns} for s in (plain, honours)]
    assert by_id[0]["all_green"] is by_id[1]["all_green"] and by_id[0]["pure_straight"] is by_id[1]["pure_straight"]
    assert by_id[0]["tile_hog"] is not by_id[1]["tile_hog"]
    assert plain.shapes is honours.shapes and seven.shapes is not plain.shapes
    assert _key(True) != _key(1) and _key([1]) != _key((1,)) and _key({"a": [1]}) == _key({"a": [1]})
