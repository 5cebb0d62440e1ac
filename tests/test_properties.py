"""Property tests (Hypothesis) over random complete hands from checker.random_hands."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from checker.engine import Hand, HandError, Meld
from checker.engine.interpretation import HandFacts, interpretations
from checker.engine.shapes import SHAPES
from checker.random_hands import winning_hand
from checker.spec import load_ruleset as load_spec_ruleset

MCR_CONTEXT = load_spec_ruleset("mcr").table_context  # the MCR names of the facts random hands are given

SUIT_SPECIFIC = {"all_green", "reversible_tiles"}  # fans whose tiles name one suit


@st.composite
def complete_hands(draw):
    return winning_hand(lambda seq: draw(st.sampled_from(list(seq))), MCR_CONTEXT)


def permute_suits(hand: Hand, order: tuple[int, int, int]) -> Hand:
    """The same hand with suit s renamed order[s] (honours and flowers unchanged)."""
    def move(t: int) -> int:
        return 9 * order[t // 9] + t % 9 if t < 27 else t

    return Hand.build(concealed=tuple(move(t) for t in hand.concealed),
                      melds=[Meld(m.kind, move(m.tile), m.concealed, m.source) for m in hand.melds],
                      win_tile=move(hand.win_tile), win_by=hand.win_by, discarder=hand.discarder,
                      seat_wind=hand.seat_wind, round_wind=hand.round_wind, flowers=hand.flowers, flags=hand.flags)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(complete_hands(), st.permutations([0, 1, 2]))
def test_score_is_invariant_under_permuting_the_suits(mcr, hand, order):
    original = mcr.score(hand)
    permuted = mcr.score(permute_suits(hand, tuple(order)))
    if {f.id for f in original.fans + permuted.fans} & SUIT_SPECIFIC:
        return
    assert (permuted.valid, permuted.total, permuted.error) == (original.valid, original.total, original.error)
    assert sorted((f.id, f.count) for f in permuted.fans) == sorted((f.id, f.count) for f in original.fans)


@settings(max_examples=300, deadline=None)
@given(complete_hands())
def test_every_generated_hand_has_a_shape_and_a_non_negative_score(mcr, hand):
    s = mcr.score(hand)
    assert s.error != "win.shape"
    assert s.total >= s.qualifying >= 0
    if s.valid:
        assert sum(s.payments) == 0 and s.payments[0] > 0


@settings(max_examples=300, deadline=None)
@given(complete_hands())
def test_waiting_tiles_match_a_brute_force_search(mcr, hand):
    # Two independent ways to find the waits: each shape's `waits` against adding every tile and asking
    # each shape's `complete`.
    facts = HandFacts(hand, mcr.shapes)
    before = list(facts.closed_counts)
    before[hand.win_tile] -= 1
    brute = set()
    for t in range(34):
        if facts.counts[t] - (t == hand.win_tile) >= 4:
            continue
        before[t] += 1
        if any(SHAPES[name].complete(tuple(before), len(hand.melds), **params) for name, params in mcr.shapes):
            brute.add(t)
        before[t] -= 1
    assert set(facts.waiting_tiles) == brute
    assert hand.win_tile in brute


tile_ids = st.integers(min_value=0, max_value=33)
melds = st.lists(st.builds(lambda kind, t, c: (kind, t, c), st.sampled_from(["chow", "pung", "kong"]), tile_ids,
                           st.booleans()), max_size=4)


@settings(max_examples=500, deadline=None)
@given(st.lists(tile_ids, max_size=16), tile_ids, melds, st.sampled_from(["self_draw", "discard"]))
def test_every_accepted_hand_has_fourteen_tiles_plus_kongs_and_no_fifth_copy(mcr, concealed, win, raw_melds, win_by):
    try:
        built = [Meld(k, t, k == "kong" and c) for k, t, c in raw_melds if not (k == "chow" and (t >= 27 or t % 9 > 6))]
        hand = Hand.build(concealed=tuple(concealed), melds=built, win_tile=win, win_by=win_by,
                          discarder=None if win_by == "self_draw" else 1)
    except HandError:
        return
    s = mcr.score(hand)
    if not s.valid:
        return
    tiles = hand.all_tiles
    assert len(tiles) == 14 + hand.kong_count
    assert max(tiles.count(t) for t in set(tiles)) <= 4


@settings(max_examples=300, deadline=None)
@given(complete_hands(), st.data())
def test_a_tile_too_many_or_too_few_is_rejected_naming_the_rule(hand, data):
    concealed = list(hand.concealed)
    mutation = data.draw(st.sampled_from(["drop", "add", "fifth"]))
    if mutation == "drop":
        concealed.remove(data.draw(st.sampled_from(concealed)))
        rule = "tiles.hand_size"
    elif mutation == "add":
        concealed.append(data.draw(tile_ids))
        rule = "tiles.hand_size"
    else:
        counts = [hand.all_tiles.count(t) for t in range(34)]
        full = [t for t in range(34) if counts[t] == 4]
        if not full:
            return
        target = data.draw(st.sampled_from(full))
        others = [i for i, t in enumerate(concealed) if t != target]
        if not others:
            return
        concealed[others[0]] = target  # same size, one more copy of a tile already held four times
        rule = "tiles.four_copies"
    try:
        Hand.build(concealed=tuple(concealed), melds=hand.melds, win_tile=hand.win_tile, win_by=hand.win_by,
                   discarder=hand.discarder)
    except HandError as exc:
        assert exc.rule == rule
    else:
        raise AssertionError(f"accepted a hand after '{mutation}'")


def as_shanghai(hand: Hand, scorer, extra_flags=("knocked",)) -> Hand | None:
    """The same tiles as a Shanghai hand: knocked, chows claimed from upstream; None when the ruleset cannot
    hold it (a dragon among the tiles under knocking, where dragons are flowers)."""
    melds = [Meld(m.kind, m.tile, m.concealed, 3 if m.kind == "chow" else m.source) for m in hand.melds]
    try:
        return scorer.build_hand(concealed=hand.concealed, melds=melds, win_tile=hand.win_tile, win_by=hand.win_by,
                                 discarder=hand.discarder, flowers=hand.flowers, flags=extra_flags)
    except HandError:
        return None


@settings(max_examples=200, deadline=None)
@given(complete_hands(), st.sampled_from(["knocking", "classic"]))
def test_shanghai_payments_sum_to_zero_and_a_flower_never_changes_who_may_win(request, hand, which):
    scorer = request.getfixturevalue(which)
    built = as_shanghai(hand, scorer)
    if built is None:
        return
    s = scorer.score(built)
    if s.valid:
        assert sum(s.payments) == 0 and s.payments[0] > 0
    missing = [f for f in range(34, 42) if f not in built.flowers]
    if not missing:
        return
    more = scorer.build_hand(concealed=built.concealed, melds=built.melds, win_tile=built.win_tile,
                             win_by=built.win_by, discarder=built.discarder, flowers=built.flowers + (missing[0],),
                             flags=built.flags)
    t = scorer.score(more)
    assert (t.valid, t.error) == (s.valid, s.error)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(complete_hands(), st.sampled_from(["mcr", "knocking", "classic"]))
def test_predicate_gates_never_skip_a_fan_that_holds(request, hand, which):
    # The scorer evaluates only the predicates whose gates (shapes, set counts, wait, honours present) admit an
    # interpretation's structure. Every predicate that holds when asked directly must be among them.
    scorer = request.getfixturevalue(which)
    facts = HandFacts(hand, scorer.shapes)
    for x in interpretations(hand, facts):
        planned = {scorer.ids[p.rank] for p in scorer._plan(x.structure)}
        holding = {b.id for b in scorer.interp_patterns if b.decide(x)}
        assert holding <= planned, f"{x.describe()}: gated out {sorted(holding - planned)}"
        for b in scorer.interp_patterns:  # a tile mask a gate declares (read by the hunter's proofs) holds too
            within = getattr(b.decide, "within", None)
            if within is not None and b.id in holding:
                assert not facts.mask & ~within, f"{x.describe()}: {b.id} holds outside its declared tiles"
            cores = getattr(b.decide, "cores", None)  # the groups of sets declared to make it hold (equivalence proofs)
            if cores is not None and b.id in holding:
                sets = [("pung" if g.kind == "kong" else g.kind, g.tile) for i, g in enumerate(x.groups)
                        if i in x.chows or i in x.pungs]
                assert any(all(sets.count(s) >= core.count(s) for s in core) for core in cores()), \
                    f"{x.describe()}: {b.id} holds with none of its declared cores among the sets"


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(complete_hands(), st.sampled_from(["mcr", "knocking", "classic"]))
def test_hand_gates_never_skip_a_fan_that_holds(request, hand, which):
    # Hand-level predicates run only when their gates (tiles within a mask, a context flag, a way of winning)
    # admit the hand. Every one that holds when asked directly must be among those the scorer finds.
    scorer = request.getfixturevalue(which)
    facts = HandFacts(hand, scorer.shapes)
    found = {scorer.ids[i] for i in scorer.hand_fans(facts)}
    holding = {b.id for b in scorer.hand_patterns if b.decide is not None and b.decide(facts)}
    assert holding == found, f"gated out {sorted(holding - found)}"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 11_498_657), st.sampled_from(["mcr", "knocking", "classic"]))
def test_scoring_every_win_of_a_hand_at_once_is_scoring_each_alone(request, hand_id, which):
    # Scorer.score_wins (the sweep's batch: divisions found once for hands that differ only in the winning tile
    # and way) gives exactly what scoring each hand alone gives, hand by hand
    from checker.space.concealed import ConcealedSpace
    from checker.sweep.work import cases_of

    scorer = request.getfixturevalue(which)
    hands = list(cases_of(next(ConcealedSpace().hands(hand_id, hand_id + 1))))
    alone = [scorer.score(h) for h in hands]
    assert [s.as_expect() for s in scorer.score_wins(hands)] == [s.as_expect() for s in alone]
    assert scorer.fan_totals_of_wins(hands) == [_totals(s) for s in alone]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(complete_hands(), st.sampled_from(["mcr", "knocking", "classic"]))
def test_scoring_every_win_of_a_hand_with_melds_and_context_at_once_is_scoring_each_alone(request, hand, which):
    # The batch shares the answers of tiles_only predicates per hand and per division: hands with melds, winds,
    # flags and flowers, each closed tile as the winning tile both ways, score as they do alone
    import dataclasses

    scorer = request.getfixturevalue(which)
    closed = hand.closed_tiles
    hands, alone = [], []
    for win in sorted(set(closed)):
        rest = list(closed)
        rest.remove(win)
        for way, discarder in (("self_draw", None), ("discard", 1)):
            other = dataclasses.replace(hand, concealed=tuple(rest), win_tile=win, win_by=way, discarder=discarder)
            try:
                alone.append(scorer.score(other))
            except HandError:
                continue  # a context this way of winning may not have (the ruleset's hand checks)
            hands.append(other)
    assert [s.as_expect() for s in scorer.score_wins(hands)] == [s.as_expect() for s in alone]
    assert scorer.fan_totals_of_wins(hands) == [_totals(s) for s in alone]


def test_a_batch_of_hands_holding_different_tiles_is_refused(mcr):
    first = Hand((0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9), (), 8)
    other = Hand((0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 10, 10), (), 8)
    with pytest.raises(ValueError, match="same tiles"):
        mcr.score_wins([first, other])
    # another winning tile, the same thirteen others: one 1m more, one 9m fewer
    with pytest.raises(ValueError, match="same tiles"):
        mcr.score_wins([first, Hand((0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9), (), 0)])
    # the same fourteen tiles with another winning tile is a batch
    assert len(mcr.score_wins([first, Hand((0, 0, 1, 2, 3, 4, 5, 6, 7, 9, 9, 9, 8), (), 8),
                               Hand((0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 9, 9, 9), (), 0)])) == 3


def test_a_batch_of_hands_holding_the_same_tiles_in_other_melds_is_refused(mcr):
    # 111m as a pung, then concealed: the same tile counts, other hands
    melded = Hand((1, 2, 3, 4, 5, 6, 7, 8, 9, 9), (Meld("pung", 0, source=2),), 8, "discard", 1)
    concealed = Hand((0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 9, 9, 9), (), 8, "discard", 1)
    with pytest.raises(ValueError, match="same tiles and melds"):
        mcr.score_wins([melded, concealed])


def test_a_batch_checks_its_melds_as_each_hand_alone_would(mcr):
    # MCR's procedure.chow_from_previous: a chow claimed from the player across is bad input, in a batch as alone
    chow = (Meld("chow", 0, source=2),)
    hands = [Hand((3, 4, 5, 6, 7, 8, 9, 9, 9, 18), chow, 18, way, discarder)
             for way, discarder in (("self_draw", None), ("discard", 1))]
    for hand in hands:
        with pytest.raises(HandError, match="seat 2"):
            mcr.score(hand)
    with pytest.raises(HandError, match="seat 2"):
        mcr.score_wins(hands)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(complete_hands(), complete_hands())
def test_checks_declared_melds_only_read_nothing_but_the_melds(hand, other):
    # A batch runs the checks registered melds_only once (Scorer.score_wins): each must answer the same for two
    # hands that differ in everything but their melds (here, the melds of one hand put on the other)
    import dataclasses

    from checker.engine.checks import CHECKS, MELDS_ONLY
    assert MELDS_ONLY == {"chow_from", "no_claims_after_knock"}
    melds = tuple(dataclasses.replace(m, after_knock=i % 2 == 0) for i, m in enumerate(hand.melds))
    hand = dataclasses.replace(hand, melds=melds)
    moved = dataclasses.replace(other, melds=melds)
    for name in MELDS_ONLY:
        fn = CHECKS[name][0]
        for params in ({}, {"seat": 1}, {"seat": 2}) if name == "chow_from" else ({}, {"kinds": ["pung", "kong"]}):
            assert fn(hand, **params) == fn(moved, **params), (name, params)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(complete_hands(), st.sampled_from(["mcr", "knocking", "classic"]))
def test_always_predicates_hold_for_every_winning_hand(request, hand, which):
    # A predicate registered `always` (corpus strength proves a minimum it meets changes nothing) holds for any
    # complete hand, whatever its tiles, melds and way of winning
    from checker.engine.predicates import PREDICATES
    scorer = request.getfixturevalue(which)
    facts = HandFacts(hand, scorer.shapes)
    for b in scorer.hand_patterns:
        if PREDICATES[b.pattern.when.name].always:
            assert b.decide(facts), b.id
    for x in interpretations(hand, facts):
        for b in scorer.interp_patterns:
            if PREDICATES[b.pattern.when.name].always:
                assert b.decide(x), (b.id, x.describe())


def _totals(s) -> tuple:
    """A Score as Scorer.fan_totals_of_wins gives it: may win, refusing rule, points by fan id, and the same for
    each other reading worth as much."""
    return (s.valid, s.error if not s.valid else None, {f.id: f.total for f in s.fans},
            tuple({f.id: f.total for f in other} for other in s.alternatives))


def _division(x) -> tuple:
    return tuple(sorted((g.kind, g.tile) for g in x.groups))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(complete_hands(), st.sampled_from(["mcr", "knocking", "classic"]), st.sampled_from(["E", "S", "W", "N"]))
def test_tiles_only_predicates_read_nothing_but_the_tiles_and_their_division(request, hand, which, wind):
    # A predicate registered tiles_only (the hunter's exhaustive proofs read it once per concealed hand) gives
    # the same answer for the same tiles in the same division, whatever the melds, the winning tile, the way
    # of winning, the winds, flags and flowers: the hand below is the same tiles, all concealed, self-drawn on
    # another tile.
    from checker.engine.predicates import PREDICATES
    if any(m.kind == "kong" for m in hand.melds):
        return  # four copies concealed are not a set: kongs stay out of the concealed space
    scorer = request.getfixturevalue(which)
    tiles = sorted(hand.all_tiles)
    win = tiles[0] if tiles[0] != hand.win_tile else tiles[-1]
    rest = list(tiles)
    rest.remove(win)
    other = Hand(tuple(rest), (), win, "self_draw", None, 27 + "ESWN".index(wind), 27)
    tiles_only = {b.id for b in scorer.patterns if PREDICATES[b.pattern.when.name].tiles_only}

    def holding(h):
        facts = HandFacts(h, scorer.shapes)
        whole = {b.id for b in scorer.hand_patterns if b.id in tiles_only and b.decide(facts)}
        return whole, [(x, {b.id for b in scorer.interp_patterns if b.id in tiles_only and b.decide(x)})
                       for x in interpretations(h, facts)]

    whole, readings = holding(hand)
    other_whole, other_readings = holding(other)
    assert whole == other_whole
    by_division: dict = {}
    for x, found in other_readings:
        by_division.setdefault(_division(x), []).append(found)
    for x, found in readings:
        assert _division(x) in by_division, f"{x.describe()}: the concealed tiles lack this division"
        for same in by_division[_division(x)]:
            assert found == same, f"{x.describe()}: {sorted(found ^ same)} read more than the tiles"


@settings(max_examples=300, deadline=None)
@given(complete_hands(), st.booleans())
def test_the_one_wait_test_agrees_with_the_full_list_of_waits(mcr, hand, held_four):
    # waits_on_one_tile stops at the second wait it finds; it must agree with the full lists of waits.
    full = HandFacts(hand, mcr.shapes)
    waits = full.completing_tiles if held_four else full.waiting_tiles
    assert HandFacts(hand, mcr.shapes).waits_on_one_tile(held_four) == (len(waits) == 1)


def _divisions_by_search(counts: list[int], sets_wanted: int) -> set[tuple]:
    """Every division of `counts` into `sets_wanted` chows / pungs and one pair, found by a plain recursive
    search over the lowest remaining tile; each division as a sorted tuple of (kind, tile)."""
    out: set[tuple] = set()

    def walk(c: list[int], groups: list, pairs: int) -> None:
        t = next((i for i in range(34) if c[i]), None)
        if t is None:
            if pairs == 1 and len(groups) == sets_wanted + 1:
                out.add(tuple(sorted(groups)))
            return
        if c[t] >= 3:
            c[t] -= 3
            walk(c, groups + [("pung", t)], pairs)
            c[t] += 3
        if c[t] >= 2 and not pairs:
            c[t] -= 2
            walk(c, groups + [("pair", t)], 1)
            c[t] += 2
        if t < 27 and t % 9 <= 6 and c[t + 1] and c[t + 2]:
            for k in range(3):
                c[t + k] -= 1
            walk(c, groups + [("chow", t)], pairs)
            for k in range(3):
                c[t + k] += 1

    walk(list(counts), [], 0)
    return out


# tile counts of any shape, not only complete ones: few tile types so that divisions are common
few_types_counts = st.integers(min_value=0, max_value=3).flatmap(
    lambda n_melds: st.tuples(st.just(n_melds), st.lists(st.sampled_from([0, 1, 2, 3, 4, 5, 6, 13, 14, 27, 31]),
                                                         min_size=14 - 3 * n_melds, max_size=14 - 3 * n_melds)))


def _counts_of(tiles: list[int]) -> tuple[int, ...] | None:
    counts = [0] * 34
    for t in tiles:
        counts[t] += 1
    return tuple(counts) if max(counts) <= 4 else None


@settings(max_examples=500, deadline=None)
@given(few_types_counts)
def test_regular_divisions_match_a_plain_search(melds_and_tiles):
    # regular_divisions builds divisions from per-suit divisions looked up by count pattern; a plain search
    # over the whole hand must find exactly the same ones, the pair last.
    from checker.engine.shapes import regular_divisions

    n_melds, tiles = melds_and_tiles
    counts = _counts_of(tiles)
    if counts is None:
        return
    found = regular_divisions(counts, n_melds)
    assert all(d[-1].kind == "pair" for d in found)
    assert {tuple(sorted((g.kind, g.tile) for g in d)) for d in found} == _divisions_by_search(list(counts), 4 - n_melds)
    assert len(found) == len(set(found))


@settings(max_examples=500, deadline=None)
@given(few_types_counts)
def test_regular_waits_match_adding_every_tile(melds_and_tiles):
    # regular_waits reads each suit's standing and growth ranks from a record per count pattern; adding each
    # tile type in turn and running the plain search must give the same waits, for any 13 - 3n tiles. Waits
    # are by shape alone: a fifth copy counts here (HandFacts.waiting_tiles drops it later).
    from checker.engine.shapes import regular_waits

    n_melds, tiles = melds_and_tiles
    counts = _counts_of(tiles[1:])
    if counts is None:
        return
    brute = set()
    for t in range(34):
        grown = list(counts)
        grown[t] += 1
        if _divisions_by_search(grown, 4 - n_melds):
            brute.add(t)
    assert regular_waits(counts, n_melds) == brute


@given(st.lists(st.integers(min_value=0, max_value=4), min_size=34, max_size=34))
def test_count_tally_counts_each_multiplicity_and_the_tiles(counts):
    from checker.engine.shapes import count_tally

    assert count_tally(tuple(counts)) == tuple(counts.count(n) for n in range(5)) + (sum(counts),)


@given(st.lists(st.integers(min_value=0, max_value=7), min_size=9, max_size=9),
       st.lists(st.integers(min_value=0, max_value=7), min_size=9, max_size=9))
def test_pattern_keys_differ_for_different_patterns(a, b):
    # The per-suit tables are keyed by pattern_key: two different patterns must never share a key.
    from checker.engine.shapes import pattern_key

    assert (pattern_key(tuple(a), 0, 9) == pattern_key(tuple(b), 0, 9)) == (a == b)
