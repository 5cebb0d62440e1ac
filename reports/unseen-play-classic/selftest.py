#!/usr/bin/env python3
"""Self-test of classic_play_engine.py: hand-made hands of play, answers worked out by
hand from READINGS.md, plus a protocol check through the engine process.

Exit status 0 only when every check holds.

Walls are built so that the deal and every draw are known: `build()` puts the named
hands in the deal positions (blocks of four from the dealer, then one each, the
dealer's fourteenth last), the named front draws at wall[53..], the named back
(replacement) draws at wall[143], wall[142], ..., and fills every other place from
the tiles left (hands first, from tile kinds the test does not reserve, flowers never
in a filled hand).  Seat 0 deals unless said.  J-tiles in comments are junk.
"""
import json
import os
import subprocess
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import classic_play_engine as eng  # noqa: E402

T = eng.parse_tiles


def positions(dealer=0):
    order = [(dealer + k) % 4 for k in range(4)]
    pos, i = {s: [] for s in range(4)}, 0
    for _ in range(3):
        for s in order:
            pos[s] += list(range(i, i + 4))
            i += 4
    for s in order:
        pos[s].append(i)
        i += 1
    pos[dealer].append(i)
    return pos


def build(hands, front="", back="", dealer=0, reserve=""):
    """hands: {seat: tiles} (a seat's tiles may be fewer than it is dealt: the rest is filled)."""
    pos = positions(dealer)
    wall = [None] * 144
    pool = Counter(eng.ORDER144)

    def take(ts):
        for t in ts:
            if pool[t] <= 0:
                raise AssertionError(f"test wall: a fifth {t}")
            pool[t] -= 1
    fr, bk = T(front), T(back)
    given = {s: T(h) for s, h in hands.items()}
    for s, ts in given.items():
        take(ts)
    take(fr)
    take(bk)
    for i, t in enumerate(fr):
        wall[53 + i] = t
    for i, t in enumerate(bk):
        wall[143 - i] = t
    avoid = set(T(reserve))
    for s in range(4):
        ts = list(given.get(s, []))
        need = len(pos[s]) - len(ts)
        assert need >= 0, f"seat {s}: too many tiles"
        # fill: one of each unreserved kind in turn, so no pairs appear by chance
        kinds = [t for t in eng.ALL34 if t not in avoid]
        k = (s * 7) % len(kinds)
        while need:
            for _ in range(len(kinds)):
                t = kinds[k % len(kinds)]
                k += 1
                if pool[t] > 0 and ts.count(t) == 0:
                    break
            else:
                raise AssertionError("test wall: cannot fill a hand")
            pool[t] -= 1
            ts.append(t)
            need -= 1
        for p, t in zip(pos[s], ts):
            wall[p] = t
    rest = []
    for t in eng.ALL34:
        rest += [t] * pool[t]
    # flowers not placed by the test go to the middle of the wall, five apart
    mid = len(rest) // 2
    for k, f in enumerate(t for t in eng.FLOWERS if pool[t]):
        rest.insert(min(mid + 5 * k, len(rest)), f)
    free = [i for i in range(144) if wall[i] is None]
    assert len(free) == len(rest)
    for i, t in zip(free, rest):
        wall[i] = t
    assert Counter(wall) == Counter(eng.ORDER144)
    return "".join(wall)


def E(kind, seat=None, **kw):
    d = {"event": kind}
    if seat is not None:
        d["seat"] = seat
    d.update(kw)
    return d


def draw(s, t=None, back=False):
    d = E("draw", s, **({"from": "back"} if back else {}))
    if t:
        d["tile"] = t
    return d


def disc(s, t):
    return E("discard", s, tile=t)


CASES = []


def case(name, inp, expect):
    CASES.append((name, inp, expect))


# ---------------------------------------------------------------------------
# Hand A: seat 1 = 111m 222p 333s 11z 99m, waits on 1z / 9m for 碰碰胡 (S1).
HAND_A = "111m222p333s11z99m"
RES_A = "1m2p3s1z9m5p"

