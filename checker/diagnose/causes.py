"""Cause search: the smallest departure from the rules that turns the reference engine's answers into the engine's,
and the experiments that confirm it.

For a failure class, candidate departures (`checker.diagnose.candidates`, made by `checker.mutate`) are tried in
order of size. A candidate *explains* a case when the reference engine under it gives the engine's whole answer
(`checker.diagnose.answers`: every result field, a refusal's rule, fans read back from the documents' names). A
cause is named for a class only when it explains every case of it and changes none of the engine's passing cases
that were checked (at most MAX_PASSING_CHECKED of them, of the same ruleset); where no single candidate explains
the class, pairs are tried, then the class is covered greedily by several causes, each with its count; what none
explains is `unexplained`, with what was tried. Fans outside the spec (the engine scores an id the spec has no
pattern for, in place of spec fans, their worth accounting for the total), an input disagreement (the engine
errs or refuses on exactly the cases with some feature of their input), input the rules refuse that the engine
answers, and how the engine writes its answers (fans under the documents' names; no fan at 0 points listed) need
no re-scoring. The search spends a
counted effort, a share of it kept for every class.

Then each cause is put to the engine (`confirm_all`, with `checker.diagnose.probes`): confirmed by its probes,
contradicted (a rival borne out takes its place, else its cases are unexplained), or untested (named only when
passing cases checked it); a case of the class a partial cause moves otherwise contradicts it too.

The parts, each built on the one before: checker.diagnose.explanation (what is found, the search's limits),
.rescoring (the run's re-scorings and effort), .unscored (causes found without re-scoring), .one_class (one class
searched), .confirm (causes put to the engine), and here the search over every class of the run.
"""
from __future__ import annotations

from dataclasses import replace
from itertools import combinations
from typing import Sequence

from checker.case import readings_of
from checker.diagnose.candidates import candidates_for, edits_by_part
from checker.diagnose.classes import FailureClass
from checker.diagnose.judged import Judged, kind_of
from checker.diagnose.unscored import input_refused
from checker.diagnose.confirm import Confirming
from checker.diagnose.explanation import (JOINT_PASSES, MAX_ALTERNATIVES, MAX_FOUND_IN_TRIPLES, MAX_MEMBERS_FIRST,
                                          MAX_MEMBERS_SCREENED, MAX_TRIALS_WITH_OTHERS, Cause, Explanation,
                                          WRITTEN, OutOfEffort, together)
from checker.mutate.context import context_readings
from checker.mutate.readings import option_readings
from checker.mutate.mutation import Mutation, combined
from checker.spec import Ruleset

EFFORT = 30_000  # work one run's search may spend, in re-scorings (a scorer for an edited spec counts as
EFFORT_PER_CASE = 20  # SCORER_COST of them), and so much more for each failed case of the classes searched;
# deterministic, unlike time: the classes past it are listed "not searched", saying why
OWN_PER_PART = 3  # of a class's own spec edits for each part of its signature, those tried with the run's departures
MAX_COVER_PAIRS = 60  # pairs tried to cover the cases a contradicted departure left, at --effort 1
FLOOR_SHARE = 4  # a quarter of the effort is shared out evenly: every class searched gets at least its part


