#!/usr/bin/env python3
"""Shanghai Knocking (上海敲麻) scoring engine, written from one rules document.

Readings are in READINGS.md beside this file (ids W*, H*, D*, P*, U* are cited in comments).
Protocol: JSON lines on stdin/stdout (start / run / stop).  `--selftest` runs the worked examples.
Standard library only.
"""
import json
import sys

NAME = "unseen-knocking-b"
VERSION = "1.0"
RULESET = "shanghai-knocking"

SUITS = "mps"
WINDS = {"1z", "2z", "3z", "4z"}
DRAGONS = {"5z", "6z", "7z"}
KNOWN_FLAGS = {"knocked", "kong_replacement", "flower_replacement"}
INPUT_FIELDS = {"concealed", "melds", "win_tile", "win_by", "discarder", "seat_wind",
                "round_wind", "flowers", "flags", "counters"}
MELD_FIELDS = {"type", "tiles", "concealed", "from", "after_knock"}

HUA_IDS = {"base", "fig", "flower", "wind_pung", "plain_exposed_kong", "plain_concealed_kong",
           "wind_exposed_kong", "wind_concealed_kong"}
DOUBLE_IDS = {"da_tiao_che", "men_qing", "gang_kai", "peng_peng_hu", "hun_yi_se", "qing_yi_se"}


class Refusal(Exception):
    """A hand that may not win, or input this engine refuses: {"valid": false, "error": rule}."""

    def __init__(self, rule, message=""):
        super().__init__(message or rule)
        self.rule = rule
        self.message = message or rule


# ---------------------------------------------------------------- tiles (U1)

def parse_tiles(value, field):
    """Read a tile field: canonical `2m3m4m`, compact `234m`, spaces, or a list of such strings."""
    if isinstance(value, list):
        out = []
        for item in value:
            if not isinstance(item, str):
                raise Refusal("input_tile", "%s: %r is not a tile string" % (field, item))
            out.extend(parse_tiles(item, field))
        return out
    if not isinstance(value, str):
        raise Refusal("input_tile", "%s: not a tile string" % field)
    out, digits = [], ""
    for ch in value:
        if ch.isspace() or ch in ",":
            continue
        if ch in "0123456789":
            digits += ch
        elif ch in "mpszf":
            if not digits:
                raise Refusal("input_tile", "%s: suit letter %r without a number in %r" % (field, ch, value))
            for d in digits:
                tile = d + ch
                ok = (ch in SUITS and "1" <= d <= "9") or (ch == "z" and "1" <= d <= "7") \
                    or (ch == "f" and "1" <= d <= "8")
                if not ok:
                    raise Refusal("input_tile", "%s: unknown tile %s" % (field, tile))
                out.append(tile)
            digits = ""
        else:
            raise Refusal("input_tile", "%s: unknown character %r in %r" % (field, ch, value))
    if digits:
        raise Refusal("input_tile", "%s: number %s without a suit letter" % (field, digits))
    return out


def is_flower_tile(t):
    return t[1] == "f" or t in DRAGONS


def whole_number(v):
    """A JSON whole number (2 or 2.0), never a boolean; else None."""
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return v
    if isinstance(v, float) and v.is_integer():
        return int(v)
    return None


# ---------------------------------------------------------------- decomposition (H8)

def decompositions(tiles):
    """All ways to read `tiles` (suit and wind tiles) as sets + one pair.

    Yields (pair_tile, [("pung"|"chow", first_tile), ...])."""
    counts = {}
    for t in tiles:
        counts[t] = counts.get(t, 0) + 1
    if len(tiles) % 3 != 2:
        return []
    results = []
    for pair in sorted(counts):
        if counts[pair] >= 2:
            counts[pair] -= 2
            for sets in _sets(counts):
                results.append((pair, sets))
            counts[pair] += 2
    return results


