"""The roles a ruleset's own words play, read from the sections that already say them, so that tools outside the
spec layer never write a shipped ruleset's flag or counter names (issue: rules bound by role, not by name).

- the facts of play the table knows (`table_context`: fact -> the flag, or the contract partner's counter);
- the hand's own flags: those a pattern reads (`win_context`) that no fact of play sets (开宝 in classic);
- the counted counters: those a pattern counts (`counter`: the 荒番 count in classic);
- the base counter: the settlement's `base_counter` (底分);
- the flag that exempts a hand from 包 (`settlement.liability.exempt_flag`: 三番叫胡 in classic).
"""
from __future__ import annotations

from dataclasses import dataclass

from checker.spec.model import Ruleset

# facts of play a table knows (checker.table, `table_context` keys) that the tools give a hand
KNOCKED, FLOWER_REPLACEMENT, KONG_REPLACEMENT = "knocked", "flower_replacement", "kong_replacement"
DISCARDER_READY, CONTRACT_PARTNER, CONTRACT_MUTUAL = "discarder_ready", "contract_partner", "contract_mutual"
WALL_EXHAUSTED, FOURTH_TILE_SEEN = "wall_exhausted", "fourth_tile_seen"


@dataclass(frozen=True)
class Roles:
    """Each role with the name the ruleset gives it (None: the ruleset has no such thing)."""

    knocked: str | None
    flower_replacement: str | None
    kong_replacement: str | None
    discarder_ready: str | None
    contract_partner: str | None  # a counter: the partner's seat
    contract_mutual: str | None
    hand_flags: tuple[str, ...]  # flags of the whole hand a pattern reads (开宝)
    counted: tuple[str, ...]  # counters a pattern counts (荒番)
    base_counter: str | None  # the counter that sets the base (底分)
    liability_exempt: str | None = None  # the flag that exempts a hand from 包 (三番叫胡), under whichever options


def roles(ruleset: Ruleset) -> Roles:
    """The roles of `ruleset`'s names (see the module)."""
    context = ruleset.table_context
    set_by_play = set(context.values())
    hand_flags = tuple(dict.fromkeys(
        str(p.when.params["flag"]) for p in ruleset.patterns
        if p.when.name == "win_context" and isinstance(p.when.params.get("flag"), str)
        and p.when.params["flag"] not in set_by_play and p.when.params["flag"] in ruleset.flags))
    counted = tuple(dict.fromkeys(
        str(p.when.params["name"]) for p in ruleset.patterns
        if p.when.name == "counter" and isinstance(p.when.params.get("name"), str)
        and p.when.params["name"] in ruleset.counters))
    base = ruleset.settlement.base_counter
    exempt = (ruleset.settlement.liability or {}).get("exempt_flag")
    return Roles(context.get(KNOCKED), context.get(FLOWER_REPLACEMENT), context.get(KONG_REPLACEMENT),
                 context.get(DISCARDER_READY), context.get(CONTRACT_PARTNER), context.get(CONTRACT_MUTUAL),
                 hand_flags, counted, base if base in ruleset.counters else None,
                 exempt if isinstance(exempt, str) and exempt in ruleset.flags else None)
