#!/usr/bin/env python3
"""unseen-classic-b: independent scoring engine for classic Shanghai mahjong
(上海敲麻, 花 + 底分 + 勒子 caps), written from one rule document only.
See READINGS.md for every reading (ids W*, H*, D*, P*, U*).

Protocol: one JSON object per line on stdin, one JSON answer per line on stdout.
    python3 classic_b_engine.py            # protocol mode
    python3 classic_b_engine.py --selftest # hand-worked examples
Standard library only.
"""
import json
import re
import sys

NAME = "unseen-classic-b"
VERSION = "1.0"

LE = 10                 # U1: 1 勒子 = 10 花 = 10 分
DEFAULT_BASE = 2        # U2: 底分 2分
LOSER_CAP = 5 * LE      # P9: 玩家一局最多只输5个勒子

ALL_FLOWERS = ["%df" % i for i in range(1, 9)]
_TILE_RE = re.compile(r"(?:[1-9][mps]|[1-7]z|[1-8]f)*")

FIXED = {  # D1: pattern -> (value in points, cap level in 勒子)
    "清一色": (10, 1),
    "混碰": (10, 1),
    "清碰": (20, 2),
    "风一色": (20, 2),
    "风碰": (40, 4),
    "八花齐": (20, 2),
}
RANK = {"碰碰胡": 1, "混一色": 1, "清一色": 2, "混碰": 2, "清碰": 3, "风一色": 3,
        "风碰": 4, "八花齐": 3}


class ReadError(Exception):
    """Input that cannot be read at all -> protocol-level error."""


class Refuse(Exception):
    """Hand that may not win / breaks the rules -> valid:false."""


# ---------------------------------------------------------------- parsing
def parse_tiles(s, field):
    if s is None:
        return []
    if isinstance(s, list):
        if not all(isinstance(x, str) for x in s):
            raise ReadError("bad tiles in " + field)
        s = "".join(s)
    if not isinstance(s, str):
        raise ReadError("bad tiles in " + field)
    s = s.replace(" ", "")
    if not _TILE_RE.fullmatch(s):
        raise ReadError("bad tile text in " + field)
    return [s[i:i + 2] for i in range(0, len(s), 2)]


def is_flower(t):
    return t[1] == "f"


def is_honor(t):
    return t[1] == "z"


def is_wind(t):
    return t[1] == "z" and t[0] in "1234"


def is_dragon(t):
    return t[1] == "z" and t[0] in "567"


def read_bool(flags, key):
    v = flags.get(key)
    if v is None:
        return False
    if isinstance(v, bool):
        return v
    if isinstance(v, (int, float)):
        return v != 0
    raise ReadError("bad flag " + key)


def read_counter(counters, key, default):
    v = counters.get(key)
    if v is None:
        return default
    if isinstance(v, bool):
        raise ReadError("bad counter " + key)
    if isinstance(v, float):
        if v != int(v):
            raise Refuse("counter-out-of-range")
        v = int(v)
    if not isinstance(v, int):
        raise ReadError("bad counter " + key)
    if v < 0:
        raise Refuse("counter-out-of-range")
    return v


def read_seat(v, field):
    if v is None:
        return None
    if isinstance(v, bool):
        raise ReadError("bad seat in " + field)
    if isinstance(v, float) and v == int(v):
        v = int(v)
    if not isinstance(v, int):
        raise ReadError("bad seat in " + field)
    return v


