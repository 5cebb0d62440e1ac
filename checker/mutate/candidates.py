"""Candidate hands of one ruleset, as case `input` objects: for corpus generation, the killing-case search of
`corpus strength` and the probes diagnosis puts to an engine (`checker.diagnose.probes`).

Candidates come from two sources: seeded random winning hands (`checker.random_hands.winning_hand`), each drawn
under a *theme* that biases its tile and set choices (one suit, honours, terminals, green tiles, kongs …) so
that rare patterns turn up in a few thousand hands; and a short list of targeted constructions for patterns
that random hands almost never reach (Nine gates, Seven shifted pairs, 八花齐 …). Each random hand is then
given the context its ruleset knows (flags, counters, dragons as flowers), so the same seed always gives
the same candidates.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Sequence

from checker import tiles as T
from checker.case import hand_input
from checker.engine import Hand, parse_meld
from checker.random_hands import winning_hand
from checker.spec import Ruleset
from checker.spec.roles import roles

SUITED = tuple(T.SUITED)
HONOURS = tuple(T.HONORS)
DRAGONS = tuple(T.DRAGONS)


def _ranks(ranks: Sequence[int], suits: str = "mps") -> tuple[int, ...]:
    return tuple(9 * "mps".index(s) + r - 1 for s in suits for r in ranks)


@dataclass(frozen=True)
class Theme:
    """A bias for random hands: tiles to prefer, set kinds to prefer, shapes to prefer (None: no bias)."""

    name: str
    tiles: tuple[int, ...] | None = None
    kinds: tuple[str, ...] | None = None
    shapes: tuple[str, ...] | None = None


THEMES: tuple[Theme, ...] = (
    Theme("any"), Theme("any2"), Theme("any3"),
    Theme("characters", _ranks(range(1, 10), "m")),
    Theme("bamboo", _ranks(range(1, 10), "s")),
    Theme("characters_chows", _ranks(range(1, 10), "m"), ("chow",)),
    Theme("dots_pungs", _ranks(range(1, 10), "p"), ("pung", "pung", "kong")),
    Theme("characters_honours", _ranks(range(1, 10), "m") + HONOURS),
    Theme("honours", HONOURS, ("pung", "pung", "kong")),
    Theme("winds", tuple(T.WINDS), ("pung", "pung", "kong")),
    Theme("dragons", DRAGONS + _ranks((1, 9)), ("pung",)),
    Theme("terminals_honours", _ranks((1, 9)) + HONOURS, ("pung",)),
    Theme("terminals", _ranks((1, 9)), ("pung",)),
    Theme("terminal_chows", _ranks((1, 7))),
    Theme("simples", _ranks(range(2, 9))),
    Theme("lower", _ranks((1, 2, 3))), Theme("middle", _ranks((4, 5, 6))), Theme("upper", _ranks((7, 8, 9))),
    Theme("lower_four", _ranks((1, 2, 3, 4))), Theme("upper_four", _ranks((6, 7, 8, 9))),
    Theme("green", _ranks((2, 3, 4, 6, 8), "s") + (32,)),
    Theme("even_pungs", _ranks((2, 4, 6, 8)), ("pung",)),
    Theme("fives", _ranks((3, 4, 5))),
    Theme("reversible", _ranks((1, 2, 3, 4, 5, 8, 9), "p") + _ranks((2, 4, 5, 6, 8, 9), "s") + (31,)),
    Theme("kongs", None, ("kong",)),
    Theme("pungs", None, ("pung",)),
    Theme("chows", None, ("chow",)),
    Theme("same_chows", _ranks((2,), "m") + _ranks((3,), "p"), ("chow",)),
    Theme("shifted_pungs", _ranks((3, 4, 5, 6), "p"), ("pung",)),
    Theme("mixed_pungs", _ranks((4, 5, 6)), ("pung",)),
    Theme("special", None, None, ("seven_pairs", "thirteen_orphans", "honors_and_knitted", "knitted_straight")),
)


def themed_pick(rng: random.Random, theme: Theme, avoid: frozenset[int] = frozenset()) -> Callable[[Sequence[Any]], Any]:
    """A `pick` for `winning_hand` that prefers the theme's tiles, kinds and shapes (nine times in ten, so a
    hand can always be completed) and never picks tiles in `avoid` when it has a choice."""

    def pick(seq: Sequence[Any]) -> Any:
        seq = list(seq)
        if seq and all(type(x) is int for x in seq) and len(seq) >= 4 and max(seq) < 34:
            allowed = [x for x in seq if x not in avoid] or seq
            preferred = [x for x in allowed if theme.tiles is None or x in theme.tiles]
            if preferred and rng.random() < 0.92:
                return rng.choice(preferred)
            return rng.choice(allowed)
        if seq and all(isinstance(x, str) for x in seq):
            if "chow" in seq and theme.kinds is not None and rng.random() < 0.92:
                return rng.choice([x for x in seq if x in theme.kinds])
            if "regular" in seq and theme.shapes is not None:
                return rng.choice([x for x in seq if x in theme.shapes])
        return rng.choice(seq)

    return pick


def context_for(ruleset: Ruleset, hand: Hand, rng: random.Random) -> dict[str, Any]:
    """The case input for a random hand under `ruleset`: flags and counters it knows, chosen by `rng`, each found
    by the role it plays (checker.spec.roles), never by a ruleset's own name for it."""
    role = roles(ruleset)
    known = set(ruleset.flags)
    flags = [f for f in hand.flags if f in known]
    if role.flower_replacement and hand.flowers and hand.win_by == "self_draw" and rng.random() < 0.08:
        flags.append(role.flower_replacement)
    if role.knocked and rng.random() < 0.93:
        flags.append(role.knocked)
    counters: dict[str, int] = {}
    extra: list[int] = []
    if ruleset.dragons_as_flowers:
        extra = [rng.choice(DRAGONS) for _ in range(rng.choice((0, 0, 1, 2)))]
    for flag in role.hand_flags:  # 开宝
        if rng.random() < 0.1:
            flags.append(flag)
    if role.discarder_ready and hand.win_by == "discard" and rng.random() < 0.1:
        flags.append(role.discarder_ready)
    for name in role.counted:  # 荒番
        if rng.random() < 0.12:
            counters[name] = rng.choice((1, 2, 3))
    if role.base_counter and rng.random() < 0.08:
        counters[role.base_counter] = rng.choice((0, 5, 10))
    if role.contract_partner and rng.random() < 0.1:
        counters[role.contract_partner] = rng.choice((1, 2, 3))
        if role.contract_mutual and rng.random() < 0.3:
            flags.append(role.contract_mutual)
    data = hand_input(hand, sorted(set(flags)), counters, extra)
    if role.knocked and role.knocked in flags and rng.random() < 0.05:
        for meld in data["melds"]:
            if rng.random() < 0.5 and not meld.get("concealed"):
                meld["after_knock"] = True
    return data


