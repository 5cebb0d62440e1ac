"""Option readings as departures: an engine that follows another reading of one of the ruleset's options."""
from __future__ import annotations

from types import MappingProxyType
from typing import Any, Iterator, Mapping

from checker.mutate.edits import option_default
from checker.mutate.mutation import Mutation
from checker.spec import Option, Ruleset, value_key


def reading(ruleset_id: str, option: Option, value: object) -> Mutation:
    """The engine reads `option` as `value`."""
    words = option.readings.get(value_key(value), "")
    return Mutation(f"option:{option.id}={value_key(value)}", "reading", ruleset_id,
                    f"{option.id}={value_key(value)}" + (f": {words}" if words else ""), (f"option.{option.id}",),
                    options=MappingProxyType({option.id: value}))


def option_readings(ruleset: Ruleset, read_by: str = "scorer") -> list[Mutation]:
    """Every value of every option the scorer reads (`read_by`: or the table alone), one option at a time (a case's
    own options are overridden by it: a case naming another value is read at the default too)."""
    return [reading(ruleset.id, option, value) for option in ruleset.options.values() if option.read_by == read_by
            for value in option.values]


def default_readings(ruleset: Ruleset) -> list[Mutation]:
    """Every other value of every option the scorer reads as the option's default: an engine that follows a case
    naming the option but reads it its own way where the case leaves it out (`option_readings` override a case's
    own value too)."""
    return [option_default(ruleset.id, option, value) for option in ruleset.scoring_options().values()
            for value in option.other_values()]


def table_readings(ruleset: Ruleset) -> list[Mutation]:
    """Every value of every option the table alone reads (`read_by: table`): a judge of play that reads the
    procedure otherwise."""
    return option_readings(ruleset, "table")


def places_deciding(ruleset: Ruleset, option_id: str) -> int:
    """How many fields of the procedure and the hand checks name the option (`{option: X}`): where it is one,
    fixing that field to a value is the option's reading of it, said another way."""
    checks = [dict(hc.check.params) for hc in ruleset.hand_checks]
    return sum(1 for _ in _named(dict(ruleset.procedure), option_id)) + sum(1 for _ in _named(checks, option_id))


def _named(data: Any, option_id: str) -> Iterator[Mapping[str, Any]]:
    if isinstance(data, Mapping):
        if data.get("option") == option_id:
            yield data
        for value in data.values():
            yield from _named(value, option_id)
    elif isinstance(data, (list, tuple)):
        for value in data:
            yield from _named(value, option_id)
