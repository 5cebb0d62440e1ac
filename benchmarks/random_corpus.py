"""Speed of `mjcheck corpus random`: random score cases with the reference's answers, per ruleset, against scoring
the same cases alone (the baseline, measured in the same run: what the corpus costs beyond the answers).

    python benchmarks/random_corpus.py [--count 20000] [--seed 1]

Prints, for each shipped ruleset, the cases made per minute (the issue's target: at least 20,000 score cases a
minute on 2 cores, one process sufficing) and the ratio of making them to re-scoring them. Run it from a regular
install (`pip install .`) for the compiled engine.
"""
from __future__ import annotations

import argparse
import time

from checker.case import CaseRunner
from checker.corpus.random_cases import random_cases
from checker.engine import compiled

TARGET_PER_MINUTE = 20_000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"engine: {'compiled' if compiled() else 'pure Python'}; {args.count} cases a ruleset")
    for ruleset_id in ("mcr", "shanghai-knocking", "shanghai-classic"):
        started = time.perf_counter()
        cases = list(random_cases(ruleset_id, args.count, args.seed))
        made = time.perf_counter() - started
        runner = CaseRunner()
        started = time.perf_counter()
        for case in cases:
            runner.run(case)
        scored = time.perf_counter() - started
        per_minute = args.count / made * 60
        print(f"{ruleset_id:18} {per_minute:>10,.0f} cases/min  made/scored {made / scored:5.2f}x  "
              f"{'meets' if per_minute >= TARGET_PER_MINUTE else 'BELOW'} the {TARGET_PER_MINUTE:,}/min target")


if __name__ == "__main__":
    main()
