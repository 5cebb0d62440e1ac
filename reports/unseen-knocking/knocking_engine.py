#!/usr/bin/env python3
"""unseen-knocking: an independent scoring engine for Shanghai "Knocking" (上海敲麻) mahjong.

Line protocol on stdin/stdout (one JSON object per line):
  {"cmd": "start", "protocol": 1}          -> engine description
  {"cmd": "run", "id": N, "case": {...}}   -> {"id": N, "result": {...}} or {"id": N, "error": "..."}
  {"cmd": "stop"}                          -> exit
Readings of the rule document are recorded in READINGS.md beside this file.
"""
import json
import sys
from collections import Counter

NAME, VERSION = "unseen-knocking", "1.0"
RULESET = "shanghai-knocking"
SUITS = "mps"
WINDS = {"1z", "2z", "3z", "4z"}
DRAGONS = {"5z", "6z", "7z"}
FLOWERS = {f"{i}f" for i in range(1, 9)}

# Hua table (document "Scoring: hua x 2^doubles")
BASE = "Going out (base)"
FLOWER = "Flower / dragon-as-flower"
FIG = "无花果"
HUA = {
    ("suit", "pung"): ("Plain-suit pung", 0),
    ("suit", "exposed_kong"): ("Plain-suit exposed kong", 1),
    ("suit", "concealed_kong"): ("Plain-suit concealed kong", 2),
    ("wind", "pung"): ("Wind pung", 1),
    ("wind", "exposed_kong"): ("Wind exposed kong", 2),
    ("wind", "concealed_kong"): ("Wind concealed kong", 3),
}
HUA_ORDER = [BASE, FLOWER] + [v[0] for v in HUA.values()]
# Doubles table
DOUBLES = [("大挑车", 1), ("门清", 1), ("杠开", 1), ("碰碰胡", 1), ("混一色", 1), ("清一色", 2)]
ROB_KONG = "抢杠"
ROB_KONG_MULTIPLIER = 3


class InputError(Exception):
    """The input cannot be read (protocol error)."""


class Invalid(Exception):
    """The hand may not win under the document; carries a short rule name."""

    def __init__(self, rule, detail=""):
        super().__init__(rule)
        self.rule, self.detail = rule, detail


# ---------------------------------------------------------------- tiles
def parse_tiles(value, field):
    """Parse '1m1m2p', compact '112m', space separated, or a list of such strings."""
    if value is None:
        return []
    if isinstance(value, list):
        out = []
        for v in value:
            out.extend(parse_tiles(v, field))
        return out
    if not isinstance(value, str):
        raise InputError(f"{field}: expected a tile string, got {type(value).__name__}")
    out, digits = [], ""
    for ch in value:
        if ch.isspace() or ch == ",":
            continue
        if ch.isdigit():
            digits += ch
        elif ch in "mpszf":
            if not digits:
                raise InputError(f"{field}: suit letter '{ch}' without a number in {value!r}")
            for d in digits:
                tile = d + ch
                if not valid_code(tile):
                    raise InputError(f"{field}: unknown tile {tile!r}")
                out.append(tile)
            digits = ""
        else:
            raise InputError(f"{field}: unknown character {ch!r} in {value!r}")
    if digits:
        raise InputError(f"{field}: number(s) {digits!r} without a suit letter in {value!r}")
    return out


def valid_code(t):
    n, s = t[0], t[1]
    if s in SUITS:
        return "1" <= n <= "9"
    if s == "z":
        return "1" <= n <= "7"
    if s == "f":
        return "1" <= n <= "8"
    return False


def kind_of(t):
    if t[1] in SUITS:
        return "suit"
    if t in WINDS:
        return "wind"
    if t in DRAGONS:
        return "dragon"
    return "flower"


def sort_key(t):
    return ("mpszf".index(t[1]), t[0])


