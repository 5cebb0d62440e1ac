"""Engines under test, behind one small interface (`checker.conform.engines` chooses one from `--engine`).

An engine is started (`start` gives its `EngineInfo`: name, version, the rulesets and case kinds it runs),
runs cases (`run` takes `(key, case)` pairs and yields `(key, Answer)` for every one of them, in any order)
and is stopped. In-process engines are plain functions from a case to a result in the `expect` shape:

- `reference`: this project's engine, through `checker.case.CaseRunner` (no second scorer);
- `pymahjonggb`: PyMahjongGB (`checker.conform.pymahjonggb`), MCR score cases only;
- `python:package.module:function`: a function of one's own.

`cmd:COMMAND` runs a subprocess speaking DESIGN.md's JSON-lines protocol (`checker.conform.process`).
"""
from __future__ import annotations

import importlib
import reprlib
import time
import traceback
from dataclasses import dataclass
from collections.abc import Mapping
from typing import Any, Callable, Iterable, Iterator, Protocol

import orjson

from checker.case import CaseError, CaseRunner
from checker.inputs import ANSWER_JSON, InputError, excerpt, parse_json
from checker.conform.compared import RULE_IDS, compared_expect, known_fields
from checker.spec import Ruleset, available_rulesets

Key = Any  # the runner's handle on a case; engines hand it back untouched


class EngineError(Exception):
    """An engine that cannot be used at all: an unknown --engine form, a module or command that does not
    load or start, a start reply outside the protocol. The run stops before any case (exit status 2)."""


@dataclass(frozen=True)
class EngineInfo:
    """What an engine says about itself; `rulesets` / `kinds` None: it takes every case. `fields`: the result
    fields it answers (None: all; checker.conform.compared); `own_rule_ids`: the rule ids it names in refusals
    are its own (compared by verdict, listed apart)."""

    name: str
    version: str
    rulesets: tuple[str, ...] | None = None
    kinds: tuple[str, ...] | None = None
    fields: tuple[str, ...] | None = None
    own_rule_ids: bool = False

    def refuses(self, case: Mapping[str, Any]) -> str | None:
        """Why this engine does not run `case` (its ruleset or kind is not listed), or None."""
        ruleset, kind = case.get("ruleset"), case.get("kind", "score")
        if self.rulesets is not None and ruleset not in self.rulesets:
            return f"the engine does not run ruleset {excerpt(ruleset)} (it lists {', '.join(self.rulesets) or 'none'})"
        if self.kinds is not None and kind not in self.kinds:
            return f"the engine does not run {excerpt(kind)} cases (it lists {', '.join(self.kinds) or 'none'})"
        return None

    def as_json(self) -> dict[str, Any]:
        return {"name": self.name, "version": self.version,
                "rulesets": None if self.rulesets is None else list(self.rulesets),
                "kinds": None if self.kinds is None else list(self.kinds),
                **({"fields": list(self.fields)} if self.fields is not None else {}),
                **({"rule_ids": "own"} if self.own_rule_ids else {})}

    def compared(self, expect: Any, kind: str) -> Any:
        """A case's expectation as this engine is judged on it (checker.conform.compared)."""
        return compared_expect(expect, kind, self.fields, self.own_rule_ids)


def modelled(reply: Mapping[str, Any], where: str) -> tuple[tuple[str, ...] | None, bool]:
    """The `fields` and `rule_ids` of a start reply (or a python: engine's MJCHECK_ENGINE), checked: ValueError
    naming what is wrong (`where` says whose)."""
    fields = reply.get("fields")
    if fields is not None:
        known = known_fields()
        if not isinstance(fields, list) or not all(isinstance(f, str) for f in fields):
            raise ValueError(f"{where}: fields is a list of result field names ({', '.join(known)})")
        unknown = [f for f in fields if f not in known]
        if unknown:
            raise ValueError(f"{where}: fields names {excerpt(unknown[0])}, not a result field ({', '.join(known)})")
    rule_ids = reply.get("rule_ids", "spec")
    if rule_ids not in RULE_IDS:
        raise ValueError(f"{where}: rule_ids is \"spec\" (the spec's rule ids, the default) or \"own\" (the "
                         f"engine's own), not {excerpt(rule_ids)}")
    return (tuple(dict.fromkeys(fields)) if fields is not None else None), rule_ids == "own"


@dataclass(slots=True)
class Answer:
    """An engine's answer to one case: its result, or why there is none (the case is then `errored`). Read-only
    by convention (not frozen, as checker.case.CaseLine: one is made for every case)."""

    result: Mapping[str, Any] | None = None
    error: str | None = None
    skip: str | None = None  # the engine skips this case on purpose, for this reason (`{"skip": "…"}`)
    seconds: float | None = None  # how long the engine took over it (None: not measured)


class Engine(Protocol):
    def start(self) -> EngineInfo: ...

    def run(self, cases: Iterable[tuple[Key, Mapping[str, Any]]]) -> Iterator[tuple[Key, Answer]]: ...

    def stop(self) -> None: ...


