"""Hand-worked scoring tests for Shanghai 敲麻 "Knocking" (spec/shanghai-knocking.yaml).

Source: shared/seeds/000_10956719290e0934.txt. Every expected value below was worked out by hand from the
guide's hua and doubles tables and the spec; each comment lists the groups, each hua item, the hua sum,
each double, the arithmetic hua × 2^doubles and each payment. Nothing was copied from the engine.

Reminders (spec, default options):
  * A win is four sets + a pair (never seven pairs) and needs the flag `knocked` (error "win.knocked").
  * Dragons (5z 6z 7z) are flowers: they go in `flowers=`, never in the hand.
  * Hua: going out 1 (always); each flower or dragon kept 1; suited pung 0 / exposed kong 1 / concealed kong 2;
    wind pung 1 / exposed kong 2 / concealed kong 3. A pung is a pung whether claimed or concealed.
  * Fig 无花果: no hua beyond the base -> the hua is 10; the doubles then apply (fig_then_doubled=true).
  * Doubles: 大挑车 da_tiao_che 1, 门清 men_qing 1, 杠开 gang_kai 1, 碰碰胡 peng_peng_hu 1, 混一色 hun_yi_se 1,
    清一色 qing_yi_se 2. Value = hua × 2^doubles.
  * Payments (winner, seat 1, seat 2, seat 3): self-draw, each opponent pays the value; discard, the
    discarder alone pays it (discard_others_pay=0); robbing the kong, the robbed player pays 3 × value.

Tiles: 1z-4z are East, South, West, North; 1f-8f are the eight flowers. Unless a test says otherwise the
win is self-drawn, and every "groups" line lists declared melds in [brackets].
"""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from checker.engine import HandError, Scorer
from mcr_helpers import fans, score

KNOCKED = ("knocked",)
DOUBLES = {"da_tiao_che", "men_qing", "gang_kai", "peng_peng_hu", "hun_yi_se", "qing_yi_se"}


def with_options(ruleset, **options) -> Scorer:
    """A scorer for the Knocking ruleset under other option readings."""
    return Scorer(ruleset, options)


# --------------------------------------------------------------------------- hua items (and the fig)

def test_base_alone_is_a_fig_of_ten(knocking):
    # Groups: [123m from seat 3] 456p 789s 234s + pair 9p9p, won on 9p discarded by seat 3. No flowers.
    #   going_out 1; nothing else scores hua.          hua sum 1 -> no hua beyond the base: fig = 10
    #   Doubles: none (a chow is claimed: no 门清; discard: no 大挑车/杠开; chows: no 碰碰胡; m+p+s: no flush).
    # Value 10 × 2^0 = 10. Payments: seat 3 (discarder) pays 10; winner +10.
    s = score(knocking, "4p5p6p7s8s9s2s3s4s9p", win="9p", melds=["chow:123m@3"], discard=3, flags=KNOCKED)
    assert s.valid
    assert fans(s) == {"going_out": 1}
    assert s.total == 10
    assert s.payments == (10, 0, 0, -10)


def test_one_flower_is_not_a_fig(knocking):
    # The fig hand above with one flower (1f) kept.
    #   going_out 1 + flower 1 = 2 (one hua beyond the base: not a fig). Doubles: none.
    # Value 2 × 2^0 = 2. Payments: seat 3 pays 2; winner +2.
    s = score(knocking, "4p5p6p7s8s9s2s3s4s9p", win="9p", melds=["chow:123m@3"], discard=3, flags=KNOCKED,
              flowers="1f")
    assert s.valid
    assert fans(s) == {"going_out": 1, "flower": 1}
    assert s.total == 2
    assert s.payments == (2, 0, 0, -2)


def test_each_flower_is_one_hua(knocking):
    # The same hand with three flowers kept: 1f 4f 8f.
    #   going_out 1 + flower 1×3 = 4. Doubles: none. Value 4 × 2^0 = 4. Seat 3 pays 4.
    s = score(knocking, "4p5p6p7s8s9s2s3s4s9p", win="9p", melds=["chow:123m@3"], discard=3, flags=KNOCKED,
              flowers="1f4f8f")
    assert s.valid
    assert fans(s) == {"going_out": 1, "flower": 3}
    assert s.total == 4
    assert s.payments == (4, 0, 0, -4)


def test_dragons_kept_are_flowers_one_hua_each(knocking):
    # The same hand with four dragons kept as flowers: 5z 5z 6z 7z (two copies of 5z are fine: dragons have
    # four copies each).
    #   going_out 1 + flower 1×4 = 5. Doubles: none. Value 5 × 2^0 = 5. Seat 3 pays 5.
    s = score(knocking, "4p5p6p7s8s9s2s3s4s9p", win="9p", melds=["chow:123m@3"], discard=3, flags=KNOCKED,
              flowers="5z5z6z7z")
    assert s.valid
    assert fans(s) == {"going_out": 1, "flower": 4}
    assert s.total == 5
    assert s.payments == (5, 0, 0, -5)


def test_a_single_dragon_also_breaks_the_fig(knocking):
    # The fig hand with one dragon (6z) kept: going_out 1 + flower 1 = 2, not a fig. Doubles none -> 2.
    s = score(knocking, "4p5p6p7s8s9s2s3s4s9p", win="9p", melds=["chow:123m@3"], discard=3, flags=KNOCKED,
              flowers="6z")
    assert fans(s) == {"going_out": 1, "flower": 1}
    assert s.total == 2


