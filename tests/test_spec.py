"""The spec loader, its validation messages, and spec/mcr.yaml against the guide it comes from."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
import yaml

from checker.engine import Scorer, load_ruleset, load_ruleset_file
from checker.spec import SpecError, spec_dir
from mcr_helpers import hand

SEEDS = Path(__file__).resolve().parents[2] / "shared" / "seeds"
GUIDE = SEEDS / "002_3a615137eafec6e0.txt"
needs_guide = pytest.mark.skipif(not GUIDE.is_file(), reason="source documents not beside this checkout")


def guide_table() -> list[tuple[str, int, list[str]]]:
    """(name, points, not-counted-again names) for each row of the guide's scoring table."""
    text = GUIDE.read_text(encoding="utf-8")
    block = text[text.index("Big four winds88"): text.index("Rule scope & sources")]
    rows = []
    for line in block.strip().splitlines():
        name, points, requirement = re.match(r"(.+?)(88|64|48|32|24|16|12|8|6|4|2|1)([A-Z0-9].*)$", line).groups()
        excluded = requirement.split("Not counted again: ")[1].split(", ") if "Not counted again: " in requirement else []
        rows.append((name, int(points), excluded))
    return rows


@needs_guide
def test_spec_has_every_row_of_the_guide_table_with_its_points_and_exclusions(mcr_ruleset):
    rows = guide_table()
    assert len(rows) == 81 == len(mcr_ruleset.patterns)
    by_name = {p.name_en: p for p in mcr_ruleset.patterns}
    for name, points, excluded in rows:
        p = by_name[name]
        value = mcr_ruleset.options[p.points.option].default if hasattr(p.points, "option") else p.points
        assert value == points, name
        assert [by_name[e].id for e in excluded] == list(p.excludes), name


@needs_guide
def test_every_locator_phrase_is_in_its_source(mcr_ruleset):
    text = GUIDE.read_text(encoding="utf-8")
    phrases = [s.phrase for s in mcr_ruleset.statements]
    phrases += [loc.phrase for p in mcr_ruleset.patterns for loc in p.sources]
    phrases += [loc.phrase for o in mcr_ruleset.options.values() for loc in o.sources]
    phrases += [loc.phrase for s in mcr_ruleset.win.shapes for loc in s.sources]
    missing = [p for p in phrases if p not in text]
    assert not missing


def test_every_statement_is_modeled_or_says_why_not(mcr_ruleset):
    for st in mcr_ruleset.statements:
        assert st.rules or (st.status == "not-modeled" and st.why), st.id
    ids = mcr_ruleset.rule_ids()
    named = {r for st in mcr_ruleset.statements for r in st.rules}
    assert {f"fan.{p.id}" for p in mcr_ruleset.patterns} <= named  # every fan traced to a statement
    assert {f"option.{o}" for o in mcr_ruleset.options} <= named
    assert {r for r in named if r.startswith(("fan.", "option.", "shape."))} <= ids


# ---------------------------------------------------------------------------- a spec is data

def edited_copy(tmp_path: Path, edit) -> Path:
    data = yaml.safe_load((spec_dir() / "mcr.yaml").read_text(encoding="utf-8"))
    edit(data)
    path = tmp_path / "mcr-edited.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def pattern(data, pid):
    return next(p for p in data["patterns"] if p["id"] == pid)


def test_changing_a_fans_points_in_yaml_changes_the_score(tmp_path):
    # Mixed triple chow raised from 8 to 10 in YAML only: the guide's 11-point hand becomes 10 + 2 + 1 = 13.
    path = edited_copy(tmp_path, lambda d: pattern(d, "mixed_triple_chow").update(points=10))
    s = Scorer(load_ruleset_file(path)).score(hand("2p3p4p2s3s4s6m6m6m5p", win="5p", melds=["chow:234m"]))
    assert s.total == 13


def test_changing_an_exclusion_in_yaml_changes_the_score(tmp_path):
    # Dropping Self drawn from what Fully concealed hand includes: the 79-point hand gains Self drawn: 80.
    path = edited_copy(tmp_path, lambda d: pattern(d, "fully_concealed_hand").pop("implies"))
    s = Scorer(load_ruleset_file(path)).score(hand("1m1m1m2m2m2m3p3p3p4s4s4s5m", win="5m"))
    assert s.total == 80