# ---------------------------------------------------------------- shapes
def _search(cnt, keys, sets_left, have_pair, chows_used, out):
    """Collect (has_chow) of every 4-sets+pair decomposition of cnt."""
    i = 0
    while i < len(keys) and cnt[keys[i]] == 0:
        i += 1
    if i == len(keys):
        if have_pair and sets_left == 0:
            out.add(chows_used)
        return
    t = keys[i]
    if not have_pair and cnt[t] >= 2:
        cnt[t] -= 2
        _search(cnt, keys, sets_left, True, chows_used, out)
        cnt[t] += 2
    if sets_left > 0 and cnt[t] >= 3:
        cnt[t] -= 3
        _search(cnt, keys, sets_left - 1, have_pair, chows_used, out)
        cnt[t] += 3
    if sets_left > 0 and t[1] in "mps" and int(t[0]) <= 7:
        t2 = str(int(t[0]) + 1) + t[1]
        t3 = str(int(t[0]) + 2) + t[1]
        if cnt.get(t2, 0) > 0 and cnt.get(t3, 0) > 0:
            for x in (t, t2, t3):
                cnt[x] -= 1
            _search(cnt, keys, sets_left - 1, have_pair, True, out)
            for x in (t, t2, t3):
                cnt[x] += 1


def shapes(hand, sets_needed):
    """Return set of has_chow booleans over all regular decompositions."""
    cnt = {}
    for t in hand:
        cnt[t] = cnt.get(t, 0) + 1
    keys = sorted(cnt, key=lambda x: (x[1], x[0]))
    out = set()
    _search(cnt, keys, sets_needed, False, False, out)
    return out


def check_meld(m):
    if not isinstance(m, dict):
        raise ReadError("meld not an object")
    typ = m.get("type")
    if typ not in ("chow", "pung", "kong"):
        raise ReadError("bad meld type")
    tiles = parse_tiles(m.get("tiles"), "meld")
    conc = m.get("concealed", False)
    if conc is None:
        conc = False
    if not isinstance(conc, (bool, int)):
        raise ReadError("bad meld concealed")
    conc = bool(conc)
    frm = read_seat(m.get("from"), "meld from")
    if any(is_flower(t) for t in tiles):
        raise Refuse("flower-in-hand")
    if typ == "chow":
        if len(tiles) != 3 or any(is_honor(t) for t in tiles):
            raise Refuse("bad-meld")
        if len({t[1] for t in tiles}) != 1:
            raise Refuse("bad-meld")
        nums = sorted(int(t[0]) for t in tiles)
        if nums[1] != nums[0] + 1 or nums[2] != nums[0] + 2:
            raise Refuse("bad-meld")
    elif typ == "pung":
        if len(tiles) != 3 or len(set(tiles)) != 1:
            raise Refuse("bad-meld")
    else:
        if len(tiles) != 4 or len(set(tiles)) != 1:
            raise Refuse("bad-meld")
    if conc and typ != "kong":
        raise Refuse("bad-meld")
    if not conc:
        if frm is not None and frm not in (1, 2, 3):
            raise Refuse("meld-from")
        if typ == "chow" and frm is not None and frm != 3:
            raise Refuse("chow-not-upstream")
    else:
        frm = None
    return {"type": typ, "tiles": tiles, "concealed": conc, "from": frm}


# ---------------------------------------------------------------- scoring
def flower_elements(flowers, melds, hand):
    """H1-H5: 花 items of a 花 hand; returns list of (id, points, count)."""
    items = {}

    def add(name, pts):
        k = (name, pts)
        items[k] = items.get(k, 0) + 1

    for _ in flowers:
        add("花牌", 1)
    for m in melds:
        t = m["tiles"][0]
        if m["type"] == "kong":
            if is_wind(t):
                add("风暗杠", 3) if m["concealed"] else add("风明杠", 2)
            elif is_dragon(t):
                add("箭暗杠", 4) if m["concealed"] else add("箭明杠", 3)
            else:
                add("暗杠", 2) if m["concealed"] else add("明杠", 1)
        elif m["type"] == "pung":
            if is_wind(t):
                add("风刻", 1)
            elif is_dragon(t):
                add("箭刻", 2)
    cnt = {}
    for t in hand:
        cnt[t] = cnt.get(t, 0) + 1
    for t in sorted(cnt):
        if cnt[t] == 3 and is_wind(t):
            add("风刻", 1)
        elif cnt[t] == 3 and is_dragon(t):
            add("箭刻", 2)
    return [(k[0], k[1], c) for k, c in items.items()]