def test_suited_pung_is_zero_hua_so_the_hand_is_still_a_fig(knocking):
    # Groups: [555s from seat 1] [123m from seat 3] 456p 789p + pair 2m2m, won on 2m discarded by seat 1.
    #   going_out 1, suited_pung 0.                    hua sum 1 -> nothing beyond the base: fig = 10
    #   Doubles: none (claimed melds; discard; one chow so no 碰碰胡; m+p+s).
    # Value 10 × 2^0 = 10. Payments: seat 1 pays 10.
    s = score(knocking, "4p5p6p7p8p9p2m", win="2m", melds=["pung:5s5s5s@1", "chow:123m@3"], discard=1,
              flags=KNOCKED)
    assert s.valid
    assert fans(s) == {"going_out": 1, "suited_pung": 0}
    assert s.total == 10
    assert s.payments == (10, -10, 0, 0)


def test_suited_exposed_kong_is_one_hua(knocking):
    # Groups: [kong 5555p from seat 2] [123m from seat 3] 789s 234s + pair 6m6m, won on 6m from seat 2.
    # Tiles: 4 + 3 + 7 concealed + 1 = 15 = 14 + 1 kong.
    #   going_out 1 + suited_exposed_kong 1 = 2. Doubles: none. Value 2 × 2^0 = 2. Seat 2 pays 2.
    s = score(knocking, "7s8s9s2s3s4s6m", win="6m", melds=["kong:5555p@2", "chow:123m@3"], discard=2,
              flags=KNOCKED)
    assert s.valid
    assert fans(s) == {"going_out": 1, "suited_exposed_kong": 1}
    assert s.total == 2
    assert s.payments == (2, 0, -2, 0)


def test_suited_concealed_kong_is_two_hua(knocking):
    # Groups: [concealed kong 5p5p5p5p] [123m from seat 3] 789s 234s + pair 6m6m, won on 6m from seat 2.
    #   going_out 1 + suited_concealed_kong 2 = 3.
    #   Doubles: none (the claimed chow rules out 门清). Value 3 × 2^0 = 3. Seat 2 pays 3.
    s = score(knocking, "7s8s9s2s3s4s6m", win="6m", melds=["concealed_kong:5p5p5p5p", "chow:123m@3"],
              discard=2, flags=KNOCKED)
    assert s.valid
    assert fans(s) == {"going_out": 1, "suited_concealed_kong": 2}
    assert s.total == 3
    assert s.payments == (3, 0, -3, 0)


def test_claimed_wind_pung_is_one_hua(knocking):
    # Groups: [WWW 3z from seat 1] [123m from seat 3] 456p 789s + pair 2p2p, won on 2p from seat 1.
    #   going_out 1 + wind_pung 1 = 2. Doubles: none. Value 2 × 2^0 = 2. Seat 1 pays 2.
    s = score(knocking, "4p5p6p7s8s9s2p", win="2p", melds=["pung:3z3z3z@1", "chow:123m@3"], discard=1,
              flags=KNOCKED)
    assert s.valid
    assert fans(s) == {"going_out": 1, "wind_pung": 1}
    assert s.total == 2
    assert s.payments == (2, -2, 0, 0)


def test_concealed_wind_pung_is_also_one_hua(knocking):
    # Groups: NNN 4z (in hand) [123m from seat 3] 456p 789s + pair 2p2p, won on 2p from seat 1.
    #   going_out 1 + wind_pung 1 = 2 (a pung is a pung, claimed or not).
    #   Doubles: none (claimed chow). Value 2 × 2^0 = 2. Seat 1 pays 2.
    s = score(knocking, "4z4z4z4p5p6p7s8s9s2p", win="2p", melds=["chow:123m@3"], discard=1, flags=KNOCKED)
    assert s.valid
    assert fans(s) == {"going_out": 1, "wind_pung": 1}
    assert s.total == 2
    assert s.payments == (2, -2, 0, 0)


def test_wind_exposed_kong_is_two_hua(knocking):
    # Groups: [kong SSSS 2z from seat 1] [123m from seat 3] 456p 789s + pair 2p2p, won on 2p from seat 1.
    #   going_out 1 + wind_exposed_kong 2 = 3. Doubles: none. Value 3 × 2^0 = 3. Seat 1 pays 3.
    s = score(knocking, "4p5p6p7s8s9s2p", win="2p", melds=["kong:2z2z2z2z@1", "chow:123m@3"], discard=1,
              flags=KNOCKED)
    assert s.valid
    assert fans(s) == {"going_out": 1, "wind_exposed_kong": 2}
    assert s.total == 3
    assert s.payments == (3, -3, 0, 0)


def test_wind_concealed_kong_is_three_hua(knocking):
    # Groups: [concealed kong WWWW 3z] [123m from seat 3] 456p 789s + pair 2p2p, won on 2p from seat 1.
    #   going_out 1 + wind_concealed_kong 3 = 4. Doubles: none (claimed chow). Value 4 × 2^0 = 4. Seat 1 pays 4.
    s = score(knocking, "4p5p6p7s8s9s2p", win="2p", melds=["concealed_kong:3z3z3z3z", "chow:123m@3"],
              discard=1, flags=KNOCKED)
    assert s.valid
    assert fans(s) == {"going_out": 1, "wind_concealed_kong": 3}
    assert s.total == 4
    assert s.payments == (4, -4, 0, 0)


def test_several_hua_items_add_up(knocking):
    # Groups: [kong 7777s from seat 1] [concealed kong EEEE 1z] [SSS 2z from seat 2] [345p from seat 3]
    #         + pair 5m5m, won on 5m discarded by seat 2. Flowers kept: 1f and the dragon 5z.
    # Tiles: 4 + 4 + 3 + 3 + 1 concealed + 1 = 16 = 14 + 2 kongs.
    #   going_out 1 + flower 1×2 + suited_exposed_kong 1 + wind_concealed_kong 3 + wind_pung 1 = 8
    #   Doubles: none (discard: no 大挑车; claimed melds: no 门清; a chow: no 碰碰胡; m+p+s+winds: no flush).
    # Value 8 × 2^0 = 8. Payments: seat 2 pays 8.
    s = score(knocking, "5m", win="5m",
              melds=["kong:7777s@1", "concealed_kong:1z1z1z1z", "pung:2z2z2z@2", "chow:345p@3"],
              discard=2, flags=KNOCKED, flowers="1f5z")
    assert s.valid
    assert fans(s) == {"going_out": 1, "flower": 2, "suited_exposed_kong": 1, "wind_concealed_kong": 3,
                       "wind_pung": 1}
    assert s.total == 8
    assert s.payments == (8, 0, -8, 0)


