"""Hypothesis strategies for mjcheck: tiles, melds and complete hands as case `input` dicts, their context, and
option assignments, for any ruleset. Public and importable by other projects:

    from hypothesis import given
    from checker.hunt.strategies import winning_inputs, with_context, option_assignments, to_case

    @given(with_context(winning_inputs("mcr"), "mcr"), option_assignments("mcr"))
    def test_my_engine(data, options):
        case = to_case(data, "mcr", options)   # a case `checker.case.case_problem` accepts
        ...

Every strategy draws legal hands only: no fifth copy of a tile (concealed tiles, melds and winning tile
together), the right number of tiles for the melds, no flower among the hand's tiles (and no dragon where the
ruleset plays dragons as flowers), no `from` on a concealed kong, no chow of honours, chows claimed from the seat
the ruleset's `chow_from` hand check names. Each is built from strategies whose simplest choice is the plainest
hand, so Hypothesis shrinks towards small, readable hands: low tiles, few melds, no flowers, self-draw, East
winds, no flags or counters, default options.

Hands are case `input` dicts (spec/schema/case.schema.json `$defs/score_input`), tiles written in canonical
notation (`checker.tiles.format_tiles`); `tiles`, `flowers` and `concealed_hands` give tile ints.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable, Mapping, Sequence

from hypothesis import assume
from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from checker import tiles as T
from checker.case import CaseRunner, case_problem, hand_from_input
from checker.engine import HandError, Scorer
from checker.engine.hand import WIN_BY
from checker.engine.shapes import KNITTED_STRAIGHTS, ORPHANS
from checker.random_hands import _set_tiles as set_tiles
from checker.spec import Ruleset

__all__ = (
    "tiles", "flowers", "concealed_hands", "melds",
    "regular_inputs", "seven_pairs_inputs", "thirteen_orphans_inputs", "knitted_straight_inputs",
    "honors_and_knitted_inputs", "knitted_inputs", "one_class_inputs", "declared_flowers_inputs",
    "winning_inputs", "contexts", "with_context", "option_assignments", "to_case", "hands_of_play",
)

SEATS = (1, 2, 3)  # relative to the winner: 1 next, 2 across, 3 previous
MELD_KINDS = ("chow", "pung", "kong")
CONCEALED_SET_KINDS = ("chow", "pung")  # four identical concealed tiles are no set until declared a kong
CHOW_STARTS = T.CHOW_STARTS  # 1-7 of each suit
DRAGONS = tuple(T.DRAGONS)
INPUT_ORDER = ("concealed", "melds", "win_tile", "win_by", "discarder", "seat_wind", "round_wind", "flowers", "flags",
               "counters")  # the case input's fields in the order the schema and DESIGN.md give them
REFUSALS_ASSUMED = ("input.", "context.", "procedure.")  # a context that does not fit the hand: drawn again


# --------------------------------------------------------------------------- what a ruleset allows

@dataclass(frozen=True, eq=False)
class _Rules:
    """What the strategies read from a ruleset bound to options."""

    scorer: Scorer
    pool: tuple[int, ...]  # tile kinds a hand may hold
    chow_seat: int | None  # the one seat a chow may be claimed from (None: any)
    dragons_as_flowers: bool

    @property
    def ruleset(self) -> Ruleset:
        return self.scorer.ruleset

    def shape_params(self, predicate: str) -> dict[str, Any] | None:
        """The parameters (under the bound options) of the first winning shape using `predicate`; None when
        the ruleset lists no such shape."""
        params = self.scorer.bound.shape_params(predicate)
        return dict(params) if params is not None else None

    def refusal(self, data: Mapping[str, Any]) -> HandError | None:
        """The HandError the scorer refuses this input with (None: it builds a Hand)."""
        try:
            hand_from_input(data, self.scorer)
        except HandError as exc:
            return exc
        return None

    def fits(self, data: Mapping[str, Any]) -> bool:
        return self.refusal(data) is None


@lru_cache(maxsize=1)
def _runner() -> CaseRunner:
    """One CaseRunner for the strategies: it loads each ruleset once and keeps a scorer per options."""
    return CaseRunner()


@lru_cache(maxsize=256)
def _bound(ruleset_id: str, options: tuple[tuple[str, Any], ...]) -> _Rules:
    scorer = _runner().scorer(ruleset_id, dict(options))
    rs = scorer.ruleset
    dragons_as_flowers = rs.dragons_as_flowers
    pool = tuple(t for t in range(T.NUM_TILE_TYPES) if not (dragons_as_flowers and t in DRAGONS))
    chow_from = scorer.bound.check_params("chow_from")
    chow_seat = None if chow_from is None else int(chow_from.get("seat", 3))
    return _Rules(scorer, pool, chow_seat, dragons_as_flowers)


def _rules(ruleset_id: str, options: Mapping[str, Any] | None = None) -> _Rules:
    """The ruleset bound to `options` (defaults for the rest); CaseError for an unknown ruleset or option."""
    return _bound(ruleset_id, tuple(sorted((options or {}).items())))


def _pool(ruleset_id: str | None) -> tuple[int, ...]:
    return tuple(range(T.NUM_TILE_TYPES)) if ruleset_id is None else _rules(ruleset_id).pool


def _flower_pool(rules: _Rules | None, held: Sequence[int] = ()) -> tuple[int, ...]:
    """Every flower tile a winner may set aside, one entry per copy: 1f-8f once each, and under
    dragons_as_flowers each dragon as many times as the hand leaves copies of it."""
    out = tuple(T.FLOWERS)
    if rules is not None and rules.dragons_as_flowers:
        out += tuple(d for d in DRAGONS for _ in range(4 - list(held).count(d)))
    return out


# --------------------------------------------------------------------------- tiles and melds

def tiles(ruleset_id: str | None = None) -> SearchStrategy[int]:
    """A suit or honour tile (an int, 0-33), shrinking towards 1m; under a ruleset that plays dragons as
    flowers (shanghai-knocking) never a dragon."""
    return st.sampled_from(_pool(ruleset_id))


def flowers(ruleset_id: str | None = None) -> SearchStrategy[tuple[int, ...]]:
    """The flowers a winner set aside: a sorted tuple of flower tiles (1f-8f, each at most once; under
    shanghai-knocking also the dragons 5z 6z 7z, each at most four times), shrinking towards none."""
    pool = _flower_pool(None if ruleset_id is None else _rules(ruleset_id))
    return _flower_sets(pool)


def _flower_sets(pool: tuple[int, ...], min_size: int = 0) -> SearchStrategy[tuple[int, ...]]:
    return st.lists(st.integers(0, len(pool) - 1), unique=True, min_size=min_size, max_size=len(pool)).map(
        lambda picks: tuple(sorted(pool[i] for i in picks)))


def concealed_hands(size: int = 13, ruleset_id: str | None = None) -> SearchStrategy[tuple[int, ...]]:
    """A legal multiset of `size` tiles (a sorted tuple of ints, no tile more than four times; no dragon under
    shanghai-knocking), shrinking towards 1m1m1m1m2m2m2m2m…"""
    pool = _pool(ruleset_id)
    if not 0 <= size <= 4 * len(pool):
        raise ValueError(f"concealed_hands: size must be 0 to {4 * len(pool)}, not {size!r}")
    return _concealed(pool, size)


@st.composite
def _concealed(draw: Callable, pool: tuple[int, ...], size: int) -> tuple[int, ...]:
    counts = [0] * T.NUM_TILE_TYPES
    for _ in range(size):
        t = draw(st.sampled_from([t for t in pool if counts[t] < 4]))
        counts[t] += 1
    return tuple(t for t in range(T.NUM_TILE_TYPES) for _ in range(counts[t]))


def melds(max_melds: int = 4, ruleset_id: str | None = None) -> SearchStrategy[list[dict[str, Any]]]:
    """A list of 0 to `max_melds` declared melds as case meld dicts (`{"type", "tiles", "concealed" (kongs),
    "from" (claimed melds)}`): each a valid chow, pung or kong (exposed or concealed), no tile more than four
    times across them, chows claimed from the seat the ruleset allows (seat 3, the previous player, without a
    ruleset: so under every shipped one). Shrinks towards no melds, then one chow of 1m2m3m."""
    _check_max_melds(max_melds)
    pool = _pool(ruleset_id)
    chow_seat = 3 if ruleset_id is None else _rules(ruleset_id).chow_seat
    return _melds(pool, chow_seat, max_melds)


@st.composite
def _melds(draw: Callable, pool: tuple[int, ...], chow_seat: int | None, max_melds: int) -> list[dict[str, Any]]:
    counts = [0] * T.NUM_TILE_TYPES
    out = []
    for _ in range(draw(st.integers(0, max_melds))):
        kind, tile = _draw_set(draw, counts, pool, MELD_KINDS)
        out.append(_declare(draw, kind, tile, chow_seat))
    return out


def _check_max_melds(max_melds: int, most: int = 4) -> None:
    if not isinstance(max_melds, int) or not 0 <= max_melds <= most:
        raise ValueError(f"max_melds must be 0 to {most}, not {max_melds!r}")


def _fits_in(counts: list[int], kind: str, tile: int) -> bool:
    need = set_tiles(kind, tile)
    return all(counts[t] + need.count(t) <= 4 for t in set(need))


def _draw_set(draw: Callable, counts: list[int], pool: tuple[int, ...], kinds: Sequence[str]) -> tuple[str, int]:
    """A set (kind, its lowest tile) that still fits beside `counts`, which it updates."""
    kind = draw(st.sampled_from(kinds))
    starts = [t for t in (CHOW_STARTS if kind == "chow" else pool) if t in pool and _fits_in(counts, kind, t)]
    assume(starts)
    tile = draw(st.sampled_from(starts))
    for t in set_tiles(kind, tile):
        counts[t] += 1
    return kind, tile


def _declare(draw: Callable, kind: str, tile: int, chow_seat: int | None) -> dict[str, Any]:
    """The meld dict of a declared set: a kong exposed or concealed, a claimed meld with its seat."""
    # Both choices are drawn for every kind, so every meld costs Hypothesis the same number of choices and
    # shrinking compares melds by value (a chow before a pung before a kong) rather than by length.
    concealed = draw(st.booleans()) and kind == "kong"
    seat = draw(st.sampled_from(SEATS))
    meld: dict[str, Any] = {"type": kind, "tiles": T.format_tiles(set_tiles(kind, tile))}
    if kind == "kong":
        meld["concealed"] = concealed
    if not concealed:
        meld["from"] = chow_seat if kind == "chow" and chow_seat is not None else seat
    return meld


# --------------------------------------------------------------------------- complete hands by shape

def _hand_input(draw: Callable, closed: list[int], declared: list[dict[str, Any]], counts: list[int],
                extra: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The case input of a complete hand: a winning tile drawn from its closed tiles, a way of winning (a
    robbed kong only where the winner holds no other copy of the tile), East winds, no flowers, flags or
    counters (unless `extra` gives them)."""
    rest = sorted(closed)
    # an index into all the closed tiles (never a one-element choice, which Hypothesis would not draw: a hand
    # whose choices are fewer would count as simpler, whatever they are)
    win = rest.pop(draw(st.integers(0, len(rest) - 1)))
    ways = ("self_draw", "discard") + (("robbing_kong",) if counts[win] == 1 else ())
    win_by = draw(st.sampled_from(ways))
    data: dict[str, Any] = {"concealed": T.format_tiles(rest), "melds": declared, "win_tile": T.tile_name(win),
                            "win_by": win_by}
    if win_by != "self_draw":
        data["discarder"] = draw(st.sampled_from(SEATS))
    data.update({"seat_wind": "E", "round_wind": "E", "flowers": "", "flags": {}, "counters": {}})
    data.update(extra or {})
    return data


