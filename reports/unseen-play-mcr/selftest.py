#!/usr/bin/env python3
"""Self-test of mcr_play_engine.py: hand-made hands of play with hand-worked answers, and a protocol check.

Each wall is built so that the deal and every draw are known (make_wall). The expected answers were worked
out by hand from READINGS.md; the comment over each case shows the working. Exit status 0 only when all hold.
Run:  python3 selftest.py
"""
import json
import os
import subprocess
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
ENGINE = os.path.join(HERE, "mcr_play_engine.py")
sys.path.insert(0, HERE)
import mcr_play_engine as E  # noqa: E402


def tiles(s):
    return E.parse_tiles(s)


def canonical_pool():
    return E.full_set()


def make_wall(dealer=0, hands=None, front="", back="", fixed=None):
    """A 144-tile wall: `hands` seat -> tiles dealt (partial lists are filled from the pool, suit tiles in
    canonical order; the dealer's 14th tile is the last of its list); `front` the live draws after the deal
    in order; `back` the replacement draws in order (from the wall's end); `fixed` absolute index -> tile."""
    hands = {s: tiles(h) for s, h in (hands or {}).items()}
    front, back = tiles(front), tiles(back)
    fixed = {i: E.one_tile(t) for i, t in (fixed or {}).items()}
    pool = Counter(canonical_pool())
    for lst in list(hands.values()) + [front, back, list(fixed.values())]:
        for t in lst:
            pool[t] -= 1
            assert pool[t] >= 0, "too many %s" % t
    uniq = list(dict.fromkeys(canonical_pool()))
    order = [t for t in uniq if not E.is_flower(t)] + [t for t in uniq if E.is_flower(t)]

    def take():
        for t in order:
            if pool[t] > 0 and not E.is_flower(t):
                pool[t] -= 1
                return t
        raise AssertionError("pool empty")

    full = {}
    for s in range(4):
        h = list(hands.get(s, []))
        need = 14 if s == dealer else 13
        while len(h) < need:
            h.append(take())
        assert len(h) == need
        full[s] = h
    wall = [None] * 144
    pos = 0
    seats = [(dealer + k) % 4 for k in range(4)]
    for r in range(3):
        for s in seats:
            for k in range(4):
                wall[pos] = full[s][4 * r + k]
                pos += 1
    for s in seats:
        wall[pos] = full[s][12]
        pos += 1
    wall[pos] = full[dealer][13]
    pos += 1
    for t in front:
        wall[pos] = t
        pos += 1
    for k, t in enumerate(back):
        wall[143 - k] = t
    for i, t in fixed.items():
        assert wall[i] is None
        wall[i] = t
    rest = []
    for t in order:
        rest += [t] * pool[t]
    for i in range(144):
        if wall[i] is None:
            wall[i] = rest.pop(0)
    assert not rest and Counter(wall) == Counter(canonical_pool())
    return "".join(wall)


def ev(kind, seat=None, **kw):
    d = {"event": kind}
    if seat is not None:
        d["seat"] = seat
    d.update(kw)
    return d


def D(seat, t):
    return ev("discard", seat, tile=t)


def W(seat):
    return ev("draw", seat)


def B(seat):
    return ev("draw", seat, **{"from": "back"})


def case(inp):
    return {"ruleset": "mcr", "kind": "procedure", "input": inp}


def run(inp):
    return E.run_case(case(inp))


def tsumogiri_to_end(wall, events, start_seat, front, back):
    """Play on from `start_seat`'s draw: each seat draws and discards what it drew, flowers exposed and
    replaced, until the live wall is empty after a discard. Returns events, the last discarder."""
    w = tiles(wall)
    seat = start_seat
    while True:
        t = w[front]
        front += 1
        events.append(W(seat))
        while E.is_flower(t):
            events.append(ev("flower", seat, tile=t))
            if front > back:  # a flower as the wall's last tile: no replacement, the hand is drawn (P2)
                return events, seat
            t = w[back]
            back -= 1
            events.append(B(seat))
        events.append(D(seat, t))
        if front > back:
            return events, seat
        seat = (seat + 1) % 4


CASES = []


def check(name, inp, expect):
    CASES.append((name, inp, expect))


