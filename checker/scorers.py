"""The rulesets and bound scorers one process uses, each loaded and bound once: what running a case and
replaying a hand of play (checker.table.log) both start from."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from checker.engine import Scorer, load_ruleset
from checker.inputs import excerpt
from checker.spec import Ruleset, SpecError, available_rulesets


class CaseError(ValueError):
    """A case that cannot be run: an unknown ruleset or option, or a kind the scorer does not run. Like
    HandError it carries the `rule` or input id it breaks. (Not a subclass of HandError: the engine's classes
    are compiled and cannot be subclassed by interpreted code.)"""

    def __init__(self, message: str, rule: str = "input.case"):
        super().__init__(message)
        self.rule = rule

    def __reduce__(self) -> tuple:
        """Pickled with its rule (an error raised in a worker process reaches the parent whole)."""
        return (type(self), (str(self), self.rule))


MAX_OPTION_ORDERS: Final = 4096  # option sets as written kept for a quick lookup (beyond: resolved each time)


class Scorers:
    """One bound scorer per (ruleset, options). A ruleset is named by id: a shipped one (or one of
    MJCHECK_SPEC_PATH's), or one of `extra` (spec files the user loaded from the command line), never a path."""

    def __init__(self, extra: Mapping[str, Ruleset] | None = None):
        self._rulesets: dict[str, Ruleset] = dict(extra or {})
        self._scorers: dict[tuple, Scorer] = {}

    def ruleset(self, ruleset_id: str) -> Ruleset:
        if ruleset_id not in self._rulesets:
            if ruleset_id not in available_rulesets():
                known = ", ".join(sorted(set(available_rulesets()) | set(self._rulesets)))
                raise CaseError(f"unknown ruleset {excerpt(ruleset_id)}; known rulesets: {known} (a case names its "
                                f"ruleset by id; load a spec file of your own with --ruleset-file)", "input.ruleset")
            try:
                self._rulesets[ruleset_id] = load_ruleset(ruleset_id)
            except SpecError as exc:
                raise CaseError(str(exc), "input.ruleset") from None
        return self._rulesets[ruleset_id]

    def scorer(self, ruleset_id: str, options: Mapping[str, Any] | None) -> Scorer:
        """The scorer of a ruleset under options (None: its defaults), made once per set of option values: the
        same object for every way of writing them (in any order, a default given or left out). Found by the
        options as written (a case's options, in its own order), else by the values they resolve to."""
        # each value with its type: true == 1 == 1.0 in Python, but 1 is no value of a true/false option
        as_written = (ruleset_id, tuple((k, v, type(v)) for k, v in options.items()) if options else ())
        found = self._scorers.get(as_written)
        if found is not None:
            return found
        try:
            ruleset = self.ruleset(ruleset_id)
            resolved = (ruleset_id, tuple(sorted(ruleset.resolve_options(options).items())))
            found = self._scorers.get(resolved)
            if found is None:
                found = self._scorers[resolved] = Scorer(ruleset, options)
        except ValueError as exc:
            if isinstance(exc, CaseError):
                raise
            raise CaseError(str(exc), "input.options") from None
        if len(self._scorers) < MAX_OPTION_ORDERS:
            self._scorers[as_written] = found
        return found
