"""Winning shapes: how the tiles outside the declared melds can be divided into groups.

Each shape has a `decompose` function (every division, as tuples of `Group`s) and a `complete` test used to
find the tiles a hand waits on. Regular divisions are built from per-suit divisions cached by the suit's
count pattern, so each suit pattern is searched once per process.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache, partial
from typing import Any, Callable, Final, Iterable, Mapping, NamedTuple

from checker import tiles as T
from checker.params import BOOLEAN, FLAG, Params, integer, one_of

# Constants are Final so the compiled engine uses them directly rather than looking them up.
CHOW: Final = "chow"
PUNG: Final = "pung"
KONG: Final = "kong"
PAIR: Final = "pair"
KNITTED: Final = "knitted"
SINGLE: Final = "single"


_SIZES: Final = {KONG: 4, SINGLE: 1}  # groups of one tile repeated, besides pungs and pairs (tables below)


class Group(NamedTuple):
    """One group of an interpretation (a tuple: hashing and comparing it is cheap).

    `tile` is the lowest tile of a chow, the tile of a pung / kong / pair; `melded` marks a declared meld;
    `exposed` a meld shown to the table (every meld but a concealed kong); `concealed` a pung or kong that
    counts as concealed (not claimed, not completed by a discard).
    """

    kind: str
    tile: int
    melded: bool = False
    exposed: bool = False
    concealed: bool = True

    @property
    def tiles(self) -> tuple[int, ...]:
        return group_tiles(self)

    @property
    def is_pung(self) -> bool:
        """A pung or a kong (MCR's "pungs/kongs")."""
        return self[0] == PUNG or self[0] == KONG

    def text(self) -> str:
        return T.format_tiles(self.tiles)


def group_tiles(group: Group) -> tuple[int, ...]:
    """The tiles of a group (`Group.tiles`, as a plain function for the hot path)."""
    kind, tile = group[0], group[1]
    if kind == CHOW:
        return CHOW_TILES[tile]
    if kind == PUNG:
        return PUNG_TILES[tile]
    if kind == PAIR:
        return PAIR_TILES[tile]
    if kind == KNITTED:
        return (tile, tile + 3, tile + 6)
    return (tile,) * _SIZES[kind]


# The tiles of each chow (by its lowest tile), pung and pair, made once.
CHOW_TILES: Final = tuple((t, t + 1, t + 2) for t in range(T.NUM_TILE_TYPES))
PUNG_TILES: Final = tuple((t, t, t) for t in range(T.NUM_TILE_TYPES))
PAIR_TILES: Final = tuple((t, t) for t in range(T.NUM_TILE_TYPES))


# The groups of a division, made once: a pair, a pung or a lone tile of each tile type.
PAIRS: Final = tuple(Group(PAIR, t) for t in range(T.NUM_TILE_TYPES))
PUNGS: Final = tuple(Group(PUNG, t) for t in range(T.NUM_TILE_TYPES))
SINGLES: Final = tuple(Group(SINGLE, t) for t in range(T.NUM_TILE_TYPES))


# --------------------------------------------------------------------------- per-suit divisions

@lru_cache(maxsize=None)
def suit_divisions(counts: tuple[int, ...]) -> tuple[tuple[tuple[tuple[str, int], ...], int | None], ...]:
    """Every division of one suit's nine counts into chows and pungs plus at most one pair.

    Returns tuples (sets, pair_rank_index) with sets as ((kind, rank_index), ...) sorted; ranks 0-based.
    """
    results: set = set()

    def walk(c: list[int], sets: list, pair: int | None) -> None:
        i = next((k for k in range(9) if c[k]), None)
        if i is None:
            results.add((tuple(sorted(sets)), pair))
            return
        if c[i] >= 3:
            c[i] -= 3
            sets.append((PUNG, i))
            walk(c, sets, pair)
            sets.pop()
            c[i] += 3
        if pair is None and c[i] >= 2:
            c[i] -= 2
            walk(c, sets, i)
            c[i] += 2
        if i <= 6 and c[i + 1] and c[i + 2]:
            c[i] -= 1
            c[i + 1] -= 1
            c[i + 2] -= 1
            sets.append((CHOW, i))
            walk(c, sets, pair)
            sets.pop()
            c[i] += 1
            c[i + 1] += 1
            c[i + 2] += 1

    walk(list(counts), [], None)
    return tuple(sorted(results, key=lambda r: (r[1] is None, r)))


@lru_cache(maxsize=None)
def suit_completable(counts: tuple[int, ...]) -> tuple[bool, bool]:
    """(divides into sets alone, divides into sets and one pair) for one suit's counts."""
    divs = suit_divisions(counts)
    return (any(p is None for _, p in divs), any(p is not None for _, p in divs))


def _honor_division(counts: Iterable[int]) -> tuple[list[tuple[str, int]], list[int]] | None:
    """The honours' pungs and pairs, or None if some honour fits neither. Five copies (a pung and a pair)
    arise only when the wait search adds a fifth copy by shape alone (option held_four_is_a_wait)."""
    sets, pairs = [], []
    for i, c in enumerate(counts):
        if c == 3 or c == 5:
            sets.append((PUNG, T.NUM_SUITED + i))
        if c == 2 or c == 5:
            pairs.append(T.NUM_SUITED + i)
        elif c != 3 and c:
            return None
    return sets, pairs


# --------------------------------------------------------------------------- regular shape

def pattern_key(counts: tuple[int, ...], start: int, size: int) -> int:
    """counts[start:start + size] as one number, three bits per count: a distinct key for every pattern of
    counts up to 7 (a hand holds at most 4 of a tile), cheaper to make and hash than a slice of the tuple."""
    key = 0
    for t in range(start, start + size):
        key = key << 3 | counts[t]
    return key


class _SuitDivision:
    """One division of one suit's tiles, ready for the regular shape: its sets as groups and the tile of its
    pair (-1: none). Made once per count pattern and shared: read-only."""

    def __init__(self, sets: tuple[Group, ...], pair: int):
        self.sets, self.pair, self.n_sets = sets, pair, len(sets)


_SUIT_DIVISIONS: Final[dict[int, list[_SuitDivision]]] = {}  # by pattern_key of the suit * 3 + suit


def _suit_groups(counts: tuple[int, ...], suit: int) -> list[_SuitDivision]:
    """`suit_divisions` of one suit of `counts` (all 34) as ready-made groups, kept per count pattern and
    looked up by `pattern_key` (cheaper than slicing and hashing a tuple)."""
    base = 9 * suit
    key = pattern_key(counts, base, 9) * 3 + suit
    found = _SUIT_DIVISIONS.get(key)
    if found is None:
        found = _SUIT_DIVISIONS[key] = [
            _SuitDivision(tuple(Group(kind, base + r) for kind, r in sets), -1 if pair is None else base + pair)
            for sets, pair in suit_divisions(counts[base: base + 9])]
    return found


def regular_divisions(counts: tuple[int, ...], n_melds: int) -> list[tuple[Group, ...]]:
    """Divisions of the concealed tiles (counts of 34) into 4 - n_melds sets and a pair; pair last."""
    honor_sets: list[Group] = []
    honor_pair = -1
    for t in range(T.NUM_SUITED, T.NUM_TILE_TYPES):
        held = counts[t]
        if held == 3:
            honor_sets.append(PUNGS[t])
        elif held == 2:
            if honor_pair >= 0:
                return []
            honor_pair = t
        elif held:
            return []
    characters = _suit_groups(counts, 0)
    dots = _suit_groups(counts, 1) if characters else []
    bamboo = _suit_groups(counts, 2) if dots else []
    honors = tuple(honor_sets)
    want = 4 - n_melds - len(honors)
    out = []
    for a in characters:
        for b in dots:
            pairs = int(honor_pair >= 0) + int(a.pair >= 0) + int(b.pair >= 0)
            if pairs > 1:
                continue
            for c in bamboo:
                if pairs + int(c.pair >= 0) != 1 or a.n_sets + b.n_sets + c.n_sets != want:
                    continue
                pair = max(honor_pair, a.pair, b.pair, c.pair)
                out.append(tuple([*a.sets, *b.sets, *c.sets, *honors, PAIRS[pair]]))
    return out


def regular_complete(counts: tuple[int, ...], n_melds: int) -> bool:
    """True when the concealed tiles divide into sets and exactly one pair (the set count follows from size)."""
    honors = _honor_division(counts[T.NUM_SUITED:T.NUM_TILE_TYPES])
    if honors is None:
        return False
    pairs = len(honors[1])
    for s in range(3):
        suit = tuple(counts[9 * s: 9 * s + 9])
        alone, with_pair = suit_completable(suit)
        size = sum(suit) % 3
        if size == 0 and alone:
            continue
        if size == 2 and with_pair:
            pairs += 1
            continue
        return False
    return pairs == 1 and sum(counts) == 14 - 3 * n_melds


def count_tally(counts: tuple[int, ...]) -> tuple[int, int, int, int, int, int]:
    """How many tile types `counts` holds 0, 1, 2, 3 and 4 (or more) times, then the number of tiles: one pass."""
    zero = one = two = three = four = tiles = 0
    for c in counts:
        if c == 0:
            zero += 1
        elif c == 1:
            one += 1
        elif c == 2:
            two += 1
        elif c == 3:
            three += 1
        else:
            four += 1
        tiles += c
    return (zero, one, two, three, four, tiles)


# --------------------------------------------------------------------------- seven pairs

def seven_pairs_divisions(counts: tuple[int, ...], n_melds: int,
                          four_identical_as_two_pairs: bool = True) -> list[tuple[Group, ...]]:
    if n_melds:
        return []
    tally = count_tally(counts)
    if tally[1] or tally[3] or tally[5] != 14:
        return []
    pairs = []
    for t, c in enumerate(counts):
        if c == 2:
            pairs.append(PAIRS[t])
        elif c == 4 and four_identical_as_two_pairs:
            pairs += [PAIRS[t], PAIRS[t]]
        elif c:
            return []
    return [tuple(pairs)] if len(pairs) == 7 else []


# --------------------------------------------------------------------------- thirteen orphans

ORPHANS: Final = tuple(t for t in range(T.NUM_TILE_TYPES) if T.is_terminal_or_honor(t))  # the 13 orphans


def thirteen_orphans_divisions(counts: tuple[int, ...], n_melds: int) -> list[tuple[Group, ...]]:
    if n_melds:
        return []
    tally = count_tally(counts)
    if tally[0] != 21 or tally[5] != 14:
        return []
    if all(counts[t] >= 1 for t in ORPHANS) and sum(counts[t] for t in ORPHANS) == 14:
        pair = next(t for t in ORPHANS if counts[t] == 2)
        return [tuple(SINGLES[t] for t in ORPHANS if t != pair) + (PAIRS[pair],)]
    return []


# --------------------------------------------------------------------------- knitted tiles

# The six ways to give 147, 258 and 369 each to a different suit: tuples of the nine knitted tiles.
KNITTED_STRAIGHTS: Final = tuple(
    tuple(sorted(9 * suit + r for suit, start in zip(order, (0, 1, 2)) for r in (start, start + 3, start + 6)))
    for order in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))
)



