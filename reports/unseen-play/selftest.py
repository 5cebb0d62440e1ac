#!/usr/bin/env python3
"""Hand-made game logs for knocking_play_engine.py, each checked by hand against the document.

Run: python3 selftest.py   (talks to the engine over the line protocol, as the conformance tool would)
Readings cited as P*/S* are in READINGS.md.
"""
import json
import os
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ENGINE = os.path.join(HERE, "knocking_play_engine.py")


# ---------------------------------------------------------------- a wall to order
def split(s):
    s = s.replace(" ", "")
    return [s[i:i + 2] for i in range(0, len(s), 2)]


def all_tiles():
    t = []
    for suit in "mps":
        for n in range(1, 10):
            t += ["%d%s" % (n, suit)] * 4
    for n in range(1, 8):
        t += ["%dz" % n] * 4
    t += ["%df" % n for n in range(1, 9)]
    return t


def build_wall(hands, front=(), back=(), dealer=0):
    """hands: seat -> tiles (dealer 14, others 13). front: the live draws after the deal, in order.
    back: the replacement draws, in order (the wall's last tile first). The rest fills the middle."""
    order = [(dealer + k) % 4 for k in range(4)]
    seq = []
    h = {s: split(hands[s]) for s in range(4)}
    for s in range(4):
        assert len(h[s]) == (14 if s == dealer else 13), (s, len(h[s]))
    for r in range(3):
        for s in order:
            seq += h[s][4 * r:4 * r + 4]
    for s in order:
        seq.append(h[s][12])
    seq.append(h[dealer][13])
    seq += split("".join(front))
    tail = split("".join(back))
    pool = all_tiles()
    for t in seq + tail:
        assert t in pool, "too many " + t
        pool.remove(t)
    pool.sort(key=lambda t: (t[1] in "fz" and t in ("5z", "6z", "7z") or t[1] == "f", t))
    return "".join(seq + pool + list(reversed(tail)))


def ev(kind, seat=None, tile=None, **kw):
    e = {"event": kind}
    if seat is not None:
        e["seat"] = seat
    if tile is not None:
        e["tile"] = tile
    e.update(kw)
    return e


# The hands used by several cases (no flowers, so the deal needs no exposure).
H = {
    0: "1m2m3m4m5m6m7m8m9m1p2p3p5p9s",   # dealer: knocks on 9s, waits on 5p alone
    1: "2s3s4s6s7s8s1z1z2z3z4p6p8p",
    2: "9m9m9p9p1s1s3z3z4z4z6p7p8p",
    3: "2m5m8m4p7p3s5s7s9s1z2z2z4z",
}
OPEN = [ev("knock", 0), ev("discard", 0, "9s"),
        ev("draw", 1, "3s"), ev("discard", 1, "3s"),
        ev("draw", 2, "5s"), ev("discard", 2, "5s"),
        ev("draw", 3, "8s"), ev("discard", 3, "8s")]

CASES = []


def case(name, wall, events, expect, dealer=None, **extra):
    inp = {"wall": wall, "events": events}
    if dealer is not None:
        inp["dealer"] = dealer
    inp.update(extra)
    CASES.append((name, inp, expect))


# 1. Self-drawn win. Seat 0 knocks discarding 9s (123m456m789m123p5p: waits on 5p), three turns pass, seat 0
#    draws 5p. Hand 123m 456m 789m 123p 5p5p, nothing claimed, no flower.
#    Hua: base 1, nothing else -> 无花果 10 (S4). Doubles: 门清 1 (no 大挑车, no 杠开, chows, two suits).
#    Total 10 x 2 = 20; self-draw: each other seat pays 20 (S8). Next dealer: the winner, 0.
case("self-drawn win", build_wall(H, front=["3s5s8s5p"]),
     OPEN + [ev("draw", 0, "5p"), ev("win", 0)],
     {"verdict": "legal", "ended": "win",
      "winners": [{"seat": 0, "win_by": "self_draw", "total": 20,
                   "fans": [{"id": "无花果", "points": 10, "count": 1}, {"id": "门清", "points": 1, "count": 1}]}],
      "payments": [60, -20, -20, -20], "next_dealer": 0})

# 2. Win on a discard, with a flower at the deal and a concealed wind pung.
#    Dealer dealt 1z1z1z 234m 567m 234p 6p + 1f; exposes 1f, replacement 9s (from the back); knocks on 9s:
#    waits on 6p. Seat 1 draws 6p and discards it; seat 0 wins.
#    Hua: base 1 + flower 1 + wind pung (East) 1 = 3. Doubles: 门清 1. Total 3 x 2 = 6.
#    Discard win: the discarder (seat 1) pays 6 (S8).
H2 = {0: "1z1z1z2m3m4m5m6m7m2p3p4p6p1f", 1: "2s3s4s6s7s8s2z2z3z4p6p8p9p",
      2: "9m9m9p9p1s1s3z3z4z4z6p7p8p", 3: "2m5m8m4p7p3s5s7s9s1m2z4z8m"}
