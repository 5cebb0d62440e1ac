#!/usr/bin/env python3
"""Play judge for Shanghai Knocking (上海敲麻), written from one rule document.

Speaks the engine adapter protocol (JSON lines on stdin/stdout).  Every open point of the
rules is decided as READINGS.md says; the P/S ids in comments refer to that file.
"""
import copy
import json
import random
import sys

NAME = "unseen-play-b"
VERSION = "1.0"
RULESET = "shanghai-knocking"
FIELDS = ["verdict", "rule", "event", "ended", "winners", "payments", "next_dealer"]

# ---------------------------------------------------------------- tiles
# 0-8 1m..9m, 9-17 1p..9p, 18-26 1s..9s, 27-33 1z..7z (E S W N White Green Red), 34-41 1f..8f
SUITS = "mps"
NT = 42
WINDS = range(27, 31)
PLAYABLE = range(0, 31)          # the tiles that can be in a hand's shape (P1)


def is_flower(t):
    return t >= 31               # dragons 5z 6z 7z and the eight flowers (P1)


def tname(t):
    if t < 27:
        return "%d%s" % (t % 9 + 1, SUITS[t // 9])
    if t < 34:
        return "%dz" % (t - 26)
    return "%df" % (t - 33)


MCR = {"W": 0, "B": 9, "T": 18}
MCR_HONOUR = {"F1": 27, "F2": 28, "F3": 29, "F4": 30, "J1": 33, "J2": 32, "J3": 31}
CHINESE = {"东": 27, "南": 28, "西": 29, "北": 30, "白": 31, "发": 32, "發": 32, "中": 33,
           "春": 34, "夏": 35, "秋": 36, "冬": 37, "梅": 38, "兰": 39, "蘭": 39, "菊": 40, "竹": 41}
CNUM = "一二三四五六七八九"
CSUIT = {"万": 0, "萬": 0, "筒": 9, "饼": 9, "餅": 9, "条": 18, "條": 18, "索": 18}


class BadInput(Exception):
    pass


class Illegal(Exception):
    def __init__(self, rule, message):
        Exception.__init__(self, message)
        self.rule = rule
        self.message = message


def parse_tiles(value):
    """A tile string in canonical, compact, MCR-code or Chinese notation (or a list of them)."""
    if isinstance(value, list):
        out = []
        for v in value:
            out.extend(parse_tiles(v))
        return out
    if not isinstance(value, str):
        raise BadInput("tiles must be a string, got %r" % (value,))
    out = []
    digits = []
    s = value
    i = 0
    while i < len(s):
        c = s[i]
        if c in " ,\t\n":
            if digits:
                raise BadInput("digits without a suit in %r" % value)
            i += 1
            continue
        if c.isdigit():
            digits.append(int(c))
            i += 1
            continue
        if c in "mpszf":
            if not digits:
                raise BadInput("a suit letter without digits in %r" % value)
            for d in digits:
                if c in "mps" and 1 <= d <= 9:
                    out.append("mps".index(c) * 9 + d - 1)
                elif c == "z" and 1 <= d <= 7:
                    out.append(26 + d)
                elif c == "f" and 1 <= d <= 8:
                    out.append(33 + d)
                else:
                    raise BadInput("unknown tile %d%s in %r" % (d, c, value))
            digits = []
            i += 1
            continue
        if digits:
            raise BadInput("digits without a suit in %r" % value)
        code = s[i:i + 2]
        if c in MCR and len(code) == 2 and code[1] in "123456789":
            out.append(MCR[c] + int(code[1]) - 1)
            i += 2
            continue
        if code in MCR_HONOUR:
            out.append(MCR_HONOUR[code])
            i += 2
            continue
        if c == "H" and len(code) == 2 and code[1] in "12345678":
            out.append(33 + int(code[1]))
            i += 2
            continue
        if c in CHINESE:
            out.append(CHINESE[c])
            i += 1
            continue
        if c in CNUM and i + 1 < len(s) and s[i + 1] in CSUIT:
            out.append(CSUIT[s[i + 1]] + CNUM.index(c))
            i += 2
            continue
        if 0x1F000 <= ord(c) <= 0x1F02B:
            o = ord(c) - 0x1F000
            uni = [27, 28, 29, 30, 33, 32, 31] + list(range(0, 9)) + list(range(18, 27)) + \
                list(range(9, 18)) + [34 + 4, 34 + 5, 34 + 7, 34 + 6, 34, 34 + 1, 34 + 2, 34 + 3]
            if o < len(uni):
                out.append(uni[o])
                i += 1
                continue
        raise BadInput("unknown tile code %r in %r" % (c, value))
    if digits:
        raise BadInput("digits without a suit in %r" % value)
    return out


def one_tile(value, what):
    ts = parse_tiles(value)
    if len(ts) != 1:
        raise BadInput("%s must be one tile, got %r" % (what, value))
    return ts[0]


FULL_SET = [t for t in range(34) for _ in range(4)] + list(range(34, 42))


def seed_wall(seed):
    wall = list(FULL_SET)
    random.Random(seed).shuffle(wall)
    return wall


# ---------------------------------------------------------------- shapes
def _first(c):
    for t in PLAYABLE:
        if c[t]:
            return t
    return -1


def decompositions(counts, nsets):
    """All ways to split counts (list of 42) into nsets sets and one pair: [(pair, [(kind, tile)])]."""
    c = list(counts)
    if any(c[t] for t in range(31, NT)):
        return []
    if sum(c) != 3 * nsets + 2:
        return []
    res = []

    def rec(has_pair, pair, sets):
        t = _first(c)
        if t < 0:
            if has_pair:
                res.append((pair, list(sets)))
            return
        if not has_pair and c[t] >= 2:
            c[t] -= 2
            rec(True, t, sets)
            c[t] += 2
        if c[t] >= 3:
            c[t] -= 3
            sets.append(("pung", t))
            rec(has_pair, pair, sets)
            sets.pop()
            c[t] += 3
        if t < 27 and t % 9 <= 6 and c[t + 1] and c[t + 2]:
            for u in (t, t + 1, t + 2):
                c[u] -= 1
            sets.append(("chow", t))
            rec(has_pair, pair, sets)
            sets.pop()
            for u in (t, t + 1, t + 2):
                c[u] += 1

    rec(False, None, [])
    return res


def complete(counts, nsets):
    return bool(decompositions(counts, nsets))


def seven_pairs(counts):
    return sum(counts) == 14 and all(v in (0, 2) for v in counts)


# ---------------------------------------------------------------- the table
class Table:
    def __init__(self, wall, dealer):
        self.wall = wall
        self.f = 0
        self.b = len(wall) - 1
        self.dealer = dealer
        self.hand = [[0] * NT for _ in range(4)]
        for _ in range(3):
            for k in range(4):
                for _ in range(4):
                    self.hand[(dealer + k) % 4][self.take_front()] += 1
        for k in range(4):
            self.hand[(dealer + k) % 4][self.take_front()] += 1
        self.hand[dealer][self.take_front()] += 1
        self.melds = [[] for _ in range(4)]    # {"kind", "tile", "concealed", "from"}
        self.flowers = [[] for _ in range(4)]
        self.knocked = [False] * 4
        self.forfeited = [False] * 4
        self.passed = [set() for _ in range(4)]
        self.mode = "deal"        # deal | act | open | rob | exhausted | ended
        self.cur = dealer
        self.need_back = None
        self.last_draw = None     # (tile, "wall"|"back") of the current turn
        self.may_kong = False
        self.after_claim = False
        self.forbid = set()
        self.knock_pending = False
        self.open_tile = None
        self.result = None
        self.win_context = None
        self.check_deal_done()

    # -- wall
    def left(self):
        return self.b - self.f + 1

    def take_front(self):
        t = self.wall[self.f]
        self.f += 1
        return t

    def take_back(self):
        t = self.wall[self.b]
        self.b -= 1
        return t

    # -- helpers
    def holds_flower(self, s):
        return any(self.hand[s][t] for t in range(31, NT))

    def nsets(self, s):
        return 4 - len(self.melds[s])

    def can_win_with(self, s, t):
        if t is None or is_flower(t):
            return False
        c = list(self.hand[s])
        c[t] += 1
        return complete(c, self.nsets(s))

    def can_self_win(self, s):
        return complete(self.hand[s], self.nsets(s))

    def waits_of(self, counts, melds):
        """The tiles that complete the hand (P11): not one the seat already holds all four of."""
        n = 4 - len(melds)
        out = set()
        for t in PLAYABLE:
            held = counts[t]
            for m in melds:
                if m["kind"] == "chow":
                    held += 1 if m["tile"] <= t <= m["tile"] + 2 else 0
                elif m["tile"] == t:
                    held += 3 if m["kind"] == "pung" else 4
            if held >= 4:
                continue
            c = list(counts)
            c[t] += 1
            if complete(c, n):
                out.add(t)
        return out

    def chow_options(self, s, t):
        """Runs (lowest tile) the seat could chow t into."""
        if t >= 27:
            return []
        h = self.hand[s]
        out = []
        for lo in (t - 2, t - 1, t):
            if lo < 0 or lo // 9 != t // 9 or lo % 9 > 6:
                continue
            need = [u for u in (lo, lo + 1, lo + 2) if u != t]
            if all(h[u] for u in need) and (need[0] != need[1] or h[need[0]] >= 2):
                out.append(lo)
        return out

    def could_claim(self, s, t, discarder):
        """Chow/pung/kong of a discard by a seat (not knocked, not forgone): (could_pung_or_kong, could_chow)."""
        if self.knocked[s] or is_flower(t):
            return False, False
        pk = self.hand[s][t] >= 2
        ch = s == (discarder + 1) % 4 and bool(self.chow_options(s, t))
        return pk, ch

    def check_deal_done(self):
        if self.mode == "deal" and self.need_back is None and self.deal_seat() is None:
            self.mode = "act"
            self.cur = self.dealer
            self.last_draw = None
            self.may_kong = True       # the dealer's fourteenth counts as its draw (P16)
            self.after_claim = False

    def deal_seat(self):
        for k in range(4):
            s = (self.dealer + k) % 4
            if self.holds_flower(s):
                return s
        return None

    # -- passing and forfeits
    def close_discard(self, how, claimer=None):
        """The open discard goes by: how is 'draw', 'chow', 'pung' (pung or kong)."""
        d, t = self.cur, self.open_tile
        for s in range(4):
            if s == d or s == claimer:
                continue
            if self.knocked[s]:
                if not self.forfeited[s] and self.can_win_with(s, t):
                    self.forfeited[s] = True          # P12
                continue
            pk, ch = self.could_claim(s, t, d)
            if how == "draw" and (pk or ch):
                self.passed[s].add(t)                 # P9
            elif how == "chow" and pk:
                self.passed[s].add(t)

    def close_rob(self):
        k, t = self.cur, self.open_tile
        for s in range(4):
            if s != k and self.knocked[s] and not self.forfeited[s] and self.can_win_with(s, t):
                self.forfeited[s] = True              # P12, P17

    def explicit_pass(self, s):
        if self.mode == "open" and s != self.cur:
            t = self.open_tile
            if self.knocked[s]:
                if not self.forfeited[s] and self.can_win_with(s, t):
                    self.forfeited[s] = True
            else:
                pk, ch = self.could_claim(s, t, self.cur)
                if pk or ch:
                    self.passed[s].add(t)
        elif self.mode == "rob" and s != self.cur:
            if self.knocked[s] and not self.forfeited[s] and self.can_win_with(s, self.open_tile):
                self.forfeited[s] = True

    # -- event dispatch
    def step(self, ev):
        kind = ev["event"]
        s = ev.get("seat")
        if self.mode == "ended":
            if kind == "win" and self.win_context in ("discard", "robbing_kong"):
                raise Illegal("win.one_winner", "only one winner per discard or kong (P7)")
            raise BadInput("an event after the hand ended")
        if kind == "pass":
            if self.mode in ("open", "rob"):
                self.explicit_pass(s)
            return
        if kind == "swap":
            raise Illegal("swap.not_in_rules", "no swap in Shanghai Knocking (P21)")
        if kind == "claims":
            return self.ev_claims(ev)
        if self.mode == "exhausted":
            if kind == "draw_game":
                return self.end_draw()
            if kind == "draw":
                raise Illegal("draw.wall_empty", "the wall is exhausted")
            raise Illegal("wall.exhausted", "the wall is exhausted: the hand is drawn (P18)")
        if self.knock_pending and not (kind == "discard" and s == self.cur):
            raise Illegal("knock.discard_follows", "a knock is followed at once by the knocker's discard (P11)")
        if kind == "draw_game":
            if self.mode == "open" and self.left() <= 0:
                return self.end_draw()
            if self.left() > 0:
                raise Illegal("wall.not_exhausted", "tiles are left in the wall (P18)")
            raise Illegal("turn.order", "a move is owed before the hand can be drawn")
        if kind == "draw":
            return self.ev_draw(ev)
        if self.mode == "rob":
            if kind == "win":
                return self.ev_win(ev)
            if kind in ("chow", "pung", "kong") and s != self.cur:
                raise Illegal("claim.no_discard", "only a win may be claimed on an added kong (P17)")
            raise Illegal("draw.replacement_owed", "the kong's maker draws its replacement first (P5)")
        # every other event: a replacement owed comes first
        if self.need_back is not None:
            raise Illegal("draw.replacement_owed",
                          "seat %d owes a replacement draw from the back (P5)" % self.need_back)
        if self.mode == "deal":
            if kind == "flower":
                return self.ev_flower(ev)
            raise Illegal("deal.flowers_first", "every deal flower must be exposed first (P3)")
        if kind in ("chow", "pung"):
            return self.ev_claim(ev, kind)
        if kind == "kong":
            if self.mode == "act" and s == self.cur:
                return self.ev_own_kong(ev, None)
            return self.ev_claim(ev, "kong")
        if kind == "win":
            return self.ev_win(ev)
        # own-turn actions
        if self.mode != "act" or s != self.cur:
            raise Illegal("turn.order", "seat %d may not %s now" % (s, kind))
        if kind == "flower":
            return self.ev_flower(ev)
        if self.holds_flower(s):
            raise Illegal("flower.must_expose", "a flower/dragon in hand must be exposed first (P4)")
        if kind == "discard":
            return self.ev_discard(ev)
        if kind == "knock":
            return self.ev_knock(ev)
        if kind == "add_kong":
            return self.ev_own_kong(ev, "add")
        if kind == "concealed_kong":
            return self.ev_own_kong(ev, "concealed")
        raise BadInput("unknown event %r" % kind)

    # -- draws and flowers
    def ev_draw(self, ev):
        s = ev["seat"]
        frm = ev.get("from")
        if self.need_back is not None:
            if s != self.need_back:
                raise Illegal("draw.replacement_owed",
                              "seat %d owes a replacement draw from the back (P5)" % self.need_back)
            if frm == "wall":
                raise Illegal("draw.replacement_from_back", "a replacement is drawn from the back (P5)")
            if self.left() <= 0:
                raise Illegal("draw.wall_empty", "no tile is left")
            t = self.wall[self.b]
            self.check_named(ev, t)
            self.take_back()
            self.hand[s][t] += 1
            self.need_back = None
            self.passed[s].clear()
            if self.mode == "deal":
                self.check_deal_done()
                return
            if self.mode == "rob":
                self.close_rob()
            self.mode = "act"
            self.cur = s
            self.last_draw = (t, "back")
            self.may_kong = True
            self.after_claim = False
            self.forbid = set()
            return
        if self.mode == "open":
            if self.knock_pending:
                raise Illegal("knock.discard_follows", "a knock is followed at once by a discard")
            if s != (self.cur + 1) % 4:
                raise Illegal("turn.order", "seat %d draws out of turn" % s)
            if frm == "back":
                raise Illegal("draw.not_owed", "no replacement is owed (P5)")
            if self.left() <= 0:
                raise Illegal("draw.wall_empty", "no tile is left: the hand is drawn (P18)")
            t = self.wall[self.f]
            self.check_named(ev, t)
            self.close_discard("draw")
            self.take_front()
            self.hand[s][t] += 1
            self.passed[s].clear()
            self.mode = "act"
            self.cur = s
            self.last_draw = (t, "wall")
            self.may_kong = True
            self.after_claim = False
            self.forbid = set()
            return
        if frm == "back":
            raise Illegal("draw.not_owed", "no replacement is owed (P5)")
        if self.mode == "deal":
            raise Illegal("deal.flowers_first", "no draw before the deal flowers are out and a discard made")
        if self.knock_pending:
            raise Illegal("knock.discard_follows", "a knock is followed at once by a discard")
        raise Illegal("turn.order", "seat %d may not draw now" % s)

    def check_named(self, ev, t):
        if "tile" in ev and ev["tile"] is not None:
            named = one_tile(ev["tile"], "a draw's tile")
            if named != t:
                raise Illegal("draw.wrong_tile", "the wall gives %s, not %s (P5)" % (tname(t), tname(named)))

    def ev_flower(self, ev):
        s = ev["seat"]
        t = one_tile(ev["tile"], "a flower")
        if self.mode == "deal":
            if s != self.deal_seat():
                raise Illegal("deal.flower_order", "deal flowers go round from the dealer (P2)")
        elif self.mode != "act" or s != self.cur:
            raise Illegal("turn.order", "seat %d may not expose now" % s)
        if not is_flower(t):
            raise Illegal("flower.not_a_flower", "%s is not a flower or dragon (P1)" % tname(t))
        if not self.hand[s][t]:
            raise Illegal("flower.not_in_hand", "seat %d does not hold %s" % (s, tname(t)))
        self.hand[s][t] -= 1
        self.flowers[s].append(t)
        if self.left() <= 0:
            if self.mode == "deal":
                raise BadInput("the wall ran out during the deal")
            self.mode = "exhausted"      # P18: no replacement, the hand is drawn
            return
        self.need_back = s

    # -- discards and knocks
    def ev_discard(self, ev):
        s = ev["seat"]
        t = one_tile(ev["tile"], "a discard")
        h = self.hand[s]
        if not h[t]:
            raise Illegal("discard.not_in_hand", "seat %d does not hold %s" % (s, tname(t)))
        if self.knocked[s] and not self.knock_pending:
            drawn = self.last_draw[0] if self.last_draw else None
            if t != drawn:
                raise Illegal("knock.locked", "a knocked hand discards the tile it drew (P13)")
            self.knocked_turn_choice(s, drawn, "discard")
        if t in self.forbid:
            raise Illegal("claim.swap_calling", "may not discard %s right after that claim (P10)" % tname(t))
        if self.knock_pending:
            c = list(h)
            c[t] -= 1
            if not self.waits_of(c, self.melds[s]):
                raise Illegal("knock.not_waiting", "after the knock's discard the hand must be waiting (P11)")
            self.knocked[s] = True
            self.knock_pending = False
        h[t] -= 1
        self.mode = "open"
        self.open_tile = t
        self.cur = s
        self.last_draw = None
        self.may_kong = False
        self.after_claim = False
        self.forbid = set()

    def knocked_turn_choice(self, s, drawn, action):
        """A knocked seat's turn after its draw: missing a self-drawn win forfeits (P12);
        the mandatory kong binds unless that win was there (P14)."""
        win_there = (not self.forfeited[s]) and self.can_self_win(s)
        if win_there:
            self.forfeited[s] = True
            return
        if action == "discard" and drawn is not None and self.left() > 0 and any(
                m["kind"] == "pung" and m["tile"] == drawn for m in self.melds[s]):
            raise Illegal("knock.mandatory_kong", "a knocked seat must add %s to its pung (P14)" % tname(drawn))

    def ev_knock(self, ev):
        s = ev["seat"]
        if self.knocked[s]:
            raise Illegal("knock.already", "seat %d has knocked already" % s)
        self.knock_pending = True

    # -- kongs in one's own turn
    def ev_own_kong(self, ev, how):
        s = ev["seat"]
        if "tile" not in ev or ev["tile"] is None:
            raise BadInput("a kong in one's own turn names its tile")
        t = one_tile(ev["tile"], "a kong's tile")
        if self.holds_flower(s):
            raise Illegal("flower.must_expose", "a flower/dragon in hand must be exposed first (P4)")
        h = self.hand[s]
        pung = next((m for m in self.melds[s] if m["kind"] == "pung" and m["tile"] == t), None)
        if how is None:
            how = "concealed" if h[t] >= 4 else "add"
        if how == "concealed" and h[t] < 4:
            raise Illegal("claim.not_in_hand", "a concealed kong needs four %s in hand" % tname(t))
        if how == "add":
            if pung is None:
                raise Illegal("kong.no_pung", "no exposed pung of %s to add to" % tname(t))
            if not h[t]:
                raise Illegal("claim.not_in_hand", "seat %d does not hold %s" % (s, tname(t)))
        if not self.may_kong:
            raise Illegal("kong.after_claim", "a kong only after one's own draw (P16)")
        if self.left() <= 0:
            raise Illegal("kong.wall_empty", "no replacement tile is left (P16)")
        if self.knocked[s]:
            drawn = self.last_draw[0] if self.last_draw else None
            if t != drawn:
                raise Illegal("knock.locked", "a knocked hand may kong only the tile it drew (P13-P15)")
            if how == "concealed":
                before = list(h)
                before[t] -= 1
                after = list(h)
                after[t] -= 4
                w0 = self.waits_of(before, self.melds[s])
                w1 = self.waits_of(after, self.melds[s] + [{"kind": "kong", "tile": t, "concealed": True}])
                if w0 != w1:
                    raise Illegal("knock.locked", "this concealed kong changes the knocked hand's wait (P15)")
            self.knocked_turn_choice(s, drawn, "kong")
        if how == "concealed":
            h[t] -= 4
            self.melds[s].append({"kind": "kong", "tile": t, "concealed": True, "from": None})
            self.need_back = s
            self.last_draw = None
            self.may_kong = False
            return
        h[t] -= 1
        pung["kind"] = "kong"
        pung["added"] = True
        self.mode = "rob"          # P17: robbable until the replacement is drawn
        self.open_tile = t
        self.need_back = s
        self.last_draw = None
        self.may_kong = False

    # -- claims of a discard
    def ev_claim(self, ev, kind):
        s = ev["seat"]
        if self.mode == "rob":
            raise Illegal("claim.no_discard", "only a win may be claimed on an added kong (P17)")
        if self.mode != "open":
            if self.mode == "act" and self.after_claim and s != self.cur:
                raise Illegal("claim.already_taken", "the discard was taken already (P7)")
            raise Illegal("claim.no_discard", "there is no discard to claim")
        d, t = self.cur, self.open_tile
        if s == d:
            raise Illegal("turn.order", "a seat may not claim its own discard")
        if self.knocked[s]:
            raise Illegal("knock.locked", "a knocked seat may not %s (P13)" % kind)
        if ev.get("tile") is not None and kind != "chow":
            if one_tile(ev["tile"], "a claim's tile") != t:
                raise Illegal("claim.wrong_tile", "the discard is %s" % tname(t))
        h = self.hand[s]
        if kind == "chow":
            if s != (d + 1) % 4:
                raise Illegal("claim.chow_upstream_only", "only the discarder's next seat may chow (P6)")
            ts = parse_tiles(ev["tiles"])
            if len(ts) == 3:
                if t not in ts:
                    raise Illegal("claim.chow_shape", "the chow must hold the discard %s" % tname(t))
                ts = list(ts)
                ts.remove(t)
            if len(ts) != 2:
                raise BadInput("a chow names two or three tiles")
            run = sorted(ts + [t])
            if run[0] >= 27 or not (run[0] // 9 == run[2] // 9 and run[1] == run[0] + 1 and run[2] == run[0] + 2):
                raise Illegal("claim.chow_shape", "not a run: %s" % "".join(tname(u) for u in run))
            if any(h[u] < ts.count(u) for u in ts):
                raise Illegal("claim.not_in_hand", "seat %d does not hold the chow's tiles" % s)
            if t in self.passed[s]:
                raise Illegal("claim.forgo_reclaim", "seat %d passed %s since its last draw (P9)" % (s, tname(t)))
            self.close_discard("chow", s)
            for u in ts:
                h[u] -= 1
            self.melds[s].append({"kind": "chow", "tile": run[0], "concealed": False, "from": d})
            forbid = {t}
            a, b = sorted(ts)
            if t == a - 1 and b + 1 <= (b // 9) * 9 + 8:
                forbid.add(b + 1)
            elif t == b + 1 and a % 9 >= 1:
                forbid.add(a - 1)
            self.to_claimer(s, forbid)
            return
        need = 2 if kind == "pung" else 3
        if is_flower(t) or h[t] < need:
            raise Illegal("claim.not_in_hand", "seat %d does not hold %d %s" % (s, need, tname(t)))
        if t in self.passed[s]:
            raise Illegal("claim.forgo_reclaim", "seat %d passed %s since its last draw (P9)" % (s, tname(t)))
        if kind == "kong" and self.left() <= 0:
            raise Illegal("kong.wall_empty", "no replacement tile is left (P16)")
        self.close_discard("pung", s)
        h[t] -= need
        self.melds[s].append({"kind": kind, "tile": t, "concealed": False, "from": d})
        if kind == "pung":
            self.to_claimer(s, {t})
        else:
            self.to_claimer(s, set())
            self.need_back = s

    def to_claimer(self, s, forbid):
        self.mode = "act"
        self.cur = s
        self.last_draw = None
        self.may_kong = False
        self.after_claim = True
        self.forbid = forbid
        self.open_tile = None

    # -- wins
    def ev_win(self, ev):
        s = ev["seat"]
        if self.mode == "act" and s == self.cur:
            if self.last_draw is None:
                raise Illegal("win.shape" if self.knocked[s] else "win.not_knocked",
                              "no tile was drawn this turn to win on")
            if self.holds_flower(s):
                raise Illegal("flower.must_expose", "a flower/dragon in hand must be exposed first (P4)")
            t = self.last_draw[0]
            win_by = "self_draw"
        elif self.mode == "open" and s != self.cur:
            t = self.open_tile
            win_by = "discard"
        elif self.mode == "rob" and s != self.cur:
            t = self.open_tile
            win_by = "robbing_kong"
        elif self.mode == "act" and self.after_claim and s != self.cur:
            raise Illegal("claim.already_taken", "the discard was taken already (P7)")
        else:
            raise Illegal("turn.order", "seat %d has nothing to win on" % s)
        if ev.get("tile") is not None and one_tile(ev["tile"], "a win's tile") != t:
            raise Illegal("win.wrong_tile", "the tile to win on is %s" % tname(t))
        if not self.knocked[s]:
            raise Illegal("win.not_knocked", "only a knocked seat may win (P12)")
        if self.forfeited[s]:
            raise Illegal("win.forfeited", "seat %d missed a win after knocking and forfeited (P12)" % s)
        c = list(self.hand[s])
        if win_by != "self_draw":
            c[t] += 1
        if not complete(c, self.nsets(s)):
            if seven_pairs(c) and not self.melds[s]:
                raise Illegal("win.seven_pairs", "seven pairs does not win (S13)")
            raise Illegal("win.shape", "not four sets and a pair")
        back = win_by == "self_draw" and self.last_draw[1] == "back"
        total, fans = score_hand(c, self.melds[s], len(self.flowers[s]), win_by, back)
        pay = [0] * 4
        if win_by == "self_draw":
            for o in range(4):
                pay[o] = -total
            pay[s] = 3 * total
        elif win_by == "discard":
            pay[self.cur] = -total
            pay[s] = total
        else:
            pay[self.cur] = -3 * total          # S11, S12
            pay[s] = 3 * total
        self.mode = "ended"
        self.win_context = win_by
        self.result = {"verdict": "legal", "ended": "win",
                       "winners": [{"seat": s, "win_by": win_by, "total": total, "fans": fans}],
                       "payments": pay, "next_dealer": s}

    def end_draw(self):
        self.mode = "ended"
        self.win_context = "draw"
        self.result = {"verdict": "legal", "ended": "draw", "winners": [], "payments": [0, 0, 0, 0],
                       "next_dealer": self.dealer}

    # -- all answers at once
    def ev_claims(self, ev):
        answers = ev.get("answers")
        if not isinstance(answers, list) or not answers:
            raise BadInput("claims needs a list of answers")
        if self.mode == "exhausted":
            raise Illegal("wall.exhausted", "the wall is exhausted: the hand is drawn (P18)")
        if self.mode not in ("open", "rob"):
            if self.mode == "act" and self.after_claim:
                raise Illegal("claim.already_taken", "the discard was taken already (P7)")
            raise Illegal("claim.no_discard", "there is no discard or kong to answer")
        origin = self.cur
        seen = set()
        made = []
        for a in answers:
            if not isinstance(a, dict) or "seat" not in a or "claim" not in a:
                raise BadInput("an answer needs seat and claim")
            seat = to_seat(a["seat"])
            if seat in seen or seat == origin:
                raise BadInput("seat %d answers twice or answers its own tile" % seat)
            seen.add(seat)
            claim = a["claim"]
            if claim not in ("pass", "chow", "pung", "kong", "win"):
                raise BadInput("unknown claim %r" % (claim,))
            sub = {"event": claim, "seat": seat}
            for k in ("tile", "tiles"):
                if a.get(k) is not None:
                    sub[k] = a[k]
            if claim == "chow" and "tiles" not in sub:
                raise BadInput("a chow answer names its tiles")
            if claim != "pass":
                trial = copy.deepcopy(self)
                trial.step(sub)                # raises Illegal with that answer's rule
            made.append(sub)
        for sub in made:
            if sub["event"] == "pass":
                self.explicit_pass(sub["seat"])
        rank = {"win": 0, "pung": 1, "kong": 1, "chow": 2}
        live = [m for m in made if m["event"] != "pass"]
        if not live:
            return
        live.sort(key=lambda m: (rank[m["event"]], (m["seat"] - origin) % 4))
        self.step(live[0])


def score_hand(counts, melds, nflowers, win_by, back_draw):
    """(total, fans) of a winning hand: counts holds the concealed tiles with the winning tile (S1-S11)."""
    best = None
    nd = 4 - len(melds)
    all_tiles = [t for t in PLAYABLE for _ in range(counts[t])] + [m["tile"] for m in melds]
    suits = {t // 9 for t in all_tiles if t < 27}
    winds = any(t >= 27 for t in all_tiles)
    for pair, sets in decompositions(counts, nd):
        hua = {}

        def add(k, n=1):
            hua[k] = hua.get(k, 0) + n

        if nflowers:
            add("flower", nflowers)
        for m in melds:
            w = m["tile"] >= 27
            if m["kind"] == "pung" and w:
                add("wind_pung")
            elif m["kind"] == "kong":
                add(("wind_" if w else "plain_") + ("concealed_kong" if m["concealed"] else "exposed_kong"))
        for k, t in sets:
            if k == "pung" and t >= 27:
                add("wind_pung")
        pts = {"flower": 1, "wind_pung": 1, "plain_exposed_kong": 1, "plain_concealed_kong": 2,
               "wind_exposed_kong": 2, "wind_concealed_kong": 3}
        h = 1 + sum(pts[k] * n for k, n in hua.items())
        fans = []
        if h == 1:
            fans.append({"id": "wu_hua_guo", "points": 10, "count": 1})
            h = 10
        else:
            fans.append({"id": "going_out", "points": 1, "count": 1})
            for k in ("flower", "wind_pung", "plain_exposed_kong", "plain_concealed_kong",
                      "wind_exposed_kong", "wind_concealed_kong"):
                if k in hua:
                    fans.append({"id": k, "points": pts[k], "count": hua[k]})
        doubles = []
        if len(melds) == 4 and win_by == "self_draw":
            doubles.append(("da_tiao_che", 1))
        if all(m["concealed"] for m in melds):
            doubles.append(("men_qing", 1))
        if win_by == "self_draw" and back_draw:
            doubles.append(("gang_kai", 1))
        if all(m["kind"] != "chow" for m in melds) and all(k != "chow" for k, _ in sets):
            doubles.append(("peng_peng_hu", 1))
        if len(suits) == 1 and winds:
            doubles.append(("hun_yi_se", 1))
        elif len(suits) == 1:
            doubles.append(("qing_yi_se", 2))
        nd2 = sum(p for _, p in doubles)
        for k, p in doubles:
            fans.append({"id": k, "points": p, "count": 1})
        total = h * (2 ** nd2)
        if win_by == "robbing_kong":
            fans.append({"id": "qiang_gang", "points": 3, "count": 1})
        if best is None or total > best[0]:
            best = (total, fans)
    return best


# ---------------------------------------------------------------- a case
def to_seat(v):
    if isinstance(v, bool):
        raise BadInput("a seat is a number 0-3, not %r" % (v,))
    if isinstance(v, float) and v.is_integer():
        v = int(v)
    if not isinstance(v, int) or not 0 <= v <= 3:
        raise BadInput("a seat is a number 0-3, not %r" % (v,))
    return v


EVENTS = {"draw", "discard", "chow", "pung", "kong", "add_kong", "concealed_kong", "flower", "knock",
          "pass", "win", "draw_game", "swap", "claims"}


def normalise_event(ev):
    if not isinstance(ev, dict) or "event" not in ev:
        raise BadInput("an event is an object with 'event'")
    kind = ev["event"]
    if kind not in EVENTS:
        raise BadInput("unknown event %r" % (kind,))
    out = dict(ev)
    if kind in ("draw_game", "claims"):
        if out.get("seat") is not None:
            raise BadInput("%s has no seat" % kind)
    else:
        if "seat" not in ev:
            raise BadInput("%s needs a seat" % kind)
        out["seat"] = to_seat(ev["seat"])
    if kind in ("discard", "add_kong", "concealed_kong", "flower") and ev.get("tile") is None:
        raise BadInput("%s needs a tile" % kind)
    if kind in ("chow", "swap") and ev.get("tiles") is None:
        raise BadInput("%s needs tiles" % kind)
    if ev.get("from") not in (None, "wall", "back"):
        raise BadInput("a draw's from is wall or back")
    for k in ("tile", "tiles"):
        if out.get(k) is not None:
            parse_tiles(out[k])        # an unreadable tile is bad input
    return out


def judge(inp):
    """The procedure result for a procedure case's input."""
    try:
        if not isinstance(inp, dict):
            raise BadInput("input is not an object")
        if "seed" in inp and inp["seed"] is not None:
            seed = inp["seed"]
            if isinstance(seed, float) and seed.is_integer():
                seed = int(seed)
            if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
                raise BadInput("seed must be a whole number >= 0")
            wall = seed_wall(seed)
        elif "wall" in inp:
            wall = parse_tiles(inp["wall"])
            if sorted(wall) != FULL_SET:
                raise BadInput("the wall is not the 144 tiles (%d given)" % len(wall))
        else:
            raise BadInput("no seed or wall")
        dealer = inp.get("dealer", 0)
        dealer = 0 if dealer is None else to_seat(dealer)
        events = inp.get("events")
        if not isinstance(events, list):
            raise BadInput("events must be a list")
        table = Table(wall, dealer)
        for i, raw in enumerate(events):
            ev = normalise_event(raw)
            try:
                table.step(ev)
            except Illegal as e:
                return {"verdict": "illegal", "rule": e.rule, "event": i, "message": e.message}
        if table.mode == "ended":
            return table.result
        if table.mode == "exhausted" or (table.mode == "open" and table.left() <= 0):
            table.end_draw()               # P18: the log stops where the hand is drawn
            return table.result
        return {"verdict": "unfinished", "message": "the events stop before the hand ends"}
    except BadInput as e:
        return {"verdict": "bad input", "message": str(e)}


def run_case(case):
    if not isinstance(case, dict):
        raise ValueError("the case is not an object")
    if case.get("ruleset") != RULESET:
        raise ValueError("ruleset %r is not %s" % (case.get("ruleset"), RULESET))
    if case.get("kind") != "procedure":
        raise ValueError("only procedure cases")
    return judge(case.get("input"))


def main():
    out = sys.stdout
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        rid = None
        try:
            msg = json.loads(line)
            if not isinstance(msg, dict):
                raise ValueError("a message is a JSON object")
            rid = msg.get("id")
            cmd = msg.get("cmd")
            if cmd == "start":
                ans = {"name": NAME, "version": VERSION, "rulesets": [RULESET], "kinds": ["procedure"],
                       "fields": FIELDS, "rule_ids": "own"}
            elif cmd == "stop":
                break
            elif cmd == "run":
                ans = {"result": run_case(msg.get("case"))}
            else:
                raise ValueError("unknown cmd %r" % (cmd,))
        except Exception as e:          # never crash: answer an error
            ans = {"error": "%s: %s" % (type(e).__name__, e)}
        if rid is not None:
            ans = dict(ans, id=rid)
        out.write(json.dumps(ans, ensure_ascii=False) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
