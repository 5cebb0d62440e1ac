#!/usr/bin/env python3
"""Hand-made hands of play for the Shanghai Knocking play judge, each with its answer worked out by
hand from READINGS.md.  `python3 selftest.py` exits 0 only when every one holds."""
import json
import os
import subprocess
import sys

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import knocking_play_b_engine as E  # noqa: E402


def T(s):
    return [E.tname(t) for t in E.parse_tiles(s)]


def wall_for(hands, front="", back="", dealer=0):
    """A 144-tile wall whose deal gives each seat in `hands` exactly those tiles (the dealer 14, in
    the order written: the last one is the dealer's fourteenth), whose live draws after the deal start
    with `front` and whose back (replacement) tiles, from the very end inwards, are `back`.  Seats not
    named get filler from the tiles left, never a flower or dragon; flowers sit in the middle."""
    pool = list(E.FULL_SET)
    given = {}
    for s, txt in hands.items():
        given[s] = E.parse_tiles(txt)
    fr, bk = E.parse_tiles(front), E.parse_tiles(back)
    for t in [t for v in given.values() for t in v] + fr + bk:
        pool.remove(t)
    plain = sorted(t for t in pool if not E.is_flower(t))
    flw = sorted(t for t in pool if E.is_flower(t))
    for k in range(4):
        s = (dealer + k) % 4
        if s not in given:
            n = 14 if s == dealer else 13
            given[s], plain = plain[:n], plain[n:]
    order = []
    for r in range(3):
        for k in range(4):
            order += given[(dealer + k) % 4][4 * r:4 * r + 4]
    for k in range(4):
        order.append(given[(dealer + k) % 4][12])
    order.append(given[dealer][13])
    rest = plain + flw
    mid = rest  # filler between the front draws and the back tiles
    wall = order + fr + mid + list(reversed(bk))
    assert len(wall) == 144, len(wall)
    return "".join(E.tname(t) for t in wall)


def ev(event, seat=None, **kw):
    d = {"event": event}
    if seat is not None:
        d["seat"] = seat
    d.update(kw)
    return d


def D(seat, tile=None):
    return ev("draw", seat, **({"tile": tile} if tile else {}))


def B(seat, tile=None):
    return ev("draw", seat, **({"from": "back"}), **({"tile": tile} if tile else {}))


def X(seat, tile):
    return ev("discard", seat, tile=tile)


CASES = []


def case(name, wall, events, expect, dealer=0):
    CASES.append((name, {"wall": wall, "dealer": dealer, "events": events}, expect))


# ------------------------------------------------------------------ hands
# H1: dealer seat 0 holds 123m 456m 789m 123p 5s + 9s (its 14th).  After knock + discard 9s it waits
# on 5s alone (P11).  Seats 1-3 get filler; the live wall starts with the tiles named in `front`.
H1 = "1m2m3m4m5m6m7m8m9m1p2p3p5s9s"

# 1. Self-drawn win.  Turns: 0 knocks, discards 9s; 1, 2, 3 draw and discard what they drew (1z 2z 3z,
# nobody can win: only seat 0 knocked and it waits on 5s); 0 draws 5s and wins.
# Hand 123m 456m 789m 123p 55s: hua = 1 (base only) -> 无花果 10 (S4); doubles: 门清 1 (no melds);
# three suits, chows: nothing else.  V = 10 x 2 = 20; self-draw: each pays 20 (S12).
case("self_draw_win",
     wall_for({0: H1}, front="1z2z3z5s"),
     [ev("knock", 0), X(0, "9s"), D(1), X(1, "1z"), D(2), X(2, "2z"), D(3), X(3, "3z"),
      D(0, "5s"), ev("win", 0)],
     {"verdict": "legal", "ended": "win", "payments": [60, -20, -20, -20], "next_dealer": 0,
      "winners": [{"seat": 0, "win_by": "self_draw", "total": 20,
                   "fans": [{"id": "wu_hua_guo", "points": 10, "count": 1},
                            {"id": "men_qing", "points": 1, "count": 1}]}]})

