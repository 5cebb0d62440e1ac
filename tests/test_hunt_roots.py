"""Root issues (checker.hunt.roots): findings merged by cause, said to be the document's own or imported, and
ranked by stakes counted with a stated method."""
from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

from checker.case import CaseRunner
from checker.engine import load_ruleset
from checker.hunt.page import page
from checker.hunt.roots import root_key, roots
from checker.hunt.stakes import change, counted_space, space_sample
from checker.spec import SpecError, load_ruleset_file, spec_dir

RUNNER = CaseRunner()


def _finding(fid, kind, key, option=None, witness_options=None, outcomes=()):
    return {"id": fid, "kind": kind, "key": key, "title": f"finding {fid}", "deciding_option": option,
            "witness": {"options": witness_options or {}}, "outcomes": list(outcomes), "rules": [],
            "statements": [], "method": "hypothesis", "note": ""}


def _paid(*payments, valid=True):
    return {"result": {"valid": valid, "payments": list(payments)}}


def test_every_finding_a_reading_decides_joins_that_reading():
    """feng_tiles=winds: the option's ambiguity, the document's 8-勒 example it breaks, and the pattern it
    leaves dead are one issue; a decision and a cross-variant pair stand alone, by the other ruleset."""
    found = [_finding("c-1", "ambiguity", "option.feng_tiles=winds", "feng_tiles"),
             _finding("c-2", "contradiction", "contradiction.example.x.feng_tiles=winds", "feng_tiles"),
             _finding("c-3", "dead-rule", "dead-rule.pattern.feng_peng.feng_tiles=winds", "feng_tiles"),
             _finding("c-4", "decided", "decided.classic-kaibao-dice"),
             _finding("c-5", "cross-variant", "cross-variant.shanghai-knocking"),
             _finding("c-6", "cross-variant", "cross-variant.shanghai-knocking.forgone_then_won")]
    assert {root_key(f) for f in found} == {"option.feng_tiles", "decided.classic-kaibao-dice",
                                            "cross-variant.shanghai-knocking"}
    ranked = roots(RUNNER, load_ruleset("shanghai-classic"), found, [])
    by_key = {r.key: r for r in ranked}
    assert by_key["option.feng_tiles"].findings == ["c-1", "c-2", "c-3"]
    assert by_key["cross-variant.shanghai-knocking"].findings == ["c-5", "c-6"]
    assert [r.provenance for r in ranked] == ["document", "document", "between documents"]


def test_an_editor_reads_the_documents_contradictions_first_and_dead_exclusions_last():
    """Within the document's own problems: its contradiction with itself (the example against the limit) before a
    reading with more money on its witness, and an exclusion that can never apply after both, though it names no
    money either; the money orders the rest."""
    found = [_finding("d-1", "dead-rule", "dead-rule.excludes.pure_triple_chow.pure_shifted_pungs"),
             _finding("d-2", "ambiguity", "option.x=1", None, {}, [_paid(90, -90, 0, 0), _paid(0, 0, 0, 0)]),
             _finding("d-3", "contradiction", "contradiction.example.y", None, {},
                      [_paid(20, -20, 0, 0), _paid(10, -10, 0, 0)]),
             _finding("d-4", "dead-rule", "dead-rule.pattern.z.w=1", None, {}, [])]
    ranked = roots(RUNNER, load_ruleset("mcr"), found, [])
    assert [r.key for r in ranked] == ["contradiction.example.y", "option.x=1", "dead-rule.pattern.z.w=1",
                                       "dead-rule.excludes.pure_triple_chow.pure_shifted_pungs"]


def test_a_refused_log_is_not_priced_against_the_same_log_played_out():
    # one reading plays the log out (the winner paid 24 by each), the other refuses it at an event: what the
    # refused hand would have paid is not known, so the pair moves 0; two played-out logs are priced as ever
    played = {"verdict": "legal", "payments": [72, -24, -24, -24]}
    refused = {"verdict": "illegal", "rule": "procedure.lou_hu", "event": 9}
    assert change(played, refused) == change(refused, played) == 0
    assert change(played, {"verdict": "legal", "payments": [36, -12, -12, -12]}) == 36
    # a hand that may not win still pays nothing against one that may (a score case, not a refused log)
    assert change({"valid": True, "payments": [24, -8, -8, -8]}, {"valid": False}) == 24


