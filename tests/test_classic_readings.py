"""Hand-worked tests of the readings of 上海麻将 (spec/shanghai-classic.yaml) where its source document reads
two ways, one option each: 坐花, where 底分 enters a share, the scope of the 5-勒 limit, the 承包 readings (a
robbed konger who is the partner, a mutual contract, 包冲), whether 杠开 / 大吊车 hands may win, whether a
concealed kong counts as laid down for 大吊车, and 清一色九张落地包输.

Source: shared/seeds/001_83aec190f966708c.txt. Every expected value below was worked out by hand from the spec's
amounts (see the reminders at the top of tests/test_classic.py: 花 items, direct settlements, 番, caps, 荒番 /
开宝, lifts, limits; one share = 底分 2 + value; self-draw: each opponent one share; discard: the discarder alone
one share), the options' readings, and nothing the engine printed.

Tiles: 1z-4z are East, South, West, North; 5z 6z 7z the dragons; 1f-8f the flowers 春 夏 秋 冬 梅 兰 菊 竹.
Seats are relative to the winner (1 next, 2 across, 3 previous); payments are (winner, seat 1, seat 2, seat 3).
"""
from __future__ import annotations

import pytest

from checker.engine import Scorer
from mcr_helpers import fans, score

KNOCKED = ("knocked",)

# [111m from seat 1] 555p 999s 222m + pair 8p8p, self-drawn on 8p: three suits, a claimed pung (no 门清). 花 0
# before flowers; 碰碰胡 lets it win and adds nothing.
MIXED = dict(concealed="5p5p5p9s9s9s2m2m2m8p", win="8p", melds=["pung:1m1m1m@1"])


# =========================================================================== 坐花 (zuo_hua)

@pytest.mark.parametrize("zuo_hua, seat, flowers, expected_fans, value, payments", [
    # East sits on 春 (1f) and 梅 (5f); 夏 (2f) is South's.
    #   off: flower 1×3 = 3 -> value 3, share 5.
    (False, "E", "1f5f2f", {"flower": 3, "peng_peng_hu": 0}, 3, (15, -5, -5, -5)),
    #   on: flower 3 + seat_flower 1×2 (1f, 5f) = 5 -> share 7.
    (True, "E", "1f5f2f", {"flower": 3, "seat_flower": 2, "peng_peng_hu": 0}, 5, (21, -7, -7, -7)),
    # The same flowers in the South seat: only 夏 (2f) is its own. flower 3 + seat_flower 1 = 4 -> share 6.
    (True, "S", "1f5f2f", {"flower": 3, "seat_flower": 1, "peng_peng_hu": 0}, 4, (18, -6, -6, -6)),
    # North sits on 冬 (4f) and 竹 (8f), not 菊 (7f, West's). off: flower 2 -> share 4.
    (False, "N", "7f8f", {"flower": 2, "peng_peng_hu": 0}, 2, (12, -4, -4, -4)),
    #   on: flower 2 + seat_flower 1 (8f) = 3 -> share 5.
    (True, "N", "7f8f", {"flower": 2, "seat_flower": 1, "peng_peng_hu": 0}, 3, (15, -5, -5, -5)),
])
def test_zuo_hua_counts_the_own_seat_flower_twice(classic_ruleset, zuo_hua, seat, flowers, expected_fans, value,
                                                 payments):
    # MIXED, self-drawn, no other 花. Direct none; 番 none; cap 10; every value below it.
    s = score(Scorer(classic_ruleset, {"zuo_hua": zuo_hua}), MIXED["concealed"], win=MIXED["win"],
              melds=MIXED["melds"], seat=seat, flowers=flowers, flags=KNOCKED)
    assert s.valid
    assert fans(s) == expected_fans
    assert s.total == value
    assert s.payments == payments


# =========================================================================== where 底分 enters (base_placement)

# A: 111z 555z 222m 999s + 8p8p, all concealed, self-drawn on 8p; flower 1f.
#    花: flower 1, wind_pung 1, dragon_pung 2 = 4. Direct none. 番: 门清 1. Cap 2勒 = 20 (门清).
MENQING = dict(concealed="1z1z1z5z5z5z2m2m2m9s9s9s8p", win="8p", melds=[], flowers="1f", flags=KNOCKED)
# B: [concealed kong 7777z] [kong 6666z from 3] [kong 2222z from 2] 555m + 9p9p, self-drawn; flowers 1f-4f.
#    花: flower 4, wind_exposed_kong 2, dragon_exposed_kong 3, dragon_concealed_kong 4 = 13. 番 none. Cap 10.
CAPPED = dict(concealed="5m5m5m9p", win="9p", melds=["concealed_kong:7z7z7z7z", "kong:6z6z6z6z@3", "kong:2z2z2z2z@2"],
              flowers="1f2f3f4f", flags=KNOCKED)
# C: [kong 5555p from 2] 111m 999s 333m + 8p8p, self-drawn on the kong's replacement tile (杠开).
#    花: suited_exposed_kong 1. 番 none. Cap 10. 杠开 lifts a value below the cap to it.
GANG_KAI = dict(concealed="1m1m1m9s9s9s3m3m3m8p", win="8p", melds=["kong:5p5p5p5p@2"], flowers="",
                flags=("knocked", "kong_replacement"))