# 2. Discard win: seat 1 draws 5s and discards it; seat 0 (knocked, waiting on 5s) wins on it.
# Same value 20 (门清 counts on a discard win, S7); the discarder alone pays (S12).
case("discard_win",
     wall_for({0: H1}, front="5s"),
     [ev("knock", 0), X(0, "9s"), D(1), X(1, "5s"), ev("win", 0, tile="5s")],
     {"verdict": "legal", "ended": "win", "payments": [20, -20, 0, 0], "next_dealer": 0,
      "winners": [{"seat": 0, "win_by": "discard", "total": 20}]})

# 3. Robbed kong.  Seat 0 holds 123m 456m 789m 11p 4s5s 6s and first discards 6s (no knock yet);
# seat 1 (6s6s 9s + filler) pungs it and discards 9s.  Seats 2, 3 draw/discard 1z, 2z.  Seat 0 draws
# 4z, knocks, discards 4z: waits 3s/6s.  Seat 1 draws the last 6s and adds it to its pung (P16: after
# its own draw); seat 0 robs it (P17).  Hand 123m 456m 789m 456s 11p: 无花果 10, 门清 -> 20;
# robbing x3 is paid by the kong's maker alone: 60 (S11, S12).  Next dealer the winner, 0.
H3 = "1m2m3m4m5m6m7m8m9m1p1p4s5s6s"
case("robbed_kong",
     wall_for({0: H3, 1: "6s6s9s1z1z1z2p2p2p3p3p3p4p"}, front="7p8p4z6s"),
     [X(0, "6s"), ev("pung", 1, tile="6s"), X(1, "9s"), D(2), X(2, "7p"), D(3), X(3, "8p"),
      D(0, "4z"), ev("knock", 0), X(0, "4z"), D(1, "6s"), ev("add_kong", 1, tile="6s"),
      ev("win", 0)],
     {"verdict": "legal", "ended": "win", "payments": [60, -60, 0, 0], "next_dealer": 0,
      "winners": [{"seat": 0, "win_by": "robbing_kong", "total": 20,
                   "fans": [{"id": "wu_hua_guo", "points": 10, "count": 1},
                            {"id": "men_qing", "points": 1, "count": 1},
                            {"id": "qiang_gang", "points": 3, "count": 1}]}]})


def exhaust(wall_txt, dealer, first_discard, stop_before_end=False):
    """Everyone discards what they draw (flowers exposed, replacement from the back) until no tile is
    left: nobody knocks, so nobody may win.  Returns the events."""
    w = E.parse_tiles(wall_txt)
    f, b = 53, 143
    evs = [X(dealer, first_discard)]
    seat = dealer
    while True:
        seat = (seat + 1) % 4
        if f > b:
            break
        t = w[f]
        f += 1
        evs.append(D(seat, E.tname(t)))
        dead = False
        while E.is_flower(t):
            evs.append(ev("flower", seat, tile=E.tname(t)))
            if f > b:
                dead = True
                break
            t = w[b]
            b -= 1
            evs.append(B(seat, E.tname(t)))
        if dead:
            break
        evs.append(X(seat, E.tname(t)))
    return evs


# 4. Drawn hand, dealer seat 2: everyone plays out the wall (91 live tiles, flowers replaced from the
# back), then draw_game.  Nothing paid (黄庄 not scored, S12); the dealer stays (P19): 2.
W4 = wall_for({}, dealer=2)
E4 = exhaust(W4, 2, E.tname(E.parse_tiles(W4)[52]))
case("drawn_hand", W4, E4 + [ev("draw_game")],
     {"verdict": "legal", "ended": "draw", "winners": [], "payments": [0, 0, 0, 0], "next_dealer": 2},
     dealer=2)

# 5. The same log without draw_game: it stops where the hand is drawn (P18), so the same outcome.
case("drawn_hand_implicit", W4, E4,
     {"verdict": "legal", "ended": "draw", "payments": [0, 0, 0, 0], "next_dealer": 2}, dealer=2)

# 6. draw_game with tiles left in the wall: illegal at that event (P18).
case("draw_game_early", W4, E4[:9] + [ev("draw_game")],
     {"verdict": "illegal", "rule": "wall.not_exhausted", "event": 9}, dealer=2)