def fans(*pairs):
    return sorted(({"id": f, "points": p, "count": c} for f, p, c in pairs), key=lambda d: (-d["points"], d["id"]))


# ---------------------------------------------------------------------------------------------
# 1. Self-drawn win by the dealer.
# Dealer 0 is dealt 123m 456m 789m 234p 5s + 1z, discards 1z; seats 1-3 draw 7z and discard it; the
# dealer draws 5s and wins. Hand 123m 456m 789m 234p 55s, self-drawn, no melds.
#   pure_straight 16 (123/456/789m), all_chows 2 (four chows, numbered pair; excludes no_honors),
#   fully_concealed_hand 4 (excludes self_drawn, S3), single_wait 1 (only 5s completes it) = 23.
# Payments (S8): each opponent 8 + 23 = 31 -> [+93, -31, -31, -31]. Next dealer 1 (P12), round wind E.
W1 = make_wall(0, {0: "1m2m3m4m5m6m7m8m9m2p3p4p5s1z"}, front="7z7z7z5s")
check("self-drawn win (dealer)",
      {"wall": W1, "events": [D(0, "1z"), W(1), D(1, "7z"), W(2), D(2, "7z"), W(3), D(3, "7z"), W(0),
                              ev("win", 0)]},
      {"verdict": "legal", "ended": "win",
       "winners": [{"seat": 0, "win_by": "self_draw", "total": 23,
                    "fans": fans(("pure_straight", 16, 1), ("fully_concealed_hand", 4, 1), ("all_chows", 2, 1),
                                 ("single_wait", 1, 1))}],
       "payments": [93, -31, -31, -31], "next_dealer": 1, "next_round_wind": "E"})

# 2. Win on a discard. Seat 2 (West; round East) holds 111z 555z 234m 678p 9s; seat 1 draws 9s and discards
# it; seat 2 wins: 111z 555z 234m 678p 99s.
#   all_types 6 (m p s, wind, dragon), dragon_pung 2 (white), prevalent_wind 2 (East pung, round East),
#   two_concealed_pungs 2 (both pungs from the hand), concealed_hand 2 (no melds, discard),
#   single_wait 1 (9s the only wait) = 15.
# Payments: discarder seat 1 pays 8 + 15 = 23, seats 0 and 3 pay 8 -> [-8, -23, +39, -8].
W2 = make_wall(0, {0: ["7z"], 2: "1z1z1z5z5z5z2m3m4m6p7p8p9s"}, front="9s")
check("discard win",
      {"wall": W2, "events": [D(0, "7z"), W(1), D(1, "9s"), ev("win", 2)]},
      {"verdict": "legal", "ended": "win",
       "winners": [{"seat": 2, "win_by": "discard", "total": 15,
                    "fans": fans(("all_types", 6, 1), ("dragon_pung", 2, 1), ("prevalent_wind", 2, 1),
                                 ("two_concealed_pungs", 2, 1), ("concealed_hand", 2, 1), ("single_wait", 1, 1))}],
       "payments": [-8, -23, 39, -8], "next_dealer": 1})

# 3. Illegal: the dealer discards a tile it does not hold (event 0).
check("discard not held", {"wall": W1, "events": [D(0, "7z")]},
      {"verdict": "illegal", "event": 0, "rule": "discard.not_in_hand"})

# 4. Illegal: after the dealer's discard seat 2 draws; seat 1 is next (event 1).
check("draw out of turn", {"wall": W1, "events": [D(0, "1z"), W(2)]},
      {"verdict": "illegal", "event": 1, "rule": "turn.order"})

# 5. Illegal: seat 2 chows seat 0's discard; only the next seat (1) may chow (P6). Seat 2 holds 2m3m.
W5 = make_wall(0, {0: ["4m"], 2: ["2m", "3m"]})
check("chow by a seat that is not next",
      {"wall": W5, "events": [D(0, "4m"), ev("chow", 2, tiles="2m3m4m")]},
      {"verdict": "illegal", "event": 1, "rule": "claim.chow_seat"})

# 6. Illegal: a win worth less than 8. Seat 1 holds 234m 567p 345s 678s 9m and wins on the dealer's 9m:
#   all_chows 2, concealed_hand 2, single_wait 1, short_straight 1 (345s/678s) = 6 < 8 (P7, S1).
W6 = make_wall(0, {0: ["9m"], 1: "2m3m4m5p6p7p3s4s5s6s7s8s9m"})
check("win under eight points",
      {"wall": W6, "events": [D(0, "9m"), ev("win", 1)]},
      {"verdict": "illegal", "event": 1, "rule": "win.minimum_points"})