def test_a_reading_the_spec_marks_as_imported_is_ranked_after_the_documents_own_problems():
    """MCR: tile_hog_honors=true is marked imported (the guide says honors do not count as Tile Hog here);
    chicken_hand_scores=false is the guide's own table against its own FAQ. Even with more money at stake the
    imported reading comes second."""
    found = [_finding("m-1", "ambiguity", "option.tile_hog_honors=true", "tile_hog_honors",
                      {"tile_hog_honors": True}, [_paid(100, -100, 0, 0), _paid(0, 0, 0, 0)]),
             _finding("m-2", "ambiguity", "option.chicken_hand_scores=false", "chicken_hand_scores",
                      {"chicken_hand_scores": False}, [_paid(32, -16, -8, -8), _paid(0, 0, 0, 0, valid=False)])]
    ranked = roots(RUNNER, load_ruleset("mcr"), found, [])
    assert [(r.key, r.provenance) for r in ranked] == [("option.chicken_hand_scores", "document"),
                                                       ("option.tile_hog_honors", "imported")]
    assert "Tile Hog" in ranked[1].source
    assert ranked[0].money == 32 and ranked[1].money == 100  # a hand that may not win pays nothing


def test_stakes_are_counted_over_the_known_hands_and_say_so():
    """discard_others_pay=1 (Shanghai: Knocking) makes the two other players pay a discard win too: every
    known hand won on a discard changes, and the largest change is what one other player now pays."""
    rs = load_ruleset("shanghai-knocking")
    hand = {"concealed": "1m2m3m4m5m6m7m8m9m2p3p4p5s", "win_tile": "5s", "win_by": "discard", "discarder": 1,
            "seat_wind": "E", "round_wind": "E", "flowers": "1f", "flags": {"knocked": True}}
    drawn = {**hand, "win_by": "self_draw", "discarder": None}
    found = [_finding("k-1", "ambiguity", "option.discard_others_pay=1", "discard_others_pay")]
    (root,) = roots(RUNNER, rs, found, [hand, drawn])
    assert (root.touched, root.of) == (1, 2)  # the self-drawn hand is paid alike under both readings
    assert root.moved > 0 and "counted over the 2 known legal hands" in root.method


def test_stakes_over_an_even_sample_of_the_exhaustive_spaces():
    """Knocking: the sample strides the concealed space and the one-claimed-set space (no dragons: they are
    flowers there), every hand with its every winning tile, self-drawn and on a discard, and the knock every win
    needs; the hands take in turn no context, each counter at 1-3, each other flag alone. discard_others_pay=1
    changes what a discard win pays (the other two players pay as well) and nothing of a self-drawn one, so
    exactly the discard wins that may win are touched."""
    from checker import tiles as T
    from checker.hunt.stakes import contexts

    rs = load_ruleset("shanghai-knocking")
    sample = space_sample(rs, hands=20)
    wins = [h for hands in sample for h in hands]
    assert 40 <= len(sample) <= 42 and any(h.melds for h in wins) and any(not h.melds for h in wins)
    assert all("knocked" in h.flags for h in wins)
    cycle = contexts(rs)
    assert cycle[0] == (frozenset(), ()) and len(cycle) == 1 + len([f for f in rs.flags if f != "knocked"]) + \
        sum(min(3, c.max) - max(1, c.min) + 1 for c in rs.counters.values())
    # each hand takes the cycle's next context, or none where its hand checks refuse it (a replacement-draw flag
    # on a hand without a kong)
    assert all(hands[0].flags - {"knocked"} in (flags, frozenset()) for hands, (flags, _) in zip(sample, cycle))
    assert any(h.flags != frozenset({"knocked"}) for h in wins) or any(h.counters for h in wins)
    assert not any(t in T.DRAGONS for h in wins for t in (*h.concealed, h.win_tile))
    count = counted_space(RUNNER, rs, "discard_others_pay", sample)
    scorer = RUNNER.scorer(rs.id, {})

    def wins_here(h):
        try:
            return scorer.score(h).valid
        except ValueError:
            return False

    fed = sum(1 for h in wins if h.win_by == "discard" and wins_here(h))
    assert count.of == len(wins) and count.touched == fed > 0 and count.moved > 0
    found = [_finding("k-1", "ambiguity", "option.discard_others_pay=1", "discard_others_pay")]
    (root,) = roots(RUNNER, rs, found, [], sample)
    assert (root.space_touched, root.space_of, root.touched) == (fed, len(wins), None)
    assert "even sample of 41 hands" in root.method or "even sample of 42 hands" in root.method