# ---------------------------------------------------------------- hand shape
def decompositions(tiles, nsets):
    """All ways to split `tiles` into nsets sets (('chow'|'pung', first tile)) and one pair."""
    counts = Counter(tiles)
    results = []
    for pair in sorted(t for t, c in counts.items() if c >= 2):
        counts[pair] -= 2
        for sets in _sets(counts, nsets):
            results.append((pair, sets))
        counts[pair] += 2
    return results


def _sets(counts, n):
    remaining = [t for t in sorted(counts, key=sort_key) if counts[t] > 0]
    if not remaining:
        if n == 0:
            yield []
        return
    if n == 0:
        return
    t = remaining[0]
    if counts[t] >= 3:
        counts[t] -= 3
        for rest in _sets(counts, n - 1):
            yield [("pung", t)] + rest
        counts[t] += 3
    if t[1] in SUITS and t[0] <= "7":
        t2, t3 = f"{int(t[0]) + 1}{t[1]}", f"{int(t[0]) + 2}{t[1]}"
        if counts[t2] > 0 and counts[t3] > 0:
            for x in (t, t2, t3):
                counts[x] -= 1
            for rest in _sets(counts, n - 1):
                yield [("chow", t)] + rest
            for x in (t, t2, t3):
                counts[x] += 1


def is_seven_pairs(tiles):
    c = Counter(tiles)
    return len(tiles) == 14 and all(v == 2 for v in c.values()) and len(c) == 7


# ---------------------------------------------------------------- case reading
def read_melds(raw):
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise InputError("melds: expected a list")
    melds = []
    for i, m in enumerate(raw):
        if not isinstance(m, dict):
            raise InputError(f"melds[{i}]: expected an object")
        mtype = m.get("type")
        if mtype not in ("chow", "pung", "kong"):
            raise InputError(f"melds[{i}]: unknown type {mtype!r}")
        tiles = parse_tiles(m.get("tiles"), f"melds[{i}].tiles")
        concealed = bool(m.get("concealed", False))
        frm = m.get("from")
        if frm is not None and frm not in (1, 2, 3):
            raise InputError(f"melds[{i}]: 'from' must be 1, 2 or 3")
        melds.append({"type": mtype, "tiles": sorted(tiles, key=sort_key),
                      "concealed": concealed, "from": frm})
    return melds


def check_meld(i, m):
    t = m["tiles"]
    if any(kind_of(x) in ("dragon", "flower") for x in t):
        bad = next(x for x in t if kind_of(x) in ("dragon", "flower"))
        raise Invalid("dragon_is_flower" if bad in DRAGONS else "flower_in_hand",
                      f"meld {i} holds {bad}")
    if m["type"] == "chow":
        ok = (len(t) == 3 and t[0][1] in SUITS and len({x[1] for x in t}) == 1
              and [int(x[0]) for x in t] == list(range(int(t[0][0]), int(t[0][0]) + 3)))
    else:
        ok = len(t) == (3 if m["type"] == "pung" else 4) and len(set(t)) == 1
    if not ok:
        raise Invalid("bad_meld", f"meld {i} ({m['type']}) has tiles {''.join(t)}")
    if m["concealed"] and m["type"] != "kong":
        raise Invalid("meld_concealed", f"meld {i}: only a kong may be concealed")
    if m["type"] == "chow" and m["from"] != 3:
        raise Invalid("chow_not_upstream", f"meld {i}: a chow may only be claimed from upstream (3)")


