"""One failure class searched: candidate departures screened on its first cases, then on all; pairs; the class
covered greedily; fans outside the spec after a departure."""
from __future__ import annotations

from dataclasses import replace
from itertools import combinations
from types import SimpleNamespace
from typing import Any, Callable, Mapping, Sequence

from checker.case import fans_of, readings_of
from checker.diagnose.answers import listed, lists_no_zero, outside_only
from checker.diagnose.candidates import candidates_for, edits_by_part
from checker.diagnose.classes import FailureClass, signature, unlisted_by_winners
from checker.diagnose.diff import diff
from checker.diagnose.explanation import (MAX_ALTERNATIVES, MAX_MEMBERS_FIRST, MAX_MEMBERS_SCREENED, MAX_ROUNDS,
                                          OutOfEffort, PAIRS_FROM, SCORER_COST, Cause, Explanation, family_kind,
                                          together)
from checker.diagnose.judged import Judged
from checker.diagnose.notation import current as notation, paired_hands, scored_hands
from checker.diagnose.romanized import spelled
from checker.diagnose.rescoring import MAX_RESTRICTED, Rescoring
from checker.diagnose.unscored import (OUTSIDE, below_minimum, fans_outside_spec, input_disagreement, input_refused,
                                       outside_ids, outside_words)
from checker.mutate import edits
from checker.mutate.mutation import Mutation, combined
from checker.mutate.readings import option_readings
from checker.spec import Ruleset


