"""Procedure mutants: one-step departures from a ruleset's table procedure (the spec's `procedure:` section).

Each is a `Mutation` whose `edit` makes a new frozen Ruleset with one rule of play changed, as an engine that
plays hands otherwise would play them (the table, `checker.table`, binds the edited spec exactly as it binds the
shipped one: there is no second table). Only what the spec gives is mutated, and only the fields the table reads
(the schema's `x-read-by`); a field an option decides is fixed to each value that option can give it (an engine
that does not read the option). The families, in the order they are listed (each in the spec's order):

- `procedure: claim seats`: a chow claimed from any player (`claims.chow_from` / `chow_from`, set together);
- `procedure: claim priority`: two neighbours of the claim priority swapped (`claims.priority` /
  `claim_priority`);
- `procedure: multiple winners`: one discard paying every winner, or only the nearest (`multiple_winners`);
- `procedure: robbing the kong`: which kongs may be robbed, an added kong only or any kong that exposes a tile
  (`robbing_only_added_kongs` and `robbing_kong.any_kong_exposing_a_tile`, set together);
- `procedure: 漏胡`: a move left out of what lifts it (`lou_hu.lifted_by`), its scope (`later_copy_from`,
  `own_draw_win`), the rule left out;
- `procedure: forgo then reclaim`, `procedure: swap calling`: each field, the rule left out;
- `procedure: knock`: each obligation and the lock (`knock.required_to_win`, `locks_hand`,
  `must_take_first_win`, `missed_win`, `wait`, `checked_at`);
- `procedure: mandatory kong`: the compulsion, whether a self-drawn win comes first, whether it may be robbed;
- `procedure: flowers at the deal`, `procedure: tile swap`: each field (`flower_exposure`, `tile_swap.tiles`);
- `procedure: wall end`: the tiles kept back as a dead wall (`wall_end.dead_wall_tiles`, `dead_wall` set to agree);
- `procedure: dealer rotation`: who deals next (`dealer`, `dealer_rotation`);
- `procedure: 荒番 count`: the count the next hand carries (`huangfan_count`);
- `procedure: contract calls`: each number of the settlement's 承包 and 包 that the table reads rather than the
  scorer (the schema's `x-read-by: checker.spec.procedure`: how many calls between two seats make a contract), at its
  one-step values (the scoring catalogue leaves these out: no score case can see them);
- `procedure: option default`: each option the table reads (`table_options`; by default those marked
  `read_by: table`), defaulted to each of its other values.

A true/false field is flipped; a word is set to each other word the schema allows; a whole number takes
`catalog.number_steps` (a negative one: one more, one less, twice, none); a list loses one item at a time. Every
id starts `procedure:` (`procedure:lou_hu.lifted_by=chow+kong+draw`, `procedure:default:dead_wall_tiles=14`), so
it never meets a scoring mutant's id. Binding an edited spec (the schema, the table under every reading, the
scorer) and telling whether a procedure case can see the change are `checker.corpus.procedure_strength`'s.
"""
from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType
from typing import Any, Iterable, Mapping, Sequence

from checker.mutate import edits
from checker.mutate.catalog import number_steps, read_by_table
from checker.mutate.mutation import Mutation
from checker.spec import Ruleset, schema, value_key

PREFIX = "procedure:"
CLAIM_SEATS = "procedure: claim seats"
CLAIM_PRIORITY = "procedure: claim priority"
MULTIPLE_WINNERS = "procedure: multiple winners"
ROBBING = "procedure: robbing the kong"
LOU_HU = "procedure: 漏胡"
FORGO = "procedure: forgo then reclaim"
KNOCK = "procedure: knock"
MANDATORY_KONG = "procedure: mandatory kong"
SWAP_CALLING = "procedure: swap calling"
FLOWERS = "procedure: flowers at the deal"
TILE_SWAP = "procedure: tile swap"
WALL_END = "procedure: wall end"
DEALER = "procedure: dealer rotation"
HUANGFAN = "procedure: 荒番 count"
CONTRACT_CALLS = "procedure: contract calls"
OPTION_DEFAULT = "procedure: option default"
FAMILIES = (CLAIM_SEATS, CLAIM_PRIORITY, MULTIPLE_WINNERS, ROBBING, LOU_HU, FORGO, KNOCK, MANDATORY_KONG,
            SWAP_CALLING, FLOWERS, TILE_SWAP, WALL_END, DEALER, HUANGFAN, CONTRACT_CALLS, OPTION_DEFAULT)