@pytest.mark.parametrize("hand, placement, counters, value, payments", [
    # A. after_caps: 4 × 2 = 8 ≤ 20; share 2 + 8 = 10.
    (MENQING, "after_caps", {}, 8, (30, -10, -10, -10)),
    # A. doubled: (4 + 2) × 2 = 12 ≤ 20; the share is the value, 12.
    (MENQING, "doubled", {}, 12, (36, -12, -12, -12)),
    # A. doubled with 底分 5: (4 + 5) × 2 = 18 ≤ 20; share 18.
    (MENQING, "doubled", {"base": 5}, 18, (54, -18, -18, -18)),
    # A. within_cap: 4 × 2 = 8, + 2 = 10 ≤ 20; share 10 (the same as after_caps below the cap).
    (MENQING, "within_cap", {}, 10, (30, -10, -10, -10)),
    # B. after_caps: 13 capped at 10; share 2 + 10 = 12.
    (CAPPED, "after_caps", {}, 10, (36, -12, -12, -12)),
    # B. doubled: 13 + 2 = 15, no 番, capped at 10; share 10.
    (CAPPED, "doubled", {}, 10, (30, -10, -10, -10)),
    # B. within_cap: 13 + 2 = 15, capped at 10; share 10.
    (CAPPED, "within_cap", {}, 10, (30, -10, -10, -10)),
    # B. after_caps with 底分 5: 10, share 5 + 10 = 15. within_cap: 13 + 5 = 18, capped at 10; share 10.
    (CAPPED, "after_caps", {"base": 5}, 10, (45, -15, -15, -15)),
    (CAPPED, "within_cap", {"base": 5}, 10, (30, -10, -10, -10)),
    # C. after_caps: 1 lifted to 10; share 12.
    (GANG_KAI, "after_caps", {}, 10, (36, -12, -12, -12)),
    # C. doubled: 1 + 2 = 3, no 番, lifted to 10; share 10.   within_cap: 1 + 2 = 3, lifted to 10; share 10.
    (GANG_KAI, "doubled", {}, 10, (30, -10, -10, -10)),
    (GANG_KAI, "within_cap", {}, 10, (30, -10, -10, -10)),
])
def test_base_placement(classic_ruleset, hand, placement, counters, value, payments):
    s = score(Scorer(classic_ruleset, {"base_placement": placement}), hand["concealed"], win=hand["win"],
              melds=hand["melds"], flowers=hand["flowers"], flags=hand["flags"], counters=counters)
    assert s.valid
    assert s.total == value
    assert s.payments == payments


@pytest.mark.parametrize("placement, value, payments", [
    # 清一色 as four 番 with no 花 at all. [123m from seat 3] 456m 789m 222m + 5m5m, won on 5m from seat 1.
    # after_caps: 0 × 2^4 = 0; seat 1 pays 底分 2 alone.
    ("after_caps", 0, (2, -2, 0, 0)),
    # doubled: (0 + 2) × 2^4 = 32; cap 1勒 = 10 (清一色四番 raises no cap) -> 10; seat 1 pays 10.
    ("doubled", 10, (10, -10, 0, 0)),
])
def test_base_placement_gives_four_fan_qing_yi_se_something_to_double(classic_ruleset, placement, value, payments):
    s = score(Scorer(classic_ruleset, {"qingyise": "four_fan", "base_placement": placement}), "4m5m6m7m8m9m2m2m2m5m",
              win="5m", melds=["chow:123m@3"], discard=1, flags=KNOCKED)
    assert s.valid
    assert fans(s) == {"qing_yi_se_four_fan": 4}
    assert s.total == value
    assert s.payments == payments


# =========================================================================== 底分 on a direct settlement (direct_settlement_base)

# [123m from seat 3] 456m 789m 222m + 5m5m, won on 5m from seat 1: 清一色 with a claimed chow (no 门清). 花 0 (a suit
# pung is worth none). Direct: 清一色 1勒 = 10. 番 none. Cap 1勒 = 10. The discarder alone pays one share.
FLUSH_ON_DISCARD = dict(concealed="4m5m6m7m8m9m2m2m2m5m", win="5m", melds=["chow:1m2m3m@3"], discard=1)
# 123m 456m 789m 222m + 5m5m all concealed, self-drawn on 5m: 清一色 and 门清 (1 番, cap 2勒 = 20). 花 0.
FLUSH_CONCEALED = dict(concealed="1m2m3m4m5m6m7m8m9m2m2m2m5m", win="5m", melds=[])
# The document's own example (勒子: 清碰+开宝为4勒子): [111m from 1] [333m from 2] 555m 777m + 9m9m, won on 9m from
# seat 1, 开宝. Direct 清碰 2勒 = 20, cap 2勒 = 20; 开宝 × 2: value 40, cap 40.
QING_PENG_KAIBAO = dict(concealed="5m5m5m7m7m7m9m", win="9m", melds=["pung:1m1m1m@1", "pung:3m3m3m@2"], discard=1)


@pytest.mark.parametrize("hand, options, flags, counters, value, payments", [
    # after_caps, added: the share is 2 + 10 = 12.   none: 10, the 勒 alone.
    (FLUSH_ON_DISCARD, {}, (), {}, 10, (12, -12, 0, 0)),
    (FLUSH_ON_DISCARD, {"direct_settlement_base": "none"}, (), {}, 10, (10, -10, 0, 0)),
    # with 底分 5: added 5 + 10 = 15; none: 10 whatever the room's base.
    (FLUSH_ON_DISCARD, {}, (), {"base": 5}, 10, (15, -15, 0, 0)),
    (FLUSH_ON_DISCARD, {"direct_settlement_base": "none"}, (), {"base": 5}, 10, (10, -10, 0, 0)),
    # within_cap: added 10 + 2 = 12, capped at 10, the share 10; none: 10. The readings meet at the cap.
    (FLUSH_ON_DISCARD, {"base_placement": "within_cap"}, (), {}, 10, (10, -10, 0, 0)),
    (FLUSH_ON_DISCARD, {"base_placement": "within_cap", "direct_settlement_base": "none"}, (), {}, 10,
     (10, -10, 0, 0)),
    # doubled with a final direct settlement: added (10 + 2) = 12, fixed against 门清's double, under the cap 20:
    # each opponent pays 12. none: 10, each pays 10.
    (FLUSH_CONCEALED, {"base_placement": "doubled", "direct_settlement_final": True}, (), {}, 12,
     (36, -12, -12, -12)),
    (FLUSH_CONCEALED, {"base_placement": "doubled", "direct_settlement_final": True,
                       "direct_settlement_base": "none"}, (), {}, 10, (30, -10, -10, -10)),
    # doubled, not final: added (10 + 2) × 2 = 24, capped at 20; none: 10 × 2 = 20. Both 20 each.
    (FLUSH_CONCEALED, {"base_placement": "doubled", "direct_settlement_base": "none"}, (), {}, 20,
     (60, -20, -20, -20)),
    # 清碰 + 开宝 = 4 勒: added, the discarder pays 2 + 40 = 42; none: 40, the example's 4 勒 exactly.
    (QING_PENG_KAIBAO, {}, ("kaibao",), {}, 40, (42, -42, 0, 0)),
    (QING_PENG_KAIBAO, {"direct_settlement_base": "none"}, ("kaibao",), {}, 40, (40, -40, 0, 0)),
])
def test_direct_settlement_base(classic_ruleset, hand, options, flags, counters, value, payments):
    s = score(Scorer(classic_ruleset, options), hand["concealed"], win=hand["win"], melds=hand["melds"],
              discard=hand.get("discard"), flags=KNOCKED + flags, counters=counters)
    assert s.valid
    assert s.total == value
    assert s.payments == payments


