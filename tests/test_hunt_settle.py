"""The Z3 settlement model (checker.hunt.settle) and its claims (checker.hunt.proofs): the model pays what the
engine pays on known hands, and each claim is proved or refuted as worked out by hand below. The solver is
bounded by Z3's resource count at effort 1, never by a clock, so these answers are the same on any machine."""
from __future__ import annotations

import math

import pytest

from checker.case import CaseRunner
from checker.engine import load_ruleset
from checker.hunt import proofs
from checker.hunt.examine import examine, hand_pool
from checker.hunt.examples import known_hands
from checker.hunt.limit import TABLES, at_table, limit_finding
from checker.hunt.options import outcome
from checker.hunt.page import page
from checker.hunt.settle import SettlementModel, table_of

RUNNER = CaseRunner()
RULESETS = ("mcr", "shanghai-knocking", "shanghai-classic")


READINGS = [("mcr", {}), ("mcr", {"robbing_kong_paid_as": "self_draw"}), ("shanghai-knocking", {}),
            ("shanghai-knocking", {"discard_others_pay": 1, "robbing_kong_triple_on": "each_payer"}),
            ("shanghai-classic", {}), ("shanghai-classic", {"single_hand_limit_scope": "whole_loss"}),
            ("shanghai-classic", {"full_flush_liability": True, "discard_payment": "chong_double"}),
            ("shanghai-classic", {"contract_mutual_counting": "once", "base_placement": "doubled"})]
# a contract both ways with a ready discarder, beside limit.TABLES
MUTUAL = {"win_by": "discard", "discarder": 2, "contract_partner": 1, "flags": ["contract_mutual", "discarder_ready"]}


def limit_bounding_the_payment(ruleset):
    """The classic spec with its single-hand limit bounding the payment, 底分 included (the outer_limit step's
    `bounds: payment`, an edit diagnosis tries)."""
    from dataclasses import replace
    from types import MappingProxyType

    steps = tuple(replace(st, params=MappingProxyType({**st.params, "bounds": "payment"}))
                  if st.name == "outer_limit" else st for st in ruleset.scoring.steps)
    return replace(ruleset, scoring=replace(ruleset.scoring, steps=steps))


@pytest.mark.parametrize("scope", ["whole_loss", "each_share"])
def test_the_model_pays_what_the_engine_pays_under_a_limit_that_takes_the_base_in(scope):
    """As below, for a spec whose single-hand limit bounds each share or each payer's payment, 底分 included: on
    the contract tables a partner's 5 shares pass the limit."""
    rs = limit_bounding_the_payment(load_ruleset("shanghai-classic"))
    runner = CaseRunner({rs.id: rs})
    options = {"single_hand_limit_scope": scope}
    scorer = runner.scorer(rs.id, options)
    model, pay = SettlementModel(scorer), scorer.settlement
    assert pay.payment_limit == (50, "payer" if scope == "whole_loss" else "share")
    compared = limited = 0
    for data in known_hands(rs)[:12]:
        for table in (*TABLES, MUTUAL):
            grown = at_table(data, table, pay.contract.partner_counter)
            result = outcome(runner, rs.id, options, grown)
            if not result.get("valid"):
                continue
            base = (grown.get("counters") or {}).get(pay.base_counter) if pay.base_counter else None
            words = model.evaluate({f["id"]: int(f["count"]) for f in result["fans"]}, base, table_of(scorer, grown))
            assert words["payments"] == result["payments"], (grown, words)
            compared += 1
            limited += any(p == -50 for p in result["payments"][1:])
    assert compared >= 12 and limited >= 1


