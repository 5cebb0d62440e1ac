"""Several winners of one discard against the single-hand limit, as a hand the table plays.

Where one discard may have several winners (一炮多响, each paid as a hand of its own), the settlement model may
refute "no player loses more than the limit in one hand" only with several winners: each takes no more than the
limit from the discarder, together they take more. The model's witness is a situation (pattern counts), and two
situations need not be hands that can wait on one tile. This finds real hands that can: known hands with every set
concealed and no flower, waited on each of their tiles, at the 荒番 counts of the stakes sample; the engine scores
each, the pairs (or triples) that may win together and take more than the limit are played as a scene (the
discarder deals, each winner knocks where the ruleset knocks, the discard, the wins), and a scene the table
judges legal, whose discarder loses more than the limit in value, is the finding's witness.
"""
from __future__ import annotations

from typing import Any, Iterator, Mapping, Sequence

from checker import tiles as T
from checker.case import CaseRunner
from checker.hunt.examine import several_winners
from checker.hunt.findings import Finding, covering
from checker.hunt.options import outcome
from checker.hunt.settle import SEATS, Claim, SettlementModel, limit_of, lost_in_value, result_words
from checker.spec import Ruleset
from checker.spec.roles import CONTRACT_PARTNER, roles
from checker.table.log import GAME, VERSION, replay_events
from checker.table.wall import WallError, arrange_wall

HUANGFAN = (0, 1, 2, 3)  # the 荒番 counts hands are tried at (the stakes sample's), within the counter's range
LOUDEST = 120  # hands (by what the discarder loses to each) waited on each of their tiles
PER_SEAT = 60  # hands at each discarder's seat, for each winning tile, tried together (the largest losses first)


def several_winners_finding(runner: CaseRunner, ruleset: Ruleset, found: list[Claim],
                            pool: list[dict[str, Any]]) -> Finding | None:
    """The finding for the defaults' single-hand-limit claim refuted by several winners of one discard, with a
    hand of play the table judges legal; None when the claim is not so refuted or no known hands make one."""
    first = found[0] if found else None
    if first is None or first.key != "single-hand-limit" or first.result != "refuted" or first.reading \
            or not (first.witness or {}).get("other_winners"):
        return None
    scorer = runner.scorer(ruleset.id, {})
    limit = limit_of(scorer)
    model = SettlementModel(scorer)
    if limit is None or model.winners_most < 2:
        return None
    top, rule = limit
    on_discard: dict[int, list[tuple[int, dict[str, Any], dict[str, Any]]]] = {s: [] for s in SEATS}
    for lost, data, result in _losses(runner, ruleset, model, pool, top, model.winners_most):
        on_discard[data["discarder"]].append((lost, data, result))
    tried: set[str] = set()
    while True:
        chosen = several_winners(on_discard, model.winners_most, top, skip=tried, per_seat=PER_SEAT)
        if chosen is None:
            return None
        tried.add(chosen["key"])
        scene = _scene(ruleset, [w["hand"] for w in chosen["winners"]])
        if scene is None:
            continue
        header, events = scene
        played = replay_events(header, events)
        if played.verdict != "legal" or played.result is None:
            continue
        taken = _discarder_lost(model, header, played.result)
        if sum(taken) > top:
            return _finding(ruleset, header, events, played.result, taken, top, rule)


