"""The fast acceptance checks (jsonschema-rs, checker.spec.accepted) agree with jsonschema, the authority, on
every case, log header and spec: the shipped ones, and ones mutated from them in every field."""
from __future__ import annotations

import copy
import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

import jsonschema

from checker.case import _case_accepts, _case_validator
from checker.spec import accepted, read_yaml, schema, spec_dir

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


def headers():
    """The log headers the procedure corpora's cases make (checker.table.log.procedure_result)."""
    from checker.table.log import GAME, VERSION

    for case in CASES:
        if case.get("kind") == "procedure":
            data = {k: v for k, v in case["input"].items() if k != "events"}
            yield {"game": GAME, "version": VERSION, "ruleset": case["ruleset"], "options": case.get("options") or {},
                   **data}


HEADERS = list(headers())


def test_every_procedure_corpus_header_is_accepted_by_both():
    from checker.table.log import header_problem, _header_validator

    assert len(HEADERS) > 10
    assert all(header_problem(h) is None and not list(_header_validator().iter_errors(h)) for h in HEADERS)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.data())
def test_the_fast_header_check_agrees_with_jsonschema_on_mutated_headers(data):
    from checker.table.log import _header_validator

    header = copy.deepcopy(data.draw(st.sampled_from(HEADERS)))
    where = data.draw(st.sampled_from([p for p in paths(header) if p]))
    parent = header
    for key in where[:-1]:
        parent = parent[key]
    action = data.draw(st.sampled_from(["replace", "delete"]))
    if action == "replace":
        parent[where[-1]] = data.draw(VALUES)
    else:
        del parent[where[-1]]
    assert accepted("game", header, "header") == (not list(_header_validator().iter_errors(header))), header


SPECS = [read_yaml(path)[0] for path in sorted(spec_dir().glob("*.yaml"))]  # the shipped ones (not MJCHECK_SPEC_PATH's)


def jsonschema_accepts_spec(data) -> bool:
    return not any(True for _ in jsonschema.Draft202012Validator(schema("ruleset")).iter_errors(data))


def test_every_shipped_spec_is_accepted_by_both():
    assert len(SPECS) == 3 and all(accepted("ruleset", d) and jsonschema_accepts_spec(d) for d in SPECS)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(st.data())
def test_the_fast_spec_check_agrees_with_jsonschema_on_mutated_specs(data):
    """A spec with one value replaced, deleted or added anywhere (a pattern's field, an option's reading, a
    statement): the two validators agree on whether the ruleset schema accepts it."""
    spec = copy.deepcopy(data.draw(st.sampled_from(SPECS)))
    where = data.draw(st.sampled_from([p for p in paths(spec) if p]))
    parent = spec
    for key in where[:-1]:
        parent = parent[key]
    action = data.draw(st.sampled_from(["replace", "delete", "add"]))
    if action == "replace":
        parent[where[-1]] = data.draw(VALUES)
    elif action == "delete":
        del parent[where[-1]]
    elif isinstance(parent, dict):
        parent[data.draw(st.text(min_size=1, max_size=8))] = data.draw(VALUES)
    else:
        parent.append(data.draw(VALUES))
    assert accepted("ruleset", spec) == jsonschema_accepts_spec(spec), where


def test_a_procedure_case_takes_a_game_logs_seats_and_note_and_they_change_nothing():
    """docs/contracts.md lets a procedure case's input hold the log header's `seats` and `note`: the schema takes
    them, and the reference table's answer is the same with them or without."""
    import json
    from pathlib import Path

    from checker.case import CaseRunner, case_problem

    line = (Path(__file__).resolve().parents[1] / "corpus" / "mcr-procedure.jsonl").read_text(encoding="utf-8")
    case = json.loads(line.splitlines()[0])
    told = {**case, "input": {**case["input"], "seats": ["greedy", "random", "greedy", "random"], "note": "recorded"}}
    assert case_problem(told) is None
    runner = CaseRunner()
    assert runner.run(told) == runner.run(case) and runner.run(told)["verdict"] == case["expect"]["verdict"]
