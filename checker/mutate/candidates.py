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
        hand = winning_hand(themed_pick(rng, theme, avoid))
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


# Targeted constructions: hands random search almost never reaches. Each is (what it aims at, case input).
_TARGETED: dict[str, tuple[tuple[str, dict[str, Any]], ...]] = {
    "mcr": (
        ("nine_gates", _case_input("1m1m1m2m3m4m5m6m7m8m9m9m9m", "5m", win_by="discard", discarder=1)),
        ("seven_shifted_pairs", _case_input("1m1m2m2m3m4m4m5m5m6m6m7m7m", "3m", win_by="discard", discarder=1)),
        ("four_pure_shifted_pungs", _case_input("2p2p2p3p3p3p4p4p4p5p5p5p9s", "9s")),
        ("pure_shifted_pungs", _case_input("2p2p2p3p3p3p4p4p4p7s8s9s9m", "9m", win_by="discard", discarder=2)),
        ("big_four_winds", _case_input("1z1z1z2z2z2z3z3z3z4z4z4z1m", "1m")),
        ("little_four_winds", _case_input("1z1z1z2z2z2z3z3z3z4z4z1m2m", "3m", win_by="discard", discarder=1)),
        ("big_three_dragons", _case_input("5z5z5z6z6z6z7z7z7z2m3m4m9p", "9p")),
        ("little_three_dragons", _case_input("5z5z5z6z6z6z7z7z2m3m4m9p9p", "9p")),
        ("all_green", _case_input("2s3s4s2s3s4s6s6s6s8s8s6z6z", "6z")),
        ("all_honors", _case_input("1z1z1z2z2z2z5z5z5z6z6z6z7z", "7z", win_by="discard", discarder=3)),
        ("four_kongs", _case_input("5p", "5p", melds=(("kong", "2m2m2m2m", 1), ("kong", "3s3s3s3s", 2),
                                                        ("kong", "4p4p4p4p", 3), ("concealed_kong", "6m6m6m6m")))),
        ("three_kongs", _case_input("5p5p6s7s", "8s", melds=(("kong", "2m2m2m2m", 1), ("kong", "3s3s3s3s", 2),
                                                               ("kong", "4p4p4p4p", 3)))),
        ("quadruple_chow", _case_input("2m3m4m2m3m4m2m3m4m2m3m4m8p", "8p")),
        ("four_shifted_chows", _case_input("1s2s3s2s3s4s3s4s5s4s5s6s8p", "8p", win_by="discard", discarder=1)),
        ("all_terminals", _case_input("1m1m1m9m9m9m1p1p1p9s9s9s1s", "1s")),
        ("greater_honors", _case_input("1m4m7m2p5p8p1z2z3z4z5z6z7z", "3s")),
        ("lesser_honors", _case_input("1m4m7m2p5p8p3s6s1z2z3z4z5z", "6z")),
        ("knitted_straight", _case_input("1m4m7m2p5p8p3s6s9s2m3m4m5z", "5z", win_by="discard", discarder=1)),
        ("all_fives", _case_input("3m4m5m4p5p6p5s5s5s4s5s6s5m", "5m")),
        ("reversible_tiles", _case_input("1p2p3p8p8p8p4s5s6s9s9s9s5z", "5z", win_by="discard", discarder=2)),
        ("pure_straight", _case_input("1m2m3m4m5m6m7m8m9m2p3p4p5s", "5s", win_by="discard", discarder=1)),
        ("mixed_straight", _case_input("1m2m3m4p5p6p7s8s9s2p3p4p5s", "5s", win_by="discard", discarder=1)),
        ("pure_terminal_chows", _case_input("1m2m3m1m2m3m7m8m9m7m8m9m5m", "5m", win_by="discard", discarder=1)),
        ("three_suited_terminal_chows", _case_input("1m2m3m7m8m9m1p2p3p7p8p9p5s", "5s", win_by="discard",
                                                    discarder=1)),
        ("thirteen_orphans", _case_input("1m9m1p9p1s9s1z2z3z4z5z6z7z", "7z", win_by="discard", discarder=2)),
        ("robbing_the_kong", _case_input("2m3m4m5p6p7p3s4s5s7s8s9p9p", "9s", win_by="robbing_kong", discarder=1)),
        ("last_tile_draw", _case_input("2m3m4m5p6p7p3s4s5s7s8s9s9p", "9p", flags=("last_tile",))),
        ("last_tile_claim", _case_input("2m3m4m5p6p7p3s4s5s7s8s9s9p", "9p", win_by="discard", discarder=1,
                                        flags=("last_tile",))),
        ("out_with_replacement", _case_input("2m3m4m5p6p7p7s8s9s9p", "9p", melds=(("kong", "3s3s3s3s", 1),),
                                             flags=("kong_replacement",))),
        ("flower_replacement", _case_input("2m3m4m5p6p7p7s8s9s9p", "9p", melds=(("kong", "3s3s3s3s", 1),),
                                           flowers="1f2f", flags=("kong_replacement", "flower_replacement"))),
        ("tile_hog_honours", _case_input("1z1z1z1z2z2z2z3m4m5m6m7m8m", "9m",
                                         melds=(), win_by="discard", discarder=1)),
        ("two_concealed_kongs", _case_input("2m3m4m5p6p7p9p", "9p", melds=(("concealed_kong", "3s3s3s3s"),
                                                                           ("concealed_kong", "7z7z7z7z")))),
    ),
    "shanghai-knocking": (
        ("da_tiao_che", _case_input("9p", "9p", melds=(("pung", "2m2m2m", 1), ("pung", "3s3s3s", 2),
                                                       ("pung", "4p4p4p", 3), ("kong", "1z1z1z1z", 1)),
                                    flags=("knocked",))),
        ("da_tiao_che_concealed_kong", _case_input("9p", "9p", melds=(
            ("pung", "2m2m2m", 1), ("pung", "3s3s3s", 2), ("pung", "4p4p4p", 3), ("concealed_kong", "1z1z1z1z")),
            flags=("knocked",))),
        ("qing_yi_se", _case_input("1m2m3m4m5m6m7m8m9m2m3m4m5m", "5m", flags=("knocked",))),
        ("robbing_kong", _case_input("2m3m4m5p6p7p3s4s5s7s8s9p9p", "9s", win_by="robbing_kong", discarder=1,
                                     flags=("knocked",))),
    ),
    "shanghai-classic": (
        ("ba_hua_qi", _case_input("1m2m3m4p5p6p7s8s9s2m3m4m5m", "5m", flowers="1f2f3f4f5f6f7f8f",
                                  flags=("eight_flowers_win",))),
        ("feng_yi_se", _case_input("1z2z3z4z5z6z7z1z2z3z4z5z6z", "7z", flags=("knocked",))),
        ("feng_peng", _case_input("1z1z1z2z2z2z3z3z3z5z5z5z6z", "6z", flags=("knocked",))),
        ("qing_peng", _case_input("5m5m5m7m7m7m9m", "9m", melds=(("pung", "1m1m1m", 1), ("pung", "3m3m3m", 2)),
                                  win_by="discard", discarder=1, flags=("knocked",))),
        ("hun_peng", _case_input("5m5m5m7m7m7m1z", "1z", melds=(("pung", "1m1m1m", 1), ("pung", "5z5z5z", 2)),
                                 flags=("knocked",))),
        ("qing_yi_se", _case_input("1m2m3m4m5m6m7m8m9m2m3m4m5m", "5m", flags=("knocked",))),
        ("hun_yi_se", _case_input("1m2m3m4m5m6m7m8m9m5z5z5z6z", "6z", flags=("knocked",))),
        ("da_diao_che", _case_input("9p", "9p", melds=(("pung", "2m2m2m", 1), ("pung", "3s3s3s", 2),
                                                       ("pung", "4p4p4p", 3), ("kong", "1z1z1z1z", 1)),
                                    flags=("knocked",))),
        ("gang_kai", _case_input("2m2m2m5p5p5p7z7z7z9p", "9p", melds=(("kong", "1z1z1z1z", 1),),
                                 flags=("knocked", "kong_replacement"))),
        ("contract", _case_input("5m5m5m9m", "9m", melds=(("pung", "1m1m1m", 1), ("pung", "3m3m3m", 1),
                                                                 ("pung", "6m6m6m", 1)),
                                 flags=("knocked",), counters={"contract_with": 1})),
        ("contract_mutual", _case_input("5m5m5m9m", "9m", melds=(("pung", "1m1m1m", 1), ("pung", "3m3m3m", 1),
                                                                        ("pung", "6m6m6m", 1)),
                                        flags=("knocked", "contract_mutual"), counters={"contract_with": 1})),
        ("contract_discard", _case_input("5m5m5m9m", "9m", melds=(("pung", "1m1m1m", 1), ("pung", "3m3m3m", 1),
                                                                         ("pung", "6m6m6m", 1)),
                                         win_by="discard", discarder=2, flags=("knocked",),
                                         counters={"contract_with": 1})),
        ("contract_robbed", _case_input("5m5m7m8m", "9m", melds=(("pung", "1m1m1m", 1), ("pung", "3m3m3m", 1),
                                                                        ("pung", "6m6m6m", 1)),
                                        win_by="robbing_kong", discarder=1, flags=("knocked",),
                                        counters={"contract_with": 1})),
        ("huangfan", _case_input("5m5m5m7m7m7m9m", "9m", melds=(("pung", "1m1m1m", 1), ("pung", "3m3m3m", 2)),
                                 flags=("knocked",), counters={"huangfan": 2})),
    ),
}


