"""Assemble a coverage-directed corpus for one ruleset: the source documents' own examples (kept with their
`origin`), a witness case for each target (`checker.corpus.witnesses`), two or more cases for each option
whose readings part (`checker.corpus.readings`: each reading named, and the default once more with the option
left out, so an engine that reads another default fails), and invalid inputs with their `error`
(`checker.corpus.invalid`), then a case for each one-step scoring mutant those let through
(`checker.corpus.adequacy`). Every expectation is the reference engine's result for the case, computed the way
`mjcheck score --batch` computes it. The same seed and size always give the same cases in the same order.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

from checker.case import CaseRunner, example_cases
from checker.corpus.adequacy import killing_cases
from checker.mutate.candidates import random_candidates, targeted_candidates
from checker.corpus.strength_records import MutantResult
from checker.corpus.invalid import mutations
from checker.corpus.readings import Parting, find_partings
from checker.corpus.witnesses import Scored, Target, choose, exclusion_pairs, limit_of, limit_witnesses, score_input
from checker.spec import Ruleset, corpus_dir
from checker.spec.roles import roles

PROOF_SECONDS = 20  # the longest an exclusion no candidate meets may take to be proved dead

CANDIDATES_PER_PATTERN, FEWEST_CANDIDATES = 250, 6000  # the default search: more patterns, more hands to meet them


def default_size(ruleset: Ruleset) -> int:
    """The random candidates searched when no size is given: 250 a pattern, at least 6,000 (MCR's 81 patterns:
    20,250; the Shanghai rulesets: 6,000)."""
    return max(FEWEST_CANDIDATES, CANDIDATES_PER_PATTERN * len(ruleset.patterns))
PARTING_BUDGET = 3000  # scorings per option value searched for a parting
RESCAN = 600  # candidates scored again under each other reading, for targets only it shows
MUTATED = 40  # valid hands whose mutations are tried for invalid-input cases

Progress = Callable[[int, int], None]  # (done, total)

@dataclass
class Corpus:
    """The cases of one ruleset's corpus, and the targets no candidate witnessed (each with the reason)."""

    ruleset: Ruleset
    seed: int
    size: int
    cases: list[dict[str, Any]] = field(default_factory=list)
    no_witness: dict[str, str] = field(default_factory=dict)  # rule id or target -> reason
    survivors: list[MutantResult] = field(default_factory=list)  # scoring mutants no case kills (none separated)

    def jsonl(self) -> str:
        """The corpus as JSON Lines: keys sorted, one case a line, in a stable order."""
        return "".join(json.dumps(c, sort_keys=True, ensure_ascii=False) + "\n" for c in self.cases)


