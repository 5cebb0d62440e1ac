"""The worked example of CONTRIBUTING.md, end to end: a small ruleset written from a new document and kept beside
the shipped ones through MJCHECK_SPEC_PATH (tests/worked/: the document in docs/, its spec in spec/). It
validates, traces every clause of its document, prices hands as its document does (each expected score worked
out below from the document's own sentences, never taken from the engine), gets a generated corpus that the
reference engine passes, and the hunter finds the ambiguity planted in its text.

The document is tests/worked/docs/100_riverside_house.txt; the sentences the comments quote are its own.

The commands that keep what they load by ruleset id (corpus generate, conform and the hunt cache each ruleset in
their runners and strategies) run in a process of their own, and the scoring here uses a fresh CaseRunner, so the
worked ruleset never outlives these tests: every other test sees the three shipped rulesets only.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from checker.case import CaseRunner, matches
from checker.cli import app
from checker.spec import SPEC_PATH, available_rulesets, ruleset_path

ROOT = Path(__file__).resolve().parents[1]
WORKED = Path(__file__).resolve().parent / "worked"
SPECS = WORKED / "spec"
DOCS = WORKED / "docs"
RULESET = "riverside-house"
OPTION = "concealed_needs_self_draw"  # the ambiguity planted in the document


@pytest.fixture
def worked(monkeypatch):
    """The worked ruleset beside the shipped ones, for one test."""
    monkeypatch.setenv(SPEC_PATH, str(SPECS))


def cli(*args: str):
    """`mjcheck ARGS` in this process (for commands that keep nothing by ruleset id)."""
    result = CliRunner().invoke(app, list(args))
    assert "Traceback" not in result.output
    return result


def mjcheck(*args: Any, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """`mjcheck ARGS` in a process of its own; it inherits MJCHECK_SPEC_PATH from this one."""
    return subprocess.run([sys.executable, "-m", "checker.cli", *map(str, args)], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)


def test_the_worked_ruleset_is_known_by_its_id_only_through_the_variable(monkeypatch):
    monkeypatch.delenv(SPEC_PATH, raising=False)
    assert RULESET not in available_rulesets()
    monkeypatch.setenv(SPEC_PATH, str(SPECS))
    assert RULESET in available_rulesets() and {"mcr", "shanghai-knocking", "shanghai-classic"} <= set(available_rulesets())
    assert ruleset_path(RULESET) == SPECS / f"{RULESET}.yaml"


def test_every_ruleset_validates_the_worked_one_beside_the_shipped_ones(worked):
    r = cli("spec", "validate", "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert str(SPECS / f"{RULESET}.yaml") in out["files"] and len(out["files"]) == 4
    assert out["problems"] == []


def test_every_clause_of_the_document_is_traced(worked):
    r = cli("spec", "coverage", RULESET, "--documents", str(DOCS), "--json")
    assert r.exit_code == 0, r.output
    (row,) = json.loads(r.stdout)
    assert row["doc"] == "100_riverside_house.txt" and row["document_found"]
    # 15 sentences, each quoted whole by one statement; the first ("written down for visitors") is about the
    # document itself, not a rule of play
    assert row["statements"] == 15 and row["modeled"] == 14 and row["not_modeled"] == {"scope": 1}
    assert row["untraced_clauses"] == row["phrases_not_whole"] == row["shadowed_statements"] == []


def _case(concealed: str, win: str, win_by: str = "self_draw", discarder: int | None = None,
          melds: tuple[dict[str, Any], ...] = (), flowers: str = "", options: dict[str, Any] | None = None) -> dict:
    data: dict[str, Any] = {"concealed": concealed, "win_tile": win, "win_by": win_by, "melds": list(melds),
                            "flowers": flowers}
    if discarder is not None:
        data["discarder"] = discarder
    return {"id": "worked", "ruleset": RULESET, "kind": "score", "options": options or {}, "input": data}


HANDS = [
    pytest.param(
        # Going out 1 ("Going out is worth 1 point") + the pung of red dragons 2 ("Each pung or kong of dragons
        # is worth 2 points") + four pungs (2m, 5p, 9s, 7z) and the pair of East 3 ("A hand of four pungs and a
        # pair is worth 3 points") = 6. The 7z pung was claimed, so no concealed hand; won on a discard; two suits
        # and honours, so no double. "The discarder alone pays you the hand's points": seat 1 pays 6.
        _case("2m2m2m5p5p5p9s9s9s1z", "1z", "discard", 1, ({"type": "pung", "tiles": "7z7z7z", "from": 2},)),
        {"valid": True, "total": 6, "payments": [6, -6, 0, 0],
         "fans": [{"id": "going_out", "points": 1, "count": 1}, {"id": "dragon_pung", "points": 2, "count": 1},
                  {"id": "all_pungs", "points": 3, "count": 1}]},
        id="dragon-pung-all-pungs-discard"),
    pytest.param(
        # 1 going out + 2 flowers × 1 ("Each flower you expose is worth 1 point") + 2 concealed + 1 own draw
        # ("Winning on your own draw is worth 1 point more") = 6; all characters, no honours: "A hand of one suit
        # with no honours then doubles that sum": 6 × 2 = 12. "Each other player pays you the hand's points":
        # 3 × 12 = +36.
        _case("1m2m3m4m5m6m7m8m9m2m3m4m5m", "5m", flowers="1f2f"),
        {"valid": True, "total": 12, "payments": [36, -12, -12, -12],
         "fans": [{"id": "going_out", "points": 1, "count": 1}, {"id": "flower", "points": 1, "count": 2},
                  {"id": "concealed_hand", "points": 2, "count": 1}, {"id": "self_drawn", "points": 1, "count": 1},
                  {"id": "full_flush", "points": 1, "count": 1}]},
        id="full-flush-doubles-the-sum"),
    pytest.param(
        # 1 going out + the concealed kong of white dragons 2 ("pung or kong of dragons") + 2 concealed (a
        # concealed kong is claimed from nobody) + 1 own draw = 6; three suits and a dragon: no double.
        # 3 × 6 = +18.
        _case("2m3m4m5p6p7p3s4s5s9p", "9p", melds=({"type": "concealed_kong", "tiles": "5z5z5z5z"},)),
        {"valid": True, "total": 6, "payments": [18, -6, -6, -6],
         "fans": [{"id": "going_out", "points": 1, "count": 1}, {"id": "dragon_pung", "points": 2, "count": 1},
                  {"id": "concealed_hand", "points": 2, "count": 1}, {"id": "self_drawn", "points": 1, "count": 1}]},
        id="concealed-dragon-kong"),
    pytest.param(
        # The planted ambiguity, the default reading: "A concealed hand, with nothing claimed from the other
        # players, is worth 2 points", the winning discard not counted as a claim: 1 + 2 = 3; seat 3 pays 3.
        _case("1m2m3m4p5p6p7s8s9s2m3m4m9p", "9p", "discard", 3),
        {"valid": True, "total": 3, "payments": [3, 0, 0, -3],
         "fans": [{"id": "going_out", "points": 1, "count": 1}, {"id": "concealed_hand", "points": 2, "count": 1}]},
        id="concealed-on-a-discard-default"),
    pytest.param(
        # The same hand under the other reading: the winning discard was claimed from seat 3, so the hand is not
        # concealed: going out 1 alone; seat 3 pays 1.
        _case("1m2m3m4p5p6p7s8s9s2m3m4m9p", "9p", "discard", 3, options={OPTION: True}),
        {"valid": True, "total": 1, "payments": [1, 0, 0, -1],
         "fans": [{"id": "going_out", "points": 1, "count": 1}]},
        id="concealed-on-a-discard-other-reading"),
    pytest.param(
        # A robbed kong: the document prices no such win; the spec's decision riverside-robbed-kong-payer pays it
        # as a discard, by the player whose kong of 4m was robbed (seat 1) alone. 1 + 2 concealed = 3.
        _case("1m2m3m4p5p6p7s8s9s9p9p2m3m", "4m", "robbing_kong", 1),
        {"valid": True, "total": 3, "payments": [3, -3, 0, 0],
         "fans": [{"id": "going_out", "points": 1, "count": 1}, {"id": "concealed_hand", "points": 2, "count": 1}]},
        id="robbed-kong-paid-as-a-discard"),
    pytest.param(
        # "Any four sets and a pair go out; seven pairs and the other special hands do not."
        _case("1m1m3m3m5p5p7p7p9s9s2z2z6z", "6z"),
        {"valid": False, "error": "win.shape"},
        id="seven-pairs-may-not-win"),
    pytest.param(
        # "A chow may be claimed only from the player on your left": seat 3, the previous player; a chow from
        # seat 1 is refused as bad input, naming the hand check.
        _case("4p5p6p7s8s9s2m3m4m9p", "9p", "discard", 3, ({"type": "chow", "tiles": "1m2m3m", "from": 1},)),
        {"valid": False, "error": "procedure.chow_from_left"},
        id="chow-from-the-right-refused"),
]


@pytest.mark.parametrize("case, expect", HANDS)
def test_hands_score_as_the_document_prices_them(worked, case, expect):
    result = CaseRunner().run(case)  # a fresh runner: nothing it loads outlives the test
    assert matches(result, expect), result


def test_a_generated_corpus_passes_on_the_reference_engine(worked, tmp_path):
    corpus = tmp_path / f"{RULESET}.jsonl"
    made = mjcheck("corpus", "generate", "--ruleset", RULESET, "--seed", 1, "--out", corpus)
    assert made.returncode == 0, made.stderr  # 0: every pattern, settlement path and parting option is covered
    cases = [json.loads(line) for line in corpus.read_text(encoding="utf-8").splitlines()]
    assert cases and {c["ruleset"] for c in cases} == {RULESET}
    covered = {rule for c in cases for rule in c.get("covers", [])}
    assert f"{RULESET}.option.{OPTION}" in covered and f"{RULESET}.fan.full_flush" in covered
    run = mjcheck("conform", "--corpus", corpus, "--engine", "reference", "--out", tmp_path / "run")
    assert run.returncode == 0, run.stdout + run.stderr
    counts = json.loads((tmp_path / "run" / "summary.json").read_text(encoding="utf-8"))["counts"]
    assert counts["passed"] == counts["total"] == len(cases)


def test_the_hunt_finds_the_planted_ambiguity(worked, tmp_path):
    hunt = mjcheck("hunt", "--ruleset", RULESET, "--effort", 1, "--seed", 1, "--out", tmp_path, "--json")
    assert hunt.returncode == 0, hunt.stderr
    summary = json.loads(hunt.stdout)[RULESET]
    assert summary["stopped_early"] == [] and summary["skipped"] == 0 and summary["cut_short"] == 0
    found = json.loads((tmp_path / f"findings-{RULESET}.json").read_text(encoding="utf-8"))
    assert found["stopped_early"] == []
    (ambiguity,) = [f for f in found["findings"] if f["key"].startswith(f"option.{OPTION}=")]
    assert ambiguity["kind"] == "ambiguity" and ambiguity["deciding_option"] == OPTION
    # the witness is where the sentence reads two ways: a hand with nothing claimed, won on a discard
    witness = ambiguity["witness"]["input"]
    assert witness["win_by"] == "discard" and not witness.get("melds")
    default, other = ambiguity["outcomes"]
    assert default["result"]["total"] != other["result"]["total"]
    # the two points the document leaves open are listed as decided, from the spec's `decisions`
    decided = {f["key"] for f in found["findings"] if f["kind"] == "decided"}
    assert {k for k in decided if not k.startswith("decided.table.")} == {
        "decided.riverside-robbed-kong-payer", "decided.riverside-claim-priority"}
    # and what its table plays where the spec is silent: its procedure gives claims (chow_from only) and
    # claim_priority, so the table's defaults decide the claims' other fields, who wins of two on one discard, and
    # the entries it plays one way only (turn, the dealer's opening discard, an unclaimed discard)
    assert {k for k in decided if k.startswith("decided.table.")} == {
        "decided.table.claims.added_kong_after_claim", "decided.table.claims.concealed_kong_after_claim",
        "decided.table.claims.last_discard",
        "decided.table.multiple_winners", "decided.table.turn", "decided.table.dealer_discards_first",
        "decided.table.unclaimed_discard"}