def score_case(case):
    if not isinstance(case, dict):
        raise InputError("case must be an object")
    kind = case.get("kind", "score")
    if kind != "score":
        raise InputError(f"kind {kind!r} not supported")
    rs = case.get("ruleset", RULESET)
    if rs != RULESET:
        raise InputError(f"ruleset {rs!r} not supported")
    inp = case.get("input")
    if not isinstance(inp, dict):
        raise InputError("case.input must be an object")
    concealed = parse_tiles(inp.get("concealed", ""), "concealed")
    win = parse_tiles(inp.get("win_tile"), "win_tile")
    if len(win) != 1:
        raise InputError("win_tile must be exactly one tile")
    win = win[0]
    melds = read_melds(inp.get("melds", []))
    flowers = parse_tiles(inp.get("flowers", ""), "flowers")
    win_by = inp.get("win_by")
    if win_by not in ("self_draw", "discard", "robbing_kong"):
        raise InputError(f"win_by {win_by!r} unknown")
    discarder = inp.get("discarder")
    if win_by == "self_draw":
        if discarder not in (None, 0):
            raise InputError("discarder must be null on a self-draw")
    elif discarder not in (1, 2, 3):
        raise InputError(f"discarder must be 1, 2 or 3 when win_by is {win_by}")
    for f in ("seat_wind", "round_wind"):
        if inp.get(f) is not None and inp.get(f) not in ("E", "S", "W", "N"):
            raise InputError(f"{f} must be E, S, W or N")
    flags = inp.get("flags") or {}
    if not isinstance(flags, dict):
        raise InputError("flags must be an object")
    flag = lambda k: bool(flags.get(k))  # noqa: E731
    return evaluate(concealed, win, melds, flowers, win_by, discarder, flag)


def evaluate(concealed, win, melds, flowers, win_by, discarder, flag):
    # --- tiles that can be where they are
    for t in concealed + [win]:
        if t in DRAGONS:
            raise Invalid("dragon_is_flower", f"{t} is a flower and cannot be held")
        if t in FLOWERS:
            raise Invalid("flower_in_hand", f"{t} cannot be held")
    for f in flowers:
        if kind_of(f) not in ("flower", "dragon"):
            raise Invalid("not_a_flower", f"{f} in flowers is not a flower or dragon")
    for i, m in enumerate(melds):
        check_meld(i, m)
    if len(melds) > 4:
        raise Invalid("tile_count", "more than four melds")
    if len(concealed) + 1 + 3 * len(melds) != 14:
        raise Invalid("tile_count",
                      f"{len(concealed)} concealed + win tile + {len(melds)} melds is not 14 tiles")
    all_tiles = concealed + [win] + [t for m in melds for t in m["tiles"]] + flowers
    for t, c in Counter(all_tiles).items():
        limit = 1 if t in FLOWERS else 4
        if c > limit:
            raise Invalid("duplicate_flower" if t in FLOWERS else "too_many_copies",
                          f"{c} copies of {t}")
    if win_by == "robbing_kong" and win in concealed + [t for m in melds for t in m["tiles"]]:
        raise Invalid("robbed_tile_count",
                      f"the robbed kong holds the other three {win}; the winner cannot hold one")
    # --- context
    if not flag("knocked"):
        raise Invalid("not_knocked", "a hand may only win after knocking")
    if (flag("kong_replacement") or flag("flower_replacement")) and win_by != "self_draw":
        raise Invalid("replacement_not_self_draw", "a replacement draw is a self-draw")
    if flag("kong_replacement") and not any(m["type"] == "kong" for m in melds):
        raise Invalid("no_kong_for_replacement", "kong_replacement without a kong")
    if flag("flower_replacement") and not flowers:
        raise Invalid("no_flower_for_replacement", "flower_replacement without an exposed flower")
    # --- shape
    hand = concealed + [win]
    decs = decompositions(hand, 4 - len(melds))
    if not decs:
        if not melds and is_seven_pairs(hand):
            raise Invalid("seven_pairs", "seven pairs (七对) does not win")
        raise Invalid("no_winning_shape", "not four sets and a pair")
    best = None
    for pair, sets in decs:
        res = value_of(pair, sets, concealed, win, melds, flowers, win_by, flag)
        if best is None or res["total"] > best["total"]:
            best = res
    total = best["total"]
    payments = [0, 0, 0, 0]
    if win_by == "self_draw":
        for s in (1, 2, 3):
            payments[s] = -total
    elif win_by == "discard":
        payments[discarder] = -total
    else:  # robbing the kong: the robbed player pays x3 alone
        payments[discarder] = -total * ROB_KONG_MULTIPLIER
    payments[0] = -sum(payments[1:])
    best["payments"] = payments
    return best


