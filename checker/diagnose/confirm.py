"""Causes put to the live engine: each cause's probes and its rivals' (checker.diagnose.probes) confirm it,
contradict it (a rival borne out takes its place) or leave it untested."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import Any, Collection, Mapping, Sequence

from checker.diagnose.classes import FailureClass
from checker.diagnose.explanation import Cause, Explanation, canonical, together
from checker.diagnose.judged import Judged, kind_of
from checker.diagnose.one_class import ClassSearch
from checker.diagnose.own_event import on_its_event
from checker.diagnose.probes import (CONFIRMED, CONTRADICTED, UNTESTED, Experiments, Probe, Prober, Trial, met_elsewhere,
                                     pays_alike, settles_alike, values_held)
from checker.diagnose.unscored import OUTSIDE, case_features
from checker.mutate.mutation import Mutation, combined
from checker.mutate.readings import default_readings, option_readings
from checker.spec import Ruleset


MAX_DEPARTURES_ADDED = 2  # option readings added to a departure its probes contradict, one probe at a time
MAX_READINGS_TRIED = 2  # of those accounting for a probe: an option read one way, then as the engine's default
MAX_MOVING_PAIRS = 10  # pairs of the run's departures that move a contradicting probe, tried with the departure
MIN_PARTS_COUNTED = 3  # a departure of so many parts says how many of its cases need each


class Confirming(ClassSearch):
    """Experiments on the engine for the causes a search named."""

    _model: Sequence[Mutation] = ()  # the run's departures of the ruleset of the class being confirmed (confirm_all)

    # ------------------------------------------------------------------ experiments on the engine

    def confirm_all(self, classes: Sequence[FailureClass], causes: Sequence[Cause],
                    experiments: Experiments | None, followed: Mapping[str, Collection[str]] | None = None
                    ) -> list[Cause]:
        """Each class's cause put to the engine (checker.diagnose.probes), largest class first. The departures
        named for the run's classes of a ruleset are the run's model of the engine: a probe of one class may show
        another's departure too, so a departure its probes contradict alone is tried again with the others (but
        those the probes of a class confirmed before contradicted by themselves). Then, where the engine follows
        the options a case names (`followed`: per ruleset, the options the run showed it following), each
        confirmed cause is put to it under those options' other values (`_reached`): how far it reaches."""
        model: dict[str, list[Mutation]] = {}
        for cls, cause in zip(classes, causes):
            for e in cause.explanations:
                for m in self.components(e.id):
                    if m not in model.setdefault(cls.ruleset or "", []):
                        model[cls.ruleset or ""].append(m)
        out = []
        refuted: set[str] = set()  # departures the probes contradicted by themselves: out of the model from then on
        for cls, cause in zip(classes, causes):
            self._model = [m for m in model.get(cls.ruleset or "", []) if m.id not in refuted]
            confirmed = self.confirm(cls, cause, experiments, self._model)
            named = {p.id for e in confirmed.explanations for p in self.components(e.id)}
            refuted |= {parts[0].id for e in confirmed.contradicted for parts in [self.components(e.id)]
                        if len(parts) == 1 and parts[0].id not in named}
            out.append(confirmed)
        if experiments is not None:
            out = self._settled_with_confirmed(classes, out, experiments, model, refuted)
            for i, (cls, cause) in enumerate(zip(classes, out)):
                self._model = [m for m in model.get(cls.ruleset or "", []) if m.id not in refuted]
                out[i] = self._reached(cls, cause, experiments, (followed or {}).get(cls.ruleset or "", ()))
            evidence = self._run_evidence(out, experiments, model)
            for i, (cls, cause) in enumerate(zip(classes, out)):
                self._model = evidence.held.get(cls.ruleset or "", [])
                out[i] = self._on_its_own_event(cls, self._against_the_run(cls, cause, experiments, evidence),
                                                experiments, evidence)
        out = [self._parts_needed(cls, cause) for cls, cause in zip(classes, out)]
        self._model = ()
        return out

    def _confirmed_model(self, causes: Sequence[Cause]) -> dict[str, list[Mutation]]:
        """Per ruleset, the parts of every departure the probes confirmed, those explaining the most cases first."""
        found: dict[str, dict[str, tuple[int, Mutation]]] = {}
        for cause in causes:
            for e in cause.explanations:
                if e.evidence != CONFIRMED or e.id not in self.mutations:
                    continue
                for m in self.components(e.id):
                    kept = found.setdefault(m.ruleset, {})
                    kept[m.id] = (kept.get(m.id, (0, m))[0] + e.explains, m)
        return {rs: [m for _, m in sorted(kept.values(), key=lambda x: -x[0])] for rs, kept in found.items()}

    def _run_evidence(self, causes: Sequence[Cause], experiments: Experiments,
                      model: Mapping[str, Sequence[Mutation]]) -> "RunEvidence":
        """What the run's probes hold once every class is confirmed (see `RunEvidence`)."""
        borne = {e.id: self.mutations[e.id] for cause in causes for e in cause.explanations
                 if e.evidence == CONFIRMED and e.id in self.mutations}
        every = [p for cause in causes for p in _probes_of(cause)]
        ids = {Prober.key(p.case): str(p.case.get("id")) for p in every if p.case.get("id") is not None}
        witnessed: set[str] = set()
        for p in every:
            ruleset = self.ruleset_of(str(p.case.get("ruleset")))
            if p.holds or (p.holds is False and p.answer is not None and ruleset is not None and
                           experiments.bears_out(ruleset, p, p.against_predicted)):
                witnessed.add(Prober.key(p.case))
        asked: dict[str, list[Probe]] = {}
        seconds: dict[str, list[Mutation]] = {}
        for rs in set(model) | {m.ruleset for m in borne.values()}:
            ruleset = self.ruleset_of(rs)
            if ruleset is not None:
                asked[rs] = experiments.asked(ruleset, ids)
                seconds[rs] = list({d.id: d for d in [*option_readings(ruleset), *default_readings(ruleset),
                                                      *model.get(rs, [])]}.values())
        return RunEvidence(self._confirmed_model(causes), borne, witnessed, asked, seconds)

    def _against_the_run(self, cls: FailureClass, cause: Cause, experiments: Experiments,
                         run: "RunEvidence") -> Cause:
        """No departure is named that the engine's answer to a probe of the run contradicts (one asked for any
        class, `Experiments.contradicts`): an answer the rules or another departure the probes bore out predict,
        or a hypothesis the probe was asked against did, where the departure moves the rules' answer and predicts
        it neither alone, nor with the departures the run's probes bear out (`self._model`), nor beside the
        departure that predicts it, nor with one other (a reading, or one the search named anywhere). Such a one
        is moved to `contradicted` with that probe, its cases unexplained; a rival so contradicted is no longer
        said to fit as well. (An answer nothing the run holds predicts says nothing either way: the engine departs
        there in a way no class showed.)"""
        ruleset = self.ruleset_of(cls.ruleset)
        if ruleset is None:
            return cause
        members = self._members(cls)
        witnesses = [None, *(m for m in run.borne.values() if m.ruleset == ruleset.id)]

        def contradicting(probe: Probe, m: Mutation) -> Probe | None:
            found = experiments.contradicts(ruleset, probe, m)
            if found is None or self._predicted_with_model(experiments, ruleset, found, m):
                return None
            told = [w for w in witnesses if (w is None or w.id != m.id) and experiments.predicts(ruleset, probe, w)]
            if not told and Prober.key(probe.case) not in run.witnessed:
                return None
            if any(w is not None and experiments.predicts(
                    ruleset, probe, together([m, *_beside_model(m, self.components(w.id))])) for w in told):
                return None
            if next(experiments.accounting_for(ruleset, found, m, run.seconds.get(ruleset.id, [])), None) is not None:
                return None
            return found

        def against(m: Mutation) -> Probe | None:
            # (under the options the cases it explains hold: elsewhere its reach says how far it holds)
            own = [r.case for r in self._explained(members, m) or members if r.case is not None]
            for probe in run.asked.get(ruleset.id, []):
                if not _held_by(ruleset, probe.case.get("options") or {}, own):
                    continue
                key = (m.id, Prober.key(probe.case))
                if key not in run.found:
                    run.found[key] = contradicting(probe, m)
                if run.found[key] is not None:
                    return run.found[key]
            return None

        named, contradicted, unexplained = [], list(cause.contradicted), cause.unexplained
        for e in cause.explanations:
            m = self.mutations.get(e.id)
            after = self.components(e.id) if m is None and f" + {OUTSIDE}" in e.id else []
            if m is None and after:  # a departure with fans outside the spec after it: the departure
                m = together(after)
            if m is None:
                named.append(e)
                continue
            wrong = against(m)
            if wrong is not None:
                contradicted.append(replace(e, evidence=CONTRADICTED, probes=(*e.probes, wrong), or_equally=()))
                unexplained += e.explains
                continue
            rivals = [(i, w) for i, w in e.or_equally
                      if (r := self.mutations.get(i) or _whole(self.components(i), i)) is None or against(r) is None]
            named.append(replace(e, or_equally=tuple(rivals)) if len(rivals) < len(e.or_equally) else e)
        if len(named) == len(cause.explanations) and all(a is b for a, b in zip(named, cause.explanations)):
            return cause
        return replace(cause, explanations=tuple(named), contradicted=tuple(contradicted), unexplained=unexplained)

    def _on_its_own_event(self, cls: FailureClass, cause: Cause, experiments: Experiments,
                          run: "RunEvidence") -> Cause:
        """No reading of a rule of play is named for a class of hands of play that the engine's answer at the
        class's own departing event contradicts (`checker.diagnose.own_event`): a neighbour of that event, on
        which the reading and the rules agree, answered otherwise there, where neither the reading with the run's
        confirmed departures nor with one other predicts the answer. Such a reading is the nearest the rules have,
        not the engine's: moved to `contradicted` saying so, its cases unexplained."""
        ruleset = self.ruleset_of(cls.ruleset)
        members = self._members(cls)
        if ruleset is None or not members or kind_of(members[0]) != "procedure":
            return cause
        named, nearest = [], []
        for e in cause.explanations:
            m = self.mutations.get(e.id)
            off = None if m is None else next(
                (o for o in on_its_event(experiments, ruleset, self._explained(members, m), m)
                 if o.probe.holds is False and o.parts and not self._accounted(experiments, ruleset, o.probe, m, run)),
                None)
            if off is None:
                named.append(e)
                continue
            nearest.append(replace(e, evidence=CONTRADICTED, probes=(*e.probes, off.probe), or_equally=(),
                                   nearest=off.words()))
        if not nearest:
            return cause
        return replace(cause, explanations=tuple(named), contradicted=(*cause.contradicted, *nearest),
                       unexplained=cause.unexplained + sum(e.explains for e in nearest))

    def _accounted(self, experiments: Experiments, ruleset: Ruleset, probe: Probe, m: Mutation,
                   run: "RunEvidence") -> bool:
        """Whether `m` predicts a probe's answer with the run's confirmed departures, or with one other (a
        reading, or one the search named anywhere): the engine departs there in a way the run shows."""
        return self._predicted_with_model(experiments, ruleset, probe, m) or next(
            experiments.accounting_for(ruleset, probe, m, run.seconds.get(ruleset.id, [])), None) is not None

    def _parts_needed(self, cls: FailureClass, cause: Cause) -> Cause:
        """Each departure of MIN_PARTS_COUNTED parts or more named for the class with, for each part, how many of the
        cases it explains need that part (the others without it do not reproduce them): a combination named whole
        says what each part does."""
        members = self._members(cls)
        named = []
        for e in cause.explanations:
            m = self.mutations.get(e.id)
            parts = self.components(e.id) if m is not None else []
            mine = self._explained(members, m) if m is not None and len(parts) >= MIN_PARTS_COUNTED else []
            if mine:
                e = replace(e, parts_needed=tuple(
                    (p.id, sum(1 for r in mine if not self._explains(r, together([q for q in parts if q is not p]))))
                    for p in parts))
            named.append(e)
        return replace(cause, explanations=tuple(named))

    def _settled_with_confirmed(self, classes: Sequence[FailureClass], causes: list[Cause],
                                experiments: Experiments, model: Mapping[str, Sequence[Mutation]],
                                refuted: set[str]) -> list[Cause]:
        """The probes may confirm a departure the search did not name (a rival borne out in place of a named one):
        each class left with cases unexplained is tried again with the departures its ruleset's causes now hold
        confirmed, where some are new to the search's model (`_with_departures`), and each part of the cover put
        to the engine as any cause is: named beside the cause where its probes bear it out."""
        confirmed: dict[str, list[Mutation]] = {}
        for cls, cause in zip(classes, causes):
            for e in cause.explanations:
                if e.evidence == CONFIRMED:
                    for m in self.components(e.id):
                        if m not in confirmed.setdefault(cls.ruleset or "", []):
                            confirmed[cls.ruleset or ""].append(m)
        out = list(causes)
        for i, (cls, cause) in enumerate(zip(classes, causes)):
            departures = confirmed.get(cls.ruleset or "", [])
            cause = out[i] = self._against_confirmed(cls, cause, experiments, departures)
            searched = {m.id for m in model.get(cls.ruleset or "", [])}
            new = [m for m in departures if m.id not in searched]
            if not cause.unexplained or not new:
                continue
            ruleset = self.ruleset_of(cls.ruleset)
            if ruleset is None:
                continue
            self._model = [m for m in departures if m.id not in refuted]
            members, borne_out = self._members(cls), []
            for e in self._with_departures(cls, new, cause):
                m = self.mutations[e.id]
                cases = [r.case for r in self._explained(members, m) if r.case is not None]
                trial = self._trial(experiments, ruleset, cases, m, [])
                if trial.status == CONFIRMED:
                    borne_out.append(e.tried_by(trial, self._words))
            if borne_out:
                out[i] = replace(cause, explanations=(*cause.explanations, *borne_out),
                                 unexplained=max(0, cause.unexplained - sum(e.explains for e in borne_out)))
        # (once every class is settled: a confirmation carried from a class whose departure was later contradicted
        # against another's would claim what the probes took back)
        settled = list(out)
        return [_confirmed_elsewhere(cls, cause, classes, settled) for cls, cause in zip(classes, settled)]

    def _against_confirmed(self, cls: FailureClass, cause: Cause, experiments: Experiments,
                           departures: Sequence[Mutation]) -> Cause:
        """One model of the engine: a departure named for the class where another the probes confirmed for another
        class explains the same cases alike (ignoring a flag, and dropping only its checks, both explain hands the
        engine takes with the flag where it does not fit) is put to the engine against it; the other, borne out
        where the named one is contradicted, is named instead; one no probe tells apart is named beside it. A named
        departure so contradicted with no other borne out is moved to `contradicted`, its cases unexplained."""
        ruleset = self.ruleset_of(cls.ruleset)
        if ruleset is None:
            return cause
        members = self._members(cls)
        named: list[Explanation] = []
        contradicted: list[Explanation] = []
        changed = False
        for e in cause.explanations:
            m = self.mutations.get(e.id)
            if e.evidence != CONFIRMED or m is None or m.size != 1:
                named.append(e)
                continue
            mine = self._explained(members, m)
            cases = [r.case for r in mine if r.case is not None]
            told = {e.id, *(i for i, _ in e.or_equally)}
            for r in departures:
                if r.id in told or not cases or not all(self._explains(x, r) for x in mine) or \
                        self._passing_kept(cls.ruleset or "", r) is None:
                    continue
                told.add(r.id)
                trial = self._trial(experiments, ruleset, cases, m, [r])
                if trial.status == CONTRADICTED:
                    theirs = self._trial(experiments, ruleset, cases, r, [m])
                    if theirs.status == CONFIRMED:
                        checked = self._passing_kept(cls.ruleset or "", r) or 0
                        e = self._with_rules_read(mine, r, self._explanation(r, e.explains, e.of, checked)) \
                            .tried_by(theirs, self._words)
                        m, changed = r, True
                        continue
                    contradicted.append(e.tried_by(trial, self._words))  # contradicted, nothing borne out instead
                    break
                beside = e.tried_by(trial, self._words).or_equally if trial.status != CONTRADICTED else ()
                if beside:  # (not told apart: no case built, not asked, or answered as neither predicts)
                    e, changed = replace(e, or_equally=(*e.or_equally, *beside)), True
            else:
                named.append(e)
        if not changed and not contradicted:
            return cause
        return replace(cause, explanations=tuple(named), contradicted=(*cause.contradicted, *contradicted),
                       unexplained=cause.unexplained + sum(e.explains for e in contradicted))

    def _with_departures(self, cls: FailureClass, departures: Sequence[Mutation], before: Cause) -> list[Explanation]:
        """The cases the cause leaves, covered greedily by `departures` (departures the probes confirmed that the
        search had not named), each alone or beside one the cause names: their explanations (none: none covers
        one)."""
        members = self._members(cls)
        named = [self.mutations[e.id] for e in before.explanations if e.id in self.mutations]
        left = [r for r in members if not any(self._explains(r, m) for m in named)]
        found: list[Explanation] = []
        for d in departures:
            for trial in [d, *(together([m, d]) for m in named if _beside_model(d, [m]))]:
                explained = self._explained(left, trial) if left else []
                checked = self._passing_kept(cls.ruleset or "", trial) if explained else None
                if checked is None:
                    continue
                self.mutations.setdefault(trial.id, trial)
                found.append(self._explanation(trial, len(explained), len(cls.members), checked))
                done = {id(r) for r in explained}
                left = [r for r in left if id(r) not in done]
                break
        return found

    def _reached(self, cls: FailureClass, cause: Cause, experiments: Experiments, followed: Collection[str]) -> Cause:
        """The cause with each confirmed departure put to the engine where a case names an option it follows at a
        value the cases the departure explains do not hold (checker.diagnose.probes `Experiments.reach`): the
        cause then says whether it holds there too or only where the option is as its cases have it. A departure
        named only where an option holds one value is put to it at the option's other values whatever the engine
        follows (it says the engine reads those as the rules do)."""
        ruleset = self.ruleset_of(cls.ruleset)
        if ruleset is None:
            return cause
        members = self._members(cls)
        named = []
        for e in cause.explanations:
            m = self.mutations.get(e.id)
            if e.evidence == CONFIRMED and m is not None and (followed or m.conditional):
                own = [r.case for r in (self._explained(members, m) or members) if r.case is not None]
                if own:
                    e = replace(e, reach=experiments.reach(ruleset, own, m, followed, self._model))
            named.append(e)
        return replace(cause, explanations=tuple(named))

    def confirm(self, cls: FailureClass, cause: Cause, experiments: Experiments | None,
                model: Sequence[Mutation] = ()) -> Cause:
        """The cause with each named departure tried by probes: confirmed, or contradicted (tried again with the
        run's other departures, `model`; else a rival the probes bear out named in its place, else its cases left
        unexplained), or untested (named only when passing cases were checked; else set aside, said so); rivals no
        probe tells apart named beside it."""
        members = self._members(cls)
        ruleset = self.ruleset_of(cls.ruleset)
        all_cases = [r.case for r in members if r.case is not None]
        if ruleset is not None and experiments is not None and any(
                e.kind == "input disagreement" for e in cause.explanations):
            cause = self._disagreements_tried(cause, ruleset, experiments)
        if not cause.explanations or ruleset is None or not all_cases:
            return cause
        departures = [e for e in cause.explanations if e.id in self.mutations]  # (not how answers are written)
        rivals = self._rivals(cls, cause) if len(departures) == 1 else []
        named: list[Explanation] = []
        contradicted: list[Explanation] = []
        untested: list[Explanation] = []
        set_aside: list[Explanation] = []  # of those untested, the ones its probes contradicted alone
        unexplained = cause.unexplained
        for e in cause.explanations:
            m = self.mutations.get(e.id)
            after = self.components(e.id) if m is None and f" + {OUTSIDE}" in e.id else []
            if m is None and not after:  # fans outside the spec, an input disagreement, fan names: read off the
                named.append(e)          # answers alone
                continue
            if m is None:  # a departure with fans outside the spec after it: the departure put to the engine
                m = together(after)
            # its probes are built from the class's hands it explains (the others are another departure's)
            cases = [r.case for r in self._explained(members, m) if r.case is not None] or all_cases
            if after:
                trial = self._trial(experiments, ruleset, cases, m, [])
            else:
                e = self._with_rules_read(members, m, e)
                others = [(a, r) for a, r in rivals if r.id != m.id]
                others += [(a, r) for a, r in self._other_values(cls, members, m)
                           if r.id not in {x.id for _, x in others}]
                beside = [o for x in cause.explanations if x.id != e.id for o in self.components(x.id)]
                own = self._own_contradiction(members, m, beside, ruleset)  # a case it moves, not to the answer
                trial = own if own is not None else self._trial(experiments, ruleset, cases, m, [r for _, r in others])
            if trial.status == CONTRADICTED and after:  # (its cases read beside fans the spec does not have)
                contradicted.append(e.tried_by(trial, self._words))
                unexplained += e.explains
            elif trial.status == CONTRADICTED:
                rival_departures = [r for _, r in others]
                # (with the others it must still explain the cases it explains: the class's other cases are
                # another explanation's)
                own_cases = self._explained(members, m) or list(members)
                jointly, how = self._with_model(experiments, ruleset, cases, own_cases, m, model, trial,
                                                rival_departures), "the run's other departures"
                if jointly is None:
                    jointly, how = self._with_second_departure(experiments, ruleset, cases, own_cases, m, trial,
                                                               rival_departures), \
                        "the departures its probes showed besides it"
                if jointly is None:
                    rival_jointly = self._rival_jointly(experiments, ruleset, cases, own_cases, m, others)
                    if rival_jointly is not None:
                        named.append(rival_jointly)
                        continue
                if jointly is not None:
                    joint_trial, others_used = jointly
                    said = "; ".join(o.words for o in others_used)
                    named.append(replace(e, words=f"{e.words} (its probes predicted with {how}: {said})")
                                 .tried_by(joint_trial, self._words))
                    continue
                accounted = self._accounted_by_model(experiments, ruleset, m, trial, model) \
                    if experiments is not None else None
                if accounted is not None:  # (not contradicted: the run's other departures answer its probes)
                    untested.append(e.tried_by(accounted, self._words))
                    set_aside.append(e)
                else:
                    contradicted.append(e.tried_by(trial, self._words))
                swap = self._borne_out(experiments, ruleset, cases, members, others, m, trial) or \
                    self._fewer_parts(experiments, ruleset, cls, members, m, e)
                if swap is not None:
                    named.append(swap)
                    unexplained += max(0, e.explains - swap.explains)
                else:
                    unexplained += e.explains
            elif trial.status == UNTESTED and not e.checked:
                untested.append(e.tried_by(trial, self._words))
                unexplained += e.explains
            else:
                named.append(e.tried_by(trial, self._words))
        if (contradicted or set_aside) and unexplained > len(cls.members) - len(members):
            more = self._after_contradiction(experiments, ruleset, cls, members, named, [*contradicted, *set_aside])
            named += more
            unexplained -= sum(e.explains for e in more)
        return replace(cause, explanations=tuple(named), unexplained=unexplained, contradicted=tuple(contradicted),
                       untested=tuple(untested))

    def _after_contradiction(self, experiments: Experiments | None, ruleset: Ruleset, cls: FailureClass,
                             members: Sequence[Judged], named: Sequence[Explanation],
                             contradicted: Sequence[Explanation]) -> list[Explanation]:
        """Where a departure the probes contradict left cases of the class unexplained: those cases covered again
        by the class's next covers (`_covers_left`, none of them the departures contradicted here: a joint one
        contradicted bars itself, not each of its parts; one contradicted alone is in no cover), each put to the
        engine as any cause is, against its rivals (a part put in place by another candidate, or set at another
        value); one contradicted gives way to a rival its probes bear out, or, with no rival, is tried again with
        the run's other departures; named only where the probes bear it out."""
        if experiments is None:
            return []
        explaining = [self.mutations[e.id] for e in named if e.id in self.mutations]
        left = [r for r in members if not any(self._explains(r, m) for m in explaining)]
        barred = {frozenset(p.id for p in self.components(e.id)) for e in contradicted}
        out: list[Explanation] = []
        for m, explained in self._covers_left(cls, left, barred):
            cases = [r.case for r in explained if r.case is not None]
            checked = self._passing_kept(ruleset.id, m)
            if checked is None:
                continue
            e = self._explanation(m, len(explained), len(cls.members), checked)
            # its rivals: a part put in place by another candidate, or set at another value, explaining these alike
            rivals = [(self._explanation(r, len(explained), len(cls.members), 0), r)
                      for r in self._substitutes(cls, explained, m)]
            rivals += [(a, r) for a, r in self._other_values(cls, explained, m)
                       if r.departures not in {x.departures for _, x in rivals}]
            rivals = [(a, r) for a, r in rivals if r.departures not in barred]
            trial = self._trial(experiments, ruleset, cases, m, [r for _, r in rivals])
            if trial.status == CONTRADICTED and not rivals:  # (with rivals, one of them borne out instead)
                jointly = self._with_model(experiments, ruleset, cases, explained, m, self._model, trial)
                if jointly is not None:
                    said = "; ".join(o.words for o in jointly[1])
                    e = replace(e, words=f"{e.words} (its probes predicted with the run's other departures: {said})")
                    trial = jointly[0]
            if trial.status == CONFIRMED:
                self.mutations.setdefault(m.id, m)
                out.append(e.tried_by(trial, self._words))
            elif trial.status == CONTRADICTED:
                swap = self._borne_out(experiments, ruleset, cases, explained, rivals, m, trial)
                if swap is not None:
                    out.append(swap)
        return out

    def _covers_left(self, cls: FailureClass, left: Sequence[Judged],
                     barred: set[frozenset[str]]) -> list[tuple[Mutation, list[Judged]]]:
        """The departures that cover `left` greedily, none whose parts are a set in `barred`, each with the cases
        it explains (the cause search says which it tries: checker.diagnose.causes)."""
        return []

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

    def _own_contradiction(self, members: Sequence[Judged], m: Mutation, beside: Sequence[Mutation],
                           ruleset: Ruleset) -> Trial | None:
        """Where `m` explains part of a class: a case of the class it does not explain but still changes (its
        prediction there is not the engine's answer, nor is it with any departure named `beside` it, nor does it
        differ from it only by fans the spec does not have in place of spec fans, nor only where `m` answers as the
        rules do: another departure met there, probes.met_elsewhere) contradicts it as a probe would; None if there
        is none."""
        known = {p.id for p in ruleset.patterns}
        for r in members:
            if not self._explains(r, m) and self._moves(r, m) and \
                    not any(self._explains(r, combined(m, o)) for o in beside) and \
                    self._beside(r, m, ruleset, known) is None:
                predicted = self.rescorer.result(r.case or {}, m) or {}
                reference = self.rescorer.result(r.case or {}, None) or {}
                scored = str((r.case or {}).get("kind", "score")) == "score"
                if met_elsewhere(self.answer(r), predicted, reference, ruleset.id,
                                 scored and settles_alike(self.rescorer, r.case or {}, m)):
                    continue  # the engine departs there in another way too, where `m` answers as the rules do
                probe = Probe(dict(r.case or {}), predicted, None, reference,
                              r.actual if isinstance(r.actual, Mapping) else None, False)
                return Trial(CONTRADICTED, (probe,))
        return None

    def _with_model(self, experiments: Experiments | None, ruleset: Ruleset, cases: Sequence[Mapping[str, Any]],
                    members: Sequence[Judged], m: Mutation, model: Sequence[Mutation],
                    alone: Trial, rivals: Sequence[Mutation] = ()) -> tuple[Trial, list[Mutation]] | None:
        """`m` with the run's other departures (those that set no option `m` sets), when together they still
        explain the class, predict the answers that contradicted `m` alone, and the engine's answers to their own
        probes bear them out (all of them, those that move a
        contradicting probe's prediction, then each of those alone, then two of them), against `m`'s rivals with the
        same others (a rival the probe that contradicted `m` bore out may be the truth beside them): the trial, and
        of those others
        the ones needed (each dropped in turn, in the run's order, where without it `m` still explains the class
        and predicts every answer of these probes and of `alone`, the probes that contradicted `m` by itself)."""
        others = _beside_model(m, model)
        if not others or experiments is None:
            return None
        # all of them, else those alone that move a contradicting probe's prediction (all of them together may
        # change the class, or meet a probe one of them does not belong on)
        moving = [o for o in others if any(self._moves_probe(p, m, o) for p in alone.probes if p.holds is False)]
        trial: Trial | None = None
        borne = False
        play = any(c.get("kind") == "procedure" for c in cases)
        against = [p for p in alone.probes if p.holds is False]  # the joint departure must predict these too
        for subset in _model_subsets(others, moving):
            joint = together([m, *subset])
            if self._explains_all(members, joint) and all(experiments.predicts(ruleset, p, joint) for p in against):
                # (`m` borne out itself, each of its parts on a probe where it moves what the hand decides or
                # pays; of hands of play, its own parts alone put to the engine apart)
                trial = self._trial(experiments, ruleset, cases, joint, _beside_each(rivals, subset),
                                    (self.components(m.id) or [m]) if play else None)
                if trial.status == CONFIRMED and _own_part_borne(
                        experiments, ruleset, trial, self.components(m.id) or [m], subset):
                    others, borne = subset, True
                    break
        if trial is None or not borne:
            return None
        probes = [*trial.probes, *alone.probes]
        needed = list(others)
        for o in others:
            fewer = together([m, *(x for x in needed if x is not o)])
            if self._explains_all(members, fewer) and all(experiments.predicts(ruleset, p, fewer) for p in probes):
                needed = [x for x in needed if x is not o]
        return trial, needed or others

    def _fewer_parts(self, experiments: Experiments | None, ruleset: Ruleset, cls: FailureClass,
                     members: Sequence[Judged], m: Mutation, e: Explanation) -> Explanation | None:
        """A joint departure its probes contradict, with no rival borne out: the most of its parts (one fewer, then
        two …; of a size, those explaining most of the class first) that still explain some of the class's cases,
        change no passing case checked, and whose own probes the engine's answers bear out (or a rival of it at
        another value, `_other_values`, that they bear out), named for the cases it explains (the rest are left
        unexplained). None when no part of it is so borne out."""
        parts = self.components(m.id)
        if experiments is None or len(parts) < 2:
            return None
        for size in range(len(parts) - 1, 0, -1):
            fewer = [together(list(subset)) for subset in combinations(parts, size)]
            shown = [(self._explained(members, f), f) for f in fewer]
            for explained, f in sorted(shown, key=lambda x: -len(x[0])):
                checked = self._passing_kept(ruleset.id, f) if explained else None
                if checked is None:
                    continue
                cases = [r.case for r in explained if r.case is not None]
                rivals = self._other_values(cls, explained, f)
                trial = self._trial(experiments, ruleset, cases, f, [r for _, r in rivals])
                if trial.status == CONFIRMED:
                    self.mutations.setdefault(f.id, f)
                    return self._explanation(f, min(len(explained), e.explains), e.of, checked) \
                        .tried_by(trial, self._words)
                swap = self._borne_out(experiments, ruleset, cases, explained, rivals, f, trial)
                if swap is not None:
                    return replace(swap, explains=min(len(explained), e.explains), of=e.of)
        return None

    def _moves_probe(self, probe: Probe, m: Mutation, o: Mutation) -> bool:
        """Whether the departure `o` changes the reference's answer to a probe's case, by itself or beside `m` (the
        departure the probe was built for: `o` may move its prediction only on top of it, where the rules refuse
        the case on a ground `m` reads away)."""
        return canonical(self.rescorer.result(probe.case, o)) != canonical(self.rescorer.result(probe.case, None)) \
            or canonical(self.rescorer.result(probe.case, together([m, o]))) != canonical(probe.predicted)

    def _with_second_departure(self, experiments: Experiments | None, ruleset: Ruleset,
                               cases: Sequence[Mapping[str, Any]], members: Sequence[Judged], m: Mutation,
                               trial: Trial, rivals: Sequence[Mutation] = ()) -> tuple[Trial, list[Mutation]] | None:
        """`m` contradicted by a probe on which the engine departs in another way no class of the run shows: an
        option reading `d` with which `m` predicts that probe's answer (the answer is a case to explain, as the
        class's cases are), changing no passing case checked, `m` and `d` together still explaining the class;
        put to the engine again (against `m`'s rivals with the readings added), and, where a probe of the pair
        shows one more such departure, once more. The
        trial that bears them out, and the readings added (None: none does)."""
        if experiments is None:
            return None
        current = m
        added: list[Mutation] = []
        for _ in range(MAX_DEPARTURES_ADDED):
            probe = next((p for p in trial.probes if p.holds is False), None)
            if probe is None:
                return None
            # the first readings that account for it (an option read one way, then as the engine's default: a
            # reading whose probes name the option may be the default instead): the first confirmed, else the first
            steps = []
            readings = option_readings(ruleset) + default_readings(ruleset)
            for d in experiments.accounting_for(ruleset, probe, current, readings):
                joint = together([current, d])
                if self._passing_kept(ruleset.id, d) is None or not self._explains_all(members, joint):
                    continue
                steps.append((joint, d, self._trial(experiments, ruleset, cases, joint,
                                                    _beside_each(rivals, [*added, d]))))
                if steps[-1][2].status == CONFIRMED or len(steps) == MAX_READINGS_TRIED:
                    break
            step = next((s for s in steps if s[2].status == CONFIRMED), steps[0] if steps else None)
            if step is None:
                return None
            current, d, trial = step
            added.append(d)
            self.mutations.setdefault(d.id, d)
            if trial.status == CONFIRMED:
                return trial, added
            if trial.status != CONTRADICTED:
                return None
        return None

    def _rival_jointly(self, experiments: Experiments | None, ruleset: Ruleset, cases: Sequence[Mapping[str, Any]],
                       members: Sequence[Judged], m: Mutation,
                       rivals: Sequence[tuple[Explanation, Mutation]]) -> Explanation | None:
        """`m` contradicted alone and with the departures its probes showed: the first rival explaining its cases
        alike that its own probes, with the departures they show besides it, bear out against `m` (an option read
        as the engine's default where `m` reads it whatever a case says, both contradicted by a probe where the
        engine departs in a second way); None: none is."""
        for a, r in rivals:
            if not self._explains_all(members, r):
                continue
            others = [m, *(x for _, x in rivals if x.id != r.id)]
            alone = self._trial(experiments, ruleset, cases, r, others)
            if alone.status != CONTRADICTED:
                continue  # (borne out alone, or not told apart: `_borne_out`'s to name)
            jointly = self._with_second_departure(experiments, ruleset, cases, members, r, alone, others)
            if jointly is not None:
                joint_trial, added = jointly
                said = "; ".join(o.words for o in added)
                words = f"{a.words} (its probes predicted with the departures its probes showed besides it: {said})"
                return replace(self._with_rules_read(members, r, a), words=words).tried_by(joint_trial, self._words)
        return None

    def _trial(self, experiments: Experiments | None, ruleset: Ruleset, cases: Sequence[Mapping[str, Any]],
               m: Mutation, rivals: Sequence[Mutation], own: Sequence[Mutation] | None = None) -> Trial:
        """`m` put to the engine against the rules, its rivals and, of a joint departure, each part (`own`: only
        those parts, where the rest are the run's departures put to the engine for their own classes)."""
        if experiments is None:
            return Trial(UNTESTED, (), tuple(r.id for r in rivals), "no engine to ask")
        beside = [o for o in self._model if o.id not in m.id.split(" + ")]
        parts = self._parts_of(m)
        if own is not None:
            parts = [(p, rest) for p, rest in parts if any(p.id == o.id for o in own)]
        return experiments.trial(ruleset, cases, m, rivals, parts, beside)

    def _predicted_with_model(self, experiments: Experiments, ruleset: Ruleset, probe: Probe, m: Mutation) -> bool:
        """Whether the engine's answer to a probe is what `m` predicts, or `m` with the run's other
        departures (`_beside_model`), in the subsets `_with_model` tries (`_model_subsets`)."""
        return experiments.predicts(ruleset, probe, m) or \
            self._model_predicting(experiments, ruleset, probe, m, self._model, fewest=False) is not None

    def _model_predicting(self, experiments: Experiments, ruleset: Ruleset, probe: Probe, m: Mutation,
                          model: Sequence[Mutation], fewest: bool = True) -> list[Mutation] | None:
        """The fewest of the run's other departures (`model`, beside `m`) with which `m` predicts the engine's
        answer to a probe: the first of the subsets `_with_model` tries that does, each of them then dropped in
        turn where `m` still predicts it without (not `fewest`: that first subset); None where none does."""
        others = _beside_model(m, model)
        if not others:
            return None
        moving = [o for o in others if self._moves_probe(probe, m, o)]
        found = next((subset for subset in _model_subsets(others, moving)
                      if experiments.predicts(ruleset, probe, together([m, *subset]))), None)
        if found is None or not fewest:
            return found
        for o in list(reversed(found)):
            fewer = [x for x in found if x is not o]
            if fewer and experiments.predicts(ruleset, probe, together([m, *fewer])):
                found = fewer
        return found

    def _accounted_by_model(self, experiments: Experiments, ruleset: Ruleset, m: Mutation, trial: Trial,
                            model: Sequence[Mutation]) -> Trial | None:
        """A trial that contradicted `m` alone where each answer against it is what `m` predicts beside the run's
        other departures (`model`), when `m` with them was still not borne out (`_with_model`): not a
        contradiction, the probes met those departures; the trial as untested, saying so (those probes held
        neither way). None where some answer against it is not so predicted."""
        against = [p for p in trial.probes if p.holds is False]
        with_model = [self._model_predicting(experiments, ruleset, p, m, model) for p in against]
        if not against or any(w is None for w in with_model):
            return None
        met = list({o.id: o for w in with_model for o in w or []}.values())
        said = "; ".join(o.words for o in met)
        probes = tuple(replace(p, holds=None, elsewhere=f"answered as it predicts beside the run's other departures "
                                                         f"({said})") if p.holds is False else p
                       for p in trial.probes)
        return replace(trial, status=UNTESTED, probes=probes, why=(
            f"the engine answered its probes as it predicts beside the run's other departures ({said}), but with "
            f"them no probe bore out {'each of its parts' if len(self.components(m.id)) > 1 else 'it'} where "
            f"{'it moves' if len(self.components(m.id)) < 2 else 'each moves'} what a hand pays or decides"))

    def _parts_of(self, m: Mutation) -> list[tuple[Mutation, Mutation | None]]:
        """Each part of a joint departure with the departure without it (None where it is one part alone)."""
        parts = self.components(m.id)
        if len(parts) < 2:
            return []
        return [(p, together([q for q in parts if q is not p])) for p in parts]

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

    def _other_values(self, cls: FailureClass, members: Sequence[Judged],
                      m: Mutation) -> list[tuple[Explanation, Mutation]]:
        """Where a part of the departure `m` sets a number or a value (`KEY=VALUE`: a share, the calls that make a
        contract, an option read one way), `m` with that part at each other value the search made, when it
        explains every case of the class `m` explains and changes no passing case checked: rivals the probes must
        tell apart (a contract made at 4 calls and none at all explain the same hands of 3 claims)."""
        parts = self.components(m.id)
        mine = {id(r) for r in self._explained(members, m)}
        out: list[tuple[Explanation, Mutation]] = []
        for i, p in enumerate(parts):
            if "=" not in p.id or p.family == "pair":
                continue
            for q in [q for q in self.mutations.values() if q.id != p.id and q.family == p.family
                      and "=" in q.id and q.targets == p.targets]:
                rival = together([*parts[:i], q, *parts[i + 1:]])
                if not mine <= {id(r) for r in self._explained(members, rival)}:
                    continue
                checked = self._passing_kept(cls.ruleset or "", rival)
                if checked is not None:
                    self.mutations.setdefault(rival.id, rival)
                    out.append((self._explanation(rival, len(mine), len(cls.members), checked), rival))
        return out

    def _borne_out(self, experiments: Experiments | None, ruleset: Ruleset, cases: Sequence[Mapping[str, Any]],
                   members: Sequence[Judged], rivals: Sequence[tuple[Explanation, Mutation]],
                   contradicted: Mutation, refuting: Trial | None = None) -> Explanation | None:
        """The first rival the engine's answers to its own probes do not contradict, tried as the named one was.
        Where the answers that contradicted the named one (`refuting`) are all predicted by it with the run's other
        departures, they told it from nothing: it stays a rival of each (their own probes must tell them apart);
        else a rival that predicts one of those answers as the named one did is contradicted by it alike (an
        answer that contradicts one base placement contradicts another that pays the hand the same)."""
        kept: list[Mutation] = []
        against = [p for p in refuting.probes if p.holds is False] if refuting is not None else []
        if experiments is not None and against and \
                all(self._predicted_with_model(experiments, ruleset, p, contradicted) for p in against):
            kept, against = [contradicted], []
        for a, m in rivals:
            if any(canonical(self.rescorer.result(p.case, m)) == canonical(p.predicted) for p in against):
                continue  # contradicted alike
            trial = self._trial(experiments, ruleset, cases, m, [r for _, r in rivals if r.id != m.id] + kept)
            if trial.status == CONFIRMED or (trial.status == UNTESTED and a.checked):
                return self._with_rules_read(members, m, a).tried_by(trial, self._words)
        return None

    def _with_rules_read(self, members: Sequence[Judged], m: Mutation, e: Explanation) -> Explanation:
        read = self.rules_read(self._explained(members, m), m) or {}
        return replace(e, rules_read=tuple(sorted(read.items()))) if read else e

    def _words(self, mutation_id: str) -> str:
        m = self.mutations.get(mutation_id)
        return m.words if m is not None else mutation_id


