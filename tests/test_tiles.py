"""Tests for checker.tiles (tile representation, parsing and formatting)."""

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from checker.tiles import (
    FLOWERS,
    NUM_TILE_TYPES,
    WIND_TILES,
    TileError,
    check_no_fifth_copy,
    format_tiles,
    is_dragon,
    is_flower,
    is_honor,
    is_simple,
    is_suited,
    is_terminal,
    is_terminal_or_honor,
    is_wind,
    make_tile,
    parse_tile,
    parse_tiles,
    parse_wind,
    rank_of,
    sort_tiles,
    suit_of,
    tile_counts,
    tile_name,
)

# ---------------------------------------------------------------------------
# Independent reference table, written out by hand (index == tile id).
# (canonical, MahjongGB code, Unicode character, Chinese name)
# ---------------------------------------------------------------------------
TABLE = [
    ("1m", "W1", "\U0001F007", "一万"),
    ("2m", "W2", "\U0001F008", "二万"),
    ("3m", "W3", "\U0001F009", "三万"),
    ("4m", "W4", "\U0001F00A", "四万"),
    ("5m", "W5", "\U0001F00B", "五万"),
    ("6m", "W6", "\U0001F00C", "六万"),
    ("7m", "W7", "\U0001F00D", "七万"),
    ("8m", "W8", "\U0001F00E", "八万"),
    ("9m", "W9", "\U0001F00F", "九万"),
    ("1p", "B1", "\U0001F019", "一筒"),
    ("2p", "B2", "\U0001F01A", "二筒"),
    ("3p", "B3", "\U0001F01B", "三筒"),
    ("4p", "B4", "\U0001F01C", "四筒"),
    ("5p", "B5", "\U0001F01D", "五筒"),
    ("6p", "B6", "\U0001F01E", "六筒"),
    ("7p", "B7", "\U0001F01F", "七筒"),
    ("8p", "B8", "\U0001F020", "八筒"),
    ("9p", "B9", "\U0001F021", "九筒"),
    ("1s", "T1", "\U0001F010", "一条"),
    ("2s", "T2", "\U0001F011", "二条"),
    ("3s", "T3", "\U0001F012", "三条"),
    ("4s", "T4", "\U0001F013", "四条"),
    ("5s", "T5", "\U0001F014", "五条"),
    ("6s", "T6", "\U0001F015", "六条"),
    ("7s", "T7", "\U0001F016", "七条"),
    ("8s", "T8", "\U0001F017", "八条"),
    ("9s", "T9", "\U0001F018", "九条"),
    ("1z", "F1", "\U0001F000", "东"),
    ("2z", "F2", "\U0001F001", "南"),
    ("3z", "F3", "\U0001F002", "西"),
    ("4z", "F4", "\U0001F003", "北"),
    ("5z", "J3", "\U0001F006", "白"),
    ("6z", "J2", "\U0001F005", "发"),
    ("7z", "J1", "\U0001F004", "中"),
    ("1f", "H1", "\U0001F026", "春"),
    ("2f", "H2", "\U0001F027", "夏"),
    ("3f", "H3", "\U0001F028", "秋"),
    ("4f", "H4", "\U0001F029", "冬"),
    ("5f", "H5", "\U0001F022", "梅"),
    ("6f", "H6", "\U0001F023", "兰"),
    ("7f", "H7", "\U0001F025", "菊"),
    ("8f", "H8", "\U0001F024", "竹"),
]
CANON = [row[0] for row in TABLE]
GB = [row[1] for row in TABLE]
UNI = [row[2] for row in TABLE]
CHINESE = [row[3] for row in TABLE]
ALL = list(range(42))

