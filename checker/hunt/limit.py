"""The single-hand limit against the document: when the settlement model refutes "no player loses more than the
limit in one hand" under the spec's default reading, a real hand where that happens, scored by the engine, as a
`contradiction` finding naming the option whose other reading keeps the limit.
"""
from __future__ import annotations

from typing import Any, Mapping

from checker.case import CaseRunner
from checker.hunt.findings import Finding, covering
from checker.hunt.options import outcome
from checker.hunt.settle import SEATS, Claim, SettlementModel, limit_of, lost_in_value, result_words
from checker.spec import Ruleset, options_text as _shown
from checker.spec.roles import CONTRACT_PARTNER

# the tables tried after the model's own witness, in this order: the ways one player pays several shares
# (`contract_partner`: the table's contract partner, by its role's name (checker.spec.roles); written into a hand as the counter
# the bound settlement names for it)
TABLES: tuple[dict[str, Any], ...] = (
    {"win_by": "robbing_kong", "discarder": 1},
    {"win_by": "self_draw", CONTRACT_PARTNER: 1},
    {"win_by": "discard", "discarder": 1, CONTRACT_PARTNER: 1},
    {"win_by": "discard", "discarder": 1},
)


def at_table(data: Mapping[str, Any], table: Mapping[str, Any], partner_counter: str | None) -> dict[str, Any]:
    """A hand input won at this table: its way of winning, discarder, contract partner (the counter
    `partner_counter`, the bound settlement's name for it; None: the ruleset has no contract) and flags."""
    out = {**data, "win_by": table["win_by"], "discarder": table.get("discarder")}
    counters = {k: v for k, v in (data.get("counters") or {}).items() if k != partner_counter}
    if table.get(CONTRACT_PARTNER) and partner_counter:
        counters[partner_counter] = table[CONTRACT_PARTNER]
    out["counters"] = counters
    flags = {**(data.get("flags") or {}), **{f: True for f in table.get("flags") or ()}}
    out["flags"] = flags
    return out


def limit_finding(runner: CaseRunner, ruleset: Ruleset, found: list[Claim],
                  pool: list[dict[str, Any]]) -> Finding | None:
    """The finding for the single-hand-limit claims `found` (the defaults' first), or None when the limit holds
    under the defaults or no known hand shows it broken."""
    first = found[0] if found else None
    if first is None or first.key != "single-hand-limit" or first.result != "refuted" or first.reading:
        return None
    # a reading under which the limit holds, or holds for each winner (only several winners of one discard break it)
    keeping = next((c.reading for c in found if c.result == "proved"), None)
    one_winner = keeping is None and next((c.reading for c in found if c.result == "refuted" and c.witness
                                           and c.witness.get("other_winners")), None)
    keeping = keeping or one_winner or None
    scorer = runner.scorer(ruleset.id, {})
    limit = limit_of(scorer)
    if limit is None or first.witness is None:
        return None
    top, rule = limit
    model, pay = SettlementModel(scorer), scorer.settlement
    witness_table: dict[str, Any] = {k: first.witness[k] for k in ("win_by", "discarder", CONTRACT_PARTNER, "flags")
                     if k in first.witness}
    tables: list[dict[str, Any]] = [witness_table, *TABLES]
    for table in tables:
        for data in pool:
            grown = at_table(data, table, pay.contract.partner_counter if pay.contract is not None else None)
            result = outcome(runner, ruleset.id, {}, grown)
            if not result.get("valid"):
                continue
            words = result_words(model, grown, result)
            over = [(seat, words["shares"][seat - 1]) for seat in SEATS if lost_in_value(words, seat) > top]
            if over:
                return _finding(runner, ruleset, grown, result, words, over[0], top, rule, keeping, bool(one_winner))
    return None


def _finding(runner: CaseRunner, ruleset: Ruleset, data: dict[str, Any], result: Mapping[str, Any],
             words: Mapping[str, Any], over: tuple[int, int], top: int, rule: str,
             keeping: Mapping[str, Any] | None, per_winner: bool = False) -> Finding:
    from checker.hunt.page import SEAT_WORDS

    seat, shares = over
    lost = -int(result["payments"][seat])
    rules = [r for r in (rule, *(f"option.{k}" for k in keeping or {})) if r]
    outcomes = [{"reading": "the spec's default readings", "result": dict(result)}]
    if keeping:
        outcomes.append({"reading": _shown(keeping), "result": outcome(runner, ruleset.id, keeping, data)})
    agrees = list(words["payments"]) == list(result["payments"])
    check = "" if agrees else (f" DEFECT: the settlement model pays {words['payments']}, the engine "
                               f"{result['payments']}.")
    return Finding(
        ruleset=ruleset.id, kind="contradiction", key="contradiction.single-hand-limit",
        title=f"under the default readings {SEAT_WORDS[seat]} loses {lost} in one hand ({shares} shares "
              f"of a hand worth {result.get('total')}), more than the single-hand limit of {top} in value",
        rules=rules, statements=covering(ruleset, rules, 4),
        witness={"ruleset": ruleset.id, "options": {}, "kind": "score", "input": data},
        outcomes=outcomes, method="z3", deciding_option=next(iter(keeping or {}), None),
        note=f"The Z3 settlement model refutes, under the default readings, that no player loses more than {top} "
             f"in value in one hand; the witness is a known legal hand won at the table the model found (or the "
             f"first of a fixed list of tables where one player pays several shares), scored by the engine."
             + (f" Under {_shown(keeping)} the model proves the limit holds for every player"
                + (" paying one winner; several winners of one discard (一炮多响) still take more together "
                   "(see the model's claims)." if per_winner else ".") if keeping else "")
             + check)
