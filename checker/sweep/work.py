"""One shard of a sweep: its hands, each with every distinct winning tile and both ways of winning, scored by the
reference engine and by the engine it is checked against; what it returns is a summary small enough to send back
from a worker (counts, and per class of disagreement its count and first witness).

A hand of the space is its concealed tile counts, with what it holds beside them (a `Context`: melds, flags,
winds). Each distinct concealed tile may be the winning tile, won by self-draw or on a discard from the next player
(seat 1): up to 28 scored cases a hand (a case the ruleset's hand checks refuse under the context is ruled out). A
result is (may win, the rule refusing the win or None, points by fan id, the same for each other reading worth as
much): the reference gives every best reading (the spec keeps the highest-scoring interpretation; readings worth
the same are equally right), an engine one. Two results agree when they agree on whether the hand may win and, when
it may, on every fan's points in some best reading (no hand of these spaces holds a flower: the spaces' cases carry
none). A disagreement's class is the set of fans whose points differ (with both sides' points), or the two verdicts
when one side refuses the win. The report scores a sample of hands on both engines the same way (`cases_at`).
"""
from __future__ import annotations

import inspect
from contextlib import contextmanager
from dataclasses import dataclass, replace
from functools import lru_cache
from collections.abc import Mapping
from typing import Any, Callable, Iterator, Sequence

from checker import tiles as T
from checker.case import fans_of, hand_input, readings_of
from checker.engine import Hand, HandError, Meld, Scorer
from checker.engine.checks import CHECKS
from checker.engine.hand import parse_meld_text
from checker.engine.interpretation import DRAGON_MASK
from checker.space.concealed import ALL_TILES, ConcealedSpace
from checker.space.open import OpenSpace, caps_of
from checker.space.special import SpecialSpace
from checker.space.wins import wins_of
from checker.spec.bind import bind

Space = ConcealedSpace | OpenSpace | SpecialSpace
Batch = Callable[[list[Hand]], list[tuple]]  # a hand's cases → their results, as the sweep compares them

SPACES = {"concealed": "every concealed complete regular hand (four sets and a pair, no melds): 11,498,658 hands; "
                        "with --meld, every concealed part that completes the melds given",
          "open": "every hand of 1 to --open-melds declared melds (123 kinds: chows, pungs, exposed and concealed "
                  "kongs) with every concealed part that completes them: 94,285,956 hands of one meld, "
                  "390,860,172 of up to two, 815,851,650 of up to three, 1,050,550,599 of up to four",
          "special": "every concealed hand of a special shape: seven pairs (four identical tiles as two pairs "
                     "included), thirteen orphans, honors-and-knitted, knitted straight with a set and a pair: "
                     "16,428,853 hands"}


@dataclass(frozen=True)
class Context:
    """What a hand of a sweep holds beside its concealed tiles: declared melds, context flags, the seat and round
    winds. A sweep's plan keeps it as text (`{"melds": [...], "flags": [...], ...}`), read by `context_of`."""

    melds: tuple[Meld, ...] = ()
    flags: frozenset[str] = frozenset()
    seat_wind: int = T.WIND_TILES["E"]
    round_wind: int = T.WIND_TILES["E"]

    def caps(self) -> tuple[int, ...]:
        """Per tile type, the copies the melds leave for the concealed part."""
        return caps_of(self.melds)

    def __bool__(self) -> bool:
        return bool(self.melds or self.flags) or self.seat_wind != T.WIND_TILES["E"] \
            or self.round_wind != T.WIND_TILES["E"]


def context_of(data: Mapping[str, Any] | None) -> Context:
    """A sweep's context from its plan (`{"melds": ["pung:555p@2"], "flags": [...], "seat_wind": "S", ...}`);
    HandError naming a meld or wind that cannot be read."""
    data = data or {}
    winds = {}
    for key in ("seat_wind", "round_wind"):
        letter = str(data.get(key, "E"))
        if letter not in T.WIND_TILES:
            raise HandError(f"{key} {letter!r}: use E, S, W or N", f"input.{key}")
        winds[key] = T.WIND_TILES[letter]
    return Context(tuple(parse_meld_text(m) for m in data.get("melds", [])), frozenset(data.get("flags", [])),
                   winds["seat_wind"], winds["round_wind"])