# 7. Illegal: a win on a tile that does not complete the hand (seat 1 of case 6 on the dealer's 7z).
W7 = make_wall(0, {0: ["7z"], 1: "2m3m4m5p6p7p3s4s5s6s7s8s9m"})
check("win without a winning shape",
      {"wall": W7, "events": [D(0, "7z"), ev("win", 1)]},
      {"verdict": "illegal", "event": 1, "rule": "win.shape"})

# 8. Claim contest, all answers at once: seat 1 discards 9s; seat 2 (next) answers chow 7s8s9s, seat 3
# answers win. The win outranks the chow (P8). Seat 3 (North) holds case 2's hand: same fans, 15
# (1z is still the prevalent wind; the seat wind N is not held). Payments: seat 1 pays 23, seats 0, 2
# pay 8 -> [-8, -23, -8, +39].
W8 = make_wall(0, {0: ["7z"], 2: ["7s", "8s"], 3: "1z1z1z5z5z5z2m3m4m6p7p8p9s"}, front="9s")
check("claims: win beats chow",
      {"wall": W8, "events": [D(0, "7z"), W(1), D(1, "9s"),
                              ev("claims", answers=[{"seat": 2, "claim": "chow", "tiles": "7s8s9s"},
                                                    {"seat": 3, "claim": "win"}])]},
      {"verdict": "legal", "ended": "win",
       "winners": [{"seat": 3, "win_by": "discard", "total": 15}],
       "payments": [-8, -23, -8, 39], "next_dealer": 1})

# 9. Claim contest: seat 2 answers chow 7s8s9s, seat 3 answers pung (holds 9s9s). The pung is made, so
# seat 3 must discard next; seat 2 discarding instead is out of turn (event 4).
W9 = make_wall(0, {0: ["7z"], 2: ["7s", "8s"], 3: ["9s", "9s"]}, front="9s")
check("claims: pung beats chow",
      {"wall": W9, "events": [D(0, "7z"), W(1), D(1, "9s"),
                              ev("claims", answers=[{"seat": 2, "claim": "chow", "tiles": "7s8s9s"},
                                                    {"seat": 3, "claim": "pung"}]),
                              D(2, "7s")]},
      {"verdict": "illegal", "event": 4, "rule": "turn.order"})

# 10. Claims written one by one in priority order (the default): seat 2's chow is made, then seat 3's pung
# of the same discard is outranked-after-the-fact: refused (P9), event 4.
check("priority order: a pung after a made chow",
      {"wall": W9, "events": [D(0, "7z"), W(1), D(1, "9s"), ev("chow", 2, tiles="7s8s9s"), ev("pung", 3)]},
      {"verdict": "illegal", "event": 4, "rule": "claim.priority"})

# 11. The same under claim_order "declared": the later pung outranks the chow, before the chower has
# discarded, and takes the tile (P9); seat 3 then discards the 1z it was dealt and seat 0 (after seat 3)
# draws: every event legal, the hand unfinished.
W11 = make_wall(0, {0: ["7z"], 2: ["7s", "8s"], 3: ["9s", "9s", "1z"]}, front="9s")
check("declared order: a pung after a chow takes the tile",
      {"wall": W11, "claim_order": "declared",
       "events": [D(0, "7z"), W(1), D(1, "9s"), ev("chow", 2, tiles="7s8s9s"), ev("pung", 3), D(3, "1z"), W(0)]},
      {"verdict": "unfinished"})

