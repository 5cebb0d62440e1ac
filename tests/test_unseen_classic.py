"""Diagnosis on a second Shanghai engine nobody here wrote: reports/unseen-classic/classic_engine.py, written from
the classic document alone (001_83aec190f966708c.txt) by an author who never saw the spec, the reference engine or
the corpora; its readings in reports/unseen-classic/READINGS.md (the truth a cause is held to, by hand). It names
its elements in the document's words, writes a 勒子 pattern's points as the value in 花 (清一色 10), a 番 as its
factor (门清 2), lists no 花 on a hand settled at a fixed 勒子 value, and lists the cap that cut a hand (勒子).

Run through the engine protocol on the shipped classic corpus and 2,000 seeded random hands, no cause outside
what the author wrote down may be named; the ways of writing answers must be read as such, never as departures.
"""
from __future__ import annotations

import pytest

from unseen_helpers import engine_of, named_causes, unseen_run

ENGINE = engine_of("unseen-classic", "classic_engine.py")

# Every cause the engine's readings make true (READINGS.md), by the id the diagnosis gives it:
TRUE_CAUSES = {
    # the element names table: the document's own names; 明杠 / 暗杠 for the suit kongs (learned from the answers)
    "fan-names",
    # the element table: fixed 勒子 values in 花 (清一色 10), 番 as the factor 2, H7: no 花 listed on 勒子 hands
    "notation",
    # D1: 碰碰胡 and 混一色 each ×2 (the document prices neither)
    "option:unpriced_fan_value=1",
    # D5: 荒番 doubles once whatever the count
    "counting:huang_fan=once", "option:huangfan_stacking=once",
    # D3: 门清 doubles a 勒子 pattern too (门清清一色 = 2 勒子)
    "option:direct_settlement_final=false",
    # W2: only the listed patterns win (a plain regular hand is refused; 杠开 / 大吊车 let no other hand win)
    "refusal:shape_regular", "option:lift_hands_win=false",
    # D6: 杠开 needs a self-draw, a replacement flag on a discard win is ignored, not refused
    "check-dropped:context.flower_replacement_drawn", "check-dropped:context.kong_replacement_drawn",
    # D6: 大吊车's four other sets all declared, concealed kongs counting as declared; W4: 风向牌 are all honours
    "option:da_diao_che_concealed_kong=true", "option:feng_tiles=honors",
    # D2: 清一色 settles at 1 勒子 (the spec's default reads it as 4 番)
    "option:qingyise=one_le",
    # H2: a suit pung is worth 0 花 and is not listed
    "unlisted-zero",
    # P2: only the discarder pays a discard; P6a: on a contract self-draw the other two still pay one share
    "option:discard_payment=alone", "option:contract_self_draw_others=1",
    # P5 / P6: a contract both ways doubles what the partner pays for it (重复计算: m = 2), the spec's default
    "option:contract_mutual_counting=twice",
    # P6e: a robbed konger who is the contract partner pays both (3 + 3 × m); D9 / P9: no loser pays more than 5 勒,
    # whatever the hand is worth (the spec's defaults: named where a case names the other reading)
    "option:contract_robbing_konger=both", "option:single_hand_limit=true",
    # P5/P6: a contract flag without a contract seat is ignored, not refused; contract_partner_also_won where it
    # does not fit (no contract, not a discard) is ignored, read where it does (P6d): no check of it is made
    "check-dropped:procedure.contract_detail", "flag-checks-dropped:contract_partner_also_won",
    # (and so neither of that flag's two checks: the one of a discard by the partner himself, dropped alone, says
    # the same of the hands that meet it)
    "check-dropped:procedure.contract_double_win_discard",
    # H1: every flower is 1 花, the seat flower too (坐花 belongs to the older 户 system): no second 花 for it, which
    # "flower excludes seat_flower" says alike (no hand tells the two apart: a seat flower is always a flower)
    "option:zuo_hua=false", "exclusion-added:flower/seat_flower",
    # input handling: a tile it cannot read is a protocol error; flags and counters it does not know are ignored
    "input-errs:input.tile", "input-taken:input.flags", "input-taken:input.counters",
    # D9/P9: the 5勒 limit bounds each loser's whole payment, 底分 included (each payer pays at most 50)
    "step:9:outer_limit.bounds=payment",
    # P5: no contract is inferred from the melds' sources, however many claims from one seat (a contract at 6
    # calls, more than a hand can show, and at none say the same)
    "contract:calls=0", "contract:calls=6",
    # U2: 底分 is added to each share outside the 花分's doubles and caps (the engine ignores `options`), on every
    # hand, those settled at a fixed 勒子 value too (U4: each payment is shares × (底分 + total))
    "option:base_placement=after_caps", "option:direct_settlement_base=added",
    # P4: 清一色九张落地包输 (the discarder pays three shares), not when he called three 番 (三番叫胡却可不包)
    "option:full_flush_liability=true", "option:three_fan_call_exemption=true",
    # D6: "A flag that does not fit (won on a discard, no kong, no flower) is ignored": read as absent, not refused
    # and not read (a self-drawn hand with the flag and no kong has no 杠开, which "no check of the flag is made",
    # named by earlier versions, would give it); P6: contract_partner_also_won where it does not fit and
    # contract_mutual without a contract are ignored alike
    "flag-unfit-ignored:kong_replacement", "flag-unfit-ignored:flower_replacement",
    "flag-unfit-ignored:contract_partner_also_won", "flag-unfit-ignored:contract_mutual",
    # P5: "`counters.contract_with` if it is 1, 2 or 3; any other value or absent = no contract"
    "counter-out-of-range-ignored:contract_with",
}
# Named by earlier versions of the diagnosis and false of this engine: 门清 as 2 番 (× 4: the engine writes ×2 as
# 2, and its 碰碰胡 / 混一色 double made the money agree by coincidence); 底分 doubled with the hand (U2: outside)
FALSE_CAUSES = {"option:menqing_doubles=2", "option:base_placement=doubled"}


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> dict:
    return unseen_run(tmp_path_factory.mktemp("unseen"), "shanghai-classic", ENGINE)


