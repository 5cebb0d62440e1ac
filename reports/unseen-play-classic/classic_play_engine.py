#!/usr/bin/env python3
"""Independent play judge for classic Shanghai mahjong (上海麻将, 勒子 caps).

Ruleset id: shanghai-classic.  One rule document (seed 001) was read; every point
it leaves open is decided once, in READINGS.md (P1.. play, S1.. scoring).

Protocol mode (default): JSON lines on stdin, one flushed JSON line per request.
    {"cmd": "start"} / {"cmd": "run", "id": N, "case": {...}} / {"cmd": "stop"}
Library use: judge(procedure_input_dict) -> procedure result dict.

Standard library only.
"""
import copy
import json
import random
import sys
from collections import Counter

NAME = "classic-play-judge"
VERSION = "1.0"
RULESET = "shanghai-classic"
FIELDS = ["verdict", "rule", "event", "ended", "winners", "winners.win_by",
          "winners.total", "winners.fans", "payments", "next_dealer", "next_huangfan"]

# ---------------------------------------------------------------- tiles
SUIT_TILES = [f"{n}{s}" for s in "mps" for n in range(1, 10)]
HONOURS = [f"{n}z" for n in range(1, 8)]
ALL34 = SUIT_TILES + HONOURS
FLOWERS = [f"{n}f" for n in range(1, 9)]
ORDER144 = [t for t in ALL34 for _ in range(4)] + FLOWERS
KEY = {t: i for i, t in enumerate(ALL34 + FLOWERS)}
WINDS = {"1z", "2z", "3z", "4z"}
DRAGONS = {"5z", "6z", "7z"}
MAXNUM = {"m": 9, "p": 9, "s": 9, "z": 7, "f": 8}

LE = 10                 # one 勒子 = 10 花 = 10 分 (计分规则: 1个勒子=10个花; 勒子: 10分)
PER_LOSER_LIMIT = 5 * LE  # 单局封顶: 玩家一局最多只输5个勒子 (S10)


class BadInput(Exception):
    def __init__(self, rule, message):
        super().__init__(message)
        self.rule, self.message = rule, message


class Illegal(Exception):
    def __init__(self, rule, message):
        super().__init__(message)
        self.rule, self.message = rule, message


def is_flower(t):
    return t.endswith("f")


def parse_tiles(value, field="tile"):
    """Canonical two-character names; compact groups (123m) and lists are read too."""
    if isinstance(value, list):
        value = "".join(str(v) for v in value)
    if not isinstance(value, str):
        raise BadInput("input.tile", f"{field}: not a tile string")
    out, digits = [], ""
    for ch in value:
        if ch.isdigit():
            digits += ch
        elif ch in MAXNUM:
            if not digits:
                raise BadInput("input.tile", f"{field}: suit letter without number in {value!r}")
            for d in digits:
                n = int(d)
                if not 1 <= n <= MAXNUM[ch]:
                    raise BadInput("input.tile", f"{field}: no tile {d}{ch}")
                out.append(f"{n}{ch}")
            digits = ""
        elif ch in " ,":
            continue
        else:
            raise BadInput("input.tile", f"{field}: cannot read {value!r}")
    if digits:
        raise BadInput("input.tile", f"{field}: number without suit in {value!r}")
    return out


def one_tile(value, field="tile"):
    ts = parse_tiles(value, field)
    if len(ts) != 1:
        raise BadInput("input.tile", f"{field}: expected one tile, got {value!r}")
    return ts[0]


def sort_tiles(ts):
    return sorted(ts, key=lambda t: KEY[t])


# ---------------------------------------------------------------- hand shapes
def _sets(cnt, allow_chow):
    t = None
    for k in sorted(cnt, key=KEY.get):
        if cnt[k] > 0:
            t = k
            break
    if t is None:
        return True
    if cnt[t] >= 3:
        cnt[t] -= 3
        ok = _sets(cnt, allow_chow)
        cnt[t] += 3
        if ok:
            return True
    if allow_chow and t[1] in "mps" and int(t[0]) <= 7:
        t2, t3 = f"{int(t[0]) + 1}{t[1]}", f"{int(t[0]) + 2}{t[1]}"
        if cnt.get(t2, 0) > 0 and cnt.get(t3, 0) > 0:
            for x in (t, t2, t3):
                cnt[x] -= 1
            ok = _sets(cnt, allow_chow)
            for x in (t, t2, t3):
                cnt[x] += 1
            if ok:
                return True
    return False


def complete(tiles, allow_chow):
    """tiles: the concealed part (with the winning tile): sets + one pair?"""
    if len(tiles) % 3 != 2 or any(is_flower(t) for t in tiles):
        return False
    cnt = Counter(tiles)
    for t in list(cnt):
        if cnt[t] >= 2:
            cnt[t] -= 2
            ok = _sets(cnt, allow_chow)
            cnt[t] += 2
            if ok:
                return True
    return False


def meld_tiles(m):
    return list(m["tiles"])


