"""The import structure keeps data flowing one way: no two of checker's packages (a subpackage, or a module of
checker's top level) import each other, nor tie into a longer loop, counting imports made inside functions too.
A new two-way tie fails here with the files that make it."""
from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

CHECKER = Path(__file__).resolve().parents[1] / "checker"


def _unit(module: str) -> str | None:
    """checker's package (or top-level module) a module name belongs to: checker.conform.runner -> checker.conform."""
    parts = module.split(".")
    return ".".join(parts[:2]) if parts[0] == "checker" and len(parts) >= 2 else None


def _imports() -> dict[str, dict[str, list[str]]]:
    """unit -> the units it imports -> the files that import them."""
    found: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for path in sorted(CHECKER.rglob("*.py")):
        parts = path.relative_to(CHECKER.parent).with_suffix("").parts
        source = _unit(".".join(parts))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            else:
                continue
            for name in names:
                target = _unit(name)
                if source and target and target != source:
                    found[source][target].append(str(path.relative_to(CHECKER.parent)))
    return found


def test_no_two_packages_of_checker_import_each_other():
    imports = _imports()
    ties = [(a, b, files, imports[b][a]) for a, targets in imports.items() for b, files in targets.items()
            if a < b and a in imports.get(b, {})]
    assert not ties, "two-way package ties: " + "; ".join(
        f"{a} -> {b} ({', '.join(sorted(set(fa))[:3])}) and back ({', '.join(sorted(set(fb))[:3])})"
        for a, b, fa, fb in ties)


def test_the_packages_of_checker_import_in_one_direction():
    # no loop of any length: a depth-first walk meets no unit still on its path
    imports = _imports()
    state: dict[str, int] = {}  # 1 on the path, 2 done

    def walk(unit: str, path: list[str]) -> list[str] | None:
        state[unit] = 1
        for target in sorted(imports.get(unit, {})):
            if state.get(target) == 1:
                return path + [unit, target]
            if target not in state:
                loop = walk(target, path + [unit])
                if loop:
                    return loop
        state[unit] = 2
        return None

    for unit in sorted(imports):
        if unit not in state:
            loop = walk(unit, [])
            assert loop is None, "an import loop: " + " -> ".join(loop)
