"""Option readings as departures: an engine that follows another reading of one of the ruleset's options."""
from __future__ import annotations

from types import MappingProxyType

from checker.mutate.mutation import Mutation
from checker.spec import Option, Ruleset, value_key


def reading(ruleset_id: str, option: Option, value: object) -> Mutation:
    """The engine reads `option` as `value`."""
    words = option.readings.get(value_key(value), "")
    return Mutation(f"option:{option.id}={value_key(value)}", "reading", ruleset_id,
                    f"{option.id}={value_key(value)}" + (f": {words}" if words else ""), (f"option.{option.id}",),
                    options=MappingProxyType({option.id: value}))


def option_readings(ruleset: Ruleset) -> list[Mutation]:
    """Every other value of every option the scorer reads, one option at a time (a case's own options are
    overridden by it)."""
    return [reading(ruleset.id, option, value) for option in ruleset.scoring_options().values()
            for value in option.values]