def _missing(counts: tuple[int, ...], tiles: tuple[int, ...], enough: int) -> bool:
    """Whether at least `enough` of `tiles` are absent from `counts` (stops as soon as they are)."""
    absent = 0
    for t in tiles:
        if not counts[t]:
            absent += 1
            if absent >= enough:
                return True
    return False


def honors_and_knitted_divisions(counts: tuple[int, ...], n_melds: int) -> list[tuple[Group, ...]]:
    """Fourteen distinct tiles: honours plus numbered tiles all from one knitted straight."""
    if n_melds:
        return []
    tally = count_tally(counts)
    if tally[1] != 14 or tally[0] != 20:
        return []
    suited = {t for t in range(T.NUM_SUITED) if counts[t]}
    if len(suited) > 9:
        return []
    for straight in KNITTED_STRAIGHTS:
        if suited <= set(straight):
            return [tuple(SINGLES[t] for t in range(T.NUM_TILE_TYPES) if counts[t])]
    return []


def knitted_straight_divisions(counts: tuple[int, ...], n_melds: int) -> list[tuple[Group, ...]]:
    """A full knitted straight (147/258/369 in three suits) plus one set and a pair; the set may be a meld."""
    if n_melds > 1:
        return []
    out = []
    for straight in KNITTED_STRAIGHTS:
        if _missing(counts, straight, 1):
            continue
        rest = list(counts)
        for t in straight:
            rest[t] -= 1
        # the straight's 147 / 258 / 369 runs, each written as its lowest tile (one per suit)
        knitted = tuple(Group(KNITTED, t) for t in sorted(straight) if (t % 9) in (0, 1, 2))
        for division in regular_divisions(tuple(rest), 3 + n_melds):
            out.append(knitted + division)
    return out


