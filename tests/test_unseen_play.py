"""Diagnosis on a game judge nobody here wrote: reports/unseen-play/knocking_play_engine.py, a play judge for Shanghai
Knocking written from the knocking document and the protocol alone (its author never saw the spec, the table or
the corpora), its readings in reports/unseen-play/READINGS.md (the truth a cause is held to, by hand). Run through
the engine protocol on the shipped knocking hands of play and 1,000 seeded random ones, every cause named must be
one its author wrote down, and a cause that fits the class but not the judge's readings must be contradicted by a
probe, not named.
"""
from __future__ import annotations

import pytest

from unseen_helpers import engine_of, named_causes, unseen_run

ENGINE = engine_of("unseen-play", "knocking_play_engine.py")

# Every cause the judge's readings make true (READINGS.md), by the id the diagnosis gives it:
TRUE_CAUSES = {
    # S1-S3: the winners' elements under the document's own words (wind pung, 杠开, 混一色, …)
    "fan-names",
    # S3 (the table's 0-hua plain-suit pung), as it lists its elements: not listed
    "unlisted-zero",
    # S4: 无花果 is 10 hua and the doubles apply to it (the fig written as an element of its own at 10)
    "option:fig_then_doubled=true",
    # P10: a knocked player may not chow, pung or kong a discard: the lock covers claimed kongs too
    "option:knock_lock_covers_kongs=true",
}
# Causes that fit a class and are false (READINGS.md says otherwise): P14 ranks win over pung/kong over chow. The
# forgo class (P17: a seat whose chow a pung outranked has passed the tile) is reproduced by "chow ranks above
# pung"; claims answered at once (a `claims` event) show the judge giving the tile to the pung.
FALSE_CAUSES = {"procedure:claims.priority=win>chow>pung_kong"}


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> dict:
    return unseen_run(tmp_path_factory.mktemp("unseen-play"), "shanghai-knocking", ENGINE, kind="procedure",
                      count=1000)


def test_every_cause_named_is_one_the_judges_author_wrote_down(run):
    named = named_causes(run)
    assert named <= TRUE_CAUSES, sorted(named - TRUE_CAUSES)
    assert {"fan-names", "option:knock_lock_covers_kongs=true", "option:fig_then_doubled=true"} <= named
    assert not named & FALSE_CAUSES


def test_the_false_priority_is_contradicted_by_claims_answered_at_once(run):
    """The forgo class: "chow ranks above pung" reproduces its cases; a hand of play whose claim is answered at once
    with another seat's tells it from the rules, and the judge answers as the rules (P14): contradicted."""
    forgo = [c for c in run["classes"] if "forgo-reclaim" in c["signature"]]
    assert forgo
    for c in forgo:
        assert c["cause"]["explained_by"] == []
        contradicted = {e["id"] for e in c["cause"].get("contradicted") or []}
        assert "procedure:claims.priority=win>chow>pung_kong" in contradicted


def test_the_lock_class_is_explained_and_its_witness_is_told_as_a_hand_of_play(run):
    lock = next(c for c in run["classes"] if "claim-after-knock" in c["signature"] and c["count"] > 10)
    assert [e["id"] for e in lock["cause"]["explained_by"]] == ["option:knock_lock_covers_kongs=true"]
    assert lock["cause"]["unexplained"] == 0
    assert lock["witness"]["words"].startswith("a hand of play dealt by seat")


def test_the_winners_fans_are_read_in_the_judges_own_words(run):
    """S1: the base written "going out" (at its 1 hua) is learned from the winners whose payments agree, and the
    largest class, hands won as the rules have them, is explained by the way the judge writes its elements."""
    biggest = max(run["classes"], key=lambda c: c["count"])
    assert "own words" in biggest["signature"]
    ids = [e["id"] for c in run["classes"] for e in c["cause"]["explained_by"]]
    assert "notation" in ids or any("going out" in e["words"] for c in run["classes"]
                                    for e in c["cause"]["explained_by"])
