"""Time to measure the strength of the three shipped score corpora against every scoring mutant of their specs.

    python benchmarks/strength.py [--seed 0] [--budget 300] [--sample N] [--out strength.md]

Runs `checker.corpus.strength.corpus_strength` on corpus/mcr.jsonl, corpus/shanghai-knocking.jsonl and
corpus/shanghai-classic.jsonl (one process, as `mjcheck corpus strength` runs), then prints the wall time, the
time of each ruleset's part (mutants judged on the corpus, survivors searched), and the kill rate by ruleset.
The issue's target: the whole measure within 10 minutes on 2 cores. `--out` keeps the Markdown report.
A regular install (`pip install .`) runs the compiled engine; an editable one runs it as plain Python (slower).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from checker.corpus.strength import DEFAULT_BUDGET, corpus_strength
from checker.corpus.strength_markdown import markdown
from checker.corpus.strength_records import KILLED, NOT_SEPARATED, SEPARATED, UNBOUND
from checker.engine import compiled

ROOT = Path(__file__).resolve().parents[1]
CORPORA = [ROOT / "corpus" / name for name in ("mcr.jsonl", "shanghai-knocking.jsonl", "shanghai-classic.jsonl")]
TARGET_SECONDS = 600


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--budget", type=float, default=DEFAULT_BUDGET, help="seconds for the survivors' search")
    parser.add_argument("--sample", type=int, default=None, help="mutants per ruleset (default: all)")
    parser.add_argument("--out", type=Path, default=None, help="write the Markdown report here")
    args = parser.parse_args()

    marks: dict[str, float] = {}

    def progress(ruleset: str, done: int, total: int) -> None:
        marks.setdefault(f"{ruleset} start", time.perf_counter())
        marks[f"{ruleset} end"] = time.perf_counter()

    print(f"engine compiled: {compiled()}", flush=True)
    start = time.perf_counter()
    strength = corpus_strength(CORPORA, seed=args.seed, sample=args.sample, budget=args.budget, progress=progress)
    seconds = time.perf_counter() - start
    for rs in strength.rulesets:
        total = rs.total()
        took = marks.get(f"{rs.ruleset} end", start) - marks.get(f"{rs.ruleset} start", start)
        rate = "–" if total.kill_rate is None else f"{100 * total.kill_rate:.1f}%"
        print(f"{rs.ruleset:18} {total.mutants:5} mutants  killed {total.counts.get(KILLED, 0):5} ({rate})  "
              f"separated {total.counts.get(SEPARATED, 0):3}  not separated {total.counts.get(NOT_SEPARATED, 0):3}  "
              f"unbound {total.counts.get(UNBOUND, 0):2}  {took:7.1f} s")
    verdict = "within" if seconds <= TARGET_SECONDS else "OVER"
    print(f"total {seconds:.1f} s ({verdict} the {TARGET_SECONDS} s target); search budget "
          f"{'reached' if strength.budget_reached else 'not reached'}")
    if args.out is not None:
        args.out.write_text(markdown(strength), encoding="utf-8")
    sys.exit(0)


if __name__ == "__main__":
    main()
