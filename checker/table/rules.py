"""The table procedure of one ruleset under chosen options, read from its spec's `procedure:` section.

Each field is one procedure entry's value (or an option it names, resolved); `rule(...)` gives the rule id a
violation of it cites (`procedure.<entry>`, or the option that decides the reading). Nothing here plays: the
state machine (checker.table.state) asks these values.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from checker.spec import Ruleset, _value, chosen

# claim kinds in priority rank (higher outranks lower) when a spec gives no order
DEFAULT_PRIORITY = ("win", "pung_kong", "chow")


# every procedure entry the table engine reads; any other entry must say why not (`not_executed`)
READ_ENTRIES = frozenset({
    "turn", "deal", "dealer_discards_first", "wall_end", "dead_wall", "flower_exposure", "replacement_draw",
    "claims", "chow_from", "claim_priority", "melds_shown", "unclaimed_discard", "multiple_winners",
    "robbing_only_added_kongs", "robbing_kong", "knock", "mandatory_kong", "forgo_then_reclaim", "lou_hu",
    "swap_calling", "dealer", "dealer_rotation", "huangfan_count", "tile_swap",
})
# what the engine plays, for entries whose only reading it implements: a spec asking for another fails to load
FIXED = {"turn": ("draw", "discard"), "dealer_discards_first": True, "unclaimed_discard": "next_player_draws"}


class ProcedureError(ValueError):
    """A `procedure:` entry the table cannot read (a spec of one's own); names the entry."""


@dataclass(frozen=True)
class TableRules:
    ruleset: Ruleset
    options: Mapping[str, Any]
    dealer_tiles: int
    other_tiles: int
    dead_wall_tiles: int
    flowers_at_deal: bool
    dragons_are_flowers: bool
    replacement_after_kong: bool
    replacement_after_flower: bool
    chow_from_previous_only: bool
    priority: tuple[str, ...]
    claim_ranks: Mapping[str, int]  # each claim's rank (higher outranks lower), from `priority`
    multiple_winners: str  # "all_paid" or "nearest_seat_after_discarder"
    robbable_kongs: str  # "added" or "exposing" (an added kong or one claimed from a discard)
    robbing_rule: str
    knock_required: bool
    knock_locks_hand: bool
    knock_lock_covers_kongs: bool
    knock_must_win: bool
    knock_missed_win: str  # "forfeit_hand" or "not_allowed"
    mandatory_kong: bool
    forgo: bool
    forgo_blocks_win: bool
    lou_hu: bool
    lou_hu_later_copy: str  # "any_seat" or "other_seats"
    lou_hu_own_draw_win: bool
    swap_calling: bool
    swap_calling_chow_end: bool
    winner_deals: bool
    dealer_stays_on_draw: bool
    rotates_each_hand: bool
    round_wind_every: int  # hands per round wind under a rotating deal (0: not said)
    after_multiple_win: str
    huangfan_on_draw: int
    huangfan_on_win: int
    contract_calls: int  # 0: no 承包
    swap_tiles: int  # 换牌: how many tiles a seat may swap with the wall after the deal (0: no swap)

    def rule(self, entry: str) -> str:
        """The rule id of a procedure entry (`procedure.claims`)."""
        return f"procedure.{entry}"

    def has(self, entry: str) -> bool:
        return entry in self.ruleset.procedure


def table_rules(ruleset: Ruleset, options: Mapping[str, Any] | None = None) -> TableRules:
    """The procedure of `ruleset` under `options` (unknown options or values raise ValueError naming them)."""
    opts = ruleset.resolve_options(options)
    proc = ruleset.procedure

    def entry(name: str, default: Any = None) -> Any:
        raw = proc.get(name, default)
        if isinstance(raw, dict) and set(raw) not in ({"option"}, {"option", "map"}):
            return {k: value(f"{name}/{k}", v) for k, v in raw.items()}
        return value(name, raw)

    def value(where: str, raw: Any) -> Any:
        resolved = _value(raw)
        try:
            return chosen(resolved, opts)
        except KeyError as exc:
            raise ProcedureError(f"procedure/{where}: names option {exc.args[0]!r}, which the spec does not "
                                 f"declare (or a value its map lacks)") from None

    for name, played in FIXED.items():
        if name in proc and _plain(proc[name]) != played:
            raise ProcedureError(f"procedure/{name}: the table engine plays {played!r}, not {proc[name]!r}")
    for name, raw in proc.items():
        executed = not (isinstance(raw, dict) and "not_executed" in raw)
        if executed and name not in READ_ENTRIES:
            raise ProcedureError(f"procedure/{name}: the table engine does not read this entry; say why under "
                                 f"not_executed, or remove it")
    deal = entry("deal", {}) or {}
    wall_end = entry("wall_end", {}) or {}
    flowers = entry("flower_exposure", {}) or {}
    replacement = entry("replacement_draw", {}) or {}
    claims = entry("claims", {}) or {}
    knock = entry("knock", {}) or {}
    forgo = entry("forgo_then_reclaim")
    lou_hu = entry("lou_hu")
    swap = entry("swap_calling")
    dealer = entry("dealer", {}) or {}
    rotation = entry("dealer_rotation", {}) or {}
    huangfan = entry("huangfan_count", {}) or {}

    if proc.get("dead_wall") is False and int(wall_end.get("dead_wall_tiles", 0)) != 0:
        raise ProcedureError("procedure/dead_wall: false, but wall_end keeps tiles back")
    chow_from = claims.get("chow_from", proc.get("chow_from", "previous_player"))
    if chow_from not in ("previous_player", "next_player", "any"):
        raise ProcedureError(f"procedure/claims/chow_from: {chow_from!r} is not previous_player or next_player")
    priority = tuple(claims.get("priority") or entry("claim_priority") or DEFAULT_PRIORITY)
    multiple = entry("multiple_winners", "nearest_seat_after_discarder")
    if multiple is True:
        multiple = "all_paid"
    if multiple in (False, None):
        multiple = "nearest_seat_after_discarder"
    if multiple not in ("all_paid", "nearest_seat_after_discarder"):
        raise ProcedureError(f"procedure/multiple_winners: {multiple!r} is not all_paid or "
                             f"nearest_seat_after_discarder")
    robbing = entry("robbing_kong", {}) or {}
    if robbing.get("any_kong_exposing_a_tile"):
        robbable, robbing_rule = "exposing", "procedure.robbing_kong"
    else:
        robbable, robbing_rule = "added", "procedure.robbing_only_added_kongs"
    calls = int(ruleset.settlement.contract.get("calls", 0))
    after_multiple = dealer.get("after_multiple_win", "nearest_winner_downstream_of_discarder")
    return TableRules(
        ruleset=ruleset, options=opts,
        dealer_tiles=int(deal.get("dealer_tiles", 14)), other_tiles=int(deal.get("others", 13)),
        dead_wall_tiles=int(wall_end.get("dead_wall_tiles", 0)),
        flowers_at_deal=bool(flowers.get("at_deal", True)),
        dragons_are_flowers=bool(ruleset.tiles.get("dragons_as_flowers", False)),
        replacement_after_kong=bool(replacement.get("after_kong", True)) or "kong" in replacement.get("after", ()),
        replacement_after_flower=bool(replacement.get("after_flower", True)) or "flower" in replacement.get("after", ()),
        chow_from_previous_only=chow_from != "any",
        priority=priority, claim_ranks=claim_ranks(priority),
        multiple_winners=multiple,
        robbable_kongs=robbable, robbing_rule=robbing_rule,
        knock_required=bool(knock.get("required_to_win", False)),
        knock_locks_hand=bool(knock.get("locks_hand", False)),
        knock_lock_covers_kongs=bool(opts.get("knock_lock_covers_kongs", False)),
        knock_must_win=bool(knock.get("must_take_first_win", False)),
        knock_missed_win=str(knock.get("missed_win", "forfeit_hand")),
        mandatory_kong=bool((entry("mandatory_kong") or {}).get("after_knock", False)),
        forgo=bool(forgo), forgo_blocks_win=bool((forgo or {}).get("blocks_win", False)),
        lou_hu=bool(lou_hu), lou_hu_later_copy=str((lou_hu or {}).get("later_copy_from", "any_seat")),
        lou_hu_own_draw_win=bool((lou_hu or {}).get("own_draw_win", True)),
        swap_calling=bool(swap), swap_calling_chow_end=bool((swap or {}).get("no_discard_of_chow_other_end", False)),
        winner_deals=bool(dealer.get("winner_deals", False)),
        dealer_stays_on_draw=dealer.get("on_draw") == "dealer_stays",
        rotates_each_hand=bool(rotation.get("rotates_each_hand", False)),
        round_wind_every=int(rotation.get("round_wind_every", 0)),
        after_multiple_win=str(after_multiple),
        huangfan_on_draw=int(huangfan.get("on_draw", 0)), huangfan_on_win=int(huangfan.get("on_win", 0)),
        contract_calls=calls,
        swap_tiles=int((entry("tile_swap", {}) or {}).get("tiles", 0)),
    )


def _plain(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def claim_ranks(priority: tuple[str, ...]) -> dict[str, int]:
    """How each claim ranks (higher outranks lower), from the spec's priority list. Where the list leaves a
    claim out (classic names only 碰 over 吃), a win outranks every claim and a kong ranks with the pung."""
    ranks: dict[str, int] = {}
    for i, entry in enumerate(priority):
        for kind in ("pung", "kong") if entry == "pung_kong" else (entry,):
            ranks[kind] = len(priority) - i
    ranks.setdefault("chow", 0)
    ranks.setdefault("kong", ranks.get("pung", 1))
    ranks.setdefault("win", max(ranks.values(), default=0) + 1)
    return ranks
