"""PyMahjongGB against the MCR spec: one `mjcheck conform` run, its departures diagnosed, the report checked in.

    .venv/bin/python reports/make_pymahjonggb_mcr.py [--hands 100000] [--seed 2026] [--work out/pymahjonggb-mcr]

1. Writes WORK/cases.jsonl: every case of corpus/mcr.jsonl, then HANDS seeded random complete hands
   (`checker.random_hands.seeded_hands`, the benchmarks' generator), each a score case whose `expect` is the
   reference engine's result at the default options (a hand under 8 points is expected refused).
2. Checks fan coverage: every fan of spec/mcr.yaml must be expected by some case; prints the fans the random
   part never reaches.
3. Runs `mjcheck conform --engine pymahjonggb` on that file (in process, `run_conformance`, reports in
   WORK/run), with every failure class given a cause search (`checker.diagnose`, its class limit lifted):
   nothing here knows PyMahjongGB's readings or fans; the diagnosis finds them as it would for any engine.
4. Writes reports/pymahjonggb-mcr.md (how it was made, then the run's report.md), reports/pymahjonggb-mcr.json
   (the run's summary, case lists cut short) and reports/pymahjonggb-mcr.html (the report page, drawn from a
   sample: every corpus/mcr.jsonl case and the cases each class lists, at most 20; the whole page is over 8 MB).
Exit status 1 when a class is left unexplained or not searched.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any, Iterable, Mapping

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import checker.diagnose  # noqa: E402
import checker.diagnose.causes  # noqa: E402
from checker.case import CaseRunner  # noqa: E402
from checker.conform.html import html_report  # noqa: E402
from checker.conform.outputs import REPORT_FILE  # noqa: E402
from checker.conform.pymahjonggb import pymahjonggb_engine  # noqa: E402
from checker.conform.results import read_results  # noqa: E402
from checker.conform.runner import run_conformance  # noqa: E402
from checker.case import hand_input  # noqa: E402
from checker.random_hands import seeded_hands  # noqa: E402
from checker.spec import load_ruleset  # noqa: E402

CORPUS = ROOT / "corpus" / "mcr.jsonl"
REPORTS = ROOT / "reports"
LISTED = 20  # case names kept per list in the checked-in JSON


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def random_cases(seed: int, n: int, runner: CaseRunner) -> Iterable[dict[str, Any]]:
    """Seeded random complete hands as score cases expecting the reference engine's result at the defaults."""
    context = load_ruleset("mcr").table_context  # the flags a random hand's facts are named by
    for i, hand in enumerate(seeded_hands(seed, n, context), 1):
        case = {"id": f"random-{seed}-{i:06d}", "ruleset": "mcr", "kind": "score", "options": {},
                "input": hand_input(hand, flags=hand.flags)}
        expect = dict(runner.run(case))
        expect.pop("message", None)
        members = expect.get("either") or [expect]
        covers = sorted({f"mcr.fan.{f['id']}" for m in members for f in m.get("fans") or []}
                        | {f"mcr.{m['error']}" for m in members if m.get("error")})
        yield {**case, "expect": expect, "covers": covers, "origin": f"random_hands.seeded_hands({seed})"}


