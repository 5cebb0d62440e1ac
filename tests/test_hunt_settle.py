"""The Z3 settlement model (checker.hunt.settle) and its claims (checker.hunt.proofs): the model pays what the
engine pays on known hands, and each claim is proved or refuted as worked out by hand below. The solver is
bounded by Z3's resource count at effort 1, never by a clock, so these answers are the same on any machine."""
from __future__ import annotations

import math

import pytest

from checker.case import CaseRunner
from checker.engine import load_ruleset
from checker.hunt import proofs
from checker.hunt.examples import known_hands
from checker.hunt.limit import TABLES, at_table, limit_finding
from checker.hunt.options import outcome
from checker.hunt.page import page
from checker.hunt.settle import SettlementModel

RUNNER = CaseRunner()
RULESETS = ("mcr", "shanghai-knocking", "shanghai-classic")


READINGS = [("mcr", {}), ("mcr", {"robbing_kong_paid_as": "self_draw"}), ("shanghai-knocking", {}),
            ("shanghai-knocking", {"discard_others_pay": 1, "robbing_kong_triple_on": "each_payer"}),
            ("shanghai-classic", {}), ("shanghai-classic", {"single_hand_limit_scope": "whole_loss"}),
            ("shanghai-classic", {"full_flush_liability": True, "discard_payment": "chong_double"}),
            ("shanghai-classic", {"contract_mutual_counting": "once", "base_placement": "doubled"})]
# a contract both ways with a ready discarder, beside limit.TABLES
MUTUAL = {"win_by": "discard", "discarder": 2, "contract_with": 1, "flags": ["contract_mutual", "discarder_ready"]}


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
                table = {k: v for k, v in table.items() if k not in ("contract_with", "flags")}
            grown = at_table(data, table)
            result = outcome(RUNNER, ruleset_id, options, grown)
            if not result.get("valid"):
                continue
            base = (grown.get("counters") or {}).get(pay.base_counter) if pay.base_counter else None
            claimed = len([m for m in grown.get("melds") or [] if m.get("from")])
            words = model.evaluate({f["id"]: int(f["count"]) for f in result["fans"]}, base,
                                   {**table, "claimed_sets": claimed})
            assert words["payments"] == result["payments"], (grown, words)
            assert words["value"] == result["total"]
            compared += 1
    assert compared >= 12


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_payments_sum_to_zero_is_proved_for_every_ruleset(ruleset_id):
    claim = proofs.zero_sum(RUNNER, load_ruleset(ruleset_id), {})
    assert claim.result == "proved" and claim.witness is None
    assert "independently" in claim.domain  # the domain is stated with the claim


def test_the_single_hand_limit_is_broken_by_the_default_scope_and_kept_by_whole_loss():
    """玩家一局最多只输5个勒子 (5 勒 = 50 花). Under single_hand_limit_scope=each_share the limit bounds one share,
    and a robbed konger pays 3 shares: a hand worth 20 costs it 60 in value. Under whole_loss the limit bounds
    the payer's whole loss: proved for every payer. With no limit (single_hand_limit=false) it does not apply."""
    rs = load_ruleset("shanghai-classic")
    default = proofs.single_hand_limit(RUNNER, rs, {})
    assert default.result == "refuted"
    w = default.witness
    loser = next(seat for seat in (1, 2, 3) if w["payments"][seat] < 0)
    assert -w["payments"][loser] - 2 * w["shares"][loser - 1] > 50  # 底分 2 per share stays outside the limit
    assert proofs.single_hand_limit(RUNNER, rs, {"single_hand_limit_scope": "whole_loss"}).result == "proved"
    off = proofs.single_hand_limit(RUNNER, rs, {"single_hand_limit": False})
    assert off.result == "not-applicable" and "no single-hand limit" in off.why


def test_the_broken_limit_becomes_a_finding_with_a_real_hand():
    """The must-find of the hunter issue: 清碰 (direct, 2 勒 = 20) with 开宝 (×2) is worth 40 — the document's
    own 清碰+开宝为4勒子. Self-drawn under a contract, the partner pays 5 shares of 底分 2 + 40 = 42: 210, which
    is 200 of value against the 50 of 玩家一局最多只输5个勒子. Under whole_loss the partner pays 5 × 2 of base and
    min(5 × 40, 50) = 50 of value: 60."""
    rs = load_ruleset("shanghai-classic")
    found = proofs.grouped([proofs.single_hand_limit(RUNNER, rs, o) for o in proofs.readings(RUNNER, rs)])
    finding = limit_finding(RUNNER, rs, found, known_hands(rs))
    assert finding is not None
    assert finding.kind == "contradiction" and finding.deciding_option == "single_hand_limit_scope"
    assert finding.witness["input"]["counters"]["contract_with"] == 1
    default, whole = finding.outcomes
    assert default["result"]["payments"] == [210, -210, 0, 0]
    assert whole["result"]["payments"] == [60, -60, 0, 0]
    assert any("玩家一局最多只输5个勒子" in s["phrase"] for s in finding.statements)
    assert "DEFECT" not in finding.note


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
    claim = proofs.monotone(RUNNER, load_ruleset("shanghai-classic"), {}, pid)
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
    # The claims are made in a spawned process; when it fails (here: a ruleset it cannot load) the hunt goes on,
    # the claims are listed as not run with the error, and the run says it stopped early because of it.
    import time

    from checker.hunt.run import _claims_apart, _claims_left

    claims = _claims_apart("no-such-ruleset", 1, time.monotonic() + 60)
    assert [c.result for c in claims] == ["not-run"]
    assert claims[0].why.startswith("the process making them failed: ") and "no-such-ruleset" in claims[0].why
    assert _claims_left([c.as_dict() for c in claims]) == [f"the settlement model's claims were not made "
                                                           f"({claims[0].why})"]
