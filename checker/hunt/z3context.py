"""Each Z3 search in a context of its own.

Z3's search, and so what a resource bound decides and which of several equally small witnesses it shows, depends
on every term made before in the same context. Terms made without naming a context go to Z3's main context, which
lives as long as the process: a claim's answer would then hang on which claims ran before it (`--ruleset all`
against one ruleset alone, or one claim run by hand). `own_context` gives the main context a fresh one for the
duration of one search, and puts the process's back after; nothing made inside may be used outside (the searches
hand back plain values: witnesses in words). It does not make a bounded search's answer wholly its own: Z3 keeps
state beyond one context, and a claim searched after others in one process may run out of its bound where alone
it does not (classic's "one more flower" under menqing_doubles=2: proved alone, undecided after the zero-sum
claims), and Z3's resource count for one search differs between processes too (checker.hunt.proofs); such a claim
is said to be undecided, never answered otherwise.
"""
from __future__ import annotations

from contextlib import contextmanager
from functools import wraps
from typing import Any, Callable, Iterator, TypeVar

import z3  # type: ignore[import-untyped]

F = TypeVar("F", bound=Callable[..., Any])


@contextmanager
def own_context() -> Iterator[Any]:
    """A fresh Z3 context stands for the main one inside the block (the one z3.Int, z3.Solver and the like use
    when given none); the block's terms are dropped with it."""
    module = z3.z3
    saved = module._main_ctx
    fresh = z3.Context()
    module._main_ctx = fresh
    try:
        yield fresh
    finally:
        module._main_ctx = saved


def in_own_context(search: F) -> F:
    """`search` run in a Z3 context of its own (own_context) at every call."""
    @wraps(search)
    def run(*args: Any, **kwargs: Any) -> Any:
        with own_context():
            return search(*args, **kwargs)
    return run  # type: ignore[return-value]
