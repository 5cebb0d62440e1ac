"""Shared fixtures: the MCR ruleset and a scorer bound to its default options. The suite keeps its parsed
specs (checker.parse_cache) in a directory of its own, removed at the end, never in the user's cache."""
from __future__ import annotations

import os
import shutil
import tempfile

import pytest

if "MJCHECK_CACHE_DIR" not in os.environ:  # before any spec is read; the suite's subprocesses inherit it
    os.environ["MJCHECK_CACHE_DIR"] = _SUITE_CACHE = tempfile.mkdtemp(prefix="mjcheck-test-cache-")
else:
    _SUITE_CACHE = ""


def pytest_sessionfinish(session, exitstatus):
    if _SUITE_CACHE:
        shutil.rmtree(_SUITE_CACHE, ignore_errors=True)

from checker.engine import Scorer, load_ruleset


@pytest.fixture(scope="session")
def mcr_ruleset():
    return load_ruleset("mcr")


@pytest.fixture(scope="session")
def mcr(mcr_ruleset):
    return Scorer(mcr_ruleset)


@pytest.fixture(scope="session")
def knocking_ruleset():
    return load_ruleset("shanghai-knocking")


@pytest.fixture(scope="session")
def knocking(knocking_ruleset):
    return Scorer(knocking_ruleset)


@pytest.fixture(scope="session")
def classic_ruleset():
    return load_ruleset("shanghai-classic")


@pytest.fixture(scope="session")
def classic(classic_ruleset):
    return Scorer(classic_ruleset)


def fuzz_factor() -> int:
    """How many times the default number of examples the fuzz and property tests run: MJCHECK_FUZZ_EXAMPLES."""
    raw = os.environ.get("MJCHECK_FUZZ_EXAMPLES", "").strip()
    if not raw:
        return 1
    try:
        return max(1, int(raw))
    except ValueError:
        raise RuntimeError(f"MJCHECK_FUZZ_EXAMPLES must be a whole number, not {raw!r}") from None
