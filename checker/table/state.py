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

from checker import tiles as T
from checker.table.board import TABLE_FIELDS, Player, Win
from checker.table.claims import Claims
from checker.table.events import Event, LogError, Violation
from checker.table.wall import SEATS

__all__ = ["SEATS", "TABLE_FIELDS", "Player", "Table", "Win", "step"]


class Table(Claims):
    """One hand of play. Build it with `Table.deal(rules, scorer, wall, dealer=…)`; its turns (draws, flowers,
    discards, knocks, swaps, a drawn hand) are played here, its claims and wins by the classes below it."""

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
                if self.rules.declared_win == "at_once" and self.declares_on_flowers(p):
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
        if self.rules.declared_win == "before_replacement" and self.declares_on_flowers(p):
            self.declarable = ev.seat  # 八花齐 declared before this flower's replacement, or let go by drawing it
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
        if p.knocking and not self.shape_waits(p, ev.tile):
            return Violation(self.rules.rule("knock"), f"{ev.text()}: seat {ev.seat} knocked, but this discard "
                             f"leaves its hand waiting on no tile", "a discard that leaves the hand ready")
        if p.knocking and not self.ready_after(p, ev.tile):
            return Violation(self.rules.knock_wait_rule, f"{ev.text()}: seat {ev.seat} knocked, but this discard "
                             f"leaves its hand waiting on no tile it would win on (knock wait: winning_hand)",
                             "a discard that leaves the hand waiting on a win")
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
        held = [t for t in range(T.NUM_TILE_TYPES) if p.counts[t]] if self.rules.knock_checked_at == "knock" else []
        if held and not any(self.shape_waits(p, t) for t in held):
            return Violation(self.rules.rule("knock"), f"{ev.text()}: no discard leaves seat {ev.seat}'s hand "
                             f"waiting on a tile it could still win on", "a discard (no knock)")
        if held and not any(self.ready_after(p, t) for t in held):
            return Violation(self.rules.knock_wait_rule, f"{ev.text()}: no discard leaves seat {ev.seat}'s hand "
                             f"waiting on a tile it would win on (knock wait: winning_hand)", "a discard (no knock)")
        p.knocking = True
        return None

    def ready_after(self, p: Player, tile: int) -> bool:
        """Whether discarding `tile` leaves the player waiting as a knock asks (procedure.knock, its `wait`): on a
        tile completing one of the shapes that still exists (not all four of it in its own hand and melds), and
        under `winning_hand` (option knock_wait) on one it would win on, by a discard or drawn (the first found)."""
        waits = self.shape_waits(p, tile)
        if self.rules.knock_wait != "winning_hand":
            return bool(waits)
        return any(self._would_win_on(p, tile, t) for t in sorted(waits))

    def shape_waits(self, p: Player, tile: int) -> set[int]:
        """The tiles discarding `tile` leaves the player waiting on in one of the shapes, that still exist."""
        counts = p.counts[:T.NUM_TILE_TYPES]
        counts[tile] -= 1
        return self.live_waits(p, self.shapes.waits(counts, len(p.melds)), counts)

    def _would_win_on(self, p: Player, discarded: int, tile: int) -> bool:
        """Whether the player, knocked, with `discarded` let go, would win on `tile`: the scorer's verdict on it
        won on another seat's discard, else drawn (no replacement). The player is left as it was."""
        counts, knocked, drawn, replacement = p.counts, p.knocked, p.drawn, p.replacement
        try:
            p.counts = list(counts)
            p.counts[discarded] -= 1
            p.knocked, p.replacement = True, ()
            score = self.score(p.seat, tile, "discard", (p.seat + 1) % SEATS)
            if score is not None and score.valid:
                return True
            p.counts[tile] += 1
            p.drawn = tile
            score = self.score(p.seat, tile, "self_draw", None)
            return score is not None and score.valid
        finally:
            p.counts, p.knocked, p.drawn, p.replacement = counts, knocked, drawn, replacement


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


def step(table: Table, ev: Event) -> Table | Violation:
    """The pure form of `Table.apply`: the table after `ev`, or the Violation (the given table unchanged)."""
    after = table.copy()
    problem = after.apply(ev)
    return problem if problem is not None else after

