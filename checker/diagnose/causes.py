"""Cause search: the smallest departure from the rules that turns the reference engine's answers into the engine's,
and the experiments that confirm it.

For a failure class, candidate departures (`checker.diagnose.candidates`, made by `checker.mutate`) are tried in
order of size. A candidate *explains* a case when the reference engine under it gives the engine's whole answer
(`checker.diagnose.answers`: every result field, a refusal's rule, fans read back from the documents' names). A
cause is named for a class only when it explains every case of it and changes none of the engine's passing cases
that were checked (at most MAX_PASSING_CHECKED of them, of the same ruleset); where no single candidate explains
the class, pairs are tried, then the class is covered greedily by several causes, each with its count; what none
explains is `unexplained`, with what was tried. Fans outside the spec (the engine scores an id the spec has no
pattern for, in place of spec fans, their worth accounting for the total) and an input disagreement (the engine
errs or refuses on exactly the cases with some feature of their input) need no re-scoring. The search spends a
counted effort, a share of it kept for every class.

Then each cause is put to the engine (`confirm_all`, with `checker.diagnose.probes`): confirmed by its probes,
contradicted (a rival borne out takes its place, else its cases are unexplained), or untested (named only when
passing cases checked it); a case of the class a partial cause moves otherwise contradicts it too.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from types import SimpleNamespace
from itertools import combinations
from typing import Any, Callable, Iterable, Mapping, Sequence

from checker.case import fans_of, readings_of
from checker.diagnose.answers import FanNames, OwnRules, agreement, consistent_rules
from checker.diagnose.classes import FailureClass, signature
from checker.diagnose.diff import diff
from checker.diagnose.candidates import candidates_for, edits_by_part
from checker.diagnose.judged import Judged, kind_of, rescorable
from checker.diagnose.probes import CONFIRMED, CONTRADICTED, UNTESTED, Experiments, Probe, Trial
from checker.mutate import edits
from checker.mutate.context import context_readings
from checker.mutate.mutation import Mutation, Rescorer, combined
from checker.mutate.readings import option_readings
from checker.spec import Ruleset

MAX_MEMBERS_SCREENED = 40  # a class's cases a candidate is first tried on (then on all of them)
MAX_MEMBERS_FIRST = 5  # of those, the first ones a candidate must explain one of before it is tried on the rest
MAX_PASSING_CHECKED = 1000  # passing cases a cause is checked not to change (spread over the run)
PAIRS_FROM = 8  # the best partial candidates paired with each other
MAX_TRIALS_WITH_OTHERS = 60  # a departure found elsewhere paired with one of a class's own, at most
MAX_FOUND_IN_TRIPLES = 8  # the run's departures (those explaining most classes first) tried three at a time
JOINT_PASSES = 3  # passes of the one model over the run's classes (a departure's reach may grow in each)
MAX_ROUNDS = 4  # times the cases a partial cover leaves are screened again for a departure of their own
MAX_ALTERNATIVES = 4  # departures that explain a whole class alike, kept to choose among across classes
UNEXPLAINED = "unexplained"
EFFORT = 30_000  # work one run's search may spend, in re-scorings (a scorer for an edited spec counts as
EFFORT_PER_CASE = 20  # SCORER_COST of them), and so much more for each failed case of the classes searched;
SCORER_COST = 10  # deterministic, unlike time: the classes past it are listed "not searched", saying why
FLOOR_SHARE = 4  # a quarter of the effort is shared out evenly: every class searched gets at least its part


class _OutOfEffort(Exception):
    """The class being searched has spent its share of the run's effort."""


@dataclass(frozen=True)
class Explanation:
    """A departure and the cases of the class it reproduces (`explains` of `of`), checked against `checked`
    passing cases, none of which it changes; and what the engine's answers to probes said of it
    (checker.diagnose.probes): `evidence` confirmed or untested ("" before the probes, or for a kind that
    re-scoring cannot predict), the probes, the rivals no probe told apart from it (`or_equally`, id and
    words), why it is untested, and the engine's own refusal ids read as the reference's rules."""

    kind: str  # reading, spec edit, context reading, pair, fans outside the spec, input disagreement, fan names
    id: str
    words: str
    rules: tuple[str, ...]
    explains: int
    of: int
    checked: int = 0
    evidence: str = ""
    probes: tuple[Probe, ...] = ()
    or_equally: tuple[tuple[str, str], ...] = ()
    why_untested: str = ""
    rules_read: tuple[tuple[str, str], ...] = ()

    def tried_by(self, trial: Trial, words_of: Callable[[str], str]) -> "Explanation":
        """The same explanation with what its trial found: the rivals left beside it, each saying why (no case the
        tool built tells them apart, or the probe that would was not asked)."""
        beside = [(rival, f"{words_of(rival)} (no case the tool built tells them apart)") for rival in trial.inseparable]
        beside += [(rival, f"{words_of(rival)} (the probe that would tell them apart was not asked: {trial.why or 'no engine, or the --probes budget spent'})")
                   for rival in trial.unasked]
        return replace(self, evidence=trial.status, probes=trial.probes, why_untested=trial.why,
                       or_equally=tuple(beside))

    def said(self) -> str:
        """Its words with its evidence: how many cases, the probes that confirm it, the rivals beside it."""
        text = f"{self.words}: {self.explains} of {self.of} cases"
        if self.rules_read:
            text += " (the engine's own refusal ids read as: " + ", ".join(f"{a} = {b}" for a, b in self.rules_read) + ")"
        if self.evidence == CONFIRMED:
            held = sum(1 for p in self.probes if p.holds)
            text += f", confirmed by {held} probe{'s' if held != 1 else ''}"
        elif self.evidence == UNTESTED:
            text += f", not confirmed by a probe ({self.why_untested}); checked against {self.checked} passing cases"
        if self.or_equally:
            text += "; or equally: " + "; ".join(w for _, w in self.or_equally)
        return text

    def as_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "id": self.id, "words": self.words, "rules": list(self.rules),
                "explains": self.explains, "of": self.of, "passing_checked": self.checked,
                **({"evidence": self.evidence} if self.evidence else {}),
                **({"why_untested": self.why_untested} if self.why_untested else {}),
                **({"probes": [p.as_json() for p in self.probes]} if self.probes else {}),
                **({"or_equally": [{"id": i, "words": w} for i, w in self.or_equally]} if self.or_equally else {}),
                **({"rules_read": dict(self.rules_read)} if self.rules_read else {})}


