"""Diagnosis on an MCR engine nobody here wrote: reports/unseen-mcr/mcr_engine.py, written from the MCR document
alone (002_3a615137eafec6e0.txt) by an author who never saw the spec, the reference engine or the corpora; its
readings in reports/unseen-mcr/READINGS.md. It names its fans in the document's English, its refusals in its own
words, and follows the options a case names (its defaults, READINGS O1-O13, are the spec's).

Run through the engine protocol on the shipped MCR corpus and 2,000 seeded random hands, every failing case must be
explained, by nothing but what the engine does (its READINGS, or its code where the READINGS are silent), and never
by the single exclusions that fit the class of three- and four-kong hands only on the hands the run holds.
"""
from __future__ import annotations

import pytest

from unseen_helpers import engine_of, named_causes, unseen_run

ENGINE = engine_of("unseen-mcr", "mcr_engine.py")

# Every cause the engine makes true, by the id the diagnosis gives it:
TRUE_CAUSES = {
    # the fan names: the document's table, spelled as written there (READINGS, head)
    "fan-names",
    # mcr_engine.py's exclusions: every fan the hand holds withholds its list, counted or not (Two concealed kongs,
    # which Three kongs keeps from its own sets, still keeps Two concealed pungs out: READINGS F1's implied lists)
    "principle:withheld_fans_withhold=true",
    # mcr_engine.py adds Last tile only for the fourth_tile_visible flag, never from the winner's own melds
    "predicate:last_copy.own_melds=false",
    # I7: unknown flags ignored; a known flag that does not fit is ignored (kong_replacement without a kong or on a
    # discard, fourth_tile_visible with a copy held, last_tile on a robbed kong); flower_replacement scores nothing
    # under O11's default (a flower replacement is not Out with replacement tile): "ignored" is true under the
    # default options the classes hold, not under flower_replacement_is_kong_replacement=true, where the engine
    # reads it (its reach probes say so: the test below)
    "input-taken:input.flags", "flag-unfit-ignored:kong_replacement", "flag-unfit-ignored:fourth_tile_visible",
    "flag-ignored:flower_replacement", "check-dropped:context.last_wall_tile", "flag-unfit-ignored:last_tile",
    # the I section checks neither counters (MCR has none) nor a meld's other fields (after_knock): taken
    "input-taken:input.counters", "input-taken:input.meld",
}
# What fits the three- and four-kong class on the run's hands alone and is false of the engine: a three-kong hand of
# one concealed kong and a concealed pung keeps Two concealed pungs
FALSE_CAUSES = {"exclusion-added:three_kongs/two_concealed_pungs", "exclusion-added:four_kongs/two_concealed_pungs",
                "implied-added:all_pungs/two_concealed_pungs", "implied-added:melded_kong/last_tile"}


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> dict:
    return unseen_run(tmp_path_factory.mktemp("unseen-mcr"), "mcr", ENGINE)


def test_every_cause_named_is_the_engine_s_and_every_case_is_explained(run):
    named = named_causes(run)
    assert named <= TRUE_CAUSES, sorted(named - TRUE_CAUSES)
    assert not named & FALSE_CAUSES
    assert {"fan-names", "principle:withheld_fans_withhold=true", "predicate:last_copy.own_melds=false"} <= named
    assert sum(c["cause"]["unexplained"] for c in run["classes"]) == 0, \
        [c["cause"]["verdict"] for c in run["classes"] if c["cause"]["unexplained"]]


def test_the_kong_class_is_one_departure_confirmed_by_probes(run):
    """The hands of three or four kongs, two of them concealed, that the engine scores without Two concealed
    pungs: one departure (a withheld fan withholding), put to the engine and borne out."""
    (kongs,) = [c for c in run["classes"] if "missing two_concealed_pungs 2" in c["signature"] and c["count"] > 10]
    (e,) = [e for e in kongs["cause"]["explained_by"] if e["id"] != "fan-names"]
    assert e["id"] == "principle:withheld_fans_withhold=true" and e["explains"] == e["of"] == kongs["count"]
    assert e["evidence"] == "confirmed"


def test_the_flower_flag_ignored_is_said_not_to_reach_the_other_value_of_the_flower_option(run):
    """The engine follows a case's options: "the flower_replacement flag is ignored", true where the option
    flower_replacement_is_kong_replacement is false (the classes' default), is put to it with the option named true,
    where the engine reads the flag (mcr_engine.py scores Out with replacement tile for a flower replacement with
    flowers when the option is true); each class naming it says it holds not there."""
    flower = [e for c in run["classes"] for e in c["cause"].get("explained_by") or []
              if e["id"] == "flag-ignored:flower_replacement"]
    assert flower
    for e in flower:
        (reach,) = [r for r in e.get("reach") or [] if r["option"] == "flower_replacement_is_kong_replacement"]
        assert reach["value"] is True and reach["held"] == [False] and reach["status"] == "contradicted", reach
        wrong = [p for p in reach["probes"] if p["holds"] is False]
        assert wrong and "Out with replacement tile" in str(wrong[0]["answer"])
