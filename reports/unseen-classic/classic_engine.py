#!/usr/bin/env python3
"""unseen-classic: an independent Shanghai (上海麻将 / 敲麻, with 勒子 caps) scoring engine.

Written from one rule document only; every reading it relies on is listed in READINGS.md
next to this file (section numbers W*, H*, D*, P* are quoted in comments below).

Protocol: one JSON object per line on stdin, one answer per line on stdout.
    python3 classic_engine.py            # protocol loop
    python3 classic_engine.py --selftest # hand-worked checks
Standard library only.
"""
import json
import re
import sys

NAME = "unseen-classic"
VERSION = "1.0"
RULESET = "shanghai-classic"

LE = 10                 # one 勒子 = 10 花 = 10 points (U1)
DEFAULT_BASE = 2        # 底分 2分 (U3)
PLAYER_HAND_CAP = 5 * LE  # 单局封顶 5勒 per loser (D9)


class InputError(Exception):
    """Input that cannot be read at all -> protocol level error."""


class Invalid(Exception):
    """A hand that may not win -> valid false with a rule id."""

    def __init__(self, rule):
        Exception.__init__(self, rule)
        self.rule = rule


# ----------------------------------------------------------------------------- tiles
SUITS = {"m": 0, "p": 9, "s": 18, "z": 27}
FLOWER_BASE = 100  # flower tiles 1f..8f -> 101..108


def tile_index(num, suit):
    if suit == "f":
        if 1 <= num <= 8:
            return FLOWER_BASE + num
        raise InputError("bad flower tile %d%s" % (num, suit))
    if suit == "z":
        if 1 <= num <= 7:
            return 27 + num - 1
        raise InputError("bad honour tile %d%s" % (num, suit))
    if 1 <= num <= 9:
        return SUITS[suit] + num - 1
    raise InputError("bad tile %d%s" % (num, suit))


def tile_name(i):
    if i >= FLOWER_BASE:
        return "%df" % (i - FLOWER_BASE)
    for s, b in (("z", 27), ("s", 18), ("p", 9), ("m", 0)):
        if i >= b:
            return "%d%s" % (i - b + 1, s)
    return "?"


_TOKEN = re.compile(r"([0-9]+)([mpszf])")


def parse_tiles(value, what="tiles"):
    """Accepts '1m2m3m', '123m', '1m 2m', or a list of such strings. Returns list of indices."""
    if value is None:
        return []
    if isinstance(value, list):
        out = []
        for v in value:
            if not isinstance(v, str):
                raise InputError("%s: list item is not a string" % what)
            out.extend(parse_tiles(v, what))
        return out
    if not isinstance(value, str):
        raise InputError("%s: not a string" % what)
    s = re.sub(r"[\s,]+", "", value.lower())
    out = []
    pos = 0
    for m in _TOKEN.finditer(s):
        if m.start() != pos:
            raise InputError("%s: cannot read %r" % (what, value))
        pos = m.end()
        suit = m.group(2)
        for ch in m.group(1):
            out.append(tile_index(int(ch), suit))
    if pos != len(s):
        raise InputError("%s: cannot read %r" % (what, value))
    return out


def is_honour(i):
    return 27 <= i <= 33


def is_wind(i):
    return 27 <= i <= 30


def is_dragon(i):
    return 31 <= i <= 33


def suit_of(i):
    if i < 9:
        return "m"
    if i < 18:
        return "p"
    if i < 27:
        return "s"
    return "z"


# ----------------------------------------------------------------------------- decomposition
def _sets_only(counts, need, allow_chow):
    """Can counts (len 34) be split into exactly `need` sets?"""
    i = 0
    while i < 34 and counts[i] == 0:
        i += 1
    if i == 34:
        return need == 0
    if need == 0:
        return False
    if counts[i] >= 3:
        counts[i] -= 3
        ok = _sets_only(counts, need - 1, allow_chow)
        counts[i] += 3
        if ok:
            return True
    if allow_chow and i < 27 and i % 9 <= 6 and counts[i + 1] and counts[i + 2]:
        counts[i] -= 1
        counts[i + 1] -= 1
        counts[i + 2] -= 1
        ok = _sets_only(counts, need - 1, allow_chow)
        counts[i] += 1
        counts[i + 1] += 1
        counts[i + 2] += 1
        if ok:
            return True
    return False


