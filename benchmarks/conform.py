"""Throughput of `mjcheck conform`: cases per second in process and through the JSON-lines protocol.

    python benchmarks/conform.py [--cases 10000] [--rounds 1] [--profile]

Builds a corpus of --cases cases by repeating corpus/mcr.jsonl with distinct ids (in a temporary directory)
and times whole conformance runs on it (reading and checking the corpus, running, judging, writing
results.jsonl; and, apart, with summary.json and report.md, which for a failing engine cost more than the
run), for:

- `reference` in process: the baseline every other rate is compared with, measured in the same run;
- `reference` in process with `--jobs 2` (and `--jobs auto`, the command's default, when it is not 1 or 2
  here): the corpus in forked processes (Linux), each loading the spec and binding the option sets it
  meets, as the first run does (the engine caches nothing across runs but the specs' parse,
  checker.parse_cache);
- `cmd:` examples/engine.py: the template engine, which does not score (the protocol's own cost);
- `cmd:` examples/reference_engine.py: the reference engine behind the protocol.

and, alone, what the runner does for every case before any engine sees it: reading and checking the corpus
(`read_cases`: JSON parsing and the case schema). --profile prints where the in-process run's time goes.
The issue's targets: >= 10,000 cases/s through the protocol against a fast engine, >= 30,000 in process
against the reference engine. Run it from a regular install (`pip install .`) for the compiled engine.
"""
from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path

from checker.case import read_cases
from checker.conform import engine_from_spec, run_conformance
from checker.conform.shards import auto_jobs
from checker.engine import compiled
from checker.parse_cache import cache_dir

ROOT = Path(__file__).resolve().parents[1]


def make_corpus(directory: Path, size: int) -> Path:
    base = [json.loads(line) for line in (ROOT / "corpus" / "mcr.jsonl").read_text(encoding="utf-8").splitlines()
            if line.strip()]
    path = directory / "corpus.jsonl"
    with path.open("w", encoding="utf-8") as out:
        for i in range(size):
            case = base[i % len(base)]
            out.write(json.dumps({**case, "id": f"{case['id']}#{i}"}, ensure_ascii=False) + "\n")
    return path


def timed_run(corpus: Path, spec: str, out: Path, jobs: int = 1) -> tuple[float, float, dict]:
    """Seconds to the last case's result (reading, checking, running, judging and writing each case) and to
    the end of the run (summary.json and report.md too), and the counts."""
    engine = engine_from_spec(spec, timeout=30.0)
    last = [0.0]

    def on_result(outcome: str) -> None:
        last[0] = time.perf_counter()

    start = time.perf_counter()
    run = run_conformance(str(corpus), engine, str(out), jobs=jobs, on_result=on_result)
    end = time.perf_counter()
    return last[0] - start, end - start, dict(run.summary["counts"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=1,
                        help="run every row this many times, the rows taking turns, and print each row's median "
                             "and range (a shared machine's noise spreads over all rows alike); the rounds after "
                             "the first find the process's bindings and melds read already, as a long-lived "
                             "caller would")
    parser.add_argument("--profile", action="store_true", help="where the in-process run's time goes")
    args = parser.parse_args()
    python = sys.executable
    engines = [("reference, in process, --jobs 1", "reference", 1),
               ("reference, in process, --jobs 2", "reference", 2),
               ("cmd: examples/engine.py (does not score)", f'cmd:"{python} {ROOT / "examples" / "engine.py"}"', 1),
               ("cmd: examples/reference_engine.py", f'cmd:"{python} {ROOT / "examples" / "reference_engine.py"}"', 1)]
    with tempfile.TemporaryDirectory() as tmp:
        corpus = make_corpus(Path(tmp), args.cases)
        auto = auto_jobs(str(corpus))
        if auto not in (1, 2):
            engines.insert(2, (f"reference, in process, --jobs auto (= {auto})", "reference", auto))
        how = "compiled by mypyc" if compiled() else "plain Python: an editable install or MJCHECK_PURE=1"
        print(f"{args.cases} cases (corpus/mcr.jsonl repeated, distinct ids); reference engine {how}; "
              f"--jobs auto is {auto} here; specs' parse cache: {cache_dir() or 'off'} (warm after the first load)")
        start = time.perf_counter()
        with corpus.open("rb") as stream:
            read = sum(1 for line in read_cases(stream, str(corpus)) if line.case is not None)
        reading = time.perf_counter() - start
        print(f"  {'reading and checking the corpus alone':44s} {read / reading:9.0f} cases/s "
              f"({1e6 * reading / read:.0f} µs a case)")
        rates: list[list[float]] = [[] for _ in engines]
        reported: list[list[float]] = [[] for _ in engines]
        counted: list[dict] = [{} for _ in engines]
        for round_number in range(max(1, args.rounds)):
            for i, (label, spec, jobs) in enumerate(engines):
                cases, whole, counted[i] = timed_run(corpus, spec, Path(tmp) / f"out{round_number}-{i}", jobs)
                rates[i].append(args.cases / cases)
                reported[i].append(args.cases / whole)
        baseline = statistics.median(rates[0])
        for i, (label, _, _) in enumerate(engines):
            rate, counts = statistics.median(rates[i]), counted[i]
            spread = f" ({min(rates[i]):.0f}-{max(rates[i]):.0f})" if len(rates[i]) > 1 else ""
            print(f"  {label:44s} {rate:9.0f} cases/s{spread}  ×{rate / baseline:.2f} of in-process reference; "
                  f"with the report {statistics.median(reported[i]):7.0f} cases/s  (passed {counts['passed']}, "
                  f"failed {counts['failed']}, errored {counts['errored']})")
        if args.profile:
            profiler = cProfile.Profile()
            profiler.enable()
            timed_run(corpus, "reference", Path(tmp) / "profiled")
            profiler.disable()
            text = io.StringIO()
            pstats.Stats(profiler, stream=text).sort_stats("tottime").print_stats(18)
            print("\nwhere the in-process run's time goes (by own time):")
            print("\n".join(text.getvalue().splitlines()[6:]))


if __name__ == "__main__":
    main()
