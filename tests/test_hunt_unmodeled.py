"""Sentences that price something and that the spec leaves out, found by the hunter (checker.hunt.unmodeled)."""
from __future__ import annotations

from dataclasses import replace

from checker.engine import load_ruleset
from checker.hunt.unmodeled import prices, unmodeled_price_findings
from checker.spec.model import Statement


def test_classic_lists_the_priced_sentences_it_sets_aside():
    """Classic sets aside, as platform rules, the penalty for leaving (罚分：一倍底分) and its split (其余3家玩家得分=罚分
    ×75%，系统得分=罚分×25%), and, as rules between hands, that 荒番 lapses when a player leaves (两 sentences): each
    moves money the document prices, so each is listed as decided by the spec."""
    found = {f.key: f for f in unmodeled_price_findings(load_ruleset("shanghai-classic"))}
    assert set(found) == {"decided.not-modeled.s-001-067", "decided.not-modeled.s-001-067a",
                          "decided.not-modeled.s-001-081", "decided.not-modeled.s-001-082"}
    penalty = found["decided.not-modeled.s-001-081"]
    assert penalty.kind == "decided" and "一倍" in penalty.title and "platform" in penalty.title
    assert [o["taken"] for o in penalty.outcomes] == [True, False]
    assert penalty.statements[0]["phrase"] == "罚分：一倍底分。"
    assert "×75%" in found["decided.not-modeled.s-001-082"].title
    assert "荒番" in found["decided.not-modeled.s-001-067"].title


def test_knocking_and_mcr_set_aside_no_priced_sentence():
    """MCR's not-modeled sentences are the page's own (step numbers, coin games without a number, what the
    calculator leaves out) and knocking's say 黄庄 is never priced: none prices anything."""
    assert unmodeled_price_findings(load_ruleset("mcr")) == []
    assert unmodeled_price_findings(load_ruleset("shanghai-knocking")) == []


def test_a_price_is_a_number_with_a_unit_or_a_scored_pattern_named():
    rs = load_ruleset("shanghai-classic")
    assert prices(rs, "the leaver pays 2 points to each") == ["2 points"]
    assert prices(rs, "罚分：一倍底分。") == ["一倍"]
    assert prices(rs, "加倍卡和比赛卡功能") == []  # a doubling card named, no price given
    assert prices(rs, "第一局系统随机选择庄家。") == []
    assert "荒番" in prices(rs, "一旦游戏的4人中有任意1人离开，则荒番失效")


def test_a_planted_priced_sentence_set_aside_is_found_and_one_without_a_price_is_not():
    rs = load_ruleset("mcr")
    priced = Statement("s-002-900", "002_3a615137eafec6e0.txt", "Coins", "A player who leaves pays 16 points.",
                       status="not-modeled", reason="platform", why="a conduct rule")
    plain = Statement("s-002-901", "002_3a615137eafec6e0.txt", "Coins", "Rooms open at noon.",
                      status="not-modeled", reason="platform", why="opening hours")
    found = unmodeled_price_findings(replace(rs, statements=(*rs.statements, priced, plain)))
    assert [f.key for f in found] == ["decided.not-modeled.s-002-900"]
    assert "16 points" in found[0].title and "a conduct rule" in found[0].note
