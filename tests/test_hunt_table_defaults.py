"""Readings the table decides where the spec is silent (checker.hunt.table_defaults), found from the binding step."""
from __future__ import annotations

from pathlib import Path

import yaml

from checker.hunt.table_defaults import table_default_findings
from checker.spec import load_ruleset, load_ruleset_file
from checker.spec.bind import bind


def test_the_classic_table_defaults_are_the_fields_its_spec_leaves_out():
    # By reading spec/shanghai-classic.yaml: flower_exposure gives at_deal, order, replacement_from, dragons_too and
    # declared_win but not in_wall (the table's default: the eight flowers are in the wall); knock gives
    # required_to_win, locks_hand and must_take_first_win but not missed_win (default: a knocked player who passes a
    # win forfeits the hand); wall_end gives dead_wall_tiles but not model (default: one live wall). Every other
    # entry the table reads is given whole, and turn, dealer_discards_first and unclaimed_discard are written out.
    defaulted = dict(bind(load_ruleset("shanghai-classic")).procedure.defaulted)
    assert defaulted == {"flower_exposure/in_wall": True, "knock/missed_win": "forfeit_hand",
                         "wall_end/model": "single"}


def test_each_default_is_a_decided_finding_with_the_readings_the_schema_allows():
    found = {f.key: f for f in table_default_findings(load_ruleset("shanghai-classic"))}
    assert sorted(found) == ["decided.table.flower_exposure.in_wall", "decided.table.knock.missed_win",
                             "decided.table.wall_end.model"]
    missed = found["decided.table.knock.missed_win"]
    assert missed.kind == "decided" and missed.rules == ["procedure.knock"]
    assert missed.outcomes == [{"reading": "forfeit_hand", "taken": True}, {"reading": "not_allowed", "taken": False}]
    assert "binding step" in missed.note and "gives the entry knock but not its field missed_win" in missed.note
    assert "classic-knock-lock" in missed.note  # the authors' decision about the same entry (its lock) is named


def test_a_field_the_spec_writes_is_no_default_and_one_it_drops_is(tmp_path: Path):
    data = yaml.safe_load(Path("spec/shanghai-classic.yaml").read_text(encoding="utf-8"))
    data["procedure"]["knock"]["missed_win"] = "not_allowed"  # now said: no longer the table's
    del data["procedure"]["lou_hu"]["lifted_by"]  # now silent: the table's default, every move lifts 漏胡
    path = tmp_path / "shanghai-classic.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    defaulted = dict(bind(load_ruleset_file(path)).procedure.defaulted)
    assert "knock/missed_win" not in defaulted
    assert set(defaulted["lou_hu/lifted_by"]) == {"pung", "chow", "kong", "draw"}
    keys = {f.key for f in table_default_findings(load_ruleset_file(path))}
    assert "decided.table.lou_hu.lifted_by" in keys and "decided.table.knock.missed_win" not in keys


def test_an_entry_the_spec_leaves_out_is_played_the_only_way_the_table_plays_it():
    # spec/mcr.yaml writes no dealer_discards_first and no unclaimed_discard: the table's only readings (the
    # dealer opens with a discard; an unclaimed discard is followed by the next player's draw) are its decisions
    defaulted = dict(bind(load_ruleset("mcr")).procedure.defaulted)
    assert defaulted["dealer_discards_first"] is True and defaulted["unclaimed_discard"] == "next_player_draws"
    found = {f.key: f for f in table_default_findings(load_ruleset("mcr"))}
    assert "the only way it plays" in found["decided.table.unclaimed_discard"].note