@pytest.mark.parametrize("ruleset_id,options", READINGS)
def test_the_model_pays_what_the_engine_pays_on_known_hands(ruleset_id, options):
    """Every known hand among the first 12, won at each table of limit.TABLES (a robbed kong, a contract on a
    self-draw and on a discard, a plain discard) and at a contract both ways: the model's payments for its
    counted patterns are the engine's, under readings that bring in the limit per payer, 包 and the contract's
    factors. This is what lets a proof of the model speak for the engine."""
    rs = load_ruleset(ruleset_id)
    scorer = RUNNER.scorer(ruleset_id, options)
    model, pay = SettlementModel(scorer), scorer.settlement
    compared = 0
    for data in known_hands(rs)[:12]:
        for table in (*TABLES, MUTUAL):
            if pay.contract is None:
                table = {k: v for k, v in table.items() if k not in ("contract_partner", "flags")}
            grown = at_table(data, table, pay.contract.partner_counter if pay.contract is not None else None)
            result = outcome(RUNNER, ruleset_id, options, grown)
            if not result.get("valid"):
                continue
            base = (grown.get("counters") or {}).get(pay.base_counter) if pay.base_counter else None
            words = model.evaluate({f["id"]: int(f["count"]) for f in result["fans"]}, base, table_of(scorer, grown))
            assert words["payments"] == result["payments"], (grown, words)
            assert words["value"] == result["total"]
            compared += 1
    assert compared >= 12


@pytest.mark.parametrize("options, flags, payments", [
    # 清一色 (1 勒 = 10, share 底分 2 + 10 = 12) won on seat 2's discard with three claimed sets, 包 on
    # (full_flush_liability): seat 2 pays three shares, 36 (tests/test_classic_readings.py, FLUSH) ...
    ({"full_flush_liability": True}, [], [36, 0, -36, 0]),
    # ... unless seat 2 called three 番 of its own (三番叫胡却可不包, three_fan_call_exemption, default on): one
    # share, 12; with the exemption off, 36 again.
    ({"full_flush_liability": True}, ["discarder_called_three_fan"], [12, 0, -12, 0]),
    ({"full_flush_liability": True, "three_fan_call_exemption": False}, ["discarder_called_three_fan"],
     [36, 0, -36, 0]),
])
def test_the_model_reads_the_exemption_from_liability(options, flags, payments):
    model = SettlementModel(RUNNER.scorer("shanghai-classic", options))
    words = model.evaluate({"qing_yi_se": 1}, None, {"win_by": "discard", "discarder": 2, "contract_partner": 0,
                                                     "flags": flags, "claimed_sets": 3})
    assert (words["value"], words["payments"]) == (10, payments)


@pytest.mark.parametrize("options, discarder, flags, payments", [
    # 清碰 (2 勒 = 20, share 22) won on a discard with three claimed sets, its contract partner seat 1, 包 on; the
    # 5 勒 limit holds a payer's value part to 50 (tests/test_classic_readings.py, worked there by hand).
    # liability: the discarder pays a contract self-draw's 5 shares: 100 held to 50, 底分 10: 60.
    ({"liability_under_contract": "liability"}, 1, [], [60, -60, 0, 0]),
    ({"liability_under_contract": "liability"}, 2, ["discarder_ready"], [60, 0, -60, 0]),
    # both, a ready third party: 包's 3 and the contract's 1 from it (80 held to 50, 底分 8: 58), 1 from the partner.
    ({"liability_under_contract": "both"}, 2, ["discarder_ready"], [80, -22, -58, 0]),
    # contract (the default): the partner's 2 shares, 44.
    ({}, 1, [], [44, -44, 0, 0]),
])
def test_the_model_reads_who_pays_a_liable_hand_under_a_contract(options, discarder, flags, payments):
    model = SettlementModel(RUNNER.scorer("shanghai-classic", {"full_flush_liability": True, **options}))
    words = model.evaluate({"qing_peng": 1}, None, {"win_by": "discard", "discarder": discarder, "contract_partner": 1,
                                                    "flags": flags, "claimed_sets": 3})
    assert (words["value"], words["payments"]) == (20, payments)


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_payments_sum_to_zero_is_proved_for_every_ruleset(ruleset_id):
    claim = proofs.zero_sum(RUNNER, load_ruleset(ruleset_id), {})
    assert claim.result == "proved" and claim.witness is None
    assert "independently" in claim.domain  # the domain is stated with the claim


