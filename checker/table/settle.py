"""The end of a hand: each winner scored by the engine, the payments of all winners summed per seat, who deals
next, and the 荒番 count after it (`procedure.dealer`, `procedure.dealer_rotation`, `procedure.huangfan_count`,
`procedure.multiple_winners`). The scorer's own settlement prices each winner; nothing is priced here."""
from __future__ import annotations

from typing import Any

from checker import tiles as T
from checker.table.state import SEATS, Table, Win


def hand_result(table: Table) -> dict[str, Any]:
    """The outcome of an ended hand as JSON-ready data: winners (seat, tile, how, fans, total, flags), the four
    seats' score changes (absolute seats), the next dealer and 荒番 count, forfeits, and the calls between seats."""
    wins = list(table.wins)
    if len(wins) > 1:  # each winner scored knowing who else won on the tile (承包 between two winners)
        seats = [w.seat for w in wins]
        rescored = []
        for w in wins:
            score = table.score(w.seat, w.tile, w.win_by, w.discarder, [s for s in seats if s != w.seat])
            assert score is not None and score.valid, score
            rescored.append(Win(w.seat, w.tile, w.win_by, w.discarder, score,
                                tuple(sorted(score.hand.flags)) if score.hand else (), w.counters))
        wins = rescored
    payments = [0] * SEATS
    winners = []
    for w in wins:
        for i, amount in enumerate(w.score.payments or ()):
            payments[(w.seat + i) % SEATS] += amount
        winners.append({
            "seat": w.seat, "tile": T.tile_name(w.tile), "win_by": w.win_by,
            **({"discarder": w.discarder} if w.discarder is not None else {}),
            "total": w.score.total, "fans": [f.as_expect() for f in w.score.fans],
            # the hand's other readings of the same worth that count other fans (the rules take either list)
            **({"or_fans": [[f.as_expect() for f in alt] for alt in w.score.alternatives]}
               if w.score.alternatives else {}),
            "flags": list(w.flags), "payments": list(w.score.payments or ()),
        })
    dealer, huangfan = next_dealer(table), next_huangfan(table)
    out: dict[str, Any] = {"ended": "win" if wins else "draw", "winners": winners, "payments": payments,
                           "next": {"dealer": dealer}}
    if huangfan is not None and table.rules.huangfan_counter is not None:
        # the counters the next hand starts from, by the ruleset's names: the one the 荒番 count is kept in
        out["next"]["counters"] = {table.rules.huangfan_counter: huangfan}
    every = table.rules.round_wind_every
    if table.rules.rotates_each_hand and every:  # MCR: the round wind advances every four hands
        # a drawn hand counts as a hand played unless the spec says draws do not count (dealer_rotation)
        # the wind advances from this hand's own round wind (the header's) each time the count passes a
        # multiple of round_wind_every
        following = table.hand_number + (1 if wins or table.rules.draws_count else 0)
        passed = following // every - table.hand_number // every
        out["next"]["hand"] = following
        out["next"]["round_wind"] = "ESWN"[("ESWN".index(table.round_wind) + passed) % 4]
    if table.forfeits:
        out["forfeits"] = list(table.forfeits)
    return out


def next_dealer(table: Table) -> int:
    rules, dealer = table.rules, table.dealer
    if rules.rotates_each_hand:  # MCR: the deal passes every hand, drawn hands too (draws_count)
        return (dealer + 1) % SEATS if table.wins or rules.draws_count else dealer
    if not table.wins:
        return dealer if rules.dealer_stays_on_draw else (dealer + 1) % SEATS
    if rules.winner_deals:
        if len(table.wins) == 1:
            return table.wins[0].seat
        # 一炮多响: the winner nearest the discarder, going downstream from it (or the seat after that winner)
        discarder = table.wins[0].discarder or 0
        nearest = min((w.seat for w in table.wins), key=lambda s: (s - discarder) % SEATS)
        return (nearest + 1) % SEATS if rules.after_multiple_win == "seat_after_nearest_winner" else nearest
    return dealer if table.wins[0].seat == dealer else (dealer + 1) % SEATS


def next_huangfan(table: Table) -> int | None:
    """The 荒番 count the next hand carries: one more after a drawn hand, one less after a win (never below 0);
    None where the ruleset keeps no such count."""
    rules = table.rules
    name = rules.huangfan_counter
    if name is None or not (rules.huangfan_on_draw or rules.huangfan_on_win):
        return None
    now = table.counters.get(name, 0)
    counter = rules.ruleset.counters.get(name)
    top = counter.max if counter is not None else now + rules.huangfan_on_draw
    return min(top, now + rules.huangfan_on_draw) if not table.wins else max(0, now + rules.huangfan_on_win)
