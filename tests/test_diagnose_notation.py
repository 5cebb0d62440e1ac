"""How an engine writes its fans, learned from the run where its money agrees (checker.diagnose.notation)."""
from __future__ import annotations

from types import SimpleNamespace

from checker.diagnose.notation import Notation, learn


def _case(want_fans, got_fans, total, payments=(8, -8, 0, 0)):
    expect = {"valid": True, "total": total, "fans": want_fans, "payments": list(payments)}
    answer = {"valid": True, "total": total, "fans": got_fans, "payments": list(payments)}
    return SimpleNamespace(outcome="failed", ruleset="r", expected=expect, actual=answer)


def _fan(fan_id, points, count=1):
    return {"id": fan_id, "points": points, "count": count}


def _learn(cases, proves=lambda *a: True):
    return learn(cases, lambda ruleset, answer: answer, lambda ruleset: {"a", "b", "c", "flower"}, proves)


def test_two_points_that_make_up_for_each_other_are_not_units():
    """An MCR-like engine scores a at 1 (the spec: 2) and b at 2 (the spec: 1): on hands with both, the total is
    the same and both sides' points add up to it (2 + 1 = 1 + 2 = 3). The points are money there, so nothing is
    learned, although a re-scoring with a alone at 1 would pay otherwise (`proves` says so)."""
    cases = [_case([_fan("a", 2), _fan("b", 1)], [_fan("a", 1), _fan("b", 2)], 3) for _ in range(5)]
    assert not _learn(cases)


def test_points_that_do_not_add_up_are_units_once_proved():
    """A classic-like engine writes a 勒子 pattern as its value (a: 10 where the spec writes 1 勒, the total 10):
    the spec's points do not add up to its total, and the proof holds: a's points are not compared."""
    cases = [_case([_fan("a", 1), _fan("flower", 1)], [_fan("a", 10)], 10) for _ in range(3)]
    cases += [_case([_fan("flower", 1), _fan("c", 1)], [_fan("flower", 1), _fan("c", 1), _fan("b", 0)], 1)]
    learned = _learn(cases)
    assert set(learned.units("r")) == {"a"}
    assert not _learn(cases, proves=lambda *a: False).units("r")  # unproved (and nothing else proved): not units
    # flower: left out where the money agrees, and listed in another answer
    assert set(learned.omitted("r")) == {"flower"}
    want, got = learned.as_written("r", [_fan("a", 1), _fan("flower", 1)], [_fan("a", 10)])
    assert want == got == [{"id": "a", "points": None, "count": 1}]


def test_an_element_of_the_engines_own_beside_the_fans_does_not_hide_how_a_double_is_written():
    """A classic-like engine lists its 底分 as an element the spec has no pattern for, beside a double written as
    its factor 2 (the spec writes 1 double): 底分 2 + 花 0, times 2, is 4 on both sides (the spec's value of the
    hand, its 底分 within it), the money the same. The element stands in place of no spec pattern (nothing is
    missing), so it is set aside: how the double is written is learned. The element itself is no name and no
    unit (the class says it is outside the spec)."""
    cases = [_case([_fan("a", 1), _fan("c", 0)], [_fan("底分", 2), _fan("a", 2), _fan("c", 0)], 4) for _ in range(3)]
    learned = _learn(cases)
    assert set(learned.units("r")) == {"a"} and not learned.names
    # where a spec pattern is missing beside the element (not one it could be a name for: another count), the fans
    # differ otherwise: no units are read there
    replacing = [_case([_fan("a", 1), _fan("b", 1, 2)], [_fan("底分", 2), _fan("a", 2)], 4) for _ in range(3)]
    assert not _learn(replacing).units("r")


def test_a_name_standing_for_one_pattern_is_learned_and_one_for_a_listed_pattern_is_not():
    cases = [_case([_fan("a", 2)], [_fan("tanyao", 2)], 2) for _ in range(3)]
    assert _learn(cases).names == {"r": {"tanyao": "a"}}
    listed = cases + [SimpleNamespace(outcome="passed", ruleset="r", expected={}, actual={"valid": True,
                                                                                         "fans": [_fan("a", 2)]})]
    assert _learn(listed).names == {}  # the engine lists a under its own id elsewhere: tanyao is not a's name
    assert Notation().read("r", {"fans": [_fan("tanyao", 2)]}) == ({"fans": [_fan("tanyao", 2)]}, {})


