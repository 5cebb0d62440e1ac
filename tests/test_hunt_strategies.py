"""checker.hunt.strategies: every drawn hand is legal and builds under its ruleset, every shape strategy draws
a winning shape, cases pass the schema, options are declared values, and shrinking ends on plain hands."""
from __future__ import annotations

from collections import Counter
from typing import Any, Mapping

import pytest
from hypothesis import HealthCheck, find, given, settings
from hypothesis import strategies as st

from checker import tiles as T
from checker.case import CaseRunner, case_problem, hand_from_input
from checker.engine import parse_meld
from checker.hunt import strategies as S

RULESETS = ("mcr", "shanghai-knocking", "shanghai-classic")
DRAGONS = {31, 32, 33}
FEW = settings(max_examples=50, deadline=None, database=None)
SOME = settings(max_examples=150, deadline=None, database=None)

# shape predicate -> the strategy drawing it (ruleset id, options)
SHAPE_STRATEGIES = {
    "regular": lambda r, o=None: S.regular_inputs(r, options=o),
    "seven_pairs": lambda r, o=None: S.seven_pairs_inputs(r, o),
    "thirteen_orphans": lambda r, o=None: S.thirteen_orphans_inputs(r, o),
    "knitted_straight": lambda r, o=None: S.knitted_straight_inputs(r, options=o),
    "honors_and_knitted": lambda r, o=None: S.honors_and_knitted_inputs(r, o),
    "tiles_of_one_class": lambda r, o=None: S.one_class_inputs(r, options=o),
    "declared_flowers": lambda r, o=None: S.declared_flowers_inputs(r, o),
}
RUNNER = CaseRunner()  # loads each ruleset once and keeps a scorer per options


def load_ruleset(ruleset_id: str):
    return RUNNER.ruleset(ruleset_id)


LISTED = [(r, shape.when.name) for r in RULESETS for shape in load_ruleset(r).win.shapes]


def scorer(ruleset_id: str, options: Mapping[str, Any] | None = None):
    return RUNNER.scorer(ruleset_id, options)


def held_tiles(data: Mapping[str, Any]) -> list[int]:
    """Every tile of the hand: concealed, winning tile, melds (not flowers)."""
    out = T.parse_tiles(data["concealed"]) + T.parse_tiles(data["win_tile"])
    for m in data.get("melds") or []:
        out += T.parse_tiles(m["tiles"])
    return out


def assert_legal(data: Mapping[str, Any], ruleset_id: str) -> None:
    """The hand's own rules, checked apart from the engine: four copies, size, flowers, melds."""
    rs = load_ruleset(ruleset_id)
    flowers = T.parse_tiles(data.get("flowers") or "")
    tiles = held_tiles(data)
    counts = Counter(tiles + flowers)
    assert max(counts.values()) <= 4, data
    assert all(counts[f] <= 1 for f in range(34, 42)), data
    assert not any(T.is_flower(t) for t in tiles), data
    if rs.tiles.get("dragons_as_flowers"):
        assert not DRAGONS & set(tiles), data
    else:
        assert not DRAGONS & set(flowers), data
    melds = data.get("melds") or []
    closed = len(T.parse_tiles(data["concealed"])) + 1
    assert closed == 14 - 3 * len(melds), data
    for m in melds:
        assert m["type"] != "chow" or T.is_suited(T.parse_tiles(m["tiles"])[0]), m
        if m.get("concealed"):
            assert m["type"] == "kong" and m.get("from") is None, m
        else:
            assert m.get("from") in (1, 2, 3), m
        if m["type"] == "chow":
            assert m["from"] == 3, m  # every shipped ruleset's chow_from check
    assert set(data.get("flags") or {}) <= set(rs.flags), data
    for name, value in (data.get("counters") or {}).items():
        counter = rs.counters[name]
        assert counter.min <= value <= counter.max, data
    assert (data.get("discarder") is None) == (data.get("win_by", "self_draw") == "self_draw"), data


