"""Mahjong tiles drawn as inline SVG, for every HTML page the project writes.

A tile is drawn with shapes and stroked paths only (no text, so no font need be installed): a rounded face,
and on it pips for dots, sticks for bamboo, a numeral over the sign 万 for characters, the letter of a wind,
中 / a green 发 / a blue frame for the red, green and white dragons, and a numeral over a flower for the
flowers (seasons 1-4 and plants 5-8 in their own colours). Each distinct tile of a page is defined once as a
`<symbol id="tile-5p">` (`sprite`) and drawn where it is needed by `<use href="#tile-5p">` (`tile_use`), each
use carrying the tile's canonical name as its `<title>` ("5 of dots (5p)", `tile_title`), so a page of many
hands stays small. `TILE_CODES` writes a tile as one character (page data that names thousands of hands);
`TILE_GLYPHS` is each tile's character of the Unicode Mahjong Tiles block for text pages (Markdown), read back
through the tile parser, so a glyph names the tile the command line reads it as (🀦 is 1f, spring).
Everything here is a pure function of the tile (`checker.tiles` numbers).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Iterable

from checker.tiles import NUM_TILES_WITH_FLOWERS, parse_tile, rank_of, suit_of, tile_name

__all__ = ["VIEWBOX", "TILE_CODES", "TILE_GLYPHS", "tile_title", "tile_symbol", "tile_use", "sprite", "symbol_id"]

WIDTH, HEIGHT = 30, 40
VIEWBOX = f"0 0 {WIDTH} {HEIGHT}"
# one character per tile number (1m..9m, 1p..9p, 1s..9s, 1z..7z, 1f..8f): compact page data
TILE_CODES = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOP"
assert len(TILE_CODES) == NUM_TILES_WITH_FLOWERS
# the Unicode Mahjong Tiles block (U+1F000-U+1F029) by tile number, each glyph placed where the parser reads it
_GLYPH_OF = {parse_tile(chr(cp)): chr(cp) for cp in range(0x1F000, 0x1F02A)}
TILE_GLYPHS: tuple[str, ...] = tuple(_GLYPH_OF[t] for t in range(NUM_TILES_WITH_FLOWERS))

INK = "#1d2433"      # numerals and letters
RED = "#c0392b"
GREEN = "#1e7b3a"
BLUE = "#1f5fa8"
SUIT_WORDS = {"m": "characters", "p": "dots", "s": "bamboo"}
HONOUR_WORDS = ("East wind", "South wind", "West wind", "North wind", "White dragon", "Green dragon", "Red dragon")
FLOWER_WORDS = ("Spring", "Summer", "Autumn", "Winter", "Plum", "Orchid", "Chrysanthemum", "Bamboo")
FLOWER_COLOURS = ("#2e8b57", "#c0392b", "#d35400", "#1f5fa8", "#c2185b", "#7b1fa2", "#b7950b", "#1e7b3a")

# Numerals and letters as strokes in a 6 x 10 box (y down), drawn scaled: no font involved.
GLYPHS = {
    "1": "M1.4 1.8L3.4 0V10M1.2 10H5.4",
    "2": "M0.6 2.4Q0.8 0 3 0Q5.4 0 5.4 2.5Q5.4 4.6 0.5 10H5.6",
    "3": "M0.6 1.2Q1.6 0 3 0Q5.3 0 5.3 2.4Q5.3 4.7 2.4 4.7Q5.6 4.7 5.6 7.4Q5.6 10 3 10Q1.4 10 0.4 8.8",
    "4": "M4.2 10V0L0.3 7H5.8",
    "5": "M5.3 0H1.1L0.7 4.4Q1.6 3.6 3 3.6Q5.6 3.6 5.6 6.8Q5.6 10 2.8 10Q1.4 10 0.4 9",
    "6": "M5 0.7Q4.1 0 3.1 0Q0.4 0 0.4 5.4Q0.4 10 3 10Q5.6 10 5.6 6.9Q5.6 3.9 3 3.9Q1.2 3.9 0.5 5.5",
    "7": "M0.4 0H5.6L2.2 10",
    "8": "M3 4.6Q0.7 4.6 0.7 2.3Q0.7 0 3 0Q5.3 0 5.3 2.3Q5.3 4.6 3 4.6Q0.4 4.6 0.4 7.3Q0.4 10 3 10Q5.6 10 "
         "5.6 7.3Q5.6 4.6 3 4.6Z",
    "9": "M1 9.3Q1.9 10 3 10Q5.6 10 5.6 4.6Q5.6 0 3 0Q0.4 0 0.4 3.1Q0.4 6.1 3 6.1Q4.9 6.1 5.6 4.5",
    "E": "M5.4 0H0.8V10H5.4M0.8 5H4.6",
    "S": "M5.2 1.1Q4.3 0 3 0Q0.6 0 0.6 2.6Q0.6 4.2 3 4.9Q5.5 5.6 5.5 7.4Q5.5 10 3 10Q1.3 10 0.4 8.8",
    "W": "M0 0L1.5 10L3 2.8L4.5 10L6 0",
    "N": "M0.7 10V0L5.3 10V0",
}
WAN = "M0.5 1.5H13.5M5.6 5.4H12Q12 10.6 10.4 12L8.8 11M5.6 1.5Q5.4 8.6 0.8 12.4"  # 万, in a 14 x 13 box
FA = ("M4.6 0.6Q4.4 3.3 2.6 4.6M1 6.2H15M10.3 0.4L11.8 3M7.6 0.6Q7.2 9 1.2 14.6"  # 发, in a 16 x 15 box
      "M7 7.6H13.2Q11 12.6 4.6 14.8M7.6 9.2Q10.4 13.2 15 14.6")
ZHONG = "M5.5 10.5H24.5V23.5H5.5ZM15 4.5V35.5"  # 中

Point = tuple[float, float]
DOTS: dict[int, tuple[list[Point], float]] = {  # pip centres and radius per rank
    1: ([(15, 20)], 9.5),
    2: ([(15, 10.5), (15, 29.5)], 6),
    3: ([(8, 8.5), (15, 20), (22, 31.5)], 5),
    4: ([(9, 11.5), (21, 11.5), (9, 28.5), (21, 28.5)], 5),
    5: ([(8.5, 9.5), (21.5, 9.5), (15, 20), (8.5, 30.5), (21.5, 30.5)], 4.4),
    6: ([(9.5, 8.5), (20.5, 8.5), (9.5, 20), (20.5, 20), (9.5, 31.5), (20.5, 31.5)], 4.4),
    7: ([(7.5, 6.5), (15, 11), (22.5, 15.5), (9.5, 24.5), (20.5, 24.5), (9.5, 33), (20.5, 33)], 3.6),
    8: ([(9.5, 6.8), (20.5, 6.8), (9.5, 15.4), (20.5, 15.4), (9.5, 24.6), (20.5, 24.6), (9.5, 33.2),
         (20.5, 33.2)], 3.7),
    9: ([(x, y) for y in (8.5, 20, 31.5) for x in (7.5, 15, 22.5)], 3.6),
}
STICKS: dict[int, tuple[list[Point], float, tuple[int, ...]]] = {  # stick centres, the stick's height, which are red
    1: ([(15, 20)], 27, ()),
    2: ([(15, 11.5), (15, 28.5)], 13, ()),
    3: ([(15, 11.5), (9, 28.5), (21, 28.5)], 13, ()),
    4: ([(10, 11.5), (20, 11.5), (10, 28.5), (20, 28.5)], 13, ()),
    5: ([(8.5, 11.5), (21.5, 11.5), (15, 20), (8.5, 28.5), (21.5, 28.5)], 13, (2,)),
    6: ([(x, y) for y in (11.5, 28.5) for x in (8, 15, 22)], 13, ()),
    7: ([(15, 7), *((x, y) for y in (20, 32) for x in (8, 15, 22))], 10, (0,)),
    8: ([(x, y) for y in (11.5, 28.5) for x in (6, 12, 18, 24)], 13, ()),
    9: ([(x, y) for y in (7, 20, 33) for x in (8, 15, 22)], 10, (1, 4, 7)),
}


def _n(value: float) -> str:
    """A coordinate as short text: no trailing zeros."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _glyph(char: str, x: float, y: float, scale: float, colour: str, width: float) -> str:
    """A numeral or letter of GLYPHS, its 6 x 10 box's top left at (x, y), `scale` times as large."""
    return (f'<path transform="translate({_n(x)} {_n(y)}) scale({_n(scale)})" d="{GLYPHS[char]}" fill="none" '
            f'stroke="{colour}" stroke-width="{_n(width / scale)}" stroke-linecap="round" stroke-linejoin="round"/>')