# 1. Win on a discard.  Seat 1 draws 5p, knocks, discards 5p (waits 1z/9m: P1).
#    Seat 2 draws 9m and discards it; seat 1 wins.  碰碰胡 111m 222p 333s 999m 11z:
#    no 花 (the 1z pair counts nothing, S4), value 底分 2 + 0 = 2, 门清 x2 = 4,
#    cap 2 勒 = 20 (S6) -> 4.  Discarder alone pays one share (S9): [0, 4, -4, 0].
#    Next dealer the winner (P15); 荒番 0 stays 0 (P16).
wall1 = build({0: "4m", 1: HAND_A}, front="5p9m", reserve=RES_A)
ev1 = [disc(0, "4m"), draw(1, "5p"), E("knock", 1), disc(1, "5p"), draw(2, "9m"), disc(2, "9m"),
       E("win", 1)]
case("discard win, 碰碰胡 门清", {"wall": wall1, "events": ev1},
     {"verdict": "legal", "ended": "win", "payments": [0, 4, -4, 0], "next_dealer": 1, "next_huangfan": 0,
      "winners": [{"seat": 1, "win_by": "discard", "total": 4,
                   "fan_ids": {"pengpenghu", "difen", "menqing"}}]})

# 2. The same hand with 开宝, 荒番 1 and 底分 3: (3 + 0) x2 门清 x2 开宝 x2 荒番 = 24;
#    cap 2 勒 (门清) x2 x2 = 80 (S7) -> 24.  [0, 24, -24, 0]; 荒番 1 -> 0 after a win.
case("discard win with 开宝, 荒番, 底分 3",
     {"wall": wall1, "events": ev1, "flags": {"kaibao": True}, "counters": {"huangfan": 1, "base": 3}},
     {"verdict": "legal", "ended": "win", "payments": [0, 24, -24, 0], "next_dealer": 1, "next_huangfan": 0,
      "winners": [{"seat": 1, "win_by": "discard", "total": 24}]})

# 3. Self-drawn: after the knock every seat draws and discards junk, seat 1 draws 9m.
#    Value 4 as in case 1; each of three pays one share: [-4, 12, -4, -4].
wall3 = build({0: "4m", 1: HAND_A}, front="5p1p1s3z9m", reserve=RES_A)
ev3 = [disc(0, "4m"), draw(1, "5p"), E("knock", 1), disc(1, "5p"), draw(2, "1p"), disc(2, "1p"),
       draw(3, "1s"), disc(3, "1s"), draw(0, "3z"), disc(0, "3z"), draw(1, "9m"), E("win", 1)]
case("self-drawn win", {"wall": wall3, "events": ev3},
     {"verdict": "legal", "ended": "win", "payments": [-4, 12, -4, -4], "next_dealer": 1,
      "winners": [{"seat": 1, "win_by": "self_draw", "total": 4}]})

# 4. No knock before the win: illegal at the win (P1), rule win.not_knocked.
ev4 = [disc(0, "4m"), draw(1, "5p"), disc(1, "5p"), draw(2, "9m"), disc(2, "9m"), E("win", 1)]
case("win without knocking", {"wall": wall1, "events": ev4},
     {"verdict": "illegal", "event": 5, "rule": "win.not_knocked"})

# 5. 漏胡 (P5): seat 2 discards 9m, seat 1 lets it pass (seat 3 draws); seat 3 discards
#    9m too; seat 1 may not win on it: illegal at event 8, rule win.missed.
wall5 = build({0: "4m", 1: HAND_A}, front="5p9m9m", reserve=RES_A)
ev5 = [disc(0, "4m"), draw(1, "5p"), E("knock", 1), disc(1, "5p"), draw(2, "9m"), disc(2, "9m"),
       draw(3, "9m"), disc(3, "9m"), E("win", 1)]
case("漏胡: same tile from another seat", {"wall": wall5, "events": ev5},
     {"verdict": "illegal", "event": 8, "rule": "win.missed"})

