"""Every error class of the project survives pickling whole: an error raised in a worker process (the hunt's
settlement model, the sweep's Dask workers, conformance's engine processes) reaches the parent with its message
and its fields (the rule, the file and line, the JSON pointer), not rebuilt from its message alone (which loses
a field that has a default, and fails for one that has none)."""
from __future__ import annotations

import importlib
import inspect
import pickle
import pkgutil

import pytest

import checker
from checker.conform.process import _Broken
from checker.engine.hand import HandError
from checker.files import OwnedFileError
from checker.inputs import InputError
from checker.scorers import CaseError
from checker.spec import SpecError, SpecIssue
from checker.spec.bind import BindError
from checker.spec.procedure import ProcedureError
from checker.table.events import LogError
from checker.tiles import TileError

# each error class with fields beyond its message, made with every field given a value other than its default
WITH_FIELDS = {
    SpecError: SpecError([SpecIssue("f.yaml", "/x", "why", 3), SpecIssue("f.yaml", "/y", "also", 4)]),
    BindError: BindError("/patterns/2/points: 7.5 is not a whole number", "/patterns/2/points", "7.5 is not …"),
    ProcedureError: ProcedureError("procedure/knock: no", "/procedure/knock", "no"),
    InputError: InputError("read", "cases.jsonl", "too long", 3, "corpus"),
    OwnedFileError: OwnedFileError("reports/x.json", "a link"),
    TileError: TileError("unknown tile '9x'", token="9x", position=2, text="1m9x"),
    HandError: HandError("a hand has 14 tiles", "tiles.hand_size"),
    LogError: LogError("not an event", "input.header"),
    CaseError: CaseError("no such ruleset", "input.case.ruleset"),
    _Broken: _Broken("the engine hung", True),
}


def _error_classes() -> list[type[BaseException]]:
    found = []
    for info in pkgutil.walk_packages(checker.__path__, "checker."):
        if info.name == "checker.pytest_plugin":
            continue
        module = importlib.import_module(info.name)
        found += [cls for cls in vars(module).values() if inspect.isclass(cls) and issubclass(cls, BaseException)
                  and cls.__module__ == module.__name__]
    return sorted(found, key=lambda c: f"{c.__module__}.{c.__name__}")


def _fields(error: BaseException) -> dict:
    """The error's own fields (what dir() lists beyond an exception's methods; an OSError's unset ones left out)."""
    out = {}
    for name in dir(error):
        if name.startswith("_") or name in ("args", "with_traceback", "add_note"):
            continue
        try:
            out[name] = getattr(error, name)
        except AttributeError:  # OSError.characters_written, unset
            continue
    return out


@pytest.mark.parametrize("cls", _error_classes(), ids=lambda c: f"{c.__module__}.{c.__name__}")
def test_an_error_survives_pickling_with_its_fields(cls):
    # an error class with an __init__ of its own has fields: it must be among WITH_FIELDS; any other is made
    # from a message alone
    assert "__init__" not in vars(cls) or cls in WITH_FIELDS, f"{cls.__name__}: add an example with its fields"
    error = WITH_FIELDS.get(cls) or cls("a message")
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is cls and str(again) == str(error)
    assert _fields(again) == _fields(error)


class WithARule(ValueError):
    """An error of the kind the check guards against: a second field its __init__ requires, no __reduce__
    (rebuilt from its message alone, it cannot be made). A compiled class with a defaulted field fails the same
    check by losing the field: mypyc's classes keep no __dict__ for pickling to carry."""

    def __init__(self, message: str, rule: str):
        super().__init__(message)
        self.rule = rule


def test_the_check_fails_on_an_error_that_cannot_be_rebuilt():
    with pytest.raises(TypeError):
        pickle.loads(pickle.dumps(WithARule("message", "tiles.hand_size")))
    assert {HandError, SpecError, InputError, TileError} <= set(_error_classes())
