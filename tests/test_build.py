"""The install compiles the engine with mypyc (setup.py); an editable install runs the sources as they are."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

import checker
from checker.engine import compiled

SOURCES = Path(__file__).resolve().parent.parent / "checker"


def test_a_regular_install_runs_the_compiled_engine():
    if Path(checker.__file__).resolve().parent == SOURCES:
        pytest.skip("the tests import the sources (editable install or run from the source tree)")
    if os.environ.get("MJCHECK_PURE", "") not in ("", "0"):
        pytest.skip("MJCHECK_PURE is set: the install was asked not to compile")
    named = os.environ.get("CC")
    if not (shutil.which(named.split()[0]) if named else shutil.which("cc") or shutil.which("gcc")
            or shutil.which("clang")):
        pytest.skip("no C compiler here: setup.py installs the engine as plain Python")
    assert compiled(), f"installed at {checker.__file__} but the engine modules are plain Python"
    # every module setup.py lists is an extension module (tests/test_tiles.py, say, then runs the compiled one)
    import importlib
    import re

    listed = re.findall(r'"(checker/[\w/]+)\.py"', (SOURCES.parent / "setup.py").read_text(encoding="utf-8"))
    assert "checker/tiles" in listed and "checker/engine/scoring" in listed
    plain = [name for name in listed if importlib.import_module(name.replace("/", ".")).__file__.endswith(".py")]
    assert plain == [], f"listed in setup.py but installed as plain Python: {plain}"


def test_every_package_of_the_sources_is_installed():
    # pyproject.toml lists the packages a regular install ships; a package left out is missing from every
    # install but an editable one (the tests then fail only in CI).
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    project = tomllib.loads((SOURCES.parent / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(project["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(SOURCES.parent).parts) for p in SOURCES.rglob("__init__.py")}
    assert found <= listed, sorted(found - listed)


def test_the_documents_examples_and_corpora_ship_with_the_package():
    # the hunter reads the documents' examples and the checked-in corpora (checker.hunt.examples): an installed
    # mjcheck has them as checker/corpusdata, a checkout as corpus/
    from checker.spec import corpus_dir

    folder = corpus_dir()
    assert folder is not None
    assert {"mcr-examples.jsonl", "shanghai-examples.jsonl", "mcr.jsonl"} <= {p.name for p in folder.iterdir()}