# 6. 漏胡 lifted: seat 1 lets 9m pass, then draws (动牌) before seat 3 discards 9m: the
#    win is legal.  Value 4, the dealer pays: [-4, 4, 0, 0].
wall6 = build({0: "4m", 1: HAND_A}, front="5p9m1p1s3z4p7s9m", reserve=RES_A)
ev6 = [disc(0, "4m"), draw(1, "5p"), E("knock", 1), disc(1, "5p"), draw(2, "9m"), disc(2, "9m"),
       draw(3, "1p"), disc(3, "1p"), draw(0, "1s"), disc(0, "1s"), draw(1, "3z"), disc(1, "3z"),
       draw(2, "4p"), disc(2, "4p"), draw(3, "7s"), disc(3, "7s"), draw(0, "9m"), disc(0, "9m"),
       E("win", 1)]
case("漏胡 lifted by a draw", {"wall": wall6, "events": ev6},
     {"verdict": "legal", "ended": "win", "payments": [-4, 4, 0, 0], "next_dealer": 1,
      "winners": [{"seat": 1, "win_by": "discard", "total": 4}]})

# 7. A knock whose discard leaves no permitted wait: 11m 222p 333s 11z 99m 5p after
#    discarding 1m waits on nothing: illegal at the discard, knock.not_waiting.
ev7 = [disc(0, "4m"), draw(1, "5p"), E("knock", 1), disc(1, "1m")]
case("knock not waiting", {"wall": wall1, "events": ev7},
     {"verdict": "illegal", "event": 3, "rule": "knock.not_waiting"})

# Hand B: seat 1 = 222p 333s 111z 555m 6m waits on 6m (碰碰胡); 4m or 7m would
# complete it only with a chow in mixed suits, which is no permitted pattern.
HAND_B = "222p333s111z555m6m"
RES_B = "2p3s1z5m6m4m7m"

# 8. Win on 4m: complete but 平胡-like: illegal at the win, rule win.pattern (S1).
wall8 = build({0: "9p", 1: HAND_B}, front="9s4m", reserve=RES_B + "9s9p")
ev8 = [disc(0, "9p"), draw(1, "9s"), E("knock", 1), disc(1, "9s"), draw(2, "4m"), disc(2, "4m"),
       E("win", 1)]
case("win on a pattern not permitted", {"wall": wall8, "events": ev8},
     {"verdict": "illegal", "event": 6, "rule": "win.pattern"})

# 9. Claim contest, all answers at once: seat 2 discards 6m; seat 3 (holding 6m6m)
#    answers pung, seat 1 answers win.  The win outranks the pung (P3).
#    222p 333s 111z 555m 66m: 1z pung = 1 花; (2 + 1) x2 门清 = 6; seat 2 pays 6.
wall9 = build({0: "9p", 1: HAND_B, 3: "6m6m"}, front="9s6m", reserve=RES_B + "9s9p")
ev9 = [disc(0, "9p"), draw(1, "9s"), E("knock", 1), disc(1, "9s"), draw(2, "6m"), disc(2, "6m"),
       E("claims", answers=[{"seat": 3, "claim": "pung"}, {"seat": 1, "claim": "win"}])]
case("claims: win beats pung", {"wall": wall9, "events": ev9},
     {"verdict": "legal", "ended": "win", "payments": [0, 6, -6, 0], "next_dealer": 1,
      "winners": [{"seat": 1, "win_by": "discard", "total": 6,
                   "fan_ids": {"pengpenghu", "difen", "wind_pung", "menqing"}}]})

# Chow/pung contest: the dealer discards 4s; seat 1 holds 5s6s, seat 2 holds 4s4s.
wall10 = build({0: "4s", 1: "5s6s", 2: "4s4s9m"}, front="1p", reserve="4s5s6s9m1p")
# 10. claims: seat 1 chow, seat 2 pung, seat 3 pass -> the pung is made (碰 before 吃);
#     seat 2 discards 9m, seat 3 draws: legal so far, unfinished.
ev10 = [disc(0, "4s"), E("claims", answers=[{"seat": 1, "claim": "chow", "tiles": "4s5s6s"},
                                            {"seat": 2, "claim": "pung"}, {"seat": 3, "claim": "pass"}]),
        disc(2, "9m"), draw(3, "1p")]
