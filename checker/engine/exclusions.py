"""Defaults and exceptions among the fans a reading finds: which count and which are withheld, and by which fan.

In order of value, a fan counts unless a counted fan withholds it (its `excludes`, with its `implies` closure under
the non-repeat principle, and what an `excludes_if` adds under the options); a fan kept from reusing a counted
fan's own sets (non-repeat within) or withheld only so many times counts with the instances left. The scorer
(checker.engine.scoring) builds one `ExclusionTable` per binding; patterns are their ranks (value order).
"""
from __future__ import annotations

from typing import Callable, Iterable


def withheld_by(excludes: Iterable[str], implies: Iterable[str], implied: Callable[[str], Iterable[str]]
                ) -> frozenset[str]:
    """What a counted fan withholds under the non-repeat principle (principle.non_repeat): its excludes and
    implies, and everything those imply in turn (`implied(id)`). Only `implies` (inclusion by definition) is
    followed onward: a fan another one excludes may itself exclude fans the first one does not contain."""
    out: set[str] = set()
    todo = list(excludes) + list(implies)
    while todo:
        pid = todo.pop()
        if pid not in out:
            out.add(pid)
            todo.extend(implied(pid))
    return frozenset(out)


class Withheld:
    """The fans withheld in one reading: withheld fan rank -> the rank of the fan withholding it (-1: the
    account-once principle), with the names written out once (`Score.withheld`). Shared between hands when
    it comes from the exclusion cache: read-only."""

    def __init__(self, by: dict[int, int]) -> None:
        self.by = by
        self._names: tuple[tuple[str, str], ...] | None = None

    def names(self, ids: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
        """(withheld fan id, id of the fan withholding it or "account_once") pairs, sorted."""
        if self._names is None:
            self._names = tuple(sorted((ids[t], ids[by] if by >= 0 else "account_once") for t, by in self.by.items()))
        return self._names


class Exclusions:
    """What exclusions leave of a set of fans found (ExclusionTable.of_fans): the counted fans in value order,
    the fans withheld (made from withheld fan -> the fan withholding it), the counted combination fans, and
    whether a non-repeat-within rule applies (then the instances decide: ExclusionTable.of_instances).
    Shared between hands: read-only."""

    def __init__(self, counted: tuple[int, ...], withheld: dict[int, int], combinations: tuple[int, ...],
                 needs_instances: bool):
        self.counted, self.withheld, self.combinations = counted, Withheld(withheld), combinations
        self.needs_instances = needs_instances


class ExclusionTable:
    """The exclusions of one binding, by rank: `blocks[i]`, the fans fan i withholds whole; `blocks_within[i]`,
    those it keeps from reusing its own sets; `blocks_some[i]`, (fan, how many instances) it withholds only so
    many of; `combination[i]`, whether fan i is a combination fan (account-once); `withheld_withhold`, whether a
    fan withheld still withholds its own `blocks` (principles.withheld_fans_withhold)."""

    def __init__(self, blocks: tuple[frozenset[int], ...], blocks_within: tuple[frozenset[int], ...],
                 blocks_some: tuple[tuple[tuple[int, int], ...], ...], combination: tuple[bool, ...],
                 withheld_withhold: bool = False):
        self.blocks, self.blocks_within, self.blocks_some = blocks, blocks_within, blocks_some
        self.combination = combination
        self.withheld_withhold = withheld_withhold
        self._cache: dict[tuple, Exclusions] = {}  # by the ranks of the fans found

    def of_fans(self, found: dict[int, tuple]) -> Exclusions:
        """Defaults and exceptions on the fans alone, in order of value: a fan counts unless a counted fan
        withholds it. Hands share few sets of fans, so the answer is kept per set, keyed by the ranks found
        in the order found (hand-level fans, then the interpretation's, each in rank order: the same set gives
        the same key); treat it as read-only."""
        key = tuple(found)
        cached = self._cache.get(key)
        if cached is None:
            blocks, blocks_within, combination = self.blocks, self.blocks_within, self.combination
            found_ids = frozenset(found)
            counted: list[int] = []
            withheld: dict[int, int] = {}
            blocked_by: dict[int, int] = {}
            needs_instances = False
            for i in sorted(found_ids):  # patterns are their ranks: sorted is value order
                if i in blocked_by:
                    withheld[i] = blocked_by[i]
                    if not self.withheld_withhold:
                        continue
                else:
                    counted.append(i)
                for target in blocks[i]:
                    blocked_by.setdefault(target, i)
                if i in withheld:
                    continue
                if blocks_within[i] & found_ids:
                    needs_instances = True
                for target, _ in self.blocks_some[i]:
                    if target in found_ids:
                        needs_instances = True
            cached = Exclusions(tuple(counted), withheld, tuple(i for i in counted if combination[i]), needs_instances)
            if len(self._cache) < 1 << 16:
                self._cache[key] = cached
        return cached

    def of_instances(self, found: dict[int, tuple]) -> tuple[dict[int, tuple], dict[int, int]]:
        """Defaults and exceptions when a counted fan keeps others from reusing its own sets (non-repeat
        within): a fan left with no instance is not counted and withholds nothing."""
        blocks, blocks_within = self.blocks, self.blocks_within
        counted: dict[int, tuple] = {}
        withheld: dict[int, int] = {}  # withheld fan -> the fan that withholds it (-1: account-once)
        blocked_by: dict[int, int] = {}
        within: dict[int, list[int]] = {}  # fan -> counted fans whose own sets it may not reuse
        some: dict[int, list[tuple[int, int]]] = {}  # fan -> (counted fan, how many of its instances it withholds)
        for i in sorted(found):
            if i in blocked_by:
                withheld[i] = blocked_by[i]
                insts: tuple = ()
            else:
                insts = found[i]
            for holder in within.get(i, ()):
                used = {g for inst in counted[holder] for g in inst}
                kept = tuple([inst for inst in insts if not set(inst) <= used])
                if len(kept) < len(insts):
                    withheld.setdefault(i, holder)
                insts = kept
            for holder, n in some.get(i, ()):
                if insts:
                    withheld.setdefault(i, holder)
                    insts = insts[n:]
            if not insts:  # withheld, or left with no instance of its own: withholding only where withheld fans do
                if self.withheld_withhold:
                    for target in blocks[i]:
                        blocked_by.setdefault(target, i)
                continue
            counted[i] = insts
            for target in blocks[i]:
                blocked_by.setdefault(target, i)
            for target in blocks_within[i]:
                within.setdefault(target, []).append(i)
            for target, n in self.blocks_some[i]:
                some.setdefault(target, []).append((i, n))
        return counted, withheld
