"""The settlement model's proved claims cross-examined by the engine: before a claim (checker.hunt.proofs) is
printed proved, the engine scores real hands over the claim's own domain and looks for one that breaks it.

The model counts patterns independently of one another; a hand does not. A self-draw removes Melded hand, 杠开
comes with a kong or a flower, several players may win on one discard. So each proved claim is put to hands:
- zero-sum: every hand of the pool at every table (self-drawn, a discard from each seat, a robbed kong);
- the single-hand limit: the same, each payer's value loss (its shares' 底分 read off the model, whose payments
  must be the engine's), and, where one discard may have several winners, the two or three largest losses of one
  discarder to hands of the pool won on its discard from distinct seats;
- monotone: each hand grown by its context alone (self-drawn instead of a discard, one more flower, a counter
  one higher, a flag set) where the engine then counts the pattern once more;
- interaction: each hand at each table and each counter at the corners of its range (0, 1, 2, 3, its most),
  scored under the four readings.
A counter-example turns the claim refuted, with the hands as its witness and `by` "engine": the model proved
something the engine's hands contradict, which is a finding against the model (the hunt says so and fails).
The pool is the ruleset's known hands and seeded candidate hands; the scorings a claim may spend are bounded.
"""
from __future__ import annotations

from dataclasses import replace
from itertools import permutations, product
from typing import Any, Callable, Collection, Iterable, Iterator, Mapping, Sequence

from checker import tiles as T
from checker.case import CaseRunner
from checker.engine.shapes import CHOW, group_tiles, regular_divisions
from checker.hunt.limit import at_table
from checker.hunt.monotonic import one_more_flower
from checker.case import hand_from_input, readings_of
from checker.engine import HandError
from checker.hunt.settle import SEATS, Claim, SettlementModel, limit_of, lost_in_value, result_words
from checker.mutate.candidates import random_candidates, targeted_candidates
from checker.spec import Ruleset
from checker.spec.bind import bind

MAX_SCORED = 6000  # engine scorings one claim's cross-examination may spend
RANDOM_HANDS = 150  # seeded candidate hands added to the ruleset's known hands
SEED = 0
CORNERS = (0, 1, 2, 3)  # a counter's values tried (and its most)
MOST_PER_SEAT = 6  # hands with the largest losses at each discarder's seat tried together

TABLES: tuple[dict[str, Any], ...] = (
    {"win_by": "self_draw"}, {"win_by": "discard", "discarder": 1}, {"win_by": "discard", "discarder": 2},
    {"win_by": "discard", "discarder": 3}, {"win_by": "robbing_kong", "discarder": 1},
)


class _Spent(Exception):
    """The claim's scorings are spent: the search stops, and says how far it got."""


class Engine:
    """The engine's results for hand inputs under one set of readings, counted against MAX_SCORED."""

    def __init__(self, runner: CaseRunner, ruleset: Ruleset, most: int = MAX_SCORED):
        self.runner, self.ruleset, self.most, self.scored = runner, ruleset, most, 0

    def __call__(self, options: Mapping[str, Any], data: Mapping[str, Any]) -> dict[str, Any]:
        return self.score(options, data)[0]

    def score(self, options: Mapping[str, Any], data: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, int]]:
        """The result (the case `expect` shape) and the patterns the hand counts, also when the win is refused
        for its points (the refusal names the rule; the patterns are what it counted)."""
        if self.scored >= self.most:
            raise _Spent
        self.scored += 1
        scorer = self.runner.scorer(self.ruleset.id, dict(options))
        try:
            scored = scorer.score(hand_from_input(data, scorer))
        except HandError as exc:
            return {"valid": False, "error": exc.rule}, {}
        counts: dict[str, int] = {}
        for line in scored.fans:
            counts[line.id] = counts.get(line.id, 0) + int(line.count)
        return dict(readings_of(scored.as_expect())[0]), counts


def chow_seat(ruleset: Ruleset) -> int:
    """The seat a chow is claimed from under the ruleset's bound hand check chow_from (its `seat`; the previous
    seat, 3, where the check names none or any seat may be)."""
    params = bind(ruleset).check_params("chow_from")
    seat = params.get("seat") if params else None
    return int(seat) if isinstance(seat, int) and not isinstance(seat, bool) else 3