def test_a_hand_not_settled_directly_keeps_its_base_under_direct_settlement_base_none(classic_ruleset):
    # MIXED with flower 1f in the East seat: 花 1, no direct pattern; share 2 + 1 = 3 under either reading.
    for options in ({}, {"direct_settlement_base": "none"}):
        s = score(Scorer(classic_ruleset, options), MIXED["concealed"], win=MIXED["win"], melds=MIXED["melds"],
                  flowers="1f", flags=KNOCKED)
        assert s.valid and s.total == 1 and s.payments == (9, -3, -3, -3), options


# =========================================================================== scope of the 5-勒 limit

# 风碰 with three pungs claimed, two from seat 1 and one from seat 2 (no 承包 unless a row names one: three claims
# from one seat would make seat 1 the partner): [111z from 1][222z from 2][333z from 1] 555z + 4z4z,
# self-drawn on 4z, 荒番 1.
#   花: wind_pung 1×3 = 3, dragon_pung 2 = 5. Direct 风碰 4勒 = 40 (风 = every honour). 番 none (claimed pungs).
#   Cap 4勒 = 40 (风碰). 荒番 × 2: value 80, cap 80. No lift; limit 80 ≤ 80.
FENG_PENG = dict(concealed="5z5z5z4z", win="4z", melds=["pung:1z1z1z@1", "pung:2z2z2z@2", "pung:3z3z3z@1"])


@pytest.mark.parametrize("scope, options, how, counters, value, payments", [
    # No contract, self-drawn. each_share: 80 -> 50; each pays 2 + 50 = 52.
    ("each_share", {}, {}, {}, 50, (156, -52, -52, -52)),
    # whole_loss: the value stays 80; each pays one share: 2 + min(80, 50) = 52. The same payments.
    ("whole_loss", {}, {}, {}, 80, (156, -52, -52, -52)),
    # Contract with seat 1, self-drawn: the partner pays 5 shares, the others nothing.
    # each_share: 5 × (2 + 50) = 260.
    ("each_share", {}, {}, {"contract_with": 1}, 50, (260, -260, 0, 0)),
    # whole_loss: 5 × 2 (底分) + min(5 × 80, 50) = 10 + 50 = 60.
    ("whole_loss", {}, {}, {"contract_with": 1}, 80, (60, -60, 0, 0)),
    # single_hand_limit false: no 5-勒 limit under either scope: 5 × (2 + 80) = 410.
    ("whole_loss", {"single_hand_limit": False}, {}, {"contract_with": 1}, 80, (410, -410, 0, 0)),
    # 出冲, won on 4z discarded by seat 2, no contract. each_share: seat 2 pays 2 × 52 = 104, seats 1 and 3 52.
    ("each_share", {"discard_payment": "chong_double"}, {"discard": 2}, {}, 50, (208, -52, -104, -52)),
    # whole_loss: seat 2 pays 2 × 2 + min(2 × 80, 50) = 54; seats 1 and 3 pay 2 + 50 = 52.
    ("whole_loss", {"discard_payment": "chong_double"}, {"discard": 2}, {}, 80, (158, -52, -54, -52)),
    # whole_loss with base_placement within_cap: the value is 80 + 2 = 82 (capped at 80), the share is the value
    # alone; the partner's 5 shares are min(5 × 80, 50) = 50.
    ("whole_loss", {"base_placement": "within_cap"}, {}, {"contract_with": 1}, 80, (50, -50, 0, 0)),
])
def test_single_hand_limit_scope(classic_ruleset, scope, options, how, counters, value, payments):
    s = score(Scorer(classic_ruleset, {"single_hand_limit_scope": scope, **options}), FENG_PENG["concealed"],
              win=FENG_PENG["win"], melds=FENG_PENG["melds"], flags=KNOCKED, counters={"huangfan": 1, **counters},
              **how)
    assert s.valid
    assert fans(s) == {"wind_pung": 3, "dragon_pung": 2, "feng_peng": 4, "huang_fan": 2}
    assert s.total == value
    assert s.payments == payments


@pytest.mark.parametrize("scope, counters, payments", [
    # The limit's `bounds: payment` (what diagnosis tries for an engine bounding the whole payment, 底分
    # included): the value stays 80 and is not cut by the step. Self-drawn, no contract, each payer one share:
    # whole_loss: min(2 + 80, 50) = 50 each; each_share: min(2 + 80, 50) = 50 each.
    ("whole_loss", {}, (150, -50, -50, -50)),
    ("each_share", {}, (150, -50, -50, -50)),
    # Contract with seat 1, self-drawn, the partner pays 5 shares of 82: whole_loss: min(5 × 82, 50) = 50;
    # each_share: 5 × min(82, 50) = 250.
    ("whole_loss", {"contract_with": 1}, (50, -50, 0, 0)),
    ("each_share", {"contract_with": 1}, (250, -250, 0, 0)),
])
def test_a_single_hand_limit_bounding_the_payment_takes_the_base_in(classic_ruleset, scope, counters, payments):
    from dataclasses import replace
    from types import MappingProxyType

    steps = tuple(replace(st, params=MappingProxyType({**st.params, "bounds": "payment"}))
                  if st.name == "outer_limit" else st for st in classic_ruleset.scoring.steps)
    edited = replace(classic_ruleset, scoring=replace(classic_ruleset.scoring, steps=steps))
    s = score(Scorer(edited, {"single_hand_limit_scope": scope}), FENG_PENG["concealed"], win=FENG_PENG["win"],
              melds=FENG_PENG["melds"], flags=KNOCKED, counters={"huangfan": 1, **counters})
    assert s.valid
    assert s.total == 80
    assert s.payments == payments