@dataclass
class RunEvidence:
    """What the run's probes hold once every class is confirmed: per ruleset, the parts of the departures they
    confirmed (`held`, the most cases first), the probes answered (`asked`) and the departures a probe's answer
    may have met beside one (`seconds`: readings, and those the search named); the departures confirmed, whole
    (`borne`, by id); the probes whose answer a hypothesis they were asked against predicted (`witnessed`, by
    key); and what each probe said of each departure held to it (`found`, by departure id and probe key)."""

    held: dict[str, list[Mutation]]
    borne: dict[str, Mutation]
    witnessed: set[str]
    asked: dict[str, list[Probe]]
    seconds: dict[str, list[Mutation]]
    found: dict[tuple[str, str], Probe | None] = field(default_factory=dict)


def _probes_of(cause: Cause) -> list[Probe]:
    """Every probe a cause's explanations were tried by (their reach too)."""
    every = (*cause.explanations, *cause.contradicted, *cause.untested)
    return [*(p for e in every for p in e.probes), *(p for e in every for r in e.reach for p in r.probes)]


def _held_by(ruleset: Ruleset, named: Mapping[str, Any], cases: Sequence[Mapping[str, Any]]) -> bool:
    """Whether every option a probe names is at a value some of the cases hold."""
    for option_id, value in named.items():
        option = ruleset.options.get(option_id)
        if option is None:
            return False
        try:
            if option.coerce(value) not in values_held(ruleset, cases, option_id):
                return False
        except ValueError:
            return False
    return True


