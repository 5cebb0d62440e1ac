"""Botzone's Chinese Standard Mahjong matches (the judge of the IJCAI 2020 competition), duplicate format.

A match log is `{"log": [...], "initdata": ...}` (a match page's JSON names the list `logs`): entries at even
places are the judge's turns, each `output.display` saying what happened (`DEAL`, `DRAW`, `PLAY`, `PENG`, `CHI`,
`GANG`, `BUGANG`, `HU`, `HUANG`, or a penalty code), entries at odd places the four players' responses.
`initdata` (an object, or the same as a JSON string) holds `walltiles`, the tiles separated by spaces, and `quan`,
the prevalent wind (0-3, East first).

The duplicate format's wall is 136 tiles, no flowers, cut into four parts of 34: player i's part is tiles
34i..34i+33, and it is dealt, draws and draws its kong replacements from the end of its own part; player 0 deals
and draws first; player i sits at wind i. So the game log plays MCR under `wall_model=quarters` and
`flower_tiles_in_wall=false`, each seat's quarter its part read from the end, dealer seat 0 (the dealer's 14th
dealt tile is the judge's first DRAW), round wind `quan`.

Tiles: W1-W9 characters (1m-9m), B1-B9 dots (1p-9p), T1-T9 bamboos (1s-9s), F1-F4 East to North (1z-4z), J1-J3
red, green, white (7z, 6z, 5z). A PENG or CHI display's `tile` is the tile discarded after the claim (CHI's
`tileCHI` is the chow's middle tile); a GANG is concealed when the same player drew just before it, else the
claim of the last discard; HU names no tile: a win on the player's own draw is self-drawn, after a discard on
it, after a BUGANG by robbing that kong.

The single-wall format of the same judge (144 tiles with flowers, every draw and replacement from the one end)
is refused: the table draws replacements from the wall's back, a reading no option gives it.
"""
from __future__ import annotations

import json
from typing import Any, Iterable, Mapping, Sequence

from checker import tiles as T
from checker.matchlog import Imported, MatchLogError
from checker.table.log import GAME, VERSION

RULESET = "mcr"
OPTIONS = {"wall_model": "quarters", "flower_tiles_in_wall": False}
PART = 34  # tiles a seat's part holds
SEATS = 4
WINDS = "ESWN"
_SUITS = {"W": "m", "B": "p", "T": "s"}
_HONOURS = {"F1": "1z", "F2": "2z", "F3": "3z", "F4": "4z", "J1": "7z", "J2": "6z", "J3": "5z"}
_NAMES = {v: k for k, v in _HONOURS.items()}


def tile(name: str, where: str) -> str:
    """A Botzone tile name as this project writes the tile ("W5" -> "5m")."""
    if name in _HONOURS:
        return _HONOURS[name]
    if len(name) == 2 and name[0] in _SUITS and name[1] in "123456789":
        return name[1] + _SUITS[name[0]]
    raise MatchLogError(f"{where}: {name[:20]!r} is not a tile of the duplicate format (W1-W9, B1-B9, T1-T9, "
                        f"F1-F4, J1-J3)")


def botzone_name(text: str) -> str:
    """This project's tile as Botzone writes it ("5m" -> "W5")."""
    if text in _NAMES:
        return _NAMES[text]
    for letter, suit in _SUITS.items():
        if text.endswith(suit):
            return letter + text[0]
    raise MatchLogError(f"{text!r} has no name in the duplicate format (flowers are not in its wall)")


def _object(value: Any, where: str) -> dict[str, Any]:
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError as exc:
            raise MatchLogError(f"{where}: not JSON ({exc.msg})") from None
    if not isinstance(value, dict):
        raise MatchLogError(f"{where}: an object is expected")
    return value


def read(data: Any) -> Imported:
    """The game log of one recorded match (see the module)."""
    match = _object(data, "the match log")
    entries = match.get("log", match.get("logs"))
    if not isinstance(entries, list) or not entries:
        raise MatchLogError("the match log holds no `log` list of the judge's and players' turns")
    init = _object(match.get("initdata", {}), "initdata")
    if "walltiles" not in init:
        init = _initdata_from_turns(entries) or init
    names = str(init.get("walltiles", "")).split()
    if len(names) == 144:
        raise MatchLogError("initdata.walltiles holds 144 tiles: the single-wall format, whose replacements are drawn "
                            "from the live end of the wall; only the duplicate format (136 tiles, four parts of 34) "
                            "is read")
    if len(names) != SEATS * PART:
        raise MatchLogError(f"initdata.walltiles holds {len(names)} tiles; the duplicate format's wall is "
                            f"{SEATS * PART}")
    wall = [tile(n, f"initdata.walltiles[{i}]") for i, n in enumerate(names)]
    quarters = ["".join(reversed(wall[PART * s:PART * (s + 1)])) for s in range(SEATS)]
    quan = init.get("quan", 0)
    if not isinstance(quan, int) or isinstance(quan, bool) or not 0 <= quan <= 3:
        raise MatchLogError(f"initdata.quan is {str(quan)[:20]!r}; the prevalent wind is 0-3 (East first)")
    header: dict[str, Any] = {"game": GAME, "version": VERSION, "ruleset": RULESET, "options": dict(OPTIONS),
                              "wall": quarters, "dealer": 0, "round_wind": WINDS[quan],
                              "note": "imported from a Botzone match log (duplicate format)"}
    players = match.get("players")
    if isinstance(players, list) and len(players) == SEATS and all(isinstance(p, dict) for p in players):
        header["seats"] = [str(p.get("name", f"player {i}"))[:64] for i, p in enumerate(players)]
    out = Imported(header, [])
    _events(out, [_display(e, i) for i, e in enumerate(entries) if i % 2 == 0])
    return out


