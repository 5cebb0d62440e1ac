"""The exhaustive space of concealed complete regular hands (checker.space.concealed): its size, that it holds
each complete hand once and nothing else (against a plain search through every count vector of a few tiles,
decided by the engine's own completeness test), stable ids and shards, and the narrowings the hunter uses."""
from __future__ import annotations

from itertools import product

import pytest

from checker.engine.shapes import regular_complete, regular_divisions
from checker.space.concealed import ALL_TILES, ConcealedSpace


def test_one_set_and_a_pair_are_counted_as_the_concealed_space_counts_them():
    # The open space counts the completions of three and four melds directly; the concealed space builds them.
    import random

    from checker.space.open import completions

    rng = random.Random(7)
    for sets in (0, 1):
        for _ in range(200):
            caps = [rng.choice([0, 1, 2, 3, 4, 4, 4]) for _ in range(34)]
            tiles = rng.getrandbits(34) if rng.random() < 0.5 else ALL_TILES
            assert completions(sets, caps, tiles) == ConcealedSpace(tiles=tiles, sets=sets, caps=caps).size
    # 1m-3m only, one copy of 2m left: the pairs 1m1m, 3m3m, and the pungs 1m1m1m, 3m3m3m each with the other pair
    caps = [4, 1, 4] + [0] * 31
    assert completions(0, caps, _mask([0, 1, 2])) == 2
    assert completions(1, caps, _mask([0, 1, 2])) == 2 + 2  # chow 123m + 11m or 33m; 111m + 33m; 333m + 11m


def _mask(tiles) -> int:
    return sum(1 << t for t in tiles)


def _every_complete(tiles: list[int]) -> set[tuple[int, ...]]:
    """A plain search: every vector of 0-4 copies of `tiles` with 14 tiles that the engine calls complete."""
    out = set()
    for counts in product(range(5), repeat=len(tiles)):
        if sum(counts) != 14:
            continue
        full = [0] * 34
        for t, n in zip(tiles, counts):
            full[t] = n
        if regular_complete(tuple(full), 0):
            out.add(tuple(full))
    return out


def test_the_whole_space_holds_the_known_number_of_hands():
    # 11,498,658: the number of distinct 14-tile hands of four sets and a pair (no kongs), as the issue states
    assert ConcealedSpace().size == 11_498_658


@pytest.mark.parametrize("tiles", [
    list(range(9)),  # one suit: every full-flush shape
    [0, 1, 2, 3, 4, 27, 28, 31],  # part of a suit with winds and a dragon
    [0, 1, 2, 9, 10, 11, 18, 20, 33],  # three suits and one honour
])
def test_a_narrowed_space_is_exactly_the_complete_hands_of_its_tiles(tiles):
    space = ConcealedSpace(tiles=_mask(tiles))
    hands = list(space.hands())
    assert len(hands) == len(set(hands)) == space.size  # each hand once
    assert set(hands) == _every_complete(tiles)


def test_a_full_flush_space_has_13259_hands():
    # the number of complete 14-tile hands of one suit (a figure the plain search above reproduces)
    assert ConcealedSpace(tiles=_mask(range(9))).size == 13_259


def test_ids_are_stable_and_shards_cover_the_space():
    space = ConcealedSpace(tiles=_mask(list(range(9)) + [27, 28, 31, 32]))
    every = list(space.hands())
    assert list(space.hands(100, 250)) == every[100:250]
    shards = space.shards(997)
    assert shards[0][0] == 0 and shards[-1][1] == space.size
    assert [h for a, b in shards for h in space.hands(a, b)] == every


def test_the_chow_narrowing_keeps_the_hands_with_a_division_of_that_many_chows():
    tiles = [0, 1, 2, 3, 4, 5, 27]
    everything = list(ConcealedSpace(tiles=_mask(tiles)).hands())
    for chows in ({0}, {2}, {3, 4}):
        space = ConcealedSpace(tiles=_mask(tiles), chows=chows)
        narrowed = set(space.hands())
        assert space.size == len(narrowed)
        expected = {h for h in everything
                    if any(sum(g.kind == "chow" for g in d) in chows for d in regular_divisions(h, 0))}
        assert narrowed == expected and expected


def test_no_division_of_four_sets_has_three_chows_and_three_pungs():
    # what the hunter's structural proofs rest on: chows + pungs = 4 in every division
    assert ConcealedSpace(chows=set()).size == 0


