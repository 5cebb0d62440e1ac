"""Short hands of play built around a situation bots seldom reach: a passed winning tile that comes again (漏胡).

A scenario fixes the order of play; Hypothesis draws the waiting player's hand (a winning hand of the ruleset
less its winning tile) and the walls are built with `arrange_wall`, so each log is a dozen events. The readings
of 漏胡 (lou_hu_later_copy: is the later copy blocked from any seat or only from the other seats;
lou_hu_own_draw_win: may the draw that lifts the block be won on) then judge the log, and the smallest log they
judge differently is an `ambiguity` finding.

Seats: 0 deals (D), 1 is the waiting player (A), 2 its next player (B), 3 across from it (C).
- `again_from_the_same_seat`: A knocks waiting on t; B discards t and A lets it go; C and D play; D discards x,
  which B pungs; B discards t again; A declares the win on it.
- `drawn_by_the_waiting_player`: A knocks waiting on t; B discards t and A lets it go; C and D play; A draws
  t and declares the win on it.
- `two_win_on_one_discard` (一炮多响): A and C knock, both waiting on t (C on a bare t beside four pungs of
  winds or suit tiles A does not hold); D discards t and both win: who deals next (multiple_win_dealer) is the question.
- `forgone_then_won` (forgo-then-reclaim): A holds a pair of t and lets B's t go; C discards u and A pungs it,
  then knocks with its discard, waiting on t; C discards t again before A has drawn, and A declares the win:
  does the forgone tile block the win too (forgo_blocks_win)?
- `eight_flowers_at_the_deal` (八花齐): A is dealt all eight flowers and five of the hand's tiles, exposes the
  flowers during the deal, draws the hand's other eight tiles as their replacements and declares the win at
  once, out of turn: may it (eight_flowers_at_deal)?
"""
from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Mapping, Sequence

from hypothesis import assume
from hypothesis import strategies as st

from checker import tiles as T
from checker.hunt.findings import Finding
from checker.hunt.options import _search
from checker.hunt.procedure import judged
from checker.spec import Ruleset, value_key
from checker.spec.procedure import deciding_option
from checker.table.log import GAME, VERSION
from checker.table.wall import WallError, arrange_wall



@dataclass(frozen=True)
class SceneField:
    """The procedure field whose readings a scene parts (`entry/key`) and the other procedure entries it plays
    (what its corpus cases cover beside the entry)."""

    entry: str
    key: str
    also_plays: tuple[str, ...] = ()

    def rules(self) -> set[str]:
        return {f"procedure.{e}" for e in (self.entry, *self.also_plays)}


# each scene by the procedure field it is about, whichever option decides that field in a ruleset
SCENES: Mapping[str, SceneField] = MappingProxyType({
    "again_from_the_same_seat": SceneField("lou_hu", "later_copy_from"),
    "drawn_by_the_waiting_player": SceneField("lou_hu", "own_draw_win"),
    "two_win_on_one_discard": SceneField("dealer", "after_multiple_win", ("multiple_winners",)),
    "forgone_then_won": SceneField("forgo_then_reclaim", "blocks_win", ("knock",)),
    "passed_after_the_knock": SceneField("knock", "missed_win"),
    "eight_flowers_at_the_deal": SceneField("flower_exposure", "declared_win"),
})


def scene_options(ruleset: Ruleset) -> dict[str, str]:
    """Each scene whose field an option of `ruleset` decides, with that option (checker.spec.procedure)."""
    out = {}
    for scenario, where in SCENES.items():
        oid = deciding_option(ruleset, where.entry, where.key)
        if oid is not None and oid in ruleset.options:
            out[scenario] = oid
    return out


def _plain(data: Mapping[str, Any]) -> bool:
    return not data.get("melds") and not data.get("flowers")


