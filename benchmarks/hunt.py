"""Time to each must-find of the hunter, from a cold start (a fresh process per search: rulesets loaded, scorers
bound and strategies built inside the time), on one core; with --hunts, each ruleset's whole hunt at --effort 1.

    python benchmarks/hunt.py [--seed 1] [--hunts]

The baseline, measured in the same run, is a cold start that only loads the three rulesets; each must-find's
time is printed with its ratio to it. The targets: each must-find within 60 s, those a Z3 model finds (marked
z3) within 5 s; each ruleset's hunt at --effort 1 (`mjcheck hunt --ruleset R --effort 1 --seed S`, into a
folder holding the checked-in findings, as they are remade; its settlement model's claims in processes of their
own beside it, on every core) within 300 s. A search that finds nothing is reported as such; a hunt that exits
other than 0 or 3 (3: it says what it left undone) fails the benchmark.
"""
from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# (label, the Python statements that make the search and leave the finding in `found`)
MUST_FIND = [
    ("knocking: the 无花果 fig worth more than the same hand with a flower (non-monotonic)",
     "from checker.hunt.monotonic import hunt_growth\n"
     "rs = load_ruleset('shanghai-knocking')\n"
     "found = hunt_growth(CaseRunner(), rs, 'flower', _strategy(rs), 300 * E, SEED)"),
    ("knocking: a hand both seven pairs and four sets and a pair (gap)",
     "from checker.hunt.cross import hunt_excluded_shape, overlap_inputs\n"
     "rs = load_ruleset('shanghai-knocking')\n"
     "found = hunt_excluded_shape(CaseRunner(), rs, 'seven_pairs', overlap_inputs(rs.id, 'seven_pairs'), 300 * E, SEED)"),
    *[(f"classic: the readings of {option} (ambiguity)",
       "from checker.hunt.options import hunt_option\n"
       "rs = load_ruleset('shanghai-classic')\n"
       f"o = rs.options['{option}']\n"
       "v = next(x for x in o.values if x != o.default)\n"
       f"found = hunt_option(CaseRunner(), rs, '{option}', v, _strategy(rs), 300 * E, SEED)")
      for option in ("single_hand_limit", "menqing_doubles", "win_hands", "feng_tiles", "lift_to")],
    ("knocking: a knocked player's missed win, forfeit or not allowed (ambiguity, a hand of play)",
     "from checker.hunt.procedure import hunt_table_option\n"
     "rs = load_ruleset('shanghai-knocking')\n"
     "found = hunt_table_option(rs, 'knock_missed_win', 'not_allowed', 40 * E, SEED)"),
    ("knocking vs classic: a passed tile come again, judged differently (cross-variant, a hand of play)",
     "from checker.hunt.cross import hunt_cross_scene\n"
     "from checker.hunt.scenarios import waiting_hands\n"
     "rs = load_ruleset('shanghai-knocking')\n"
     "found = hunt_cross_scene(rs, load_ruleset('shanghai-classic'), 'forgone_then_won', "
     "waiting_hands(rs.id, 'forgone_then_won'), 200 * E, SEED)"),
    *[(f"mcr: {first} excludes {second}, which it never meets (dead-rule, exhaustive)",
       "from checker.hunt.dead import hunt_dead_exclusion\n"
       f"found = hunt_dead_exclusion(CaseRunner(), load_ruleset('mcr'), '{first}', '{second}', time.monotonic() + 60)")
      for first, second in (("three_suited_terminal_chows", "pure_double_chow"),
                            ("pure_triple_chow", "pure_shifted_pungs"),
                            ("four_pure_shifted_pungs", "pure_triple_chow"))],
    ("classic: 风 as the four winds leaves 风碰 unreachable (dead-rule, exhaustive)",
     "from checker.hunt.dead import hunt_dead_pattern\n"
     "found = hunt_dead_pattern(CaseRunner(), load_ruleset('shanghai-classic'), 'feng_peng', "
     "{'feng_tiles': 'winds'}, time.monotonic() + 60)"),
    *[(f"{rid}: {example} read as {option}={value!r} (contradiction{', z3' if z3 else ''})",
       "from checker.hunt.examples import hunt_example, stated_examples\n"
       f"rs = load_ruleset('{rid}')\n"
       f"case = next(c for c in stated_examples(rs) if c['id'] == '{example}')\n"
       f"found = hunt_example(CaseRunner(), rs, case, '{option}', {value!r})")
      for rid, example, option, value, z3 in (
          ("shanghai-classic", "classic-fengpeng-huangfan-8le", "single_hand_limit", True, True),
          ("mcr", "mcr-faq-shape-and-flowers", "chicken_hand_scores", True, True),
          ("mcr", "mcr-guide-regular-self-draw", "non_repeat_reading", "table_only", False),
          ("mcr", "mcr-guide-79", "non_repeat_reading", "table_only", False))],
    *[(f"{rid}: one more {pid} lowers a hand{' under ' + repr(options) if options else ''} (non-monotonic, z3)",
       "from checker.hunt.examples import known_hands\n"
       "from checker.hunt.monotonic import hunt_growth_z3\n"
       f"rs = load_ruleset('{rid}')\n"
       f"found = hunt_growth_z3(CaseRunner(), rs, '{pid}', {options!r}, known_hands(rs))")
      for rid, pid, options in (("shanghai-knocking", "flower", {}),
                                ("shanghai-classic", "gang_kai", {"lift_to": "one_cap_unit"}),
                                ("mcr", "self_drawn", {}))],
]