def _circle(x: float, y: float, r: float) -> str:
    return f"M{_n(x - r)} {_n(y)}a{_n(r)} {_n(r)} 0 1 0 {_n(2 * r)} 0a{_n(r)} {_n(r)} 0 1 0 {_n(-2 * r)} 0"


def _by_colour(parts: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Subpaths gathered by colour (one path each: a tile drawn by <use> clones few elements), in first order."""
    out: dict[str, str] = {}
    for colour, d in parts:
        out[colour] = out.get(colour, "") + d
    return out


def _pips(rank: int) -> str:
    centres, r = DOTS[rank]
    parts = []
    for i, (x, y) in enumerate(centres):
        colour = RED if (rank == 1 or (rank in (5, 9) and i == len(centres) // 2) or (rank == 7 and i < 3)) \
            else GREEN if rank in (2, 8) or (rank in (4, 6) and i % 2) else BLUE
        parts.append((colour, _circle(x, y, r)))
    rings = "".join(_circle(x, y, r * .55) for x, y in centres)
    return ("".join(f'<path d="{d}" fill="{colour}"/>' for colour, d in _by_colour(parts).items())
            + f'<path d="{rings}" fill="none" stroke="#fff" stroke-width="{_n(max(.6, r * .16))}"/>')


def _sticks(rank: int) -> str:
    centres, height, red = STICKS[rank]
    width = 5 if rank == 1 else 3.4
    parts, nodes = [], []
    for i, (x, y) in enumerate(centres):
        half = height / 2 - width / 2  # the round caps make up the rest of the height
        parts.append((RED if i in red else GREEN, f"M{_n(x)} {_n(y - half)}V{_n(y + half)}"))
        for n in ((y - height / 4, y, y + height / 4) if rank == 1 else (y,)):
            nodes.append(f"M{_n(x - width / 2)} {_n(n)}h{_n(width)}")
    return ("".join(f'<path d="{d}" stroke="{colour}" stroke-width="{_n(width)}" stroke-linecap="round"/>'
                    for colour, d in _by_colour(parts).items())
            + f'<path d="{"".join(nodes)}" stroke="#fff" stroke-width=".8"/>')


def _characters(rank: int) -> str:
    return (_glyph(str(rank), 10.2, 4, 1.6, INK, 2.3)
            + f'<path transform="translate(8 23)" d="{WAN}" fill="none" stroke="{RED}" stroke-width="2.1" '
              f'stroke-linecap="round" stroke-linejoin="round"/>')


def _honour(rank: int) -> str:
    if rank <= 4:
        return _glyph("ESWN"[rank - 1], 8.4, 9, 2.2, INK, 2.6)
    if rank == 5:  # white dragon: a blue frame
        return (f'<rect x="6" y="6.5" width="18" height="27" rx="2" fill="none" stroke="{BLUE}" stroke-width="2.2"/>'
                f'<rect x="9.5" y="10" width="11" height="20" rx="1" fill="none" stroke="{BLUE}" stroke-width="1"/>')
    if rank == 6:
        return (f'<path transform="translate(5 10) scale(1.25)" d="{FA}" fill="none" stroke="{GREEN}" '
                f'stroke-width="1.9" stroke-linecap="round" stroke-linejoin="round"/>')
    return (f'<path d="{ZHONG}" fill="none" stroke="{RED}" stroke-width="3" stroke-linecap="round" '
            f'stroke-linejoin="round"/>')


def _flower(rank: int) -> str:
    colour = FLOWER_COLOURS[rank - 1]
    petals = "".join(_circle(15 + 4.6 * dx, 28 + 4.6 * dy, 3.3)
                     for dx, dy in ((0, -1), (.95, -.31), (.59, .81), (-.59, .81), (-.95, -.31)))
    return (_glyph(str(rank), 10.8, 3.5, 1.4, INK, 2.2) + f'<path d="{petals}" fill="{colour}"/>'
            + '<circle cx="15" cy="28" r="2.2" fill="#f4c20d" stroke="#fff" stroke-width=".6"/>')


def tile_title(tile: int) -> str:
    """A tile's canonical name in words: "5 of dots (5p)", "East wind (1z)", "Plum flower (5f)"."""
    suit, rank, name = suit_of(tile), rank_of(tile), tile_name(tile)
    if suit in SUIT_WORDS:
        return f"{rank} of {SUIT_WORDS[suit]} ({name})"
    if suit == "z":
        return f"{HONOUR_WORDS[rank - 1]} ({name})"
    return f"{FLOWER_WORDS[rank - 1]} flower ({name})"


def symbol_id(tile: int) -> str:
    return f"tile-{tile_name(tile)}"


@lru_cache(maxsize=None)
def tile_symbol(tile: int) -> str:
    """The `<symbol>` that draws a tile: the face, then its mark."""
    suit, rank = suit_of(tile), rank_of(tile)
    mark = (_pips(rank) if suit == "p" else _sticks(rank) if suit == "s" else _characters(rank) if suit == "m"
            else _honour(rank) if suit == "z" else _flower(rank))
    return (f'<symbol id="{symbol_id(tile)}" viewBox="{VIEWBOX}"><title>{tile_title(tile)}</title>'
            f'<rect x=".6" y=".6" width="28.8" height="38.8" rx="4" fill="#fbf8ee" stroke="#8d8470" '
            f'stroke-width="1.2"/>{mark}</symbol>')


def sprite(tiles: Iterable[int]) -> str:
    """One hidden `<svg>` defining each distinct tile of `tiles` once, in tile order."""
    symbols = "".join(tile_symbol(t) for t in sorted(set(tiles)))
    return (f'<svg width="0" height="0" aria-hidden="true" '
            f'style="position:absolute;width:0;height:0;overflow:hidden">{symbols}</svg>')


def tile_use(tile: int, css_class: str = "tile") -> str:
    """A tile drawn where it stands: the symbol of `sprite` by reference, titled with its name."""
    return (f'<svg class="{css_class}" viewBox="{VIEWBOX}" role="img"><title>{tile_title(tile)}</title>'
            f'<use href="#{symbol_id(tile)}"/></svg>')