def generate(ruleset_id: str, seed: int, size: int | None = None, progress: Progress | None = None,
             runner: CaseRunner | None = None, examples: Path | None = None, kill_mutants: bool = True) -> Corpus:
    """The corpus for `ruleset_id` from `size` seeded random candidates plus the targeted constructions, and
    (`kill_mutants`) a case for each scoring mutant those let through (`checker.corpus.adequacy`)."""
    runner = runner or CaseRunner()
    rs = runner.ruleset(ruleset_id)
    size = default_size(rs) if size is None else size
    corpus = Corpus(rs, seed, size)
    origin = f"generated, seed {seed}"
    report = progress or (lambda done, total: None)

    candidates = [(f"target {name}", data) for name, data in targeted_candidates(rs)]
    candidates += [(f"random hand, theme {theme}", data) for theme, data in random_candidates(rs, seed, size)]
    total_work = len(candidates) + len(rs.options) * 2 + 1
    scored: list[Scored] = []
    for i, (source, data) in enumerate(candidates):
        scored.append(score_input(runner, rs.id, {}, data, source))
        if i % 200 == 0:
            report(i, total_work)
    minimum = rs.win.minimum_points
    witnesses = choose(scored, minimum, roles(rs))
    limit = limit_of(scored)
    if limit is not None:
        witnesses.update(limit_witnesses(scored, limit))

    # options: hands where the readings part, tried on the witnesses first (small, varied), then the rest
    valid = [s for s in scored if not s.refused]
    pool = _unique([s.input for _, s in sorted(witnesses.items(), key=lambda kv: _slug(kv[0]))] +
                   [s.input for s in valid])
    partings, missing_options = find_partings(runner, rs, pool, PARTING_BUDGET)
    report(len(candidates) + len(rs.options), total_work)

    # targets the defaults never showed (a pattern active under one reading only): the pool under each reading
    for oid, option in rs.scoring_options().items():
        for value in option.other_values():
            more = [score_input(runner, rs.id, {oid: value}, data, "reading " + f"{oid}={_value(value)}")
                    for data in pool[:RESCAN]]
            for target, s in choose(more, minimum, roles(rs)).items():
                if target not in witnesses and target[0] in ("fan", "exclusion", "settlement"):
                    witnesses[target] = s

    # invalid inputs: mutations of valid hands, the first hand for each error rule not yet witnessed
    for s in [s for s in valid if s.valid][:MUTATED]:
        for what, data in mutations(s.input, rs):
            m = score_input(runner, rs.id, {}, data, f"{s.source}, {what}")
            if not m.valid:
                key = ("refusal", m.result["error"])
                if key not in witnesses:
                    witnesses[key] = m

    # each counter at the least of its range (read as given) and one above its most (refused): a spec or an engine
    # that reads the range otherwise answers one of them differently (the most itself is no case: at a base of a
    # million, an engine's answer can pass what JSON holds)
    first = next((s for s in valid if s.valid), None)
    for name, counter in sorted(rs.counters.items()):
        if first is None:
            break
        for end, value in (("least", counter.min), ("above", counter.max + 1)):
            data = {**first.input, "counters": {**(first.input.get("counters") or {}), name: value}}
            witnesses.setdefault(("boundary", f"counter_{end}", name),
                                 score_input(runner, rs.id, {}, data, f"{first.source}, counter {name} {value}"))

    generated: dict[str, dict[str, Any]] = {}
    by_input: dict[str, str] = {}
    for target in sorted(witnesses, key=_slug):
        s = witnesses[target]
        same = json.dumps([s.options, s.input], sort_keys=True)
        if same in by_input:  # one hand witnessing several targets is one case covering them all
            case = generated[by_input[same]]
            case["covers"] = _prefixed(rs, set(_unprefixed(rs, case["covers"])) | _covers(rs, s, target))
            case["note"] += "; " + _describe(target)
            continue
        case_id = f"{rs.id}-{_slug(target)}"
        by_input[same] = case_id
        generated[case_id] = _case(rs, case_id, s, _covers(rs, s, target), origin,
                                   f"witness for {_describe(target)} ({s.source})")
    for p in partings:
        _add_parting(rs, p, generated, origin)
    report(total_work, total_work)

    corpus.cases = example_cases(rs.id, examples or corpus_dir()) + [generated[k] for k in sorted(generated)]
    if kill_mutants:  # a case for each one-step scoring mutant the cases so far let through
        added, corpus.survivors = killing_cases(rs, corpus.cases, runner, seed, origin)
        corpus.cases += added
    corpus.no_witness = _no_witness(rs, witnesses, missing_options, partings, len(candidates), runner)
    return corpus


def _add_parting(rs: Ruleset, p: Parting, generated: dict[str, dict[str, Any]], origin: str) -> None:
    default = rs.options[p.option].default
    base = "".join(f"-{k}-{_value(v)}" for k, v in sorted(p.base.items()))
    pair = f"{_value(default)}-vs-{_value(p.value)}"
    for value, s in ((default, p.readings[0]), (p.value, p.readings[1])):
        case_id = f"{rs.id}-option-{p.option}-{pair}{base}-reading-{_value(value)}"
        covers = _covers(rs, s, ("option", p.option)) | {f"option.{k}" for k in p.base}
        note = (f"option {p.option}: this hand scores differently under {p.option}={_value(default)} and "
                f"{p.option}={_value(p.value)}" + (f" (with {', '.join(f'{k}={_value(v)}' for k, v in sorted(p.base.items()))})"
                                                   if p.base else "") + f"; this case is the {_value(value)} reading")
        generated[case_id] = _case(rs, case_id, s, covers, origin, note)
    # the default reading again with the option left out: an engine that reads another default fails it
    unnamed = f"{rs.id}-option-{p.option}-{pair}{base}-default-unnamed"
    case = _case(rs, unnamed, p.readings[0], _covers(rs, p.readings[0], ("option", p.option)) | set(
        f"option.{k}" for k in p.base), origin,
        f"option {p.option} left out: scored under its default, {_value(default)} (this hand scores differently "
        f"under {p.option}={_value(p.value)})")
    case["options"] = dict(sorted(p.base.items()))
    generated[unnamed] = case


def _case(rs: Ruleset, case_id: str, s: Scored, covers: set[str], origin: str, note: str) -> dict[str, Any]:
    return {"id": case_id, "ruleset": rs.id, "options": dict(sorted(s.options.items())), "kind": "score",
            "input": dict(s.input), "expect": dict(s.result), "covers": _prefixed(rs, covers),
            "origin": origin, "note": note}


# a boundary target (checker.corpus.witnesses) -> the kinds of scoring step whose rules it covers
BOUNDARY_STEPS = {"cap": ("cap", "limit"), "single_hand_limit": ("outer_limit",)}


