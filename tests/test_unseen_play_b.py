"""Diagnosis on a second play judge for Shanghai Knocking nobody here wrote: reports/unseen-play-b/
knocking_play_b_engine.py, written from the knocking document and the protocol alone, by an author who never saw the
spec, the table, the corpora or the first judge; its readings in reports/unseen-play-b/READINGS.md (the truth a cause
is held to, by hand). Its winners' elements are its own ids (`going_out`, `wu_hua_guo` for the fig, `qiang_gang`),
elements worth 0 hua left out; its refusals its own (`knock.locked`, `kong.after_claim`, …); it reads no case's
options.

Run through the engine protocol on the shipped knocking hands of play and 500 seeded random ones, every cause named
must be one its author wrote down, readings it does not hold contradicted, not named, and every failing case
explained.
"""
from __future__ import annotations

import pytest

from unseen_helpers import engine_of, named_causes, unseen_run

ENGINE = engine_of("unseen-play-b", "knocking_play_b_engine.py")

TRUE_CAUSES = {
    # the winners' elements in words of its own or the document's; S1-S3 (zero-hua elements not listed)
    "fan-names", "unlisted-zero", "notation",
    # S11: 抢杠 listed as `qiang_gang` at 3 beside the total: an element the spec has no fan of, the money the rules'
    # (S4's fig, listed as `wu_hua_guo` at 10 in place of the base, is the spec's fig step in pinyin: notation)
    "outside:qiang_gang",
    # P13: the knock locks out every claim, a kong on a discard too
    "option:knock_lock_covers_kongs=true",
    # P16: no kong straight after a chow or pung claim
    "option:kong_after_claim=after_own_draw",
    # where a case names another reading: P15 a concealed kong after the knock that keeps the wait is allowed, P9 an
    # outranked seat has not passed and wins are not barred by a pass, P12 a missed win after the knock forfeits
    "option:knock_concealed_kong=keeps_wait", "option:forgo_when_outranked=false", "option:forgo_blocks_win=false",
    "option:knock_missed_win=forfeit_hand",
    # P5: a draw that does not say where it comes from is the one the seat owes; P11: a knock is followed at once by
    # its discard (a log ending at the knock is unfinished), whose wait is checked there (`ev_knock` checks nothing:
    # knock.checked_at=discard)
    "log:draw-end-inferred", "log:knock-awaits-its-discard", "procedure:knock.checked_at=discard",
}
# Readings that fit a class and are false of the judge (P15, P9): named only if the probes fail to contradict them
FALSE_CAUSES = {"option:knock_concealed_kong=never", "option:forgo_when_outranked=true"}


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> dict:
    return unseen_run(tmp_path_factory.mktemp("unseen-play-b"), "shanghai-knocking", ENGINE, kind="procedure",
                      count=500)


def test_every_cause_named_is_one_the_judges_author_wrote_down(run):
    named = named_causes(run)
    assert named <= TRUE_CAUSES, sorted(named - TRUE_CAUSES)
    assert not named & FALSE_CAUSES
    assert {"unlisted-zero", "option:knock_lock_covers_kongs=true", "option:kong_after_claim=after_own_draw"} <= named
    assert named & {"log:knock-awaits-its-discard", "procedure:knock.checked_at=discard"}  # (P11, either reading)


def test_every_failing_case_is_explained(run):
    for c in run["classes"]:
        assert c["cause"]["unexplained"] == 0, (c["signature"], c["cause"]["verdict"])


def test_winners_listing_no_zero_hua_element_are_read_as_a_way_of_writing(run):
    """S1-S3: the judge leaves plain-suit pungs (0 hua) out of a winner's elements, every payment the rules'. The
    hands of play whose winners differ only so are read as that way of writing (a hand of play's winners compared
    as a hand's fans are), with no departure named."""
    biggest = max(run["classes"], key=lambda c: c["count"])
    assert "fans at 0 points not listed" in biggest["signature"]
    ids = [e["id"] for e in biggest["cause"]["explained_by"]]
    assert "unlisted-zero" in ids and not any(i.startswith(("option:", "procedure:")) for i in ids), ids


def test_the_fig_under_its_pinyin_name_is_read_as_the_spec_s_fig_step(run):
    """S4: the judge lists the fig as `wu_hua_guo` at 10 in place of the base (and the 0-hua pungs): 无花果 in pinyin,
    the document's word for the spec's fig step. The notation says the judge writes scoring.fig so, and no fan
    outside the spec is named for it; a hand that also lists `qiang_gang` (a robbed kong) names that one alone."""
    said = [e["words"] for c in run["classes"] for e in c["cause"]["explained_by"] if e["id"] == "notation"]
    assert any("writes scoring.fig as an element of its own, wu_hua_guo at 10" in w for w in said), said[:2]
    named = named_causes(run)
    assert not any(n.startswith("outside:") and "wu_hua_guo" in n for n in named), sorted(named)