# --------------------------------------------------------------------------- tiles, flowers, melds

@pytest.mark.parametrize("ruleset_id", RULESETS)
@FEW
@given(data=st.data())
def test_tiles_and_flowers_are_legal(ruleset_id, data):
    tile = data.draw(S.tiles(ruleset_id))
    assert 0 <= tile < 34
    shown = data.draw(S.flowers(ruleset_id))
    assert list(shown) == sorted(shown)
    counts = Counter(shown)
    knocking = load_ruleset(ruleset_id).tiles.get("dragons_as_flowers")
    assert not knocking or tile not in DRAGONS
    for t, n in counts.items():
        assert T.is_flower(t) or (knocking and t in DRAGONS)
        assert n <= (4 if t in DRAGONS else 1)


@pytest.mark.parametrize("size", [0, 1, 13, 14])
@FEW
@given(data=st.data())
def test_concealed_hands_are_legal_multisets(size, data):
    hand = data.draw(S.concealed_hands(size))
    assert len(hand) == size and list(hand) == sorted(hand)
    assert all(0 <= t < 34 for t in hand)
    assert max(Counter(hand).values(), default=0) <= 4
    knocking = data.draw(S.concealed_hands(size, "shanghai-knocking"))
    assert not DRAGONS & set(knocking)


def test_impossible_sizes_are_refused():
    with pytest.raises(ValueError):
        S.concealed_hands(137)
    with pytest.raises(ValueError):
        S.melds(5)


@SOME
@given(S.melds())
def test_melds_are_valid_and_keep_four_copies(drawn):
    assert len(drawn) <= 4
    tiles = []
    for m in drawn:
        meld = parse_meld(m["type"], m["tiles"], bool(m.get("concealed", False)), m.get("from"))  # HandError if not
        assert m["type"] != "chow" or m["from"] == 3
        tiles += meld.tiles
    assert max(Counter(tiles).values(), default=0) <= 4


# --------------------------------------------------------------------------- complete hands

@pytest.mark.parametrize("ruleset_id", RULESETS)
@SOME
@given(data=st.data())
def test_winning_inputs_with_context_build_win_and_make_cases(ruleset_id, data):
    drawn = data.draw(S.with_context(S.winning_inputs(ruleset_id), ruleset_id))
    assert_legal(drawn, ruleset_id)
    hand = hand_from_input(drawn, scorer(ruleset_id))  # no HandError
    result = scorer(ruleset_id).score(hand)
    assert result.error != "win.shape", (drawn, result.message)
    case = S.to_case(drawn, ruleset_id, data.draw(S.option_assignments(ruleset_id)))
    assert case_problem(case) is None
    assert case["kind"] == "score" and case["ruleset"] == ruleset_id


@pytest.mark.parametrize(("ruleset_id", "predicate"), LISTED)
@FEW
@given(data=st.data())
def test_each_shape_strategy_draws_that_winning_shape(ruleset_id, predicate, data):
    drawn = data.draw(SHAPE_STRATEGIES[predicate](ruleset_id))
    assert_legal(drawn, ruleset_id)
    result = scorer(ruleset_id).score(hand_from_input(drawn, scorer(ruleset_id)))
    assert result.error != "win.shape", (drawn, result.message)


@pytest.mark.parametrize(("ruleset_id", "options", "predicate"), [
    ("mcr", {"seven_pairs_four_identical": False}, "seven_pairs"),
    ("shanghai-classic", {"feng_tiles": "winds"}, "tiles_of_one_class"),
])
@FEW
@given(data=st.data())
def test_shape_strategies_follow_the_options_of_their_shape(ruleset_id, options, predicate, data):
    drawn = data.draw(SHAPE_STRATEGIES[predicate](ruleset_id, options))
    result = scorer(ruleset_id, options).score(hand_from_input(drawn, scorer(ruleset_id, options)))
    assert result.error != "win.shape", (drawn, result.message)


