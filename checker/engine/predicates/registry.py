"""The registry that maps predicate names used in spec files to their factories."""
from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Callable, Final, Mapping

from checker.params import Params, Schema

HAND: Final = "hand"
INTERPRETATION: Final = "interpretation"
SPECIAL: Final = "special"


@dataclass(frozen=True)
class PredicateKind:
    name: str
    make: Callable[..., Callable[[Any], Any] | None]
    params: Params  # each parameter's declared type (checker.params), checked by the spec loader
    scope: str
    # whether its answer depends only on the hand's tiles and their division into groups (not on which tile won,
    # how, which sets are exposed, the winds, flags or flowers): the hunter's exhaustive proofs read such a fan
    # once per concealed hand (tests/test_properties.py checks the claim)
    tiles_only: bool = False
    # whether a hand can gain it from its context alone (a flower, a flag, a counter), its tiles unchanged: the
    # hunter's non-monotonicity models grow such a fan on any winning hand
    context_only: bool = False
    # whether it holds for every winning hand, whatever its tiles and context (the base a hand earns for going
    # out): corpus strength proves a minimum such a fan always meets changes nothing (tests/test_properties.py
    # checks the claim)
    always: bool = False


_registered: dict[str, PredicateKind] = {}
PREDICATES: Mapping[str, PredicateKind] = MappingProxyType(_registered)


def predicate(name: str, params: Mapping[str, Schema] | None = None, scope: str = INTERPRETATION,
              tiles_only: bool = False, context_only: bool = False, always: bool = False,
              required: tuple[str, ...] = ()):
    """Register a predicate factory under `name`, taking the keyword parameters `params`, each with its
    declared type: a spec that loads gives the factory only values of those types (checker.params), and
    always the `required` ones (a flag name the spec must say: no spec word is written here).
    `tiles_only`: its answer reads nothing but the tiles and their division; `context_only`: a hand gains it
    from its context alone; `always`: it holds for every winning hand (see PredicateKind)."""
    if tiles_only and context_only:
        raise ValueError(f"predicate {name!r}: tiles_only and context_only exclude each other")

    def register(make):
        if name in _registered:
            raise ValueError(f"predicate {name!r} registered twice")
        _registered[name] = PredicateKind(name, make, Params(params, required), scope, tiles_only, context_only, always)
        return make

    return register


def gate(decide, shapes=None, chows=0, pungs=0, kongs=0, win_kind=None, honors=None, within=None, cores=None):
    """Declare when a decision function can possibly hold, so the scorer skips it elsewhere:
    only in these `shapes`, with at least `chows` chows / `pungs` pungs-or-kongs / `kongs` kongs, only
    when the winning tile filled a `win_kind` wait, or only when the hand holds `honors` ("winds" or
    "dragons"); `within`: only when every tile of the hand is in this tile mask (bit t for tile t; read by
    the hunter's proofs to narrow the hands they enumerate); `cores`: a function giving every group of sets
    that makes it hold (each a tuple of (CHOW or PUNG, lowest tile)): an interpretation where it holds has one
    of them among its sets (read by the equivalence proofs to enumerate the hands where it holds). Purely an
    optimisation: the function must still decide correctly on any interpretation."""
    if honors not in (None, "winds", "dragons"):
        raise ValueError(f"gate: honors must be 'winds' or 'dragons', not {honors!r}")
    decide.shapes = frozenset(shapes) if shapes else None
    decide.min_chows, decide.min_pungs, decide.min_kongs, decide.win_kind = chows, pungs, kongs, win_kind
    decide.honors = honors
    decide.within = within
    decide.cores = cores
    return decide


def hand_gate(decide, within=None, flag=None, win_by=None):
    """Declare when a hand-level decision function can possibly hold, so the scorer skips it elsewhere: only
    when every tile of the hand is in the tile mask `within` (bit t for tile t), only with the context `flag`
    set, or only when the hand was won in one of the `win_by` ways. Purely an optimisation: the function
    must still decide correctly on any hand."""
    decide.within, decide.flag = within, flag
    decide.win_by = frozenset(win_by) if win_by is not None else None
    return decide


class Planned:
    """A predicate to run for a hand or an interpretation: the rank of its pattern, its decision function and,
    for a hand-level one, its gate (see predicates.registry.hand_gate): `outside`, a tile mask (it cannot hold
    if the hand holds any of these tiles), the context `flag` it needs and the ways of winning `win_by` it
    allows. Plans are kept per structure and per context, as lists of these: the compiled engine reads them
    without checking every item's type."""

    def __init__(self, rank: int, decide: Callable[[Any], Any], outside: int = 0, flag: str | None = None,
                 win_by: frozenset[str] | None = None, tiles_only: bool = False):
        self.rank, self.decide, self.outside, self.flag, self.win_by = rank, decide, outside, flag, win_by
        self.tiles_only = tiles_only  # registered tiles_only: hands alike but for the winning tile share its answer
