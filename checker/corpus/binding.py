"""What a scorer binds from a spec under a reading of its options, as comparable values: the ground of the
equivalence proofs of scoring mutants (checker.corpus.equivalence, checker.corpus.acting)."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from checker.engine.scoring import Scorer
from checker.mutate.catalog import scoring_readings
from checker.mutate.mutation import Mutation
from checker.spec import Ruleset

# the families whose edit the binding shows whole
PROVABLE = frozenset({"exclusion dropped", "implied dropped", "exclusion added", "implied added", "base"})


def bound(scorer: Scorer) -> tuple[Any, ...]:
    """What the scorer scores with, as comparable values (its caches and the patterns' own links left out: what
    the links withhold is in each bound pattern's `blocks`)."""
    patterns = tuple((b.id, b.points, b.scope, b.blocks, b.blocks_within, tuple(sorted(b.blocks_some.items())),
                      b.qualifies, repr(replace(b.pattern, excludes=(), implies=(), implies_within=(),
                                                excludes_if=())))
                     for b in scorer.patterns)
    steps = tuple((getattr(run, "__name__", repr(run)), repr(sorted(params.items()))) for run, params in scorer.steps)
    # the payments are bound from the settlement section under these options (both compared whole), with the
    # single-hand limit the steps give (in `steps`): compared by what they are made from, as the engine's own
    # objects may be compiled and hold no __dict__
    payments = scorer.settlement
    base_read = not payments.shares or payments.n_base > 0 or bool(payments.base_counter) or \
        any(name == "add_base" for name, _ in scorer.step_ids)
    settlement = scorer.ruleset.settlement if base_read else replace(scorer.ruleset.settlement, base=0)
    return (repr(sorted(scorer.options.items())), patterns, steps, repr(settlement), scorer.account_once,
            scorer.chicken, scorer.minimum_points, scorer.requires_allowing)


def differing_readings(ruleset: Ruleset, mutation: Mutation) -> list[dict[str, Any]]:
    """The readings under which the mutant's spec binds otherwise than the spec (all of them for a family this
    module does not compare)."""
    readings = scoring_readings(ruleset)
    if mutation.family not in PROVABLE:
        return readings
    edited = mutation.edit(ruleset)
    return [r for r in readings if bound(Scorer(ruleset, r)) != bound(Scorer(edited, r))]


def unlinked(scorer: Scorer) -> tuple[Any, ...]:
    """`bound` without what the patterns withhold."""
    options, patterns, *rest = bound(scorer)
    return (options, tuple((p[0], p[1], p[2], p[6], p[7]) for p in patterns), *rest)


def links(scorer: Scorer) -> dict[str, tuple[Any, ...]]:
    """What each bound pattern withholds, by id."""
    return {b.id: (b.blocks, b.blocks_within, tuple(sorted(b.blocks_some.items()))) for b in scorer.patterns}
