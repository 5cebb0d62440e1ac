"""Tile representation, parsing and formatting.

A tile is a plain ``int``:

* 0..8   = 1m..9m  (characters 万)
* 9..17  = 1p..9p  (dots 筒/饼)
* 18..26 = 1s..9s  (bamboo 条/索)
* 27..33 = 1z..7z  (East South West North, White 白, Green 发, Red 中)
* 34..41 = 1f..8f  (flowers 春 夏 秋 冬 梅 兰 菊 竹)

The canonical notation of a tile is its two-character name (``5m``, ``7z``,
``3f``); everything this module outputs is canonical.  ``parse_tiles`` accepts
compact groups (``123m456p11z``), MahjongGB codes (``W1 B2 T3 F1 J1 H1``), the
Unicode Mahjong Tiles block (``🀇🀈🀉``) and Chinese names (``一万 五筒 东 春``),
mixed freely and separated by whitespace/commas or nothing at all.

Everything here is a pure function over immutable module-level tables.
"""

from __future__ import annotations

import operator
from types import MappingProxyType
from typing import Any, Final, Mapping, SupportsIndex

from checker.inputs import excerpt

__all__ = (
    "TileError",
    "NUM_TILE_TYPES",
    "FLOWERS",
    "WIND_TILES",
    "WIND_LETTERS",
    "tile_name",
    "parse_tile",
    "parse_tiles",
    "format_tiles",
    "sort_tiles",
    "tile_counts",
    "check_no_fifth_copy",
    "suit_of",
    "rank_of",
    "is_suited",
    "is_honor",
    "is_wind",
    "is_dragon",
    "is_flower",
    "is_terminal",
    "is_terminal_or_honor",
    "is_simple",
    "make_tile",
    "parse_wind",
)


class TileError(ValueError):
    """Bad tile input.  The message names the offending token or tile.

    Parse errors also carry ``token`` (offending text), ``position`` (1-based
    tile position in the input) and ``text`` (the whole input) attributes;
    they are ``None`` when not applicable.
    """

    def __init__(self, message: str, *, token=None, position=None, text=None):
        super().__init__(message)
        self.token = token
        self.position = position
        self.text = text

    def __reduce__(self) -> tuple:
        """Pickled with where the bad tile is (an error raised in a worker process reaches the parent whole)."""
        return (_tile_error, (str(self), self.token, self.position, self.text))


def _tile_error(message: str, token: Any, position: Any, text: Any) -> TileError:
    return TileError(message, token=token, position=position, text=text)


# the tile numbers of each kind (named once here; the engine and the tools read them from this module). The
# bounds are plain numbers so that compiled loops over `range(NUM_SUITED, NUM_TILE_TYPES)` stay native loops.
NUM_SUITED: Final = 27  # 1m-9m 0-8, 1p-9p 9-17, 1s-9s 18-26; the honours follow
FIRST_DRAGON: Final = 31  # after the four winds 27-30
NUM_TILE_TYPES: Final = 34
NUM_TILES_WITH_FLOWERS: Final = 42
NUM_HONORS: Final = NUM_TILE_TYPES - NUM_SUITED
FLOWERS: Final[range] = range(NUM_TILE_TYPES, NUM_TILES_WITH_FLOWERS)
SUITED: Final[range] = range(0, NUM_SUITED)
HONORS: Final[range] = range(NUM_SUITED, NUM_TILE_TYPES)
WINDS: Final[range] = range(NUM_SUITED, FIRST_DRAGON)  # East, South, West, North
DRAGONS: Final[range] = range(FIRST_DRAGON, NUM_TILE_TYPES)  # red, green, white
CHOW_STARTS = tuple(9 * suit + rank for suit in range(3) for rank in range(7))  # each chow's lowest tile: 1-7 of a suit

# --------------------------------------------------------------------------
# Static tables (all immutable)
# --------------------------------------------------------------------------