# 12. A concealed kong and a win on its replacement. Dealer holds 5z5z5z5z 123m 456p 789s 9m; declares the
# kong, draws 9m from the back and wins: 5z kong, 123m 456p 789s, 99m.
#   mixed_straight 8, out_with_replacement_tile 8 (excludes self_drawn), fully_concealed_hand 4,
#   concealed_kong 2, dragon_pung 2, single_wait 1 (9m the only wait) = 25.
# Payments: 8 + 25 = 33 from each -> [+99, -33, -33, -33].
W12 = make_wall(0, {0: "5z5z5z5z1m2m3m4p5p6p7s8s9s9m"}, back="9m")
check("concealed kong, win on the replacement",
      {"wall": W12, "events": [ev("concealed_kong", 0, tile="5z"), B(0), ev("win", 0)]},
      {"verdict": "legal", "ended": "win",
       "winners": [{"seat": 0, "win_by": "self_draw", "total": 25,
                    "fans": fans(("mixed_straight", 8, 1), ("out_with_replacement_tile", 8, 1),
                                 ("fully_concealed_hand", 4, 1), ("concealed_kong", 2, 1), ("dragon_pung", 2, 1),
                                 ("single_wait", 1, 1))}],
       "payments": [99, -33, -33, -33], "next_dealer": 1})

# 13. Flowers at the deal, and a flower on the winner. Seat 1 is dealt 1f 123456789m 555z, exposes 1f and
# draws 8s from the back; the dealer discards 8s; seat 1 wins: 123m 456m 789m 555z 88s.
#   pure_straight 16, dragon_pung 2, concealed_hand 2, single_wait 1, one_voided_suit 1 (m and s) = 22,
#   plus flower_tiles 1 -> total 23. Payments: dealer 8 + 23 = 31, others 8 -> [-31, +47, -8, -8].
W13 = make_wall(0, {0: ["8s"], 1: "1f1m2m3m4m5m6m7m8m9m5z5z5z"}, back="8s")
check("deal flower exposed and replaced; flower scored",
      {"wall": W13, "events": [ev("flower", 1, tile="1f"), B(1), D(0, "8s"), ev("win", 1)]},
      {"verdict": "legal", "ended": "win",
       "winners": [{"seat": 1, "win_by": "discard", "total": 23,
                    "fans": fans(("pure_straight", 16, 1), ("dragon_pung", 2, 1), ("concealed_hand", 2, 1),
                                 ("single_wait", 1, 1), ("one_voided_suit", 1, 1), ("flower_tiles", 1, 1))}],
       "payments": [-31, 47, -8, -8], "next_dealer": 1})

# 14. Illegal: the dealer discards while seat 1 still holds its dealt flower (event 0).
check("discard before the deal's flowers are out",
      {"wall": W13, "events": [D(0, "8s")]},
      {"verdict": "illegal", "event": 0, "rule": "flower.must_expose"})

# 15. Illegal: a flower's replacement drawn from the front (event 1).
check("replacement from the wrong end",
      {"wall": W13, "events": [ev("flower", 1, tile="1f"), ev("draw", 1, **{"from": "wall"})]},
      {"verdict": "illegal", "event": 1, "rule": "draw.source"})

# 16. Robbing the kong. Dealer discards 3p, seat 1 pungs it (holds 3p3p) and discards 7z; seats 2, 3, 0
# draw and discard 6z; seat 1 draws 3p and adds it to its pung; seat 3 robs it. Seat 3 holds
# 1p2p 456s 789m 222s 99p: 123p 456s 789m 222s 99p.
#   mixed_straight 8, robbing_the_kong 8 (excludes last_tile), concealed_hand 2, edge_wait 1 (3p, the
#   only wait), no_honors 1 = 20. The robbed seat pays 8 + 20 = 28, others 8 -> [-8, -28, -8, +44].
W16 = make_wall(0, {0: ["3p"], 1: ["3p", "3p", "7z"], 3: "1p2p4s5s6s7m8m9m2s2s2s9p9p"}, front="6z6z6z3p")
EV16 = [D(0, "3p"), ev("pung", 1), D(1, "7z"), W(2), D(2, "6z"), W(3), D(3, "6z"), W(0), D(0, "6z"), W(1),
        ev("add_kong", 1, tile="3p")]
check("robbing an added kong",
      {"wall": W16, "events": EV16 + [ev("win", 3)]},
      {"verdict": "legal", "ended": "win",
       "winners": [{"seat": 3, "win_by": "robbing_kong", "total": 20,
                    "fans": fans(("mixed_straight", 8, 1), ("robbing_the_kong", 8, 1), ("concealed_hand", 2, 1),
                                 ("edge_wait", 1, 1), ("no_honors", 1, 1))}],
       "payments": [-8, -28, -8, 44], "next_dealer": 1})