def expected_fans(case: Mapping[str, Any]) -> set[str]:
    expect = case.get("expect") or {}
    return {f["id"] for m in expect.get("either", [expect]) for f in m.get("fans") or []}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=100_000, help="seeded random hands beside corpus/mcr.jsonl")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--work", default=str(ROOT / "out" / "pymahjonggb-mcr"), help="the cases and the full run")
    ap.add_argument("--no-write", action="store_true", help="leave reports/ alone (a trial run)")
    args = ap.parse_args()
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    runner = CaseRunner()
    all_fans = [p.id for p in runner.ruleset("mcr").patterns]

    t = time.perf_counter()
    corpus_lines = [line for line in CORPUS.read_text(encoding="utf-8").splitlines() if line.strip()]
    in_corpus: Counter[str] = Counter()
    for line in corpus_lines:
        in_corpus.update(expected_fans(json.loads(line)))
    in_random: Counter[str] = Counter()
    cases_file = work / "cases.jsonl"
    with open(cases_file, "w", encoding="utf-8") as out:
        out.writelines(line + "\n" for line in corpus_lines)
        for case in random_cases(args.seed, args.hands, runner):
            in_random.update(expected_fans(case))
            out.write(json.dumps(case, ensure_ascii=False, sort_keys=True) + "\n")
    log(f"{args.hands} random cases in {time.perf_counter() - t:.1f}s")
    never = [f for f in all_fans if not in_random[f]]
    absent = [f for f in never if not in_corpus[f]]
    log(f"fans: {len(all_fans) - len(absent)}/{len(all_fans)} expected; random hands never reach {never}")

    checker.diagnose.MAX_CLASSES_SEARCHED = 10_000  # every class searched, the effort unbounded
    checker.diagnose.causes.EFFORT = 10**9
    t = time.perf_counter()
    run_dir = work / "run"
    (run_dir / "results.jsonl").unlink(missing_ok=True)
    os.chdir(ROOT)  # the reports name the cases file relative to the repository
    run = run_conformance(os.path.relpath(cases_file, ROOT), pymahjonggb_engine(), str(run_dir),
                          engine_spec="pymahjonggb")
    seconds = time.perf_counter() - t
    summary = run.summary
    classes = summary.get("classes") or []
    left = [c for c in classes if c["cause"].get("verdict") == "not searched" or not c["cause"].get("explained_by")
            or c["cause"].get("unexplained")]
    log(f"conform with diagnosis: {summary['counts']} in {seconds:.1f}s; {len(classes)} classes, "
        f"{len(left)} not fully explained")
    for c in classes:
        log(f"{c['count']:6d}  {c['signature']}  ->  {c['cause'].get('verdict')}")
    if not args.no_write:
        write_checked_in(args, summary, run_dir, never, absent, seconds)
    return 1 if left else 0


def write_checked_in(args: argparse.Namespace, summary: Mapping[str, Any], run_dir: Path, never: list[str],
                     absent: list[str], seconds: float) -> None:
    engine = summary.get("engine") or {}
    head = [f"# PyMahjongGB {engine.get('version', '')} against the MCR spec", "",
            f"Made by `.venv/bin/python reports/make_pymahjonggb_mcr.py --hands {args.hands} --seed {args.seed}` "
            "(the same command gives the same cases, results and report): the cases of corpus/mcr.jsonl, then "
            f"{args.hands:,} seeded random complete hands (`checker.random_hands.seeded_hands({args.seed}, N)`, "
            "each expecting the reference engine's result at the default options), run by `mjcheck conform "
            "--engine pymahjonggb` in one run whose diagnosis searched every failure class for its cause. "
            "Nothing in the script knows PyMahjongGB's readings or fans: the causes below are what the "
            "diagnosis finds from the spec, the cases and the answers. The full run stays in "
            "out/pymahjonggb-mcr/run/ (not checked in).", "",
            f"Fans: {'all' if not absent else len(set(never) - set(absent))} of the spec's fans are expected by "
            f"some case{'; none expects: ' + ', '.join(absent) if absent else ''}. The random hands never reach "
            f"{', '.join(never) or 'none'} (corpus/mcr.jsonl has a case for each). Conform with diagnosis: "
            f"{seconds:.0f} s.", ""]
    body = (run_dir / REPORT_FILE).read_text(encoding="utf-8")
    cut = body.find("\n## Failed cases")  # one by one, the failed cases stay in the run's own report.md
    if cut >= 0:
        body = body[:cut] + "\n## Failed cases\n\nOne by one in out/pymahjonggb-mcr/run/report.md (not checked in).\n"
    body = "\n".join(("#" + line if line.startswith("#") else line) for line in body.splitlines())
    (REPORTS / "pymahjonggb-mcr.md").write_text("\n".join(head) + "\n" + body + "\n", encoding="utf-8")
    (REPORTS / "pymahjonggb-mcr.json").write_text(json.dumps(_trim(summary), ensure_ascii=False, indent=1) + "\n",
                                                  encoding="utf-8")
    named = {name.split(" (line")[0] for c in summary.get("classes") or [] for name in c["cases"]}
    drawn = [r for r in read_results(str(run_dir / "results.jsonl"))
             if not (r.id or "").startswith("random-") or r.id in named]
    (REPORTS / "pymahjonggb-mcr.html").write_text(html_report(_trim(summary), drawn), encoding="utf-8")


def _trim(value: Any) -> Any:
    """`value` with every list of case names cut to LISTED names and a note of how many more."""
    if isinstance(value, list) and len(value) > LISTED and all(isinstance(i, str) for i in value):
        return value[:LISTED] + [f"… {len(value) - LISTED} more"]
    if isinstance(value, dict):
        return {k: _trim(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_trim(v) for v in value]
    return value


if __name__ == "__main__":
    raise SystemExit(main())