def test_the_single_hand_limit_is_broken_by_two_winners_under_the_default_and_by_each_share():
    """玩家一局最多只输5个勒子 (5 勒 = 50 花). Under the default single_hand_limit_scope=whole_loss the limit bounds
    what a payer pays one winner, but classic allows 一炮多响 (procedure.multiple_winners: all_paid), each winner
    paid as a hand of its own: two winners on one discard take more than 50 in value from the discarder, while
    neither alone takes more than 50. Under each_share the limit bounds one share, and a robbed konger pays 3
    shares: a hand worth 20 costs it 60 in value. With no limit (single_hand_limit=false) it does not apply."""
    rs = load_ruleset("shanghai-classic")
    whole = proofs.single_hand_limit(RUNNER, rs, {})
    assert whole.result == "refuted" and "2-3 winners of one discard" in whole.domain
    w = whole.witness
    assert len(w["other_winners"]) == 1 and w["win_by"] == "discard" and w["other_winners"][0]["win_by"] == "discard"
    # the discarder's seat, counted from the first winner, and from the second (who sits at `seat`)
    discarder, second = w["discarder"], w["other_winners"][0]
    assert second["discarder"] == (discarder - second["seat"]) % 4 and second["seat"] != discarder
    each = [-w["payments"][discarder] - w["shares"][discarder - 1] * w["share_base"],
            -second["payments"][second["discarder"]] - second["shares"][second["discarder"] - 1] * second["share_base"]]
    assert all(x <= 50 for x in each) and sum(each) > 50 and w["lost"][discarder] == sum(each)
    per_share = proofs.single_hand_limit(RUNNER, rs, {"single_hand_limit_scope": "each_share"})
    assert per_share.result == "refuted"
    w = per_share.witness
    loser = next(seat for seat in (1, 2, 3) if w["payments"][seat] < 0)
    assert -w["payments"][loser] - 2 * w["shares"][loser - 1] > 50  # 底分 2 per share stays outside the limit
    off = proofs.single_hand_limit(RUNNER, rs, {"single_hand_limit": False})
    assert off.result == "not-applicable" and "no single-hand limit" in off.why


def _proved(key: str, words: str, reading: dict, rules: list[str] | None = None) -> proofs.Claim:
    return proofs.Claim(key, words, reading, "", "proved", rules or [])


def test_two_real_hands_winning_on_one_discard_break_whole_loss_and_the_engine_says_so():
    """The engine's own counter-example to the whole_loss claim, worked by hand. Both hands win on 5m, at a table
    with 荒番 1, knocked (必须先敲), on a discard from the same player: one holds 1m-4m pungs and 5m (the discarder
    sits across from it), the other 6m-9m pungs and 5m (the discarder is its next player); between them three 5m,
    one of them the discard. Each: 清一色 settles at 1 勒 = 10, 门清 doubles it to 20, 荒番 1 doubles again to 40;
    one share is 底分 2 + 40 = 42, and a discard is paid by the discarder alone, one share. Each winner takes 40 in
    value, within 50; together 80, past the 5 勒 a player may lose in one hand."""
    rs = load_ruleset("shanghai-classic")
    table = {"win_tile": "5m", "win_by": "discard", "seat_wind": "E", "round_wind": "E", "flowers": "",
             "flags": {"knocked": True}, "counters": {"huangfan": 1}, "melds": []}
    across = {**table, "concealed": "1m1m1m2m2m2m3m3m3m4m4m4m5m", "discarder": 2}
    after = {**table, "concealed": "6m6m6m7m7m7m8m8m8m9m9m9m5m", "discarder": 1}
    whole = {"single_hand_limit_scope": "whole_loss"}
    assert outcome(RUNNER, rs.id, whole, across)["payments"] == [42, 0, -42, 0]
    assert outcome(RUNNER, rs.id, whole, after)["payments"] == [42, -42, 0, 0]
    claim = _proved("single-hand-limit", "no player loses more than 50", whole)
    found = examine(RUNNER, rs, claim, [across, after])
    assert found.result == "refuted" and found.by == "engine" and "found one" in found.examined
    assert found.witness["lost"] == 80 and len(found.witness["winners"]) == 2
    # a pool whose two hands cannot win on one discard (another winning tile) breaks nothing
    apart = {**after, "concealed": "6m6m6m7m7m7m8m8m8m9m9m9m4p", "win_tile": "4p"}
    kept = examine(RUNNER, rs, claim, [across, apart])
    assert kept.result == "proved" and "none found" in kept.examined