# Unicode character names we expect for the table above (from the standard).
UNICODE_NAME_WORDS = {
    "1m": "ONE OF CHARACTERS", "9m": "NINE OF CHARACTERS",
    "1p": "ONE OF CIRCLES", "9p": "NINE OF CIRCLES",
    "1s": "ONE OF BAMBOOS", "9s": "NINE OF BAMBOOS",
    "1z": "EAST WIND", "2z": "SOUTH WIND", "3z": "WEST WIND", "4z": "NORTH WIND",
    "5z": "WHITE DRAGON", "6z": "GREEN DRAGON", "7z": "RED DRAGON",
    "1f": "SPRING", "2f": "SUMMER", "3f": "AUTUMN", "4f": "WINTER",
    "5f": "PLUM", "6f": "ORCHID", "7f": "CHRYSANTHEMUM", "8f": "BAMBOO",
}


def test_reference_table_is_well_formed():
    assert len(TABLE) == 42
    assert len(set(CANON)) == len(set(GB)) == len(set(UNI)) == len(set(CHINESE)) == 42
    for canon, _, char, _ in TABLE:
        word = UNICODE_NAME_WORDS.get(canon)
        name = unicodedata.name(char)
        assert name.startswith("MAHJONG TILE ")
        if word is not None:
            assert name == "MAHJONG TILE " + word, (canon, name)


# ---------------------------------------------------------------------------
# Constants and naming
# ---------------------------------------------------------------------------


def test_constants():
    assert NUM_TILE_TYPES == 34
    assert list(FLOWERS) == list(range(34, 42))
    assert dict(WIND_TILES) == {"E": 27, "S": 28, "W": 29, "N": 30}
    with pytest.raises(TypeError):
        WIND_TILES["E"] = 0  # read-only mapping


@pytest.mark.parametrize("tile,name", [
    (0, "1m"), (8, "9m"), (9, "1p"), (13, "5p"), (17, "9p"), (18, "1s"),
    (22, "5s"), (26, "9s"), (27, "1z"), (31, "5z"), (33, "7z"), (34, "1f"),
    (36, "3f"), (41, "8f"),
])
def test_tile_name_examples(tile, name):
    assert tile_name(tile) == name


def test_tile_name_all_matches_reference():
    assert [tile_name(t) for t in ALL] == CANON


@pytest.mark.parametrize("bad", [-1, 42, 100, True, 1.0, "1m", None])
def test_tile_name_rejects_non_tiles(bad):
    with pytest.raises(TileError) as e:
        tile_name(bad)
    assert repr(bad) in str(e.value)


def test_format_tiles():
    assert format_tiles([0, 0, 9]) == "1m1m1p"
    assert format_tiles([22, 33, 36], sep=" ") == "5s 7z 3f"
    assert format_tiles([]) == ""
    assert format_tiles(iter([27, 28])) == "1z2z"
    with pytest.raises(TileError, match="42"):
        format_tiles([0, 42])


# ---------------------------------------------------------------------------
# Every tile round-trips through every notation that can express it
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("tile", ALL, ids=CANON)
def test_each_tile_each_notation(tile):
    canon, gb, char, chinese = TABLE[tile]
    forms = [
        canon, canon.upper(), " " + canon + " ",
        gb, gb.lower(),
        char, char + "\ufe0f", char + "\ufe0e",
        chinese,
    ]
    for form in forms:
        assert parse_tile(form) == tile, form
        assert parse_tiles(form) == [tile], form
    assert tile_name(parse_tile(chinese)) == canon


@pytest.mark.parametrize("notation", [CANON, GB, UNI, CHINESE],
                         ids=["canonical", "mahjonggb", "unicode", "chinese"])
@pytest.mark.parametrize("sep", ["", " ", ",", ", ", "\t", "\n"])
def test_all_tiles_in_one_string(notation, sep):
    assert parse_tiles(sep.join(notation)) == ALL
    assert format_tiles(parse_tiles(sep.join(notation))) == "".join(CANON)