# 7. Win without knocking: seat 0 discards 9s without a knock, later draws 5s and declares a win.
case("win_not_knocked",
     wall_for({0: H1}, front="1z2z3z5s"),
     [X(0, "9s"), D(1), X(1, "1z"), D(2), X(2, "2z"), D(3), X(3, "3z"), D(0), ev("win", 0)],
     {"verdict": "illegal", "rule": "win.not_knocked", "event": 8})

# 8. Knock whose discard leaves no wait: 23m 456m 789m 123p 5s 9s waits on nothing (P11).
case("knock_not_waiting",
     wall_for({0: H1}),
     [ev("knock", 0), X(0, "1m")],
     {"verdict": "illegal", "rule": "knock.not_waiting", "event": 1})

# 9. Locked hand: knocked seat 0 draws 1p and discards 1m instead of the drawn tile (P13).
case("knock_locked_discard",
     wall_for({0: H1}, front="1z2z3z1p"),
     [ev("knock", 0), X(0, "9s"), D(1), X(1, "1z"), D(2), X(2, "2z"), D(3), X(3, "3z"), D(0), X(0, "1m")],
     {"verdict": "illegal", "rule": "knock.locked", "event": 9})

# 10. A knocked seat may not pung (P13).  Seat 0: 1z1z1z 2m2m2m 5m5m5m 7m7m 9m9m + 4s, knocks and
# discards 4s (waits 7m/9m).  Seat 1 draws the fourth 2m and discards it; seat 0 pungs it.
H10 = "1z1z1z2m2m2m5m5m5m7m7m9m9m4s"
case("knock_locked_pung",
     wall_for({0: H10}, front="2m"),
     [ev("knock", 0), X(0, "4s"), D(1), X(1, "2m"), ev("pung", 0, tile="2m")],
     {"verdict": "illegal", "rule": "knock.locked", "event": 4})

# 11. Chow from across: seat 2 chows seat 0's discard (P6).
case("chow_not_upstream",
     wall_for({0: "1p1p1p2p2p2p3p3p3p4p4p4p5p3m", 2: "4m5m1z1z1z2z2z2z3z3z3z4z4z"}),
     [X(0, "3m"), ev("chow", 2, tiles="3m4m5m")],
     {"verdict": "illegal", "rule": "claim.chow_upstream_only", "event": 1})

# 12. Swap-calling: seat 1 holds 4m5m6m, chows seat 0's 3m with 4m5m and discards 6m, the run's
# other end (P10).
case("swap_calling",
     wall_for({0: "1p1p1p2p2p2p3p3p3p4p4p4p5p3m", 1: "4m5m6m1z1z1z2z2z2z3z3z3z4z"}),
     [X(0, "3m"), ev("chow", 1, tiles="3m4m5m"), X(1, "6m")],
     {"verdict": "illegal", "rule": "claim.swap_calling", "event": 2})

# 13. Forgo-then-reclaim: seat 2 holds 7p7p and lets seat 0's 7p go (seat 1 draws); before seat 2
# draws again, seat 1 discards another 7p and seat 2 pungs it (P9).
case("forgo_then_reclaim",
     wall_for({0: "1m1m1m2m2m2m3m3m3m4m4m4m5m7p", 2: "7p7p1z1z1z2z2z2z3z3z3z4z4z"}, front="7p"),
     [X(0, "7p"), D(1, "7p"), X(1, "7p"), ev("pung", 2, tile="7p")],
     {"verdict": "illegal", "rule": "claim.forgo_reclaim", "event": 3})

# 14. Missed win forfeits (P12): seat 0 knocked on 5s lets seat 1's 5s go (seat 2 draws), later
# draws another 5s and declares a win: refused.
case("missed_win_forfeits",
     wall_for({0: H1}, front="5s1z2z5s"),
     [ev("knock", 0), X(0, "9s"), D(1), X(1, "5s"), D(2), X(2, "1z"), D(3), X(3, "2z"),
      D(0, "5s"), ev("win", 0)],
     {"verdict": "illegal", "rule": "win.forfeited", "event": 9})

