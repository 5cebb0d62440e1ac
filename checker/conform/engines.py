"""The engine an `--engine` value names: the in-process engines of `checker.conform.adapters`, PyMahjongGB
(`checker.conform.pymahjonggb`) or a subprocess speaking DESIGN.md's protocol (`checker.conform.process`)."""
from __future__ import annotations

from collections.abc import Mapping

from checker.conform.adapters import Engine, EngineError, python_engine, reference_engine
from checker.conform.process import SubprocessEngine
from checker.inputs import excerpt
from checker.spec import Ruleset


def engine_from_spec(spec: str, extra: Mapping[str, Ruleset] | None = None, timeout: float = 10.0) -> Engine:
    """The engine an --engine value names: `reference`, `pymahjonggb`, `python:MODULE:FUNCTION` or
    `cmd:COMMAND`; EngineError for anything else."""
    if spec == "reference":
        return reference_engine(extra)
    if spec == "pymahjonggb":
        from checker.conform.pymahjonggb import pymahjonggb_engine  # imports PyMahjongGB, an optional dependency

        return pymahjonggb_engine(extra)
    if spec.startswith("python:"):
        return python_engine(spec[len("python:"):])
    if spec.startswith("cmd:"):
        return SubprocessEngine(spec[len("cmd:"):], timeout)
    raise EngineError(f"unknown engine {excerpt(spec)}: give reference, pymahjonggb, python:package.module:function "
                      f"or cmd:\"COMMAND\"")