case("discard win with flower and wind pung", build_wall(H2, front=["6p"], back=["9s"]),
     [ev("flower", 0, "1f"), ev("draw", 0, "9s", **{"from": "back"}),
      ev("knock", 0), ev("discard", 0, "9s"),
      ev("draw", 1, "6p"), ev("discard", 1, "6p"), ev("win", 0, "6p")],
     {"verdict": "legal", "ended": "win",
      "winners": [{"seat": 0, "win_by": "discard", "total": 6,
                   "fans": [{"id": "going out", "points": 1, "count": 1}, {"id": "flower", "points": 1, "count": 1},
                            {"id": "wind pung", "points": 1, "count": 1}, {"id": "门清", "points": 1, "count": 1}]}],
      "payments": [6, -6, 0, 0], "next_dealer": 0})

# 3. Robbing the kong. Seat 0 discards 7s, seat 1 pungs it (holds 7s7s) and discards 1z; turns pass; seat 0 draws
#    8m, knocks on 8m (123m 456m 234p 9p9p 5s6s: waits 4s/7s). Seat 1 draws the fourth 7s and adds it to its pung;
#    seat 0 robs it (P20). Hand 123m 456m 234p 567s 9p9p: hua base only -> 无花果 10; 门清 -> 20.
#    抢杠: the konger pays 3 x 20 = 60 (S7, S8).
H3 = {0: "1m2m3m4m5m6m2p3p4p9p9p5s6s7s", 1: "7s7s1z2z2z3z4z1p1p8p8s8s9s",
      2: "9m9m1s1s3z3z4z4z6p7p8p2s3s", 3: "2m5m8m4p7p3s5s1z1z2z4z6m8m"}
case("robbing an added kong", build_wall(H3, front=["9s7m8m7s"]),
     [ev("discard", 0, "7s"), ev("pung", 1, tiles="7s7s7s"), ev("discard", 1, "1z"),
      ev("draw", 2, "9s"), ev("discard", 2, "9s"), ev("draw", 3, "7m"), ev("discard", 3, "7m"),
      ev("draw", 0, "8m"), ev("knock", 0), ev("discard", 0, "8m"),
      ev("draw", 1, "7s"), ev("add_kong", 1, "7s"), ev("win", 0, "7s")],
     {"verdict": "legal", "ended": "win",
      "winners": [{"seat": 0, "win_by": "robbing_kong", "total": 20,
                   "fans": [{"id": "无花果", "points": 10, "count": 1}, {"id": "门清", "points": 1, "count": 1},
                            {"id": "抢杠", "points": 3, "count": 1}]}],
      "payments": [60, -60, 0, 0], "next_dealer": 0})

# 4. Win on a flower replacement (杠开). As case 1, but seat 0 draws 2f, exposes it and draws 5p from the back.
#    Hua: base 1 + flower 1 = 2. Doubles: 门清 1, 杠开 1. Total 2 x 4 = 8; each other seat pays 8.
case("win on a flower replacement", build_wall(H, front=["3s5s8s2f"], back=["5p"]),
     OPEN + [ev("draw", 0, "2f"), ev("flower", 0, "2f"), ev("draw", 0, "5p", **{"from": "back"}), ev("win", 0)],
     {"verdict": "legal", "ended": "win",
      "winners": [{"seat": 0, "win_by": "self_draw", "total": 8,
                   "fans": [{"id": "going out", "points": 1, "count": 1}, {"id": "flower", "points": 1, "count": 1},
                            {"id": "门清", "points": 1, "count": 1}, {"id": "杠开", "points": 1, "count": 1}]}],
      "payments": [24, -8, -8, -8], "next_dealer": 0})

# 5. The mandatory kong, then a win on the kong replacement. Seat 0 discards 1z; seat 1 draws and discards 9m;
#    seat 0 pungs it, knocks and discards 3m (123p 456p 234s 6s: waits on 6s). Later seat 0 draws the fourth 9m:
#    it must extend its pung (P12), draws 6s from the back and wins.
#    Hua: base 1 + plain-suit exposed kong 1 = 2. Doubles: 杠开 1 (not 门清: the pung was claimed). 2 x 2 = 4.
#    Self-draw: each pays 4.
H5 = {0: "9m9m1p2p3p4p5p6p2s3s4s6s1z3m", 1: "7s7s8s8s1z2z2z3z4z5p7p8p9p",
      2: "1s1s3z3z4z4z6p7p8p2m5m8m9s", 3: "1m4m7m1p4p3s5s9s1z2z6m8m8p"}