def regular_inputs(ruleset_id: str, max_melds: int = 4, options: Mapping[str, Any] | None = None
                   ) -> SearchStrategy[dict[str, Any]]:
    """A complete hand of four sets and a pair (case input): up to `max_melds` of the sets declared as melds
    (chow, pung, exposed or concealed kong; kongs are declared, never concealed tiles), the rest chows and
    pungs among the concealed tiles. Shrinks towards 1m2m3m ×4 with 4m4m, won by self-draw on 1m."""
    _check_max_melds(max_melds)
    return _regular(_rules(ruleset_id, options), max_melds)


@st.composite
def _regular(draw: Callable, rules: _Rules, max_melds: int) -> dict[str, Any]:
    counts = [0] * T.NUM_TILE_TYPES
    n_melds = draw(st.integers(0, max_melds))
    closed: list[int] = []
    declared = []
    for i in range(4):
        kind, tile = _draw_set(draw, counts, rules.pool, MELD_KINDS if i < n_melds else CONCEALED_SET_KINDS)
        if i < n_melds:
            declared.append(_declare(draw, kind, tile, rules.chow_seat))
        else:
            closed += set_tiles(kind, tile)
    pair = draw(st.sampled_from([t for t in rules.pool if counts[t] <= 2]))
    counts[pair] += 2
    closed += [pair, pair]
    return _hand_input(draw, closed, declared, counts)