def value_of(pattern, flower_items, base, menqing, kaibao, huang, floor_ids):
    """D1-D7. Returns (total, fans list)."""
    fans = []
    if pattern in FIXED:
        p, level = FIXED[pattern]
        fans.append({"id": pattern, "points": p, "count": 1})
    else:
        level = 1
        fans.append({"id": "底分", "points": base, "count": 1})
        fans.append({"id": pattern, "points": 0, "count": 1})
        p = base
        for (name, pts, c) in flower_items:
            fans.append({"id": name, "points": pts, "count": c})
            p += pts * c
    for fid in floor_ids:                       # D7 floor before doublings
        fans.append({"id": fid, "points": LE, "count": 1})
    if floor_ids:
        p = max(p, LE)
    mult = 1
    if menqing and pattern != "八花齐":          # D2
        mult *= 2
        level = max(level, 2)
        fans.append({"id": "门清", "points": 2, "count": 1})
    capmult = 1
    if kaibao:                                  # D3
        mult *= 2
        capmult *= 2
        fans.append({"id": "开宝", "points": 2, "count": 1})
    if huang >= 1:                              # D4: one x2 whatever the count
        mult *= 2
        capmult *= 2
        fans.append({"id": "荒番", "points": 2, "count": 1})
    cap = LE * level * capmult                  # D5
    raw = p * mult
    total = min(raw, cap)
    if raw > cap:
        fans.append({"id": "勒子封顶", "points": cap, "count": 1})
    return total, fans


def pay(V, win_by, d, partner, mutual, ready, also_won, bao):
    """P1-P9: amounts paid by seats 1..3 (index 0 unused)."""
    p = [0, 0, 0, 0]
    cm = 2 if mutual else 1

    def selfdraw_amounts():
        q = [0, V, V, V]
        if partner:
            q[partner] = 5 * V * cm
        return q

    if win_by == "self_draw":
        p = selfdraw_amounts()
    elif win_by == "robbing_kong":
        p[d] += 3 * V
        if partner and not also_won:
            p[partner] += 3 * V * cm
    else:  # discard
        if bao:
            p[d] = sum(selfdraw_amounts())
        elif not partner:
            p[d] = V
        elif d == partner:
            p[d] = 2 * V * cm
        elif also_won:
            p[d] = V if ready else 2 * V
        elif ready:
            p[d] = V
            p[partner] = V * cm
        else:
            p[d] = 2 * V
    p = [0] + [min(x, LOSER_CAP) for x in p[1:]]
    return [sum(p), -p[1], -p[2], -p[3]]