E5 = [ev("discard", 0, "1z"), ev("draw", 1, "9m"), ev("discard", 1, "9m"),
      ev("pung", 0), ev("knock", 0), ev("discard", 0, "3m"),
      ev("draw", 1, "2p"), ev("discard", 1, "2p"), ev("draw", 2, "3p"), ev("discard", 2, "3p"),
      ev("draw", 3, "6m"), ev("discard", 3, "6m"), ev("draw", 0, "9m")]
W5 = build_wall(H5, front=["9m2p3p6m9m"], back=["6s"])
case("mandatory kong, win on its replacement", W5,
     E5 + [ev("add_kong", 0, "9m"), ev("draw", 0, "6s", **{"from": "back"}), ev("win", 0, "6s")],
     {"verdict": "legal", "ended": "win",
      "winners": [{"seat": 0, "win_by": "self_draw", "total": 4,
                   "fans": [{"id": "going out", "points": 1, "count": 1},
                            {"id": "plain-suit exposed kong", "points": 1, "count": 1},
                            {"id": "杠开", "points": 1, "count": 1}]}],
      "payments": [12, -4, -4, -4], "next_dealer": 0})

# 6. The same, but seat 0 discards the drawn 9m instead of extending its pung: illegal at event 13 (P12).
case("skipping the mandatory kong", W5, E5 + [ev("discard", 0, "9m")],
     {"verdict": "illegal", "rule": "mandatory-kong", "event": 13})


# 7-9. A hand played to the wall's end: every seat discards what it draws, flowers exposed as they come.
#    No one knocks, so no one may win; after the last tile the hand is drawn. Dealer seat 2 stays dealer (S10),
#    nothing is paid (S9). With the closing draw_game; without it (P23); and cut short (unfinished).
def exhaust_log(seed, dealer):
    names = all_tiles()
    random.Random(seed).shuffle(names)
    wall = names
    front, back = 0, 143
    hands = {s: [] for s in range(4)}
    order = [(dealer + k) % 4 for k in range(4)]
    for _ in range(3):
        for s in order:
            hands[s] += wall[front:front + 4]
            front += 4
    for s in order:
        hands[s].append(wall[front])
        front += 1
    hands[dealer].append(wall[front])
    front += 1
    isf = lambda t: t[1] == "f" or t in ("5z", "6z", "7z")
    evs = []
    for s in order:
        while any(isf(t) for t in hands[s]):
            f = next(t for t in hands[s] if isf(t))
            hands[s].remove(f)
            evs.append(ev("flower", s, f))
            t = wall[back]
            back -= 1
            evs.append(ev("draw", s, t, **{"from": "back"}))
            hands[s].append(t)
    cur = dealer
    last = next(t for t in reversed(hands[dealer]) if not isf(t))
    while True:
        hands[cur].remove(last)
        evs.append(ev("discard", cur, last))
        if back < front:
            break
        cur = (cur + 1) % 4
        t = wall[front]
        front += 1
        evs.append(ev("draw", cur, t))
        hands[cur].append(t)
        while isf(t):
            hands[cur].remove(t)
            evs.append(ev("flower", cur, t))
            if back < front:
                return "".join(wall), evs, False
            t = wall[back]
            back -= 1
            evs.append(ev("draw", cur, t, **{"from": "back"}))
            hands[cur].append(t)
        last = t
    return "".join(wall), evs, True


XW, XE, _ = exhaust_log(20240607, 2)
DRAWN = {"verdict": "legal", "ended": "draw", "winners": [], "payments": [0, 0, 0, 0], "next_dealer": 2}
case("drawn at the wall's end", XW, XE + [ev("draw_game")], DRAWN, dealer=2)
case("drawn at the wall's end, no draw_game", XW, XE, DRAWN, dealer=2)
case("cut short", XW, XE[:40], {"verdict": "unfinished"}, dealer=2)
# 10. After the last discard no seat may draw (P23).
case("draw from an empty wall", XW, XE + [ev("draw", (int(XE[-1]["seat"]) + 1) % 4)],
     {"verdict": "illegal", "rule": "wall-exhausted", "event": len(XE)}, dealer=2)

W1 = build_wall(H, front=["3s5s8s5p"])
# 11. Out-of-turn discard: after seat 0's 9s, seat 2 discards (seat 1 is to draw).
case("out-of-turn discard", W1, [ev("discard", 0, "9s"), ev("discard", 2, "9m")],
     {"verdict": "illegal", "rule": "out-of-turn", "event": 1})
