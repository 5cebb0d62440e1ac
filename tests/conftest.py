"""Shared fixtures: the MCR ruleset and a scorer bound to its default options, and the headless browser the HTML
pages' tests open them in (Debian's chromium driven by Playwright; `browser_test` skips a test without them). The
suite keeps its parsed specs (checker.parse_cache) in a directory of its own, removed at the end, never in the
user's cache."""
from __future__ import annotations

import importlib.util
import os
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import pytest

if "MJCHECK_CACHE_DIR" not in os.environ:  # before any spec is read; the suite's subprocesses inherit it
    os.environ["MJCHECK_CACHE_DIR"] = _SUITE_CACHE = tempfile.mkdtemp(prefix="mjcheck-test-cache-")
else:
    _SUITE_CACHE = ""


def pytest_sessionfinish(session, exitstatus):
    if _SUITE_CACHE:
        shutil.rmtree(_SUITE_CACHE, ignore_errors=True)

from checker.engine import Scorer, load_ruleset

from typer.testing import CliRunner  # noqa: E402

_invoke = CliRunner.invoke


def _invoke_failing_on_a_crash(self, *args, **kwargs):
    """`CliRunner.invoke`, except that a command that raised (anything but the exit it chose) fails the test: a
    crash exits 1 too, the status of a run whose engine departs, so a test asserting that status alone would pass
    on a crash."""
    result = _invoke(self, *args, **kwargs)
    exc = result.exception
    if exc is not None and not isinstance(exc, SystemExit):
        import traceback
        shown = "".join(traceback.format_exception(*result.exc_info)) if result.exc_info else repr(exc)
        pytest.fail(f"the command raised {type(exc).__name__}:\n{shown[-4000:]}")
    return result


CliRunner.invoke = _invoke_failing_on_a_crash  # type: ignore[method-assign]


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


# ------------------------------------------------------------------ the headless browser (HTML pages' tests)

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def browser_missing() -> str | None:
    """Why the browser tests cannot run (chromium or Playwright missing), or None."""
    if not (os.path.exists(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        return f"{CHROMIUM} is not installed (apt-get install chromium)"
    if importlib.util.find_spec("playwright") is None:
        return "playwright is not installed (pip install '.[test]')"
    return None


browser_test = pytest.mark.skipif(browser_missing() is not None, reason=str(browser_missing()))


@pytest.fixture(scope="module")
def browser():
    """Headless chromium, one for a test module."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@contextmanager
def opened(browser: Any, path: Path, width: int, query: str = "") -> Iterator[Any]:
    """A page file open at `width` pixels; on leaving, asserts it made no console error, page error or request
    other than for the file itself."""
    context = browser.new_context(viewport={"width": width, "height": 800})
    p = context.new_page()
    problems: list[str] = []
    p.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
    p.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    p.on("request", lambda r: problems.append(f"request: {r.url}") if not r.url.startswith("file:") else None)
    p.goto(path.as_uri() + query)
    try:
        yield p
    finally:
        context.close()
    assert problems == []


def no_sideways_scroll(p: Any) -> None:
    """The page's body does not scroll sideways at the page's width (a wide table scrolls in its own box)."""
    widths = p.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.clientWidth,"
                        " document.body.scrollWidth]")
    assert widths[0] <= widths[1] and widths[2] <= widths[1], widths