def classify(concealed, melds):
    """The one permitted pattern (S1) of a complete hand, or None."""
    if len(concealed) + 3 * len(melds) != 14:
        return None
    if not complete(concealed, True):
        return None
    all_tiles = list(concealed) + [t for m in melds for t in meld_tiles(m)]
    suits = {t[1] for t in all_tiles if t[1] in "mps"}
    has_wind = any(t in WINDS for t in all_tiles)
    has_dragon = any(t in DRAGONS for t in all_tiles)
    all_pungs = all(m["type"] != "chow" for m in melds) and complete(concealed, False)
    if not suits and not has_dragon:
        return "fengpeng"            # 风一色 is always 碰碰胡 in shape (S2)
    if len(suits) == 1 and not has_wind and not has_dragon:
        return "qingpeng" if all_pungs else "qingyise"
    if len(suits) == 1 and has_wind and not has_dragon:
        return "hunpeng" if all_pungs else "hunyise"
    if all_pungs:
        return "pengpenghu"
    return None


FIXED_LE = {"qingyise": 1, "hunpeng": 1, "qingpeng": 2, "fengpeng": 4, "bahuaqi": 2}


# ---------------------------------------------------------------- the table
RANK = {"chow": 1, "pung": 2, "kong": 2, "win": 3}


class State:
    pass