@pytest.mark.parametrize("ruleset_id", RULESETS)
@FEW
@given(data=st.data())
def test_regular_hands_build_under_every_ruleset_that_plays_their_tiles(ruleset_id, data):
    # a knocking hand holds no dragon, so it is legal everywhere; others are legal under MCR and classic
    drawn = data.draw(S.with_context(S.regular_inputs(ruleset_id, max_melds=2), ruleset_id))
    targets = RULESETS if ruleset_id == "shanghai-knocking" else ("mcr", "shanghai-classic")
    plain = {k: v for k, v in drawn.items() if k not in ("flowers", "flags", "counters")}
    for other in targets:
        hand_from_input(plain, scorer(other))


def test_shapes_a_ruleset_cannot_hold_are_refused():
    with pytest.raises(ValueError, match="dragons"):
        S.thirteen_orphans_inputs("shanghai-knocking")
    with pytest.raises(ValueError, match="honours"):
        S.honors_and_knitted_inputs("shanghai-knocking")
    with pytest.raises(ValueError):
        S.declared_flowers_inputs("mcr")
    with pytest.raises(ValueError):
        S.knitted_straight_inputs("mcr", max_melds=2)


# --------------------------------------------------------------------------- contexts

@pytest.mark.parametrize("ruleset_id", RULESETS)
@SOME
@given(data=st.data())
def test_contexts_fit_the_ruleset_and_the_hand(ruleset_id, data):
    ctx = data.draw(S.contexts(ruleset_id))
    rs = load_ruleset(ruleset_id)
    assert set(ctx["flags"]) <= set(rs.flags) and all(v is True for v in ctx["flags"].values())
    for name, value in ctx["counters"].items():
        assert rs.counters[name].min <= value <= rs.counters[name].max
    # a hand with one pung (no kong) holding its winning tile twice: no kong replacement, no robbed kong
    hand = {"concealed": "1m2m3m4m5m6m7m8m9m1p", "win_tile": "1p",
            "melds": [{"type": "pung", "tiles": "1z1z1z", "from": 1}]}
    fitted = data.draw(S.contexts(ruleset_id, hand))
    assert fitted["win_by"] != "robbing_kong"
    assert "kong_replacement" not in fitted["flags"]
    hand_from_input({**hand, **fitted}, scorer(ruleset_id))


@FEW
@given(S.with_context(S.declared_flowers_inputs("shanghai-classic").map(lambda d: {**d, "counters": {"huangfan": 3}}),
                      "shanghai-classic"))
def test_with_context_keeps_the_hands_own_flowers_flags_and_counters(drawn):
    assert drawn["flowers"] == "1f2f3f4f5f6f7f8f" and drawn["flags"]["eight_flowers_win"] is True
    assert drawn["counters"]["huangfan"] == 3
    assert list(drawn)[:3] == ["concealed", "melds", "win_tile"]


def test_kong_replacement_only_with_a_kong_and_a_self_draw():
    seen = find(S.with_context(S.regular_inputs("mcr"), "mcr"), lambda d: "kong_replacement" in d["flags"],
                settings=settings(max_examples=2000, database=None))
    assert seen["win_by"] == "self_draw" and any(m["type"] == "kong" for m in seen["melds"])


def test_with_context_names_a_hand_refused_for_its_tiles():
    broken = st.just({"concealed": "1m1m1m1m1m", "win_tile": "1m", "melds": []})
    with pytest.raises(ValueError, match="tiles"):
        find(S.with_context(broken, "mcr"), lambda d: True, settings=settings(database=None))


# --------------------------------------------------------------------------- shrinking