# entries whose every table-read field is mutated alike (the coupled entries, claims, robbing and the wall's end,
# have constructors of their own), and the family each falls in
FIELD_ENTRIES = {"multiple_winners": MULTIPLE_WINNERS, "lou_hu": LOU_HU, "forgo_then_reclaim": FORGO,
                 "knock": KNOCK, "mandatory_kong": MANDATORY_KONG, "swap_calling": SWAP_CALLING,
                 "flower_exposure": FLOWERS, "tile_swap": TILE_SWAP, "dealer": DEALER, "dealer_rotation": DEALER,
                 "huangfan_count": HUANGFAN}
DROPPABLE = ("lou_hu", "forgo_then_reclaim", "swap_calling")  # rules an engine may leave out whole
# what each field says, for a mutant's words
FIELD_WORDS = {
    "multiple_winners": "who is paid when several players win on one discard",
    "lou_hu.lifted_by": "the moves that lift a 漏胡 block",
    "lou_hu.later_copy_from": "whose later copies of a passed tile 漏胡 blocks",
    "lou_hu.own_draw_win": "whether a 漏胡-blocked player may win on its own draw of the tile",
    "forgo_then_reclaim.blocks": "the claims a forgone tile may not be taken with",
    "forgo_then_reclaim.blocks_win": "whether a forgone tile may not be won on either",
    "knock.required_to_win": "a hand knocks before it wins",
    "knock.locks_hand": "a knocked hand is locked",
    "knock.must_take_first_win": "a knocked player takes the first win it can",
    "knock.missed_win": "what befalls a knocked player who lets a win go",
    "knock.wait": "what a knock's discard must leave the hand waiting on",
    "knock.checked_at": "where a knock no discard can leave ready is refused: the knock itself, or its discard",
    "mandatory_kong.after_knock": "a knocked player extends its pung when it holds the fourth tile",
    "mandatory_kong.unless_self_draw_win": "a self-drawn win comes before the compulsory kong",
    "mandatory_kong.robbable": "the compulsory kong may be robbed",
    "swap_calling.no_discard_of_claimed_tile": "the tile just claimed may not be discarded at once",
    "swap_calling.no_discard_of_chow_other_end": "the other end of the chow just claimed may not be discarded at once",
    "flower_exposure.at_deal": "flowers are exposed and replaced at the deal",
    "flower_exposure.dragons_too": "dragons are exposed as flowers",
    "tile_swap.tiles": "the tiles a 换牌 swap buries and takes",
    "dealer.winner_deals": "the winner deals next",
    "dealer.on_draw": "who deals after a drawn hand",
    "dealer.after_multiple_win": "who deals after several winners on one discard",
    "dealer_rotation.rotates_each_hand": "the deal passes every hand",
    "dealer_rotation.draws_count": "a drawn hand passes the deal and counts toward the round wind",
    "dealer_rotation.round_wind_every": "hands per round wind",
    "huangfan_count.on_draw": "荒番 added after a drawn hand",
    "huangfan_count.on_win": "荒番 added after a win",
}

DROP = object()  # an entry left out of the procedure
Change = tuple[str, "str | None", Any]  # (entry, field or None for the whole entry, new value; DROP: no entry)
ADDABLE = frozenset({"robbing_kong"})  # entries a coupled edit may give a field the spec leaves out


def is_procedure(mutation: Mutation) -> bool:
    """Whether a mutant is one of the table procedure's (its id says so)."""
    return mutation.id.startswith(PREFIX)


def _executed(raw: Any) -> bool:
    return raw is not None and not (isinstance(raw, Mapping) and "not_executed" in raw)


