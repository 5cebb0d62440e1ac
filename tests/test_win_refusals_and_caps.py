"""Two spec capabilities a variant ruleset (and diagnosis, naming what an engine does) can state as data:
`win.refused_when`, a win refused by its context, and the doubles step's `most`, a cap on the doubles that count.
Each is tried on a copy of the Shanghai knocking spec edited here; every number is worked out by hand below.
"""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from checker.case import CaseRunner
from checker.spec import SpecError, load_ruleset_file

ROOT = Path(__file__).resolve().parents[1]


def knocking(tmp_path: Path, edit) -> CaseRunner:
    data = yaml.safe_load((ROOT / "spec" / "shanghai-knocking.yaml").read_text(encoding="utf-8"))
    edit(data)
    path = tmp_path / "shanghai-knocking.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return CaseRunner({"shanghai-knocking": load_ruleset_file(path)})


def case(concealed: str, win: str, win_by: str = "self_draw", discarder: int | None = None, flowers: str = "") -> dict:
    return {"ruleset": "shanghai-knocking", "kind": "score",
            "input": {"concealed": concealed, "melds": [], "win_tile": win, "win_by": win_by, "discarder": discarder,
                      "seat_wind": "E", "round_wind": "E", "flowers": flowers, "flags": {"knocked": True}}}


NO_FLOWER_DISCARD = {"rule": "win.no_flowers_on_discard", "message": "a hand with no flowers wins only self-drawn",
                     "win_by": ["discard"], "flowers": "none"}

# Four concealed pungs of characters and a pair of 9m: the pungs 0 hua each (suited_pung), the base 1 (going_out),
# and the doubles 门清 1 + 碰碰胡 1 + 清一色 2 = 4.
PUNGS = "1m1m1m3m3m3m5m5m5m7m7m7m9m"


def test_a_hand_with_no_flowers_is_refused_on_a_discard_and_wins_otherwise(tmp_path):
    runner = knocking(tmp_path, lambda d: d["win"].setdefault("refused_when", []).append(NO_FLOWER_DISCARD))
    refused = runner.run(case(PUNGS, "9m", "discard", 2))
    assert (refused["valid"], refused["error"]) == (False, "win.no_flowers_on_discard")
    # with a flower (1 hua): hua 1 + 1 = 2; the discard wins, not self-drawn, but 门清 needs no self-draw under the
    # default reading (menqing_needs_self_draw=false), so 4 doubles: 2 × 2^4 = 32, paid by the discarder (seat 2)
    # alone under discard_others_pay=0: [32, 0, -32, 0]
    flowered = runner.run(case(PUNGS, "9m", "discard", 2, flowers="1f"))
    assert (flowered["valid"], flowered["total"], flowered["payments"]) == (True, 32, [32, 0, -32, 0])
    # self-drawn with no flowers: no hua beyond the base, so the fig (无花果) 10, then doubled (fig_then_doubled
    # default true): 10 × 2^4 = 160 from each opponent: [480, -160, -160, -160]
    drawn = runner.run(case(PUNGS, "9m"))
    assert (drawn["valid"], drawn["total"], drawn["payments"]) == (True, 160, [480, -160, -160, -160])


def test_a_refusal_without_a_condition_or_with_an_undeclared_flag_is_refused_by_the_spec(tmp_path):
    with pytest.raises(SpecError, match=r"/win/refused_when/0: a refusal needs a condition"):
        knocking(tmp_path, lambda d: d["win"].setdefault("refused_when", []).append(
            {"rule": "win.never", "message": "never"}))
    with pytest.raises(SpecError, match=r"/win/refused_when/0/without_flag: flag 'dealer' is not declared"):
        knocking(tmp_path, lambda d: d["win"].setdefault("refused_when", []).append(
            {"rule": "win.dealer_only", "message": "m", "without_flag": "dealer"}))


def capped(most: int):
    def edit(data):
        for step in data["scoring"]["steps"]:
            if step["step"] == "doubles":
                step["params"] = {"most": most}
    return edit


def test_the_doubles_step_counts_no_more_doubles_than_its_most(tmp_path):
    # self-drawn with one flower: hua 1 + 1 = 2, 4 doubles. The spec: 2 × 2^4 = 32 from each opponent.
    plain = CaseRunner().run(case(PUNGS, "9m", flowers="1f"))
    assert (plain["total"], plain["payments"]) == (32, [96, -32, -32, -32])
    # at most 3 doubles count: 2 × 2^3 = 16 from each: [48, -16, -16, -16]; the fans are the same
    three = knocking(tmp_path, capped(3)).run(case(PUNGS, "9m", flowers="1f"))
    assert (three["total"], three["payments"]) == (16, [48, -16, -16, -16])
    assert three["fans"] == plain["fans"]
    # a hand of fewer doubles than the cap is not changed: a flower and only 门清 (a concealed chow hand:
    # 123m 456m 789m 234p and a pair of 7p, two suits so no 混一色): hua 1 + 1 = 2, 1 double: 2 × 2 = 4
    few = case("1m2m3m4m5m6m7m8m9m2p3p4p7p", "7p", flowers="1f")
    assert knocking(tmp_path, capped(3)).run(few)["total"] == CaseRunner().run(few)["total"] == 4
