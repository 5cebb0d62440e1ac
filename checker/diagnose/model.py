"""The run's model of the engine: the departures its probes confirmed, per ruleset, and the run's cases read
under them.

How an engine writes its fans (checker.diagnose.notation) is learned where its money agrees with the rules: only
there is a difference in the fans a way of writing. An engine that departs in money on every hand of a pattern
(a 清一色 paid without 底分, listed at its 10 points) shows no such case under the rules as written, so its way of
writing that pattern is never learned and every such hand stays unexplained. Once probes have confirmed the
departure (the base placed otherwise), the rules under it pay those hands as the engine does, and the notation
is learned again there (`Model.rereading`); a part learned so says which departures it was learned under.
"""
from __future__ import annotations

from typing import Any, Iterable, Iterator, Mapping, Sequence

from checker.diagnose.explanation import Cause
from checker.diagnose.judged import Judged, rescorable
from checker.diagnose.notation import money_agrees
from checker.diagnose.probes import CONFIRMED
from checker.mutate.mutation import Mutation, Rescorer, combined, together

MAX_REREAD = 3000  # failed cases re-scored under the model to learn the notation again (the first, in run order)


class Model:
    """Per ruleset, the departures the probes confirmed (in the order the classes named them; one that changes
    what an earlier one changes, or reads an option it reads, is left out), their joint, and their words."""

    def __init__(self, parts: Mapping[str, Sequence[Mutation]], rescorer: Rescorer | None = None):
        self.parts = {r: tuple(ms) for r, ms in parts.items() if ms}
        self.joint = {r: together(list(ms)) for r, ms in self.parts.items()}
        self.rescorer = rescorer or Rescorer()

    @classmethod
    def confirmed(cls, rulesets: Sequence[str | None], causes: Sequence[Cause | None],
                  components: Any) -> "Model":
        """The departures named with evidence `confirmed` in `causes` (one per class, of the class's ruleset in
        `rulesets`); `components(id)`: the single departures an explanation id is made of."""
        parts: dict[str, list[Mutation]] = {}
        for ruleset_id, cause in zip(rulesets, causes):
            if cause is None or not ruleset_id:
                continue
            for e in cause.explanations:
                if e.evidence != CONFIRMED:
                    continue
                for m in components(e.id):
                    have = parts.setdefault(ruleset_id, [])
                    if all(h.targets.isdisjoint(m.targets) and h.option_ids.isdisjoint(m.option_ids) for h in have):
                        have.append(m)
        return cls(parts)

    def __bool__(self) -> bool:
        return bool(self.parts)

    def words(self) -> dict[str, tuple[str, ...]]:
        """Per ruleset, each departure in the rule book's words."""
        return {r: tuple(m.words for m in ms) for r, ms in self.parts.items()}

    def under(self, ruleset_id: str, edit: Mutation | None = None) -> Mutation | None:
        """The model of `ruleset_id` with `edit` after it (the model alone without one; `edit` alone without
        a model)."""
        joint = self.joint.get(ruleset_id)
        if joint is None or edit is None:
            return joint or edit
        return combined(joint, edit)

    def rereading(self, results: Iterable[Judged]) -> Iterator[Judged]:
        """The run's cases, each failed one of a modelled ruleset (the first MAX_REREAD) expecting what the rules
        under the model answer where that answer's money is the engine's; every other case as it is."""
        reread = 0
        for r in results:
            joint = self.joint.get(r.ruleset or "")
            if joint is None or r.outcome != "failed" or reread >= MAX_REREAD or not rescorable(r) or r.case is None:
                yield r
                continue
            reread += 1
            answer = self.rescorer.result(r.case, joint)
            yield Expecting(r, answer) if answer is not None and isinstance(r.actual, Mapping) \
                and money_agrees(answer, r.actual) else r


class Expecting:
    """A judged case read with another expectation (the rules' answer under the run's model)."""

    def __init__(self, judged: Judged, expected: Any):
        self._judged, self.expected = judged, expected

    def __getattr__(self, name: str) -> Any:
        return getattr(self._judged, name)