def _option_named(raw: Any) -> bool:
    return isinstance(raw, Mapping) and "option" in raw and set(raw) <= {"option", "map"}


def _shown(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return "+".join(value_key(v) for v in value) if value else "nothing"
    return value_key(value)


def _apply(ruleset: Ruleset, changes: Sequence[Change]) -> Ruleset:
    """The ruleset with its procedure changed (each entry changed is copied, never the loaded one changed);
    KeyError when an entry or field to change is not there (the mutant was made for another spec)."""
    proc = dict(ruleset.procedure)
    for entry, key, value in changes:
        if key is None:
            if value is DROP:
                del proc[entry]  # (KeyError when absent)
            else:
                proc[entry] = value
            continue
        current = proc.get(entry)
        if not isinstance(current, Mapping) or (key not in current and entry not in ADDABLE):
            raise KeyError(f"{entry}/{key}")
        proc[entry] = {**current, key: value}
    return replace(ruleset, procedure=MappingProxyType(proc))


def _mutation(ruleset_id: str, name: str, family: str, words: str, rules: Iterable[str],
              changes: Sequence[Change]) -> Mutation:
    frozen = tuple(changes)

    def edit(ruleset: Ruleset) -> Ruleset:
        return _apply(ruleset, frozen)

    return Mutation(PREFIX + name, family, ruleset_id, words, tuple(dict.fromkeys(rules)), edit)


def field_schema(entry: str, key: str | None) -> Mapping[str, Any]:
    props = schema("ruleset")["properties"]["procedure"]["properties"].get(entry, {})
    if key is None:
        return props
    return props.get("properties", {}).get(key, {})


def words_allowed(declared: Mapping[str, Any]) -> list[Any]:
    """The words a field's schema allows (its `enum`, or the enum of one of its `anyOf` branches)."""
    if "enum" in declared:
        return list(declared["enum"])
    for branch in declared.get("anyOf", ()):
        if "enum" in branch:
            return list(branch["enum"])
    return []


def whole_steps(value: int) -> list[int]:
    """A whole number's one-step values: `number_steps` for 0 and more; for a negative one (a count that falls),
    one more, one less, twice as much and none."""
    if value >= 0:
        return number_steps(value)
    return [v for v in dict.fromkeys([value + 1, value - 1, value * 2, 0]) if v != value]


def _option_values(ruleset: Ruleset, raw: Mapping[str, Any]) -> list[Any]:
    """The plain values an option-named field can take: the option's values, or the distinct values its map gives."""
    option = ruleset.options.get(raw["option"])
    if "map" not in raw:
        return list(option.values) if option is not None else []
    found: list[Any] = []
    for v in raw["map"].values():
        if not _option_named(v) and not any(v == f and type(v) is type(f) for f in found):
            found.append(v)
    return found


def _field_values(ruleset: Ruleset, entry: str, key: str | None, raw: Any) -> list[tuple[Any, str]]:
    """Each one-step value of a field (or a whole entry given as a value), with a note for its words."""
    declared = field_schema(entry, key)
    if _option_named(raw):
        return [(v, f" whatever option {raw['option']} says") for v in _option_values(ruleset, raw)]
    if isinstance(raw, bool):
        return [(not raw, "")]
    if isinstance(raw, int):
        return [(v, "") for v in whole_steps(raw)]
    if isinstance(raw, str):
        return [(w, "") for w in words_allowed(declared) if w != raw]
    if isinstance(raw, (list, tuple)):
        items = list(raw)
        return [(items[:i] + items[i + 1:], f" ({items[i]} left out)") for i in range(len(items))]
    return []


def _was(raw: Any) -> str:
    return f"option {raw['option']}'s reading" if _option_named(raw) else _shown(raw)


def _fields(ruleset: Ruleset) -> list[Mutation]:
    """Every table-read field of the entries mutated alike, each at each of its one-step values."""
    rid, out = ruleset.id, []
    for entry, raw in ruleset.procedure.items():
        family = FIELD_ENTRIES.get(entry)
        if family is None or not _executed(raw):
            continue
        if isinstance(raw, Mapping) and not _option_named(raw):
            fields: list[tuple[str | None, Any]] = [(k, v) for k, v in raw.items()
                                                     if "x-read-by" in field_schema(entry, k)]
        else:
            fields = [(None, raw)] if "x-read-by" in field_schema(entry, None) else []
        for key, value in fields:
            where = entry if key is None else f"{entry}.{key}"
            rules = [f"procedure.{entry}"] + ([f"option.{value['option']}"] if _option_named(value) else [])
            what = FIELD_WORDS.get(where, where.replace("_", " "))
            for new, note in _field_values(ruleset, entry, key, value):
                out.append(_mutation(rid, f"{where}={_shown(new)}", family,
                                     f"{where} ({what}) is {_shown(new)}{note} (the spec: {_was(value)})", rules,
                                     [(entry, key, new)]))
        if entry in DROPPABLE:
            out.append(_mutation(rid, f"{entry}=absent", family,
                                 f"the table plays no {entry} rule (the spec's procedure.{entry} left out)",
                                 [f"procedure.{entry}"], [(entry, None, DROP)]))
    return out


def _claim_seats(ruleset: Ruleset) -> list[Mutation]:
    """A chow claimed from any player (or, where the spec lets any player chow, only from the one before)."""
    proc = ruleset.procedure
    claims = proc.get("claims")
    places: list[tuple[str, str | None]] = []
    if isinstance(claims, Mapping) and _executed(claims) and "chow_from" in claims:
        places.append(("claims", "chow_from"))
    if _executed(proc.get("chow_from")):
        places.append(("chow_from", None))
    if not places:
        return []
    current = proc[places[0][0]] if places[0][1] is None else proc[places[0][0]][places[0][1]]
    new = "any" if current != "any" else "previous_player"
    words = ("a chow may be claimed from any player's discard" if new == "any" else
             "a chow is claimed only from the previous player's discard") + f" (the spec: {current})"
    return [_mutation(ruleset.id, f"claims.chow_from={new}", CLAIM_SEATS, words,
                      [f"procedure.{entry}" for entry, _ in places], [(e, k, new) for e, k in places])]


def _claim_priority(ruleset: Ruleset) -> list[Mutation]:
    """Each two neighbours of the claim priority swapped."""
    proc = ruleset.procedure
    claims = proc.get("claims")
    places: list[tuple[str, str | None]] = []
    if isinstance(claims, Mapping) and _executed(claims) and claims.get("priority"):
        places.append(("claims", "priority"))
    if _executed(proc.get("claim_priority")) and proc.get("claim_priority"):
        places.append(("claim_priority", None))
    if not places:
        return []
    first = places[0]
    order = list(proc[first[0]] if first[1] is None else proc[first[0]][first[1]])
    out = []
    for i in range(len(order) - 1):
        new = order[:i] + [order[i + 1], order[i]] + order[i + 2:]
        out.append(_mutation(ruleset.id, f"claims.priority={'>'.join(new)}", CLAIM_PRIORITY,
                             f"claims rank {' > '.join(new)} (the spec: {' > '.join(order)})",
                             [f"procedure.{entry}" for entry, _ in places], [(e, k, list(new)) for e, k in places]))
    return out


def _robbing(ruleset: Ruleset) -> list[Mutation]:
    """The other answer to which kongs may be robbed: any kong that exposes a tile (one claimed from a discard
    too), or an added kong only."""
    proc = ruleset.procedure
    robbing, only_added = proc.get("robbing_kong"), proc.get("robbing_only_added_kongs")
    given_robbing = isinstance(robbing, Mapping) and _executed(robbing)
    if not given_robbing and not _executed(only_added):
        return []
    exposing = given_robbing and isinstance(robbing, Mapping) and bool(robbing.get("any_kong_exposing_a_tile"))
    changes: list[Change] = [("robbing_kong", "any_kong_exposing_a_tile", not exposing) if given_robbing else
                             ("robbing_kong", None, {"any_kong_exposing_a_tile": True})]
    if _executed(only_added):
        changes.append(("robbing_only_added_kongs", None, exposing))
    rules = [f"procedure.{e}" for e in ("robbing_kong", "robbing_only_added_kongs") if e in proc]
    words = ("a kong claimed from a discard may be robbed too (the spec: only an added kong)" if not exposing else
             "only an added kong may be robbed (the spec: any kong that exposes a tile, one claimed from a discard "
             "too)")
    return [_mutation(ruleset.id, f"robbing_kong.kongs={'added' if exposing else 'exposing'}", ROBBING, words,
                      rules, changes)]


def _wall_end(ruleset: Ruleset) -> list[Mutation]:
    """The dead wall kept back at the wall's end: a plain number at its one-step values, an option-named one
    fixed to each value; `dead_wall` (a dead wall or none) set to agree."""
    proc = ruleset.procedure
    wall_end = proc.get("wall_end")
    if not (isinstance(wall_end, Mapping) and _executed(wall_end)) or "dead_wall_tiles" not in wall_end:
        return []
    raw = wall_end["dead_wall_tiles"]
    rules = ["procedure.wall_end"] + ([f"option.{raw['option']}"] if _option_named(raw) else [])
    out = []
    for new, note in _field_values(ruleset, "wall_end", "dead_wall_tiles", raw):
        changes: list[Change] = [("wall_end", "dead_wall_tiles", new)]
        if isinstance(proc.get("dead_wall"), bool) and isinstance(new, int):
            changes.append(("dead_wall", None, new > 0))
        out.append(_mutation(ruleset.id, f"wall_end.dead_wall_tiles={_shown(new)}", WALL_END,
                             f"the dead wall is {_shown(new)} tiles (kept back at the wall's end, never drawn)"
                             f"{note} (the spec: {_was(raw)})",
                             rules + (["procedure.dead_wall"] if len(changes) > 1 else []), changes))
    return out


def _contract_calls(ruleset: Ruleset) -> list[Mutation]:
    out = []
    for section in ("contract", "liability"):
        numbers = getattr(ruleset.settlement, section)
        for key in read_by_table(section):
            value = numbers.get(key)
            if isinstance(value, int) and not isinstance(value, bool):
                for new in number_steps(value):
                    m = edits.settlement_number(ruleset.id, section, key, new, value)
                    out.append(replace(m, id=PREFIX + m.id, family=CONTRACT_CALLS,
                                       rules=m.rules + ("procedure.contract_seat",)))
    return out


def _option_defaults(ruleset: Ruleset, table_options: Iterable[str] | None) -> list[Mutation]:
    chosen = [oid for oid, o in ruleset.options.items() if o.read_by == "table"] if table_options is None else \
        [oid for oid in ruleset.options if oid in set(table_options)]  # (in the spec's order)
    out = []
    for oid in chosen:
        option = ruleset.options[oid]
        for value in option.other_values():
            m = edits.option_default(ruleset.id, option, value)
            out.append(replace(m, id=PREFIX + m.id, family=OPTION_DEFAULT))
    return out


def procedure_mutations(ruleset: Ruleset, table_options: Iterable[str] | None = None) -> list[Mutation]:
    """Every one-step procedure mutant of the ruleset, bound or not, in catalogue order (FAMILIES), each id once.
    `table_options`: the options the table reads, whose defaults are mutated (None: those marked `read_by:
    table`; `checker.corpus.procedure_strength.table_options` finds every option whose reading changes the bound
    procedure, such as one the scorer reads too)."""
    found = _claim_seats(ruleset) + _claim_priority(ruleset) + _robbing(ruleset) + _wall_end(ruleset)
    found += _fields(ruleset) + _contract_calls(ruleset) + _option_defaults(ruleset, table_options)
    order = {family: i for i, family in enumerate(FAMILIES)}
    unique = list({m.id: m for m in found}.values())
    return sorted(unique, key=lambda m: order[m.family])  # (stable: the spec's order within a family)
