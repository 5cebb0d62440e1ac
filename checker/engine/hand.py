"""A winning hand as the scorer sees it: concealed tiles, declared melds, the winning tile and its context.

`Hand.build` checks the input and raises `HandError` naming the tile, meld or field at fault and the rule
(`tiles.hand_size`, `tiles.four_copies`, …) it breaks.
"""
from __future__ import annotations

from typing import Final

from dataclasses import dataclass

from checker import tiles as T
from checker.inputs import excerpt

MAX_TILE_TEXT: Final = 200  # characters in one tile field: 18 tiles in the longest notation fit easily

WIN_BY: Final = ("self_draw", "discard", "robbing_kong")
MELD_KINDS: Final = ("chow", "pung", "kong")


class HandError(ValueError):
    """Bad hand input. `rule` is the rule or input id it breaks (used as a case's expected `error`)."""

    def __init__(self, message: str, rule: str = "input"):
        super().__init__(message)
        self.rule = rule

    def __reduce__(self) -> tuple:
        """Pickled with its rule (an error raised in a worker process reaches the parent whole)."""
        return (type(self), (str(self), self.rule))


@dataclass(init=False, unsafe_hash=True)
class Meld:
    """A declared set: `tile` is the lowest tile of a chow, the tile of a pung or kong. A read-only record
    (equal and hashed by its fields, as a frozen dataclass; not frozen and with a written-out constructor,
    because a dataclass's generated constructor runs as plain Python even in the compiled engine)."""

    kind: str
    tile: int
    concealed: bool
    source: int | None
    after_knock: bool  # claimed after its player knocked (Shanghai knocking)

    def __init__(self, kind: str, tile: int, concealed: bool = False, source: int | None = None,
                 after_knock: bool = False):
        self.kind, self.tile, self.concealed, self.source, self.after_knock = kind, tile, concealed, source, after_knock

    @property
    def tiles(self) -> tuple[int, ...]:
        if self.kind == "chow":
            return (self.tile, self.tile + 1, self.tile + 2)
        return (self.tile,) * (4 if self.kind == "kong" else 3)

    @property
    def exposed(self) -> bool:
        """Every declared meld is exposed except a concealed kong."""
        return not self.concealed

    def text(self) -> str:
        label = "concealed kong" if self.kind == "kong" and self.concealed else self.kind
        return f"{label} {T.format_tiles(self.tiles)}"


def _shown(kind: str, text: str) -> str:
    """A meld as a message names it (made only when a message needs it)."""
    return f"{kind} {excerpt(text)}"


_MELDS_READ: dict[tuple, Meld] = {}  # melds by what was given: a corpus writes the same few hundred again and again
MAX_MELDS_READ: Final = 4096  # past it, a meld is read and not kept


def parse_meld(kind: str, text: str, concealed: bool = False, source: int | None = None,
               after_knock: bool = False) -> Meld:
    """A meld from its kind and tiles (`chow`, `234m`); raises HandError naming the meld. Melds are read-only
    records, so one read before is given again (`pung`, `555p`, from seat 2: the same Meld each time)."""
    key = (kind, text, concealed, source, type(source), after_knock)  # (1.0 == 1, but not as a seat's message)
    found = _MELDS_READ.get(key)
    if found is None:
        found = _read_meld(kind, text, concealed, source, after_knock)
        if len(_MELDS_READ) < MAX_MELDS_READ:
            _MELDS_READ[key] = found
    return found


