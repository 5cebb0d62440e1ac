"""The declared types of the parameters that spec files give predicates, shapes, scoring steps and hand checks.

The engine declares each parameter beside its name where it registers the predicate (shape, step, check), as
a JSON Schema fragment: `{"kind": one_of("wind", "dragon"), "pungs": integer(0, 4), "pair": BOOLEAN}`. A
parameter's type and range say what the engine's function can handle; they are the engine's, never a rule
(the rules stay in the YAML). `checker.spec` checks every value a spec gives, and every value an option it
names can take, against the declaration when it loads the spec, so a spec that validates never hands a
function a value it cannot take. The engine reads declarations only while loading, never while scoring.

This module imports neither the spec loader nor the engine (both import it): data flows spec → engine.
"""
from __future__ import annotations

from types import MappingProxyType
from typing import Any, Final, Iterable, Iterator, Mapping

Schema = Mapping[str, Any]  # a JSON Schema fragment (draft 2020-12) declaring one parameter's type

# A bound of the tool, not of the rules: the largest value, unit or count of units a step may be given.
# Values are multiplied by units, doubled (2 ** doubles) and multiplied again; this keeps every result
# far below Python's limit on printing integers (4,300 digits) and keeps a mistyped 10**400 out.
MAX_AMOUNT: Final = 1_000_000

# `"x-names": SECTION` (an annotation JSON Schema ignores): the value names an entry of the spec's own
# section SECTION (`flags`, `counters`, `patterns`), which the loader checks when the spec has that section.
NAMES: Final = "x-names"

BOOLEAN: Final[Schema] = {"type": "boolean"}


def boolean(meaning: str) -> Schema:
    """A true/false parameter, with what `true` means said as a rule (diagnosis words an engine that reads it
    the other way with it)."""
    return {"type": "boolean", "x-meaning": meaning}  # (`description` words the type in error messages)


def integer(low: int, high: int | None = None) -> Schema:
    """A whole number from `low` to `high` (no upper bound when None)."""
    schema: dict[str, Any] = {"type": "integer", "minimum": low}
    if high is not None:
        schema["maximum"] = high
    return schema


def one_of(*values: Any) -> Schema:
    """Exactly one of `values`."""
    return {"enum": list(values)}


def list_of(item: Schema, at_least: int = 1, description: str = "") -> Schema:
    """A list of distinct items, each of type `item`, at least `at_least` of them."""
    schema: dict[str, Any] = {"type": "array", "items": item, "minItems": at_least, "uniqueItems": True}
    if description:
        schema["description"] = description
    return schema


def either(*schemas: Schema, description: str = "") -> Schema:
    """A value of any one of these types."""
    schema: dict[str, Any] = {"anyOf": list(schemas)}
    if description:
        schema["description"] = description
    return schema


def name_in(section: str, what: str) -> Schema:
    """The name of an entry of the spec's own `section` (a flag, a counter, a pattern id)."""
    return {"type": "string", "minLength": 1, NAMES: section, "description": what}


FLAG: Final = name_in("flags", "a flag the ruleset lists under `flags`")
COUNTER: Final = name_in("counters", "a counter the ruleset lists under `counters`")
PATTERN: Final = name_in("patterns", "the id of one of the ruleset's patterns")


class Params(Mapping[str, Schema]):
    """The parameters one predicate, shape, step or check takes: each name with its declared type, the names a
    spec must give (`required`), and the values of those it may leave out (`defaults`: the one place a default is
    written; the spec loader binds it where a spec leaves the parameter out). Reads as a mapping from parameter
    name to type."""

    def __init__(self, types: Mapping[str, Schema] | None = None, required: Iterable[str] = (),
                 defaults: Mapping[str, Any] | None = None):
        self._types: Mapping[str, Schema] = MappingProxyType(dict(types or {}))
        self.required: frozenset[str] = frozenset(required)
        self.defaults: Mapping[str, Any] = MappingProxyType(dict(defaults or {}))
        undeclared = (self.required | set(self.defaults)) - set(self._types)
        if undeclared:
            raise ValueError(f"parameter(s) {', '.join(sorted(undeclared))} required or defaulted, not declared")
        both = self.required & set(self.defaults)
        if both:
            raise ValueError(f"parameter(s) {', '.join(sorted(both))} both required and defaulted")

    def __getitem__(self, name: str) -> Schema:
        return self._types[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._types)

    def __len__(self) -> int:
        return len(self._types)

    def __repr__(self) -> str:
        return f"Params({dict(self._types)!r}, required={sorted(self.required)!r})"


# --------------------------------------------------------------------------- checking a value

def fits(value: Any, schema: Schema) -> bool:
    """Whether `value` is of the declared type. Unlike plain JSON Schema, `integer` takes neither a float
    (4.0) nor a boolean: the engine's functions are compiled with exact types."""
    return bool(_strict_validator()(schema).is_valid(value))


def check_declaration(schema: Schema) -> None:
    """Raise jsonschema's SchemaError if `schema` is not a valid JSON Schema (for the tests of declarations)."""
    _strict_validator().check_schema(schema)


_Strict: Any = None


def _strict_validator() -> Any:
    import jsonschema  # imported when a spec is checked, not by the engine's modules as they load

    global _Strict
    if _Strict is None:
        base = jsonschema.Draft202012Validator
        types = base.TYPE_CHECKER.redefine(
            "integer", lambda _checker, v: isinstance(v, int) and not isinstance(v, bool))
        _Strict = jsonschema.validators.extend(base, type_checker=types)
    return _Strict


# --------------------------------------------------------------------------- saying what a type is

def describe(schema: Schema) -> str:
    """The declared type in words a spec author reads: "an integer from 0 to 4", "one of wind, dragon"."""
    if "description" in schema:
        return str(schema["description"])
    if "enum" in schema:
        return "one of " + ", ".join(_word(v) for v in schema["enum"])
    if "anyOf" in schema:
        return " or ".join(describe(s) for s in schema["anyOf"])
    kind = schema.get("type")
    if kind == "boolean":
        return "true or false"
    if kind == "integer":
        return f"an integer{_bounds(schema)}"
    if kind == "string":
        return "a non-empty string" if schema.get("minLength") else "a string"
    if kind == "array":
        item = schema.get("items", {})
        least = schema.get("minItems", 0)
        count = "one or more" if least == 1 else f"at least {least}" if least else "any number"
        twice = ", none twice" if schema.get("uniqueItems") else ""
        if "enum" in item:
            return f"a list of {count} of {', '.join(_word(v) for v in item['enum'])}{twice}"
        if item.get("type") == "integer":
            return f"a list of {count} integers{_bounds(item)}{twice}"
        return f"a list of {count} items, each {describe(item)}{twice}"
    return "a value of the declared type"


def _bounds(schema: Schema) -> str:
    low, high = schema.get("minimum"), schema.get("maximum")
    if low is not None and high is not None:
        return f" from {low} to {high}"
    if low is not None:
        return f" of at least {low}"
    if high is not None:
        return f" of at most {high}"
    return ""


def _word(value: Any) -> str:
    """An allowed value as the spec writes it: true, 8, table_only."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    return str(value)