def _sets(counts):
    keys = sorted(k for k, v in counts.items() if v > 0)
    if not keys:
        return [[]]
    t = min(keys, key=lambda k: (k[1], k[0]))  # lowest tile, suit-major
    out = []
    if counts[t] >= 3:
        counts[t] -= 3
        for rest in _sets(counts):
            out.append([("pung", t)] + rest)
        counts[t] += 3
    if t[1] in SUITS and t[0] <= "7":
        n, s = int(t[0]), t[1]
        t2, t3 = "%d%s" % (n + 1, s), "%d%s" % (n + 2, s)
        if counts.get(t2, 0) > 0 and counts.get(t3, 0) > 0:
            for k in (t, t2, t3):
                counts[k] -= 1
            for rest in _sets(counts):
                out.append([("chow", t)] + rest)
            for k in (t, t2, t3):
                counts[k] += 1
    return out


def is_seven_pairs(tiles):
    if len(tiles) != 14:
        return False
    counts = {}
    for t in tiles:
        counts[t] = counts.get(t, 0) + 1
    return all(v % 2 == 0 for v in counts.values())


# ---------------------------------------------------------------- input checks (U*)

def read_input(inp):
    if not isinstance(inp, dict):
        raise ValueError("input is not an object")
    inp = {k: v for k, v in inp.items() if v is not None}
    for k in inp:
        if k not in INPUT_FIELDS:
            raise Refusal("input_field", "input: unknown field %r (the fields here: %s)"
                          % (k, ", ".join(sorted(INPUT_FIELDS))))
    if "concealed" not in inp or "win_tile" not in inp:
        raise Refusal("input_field", "input needs concealed and win_tile")

    # flags (U7)
    flags = inp.get("flags", {})
    if not isinstance(flags, dict):
        raise Refusal("input_flags", "flags is not an object")
    for k, v in flags.items():
        if k not in KNOWN_FLAGS:
            raise Refusal("input_flags", "unknown flag %r" % k)
        if not isinstance(v, bool):
            raise Refusal("input_flags", "flag %r is not true/false" % k)
    knocked = flags.get("knocked", False)
    kong_rep = flags.get("kong_replacement", False)
    flower_rep = flags.get("flower_replacement", False)
    counters = inp.get("counters", {})
    if not isinstance(counters, dict) or counters:
        raise Refusal("input_counters", "this ruleset knows no counters")

    # winds (U10): accepted, no effect (H5)
    for f in ("seat_wind", "round_wind"):
        if f in inp and inp[f] not in ("E", "S", "W", "N"):
            raise Refusal("input_wind", "%s must be E, S, W or N" % f)

    # tiles
    concealed = parse_tiles(inp["concealed"], "concealed")
    win = parse_tiles(inp["win_tile"], "win_tile")
    flowers = parse_tiles(inp.get("flowers", ""), "flowers")
    for t in concealed + win:
        if t in DRAGONS:
            raise Refusal("input_dragon_in_hand", "dragon %s is a flower here, never a hand tile" % t)
        if t[1] == "f":
            if win and t == win[0] and len(win) == 1:
                raise Refusal("input_win_tile", "win_tile %s is a flower" % t)
            raise Refusal("input_tile", "flower %s among the hand tiles" % t)
    if len(win) != 1:
        raise Refusal("input_hand_size", "win_tile must be exactly one tile, got %d" % len(win))
    win = win[0]
    for t in flowers:
        if not is_flower_tile(t):
            raise Refusal("input_flowers", "%s in flowers is not a flower or dragon" % t)

    # melds (U5, U6)
    melds_in = inp.get("melds", [])
    if not isinstance(melds_in, list):
        raise Refusal("input_meld", "melds is not a list")
    if len(melds_in) > 4:
        raise Refusal("input_hand_size", "more than four melds")
    melds = []
    for i, m in enumerate(melds_in):
        if not isinstance(m, dict):
            raise Refusal("input_meld", "meld %d is not an object" % i)
        m = {k: v for k, v in m.items() if v is not None}
        for k in m:
            if k not in MELD_FIELDS:
                raise Refusal("input_field", "melds/%d: unknown field %r (the fields here: %s)"
                              % (i, k, ", ".join(sorted(MELD_FIELDS))))
        typ = m.get("type")
        if typ not in ("chow", "pung", "kong") or "tiles" not in m:
            raise Refusal("input_meld", "meld %d: type must be chow, pung or kong, with tiles" % i)
        tiles = parse_tiles(m["tiles"], "melds/%d/tiles" % i)
        for t in tiles:
            if t in DRAGONS:
                raise Refusal("input_dragon_in_hand", "dragon %s in a meld" % t)
            if t[1] == "f":
                raise Refusal("input_meld", "flower %s in a meld" % t)
        conc = m.get("concealed", False)
        if not isinstance(conc, bool):
            raise Refusal("input_meld", "meld %d: concealed must be true/false" % i)
        if conc and typ != "kong":
            raise Refusal("input_meld", "meld %d: only a kong may be concealed" % i)
        src = None
        if "from" in m:
            src = whole_number(m["from"])
            if src not in (1, 2, 3):
                raise Refusal("input_meld", "meld %d: from must be 1, 2 or 3" % i)
            if conc:
                raise Refusal("input_meld", "meld %d: a concealed kong is not claimed from anyone" % i)
        ak = m.get("after_knock", False)
        if not isinstance(ak, bool):
            raise Refusal("input_meld", "meld %d: after_knock must be true/false" % i)
        if ak and conc:
            raise Refusal("input_after_knock", "meld %d: after_knock on a concealed kong" % i)
        if ak and not knocked:
            raise Refusal("input_after_knock", "meld %d: after_knock on a hand that has not knocked" % i)
        if typ == "chow":
            ok = len(tiles) == 3 and len({t[1] for t in tiles}) == 1 and tiles[0][1] in SUITS
            if ok:
                ns = sorted(int(t[0]) for t in tiles)
                ok = ns[1] == ns[0] + 1 and ns[2] == ns[0] + 2
            if not ok:
                raise Refusal("input_meld", "meld %d: %s is not a chow" % (i, "".join(tiles)))
        else:
            need = 3 if typ == "pung" else 4
            if len(tiles) != need or len(set(tiles)) != 1:
                raise Refusal("input_meld", "meld %d: %s is not a %s" % (i, "".join(tiles), typ))
        melds.append({"type": typ, "tiles": tiles, "concealed": conc, "from": src, "after_knock": ak})

    # size (U4) and copies (U3)
    need = 13 - 3 * len(melds)
    if len(concealed) != need:
        raise Refusal("input_hand_size", "concealed holds %d tiles; with %d melds it must hold %d"
                      % (len(concealed), len(melds), need))
    counts = {}
    for t in concealed + [win] + [t for m in melds for t in m["tiles"]] + flowers:
        counts[t] = counts.get(t, 0) + 1
    for t, n in sorted(counts.items()):
        limit = 1 if t[1] == "f" else 4
        if n > limit:
            raise Refusal("input_five_copies", "%d copies of %s" % (n, t))

    # win kind (U8, U9)
    win_by = inp.get("win_by", "self_draw")
    if win_by not in ("self_draw", "discard", "robbing_kong"):
        raise Refusal("input_win_by", "win_by must be self_draw, discard or robbing_kong")
    discarder = None
    if "discarder" in inp:
        discarder = whole_number(inp["discarder"])
        if discarder not in (1, 2, 3):
            raise Refusal("input_discarder", "discarder must be 1, 2 or 3")
    if win_by == "self_draw" and discarder is not None:
        raise Refusal("input_discarder", "a self-drawn win has no discarder")
    if win_by != "self_draw" and discarder is None:
        raise Refusal("input_discarder", "a %s win needs the discarder's seat" % win_by)
    if (kong_rep or flower_rep) and win_by != "self_draw":
        raise Refusal("input_replacement_not_self_draw", "a replacement-draw win is self-drawn")
    if kong_rep and not any(m["type"] == "kong" for m in melds):
        raise Refusal("input_replacement_without_kong", "kong_replacement but the hand has no kong")
    if flower_rep and not flowers:
        raise Refusal("input_replacement_without_flower", "flower_replacement but no flower set aside")

    return {"concealed": concealed, "win": win, "flowers": flowers, "melds": melds,
            "win_by": win_by, "discarder": discarder, "knocked": knocked,
            "replacement": kong_rep or flower_rep}


