"""Interpretations of a winning hand: one division into groups plus one placement of the winning tile.

MCR scores every interpretation separately and keeps the best ("never combine fans from different
interpretations"). `HandFacts` holds what does not depend on the division (tile counts, suits present,
the tiles the hand waits on) so it is computed once per hand.
"""
from __future__ import annotations

from typing import Final, Mapping, Sequence

from checker import tiles as T
from checker.engine.hand import Hand
from checker.engine.shapes import CHOW, KNITTED, KONG, PAIR, PUNG, BoundShapes, Group

EDGE: Final = "edge"
CLOSED: Final = "closed"
SINGLE_WAIT: Final = "single"
OPEN: Final = "open"
DUAL_PUNG: Final = "pung"


def tile_mask(tiles) -> int:
    """A bit per tile type (bit t for tile t), for fast "only these tiles" tests."""
    mask = 0
    for t in tiles:
        mask |= 1 << t
    return mask


SUIT_MASKS: Final = tuple(tile_mask(range(9 * s, 9 * s + 9)) for s in range(3))
WIND_MASK: Final = tile_mask(T.WINDS)
DRAGON_MASK: Final = tile_mask(T.DRAGONS)
# the suits present ("m", "p", "s"), indexed by three bits: characters, dots, bamboo
SUITS_BY_MASK: Final = tuple(frozenset(s for i, s in enumerate("mps") if bits >> i & 1) for bits in range(8))


class HandFacts:
    """Division-independent facts about a hand, computed once and shared by its interpretations. Given `like`,
    the facts of a hand holding the same tiles and melds (`holds_tiles_of` tells), the counts are taken from it
    unchecked, and with the same winning tile the waits it has found too (Scorer.score_wins)."""

    closed_counts: tuple[int, ...]  # per tile type, the tiles outside the melds (the winning tile included)
    closed_types: int
    counts: tuple[int, ...]  # per tile type, every tile of the hand
    mask: int  # bit t set when tile type t is in the hand
    kong_mask: int  # bit t set when the hand declared a kong of tile type t
    suits: frozenset[str]
    has_winds: bool
    has_dragons: bool
    exposed_melds: int
    _completing: frozenset[int] | None
    _waiting: frozenset[int] | None
    # whether the hand waits on one tile type, without / with held fours: -1 not known yet, else 0 or 1
    _one_wait_free: int
    _one_wait_held: int

    def __init__(self, hand: Hand, shapes: BoundShapes | Sequence[tuple[str, Mapping]],
                 like: HandFacts | None = None):
        self.hand = hand
        self.shapes = shapes if isinstance(shapes, BoundShapes) else BoundShapes(shapes)
        if like is not None:  # the same tiles and melds (Scorer.score_wins): share the counts they decide, and
            # with the same winning tile (won another way) the waits found so far
            self.closed_counts, self.closed_types, self.counts = like.closed_counts, like.closed_types, like.counts
            self.mask, self.kong_mask, self.suits = like.mask, like.kong_mask, like.suits
            self.has_winds, self.has_dragons, self.exposed_melds = like.has_winds, like.has_dragons, like.exposed_melds
            self.flags = hand.flags
            if hand.win_tile == like.hand.win_tile:
                self._completing, self._waiting = like._completing, like._waiting
                self._one_wait_free, self._one_wait_held = like._one_wait_free, like._one_wait_held
            else:
                self._completing = None
                self._waiting = None
                self._one_wait_free = self._one_wait_held = -1
            return
        closed = [0] * T.NUM_TILE_TYPES
        types = 0  # how many tile types the concealed tiles span
        mask = 0
        for t in hand.concealed:
            if not closed[t]:
                types += 1
                mask |= 1 << t
            closed[t] = closed[t] + 1
        win = hand.win_tile
        if not closed[win]:
            types += 1
            mask |= 1 << win
        closed[win] = closed[win] + 1
        self.closed_counts = tuple(closed)
        self.closed_types = types
        counts = closed[:]
        kongs = exposed = 0
        for m in hand.melds:
            t = m.tile
            if m.kind == CHOW:
                counts[t] = counts[t] + 1
                counts[t + 1] = counts[t + 1] + 1
                counts[t + 2] = counts[t + 2] + 1
                mask |= 7 << t
            else:
                counts[t] = counts[t] + (4 if m.kind == KONG else 3)
                mask |= 1 << t
                if m.kind == KONG:
                    kongs |= 1 << t
            if not m.concealed:
                exposed += 1
        self.counts = tuple(counts)
        self.mask = mask
        self.kong_mask = kongs
        self.suits = SUITS_BY_MASK[(mask & SUIT_MASKS[0] != 0) | (mask & SUIT_MASKS[1] != 0) << 1
                                   | (mask & SUIT_MASKS[2] != 0) << 2]
        self.has_winds = bool(mask & WIND_MASK)
        self.has_dragons = bool(mask & DRAGON_MASK)
        self.exposed_melds = exposed
        self.flags = hand.flags
        self._completing = None
        self._waiting = None
        self._one_wait_free = self._one_wait_held = -1

    def holds_tiles_of(self, hand: Hand) -> bool:
        """Whether `hand` holds the same tiles outside its melds as this one, whichever of them won (the melds
        are the caller's to compare)."""
        if len(hand.concealed) != len(self.hand.concealed):
            return False
        left = list(self.closed_counts)
        for t in hand.concealed:
            n = left[t]
            if not n:
                return False
            left[t] = n - 1
        return left[hand.win_tile] == 1

    @property
    def completing_tiles(self) -> frozenset[int]:
        """Tile types that would complete the hand before its winning tile, by shape alone (even a tile of
        which the hand already holds all four copies). Found on first use."""
        if self._completing is None:
            win = self.hand.win_tile
            before = list(self.closed_counts)
            before[win] = before[win] - 1
            counts, n_melds = tuple(before), len(self.hand.melds)
            types = self.closed_types - (before[win] == 0)  # the tile types before the winning tile
            waits: set[int] = set()
            for shape_waits in self.shapes.waiters[n_melds][types]:
                waits |= shape_waits(counts, n_melds)
            self._completing = frozenset(waits)
        return self._completing

    def waits_on_one_tile(self, held_four_is_a_wait: bool) -> bool:
        """Whether the hand waited on one tile type only (the condition of the wait fans); a tile whose four
        copies the hand holds counts only `held_four_is_a_wait`. Stops at the second wait it finds."""
        known = self._one_wait_held if held_four_is_a_wait else self._one_wait_free
        if known >= 0:
            return known == 1
        if self._completing is not None:  # the waits are already known
            waits = self.completing_tiles if held_four_is_a_wait else self.waiting_tiles
            one = len(waits) == 1
        else:
            win, held = self.hand.win_tile, self.counts
            before = list(self.closed_counts)
            before[win] = before[win] - 1
            counts, n_melds = tuple(before), len(self.hand.melds)
            found: set[int] = set()
            for shape_waits in self.shapes.waiters[n_melds][self.closed_types - (before[win] == 0)]:
                for t in shape_waits(counts, n_melds):
                    if held_four_is_a_wait or held[t] - (t == win) < 4:
                        found.add(t)
                if len(found) > 1:
                    break
            one = len(found) == 1
        if held_four_is_a_wait:
            self._one_wait_held = int(one)
        else:
            self._one_wait_free = int(one)
        return one

    @property
    def waiting_tiles(self) -> frozenset[int]:
        """The completing tiles the hand can still win on: not one whose four copies it already holds."""
        if self._waiting is None:
            win, counts = self.hand.win_tile, self.counts
            self._waiting = frozenset(t for t in self.completing_tiles if counts[t] - (t == win) < 4)
        return self._waiting


