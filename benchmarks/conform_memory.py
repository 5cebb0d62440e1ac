"""Peak memory of `mjcheck conform` with all its reports, and of `mjcheck report DIR` rebuilding them from the
results file: a large run against a small one, in the same run.

    python benchmarks/conform_memory.py [--cases 1000000] [--baseline 10000]

Builds corpora of --baseline and --cases cases by repeating corpus/mcr.jsonl with distinct ids (as
benchmarks/conform.py does), and runs each through `checker.conform.run_conformance` (results.jsonl, summary.json,
report.md, report.html, junit.xml) in a child process of its own, whose peak resident memory (`ru_maxrss`, the
child's own rusage as `resource.getrusage(RUSAGE_CHILDREN)` counts it, taken by `os.wait4`) is printed with its
ratio to the small run's. The engine answers at once, so that the run and its reports are what is measured: it
is the reference engine on a copy of the MCR spec with planted departures (Full flush worth 32, Thirteen
orphans worth 64), each distinct case of corpus/mcr.jsonl scored once and its answer given again for every copy,
and it raises on every case won by robbing a kong; so the run has failure classes with causes to search, an
errored class, and a profile to infer. Then `mjcheck report DIR` (checker.conform.outputs.rebuild: the summary,
the cause search, report.md, report.html and junit.xml again from results.jsonl, no engine) runs over each run's
folder in a child process of its own, measured alike. The target (issues 28 and 43): at most 150 MB for 1,000,000
cases, for both.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Mapping

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from conform import make_corpus  # noqa: E402  (the same corpus as benchmarks/conform.py builds)

ROOT = Path(__file__).resolve().parents[1]
POINTS = {"full_flush": 32, "thirteen_orphans": 64}  # the planted departures: points other than the spec's


def planted_engine(directory: Path) -> Callable[[Mapping[str, Any]], Mapping[str, Any]]:
    """The engine of the module's docstring (its spec written to `directory`)."""
    from checker.case import CaseRunner
    from checker.spec import load_ruleset_file

    data = yaml.safe_load((ROOT / "spec" / "mcr.yaml").read_text(encoding="utf-8"))
    for p in data["patterns"]:
        p["points"] = POINTS.get(p["id"], p["points"])
    path = directory / "mcr-planted.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    runner = CaseRunner({"mcr": load_ruleset_file(path)})
    answers: dict[str, Mapping[str, Any]] = {}

    def engine(case: Mapping[str, Any]) -> Mapping[str, Any]:
        if case["input"].get("win_by") == "robbing_kong":
            raise RuntimeError("robbing a kong is not supported")
        base = str(case["id"]).split("#")[0]  # (make_corpus: the corpus case's id, then # and the copy's number)
        if base not in answers:
            answers[base] = runner.run(case)
        return answers[base]

    return engine


def child(corpus: Path, out: Path) -> None:
    """One conformance run with all its reports (the measured process)."""
    from checker.conform import run_conformance
    from checker.conform.adapters import EngineInfo, InProcessEngine

    engine = InProcessEngine(planted_engine(out.parent), EngineInfo("planted departures", "1"))
    run = run_conformance(str(corpus), engine, str(out), engine_spec="python:conform_memory:planted_engine", jobs=1)
    counts = run.summary["counts"]
    print(f"passed {counts['passed']}, failed {counts['failed']}, errored {counts['errored']}; "
          f"{len(run.summary['classes'])} classes", flush=True)


def report_child(out: Path) -> None:
    """`mjcheck report DIR` over a finished run's folder (the measured process)."""
    from checker.conform.outputs import rebuild

    summary = rebuild(str(out))
    counts = summary["counts"]
    print(f"rebuilt: passed {counts['passed']}, failed {counts['failed']}, errored {counts['errored']}; "
          f"{len(summary['classes'])} classes", flush=True)


def _child(args: list[str], what: str) -> tuple[float, float, str]:
    """Peak RSS (MB) and seconds of this script run as a child with `args`, and what it printed."""
    start = time.perf_counter()
    process = subprocess.Popen([sys.executable, __file__, *args], stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    said = process.stdout.read().strip()
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    seconds = time.perf_counter() - start
    if process.returncode not in (0, 1):  # 1: cases failed, as planted
        raise SystemExit(f"{what} ended with status {process.returncode}")
    return usage.ru_maxrss / 1024, seconds, said


def measured(cases: int, directory: Path) -> tuple[tuple[float, float, str], tuple[float, float, str]]:
    """Peak RSS (MB), seconds and what the child printed, of a run of `cases` cases, then of `report` over it."""
    folder = directory / f"run-{cases}"
    folder.mkdir()
    corpus = make_corpus(folder, cases)
    rss, seconds, said = _child(["--child", str(corpus), str(folder / "out")], f"the run of {cases} cases")
    sizes = {p.name: p.stat().st_size for p in (folder / "out").iterdir()}
    said += "; " + ", ".join(f"{name} {size / 1e6:.1f} MB" for name, size in sorted(sizes.items()))
    corpus.unlink()
    rebuilt = _child(["--report-child", str(folder / "out")], f"report over the run of {cases} cases")
    return (rss, seconds, said), rebuilt


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=1_000_000)
    parser.add_argument("--baseline", type=int, default=10_000)
    parser.add_argument("--child", nargs=2, metavar=("CORPUS", "OUT"), help=argparse.SUPPRESS)
    parser.add_argument("--report-child", metavar="OUT", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(Path(args.child[0]), Path(args.child[1]))
        return
    if args.report_child:
        report_child(Path(args.report_child))
        return
    from checker.engine import compiled

    print(f"conform with all its reports, each run in a process of its own; corpus/mcr.jsonl repeated, distinct "
          f"ids; engine {'compiled' if compiled() else 'plain Python: an editable install or MJCHECK_PURE=1'}",
          flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        base = measured(args.baseline, Path(tmp))
        for name, (rss, seconds, said) in zip(("conform", "report"), base):
            print(f"  {name:<7} {args.baseline:>9,} cases: peak RSS {rss:6.1f} MB in {seconds:6.0f} s ({said})",
                  flush=True)
        large = measured(args.cases, Path(tmp))
        for name, (rss, seconds, said), (base_rss, _, _) in zip(("conform", "report"), large, base):
            print(f"  {name:<7} {args.cases:>9,} cases: peak RSS {rss:6.1f} MB in {seconds:6.0f} s ({said})")
            print(f"  {name:<7} x{rss / base_rss:.2f} the peak of {args.baseline:,} cases for "
                  f"x{args.cases / args.baseline:,.0f} the cases; target: at most 150 MB "
                  f"({'met' if rss <= 150 else 'not met'})", flush=True)


if __name__ == "__main__":
    main()
