"""Throughput of the table procedure: whole hands simulated per second per ruleset, and logs validated per second.

    python benchmarks/simulate.py [--hands 300] [--profile RULESET]

For each ruleset, on one core:
- the baseline, measured in the same run: dealing alone (a table built from a seed: the wall shuffled, the
  tiles dealt), the least a hand can cost; every other rate is also printed as a ratio to it;
- `simulate random`: hands played to the end by four random bots (any legal move), each move checked by the
  state machine, each winner scored by the engine;
- `simulate greedy`: the same with four greedy bots (win, knock and claim when they can);
- `validate`: the random bots' logs replayed from their JSON lines (parsing each event, checking it, scoring
  the winners), as `mjcheck game validate` does.
The issue's targets: at least 500 simulated hands per second per ruleset on one core, and validation at least
as fast as simulation. Run it from a regular install (`pip install .`) for the compiled engine.
"""
from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time

from checker.engine import compiled
from checker.table.log import GAME, VERSION, new_table, replay_lines
from checker.table.simulate import play_hand

RULESETS = ("mcr", "shanghai-knocking", "shanghai-classic")


def rate(count: int, seconds: float) -> float:
    return count / seconds if seconds > 0 else float("inf")


def measure(ruleset: str, hands: int) -> dict[str, float]:
    play_hand(ruleset, 0)  # load the ruleset and bind its scorer before timing
    start = time.perf_counter()
    for seed in range(hands):
        new_table({"game": GAME, "version": VERSION, "ruleset": ruleset, "seed": seed})
    deal = rate(hands, time.perf_counter() - start)
    logs = []
    start = time.perf_counter()
    for seed in range(hands):
        logs.append(play_hand(ruleset, seed, ("random",) * 4).lines())
    random_rate = rate(hands, time.perf_counter() - start)
    start = time.perf_counter()
    for seed in range(hands):
        play_hand(ruleset, seed, ("greedy",) * 4)
    greedy_rate = rate(hands, time.perf_counter() - start)
    start = time.perf_counter()
    for lines in logs:
        found = replay_lines(((n + 1, text, None) for n, text in enumerate(lines)), ruleset)
        assert found.verdict == "legal", found.as_dict()
    validate = rate(hands, time.perf_counter() - start)
    return {"deal": deal, "random": random_rate, "greedy": greedy_rate, "validate": validate}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300, help="hands per ruleset and measurement")
    parser.add_argument("--profile", choices=RULESETS, help="print where a ruleset's random simulation spends its time")
    args = parser.parse_args()
    print(f"engine: {'compiled' if compiled() else 'plain Python'}; {args.hands} hands per measurement, one core")
    print(f"{'ruleset':<20}{'deal (baseline)':>18}{'simulate random':>24}{'simulate greedy':>24}{'validate':>24}")
    for ruleset in RULESETS:
        r = measure(ruleset, args.hands)
        cells = [f"{r[k]:>9.0f}/s ({r[k] / r['deal']:.3f}x)" for k in ("random", "greedy", "validate")]
        print(f"{ruleset:<20}{r['deal']:>16.0f}/s" + "".join(f"{c:>24}" for c in cells))
        flags = []
        if r["random"] < 500:
            flags.append(f"random simulation {r['random']:.0f}/s is below the 500/s target")
        if r["validate"] < r["random"]:
            flags.append("validation is slower than simulation")
        for flag in flags:
            print(f"  note: {flag}")
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        for seed in range(args.hands):
            play_hand(args.profile, seed, ("random",) * 4)
        profiler.disable()
        pstats.Stats(profiler, stream=sys.stdout).sort_stats("tottime").print_stats(25)


if __name__ == "__main__":
    main()