def test_readings_of_a_pair_count_huangfan_each_within_its_own_range():
    """huangfan_stacking=once counts 荒番 once; the other readings count it up to the counter's 99. The four
    readings of a pair share one situation (one 荒番 counter) and each counts it within its own range, so 荒番 2
    is examined. A 清一色 门清 hand with 荒番 2, won on a discard: under the defaults 10 × 2 × 2 × 2 = 80, cut by the
    single-hand limit to 50; counting 荒番 once: 10 × 2 × 2 = 40; with no limit: 80, and once: 40. Counting once
    changes the winner's take by 40 - 50 = -10 with the limit and 40 - 80 = -40 without: the two interact."""
    rs = load_ruleset("shanghai-classic")
    claim = proofs.interaction(RUNNER, rs, ("huangfan_stacking", "once"), ("single_hand_limit", False))
    assert claim.result == "refuted" and "each reading counts the same situation" in claim.domain
    under = claim.witness["under"]
    assert under[0]["counts"]["huang_fan"] >= 2 and under[1]["counts"]["huang_fan"] == 1
    hand = {"concealed": "1m1m1m2m2m2m3m3m3m4m4m4m5m", "win_tile": "5m", "win_by": "discard", "discarder": 2,
            "seat_wind": "E", "round_wind": "E", "flowers": "", "flags": {"knocked": True},
            "counters": {"huangfan": 2}, "melds": []}
    taken = [outcome(RUNNER, rs.id, r, hand)["payments"][0] for r in claim.readings]
    assert taken == [52, 42, 82, 42]  # 底分 2 + the value, under: none, once, no limit, both


def test_one_more_self_draw_is_refuted_on_a_real_hand_where_the_model_holds_every_other_count():
    """MCR under chicken_hand_scores=false. The model, which holds every other pattern's count when Self drawn
    is added, proves that one more never stops a win; a real hand breaks it. Four chows melded (2m3m4m, 5p6p7p,
    3s4s5s, 7s8s9s) and a lone 9p won on a discard: Melded hand 6 + All chows 2 = 8, the minimum. Self-drawn it
    is no longer a Melded hand (that needs the last tile from a discard): All chows 2 + Single wait 1 + Self
    drawn 1 = 4 < 8, so it may not win."""
    rs = load_ruleset("mcr")
    reading = {"chicken_hand_scores": False}
    model = proofs.monotone(RUNNER, rs, reading, "self_drawn")
    assert model.result == "proved" and "count vectors" in model.words
    hand = {"concealed": "9p", "win_tile": "9p", "win_by": "discard", "discarder": 1, "seat_wind": "E",
            "round_wind": "E", "flowers": "", "flags": {},
            "melds": [{"type": "chow", "tiles": t, "from": 3} for t in ("2m3m4m", "5p6p7p", "3s4s5s", "7s8s9s")]}
    found = examine(RUNNER, rs, model, [hand])
    assert found.result == "refuted" and found.by == "engine"
    before, after = found.witness["before"]["result"], found.witness["after"]["result"]
    assert before["total"] == 8 and {f["id"] for f in before["fans"]} == {"melded_hand", "all_chows"}
    assert after == {"valid": False, "error": "win.minimum_points"}
    # the pool the hunt uses finds such a hand too (its hands with every set melded)
    pool = hand_pool(rs, known_hands(rs))
    assert examine(RUNNER, rs, model, pool).result == "refuted"


