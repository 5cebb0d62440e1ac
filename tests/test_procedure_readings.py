"""A hand of play's winner the rules read two ways of the same worth (checker.table.settle, `or_fans`): the expected
winner lists the first reading's fans and the others' as `or_fans`, and an answer listing any of them matches, as a
hand's `either` does (case.schema.json `$defs/procedure_result`). Before, an engine that chose the other reading of
such a hand was reported as departing, where the rules take its answer.

The hand: MCR random hand of play 906 of seed 5 (`random_cases("mcr", …, 5, kind="procedure")`, default options).
Seat 0 (East, round East) holds chows 4p5p6p and 3p4p5p claimed, 6p7p7p8p and a pung of West (3z) concealed, two
flowers, and wins on seat 2's 7p. By hand: 6p7p8p and a pair of 7p either way; the 7p taken is the middle of
6p_8p (Closed wait 1) or the second 7p of the pair (Single wait 1), 7p the only tile the hand waited on. Both
readings: Half flush 6 (dots and honours), Short straight 1 (3p4p5p, 6p7p8p), Pung of terminals or honors 1 (West,
neither seat nor round wind), Flower tiles 1×2: 11 either way.
"""
from __future__ import annotations

from checker.case import CaseRunner, matches
from checker.corpus.random_cases import Mix, _procedure_case, read_options
from checker.spec import load_ruleset


def _hand() -> dict:
    ruleset = load_ruleset("mcr")
    return _procedure_case(CaseRunner(), ruleset, 5, 906, Mix(options=0.0), read_options(ruleset, {}))


def _fans(*ids_points_counts):
    return [{"id": i, "points": p, "count": c} for i, p, c in ids_points_counts]


COMMON = (("half_flush", 6, 1), ("short_straight", 1, 1), ("pung_of_terminals_or_honors", 1, 1),
          ("flower_tiles", 1, 2))


def test_a_winner_read_two_ways_of_the_same_worth_matches_either_list():
    case = _hand()
    expect = case["expect"]
    (winner,) = expect["winners"]
    lists = [winner["fans"], *winner["or_fans"]]
    closed, single = _fans(*COMMON, ("closed_wait", 1, 1)), _fans(*COMMON, ("single_wait", 1, 1))
    key = lambda fans: sorted((f["id"], f["points"], f["count"]) for f in fans)  # noqa: E731
    assert sorted(map(key, lists)) == sorted(map(key, [closed, single]))
    assert winner["total"] == 6 + 1 + 1 + 1 + 2  # = 11, whichever wait is counted
    for fans in (closed, single):
        answer = {**expect, "winners": [{"seat": winner["seat"], "win_by": winner["win_by"], "total": 11,
                                         "fans": list(reversed(fans))}]}
        answer["winners"][0].pop("or_fans", None)
        assert matches(answer, expect)
    # a list of neither reading does not match (the same total, another fan)
    other = _fans(*COMMON, ("edge_wait", 1, 1))
    assert not matches({**expect, "winners": [{"seat": winner["seat"], "win_by": winner["win_by"], "total": 11,
                                               "fans": other}]}, expect)


def test_diagnosis_reads_a_winner_of_the_other_reading_as_the_rules_answer():
    """Diagnosis compares an engine's answer with the reference's re-scored one (checker.diagnose.answers
    `agreement`): a winner listing the other reading's fans agrees with a reference winner carrying them as
    `or_fans` (else every departure re-scored on such a passing hand would seem to change it)."""
    from checker.diagnose.answers import agreement

    case = _hand()
    expect = case["expect"]
    (winner,) = expect["winners"]
    other = {k: v for k, v in winner.items() if k != "or_fans"} | {"fans": winner["or_fans"][0]}
    answer = {**expect, "winners": [other]}
    assert agreement(answer, expect, expect, kind="procedure").same
    assert not agreement({**expect, "winners": [{**other, "fans": _fans(*COMMON, ("edge_wait", 1, 1))}]}, expect,
                         expect, kind="procedure").same