def knitted_straight_complete(counts: tuple[int, ...], n_melds: int) -> bool:
    if n_melds > 1:
        return False
    for straight in KNITTED_STRAIGHTS:
        if not _missing(counts, straight, 1):
            rest = list(counts)
            for t in straight:
                rest[t] -= 1
            if regular_complete(tuple(rest), 3 + n_melds):
                return True
    return False


# --------------------------------------------------------------------------- shapes decided by the hand

def tiles_of_one_class_divisions(counts, n_melds, hand, tiles="winds") -> list[tuple[Group, ...]]:
    """Every tile, melds included, is a wind (乱风: any arrangement, no sets needed)."""
    allowed = range(T.NUM_SUITED, T.FIRST_DRAGON) if tiles == "winds" else range(T.NUM_SUITED, T.NUM_TILE_TYPES)
    if all(t in allowed for t in hand.all_tiles):
        return [tuple(SINGLES[t] for t in range(T.NUM_TILE_TYPES) for _ in range(counts[t]))]
    return []


def declared_flowers_divisions(hand, flag: str, flowers: int) -> list[tuple[Group, ...]]:
    """An immediate win declared with `flag` on holding `flowers` flowers (八花齐); the tiles do not matter."""
    if flag in hand.flags and len([f for f in hand.flowers if f >= T.NUM_TILE_TYPES]) >= flowers:
        return [()]
    return []