case("claims: pung beats chow", {"wall": wall10, "events": ev10}, {"verdict": "unfinished"})
# 11. Same, but seat 1 discards after the claims: the pung took the tile, so seat 1 is
#     out of turn: illegal at event 2, turn.order.
ev11 = ev10[:2] + [disc(1, "5s")]
case("claims: the chow was not made", {"wall": wall10, "events": ev11},
     {"verdict": "illegal", "event": 2, "rule": "turn.order"})
# 12. One by one in the default priority order: a pung after the chow is refused
#     (P4): illegal at event 2, claim.priority.
ev12 = [disc(0, "4s"), E("chow", 1, tiles="4s5s6s"), E("pung", 2)]
case("pung after chow, priority order", {"wall": wall10, "events": ev12},
     {"verdict": "illegal", "event": 2, "rule": "claim.priority"})
# 13. The same under claim_order declared: the pung takes the tile, seat 1 has passed;
#     seat 2 discards, seat 3 draws: unfinished.  A discard by seat 1 after the pung
#     would be out of turn (case 14).
ev13 = ev12 + [disc(2, "9m"), draw(3, "1p")]
case("pung after chow, declared order", {"wall": wall10, "events": ev13, "claim_order": "declared"},
     {"verdict": "unfinished"})
case("declared order: the chow is undone", {"wall": wall10, "events": ev12 + [disc(1, "5s")],
                                            "claim_order": "declared"},
     {"verdict": "illegal", "event": 3, "rule": "turn.order"})

# 15. 一炮多响 (P3, P15): seat 1 (HAND_B, waits 6m) and seat 3 (777p 888s 222z 66m 99s,
#     waits 6m/9s) both knock; the dealer draws and discards 6m; both win, in turn order.
#     Seat 1: 1z pung 1 花 -> (2+1) x2 门清 = 6.  Seat 3: 2z pung 1 花 -> 6.
#     The dealer pays both: [-12, 6, 0, 6].  Next dealer: the seat after the winner nearest
#     the discarder (seat 1) = seat 2.
HAND_C = "777p888s222z6m6m9s9s"
wall15 = build({0: "9p", 1: HAND_B, 3: HAND_C}, front="9s1s3p6m",
               reserve=RES_B + "7p8s2z9s9p1s3p")
ev15 = [disc(0, "9p"), draw(1, "9s"), E("knock", 1), disc(1, "9s"), draw(2, "1s"), disc(2, "1s"),
        draw(3, "3p"), E("knock", 3), disc(3, "3p"), draw(0, "6m"), disc(0, "6m"),
        E("win", 1), E("win", 3)]
case("一炮多响", {"wall": wall15, "events": ev15},
     {"verdict": "legal", "ended": "win", "payments": [-12, 6, 0, 6], "next_dealer": 2,
      "winners": [{"seat": 1, "win_by": "discard", "total": 6}, {"seat": 3, "win_by": "discard", "total": 6}]})
# 16. The two wins written out of turn order: illegal at the second, win.order.
case("一炮多响 out of order", {"wall": wall15, "events": ev15[:11] + [E("win", 3), E("win", 1)]},
     {"verdict": "illegal", "event": 12, "rule": "win.order"})

# 17. Robbing a kong (抢杠): the dealer discards 4p, seat 2 pungs it; later seat 1
#     (111p 23p 555p 777p 99p, knocked, waits 1p/4p) robs seat 2's added kong of 4p.
#     111p 234p 555p 777p 99p = 清一色, 1 勒 = 10, x2 门清 = 20, cap 2 勒 = 20 -> 20.
#     Robbed: scored as self-drawn, the konger pays 3 shares = 60, but no player loses
#     more than 5 勒 = 50 in a hand (S10): [0, 50, -50, 0].
HAND_D = "111p23p555p777p99p"
wall17 = build({0: "4p", 1: HAND_D, 2: "4p4p1m"}, front="1s2s3s4p", reserve="1p2p3p4p5p7p9p1m1s2s3s")
ev17 = [disc(0, "4p"), E("pung", 2), disc(2, "1m"), draw(3, "1s"), disc(3, "1s"), draw(0, "2s"),
        disc(0, "2s"), draw(1, "3s"), E("knock", 1), disc(1, "3s"), draw(2, "4p"),
        E("add_kong", 2, tile="4p"), E("win", 1)]
