""""A excludes B" put to the engine on hands holding both fans another way (checker.diagnose.probes `regrouped`): the
class's hands with one set's concealment changed. Before them, a departure between two fans was probed on the pool's
hands and the class's hands read otherwise, which seldom hold both fans, and "Three kongs excludes Two concealed
pungs" was confirmed on an engine that keeps Two concealed pungs out only while Two concealed kongs (withheld by
Three kongs) stands beside it (reports/unseen-mcr/README.md)."""
from __future__ import annotations

from checker.case import CaseRunner
from checker.diagnose.answers import OwnRules
from checker.diagnose import probes
from checker.diagnose.probes import CONFIRMED, CONTRADICTED, Experiments, Prober, regrouped
from checker.mutate import edits
from checker.mutate.mutation import Rescorer
from checker.spec import load_ruleset

# Three kongs, two of them concealed (1m, 9p), one claimed (3s), a claimed pung of 5p and a pair of 7s, won on the 7s
# self-drawn. The rules: Three kongs 32 withholds Two concealed kongs (its own sets); Two concealed pungs (the two
# concealed kongs) still counts. An engine whose withheld Two concealed kongs still withholds Two concealed pungs
# scores it without, as "Three kongs excludes Two concealed pungs" predicts.
KONGS = {"ruleset": "mcr", "options": {}, "kind": "score",
         "input": {"concealed": "7s", "win_tile": "7s", "win_by": "self_draw", "seat_wind": "E",
                   "round_wind": "E", "flowers": "", "flags": {},
                   "melds": [{"type": "kong", "tiles": "1m1m1m1m", "concealed": True},
                             {"type": "kong", "tiles": "9p9p9p9p", "concealed": True},
                             {"type": "kong", "tiles": "3s3s3s3s", "from": 1},
                             {"type": "pung", "tiles": "5p5p5p", "from": 2}]}}


def fans(result) -> set[str]:
    return {f["id"] for f in result.get("fans") or []}


def test_regrouped_hands_hold_the_same_tiles_with_one_or_two_sets_concealment_changed():
    found = [c["input"] for c in regrouped([KONGS], changes=1)]
    # each concealed kong claimed, the claimed kong concealed, the claimed pung taken into the concealed tiles
    assert len(found) == 4
    assert {"type": "kong", "tiles": "1m1m1m1m", "from": 3} in found[0]["melds"]
    assert {"type": "kong", "tiles": "3s3s3s3s", "concealed": True} in found[2]["melds"]
    assert found[3]["concealed"] == "5p5p5p7s" and len(found[3]["melds"]) == 3
    twice = [c["input"] for c in regrouped([KONGS])]
    assert twice[:4] == found and len(twice) == len({str(x) for x in twice}) > 4
    # one concealed kong (9p) and a concealed pung (5p), the 1m kong claimed: among the hands of two changes
    assert any(x["concealed"] == "5p5p5p7s" and {"type": "kong", "tiles": "1m1m1m1m", "from": 3} in x["melds"]
               for x in twice[4:])


def test_an_exclusion_true_only_beside_a_withheld_fan_is_contradicted_on_a_regrouped_hand(monkeypatch):
    ruleset = load_ruleset("mcr")
    withholding = edits.withheld_fans_withhold("mcr")
    engine = CaseRunner({"mcr": withholding.edit(ruleset)})
    rescorer = Rescorer()
    # the class's hand: the engine and the exclusion agree (no Two concealed pungs), the rules count it
    assert "two_concealed_pungs" in fans(rescorer.result(KONGS))
    assert "two_concealed_pungs" not in fans(engine.run(KONGS))
    exclusion = edits.exclusion_added("mcr", "three_kongs", "two_concealed_pungs")
    assert "two_concealed_pungs" not in fans(rescorer.result(KONGS, exclusion))

    experiments = Experiments(rescorer, Prober(lambda cases: [engine.run(c) for c in cases]),
                              lambda ruleset_id: OwnRules.of(ruleset))
    trial = experiments.trial(ruleset, [KONGS], exclusion)
    # a regrouped hand, a concealed kong claimed and the pung taken in: one concealed kong and a concealed pung make Two concealed
    # pungs, Two concealed kongs is gone, and the engine counts Two concealed pungs beside Three kongs
    assert trial.status == CONTRADICTED, trial
    wrong = trial.probes[-1]
    assert wrong.holds is False and "two_concealed_pungs" in fans(wrong.answer)
    assert sum(1 for m in wrong.case["input"]["melds"] if m.get("concealed")) == 1
    assert "5p5p5p" in wrong.case["input"]["concealed"]

    # without the regrouped hands, the pool's and the class's hands read otherwise bear the exclusion out
    monkeypatch.setattr(probes, "BETWEEN_FANS", set())
    fresh = Experiments(Rescorer(), Prober(lambda cases: [engine.run(c) for c in cases]),
                        lambda ruleset_id: OwnRules.of(ruleset))
    assert fresh.trial(ruleset, [KONGS], exclusion).status == CONFIRMED
