"""One canonical form on the wire (DESIGN.md): tile fields are strings of two-character tile names in every
shipped corpus and in every case sent to an engine; every answer is checked against the result schema.

Expected tiles are written out by hand from the notations of DESIGN.md ("Tiles": MahjongGB `W` 万 `B` 筒 `T` 条,
`F1`-`F4` winds, `J1` 中, `H1` 春; the Unicode block from 🀇 1m and 🀙 1p; Chinese names); expected results
are the corpus's own `expect` (corpus/mcr-examples.jsonl, cited from the guide), never an engine's.
"""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from checker.conform.adapters import EngineInfo, InProcessEngine
from checker.conform.results import read_results
from checker.conform.runner import answer_problem, run_conformance
from checker.corpus.canonical import canonical_case, canonical_tiles, noncanonical_fields
from checker.corpus.shipped import shipped_corpora

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "corpus" / "mcr-examples.jsonl"
PROCEDURE = ROOT / "corpus" / "mcr-procedure.jsonl"


def first_case(path: Path, line: int = 1) -> dict:
    return json.loads(path.read_text(encoding="utf-8").splitlines()[line - 1])


@pytest.mark.parametrize("written, canonical", [
    ("234m", "2m3m4m"),                              # a compact group
    ("123m456p11z", "1m2m3m4p5p6p1z1z"),
    ("W1 B2 T3 F1 J1 H1", "1m2p3s1z7z1f"),           # MahjongGB: 万 筒 条, East, 中, 春
    ("🀇🀈🀙", "1m2m1p"),                              # Unicode: 一万 二万 一筒
    ("一万 五筒 三条 东 中 春", "1m5p3s1z7z1f"),       # Chinese names
    (["1f", "5z"], "1f5z"),                          # a list of tiles
    ("", ""),
    ("2p3p4p", "2p3p4p"),                            # canonical already
])
def test_tiles_in_any_notation_are_written_as_two_character_names(written, canonical):
    assert canonical_tiles(written) == canonical


def test_a_field_that_holds_no_tiles_is_left_for_the_engine_to_refuse():
    assert canonical_tiles("0m") == "0m"  # the corpora's `input.tile` refusal cases send it as written
    assert canonical_tiles(5) == 5


def test_a_score_case_is_made_canonical_field_by_field_and_the_original_is_untouched():
    case = first_case(EXAMPLES)  # the guide's regular self-draw hand: 2p3p4p2s3s4s6m6m6m5p, chow 2m3m4m, wins on 5p
    written = {**case, "input": {**case["input"], "concealed": "B2 B3 B4 T2 T3 T4 W6 W6 W6 B5", "win_tile": "🀝",
                                 "flowers": ["夏"], "melds": [{"type": "chow", "tiles": "二万三万四万", "from": 3}]}}
    before = copy.deepcopy(written)
    sent = canonical_case(written)
    assert sent["input"]["concealed"] == "2p3p4p2s3s4s6m6m6m5p"
    assert sent["input"]["win_tile"] == "5p"
    assert sent["input"]["flowers"] == "2f"  # 夏, the second flower
    assert sent["input"]["melds"] == [{"type": "chow", "tiles": "2m3m4m", "from": 3}]
    assert {k: v for k, v in sent.items() if k != "input"} == {k: v for k, v in written.items() if k != "input"}
    assert written == before
    assert noncanonical_fields(written) == ["/input/concealed", "/input/win_tile", "/input/flowers",
                                            "/input/melds/0/tiles"]
    assert noncanonical_fields(sent) == []
    assert canonical_case(sent) is sent  # nothing to rewrite: the case itself, not a copy


def test_a_procedure_case_has_its_wall_and_event_tiles_made_canonical():
    case = first_case(PROCEDURE)
    wall = case["input"]["wall"]
    spaced = " ".join(wall[i:i + 2] for i in range(0, len(wall), 2))  # "1m 5p …": the same tiles, spaced
    events = [dict(e, tile="夏") if e.get("tile") == "2f" else e for e in case["input"]["events"]]
    assert events != case["input"]["events"]  # the hand exposes 2f at its deal
    written = {**case, "input": {**case["input"], "wall": spaced, "events": events}}
    assert canonical_case(written)["input"] == case["input"]


# ------------------------------------------------------------------ every shipped corpus is canonical

@pytest.mark.parametrize("name", sorted(shipped_corpora()))
def test_every_shipped_corpus_writes_its_tiles_canonically(name):
    stray = {}
    for number, line in enumerate(shipped_corpora()[name].read_text(encoding="utf-8").splitlines(), 1):
        case = json.loads(line)
        fields = noncanonical_fields(case)
        if fields:
            stray[f"line {number} ({case['id']})"] = fields
    assert not stray, f"{name}: tile fields not in canonical notation (write each tile as 1m…9m, 1z…7z, 1f…8f): {stray}"


# ------------------------------------------------------------------ what the runner sends and what it accepts

def run_on(tmp_path: Path, cases: list[dict], answer) -> tuple[list[dict], dict]:
    """Run `cases` on an in-process engine that records what it is sent and answers `answer(case)`; the cases
    sent, and the results by id."""
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text("".join(json.dumps(c, ensure_ascii=False) + "\n" for c in cases), encoding="utf-8")
    sent: list[dict] = []

    def engine(case):
        sent.append(case)
        return answer(case)

    run_conformance(str(corpus), InProcessEngine(engine, EngineInfo("recorder", "1")), str(tmp_path / "out"))
    return sent, {r.id: r for r in read_results(str(tmp_path / "out" / "results.jsonl"))}