case("robbing an added kong", {"wall": wall17, "events": ev17},
     {"verdict": "legal", "ended": "win", "payments": [0, 50, -50, 0], "next_dealer": 1,
      "winners": [{"seat": 1, "win_by": "robbing_kong", "total": 20,
                   "fan_ids": {"qingyise", "menqing"}}]})

# 18. Concealed kong, replacement from the back, 杠上开花: seat 1 = 111z 222z 555p 77p 88p,
#     knocked (waits 7p/8p), draws the fourth 1z, declares the concealed kong, draws 8p
#     from the back and wins.  1111z(concealed) 222z 555p 888p 77p: one suit + winds, all
#     pungs = 混碰, 1 勒 = 10; 门清 (a concealed kong keeps it) x2 = 20; cap 2 勒 = 20;
#     杠开 floor 10 (S8) -> 20.  Each pays 20: [-20, 60, -20, -20].
HAND_E = "111z222z555p77p88p"
wall18 = build({0: "9m", 1: HAND_E}, front="9s1s3m2m1z", back="8p",
               reserve="1z2z5p7p8p9m9s1s3m2m")
ev18 = [disc(0, "9m"), draw(1, "9s"), E("knock", 1), disc(1, "9s"), draw(2, "1s"), disc(2, "1s"),
        draw(3, "3m"), disc(3, "3m"), draw(0, "2m"), disc(0, "2m"), draw(1, "1z"),
        E("concealed_kong", 1, tile="1z"), draw(1, "8p", back=True), E("win", 1)]
case("concealed kong and 杠开", {"wall": wall18, "events": ev18},
     {"verdict": "legal", "ended": "win", "payments": [-20, 60, -20, -20], "next_dealer": 1,
      "winners": [{"seat": 1, "win_by": "self_draw", "total": 20,
                   "fan_ids": {"hunpeng", "menqing", "gangkai"}}]})
# 19. The kong's replacement taken from the front: illegal, draw.replacement_from_back.
case("kong replacement from the front", {"wall": wall18, "events": ev18[:12] + [E("draw", 1, **{"from": "wall"})]},
     {"verdict": "illegal", "event": 12, "rule": "draw.replacement_from_back"})

# 20. A flower drawn in play, its replacement wins (杠开 by a flower, S8): seat 1 pungs
#     the dealer's 3s, knocks, waits 4z/8s; draws 1f, exposes it, draws 8s from the back.
#     333s(pung) 222p 666m 888s 44z = 碰碰胡; 花: the flower 1 -> 2 + 1 = 3; no 门清;
#     杠开 lifts it to 1 勒 = 10; cap 1 勒 -> 10.  Each pays 10: [-10, 30, -10, -10].
HAND_F = "3s3s222p666m4z4z8s8s9p"
wall20 = build({0: "3s", 1: HAND_F}, front="1m2m5m1f", back="8s",
               reserve="3s2p6m4z8s9p1m2m5m")
ev20 = [disc(0, "3s"), E("pung", 1), E("knock", 1), disc(1, "9p"), draw(2, "1m"), disc(2, "1m"),
        draw(3, "2m"), disc(3, "2m"), draw(0, "5m"), disc(0, "5m"), draw(1, "1f"),
        E("flower", 1, tile="1f"), draw(1, "8s", back=True), E("win", 1)]
case("flower replacement win", {"wall": wall20, "events": ev20},
     {"verdict": "legal", "ended": "win", "payments": [-10, 30, -10, -10], "next_dealer": 1,
      "winners": [{"seat": 1, "win_by": "self_draw", "total": 10,
                   "fan_ids": {"pengpenghu", "difen", "flower", "gangkai"}}]})
# 21. Holding the drawn flower, seat 1 discards another tile: flower.must_expose.
case("discard while holding a flower", {"wall": wall20, "events": ev20[:11] + [disc(1, "2p")]},
     {"verdict": "illegal", "event": 11, "rule": "flower.must_expose"})

