"""A game judge of our own behind the engine protocol, written from the published rules of Botzone's Chinese
Standard Mahjong judge (the IJCAI 2020 competition's), not from this project's table: it holds the table
procedure to them as a third party's judge would be held (issue 42, item 7).

What it plays, as that judge does:
- one hand of MCR, 136 tiles (no flowers); each seat has its own part of the wall, 34 tiles, dealt 13, drawing its
  turns and its kong replacements from its own part only (the case's wall read as four parts, seat 0's first); the
  dealer's fourteenth tile is its first draw;
- after a discard every other seat answers at once (pass, chow, pung, kong, win): a win outranks a pung or kong,
  which outranks a chow; of several wins the nearest seat after the discarder wins; a chow only by the next seat;
- no pung, chow or kong of a discard after which the discarder's next seat has nothing left to draw (that seat's
  part is empty), only a win; no kong without a tile left in the konger's part for the replacement;
- the hand is drawn when the seat to draw has nothing left in its part;
- after a claimed pung or chow the claimer discards at once (its answer carries the discard); a concealed or
  added kong only after the player's own draw; only an added kong may be robbed;
- a win needs 8 points, counted by a fan library (that judge links one; this one asks this project's reference
  scorer, so that its departures, if any, are the procedure's alone): a win on a kong's replacement, on the last
  tile (the next seat's part empty: after a self-draw the drawer's next seat, after a discard the discarder's), with
  the other three copies of the winning tile shown (discards still lying and exposed sets; concealed kongs are not
  shown), or by robbing a kong, as the library's context;
- the winner is paid 8 + points by the discarder and 8 by each other seat, or 8 + points by each seat when self-drawn;
- any answer the rules refuse is the judge's own penalty code, never a rule id of the spec: `WA:PLAY` (a tile not
  held), `WA:CHI`, `WA:PENG`, `WA:GANG`, `WA:BUGANG` (a claim or kong its seat could not make), `WA:HU` (no
  complete hand of 8 points), `WA:ORDER` (an answer from a seat not asked, or out of turn), `WA:DRAW` (a draw the
  judge does not make: another seat, another tile, or none left).

The judge answers the verdict, the illegal answer's event and its code, how the hand ended, the winner (win kind,
points, fans) and the payments; it does not model the next hand (no next dealer or round wind), and says so in its
start reply. A case it cannot deal (flowers in the wall, or one live wall drawn in turn by every seat) it skips,
saying why. Run as a script it speaks the engine protocol on standard input and output (`cmd:` engines).
"""
from __future__ import annotations

import json
import random
import sys
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

PART = 34
SEATS = 4
WINDS = "ESWN"
BASE = 8
MINIMUM = 8
START = {"name": "quarter-wall judge (Botzone rules)", "version": "1", "rulesets": ["mcr"], "kinds": ["procedure"],
         "fields": ["verdict", "rule", "event", "ended", "winners", "payments"], "rule_ids": "own"}
SUITS = "mps"
TILES = [f"{n}{s}" for s in SUITS for n in range(1, 10)] + [f"{n}z" for n in range(1, 8)]


class Penalty(Exception):
    """An answer the judge refuses: its code and the case's event that gave it."""

    def __init__(self, code: str, event: int, why: str):
        super().__init__(why)
        self.code, self.event = code, event


class Skip(Exception):
    """A case this judge cannot deal."""


@dataclass
class Meld:
    kind: str  # chow, pung, kong
    tiles: list[str]
    source: int | None = None  # the absolute seat claimed from; None for a concealed kong
    concealed: bool = False


@dataclass
class Seat:
    part: list[str]
    hand: Counter = field(default_factory=Counter)
    melds: list[Meld] = field(default_factory=list)

    def draw(self) -> str:
        return self.part.pop(0)


def split(text: str) -> list[str]:
    return [text[i:i + 2] for i in range(0, len(text), 2)]