def _whole(parts: Sequence[Mutation], mutation_id: str) -> Mutation | None:
    """The departure of these parts, where they are every part of `mutation_id`."""
    return together(list(parts)) if parts and len(parts) == len(mutation_id.split(" + ")) else None


def _confirmed_elsewhere(cls: FailureClass, cause: Cause, classes: Sequence[FailureClass],
                         causes: Sequence[Cause]) -> Cause:
    """The cause with each departure its own probes left untested (none was built beyond the class's own hands,
    or none asked) confirmed where the probes asked for another class of the ruleset confirmed the same departure,
    said in the same words (not one borne out only beside the run's other departures): the evidence is the
    departure's, whichever class asked. One set aside as untested with no passing case checked is named so."""
    confirmed: dict[str, tuple[Explanation, str]] = {}
    for other, theirs in zip(classes, causes):
        if other is not cls and other.ruleset == cls.ruleset:
            for e in theirs.explanations:
                if e.evidence == CONFIRMED and not e.confirmed_for:
                    confirmed.setdefault(e.id, (e, other.title()))

    def carried(e: Explanation) -> Explanation | None:
        found = confirmed.get(e.id)
        if e.evidence != UNTESTED or found is None or found[0].words != e.words:
            return None
        return replace(e, evidence=CONFIRMED, probes=found[0].probes, why_untested="", confirmed_for=found[1])

    named = [carried(e) or e for e in cause.explanations]
    now = [x for x in (carried(e) for e in cause.untested) if x is not None]
    if all(a is b for a, b in zip(named, cause.explanations)) and not now:
        return cause
    return replace(cause, explanations=(*named, *now), untested=tuple(e for e in cause.untested if carried(e) is None),
                   unexplained=max(0, cause.unexplained - sum(e.explains for e in now)))


