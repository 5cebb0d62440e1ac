"""Contradictions with the documents' own examples: where a document states what a hand is worth (a worked
example) and another of its statements, read one way, prices the same hand otherwise.

The examples are the cases of `corpus/*-examples.jsonl` whose expectation the document states itself (their
`origin` names the document; cases marked "hand built for it", "hand-worked" or "derived" only apply a rule,
and are left out). Each is scored under every other reading of every scoring option; a reading that departs
from the stated result makes a `contradiction` between the statements behind that reading and the example.
"""
from __future__ import annotations

import json
from typing import Any, Mapping

from checker.case import CaseRunner, example_cases, read_case_file
from checker.engine import HandError
from checker.hunt.findings import Finding, covering
from checker.hunt.options import outcome
from checker.hunt.z3context import in_own_context
from checker.spec import Ruleset, value_key

NOT_STATED = ("hand built for it", "hand-worked", "derived")


def stated_examples(ruleset: Ruleset) -> list[dict[str, Any]]:
    """The document examples of this ruleset whose result the document states (one result, not `either`)."""
    from checker.spec import corpus_dir

    docs = {s.doc for s in ruleset.statements}
    out = []
    for case in example_cases(ruleset.id, corpus_dir()):
        origin = str(case.get("origin", ""))
        if case.get("kind", "score") != "score" or "either" in case.get("expect", {}):
            continue
        if any(origin.startswith(d) for d in docs) and not any(w in origin for w in NOT_STATED):
            out.append(case)
    return out


def hunt_example(runner: CaseRunner, ruleset: Ruleset, case: Mapping[str, Any], option_id: str,
                 value: Any) -> Finding | None:
    """A contradiction when the example, scored with `option_id=value`, departs from what the document states."""
    own = dict(case.get("options") or {})
    option = ruleset.options[option_id]
    if value_key(own.get(option_id, option.default)) == value_key(value):
        return None
    options = {**own, option_id: value}
    stated = dict(case["expect"])
    result = outcome(runner, ruleset.id, options, case["input"])
    if _value(result) == _value(stated):  # a document states what a hand is worth; payments apply a rule to it
        return None
    shown = f"{option_id}={value_key(value)}"
    origin = str(case.get("origin", ""))
    doc, _, words = origin.partition(" ")
    fans = sorted({f["id"] for f in result.get("fans", [])} ^ {f["id"] for f in stated.get("fans", [])})
    core, checked = _arithmetic(runner, ruleset, case, options)
    rules = [f"option.{option_id}"] + core + [f"fan.{f}" for f in fans]
    statements = covering(ruleset, core + [f"option.{option_id}"], 5)
    statements += [{"id": None, "doc": s.doc, "section": s.section, "phrase": s.phrase, "rules": [f"option.{option_id}"]}
                   for s in option.sources if not any(t["phrase"] == s.phrase for t in statements)]
    return Finding(
        ruleset=ruleset.id, kind="contradiction", key=f"contradiction.example.{case['id']}.{shown}",
        title=f"read as {shown}, the document's own example ({words or origin}) is worth {_value(result)}, where the "
              f"document states {_value(stated)}",
        rules=rules,
        witness={"ruleset": ruleset.id, "options": options, "kind": "score", "input": dict(case["input"])},
        outcomes=[{"reading": f"what the document states ({doc})", "result": stated},
                  {"reading": shown, "means": option.readings.get(value_key(value), ""), "result": result}],
        method="z3" if core else "exhaustive",  # every reading of every scoring option, on every stated example
        deciding_option=option_id, statements=statements,
        note=f"The example is the case `{case['id']}` of the document examples (corpus/*-examples.jsonl); the spec "
             f"reproduces it under the reading {value_key(own.get(option_id, option.default))} of `{option_id}`. "
             f"Read as {shown}, the statements behind that reading and the example cannot both hold."
             + (f" With the patterns the example counts, the Z3 model of the arithmetic finds no value meeting the "
                f"example once these rules hold: {', '.join(core)} (its unsat core)." if core else
                " The arithmetic alone does not decide it: the reading changes which patterns count.")
             + checked)


@in_own_context
def _arithmetic(runner: CaseRunner, ruleset: Ruleset, case: Mapping[str, Any],
                options: Mapping[str, Any]) -> tuple[list[str], str]:
    """The rules of the arithmetic (a Z3 unsat core) that cannot hold with the example's stated result, given the
    patterns the example counts under its own reading; and a note when the model's value and the engine's own
    steps disagree on them (a defect of one or the other)."""
    from checker.case import hand_from_input
    from checker.hunt.arith import ArithModel, situation_of

    own = runner.scorer(ruleset.id, dict(case.get("options") or {}))
    try:
        score = own.score(hand_from_input(case["input"], own))
    except HandError:
        return [], ""
    situation = situation_of(own, [{"id": f.id, "count": f.count} for f in score.fans], case["input"].get("counters"))
    model = ArithModel(runner.scorer(ruleset.id, dict(options)))
    core = model.explain(situation, case["expect"]) or []
    replayed = model.replay(situation)
    if replayed is not None and replayed != model.value(situation):
        return core, (f" DEFECT: the Z3 model values these patterns at {model.value(situation)}, the engine's steps at "
                      f"{replayed}.")
    return core, ""


def _value(result: Mapping[str, Any]) -> str:
    if not result.get("valid"):
        return f"no win ({result.get('error')})"
    return f"{result.get('total')}"


def known_hands(ruleset: Ruleset) -> list[dict[str, Any]]:
    """The hand inputs of the checked-in corpus of this ruleset (`corpus/R.jsonl`) and of its document examples:
    hands known to be legal, which the Z3 searches pick their witnesses from, each hand once (see below)."""
    from checker.spec import corpus_dir

    folder = corpus_dir()
    path = folder / f"{ruleset.id}.jsonl" if folder is not None else None
    cases = list(example_cases(ruleset.id, folder))
    if path is not None and path.is_file():
        cases += read_case_file(path)
    # each hand once whatever counters its cases set (the models vary the counters themselves): where cases give
    # one hand several counter settings (a counter's range tried at its ends), the one setting fewest counters
    chosen: dict[str, tuple[int, int]] = {}  # hand -> (counters set, place) of the case kept
    for place, case in enumerate(cases):
        if case.get("kind", "score") == "score" and case.get("ruleset") == ruleset.id and \
                case.get("expect", {}).get("valid", True) is not False:
            hand = json.dumps({k: v for k, v in case["input"].items() if k != "counters"}, sort_keys=True)
            rank = (len(case["input"].get("counters") or {}), place)
            if hand not in chosen or rank < chosen[hand]:
                chosen[hand] = rank
    return [dict(cases[place]["input"]) for _, place in sorted(chosen.values(), key=lambda r: r[1])]
