"""Hand input validation: each bad hand is refused with the rule or input it breaks."""
from __future__ import annotations

import pytest

from checker.engine import Hand, HandError, parse_meld


def refused(**kw) -> HandError:
    with pytest.raises(HandError) as info:
        Hand.build(**kw)
    return info.value


def test_a_robbed_kongs_tile_cannot_be_held_by_the_winner():
    # 2m robbed: the konger's pung holds the other three 2m, so the winner's 123m chow cannot hold one.
    err = refused(concealed="4p5p6p7s8s9s1z1z1z5z", melds=[parse_meld("chow", "123m")], win_tile="2m",
                  win_by="robbing_kong", discarder=2)
    assert err.rule == "input.win_tile" and "2m" in str(err)
    # Without the 123m chow (another tile completes the hand) the same robbing win is accepted.
    Hand.build(concealed="1m3m4p5p6p7s8s9s1z1z1z5z5z", win_tile="2m", win_by="robbing_kong", discarder=2)


def test_a_discard_needs_a_discarder_and_a_self_draw_has_none():
    assert refused(concealed="1m1m1m2m2m2m3p3p3p4s4s4s5m", win_tile="5m", win_by="discard").rule == "input.discarder"
    assert refused(concealed="1m1m1m2m2m2m3p3p3p4s4s4s5m", win_tile="5m", discarder=2).rule == "input.discarder"


def test_flowers_belong_in_flowers():
    assert refused(concealed="1f1m1m2m2m2m3p3p3p4s4s4s5m", win_tile="5m").rule == "input.flowers"
    assert refused(concealed="1m1m1m2m2m2m3p3p3p4s4s4s5m", win_tile="5m", flowers="5z").rule == "input.flowers"


def test_tiles_given_as_ids_are_checked_like_tiles_given_as_text():
    # 1m1m1m2m2m2m3p3p3p4s4s4s5m as ids (1m = 0, 2m = 1, 3p = 11, 4s = 21, 5m = 4): the same hand as the text.
    ids = [0, 0, 0, 1, 1, 1, 11, 11, 11, 21, 21, 21, 4]
    assert Hand.build(concealed=ids, win_tile=4) == Hand.build(concealed="1m1m1m2m2m2m3p3p3p4s4s4s5m", win_tile="5m")
    # An id out of 0..41, a negative one or a bool is no tile: refused naming the field, as bad text is.
    for bad in (-1, 42, True):
        err = refused(concealed=ids[:-1] + [bad], win_tile=4)
        assert err.rule == "input.tile" and str(err).startswith("concealed tiles: not a tile")
    assert refused(concealed=ids, win_tile=-1).rule == "input.tile"
    # A fifth copy (four 1m held, a fifth won) and a flower held twice break tiles.four_copies.
    assert refused(concealed=[0, 0, 0, 0] + ids[3:-1], win_tile=0).rule == "tiles.four_copies"
    assert refused(concealed=ids, win_tile=4, flowers="1f2f1f").rule == "tiles.four_copies"


@pytest.mark.parametrize("kind, tiles, words", [
    ("chow", "135m", "three consecutive"), ("chow", "1z2z3z", "three consecutive"), ("pung", "112m", "identical"),
    ("kong", "111m", "4 tiles"), ("pung", "1f1f1f", "flower"), ("triplet", "111m", "unknown meld type"),
])
def test_bad_melds_are_named(kind, tiles, words):
    with pytest.raises(HandError) as info:
        parse_meld(kind, tiles)
    assert words in str(info.value) and info.value.rule == "input.meld"


def test_counters_are_whole_numbers_within_their_range():
    base = dict(concealed="1m1m1m2m2m2m3p3p3p4s4s4s5m", win_tile="5m",
                known_counters={"huangfan": (0, 99, "input.counters")})
    assert "it takes 0 to 99" in str(refused(**base, counters={"huangfan": -1}))
    assert "it takes 0 to 99" in str(refused(**base, counters={"huangfan": 100}))
    assert "whole number" in str(refused(**base, counters={"huangfan": "2"}))
    assert "unknown counter" in str(refused(**base, counters={"huangfang": 1}))