def test_every_claim_the_model_proves_is_cross_examined_and_the_page_says_what_was_searched():
    rs = load_ruleset("shanghai-knocking")
    listed = list(proofs.claims(RUNNER, rs, pool=hand_pool(rs, known_hands(rs))))
    proved = [c for c in listed if c.result == "proved"]
    assert proved and all("none found" in c.examined for c in proved)
    text = page(rs.id, rs.title, {"counts": {}, "findings": [], "proofs": [c.as_dict() for c in listed]})
    assert "Cross-examined: the engine's search for a counter-example on" in text


def test_a_claim_a_real_hand_breaks_is_flagged_at_the_top_of_the_page():
    rs = load_ruleset("mcr")
    model = proofs.monotone(RUNNER, rs, {"chicken_hand_scores": False}, "self_drawn")
    found = examine(RUNNER, rs, model, hand_pool(rs, known_hands(rs)))
    text = page(rs.id, rs.title, {"counts": {}, "findings": [], "proofs": [found.as_dict()]})
    assert "**The settlement model proved 1 claim(s) that real hands break**" in text
    assert "refuted by the engine on a real hand" in text and "may not win (win.minimum_points)" in text


def test_no_single_known_hand_breaks_the_default_limit_and_each_share_would_be_broken_by_one():
    """Under the default single_hand_limit_scope=whole_loss (玩家一局最多只输5个勒子) no one winner takes more than
    50 in value from any payer, so no known hand becomes a finding (the claim is refuted only by several winners of
    one discard: the test above). The known hand the hunter used to show the limit broken under each_share: three
    pungs (1m, 3m, 6m) claimed from one seat, which makes it the 承包 partner, and that seat the konger robbed.
    清一色 settles at 1 勒 = 10; one share is 底分 2 + 10 = 12; the konger pays 3 shares (相当于杠的人付3份) and, as
    the partner, 3 more (抢杠时如果还有承包关系，承包者也付3份): under each_share 6 × 12 = 72, 60 of value; under
    the default 6 × 2 of base and min(6 × 10, 50) = 50 of value: 62."""
    rs = load_ruleset("shanghai-classic")
    found = proofs.grouped([proofs.single_hand_limit(RUNNER, rs, o) for o in proofs.readings(RUNNER, rs)])
    assert found[0].result == "refuted" and found[0].witness and found[0].witness.get("other_winners")
    assert limit_finding(RUNNER, rs, found, known_hands(rs)) is None
    hand = next(h for h in known_hands(rs) if sorted(m["tiles"] for m in h.get("melds") or []) ==
                ["1m1m1m", "3m3m3m", "6m6m6m"])
    konger = hand["melds"][0]["from"]
    assert [m["from"] for m in hand["melds"]] == [konger] * 3
    robbed = {**hand, "win_by": "robbing_kong", "discarder": konger}
    each = outcome(RUNNER, rs.id, {"single_hand_limit_scope": "each_share"}, robbed)
    default = outcome(RUNNER, rs.id, {}, robbed)
    assert each["payments"] == [72] + [-72 if seat == konger else 0 for seat in (1, 2, 3)]
    assert default["payments"] == [62] + [-62 if seat == konger else 0 for seat in (1, 2, 3)]


def test_the_fig_is_the_cause_of_a_flower_lowering_a_knocking_hand():
    """无花果: a hand with no flower (going out alone, 1) is worth 10; with one flower it is 1 + 1 = 2, so a
    payer pays less for the hand with more. The claim names the flower and is refuted with that situation."""
    claim = proofs.monotone(RUNNER, load_ruleset("shanghai-knocking"), {}, "flower")
    assert claim.result == "refuted"
    before, after = claim.witness["before"], claim.witness["after"]
    assert before["counts"] == {"going_out": 1} and before["value"] == 10
    assert after["counts"] == {"going_out": 1, "flower": 1} and after["value"] == 2
    assert claim.witness["lowered_by"] == "scoring.fig" and claim.rules[0] == "scoring.fig"