# 17. Illegal: a pung claimed on an added kong's tile (only a win may take it, P11), event 11.
check("added kong claimed by pung",
      {"wall": W16, "events": EV16 + [ev("pung", 2)]},
      {"verdict": "illegal", "event": 11, "rule": "claim.rob_only_win"})

# 18. Illegal: a kong in the turn of a pung claim (P5): seat 1 pungs 3p and at once declares a kong.
W18 = make_wall(0, {0: ["3p"], 1: ["3p", "3p", "4z", "4z", "4z", "4z"]})
check("kong right after a pung claim",
      {"wall": W18, "events": [D(0, "3p"), ev("pung", 1), ev("concealed_kong", 1, tile="4z")]},
      {"verdict": "illegal", "event": 2, "rule": "kong.after_claim"})

# 19. Chicken hand. Seat 1 chows 2m3m+4m from the dealer, later 5p6p+7p; it holds 345s 78s 11z and wins on
# seat 3's 9s: 234m 567p 345s 789s 11z. No fan at all in any reading (melds, discard, two waits 6s/9s,
# an honour pair, three suits, no dragons): chicken_hand 8. Seat 3 pays 16, others 8 -> [-8, +32, -8, -16]
# (the document's "+32" example).
W19 = make_wall(0, {0: ["4m"], 1: "2m3m5p6p3s4s5s7s8s1z1z7z6z"}, front="5z5z7p5z9s")
check("chicken hand on a discard",
      {"wall": W19, "events": [D(0, "4m"), ev("chow", 1, tiles="2m3m4m"), D(1, "7z"), W(2), D(2, "5z"), W(3),
                               D(3, "5z"), W(0), D(0, "7p"), ev("chow", 1, tiles="5p6p7p"), D(1, "6z"), W(2),
                               D(2, "5z"), W(3), D(3, "9s"), ev("win", 1)]},
      {"verdict": "legal", "ended": "win",
       "winners": [{"seat": 1, "win_by": "discard", "total": 8, "fans": fans(("chicken_hand", 8, 1))}],
       "payments": [-8, 32, -8, -16], "next_dealer": 1})

# 20-24. A hand played to the wall's end. Seats 2 and 3 are dealt four flowers each and replace them
# from the back (8 back draws), so the live wall is tiles 53..135: 83 front draws, the k-th by seat
# (1 + k) mod 4, the last (k = 82) by seat 3; tile 135 is 8s. Seat 1 holds case 13's hand without the
# flower: 123456789m 555z 8s. Everyone discards what it draws.
W20 = make_wall(0, {0: ["7z"], 1: "1m2m3m4m5m6m7m8m9m5z5z5z8s", 2: "1f2f3f4f", 3: "5f6f7f8f"},
                back="1z2z3z4z1z2z3z4z", fixed={135: "8s"})
EV20 = []
for s, fl in ((2, "1f2f3f4f"), (3, "5f6f7f8f")):
    for f in tiles(fl):
        EV20 += [ev("flower", s, tile=f), B(s)]
EV20.append(D(0, "7z"))
EV20, LAST = tsumogiri_to_end(W20, EV20, 1, 53, 135)
assert LAST == 3 and EV20[-1] == D(3, "8s")
# 20. Seat 1 wins on the last discard: 22 as in case 13 + last_tile_claim 8 = 30 (no flowers; at most
# two other 8s can be visible, as seat 1 holds one: no last_tile). Seat 3 pays 38, others 8 ->
# [-8, +54, -8, -38].
check("last tile claim",
      {"wall": W20, "events": EV20 + [ev("win", 1)]},
      {"verdict": "legal", "ended": "win",
       "winners": [{"seat": 1, "win_by": "discard", "total": 30,
                    "fans": fans(("pure_straight", 16, 1), ("last_tile_claim", 8, 1), ("dragon_pung", 2, 1),
                                 ("concealed_hand", 2, 1), ("single_wait", 1, 1), ("one_voided_suit", 1, 1))}],
       "payments": [-8, 54, -8, -38], "next_dealer": 1})