def seven_pairs_inputs(ruleset_id: str, options: Mapping[str, Any] | None = None) -> SearchStrategy[dict[str, Any]]:
    """Seven pairs, no melds (case input). Four identical tiles stand as two pairs only where the ruleset's
    seven-pairs shape allows it under `options` (MCR's seven_pairs_four_identical). Shrinks towards
    1m1m2m2m…7m7m. Drawn for a ruleset without the shape (shanghai-knocking), it is a legal hand that does
    not win there."""
    return _seven_pairs(_rules(ruleset_id, options))


@st.composite
def _seven_pairs(draw: Callable, rules: _Rules) -> dict[str, Any]:
    params = rules.shape_params("seven_pairs") or {}
    twice = bool(params.get("four_identical_as_two_pairs", True))
    counts = [0] * T.NUM_TILE_TYPES
    for _ in range(7):
        fresh = [t for t in rules.pool if counts[t] == 0]
        again = [t for t in rules.pool if counts[t] == 2] if twice else []
        counts[draw(st.sampled_from(fresh + again))] += 2
    closed = [t for t in range(T.NUM_TILE_TYPES) for _ in range(counts[t])]
    return _hand_input(draw, closed, [], counts)


def thirteen_orphans_inputs(ruleset_id: str, options: Mapping[str, Any] | None = None
                            ) -> SearchStrategy[dict[str, Any]]:
    """Thirteen orphans (case input): the thirteen terminals and honours and one of them again. ValueError
    under a ruleset that plays the dragons as flowers (shanghai-knocking), where it cannot be held."""
    rules = _rules(ruleset_id, options)
    if not set(ORPHANS) <= set(rules.pool):
        raise ValueError(f"thirteen orphans needs the dragons, which are flowers under {ruleset_id}")
    return _thirteen_orphans(rules)