# =========================================================================== 承包 readings

# The 承包 and 包 readings below are priced with single_hand_limit_scope=each_share, so that each count of shares
# shows whole; under the default (whole_loss) one payer's value part is at most 5勒 in all (test_classic.py,
# test_contract_payments).
EACH_SHARE = {"single_hand_limit_scope": "each_share"}

# 清一色 won by robbing a 5p added kong: [123p from seat 3] 4p_6p 789p 222p + 9p9p. 花 0, 清一色 10, no 门清,
# cap 10 -> value 10, share 12. The konger pays 3 shares (36).
ROB = dict(concealed="4p6p7p8p9p2p2p2p9p9p", win="5p", melds=["chow:123p@3"])


@pytest.mark.parametrize("reading, partner, flags, payments", [
    # The konger (seat 2) is the partner. both: 3 + 3 = 6 shares = 72.   once: 3 shares = 36.
    ("both", 2, (), (72, 0, -72, 0)),
    ("once", 2, (), (36, 0, -36, 0)),
    # Mutual contract: both: 3 + 3 × 2 = 9 shares = 108.   once: the contract adds nothing to double: 3 = 36.
    ("both", 2, ("contract_mutual",), (108, 0, -108, 0)),
    ("once", 2, ("contract_mutual",), (36, 0, -36, 0)),
    # A partner who is not the konger (seat 1) pays its 3 shares under both readings: 36 + 36.
    ("both", 1, (), (72, -36, -36, 0)),
    ("once", 1, (), (72, -36, -36, 0)),
])
def test_contract_robbing_konger(classic_ruleset, reading, partner, flags, payments):
    s = score(Scorer(classic_ruleset, {"contract_robbing_konger": reading, **EACH_SHARE}), ROB["concealed"], win=ROB["win"],
              melds=ROB["melds"], robbing_kong=2, flags=KNOCKED + flags, counters={"contract_with": partner})
    assert s.valid
    assert fans(s) == {"qing_yi_se": 1}
    assert s.total == 10
    assert s.payments == payments


# 清碰 with three pungs claimed from seat 1: [111s][333s][555s from seat 1] 777s + 9s9s. 花 0, 清碰 20, no 门清,
# cap 20 -> value 20, share 22. Contract with seat 1, running both ways (flag contract_mutual).
CONTRACT = dict(concealed="7s7s7s9s", win="9s", melds=["pung:1s1s1s@1", "pung:3s3s3s@1", "pung:5s5s5s@1"])


@pytest.mark.parametrize("reading, how, flags, payments", [
    # self-drawn: twice: 5 × 2 = 10 shares = 220.   once: 5 shares = 110.
    ("twice", {}, (), (220, -220, 0, 0)),
    ("once", {}, (), (110, -110, 0, 0)),
    # the partner discards: twice: 2 × 2 = 4 shares = 88.   once: 2 shares = 44.
    ("twice", {"discard": 1}, (), (88, -88, 0, 0)),
    ("once", {"discard": 1}, (), (44, -44, 0, 0)),
    # a ready third party (seat 2) discards: it pays 1 share (22); the partner 1 × 2 = 2 (44), or 1 (22).
    ("twice", {"discard": 2}, ("discarder_ready",), (66, -44, -22, 0)),
    ("once", {"discard": 2}, ("discarder_ready",), (44, -22, -22, 0)),
])
def test_contract_mutual_counting(classic_ruleset, reading, how, flags, payments):
    s = score(Scorer(classic_ruleset, {"contract_mutual_counting": reading, **EACH_SHARE}), CONTRACT["concealed"],
              win=CONTRACT["win"], melds=CONTRACT["melds"], flags=KNOCKED + ("contract_mutual",) + flags,
              counters={"contract_with": 1}, **how)
    assert s.valid
    assert fans(s) == {"qing_peng": 2}
    assert s.total == 20
    assert s.payments == payments


@pytest.mark.parametrize("how, payments", [
    ("bao_chong", (36, 0, -36, 0)),                # 3 shares: what the three would pay a self-drawn win
    ("bao_chong_chong_total", (48, 0, -48, 0)),    # 4 shares: what 出冲 would collect, 2 + 1 + 1
])
def test_bao_chong_pays_three_shares_or_what_chu_chong_collects(classic_ruleset, how, payments):
    # [111z from seat 1] 222p 555p 999p + 3z3z (混碰) won on 3z discarded by seat 2.
    #   花: wind_pung 1. Direct 混碰 1勒 = 10. 番 none. Cap 10. Value 10, share 12.
    s = score(Scorer(classic_ruleset, {"discard_payment": how}), "2p2p2p5p5p5p9p9p9p3z", win="3z",
              melds=["pung:1z1z1z@1"], discard=2, flags=KNOCKED)
    assert s.valid
    assert fans(s) == {"wind_pung": 1, "hun_peng": 1}
    assert s.total == 10
    assert s.payments == payments


# =========================================================================== who may win: 杠开 and 大吊车 hands

# 杠开 on a hand with a chow: [kong 5555p from seat 2] [123m from seat 3] 456s 789s + 9p9p, self-drawn on the kong's
# replacement tile. Three suits and chows: none of 碰碰胡 … 风碰.
#   花: suited_exposed_kong 1. 番 none. Cap 10. 杠开 lifts 1 to 10. Share 12 each.
GANG_KAI_CHOWS = dict(concealed="4s5s6s7s8s9s9p", win="9p", melds=["kong:5p5p5p5p@2", "chow:1m2m3m@3"],
                      flags=("knocked", "kong_replacement"), expected={"suited_exposed_kong": 1, "gang_kai": 0},
                      payments=(36, -12, -12, -12))
