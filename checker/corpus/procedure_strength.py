"""Corpus strength for hands of play: which wrong table procedures a corpus of procedure cases lets through.

The mutants are the spec's one-step procedure edits (`checker.mutate.procedure`). Each is first bound as the
table binds a spec (`binding_problem`): the edited `procedure:` section against the ruleset schema, the table's
rules (`checker.spec.bind`'s `Bound.procedure`) under the default options and under each other value of each option the
table reads, and the scorer; one that does not bind is no ruleset, and is counted `unbound` with the reason.

A bound mutant is run on every procedure case with an `expect` that the reference table passes, through the same
table (`checker.case.CaseRunner` holding the edited spec under the ruleset's id: there is no second table); it is
**killed** when some case's result no longer matches the case's `expect` (the first such case is kept; cases
whose `covers` name a rule the mutant touches are tried first, each part in the corpus order).

Not every change can show in a procedure case's result (its verdict, the illegal event and rule, the winners, the
payments, and what the next hand starts from: the next dealer, round wind and 荒番 count): `unobservable` compares
the bound rules of the spec and of the mutant under every reading, and where each difference is one that result
never shows (a claim priority where a claim on a discard already claimed is refused whichever ranks higher, so
that only the refusal's message changes; a rule the ruleset's table never reads), a survivor gets that as its
verdict rather than being counted a gap. A survivor a case could observe is searched for a hand of play that
kills it by `checker.separating.search`.
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from functools import lru_cache
from types import MappingProxyType
from typing import Any, Mapping, Sequence

import jsonschema

from checker.case import CaseError, CaseRunner, matches, schema_message
from checker.engine.scoring import Scorer
from checker.mutate.catalog import Catalog
from checker.mutate.mutation import Mutation
from checker.mutate.procedure import procedure_mutations
from checker.spec import Ruleset, schema, value_key
from checker.spec.bind import bind
from checker.spec.procedure import ProcedureError, TableRules

# what running a case under a mutant may raise when the edited spec is one the table cannot play
PLAY_FAILURES = (ValueError, KeyError, TypeError, AttributeError, ArithmeticError, IndexError, AssertionError,
                 StopIteration)
NOT_COMPARED = frozenset({"ruleset", "options", "read"})  # TableRules fields that are not rules of play


@dataclass(frozen=True)
class Judged:
    """What running the cases under one procedure mutant found: the index of the first case it kills (None: none),
    or why it is not a ruleset (`unbound`); for a survivor, why no procedure case could see it (`unseen`)."""

    mutation: Mutation
    killer: int | None = None
    unbound: str = ""
    unseen: str = ""


def _rules_of(rules: TableRules) -> dict[str, Any]:
    return {f.name: getattr(rules, f.name) for f in fields(TableRules) if f.name not in NOT_COMPARED}


def readings(ruleset: Ruleset, options: Sequence[str]) -> list[dict[str, Any]]:
    """The option sets the table is bound under: the defaults, and each other value of each of `options`."""
    found: list[dict[str, Any]] = [{}]
    found += [{oid: v} for oid in options if oid in ruleset.options for v in ruleset.options[oid].other_values()]
    return found


def table_options(ruleset: Ruleset) -> list[str]:
    """The options the table reads, in the spec's order: those marked `read_by: table`, and any other whose every
    reading does not bind the same procedure (an option the scorer and the table both read)."""
    try:
        spec = _rules_of(bind(ruleset).procedure)
    except (ProcedureError, ValueError):
        return [oid for oid, o in ruleset.options.items() if o.read_by == "table"]
    found = []
    for oid, option in ruleset.options.items():
        if option.read_by == "table":
            found.append(oid)
            continue
        for value in option.other_values():
            try:
                if _rules_of(bind(ruleset, {oid: value}).procedure) != spec:
                    found.append(oid)
                    break
            except (ProcedureError, ValueError):
                continue
    return found


def procedure_catalog(ruleset: Ruleset) -> Catalog:
    """The ruleset's procedure mutants, each bound: those that do not bind are named with why."""
    options = table_options(ruleset)
    mutations = procedure_mutations(ruleset, options)
    unbound = {}
    for m in mutations:
        problem = binding_problem(ruleset, m, options)
        if problem is not None:
            unbound[m.id] = problem
    return Catalog(ruleset.id, tuple(mutations), MappingProxyType(unbound))


