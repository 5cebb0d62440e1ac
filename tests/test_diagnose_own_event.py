"""A reading named for a class of hands of play is held to the event where the class departs
(checker.diagnose.own_event): the class's hand changed just before that event, the event kept, is put to the
engine, and a reading the engine's answer there contradicts is said to be the nearest the rules have, never named.

The planted engines answer the classic hands of play from the reference table, changed here; what each does is
written in its docstring, and the causes each test expects are worked out from that by hand.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from checker.case import CaseRunner
from checker.conform import run_conformance
from checker.conform.adapters import EngineInfo, InProcessEngine
from checker.diagnose import Settings
from checker.diagnose.own_event import fate
from checker.separating.neighbours import departing_event, neighbours
from checker.table.log import procedure_result

ROOT = Path(__file__).resolve().parents[1]
CLASSIC_PLAY = ROOT / "corpus" / "shanghai-classic-procedure.jsonl"
OWN_TURN = "option:eight_flowers_at_deal=own_turn"
REFERENCE = CaseRunner()


def _own_turn(case: dict) -> dict:
    return {**case, "options": {**(case.get("options") or {}), "eight_flowers_at_deal": "own_turn"}}


def waits_for_its_own_turn(case: dict) -> dict:
    """An engine that reads 八花齐 as waiting for the seat's own turn whatever a case says
    (eight_flowers_at_deal=own_turn): a reading the spec offers."""
    return REFERENCE.run(_own_turn(case))


BEFORE = "option:eight_flowers_at_deal=before_replacement"


def declares_before_the_replacement(case: dict) -> dict:
    """An engine that reads 八花齐 as declared before the eighth flower's replacement whatever a case says
    (eight_flowers_at_deal=before_replacement: the drawn replacement lets it pass): a reading the spec offers."""
    return REFERENCE.run({**case, "options": {**(case.get("options") or {}),
                                              "eight_flowers_at_deal": "before_replacement"}})


def _right_after_the_eighth_flower(events: list[dict]) -> int | None:
    """The index of a win that follows at once the exposure of its seat's eighth flower, if the log has one."""
    for i, e in enumerate(events[1:], 1):
        before = events[i - 1]
        if e.get("event") == "win" and before.get("event") == "flower" and before.get("seat") == e.get("seat") and \
                sum(1 for x in events[:i] if x.get("event") == "flower" and x.get("seat") == e.get("seat")) == 8:
            return i
    return None


def before_the_replacement(case: dict) -> dict:
    """An engine that takes 八花齐 right after the eighth flower is exposed, before its replacement is drawn, and
    otherwise at the seat's own turn too (a mixture the spec does not offer: before_replacement lets the
    declaration pass with the replacement, own_turn refuses it before): a win so declared is answered as the rules
    answer the same log with the replacement drawn first; every other hand as `waits_for_its_own_turn`."""
    if case.get("kind") == "procedure":
        events = list(case["input"].get("events") or [])
        at = _right_after_the_eighth_flower(events)
        if at is not None:
            seat = events[at]["seat"]
            drawn = events[:at] + [{"event": "draw", "seat": seat, "from": "back"}] + events[at:]
            return REFERENCE.run({**case, "input": {**case["input"], "events": drawn}})
    return waits_for_its_own_turn(case)


def run(tmp_path: Path, function) -> list[dict]:
    done = run_conformance(str(CLASSIC_PLAY), InProcessEngine(function, EngineInfo("planted", "1")),
                           str(tmp_path / "out"), diagnosis=Settings(probes=300))
    return done.summary["classes"]


def the_eight_flowers_class(classes: list[dict]) -> dict:
    """The class of the corpus's 八花齐 declared at once during the deal: the rules take the win right after the
    eighth flower's replacement; both engines refuse it there (the seat's own turn has not come)."""
    found = [c for c in classes if any("eight" in case for case in c["cases"])]
    assert len(found) == 1, [c["signature"] for c in classes]
    return found[0]


def test_a_reading_the_spec_offers_is_named_and_holds_at_its_own_event(tmp_path):
    classes = run(tmp_path, waits_for_its_own_turn)
    cls = the_eight_flowers_class(classes)
    cause = cls["cause"]
    assert [e["id"] for e in cause["explained_by"]] == [OWN_TURN], cause["verdict"]
    assert cause["explained_by"][0]["evidence"] == "confirmed" and cause["unexplained"] == 0
    assert not cause.get("contradicted"), cause["verdict"]
    # nothing else named anywhere: the engine departs in this one way
    assert {e["id"] for c in classes for e in c["cause"].get("explained_by") or []} == {OWN_TURN}