def _losses(runner: CaseRunner, ruleset: Ruleset, model: SettlementModel, pool: list[dict[str, Any]], top: int,
            most: int) -> Iterator[tuple[int, dict[str, Any], dict[str, Any]]]:
    """(value the discarder loses, hand, engine result) of concealed hands won on a discard: first each hand as
    known, at each 荒番 count, on a discard from the next seat; then those of them that could take a share of more
    than the limit among `most` winners (at most `LOUDEST` of them, each set of tiles once), waited on each of
    their tiles. Each is given at every discarder's seat with the loss the next seat's discard gives: a guess
    where the seats pay alike, which the hand of play built from it settles (checker.table judges it)."""
    scorer = runner.scorer(ruleset.id, {})
    counter = scorer.bound.procedure.huangfan_counter
    first: list[tuple[int, dict[str, Any], dict[str, Any]]] = []
    seen: set[str] = set()
    for data in pool:
        hand = _concealed(ruleset, data)
        if hand is None:
            continue
        counts = [c for c in HUANGFAN if ruleset.counters[counter].min <= c <= ruleset.counters[counter].max] \
            if counter else [None]
        for count in counts:
            at = {**hand, "counters": {**hand["counters"], **({counter: count} if counter else {})}}
            scored = _lost(runner, ruleset, model, at, 1)
            if scored is not None and _key(at) not in seen:
                seen.add(_key(at))
                first.append(scored)
    first.sort(key=lambda x: (-x[0], _key(x[1])))
    chosen: list[tuple[tuple[int, ...], dict[str, Any]]] = []
    sets: set[tuple[tuple[int, ...], str]] = set()
    for lost, data, _ in first:
        tiles = tuple(sorted(T.parse_tiles(data["concealed"]) + T.parse_tiles(data["win_tile"])))
        if lost * most > top and (tiles, _key(data["counters"])) not in sets and len(chosen) < LOUDEST:
            sets.add((tiles, _key(data["counters"])))
            chosen.append((tiles, data))
    for tiles, data in chosen:
        for tile in sorted(set(tiles)):
            rest = list(tiles)
            rest.remove(tile)
            waited = {**data, "concealed": T.format_tiles(rest), "win_tile": T.tile_name(tile)}
            scored = _lost(runner, ruleset, model, waited, 1)
            if scored is not None:
                for seat in SEATS:
                    yield scored[0], {**scored[1], "discarder": seat}, scored[2]


def _concealed(ruleset: Ruleset, data: Mapping[str, Any]) -> dict[str, Any] | None:
    """The hand with every claimed chow and pung taken back into the concealed tiles and no flower, knocked where
    the ruleset knows the flag; None for a hand with a kong (a kong needs its replacement draw played)."""
    melds = data.get("melds") or []
    if any(m["type"] == "kong" for m in melds) or "win_tile" not in data:
        return None
    try:
        tiles = T.parse_tiles(data.get("concealed", "") + "".join(m["tiles"] for m in melds))
    except ValueError:
        return None
    played = set(ruleset.table_context.values())  # flags the table sets from play: the scene gives them
    flags = {f: True for f, on in (data.get("flags") or {}).items() if on and f not in played}
    knock = roles(ruleset).knocked
    if knock:
        flags[knock] = True
    return {"concealed": T.format_tiles(sorted(tiles)), "melds": [], "win_tile": data["win_tile"],
            "seat_wind": data.get("seat_wind", "E"), "round_wind": data.get("round_wind", "E"), "flowers": "",
            "flags": flags, "counters": {k: v for k, v in (data.get("counters") or {}).items()
                                         if k in ruleset.counters and k not in ruleset.table_context.values()}}


def _lost(runner: CaseRunner, ruleset: Ruleset, model: SettlementModel, data: Mapping[str, Any], seat: int
          ) -> tuple[int, dict[str, Any], dict[str, Any]] | None:
    """The value the discarder at `seat` loses to the hand won on its discard, the hand and the engine's result;
    None when the hand may not win there."""
    hand = {**data, "win_by": "discard", "discarder": seat}
    result = outcome(runner, ruleset.id, {}, hand)
    if not result.get("valid"):
        return None
    return lost_in_value(result_words(model, hand, result), seat), hand, result


def _key(data: Any) -> str:
    return repr(sorted(data.items(), key=str)) if isinstance(data, Mapping) else repr(data)