# --------------------------------------------------------------------------- waits

@lru_cache(maxsize=None)
def _suit_ok(counts: tuple[int, ...]) -> tuple[bool, int]:
    """(this suit can stand as it is, pairs it then holds) for one suit's nine counts."""
    size = sum(counts) % 3
    alone, with_pair = suit_completable(counts)
    if size == 0:
        return alone, 0
    if size == 2:
        return with_pair, 1
    return False, 0


@lru_cache(maxsize=None)
def _honors_ok(counts: tuple[int, ...]) -> tuple[bool, int]:
    division = _honor_division(counts)
    if division is None:
        return False, 0
    return len(division[1]) <= 1, len(division[1])


class _Part:
    """One suit's (or the honours') count pattern as the wait search sees it: whether the part can stand as it
    is, the pairs it then holds, and each (rank, pairs) such that one more tile of that rank leaves it standing
    with that many pairs. Made once per pattern and shared: read-only."""

    def __init__(self, counts: tuple[int, ...], honors: bool):
        standing = _honors_ok if honors else _suit_ok
        self.ok, self.pairs = standing(counts)
        self.growths: list[tuple[int, int]] = []
        for r in range(len(counts)):
            ok, pairs = standing(counts[:r] + (counts[r] + 1,) + counts[r + 1:])
            if ok:
                self.growths.append((r, pairs))


_SUIT_PARTS: Final[dict[int, _Part]] = {}  # by count pattern
_HONOR_PARTS: Final[dict[int, _Part]] = {}