def _covers(rs: Ruleset, s: Scored, target: Target) -> set[str]:
    """The rule ids (unprefixed) a scored hand exercises, with the target it was chosen for."""
    ids = {f"fan.{f}" for f in s.fan_ids}
    if s.valid:
        data = s.input
        partner = roles(rs).contract_partner
        if partner and (data.get("counters") or {}).get(partner):
            ids.add("settlement.contract")
        ids.add(f"settlement.{data.get('win_by', 'self_draw')}")
        ids |= {"settlement.base", "settlement.per_share"}
        ids |= {acted.rule for acted in s.steps}  # the spec rules of the scoring steps that did something
    else:
        ids.add(s.result["error"])
        if s.result["error"] == "win.minimum_points" and s.input.get("flowers"):
            ids.add("win.minimum_excludes")
    kind = target[0]
    if kind in ("fan", "option"):
        ids.add(f"{kind}.{target[1]}")
    elif kind == "exclusion":
        ids |= {f"fan.{target[1]}", f"fan.{target[2]}"}
    elif kind == "principle" and target[1] != "either":
        ids.add(f"principle.{target[1]}")
    elif kind == "boundary" and target[1] in ("below_minimum", "at_minimum"):
        ids.add("win.minimum_points")
    elif kind == "boundary":  # a cap or a limit: the rules of the ruleset's own steps that make it
        ids |= {step.rule for step in rs.scoring.steps if step.name in BOUNDARY_STEPS.get(target[1], ())}
    if s.input.get("flowers") and s.valid and rs.win.minimum_excludes:
        ids.add("win.minimum_excludes")
    for flag in (s.input.get("flags") or {}):
        for f, rule, _, _ in rs.win.requires_flags:
            if f == flag:
                ids.add(rule)
    return {i for i in ids if i in rs.rules}


def _prefixed(rs: Ruleset, ids: Iterable[str]) -> list[str]:
    return sorted(f"{rs.id}.{i}" for i in ids)


def _unprefixed(rs: Ruleset, ids: Iterable[str]) -> list[str]:
    return [i[len(rs.id) + 1:] for i in ids]


def _no_witness(rs: Ruleset, witnesses: Mapping[Target, Scored], missing_options: Mapping[str, str],
                partings: Sequence[Parting], n: int, runner: CaseRunner) -> dict[str, str]:
    out: dict[str, str] = {}
    for p in rs.patterns:
        if ("fan", p.id) not in witnesses and not any(p.id in s.fan_ids for q in partings for s in q.readings):
            out[f"fan.{p.id}"] = f"no witness found: none of {n} candidate hands scores it under any reading searched"
    parted = {p.option for p in partings}
    for key, reason in missing_options.items():
        oid = key.split("=", 1)[0]
        out[f"option.{key}" if oid in parted else f"option.{oid}"] = reason if oid not in parted else \
            reason + " (other values of this option part)"
    for withheld, by in exclusion_pairs(rs):
        if ("exclusion", withheld, by) not in witnesses:
            out[f"exclusion {withheld} by {by}"] = _unmet(rs, runner, by, withheld, n)
    return out


def _unmet(rs: Ruleset, runner: CaseRunner, by: str, withheld: str, n: int) -> str:
    """Why an exclusion has no case: proved dead by the hunter's exhaustive search (checker.hunt.dead), or only
    not found among the candidates."""
    from checker.hunt.dead import prove

    proof = prove(runner.scorer(rs.id, {}), [by, withheld], time.monotonic() + PROOF_SECONDS)
    if proof is not None and proof.complete and proof.together is None:
        how = (f"reading every concealed hand their definitions allow: {proof.checked:,}" if proof.size else
               f"no division of four sets and a pair has {proof.described}")
        return f"no hand can hold it: {by} and {withheld} never meet in one reading (proved: {how}; see `mjcheck hunt`)"
    return (f"no witness found: no candidate of {n} finds both {by} and {withheld} with {withheld} withheld by it "
            f"(they may never meet in one reading)")


def _unique(items: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    seen: set[str] = set()
    out = []
    for item in items:
        key = json.dumps(item, sort_keys=True)
        if key not in seen:
            seen.add(key)
            out.append(item)
    return out


def _slug(target: Target) -> str:
    return "-".join(_value(x) for x in target).replace("_", "-").replace(".", "-")


def _value(v: Any) -> str:
    return str(v).lower() if isinstance(v, bool) or v is None else str(v)


def _describe(target: Target) -> str:
    kind = target[0]
    if kind == "fan":
        return f"fan.{target[1]}"
    if kind == "exclusion":
        return f"exclusion: {target[1]} withheld by {target[2]}"
    if kind == "settlement":
        return "settlement " + " ".join(_value(x) for x in target[1:])
    if kind == "refusal":
        return f"refusal {target[1]}"
    if kind == "boundary" and str(target[1]).startswith("counter_"):
        end = {"counter_least": "at the least of its range", "counter_above": "one above its range"}
        return f"counter {target[2]} {end.get(str(target[1]), target[1])}"
    return " ".join(_value(x) for x in target)