# 大吊车 on a hand with chows: [123m from 3] [789p from 3] [555s from 1] [222z from 2], single wait 6z won from seat 1.
#   花: wind_pung 1. 番 none. Cap 10. 大吊车 lifts 1 to 10. Seat 1 pays 12.
DA_DIAO_CHE_CHOWS = dict(concealed="6z", win="6z", melds=["chow:1m2m3m@3", "chow:7p8p9p@3", "pung:5s5s5s@1",
                                                          "pung:2z2z2z@2"], discard=1, flags=KNOCKED,
                         expected={"wind_pung": 1, "da_diao_che": 0}, payments=(12, -12, 0, 0))


@pytest.mark.parametrize("hand", [GANG_KAI_CHOWS, DA_DIAO_CHE_CHOWS], ids=["gang_kai", "da_diao_che"])
@pytest.mark.parametrize("allowed", [False, True])
def test_lift_hands_win(classic_ruleset, hand, allowed):
    # false (default): the hand is none of the listed hands -> refused (win.special_hands_only), nobody pays.
    # true: 杠开 / 大吊车 let it win: value 10 (see above).
    s = score(Scorer(classic_ruleset, {"lift_hands_win": allowed}), hand["concealed"], win=hand["win"],
              melds=hand["melds"], discard=hand.get("discard"), flags=hand["flags"])
    if not allowed:
        assert not s.valid
        assert s.error == "win.special_hands_only"
        assert s.payments is None
        return
    assert s.valid
    assert fans(s) == hand["expected"]
    assert s.total == 10
    assert s.payments == hand["payments"]


# =========================================================================== 大吊车 and a concealed kong

@pytest.mark.parametrize("counts, melds, discard, expected_fans, value, payments", [
    # [concealed kong 5555p] [111m from 1] [999s from 2] [kong 2222z from 3], single wait 8p won from seat 1.
    #   花: suited_concealed_kong 2, wind_exposed_kong 2 = 4. 番 none. Cap 10.
    #   true (default): four sets laid down -> 大吊车 lifts 4 to 10; seat 1 pays 12.
    (True, ["concealed_kong:5p5p5p5p", "pung:1m1m1m@1", "pung:9s9s9s@2", "kong:2z2z2z2z@3"], 1,
     {"suited_concealed_kong": 2, "wind_exposed_kong": 2, "peng_peng_hu": 0, "da_diao_che": 0}, 10, (12, -12, 0, 0)),
    #   false: three claimed sets only -> no 大吊车; value 4; seat 1 pays 2 + 4 = 6.
    (False, ["concealed_kong:5p5p5p5p", "pung:1m1m1m@1", "pung:9s9s9s@2", "kong:2z2z2z2z@3"], 1,
     {"suited_concealed_kong": 2, "wind_exposed_kong": 2, "peng_peng_hu": 0}, 4, (6, -6, 0, 0)),
    # Four claimed pungs [111m from 1] [999s from 2] [333m from 1] [111z from 3], 8p from seat 3: 大吊车 under both.
    #   花: wind_pung 1. Lifted to 10; seat 3 pays 12.
    (False, ["pung:1m1m1m@1", "pung:9s9s9s@2", "pung:3m3m3m@1", "pung:1z1z1z@3"], 3,
     {"wind_pung": 1, "peng_peng_hu": 0, "da_diao_che": 0}, 10, (12, 0, 0, -12)),
])
def test_da_diao_che_concealed_kong(classic_ruleset, counts, melds, discard, expected_fans, value, payments):
    s = score(Scorer(classic_ruleset, {"da_diao_che_concealed_kong": counts}), "8p", win="8p", melds=melds,
              discard=discard, flags=KNOCKED)
    assert s.valid
    assert fans(s) == expected_fans
    assert s.total == value
    assert s.payments == payments


# =========================================================================== 清一色九张落地包输 (full_flush_liability)

# 清一色 with three claimed sets (nine tiles of 万 laid down): [123m from 3] [456m from 3] [222m from 1] 789m + 5m5m.
#   花 0 (a suited pung is 0). Direct 清一色 1勒 = 10. 番 none (claimed sets: no 门清). Cap 1勒 = 10. Value 10, share 12.
FLUSH = dict(concealed="7m8m9m5m", win="5m", melds=["chow:123m@3", "chow:456m@3", "pung:2m2m2m@1"])


@pytest.mark.parametrize("options, how, payments", [
    # off (default): the discarder (seat 2) alone pays its one share: 12.
    ({}, {"discard": 2}, (12, 0, -12, 0)),
    # on: 包 — seat 2 pays for all three, the 3 shares 包冲 pays (discard_payment alone): 3 × 12 = 36.
    ({"full_flush_liability": True}, {"discard": 2}, (36, 0, -36, 0)),
    # on, 出冲 (chong_double): 包 pays what 出冲 would collect from the three, 2 + 1 + 1 = 4 shares = 48, and the
    # other two pay nothing (off, 出冲 is seat 2: 2 × 12 = 24, seats 1 and 3: 12 each).
    ({"full_flush_liability": True, "discard_payment": "chong_double"}, {"discard": 2}, (48, 0, -48, 0)),
    ({"discard_payment": "chong_double"}, {"discard": 2}, (48, -12, -24, -12)),
    # on, 包冲 read as the 出冲 total: 4 shares = 48 (the same as 包冲 itself pays).
    ({"full_flush_liability": True, "discard_payment": "bao_chong_chong_total"}, {"discard": 3}, (48, 0, 0, -48)),
    # on, self-drawn: nobody fed the hand, no 包: each opponent one share, 12 each.
    ({"full_flush_liability": True}, {}, (36, -12, -12, -12)),
])
def test_full_flush_liability_discarder_pays_for_all(classic_ruleset, options, how, payments):
    s = score(Scorer(classic_ruleset, options), FLUSH["concealed"], win=FLUSH["win"], melds=FLUSH["melds"],
              flags=KNOCKED, **how)
    assert s.valid
    assert fans(s) == {"qing_yi_se": 1}
    assert s.total == 10
    assert s.payments == payments