@st.composite
def _thirteen_orphans(draw: Callable, rules: _Rules) -> dict[str, Any]:
    closed = list(ORPHANS) + [draw(st.sampled_from(ORPHANS))]
    counts = T.tile_counts(closed)[:T.NUM_TILE_TYPES]
    return _hand_input(draw, closed, [], list(counts))


def knitted_straight_inputs(ruleset_id: str, max_melds: int = 1, options: Mapping[str, Any] | None = None
                            ) -> SearchStrategy[dict[str, Any]]:
    """A knitted straight (147, 258 and 369 in three different suits) with a set and a pair (case input); the
    set declared as a meld when `max_melds` (at most 1) allows and Hypothesis chooses. Shrinks towards
    1m4m7m2p5p8p3s6s9s + 1m2m3m + a pair."""
    _check_max_melds(max_melds, 1)
    return _knitted_straight(_rules(ruleset_id, options), max_melds)


@st.composite
def _knitted_straight(draw: Callable, rules: _Rules, max_melds: int) -> dict[str, Any]:
    straight = draw(st.sampled_from(KNITTED_STRAIGHTS))
    counts = [0] * T.NUM_TILE_TYPES
    for t in straight:
        counts[t] += 1
    closed = list(straight)
    declared = []
    if draw(st.integers(0, max_melds)):
        declared.append(_declare(draw, *_draw_set(draw, counts, rules.pool, MELD_KINDS), rules.chow_seat))
    else:
        closed += set_tiles(*_draw_set(draw, counts, rules.pool, CONCEALED_SET_KINDS))
    pair = draw(st.sampled_from([t for t in rules.pool if counts[t] <= 2]))
    counts[pair] += 2
    closed += [pair, pair]
    return _hand_input(draw, closed, declared, counts)


