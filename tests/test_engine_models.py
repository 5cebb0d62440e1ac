"""What an engine models (issue: game engines under test): an engine's start reply (a python: engine's
MJCHECK_ENGINE) may list the result fields it answers and say that its rule ids are its own. `conform` then judges
each case on those fields alone, a refusal by its verdict (and, for a hand of play, its event), counts what it
left out (`not_compared`) and lists the pairs of rule ids apart (`rule_ids`). A departure in a declared field is
still a failure.

The engines are the reference engine with its answers cut to what a game judge answers (no next dealer, round
wind or 荒番 count; its own words for the rules a hand breaks). Every count asserted is counted from the corpus
file here, never read from the tool's output.
"""
from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from checker.cli import app
from checker.conform.compared import compared_expect, left_out, rule_pair

ROOT = Path(__file__).resolve().parents[1]
MCR_PLAY = ROOT / "corpus" / "mcr-procedure.jsonl"
KNOCKING = ROOT / "corpus" / "shanghai-knocking.jsonl"
cli = CliRunner()

JUDGE = '''
from checker.case import CaseRunner

REFERENCE = CaseRunner()
NEXT = ("next_dealer", "next_round_wind", "next_huangfan")
OWN_IDS = {"procedure.claims": "E_CLAIM", "procedure.turn": "E_TURN"}  # any other rule: E_OTHER

def _cut(result):
    result = {k: v for k, v in result.items() if k not in NEXT and k != "message"}
    if "rule" in result:
        result["rule"] = OWN_IDS.get(result["rule"], "E_OTHER")
    return result

def judge(case):
    """A game judge: no next dealer, its own rule ids."""
    return _cut(REFERENCE.run(case))

def judge_paying_the_winner_double(case):
    """The same judge, but a hand won pays the winner twice its due (a departure in a declared field)."""
    result = judge(case)
    if result.get("payments") and result.get("ended") == "win":
        result["payments"] = [2 * p for p in result["payments"]]
    return result
'''
DECLARES = '''
MJCHECK_ENGINE = {"fields": ["verdict", "event", "ended", "winners", "payments"], "rule_ids": "own"}
'''