class ClassSearch(Rescoring):
    """The search for a cause of one class."""

    # ------------------------------------------------------------------ one class

    def explain(self, cls: FailureClass) -> Cause:
        self._restrictions_left = MAX_RESTRICTED
        if self.spent + SCORER_COST * self.rescorer.builds >= self.effort:  # said, not hidden
            return Cause((), len(cls.members), {}, stopped=self.effort)
        written = self.written(cls)
        if not written:
            return self._explain(cls)
        members = self._members(cls)
        rest = [r for r in members if not self._explains(r, None)]
        if not rest:  # how the answers are written is the whole departure
            return Cause(written, len(cls.members) - len(members), {e.kind: 1 for e in written})
        if len(rest) < len(members):  # the way of writing accounts for the others: a cause is searched for the rest
            left = set(map(id, rest))
            cls = replace(cls, members=tuple(r for r in cls.members if id(r) in left or r not in members))
        cause = self._explain(cls)
        return replace(cause, explanations=written + cause.explanations)

    def written(self, cls: FailureClass) -> tuple[Explanation, ...]:
        """How the engine writes the class's answers (names, fans at 0 left out, its notation): read off the
        answers, no re-scoring."""
        return tuple(e for e in (self._fan_names(cls), self._unlisted(cls), self._notation(cls)) if e is not None)

    def _unlisted(self, cls: FailureClass) -> Explanation | None:
        """Where the engine lists no fan at 0 points (the class's signature says so): that way of writing its
        answers, with the fans it leaves out (the comparison reads its answers so: checker.diagnose.answers
        .listed)."""
        if not any("unlisted" in p for p in cls.parts):
            return None
        left: set[str] = set()
        for r in cls.members:
            answer = self.answer(r)
            found = diff(r.expected, answer)
            left.update(str(f.get("id")) for f in found.missing if f.get("points") == 0)
            left.update(str(f.get("id")) for f in unlisted_by_winners(readings_of(r.expected), readings_of(answer)))
        if not left:
            return None
        words = (f"the engine lists no fan at 0 points ({', '.join(sorted(left))} left out), which add nothing to "
                 f"its total: a way of writing the answer, not of scoring")
        return Explanation("fan listing", "unlisted-zero", words, tuple(f"fan.{i}" for i in sorted(left)),
                           len(cls.members), len(cls.members))

    def _notation(self, cls: FailureClass) -> Explanation | None:
        """Where the run learned that the engine writes some of the class's fans its own way (left out, in its
        own units, or a scoring step written as an element: checker.diagnose.notation), that way of writing, with
        the money-agreeing cases it rests on."""
        learned = notation()
        stepped, capped = learned.stepped(cls.ruleset), learned.capped(cls.ruleset)
        steps_listed = {name for r in cls.members for name in _listed_names(self.answer(r)) if name in stepped}
        caps_listed = {str(f.get("id")) for r in cls.members for h in scored_hands(self.answer(r))
                       for f in fans_of(h) if learned.cap_listed(cls.ruleset, f, h.get("total"))}
        if not any("notation" in p for p in cls.parts) and not steps_listed and not caps_listed:
            return None
        omitted, units = learned.omitted(cls.ruleset), learned.units(cls.ruleset)
        left: set[str] = set()
        own: set[str] = set()
        replaced: dict[str, set[str]] = {name: set() for name in steps_listed}  # what each step stands for here
        for r in cls.members:
            answer = self.answer(r)
            found = diff(r.expected, answer)
            left.update(str(f.get("id")) for f in found.missing if f.get("id") in omitted)
            own.update(str(w.get("id")) for w, g in found.different
                       if w.get("id") in units and w.get("count") == g.get("count"))
            for name in steps_listed & _listed_names(answer):
                replaced[name].update(str(f.get("id")) for play in scored_hands(r.expected)
                                      for f in play.get("fans") or [] if isinstance(f, Mapping)
                                      and f.get("id") in stepped[name].replaces
                                      and f.get("id") not in _listed_names(answer))
        said = [f"writes {stepped[name].rule} as an element of its own, {name} at {stepped[name].value}, in place "
                f"of the patterns it stands for ({', '.join(sorted(replaced[name])) or 'none here'}; learned from "
                f"{stepped[name].cases} cases)" for name in sorted(steps_listed)]
        said += [f"lists the cap ({capped[name].rule}) as an element of its own, {name} at the hand's total (learned "
                 f"from {capped[name].cases} cases, listed at the total in each; in {capped[name].cut} of the "
                 f"{capped[name].checked} re-scored the rules' cap cut the value)" for name in sorted(caps_listed)]
        if own:
            said.append("writes the points of " + ", ".join(f"{i} ({units[i]} cases)" for i in sorted(own))
                        + " in its own units (compared by name and count)")
        if left:
            said.append("leaves out " + ", ".join(f"{i} ({omitted[i]} cases)" for i in sorted(left))
                        + " where it lists them not")
        if not said:
            return None
        words = ("the engine " + "; it ".join(said) + ": learned from the run's failed cases whose money agrees "
                 f"with the rules{learned.said_under(cls.ruleset)} (the cases counted), a way of writing the answer, "
                 "not of scoring; money is always compared")
        rules = tuple(f"fan.{i}" for i in sorted(left | own)) + tuple(sorted({stepped[n].rule for n in steps_listed}
                                                                             | {capped[n].rule for n in caps_listed}))
        return Explanation("fan notation", "notation", words, rules, len(cls.members), len(cls.members))

    def _fan_names(self, cls: FailureClass) -> Explanation | None:
        """Where the engine names fans in the documents' words: that reading, said with the names it read (read
        off the answers themselves, with the ruleset the search scores under)."""
        ruleset = self.ruleset_of(cls.ruleset)
        if ruleset is None:
            return None
        read: dict[str, str] = {}
        learned: dict[str, str] = {}
        for r in cls.members:
            answer, found = self.names(ruleset).read(r.actual, {p.id for p in ruleset.patterns})
            read.update(found)
            learned.update(notation().read(ruleset.id, answer)[1])
        if not read and not learned:
            return None
        said = ", ".join(f"{name} for {spec_id}" for name, spec_id in sorted(read.items())[:8])
        own = ", ".join(f"{name} for {spec_id}" for name, spec_id in sorted(learned.items())[:8])
        zh = {p.id: p.name_zh or "" for p in ruleset.patterns}
        pinyin = " or their Chinese in pinyin" if any(
            name.casefold().replace(" ", "_") in spelled(zh.get(spec_id, "")) for name, spec_id in read.items()) else ""
        words = (f"the engine names fans by their names in the documents{pinyin} ({said})" if read
                 else "the engine names fans")
        if learned:
            words += (f"{' and' if read else ''} in words of its own, each standing in every failed case whose money "
                      f"agrees for one spec pattern ({own})")
        return Explanation("fan names", "fan-names", words + ", not by the spec's ids",
                           tuple(f"fan.{i}" for i in sorted(set(read.values()) | set(learned.values()))),
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
        # what is read off the class where no departure explains it: the engine does not take a form of input,
        # or it answers input the rules refuse
        disagreement = input_disagreement(cls, self.passing.get(cls.ruleset or "", [])) or input_refused(cls)
        if not members or ruleset is None:
            if disagreement is not None:
                return Cause((disagreement,), 0, {disagreement.kind: 1})
            return Cause((), len(cls.members), tried)
        parts = self._parts(cls, ruleset)
        candidates = candidates_for(cls, ruleset, parts)
        self.mutations.update((m.id, m) for m in candidates if m.id not in self.mutations)
        for m in candidates:
            tried[family_kind(m)] = tried.get(family_kind(m), 0) + 1
        beside = self._outside_after(cls, members, ruleset, candidates, tried)
        if beside is not None:
            return beside
        screened = members[:MAX_MEMBERS_SCREENED]
        scores: list[tuple[int, Mutation]] = []
        first = _spread(screened, MAX_MEMBERS_FIRST)
        for number, m in enumerate(candidates):  # a departure that explains none of the first few is not scored on
            self._screening = (number, len(candidates))  # the rest (how far it got, said if the class's share ends)
            if not any(self._explains(r, m) for r in first):
                continue
            if not any(self._moves(r, m) for r in first):  # it answers as the rules do there: no cause of a
                continue                                    # difference (a reading of an option at its default)
            hits = sum(1 for r in screened if self._explains(r, m))
            if hits:
                scores.append((hits, m))
        self._screening = (len(candidates), len(candidates))  # every one screened: what follows is pairs and rounds
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
                restricted = self._restricted(cls.ruleset or "", m, members) if checked is None else None
                if restricted is not None:
                    m, checked = restricted
                    self.mutations[m.id] = m
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
        # pairs of readings: only those that each change the reference's result on one of the first cases (a
        # reading that changes none of them cannot be half of the smallest pair that explains them; each half may
        # explain cases of its own, two table readings a case each)
        readings = [m for m in candidates if m.family == "reading" and any(self._moves(r, m) for r in first)]
        partial = [m for _, m in scores[:PAIRS_FROM]]
        pairs = [(a, b) for a, b in combinations(readings, 2) if a.option_ids.isdisjoint(b.option_ids)]
        pairs += [(a, b) for a, b in combinations(partial, 2) if not (a.family == b.family == "reading")]
        everyone = {id(r) for r in screened}
        for a, b in pairs:
            # two departures each explaining cases of its own are named apart with their cases (below), no pair
            own = [{id(r) for r in self._explained(screened, x)} for x in (a, b)]
            if all(own) and own[0] | own[1] == everyone:
                continue
            pair = combined(a, b)
            tried["pair"] = tried.get("pair", 0) + 1
            if all(self._explains(r, pair) for r in screened) and self._explains_all(members, pair):
                checked = self._passing_kept(cls.ruleset or "", pair)
                if checked is not None:
                    self.mutations[pair.id] = pair
                    return Cause((self._explanation(pair, len(members), len(cls.members), checked),),
                                 len(cls.members) - len(members), tried)
        left = self._greedy(cls, members, [m for _, m in scores], found)
        try:
            return self._rest(cls, members, ruleset, candidates, order, tried, found, left, disagreement)
        except OutOfEffort:  # what the cover found stands (each departure explains its cases): said as cut short
            if not found:
                raise
            return Cause(tuple(found), len(cls.members) - sum(e.explains for e in found), tried,
                         stopped=self._limit, share=True, screened=self._screening, effort=self.scale)

    def _rest(self, cls: FailureClass, members: list[Judged], ruleset: Ruleset, candidates: Sequence[Mutation],
              order: Mapping[str, int], tried: dict[str, int], found: list[Explanation], left: list[Judged],
              disagreement: Explanation | None) -> Cause:
        """After a first cover of the class: its cases left screened again, then grouped by fans outside the spec;
        the departures the cover does not need dropped."""
        for _ in range(MAX_ROUNDS):  # the cases left screened again: a departure none of the first showed
            if not left or not found:
                break
            screened = left[:MAX_MEMBERS_SCREENED]
            used = {e.id for e in found}
            first = _spread(screened, MAX_MEMBERS_FIRST)  # as in the first pass: one of a few, then the rest
            shown = {m.id: sum(1 for r in screened if self._explains(r, m)) for m in candidates
                     if m.id not in used and any(self._explains(r, m) for r in first)}
            more = sorted((m for m in candidates if shown.get(m.id)), key=lambda m: (-shown[m.id], m.size, order[m.id]))
            before = len(left)
            left = self._greedy(cls, left, more, found, at_most=1)
            if len(left) == before:
                break
        if left:  # the cases left may differ by fans outside the spec (after a departure, or none) alone: each
            known = {p.id for p in ruleset.patterns}  # group of them naming the same such fans in place of the same
            groups: dict[tuple, list[Judged]] = {}  # spec fans (under the rules) explained apart (a class whose
            # hands name several sets of such fans, as a judge's fig beside its robbed kong's 抢杠 on one hand)
            for r in left:
                key = (frozenset(outside_ids(self.answer(r), known)), self._beside(r, None, ruleset, known))
                groups.setdefault(key, []).append(r)
            still: list[Judged] = []
            for group in groups.values():
                rest = self._outside_after(cls, group, ruleset, candidates, tried)
                if rest is not None:
                    found.extend(rest.explanations)
                else:
                    still.extend(group)
            left = still
        unexplained = len(left) + len(cls.members) - len(members)
        found = self._needed(cls, members, found)
        if not found and disagreement is not None:
            return Cause((disagreement,), 0, {**tried, disagreement.kind: 1})
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
            if m.size > 2:  # several departures together (the run's model): those the cases it explains need
                parts = self.components(m.id)
                m = (self._least(explained, parts) if len(parts) == m.size else None) or m
            checked = self._passing_kept(cls.ruleset or "", m)
            if checked is None:  # where it changes only passing cases under another value of an option: there
                restricted = self._restricted(cls.ruleset or "", m, explained)
                if restricted is None:
                    continue
                m, checked = restricted
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
        if not members or not any(outside_ids(self.answer(r), known) for r in members):
            return None
        readings = [m for m in candidates if m.family == "reading"]
        pairs = [combined(a, b) for a, b in combinations(readings, 2) if a.option_ids.isdisjoint(b.option_ids)]
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
            if m is not None and m.size > 2:  # several departures together (the run's model): those it needs
                m = self._pruned_beside(members, m, shape, ruleset, known)
            checked = self._passing_kept(cls.ruleset or "", m) if m is not None else 0
            if checked is None:
                continue
            outside, replaced, lifted = shape
            words = outside_words(outside, replaced) + \
                (", whose points lift a hand the rules refuse under the minimum to a win" if lifted else "")
            rules = tuple(f"fan.{f}" for f in replaced) + (("win.minimum_points",) if lifted else ())
            ident = OUTSIDE + ",".join(outside)
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

    def _pruned_beside(self, members: Sequence[Judged], m: Mutation, shape: tuple, ruleset: Ruleset,
                       known: set[str]) -> Mutation:
        """`m` (several departures) without the parts its cases do not need: each, the last first, left out where
        every case still departs by the same fans outside the spec (`shape`) without it."""
        parts = self.components(m.id)
        if len(parts) != m.size:
            return m
        return together(_fewest(parts, lambda kept: all(self._beside(r, together(kept), ruleset, known) == shape
                                                          for r in members)))

    def _outside_covered(self, cls: FailureClass, members: Sequence[Judged], ruleset: Ruleset,
                         trials: Sequence[Mutation], tried: dict[str, int]) -> Cause | None:
        """Where no one of `trials` (the run's departures, alone and together) leaves every case of the class
        differing by the same fans outside the spec alone: the trial that does so for most of its cases explains
        them, and the rest are tried with it and one option reading more (a case naming a reading the engine does
        not follow: the engine reads no case's options); None where that explains no case, or leaves one."""
        known = {p.id for p in ruleset.patterns}
        best: tuple[int, Mutation, tuple] | None = None
        for m in trials:
            tried["fans outside the spec"] = tried.get("fans outside the spec", 0) + 1
            shapes: dict[tuple, int] = {}
            for r in members:
                shape = self._beside(r, m, ruleset, known)
                if shape is not None and not shape[1]:  # beside the spec's fans, none replaced
                    shapes[shape] = shapes.get(shape, 0) + 1
            for shape, n in shapes.items():
                if best is None or n > best[0]:
                    best = (n, m, shape)
        if best is None or best[0] == len(members):
            return None  # (every case alike: `_outside_after` names it)
        _, chosen, shape = best
        alike = [self._beside(r, chosen, ruleset, known) == shape for r in members]
        grouped = [r for r, same in zip(members, alike) if same]
        rest = [r for r, same in zip(members, alike) if not same]
        first = self._outside_after(cls, grouped, ruleset, [chosen], tried)
        more = [combined(chosen, o) for o in option_readings(ruleset) if o.option_ids.isdisjoint(chosen.option_ids)]
        second = self._outside_after(cls, rest, ruleset, more, tried) if first is not None else None
        if first is None or second is None or not all(e.kind == "pair" for e in first.explanations + second.explanations):
            return None
        return Cause(first.explanations + second.explanations, len(cls.members) - len(members), tried)

    def _beside(self, r: Judged, m: Mutation | None, ruleset: Ruleset,
                known: set[str]) -> tuple[tuple[str, ...], tuple[str, ...], bool] | None:
        """How the engine's answer departs from the reference's under `m`, when only by fans the spec does not
        have in place of spec fans: (those fans, the fans they replace, whether the reference's fans were read
        with no minimum); else None."""
        lifted = below_minimum(r)
        departure = m
        if lifted:
            free = edits.minimum(ruleset.id, 0, ruleset.win.minimum_points)
            departure = free if m is None else combined(m, free)
        rescored = self.rescorer.result(r.case or {}, departure)
        answer = self.answer(r)  # (fans named in the documents' words read as the spec's)
        if rescored is None or not isinstance(answer, Mapping):
            return None
        if "verdict" in rescored:  # a hand of play: its winners', where it ends as the rules end it, paid alike
            return _beside_winners(rescored, answer, ruleset.id, known)
        if "either" in rescored and "either" not in answer:  # the rules read the hand more than one way, worth the
            # same: the engine's answer beside any one of them
            shapes = (self._shape(r, reading, answer, departure, ruleset, known) for reading in readings_of(rescored))
            shape = next((s for s in shapes if s is not None), None)
        else:
            shape = self._shape(r, rescored, answer, departure, ruleset, known)
        return shape + (lifted,) if shape is not None else None

    def _shape(self, r: Judged, rescored: Mapping[str, Any], answer: Mapping[str, Any], departure: Mutation | None,
               ruleset: Ruleset, known: set[str]) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
        """The outside fans of the engine's `answer` and the spec fans they replace in the rules' `rescored` (one
        reading, or an `either` beside an `either` answer), where nothing else departs but as their worth makes
        it; else None."""
        written = rescored
        if "either" not in rescored and "either" not in answer:  # the fans as the engine writes them (its notation)
            mine, theirs = notation().as_written(ruleset.id, rescored.get("fans"), answer.get("fans"),
                                                 answer.get("total"))
            written, answer = {**rescored, "fans": mine}, {**answer, "fans": theirs}
        found = diff(written, answer)
        extra = {str(f.get("id")) for f in found.extra}
        if found.different or not extra or not extra.isdisjoint(known):
            return None
        known_case = self._lists_no_zero.get(id(r))  # (answers.listed; the engine's answer is the same for any `m`)
        if known_case is None or known_case[0] is not r:
            known_case = self._lists_no_zero[id(r)] = (r, all(lists_no_zero(g.get("fans")) for g in readings_of(answer)))
        unlisted = known_case[1]
        found = replace(found, missing=tuple(f for f in found.missing if not (unlisted and f.get("points") == 0)))
        if found.fields and not self._worth_accounts(r, departure, ruleset, found, rescored):
            return None  # the total or payments differ by more than the outside fans account for
        return tuple(sorted(extra)), tuple(sorted(str(f.get("id")) for f in found.missing))

    def _worth_accounts(self, r: Judged, departure: Mutation | None, ruleset: Ruleset, found: Any,
                        rescored: Mapping[str, Any]) -> bool:
        """Whether the fields beside the fans (total, payments) differ only as the outside fans' worth makes them:
        one outside fan in place of one or more spec fans, the reference scoring the first of them at the outside
        fan's points (and the others at none) gives the engine's total and payments; or one beside the spec's
        fans, its worth added to the reference's total, the payments the reference's (answers.outside_only)."""
        if len(found.extra) != 1:
            return False
        if not found.missing:  # beside the spec's fans: its worth added to the total, the money the same
            return outside_only(self.answer(r), rescored, {p.id for p in ruleset.patterns}, ruleset.id)
        worth, count = found.extra[0].get("points"), found.extra[0].get("count")
        if not isinstance(worth, int) or isinstance(worth, bool) or worth < 0 or not isinstance(count, int) \
                or found.missing[0].get("count") != count:
            return False
        repriced = edits.points(ruleset.id, str(found.missing[0].get("id")), worth, None)
        for other in found.missing[1:]:
            repriced = combined(repriced, edits.points(ruleset.id, str(other.get("id")), 0, None))
        priced = self.rescorer.result(r.case or {}, repriced if departure is None else combined(departure, repriced))
        if priced is None or not isinstance(r.actual, Mapping) or "either" in priced or "either" in r.actual:
            return False
        return all(priced.get(k) == r.actual.get(k) for k in ("valid", "total", "payments"))

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

    def _substitutes(self, cls: FailureClass, members: Sequence[Judged], chosen: Mutation,
                     given: Sequence[Mutation] = ()) -> list[Mutation]:
        """Departures that explain the class as alike as `chosen` does: `chosen` with one of its parts put in place
        by a candidate of the class (one that by itself changes the reference's answer to the class's first case),
        at most MAX_ALTERNATIVES - 1 of them besides `given` (found already). A cause's rivals, which the probes
        must tell apart from it (checker.diagnose.confirm): a departure found for another class and paired with one
        of the class's own was otherwise named with no rival sought."""
        ruleset = self.ruleset_of(cls.ruleset)
        if ruleset is None or not members:
            return []
        parts = self.components(chosen.id) or [chosen]
        screened = members[:MAX_MEMBERS_SCREENED]
        seen = {x.departures for x in (chosen, *given)}
        out: list[Mutation] = []
        for i, part in enumerate(parts):
            rest = [p for j, p in enumerate(parts) if j != i]
            for c in candidates_for(cls, ruleset, self._parts(cls, ruleset)):
                if len(out) + len(given) >= MAX_ALTERNATIVES - 1:
                    return out
                if c.id in {p.id for p in parts} or any(not c.option_ids.isdisjoint(p.option_ids) for p in rest):
                    continue
                if not self._moves(screened[0], c):
                    continue
                m = together([*rest, c]) if rest else c
                if m.departures in seen:  # (the same departures in another order: one)
                    continue
                seen.add(m.departures)
                if all(self._explains(r, m) for r in screened) and self._explains_all(members, m) and \
                        not (rest and self._explains_all(members, together(rest))):  # (`c` needed: no idle part)
                    self.mutations.setdefault(c.id, c)
                    self.mutations.setdefault(m.id, m)
                    out.append(m)
        return out

    def _least(self, members: Sequence[Judged], parts: Sequence[Mutation]) -> Mutation | None:
        """The departures of `parts` together, if they explain every member, with each left out in turn (the last
        first) while the rest still do: a smallest such set, as one departure; None when all together do not."""
        if not parts:
            return None
        screened = members[:MAX_MEMBERS_SCREENED]

        def explains(chosen: Sequence[Mutation]) -> bool:
            m = together(chosen)
            return all(self._explains(r, m) for r in screened) and self._explains_all(members, m)

        if not explains(parts):
            return None
        return together(_fewest(parts, explains))

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


def _beside_winners(rescored: Mapping[str, Any], answer: Mapping[str, Any], ruleset_id: str,
                    known: set[str]) -> tuple[tuple[str, ...], tuple[str, ...], bool] | None:
    """A hand of play that ends as the reference's under a departure, with its payments and the same winners (by
    seat and way of winning), whose winners' fans, as the engine writes them, differ only by fans the spec does
    not have (in place of spec fans, or beside them), each winner's other fields the same: (those fans, the fans
    they replace, False); else None."""
    pairs = paired_hands(rescored, answer)
    if not pairs:
        return None
    extra: set[str] = set()
    missing: set[str] = set()
    for want, got in pairs:
        mine, theirs = notation().as_written(ruleset_id, list(fans_of(want)), list(fans_of(got)), got.get("total"))
        found = diff({**want, "fans": listed(mine, got.get("fans"))}, {**got, "fans": theirs})
        ids = {str(f.get("id")) for f in found.extra}
        if found.different or found.fields or not ids.isdisjoint(known):
            return None
        extra |= ids
        missing |= {str(f.get("id")) for f in found.missing}
    return (tuple(sorted(extra)), tuple(sorted(missing)), False) if extra else None


def _fewest(parts: Sequence[Mutation], holds: Callable[[Sequence[Mutation]], bool]) -> list[Mutation]:
    """`parts` with each left out in turn, the last first, where the rest still `holds` (one kept at least)."""
    kept = list(parts)
    for m in reversed(list(parts)):
        if len(kept) > 1 and holds([k for k in kept if k is not m]):
            kept = [k for k in kept if k is not m]
    return kept


def _listed_names(answer: Any) -> set[str]:
    """The fan ids an answer lists (a hand of play's: its winners')."""
    found: set[str] = set()
    for h in scored_hands(answer):
        fans = h.get("fans")
        found.update(str(f.get("id")) for f in (fans if isinstance(fans, list) else []) if isinstance(f, Mapping))
    return found


def _spread(members: Sequence[Judged], most: int) -> list[Judged]:
    """The first `most` members a departure must explain one of before it is scored on the rest: in witness order,
    taken in turn from each kind of difference the class holds (for hands of play the rule the rules refuse by
    and the event refused; for hands, how the win was made and which payers' amounts differ which way), so
    that a departure explaining one kind alone is not passed over."""
    if not members:
        return []
    played = members[0].case is not None and members[0].case.get("kind") == "procedure"
    groups: dict[tuple, list[Judged]] = {}
    for r in members:
        groups.setdefault(_refusal_kind(r) if played else _money_kind(r), []).append(r)
    out: list[Judged] = []
    queues = [list(g) for g in groups.values()]
    while len(out) < most and any(queues):
        for q in queues:
            if q and len(out) < most:
                out.append(q.pop(0))
    return out


def _money_kind(r: Judged) -> tuple:
    """A hand's kind of difference: how it was won, and for each seat whether the engine has it pay (or take)
    more, less or the same as the rules."""
    case: Mapping[str, Any] = r.case or {}
    data = case.get("input")
    win_by = data.get("win_by") if isinstance(data, Mapping) else None
    expected, actual = r.expected, r.actual
    ours = expected.get("payments") if isinstance(expected, Mapping) else None
    theirs = actual.get("payments") if isinstance(actual, Mapping) else None
    if not (isinstance(ours, list) and isinstance(theirs, list) and len(ours) == len(theirs)) or \
            not all(isinstance(x, int) for x in (*ours, *theirs)):
        return (win_by,)
    return (win_by, tuple((a > e) - (a < e) for e, a in zip(ours, theirs)))


def _refusal_kind(r: Judged) -> tuple:
    """A hand of play's refusal: the rule its expectation names and the kind of event refused."""
    case: Mapping[str, Any] = r.case or {}
    given = case.get("expect")
    expect: Mapping[str, Any] = given if isinstance(given, Mapping) else {}
    data = case.get("input")
    found = data.get("events") if isinstance(data, Mapping) else None
    events = found if isinstance(found, list) else []
    at = expect.get("event")
    kind = events[at].get("event") if isinstance(at, int) and 0 <= at < len(events) and \
        isinstance(events[at], Mapping) else None
    return (expect.get("rule"), kind)