# 15. Mandatory kong (P14).  Seat 0: 8p8p 123m 456m 789s 2s 3z 4z.  Discards 4z; seat 1 draws and
# discards 8p; seat 0 pungs, knocks, discards 3z: waits 2s alone.  Seats 1-3 draw/discard 1p 2p 3p;
# seat 0 draws the last 8p and discards it instead of adding it to its pung.
H15 = "8p8p1m2m3m4m5m6m7s8s9s2s3z4z"
E15 = [X(0, "4z"), D(1, "8p"), X(1, "8p"), ev("pung", 0, tile="8p"), ev("knock", 0), X(0, "3z"),
       D(1), X(1, "1p"), D(2), X(2, "2p"), D(3), X(3, "3p"), D(0, "8p")]
W15 = wall_for({0: H15}, front="8p1p2p3p8p", back="2s")
case("mandatory_kong_refused", W15, E15 + [X(0, "8p")],
     {"verdict": "illegal", "rule": "knock.mandatory_kong", "event": 13})

# 16. The same hand making the kong: add_kong 8p, replacement from the back is 2s: self-drawn win.
# Hua: base 1 + plain exposed kong 1 = 2 (S3).  Doubles: 杠开 1 (S8).  Not 门清 (claimed pung), not
# all pungs, three suits.  V = 2 x 2 = 4; self-draw: each pays 4.
case("mandatory_kong_then_kong_replacement_win", W15,
     E15 + [ev("add_kong", 0, tile="8p"), B(0, "2s"), ev("win", 0, tile="2s")],
     {"verdict": "legal", "ended": "win", "payments": [12, -4, -4, -4], "next_dealer": 0,
      "winners": [{"seat": 0, "win_by": "self_draw", "total": 4,
                   "fans": [{"id": "going_out", "points": 1, "count": 1},
                            {"id": "plain_exposed_kong", "points": 1, "count": 1},
                            {"id": "gang_kai", "points": 1, "count": 1}]}]})

# 17. A flower at the deal, a wind pung and three doubles.  Seat 0 (dealer) holds H10's 13 tiles and
# 1f.  Exposes 1f, draws 4s from the back, knocks, discards 4s: waits 7m/9m.  Seat 1 draws 9m and
# discards it; seat 0 wins.  Hand 111z 222m 555m 999m 77m.  Hua: base 1 + flower 1 + wind pung 1 = 3.
# Doubles: 门清 1, 碰碰胡 1, 混一色 1 (m + winds) = 3.  V = 3 x 8 = 24, the discarder pays it.
case("flower_wind_pung_half_flush",
     wall_for({0: "1z1z1z2m2m2m5m5m5m7m7m9m9m1f"}, front="9m", back="4s"),
     [ev("flower", 0, tile="1f"), B(0, "4s"), ev("knock", 0), X(0, "4s"), D(1, "9m"), X(1, "9m"),
      ev("win", 0)],
     {"verdict": "legal", "ended": "win", "payments": [24, -24, 0, 0], "next_dealer": 0,
      "winners": [{"seat": 0, "win_by": "discard", "total": 24,
                   "fans": [{"id": "going_out", "points": 1, "count": 1},
                            {"id": "flower", "points": 1, "count": 1},
                            {"id": "wind_pung", "points": 1, "count": 1},
                            {"id": "men_qing", "points": 1, "count": 1},
                            {"id": "peng_peng_hu", "points": 1, "count": 1},
                            {"id": "hun_yi_se", "points": 1, "count": 1}]}]})

# 18. A claim after the discard was taken: seat 1 chows seat 0's 3m, then seat 2 (3m3m) pungs it (P7).
case("claim_already_taken",
     wall_for({0: "1p1p1p2p2p2p3p3p3p4p4p4p5p3m", 1: "4m5m6m1z1z1z2z2z2z3z3z3z4z",
               2: "3m3m7s7s7s8s8s8s9s9s9s4z4z"}),
     [X(0, "3m"), ev("chow", 1, tiles="3m4m5m"), ev("pung", 2, tile="3m")],
     {"verdict": "illegal", "rule": "claim.already_taken", "event": 2})