_SUITS = "mpszf"
# suit letter -> (first tile id, highest rank, human description of the range)
_SUIT_INFO = MappingProxyType({
    "m": (0, 9, "characters run 1m-9m"),
    "p": (9, 9, "dots run 1p-9p"),
    "s": (18, 9, "bamboos run 1s-9s"),
    "z": (27, 7, "honours run 1z-7z"),
    "f": (34, 8, "flowers run 1f-8f"),
})


def _build_tile_tables():
    names, suits, ranks = [], [], []
    for suit in _SUITS:
        base, top, _ = _SUIT_INFO[suit]
        for rank in range(1, top + 1):
            assert base + rank - 1 == len(names)
            names.append(f"{rank}{suit}")
            suits.append(suit)
            ranks.append(rank)
    return tuple(names), tuple(suits), tuple(ranks)


_NAMES, _SUIT_OF, _RANK_OF = _build_tile_tables()
assert len(_NAMES) == NUM_TILES_WITH_FLOWERS

_IS_SUITED = tuple(t < 27 for t in range(42))
_IS_HONOR = tuple(27 <= t < 34 for t in range(42))
_IS_WIND = tuple(27 <= t <= 30 for t in range(42))
_IS_DRAGON = tuple(31 <= t <= 33 for t in range(42))
_IS_FLOWER = tuple(t >= 34 for t in range(42))
_IS_TERMINAL = tuple(t < 27 and _RANK_OF[t] in (1, 9) for t in range(42))
_IS_TERMINAL_OR_HONOR = tuple(_IS_TERMINAL[t] or _IS_HONOR[t] for t in range(42))
_IS_SIMPLE = tuple(t < 27 and 2 <= _RANK_OF[t] <= 8 for t in range(42))

# Characters separating tokens (all optional: tokens may also be concatenated).
_SEPARATORS = frozenset(" \t\r\n\f\v,，、;\u3000")

# Rank characters (ASCII digits and Chinese numerals).  '0' is listed so that
# "0m" gives a precise "not a tile" error instead of "unknown tile".
_RANK_CHARS = MappingProxyType({
    **{str(d): d for d in range(10)},
    "一": 1, "二": 2, "三": 3, "四": 4, "五": 5,
    "六": 6, "七": 7, "八": 8, "九": 9, "幺": 1,
})

# Suit characters that close a rank group -> canonical suit letter.
_SUIT_CHARS = MappingProxyType({
    **{c: c for c in _SUITS},
    **{c.upper(): c for c in _SUITS},
    "万": "m", "萬": "m",
    "筒": "p", "饼": "p", "餅": "p",
    "条": "s", "條": "s", "索": "s",
})

# For each suit character: rank character -> tile (only valid ranks present).
_GROUP_TABLE = MappingProxyType({
    sc: MappingProxyType({
        rc: _SUIT_INFO[s][0] + r - 1
        for rc, r in _RANK_CHARS.items()
        if 1 <= r <= _SUIT_INFO[s][1]
    })
    for sc, s in _SUIT_CHARS.items()
})

# Unicode Mahjong Tiles block, U+1F000..U+1F029.
_UNICODE_TILES = (
    (0x1F000, 27), (0x1F001, 28), (0x1F002, 29), (0x1F003, 30),  # winds
    (0x1F004, 33), (0x1F005, 32), (0x1F006, 31),                 # red, green, white
    *((0x1F007 + i, 0 + i) for i in range(9)),                    # characters
    *((0x1F010 + i, 18 + i) for i in range(9)),                   # bamboos
    *((0x1F019 + i, 9 + i) for i in range(9)),                    # circles
    (0x1F022, 38), (0x1F023, 39), (0x1F024, 41), (0x1F025, 40),  # plum orchid bamboo chrys.
    (0x1F026, 34), (0x1F027, 35), (0x1F028, 36), (0x1F029, 37),  # spring..winter
)

# Chinese single-character tiles (honours and flowers).
_CHINESE_SINGLES = MappingProxyType({
    "东": 27, "東": 27, "南": 28, "西": 29, "北": 30,
    "白": 31, "发": 32, "發": 32, "中": 33,
    "春": 34, "夏": 35, "秋": 36, "冬": 37,
    "梅": 38, "兰": 39, "蘭": 39, "菊": 40, "竹": 41,
})

