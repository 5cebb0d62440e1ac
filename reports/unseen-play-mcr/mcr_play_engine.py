#!/usr/bin/env python3
"""An independent play judge for MCR (Mahjong Competition Rules), ruleset id `mcr`.

Written from one rule document only (the mahjchina "MCR Mahjong" game guide); every point the
document leaves open is decided once and written down in READINGS.md (P.. play, S.. scoring).

Protocol mode (default): JSON lines on stdin, one flushed JSON line per request on stdout.
    {"cmd": "start"} -> name, version, rulesets, kinds, fields, rule_ids
    {"cmd": "run", "id": N, "case": {...}} -> {"id": N, "result": {...}} or {"id": N, "error": "..."}
    {"cmd": "stop"} -> {"stopped": true} and exit
Standard library only.
"""
import copy
import itertools
import json
import random
import sys
from collections import Counter

NAME = "unseen-play-mcr"
VERSION = "1.0"
RULESET = "mcr"
FIELDS = ["verdict", "rule", "event", "ended", "winners", "payments", "next_dealer", "next_round_wind"]

WINDS = ["E", "S", "W", "N"]

# ---------------------------------------------------------------------------------------------
# Tiles
# ---------------------------------------------------------------------------------------------


class BadInput(Exception):
    pass


class Illegal(Exception):
    def __init__(self, rule, message):
        super().__init__(message)
        self.rule = rule
        self.message = message


_SUIT_MAX = {"m": 9, "p": 9, "s": 9, "z": 7, "f": 8}


def parse_tiles(value):
    """Canonical 2-character names (`1m2m`), compact groups (`123m`), spaces; a list is joined."""
    if value is None:
        return []
    if isinstance(value, list):
        if not all(isinstance(x, str) for x in value):
            raise BadInput("tiles must be strings")
        value = "".join(value)
    if not isinstance(value, str):
        raise BadInput("tiles must be a string")
    out, digits = [], ""
    for ch in value:
        if ch in " ,\t":
            continue
        if ch.isdigit():
            digits += ch
        elif ch in _SUIT_MAX:
            if not digits:
                raise BadInput("suit letter %r without a number in %r" % (ch, value))
            for d in digits:
                r = int(d)
                if r < 1 or r > _SUIT_MAX[ch]:
                    raise BadInput("no tile %s%s" % (d, ch))
                out.append("%d%s" % (r, ch))
            digits = ""
        else:
            raise BadInput("cannot read tile text %r" % value)
    if digits:
        raise BadInput("numbers without a suit in %r" % value)
    return out


def one_tile(value):
    t = parse_tiles(value)
    if len(t) != 1:
        raise BadInput("expected one tile, got %r" % (value,))
    return t[0]


def is_flower(t):
    return t[1] == "f"


def t2i(t):
    r, s = int(t[0]), t[1]
    if s == "z":
        return 26 + r
    return "mps".index(s) * 9 + r - 1