def _scene(ruleset: Ruleset, hands: Sequence[Mapping[str, Any]]) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
    """Seat 0 deals and, after one round of plain turns, discards the tile the `hands` all wait on; each hand sits
    where seat 0 is its discarder (a hand whose discarder is seat d, counted from it, sits at 4 - d), knocks on its
    turn where it has knocked, and all win on the discard. The other seat's hand and every draw are tiles no winner
    holds nor could use; None when the 144 tiles do not allow it."""
    t = T.parse_tile(hands[0]["win_tile"])
    knock = roles(ruleset).knocked
    at = {(4 - h["discarder"]) % 4: h for h in hands}
    held = [x for h in hands for x in T.parse_tiles(h["concealed"])]
    near = {x + step for x in held if x in T.SUITED for step in (-2, -1, 0, 1, 2)}
    spare = [k for k in (*T.SUITED, *T.WINDS) if k not in held and k != t and k not in near
             and not (ruleset.dragons_as_flowers and k in T.DRAGONS)]
    filler = [k for k in spare for _ in range(4)]
    if len(filler) < 13 * (4 - len(hands)) + 13 + 4:
        return None
    deal: dict[int, list[int]] = {0: [filler.pop(0)] + [t] + [filler.pop(0) for _ in range(12)]}
    for seat in SEATS:
        deal[seat] = list(T.parse_tiles(at[seat]["concealed"])) if seat in at else [filler.pop(0) for _ in range(13)]
    draws = [filler.pop(0) for _ in range(4)]
    events: list[dict[str, Any]] = [{"event": "discard", "seat": 0, "tile": T.tile_name(deal[0][0])}]
    for seat in SEATS:
        events.append({"event": "draw", "seat": seat})
        if seat in at and knock and (at[seat].get("flags") or {}).get(knock):
            events.append({"event": "knock", "seat": seat})
        events.append({"event": "discard", "seat": seat, "tile": T.tile_name(draws[seat - 1])})
    events += [{"event": "draw", "seat": 0}, {"event": "discard", "seat": 0, "tile": T.tile_name(t)}]
    events += [{"event": "win", "seat": seat, "tile": T.tile_name(t)} for seat in sorted(at)]
    try:
        wall = arrange_wall({seat: T.format_tiles(tiles) for seat, tiles in deal.items()},
                            draws=T.format_tiles(draws), replacements="")
    except WallError:
        return None
    first = hands[0]
    header = {"game": GAME, "version": VERSION, "ruleset": ruleset.id, "wall": T.format_tiles(wall), "dealer": 0,
              "round_wind": first.get("round_wind", "E")}
    if first.get("counters"):
        header["counters"] = dict(first["counters"])
    flags = {f: True for f, on in (first.get("flags") or {}).items() if on and f != knock}
    if flags:
        header["flags"] = flags
    return header, events


def _discarder_lost(model: SettlementModel, header: Mapping[str, Any], result: Mapping[str, Any]) -> list[int]:
    """What seat 0, the discarder, loses in value to each winner of the played hand (each winner's
    fans as the table scored them, its table as the model reads it: concealed, no contract)."""
    lost = []
    for w in result["winners"]:
        discarder = (0 - w["seat"]) % 4
        table = {"win_by": w["win_by"], "discarder": discarder, CONTRACT_PARTNER: 0, "flags": list(w["flags"]),
                 "claimed_sets": 0}
        lost.append(lost_in_value(result_words(model, header, w, table), discarder))
    return lost


def _finding(ruleset: Ruleset, header: Mapping[str, Any], events: list[dict[str, Any]], result: Mapping[str, Any],
             lost: list[int], top: int, rule: str) -> Finding:
    winners = result["winners"]
    each = " and ".join(f"{x} to the hand worth {w['total']}" for x, w in zip(lost, winners))
    deal = {k: v for k, v in header.items() if k not in ("game", "version", "ruleset")}
    rules = [r for r in (rule, "procedure.multiple_winners") if r and r in ruleset.rules]
    return Finding(
        ruleset=ruleset.id, kind="contradiction", key="contradiction.single-hand-limit",
        title=f"under the default readings {len(winners)} players win on one discard (一炮多响) and the discarder "
              f"loses {sum(lost)} in value in one hand ({each}), more than the single-hand limit of {top}",
        rules=rules, statements=covering(ruleset, rules, 4),
        witness={"ruleset": ruleset.id, "options": {}, "kind": "procedure", "input": {**deal, "events": events}},
        outcomes=[{"reading": "the spec's default readings", "result": {
            "verdict": "legal", "payments": list(result["payments"]), "next_dealer": result["next"]["dealer"],
            "winners": [{k: w[k] for k in ("seat", "total", "payments")} for w in winners]}}],
        method="z3", deciding_option=None,
        note=f"The Z3 settlement model refutes, under the default readings, that no player loses more than {top} "
             f"in value in one hand, and only with several winners of one discard: each is paid as a hand of its "
             f"own, none takes more than {top}, together they take {sum(lost)} (the payments add each share's "
             f"底分). The witness is a hand of play the table judges legal (every event checked, as `mjcheck game "
             f"validate` does): known hands with every set concealed, waiting on one tile, at a 荒番 count of the "
             f"stakes sample. The document limits what a player loses in one hand and allows several winners of one "
             f"discard; the spec pays each winner as a hand of its own, so the limit bounds what the discarder loses "
             f"to each winner, not what it loses in the hand.")