# Characters that are a complete tile on their own.
_SINGLE_CHARS = MappingProxyType({
    **{chr(cp): t for cp, t in _UNICODE_TILES},
    **_CHINESE_SINGLES,
})

# Unicode variation selectors tolerated right after a Unicode tile.
_VARIATION_SELECTORS = frozenset("\ufe0e\ufe0f")

# Mahjong-block characters that are explicitly not tiles.
_NOT_TILES = MappingProxyType({
    "\U0001F02A": "U+1F02A MAHJONG TILE JOKER",
    "\U0001F02B": "U+1F02B MAHJONG TILE BACK",
})

# MahjongGB codes: letter -> (digit -> tile) and a description of the range.
_GB_CODES_UPPER = {
    "W": ({d: d - 1 for d in range(1, 10)}, "MahjongGB characters run W1-W9"),
    "B": ({d: 9 + d - 1 for d in range(1, 10)}, "MahjongGB dots run B1-B9"),
    "T": ({d: 18 + d - 1 for d in range(1, 10)}, "MahjongGB bamboos run T1-T9"),
    "F": ({d: 27 + d - 1 for d in range(1, 5)}, "MahjongGB winds run F1-F4"),
    "J": ({1: 33, 2: 32, 3: 31}, "MahjongGB dragons run J1-J3"),
    "H": ({d: 34 + d - 1 for d in range(1, 9)}, "MahjongGB flowers run H1-H8"),
}
_GB_CODES = MappingProxyType({
    letter: (MappingProxyType({str(d): t for d, t in table.items()}), why)
    for up, (table, why) in _GB_CODES_UPPER.items()
    for letter in (up, up.lower())
})
del _GB_CODES_UPPER

_ASCII_DIGITS = frozenset("0123456789")

# Fast path: every canonical two-character name (suit letter in either case).
_PAIRS = MappingProxyType({
    **{name: t for t, name in enumerate(_NAMES)},
    **{name[0] + name[1].upper(): t for t, name in enumerate(_NAMES)},
})

WIND_LETTERS: Final = "ESWN"  # the winds as inputs and logs name them, in seat order from East
WIND_TILES: Mapping[str, int] = MappingProxyType({letter: WINDS[i] for i, letter in enumerate(WIND_LETTERS)})

_WIND_WORDS = MappingProxyType({
    **{k.lower(): v for k, v in WIND_TILES.items()},
    "east": 27, "south": 28, "west": 29, "north": 30,
    "东": 27, "東": 27, "南": 28, "西": 29, "北": 30,
    "1z": 27, "2z": 28, "3z": 29, "4z": 30,
    "f1": 27, "f2": 28, "f3": 29, "f4": 30,
})

# --------------------------------------------------------------------------
# Tile validation and basic queries
# --------------------------------------------------------------------------


def _as_tile(t) -> int:
    """Return ``t`` as a tile id 0..41 or raise TileError."""
    if t.__class__ is int and 0 <= t < 42:
        return t
    if isinstance(t, bool):
        raise TileError(f"not a tile: {t!r} (tiles are ints 0..41)")
    try:
        v = operator.index(t)
    except TypeError:
        raise TileError(f"not a tile: {t!r} (tiles are ints 0..41)") from None
    if 0 <= v < 42:
        return v
    raise TileError(f"not a tile: {t!r} (tiles are ints 0..41)")


def tile_name(t: SupportsIndex) -> str:
    """Canonical two-character name: ``22 -> '5s'``."""
    return _NAMES[_as_tile(t)]


def suit_of(t: SupportsIndex) -> str:
    """Suit letter: 'm', 'p', 's', 'z' or 'f'."""
    return _SUIT_OF[_as_tile(t)]


def rank_of(t: SupportsIndex) -> int:
    """Rank within the suit: 1..9 suited, 1..7 honours, 1..8 flowers."""
    return _RANK_OF[_as_tile(t)]


def is_suited(t: SupportsIndex) -> bool:
    """True for m/p/s tiles."""
    return _IS_SUITED[_as_tile(t)]


