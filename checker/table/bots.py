"""Simple players for simulated hands: `random` (any legal move, uniformly) and `greedy` (wins, knocks and claims
whenever it can, and discards what helps its hand least). Both only propose moves; every move is played through
`Table.apply`, so a bot can never make an illegal one stick."""
from __future__ import annotations

import random
from itertools import chain
from typing import Iterable, Iterator

from checker import tiles as T
from checker.table.events import Event
from checker.table.hands import chows_with
from checker.table.state import SEATS, Player, Table

BOTS = ("random", "greedy")
# the bots at the four seats of simulated hands, taken in turn (corpus generation, its search, diagnosis's probes)
SEAT_MIXES = (("greedy", "random", "greedy", "random"), ("random",) * 4, ("greedy",) * 4)


def self_moves(table: Table, seat: int) -> list[Event]:
    """The moves the seat on turn may try: a flower first (it must be exposed), then win, kongs, discards."""
    p = table.players[seat]
    flower = table.holds_flower(p)
    if flower >= 0:
        return [Event("flower", seat, flower)]
    moves = []
    if p.drawn >= 0 or p.replacement or (seat == table.dealer and not p.discards and not p.melds):
        tile = p.drawn if p.drawn >= 0 else _any_tile(p)
        if table.could_win(seat, tile, "self_draw", None):
            moves.append(Event("win", seat, tile))
    if table.tiles_left(seat) > 0:
        for t in range(T.NUM_TILE_TYPES):
            if p.counts[t] == 4:
                moves.append(Event("concealed_kong", seat, t))
        for m in p.melds:
            if m.kind == "pung" and p.counts[m.tiles[0]]:
                moves.append(Event("add_kong", seat, m.tiles[0]))
    return moves


def discards(table: Table, p: Player) -> list[int]:
    """Tiles the player might discard (the drawn one first when its hand is locked)."""
    if p.knocked and table.rules.knock_locks_hand and p.drawn >= 0:
        return [p.drawn]
    return [t for t in range(T.NUM_TILE_TYPES) if p.counts[t]]


def ready_after(table: Table, p: Player, tile: int) -> bool:
    """Whether discarding `tile` (a discard the table allows) leaves the hand waiting on some tile."""
    if not table.ready_after(p, tile):
        return False
    return table.discard_problem(Event("discard", p.seat, tile)) is None


def claims(table: Table, seat: int) -> list[Event]:
    """The claims a seat may try on the open discard (or robbable kong), best first."""
    p = table.players[seat]
    tile, discarder = table.discard_tile, table.discard_seat
    robbing = table.phase == "rob" or (table.phase == "ended" and table.wins[0].win_by == "robbing_kong")
    how = "robbing_kong" if robbing else "discard"
    out = []
    if table.could_win(seat, tile, how, discarder):
        out.append(Event("win", seat, tile))
    if how == "discard":
        if p.counts[tile] >= 3 and table.tiles_left(seat) > 0:
            out.append(Event("kong", seat, tile))
        if p.counts[tile] >= 2:
            out.append(Event("pung", seat, tile))
        if seat == (discarder + 1) % SEATS or not table.rules.chow_from_previous_only:
            out += [Event("chow", seat, tiles=run) for run in chows_with(p.counts, tile)]
    return out


def _any_tile(p: Player) -> int:
    return next(t for t in range(T.NUM_TILE_TYPES) if p.counts[t])


