"""One hunt: for each ruleset, every search the hunter knows (non-monotonicity, every scoring option's readings,
every table option's readings), in a fixed order, each with a fixed effort, until the time budget is spent.
Findings are merged with an earlier `findings-R.json` in the output folder (a known finding keeps its id) and
written with their page. The same seed gives the same findings (searches are seeded; the budget only decides
how many of them run).
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Callable

from checker.case import CaseRunner
from checker.engine import load_ruleset
from checker.hunt.findings import Finding, numbered, read_findings, write_findings
from checker.hunt.monotonic import GROWTHS, hunt_growth
from checker.hunt.options import hunt_option
from checker.hunt.page import page
from checker.hunt.procedure import hunt_table_option
from checker.spec import Ruleset, value_key

EXAMPLES = 300  # Hypothesis examples per search
HANDS = 40  # simulated hands per table option reading


@dataclass
class Target:
    """One search: what it looks for, and how to run it."""

    label: str
    run: Callable[[], Finding | None]


def targets(ruleset: Ruleset, runner: CaseRunner, seed: int) -> list[Target]:
    from checker.hunt.strategies import winning_inputs, with_context

    strategy = with_context(winning_inputs(ruleset.id), ruleset.id)
    out = [Target(f"non-monotonic: {words}", partial(hunt_growth, runner, ruleset, growth, strategy, EXAMPLES, seed))
           for growth, (_, words) in GROWTHS.items()]
    for oid, option in ruleset.options.items():
        for value in option.values:
            if value == option.default and type(value) is type(option.default):
                continue
            label = f"{oid}={value_key(value)}"
            if option.read_by == "table":
                out.append(Target(label, partial(hunt_table_option, ruleset, oid, value, HANDS, seed)))
            else:
                out.append(Target(label, partial(hunt_option, runner, ruleset, oid, value, strategy, EXAMPLES, seed)))
    return out


def hunt(ruleset_ids: list[str], budget: float, seed: int, out_dir: Path,
         on_start: Callable[[int], None] = lambda n: None,
         on_step: Callable[[str], None] = lambda label: None) -> dict[str, dict[str, Any]]:
    """Run the hunt and write DIR/findings-R.json and DIR/findings-R.md per ruleset; what was written, by
    ruleset. Searches past the budget are skipped (and counted as such in the file)."""
    runner = CaseRunner()
    rulesets = [load_ruleset(r) for r in ruleset_ids]
    plans = {rs.id: targets(rs, runner, seed) for rs in rulesets}
    on_start(sum(len(p) for p in plans.values()))
    deadline = time.monotonic() + budget
    written = {}
    for rs in rulesets:
        found: list[Finding] = []
        skipped = []
        for target in plans[rs.id]:
            if time.monotonic() >= deadline:
                skipped.append(target.label)
                on_step(target.label)
                continue
            result = target.run()
            if result is not None:
                found.append(result)
            on_step(target.label)
        path = out_dir / f"findings-{rs.id}.json"
        earlier = read_findings(path)
        findings = numbered(rs, found, earlier)
        meta = {"budget": budget, "seed": seed, "searches": len(plans[rs.id]), "skipped": skipped}
        body = write_findings(path, rs.id, findings, meta)
        (out_dir / f"findings-{rs.id}.md").write_text(page(rs.id, rs.title, body), encoding="utf-8")
        written[rs.id] = body
    return written
