"""Hands per second per worker in the sweep (checker.sweep.work.sweep_shard, one process), and the time the whole
concealed MCR space would take on 2, 8 and 64 workers at that rate.

    python benchmarks/sweep.py [--hands 2000] [--offset 5000000]

The baseline, measured in the same run, is enumerating the same hands alone (checker.space); each engine's rate
is printed with its ratio to it. Then, per scored case, the reference's batch (Scorer.fan_totals_of_wins) against
PyMahjongGB's raw calls on the same cases. PyMahjongGB is measured when it is installed (the extra `peers`). The issue's
target: the whole concealed sweep against PyMahjongGB within 30 minutes on this 2-core machine.
"""
from __future__ import annotations

import argparse
import time

from checker.engine import compiled
from checker.space.concealed import ConcealedSpace
from checker.sweep.work import Context, cases_of, items_of, space_of, sweep_shard

WORKERS = (2, 8, 64)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--offset", type=int, default=5_000_000)
    parser.add_argument("--space", choices=("concealed", "open"), default="concealed",
                        help="open: hands of one declared meld (--offset into that space; the per-case comparison "
                             "with PyMahjongGB's raw calls is made on the concealed space only)")
    parser.add_argument("--open-melds", type=int, default=1, choices=(1, 2, 3, 4),
                        help="with --space open: hands of 1 to N melds (--offset past the fewer melds' hands to time "
                             "three or four: 390,860,172 and 815,851,650)")
    args = parser.parse_args()
    space = space_of(args.space, open_melds=args.open_melds)
    start, stop = args.offset, args.offset + args.hands
    sum(1 for _ in items_of(space, Context(), start, start + 1))  # the melds' first concealed space, built
    t = time.perf_counter()
    n = sum(1 for _ in items_of(space, Context(), start, stop))
    base = n / (time.perf_counter() - t)
    print(f"engine {'compiled' if compiled() else 'plain Python'}; baseline (enumerating alone): {base:,.0f} hands/s")
    runs = [("reference against another reading", "reference", {"tile_hog_honors": True})]
    try:
        import MahjongGB  # noqa: F401
        runs.append(("reference against PyMahjongGB", "pymahjonggb", {}))
    except ImportError:
        print("PyMahjongGB not installed: pip install '.[peers]' to measure it")
    for label, against, options in runs:
        t = time.perf_counter()
        summary = sweep_shard("mcr", args.space, start, stop, {}, against, options, open_melds=args.open_melds)
        seconds = time.perf_counter() - t
        rate = summary["hands"] / seconds
        print(f"{label}: {rate:,.0f} hands/s ({summary['cases'] / seconds:,.0f} cases/s) per worker, "
              f"{rate / base:.4f} of the baseline")
        for w in WORKERS:
            print(f"    whole {args.space} space ({space.size:,} hands) on {w} workers: "
                  f"{space.size / (rate * w) / 60:,.0f} min")
    if args.space == "concealed":
        per_case(start, stop)


def per_case(start: int, stop: int) -> None:
    """The batch alone against PyMahjongGB's raw calls, per scored (hand, winning tile, way), on the same cases:
    the issue asks the batch (Scorer.fan_totals_of_wins) to be at least as fast. Best of three passes each."""
    from checker.case import CaseRunner

    batches = [list(cases_of(counts)) for counts in ConcealedSpace().hands(start, stop)]
    n = sum(len(b) for b in batches)
    scorer = CaseRunner().scorer("mcr", {})

    def best(run) -> float:
        times = []
        for _ in range(3):
            t = time.perf_counter()
            run()
            times.append(time.perf_counter() - t)
        return min(times) / n * 1e6

    def batch() -> None:
        for b in batches:
            scorer.fan_totals_of_wins(b)

    def alone() -> None:
        for b in batches:
            for hand in b:
                scorer.score(hand)

    ours, single = best(batch), best(alone)
    print(f"per case ({n:,} cases): the batch {ours:.2f} us, scoring each alone {single:.2f} us")
    try:
        from MahjongGB import MahjongFanCalculator
    except ImportError:
        return
    from checker.conform.pymahjonggb import to_mahjonggb
    converted = [to_mahjonggb(hand) for b in batches for hand in b]

    def raw() -> None:
        for a in converted:
            try:
                MahjongFanCalculator(*a, True)
            except TypeError:
                pass

    theirs = best(raw)
    print(f"    PyMahjongGB raw calls on pre-converted arguments {theirs:.2f} us: the batch takes "
          f"{ours / theirs:.2f} of their time (target <= 1)")


if __name__ == "__main__":
    main()
