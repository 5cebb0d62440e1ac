"""One hunt: for each ruleset, every search the hunter knows (non-monotonicity, every scoring option's readings,
every table option's readings), in a fixed order, each with a fixed effort, in passes of growing effort.
Findings are merged with an earlier `findings-R.json` in the output folder (a known finding keeps its id; one
not found again is carried while the engine still bears it out, checker.hunt.carried) and written with their
page.

Two ways to bound it. `effort` (work units, deterministic): that many passes, the first with EXAMPLES Hypothesis
examples per search, HANDS simulated hands per table reading and PROOF_UNITS hands per exhaustive proof, each
later pass four times as many, then every pair of readings and WITNESS_UNITS hands per fan's witness: the same
seed and effort find the same on any machine, but for a settlement-model claim decided near its solver's bound
(Z3's resource count differs between runs: checker.hunt.proofs). `budget` (seconds): as many passes as the time allows (seven
tenths of it), then pairs of readings while it lasts; with `effort` it is a cap. Whatever a run set out to do
and did not (a search never run, a proof cut short, a pass or pairs left out) is listed in the file and said on
the page (`stopped_early`).
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Callable, Iterable

from checker.case import CaseRunner
from checker.engine import load_ruleset
from checker.hunt.cross import (PASSED_TILE_SCENES, excluded_shapes, hunt_cross, hunt_cross_scene,
                                passed_tile_options, several_winners_part,
                                hunt_excluded_shape, overlap_inputs)
from checker.hunt.carried import still_holds
from checker.hunt.decisions import decision_findings
from checker.hunt.literal import literal_default_findings
from checker.hunt.silent import comment_findings
from checker.hunt.table_defaults import table_default_findings
from checker.hunt.unmodeled import unmodeled_price_findings
from checker.hunt.dead import CutShort, exclusion_pairs, hunt_dead_exclusion, hunt_dead_pattern, narrowing, readings_changing
from checker.hunt.allowance import Allowance
from checker.hunt.arith import ArithModel, context_patterns, find_drop
from checker.hunt.examples import hunt_example, known_hands, stated_examples
from checker.hunt.examine import hand_pool
from checker.hunt.findings import Finding, NotSearched, numbered, out_files, read_findings, write_findings, write_json, write_whole
from checker.hunt.limit import limit_finding
from checker.hunt.one_discard import several_winners_finding
from checker.hunt.apart import Apart, failed as failed_claims
from checker.hunt.roots import roots
from checker.hunt.stakes import space_sample
from checker.hunt.monotonic import GROWTHS, hunt_growth, hunt_growth_z3
from checker.hunt.options import Drawn, hunt_option, hunt_option_under, hunt_pairs
from checker.hunt.page import page
from checker.hunt.procedure import hunt_table_option
from checker.hunt.scenarios import hunt_scenario, scene_options, waiting_hands
from checker.hunt.settle import Claim
from checker.hunt.synth import synthesize, witnesses_page
from checker.hunt.z3context import own_context
from checker.spec import Ruleset, available_rulesets, options_text, value_key
from checker.writable import write_problem
from checker.inputs import InputError, excerpt

EXAMPLES = 300  # Hypothesis examples per search in the first pass; each later pass four times as many
HANDS = 40  # simulated hands per table option reading in the first pass (likewise)
WITNESS_SHARE = 800  # each fan's witness search is given the budget divided by this (0.3 s of 240)
PROOF_SECONDS = 10  # the most time one exhaustive proof is given (a fortieth of the budget, if less)
PROOF_UNITS = 250_000  # under --effort: the hands one exhaustive proof may read in the first pass (likewise)
WITNESS_UNITS = 5_000  # under --effort: the hands each fan's witness search may read, per unit of effort
DEFAULT_BUDGET = 60.0  # seconds, when neither a budget nor an effort is given


@dataclass
class Target:
    """One search: what it looks for, and how to run it with an effort (a multiple of the first pass's)."""

    label: str
    run: Callable[[int], Finding | None]
    repeat: bool = True  # False: its answer is final (a proof, a check of every reading), never rerun


def _strategy(ruleset: Ruleset) -> Any:
    from checker.hunt.strategies import winning_inputs, with_context

    return with_context(winning_inputs(ruleset.id), ruleset.id)


def targets(ruleset: Ruleset, runner: CaseRunner, seed: int,
            proof_seconds: "float | Allowance" = PROOF_SECONDS, drawn: dict[str, Drawn] | None = None) -> list[Target]:
    """Every search for one ruleset, the quick and final ones first: the Z3 model and the document examples
    (instant), the exhaustive proofs (each given `proof_seconds`, or an Allowance of hands), then each option's
    readings (Hypothesis and simulation), growths, excluded shapes and the other rulesets, the scenes against
    them last (the slowest). `drawn` keeps the hands the first pass's searches of scoring readings draw, drawn
    once a ruleset when the first of them runs (checker.hunt.options.Drawn)."""
    strategy = _strategy(ruleset)
    hands = drawn if drawn is not None else {}
    out = []
    scorer = runner.scorer(ruleset.id, {})
    pool: list[dict[str, Any]] = []  # hands known to be legal, read once, when the first Z3 search needs them
    readings: list[dict[str, Any]] = [{}] + [{oid: v} for oid, o in ruleset.scoring_options().items()
                                             for v in o.other_values()]
    plain = _arithmetic(runner.scorer(ruleset.id, {}))
    for options in readings:
        if options and _arithmetic(runner.scorer(ruleset.id, options)) == plain:
            continue  # the reading leaves the arithmetic as it is: the model would say the same
        for pid in context_patterns(runner.scorer(ruleset.id, options)):
            shown = options_text(options)
            out.append(Target(f"non-monotonic (z3): one more {pid}" + (f" under {shown}" if shown else ""),
                              partial(_growth_z3, runner, ruleset, pid, options, pool), repeat=False))
    for case in stated_examples(ruleset):
        for oid, option in ruleset.scoring_options().items():
            for value in option.values:
                out.append(Target(f"contradiction: {case['id']} under {oid}={value_key(value)}",
                                  partial(_example, runner, ruleset, case, oid, value), repeat=False))
    for first, second in exclusion_pairs(ruleset):  # proofs: final when they end
        if narrowing(scorer, [first, second]) is not None:
            out.append(Target(f"dead-rule: {first} excludes {second}",
                              partial(_dead_exclusion, runner, ruleset, first, second, proof_seconds), repeat=False))
    for pattern in ruleset.patterns:
        for oid, value in readings_changing(ruleset, pattern.id):
            out.append(Target(f"dead-rule: {pattern.id} under {oid}={value_key(value)}",
                              partial(_dead_pattern, runner, ruleset, pattern.id, {oid: value}, proof_seconds),
                              repeat=False))
    scenes = scene_options(ruleset)
    for oid, option in ruleset.options.items():
        for value in option.other_values():
            label = f"{oid}={value_key(value)}"
            scenario = next((name for name, decided in scenes.items() if decided == oid), None)
            if scenario is not None:  # a scene built around the situation: far shorter than a bot's hand
                out.append(Target(label, partial(_scene, ruleset, scenario, seed)))
            elif option.read_by == "table":
                out.append(Target(label, partial(_table, ruleset, oid, value, seed)))
            else:
                out.append(Target(label, partial(_scoring, runner, ruleset, oid, value, strategy, seed, pool, hands)))
    for growth, (_, words) in GROWTHS.items():
        out.append(Target(f"non-monotonic: {words}", partial(_growth, runner, ruleset, growth, strategy, seed)))
    for shape in excluded_shapes(ruleset):
        out.append(Target(f"gap: excluded {shape}", partial(_excluded, runner, ruleset, shape, seed)))
    for other in available_rulesets():
        if other != ruleset.id:
            out.append(Target(f"cross-variant: against {other}", partial(_cross, runner, ruleset, other, strategy,
                                                                          seed)))
    for other in available_rulesets():
        if other != ruleset.id and _reads_passed_tiles(ruleset) and _reads_passed_tiles(load_ruleset(other)):
            for scene in PASSED_TILE_SCENES:
                out.append(Target(f"cross-variant: {scene} against {other}",
                                  partial(_cross_scene, ruleset, other, scene, seed)))
        if other != ruleset.id and several_winners_part(ruleset, load_ruleset(other)):
            out.append(Target(f"cross-variant: two_win_on_one_discard against {other}",
                              partial(_cross_scene, ruleset, other, "two_win_on_one_discard", seed)))
    return out


def _proof_allowance(proof: "float | Allowance", effort: int) -> Allowance:
    """What one proof may read at this effort: `proof` hands (an Allowance) or seconds, times the effort."""
    if isinstance(proof, Allowance):
        return proof.times(effort)
    return Allowance(until=time.monotonic() + proof * effort)


def _dead_exclusion(runner: CaseRunner, ruleset: Ruleset, first: str, second: str, proof: "float | Allowance",
                    effort: int) -> Finding | None:
    return hunt_dead_exclusion(runner, ruleset, first, second, _proof_allowance(proof, effort))


def _dead_pattern(runner: CaseRunner, ruleset: Ruleset, pid: str, options: dict[str, Any], proof: "float | Allowance",
                  effort: int) -> Finding | None:
    return hunt_dead_pattern(runner, ruleset, pid, options, _proof_allowance(proof, effort))


def _example(runner: CaseRunner, ruleset: Ruleset, case: dict[str, Any], oid: str, value: Any,
             effort: int) -> Finding | None:
    return hunt_example(runner, ruleset, case, oid, value)


def _arithmetic(scorer: Any) -> tuple:
    """What the Z3 model of the arithmetic reads of a bound scorer: the patterns, their points and kinds, the
    steps and their parameters."""
    return (scorer.ids, scorer.points, tuple(b.pattern.kind for b in scorer.patterns),
            tuple((fn.__name__, sorted(params.items(), key=str)) for fn, params in scorer.steps))


_DEFAULT_DROPS: dict[tuple[str, str], bool] = {}


def _drops_by_default(runner: CaseRunner, ruleset_id: str, pid: str) -> bool:
    """Whether the Z3 model lets one more `pid` lower some hand under the default readings (kept per pattern)."""
    key = (ruleset_id, pid)
    if key not in _DEFAULT_DROPS:
        with own_context():
            _DEFAULT_DROPS[key] = find_drop(ArithModel(runner.scorer(ruleset_id, {})), pid, fewest=False) is not None
    return _DEFAULT_DROPS[key]


def _growth_z3(runner: CaseRunner, ruleset: Ruleset, pid: str, options: dict[str, Any], pool: list[dict[str, Any]],
               effort: int) -> Finding | None:
    if options and _drops_by_default(runner, ruleset.id, pid):
        raise NotSearched(f"one more {pid} lowers a hand under the default readings already: the search under "
                          f"them reports it, not this reading's")
    if not pool:
        pool.extend(known_hands(ruleset))
    return hunt_growth_z3(runner, ruleset, pid, options, pool)


def _growth(runner: CaseRunner, ruleset: Ruleset, growth: str, strategy: Any, seed: int,
            effort: int) -> Finding | None:
    return hunt_growth(runner, ruleset, growth, strategy, EXAMPLES * effort, seed + effort - 1)


def _excluded(runner: CaseRunner, ruleset: Ruleset, shape: str, seed: int, effort: int) -> Finding | None:
    return hunt_excluded_shape(runner, ruleset, shape, overlap_inputs(ruleset.id, shape), EXAMPLES * effort,
                               seed + effort - 1)


def _cross(runner: CaseRunner, ruleset: Ruleset, other: str, strategy: Any, seed: int,
           effort: int) -> Finding | None:
    return hunt_cross(runner, ruleset, load_ruleset(other), strategy, EXAMPLES * effort, seed + effort - 1)


def _reads_passed_tiles(ruleset: Ruleset) -> bool:
    return bool(passed_tile_options(ruleset))


def _cross_scene(ruleset: Ruleset, other: str, scenario: str, seed: int, effort: int) -> Finding | None:
    return hunt_cross_scene(ruleset, load_ruleset(other), scenario, waiting_hands(ruleset.id, scenario),
                            EXAMPLES * effort // 2, seed + effort - 1)


def _scene(ruleset: Ruleset, scenario: str, seed: int, effort: int) -> Finding | None:
    return hunt_scenario(ruleset, scenario, waiting_hands(ruleset.id, scenario), EXAMPLES * effort, seed + effort - 1)


def _table(ruleset: Ruleset, oid: str, value: Any, seed: int, effort: int) -> Finding | None:
    return hunt_table_option(ruleset, oid, value, HANDS * effort, seed + effort - 1)


def _scoring(runner: CaseRunner, ruleset: Ruleset, oid: str, value: Any, strategy: Any, seed: int,
             pool: list[dict[str, Any]], drawn: dict[str, Drawn], effort: int) -> Finding | None:
    if not pool:
        pool.extend(known_hands(ruleset))
    hands = None
    if effort == 1:  # the first pass draws what every later search of this ruleset under other readings does too
        if ruleset.id not in drawn:
            drawn[ruleset.id] = Drawn(runner, ruleset, strategy, EXAMPLES, seed)
        hands = drawn[ruleset.id]
    return hunt_option(runner, ruleset, oid, value, strategy, EXAMPLES * effort, seed + effort - 1, known=pool,
                       hands=hands)


def _under_other_readings(rulesets: list[Ruleset], runner: CaseRunner, seed: int, strategies: dict[str, Any],
                          found: dict[str, dict[str, Finding]], unrun: dict[str, list[str]], deadline: float,
                          drawn: dict[str, Drawn]) -> int:
    """Readings that part only under another option's reading (robbing ×3 on each payer needs the others to pay
    for a discard at all): each scoring search that found nothing, with one other option at one other value, in
    turn until one finds; the hands those searches draw are drawn once a ruleset (`drawn`, kept for the pairs of
    readings) and a search is made only where one of them parts the readings. How many the deadline left out."""
    left = 0
    for rs in rulesets:
        scoring = rs.scoring_options()
        for oid, option in scoring.items():
            for value in option.other_values():
                label = f"{oid}={value_key(value)}"
                if label in found[rs.id] or label in unrun[rs.id]:
                    continue
                bases = [{other: other_value} for other, other_option in scoring.items() if other != oid
                         for other_value in other_option.other_values()]
                if time.monotonic() >= deadline:
                    left += len(bases)
                    continue
                if rs.id not in drawn:
                    drawn[rs.id] = Drawn(runner, rs, strategies[rs.id], EXAMPLES, seed)
                result, _ = hunt_option_under(runner, rs, oid, value, bases, drawn[rs.id], strategies[rs.id],
                                              EXAMPLES, seed)
                if result is not None:
                    found[rs.id][label] = result
    return left


def _pairs(rulesets: list[Ruleset], runner: CaseRunner, seed: int, strategies: dict[str, Any],
           found: dict[str, dict[str, Finding]], deadline: float,
           drawn: dict[str, Drawn]) -> dict[str, tuple[int, int]]:
    """Pairs of scoring readings that change a hand only together: each ruleset's pairs searched at once on the
    hands one search draws (checker.hunt.options.hunt_pairs), the rulesets in turn while the budget lasts (a
    seed gives the same pairs). By ruleset: (pairs searched, pairs in all): a ruleset the budget cut short
    counts only the pairs it found as searched."""
    out = {}
    for rs in rulesets:
        readings = [(oid, v) for oid, o in rs.scoring_options().items() for v in o.other_values()]
        pairs = [(first, second) for i, first in enumerate(readings) for second in readings[i + 1:]
                 if first[0] != second[0]]
        if not pairs or time.monotonic() >= deadline:
            out[rs.id] = (0, len(pairs))
            continue
        separated, whole = hunt_pairs(runner, rs, pairs, strategies[rs.id], EXAMPLES, seed, known_hands(rs), deadline,
                                      drawn.get(rs.id))
        for ((a, va), (b, vb)), finding in separated.items():
            found[rs.id][f"{a}={value_key(va)} & {b}={value_key(vb)}"] = finding
        out[rs.id] = (len(pairs) if whole else len(separated), len(pairs))
    return out


def _turns(rulesets: list[Ruleset], plans: dict[str, list[Target]], used: dict[str, float]) -> Any:
    """Each ruleset's searches in its plan's order, the ruleset that has taken the least time so far going next:
    a short budget is shared evenly, whatever one ruleset's searches cost."""
    next_index = {rs.id: 0 for rs in rulesets}
    while True:
        waiting = [rs for rs in rulesets if next_index[rs.id] < len(plans[rs.id])]
        if not waiting:
            return
        rs = min(waiting, key=lambda r: used[r.id])
        yield rs, plans[rs.id][next_index[rs.id]]
        next_index[rs.id] += 1


def hunt(ruleset_ids: list[str], budget: float | None, seed: int, out_dir: Path,
         on_start: Callable[[int], None] = lambda n: None,
         on_step: Callable[[str], None] = lambda label: None, effort: int | None = None,
         timings: dict[tuple[str, str], float] | None = None) -> dict[str, dict[str, Any]]:
    """Run the hunt and write DIR/findings-R.json and DIR/findings-R.md per ruleset; what was written, by
    ruleset. With `effort` (passes, work units: see the module's docstring) the same seed finds the same on any
    machine, and `budget` (seconds), if given, is a cap; with `budget` alone, passes of growing effort run on
    what is not found yet while seven tenths of it last, and pairs of readings take the rest. What the run left
    undone is listed in the file (`stopped_early`, `skipped`, `cut_short`, `not_rerun`, `pairs`). What it reads
    and writes in `out_dir` is checked first (`check_out`): InputError naming the file before any search.
    `timings`, if given, gets the seconds each search and each later step took, by (ruleset, what) (a
    benchmark's measure; never written to the findings, which stay the same for a seed and effort)."""
    if effort is not None and effort < 1:
        raise ValueError(f"effort must be 1 or more, not {effort}")
    if budget is None and effort is None:
        budget = DEFAULT_BUDGET
    earlier = check_out(out_dir, ruleset_ids)
    runner = CaseRunner()
    rulesets = [load_ruleset(r) for r in ruleset_ids]
    by_count = effort is not None
    proof: float | Allowance = Allowance(units=PROOF_UNITS) if by_count else \
        max(0.5, min(PROOF_SECONDS, (budget or DEFAULT_BUDGET) / 40))
    drawn: dict[str, Drawn] = {}  # by ruleset: the hands a seeded search draws, scored once a reading
    plans = {rs.id: targets(rs, runner, seed, proof, drawn) for rs in rulesets}
    plans_strategy = {rs.id: _strategy(rs) for rs in rulesets}
    on_start(sum(len(p) for p in plans.values()))
    start = time.monotonic()
    cap = start + budget if budget is not None else math.inf
    # the settlement model's claims, made meanwhile in processes of their own (checker.hunt.apart): the main
    # process's searches and pairs of readings do not wait for them, nor they for those
    with Apart() as apart:
        pending = {rs.id: apart.claims(rs.id, effort or 1, cap) for rs in rulesets}
        deadline = cap if by_count else start + 0.7 * (budget or 0)  # the searches of each reading first
        found: dict[str, dict[str, Finding]] = {rs.id: {} for rs in rulesets}
        unrun: dict[str, list[str]] = {rs.id: [t.label for t in plans[rs.id]] for rs in rulesets}
        not_rerun: dict[str, list[str]] = {rs.id: [] for rs in rulesets}  # left out of a pass --effort asked for
        level = 1  # the effort of the pass running: 1, 4, 16, ...
        passes = 0
        took: dict[tuple[str, str], float] = {}  # how long each search took at the last effort it ran with
        used = {rs.id: 0.0 for rs in rulesets}  # the time each ruleset's searches have taken (budget: its turn)
        cut_short: dict[str, set[str]] = {rs.id: set() for rs in rulesets}  # proofs whose time ran out, last they ran
        not_searched: dict[str, dict[str, str]] = {rs.id: {} for rs in rulesets}  # label -> why it does not apply
        others_left = 0
        while True:
            progressed = False
            for rs, target in _turns(rulesets, plans, used):
                final = not target.repeat and target.label not in cut_short[rs.id]  # a proof cut short is given more
                if target.label in found[rs.id] or target.label in not_searched[rs.id] or (level > 1 and final):
                    continue
                if time.monotonic() >= deadline:
                    if by_count and level > 1:
                        not_rerun[rs.id].append(f"{target.label} (effort {level})")
                    continue
                last = took.get((rs.id, target.label))
                if not by_count and last is not None and last * 4 > deadline - time.monotonic():
                    continue  # four times the effort would not end within the budget
                started = time.monotonic()
                try:
                    result = target.run(level)
                    cut_short[rs.id].discard(target.label)
                except CutShort:
                    result = None
                    cut_short[rs.id].add(target.label)
                except NotSearched as why:
                    result = None
                    not_searched[rs.id][target.label] = str(why)
                took[(rs.id, target.label)] = time.monotonic() - started
                if timings is not None:
                    timings[(rs.id, target.label)] = timings.get((rs.id, target.label), 0.0) + took[(rs.id, target.label)]
                if not by_count:
                    used[rs.id] += took[(rs.id, target.label)]
                progressed = True
                if target.label in unrun[rs.id]:
                    unrun[rs.id].remove(target.label)
                    on_step(target.label)
                if result is not None:
                    found[rs.id][target.label] = result
            passes += 1
            if level == 1:
                started = time.monotonic()
                others_left = _under_other_readings(rulesets, runner, seed, plans_strategy, found, unrun, deadline,
                                                    drawn)
                if timings is not None:
                    timings[("", "under other readings")] = time.monotonic() - started
            if by_count and passes >= (effort or 1):
                break
            if not by_count and (not progressed or time.monotonic() >= deadline or level >= 64):
                break
            level *= 4
        clock = timings if timings is not None else {}

        def timed(ruleset_id: str, step: str, make: Callable[[], Any]) -> Any:
            started = time.monotonic()
            try:
                return make()
            finally:
                clock[(ruleset_id, step)] = time.monotonic() - started

        # the main process's own work first, the claims' processes running meanwhile; then it waits for them
        each: float | Allowance = Allowance(units=WITNESS_UNITS * (effort or 1), until=cap) if by_count else \
            (budget or DEFAULT_BUDGET) / WITNESS_SHARE
        witnesses = {rs.id: timed(rs.id, "witnesses", partial(synthesize, runner, rs, known_hands(rs), each))
                     for rs in rulesets}
        pairs = timed("", "pairs of readings", partial(_pairs, rulesets, runner, seed, plans_strategy, found, cap,
                                                        drawn))
        proved = {rs.id: timed(rs.id, "the settlement model's claims", partial(_prove, runner, rs, pending[rs.id],
                                                                                 found[rs.id])) for rs in rulesets}
        written = {}
        for rs in rulesets:
            path = out_dir / f"findings-{rs.id}.json"
            stale: list[str] = []  # earlier findings the engine no longer bears out: not carried, listed
            findings = numbered(rs, [*found[rs.id].values(), *decision_findings(rs), *comment_findings(rs),
                                      *table_default_findings(rs), *unmodeled_price_findings(rs),
                                      *literal_default_findings(rs)],
                                earlier[rs.id], partial(still_holds, runner, rs), stale)
            ranked = timed(rs.id, "roots", partial(roots, runner, rs, [f.as_dict() for f in findings], known_hands(rs),
                                                   space_sample(rs)))
            missing = [t.label for t in plans[rs.id] if t.label not in found[rs.id] and t.label not in unrun[rs.id]
                       and t.label not in cut_short[rs.id] and t.label not in not_searched[rs.id]]
            shorts = [t.label for t in plans[rs.id] if t.label in cut_short[rs.id]]
            searched, of = pairs[rs.id]
            meta = {"budget": budget, "effort": effort, "seed": seed, "searches": len(plans[rs.id]),
                    "passes": passes, "greatest_effort": level,
                    "stopped_early": _stopped_early(budget, unrun[rs.id], shorts, not_rerun[rs.id], searched, of,
                                                    others_left) + _claims_left(proved[rs.id]),
                    "skipped": unrun[rs.id], "cut_short": shorts, "not_rerun": not_rerun[rs.id],
                    "pairs": {"searched": searched, "of": of}, "nothing_found": missing, "no_longer_hold": stale,
                    "not_searched": [{"search": label, "why": why} for label, why in not_searched[rs.id].items()],
                    "proofs": proved[rs.id], "roots": [r.as_dict() for r in ranked]}
            body = write_findings(path, rs.id, findings, meta)
            write_whole(out_dir / f"findings-{rs.id}.md", page(rs.id, rs.title, body))
            write_json(out_dir / f"witnesses-{rs.id}.json", {"ruleset": rs.id, "budget": budget, "effort": effort,
                                                              "seed": seed, "witnesses": witnesses[rs.id]})
            write_whole(out_dir / f"witnesses-{rs.id}.md", witnesses_page(rs.id, rs.title, witnesses[rs.id]))
            written[rs.id] = body
        return written


def _prove(runner: CaseRunner, ruleset: Ruleset, made: Callable[[], list[Claim]],
           found: dict[str, Finding]) -> list[dict[str, Any]]:
    """The settlement model's claims (checker.hunt.proofs), as `made` gives them when they are done (those the
    cap left are listed as not run); a single-hand limit the defaults break becomes a finding with a known hand,
    or, where only several winners of one discard break it, with a hand of play (checker.hunt.one_discard)."""
    out: list[dict[str, Any]] = []
    limits = []
    for claim in made():
        out.append(claim.as_dict())
        if claim.key == "single-hand-limit":
            limits.append(claim)
    finding = limit_finding(runner, ruleset, limits, known_hands(ruleset)) \
        or several_winners_finding(runner, ruleset, limits, hand_pool(ruleset, known_hands(ruleset)))
    if finding is not None:
        found["z3: single-hand limit"] = finding
    return out


def _claims_left(proved: list[dict[str, Any]]) -> list[str]:
    """The settlement model's claims the run left undecided, in words: not run for the budget, or past the
    solver's resource bound (a later effort gives it more)."""
    late = [c for c in proved if c["result"] == "not-run" and c["why"].startswith("the budget")]
    failed = failed_claims(proved)
    bound = [c for c in proved if c["result"] == "not-run" and c not in late and c not in failed]
    out = [f"{len(late)} claim(s) of the settlement model not run (the budget ran out)"] if late else []
    for why in dict.fromkeys(c["why"] for c in failed):  # one line per error, however many claims it stopped
        count = sum(c["why"] == why for c in failed)
        out.append(f"{count} claim(s) of the settlement model not made ({why})")
    if bound:
        out.append(f"{len(bound)} claim(s) of the settlement model undecided within the solver's resource bound")
    return out


def _stopped_early(budget: float | None, skipped: list[str], cut_short: list[str], not_rerun: list[str],
                   pairs_searched: int, pairs: int, others_left: int) -> list[str]:
    """What a run set out to do and did not, in words (empty: it did all of it). Later passes of a budget
    run are extra effort, not part of what it set out to do."""
    why = f"the budget of {budget:g} s ran out" if budget is not None else "the run stopped"
    out = []
    if skipped:
        out.append(f"{len(skipped)} search(es) never ran ({why})")
    if cut_short:
        out.append(f"{len(cut_short)} exhaustive proof(s) stopped before the end of their space")
    if not_rerun:
        out.append(f"{len(not_rerun)} search(es) left out of a pass the effort asked for ({why})")
    if pairs_searched < pairs:
        out.append(f"{pairs - pairs_searched} of {pairs} pairs of readings not searched ({why})")
    if others_left:
        out.append(f"{others_left} search(es) of a reading under another option's reading not run ({why})")
    return out


def check_out(out_dir: Path, ruleset_ids: Iterable[str]) -> dict[str, dict[str, dict[str, Any]]]:
    """Before any search: that every file the hunt writes in `out_dir` can be written, and the earlier findings
    it merges can be read and shown on the page. The earlier findings by ruleset, by key; InputError naming the
    file otherwise."""
    earlier = {}
    for rid in ruleset_ids:
        for path in out_files(out_dir, rid):
            problem = write_problem(path)
            if problem:
                raise InputError("write", str(path), problem)
        path = out_dir / f"findings-{rid}.json"
        found = read_findings(path)
        for f in found.values():
            try:  # what the page draws of it (its witness's tiles, its outcomes) as this run will draw it
                page(rid, rid, {"counts": {}, "findings": [f]})
            except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
                raise InputError("read", str(path), f"the finding {excerpt(f['id'])} cannot be shown on the page "
                                 f"({type(exc).__name__}: {excerpt(str(exc))})", what="findings file") from None
        earlier[rid] = found
    return earlier