# ---------------------------------------------------------------------------
# Notations, written expected output by hand
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("text,expected", [
    ("1m1m1m", "1m1m1m"),
    ("123m456p11z", "1m2m3m4p5p6p1z1z"),
    ("19m19p19s1234567z", "1m9m1p9p1s9s1z2z3z4z5z6z7z"),
    ("12345678f", "1f2f3f4f5f6f7f8f"),
    ("123M456P789S11Z", "1m2m3m4p5p6p7s8s9s1z1z"),
    ("1M", "1m"),
    ("1m23m", "1m2m3m"),
    ("111m 22p", "1m1m1m2p2p"),
])
def test_compact_groups(text, expected):
    assert format_tiles(parse_tiles(text)) == expected


@pytest.mark.parametrize("text,expected", [
    ("2p 3p 4p", "2p3p4p"),
    ("2p,3p,4p", "2p3p4p"),
    ("  2p ,  3p\t4p\n", "2p3p4p"),
    ("5z 6z 7z", "5z6z7z"),
])
def test_space_and_comma_separated(text, expected):
    assert format_tiles(parse_tiles(text)) == expected


@pytest.mark.parametrize("text,expected", [
    ("W1W2B3", "1m2m3p"),
    ("W1 W2", "1m2m"),
    ("w9 b9 t9", "9m9p9s"),
    ("F1F2F3F4", "1z2z3z4z"),
    ("J1 J2 J3", "7z6z5z"),
    ("H1H8", "1f8f"),
    ("f1", "1z"),
])
def test_mahjonggb_codes(text, expected):
    assert format_tiles(parse_tiles(text)) == expected


@pytest.mark.parametrize("text,expected", [
    ("\U0001F007\U0001F008\U0001F009", "1m2m3m"),
    ("\U0001F000\U0001F001\U0001F002\U0001F003", "1z2z3z4z"),
    ("\U0001F004\U0001F005\U0001F006", "7z6z5z"),
    ("\U0001F004\ufe0f\U0001F004\ufe0e\U0001F004", "7z7z7z"),
    ("\U0001F010 \U0001F018 \U0001F019 \U0001F021", "1s9s1p9p"),
    ("\U0001F022\U0001F023\U0001F024\U0001F025", "5f6f8f7f"),
    ("\U0001F026\U0001F027\U0001F028\U0001F029", "1f2f3f4f"),
])
def test_unicode(text, expected):
    assert format_tiles(parse_tiles(text)) == expected


@pytest.mark.parametrize("text,expected", [
    ("一万二万三万东东", "1m2m3m1z1z"),
    ("一万 五筒 三条 九索 1万", "1m5p3s9s1m"),
    ("九萬 二饼 三餅 四條", "9m2p3p4s"),
    ("幺万 幺筒 幺条 幺索", "1m1p1s1s"),
    ("9筒 5条", "9p5s"),
    ("東南西北白發发中", "1z2z3z4z5z6z6z7z"),
    ("春夏秋冬梅兰蘭菊竹", "1f2f3f4f5f6f6f7f8f"),
    ("一二三万", "1m2m3m"),
    ("一万，二万、三万", "1m2m3m"),
])
def test_chinese(text, expected):
    assert format_tiles(parse_tiles(text)) == expected


def test_mixed_notations_in_one_string():
    text = "123m W4 \U0001F00C 七万, 8m9m B1\U0001F01A三筒 东F2\U0001F002 4z J3 發 \U0001F004 H1 夏3f"
    assert format_tiles(parse_tiles(text), " ") == (
        "1m 2m 3m 4m 6m 7m 8m 9m 1p 2p 3p 1z 2z 3z 4z 5z 6z 7z 1f 2f 3f"
    )


def test_f1_vs_1f_ambiguity():
    assert parse_tiles("F1") == [27]     # MahjongGB East
    assert parse_tiles("1f") == [34]     # canonical spring
    assert parse_tiles("1F") == [34]     # suit letters are case-insensitive
    assert parse_tiles("1fF1") == [34, 27]
    assert parse_tiles("F11f") == [27, 34]
    assert parse_tiles("F1F1") == [27, 27]
    assert parse_tiles("1f1f") == [34, 34]