@pytest.fixture
def judge_module(tmp_path, monkeypatch):
    """(a module that declares what it models, one that does not)."""
    (tmp_path / "declaring_judge.py").write_text(JUDGE + DECLARES, encoding="utf-8")
    (tmp_path / "silent_judge.py").write_text(JUDGE, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield "declaring_judge", "silent_judge"
    for name in ("declaring_judge", "silent_judge"):
        sys.modules.pop(name, None)


def _cases(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _summary(out: Path) -> dict:
    return json.loads((out / "summary.json").read_text(encoding="utf-8"))


def test_a_judge_that_declares_what_it_models_passes_on_what_it_answers(tmp_path, judge_module):
    declaring, _ = judge_module
    out = tmp_path / "out"
    r = cli.invoke(app, ["conform", "--corpus", str(MCR_PLAY), "--engine", f"python:{declaring}:judge",
                         "--out", str(out)])
    assert r.exit_code == 0, r.output
    summary = _summary(out)
    cases = _cases(MCR_PLAY)
    assert summary["counts"]["passed"] == len(cases) and summary["counts"]["failed"] == 0
    # what was left out, counted from the corpus: each field the cases expect that the judge does not answer
    want = Counter()
    for c in cases:
        want.update(f for f in ("next_dealer", "next_round_wind", "next_huangfan", "rule") if f in c["expect"])
    assert summary["not_compared"] == dict(want) and want["next_dealer"] > 0 and want["rule"] > 0
    # the rule ids: every illegal case pairs the spec's rule with the judge's word for it
    pairs = Counter((c["expect"]["rule"], {"procedure.claims": "E_CLAIM", "procedure.turn": "E_TURN"}
                     .get(c["expect"]["rule"], "E_OTHER")) for c in cases if c["expect"]["verdict"] == "illegal")
    assert {(p["spec"], p["engine"]): p["cases"] for p in summary["rule_ids"]} == dict(pairs)
    # E_OTHER stands for several of the spec's rules: marked ambiguous; E_CLAIM for one
    marks = {(p["spec"], p["engine"]): p.get("ambiguous", False) for p in summary["rule_ids"]}
    others = [k for k in marks if k[1] == "E_OTHER"]
    assert len(others) > 1 and all(marks[k] for k in others)
    assert not marks.get(("procedure.claims", "E_CLAIM"), False)
    report = (out / "report.md").read_text(encoding="utf-8")
    assert "## What the engine models" in report and "| `next_dealer` |" in report and "`E_CLAIM`" in report
    # what each case was judged on is derived from the case and the header's engine, never stored in a line (a
    # line sealed again by hand cannot narrow what its case is judged on)
    assert all('"compared"' not in line for line in (out / "results.jsonl").read_text(encoding="utf-8").splitlines())
    assert "not compared" in r.output  # the terminal says it too, not only the reports
    # the rebuilt reports are the same bytes
    before = {n: (out / n).read_bytes() for n in ("summary.json", "report.md", "junit.xml")}
    assert cli.invoke(app, ["report", str(out)]).exit_code == 0
    assert {n: (out / n).read_bytes() for n in before} == before


def test_the_same_judge_silent_about_what_it_models_fails_on_the_fields_it_leaves_out(tmp_path, judge_module):
    _, silent = judge_module
    out = tmp_path / "out"
    r = cli.invoke(app, ["conform", "--corpus", str(MCR_PLAY), "--engine", f"python:{silent}:judge",
                         "--out", str(out), "--no-diagnose"])
    assert r.exit_code == 1, r.output
    summary = _summary(out)
    # every case whose expectation names a next dealer or a rule fails (the judge answers neither the spec's way)
    failing = [c for c in _cases(MCR_PLAY) if {"next_dealer", "next_round_wind", "rule"} & set(c["expect"])]
    assert summary["counts"]["failed"] == len(failing) > 0
    assert "not_compared" not in summary and "rule_ids" not in summary


def test_a_departure_in_a_declared_field_still_fails(tmp_path, judge_module):
    declaring, _ = judge_module
    out = tmp_path / "out"
    r = cli.invoke(app, ["conform", "--corpus", str(MCR_PLAY), "--engine",
                         f"python:{declaring}:judge_paying_the_winner_double", "--out", str(out), "--no-diagnose"])
    assert r.exit_code == 1, r.output
    won = [c for c in _cases(MCR_PLAY) if c["expect"].get("ended") == "win" and any(c["expect"].get("payments", []))]
    assert _summary(out)["counts"]["failed"] == len(won) > 0


def test_a_start_reply_naming_a_field_that_is_none_is_refused(tmp_path, monkeypatch):
    (tmp_path / "odd_judge.py").write_text("MJCHECK_ENGINE = {'fields': ['verdict', 'next_dealr']}\n"
                                           "def judge(case):\n    return {}\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        r = cli.invoke(app, ["conform", "--corpus", str(MCR_PLAY), "--engine", "python:odd_judge:judge",
                             "--out", str(tmp_path / "out")])
    finally:
        sys.modules.pop("odd_judge", None)
    assert r.exit_code == 2 and "next_dealr" in r.output and "not a result field" in r.output, r.output


# ----------------------------------------------------------------------- the narrowing itself, by hand

def test_a_score_expectation_keeps_its_verdict_and_drops_what_is_not_declared():
    expect = {"valid": True, "total": 8, "fans": [{"id": "x", "points": 8, "count": 1}], "payments": [24, -8, -8, -8]}
    assert compared_expect(expect, "score", ["fans", "total"], False) == {"valid": True, "total": 8,
                                                                        "fans": expect["fans"]}
    assert compared_expect(expect, "score", None, False) is expect
    refusal = {"valid": False, "error": "win.minimum_points"}
    assert compared_expect(refusal, "score", None, True) == {"valid": False}
    assert left_out(refusal, {"valid": False}) == ["error"]
    assert rule_pair(refusal, {"valid": False, "error": "TOO_FEW"}, "score") == ("win.minimum_points", "TOO_FEW")
    assert rule_pair(refusal, {"valid": True, "total": 8}, "score") is None  # one side wins: no pair
    either = {"either": [expect, {**expect, "total": 9}]}
    assert compared_expect(either, "score", ["total"], False) == {"either": [{"valid": True, "total": 8},
                                                                             {"valid": True, "total": 9}]}


def test_a_play_expectation_keeps_verdict_event_and_each_winners_seat():
    expect = {"verdict": "legal", "ended": "win", "winners": [{"seat": 2, "win_by": "discard", "total": 9,
                                                               "fans": []}],
              "payments": [-9, 0, 9, 0], "next_dealer": 3}
    assert compared_expect(expect, "procedure", ["ended", "winners.total"], False) == \
        {"verdict": "legal", "ended": "win", "winners": [{"seat": 2, "total": 9}]}
    # in the expectation's order: the winner's fields left out as it is met, then the top-level ones
    assert left_out(expect, compared_expect(expect, "procedure", ["ended", "winners.total"], False)) == \
        ["winners.win_by", "winners.fans", "payments", "next_dealer"]
    illegal = {"verdict": "illegal", "event": 7, "rule": "procedure.claims"}
    assert compared_expect(illegal, "procedure", [], True) == {"verdict": "illegal", "event": 7}


# ----------------------------------------------------------------------- a judge's wall: four quarters

def test_hands_played_under_quarters_keep_each_seat_to_its_quarter_and_put_to_a_judge_pass(tmp_path, judge_module):
    # MCR's wall_model=quarters (per-seat walls, as game judges deal): 40 hands played by bots. The model, counted
    # from each hand's events alone: a seat takes its deal (14 for the dealer, 13 for the others) and every draw,
    # a turn's or a replacement, from its own 36 tiles, so no seat draws past its quarter; a hand that ends drawn
    # ends when the seat to draw next has taken all 36. The hands, as procedure cases with the wall given as its
    # four quarters and the reference's verdicts, are then put to the judge-like engine that declares what it
    # models: every case is expressible and passes.
    from checker.table.log import procedure_result
    from checker.table.simulate import play_hand
    from checker.table.wall import shuffled_wall
    from checker import tiles as T

    options = {"wall_model": "quarters"}
    corpus = tmp_path / "quarters.jsonl"
    drawn = 0
    with corpus.open("w", encoding="utf-8") as out:
        for i in range(40):
            hand = play_hand("mcr", 500 + i, ("random", "greedy", "random", "greedy"), options=options)
            taken = {s: (14 if s == 0 else 13) for s in range(4)}
            for ev in hand.events:
                if ev["event"] == "draw":
                    taken[ev["seat"]] += 1
            assert all(n <= 36 for n in taken.values()), (i, taken)
            if hand.events[-1]["event"] == "draw_game":
                drawn += 1
                last = next(e for e in reversed(hand.events) if e["event"] in ("discard", "draw"))
                to_draw = (last["seat"] + 1) % 4 if last["event"] == "discard" else last["seat"]
                assert taken[to_draw] == 36, (i, taken, to_draw)
            wall = T.format_tiles(shuffled_wall(500 + i))
            quarters = [wall[72 * q:72 * (q + 1)] for q in range(4)]  # 36 tiles of two characters each
            case = {"id": f"quarters-{i}", "ruleset": "mcr", "kind": "procedure", "options": options,
                    "input": {"wall": quarters, "dealer": 0, "events": hand.events}}
            expect = {k: v for k, v in procedure_result(case).items() if k != "message"}
            assert expect["verdict"] == "legal", (i, expect)
            out.write(json.dumps({**case, "expect": expect}, ensure_ascii=False) + "\n")
    assert drawn > 0  # some hands run a quarter dry
    declaring, _ = judge_module
    r = cli.invoke(app, ["conform", "--corpus", str(corpus), "--engine", f"python:{declaring}:judge",
                         "--out", str(tmp_path / "out"), "--no-diagnose"])
    assert r.exit_code == 0, r.output
    assert _summary(tmp_path / "out")["counts"]["passed"] == 40


def test_rule_id_pairs_past_the_bound_are_counted_not_dropped():
    # RuleMap keeps MAX_PAIRS distinct pairs; the cases of any further pair are one entry, so the table's counts
    # still add up to every refusal both sides gave (2 + MAX_PAIRS + 3 here, counted by hand)
    from checker.conform.compared import OTHER_PAIRS, RuleMap

    m = RuleMap()
    m.add(("win.minimum_points", "E0"))
    m.add(("win.minimum_points", "E0"))
    for k in range(1, RuleMap.MAX_PAIRS):
        m.add(("procedure.claims", f"E{k}"))
    for k in range(3):
        m.add(("procedure.turn", f"X{k}"))
    table = m.as_json()
    assert table[-1] == {"spec": OTHER_PAIRS, "engine": OTHER_PAIRS, "cases": 3}
    assert sum(p["cases"] for p in table) == 2 + (RuleMap.MAX_PAIRS - 1) + 3
