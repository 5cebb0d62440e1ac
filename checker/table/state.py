"""The table procedure as a state machine: a hand of play from the deal to its end, one event at a time.

`Table.apply(event)` checks the event against the ruleset's procedure (checker.spec.procedure) and either changes
the table or returns a `Violation` (the rule id, what happened, what was expected) and leaves it as it was.
`step(table, event)` is the pure form: a new table, or the violation. Whether a complete hand may win is asked
of the scorer (checker.engine), which also scores the hand at its end (checker.table.settle).

Seats are absolute, 0-3, going round downstream (each seat's next player is seat + 1); `dealer` is East.
Phases: `flowers` (the deal's flowers, the dealer first), `play` (the seat on turn holds a tile more than a
hand: it discards, konges, exposes a flower, knocks or wins), `discard` (the last discard is open to claims
until the next seat draws), `replace` (a replacement draw from the back is due), `rob` (an exposed kong may be
robbed before its replacement draw), `ended`.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from checker import tiles as T
from checker.engine import HandError, Score, Scorer
from checker.engine.hand import Meld as ScoredMeld
from checker.table.events import Event, LogError, Violation
from checker.table.hands import chow_other_end, chows_with, shapes_of
from checker.spec.procedure import TableRules
from checker.table.wall import SEATS, deal_order



@dataclass
class Meld:
    kind: str  # chow, pung, kong
    tiles: tuple[int, ...]
    source: int | None  # the absolute seat it was claimed from; None: formed from one's own tiles
    concealed: bool = False
    after_knock: bool = False
    claimed: int = -1  # the tile taken from the discard


@dataclass
class Player:
    seat: int
    counts: list[int] = field(default_factory=lambda: [0] * T.NUM_TILES_WITH_FLOWERS)  # concealed tiles, flowers among them until exposed
    melds: list[Meld] = field(default_factory=list)
    flowers: list[int] = field(default_factory=list)
    discards: list[int] = field(default_factory=list)  # its discards still on the table (not claimed)
    knocked: bool = False
    knocking: bool = False  # knocked this turn: the discard that follows must leave the hand ready
    dead: bool = False  # forfeited its right to win this hand (a knocked player who let a win go)
    forgone: set[int] = field(default_factory=set)  # forgo-then-reclaim: tiles it may not claim until it draws
    passed_wins: dict[int, int] = field(default_factory=dict)  # 漏胡: tile -> the seat whose discard it passed
    just_claimed: tuple[int, int] | None = None  # swap-calling: (claimed tile, the chow's other end or -1)
    drawn: int = -1  # the tile it drew this turn (-1: it claimed, or has not drawn)
    replacement: tuple[str, ...] = ()  # the replacement chain the tile in hand came from ("kong", "flower")
    draw_blocked: bool = False  # 漏胡 under lou_hu_own_draw_win=false: this turn's draw lifted a block on itself
    waits_key: tuple = ()  # the concealed tiles (and meld count) `waits` was computed for
    waits: frozenset[int] = frozenset()

    def hand_tiles(self) -> list[int]:
        return [t for t in range(T.NUM_TILES_WITH_FLOWERS) for _ in range(self.counts[t])]

    def held(self, tile: int) -> int:
        return self.counts[tile]


@dataclass
class Win:
    seat: int
    tile: int
    win_by: str  # self_draw, discard, robbing_kong
    discarder: int | None
    score: Score
    flags: tuple[str, ...]
    counters: Mapping[str, int]


class Table:
    """One hand of play. Build it with `Table.deal(rules, scorer, wall, dealer=…)`."""

    def __init__(self, rules: TableRules, scorer: Scorer, wall: Sequence[int], dealer: int = 0,
                 round_wind: str = "E", counters: Mapping[str, int] | None = None,
                 flags: Sequence[str] = (), contract_calls: Sequence[Sequence[int]] | None = None,
                 hand_number: int = 0, deal: bool = True, claims_as_declared: bool = False):
        self.rules, self.scorer = rules, scorer
        # how the log writes claims (its header's claim_order): in the order the priority resolves them (a claim
        # outranked by one already made is refused), or as declared (a later claim that outranks one made, before
        # its claimer discards, takes the tile: the table goes back to `before_claim` and makes it)
        self.claims_as_declared = claims_as_declared
        self.before_claim: Table | None = None  # the table before the last claim (kept under claims_as_declared)
        self.shapes = shapes_of(scorer)
        self.wall = list(wall)
        self.head, self.tail = 0, len(self.wall)
        # the wall model (procedure wall_end.model): one live wall (head and tail), or four quarters, seat s drawing
        # its deal, its turns and its replacements from wall[q s : q s + q] in order, q a quarter of the wall (36 of
        # the 144 tiles; fronts[s] its next tile)
        self.quarters = rules.wall_model == "quarters"
        self.quarter = len(self.wall) // SEATS
        self.fronts: list[int] = [self.quarter * s for s in range(SEATS)] if self.quarters else []
        self.dealer, self.round_wind, self.hand_number = dealer, round_wind, hand_number
        self.counters = dict(counters or {})
        self.flags = tuple(flags)  # context of the whole hand (kaibao)
        self.players = [Player(s) for s in range(SEATS)]
        # calls[a][b]: how many times seat a claimed (chow, pung, kong) a discard of seat b (承包)
        self.calls = [list(row) for row in contract_calls] if contract_calls else [[0] * SEATS for _ in range(SEATS)]
        self.phase = "flowers"
        self.turn = dealer
        self.discard_seat = -1  # the seat whose discard is open (phase discard), or whose kong may be robbed (rob)
        self.discard_tile = -1
        self.claimed_by = -1  # the seat that claimed the last discard and has not discarded yet
        self.wins: list[Win] = []
        self.drawn_game = False
        self.forfeits: list[int] = []
        self.lou_hu_blocks = 0  # passed wins that set a 漏胡 block (simulation statistics)
        self.events = 0
        self.rob_kind = ""  # the kind of kong open to robbing: add_kong, kong
        self.after_replace = "play"  # the phase a replacement draw leads to: play, or flowers at the deal
        self.buried: list[int] = []  # tiles a swap (换牌) put out of play
        self.swapped: list[int] = []  # the seats that have swapped
        self.unrobbable = False  # a mandatory kong the spec keeps from robbing awaits its replacement draw
        # the seat whose flower replacement during the deal has just completed a declared-flowers shape (八花齐):
        # where the spec lets it declare at once (flower_exposure.declared_win), its win is the next event's
        self.declarable = -1
        if not deal:  # a table whose fields are about to be copied in (Table.copy)
            return
        for seat in deal_order(dealer, rules.dealer_tiles, rules.other_tiles):
            self.players[seat].counts[self._take(seat, "wall")] += 1
        self.players[dealer].drawn = -1
        if rules.swap_tiles:
            self.phase = "swap"  # 换牌 first; the first other event ends it
        else:
            self._next_flower_seat()

    # ------------------------------------------------------------------ reading the table

    @property
    def live_tiles(self) -> int:
        """Tiles left to draw before the wall's end (the dead wall excluded; four quarters: all they hold)."""
        if self.quarters:
            return sum(self.quarter * (s + 1) - self.fronts[s] for s in range(SEATS))
        return self.tail - self.head - self.rules.dead_wall_tiles

    def tiles_left(self, seat: int) -> int:
        """Tiles `seat` may still draw: the live wall's (whoever draws), or under four quarters its own."""
        if self.quarters:
            return self.quarter * (seat + 1) - self.fronts[seat]
        return self.tail - self.head - self.rules.dead_wall_tiles

    def _take(self, seat: int, source: str) -> int:
        """The next tile `seat` draws (from the wall's front, or its back for a replacement; under four quarters
        from its own quarter either way), taken off the wall."""
        tile = self.next_wall_tile(source, seat)
        if self.quarters:
            self.fronts[seat] += 1
        elif source == "wall":
            self.head += 1
        else:
            self.tail -= 1
        return tile

    @property
    def ended(self) -> bool:
        return self.phase == "ended"

    def is_flower(self, tile: int) -> bool:
        return T.is_flower(tile) or (self.rules.dragons_are_flowers and T.is_dragon(tile))

    def holds_flower(self, p: Player) -> int:
        for t in (*T.DRAGONS, *T.FLOWERS) if self.rules.dragons_are_flowers else T.FLOWERS:
            if p.counts[t]:
                return t
        return -1

    def next_wall_tile(self, source: str, seat: int = -1) -> int:
        """The tile `seat` (default: the seat on turn) would draw next from `source` (wall or back)."""
        if self.quarters:
            return self.wall[self.fronts[self.turn if seat < 0 else seat]]
        return self.wall[self.head] if source == "wall" else self.wall[self.tail - 1]

    def copy(self) -> "Table":
        """A table that shares nothing mutable with this one (the rules, scorer and wall are read-only)."""
        other = Table(self.rules, self.scorer, self.wall, deal=False)  # compiled, it has no __dict__ to copy
        for name in _TABLE_FIELDS:
            setattr(other, name, getattr(self, name))
        other.players = copy.deepcopy(self.players)
        other.calls = [list(r) for r in self.calls]
        other.wins = list(self.wins)
        other.forfeits = list(self.forfeits)
        other.buried, other.swapped = list(self.buried), list(self.swapped)
        other.fronts = list(self.fronts)
        return other

    def _adopt(self, work: "Table") -> None:
        """Take `work`'s state (a copy played on), this table's count of events kept (the caller's one event)."""
        events = self.events
        for name in _TABLE_FIELDS:
            setattr(self, name, getattr(work, name))
        self.events = events

    # ------------------------------------------------------------------ events

    def apply(self, ev: Event) -> Violation | None:
        """Play `ev`: None when it is legal (the table has changed), else the Violation (the table has not).
        LogError for an event that cannot be played at all (after the hand ended)."""
        if self.phase == "ended" and not (ev.kind in ("win", "pass") and self._won_on_a_tile()):
            raise LogError(f"{ev.text()}: the hand has already ended", "input.event")
        if self.phase == "flowers" and ev.kind not in ("flower", "swap") and not (ev.kind == "draw" and ev.source == "back") \
                and not (ev.kind == "win" and self.declares_on_flowers(self.players[ev.seat])):
            return Violation(self.rules.rule("flower_exposure"), f"{ev.text()}: the deal's flowers come first",
                             f"seat {self.turn} exposes its flower {T.tile_name(self.holds_flower(self.players[self.turn]))}")
        if self.phase == "play" and self.players[self.turn].knocking and ev.kind != "discard":
            return Violation(self.rules.rule("knock"), f"{ev.text()}: seat {self.turn} has just knocked; the knock goes "
                             f"with its discard", f"seat {self.turn} discards")
        if self.phase == "swap" and ev.kind != "swap":  # the swaps are over: the deal's flowers come next
            before = (self.phase, self.turn)
            self.phase = "flowers"
            self._next_flower_seat()
            problem = self.apply(ev)
            if problem is not None:
                self.phase, self.turn = before
            return problem
        declarable, self.declarable = self.declarable, -1  # only the very next event may declare it
        if ev.kind == "win" and ev.seat == declarable:
            problem = self._on_declared_win(ev)
        else:
            problem = getattr(self, "_on_" + ev.kind)(ev)
        if problem is None:
            self.events += 1
        elif self.declarable < 0:
            self.declarable = declarable
        return problem

    # each handler checks everything before it changes anything

    def _on_draw(self, ev: Event) -> Violation | None:
        p = self.players[ev.seat]
        if self.phase in ("replace", "rob"):
            if ev.seat != self.turn:
                return self._turn(ev, f"seat {self.turn} draws a replacement now")
            if ev.source != "back":
                return Violation(self.rules.rule("replacement_draw"), f"{ev.text()}: a replacement is drawn from the "
                                 f"back of the wall", f"seat {ev.seat} draws from the back")
            if self.tiles_left(ev.seat) <= 0:
                return Violation(self.rules.rule("wall_end"), f"{ev.text()}: the wall is exhausted",
                                 "draw_game")
            tile = self.next_wall_tile("back", ev.seat)
            if ev.tile >= 0 and ev.tile != tile:
                return Violation(self.rules.rule("replacement_draw"), f"{ev.text()}: the tile at the back of the "
                                 f"wall is {T.tile_name(tile)}", f"draw {T.tile_name(tile)} from the back")
            if self.phase == "rob":
                problem = self._close_discard(claim=None, claimer=self.discard_seat)
                if problem:
                    return problem
                self.discard_seat, self.discard_tile = -1, -1
            self._take(ev.seat, "back")
            p.counts[tile] += 1
            self.claimed_by, self.unrobbable = -1, False
            if self.after_replace == "flowers":
                self.phase = "flowers"
                self._next_flower_seat()
                if self.rules.declared_win_at_once and self.declares_on_flowers(p):
                    self.declarable = ev.seat
            else:
                p.drawn, self.phase = tile, "play"
            return None
        if self.phase == "flowers":
            flower = self.holds_flower(self.players[self.turn])
            return Violation(self.rules.rule("flower_exposure"), f"{ev.text()}: the deal's flowers come first",
                             f"seat {self.turn} exposes its flower {T.tile_name(flower)}")
        if self.phase == "discard":
            drawer = (self.discard_seat + 1) % SEATS
            if ev.seat != drawer:
                return self._turn(ev, f"seat {drawer} draws (or a claim on the discard)")
            if ev.source != "wall":
                return Violation(self.rules.rule("turn"), f"{ev.text()}: a turn's draw comes from the wall's front",
                                 f"seat {drawer} draws from the wall")
            if self.tiles_left(drawer) <= 0:
                return Violation(self.rules.rule("wall_end"), f"{ev.text()}: the wall is exhausted", "draw_game")
            tile = self.next_wall_tile("wall", drawer)
            if ev.tile >= 0 and ev.tile != tile:
                return Violation(self.rules.rule("turn"), f"{ev.text()}: the next tile of the wall is "
                                 f"{T.tile_name(tile)}", f"draw {T.tile_name(tile)}")
            problem = self._close_discard(claim=None, claimer=-1)
            if problem:
                return problem
            self._take(drawer, "wall")
            p.counts[tile] += 1
            p.drawn, p.replacement = tile, ()
            p.forgone.clear()  # forgo-then-reclaim: lifted by one's own draw
            if self.rules.lou_hu and "draw" in self.rules.lou_hu_lifted_by:  # 动牌: a draw lifts 漏胡
                p.draw_blocked = not self.rules.lou_hu_own_draw_win and tile in p.passed_wins
                p.passed_wins.clear()
            self.turn, self.phase = ev.seat, "play"
            return None
        return self._turn(ev, self._expected())

    def _on_flower(self, ev: Event) -> Violation | None:
        p = self.players[ev.seat]
        if not self.is_flower(ev.tile):
            return Violation(self.rules.rule("flower_exposure"), f"{ev.text()}: {T.tile_name(ev.tile)} is not a "
                             f"flower in this ruleset")
        if self.phase not in ("flowers", "play") or ev.seat != self.turn:
            return self._turn(ev, self._expected())
        if not p.counts[ev.tile]:
            return Violation(self.rules.rule("flower_exposure"), f"{ev.text()}: seat {ev.seat} holds no "
                             f"{T.tile_name(ev.tile)}")
        p.counts[ev.tile] -= 1
        p.flowers.append(ev.tile)
        p.replacement = p.replacement + ("flower",)
        self.after_replace, self.phase = self.phase, "replace"
        return None

    def _on_discard(self, ev: Event) -> Violation | None:
        problem = self.discard_problem(ev)
        if problem:
            return problem
        p = self.players[ev.seat]
        if p.knocked and self.rules.knock_must_win and not p.dead and p.drawn >= 0 \
                and self.could_win(p.seat, p.drawn, "self_draw", None):
            p.dead = True  # a knocked player letting its self-drawn win go forfeits the hand
            self.forfeits.append(p.seat)
        p.counts[ev.tile] -= 1
        p.discards.append(ev.tile)
        if p.knocking:
            p.knocking, p.knocked = False, True
        p.just_claimed, p.drawn, p.replacement, p.draw_blocked = None, -1, (), False
        self.discard_seat, self.discard_tile, self.claimed_by = ev.seat, ev.tile, -1
        self.phase = "discard"
        return None

    def discard_problem(self, ev: Event) -> Violation | None:
        """Why the discard `ev` may not be made now (None: it may); changes nothing."""
        p = self.players[ev.seat]
        if self.phase != "play" or ev.seat != self.turn:
            return self._turn(ev, self._expected())
        if not p.counts[ev.tile]:
            return Violation(self.rules.rule("turn"), f"{ev.text()}: seat {ev.seat} holds no {T.tile_name(ev.tile)}")
        if self.is_flower(ev.tile) or self.holds_flower(p) >= 0:
            flower = ev.tile if self.is_flower(ev.tile) else self.holds_flower(p)
            return Violation(self.rules.rule("flower_exposure"), f"{ev.text()}: seat {ev.seat} holds the flower "
                             f"{T.tile_name(flower)}, which is exposed and replaced, never kept or discarded",
                             f"flower {T.tile_name(flower)}")
        if self.rules.swap_calling and p.just_claimed is not None:
            claimed, other_end = p.just_claimed
            if (ev.tile == claimed and self.rules.swap_calling_claimed_tile) or ev.tile == other_end:
                what = "the tile just claimed" if ev.tile == claimed else "the tile completing the chow's other end"
                return Violation(self.rules.rule("swap_calling"), f"{ev.text()}: {what} may not be discarded at once",
                                 "discard another tile")
        if p.knocked and self.rules.knock_locks_hand and p.drawn >= 0 and ev.tile != p.drawn:
            return Violation(self.rules.rule("knock_locks_hand"), f"{ev.text()}: a knocked hand is locked; it "
                             f"discards the tile it drew", f"discard {T.tile_name(p.drawn)}")
        problem = self._mandatory_kong(ev, p)
        if problem:
            return problem
        counts = p.counts[:T.NUM_TILE_TYPES]
        counts[ev.tile] -= 1
        if p.knocking and not self.live_waits(p, self.shapes.waits(counts, len(p.melds)), counts):
            return Violation(self.rules.rule("knock"), f"{ev.text()}: seat {ev.seat} knocked, but this discard "
                             f"leaves its hand waiting on no tile", "a discard that leaves the hand ready")
        return self._missed_self_draw(p)

    def _on_knock(self, ev: Event) -> Violation | None:
        p = self.players[ev.seat]
        if not self.rules.has("knock"):
            raise LogError(f"{ev.text()}: this ruleset ({self.rules.ruleset.id}) has no knocking", "input.event")
        if self.phase != "play" or ev.seat != self.turn:
            return self._turn(ev, self._expected())
        if p.knocked or p.knocking:
            return Violation(self.rules.rule("knock"), f"{ev.text()}: seat {ev.seat} has knocked already")
        flower = self.holds_flower(p)
        if flower >= 0:
            return Violation(self.rules.rule("flower_exposure"), f"{ev.text()}: seat {ev.seat} holds the flower "
                             f"{T.tile_name(flower)}; it is exposed first", f"flower {T.tile_name(flower)}")
        if not any(self.ready_after(p, t) for t in range(T.NUM_TILE_TYPES) if p.counts[t]):
            return Violation(self.rules.rule("knock"), f"{ev.text()}: no discard leaves seat {ev.seat}'s hand "
                             f"waiting on a tile it could still win on", "a discard (no knock)")
        p.knocking = True
        return None

    def ready_after(self, p: Player, tile: int) -> bool:
        """Whether discarding `tile` leaves the player waiting on a tile that still exists (not all four of it
        in its own hand and melds)."""
        counts = p.counts[:T.NUM_TILE_TYPES]
        counts[tile] -= 1
        return bool(self.live_waits(p, self.shapes.waits(counts, len(p.melds)), counts))

    def _on_chow(self, ev: Event) -> Violation | None:
        return self._claim(ev, "chow")

    def _on_pung(self, ev: Event) -> Violation | None:
        return self._claim(ev, "pung")

    def _on_kong(self, ev: Event) -> Violation | None:
        return self._claim(ev, "kong")

    def _claim(self, ev: Event, kind: str) -> Violation | None:
        p = self.players[ev.seat]
        rules = self.rules
        if self.phase == "play" and self.claimed_by >= 0 and ev.seat != self.claimed_by:
            return self._outranked(ev, kind)
        if self.phase != "discard":
            return self._turn(ev, self._expected())
        tile = self.discard_tile
        if ev.seat == self.discard_seat:
            return Violation(rules.rule("claims"), f"{ev.text()}: a player does not claim its own discard")
        if ev.tile >= 0 and ev.tile != tile:
            return Violation(rules.rule("claims"), f"{ev.text()}: the discard open to claims is {T.tile_name(tile)}")
        if kind == "chow":
            if rules.chow_from_previous_only and ev.seat != (self.discard_seat + 1) % SEATS:
                return Violation(rules.rule("claims"), f"{ev.text()}: a chow is claimed only from the previous "
                                 f"player; seat {self.discard_seat}'s discard may be chowed by seat "
                                 f"{(self.discard_seat + 1) % SEATS} alone", "pung, kong, win or pass")
            run = tuple(sorted(ev.tiles))
            if run not in chows_with(p.counts, tile) or tile not in run:
                return Violation(rules.rule("claims"), f"{ev.text()}: not a chow of {T.tile_name(tile)} with tiles "
                                 f"seat {ev.seat} holds")
        else:
            need = 2 if kind == "pung" else 3
            if p.counts[tile] < need:
                return Violation(rules.rule("claims"), f"{ev.text()}: seat {ev.seat} holds {p.counts[tile]} "
                                 f"{T.tile_name(tile)}, a {kind} needs {need}")
            if kind == "kong" and self.tiles_left(ev.seat) <= 0:
                return Violation(rules.rule("wall_end"), f"{ev.text()}: no tile is left for the kong's replacement")
        if (rules.last_discard_claims == "win_only" or self.quarters) \
                and self.tiles_left((self.discard_seat + 1) % SEATS) <= 0:
            rule = rules.last_discard_rule if rules.last_discard_claims == "win_only" else rules.wall_model_rule
            return Violation(rule, f"{ev.text()}: the wall is exhausted for seat {(self.discard_seat + 1) % SEATS}, "
                             f"who would draw next; this last discard may be claimed only for a win", "win or pass")
        if p.knocked and rules.knock_locks_hand and kind in rules.knock_locked_claims:
            return Violation(rules.rule("knock_locks_hand"), f"{ev.text()}: seat {ev.seat} has knocked; its hand is "
                             f"locked", "pass")
        if rules.forgo and kind in rules.forgo_blocks and tile in p.forgone:
            return Violation(rules.rule("forgo_then_reclaim"), f"{ev.text()}: seat {ev.seat} let "
                             f"{T.tile_name(tile)} go earlier and may not claim it until it has drawn again", "pass")
        before = self.copy() if self.claims_as_declared else None
        problem = self._close_discard(claim=kind, claimer=ev.seat)
        if problem:
            return problem
        if before is not None:
            before.before_claim = None
            self.before_claim = before
        discarder = self.players[self.discard_seat]
        discarder.discards.pop()
        if kind == "chow":
            run = tuple(sorted(ev.tiles))
            for t in run:
                if t != tile:
                    p.counts[t] -= 1
            meld = Meld("chow", run, self.discard_seat, claimed=tile, after_knock=p.knocked)
            p.just_claimed = (tile, chow_other_end(run, tile) if rules.swap_calling_chow_end else -1)
        else:
            p.counts[tile] -= 2 if kind == "pung" else 3
            meld = Meld(kind, (tile,) * (3 if kind == "pung" else 4), self.discard_seat, claimed=tile,
                        after_knock=p.knocked)
            p.just_claimed = (tile, -1) if kind == "pung" else None
        p.melds.append(meld)
        self.calls[ev.seat][self.discard_seat] += 1
        if rules.lou_hu and kind in rules.lou_hu_lifted_by:
            p.passed_wins.clear()  # 动牌: a pung, chow or kong lifts 漏胡
        p.drawn, p.replacement = -1, ()
        self.turn, self.claimed_by = ev.seat, ev.seat
        if kind == "kong":
            p.replacement = ("kong",)
            if rules.robbable_kongs == "exposing":
                self.phase, self.discard_seat, self.rob_kind = "rob", ev.seat, "kong"
                self.discard_tile = tile
            else:
                self.phase = "replace"
            self.after_replace = "play"
        else:
            self.phase = "play"
        return None

    def _on_add_kong(self, ev: Event) -> Violation | None:
        p = self.players[ev.seat]
        if self.phase != "play" or ev.seat != self.turn:
            return self._turn(ev, self._expected())
        pung = next((m for m in p.melds if m.kind == "pung" and m.tiles[0] == ev.tile), None)
        if pung is None or not p.counts[ev.tile]:
            return Violation(self.rules.rule("turn"), f"{ev.text()}: seat {ev.seat} has no exposed pung of "
                             f"{T.tile_name(ev.tile)} and the fourth tile in hand")
        if self.tiles_left(ev.seat) <= 0:
            return Violation(self.rules.rule("wall_end"), f"{ev.text()}: no tile is left for the kong's replacement")
        if self.claimed_by == ev.seat and self.rules.added_kong_after_claim == "after_own_draw":
            return Violation(self.rules.added_kong_after_claim_rule, f"{ev.text()}: seat {ev.seat} claimed a discard "
                             f"this turn and discards next; a pung is extended to a kong only in a turn the player "
                             f"drew", "discard")
        p.counts[ev.tile] -= 1
        pung.kind, pung.tiles = "kong", (ev.tile,) * 4
        p.replacement = p.replacement + ("kong",)
        p.just_claimed = None
        if self.rules.lou_hu and "kong" in self.rules.lou_hu_lifted_by:
            p.passed_wins.clear()
        self.claimed_by, self.after_replace = -1, "play"
        if p.knocked and self.rules.mandatory_kong and not self.rules.mandatory_kong_robbable:
            self.phase, self.unrobbable = "replace", True  # the mandatory upgrade may not be robbed
            return None
        self.phase, self.discard_seat, self.discard_tile, self.rob_kind = "rob", ev.seat, ev.tile, "add_kong"
        return None

    def _on_concealed_kong(self, ev: Event) -> Violation | None:
        p = self.players[ev.seat]
        if self.phase != "play" or ev.seat != self.turn:
            return self._turn(ev, self._expected())
        if p.counts[ev.tile] < 4 or self.is_flower(ev.tile):
            return Violation(self.rules.rule("turn"), f"{ev.text()}: seat {ev.seat} holds {p.counts[ev.tile]} "
                             f"{T.tile_name(ev.tile)}, a concealed kong needs 4")
        if p.knocked and self.rules.knock_locks_hand and p.drawn >= 0:
            before = p.counts[:T.NUM_TILE_TYPES]
            before[p.drawn] -= 1
            after = p.counts[:T.NUM_TILE_TYPES]
            after[ev.tile] -= 4
            if self.shapes.waits(before, len(p.melds)) != self.shapes.waits(after, len(p.melds) + 1):
                return Violation(self.rules.rule("knock_locks_hand"), f"{ev.text()}: seat {ev.seat} has knocked; a "
                                 f"concealed kong that changes what its hand waits on reshapes the locked hand")
        if self.tiles_left(ev.seat) <= 0:
            return Violation(self.rules.rule("wall_end"), f"{ev.text()}: no tile is left for the kong's replacement")
        p.counts[ev.tile] -= 4
        p.melds.append(Meld("kong", (ev.tile,) * 4, None, concealed=True))
        p.replacement = p.replacement + ("kong",)
        p.just_claimed = None
        if self.rules.lou_hu and "kong" in self.rules.lou_hu_lifted_by:
            p.passed_wins.clear()
        self.phase, self.claimed_by, self.after_replace = "replace", -1, "play"
        return None

    def _on_swap(self, ev: Event) -> Violation | None:
        """换牌: right after the deal a seat buries `tiles` of its hand and takes as many from the wall's front."""
        if not self.rules.swap_tiles:
            raise LogError(f"{ev.text()}: this ruleset ({self.rules.ruleset.id}) has no tile swap", "input.event")
        p = self.players[ev.seat]
        rule = self.rules.rule("tile_swap")
        if self.phase != "swap":
            return Violation(rule, f"{ev.text()}: tiles are swapped only right after the deal, before anything else")
        if ev.seat in self.swapped:
            return Violation(rule, f"{ev.text()}: seat {ev.seat} has swapped already")
        if len(ev.tiles) != self.rules.swap_tiles:
            return Violation(rule, f"{ev.text()}: a swap buries {self.rules.swap_tiles} tiles, not {len(ev.tiles)}")
        need = [0] * T.NUM_TILES_WITH_FLOWERS
        for t in ev.tiles:
            need[t] += 1
        short = [t for t in range(T.NUM_TILES_WITH_FLOWERS) if need[t] > p.counts[t]]
        if short:
            return Violation(rule, f"{ev.text()}: seat {ev.seat} does not hold {T.tile_name(short[0])} "
                             f"{need[short[0]]} time(s)")
        for t in ev.tiles:
            p.counts[t] -= 1
            self.buried.append(t)
        for _ in ev.tiles:
            p.counts[self._take(ev.seat, "wall")] += 1
        self.swapped.append(ev.seat)
        return None

    def _on_pass(self, ev: Event) -> Violation | None:
        if self.phase not in ("discard", "rob", "ended") or ev.seat == self.discard_seat:
            return self._turn(ev, self._expected())
        return None  # a pass is what not claiming is; its consequences come when the discard closes

    def _on_claims(self, ev: Event) -> Violation | None:
        """Every seat's answer to the open discard (or robbable kong) at once, as a judge collects them: each
        answer must be one its seat could make alone; the claims the spec's priority ranks highest are made (each
        win in turn from the discarder where several winners are paid, else the nearest seat's), every other
        answer is a pass. Played on a copy, taken whole or not at all."""
        if self.phase not in ("discard", "rob"):
            return self._turn(ev, self._expected())
        seats = [a.seat for a in ev.answers]
        rule = self.rules.rule("claims")
        if len(set(seats)) != len(seats) or self.discard_seat in seats:
            return Violation(rule, f"{ev.text()}: each seat but the discarder (seat {self.discard_seat}) answers "
                             f"at most once")
        made = [a for a in ev.answers if a.kind != "pass"]
        for a in made:
            problem = self.copy().apply(a)
            if problem is not None:
                return Violation(problem.rule, f"{ev.text()}: seat {a.seat}'s answer: {problem.message}",
                                 problem.expected)
        if not made:
            return None  # every seat passes: the discard closes at the next draw, as for passes one by one
        ranks = self.rules.claim_ranks
        top = max(ranks[a.kind] for a in made)
        chosen = sorted((a for a in made if ranks[a.kind] == top), key=lambda a: (a.seat - self.discard_seat) % SEATS)
        if chosen[0].kind == "win" and self.rules.multiple_winners != "all_paid":
            chosen = chosen[:1]  # one winner: the nearest seat after the discarder
        work = self.copy()
        for a in chosen:
            problem = work.apply(a)
            if problem is not None:
                return Violation(problem.rule, f"{ev.text()}: seat {a.seat}'s answer, made: {problem.message}",
                                 problem.expected)
        self._adopt(work)  # (one event: `apply` counts it)
        return None

    def _on_draw_game(self, ev: Event) -> Violation | None:
        if self.phase not in ("discard", "replace"):
            return self._turn(ev, self._expected())
        drawer = self.turn if self.phase == "replace" else (self.discard_seat + 1) % SEATS
        if self.tiles_left(drawer) > 0:
            return Violation(self.rules.rule("wall_end"), f"draw game: {self.tiles_left(drawer)} tiles are left to "
                             f"draw" + (f" for seat {drawer}" if self.quarters else ""), "the next draw")
        if self.phase == "discard":
            problem = self._close_discard(claim=None, claimer=-1)
            if problem:
                return problem
        self.drawn_game, self.phase = True, "ended"
        return None

    # ------------------------------------------------------------------ winning

    def _on_win(self, ev: Event) -> Violation | None:
        p = self.players[ev.seat]
        rules = self.rules
        if self.phase == "play" and self.claimed_by >= 0 and ev.seat != self.claimed_by:
            return self._outranked(ev, "win")
        if self.phase == "play" and ev.seat == self.turn:
            if p.drawn < 0 and not p.replacement and self.claimed_by == ev.seat:
                return Violation(rules.rule("turn"), f"{ev.text()}: seat {ev.seat} claimed a tile this turn; a "
                                 f"self-drawn win needs a drawn tile")
            tile = p.drawn if p.drawn >= 0 else (ev.tile if ev.tile >= 0 else -1)
            if ev.tile >= 0 and ev.tile != tile and p.drawn >= 0:
                return Violation(rules.rule("turn"), f"{ev.text()}: the tile seat {ev.seat} drew is "
                                 f"{T.tile_name(p.drawn)}")
            if tile < 0:  # the dealer's first turn (天和): any tile of the hand completes it
                tile = ev.tile if ev.tile >= 0 and p.counts[ev.tile] else next(t for t in range(T.NUM_TILE_TYPES) if p.counts[t])
            if not rules.mandatory_kong_unless_self_draw_win:  # the compulsion comes before the win
                problem = self._mandatory_kong(ev, p)
                if problem:
                    return problem
            return self._declare(ev, p, tile, "self_draw", None)
        if self.phase in ("discard", "rob") or (self.phase == "ended" and self._won_on_a_tile()):
            if ev.seat == self.discard_seat:
                return self._turn(ev, self._expected())
            tile = self.discard_tile
            if ev.tile >= 0 and ev.tile != tile:
                return Violation(rules.rule("claims"), f"{ev.text()}: the tile open to claims is {T.tile_name(tile)}")
            how = "robbing_kong" if self.phase == "rob" or (self.phase == "ended" and self.rob_kind) else "discard"
            return self._declare(ev, p, tile, how, self.discard_seat)
        if self.phase == "replace" and self.unrobbable and ev.seat != self.turn:
            return Violation(rules.rule("mandatory_kong"), f"{ev.text()}: seat {self.turn}'s mandatory kong may not "
                             f"be robbed under this spec (mandatory_kong.robbable: false)",
                             f"seat {self.turn} draws its replacement")
        if self.phase == "replace" and self.rob_kind == "" and self._last_kong_concealed():
            return Violation(rules.robbing_rule, f"{ev.text()}: a concealed kong may not be robbed")
        if self.phase == "replace" and self._last_kong_claimed():
            return Violation(rules.robbing_rule, f"{ev.text()}: only an added kong may be robbed, not a kong claimed "
                             f"from a discard")
        if self.declares_on_flowers(p) and self.phase in ("flowers", "play"):
            when = "at once, right after the replacement of the last flower, or" if rules.declared_win_at_once else \
                "(flower_exposure.declared_win: own_turn) only"
            return Violation(rules.rule("flower_exposure"), f"{ev.text()}: a win on the flowers (八花齐) is declared "
                             f"{when} at seat {ev.seat}'s own turn or on a discard it may take")
        return self._turn(ev, self._expected())

    def declares_on_flowers(self, p: Player) -> bool:
        """Whether the player holds the flowers a declared-flowers shape of the spec needs (八花齐)."""
        held = len([f for f in p.flowers if T.is_flower(f)])
        return any(held >= flowers for _, flowers in self.rules.declared_flowers)

    def _on_declared_win(self, ev: Event) -> Violation | None:
        """八花齐 declared at once (procedure.flower_exposure, declared_win: at_once): right after the replacement
        that completed the flowers, during the deal and whoever's turn it is, paid as a self-drawn win. The
        declaration rests on the flowers, not on a drawn tile: it is no win on a replacement (杠开)."""
        p = self.players[ev.seat]
        tile = ev.tile if 0 <= ev.tile < T.NUM_TILE_TYPES and p.counts[ev.tile] else \
            next(t for t in range(T.NUM_TILE_TYPES) if p.counts[t])
        chain, p.replacement = p.replacement, ()
        problem = self._declare(ev, p, tile, "self_draw", None)
        if problem is not None:
            p.replacement = chain
        return problem

    def _declare(self, ev: Event, p: Player, tile: int, win_by: str, discarder: int | None) -> Violation | None:
        rules = self.rules
        if self.wins:
            if rules.multiple_winners != "all_paid":
                first = self.wins[0].seat
                return Violation(rules.rule("multiple_winners"), f"{ev.text()}: seat {first} has won on this tile; "
                                 f"one discard has one winner here (the nearest seat after the discarder)")
            if any(w.seat == ev.seat for w in self.wins):
                return Violation(rules.rule("multiple_winners"), f"{ev.text()}: seat {ev.seat} has won already")
            nearer = [w.seat for w in self.wins if _distance(discarder or 0, w.seat) > _distance(discarder or 0, ev.seat)]
            if nearer:
                return Violation(rules.rule("multiple_winners"), f"{ev.text()}: several winners on one discard are "
                                 f"declared in turn order from the discarder; seat {nearer[0]} came first")
        if p.dead:
            return Violation(rules.rule("knock"), f"{ev.text()}: seat {ev.seat} let a win go after knocking and "
                             f"has forfeited this hand")
        if discarder is not None and not self.wins and rules.multiple_winners != "all_paid" \
                and rules.knock_must_win and rules.missed_win_after_knock == "not_allowed":
            # one winner: a nearer seat that could win lets its win go; a knocked one may not
            for k in range(1, _distance(discarder, ev.seat)):
                seat = (discarder + k) % SEATS
                q = self.players[seat]
                if q.knocked and not q.dead and self.could_win(seat, tile, win_by, discarder):
                    return Violation(rules.missed_win_after_knock_rule, f"{ev.text()}: seat {seat}, nearer the discarder, has "
                                     f"knocked and could win on {T.tile_name(tile)}; under this reading it must take "
                                     f"the win", f"seat {seat} wins")
        if win_by != "self_draw":
            if rules.forgo and rules.forgo_blocks_win and tile in p.forgone:
                return Violation(rules.rule("forgo_then_reclaim"), f"{ev.text()}: seat {ev.seat} let "
                                 f"{T.tile_name(tile)} go earlier and may not take it until it has drawn again")
            if rules.lou_hu and self._lou_hu_blocked(p, tile, discarder):
                return Violation(rules.rule("lou_hu"), f"{ev.text()}: seat {ev.seat} passed a win on "
                                 f"{T.tile_name(tile)} and has not drawn, chowed, punged or konged since (漏胡)", "pass")
        elif rules.lou_hu and p.draw_blocked:
            return Violation(rules.lou_hu_own_draw_win_rule, f"{ev.text()}: seat {ev.seat} passed a win on "
                             f"{T.tile_name(tile)}; under this reading the draw that lifts 漏胡 is not won on")
        score = self.score(ev.seat, tile, win_by, discarder, others_won=[w.seat for w in self.wins])
        if score is None or not score.valid:
            rule = score.error if score is not None and score.error else "win.shape"
            message = score.message if score is not None else "not a winning hand"
            return Violation(rule, f"{ev.text()}: {message}")
        w = Win(ev.seat, tile, win_by, discarder, score, tuple(sorted(score.hand.flags)) if score.hand else (),
                dict(score.hand.counters) if score.hand else {})
        self.wins.append(w)  # the winning tile stays where it was (a discard, a kong) for the tile count
        self.phase = "ended"
        return None

    def _won_on_a_tile(self) -> bool:
        """The hand was won on a discard or a robbed kong: another seat's win on the same tile is a question of
        `multiple_winners` (allowed, or refused by that rule), not an event after the end."""
        return bool(self.wins) and self.wins[0].win_by != "self_draw"

    def _more_wins_open(self) -> bool:
        return bool(self.wins) and self.wins[0].win_by != "self_draw" and self.rules.multiple_winners == "all_paid"

    def score(self, seat: int, tile: int, win_by: str, discarder: int | None,
              others_won: Sequence[int] = ()) -> Score | None:
        """The scorer's verdict on seat `seat` winning on `tile` now; None when the tiles cannot be put to the
        scorer as a hand (not a hand's worth of tiles)."""
        try:
            hand = self.scorer.build_hand(**self.hand_input(seat, tile, win_by, discarder, others_won))
        except HandError as exc:
            return Score(self.rules.ruleset.id, False, error=exc.rule, message=str(exc))
        return self.scorer.score(hand)

    def hand_input(self, seat: int, tile: int, win_by: str, discarder: int | None,
                   others_won: Sequence[int] = ()) -> dict[str, Any]:
        """The scorer's input for seat `seat` winning on `tile`: tiles, melds (seats relative to the winner),
        winds, flowers, and the context flags and counters the table knows."""
        p = self.players[seat]
        counts = list(p.counts)
        if win_by == "self_draw":
            counts[tile] -= 1
        concealed = [t for t in range(T.NUM_TILES_WITH_FLOWERS) for _ in range(max(0, counts[t]))]
        melds = [ScoredMeld(m.kind, m.tiles[0], m.concealed, None if m.source is None else (m.source - seat) % SEATS,
                            m.after_knock) for m in p.melds]
        known = self.rules.ruleset.flags
        named = self.rules.context  # each fact of play the table sees, the flag the spec names for it

        def seen(fact: str) -> None:
            if fact in named:
                flags.add(named[fact])

        flags = {f for f in self.flags if f in known}
        if p.knocked:
            seen("knocked")
        if win_by == "self_draw" and p.replacement:
            # the winning tile is a replacement: after a kong (directly, or through flowers drawn as its
            # replacements: both facts, as MCR reads them), or after a flower
            if "kong" in p.replacement:  # the chain holds kongs and flowers only
                seen("kong_replacement")
            if p.replacement[-1] == "flower":
                seen("flower_replacement")
        # the last tile: the hand's last draw (after it the next seat has none to draw: under a single wall, none is
        # left; under quarters, the next seat's is empty), or the discard after which the next seat has none
        after = (seat if win_by == "self_draw" or discarder is None else discarder) + 1
        if self.tiles_left(after % SEATS) <= 0 and win_by != "robbing_kong":
            seen("wall_exhausted")
        if "fourth_tile_seen" in named and self._visible(tile, seat, win_by) >= 3:
            seen("fourth_tile_seen")
        for flag, flowers in self.rules.declared_flowers:  # 八花齐: the spec's shape names the flag and the count
            if flag in known and len([f for f in p.flowers if T.is_flower(f)]) == flowers:
                flags.add(flag)
        counters = {k: v for k, v in self.counters.items() if k in self.rules.ruleset.counters}
        if self.rules.contract_calls and "contract_partner" in named:
            partner = self.contract_partner(seat)
            if partner is not None:
                counters[named["contract_partner"]] = (partner - seat) % SEATS
                n = self.rules.contract_calls
                if self.calls[seat][partner] >= n and self.calls[partner][seat] >= n:
                    seen("contract_mutual")
                if partner in others_won:
                    seen("contract_partner_also_won")
            if "discarder_ready" in named and discarder is not None and win_by == "discard":
                if self.waits_of(self.players[discarder]):
                    seen("discarder_ready")
        return {"concealed": concealed, "melds": melds, "win_tile": tile, "win_by": win_by,
                "discarder": None if discarder is None else (discarder - seat) % SEATS,
                "seat_wind": T.WIND_LETTERS[(seat - self.dealer) % SEATS], "round_wind": self.round_wind,
                "flowers": tuple(p.flowers), "flags": sorted(flags), "counters": counters}

    def contract_partner(self, seat: int) -> int | None:
        """The seat with which `seat` has a contract (承包): it claimed that seat's discards, or that seat claimed
        its discards, `calls` times or more; the pair with most calls, the nearest downstream on a tie."""
        n = self.rules.contract_calls
        best, best_calls = None, 0
        for k in range(1, SEATS):
            other = (seat + k) % SEATS
            c = max(self.calls[seat][other], self.calls[other][seat])
            if c >= n and c > best_calls:
                best, best_calls = other, c
        return best

    def _visible(self, tile: int, winner: int, win_by: str) -> int:
        """Copies of `tile` on the table besides the winning one: in discards and exposed melds."""
        n = 0
        for p in self.players:
            n += p.discards.count(tile)
            for m in p.melds:
                if not m.concealed:
                    n += m.tiles.count(tile)
        if win_by == "discard":
            n -= 1  # the winning discard itself lies among the discards
        return n

    @staticmethod
    def live_waits(p: Player, waits: set[int] | frozenset[int], counts: Sequence[int]) -> set[int]:
        """The waits a fifth copy would be needed for left out (the player holds all four of the tile)."""
        return {t for t in waits if counts[t] + sum(m.tiles.count(t) for m in p.melds) < 4}

    def waits_of(self, p: Player) -> frozenset[int]:
        """The tiles that complete the player's concealed tiles in one of the ruleset's shapes."""
        key = (tuple(p.counts[:T.NUM_TILE_TYPES]), len(p.melds))
        if key != p.waits_key:
            p.waits_key, p.waits = key, frozenset(self.shapes.waits(key[0], key[1]))
        return p.waits

    def could_win(self, seat: int, tile: int, win_by: str, discarder: int | None) -> bool:
        """Whether seat `seat` may legally win on `tile` now (shape first, then the scorer; the procedure's own
        blocks, 漏胡 and a forfeited hand, included)."""
        p = self.players[seat]
        if p.dead:
            return False
        counts = p.counts[:T.NUM_TILE_TYPES]
        if win_by != "self_draw":
            if tile not in self.waits_of(p):  # the shapes' waits, kept until the player's tiles change
                meld_tiles = [t for m in p.melds for t in m.tiles]
                counts[tile] += 1
                if not self.shapes.needs_scorer(counts, meld_tiles, len(p.flowers)):
                    return False
        elif not self.shapes.complete(counts, len(p.melds)):
            meld_tiles = [t for m in p.melds for t in m.tiles]
            if not self.shapes.needs_scorer(counts, meld_tiles, len(p.flowers)):
                return False
        if win_by != "self_draw":
            if self.rules.lou_hu and self._lou_hu_blocked(p, tile, discarder):
                return False
            if self.rules.forgo and self.rules.forgo_blocks_win and tile in p.forgone:
                return False
        elif self.rules.lou_hu and p.draw_blocked:
            return False
        score = self.score(seat, tile, win_by, discarder)
        return score is not None and score.valid

    # ------------------------------------------------------------------ closing a discard, passes

    def _close_discard(self, claim: str | None, claimer: int) -> Violation | None:
        """The discard (or robbable kong) is taken by `claimer` with `claim`, or left (claim None): every other
        seat that could have taken it and did not has passed on it; a knocked player who passed a win forfeits
        (or breaks the knock rule), a ready player who passed a win is blocked on that tile (漏胡), a player who
        could have claimed it may not claim it again until it draws (forgo-then-reclaim)."""
        tile, discarder = self.discard_tile, self.discard_seat
        how = "robbing_kong" if self.phase == "rob" else "discard"
        ranks = self.rules.claim_ranks
        rank = ranks[claim] if claim else -1  # no claim: below every claim
        missed, forgoing = [], []
        for k in range(1, SEATS):
            seat = (discarder + k) % SEATS
            if seat == claimer:
                continue
            p = self.players[seat]
            if claim != "win" and self._wants_win_check(p) and self.could_win(seat, tile, how, discarder):
                missed.append(seat)
            if how == "discard" and self.rules.forgo and rank <= ranks["pung"]:
                could_pung = p.counts[tile] >= 2 and rank < ranks["pung"]
                could_chow = rank < ranks["chow"] and seat == (discarder + 1) % SEATS and bool(chows_with(p.counts, tile))
                if (could_pung or could_chow) and not (p.knocked and self.rules.knock_locks_hand):
                    forgoing.append(seat)
        for seat in missed:
            if self.players[seat].knocked and self.rules.knock_must_win and self.rules.missed_win_after_knock == "not_allowed":
                return Violation(self.rules.missed_win_after_knock_rule, f"seat {seat} has knocked and could win on "
                                 f"{T.tile_name(tile)}; under this reading it must take the win", f"seat {seat} wins")
        for seat in forgoing:
            self.players[seat].forgone.add(tile)
        for seat in missed:
            p = self.players[seat]
            if self.rules.lou_hu:
                p.passed_wins[tile] = discarder
                self.lou_hu_blocks += 1
            if p.knocked and self.rules.knock_must_win and not p.dead:
                p.dead = True
                self.forfeits.append(seat)
        if self.phase == "rob":
            self.rob_kind = ""
        return None

    def _wants_win_check(self, p: Player) -> bool:
        """Only a player for whom a passed win has consequences is asked whether it could have won."""
        if p.dead:
            return False
        if p.knocked and self.rules.knock_must_win:
            return True
        if self.rules.lou_hu and (p.knocked or not self.rules.knock_required):
            return True
        return False

    def _lou_hu_blocked(self, p: Player, tile: int, discarder: int | None) -> bool:
        if tile not in p.passed_wins:
            return False
        if self.rules.lou_hu_later_copy == "other_seats" and discarder == p.passed_wins[tile]:
            return False
        return True

    def _missed_self_draw(self, p: Player) -> Violation | None:
        """Under knock_missed_win=not_allowed, a knocked player may not discard when its drawn tile wins (under
        forfeit_hand the discard forfeits the hand: `_on_discard`)."""
        if not (p.knocked and self.rules.knock_must_win and not p.dead and p.drawn >= 0
                and self.rules.missed_win_after_knock == "not_allowed"):
            return None
        if not self.could_win(p.seat, p.drawn, "self_draw", None):
            return None
        return Violation(self.rules.missed_win_after_knock_rule, f"seat {p.seat} has knocked and its draw "
                         f"{T.tile_name(p.drawn)} wins; under this reading it must take the win", f"seat {p.seat} wins")

    def _mandatory_kong(self, ev: Event, p: Player) -> Violation | None:
        """Knocking: a knocked player holding the fourth tile of its exposed pung extends it before discarding,
        unless its draw wins (mandatory_kong.unless_self_draw_win); where the spec says the compulsion comes
        first, it extends it before a self-drawn win too."""
        if not (self.rules.mandatory_kong and p.knocked and self.tiles_left(p.seat) > 0):
            return None
        for m in p.melds:
            if m.kind == "pung" and p.counts[m.tiles[0]]:
                if self.rules.mandatory_kong_unless_self_draw_win and p.drawn >= 0 \
                        and self.could_win(p.seat, p.drawn, "self_draw", None):
                    return None
                return Violation(self.rules.rule("mandatory_kong"), f"{ev.text()}: seat {p.seat} has knocked and "
                                 f"holds the fourth {T.tile_name(m.tiles[0])} of its exposed pung; it must extend it "
                                 f"to a kong", f"add_kong {T.tile_name(m.tiles[0])}")
        return None

    # ------------------------------------------------------------------ helpers

    def _outranked(self, ev: Event, kind: str) -> Violation | None:
        """A claim after another seat's claim of the same discard: refused, unless the log writes claims as
        declared and it outranks the one made (then the table goes back to before that claim and makes it)."""
        taken = self.players[self.claimed_by].melds[-1]
        rule = "claim_priority" if self.rules.has("claim_priority") else "claims"
        ranks = self.rules.claim_ranks
        outranks = ranks[kind] > ranks[taken.kind]
        if outranks and self.claims_as_declared and self.before_claim is not None:
            work = self.before_claim.copy()
            problem = work.apply(ev)
            if problem is None:
                self._adopt(work)
            return problem
        why = (f"a {kind} outranks the {taken.kind} seat {self.claimed_by} made, which should not have been made"
               if outranks else f"seat {self.claimed_by} has claimed the discard")
        return Violation(self.rules.rule(rule), f"{ev.text()}: {why}")

    def _last_kong_concealed(self) -> bool:
        p = self.players[self.turn]
        return bool(p.melds) and p.melds[-1].kind == "kong" and p.melds[-1].concealed

    def _last_kong_claimed(self) -> bool:
        p = self.players[self.turn]
        return bool(p.melds) and p.melds[-1].kind == "kong" and p.melds[-1].source is not None \
            and p.melds[-1].claimed >= 0

    def _turn(self, ev: Event, expected: str) -> Violation:
        return Violation(self.rules.rule("turn"), f"{ev.text()}: not a move open now", expected)

    def _expected(self) -> str:
        if self.phase == "flowers":
            return f"seat {self.turn} exposes its flowers"
        if self.phase == "swap":
            return "a tile swap (换牌), or the deal's flowers"
        if self.phase == "play":
            return f"seat {self.turn} discards (or konges, exposes a flower, knocks or wins)"
        if self.phase == "discard":
            nxt = (self.discard_seat + 1) % SEATS
            return f"a claim on seat {self.discard_seat}'s {T.tile_name(self.discard_tile)}, or seat {nxt} draws"
        if self.phase == "replace":
            return f"seat {self.turn} draws a replacement from the back of the wall"
        if self.phase == "rob":
            return f"a win robbing seat {self.discard_seat}'s kong, or its replacement draw"
        return "nothing: the hand has ended"

    def _next_flower_seat(self) -> None:
        """The deal's flowers: each seat from the dealer exposes every flower it holds (and draws its
        replacements) before the next; then the dealer plays."""
        if self.phase != "flowers":
            return
        if not self.rules.flowers_at_deal:
            self.phase, self.turn = "play", self.dealer
            return
        for k in range((self.turn - self.dealer) % SEATS, SEATS):
            seat = (self.dealer + k) % SEATS
            if self.holds_flower(self.players[seat]) >= 0:
                self.turn = seat
                return
        self.phase, self.turn = "play", self.dealer
        self.players[self.dealer].replacement = ()


_TABLE_FIELDS = ("rules", "scorer", "shapes", "wall", "head", "tail", "dealer", "round_wind", "hand_number",
                 "counters", "flags", "players", "calls", "phase", "turn", "discard_seat", "discard_tile",
                 "claimed_by", "wins", "drawn_game", "forfeits", "lou_hu_blocks", "events", "rob_kind",
                 "after_replace", "buried", "swapped", "unrobbable", "declarable", "claims_as_declared", "before_claim",
                 "quarters", "quarter", "fronts")


def step(table: Table, ev: Event) -> Table | Violation:
    """The pure form of `Table.apply`: the table after `ev`, or the Violation (the given table unchanged)."""
    after = table.copy()
    problem = after.apply(ev)
    return problem if problem is not None else after


def _distance(discarder: int, seat: int) -> int:
    return (seat - discarder) % SEATS
