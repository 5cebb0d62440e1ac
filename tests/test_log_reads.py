"""Log readings (checker.mutate.log_reads): a judge of play that reads a hand's log otherwise than the case format
writes it, replayed by the reference table on the rewritten log."""
from __future__ import annotations

from checker.corpus.scenes import event, header
from checker.mutate.log_reads import draw_end_inferred
from checker.mutate.mutation import Rescorer

KNOCKING = "shanghai-knocking"
# seat 0 (the dealer) holds the flower 1f: at the deal it exposes it and draws its replacement (3m) from the back
HANDS = {0: "1f123m456m789m12p5s9p", 1: "1z1z1z2z2z2z6p6p6p7p7p7p8p", 2: "3z3z3z4z4z4z6s6s6s7s7s7s8s",
         3: "1z2z3z4z4p4p8p8p9p9p8s9s9s"}


def case(*events: str) -> dict:
    hdr = header(KNOCKING, HANDS, back="3m")
    data = {k: v for k, v in hdr.items() if k not in ("game", "version", "ruleset", "options")}
    return {"ruleset": KNOCKING, "kind": "procedure", "options": {},
            "input": {**data, "events": [event(e) for e in events]}}


def test_a_replacement_written_without_its_end_is_read_as_the_replacement_owed():
    # the case format writes the flower's replacement "from": "back"; the rules refuse the draw written without it
    # (procedure.replacement_draw, event 1); a judge that infers the end from the state of play takes it, and the
    # log stops there: unfinished
    m = draw_end_inferred(KNOCKING)
    plain = case("0 flower 1f", "0 draw")
    rescorer = Rescorer()
    assert rescorer.result(plain, None)["verdict"] == "illegal"
    assert rescorer.result(plain, None)["rule"] == "procedure.replacement_draw"
    assert m.replay(plain)["input"]["events"][1] == {"event": "draw", "seat": 0, "from": "back"}
    assert rescorer.result(plain, m)["verdict"] == "unfinished"


def test_a_log_that_writes_its_ends_is_read_as_written():
    m = draw_end_inferred(KNOCKING)
    written = case("0 flower 1f", "0 draw back", "0 discard 5s")
    assert m.replay(written) is written  # nothing to infer: the same case
    # a turn's draw without "from" where no replacement is owed stays as it is
    turn = case("0 flower 1f", "0 draw back", "0 discard 5s", "1 draw")
    assert m.replay(turn) is turn
