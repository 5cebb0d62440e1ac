"""PyMahjongGB against the MCR spec: build the random corpus, run `mjcheck conform`, classify every departure.

    .venv/bin/python reports/make_pymahjonggb_mcr.py [--hands 100000] [--seed 2026] [--work out/pymahjonggb-mcr]

1. Writes WORK/random-mcr.jsonl: HANDS seeded random complete hands (`checker.random_hands.seeded_hands`, the
   generator of the benchmarks), each a score case whose `expect` is the reference engine's result at the
   default options (a hand under 8 points is expected refused: `win.minimum_points`).
2. Checks fan coverage: every fan of spec/mcr.yaml must be expected somewhere in corpus/mcr.jsonl + the random
   file; prints (and reports) the fans the random part never reaches.
3. Runs `mjcheck conform --engine pymahjonggb` (in process, `run_conformance`) on corpus/mcr.jsonl
   (WORK/corpus) and on the random file (WORK/random); the full reports stay there (not checked in).
4. Merges both runs' results into WORK/merged (summary, profile, report.md, report.html: the HTML shows the
   failed cases first, at most MAX_ROWS rows) and classifies every failed case: re-scored by the reference
   engine under PyMahjongGB's readings (the profile's verdicts), a case whose result then matches is a
   *reading* (named by the smallest set of options that explains it); what remains is compared fan by fan:
   a fan the spec does not have (明暗杠) is *outside the spec*; anything else is *unexplained* (a bug on one
   side, named in KNOWN_BUGS once investigated).
5. Writes reports/pymahjonggb-mcr.md (Departures first, then the merged report), reports/pymahjonggb-mcr.json
   (both summaries with the profile, the departure classes, fan coverage) and reports/pymahjonggb-mcr.html.
"""
from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any, Mapping

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from checker.case import CaseRunner, matches  # noqa: E402
from checker.diagnose.diff import diff  # noqa: E402
from checker.conform.outputs import write_reports  # noqa: E402
from checker.conform.profile import FOLLOWS, NEITHER, NO_EVIDENCE, TIE  # noqa: E402
from checker.conform.pymahjonggb import pymahjonggb_engine  # noqa: E402
from checker.spec import load_ruleset as load_spec  # noqa: E402

MINIMUM = load_spec("mcr").win.minimum_points  # the spec's eight-point minimum before flowers
from checker.conform.results import read_results  # noqa: E402
from checker.conform.runner import run_conformance  # noqa: E402
from checker.corpus.candidates import hand_input  # noqa: E402
from checker.random_hands import seeded_hands  # noqa: E402
from checker.spec import value_key  # noqa: E402

CORPUS = ROOT / "corpus" / "mcr.jsonl"
REPORTS = ROOT / "reports"
WITNESSES = 3  # witness cases listed per departure class
JOINT_SAMPLE = 10_000  # random cases (the first ones) in the joint profile, beside all of corpus/mcr.jsonl
# Fans outside the spec and the spec's fans they stand in for: PyMahjongGB's 明暗杠 (one concealed and one
# melded kong, 5 points) replaces Concealed kong (2) + Melded kong (1).
OUTSIDE_REPLACES = {"明暗杠": {"concealed_kong", "melded_kong"}}

# Departures the re-scoring leaves unexplained that were investigated by hand: signature → (side, explanation).
KNOWN_BUGS: dict[str, tuple[str, str]] = {}