def splits(counts, need, allow_chow):
    """Sets + one pair."""
    c = list(counts)
    for p in range(34):
        if c[p] >= 2:
            c[p] -= 2
            ok = _sets_only(c, need, allow_chow)
            c[p] += 2
            if ok:
                return True
    return False


# ----------------------------------------------------------------------------- input reading
def _flag(flags, key):
    v = flags.get(key)
    if isinstance(v, str):
        return v.strip().lower() in ("true", "1", "yes")
    return v is True or (isinstance(v, (int, float)) and not isinstance(v, bool) and v != 0)


def _int(counters, key, default):
    v = counters.get(key, default)
    if v is None:
        return default
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, (int, float)):
        return int(v)
    if isinstance(v, str):
        try:
            return int(v.strip())
        except ValueError:
            raise InputError("counter %s is not an integer" % key)
    raise InputError("counter %s is not an integer" % key)


def _seat(v, what):
    if v is None:
        return None
    if isinstance(v, bool):
        raise InputError("%s is not a seat" % what)
    if isinstance(v, float) and v == int(v):
        v = int(v)
    if isinstance(v, str) and v.strip().isdigit():
        v = int(v.strip())
    if not isinstance(v, int):
        raise InputError("%s is not a seat" % what)
    return v


def read_melds(raw):
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise InputError("melds is not a list")
    melds = []
    for m in raw:
        if not isinstance(m, dict):
            raise InputError("meld is not an object")
        typ = m.get("type")
        if not isinstance(typ, str):
            raise InputError("meld type missing")
        typ = typ.strip().lower()
        typ = {"chi": "chow", "peng": "pung", "pong": "pung", "gang": "kong"}.get(typ, typ)
        conc_alias = typ in ("concealed_kong", "ankong", "an_gang", "angang")
        if conc_alias:
            typ = "kong"
        tiles = parse_tiles(m.get("tiles"), "meld tiles")
        conc = m.get("concealed") is True or conc_alias
        frm = _seat(m.get("from"), "meld from")
        melds.append({"type": typ, "tiles": tiles, "concealed": conc, "from": frm})
    return melds