def honors_and_knitted_inputs(ruleset_id: str, options: Mapping[str, Any] | None = None
                              ) -> SearchStrategy[dict[str, Any]]:
    """Honours and knitted tiles (case input): fourteen different tiles, five to seven honours and the rest
    from one knitted straight. ValueError under shanghai-knocking (its four winds are too few). Shrinks
    towards the whole straight 1m4m7m2p5p8p3s6s9s with 1z2z3z4z5z."""
    rules = _rules(ruleset_id, options)
    if sum(1 for t in rules.pool if T.is_honor(t)) < 5:
        raise ValueError(f"honours and knitted tiles needs five different honours; {ruleset_id} plays with fewer")
    return _honors_and_knitted(rules)


@st.composite
def _honors_and_knitted(draw: Callable, rules: _Rules) -> dict[str, Any]:
    straight = list(draw(st.sampled_from(KNITTED_STRAIGHTS)))
    honours = [t for t in rules.pool if T.is_honor(t)]
    n_honours = draw(st.integers(5, min(7, len(honours))))
    while len(honours) > n_honours:  # the simplest drop the highest
        honours.remove(draw(st.sampled_from(honours[::-1])))
    while len(straight) > 14 - n_honours:
        straight.remove(draw(st.sampled_from(straight[::-1])))
    closed = straight + honours
    counts = list(T.tile_counts(closed)[:T.NUM_TILE_TYPES])
    return _hand_input(draw, closed, [], counts)


def knitted_inputs(ruleset_id: str, max_melds: int = 1, options: Mapping[str, Any] | None = None
                   ) -> SearchStrategy[dict[str, Any]]:
    """MCR's knitted hands (case input): a knitted straight with a set and a pair, or honours and knitted
    tiles (left out where the ruleset's tiles cannot form it)."""
    choices = [knitted_straight_inputs(ruleset_id, max_melds, options)]
    try:
        choices.append(honors_and_knitted_inputs(ruleset_id, options))
    except ValueError:
        pass
    return st.one_of(choices)


def one_class_inputs(ruleset_id: str, max_melds: int = 4, options: Mapping[str, Any] | None = None,
                     tile_class: str | None = None) -> SearchStrategy[dict[str, Any]]:
    """A hand of one class of tiles in any arrangement (case input; shanghai-classic's 乱风 shape,
    `tiles_of_one_class`): `tile_class` `honors` (every honour) or `winds`, by default what the ruleset's shape
    takes under `options` (winds for a ruleset without the shape); up to `max_melds` pungs or kongs of them
    declared. Shrinks towards 1z1z1z1z2z2z2z2z3z3z3z3z4z4z."""
    _check_max_melds(max_melds)
    rules = _rules(ruleset_id, options)
    if tile_class is None:
        tile_class = str((rules.shape_params("tiles_of_one_class") or {}).get("tiles", "winds"))
    wanted = T.WINDS if tile_class == "winds" else T.HONORS
    kinds = tuple(t for t in wanted if t in rules.pool)
    if 4 * len(kinds) < 14:
        raise ValueError(f"{ruleset_id}: too few {tile_class} tiles for a hand of fourteen")
    return _one_class(rules, kinds, max_melds)


@st.composite
def _one_class(draw: Callable, rules: _Rules, kinds: tuple[int, ...], max_melds: int) -> dict[str, Any]:
    counts = [0] * T.NUM_TILE_TYPES
    room = 4 * len(kinds) - 14  # copies left over beyond fourteen tiles: one more per kong
    declared = []
    for _ in range(draw(st.integers(0, max_melds))):
        allowed = ("pung", "kong") if room > 0 else ("pung",)
        kind, tile = _draw_set(draw, counts, kinds, allowed)
        room -= kind == "kong"
        declared.append(_declare(draw, kind, tile, rules.chow_seat))
    closed = []
    for _ in range(14 - 3 * len(declared)):
        t = draw(st.sampled_from([t for t in kinds if counts[t] < 4]))
        counts[t] += 1
        closed.append(t)
    return _hand_input(draw, closed, declared, counts)