def _beside_each(rivals: Sequence[Mutation], others: Sequence[Mutation]) -> list[Mutation]:
    """Each rival with `others` beside it (those it does not hold already, nor set an option it sets)."""
    out = []
    for r in rivals:
        extra = [o for o in others if o.id not in r.departures and o.option_ids.isdisjoint(r.option_ids)]
        out.append(together([r, *extra]) if extra else r)
    return out


def _beside_model(m: Mutation, model: Sequence[Mutation]) -> list[Mutation]:
    """The run's other departures that may stand beside `m`: none that sets an option `m` sets or changes what it
    changes, and of two that change the same thing, the first."""
    out: list[Mutation] = []
    for o in model:
        if o.targets.isdisjoint(m.targets) and o.option_ids.isdisjoint(m.option_ids) and \
                all(o.targets.isdisjoint(x.targets) and o.option_ids.isdisjoint(x.option_ids) for x in out):
            out.append(o)
    return out


def _own_part_borne(experiments: Experiments, ruleset: Ruleset, trial: Trial, parts: Sequence[Mutation],
                    others: Sequence[Mutation]) -> bool:
    """Whether a departure tried with the run's other departures (`others`) is borne out itself: a probe the
    engine answered as the two together predict that the others alone do not (probes that only the others'
    departures move test them, not it); and, of a departure of several `parts`, each part so, on a probe where
    the part moves what the hand pays or decides (one that moves only how a fan is listed says nothing of what
    the part claims it pays)."""
    def borne(without: Sequence[Mutation], money: bool) -> bool:
        rest = together(list(without))
        return any(p.holds and not experiments.predicts(ruleset, p, rest) and
                   (not money or not pays_alike(p.predicted, experiments.rescorer.result(p.case, rest)))
                   for p in trial.probes)
    if not borne(others, False):
        return False
    return len(parts) < 2 or all(borne([*others, *(x for x in parts if x is not q)], True) for q in parts)


def _model_subsets(others: Sequence[Mutation], moving: Sequence[Mutation]) -> list[list[Mutation]]:
    """The subsets of the run's other departures tried beside a departure: all of them, else those that move a
    probe that contradicted it (all together may change the class, or meet a probe one of them does not belong
    on), then each of those alone, then two of them (a few: each subset a trial)."""
    subsets = [list(others), list(moving)] if moving and len(moving) < len(others) else [list(others)]
    if len(moving) > 1:
        subsets += [[o] for o in moving]
        subsets += [list(pair) for pair in combinations(moving, 2)][:MAX_MOVING_PAIRS] if len(moving) > 2 else []
    return subsets
