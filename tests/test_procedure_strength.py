"""Corpus strength for procedure cases (`checker.mutate.procedure`, `checker.corpus.procedure_strength`, the
procedure rows of `mjcheck corpus strength`).

The catalogue is counted by hand from each spec's `procedure:` section. A planted weak corpus of three hand-made
shanghai-knocking scenes (from corpus/shanghai-knocking-procedure.jsonl, each worked by hand in
tests/test_table_knocking_classic.py) kills exactly the mutants worked out below from the scenes' events and the
table's rules, never read from the tool's output. The mutants no procedure case can observe are worked out from
what a procedure result holds; the shipped procedure corpora are measured on a small sample (the counts adding
up is asserted, the kill rate only reported).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from checker.case import CaseRunner
from checker.cli import app
from checker.corpus.procedure_strength import procedure_catalog, table_options, unobservable
from checker.corpus.strength import corpus_strength
from checker.corpus.strength_markdown import markdown
from checker.corpus.strength_records import KILLED, NOT_OBSERVABLE, NOT_SEPARATED, SEPARATED, STATUSES, UNBOUND
from checker.engine import load_ruleset
from checker.mutate.procedure import FAMILIES, is_procedure, procedure_mutations
from corpus_helpers import cases_in, write_corpus

ROOT = Path(__file__).resolve().parents[1]
PROCEDURE = [ROOT / "corpus" / f"{r}-procedure.jsonl" for r in ("mcr", "shanghai-classic", "shanghai-knocking")]
RULESETS = ("mcr", "shanghai-classic", "shanghai-knocking")


def cases_of(ruleset: str, *ids: str) -> list[dict]:
    return cases_in(f"{ruleset}-procedure", *ids)


def by_id(strength) -> dict:
    return {r.mutation.id: r for rs in strength.rulesets for r in rs.results}


# ----------------------------------------------------------------------- the catalogue

# Each family, counted by hand from the spec's procedure section (spec/*.yaml):
CATALOGUE = {
    "mcr": {
        "procedure: claim seats": 1,  # claims.chow_from previous_player -> any
        "procedure: claim priority": 2,  # claim_priority [win, pung_kong, chow]: two neighbour swaps
        "procedure: multiple winners": 1,  # nearest_seat_after_discarder -> all_paid
        "procedure: robbing the kong": 1,  # robbing_only_added_kongs: true -> a claimed kong robbable too
        "procedure: flowers at the deal": 4,  # at_deal and dragons_too flipped; in_wall names an option of two
                                              # values (flower_tiles_in_wall): fixed to each (2)
        "procedure: wall end": 2,  # dead_wall_tiles names an option of values 0 and 14: fixed to each
        "procedure: dealer rotation": 6,  # rotates_each_hand, draws_count flipped; round_wind_every 4 -> 5, 3, 8, 0
        "procedure: option default": 5,  # dead_wall_tiles 0 -> 14, last_discard_claims any -> win_only,
        # added_kong_after_claim allowed -> after_own_draw, wall_model single -> quarters, flower_tiles_in_wall
        # true -> false (read_by: table)
    },
    "shanghai-classic": {
        "procedure: claim seats": 1,  # chow_from and claims.chow_from (previous_player) -> any, together
        "procedure: claim priority": 2,  # claims.priority [win, pung_kong, chow]: two neighbour swaps
        "procedure: multiple winners": 1,  # all_paid -> nearest_seat_after_discarder
        "procedure: robbing the kong": 1,
        "procedure: 漏胡": 9,  # lifted_by loses each of its 4 moves; later_copy_from and own_draw_win each name an
                               # option of two values (fixed to each: 4); the rule left out (1)
        "procedure: knock": 6,  # required_to_win, locks_hand, must_take_first_win flipped; wait names an option
                                # of two values (knock_wait: fixed to each, 2); checked_at knock -> discard
        "procedure: flowers at the deal": 5,  # at_deal, dragons_too flipped; declared_win names an option of
                                              # three values (fixed to each: 3)
        "procedure: tile swap": 4,  # tile_swap.tiles 5 -> 6, 4, 10, 0
        "procedure: wall end": 2,  # the option's values 0 and 14
        "procedure: dealer rotation": 4,  # winner_deals flipped, on_draw dealer_stays -> next_seat,
                                          # after_multiple_win (an option of two values) fixed to each
        "procedure: 荒番 count": 4,  # on_draw 1 -> 2, 0; on_win -1 -> 0, -2
        "procedure: contract calls": 8,  # settlement.contract.calls (read by the table) 3 -> 4, 2, 6, 0, and
                                         # settlement.liability.exempt_doubles (三番叫胡) 3 -> 4, 2, 6, 0
        "procedure: option default": 8,  # six read_by: table options, two values each, one of them three
                                         # (eight_flowers_at_deal: its default to each other value, 2); and
                                         # full_flush_liability false -> true (read by the scorer and, for
                                         # 三番叫胡, by the table)
    },
    "shanghai-knocking": {
        "procedure: claim seats": 1,
        "procedure: claim priority": 2,  # claim_priority [win, pung_kong, chow]: two neighbour swaps
        "procedure: multiple winners": 1,  # nearest_seat_after_discarder -> all_paid
        "procedure: robbing the kong": 1,  # any_kong_exposing_a_tile: true -> an added kong only
        "procedure: forgo then reclaim": 8,  # blocks loses each of chow, pung, kong (3); blocks_win and
                                             # outranked_passes each name an option of two values (4); the rule
                                             # left out (1)
        "procedure: knock": 8,  # three flags flipped; missed_win and concealed_kong each name an option of two
                                # values (4); checked_at knock -> discard
        "procedure: mandatory kong": 3,  # after_knock, unless_self_draw_win, robbable flipped
        "procedure: swap calling": 3,  # two flags flipped, the rule left out
        "procedure: flowers at the deal": 2,
        "procedure: wall end": 1,  # dead_wall_tiles 0 -> 1 (dead_wall false -> true with it)
        "procedure: dealer rotation": 2,  # winner_deals flipped, on_draw -> next_seat
        "procedure: option default": 6,  # knock_missed_win, forgo_blocks_win, kong_after_claim,
                                         # knock_concealed_kong, forgo_when_outranked (read_by: table) and
                                         # knock_lock_covers_kongs, which the scorer reads and the table too
    },
}


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_catalogue_has_each_family_where_the_spec_has_its_entry(ruleset_id):
    rs = load_ruleset(ruleset_id)
    mutations = procedure_mutations(rs, table_options(rs))
    counts: dict[str, int] = {}
    for m in mutations:
        counts[m.family] = counts.get(m.family, 0) + 1
    assert counts == CATALOGUE[ruleset_id]
    # in catalogue order, every id marked as a procedure mutant and unique
    ranks = [FAMILIES.index(m.family) for m in mutations]
    assert ranks == sorted(ranks)
    assert all(is_procedure(m) and m.ruleset == ruleset_id for m in mutations)
    assert len({m.id for m in mutations}) == len(mutations)


def test_ids_are_stable_and_the_loaded_ruleset_untouched():
    first = [m.id for m in procedure_mutations(load_ruleset("shanghai-classic"))]
    again = [m.id for m in procedure_mutations(CaseRunner().ruleset("shanghai-classic"))]
    assert first == again
    assert {"procedure:claims.chow_from=any", "procedure:claims.priority=win>chow>pung_kong",
            "procedure:lou_hu.lifted_by=pung+chow+kong", "procedure:lou_hu=absent",
            "procedure:huangfan_count.on_win=-2", "procedure:default:lou_hu_own_draw_win=false"} <= set(first)
    rs = load_ruleset("shanghai-classic")
    before = json.dumps(dict(rs.procedure), sort_keys=True, default=list)
    for m in procedure_mutations(rs):
        m.edit(rs)
    assert json.dumps(dict(rs.procedure), sort_keys=True, default=list) == before


def test_coupled_entries_change_together():
    # classic gives chow_from twice (procedure.chow_from and claims.chow_from): the mutant sets both, or the
    # table would refuse the spec for giving it twice otherwise
    classic = load_ruleset("shanghai-classic")
    [seats] = [m for m in procedure_mutations(classic) if m.family == "procedure: claim seats"]
    edited = seats.edit(classic).procedure
    assert edited["chow_from"] == edited["claims"]["chow_from"] == "any"
    # knocking keeps no dead wall (dead_wall: false, dead_wall_tiles: 0); one tile kept back makes dead_wall true
    knocking = load_ruleset("shanghai-knocking")
    [wall] = [m for m in procedure_mutations(knocking) if m.family == "procedure: wall end"]
    edited = wall.edit(knocking).procedure
    assert edited["wall_end"]["dead_wall_tiles"] == 1 and edited["dead_wall"] is True
    # MCR robs added kongs only: a kong exposing a tile becomes robbable, robbing_only_added_kongs false with it
    mcr = load_ruleset("mcr")
    [robbing] = [m for m in procedure_mutations(mcr) if m.family == "procedure: robbing the kong"]
    edited = robbing.edit(mcr).procedure
    assert edited["robbing_kong"] == {"any_kong_exposing_a_tile": True}
    assert edited["robbing_only_added_kongs"] is False


def test_mutants_the_table_or_schema_refuses_are_unbound_with_why():
    # dragons_too must agree with tiles.dragons_as_flowers (false under MCR): the table refuses the flip
    mcr = procedure_catalog(load_ruleset("mcr"))
    why = mcr.unbound["procedure:flower_exposure.dragons_too=true"]
    assert "dragons_as_flowers" in why
    # round_wind_every 0: the schema's minimum is 1
    assert "minimum" in mcr.unbound["procedure:dealer_rotation.round_wind_every=0"]
    assert set(mcr.unbound) == {"procedure:flower_exposure.dragons_too=true",
                                "procedure:dealer_rotation.round_wind_every=0"}
    # classic: the same flip, and a swap of 0 tiles (the schema's minimum is 1)
    classic = procedure_catalog(load_ruleset("shanghai-classic"))
    # the knock not required to win, while the scorer requires its flag (win.requires_flags): one rule said twice
    # two ways, refused (both Shanghai rulesets)
    assert set(classic.unbound) == {"procedure:flower_exposure.dragons_too=true", "procedure:tile_swap.tiles=0",
                                    "procedure:knock.required_to_win=false"}
    assert "win.requires_flags" in classic.unbound["procedure:knock.required_to_win=false"]
    knocking = procedure_catalog(load_ruleset("shanghai-knocking"))
    assert set(knocking.unbound) == {"procedure:flower_exposure.dragons_too=false",
                                     "procedure:knock.required_to_win=false"}


# Worked from the table (checker/table/state.py, settle.py) and the procedure result (checker/table/log.py
# procedure_result: verdict, rule, event, ended, winners, payments, next_dealer, next_round_wind, next_huangfan;
# never the message):
# - claim priority (MCR, classic): a claim on a discard another seat has claimed is refused by `_outranked`
#   whatever the ranks; the ranks decide only the message, and which claims a pass forgoes under
#   forgo-then-reclaim, which neither ruleset plays;
# - claim priority pung_kong > win > chow (knocking, which plays forgo-then-reclaim): a pass forgoes a chow or a
#   pung the seat could have claimed above the claim made; after a chow, a pung or a kong the two orders say
#   the same (win > pung_kong > chow against pung_kong > win > chow moves only the win), and a win ends the hand
#   (one winner to a discard), so what a win forgoes is never read. win > chow > pung_kong is observable: a seat
#   able to chow a tile another seat pungs forgoes it (the scene chow_let_go_beside_a_pung kills it);
# - forgo_then_reclaim.blocks without kong (knocking): a seat forgoes a tile holding two or more of it (a pung it
#   could make) or as the next seat able to chow it (and that seat draws next, which lifts the block); with two
#   in hand it gains no third before its own draw, and with three the copy let go makes four: a later copy to
#   claim as a kong would be a fifth.
# round_wind_every (MCR) and the 荒番 count (classic) show in next_round_wind and next_huangfan
# (tests/test_procedure_next_hand.py kills one of each with a case naming them).
UNOBSERVABLE = {
    "mcr": {"procedure:claims.priority=pung_kong>win>chow", "procedure:claims.priority=win>chow>pung_kong"},
    "shanghai-classic": {"procedure:claims.priority=pung_kong>win>chow", "procedure:claims.priority=win>chow>pung_kong"},
    "shanghai-knocking": {"procedure:forgo_then_reclaim.blocks=chow+pung", "procedure:claims.priority=pung_kong>win>chow"},
}


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_what_no_procedure_case_can_observe(ruleset_id):
    rs = load_ruleset(ruleset_id)
    catalog = procedure_catalog(rs)
    found = {m.id for m in catalog.mutants if unobservable(rs, m) is not None}
    assert found == UNOBSERVABLE[ruleset_id]
    # and indeed no shipped procedure case kills one of them (the claim checked against the cases at hand)
    corpus = ROOT / "corpus" / f"{ruleset_id}-procedure.jsonl"
    results = by_id(corpus_strength([corpus], budget=0, only=found))
    assert {i: r.status for i, r in results.items()} == {i: NOT_OBSERVABLE for i in found}
    assert all(r.as_json()["verdict"].startswith("not observable by a procedure case: ") for r in results.values())


# ----------------------------------------------------------------------- a planted weak corpus

# Three hand-made shanghai-knocking scenes (checker/corpus/scenes.py), in this order:
# A  made-mandatory-kong-refused: seat 0 (123m 456m 789m 77p 5s 1s 2s) discards 1s, pungs seat 1's 7p, knocks,
#    discards 2s (waiting on 5s); seats 1-3 discard 3s, 4s, 8s; seat 0 draws the fourth 7p and discards it:
#    illegal at event 13, procedure.mandatory_kong.
# B  made-mandatory-kong-robbed: the same opening; seat 2 draws 4p, knocks and discards it (waiting on 7p); seat 0
#    draws the fourth 7p, extends its pung (add_kong) and seat 2 robs it: legal, seat 2 the winner, payments
#    [-60, 0, +60, 0], next dealer 2 (the winner deals).
# C  made-concealed-kong-not-robbed: seat 3 knocks waiting on 1m/4m; seat 0 draws 5s, declares a concealed kong of
#    1m, and seat 3 claims a win on it: illegal at event 10, procedure.robbing_kong.
# No hand holds a flower or a dragon (dragons are flowers here) and no event is a chow, a claimed kong, a second
# win, a self-drawn win or a drawn hand; the wall is far from its end in all three.
PLANTED = ("shanghai-knocking-made-mandatory-kong-refused", "shanghai-knocking-made-mandatory-kong-robbed",
           "shanghai-knocking-made-concealed-kong-not-robbed")
KILLED_BY = {
    # only an added kong robbable: C's refusal now cites that rule, procedure.robbing_only_added_kongs, not
    # procedure.robbing_kong (B, tried first as it also covers robbing_kong, robs an added kong: unchanged)
    "procedure:robbing_kong.kongs=added": PLANTED[2],
    # no mandatory kong: A's discard of the drawn 7p keeps the lock and wins nothing: legal, the log ends
    # unfinished instead of illegal
    "procedure:mandatory_kong.after_knock=false": PLANTED[0],
    # the mandatory add_kong may not be robbed: B's win on it is refused (procedure.mandatory_kong); A, tried
    # first, makes no add_kong
    "procedure:mandatory_kong.robbable=false": PLANTED[1],
    # the winner does not deal: B's next dealer is dealer 0's next seat, 1, not the winner 2 (A is illegal: no
    # next dealer)
    "procedure:dealer.winner_deals=false": PLANTED[1],
}
# dragons are flowers under knocking's tiles; the scorer requires the knock's flag to win
UNBOUND_HERE = {"procedure:flower_exposure.dragons_too=false": "dragons_as_flowers",
                "procedure:knock.required_to_win=false": "win.requires_flags"}
UNSEEN_HERE = {"procedure:forgo_then_reclaim.blocks=chow+pung": "five of a tile",
               "procedure:claims.priority=pung_kong>win>chow": "a win ends the hand"}
SURVIVES = {
    "procedure:claims.chow_from=any",  # no chow event
    "procedure:claims.priority=win>chow>pung_kong",  # no seat that could chow the 7p A and B pung
    "procedure:multiple_winners=all_paid",  # no second win
    "procedure:forgo_then_reclaim.blocks=pung+kong",  # no claim of a forgone tile: A's and B's pung of 7p comes
    "procedure:forgo_then_reclaim.blocks=chow+kong",  # before seat 0 passed any discard
    "procedure:forgo_then_reclaim.blocks_win=false",  # the default reading, no case names the option
    "procedure:forgo_then_reclaim.blocks_win=true",  # B's robber drew after the last discard it could claim
    "procedure:forgo_then_reclaim=absent",  # no claim was blocked, no win refused by it
    "procedure:knock.locks_hand=false",  # A's knocked seat discards the tile it drew; no claim after a knock
    "procedure:knock.must_take_first_win=false",  # no knocked seat could win on a tile it let go
    "procedure:knock.checked_at=discard",  # every knock of A, B and C has a discard that leaves the hand ready
    "procedure:knock.missed_win=forfeit_hand",  # the default reading
    "procedure:knock.missed_win=not_allowed",  # no win missed
    "procedure:mandatory_kong.unless_self_draw_win=false",  # no self-drawn win; A's drawn 7p wins nothing
    "procedure:swap_calling.no_discard_of_claimed_tile=false",  # after the pung of 7p seat 0 discards 2s
    "procedure:swap_calling.no_discard_of_chow_other_end=false",  # no chow
    "procedure:swap_calling=absent",
    "procedure:flower_exposure.at_deal=false",  # no flower dealt: play starts with the dealer either way
    "procedure:wall_end.dead_wall_tiles=1",  # the wall's end is never near
    "procedure:dealer.on_draw=next_seat",  # no drawn hand
    "procedure:default:knock_missed_win=not_allowed",  # no win missed
    "procedure:default:forgo_blocks_win=true",  # as blocks_win=true
    "procedure:default:knock_lock_covers_kongs=true",  # no kong claimed from a discard; B's winner has no meld
    "procedure:forgo_then_reclaim.outranked_passes=false",  # the default reading
    "procedure:forgo_then_reclaim.outranked_passes=true",  # no seat could chow the 7p seat 0 pungs in A and B (seat
    "procedure:default:forgo_when_outranked=true",  # 2 holds no dots); no other discard is claimed
    "procedure:knock.concealed_kong=keeps_wait",  # the default reading
    "procedure:knock.concealed_kong=never",  # C's concealed kong is seat 0's, which has not knocked
    "procedure:default:knock_concealed_kong=never",
    "procedure:default:kong_after_claim=after_own_draw",  # seat 0 discards after its pung; B's added kong comes
                                                          # after seat 0's own draw
}


@pytest.fixture(scope="module")
def planted(tmp_path_factory) -> Path:
    return write_corpus(tmp_path_factory.mktemp("procedure-strength") / "weak.jsonl",
                        cases_of("shanghai-knocking", *PLANTED))


def test_planted_weak_corpus_kills_exactly_what_its_scenes_decide(planted):
    strength = corpus_strength([planted], budget=0)
    [rs] = strength.rulesets
    results = by_id(strength)
    assert set(results) == set(KILLED_BY) | set(UNBOUND_HERE) | set(UNSEEN_HERE) | SURVIVES  # every mutant, each once
    assert rs.procedure_catalogue == len(results) == 38 and rs.procedure_cases == 3 and not rs.procedure_left_out
    assert rs.cases == 0 and rs.catalogue == 0  # no score case: no scoring mutant judged
    for mutant, case_id in KILLED_BY.items():
        assert results[mutant].status == KILLED and results[mutant].killed_by.id == case_id, mutant
    for mutant, why in UNBOUND_HERE.items():
        assert results[mutant].status == UNBOUND and why in results[mutant].reason
    for mutant, why in UNSEEN_HERE.items():
        assert results[mutant].status == NOT_OBSERVABLE and why in results[mutant].reason
    for mutant in SURVIVES:  # budget 0: no survivor is searched
        assert (results[mutant].status, results[mutant].searched) == (NOT_SEPARATED, 0), mutant
    # 4 killed among the 38 - 2 unbound - 2 not observable = 34 a case could observe
    assert rs.total().kill_rate == pytest.approx(4 / 34)
    # nothing searched: no case is found that kills a survivor, but the measure is not whole (exit status 3)
    assert strength.status == 3 and strength.unsearched() == len(SURVIVES)
    page = markdown(strength)
    assert "### Not separated within the budget" in page and "### Procedure mutants no procedure case can observe" in page
    # killed 2, not separated 1 of 3 (columns: killed, with a killing case, not separated, proved equivalent, not
    # observable, unbound)
    assert "| procedure: mandatory kong | 3 | 2 | 0 | 1 | 0 | 0 | 0 | 67% |" in page


def test_a_score_corpus_and_a_procedure_corpus_share_one_report(planted, tmp_path):
    # the first case of corpus/shanghai-knocking.jsonl: a self-drawn hand worth 6, each opponent paying one
    # share of 6 ([+18, -6, -6, -6]); at two shares each opponent pays 12, so the scoring mutant is killed
    score = tmp_path / "score.jsonl"
    line = (ROOT / "corpus" / "shanghai-knocking.jsonl").read_text(encoding="utf-8").splitlines()[0]
    score.write_text(line + "\n", encoding="utf-8")
    only = {"procedure:dealer.winner_deals=false", "procedure:dealer.on_draw=next_seat",
            "share:self_draw/each_opponent=2"}
    strength = corpus_strength([score, planted], budget=0, only=only)
    [rs] = strength.rulesets
    results = by_id(strength)
    assert set(results) == only and rs.cases == 1 and rs.procedure_cases == 3
    assert results["share:self_draw/each_opponent=2"].killed_by.id == "shanghai-knocking-fan-da-tiao-che"
    assert results["procedure:dealer.winner_deals=false"].killed_by.id == PLANTED[1]  # (above)
    assert results["procedure:dealer.on_draw=next_seat"].status == NOT_SEPARATED  # budget 0: not searched
    data = strength.as_json()
    assert [(c["score_cases"], c["procedure_cases"]) for c in data["corpora"]] == [(1, 0), (0, 3)]
    families = [(f["family"], f["killed"]) for f in data["rulesets"][0]["families"]]
    assert families == [("settlement share", 1), ("procedure: dealer rotation", 1)]  # procedure rows last
    assert data["rulesets"][0]["totals"]["kill_rate"] == round(2 / 3, 4)


# ----------------------------------------------------------------------- the search for a killing hand

# Three survivors of the planted corpus, each decided by one of the search's hand-written scenes
# (checker/separating/scenes.py; seat 0 deals, seat 1 is A, seat 2 is B, seat 3 is C), worked from the
# knocking page's sentences and the table's rules:
# - forgo-then-reclaim without pung (s-000-014 "pass on a discard and you can't claim a later copy of that same
#   tile"): B holds 5p 5p and lets D's 5p go; A draws the next 5p and throws it; B pungs it before drawing. The
#   spec refuses the pung (event 3, procedure.forgo_then_reclaim); the mutant allows it and the log ends there:
#   unfinished.
# - the mandatory kong without its exception (s-000-021 "unless a self-draw win is sitting right there
#   instead"): A pungs D's 3m, knocks holding 1m 2m 4p5p6p 7p8p9p 5s5s and draws the fourth 3m, which completes
#   1m2m3m: the spec lets A win (legal, a self-drawn win of seat 1), the mutant makes the kong come first and
#   refuses the win (event 11, procedure.mandatory_kong).
# - the knock lock over kongs read by default (knock_lock_covers_kongs "false": "a kong claimed on a discard after
#   knocking is allowed"): A knocks holding 9s 9s 9s and claims C's 9s as a kong (event 8). The spec allows it
#   (the case is cut right after it: unfinished); the mutant refuses it (procedure.knock_locks_hand).
FOUND = {
    "procedure:forgo_then_reclaim.blocks=chow+kong": (
        "pung_of_a_tile_let_go", {"verdict": "illegal", "event": 3, "rule": "procedure.forgo_then_reclaim"},
        {"verdict": "unfinished"}),
    "procedure:mandatory_kong.unless_self_draw_win=false": (
        "fourth_tile_of_a_pung_wins", {"verdict": "legal", "ended": "win"},
        {"verdict": "illegal", "event": 11, "rule": "procedure.mandatory_kong"}),
    "procedure:default:knock_lock_covers_kongs=true": (
        "kong_claimed_after_knocking", {"verdict": "unfinished"},
        {"verdict": "illegal", "event": 8, "rule": "procedure.knock_locks_hand"}),
}


def test_the_search_finds_a_hand_of_play_that_kills_each_survivor_and_the_corpus_then_kills_it(planted, tmp_path):
    strength = corpus_strength([planted], budget=600, only=set(FOUND))
    results = by_id(strength)
    assert strength.status == 1  # a survivor a found case kills
    killing = []
    for mutant, (scene, spec, mutant_result) in FOUND.items():
        r = results[mutant]
        assert r.status == SEPARATED and r.found_as.startswith(f"the scene {scene} "), (mutant, r.status, r.found_as)
        case = r.killing_case
        assert case["kind"] == "procedure" and case["ruleset"] == "shanghai-knocking" and "options" in case
        assert {k: case["expect"].get(k) for k in spec} == spec, case["expect"]
        assert {k: r.mutant_result.get(k) for k in mutant_result} == mutant_result, r.mutant_result
        assert case["origin"] == "mjcheck corpus strength, seed 0" and mutant in case["note"]
        killing.append(case)
    winners = killing[1]["expect"]["winners"]
    assert [(w["seat"], w["win_by"]) for w in winners] == [(1, "self_draw")]
    page = markdown(strength)
    assert "### Survivors a case kills" in page and "found as the scene pung_of_a_tile_let_go" in page
    # the cases found, added to the corpus, kill what they were found for
    stronger = write_corpus(tmp_path / "stronger.jsonl", cases_of("shanghai-knocking", *PLANTED) + killing)
    again = by_id(corpus_strength([stronger], budget=0, only=set(FOUND)))
    assert {m: (r.status, r.killed_by.id) for m, r in again.items()} == \
        {m: (KILLED, c["id"]) for m, c in zip(FOUND, killing)}


def test_the_search_is_bounded_by_its_trials_and_says_so(planted):
    from checker.case import CaseRunner
    from checker.separating.search import Unseparated, separate
    from checker.corpus.procedure_strength import readings
    from checker.mutate.procedure import procedure_mutations

    rs = load_ruleset("shanghai-knocking")
    [m] = [m for m in procedure_mutations(rs, table_options(rs)) if m.id == "procedure:claims.chow_from=any"]
    cases = cases_of("shanghai-knocking", *PLANTED)
    # 5 candidates: the three corpus cases (no chow among them), and no option set to leave out; then two scenes
    # in which no seat but the next one chows: nothing tells a chow from any seat apart
    got = separate(rs, m, readings(rs, table_options(rs)), cases, seed=0, budget=5, runner=CaseRunner())
    assert isinstance(got, Unseparated) and got.tried == 5 and got.budget_reached


# ----------------------------------------------------------------------- the shipped procedure corpora

def test_shipped_procedure_corpora_on_a_small_sample_report_counts_that_add_up():
    strength = corpus_strength(PROCEDURE, seed=10, sample=6, budget=0)
    data = strength.as_json()
    assert [r["ruleset"] for r in data["rulesets"]] == list(RULESETS)
    ids = {json.loads(line)["id"] for p in PROCEDURE for line in p.read_text(encoding="utf-8").splitlines()}
    keys = [s.replace(" ", "_") for s in STATUSES]
    for rs in data["rulesets"]:
        totals = rs["totals"]
        assert totals["mutants"] == len(rs["mutants"]) == 6  # the sample, of a catalogue of 16, 44 or 30
        assert rs["procedure_catalogue"] == sum(CATALOGUE[rs["ruleset"]].values())
        assert sum(totals[k] for k in keys) == totals["mutants"]
        assert sum(f["mutants"] for f in rs["families"]) == totals["mutants"]
        for k in keys:
            assert sum(f[k] for f in rs["families"]) == totals[k]
        assert totals["separated"] == 0  # budget 0: no survivor searched
        assert rs["procedure_cases_used"] + len(rs["procedure_cases_left_out"]) == rs["procedure_cases"]
        assert not rs["procedure_cases_left_out"]  # the reference table passes every shipped case
        # the sample takes the families in turn: 6 mutants from 6 different families (each ruleset has 8 or more)
        assert len(rs["families"]) == 6
        for m in rs["mutants"]:
            assert m["status"] in STATUSES and m["id"].startswith("procedure:")
            if m["status"] == KILLED:
                assert m["killed_by"]["id"] in ids
            if m["status"] == UNBOUND:
                assert m["reason"]
            if m["status"] in (NOT_SEPARATED, NOT_OBSERVABLE):
                assert m["verdict"]
            if m["status"] == NOT_SEPARATED:
                assert m["searched"] == 0
        bound = totals["mutants"] - totals["unbound"] - totals["not_observable"]
        assert totals["kill_rate"] == (round(totals["killed"] / bound, 4) if bound else None)
        print(f"{rs['ruleset']}: killed {totals['killed']} of {totals['mutants']} sampled procedure mutants "
              f"(kill rate {totals['kill_rate']}), {totals['not_separated']} not searched, "
              f"{totals['not_observable']} not observable, {totals['unbound']} unbound")
    assert json.loads(json.dumps(data)) == data  # plain JSON
    assert strength.status == 0


def test_the_shipped_procedure_corpora_kill_every_mutant_a_case_can_observe():
    # the generator added a killing case for each survivor the search separated (corpus/README.md)
    strength = corpus_strength(PROCEDURE, budget=0)
    for rs in strength.as_json()["rulesets"]:
        totals = rs["totals"]
        assert totals["mutants"] == rs["procedure_catalogue"] == sum(CATALOGUE[rs["ruleset"]].values())
        assert totals["killed"] == totals["mutants"] - totals["unbound"] - totals["not_observable"], rs["ruleset"]
        assert totals["kill_rate"] == 1.0
        observed = {m["id"] for m in rs["mutants"] if m["status"] == NOT_OBSERVABLE}
        assert observed == UNOBSERVABLE[rs["ruleset"]]
    assert strength.status == 0


def test_the_same_seed_gives_the_same_report():
    first = corpus_strength(PROCEDURE, seed=4, sample=5, budget=0)
    second = corpus_strength(PROCEDURE, seed=4, sample=5, budget=0)
    assert json.dumps(first.as_json(), sort_keys=True) == json.dumps(second.as_json(), sort_keys=True)
    assert markdown(first) == markdown(second)
    other = corpus_strength(PROCEDURE, seed=5, sample=5, budget=0)
    assert [m["id"] for rs in other.as_json()["rulesets"] for m in rs["mutants"]] != \
        [m["id"] for rs in first.as_json()["rulesets"] for m in rs["mutants"]]


# ----------------------------------------------------------------------- the command

cli = CliRunner()


def test_cli_measures_a_procedure_corpus(planted):
    r = cli.invoke(app, ["corpus", "strength", str(planted), "--json", "--budget", "0"])
    data = json.loads(r.stdout)
    # budget 0: no survivor is searched, so no case is found that kills one; but the measure is not whole
    unsearched = [m for rs in data["rulesets"] for m in rs["mutants"] if m.get("cut_short")]
    assert r.exit_code == (3 if unsearched else 0), r.output
    assert data["rulesets"][0]["totals"]["killed"] == len(KILLED_BY)
    r = cli.invoke(app, ["corpus", "strength", str(planted), "--sample", "3", "--seed", "1", "--budget", "0"])
    assert r.exit_code in (0, 3) and r.output.startswith("# Corpus strength") and "| **all** | 3 |" in r.output
    assert (r.exit_code == 3) == ("**Not whole**" in r.output)


def test_cli_a_corpus_with_no_case_to_measure_exits_2(tmp_path):
    no_expect = {k: v for k, v in cases_of("mcr", "mcr-illegal-turn")[0].items() if k != "expect"}
    path = write_corpus(tmp_path / "no-expect.jsonl", [no_expect])
    r = cli.invoke(app, ["corpus", "strength", str(path)])
    assert r.exit_code == 2 and "no score or procedure case" in r.output and "Traceback" not in r.output


def test_the_generator_adds_a_case_for_each_survivor_and_those_cases_kill_them(tmp_path):
    from checker.corpus.procedure import generate_procedure

    corpus = generate_procedure("mcr", 3, hands=2)  # two bot hands: a weak corpus, before its killing cases
    killing = [c for c in corpus.cases if "-kills-" in c["id"]]
    assert killing and not corpus.survivors  # every survivor separated, a case added for it
    for case in killing:
        assert case["kind"] == "procedure" and case["note"].startswith("kills the mutant procedure:")
        assert case["origin"].startswith("generated, seed 3, by the procedure search: ")
    path = write_corpus(tmp_path / "mcr-procedure.jsonl", corpus.cases)
    [rs] = corpus_strength([path], budget=0).as_json()["rulesets"]
    assert rs["totals"]["kill_rate"] == 1.0