# --------------------------------------------------------------------------- doubles

def test_da_tiao_che_all_four_sets_laid_down_pair_self_drawn(knocking):
    # Groups: [123m from 3] [456s from 3] [777p from 1] [SSS 2z from 2]; single 9s, self-draws 9s: pair 9s9s.
    #   going_out 1 + suited_pung 0 + wind_pung 1 = 2
    #   Doubles: da_tiao_che 1 (four sets laid down, the pair completed by self-draw). No 门清, no 碰碰胡.
    # Value 2 × 2^1 = 4. Payments: each opponent pays 4; winner +12.
    s = score(knocking, "9s", win="9s", melds=["chow:123m@3", "chow:456s@3", "pung:7p7p7p@1", "pung:2z2z2z@2"],
              flags=KNOCKED)
    assert s.valid
    assert fans(s) == {"going_out": 1, "suited_pung": 0, "wind_pung": 1, "da_tiao_che": 1}
    assert s.total == 4
    assert s.payments == (12, -4, -4, -4)


def test_da_tiao_che_needs_the_self_draw(knocking):
    # The same laid-down hand won on 9s discarded by seat 1: no 大挑车 (it needs a self-drawn pair tile).
    #   going_out 1 + suited_pung 0 + wind_pung 1 = 2. Doubles: none. Value 2 × 2^0 = 2. Seat 1 pays 2.
    s = score(knocking, "9s", win="9s", melds=["chow:123m@3", "chow:456s@3", "pung:7p7p7p@1", "pung:2z2z2z@2"],
              discard=1, flags=KNOCKED)
    assert s.valid
    assert fans(s) == {"going_out": 1, "suited_pung": 0, "wind_pung": 1}
    assert s.total == 2
    assert s.payments == (2, -2, 0, 0)


def test_da_tiao_che_counts_a_concealed_kong_as_laid_down(knocking):
    # Groups: [concealed kong 5m5m5m5m] [123p from 3] [789s from 3] [234s from 3]; single 8p, self-draws 8p.
    # Tiles: 4 + 3×3 + 1 + 1 = 15 = 14 + 1 kong.
    #   going_out 1 + suited_concealed_kong 2 = 3
    #   Doubles: da_tiao_che 1 (spec note: concealed kongs count among the four sets laid down).
    #   No 门清 (three chows claimed), no 碰碰胡, no flush.
    # Value 3 × 2^1 = 6. Payments: each opponent pays 6; winner +18.
    s = score(knocking, "8p", win="8p", melds=["concealed_kong:5m5m5m5m", "chow:123p@3", "chow:789s@3",
                                                "chow:234s@3"], flags=KNOCKED)
    assert s.valid
    assert fans(s) == {"going_out": 1, "suited_concealed_kong": 2, "da_tiao_che": 1}
    assert s.total == 6
    assert s.payments == (18, -6, -6, -6)


def test_men_qing_on_self_draw(knocking):
    # Groups (all in hand): 123m 234m 456p 789s + pair 9p9p, self-drawn 9p. Flower 1f kept.
    #   going_out 1 + flower 1 = 2
    #   Doubles: men_qing 1 (no chow, pung or exposed kong declared). Chows: no 碰碰胡; m+p+s: no flush.
    # Value 2 × 2^1 = 4. Payments: each opponent pays 4; winner +12.
    s = score(knocking, "1m2m3m2m3m4m4p5p6p7s8s9s9p", win="9p", flags=KNOCKED, flowers="1f")
    assert s.valid
    assert fans(s) == {"going_out": 1, "flower": 1, "men_qing": 1}
    assert s.total == 4
    assert s.payments == (12, -4, -4, -4)


def test_men_qing_on_a_discard_by_default(knocking):
    # The same concealed hand won on 9p discarded by seat 3 (menqing_needs_self_draw=false by default).
    #   going_out 1 + flower 1 = 2; men_qing 1. Value 2 × 2^1 = 4. Payments: seat 3 pays 4.
    s = score(knocking, "1m2m3m2m3m4m4p5p6p7s8s9s9p", win="9p", discard=3, flags=KNOCKED, flowers="1f")
    assert s.valid
    assert fans(s) == {"going_out": 1, "flower": 1, "men_qing": 1}
    assert s.total == 4
    assert s.payments == (4, 0, 0, -4)


def test_men_qing_allows_a_concealed_kong(knocking):
    # Groups: [concealed kong 5p5p5p5p] 123m 789s 234s + pair 6m6m, won on 6m discarded by seat 2.
    #   going_out 1 + suited_concealed_kong 2 = 3
    #   Doubles: men_qing 1 (a concealed kong is not a claim). Value 3 × 2^1 = 6. Payments: seat 2 pays 6.
    s = score(knocking, "1m2m3m7s8s9s2s3s4s6m", win="6m", melds=["concealed_kong:5p5p5p5p"], discard=2,
              flags=KNOCKED)
    assert s.valid
    assert fans(s) == {"going_out": 1, "suited_concealed_kong": 2, "men_qing": 1}
    assert s.total == 6
    assert s.payments == (6, 0, -6, 0)


