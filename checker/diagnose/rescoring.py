"""The re-scoring a cause search rests on: the run's passing cases, every result kept once, the effort spent;
whether a departure explains a case (the engine's whole answer) and keeps the passing ones."""
from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

from checker.diagnose.answers import FanNames, OwnRules, agreement, consistent_rules
from checker.diagnose.classes import FailureClass
from checker.diagnose.explanation import SCORER_COST, Explanation, OutOfEffort, canonical, family_kind, passing_step
from checker.diagnose.judged import Judged, kind_of, rescorable
from checker.diagnose.notation import current as notation
from checker.mutate import edits
from checker.mutate.mutation import Mutation, Rescorer
from checker.spec import Ruleset


MAX_RESTRICTED = 3  # departures a class's search tries restricted to one value of an option (`_restricted`)


class Rescoring:
    """The state of one run's search and the re-scorings every part of it shares."""

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
        self._moved: dict[tuple[Any, ...], bool] = {}
        self.effort, self.spent = effort, 0  # re-scorings the search may spend, and has spent
        self.scale = scale  # `--effort`: the run's effort is so many times EFFORT (and EFFORT_PER_CASE a case)
        self._limit: int | None = None  # re-scorings the class being searched may reach
        self._screening: tuple[int, int] | None = None  # (candidates screened, of) in the class being searched
        self._kept: dict[tuple[str, str], int | None] = {}
        self._restrictions_left = MAX_RESTRICTED  # departures the class being searched may try restricted
        self.mutations: dict[str, Mutation] = {}  # every departure named or kept as an alternative, by id
        # per case (by id, kept beside it): whether the engine lists no fan worth 0 (one_class._beside)
        self._lists_no_zero: dict[int, tuple[Judged, bool]] = {}


    def components(self, explanation_id: str) -> list[Mutation]:
        """The single departures an explanation is made of (one, or those of a pair or a combination)."""
        whole = self.mutations.get(explanation_id)
        if whole is not None and whole.family != "pair":
            return [whole]
        return [self.mutations[part] for part in explanation_id.split(" + ") if part in self.mutations]

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
        """One re-scoring more; OutOfEffort when the class being searched has spent its share."""
        if self._limit is not None and self.spent + SCORER_COST * self.rescorer.builds >= self._limit:
            raise OutOfEffort
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
        read = self.read_names(ruleset, r.actual) if ruleset is not None else r.actual
        self._answers[key] = (r, read)
        return read

    def read_names(self, ruleset: Ruleset, answer: Any) -> Any:
        """An answer with the fans it names in the documents' words, or in the words the run learned it uses
        (checker.diagnose.notation), read as the spec's ids."""
        return notation().read(ruleset.id, self.names(ruleset).read(answer, {p.id for p in ruleset.patterns})[0])[0]

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
            found = self._moved[key] = canonical(self.rescorer.result(case, m)) != canonical(
                self.rescorer.result(case, None))
        return found

    def _toward(self, r: Judged, m: Mutation) -> bool:
        """Whether `m` turns the reference's verdict on the case (a hand of play's legal, illegal or unfinished; a
        hand's win or refusal) into the engine's, where the rules' is not: half of a pair that explains the case,
        the other half moving what is left (where an illegal event lands, what the win pays)."""
        key = (id(r), m.id, "toward")
        found = self._moved.get(key)
        if found is None:
            self._spend()
            case, answer = r.case or {}, self.answer(r)
            field = "verdict" if kind_of(r) == "procedure" else "valid"
            mine, rules = self.rescorer.result(case, m), self.rescorer.result(case, None)
            found = self._moved[key] = isinstance(answer, Mapping) and isinstance(mine, Mapping) and \
                isinstance(rules, Mapping) and field in answer and mine.get(field, True) == answer.get(field) and \
                rules.get(field, True) != answer.get(field)
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
                if not self._still_passes(r, m):
                    checked = None
                    break
                checked = (checked or 0) + 1
            self._kept[key] = checked
        return self._kept[key]

    def _restricted(self, ruleset_id: str, m: Mutation, explained: Sequence[Judged]) -> tuple[Mutation, int] | None:
        """`m`, which changes passing cases, where every passing case it changes names one option at a value none
        of the cases it explains holds (they hold one value, named or by default): `m` only where that option is
        so (`edits.where`: an engine that departs on one reading of an option), with the passing cases it then
        keeps; None: no such option, or restricted it still changes one."""
        ruleset = self.ruleset_of(ruleset_id)
        if ruleset is None or m.conditional or not explained or self._restrictions_left <= 0:
            return None
        self._restrictions_left -= 1
        changed = [r for r in self.passing.get(ruleset_id, [])
                   if not (m.touches_input and kind_of(r) == "procedure") and not self._still_passes(r, m)]
        if not changed:
            return None
        named = set.intersection(*(set(_options(r)) for r in changed))
        for option_id in sorted(named - m.option_ids):
            option = ruleset.options.get(option_id)
            if option is None:
                continue
            held = {_value(option, _options(r)) for r in explained}
            if len(held) != 1 or None in held or any(_value(option, _options(r)) in held for r in changed):
                continue
            restricted = edits.where(m, option, next(iter(held)))
            checked = self._passing_kept(ruleset_id, restricted)
            if checked is not None:
                return restricted, checked
        return None

    def _still_passes(self, r: Judged, m: Mutation) -> bool:
        """Whether the passing case `r` keeps the engine's answer under `m`: its whole answer where the rules give
        the whole of it; else (the case passed on the fields its expectation names, the engine writing the rest
        its own way: a hand of play's winners beside a payments-only expectation) on those fields."""
        if self._explains(r, m):
            return True
        if self._explains(r, None):
            return False
        judged = r.expected if isinstance(r.expected, Mapping) and "either" not in r.expected else None
        answer = self.answer(r)
        if judged is None or not isinstance(answer, Mapping):
            return False
        rescored = self.rescorer.result(r.case or {}, m)
        if rescored is None:
            return False
        self._spend()
        told = {k: v for k, v in answer.items() if k in judged}
        return agreement(told, {k: v for k, v in rescored.items() if k in judged}, judged,
                         self.own_rules(r.ruleset or ""), kind_of(r)).same

    def _explanation(self, m: Mutation, explains: int, of: int, checked: int) -> Explanation:
        return Explanation(family_kind(m), m.id, m.words, m.rules, explains, of, checked)




def _options(r: Judged) -> Mapping[str, Any]:
    given = (r.case or {}).get("options")
    return given if isinstance(given, Mapping) else {}


def _value(option: Any, given: Mapping[str, Any]) -> Any:
    """The value a case's options hold of `option` (named, or its default); None: one it does not have."""
    try:
        return option.coerce(given[option.id]) if option.id in given else option.default
    except ValueError:
        return None
