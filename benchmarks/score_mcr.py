"""Throughput of the reference MCR scorer, against PyMahjongGB in the same run when it is installed.

    python benchmarks/score_mcr.py [--hands 20000] [--seed 2026] [--repeat 3] [--stages]

Scores the same random complete hands (fixed seed) with both engines and prints hands per second for each
and their ratio. Each rate is the best of --repeat passes over the hands, so a busy machine disturbs it less.
Run it from a regular install (`pip install '.[peers]'`), which compiles the engine with mypyc; an editable
install measures the plain Python engine. PyMahjongGB is only a speed baseline here, never a source of expected values.
The issue's target: the reference engine at >= 0.2x PyMahjongGB's throughput.

--stages also prints where the reference engine's time goes: building the hand facts and interpretations
(decomposition), deciding the fans, and the rest of scoring (exclusions, account-once, fan lines, payments).
"""
from __future__ import annotations

import argparse
import time

from checker.engine import Scorer, compiled, load_ruleset
from checker.engine.interpretation import HandFacts, interpretations
from checker.conform.pymahjonggb import to_mahjonggb  # the conformance adapter's conversion, measured with it
from checker.random_hands import seeded_hands

def rate(fn, items, repeat: int = 1) -> float:
    """Items per second: the best of `repeat` passes."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for item in items:
            fn(item)
        best = min(best, time.perf_counter() - start)
    return len(items) / best


def stages(scorer: Scorer, hands, repeat: int) -> None:
    """Microseconds per hand spent up to each stage of scoring, and each stage's share of the whole."""

    def readings(hand):
        facts = HandFacts(hand, scorer.shapes)
        return facts, interpretations(hand, facts)

    def fans(hand):
        facts, found = readings(hand)
        scorer.hand_fans(facts)
        for x in found:
            for planned in scorer._plan(x.structure):  # the predicates that can hold for this structure
                planned.decide(x)

    cumulative = [("hand facts and interpretations", 1e6 / rate(readings, hands, repeat)),
                  ("fan predicates", 1e6 / rate(fans, hands, repeat)),
                  ("exclusions, account-once, fan lines, payments", 1e6 / rate(scorer.score, hands, repeat))]
    whole, before = cumulative[-1][1], 0.0
    print("where the reference engine's time goes (microseconds per hand):")
    for label, upto in cumulative:
        print(f"  {label:48s} {upto - before:6.1f}  ({(upto - before) / whole:4.0%})")
        before = upto


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--repeat", type=int, default=3, help="passes per rate; the best one counts")
    parser.add_argument("--stages", action="store_true", help="also print where the reference engine's time goes")
    args = parser.parse_args()
    ruleset = load_ruleset("mcr")
    hands = seeded_hands(args.seed, args.hands, ruleset.table_context)
    scorer = Scorer(ruleset)
    scorer.score(hands[0])  # warm the per-suit division caches as a long-running process would have them
    ours = rate(scorer.score, hands, args.repeat)
    print(f"{len(hands)} random complete hands, seed {args.seed}, best of {args.repeat} passes")
    how = "compiled by mypyc" if compiled() else "plain Python: an editable install or MJCHECK_PURE=1"
    print(f"reference engine (checker, {how}): {ours:10.0f} hands/s")
    if args.stages:
        stages(scorer, hands, args.repeat)
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

    from_hands = rate(lambda h: gb(to_mahjonggb(h)), hands, args.repeat)
    calls = [to_mahjonggb(h) for h in hands]
    raw = rate(gb, calls, args.repeat)
    print(f"PyMahjongGB, from the same Hand objects (conversion included): {from_hands:10.0f} hands/s")
    print(f"PyMahjongGB, raw calls on pre-converted arguments:              {raw:10.0f} hands/s")
    print(f"ratio reference / PyMahjongGB: {ours / from_hands:.3f} (same input), {ours / raw:.3f} (raw); target >= 0.2")


if __name__ == "__main__":
    main()