def test_a_hand_of_plays_winners_teach_the_name_written_at_the_patterns_points():
    """Hands of play ending as the rules have them, with the rules' payments: the judge writes the base (going_out,
    1) as "going out" at 1, and on hands with no flower writes 无花果 at 10 where the base stands (and the flowers
    would). Both stand for the base alone; the name written at the base's points is its name, 无花果 is not."""
    from types import SimpleNamespace

    def play(fans_rules, fans_engine, total, payments):
        winner = {"seat": 0, "win_by": "self_draw", "total": total}
        return SimpleNamespace(
            outcome="failed", ruleset="shanghai-knocking", case=None,
            expected={"verdict": "legal", "ended": "win", "payments": payments,
                      "winners": [{**winner, "fans": fans_rules}]},
            actual={"verdict": "legal", "ended": "win", "payments": payments,
                    "winners": [{**winner, "fans": fans_engine}]})

    base = {"id": "going_out", "points": 1, "count": 1}
    wind = {"id": "wind_pung", "points": 1, "count": 1}
    runs = [play([base, wind, {"id": "flower", "points": 1, "count": n}],  # 1 + 1 + n hua, self-drawn: 3 pay each
                 [{"id": "going out", "points": 1, "count": 1}, wind, {"id": "flower", "points": 1, "count": n}],
                 2 + n, [3 * (2 + n), -(2 + n), -(2 + n), -(2 + n)]) for n in (1, 2, 3)]
    runs += [play([base, wind], [{"id": "无花果", "points": 10, "count": 1}, wind], 2, [6, -2, -2, -2])
             for _ in range(3)]  # (the payments are the rules' here only for the test's sake)
    learned = learn(runs, lambda rid, answer: answer, lambda rid: {"going_out", "wind_pung", "flower"})
    assert learned.names == {"shanghai-knocking": {"going out": "going_out"}}


def test_a_scoring_step_written_as_an_element_is_learned_from_the_documents_words():
    """Knocking's fig (scoring.fig: a hand with no hua beyond the base is worth 10 hua; the document: "instead a
    flat 10-hua fig (无花果)"): an engine lists 无花果 at 10 in place of the base (going_out, 1 hua) and the 0-hua
    suited pungs, with the rules' total and payments. A self-drawn fig is 10 from each of three (+30); with 门清
    (one double) 20 (+60). Learned as the step written as an element: where the engine lists it, it and the hua
    patterns it leaves out are not compared, and the 门清 beside it still is. 无花果 is no pattern's name."""
    from checker.diagnose.answers import known_patterns, step_items

    def case(want, got, total):
        paid = [3 * total, -total, -total, -total]
        return SimpleNamespace(outcome="failed", ruleset="shanghai-knocking", case=None,
                               expected={"valid": True, "total": total, "fans": want, "payments": paid},
                               actual={"valid": True, "total": total, "fans": got, "payments": paid})

    fig = _fan("无花果", 10)
    cases = [case([_fan("going_out", 1), _fan("suited_pung", 0, 2)], [fig], 10) for _ in range(3)]
    cases.append(case([_fan("going_out", 1), _fan("suited_pung", 0), _fan("men_qing", 1)],
                      [fig, _fan("men_qing", 1)], 20))
    learned = learn(cases, lambda rid, answer: answer, known_patterns, None, step_items)
    [(name, step)] = learned.stepped("shanghai-knocking").items()
    assert (name, step.rule, step.value, step.cases) == ("无花果", "scoring.fig", 10, 4)
    assert "going_out" in step.replaces and "men_qing" not in step.replaces  # the hua, not the doubles
    assert learned.names == {}  # no pattern's name
    want, got = learned.as_written("shanghai-knocking", cases[3].expected["fans"], cases[3].actual["fans"])
    assert want == got == [_fan("men_qing", 1)]
    # the same name at another number is not the step (the fig is 10), nor is a name the document does not use
    # for the step
    at_five = [case([_fan("going_out", 1)], [_fan("无花果", 5)], 10) for _ in range(3)]
    assert not learn(at_five, lambda rid, answer: answer, known_patterns, None, step_items).stepped("shanghai-knocking")
    other = [case([_fan("going_out", 1)], [_fan("flat ten", 10)], 10) for _ in range(3)]
    assert not learn(other, lambda rid, answer: answer, known_patterns, None, step_items).stepped("shanghai-knocking")