def test_the_sample_prices_a_reading_of_the_huangfan_count():
    """Classic's huangfan_stacking: per_count doubles a hand once per 荒番 (荒番 3: x 8), once doubles it once
    whatever the count. The sample's hands at 荒番 2 and 3 that may win are worth otherwise under the two readings
    (at 荒番 1 they agree), so the option moves money over the sample, where a sample without counters saw
    nothing."""
    rs = load_ruleset("shanghai-classic")
    sample = space_sample(rs, hands=60)
    counted = {dict(h.counters).get("huangfan") for hands in sample for h in hands}
    assert {None, 1, 2, 3} <= counted
    count = counted_space(RUNNER, rs, "huangfan_stacking", sample)
    assert count.touched > 0 and count.moved > 0


def test_two_winners_of_one_discard_are_paid_by_the_discarder_at_absolute_seats():
    """一炮多响 in the stakes sample: the discarder sits at seat 0. Winner A's discarder is its next seat (1), so A
    sits at seat 3 and its payments [+10, -10, 0, 0] go to seats 3, 0, 1, 2; winner B's discarder is its previous
    seat (3), so B sits at seat 1 and [+20, 0, 0, -20] go to seats 1, 2, 3, 0. Together: seat 0 pays 30, seat 1
    gets 20, seat 3 gets 10."""
    from checker.engine.hand import Hand
    from checker.hunt.stakes import _one_discard, two_winners

    def hand(discarder):
        return Hand((), (), 0, "discard", discarder)

    a, b = hand(1), hand(3)
    assert _one_discard(a, {"valid": True, "payments": [10, -10, 0, 0]},
                        b, {"valid": True, "payments": [20, 0, 0, -20]})["payments"] == [-30, 20, 0, 10]
    # a hand that may not win pays nothing
    assert _one_discard(a, {"valid": False}, b, {"valid": True, "payments": [20, 0, 0, -20]})["payments"] == \
        [-20, 20, 0, 0]
    # the wins two by two, the second won from the other side of its winner (after <-> before; across: after);
    # the fifth alone
    hands = [hand(1), hand(1), hand(2), hand(2), hand(3)]
    assert [(i, h.discarder) for i, h in two_winners(range(5), hands)] == [(0, 3), (2, 1)]


def test_the_sample_counts_two_winners_of_one_discard_where_the_ruleset_pays_both():
    """Classic pays every winner of one discard (multiple_winners: all_paid): the pairs of its sample's discard
    wins are cases of their own; knocking has one winner a discard: its cases are its wins alone."""
    from checker.hunt.stakes import two_winners

    for ruleset_id, several in (("shanghai-classic", True), ("shanghai-knocking", False)):
        rs = load_ruleset(ruleset_id)
        sample = space_sample(rs, hands=20)
        wins = [h for hands in sample for h in hands]
        on_discard = [h for h in wins if h.win_by == "discard"]
        pairs = two_winners(on_discard, on_discard) if several else []
        option = next(iter(rs.scoring_options()))
        assert counted_space(RUNNER, rs, option, sample).of == len(wins) + len(pairs)
        assert bool(pairs) == several