def declared_flowers_inputs(ruleset_id: str, options: Mapping[str, Any] | None = None
                            ) -> SearchStrategy[dict[str, Any]]:
    """An immediate win on the flowers (shanghai-classic's 八花齐, `declared_flowers`): the flag the ruleset's
    shape names and at least as many flowers as it asks (all eight), with any legal fourteen tiles. ValueError
    for a ruleset without the shape."""
    rules = _rules(ruleset_id, options)
    params = rules.shape_params("declared_flowers")
    if params is None:
        raise ValueError(f"{ruleset_id} has no declared-flowers shape")
    return _declared_flowers(rules, str(params.get("flag", "")), int(params.get("flowers", 8)))


@st.composite
def _declared_flowers(draw: Callable, rules: _Rules, flag: str, n_flowers: int) -> dict[str, Any]:
    closed = list(draw(_concealed(rules.pool, 14)))
    counts = list(T.tile_counts(closed)[:T.NUM_TILE_TYPES])
    pool = tuple(t for t in _flower_pool(rules, closed) if T.is_flower(t))  # dragons are no flowers of 八花齐
    shown = draw(_flower_sets(pool, min(n_flowers, len(pool))))
    return _hand_input(draw, closed, [], counts, {"flowers": T.format_tiles(shown), "flags": {flag: True}})


_BY_PREDICATE: Mapping[str, Callable[[str, int, Mapping[str, Any] | None], SearchStrategy[dict[str, Any]]]] = {
    "regular": lambda r, m, o: regular_inputs(r, m, o),
    "seven_pairs": lambda r, m, o: seven_pairs_inputs(r, o),
    "thirteen_orphans": lambda r, m, o: thirteen_orphans_inputs(r, o),
    "knitted_straight": lambda r, m, o: knitted_straight_inputs(r, min(m, 1), o),
    "honors_and_knitted": lambda r, m, o: honors_and_knitted_inputs(r, o),
    "tiles_of_one_class": lambda r, m, o: one_class_inputs(r, m, o),
    "declared_flowers": lambda r, m, o: declared_flowers_inputs(r, o),
}


def winning_inputs(ruleset_id: str, max_melds: int = 4, options: Mapping[str, Any] | None = None
                   ) -> SearchStrategy[dict[str, Any]]:
    """A complete hand (case input) of one of the winning shapes the ruleset's `win.shapes` lists, in the
    spec's order (so it shrinks towards the first, the regular hand). Each is a winning shape under `options`;
    it may still fail a minimum or a required flag (with_context adds the context)."""
    _check_max_melds(max_melds)
    rules = _rules(ruleset_id, options)
    choices = []
    for shape in rules.ruleset.win.shapes:
        make = _BY_PREDICATE.get(shape.when.name)
        if make is not None:
            try:
                choices.append(make(ruleset_id, max_melds, options))
            except ValueError:  # a shape this ruleset's tiles cannot form
                continue
    if not choices:
        raise ValueError(f"{ruleset_id}: none of its winning shapes "
                         f"({', '.join(s.when.name for s in rules.ruleset.win.shapes)}) has a strategy here")
    return _first_shape_simplest(tuple(choices))


# Hypothesis counts a value with fewer choices behind it as simpler, whatever the choices: thirteen orphans
# (four choices) would beat every regular hand (a dozen or more). Every shape after the first draws this many
# more (ignored) choices, past the most a regular hand takes, so a shrunk witness is a regular hand whenever one
# will do.
SHAPE_PADDING = 24


@st.composite
def _first_shape_simplest(draw: Callable, choices: tuple[SearchStrategy[dict[str, Any]], ...]) -> dict[str, Any]:
    index = draw(st.integers(0, len(choices) - 1)) if len(choices) > 1 else 0
    data = draw(choices[index])
    if index:
        for _ in range(SHAPE_PADDING):
            draw(st.booleans())
    return data


