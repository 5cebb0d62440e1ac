"""Three readings of Shanghai Knocking's table the guide leaves open, each an option (spec/shanghai-knocking.yaml),
with a hand-made log played under both readings (checker/table/claims.py):

- knock_concealed_kong: may a knocked (locked) hand declare a concealed kong that leaves its wait as it was?
- kong_after_claim: may a player who has just punged (or chowed) declare a kong before its discard?
- forgo_when_outranked: has a seat that could only chow passed a discard when another seat pungs it?

Walls are built with `arrange_wall` (checker.corpus.scenes.header), so every seat holds exactly the tiles written
here and draws exactly the tiles the log names. Knocking's dragons 5z 6z 7z are flowers: kept out of every hand.
"""
from __future__ import annotations

from checker.corpus.scenes import event, header
from checker.engine import load_ruleset
from checker.spec.bind import bind
from checker.table.events import parse_event
from checker.table.log import new_table, replay_events

KNOCKING = "shanghai-knocking"
FILL_1 = "1z1z1z2z2z2z6p6p6p7p7p7p8p"
FILL_2 = "3z3z3z4z4z4z6s6s6s7s7s7s8s"
FILL_3 = "1z2z3z4z4p4p8p8p9p9p8s9s9s"


def legal_so_far(hdr, events):
    """Every event of the log is legal (the hand goes on after it)."""
    table = new_table(hdr)
    for e in events:
        problem = table.apply(parse_event(event(e)))
        assert problem is None, (e, problem)


def refused_at_last(hdr, events, rule):
    r = replay_events(hdr, [event(e) for e in events])
    assert (r.verdict, r.rule, r.line) == ("illegal", rule, len(events) + 1), (r.verdict, r.line, r.rule, r.message)


# --------------------------------------------------------------------------- knock_concealed_kong

# Seat 0: 111m 456m 789m 23p 55p 9s. It knocks with 9s: 111m 456m 789m 23p 55p waits on 1p/4p. Seats 1-3 draw and
# discard 1s, 2s, 3s; seat 0 draws the fourth 1m and declares a concealed kong of it: 456m 789m 23p 55p [1111m]
# still waits on 1p/4p (the kong leaves the wait as it was). It draws 6m from the back and, locked, discards it.
CK_HANDS = {0: "111m456m789m23p55p9s", 1: FILL_1, 2: FILL_2, 3: FILL_3}
CK_LOG = ["0 knock", "0 discard 9s", "1 draw 1s", "1 discard 1s", "2 draw 2s", "2 discard 2s", "3 draw 3s",
          "3 discard 3s", "0 draw 1m", "0 concealed_kong 1m", "0 draw 6m back", "0 discard 6m"]


def ck_header(**options):
    return header(KNOCKING, CK_HANDS, draws="1s2s3s1m", back="6m", options=options)


def test_a_knocked_hand_may_declare_a_concealed_kong_that_keeps_its_wait_by_default():
    legal_so_far(ck_header(), CK_LOG)
    legal_so_far(ck_header(knock_concealed_kong="keeps_wait"), CK_LOG)


def test_a_knocked_hand_declares_no_concealed_kong_under_never():
    refused_at_last(ck_header(knock_concealed_kong="never"), CK_LOG[:10], "option.knock_concealed_kong")


def test_a_concealed_kong_before_the_knock_is_no_business_of_the_lock():
    # the same seat declares the kong before knocking (it holds 1111m from the deal): legal under both readings
    hands = {0: "1111m456m789m23p55p", 1: FILL_1, 2: FILL_2, 3: FILL_3}
    log = ["0 concealed_kong 1m", "0 draw 9s back", "0 knock", "0 discard 9s"]
    for reading in ("keeps_wait", "never"):
        legal_so_far(header(KNOCKING, hands, back="9s", options={"knock_concealed_kong": reading}), log)


# --------------------------------------------------------------------------- kong_after_claim