def test_gang_kai_by_kong_replacement(knocking):
    # Groups: [kong 7777s from 1] [123m from 3] 456p 234p + pair 9m9m; 9m self-drawn as the kong's replacement.
    # Tiles: 4 + 3 + 7 + 1 = 15 = 14 + 1 kong.
    #   going_out 1 + suited_exposed_kong 1 = 2
    #   Doubles: gang_kai 1 (self-drawn off a kong replacement). Not 大挑车 (only two melds), not 门清.
    # Value 2 × 2^1 = 4. Payments: each opponent pays 4; winner +12.
    s = score(knocking, "4p5p6p2p3p4p9m", win="9m", melds=["kong:7777s@1", "chow:123m@3"],
              flags=("knocked", "kong_replacement"))
    assert s.valid
    assert fans(s) == {"going_out": 1, "suited_exposed_kong": 1, "gang_kai": 1}
    assert s.total == 4
    assert s.payments == (12, -4, -4, -4)


def test_gang_kai_by_flower_replacement(knocking):
    # Groups: [123m from 3] 456p 234p 789s + pair 9m9m; 9m self-drawn as the replacement for flower 3f.
    #   going_out 1 + flower 1 = 2
    #   Doubles: gang_kai 1 (the guide: "won off a kong or flower replacement draw"). Not 门清 (claimed chow).
    # Value 2 × 2^1 = 4. Payments: each opponent pays 4; winner +12.
    s = score(knocking, "4p5p6p2p3p4p7s8s9s9m", win="9m", melds=["chow:123m@3"], flowers="3f",
              flags=("knocked", "flower_replacement"))
    assert s.valid
    assert fans(s) == {"going_out": 1, "flower": 1, "gang_kai": 1}
    assert s.total == 4
    assert s.payments == (12, -4, -4, -4)


def test_peng_peng_hu(knocking):
    # Groups: [555p from 2] [222m from 1] 888s 444m (in hand) + pair 6p6p, self-drawn 6p. Flower 2f.
    #   going_out 1 + flower 1 + suited_pung 0×4 = 2
    #   Doubles: peng_peng_hu 1. Not 门清 (pungs claimed), not 大挑车 (two sets in hand), m+p+s: no flush.
    # Value 2 × 2^1 = 4. Payments: each opponent pays 4; winner +12.
    s = score(knocking, "8s8s8s4m4m4m6p", win="6p", melds=["pung:5p5p5p@2", "pung:2m2m2m@1"], flags=KNOCKED,
              flowers="2f")
    assert s.valid
    assert fans(s) == {"going_out": 1, "flower": 1, "suited_pung": 0, "peng_peng_hu": 1}
    assert s.total == 4
    assert s.payments == (12, -4, -4, -4)


def test_hun_yi_se(knocking):
    # Groups: [123m from 3] 456m 789m EEE(1z) + pair 9m9m, won on 9m discarded by seat 2.
    # (4m..9m 9m 9m reads only as 456m 789m + 99m.)
    #   going_out 1 + wind_pung 1 = 2
    #   Doubles: hun_yi_se 1 (characters and winds only). No 门清 (claimed chow), no 碰碰胡.
    # Value 2 × 2^1 = 4. Payments: seat 2 pays 4.
    s = score(knocking, "4m5m6m7m8m9m1z1z1z9m", win="9m", melds=["chow:123m@3"], discard=2, flags=KNOCKED)
    assert s.valid
    assert fans(s) == {"going_out": 1, "wind_pung": 1, "hun_yi_se": 1}
    assert s.total == 4
    assert s.payments == (4, 0, -4, 0)


def test_qing_yi_se_is_two_doubles(knocking):
    # Groups: [123s from 3] 222s 456s 678s + pair 9s9s, won on 9s discarded by seat 3. Flower 1f.
    # (2s2s2s 4s5s6s6s7s8s9s 9s reads only as 222 456 678 + 99.)
    #   going_out 1 + flower 1 + suited_pung 0 = 2
    #   Doubles: qing_yi_se 2 (bamboo only, no winds). No 门清, no 碰碰胡.
    # Value 2 × 2^2 = 8. Payments: seat 3 pays 8.
    s = score(knocking, "2s2s2s4s5s6s6s7s8s9s", win="9s", melds=["chow:123s@3"], discard=3, flags=KNOCKED,
              flowers="1f")
    assert s.valid
    assert fans(s) == {"going_out": 1, "flower": 1, "suited_pung": 0, "qing_yi_se": 2}
    assert s.total == 8
    assert s.payments == (8, 0, 0, -8)


def test_dragons_kept_as_flowers_do_not_spoil_a_full_flush(knocking):
    # The full-flush hand above with a dragon (7z) kept instead of 1f. Dragons are flowers here, not hand
    # tiles, so the hand's tiles are still bamboo only: 清一色, not 混一色.
    #   going_out 1 + flower 1 + suited_pung 0 = 2; qing_yi_se 2. Value 2 × 2^2 = 8. Seat 3 pays 8.
    s = score(knocking, "2s2s2s4s5s6s6s7s8s9s", win="9s", melds=["chow:123s@3"], discard=3, flags=KNOCKED,
              flowers="7z")
    assert fans(s) == {"going_out": 1, "flower": 1, "suited_pung": 0, "qing_yi_se": 2}
    assert s.total == 8
    assert s.payments == (8, 0, 0, -8)


def test_fig_with_three_doubles_stacked(knocking):
    # Groups (all in hand): 111p 333p 555p 777p + pair 9p9p, self-drawn 9p. No flowers.
    # (1,3,5,7,9 leave no room for a chow: one reading.)
    #   going_out 1 + suited_pung 0×4 = 1 -> no hua beyond the base: fig = 10
    #   Doubles: men_qing 1 + peng_peng_hu 1 + qing_yi_se 2 = 4
    # Value 10 × 2^4 = 160. Payments: each opponent pays 160; winner +480.
    s = score(knocking, "1p1p1p3p3p3p5p5p5p7p7p7p9p", win="9p", flags=KNOCKED)
    assert s.valid
    assert fans(s) == {"going_out": 1, "suited_pung": 0, "men_qing": 1, "peng_peng_hu": 1, "qing_yi_se": 2}
    assert s.total == 160
    assert s.payments == (480, -160, -160, -160)


