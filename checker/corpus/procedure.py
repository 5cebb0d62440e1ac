"""A procedure corpus for one ruleset: `kind: procedure` cases, each a deal (an explicit wall, so an engine in any
language can deal it) and its events, expecting the verdict of the reference table engine.

- Legal hands: whole hands played by the simulation's bots (random and greedy), each expecting its verdict, its
  winners (fans, totals), the four seats' payments and the next dealer.
- Illegal events: for each procedure rule (and each table option's reading), the first single change to a legal
  hand whose replay is refused at the changed event with that rule (checker.table.mutate), cut right after it.
- Killing cases: for each one-step procedure mutant those cases let through, the hand of play the procedure search
  finds that tells it from the spec (checker.corpus.adequacy.procedure_killing_cases; ids `…-kills-…`).

The expectations are the reference engine's; every rule they rest on is checked by hand-made logs in
tests/test_table_procedure.py and tests/test_table_knocking_classic.py (corpus/README.md says so). The same
seed and size give the same cases in the same order.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

from checker import tiles as T
from checker.case import CaseRunner
from checker.corpus.adequacy import procedure_killing_cases
from checker.corpus.generate import Corpus
from checker.engine import load_ruleset
from checker.table.bots import SEAT_MIXES
from checker.table.log import GAME, VERSION, expected_winners, replay_events
from checker.table.mutate import witnesses
from checker.table.simulate import play_hand
from checker.table.wall import shuffled_wall

DEFAULT_HANDS = 6
MUTATION_BUDGET = 2500  # changed logs replayed per legal hand


def procedure_rules(ruleset_id: str) -> set[str]:
    """The rule ids a procedure corpus aims to cover: every executed procedure entry (those the table reads)."""
    rs = load_ruleset(ruleset_id)
    return {f"procedure.{k}" for k in rs.executed_entries()}


def generate_procedure(ruleset_id: str, seed: int, hands: int | None = None,
                       progress: Callable[[int, int], None] | None = None, kill_mutants: bool = True) -> Corpus:
    rs = load_ruleset(ruleset_id)
    hands = DEFAULT_HANDS if hands is None else hands
    corpus = Corpus(rs, seed, hands)
    report = progress or (lambda done, total: None)
    wanted = procedure_rules(ruleset_id)
    found: dict[str, dict[str, Any]] = {}
    deals: dict[str, dict[str, Any]] = {}
    covered_legal: set[str] = set()
    for i in range(hands):
        report(i, hands)
        played = played_case(ruleset_id, seed * 1_000 + i, i)
        header, deal, events = played.header, played.deal, played.events
        used = _rules_used(events, wanted)
        covered_legal |= used
        corpus.cases.append({"id": f"{ruleset_id}-hand-{i}", "ruleset": ruleset_id, "kind": "procedure",
                             "input": {**deal, "events": events}, "expect": played.expect,
                             "covers": sorted(f"{ruleset_id}.{rule}" for rule in used),
                             "origin": f"generated, seed {seed}: a hand played by bots ({played.seats})"})
        before = set(found)
        found = witnesses(header, events, wanted, MUTATION_BUDGET, found)
        for rule in sorted(set(found) - before):
            deals[rule] = deal
    covered_legal |= _scenes(corpus, ruleset_id, seed)
    made_legal, made_illegal = _hand_made(corpus, ruleset_id)
    covered_legal |= made_legal
    for rule in sorted(found):
        w = found[rule]
        corpus.cases.append({"id": f"{ruleset_id}-illegal-{rule.split('.', 1)[1]}", "ruleset": ruleset_id,
                             "kind": "procedure", "input": {**deals[rule], "events": w["events"]},
                             "expect": {"verdict": "illegal", "rule": rule, "event": w["event"]},
                             "covers": [f"{ruleset_id}.{rule}"],
                             "origin": f"generated, seed {seed}: one change to a legal hand ({w['change']})"})
    found_or_made = set(found) | made_illegal
    for rule in sorted(wanted - found_or_made - covered_legal):
        corpus.no_witness[rule] = (f"no witness found: no single change to {hands} simulated hands is refused by "
                                   f"this rule, and no legal hand exercises it (the hand-made logs of "
                                   f"tests/test_table_*.py do)")
    for rule in sorted((wanted - found_or_made) & covered_legal):
        corpus.no_witness[rule + " (illegal)"] = "legal hands exercise it; no single change found that breaks it"
    if kill_mutants:
        added, corpus.survivors = procedure_killing_cases(rs, corpus.cases, CaseRunner(), seed,
                                                          f"generated, seed {seed}, by the procedure search")
        corpus.cases.extend(added)
    report(hands, hands)
    return corpus


@dataclass(frozen=True)
class Played:
    """A hand played by the bots on a seeded wall: the log header (the wall written out, not the seed), the deal
    a case gives, the events, what the reference table expects of them, and the bots that played it."""

    header: dict[str, Any]
    deal: dict[str, Any]
    events: list[dict[str, Any]]
    expect: dict[str, Any]
    seats: str


def played_case(ruleset_id: str, hand_seed: int, mix: int, options: Mapping[str, Any] | None = None) -> Played:
    """The hand the bots of SEAT_MIXES[mix] play on the wall of `hand_seed`, with the reference table's verdict,
    winners (fans, totals), payments and next dealer; under `options` (table readings such as the wall model)
    when given: the header then names them, and the wall is the one they deal (136 tiles without flowers)."""
    hand = play_hand(ruleset_id, hand_seed, SEAT_MIXES[mix % len(SEAT_MIXES)], options or None)
    flowers = hand.table.rules.flowers_in_wall
    deal = {"wall": T.format_tiles(shuffled_wall(hand_seed, flowers)), "dealer": hand.header.get("dealer", 0)}
    header = {"game": GAME, "version": VERSION, "ruleset": ruleset_id, **deal,
              **({"options": dict(options)} if options else {})}
    r = replay_events(header, hand.events)
    result = r.result or {}
    expect = {"verdict": r.verdict, "ended": result.get("ended"),
              "winners": expected_winners(result.get("winners", [])),
              "payments": result.get("payments"), "next_dealer": result.get("next", {}).get("dealer")}
    return Played(header, deal, hand.events, {k: v for k, v in expect.items() if v is not None},
                  ", ".join(hand.header["seats"]))


def _hand_made(corpus: Corpus, ruleset_id: str) -> tuple[set[str], set[str]]:
    """The hand-made scenes of checker/corpus/scenes.py this ruleset plays and the spec's own hands of play
    (procedure_examples), as cases whose expectation the reference engine gives and a hand-worked test confirms;
    the rules they cover on their legal and their illegal side."""
    from checker.corpus.scenes import SCENES, Scene

    legal: set[str] = set()
    illegal: set[str] = set()
    executed = corpus.ruleset.executed_entries()
    made = [(scene, f"hand-made scene {scene.id} (checker/corpus/scenes.py), worked by hand in "
                    f"tests/test_table_knocking_classic.py::{scene.test}") for scene in SCENES if scene.played_by(executed)]
    for example in corpus.ruleset.procedure_examples:  # the spec's own hands of play (procedure_examples)
        scene = Scene(example.id, (), dict(enumerate(example.hands)), example.draws, example.events, example.covers,
                      back=example.back, options=dict(example.options), test=example.worked_in)
        made.append((scene, f"hand of play {example.id} of the spec (procedure_examples), worked by hand in "
                            f"{example.worked_in}"))
    for scene, origin in made:
        header = scene.header(ruleset_id)
        r = replay_events(header, scene.log_events())
        result = r.result or {}
        expect: dict[str, Any] = {"verdict": r.verdict}
        if r.verdict == "illegal":
            expect.update({"rule": r.rule, "event": r.line - 2})
            illegal.add(str(r.rule))
        else:
            legal |= set(scene.covers)
            expect.update({"winners": expected_winners(result.get("winners", [])),
                           "payments": result.get("payments"), "next_dealer": result.get("next", {}).get("dealer")})
        deal = {k: v for k, v in header.items() if k not in ("game", "version", "ruleset", "options")}
        corpus.cases.append({"id": f"{ruleset_id}-made-{scene.id}", "ruleset": ruleset_id, "kind": "procedure",
                             "options": dict(scene.options), "input": {**deal, "events": scene.log_events()},
                             "expect": {k: v for k, v in expect.items() if v is not None},
                             "covers": sorted(f"{ruleset_id}.{rule}" for rule in scene.covers),
                             "origin": origin})
    return legal, illegal


def _scenes(corpus: Corpus, ruleset_id: str, seed: int) -> set[str]:
    """The hunter's scenes (checker.hunt.scenarios: a passed winning tile that comes again, two winners on one
    discard), one case per reading of the option they part: situations bot-played hands seldom reach."""
    from checker.hunt.scenarios import SCENES, hunt_scenario, scene_options, waiting_hands

    covered: set[str] = set()
    rs = corpus.ruleset
    for scenario in scene_options(rs):
        found = hunt_scenario(rs, scenario, waiting_hands(ruleset_id, scenario), 300, seed)
        if found is None:
            continue
        rules = SCENES[scenario].rules()
        covered |= rules
        data = found.witness["input"]
        for outcome in found.outcomes:
            oid, value = outcome["reading"].split("=", 1)
            result = outcome["result"]
            expect = {k: result[k] for k in ("verdict", "rule", "event", "payments") if k in result}
            if "next_dealer" in result:
                expect["next_dealer"] = result["next_dealer"]
            corpus.cases.append({
                "id": f"{ruleset_id}-scene-{scenario}-{value}", "ruleset": ruleset_id, "kind": "procedure",
                "options": {oid: rs.options[oid].coerce(value)}, "input": data, "expect": expect,
                "covers": sorted(f"{ruleset_id}.{r}" for r in rules | {f"option.{oid}"}),
                "origin": f"generated, seed {seed}: the hunter's scene {scenario} (checker/hunt/scenarios.py), "
                          f"under {oid}={value}"})
    return covered


def _rules_used(events: list[dict[str, Any]], wanted: set[str]) -> set[str]:
    """The procedure rules a legal hand exercises, by the kinds of event it holds."""
    kinds = {e["event"] for e in events}
    # every hand is dealt, opens with the dealer's discard and leaves discards unclaimed
    used = {"procedure.turn", "procedure.deal", "procedure.dealer_discards_first", "procedure.unclaimed_discard"}
    if "flower" in kinds:
        used |= {"procedure.flower_exposure", "procedure.replacement_draw"}
    if kinds & {"chow", "pung", "kong"}:
        used |= {"procedure.claims", "procedure.claim_priority", "procedure.chow_from", "procedure.melds_shown"}
    if kinds & {"kong", "add_kong", "concealed_kong"}:
        used.add("procedure.replacement_draw")
    if "knock" in kinds:
        used |= {"procedure.knock", "procedure.knock_locks_hand"}
    if "draw_game" in kinds:
        used |= {"procedure.wall_end", "procedure.dead_wall"}
    if "swap" in kinds:
        used.add("procedure.tile_swap")
    if "win" in kinds or "draw_game" in kinds:
        used |= {"procedure.dealer", "procedure.dealer_rotation", "procedure.huangfan_count"}
    return used & wanted
