"""The Z3 models of the arithmetic (checker.hunt.arith): they agree with the engine's own scoring steps on any
situation, name the statements that collide with a document's example, prove a growth harmless where it is,
and find the hands where it is not."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from checker.case import CaseRunner
from checker.engine import load_ruleset
from checker.engine.predicates import PREDICATES
from checker.hunt.arith import ArithModel, Situation, context_patterns, find_drop

RUNNER = CaseRunner()


@st.composite
def situations(draw, ruleset_id: str):
    """A reading of the ruleset's scoring options and any counts of its patterns (not all make a hand: the
    arithmetic does not care, except that a pattern every winning hand counts, going out, counts), with or
    without a 底分 counter."""
    rs = load_ruleset(ruleset_id)
    options = {oid: draw(st.sampled_from(list(o.values))) for oid, o in rs.scoring_options().items()
               if draw(st.booleans())}
    scorer = RUNNER.scorer(ruleset_id, options)
    counts = {}
    tops = ArithModel(scorer).top
    for b in scorer.patterns:
        top = min(tops[b.id], 4)  # the pattern's declared range (荒番 counted once under huangfan_stacking=once)
        n = draw(st.integers(0, top) if draw(st.integers(0, 3)) == 0 else st.just(0))
        if PREDICATES[b.pattern.when.name].always:
            n = max(n, 1)
        if n:
            counts[b.id] = n
    base = draw(st.one_of(st.none(), st.integers(0, 5))) if rs.settlement.base_counter else None
    return scorer, Situation(counts, base)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["shanghai-classic", "shanghai-knocking"]).flatmap(situations))
def test_the_model_values_every_situation_as_the_engine_steps_do(drawn):
    scorer, situation = drawn
    model = ArithModel(scorer)
    assert model.value(situation) == model.replay(situation)


def test_the_doubles_of_a_pattern_worth_several_are_all_counted():
    # Classic with 清一色 read as four 番: a wind pung (1 花), 清一色 (4 番) and 门清 (1 番): 1 x 2^5 = 32, against a cap
    # of one 勒 raised by 门清 to two: 20. The model once bounded the exponent by how many double patterns count
    # (2), not by what they are worth (5), and valued it 1 x 2^4 = 16.
    scorer = RUNNER.scorer("shanghai-classic", {"qingyise": "four_fan"})
    situation = Situation({"wind_pung": 1, "qing_yi_se_four_fan": 1, "men_qing": 1}, None)
    assert ArithModel(scorer).value(situation) == ArithModel(scorer).replay(situation) == (True, 20)


@pytest.mark.parametrize("multiplier_cap, value", [("always", 20), ("when_reached", 10)])
def test_a_multiplier_grows_the_cap_a_lift_reaches_as_the_reading_says(multiplier_cap, value):
    # 荒番 once and 杠开 on a hand of no 花: the value is 0 against the cap of one 勒 (10). 荒番 doubles the value
    # (still 0) and, always, the cap (20); when_reached, not the cap, since the value had not reached it. 杠开
    # then lifts the hand to the cap: 20 or 10. The model and the engine's steps agree on both.
    scorer = RUNNER.scorer("shanghai-classic", {"multiplier_cap": multiplier_cap})
    situation = Situation({"huang_fan": 1, "gang_kai": 1})
    model = ArithModel(scorer)
    assert model.value(situation) == model.replay(situation) == (True, value)


def test_the_limit_and_the_8_le_example_collide_only_where_the_limit_bounds_each_share():
    # 风碰+荒番为8勒子: 风碰 4 勒 = 40, 门清 x2 = 80 (cap 4 勒 = 40), 荒番 x2: 160 with the cap 80: 80. Under the
    # default single_hand_limit_scope=whole_loss the 5-勒 limit bounds what a payer loses, not the value: 80 holds.
    # Read as a bound on each share's value (each_share) the limit alone makes that impossible (50): the unsat
    # core is that one rule.
    situation = Situation({"wind_pung": 3, "dragon_pung": 1, "feng_peng": 1, "men_qing": 1, "huang_fan": 1})
    stated = {"valid": True, "total": 80}
    assert ArithModel(RUNNER.scorer("shanghai-classic", {})).explain(situation, stated) is None
    each_share = RUNNER.scorer("shanghai-classic", {"single_hand_limit_scope": "each_share"})
    assert ArithModel(each_share).explain(situation, stated) == ["scoring.single_hand_limit"]
    assert ArithModel(RUNNER.scorer("shanghai-classic", {"single_hand_limit": False})).explain(situation, stated) is None


def test_the_faq_and_the_chicken_hand_collide_on_a_hand_of_flowers_only():
    # a hand whose only pattern is one flower: the chicken hand makes it 8 qualifying points, a win; the FAQ
    # says it may not win. Without the chicken hand (the FAQ's reading) 0 qualifying points: no win, as stated.
    situation, stated = Situation({"flower_tiles": 1}), {"valid": False}
    core = ArithModel(RUNNER.scorer("mcr", {})).explain(situation, stated)
    assert core is not None and "principle.chicken_hand" in core and "win.minimum_points" in core
    assert ArithModel(RUNNER.scorer("mcr", {"chicken_hand_scores": False})).explain(situation, stated) is None


def test_one_more_flower_never_lowers_an_mcr_hand():
    # flowers add a point each after the minimum is met and never count toward it: a proof over every
    # situation, not a search
    assert find_drop(ArithModel(RUNNER.scorer("mcr", {})), "flower_tiles") is None


def test_every_classic_context_pattern_is_harmless_under_the_default_readings():
    # 荒番 and 开宝 multiply value and cap, a flower adds before the cap, 杠开 lifts to the cap: none lowers a hand
    scorer = RUNNER.scorer("shanghai-classic", {})
    model = ArithModel(scorer)
    assert {pid: find_drop(model, pid) for pid in context_patterns(scorer)} == \
        {pid: None for pid in context_patterns(scorer)}


@pytest.mark.parametrize("ruleset_id, pid, options", [
    ("shanghai-knocking", "flower", {}),  # 无花果: no hua beyond the base is a flat 10; one flower makes 2
    ("shanghai-classic", "gang_kai", {"lift_to": "one_cap_unit"}),  # 杠开 worth exactly one 勒: below a 2-勒 hand
    ("mcr", "self_drawn", {}),  # a chicken hand self-drawn has a fan (Self drawn 1): no longer a chicken hand
    ("mcr", "last_tile", {}),
])
def test_the_model_finds_the_growths_that_lower_a_hand(ruleset_id, pid, options):
    assert find_drop(ArithModel(RUNNER.scorer(ruleset_id, options)), pid) is not None


def test_must_find_a_chicken_hand_that_may_not_win_self_drawn(tmp_path):
    # 123m 456p claimed, 222s 78s+6s 55z: on a discard no fan at all, the chicken hand: 8, the discarder pays
    # 8 + 8, the others 8 each: +32. Self-drawn it has Self drawn (1 point) and is no chicken hand: 1 < 8, no win.
    from checker.hunt.examples import known_hands
    from checker.hunt.monotonic import hunt_growth_z3

    mcr = load_ruleset("mcr")
    f = hunt_growth_z3(RUNNER, mcr, "self_drawn", {}, known_hands(mcr))
    assert f is not None and f.kind == "non-monotonic" and f.method == "z3"
    before, after = (o["result"] for o in f.outcomes)
    assert before["fans"] == [{"id": "chicken_hand", "points": 8, "count": 1}] and before["payments"][0] == 32
    assert after == {"valid": False, "error": "win.minimum_points"}
    assert f.witness["input"]["win_by"] == "self_draw"


def test_must_find_a_lift_that_lowers_a_hand_when_it_is_worth_one_le():
    # lift_to=one_cap_unit: 杠开 makes a hand worth exactly one 勒 (10), whatever it was worth: a hand worth 2 勒
    # (20) drops to 10 with 杠开, where the default (lift to the hand's cap) leaves it at 20
    from checker.hunt.examples import known_hands
    from checker.hunt.monotonic import hunt_growth_z3

    classic = load_ruleset("shanghai-classic")
    f = hunt_growth_z3(RUNNER, classic, "gang_kai", {"lift_to": "one_cap_unit"}, known_hands(classic))
    assert f is not None and f.deciding_option == "lift_to"
    before, after = (o["result"] for o in f.outcomes)
    # The hand the model picks (a known hand of the classic corpus): 八花齐, all eight flowers, concealed, self-drawn.
    # 花: 8 flowers = 8; 八花齐 settles it directly at 2 勒 = 20, 门清 doubles it to 40, and the cap (1 勒, raised to 2 by
    # 八花齐 and by 门清) holds it at 20. The 底分 2 is paid beside it: each opponent pays 22 (+66 to the winner). With
    # 杠开 under one_cap_unit the hand is worth exactly one 勒, 10: each pays 12 (+36).
    assert {x["id"] for x in before["fans"]} == {"flower", "ba_hua_qi", "men_qing"}
    assert {x["id"] for x in after["fans"]} - {x["id"] for x in before["fans"]} == {"gang_kai"}
    assert (before["total"], after["total"]) == (20, 10)
    assert (before["payments"][0], after["payments"][0]) == (66, 36)
    assert "gang_kai" in {x["id"] for x in after["fans"]}
