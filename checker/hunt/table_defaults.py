"""Readings the table decides where the spec is silent, found from the binding step, not copied from a list: every
default the table fell back on while binding the ruleset's procedure (`TableRules.defaulted`, checker.spec
.procedure): a field of an entry the spec gives but not that field (`flower_exposure/in_wall`), an entry the
spec leaves out that the table has a default for, an entry the table plays one way only. Each becomes a `decided`
finding keyed by the field (`decided.table.flower_exposure.in_wall`), the reading taken being the value the
table plays and the others the words the schema allows; its note says the hunter found it in the binding step,
and names any decision of the authors' list that speaks of the same entry (about another of its fields, or the
whole entry).
"""
from __future__ import annotations

from typing import Any

from checker.hunt.findings import DECIDED, Finding, statements_naming
from checker.mutate.procedure import field_schema, words_allowed
from checker.spec import Ruleset, value_key
from checker.spec.bind import bind

BINDER = "checker/spec/procedure.py"


def table_default_findings(ruleset: Ruleset) -> list[Finding]:
    """A `decided` finding for each default the table plays under the ruleset's default options."""
    out = []
    for field, played in bind(ruleset).procedure.defaulted:
        entry, _, key = field.partition("/")
        declared = field_schema(entry, key or None)
        others = [w for w in _words(declared, played) if w != played]
        rule = f"procedure.{entry}"
        listed = [d.id for d in ruleset.decisions if rule in d.by]
        fixed = declared.get("x-fixed")
        what = str(fixed or declared.get("description") or "").strip().rstrip(".")
        note = (f"Found by the hunter in the binding step ({BINDER}): the spec "
                + (f"gives the entry {entry} but not its field {key}" if key else f"does not give the entry {entry}")
                + f", so the table plays {_shown(played)}"
                + (", the only way it plays" if fixed else " (its default)") + "."
                + (f" What the field decides: {what}." if what and not fixed else "")
                + (f" The authors' decisions list speaks of the entry in {', '.join(listed)}." if listed else ""))
        out.append(Finding(
            ruleset=ruleset.id, kind=DECIDED, key=f"decided.table.{field.replace('/', '.')}",
            title=f"procedure.{field.replace('/', '.')}: the table plays {_shown(played)} where the spec is silent",
            rules=[rule], witness={},
            outcomes=[{"reading": _shown(played), "taken": True},
                      *({"reading": _shown(w), "taken": False} for w in others)],
            method="spec", note=note, statements=statements_naming(ruleset, [rule])))
    return out


def _words(declared: Any, played: Any) -> list[Any]:
    """The readings the schema allows the field (its words; true and false for a switch)."""
    words = words_allowed(declared)
    if words:
        return words
    if isinstance(played, bool):
        return [True, False]
    return [played]


def _shown(value: Any) -> str:
    """A value as the spec writes it (value_key); a list of words joined."""
    if isinstance(value, (list, tuple, frozenset, set)):
        return ", ".join(sorted(value_key(v) for v in value))
    return value_key(value)
