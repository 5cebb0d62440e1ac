"""Peak memory of `mjcheck diff A B` over two runs of one corpus: a large pair against a small one, in the same run.

    python benchmarks/diff_memory.py [--cases 200000] [--baseline 20000]

For each size, builds the corpus benchmarks/conform.py builds (corpus/mcr.jsonl repeated with distinct ids), runs
it twice (not measured): A through the planted engine of benchmarks/conform_memory.py (Full flush and Thirteen
orphans priced otherwise, robbing the kong an error: failed and errored cases in three classes), B through the
reference engine (every case passes, so each of A's failures is `fixed` in the diff). Then `mjcheck diff A B`
(checker.conform.rundiff: both results files read side by side, as they stream) runs in a child process of its
own, whose peak resident memory (`ru_maxrss`) is printed with its ratio to the small pair's. The issue's finding
(43, item 9): 3.15 GB at 204,000 cases when both runs were held in memory; the target is memory that does not grow
with the runs beyond the cases the diff lists.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from conform import make_corpus  # noqa: E402  (the corpus benchmarks/conform.py builds)
from conform_memory import planted_engine  # noqa: E402  (its engine with planted departures)


def runs(corpus: Path, folder: Path) -> tuple[Path, Path]:
    """Runs A (planted departures) and B (the reference) of `corpus`, in `folder`."""
    from checker.case import CaseRunner
    from checker.conform import run_conformance
    from checker.conform.adapters import EngineInfo, InProcessEngine

    a, b = folder / "a", folder / "b"
    run_conformance(str(corpus), InProcessEngine(planted_engine(folder), EngineInfo("planted", "1")), str(a),
                    engine_spec="python:conform_memory:planted_engine", jobs=1)
    reference = CaseRunner()
    answers: dict[str, object] = {}

    def engine(case):
        base = str(case["id"]).split("#")[0]
        if base not in answers:
            answers[base] = reference.run(case)
        return answers[base]

    run_conformance(str(corpus), InProcessEngine(engine, EngineInfo("reference", "1")), str(b),
                    engine_spec="reference", jobs=1)
    return a, b


def child(a: Path, b: Path) -> None:
    """`mjcheck diff A B --json` (the measured process): prints its counts."""
    from checker.conform.rundiff import compare, read_run

    pair = [read_run(str(a)), read_run(str(b))]
    try:
        found = compare(*pair)
    finally:
        for run in pair:
            run.close()
    print(json.dumps(found["counts"]), flush=True)


def measured(cases: int, directory: Path) -> tuple[float, float, str]:
    folder = directory / f"pair-{cases}"
    folder.mkdir()
    corpus = make_corpus(folder, cases)
    a, b = runs(corpus, folder)
    corpus.unlink()
    start = time.perf_counter()
    process = subprocess.Popen([sys.executable, __file__, "--child", str(a), str(b)], stdout=subprocess.PIPE,
                               text=True)
    assert process.stdout is not None
    said = process.stdout.read().strip()
    _, status, usage = os.wait4(process.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"the diff of {cases} cases ended with status {os.waitstatus_to_exitcode(status)}")
    return usage.ru_maxrss / 1024, time.perf_counter() - start, said


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=200_000)
    parser.add_argument("--baseline", type=int, default=20_000)
    parser.add_argument("--child", nargs=2, metavar=("A", "B"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(Path(args.child[0]), Path(args.child[1]))
        return
    print("mjcheck diff of two runs of one corpus (A: planted departures, B: the reference), the diff in a process "
          "of its own", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        base_rss, base_seconds, said = measured(args.baseline, Path(tmp))
        print(f"  {args.baseline:>9,} cases: peak RSS {base_rss:6.1f} MB in {base_seconds:5.1f} s ({said})", flush=True)
        rss, seconds, said = measured(args.cases, Path(tmp))
        print(f"  {args.cases:>9,} cases: peak RSS {rss:6.1f} MB in {seconds:5.1f} s ({said})")
        print(f"  x{rss / base_rss:.2f} the peak of {args.baseline:,} cases for x{args.cases / args.baseline:,.0f} "
              f"the cases (before streaming: 3.15 GB at 204,000 cases)")


if __name__ == "__main__":
    main()