def _part(counts: tuple[int, ...], start: int, size: int) -> _Part:
    """The `_Part` of counts[start:start + size] (a suit: size 9, the honours: size 7), looked up by
    `pattern_key`."""
    key = pattern_key(counts, start, size)
    known = _HONOR_PARTS if size == 7 else _SUIT_PARTS
    part = known.get(key)
    if part is None:
        part = known[key] = _Part(counts[start:start + size], size == 7)
    return part


def regular_waits(counts: tuple[int, ...], n_melds: int) -> set[int]:
    """Tiles completing a 13 - 3 * n_melds tile hand in the regular shape. Each part's standing and the ranks
    that keep it standing are looked up by its count pattern; at most one part may be short."""
    tiles = 0
    for c in counts:
        tiles += c
    if tiles != 13 - 3 * n_melds:
        return set()
    parts = [_part(counts, 0, 9), _part(counts, 9, 9), _part(counts, 18, 9), _part(counts, T.NUM_SUITED, T.NUM_HONORS)]
    short = -1  # the part that cannot stand as it is, if one
    all_pairs = 0
    for i in range(4):
        part = parts[i]
        if not part.ok:
            if short >= 0:
                return set()
            short = i
        all_pairs += part.pairs
    waits = set()
    for i in range(4):
        if short >= 0 and i != short:
            continue
        part = parts[i]
        others_pairs = all_pairs - part.pairs
        base = 9 * i
        for r, pairs in part.growths:
            if others_pairs + pairs == 1:
                waits.add(base + r)
    return waits


def seven_pairs_waits(counts: tuple[int, ...], n_melds: int, four_identical_as_two_pairs: bool = True) -> set[int]:
    if n_melds:
        return set()
    tally = count_tally(counts)
    if tally[1] + tally[3] != 1 or tally[5] != 13:
        return set()
    odd = [t for t in range(T.NUM_TILE_TYPES) if counts[t] % 2]
    if len(odd) != 1:
        return set()
    grown = list(counts)
    grown[odd[0]] += 1
    return {odd[0]} if seven_pairs_divisions(tuple(grown), 0, four_identical_as_two_pairs) else set()


def thirteen_orphans_waits(counts: tuple[int, ...], n_melds: int) -> set[int]:
    if n_melds:
        return set()
    tally = count_tally(counts)
    if tally[0] not in (21, 22) or tally[5] != 13 or \
            any(counts[t] for t in range(T.NUM_TILE_TYPES) if t not in ORPHANS):
        return set()
    missing = [t for t in ORPHANS if not counts[t]]
    doubled = [t for t in ORPHANS if counts[t] == 2]
    if not missing and not doubled:
        return set(ORPHANS)
    return set(missing) if len(missing) == 1 and len(doubled) == 1 else set()


def honors_and_knitted_waits(counts: tuple[int, ...], n_melds: int) -> set[int]:
    if n_melds:
        return set()
    tally = count_tally(counts)
    if tally[1] != 13 or tally[0] != 21:
        return set()
    waits = set()
    for t in range(T.NUM_TILE_TYPES):
        if not counts[t]:
            grown = list(counts)
            grown[t] = 1
            if honors_and_knitted_divisions(tuple(grown), 0):
                waits.add(t)
    return waits


def knitted_straight_waits(counts: tuple[int, ...], n_melds: int) -> set[int]:
    if n_melds > 1:
        return set()
    waits = set()
    for straight in KNITTED_STRAIGHTS:
        if _missing(counts, straight, 2):
            continue
        held = [t for t in straight if counts[t]]
        if len(held) < 8:
            continue
        rest = list(counts)
        for t in held:
            rest[t] -= 1
        if len(held) == 9:
            waits |= regular_waits(tuple(rest), 3 + n_melds)
        else:
            missing = next(t for t in straight if not counts[t])
            if regular_complete(tuple(rest), 3 + n_melds):
                waits.add(missing)
    return waits


# --------------------------------------------------------------------------- registry