def score(case):
    if not isinstance(case, dict):
        raise ReadError("case not an object")
    inp = case.get("input")
    if not isinstance(inp, dict):
        raise ReadError("input not an object")
    flags = inp.get("flags") or {}
    counters = inp.get("counters") or {}
    if not isinstance(flags, dict) or not isinstance(counters, dict):
        raise ReadError("flags/counters not objects")

    if "concealed" not in inp:
        raise ReadError("missing concealed")
    concealed = parse_tiles(inp.get("concealed"), "concealed")
    wt = parse_tiles(inp.get("win_tile"), "win_tile")
    if len(wt) > 1:
        raise ReadError("win_tile not one tile")
    win = wt[0] if wt else None
    flowers = parse_tiles(inp.get("flowers"), "flowers")
    melds_in = inp.get("melds")
    if melds_in is None:
        melds_in = []
    if not isinstance(melds_in, list):
        raise ReadError("melds not a list")
    win_by = inp.get("win_by")
    if win_by not in ("self_draw", "discard", "robbing_kong"):
        raise ReadError("bad win_by")
    discarder = read_seat(inp.get("discarder"), "discarder")

    knocked = read_bool(flags, "knocked")
    kong_rep = read_bool(flags, "kong_replacement")
    flower_rep = read_bool(flags, "flower_replacement")
    kaibao = read_bool(flags, "kaibao")
    eight = read_bool(flags, "eight_flowers_win")
    mutual = read_bool(flags, "contract_mutual")
    ready = read_bool(flags, "discarder_ready")
    three_fan = read_bool(flags, "discarder_called_three_fan")
    also_won = read_bool(flags, "contract_partner_also_won")
    huang = read_counter(counters, "huangfan", 0)
    base = read_counter(counters, "base", DEFAULT_BASE)
    cw = read_counter(counters, "contract_with", 0)

    melds = [check_meld(m) for m in melds_in]
    if len(melds) > 4:
        raise Refuse("tile-count")

    # ---- tiles, counts, copies
    if any(is_flower(t) for t in concealed):
        raise Refuse("flower-in-hand")
    if any(not is_flower(t) for t in flowers):
        raise Refuse("flower-in-hand")
    if win is None and not eight:
        raise ReadError("missing win_tile")
    win_flower = win is not None and is_flower(win)
    if win_flower and not eight:
        raise Refuse("flower-win-tile")
    all_flowers = list(flowers) + ([win] if win_flower and win not in flowers else [])
    if len(set(flowers)) != len(flowers):
        raise Refuse("duplicate-flower")
    hand = concealed + ([win] if win is not None and not win_flower else [])
    meld_tiles = [t for m in melds for t in m["tiles"]]
    n = len(hand) + 3 * len(melds)
    if eight:
        if n not in (13, 14):
            raise Refuse("tile-count")
    elif n != 14:
        raise Refuse("tile-count")
    cnt = {}
    for t in hand + meld_tiles:
        cnt[t] = cnt.get(t, 0) + 1
    if any(c > 4 for c in cnt.values()):
        raise Refuse("fifth-tile")

    # ---- flag / seat consistency
    if win_by in ("discard", "robbing_kong"):
        if discarder not in (1, 2, 3):
            raise Refuse("no-discarder")
    else:
        discarder = None
    if win_by == "robbing_kong" and win is not None:
        if (concealed + meld_tiles).count(win) > 0:
            raise Refuse("rob-impossible")
    if (kong_rep or flower_rep) and win_by != "self_draw":
        raise Refuse("replacement-not-self-draw")
    if kong_rep and not any(m["type"] == "kong" for m in melds):
        raise Refuse("kong-replacement-without-kong")
    if flower_rep and not all_flowers:
        raise Refuse("flower-replacement-without-flower")

    # ---- contract (P4)
    if cw not in (0, 1, 2, 3):
        raise Refuse("contract-seat")
    claims = {1: 0, 2: 0, 3: 0}
    for m in melds:
        if not m["concealed"] and m["from"] in claims:
            claims[m["from"]] += 1
    seen = [s for s in (1, 2, 3) if claims[s] >= 3]
    partner = cw or None
    if seen:
        if partner is None:
            partner = seen[0]
        elif seen[0] != partner:
            raise Refuse("contract-conflict")
    if mutual and not partner:
        raise Refuse("mutual-without-contract")
    if also_won:
        if not partner:
            raise Refuse("partner-won-without-contract")
        if win_by == "self_draw":
            raise Refuse("partner-won-not-discard")
        if discarder == partner:
            raise Refuse("partner-won-own-discard")

    # ---- 八花齐 immediate win
    if eight:
        if sorted(set(all_flowers)) != ALL_FLOWERS:
            raise Refuse("eight-flowers-incomplete")
        if win_by != "self_draw":
            raise Refuse("eight-flowers-not-self-draw")
        total, fans = value_of("八花齐", [], base, False, kaibao, huang, [])
        return {"valid": True, "total": total, "fans": fans,
                "payments": pay(total, win_by, discarder, partner, mutual,
                                ready, also_won, False)}

    if not knocked:
        raise Refuse("not-knocked")

    # ---- patterns (W2-W5, D1)
    whole = hand + meld_tiles
    suits = {t[1] for t in whole if t[1] in "mps"}
    honors = any(is_honor(t) for t in whole)
    meld_chow = any(m["type"] == "chow" for m in melds)
    sh = shapes(hand, 4 - len(melds))
    std = bool(sh)
    std_pung = (False in sh) and not meld_chow
    cands = []
    if not suits:
        cands.append("风碰" if std_pung else "风一色")
    elif len(suits) == 1 and not honors:
        if std_pung:
            cands.append("清碰")
        if std:
            cands.append("清一色")
    elif len(suits) == 1:
        if std_pung:
            cands.append("混碰")
        if std:
            cands.append("混一色")
    else:
        if std_pung:
            cands.append("碰碰胡")
    if not cands:
        raise Refuse("no-pattern")

    menqing = all(m["type"] == "kong" and m["concealed"] for m in melds)
    floors = []
    if kong_rep or flower_rep:
        floors.append("杠开")
    if len(melds) == 4 and len(concealed) == 1:
        floors.append("大吊车")
    fl_items = flower_elements(all_flowers, melds, hand)

    best = None
    for pat in cands:
        total, fans = value_of(pat, fl_items, base, menqing, kaibao, huang, floors)
        key = (total, RANK[pat])
        if best is None or key > best[0]:
            best = (key, pat, total, fans)
    _, pat, total, fans = best

    # ---- 包 (P7): 清一色九张落地
    bao = False
    if win_by == "discard" and pat in ("清一色", "清碰") and not three_fan:
        suit = next(iter(suits))
        exposed = [m for m in melds if not m["concealed"]
                   and m["tiles"][0][1] == suit]
        if len(exposed) >= 3:
            bao = True
    return {"valid": True, "total": total, "fans": fans,
            "payments": pay(total, win_by, discarder, partner, mutual, ready,
                            also_won, bao)}


