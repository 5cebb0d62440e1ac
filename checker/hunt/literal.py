"""Defaults that read the document otherwise than its words say, listed from the spec's own marking: an option
whose `literal` value is the literal reading and whose default is another is listed as `decided`, the default
against the literal wording (issue 40 item 4). Key `decided.literal.OPTION`; the reading taken is the default's,
the other the literal one, each in the spec's words, with the note that says why the default departs.
"""
from __future__ import annotations

from checker.hunt.findings import DECIDED, Finding, statements_naming
from checker.spec import Ruleset
from checker.spec.model import value_key


def literal_default_findings(ruleset: Ruleset) -> list[Finding]:
    """A `decided` finding for each option of the ruleset whose default is not its literal reading."""
    out = []
    for oid, option in ruleset.options.items():
        if option.literal is None or option.literal not in option.values or option.literal == option.default:
            continue
        default, literal = value_key(option.default), value_key(option.literal)
        out.append(Finding(
            ruleset=ruleset.id, kind=DECIDED, key=f"decided.literal.{oid}",
            title=f"{oid}: the default ({default}) reads the document otherwise than its words, which read "
                  f"{literal}",
            rules=[f"option.{oid}"], witness={},
            statements=statements_naming(ruleset, [f"option.{oid}"]),
            outcomes=[{"reading": f"{oid}={default}: {option.readings.get(default, '')}", "taken": True},
                      {"reading": f"{oid}={literal} (the words read literally): {option.readings.get(literal, '')}",
                       "taken": False}],
            method="spec", deciding_option=oid,
            note=f"From the spec authors' marking (`literal: {literal}` on the option), not from their decisions "
                 f"list: the document's words read {literal}, the spec takes {default} by default. "
                 + (f"The spec's reason: {option.note}" if option.note else "")))
    return out
