"""A one-step departure from a ruleset, and scoring a case under it.

A `Mutation` changes the ruleset (`edit`: a new frozen Ruleset, the shipped one untouched), the case's input
(`read`: the context as the departing engine reads it), or the options (`options`), or several of them at once
(`combined`). It names its `family`, what it changes in words (`words`), and the rule ids it touches (`rules`), so
a report can quote the source sentences. Scoring goes through the reference engine only (`Rescorer`: the same
`Scorer` and hand reading as every case): there is no second scorer.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Callable, Mapping, Sequence

from checker.case import CaseError, CaseRunner, hand_from_input, scored_result
from checker.engine.hand import HandError
from checker.engine.scoring import Scorer
from checker.spec.bind import BindError
from checker.spec import Ruleset

DEFAULT_FAMILY = "option default"  # checker.mutate.edits.option_default: the spec's default of one option changed
MAX_HANDS_KEPT = 200_000  # inputs read and kept at once (then forgotten together)
# what replaying a hand of play under an edited spec may raise when the table cannot play that spec
PLAY_FAILURES = (CaseError, BindError, ValueError, KeyError, TypeError, AttributeError, ArithmeticError, IndexError,
                 AssertionError, StopIteration)
Edit = Callable[[Ruleset], Ruleset]
Read = Callable[[Mapping[str, Any]], Mapping[str, Any]]
Replay = Callable[[Mapping[str, Any]], Mapping[str, Any]]


def _same_ruleset(ruleset: Ruleset) -> Ruleset:
    return ruleset


def _same_input(data: Mapping[str, Any]) -> Mapping[str, Any]:
    return data


@dataclass(frozen=True)
class Mutation:
    """One departure: `id` stable and unique within a ruleset (`family:target=value`), `words` what it changes,
    said as a rule, `rules` the rule ids involved (without the ruleset prefix)."""

    id: str
    family: str
    ruleset: str
    words: str
    rules: tuple[str, ...] = ()
    edit: Edit = field(default=_same_ruleset, compare=False, repr=False)
    read: Read = field(default=_same_input, compare=False, repr=False)
    options: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}), compare=False)
    size: int = 1  # how many one-step changes it makes (two: a pair of readings, or two departures together)
    # a hand of play's case as the departing judge reads its log (checker.mutate.log_reads); None: as written
    replay: Replay | None = field(default=None, compare=False, repr=False)
    # options read where a case names none (a case's own options stand): an engine's defaults of its own
    defaults: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}), compare=False)
    # its spec edit does no more than set the option defaults `defaults` carries: scoring it needs the ruleset's
    # own scorer under those options, no edited spec built
    edit_is_defaults: bool = field(default=False, compare=False)
    # the options (id -> value) under which it departs: a case holding another value of one of them (named, or the
    # spec's default) is read as the rules read it; empty: wherever
    where: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}), compare=False)
    # a combination holding a departure with a `where`: its parts, each acting only where its own holds
    parts: tuple["Mutation", ...] = field(default=(), compare=False, repr=False)
    # a departure with a `where`: the same departure wherever
    unconditional: "Mutation | None" = field(default=None, compare=False, repr=False)

    def acting(self, value_of: Callable[[str], Any]) -> "Mutation | None":
        """The departure as it acts on a case whose option values `value_of` gives: itself, None where its `where`
        does not hold, or, for a combination with conditional parts, the combination of those that act there."""
        if any(value_of(k) != v for k, v in self.where.items()):
            return None
        if not self.parts:
            return self
        found = [m for m in (p.acting(value_of) for p in self.parts) if m is not None]
        return self if len(found) == len(self.parts) else (together(found) if found else None)

    @property
    def conditional(self) -> bool:
        return bool(self.where) or bool(self.parts)

    @property
    def departures(self) -> frozenset[str]:
        """The ids of the single departures it is made of, in no order (one: its own id)."""
        return frozenset(self.id.split(" + "))

    @property
    def targets(self) -> frozenset[str]:
        """What its single departures change, each id up to its value (`family:target`; an id without a value, all
        of it): two departures with a target in common set the same thing two ways (an option's default read
        otherwise and a reading of the option set one option)."""
        return frozenset(_option_target(d.rsplit("=", 1)[0]) for d in self.departures)

    @property
    def option_ids(self) -> frozenset[str]:
        """The options it reads one way, whether a case names them or not (`options`) or only where a case does
        not (`defaults`)."""
        return frozenset(self.options) | frozenset(self.defaults) | frozenset(self.where) | \
            frozenset(k for p in self.parts for k in p.where)

    @property
    def touches_input(self) -> bool:
        return self.read is not _same_input

    @property
    def edits_spec(self) -> bool:
        """Whether it changes the ruleset (else it is scored with the ruleset's own scorers, shared by all)."""
        return self.edit is not _same_ruleset


def _option_target(target: str) -> str:
    """`default:X` (an option's default read otherwise) sets what `option:X` (the option read otherwise) sets."""
    return f"option:{target[len('default:'):]}" if target.startswith("default:") else target


def combined(first: Mutation, second: Mutation) -> Mutation:
    """Two departures at once (an engine may make two changes that only together explain its answers)."""
    def edit(ruleset: Ruleset) -> Ruleset:
        return second.edit(first.edit(ruleset))

    def read(data: Mapping[str, Any]) -> Mapping[str, Any]:
        return second.read(first.read(data))

    def replay(case: Mapping[str, Any]) -> Mapping[str, Any]:
        for m in (first, second):
            case = m.replay(case) if m.replay is not None else case
        return case

    return Mutation(f"{first.id} + {second.id}", "pair", first.ruleset, f"{first.words}; and {second.words}",
                    first.rules + tuple(r for r in second.rules if r not in first.rules),
                    edit if first.edits_spec or second.edits_spec else _same_ruleset,
                    read if first.touches_input or second.touches_input else _same_input,
                    MappingProxyType({**first.options, **second.options}), first.size + second.size,
                    replay if first.replay is not None or second.replay is not None else None,
                    MappingProxyType({**first.defaults, **second.defaults}),
                    all(m.edit_is_defaults or not m.edits_spec for m in (first, second))
                    and (first.edits_spec or second.edits_spec),
                    parts=(*(first.parts or (first,)), *(second.parts or (second,)))
                    if first.conditional or second.conditional else ())


def together(parts: Sequence[Mutation]) -> Mutation:
    """Several departures at once, combined in their order (one departure: itself)."""
    found = parts[0]
    for m in parts[1:]:
        found = combined(found, m)
    return found


class Rescorer:
    """Scores cases under mutations with the reference engine, keeping one scorer per (mutation, options). A
    mutation whose edited spec cannot be bound gives None for every case (it is no ruleset)."""

    def __init__(self, runner: CaseRunner | None = None):
        self.runner = runner or CaseRunner()
        self._rulesets: dict[str, Ruleset | None] = {}
        self._scorers: dict[tuple, Scorer | None] = {}
        self._runners: dict[str, CaseRunner | None] = {}  # a table holding each edited spec, for hands of play
        self.builds = 0  # scorers built for edited specs (the costliest step of a search)
        # a case's input read once (the same for every spec edit and reading; again for each context reading),
        # keyed by the case object's identity and kept beside it, so the key cannot name another object later
        self._hands: dict[tuple[int, str], tuple[Any, Any]] = {}
        self._acted: dict[tuple, Mutation | None] = {}  # a conditional departure as it acts under some options

    def result(self, case: Mapping[str, Any], mutation: Mutation | None = None) -> Mapping[str, Any] | None:
        """The reference engine's result for a score case under `mutation` (None: as the rules are), or None
        when the mutation makes no ruleset or the case cannot be run. A hand of play (`kind: procedure`) is
        replayed by the reference table holding the mutated ruleset; a context reading, which reads a hand's
        input, does not apply to one (None)."""
        if mutation is not None and mutation.conditional:
            mutation = self._acting(case, mutation)
        if case.get("kind", "score") == "procedure":
            return self._played(case, mutation)
        try:
            scorer = self.scorer(case["ruleset"], case.get("options"), mutation)
        except (CaseError, KeyError, TypeError):
            return None
        if scorer is None:
            return None
        data = case.get("input")
        if not isinstance(data, Mapping):
            return None
        key = (id(case), mutation.id if mutation is not None and mutation.touches_input else "")
        kept = self._hands.get(key)
        read = kept[1] if kept is not None and kept[0] is case else None
        if read is None:
            if mutation is not None:
                data = mutation.read(data)
            try:
                read = hand_from_input(data, scorer, checked=False)
            except HandError as exc:
                read = exc
            except (KeyError, TypeError, ValueError):
                return None
            if len(self._hands) >= MAX_HANDS_KEPT:
                self._hands.clear()
            self._hands[key] = (case, read)  # the case kept with it: its identity cannot pass to another
        return scored_result(scorer, read)

    def _acting(self, case: Mapping[str, Any], mutation: Mutation) -> Mutation | None:
        """A conditional departure as it acts on the case (`Mutation.acting`: the case's options, named or the
        spec's defaults)."""
        given: Mapping[str, Any] = case["options"] if isinstance(case.get("options"), Mapping) else {}
        try:
            options = self.runner.ruleset(str(case.get("ruleset"))).options
        except (CaseError, KeyError, ValueError, TypeError):
            return mutation

        def value_of(option_id: str) -> Any:
            option = options.get(option_id)
            if option is None:
                return None
            try:
                return option.coerce(given[option_id]) if option_id in given else option.default
            except ValueError:
                return None
        key = (mutation.id, tuple(sorted((k, repr(value_of(k))) for k in mutation.option_ids)))
        if key not in self._acted:
            self._acted[key] = mutation.acting(value_of)
        return self._acted[key]

    def _played(self, case: Mapping[str, Any], mutation: Mutation | None) -> Mapping[str, Any] | None:
        if mutation is not None and mutation.touches_input:
            return None
        ruleset_id = case.get("ruleset")
        if not isinstance(ruleset_id, str):
            return None
        runner = self.runner
        if mutation is not None and mutation.edits_spec and not mutation.edit_is_defaults:
            key = f"{ruleset_id}\x00{mutation.id}"
            if key not in self._runners:
                edited = self.ruleset(ruleset_id, mutation)
                self.builds += 1
                self._runners[key] = CaseRunner({ruleset_id: edited}) if edited is not None else None
            found = self._runners[key]
            if found is None:
                return None
            runner = found
        if mutation is not None and (mutation.options or mutation.defaults):
            case = {**case, "options": {**mutation.defaults, **(case.get("options") or {}), **mutation.options}}
        if mutation is not None and mutation.replay is not None:
            case = mutation.replay(case)
        try:
            return runner.run(case)
        except PLAY_FAILURES:
            return None

    def scorer(self, ruleset_id: str, options: Mapping[str, Any] | None, mutation: Mutation | None) -> Scorer | None:
        if mutation is None:
            return self.runner.scorer(ruleset_id, options)
        merged = {**mutation.defaults, **(options or {}), **mutation.options}
        if not mutation.edits_spec or mutation.edit_is_defaults:
            # a reading, a context reading or an option's default: the ruleset's own scorer for those options
            try:
                return self.runner.scorer(ruleset_id, merged)
            except CaseError:
                return None
        key = (mutation.id, ruleset_id, tuple(sorted((k, repr(v)) for k, v in merged.items())))
        if key not in self._scorers:
            ruleset = self.ruleset(ruleset_id, mutation)
            self.builds += 1
            try:
                self._scorers[key] = Scorer(ruleset, merged) if ruleset is not None else None
            except (BindError, ValueError, KeyError, TypeError):
                self._scorers[key] = None
        return self._scorers[key]

    def ruleset(self, ruleset_id: str, mutation: Mutation) -> Ruleset | None:
        key = f"{ruleset_id}\x00{mutation.id}"
        if key not in self._rulesets:
            try:
                self._rulesets[key] = mutation.edit(self.runner.ruleset(ruleset_id))
            except (ValueError, KeyError, TypeError):
                self._rulesets[key] = None
        return self._rulesets[key]