def run_case(case):
    try:
        return {"result": score(case)}
    except Refuse as e:
        return {"result": {"valid": False, "error": str(e)}}
    except ReadError as e:
        return {"error": str(e)}
    except Exception as e:  # never crash
        return {"error": "unreadable input: %s" % type(e).__name__}


# ---------------------------------------------------------------- protocol
def serve():
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            msg = json.loads(line)
        except Exception:
            out = {"id": None, "error": "bad json"}
        else:
            if not isinstance(msg, dict):
                out = {"id": None, "error": "bad message"}
            else:
                cmd = msg.get("cmd")
                if cmd == "start":
                    out = {"name": NAME, "version": VERSION,
                           "rulesets": ["shanghai-classic"], "kinds": ["score"],
                           "rule_ids": "own"}
                elif cmd == "stop":
                    break
                elif cmd == "run":
                    out = {"id": msg.get("id")}
                    out.update(run_case(msg.get("case")))
                else:
                    out = {"id": msg.get("id"), "error": "unknown cmd"}
        sys.stdout.write(json.dumps(out, ensure_ascii=False) + "\n")
        sys.stdout.flush()


# ---------------------------------------------------------------- selftest
def _case(concealed, win, melds=(), win_by="self_draw", discarder=None,
          flowers="", flags=None, counters=None):
    f = {"knocked": True}
    f.update(flags or {})
    ms = []
    for m in melds:
        typ, tiles = m[0], m[1]
        conc = len(m) > 2 and m[2] == "c"
        frm = None if conc else (m[2] if len(m) > 2 else 1)
        ms.append({"type": typ, "tiles": tiles, "concealed": conc, "from": frm})
    return {"id": "t", "ruleset": "shanghai-classic", "options": {},
            "kind": "score",
            "input": {"concealed": concealed, "melds": ms, "win_tile": win,
                      "win_by": win_by, "discarder": discarder,
                      "seat_wind": "E", "round_wind": "E", "flowers": flowers,
                      "flags": f, "counters": counters or {}}}


