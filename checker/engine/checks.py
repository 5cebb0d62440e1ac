"""Input rules a ruleset lays on a hand (its `hand_checks`): breaking one is bad input, not a lost hand.

Each check is a small function (hand, **params) returning None or the reason it fails; the spec gives the
check's id (the rule reported) and the message.
"""
from __future__ import annotations

from types import MappingProxyType
from typing import Callable, Final, Mapping, Sequence

from checker.engine.hand import MELD_KINDS, WIN_BY, Hand
from checker.params import COUNTER, FLAG, Params, Schema, either, integer, list_of, one_of

_checks: dict[str, tuple[Callable[..., str | None], Params]] = {}
CHECKS: Mapping[str, tuple[Callable[..., str | None], Params]] = MappingProxyType(_checks)
_about_a_flag: set[str] = set()
ABOUT_A_FLAG: frozenset[str] = frozenset()  # checks that can only fail when their `flag` parameter is set
_melds_only: set[str] = set()
MELDS_ONLY: frozenset[str] = frozenset()  # checks that read nothing of a hand but its declared melds
_required: dict[str, frozenset[str]] = {}
REQUIRED: Mapping[str, frozenset[str]] = MappingProxyType(_required)  # the parameters a spec must give each check


WIN: Final = one_of(*WIN_BY)


def check(name: str, params: Mapping[str, Schema] | None = None, about_flag: bool = False,
          required: tuple[str, ...] = (), melds_only: bool = False):
    """Register a check under `name`, taking keyword parameters `params`, each with its declared type
    (checker.params), of which `required` have no default; with `about_flag`, it can only fail when the hand
    has its `flag` (then `flag` is required); with `melds_only`, it reads nothing of the hand but its declared
    melds (a batch of hands holding the same melds runs it once: Scorer.score_wins)."""
    if about_flag and melds_only:
        raise ValueError(f"check {name!r}: a check about a flag reads the flags, not the melds alone")

    def register(fn):
        global ABOUT_A_FLAG, MELDS_ONLY
        needed = frozenset(required) | ({"flag"} if about_flag else set())
        _checks[name] = (fn, Params(params, needed))
        _required[name] = needed
        if about_flag:
            _about_a_flag.add(name)
            ABOUT_A_FLAG = frozenset(_about_a_flag)
        if melds_only:
            _melds_only.add(name)
            MELDS_ONLY = frozenset(_melds_only)
        return fn
    return register


@check("no_claims_after_knock", {"kinds": list_of(one_of(*MELD_KINDS))}, melds_only=True)
def no_claims_after_knock(hand: Hand, kinds=("chow", "pung")) -> str | None:
    """Once knocked a hand is locked: no meld of these kinds may have been claimed after knocking."""
    for m in hand.melds:
        if m.after_knock and m.kind in kinds:
            return f"the {m.text()} was claimed after knocking"
    return None


# a seat relative to the winner: 1 next, 2 across, 3 previous
@check("chow_from", {"seat": integer(1, 3)}, melds_only=True)
def chow_from(hand: Hand, seat=3) -> str | None:
    """A claimed chow comes from this seat only (3: the previous player, upstream)."""
    for m in hand.melds:
        if m.kind == "chow" and m.source is not None and m.source != seat:
            return f"the {m.text()} was claimed from seat {m.source}"
    return None


@check("flag_needs_counter", {"flag": FLAG, "counter": COUNTER}, about_flag=True, required=("counter",))
def flag_needs_counter(hand: Hand, flag: str, counter: str) -> str | None:
    """A flag that only makes sense with a counter set (e.g. a contract's detail without a contract)."""
    if flag in hand.flags and not hand.counter(counter):
        return f"flag {flag} is set but {counter} is not"
    return None


@check("flag_needs_third_party_discard", {"flag": FLAG, "counter": COUNTER}, about_flag=True, required=("counter",))
def flag_needs_third_party_discard(hand: Hand, flag: str, counter: str) -> str | None:
    """A flag about a discard by a player outside a relation: the win is on a discard, and the discarder is not
    the seat the counter names (the contract partner who won on the same discard did not discard it)."""
    if flag not in hand.flags:
        return None
    if hand.win_by != "discard":
        return f"flag {flag} needs a discard win, not a {hand.win_by.replace('_', ' ')} win"
    if hand.discarder == hand.counter(counter):
        return f"flag {flag} is set but the discarder, seat {hand.discarder}, is the seat {counter} names"
    return None


@check("flag_needs_meld", {"flag": FLAG, "kind": one_of(*MELD_KINDS)}, about_flag=True)
def flag_needs_meld(hand: Hand, flag: str, kind: str = "kong") -> str | None:
    """A flag that only makes sense when the winner has declared a meld of this kind (a kong's replacement
    draw needs a kong)."""
    if flag in hand.flags and not any(m.kind == kind for m in hand.melds):
        return f"flag {flag} is set but the winner has declared no {kind}"
    return None


@check("flag_needs_flowers", {"flag": FLAG}, about_flag=True)
def flag_needs_flowers(hand: Hand, flag: str) -> str | None:
    """A flower replacement draw needs a flower among the winner's flowers."""
    if flag in hand.flags and not hand.flowers:
        return f"flag {flag} is set but the winner holds no flower"
    return None


@check("last_copy_visible", {"flag": FLAG}, about_flag=True)
def last_copy_visible(hand: Hand, flag: str) -> str | None:
    """The other three copies of the winning tile cannot all be visible while the winner hides one of them."""
    if flag in hand.flags and hand.win_tile in hand.concealed:
        return f"flag {flag} is set but the winner holds another {hand.win_tile_name} concealed"
    return None


@check("flag_not_with_win", {"flag": FLAG, "win_by": either(WIN, list_of(WIN), description=(
    "one of " + ", ".join(WIN_BY) + ", or a list of one or more of them"))}, about_flag=True, required=("win_by",))
def flag_not_with_win(hand: Hand, flag: str, win_by: str | Sequence[str]) -> str | None:
    """A flag that cannot go with a way of winning, or with any of a list of them (no kong can be robbed on
    the last tile of the wall)."""
    if flag in hand.flags and (hand.win_by == win_by if isinstance(win_by, str) else hand.win_by in win_by):
        return f"flag {flag} cannot go with a {hand.win_by.replace('_', ' ')} win"
    return None
