"""Witness shrinking (checker.hunt.shrink): context that does not change what a finding shows is dropped."""
from __future__ import annotations

from checker.case import CaseRunner
from checker.engine import load_ruleset
from checker.hunt.options import differs, hunt_option, outcome
from checker.hunt.run import _strategy
from checker.hunt.shrink import simpler, smaller

RUNNER = CaseRunner()
CLASSIC = load_ruleset("shanghai-classic")

# 1m1m1m 3p3p3p 5s5s5s 7m7m7m 9p9p (碰碰胡, which classic lets win), won on a discard from the next player, holding all eight flowers and
# declaring 八花齐 (which wins without a knock), with a 荒番 count of 2 and the room's 底分 at 2.
EIGHT_FLOWERS = {"concealed": "1m1m1m3p3p3p5s5s5s7m7m7m9p", "win_tile": "9p", "win_by": "discard", "discarder": 1,
                 "seat_wind": "E", "round_wind": "E", "flowers": "1f2f3f4f5f6f7f8f",
                 "flags": {"eight_flowers_win": True}, "counters": {"huangfan": 2, "base": 2}}


def _parts(options_a, options_b):
    return lambda data: differs(outcome(RUNNER, CLASSIC.id, options_a, data), outcome(RUNNER, CLASSIC.id, options_b, data))


def test_eight_flowers_become_an_ordinary_knocked_win_when_the_finding_does_not_need_them():
    """base_placement doubled against after_caps parts on any winning hand with a value (under after_caps the
    share is 2 + value, under doubled (value + 2) × doubles): the flowers, 八花齐 and the counters go, and the
    knock every ordinary classic win needs (win.requires_flags) is given."""
    parts = _parts({}, {"base_placement": "doubled"})
    assert parts(EIGHT_FLOWERS)
    shrunk = smaller(CLASSIC, EIGHT_FLOWERS, parts)
    assert parts(shrunk)
    assert shrunk["flowers"] == "" and shrunk["flags"] == {"knocked": True} and shrunk["counters"] == {}


def test_what_the_finding_needs_is_kept():
    """huangfan_stacking=once counts 荒番 once. The hand needs a value for the readings to part: one flower
    (1 花, 门清 ×2 = 2) with 荒番 2 is 2 × 4 = 8 against 2 × 2 = 4 under once. So 八花齐 becomes a knocked win,
    seven flowers go, 荒番 stays at 2 (at 1 the readings agree) and the 底分 counter, added alike, goes."""
    parts = _parts({}, {"huangfan_stacking": "once"})
    shrunk = smaller(CLASSIC, EIGHT_FLOWERS, parts)
    assert parts(shrunk)
    assert shrunk["flags"] == {"knocked": True} and len(shrunk["flowers"]) == 2
    assert shrunk["counters"] == {"huangfan": 2}
    assert outcome(RUNNER, CLASSIC.id, {}, shrunk)["total"] == 8
    assert outcome(RUNNER, CLASSIC.id, {"huangfan_stacking": "once"}, shrunk)["total"] == 4


def test_the_simplifications_are_tried_in_a_fixed_order_and_bounded():
    steps = list(simpler(CLASSIC, EIGHT_FLOWERS))
    assert steps[0]["flowers"] == "" and steps[0]["flags"] == {"knocked": True}  # 八花齐 made a knocked win
    assert steps[1]["flowers"] == EIGHT_FLOWERS["flowers"] and steps[1]["flags"] == {"knocked": True}
    assert steps[2]["flowers"] == "" and steps[2]["flags"] == {"eight_flowers_win": True}
    assert all(len(s["flowers"]) == 14 for s in steps[3:11])  # each flower alone
    assert smaller(CLASSIC, EIGHT_FLOWERS, lambda d: True, tries=0) == EIGHT_FLOWERS


def test_an_option_finding_found_by_the_hunt_carries_no_flower_it_does_not_need():
    # 300 examples: the hunt's first pass at --effort 1
    found = hunt_option(RUNNER, CLASSIC, "contract_self_draw_others", 1, _strategy(CLASSIC), 300, 1)
    assert found is not None
    data = found.witness["input"]
    assert not data.get("flowers") and not (data.get("flags") or {}).get("eight_flowers_win")
    # the contract it is about: named by its counter, or made by three claims from one seat the hand shows
    # (如果吃碰杠一家…超过3次（包括3次），则承包), with no other counter
    counters = data.get("counters") or {}
    shown = [m.get("from") for m in data.get("melds") or [] if m.get("from")]
    assert set(counters) <= {"contract_with"}
    assert counters.get("contract_with") or any(shown.count(seat) >= 3 for seat in (1, 2, 3)), data


def test_a_claimed_pung_the_finding_does_not_need_is_taken_back_into_the_hand():
    """碰碰胡 with 1m1m1m claimed from the next player: as a condition only that the hand wins, which it does
    concealed too, so the claim goes (the concealed tiles gain 1m1m1m) and the hand stays the same 14 tiles."""
    claimed = {**EIGHT_FLOWERS, "concealed": "3p3p3p5s5s5s7m7m7m9p", "flowers": "", "flags": {"knocked": True},
               "counters": {}, "melds": [{"type": "pung", "tiles": "1m1m1m", "from": 1}]}

    def wins(data):
        return bool(outcome(RUNNER, CLASSIC.id, {}, data).get("valid"))

    assert wins(claimed)
    shrunk = smaller(CLASSIC, claimed, wins)
    assert shrunk["melds"] == [] and shrunk["concealed"] == "1m1m1m7m7m7m3p3p3p9p5s5s5s"