# ----------------------------------------------------------------------------- binding an edited spec

@lru_cache(maxsize=1)
def _procedure_validator() -> jsonschema.Draft202012Validator:
    whole = schema("ruleset")
    return jsonschema.Draft202012Validator({**whole["properties"]["procedure"], "$defs": whole["$defs"]})


def _plain(value: Any) -> Any:
    """A spec value as JSON holds it (mappings as dicts, tuples as lists), for the schema."""
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def binding_problem(ruleset: Ruleset, mutation: Mutation, options: Sequence[str] | None = None) -> str | None:
    """Why the mutant's edited spec is no ruleset the table can play (None: it binds): the edit fails, the edited
    `procedure:` breaks the schema, the table refuses it under the defaults or another reading of an option it
    reads (`options`; None: `table_options`), or the scorer cannot be bound."""
    options = table_options(ruleset) if options is None else options
    try:
        edited = mutation.edit(ruleset)
    except (ValueError, KeyError, TypeError) as exc:
        return f"the edit does not apply: {type(exc).__name__}: {exc}"
    errors = sorted(_procedure_validator().iter_errors(_plain(edited.procedure)),
                    key=lambda e: [str(p) for p in e.absolute_path])
    if errors:
        where = "/".join(str(p) for p in errors[0].absolute_path)
        return f"the schema refuses procedure/{where}: {schema_message(errors[0])}"
    for reading in readings(edited, options):
        try:
            bind(edited, reading).procedure
        except (ProcedureError, ValueError) as exc:
            under = "".join(f" (under {k}={value_key(v)})" for k, v in reading.items())
            return f"the table refuses it: {exc}{under}"
    try:
        Scorer(edited)
    except (ValueError, KeyError, TypeError, AttributeError, ArithmeticError) as exc:
        return f"the scorer refuses it: {type(exc).__name__}: {exc}"
    return None


# ----------------------------------------------------------------------------- what a case can see

def _unseen(name: str, before: TableRules, after: TableRules) -> str | None:
    """Why a difference in the bound rule `name` never shows in a procedure case's result (None: it may)."""
    both = (before, after)
    if name == "round_wind_every" and not any(r.rotates_each_hand for r in both):
        return ("the table reads round_wind_every only under a deal that passes every hand (the result's "
                "next_round_wind), which this ruleset does not play")
    if name == "claim_ranks" and not any(r.forgo for r in both):
        return ("a claim on a discard another seat has already claimed is refused whichever claim ranks higher, so "
                "the priority changes only the refusal's message, which a case's expect does not hold (the only "
                "other use of the ranks, which claims a pass forgoes, needs forgo-then-reclaim, which this ruleset "
                "does not play)")
    if name == "claim_ranks" and not any(r.multiple_winners == "all_paid" for r in both) and \
            all(_forgoes(before, c) == _forgoes(after, c) for c in (None, "chow", "pung", "kong")):
        return ("a claim on a discard another seat has already claimed is refused whichever claim ranks higher, and "
                "every claim but a win forgoes the same under both priorities (a pass forgoes what the seat could "
                "have claimed above the claim made); a win ends the hand, one winner to a discard, so what it would "
                "forgo is never read: the priority changes only a refusal's message")
    if name == "knock_required" and not any(r.lou_hu for r in both):
        return ("the table reads knock.required_to_win only to ask whether an unknocked player's passed win sets "
                "漏胡, which this ruleset does not play (whether an unknocked hand may win is the scorer's "
                "win.requires_flags)")
    if name == "forgo_blocks" and before.forgo_blocks ^ after.forgo_blocks == {"kong"}:
        return ("a seat lets a tile go only holding two or more of it (or, as the next seat, able to chow it, and "
                "that seat draws next), and it gains none before its own draw lifts the block; a kong on a later "
                "copy would need three in hand beside the copy let go and the later one: five of a tile the game "
                "holds four of, so whether a kong is blocked never shows")
    if name == "draws_count" and not any(r.rotates_each_hand for r in both):
        return "the table reads draws_count only under a deal that passes every hand, which this ruleset does not play"
    if name in ("winner_deals", "dealer_stays_on_draw", "after_multiple_win") and all(r.rotates_each_hand for r in both):
        return "under a deal that passes every hand the table does not read who deals after a win or a drawn hand"
    if name == "after_multiple_win" and not any(r.winner_deals and r.multiple_winners == "all_paid" for r in both):
        return "who deals after several winners is read only where the winner deals and one discard pays every winner"
    for prefix, entry, plays in (("lou_hu_", "漏胡", "lou_hu"), ("forgo_", "forgo-then-reclaim", "forgo"),
                                 ("swap_calling_", "swap calling", "swap_calling"),
                                 ("mandatory_kong_", "a mandatory kong", "mandatory_kong"),
                                 ("missed_win_after_knock", "a knocked player's obligation to win", "knock_must_win")):
        if name.startswith(prefix) and not any(getattr(r, plays) for r in both):
            return f"the ruleset plays no {entry}, so the table never reads it"
    return None