def _initdata_from_turns(entries: Sequence[Any]) -> dict[str, Any] | None:
    """The judge writes initdata back on its first turn; a log saved without it still holds it there."""
    first: dict[str, Any] = entries[0] if entries and isinstance(entries[0], dict) else {}
    output = first.get("output")
    init = output.get("initdata") if isinstance(output, dict) else None
    return _object(init, "log[0].output.initdata") if init is not None else None


def _display(entry: Any, place: int) -> dict[str, Any]:
    where = f"log[{place}]"
    if not isinstance(entry, dict) or not isinstance(entry.get("output"), dict):
        raise MatchLogError(f"{where}: a judge's turn holds an `output` object")
    display = entry["output"].get("display", {})
    return {**_object(display, f"{where}.output.display"), "_where": where}


def _events(out: Imported, displays: Iterable[dict[str, Any]]) -> None:
    events = out.events
    previous: dict[str, Any] = {}
    dealt = False
    for d in displays:
        action, where = d.get("action"), d["_where"]
        seat = d.get("player")
        if action in (None, "INIT"):
            continue
        if action == "DEAL":
            dealt = True
            continue
        if not dealt:
            raise MatchLogError(f"{where}: {action} before the deal")
        if action == "HUANG":
            events.append({"event": "draw_game"})
            out.recorded_payments = [0] * SEATS
            return
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < SEATS:
            raise MatchLogError(f"{where}: {action} names no player 0-3")
        if action == "HU":
            # the winning tile: the player's own draw, else the discard or the added kong's tile just before
            won_on = previous.get("tile")
            events.append({"event": "win", "seat": seat,
                           **({"tile": tile(str(won_on), f"{where}: the tile before it")} if won_on else {})})
            score = d.get("score")
            if isinstance(score, list) and len(score) == SEATS and all(isinstance(x, int) for x in score):
                out.recorded_payments = list(score)
            out.recorded = {"fans": d.get("fan"), "fan_total": d.get("fanCnt")}
            return
        if action not in ("DRAW", "PLAY", "PENG", "CHI", "GANG", "BUGANG"):  # a penalty: the judge's own code
            out.ended_by_penalty = f"{str(action)[:20]} by player {seat}"
            score = d.get("score")
            if isinstance(score, list) and len(score) == SEATS:
                out.recorded_payments = list(score)
            return
        t = tile(str(d.get("tile", "")), f"{where}.tile")
        if action == "DRAW":
            if not (not events and seat == 0 and previous == {}):  # the dealer's first draw is its 14th dealt tile
                replacement = previous.get("action") in ("GANG", "BUGANG") and previous.get("player") == seat
                events.append({"event": "draw", "seat": seat, "tile": t, **({"from": "back"} if replacement else {})})
        elif action == "PLAY":
            events.append({"event": "discard", "seat": seat, "tile": t})
        elif action == "PENG":
            events += [{"event": "pung", "seat": seat}, {"event": "discard", "seat": seat, "tile": t}]
        elif action == "CHI":
            named = tile(str(d.get("tileCHI", "")), f"{where}.tileCHI")
            if named[1] not in "mps" or named[0] in "19":
                raise MatchLogError(f"{where}.tileCHI: {botzone_name(named)} cannot be a chow's middle tile "
                                    f"(a suit tile 2-8)")
            middle = T.parse_tile(named)
            chow = T.format_tiles([middle - 1, middle, middle + 1])
            events += [{"event": "chow", "seat": seat, "tiles": chow}, {"event": "discard", "seat": seat, "tile": t}]
        elif action == "GANG":
            own = previous.get("action") == "DRAW" and previous.get("player") == seat
            events.append({"event": "concealed_kong", "seat": seat, "tile": t} if own else {"event": "kong", "seat": seat})
        else:  # BUGANG
            events.append({"event": "add_kong", "seat": seat, "tile": t})
        previous = d
    raise MatchLogError("the match log ends before the hand does (no HU, HUANG or penalty)")


