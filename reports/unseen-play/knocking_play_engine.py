#!/usr/bin/env python3
"""unseen-play-knocking: a play judge for Shanghai Knocking (上海敲麻).

Written from the rule document alone; every decision the document leaves open is
numbered in READINGS.md (P* procedure, S* scoring) and cited in comments here.
Line protocol: one JSON object per line on stdin, one per line on stdout.
Python 3 standard library only.
"""
import copy
import json
import random
import re
import sys

NAME = "unseen-play-knocking"
VERSION = "1.0"
FIELDS = ["verdict", "rule", "event", "ended", "winners", "payments", "next_dealer"]

# ---------------------------------------------------------------- tiles
# index: 0-8 m, 9-17 p, 18-26 s, 27-33 z (1z..7z), 34-41 f (1f..8f)
SUITS = "mps"
NKINDS = 42
ORDINARY = 31  # 0..30: suits and winds (P1); 31..33 dragons and 34..41 flowers are flowers


def tname(i):
    if i < 27:
        return "%d%s" % (i % 9 + 1, SUITS[i // 9])
    if i < 34:
        return "%dz" % (i - 26)
    return "%df" % (i - 33)


NAME2IDX = {tname(i): i for i in range(NKINDS)}


def is_flower(i):
    return i >= ORDINARY  # P1: dragons play as flowers


def is_wind(i):
    return 27 <= i <= 30


class BadInput(Exception):
    pass


class Illegal(Exception):
    def __init__(self, rule, msg=""):
        Exception.__init__(self, rule)
        self.rule = rule
        self.msg = msg or rule


class AfterEnd(Exception):
    pass


_TOKEN = re.compile(r"([0-9]+)([mpszf])")


def parse_tiles(v):
    """Tiles in canonical two-character names or compact groups (123m), or a list of them."""
    if isinstance(v, list):
        out = []
        for x in v:
            out.extend(parse_tiles(x))
        return out
    if not isinstance(v, str):
        raise BadInput("tiles must be a string: %r" % (v,))
    s = re.sub(r"[\s,]+", "", v)
    out = []
    pos = 0
    for m in _TOKEN.finditer(s):
        if m.start() != pos:
            raise BadInput("unreadable tiles %r" % v)
        pos = m.end()
        for d in m.group(1):
            name = d + m.group(2)
            if name not in NAME2IDX:
                raise BadInput("unknown tile %s" % name)
            out.append(NAME2IDX[name])
    if pos != len(s):
        raise BadInput("unreadable tiles %r" % v)
    return out


def parse_one(v):
    t = parse_tiles(v)
    if len(t) != 1:
        raise BadInput("expected one tile, got %r" % (v,))
    return t[0]


def full_set():
    tiles = []
    for i in range(34):
        tiles += [i] * 4
    tiles += list(range(34, 42))
    return tiles


def seed_wall(seed):
    names = [tname(i) for i in full_set()]
    random.Random(seed).shuffle(names)
    return [NAME2IDX[n] for n in names]


# ---------------------------------------------------------------- hand shapes
def _sets(c, i=0):
    while i < ORDINARY and c[i] == 0:
        i += 1
    if i >= ORDINARY:
        yield []
        return
    if c[i] >= 3:
        c[i] -= 3
        for rest in _sets(c, i):
            yield [("pung", i)] + rest
        c[i] += 3
    if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        for rest in _sets(c, i):
            yield [("chow", i)] + rest
        c[i] += 1
        c[i + 1] += 1
        c[i + 2] += 1


def decompositions(counts):
    """All (pair, sets) splits of a concealed part of 3n+2 ordinary tiles (seven pairs never: P7)."""
    c = list(counts)
    if sum(c) % 3 != 2 or any(c[i] for i in range(ORDINARY, NKINDS)):
        return
    for p in range(ORDINARY):
        if c[p] >= 2:
            c[p] -= 2
            for s in _sets(c):
                yield (p, s)
            c[p] += 2


def complete(counts):
    for _ in decompositions(counts):
        return True
    return False


def with_tile(counts, t):
    c = list(counts)
    c[t] += 1
    return c


# ---------------------------------------------------------------- seats
class Seat(object):
    def __init__(self):
        self.hand = [0] * NKINDS
        self.melds = []  # dict(type, tile, kind: 'chow'|'pung'|'kong', concealed, claimed, added)
        self.flowers = []
        self.knocked = False
        self.forfeited = False
        self.forgo = set()
        self.last_draw = None
        self.last_back = False

    def owned(self, t):
        n = self.hand[t]
        for m in self.melds:
            n += m["tiles"].count(t)
        return n

    def has_flower(self):
        return any(self.hand[i] for i in range(ORDINARY, NKINDS))


RANK = {"chow": 1, "pung": 2, "kong": 2, "win": 3}


class Game(object):
    def __init__(self, case):
        if not isinstance(case, dict):
            raise BadInput("case input is not an object")
        self.claim_order = case.get("claim_order", "priority")
        if self.claim_order not in ("priority", "declared"):
            raise BadInput("unknown claim_order")
        dealer = case.get("dealer", 0)
        if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer <= 3:
            raise BadInput("bad dealer")
        self.dealer = dealer
        if "wall" in case and case["wall"] is not None:
            wall = parse_tiles(case["wall"])
        elif "seed" in case:
            seed = case["seed"]
            if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
                raise BadInput("bad seed")
            wall = seed_wall(seed)
        else:
            raise BadInput("no seed and no wall")
        if len(wall) != 144 or sorted(wall) != sorted(full_set()):
            raise BadInput("the wall is not the 144 tiles")
        self.wall = wall
        self.front = 0
        self.back = 143
        self.seats = [Seat() for _ in range(4)]
        # deal (P2): blocks of four from the dealer, then one each, the dealer's 14th last
        order = [(dealer + k) % 4 for k in range(4)]
        for _ in range(3):
            for s in order:
                for _ in range(4):
                    self._take_front(s)
        for s in order:
            self._take_front(s)
        self._take_front(dealer)
        for s in self.seats:
            s.last_draw = None
        self.phase = "deal"
        self.deal_ptr = 0
        self.cur = dealer
        self.owed = 0
        self.after_claim = None  # set of tile kinds the claimer may not discard now (P18)
        self.knock_pending = False
        self.drew = False  # the seat to act has drawn this turn
        self.discard = None  # (seat, tile)
        self.kong = None  # (seat, tile) an added kong open to robbing
        self.claim = None  # dict(seat, discarder, tile, rank, snap)
        self.result = None
        self.end_on = None  # ('discard'|'robbing', winner)
        self._advance_deal()

    # ------------------------------------------------------------ wall
    def remaining(self):
        return self.back - self.front + 1

    def _take_front(self, s):
        t = self.wall[self.front]
        self.front += 1
        self.seats[s].hand[t] += 1
        return t

    def _take_back(self, s):
        t = self.wall[self.back]
        self.back -= 1
        self.seats[s].hand[t] += 1
        return t

    # ------------------------------------------------------------ deal flowers (P3)
    def _advance_deal(self):
        while self.deal_ptr < 4:
            s = (self.dealer + self.deal_ptr) % 4
            if self.seats[s].has_flower() or self.owed:
                self.cur = s
                return
            self.deal_ptr += 1
        self.phase = "turn"
        self.cur = self.dealer
        self.drew = False
        self.owed = 0

    def _deal_event(self, ev, et, seat):
        cs = (self.dealer + self.deal_ptr) % 4
        if et == "flower":
            t = self._tile(ev)
            if seat != cs:
                raise Illegal("flower-order", "seat %d exposes before seat %d has finished" % (seat, cs))
            self._expose(seat, t)
            return
        if et == "draw":
            if seat != cs:
                raise Illegal("flower-order", "seat %d draws during seat %d's flowers" % (seat, cs))
            if not self.owed:
                raise Illegal("no-replacement-due", "no replacement is owed")
            if ev.get("from", "back") != "back":
                raise Illegal("replacement-draw-due", "a replacement comes from the back")
            self._draw_back(seat, ev)
            self._advance_deal()
            return
        raise Illegal("flowers-first", "every seat exposes its flowers before play starts")

    # ------------------------------------------------------------ helpers
    def _tile(self, ev, key="tile", required=True):
        v = ev.get(key)
        if v is None:
            if required:
                raise BadInput("event without %s" % key)
            return None
        return parse_one(v)

    def _expose(self, seat, t):
        S = self.seats[seat]
        if not is_flower(t):
            raise Illegal("not-a-flower", "%s is not a flower" % tname(t))
        if S.hand[t] == 0:
            raise Illegal("tile-not-held", "seat %d does not hold %s" % (seat, tname(t)))
        S.hand[t] -= 1
        S.flowers.append(t)
        self.owed += 1

    def _check_draw_tile(self, ev, t):
        if ev.get("tile") is not None:
            g = parse_one(ev["tile"])
            if g != t:
                raise Illegal("draw-not-wall-tile", "the wall gives %s, not %s" % (tname(t), tname(g)))

    def _draw_back(self, seat, ev):
        if self.remaining() <= 0:
            raise Illegal("wall-exhausted", "no tile left for the replacement")
        t = self.wall[self.back]
        self._check_draw_tile(ev, t)
        self._take_back(seat)
        S = self.seats[seat]
        S.last_draw = t
        S.last_back = True
        S.forgo.clear()  # P17: any draw of its own
        self.owed -= 1
        self.drew = True

    def can_win_on(self, s, t):
        S = self.seats[s]
        return S.knocked and not S.forfeited and complete(with_tile(S.hand, t))

    def could_claim(self, s, d, t):
        """P17: could seat s have chowed, punged or konged discard t of seat d."""
        S = self.seats[s]
        if S.knocked or t in S.forgo:
            return False
        h = S.hand
        if h[t] >= 2:
            return True
        if s == (d + 1) % 4 and t < 27:
            r = t % 9
            for a in (-2, -1, 0):
                lo = r + a
                if lo < 0 or lo + 2 > 8:
                    continue
                need = [t - r + lo + k for k in range(3) if lo + k != r]
                if all(h[x] >= 1 for x in need):
                    return True
        return False

    def _implicit_pass(self, d, t, exclude):
        """P26: a claim or the next draw is a pass for every other seat (P13 forfeit, P17 forgo)."""
        for s in range(4):
            if s == d or s in exclude:
                continue
            S = self.seats[s]
            if self.can_win_on(s, t):
                S.forfeited = True
            elif self.could_claim(s, d, t):
                S.forgo.add(t)

    def _kong_pass(self, x, t):
        for s in range(4):
            if s != x and self.can_win_on(s, t):
                self.seats[s].forfeited = True  # P13/P20: a missed robbing win

    def _mandatory_kong_due(self, X):
        S = self.seats[X]
        if not S.knocked or not self.drew or self.after_claim is not None or self.remaining() <= 0:
            return None
        for m in S.melds:
            if m["kind"] == "pung" and S.hand[m["tile"]] >= 1:
                return m["tile"]
        return None

    def _selfdraw_win_possible(self, X):
        S = self.seats[X]
        return S.knocked and not S.forfeited and self.after_claim is None and complete(S.hand)

    # ------------------------------------------------------------ events
    def apply(self, ev):
        if not isinstance(ev, dict):
            raise BadInput("event is not an object")
        et = ev.get("event")
        known = ("draw", "discard", "chow", "pung", "kong", "add_kong", "concealed_kong", "flower",
                 "knock", "pass", "win", "draw_game", "swap", "claims")
        if et not in known:
            raise BadInput("unknown event %r" % (et,))
        for k in ("tile", "tiles"):
            if ev.get(k) is not None:
                parse_tiles(ev[k])
        if ev.get("tile") is not None:
            parse_one(ev["tile"])
        if et == "claims" and isinstance(ev.get("answers"), list):
            for a in ev["answers"]:
                if isinstance(a, dict):
                    for k in ("tile", "tiles"):
                        if a.get(k) is not None:
                            parse_tiles(a[k])
        seat = None
        if et not in ("draw_game", "claims"):
            seat = ev.get("seat")
            if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat <= 3:
                raise BadInput("bad seat %r" % (seat,))
        if et == "draw" and ev.get("from", "wall") not in ("wall", "back") and ev.get("from") is not None:
            raise BadInput("bad draw source")
        if self.phase == "ended":
            if et == "win" and self.end_on is not None and self.end_on[0] in ("discard", "robbing") \
                    and seat != self.end_on[1]:
                raise Illegal("single-winner", "one winner per discard (一炮多响 off)")
            if et == "claims":
                raise Illegal("single-winner", "the hand has ended")
            raise AfterEnd()
        if et == "pass":
            return  # P26: changes nothing
        if et == "swap":
            raise Illegal("no-swap", "this variant has no 换牌")
        if et == "claims":
            return self._claims(ev)
        if self.phase == "deal":
            return self._deal_event(ev, et, seat)
        if self.phase == "discard":
            return self._discard_phase(ev, et, seat)
        if self.phase == "robbable":
            return self._robbable_phase(ev, et, seat)
        return self._turn_phase(ev, et, seat)

    # ------------------------------------------------------------ turn phase
    def _turn_phase(self, ev, et, seat):
        X = self.cur
        S = self.seats[X]
        # a later claim of a discard already claimed (P14)
        if self.claim is not None and et in ("chow", "pung", "kong", "win") and seat != self.claim["seat"] \
                and seat != self.claim["discarder"]:
            return self._later_claim(ev, et, seat)
        if self.knock_pending and not (et == "discard" and seat == X):
            raise Illegal("knock-then-discard", "a knock is followed at once by the same seat's discard")
        if et == "draw_game":
            if self.remaining() <= 0 and self.owed > 0:
                self._end_draw()
                return
            raise Illegal("draw-game-early", "the hand is not drawn yet")
        if seat != X:
            raise Illegal("out-of-turn", "seat %d acts while seat %d is to play" % (seat, X))
        if et == "draw":
            if not self.owed:
                raise Illegal("out-of-turn", "no draw is due for seat %d" % X)
            if ev.get("from", "back") != "back":
                raise Illegal("replacement-draw-due", "a replacement comes from the back")
            self._draw_back(X, ev)
            return
        if et == "flower":
            t = self._tile(ev)
            self._expose(X, t)
            return
        if self.owed:
            raise Illegal("replacement-draw-due", "seat %d owes a replacement draw" % X)
        if S.has_flower():
            raise Illegal("expose-flower-first", "seat %d holds a flower" % X)
        if et == "discard":
            return self._discard(ev, X)
        if et == "knock":
            if S.knocked:
                raise Illegal("already-knocked", "seat %d has knocked already" % X)
            self.knock_pending = True
            return
        if et in ("kong", "concealed_kong", "add_kong"):
            return self._own_kong(ev, et, X)
        if et == "win":
            return self._self_win(ev, X)
        if et in ("chow", "pung"):
            raise Illegal("no-discard-to-claim", "no discard is open")
        raise Illegal("out-of-turn", "unexpected %s" % et)

    def _discard(self, ev, X):
        S = self.seats[X]
        t = self._tile(ev)
        if S.hand[t] == 0:
            raise Illegal("tile-not-held", "seat %d does not hold %s" % (X, tname(t)))
        if is_flower(t):
            raise Illegal("expose-flower-first", "a flower is never discarded")
        if self.after_claim is not None and t in self.after_claim:
            raise Illegal("swap-calling", "%s may not be discarded right after the claim" % tname(t))
        if self.knock_pending:
            S.hand[t] -= 1
            ok = any(S.owned(w) < 4 and complete(with_tile(S.hand, w)) for w in range(ORDINARY))
            if not ok:
                S.hand[t] += 1
                raise Illegal("knock-not-waiting", "the knock's discard leaves the hand not waiting")
            S.knocked = True
            self.knock_pending = False
        else:
            if S.knocked:
                if S.last_draw is not None and t != S.last_draw:
                    raise Illegal("locked-hand", "a knocked hand discards the tile it drew (%s)" % tname(S.last_draw))
                if self._selfdraw_win_possible(X):
                    S.forfeited = True  # P13
                elif self._mandatory_kong_due(X) is not None:
                    raise Illegal("mandatory-kong", "a knocked seat must extend its pung of %s"
                                  % tname(self._mandatory_kong_due(X)))
            S.hand[t] -= 1
        self.after_claim = None
        self.claim = None
        self.discard = (X, t)
        self.phase = "discard"

    def _own_kong(self, ev, et, X):
        S = self.seats[X]
        t = self._tile(ev, required=False)
        if t is None and ev.get("tiles") is not None:
            tl = parse_tiles(ev["tiles"])
            if not tl:
                raise BadInput("kong without tiles")
            t = tl[0]
        if t is None:
            cands = [i for i in range(ORDINARY) if S.hand[i] >= 4]
            if len(cands) != 1:
                raise BadInput("kong without a tile")
            t = cands[0]
        if self.after_claim is not None:
            raise Illegal("discard-after-claim", "after a chow or pung the claimer discards")
        pung = None
        for m in S.melds:
            if m["kind"] == "pung" and m["tile"] == t:
                pung = m
        if et == "kong":
            et = "concealed_kong" if S.hand[t] >= 4 or pung is None else "add_kong"
        if et == "concealed_kong":
            if S.hand[t] < 4:
                raise Illegal("tile-not-held", "seat %d does not hold four %s" % (X, tname(t)))
            if S.knocked:
                raise Illegal("locked-hand", "a knocked hand makes no concealed kong (P11)")
            if self.remaining() <= 0:
                raise Illegal("kong-without-replacement", "no tile left for the replacement")
            S.hand[t] -= 4
            S.melds.append({"kind": "kong", "tile": t, "tiles": [t] * 4, "concealed": True, "added": False})
            self.owed += 1
            self.drew = False
            return
        # added kong
        if pung is None:
            raise Illegal("no-pung-to-extend", "seat %d has no exposed pung of %s" % (X, tname(t)))
        if S.hand[t] < 1:
            raise Illegal("tile-not-held", "seat %d does not hold %s" % (X, tname(t)))
        if self.remaining() <= 0:
            raise Illegal("kong-without-replacement", "no tile left for the replacement")
        if self._selfdraw_win_possible(X):
            S.forfeited = True  # P13: the kong passes a self-draw win
        S.hand[t] -= 1
        pung["kind"] = "kong"
        pung["tiles"] = [t] * 4
        pung["added"] = True
        self.owed += 1
        self.drew = False
        self.kong = (X, t)
        self.phase = "robbable"

    def _self_win(self, ev, X):
        S = self.seats[X]
        if self.after_claim is not None:
            raise Illegal("discard-after-claim", "after a chow or pung the claimer discards")
        if not S.knocked:
            raise Illegal("win-without-knock", "only a knocked seat may win")
        if S.forfeited:
            raise Illegal("win-after-forfeit", "seat %d missed a win after knocking" % X)
        t = S.last_draw if self.drew else None
        if ev.get("tile") is not None:
            g = parse_one(ev["tile"])
            if t is not None and g != t:
                raise Illegal("win-tile-mismatch", "the drawn tile is %s" % tname(t))
            if S.hand[g] == 0:
                raise Illegal("win-tile-mismatch", "seat %d does not hold %s" % (X, tname(g)))
            if t is None:
                t = g
        if not complete(S.hand):
            raise Illegal("not-a-winning-hand", "seat %d's hand is not four sets and a pair" % X)
        if t is None:
            t = next(i for i in range(ORDINARY) if S.hand[i])
        self._end_win(X, "self_draw", t, list(S.hand), None, S.last_back and self.drew)

    # ------------------------------------------------------------ discard phase
    def _discard_phase(self, ev, et, seat):
        d, t = self.discard
        if et == "draw":
            if seat != (d + 1) % 4:
                raise Illegal("out-of-turn", "seat %d draws; seat %d is next" % (seat, (d + 1) % 4))
            if ev.get("from", "wall") != "wall":
                raise Illegal("no-replacement-due", "a turn's draw comes from the wall's front")
            if self.remaining() <= 0:
                raise Illegal("wall-exhausted", "no tile is left: the hand is drawn")
            nt = self.wall[self.front]
            self._check_draw_tile(ev, nt)
            self._implicit_pass(d, t, ())
            self._take_front(seat)
            S = self.seats[seat]
            S.last_draw = nt
            S.last_back = False
            S.forgo.clear()
            self.cur = seat
            self.phase = "turn"
            self.drew = True
            self.discard = None
            self.owed = 0
            self.after_claim = None
            return
        if et == "draw_game":
            if self.remaining() <= 0:
                self._end_draw()
                return
            raise Illegal("draw-game-early", "tiles are left in the wall")
        if et in ("chow", "pung", "kong", "win"):
            return self._claim(ev, et, seat, d, t)
        raise Illegal("out-of-turn", "%s while seat %d's discard is open" % (et, d))

    def _check_claim(self, ev, et, seat, d, t):
        """Whether seat could make this claim alone; returns the two/three hand tiles it uses."""
        S = self.seats[seat]
        if seat == d:
            raise Illegal("out-of-turn", "a seat does not claim its own discard")
        if et == "win":
            if not S.knocked:
                raise Illegal("win-without-knock", "only a knocked seat may win")
            if S.forfeited:
                raise Illegal("win-after-forfeit", "seat %d missed a win after knocking" % seat)
            if ev.get("tile") is not None and parse_one(ev["tile"]) != t:
                raise Illegal("win-tile-mismatch", "the open tile is %s" % tname(t))
            if not complete(with_tile(S.hand, t)):
                raise Illegal("not-a-winning-hand", "%s does not complete seat %d's hand" % (tname(t), seat))
            return None
        if S.knocked:
            raise Illegal("claim-after-knock", "a knocked hand is locked (P10)")
        if et == "chow":
            if seat != (d + 1) % 4:
                raise Illegal("chow-upstream-only", "only the next seat may chow")
            if ev.get("tiles") is None:
                raise BadInput("chow without tiles")
            tl = parse_tiles(ev["tiles"])
            if len(tl) == 3:
                if t not in tl:
                    raise Illegal("not-a-chow", "the chow does not hold the discard")
                tl = list(tl)
                tl.remove(t)
            if len(tl) != 2:
                raise Illegal("not-a-chow", "a chow is three tiles")
            run = sorted(tl + [t])
            if run[2] >= 27 or run[0] // 9 != run[2] // 9 or run[1] != run[0] + 1 or run[2] != run[1] + 1:
                raise Illegal("not-a-chow", "not a run of one suit")
            if t in S.forgo:
                raise Illegal("forgo-reclaim", "seat %d passed %s and has not drawn since" % (seat, tname(t)))
            if S.hand[tl[0]] < 1 or S.hand[tl[1]] < 1:
                raise Illegal("tile-not-held", "seat %d does not hold the chow's tiles" % seat)
            return tl
        if ev.get("tiles") is not None:
            tl = parse_tiles(ev["tiles"])
            if any(x != t for x in tl):
                raise Illegal("claim-tiles-mismatch", "the %s is not of the discard %s" % (et, tname(t)))
        if t in S.forgo:
            raise Illegal("forgo-reclaim", "seat %d passed %s and has not drawn since" % (seat, tname(t)))
        need = 2 if et == "pung" else 3
        if S.hand[t] < need:
            raise Illegal("tile-not-held", "seat %d does not hold %d %s" % (seat, need, tname(t)))
        if et == "kong" and self.remaining() <= 0:
            raise Illegal("kong-without-replacement", "no tile left for the replacement")
        return [t] * need

    def _claim(self, ev, et, seat, d, t):
        used = self._check_claim(ev, et, seat, d, t)
        if et == "win":
            self._end_win(seat, "discard", t, with_tile(self.seats[seat].hand, t), d, False)
            return
        snap = copy.deepcopy(self.__dict__) if self.claim_order == "declared" else None
        self._implicit_pass(d, t, (seat,))
        S = self.seats[seat]
        for x in used:
            S.hand[x] -= 1
        if et == "chow":
            run = sorted(used + [t])
            S.melds.append({"kind": "chow", "tile": run[0], "tiles": run, "concealed": False, "added": False})
            forbid = {t}
            # P18: the tile beyond the run's other end, when the claim is at one end
            if t == run[0] and run[2] % 9 < 8:
                forbid.add(run[2] + 1)
            elif t == run[2] and run[0] % 9 > 0:
                forbid.add(run[0] - 1)
            self.after_claim = forbid
            self.owed = 0
        elif et == "pung":
            S.melds.append({"kind": "pung", "tile": t, "tiles": [t] * 3, "concealed": False, "added": False})
            self.after_claim = {t}
            self.owed = 0
        else:
            S.melds.append({"kind": "kong", "tile": t, "tiles": [t] * 4, "concealed": False, "added": False})
            self.after_claim = None
            self.owed = 1
        self.phase = "turn"
        self.cur = seat
        self.drew = False
        self.discard = None
        self.knock_pending = False
        self.claim = {"seat": seat, "discarder": d, "tile": t, "rank": RANK[et], "snap": snap}

    def _later_claim(self, ev, et, seat):
        c = self.claim
        if self.claim_order != "declared" or RANK[et] <= c["rank"]:
            raise Illegal("claim-priority", "the discard was already claimed by seat %d" % c["seat"])
        # declared: the later, higher claim takes the tile; the first claimer has passed (P14)
        first, t, d = c["seat"], c["tile"], c["discarder"]
        snap = c["snap"]
        saved = self.__dict__
        self.__dict__ = snap
        try:
            self._check_claim(ev, et, seat, d, t)
        except Illegal:
            self.__dict__ = saved
            raise
        if self.could_claim(first, d, t):
            self.seats[first].forgo.add(t)
        self._claim(ev, et, seat, d, t)

    # ------------------------------------------------------------ robbing window
    def _robbable_phase(self, ev, et, seat):
        X, t = self.kong
        if et == "win":
            if seat == X:
                raise Illegal("out-of-turn", "the konger draws its replacement first")
            S = self.seats[seat]
            if not S.knocked:
                raise Illegal("win-without-knock", "only a knocked seat may win")
            if S.forfeited:
                raise Illegal("win-after-forfeit", "seat %d missed a win after knocking" % seat)
            if ev.get("tile") is not None and parse_one(ev["tile"]) != t:
                raise Illegal("win-tile-mismatch", "the kong's tile is %s" % tname(t))
            if not complete(with_tile(S.hand, t)):
                raise Illegal("not-a-winning-hand", "%s does not complete seat %d's hand" % (tname(t), seat))
            self._end_win(seat, "robbing_kong", t, with_tile(S.hand, t), X, False)
            return
        if et == "draw" and seat == X:
            if ev.get("from", "back") != "back":
                raise Illegal("replacement-draw-due", "a kong's replacement comes from the back")
            self._kong_pass(X, t)
            self.phase = "turn"
            self.kong = None
            self._draw_back(X, ev)
            return
        if et in ("chow", "pung", "kong"):
            raise Illegal("rob-only-by-win", "an added kong can only be robbed by a win")
        if et == "draw_game":
            raise Illegal("draw-game-early", "tiles are left in the wall")
        if seat != X:
            raise Illegal("out-of-turn", "seat %d acts during seat %d's kong" % (seat, X))
        raise Illegal("replacement-draw-due", "the konger draws its replacement")

    # ------------------------------------------------------------ claims event
    def _claims(self, ev):
        answers = ev.get("answers")
        if not isinstance(answers, list) or not answers:
            raise BadInput("claims without answers")
        if self.phase == "discard":
            d, t = self.discard
        elif self.phase == "robbable":
            d, t = self.kong
        else:
            raise Illegal("no-discard-to-claim", "no discard or kong is open")
        seen = set()
        made = []
        for a in answers:
            if not isinstance(a, dict):
                raise BadInput("claims answer is not an object")
            s = a.get("seat")
            c = a.get("claim")
            if not isinstance(s, int) or isinstance(s, bool) or not 0 <= s <= 3:
                raise BadInput("bad seat in claims")
            if c not in ("pass", "chow", "pung", "kong", "win"):
                raise BadInput("bad claim %r" % (c,))
            if s == d:
                raise Illegal("out-of-turn", "the discarder does not answer its own tile")
            if s in seen:
                raise Illegal("claims-twice", "seat %d answers twice" % s)
            seen.add(s)
            if c == "pass":
                continue
            sub = {"event": c, "seat": s}
            for k in ("tile", "tiles"):
                if a.get(k) is not None:
                    sub[k] = a[k]
            if self.phase == "robbable":
                if c != "win":
                    raise Illegal("rob-only-by-win", "an added kong can only be robbed by a win")
                g = copy.deepcopy(self)
                g._robbable_phase(sub, c, s)
            else:
                g = copy.deepcopy(self)
                g._check_claim(sub, c, s, d, t)
            made.append((RANK[c], (s - d) % 4, s, c, sub))
        if not made:
            return
        made.sort(key=lambda x: (-x[0], x[1]))
        _, _, s, c, sub = made[0]
        if self.phase == "robbable":
            self._robbable_phase(sub, c, s)
        else:
            self._claim(sub, c, s, d, t)

    # ------------------------------------------------------------ endings
    def _end_draw(self):
        self.phase = "ended"
        self.result = {"verdict": "legal", "ended": "draw", "winners": [], "payments": [0, 0, 0, 0],
                       "next_dealer": self.dealer}  # S9, S10

    def _end_win(self, w, win_by, t, counts, payer, from_back):
        S = self.seats[w]
        total, fans = score(S, counts, t, win_by, from_back)
        pay = [0, 0, 0, 0]
        if win_by == "self_draw":
            for s in range(4):
                if s != w:
                    pay[s] -= total
                    pay[w] += total
        elif win_by == "discard":
            pay[payer] -= total
            pay[w] += total
        else:
            pay[payer] -= 3 * total  # S7, S8
            pay[w] += 3 * total
        self.phase = "ended"
        self.end_on = ({"discard": "discard", "robbing_kong": "robbing"}.get(win_by, "self"), w)
        self.result = {"verdict": "legal", "ended": "win",
                       "winners": [{"seat": w, "win_by": win_by, "total": total, "fans": fans}],
                       "payments": pay, "next_dealer": w}  # S10

    def finish(self):
        if self.phase == "ended":
            return self.result
        if self.remaining() <= 0 and (self.phase == "discard" or (self.phase == "turn" and self.owed > 0)):
            self._end_draw()  # P5, P23
            return self.result
        return {"verdict": "unfinished"}


# ---------------------------------------------------------------- scoring (S1-S11)
def score(S, counts, win_tile, win_by, from_back):
    flowers = len(S.flowers)
    meld_hua = []
    claimed = False
    chow_melds = False
    tiles = []
    for m in S.melds:
        k = m["tile"]
        tiles += m["tiles"]
        if m["kind"] == "chow":
            chow_melds = True
            claimed = True
        elif m["kind"] == "pung":
            claimed = True
            if is_wind(k):
                meld_hua.append("wind pung")
            else:
                meld_hua.append("plain-suit pung")
        else:
            if not m["concealed"]:
                claimed = True
            if m["concealed"]:
                meld_hua.append("wind concealed kong" if is_wind(k) else "plain-suit concealed kong")
            else:
                meld_hua.append("wind exposed kong" if is_wind(k) else "plain-suit exposed kong")
    for i in range(ORDINARY):
        tiles += [i] * counts[i]
    suits = set(x // 9 for x in tiles if x < 27)
    winds = any(is_wind(x) for x in tiles)
    HUA = {"plain-suit pung": 0, "plain-suit exposed kong": 1, "plain-suit concealed kong": 2,
           "wind pung": 1, "wind exposed kong": 2, "wind concealed kong": 3}
    doubles_fixed = []
    if win_by == "self_draw" and sum(counts) == 2:
        doubles_fixed.append(("大挑车", 1))
    if not claimed:
        doubles_fixed.append(("门清", 1))
    if win_by == "self_draw" and from_back:
        doubles_fixed.append(("杠开", 1))
    if len(suits) == 1 and winds:
        doubles_fixed.append(("混一色", 1))
    elif len(suits) == 1 and not winds:
        doubles_fixed.append(("清一色", 2))
    best = None
    for pair, sets in decompositions(counts):
        elems = list(meld_hua)
        has_chow = chow_melds
        for kind, k in sets:
            if kind == "chow":
                has_chow = True
            elif is_wind(k):
                elems.append("wind pung")
        hua = 1 + flowers + sum(HUA[e] for e in elems)
        dbl = list(doubles_fixed)
        if not has_chow:
            dbl.append(("碰碰胡", 1))
        fig = hua == 1
        if fig:
            hua = 10  # S4
        n = sum(p for _, p in dbl)
        total = hua * (2 ** n)
        if best is None or total > best[0]:
            fans = []
            if fig:
                fans.append({"id": "无花果", "points": 10, "count": 1})
            else:
                fans.append({"id": "going out", "points": 1, "count": 1})
                if flowers:
                    fans.append({"id": "flower", "points": 1, "count": flowers})
                cnt = {}
                for e in elems:
                    if HUA[e]:
                        cnt[e] = cnt.get(e, 0) + 1
                for e in sorted(cnt):
                    fans.append({"id": e, "points": HUA[e], "count": cnt[e]})
            for name, p in dbl:
                fans.append({"id": name, "points": p, "count": 1})
            if win_by == "robbing_kong":
                fans.append({"id": "抢杠", "points": 3, "count": 1})
            best = (total, fans)
    if best is None:
        raise BadInput("internal: scored hand is not complete")
    return best


# ---------------------------------------------------------------- running a case
def run_case(case):
    if not isinstance(case, dict):
        raise BadInput("case is not an object")
    if case.get("kind", "procedure") != "procedure":
        raise BadInput("only procedure cases")
    inp = case.get("input", case)
    if not isinstance(inp, dict):
        raise BadInput("input is not an object")
    events = inp.get("events")
    if not isinstance(events, list):
        raise BadInput("no events")
    g = Game(inp)
    for i, ev in enumerate(events):
        try:
            g.apply(ev)
        except Illegal as e:
            return {"verdict": "illegal", "rule": e.rule, "event": i, "message": e.msg}
        except AfterEnd:
            return {"verdict": "bad input", "event": i, "message": "an event after the hand ended"}
    return g.finish()


def main():
    out = sys.stdout
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            msg = json.loads(line)
        except ValueError:
            out.write(json.dumps({"error": "a line that is not JSON"}) + "\n")
            out.flush()
            continue
        if not isinstance(msg, dict):
            out.write(json.dumps({"error": "a message that is not an object"}) + "\n")
            out.flush()
            continue
        cmd = msg.get("cmd")
        if cmd == "start":
            reply = {"name": NAME, "version": VERSION, "rulesets": ["shanghai-knocking"],
                     "kinds": ["procedure"], "rule_ids": "own", "fields": FIELDS}
        elif cmd == "stop":
            break
        elif cmd == "run":
            reply = {}
            if "id" in msg:
                reply["id"] = msg["id"]
            try:
                reply["result"] = run_case(msg.get("case"))
            except BadInput as e:
                reply["error"] = "bad input: %s" % e
            except RecursionError:
                reply["error"] = "internal: recursion"
            except Exception as e:  # never crash: one case errors, the engine goes on
                reply["error"] = "internal: %s: %s" % (type(e).__name__, e)
        else:
            reply = {"error": "unknown cmd %r" % (cmd,)}
            if "id" in msg:
                reply["id"] = msg["id"]
        out.write(json.dumps(reply, ensure_ascii=False) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