# 21. A drawn hand: nobody claims the last discard. Payments 0, next dealer 1 (draws count, P12).
check("drawn hand",
      {"wall": W20, "events": EV20 + [ev("draw_game")]},
      {"verdict": "legal", "ended": "draw", "winners": [], "payments": [0, 0, 0, 0], "next_dealer": 1,
       "next_round_wind": "E"})
# 22. Illegal: a draw from the empty wall.
check("draw from an empty wall",
      {"wall": W20, "events": EV20 + [W(0)]},
      {"verdict": "illegal", "event": len(EV20), "rule": "draw.wall_empty"})
# 23. Illegal: the last discard claimed for a chow (seat 0 holds no 6s7s, but the rule it breaks first is
# that the last discard may be taken only for a win, P4).
check("chow of the last discard",
      {"wall": W20, "events": EV20 + [ev("chow", 0, tiles="6s7s8s")]},
      {"verdict": "illegal", "event": len(EV20), "rule": "claim.last_discard"})
# 24. Illegal: draw_game while tiles are left (after the dealer's first discard).
check("drawn hand declared too early",
      {"wall": W20, "events": EV20[:17] + [ev("draw_game")]},
      {"verdict": "illegal", "event": 17, "rule": "draw_game.not_exhausted"})

# 25. Unfinished: the events stop after the dealer's discard.
check("unfinished", {"wall": W1, "events": [D(0, "1z")]}, {"verdict": "unfinished"})

# 26. Illegal: knocking is no part of MCR.
check("knock", {"wall": W1, "events": [ev("knock", 0)]},
      {"verdict": "illegal", "event": 0, "rule": "event.not_mcr"})

# 27. Illegal: a second win on the same discard (one winner only, P10). Case 2's table; seat 3 also waits
# on 9s with 222m 333m 444p 666p 9s (the 9s makes the pair, so all four pungs stay concealed:
# four_concealed_pungs 64, a valid win on its own), but seat 2, nearer the discarder, has won already.
W27 = make_wall(0, {0: ["7z"], 2: "1z1z1z5z5z5z2m3m4m6p7p8p9s", 3: "2m2m2m3m3m3m4p4p4p6p6p6p9s"}, front="9s")
check("second win on one discard",
      {"wall": W27, "events": [D(0, "7z"), W(1), D(1, "9s"), ev("win", 2), ev("win", 3)]},
      {"verdict": "illegal", "event": 4, "rule": "claim.priority"})

# 28. Dealer 2, hand number 3: the dealer rotation and the round wind (P12). Case 1's hand dealt to
# seat 2 (East this hand): same 23 points; payments by absolute seat [-31, -31, +93, -31]; next dealer 3;
# hand 3 is the last of East, so the next round wind is South.
W28 = make_wall(2, {2: "1m2m3m4m5m6m7m8m9m2p3p4p5s1z"}, front="7z7z7z5s")
check("dealer 2, hand 3",
      {"wall": W28, "dealer": 2, "hand": 3,
       "events": [D(2, "1z"), W(3), D(3, "7z"), W(0), D(0, "7z"), W(1), D(1, "7z"), W(2), ev("win", 2)]},
      {"verdict": "legal", "ended": "win", "winners": [{"seat": 2, "win_by": "self_draw", "total": 23}],
       "payments": [-31, -31, 93, -31], "next_dealer": 3, "next_round_wind": "S"})

# 29. Illegal: a draw naming a tile the wall does not give (seat 1 draws 7z, not 1m).
check("draw names the wrong tile",
      {"wall": W1, "events": [D(0, "1z"), ev("draw", 1, tile="1m")]},
      {"verdict": "illegal", "event": 1, "rule": "draw.tile"})

# 30. A seed wall: seed 7, the dealer discards the last tile it was dealt after its flowers (if any) are
# out; we only check that the seed wall is Python's random.Random(7).shuffle of the listed order and
# that the engine deals from it (the dealer's 14th tile is wall[52]).
_w = E.full_set()
import random  # noqa: E402
random.Random(7).shuffle(_w)
assert E.build_wall({"seed": 7}) == _w


