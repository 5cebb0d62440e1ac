"""Findings of an earlier run are carried only while the engine still bears them out (checker.hunt.carried)."""
from __future__ import annotations

import copy

from checker.case import CaseRunner
from checker.hunt.carried import options_of, still_holds
from checker.hunt.findings import Finding, numbered
from checker.spec import load_ruleset

# A classic hand: 1m2m3m 4m5m6m 7m8m9m 2m2m2m, pair 5m5m, self-drawn, knocked, nothing claimed. By hand under the
# defaults: 清一色 is 1 勒 = 10, 门清 doubles it to 20; each of the three pays 20 + the 底分 of 2 = 22, the winner +66.
HAND = {"concealed": "1m2m3m4m5m6m7m8m9m2m2m2m5m", "melds": [], "win_tile": "5m", "win_by": "self_draw",
        "discarder": None, "seat_wind": "E", "round_wind": "E", "flowers": "", "flags": {"knocked": True}}
NOW = {"valid": True, "total": 20, "payments": [66, -22, -22, -22]}


def finding(recorded: dict) -> dict:
    return {"id": "shanghai-classic-0099", "ruleset": "shanghai-classic", "kind": "ambiguity",
            "key": "option.qingyise=four_fan", "title": "t", "rules": [], "statements": [],
            "witness": {"ruleset": "shanghai-classic", "options": {}, "kind": "score", "input": HAND},
            "outcomes": [{"reading": "qingyise=one_le (the default)", "result": recorded},
                         {"reading": "what the document states (001_83aec190f966708c.txt)", "result": {"total": 1}}],
            "method": "hypothesis", "deciding_option": "qingyise", "note": ""}


def test_outcome_readings_are_read_as_options_or_not_at_all():
    rs = load_ruleset("shanghai-classic")
    assert options_of(rs, "the spec's default readings") == {}
    assert options_of(rs, "huangfan_stacking=once and lift_to=one_cap_unit") == {
        "huangfan_stacking": "once", "lift_to": "one_cap_unit"}
    assert options_of(rs, "huangfan_stacking=per_count, lift_to=hand_cap (the defaults)") == {
        "huangfan_stacking": "per_count", "lift_to": "hand_cap"}
    assert options_of(rs, "what the document states (001_83aec190f966708c.txt)") is None
    assert options_of(rs, "no_such_option=1") is None and options_of(rs, "lift_to=nowhere") is None


def test_a_finding_whose_recorded_result_the_engine_still_gives_is_carried_and_a_stale_one_is_not():
    rs, runner = load_ruleset("shanghai-classic"), CaseRunner()
    assert still_holds(runner, rs, finding(dict(NOW)))
    stale = copy.deepcopy(finding({**NOW, "total": 10, "payments": [36, -12, -12, -12]}))  # 门清 not doubling
    assert not still_holds(runner, rs, stale)
    new = Finding(ruleset="shanghai-classic", kind="ambiguity", key="option.menqing_doubles=2", title="t", rules=[],
                  witness={}, outcomes=[], method="hypothesis")
    dropped: list[str] = []
    kept = numbered(rs, [new], {stale["key"]: stale}, lambda old: still_holds(runner, rs, old), dropped)
    assert [f.key for f in kept] == ["option.menqing_doubles=2"] and dropped == [stale["key"]]
    kept = numbered(rs, [new], {stale["key"]: finding(dict(NOW))}, lambda old: still_holds(runner, rs, old), [])
    assert sorted(f.key for f in kept) == ["option.menqing_doubles=2", "option.qingyise=four_fan"]