def write(header: Mapping[str, Any], events: Sequence[Mapping[str, Any]],
          result: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A game log (MCR under quarters without flowers, dealer 0, its wall given as four quarters) as the judge
    records a match: initdata and the judge's displays (players' turns carry the acting player's response)."""
    if header.get("ruleset") != RULESET or any((header.get("options") or {}).get(k) != v for k, v in OPTIONS.items()):
        raise MatchLogError(f"only an {RULESET} log under {', '.join(f'{k}={v}' for k, v in OPTIONS.items())} is a "
                            f"duplicate-format match")
    if header.get("dealer", 0) != 0:
        raise MatchLogError("the judge's dealer is always player 0; the log's dealer is seat "
                            f"{header.get('dealer')}")
    quarters = header.get("wall")
    if not (isinstance(quarters, list) and len(quarters) == SEATS):
        raise MatchLogError("the log's header gives no wall as four quarters")
    parts = [list(reversed(T.parse_tiles(q))) for q in quarters]
    if any(len(p) != PART for p in parts):
        raise MatchLogError(f"each quarter of the wall must hold {PART} tiles")
    walltiles = " ".join(botzone_name(T.format_tiles([t])) for p in parts for t in p)
    quan = WINDS.index(str(header.get("round_wind", "E")))
    log: list[dict[str, Any]] = []

    def turn(display: dict[str, Any], response: tuple[int, str] | None = None) -> None:
        log.append({"output": {"command": "request", "display": display}})
        log.append({str(s): {"response": response[1] if response and response[0] == s else "PASS"}
                    for s in range(SEATS)})

    turn({"action": "INIT", "quan": quan})
    hands = [[botzone_name(T.format_tiles([t])) for t in reversed(p[-13:])] for p in parts]
    turn({"action": "DEAL", "hand": hands})
    turn({"action": "DRAW", "player": 0, "tile": botzone_name(T.format_tiles([parts[0][-14]]))})
    drawn = [14 if s == 0 else 13 for s in range(SEATS)]  # tiles each seat has taken from its quarter
    i = 0
    while i < len(events):
        e = events[i]
        kind, raw_seat = e.get("event"), e.get("seat")
        if kind != "draw_game" and not (isinstance(raw_seat, int) and 0 <= raw_seat < SEATS):
            raise MatchLogError(f"event {i}: {kind!r} names no seat 0-3")
        seat = int(raw_seat or 0)
        following = events[i + 1] if i + 1 < len(events) else {}
        if kind == "draw":
            if drawn[seat] >= PART:
                raise MatchLogError(f"event {i}: a draw the seat's quarter cannot give")
            taken = parts[seat][PART - 1 - drawn[seat]]  # a part is drawn from its end
            drawn[seat] += 1
            turn({"action": "DRAW", "player": seat, "tile": botzone_name(T.format_tiles([taken]))})
        elif kind == "discard":
            turn({"action": "PLAY", "player": seat, "tile": botzone_name(str(e["tile"]))},
                 (seat, f"PLAY {botzone_name(str(e['tile']))}"))
        elif kind in ("pung", "chow") and following.get("event") == "discard" and following.get("seat") == seat:
            out = botzone_name(str(following["tile"]))
            if kind == "pung":
                turn({"action": "PENG", "player": seat, "tile": out}, (seat, f"PENG {out}"))
            else:
                middle = botzone_name(T.format_tiles([T.parse_tiles(str(e["tiles"]))[1]]))
                turn({"action": "CHI", "player": seat, "tile": out, "tileCHI": middle}, (seat, f"CHI {middle} {out}"))
            i += 1
        elif kind == "kong":
            turn({"action": "GANG", "player": seat, "tile": _last_discard(events[:i])}, (seat, "GANG"))
        elif kind == "concealed_kong":
            name = botzone_name(str(e["tile"]))
            turn({"action": "GANG", "player": seat, "tile": name}, (seat, f"GANG {name}"))
        elif kind == "add_kong":
            name = botzone_name(str(e["tile"]))
            turn({"action": "BUGANG", "player": seat, "tile": name}, (seat, f"BUGANG {name}"))
        elif kind == "win":
            display: dict[str, Any] = {"action": "HU", "player": seat}
            if result is not None:
                display["score"] = list(result.get("payments") or [0] * SEATS)
            turn(display, (seat, "HU"))
        elif kind == "draw_game":
            turn({"action": "HUANG"})
        else:
            raise MatchLogError(f"event {i}: {kind!r} has no counterpart in a Botzone match")
        i += 1
    return {"initdata": {"walltiles": walltiles, "quan": quan}, "log": log}


def _last_discard(events: Sequence[Mapping[str, Any]]) -> str:
    for e in reversed(events):
        if e.get("event") == "discard":
            return botzone_name(str(e["tile"]))
    raise MatchLogError("a kong claimed before any discard")
