"""The case schema's fast acceptance check (fastjsonschema, compiled from the schema) agrees with jsonschema,
the authority, on every case: the corpora's, and cases mutated from them in every field."""
from __future__ import annotations

import copy
import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from checker.case import _case_accepts, _case_validator

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
CASES = [json.loads(line) for path in sorted(CORPUS.glob("*.jsonl"))
         for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]

# Values of every JSON type, including the ones the schema refuses in most places.
VALUES = st.one_of(st.none(), st.booleans(), st.integers(-5, 10), st.integers(10 ** 6, 10 ** 20),
                   st.text(max_size=6), st.sampled_from(["mcr", "score", "procedure", "1m2m3m", "chow", "E", "X",
                                                         "self_draw", "robbing_kong", "../etc/passwd", "x" * 300]),
                   st.lists(st.integers(0, 3), max_size=3), st.dictionaries(st.text(max_size=3), st.integers(),
                                                                            max_size=2))


def paths(node, prefix=()):
    """Every path to a value inside a case (keys and indices)."""
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from paths(v, prefix + (i,))


def jsonschema_accepts(case) -> bool:
    return not any(True for _ in _case_validator().iter_errors(case))


def test_every_corpus_case_is_accepted_by_both():
    assert CASES and all(_case_accepts(c) and jsonschema_accepts(c) for c in CASES)


@settings(max_examples=400, deadline=None, derandomize=True)
@given(st.data())
def test_the_fast_check_agrees_with_jsonschema_on_mutated_cases(data):
    case = copy.deepcopy(data.draw(st.sampled_from(CASES)))
    for _ in range(data.draw(st.integers(1, 3))):
        where = data.draw(st.sampled_from(list(paths(case))))
        action = data.draw(st.sampled_from(["replace", "delete", "add"]))
        if not where:
            case = data.draw(VALUES)
            break
        parent = case
        for key in where[:-1]:
            parent = parent[key]
        last = where[-1]
        if action == "replace":
            parent[last] = data.draw(VALUES)
        elif action == "delete":
            del parent[last]
        elif isinstance(parent, dict):
            parent[data.draw(st.text(min_size=1, max_size=8))] = data.draw(VALUES)
        else:
            parent.append(data.draw(VALUES))
    assert _case_accepts(case) == jsonschema_accepts(case), case