@pytest.mark.parametrize("pid", ["flower", "huang_fan", "kai_bao", "gang_kai"])
def test_more_context_never_lowers_a_classic_hand_under_the_defaults(pid):
    """Over the full ranges (荒番 up to the counter's 99, all eight flowers): under the default readings each
    doubling or lift is applied after the caps are raised with it, so one more never lowers what anyone gets."""
    # effort 2: Z3's search over the model (translated into a context of its own) still follows the order the
    # process's own terms were made in, so what one bound decides depends on the tests run before in the same
    # worker; after the single-hand-limit claims, the flower claim needs more than effort 1's bound
    claim = proofs.monotone(RUNNER, load_ruleset("shanghai-classic"), {}, pid, effort=2)
    assert claim.result == "proved", claim.witness


def test_gang_kai_lowers_a_hand_under_lift_to_one_cap_unit():
    """lift_to=one_cap_unit sets a 杠开 hand to one 勒 (10): a hand worth 20 drops to 10 with 杠开 as well."""
    claim = proofs.monotone(RUNNER, load_ruleset("shanghai-classic"), {"lift_to": "one_cap_unit"}, "gang_kai")
    assert claim.result == "refuted"
    assert claim.witness["after"]["value"] == 10 < claim.witness["before"]["value"]


def test_two_readings_that_interact_are_shown_under_all_four():
    """fig_then_doubled=false and discard_others_pay=1 (Shanghai: Knocking). A fig hand with 大吊车 (one double)
    won on a discard: 10 doubled = 20 under the defaults, 10 undoubled. The discarder alone pays: the first
    reading takes 10 from the winner. All three pay: it takes 3 × 10 = 30. What one reading changes depends
    on the other."""
    claim = proofs.interaction(RUNNER, load_ruleset("shanghai-knocking"), ("fig_then_doubled", False),
                               ("discard_others_pay", 1))
    assert claim.result == "refuted"
    gains = [u["payments"][0] for u in claim.witness["under"]]
    assert gains[1] - gains[0] != gains[3] - gains[2]


def test_two_readings_of_separate_matters_are_proved_independent():
    """MCR: chicken_hand_scores=false and two_concealed_kongs_points=6 part on hands no one hand can make
    together (a chicken hand has no other fan, two concealed kongs is one)."""
    claim = proofs.interaction(RUNNER, load_ruleset("mcr"), ("chicken_hand_scores", False),
                               ("two_concealed_kongs_points", 6))
    assert claim.result == "proved"


def test_claims_past_the_budget_are_not_run_and_say_so():
    listed = list(proofs.claims(RUNNER, load_ruleset("shanghai-knocking"), until=-math.inf))
    assert listed and all(c.result == "not-run" and "budget" in c.why for c in listed)


def test_the_page_lists_what_the_model_proves_with_its_domain():
    rs = load_ruleset("shanghai-knocking")
    body = {"counts": {}, "findings": [], "proofs": [c.as_dict() for c in proofs.claims(RUNNER, rs)]}
    text = page(rs.id, rs.title, body)
    assert "## What the Z3 settlement model proves" in text
    assert "**proved** under the default readings" in text and "sum to zero" in text
    assert "**refuted** under the default readings" in text and "Witness: going_out" in text
    assert "**does not apply**" in text
    assert "independently of one another" in text


def test_the_settlement_model_process_failing_is_reported_not_raised():
    # The claims are made each in a process of its own; when they cannot be made (here: a ruleset that does not
    # load) the hunt goes on, the claims are listed as not run with the error, and the run says it stopped early
    # because of it.
    import time

    from checker.hunt.apart import claims_apart
    from checker.hunt.run import _claims_left

    claims = claims_apart("no-such-ruleset", 1, time.monotonic() + 60)
    assert [c.result for c in claims] == ["not-run"]
    assert claims[0].why.startswith("the process making them failed: ") and "no-such-ruleset" in claims[0].why
    assert _claims_left([c.as_dict() for c in claims]) == [f"1 claim(s) of the settlement model not made "
                                                           f"({claims[0].why})"]


_WITNESS_SCRIPT = """
import json
from checker.case import CaseRunner
from checker.engine import load_ruleset
from checker.hunt import proofs
runner = CaseRunner()
ruleset = load_ruleset("shanghai-classic")
for options in ({"full_flush_liability": True}, {}):
    claim = proofs.single_hand_limit(runner, ruleset, options)
    print(json.dumps([claim.result, claim.witness], sort_keys=True, ensure_ascii=False))
"""


