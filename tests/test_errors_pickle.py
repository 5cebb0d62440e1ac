"""Every error class of the project survives pickling whole: an error raised in a worker process (the hunt's
settlement model, the sweep's Dask workers, conformance's engine processes) reaches the parent with its message
and its fields (the rule, the file and line, the JSON pointer), not rebuilt from its message alone."""
from __future__ import annotations

import importlib
import inspect
import pickle
import pkgutil

import pytest

import checker
from checker.spec import SpecError, SpecIssue


def _error_classes() -> list[type[BaseException]]:
    found = []
    for info in pkgutil.walk_packages(checker.__path__, "checker."):
        if info.name == "checker.pytest_plugin":
            continue
        module = importlib.import_module(info.name)
        found += [cls for cls in vars(module).values() if inspect.isclass(cls) and issubclass(cls, BaseException)
                  and cls.__module__ == module.__name__]
    return sorted(found, key=lambda c: f"{c.__module__}.{c.__name__}")


def _made(cls: type[BaseException]) -> BaseException:
    """An instance with a distinct value in every parameter, keyword-only ones too."""
    args, keywords = [], {}
    for n, p in enumerate(list(inspect.signature(cls.__init__).parameters.values())[1:]):
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        value = [SpecIssue("f.yaml", "/x", "why", 3)] if p.name == "issues" else (n + 2 if p.name in (
            "line", "position") else f"{p.name}-{n}")
        if p.kind == p.KEYWORD_ONLY:
            keywords[p.name] = value
        else:
            args.append(value)
    return cls(*args, **keywords)


class WithARule(ValueError):
    """An error of the kind the check guards against: a second required field, no __reduce__."""

    def __init__(self, message: str, rule: str):
        super().__init__(message)
        self.rule = rule


@pytest.mark.parametrize("cls", _error_classes(), ids=lambda c: f"{c.__module__}.{c.__name__}")
def test_an_error_survives_pickling_with_its_fields(cls):
    error = _made(cls)
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is cls and str(again) == str(error)
    assert getattr(again, "__dict__", {}) == getattr(error, "__dict__", {})


def test_the_walk_finds_the_errors_that_carry_fields():
    names = {c.__name__ for c in _error_classes()}
    assert {"SpecError", "BindError", "InputError", "HandError", "TileError", "OwnedFileError"} <= names
    # and the check can fail: an error with a second required field and no __reduce__ is rebuilt from its
    # message alone, which its __init__ refuses
    with pytest.raises(TypeError):
        pickle.loads(pickle.dumps(WithARule("message", "rule")))
    assert pickle.loads(pickle.dumps(SpecError([SpecIssue("f.yaml", "/x", "why", 3)]))).issues == (
        SpecIssue("f.yaml", "/x", "why", 3),)