def test_four_doubles_stacked_on_a_melded_hand(knocking):
    # Groups: [111m from 1] [kong 9999m from 2] [EEE 1z from 3] [concealed kong NNNN 4z]; single 5m,
    # self-drawn 5m as a kong replacement. Flowers 1f and the dragon 5z.
    # Tiles: 3 + 4 + 3 + 4 + 1 + 1 = 16 = 14 + 2 kongs.
    #   going_out 1 + flower 1×2 + suited_pung 0 + suited_exposed_kong 1 + wind_pung 1
    #     + wind_concealed_kong 3 = 8
    #   Doubles: da_tiao_che 1 (four sets laid down, pair self-drawn) + gang_kai 1 (kong replacement)
    #     + peng_peng_hu 1 + hun_yi_se 1 (characters + winds) = 4. No 门清 (pungs claimed).
    # Value 8 × 2^4 = 128. Payments: each opponent pays 128; winner +384.
    s = score(knocking, "5m", win="5m",
              melds=["pung:1m1m1m@1", "kong:9m9m9m9m@2", "pung:1z1z1z@3", "concealed_kong:4z4z4z4z"],
              flags=("knocked", "kong_replacement"), flowers="1f5z")
    assert s.valid
    assert fans(s) == {"going_out": 1, "flower": 2, "suited_pung": 0, "suited_exposed_kong": 1, "wind_pung": 1,
                       "wind_concealed_kong": 3, "da_tiao_che": 1, "gang_kai": 1, "peng_peng_hu": 1,
                       "hun_yi_se": 1}
    assert s.total == 128
    assert s.payments == (384, -128, -128, -128)


def test_the_highest_valued_reading_is_chosen(knocking):
    # Concealed 111s 222s 333s 555p + 9m, self-drawn 9m. Two readings of 1s..3s:
    #   A: 111s 222s 333s 555p + 99m: going_out 1 + suited_pung 0×4 = 1 -> fig 10;
    #      doubles men_qing 1 + peng_peng_hu 1 = 2 -> 10 × 2^2 = 40
    #   B: 123s 123s 123s 555p + 99m: going_out 1 + suited_pung 0 -> fig 10; men_qing 1 -> 10 × 2^1 = 20
    # The scorer keeps A: value 40. Payments: each opponent pays 40; winner +120.
    s = score(knocking, "1s1s1s2s2s2s3s3s3s5p5p5p9m", win="9m", flags=KNOCKED)
    assert s.valid
    assert fans(s) == {"going_out": 1, "suited_pung": 0, "men_qing": 1, "peng_peng_hu": 1}
    assert s.total == 40
    assert s.payments == (120, -40, -40, -40)


# --------------------------------------------------------------------------- robbing the kong

def test_robbing_the_kong_pays_three_times(knocking):
    # Groups: [123m from 3] 4p(5p)6p 789s 234s + pair EE(1z1z), winning on 5p robbed from seat 2's added
    # kong. Flower 1f.
    #   going_out 1 + flower 1 = 2 (a wind pair scores nothing). Doubles: none (not a self-draw; chow claimed).
    # Value 2 × 2^0 = 2. Payments: seat 2 (robbed) pays 3 × 2 = 6; seats 1 and 3 pay 0; winner +6.
    s = score(knocking, "4p6p7s8s9s2s3s4s1z1z", win="5p", melds=["chow:123m@3"], robbing_kong=2, flags=KNOCKED,
              flowers="1f")
    assert s.valid
    assert fans(s) == {"going_out": 1, "flower": 1}
    assert s.total == 2
    assert s.payments == (6, 0, -6, 0)


def test_robbing_the_kong_times_three_is_outside_the_doubles(knocking):
    # Groups (all in hand): 123m 4p(5p)6p 789s 234s + pair 1z1z, winning on 5p robbed from seat 1. No flowers.
    #   going_out 1 -> fig 10. Doubles: men_qing 1 (no claims; any win method by default).
    # Value 10 × 2^1 = 20 (the ×3 is not a double). Payments: seat 1 pays 3 × 20 = 60; winner +60.
    s = score(knocking, "1m2m3m4p6p7s8s9s2s3s4s1z1z", win="5p", robbing_kong=1, flags=KNOCKED)
    assert s.valid
    assert fans(s) == {"going_out": 1, "men_qing": 1}
    assert s.total == 20
    assert s.payments == (60, -60, 0, 0)


# --------------------------------------------------------------------------- refused wins

def test_seven_pairs_does_not_win(knocking):
    # 1s1s 3s3s 5s5s 7s7s 9s9s 2p2p + 4p4p: seven pairs. No chow (every gap is two) and no pung: no four
    # sets + a pair, so the hand has no winning shape even though it knocked.
    s = score(knocking, "1s1s3s3s5s5s7s7s9s9s2p2p4p", win="4p", flags=KNOCKED)
    assert s.valid is False
    assert s.error == "win.shape"


def test_a_hand_that_has_not_knocked_may_not_win_but_is_still_valued(knocking):
    # The men_qing hand (123m 234m 456p 789s + 9p9p self-drawn, flower 1f) without the `knocked` flag.
    #   going_out 1 + flower 1 = 2; men_qing 1 -> 2 × 2^1 = 4, but the win is refused: no payments.
    s = score(knocking, "1m2m3m2m3m4m4p5p6p7s8s9s9p", win="9p", flowers="1f")
    assert s.valid is False
    assert s.error == "win.knocked"
    assert fans(s) == {"going_out": 1, "flower": 1, "men_qing": 1}
    assert s.total == 4
    assert s.payments is None
    knocked = score(knocking, "1m2m3m2m3m4m4p5p6p7s8s9s9p", win="9p", flowers="1f", flags=KNOCKED)
    assert knocked.valid and knocked.total == 4