def is_honor(t: SupportsIndex) -> bool:
    """True for winds and dragons (not flowers)."""
    return _IS_HONOR[_as_tile(t)]


def is_wind(t: SupportsIndex) -> bool:
    """True for East, South, West, North."""
    return _IS_WIND[_as_tile(t)]


def is_dragon(t: SupportsIndex) -> bool:
    """True for White, Green, Red."""
    return _IS_DRAGON[_as_tile(t)]


def is_flower(t: SupportsIndex) -> bool:
    """True for the eight flower/season tiles."""
    return _IS_FLOWER[_as_tile(t)]


def is_terminal(t: SupportsIndex) -> bool:
    """True for suited 1s and 9s."""
    return _IS_TERMINAL[_as_tile(t)]


def is_terminal_or_honor(t: SupportsIndex) -> bool:
    """True for terminals, winds and dragons (flowers excluded)."""
    return _IS_TERMINAL_OR_HONOR[_as_tile(t)]


def is_simple(t: SupportsIndex) -> bool:
    """True for suited 2..8."""
    return _IS_SIMPLE[_as_tile(t)]


def make_tile(suit: object, rank: SupportsIndex) -> int:
    """Tile from a suit letter (m/p/s/z/f, any case) and rank: ``('p', 5) -> 13``."""
    s = suit.lower() if isinstance(suit, str) else None
    info = _SUIT_INFO.get(s) if s else None
    if info is None:
        raise TileError(f"unknown suit {suit!r}: expected one of m, p, s, z, f")
    base, top, why = info
    try:
        if isinstance(rank, bool):
            raise TypeError
        r = operator.index(rank)
    except TypeError:
        raise TileError(f"bad rank {rank!r} for suit '{s}': ranks are ints") from None
    if not 1 <= r <= top:
        raise TileError(f"'{r}{s}' is not a tile: {why}", token=f"{r}{s}")
    return base + r - 1


def sort_tiles(tiles) -> list[int]:
    """Sorted copy: m, p, s, z, f order, then rank."""
    return sorted(_as_tile(t) for t in tiles)


def format_tiles(tiles, sep: str = "") -> str:
    """Canonical names joined by ``sep``, order kept: ``[0, 0, 9] -> '1m1m1p'``."""
    names = _NAMES
    return sep.join([names[_as_tile(t)] for t in tiles])


def tile_counts(tiles) -> list[int]:
    """Length-34 list of counts of the non-flower tiles (flowers ignored)."""
    counts = [0] * NUM_TILE_TYPES
    for t in tiles:
        t = _as_tile(t)
        if t < NUM_TILE_TYPES:
            counts[t] += 1
    return counts


def check_no_fifth_copy(tiles) -> None:
    """Raise TileError if a tile type occurs more than 4 times or a flower twice."""
    tiles = [_as_tile(t) for t in tiles]
    counts = [0] * NUM_TILES_WITH_FLOWERS
    for t in tiles:
        counts[t] += 1
    for t in tiles:  # report the first offender in input order
        c = counts[t]
        if t < NUM_TILE_TYPES:
            if c > 4:
                raise TileError(
                    f"fifth copy of {_NAMES[t]}: {c} copies of {_NAMES[t]} seen, only 4 exist",
                    token=_NAMES[t])
        elif c > 1:
            raise TileError(
                f"second copy of flower {_NAMES[t]}: {c} copies of {_NAMES[t]} seen, "
                f"each flower exists once",
                token=_NAMES[t])


# --------------------------------------------------------------------------
# Parsing
# --------------------------------------------------------------------------


def _where(position: int, text: str) -> str:
    return f"at position {position} in {excerpt(text, 100)}"


def _word_at(text: str, i: int) -> str:
    """The offending token at ``i``: a run of ASCII letters/digits, else one character."""
    if not (text[i].isascii() and text[i].isalnum()):
        return text[i]
    j = i + 1
    n = len(text)
    while j < n and text[j].isascii() and text[j].isalnum():
        j += 1
    return text[i:j]