# What each reading PyMahjongGB follows means, for the Departures section (spec/mcr.yaml `options:`).
READING_TEXT = {
    "fully_concealed_with_concealed_shapes=false": "Seven pairs, Thirteen orphans, Seven shifted pairs, the honors-and-knitted hands and Nine gates exclude Fully concealed hand; a self-drawn one scores Self drawn (1) instead of Fully concealed hand (4).",
    "two_concealed_kongs_points=6": "Two concealed kongs is worth 6 points (the guide's table says 8).",
    "knitted_straight_as_chows=true": "A knitted straight counts as three chows, so knitted straight + a chow + a numbered pair scores All chows (+2).",
    "tile_hog_honors=true": "Four copies of an honour outside a kong (only possible in Seven pairs) score Tile hog.",
    "four_concealed_pungs_with_fully_concealed=false": "Four concealed pungs excludes Fully concealed hand, which falls back to Self drawn.",
    "held_four_is_a_wait=true": "A tile whose four copies the hand already holds still counts as a wait, so the hand is not on a single tile type and loses Edge / Closed / Single wait.",
    "flower_replacement_is_kong_replacement=true": "A win on a flower replacement counts as Out with replacement tile.",
    "nine_gates_terminal_pungs=one": "Nine gates withholds one Pung of terminals or honors only: when the winning tile leaves both the 111 and the 999 as pungs, the other one counts (+1).",
}


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def random_cases(seed: int, n: int, runner: CaseRunner) -> list[dict[str, Any]]:
    cases = []
    for i, hand in enumerate(seeded_hands(seed, n), 1):
        data = hand_input(hand, flags=hand.flags)
        case = {"id": f"random-{seed}-{i:06d}", "ruleset": "mcr", "kind": "score", "options": {}, "input": data}
        expect = dict(runner.run(case))
        expect.pop("message", None)
        members = expect.get("either") or [expect]
        covers = sorted({f"mcr.fan.{f['id']}" for m in members for f in m.get("fans") or []}
                        | {f"mcr.{m['error']}" for m in members if m.get("error")})
        cases.append({**case, "expect": expect, "covers": covers, "origin": f"random_hands.seeded_hands({seed})"})
    return cases


def fans_expected(cases) -> Counter:
    seen: Counter = Counter()
    for c in cases:
        exp = c.get("expect") or {}
        for m in exp.get("either", [exp]):
            for f in m.get("fans", []) or []:
                seen[f["id"]] += 1
    return seen


def gb_readings(profile: Mapping[str, Any]) -> dict[str, Any]:
    """The option values PyMahjongGB follows (the profile's verdicts; the default where it names none)."""
    rs = CaseRunner().ruleset("mcr")
    chosen = {}
    for oid, o in profile["options"].items():
        v = o["verdict"] if o["verdict"] not in (NO_EVIDENCE, NEITHER, TIE, FOLLOWS) else o["default"]
        chosen[oid] = next(val for val in rs.options[oid].values if value_key(val) == v)
    return chosen


