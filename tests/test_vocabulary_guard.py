"""No shipped ruleset's own word in the tools (issue: rules bound by role, not by name).

A ruleset names its options, flags and counters as it likes; the tools outside the spec layer (checker/spec) must
read them through the spec (the roles of checker.spec.roles, a step's parameters, a procedure field's deciding
option), never by the words the shipped three happen to use. So no string constant in checker/ outside checker/spec
(and the PyMahjongGB adapter and the Botzone match format, which speak one MCR program's words) may equal:

- a shipped ruleset's id;
- an option id, a flag or a counter name of a shipped ruleset, unless the word is also the tools' own: a word of
  the spec schema (a `table_context` fact such as `knocked`, a procedure field such as `dead_wall_tiles`, a payment
  term such as `base`), a name or parameter of the engine's predicates, shapes, steps and hand checks
  (`held_four_is_a_wait`), or one of OWN_WORDS below, each with why it is the tools' word.

Even such a shared word may never be looked up among a hand's flags or counters (`"knocked" in hand.flags`,
`counters.get("huangfan")`): that is reading a ruleset's name, whatever else the word means.
"""
from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from checker.engine import predicate_params
from checker.spec import load_ruleset

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ("mcr", "shanghai-classic", "shanghai-knocking")
# modules that may speak a ruleset's words: the spec layer itself, the adapter of one MCR engine, and the match
# format of one MCR game judge (it names the ruleset and the readings that judge plays)
EXEMPT = ("checker/spec/", "checker/conform/pymahjonggb.py", "checker/matchlog/botzone.py")
# the tools' own words that a shipped ruleset also uses as a name, with what they mean to the tools
OWN_WORDS = {
    "single_hand_limit": "a boundary target of the corpus generator (the outer limit step's, where it bounds "
                         "each share), named so in the case ids it makes (…-boundary-single-hand-limit-above)",
}


def _spec_words() -> dict[str, set[str]]:
    words: dict[str, set[str]] = {}
    for rid in SHIPPED:
        rs = load_ruleset(rid)
        words.setdefault(rid, set()).add("ruleset id")
        for kind, names in (("option", rs.options), ("flag", rs.flags), ("counter", rs.counters)):
            for name in names:
                words.setdefault(name, set()).add(f"{rid} {kind}")
    return words


def _contract_words() -> set[str]:
    """The schema's property names and enumerated values, and the engine's declared names and parameters."""
    out: set[str] = set()

    def walk(node: object) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "properties" and isinstance(value, dict):
                    out.update(value)
                if key == "enum" and isinstance(value, list):
                    out.update(v for v in value if isinstance(v, str))
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for path in sorted((ROOT / "spec" / "schema").glob("*.json")):
        walk(json.loads(path.read_text(encoding="utf-8")))
    for name, params in predicate_params().items():
        out.add(name.split(":", 1)[-1])
        out.update(params)
    return out


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the constants that are docstrings (words about the code, not in it)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first.value))
    return out


def _mentions_context(node: ast.AST) -> bool:
    """Whether an expression reads a hand's flags or counters (a name or attribute `flags` / `counters`)."""
    for sub in ast.walk(node):
        name = sub.attr if isinstance(sub, ast.Attribute) else sub.id if isinstance(sub, ast.Name) else None
        if name in ("flags", "counters"):
            return True
    return False


def _context_lookups(tree: ast.AST) -> set[int]:
    """The ids of the string constants a hand's flags or counters are searched for: `"x" in flags`,
    `counters["x"]`, `counters.get("x")`."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and any(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops):
            if isinstance(node.left, ast.Constant) and any(_mentions_context(c) for c in node.comparators):
                out.add(id(node.left))
        elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and _mentions_context(node.value):
            out.add(id(node.slice))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" \
                and node.args and isinstance(node.args[0], ast.Constant) and _mentions_context(node.func.value):
            out.add(id(node.args[0]))
    return out


def offences(source: str, where: str, spec_words: dict[str, set[str]], contract: set[str]) -> list[str]:
    """What in one module's source breaks the rule above, each as `where:line: 'word' (what it is)`."""
    tree = ast.parse(source)
    docs, lookups = _docstrings(tree), _context_lookups(tree)
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Constant) and isinstance(node.value, str)) or id(node) in docs:
            continue
        kinds = spec_words.get(node.value)
        if not kinds:
            continue
        shared = node.value in contract or node.value in OWN_WORDS
        if "ruleset id" in kinds or not shared or id(node) in lookups:
            why = "looked up among a hand's flags or counters" if shared and id(node) in lookups else \
                ", ".join(sorted(kinds))
            found.append(f"{where}:{node.lineno}: {node.value!r} ({why})")
    return found


def _modules() -> list[Path]:
    return [p for p in sorted((ROOT / "checker").rglob("*.py"))
            if not any(p.relative_to(ROOT).as_posix().startswith(e) for e in EXEMPT)]


def test_no_shipped_ruleset_word_is_written_in_the_tools():
    spec_words, contract = _spec_words(), _contract_words()
    found = [o for p in _modules()
             for o in offences(p.read_text(encoding="utf-8"), p.relative_to(ROOT).as_posix(), spec_words, contract)]
    assert not found, "read these through the spec (checker.spec.roles, a step's or a field's own parameter):\n" + \
        "\n".join(found)


def test_every_own_word_is_still_a_shipped_name_and_not_a_contract_word():
    """An entry of OWN_WORDS that no shipped ruleset uses any more, or that the schema now defines, is stale."""
    spec_words, contract = _spec_words(), _contract_words()
    assert all(w in spec_words and w not in contract for w in OWN_WORDS)


@pytest.mark.parametrize("source,expected", [
    # a ruleset id, even in a plain assignment
    ('DEFAULT = "shanghai-knocking"\n', ["m.py:1: 'shanghai-knocking' (ruleset id)"]),
    # a flag looked up by name, though `knocked` is also a table_context fact of the schema
    ('def f(hand):\n    return "knocked" in hand.flags\n', ["m.py:2: 'knocked' (looked up among a hand's flags or counters)"]),
    ('def f(data):\n    return data["counters"].get("huangfan", 0)\n', ["m.py:2: 'huangfan' (shanghai-classic counter)"]),
    ('def f(c):\n    return c.counters["contract_with"]\n', ["m.py:2: 'contract_with' (shanghai-classic counter)"]),
    # an option id
    ('X = {"lou_hu_later_copy": 1}\n', ["m.py:1: 'lou_hu_later_copy' (shanghai-classic option)"]),
    # the tools' own words: a table_context fact asked of the table, a step parameter, a docstring
    ('def f(seen):\n    seen("knocked")\n', []),
    ('def f(params):\n    return params["base"]\n', []),
    ('def f():\n    """Reads huangfan."""\n', []),
])
def test_the_guard_names_what_it_should_and_nothing_else(source, expected):
    # each expectation read off the rule in the module docstring: the guard must fail on these, so it can fail
    assert offences(source, "m.py", _spec_words(), _contract_words()) == expected
