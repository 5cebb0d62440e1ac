"""The predicates a spec can name in `when: {predicate: …, params: …}`.

Each predicate is a factory: given its parameters (options already resolved) it returns a function that
decides the pattern for one interpretation (scope "interpretation") or once per hand (scope "hand"). The
function returns a count (0 = absent) or a tuple of instances, each instance the indices of the groups it uses.
"""
from __future__ import annotations

from checker.engine.predicates import (  # noqa: F401  (importing registers the predicates)
    combinations,
    context,
    honors,
    structure,
    tile_classes,
)
from checker.engine.predicates.registry import PREDICATES, PredicateKind, predicate  # noqa: F401

__all__ = ["PREDICATES", "PredicateKind", "predicate"]