# ---------------------------------------------------------------- scoring

def score_hand(inp):
    h = read_input(inp)
    melds = h["melds"]

    # W6 chow upstream only; W4 the lock
    for m in melds:
        if m["type"] == "chow" and m["from"] not in (None, 3):
            raise Refusal("chow_not_upstream", "a chow may be claimed from upstream (seat 3) only")
    for m in melds:
        if m["after_knock"] and m["type"] in ("chow", "pung"):
            raise Refusal("claimed_after_knock", "a knocked hand is locked: no %s after knocking" % m["type"])
    # W3 knocking required
    if not h["knocked"]:
        raise Refusal("not_knocked", "only a hand that has knocked may win")
    # W8 robbed tile: the other three copies are the kong maker's
    if h["win_by"] == "robbing_kong":
        held = h["concealed"].count(h["win"]) + sum(m["tiles"].count(h["win"]) for m in melds)
        if held:
            raise Refusal("robbed_tile_held", "the winner holds another %s, but three are in the robbed kong"
                          % h["win"])

    hand = h["concealed"] + [h["win"]]
    readings = decompositions(hand)
    if not readings:
        if not melds and is_seven_pairs(hand):
            raise Refusal("seven_pairs_excluded", "seven pairs does not win here")
        raise Refusal("not_a_standard_hand", "not four sets and a pair")

    best = None
    for pair, sets in readings:
        result = evaluate(h, pair, sets)
        key = (result["total"], [f["id"] for f in result["fans"]])
        if best is None or key[0] > best[0][0]:
            best = (key, result)
    return best[1]