@pytest.mark.parametrize("concealed, melds, options, expected_fans, value, payments", [
    # 清一色四番 (qingyise=four_fan) is a 清一色 too: FLUSH, won on 5m from seat 2. 花 0 × 2^4 = 0, cap 10 -> value 0,
    # share 底分 2 + 0 = 2; 包: 3 × 2 = 6.
    ("7m8m9m5m", FLUSH["melds"], {"qingyise": "four_fan"}, {"qing_yi_se_four_fan": 4}, 0, (6, 0, -6, 0)),
    # 清碰 with three claimed pungs: [111s from 1] [333s from 3] [555s from 1] 777s + 9s9s, from seat 2 (no seat
    # claimed from three times, so no 承包).
    #   花 0. Direct 清碰 2勒 = 20. Cap 2勒 = 20. Value 20, share 22; 包: 3 × 22 = 66.
    ("7s7s7s9s", ["pung:1s1s1s@1", "pung:3s3s3s@3", "pung:5s5s5s@1"], {}, {"qing_peng": 2}, 20, (66, 0, -66, 0)),
    # The same pungs all from seat 1 make seat 1 the 承包 partner; seat 2, a third party not ready, pays 2 shares
    # (如点炮者未听牌，则赔付胡牌者2倍点数): the contract, not 包, decides (option liability_under_contract, default).
    ("7s7s7s9s", ["pung:1s1s1s@1", "pung:3s3s3s@1", "pung:5s5s5s@1"], {}, {"qing_peng": 2}, 20, (44, 0, -44, 0)),
    # An exposed kong is laid down: [123m from 3] [456m from 3] [kong 7777m from 1] 222m + 5m5m, from seat 2.
    #   花: suited_exposed_kong 1. Direct 清一色 10 (the value becomes 10). Cap 10. Value 10; 包: 3 × 12 = 36.
    ("2m2m2m5m", ["chow:123m@3", "chow:456m@3", "kong:7m7m7m7m@1"], {}, {"suited_exposed_kong": 1, "qing_yi_se": 1},
     10, (36, 0, -36, 0)),
    # A concealed kong is not laid down: [123m from 3] [456m from 3] [concealed kong 7777m] 222m + 5m5m: two
    # claimed sets only. 花: suited_concealed_kong 2. Direct 清一色 10. Value 10; seat 2 pays one share, 12.
    ("2m2m2m5m", ["chow:123m@3", "chow:456m@3", "concealed_kong:7m7m7m7m"], {},
     {"suited_concealed_kong": 2, "qing_yi_se": 1}, 10, (12, 0, -12, 0)),
    # Two claimed sets: [123m from 3] [456m from 3] 222m 789m + 5m5m. Value 10; seat 2 pays one share, 12.
    ("2m2m2m7m8m9m5m", ["chow:123m@3", "chow:456m@3"], {}, {"qing_yi_se": 1}, 10, (12, 0, -12, 0)),
    # Three claimed pungs but three suits, no 清一色: [111m from 1] [999s from 2] [555p from 3] 222m + 8p8p (碰碰胡).
    #   花 0. Value 0; seat 2 pays one share, 底分 2.
    ("2m2m2m8p", ["pung:1m1m1m@1", "pung:9s9s9s@2", "pung:5p5p5p@3"], {}, {"peng_peng_hu": 0}, 0, (2, 0, -2, 0)),
])
def test_full_flush_liability_needs_a_flush_and_three_claimed_sets(classic_ruleset, concealed, melds, options,
                                                                    expected_fans, value, payments):
    # Each won on its last concealed tile (the pair's second tile), discarded by seat 2; full_flush_liability on.
    s = score(Scorer(classic_ruleset, {"full_flush_liability": True, **EACH_SHARE, **options}), concealed, win=concealed[-2:],
              melds=melds, discard=2, flags=KNOCKED)
    assert s.valid
    assert fans(s) == expected_fans
    assert s.total == value
    assert s.payments == payments


@pytest.mark.parametrize("how, flags, payments", [
    # The contract partner (seat 1) discards: 包 would be 3 shares, then the contract prices the discard as it
    # prices any: the partner pays 承包者付2份, 2 × 22 = 44.
    ({"discard": 1}, (), (44, -44, 0, 0)),
    # A ready third party (seat 2) discards: the contract's 1 share each from it and the partner, 22 + 22.
    ({"discard": 2}, ("discarder_ready",), (44, -22, -22, 0)),
])
def test_full_flush_liability_under_a_contract(classic_ruleset, how, flags, payments):
    # The 清碰 hand above with its three pungs all from seat 1, the contract partner. Value 20, share 22.
    s = score(Scorer(classic_ruleset, {"full_flush_liability": True}), CONTRACT["concealed"], win=CONTRACT["win"],
              melds=CONTRACT["melds"], flags=KNOCKED + flags, counters={"contract_with": 1}, **how)
    assert s.valid
    assert s.total == 20
    assert s.payments == payments