# Seat 0 (dealer) discards 5p; seat 1, holding 1111z and 55p, pungs it and, before discarding, declares a
# concealed kong of 1z; it draws 6m from the back and discards it.
KA_HANDS = {0: "123m456m789m123p5p9s", 1: "1z1z1z1z5p5p2s3s4s6s7s8s9m", 2: FILL_2,
            3: "2z2z2z4p4p8p8p9p9p8s9s9s1s"}
KA_LOG = ["0 discard 5p", "1 pung", "1 concealed_kong 1z", "1 draw 6m back", "1 discard 6m"]


def ka_header(**options):
    return header(KNOCKING, KA_HANDS, back="6m", options=options)


def test_a_kong_may_follow_a_pung_before_its_discard_by_default():
    legal_so_far(ka_header(), KA_LOG)


def test_after_a_pung_the_claimer_discards_first_under_after_own_draw():
    refused_at_last(ka_header(kong_after_claim="after_own_draw"), KA_LOG[:3], "option.kong_after_claim")


def test_kong_after_claim_decides_the_added_and_the_concealed_kong_alike():
    for reading in ("allowed", "after_own_draw"):
        rules = bind(load_ruleset(KNOCKING), {"kong_after_claim": reading}).procedure
        assert (rules.added_kong_after_claim, rules.concealed_kong_after_claim) == (reading, reading)
        assert rules.added_kong_after_claim_rule == rules.concealed_kong_after_claim_rule == "option.kong_after_claim"


# --------------------------------------------------------------------------- forgo_when_outranked

# Seat 0 (dealer) discards 5p. Seat 1 (next: it may chow) holds 34p; seat 2 holds 55p and pungs it, which outranks
# the chow. Seat 2 discards 1p, seat 3 draws and discards 1s, seat 0 draws 3s and discards its second 5p; seat 1,
# which has not drawn since, chows it with 34p.
FO_HANDS = {0: "5p5p123m456m789m1s9s9s", 1: "3p4p1z1z1z2z2z2z6s6s6s7s7s", 2: "5p5p3z3z3z4z4z4z8s8s8s1p2p",
            3: "2m2m3m3m4m4m6m6m7m7m8m8m9m"}
FO_LOG = ["0 discard 5p", "2 pung", "2 discard 1p", "3 draw 1s", "3 discard 1s", "0 draw 3s", "0 discard 5p",
          "1 chow 345p"]


def fo_header(**options):
    return header(KNOCKING, FO_HANDS, draws="1s3s", options=options)


def test_a_seat_a_pung_outranked_has_not_passed_the_tile_by_default():
    legal_so_far(fo_header(), FO_LOG)


def test_a_seat_a_pung_outranked_has_passed_the_tile_under_forgo_when_outranked():
    refused_at_last(fo_header(forgo_when_outranked=True), FO_LOG, "procedure.forgo_then_reclaim")


def test_a_seat_that_could_have_outranked_the_claim_made_has_passed_the_tile_under_both_readings():
    # seat 0 discards 5p; seat 1 chows it (345p) though seat 2, holding 55p, could have punged it, outranking the
    # chow: seat 2 has passed it. Seat 1 discards 9m, seat 3 pungs it (seat 2 does not draw) and discards the last
    # 5p; seat 2's pung of it is refused under either reading
    hands = {0: "5p123m456m789m1s2s9s9s", 1: "3p4p9m1z1z1z2z2z2z6s6s6s7s", 2: "5p5p3z3z3z4z4z4z8s8s8s1p2p",
             3: "9m9m5p2m2m3m3m4m4m6m6m7m7m"}
    log = ["0 discard 5p", "1 chow 345p", "1 discard 9m", "3 pung", "3 discard 5p", "2 pung"]
    for reading in (False, True):
        refused_at_last(header(KNOCKING, hands, options={"forgo_when_outranked": reading}), log,
                        "procedure.forgo_then_reclaim")
