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


def test_a_dropped_exclusion_account_once_already_enforces_is_proved_over_the_hands_holding_its_fan():
    # Quadruple chow (four identical chows, 48) excludes Pure double chow (two identical chows). Every pure
    # double chow of such a hand is two of the four chows quadruple chow already joins, and under account-once
    # (spec/mcr.yaml principles.account_once: a combination may not join sets already joined) it cannot be counted
    # beside it: without the link the hand scores the same. The proof reads every concealed hand holding four
    # identical chows (21 chows, each with any pair the copies allow), won on each tile both ways, under every
    # reading where the two specs bind otherwise
    m = edits.exclusion_dropped("mcr", "quadruple_chow", "pure_double_chow")
    assert differing_readings(MCR, m)  # the bound exclusions differ
    why = proof(MCR, m)
    assert why is not None and why.startswith("equivalent over every concealed hand without a kong: the mutant "
                                              "withholds otherwise only in what quadruple_chow withholds")
    assert "651 hands" in why and "melded hands and kongs are outside it" in why


def test_a_dropped_exclusion_a_hand_of_its_fan_shows_is_never_proved():
    # Quadruple chow also excludes Tile hog. 1m2m3m four times and a pair of East holds each of 1m, 2m and 3m four
    # times outside a kong: without the link Tile hog (2) counts three times, 6 points more, so the hands holding
    # quadruple chow tell the mutant from the spec and nothing is proved
    m = edits.exclusion_dropped("mcr", "quadruple_chow", "tile_hog")
    assert proof(MCR, m) is None


def test_a_mutant_that_only_adds_a_reading_worth_as_much_meets_every_case_and_one_that_drops_one_does_not():
    # 1s-9s, a second 7s8s9s and a pair of 7z (tile 33), self-drawn on 1s. MCR (spec/mcr.yaml): Pure straight 16,
    # Half flush 6, Fully concealed hand 4, and one more point from the second 7s8s9s: with the first it is a Pure
    # double chow (1); with 4s5s6s it would be a Short straight (1), which Pure straight implies and so withholds.
    # Without that implied link the hand has two readings worth 27, the spec's and one with Short straight: every
    # case made from the spec (its one reading) is met by the mutant's result, while a case pinning the mutant's
    # new reading would not be met by the spec
    from checker.corpus.acting import met
    from checker.engine import Hand, Scorer

    m = edits.implied_dropped("mcr", "pure_straight", "short_straight")
    spec, mutant = Scorer(MCR), Scorer(m.edit(MCR))
    hand = Hand((19, 20, 21, 22, 23, 24, 24, 25, 25, 26, 26, 33, 33), (), 18, "self_draw")
    ours, theirs = spec.fan_totals_of_wins([hand])[0], mutant.fan_totals_of_wins([hand])[0]
    reading = {"pure_straight": 16, "half_flush": 6, "fully_concealed_hand": 4, "pure_double_chow": 1}
    assert ours == (True, None, reading, ())
    assert theirs[2] == reading and theirs[3] == ({**{k: v for k, v in reading.items() if k != "pure_double_chow"},
                                                   "short_straight": 1},)
    assert met(ours, theirs) and not met(theirs, ours)


def test_a_proof_that_reads_hands_stops_when_the_budget_is_spent():
    from checker.corpus.acting import met_wherever_it_acts

    m = edits.exclusion_dropped("mcr", "quadruple_chow", "pure_double_chow")
    assert met_wherever_it_acts(MCR, m, out=lambda: True) is None
    assert met_wherever_it_acts(MCR, m, processes=1) is not None  # and in one process it proves the same


def test_a_survivor_is_proved_once_for_a_spec_however_many_rounds_measure_it(monkeypatch):
    # the generator measures a growing corpus up to four times; a proof reads only the spec and the mutant, so
    # the second round takes the first round's proof instead of reading the hands again
    import checker.corpus.strength_search as strength

    m = edits.exclusion_dropped("mcr", "quadruple_chow", "pure_double_chow")
    calls = []
    monkeypatch.setattr(strength, "proof", lambda ruleset, mutation, out=None: calls.append(1) or "equivalent: x")
    monkeypatch.setattr(strength, "_PROOFS", {})
    first = strength.proved(MCR, m, strength.Clock(10))
    second = strength.proved(MCR, m, strength.Clock(10))
    assert first == second == "equivalent: x" and len(calls) == 1
    other = load_ruleset("mcr")  # another spec object (it may differ): proved afresh
    assert strength.proved(other, m, strength.Clock(10)) == "equivalent: x" and len(calls) == 2
