"""Defaults that read the document otherwise than its words (checker.hunt.literal, issue 40 item 4): listed as
`decided` from the spec's `literal` marking, the default taken, the literal reading the other."""
from __future__ import annotations

import copy

import pytest
import yaml

from checker.engine import load_ruleset
from checker.hunt.literal import literal_default_findings
from checker.spec import SpecError, load_ruleset_file, spec_dir


def test_classic_lists_its_two_defaults_against_the_literal_wording():
    """001_ says 风向牌 (the winds) for 风碰 and 风一色, and 点炮者最近的一个胡牌者下家 (word by word the 下家 of the
    nearest winner); the spec reads 风 as every honour and the deal as passing to the nearest winner itself."""
    found = {f.key: f.as_dict() for f in literal_default_findings(load_ruleset("shanghai-classic"))}
    assert set(found) == {"decided.literal.feng_tiles", "decided.literal.multiple_win_dealer"}
    feng = found["decided.literal.feng_tiles"]
    assert feng["kind"] == "decided" and feng["deciding_option"] == "feng_tiles"
    assert [(o["reading"].split(":")[0], o["taken"]) for o in feng["outcomes"]] == \
        [("feng_tiles=honors", True), ("feng_tiles=winds (the words read literally)", False)]
    assert any("风向牌" in s["phrase"] for s in feng["statements"])
    assert "authors' marking" in feng["note"] and "风碰 can never be made" in feng["note"]


@pytest.mark.parametrize("ruleset_id", ["mcr", "shanghai-knocking"])
def test_a_ruleset_whose_defaults_read_the_words_lists_none(ruleset_id):
    assert literal_default_findings(load_ruleset(ruleset_id)) == []


def test_a_literal_reading_must_be_another_value_than_the_default(tmp_path):
    data = yaml.safe_load((spec_dir() / "shanghai-classic.yaml").read_text(encoding="utf-8"))
    bad = copy.deepcopy(data)
    bad["options"]["feng_tiles"]["literal"] = "honors"  # the default
    path = tmp_path / "shanghai-classic.yaml"
    path.write_text(yaml.safe_dump(bad, allow_unicode=True), encoding="utf-8")
    with pytest.raises(SpecError, match="feng_tiles/literal"):
        load_ruleset_file(path)