def hand_pool(ruleset: Ruleset, known: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The hands a claim is put to: the known hands, the targeted constructions, then seeded random ones; then
    each hand of four sets and a pair with every set melded, won on its pair's tile from a discard (the corner
    of the hand's domain where a self-draw costs most: Melded hand, 全求人)."""
    out, seen = [], set()
    every = [*known, *(data for _, data in targeted_candidates(ruleset)),
             *(data for _, data in random_candidates(ruleset, SEED, RANDOM_HANDS))]
    seat = chow_seat(ruleset)
    every += [melded for data in list(every) for melded in [all_melded(data, seat)] if melded is not None]
    for data in every:
        key = repr(sorted(data.items(), key=str))
        if key not in seen:
            seen.add(key)
            out.append(dict(data))
    return out


def all_melded(data: Mapping[str, Any], chow_seat: int = 3) -> dict[str, Any] | None:
    """The hand with each concealed set melded (a chow from `chow_seat`, the seat the bound hand check chow_from
    names; a pung from the next seat) and its pair waited on alone, won on a discard from the next seat; None when
    its concealed tiles make no sets and pair."""
    try:
        tiles = T.parse_tiles(data.get("concealed", "")) + T.parse_tiles(data["win_tile"])
    except (KeyError, ValueError):
        return None
    counts = [0] * T.NUM_TILE_TYPES
    for t in tiles:
        if t >= T.NUM_TILE_TYPES:
            return None
        counts[t] += 1
    melds = list(data.get("melds") or [])
    if not tiles or any(m.get("concealed") for m in melds):
        return None
    divisions = regular_divisions(tuple(counts), len(melds))
    if not divisions:
        return None
    *sets, pair = divisions[0]
    melds += [{"type": g.kind, "tiles": T.format_tiles(group_tiles(g)), "from": chow_seat if g.kind == CHOW else 1}
              for g in sets]
    return {**data, "concealed": T.format_tiles([pair.tile]), "win_tile": T.format_tiles([pair.tile]),
            "melds": melds, "win_by": "discard", "discarder": 1}


def examine(runner: CaseRunner, ruleset: Ruleset, claim: Claim, pool: list[dict[str, Any]],
            most: int = MAX_SCORED) -> Claim:
    """The claim after the engine's search: a proved claim stays proved (saying what was searched) or is
    refuted by a hand; any other claim is returned as it is."""
    if claim.result != "proved":
        return claim
    kind = claim.key.split(".")[0]
    search = SEARCHES.get(kind)
    if search is None:
        return claim
    engine = Engine(runner, ruleset, most)
    try:
        found = search(engine, ruleset, claim, pool)
        spent = ""
    except _Spent:
        found, spent = None, f"; stopped at its bound of {most} scorings"
    searched = f"{len(pool)} hands, {engine.scored} engine scorings{spent}"
    if found is None:
        return replace(claim, examined=f"the engine's search for a counter-example on {searched}: none found")
    return replace(claim, result="refuted", witness=found, by="engine", bound_used=0.0,
                   examined=f"the engine's search for a counter-example on {searched}: found one",
                   why="the model proves it over its domain, but a real hand breaks it: the model counts what a "
                       "hand cannot (a finding against the model)")


# ---------------------------------------------------------------------- the searches, one per kind of claim

def _valid_at_tables(engine: Engine, ruleset: Ruleset, options: Mapping[str, Any], pool: list[dict[str, Any]]
                     ) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
    """(hand input, engine result) for each hand of the pool at each table where it may win."""
    partner = _partner_counter(ruleset)
    for data in pool:
        for table in TABLES:
            grown = at_table(data, table, partner) if table["win_by"] != "self_draw" else {
                **data, "win_by": "self_draw", "discarder": None}
            result = engine(options, grown)
            if result.get("valid"):
                yield grown, result


def _zero_sum(engine: Engine, ruleset: Ruleset, claim: Claim, pool: list[dict[str, Any]]) -> dict[str, Any] | None:
    for data, result in _valid_at_tables(engine, ruleset, claim.reading, pool):
        p = list(result.get("payments") or [])
        if p and (sum(p) != 0 or p[0] < 0 or any(x > 0 for x in p[1:])):
            return {"hand": data, "result": result}
    return None


def _single_hand_limit(engine: Engine, ruleset: Ruleset, claim: Claim,
                       pool: list[dict[str, Any]]) -> dict[str, Any] | None:
    scorer = engine.runner.scorer(ruleset.id, dict(claim.reading))
    limit = limit_of(scorer)
    if limit is None:
        return None
    top, _ = limit
    model = SettlementModel(scorer)
    on_discard: dict[int, list[tuple[int, dict[str, Any], dict[str, Any]]]] = {s: [] for s in SEATS}
    for data, result in _valid_at_tables(engine, ruleset, claim.reading, pool):
        words = result_words(model, data, result)
        if list(words["payments"]) != list(result["payments"]):
            return {"hand": data, "result": result, "model_pays": words["payments"]}
        lost = [lost_in_value(words, s) for s in SEATS]
        if max(lost) > top:
            return {"hand": data, "result": result, "lost": lost}
        if data["win_by"] == "discard":
            on_discard[data["discarder"]].append((lost[data["discarder"] - 1], data, result))
    if model.winners_most == 1:
        return None
    return several_winners(on_discard, model.winners_most, top)


def several_winners(on_discard: Mapping[int, list[tuple[int, dict[str, Any], dict[str, Any]]]], most: int,
                    top: int, skip: Collection[str] = (), per_seat: int = MOST_PER_SEAT) -> dict[str, Any] | None:
    """Two or three hands of the pool that may win on one discard together (the same tile, the same table
    counters and round wind, no tile held more than four times), each reading the discarder at another seat
    (winners sit apart), whose value losses to that discarder add up past the limit; the largest first, among
    the `per_seat` largest at each seat for each winning tile. A choice whose `chosen_key` is in `skip` is
    passed over (one a caller has tried)."""
    by_tile: dict[str, dict[int, list[tuple[int, dict[str, Any], dict[str, Any]]]]] = {}
    for d, found in on_discard.items():
        for x in found:
            by_tile.setdefault(x[1]["win_tile"], {}).setdefault(d, []).append(x)
    for n in range(2, most + 1):
        for tile in sorted(by_tile):
            best = {d: sorted(found, key=lambda x: -x[0])[:per_seat] for d, found in by_tile[tile].items()}
            for seats in permutations(sorted(best), n):
                for chosen in product(*(best[d] for d in seats)):
                    if sum(x[0] for x in chosen) > top and _together([data for _, data, _ in chosen]) \
                            and chosen_key(chosen) not in skip:
                        return {"winners": [{"hand": data, "result": result, "lost": lost}
                                            for lost, data, result in chosen],
                                "lost": sum(x[0] for x in chosen), "key": chosen_key(chosen)}
    return None


def chosen_key(chosen: Sequence[tuple[int, Mapping[str, Any], Any]]) -> str:
    """Which hands a choice of several winners holds, as a key."""
    return repr([sorted(data.items(), key=str) for _, data, _ in chosen])


def _together(hands: list[dict[str, Any]]) -> bool:
    """Whether these hands may all win on one discard: the same winning tile (one tile for all), the same
    counters and round wind, and no tile more than four times among them."""
    first = hands[0]
    if any((h["win_tile"], h.get("counters") or {}, h.get("round_wind")) !=
           (first["win_tile"], first.get("counters") or {}, first.get("round_wind")) for h in hands):
        return False
    held = T.parse_tiles(first["win_tile"])
    flowers: list[int] = []
    for h in hands:
        held += T.parse_tiles(h.get("concealed", ""))
        for m in h.get("melds") or []:
            held += T.parse_tiles(m["tiles"])
        raw = h.get("flowers") or ""
        flowers += T.parse_tiles(raw if isinstance(raw, str) else "".join(raw))
    return all(held.count(t) <= 4 for t in set(held)) and len(flowers) == len(set(flowers))


def _self_drawn(ruleset: Ruleset, data: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
    """Won by self-draw instead of on a discard."""
    if data.get("win_by") == "discard":
        yield {**data, "win_by": "self_draw", "discarder": None}


def _flower(ruleset: Ruleset, data: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
    """One more flower."""
    more = one_more_flower(ruleset, data)
    if more is not None:
        yield more


def _counters(ruleset: Ruleset, data: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
    """Each counter a pattern reads one higher (not 底分 nor the contract partner's seat)."""
    counters = dict(data.get("counters") or {})
    table = _table_counters(ruleset)
    for name, counter in ruleset.counters.items():
        if name not in table and counters.get(name, 0) < counter.max:
            yield {**data, "counters": {**counters, name: counters.get(name, 0) + 1}}


def _partner_counter(ruleset: Ruleset) -> str | None:
    """The counter the bound settlement names the contract partner by (None: the ruleset has no contract)."""
    contract = bind(ruleset).settlement.contract
    return contract.partner_counter if contract is not None else None


_TABLE_COUNTERS: dict[int, tuple[Ruleset, set[str]]] = {}  # by the ruleset's id(), kept beside it (the id not reused)


def _table_counters(ruleset: Ruleset) -> set[str]:
    """The counters that say who sits where or what the room's 底分 is, not what the hand gained: the settlement's
    底分 counter and the contract partner's (read off the bound spec, whatever they are called; bound once a
    ruleset, the engine's hands growing by each counter in turn ask it of every hand)."""
    known = _TABLE_COUNTERS.get(id(ruleset))
    if known is not None and known[0] is ruleset:
        return set(known[1])
    settlement = bind(ruleset).settlement
    names = {settlement.base_counter} if settlement.base_counter else set()
    if settlement.contract is not None:
        names.add(settlement.contract.partner_counter)
    _TABLE_COUNTERS[id(ruleset)] = (ruleset, names)
    return set(names)


def _flags(ruleset: Ruleset, data: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
    """Each flag the hand does not hold, set."""
    flags = dict(data.get("flags") or {})
    for flag in ruleset.flags:
        if not flags.get(flag):
            yield {**data, "flags": {**flags, flag: True}}


# the ways a hand grows by its context alone, each tried on every hand before the next
GROWTHS = (_self_drawn, _flower, _counters, _flags)


def _monotone(engine: Engine, ruleset: Ruleset, claim: Claim, pool: list[dict[str, Any]]) -> dict[str, Any] | None:
    pid = claim.key.split(".", 1)[1]
    starts = [start for data in pool
              for start in (data, {**data, "win_by": "discard", "discarder": data.get("discarder") or 1})]
    results: dict[int, tuple[dict[str, Any], dict[str, int]]] = {}
    for grow in GROWTHS:
        for i, start in enumerate(starts):
            if i not in results:
                results[i] = engine.score(claim.reading, start)
            before, counted = results[i]
            if not before.get("valid"):
                continue
            for grown in grow(ruleset, start):
                after, grown_counted = engine.score(claim.reading, grown)
                if grown_counted.get(pid, 0) != counted.get(pid, 0) + 1:
                    continue  # the change did not give the hand one more of it
                if _lowered(start, before, grown, after):
                    return {"before": {"hand": start, "result": before}, "after": {"hand": grown, "result": after}}
    return None


def _lowered(start: Mapping[str, Any], before: Mapping[str, Any], grown: Mapping[str, Any],
             after: Mapping[str, Any]) -> bool:
    """Whether the grown hand may not win, leaves the winner with less, or (won the same way, from the same
    discarder: the same payers) lets a payer pay less. A self-draw in place of a discard changes who pays, so
    there the payers are not compared one by one."""
    if not after.get("valid"):
        return True
    pb, pa = list(before.get("payments") or []), list(after.get("payments") or [])
    if not pb or not pa:
        return False
    same_table = (start.get("win_by"), start.get("discarder")) == (grown.get("win_by"), grown.get("discarder"))
    return pa[0] < pb[0] or (same_table and any(a > b for a, b in zip(pa[1:], pb[1:])))


def _corners(ruleset: Ruleset, data: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
    """The hand with each counter a pattern reads at the corners of its range (the others as the hand has them)."""
    counters = [(name, c) for name, c in ruleset.counters.items() if name not in _table_counters(ruleset)]
    yield dict(data)
    for name, c in counters:
        for value in sorted({*(v for v in CORNERS if c.min <= v <= c.max), c.max}):
            yield {**data, "counters": {**(data.get("counters") or {}), name: value}}


def _interaction(engine: Engine, ruleset: Ruleset, claim: Claim,
                 pool: list[dict[str, Any]]) -> dict[str, Any] | None:
    readings = claim.readings
    if len(readings) != 4:
        return None
    partner = _partner_counter(ruleset)
    for data in pool:
        for table in TABLES:
            at = at_table(data, table, partner) if table["win_by"] != "self_draw" else {
                **data, "win_by": "self_draw", "discarder": None}
            for hand in _corners(ruleset, at):
                results = [engine(r, hand) for r in readings]
                told = [_told(r) for r in results]
                o00, o10, o01, o11 = told
                if any(x11 - x01 != x10 - x00 for x00, x10, x01, x11 in zip(o00, o10, o01, o11)):
                    return {"hand": hand, "under": [{"reading": r, "result": res} for r, res in
                                                    zip(readings, results)]}
    return None


def _told(result: Mapping[str, Any]) -> list[int]:
    """What the interaction claim compares: may it win, and each seat's change (0 when it may not)."""
    valid = bool(result.get("valid"))
    payments = list(result.get("payments") or [0, 0, 0, 0]) if valid else [0, 0, 0, 0]
    return [int(valid), *payments]


SEARCHES: dict[str, Callable[[Engine, Ruleset, Claim, list[dict[str, Any]]], dict[str, Any] | None]] = {
    "zero-sum": _zero_sum, "single-hand-limit": _single_hand_limit, "monotone": _monotone,
    "interaction": _interaction,
}
