"""What each rule of a ruleset reads: the options, flags and other fans its definition names (a pattern's points,
its predicate's parameters, its exclusions and conditions; a hand check's parameters), as rule ids (`option.X`,
`flag.X`, `fan.X`). Diagnosis asks it whether an option bears on a departure (checker.diagnose.probes
`Experiments.reach`)."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields, is_dataclass
from typing import Any

from checker.spec.model import OptionRef, Ruleset

SKIPPED = {"sources", "note", "requirement", "name_en", "name_zh", "message"}  # words, not what a rule reads


def rule_reads(ruleset: Ruleset) -> dict[str, frozenset[str]]:
    """Per pattern (`fan.X`) and hand check (its id): the options, flags and other fans it names."""
    flags, fans = set(ruleset.flags), {p.id for p in ruleset.patterns}
    out = {f"fan.{p.id}": _named(p, flags, fans) - {f"fan.{p.id}"} for p in ruleset.patterns}
    out.update({check.id: _named(check, flags, fans) for check in ruleset.hand_checks})
    return out


def bears_on(reads: Mapping[str, frozenset[str]], rules: tuple[str, ...] | frozenset[str], option_id: str) -> bool:
    """Whether an option bears on what the rules `rules` (a departure's) define: one of them reads it, or a rule
    that reads it reads one of them or a flag one of them reads."""
    option = f"option.{option_id}"
    mine = set(rules)
    if any(option in reads.get(r, ()) for r in mine):
        return True
    touched = mine | {x for r in mine for x in reads.get(r, ()) if x.startswith("flag.")}
    return any(option in read and read & touched for read in reads.values())


def _named(item: Any, flags: set[str], fans: set[str]) -> frozenset[str]:
    found: set[str] = set()
    stack = [item]
    while stack:
        x = stack.pop()
        if isinstance(x, OptionRef):
            found.add(f"option.{x.option}")
        elif isinstance(x, str):
            found.update(f"{kind}.{x}" for kind, names in (("flag", flags), ("fan", fans)) if x in names)
        elif is_dataclass(x) and not isinstance(x, type):
            stack.extend(getattr(x, f.name) for f in fields(x) if f.name not in SKIPPED)
        elif isinstance(x, Mapping):
            stack.extend([*x.keys(), *x.values()])
        elif isinstance(x, (list, tuple, set, frozenset)):
            stack.extend(x)
    return frozenset(found)