@dataclass(frozen=True)
class Cause:
    """What a class's search found: the explanations that cover it (one, or several greedily), the cases none
    explains, and what was tried; after the probes, the departures that fit the cases but that the engine's
    answers contradict (each with the probe), and those that fit but nothing tested (no passing case, no probe:
    not named)."""

    explanations: tuple[Explanation, ...]
    unexplained: int
    tried: Mapping[str, int] = field(default_factory=dict)
    alternatives: tuple[Explanation, ...] = ()  # every single departure that explains the whole class alike
    stopped: int | None = None  # the effort budget, when it was spent before this class was searched (or in it)
    share: bool = False  # stopped in the class's own search, its share of the effort spent
    screened: tuple[int, int] | None = None  # then: how many of its candidates were screened, of how many
    effort: int = 1  # the run's --effort
    contradicted: tuple[Explanation, ...] = ()
    untested: tuple[Explanation, ...] = ()

    def choosing(self, chosen: Explanation) -> "Cause":
        """The same cause with `chosen`, one of its alternatives, named first (see `CauseSearch._prefer_shared`)."""
        return Cause((chosen,), self.unexplained, self.tried, self.alternatives)

    @property
    def verdict(self) -> str:
        if self.stopped is not None and self.share:
            text = (f"not searched to the end: the class's share of the search's effort (up to {self.stopped:,} "
                    f"re-scorings) was spent before a cause was found")
            if self.screened is not None and self.screened[0]:
                done, of = self.screened
                more = -(-of * self.effort // done)  # its candidates cost alike: so many times the effort screens all
                return text + (f", with {done} of its {of} candidate departures screened; --effort {max(more, self.effort + 1)}"
                               f" would screen them all (before pairs and later rounds)")
            return text + f", before its first candidate was screened; --effort {self.effort * 2} or more gives it more"
        if self.stopped is not None:
            return (f"not searched: the search's effort ({self.stopped:,} re-scorings) was spent on larger classes; "
                    f"--effort 2 or more gives every class more")
        said = [e.said() for e in self.explanations]
        if self.contradicted:
            said.append("contradicted by the engine's answers to probes: " +
                        "; ".join(f"{e.words} (probe {_probe_words(e.probes)})" for e in self.contradicted))
        if self.untested:
            said.append("fits the cases but nothing tested it (no passing case, no probe), so not named: " +
                        "; ".join(f"{e.words} ({e.why_untested})" for e in self.untested))
        if not self.explanations:
            return UNEXPLAINED + (": " + "; ".join(said) if said else "")
        return "; ".join(said)

    def as_json(self) -> dict[str, Any]:
        named = {e.id for e in self.explanations} | {i for e in self.explanations for i, _ in e.or_equally}
        settled = any(e.evidence for e in self.explanations)  # rivals the probes separated are not listed
        return {"explained_by": [e.as_json() for e in self.explanations], "unexplained": self.unexplained,
                "also_explained_by": [] if settled else
                [e.as_json() for e in self.alternatives if e.id not in named and e.checked],
                **({"contradicted": [e.as_json() for e in self.contradicted]} if self.contradicted else {}),
                **({"untested": [e.as_json() for e in self.untested]} if self.untested else {}),
                "tried": dict(self.tried), "verdict": self.verdict}


def _probe_words(probes: Sequence[Probe]) -> str:
    wrong = next((p for p in probes if p.holds is False), None)
    if wrong is None:
        return "none"
    return f"{wrong.case.get('id')}: predicted {_short(wrong.predicted)}, the engine answered {_short(wrong.answer)}"


def _short(result: Any) -> str:
    if not isinstance(result, Mapping):
        return "nothing"
    first = readings_of(result)[0] if readings_of(result) else {}
    if not first.get("valid", True):
        return f"a refusal ({first.get('error')})"
    fans = ", ".join(f"{f.get('id')} {f.get('points')}" + (f"×{f.get('count')}" if f.get("count", 1) != 1 else "")
                     for f in first.get("fans") or [])
    return f"a win of {first.get('total')} ({fans}), payments {first.get('payments')}"


def _family_kind(m: Mutation) -> str:
    if m.family == "reading":
        return "reading"
    if m.family.startswith("context"):
        return "context reading"
    if m.family == "pair":
        return "pair"
    return "spec edit"


class CauseSearch:
    """The search for one run: its passing cases (by ruleset, at most MAX_PASSING_CHECKED spread over the run)
    and a shared rescorer; every re-scored result is kept for the run, so a departure checked for one class is
    not scored again for the next. `explain_all` searches every class, then settles them together: a departure
    that explains several classes is named for each of them where it explains them alike, and classes no
    single departure explains are tried again with the departures found for the others."""

    def __init__(self, passing: Iterable[Judged], rescorer: Rescorer | None = None, effort: int = 10**12,
                 totals: Mapping[str, int] | None = None, scale: int = 1):
        """`passing`: the run's cases (only passed score cases are kept); `totals`: given when `passing` is the
        sample already (checker.diagnose.sample), how many passing cases of each ruleset it was taken from."""
        self.rescorer = rescorer or Rescorer()
        every: dict[str, list[Judged]] = {}
        for r in passing:
            if r.outcome == "passed" and r.ruleset is not None and rescorable(r):
                every.setdefault(r.ruleset, []).append(r)
        # at most MAX_PASSING_CHECKED of them, spread evenly over the run (every k-th), the same every time
        self.passing = {rs: cases[::passing_step(len(cases))] for rs, cases in every.items()} if totals is None \
            else every
        self.passing_total = {rs: len(cases) for rs, cases in every.items()} if totals is None else dict(totals)
        self._results: dict[tuple[int, str], bool] = {}
        self._pairs: dict[tuple[int, str], tuple[str, str]] = {}  # the refusal ids read as one, where they differ
        self._answers: dict[int, tuple[Judged, Any]] = {}
        self._names: dict[str, FanNames] = {}
        self._own: dict[str, OwnRules] = {}
        self.expected_rules: set[str] = set()  # refusal ids the run's expectations name
        self._moved: dict[tuple[int, str], bool] = {}
        self.effort, self.spent = effort, 0  # re-scorings the search may spend, and has spent
        self.scale = scale  # `--effort`: the run's effort is so many times EFFORT (and EFFORT_PER_CASE a case)
        self._limit: int | None = None  # re-scorings the class being searched may reach
        self._screening: tuple[int, int] | None = None  # (candidates screened, of) in the class being searched
        self._kept: dict[tuple[str, str], int | None] = {}
        self.mutations: dict[str, Mutation] = {}  # every departure named or kept as an alternative, by id

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
            except _OutOfEffort:
                causes.append(Cause((), len(cls.members), {}, stopped=self._limit, share=True,
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
                for m in self._components(e.id):
                    if m.id not in seen:
                        seen.add(m.id)
                        reach[m.id] = reach.get(m.id, 0) + 1
                    if m not in named.setdefault(cls.ruleset or "", []):
                        named[cls.ruleset or ""].append(m)
        out = []
        for cls, cause in zip(classes, causes):
            found = sorted(named.get(cls.ruleset or "", []), key=lambda m: -reach.get(m.id, 0))  # (stable)
            own = [m for e in cause.explanations for m in self._components(e.id)]
            if found and cause.unexplained > len(cls.members) - len(self._members(cls)):  # a case it could explain
                better = self._explain_with(cls, found, cause)
                cause = better if better is not None else cause
            elif own and found:
                # departures that explain more classes, where they explain this one with no more departures
                shared = [m for m in found if reach.get(m.id, 0) > min(reach.get(o.id, 0) for o in own)]
                cover = self._cover(cls, shared, own, cause) if shared else None
                if cover is not None and sum(reach.get(m.id, 0) for e in cover.explanations
                                             for m in self._components(e.id)) > sum(reach.get(m.id, 0) for m in own):
                    cause = cover
            out.append(cause)
        return out

    def _components(self, explanation_id: str) -> list[Mutation]:
        """The single departures an explanation is made of (one, or those of a pair or a combination)."""
        whole = self.mutations.get(explanation_id)
        if whole is not None and whole.family != "pair":
            return [whole]
        return [self.mutations[part] for part in explanation_id.split(" + ") if part in self.mutations]

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
                return Cause((self._explanation(together, len(members), len(cls.members), checked),), 0,
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
                return Cause(tuple(found), 0, {**before.tried, "departures found for other classes": len(departures)})
        return None

    def _explain_with(self, cls: FailureClass, found: list[Mutation], before: Cause) -> Cause | None:
        members = self._members(cls)
        ruleset = self.ruleset_of(cls.ruleset)
        if not members or ruleset is None:
            return None
        own = [f[0] for f in edits_by_part(cls, ruleset, self._parts(cls, ruleset)) if f] + context_readings(ruleset)
        trials = self._joint_trials(found, own)
        screened = members[:MAX_MEMBERS_SCREENED]
        tried = {**before.tried, "with departures found for other classes": len(trials) + 1}
        chosen: Mutation | None = None
        for m in trials:  # the run's departures: one, two, three (in the order found), then one with the class's own
            if all(self._explains(r, m) for r in screened) and self._explains_all(members, m):
                chosen = m
                break
        if chosen is None:  # every departure found, with one of this class's own per part, then as few as explain it
            per_part = [f[0] for f in edits_by_part(cls, ruleset, self._parts(cls, ruleset)) if f]
            chosen = self._least(members, list(found) + [m for m in per_part if m.id not in {f.id for f in found}])
        if chosen is None:
            return None
        checked = self._passing_kept(cls.ruleset or "", chosen)
        if checked is None:
            return None
        self.mutations[chosen.id] = chosen
        return Cause((self._explanation(chosen, len(members), len(cls.members), checked),),
                     len(cls.members) - len(members), tried)

    @staticmethod
    def _joint_trials(found: Sequence[Mutation], own: Sequence[Mutation]) -> list[Mutation]:
        """The subsets of the run's departures a class is tried with, smallest first: each alone, each pair, each
        triple of the first MAX_FOUND_IN_TRIPLES, then one of them with one of the class's own candidates."""
        trials = list(found)
        trials += [combined(a, b) for a, b in combinations(found, 2)]
        trials += [_together(t) for t in combinations(found[:MAX_FOUND_IN_TRIPLES], 3)]
        trials += [combined(a, m) for a in found for m in own if m.id != a.id][:MAX_TRIALS_WITH_OTHERS]
        return trials

    def _needed(self, cls: FailureClass, members: Sequence[Judged], found: list[Explanation]) -> list[Explanation]:
        """A greedy cover without the departures it does not need: each (the last first) left out where the others
        explain every case it explained; each one kept then counts the cases it is the first to explain."""
        cases = {e.id: {id(r) for r in self._explained(members, self.mutations[e.id])}
                 for e in found if e.id in self.mutations}
        kept = list(found)
        for e in reversed(found):
            others = set().union(*(cases[o.id] for o in kept if o is not e and o.id in cases))
            if e.id in cases and len(kept) > 1 and cases[e.id] <= others:
                kept.remove(e)
        if len(kept) == len(found):
            return found
        done: set[int] = set()
        out = []
        for e in kept:
            mine = cases.get(e.id)
            if mine is None:
                out.append(e)
                continue
            out.append(replace(e, explains=len(mine - done)))
            done |= mine
        return out

    def _least(self, members: Sequence[Judged], parts: Sequence[Mutation]) -> Mutation | None:
        """The departures of `parts` together, if they explain every member, with each left out in turn (the last
        first) while the rest still do: a smallest such set, as one departure; None when all together do not."""
        if not parts:
            return None
        screened = members[:MAX_MEMBERS_SCREENED]

        def explains(chosen: Sequence[Mutation]) -> bool:
            m = _together(chosen)
            return all(self._explains(r, m) for r in screened) and self._explains_all(members, m)

        kept = list(parts)
        if not explains(kept):
            return None
        for m in reversed(list(parts)):
            if len(kept) > 1 and explains([k for k in kept if k is not m]):
                kept = [k for k in kept if k is not m]
        return _together(kept)

    def _parts(self, cls: FailureClass, ruleset: Ruleset) -> Sequence[Mapping[str, Any]]:
        """A class's signature, or, where the engine wins a hand the rules refuse for its points, how the engine's
        fans depart from those the reference engine finds when no minimum applies."""
        verdicts = [p["verdict"] for p in cls.parts if "verdict" in p]
        if not verdicts or verdicts[0]["actual"] != "win" or verdicts[0]["expected"] != "win.minimum_points":
            return cls.parts
        witness = cls.witness
        below = self.rescorer.result(witness.case or {}, edits.minimum(ruleset.id, 0, ruleset.win.minimum_points))
        if below is None:
            return cls.parts
        seen = SimpleNamespace(outcome="failed", reason=None, expected=below, actual=self.answer(witness), ruleset=None)
        return signature(seen)[1]  # type: ignore[arg-type]

    # ------------------------------------------------------------------ experiments on the engine

    def confirm_all(self, classes: Sequence[FailureClass], causes: Sequence[Cause],
                    experiments: Experiments | None) -> list[Cause]:
        """Each class's cause put to the engine (checker.diagnose.probes), largest class first. The departures
        named for the run's classes of a ruleset are the run's model of the engine: a probe of one class may show
        another's departure too, so a departure its probes contradict alone is tried again with the others."""
        model: dict[str, list[Mutation]] = {}
        for cls, cause in zip(classes, causes):
            for e in cause.explanations:
                for m in self._components(e.id):
                    if m not in model.setdefault(cls.ruleset or "", []):
                        model[cls.ruleset or ""].append(m)
        return [self.confirm(cls, cause, experiments, model.get(cls.ruleset or "", []))
                for cls, cause in zip(classes, causes)]

    def confirm(self, cls: FailureClass, cause: Cause, experiments: Experiments | None,
                model: Sequence[Mutation] = ()) -> Cause:
        """The cause with each named departure tried by probes: confirmed, or contradicted (tried again with the
        run's other departures, `model`; else a rival the probes bear out named in its place, else its cases left
        unexplained), or untested (named only when passing cases were checked; else set aside, said so); rivals no
        probe tells apart named beside it."""
        members = self._members(cls)
        ruleset = self.ruleset_of(cls.ruleset)
        cases = [r.case for r in members if r.case is not None]
        if ruleset is not None and experiments is not None and any(
                e.kind == "input disagreement" for e in cause.explanations):
            cause = self._disagreements_tried(cause, ruleset, experiments)
        if cause.stopped is not None or not cause.explanations or ruleset is None or not cases:
            return cause
        rivals = self._rivals(cls, cause) if len(cause.explanations) == 1 else []
        named: list[Explanation] = []
        contradicted: list[Explanation] = []
        untested: list[Explanation] = []
        unexplained = cause.unexplained
        for e in cause.explanations:
            m = self.mutations.get(e.id)
            if m is None:  # fans outside the spec, an input disagreement, fan names: read off the answers alone
                named.append(e)
                continue
            e = self._with_rules_read(members, m, e)
            others = [(a, r) for a, r in rivals if r.id != m.id]
            beside = [o for x in cause.explanations if x.id != e.id for o in self._components(x.id)]
            own = self._own_contradiction(members, m, beside)  # a case of the class it moves, not to the answer
            trial = own if own is not None else self._trial(experiments, ruleset, cases, m, [r for _, r in others])
            if trial.status == CONTRADICTED:
                jointly = self._with_model(experiments, ruleset, cases, members, m, model)
                if jointly is not None:
                    joint_trial, others_used = jointly
                    said = "; ".join(o.words for o in others_used)
                    named.append(replace(e, words=f"{e.words} (its probes predicted with the run's other "
                                                  f"departures: {said})").tried_by(joint_trial, self._words))
                    continue
                contradicted.append(e.tried_by(trial, self._words))
                swap = self._borne_out(experiments, ruleset, cases, members, others, m)
                if swap is not None:
                    named.append(swap)
                else:
                    unexplained += e.explains
            elif trial.status == UNTESTED and not e.checked:
                untested.append(e.tried_by(trial, self._words))
                unexplained += e.explains
            else:
                named.append(e.tried_by(trial, self._words))
        return Cause(tuple(named), unexplained, cause.tried, cause.alternatives, contradicted=tuple(contradicted),
                     untested=tuple(untested))

    def _disagreements_tried(self, cause: Cause, ruleset: Ruleset, experiments: Experiments) -> Cause:
        """An input disagreement ("the engine does not take a case with X") put to the engine: other cases with X
        must be refused or erred on too; one it answers contradicts it (its cases are then unexplained)."""
        named, contradicted, unexplained = [], list(cause.contradicted), cause.unexplained
        for e in cause.explanations:
            if e.kind != "input disagreement":
                named.append(e)
                continue
            feature = e.id.split(":", 1)[1]
            trial = experiments.trial_feature(ruleset, lambda case: feature in case_features(case))
            if trial.status == CONTRADICTED:
                contradicted.append(e.tried_by(trial, self._words))
                unexplained += e.explains
            else:
                named.append(e.tried_by(trial, self._words))
        return replace(cause, explanations=tuple(named), contradicted=tuple(contradicted), unexplained=unexplained)

    def _own_contradiction(self, members: Sequence[Judged], m: Mutation, beside: Sequence[Mutation]) -> Trial | None:
        """Where `m` explains part of a class: a case of the class it does not explain but still changes (its
        prediction there is not the engine's answer, nor is it with any departure named `beside` it) contradicts it
        as a probe would; None if there is none."""
        for r in members:
            if not self._explains(r, m) and self._moves(r, m) and \
                    not any(self._explains(r, combined(m, o)) for o in beside):
                predicted = self.rescorer.result(r.case or {}, m) or {}
                reference = self.rescorer.result(r.case or {}, None) or {}
                probe = Probe(dict(r.case or {}), predicted, None, reference,
                              r.actual if isinstance(r.actual, Mapping) else None, False)
                return Trial(CONTRADICTED, (probe,))
        return None

    def _with_model(self, experiments: Experiments | None, ruleset: Ruleset, cases: Sequence[Mapping[str, Any]],
                    members: Sequence[Judged], m: Mutation,
                    model: Sequence[Mutation]) -> tuple[Trial, list[Mutation]] | None:
        """`m` with the run's other departures (those that set no option `m` sets), when together they still
        explain the class and the engine's answers to their probes bear them out: the trial, and those others."""
        others = [o for o in model if o.id not in m.id.split(" + ") and set(o.options).isdisjoint(m.options)]
        if not others or experiments is None:
            return None
        joint = _together([m, *others])
        if not self._explains_all(members, joint):
            return None
        trial = self._trial(experiments, ruleset, cases, joint, [])
        return (trial, others) if trial.status == CONFIRMED else None

    def _trial(self, experiments: Experiments | None, ruleset: Ruleset, cases: Sequence[Mapping[str, Any]],
               m: Mutation, rivals: Sequence[Mutation]) -> Trial:
        if experiments is None:
            return Trial(UNTESTED, (), tuple(r.id for r in rivals), "no engine to ask")
        return experiments.trial(ruleset, cases, m, rivals)

    def _rivals(self, cls: FailureClass, cause: Cause) -> list[tuple[Explanation, Mutation]]:
        """The other departures that explain the whole class alike and change no passing case checked."""
        out = []
        named = {e.id for e in cause.explanations}
        for a in cause.alternatives:
            m = self.mutations.get(a.id)
            if a.id in named or m is None:
                continue
            checked = self._passing_kept(cls.ruleset or "", m)
            if checked is not None:
                out.append((replace(a, checked=checked), m))
        return out

    def _borne_out(self, experiments: Experiments | None, ruleset: Ruleset, cases: Sequence[Mapping[str, Any]],
                   members: Sequence[Judged], rivals: Sequence[tuple[Explanation, Mutation]],
                   contradicted: Mutation) -> Explanation | None:
        """The first rival the engine's answers to its own probes do not contradict, tried as the named one was."""
        for a, m in rivals:
            trial = self._trial(experiments, ruleset, cases, m, [r for _, r in rivals if r.id != m.id])
            if trial.status == CONFIRMED or (trial.status == UNTESTED and a.checked):
                return self._with_rules_read(members, m, a).tried_by(trial, self._words)
        return None

    def _with_rules_read(self, members: Sequence[Judged], m: Mutation, e: Explanation) -> Explanation:
        read = self.rules_read(self._explained(members, m), m) or {}
        return replace(e, rules_read=tuple(sorted(read.items()))) if read else e

    def _words(self, mutation_id: str) -> str:
        m = self.mutations.get(mutation_id)
        return m.words if m is not None else mutation_id

    # ------------------------------------------------------------------ one class

    def explain(self, cls: FailureClass) -> Cause:
        if self.spent + SCORER_COST * self.rescorer.builds >= self.effort:  # said, not hidden
            return Cause((), len(cls.members), {}, stopped=self.effort)
        named = self._fan_names(cls)
        if named is None:
            return self._explain(cls)
        members = self._members(cls)
        if all(self._explains(r, None) for r in members):  # the names are the whole departure
            return Cause((named,), len(cls.members) - len(members), {"fan names": 1})
        cause = self._explain(cls)
        return replace(cause, explanations=(named,) + cause.explanations)

    def _fan_names(self, cls: FailureClass) -> Explanation | None:
        """Where the engine names fans in the documents' words: that reading, said with the names it read (read
        off the answers themselves, with the ruleset the search scores under)."""
        ruleset = self.ruleset_of(cls.ruleset)
        if ruleset is None:
            return None
        read: dict[str, str] = {}
        for r in cls.members:
            read.update(self.names(ruleset).read(r.actual, {p.id for p in ruleset.patterns})[1])
        if not read:
            return None
        said = ", ".join(f"{name} for {spec_id}" for name, spec_id in sorted(read.items())[:8])
        return Explanation("fan names", "fan-names", f"the engine names fans by their names in the documents ({said}), "
                           f"not by the spec's ids", tuple(f"fan.{i}" for i in sorted(set(read.values()))),
                           len(cls.members), len(cls.members))

    def _explain(self, cls: FailureClass) -> Cause:
        members = self._members(cls)
        ruleset = self.ruleset_of(cls.ruleset)
        tried: dict[str, int] = {}
        found: list[Explanation] = []
        outside = fans_outside_spec(cls, ruleset)
        if outside is not None:
            alone = Cause((outside,), 0, {"fans outside the spec": 1})
            if not members or ruleset is None:
                return alone
            after = self._outside_after(cls, members, ruleset, option_readings(ruleset), dict(alone.tried))
            named = after.explanations[0].id if after is not None else outside.id
            return after if after is not None and named != outside.id else alone
        disagreement = input_disagreement(cls, self.passing.get(cls.ruleset or "", []))
        if not members or ruleset is None:
            if disagreement is not None:
                return Cause((disagreement,), 0, {"input disagreement": 1})
            return Cause((), len(cls.members), tried)
        parts = self._parts(cls, ruleset)
        candidates = candidates_for(cls, ruleset, parts)
        self.mutations.update((m.id, m) for m in candidates if m.id not in self.mutations)
        for m in candidates:
            tried[_family_kind(m)] = tried.get(_family_kind(m), 0) + 1
        beside = self._outside_after(cls, members, ruleset, candidates, tried)
        if beside is not None:
            return beside
        screened = members[:MAX_MEMBERS_SCREENED]
        scores: list[tuple[int, Mutation]] = []
        first = screened[:MAX_MEMBERS_FIRST]
        for number, m in enumerate(candidates):  # a departure that explains none of the first few is not scored on
            self._screening = (number, len(candidates))  # the rest (how far it got, said if the class's share ends)
            if not any(self._explains(r, m) for r in first):
                continue
            hits = sum(1 for r in screened if self._explains(r, m))
            if hits:
                scores.append((hits, m))
        order = {m.id: i for i, m in enumerate(candidates)}  # readings, then suggested edits, then context readings
        scores.sort(key=lambda x: (-x[0], x[1].size, order[x[1].id]))
        whole = [m for hits, m in scores if hits == len(screened)]
        alternatives: list[Explanation] = []
        chosen: Explanation | None = None
        for m in whole:
            if len(alternatives) >= MAX_ALTERNATIVES:
                break
            if not self._explains_all(members, m):
                continue
            self.mutations[m.id] = m
            if chosen is None:  # the first checked against the passing cases is named; the others kept to settle
                checked = self._passing_kept(cls.ruleset or "", m)
                if checked is None:
                    continue
                chosen = self._explanation(m, len(members), len(cls.members), checked)
                alternatives.append(chosen)
            else:
                alternatives.append(self._explanation(m, len(members), len(cls.members), 0))
        if chosen is not None:
            return Cause((chosen,), len(cls.members) - len(members), tried, tuple(alternatives))
        per_part = [found[0] for found in edits_by_part(cls, ruleset, parts) if found]
        if len(per_part) > 1:  # a departure in each part of the signature: together, then as few as explain it
            tried["spec edits together"] = 1
            least = self._least(members, per_part)
            if least is not None:
                checked = self._passing_kept(cls.ruleset or "", least)
                if checked is not None:
                    self.mutations[least.id] = least
                    return Cause((self._explanation(least, len(members), len(cls.members), checked),),
                                 len(cls.members) - len(members), tried)
        # pairs of readings: only those that each change the reference's result on the witness (a reading that
        # changes nothing there cannot be half of the smallest pair that explains it)
        readings = [m for m in candidates if m.family == "reading" and self._moves(members[0], m)]
        partial = [m for _, m in scores[:PAIRS_FROM]]
        pairs = [(a, b) for a, b in combinations(readings, 2) if set(a.options).isdisjoint(b.options)]
        pairs += [(a, b) for a, b in combinations(partial, 2) if not (a.family == b.family == "reading")]
        for a, b in pairs:
            pair = combined(a, b)
            tried["pair"] = tried.get("pair", 0) + 1
            if all(self._explains(r, pair) for r in screened) and self._explains_all(members, pair):
                checked = self._passing_kept(cls.ruleset or "", pair)
                if checked is not None:
                    self.mutations[pair.id] = pair
                    return Cause((self._explanation(pair, len(members), len(cls.members), checked),),
                                 len(cls.members) - len(members), tried)
        left = self._greedy(cls, members, [m for _, m in scores], found)
        for _ in range(MAX_ROUNDS):  # the cases left screened again: a departure none of the first showed
            if not left or not found:
                break
            screened = left[:MAX_MEMBERS_SCREENED]
            used = {e.id for e in found}
            shown = {m.id: sum(1 for r in screened if self._explains(r, m)) for m in candidates if m.id not in used}
            more = sorted((m for m in candidates if shown.get(m.id)), key=lambda m: (-shown[m.id], m.size, order[m.id]))
            before = len(left)
            left = self._greedy(cls, left, more, found, at_most=1)
            if len(left) == before:
                break
        if left and found:  # the cases left may differ by fans outside the spec (after a departure) alone
            rest = self._outside_after(cls, left, ruleset, candidates, tried)
            if rest is not None:
                found.extend(rest.explanations)
                left = []
        unexplained = len(left) + len(cls.members) - len(members)
        found = self._needed(cls, members, found)
        if not found and disagreement is not None:
            return Cause((disagreement,), 0, {**tried, "input disagreement": 1})
        return Cause(tuple(found), unexplained, tried)

    def _greedy(self, cls: FailureClass, left: list[Judged], ranked: Sequence[Mutation], found: list[Explanation],
                at_most: int | None = None) -> list[Judged]:
        """Cover `left` greedily with `ranked` (best first), each departure checked against the passing cases;
        appends what explains some of them to `found` (at most `at_most`) and returns the cases none explains."""
        for m in ranked:
            if not left or (at_most is not None and at_most <= 0):
                break
            explained = self._explained(left, m)
            if not explained:
                continue
            checked = self._passing_kept(cls.ruleset or "", m)
            if checked is None:
                continue
            self.mutations[m.id] = m
            found.append(self._explanation(m, len(explained), len(cls.members), checked))
            done = {id(r) for r in explained}
            left = [r for r in left if id(r) not in done]
            at_most = at_most - 1 if at_most is not None else None
        return left

    # ------------------------------------------------------------------ fans outside the spec, after a departure

    def _outside_after(self, cls: FailureClass, members: Sequence[Judged], ruleset: Ruleset,
                       candidates: Sequence[Mutation], tried: dict[str, int]) -> Cause | None:
        """Where the engine names fans the spec does not have: the departure (none, one of the candidates, or two
        readings) after which every case differs only by the same outside fans in place of the same spec fans,
        checked against the passing cases; with none, a reading (or two) after which they replace fewer spec fans
        is named instead (the engine follows it besides). A hand the engine wins on points the rules refuse is
        read against the reference's fans with no minimum. None when the engine names no such fan, or none
        explains the class."""
        known = {p.id for p in ruleset.patterns}
        if not members or not any(_outside_ids(r.actual, known) for r in members):
            return None
        readings = [m for m in candidates if m.family == "reading"]
        pairs = [combined(a, b) for a, b in combinations(readings, 2) if set(a.options).isdisjoint(b.options)]
        of_readings = {m.id for m in readings + pairs}
        trials: list[Mutation | None] = [None, *readings, *(m for m in candidates if m.family != "reading"), *pairs]
        alone: Cause | None = None
        replacing = 0  # the spec fans the outside fans replace with no departure
        for m in trials:
            if alone is not None and (m is None or m.id not in of_readings):
                continue
            tried["fans outside the spec"] = tried.get("fans outside the spec", 0) + 1
            shape = self._beside(members[0], m, ruleset, known)
            if shape is None or not all(self._beside(r, m, ruleset, known) == shape for r in members[1:]):
                continue
            if alone is not None and len(shape[1]) >= replacing:
                continue
            checked = self._passing_kept(cls.ruleset or "", m) if m is not None else 0
            if checked is None:
                continue
            outside, replaced, lifted = shape
            words = _outside_words(outside, replaced) + \
                (", whose points lift a hand the rules refuse under the minimum to a win" if lifted else "")
            rules = tuple(f"fan.{f}" for f in replaced) + (("win.minimum_points",) if lifted else ())
            ident = "outside:" + ",".join(outside)
            if m is None:
                alone = Cause((Explanation("fans outside the spec", ident, words, rules, len(members),
                                           len(cls.members)),), len(cls.members) - len(members), tried)
                replacing = len(replaced)
                continue
            found = Explanation("pair", f"{m.id} + {ident}", f"{m.words}; and {words}",
                                m.rules + tuple(r for r in rules if r not in m.rules), len(members),
                                len(cls.members), checked)
            return Cause((found,), len(cls.members) - len(members), tried)
        return alone

    def _beside(self, r: Judged, m: Mutation | None, ruleset: Ruleset,
                known: set[str]) -> tuple[tuple[str, ...], tuple[str, ...], bool] | None:
        """How the engine's answer departs from the reference's under `m`, when only by fans the spec does not
        have in place of spec fans: (those fans, the fans they replace, whether the reference's fans were read
        with no minimum); else None."""
        lifted = _below_minimum(r)
        departure = m
        if lifted:
            free = edits.minimum(ruleset.id, 0, ruleset.win.minimum_points)
            departure = free if m is None else combined(m, free)
        rescored = self.rescorer.result(r.case or {}, departure)
        if rescored is None or not isinstance(r.actual, Mapping):
            return None
        found = diff(rescored, r.actual)
        extra = {str(f.get("id")) for f in found.extra}
        if found.different or not extra or not extra.isdisjoint(known):
            return None
        if found.fields and not self._worth_accounts(r, departure, ruleset, found):
            return None  # the total or payments differ by more than the outside fans account for
        return tuple(sorted(extra)), tuple(sorted(str(f.get("id")) for f in found.missing)), lifted

    def _worth_accounts(self, r: Judged, departure: Mutation | None, ruleset: Ruleset, found: Any) -> bool:
        """Whether the fields beside the fans (total, payments) differ only as the outside fans' worth makes them:
        one outside fan in place of one or more spec fans, the reference scoring the first of them at the outside
        fan's points (and the others at none) gives the engine's total and payments."""
        if len(found.extra) != 1 or not found.missing:
            return False
        worth, count = found.extra[0].get("points"), found.extra[0].get("count")
        if not isinstance(worth, int) or isinstance(worth, bool) or worth < 0 or not isinstance(count, int) \
                or found.missing[0].get("count") != count:
            return False
        repriced = edits.points(ruleset.id, str(found.missing[0].get("id")), worth, None)
        for other in found.missing[1:]:
            repriced = combined(repriced, edits.points(ruleset.id, str(other.get("id")), 0, None))
        rescored = self.rescorer.result(r.case or {}, repriced if departure is None else combined(departure, repriced))
        if rescored is None or not isinstance(r.actual, Mapping) or "either" in rescored or "either" in r.actual:
            return False
        return all(rescored.get(k) == r.actual.get(k) for k in ("valid", "total", "payments"))

    # ------------------------------------------------------------------ helpers

    def _members(self, cls: FailureClass) -> list[Judged]:
        return [r for r in cls.members if r.outcome == "failed" and rescorable(r)]

    def ruleset_of(self, ruleset_id: str | None) -> Ruleset | None:
        if ruleset_id is None:
            return None
        try:
            return self.rescorer.runner.ruleset(ruleset_id)
        except ValueError:
            return None

    def _explains(self, r: Judged, m: Mutation | None) -> bool:
        """Whether the reference under `m` (None: the rules) gives the engine's whole answer to the case
        (checker.diagnose.answers), its fans read back from the documents' names."""
        key = (id(r), m.id if m is not None else "")
        found = self._results.get(key)
        if found is None:
            self._spend()
            ruleset = r.ruleset or ""
            told = agreement(self.answer(r), self.rescorer.result(r.case or {}, m), r.expected, self.own_rules(ruleset),
                             kind_of(r))
            found = self._results[key] = told.same
            if told.rule_pair is not None:
                self._pairs[key] = told.rule_pair
        return found

    def _spend(self) -> None:
        """One re-scoring more; _OutOfEffort when the class being searched has spent its share."""
        if self._limit is not None and self.spent + SCORER_COST * self.rescorer.builds >= self._limit:
            raise _OutOfEffort
        self.spent += 1

    def _explains_all(self, members: Sequence[Judged], m: Mutation) -> bool:
        """Whether `m` explains every member, each refusal id of the engine's own standing for one rule."""
        return len(self._explained(members, m)) == len(members) and self.rules_read(members, m) is not None

    def rules_read(self, members: Sequence[Judged], m: Mutation | None) -> dict[str, str] | None:
        """The engine's own refusal ids read as the reference's rules over `members` under `m` (None: one id
        read as two rules)."""
        mid = m.id if m is not None else ""
        return consistent_rules(self._pairs.get((id(r), mid)) for r in members)

    def answer(self, r: Judged) -> Any:
        """The engine's answer with the fans it names in the documents' words read as the spec's ids."""
        key = id(r)
        kept = self._answers.get(key)
        if kept is not None and kept[0] is r:
            return kept[1]
        ruleset = self.ruleset_of(r.ruleset)
        read = self.names(ruleset).read(r.actual, {p.id for p in ruleset.patterns})[0] if ruleset is not None \
            else r.actual
        self._answers[key] = (r, read)
        return read

    def read_names(self, ruleset: Ruleset, answer: Any) -> Any:
        """An answer with the fans it names in the documents' words read as the spec's ids."""
        return self.names(ruleset).read(answer, {p.id for p in ruleset.patterns})[0]

    def names(self, ruleset: Ruleset) -> FanNames:
        if ruleset.id not in self._names:
            self._names[ruleset.id] = FanNames.of(ruleset)
        return self._names[ruleset.id]

    def own_rules(self, ruleset_id: str) -> OwnRules:
        """The refusal ids of the spec and the case format, and those the run's expectations name."""
        if ruleset_id not in self._own:
            self._own[ruleset_id] = OwnRules.of(self.ruleset_of(ruleset_id), self.expected_rules)
        return self._own[ruleset_id]

    def _moves(self, r: Judged, m: Mutation) -> bool:
        """Whether `m` changes the reference engine's result for the case."""
        key = (id(r), m.id)
        found = self._moved.get(key)
        if found is None:
            self._spend()
            case = r.case or {}
            found = self._moved[key] = _canonical(self.rescorer.result(case, m)) != _canonical(
                self.rescorer.result(case, None))
        return found

    def _explained(self, members: Sequence[Judged], m: Mutation) -> list[Judged]:
        return [r for r in members if self._explains(r, m)]

    def _passing_kept(self, ruleset_id: str, m: Mutation) -> int | None:
        """How many passing cases were checked (None: the departure changes one of them)."""
        key = (ruleset_id, m.id)
        if key not in self._kept:
            checked: int | None = 0
            for r in self.passing.get(ruleset_id, []):
                if m.touches_input and kind_of(r) == "procedure":
                    continue  # a context reading reads a hand's input: a hand of play has none to read otherwise
                if not self._explains(r, m):
                    checked = None
                    break
                checked = (checked or 0) + 1
            self._kept[key] = checked
        return self._kept[key]

    def _explanation(self, m: Mutation, explains: int, of: int, checked: int) -> Explanation:
        return Explanation(_family_kind(m), m.id, m.words, m.rules, explains, of, checked)


def _together(parts: Sequence[Mutation]) -> Mutation:
    found = parts[0]
    for m in parts[1:]:
        found = combined(found, m)
    return found


def _canonical(result: Any) -> str:
    return json.dumps(result, sort_keys=True, default=str)


def passing_step(passing: int) -> int:
    """Every how many passing cases of a ruleset one is checked: at most MAX_PASSING_CHECKED, spread over the run."""
    return max(1, -(-passing // MAX_PASSING_CHECKED))


# ------------------------------------------------------------------ causes found without re-scoring

def fans_outside_spec(cls: FailureClass, ruleset: Ruleset | None) -> Explanation | None:
    """The engine scores fan ids the spec has none of, in place of the same spec fans in every case."""
    if ruleset is None:
        return None
    known = {p.id for p in ruleset.patterns}
    extra = {str(p["fan"]) for p in cls.parts if p.get("extra")}
    outside = sorted(extra - known)
    if not outside or extra - set(outside):
        return None
    replaced = sorted(str(p["fan"]) for p in cls.parts if p.get("missing"))
    others = [p for p in cls.parts if not (p.get("extra") or p.get("missing"))]
    if others:
        return None
    words = _outside_words(outside, replaced)
    return Explanation("fans outside the spec", "outside:" + ",".join(outside), words,
                       tuple(f"fan.{f}" for f in replaced), len(cls.members), len(cls.members))


def _outside_words(outside: Sequence[str], replaced: Sequence[str]) -> str:
    return f"the engine scores {', '.join(outside)}, which the spec does not have" + \
        (f", in place of {', '.join(replaced)}" if replaced else "")


def _outside_ids(result: Any, known: set[str]) -> set[str]:
    """The fan ids an answer names that the spec has no pattern for."""
    return {str(f.get("id")) for w in readings_of(result) for f in fans_of(w)
            if str(f.get("id")) not in known}


def _below_minimum(r: Judged) -> bool:
    """Whether the engine wins a hand the rules refuse for its points (every reading of the expectation)."""
    wants, gots = readings_of(r.expected), readings_of(r.actual)
    return bool(wants) and all(not w.get("valid", True) and w.get("error") == "win.minimum_points" for w in wants) \
        and any(g.get("valid", True) for g in gots)


FEATURES: tuple[tuple[str, Callable[[Mapping[str, Any], Mapping[str, Any]], Iterable[str]]], ...] = (
    ("win_by", lambda case, data: [f"a win by {data.get('win_by', 'self_draw')}"]),
    ("flags", lambda case, data: [f"the {k} flag" for k, v in (data.get("flags") or {}).items() if v]),
    ("counters", lambda case, data: [f"the {k} counter" for k in (data.get("counters") or {})]),
    ("melds", lambda case, data: [f"a {'concealed ' if m.get('concealed') else ''}{m.get('type')} meld"
                                  for m in (data.get("melds") or []) if isinstance(m, Mapping)]),
    ("flowers", lambda case, data: ["flowers"] if data.get("flowers") else []),
    ("options", lambda case, data: [f"option {k}" for k in (case.get("options") or {})]),
)


def _features(r: Judged) -> set[str]:
    return case_features(r.case or {})


def case_features(case: Mapping[str, Any]) -> set[str]:
    """The features of a case's input an engine may not take: its way of winning, flags, counters, kinds of meld,
    flowers, options (a hand of play: the kinds of event its log holds, and its options)."""
    given = case.get("input")
    data: Mapping[str, Any] = given if isinstance(given, Mapping) else {}
    out: set[str] = set()
    if case.get("kind", "score") == "procedure":  # a hand of play: the kinds of event its log holds, and options
        events = data.get("events")
        out.update(f"an event {e.get('event')}" for e in (events if isinstance(events, list) else [])
                   if isinstance(e, Mapping))
        out.update(f"option {k}" for k in (case.get("options") or {}))
        return out
    for _, read in FEATURES:
        try:
            out.update(read(case, data))
        except (AttributeError, TypeError):
            continue
    return out


def input_disagreement(cls: FailureClass, passing: Sequence[Judged]) -> Explanation | None:
    """An errored class (or one the engine refuses) whose cases all share an input feature no passing case has:
    the engine does not take a form the case format allows."""
    refuses = all(r.outcome == "errored" for r in cls.members) or any(
        "verdict" in p and p["verdict"]["actual"] != "win" and p["verdict"]["expected"] == "win" for p in cls.parts)
    if not refuses or not cls.members:
        return None
    common = set.intersection(*(_features(r) for r in cls.members))
    seen = set().union(*(_features(r) for r in passing)) if passing else set()
    alone = sorted(common - seen)
    if not alone:
        return None
    words = f"the engine does not take a case with {alone[0]} (it errs or refuses on every one; no passing case " \
            f"has it)"
    return Explanation("input disagreement", f"input:{alone[0]}", words, (), len(cls.members), len(cls.members))