def evaluate(h, pair, sets):
    melds = h["melds"]
    fans = []

    def add(fid, points, count=1):
        if count:
            fans.append({"id": fid, "points": points, "count": count})

    # ---- hua (H1-H7)
    n_flowers = len(h["flowers"])
    wind_pungs = sum(1 for typ, t in sets if typ == "pung" and t in WINDS) \
        + sum(1 for m in melds if m["type"] == "pung" and m["tiles"][0] in WINDS)
    kongs = [m for m in melds if m["type"] == "kong"]
    pek = sum(1 for m in kongs if not m["concealed"] and m["tiles"][0] not in WINDS)
    pck = sum(1 for m in kongs if m["concealed"] and m["tiles"][0] not in WINDS)
    wek = sum(1 for m in kongs if not m["concealed"] and m["tiles"][0] in WINDS)
    wck = sum(1 for m in kongs if m["concealed"] and m["tiles"][0] in WINDS)
    extra = n_flowers + wind_pungs + pek + 2 * pck + 2 * wek + 3 * wck
    if extra == 0:
        add("fig", 10)          # H6: flat 10 hua instead of the bare base
    else:
        add("base", 1)
    add("flower", 1, n_flowers)
    add("wind_pung", 1, wind_pungs)
    add("plain_exposed_kong", 1, pek)
    add("plain_concealed_kong", 2, pck)
    add("wind_exposed_kong", 2, wek)
    add("wind_concealed_kong", 3, wck)

    # ---- doubles (D1-D7)
    self_drawn = h["win_by"] == "self_draw"
    if len(melds) == 4 and self_drawn:
        add("da_tiao_che", 1)   # D1
    if all(m["type"] == "kong" and m["concealed"] for m in melds):
        add("men_qing", 1)      # D2 (no claimed meld)
    if h["replacement"]:
        add("gang_kai", 1)      # D3
    if all(typ == "pung" for typ, _ in sets) and all(m["type"] != "chow" for m in melds):
        add("peng_peng_hu", 1)  # D4
    all_tiles = h["concealed"] + [h["win"]] + [t for m in melds for t in m["tiles"]]
    suits = {t[1] for t in all_tiles if t[1] in SUITS}
    has_wind = any(t in WINDS for t in all_tiles)
    if len(suits) == 1 and has_wind:
        add("hun_yi_se", 1)     # D5
    elif len(suits) == 1:
        add("qing_yi_se", 2)    # D6

    hua = sum(f["points"] * f["count"] for f in fans if f["id"] in HUA_IDS)
    doubles = sum(f["points"] * f["count"] for f in fans if f["id"] in DOUBLE_IDS)
    total = hua * (2 ** doubles)

    # ---- payments (P1-P3, D8)
    pay = [0, 0, 0, 0]
    if h["win_by"] == "self_draw":
        pay = [3 * total, -total, -total, -total]
    elif h["win_by"] == "discard":
        pay[0], pay[h["discarder"]] = total, -total
    else:
        add("qiang_gang", 3)
        pay[0], pay[h["discarder"]] = 3 * total, -3 * total
    return {"valid": True, "fans": fans, "total": total, "payments": pay}