class Table:
    def __init__(self, inp):
        if not isinstance(inp, dict):
            raise BadInput("input.case", "input is not an object")
        self.dealer = self._int(inp.get("dealer", 0), "dealer", 0, 3)
        counters = inp.get("counters") or {}
        flags = inp.get("flags") or {}
        if not isinstance(counters, dict) or not isinstance(flags, dict):
            raise BadInput("input.counters", "counters and flags must be objects")
        self.huangfan = self._int(counters.get("huangfan", 0), "counters.huangfan", 0, 99)
        self.base = self._int(counters.get("base", 2), "counters.base", 0, 10 ** 6)
        kb = flags.get("kaibao", False)
        if not isinstance(kb, bool):
            raise BadInput("input.flags", "flags.kaibao must be true or false")
        self.kaibao = kb
        self.claim_order = inp.get("claim_order", "priority")
        if self.claim_order not in ("priority", "declared"):
            raise BadInput("input.claim_order", "claim_order is priority or declared")
        self.wall = self._wall(inp)
        st = State()
        self.st = st
        st.front, st.back = 0, len(self.wall)
        st.hands = [[] for _ in range(4)]
        st.melds = [[] for _ in range(4)]
        st.flowers = [[] for _ in range(4)]
        st.knocked = [False] * 4
        st.missed = [set() for _ in range(4)]
        st.claimed = [[0] * 4 for _ in range(4)]   # claimed[x][y]: x took y's discard
        st.phase = "deal"
        st.seat = self.dealer
        st.tile = None
        st.passed_all = False
        st.last_draw = None
        st.back_cause = None
        st.ret = None
        st.eight = None
        st.swap_open = True
        st.swapped = set()
        st.claim_snap = None
        st.winners = []
        st.win_from = None
        st.win_kind = None
        st.ended = None
        self._deal()

    # -- input helpers
    @staticmethod
    def _int(v, field, lo, hi):
        if isinstance(v, bool) or not isinstance(v, (int, float)) or v != int(v):
            raise BadInput(f"input.{field}", f"{field}: not a whole number")
        v = int(v)
        if not lo <= v <= hi:
            raise BadInput(f"input.{field}", f"{field}: {v} outside {lo}..{hi}")
        return v

    def _wall(self, inp):
        if "wall" in inp and inp["wall"] is not None:
            w = inp["wall"]
            if isinstance(w, list):        # four quarters: joined, seat 0's first (P18)
                if len(w) != 4 or not all(isinstance(x, str) for x in w):
                    raise BadInput("input.wall", "wall: a string or four strings")
                w = "".join(w)
            tiles = parse_tiles(w, "wall")
            if len(tiles) != 144 or Counter(tiles) != Counter(ORDER144):
                raise BadInput("input.wall", "wall: not the 144 tiles (4 of each suit/honour tile, 1 of each flower)")
            return tiles
        if "seed" in inp and inp["seed"] is not None:
            seed = inp["seed"]
            if isinstance(seed, bool) or not isinstance(seed, (int, float)) or seed != int(seed) or seed < 0:
                raise BadInput("input.seed", "seed: a whole number >= 0")
            w = list(ORDER144)
            random.Random(int(seed)).shuffle(w)
            return w
        raise BadInput("input.wall", "neither seed nor wall")

    def _deal(self):
        st = self.st
        order = [(self.dealer + k) % 4 for k in range(4)]
        for _ in range(3):
            for s in order:
                st.hands[s].extend(self._front(4))
        for s in order:
            st.hands[s].extend(self._front(1))
        st.hands[self.dealer].extend(self._front(1))

    def _front(self, n):
        st = self.st
        out = self.wall[st.front:st.front + n]
        st.front += n
        return out

    def live(self):
        return self.st.back - self.st.front

    # -- checks
    def holds_flower(self, s):
        return any(is_flower(t) for t in self.st.hands[s])

    def win_pattern(self, s, extra=None):
        hand = list(self.st.hands[s]) + ([extra] if extra else [])
        return classify(hand, self.st.melds[s])

    def waiting(self, s):
        st = self.st
        own = Counter(st.hands[s]) + Counter(t for m in st.melds[s] for t in m["tiles"])
        for t in ALL34:
            if own[t] < 4 and self.win_pattern(s, t):
                return True
        return False

    def could_win_on(self, s, tile):
        st = self.st
        return (st.knocked[s] and tile not in st.missed[s] and not self.holds_flower(s)
                and self.win_pattern(s, tile) is not None)

    def mark_passes(self, from_seat, tile, skip=()):
        """Implicit passes (P5): a seat that could have won on this tile and did not
        may not win on the same tile from a discard or a robbed kong until it moves."""
        for s in range(4):
            if s != from_seat and s not in skip and self.could_win_on(s, tile):
                self.st.missed[s].add(tile)

    def deal_seat(self):
        """In the deal phase: the first seat from the dealer still holding a flower."""
        for k in range(4):
            s = (self.dealer + k) % 4
            if self.holds_flower(s):
                return s
        return None

    def settle_deal(self):
        st = self.st
        if st.phase == "deal":
            st.swap_open = False
            if self.deal_seat() is None:
                st.phase, st.seat = "act", self.dealer
                st.last_draw = None

    # -- one event
    def apply(self, ev):
        st = self.st
        if not isinstance(ev, dict):
            raise BadInput("input.event", "an event is an object")
        kind = ev.get("event")
        known = {"draw", "discard", "chow", "pung", "kong", "add_kong", "concealed_kong", "flower",
                 "knock", "pass", "win", "draw_game", "swap", "claims"}
        if kind not in known:
            raise BadInput("input.event", f"unknown event {kind!r}")
        seat = None
        if kind not in ("draw_game", "claims"):
            if "seat" not in ev:
                raise BadInput("input.seat", f"{kind}: no seat")
            seat = self._int(ev["seat"], "seat", 0, 3)
        if st.ended:
            if kind == "pass":
                return
            if kind == "win" and st.win_kind in ("discard", "robbing_kong"):
                return self.extra_win(seat, ev)
            raise BadInput("input.after_end", f"{kind} after the hand ended")
        if kind == "pass":
            return
        if kind == "swap":
            return self.ev_swap(seat, ev)
        self.settle_deal()
        handler = getattr(self, "ev_" + kind)
        if kind in ("draw_game", "claims"):
            return handler(ev)
        return handler(seat, ev)

    # -- deal-time swap (换牌, P13)
    def ev_swap(self, seat, ev):
        st = self.st
        if st.phase != "deal" or not st.swap_open:
            raise Illegal("swap.late", "a swap comes right after the deal, before any flower or play")
        if seat in st.swapped:
            raise Illegal("swap.twice", "a seat swaps once")
        if "tiles" not in ev:
            raise BadInput("input.tiles", "swap: no tiles")
        tiles = parse_tiles(ev["tiles"], "tiles")
        if len(tiles) != 5:
            raise Illegal("swap.tiles", "a swap buries exactly five tiles")
        if Counter(tiles) - Counter(st.hands[seat]):
            raise Illegal("swap.tiles", "the buried tiles are not all in the hand")
        for t in tiles:
            st.hands[seat].remove(t)
        st.hands[seat].extend(self._front(5))
        st.swapped.add(seat)

    # -- flowers
    def ev_flower(self, seat, ev):
        st = self.st
        tile = one_tile(ev.get("tile"), "tile") if "tile" in ev else None
        if st.phase == "deal":
            expected = self.deal_seat()
            if seat != expected:
                raise Illegal("flower.deal_order",
                              f"at the deal, seat {expected} exposes its flowers first (seats in turn from the dealer)")
            ret = "deal"
        elif st.phase == "act" and seat == st.seat:
            ret = "act"
        else:
            raise Illegal("turn.order", "a flower is exposed only in its holder's own turn")
        if tile is None or not is_flower(tile):
            raise Illegal("flower.not_flower", "only a flower tile is exposed")
        if tile not in st.hands[seat]:
            raise Illegal("flower.not_in_hand", f"{tile} is not in the hand")
        st.hands[seat].remove(tile)
        st.flowers[seat].append(tile)
        st.phase, st.seat, st.ret, st.back_cause = "need_back", seat, ret, "flower"
        st.eight = seat if len(st.flowers[seat]) == 8 else None

    # -- draws
    def _check_drawn(self, ev, tile):
        if "tile" in ev and ev["tile"] is not None:
            named = one_tile(ev["tile"], "tile")
            if named != tile:
                raise Illegal("draw.wrong_tile", f"the wall gives {tile}, the event names {named}")

    def ev_draw(self, seat, ev):
        st = self.st
        src = ev.get("from")
        if src not in (None, "wall", "back"):
            raise BadInput("input.from", "from is wall or back")
        if st.phase in ("need_back", "rob"):
            if seat != st.seat:
                raise Illegal("turn.order", f"seat {st.seat} draws its replacement")
            if src == "wall":
                raise Illegal("draw.replacement_from_back", "a replacement is drawn from the back")
            if self.live() <= 0:
                raise Illegal("draw.wall_empty", "no tile left to draw")
            if st.phase == "rob":
                if not st.passed_all:
                    self.mark_passes(st.seat, st.tile)
                cause, ret = "kong", "act"
            else:
                cause, ret = st.back_cause, st.ret
            tile = self.wall[st.back - 1]
            self._check_drawn(ev, tile)
            st.back -= 1
            st.hands[seat].append(tile)
            st.missed[seat].clear()
            st.last_draw = {"tile": tile, "back": True, "cause": cause}
            st.eight = None
            st.phase, st.seat, st.passed_all = ret, seat, False
            st.tile = None
            return
        if st.phase == "discarded":
            nxt = (st.seat + 1) % 4
            if seat != nxt:
                raise Illegal("turn.order", f"seat {nxt} draws next")
            if src == "back":
                raise Illegal("draw.turn_from_front", "a turn's draw comes from the front of the wall")
            if self.live() <= 0:
                raise Illegal("draw.wall_empty", "no live tile left: the hand is drawn")
            if not st.passed_all:
                self.mark_passes(st.seat, st.tile)
            tile = self.wall[st.front]
            self._check_drawn(ev, tile)
            st.front += 1
            st.hands[seat].append(tile)
            st.missed[seat].clear()
            st.last_draw = {"tile": tile, "back": False, "cause": None}
            st.phase, st.seat, st.tile, st.passed_all = "act", seat, None, False
            st.claim_snap = None
            return
        if st.phase == "deal":
            raise Illegal("flower.deal_first", "flowers of the deal are exposed and replaced first")
        raise Illegal("turn.order", "no draw is due now")

    # -- own-turn actions
    def _own_turn(self, seat, what):
        st = self.st
        if st.phase == "deal":
            raise Illegal("flower.deal_first", "flowers of the deal are exposed and replaced first")
        if st.phase == "knock":
            raise Illegal("knock.discard_next", "a knock is followed at once by a discard")
        if st.phase != "act" or seat != st.seat:
            raise Illegal("turn.order", f"{what}: not this seat's turn to act")
        if self.holds_flower(seat):
            raise Illegal("flower.must_expose", "a seat holding a flower exposes it before anything else")

    def ev_discard(self, seat, ev):
        st = self.st
        tile = one_tile(ev.get("tile"), "tile")
        if st.phase == "knock" and seat == st.seat:
            knocking = True
            if self.holds_flower(seat):
                raise Illegal("flower.must_expose", "a seat holding a flower exposes it before anything else")
        else:
            knocking = False
            self._own_turn(seat, "discard")
        if tile not in st.hands[seat]:
            raise Illegal("discard.not_in_hand", f"{tile} is not in the hand")
        st.hands[seat].remove(tile)
        if knocking and not self.waiting(seat):
            raise Illegal("knock.not_waiting", "the discard after a knock must leave the hand waiting on a permitted pattern")
        st.phase, st.seat, st.tile = "discarded", seat, tile
        st.passed_all = False
        st.claim_snap = None
        st.last_draw = None
        st.eight = None

    def ev_knock(self, seat, ev):
        st = self.st
        self._own_turn(seat, "knock")
        if st.knocked[seat]:
            raise Illegal("knock.twice", "this seat has knocked already")
        st.knocked[seat] = True
        st.phase = "knock"

    def _need_live_for_kong(self):
        if self.live() <= 0:
            raise Illegal("kong.wall_empty", "no tile is left for the kong's replacement")

    def ev_concealed_kong(self, seat, ev):
        st = self.st
        self._own_turn(seat, "concealed kong")
        tile = one_tile(ev.get("tile"), "tile")
        if st.hands[seat].count(tile) < 4:
            raise Illegal("kong.tiles", f"a concealed kong needs four {tile} in the hand")
        self._need_live_for_kong()
        for _ in range(4):
            st.hands[seat].remove(tile)
        st.melds[seat].append({"type": "kong", "tiles": [tile] * 4, "concealed": True, "from": None})
        st.phase, st.ret, st.back_cause = "need_back", "act", "kong"
        st.claim_snap = None
        st.last_draw = None

    def ev_add_kong(self, seat, ev):
        st = self.st
        self._own_turn(seat, "added kong")
        tile = one_tile(ev.get("tile"), "tile")
        meld = next((m for m in st.melds[seat] if m["type"] == "pung" and m["tiles"][0] == tile), None)
        if meld is None:
            raise Illegal("add_kong.no_pung", f"no exposed pung of {tile} to extend")
        if tile not in st.hands[seat]:
            raise Illegal("add_kong.not_in_hand", f"{tile} is not in the hand")
        self._need_live_for_kong()
        st.hands[seat].remove(tile)
        meld["type"], meld["tiles"], meld["added"] = "kong", [tile] * 4, True
        st.phase, st.tile, st.passed_all = "rob", tile, False
        st.claim_snap = None
        st.last_draw = None

    # -- claims on a discard (one by one)
    def _later_claim(self, seat, kind, ev):
        """A claim on a discard that another claim has already taken (P4)."""
        st = self.st
        snap = st.claim_snap
        if snap and seat not in (snap["claimer"], snap["discarder"]) and RANK[kind] > snap["rank"]:
            if self.claim_order == "declared":
                self.st = snap["state"]
                return True
            raise Illegal("claim.priority", f"a {kind} cannot follow a lower claim already made on this discard")
        return False

    def _open_discard(self, seat, kind):
        st = self.st
        if st.phase != "discarded" or st.passed_all:
            raise Illegal("claim.no_discard", f"{kind}: no discard is open to claim")
        if seat == st.seat:
            raise Illegal("claim.own_discard", "a seat does not claim its own discard")
        if kind != "win" and self.live() <= 0:
            raise Illegal("claim.wall_empty", "the last discard may be claimed only for a win")
        return st.seat, st.tile

    def check_chow(self, seat, discarder, tile, tiles_value):
        st = self.st
        if seat != (discarder + 1) % 4:
            raise Illegal("chow.not_next_seat", "only the discarder's next seat may chow")
        if tiles_value is None:
            raise BadInput("input.tiles", "chow: no tiles")
        tiles = parse_tiles(tiles_value, "tiles")
        if len(tiles) == 2:
            tiles = tiles + [tile]
        if len(tiles) != 3 or tile not in tiles:
            raise Illegal("chow.tiles", "a chow names three tiles including the discard")
        tiles = sort_tiles(tiles)
        if (tile[1] not in "mps" or len({t[1] for t in tiles}) != 1
                or [int(t[0]) for t in tiles] != list(range(int(tiles[0][0]), int(tiles[0][0]) + 3))):
            raise Illegal("chow.tiles", "a chow is three consecutive tiles of one suit")
        own = list(tiles)
        own.remove(tile)
        if Counter(own) - Counter(st.hands[seat]):
            raise Illegal("chow.tiles", "the chow's other two tiles are not in the hand")
        return tiles, own

    def check_pung(self, seat, tile):
        if self.st.hands[seat].count(tile) < 2:
            raise Illegal("pung.tiles", f"a pung needs two {tile} in the hand")

    def check_kong_claim(self, seat, tile):
        if self.st.hands[seat].count(tile) < 3:
            raise Illegal("kong.tiles", f"a kong of a discard needs three {tile} in the hand")

    def check_win_on(self, seat, tile):
        st = self.st
        if not st.knocked[seat]:
            raise Illegal("win.not_knocked", "a seat must knock (敲, 报听) before it may win")
        if tile in st.missed[seat]:
            raise Illegal("win.missed", f"漏胡: this seat let {tile} pass and has not moved since")
        if self.holds_flower(seat):
            raise Illegal("flower.must_expose", "a seat holding a flower cannot win")
        if self.win_pattern(seat, tile) is None:
            raise Illegal("win.pattern", "not a complete hand of a permitted pattern (碰碰胡, 清一色, 混一色 and their pung forms)")

    def _take(self, seat, kind, discarder, tile, tiles=None, own=None, snapshot=True):
        st = self.st
        snap_state = copy.deepcopy(st) if snapshot else None
        if snap_state is not None:
            snap_state.claim_snap = None
        self.mark_passes(discarder, tile, skip=(seat,))
        if kind == "chow":
            for t in own:
                st.hands[seat].remove(t)
            st.melds[seat].append({"type": "chow", "tiles": tiles, "concealed": False, "from": discarder})
        elif kind == "pung":
            for _ in range(2):
                st.hands[seat].remove(tile)
            st.melds[seat].append({"type": "pung", "tiles": [tile] * 3, "concealed": False, "from": discarder})
        else:
            for _ in range(3):
                st.hands[seat].remove(tile)
            st.melds[seat].append({"type": "kong", "tiles": [tile] * 4, "concealed": False, "from": discarder})
        st.claimed[seat][discarder] += 1
        st.missed[seat].clear()
        st.last_draw = None
        st.eight = None
        st.tile = None
        st.passed_all = False
        if kind == "kong":
            st.phase, st.seat, st.ret, st.back_cause = "need_back", seat, "act", "kong"
        else:
            st.phase, st.seat = "act", seat
        st.claim_snap = ({"state": snap_state, "rank": RANK[kind], "claimer": seat, "discarder": discarder}
                         if snapshot else None)

    def ev_chow(self, seat, ev):
        if self.st.phase != "discarded":
            self._later_claim(seat, "chow", ev)
        discarder, tile = self._open_discard(seat, "chow")
        tiles, own = self.check_chow(seat, discarder, tile, ev.get("tiles"))
        self._take(seat, "chow", discarder, tile, tiles, own)

    def ev_pung(self, seat, ev):
        if self.st.phase != "discarded":
            self._later_claim(seat, "pung", ev)
        discarder, tile = self._open_discard(seat, "pung")
        if ev.get("tile") is not None and one_tile(ev["tile"]) != tile:
            raise Illegal("pung.tiles", "the pung names another tile than the discard")
        self.check_pung(seat, tile)
        self._take(seat, "pung", discarder, tile)

    def ev_kong(self, seat, ev):
        st = self.st
        if st.phase == "act" and seat == st.seat:          # own-turn kong written as `kong`
            tile = ev.get("tile")
            if tile is None:
                raise BadInput("input.tile", "an own-turn kong names its tile")
            t = one_tile(tile)
            if st.hands[seat].count(t) >= 4:
                return self.ev_concealed_kong(seat, ev)
            return self.ev_add_kong(seat, ev)
        if st.phase != "discarded":
            self._later_claim(seat, "kong", ev)
        discarder, tile = self._open_discard(seat, "kong")
        if ev.get("tile") is not None and one_tile(ev["tile"]) != tile:
            raise Illegal("kong.tiles", "the kong names another tile than the discard")
        self.check_kong_claim(seat, tile)
        self._need_live_for_kong()
        self._take(seat, "kong", discarder, tile)

    # -- wins
    def _record_win(self, seat, win_by, tile, from_seat, pattern=None):
        st = self.st
        st.winners.append({"seat": seat, "win_by": win_by, "tile": tile, "from": from_seat,
                           "gangkai": bool(win_by == "self_draw" and st.last_draw and st.last_draw["back"]),
                           "bahuaqi": pattern == "bahuaqi"})
        st.win_kind = "robbing_kong" if win_by == "robbing_kong" else ("discard" if win_by == "discard" else "self_draw")
        st.win_from = from_seat
        st.ended = "win"

    def ev_win(self, seat, ev):
        st = self.st
        named = one_tile(ev["tile"]) if ev.get("tile") is not None else None
        # 八花齐 (P12): right after exposing the eighth flower
        if st.phase == "need_back" and st.eight == seat and seat == st.seat:
            self._record_win(seat, "self_draw", None, None, "bahuaqi")
            return
        if st.phase == "rob" and not st.passed_all:
            if seat == st.seat:
                raise Illegal("claim.own_discard", "a seat does not rob its own kong")
            self.check_win_on(seat, st.tile)
            if named and named != st.tile:
                raise Illegal("win.tile", "the win names another tile than the robbed one")
            self._record_win(seat, "robbing_kong", st.tile, st.seat)
            return
        if st.phase == "act" and seat == st.seat:
            if self.holds_flower(seat):
                raise Illegal("flower.must_expose", "a seat holding a flower exposes it before anything else")
            if not st.last_draw:
                raise Illegal("win.no_tile", "a self-drawn win comes right after the seat's own draw")
            if not st.knocked[seat]:
                raise Illegal("win.not_knocked", "a seat must knock (敲, 报听) before it may win")
            if self.win_pattern(seat) is None:
                raise Illegal("win.pattern", "not a complete hand of a permitted pattern (碰碰胡, 清一色, 混一色 and their pung forms)")
            if named and named != st.last_draw["tile"]:
                raise Illegal("win.tile", "the win names another tile than the one drawn")
            self._record_win(seat, "self_draw", st.last_draw["tile"], None)
            return
        if st.phase != "discarded":
            if self._later_claim(seat, "win", ev):
                return self.ev_win(seat, ev)
            if st.phase == "deal":
                raise Illegal("flower.deal_first", "flowers of the deal are exposed and replaced first")
            raise Illegal("win.no_tile", "nothing to win on now")
        discarder, tile = self._open_discard(seat, "win")
        self.check_win_on(seat, tile)
        if named and named != tile:
            raise Illegal("win.tile", "the win names another tile than the discard")
        self._record_win(seat, "discard", tile, discarder)

    def extra_win(self, seat, ev):
        """一炮多响: further wins on the same discard or robbed kong, in turn order (P3)."""
        st = self.st
        frm = st.win_from
        tile = st.winners[0]["tile"]
        if seat == frm:
            raise Illegal("claim.own_discard", "a seat does not win on its own tile")
        if any(w["seat"] == seat for w in st.winners):
            raise Illegal("win.twice", "this seat has won already")
        last = st.winners[-1]["seat"]
        if (seat - frm) % 4 < (last - frm) % 4:
            raise Illegal("win.order", "several wins on one tile are written in turn order from the discarder")
        self.check_win_on(seat, tile)
        st.winners.append({"seat": seat, "win_by": st.win_kind, "tile": tile, "from": frm,
                           "gangkai": False, "bahuaqi": False})

    # -- all answers at once
    def ev_claims(self, ev):
        st = self.st
        if st.phase == "rob" and not st.passed_all:
            rob = True
        elif st.phase == "discarded" and not st.passed_all:
            rob = False
        else:
            raise Illegal("claim.no_discard", "claims: no discard or robbable kong is open")
        frm, tile = st.seat, st.tile
        answers = ev.get("answers")
        if not isinstance(answers, list) or not answers:
            raise BadInput("input.answers", "claims: answers is a list")
        seen, parsed = set(), []
        for a in answers:
            if not isinstance(a, dict) or a.get("claim") not in ("pass", "chow", "pung", "kong", "win"):
                raise BadInput("input.answers", "claims: each answer has a seat and a claim")
            s = self._int(a.get("seat"), "seat", 0, 3)
            if s in seen:
                raise BadInput("input.answers", f"claims: seat {s} answers twice")
            seen.add(s)
            parsed.append((s, a["claim"], a))
        for s, c, a in parsed:
            if c == "pass":
                continue
            if s == frm:
                raise Illegal("claim.own_discard", "a seat does not claim its own discard")
            if c != "win" and rob:
                raise Illegal("claim.rob_only_win", "an added kong may be robbed only for a win")
            if c != "win" and self.live() <= 0:
                raise Illegal("claim.wall_empty", "the last discard may be claimed only for a win")
            if a.get("tile") is not None and one_tile(a["tile"]) != tile:
                raise Illegal(f"{c}.tiles" if c != "win" else "win.tile", "the answer names another tile")
            if c == "win":
                self.check_win_on(s, tile)
            elif c == "chow":
                self.check_chow(s, frm, tile, a.get("tiles"))
            elif c == "pung":
                self.check_pung(s, tile)
            elif c == "kong":
                self.check_kong_claim(s, tile)
                self._need_live_for_kong()
        dist = lambda s: (s - frm) % 4
        wins = sorted((s for s, c, _ in parsed if c == "win"), key=dist)
        if wins:
            self._record_win(wins[0], "robbing_kong" if rob else "discard", tile, frm)
            for s in wins[1:]:
                st.winners.append({"seat": s, "win_by": st.win_kind, "tile": tile, "from": frm,
                                   "gangkai": False, "bahuaqi": False})
            return
        best = sorted((x for x in parsed if x[1] in ("pung", "kong")), key=lambda x: dist(x[0]))
        if not best:
            best = [x for x in parsed if x[1] == "chow"]
        if best:
            s, c, a = best[0]
            if c == "chow":
                tiles, own = self.check_chow(s, frm, tile, a.get("tiles"))
                self._take(s, "chow", frm, tile, tiles, own, snapshot=False)
            else:
                self._take(s, c, frm, tile, snapshot=False)
            return
        self.mark_passes(frm, tile)
        st.passed_all = True

    # -- the wall's end
    def ev_draw_game(self, ev):
        st = self.st
        if self.live() > 0:
            raise Illegal("draw_game.early", "live tiles remain: the hand is not drawn")
        if st.phase not in ("discarded", "need_back"):
            raise Illegal("draw_game.early", "a seat still has to act")
        st.ended = "draw"

    # -- the outcome
    def relation(self, w, p):
        c = self.st.claimed
        return int(c[w][p] >= 3) + int(c[p][w] >= 3)

    def score(self, w):
        st = self.st
        seat = w["seat"]
        melds = st.melds[seat]
        kh = (2 if self.kaibao else 1) * (2 if self.huangfan >= 1 else 1)
        fans = []
        if w["bahuaqi"]:
            pattern, raw, menqing = "bahuaqi", FIXED_LE["bahuaqi"] * LE, False
            fans.append({"id": "bahuaqi", "points": 2, "count": 1})
        else:
            hand = list(st.hands[seat])
            if w["win_by"] in ("discard", "robbing_kong"):
                hand.append(w["tile"])
            pattern = classify(hand, melds)
            menqing = all(m["type"] == "kong" and m["concealed"] for m in melds)
            if pattern in FIXED_LE:
                raw = FIXED_LE[pattern] * LE
                fans.append({"id": pattern, "points": FIXED_LE[pattern], "count": 1})
            else:
                elems = Counter()
                nf = len(st.flowers[seat])
                if nf:
                    elems["flower"] += nf
                for m in melds:
                    t = m["tiles"][0]
                    grp = "wind" if t in WINDS else ("dragon" if t in DRAGONS else "suit")
                    if m["type"] == "pung":
                        if grp != "suit":
                            elems[f"{grp}_pung"] += 1
                    elif m["type"] == "kong":
                        elems[f"{grp}_kong_{'concealed' if m['concealed'] else 'exposed'}"] += 1
                cnt = Counter(hand)
                for t, n in cnt.items():
                    if n >= 3 and t in WINDS:
                        elems["wind_pung"] += 1
                    elif n >= 3 and t in DRAGONS:
                        elems["dragon_pung"] += 1
                hua = sum(HUA[k] * n for k, n in elems.items())
                raw = self.base + hua
                fans.append({"id": pattern, "points": 0, "count": 1})
                fans.append({"id": "difen", "points": self.base, "count": 1})
                for k in sorted(elems):
                    fans.append({"id": k, "points": HUA[k], "count": elems[k]})
        mult = 1
        if menqing:
            mult *= 2
            fans.append({"id": "menqing", "points": 2, "count": 1})
        if self.kaibao:
            mult *= 2
            fans.append({"id": "kaibao", "points": 2, "count": 1})
        if self.huangfan >= 1:
            mult *= 2
            fans.append({"id": "huangfan", "points": 2, "count": 1})
        value = raw * mult
        if not w["bahuaqi"]:
            if w["gangkai"]:
                fans.append({"id": "gangkai", "points": 1, "count": 1})
            if len(melds) == 4:
                fans.append({"id": "dadiaoche", "points": 1, "count": 1})
            if w["gangkai"] or len(melds) == 4:
                value = max(value, LE * kh)
        cap_le = 4 if pattern == "fengpeng" else (2 if (pattern in ("qingpeng", "bahuaqi") or menqing) else 1)
        cap = LE * cap_le * kh
        return min(value, cap), fans, pattern

    def outcome(self):
        st = self.st
        if st.ended == "draw":
            return {"verdict": "legal", "ended": "draw", "winners": [], "payments": [0, 0, 0, 0],
                    "next_dealer": self.dealer, "next_huangfan": min(self.huangfan + 1, 99)}
        winners_out, pay = [], [0, 0, 0, 0]
        remaining = [PER_LOSER_LIMIT] * 4
        win_seats = {w["seat"] for w in st.winners}
        for w in st.winners:
            total, fans, _ = self.score(w)
            W = w["seat"]
            owed = Counter()
            others = [p for p in range(4) if p != W]
            if w["win_by"] == "discard":
                D = w["from"]
                owed[D] += 1
                for P in others:
                    k = self.relation(W, P)
                    if not k:
                        continue
                    if P == D:
                        owed[D] += k
                    elif st.knocked[D]:
                        if P not in win_seats:
                            owed[P] += k
                    else:
                        owed[D] += k
            elif w["win_by"] == "robbing_kong":
                owed[w["from"]] += 3
                for P in others:
                    owed[P] += 3 * self.relation(W, P)
            else:
                for P in others:
                    owed[P] += 1 + 4 * self.relation(W, P)
            for P in sorted(owed):
                amt = min(owed[P] * total, remaining[P])
                remaining[P] -= amt
                pay[P] -= amt
                pay[W] += amt
            winners_out.append({"seat": W, "win_by": w["win_by"], "total": total, "fans": fans})
        frm = st.win_from
        if len(st.winners) > 1:
            nearest = min((w["seat"] for w in st.winners), key=lambda s: (s - frm) % 4)
            next_dealer = (nearest + 1) % 4
        else:
            next_dealer = st.winners[0]["seat"]
        return {"verdict": "legal", "ended": "win", "winners": winners_out, "payments": pay,
                "next_dealer": next_dealer, "next_huangfan": max(self.huangfan - 1, 0)}


