"""Cost of diagnosis: a conformance run with its failure classes and causes, against the same run without them.

    python benchmarks/diagnose.py [--cases 100000]

Builds a corpus of --cases cases by repeating corpus/mcr.jsonl with distinct ids, and an engine with planted
departures (the reference engine on a copy of the MCR spec with a dozen changed points and exclusions, which
also ignores the last_tile flag and the flowers), so that the run has a score of failure classes. Times, in
the same run:

- the whole `conform` run (results and every report) with diagnosis: the baseline;
- the same run with diagnosis left out of the summary (the classes empty);
- diagnosis alone on the run's results (`checker.diagnose.diagnose`), its probes put to the same engine (which
  follows a case's options: each confirmed cause is probed under the other values of the options bearing on it).

With diagnosis, each named cause is put to the engine by probes (checker.diagnose.probes): the probe count and how
many causes they confirmed are printed. The issue's targets: diagnosis of a 100,000-case run with 40 failing
classes, probes on, within 5 minutes on 2 cores, and the whole run with diagnosis at most 3x the run without it. Run it from a regular install (`pip install .`) for
the compiled engine.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import yaml

from checker.case import CaseRunner
from checker.conform import run_conformance
from checker.conform import report as report_module
from checker.conform.adapters import EngineInfo, InProcessEngine
from checker.conform.results import read_results
from checker.conform.probing import EngineAsk
from checker.conform.profile import followed_options
from checker.conform.runner import answer_problem
from checker.diagnose import diagnose
from checker.diagnose.probes import Prober
from checker.engine import compiled
from checker.spec import load_ruleset_file

sys.path.insert(0, str(Path(__file__).resolve().parent))
from conform import make_corpus  # noqa: E402  (the same corpus as benchmarks/conform.py builds)

ROOT = Path(__file__).resolve().parents[1]
POINTS = {"full_flush": 32, "half_flush": 4, "all_simples": 1, "seven_pairs": 16, "thirteen_orphans": 64,
          "all_honors": 48, "tile_hog": 4, "two_concealed_pungs": 1, "pung_of_terminals_or_honors": 2}
DROPPED = [("seven_pairs", "single_wait"), ("all_terminals", "outside_hand")]


def planted_engine(directory: Path) -> InProcessEngine:
    data = yaml.safe_load((ROOT / "spec" / "mcr.yaml").read_text(encoding="utf-8"))
    for p in data["patterns"]:
        if p["id"] in POINTS:
            p["points"] = POINTS[p["id"]]
        for by, excluded in DROPPED:
            if p["id"] == by:
                p["excludes"].remove(excluded)
    path = directory / "mcr-planted.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    runner = CaseRunner({"mcr": load_ruleset_file(path)})

    def engine(case):
        data = dict(case["input"])
        data["flowers"] = ""
        data["flags"] = {k: v for k, v in (data.get("flags") or {}).items() if k != "last_tile"}
        return runner.run({**case, "input": data})

    return InProcessEngine(engine, EngineInfo("planted departures", "1"))


def timed(corpus: Path, out: Path, directory: Path) -> tuple[float, dict]:
    start = time.perf_counter()
    run = run_conformance(str(corpus), planted_engine(directory), str(out), jobs=1)
    return time.perf_counter() - start, dict(run.summary)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=100_000)
    args = parser.parse_args()
    print(f"{args.cases} cases (corpus/mcr.jsonl repeated, distinct ids); engine "
          f"{'compiled' if compiled() else 'plain Python: an editable install or MJCHECK_PURE=1'}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        corpus = make_corpus(directory, args.cases)
        with_time, summary = timed(corpus, directory / "with", directory)
        real = report_module.diagnose
        report_module.diagnose = lambda *a, **k: []  # type: ignore[assignment]
        try:
            without_time, _ = timed(corpus, directory / "without", directory)
        finally:
            report_module.diagnose = real
        results = read_results(str(directory / "with" / "results.jsonl"))
        start = time.perf_counter()
        asking = EngineAsk(planted_engine(directory), answer_problem)
        prober = Prober(asking)
        classes = diagnose(results, prober=prober, followed=followed_options(summary.get("profile") or {}))
        asking.close()
        alone = time.perf_counter() - start
    counts = summary["counts"]
    explained = sum(1 for c in classes if (c.get("cause") or {}).get("explained_by"))
    confirmed = sum(1 for c in classes for e in (c.get("cause") or {}).get("explained_by") or []
                    if e.get("evidence") == "confirmed")
    print(f"  counts: {counts['passed']} passed, {counts['failed']} failed, {counts['errored']} errored; "
          f"{len(classes)} failure classes, {explained} explained, {confirmed} causes confirmed by "
          f"{prober.asked} probes (the run's own summary: {summary.get('diagnosis', {}).get('probes_used')})")
    print(f"  conform with diagnosis          {with_time:8.1f} s  x1.00")
    print(f"  conform without diagnosis       {without_time:8.1f} s  x{without_time / with_time:.2f} "
          f"(with is x{with_time / without_time:.2f} of without; target <= 3)")
    print(f"  diagnosis alone                 {alone:8.1f} s  x{alone / with_time:.2f} (target <= 300 s)")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
