"""Predicates and winning shapes bound to their parameters, shared by every scorer that binds them alike.

The option sets of one ruleset mostly leave a pattern's parameters as they are: binding 27 MCR option sets made
each predicate's tables again for each. A predicate is a pure function of its parameters. Bounded, for specs and
option sets without end (the hunter, hostile specs): past MAX_SHARED, a binding is made and not kept.
"""
from __future__ import annotations

from typing import Any, Callable, Final, Mapping

MAX_SHARED: Final = 4096
DECIDERS: dict[Any, Any] = {}  # a pattern's decision function, by predicate name and parameters
SHAPES: dict[Any, Any] = {}  # a ruleset's bound winning shapes, by their names and parameters
_NOT_MADE: Final = object()


def _key(value: Any) -> Any:
    """A parameter value as a dict key: its type kept (True and 1 are different parameters), lists and
    mappings as tuples."""
    if isinstance(value, Mapping):
        return ("map", tuple(sorted((_key(k), _key(v)) for k, v in value.items())))
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, tuple(_key(v) for v in value))
    return (type(value).__name__, value)


def shared(table: dict[Any, Any], key_of: Any, make: Callable[[], Any]) -> Any:
    """What `make()` gives, made once for every Scorer that asks with the same `key_of` (TypeError, ValueError:
    as make raises; a value no key can hold, which a spec's schema refuses anyway: made, not kept)."""
    try:
        key = _key(key_of)
        found = table.get(key, _NOT_MADE)
    except TypeError:
        return make()
    if found is _NOT_MADE:
        found = make()
        if len(table) < MAX_SHARED:
            table[key] = found
    return found