# Flowers at the deal (P11): seat 2 is dealt 1f, seat 3 is dealt 2f.
wall22 = build({0: "9m", 2: "1f", 3: "2f"}, front="5s", back="1s2s", reserve="9m5s1s2s")
# 22. Seat 2 then seat 3 expose and replace, then the dealer discards: unfinished.
ev22 = [E("flower", 2, tile="1f"), draw(2, "1s", back=True), E("flower", 3, tile="2f"),
        draw(3, "2s", back=True), disc(0, "9m"), draw(1, "5s")]
case("flowers at the deal", {"wall": wall22, "events": ev22}, {"verdict": "unfinished"})
# 23. The dealer discards before the dealt flowers are out: flower.deal_first.
case("discard before the deal's flowers", {"wall": wall22, "events": [disc(0, "9m")]},
     {"verdict": "illegal", "event": 0, "rule": "flower.deal_first"})
# 24. Seat 3 exposes before seat 2: flower.deal_order.
case("deal flowers out of order", {"wall": wall22, "events": [E("flower", 3, tile="2f")]},
     {"verdict": "illegal", "event": 0, "rule": "flower.deal_order"})

# 25. 承包 (S11): seat 1 pungs three of the dealer's discards (2z, 5z, 3p), knocks and
#     draws 7m: 222z 555z 333p (pungs) 777m 99m = 碰碰胡; 花: wind pung 1 + dragon pung 2
#     = 3 -> 2 + 3 = 5; no 门清; cap 10 -> 5.  Self-drawn with a 承包 relation to seat 0:
#     seat 0 pays 5 shares = 25, seats 2 and 3 one share each: [-25, 35, -5, -5].
HAND_G = "2z2z5z5z3p3p7m7m9m9m1s4s7s"
wall25 = build({0: "2z", 1: HAND_G},
               front="1p2p5z4p6p3p8p6s8s7m",
               reserve="2z5z3p7m9m1s4s7s1p2p4p6p8p6s8s")
ev25 = [disc(0, "2z"), E("pung", 1), disc(1, "1s"),
        draw(2, "1p"), disc(2, "1p"), draw(3, "2p"), disc(3, "2p"), draw(0, "5z"), disc(0, "5z"),
        E("pung", 1), disc(1, "4s"),
        draw(2, "4p"), disc(2, "4p"), draw(3, "6p"), disc(3, "6p"), draw(0, "3p"), disc(0, "3p"),
        E("pung", 1), E("knock", 1), disc(1, "7s"),
        draw(2, "8p"), disc(2, "8p"), draw(3, "6s"), disc(3, "6s"), draw(0, "8s"), disc(0, "8s"),
        draw(1, "7m"), E("win", 1)]
case("承包: three claims from one seat", {"wall": wall25, "events": ev25},
     {"verdict": "legal", "ended": "win", "payments": [-25, 35, -5, -5], "next_dealer": 1,
      "winners": [{"seat": 1, "win_by": "self_draw", "total": 5}]})

# 25b. 承包 paid by a third party who has not knocked (S11): as case 25, but seat 2
#     draws 7m and discards it; seat 1 wins on it.  Value 5 as in case 25.  Seat 2 is
#     outside the 承包 relation of seats 1 and 0 and has not knocked (未听牌): it pays
#     2 shares = 10; seat 0 pays nothing: [0, 10, -10, 0].
wall25b = build({0: "2z", 1: HAND_G},
                front="1p2p5z4p6p3p7m",
                reserve="2z5z3p7m9m1s4s7s1p2p4p6p")
ev25b = ev25[:20] + [draw(2, "7m"), disc(2, "7m"), E("win", 1)]
case("承包: third party not ready pays double", {"wall": wall25b, "events": ev25b},
     {"verdict": "legal", "ended": "win", "payments": [0, 10, -10, 0], "next_dealer": 1,
      "winners": [{"seat": 1, "win_by": "discard", "total": 5}]})

# 26. 八花齐 (P12): seat 1 is dealt seven flowers, exposes and replaces them at the deal,
#     draws 8f in play, exposes it and wins at once: 2 勒 = 20 (cap 2 勒);
#     self-drawn, each pays 20: [-20, 60, -20, -20].
wall26 = build({0: "9m", 1: "1f2f3f4f5f6f7f"}, front="8f", back="1s2s3s4s5s6s7s",
               reserve="9m1s2s3s4s5s6s7s")