def score_case(case):
    """A case object -> result dict. Raises ValueError for a case this engine cannot read (U12)."""
    if not isinstance(case, dict):
        raise ValueError("case is not an object")
    rs = case.get("ruleset", RULESET)
    if rs != RULESET:
        raise ValueError("ruleset %r is not supported" % (rs,))
    kind = case.get("kind", "score")
    if kind not in (None, "score"):
        raise ValueError("kind %r is not supported" % (kind,))
    inp = case.get("input")
    if not isinstance(inp, dict):
        raise ValueError("case has no input object")
    try:
        return score_hand(inp)
    except Refusal as r:
        return {"valid": False, "error": r.rule, "message": r.message}


# ---------------------------------------------------------------- protocol

def start_reply():
    return {"name": NAME, "version": VERSION, "rulesets": [RULESET], "kinds": ["score"],
            "fields": ["valid", "total", "fans", "payments", "error"], "rule_ids": "own"}


def handle(line):
    """One request line -> (answer dict or None, stop?)."""
    try:
        msg = json.loads(line)
    except Exception as e:  # noqa: BLE001
        return {"error": "not JSON: %s" % e}, False
    if not isinstance(msg, dict):
        return {"error": "request is not an object"}, False
    cmd = msg.get("cmd")
    rid = msg.get("id")
    if cmd == "start":
        return start_reply(), False
    if cmd == "stop":
        return None, True
    ans = {}
    if rid is not None and whole_number(rid) is not None:
        ans["id"] = rid
    if cmd != "run":
        ans["error"] = "unknown cmd %r" % (cmd,)
        return ans, False
    try:
        ans["result"] = score_case(msg.get("case"))
    except Exception as e:  # noqa: BLE001  never crash on bad input
        ans["error"] = "%s: %s" % (type(e).__name__, e)
    return ans, False


def serve():
    out = sys.stdout
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            ans, stop = handle(line)
        except Exception as e:  # noqa: BLE001
            ans, stop = {"error": "internal: %s" % e}, False
        if stop:
            break
        if ans is not None:
            out.write(json.dumps(ans, ensure_ascii=False) + "\n")
            out.flush()


# ---------------------------------------------------------------- selftest

def K(**flags):
    d = {"knocked": True}
    d.update(flags)
    return d


def V(total, pay, *fans):
    return {"valid": True, "total": total, "payments": pay,
            "fans": [{"id": f, "points": p, "count": c} for f, p, c in fans]}


def R(rule):
    return {"valid": False, "error": rule}


def chow(t, src=3, **kw):
    return dict({"type": "chow", "tiles": t, "from": src}, **kw)


def pung(t, src, **kw):
    return dict({"type": "pung", "tiles": t, "from": src}, **kw)


def ekong(t, src, **kw):
    return dict({"type": "kong", "tiles": t, "from": src}, **kw)


def ckong(t):
    return {"type": "kong", "tiles": t, "concealed": True}