def _forgoes(rules: TableRules, claim: str | None) -> tuple[bool, bool, bool]:
    """What forgo-then-reclaim reads of the ranks when `claim` takes a discard (None: no claim): whether a pass
    forgoes at all, whether a pung could have been claimed above it, whether a chow could."""
    ranks = rules.claim_ranks
    rank = ranks[claim] if claim else -1
    return rank <= ranks["pung"], rank < ranks["pung"], rank < ranks["chow"]


def unobservable(ruleset: Ruleset, mutation: Mutation, options: Sequence[str] | None = None) -> str | None:
    """Why no procedure case's result can tell the mutant from the spec (None: one could, as far as the bound
    rules show): the table binds the same rules under every reading, or each rule it binds otherwise is one the
    result never shows. A mutant that does not bind is not asked."""
    options = table_options(ruleset) if options is None else options
    edited = mutation.edit(ruleset)
    why: list[str] = []
    for reading in readings(ruleset, options):
        before, after = bind(ruleset, reading).procedure, bind(edited, reading).procedure
        spec, changed = _rules_of(before), _rules_of(after)
        for name in spec:
            if spec[name] == changed[name]:
                continue
            reason = _unseen(name, before, after)
            if reason is None:
                return None
            why.append(reason)
    if not why:
        return "the table binds the same rules of play as the spec's under every reading of its options"
    return "; ".join(dict.fromkeys(why))


# ----------------------------------------------------------------------------- running the cases

def reference_problems(cases: Sequence[Mapping[str, Any]], runner: CaseRunner) -> list[str]:
    """For each case, why the reference table does not pass it ("": it does); a case left out kills nothing."""
    found = []
    for case in cases:
        try:
            got = runner.run(case)
        except (CaseError, *PLAY_FAILURES) as exc:
            found.append(f"the reference table cannot run it: {exc}")
            continue
        found.append("" if matches(got, case["expect"]) else "the reference table's result differs from its expect")
    return found


def _touching_first(ruleset: Ruleset, mutation: Mutation, cases: Sequence[Mapping[str, Any]]) -> list[int]:
    touched = {f"{ruleset.id}.{r}" for r in mutation.rules}
    first = [i for i, c in enumerate(cases) if touched & set(c.get("covers") or ())]
    chosen = set(first)
    return first + [i for i in range(len(cases)) if i not in chosen]


def judge(ruleset: Ruleset, mutation: Mutation, cases: Sequence[Mapping[str, Any]],
          options: Sequence[str] | None = None) -> Judged:
    """Run every case (each one the reference table passes) under the mutant, through the reference table."""
    options = table_options(ruleset) if options is None else options
    problem = binding_problem(ruleset, mutation, options)
    if problem is not None:
        return Judged(mutation, unbound=problem)
    edited = mutation.edit(ruleset)
    runner = CaseRunner({ruleset.id: edited})
    for i in _touching_first(ruleset, mutation, cases):
        case = cases[i]
        try:
            got = runner.run(case)
        except (CaseError, *PLAY_FAILURES) as exc:
            return Judged(mutation, unbound=f"playing case {case.get('id')!r} under it fails: "
                                            f"{type(exc).__name__}: {exc}")
        if not matches(got, case["expect"]):
            return Judged(mutation, killer=i)
    return Judged(mutation, unseen=unobservable(ruleset, mutation, options) or "")
