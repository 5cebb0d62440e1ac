"""Diagnosis on a second Shanghai Knocking scoring engine nobody here wrote: reports/unseen-knocking-b/
knocking_b_engine.py, written from the knocking document alone (000_10956719290e0934.txt) and the protocol, by an
author who never saw the spec, the reference engine, the corpora or the first knocking engine; its readings in
reports/unseen-knocking-b/READINGS.md (the truth a cause is held to, by hand). It names its elements in English ids of
its own (`base`, `fig`, `plain_exposed_kong`, …), leaves out elements worth 0 hua, lists the fig in place of the
base, lists 抢杠 as `qiang_gang` at 3 outside the total, refuses bad input with ids of its own and reads no case's
options.

Run through the engine protocol on the shipped knocking corpus and 1,000 seeded random hands, every cause named must
be one the author wrote down, and every failing case explained.
"""
from __future__ import annotations

import pytest

from unseen_helpers import engine_of, named_causes, unseen_run

ENGINE = engine_of("unseen-knocking-b", "knocking_b_engine.py")

# Every cause the engine's readings make true (READINGS.md), by the id the diagnosis gives it:
TRUE_CAUSES = {
    # the output table: its own ids for the document's elements (base, plain_exposed_kong, …), learned where the
    # money agrees, or the document's words
    "fan-names",
    # H7: elements worth 0 hua (plain-suit pungs) are not emitted
    "unlisted-zero",
    # H6 and the output table: the fig (无花果) listed as `fig` at 10 in place of the base (and the 0-hua pungs)
    "notation",
    # D8: 抢杠 listed as `qiang_gang` at 3, not in the total (a payment multiplier): a fan the spec has none of, the
    # money the rules'
    "outside:qiang_gang",
    # where a case names another reading (the engine reads no case's options): D2 门清 on a discard too, P2 the
    # discarder alone pays, H6 the fig doubled, D1 concealed kongs count as declared for 大挑车, W4 a kong after
    # knocking is not refused, P3 the robbed player alone pays the ×3
    "option:menqing_needs_self_draw=false", "option:discard_others_pay=0", "option:fig_then_doubled=true",
    "option:da_tiao_che_counts_concealed_kongs=true", "option:knock_lock_covers_kongs=false",
    "option:robbing_kong_triple_on=konger_alone",
}


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> dict:
    return unseen_run(tmp_path_factory.mktemp("unseen-knocking-b"), "shanghai-knocking", ENGINE, count=1000)


def test_every_cause_named_is_one_the_engine_author_wrote_down(run):
    named = named_causes(run)
    assert named <= TRUE_CAUSES, sorted(named - TRUE_CAUSES)
    assert {"fan-names", "unlisted-zero", "notation", "outside:qiang_gang"} <= named


def test_every_failing_case_is_explained_and_every_departure_named_confirmed(run):
    """Every class explained whole; each reading of an option (a case naming another value than the engine's one
    reading) confirmed by the engine's answers to probes."""
    for c in run["classes"]:
        cause = c["cause"]
        assert cause["unexplained"] == 0, (c["signature"], cause["verdict"])
        for e in cause["explained_by"]:
            if any(part.startswith("option:") for part in e["id"].split(" + ")):
                assert e["evidence"] == "confirmed", (c["signature"], e.get("why_untested"))


def test_the_fig_is_read_as_how_the_engine_writes_the_base(run):
    """H6: a hand with no hua beyond the base lists `fig` 10 where the rules list the base (1) and total 10 alike:
    the notation says the engine writes the fig step as an element of its own, in place of the base, and no class
    of such hands names a departure."""
    fig = [c for c in run["classes"] if "extra fig 10" in c["signature"] and "payments differs" not in c["signature"]]
    assert fig
    for c in fig:
        notation = [e for e in c["cause"]["explained_by"] if e["id"] == "notation"]
        assert notation and "fig" in notation[0]["words"] and "going_out" in notation[0]["words"]
        assert not any(e["id"].startswith("option:") for e in c["cause"]["explained_by"])