def test_roots_rank_by_money_over_the_sampled_space_before_the_known_hands():
    """Two of classic's scoring options: win_hands=any_standard lets most regular hands of the space win
    (classic's own winning hands are flushes and all-pungs), menqing_doubles=2 changes only the concealed
    winners among them; counted over no known hands, the space decides the order."""
    rs = load_ruleset("shanghai-classic")
    found = [_finding("c-1", "ambiguity", "option.menqing_doubles=2", "menqing_doubles"),
             _finding("c-2", "ambiguity", "option.win_hands=any_standard", "win_hands")]
    ranked = roots(RUNNER, rs, found, [], space_sample(rs, hands=20))
    assert [r.key for r in ranked] == ["option.win_hands", "option.menqing_doubles"]
    assert ranked[0].space_moved > ranked[1].space_moved


def test_the_largest_change_of_one_seat():
    assert change({"valid": True, "payments": [30, -10, -10, -10]}, {"valid": True, "payments": [10, -10, 0, 0]}) == 20
    assert change({"valid": False}, {"valid": True, "payments": [48, -16, -16, -16]}) == 48
    assert change({"verdict": "illegal"}, {"verdict": "illegal"}) == 0


def test_the_page_opens_with_the_root_issues_and_orders_findings_by_them():
    rs = load_ruleset("mcr")
    found = [_finding("mcr-0002", "ambiguity", "option.tile_hog_honors=true", "tile_hog_honors", {"tile_hog_honors": True}),
             _finding("mcr-0001", "ambiguity", "option.chicken_hand_scores=false", "chicken_hand_scores",
                      {"chicken_hand_scores": False})]
    for f in found:
        f["witness"] = {"ruleset": "mcr", "options": f["witness"]["options"], "kind": "score",
                        "input": {"concealed": "1m2m3m4m5m6m7m8m9m2p3p4p5s", "win_tile": "5s", "win_by": "self_draw",
                                  "seat_wind": "E", "round_wind": "E"}}
    body = {"counts": {"ambiguity": 2}, "findings": found,
            "roots": [r.as_dict() for r in roots(RUNNER, rs, found, [])]}
    text = page(rs.id, rs.title, body)
    assert "## Root issues, by stakes" in text
    table = text[text.index("## Root issues"):text.index("## mcr-")]
    assert table.index("chicken_hand_scores") < table.index("tile_hog_honors")
    assert "a reading the spec brings in from elsewhere" in table
    assert text.index("## mcr-0001") < text.index("## mcr-0002")


def test_an_imported_value_must_be_another_reading(tmp_path):
    data = yaml.safe_load((spec_dir() / "mcr.yaml").read_text(encoding="utf-8"))
    bad = copy.deepcopy(data)
    bad["options"]["tile_hog_honors"]["imported"]["values"] = [False]  # the default
    path = tmp_path / "mcr.yaml"
    path.write_text(yaml.safe_dump(bad, allow_unicode=True), encoding="utf-8")
    with pytest.raises(SpecError, match="imported/values/0"):
        load_ruleset_file(path)
    assert load_ruleset("mcr").options["tile_hog_honors"].imported == (True,)


def test_a_findings_file_with_damaged_roots_is_named_when_its_pages_are_remade(tmp_path):
    # python -m checker.hunt.page reads the findings (checked) and the run's proofs and roots, which it only
    # shows: a root missing its title ends in one error naming the file, and no page is written
    import json

    from checker.hunt.page import main

    root = Path(__file__).resolve().parents[1]  # the checkout's reports (the installed package has none)
    body = json.loads((root / "reports" / "findings" / "findings-shanghai-knocking.json").read_text())
    del body["roots"][0]["title"]
    path = tmp_path / "findings-shanghai-knocking.json"
    path.write_text(json.dumps(body, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(SystemExit, match="findings-shanghai-knocking.json: its proofs, roots or counts cannot be shown"):
        main([str(path)])
    assert not path.with_suffix(".md").exists()