@pytest.mark.parametrize("options, how, flags, payments", [
    # The 清碰 hand above (value 20, share 22), its contract partner seat 1, full_flush_liability on; the 5 勒 limit
    # (default whole_loss) bounds the value part of all a payer's shares together at 50, their 底分 on top.
    # liability: 包 prices it, the discarder pays what a self-draw under the contract collects: the partner's 5
    # shares and the other two's none (contract_self_draw_others 0): value 5 × 20 = 100, held to 50, 底分 5 × 2 =
    # 10, 60 in all, whoever discards.
    ({"liability_under_contract": "liability"}, {"discard": 1}, (), (60, -60, 0, 0)),
    ({"liability_under_contract": "liability"}, {"discard": 2}, ("discarder_ready",), (60, 0, -60, 0)),
    # the other two still pay on a contract self-draw (1 + 1 + 5 = 7 shares): value 140 held to 50, 底分 14: 64.
    ({"liability_under_contract": "liability", "contract_self_draw_others": 1}, {"discard": 1}, (), (64, -64, 0, 0)),
    # the contract runs both ways (counted twice: 10 shares): value 200 held to 50, 底分 20: 70.
    ({"liability_under_contract": "liability"}, {"discard": 1}, ("contract_mutual",), (70, -70, 0, 0)),
    # both: 包's 3 shares and the contract's. The partner discards: 3 + 2 = 5 shares, 60 as above.
    ({"liability_under_contract": "both"}, {"discard": 1}, (), (60, -60, 0, 0)),
    # A ready third party (seat 2) discards: it pays 包's 3 and the contract's 1 (4 shares: value 80 held to 50,
    # 底分 8: 58), the partner the contract's 1 share (22).
    ({"liability_under_contract": "both"}, {"discard": 2}, ("discarder_ready",), (80, -22, -58, 0)),
    # Not ready: 包's 3 and the contract's 2 (5 shares, 60), the partner nothing.
    ({"liability_under_contract": "both"}, {"discard": 2}, (), (60, 0, -60, 0)),
    # contract (the default): as test_full_flush_liability_under_a_contract, 2 shares from the partner, 44.
    ({"liability_under_contract": "contract"}, {"discard": 1}, (), (44, -44, 0, 0)),
    # Liability off: the option changes nothing (no 包): the contract's 2 shares, 44.
    ({"liability_under_contract": "liability", "full_flush_liability": False}, {"discard": 1}, (), (44, -44, 0, 0)),
])
def test_who_pays_a_liable_hand_under_a_contract(classic_ruleset, options, how, flags, payments):
    s = score(Scorer(classic_ruleset, {"full_flush_liability": True, **options}), CONTRACT["concealed"],
              win=CONTRACT["win"], melds=CONTRACT["melds"], flags=KNOCKED + flags, counters={"contract_with": 1},
              **how)
    assert s.valid
    assert s.total == 20
    assert s.payments == payments


# =========================================================================== 三番叫胡却可不包 (three_fan_call_exemption)

CALLED = ("discarder_called_three_fan",)


@pytest.mark.parametrize("options, flags, payments", [
    # FLUSH won on 5m from seat 2 (value 10, share 12, as above). The discarder called three 番 of his own:
    # under full_flush_liability, the exemption (default on) makes it any discard: seat 2 pays one share, 12.
    ({"full_flush_liability": True}, CALLED, (12, 0, -12, 0)),
    # the exemption off: 包 as before, 3 shares, 36.
    ({"full_flush_liability": True, "three_fan_call_exemption": False}, CALLED, (36, 0, -36, 0)),
    # no call: 包, 36 (the flag alone decides; a merely ready discarder is still liable).
    ({"full_flush_liability": True}, ("discarder_ready",), (36, 0, -36, 0)),
    # no 包 at all (full_flush_liability off): the flag changes nothing, one share, 12.
    ({}, CALLED, (12, 0, -12, 0)),
])
def test_three_fan_call_exempts_the_discarder_from_full_flush_liability(classic_ruleset, options, flags, payments):
    s = score(Scorer(classic_ruleset, options), FLUSH["concealed"], win=FLUSH["win"], melds=FLUSH["melds"],
              flags=KNOCKED + flags, discard=2)
    assert s.valid
    assert fans(s) == {"qing_yi_se": 1}
    assert s.total == 10
    assert s.payments == payments


def _flush_table(options, discarder_tiles):
    """A classic table where seat 0 holds FLUSH (knocked; chows 123m and 456m claimed from seat 3, pung 222m from
    seat 1; 7m8m9m5m in hand) and seat 2 holds `discarder_tiles` after discarding 5m; no contract (no seat claimed
    three times from one other)."""
    from checker.table.board import Meld
    from checker.table.log import GAME, VERSION, new_table
    from checker.tiles import parse_tile, parse_tiles

    table = new_table({"game": GAME, "version": VERSION, "ruleset": "shanghai-classic", "options": options,
                       "seed": 1, "dealer": 0})
    winner, discarder = table.players[0], table.players[2]
    winner.counts = [0] * len(winner.counts)
    for t in parse_tiles("7m8m9m5m"):
        winner.counts[t] += 1
    winner.melds = [Meld("chow", tuple(parse_tiles("1m2m3m")), 3), Meld("chow", tuple(parse_tiles("4m5m6m")), 3),
                    Meld("pung", tuple(parse_tiles("2m2m2m")), 1)]
    winner.flowers, winner.knocked = [], True
    discarder.counts = [0] * len(discarder.counts)
    for t in parse_tiles(discarder_tiles):
        discarder.counts[t] += 1
    discarder.melds, discarder.flowers = [], []
    return table, parse_tile("5m")


@pytest.mark.parametrize("options, discarder_tiles, doubles, called, payments", [
    # Seat 2 holds 1p1p1p 2p2p2p 3p3p3p 4p5p6p7p, concealed, ready (on 4p and 7p among others). Under qingyise
    # four_fan its best winning hand counts 清一色四番 4 + 门清 1 = 5 番 (doubles) >= 3: the table sets the flag,
    # and FLUSH (清一色四番 4 番, 花 0 x 2^4 = 0, share 底分 2 + 0 = 2) is paid as any discard: 2. Without the
    # exemption 包: 3 x 2 = 6.
    ({"full_flush_liability": True, "qingyise": "four_fan"}, "1p1p1p2p2p2p3p3p3p4p5p6p7p", 5, True, (2, 0, -2, 0)),
    ({"full_flush_liability": True, "qingyise": "four_fan", "three_fan_call_exemption": False},
     "1p1p1p2p2p2p3p3p3p4p5p6p7p", 5, False, (6, 0, -6, 0)),
    # Under qingyise one_le (the default) 清一色 is a direct 1 勒, no 番: the best is 门清 1 < 3, no flag; FLUSH
    # (清一色 1勒 = 10, share 12) is 包: 3 x 12 = 36.
    ({"full_flush_liability": True}, "1p1p1p2p2p2p3p3p3p4p5p6p7p", 1, False, (36, 0, -36, 0)),
    # Ready on a mixed hand (1p1p1p 2p2p2p 3s3s3s 4m5m6m7m: 门清 1 番 only) under four_fan: 1 < 3, 包, 3 x 2 = 6.
    ({"full_flush_liability": True, "qingyise": "four_fan"}, "1p1p1p2p2p2p3s3s3s4m5m6m7m", 1, False, (6, 0, -6, 0)),
    # Not ready (1p1p 3s3s 5m7m 9p 1z 3z 5z 7z 2s4s: no wait): 0 番, 包.
    ({"full_flush_liability": True, "qingyise": "four_fan"}, "1p1p3s3s5m7m9p1z3z5z7z2s4s", 0, False, (6, 0, -6, 0)),
])
def test_the_table_sets_the_three_fan_call_from_the_discarders_own_hand(options, discarder_tiles, doubles, called,
                                                                      payments):
    table, tile = _flush_table(options, discarder_tiles)
    assert table.called_doubles(2, 0) == doubles
    flags = table.hand_input(0, tile, "discard", 2)["flags"]
    assert ("discarder_called_three_fan" in flags) is called
    s = table.score(0, tile, "discard", 2)
    assert s is not None and s.valid
    assert s.payments == payments