SELFTESTS = [
    # 1 bare hand, self-draw: fig 10 (H6), 门清 1 double -> 10*2 = 20; each pays 20 (P1)
    ({"concealed": "1m2m3m4m5m6m7m8m9m2p3p4p5s", "win_tile": "5s", "win_by": "self_draw", "flags": K()},
     V(20, [60, -20, -20, -20], ("fig", 10, 1), ("men_qing", 1, 1))),
    # 2 same hand on a discard from across: 10*2 = 20, discarder alone pays (P2; 门清 on a discard, D2)
    ({"concealed": "1m2m3m4m5m6m7m8m9m2p3p4p5s", "win_tile": "5s", "win_by": "discard", "discarder": 2,
      "flags": K()},
     V(20, [20, 0, -20, 0], ("fig", 10, 1), ("men_qing", 1, 1))),
    # 3 same hand, never knocked (W3)
    ({"concealed": "1m2m3m4m5m6m7m8m9m2p3p4p5s", "win_tile": "5s", "flags": {"knocked": False}},
     R("not_knocked")),
    # 4 knocked flag absent = not knocked (W3)
    ({"concealed": "1m2m3m4m5m6m7m8m9m2p3p4p5s", "win_tile": "5s"}, R("not_knocked")),
    # 5 flowers + dragon, a chow claimed, plain pung 0: 1+3 = 4 hua, no double; discarder seat 1 pays 4
    ({"concealed": "4m5m6m7p8p9p1s1s1s5s", "melds": [chow("1m2m3m")], "win_tile": "5s", "win_by": "discard",
      "discarder": 1, "flowers": "1f2f5z", "flags": K()},
     V(4, [4, -4, 0, 0], ("base", 1, 1), ("flower", 1, 3))),
    # 6 wind exp. kong 2 + wind conc. kong 3 + wind pung 1 + base 1 = 7; 混一色 -> 7*2 = 14, self-draw
    ({"concealed": "3z3z3z4m5m6m7m", "melds": [ekong("1z1z1z1z", 2), ckong("2z2z2z2z")], "win_tile": "7m",
      "flags": K()},
     V(14, [42, -14, -14, -14], ("base", 1, 1), ("wind_pung", 1, 1), ("wind_exposed_kong", 2, 1),
       ("wind_concealed_kong", 3, 1), ("hun_yi_se", 1, 1))),
    # 7 plain exp. kong 1 + plain conc. kong 2 + base 1 = 4; no double; discard from upstream pays 4
    ({"concealed": "1m2m3m7m8m9m2p", "melds": [ekong("5p5p5p5p", 1), ckong("9s9s9s9s")], "win_tile": "2p",
      "win_by": "discard", "discarder": 3, "flags": K()},
     V(4, [4, 0, 0, -4], ("base", 1, 1), ("plain_exposed_kong", 1, 1), ("plain_concealed_kong", 2, 1))),
    # 8 大挑车: four melds, bare 9m self-drawn; 1 + flower 1 + 4z pung 1 = 3, *2 = 6
    ({"concealed": "9m", "melds": [pung("2m2m2m", 1), pung("5p5p5p", 2), chow("7s8s9s"), pung("4z4z4z", 3)],
      "win_tile": "9m", "flowers": "3f", "flags": K()},
     V(6, [18, -6, -6, -6], ("base", 1, 1), ("flower", 1, 1), ("wind_pung", 1, 1), ("da_tiao_che", 1, 1))),
    # 9 the same on a discard: no 大挑车 (D1) -> 3, seat 1 pays
    ({"concealed": "9m", "melds": [pung("2m2m2m", 1), pung("5p5p5p", 2), chow("7s8s9s"), pung("4z4z4z", 3)],
      "win_tile": "9m", "win_by": "discard", "discarder": 1, "flowers": "3f", "flags": K()},
     V(3, [3, -3, 0, 0], ("base", 1, 1), ("flower", 1, 1), ("wind_pung", 1, 1))),
    # 10 fig + 门清 1 + 碰碰胡 1 + 清一色 2 = 4 doubles: 10*16 = 160, discarder across pays
    ({"concealed": "1m1m1m3m3m3m5m5m5m7m7m7m9m", "win_tile": "9m", "win_by": "discard", "discarder": 2,
      "flags": K()},
     V(160, [160, 0, -160, 0], ("fig", 10, 1), ("men_qing", 1, 1), ("peng_peng_hu", 1, 1),
       ("qing_yi_se", 2, 1))),
    # 11 flower-replacement win: 1 + 1 flower = 2; 门清 + 杠开 + 混一色 = 3 doubles -> 2*8 = 16
    ({"concealed": "1p2p3p4p5p6p7p8p9p2p3p4p1z", "win_tile": "1z", "flowers": "4f",
      "flags": K(flower_replacement=True)},
     V(16, [48, -16, -16, -16], ("base", 1, 1), ("flower", 1, 1), ("men_qing", 1, 1), ("gang_kai", 1, 1),
       ("hun_yi_se", 1, 1))),
    # 12 kong after knock (mandatory upgrade, W4) then kong-replacement win: 1 + 2 = 3; 杠开 + 混一色 -> 12
    ({"concealed": "1s2s3s4s5s6s7s8s9s1s", "melds": [ekong("3z3z3z3z", 2, after_knock=True)], "win_tile": "1s",
      "flags": K(kong_replacement=True)},
     V(12, [36, -12, -12, -12], ("base", 1, 1), ("wind_exposed_kong", 2, 1), ("gang_kai", 1, 1),
       ("hun_yi_se", 1, 1))),
    # 13 robbed kong: fig 10, 门清 -> 20; robbed player (seat 1) pays 3*20 = 60 (D8, P3)
    ({"concealed": "2m3m4m5p6p7p3s4s5s9p9p6s7s", "win_tile": "8s", "win_by": "robbing_kong", "discarder": 1,
      "flags": K()},
     V(20, [60, -60, 0, 0], ("fig", 10, 1), ("men_qing", 1, 1), ("qiang_gang", 3, 1))),
    # 14 robbing a 9s while holding two 9s: impossible (W8)
    ({"concealed": "2m3m4m5p6p7p3s4s5s7s7s9s9s", "win_tile": "9s", "win_by": "robbing_kong", "discarder": 1,
      "flags": K()},
     R("robbed_tile_held")),
    # 15 seven pairs is excluded (W2)
    ({"concealed": "1m1m3m3m5m5m7p7p9p9p2s2s4s", "win_tile": "4s", "flags": K()}, R("seven_pairs_excluded")),
    # 16 seven pairs that is also a standard hand wins as the standard hand (W2):
    #    112233m 445566p 77s = two 123m chows, two 456p chows, pair 7s; fig 10, 门清 -> 20
    ({"concealed": "1m1m2m2m3m3m4p4p5p5p6p6p7s", "win_tile": "7s", "flags": K()},
     V(20, [60, -20, -20, -20], ("fig", 10, 1), ("men_qing", 1, 1))),
    # 17 not four sets and a pair
    ({"concealed": "1m4m7m2p5p8p3s6s9s1z2z3z4z", "win_tile": "1m", "flags": K()}, R("not_a_standard_hand")),
    # 18 a chow claimed from across (W6)
    ({"concealed": "4m5m6m7p8p9p1s1s1s5s", "melds": [chow("1m2m3m", 2)], "win_tile": "5s", "flags": K()},
     R("chow_not_upstream")),
    # 19 a pung claimed after knocking breaks the lock (W4)
    ({"concealed": "4m5m6m7p8p9p1s2s3s5s", "melds": [pung("1z1z1z", 1, after_knock=True)], "win_tile": "5s",
      "flags": K()},
     R("claimed_after_knock")),
    # 20 a dragon among the hand tiles (U2)
    ({"concealed": "1m2m3m4m5m6m7m8m9m2p3p4p5z", "win_tile": "5z", "flags": K()}, R("input_dragon_in_hand")),
    # 21 a fifth 1m (U3)
    ({"concealed": "1m1m1m1m2m3m4m5m6m7m8m9m9m", "win_tile": "1m", "flags": K()}, R("input_five_copies")),
    # 22 kong replacement on a discard (U9)
    ({"concealed": "1s2s3s4s5s6s7s8s9s1s", "melds": [ekong("3z3z3z3z", 2)], "win_tile": "1s", "win_by": "discard",
      "discarder": 1, "flags": K(kong_replacement=True)},
     R("input_replacement_not_self_draw")),
    # 23 four flowers (2 dragons) + 1z, 2z, 4z pungs 3 + conc. wind kong 3 + base 1 = 11; 碰碰胡 + 混一色 -> 44
    ({"concealed": "4z4z4z5m", "melds": [pung("1z1z1z", 1), pung("2z2z2z", 2), ckong("3z3z3z3z")],
      "win_tile": "5m", "flowers": "1f5f6z7z", "flags": K()},
     V(44, [132, -44, -44, -44], ("base", 1, 1), ("flower", 1, 4), ("wind_pung", 1, 3),
       ("wind_concealed_kong", 3, 1), ("peng_peng_hu", 1, 1), ("hun_yi_se", 1, 1))),
    # 24 full flush with chows: 1 + flower 1 = 2; 门清 1 + 清一色 2 -> 2*8 = 16; upstream discarder pays
    ({"concealed": "1p2p3p4p5p6p7p8p9p1p2p3p5p", "win_tile": "5p", "win_by": "discard", "discarder": 3,
      "flowers": "8f", "flags": K()},
     V(16, [16, 0, 0, -16], ("base", 1, 1), ("flower", 1, 1), ("men_qing", 1, 1), ("qing_yi_se", 2, 1))),
    # 25 111222333m read as pungs (H8): fig 10, 门清 + 碰碰胡 -> 40
    ({"concealed": "1m1m1m2m2m2m3m3m3m5p5p5p7s", "win_tile": "7s", "flags": K()},
     V(40, [120, -40, -40, -40], ("fig", 10, 1), ("men_qing", 1, 1), ("peng_peng_hu", 1, 1))),
    # 26 flower replacement with no flower set aside (U9)
    ({"concealed": "1m2m3m4m5m6m7m8m9m2p3p4p5s", "win_tile": "5s", "flags": K(flower_replacement=True)},
     R("input_replacement_without_flower")),
    # 27 a flag this ruleset does not know (U7)
    ({"concealed": "1m2m3m4m5m6m7m8m9m2p3p4p5s", "win_tile": "5s", "flags": K(last_tile=True)},
     R("input_flags")),
    # 28 wrong hand size (U4)
    ({"concealed": "1m2m3m4m5m6m7m8m9m2p3p4p", "win_tile": "5s", "flags": K()}, R("input_hand_size")),
    # 29 a discard win without its discarder (U8)
    ({"concealed": "1m2m3m4m5m6m7m8m9m2p3p4p5s", "win_tile": "5s", "win_by": "discard", "flags": K()},
     R("input_discarder")),
    # 30 大挑车 with four concealed kongs (D1 + D2 + D4 + D6): fig? no: 4 plain conc. kongs 4*2 = 8 + 1 = 9;
    #    doubles 大挑车 1 + 门清 1 + 碰碰胡 1 + 清一色 2 = 5 -> 9*32 = 288
    ({"concealed": "9m", "melds": [ckong("1m1m1m1m"), ckong("3m3m3m3m"), ckong("5m5m5m5m"), ckong("7m7m7m7m")],
      "win_tile": "9m", "flags": K()},
     V(288, [864, -288, -288, -288], ("base", 1, 1), ("plain_concealed_kong", 2, 4), ("da_tiao_che", 1, 1),
       ("men_qing", 1, 1), ("peng_peng_hu", 1, 1), ("qing_yi_se", 2, 1))),
    # 31 compact notation and 2.0 seats are read: same as case 5 -> 4
    ({"concealed": "456m789p111s5s", "melds": [{"type": "chow", "tiles": "123m", "from": 3.0}], "win_tile": "5s",
      "win_by": "discard", "discarder": 1.0, "flowers": ["1f", "2f", "5z"], "flags": K()},
     V(4, [4, -4, 0, 0], ("base", 1, 1), ("flower", 1, 3))),
]