# 19. Out of turn: after seat 0's discard, seat 2 draws (P20).
case("draw_out_of_turn", wall_for({0: H1}), [X(0, "9s"), D(2)],
     {"verdict": "illegal", "rule": "turn.order", "event": 1})

# 20. A draw naming a tile the wall does not give (P5).
case("draw_wrong_tile", wall_for({0: H1}, front="1z"), [X(0, "9s"), D(1, "2z")],
     {"verdict": "illegal", "rule": "draw.wrong_tile", "event": 1})

# 21. Drawing a flower and discarding without exposing it (P4).
case("flower_not_exposed", wall_for({0: H1}, front="3f"), [X(0, "9s"), D(1), X(1, "1z")],
     {"verdict": "illegal", "rule": "flower.must_expose", "event": 2})

# 22. A knock must be followed at once by the knocker's discard (P11).
case("knock_then_no_discard", wall_for({0: H1}), [ev("knock", 0), D(1)],
     {"verdict": "illegal", "rule": "knock.discard_follows", "event": 1})

# 23. All answers at once: seat 1 discards 5s; seat 2 answers pung (it holds 5s5s), seat 0 (knocked,
# waiting on 5s) answers win.  The win outranks (P7, P8): as case 2, the discarder pays 20.
case("claims_event_win_outranks",
     wall_for({0: H1, 2: "5s5s1z1z1z2z2z2z3z3z3z4z4z"}, front="5s"),
     [ev("knock", 0), X(0, "9s"), D(1), X(1, "5s"),
      ev("claims", answers=[{"seat": 2, "claim": "pung"}, {"seat": 0, "claim": "win"}])],
     {"verdict": "legal", "ended": "win", "payments": [20, -20, 0, 0], "next_dealer": 0,
      "winners": [{"seat": 0, "win_by": "discard", "total": 20}]})

# 24. An answer its seat could not make alone makes the claims event illegal: seat 3 answers chow to
# seat 1's discard (only seat 2 may chow it, P6, P8).
case("claims_event_bad_answer",
     wall_for({0: H1, 3: "4s6s1z1z1z2z2z2z3z3z3z4z4z"}, front="5s"),
     [ev("knock", 0), X(0, "9s"), D(1), X(1, "5s"),
      ev("claims", answers=[{"seat": 3, "claim": "chow", "tiles": "4s5s6s"}])],
     {"verdict": "illegal", "rule": "claim.chow_upstream_only", "event": 4})

# 25. One winner only: after seat 0 wins on seat 1's discard, seat 2 also declares a win (P7).
case("second_winner_refused",
     wall_for({0: H1}, front="5s"),
     [ev("knock", 0), X(0, "9s"), D(1), X(1, "5s"), ev("win", 0), ev("win", 2)],
     {"verdict": "illegal", "rule": "win.one_winner", "event": 5})

# 26-29. Seed 1, dealer 0, deals flowers and dragons (the deal worked out from the wall):
#   seat 0: 6z 7f 8f, seat 1: 6z, seat 2: 5f, seat 3: 7z 6f; the back gives, in turn,
#   9m 5m 8p | 8m | 5z (a dragon: seat 2 exposes it too) 2z | 4z 7s.
SEED_DEAL = [ev("flower", 0, tile="6z"), B(0, "9m"), ev("flower", 0, tile="7f"), B(0, "5m"),
             ev("flower", 0, tile="8f"), B(0, "8p"), ev("flower", 1, tile="6z"), B(1, "8m"),
             ev("flower", 2, tile="5f"), B(2, "5z"), ev("flower", 2, tile="5z"), B(2, "2z"),
             ev("flower", 3, tile="7z"), B(3, "4z"), ev("flower", 3, tile="6f"), B(3, "7s")]
CASES.append(("seed_deal_flowers", {"seed": 1, "events": SEED_DEAL + [X(0, "9m"), D(1, "8s")]},
              {"verdict": "unfinished"}))
# 27. Seat 1 exposes before the dealer (P2).
CASES.append(("seed_deal_flower_order", {"seed": 1, "events": [ev("flower", 1, tile="6z")]},
              {"verdict": "illegal", "rule": "deal.flower_order", "event": 0}))