class CauseSearch(Confirming):
    """The search for one run: its passing cases (by ruleset, at most MAX_PASSING_CHECKED spread over the run)
    and a shared rescorer; every re-scored result is kept for the run, so a departure checked for one class is
    not scored again for the next. `explain_all` searches every class, then settles them together: a departure
    that explains several classes is named for each of them where it explains them alike, and classes no
    single departure explains are tried again with the departures found for the others."""

    # ------------------------------------------------------------------ every class

    def explain_all(self, classes: Sequence[FailureClass]) -> list[Cause]:
        for r in [*(r for cls in classes for r in cls.members), *(r for rs in self.passing.values() for r in rs)]:
            self.expected_rules.update(str(w["error"]) for w in readings_of(r.expected) if w.get("error"))
        self._own.clear()
        failed = sum(len(self._members(cls)) for cls in classes)
        self.effort = min(self.effort, (EFFORT + EFFORT_PER_CASE * failed) * self.scale)
        floor = self.effort // (FLOOR_SHARE * max(1, len(classes)))  # what every class is kept, whatever comes before
        causes = []
        for i, cls in enumerate(classes):
            self._limit = max(self.spent, self.effort - floor * (len(classes) - i - 1))
            try:
                causes.append(self.explain(cls))
            except OutOfEffort:  # what is read off the class's cases without re-scoring is still said
                read_off = input_refused(cls)
                said = (*self.written(cls), *((read_off,) if read_off is not None else ()))
                causes.append(Cause(said, 0 if read_off is not None else len(cls.members),
                                    {e.kind: 1 for e in said}, stopped=self._limit, share=True,
                                    screened=self._screening, effort=self.scale))
            self._screening = None
        self._limit = None  # settling the classes together tries a bounded number of departures more
        causes = self._prefer_shared(classes, causes)
        return self._with_others(classes, causes)

    def _prefer_shared(self, classes: Sequence[FailureClass], causes: list[Cause]) -> list[Cause]:
        """Where a class is explained alike by several departures, name the one that explains the most classes
        (one departure of an engine usually shows in several), once it is checked against the passing cases."""
        reach: dict[str, int] = {}
        for cause in causes:
            for e in cause.alternatives:
                reach[e.id] = reach.get(e.id, 0) + 1
        out = []
        for cls, cause in zip(classes, causes):
            if cause.explanations and len(cause.alternatives) > 1:
                current = reach.get(cause.explanations[0].id, 0)
                for e in sorted(cause.alternatives, key=lambda e: -reach.get(e.id, 0)):  # (stable: search order)
                    if reach.get(e.id, 0) <= current:
                        break
                    checked = self._passing_kept(cls.ruleset or "", self.mutations[e.id])
                    if checked is not None:
                        cause = cause.choosing(Explanation(e.kind, e.id, e.words, e.rules, e.explains, e.of, checked))
                        break
            out.append(cause)
        return out

    def _with_others(self, classes: Sequence[FailureClass], causes: list[Cause]) -> list[Cause]:
        """One model of the engine: the departures named anywhere in the run (by ruleset, those that explain the
        most classes first) form one set. A class left unexplained, wholly or partly, is tried again with its
        smallest subsets (one, two, three of them; then one with a candidate of the class; then as few of all of them
        as explain it), whichever class they were found in; a class explained is explained instead by departures
        that explain more classes where they need no more departures. A departure that comes to explain more
        classes in one pass (a class it explains only with the others) is weighed so in the next, up to
        JOINT_PASSES passes."""
        for _ in range(JOINT_PASSES):
            again = self._joint_pass(classes, causes)
            if [c.explanations for c in again] == [c.explanations for c in causes]:
                return again
            causes = again
        return causes

    def _joint_pass(self, classes: Sequence[FailureClass], causes: list[Cause]) -> list[Cause]:
        """One pass of `_with_others` over every class, with each departure's reach as the causes give it."""
        named: dict[str, list[Mutation]] = {}
        reach: dict[str, int] = {}  # how many classes each single departure takes part in explaining
        for cls, cause in zip(classes, causes):
            seen: set[str] = set()
            for e in cause.explanations:
                for m in self.components(e.id):
                    if m.id not in seen:
                        seen.add(m.id)
                        reach[m.id] = reach.get(m.id, 0) + 1
                    if m not in named.setdefault(cls.ruleset or "", []):
                        named[cls.ruleset or ""].append(m)
        out = []
        for cls, cause in zip(classes, causes):
            found = sorted(named.get(cls.ruleset or "", []), key=lambda m: -reach.get(m.id, 0))  # (stable)
            own = [m for e in cause.explanations for m in self.components(e.id)]
            read_off = cause.stopped is not None and all(e.kind in ("input refused", *WRITTEN)
                                                         for e in cause.explanations)
            if found and (cause.unexplained > len(cls.members) - len(self._members(cls)) or read_off):
                # a case it could explain (or a class whose own search was cut short, said only as read off it)
                better = self._explain_with(cls, found, cause)
                cause = better if better is not None else cause
            elif own and found:
                # departures that explain more classes, where they explain this one with no more departures
                shared = [m for m in found if reach.get(m.id, 0) > min(reach.get(o.id, 0) for o in own)]
                cover = self._cover(cls, shared, own, cause) if shared else None
                if cover is not None and sum(reach.get(m.id, 0) for e in cover.explanations
                                             for m in self.components(e.id)) > sum(reach.get(m.id, 0) for m in own):
                    cause = cover
            out.append(cause)
        return out


    def _cover(self, cls: FailureClass, departures: Sequence[Mutation], own: Sequence[Mutation],
               before: Cause) -> Cause | None:
        """The class explained by departures named for other classes: together with its own (as few as still
        explain it, its own dropped first), else covered greedily by the shared ones alone."""
        members = self._members(cls)
        if not members or before.unexplained:
            return None
        parts = list(departures) + [m for m in own if m not in departures]
        together = self._least(members, parts)  # each case may show several of them at once
        if together is not None and together.size <= len(own) and together.id not in {e.id for e in before.explanations}:
            checked = self._passing_kept(cls.ruleset or "", together)
            if checked is not None:
                self.mutations[together.id] = together
                return Cause((*_written(before), self._explanation(together, len(members), len(cls.members),
                                                                    checked)), 0,
                             {**before.tried, "departures found for other classes": len(departures)})
        left, found = list(members), []
        for m in departures:
            explained = self._explained(left, m)
            if explained:
                checked = self._passing_kept(cls.ruleset or "", m)
                if checked is None:
                    continue
                found.append(self._explanation(m, len(explained), len(cls.members), checked))
                done = {id(r) for r in explained}
                left = [r for r in left if id(r) not in done]
            if not left:
                return Cause((*_written(before), *found), 0,
                             {**before.tried, "departures found for other classes": len(departures)})
        return None

    def _explain_with(self, cls: FailureClass, found: list[Mutation], before: Cause) -> Cause | None:
        members = self._members(cls)
        ruleset = self.ruleset_of(cls.ruleset)
        if not members or ruleset is None:
            return None
        own = self._own_candidates(cls, ruleset)
        play = kind_of(cls.witness) == "procedure"
        if play:
            # a hand of play: besides the option readings, the table's readings, procedure edits and log readings
            # that turn the rules' verdict on one of the class's first cases into the engine's, first (paired with
            # a departure found elsewhere that does not, only such a one can make the pair answer as the engine
            # does: a knock the rules let stand refused, where the other sets the event it lands on)
            first = members[:MAX_MEMBERS_FIRST]
            toward = [m for m in candidates_for(cls, ruleset) if any(self._toward(r, m) for r in first)]
            own = toward + [m for m in own if m not in toward]
        for m in own:  # (known by id: a combination of them is read back into its parts)
            self.mutations.setdefault(m.id, m)
        trials = self._joint_trials(found, own, candidate_first=play)
        screened = members[:MAX_MEMBERS_SCREENED]
        tried = {**before.tried, "with departures found for other classes": len(trials) + 1}
        chosen: Mutation | None = None
        alike: list[Mutation] = []  # after the one chosen, the trials of its size that explain the class too
        for m in trials:  # the run's departures: one, two, three (in the order found), then one with the class's own
            if chosen is not None and (m.size != chosen.size or len(alike) >= MAX_ALTERNATIVES - 1):
                continue
            if chosen is not None and m.departures in {chosen.departures, *(a.departures for a in alike)}:
                continue  # (the same departures in another order)
            if all(self._explains(r, m) for r in screened) and self._explains_all(members, m):
                if chosen is None:
                    chosen = m
                else:
                    alike.append(m)
        if chosen is None:  # every departure found, with one of this class's own per part, then as few as explain it
            per_part = [f[0] for f in edits_by_part(cls, ruleset, self._parts(cls, ruleset)) if f]
            chosen = self._least(members, list(found) + [m for m in per_part if m.id not in {f.id for f in found}])
        if chosen is None:  # the run's departures (one, two, three of them) beside fans outside the spec: the
            # class's own search tried no more than two readings there (a contract hand beside 底分 in a 荒番 hand
            # may need three)
            joint = self._joint_trials(found, ())
            for search in (self._outside_after, self._outside_covered):  # (the cover only where that names none)
                beside = search(cls, members, ruleset, joint, tried)
                if beside is not None and any(e.kind == "pair" for e in beside.explanations):  # (a departure)
                    return replace(beside, explanations=(*_written(before), *beside.explanations))
            return self._covered_with(cls, members, trials, before, tried)
        if chosen.size > 1:  # a part the class does not need left out (the class's own departure may do alone)
            parts = self.components(chosen.id)
            least = self._least(members, parts) if len(parts) == chosen.size else None
            if least is not None and least.size < chosen.size:
                chosen, alike = least, []
        checked = self._passing_kept(cls.ruleset or "", chosen)
        if checked is None:
            return None
        self.mutations[chosen.id] = chosen
        named = self._explanation(chosen, len(members), len(cls.members), checked)
        alike += self._substitutes(cls, members, chosen, alike)
        for m in alike:  # rivals the probes must tell apart from the one chosen (checker.diagnose.confirm)
            self.mutations.setdefault(m.id, m)
        return Cause((*_written(before), named), len(cls.members) - len(members), tried,
                     (named, *(self._explanation(m, len(members), len(cls.members), 0) for m in alike)))

    def _covered_with(self, cls: FailureClass, members: list[Judged], trials: Sequence[Mutation], before: Cause,
                      tried: dict[str, int]) -> Cause | None:
        """Where no subset of the run's departures explains the whole class: the class covered greedily by them
        (those that explain most of its first cases first), when that explains more of it than `before` did; the
        cases left keep `before`'s word on how far its own search went (not searched to the end, say)."""
        screened = members[:MAX_MEMBERS_SCREENED]
        first = screened[:MAX_MEMBERS_FIRST]
        hits = {m.id: sum(1 for r in screened if self._explains(r, m)) for m in trials
                if any(self._explains(r, m) for r in first)}
        ranked = sorted((m for m in trials if hits.get(m.id)), key=lambda m: (-hits[m.id], m.size))
        found: list[Explanation] = []
        left = self._greedy(cls, members, ranked, found)
        explained = len(members) - len(left)
        if not found or explained <= len(cls.members) - before.unexplained:
            return None
        return replace(before, explanations=(*_written(before), *self._needed(cls, members, found)), alternatives=(),
                       unexplained=len(left) + len(cls.members) - len(members), tried=tried)

    def _covers_left(self, cls: FailureClass, left: Sequence[Judged],
                     barred: set[frozenset[str]]) -> list[tuple[Mutation, list[Judged]]]:
        """The cases a contradicted departure left, covered greedily by the run's departures and the class's own
        candidates (`_joint_trials`' singles) that move one of them, alone and two together (or one with one of
        the run's departures; at most MAX_COVER_PAIRS times the effort, of those moving most cases), those that
        explain
        most of them first, none whose parts are a set in `barred` nor holding a departure barred alone; each
        checked against the passing cases."""
        ruleset = self.ruleset_of(cls.ruleset)
        if not left or ruleset is None:
            return []
        own = self._own_candidates(cls, ruleset)
        singles = list({m.id: m for m in [*self._model, *own]}.values())
        moved = {m.id: sum(1 for r in left if self._moves(r, m)) for m in singles}
        moving = sorted((m for m in singles if moved[m.id]), key=lambda m: -moved[m.id])
        # two together: two that move the cases, or one that does with one of the run's departures (which may
        # matter only after the other: a refusal dropped, then the hand's value read otherwise); those moving
        # the most cases first, as many as the effort gives
        pairs = [(a, b) for a, b in combinations(moving, 2)]
        pairs += [(a, b) for a in moving for b in self._model if b not in moving]
        pairs.sort(key=lambda pair: -(moved[pair[0].id] + moved.get(pair[1].id, 0)))
        pairs = [(a, b) for a, b in pairs if a.option_ids.isdisjoint(b.option_ids)][:MAX_COVER_PAIRS * self.scale]
        trials = moving + [combined(a, b) for a, b in pairs]
        alone = {next(iter(b)) for b in barred if len(b) == 1}  # contradicted by itself: in no cover again
        trials = [m for m in trials if m.departures not in barred and not m.departures & alone]
        shown = {m.id: self._explained(left, m) for m in trials}
        ranked = sorted((m for m in trials if shown[m.id]), key=lambda m: (-len(shown[m.id]), m.size))
        out: list[tuple[Mutation, list[Judged]]] = []
        rest = list(left)
        for m in ranked:
            explained = self._explained(rest, m)
            if not explained or self._passing_kept(cls.ruleset or "", m) is None:
                continue
            out.append((m, explained))
            done = {id(r) for r in explained}
            rest = [r for r in rest if id(r) not in done]
            if not rest:
                break
        return out

    def _own_candidates(self, cls: FailureClass, ruleset: Ruleset) -> list[Mutation]:
        """A class's own candidates tried with the run's departures: the option readings, the first OWN_PER_PART
        spec edits of each part of its signature, the context readings."""
        return option_readings(ruleset) + \
            [m for f in edits_by_part(cls, ruleset, self._parts(cls, ruleset)) for m in f[:OWN_PER_PART]] + \
            context_readings(ruleset)

    @staticmethod
    def _joint_trials(found: Sequence[Mutation], own: Sequence[Mutation],
                      candidate_first: bool = False) -> list[Mutation]:
        """The subsets of the run's departures a class is tried with, smallest first: each alone, then each of the
        class's own candidates alone (a class whose own search ran out of effort may need no departure found
        elsewhere), each pair, each triple of the first MAX_FOUND_IN_TRIPLES, then one of them with one of the
        class's own candidates (MAX_TRIALS_WITH_OTHERS at most; `candidate_first`: each candidate in turn with each
        of them, the class's best candidates first, for hands of play); last, the whole model (the first departure found for each thing changed, as many
        as there are) alone and with each of the class's own candidates that changes something else (an engine
        with four departures shows them all on one hand: a 包 hand under a contract, its 底分 doubled)."""
        trials = list(found)
        trials += [m for m in own if m.id not in {f.id for f in found}]
        trials += [combined(a, b) for a, b in combinations(found, 2)]
        trials += [together(t) for t in combinations(found[:MAX_FOUND_IN_TRIPLES], 3)]
        pairs = [(a, m) for m in own for a in found] if candidate_first else [(a, m) for a in found for m in own]
        trials += [combined(a, m) for a, m in pairs if m.id != a.id][:MAX_TRIALS_WITH_OTHERS]
        return trials + _with_whole_model(found, own)


def _with_whole_model(found: Sequence[Mutation], own: Sequence[Mutation]) -> list[Mutation]:
    """The run's whole model (the first of `found` for each thing changed, as many as there are: more than one)
    alone, then with each of `own` that changes something else; none where the model is one departure."""
    model: list[Mutation] = []
    for m in found:
        if all(m.targets.isdisjoint(o.targets) for o in model):
            model.append(m)
    if len(model) < 2:
        return []
    whole = together(model)
    return [whole, *(combined(whole, m) for m in own if m.targets.isdisjoint(whole.targets))]


def _written(cause: Cause) -> tuple[Explanation, ...]:
    """A cause's explanations of how the engine writes its answers (kept when the search names another departure)."""
    return tuple(e for e in cause.explanations if e.kind in WRITTEN)