# --------------------------------------------------------------------------- context

# A hand every context fits (the default `input` of contexts): it has a kong and holds its winning tile once,
# so kong replacement, a robbed kong and the fourth tile visible are all open to it.
_ANY_CONTEXT_HAND: Mapping[str, Any] = {"concealed": "1m2m3m4m5m6m7m8m9m1p", "win_tile": "1p",
                                        "melds": [{"type": "kong", "tiles": "1z1z1z1z", "concealed": False, "from": 1}]}


def _held(data: Mapping[str, Any]) -> list[int]:
    held = list(T.parse_tiles(data.get("concealed") or "")) + list(T.parse_tiles(data.get("win_tile") or ""))
    for m in data.get("melds") or []:
        held += T.parse_tiles(m["tiles"])
    return held


def _flower_list(value: Any) -> tuple[int, ...]:
    if not value:
        return ()
    return tuple(T.parse_tiles(value if isinstance(value, str) else " ".join(value)))


def contexts(ruleset_id: str, input: Mapping[str, Any] | None = None, options: Mapping[str, Any] | None = None
             ) -> SearchStrategy[dict[str, Any]]:
    """A winning context for the ruleset (the context fields of a case input): `win_by`, `discarder` (not for
    a self-draw), `seat_wind`, `round_wind`, `flowers` (text; dragons too under shanghai-knocking), `flags`
    (only the spec's flags, those set given as true) and `counters` (only the spec's, each within its
    min/max). Every choice is offered only where the hand, with what was chosen before it, still passes the
    ruleset's hand checks under `options` (kong_replacement only with a kong and a self-draw, a robbed kong
    only when the winner holds no other copy, …). With `input`, the context fits that hand (its flowers, flags
    and counters are kept); without, a hand with a kong holding its winning tile once, to which every context
    is open. Shrinks towards a self-draw, East winds, no flowers, counters or flags."""
    rules = _rules(ruleset_id, options)
    base = dict(input if input is not None else _ANY_CONTEXT_HAND)
    return _context(rules, base)


@st.composite
def _context(draw: Callable, rules: _Rules, base: dict[str, Any]) -> dict[str, Any]:
    rs = rules.ruleset
    ctx: dict[str, Any] = {}

    def fits(**change: Any) -> bool:
        data = {**base, **ctx, **change}
        if data.get("win_by", "self_draw") == "self_draw":
            data.pop("discarder", None)
        return rules.fits(data)

    refused = rules.refusal({**base, "win_by": "self_draw", "discarder": None, "flags": {}, "counters": {}})
    if refused is not None and not refused.rule.startswith(REFUSALS_ASSUMED):
        raise ValueError(f"contexts: the hand itself is refused ({refused.rule}): {refused}")
    ctx["flags"] = {f: True for f, on in (base.get("flags") or {}).items() if on}
    ctx["counters"] = dict(base.get("counters") or {})
    ctx["flowers"] = T.format_tiles(_flower_list(base.get("flowers")))
    ways = [w for w in WIN_BY if fits(win_by=w, discarder=None if w == "self_draw" else 1)]
    assume(ways)
    ctx["win_by"] = draw(st.sampled_from(ways))
    if ctx["win_by"] != "self_draw":
        ctx["discarder"] = draw(st.sampled_from([s for s in SEATS if fits(discarder=s)] or SEATS))
    ctx["seat_wind"] = draw(st.sampled_from(T.WIND_LETTERS))
    ctx["round_wind"] = draw(st.sampled_from(T.WIND_LETTERS))
    if not base.get("flowers"):
        ctx["flowers"] = T.format_tiles(draw(_flower_sets(_flower_pool(rules, _held(base)))))
    for name, counter in rs.counters.items():
        if draw(st.booleans()) and name not in ctx["counters"]:
            ctx["counters"] = {**ctx["counters"], name: draw(st.integers(counter.min, counter.max))}
    for flag in rs.flags:  # drawn for every flag (a constant number of choices), set where the hand allows it
        if draw(st.booleans()) and flag not in ctx["flags"] and fits(flags={**ctx["flags"], flag: True}):
            ctx["flags"] = {**ctx["flags"], flag: True}
    return {k: ctx[k] for k in ("win_by", "discarder", "seat_wind", "round_wind", "flowers", "flags", "counters")
            if k in ctx}