def test_empty_input():
    assert parse_tiles("") == []
    assert parse_tiles("   ") == []
    assert parse_tiles(" , ,\n") == []


def test_parse_tile_single():
    assert parse_tile("5s") == 22
    assert parse_tile("T5") == 22
    assert parse_tile("五条") == 22
    with pytest.raises(TileError, match="123m"):
        parse_tile("123m")
    with pytest.raises(TileError):
        parse_tile("")
    with pytest.raises(TileError, match="x9"):
        parse_tile("x9")
    with pytest.raises(TileError):
        parse_tile(5)


# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("text,fragments", [
    ("1m2m x9", ["unknown tile 'x9'", "position 3", "in '1m2m x9'"]),
    ("x9", ["unknown tile 'x9'", "position 1"]),
    ("123m x9 4p", ["'x9'", "position 4"]),
    ("8z", ["'8z' is not a tile: honours run 1z-7z", "position 1"]),
    ("189z", ["'8z' is not a tile: honours run 1z-7z", "position 2", "in '189z'"]),
    ("0m", ["'0m'", "not a tile"]),
    ("1p 0p", ["'0p'", "not a tile", "position 2"]),
    ("9f", ["'9f' is not a tile", "1f-8f"]),
    ("0万", ["'0万'", "not a tile"]),
    ("123", ["'123' has no suit letter"]),
    ("1m 23", ["'23' has no suit letter", "position 2"]),
    ("12W3", ["'12' has no suit letter"]),
    ("一", ["'一' has no suit letter"]),
    ("F5", ["'F5'", "not a tile"]),
    ("J4", ["'J4'", "not a tile"]),
    ("H9", ["'H9'", "not a tile"]),
    ("W0", ["'W0'", "not a tile"]),
    ("W", ["'W'"]),
    ("m1", ["'m1'"]),
    ("East", ["'East'"]),
    ("\U0001F02A", ["'\U0001F02A' is not a tile", "JOKER"]),
    ("1m \U0001F02B", ["'\U0001F02B' is not a tile", "BACK", "position 2"]),
    ("\ufe0f", ["'\ufe0f'"]),
    ("风", ["'风'"]),
    ("一万二万风东南", ["unknown tile '风'", "position 3"]),
    ("1m2mx9,1m", ["unknown tile 'x9'", "position 3"]),
    ("East wind", ["unknown tile 'East'", "position 1"]),
])
def test_parse_errors(text, fragments):
    with pytest.raises(TileError) as e:
        parse_tiles(text)
    msg = str(e.value)
    for frag in fragments:
        assert frag in msg, (frag, msg)
    assert isinstance(e.value, ValueError)


def test_parse_error_attributes():
    with pytest.raises(TileError) as e:
        parse_tiles("1m2m x9")
    assert e.value.token == "x9"
    assert e.value.position == 3
    assert e.value.text == "1m2m x9"


def test_parse_tiles_rejects_non_string():
    with pytest.raises(TileError):
        parse_tiles(None)
    with pytest.raises(TileError):
        parse_tiles(["1m"])


# ---------------------------------------------------------------------------
# Hypothesis properties
# ---------------------------------------------------------------------------

tile_lists = st.lists(st.integers(min_value=0, max_value=41), max_size=30)


@given(tile_lists)
def test_roundtrip_format_parse(tiles):
    assert parse_tiles(format_tiles(tiles)) == tiles


@given(tile_lists, st.sampled_from([" ", ",", ", ", "\n"]))
def test_roundtrip_with_separator(tiles, sep):
    assert parse_tiles(format_tiles(tiles, sep)) == tiles


def _compact(tiles):
    """Group consecutive same-suit tiles: [0, 1, 9] -> '12m1p'."""
    out, digits, suit = [], "", None
    for t in tiles:
        name = CANON[t]
        if name[1] != suit and digits:
            out.append(digits + suit)
            digits = ""
        digits += name[0]
        suit = name[1]
    if digits:
        out.append(digits + suit)
    return "".join(out)


