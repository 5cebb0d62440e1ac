"""Claims of a discard: chow, pung, kong, a kong from one's own tiles or an exposed pung, every seat's answers at once,
the priority between claims, and the close of a discard (who passed on it). `apply` plays any event."""
from __future__ import annotations

from checker import tiles as T
from checker.table.board import Meld
from checker.table.events import Event, Violation
from checker.table.hands import chow_other_end, chows_with
from checker.table.wall import SEATS
from checker.table.winning import Winning


class Claims(Winning):
    """Claims, and playing an event on this table or on a copy of it."""

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
        if self.claimed_by == ev.seat and self.rules.concealed_kong_after_claim == "after_own_draw":
            return Violation(self.rules.concealed_kong_after_claim_rule, f"{ev.text()}: seat {ev.seat} claimed a "
                             f"discard this turn and discards next; a concealed kong is declared only in a turn the "
                             f"player drew", "discard")
        if p.knocked and self.rules.knock_locks_hand and self.rules.knock_concealed_kong == "never":
            return Violation(self.rules.knock_concealed_kong_rule, f"{ev.text()}: seat {ev.seat} has knocked; its "
                             f"locked hand declares no concealed kong")
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
                # a seat could have taken the tile with a claim the one made does not outrank; where an outranked
                # seat has passed too (forgo_then_reclaim/outranked_passes), with any claim it could make
                over = -1 if self.rules.forgo_outranked_passes else rank
                could_pung = p.counts[tile] >= 2 and over < ranks["pung"]
                could_chow = over < ranks["chow"] and seat == (discarder + 1) % SEATS \
                    and bool(chows_with(p.counts, tile))
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