def test_withheld_fans_withhold_in_yaml_keeps_out_what_a_withheld_fan_names(tmp_path):
    # Three kongs (one melded 2s, concealed 8p and 3s) + 4p5p on 6p + 1z pair, won on a discard: Three kongs 32
    # keeps Two concealed kongs from its own sets, so Two concealed pungs (the two concealed kongs) counts 2, and
    # One voided suit 1: 35. When a withheld fan still withholds, Two concealed kongs keeps Two concealed pungs
    # out (it implies it): 33.
    melds = ["kong:2s2s2s2s@1", "concealed_kong:8p8p8p8p", "concealed_kong:3s3s3s3s"]
    three_kongs = hand("4p5p1z1z", win="6p", melds=melds, discard=2)
    assert Scorer(load_ruleset("mcr")).score(three_kongs).total == 35
    path = edited_copy(tmp_path, lambda d: d["principles"].update(withheld_fans_withhold={"applies": True}))
    assert Scorer(load_ruleset_file(path)).score(three_kongs).total == 33


def test_last_tile_read_only_from_its_flag(tmp_path):
    # 2m3m 8m8m8m 9p9p 9s9s9s + a melded pung of 1m, self-drawing the fourth 1m with the last_tile flag: Last tile
    # draw 8, Last tile 4 (the other three 1m lie in the winner's own melded pung), Tile hog 2, Two concealed pungs
    # 2, Pung of terminals or honors 1 x 2 (1m, 9s), No honors 1: 19. With Last tile decided by its flag alone
    # (own_melds false), 15.
    last_copy = hand("2m3m8m8m8m9p9p9s9s9s", win="1m", melds=["pung:1m1m1m@2"], flags=("last_tile",))
    assert Scorer(load_ruleset("mcr")).score(last_copy).total == 19
    path = edited_copy(tmp_path, lambda d: pattern(d, "last_tile")["when"]["params"].update(own_melds=False))
    assert Scorer(load_ruleset_file(path)).score(last_copy).total == 15


def test_changing_the_minimum_in_yaml_changes_which_hands_win(tmp_path):
    # With a 6-point minimum the 7-point hand of test_examples may win.
    path = edited_copy(tmp_path, lambda d: d["win"].update(minimum_points=6))
    s = Scorer(load_ruleset_file(path)).score(hand("9m9m5z5z", win="9m", melds=["pung:222m", "pung:555p", "pung:888s"],
                                              discard=2))
    assert s.valid and s.total == 7


# ---------------------------------------------------------------------------- validation messages

def issues_of(path: Path) -> list:
    with pytest.raises(SpecError) as info:
        load_ruleset_file(path)
    return list(info.value.issues)


def test_unknown_predicate_is_named_with_pointer_and_line(tmp_path):
    path = edited_copy(tmp_path, lambda d: pattern(d, "all_green")["when"].update(predicate="all_greenish"))
    (issue,) = issues_of(path)
    assert issue.pointer == "/patterns/2/when/predicate"
    assert "unknown predicate 'all_greenish'" in issue.reason
    assert issue.line and "all_greenish" in path.read_text().splitlines()[issue.line - 1]


def test_unknown_fan_in_an_exclusion_is_an_error(tmp_path):
    path = edited_copy(tmp_path, lambda d: pattern(d, "full_flush")["excludes"].append("no_honours"))
    (issue,) = issues_of(path)
    assert issue.pointer.endswith("/excludes/1") and "unknown pattern 'no_honours'" in issue.reason


def test_unknown_option_is_an_error(tmp_path):
    path = edited_copy(tmp_path, lambda d: pattern(d, "tile_hog")["when"]["params"].update(honors={"option": "nope"}))
    (issue,) = issues_of(path)
    assert "unknown option 'nope'" in issue.reason


def test_unknown_predicate_parameter_is_an_error(tmp_path):
    path = edited_copy(tmp_path, lambda d: pattern(d, "full_flush")["when"]["params"].update(colour="red"))
    (issue,) = issues_of(path)
    assert "takes no parameter 'colour'" in issue.reason