# 12. Discarding a tile not held: seat 0 holds no 9p.
case("discard not held", W1, [ev("discard", 0, "9p")],
     {"verdict": "illegal", "rule": "tile-not-held", "event": 0})
# 13. A chow by a seat that is not next (P16): seat 2 chows seat 0's 9s.
case("chow from across", W1, [ev("discard", 0, "9s"), ev("chow", 2, tiles="7s8s9s")],
     {"verdict": "illegal", "rule": "chow-upstream-only", "event": 1})
# 14. Knock whose discard leaves the hand not waiting (P6, P7): discarding 1m leaves 2m..9m 123p 5p 9s.
case("knock not waiting", W1, [ev("knock", 0), ev("discard", 0, "1m")],
     {"verdict": "illegal", "rule": "knock-not-waiting", "event": 1})
# 15. A knock not followed at once by the same seat's discard.
case("knock then draw", W1, [ev("knock", 0), ev("draw", 1)],
     {"verdict": "illegal", "rule": "knock-then-discard", "event": 1})
# 16. A claim after knocking (P10): knocked seat 0 chows seat 3's 3p with its 1p2p.
case("chow after knocking", build_wall(H, front=["3s5s3p"]),
     OPEN[:6] + [ev("draw", 3, "3p"), ev("discard", 3, "3p"), ev("chow", 0, tiles="1p2p3p")],
     {"verdict": "illegal", "rule": "claim-after-knock", "event": 8})
# 17. A win on a hand that is not complete: seat 0 waits on 5p and declares a win on 6p.
case("win on an incomplete hand", build_wall(H, front=["6p"]),
     OPEN[:2] + [ev("draw", 1, "6p"), ev("discard", 1, "6p"), ev("win", 0)],
     {"verdict": "illegal", "rule": "not-a-winning-hand", "event": 4})
# 18. A win without knocking (P8): seat 0 discards 9s without a knock; 5p would complete it.
case("win without knocking", build_wall(H, front=["5p"]),
     [ev("discard", 0, "9s"), ev("draw", 1, "5p"), ev("discard", 1, "5p"), ev("win", 0)],
     {"verdict": "illegal", "rule": "win-without-knock", "event": 3})
# 19. A missed win forfeits (P13): seat 1's 5p goes by (seat 2 draws); when seat 0 later draws 5p its win is
#     refused. Events 4-8 are legal: the forfeit is not itself an illegal event.
case("win after a missed win", build_wall(H, front=["5p5s8s5p"]),
     OPEN[:2] + [ev("draw", 1, "5p"), ev("discard", 1, "5p"), ev("draw", 2, "5s"), ev("discard", 2, "5s"),
                 ev("draw", 3, "8s"), ev("discard", 3, "8s"), ev("draw", 0, "5p"), ev("win", 0)],
     {"verdict": "illegal", "rule": "win-after-forfeit", "event": 9})
# 20. ... and the forfeited seat may (must) go on discarding what it draws: unfinished, not illegal.
case("play on after a missed win", build_wall(H, front=["5p5s8s5p"]),
     OPEN[:2] + [ev("draw", 1, "5p"), ev("discard", 1, "5p"), ev("draw", 2, "5s"), ev("discard", 2, "5s"),
                 ev("draw", 3, "8s"), ev("discard", 3, "8s"), ev("draw", 0, "5p"), ev("discard", 0, "5p")],
     {"verdict": "unfinished"})
# 21. The locked hand (P9): knocked seat 0 draws 7p and discards 1m.
case("locked hand", build_wall(H, front=["3s5s8s7p"]),
     OPEN + [ev("draw", 0, "7p"), ev("discard", 0, "1m")],
     {"verdict": "illegal", "rule": "locked-hand", "event": 9})
# 22. Swap-calling (P18): seat 1 chows 9s with 7s8s and discards 6s, the run's other end.
case("swap-calling other end", W1, [ev("discard", 0, "9s"), ev("chow", 1, tiles="7s8s9s"), ev("discard", 1, "6s")],
     {"verdict": "illegal", "rule": "swap-calling", "event": 2})
case("chow then a free discard", W1, [ev("discard", 0, "9s"), ev("chow", 1, tiles="7s8s9s"), ev("discard", 1, "1z")],
     {"verdict": "unfinished"})