def test_the_runner_sends_every_case_in_canonical_form_and_records_it_as_written(tmp_path):
    case = first_case(EXAMPLES)
    written = {**case, "id": "gb-codes", "input": {**case["input"], "concealed": "B2 B3 B4 T2 T3 T4 W6 W6 W6 B5",
                                                    "win_tile": "B5",
                                                    "melds": [{"type": "chow", "tiles": "234m", "from": 3}]}}
    procedure = first_case(PROCEDURE)
    wall = procedure["input"]["wall"]
    spaced = {**procedure, "input": {**procedure["input"], "wall": " ".join(wall[i:i + 2] for i in range(0, 288, 2))}}
    sent, results = run_on(tmp_path, [written, spaced], lambda c: c["expect"])
    assert sent[0]["input"]["concealed"] == "2p3p4p2s3s4s6m6m6m5p" and sent[0]["input"]["win_tile"] == "5p"
    assert sent[0]["input"]["melds"][0]["tiles"] == "2m3m4m"  # written `234m`
    assert sent[1]["input"]["wall"] == wall
    assert all(noncanonical_fields(c) == [] for c in sent)
    assert [r.outcome for r in results.values()] == ["passed", "passed"]
    assert results["gb-codes"].case["input"]["concealed"] == "B2 B3 B4 T2 T3 T4 W6 W6 W6 B5"  # results.jsonl: as written


def test_an_answer_the_result_schema_refuses_is_errored_naming_the_field(tmp_path):
    case = first_case(EXAMPLES)  # expect: mixed triple chow 8, all simples 2, self-drawn 1; total 11

    def answer(c):
        expect = copy.deepcopy(c["expect"])
        if c["id"] == "points-as-text":
            expect["fans"][0]["points"] = "8"
        elif c["id"] == "unknown-field":
            expect["han"] = 3
        elif c["id"] == "short-payments":
            expect["payments"] = expect["payments"][:3]
        elif c["id"] == "with-message":
            expect["message"] = "a note the judge never compares"
        return expect

    ids = ["points-as-text", "unknown-field", "short-payments", "with-message"]
    _, results = run_on(tmp_path, [{**case, "id": i} for i in ids], answer)
    assert {i: results[i].outcome for i in ids} == {"points-as-text": "errored", "unknown-field": "errored",
                                                    "short-payments": "errored", "with-message": "passed"}
    assert results["points-as-text"].reason == ("a result outside the result schema: /fans/0/points: '8' is not "
                                                "of type 'integer'")
    assert "/: unknown field 'han'" in results["unknown-field"].reason
    assert "/payments:" in results["short-payments"].reason


@pytest.mark.parametrize("result, kind, pointer", [
    ({"either": [{"valid": True}, {"valid": "yes"}]}, "score", "/either/1/valid"),
    ({"valid": True, "fans": [{"id": "x", "points": 1}]}, "score", "/fans/0"),  # no count
    ({"verdict": "legal", "winners": [{"seat": 4}]}, "procedure", "/winners/0/seat"),
    ({"verdict": "won"}, "procedure", "/verdict"),
])
def test_answer_problems_name_the_field(result, kind, pointer):
    assert answer_problem(result, kind).startswith(pointer + ":")


def test_the_shipped_expectations_are_answers_the_schema_accepts():
    for name, path in shipped_corpora().items():
        for line in path.read_text(encoding="utf-8").splitlines():
            case = json.loads(line)
            assert answer_problem(case["expect"], case["kind"]) is None, (name, case["id"])


@pytest.mark.parametrize("lines, said", [
    ([], "the corpus holds no case"),
    (["# a comment only"], "the corpus holds no case"),
    ([json.dumps({k: v for k, v in first_case(EXAMPLES).items() if k != "expect"})], "no expect"),
])
def test_a_run_in_which_nothing_was_run_exits_2_saying_so(tmp_path, lines, said):
    from typer.testing import CliRunner

    from checker.cli import app

    corpus = tmp_path / "c.jsonl"
    corpus.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    r = CliRunner().invoke(app, ["conform", "--corpus", str(corpus), "--engine", "reference", "--out",
                                 str(tmp_path / "out")])
    assert r.exit_code == 2 and "nothing was run" in r.output and said in r.output, r.output


def test_a_wall_given_as_four_quarters_stays_four_quarters_each_canonical():
    # docs/contracts.md: a procedure case's wall may be its four quarters (a list of four strings); each is written
    # canonically, and the list stays a list (joined, it would be one 144-tile string: another spelling of a wall)
    from checker.corpus.canonical import canonical_case, noncanonical_fields

    quarters = ["1m1m", "2m2m", "3m3m", "4m4m"]
    case = {"id": "q", "ruleset": "mcr", "kind": "procedure", "input": {"wall": quarters, "events": []}}
    assert noncanonical_fields(case) == [] and canonical_case(case) is case
    loose = {**case, "input": {"wall": ["1m 1m", "2m2m", "\U0001F019\U0001F019", "4m,4m"], "events": []}}  # U+1F019: 1p
    assert noncanonical_fields(loose) == ["/input/wall"]
    assert canonical_case(loose)["input"]["wall"] == ["1m1m", "2m2m", "1p1p", "4m4m"]
