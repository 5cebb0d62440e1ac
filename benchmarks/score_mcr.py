"""Throughput of the reference MCR scorer, against PyMahjongGB in the same run when it is installed.

    python benchmarks/score_mcr.py [--hands 20000] [--seed 2026]

Scores the same random complete hands (fixed seed) with both engines and prints hands per second for each
and their ratio. PyMahjongGB (`pip install -e '.[peers]'`) is only a speed baseline here, never a source of
expected values. The issue's target: the reference engine at >= 0.2x PyMahjongGB's throughput.
"""
from __future__ import annotations

import argparse
import time

from checker.engine import Scorer, load_ruleset
from checker.random_hands import seeded_hands

# MahjongGB tile codes: W characters, B dots, T bamboo, F1-F4 winds, J1 Red, J2 Green, J3 White.
GB_CODES = tuple([f"W{r}" for r in range(1, 10)] + [f"B{r}" for r in range(1, 10)] + [f"T{r}" for r in range(1, 10)]
                 + ["F1", "F2", "F3", "F4", "J3", "J2", "J1"])
GB_WIND = {27: 0, 28: 1, 29: 2, 30: 3}


def to_mahjonggb(hand) -> tuple:
    """The arguments of MahjongGB.MahjongFanCalculator for one hand."""
    packs = []
    for m in hand.melds:
        if m.kind == "chow":
            packs.append(("CHI", GB_CODES[m.tile + 1], 1))
        elif m.kind == "pung":
            packs.append(("PENG", GB_CODES[m.tile], m.source or 1))
        else:
            packs.append(("GANG", GB_CODES[m.tile], 0 if m.concealed else (m.source or 1)))
    return (tuple(packs), tuple(GB_CODES[t] for t in hand.concealed), GB_CODES[hand.win_tile], len(hand.flowers),
            hand.self_drawn, "fourth_tile_visible" in hand.flags,
            hand.win_by == "robbing_kong" or "kong_replacement" in hand.flags, "last_tile" in hand.flags,
            GB_WIND[hand.seat_wind], GB_WIND[hand.round_wind])


def rate(fn, items) -> float:
    start = time.perf_counter()
    for item in items:
        fn(item)
    return len(items) / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    hands = seeded_hands(args.seed, args.hands)
    scorer = Scorer(load_ruleset("mcr"))
    scorer.score(hands[0])  # warm the per-suit division caches as a long-running process would have them
    ours = rate(scorer.score, hands)
    print(f"{len(hands)} random complete hands, seed {args.seed}")
    print(f"reference engine (checker): {ours:10.0f} hands/s")
    try:
        import MahjongGB
    except ImportError:
        print("PyMahjongGB not installed (pip install -e '.[peers]'): no baseline in this run")
        return
    def gb(call):
        try:
            MahjongGB.MahjongFanCalculator(*call)
        except TypeError:
            pass  # hands PyMahjongGB refuses (e.g. below 8 points) still count as scored

    from_hands = rate(lambda h: gb(to_mahjonggb(h)), hands)
    calls = [to_mahjonggb(h) for h in hands]
    raw = rate(gb, calls)
    print(f"PyMahjongGB, from the same Hand objects (conversion included): {from_hands:10.0f} hands/s")
    print(f"PyMahjongGB, raw calls on pre-converted arguments:              {raw:10.0f} hands/s")
    print(f"ratio reference / PyMahjongGB: {ours / from_hands:.3f} (same input), {ours / raw:.3f} (raw); target >= 0.2")


if __name__ == "__main__":
    main()