def test_bad_parameter_value_is_an_error(tmp_path):
    path = edited_copy(tmp_path, lambda d: pattern(d, "full_flush")["when"]["params"].update(honors="maybe"))
    (issue,) = issues_of(path)
    assert "full_flush" in issue.reason and "'maybe'" in issue.reason


def test_bad_parameter_value_names_the_pattern_in_the_pointer(tmp_path):
    def edit(d):
        pattern(d, "full_flush")["when"]["params"].update(honors="maybe")
        return d
    path = edited_copy(tmp_path, edit)
    index = [p["id"] for p in yaml.safe_load(path.read_text(encoding="utf-8"))["patterns"]].index("full_flush")
    (issue,) = issues_of(path)
    assert issue.pointer == f"/patterns/{index}/when/params/honors"


def hand_check(data, cid):
    return next(c for c in data["hand_checks"] if c["id"] == cid)


def test_unknown_hand_check_parameter_is_an_error(tmp_path):
    path = edited_copy(tmp_path, lambda d: hand_check(d, "context.kong_replacement")["params"].update(sort="kong"))
    (issue,) = issues_of(path)
    assert issue.pointer.endswith("/params/sort") and "takes no parameter 'sort'" in issue.reason


def test_missing_hand_check_parameter_is_an_error_not_a_crash(tmp_path):
    # flag_needs_meld is about a flag: without `flag` it could not run at all.
    path = edited_copy(tmp_path, lambda d: hand_check(d, "context.kong_replacement")["params"].pop("flag"))
    (issue,) = issues_of(path)
    assert issue.pointer.startswith("/hand_checks/") and "needs parameter(s) flag" in issue.reason


def test_schema_violation_names_the_pointer(tmp_path):
    path = edited_copy(tmp_path, lambda d: pattern(d, "seat_wind").update(points="two"))
    (issue,) = issues_of(path)
    assert issue.pointer.endswith("/points")


def test_statement_naming_an_unknown_rule_is_an_error(tmp_path):
    path = edited_copy(tmp_path, lambda d: d["statements"][0].update(rules=["fan.dragon_kong"]))
    (issue,) = issues_of(path)
    assert issue.pointer == "/statements/0/rules/0" and "fan.dragon_kong" in issue.reason


# Rule ids of every kind a statement may name, each dangling in shanghai-knocking (which has no principles,
# no contract, no minimum points and no such entries) and each defined there.
DANGLING = {
    "pattern": "fan.flowers", "option": "option.no_such_option", "shape": "shape.seven_pairs",
    "scoring step": "scoring.no_such_step", "hand check": "context.robbing_added_kong",
    "counter": "procedure.contract_seat", "principle": "principle.non_repeat", "settlement": "settlement.contract",
    "procedure": "procedure.no_such_entry", "win": "win.minimum_points", "tiles": "tiles.no_such_rule",
    "no namespace": "knocking",
}
DEFINED = {
    "pattern": "fan.flower", "option": "option.fig_then_doubled", "shape": "shape.regular",
    "hand check": "context.kong_replacement_drawn", "settlement": "settlement.robbing_kong",
    "procedure": "procedure.dead_wall", "win": "win.knocked", "tiles": "tiles.dragons_as_flowers",
    "engine": "tiles.hand_size",
}


def knocking_with_statement_rules(tmp_path: Path, rules: list[str]) -> Path:
    data = yaml.safe_load((spec_dir() / "shanghai-knocking.yaml").read_text(encoding="utf-8"))
    data["statements"][0]["rules"] = rules
    path = tmp_path / "knocking-rules.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def test_every_kind_of_dangling_rule_id_is_refused(tmp_path):
    path = knocking_with_statement_rules(tmp_path, list(DANGLING.values()))
    found = {issue.pointer: issue.reason for issue in issues_of(path)}
    for j, (kind, rule) in enumerate(DANGLING.items()):
        assert f"/statements/0/rules/{j}" in found, (kind, rule)
        assert repr(rule) in found[f"/statements/0/rules/{j}"]
    assert "did you mean 'fan.flower'" in found["/statements/0/rules/0"]


def test_every_kind_of_defined_rule_id_is_accepted(tmp_path):
    ruleset = load_ruleset_file(knocking_with_statement_rules(tmp_path, list(DEFINED.values())))
    assert set(DEFINED.values()) <= ruleset.rule_ids()
    assert ruleset.rules["settlement.robbing_kong"] == "/settlement/robbing_kong"