def random_candidates(ruleset: Ruleset, seed: int, size: int) -> Iterator[tuple[str, dict[str, Any]]]:
    """`size` seeded random candidates as (theme name, case input), the themes taken in turn."""
    rng = random.Random(f"{ruleset.id}:{seed}")
    avoid = frozenset(DRAGONS) if ruleset.dragons_as_flowers else frozenset()
    for i in range(size):
        theme = THEMES[i % len(THEMES)]
        hand = winning_hand(themed_pick(rng, theme, avoid), ruleset.table_context)
        if avoid and any(t in avoid for t in hand.all_tiles):
            continue
        yield theme.name, context_for(ruleset, hand, rng)


def _case_input(concealed: str, win: str, melds: Sequence[tuple] = (), win_by: str = "self_draw",
                discarder: int | None = None, flowers: str = "", flags: Sequence[str] = (),
                counters: dict[str, int] | None = None, seat: str = "E", round_: str = "E") -> dict[str, Any]:
    """A case input written out by hand (the targeted constructions below), read as a Hand and written back by
    `hand_input`; melds are (kind, tiles[, the seat it came from])."""
    hand = Hand.build(concealed, [parse_meld(m[0], m[1], source=m[2] if len(m) > 2 else None) for m in melds], win,
                      win_by, discarder, seat, round_, flowers)
    return hand_input(hand, flags, counters)


def targeted_candidates(ruleset: Ruleset) -> tuple[tuple[str, dict[str, Any]], ...]:
    """The ruleset's targeted constructions, as (what each aims at, case input): its example hands for witnesses
    (spec `examples`, use witness)."""
    return _examples(ruleset, "witness")


def search_candidates(ruleset: Ruleset) -> tuple[tuple[str, dict[str, Any]], ...]:
    """The constructions the killing-case search tries after its random hands, as (what each aims at, input): the
    spec's example hands for the search (use search), settlement paths the random themes never reach."""
    return _examples(ruleset, "search")


def _examples(ruleset: Ruleset, use: str) -> tuple[tuple[str, dict[str, Any]], ...]:
    return tuple((e.aim, _case_input(e.concealed, e.win, tuple(e.melds), e.win_by, e.discarder, e.flowers, e.flags,
                                     dict(e.counters) or None)) for e in ruleset.examples if e.use == use)