# ----------------------------------------------------------------------------- scoring
def score(case):
    if not isinstance(case, dict):
        raise InputError("case is not an object")
    inp = case.get("input")
    if not isinstance(inp, dict):
        raise InputError("input is not an object")

    concealed = parse_tiles(inp.get("concealed"), "concealed")
    melds = read_melds(inp.get("melds"))
    wt_raw = inp.get("win_tile")
    win_tiles = parse_tiles(wt_raw, "win_tile") if wt_raw not in (None, "") else []
    flowers = parse_tiles(inp.get("flowers"), "flowers")

    win_by = inp.get("win_by") or "self_draw"
    if not isinstance(win_by, str):
        raise InputError("win_by is not a string")
    win_by = win_by.strip().lower()
    aliases = {"selfdraw": "self_draw", "self-draw": "self_draw", "tsumo": "self_draw",
               "ron": "discard", "rob_kong": "robbing_kong", "robbing-kong": "robbing_kong",
               "robkong": "robbing_kong", "rob": "robbing_kong"}
    win_by = aliases.get(win_by, win_by)
    if win_by not in ("self_draw", "discard", "robbing_kong"):
        raise InputError("unknown win_by %r" % win_by)

    flags = inp.get("flags")
    flags = flags if isinstance(flags, dict) else {}
    counters = inp.get("counters")
    counters = counters if isinstance(counters, dict) else {}

    discarder = _seat(inp.get("discarder"), "discarder")
    if win_by in ("discard", "robbing_kong"):
        if discarder not in (1, 2, 3):
            raise InputError("discard/robbing win needs discarder 1-3")
    else:
        discarder = None  # P8

    base = _int(counters, "base", DEFAULT_BASE)
    huangfan = _int(counters, "huangfan", 0)
    contract_with = _int(counters, "contract_with", 0)

    # ---- structural checks (W10)
    for f in flowers:
        if f < FLOWER_BASE:
            raise Invalid("bad_flowers")
    if len(set(flowers)) != len(flowers):
        raise Invalid("too_many_copies")
    all_hand = list(concealed) + list(win_tiles)
    for m in melds:
        all_hand.extend(m["tiles"])
    if any(t >= FLOWER_BASE for t in all_hand):
        raise Invalid("flower_in_hand")
    counts_all = [0] * 34
    for t in all_hand:
        counts_all[t] += 1
    if any(c > 4 for c in counts_all):
        raise Invalid("too_many_copies")
    for m in melds:
        t = m["tiles"]
        if m["type"] == "chow":
            s = sorted(t)
            if not (len(s) == 3 and s[0] < 27 and suit_of(s[0]) == suit_of(s[2])
                    and s[1] == s[0] + 1 and s[2] == s[0] + 2):
                raise Invalid("bad_meld")
        elif m["type"] == "pung":
            if not (len(t) == 3 and len(set(t)) == 1):
                raise Invalid("bad_meld")
        elif m["type"] == "kong":
            if not (len(t) == 4 and len(set(t)) == 1):
                raise Invalid("bad_meld")
        else:
            raise Invalid("bad_meld")

    eight = _flag(flags, "eight_flowers_win")
    if not eight:
        if len(win_tiles) != 1 or len(concealed) + 3 * len(melds) != 13:
            raise Invalid("wrong_tile_count")
    elif len(win_tiles) > 1:
        raise Invalid("wrong_tile_count")

    # W7: chows only from upstream (seat 3)
    for m in melds:
        if m["type"] == "chow" and not m["concealed"] and m["from"] in (1, 2):
            raise Invalid("chow_not_from_upstream")
    # W8: robbing an added kong
    if win_by == "robbing_kong" and win_tiles:
        w = win_tiles[0]
        own = sum(1 for t in concealed if t == w) + sum(1 for m in melds for t in m["tiles"] if t == w)
        if own > 0:
            raise Invalid("robbing_kong_impossible")

    # ---- contract partner (P5)
    # Only the counter says who the partner is; melds' `from` are not used to infer one.
    partner = contract_with if contract_with in (1, 2, 3) else None
    mutual = 2 if (partner is not None and _flag(flags, "contract_mutual")) else 1

    kaibao = _flag(flags, "kaibao")
    huang = huangfan >= 1

    fans = []
    pattern = None
    paid_like_self_draw = False

    if eight:
        # W9 八花齐
        if len(set(flowers)) != 8:
            raise Invalid("eight_flowers_incomplete")
        pattern = "八花齐"
        value = 2 * LE
        capbase = 2
        fans.append({"id": "八花齐", "points": 2 * LE, "count": 1})
        menqing = False
        paid_like_self_draw = True
    else:
        w = win_tiles[0]
        hand = [0] * 34
        for t in concealed:
            hand[t] += 1
        hand[w] += 1
        need = 4 - len(melds)
        suits = set()
        honours = False
        for t in all_hand:
            if is_honour(t):
                honours = True
            else:
                suits.add(suit_of(t))
        has_chow_meld = any(m["type"] == "chow" for m in melds)
        pung_hand = (not has_chow_meld) and splits(hand, need, False)
        complete = pung_hand or ((need >= 0) and splits(hand, need, True))

        if not suits:
            # W5: only honours
            pattern = "风碰" if pung_hand else "风一色"
        else:
            if not complete:
                raise Invalid("not_complete")
            if len(suits) == 1 and not honours:
                pattern = "清碰" if pung_hand else "清一色"
            elif len(suits) == 1:
                pattern = "混碰" if pung_hand else "混一色"
            elif pung_hand:
                pattern = "碰碰胡"
            else:
                raise Invalid("no_qualifying_pattern")
        if not _flag(flags, "knocked"):
            raise Invalid("not_knocked")  # W1

        # H: 花
        flower_items = []
        if flowers:
            flower_items.append(("花牌", 1, len(flowers)))
        kinds = {}

        def add(name, pts):
            kinds[name] = (pts, kinds.get(name, (pts, 0))[1] + 1)

        for m in melds:
            t0 = m["tiles"][0]
            if m["type"] == "kong":
                if is_wind(t0):
                    add("风暗杠", 3) if m["concealed"] else add("风明杠", 2)
                elif is_dragon(t0):
                    add("箭暗杠", 4) if m["concealed"] else add("箭明杠", 3)
                else:
                    add("暗杠", 2) if m["concealed"] else add("明杠", 1)
            elif m["type"] == "pung":
                if is_wind(t0):
                    add("风刻", 1)
                elif is_dragon(t0):
                    add("箭刻", 2)
        if complete:
            for i in range(27, 34):
                if hand[i] >= 3:  # honours in a complete hand: 3 = pung (H5)
                    add("风刻", 1) if is_wind(i) else add("箭刻", 2)
        for name in ("明杠", "暗杠", "风刻", "风明杠", "风暗杠", "箭刻", "箭明杠", "箭暗杠"):
            if name in kinds:
                flower_items.append((name, kinds[name][0], kinds[name][1]))
        hua = sum(p * c for _, p, c in flower_items)

        # 门清 (D3): no chow, no pung, no exposed kong
        menqing = all(m["type"] == "kong" and m["concealed"] for m in melds)

        # floors (D6)
        gangkai = False
        if win_by == "self_draw":
            if _flag(flags, "kong_replacement") and any(m["type"] == "kong" for m in melds):
                gangkai = True
            if _flag(flags, "flower_replacement") and flowers:
                gangkai = True
        dadiao = (len(melds) == 4 and len(concealed) == 1 and concealed[0] == w)

        lez = {"清一色": 1, "混碰": 1, "清碰": 2, "风一色": 2, "风碰": 4}
        if pattern in lez:
            value = LE * lez[pattern]
            fans.append({"id": pattern, "points": value, "count": 1})
            capbase = {"清一色": 1, "混碰": 1, "清碰": 2, "风一色": 2, "风碰": 4}[pattern]
        else:
            fans.append({"id": pattern, "points": 2, "count": 1})
            for name, p, c in flower_items:
                fans.append({"id": name, "points": p, "count": c})
            value = hua * 2
            capbase = 1
        if gangkai:
            fans.append({"id": "杠开", "points": LE, "count": 1})
        if dadiao:
            fans.append({"id": "大吊车", "points": LE, "count": 1})
        if gangkai or dadiao:
            value = max(value, LE)
        if menqing:
            value *= 2
            capbase = max(capbase, 2)
            fans.append({"id": "门清", "points": 2, "count": 1})

    mult = 1
    if kaibao:
        value *= 2
        mult *= 2
        fans.append({"id": "开宝", "points": 2, "count": 1})
    if huang:
        value *= 2
        mult *= 2
        fans.append({"id": "荒番", "points": 2, "count": 1})
    cap = LE * capbase * mult
    total = value
    if value > cap:
        total = cap
        fans.append({"id": "勒子", "points": cap, "count": cap // LE})

    # ---- payments (P)
    share = base + total
    owe = {1: 0, 2: 0, 3: 0}
    if paid_like_self_draw or win_by == "self_draw":
        for s in (1, 2, 3):
            owe[s] = 1
        if partner is not None:
            owe[partner] = 5 * mutual  # P6a
    elif win_by == "robbing_kong":
        owe[discarder] += 3  # P3
        if partner is not None:
            owe[partner] += 3 * mutual  # P6e
    else:  # discard
        D = discarder
        if partner is None:
            owe[D] = 1
        elif D == partner:
            owe[D] = 2 * mutual  # P6b
        elif _flag(flags, "contract_partner_also_won"):
            owe[D] = 1 if _flag(flags, "discarder_ready") else 2  # P6d
        elif _flag(flags, "discarder_ready"):
            owe[D] = 1
            owe[partner] = 1 * mutual  # P6c
        else:
            owe[D] = 2  # P6c
        # P4 清一色九张落地包输
        if (pattern in ("清一色", "清碰") and len(melds) >= 3
                and not _flag(flags, "discarder_called_three_fan")):
            amount = max(3, owe[D])
            owe = {1: 0, 2: 0, 3: 0}
            owe[D] = amount
    payments = [0, 0, 0, 0]
    for s in (1, 2, 3):
        amt = owe[s] * share
        if amt > PLAYER_HAND_CAP:
            amt = PLAYER_HAND_CAP  # D9 / P9
        payments[s] = -amt
    payments[0] = -sum(payments[1:])
    return {"valid": True, "total": total, "fans": fans, "payments": payments}


def run_case(case):
    try:
        return {"result": score(case)}
    except Invalid as e:
        return {"result": {"valid": False, "error": e.rule}}
    except InputError as e:
        return {"error": str(e)}
    except Exception as e:  # never crash
        return {"error": "internal: %s" % e.__class__.__name__}


# ----------------------------------------------------------------------------- protocol
def serve():
    out = sys.stdout
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            msg = json.loads(line)
        except Exception:
            out.write(json.dumps({"error": "bad json"}, ensure_ascii=False) + "\n")
            out.flush()
            continue
        if not isinstance(msg, dict):
            out.write(json.dumps({"error": "not an object"}, ensure_ascii=False) + "\n")
            out.flush()
            continue
        cmd = msg.get("cmd")
        if cmd == "start":
            ans = {"name": NAME, "version": VERSION, "rulesets": [RULESET], "kinds": ["score"],
                   "fields": ["valid", "total", "fans", "payments", "error"], "rule_ids": "own"}
        elif cmd == "run":
            ans = {"id": msg.get("id")}
            ans.update(run_case(msg.get("case")))
        elif cmd == "stop":
            break
        else:
            ans = {"error": "unknown cmd"}
            if "id" in msg:
                ans["id"] = msg.get("id")
        out.write(json.dumps(ans, ensure_ascii=False) + "\n")
        out.flush()


# ----------------------------------------------------------------------------- self test
def _case(concealed, win, melds=None, by="self_draw", disc=None, flowers="", flags=None, counters=None):
    fl = {"knocked": True}
    fl.update(flags or {})
    return {"id": "t", "ruleset": RULESET, "options": {}, "kind": "score",
            "input": {"concealed": concealed, "melds": melds or [], "win_tile": win, "win_by": by,
                      "discarder": disc, "flowers": flowers, "flags": fl, "counters": counters or {}}}


def _m(typ, tiles, frm=3, conc=False):
    return {"type": typ, "tiles": tiles, "concealed": conc, "from": frm}


SELFTESTS = [
    # (name, case, expected: dict with valid / total / payments / error)
    ("README example: 清一色 pung hand -> 清碰 2勒, 门清 keeps cap 2 -> 20; self-draw 3x(2+20)",
     _case("1m1m1m2m2m2m3m3m3m4m4m4m5m", "5m"),
     {"valid": True, "total": 20, "payments": [66, -22, -22, -22]}),
    ("碰碰胡 mixed suits, 1 flower + 中 pung(2) = 3花 x2 = 6; discard by 1 -> 1 share 2+6",
     _case("1m1m1m5p5p5p9s", "9s", [_m("pung", "777z", 1), _m("pung", "222s", 2)],
           by="discard", disc=1, flowers="1f"),
     {"valid": True, "total": 6, "payments": [8, -8, 0, 0]}),
    ("混一色 with chows + 东 pung, exposed 1p kong: 花 = 1(东刻)+1(明杠) = 2 x2 = 4; self-draw",
     _case("2p3p4p6p7p8p1z1z1z9p", "9p", [_m("kong", "1111p", 2)]),
     {"valid": True, "total": 4, "payments": [18, -6, -6, -6]}),
    ("平胡 (mixed suits with chows) may not win",
     _case("1m2m3m4p5p6p7s8s9s1z1z1z5m", "5m"),
     {"valid": False, "error": "no_qualifying_pattern"}),
    ("not knocked -> invalid",
     _case("1m1m1m2m2m2m3p3p3p4s4s4s5m", "5m", flags={"knocked": False}),
     {"valid": False, "error": "not_knocked"}),
    ("清一色 with chows (1勒) exposed, discard by 3 -> 1 share 12",
     _case("1s2s3s4s5s6s7s", "7s", [_m("chow", "789s", 3), _m("pung", "999s", 1)],
           by="discard", disc=3),
     {"valid": True, "total": 10, "payments": [12, 0, 0, -12]}),
    ("清碰 + 开宝 = 4勒 (document example); exposed -> self-draw 3 x 42, capped at 50? no: 42",
     _case("1p1p1p3p3p3p5p", "5p", [_m("pung", "777p", 1), _m("pung", "999p", 2)],
           flags={"kaibao": True}),
     {"valid": True, "total": 40, "payments": [126, -42, -42, -42]}),
    ("风碰 + 荒番 = 8勒 (document example): total 80; each loser capped at 5勒 = 50",
     _case("1z1z1z2z2z2z5z", "5z", [_m("pung", "333z", 1), _m("pung", "777z", 2)],
           counters={"huangfan": 2}),
     {"valid": True, "total": 80, "payments": [150, -50, -50, -50]}),
    ("风一色 乱风 (no sets) = 2勒 = 20, discard by 2",
     _case("1z2z3z4z5z6z7z1z2z3z4z5z6z", "7z", by="discard", disc=2),
     {"valid": True, "total": 20, "payments": [22, 0, -22, 0]}),
    ("杠开 lifts a small 碰碰胡 (暗杠 2m = 2花, x2 = 4) to 1勒; 门清 doubles to 2勒",
     _case("1p1p1p5s5s5s8m8m8m9s", "9s", [_m("kong", "2222m", None, True)],
           flags={"kong_replacement": True}),
     {"valid": True, "total": 20, "payments": [66, -22, -22, -22]}),
    ("大吊车 碰碰胡 0花 -> 1勒 10; discard by 3",
     _case("5m", "5m", [_m("pung", "111p", 3), _m("pung", "222s", 1), _m("pung", "999m", 2),
                         _m("pung", "444s", 3)], by="discard", disc=3),
     {"valid": True, "total": 10, "payments": [12, 0, 0, -12]}),
    ("八花齐 = 2勒 immediate win, no knock needed, paid as self-draw",
     _case("", None, flowers="1f2f3f4f5f6f7f8f", flags={"eight_flowers_win": True, "knocked": False}),
     {"valid": True, "total": 20, "payments": [66, -22, -22, -22]}),
    ("contract self-draw: partner 2 pays 5 shares, others 1; 碰碰胡 2花 -> 4, share 6",
     _case("1m1m1m5p5p5p9s", "9s", [_m("pung", "777z", 1), _m("pung", "222s", 2)],
           counters={"contract_with": 2}),
     {"valid": True, "total": 4, "payments": [42, -6, -30, -6]}),
    ("contract, third-party discard by a ready player: D 1 share + partner 1 share",
     _case("1m1m1m5p5p5p9s", "9s", [_m("pung", "777z", 1), _m("pung", "222s", 2)],
           by="discard", disc=1, counters={"contract_with": 2}, flags={"discarder_ready": True}),
     {"valid": True, "total": 4, "payments": [12, -6, -6, 0]}),
    ("contract with seat 1, discard by the partner -> 2 shares",
     _case("1m1m1m9s", "9s", [_m("pung", "777z", 1), _m("pung", "222s", 1), _m("pung", "555p", 1)],
           by="discard", disc=1, counters={"contract_with": 1}),
     {"valid": True, "total": 4, "payments": [12, -12, 0, 0]}),
    ("three melds from seat 1 but no contract_with: no contract, discard by 1 -> 1 share",
     _case("1m1m1m9s", "9s", [_m("pung", "777z", 1), _m("pung", "222s", 1), _m("pung", "555p", 1)],
           by="discard", disc=1),
     {"valid": True, "total": 4, "payments": [6, -6, 0, 0]}),
    ("mutual contract, self-draw: partner pays 5x2 = 10 shares, capped at 50 per loser",
     _case("1m1m1m5p5p5p9s", "9s", [_m("pung", "777z", 1), _m("pung", "222s", 2)],
           counters={"contract_with": 3}, flags={"contract_mutual": True}),
     {"valid": True, "total": 4, "payments": [62, -6, -6, -50]}),
    ("contract, robbing a kong by the partner himself: 3 + 3 = 6 shares",
     _case("2p3p5p5p5p7p8p9p1z1z1z6z6z", "4p", by="robbing_kong", disc=2,
           counters={"contract_with": 2}),
     {"valid": True, "total": 4, "payments": [36, 0, -36, 0]}),
    ("contract, third-party discard by a player not ready: D pays 2 shares",
     _case("1m1m1m5p5p5p9s", "9s", [_m("pung", "777z", 1), _m("pung", "222s", 2)],
           by="discard", disc=1, counters={"contract_with": 2}),
     {"valid": True, "total": 4, "payments": [12, -12, 0, 0]}),
    ("荒番 count 3 doubles once; 开宝 too: 碰碰胡 3花 x2 x2 x2 = 24, cap 1x2x2 = 40",
     _case("1m1m1m5p5p5p9s", "9s", [_m("pung", "777z", 1), _m("pung", "222s", 2)],
           flowers="1f", flags={"kaibao": True}, counters={"huangfan": 3}),
     {"valid": True, "total": 24, "payments": [78, -26, -26, -26]}),
    ("杠开 flag on a discard win does not fit: ignored",
     _case("1m1m1m5p5p5p9s", "9s", [_m("pung", "777z", 1), _m("pung", "222s", 2)],
           by="discard", disc=1, flags={"kong_replacement": True}),
     {"valid": True, "total": 4, "payments": [6, -6, 0, 0]}),
    ("robbing a kong on a chow wait: 门清混一色, 东 pung 1花 x2 x2 = 4; robbed seat 2 pays 3 x 6",
     _case("2p3p5p5p5p7p8p9p1z1z1z6z6z", "4p", by="robbing_kong", disc=2),
     {"valid": True, "total": 4, "payments": [18, 0, -18, 0]}),
    ("robbing a kong with a copy of the tile already held -> impossible",
     _case("1m1m1m5p5p5p9s9s9s3s", "3s", [_m("pung", "222s", 1)], by="robbing_kong", disc=2),
     {"valid": False, "error": "robbing_kong_impossible"}),
    ("清一色九张落地包输: 3 melds, discard -> discarder pays 3 shares",
     _case("1s2s3s7s", "7s", [_m("chow", "456s", 3), _m("pung", "999s", 1), _m("pung", "222s", 2)],
           by="discard", disc=1),
     {"valid": True, "total": 10, "payments": [36, -36, 0, 0]}),
    ("... but not if the discarder called on three fan (三番叫胡可不包)",
     _case("1s2s3s7s", "7s", [_m("chow", "456s", 3), _m("pung", "999s", 1), _m("pung", "222s", 2)],
           by="discard", disc=1, flags={"discarder_called_three_fan": True}),
     {"valid": True, "total": 10, "payments": [12, -12, 0, 0]}),
    ("chow from across is not allowed",
     _case("1s2s3s4s5s6s7s", "7s", [_m("chow", "789s", 2), _m("pung", "999s", 1)]),
     {"valid": False, "error": "chow_not_from_upstream"}),
    ("incomplete one-suit hand",
     _case("1m2m4m5m7m8m1p1p1p2p2p2p3p", "9s"),
     {"valid": False, "error": "not_complete"}),
    ("碰碰胡 with many 花 capped at 1勒: 中 明杠(3)+发 pung(2)+4 flowers = 9 x2 = 18 -> 10",
     _case("1m1m1m6z6z6z9s9s5p5p", "9s", [_m("kong", "7777z", 1)], by="discard", disc=3,
           flowers="1f2f3f4f"),
     {"valid": True, "total": 10, "payments": [12, 0, 0, -12]}),
    ("base counter 5 replaces 底分 2",
     _case("1m1m1m5p5p5p9s", "9s", [_m("pung", "777z", 1), _m("pung", "222s", 2)],
           by="discard", disc=1, flowers="1f", counters={"base": 5}),
     {"valid": True, "total": 6, "payments": [11, -11, 0, 0]}),
]


def selftest():
    ok = 0
    for name, case, exp in SELFTESTS:
        got = run_case(case).get("result")
        good = got is not None and all(got.get(k) == v for k, v in exp.items())
        ok += good
        print("%s  %s" % ("PASS" if good else "FAIL", name))
        print("      expected: %s" % json.dumps(exp, ensure_ascii=False))
        print("      got:      %s" % json.dumps(got, ensure_ascii=False))
    print("%d/%d passed" % (ok, len(SELFTESTS)))
    return ok == len(SELFTESTS)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--selftest":
        sys.exit(0 if selftest() else 1)
    serve()