# --------------------------------------------------------------------------- bad input

@pytest.mark.parametrize("claim", ["chow:123m@3:after_knock", "pung:1m1m1m@1:after_knock"])
def test_a_chow_or_pung_claimed_after_knocking_is_refused(knocking, claim):
    # Once knocked the hand is locked: a chow or pung claimed afterwards is bad input.
    # Hand: [claimed set] 456p 789s 234s + 9p9p, won on 9p from seat 3.
    with pytest.raises(HandError) as exc:
        score(knocking, "4p5p6p7s8s9s2s3s4s9p", win="9p", melds=[claim], discard=3, flags=KNOCKED)
    assert exc.value.rule == "procedure.knock_locks_hand"


def test_a_chow_from_a_seat_other_than_upstream_is_refused(knocking):
    # Chow upstream only: seat 3 is the previous player; a chow from seat 1 is bad input.
    with pytest.raises(HandError) as exc:
        score(knocking, "4p5p6p7s8s9s2s3s4s9p", win="9p", melds=["chow:123m@1"], discard=3, flags=KNOCKED)
    assert exc.value.rule == "procedure.chow_upstream"


def test_a_dragon_in_the_hand_is_refused(knocking):
    # Dragons are flowers: a pair of Red dragons (5z) in the hand is bad input.
    with pytest.raises(HandError) as exc:
        score(knocking, "1m2m3m4p5p6p7s8s9s2s3s4s5z", win="5z", flags=KNOCKED)
    assert exc.value.rule == "input.flowers"


def test_an_unknown_flag_is_refused(knocking):
    with pytest.raises(HandError) as exc:
        score(knocking, "1m2m3m2m3m4m4p5p6p7s8s9s9p", win="9p", flags=("knocked", "tenpai"))
    assert exc.value.rule == "input.flags"


def test_a_kong_added_after_knocking_is_allowed(knocking):
    # The lock covers chows and pungs; a kong after knocking is not refused (the guide even makes upgrading
    # an exposed pung compulsory).
    # Groups: [kong 5555p from seat 2, after knocking] [123m from 3] 789s 234s + pair 6m6m, self-drawn 6m.
    #   going_out 1 + suited_exposed_kong 1 = 2. Doubles: none (two sets in hand: no 大挑车; claims: no 门清).
    # Value 2 × 2^0 = 2. Payments: each opponent pays 2; winner +6.
    s = score(knocking, "7s8s9s2s3s4s6m", win="6m", melds=["kong:5555p@2:after_knock", "chow:123m@3"],
              flags=KNOCKED)
    assert s.valid
    assert fans(s) == {"going_out": 1, "suited_exposed_kong": 1}
    assert s.total == 2
    assert s.payments == (6, -2, -2, -2)


# --------------------------------------------------------------------------- option readings

@pytest.mark.parametrize("then_doubled, value", [(True, 20), (False, 10)])
def test_fig_then_doubled(knocking_ruleset, then_doubled, value):
    # Concealed 123m 234m 456p 789s + 9p9p, self-drawn 9p, no flowers.
    #   going_out 1 -> fig 10; doubles: men_qing 1.
    #   fig_then_doubled=true:  10 × 2^1 = 20, each opponent pays 20 (winner +60).
    #   fig_then_doubled=false: the fig is a flat 10, the double leaves it at 10; each pays 10 (winner +30).
    s = score(with_options(knocking_ruleset, fig_then_doubled=then_doubled), "1m2m3m2m3m4m4p5p6p7s8s9s9p",
              win="9p", flags=KNOCKED)
    assert s.valid
    assert fans(s) == {"going_out": 1, "men_qing": 1}
    assert s.total == value
    assert s.payments == (3 * value, -value, -value, -value)


def test_flat_fig_ignores_four_doubles(knocking_ruleset):
    # The all-pung full-flush fig (111p 333p 555p 777p + 9p9p self-drawn) under fig_then_doubled=false:
    #   fig 10; the doubles men_qing 1 + peng_peng_hu 1 + qing_yi_se 2 = 4 do not change it: 10.
    s = score(with_options(knocking_ruleset, fig_then_doubled=False), "1p1p1p3p3p3p5p5p5p7p7p7p9p", win="9p",
              flags=KNOCKED)
    assert s.valid
    assert s.total == 10
    assert s.payments == (30, -10, -10, -10)


def test_flat_fig_option_does_not_touch_a_hand_with_hua(knocking_ruleset):
    # The men_qing hand with flower 1f under fig_then_doubled=false: not a fig, so (1 + 1) × 2^1 = 4.
    s = score(with_options(knocking_ruleset, fig_then_doubled=False), "1m2m3m2m3m4m4p5p6p7s8s9s9p", win="9p",
              flags=KNOCKED, flowers="1f")
    assert s.total == 4


@pytest.mark.parametrize("needs_self_draw, expected_fans, value", [
    (False, {"going_out": 1, "flower": 1, "men_qing": 1}, 4),
    (True, {"going_out": 1, "flower": 1}, 2),
])
def test_menqing_needs_self_draw_on_a_discard_win(knocking_ruleset, needs_self_draw, expected_fans, value):
    # Concealed 123m 234m 456p 789s + 9p9p, won on 9p discarded by seat 3, flower 1f.
    #   going_out 1 + flower 1 = 2.
    #   false: men_qing 1 -> 2 × 2^1 = 4, seat 3 pays 4.
    #   true:  a discard win is not 门清 -> 2 × 2^0 = 2, seat 3 pays 2.
    s = score(with_options(knocking_ruleset, menqing_needs_self_draw=needs_self_draw),
              "1m2m3m2m3m4m4p5p6p7s8s9s9p", win="9p", discard=3, flags=KNOCKED, flowers="1f")
    assert s.valid
    assert fans(s) == expected_fans
    assert s.total == value
    assert s.payments == (value, 0, 0, -value)