HUA = {"flower": 1,
       "suit_kong_exposed": 1, "suit_kong_concealed": 2,
       "wind_pung": 1, "wind_kong_exposed": 2, "wind_kong_concealed": 3,
       "dragon_pung": 2, "dragon_kong_exposed": 3, "dragon_kong_concealed": 4}


def judge(inp):
    """Replay one hand of play; return a procedure result."""
    try:
        table = Table(inp)
    except BadInput as e:
        return {"verdict": "bad input", "rule": e.rule, "message": e.message}
    events = inp.get("events")
    if not isinstance(events, list):
        return {"verdict": "bad input", "rule": "input.events", "message": "events: a list"}
    for i, ev in enumerate(events):
        try:
            table.apply(ev)
        except Illegal as e:
            return {"verdict": "illegal", "event": i, "rule": e.rule, "message": e.message}
        except BadInput as e:
            return {"verdict": "bad input", "event": i, "rule": e.rule, "message": e.message}
    if not table.st.ended:
        return {"verdict": "unfinished"}
    return table.outcome()


# ---------------------------------------------------------------- protocol
def handle(msg):
    if not isinstance(msg, dict):
        return {"error": "a request is a JSON object"}
    cmd = msg.get("cmd")
    if cmd == "start":
        return {"name": NAME, "version": VERSION, "rulesets": [RULESET], "kinds": ["procedure"],
                "fields": FIELDS, "rule_ids": "own"}
    if cmd == "run":
        rid = msg.get("id")
        out = {} if rid is None else {"id": rid}
        case = msg.get("case")
        if not isinstance(case, dict) or not isinstance(case.get("input"), dict):
            out["error"] = "the case is not an object with an input object"
            return out
        if case.get("ruleset") != RULESET:
            out["error"] = f"ruleset {case.get('ruleset')!r} is not {RULESET}"
            return out
        if case.get("kind") != "procedure":
            out["error"] = f"kind {case.get('kind')!r}: only procedure cases are judged"
            return out
        try:
            out["result"] = judge(case["input"])   # the case's options are ignored on purpose
        except Exception as e:  # a fault of this engine, never of the case
            out["error"] = f"internal error: {type(e).__name__}: {e}"
        return out
    return {"error": f"unknown cmd {cmd!r}"}


def main():
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            msg = json.loads(line)
        except ValueError as e:
            reply = {"error": f"not JSON: {e}"}
        else:
            if isinstance(msg, dict) and msg.get("cmd") == "stop":
                break
            reply = handle(msg)
        sys.stdout.write(json.dumps(reply, ensure_ascii=False) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