def parse_tiles(text: object) -> list[int]:
    """Parse a string in any accepted notation (mixed freely), keeping order.

    Empty or separator-only input gives ``[]``.  Raises TileError naming the
    offending token and its 1-based tile position in the input.
    """
    if not isinstance(text, str):
        raise TileError(f"cannot parse tiles from {type(text).__name__} {text!r}: expected a string")
    n = len(text)
    pairs = _PAIRS
    if not n & 1 and text[:2] in pairs:
        # Fast path for strings made only of two-character names ("1m1m9p").
        try:
            return [pairs[text[k:k + 2]] for k in range(0, n, 2)]
        except KeyError:
            pass
    out: list[int] = []
    append = out.append
    seps = _SEPARATORS
    ranks = _RANK_CHARS
    singles = _SINGLE_CHARS
    groups = _GROUP_TABLE
    i = 0
    while i < n:
        c = text[i]
        if c in seps:
            i += 1
            continue
        if c in ranks:
            # rank group: one or more rank characters then a suit character
            j = i + 1
            while j < n and text[j] in ranks:
                j += 1
            table = groups.get(text[j]) if j < n else None
            if table is None:
                digits = text[i:j]
                msg = f"'{digits}' has no suit letter"
                if j < n and text[j] not in seps:
                    msg += f" (next is '{text[j]}'; {_where(len(out) + 1, text)})"
                else:
                    msg += f" ({_where(len(out) + 1, text)})"
                raise TileError(msg,
                                token=digits, position=len(out) + 1, text=text)
            for k in range(i, j):
                t = table.get(text[k])
                if t is None:
                    tok = text[k] + text[j]
                    why = _SUIT_INFO[_SUIT_CHARS[text[j]]][2]
                    if text[k] == "0":
                        why += ", 0 is not a rank"
                    raise TileError(f"'{tok}' is not a tile: {why} ({_where(len(out) + 1, text)})",
                                    token=tok, position=len(out) + 1, text=text)
                append(t)
            i = j + 1
            continue
        t = singles.get(c)
        if t is not None:
            append(t)
            i += 1
            if i < n and text[i] in _VARIATION_SELECTORS:
                i += 1
            continue
        code = _GB_CODES.get(c)
        if code is not None and i + 1 < n and text[i + 1] in _ASCII_DIGITS:
            table, why = code
            t = table.get(text[i + 1])
            if t is None:
                tok = text[i:i + 2]
                raise TileError(f"'{tok}' is not a tile: {why} ({_where(len(out) + 1, text)})",
                                token=tok, position=len(out) + 1, text=text)
            append(t)
            i += 2
            continue
        bad = _NOT_TILES.get(c)
        if bad is not None:
            raise TileError(f"'{c}' is not a tile: {bad} ({_where(len(out) + 1, text)})",
                            token=c, position=len(out) + 1, text=text)
        tok = _word_at(text, i)
        raise TileError(f"unknown tile '{tok}' {_where(len(out) + 1, text)}",
                        token=tok, position=len(out) + 1, text=text)
    return out


def parse_tile(token: object) -> int:
    """Parse exactly one tile in any accepted notation (surrounding whitespace ok)."""
    if not isinstance(token, str):
        raise TileError(f"cannot parse a tile from {type(token).__name__} {token!r}: expected a string")
    tiles = parse_tiles(token.strip())
    if len(tiles) != 1:
        if not tiles:
            raise TileError(f"empty tile {token!r}: expected one tile", token=token)
        raise TileError(f"'{token.strip()}' is not a single tile: it holds {len(tiles)} tiles",
                        token=token)
    return tiles[0]


def parse_wind(text: object) -> int:
    """Parse a seat/round wind (E/S/W/N, east, 东/南/西/北, 1z-4z, F1-F4) to 27..30."""
    t = _WIND_WORDS.get(text.strip().lower()) if isinstance(text, str) else None
    if t is None:
        raise TileError(
            f"unknown wind {excerpt(text)}: expected E/S/W/N, east/south/west/north, "
            f"东/南/西/北, 1z-4z or F1-F4", token=text)
    return t