def _read_meld(kind: str, text: str, concealed: bool, source: int | None, after_knock: bool) -> Meld:
    kind = kind.strip().lower()
    if kind in ("concealed_kong", "concealed-kong", "ckong", "angang"):
        kind, concealed = "kong", True
    if kind not in MELD_KINDS:
        raise HandError(f"unknown meld type {excerpt(kind)}: use chow, pung, kong or concealed_kong", "input.meld")
    if len(text) > MAX_TILE_TEXT:
        raise HandError(f"meld {_shown(kind, text)}: a meld's tiles are limited to {MAX_TILE_TEXT} characters",
                        "input.meld")
    try:
        tiles = T.sort_tiles(T.parse_tiles(text))
    except T.TileError as exc:
        raise HandError(f"meld {_shown(kind, text)}: {exc}", "input.tile") from None
    if any(t >= T.NUM_TILE_TYPES for t in tiles):
        raise HandError(f"{_shown(kind, text)}: a flower cannot be part of a meld", "input.meld")
    need = {"chow": 3, "pung": 3, "kong": 4}[kind]
    if kind == "kong" and len(tiles) == 1:
        tiles = tiles * 4  # `kong:5p` is shorthand for 5p5p5p5p
    if kind == "pung" and len(tiles) == 1:
        tiles = tiles * 3
    if len(tiles) != need:
        raise HandError(f"{_shown(kind, text)}: a {kind} has {need} tiles, not {len(tiles)}", "input.meld")
    if kind == "chow":
        ok = T.is_suited(tiles[0]) and T.suit_of(tiles[0]) == T.suit_of(tiles[2]) and \
            tiles[1] == tiles[0] + 1 and tiles[2] == tiles[0] + 2
        if not ok:
            raise HandError(f"{_shown(kind, text)}: a chow is three consecutive tiles of one suit", "input.meld")
        if concealed:
            raise HandError(f"{_shown(kind, text)}: only a kong can be declared concealed", "input.meld")
    elif len(set(tiles)) != 1:
        raise HandError(f"{_shown(kind, text)}: a {kind} is {need} identical tiles", "input.meld")
    elif kind == "pung" and concealed:
        raise HandError(f"{_shown(kind, text)}: only a kong can be declared concealed", "input.meld")
    if source is not None and source not in (1, 2, 3):
        raise HandError(f"{_shown(kind, text)}: 'from' must be seat 1, 2 or 3 (relative to the winner), "
                        f"not {excerpt(source)}", "input.meld")
    if concealed and source is not None:
        raise HandError(f"concealed {_shown(kind, text)}: a concealed kong is formed from the player's own tiles, "
                        f"not claimed from seat {source}", "input.meld")
    if concealed and after_knock:
        raise HandError(f"concealed {_shown(kind, text)}: a concealed kong is not claimed, so not claimed after "
                        "knocking", "input.meld")
    return Meld(kind, tiles[0], concealed, source, after_knock)


def parse_meld_text(text: str) -> Meld:
    """A meld written TYPE:TILES[@SEAT][:after_knock]: chow:234m, pung:555p@2, kong:7777s,
    concealed_kong:1z1z1z1z, chow:234m@3:after_knock."""
    after_knock = text.endswith(":after_knock")
    body = text[: -len(":after_knock")] if after_knock else text
    if ":" not in body:
        raise HandError(f"meld {excerpt(text)}: write it as TYPE:TILES[@SEAT], e.g. chow:234m or pung:555p@2",
                        "input.meld")
    kind, tiles = body.split(":", 1)
    source = None
    if "@" in tiles:
        tiles, seat = tiles.rsplit("@", 1)
        if seat not in ("1", "2", "3"):
            raise HandError(f"meld {excerpt(text)}: the seat after @ is 1, 2 or 3", "input.meld")
        source = int(seat)
    return parse_meld(kind, tiles, source=source, after_knock=after_knock)


_EAST: Final = T.WIND_TILES["E"]
_NO_FLAGS: Final = frozenset[str]()