@given(tile_lists)
def test_roundtrip_compact_groups(tiles):
    assert parse_tiles(_compact(tiles)) == tiles


@given(st.lists(st.tuples(st.integers(0, 41), st.integers(0, 3),
                          st.sampled_from(["", " ", ","])), max_size=30))
def test_mixed_notation_property(items):
    text = "".join([TABLE[t][n] + sep for t, n, sep in items])
    assert parse_tiles(text) == [t for t, _, _ in items]


@settings(max_examples=300)
@given(st.text(alphabet=st.one_of(
    st.sampled_from(list("0123456789mpszfMPSZFWBTJHwbtjhx ,万筒条一九东中春\ufe0f")
                    + UNI + ["\U0001F02A", "\U0001F02B"]),
    st.characters(),
), max_size=20))
def test_parse_never_raises_anything_but_tileerror(text):
    try:
        tiles = parse_tiles(text)
    except TileError as e:
        assert str(e)
    else:
        assert all(0 <= t < 42 for t in tiles)
        # re-formatting canonical output parses back identically
        assert parse_tiles(format_tiles(tiles)) == tiles


# ---------------------------------------------------------------------------
# Counting and the fifth-copy check
# ---------------------------------------------------------------------------


def test_tile_counts():
    counts = tile_counts(parse_tiles("1m1m9m5p7z7z7z 1f2f"))
    assert len(counts) == 34
    assert counts[0] == 2 and counts[8] == 1 and counts[13] == 1 and counts[33] == 3
    assert sum(counts) == 7  # flowers ignored
    assert tile_counts([]) == [0] * 34
    assert tile_counts(FLOWERS) == [0] * 34
    with pytest.raises(TileError):
        tile_counts([42])


def test_check_no_fifth_copy_ok():
    check_no_fifth_copy(parse_tiles("5m5m5m5m 1z1z1z1z 12345678f"))
    check_no_fifth_copy([])


def test_check_no_fifth_copy_fifth():
    with pytest.raises(TileError) as e:
        check_no_fifth_copy(parse_tiles("5m5m5m5m 1p 5m"))
    msg = str(e.value)
    assert "fifth copy of 5m" in msg
    assert "5 copies" in msg


def test_check_no_fifth_copy_counts_all_copies():
    with pytest.raises(TileError) as e:
        check_no_fifth_copy([33] * 6)
    assert "fifth copy of 7z" in str(e.value)
    assert "6 copies" in str(e.value)


def test_check_no_fifth_copy_flower_twice():
    with pytest.raises(TileError) as e:
        check_no_fifth_copy(parse_tiles("春 1m 春"))
    assert "1f" in str(e.value)
    assert "2 copies" in str(e.value)


# ---------------------------------------------------------------------------
# Suits, ranks, predicates
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("tile,suit,rank", [
    (0, "m", 1), (8, "m", 9), (13, "p", 5), (22, "s", 5), (26, "s", 9),
    (27, "z", 1), (33, "z", 7), (34, "f", 1), (41, "f", 8),
])
def test_suit_rank_make_tile(tile, suit, rank):
    assert suit_of(tile) == suit
    assert rank_of(tile) == rank
    assert make_tile(suit, rank) == tile
    assert make_tile(suit.upper(), rank) == tile


def test_suit_rank_all_match_reference():
    for t in ALL:
        assert f"{rank_of(t)}{suit_of(t)}" == CANON[t]
        assert make_tile(suit_of(t), rank_of(t)) == t


@pytest.mark.parametrize("suit,rank,fragment", [
    ("z", 8, "8z"), ("m", 0, "0m"), ("f", 9, "9f"), ("p", 10, "10p"),
    ("x", 1, "'x'"), ("", 1, "''"), ("m", 1.5, "1.5"), ("m", True, "True"),
])
def test_make_tile_errors(suit, rank, fragment):
    with pytest.raises(TileError) as e:
        make_tile(suit, rank)
    assert fragment in str(e.value)


def test_make_tile_example():
    assert make_tile("p", 5) == 13


