"""Proofs that a scoring mutant changes nothing a score case can see (checker/corpus/equivalence.py), each worked
from the spec's own text; and mutants a case does kill, which must never be proved."""
from __future__ import annotations

from checker.corpus.equivalence import differing_readings, proof
from checker.engine import load_ruleset
from checker.mutate import edits

MCR = load_ruleset("mcr")
KNOCKING = load_ruleset("shanghai-knocking")


def test_a_base_no_payment_reads_is_proved_equivalent():
    # spec/shanghai-knocking.yaml settlement: method shares, per_share [value] (one share is the hand's value, no
    # 底分 term), and no add_base step among the scoring steps: the base enters no payment
    m = edits.base("shanghai-knocking", 1, KNOCKING.settlement.base)
    assert differing_readings(KNOCKING, m) == []
    why = proof(KNOCKING, m)
    assert why is not None and why.startswith("equivalent: the scorer binds the same rules") and "base" in why


def test_a_dropped_implied_link_another_path_still_follows_is_proved_equivalent():
    # MCR: All fives excludes All simples, which implies No honors (spec/mcr.yaml). Under the non-repeat principle
    # (non_repeat_reading=table_plus_implied, the default) the scorer follows the implied links of what a fan
    # withholds onward, so All fives still withholds No honors without its own link; under table_only no implied
    # link is read at all
    m = edits.implied_dropped("mcr", "all_fives", "no_honors")
    assert differing_readings(MCR, m) == []
    assert proof(MCR, m).startswith("equivalent: the scorer binds the same rules")


def test_a_dropped_exclusion_between_fans_that_never_meet_is_proved_over_its_domain():
    # Pure terminal chows is four chows and a pair; Seven pairs is seven pairs: no one reading (one division of
    # the hand) holds both, so the exclusion between them withholds nothing, with or without it
    m = edits.exclusion_dropped("mcr", "pure_terminal_chows", "seven_pairs")
    assert differing_readings(MCR, m)  # the bound exclusions differ: only the exhaustive search proves it
    why = proof(MCR, m)
    assert why is not None and why.startswith("equivalent over every hand without a kong: no hand holds "
                                              "pure_terminal_chows and seven_pairs in one reading")


def test_a_mutant_a_case_can_kill_is_never_proved():
    # Big three dragons excludes Two dragon pungs and Dragon pung. Under the non-repeat principle the first
    # exclusion already withholds Dragon pung (Two dragon pungs implies it); under non_repeat_reading=table_only
    # only the declared exclusions are read, so without its link a big-three-dragons hand also counts each
    # Dragon pung (2 points each): a case under that reading kills it
    m = edits.exclusion_dropped("mcr", "big_three_dragons", "dragon_pung")
    assert differing_readings(MCR, m) == [{"non_repeat_reading": "table_only"}]
    assert proof(MCR, m) is None
    # a fan's points are never a family this module proves
    assert proof(MCR, edits.points("mcr", "dragon_pung", 3, 2)) is None


def test_a_minimum_every_win_meets_is_proved_and_one_above_it_is_not():
    # Knocking: "Every hand starts at a 1-hua base for going out" (going_out, 1 hua, a predicate that holds for
    # every winning hand, withheld by no fan): a minimum of 1 refuses no win, as the spec's 0 refuses none
    why = proof(KNOCKING, edits.minimum("shanghai-knocking", 1, 0))
    assert why is not None and why.startswith("equivalent: every win counts going_out (1 qualifying point(s)")
    # a minimum of 2 refuses a hand of the base alone (no flower, no other hua): not proved
    assert proof(KNOCKING, edits.minimum("shanghai-knocking", 2, 0)) is None
    # MCR has no fan every win counts: its minimum of 8 moved to 9 is not proved
    assert proof(MCR, edits.minimum("mcr", 9, 8)) is None