@dataclass(init=False, unsafe_hash=True)
class Hand:
    """A complete winning situation. `concealed` excludes the winning tile. A read-only record, as Meld (equal
    and hashed by its fields; a written-out constructor)."""

    concealed: tuple[int, ...]
    melds: tuple[Meld, ...]
    win_tile: int
    win_by: str
    discarder: int | None
    seat_wind: int
    round_wind: int
    flowers: tuple[int, ...]
    flags: frozenset[str]
    counters: tuple[tuple[str, int], ...]  # integer context, e.g. (("huangfan", 2),)

    def __init__(self, concealed: tuple[int, ...], melds: tuple[Meld, ...], win_tile: int, win_by: str = "self_draw",
                 discarder: int | None = None, seat_wind: int = _EAST, round_wind: int = _EAST,
                 flowers: tuple[int, ...] = (), flags: frozenset[str] = _NO_FLAGS,
                 counters: tuple[tuple[str, int], ...] = ()):
        self.concealed, self.melds, self.win_tile, self.win_by = concealed, melds, win_tile, win_by
        self.discarder, self.seat_wind, self.round_wind = discarder, seat_wind, round_wind
        self.flowers, self.flags, self.counters = flowers, flags, counters

    def counter(self, name: str, default: int = 0) -> int:
        return dict(self.counters).get(name, default)

    @property
    def closed_tiles(self) -> tuple[int, ...]:
        """The concealed tiles with the winning tile, i.e. everything outside the declared melds."""
        return self.concealed + (self.win_tile,)

    @property
    def all_tiles(self) -> tuple[int, ...]:
        out = list(self.closed_tiles)
        for m in self.melds:
            out.extend(m.tiles)
        return tuple(out)

    @property
    def win_tile_name(self) -> str:
        return T.tile_name(self.win_tile)

    @property
    def self_drawn(self) -> bool:
        return self.win_by == "self_draw"

    @property
    def kong_count(self) -> int:
        return sum(1 for m in self.melds if m.kind == "kong")

    @classmethod
    def build(cls, concealed, melds=(), win_tile=None, win_by="self_draw", discarder=None,
              seat_wind="E", round_wind="E", flowers=(), flags=(), known_flags=None, counters=None,
              known_counters=None, dragons_as_flowers=False, declared=(), knock_flag=None) -> "Hand":
        """Check and assemble a hand. Tiles may be given as text in any accepted notation or as ints.
        `declared`: (flag, flowers) of each winning shape declared on flowers (八花齐): a hand with that flag and
        that many flower tiles may hold one tile fewer, 13, as a non-dealer does when it declares during the
        deal (its flowers' replacements drawn, no turn's draw yet). `knock_flag`: the flag the ruleset names for
        the table's fact `knocked` (its table_context; None: it has no knocking), which a meld claimed after
        knocking needs (a hand built without a ruleset knows no knock: such a meld is refused)."""
        held: tuple[int, ...] = _tiles(concealed, "concealed tiles")
        if win_tile is None:
            raise HandError("no winning tile given", "input.win_tile")
        win = _tiles(win_tile, "winning tile")
        if len(win) != 1:
            raise HandError(f"the winning tile must be one tile, got {len(win)}", "input.win_tile")
        winning: int = win[0]
        if win_by not in WIN_BY:
            raise HandError(f"unknown win_by {excerpt(win_by)}: use self_draw, discard or robbing_kong", "input.win_by")
        if win_by == "self_draw":
            if discarder not in (None, 0):
                raise HandError("a self-drawn win has no discarder", "input.discarder")
            discarder = None
        elif type(discarder) is not int or discarder not in (1, 2, 3):  # (not True, 2.0 or "2": a seat's number)
            who = "discarder" if win_by == "discard" else "discarder (the player whose kong was robbed)"
            given = "" if discarder is None else f", not {excerpt(discarder)}"
            raise HandError(f"a {win_by.replace('_', ' ')} win needs a {who}: seat 1, 2 or 3{given}", "input.discarder")
        melds = tuple(melds)
        flower_tiles = _tiles(flowers, "flowers") if not isinstance(flowers, int) else tuple(range(T.FLOWERS.start, T.FLOWERS.start + flowers))
        for t in flower_tiles:
            if not (T.is_flower(t) or (dragons_as_flowers and T.is_dragon(t))):
                extra = " (dragons count as flowers only where the ruleset says so)" if T.is_dragon(t) else ""
                raise HandError(f"{T.tile_name(t)} is not a flower{extra}", "input.flowers")
        in_hand = list(held)
        in_hand.append(winning)
        for m in melds:
            in_hand.extend(m.tiles)
        for t in in_hand:
            if t >= T.NUM_TILE_TYPES or (dragons_as_flowers and T.is_dragon(t)):
                kind = "dragon (a flower in this ruleset)" if T.is_dragon(t) else "flower"
                raise HandError(f"{kind} {T.tile_name(t)} is among the hand's tiles: it goes in 'flowers'", "input.flowers")
        flags = frozenset(flags)
        if flags and known_flags is not None:
            unknown = sorted(f for f in flags if f not in known_flags)
            if unknown:
                raise HandError(f"unknown flag {excerpt(unknown[0])}; this ruleset knows: "
                                f"{', '.join(sorted(known_flags)) or 'none'}", "input.flags")
        counters = dict(counters or {})
        for name, value in counters.items():
            if known_counters is not None and name not in known_counters:
                known = ", ".join(sorted(known_counters)) or "none"
                raise HandError(f"unknown counter {excerpt(name)}; this ruleset knows: {known}", "input.counters")
            if isinstance(value, bool) or not isinstance(value, int):
                raise HandError(f"counter {excerpt(name)} must be a whole number, not {excerpt(value)}",
                                "input.counters")
            low, high, rule = known_counters[name] if known_counters is not None else (0, None, "input.counters")
            if value < low or (high is not None and value > high):
                shown = value if -10**12 < value < 10**12 else excerpt(value, 20)
                within = f"{low} to {high}" if high is not None else f"{low} or more"
                raise HandError(f"counter {name!r} is {shown}; it takes {within}", rule)
        for m in melds:
            if m.after_knock and known_flags is not None and (knock_flag is None or knock_flag not in known_flags):
                raise HandError(f"the {m.text()} is marked as claimed after knocking, but this ruleset has no "
                                f"knocking", "input.meld")
            if m.after_knock and (knock_flag is None or knock_flag not in flags):
                raise HandError(f"the {m.text()} is marked as claimed after knocking, but the hand has not "
                                f"knocked (flag {knock_flag})", "input.meld")
        hand = Hand(tuple(sorted(held)), melds, winning, win_by, discarder,
                   _wind(seat_wind, "seat wind"), _wind(round_wind, "round wind"), tuple(T.sort_tiles(flower_tiles)), flags,
                   tuple(sorted(counters.items())))
        hand._check_counts(in_hand, declared)
        if win_by == "robbing_kong" and hand.all_tiles.count(winning) > 1:
            raise HandError(f"a robbed kong's tile {T.tile_name(winning)} has its other three copies in the "
                            f"konger's pung: the winner cannot hold another copy", "input.win_tile")
        return hand

    def _check_counts(self, all_tiles: list[int], declared: tuple[tuple[str, int], ...] = ()) -> None:
        """Rules tiles.hand_size and tiles.four_copies; `all_tiles` are the hand's tiles (all_tiles, in any order).
        A hand declared on its flowers may hold one tile fewer (a non-dealer during the deal), or two (one declaring
        before the last flower's replacement: procedure.flower_exposure.declared_win, before_replacement)."""
        n_closed = len(self.closed_tiles)
        expected = 14 - 3 * len(self.melds)
        if expected - 2 <= n_closed < expected and self.win_by == "self_draw" and self._declared_on_flowers(declared):
            expected = n_closed
        if n_closed != expected:
            meld_tiles = sum(len(m.tiles) for m in self.melds)
            raise HandError(
                f"a hand has 14 tiles plus one per kong; this one has {n_closed + meld_tiles} "
                f"({len(self.concealed)} concealed + 1 winning + {meld_tiles} in {len(self.melds)} meld(s), "
                f"{self.kong_count} kong(s)): with {len(self.melds)} meld(s) the concealed part needs "
                f"{expected - 1} tiles plus the winning tile", "tiles.hand_size")
        if _copies_allowed(all_tiles, self.flowers):  # the tiles module words a refusal
            return
        try:
            T.check_no_fifth_copy(self.all_tiles + self.flowers)
        except T.TileError as exc:
            raise HandError(str(exc), "tiles.four_copies") from None

    def _declared_on_flowers(self, declared: tuple[tuple[str, int], ...]) -> bool:
        """Whether the hand carries a declared-flowers shape's flag with that many flower tiles (八花齐)."""
        held = len([f for f in self.flowers if T.is_flower(f)])
        for flag, flowers in declared:
            if flag in self.flags and held >= flowers:
                return True
        return False