def space_of(name: str, context: Context = Context(), ruleset_id: str | None = None,
             open_melds: int = 1, options: Mapping[str, Any] | None = None) -> Space:
    """The space's hands (the concealed part that completes the context's melds; for `open`, hands of 1 to
    `open_melds` melds, chows claimed from the seat the ruleset allows under `options`); under a ruleset whose
    dragons are flowers (`tiles.dragons_as_flowers`), the hands without dragons."""
    if name not in SPACES:
        raise ValueError(f"unknown space {name!r}: this sweep knows {', '.join(SPACES)}")
    tiles = ALL_TILES
    if ruleset_id is not None and worker_runner().ruleset(ruleset_id).dragons_as_flowers:
        tiles &= ~DRAGON_MASK
    if name == "open":
        return _open_space(open_melds, tiles, chow_seat(ruleset_id, options) if ruleset_id is not None else 3)
    if name == "special":
        return _special_space(tiles)
    if not context.melds and tiles == ALL_TILES:
        return _concealed_space(ALL_TILES, 4, None)
    return _concealed_space(tiles, 4 - len(context.melds), context.caps())


def chow_seat(ruleset_id: str, options: Mapping[str, Any] | None = None) -> int:
    """The seat a claimed chow comes from under the ruleset and options: the seat its `chow_from` hand check names
    (the check's own default when the spec gives none); the previous player, 3, when no check limits it."""
    params = bind(worker_runner().ruleset(ruleset_id), options).check_params("chow_from")
    if params is None:
        return 3
    if "seat" not in params:
        return int(inspect.signature(CHECKS["chow_from"][0]).parameters["seat"].default)
    return int(params["seat"])


@lru_cache(maxsize=4)
def _concealed_space(tiles: int, sets: int, caps: tuple[int, ...] | None) -> ConcealedSpace:
    """A concealed space, built once a process (a third of a second: the plan asks its size more than once)."""
    return ConcealedSpace(tiles=tiles, sets=sets, caps=caps)


@lru_cache(maxsize=4)
def _open_space(melds: int, tiles: int, seat: int) -> OpenSpace:
    """An open space, sized once a process (seconds for one meld, about a minute for up to four)."""
    return OpenSpace(melds, tiles, seat)


@lru_cache(maxsize=2)
def _special_space(tiles: int) -> SpecialSpace:
    """The special shapes' space, sized once a process (the knitted straights take a second)."""
    return SpecialSpace(tiles)


def items_of(space: Space, context: Context, start: int,
             stop: int) -> Iterator[tuple[Context, tuple[int, ...]]]:
    """The hands numbered start … stop-1 as (what they hold beside their concealed tiles, those tiles' counts)."""
    if isinstance(space, OpenSpace):
        for melds, counts in space.hands(start, stop):
            yield replace(context, melds=melds), counts
    else:
        for counts in space.hands(start, stop):
            yield context, counts


def cases_of(counts: tuple[int, ...], context: Context = Context()) -> Iterator[Hand]:
    """The hand with each distinct concealed tile as the winning tile, self-drawn and on a discard (from the
    next player), with the context's melds, flags and winds (checker.space.wins)."""
    return wins_of(counts, context.melds, context.flags, context.seat_wind, context.round_wind)


def compared(s: Any) -> tuple:
    """A reference Score as the sweep compares it (a result: see the module's docstring)."""
    return (s.valid, s.error if not s.valid else None, {f.id: f.total for f in s.fans},
            tuple({f.id: f.total for f in other} for other in s.alternatives))


def reference_batch(scorer: Scorer) -> Batch:
    """The reference engine's results of a hand's cases (`cases_of`), scored in one batch
    (Scorer.fan_totals_of_wins: no fan lines, payments or messages are made)."""
    def results(hands: list[Hand]) -> list[tuple]:
        return scorer.fan_totals_of_wins(hands)
    return results


def pymahjonggb(scorer: Scorer) -> Batch:
    """PyMahjongGB's results of a hand's cases (in process), as the sweep compares them."""
    from checker.conform.pymahjonggb import PyMahjongGB, calculator

    engine = PyMahjongGB(worker_runner(), calculator())

    def results(hands: list[Hand]) -> list[tuple]:
        return [(*r, ()) for r in engine.fan_totals_of_wins(hands, scorer)]
    return results


