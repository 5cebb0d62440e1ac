"""Conformance: run a corpus of cases on an engine under test and report where it departs from the rules.

`adapters` (the engine interface; reference, python: and the choice from --engine), `pymahjonggb` (the
PyMahjongGB adapter), `process` (cmd: engines over the JSON-lines protocol), `results` (result lines and the
results file), `stream` (the results read again, a case at a time, for the reports), `diff` (the fan diff),
`report` (summary.json and report.md), `runner` (the run itself).
Uses checker.case and checker.engine only.
"""
from checker.conform.adapters import Answer, Engine, EngineError, EngineInfo
from checker.conform.engines import engine_from_spec
from checker.conform.results import CaseResult, read_results
from checker.conform.runner import ConformRun, run_conformance

__all__ = ["Answer", "Engine", "EngineError", "EngineInfo", "engine_from_spec", "CaseResult", "read_results",
           "ConformRun", "run_conformance"]
