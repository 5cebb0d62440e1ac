"""Interpretations of a winning hand: one division into groups plus one placement of the winning tile.

MCR scores every interpretation separately and keeps the best ("never combine fans from different
interpretations"). `HandFacts` holds what does not depend on the division (tile counts, suits present,
the tiles the hand waits on) so it is computed once per hand.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Mapping, Sequence

from checker import tiles as T
from checker.engine.hand import Hand
from checker.engine.shapes import CHOW, KONG, KNITTED, PAIR, PUNG, SHAPES, Group

EDGE, CLOSED, SINGLE_WAIT, OPEN, DUAL_PUNG = "edge", "closed", "single", "open", "pung"


class HandFacts:
    """Division-independent facts about a hand, computed once and shared by its interpretations."""

    def __init__(self, hand: Hand, shapes: Sequence[tuple[str, Mapping]]):
        self.hand = hand
        self.shapes = shapes
        counts = [0] * 34
        for t in hand.all_tiles:
            counts[t] += 1
        self.counts: tuple[int, ...] = tuple(counts)
        closed = [0] * 34
        for t in hand.closed_tiles:
            closed[t] += 1
        self.closed_counts: tuple[int, ...] = tuple(closed)
        self.present: tuple[int, ...] = tuple(t for t in range(34) if counts[t])
        self.suits = frozenset(T.suit_of(t) for t in self.present if t < 27)
        self.has_winds = any(27 <= t <= 30 for t in self.present)
        self.has_dragons = any(t >= 31 for t in self.present)
        self.exposed_melds = sum(1 for m in hand.melds if m.exposed)
        self.flags = hand.flags

    @cached_property
    def waiting_tiles(self) -> frozenset[int]:
        """Tile types that would complete the hand before its winning tile (a fifth copy is impossible)."""
        before = list(self.closed_counts)
        before[self.hand.win_tile] -= 1
        n_melds = len(self.hand.melds)
        waits = set()
        for t in range(34):
            if self.counts[t] - (t == self.hand.win_tile) >= 4:
                continue
            before[t] += 1
            counts = tuple(before)
            if any(SHAPES[name].complete(counts, n_melds, **params) for name, params in self.shapes):
                waits.add(t)
            before[t] -= 1
        return frozenset(waits)


@dataclass(frozen=True)
class Interpretation:
    """One reading of the hand: its shape, its groups (melds first, pair last for the regular shape),
    the group the winning tile completes and how it completes it."""

    shape: str
    groups: tuple[Group, ...]
    win_group: int | None
    win_kind: str | None
    facts: HandFacts = field(compare=False, repr=False)

    @cached_property
    def sets(self) -> tuple[int, ...]:
        """Indices of chows, pungs and kongs."""
        return tuple(i for i, g in enumerate(self.groups) if g.kind in (CHOW, PUNG, KONG))

    @cached_property
    def chows(self) -> tuple[int, ...]:
        return tuple(i for i, g in enumerate(self.groups) if g.kind == CHOW)

    @cached_property
    def pungs(self) -> tuple[int, ...]:
        """Indices of pungs and kongs."""
        return tuple(i for i, g in enumerate(self.groups) if g.kind in (PUNG, KONG))

    @cached_property
    def pair(self) -> Group | None:
        pairs = [g for g in self.groups if g.kind == PAIR]
        return pairs[0] if len(pairs) == 1 else None

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


def interpretations(hand: Hand, facts: HandFacts) -> list[Interpretation]:
    """Every (division, winning-tile placement) of the hand under the ruleset's shapes."""
    meld_groups = tuple(
        Group(m.kind, m.tile, melded=True, exposed=m.exposed, concealed=(m.kind == KONG and m.concealed))
        for m in hand.melds
    )
    n_melds = len(hand.melds)
    out: list[Interpretation] = []
    seen: set = set()
    for name, params in facts.shapes:
        for division in SHAPES[name].decompose(facts.closed_counts, n_melds, **params):
            for interp in _placements(name, meld_groups, division, hand, facts):
                key = (interp.shape, interp.groups, interp.win_group)
                if key not in seen:
                    seen.add(key)
                    out.append(interp)
    return out


def _placements(shape, meld_groups, division, hand: Hand, facts: HandFacts):
    """The winning tile may complete any concealed group holding it; each choice is an interpretation."""
    win = hand.win_tile
    claimed = not hand.self_drawn
    done = set()
    for j, g in enumerate(division):
        if win not in g.tiles or (g.kind, g.tile) in done:
            continue
        done.add((g.kind, g.tile))
        groups = list(meld_groups)
        for k, other in enumerate(division):
            if k == j and claimed and other.kind == PUNG:
                other = Group(PUNG, other.tile, concealed=False)  # a pung completed by a discard is not concealed
            groups.append(other)
        yield Interpretation(shape, tuple(groups), len(meld_groups) + j, _win_kind(g, win), facts)


def _win_kind(group: Group, win: int) -> str | None:
    if group.kind == PAIR:
        return SINGLE_WAIT
    if group.kind == PUNG:
        return DUAL_PUNG
    if group.kind == CHOW:
        if win == group.tile + 1:
            return CLOSED
        rank = T.rank_of(win)
        if (rank == 3 and win == group.tile + 2) or (rank == 7 and win == group.tile):
            return EDGE
        return OPEN
    return None  # a knitted run or a lone tile of a knitted / orphans hand: no wait fan by definition