def with_context(input_strategy: SearchStrategy[Mapping[str, Any]], ruleset_id: str,
                 options: Mapping[str, Any] | None = None) -> SearchStrategy[dict[str, Any]]:
    """Hands from `input_strategy` with a context from `contexts(ruleset_id, hand, options)` in place of
    theirs (their flowers, flags and counters kept): complete case inputs the scorer accepts. A combination
    the scorer still refuses as bad input (an `input.`, `context.` or `procedure.` rule) is rejected with
    hypothesis.assume; a hand it refuses for its tiles (`tiles.hand_size`, `tiles.four_copies`) is a fault of
    `input_strategy`, raised as ValueError."""
    rules = _rules(ruleset_id, options)
    return _with_context(input_strategy, rules)


@st.composite
def _with_context(draw: Callable, input_strategy: SearchStrategy[Mapping[str, Any]], rules: _Rules
                  ) -> dict[str, Any]:
    data = dict(draw(input_strategy))
    ctx = draw(_context(rules, data))
    merged = {**data, **ctx}
    if merged.get("win_by") == "self_draw":
        merged.pop("discarder", None)
    merged = {**{k: merged[k] for k in INPUT_ORDER if k in merged}, **merged}
    refused = rules.refusal(merged)
    if refused is not None:
        if not refused.rule.startswith(REFUSALS_ASSUMED):
            raise ValueError(f"with_context: the input strategy drew a hand refused for its tiles "
                             f"({refused.rule}): {refused}")
        assume(False)
    return merged


# --------------------------------------------------------------------------- options and cases

def option_assignments(ruleset_id: str, scoring_only: bool = True) -> SearchStrategy[dict[str, Any]]:
    """A value for every option of the ruleset (option id -> value), each drawn from the option's declared
    values with its default first, so it shrinks to the defaults. `scoring_only` leaves out the options the
    table procedure reads (`read_by: table`), which never change a score."""
    rs = _rules(ruleset_id).ruleset
    options = rs.scoring_options() if scoring_only else rs.options

    return st.fixed_dictionaries({oid: st.sampled_from([o.default] + o.other_values()) for oid, o in options.items()})


def to_case(input: Mapping[str, Any], ruleset_id: str, options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A full score case ({"ruleset", "options", "kind": "score", "input"}) for a drawn input; ValueError when
    the case schema refuses it (checker.case.case_problem names the problem)."""
    case = {"ruleset": ruleset_id, "options": dict(options or {}), "kind": "score", "input": dict(input)}
    problem = case_problem(case)
    if problem is not None:
        raise ValueError(f"not a valid case: {problem}")
    return case


# --------------------------------------------------------------------------- hands of play
BOTS = ("random", "greedy")


def hands_of_play(ruleset_id: str, options: Mapping[str, Any] | None = None,
                  max_events: int | None = None) -> SearchStrategy[dict[str, Any]]:
    """Legal hands of play as procedure case inputs ({"seed", "dealer", "seats", "events"} plus `options` in the
    header when given): a wall shuffled by a drawn seed, four bots of drawn kinds (random or greedy) playing it
    out under the table procedure; with `max_events`, the log cut after at most that many events (every event
    legal, the hand unfinished). Shrinks towards seed 0, greedy bots and short logs."""
    from checker.table.simulate import play_hand

    @st.composite
    def build(draw: Callable) -> dict[str, Any]:
        seed = draw(st.integers(0, 2 ** 31 - 1))
        seats = tuple(draw(st.sampled_from(("greedy", "random"))) for _ in range(4))
        hand = play_hand(ruleset_id, seed, seats, options=options)
        events = hand.events
        if max_events is not None:
            events = events[:draw(st.integers(1, max(1, min(max_events, len(events)))))]
        out = {k: v for k, v in hand.header.items() if k not in ("game", "version", "ruleset")}
        return {**out, "events": events}

    return build()
