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


@pytest.mark.parametrize("kind, tiles, words", [
    ("chow", "135m", "three consecutive"), ("chow", "1z2z3z", "three consecutive"), ("pung", "112m", "identical"),
    ("kong", "111m", "4 tiles"), ("pung", "1f1f1f", "flower"), ("triplet", "111m", "unknown meld type"),
])
def test_bad_melds_are_named(kind, tiles, words):
    with pytest.raises(HandError) as info:
        parse_meld(kind, tiles)
    assert words in str(info.value) and info.value.rule == "input.meld"


def test_counters_are_whole_numbers_at_or_above_zero():
    base = dict(concealed="1m1m1m2m2m2m3p3p3p4s4s4s5m", win_tile="5m", known_counters={"huangfan": ""})
    assert "below zero" in str(refused(**base, counters={"huangfan": -1}))
    assert "whole number" in str(refused(**base, counters={"huangfan": "2"}))
    assert "unknown counter" in str(refused(**base, counters={"huangfang": 1}))