def test_menqing_needs_self_draw_still_counts_a_self_draw(knocking_ruleset):
    # The same hand self-drawn under menqing_needs_self_draw=true: men_qing 1 -> 2 × 2^1 = 4, each pays 4.
    s = score(with_options(knocking_ruleset, menqing_needs_self_draw=True), "1m2m3m2m3m4m4p5p6p7s8s9s9p",
              win="9p", flags=KNOCKED, flowers="1f")
    assert fans(s) == {"going_out": 1, "flower": 1, "men_qing": 1}
    assert s.total == 4
    assert s.payments == (12, -4, -4, -4)


@pytest.mark.parametrize("others_pay, payments", [(0, (4, 0, -4, 0)), (1, (12, -4, -4, -4))])
def test_discard_others_pay(knocking_ruleset, others_pay, payments):
    # The hun_yi_se hand ([123m] 456m 789m EEE + 9m9m) won on 9m from seat 2: value (1 + 1) × 2^1 = 4.
    #   0: seat 2 alone pays 4 (winner +4).   1: all three opponents pay 4 (winner +12).
    s = score(with_options(knocking_ruleset, discard_others_pay=others_pay), "4m5m6m7m8m9m1z1z1z9m", win="9m",
              melds=["chow:123m@3"], discard=2, flags=KNOCKED)
    assert s.total == 4
    assert s.payments == payments


def test_discard_others_pay_does_not_change_robbing_the_kong(knocking_ruleset):
    # The robbed-kong hand worth 2 (from seat 2): the spec's robbing_kong row is {discarder: 3, others: 0}
    # whatever discard_others_pay says, so seat 2 still pays 3 × 2 = 6 and nobody else pays.
    s = score(with_options(knocking_ruleset, discard_others_pay=1), "4p6p7s8s9s2s3s4s1z1z", win="5p",
              melds=["chow:123m@3"], robbing_kong=2, flags=KNOCKED, flowers="1f")
    assert s.total == 2
    assert s.payments == (6, 0, -6, 0)


@pytest.mark.parametrize("triple_on, others_pay, payments", [
    ("konger_alone", 0, (6, 0, -6, 0)),
    ("konger_alone", 1, (6, 0, -6, 0)),
    ("each_payer", 0, (6, 0, -6, 0)),
    ("each_payer", 1, (18, -6, -6, -6)),
])
def test_robbing_kong_triple_on(knocking_ruleset, triple_on, others_pay, payments):
    # The robbed-kong hand: [123m from 3] 4p(5p)6p 789s 234s + pair 1z1z, 5p robbed from seat 2's added kong,
    # flower 1f. going_out 1 + flower 1 = 2; no double (not self-drawn, a chow claimed): value 2 × 2^0 = 2.
    # The spec's robbing_kong row: the konger (seat 2) pays 3 shares; the others pay 0 (konger_alone), or
    # (each_payer) what discard_others_pay gives them on a discard, tripled: 3 × 0 = 0 or 3 × 1 = 3 shares.
    #   konger_alone, 0 or 1: seat 2 pays 3 × 2 = 6; seats 1 and 3 pay 0; winner +6.
    #   each_payer, 0: on a discard the discarder alone pays, so again seat 2 pays 6 alone; winner +6.
    #   each_payer, 1: on a discard all three pay, so each pays 3 × 2 = 6; winner +18.
    scorer = with_options(knocking_ruleset, robbing_kong_triple_on=triple_on, discard_others_pay=others_pay)
    s = score(scorer, "4p6p7s8s9s2s3s4s1z1z", win="5p", melds=["chow:123m@3"], robbing_kong=2, flags=KNOCKED,
              flowers="1f")
    assert s.valid
    assert fans(s) == {"going_out": 1, "flower": 1}
    assert s.total == 2
    assert s.payments == payments


def test_robbing_kong_triple_on_each_payer_with_doubles(knocking_ruleset):
    # The concealed robbed-kong hand: 123m 4p(5p)6p 789s 234s + 1z1z, 5p robbed from seat 1, no flowers.
    # going_out 1 -> fig 10; men_qing 1 -> value 10 × 2^1 = 20.
    # each_payer with discard_others_pay=1: every opponent pays 3 × 20 = 60; winner +180.
    # (konger_alone, the default: seat 1 alone pays 60: see test_robbing_the_kong_times_three_is_outside_the_doubles.)
    scorer = with_options(knocking_ruleset, robbing_kong_triple_on="each_payer", discard_others_pay=1)
    s = score(scorer, "1m2m3m4p6p7s8s9s2s3s4s1z1z", win="5p", robbing_kong=1, flags=KNOCKED)
    assert s.total == 20
    assert s.payments == (180, -60, -60, -60)


CONCEALED_KONG_LAID_DOWN = dict(concealed="8p", win="8p", melds=["concealed_kong:5m5m5m5m", "chow:123p@3",
                                                                 "chow:789s@3", "chow:234s@3"], flags=KNOCKED)


@pytest.mark.parametrize("counts, expected_fans, value", [
    (True, {"going_out": 1, "suited_concealed_kong": 2, "da_tiao_che": 1}, 6),
    (False, {"going_out": 1, "suited_concealed_kong": 2}, 3),
])
def test_da_tiao_che_counts_concealed_kongs(knocking_ruleset, counts, expected_fans, value):
    # [concealed kong 5m5m5m5m] [123p from 3] [789s from 3] [234s from 3]; single 8p, self-drawn 8p.
    #   going_out 1 + suited_concealed_kong 2 = 3. No 门清 (chows claimed), no 碰碰胡, no flush (m+p+s).
    #   true (default): the concealed kong is one of the four sets melded down: da_tiao_che 1 -> 3 × 2^1 = 6,
    #     each opponent pays 6, winner +18.
    #   false: only the three claimed chows are melded down: no 大挑车 -> 3 × 2^0 = 3, each pays 3, winner +9.
    s = score(with_options(knocking_ruleset, da_tiao_che_counts_concealed_kongs=counts), **CONCEALED_KONG_LAID_DOWN)
    assert s.valid
    assert fans(s) == expected_fans
    assert s.total == value
    assert s.payments == (3 * value, -value, -value, -value)


