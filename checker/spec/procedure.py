"""The table procedure of one ruleset under chosen options, read from its spec's `procedure:` section.

Each field is one procedure entry's value (or an option it names, resolved); `rule(...)` gives the rule id a
violation of it cites (`procedure.<entry>`, or the option that decides the reading). Nothing here plays: the
state machine (checker.table.state) asks these values.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from checker.spec.model import Ruleset, _value, chosen

# every procedure entry the table engine reads; any other entry must say why not (`not_executed`)
READ_ENTRIES = frozenset({
    "turn", "deal", "dealer_discards_first", "wall_end", "dead_wall", "flower_exposure", "replacement_draw",
    "claims", "chow_from", "claim_priority", "melds_shown", "unclaimed_discard", "multiple_winners",
    "robbing_only_added_kongs", "robbing_kong", "knock", "mandatory_kong", "forgo_then_reclaim", "lou_hu",
    "swap_calling", "dealer", "dealer_rotation", "huangfan_count", "tile_swap",
})
# the moments a win declared on flowers (八花齐) may be declared: procedure.flower_exposure.declared_win
DECLARED_WIN = ("at_once", "own_turn", "before_replacement")
# what the engine plays, for entries whose only reading it implements: a spec asking for another fails to load
FIXED = {"turn": ("draw", "discard"), "dealer_discards_first": True, "unclaimed_discard": "next_player_draws"}


class ProcedureError(ValueError):
    """A `procedure:` entry the table cannot read (a spec of one's own); names the entry (`pointer`: its JSON
    pointer in the spec, e.g. /procedure/dead_wall)."""

    def __init__(self, message: str, pointer: str = "/procedure", reason: str = ""):
        super().__init__(message)
        self.pointer, self.reason = pointer, reason or message

    def __reduce__(self) -> tuple:
        """Pickled with where and why (an error raised in a worker process reaches the parent whole)."""
        return (type(self), (str(self), self.pointer, self.reason))


@dataclass(frozen=True)
class TableRules:
    ruleset: Ruleset
    options: Mapping[str, Any]
    dealer_tiles: int
    other_tiles: int
    dead_wall_tiles: int
    flowers_at_deal: bool
    dragons_are_flowers: bool
    chow_from_previous_only: bool
    claim_ranks: Mapping[str, int]  # each claim's rank (higher outranks lower), from the spec's priority
    multiple_winners: str  # "all_paid" or "nearest_seat_after_discarder"
    robbable_kongs: str  # "added" or "exposing" (an added kong or one claimed from a discard)
    robbing_rule: str
    # (flag, flowers): a winning shape declared by holding that many flowers (八花齐), from the spec's shapes of
    # predicate declared_flowers; the table sets the flag on a player who holds them
    declared_flowers: tuple[tuple[str, int], ...]
    # when such a win is declared (flower_exposure/declared_win, DECLARED_WIN): at_once, during the deal and out of
    # turn, right after the last flower's replacement (or at the player's own turn, or on a discard it may take);
    # own_turn, only at the player's own turn or on a discard; before_replacement, right after the last flower is
    # exposed, in the deal or in play, before its replacement is drawn (that draw lets the declaration pass)
    declared_win: str
    # fact of play -> the flag (contract_partner: the counter) the spec names for it (its `table_context`)
    context: Mapping[str, str]
    knock_required: bool
    knock_locks_hand: bool
    # the claims a knocked (locked) hand may not make: the `kinds` of the spec's no_claims_after_knock hand check,
    # bound under the options (knocking's knock_lock_covers_kongs adds the kong); every claim without one
    knock_locked_claims: frozenset[str]
    knock_must_win: bool
    missed_win_after_knock: str  # "forfeit_hand" or "not_allowed"
    missed_win_after_knock_rule: str  # the rule id that decides it: the option that chooses it, else procedure.knock
    # which concealed kongs a locked (knocked) hand may declare: "keeps_wait" (one leaving its wait as it was) or
    # "never"; with its rule id (the option that chooses it, else procedure.knock_locks_hand)
    knock_concealed_kong: str
    knock_concealed_kong_rule: str
    # what a knock's discard must leave the hand waiting on: "any_shape" (a tile completing one of the shapes) or
    # "winning_hand" (a tile it would win on, the scorer's verdict); with its rule id (the option that chooses it,
    # else procedure.knock)
    knock_wait: str
    knock_wait_rule: str
    # where a knock that no discard can leave ready is refused: "knock" (at once) or "discard" (its discard)
    knock_checked_at: str
    # which claims the last discard (the one after the wall's last tile) may take: "any" (as every discard) or
    # "win_only"; and whether the claimer of a pung may extend a pung to a kong (an added kong) before the discard
    # that ends its claim turn: "allowed", or "after_own_draw" (only in a turn it drew); each with its rule id
    last_discard_claims: str
    last_discard_rule: str
    # the wall: "single" (one live wall: turns draw from its front, replacements from its back) or "quarters"
    # (each seat deals, draws and replaces from its own quarter of 36 tiles; a hand is drawn when the seat to draw
    # has none; a discard before an empty quarter may be claimed only for a win); with the rule id deciding it
    wall_model: str
    wall_model_rule: str
    flowers_in_wall: bool  # the eight flowers are in the wall (144 tiles), or not (136)
    added_kong_after_claim: str
    added_kong_after_claim_rule: str
    # whether the claimer of a chow or pung may declare a concealed kong before the discard that ends its claim
    # turn: "allowed", or "after_own_draw" (only in a turn it drew); with its rule id
    concealed_kong_after_claim: str
    concealed_kong_after_claim_rule: str
    mandatory_kong: bool
    mandatory_kong_unless_self_draw_win: bool  # a self-drawn win comes before the compulsion
    mandatory_kong_robbable: bool  # the mandatory upgrade may be robbed
    forgo: bool
    forgo_blocks: frozenset[str]  # the claims (chow, pung, kong) a forgone tile may not be taken with
    forgo_blocks_win: bool
    # whether a seat whose possible claim the claim made outranks has passed the tile too (else only a seat that
    # could have taken it, its claim outranking the one made, or every seat when none is made)
    forgo_outranked_passes: bool
    lou_hu: bool
    lou_hu_lifted_by: frozenset[str]  # the moves (pung, chow, kong, draw) that lift a 漏胡 block
    lou_hu_later_copy: str  # "any_seat" or "other_seats"
    lou_hu_own_draw_win: bool
    lou_hu_own_draw_win_rule: str  # the rule id that decides it: the option that chooses it, else procedure.lou_hu
    swap_calling: bool
    swap_calling_claimed_tile: bool  # the tile just claimed may not be discarded at once
    swap_calling_chow_end: bool
    winner_deals: bool
    dealer_stays_on_draw: bool
    rotates_each_hand: bool
    draws_count: bool  # under a rotating deal, a drawn hand passes the deal and counts toward the round wind
    round_wind_every: int  # hands per round wind under a rotating deal (0: not said)
    after_multiple_win: str
    huangfan_counter: str | None  # the counter that holds the 荒番 count the table keeps (None: it keeps none)
    huangfan_on_draw: int
    huangfan_on_win: int
    contract_calls: int  # 0: no 承包
    # 包's exemption (settlement.liability.exempt_flag): the flag the table sets on a discard win when the discarder's
    # own hand, after the discard, is ready on a hand worth at least `liability_exempt_doubles` doubles ("": none;
    # set by the binding step from the bound liability, so the options are resolved in one place)
    liability_exempt_flag: str
    liability_exempt_doubles: int
    swap_tiles: int  # 换牌: how many tiles a seat may swap with the wall after the deal (0: no swap)
    # the procedure fields read to make these rules (an entry `knock`, a field `knock/locks_hand`): what a test
    # holds against the fields the schema says the table reads (tests/test_spec_fields.py)
    read: frozenset[str] = frozenset()
    # what the table plays where the spec is silent, each with its value: a field of an entry the spec gives but
    # not that field (`lou_hu/lifted_by`), an entry with a default the spec leaves out (`multiple_winners`), an
    # entry the table plays one way only (FIXED); the table's own readings, which the hunter lists as decided
    defaulted: tuple[tuple[str, Any], ...] = ()

    def rule(self, entry: str) -> str:
        """The rule id of a procedure entry (`procedure.claims`)."""
        return f"procedure.{entry}"

    def has(self, entry: str) -> bool:
        """Whether the spec gives the entry for the table to execute (not a `not_executed` one)."""
        return entry in self.ruleset.executed_entries()


class _Procedure:
    """A spec's `procedure:` as the binding step reads it (checker.spec.bind: `Bound.procedure`): each value under
    the chosen options, every entry and field read recorded in `read` (`deal`, `deal/dealer_tiles`), and every
    default the table fell back on where the spec is silent in `defaulted` (a field of an entry the spec gives;
    a whole entry only where the table has a default for it)."""

    def __init__(self, proc: Mapping[str, Any], options: Mapping[str, Any]):
        self.proc, self.options = proc, options
        self.read: set[str] = set()
        self.defaulted: dict[str, Any] = {}  # what the table plays where the spec's entry is silent (see below)

    def has(self, name: str) -> bool:
        """Whether the entry is given (and executed: not a `not_executed` one); reads it."""
        raw = self.proc.get(name)
        if raw is None or (isinstance(raw, Mapping) and "not_executed" in raw):
            return False
        self.read.add(name)
        return True

    def entry(self, name: str, default: Any = None) -> Any:
        """A whole entry's value (a scalar or a list, or an option's choice of one)."""
        if name not in self.proc:
            if default is not None:
                self.defaulted[name] = default
            return default
        self.read.add(name)
        return self._chosen(name, self.proc[name])

    def field(self, name: str, key: str, default: Any = None) -> Any:
        """A field of a mapping entry (`knock`, `locks_hand`), or `default` when the entry or field is absent."""
        raw = self.proc.get(name)
        if not isinstance(raw, Mapping) or key not in raw or "not_executed" in raw:
            if isinstance(raw, Mapping) and "not_executed" not in raw and default is not None:
                self.defaulted[f"{name}/{key}"] = default  # the entry is given, this field of it is not
            return default  # absent, or data the table does not execute
        self.read.add(name)
        self.read.add(f"{name}/{key}")
        return self._chosen(f"{name}/{key}", raw[key])

    def rule_of(self, name: str, key: str) -> str:
        """The rule id that decides a field: `option.X` when the option X chooses it, else `procedure.<entry>`
        (what the table cites when it refuses a move by that field)."""
        raw = self.proc.get(name)
        value = raw.get(key) if isinstance(raw, Mapping) else None
        if isinstance(value, Mapping) and isinstance(value.get("option"), str):
            return f"option.{value['option']}"
        return f"procedure.{name}"

    def word(self, name: str, key: str, default: str, words: tuple[str, ...]) -> str:
        """A field that is one of `words` (or an option's choice of one)."""
        value = self.field(name, key, default)
        if value not in words:
            raise _refusal(f"{name}/{key}", f"{value!r} is not {' or '.join(words)}")
        return str(value)

    def flag(self, name: str, key: str, default: bool) -> bool:
        """A true/false field (or an option's choice of one)."""
        value = self.field(name, key, default)
        if not isinstance(value, bool):
            raise _refusal(f"{name}/{key}", f"is true or false, not {value!r}")
        return value

    def whole(self, name: str, key: str, default: int) -> int:
        """A whole-number field (or an option's choice of one)."""
        value = self.field(name, key, default)
        if not isinstance(value, int) or isinstance(value, bool):
            raise _refusal(f"{name}/{key}", f"is a whole number, not {value!r}")
        return value

    def _chosen(self, where: str, raw: Any) -> Any:
        if isinstance(raw, Mapping) and set(raw) not in ({"option"}, {"option", "map"}):
            return raw
        try:
            return chosen(_value(raw), self.options)
        except KeyError as exc:
            reason = f"names option {exc.args[0]!r}, which the spec does not declare (or a value its map lacks)"
            raise ProcedureError(f"procedure/{where}: {reason}", f"/procedure/{where}", reason) from None


def _table_rules(ruleset: Ruleset, options: Mapping[str, Any] | None = None) -> TableRules:
    """The procedure of `ruleset` under `options` (unknown options or values raise ValueError naming them)."""
    opts = ruleset.resolve_options(options)
    proc = ruleset.procedure
    p = _Procedure(proc, opts)

    for name, played in FIXED.items():
        if name in proc and _plain(p.entry(name)) != played:
            raise _refusal(name, f"the table engine plays {played!r}, not {proc[name]!r}")
        if name not in proc:
            p.defaulted[name] = played
    for name, raw in proc.items():
        executed = not (isinstance(raw, dict) and "not_executed" in raw)
        if executed and name not in READ_ENTRIES:
            raise _refusal(name, "the table engine does not read this entry; say why under not_executed, or remove it")

    dead_wall_tiles = p.whole("wall_end", "dead_wall_tiles", 0)
    wall_model = p.word("wall_end", "model", "single", ("single", "quarters"))  # (quarters keep no dead wall)
    dead_wall = p.entry("dead_wall")
    if dead_wall is False and dead_wall_tiles != 0:
        raise _refusal("dead_wall", "false, but wall_end keeps tiles back")
    if dead_wall is True and dead_wall_tiles == 0:
        raise _refusal("dead_wall", "true, but wall_end keeps no tile back (dead_wall_tiles 0)")
    dragons = ruleset.dragons_as_flowers
    dragons_too = p.field("flower_exposure", "dragons_too", dragons)
    if bool(dragons_too) != dragons:
        raise _refusal("flower_exposure/dragons_too", f"{_shown(dragons_too)}, but tiles.dragons_as_flowers is "
                     f"{_shown(dragons)}: the table exposes the dragons as flowers exactly when the tiles say so")

    chow_from = p.field("claims", "chow_from", None)
    top_chow_from = p.entry("chow_from")
    if chow_from is not None and top_chow_from is not None and chow_from != top_chow_from:
        raise _refusal("chow_from", f"{top_chow_from!r}, but claims/chow_from is {chow_from!r}")
    if chow_from is None and top_chow_from is None:
        p.defaulted["chow_from"] = "previous_player"
    chow_from = chow_from if chow_from is not None else (top_chow_from or "previous_player")
    if chow_from not in ("previous_player", "any"):
        raise _refusal("claims/chow_from", f"{chow_from!r} is not previous_player or any")
    claims_priority = p.field("claims", "priority")
    top_priority = p.entry("claim_priority")
    if claims_priority and top_priority and tuple(claims_priority) != tuple(top_priority):
        raise _refusal("claim_priority", f"{list(top_priority)}, but claims/priority is {list(claims_priority)}")
    priority = tuple(claims_priority or top_priority or ())
    unranked = [c for c in ("win", "pung", "kong", "chow") if c not in claim_ranks(priority)]
    if unranked:
        raise _refusal("claim_priority" if top_priority else "claims/priority",
                       f"{list(priority)} does not rank {', '.join(unranked)}: a ruleset's priority ranks every claim "
                       f"(win, pung or pung_kong, kong or pung_kong, chow)")
    # a lock no hand check narrows forbids every claim ("locked": the hand changes only by its own draws)
    lock_checks = [hc for hc in ruleset.hand_checks if hc.check.name == "no_claims_after_knock"]
    locked = frozenset(str(k) for hc in lock_checks for k in chosen(hc.check.params.get("kinds", ()), opts)) \
        if lock_checks else frozenset(("chow", "pung", "kong"))
    multiple = p.entry("multiple_winners", "nearest_seat_after_discarder")
    if multiple is True:
        multiple = "all_paid"
    if multiple in (False, None):
        multiple = "nearest_seat_after_discarder"
    if multiple not in ("all_paid", "nearest_seat_after_discarder"):
        raise _refusal("multiple_winners", f"{multiple!r} is not all_paid or nearest_seat_after_discarder")

    if p.has("knock"):  # one rule stated twice (the table's knock, the scorer's required flag) must agree
        required = p.flag("knock", "required_to_win", False)
        knocked = ruleset.table_context.get("knocked")
        if required != (knocked is not None and knocked in ruleset.win.required_flags):
            why = (f"win.requires_flags does not name the knocked flag {knocked!r} (table_context.knocked)"
                   if knocked else "table_context names no knocked flag") if required else \
                f"win.requires_flags names the knocked flag {knocked!r} (table_context.knocked)"
            raise _refusal("knock/required_to_win", f"{_shown(required)}, but {why}: the knock is required to win "
                           f"exactly when the scorer requires its flag")
    exposing = p.flag("robbing_kong", "any_kong_exposing_a_tile", False)
    only_added = p.entry("robbing_only_added_kongs")
    if only_added is not None and bool(only_added) == exposing:
        raise _refusal("robbing_only_added_kongs", f"{_shown(only_added)}, but robbing_kong/any_kong_exposing_a_tile "
                     f"is {_shown(exposing)}: say which kongs may be robbed once")
    robbable, robbing_rule = ("exposing", "procedure.robbing_kong") if exposing else \
        ("added", "procedure.robbing_only_added_kongs")

    declared_win = str(p.field("flower_exposure", "declared_win", "own_turn"))
    if declared_win not in DECLARED_WIN:
        raise _refusal("flower_exposure/declared_win", f"{declared_win!r} is not one of {', '.join(DECLARED_WIN)}")
    knock_missed_win = str(p.field("knock", "missed_win", "forfeit_hand"))
    if knock_missed_win not in ("forfeit_hand", "not_allowed"):
        raise _refusal("knock/missed_win", f"{knock_missed_win!r} is not forfeit_hand or not_allowed")
    forgo = p.has("forgo_then_reclaim")
    locks_hand = p.flag("knock", "locks_hand", False)
    # (read only under a lock: without one a knocked hand declares any kong it holds)
    knock_concealed_kong = p.word("knock", "concealed_kong", "keeps_wait", ("keeps_wait", "never")) \
        if locks_hand else "keeps_wait"
    knock_concealed_kong_rule = p.rule_of("knock", "concealed_kong")
    knock_wait = p.word("knock", "wait", "any_shape", ("any_shape", "winning_hand")) if p.has("knock") else "any_shape"
    knock_checked_at = p.word("knock", "checked_at", "knock", ("knock", "discard")) if p.has("knock") else "knock"
    if knock_concealed_kong_rule == "procedure.knock":
        knock_concealed_kong_rule = "procedure.knock_locks_hand"
    forgo_blocks = frozenset(p.field("forgo_then_reclaim", "blocks", ("chow", "pung", "kong")))
    lou_hu = p.has("lou_hu")
    lou_hu_later_copy = str(p.field("lou_hu", "later_copy_from", "any_seat"))
    huangfan_counter = p.field("huangfan_count", "counter", None) if p.has("huangfan_count") else None
    if huangfan_counter is not None and huangfan_counter not in ruleset.counters:
        raise _refusal("huangfan_count/counter", f"{huangfan_counter!r} is not a counter of the ruleset "
                       f"(its counters: {', '.join(sorted(ruleset.counters)) or 'none'})")
    if p.has("huangfan_count") and huangfan_counter is None:
        raise _refusal("huangfan_count/counter", "names no counter: say which counter holds the count")
    if lou_hu_later_copy not in ("any_seat", "other_seats"):
        raise _refusal("lou_hu/later_copy_from", f"{lou_hu_later_copy!r} is not any_seat or other_seats")
    after_multiple = str(p.field("dealer", "after_multiple_win", "nearest_winner_downstream_of_discarder"))
    if after_multiple not in ("nearest_winner_downstream_of_discarder", "seat_after_nearest_winner"):
        raise _refusal("dealer/after_multiple_win", f"{after_multiple!r} is not nearest_winner_downstream_of_discarder "
                     f"or seat_after_nearest_winner")
    calls = int(ruleset.settlement.contract.get("calls", 0))
    return TableRules(
        ruleset=ruleset, options=opts,
        dealer_tiles=p.whole("deal", "dealer_tiles", 14), other_tiles=p.whole("deal", "others", 13),
        dead_wall_tiles=dead_wall_tiles,
        flowers_at_deal=p.flag("flower_exposure", "at_deal", True),
        dragons_are_flowers=dragons,
        chow_from_previous_only=chow_from != "any",
        claim_ranks=claim_ranks(priority),
        multiple_winners=multiple,
        robbable_kongs=robbable, robbing_rule=robbing_rule,
        declared_flowers=tuple((str(chosen(shape.when.params["flag"], opts)), int(chosen(shape.when.params["flowers"], opts)))
                               for shape in ruleset.win.shapes if shape.when.name == "declared_flowers"),
        declared_win=declared_win,
        context=ruleset.table_context,
        knock_required=p.flag("knock", "required_to_win", False),
        knock_locks_hand=locks_hand,
        knock_concealed_kong=knock_concealed_kong, knock_concealed_kong_rule=knock_concealed_kong_rule,
        knock_wait=knock_wait, knock_wait_rule=p.rule_of("knock", "wait"), knock_checked_at=knock_checked_at,
        knock_locked_claims=locked,
        knock_must_win=p.flag("knock", "must_take_first_win", False),
        missed_win_after_knock=knock_missed_win, missed_win_after_knock_rule=p.rule_of("knock", "missed_win"),
        last_discard_claims=p.word("claims", "last_discard", "any", ("any", "win_only")),
        last_discard_rule=p.rule_of("claims", "last_discard"),
        wall_model=wall_model, wall_model_rule=p.rule_of("wall_end", "model"),
        flowers_in_wall=p.flag("flower_exposure", "in_wall", True),
        added_kong_after_claim=p.word("claims", "added_kong_after_claim", "allowed", ("allowed", "after_own_draw")),
        added_kong_after_claim_rule=p.rule_of("claims", "added_kong_after_claim"),
        concealed_kong_after_claim=p.word("claims", "concealed_kong_after_claim", "allowed",
                                          ("allowed", "after_own_draw")),
        concealed_kong_after_claim_rule=p.rule_of("claims", "concealed_kong_after_claim"),
        mandatory_kong=p.flag("mandatory_kong", "after_knock", False),
        mandatory_kong_unless_self_draw_win=p.flag("mandatory_kong", "unless_self_draw_win", True),
        mandatory_kong_robbable=p.flag("mandatory_kong", "robbable", True),
        forgo=forgo, forgo_blocks=forgo_blocks,
        forgo_blocks_win=p.flag("forgo_then_reclaim", "blocks_win", False),
        forgo_outranked_passes=p.flag("forgo_then_reclaim", "outranked_passes", False),
        lou_hu=lou_hu, lou_hu_lifted_by=frozenset(p.field("lou_hu", "lifted_by", ("pung", "chow", "kong", "draw"))),
        lou_hu_later_copy=lou_hu_later_copy,
        lou_hu_own_draw_win=p.flag("lou_hu", "own_draw_win", True),
        lou_hu_own_draw_win_rule=p.rule_of("lou_hu", "own_draw_win"),
        swap_calling=p.has("swap_calling"),
        swap_calling_claimed_tile=p.flag("swap_calling", "no_discard_of_claimed_tile", True),
        swap_calling_chow_end=p.flag("swap_calling", "no_discard_of_chow_other_end", False),
        winner_deals=p.flag("dealer", "winner_deals", False),
        dealer_stays_on_draw=p.field("dealer", "on_draw") == "dealer_stays",
        rotates_each_hand=p.flag("dealer_rotation", "rotates_each_hand", False),
        draws_count=p.flag("dealer_rotation", "draws_count", True),
        round_wind_every=p.whole("dealer_rotation", "round_wind_every", 0),
        after_multiple_win=after_multiple,
        huangfan_counter=None if huangfan_counter is None else str(huangfan_counter),
        huangfan_on_draw=p.whole("huangfan_count", "on_draw", 0),
        huangfan_on_win=p.whole("huangfan_count", "on_win", 0),
        contract_calls=calls,
        liability_exempt_flag="", liability_exempt_doubles=_exempt_doubles(ruleset),
        swap_tiles=p.whole("tile_swap", "tiles", 0),
        read=frozenset(p.read),
        defaulted=tuple(sorted(p.defaulted.items())),
    )


def _exempt_doubles(ruleset: Ruleset) -> int:
    """The doubles the discarder's own waiting hand must be worth for the table to set 包's exemption flag
    (settlement.liability.exempt_doubles; the flag itself, resolved under the options, is the binding step's:
    checker.spec.bind sets `liability_exempt_flag` from the bound liability)."""
    liability = ruleset.settlement.liability
    return int(liability.get("exempt_doubles", 1)) if liability else 0


def deciding_option(ruleset: Ruleset, entry: str, key: str) -> str | None:
    """The option that decides the procedure field `entry/key` of `ruleset` (`{option: X}` there), or None when
    the spec fixes it (or leaves it out): what a tool keyed by the procedure reads instead of an option's name."""
    raw = ruleset.procedure.get(entry)
    value = raw.get(key) if isinstance(raw, Mapping) else None
    if isinstance(value, Mapping) and isinstance(value.get("option"), str):
        return str(value["option"])
    return None


def _refusal(where: str, message: str) -> ProcedureError:
    return ProcedureError(f"procedure/{where}: {message}", f"/procedure/{where}", message)


def _plain(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def _shown(value: Any) -> str:
    """A value as the spec writes it: true, false, a word."""
    return ("true" if value else "false") if isinstance(value, bool) else repr(value)


def claim_ranks(priority: tuple[str, ...]) -> dict[str, int]:
    """How each claim the spec's priority list names ranks (higher outranks lower; pung_kong ranks both)."""
    ranks: dict[str, int] = {}
    for i, entry in enumerate(priority):
        for kind in ("pung", "kong") if entry == "pung_kong" else (entry,):
            ranks[kind] = len(priority) - i
    return ranks
