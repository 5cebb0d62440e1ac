"""Each ruleset's whole hunt at `--effort 1`, timed, with its slowest searches and steps.

    python benchmarks/hunt_rulesets.py [--ruleset R ...] [--seed 1] [--top 12]

The baseline, measured in the same run, is a cold start of the hunt's machinery (the rulesets loaded, the
searches planned) without running them; each ruleset's time is printed with its ratio to it, beside the issue's
target (each ruleset within 5 minutes on 2 cores), then the searches and steps that took longest. Run it from a
regular install (`pip install .`) for the compiled engine.
"""
from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from checker.case import CaseRunner
from checker.hunt.run import hunt, targets
from checker.spec import available_rulesets, load_ruleset

TARGET_SECONDS = 300.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", action="append", default=[])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--top", type=int, default=12)
    args = parser.parse_args()
    rulesets = args.ruleset or available_rulesets()
    started = time.perf_counter()
    runner = CaseRunner()
    for ruleset_id in rulesets:
        targets(load_ruleset(ruleset_id), runner, args.seed)
    baseline = time.perf_counter() - started
    print(f"baseline (load and plan {len(rulesets)} rulesets): {baseline:.1f} s")
    for ruleset_id in rulesets:
        timings: dict[tuple[str, str], float] = {}
        with tempfile.TemporaryDirectory() as folder:
            started = time.perf_counter()
            hunt([ruleset_id], None, args.seed, Path(folder), effort=1, timings=timings)
            took = time.perf_counter() - started
        verdict = "meets" if took <= TARGET_SECONDS else "OVER"
        print(f"\n{ruleset_id}: {took:.0f} s ({took / max(baseline, 1e-9):.0f}x the baseline; {verdict} the "
              f"{TARGET_SECONDS:.0f} s target)")
        for (_, what), seconds in sorted(timings.items(), key=lambda kv: -kv[1])[:args.top]:
            print(f"  {seconds:7.1f} s  {what}")


if __name__ == "__main__":
    main()