def build(ruleset_id: str, scenario: str, data: Mapping[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
    """The header and events of `scenario` with seat 1 waiting on `data`'s winning tile (its concealed tiles
    the hand); None when the tiles do not allow it (too many copies of the tiles the other seats need)."""
    if scenario == "forgone_then_won":
        return _forgone_then_won(ruleset_id, data)
    if scenario == "passed_after_the_knock":
        return _passed_after_the_knock(ruleset_id, data)
    if scenario == "eight_flowers_at_the_deal":
        return _eight_flowers_at_the_deal(ruleset_id, data)
    hand = list(T.parse_tiles(data["concealed"]))
    t = T.parse_tile(data["win_tile"])
    counts = [hand.count(x) for x in range(T.NUM_TILE_TYPES)]
    if len(hand) != 13:
        return None
    # x: the tile D discards and B pungs (again_from_the_same_seat); filler tiles: never t, x or A's tiles
    x = next((k for k in T.SUITED if counts[k] == 0 and k != t), None)
    if x is None:
        return None
    spare = [k for k in T.SUITED if k not in (t, x) and counts[k] == 0]
    plain = [k for k in spare for _ in range(4)]
    if scenario == "two_win_on_one_discard":
        # winds, never dragons: they are flowers where a ruleset says so, and the scene is judged under others too
        honours = [k for k in T.WINDS if counts[k] == 0 and k != t]
        suits = [k for k in T.SUITED if counts[k] == 0 and k != t]
        pungs = (honours + suits)[:4]
        if len(pungs) < 4 or hand.count(t) > 2:
            return None
        c_hand = [k for k in pungs for _ in range(3)] + [t]
        plain = [k for k in plain if k not in pungs]
        b_hand, plain = plain[:13], plain[13:]
        d_hand, plain = [t] + plain[:13], plain[13:]
        draws = [plain[0], plain[1], plain[2], plain[3]]  # A, B, C, D
        events = [("0 discard", d_hand[1]), ("1 draw", draws[0]), ("1 knock", None), ("1 discard", draws[0]),
                  ("2 draw", draws[1]), ("2 discard", draws[1]), ("3 draw", draws[2]), ("3 knock", None),
                  ("3 discard", draws[2]), ("0 draw", draws[3]), ("0 discard", t), ("1 win", t), ("3 win", t)]
        return _log(ruleset_id, {0: d_hand, 1: hand, 2: b_hand, 3: c_hand}, draws, events)
    if scenario == "again_from_the_same_seat":
        b_hand = [t, t, x, x] + plain[:9]
        plain = plain[9:]
        d_hand = [x] + plain[:13]
        plain = plain[13:]
        draws = [plain[0], plain[1], plain[2], plain[3], plain[4]]  # A, B, C, D, and spare
        events = [("0 discard", d_hand[1]), ("1 draw", draws[0]), ("1 knock", None), ("1 discard", draws[0]),
                  ("2 draw", draws[1]), ("2 discard", t), ("3 draw", draws[2]), ("3 discard", draws[2]),
                  ("0 draw", draws[3]), ("0 discard", x), ("2 pung", None), ("2 discard", t), ("1 win", t)]
        front = draws[:4]
    else:
        b_hand = [t] + plain[:12]
        plain = plain[12:]
        d_hand = plain[:14]
        plain = plain[14:]
        draws = [plain[0], plain[1], plain[2], plain[3], t]
        events = [("0 discard", d_hand[0]), ("1 draw", draws[0]), ("1 knock", None), ("1 discard", draws[0]),
                  ("2 draw", draws[1]), ("2 discard", t), ("3 draw", draws[2]), ("3 discard", draws[2]),
                  ("0 draw", draws[3]), ("0 discard", draws[3]), ("1 draw", t), ("1 win", t)]
        front = draws
    return _log(ruleset_id, {0: d_hand, 1: hand, 2: b_hand}, front, events)


def _forgone_then_won(ruleset_id: str, data: Mapping[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
    """The forgone_then_won scene from a winning hand with one exposed pung (u) whose concealed tiles hold a
    pair of the winning tile t: A is dealt those concealed tiles, a pair of u and one tile j to knock with."""
    melds = data.get("melds") or []
    hand = list(T.parse_tiles(data["concealed"]))
    t = T.parse_tile(data["win_tile"])
    if len(melds) != 1 or melds[0]["type"] != "pung" or melds[0].get("concealed") or hand.count(t) != 2:
        return None
    u = T.parse_tiles(melds[0]["tiles"])[0]
    counts = [hand.count(x) for x in range(T.NUM_TILE_TYPES)]
    junk = [k for k in T.SUITED if counts[k] == 0 and k not in (t, u)]
    if not junk:
        return None
    j = junk[0]
    a_hand = hand + [u, u, j]
    spare = [k for k in T.SUITED if counts[k] == 0 and k not in (t, u, j)]
    plain = [k for k in spare for _ in range(4)]
    b_hand, plain = [t] + plain[:12], plain[12:]
    c_hand, plain = [u] + plain[:12], plain[12:]
    d_hand, plain = plain[:14], plain[14:]
    draws = [plain[0], plain[1], plain[2], plain[3], t]  # A, B, C, then B, C
    events = [("0 discard", d_hand[0]), ("1 draw", draws[0]), ("1 discard", draws[0]), ("2 draw", draws[1]),
              ("2 discard", t), ("3 draw", draws[2]), ("3 discard", u), ("1 pung", None), ("1 knock", None),
              ("1 discard", j), ("2 draw", draws[3]), ("2 discard", draws[3]), ("3 draw", t), ("3 discard", t),
              ("1 win", t)]
    return _log(ruleset_id, {0: d_hand, 1: a_hand, 2: b_hand, 3: c_hand}, draws, events)


def _passed_after_the_knock(ruleset_id: str, data: Mapping[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
    """A knocks waiting on t and lets B's t go; C, holding four pungs and a single w, knocks, and later draws w
    and wins. Whether the pass itself breaks the knock or only leaves A dead is the question (knock_missed_win).
    Only suit tiles and winds are used beside A's hand (the dragons are flowers in some rulesets)."""
    hand = list(T.parse_tiles(data["concealed"]))
    t = T.parse_tile(data["win_tile"])
    if len(hand) != 13:
        return None
    free = [k for k in [*T.SUITED, *T.WINDS] if k != t and hand.count(k) == 0]
    if len(free) < 5:
        return None
    pungs, w = free[:4], free[4]
    c_hand = [k for k in pungs for _ in range(3)] + [w]
    spare = [k for k in T.SUITED if k not in (t, w, *pungs) and hand.count(k) == 0]
    plain = [k for k in spare for _ in range(4)]
    b_hand, plain = [t] + plain[:12], plain[12:]
    d_hand, plain = plain[:14], plain[14:]
    draws = plain[:6] + [w]  # A, B, C, D, A, B, then C's winning tile
    if len(draws) < 7:
        return None
    events = [("0 discard", d_hand[0]), ("1 draw", draws[0]), ("1 knock", None), ("1 discard", draws[0]),
              ("2 draw", draws[1]), ("2 discard", t), ("3 draw", draws[2]), ("3 knock", None),
              ("3 discard", draws[2]), ("0 draw", draws[3]), ("0 discard", draws[3]), ("1 draw", draws[4]),
              ("1 discard", draws[4]), ("2 draw", draws[5]), ("2 discard", draws[5]), ("3 draw", w), ("3 win", w)]
    return _log(ruleset_id, {0: d_hand, 1: hand, 2: b_hand, 3: c_hand}, draws, events)


def _eight_flowers_at_the_deal(ruleset_id: str, data: Mapping[str, Any]
                               ) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
    """A is dealt the eight flowers and the hand's first five tiles, draws its other eight as the flowers'
    replacements (from the back of the wall) and declares the win at once."""
    hand = list(T.parse_tiles(data["concealed"]))
    if len(hand) != 13:
        return None
    flowers = list(T.FLOWERS)
    events: list[tuple[str, int | None]] = []
    for flower in flowers:
        events += [("1 flower", flower), ("1 draw", None)]
    events.append(("1 win", None))
    return _log(ruleset_id, {1: flowers + hand[:5]}, [], events, back=hand[5:])


def _log(ruleset_id: str, hands: dict[int, list[int]], draws: list[int], events: list[tuple[str, int | None]],
         back: Sequence[int] = ()) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
    """The scene's header (a wall dealing `hands` and giving `draws` from its front, `back` from its back) and
    events (a draw after a flower is from the back); None when the tiles asked for are not among the 144 (more
    copies than there are)."""
    try:
        wall = arrange_wall({seat: T.format_tiles(tiles) for seat, tiles in hands.items()}, draws=T.format_tiles(draws),
                            replacements=T.format_tiles(back))
    except WallError:
        return None
    header = {"game": GAME, "version": VERSION, "ruleset": ruleset_id, "wall": T.format_tiles(wall), "dealer": 0}
    out = []
    after_flower = False
    for said, tile in events:
        seat, kind = said.split()
        e: dict[str, Any] = {"event": kind, "seat": int(seat)}
        if tile is not None and kind != "draw":
            e["tile"] = T.tile_name(tile)
        if kind == "draw" and after_flower:
            e["from"] = "back"
        after_flower = kind == "flower"
        out.append(e)
    return header, out


SCENE_WORDS = {"forgone_then_won": "a player lets a tile go, claims another, knocks, and the tile comes again",
               "again_from_the_same_seat": "a passed winning tile comes again from the seat that discarded it",
               "drawn_by_the_waiting_player": "a passed winning tile is drawn by the player who passed it",
               "two_win_on_one_discard": "two players win on one discard (一炮多响)",
               "passed_after_the_knock": "a player who has knocked lets a winning discard go, and another player wins later",
               "eight_flowers_at_the_deal": "a player completes all eight flowers during the deal and declares the win at once"}


def hunt_scenario(ruleset: Ruleset, scenario: str, strategy: Any, examples: int, seed: int) -> Finding | None:
    option_id = scene_options(ruleset).get(scenario)
    if option_id is None:  # the ruleset fixes the field (or has no such rule): no readings to part
        return None
    option = ruleset.options[option_id]
    other = option.other_values()[0]

    def parts(data: Mapping[str, Any]) -> bool:
        built = build(ruleset.id, scenario, data)
        if built is None:
            return False
        header, events = built
        a = judged({**header, "options": {option_id: option.default}}, events)
        b = judged({**header, "options": {option_id: other}}, events)
        if "legal" not in (a["verdict"], b["verdict"]):
            return False  # the scene itself failed (a hand that may not win, a knock that cannot be made)
        return (a["verdict"], a.get("rule"), a.get("payments"), a.get("next_dealer")) != \
            (b["verdict"], b.get("rule"), b.get("payments"), b.get("next_dealer"))

    witness = _search(strategy, parts, examples, seed)
    if witness is None:
        return None
    built = build(ruleset.id, scenario, witness)
    assert built is not None
    header, events = built
    a = judged({**header, "options": {option_id: option.default}}, events)
    b = judged({**header, "options": {option_id: other}}, events)
    d_key, v_key = value_key(option.default), value_key(other)
    rules = sorted({x["rule"] for x in (a, b) if x["verdict"] == "illegal"})
    deal = {k: v for k, v in header.items() if k not in ("game", "version", "ruleset")}
    return Finding(
        ruleset=ruleset.id, kind="ambiguity", key=f"option.{option_id}={v_key}",
        title=f"{option_id}: {SCENE_WORDS[scenario]}; the readings judge the hand differently, in {len(events)} "
              f"events",
        rules=[f"option.{option_id}", f"procedure.{SCENES[scenario].entry}"] + [r for r in rules if r.startswith("option.")
                                                                 and r != f"option.{option_id}"],
        witness={"ruleset": ruleset.id, "options": {option_id: other}, "kind": "procedure",
                 "input": {**deal, "events": events}},
        outcomes=[{"reading": f"{option_id}={d_key}", "means": option.readings.get(d_key, ""), "result": a},
                  {"reading": f"{option_id}={v_key}", "means": option.readings.get(v_key, ""), "result": b}],
        method="hypothesis", deciding_option=option_id,
        note=option.note.strip() + f" The waiting hand was drawn by Hypothesis and shrunk; the rest of the scene "
                                   f"({SCENE_WORDS[scenario]}) is the scenario's.")


@st.composite
def _shanpon_with_a_pung(draw: Any, knocked: str | None) -> dict[str, Any]:
    """Hands of two sets (each a chow or a pung), an exposed pung u and two pairs t and v (waiting on t or v): the
    forgone_then_won scene's waiting player (it pungs u in the scene), knocked where the ruleset knocks (`knocked`:
    its flag for the table's knock). Suit tiles only; shrinks towards low tiles and chows."""
    suited = st.integers(0, 26)
    t, u, v = draw(suited), draw(suited), draw(suited)
    low = st.integers(0, 26).filter(lambda k: k % 9 <= 6)
    tiles = [t, t, v, v]
    for _ in range(2):
        if draw(st.booleans()):  # a pung: every set a pung makes the all-pungs hand (碰碰胡) classic lets win
            k = draw(suited)
            tiles += [k, k, k]
        else:
            c = draw(low)
            tiles += [c, c + 1, c + 2]
    counts = [tiles.count(k) + (3 if k == u else 0) + (1 if k == t else 0) for k in range(T.NUM_TILE_TYPES)]
    assume(len({t, u, v}) == 3 and max(counts) <= 4)
    return {"concealed": T.format_tiles(sorted(tiles)), "melds": [{"type": "pung", "tiles": T.format_tiles([u] * 3),
                                                                   "from": 2}],
            "win_tile": T.tile_name(t), "win_by": "discard", "discarder": 2, "seat_wind": "E", "round_wind": "E",
            "flowers": "", "flags": {knocked: True} if knocked else {}, "counters": {}}


def waiting_hands(ruleset_id: str, scenario: str = "") -> Any:
    """Winning hands of the ruleset whose tiles make the waiting hand of a scene: no melds and no flowers, or
    for forgone_then_won one exposed pung (the scene's claim)."""
    from checker.hunt.strategies import regular_inputs

    if scenario == "forgone_then_won":
        from checker.engine import load_ruleset
        from checker.spec.roles import roles

        return _shanpon_with_a_pung(roles(load_ruleset(ruleset_id)).knocked)
    return regular_inputs(ruleset_id, max_melds=0).filter(_plain)