class Interpretation:
    """One reading of the hand: its shape, its groups (melds first, pair last for the regular shape),
    the group the winning tile completes and how it completes it. Treat as immutable."""

    __slots__ = ("shape", "groups", "win_group", "win_kind", "facts", "chows", "pungs", "kongs", "pair", "structure",
                 "chow_tiles", "pung_tiles", "division")
    # lists, not tuples: made for every interpretation, and copying them into tuples cost measurably
    chows: list[int]  # group indices
    pungs: list[int]  # group indices of the pungs and kongs
    kongs: int
    chow_tiles: list[int]  # lowest tile of each chow, in `chows` order
    pung_tiles: list[int]  # tile of each pung / kong, in `pungs` order
    pair: Group | None
    structure: tuple  # what decides which predicates can hold here (see predicates.registry.gate)

    def __init__(self, shape: str, groups: tuple[Group, ...], win_group: int | None, win_kind: str | None,
                 facts: HandFacts, division: int = -1, like: Interpretation | None = None):
        self.shape, self.groups, self.win_group, self.win_kind, self.facts = shape, groups, win_group, win_kind, facts
        # the index of its division in the hand's `divisions_of` list, when given one (-1: not known)
        self.division = division
        if like is not None:  # the same division, of a hand holding the same tiles and melds: the same sets
            self.chows, self.pungs, self.kongs = like.chows, like.pungs, like.kongs
            self.chow_tiles, self.pung_tiles, self.pair = like.chow_tiles, like.pung_tiles, like.pair
            self.structure = (shape, len(self.chows), len(self.pungs), self.kongs, win_kind, facts.has_winds,
                              facts.has_dragons)
            return
        chows: list[int] = []
        pungs: list[int] = []
        chow_tiles: list[int] = []
        pung_tiles: list[int] = []
        kongs = n_pairs = 0
        pair = None
        for i, g in enumerate(groups):
            kind = g.kind
            if kind == CHOW:
                chows.append(i)
                chow_tiles.append(g.tile)
            elif kind == PUNG or kind == KONG:
                pungs.append(i)
                pung_tiles.append(g.tile)
                if kind == KONG:
                    kongs += 1
            elif kind == PAIR:
                pair = g
                n_pairs += 1
        self.chows, self.pungs, self.kongs = chows, pungs, kongs
        self.chow_tiles = chow_tiles
        self.pung_tiles = pung_tiles
        self.pair = pair if n_pairs == 1 else None
        self.structure = (shape, len(self.chows), len(self.pungs), self.kongs, win_kind, facts.has_winds,
                          facts.has_dragons)

    def describe(self) -> str:
        parts = []
        for i, g in enumerate(self.groups):
            label = g.text()
            if g.melded:
                label = f"[{label}]" if g.exposed else f"[{label} concealed]"
            if i == self.win_group:
                label += "*"
            parts.append(label)
        return f"{self.shape}: " + " ".join(parts)