@pytest.fixture(scope="module")
def run8(tmp_path_factory) -> dict:
    return unseen_run(tmp_path_factory.mktemp("unseen8"), "shanghai-classic", ENGINE, effort=8)


def test_more_effort_names_only_true_causes_and_explains_more(run, run8):
    """At --effort 8 the search goes further (joint departures a probe cuts down to the parts it bears out): what it
    names is still only what the author wrote down, a contract at 4 calls (which explains the hands of 3 claims as
    well as none at all) is contradicted by a hand fed 4 times by one seat, no more cases are left unexplained
    than at the default effort, and no class is left with more."""
    named = named_causes(run8)
    assert named <= TRUE_CAUSES, sorted(named - TRUE_CAUSES)
    assert {"step:9:outer_limit.bounds=payment", "option:unpriced_fan_value=1"} <= named
    assert not {"contract:calls=4", "contract:calls=2", "contract:calls=1"} & named
    assert sum(c["cause"]["unexplained"] for c in run8["classes"]) <= \
        sum(c["cause"]["unexplained"] for c in run["classes"])
    # and no class is explained less: a cause contradicted at this effort gives way to the class's next cover
    left = {c["signature"]: c["cause"]["unexplained"] for c in run["classes"]}
    for c in run8["classes"]:
        assert c["cause"]["unexplained"] <= left.get(c["signature"], c["count"]), c["cause"]["verdict"]
    # the largest money class: the search at this effort joins D1 and D3 with a third departure its probes
    # contradict (the contract hands' payments); the two parts they bear out are named for their cases
    money = next(c for c in run8["classes"] if "payments differs" in c["signature"] and "total differs" in c["signature"])
    assert money["cause"]["unexplained"] * 10 <= money["count"], money["cause"]["verdict"]


def test_every_cause_named_is_one_the_engine_author_wrote_down(run):
    named = named_causes(run)
    assert named <= TRUE_CAUSES, sorted(named - TRUE_CAUSES)
    assert not named & FALSE_CAUSES
    # the ways of writing, the two doubles the engine reads otherwise and the contract flags it does not check
    # are found on every such run
    assert {"fan-names", "notation", "option:unpriced_fan_value=1", "counting:huang_fan=once",
            "flag-checks-dropped:contract_partner_also_won", "check-dropped:procedure.contract_detail"} <= named
    # D9 / P9, the 5勒 limit on each loser's whole payment, 底分 included: its cases are screened first by the kind of
    # payment they differ in (the robbed konger's and the contract partner's 50), so that it is found at the
    # default effort; the money class (contract and 包输 payments beside it) is then mostly explained, where 55 of
    # its 76 hands were left before
    assert "step:9:outer_limit.bounds=payment" in named
    money = next(c for c in run["classes"] if c["signature"].endswith("fans written in the engine's own way; "
                                                                     "payments differs"))
    assert money["cause"]["unexplained"] * 3 <= money["count"], money["cause"]["verdict"]


def test_the_cap_listed_at_the_total_is_a_way_of_writing(run):
    """The engine lists the 勒子 cap that cut a hand as an element at the hand's total (READINGS: "cap | 勒子 | the
    capped value in points (= total)"): learned as notation, no class differs by it alone."""
    assert not [c["signature"] for c in run["classes"] if "extra 勒子" in c["signature"]]