PRELUDE = (
    "import sys, time\n"
    "start = time.perf_counter()\n"
    "from checker.case import CaseRunner\n"
    "from checker.engine import load_ruleset\n"
    "from checker.hunt.run import _strategy\n"
    "SEED = int(sys.argv[1])\n"
    "found, E = None, 1\n"
)
LOOP = (
    "while found is None and E <= 64:\n"
    "{body}\n"
    "    E *= 4\n"
    "print('found' if found is not None else 'nothing', time.perf_counter() - start)\n"
)
BASELINE = ("for r in ('mcr', 'shanghai-knocking', 'shanghai-classic'):\n    load_ruleset(r)\n"
            "print('found', time.perf_counter() - start)\n")


def timed(code: str, seed: int) -> tuple[str, float]:
    out = subprocess.run([sys.executable, "-c", code, str(seed)], capture_output=True, text=True, check=True)
    verdict, seconds = out.stdout.split()[-2:]
    return verdict, float(seconds)


HUNT_TARGET = 300  # seconds for one ruleset's hunt at --effort 1 on 2 cores
ROOT = Path(__file__).resolve().parent.parent


def hunt_seconds(ruleset_id: str, seed: int) -> tuple[int, float]:
    """(exit status, seconds) of one ruleset's hunt at --effort 1, into a folder holding its checked-in
    findings."""
    with tempfile.TemporaryDirectory() as folder:
        shipped = ROOT / "reports" / "findings" / f"findings-{ruleset_id}.json"
        if shipped.exists():
            shutil.copy(shipped, Path(folder) / shipped.name)
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "checker.cli", "hunt", "--ruleset", ruleset_id, "--effort", "1",
                               "--seed", str(seed), "--out", folder], capture_output=True, text=True)
        return done.returncode, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hunts", action="store_true", help="also time each ruleset's whole hunt at --effort 1")
    args = parser.parse_args()
    _, base = timed(PRELUDE + BASELINE, args.seed)
    print(f"baseline (cold start, the three rulesets loaded): {base:.2f} s")
    for label, search in MUST_FIND:
        body = "\n".join("    " + line for line in search.splitlines())
        verdict, seconds = timed(PRELUDE + LOOP.format(body=body), args.seed)
        target = 5 if "z3" in label else 60
        flag = "" if verdict == "found" and seconds <= target else f"   <-- over the {target} s target" \
            if verdict == "found" else "   <-- not found"
        print(f"{seconds:7.2f} s ({seconds / base:5.1f}x baseline)  {verdict:8} {label}{flag}")
    if args.hunts:
        for ruleset_id in ("shanghai-knocking", "mcr", "shanghai-classic"):
            status, seconds = hunt_seconds(ruleset_id, args.seed)
            flag = "" if seconds <= HUNT_TARGET else f"   <-- over the {HUNT_TARGET} s target"
            if status not in (0, 3):
                flag = f"   <-- the hunt failed (exit {status})"
            print(f"{seconds:7.2f} s ({seconds / base:5.1f}x baseline)  exit {status}  the whole hunt of "
                  f"{ruleset_id} at --effort 1{flag}")


if __name__ == "__main__":
    main()