def divisions_of(hand: Hand, facts: HandFacts) -> list[tuple[str, tuple[Group, ...]]]:
    """Every division of the tiles outside the melds, with its shape's name. It depends on those tiles (with the
    winning tile), the melds and the hand's context, not on which tile won or how: hands alike but for that share
    it (`Scorer.score_wins`)."""
    n_melds = len(hand.melds)
    counts = facts.closed_counts
    out: list[tuple[str, tuple[Group, ...]]] = []
    for name, divisions, needs_hand in facts.shapes.decomposers[n_melds][facts.closed_types]:
        for division in (divisions(counts, n_melds, hand=hand) if needs_hand else divisions(counts, n_melds)):
            out.append((name, division))
    return out


def interpretations(hand: Hand, facts: HandFacts, divisions: list[tuple[str, tuple[Group, ...]]] | None = None,
                    made: list[Interpretation | None] | None = None) -> list[Interpretation]:
    """Every (division, winning-tile placement) of the hand under the ruleset's shapes; `divisions`, when given,
    are the hand's (`divisions_of`), made once for several hands that differ only in the winning tile or way, and
    `made` keeps, per division, one interpretation made of it, whose sets the others share."""
    meld_groups = tuple(MELD_GROUPS[m.kind][m.concealed][m.tile] for m in hand.melds)
    out: list[Interpretation] = []
    known = divisions is not None
    for index, (name, division) in enumerate(divisions if divisions is not None else divisions_of(hand, facts)):
        if not division:  # a declared win with no groups (八花齐)
            out.append(Interpretation(name, meld_groups, None, None, facts, index if known else -1))
        elif made is None:
            out.extend(_placements(name, meld_groups, division, hand, facts, index if known else -1, None))
        else:
            while len(made) <= index:
                made.append(None)
            placed = _placements(name, meld_groups, division, hand, facts, index, made[index])
            if placed and made[index] is None:
                made[index] = placed[0]
            out.extend(placed)
    if len(out) > 1:  # two shapes may read the tiles alike: keep each reading once
        seen: set[tuple] = set()
        unique = []
        for x in out:
            key = (x.shape, x.groups, x.win_group)
            if key not in seen:
                seen.add(key)
                unique.append(x)
        out = unique
    return out


# The group of each declared meld, made once: [kind][concealed][tile] (only a kong can be concealed).
MELD_GROUPS: Final = {kind: tuple(tuple(Group(kind, t, True, not hidden, kind == KONG and hidden)
                                        for t in range(T.NUM_TILE_TYPES))
                                  for hidden in (False, True)) for kind in (CHOW, PUNG, KONG)}


def _placements(shape: str, meld_groups: tuple[Group, ...], division: tuple[Group, ...], hand: Hand,
                facts: HandFacts, index: int, like: Interpretation | None) -> list[Interpretation]:
    """The winning tile may complete any concealed group holding it; each choice is an interpretation."""
    win = hand.win_tile
    claimed = not hand.self_drawn
    base = meld_groups + division
    out = []
    for j, g in enumerate(division):
        kind, tile = g[0], g[1]
        if kind == CHOW:
            holds = tile <= win <= tile + 2
        elif kind == KNITTED:
            holds = win == tile or win == tile + 3 or win == tile + 6
        else:
            holds = win == tile
        if not holds or _repeats(division, j):
            continue
        groups = base
        if claimed and kind == PUNG:  # a pung completed by a discard is not concealed
            groups = meld_groups + division[:j] + (CLAIMED_PUNGS[tile],) + division[j + 1:]
        x = Interpretation(shape, groups, len(meld_groups) + j, _win_kind(g, win), facts, index, like)
        like = x
        out.append(x)
    return out


def _repeats(division: tuple[Group, ...], j: int) -> bool:
    """Whether group j of the division equals an earlier one (the same placement, already made)."""
    g = division[j]
    for k in range(j):
        if division[k] == g:
            return True
    return False


CLAIMED_PUNGS: Final = tuple(Group(PUNG, t, concealed=False) for t in range(T.NUM_TILE_TYPES))  # pungs completed by a discard


def _win_kind(group: Group, win: int) -> str | None:
    if group.kind == PAIR:
        return SINGLE_WAIT
    if group.kind == PUNG:
        return DUAL_PUNG
    if group.kind == CHOW:
        if win == group.tile + 1:
            return CLOSED
        rank = win % 9 + 1  # a chow's tiles are numbered: rank 1-9
        if (rank == 3 and win == group.tile + 2) or (rank == 7 and win == group.tile):
            return EDGE
        return OPEN
    return None  # a knitted run or a lone tile of a knitted / orphans hand: no wait fan by definition