def _norm(result):
    r = dict(result)
    r.pop("message", None)
    if "fans" in r:
        r["fans"] = sorted((f["id"], f["points"], f["count"]) for f in r["fans"])
    return r


def selftest():
    failures = 0
    for i, (inp, want) in enumerate(SELFTESTS, 1):
        case = {"id": "selftest-%d" % i, "ruleset": RULESET, "kind": "score", "input": inp}
        try:
            got = score_case(case)
        except Exception as e:  # noqa: BLE001
            got = {"exception": repr(e)}
        if _norm(got) != _norm(want):
            failures += 1
            print("FAIL %d\n  want %s\n  got  %s" % (i, json.dumps(want, ensure_ascii=False),
                                                    json.dumps(got, ensure_ascii=False)))
    # protocol robustness
    for bad in ['not json', '[1]', '{"cmd":"run","id":5}', '{"cmd":"run","id":6,"case":{"ruleset":"mcr",'
                '"kind":"score","input":{}}}', '{"cmd":"fly"}']:
        ans, stop = handle(bad)
        if stop or not isinstance(ans, dict) or "error" not in ans:
            failures += 1
            print("FAIL protocol %r -> %r" % (bad, ans))
    n = len(SELFTESTS) + 5
    print("selftest: %d/%d passed" % (n - failures, n))
    return failures == 0


if __name__ == "__main__":
    if "--selftest" in sys.argv[1:]:
        sys.exit(0 if selftest() else 1)
    serve()