# 24. Forgo-then-reclaim (P17): seat 2 could pung seat 0's 9m and let it go; before drawing it pungs seat 1's 9m.
case("forgo then reclaim", build_wall(H, front=["9m"]),
     [ev("discard", 0, "9m"), ev("draw", 1, "9m"), ev("discard", 1, "9m"), ev("pung", 2)],
     {"verdict": "illegal", "rule": "forgo-reclaim", "event": 3})
# 25. A claims event: seat 1 passes, seat 2 pungs 9m (P14); seat 2 now discards, so seat 1 may not draw.
case("claims event: the pung is made", W1,
     [ev("discard", 0, "9m"), {"event": "claims", "answers": [{"seat": 1, "claim": "pass"}, {"seat": 2, "claim": "pung"}]},
      ev("draw", 1)],
     {"verdict": "illegal", "rule": "out-of-turn", "event": 2})
# 26. A second claim of a discard already claimed, claims written by priority: seat 1 chows 9s, then seat 3
#     tries to pung it (it holds one 9s only, but the refusal is the priority one).
case("second claim refused", W1, [ev("discard", 0, "9s"), ev("chow", 1, tiles="7s8s9s"), ev("pung", 3)],
     {"verdict": "illegal", "rule": "claim-priority", "event": 2})
# 26b. Claims written as declared (P14): seat 1 chows seat 0's 1s, then seat 2 pungs it (holds 1s1s): the pung
#     outranks the chow and takes the tile; the chow is undone, so seat 2 discards next (9m legal) and seat 1's
#     discard would be out of turn. Under the default (priority) order the pung is refused.
H26 = dict(H)
H26[0] = "1m2m3m4m5m6m7m8m9m1p2p3p5p1s"
W26 = build_wall(H26)
case("declared: pung overrides chow", W26,
     [ev("discard", 0, "1s"), ev("chow", 1, tiles="1s2s3s"), ev("pung", 2), ev("discard", 2, "9m"),
      ev("discard", 1, "2s")],
     {"verdict": "illegal", "rule": "out-of-turn", "event": 4}, claim_order="declared")
case("priority: pung after chow refused", W26,
     [ev("discard", 0, "1s"), ev("chow", 1, tiles="1s2s3s"), ev("pung", 2)],
     {"verdict": "illegal", "rule": "claim-priority", "event": 2})
# 27. An event after the hand ended is bad input (P27).
case("event after the win", build_wall(H, front=["3s5s8s5p"]),
     OPEN + [ev("draw", 0, "5p"), ev("win", 0), ev("discard", 1, "1z")],
     {"verdict": "bad input", "event": 10})
# 28. A dragon is a flower (P1, P4): a seat may not discard it.
H28 = dict(H)
H28[0] = "1m2m3m4m5m6m7m8m9m1p2p3p5p5z"
case("discarding a dragon", build_wall(H28, back=["9s"]), [ev("discard", 0, "5z")],
     {"verdict": "illegal", "rule": "flowers-first", "event": 0})

# 29. Unreadable input: an unknown tile -> an error answer, the engine goes on.
BAD = ("unknown tile", {"wall": W1, "events": [ev("discard", 0, "0x")]})


def main():
    p = subprocess.Popen([sys.executable, ENGINE], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(msg):
        p.stdin.write(json.dumps(msg, ensure_ascii=False) + "\n")
        p.stdin.flush()
        return json.loads(p.stdout.readline())

    start = ask({"cmd": "start", "protocol": 1})
    assert start["name"] == "unseen-play-knocking" and start["kinds"] == ["procedure"], start
    fails = 0
    for i, (name, inp, expect) in enumerate(CASES):
        r = ask({"cmd": "run", "id": i, "case": {"id": name, "ruleset": "shanghai-knocking", "kind": "procedure",
                                                  "input": inp, "expect": expect}})
        got = r.get("result", r)
        bad = [k for k in expect if got.get(k) != expect[k]] if r.get("id") == i and "result" in r else ["answer"]
        if bad:
            fails += 1
            print("FAIL %-45s %s\n   expected %s\n   got      %s" % (name, bad, json.dumps(expect, ensure_ascii=False),
                                                                   json.dumps(got, ensure_ascii=False)))
        else:
            print("ok   %s" % name)
    r = ask({"cmd": "run", "id": 999, "case": {"id": BAD[0], "kind": "procedure", "input": BAD[1]}})
    if r.get("id") == 999 and "error" in r and "result" not in r:
        print("ok   %s (error: %s)" % (BAD[0], r["error"]))
    else:
        fails += 1
        print("FAIL %s: %s" % (BAD[0], r))
    p.stdin.write(json.dumps({"cmd": "stop"}) + "\n")
    p.stdin.flush()
    p.wait(timeout=10)
    total = len(CASES) + 1
    print("%d/%d passed" % (total - fails, total))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
