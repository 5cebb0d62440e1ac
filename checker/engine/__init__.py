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
from checker.spec import Ruleset, SpecError, SpecIssue, load_ruleset_file as _load_file, named_by_id, ruleset_path


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
    bind with default options. An id is never read as a path (see `load_ruleset_file`)."""
    return named_by_id(load_ruleset_file(ruleset_path(ruleset_id)), ruleset_id)


def load_ruleset_file(path: str | Path) -> Ruleset:
    """Load and fully validate the ruleset in a spec file named on the command line."""
    ruleset = _load_file(path, predicate_params())
    try:
        Scorer(ruleset)
    except ValueError as exc:  # a pattern's predicate parameters, or a hand check's (BindError names where)
        raise SpecError([SpecIssue(ruleset.path, getattr(exc, "pointer", "/patterns"), str(exc))]) from None
    return ruleset


__all__ = ["Hand", "HandError", "Meld", "parse_meld", "parse_meld_text", "Score", "Scorer", "FanLine", "score_hand",
           "load_ruleset", "load_ruleset_file", "Ruleset", "SpecError", "compiled"]