PREDICATE_CASES = {
    # name: (suited, honor, wind, dragon, flower, terminal, term_or_honor, simple)
    "1m": (True, False, False, False, False, True, True, False),
    "9p": (True, False, False, False, False, True, True, False),
    "1s": (True, False, False, False, False, True, True, False),
    "2m": (True, False, False, False, False, False, False, True),
    "5p": (True, False, False, False, False, False, False, True),
    "8s": (True, False, False, False, False, False, False, True),
    "1z": (False, True, True, False, False, False, True, False),
    "4z": (False, True, True, False, False, False, True, False),
    "5z": (False, True, False, True, False, False, True, False),
    "7z": (False, True, False, True, False, False, True, False),
    "1f": (False, False, False, False, True, False, False, False),
    "8f": (False, False, False, False, True, False, False, False),
}


@pytest.mark.parametrize("name", list(PREDICATE_CASES))
def test_predicates(name):
    t = CANON.index(name)
    got = (is_suited(t), is_honor(t), is_wind(t), is_dragon(t), is_flower(t),
           is_terminal(t), is_terminal_or_honor(t), is_simple(t))
    assert got == PREDICATE_CASES[name]


def test_predicate_partitions():
    assert [t for t in ALL if is_suited(t)] == list(range(27))
    assert [t for t in ALL if is_honor(t)] == list(range(27, 34))
    assert [t for t in ALL if is_wind(t)] == [27, 28, 29, 30]
    assert [t for t in ALL if is_dragon(t)] == [31, 32, 33]
    assert [t for t in ALL if is_flower(t)] == list(range(34, 42))
    assert [t for t in ALL if is_terminal(t)] == [0, 8, 9, 17, 18, 26]
    assert [t for t in ALL if is_terminal_or_honor(t)] == [0, 8, 9, 17, 18, 26, *range(27, 34)]
    assert len([t for t in ALL if is_simple(t)]) == 21
    for t in ALL:
        assert isinstance(is_simple(t), bool)


@pytest.mark.parametrize("pred", [is_suited, is_honor, is_wind, is_dragon, is_flower,
                                  is_terminal, is_terminal_or_honor, is_simple,
                                  suit_of, rank_of])
def test_predicates_reject_non_tiles(pred):
    with pytest.raises(TileError):
        pred(42)
    with pytest.raises(TileError):
        pred(-1)


def test_sort_tiles():
    tiles = parse_tiles("1f 7z 9s 1s 5p 1m 1z 9m")
    assert format_tiles(sort_tiles(tiles)) == "1m9m5p1s9s1z7z1f"
    assert sort_tiles([]) == []
    with pytest.raises(TileError):
        sort_tiles([0, 50])


@given(tile_lists)
def test_sort_tiles_property(tiles):
    out = sort_tiles(tiles)
    assert sorted(out) == out and sorted(tiles) == out
    keys = ["mpszf".index(suit_of(t)) * 10 + rank_of(t) for t in out]
    assert keys == sorted(keys)


# ---------------------------------------------------------------------------
# Winds
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("text,tile", [
    ("E", 27), ("S", 28), ("W", 29), ("N", 30),
    ("e", 27), ("s", 28), ("w", 29), ("n", 30),
    ("east", 27), ("South", 28), ("WEST", 29), ("north", 30),
    ("东", 27), ("東", 27), ("南", 28), ("西", 29), ("北", 30),
    ("1z", 27), ("2z", 28), ("3z", 29), ("4Z", 30),
    ("F1", 27), ("F2", 28), ("f3", 29), ("F4", 30),
    (" E ", 27),
])
def test_parse_wind(text, tile):
    assert parse_wind(text) == tile


@pytest.mark.parametrize("text", ["", "X", "5z", "F5", "1f", "中", "W1", "easts", "F", None, 27])
def test_parse_wind_errors(text):
    with pytest.raises(TileError) as e:
        parse_wind(text)
    assert repr(text) in str(e.value)