# ------------------------------------------------------------------------------------------ special shapes
from checker.engine.shapes import (honors_and_knitted_divisions, knitted_straight_complete,  # noqa: E402
                                   seven_pairs_divisions, thirteen_orphans_divisions)
from checker.space.special import (HonorsAndKnittedSpace, KnittedStraightSpace, SevenPairsSpace,  # noqa: E402
                                   ThirteenOrphansSpace)


def test_seven_pairs_within_a_mask_are_every_vector_of_pairs_and_fours():
    tiles = [0, 1, 2, 3, 9, 10, 27, 31, 32]
    space = SevenPairsSpace(_mask(tiles))
    hands = list(space.hands())
    expected = set()
    for counts in product((0, 2, 4), repeat=len(tiles)):
        if sum(counts) == 14:
            full = [0] * 34
            for t, n in zip(tiles, counts):
                full[t] = n
            expected.add(tuple(full))
    assert len(hands) == len(set(hands)) == space.size and set(hands) == expected
    assert all(seven_pairs_divisions(h, 0) for h in hands)


def test_the_special_shapes_number_their_hands_so_any_shard_is_a_slice_of_the_whole():
    # A shard of the seven pairs space skips the hands before it by counting them; the special space numbers
    # seven pairs, thirteen orphans, honors-and-knitted and knitted straight in that order, each once.
    from checker.space.special import SpecialSpace

    pairs = SevenPairsSpace(_mask([0, 1, 2, 3, 9, 10, 27, 31, 32]))
    whole = list(pairs.hands())
    for start in (0, 1, 5, 17, len(whole) - 3):
        for stop in (start + 1, start + 40, len(whole) + 9):
            assert list(pairs.hands(start, stop)) == whole[start:stop], (start, stop)
    # 147m 258p 369s, the other terminals and the honours: every special shape has hands here
    tiles = _mask([0, 3, 6, 10, 13, 16, 20, 23, 26, 8, 9, 17, 18] + list(range(27, 34)))
    special = SpecialSpace(tiles)
    parts = [list(part.hands()) for part in special.parts]
    whole = [h for part in parts for h in part]
    assert special.size == len(whole) == len(set(whole)) and all(parts)
    for start in [0, 1, special.size - 1] + [special.starts[i] + d for i in (1, 2, 3) for d in (-2, 0, 5)]:
        assert list(special.hands(start, start + 131)) == whole[start:start + 131], start
    assert SpecialSpace().size == 16_417_104 + 13 + 720 + 11_016


def test_seven_pairs_size_counts_pairs_and_fours():
    # seven of 34 types, or a type twice: the coefficient of x^7 in (1 + x + x^2)^34
    assert SevenPairsSpace().size == 16_417_104


def test_thirteen_orphans_honors_and_knitted_and_knitted_straight_hands_are_complete():
    orphans = list(ThirteenOrphansSpace().hands())
    assert len(orphans) == 13 and all(thirteen_orphans_divisions(h, 0) for h in orphans)
    knitted = list(HonorsAndKnittedSpace().hands())
    # six knitted straights, fourteen of their nine tiles and the seven honours: 6 x C(16, 14)
    assert len(knitted) == len(set(knitted)) == 720 and all(honors_and_knitted_divisions(h, 0) for h in knitted)
    straight = KnittedStraightSpace()
    hands = list(straight.hands())
    assert len(hands) == len(set(hands)) == straight.size and all(knitted_straight_complete(h, 0) for h in hands)
    assert ThirteenOrphansSpace(_mask(range(27))).size == 0


def test_the_concealed_part_beside_declared_melds_keeps_to_the_copies_they_leave():
    # A pung of 5p and a kong of 1z declared: two sets and a pair remain, and the concealed part may hold at
    # most one 5p and no 1z. The capped space is the uncapped one of two sets filtered by those counts.
    caps = [4] * 34
    caps[13], caps[27] = 1, 0  # 5p (index 9 + 4), 1z (index 27)
    capped = list(ConcealedSpace(sets=2, caps=caps).hands())
    expected = [h for h in ConcealedSpace(sets=2).hands() if h[13] <= 1 and h[27] == 0]
    assert capped == expected and len(capped) == ConcealedSpace(sets=2, caps=caps).size > 0