ev26 = []
for k, f in enumerate(["1f", "2f", "3f", "4f", "5f", "6f", "7f"]):
    ev26 += [E("flower", 1, tile=f), draw(1, f"{k + 1}s", back=True)]
ev26 += [disc(0, "9m"), draw(1, "8f"), E("flower", 1, tile="8f"), E("win", 1)]
case("八花齐", {"wall": wall26, "events": ev26},
     {"verdict": "legal", "ended": "win", "payments": [-20, 60, -20, -20], "next_dealer": 1,
      "winners": [{"seat": 1, "win_by": "self_draw", "total": 20, "fan_ids": {"bahuaqi"}}]})

# 27. 换牌 (P13): seat 2 buries five tiles and takes the wall's next five (wall[53..57]);
#     seat 1's first draw is then wall[58] = 5s.  Unfinished.
wall27 = build({0: "9m", 2: "1m2m3m4m5m"}, front="6p6p6p7p7p5s",
               reserve="9m1m2m3m4m5m6p7p5s")
ev27 = [E("swap", 2, tiles="1m2m3m4m5m"), disc(0, "9m"), draw(1, "5s")]
case("换牌 at the deal", {"wall": wall27, "events": ev27}, {"verdict": "unfinished"})
# 28. A swap after play began: swap.late.
case("换牌 too late", {"wall": wall27, "events": [disc(0, "9m"), E("swap", 2, tiles="1m2m3m4m5m")]},
     {"verdict": "illegal", "event": 1, "rule": "swap.late"})

# 29. Drawn hand (荒): every seat draws and discards what it draws (flowers exposed and
#     replaced from the back) until no live tile is left; then draw_game.  No payments,
#     the dealer deals again (P15), 荒番 2 -> 3 (P16).
def run_out(wall, dealer=0):
    ev, front, back, s = [], 53, 144, (dealer + 1) % 4
    ev.append(disc(dealer, wall[2 * 52: 2 * 52 + 2]))  # the dealer's 14th tile
    while back - front > 0:
        t = wall[2 * front: 2 * front + 2]
        front += 1
        ev.append(draw(s, t))
        while t.endswith("f"):
            ev.append(E("flower", s, tile=t))
            if back - front <= 0:
                return ev
            back -= 1
            t = wall[2 * back: 2 * back + 2]
            ev.append(draw(s, t, back=True))
        ev.append(disc(s, t))
        s = (s + 1) % 4
    return ev


wall29 = build({0: "9m"}, reserve="9m")
ev29 = run_out(wall29)
assert ev29[-1]["event"] == "discard"
case("drawn hand", {"wall": wall29, "events": ev29 + [E("draw_game")], "counters": {"huangfan": 2}},
     {"verdict": "legal", "ended": "draw", "payments": [0, 0, 0, 0], "next_dealer": 0, "next_huangfan": 3,
      "winners": []})
# 30. A draw when no live tile is left: draw.wall_empty.
nxt = (ev29[-1]["seat"] + 1) % 4
case("draw from an empty wall", {"wall": wall29, "events": ev29 + [draw(nxt)]},
     {"verdict": "illegal", "event": len(ev29), "rule": "draw.wall_empty"})
# 31. draw_game while live tiles remain: draw_game.early.
case("draw_game too early", {"wall": wall29, "events": ev29[:1] + [E("draw_game")]},
     {"verdict": "illegal", "event": 1, "rule": "draw_game.early"})
# 32. The wrong seat draws: turn.order.
case("wrong seat draws", {"wall": wall1, "events": [disc(0, "4m"), draw(2)]},
     {"verdict": "illegal", "event": 1, "rule": "turn.order"})
# 33. A chow by a seat that is not the discarder's next: chow.not_next_seat.
case("chow by the wrong seat", {"wall": wall10, "events": [disc(0, "4s"), E("chow", 2, tiles="4s5s6s")]},
     {"verdict": "illegal", "event": 1, "rule": "chow.not_next_seat"})
# 34. Discarding a tile not held: discard.not_in_hand (seat 0 holds no 9m in wall1).
case("discard not in hand", {"wall": wall1, "events": [disc(0, "9m")]},
     {"verdict": "illegal", "event": 0, "rule": "discard.not_in_hand"})