def next_tile(tile: str, step: int) -> str | None:
    if tile[1] not in SUITS or not 1 <= int(tile[0]) + step <= 9:
        return None
    return f"{int(tile[0]) + step}{tile[1]}"


class Judge:
    """One hand, answer by answer (see the module)."""

    def __init__(self, case: dict[str, Any], fan_library):
        data = case["input"]
        options = case.get("options") or {}
        if options.get("flower_tiles_in_wall", True) is not False:
            raise Skip("this judge's wall holds no flowers: 136 tiles (flower_tiles_in_wall=false)")
        if options.get("wall_model", "single") != "quarters":
            raise Skip("this judge deals each seat its own part of the wall (wall_model=quarters), not one live wall")
        wall = self._wall(data)
        self.seats = [Seat(wall[PART * s:PART * (s + 1)]) for s in range(SEATS)]
        self.dealer = int(data.get("dealer", 0))
        hand_number = int(data.get("hand", 0))
        self.round_wind = data.get("round_wind") or WINDS[(hand_number // 4) % 4]
        for seat in self.seats:
            for _ in range(13):
                seat.hand[seat.draw()] += 1
        dealer = self.seats[self.dealer]
        self.last_drawn: str | None = dealer.draw()  # the dealer's fourteenth tile: its first draw
        dealer.hand[self.last_drawn] += 1
        self.lying: list[str] = []  # discards still lying on the table (shown)
        self.fans = fan_library
        self.case = case

    @staticmethod
    def _wall(data: dict[str, Any]) -> list[str]:
        given = data.get("wall")
        if isinstance(given, list):
            wall = [t for part in given for t in split(part)]
        elif isinstance(given, str):
            wall = split(given)
        else:  # a seed: the 136 tiles in the documented order, shuffled as docs/contracts.md says
            wall = [t for t in TILES for _ in range(4)]
            random.Random(data["seed"]).shuffle(wall)
        if sorted(wall) != sorted(t for t in TILES for _ in range(4)):
            raise Skip("the wall is not the 136 tiles")
        return wall

    # ------------------------------------------------------------------ the hand

    def play(self) -> dict[str, Any]:
        stream = _Events(list(self.case["input"]["events"]))
        seat, how = self.dealer, "deal"  # the seat holding fourteen; how it came by its last tile
        while True:
            outcome = self._after_draw(stream, seat, how)
            if outcome is not None:
                return self._ended(stream, outcome)
            discarder = seat  # its discard lies: the others answer, until a seat draws
            while True:
                tile = self.lying[-1]
                answered = self._answers(stream, discarder, tile)
                if answered is None:  # all passed: the next seat draws, if its part holds a tile
                    seat, how = (discarder + 1) % SEATS, "draw"
                    if not self.seats[seat].part:
                        return self._ended(stream, self._drawn_hand(stream))
                    self._expect_draw(stream, seat)
                    break
                kind, claimer, index = answered
                if kind == "win":
                    return self._ended(stream, self._win(claimer, tile, "discard", discarder, index))
                self.lying.pop()
                if kind == "kong":
                    seat, how = claimer, "kong"
                    self._expect_draw(stream, claimer)
                    break
                i, e = stream.next()  # a pung or chow: its answer carries the claimer's discard
                if e is None:
                    raise _Unfinished()
                if e.get("event") != "discard" or e.get("seat") != claimer:
                    raise Penalty("WA:PENG" if kind == "pung" else "WA:CHI", i,
                                  "after a claimed set the claimer discards at once")
                self._discard(claimer, e, i)
                discarder = claimer

    def _after_draw(self, stream: _Events, seat: int, how: str) -> dict[str, Any] | None:
        """The seat holding fourteen after a draw answers: a discard (None: the others answer next), a concealed
        or added kong (then its replacement, and it answers again), or a win (the hand's outcome)."""
        while True:
            i, e = stream.next()
            if e is None:
                return {"unfinished": True}
            kind = e.get("event")
            if kind == "pass":
                continue
            if e.get("seat") != seat:
                raise Penalty("WA:ORDER", i, f"seat {seat} is to play after its draw")
            p = self.seats[seat]
            if kind == "discard":
                self._discard(seat, e, i)
                return None
            if kind == "win":
                return self._win(seat, self.last_drawn or "", "self_draw", None, i, after_kong=how == "kong")
            if kind == "concealed_kong":
                tile = str(e.get("tile", ""))
                if p.hand[tile] < 4 or not p.part:
                    raise Penalty("WA:GANG", i, "a concealed kong needs four in hand and a tile left to replace it")
                p.hand[tile] -= 4
                p.melds.append(Meld("kong", [tile] * 4, None, True))
                self._expect_draw(stream, seat)
                how = "kong"
                continue
            if kind == "add_kong":
                tile = str(e.get("tile", ""))
                pung = next((m for m in p.melds if m.kind == "pung" and m.tiles[0] == tile), None)
                if pung is None or p.hand[tile] < 1 or not p.part:
                    raise Penalty("WA:BUGANG", i, "an added kong needs an exposed pung, its fourth tile and a tile "
                                                  "left to replace it")
                p.hand[tile] -= 1
                robbed = self._robbers(stream, seat, tile)
                if robbed is not None:
                    winner, index = robbed
                    return self._win(winner, tile, "robbing_kong", seat, index)
                pung.kind, pung.tiles = "kong", [tile] * 4
                self._expect_draw(stream, seat)
                how = "kong"
                continue
            raise Penalty("WA:ORDER", i, f"{kind} is no answer after a draw")

    def _discard(self, seat: int, e: dict[str, Any], i: int) -> None:
        tile = str(e.get("tile", ""))
        if self.seats[seat].hand[tile] < 1:
            raise Penalty("WA:PLAY", i, f"seat {seat} does not hold {tile}")
        self.seats[seat].hand[tile] -= 1
        self.lying.append(tile)

    def _expect_draw(self, stream: _Events, seat: int) -> None:
        i, e = stream.next()
        while e is not None and e.get("event") == "pass":
            i, e = stream.next()
        if e is None:
            raise _Unfinished()
        if e.get("event") != "draw" or e.get("seat") != seat:
            raise Penalty("WA:DRAW", i, f"the judge draws for seat {seat} now")
        p = self.seats[seat]
        tile = p.draw()
        if e.get("tile") not in (None, tile):
            raise Penalty("WA:DRAW", i, f"seat {seat}'s part gives {tile}")
        p.hand[tile] += 1
        self.last_drawn = tile

    def _answers(self, stream: _Events, discarder: int, tile: str) -> tuple[str, int, int] | None:
        """Every other seat's answer to the discard, at once: the one the priorities make (kind, seat, event),
        or None when all pass. One-by-one claims and a `claims` event are read alike."""
        answers = self._collected(stream, discarder, ("pass", "win", "pung", "chow", "kong"))
        last = not self.seats[(discarder + 1) % SEATS].part
        made: list[tuple[int, str, int, int]] = []  # (rank, kind, seat, event)
        for seat, (kind, tiles, i) in answers.items():
            if seat == discarder:
                raise Penalty("WA:ORDER", i, "the discarder answers its own discard")
            if kind == "pass":
                continue
            p = self.seats[seat]
            if kind != "win" and last:
                raise Penalty("WA:" + {"pung": "PENG", "chow": "CHI", "kong": "GANG"}[kind], i,
                              "no set is claimed of a discard after which the next seat has nothing to draw")
            if kind == "pung" and p.hand[tile] < 2:
                raise Penalty("WA:PENG", i, f"seat {seat} holds fewer than two {tile}")
            if kind == "kong" and (p.hand[tile] < 3 or not p.part):
                raise Penalty("WA:GANG", i, f"seat {seat} holds fewer than three {tile} or nothing to replace")
            if kind == "chow":
                chow = split(str(tiles or ""))
                rest = Counter(chow)
                rest[tile] -= 1
                if seat != (discarder + 1) % SEATS or len(chow) != 3 or not self._run(chow) or tile not in chow \
                        or any(p.hand[t] < n for t, n in rest.items() if n > 0):
                    raise Penalty("WA:CHI", i, f"seat {seat} cannot chow {tiles}")
            rank = {"win": 0, "pung": 1, "kong": 1, "chow": 2}[kind]
            made.append((rank, kind, seat, i))
        if not made:
            return None
        made.sort(key=lambda m: (m[0], (m[2] - discarder) % SEATS))
        _, kind, seat, i = made[0]
        if kind == "win":
            return kind, seat, i
        p = self.seats[seat]
        if kind == "pung":
            p.hand[tile] -= 2
            p.melds.append(Meld("pung", [tile] * 3, discarder))
        elif kind == "kong":
            p.hand[tile] -= 3
            p.melds.append(Meld("kong", [tile] * 4, discarder))
        else:
            chow = split(str(answers[seat][1]))
            for t in chow:
                if t != tile:
                    p.hand[t] -= 1
            p.melds.append(Meld("chow", sorted(chow, key=TILES.index), discarder))
        return kind, seat, i

    @staticmethod
    def _run(chow: list[str]) -> bool:
        ordered = sorted(chow, key=TILES.index)
        return ordered == [ordered[0], next_tile(ordered[0], 1), next_tile(ordered[0], 2)]

    def _robbers(self, stream: _Events, konger: int, tile: str) -> tuple[int, int] | None:
        """The others answer an added kong: a win robs it (the nearest seat after the konger)."""
        answers = self._collected(stream, konger, ("pass", "win"))
        for kind, _, i in answers.values():
            if kind not in ("win", "pass"):
                raise Penalty("WA:ORDER", i, "an added kong is answered by a win or a pass only")
        wins = sorted(((seat, i) for seat, (kind, _, i) in answers.items() if kind == "win"),
                      key=lambda w: (w[0] - konger) % SEATS)
        return wins[0] if wins else None

    @staticmethod
    def _collected(stream: _Events, asker: int, kinds: tuple[str, ...]) -> dict[int, tuple[str, str | None, int]]:
        """Every other seat's answer (claim, tiles, event) to what `asker` did, as the judge collects them at
        once: one `claims` event, or answers written one by one up to the first that is not a pass (the others
        then passed)."""
        answers: dict[int, tuple[str, str | None, int]] = {}
        while True:
            i, e = stream.peek()
            if e is None:
                break
            kind = e.get("event")
            if kind == "claims":
                stream.next()
                for a in e.get("answers") or []:
                    answers[int(a["seat"])] = (str(a["claim"]), a.get("tiles"), i)
                break
            if kind not in kinds or e.get("seat") == asker or int(e["seat"]) in answers:
                break
            stream.next()
            answers[int(e["seat"])] = (str(kind), e.get("tiles"), i)
            if kind != "pass":
                break
        return answers

    # ------------------------------------------------------------------ ends

    def _win(self, seat: int, tile: str, win_by: str, discarder: int | None, i: int,
             after_kong: bool = False) -> dict[str, Any]:
        p = self.seats[seat]
        concealed = Counter(p.hand)
        if win_by == "self_draw":
            concealed[tile] -= 1
        tiles = "".join(t for t in TILES for _ in range(max(concealed[t], 0)))
        after = (seat if win_by == "self_draw" else discarder) + 1  # type: ignore[operator]
        shown = self.lying.count(tile) + sum(m.tiles.count(tile) for s in self.seats for m in s.melds
                                             if not m.concealed)
        if win_by == "discard":
            shown -= 1  # the winning discard itself
        flags = {"kong_replacement": win_by == "self_draw" and after_kong,
                 "last_tile": win_by != "robbing_kong" and not self.seats[after % SEATS].part,
                 "fourth_tile_visible": shown >= 3}
        melds = []
        for m in p.melds:
            meld: dict[str, Any] = {"type": m.kind, "tiles": "".join(m.tiles)}
            if m.concealed:
                meld["concealed"] = True
            else:
                meld["from"] = (m.source - seat) % SEATS  # type: ignore[operator]
            melds.append(meld)
        score_case = {"id": "judge-win", "ruleset": "mcr", "kind": "score",
                      "input": {"concealed": tiles, "melds": melds, "win_tile": tile, "win_by": win_by,
                                **({"discarder": (discarder - seat) % SEATS} if discarder is not None else {}),
                                "seat_wind": WINDS[(seat - self.dealer) % SEATS], "round_wind": self.round_wind,
                                "flags": {k: True for k, v in flags.items() if v}}}
        scored = self.fans(score_case)
        scored = (scored.get("either") or [scored])[0]  # equal readings: the library's first
        if not scored.get("valid") or scored.get("total", 0) < MINIMUM:
            raise Penalty("WA:HU", i, f"seat {seat}'s hand is no win of {MINIMUM} points")
        points = int(scored["total"])
        payments = [0] * SEATS
        for other in range(SEATS):
            if other != seat:
                owed = BASE + points if win_by == "self_draw" or other == discarder else BASE
                payments[other] -= owed
                payments[seat] += owed
        return {"verdict": "legal", "ended": "win", "payments": payments,
                "winners": [{"seat": seat, "win_by": win_by, "total": points, "fans": scored.get("fans", [])}]}

    def _drawn_hand(self, stream: _Events) -> dict[str, Any]:
        i, e = stream.next()
        if e is None:
            return {"unfinished": True}
        if e.get("event") != "draw_game":
            raise Penalty("WA:DRAW", i, "the seat to draw has nothing left: the hand is drawn")
        return {"verdict": "legal", "ended": "draw", "winners": [], "payments": [0] * SEATS}

    def unfinished(self) -> dict[str, Any]:
        """The log stops before the hand ends: the event it stops at, as the protocol's answer names it."""
        events = self.case["input"]["events"]
        return {"verdict": "unfinished", **({"event": len(events) - 1} if events else {})}

    def _ended(self, stream: _Events, outcome: dict[str, Any]) -> dict[str, Any]:
        if outcome.get("unfinished"):
            return self.unfinished()
        i, e = stream.next()
        if e is not None:
            return {"verdict": "bad input", "message": f"event {i}: the hand had ended"}
        return outcome


class _Unfinished(Exception):
    """The case's events stop where the judge waits for an answer."""


class _Events:
    """The case's events, read one at a time."""

    def __init__(self, events: list[dict[str, Any]]):
        self.events, self.at = events, 0

    def peek(self) -> tuple[int, dict[str, Any] | None]:
        return self.at, (self.events[self.at] if self.at < len(self.events) else None)

    def next(self) -> tuple[int, dict[str, Any] | None]:
        found = self.peek()
        if found[1] is not None:
            self.at += 1
        return found


def judge(case: dict[str, Any], fan_library) -> dict[str, Any]:
    """The judge's answer to one procedure case: a result, or {"skip": reason}."""
    try:
        table = Judge(case, fan_library)
    except Skip as exc:
        return {"skip": str(exc)}
    try:
        return table.play()
    except _Unfinished:
        return table.unfinished()
    except Penalty as p:
        return {"verdict": "illegal", "rule": p.code, "event": p.event, "message": str(p)}


def _reference_fans():
    from checker.case import CaseRunner
    runner = CaseRunner()
    return runner.run


def main() -> None:
    fans = _reference_fans()
    for raw in sys.stdin:
        message = json.loads(raw)
        if message["cmd"] == "start":
            print(json.dumps(START), flush=True)
            continue
        if message["cmd"] == "stop":
            break
        answer = judge(message["case"], fans)
        reply: dict[str, Any] = {"id": message["id"]}
        if "skip" in answer:
            reply["skip"] = answer["skip"]
        else:
            reply["result"] = answer
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()