def test_the_cap_listed_as_an_element_at_the_total_is_learned_where_the_rules_cap_cut_the_value():
    """Classic (defaults: 1 勒 = 10 花 cap, 门清 raising it to 2 勒; 底分 2 paid beside the value): an engine lists the
    cap that cut a hand as 勒子 at the hand's total, the money the rules'. Worked by hand:
    - 5z5z5z 6z6z6z 7z7z7z 1m1m1m 2p2p self-drawn, concealed, flowers 1f-5f: 花 5 + 3 dragon pungs × 2 = 11, 门清
      doubles to 22, cap 2 勒 = 20: cut to 20; each of three pays 20 + 2 = 22;
    - the same with 7z7z7z exposed (from seat 2) won on seat 2's discard, flowers 2f-6f: 花 11, cap 1 勒 = 10: cut
      to 10; the discarder pays 10 + 2 = 12; with flowers 2f-7f: 花 12, cut to 10 again;
    - with flowers 2f3f4f: 花 9, under the cap: not cut (total 9, the discarder pays 11).
    Learned from three cut cases (勒子 in the document's sentences on the cap); where the rules' cap cut fewer than
    three of the cases listing it, or the engine lists it at another number than the total, it is not."""
    from checker.case import CaseRunner
    from checker.diagnose import Model, NotationProofs
    from checker.diagnose.answers import cap_items, known_patterns

    runner = CaseRunner()

    def case(concealed, flowers, exposed):
        data = {"concealed": concealed, "melds": [], "win_tile": "2p", "win_by": "self_draw", "seat_wind": "E",
                "round_wind": "E", "flowers": flowers, "flags": {"knocked": True}}
        if exposed:
            data.update(melds=[{"type": "pung", "tiles": "7z7z7z", "from": 2}], win_by="discard", discarder=2)
        return {"ruleset": "shanghai-classic", "kind": "score", "input": data}

    def judged(c, cap_points):
        expected = runner.run(c)
        listed = [] if cap_points is None else [_fan("勒子", cap_points, max(1, cap_points // 10))]
        return SimpleNamespace(outcome="failed", ruleset="shanghai-classic", case=c, expected=expected,
                               actual={**expected, "fans": [*expected["fans"], *listed]})

    concealed = case("5z5z5z6z6z6z7z7z7z1m1m1m2p", "1f2f3f4f5f", False)
    exposed = case("5z5z5z6z6z6z1m1m1m2p", "2f3f4f5f6f", True)
    six = case("5z5z5z6z6z6z1m1m1m2p", "2f3f4f5f6f7f", True)
    under = case("5z5z5z6z6z6z1m1m1m2p", "2f3f4f", True)
    assert [runner.run(c)["total"] for c in (concealed, exposed, six, under)] == [20, 10, 10, 9]
    assert [runner.run(c)["payments"] for c in (concealed, exposed)] == [[66, -22, -22, -22], [12, 0, -12, 0]]

    def learned(cases):
        return learn(cases, lambda rid, answer: answer, known_patterns, None, None, cap_items, NotationProofs(Model({})).cut_by)

    cut = [judged(concealed, 20), judged(exposed, 10), judged(six, 10)]
    found = learned(cut)
    assert {n: (c.rule, c.cases, c.cut, c.checked) for n, c in found.capped("shanghai-classic").items()} == \
        {"勒子": ("scoring.limit", 3, 3, 3)}
    assert found.names == {} and not found.omitted("shanghai-classic")  # no pattern's name, nothing left out
    answer = cut[1].actual
    want, got = found.as_written("shanghai-classic", cut[1].expected["fans"], answer["fans"], answer["total"])
    assert got == want == cut[1].expected["fans"]
    # listed beside a value the cap did not cut: two cut cases of three are too few
    assert not learned([judged(concealed, 20), judged(exposed, 10), judged(under, 9)]).capped("shanghai-classic")
    # listed at a number that is not the total
    assert not learned([*cut, judged(under, 10)]).capped("shanghai-classic")


def test_a_step_s_chinese_name_is_read_in_pinyin_in_the_forms_engines_write():
    """无花果 in the knocking document's sentence about the fig: `wu_hua_guo`, `wuhuaguo`, `Wu Hua Guo`, `WuHuaGuo`
    and `wu-hua-guo` are it; `hua` (one syllable, a flower's name too) and `fig_bonus` are not."""
    from checker.diagnose.romanized import in_pinyin

    words = "A hand with no hua beyond the base is instead a flat 10-hua fig (无花果)."
    for name in ("wu_hua_guo", "wuhuaguo", "Wu Hua Guo", "WuHuaGuo", "wu-hua-guo"):
        assert in_pinyin(name, words), name
    for name in ("hua", "fig_bonus", "wu_hua_guo_x", ""):
        assert not in_pinyin(name, words), name
