"""Diagnosis on a play judge for classic Shanghai mahjong nobody here wrote: reports/unseen-play-classic/
classic_play_engine.py, written from the classic document and the protocol alone, by an author who never saw the
spec, the table, the corpora or any other engine here; its readings in reports/unseen-play-classic/READINGS.md (the
truth a cause is held to, by hand). Its winners' fans are the document's names in pinyin (`menqing`, `qingyise`), its
refusals its own ids; it reads no case's options. Its P1 reads the introduction's 必须先敲 as a rule: a knock's
discard must leave the hand waiting on one of the permitted patterns (the rules' reading knock_wait=winning_hand),
checked at that discard.

Run through the engine protocol on the shipped classic hands of play and 60 seeded random ones, every cause named
must be one its author wrote down, and what the tool cannot explain it must say it cannot, saying what it tried.
"""
from __future__ import annotations

import pytest

from unseen_helpers import engine_of, named_causes, unseen_run

ENGINE = engine_of("unseen-play-classic", "classic_play_engine.py")

TRUE_CAUSES = {
    # S12: the winners' fans under the document's names in pinyin (menqing, qingyise, pengpenghu, …)
    "fan-names",
    # P1: a knock is followed at once by its discard (a log ending at the knock is unfinished)
    "log:knock-awaits-its-discard",
    # P1: the knock's discard must leave the hand waiting on a permitted pattern (S1: a hand it could win with), and
    # the judge checks it there, at the discard (`ev_knock` checks nothing; `ev_discard` raises knock.not_waiting): a
    # log ending at a knock no discard can make ready is unfinished, not refused
    "option:knock_wait=winning_hand",
    "procedure:knock.checked_at=discard",
    # P9 as the judge's code reads a draw (`ev_draw`: "from" checked only where given): a draw that does not say
    # where it comes from is the one the seat owes
    "log:draw-end-inferred",
    # P5: a knocked seat that let a winning tile pass may not win on that tile kind from any seat's discard
    "option:lou_hu_later_copy=any_seat",
}
# P12: the judge allows 八花齐 only right after the eighth flower, before its replacement (drawing it declines the
# win, a later win an ordinary one): the rules' reading before_replacement (马上 read as the moment of the eighth
# flower). The other reading, own_turn, refuses the class's hands too (a win after the replacement), but not the
# judge's answer to the class's hand with the replacement left out, which it takes: own_turn is contradicted.
TRUE_CAUSES.add("option:eight_flowers_at_deal=before_replacement")
OWN_TURN = "option:eight_flowers_at_deal=own_turn"


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> dict:
    return unseen_run(tmp_path_factory.mktemp("unseen-play-classic"), "shanghai-classic", ENGINE, kind="procedure",
                      count=60)


def test_every_cause_named_is_one_the_judges_author_wrote_down(run):
    named = named_causes(run)
    assert named <= TRUE_CAUSES, sorted(named - TRUE_CAUSES)
    assert {"option:knock_wait=winning_hand", "procedure:knock.checked_at=discard"} <= named


def test_fans_named_in_pinyin_are_read_as_the_spec_s_fans(run):
    """S12: `menqing`, `qingyise` are 门清 and 清一色 in pinyin: read as the spec's men_qing and qing_yi_se, said so,
    never taken for fans outside the spec."""
    said = [e["words"] for c in run["classes"] for e in c["cause"].get("explained_by") or [] if e["id"] == "fan-names"]
    assert any("in pinyin" in w and "for qing_yi_se" in w for w in said), said[:2]
    assert not any(n.startswith("outside:") and ("qingyise" in n or "menqing" in n) for n in named_causes(run))


def test_the_knock_s_wait_is_read_as_a_hand_it_could_win_with_checked_at_its_discard(run):
    """P1: the judge refuses a knock whose discard leaves the hand waiting on no permitted pattern, at that discard:
    the largest class is named by the rules' reading knock_wait=winning_hand (the document's 报听 read as ready to
    win) with the table checking the knock at its discard, the judge's refusal id read as the option's."""
    largest = max(run["classes"], key=lambda c: c["count"])
    assert "knock.not_waiting" in largest["signature"]
    cause = largest["cause"]
    [e] = cause["explained_by"]
    assert e["id"] == "procedure:knock.checked_at=discard + option:knock_wait=winning_hand", cause["verdict"]
    assert e["evidence"] == "confirmed" and cause["unexplained"] == 0
    assert e["rules_read"] == {"knock.not_waiting": "option.knock_wait"}


def test_the_eight_flowers_class_is_named_by_the_declaration_before_the_replacement(run):
    """P12: before_replacement reproduces the class's hands (the win after the replacement refused: the
    declaration passed with the draw) and holds at the class's own event (the win right after the eighth flower,
    taken by the judge); own_turn, which refuses that win, is contradicted, not named beside it."""
    [cls] = [c for c in run["classes"] if any("eight" in case for case in c["cases"])]
    cause = cls["cause"]
    [e] = cause["explained_by"]
    assert e["id"] == "option:eight_flowers_at_deal=before_replacement", cause["verdict"]
    assert e["evidence"] == "confirmed" and cause["unexplained"] == 0
    assert OWN_TURN in {c["id"] for c in cause.get("contradicted") or []}
    assert OWN_TURN not in named_causes(run)