# Constructions the killing-case search tries after its random hands (checker.corpus.strength.Pool), not the
# generator's witnesses: settlement paths the random themes never reach, so they decide only mutants nothing else
# separates. Classic: 承包 on a third party's discard with the discarder ready, and a double win (一炮两响) with
# the discarder ready and not.
_SEARCH_TARGETS: dict[str, tuple[tuple[str, dict[str, Any]], ...]] = {
    "shanghai-classic": (
        ("contract_third_party_ready", _case_input("5m5m5m9m", "9m", melds=(("pung", "1m1m1m", 1),
                                                                           ("pung", "3m3m3m", 1),
                                                                           ("pung", "6m6m6m", 1)),
                                                   win_by="discard", discarder=2, flags=("knocked", "discarder_ready"),
                                                   counters={"contract_with": 1})),
        ("contract_double_win", _case_input("5m5m5m9m", "9m", melds=(("pung", "1m1m1m", 1), ("pung", "3m3m3m", 1),
                                                                    ("pung", "6m6m6m", 1)),
                                            win_by="discard", discarder=2,
                                            flags=("knocked", "contract_partner_also_won"),
                                            counters={"contract_with": 1})),
        ("contract_double_win_ready", _case_input("5m5m5m9m", "9m", melds=(("pung", "1m1m1m", 1),
                                                                          ("pung", "3m3m3m", 1),
                                                                          ("pung", "6m6m6m", 1)),
                                                  win_by="discard", discarder=2,
                                                  flags=("knocked", "contract_partner_also_won", "discarder_ready"),
                                                  counters={"contract_with": 1})),
    ),
}


def targeted_candidates(ruleset: Ruleset) -> tuple[tuple[str, dict[str, Any]], ...]:
    """The ruleset's targeted constructions, as (what each aims at, case input)."""
    return _TARGETED.get(ruleset.id, ())


def search_candidates(ruleset: Ruleset) -> tuple[tuple[str, dict[str, Any]], ...]:
    """The constructions the killing-case search tries after its random hands, as (what each aims at, input)."""
    return _SEARCH_TARGETS.get(ruleset.id, ())