@pytest.mark.parametrize("ruleset_id", ["mcr", "shanghai-knocking", "shanghai-classic"])
def test_every_rule_id_in_every_shipped_spec_resolves(ruleset_id):
    ruleset = load_ruleset(ruleset_id)
    named = {rule for st in ruleset.statements for rule in st.rules}
    assert named <= ruleset.rule_ids(), sorted(named - ruleset.rule_ids())


@pytest.mark.parametrize("libyaml", [True, False])
def test_aliases_and_anchors_are_refused_by_either_loader(tmp_path, monkeypatch, libyaml):
    # libyaml's loader where PyYAML has it (its tokens read first for anchors and aliases), else the pure
    # Python one that refuses them while composing: the same refusals, on the same lines
    from checker import spec

    monkeypatch.setattr(spec, "_LIBYAML", libyaml)
    for text, what, line in (("a: &x [1, 2]\nb: *x\n", "anchors", 1), ("a: [1, 2]\nb: &y 3\n", "anchors", 2)):
        path = tmp_path / "bomb.yaml"
        path.write_text(text)
        (issue,) = issues_of(path)
        assert f"{what} are not allowed" in issue.reason and issue.line == line, issue
    deep = tmp_path / "deep.yaml"
    deep.write_text("id: " + "[" * 1500 + "]" * 1500 + "\n")
    (issue,) = issues_of(deep)
    assert "nested too deeply" in issue.reason


_YAML_BITS = ["&", "*", "&", "*", "a", "1", "-", "\u00e9", " ", "\t", "\n", "[", "]", "{", "}", ",", ": ", "- ", "'",
              '"', "#", "|", "!", "a: "]


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(_YAML_BITS), max_size=12).map("".join))
@example("a: &x [1, 2]\nb: *x\n")
@example("[&\u00e9 1, *\u00e9]")
@example("- &- 1\n- *-\n")
def test_a_text_without_an_anchors_mark_has_no_anchor_or_alias(text):
    # The libyaml loader skips reading the tokens of a text where no & or * is followed at once by a
    # character of a name (spec._MAYBE_ANCHOR): it must never skip a text whose tokens hold one.
    import yaml

    from checker import spec

    try:
        marked = any(isinstance(t, (yaml.AnchorToken, yaml.AliasToken)) for t in yaml.scan(text, Loader=yaml.SafeLoader))
    except yaml.YAMLError:
        marked = False  # a scanner error may come before any token; the loader then refuses the text anyway
    if marked:
        assert spec._MAYBE_ANCHOR.search(text) is not None, text


def test_both_loaders_read_the_shipped_specs_alike(monkeypatch):
    from checker import spec

    monkeypatch.setenv("MJCHECK_CACHE_DIR", "off")  # each read parses
    for ruleset_id in ("mcr", "shanghai-knocking", "shanghai-classic"):
        read = []
        for libyaml in (True, False):
            monkeypatch.setattr(spec, "_LIBYAML", libyaml)
            data, lines = spec.read_yaml(spec.ruleset_path(ruleset_id))
            read.append((data, lines.by_pointer, lines.line("/patterns/3/points")))
        assert read[0] == read[1] and read[0][2]


def test_invalid_yaml_names_the_line(tmp_path):
    path = tmp_path / "broken.yaml"
    path.write_text("id: mcr\npatterns: [\n")
    (issue,) = issues_of(path)
    assert "invalid YAML" in issue.reason and issue.line


def test_unknown_ruleset_lists_the_known_ones():
    with pytest.raises(SpecError, match="known rulesets: .*mcr"):
        load_ruleset("mahjong-soul")


@pytest.mark.parametrize("ruleset_id", ["mcr", "shanghai-knocking", "shanghai-classic"])
def test_every_option_has_a_test_that_names_it(ruleset_id):
    # Each option's readings must part in some test; at least, some test must choose the option by name.
    texts = "".join(p.read_text(encoding="utf-8") for p in Path(__file__).parent.glob("test_*.py"))
    ruleset = load_ruleset(ruleset_id)
    untested = [o for o in ruleset.options if f'"{o}"' not in texts and f"{o}=" not in texts]
    assert not untested