def test_a_flag_read_where_it_fits_is_not_said_ignored(run):
    """D6: a flower_replacement flag on a hand with no flower is ignored, on a hand with one it makes 杠开. "The
    flag is ignored" fits the class (no flower) but a probe with a flower tells it from "ignored where it does not
    fit", and the engine's answer bears out the latter: it is named, not the former."""
    (cls,) = [c for c in run["classes"] if c["signature"].startswith("expected refused: context.flower_replacement,")]
    (named,) = [e for e in cls["cause"]["explained_by"] if e["id"] == "flag-unfit-ignored:flower_replacement"]
    assert "flag-ignored:flower_replacement" not in {part for e in cls["cause"]["explained_by"]
                                                     for part in e["id"].split(" + ")}
    assert any(p["against"] == "flag-ignored:flower_replacement" and p["holds"] for p in named["probes"])


def test_input_the_rules_refuse_read_as_absent_is_named_so(run):
    """D6 and P5: a flag where it does not fit and a contract_with outside 1–3 are read as absent (not refused,
    not read): each such class is explained whole by that reading, never by "the check is not made" alone (which
    would read the flag: 杠开 on a self-drawn hand with no kong)."""
    for rule, reading in (("procedure.contract_seat", "counter-out-of-range-ignored:contract_with"),
                          ("context.kong_replacement", "flag-unfit-ignored:kong_replacement"),
                          ("context.flower_replacement", "flag-unfit-ignored:flower_replacement")):
        (cls,) = [c for c in run["classes"] if c["signature"].startswith(f"expected refused: {rule}, engine wins")]
        parts = {part for e in cls["cause"]["explained_by"] for part in e["id"].split(" + ")}
        assert reading in parts and cls["cause"]["unexplained"] == 0, cls["cause"]["verdict"]


def test_a_class_explained_in_part_by_the_runs_departures_says_so(run):
    """Classes of 荒番 counted once (D5) whose own search ran out of effort are covered, most of their cases, by the
    departures found for other classes (D1, D5, D9); the cases left say they were not searched to the end (a class
    of one hand reached after the larger ones spent the effort may be left whole, saying so)."""
    classes = [c for c in run["classes"] if "huang_fan 2×2 scored 2×1; payments differs" in c["signature"]]
    assert any(c["count"] >= 10 for c in classes)
    for c in classes:
        cause = c["cause"]
        if c["count"] >= 10:
            assert {"counting:huang_fan=once", "option:huangfan_stacking=once"} & {
                part for e in cause["explained_by"] for part in e["id"].split(" + ")}, cause["verdict"]
            assert cause["unexplained"] * 2 < c["count"]
        assert "not searched to the end" in cause["verdict"] if cause["unexplained"] else True


def test_the_ways_of_writing_answers_explain_the_largest_class_alone(run):
    """The largest class differs only in how the fans are written (money the same): the notation explains all of
    it, with no departure of the rules."""
    largest = run["classes"][0]
    assert "payments differs" not in largest["signature"] and "total differs" not in largest["signature"]
    assert largest["cause"]["unexplained"] == 0
    assert {e["id"] for e in largest["cause"]["explained_by"]} == {"fan-names", "notation"}
    words = " ".join(e["words"] for e in largest["cause"]["explained_by"])
    assert "明杠 for suited_exposed_kong" in words and "qing_yi_se" in words


def test_what_is_left_is_said_to_be_left(run):
    """No class is passed over in silence: each is explained, or says it is unexplained or not searched to the end."""
    for c in run["classes"]:
        cause = c["cause"]
        assert cause.get("explained_by") or cause["verdict"], c["signature"]
        if cause.get("unexplained"):
            assert cause["verdict"], c["signature"]


def test_the_double_for_pungs_and_half_flush_explains_most_of_the_largest_money_class(run):
    """The largest class whose money differs is mostly D1 (碰碰胡 / 混一色 ×2) beside the engine's own contract
    payments: the contract hands pay the cause's value the engine's own way, which is another departure met, not
    a contradiction (probes.settles_alike), so the cause is named and confirmed on most of the class."""
    money = next(c for c in run["classes"] if "payments differs" in c["signature"] and "total differs" in c["signature"])
    # (alone, or with D3's 门清 doubling a 勒子 pattern: the joint departure's parts each probed where they matter)
    # (a joint departure whose probes bear out only some of its parts named for the cases those parts explain)
    doubles = [e for e in money["cause"]["explained_by"] if "option:unpriced_fan_value=1" in e["id"].split(" + ")]
    for double in doubles:  # (or with P6a's contract self-draw on the contract hands, the run's model tried there)
        # (and D9's limit on a payer's whole payment, 底分 included, on the hands where a payer pays more than 50)
        assert set(double["id"].split(" + ")) <= {"option:unpriced_fan_value=1", "option:direct_settlement_final=false",
                                                  "option:contract_self_draw_others=1",
                                                  "step:9:outer_limit.bounds=payment"}
        assert double["evidence"] == "confirmed"
    assert sum(e["explains"] for e in doubles) * 10 >= doubles[0]["of"] * 9