class ConformEngine:
    """Any engine `mjcheck conform` accepts by name (`python:MODULE:FUNCTION`, `cmd:COMMAND`), asked each hand's
    cases as score cases (the sweep's `against_options` as their `options`); an answer that is an error, not a
    result, is a refusal named `errored`. Start it before a shard and stop it after."""

    def __init__(self, spec: str, ruleset_id: str, options: Mapping[str, Any]):
        from checker.conform.engines import engine_from_spec

        self.engine = engine_from_spec(spec)
        self.ruleset_id, self.options = ruleset_id, dict(options)

    def __enter__(self) -> "ConformEngine":
        self.engine.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.engine.stop()

    def __call__(self, hands: list[Hand]) -> list[tuple]:
        base: dict[str, Any] = {"kind": "score", "ruleset": self.ruleset_id}
        if self.options:
            base["options"] = self.options
        cases = [(i, {**base, "id": f"sweep-{i}", "input": hand_input(h, sorted(h.flags))}) for i, h in enumerate(hands)]
        out: list[tuple] = [(False, "errored", {}, ())] * len(hands)
        for i, answer in self.engine.run(cases):
            if answer.result is not None:
                out[i] = result_of(answer.result)
        return out


def result_of(result: Mapping[str, Any]) -> tuple:
    """A result in the case format (`expect`'s shape, `either` allowed) as the sweep compares it."""
    readings = readings_of(result)
    if not readings:
        return False, "errored", {}, ()

    def fans(reading: Mapping[str, Any]) -> dict[str, int]:
        out: dict[str, int] = {}
        for f in fans_of(reading):
            fid = str(f.get("id"))
            points, count = f.get("points", 0), f.get("count", 1)
            total = points * count if isinstance(points, int) and isinstance(count, int) else 0
            out[fid] = out.get(fid, 0) + total
        return out

    first = readings[0]
    if not first.get("valid"):
        return False, str(first.get("error") or "refused"), {}, ()
    return True, None, fans(first), tuple(fans(r) for r in readings[1:])


@lru_cache(maxsize=1)
def worker_runner() -> Any:
    """The worker process's case runner: the specs are read once a process, not once a shard."""
    from checker.case import CaseRunner
    return CaseRunner()


def agree(mine: tuple, theirs: tuple) -> bool:
    """Whether two results (see the module's docstring) agree: both refuse the win (whatever each calls the reason), or both
    allow it with the same fans in some reading each side counts as best."""
    if mine[0] != theirs[0]:
        return False
    if not mine[0] or mine[2] == theirs[2]:
        return True
    ours = [mine[2], *mine[3]]
    for fans in (theirs[2], *theirs[3]):
        if fans in ours:
            return True
    return False


def difference(mine: tuple, theirs: tuple) -> tuple | None:
    """The class of a disagreement (None: the results agree): the two verdicts when one side refuses the win,
    else the fans whose points differ between the first best readings of each side."""
    if agree(mine, theirs):
        return None
    if mine[0] != theirs[0]:
        return (("verdict", mine[1] or "win", theirs[1] or "win"),)
    fans = sorted(set(mine[2]) | set(theirs[2]))
    return tuple((f, mine[2].get(f, 0), theirs[2].get(f, 0)) for f in fans if mine[2].get(f, 0) != theirs[2].get(f, 0))


def sweep_shard(ruleset_id: str, space: str, start: int, stop: int, options: Mapping[str, Any],
                against: str, against_options: Mapping[str, Any],
                context_data: Mapping[str, Any] | None = None, open_melds: int = 1) -> dict[str, Any]:
    """Score the hands numbered start … stop-1 both ways; return the shard's summary. With a context, a case
    the ruleset's hand checks refuse (a flag a way of winning may not carry) is counted `ruled_out`."""
    context = context_of(context_data)
    with both_engines(ruleset_id, options, against, against_options) as (scorer, mine, theirs):
        return _sweep(space_of(space, context, ruleset_id, open_melds, options), start, stop, scorer, mine, theirs,
                      context)


@contextmanager
def both_engines(ruleset_id: str, options: Mapping[str, Any], against: str,
                 against_options: Mapping[str, Any]) -> Iterator[tuple[Scorer, Batch, Batch]]:
    """The reference engine's scorer and batch under `options`, and the batch of the engine it is checked against
    (a `python:` or `cmd:` engine started for the `with` block and stopped after)."""
    runner = worker_runner()
    scorer = runner.scorer(ruleset_id, dict(options))
    mine = reference_batch(scorer)
    other_scorer = runner.scorer(ruleset_id, dict(against_options))
    if against == "reference":
        yield scorer, mine, reference_batch(other_scorer)
    elif against == "pymahjonggb":
        yield scorer, mine, pymahjonggb(other_scorer)
    else:
        with ConformEngine(against, ruleset_id, against_options) as engine:
            yield scorer, mine, engine