def _isolation(p: Player, t: int) -> int:
    """How little a tile does for the hand: 0 in a pair or more, 1 next to a tile of its suit (one or two ranks
    away), 2 a lone suit tile, 3 a lone honour."""
    c = p.counts
    if c[t] >= 2:
        return 0
    if T.is_honor(t):
        return 3
    suit = t // 9
    near = any(c[u] for u in (t - 2, t - 1, t + 1, t + 2) if u in T.SUITED and u // 9 == suit)
    return 1 if near else 2


class Bot:
    """One seat's bot: `rng` decides for the random bot and breaks ties for the greedy one."""

    def __init__(self, kind: str, rng: random.Random):
        if kind not in BOTS:
            raise ValueError(f"unknown bot {kind!r}; bots: {', '.join(BOTS)}")
        self.kind, self.rng = kind, rng

    def claim(self, table: Table, seat: int, options: list[Event]) -> Event | None:
        """The claim this seat makes on the open tile, or None (pass)."""
        if not options:
            return None
        if self.kind == "greedy":
            return options[0]
        choice = self.rng.randrange(len(options) + 2)  # passing is as likely as any two claims
        if options[0].kind == "win":  # a random player takes most wins (else hardly a hand is ever won)
            return options[0] if self.rng.random() < 0.9 else None
        return options[choice] if choice < len(options) else None

    def play(self, table: Table, seat: int) -> Iterator[Event]:
        """The moves this seat tries on its turn, in order (the first legal one is played)."""
        p = table.players[seat]
        moves = self_moves(table, seat)
        if moves and moves[0].kind in ("flower", "win"):
            yield moves[0]
            moves = moves[1:]
        yield from self._discards(table, p, moves)

    def _discards(self, table: Table, p: Player, kongs: list[Event]) -> Iterator[Event]:
        tiles = discards(table, p)
        knock = table.rules.has("knock") and not p.knocked and not p.knocking
        if self.kind == "random":  # from a random tile on, in tile order (any legal discard may come first)
            start = self.rng.randrange(len(tiles))
            tiles = tiles[start:] + tiles[:start]
            if kongs and self.rng.random() < 0.5:
                yield from kongs
            if knock and self.rng.random() < 0.5:
                ready = next((t for t in tiles if ready_after(table, p, t)), -1)
                if ready >= 0:
                    yield Event("knock", p.seat)
                    yield Event("discard", p.seat, ready)
        else:
            tiles.sort(key=lambda t: (-_isolation(p, t), -t))
            yield from kongs
            if knock:
                ready = next((t for t in tiles if ready_after(table, p, t)), -1)
                if ready >= 0:
                    yield Event("knock", p.seat)
                    yield Event("discard", p.seat, ready)
        for t in tiles:
            yield Event("discard", p.seat, t)
        yield from kongs


def _swaps_then_play(table: Table, players: list[Bot]) -> Iterator[Event]:
    for k in range(SEATS):
        seat = (table.dealer + k) % SEATS
        bot = players[seat]
        if seat in table.swapped or bot.kind != "random" or bot.rng.random() >= 1 / 3:
            continue
        p = table.players[seat]
        held = [t for t in range(T.NUM_TILES_WITH_FLOWERS) for _ in range(p.counts[t])]
        bot.rng.shuffle(held)
        yield Event("swap", seat, tiles=tuple(sorted(held[:table.rules.swap_tiles])))
    for k in range(SEATS):  # the first event after the swaps: the deal's first flower, or the dealer's play
        seat = (table.dealer + k) % SEATS
        flower = table.holds_flower(table.players[seat])
        if flower >= 0:
            yield Event("flower", seat, flower)
            return
    yield from players[table.dealer].play(table, table.dealer)


def next_events(table: Table, players: list[Bot]) -> Iterable[Event]:
    """The moves to try next, in order, whatever the phase (the first one the table accepts is played)."""
    phase = table.phase
    if table.declarable >= 0:  # 八花齐 declared at once: a bot always takes it, then plays on if refused
        return chain([Event("win", table.declarable)], _phase_events(table, players))
    return _phase_events(table, players)


def _phase_events(table: Table, players: list[Bot]) -> Iterable[Event]:
    phase = table.phase
    if phase == "swap":  # 换牌: a random bot swaps five random tiles one time in three; then the deal's flowers
        return _swaps_then_play(table, players)
    if phase == "flowers":
        p = table.players[table.turn]
        return [Event("flower", table.turn, table.holds_flower(p))]
    if phase == "replace":
        if table.tiles_left(table.turn) <= 0:
            return [Event("draw_game")]
        return [Event("draw", table.turn, source="back")]
    if phase == "play":
        return players[table.turn].play(table, table.turn)  # a generator: moves are made as they are tried
    if phase in ("discard", "rob"):
        chosen: list[Event] = []
        wins: list[Event] = []  # wins the bots let go: tried after all else (a knocked player may have to win)
        for k in range(1, SEATS):
            seat = (table.discard_seat + k) % SEATS
            options = claims(table, seat)
            claim = players[seat].claim(table, seat, options)
            if claim is not None:
                chosen.append(claim)
            if options and options[0].kind == "win" and claim is not options[0]:
                wins.append(options[0])
        ranks = table.rules.claim_ranks
        chosen.sort(key=lambda e: -ranks[e.kind])  # stable: nearest seat first within a rank
        if phase == "rob":
            return chosen + [Event("draw", table.discard_seat, source="back")] + wins
        if table.tiles_left((table.discard_seat + 1) % SEATS) <= 0:
            return chosen + [Event("draw_game")] + wins
        return chosen + [Event("draw", (table.discard_seat + 1) % SEATS)] + wins
    if phase == "ended" and table.wins and table._more_wins_open():
        more = []
        for k in range(1, SEATS):
            seat = (table.discard_seat + k) % SEATS
            if any(w.seat == seat for w in table.wins):
                continue
            if any(e.kind == "win" for e in claims(table, seat)):
                more.append(Event("win", seat, table.discard_tile))
        return more
    return []