def joint_profile(results, readings: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The profile again, each option varied with every other option at PyMahjongGB's reading (the one-at-a-time
    profile holds the others at the default, so a case departing on two options agrees with neither), on the
    cases' inputs alone (PyMahjongGB does not read a case's options)."""
    runner = CaseRunner()
    rs = runner.ruleset("mcr")
    out = {}
    for oid, option in rs.options.items():
        agree = dict.fromkeys((value_key(v) for v in option.values), 0)
        neither = distinguishing = 0
        witness = {}
        for r in results:
            if r.outcome not in ("passed", "failed") or not isinstance(r.actual, Mapping):
                continue
            under = {value_key(v): rescore(runner, r, {**readings, oid: v}) for v in option.values}
            if len({json.dumps(_norm(u), sort_keys=True, ensure_ascii=False) for u in under.values()}) < 2:
                continue
            distinguishing += 1
            hits = [k for k, u in under.items() if matches(r.actual, u)]
            for k in hits:
                agree[k] += 1
                witness.setdefault(k, f"{r.id} (line {r.line})")
            neither += not hits
        best = max(agree.values()) if agree else 0
        leaders = [k for k, n in agree.items() if n == best]
        verdict = (NO_EVIDENCE if not distinguishing else NEITHER if best == 0 or neither > best
                   else leaders[0] if len(leaders) == 1 else TIE)
        out[oid] = {"default": value_key(option.default), "verdict": verdict, "agree": agree, "neither": neither,
                    "distinguishing": distinguishing, "first_agreeing_case": witness}
    return out


def _norm(result: Mapping[str, Any]) -> Any:
    members = result.get("either") or [result]
    return sorted(({**m, "fans": sorted(m.get("fans") or [], key=lambda f: f["id"])} for m in members),
                  key=lambda m: json.dumps(m, sort_keys=True, ensure_ascii=False))


def rescore(runner: CaseRunner, r, options: Mapping[str, Any]) -> Mapping[str, Any]:
    case = {"ruleset": "mcr", "kind": "score", "options": dict(options), "input": r.input}
    return runner.run(case)


def classify(results, readings: Mapping[str, Any], known_ids: frozenset[str]) -> dict[str, dict[str, Any]]:
    """Every failed case in one class: `reading: opt=v[, …]`, `outside the spec: fan`, or `unexplained: sig`."""
    runner = CaseRunner()
    rs_options = runner.ruleset("mcr").options
    classes: dict[str, dict[str, Any]] = {}

    def add(key: str, r, kind: str, detail: Mapping[str, Any]) -> None:
        entry = classes.setdefault(key, {"kind": kind, "count": 0, "cases": [], "witnesses": []})
        entry["count"] += 1
        entry["cases"].append(f"{r.id} (line {r.line})")
        entry["witnesses"].append((_size(r), r, detail))
        entry["witnesses"] = sorted(entry["witnesses"], key=lambda w: w[0])[:WITNESSES]

    for r in results:
        if r.outcome != "failed":
            continue
        under = rescore(runner, r, readings)
        if r.options and matches(r.actual, rescore(runner, r, {})):
            own = ", ".join(f"{k}={value_key(v)}" for k, v in sorted(r.options.items()))
            add(f"case option not read: {own}", r, "reading", {"case_options": own})
            continue
        if matches(r.actual, under):
            names = _smallest_explaining(runner, r, {k: v for k, v in readings.items()
                                                     if value_key(v) != value_key(rs_options[k].default)})
            add("reading: " + ", ".join(f"{k}={value_key(v)}" for k, v in names.items()), r, "reading",
                {"explained_by": {k: value_key(v) for k, v in names.items()}})
            continue
        found = diff(under, r.actual)
        outside = [f for f in found.extra if f.get("id") not in known_ids]
        actual_fans = r.actual.get("fans") or []
        outside_points = sum(f["points"] * f["count"] for f in actual_fans if f.get("id") not in known_ids)
        replaced = set().union(*(OUTSIDE_REPLACES.get(f["id"], set()) for f in outside)) if outside else set()
        only_outside = (all(f["id"] in replaced for f in found.missing) and not found.different
                        and len(outside) == len(found.extra) and outside)
        if only_outside and all(k in ("total", "payments") for k, _, _ in found.fields):
            add("outside the spec: " + ", ".join(sorted(f["id"] for f in outside)), r, "outside",
                {"fans": outside, "readings_applied": _applied(r, readings)})
            continue
        if (r.actual.get("valid") and under.get("valid") is False and under.get("error") == "win.minimum_points"
                and outside_points and r.actual["total"] - outside_points - _flowers(actual_fans) < MINIMUM):
            add("outside the spec: " + ", ".join(sorted({f["id"] for f in actual_fans if f.get("id") not in known_ids}))
                + " lifts the hand to 8 points", r, "outside", {"readings_applied": _applied(r, readings)})
            continue
        sig = _signature(found)
        add("unexplained: " + sig, r, "unexplained", {"reference_under_readings": under})
    for entry in classes.values():
        entry["witnesses"] = [{"case": f"{r.id} (line {r.line})", "input": r.input, "options": r.options,
                               "expected": r.expected, "actual": r.actual, **detail}
                              for _, r, detail in entry["witnesses"]]
    return dict(sorted(classes.items(), key=lambda kv: (-kv[1]["count"], kv[0])))


def _applied(r, readings) -> dict[str, str]:
    return {k: value_key(v) for k, v in readings.items()}


def _flowers(fans) -> int:
    return sum(f["points"] * f["count"] for f in fans if f.get("id") == "flower_tiles")


def _size(r) -> tuple:
    data = r.input or {}
    return (len(data.get("melds") or []) + len(data.get("flowers") or "") + len(data.get("flags") or {}),
            len(r.expected.get("fans") or []) if isinstance(r.expected, Mapping) else 0, r.line)


def _smallest_explaining(runner: CaseRunner, r, readings: Mapping[str, Any]) -> dict[str, Any]:
    items = sorted(readings.items())
    for size in range(1, len(items) + 1):
        for combo in itertools.combinations(items, size):
            if matches(r.actual, rescore(runner, r, dict(combo))):
                return dict(combo)
    return dict(items)


def _signature(found) -> str:
    parts = [f"missing {f['id']}" for f in found.missing] + [f"extra {f['id']}" for f in found.extra]
    parts += [f"{e['id']} {e['points']}×{e['count']}→{a['points']}×{a['count']}" for e, a in found.different]
    if not parts:
        parts = [f"{k}: {json.dumps(w)}→{json.dumps(g)}" for k, w, g in found.fields if k not in ("payments",)]
    return "; ".join(sorted(parts)) or "results differ in shape"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--work", default=str(ROOT / "out" / "pymahjonggb-mcr"))
    ap.add_argument("--no-write", action="store_true", help="leave reports/ alone (a trial run)")
    args = ap.parse_args()
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    runner = CaseRunner()
    rs = runner.ruleset("mcr")
    all_fans = [p.id for p in rs.patterns]
    known_ids = frozenset(all_fans)
    timings: dict[str, float] = {}

    t = time.perf_counter()
    cases = random_cases(args.seed, args.hands, runner)
    random_file = work / "random-mcr.jsonl"
    with open(random_file, "w", encoding="utf-8") as out:
        for c in cases:
            out.write(json.dumps(c, ensure_ascii=False, sort_keys=True) + "\n")
    timings["generate random cases (reference expectations)"] = time.perf_counter() - t
    log(f"{len(cases)} random cases in {timings['generate random cases (reference expectations)']:.1f}s")

    corpus_cases = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines() if line.strip()]
    in_corpus, in_random = fans_expected(corpus_cases), fans_expected(cases)
    coverage = {"fans": len(all_fans), "in_corpus": sum(1 for f in all_fans if in_corpus[f]),
                "in_random": sum(1 for f in all_fans if in_random[f]),
                "in_either": sum(1 for f in all_fans if in_corpus[f] or in_random[f]),
                "missing_from_both": [f for f in all_fans if not in_corpus[f] and not in_random[f]],
                "never_in_random": [f for f in all_fans if not in_random[f]],
                "random_counts": {f: in_random[f] for f in all_fans}}
    log(f"fans: {coverage['in_either']}/{len(all_fans)} present; random never reaches {coverage['never_in_random']}")

    runs = {}
    for name, corpus in (("corpus", CORPUS), ("random", random_file)):
        t = time.perf_counter()
        out_dir = work / name
        if (out_dir / "results.jsonl").exists():
            (out_dir / "results.jsonl").unlink()
        shown = os.path.relpath(corpus, ROOT) if Path(corpus).is_relative_to(ROOT) else str(corpus)
        run = run_conformance(str(corpus), pymahjonggb_engine(), str(out_dir), engine_spec="pymahjonggb")
        run.summary["corpus"] = shown  # the report names files relative to the repository
        timings[f"conform {name}"] = time.perf_counter() - t
        runs[name] = run.summary
        log(f"conform {name}: {run.summary['counts']} in {timings[f'conform {name}']:.1f}s")

    t = time.perf_counter()
    merged_dir = work / "merged"
    merged_dir.mkdir(exist_ok=True)
    results = read_results(str(work / "corpus" / "results.jsonl")) + read_results(str(work / "random" / "results.jsonl"))
    meta = {"engine": runs["corpus"]["engine"], "engine_spec": "pymahjonggb",
            "corpus": f"corpus/mcr.jsonl + {args.hands} seeded random hands (seed {args.seed}; "
                      f"reports/make_pymahjonggb_mcr.py)"}
    merged = write_reports(str(merged_dir), meta, False, results)
    timings["merged summary and profile"] = time.perf_counter() - t

    t = time.perf_counter()
    readings = gb_readings(merged["profile"]["mcr"])
    sample = [r for r in results if r.id and not r.id.startswith("random-")]
    sample += [r for r in results if r.id and r.id.startswith("random-")][:JOINT_SAMPLE]
    joint = joint_profile(sample, readings)
    timings["joint profile"] = time.perf_counter() - t
    for oid, o in joint.items():
        log(f"joint {oid}: {o['verdict']} {o['agree']} neither {o['neither']} of {o['distinguishing']}")
    readings = gb_readings({"options": joint})
    t = time.perf_counter()
    classes = classify(results, readings, known_ids)
    timings["classify failures"] = time.perf_counter() - t
    for key, c in classes.items():
        log(f"{c['count']:6d}  {key}")
    unexplained = sum(c["count"] for k, c in classes.items() if c["kind"] == "unexplained" and k not in KNOWN_BUGS)
    info = {"seed": args.seed, "hands": args.hands, "timings_s": {k: round(v, 1) for k, v in timings.items()},
            "fan_coverage": coverage, "pymahjonggb_readings": {k: value_key(v) for k, v in readings.items()},
            "joint_profile": joint, "joint_profile_cases": len(sample),
            "departures": classes, "corpus_run": runs["corpus"], "random_run": runs["random"], "merged": merged}
    (work / "departures.json").write_text(json.dumps(info, ensure_ascii=False, indent=2, default=str) + "\n")
    if not args.no_write:
        write_checked_in(info, merged_dir, results)
    log(f"timings: {info['timings_s']}; unexplained departures: {unexplained}")
    return 0


def write_checked_in(info: Mapping[str, Any], merged_dir: Path, results) -> None:
    from checker.conform.html import html_report
    from checker.conform.report import profile_lines

    merged = info["merged"]
    cov = info["fan_coverage"]
    counts = {k: info[k]["counts"] for k in ("corpus_run", "random_run")}
    classes = info["departures"]
    md = [f"# PyMahjongGB {merged['engine'].get('version', '')} against the MCR spec", "",
          "Made by `.venv/bin/python reports/make_pymahjonggb_mcr.py --hands "
          f"{info['hands']} --seed {info['seed']}` (the same command gives the same cases and results): "
          "corpus/mcr.jsonl and "
          f"{info['hands']:,} seeded random complete hands (`checker.random_hands.seeded_hands({info['seed']}, N)`, "
          "expectations from the reference engine at the default options), each run by `mjcheck conform "
          "--engine pymahjonggb` (in process). The full per-run reports and results.jsonl stay in "
          "out/pymahjonggb-mcr/ (not checked in).", "",
          "| part | passed | failed | errored | skipped | total |", "|---|---:|---:|---:|---:|---:|"]
    for name, c in (("corpus/mcr.jsonl", counts["corpus_run"]), ("random hands", counts["random_run"])):
        md.append(f"| {name} | {c['passed']} | {c['failed']} | {c['errored']} | {c['skipped']} | {c['total']} |")
    md += ["", f"Fans: {cov['in_either']} of the spec's {cov['fans']} are expected somewhere "
           f"(corpus {cov['in_corpus']}, random hands {cov['in_random']}); missing from both: "
           f"{', '.join(cov['missing_from_both']) or 'none'}. The random hands never reach: "
           f"{', '.join(cov['never_in_random'])} (corpus/mcr.jsonl has a case for each).", "",
           "Timings (s): " + ", ".join(f"{k} {v}" for k, v in info["timings_s"].items()), ""]
    unexplained = [k for k, c in classes.items() if c["kind"] == "unexplained" and k not in KNOWN_BUGS]
    failed = counts["corpus_run"]["failed"] + counts["random_run"]["failed"]
    md += ["## PyMahjongGB's profile", "",
           f"Each option varied with every other option at PyMahjongGB's reading (the cases' inputs alone: "
           f"PyMahjongGB reads no case options), on corpus/mcr.jsonl and the first {JOINT_SAMPLE:,} random hands "
           f"({info['joint_profile_cases']} cases). `neither`: cases that tell the readings apart where "
           "PyMahjongGB gives neither result (these were not checked one by one; each such case that fails is classified under Departures below, where none is left unexplained).",
           "", "| option | PyMahjongGB's reading | default | agree | neither | distinguishing |", "|---|---|---|---|---:|---:|"]
    for oid, o in info["joint_profile"].items():
        mark = "" if o["verdict"] in (o["default"], NO_EVIDENCE) else " **(not the default)**"
        agree = ", ".join(f"{k}: {n}" for k, n in o["agree"].items())
        md.append(f"| {oid} | {o['verdict']}{mark} | {o['default']} | {agree} | {o['neither']} | {o['distinguishing']} |")
    md += ["", "Notes on evidence:", "",
           "- held_four_is_a_wait: few hands tell the readings apart (a hand holding all four copies of a tile it "
           "would otherwise wait on); the one case counted for `false` (random-2026-009886: 1p1p2p3p3p4p4p4p4p5p + 222s, self-drawn 1p) "
           "has an `either` expectation (two equal-total readings) and PyMahjongGB's answer is the member "
           "without Single wait; the one `neither` case was not investigated. The verdict rests on the cases listed in the table and on the failures "
           "classified below.",
           "- flower_replacement_is_kong_replacement: PyMahjongGB has no flower-replacement input; the adapter "
           "tells it 'kong replacement' only for a direct kong replacement (kong_replacement without "
           "flower_replacement), so this verdict is the adapter's mapping, not a reading of PyMahjongGB's own.",
           "- robbing_kong_paid_as: PyMahjongGB scores fans only; the adapter pays by the spec's settlement under "
           "the case's options, so this verdict too is the adapter's, not PyMahjongGB's.", ""]
    md += ["## Departures", "",
           f"Every one of the {failed} failed cases is in exactly one class below. Each was scored again by the "
           "reference engine under PyMahjongGB's readings (the table above, ignoring the case's own options): "
           "a case whose result then matches is a *reading* (named by the smallest set of non-default readings "
           "that explains it); a case that still differs only by a fan the spec does not have is *outside the "
           "spec*; the rest are *bugs on one side*, each investigated. "
           f"Unexplained: {len(unexplained)} classes.", ""]
    for key, c in classes.items():
        title = f"bug on one side ({KNOWN_BUGS[key][0].split(' (')[0]}): {key.split(': ', 1)[1]}" if key in KNOWN_BUGS else key
        md += [f"### {title} — {c['count']} cases", ""]
        if key.startswith("case option not read"):
            md.append("A corpus case that sets an option to its non-default reading (one case per reading); "
                      "PyMahjongGB takes no options and gives the result of the reading it follows (see the "
                      "profile), which here is the default. A reading, not a bug.")
        elif c["kind"] == "reading":
            opts = key.split(": ", 1)[1].split(", ")
            md.append("A reading: " + " ".join(READING_TEXT.get(o, o) for o in opts)
                      + " The reference engine under " + ", ".join(f"`{o}`" for o in opts)
                      + " gives PyMahjongGB's result on every case of this class.")
        elif c["kind"] == "outside":
            md.append("A fan outside the spec: PyMahjongGB scores 明暗杠 (Concealed and melded kong, 5 points) for "
                      "one concealed kong with one melded kong, in place of Concealed kong (2) + Melded kong (1); "
                      "the guide's table has no such fan. With PyMahjongGB's readings applied, the results differ "
                      "by that fan alone" + (" (and the 2 extra points lift a hand the spec refuses under 8 points "
                      "to a win)." if "lifts" in key else "."))
        elif key in KNOWN_BUGS:
            side, text = KNOWN_BUGS[key]
            md.append(f"A bug on one side: **{side}**. {text}")
        else:
            md.append("**Unexplained** (not yet investigated).")
        w = c["witnesses"][0]
        md += ["", f"Smallest witness: `{w['case']}`" + (f", the case's own options `{json.dumps(w['options'])}`" if w.get("options") else ""), "",
               "```json", json.dumps(w["input"], ensure_ascii=False, sort_keys=True), "```", "",
               "- expected: " + _fans_text(w["expected"]), "- PyMahjongGB: " + _fans_text(w["actual"]), ""]
        if len(c["cases"]) > 1:
            more = ", ".join(c["cases"][1:8]) + (" …" if len(c["cases"]) > 8 else "")
            md += [f"Other cases: {more}", ""]
    md += ["## The profile as `mjcheck conform` infers it (one option at a time, others at the default)", "",
           "Kept for comparison: holding the other options at the default makes a case that departs on two "
           "options agree with neither reading (seven_pairs_four_identical shows `neither` here for that reason).", ""]
    md += [line.replace("## Profile", "### Profile") for line in profile_lines(merged.get("profile") or {})]
    md += ["## Files", "",
           "- reports/pymahjonggb-mcr.json: both runs' summaries (counts, profile, failures by option / fan, "
           "case lists cut to 20 names), the joint profile, the departure classes with witnesses, fan coverage.",
           f"- reports/pymahjonggb-mcr.html: the report page of the merged results, drawn from a sample: every "
           f"corpus/mcr.jsonl case and up to {HTML_PER_CLASS} failed random cases per departure class (the full "
           "page is over 8 MB); the counts and profile in it are those of all cases.", ""]
    (REPORTS / "pymahjonggb-mcr.md").write_text("\n".join(md), encoding="utf-8")

    summary_json = {k: v for k, v in info.items() if k not in ("corpus_run", "random_run", "merged")}
    summary_json["departures"] = {k: {**c, "cases": c["cases"][:50], "cases_total": c["count"]} for k, c in classes.items()}
    summary_json["runs"] = {k: _trim(info[k]) for k in ("corpus_run", "random_run")}
    summary_json["merged"] = _trim(merged)
    (REPORTS / "pymahjonggb-mcr.json").write_text(json.dumps(summary_json, ensure_ascii=False, indent=1, default=str) + "\n",
                                                  encoding="utf-8")

    keep: set[str] = set()
    for c in classes.values():
        keep.update(n.split(" (line")[0] for n in c["cases"] if n.startswith("random-") and len(keep) >= 0
                    and c["cases"].index(n) < HTML_PER_CLASS)
    sample = [r for r in results if not (r.id or "").startswith("random-") or r.id in keep]
    (REPORTS / "pymahjonggb-mcr.html").write_text(html_report(_trim(merged), sample), encoding="utf-8")


HTML_PER_CLASS = 15


def _fans_text(result: Mapping[str, Any]) -> str:
    m = (result.get("either") or [result])[0]
    if not m.get("valid"):
        return f"refused ({m.get('error')})"
    return f"{m['total']} points: " + ", ".join(f"{f['id']} {f['points']}×{f['count']}" for f in m.get("fans") or [])


def _trim(summary: Mapping[str, Any], n: int = 20) -> dict[str, Any]:
    def cut(x):
        if isinstance(x, list) and len(x) > n and all(isinstance(i, str) for i in x):
            return x[:n] + [f"… {len(x) - n} more"]
        if isinstance(x, dict):
            return {k: cut(v) for k, v in x.items()}
        return x
    return cut(dict(summary))


if __name__ == "__main__":
    raise SystemExit(main())