def cases_at(ruleset_id: str, space: str, runs: Sequence[tuple[int, int]], options: Mapping[str, Any],
             against: str, against_options: Mapping[str, Any], context_data: Mapping[str, Any] | None = None,
             open_melds: int = 1) -> list[tuple[dict[str, Any], tuple, tuple]]:
    """Every case of the hands numbered by `runs` (start, stop), those the context allows, as (its input, the
    reference's result, the other engine's), both as the sweep compares them: what a report samples at its end."""
    context = context_of(context_data)
    hands = space_of(space, context, ruleset_id, open_melds, options)
    out: list[tuple[dict[str, Any], tuple, tuple]] = []
    with both_engines(ruleset_id, options, against, against_options) as (scorer, mine, theirs):
        for start, stop in runs:
            for held, counts in items_of(hands, context, start, stop):
                cases_here = list(cases_of(counts, held))
                if held:
                    cases_here = [h for h in cases_here if scorer.accepts(h)]
                out += [(hand_input(h, sorted(h.flags)), a, b)
                        for h, a, b in zip(cases_here, mine(cases_here), theirs(cases_here))]
    return out


def _sweep(space: Space, start: int, stop: int, scorer: Scorer, mine: Batch, theirs: Batch,
           context: Context) -> dict[str, Any]:
    hands = cases = agreed = ruled_out = 0
    classes: dict[tuple, dict[str, Any]] = {}
    for held, counts in items_of(space, context, start, stop):
        hands += 1
        cases_here = list(cases_of(counts, held))
        if held:
            allowed = [h for h in cases_here if scorer.accepts(h)]
            ruled_out += len(cases_here) - len(allowed)
            cases_here = allowed
        ours = mine(cases_here)
        others = theirs(cases_here)
        for i, hand in enumerate(cases_here):
            cases += 1
            a = ours[i]
            b = others[i]
            key = difference(a, b)
            if key is None:
                agreed += 1
                continue
            entry = classes.get(key)
            if entry is None:
                classes[key] = {"count": 1, "witness": hand_input(hand, sorted(hand.flags)),
                                "reference": shown(a), "other": shown(b)}
            else:
                entry["count"] += 1
    return {"start": start, "stop": stop, "hands": hands, "cases": cases, "agreed": agreed, "ruled_out": ruled_out,
            "classes": [{"key": [list(k) for k in key], **entry} for key, entry in classes.items()]}


def context_refusal(plan: Any) -> str | None:
    """Why a sweep's context leaves nothing to check (its melds leave no complete hand, or the ruleset's hand
    checks refuse every case of the space's first hand), or None."""
    context = context_of(plan.context)
    space = space_of(plan.space, context, plan.ruleset, plan.open_melds, plan.options)
    if space.size == 0:
        return "the melds leave no tiles to complete a hand"
    scorer = worker_runner().scorer(plan.ruleset, dict(plan.options))
    problem = ""
    held, counts = next(items_of(space, context, 0, 1))
    for hand in cases_of(counts, held):
        try:
            scorer.check(hand)
        except HandError as exc:
            problem = f"{exc} [{exc.rule}]"
            continue
        return None
    return problem


def describe_context(data: Mapping[str, Any]) -> str:
    """A sweep's context in words, for its messages and report ("" when it has none)."""
    parts = []
    if data.get("melds"):
        parts.append("melds " + " ".join(data["melds"]))
    if data.get("flags"):
        parts.append("flags " + ", ".join(data["flags"]))
    for key in ("seat_wind", "round_wind"):
        if key in data:
            parts.append(f"{key.replace('_', ' ')} {data[key]}")
    return "; ".join(parts)


def shown(result: tuple) -> dict[str, Any]:
    """A result (see the module's docstring) as a shard keeps it: `{"valid", "error", "fans": {id: points}}`, and
    `other_readings` when the reference gives several best readings."""
    out = {"valid": result[0], "error": result[1], "fans": result[2]}
    if result[3]:
        out["other_readings"] = list(result[3])
    return out