def value_of(pair, sets, concealed, win, melds, flowers, win_by, flag):
    units = Counter()
    units[BASE] = 1
    if flowers:
        units[FLOWER] = len(flowers)
    # every set: (type, tile, how) with how in pung / exposed_kong / concealed_kong / chow
    groups = [(typ, t, "pung" if typ == "pung" else "chow") for typ, t in sets]
    for m in melds:
        if m["type"] == "kong":
            groups.append(("kong", m["tiles"][0], "concealed_kong" if m["concealed"] else "exposed_kong"))
        else:
            groups.append((m["type"], m["tiles"][0], "pung" if m["type"] == "pung" else "chow"))
    for typ, t, how in groups:
        if how != "chow":
            name, pts = HUA[(kind_of(t), how)]
            if pts:
                units[name] += 1
    hua_points = {BASE: 1, FLOWER: 1}
    hua_points.update({v[0]: v[1] for v in HUA.values()})
    hua = sum(hua_points[k] * c for k, c in units.items())
    fans = []
    if hua == 1:  # nothing beyond the base: the fig
        hua = 10
        fans.append({"id": FIG, "points": 10, "count": 1})
    else:
        for k in HUA_ORDER:
            if units[k]:
                fans.append({"id": k, "points": hua_points[k], "count": units[k]})
    # doubles
    tiles = concealed + [win] + [t for m in melds for t in m["tiles"]]
    suits = {t[1] for t in tiles if t[1] in SUITS}
    has_wind = any(t in WINDS for t in tiles)
    self_drawn = win_by == "self_draw"
    got = {
        "大挑车": len(melds) == 4 and len(concealed) == 1 and self_drawn,
        "门清": all(m["concealed"] for m in melds),
        "杠开": self_drawn and (flag("kong_replacement") or flag("flower_replacement")),
        "碰碰胡": all(how != "chow" for _, _, how in groups),
        "混一色": len(suits) == 1 and has_wind,
        "清一色": len(suits) == 1 and not has_wind,
    }
    doubles = 0
    for name, d in DOUBLES:
        if got[name]:
            doubles += d
            fans.append({"id": name, "points": d, "count": 1})
    if win_by == "robbing_kong":
        fans.append({"id": ROB_KONG, "points": ROB_KONG_MULTIPLIER, "count": 1})
    return {"valid": True, "total": hua * 2 ** doubles, "fans": fans}


# ---------------------------------------------------------------- protocol
def handle(msg):
    if not isinstance(msg, dict):
        return {"error": "message must be a JSON object"}
    cmd = msg.get("cmd")
    if cmd == "start":
        return {"name": NAME, "version": VERSION, "rulesets": [RULESET], "kinds": ["score"],
                "fields": ["valid", "total", "fans", "payments", "error"], "rule_ids": "own"}
    if cmd == "run":
        out = {"id": msg.get("id")}
        try:
            out["result"] = score_case(msg.get("case"))
        except Invalid as e:
            out["result"] = {"valid": False, "error": e.rule}
        except InputError as e:
            out["error"] = str(e)
        except Exception as e:  # never die on one case
            out["error"] = f"internal error: {type(e).__name__}: {e}"
        return out
    return {"id": msg.get("id"), "error": f"unknown cmd {cmd!r}"}


def main():
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            msg = json.loads(line)
        except json.JSONDecodeError as e:
            print(json.dumps({"id": None, "error": f"bad JSON: {e}"}), flush=True)
            continue
        if isinstance(msg, dict) and msg.get("cmd") == "stop":
            break
        print(json.dumps(handle(msg), ensure_ascii=False), flush=True)


if __name__ == "__main__":
    main()
