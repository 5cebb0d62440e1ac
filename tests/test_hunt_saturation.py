"""A multiplier's saturation (checker.hunt.saturation): the count past which 荒番 changes no outcome, proved per
reading, and the claims' models that compute counts past it as it (checker.hunt.arith, checker.hunt.proofs)."""
from __future__ import annotations

import pytest

from checker.case import CaseRunner
from checker.engine import load_ruleset
from checker.hunt import proofs
from checker.hunt.saturation import candidate, saturation
from checker.hunt.settle import SettlementModel

RUNNER = CaseRunner()
CLASSIC = "shanghai-classic"
DISCARD = {"win_by": "discard", "discarder": 2}


def test_the_candidate_is_the_least_count_whose_factor_alone_passes_the_limit():
    # classic's limit is 5 units of 10 = 50 in value: 2^5 = 32 does not pass it, 2^6 = 64 does
    assert candidate(2, 50) == 6
    assert candidate(2, 64) == 7  # 2^6 = 64 only reaches it
    assert candidate(3, 8) == 2  # 3^1 = 3, 3^2 = 9


@pytest.mark.parametrize("options", [{}, {"single_hand_limit_scope": "each_share"}, {"lift_to": "one_cap_unit"},
                                     {"base_placement": "within_cap"}])
def test_classic_huangfan_saturates_at_six_under_a_limit(options):
    """Under every reading with the single-hand limit (per payer or per share), 荒番 past 6 changes no outcome:
    proved by Z3 for the reading, not assumed."""
    assert saturation(RUNNER.scorer(CLASSIC, options)) == {"huang_fan": 6}


def test_no_saturation_without_a_limit_nor_where_huangfan_counts_once():
    # no limit: 清一色 with 荒番 6 is worth 10 x 2^6 = 640 and with 荒番 7, 1280; every count is a payment of its own
    assert saturation(RUNNER.scorer(CLASSIC, {"single_hand_limit": False})) == {}
    # huangfan_stacking=once: 荒番 counts 0-1 already
    assert saturation(RUNNER.scorer(CLASSIC, {"huangfan_stacking": "once"})) == {}
    assert saturation(RUNNER.scorer("shanghai-knocking", {})) == {}  # no multiplier at all


def test_a_saturated_model_pays_what_the_whole_model_pays_past_the_count():
    """清一色 (one 勒子, 10) with 荒番 9, won on a discard from seat 2, 底分 2 (the default): the whole model's
    value is 10 x 2^9 = 5,120 (its cap grows with it); the discarder pays one share, 底分 2 plus the value cut to
    the limit of 50 per payer: 52. The saturated model computes 荒番 9 as 6 (value 640) and pays the same 52;
    with 荒番 3 both compute 10 x 2^3 = 80, paid 52 as well, and with 荒番 2, 40, paid 42."""
    scorer = RUNNER.scorer(CLASSIC, {})
    whole, saturated = SettlementModel(scorer), SettlementModel(scorer, {"huang_fan": 6})
    for count, value, paid in ((9, 5120, 52), (3, 80, 52), (2, 40, 42)):
        counts = {"qing_yi_se": 1, "huang_fan": count}
        a, b = whole.evaluate(counts, None, DISCARD), saturated.evaluate(counts, None, DISCARD)
        assert a["value"] == value and a["payments"] == [paid, 0, -paid, 0]
        assert b["payments"] == a["payments"] and b["shares"] == a["shares"]
        assert b["value"] == (640 if count > 6 else value)
    assert "huang_fan past 6 computed as 6" in saturated.domain_words()


def test_a_claim_given_its_saturation_decides_as_the_whole_model_does():
    """One more 荒番 never lowers a classic hand under the defaults: proved over 荒番 0-99 by the whole model and
    by the saturated one alike (the saturated one states the count it computes past)."""
    rs = load_ruleset(CLASSIC)
    whole = proofs.monotone(RUNNER, rs, {}, "huang_fan")
    saturated = proofs.monotone(RUNNER, rs, {}, "huang_fan", saturated={"huang_fan": 6})
    assert whole.result == saturated.result == "proved"
    assert "huang_fan 0-99" in saturated.domain and "huang_fan past 6 computed as 6" in saturated.domain


def test_tasks_carry_the_saturations_of_the_readings_they_model():
    rs = load_ruleset(CLASSIC)
    tasks = proofs.plan(RUNNER, rs)
    wanted = proofs.readings_of(tasks)
    # every single reading that changes the model, the defaults first; never a pair of readings together
    assert wanted[0] == {} and all(len(r) <= 1 for r in wanted)
    given = proofs.saturate(tasks, {proofs.key({}): {"huang_fan": 6}})
    pair = next(t for group in given for t in group if t.pair is not None)
    assert dict(pair.saturated)[proofs.key({})] == (("huang_fan", 6),)
    assert [dict(pair.saturated).get(proofs.key(r)) for r in pair.readings()[1:]] == [(), ()]


def test_two_readings_that_never_both_move_a_hand_are_proved_separated():
    """menqing_doubles=2 and lift_to=one_cap_unit: a hand with a lift (杠开, 大吊车) is worth its cap (the lift to
    the hand's cap, then the limit) or one 勒 (one_cap_unit) whatever 门清 doubles; a hand with none is not lifted
    under either reading of lift_to. So in no situation do both readings change the value, and the four readings
    settle a value alike: what one changes is the same whatever the other, proved without the settlement."""
    rs = load_ruleset(CLASSIC)
    claim = proofs.interaction(RUNNER, rs, ("menqing_doubles", 2), ("lift_to", "one_cap_unit"))
    assert claim.result == "proved" and claim.why == proofs.SEPARATED


def test_readings_that_settle_differently_are_not_proved_by_separation():
    """full_flush_liability=true changes who pays (包: the discarder pays 3 shares for a 清一色 or 清碰 won on a
    discard after 3 claimed sets), not the value: the four readings do not settle alike, so separation says
    nothing and the claim is searched whole. It is proved: a hand 包 applies to is settled directly at 1 or 2 勒
    (10, 20), 门清 raises its cap to 2 勒 (20), and doubled once (the default) or twice it is 20 or more before
    the cap, 20 after it, times any 荒番: 门清's reading moves no hand 包 applies to. A pair that does interact
    (清一色 as four 番, with 荒番 counted once) is refuted with a situation, not separated."""
    rs = load_ruleset(CLASSIC)
    claim = proofs.interaction(RUNNER, rs, ("menqing_doubles", 2), ("full_flush_liability", True))
    assert claim.result == "proved" and claim.why == ""
    interacting = proofs.interaction(RUNNER, rs, ("qingyise", "four_fan"), ("huangfan_stacking", "once"))
    assert interacting.result == "refuted" and interacting.witness is not None