@pytest.mark.parametrize("ruleset_id", ["shanghai-knocking", "shanghai-classic"])
def test_shanghai_locators_are_in_their_sources(ruleset_id):
    ruleset = load_ruleset(ruleset_id)
    doc = ruleset.sources[0]["doc"]
    path = SEEDS / doc
    if not path.is_file():
        pytest.skip("source documents not beside this checkout")
    text = path.read_text(encoding="utf-8")
    phrases = [s.phrase for s in ruleset.statements] + [loc.phrase for p in ruleset.patterns for loc in p.sources]
    phrases += [loc.phrase for o in ruleset.options.values() for loc in o.sources if loc.doc == doc]
    assert [p for p in phrases if p not in text] == []
    for st in ruleset.statements:
        assert st.rules or (st.status == "not-modeled" and st.why), st.id


def test_a_settlement_without_discard_payers_is_refused_at_load(tmp_path):
    # The engine needs to know who pays for a self-drawn and a discard win; the schema says so at load time,
    # rather than scoring failing later.
    path = edited_copy(tmp_path, lambda d: d["settlement"].pop("discard"))
    (issue,) = issues_of(path)
    assert issue.pointer == "/settlement" and "'discard' is a required property" in issue.reason


def test_an_options_other_values_are_told_apart_by_type():
    # values compared by value and type: an option of [1, true] read at its default 1 still offers true
    from checker.spec import Option

    option = Option("o", (1, True, "one"), 1, {}, ())
    assert option.other_values() == [True, "one"]
    assert option.other_values(True) == [1, "one"]


def test_a_counted_exclusion_withholds_that_many_instances_and_a_count_below_one_is_refused(tmp_path):
    # Little four winds (three wind pungs and the fourth wind's pair) withholds Pung of terminals or honors whole;
    # with count 2 under the default reading of an option it withholds two of the three wind pungs: one counts.
    # The pungs are of S, W, N (the East pair is the seat and prevalent wind: no other fan withholds them).
    def counted(n):
        def edit(d):
            pattern(d, "little_four_winds")["excludes_if"] = [
                {"if": {"option": "tile_hog_honors", "is": False}, "excludes": ["pung_of_terminals_or_honors"],
                 "count": n}]
        return edit

    scorer = Scorer(load_ruleset_file(edited_copy(tmp_path, counted(2))))
    hand = scorer.build_hand(concealed="2z2z2z3z3z3z4z4z4z1z1z5m6m", win_tile="7m")
    lines = {f.id: f.count for f in scorer.score(hand).fans}
    assert lines.get("pung_of_terminals_or_honors") == 1 and "little_four_winds" in lines
    plain = Scorer(load_ruleset("mcr"))
    assert "pung_of_terminals_or_honors" not in {f.id for f in plain.score(plain.build_hand(
        concealed="2z2z2z3z3z3z4z4z4z1z1z5m6m", win_tile="7m")).fans}
    assert "/count" in " ".join(i.pointer for i in issues_of(edited_copy(tmp_path, counted(0))))


def test_a_role_named_two_ways_is_refused(tmp_path):
    # classic's contract partner is the counter contract_with, in the settlement (partner_counter) and in the
    # table's facts (table_context contract_partner). A spec that names the partner by another counter in one of
    # the two sections validates no more: a role has one name (issue: rules bound by role).
    import yaml as _yaml

    from checker.engine import load_ruleset_file as load_with_engine

    data = _yaml.safe_load((Path(__file__).resolve().parents[1] / "spec" / "shanghai-classic.yaml")
                           .read_text(encoding="utf-8"))
    assert data["settlement"]["contract"]["partner_counter"] == data["table_context"]["contract_partner"]
    data["counters"]["partner_seat"] = dict(data["counters"]["contract_with"])
    data["settlement"]["contract"]["partner_counter"] = "partner_seat"
    path = tmp_path / "shanghai-classic.yaml"
    path.write_text(_yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    with pytest.raises(SpecError) as info:
        load_with_engine(path)
    (issue,) = info.value.issues
    assert issue.pointer == "/settlement/contract/partner_counter" and "a role has one name" in issue.reason
