"""Hands per second per worker in the sweep (checker.sweep.work.sweep_shard, one process), and the time the whole
concealed MCR space would take on 2, 8 and 64 workers at that rate.

    python benchmarks/sweep.py [--hands 2000] [--offset 5000000]

The baseline, measured in the same run, is enumerating the same hands alone (checker.space); each engine's rate
is printed with its ratio to it. PyMahjongGB is measured when it is installed (the extra `peers`). The issue's
target: the whole concealed sweep against PyMahjongGB within 30 minutes on this 2-core machine.
"""
from __future__ import annotations

import argparse
import time

from checker.engine import compiled
from checker.space.concealed import ConcealedSpace
from checker.sweep.work import sweep_shard

WORKERS = (2, 8, 64)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--offset", type=int, default=5_000_000)
    args = parser.parse_args()
    space = ConcealedSpace()
    start, stop = args.offset, args.offset + args.hands
    t = time.perf_counter()
    n = sum(1 for _ in space.hands(start, stop))
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
        summary = sweep_shard("mcr", "concealed", start, stop, {}, against, options)
        seconds = time.perf_counter() - t
        rate = summary["hands"] / seconds
        print(f"{label}: {rate:,.0f} hands/s ({summary['cases'] / seconds:,.0f} cases/s) per worker, "
              f"{rate / base:.4f} of the baseline")
        for w in WORKERS:
            print(f"    whole concealed space ({space.size:,} hands) on {w} workers: "
                  f"{space.size / (rate * w) / 60:,.0f} min")


if __name__ == "__main__":
    main()
