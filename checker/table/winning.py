"""Winning at the table: a win declared on a tile or on the deal's flowers, whether a seat could win, the hand
it would score, and the wins a seat let go (漏胡, a knocked player's missed self-draw, the mandatory kong)."""
from __future__ import annotations

from typing import Any, Sequence

from checker import tiles as T
from checker.engine import HandError, Score
from checker.engine.hand import Meld as ScoredMeld
from checker.table.board import Board, Player, Win
from checker.table.events import Event, Violation
from checker.table.wall import SEATS


# when a win on the flowers may be declared (procedure.flower_exposure.declared_win), in a refusal's words
DECLARED_WHEN = {
    "at_once": "at once, right after the replacement of the last flower, or at seat {seat}'s own turn or on a "
               "discard it may take",
    "own_turn": "(flower_exposure.declared_win: own_turn) only at seat {seat}'s own turn or on a discard it may take",
    "before_replacement": "(flower_exposure.declared_win: before_replacement) only right after the last flower is "
                          "exposed, before its replacement is drawn (drawing it lets the declaration pass)",
}


class Winning(Board):
    """The wins of a hand of play and the checks on the wins let go."""

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
            return Violation(rules.rule("flower_exposure"), f"{ev.text()}: a win on the flowers (八花齐) is declared "
                             f"{DECLARED_WHEN[rules.declared_win].format(seat=ev.seat)}")
        return self._turn(ev, self._expected())

    def _on_declared_win(self, ev: Event) -> Violation | None:
        """八花齐 declared at once (procedure.flower_exposure, declared_win: at_once): right after the replacement
        that completed the flowers, during the deal and whoever's turn it is, paid as a self-drawn win
        (before_replacement: right after the last flower, before its replacement, in the deal or in play). The
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
            nearer = [w.seat for w in self.wins if distance(discarder or 0, w.seat) > distance(discarder or 0, ev.seat)]
            if nearer:
                return Violation(rules.rule("multiple_winners"), f"{ev.text()}: several winners on one discard are "
                                 f"declared in turn order from the discarder; seat {nearer[0]} came first")
        if p.dead:
            return Violation(rules.rule("knock"), f"{ev.text()}: seat {ev.seat} let a win go after knocking and "
                             f"has forfeited this hand")
        if discarder is not None and not self.wins and rules.multiple_winners != "all_paid" \
                and rules.knock_must_win and rules.missed_win_after_knock == "not_allowed":
            # one winner: a nearer seat that could win lets its win go; a knocked one may not
            for k in range(1, distance(discarder, ev.seat)):
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
                   others_won: Sequence[int] = (), discarder_call: bool = True) -> dict[str, Any]:
        """The scorer's input for seat `seat` winning on `tile`: tiles, melds (seats relative to the winner),
        winds, flowers, and the context flags and counters the table knows (`discarder_call`: whether to value
        the discarder's own waiting hand for 包's exemption)."""
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
            if flag in known and len([f for f in p.flowers if T.is_flower(f)]) == flowers and \
                    self._flowers_declarable(seat):
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
        exempt = self.rules.liability_exempt_flag
        if exempt and discarder_call and discarder is not None and win_by == "discard" \
                and self.called_doubles(discarder, seat) >= self.rules.liability_exempt_doubles:
            flags.add(exempt)
        return {"concealed": concealed, "melds": melds, "win_tile": tile, "win_by": win_by,
                "discarder": None if discarder is None else (discarder - seat) % SEATS,
                "seat_wind": T.WIND_LETTERS[(seat - self.dealer) % SEATS], "round_wind": self.round_wind,
                "flowers": tuple(p.flowers), "flags": sorted(flags), "counters": counters}

    def _flowers_declarable(self, seat: int) -> bool:
        """Whether a win on the flowers is open to the seat now (declared_win): under before_replacement only
        before the last flower's replacement (the table waiting on the seat's replacement draw); once it is drawn,
        a later win is an ordinary one, its flowers counted as any others."""
        return self.rules.declared_win != "before_replacement" or (self.phase == "replace" and self.turn == seat)

    def called_doubles(self, seat: int, winner: int) -> int:
        """三番叫胡 (settlement.liability.exempt_doubles): the doubles (番: the points of the `double` fans counted)
        seat `seat`'s own hand is worth on its best winning tile, ready as it stands, won on a discard of
        `winner`; 0 when it is not ready."""
        kinds = {pattern.id: pattern.kind for pattern in self.rules.ruleset.patterns}
        best = 0
        for tile in sorted(self.waits_of(self.players[seat])):
            try:
                hand = self.scorer.build_hand(**self.hand_input(seat, tile, "discard", winner, discarder_call=False))
            except HandError:
                continue
            worth = sum(line.points * line.count for line in self.scorer.score(hand).fans if kinds.get(line.id) == "double")
            best = max(best, worth)
        return best

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


    # ------------------------------------------------------------------ wins let go

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


def distance(discarder: int, seat: int) -> int:
    return (seat - discarder) % SEATS
