"""The table's state: the seats (Player, Meld, Win), the wall and the phase, and reading them. The events that
change it are played by the classes built on `Board`, down to `checker.table.state.Table`."""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Mapping, Sequence, TypeVar

from checker import tiles as T
from checker.engine import Score, Scorer
from checker.spec.procedure import TableRules
from checker.table.events import Event, LogError, Violation
from checker.table.hands import shapes_of
from checker.table.wall import SEATS, deal_order

_B = TypeVar("_B", bound="Board")


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


class Board:
    """One hand of play as it stands: seats, wall, phase and turn; what every event handler reads."""

    def __init__(self, rules: TableRules, scorer: Scorer, wall: Sequence[int], dealer: int = 0,
                 round_wind: str = "E", counters: Mapping[str, int] | None = None,
                 flags: Sequence[str] = (), contract_calls: Sequence[Sequence[int]] | None = None,
                 hand_number: int = 0, deal: bool = True, claims_as_declared: bool = False):
        self.rules, self.scorer = rules, scorer
        # how the log writes claims (its header's claim_order): in the order the priority resolves them (a claim
        # outranked by one already made is refused), or as declared (a later claim that outranks one made, before
        # its claimer discards, takes the tile: the table goes back to `before_claim` and makes it)
        self.claims_as_declared = claims_as_declared
        self.before_claim: Board | None = None  # the table before the last claim (kept under claims_as_declared)
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
        if not deal:  # a table whose fields are about to be copied in (Claims.copy)
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


    def declares_on_flowers(self, p: Player) -> bool:
        """Whether the player holds the flowers a declared-flowers shape of the spec needs (八花齐)."""
        held = len([f for f in p.flowers if T.is_flower(f)])
        return any(held >= flowers for _, flowers in self.rules.declared_flowers)

    def _won_on_a_tile(self) -> bool:
        """The hand was won on a discard or a robbed kong: another seat's win on the same tile is a question of
        `multiple_winners` (allowed, or refused by that rule), not an event after the end."""
        return bool(self.wins) and self.wins[0].win_by != "self_draw"

    # ------------------------------------------------------------------ playing an event, on this table or a copy

    def copy(self: _B) -> _B:
        """A table that shares nothing mutable with this one (the rules, scorer and wall are read-only)."""
        other = type(self)(self.rules, self.scorer, self.wall, deal=False)  # compiled, it has no __dict__ to copy
        for name in TABLE_FIELDS:
            setattr(other, name, getattr(self, name))
        other.players = copy.deepcopy(self.players)
        other.calls = [list(r) for r in self.calls]
        other.wins = list(self.wins)
        other.forfeits = list(self.forfeits)
        other.buried, other.swapped = list(self.buried), list(self.swapped)
        other.fronts = list(self.fronts)
        return other

    def _adopt(self, work: Board) -> None:
        """Take `work`'s state (a copy played on), this table's count of events kept (the caller's one event)."""
        events = self.events
        for name in TABLE_FIELDS:
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
        handler = "_on_declared_win" if ev.kind == "win" and ev.seat == declarable else "_on_" + ev.kind
        problem = getattr(self, handler)(ev)  # the handlers: checker.table.state, .claims and .winning
        if problem is None:
            self.events += 1
        elif self.declarable < 0:
            self.declarable = declarable
        return problem

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

    # ------------------------------------------------------------------ helpers

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


TABLE_FIELDS = ("rules", "scorer", "shapes", "wall", "head", "tail", "dealer", "round_wind", "hand_number",
                 "counters", "flags", "players", "calls", "phase", "turn", "discard_seat", "discard_tile",
                 "claimed_by", "wins", "drawn_game", "forfeits", "lou_hu_blocks", "events", "rob_kind",
                 "after_replace", "buried", "swapped", "unrobbable", "declarable", "claims_as_declared", "before_claim",
                 "quarters", "quarter", "fronts")