# ------------------------------------------------------------------------------------------ open hands

@pytest.mark.parametrize("melds, tiles", [(1, [0, 1, 2, 3, 4, 27]), (2, [0, 1, 2, 3, 4, 27]), (3, [0, 1, 2, 3, 27]),
                                          (4, [0, 1, 2, 27])])
def test_the_open_space_holds_every_completion_of_every_meld_multiset_once(melds, tiles):
    # Against a plain search: every multiset of the meld kinds within a few tiles, and every vector of the
    # copies they leave with the tiles of the remaining sets and a pair that the engine calls complete.
    from itertools import combinations_with_replacement

    from checker.space.open import OpenSpace, caps_of, meld_kinds

    space = OpenSpace(melds=melds, tiles=_mask(tiles))
    hands = [(tuple(melds_), counts) for melds_, counts in space.hands()]
    assert len(hands) == len(set(hands)) == space.size
    kinds = [m for m in meld_kinds() if set(m.tiles) <= set(tiles)]
    expected = set()
    for k in range(1, melds + 1):
        for combo in combinations_with_replacement(kinds, k):
            caps = caps_of(combo)
            if min(caps) < 0:
                continue
            for copies in product(*(range(caps[t] + 1) for t in tiles)):
                if sum(copies) != 3 * (4 - k) + 2:
                    continue
                full = [0] * 34
                for t, n in zip(tiles, copies):
                    full[t] = n
                if regular_complete(tuple(full), k):
                    expected.add((combo, tuple(full)))
    assert set(hands) == expected and expected
    for start in (0, 7, space.size // 3, space.size - 5):  # any start finds its multiset by number
        assert list(space.hands(start, start + 40)) == hands[start:start + 40]


from checker.engine import Scorer, load_ruleset  # noqa: E402
from checker.hunt.dead import concealed_hand  # noqa: E402
from checker.space.holding import holding_hands  # noqa: E402


def _has_core(division, cores) -> bool:
    """Whether a division's sets hold one of the cores (a group of (kind, lowest tile)) as a sub-multiset."""
    sets = [("pung" if g.kind == "kong" else g.kind, g.tile) for g in division if g.kind != "pair"]
    for core in cores:
        rest = list(sets)
        try:
            for s in core:
                rest.remove(s)
        except ValueError:
            continue
        return True
    return False


@pytest.mark.parametrize("fan, tiles", [
    ("quadruple_chow", [0, 1, 2, 3, 4, 5, 27]),  # 1-6 characters and East
    ("triple_pung", [0, 1, 9, 10, 18, 19]),  # 1 and 2 of each suit
    ("mixed_triple_chow", [0, 1, 2, 9, 10, 11, 18, 19, 20]),  # 1-3 of each suit
    ("pure_straight", list(range(9)) + [31]),  # the characters and the red dragon
])
def test_the_holding_space_is_every_hand_holding_a_core_and_the_fan_holds_in_exactly_those(fan, tiles):
    # The cores a combination fan declares (gate(cores=...)) with any other sets and a pair: over the concealed
    # hands of a few tiles, exactly the hands that have a division with a core among its sets (a plain search),
    # and exactly the hands where the engine's predicate finds the fan
    scorer = Scorer(load_ruleset("mcr"))
    bound = next(b for b in scorer.patterns if b.id == fan)
    cores = bound.decide.cores()
    mask = _mask(tiles)
    held = {h for h in holding_hands(cores, 10 ** 6) if not any(n and not mask >> t & 1 for t, n in enumerate(h))}
    everything = list(ConcealedSpace(tiles=mask).hands())
    by_division = {h for h in everything if any(_has_core(d, cores) for d in regular_divisions(h, 0))}
    rank = scorer.rank[fan]
    by_engine = {h for h in everything if any(rank in found for _, found in scorer.found_fans(concealed_hand(h)))}
    assert held == by_division == by_engine and held


def test_the_holding_space_refuses_more_hands_than_its_limit():
    # Pure double chow's cores (two identical chows) leave two sets and a pair free: far more hands than 1,000
    scorer = Scorer(load_ruleset("mcr"))
    cores = next(b for b in scorer.patterns if b.id == "pure_double_chow").decide.cores()
    assert len(cores) == 21 and holding_hands(cores, 1_000) is None