def test_the_minimal_regular_input_is_small_and_plain():
    minimal = find(S.regular_inputs("mcr"), lambda d: True, settings=settings(database=None))
    assert minimal["melds"] == []
    assert minimal["win_by"] == "self_draw" and "discarder" not in minimal
    assert minimal["seat_wind"] == minimal["round_wind"] == "E"
    assert not minimal["flowers"] and not minimal["flags"] and not minimal["counters"]
    assert max(held_tiles(minimal)) <= T.parse_tile("5m")  # low tiles of one suit
    hand_from_input(minimal, scorer("mcr"))


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_the_minimal_hand_with_context_is_a_plain_regular_hand(ruleset_id):
    minimal = find(S.with_context(S.winning_inputs(ruleset_id), ruleset_id), lambda d: True,
                   settings=settings(database=None))
    assert minimal["melds"] == [] and len(minimal["concealed"]) == 26  # 13 tiles, four sets and a pair
    assert minimal["win_by"] == "self_draw" and minimal["seat_wind"] == minimal["round_wind"] == "E"
    assert minimal["flowers"] == "" and minimal["flags"] == {} and minimal["counters"] == {}


def test_a_hand_with_a_meld_shrinks_to_one_chow():
    minimal = find(S.regular_inputs("mcr"), lambda d: len(d["melds"]) >= 1, settings=settings(database=None))
    assert minimal["melds"] == [{"type": "chow", "tiles": "1m2m3m", "from": 3}]


# --------------------------------------------------------------------------- options and cases

@pytest.mark.parametrize("ruleset_id", RULESETS)
@pytest.mark.parametrize("scoring_only", [True, False])
@FEW
@given(data=st.data())
def test_option_assignments_give_declared_values(ruleset_id, scoring_only, data):
    rs = load_ruleset(ruleset_id)
    chosen = data.draw(S.option_assignments(ruleset_id, scoring_only))
    wanted = rs.scoring_options() if scoring_only else rs.options
    assert set(chosen) == set(wanted)
    for oid, value in chosen.items():
        assert any(value == v and type(value) is type(v) for v in rs.options[oid].values), (oid, value)
    scorer(ruleset_id, {k: v for k, v in chosen.items() if k in rs.scoring_options()})  # binds


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_option_assignments_shrink_to_the_defaults(ruleset_id):
    rs = load_ruleset(ruleset_id)
    minimal = find(S.option_assignments(ruleset_id, scoring_only=False), lambda d: True,
                   settings=settings(database=None))
    assert minimal == {oid: o.default for oid, o in rs.options.items()}


def test_to_case_refuses_what_the_schema_refuses():
    with pytest.raises(ValueError, match="not a valid case"):
        S.to_case({"concealed": 5, "win_tile": "1m"}, "mcr")
    case = S.to_case({"concealed": "1m1m1m2m2m2m2m3m3m3m3m4m4m", "win_tile": "1m"}, "mcr")
    assert case == {"ruleset": "mcr", "options": {}, "kind": "score",
                    "input": {"concealed": "1m1m1m2m2m2m2m3m3m3m3m4m4m", "win_tile": "1m"}}


def test_unknown_ruleset_is_refused():
    with pytest.raises(ValueError):
        S.regular_inputs("no-such-ruleset")
    with pytest.raises(ValueError):  # checker.case.CaseError
        S.option_assignments("no-such-ruleset")


@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_hands_of_play_are_legal_procedure_cases(data):
    # every ruleset: the drawn log replays as a legal procedure case; cut after a few events, as an unfinished
    # one (every event legal, the hand not over)
    from checker.hunt.strategies import hands_of_play

    ruleset_id = data.draw(st.sampled_from(["mcr", "shanghai-knocking", "shanghai-classic"]))
    cut = data.draw(st.sampled_from([None, 12]))
    played = data.draw(hands_of_play(ruleset_id, max_events=cut))
    case = {"id": "x", "ruleset": ruleset_id, "options": {}, "kind": "procedure", "input": played}
    verdict = CaseRunner().outcome(case).result["verdict"]
    assert verdict == "legal" if cut is None else verdict in ("unfinished", "legal")
    assert played["events"] and all("event" in e for e in played["events"])