def i2t(i):
    if i >= 27:
        return "%dz" % (i - 26)
    return "%d%s" % (i % 9 + 1, "mps"[i // 9])


def full_set():
    tiles = []
    for s in "mps":
        for r in range(1, 10):
            tiles += ["%d%s" % (r, s)] * 4
    for r in range(1, 8):
        tiles += ["%dz" % r] * 4
    tiles += ["%df" % r for r in range(1, 9)]
    return tiles


# ---------------------------------------------------------------------------------------------
# Scoring: fans, their points, exclusions
# ---------------------------------------------------------------------------------------------

POINTS = {
    # 88
    "big_four_winds": 88, "big_three_dragons": 88, "all_green": 88, "nine_gates": 88, "four_kongs": 88,
    "seven_shifted_pairs": 88, "thirteen_orphans": 88,
    # 64
    "all_terminals": 64, "little_four_winds": 64, "little_three_dragons": 64, "all_honors": 64,
    "four_concealed_pungs": 64, "pure_terminal_chows": 64,
    # 48
    "quadruple_chow": 48, "four_pure_shifted_pungs": 48,
    # 32
    "four_shifted_chows": 32, "three_kongs": 32, "all_terminals_and_honors": 32,
    # 24
    "seven_pairs": 24, "greater_honors_and_knitted_tiles": 24, "all_even_pungs": 24, "full_flush": 24,
    "pure_triple_chow": 24, "pure_shifted_pungs": 24, "upper_tiles": 24, "middle_tiles": 24, "lower_tiles": 24,
    # 16
    "pure_straight": 16, "three_suited_terminal_chows": 16, "pure_shifted_chows": 16, "all_fives": 16,
    "triple_pung": 16, "three_concealed_pungs": 16,
    # 12
    "lesser_honors_and_knitted_tiles": 12, "knitted_straight": 12, "upper_four": 12, "lower_four": 12,
    "big_three_winds": 12,
    # 8
    "mixed_straight": 8, "reversible_tiles": 8, "mixed_triple_chow": 8, "mixed_shifted_pungs": 8,
    "chicken_hand": 8, "last_tile_draw": 8, "last_tile_claim": 8, "out_with_replacement_tile": 8,
    "robbing_the_kong": 8, "two_concealed_kongs": 8,
    # 6
    "all_pungs": 6, "half_flush": 6, "mixed_shifted_chows": 6, "all_types": 6, "melded_hand": 6,
    "two_dragon_pungs": 6,
    # 4
    "outside_hand": 4, "fully_concealed_hand": 4, "two_melded_kongs": 4, "last_tile": 4,
    # 2
    "dragon_pung": 2, "prevalent_wind": 2, "seat_wind": 2, "concealed_hand": 2, "all_chows": 2,
    "tile_hog": 2, "double_pung": 2, "two_concealed_pungs": 2, "concealed_kong": 2, "all_simples": 2,
    # 1
    "pure_double_chow": 1, "mixed_double_chow": 1, "short_straight": 1, "two_terminal_chows": 1,
    "pung_of_terminals_or_honors": 1, "melded_kong": 1, "one_voided_suit": 1, "no_honors": 1,
    "edge_wait": 1, "closed_wait": 1, "single_wait": 1, "self_drawn": 1, "flower_tiles": 1,
}

# Whole exclusions: when the key fan is counted, the listed fans are not counted (READINGS.md S3).
# The document's own "Not counted again" lists, plus the included fans marked in READINGS.md.
EXCL = {
    "big_four_winds": {"big_three_winds", "all_pungs", "prevalent_wind", "seat_wind",
                       "pung_of_terminals_or_honors", "little_four_winds"},
    "big_three_dragons": {"two_dragon_pungs", "dragon_pung", "little_three_dragons"},
    "all_green": {"half_flush"},
    "nine_gates": {"full_flush", "concealed_hand", "pung_of_terminals_or_honors", "no_honors"},
    "four_kongs": {"single_wait", "three_kongs", "two_melded_kongs", "two_concealed_kongs", "melded_kong",
                   "concealed_kong"},
    "seven_shifted_pairs": {"full_flush", "concealed_hand", "single_wait", "seven_pairs", "no_honors"},
    "thirteen_orphans": {"all_types", "concealed_hand", "single_wait", "all_terminals_and_honors"},
    "all_terminals": {"all_pungs", "outside_hand", "pung_of_terminals_or_honors", "no_honors",
                      "all_terminals_and_honors"},
    "little_four_winds": {"big_three_winds"},
    "little_three_dragons": {"dragon_pung", "two_dragon_pungs"},
    "all_honors": {"all_pungs", "outside_hand", "pung_of_terminals_or_honors", "all_terminals_and_honors"},
    "four_concealed_pungs": {"all_pungs", "concealed_hand", "three_concealed_pungs", "two_concealed_pungs"},
    "pure_terminal_chows": {"seven_pairs", "full_flush", "all_chows", "pure_double_chow", "two_terminal_chows",
                            "no_honors"},
    "quadruple_chow": {"pure_shifted_pungs", "tile_hog", "pure_double_chow", "pure_triple_chow"},
    "four_pure_shifted_pungs": {"pure_triple_chow", "all_pungs", "pure_shifted_pungs"},
    "four_shifted_chows": {"short_straight", "pure_shifted_chows"},
    "three_kongs": {"two_melded_kongs", "two_concealed_kongs", "melded_kong", "concealed_kong"},
    "all_terminals_and_honors": {"all_pungs", "outside_hand", "pung_of_terminals_or_honors"},
    "seven_pairs": {"concealed_hand", "single_wait"},
    "greater_honors_and_knitted_tiles": {"all_types", "concealed_hand", "lesser_honors_and_knitted_tiles"},
    "all_even_pungs": {"all_pungs", "all_simples", "no_honors"},
    "full_flush": {"no_honors"},
    "pure_triple_chow": {"pure_shifted_pungs", "pure_double_chow"},
    "pure_shifted_pungs": {"pure_triple_chow"},
    "upper_tiles": {"no_honors", "upper_four"},
    "middle_tiles": {"no_honors", "all_simples"},
    "lower_tiles": {"no_honors", "lower_four"},
    "three_suited_terminal_chows": {"pure_double_chow", "two_terminal_chows", "no_honors", "all_chows",
                                    "mixed_double_chow"},
    "all_fives": {"all_simples", "no_honors"},
    "triple_pung": {"double_pung"},
    "three_concealed_pungs": {"two_concealed_pungs"},
    "lesser_honors_and_knitted_tiles": {"all_types", "concealed_hand"},
    "upper_four": {"no_honors"},
    "lower_four": {"no_honors"},
    "reversible_tiles": {"one_voided_suit"},
    "mixed_triple_chow": {"mixed_double_chow"},
    "last_tile_draw": {"self_drawn"},
    "out_with_replacement_tile": {"self_drawn"},
    "robbing_the_kong": {"last_tile"},
    "two_concealed_kongs": {"concealed_kong", "two_concealed_pungs"},
    "melded_hand": {"single_wait"},
    "two_dragon_pungs": {"dragon_pung"},
    "fully_concealed_hand": {"self_drawn"},
    "two_melded_kongs": {"melded_kong"},
    "all_chows": {"no_honors"},
    "all_simples": {"no_honors"},
}

GREEN = {t2i(x) for x in ("2s", "3s", "4s", "6s", "8s", "6z")}
REVERSIBLE = {t2i(x) for x in ("1p", "2p", "3p", "4p", "5p", "8p", "9p", "2s", "4s", "5s", "6s", "8s", "9s", "5z")}
ORPHANS = [0, 8, 9, 17, 18, 26] + list(range(27, 34))
KNITS = []
for _perm in itertools.permutations(range(3)):
    KNITS.append(frozenset(_perm[k] * 9 + r - 1 for k in range(3) for r in (1 + k, 4 + k, 7 + k)))


def apply_exclusions(F):
    excluded = set()
    for f in F:
        excluded |= EXCL.get(f, set())
    return Counter({f: c for f, c in F.items() if f not in excluded and c > 0})


def fan_sum(F):
    return sum(POINTS[f] * c for f, c in F.items())


class G:
    """One group of an interpretation."""
    __slots__ = ("kind", "t", "exposed", "conc", "win")

    def __init__(self, kind, t, exposed=False, conc=True, win=False):
        self.kind, self.t, self.exposed, self.conc, self.win = kind, t, exposed, conc, win

    def tiles(self):
        if self.kind == "chow":
            return [self.t, self.t + 1, self.t + 2]
        if self.kind == "pung":
            return [self.t] * 3
        if self.kind == "kong":
            return [self.t] * 4
        if self.kind == "pair":
            return [self.t] * 2
        return list(self.t)  # knit: a tuple of nine tiles

    def has(self, x):
        return x in self.tiles()


def decompose(cnt, nsets):
    """All ways to read cnt (list of 34) as nsets sets and one pair: lists of (kind, tile)."""
    res = []
    groups = []

    def rec(i, pair_used, left):
        while i < 34 and cnt[i] == 0:
            i += 1
        if i == 34:
            if left == 0 and pair_used:
                res.append(list(groups))
            return
        if not pair_used and cnt[i] >= 2:
            cnt[i] -= 2
            groups.append(("pair", i))
            rec(i, True, left)
            groups.pop()
            cnt[i] += 2
        if left > 0 and cnt[i] >= 3:
            cnt[i] -= 3
            groups.append(("pung", i))
            rec(i, pair_used, left - 1)
            groups.pop()
            cnt[i] += 3
        if left > 0 and i < 27 and i % 9 <= 6 and cnt[i + 1] and cnt[i + 2]:
            for k in (0, 1, 2):
                cnt[i + k] -= 1
            groups.append(("chow", i))
            rec(i, pair_used, left - 1)
            groups.pop()
            for k in (0, 1, 2):
                cnt[i + k] += 1

    rec(0, False, nsets)
    return res


def _is_seven_pairs(cnt):
    return sum(cnt) == 14 and all(c % 2 == 0 for c in cnt)


def _is_orphans(cnt):
    return sum(cnt) == 14 and all(cnt[i] >= 1 for i in ORPHANS) and all(
        cnt[i] == 0 for i in range(34) if i not in ORPHANS)


def _knitted_honors(cnt):
    """The knit (frozenset) this 14-tile hand of distinct knitted/honor tiles uses, else None."""
    if sum(cnt) != 14 or any(c > 1 for c in cnt):
        return None
    nums = {i for i in range(27) if cnt[i]}
    for k in KNITS:
        if nums <= k:
            return k
    return None


def shape_ok(cnt, nmelds):
    """Is this (concealed part, with the winning tile) a complete hand with nmelds declared sets?"""
    cnt = list(cnt)
    if decompose(cnt, 4 - nmelds):
        return True
    if nmelds == 0 and (_is_seven_pairs(cnt) or _is_orphans(cnt) or _knitted_honors(cnt) is not None):
        return True
    if nmelds <= 1:
        for k in KNITS:
            if all(cnt[i] >= 1 for i in k):
                rest = list(cnt)
                for i in k:
                    rest[i] -= 1
                if decompose(rest, 1 - nmelds):
                    return True
    return False


def tile_fans(allc, F):
    ts = [i for i in range(34) if allc[i]]
    nums = [t for t in ts if t < 27]
    hons = [t for t in ts if t >= 27]
    suits = {t // 9 for t in nums}
    ranks = {t % 9 + 1 for t in nums}
    if all(t in GREEN for t in ts):
        F["all_green"] += 1
    if not hons and ranks <= {1, 9}:
        F["all_terminals"] += 1
    if not nums:
        F["all_honors"] += 1
    if hons and nums and ranks <= {1, 9}:
        F["all_terminals_and_honors"] += 1
    if len(suits) == 1 and not hons:
        F["full_flush"] += 1
    if len(suits) == 1 and hons:
        F["half_flush"] += 1
    if not hons and nums:
        if ranks <= {7, 8, 9}:
            F["upper_tiles"] += 1
        if ranks <= {4, 5, 6}:
            F["middle_tiles"] += 1
        if ranks <= {1, 2, 3}:
            F["lower_tiles"] += 1
        if ranks <= {6, 7, 8, 9}:
            F["upper_four"] += 1
        if ranks <= {1, 2, 3, 4}:
            F["lower_four"] += 1
        if ranks <= set(range(2, 9)):
            F["all_simples"] += 1
        F["no_honors"] += 1
    if all(t in REVERSIBLE for t in ts):
        F["reversible_tiles"] += 1
    if len(suits) == 2:
        F["one_voided_suit"] += 1
    if len(suits) == 3 and any(27 <= t <= 30 for t in hons) and any(t >= 31 for t in hons):
        F["all_types"] += 1


def win_fans(F, ctx, exposed_any):
    sd = ctx["win_by"] == "self_draw"
    if sd:
        F["self_drawn"] += 1
    if sd and ctx.get("last_draw"):
        F["last_tile_draw"] += 1
    if not sd and ctx["win_by"] == "discard" and ctx.get("last_claim"):
        F["last_tile_claim"] += 1
    if sd and ctx.get("kong_replacement"):
        F["out_with_replacement_tile"] += 1
    if ctx["win_by"] == "robbing_kong":
        F["robbing_the_kong"] += 1
    if ctx.get("fourth_visible"):
        F["last_tile"] += 1
    if not exposed_any:
        if sd:
            F["fully_concealed_hand"] += 1
        else:
            F["concealed_hand"] += 1


# combination fans over sets (READINGS.md S5)

def _chow_edge(starts, pair):
    """The combination fan the chows with these start tiles form (as one group of sets), or None."""
    n = len(starts)
    suits = [s // 9 for s in starts]
    ranks = sorted(s % 9 + 1 for s in starts)
    same = len(set(suits)) == 1
    if n == 2:
        if same and ranks[0] == ranks[1]:
            return "pure_double_chow"
        if not same and ranks[0] == ranks[1]:
            return "mixed_double_chow"
        if same and ranks[1] - ranks[0] == 3:
            return "short_straight"
        if same and ranks == [1, 7]:
            return "two_terminal_chows"
        return None
    if n == 3:
        if same:
            if ranks[0] == ranks[1] == ranks[2]:
                return "pure_triple_chow"
            if ranks == [1, 4, 7]:
                return "pure_straight"
            d = ranks[1] - ranks[0]
            if d in (1, 2) and ranks[2] - ranks[1] == d:
                return "pure_shifted_chows"
            return None
        if len(set(suits)) == 3:
            if ranks[0] == ranks[1] == ranks[2]:
                return "mixed_triple_chow"
            if ranks == [1, 4, 7]:
                return "mixed_straight"
            if ranks[1] - ranks[0] == 1 and ranks[2] - ranks[1] == 1:
                return "mixed_shifted_chows"
        return None
    if n == 4:
        if same:
            if ranks[0] == ranks[3]:
                return "quadruple_chow"
            d = ranks[1] - ranks[0]
            if d in (1, 2) and ranks[2] - ranks[1] == d and ranks[3] - ranks[2] == d:
                return "four_shifted_chows"
            if ranks == [1, 1, 7, 7] and pair is not None and pair == suits[0] * 9 + 4:
                return "pure_terminal_chows"
            return None
        by = {}
        for s, st in zip(suits, starts):
            by.setdefault(s, []).append(st % 9 + 1)
        if len(by) == 2 and all(sorted(v) == [1, 7] for v in by.values()) and pair is not None and pair < 27:
            third = ({0, 1, 2} - set(by)).pop()
            if pair == third * 9 + 4:
                return "three_suited_terminal_chows"
    return None


def _pung_edge(ts):
    ts = [t for t in ts if t < 27]
    n = len(ts)
    if n < 2:
        return None
    suits = [t // 9 for t in ts]
    ranks = sorted(t % 9 + 1 for t in ts)
    same = len(set(suits)) == 1
    consec = all(ranks[i + 1] - ranks[i] == 1 for i in range(n - 1))
    if n == 2:
        if not same and ranks[0] == ranks[1]:
            return "double_pung"
        return None
    if n == 3:
        if same and consec:
            return "pure_shifted_pungs"
        if len(set(suits)) == 3 and ranks[0] == ranks[2]:
            return "triple_pung"
        if len(set(suits)) == 3 and consec:
            return "mixed_shifted_pungs"
        return None
    if n == 4 and same and consec:
        return "four_pure_shifted_pungs"
    return None


def _acyclic(edges):
    """Berge-acyclic: the incidence graph of these hyperedges is a forest (each set combined once)."""
    parent = {}

    def find(x):
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for ei, (_, vs) in enumerate(edges):
        for v in vs:
            a, b = find(("e", ei)), find(("v", v))
            if a == b:
                return False
            parent[a] = b
    return True


def regular_fans(groups, ctx):
    """Best fan Counter for one 4-sets-and-a-pair interpretation (or the knitted-straight one)."""
    F = Counter()
    knit = [g for g in groups if g.kind == "knit"]
    sets = [g for g in groups if g.kind in ("chow", "pung", "kong")]
    pair = [g for g in groups if g.kind == "pair"][0]
    allc = [0] * 34
    for g in groups:
        for t in g.tiles():
            allc[t] += 1
    tile_fans(allc, F)
    chows = [g for g in sets if g.kind == "chow"]
    pungs = [g for g in sets if g.kind in ("pung", "kong")]
    kongs = [g for g in sets if g.kind == "kong"]
    # kongs
    ck = sum(1 for g in kongs if g.conc)
    nk = len(kongs)
    if nk == 4:
        F["four_kongs"] += 1
    elif nk == 3:
        F["three_kongs"] += 1
    elif nk == 2:
        if ck == 2:
            F["two_concealed_kongs"] += 1
        elif ck == 1:
            F["concealed_kong"] += 1
            F["melded_kong"] += 1
        else:
            F["two_melded_kongs"] += 1
    elif nk == 1:
        F["concealed_kong" if ck else "melded_kong"] += 1
    # concealed pungs
    cp = sum(1 for g in pungs if g.conc)
    if cp == 4:
        F["four_concealed_pungs"] += 1
    elif cp == 3:
        F["three_concealed_pungs"] += 1
    elif cp == 2:
        F["two_concealed_pungs"] += 1
    # honours
    dr = [g for g in pungs if g.t >= 31]
    wi = [g for g in pungs if 27 <= g.t <= 30]
    if len(dr) == 3:
        F["big_three_dragons"] += 1
    elif len(dr) == 2 and pair.t >= 31:
        F["little_three_dragons"] += 1
    elif len(dr) == 2:
        F["two_dragon_pungs"] += 1
    F["dragon_pung"] += len(dr)
    wind_fan = False
    if len(wi) == 4:
        F["big_four_winds"] += 1
        wind_fan = True
    elif len(wi) == 3 and 27 <= pair.t <= 30:
        F["little_four_winds"] += 1
        wind_fan = True
    elif len(wi) == 3:
        F["big_three_winds"] += 1
        wind_fan = True
    seat, prev = ctx["seat_wind"], ctx["round_wind"]
    if any(g.t == seat for g in wi):
        F["seat_wind"] += 1
    if any(g.t == prev for g in wi):
        F["prevalent_wind"] += 1
    pth = sum(1 for g in pungs if g.t < 27 and g.t % 9 in (0, 8))
    if not wind_fan:
        pth += sum(1 for g in wi if g.t != seat and g.t != prev)
    F["pung_of_terminals_or_honors"] += pth
    # tile hog: four copies of a numbered tile, not a kong
    kong_tiles = {g.t for g in kongs}
    F["tile_hog"] += sum(1 for t in range(27) if allc[t] == 4 and t not in kong_tiles)
    # whole-hand structure (four sets and a pair only)
    if not knit:
        if len(pungs) == 4:
            F["all_pungs"] += 1
            if all(g.t < 27 and (g.t % 9 + 1) % 2 == 0 for g in pungs + [pair]):
                F["all_even_pungs"] += 1
        if len(chows) == 4 and pair.t < 27:
            F["all_chows"] += 1

        def term(g):
            if g.kind == "chow":
                return g.t % 9 in (0, 6)
            return g.t >= 27 or g.t % 9 in (0, 8)

        def five(g):
            if g.t >= 27:
                return False
            if g.kind == "chow":
                return g.t % 9 + 1 in (3, 4, 5)
            return g.t % 9 + 1 == 5

        if all(term(g) for g in groups):
            F["outside_hand"] += 1
        if all(five(g) for g in groups):
            F["all_fives"] += 1
        nine = [3, 1, 1, 1, 1, 1, 1, 1, 3]
        if not any(g.exposed or g.kind == "kong" for g in groups) and all(t < 27 for t in range(34) if allc[t]):
            suits = {t // 9 for t in range(27) if allc[t]}
            if len(suits) == 1:
                s = suits.pop()
                c = [allc[s * 9 + r] for r in range(9)]
                if ctx["win"] // 9 == s and ctx["win"] < 27:
                    c[ctx["win"] - s * 9] -= 1
                if c == nine:
                    F["nine_gates"] += 1
    else:
        F["knitted_straight"] += 1
    exposed = [g for g in groups if g.exposed]
    if len(exposed) == 4 and ctx["win_by"] != "self_draw":
        F["melded_hand"] += 1
    win_fans(F, ctx, bool(exposed))
    # waits: only when the hand waited on this one tile type
    if ctx["waits"] == [ctx["win"]]:
        wg = [g for g in groups if g.win]
        if wg:
            g = wg[0]
            if g.kind == "pair":
                F["single_wait"] += 1
            elif g.kind == "chow":
                pos = ctx["win"] - g.t
                if pos == 1:
                    F["closed_wait"] += 1
                elif (pos == 2 and g.t % 9 == 0) or (pos == 0 and g.t % 9 == 6):
                    F["edge_wait"] += 1
    # combination fans: every hyperforest of candidate combinations, best total kept
    cand = []
    pair_t = pair.t
    for n in (2, 3, 4):
        for idx in itertools.combinations(range(len(chows)), n):
            f = _chow_edge([chows[i].t for i in idx], pair_t)
            if f:
                cand.append((f, frozenset(("c", i) for i in idx)))
        for idx in itertools.combinations(range(len(pungs)), n):
            f = _pung_edge([pungs[i].t for i in idx])
            if f:
                cand.append((f, frozenset(("p", i) for i in idx)))
    best = None
    for r in range(len(cand) + 1):
        for sub in itertools.combinations(cand, r):
            if not _acyclic(sub):
                continue
            H = Counter(F)
            for f, _ in sub:
                H[f] += 1
            H = apply_exclusions(H)
            if best is None or fan_sum(H) > fan_sum(best):
                best = H
    return best


def special_fans(kind, cnt, ctx, knit=None):
    F = Counter()
    if kind == "seven_pairs":
        F["seven_pairs"] += 1
        ts = [i for i in range(34) if cnt[i]]
        if len(ts) == 7 and ts[6] < 27 and ts[0] // 9 == ts[6] // 9 and ts[6] - ts[0] == 6:
            F["seven_shifted_pairs"] += 1
        if ctx["waits"] == [ctx["win"]]:
            F["single_wait"] += 1
    elif kind == "thirteen_orphans":
        F["thirteen_orphans"] += 1
        if ctx["waits"] == [ctx["win"]]:
            F["single_wait"] += 1
    else:
        hon = sum(1 for i in range(27, 34) if cnt[i])
        if hon == 7:
            F["greater_honors_and_knitted_tiles"] += 1
        F["lesser_honors_and_knitted_tiles"] += 1
        if all(cnt[i] for i in knit):
            F["knitted_straight"] += 1
    tile_fans(cnt, F)
    F["tile_hog"] += sum(1 for t in range(27) if cnt[t] == 4)
    win_fans(F, ctx, False)
    return apply_exclusions(F)


def score_hand(conc, melds, win, win_by, seat_wind, round_wind, n_flowers, flags):
    """conc: concealed tile ints without the winning tile; melds: (kind, tile, concealed, start) with kind
    chow/pung/kong (a chow's tile its lowest); win: tile int. Returns None (no winning shape) or
    (non_flower_points, Counter of fans) for the best interpretation (READINGS.md S1, S2)."""
    cnt = [0] * 34
    for t in conc:
        cnt[t] += 1
    cnt[win] += 1
    nm = len(melds)
    meld_groups = []
    for kind, t, conc_kong in melds:
        meld_groups.append(G(kind, t, exposed=not conc_kong, conc=bool(conc_kong)))
    held = list(cnt)
    for g in meld_groups:
        for t in g.tiles():
            held[t] += 1
    base = [0] * 34
    for t in conc:
        base[t] += 1
    waits = [t for t in range(34) if held[t] - (1 if t == win else 0) < 4
             and shape_ok([base[i] + (1 if i == t else 0) for i in range(34)], nm)]
    ctx = dict(flags)
    ctx.update(win=win, win_by=win_by, seat_wind=seat_wind, round_wind=round_wind, waits=waits)
    discard_like = win_by != "self_draw"
    results = []

    def concealed_groups(dec):
        out = []
        for idx, (k, t) in enumerate(dec):
            if k in ("chow", "pung", "pair") and win in G(k, t).tiles():
                gs = []
                for j, (k2, t2) in enumerate(dec):
                    w = j == idx
                    gs.append(G(k2, t2, exposed=False, conc=not (w and discard_like and k2 == "pung"), win=w))
                out.append(gs)
        return out

    for dec in decompose(list(cnt), 4 - nm):
        for gs in concealed_groups(dec):
            results.append(regular_fans(meld_groups + gs, ctx))
    if nm == 0:
        if _is_seven_pairs(cnt):
            results.append(special_fans("seven_pairs", cnt, ctx))
        if _is_orphans(cnt):
            results.append(special_fans("thirteen_orphans", cnt, ctx))
        k = _knitted_honors(cnt)
        if k is not None:
            results.append(special_fans("knitted", cnt, ctx, knit=k))
    if nm <= 1:
        for k in KNITS:
            if all(cnt[i] >= 1 for i in k):
                rest = list(cnt)
                for i in k:
                    rest[i] -= 1
                for dec in decompose(rest, 1 - nm):
                    kg = tuple(sorted(k))
                    options = []
                    if win in k:
                        options.append([G("knit", kg, win=True)] + [G(a, b) for a, b in dec])
                    for gs in concealed_groups(dec):
                        options.append([G("knit", kg)] + gs)
                    for gs in options:
                        results.append(regular_fans(meld_groups + gs, ctx))
    if not results:
        return None
    best = max(results, key=fan_sum)
    if fan_sum(best) == 0:
        best = Counter({"chicken_hand": 1})
    return fan_sum(best), best


def fan_list(F, n_flowers):
    out = [{"id": f, "points": POINTS[f], "count": c} for f, c in F.items()]
    if n_flowers:
        out.append({"id": "flower_tiles", "points": 1, "count": n_flowers})
    out.sort(key=lambda d: (-d["points"], d["id"]))
    return out


# ---------------------------------------------------------------------------------------------
# The table: wall, deal, events
# ---------------------------------------------------------------------------------------------


def build_wall(inp):
    if "seed" in inp and inp["seed"] is not None:
        seed = inp["seed"]
        if isinstance(seed, float) and seed.is_integer():
            seed = int(seed)
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise BadInput("seed must be a whole number >= 0")
        wall = full_set()
        random.Random(seed).shuffle(wall)
        return wall
    w = inp.get("wall")
    if w is None:
        raise BadInput("neither seed nor wall")
    wall = parse_tiles(w)
    if len(wall) != 144 or Counter(wall) != Counter(full_set()):
        raise BadInput("the wall is not the 144 tiles (%d given)" % len(wall))
    return wall


def _int(v, name, lo, hi):
    if isinstance(v, float) and v.is_integer():
        v = int(v)
    if isinstance(v, bool) or not isinstance(v, int) or v < lo or v > hi:
        raise BadInput("%s must be a whole number %d..%d" % (name, lo, hi))
    return v


RANK = {"chow": 1, "pung": 2, "kong": 2, "win": 3}


class Table:
    def __init__(self, inp):
        self.wall = build_wall(inp)
        self.dealer = _int(inp.get("dealer", 0), "dealer", 0, 3)
        self.hand_no = _int(inp.get("hand", 0), "hand", 0, 1000000)
        rw = inp.get("round_wind")
        if rw is not None and rw not in WINDS:
            raise BadInput("round_wind")
        self.rw_given = rw
        self.round_wind = rw if rw is not None else WINDS[(self.hand_no // 4) % 4]
        self.claim_order = inp.get("claim_order", "priority") or "priority"
        if self.claim_order not in ("priority", "declared"):
            raise BadInput("claim_order")
        self.front, self.back = 0, 143
        self.hands = [Counter() for _ in range(4)]
        self.melds = [[] for _ in range(4)]
        self.flowers = [[] for _ in range(4)]
        self.rivers = [[] for _ in range(4)]
        self.last_in = [None] * 4
        # the deal (P1)
        order = [(self.dealer + k) % 4 for k in range(4)]
        for _ in range(3):
            for s in order:
                for _ in range(4):
                    self._take_front(s)
        for s in order:
            self._take_front(s)
        self._take_front(self.dealer)
        self.phase = "act"      # act | open | rob | replace | exhausted | ended
        self.cur = self.dealer
        self.src = "deal"       # how cur got its last tile: deal wall back_kong back_flower claim
        self.dealing = True
        self.disc = None        # (seat, tile, last)
        self.rob = None         # (seat, tile)
        self.replace = None     # (seat, reason, resume)
        self.made = None        # claim made on the open discard: (kind, seat, snapshot)
        self.result = None

    # -- wall
    def remaining(self):
        return self.back - self.front + 1

    def _take_front(self, s):
        t = self.wall[self.front]
        self.front += 1
        self.hands[s][t] += 1
        self.last_in[s] = t
        return t

    def _take_back(self, s):
        t = self.wall[self.back]
        self.back -= 1
        self.hands[s][t] += 1
        self.last_in[s] = t
        return t

    def seat_wind(self, s):
        return WINDS[(s - self.dealer) % 4]

    def holds_flower(self, s):
        return any(is_flower(t) and c > 0 for t, c in self.hands[s].items())

    # -- scoring at a win
    def evaluate(self, seat, tile, win_by, discarder):
        hand = Counter(self.hands[seat])
        if win_by == "self_draw":
            hand[tile] -= 1
        conc = [t2i(t) for t, c in hand.items() for _ in range(c) if c > 0]
        melds = []
        for m in self.melds[seat]:
            start = min(t2i(x) for x in m["tiles"])
            melds.append((m["type"], start, m["concealed"]))
        if len(conc) + 3 * len(melds) != 13:
            raise Illegal("win.shape", "seat %d does not hold 13 tiles and the winning tile" % seat)
        last_draw = win_by == "self_draw" and self.remaining() == 0 and self.src in ("wall", "back_kong",
                                                                                    "back_flower")
        last_claim = win_by == "discard" and self.disc is not None and self.disc[2]
        visible = sum(r.count(tile) for r in self.rivers)
        for ms in self.melds:
            for m in ms:
                if not m["concealed"]:
                    visible += m["tiles"].count(tile)
        if win_by == "discard":
            visible -= 1  # the winning discard itself lies in its river
        flags = {"last_draw": last_draw, "last_claim": last_claim,
                 "kong_replacement": win_by == "self_draw" and self.src == "back_kong",
                 "fourth_visible": visible >= 3}
        r = score_hand(conc, melds, t2i(tile), win_by, t2i(self._wind_tile(self.seat_wind(seat))),
                       t2i(self._wind_tile(self.round_wind)), len(self.flowers[seat]), flags)
        if r is None:
            raise Illegal("win.shape", "%s does not complete seat %d's hand" % (tile, seat))
        pts, F = r
        if pts < 8:
            raise Illegal("win.minimum_points", "seat %d's hand is worth %d points before flowers (8 needed)"
                          % (seat, pts))
        total = pts + len(self.flowers[seat])
        pay = [0] * 4
        for s in range(4):
            if s == seat:
                continue
            if win_by == "self_draw":
                p = 8 + total
            else:
                p = 8 + total if s == discarder else 8
            pay[s] -= p
            pay[seat] += p
        return {"seat": seat, "win_by": win_by, "total": total, "fans": fan_list(F, len(self.flowers[seat]))}, pay

    @staticmethod
    def _wind_tile(w):
        return "%dz" % (WINDS.index(w) + 1)

    def finish_win(self, winner, pay):
        self.phase = "ended"
        self.result = {"ended": "win", "winners": [winner], "payments": pay}

    # -- snapshots for claim contests
    def snapshot(self):
        made, self.made = self.made, None
        snap = copy.deepcopy(self.__dict__)
        self.made = made
        return snap

    def restore(self, snap):
        self.__dict__.update(copy.deepcopy(snap))
        self.made = None


def seat_of(ev):
    if "seat" not in ev:
        raise BadInput("event %s without a seat" % ev.get("event"))
    return _int(ev["seat"], "seat", 0, 3)


class Judge:
    def __init__(self, inp):
        if not isinstance(inp, dict):
            raise BadInput("input is not an object")
        self.tb = Table(inp)
        evs = inp.get("events")
        if not isinstance(evs, list):
            raise BadInput("events must be a list")
        self.events = evs

    def run(self):
        tb = self.tb
        for i, ev in enumerate(self.events):
            if not isinstance(ev, dict) or "event" not in ev:
                return {"verdict": "bad input", "message": "event %d is not an event object" % i}
            try:
                self.step(ev)
            except Illegal as e:
                return {"verdict": "illegal", "event": i, "rule": e.rule, "message": e.message}
            except BadInput as e:
                return {"verdict": "bad input", "message": "event %d: %s" % (i, e)}
        if tb.phase != "ended":
            return {"verdict": "unfinished"}
        out = {"verdict": "legal"}
        out.update(tb.result)
        out["next_dealer"] = (tb.dealer + 1) % 4
        if tb.rw_given is not None:
            w = WINDS.index(tb.rw_given)
            out["next_round_wind"] = WINDS[(w + 1) % 4] if (tb.hand_no + 1) % 4 == 0 else tb.rw_given
        else:
            out["next_round_wind"] = WINDS[((tb.hand_no + 1) // 4) % 4]
        return out

    # ---------------------------------------------------------------------------------------
    def step(self, ev):
        tb = self.tb
        kind = ev["event"]
        if kind not in ("draw", "discard", "chow", "pung", "kong", "add_kong", "concealed_kong", "flower",
                        "knock", "pass", "win", "draw_game", "swap", "claims"):
            raise BadInput("unknown event %r" % (kind,))
        seat = None if kind in ("draw_game", "claims") else seat_of(ev)
        if tb.phase == "ended":
            if kind == "win" and tb.result["winners"][0]["win_by"] != "self_draw":
                return self.second_win(seat, ev)
            raise BadInput("an event after the hand ended")
        if kind in ("knock", "swap"):
            raise Illegal("event.not_mcr", "%s is no part of MCR play" % kind)
        if kind == "pass":
            return
        # a claim on a discard already taken by another seat's claim
        if tb.made is not None and kind in ("chow", "pung", "kong", "win") and seat != tb.made[1] \
                and tb.phase in ("act", "replace"):
            return self.contest(kind, seat, ev)
        if kind == "claims":
            return self.claims(ev)
        if tb.phase == "act":
            return self.in_act(kind, seat, ev)
        if tb.phase == "open":
            return self.in_open(kind, seat, ev)
        if tb.phase == "rob":
            return self.in_rob(kind, seat, ev)
        if tb.phase == "replace":
            return self.in_replace(kind, seat, ev)
        if tb.phase == "exhausted":
            if kind == "draw_game":
                tb.phase = "ended"
                tb.result = {"ended": "draw", "winners": [], "payments": [0, 0, 0, 0]}
                return
            raise Illegal("turn.order", "the wall is empty: only the drawn hand can follow")
        raise Illegal("turn.order", "no event can follow here")

    # -- draws
    def check_draw(self, ev, src, expect_tile):
        f = ev.get("from")
        if f is not None and f not in ("wall", "back"):
            raise BadInput("draw from %r" % f)
        if f is not None and f != src:
            raise Illegal("draw.source", "this draw is from the %s of the wall" % ("front" if src == "wall"
                                                                                    else "back"))
        if "tile" in ev and ev["tile"] is not None:
            t = one_tile(ev["tile"])
            if t != expect_tile:
                raise Illegal("draw.tile", "the wall gives %s, not %s" % (expect_tile, t))

    # -- the acting seat (holds a full hand)
    def in_act(self, kind, seat, ev):
        tb = self.tb
        if kind == "flower":
            return self.flower(seat, ev)
        if seat != tb.cur:
            raise Illegal("turn.order", "seat %d is to act, not seat %d" % (tb.cur, seat))
        if kind in ("discard", "kong", "concealed_kong", "add_kong", "win") and tb.holds_flower(seat):
            raise Illegal("flower.must_expose", "seat %d holds a flower it has not exposed" % seat)
        if kind == "discard":
            t = one_tile(ev.get("tile"))
            if tb.dealing:
                for s in range(4):
                    if tb.holds_flower(s):
                        raise Illegal("flower.must_expose", "seat %d still holds a dealt flower" % s)
            if tb.hands[seat][t] <= 0:
                raise Illegal("discard.not_in_hand", "seat %d holds no %s" % (seat, t))
            tb.hands[seat][t] -= 1
            tb.rivers[seat].append(t)
            tb.phase = "open"
            tb.disc = (seat, t, tb.remaining() == 0)
            tb.dealing = False
            tb.made = None
            return
        if kind in ("kong", "concealed_kong", "add_kong"):
            if tb.src == "claim":
                raise Illegal("kong.after_claim", "no kong in the turn of a chow or pung claim")
            t = one_tile(ev.get("tile")) if ev.get("tile") is not None else None
            if t is None:
                fours = [x for x, c in tb.hands[seat].items() if c == 4]
                if len(fours) != 1:
                    raise BadInput("a kong without its tile")
                t = fours[0]
            pung = [m for m in tb.melds[seat] if m["type"] == "pung" and m["tiles"][0] == t]
            if kind == "concealed_kong" or (kind == "kong" and tb.hands[seat][t] >= 4):
                if tb.hands[seat][t] < 4:
                    raise Illegal("kong.not_held", "seat %d does not hold four %s" % (seat, t))
                if tb.remaining() == 0:
                    raise Illegal("kong.wall_empty", "no tile is left for the kong's replacement")
                tb.hands[seat][t] -= 4
                tb.melds[seat].append({"type": "kong", "tiles": [t] * 4, "concealed": True, "from": None})
                tb.phase = "replace"
                tb.replace = (seat, "kong", None)
                return
            if not pung or tb.hands[seat][t] < 1:
                raise Illegal("kong.not_held", "seat %d has no exposed pung of %s and that tile in hand" % (seat, t))
            if tb.remaining() == 0:
                raise Illegal("kong.wall_empty", "no tile is left for the kong's replacement")
            tb.hands[seat][t] -= 1
            m = pung[0]
            m["type"] = "kong"
            m["tiles"] = [t] * 4
            m["added"] = True
            tb.phase = "rob"
            tb.rob = (seat, t)
            tb.dealing = False
            return
        if kind == "win":
            if tb.src == "claim":
                raise Illegal("win.no_tile", "a seat that has just claimed a chow or pung must discard")
            t = tb.last_in[seat]
            if ev.get("tile") is not None and one_tile(ev["tile"]) != t:
                raise Illegal("win.tile", "seat %d's last tile is %s" % (seat, t))
            winner, pay = tb.evaluate(seat, t, "self_draw", None)
            tb.finish_win(winner, pay)
            return
        if kind == "draw":
            raise Illegal("turn.order", "seat %d must discard before anyone draws" % tb.cur)
        if kind in ("chow", "pung"):
            raise Illegal("turn.order", "there is no discard to claim")
        if kind == "draw_game":
            raise Illegal("draw_game.not_exhausted", "the hand is not drawn: seat %d is to act" % tb.cur)
        raise Illegal("turn.order", "%s cannot follow here" % kind)

    def flower(self, seat, ev):
        tb = self.tb
        t = one_tile(ev.get("tile"))
        if not is_flower(t) or tb.hands[seat][t] <= 0:
            raise Illegal("flower.not_held", "seat %d holds no flower %s" % (seat, t))
        if seat != tb.cur and not tb.dealing:
            raise Illegal("turn.order", "seat %d exposes a flower out of turn" % seat)
        tb.hands[seat][t] -= 1
        tb.flowers[seat].append(t)
        if tb.remaining() == 0:
            tb.phase = "exhausted"
            return
        resume = (tb.cur, tb.src) if seat != tb.cur else None
        tb.phase = "replace"
        tb.replace = (seat, "flower", resume)

    def in_replace(self, kind, seat, ev):
        tb = self.tb
        rs, reason, resume = tb.replace
        if kind != "draw" or seat != rs:
            raise Illegal("turn.order", "seat %d must first draw its replacement tile" % rs)
        self.check_draw(ev, "back", tb.wall[tb.back])
        tb._take_back(seat)
        if resume is not None:
            tb.phase = "act"
            tb.cur, tb.src = resume
        else:
            tb.phase = "act"
            tb.cur = seat
            tb.src = "back_kong" if reason == "kong" else "back_flower"
        tb.replace = None

    # -- an open discard
    def in_open(self, kind, seat, ev):
        tb = self.tb
        d, x, last = tb.disc
        if kind == "draw":
            if seat != (d + 1) % 4:
                raise Illegal("turn.order", "seat %d draws next, not seat %d" % ((d + 1) % 4, seat))
            if tb.remaining() == 0:
                raise Illegal("draw.wall_empty", "no tile is left in the wall")
            self.check_draw(ev, "wall", tb.wall[tb.front])
            tb._take_front(seat)
            tb.phase, tb.cur, tb.src = "act", seat, "wall"
            tb.made = None
            return
        if kind == "draw_game":
            if tb.remaining() != 0:
                raise Illegal("draw_game.not_exhausted", "%d tiles are left in the wall" % tb.remaining())
            tb.phase = "ended"
            tb.result = {"ended": "draw", "winners": [], "payments": [0, 0, 0, 0]}
            return
        if kind in ("chow", "pung", "kong", "win"):
            self.check_claim(kind, seat, ev)
            return self.make_claim(kind, seat, ev)
        raise Illegal("turn.order", "%s by seat %d while seat %d's discard is open" % (kind, seat, d))

    def check_claim(self, kind, seat, ev):
        """Raise Illegal if this seat could not make this claim on the open discard alone."""
        tb = self.tb
        d, x, last = tb.disc
        if seat == d:
            raise Illegal("claim.own_discard", "seat %d cannot claim its own discard" % seat)
        if kind != "win" and tb.holds_flower(seat):
            raise Illegal("flower.must_expose", "seat %d holds a flower" % seat)
        if ev.get("tile") is not None and one_tile(ev["tile"]) != x:
            raise Illegal("claim.tile", "the open discard is %s" % x)
        if kind == "win":
            tb.evaluate(seat, x, "discard", d)
            return
        if last:
            raise Illegal("claim.last_discard", "the last discard may be claimed only for a win")
        if kind == "chow":
            if seat != (d + 1) % 4:
                raise Illegal("claim.chow_seat", "only seat %d may chow seat %d's discard" % ((d + 1) % 4, d))
            self.chow_tiles(seat, ev, x)
        elif kind == "pung":
            if tb.hands[seat][x] < 2:
                raise Illegal("claim.pung_tiles", "seat %d holds fewer than two %s" % (seat, x))
        elif kind == "kong":
            if tb.hands[seat][x] < 3:
                raise Illegal("claim.kong_tiles", "seat %d holds fewer than three %s" % (seat, x))
            if tb.remaining() == 0:
                raise Illegal("kong.wall_empty", "no tile is left for the kong's replacement")

    def chow_tiles(self, seat, ev, x):
        tb = self.tb
        ts = parse_tiles(ev.get("tiles"))
        if len(ts) == 2:
            ts = ts + [x]
        if len(ts) != 3 or x not in ts:
            raise Illegal("claim.chow_tiles", "a chow is three tiles with the discard %s" % x)
        ii = sorted(t2i(t) for t in ts)
        if ii[0] >= 27 or ii[0] // 9 != ii[2] // 9 or ii[1] != ii[0] + 1 or ii[2] != ii[0] + 2:
            raise Illegal("claim.chow_tiles", "%s is not a sequence in one suit" % "".join(ts))
        own = list(ts)
        own.remove(x)
        need = Counter(own)
        for t, c in need.items():
            if tb.hands[seat][t] < c:
                raise Illegal("claim.chow_tiles", "seat %d does not hold %s" % (seat, "".join(own)))
        return [i2t(i) for i in ii], own

    def make_claim(self, kind, seat, ev):
        tb = self.tb
        d, x, last = tb.disc
        if kind == "win":
            winner, pay = tb.evaluate(seat, x, "discard", d)
            tb.finish_win(winner, pay)
            return
        snap = tb.snapshot()
        tb.rivers[d].pop()
        if kind == "chow":
            tiles, own = self.chow_tiles(seat, ev, x)
            for t in own:
                tb.hands[seat][t] -= 1
            tb.melds[seat].append({"type": "chow", "tiles": tiles, "concealed": False, "from": d})
        elif kind == "pung":
            tb.hands[seat][x] -= 2
            tb.melds[seat].append({"type": "pung", "tiles": [x] * 3, "concealed": False, "from": d})
        else:
            tb.hands[seat][x] -= 3
            tb.melds[seat].append({"type": "kong", "tiles": [x] * 4, "concealed": False, "from": d})
        tb.last_in[seat] = x
        tb.dealing = False
        if kind == "kong":
            tb.phase = "replace"
            tb.replace = (seat, "kong", None)
        else:
            tb.phase, tb.cur, tb.src = "act", seat, "claim"
        tb.made = (kind, seat, snap)

    def contest(self, kind, seat, ev):
        """A claim on a discard another seat has already claimed (P9)."""
        tb = self.tb
        mkind, mseat, snap = tb.made
        if tb.claim_order == "declared" and RANK[kind] > RANK[mkind]:
            tb.restore(snap)
            self.check_claim(kind, seat, ev)
            return self.make_claim(kind, seat, ev)
        raise Illegal("claim.priority", "seat %d's %s already took the discard" % (mseat, mkind))

    def second_win(self, seat, ev):
        """A win on the tile another seat has already won on (P10: one winner only)."""
        tb = self.tb
        w = tb.result["winners"][0]
        if w["win_by"] == "discard":
            d, x = tb.disc[0], tb.disc[1]
        else:
            d, x = tb.rob
        if seat in (w["seat"], d):
            raise BadInput("an event after the hand ended")
        if ev.get("tile") is not None and one_tile(ev["tile"]) != x:
            raise Illegal("claim.tile", "the claimed tile is %s" % x)
        winner, pay = tb.evaluate(seat, x, w["win_by"], d)
        nearer = (seat - d) % 4 < (w["seat"] - d) % 4
        if tb.claim_order == "declared" and nearer:
            tb.result = {"ended": "win", "winners": [winner], "payments": pay}
            return
        raise Illegal("claim.priority", "seat %d has already won on this tile; one winner only" % w["seat"])

    # -- a robbable added kong
    def rob_eval(self, seat):
        tb = self.tb
        k, t = tb.rob
        if seat == k:
            raise Illegal("claim.own_discard", "seat %d cannot rob its own kong" % seat)
        return tb.evaluate(seat, t, "robbing_kong", k)

    def in_rob(self, kind, seat, ev):
        tb = self.tb
        k, t = tb.rob
        if kind == "win":
            if ev.get("tile") is not None and one_tile(ev["tile"]) != t:
                raise Illegal("claim.tile", "the kong's tile is %s" % t)
            winner, pay = self.rob_eval(seat)
            tb.finish_win(winner, pay)
            return
        if kind == "draw":
            if seat != k:
                raise Illegal("turn.order", "seat %d draws the kong's replacement" % k)
            self.check_draw(ev, "back", tb.wall[tb.back])
            tb._take_back(seat)
            tb.phase, tb.cur, tb.src = "act", seat, "back_kong"
            tb.rob = tb.rob  # kept for scoring a second win; harmless
            return
        if kind in ("chow", "pung", "kong"):
            raise Illegal("claim.rob_only_win", "an added kong's tile may be claimed only for a win")
        raise Illegal("turn.order", "seat %d must draw the kong's replacement" % k)

    # -- every seat's answer at once
    def claims(self, ev):
        tb = self.tb
        answers = ev.get("answers")
        if not isinstance(answers, list) or not answers:
            raise BadInput("claims without answers")
        if tb.phase == "open":
            d = tb.disc[0]
        elif tb.phase == "rob":
            d = tb.rob[0]
        else:
            raise Illegal("turn.order", "no discard or added kong is open to claims")
        seen = set()
        parsed = []
        for a in answers:
            if not isinstance(a, dict):
                raise BadInput("an answer is not an object")
            s = _int(a.get("seat"), "seat", 0, 3)
            c = a.get("claim")
            if c not in ("pass", "chow", "pung", "kong", "win"):
                raise BadInput("claim %r" % (c,))
            if s in seen:
                raise BadInput("seat %d answers twice" % s)
            seen.add(s)
            parsed.append((s, c, a))
        for s, c, a in parsed:
            if c == "pass":
                continue
            if tb.phase == "rob":
                if c != "win":
                    raise Illegal("claim.rob_only_win", "an added kong's tile may be claimed only for a win")
                if a.get("tile") is not None and one_tile(a["tile"]) != tb.rob[1]:
                    raise Illegal("claim.tile", "the kong's tile is %s" % tb.rob[1])
                self.rob_eval(s)
            else:
                self.check_claim(c, s, a)
        made = [(s, c, a) for s, c, a in parsed if c != "pass"]
        if not made:
            return
        made.sort(key=lambda sca: (-RANK[sca[1]], (sca[0] - d) % 4))
        s, c, a = made[0]
        if tb.phase == "rob":
            winner, pay = self.rob_eval(s)
            tb.finish_win(winner, pay)
            return
        self.make_claim(c, s, a)


# ---------------------------------------------------------------------------------------------
# Protocol
# ---------------------------------------------------------------------------------------------


def run_case(case):
    if not isinstance(case, dict):
        raise BadInput("the case is not an object")
    if case.get("ruleset") != RULESET:
        raise BadInput("ruleset %r is not mcr" % (case.get("ruleset"),))
    if case.get("kind") != "procedure":
        raise BadInput("kind %r: this judge answers procedure cases only" % (case.get("kind"),))
    inp = case.get("input")
    try:
        return Judge(inp).run()
    except BadInput as e:
        return {"verdict": "bad input", "message": str(e)}


def start_reply():
    return {"name": NAME, "version": VERSION, "rulesets": [RULESET], "kinds": ["procedure"],
            "fields": FIELDS, "rule_ids": "own"}


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
                raise ValueError("not an object")
            rid = msg.get("id")
            cmd = msg.get("cmd")
            if cmd == "start":
                reply = start_reply()
            elif cmd == "stop":
                out.write(json.dumps({"stopped": True}) + "\n")
                out.flush()
                return
            elif cmd == "run":
                try:
                    reply = {"result": run_case(msg.get("case"))}
                except BadInput as e:
                    reply = {"error": str(e)}
                except RecursionError as e:
                    reply = {"error": "internal: %s" % e}
                if rid is not None:
                    reply = {"id": rid, **reply}
            else:
                reply = {"error": "unknown command %r" % (cmd,)}
                if rid is not None:
                    reply = {"id": rid, **reply}
        except (ValueError, TypeError) as e:
            reply = {"error": "cannot read the line: %s" % e}
            if rid is not None:
                reply = {"id": rid, **reply}
        except Exception as e:  # never die on one case
            reply = {"error": "internal: %s: %s" % (type(e).__name__, e)}
            if rid is not None:
                reply = {"id": rid, **reply}
        out.write(json.dumps(reply) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