def test_the_settlement_models_witnesses_are_the_same_in_every_process():
    """Which of several equally small situations refutes a claim does not hang on Python's string hashing (the
    包 patterns were once a set, iterated into the model's terms) nor on the terms a process made before: two
    processes with other hash seeds show the same witnesses. Under full_flush_liability the classic single-hand
    limit is refuted (the 包 share); each process must name the same hand, seats and payments."""
    import os
    import subprocess
    import sys

    outputs = []
    for seed in ("1", "3"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run([sys.executable, "-c", _WITNESS_SCRIPT], env=env, capture_output=True, text=True,
                              timeout=600, check=True)
        outputs.append(done.stdout)
    assert '"refuted"' in outputs[0]
    assert outputs[0] == outputs[1]


def test_the_all_melded_corner_claims_its_chows_from_the_seat_the_spec_binds():
    """examine.all_melded melds each concealed chow from the seat the bound hand check chow_from names (every
    shipped ruleset: seat 3, `params: {seat: 3}`), not from a seat written in the code: given seat 1, seat 1."""
    from checker.hunt.examine import all_melded, chow_seat

    data = {"concealed": "1m2m3m4p5p6p7s8s9s5z5z5z9p", "melds": [], "win_tile": "9p", "win_by": "self_draw"}
    assert {m["from"] for m in all_melded(data, 1)["melds"] if m["type"] == "chow"} == {1}
    assert {m["from"] for m in all_melded(data)["melds"] if m["type"] == "pung"} == {1}
    assert [chow_seat(load_ruleset(r)) for r in ("mcr", "shanghai-knocking", "shanghai-classic")] == [3, 3, 3]


def test_each_claim_is_searched_in_a_z3_context_of_its_own():
    """Each claim builds its terms in a fresh context standing for the main one, and the process's main context
    is back after it. That does not make a bounded search wholly independent of the claims before it (Z3 keeps
    state beyond one context: checker.hunt.z3context), so the same monotone claim, first alone and then after
    the single-hand-limit claims, may be left undecided the second time; but two answers both decided agree,
    and the domain stated is the same."""
    import z3

    from checker.hunt.z3context import own_context

    main = z3.main_ctx()
    with own_context() as fresh:
        inside = z3.Int("x")
        assert inside.ctx is fresh and fresh is not main and z3.main_ctx() is fresh
    assert z3.main_ctx() is main and z3.Int("x").ctx is main

    rs = load_ruleset("shanghai-classic")
    pid = proofs.context_patterns(RUNNER.scorer(rs.id, {}))[0]
    first = proofs.monotone(RUNNER, rs, {}, pid)
    for options in proofs.readings(RUNNER, rs)[:3]:
        proofs.single_hand_limit(RUNNER, rs, options)
    again = proofs.monotone(RUNNER, rs, {}, pid)
    assert first.domain == again.domain
    if "not-run" not in (first.result, again.result):
        assert first.result == again.result
    assert z3.main_ctx() is main


def test_two_readings_that_bind_the_exemption_differently_share_one_table():
    """Models of two readings of classic share the situation's table (an interaction claim): under the defaults
    no 包 is bound (full_flush_liability false), under full_flush_liability 包 and its exemption flag are; the
    table of both holds the exemption flag all the same, so the claim is made (it once ended in a KeyError)."""
    from checker.spec.roles import roles

    rs = load_ruleset("shanghai-classic")
    assert roles(rs).liability_exempt == "discarder_called_three_fan"
    plain = SettlementModel(RUNNER.scorer(rs.id, {}))
    assert plain.pay.liability is None and "discarder_called_three_fan" in plain.flag_names
    claim = proofs.interaction(RUNNER, rs, ("full_flush_liability", True), ("discard_payment", "chong_double"))
    assert claim.result in ("proved", "refuted", "undecided"), claim