# 28. Seat 3 exposes while seat 2 still holds the dragon its replacement gave it (P2).
CASES.append(("seed_deal_replacement_flower_first",
              {"seed": 1, "events": SEED_DEAL[:10] + [ev("flower", 3, tile="7z")]},
              {"verdict": "illegal", "rule": "deal.flower_order", "event": 10}))
# 29. The dealer discards while seats 1-3 still hold deal flowers (P3).
CASES.append(("seed_deal_flowers_first", {"seed": 1, "events": SEED_DEAL[:6] + [X(0, "9m")]},
              {"verdict": "illegal", "rule": "deal.flowers_first", "event": 6}))

# 30. A knocked seat that lets a winnable discard be punged forfeits, legally (P7, P12): seat 2 pungs
# seat 1's 5s while seat 0 waits on it; play goes on (unfinished).
case("pung_over_knocked_wait_forfeits",
     wall_for({0: H1, 2: "5s5s1z1z1z2z2z2z3z3z3z4z4z"}, front="5s"),
     [ev("knock", 0), X(0, "9s"), D(1), X(1, "5s"), ev("pung", 2, tile="5s"), X(2, "4z")],
     {"verdict": "unfinished"})

# 31. Bad input: a wall that is not the 144 tiles.
CASES.append(("bad_wall", {"wall": "1m2m3m", "events": []}, {"verdict": "bad input"}))


def matches(result, expect):
    for k, v in expect.items():
        if k == "winners":
            got = result.get("winners")
            if not isinstance(got, list) or len(got) != len(v):
                return False
            for g, w in zip(got, v):
                for kk, vv in w.items():
                    if kk == "fans":
                        if sorted(map(json.dumps, g.get("fans", []))) != sorted(map(json.dumps, vv)):
                            return False
                    elif g.get(kk) != vv:
                        return False
        elif result.get(k) != v:
            return False
    return True


def protocol_check():
    """Pipe start / several runs / bad lines / stop through the engine process."""
    first = CASES[0][1]
    lines = [
        {"cmd": "start", "protocol": 1},
        {"cmd": "run", "id": 1, "case": {"ruleset": "shanghai-knocking", "kind": "procedure",
                                         "input": first, "expect": {"verdict": "legal"}}},
        "this is not json",
        {"cmd": "run", "id": 2, "case": {"ruleset": "mcr", "kind": "procedure", "input": first}},
        {"cmd": "run", "id": 3, "case": {"ruleset": "shanghai-knocking", "kind": "procedure",
                                         "input": {"seed": 1, "events": [{"event": "fly", "seat": 0}]}}},
        {"cmd": "run", "id": 4, "case": None},
        {"cmd": "stop"},
    ]
    text = "\n".join(l if isinstance(l, str) else json.dumps(l) for l in lines) + "\n"
    p = subprocess.run([sys.executable, os.path.join(HERE, "knocking_play_b_engine.py")], input=text,
                       capture_output=True, text=True, timeout=60)
    out = [json.loads(l) for l in p.stdout.splitlines()]
    ok = (len(out) == 6 and out[0]["name"] == "unseen-play-b" and out[0]["kinds"] == ["procedure"]
          and out[1]["id"] == 1 and out[1]["result"]["verdict"] == "legal"
          and "error" in out[2] and out[3]["id"] == 2 and "error" in out[3]
          and out[4]["result"]["verdict"] == "bad input" and "error" in out[5] and p.returncode == 0)
    return ok, p.stdout


def main():
    failed = 0
    for name, inp, expect in CASES:
        result = E.judge(inp)
        ok = matches(result, expect)
        print("%-45s %s" % (name, "ok" if ok else "FAIL"))
        if not ok:
            failed += 1
            print("   expected", json.dumps(expect, ensure_ascii=False))
            print("   got     ", json.dumps(result, ensure_ascii=False))
    ok, out = protocol_check()
    print("%-45s %s" % ("protocol loop", "ok" if ok else "FAIL"))
    if not ok:
        failed += 1
        print(out)
    print("%d of %d hold" % (len(CASES) + 1 - failed, len(CASES) + 1))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