def test_the_declaration_before_the_replacement_is_named_and_holds_at_its_own_event(tmp_path):
    """The engine reading before_replacement: the corpus's 八花齐 declared after the replacement is refused (the
    declaration passed with the draw), which own_turn reproduces too; the class's hand with the replacement left
    out (the win right after the eighth flower) is taken by the engine as before_replacement says, where own_turn
    refuses it: before_replacement is named, and nothing else anywhere."""
    classes = run(tmp_path, declares_before_the_replacement)
    cls = the_eight_flowers_class(classes)
    cause = cls["cause"]
    assert [e["id"] for e in cause["explained_by"]] == [BEFORE], cause["verdict"]
    assert cause["explained_by"][0]["evidence"] == "confirmed" and cause["unexplained"] == 0
    assert {e["id"] for c in classes for e in c["cause"].get("explained_by") or []} == {BEFORE}


def test_a_reading_the_engine_departs_from_at_the_class_s_own_event_is_only_the_nearest(tmp_path):
    """The same class, on the engine that takes 八花齐 before the replacement: own_turn reproduces the class's
    hands (both refuse the win after the replacement), and the probes that tell own_turn from the rules bear it
    out; but the class's hand with the replacement draw left out (the win right after the eighth flower: own_turn
    and the rules both refuse it, as a win out of turn) is taken by the engine. The reading is said to be the
    nearest the rules have, not named, and the class's cases are left unexplained."""
    classes = run(tmp_path, before_the_replacement)
    cls = the_eight_flowers_class(classes)
    cause = cls["cause"]
    assert not cause.get("explained_by"), cause["verdict"]
    assert cause["unexplained"] == cls["count"]
    [nearest] = cause["contradicted"]
    assert nearest["id"] == OWN_TURN
    assert "only the nearest the rules have" in nearest["nearest"] and "(draw) left out" in nearest["nearest"]
    probe = nearest["probes"][-1]
    events = probe["case"]["input"]["events"]
    assert events[-2]["event"] == "flower" and events[-1]["event"] == "win", events[-3:]
    assert probe["predicted"]["verdict"] == "illegal" and probe["answer"]["verdict"] == "legal"
    assert OWN_TURN not in {e["id"] for c in classes for e in c["cause"].get("explained_by") or []}
    report = (tmp_path / "out" / "report.md").read_text(encoding="utf-8")
    assert "**nearest only**: eight_flowers_at_deal=own_turn" in report


# ----------------------------------------------------------------------- the parts

def _corpus_case(part: str) -> dict:
    for line in CLASSIC_PLAY.read_text(encoding="utf-8").splitlines():
        case = json.loads(line)
        if part in case["id"]:
            return case
    raise AssertionError(part)


def test_the_departing_event_is_the_first_refused_else_the_last():
    events = [{"event": "draw"}] * 5
    assert departing_event(events, {"verdict": "illegal", "event": 3}, {"verdict": "illegal", "event": 2}) == 2
    assert departing_event(events, {"verdict": "legal"}, {"verdict": "unfinished"}) == 4
    assert departing_event(events, {"verdict": "illegal", "event": 9}) == 4  # (an index past the log: its last)


def test_an_event_s_fate_is_read_off_an_answer():
    assert fate({"verdict": "illegal", "event": 3}, 3) == "refused"
    assert fate({"verdict": "illegal", "event": 2}, 3) == "before"
    assert fate({"verdict": "illegal", "event": 4}, 3) == "taken"
    assert fate({"verdict": "legal"}, 3) == fate({"verdict": "unfinished"}, 3) == "taken"
    assert fate({"verdict": "error"}, 3) is None and fate(None, 3) is None


def test_neighbours_change_an_event_before_the_kept_one_and_keep_it():
    """The corpus's 八花齐 declared at once (seat 1's eighth flower, its replacement, the win: events 14-16):
    each neighbour keeps the win, changed at event 14 or 15 (the nearest first); the replacement left out gives the
    win right after the eighth flower, which the rules refuse (a win is no move open before the replacement)."""
    case = _corpus_case("kills-procedure-default-eight-flowers-at-deal-own-turn")
    events = case["input"]["events"]
    assert events[16] == {"event": "win", "seat": 1}
    found = list(neighbours(case, 16))
    assert found and all(n.case["input"]["events"][n.at] == events[16] for n in found)
    assert all(n.case["input"]["events"] != events for n in found)
    assert found[0].change.startswith("event 15 ") and found[-1].change.startswith("event 14 ")
    first = next(n for n in found if n.change == "event 15 (draw) left out")
    assert first.at == 15
    refused = procedure_result({**first.case, "expect": {}}, REFERENCE)
    assert refused["verdict"] == "illegal" and refused["event"] == 15


@pytest.mark.parametrize("at", [-1, 99])
def test_no_neighbour_of_an_event_the_log_does_not_have(at):
    assert list(neighbours(_corpus_case("eight-flowers"), at)) == []