class InProcessEngine:
    """A function from a case to a result, run in the runner's own process. An exception it raises (SystemExit
    too: only Ctrl-C stops the run), or a return value that is not a JSON object, makes that case `errored`.
    (--timeout cannot stop a function running in this process; it applies to `cmd:` engines.)
    `forks_unasked`: an engine of this project's own, which `--jobs auto` may fork (a `python:` function's
    code was not written to be forked unasked). `trusted`: its results are this project's own; any other
    engine's result is written as JSON and read back by the bounded reader (checker.inputs.ANSWER_JSON), so it
    reaches the judge as a `cmd:` engine's would: plain JSON, within the same limits (a value JSON cannot hold,
    a structure that contains itself or nests too deeply makes the case `errored`)."""

    def __init__(self, function: Callable[[Mapping[str, Any]], Any], info: EngineInfo, forks_unasked: bool = False,
                 trusted: bool = False):
        self._function, self.info, self.forks_unasked, self.trusted = function, info, forks_unasked, trusted

    def start(self) -> EngineInfo:
        return self.info

    def run(self, cases: Iterable[tuple[Key, Mapping[str, Any]]]) -> Iterator[tuple[Key, Answer]]:
        for key, case in cases:
            yield key, self._answer(case)

    def _answer(self, case: Mapping[str, Any]) -> Answer:
        started = time.perf_counter()
        answer = self._call(case)
        answer.seconds = time.perf_counter() - started
        return answer

    def _call(self, case: Mapping[str, Any]) -> Answer:
        try:
            # an engine of one's own gets a copy: one that edits its case (case.pop("expect")) edits nothing the
            # run reads afterwards
            result = self._function(case if self.trusted else orjson.loads(orjson.dumps(case)))
        except CaseError as exc:
            return Answer(error=f"the engine cannot run this case: {_words(exc)} [{exc.rule}]")
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # the engine under test failed on this case (SystemExit too); the run goes on
            where = traceback.extract_tb(exc.__traceback__)[-1]
            return Answer(error=f"raised {type(exc).__name__}: {excerpt(_words(exc), 200)} "
                                f"(at {where.filename.rsplit('/', 1)[-1]}:{where.lineno})")
        if self.trusted:
            return Answer(result=result)
        return plain_answer(result)

    def stop(self) -> None:
        return None


def _words(exc: BaseException) -> str:
    """An exception's message, or what can be said of it when its own `__str__` fails too."""
    try:
        return str(exc)
    except BaseException as inner:  # (an engine's exception class is the engine's code: anything may happen)
        if isinstance(inner, KeyboardInterrupt):
            raise
        return f"(its message cannot be read: {type(inner).__name__} in its __str__)"


def plain_answer(result: Any) -> Answer:
    """An in-process engine's return value as the plain JSON object a `cmd:` engine would have sent, read
    back within ANSWER_JSON's limits; else the reason it is not one."""
    try:
        data = orjson.dumps(result)
    except (TypeError, ValueError, RecursionError) as exc:
        return Answer(error=f"returned a value JSON cannot hold ({excerpt(str(exc), 120)}): {_shown(result)}")
    try:
        value = parse_json(data.decode("utf-8"), "the engine's result", limits=ANSWER_JSON)
    except (InputError, UnicodeDecodeError) as exc:
        return Answer(error=f"returned a result the tool does not read: {getattr(exc, 'reason', exc)}")
    if not isinstance(value, dict):
        return Answer(error=f"returned {excerpt(value)}, not a result object")
    return skipped(value) or Answer(result=value)


def skipped(message: Mapping[str, Any]) -> Answer | None:
    """The engine's skip (`{"skip": "reason"}`, beside nothing but an `id` or a `message`), or None; a skip whose
    reason is not a text of 1 to 300 characters is an error, never a skip."""
    if "skip" not in message:
        return None
    reason = message["skip"]
    if not isinstance(reason, str) or not reason.strip() or len(reason) > 300:
        return Answer(error=f"a skip whose reason is not a text of 1 to 300 characters: {excerpt(reason)}")
    others = set(message) - {"skip", "id", "message"}
    if others:
        return Answer(error=f"a skip beside other fields ({', '.join(sorted(map(str, others)))}): a case is "
                            f"answered or skipped, not both")
    return Answer(skip=reason.strip())


def _shown(value: Any) -> str:
    """A short look at a value of any kind (repr may recurse or fail on a hostile object)."""
    try:
        return excerpt(reprlib.repr(value))
    except Exception:  # a repr that fails tells nothing more
        return f"a {type(value).__name__}"


def reference_engine(extra: Mapping[str, Ruleset] | None = None) -> InProcessEngine:
    """This project's reference engine, in process, through CaseRunner (score cases of every known ruleset)."""
    runner = CaseRunner(extra)
    rulesets = tuple(sorted(set(available_rulesets()) | set(extra or {})))
    info = EngineInfo("mjcheck reference engine", _version(), rulesets, ("score", "procedure"))
    return InProcessEngine(runner.run, info, forks_unasked=True, trusted=True)


def python_engine(target: str) -> InProcessEngine:
    """`package.module:function`, imported; the function takes a case dict and returns a result dict."""
    module_name, _, function_name = target.partition(":")
    if not module_name or not function_name or ":" in function_name:
        raise EngineError(f"python:{excerpt(target)}: write python:package.module:function")
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:  # any import failure of the user's module is bad input, reported with its reason
        raise EngineError(f"python:{excerpt(target)}: cannot import {excerpt(module_name)}: "
                          f"{type(exc).__name__}: {excerpt(str(exc), 200)}") from None
    function = getattr(module, function_name, None)
    if not callable(function):
        raise EngineError(f"python:{excerpt(target)}: module {excerpt(module_name)} has no function "
                          f"{excerpt(function_name)}")
    version = getattr(module, "__version__", None)
    declared = getattr(module, "MJCHECK_ENGINE", None) or {}
    try:
        if not isinstance(declared, Mapping):
            raise ValueError(f"MJCHECK_ENGINE is a dict, as a start reply's fields and rule_ids")
        fields, own = modelled(declared, f"python:{excerpt(target)}: MJCHECK_ENGINE")
    except ValueError as exc:
        raise EngineError(str(exc)) from None
    return InProcessEngine(function, EngineInfo(f"python:{target}", str(version) if version else "unknown",
                                                fields=fields, own_rule_ids=own))


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("mjcheck")
    except PackageNotFoundError:
        return "unknown"
