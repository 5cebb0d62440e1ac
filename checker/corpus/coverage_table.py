"""The coverage table of a corpus: for every rule id a spec defines (`checker.spec.defined_rules`), how many
cases cover it, and which *required* rules no case covers.

Required are the rules a corpus must exercise: every pattern (fan, hua item, double, direct settlement,
multiplier, lift), every settlement path the spec prices (self-draw, discard, robbed kong, 承包), and every
option whose readings were seen to part. A required rule with no case and no reason is a gap (the command
exits 1). An option whose readings the search never saw part, and an exclusion pair whose fans it never saw
together, are listed under "no witness found" with the reason instead.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from checker.spec import PAYMENT_PATHS, Ruleset


@dataclass(frozen=True)
class CoverageTable:
    ruleset: str
    counts: Mapping[str, int]  # rule id (prefixed) -> cases covering it, every defined rule listed
    required: tuple[str, ...]  # prefixed rule ids a corpus must cover
    no_witness: Mapping[str, str] = field(default_factory=dict)  # what the search could not reach, with why

    @property
    def uncovered(self) -> list[str]:
        """Required rules with no case (whether or not a reason is known)."""
        return [r for r in self.required if not self.counts.get(r)]

    @property
    def gaps(self) -> list[str]:
        """Required rules no case covers: these fail the command. (An option whose readings never parted is
        not required; it is listed in `no_witness` with the reason, as are exclusion pairs never met.)"""
        return self.uncovered

    def as_json(self) -> dict[str, Any]:
        return {"ruleset": self.ruleset, "counts": dict(self.counts), "required": list(self.required),
                "covered_required": len(self.required) - len(self.uncovered), "uncovered": self.uncovered,
                "gaps": self.gaps, "no_witness": dict(self.no_witness)}


def coverage_table(ruleset: Ruleset, cases: Iterable[Mapping[str, Any]],
                   no_witness: Mapping[str, str] | None = None) -> CoverageTable:
    """Count the cases covering each rule of `ruleset`."""
    prefix = ruleset.id + "."
    counts = {prefix + r: 0 for r in sorted(ruleset.rules)}
    for case in cases:
        for rule in set(case.get("covers", [])):
            if rule in counts:
                counts[rule] += 1
    no_witness = dict(no_witness or {})
    # options of the table procedure are covered by procedure logs (checker.table), not by score cases
    parted = {k for k in ruleset.scoring_options() if f"option.{k}" not in no_witness}
    required = [prefix + f"fan.{p.id}" for p in ruleset.patterns]
    required += [f"{prefix}settlement.{p}" for p in PAYMENT_PATHS if f"settlement.{p}" in ruleset.rules]
    required += [prefix + f"option.{k}" for k in ruleset.scoring_options() if k in parted]
    return CoverageTable(ruleset.id, counts, tuple(required), no_witness)


def plain_lines(table: CoverageTable) -> list[str]:
    """The table as plain text lines (for pipes and logs)."""
    required = set(table.required)
    lines = [f"coverage of {table.ruleset}: rule id, cases (* required)"]
    for rule, n in table.counts.items():
        lines.append(f"  {'*' if rule in required else ' '} {rule}  {n}")
    lines.append(f"required rules covered: {len(table.required) - len(table.uncovered)} of {len(table.required)}")
    for key, why in table.no_witness.items():
        lines.append(f"  no witness found: {key}: {why}")
    for rule in table.gaps:
        lines.append(f"  NOT COVERED: {rule}")
    return lines
