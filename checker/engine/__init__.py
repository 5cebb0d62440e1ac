"""The reference engine: load a ruleset with the engine's predicates and score hands under it."""
from __future__ import annotations

from pathlib import Path

from checker.engine.hand import Hand, HandError, Meld, parse_meld, parse_meld_text
from checker.engine.predicates import PREDICATES
from checker.engine.scoring import FanLine, Score, Scorer, score_hand
from checker.engine.checks import CHECKS
from checker.engine.shapes import SHAPES
from checker.engine.steps import STEPS
from checker.params import Params
from checker.spec import (Ruleset, SpecError, SpecIssue, SpecLines, given_rulesets, load_ruleset_file as _load_file,
                          named_by_id,
                          read_yaml, ruleset_path, value_key)


def compiled() -> bool:
    """Whether the engine runs as extension modules compiled by mypyc (a regular install, see setup.py)
    rather than as plain Python (an editable install, or MJCHECK_PURE=1)."""
    from checker.engine import scoring

    return not scoring.__file__.endswith(".py")


def predicate_params() -> dict[str, Params]:
    """Predicate and shape names a spec may use (steps as `step:NAME`, hand checks as `check:NAME`), with the
    parameters each accepts: each parameter's declared type, and those a spec must give (checker.params)."""
    names = {name: kind.params for name, kind in PREDICATES.items()}
    names.update({name: kind.params for name, kind in SHAPES.items()})
    names.update({f"step:{name}": params for name, (_, params) in STEPS.items()})
    names.update({f"check:{name}": params for name, (_, params) in CHECKS.items()})
    return names


def load_ruleset(ruleset_id: str) -> Ruleset:
    """Load and fully validate a shipped ruleset by its id (`mcr`): schema, references, predicates, and a
    bind with default options. An id is never read as a path (see `load_ruleset_file`); a ruleset given on the
    command line (checker.spec.rulesets_given) is the one loaded from its file then."""
    given = given_rulesets().get(ruleset_id)
    if given is not None:
        return given
    return named_by_id(load_ruleset_file(ruleset_path(ruleset_id)), ruleset_id)


def load_ruleset_file(path: str | Path) -> Ruleset:
    """Load and validate the ruleset in a spec file named on the command line: schema, references,
    predicates, and the binding step under the default options (`reading_issues` binds under every reading)."""
    ruleset = _load_file(path, predicate_params())
    try:
        Scorer(ruleset)
    except ValueError as exc:  # a pattern's predicate parameters, or a hand check's (BindError names where)
        raise SpecError([SpecIssue(ruleset.path, getattr(exc, "pointer", "/patterns"), str(exc))]) from None
    return ruleset


def readings(ruleset: Ruleset) -> list[dict]:
    """The readings a spec is bound under to be validated: the default options, then each other value of each
    option, one at a time."""
    return [{}] + [{oid: v} for oid, o in ruleset.options.items() for v in o.other_values()]


def reading_issues(ruleset: Ruleset) -> list[SpecIssue]:
    """What binding refuses of a loaded ruleset (`mjcheck spec validate`): the scorer, and with it the one binding
    step (checker.spec.bind: every section, the table's procedure among them), under each of `readings`; each
    problem once, naming the file, the field, its line and, when an option's value brings it, that value."""
    issues: list[SpecIssue] = []
    seen: set[tuple[str, str]] = set()
    lines: SpecLines | None = None
    for reading in readings(ruleset):
        try:
            Scorer(ruleset, reading)
        except ValueError as exc:  # BindError, ProcedureError: each names where (`pointer`)
            pointer = getattr(exc, "pointer", "/patterns")
            reason = getattr(exc, "reason", None) or str(exc)
            if (pointer, reason) in seen:
                continue
            seen.add((pointer, reason))
            if lines is None:
                try:
                    lines = read_yaml(ruleset.path)[1]
                except SpecError:  # a ruleset not read from a file: no line to give
                    lines = SpecLines({})
            under = "".join(f" (under {k}={value_key(v)})" for k, v in reading.items())
            issues.append(SpecIssue(ruleset.path, pointer, reason + under, lines.line(pointer)))
    return issues


__all__ = ["Hand", "HandError", "Meld", "parse_meld", "parse_meld_text", "Score", "Scorer", "FanLine", "score_hand",
           "load_ruleset", "load_ruleset_file", "reading_issues", "readings", "Ruleset", "SpecError", "compiled"]