# 35. A seed wall (Python's random.Random(seed).shuffle of the listed order): no events yet.
case("seed wall", {"seed": 20240601, "events": []}, {"verdict": "unfinished"})
# 36. An event after the hand ended is bad input.
case("event after the end", {"wall": wall1, "events": ev1 + [draw(2)]},
     {"verdict": "bad input", "rule": "input.after_end"})


# ---------------------------------------------------------------------------
def check(name, got, exp):
    problems = []
    for k, v in exp.items():
        if k == "winners":
            gw = got.get("winners")
            if gw is None or len(gw) != len(v):
                problems.append(f"winners: {gw}")
                continue
            for g, e in zip(gw, v):
                for kk, vv in e.items():
                    if kk == "fan_ids":
                        ids = {f["id"] for f in g.get("fans", [])}
                        if ids != vv:
                            problems.append(f"fans {ids} != {vv}")
                    elif g.get(kk) != vv:
                        problems.append(f"winner {kk}: {g.get(kk)} != {vv}")
        elif got.get(k) != v:
            problems.append(f"{k}: {got.get(k)!r} != {v!r}")
    return problems


def protocol_check():
    problems = []
    lines = [json.dumps({"cmd": "start", "protocol": 1}),
             json.dumps({"cmd": "run", "id": 1, "case": {"ruleset": "shanghai-classic", "kind": "procedure",
                                                          "input": {"wall": wall1, "events": ev1}}}),
             "this is not json",
             json.dumps({"cmd": "run", "id": 2, "case": {"ruleset": "mcr", "kind": "procedure",
                                                          "input": {"seed": 1, "events": []}}}),
             json.dumps({"cmd": "run", "id": 3, "case": {"ruleset": "shanghai-classic", "kind": "procedure",
                                                          "options": {"anything": True},
                                                          "input": {"seed": 5, "events": []}}}),
             json.dumps({"cmd": "stop"})]
    p = subprocess.run([sys.executable, os.path.join(HERE, "classic_play_engine.py")],
                       input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=60)
    out = [json.loads(x) for x in p.stdout.splitlines() if x.strip()]
    if p.returncode != 0:
        problems.append(f"exit status {p.returncode}: {p.stderr[-300:]}")
    if len(out) != 5:
        return problems + [f"expected 5 reply lines, got {len(out)}: {p.stdout[:500]}"]
    st = out[0]
    if not (isinstance(st.get("name"), str) and isinstance(st.get("version"), str)
            and st.get("rulesets") == ["shanghai-classic"] and st.get("kinds") == ["procedure"]
            and st.get("rule_ids") == "own" and isinstance(st.get("fields"), list)):
        problems.append(f"start reply: {st}")
    r1 = out[1]
    if r1.get("id") != 1 or r1.get("result", {}).get("verdict") != "legal" \
            or r1["result"].get("payments") != [0, 4, -4, 0]:
        problems.append(f"run 1: {r1}")
    if set(out[2]) != {"error"}:
        problems.append(f"bad line: {out[2]}")
    if out[3].get("id") != 2 or "error" not in out[3]:
        problems.append(f"other ruleset: {out[3]}")
    if out[4].get("id") != 3 or out[4].get("result") != {"verdict": "unfinished"}:
        problems.append(f"run 3 (options ignored): {out[4]}")
    return problems


def main():
    failed = 0
    for name, inp, exp in CASES:
        try:
            got = eng.judge(inp)
        except Exception as e:  # noqa: BLE001
            got = {"crash": repr(e)}
        probs = check(name, got, exp)
        status = "ok  " if not probs else "FAIL"
        print(f"{status} {name}")
        if probs:
            failed += 1
            for p in probs:
                print("      ", p)
            print("       got:", json.dumps(got, ensure_ascii=False)[:600])
    probs = protocol_check()
    print(("ok  " if not probs else "FAIL") + " protocol: start / run / bad line / other ruleset / stop")
    for p in probs:
        print("      ", p)
    failed += bool(probs)
    total = len(CASES) + 1
    print(f"{total - failed}/{total} checks hold")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