def test_da_tiao_che_without_concealed_kongs_still_counts_four_claimed_sets(knocking_ruleset):
    # [123m from 3] [456s from 3] [777p from 1] [SSS 2z from 2]; single 9s self-drawn, under
    # da_tiao_che_counts_concealed_kongs=false: all four sets are claimed, so 大挑车 holds either way.
    #   going_out 1 + suited_pung 0 + wind_pung 1 = 2; da_tiao_che 1 -> 2 × 2^1 = 4, each pays 4, winner +12.
    s = score(with_options(knocking_ruleset, da_tiao_che_counts_concealed_kongs=False), "9s", win="9s",
              melds=["chow:123m@3", "chow:456s@3", "pung:7p7p7p@1", "pung:2z2z2z@2"], flags=KNOCKED)
    assert fans(s) == {"going_out": 1, "suited_pung": 0, "wind_pung": 1, "da_tiao_che": 1}
    assert s.total == 4
    assert s.payments == (12, -4, -4, -4)


KONG_AFTER_KNOCK = dict(concealed="7s8s9s2s3s4s6m", win="6m", melds=["kong:5555p@2:after_knock", "chow:123m@3"],
                        flags=KNOCKED)


def test_knock_lock_covers_kongs(knocking_ruleset):
    # [kong 5555p claimed from seat 2 after knocking] [123m from 3] 789s 234s + pair 6m6m, self-drawn 6m.
    #   false (default): the lock covers chows and pungs only; going_out 1 + suited_exposed_kong 1 = 2, no
    #     double (two sets in hand: no 大挑车; claims: no 门清) -> 2 × 2^0 = 2; each pays 2, winner +6.
    #   true: a kong claimed after knocking breaks the lock: bad input, procedure.knock_locks_hand.
    s = score(with_options(knocking_ruleset, knock_lock_covers_kongs=False), **KONG_AFTER_KNOCK)
    assert s.total == 2
    assert s.payments == (6, -2, -2, -2)
    locked = with_options(knocking_ruleset, knock_lock_covers_kongs=True)
    with pytest.raises(HandError) as exc:
        score(locked, **KONG_AFTER_KNOCK)
    assert exc.value.rule == "procedure.knock_locks_hand"
    assert "5p5p5p5p" in str(exc.value)
    # The same kong claimed before knocking (or extended from a pung claimed before: the mandatory kong) is no
    # claim after knocking under either reading: value 2 as above.
    before = score(locked, **{**KONG_AFTER_KNOCK, "melds": ["kong:5555p@2", "chow:123m@3"]})
    assert before.total == 2
    assert before.payments == (6, -2, -2, -2)


# --------------------------------------------------------------------------- properties

# Complete hands from the tests above: (concealed, keyword arguments). The last two may not win.
HANDS = [
    ("4p5p6p7s8s9s2s3s4s9p", dict(win="9p", melds=["chow:123m@3"], discard=3, flags=KNOCKED)),
    ("1m2m3m2m3m4m4p5p6p7s8s9s9p", dict(win="9p", flags=KNOCKED, flowers="1f")),
    ("1p1p1p3p3p3p5p5p5p7p7p7p9p", dict(win="9p", flags=KNOCKED)),
    ("5m", dict(win="5m", melds=["pung:1m1m1m@1", "kong:9m9m9m9m@2", "pung:1z1z1z@3", "concealed_kong:4z4z4z4z"],
                flags=("knocked", "kong_replacement"), flowers="1f5z")),
    ("4p6p7s8s9s2s3s4s1z1z", dict(win="5p", melds=["chow:123m@3"], robbing_kong=2, flags=KNOCKED)),
    ("4m5m6m7m8m9m1z1z1z9m", dict(win="9m", melds=["chow:123m@3"], discard=2, flags=KNOCKED)),
    ("1m2m3m2m3m4m4p5p6p7s8s9s9p", dict(win="9p")),                                # not knocked
    ("1s1s3s3s5s5s7s7s9s9s2p2p4p", dict(win="4p", flags=KNOCKED)),                 # seven pairs
]
EXTRA_FLOWERS = ["2f", "3f", "4f", "5f", "6f", "7f", "8f", "5z", "6z", "7z"]  # none duplicates a kept 1f


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(HANDS), st.sampled_from(EXTRA_FLOWERS))
def test_an_extra_flower_changes_the_value_but_never_who_may_win(knocking, case, extra):
    # A flower only adds one hua: it cannot make or break a win, cannot change a double, and once any hua lies
    # beyond the base the value is exactly (sum of hua) × 2^(sum of doubles). Payments always sum to zero.
    concealed, kwargs = case
    before = score(knocking, concealed, **kwargs)
    after = score(knocking, concealed, **{**kwargs, "flowers": kwargs.get("flowers", "") + extra})
    assert (after.valid, after.error) == (before.valid, before.error)
    if after.error == "win.shape":
        return
    f_before, f_after = fans(before), fans(after)
    assert f_after.get("flower", 0) == f_before.get("flower", 0) + 1
    assert {k: v for k, v in f_after.items() if k in DOUBLES} == {k: v for k, v in f_before.items() if k in DOUBLES}
    hua = sum(v for k, v in f_after.items() if k not in DOUBLES)
    assert after.total == hua * 2 ** sum(v for k, v in f_after.items() if k in DOUBLES)
    for s in (before, after):
        if s.valid:
            assert sum(s.payments) == 0 and s.payments[0] > 0
        else:
            assert s.payments is None