# =========================================================================== every reading settles to zero

READINGS = [{"zuo_hua": True}, {"base_placement": "doubled"}, {"base_placement": "within_cap"},
            {"single_hand_limit_scope": "whole_loss"}, {"single_hand_limit_scope": "whole_loss",
                                                         "discard_payment": "bao_chong_chong_total"},
            {"contract_robbing_konger": "once"}, {"contract_mutual_counting": "once"}, {"lift_hands_win": True},
            {"da_diao_che_concealed_kong": False}, {"full_flush_liability": True},
            {"full_flush_liability": True, "discard_payment": "chong_double"}, {"direct_settlement_base": "none"},
            {"direct_settlement_base": "none", "base_placement": "doubled"},
            {"full_flush_liability": True, "liability_under_contract": "liability"},
            {"full_flush_liability": True, "liability_under_contract": "both"}]
HANDS = [
    (MIXED["concealed"], dict(win="8p", melds=MIXED["melds"], flags=KNOCKED, flowers="1f5f")),
    (FENG_PENG["concealed"], dict(win="4z", melds=FENG_PENG["melds"], flags=KNOCKED,
                                  counters={"huangfan": 2, "contract_with": 1})),
    (FENG_PENG["concealed"], dict(win="4z", melds=FENG_PENG["melds"], flags=("knocked", "discarder_ready"),
                                  discard=2, counters={"huangfan": 1, "contract_with": 1})),
    (FENG_PENG["concealed"], dict(win="4z", melds=FENG_PENG["melds"], flags=KNOCKED, discard=3,
                                  counters={"huangfan": 3})),
    (ROB["concealed"], dict(win="5p", melds=ROB["melds"], robbing_kong=2, flags=("knocked", "contract_mutual"),
                            counters={"contract_with": 2})),
    (GANG_KAI_CHOWS["concealed"], dict(win="9p", melds=GANG_KAI_CHOWS["melds"], flags=GANG_KAI_CHOWS["flags"])),
    (FLUSH["concealed"], dict(win="5m", melds=FLUSH["melds"], flags=KNOCKED, discard=2)),
    (CONTRACT["concealed"], dict(win="9s", melds=CONTRACT["melds"], discard=3, counters={"contract_with": 1},
                                 flags=("knocked", "discarder_ready", "contract_partner_also_won"))),
]


def test_payments_sum_to_zero_under_every_new_reading(classic_ruleset):
    settled = 0
    for options in READINGS:
        scorer = Scorer(classic_ruleset, options)
        for concealed, kwargs in HANDS:
            s = score(scorer, concealed, **kwargs)
            if s.valid:
                settled += 1
                assert sum(s.payments) == 0 and s.payments[0] > 0, (options, concealed, kwargs)
                assert all(p <= 0 for p in s.payments[1:]), (options, concealed, kwargs)
    assert settled >= 5 * len(READINGS)


# =========================================================================== 碰碰胡 / 混一色 unpriced (unpriced_fan_value)

# [123m from seat 3] 456m 789m 111z + 9m9m, self-drawn on 9m: 混一色 with chows (it may win as a 番型).
HALF_FLUSH = dict(concealed="4m5m6m7m8m9m1z1z1z9m", win="9m", melds=["chow:1m2m3m@3"])


@pytest.mark.parametrize("value_of_each, hand, flowers, expected_fans, value, payments", [
    # MIXED (碰碰胡, a claimed pung) with 1f 5f 2f in the East seat: 花 flower 3.
    #   0: 碰碰胡 adds nothing: 3, share 5.
    (0, MIXED, "1f5f2f", {"flower": 3, "peng_peng_hu": 0}, 3, (15, -5, -5, -5)),
    #   1: 碰碰胡 one 番: 3 × 2 = 6, share 8.
    (1, MIXED, "1f5f2f", {"flower": 3, "peng_peng_hu": 1}, 6, (24, -8, -8, -8)),
    # HALF_FLUSH, no flowers: 花 East pung (东南西北每有一刻计一朵花) 1.
    #   0: 混一色 adds nothing: 1, share 3.
    (0, HALF_FLUSH, "", {"wind_pung": 1, "hun_yi_se": 0}, 1, (9, -3, -3, -3)),
    #   1: 混一色 one 番: 1 × 2 = 2, share 4.
    (1, HALF_FLUSH, "", {"wind_pung": 1, "hun_yi_se": 1}, 2, (12, -4, -4, -4)),
])
def test_unpriced_fan_value(classic_ruleset, value_of_each, hand, flowers, expected_fans, value, payments):
    s = score(Scorer(classic_ruleset, {"unpriced_fan_value": value_of_each}), hand["concealed"], win=hand["win"],
              melds=hand["melds"], flowers=flowers, flags=KNOCKED)
    assert s.valid and fans(s) == expected_fans
    assert s.total == value and s.payments == payments
