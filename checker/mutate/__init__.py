"""One-step departures from a ruleset: spec edits applied in memory, context readings, and option readings.

A `Mutation` is what an engine might do differently from the rules, stated in the rules' own terms (a
pattern's points, an exclusion dropped, a flag ignored, a win kind read as another, an option's other reading).
The same object serves two ends: `checker.diagnose` searches them for the cause of an engine's departures, and
`mjcheck corpus strength` asks which of them a corpus would let through (a departure an engine makes and a
mutant a corpus must kill are the same thing).

- `checker.mutate.mutation`: the `Mutation` record and scoring a case under one (`rescore`);
- `checker.mutate.edits`: one-step spec edits (points, exclusions, implied links, the minimum, base, caps,
  settlement shares), made into a new frozen `Ruleset` in memory;
- `checker.mutate.context`: context readings (a flag ignored or read as another, a win kind read as another,
  a counter or the flowers ignored), made on a case's input;
- `checker.mutate.readings`: option readings, one option at a time;
- `checker.mutate.candidates`: seeded candidate hands of a ruleset, in which a departure is told from the rules.
"""
from checker.mutate.mutation import Mutation, Rescorer

__all__ = ["Mutation", "Rescorer"]
