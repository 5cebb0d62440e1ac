"""Dead rules, proved by enumeration rather than sampling: an exclusion between two fans that no hand holds
together in one reading, and a fan no hand can score under one reading of an option.

The proofs read the concealed complete regular hands of checker.space, narrowed by what the fans' own
definitions declare (their gates: the tiles they allow, the chows or pungs they need; the engine's property
tests check the gates), and ask the engine which fans each hand holds in each of its readings
(`Scorer.found_fans`, before any exclusion). Only fans that read nothing but the tiles and their division
(predicates registered `tiles_only`) are proved this way: for them one concealed self-drawn hand stands for
every hand of the same tiles, whatever its melds, winning tile or way of winning. The special shapes are read
from their own spaces (checker.space.special). Hands with kongs, and shapes this package does not enumerate,
are outside: a pair or fan that could meet there is left unproved.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from checker import tiles as T
from checker.case import CaseRunner
from checker.engine import Hand, Scorer
from checker.engine.predicates import PREDICATES
from checker.hunt.allowance import Allowance
from checker.hunt.findings import Finding
from checker.hunt.options import outcome
from checker.space.concealed import ALL_TILES, SETS, ConcealedSpace
from checker.space.special import SPECIAL_SPACES
from checker.spec import Ruleset, options_text, value_key


class CutShort(Exception):
    """An exhaustive proof that its time ran out on: neither proved nor refuted (the hunt may give it more)."""


@dataclass
class Proof:
    """One exhaustive search: the space, how many hands were read, the first hand where each fan held, and the
    first where all held together (None: they never did)."""

    size: int  # the hands of the spaces read (known before reading them)
    described: str
    checked: int
    holding: dict[str, int]  # fan id -> hands where it held
    first: dict[str, tuple[int, ...]]  # fan id -> the first hand (tile counts) where it held
    together: tuple[int, ...] | None
    complete: bool  # the whole space was read (not cut short by the deadline)


def narrowing(scorer: Scorer, ids: Iterable[str]) -> tuple[list[Any], str] | None:
    """The spaces where the fans `ids` can hold together by their gates (the regular hands narrowed to a tile
    mask and the numbers of chows a division may have, and each special shape of the ruleset that the gates
    allow), with those conditions in words for a player; None when the spaces cannot hold every hand where
    they might meet (a fan reads more than the tiles, needs a kong, or the ruleset has a shape this package does
    not enumerate, such as 乱风 or 八花齐, that the gates allow)."""
    tiles, min_chows, min_pungs = ALL_TILES, 0, 0
    shapes: set[str] = {name for name, _ in scorer.shapes}
    by_id = {b.id: b for b in scorer.patterns}
    for pid in ids:
        b = by_id.get(pid)
        if b is None or b.decide is None or not PREDICATES[b.pattern.when.name].tiles_only:
            return None
        decide = b.decide
        within = getattr(decide, "within", None)
        if within is not None:
            tiles &= within
        if getattr(decide, "min_kongs", 0):
            return None
        min_chows = max(min_chows, getattr(decide, "min_chows", 0))
        min_pungs = max(min_pungs, getattr(decide, "min_pungs", 0))
        allowed = getattr(decide, "shapes", None)
        if allowed is not None:
            shapes &= set(allowed)
    sets = min_chows + min_pungs
    spaces: list[Any] = []
    for name in sorted(shapes):
        if name == "regular":
            chows = frozenset(c for c in range(SETS + 1) if c >= min_chows and SETS - c >= min_pungs)
            spaces.append(ConcealedSpace(tiles=tiles, chows=chows))
        elif name == "knitted_straight" and sets <= 1 or name in SPECIAL_SPACES and sets == 0:
            spaces.append(SPECIAL_SPACES[name](tiles))
        elif name not in SPECIAL_SPACES:
            return None
    words = []
    if min_chows:
        words.append(f"at least {min_chows} chow(s)")
    if min_pungs:
        words.append(f"at least {min_pungs} pung(s)")
    if tiles != ALL_TILES:
        words.append("only the tiles " + T.format_tiles([t for t in range(T.NUM_TILE_TYPES) if tiles >> t & 1]))
    shown = ", ".join(s.name.replace("_", " ") for s in spaces) or "no shape"
    return spaces, (", ".join(words) or "any tiles") + f"; shapes: {shown}"


def concealed_hand(counts: tuple[int, ...]) -> Hand:
    """A concealed hand of these tile counts, self-drawn on its last tile (the fans proved read only the
    tiles: any winning tile stands for all)."""
    tiles = [t for t, n in enumerate(counts) for _ in range(n)]
    return Hand(tuple(tiles[:-1]), (), tiles[-1], "self_draw")


def prove(scorer: Scorer, ids: list[str], deadline: Allowance | float, together: bool = True) -> Proof | None:
    """Read every hand of the spaces the fans' gates allow; stop at the first reading holding all of `ids`
    (with `together`) or, without it, at the first hand where each has held. None: no space can prove it.
    `deadline`: how far it may go (an Allowance, or a `time.monotonic()` moment); past it, the proof is
    returned incomplete."""
    allowance = Allowance.of(deadline)
    narrowed = narrowing(scorer, ids)
    if narrowed is None:
        return None
    spaces, words = narrowed
    ranks = {scorer.rank[pid]: pid for pid in ids}
    holding = {pid: 0 for pid in ids}
    first: dict[str, tuple[int, ...]] = {}
    checked = 0
    size = sum(space.size for space in spaces)
    for space in spaces:
        for counts in space.hands():
            if checked % 2048 == 0 and allowance.spent(checked):
                return Proof(size, words, checked, holding, first, None, False)
            checked += 1
            seen: set[str] = set()
            for _, found in scorer.found_fans(concealed_hand(counts)):
                here = {ranks[r] for r in found if r in ranks}
                seen |= here
                if together and len(here) == len(ranks):
                    return Proof(size, words, checked, _count(holding, seen),
                                 {**first, **{p: counts for p in here}}, counts, True)
            for pid in seen:
                holding[pid] += 1
                first.setdefault(pid, counts)
            if not together and len(first) == len(ids):
                return Proof(size, words, checked, holding, first, None, True)
    return Proof(size, words, checked, holding, first, None, True)


def companions(scorer: Scorer, pid: str, deadline: Allowance | float) -> set[str] | None:
    """The fans of the tiles alone found in every reading that holds `pid`, over every hand its gates allow (its
    space read to the end); None when no space can tell, the space was not read to the end, or `pid` never holds
    there. (The space's hands are concealed and self-drawn: fans of the context are left out.)"""
    allowance = Allowance.of(deadline)
    narrowed = narrowing(scorer, [pid])
    if narrowed is None:
        return None
    rank, common, checked = scorer.rank[pid], None, 0
    for space in narrowed[0]:
        for counts in space.hands():
            if checked % 2048 == 0 and allowance.spent(checked):
                return None
            checked += 1
            for _, found in scorer.found_fans(concealed_hand(counts)):
                if rank in found:
                    common = set(found) if common is None else common & set(found)
    if common is None:
        return None
    tiles_only = {b.id for b in scorer.patterns if PREDICATES[b.pattern.when.name].tiles_only}
    return ({scorer.ids[r] for r in common} & tiles_only) - {pid}  # context fans (self-drawn) say nothing here


def unnamed_companions(runner: CaseRunner, ruleset: Ruleset, pid: str, deadline: Allowance | float) -> str:
    """In words: the fans every hand holding `pid` also holds that its row does not exclude, and how each
    reading of the non-repeat principle then counts them; empty when there are none (or no proof)."""
    scorer = runner.scorer(ruleset.id, {})
    always = companions(scorer, pid, deadline)
    pattern = next(p for p in ruleset.patterns if p.id == pid)
    unnamed = sorted((always or set()) - set(pattern.excludes))
    if not unnamed:
        return ""
    names = {p.id: p.name_en for p in ruleset.patterns}
    blocked = next((b.blocks for b in scorer.patterns if b.id == pid), frozenset())
    shown = ", ".join(f"{names[q]} ({'withheld under the default readings as included by definition' if q in blocked else 'counted with it'})"
                      for q in unnamed)
    return (f" Every hand holding {names[pid]} also holds, in the same reading, {shown}; the row does not name "
            f"{'it' if len(unnamed) == 1 else 'them'}.")


def _count(holding: dict[str, int], seen: set[str]) -> dict[str, int]:
    return {pid: n + (pid in seen) for pid, n in holding.items()}


def case_input(ruleset: Ruleset, counts: tuple[int, ...]) -> dict[str, Any]:
    """The hand as a case input, with the flags the ruleset requires of every win (the knock)."""
    from checker.case import hand_input

    return hand_input(concealed_hand(counts), flags=list(ruleset.win.required_flags))


def exclusion_pairs(ruleset: Ruleset) -> list[tuple[str, str]]:
    """Each (fan, fan it excludes) as the spec's table writes them, in table order."""
    known = {p.id for p in ruleset.patterns}
    return [(p.id, q) for p in ruleset.patterns for q in p.excludes if q in known]


def hunt_dead_exclusion(runner: CaseRunner, ruleset: Ruleset, first: str, second: str,
                        deadline: Allowance | float) -> Finding | None:
    """A dead-rule finding when the exhaustive search proves `first` and `second` never hold in one reading."""
    scorer = runner.scorer(ruleset.id, {})
    proof = prove(scorer, [first, second], deadline)
    if proof is not None and not proof.complete:
        raise CutShort(f"{first} excludes {second}")
    if proof is None or proof.together is not None:
        return None  # unprovable here, or they meet
    names = {p.id: p.name_en for p in ruleset.patterns}
    if proof.size:
        if first not in proof.first:
            return None  # the excluding fan itself never holds there: a different question
        found_in = (f"Proved by reading all {proof.checked:,} concealed complete hands that the two fans' "
                    f"definitions allow ({proof.described}; no kongs), each in every division: {names[first]} "
                    f"holds in {proof.holding[first]:,} of them, {names[second]} in {proof.holding[second]:,}, "
                    f"never both in the same reading.")
        shown = proof.first[first]
    else:  # no division has what both need: the witness is any hand of the first
        alone = prove(scorer, [first], deadline, together=False)
        if alone is not None and first not in alone.first and not alone.complete:
            raise CutShort(first)
        if alone is None or first not in alone.first:
            return None
        why = ("no division of four sets and a pair holds that many chows and pungs" if "shapes: no shape" not in
               proof.described else "their definitions hold in different shapes, and one reading has one shape")
        found_in = (f"No hand has what the two fans need together in one reading ({proof.described}): {why}, so "
                    f"there is no hand to read.")
        shown = alone.first[first]
    witness = case_input(ruleset, shown)
    result = outcome(runner, ruleset.id, {}, witness)
    also = unnamed_companions(runner, ruleset, first, deadline)
    return Finding(
        ruleset=ruleset.id, kind="dead-rule", key=f"dead-rule.excludes.{first}.{second}",
        title=f"{names[first]} excludes {names[second]}, yet no hand holds both in one reading: the exclusion "
              f"never applies",
        rules=[f"fan.{first}", f"fan.{second}"],
        witness={"ruleset": ruleset.id, "options": {}, "kind": "score", "input": witness},
        outcomes=[{"reading": f"{names[first]} as the table writes it, excluding {names[second]}", "result": result},
                  {"reading": "the same row without that exclusion", "result": result,
                   "why": f"{names[second]} is not among the fans of any hand holding {names[first]}"}],
        method="exhaustive",
        note=f"{found_in} Both fans read only the tiles and their division, so the melds, the winning tile and the "
             f"way of winning change nothing. The witness is the first hand holding {names[first]}.{also}")


def readings_changing(ruleset: Ruleset, pid: str) -> list[tuple[str, Any]]:
    """The (option, value) readings other than the defaults under which the fan's definition differs."""
    pattern = next(p for p in ruleset.patterns if p.id == pid)
    out = []
    for oid, option in ruleset.options.items():
        if option.read_by == "table":
            continue
        named = any(getattr(v, "option", None) == oid for v in pattern.when.params.values())
        named = named or (pattern.active_if is not None and oid in repr(pattern.active_if))
        if named:
            out += [(oid, v) for v in option.other_values()]
    return out


def hunt_dead_pattern(runner: CaseRunner, ruleset: Ruleset, pid: str, options: Mapping[str, Any],
                      deadline: Allowance | float) -> Finding | None:
    """A dead-rule finding when, under `options` (one reading), no hand can score the fan `pid` at all; the
    witness is a hand scoring it under the default readings."""
    scorer = runner.scorer(ruleset.id, dict(options))
    if pid not in scorer.rank:
        return None  # the reading drops the pattern itself: the spec says so (active_if)
    proof = prove(scorer, [pid], deadline, together=False)
    if proof is not None and not proof.complete:
        raise CutShort(pid)
    if proof is None or proof.first:
        return None
    default = prove(runner.scorer(ruleset.id, {}), [pid], deadline, together=False)
    if default is not None and pid not in default.first and not default.complete:
        raise CutShort(pid)
    if default is None or pid not in default.first:
        return None  # dead under the defaults too: not a question of this reading
    pattern = next(p for p in ruleset.patterns if p.id == pid)
    witness = case_input(ruleset, default.first[pid])
    shown = options_text(options)
    means = "; ".join(str(ruleset.options[k].readings.get(value_key(v), "")) for k, v in options.items())
    return Finding(
        ruleset=ruleset.id, kind="dead-rule", key=f"dead-rule.pattern.{pid}.{shown}",
        title=f"under {shown}, no hand can score {pattern.name_en} ({pattern.name_zh}), which the document prices",
        rules=[f"fan.{pid}"] + [f"option.{k}" for k in options],
        witness={"ruleset": ruleset.id, "options": {}, "kind": "score", "input": witness},
        outcomes=[{"reading": "the default readings", "result": outcome(runner, ruleset.id, {}, witness)},
                  {"reading": f"{shown}: {means}" if means else shown,
                   "result": outcome(runner, ruleset.id, dict(options), witness),
                   "case": {"ruleset": ruleset.id, "options": {k: v for k, v in options.items()}, "kind": "score",
                            "input": witness}}],
        method="exhaustive", deciding_option=next(iter(options), None),
        note=f"Proved by reading every concealed complete hand its definition allows under {shown} "
             f"({proof.described}; {proof.checked:,} hands, no kongs): none holds it. Under the default readings "
             f"the witness scores it.")
