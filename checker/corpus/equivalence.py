"""Whether a scoring mutant can change a score case's result at all: the scorer its edited spec binds, against
the spec's, reading by reading.

The scorer binds a spec under a reading of its options (`checker.engine.scoring.Scorer`) into what scoring runs
on: each pattern's value, scope and what it withholds (its `excludes`, and under the non-repeat principle all its
implied patterns withhold in turn), the steps with their parameters, the payments, the minimum. Two specs that
bind alike under a reading score every hand alike under it. So for the mutants whose edit the binding shows
whole (a link dropped or added between two patterns, the base):

- `differing_readings` (checker.corpus.binding) gives the readings (the defaults, and each other value of each option the scorer reads)
  under which the mutant binds otherwise: the only readings a hand can tell it from the spec under, and the ones
  the search scores hands under;
- `proof` says why the mutant is *equivalent* when it binds as the spec does under every reading: no case, under
  any options, can tell it from the spec (the proof reads no hand: the bound rules are the same). A base no term
  of the payments reads (`per_share` without `base`, no base counter, no `add_base` step) is left out of what
  is compared.
- A link dropped between two patterns that no hand holds together in one reading withholds nothing either way:
  `proof` says so when the hunter's exhaustive search (`checker.hunt.dead.prove`) reads every hand the two
  fans' definitions allow and finds them together in none. That proof has a domain, which it states: the fans
  read only the tiles and their division (so any melds, winning tile and way of winning stand for the concealed
  self-drawn hand read), neither fan's activity or parameters depend on an option, and hands with kongs are
  outside it.

- A link dropped between two patterns that do hold together is proved by reading every concealed hand where it
  can act (`checker.corpus.acting`), when the patterns whose withholding changes declare the groups of sets that
  make them hold; that proof states its domain too, and stops when the caller's budget is spent.

- A minimum every win meets (the spec's and the mutant's) changes nothing: `proof` says so when, under every
  reading, the fans that hold for every winning hand (predicates registered `always`, such as a base for going
  out) and that no fan withholds bring at least that many qualifying points.

Other families (points, caps, steps, shares, option defaults, counters) are never proved here: their edits reach
parts of the binding this comparison does not hold.
"""
from __future__ import annotations

import time
from typing import Callable

from checker.corpus.acting import met_wherever_it_acts
from checker.corpus.binding import PROVABLE, differing_readings
from checker.engine.scoring import Scorer
from checker.mutate.catalog import scoring_readings
from checker.mutate.mutation import Mutation
from checker.spec import OptionRef, Ruleset

__all__ = ["differing_readings", "proof"]

MINIMUM = "minimum"
DROPPED = frozenset({"exclusion dropped", "implied dropped"})
PROOF_SECONDS = 20.0  # the longest one exhaustive search for two patterns held together may take


def proof(ruleset: Ruleset, mutation: Mutation, seconds: float = PROOF_SECONDS,
          out: Callable[[], bool] | None = None) -> str | None:
    """Why no score case can tell the mutant from the spec, and over what (None: one may, as far as is proved).
    `out`: says when the caller's budget is spent (the proof that reads hands stops there, proving nothing)."""
    if mutation.family == MINIMUM:
        return _minimum_always_met(ruleset, mutation)
    if mutation.family not in PROVABLE:
        return None
    if not differing_readings(ruleset, mutation):
        options = [o.id for o in ruleset.scoring_options().values()]
        under = f" and under each other value of {', '.join(options)}" if options else ""
        what = "the base, which no payment term reads" if mutation.family == "base" else \
            "what each pattern withholds (its links, followed as the scorer follows them)"
        return (f"equivalent: the scorer binds the same rules from it as from the spec under the default "
                f"options{under} ({what}); proved from the binding, no hand read")
    if mutation.family in DROPPED:
        return _never_together(ruleset, mutation, seconds) or met_wherever_it_acts(ruleset, mutation, out)
    return None


def _minimum_always_met(ruleset: Ruleset, mutation: Mutation) -> str | None:
    """A minimum (the spec's and the mutant's) that every win meets under every reading: the qualifying points of
    the fans that hold for every winning hand (predicates registered `always`) and that nothing withholds."""
    from checker.engine.predicates import PREDICATES

    needed = max(ruleset.win.minimum_points, mutation.edit(ruleset).win.minimum_points)
    floors = []
    for reading in scoring_readings(ruleset):
        scorer = Scorer(ruleset, reading)
        withheld = set().union(*(b.blocks | b.blocks_within | set(b.blocks_some) for b in scorer.patterns))
        sure = [b for b in scorer.patterns
                if PREDICATES[b.pattern.when.name].always and b.qualifies and b.id not in withheld]
        floors.append((sum(b.points for b in sure), sorted(b.id for b in sure)))
    floor, ids = min(floors)
    if floor < needed or not ids:
        return None
    return (f"equivalent: every win counts {', '.join(ids)} ({floor} qualifying point(s) under every reading of "
            f"the options the scorer reads: its predicate holds for every winning hand and no fan withholds it), "
            f"so neither the spec's minimum of {ruleset.win.minimum_points} nor this one of "
            f"{mutation.edit(ruleset).win.minimum_points} refuses a win")


def _never_together(ruleset: Ruleset, mutation: Mutation, seconds: float) -> str | None:
    """A dropped link's two patterns proved never to hold together in one reading (see the module's docstring)."""
    from checker.hunt.dead import prove  # (the hunter's exhaustive spaces)

    ids = [r[4:] for r in mutation.rules if r.startswith("fan.")]
    if len(ids) != 2:
        return None
    for pid in ids:
        pattern = ruleset.pattern(pid)
        if pattern.active_if is not None or any(isinstance(v, OptionRef) for v in pattern.when.params.values()):
            return None  # what the fan finds may turn on an option: the defaults' proof would not cover it
    found = prove(Scorer(ruleset), ids, time.monotonic() + seconds)
    if found is None or not found.complete or found.together is not None:
        return None
    how = (f"by reading all {found.checked:,} hands of {found.described}, each as a concealed self-drawn hand: "
           f"both fans read only the tiles and their division" if found.checked else
           f"no division into four sets and a pair has {found.described}")
    return (f"equivalent over every hand without a kong: no hand holds {ids[0]} and {ids[1]} in one reading, so "
            f"the link between them withholds nothing (proved {how})")