SELFTESTS = [
    # 1. 碰碰胡 (mixed suits), self-draw, 2 flowers, 东 pung in hand, 中 pung melded.
    #    花 = 2 flowers + 风刻(东) 1 + 箭刻(中) 2 = 5; P = 底分 2 + 5 = 7; no doublings,
    #    cap 1勒 = 10 -> total 7; self-draw: 3 x 7 = 21.
    ("pengpeng basic", _case("1m1m1m5p5p5p1z1z1z9s", "9s", [("pung", "7z7z7z", 2)],
                             flowers="1f5f"),
     {"total": 7, "payments": [21, -7, -7, -7]}),
    # 2. same hand by discard from seat 2 -> only the discarder pays 7 (P2).
    ("pengpeng discard", _case("1m1m1m5p5p5p1z1z1z9s", "9s", [("pung", "7z7z7z", 2)],
                               win_by="discard", discarder=2, flowers="1f5f"),
     {"total": 7, "payments": [7, 0, -7, 0]}),
    # 3. 混一色 with chows, 门清 (no melds): 2 flowers + 箭刻(发) 2 = 4 花;
    #    P = 2 + 4 = 6; 门清 x2 = 12; cap 2勒 = 20 -> 12; self-draw 36.
    ("hunyise menqing", _case("1m2m3m4m5m6m6z6z6z9m9m7m8m", "9m", flowers="2f3f"),
     {"total": 12, "payments": [36, -12, -12, -12]}),
    # 4. 清一色 (chows), exposed chow from 3: fixed 1勒 = 10; discard by 1 -> 10.
    ("qingyise", _case("2p3p4p5p5p5p7p8p9p1p", "1p", [("chow", "1p2p3p", 3)],
                       win_by="discard", discarder=1, flowers="1f2f3f"),
     {"total": 10, "payments": [10, -10, 0, 0]}),
    # 5. Document example: 清碰 + 开宝 = 4勒子. 清碰 20 x2 = 40, cap 2勒 x2 = 40.
    ("doc qingpeng+kaibao", _case("1s1s1s3s3s3s5s5s5s7s7s7s9s", "9s",
                                  flags={"kaibao": True}),
     {"total": 40, "payments": [120, -40, -40, -40]}),
    # 6. Document example: 风碰 + 荒番 = 8勒子. 风碰 40 x2 = 80, cap 4勒 x2 = 80.
    #    self-draw: each pays 80, capped at 5勒 = 50 (P9) -> winner +150.
    ("doc fengpeng+huangfan", _case("1z1z1z2z2z2z3z3z3z4z4z4z5z", "5z",
                                    counters={"huangfan": 3}),
     {"total": 80, "payments": [150, -50, -50, -50]}),
    # 7. 风一色 乱风 (no sets): fixed 2勒 = 20; discard by 3 -> 20.
    ("fengyise luanfeng", _case("1z2z3z4z5z6z7z1z2z3z4z5z6z", "7z",
                                win_by="discard", discarder=3),
     {"total": 20, "payments": [20, 0, 0, -20]}),
    # 8. 混碰: 1勒 = 10, cap 1勒; 门清 is absent (pung melded) -> 10; self-draw 30.
    ("hunpeng", _case("1m1m1m3m3m3m1z1z1z2z", "2z", [("pung", "9m9m9m", 1)]),
     {"total": 10, "payments": [30, -10, -10, -10]}),
    # 9. 杠开 floor: 碰碰胡, no flowers, 明杠 of 5p (1 花): P = 2 + 1 = 3 -> floor 10;
    #    total 10; self-draw 30.
    ("gangkai floor", _case("1m1m1m3s3s3s8m8m8m9p", "9p", [("kong", "5p5p5p5p", 2)],
                            flags={"kong_replacement": True}),
     {"total": 10, "payments": [30, -10, -10, -10]}),
    # 10. 大吊车 + 开宝: four melds, one tile single wait; 碰碰胡.
    #     花: 明杠 white (箭明杠 3) + 风刻 南 1 = 4; P = 6 -> floor 10 -> 开宝 x2 = 20;
    #     cap 1勒 x2 = 20 -> 20; discard by 3: 20.
    ("dadiaoche kaibao", _case("9m", "9m", [("pung", "1m1m1m", 1), ("pung", "2p2p2p", 2),
                                           ("kong", "5z5z5z5z", 3), ("pung", "2z2z2z", 1)],
                               win_by="discard", discarder=3, flags={"kaibao": True}),
     {"total": 20, "payments": [20, 0, 0, -20]}),
    # 11. 八花齐 immediate win: 2勒 = 20, self-draw 60. Knock not needed.
    ("eight flowers", _case("1m2m3m4m5m6m7m8m9m1p2p3p4p", "8f", flowers="1f2f3f4f5f6f7f",
                            flags={"knocked": False, "eight_flowers_win": True}),
     {"total": 20, "payments": [60, -20, -20, -20]}),
    # 12. 1勒子 = 10花 and the 1勒 cap: 碰碰胡, 8 flowers + 箭刻 中 2 + 箭刻 发 2 = 12 花;
    #     P = 2 + 12 = 14 -> cap 10; discard by 1 -> 10.
    ("cap one le", _case("1m1m1m7z7z7z6z6z6z3p", "3p", [("pung", "5s5s5s", 2)],
                         win_by="discard", discarder=1, flowers="1f2f3f4f5f6f7f8f"),
     {"total": 10, "payments": [10, -10, 0, 0]}),
    # 13. robbing a kong (the winner holds no 3m; the robbed player has the other 3):
    #     混一色 门清: 1 flower + 风刻 东 1 = 2 花, P = 2 + 2 = 4, 门清 x2 = 8,
    #     cap 2勒 -> 8; robbed seat 1 pays 3 shares = 24.
    ("rob kong", _case("1m2m4m5m6m7m8m9m1z1z1z5z5z", "3m", win_by="robbing_kong",
                       discarder=1, flowers="6f"),
     {"total": 8, "payments": [24, -24, 0, 0]}),
    # 14. contract self-draw: three melds claimed from seat 3 -> contract with 3
    #     inferred (P4). 碰碰胡, 花 0 -> P = 2. Seat 3 pays 5 x 2 = 10, others 2 each.
    ("contract selfdraw", _case("4p4p4p8s", "8s", [("pung", "1m1m1m", 3), ("pung", "2m2m2m", 3),
                                                  ("pung", "9s9s9s", 3)]),
     {"total": 2, "payments": [14, -2, -2, -10]}),
    # 15. contract, partner 2 discards (mutual): 2 shares x2 = 4 shares; 东 pung melded
    #     from 1 (no 门清): P = 2 + 风刻 1 = 3 -> 4 x 3 = 12.
    ("contract mutual discard", _case("4m4m4m6s6s6s8p8p8p9p", "9p", [("pung", "1z1z1z", 1)],
                                      win_by="discard", discarder=2,
                                      flags={"contract_mutual": True},
                                      counters={"contract_with": 2}),
     {"total": 3, "payments": [12, 0, -12, 0]}),
    # 16. contract with 1, unrelated discarder 3 ready: discarder 1 share, partner 1 share.
    #     P = 2 + 风刻 1 = 3 -> 3 each.
    ("contract ready unrelated", _case("4m4m4m6s6s6s8p8p8p9p", "9p", [("pung", "1z1z1z", 1)],
                                       win_by="discard", discarder=3,
                                       flags={"discarder_ready": True},
                                       counters={"contract_with": 1}),
     {"total": 3, "payments": [6, -3, 0, -3]}),
    # 17. contract with 1, unrelated discarder 3 not ready: pays 2 shares = 6.
    ("contract unready unrelated", _case("4m4m4m6s6s6s8p8p8p9p", "9p", [("pung", "1z1z1z", 1)],
                                         win_by="discard", discarder=3,
                                         counters={"contract_with": 1}),
     {"total": 3, "payments": [6, 0, 0, -6]}),
    # 18. 包: 清一色 with 3 exposed 万 melds, discard by 2 -> 2 pays the self-draw total
    #     3 x 10 = 30.
    ("bao nine tiles", _case("5m5m5m7m", "7m", [("chow", "1m2m3m", 3), ("pung", "9m9m9m", 1),
                                              ("chow", "4m5m6m", 3)],
                             win_by="discard", discarder=2),
     {"total": 10, "payments": [30, 0, -30, 0]}),
    # 19. same, but discarder was 三番叫胡 -> no 包, pays 1 share = 10.
    ("bao exempt", _case("5m5m5m7m", "7m", [("chow", "1m2m3m", 3), ("pung", "9m9m9m", 1),
                                          ("chow", "4m5m6m", 3)],
                         win_by="discard", discarder=2,
                         flags={"discarder_called_three_fan": True}),
     {"total": 10, "payments": [10, 0, -10, 0]}),
    # 20. 门清 碰碰胡 with concealed kongs: 暗杠 东 3 + 暗杠 3m 2 = 5 花, P = 7,
    #     门清 x2 = 14, 荒番 x2 = 28; cap 2勒 x2 = 40 -> 28; self-draw 84.
    ("menqing angang huangfan", _case("5p5p5p7s7s7s9m", "9m", [("kong", "1z1z1z1z", "c"),
                                                          ("kong", "3m3m3m3m", "c")],
                                      counters={"huangfan": 1}),
     {"total": 28, "payments": [84, -28, -28, -28]}),
    # 21. base counter 5 (additive): 碰碰胡 (4m pung melded, no 门清), 1 flower
    #     -> 5 + 1 = 6; discard by 1 -> 6.
    ("base counter", _case("1m1m1m2p2p2p3s3s3s5p", "5p", [("pung", "4m4m4m", 2)],
                           win_by="discard",
                           discarder=1, flowers="3f", counters={"base": 5}),
     {"total": 6, "payments": [6, -6, 0, 0]}),
    # refusals
    ("refuse chow mixed", _case("1m2m3m4p5p6p7s8s9s1z1z1z5m", "5m"), {"error": "no-pattern"}),
    ("refuse not knocked", _case("1s1s1s3s3s3s5s5s5s7s7s7s9s", "9s",
                                 flags={"knocked": False}), {"error": "not-knocked"}),
    ("refuse fifth tile", _case("1s1s1s1s3s3s3s5s5s5s7s7s7s", "1s"), {"error": "fifth-tile"}),
    ("refuse count", _case("1s1s1s3s3s3s5s5s5s7s7s7s", "9s"), {"error": "tile-count"}),
    ("refuse rob", _case("3z3z3z4m4m4m6s6s6s8p8p9p9p", "9p", win_by="robbing_kong",
                         discarder=1), {"error": "rob-impossible"}),
    ("refuse chow from 1", _case("2p3p4p5p5p5p7p8p9p1p", "1p", [("chow", "1p2p3p", 1)]),
     {"error": "chow-not-upstream"}),
    ("refuse gangkai on discard", _case("1m1m1m3s3s3s8m8m8m9p", "9p",
                                        [("kong", "5p5p5p5p", 2)], win_by="discard",
                                        discarder=1, flags={"kong_replacement": True}),
     {"error": "replacement-not-self-draw"}),
]


def selftest():
    ok = 0
    bad = 0
    for name, case, want in SELFTESTS:
        got = run_case(case)
        res = got.get("result", {})
        good = True
        if "error" in want:
            good = res.get("valid") is False and res.get("error") == want["error"]
        else:
            good = (res.get("valid") is True and res.get("total") == want["total"]
                    and res.get("payments") == want["payments"]
                    and sum(res.get("payments")) == 0)
        if good:
            ok += 1
        else:
            bad += 1
            print("FAIL", name, json.dumps(got, ensure_ascii=False), "want", want)
    # protocol-level errors must not crash
    for odd in [None, {}, {"input": {"concealed": "1x", "win_tile": "1m",
                                     "win_by": "discard"}},
                {"input": {"concealed": 5}}, {"input": {"concealed": "",
                                                        "win_tile": "1m",
                                                        "win_by": "x"}}]:
        got = run_case(odd)
        if "error" not in got:
            bad += 1
            print("FAIL odd input", odd, got)
        else:
            ok += 1
    print("selftest: %d passed, %d failed" % (ok, bad))
    return bad == 0


if __name__ == "__main__":
    if "--selftest" in sys.argv[1:]:
        sys.exit(0 if selftest() else 1)
    serve()
