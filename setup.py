"""Build hook: compile the reference engine's hot path with mypyc.

The Python sources stay the only source of truth: mypyc compiles the same type-checked modules to C
extensions, which import in their place. The package metadata lives in pyproject.toml.

The engine runs as plain Python (nothing is compiled) when
- the install is editable (`pip install -e .`): edits to the sources take effect at once;
- MJCHECK_PURE=1 is set in the environment;
- no C compiler is found (the one CC names, else cc, gcc or clang on the PATH): the install goes on as plain
  Python and says so.
"""
from __future__ import annotations

import glob
import os
import shutil
import sys

from setuptools import setup

# The modules that run for every hand scored or played, and for every case read and run (checker.inputs,
# checker.scorers, checker.case). checker.spec and checker.cli (loading, printing) stay Python.
COMPILED = [
    "checker/tiles.py",
    "checker/inputs.py",
    "checker/scorers.py",
    "checker/case.py",
    "checker/engine/hand.py",
    "checker/engine/shapes.py",
    "checker/engine/interpretation.py",
    "checker/engine/selection.py",
    "checker/engine/steps.py",
    "checker/engine/checks.py",
    "checker/engine/settlement.py",
    "checker/engine/scoring.py",
    "checker/engine/results.py",
    "checker/engine/exclusions.py",
    "checker/engine/batch.py",
    "checker/engine/binding.py",
    "checker/engine/predicates/registry.py",
    "checker/engine/predicates/combinations.py",
    "checker/engine/predicates/context.py",
    "checker/engine/predicates/honors.py",
    "checker/engine/predicates/structure.py",
    "checker/engine/predicates/tile_classes.py",
    # the table procedure: every move of a simulated hand runs through these
    "checker/table/events.py",
    "checker/table/hands.py",
    "checker/table/board.py",
    "checker/table/winning.py",
    "checker/table/claims.py",
    "checker/table/state.py",
    "checker/table/bots.py",
]


def _c_compiler() -> str | None:
    named = os.environ.get("CC")
    if named:
        return shutil.which(named.split()[0])
    return shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")


def _compile() -> bool:
    if os.environ.get("MJCHECK_PURE", "") not in ("", "0"):
        return False
    editable = any(arg in ("editable_wheel", "develop") for arg in sys.argv)
    wheel = any(arg in ("bdist_wheel", "build_ext", "build") for arg in sys.argv)
    if not wheel or editable:
        return False
    if _c_compiler() is None:
        print("mjcheck: no C compiler found (set CC to name one): installing the engine as plain Python",
              file=sys.stderr)
        return False
    return True


ext_modules = []
if _compile():
    from mypyc.build import mypycify

    # A module dropped from COMPILED must not ship as a stale extension left in an earlier build's tree.
    for stale in glob.glob(os.path.join("build", "lib*", "checker")):
        shutil.rmtree(stale)
    ext_modules = mypycify(COMPILED, opt_level="3")

setup(ext_modules=ext_modules)