@dataclass(frozen=True)
class ShapeKind:
    """A shape predicate named from a spec: its divisions and its completeness test."""

    decompose: Callable[..., list]
    complete: Callable[..., bool]
    waits: Callable[..., set]
    params: Params = field(default_factory=Params)  # each parameter's declared type (checker.params), checked by the spec loader
    needs_hand: bool = False  # decompose(counts, n_melds, hand=…, **params); not a shape one waits on
    max_melds: int = 4  # the most declared melds a hand of this shape can have
    distinct: tuple[int, int] = (1, 14)  # how many tile types its concealed tiles (winning tile included) span


def _complete_from(decompose):
    return lambda counts, n_melds, **params: bool(decompose(counts, n_melds, **params))


SHAPES: Mapping[str, ShapeKind] = {
    "regular": ShapeKind(regular_divisions, lambda c, n: regular_complete(c, n), regular_waits),
    "seven_pairs": ShapeKind(seven_pairs_divisions, _complete_from(seven_pairs_divisions), seven_pairs_waits,
                             Params({"four_identical_as_two_pairs": BOOLEAN}), max_melds=0,
                             distinct=(4, 7)),  # seven pairs, or fewer types when four identical make two
    "thirteen_orphans": ShapeKind(thirteen_orphans_divisions, _complete_from(thirteen_orphans_divisions),
                                  thirteen_orphans_waits, max_melds=0, distinct=(13, 13)),
    "honors_and_knitted": ShapeKind(honors_and_knitted_divisions, _complete_from(honors_and_knitted_divisions),
                                    honors_and_knitted_waits, max_melds=0, distinct=(14, 14)),
    "knitted_straight": ShapeKind(knitted_straight_divisions, knitted_straight_complete, knitted_straight_waits,
                                  max_melds=1, distinct=(9, 14)),
    "tiles_of_one_class": ShapeKind(lambda c, n, hand, tiles="winds": tiles_of_one_class_divisions(c, n, hand, tiles),
                                    lambda *a, **k: False, lambda *a, **k: set(),
                                    Params({"tiles": one_of("winds", "honors")}), True),
    "declared_flowers": ShapeKind(lambda c, n, hand, flag, flowers: declared_flowers_divisions(hand, flag, flowers),
                                  lambda *a, **k: False, lambda *a, **k: set(),
                                  # a hand holds at most the eight flower tiles 1f-8f, one of each; the flag that
                                  # declares it must be named; left out, the flowers it takes are all eight
                                  Params({"flag": FLAG, "flowers": integer(0, 8)}, required=("flag",),
                                         defaults={"flowers": 8}), True),
}


def _with_params(fn: Callable[..., Any], params: Mapping[str, Any]) -> Callable[..., Any]:
    """`fn` with a shape's parameters bound; `fn` itself when it has none (a plain call is cheaper)."""
    return partial(fn, **params) if params else fn


class BoundShapes:
    """A ruleset's winning shapes with their parameters applied, ready to call for every hand.

    Iterates as the (shape name, parameters) pairs it was made from."""

    def __init__(self, shapes: Iterable[tuple[str, Mapping]]):
        self.items = tuple((name, dict(params)) for name, params in shapes)
        kinds = [(name, SHAPES[name], params) for name, params in self.items]
        # [melds][types]: (name, divisions(counts, n_melds[, hand=…]), whether it needs the hand) for each shape
        # a hand can have with that many declared melds and its concealed tiles spanning that many tile types
        self.decomposers = tuple(tuple(
            tuple((name, _with_params(kind.decompose, params), kind.needs_hand) for name, kind, params in kinds
                  if melds <= kind.max_melds and kind.distinct[0] <= types <= kind.distinct[1])
            for types in range(15)) for melds in range(5))
        # [melds][types]: waits(counts, n_melds) of each shape a hand can wait on with that many melds, its
        # concealed tiles before the winning one spanning that many types (the winning tile may add one)
        self.waiters = tuple(tuple(
            tuple(_with_params(kind.waits, params) for name, kind, params in kinds
                  if not kind.needs_hand and melds <= kind.max_melds
                  and kind.distinct[0] <= types + 1 and types <= kind.distinct[1])
            for types in range(15)) for melds in range(5))

    def __iter__(self):
        return iter(self.items)