@pytest.mark.parametrize("extra, rule", [
    # 5m drawn on a kong replacement, but the winner declared no kong
    (dict(flags=("kong_replacement",)), "context.kong_replacement"),
    # a flower replacement without a flower
    (dict(flags=("flower_replacement",)), "context.flower_replacement"),
    # the last wall tile cannot be a robbed kong's tile
    # (4m robbed: the winner holds no other 4m)
    (dict(concealed="1m1m1m2m2m2m3p3p3p5m6m7s7s", win_tile="4m", flags=("last_tile",), win_by="robbing_kong",
          discarder=1), "context.last_wall_tile"),
])
def test_mcr_context_flags_must_fit_the_hand(mcr, extra, rule):
    kw = dict(concealed="1m1m1m2m2m2m3p3p3p4s4s4s5m", win_tile="5m")
    kw.update(extra)
    with pytest.raises(HandError) as info:
        mcr.build_hand(**kw)
    assert info.value.rule == rule


def test_fourth_tile_visible_needs_no_hidden_copy(mcr):
    # Winning 6p while holding another 6p concealed: its other three copies cannot all be on the table.
    with pytest.raises(HandError) as info:
        mcr.build_hand(concealed="1p2p3p6p", win_tile="6p", win_by="discard", discarder=1,
                       melds=[parse_meld("pung", "444p"), parse_meld("chow", "234p"), parse_meld("pung", "666m")],
                       flags=("fourth_tile_visible",))
    assert info.value.rule == "context.fourth_tile_visible" and "6p" in str(info.value)


# Checks registered `about_flag` are skipped for hands without their flag, so each must pass such a hand
# whatever else it holds: here a self-drawn hand with no meld, flower or counter, where every check would
# fail if it ignored the flag.
ABOUT_FLAG_PARAMS = {
    "flag_needs_counter": {"counter": "contract_partner"},
    "flag_needs_third_party_discard": {"counter": "contract_partner"},
    "flag_needs_meld": {"kind": "kong"},
    "flag_needs_flowers": {},
    "last_copy_visible": {},
    "flag_not_with_win": {"win_by": "self_draw"},
}


@pytest.mark.parametrize("name", sorted(ABOUT_FLAG_PARAMS))
def test_checks_about_a_flag_pass_without_it_and_fail_with_it(name):
    from checker.engine.checks import ABOUT_A_FLAG, CHECKS

    assert name in ABOUT_A_FLAG
    fn = CHECKS[name][0]
    plain = Hand.build(concealed="1m1m1m2m3m4m5p6p7p9s9s9s5m", win_tile="5m")
    assert fn(plain, flag="some_flag", **ABOUT_FLAG_PARAMS[name]) is None
    flagged = Hand.build(concealed="1m1m1m2m3m4m5p6p7p9s9s9s5m", win_tile="5m", flags=["some_flag"])
    assert fn(flagged, flag="some_flag", **ABOUT_FLAG_PARAMS[name]) is not None


def test_every_check_about_a_flag_is_covered_above():
    from checker.engine.checks import ABOUT_A_FLAG

    assert ABOUT_A_FLAG == set(ABOUT_FLAG_PARAMS)


def test_a_check_about_a_flag_cannot_be_declared_to_read_the_melds_alone():
    from checker.engine.checks import check

    with pytest.raises(ValueError, match="reads the flags"):
        check("some_check", about_flag=True, melds_only=True)


def test_a_meld_read_before_is_the_same_record_and_a_refusal_is_never_kept():
    from checker.engine.hand import HandError, parse_meld

    first = parse_meld("pung", "555p", False, 2)
    assert parse_meld("pung", "555p", False, 2) is first and (first.kind, first.source) == ("pung", 2)
    assert parse_meld("pung", "555p", False, 3) is not first and parse_meld("pung", "555p", False, 3).source == 3
    for _ in range(2):  # refused each time, with its reason
        with pytest.raises(HandError, match="three consecutive tiles"):
            parse_meld("chow", "135m")


def test_a_seat_written_as_a_whole_float_is_that_seat_whatever_came_before(mcr):
    from checker.case import hand_from_input

    for source in (2.0, 2, 2.0):  # the case schema reads 2.0 as 2; so do the hand and its messages
        data = {"concealed": "1m2m3m4p5p6p7s8s9s1z", "melds": [{"type": "pung", "tiles": "555p", "from": source}],
                "win_by": "discard", "discarder": 2, "win_tile": "1z"}
        (meld,) = hand_from_input(data, mcr).melds
        assert meld.source == 2 and type(meld.source) is int