def _copies_allowed(tiles: list[int], flowers: tuple[int, ...]) -> bool:
    """Whether no tile occurs more than four times and no flower twice (rule tiles.four_copies)."""
    counts = [0] * T.NUM_TILES_WITH_FLOWERS
    for group in (tiles, flowers):
        for t in group:
            c = counts[t] + 1
            if c > 4 or (c > 1 and t >= T.NUM_TILE_TYPES):
                return False
            counts[t] = c
    return True


def _tiles(value, what: str) -> tuple[int, ...]:
    """Tiles given as text in any accepted notation, as a tile id or as ids; HandError naming the field."""
    if not isinstance(value, str):
        given = (value,) if isinstance(value, int) else tuple(value)
        try:
            return tuple(T.sort_tiles(given))  # checked as tiles (bools and ids out of range refused); order unused
        except T.TileError as exc:
            raise HandError(f"{what}: {exc}", "input.tile") from None
    if len(value) > MAX_TILE_TEXT:
        raise HandError(f"{what}: {len(value):,} characters; a tile field is limited to {MAX_TILE_TEXT}",
                        "input.tile")
    try:
        return tuple(T.parse_tiles(value))
    except T.TileError as exc:
        raise HandError(f"{what}: {exc}", "input.tile") from None


def _wind(value, what: str) -> int:
    if isinstance(value, int) and T.is_wind(value):
        return value
    try:
        return T.parse_wind(str(value))
    except T.TileError as exc:
        raise HandError(f"{what}: {exc}", "input.wind") from None