# 31. Seed walls played out: for seeds 0..59, every seat exposes its dealt flowers (dealer first, each
# replaced at once from the back), the dealer discards, then everyone discards what it draws (exposing
# and replacing flowers) until the wall is empty; then draw_game. Every hand is a legal drawn hand:
# payments 0, next dealer 1, round wind E.
def seeded_events(seed, dealer=0):
    w = E.full_set()
    random.Random(seed).shuffle(w)
    hands = {s: [] for s in range(4)}
    pos = 0
    seats = [(dealer + k) % 4 for k in range(4)]
    for r in range(3):
        for s in seats:
            hands[s] += w[pos:pos + 4]
            pos += 4
    for s in seats:
        hands[s].append(w[pos])
        pos += 1
    hands[dealer].append(w[pos])
    back, evs = 143, []
    for s in seats:
        q = [t for t in hands[s] if E.is_flower(t)]
        while q:
            f = q.pop(0)
            evs += [ev("flower", s, tile=f), B(s)]
            t = w[back]
            back -= 1
            hands[s].remove(f)
            hands[s].append(t)
            if E.is_flower(t):
                q.append(t)
    evs.append(D(dealer, [x for x in hands[dealer] if not E.is_flower(x)][-1]))
    evs, _ = tsumogiri_to_end("".join(w), evs, (dealer + 1) % 4, 53, back)
    return evs


for _seed in range(60):
    check("seed %d played to a drawn hand" % _seed, {"seed": _seed, "events": seeded_events(_seed) + [ev("draw_game")]},
          {"verdict": "legal", "ended": "draw", "winners": [], "payments": [0, 0, 0, 0], "next_dealer": 1,
           "next_round_wind": "E"})


def matches(got, exp):
    for k, v in exp.items():
        if k not in got:
            return False
        if k == "winners":
            if len(v) != len(got[k]):
                return False
            for a, b in zip(v, got[k]):
                for kk, vv in a.items():
                    if b.get(kk) != vv:
                        return False
        elif got[k] != v:
            return False
    return True


def protocol_check():
    p = subprocess.Popen([sys.executable, ENGINE], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    lines = [
        json.dumps({"cmd": "start", "protocol": 1}),
        json.dumps({"cmd": "run", "id": 1, "case": case(CASES[0][1])}),
        "this is not json",
        json.dumps({"cmd": "run", "id": 2, "case": {"ruleset": "riichi", "kind": "procedure", "input": {}}}),
        json.dumps({"cmd": "run", "id": 3, "case": case({"wall": "1m2m", "events": []})}),
        json.dumps({"cmd": "stop"}),
    ]
    out, err = p.communicate("\n".join(lines) + "\n", timeout=60)
    replies = [json.loads(x) for x in out.splitlines() if x.strip()]
    ok = True
    problems = []
    if len(replies) != 6:
        return False, ["expected 6 replies, got %d: %r %s" % (len(replies), out, err)]
    st = replies[0]
    if not (st.get("rulesets") == ["mcr"] and st.get("kinds") == ["procedure"] and st.get("rule_ids") == "own"
            and isinstance(st.get("name"), str) and isinstance(st.get("version"), str) and st.get("fields")):
        ok = False
        problems.append("start reply %r" % st)
    r1 = replies[1]
    if r1.get("id") != 1 or not matches(r1.get("result", {}), CASES[0][2]):
        ok = False
        problems.append("run 1 %r" % r1)
    if "error" not in replies[2]:
        ok = False
        problems.append("bad line %r" % replies[2])
    if replies[3].get("id") != 2 or "error" not in replies[3]:
        ok = False
        problems.append("wrong ruleset %r" % replies[3])
    if replies[4].get("id") != 3 or replies[4].get("result", {}).get("verdict") != "bad input":
        ok = False
        problems.append("bad wall %r" % replies[4])
    if p.returncode != 0:
        ok = False
        problems.append("exit status %s" % p.returncode)
    return ok, problems


def main():
    failed = 0
    for name, inp, exp in CASES:
        got = run(inp)
        if matches(got, exp):
            print("ok    %s" % name)
        else:
            failed += 1
            print("FAIL  %s\n      expected %s\n      got      %s" % (name, json.dumps(exp), json.dumps(got)))
    ok, problems = protocol_check()
    print(("ok    " if ok else "FAIL  ") + "protocol: start / run / bad line / wrong ruleset / bad wall / stop")
    for p in problems:
        print("      " + p)
    if not ok:
        failed += 1
    print("%d of %d checks passed" % (len(CASES) + 1 - failed, len(CASES) + 1))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
