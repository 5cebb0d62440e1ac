"""A Z3 model of settlement: what each seat pays or gets for a hand, from the hand's counted patterns (the
arithmetic of `checker.hunt.arith`) through the settlement section as the engine binds it (who pays how many
shares, 包, 承包, the single-hand limit).

A situation is the arithmetic's (each pattern's count and the 底分 counter, each over its whole declared range)
with the table around the win: how it was won (self-draw, discard, robbed kong), by whose discard, the contract
partner's seat (the partner counter, 0 to 3), each contract flag, and how many sets were claimed. These vary
independently of one another, so the model covers more than tiles can make; what it proves holds over that
wider domain, and a situation it gives as a witness is replayed through the engine before anything is reported
of a hand.

Claims (`Claim`), each proved over its stated domain or refuted with a situation, under one reading:
- `zero_sum`: the four changes sum to zero, no payer gains and the winner never loses;
- `single_hand_limit`: no player loses more than the spec's single-hand limit in value (each share's 底分 on top,
  where it stays outside the value), under the reading's scope;
- `monotone`: one more of a pattern a hand gains from its context alone (a flower, 荒番, 开宝, 杠开) never leaves
  the winner with less or any payer paying less;
- `interaction`: whether what one option's reading changes in the payments depends on another option's reading.
"""
from __future__ import annotations

import copy

from dataclasses import dataclass, field
from typing import Any, Mapping

import z3  # type: ignore[import-untyped]

from checker.engine import Scorer
from checker.engine.hand import WIN_BY
from checker.hunt.arith import MAX_COUNT, ArithModel, Vars
from checker.spec.roles import CONTRACT_PARTNER, roles

SEATS = (1, 2, 3)  # the payers, relative to the winner: next, across, previous
CLAIMED_MOST = 4  # claimed sets a hand can hold


@dataclass
class Table:
    """The table around one win: its kind (an index into WIN_BY), the discarder's seat (read unless
    self-drawn), the contract partner's seat (0: no contract), the contract flags, and the claimed sets."""

    win: Any
    discarder: Any
    partner: Any
    flags: dict[str, Any]
    claimed: Any


@dataclass
class Paid:
    """A model's payments for one situation: the rules as assertions, whether the hand may win, its value,
    each seat's change (0 the winner, then 1-3), the shares each payer pays, and one share's 底分 part."""

    rules: list[Any]
    valid: Any
    value: Any
    changes: list[Any]
    shares: list[Any]
    base_part: Any


NEAR_BOUND = 0.5  # a claim decided with more of its solver's bound used may go undecided in another run


@dataclass
class Claim:
    """One claim of the model under one reading: `result` is proved (over `domain`), refuted (with `witness`,
    a situation in words), not-run (with `why`: the solver's bound or the budget ran out) or not-applicable
    (with `why`: the reading has nothing to claim it of)."""

    key: str
    words: str
    reading: dict[str, Any]
    domain: str
    result: str
    rules: list[str] = field(default_factory=list)
    witness: dict[str, Any] | None = None
    why: str = ""
    also: list[dict[str, Any]] = field(default_factory=list)  # other readings giving the same result
    readings: list[dict[str, Any]] = field(default_factory=list)  # an interaction's four: none, each, both
    by: str = "model"  # who refuted it: the model (Z3), or the engine on a real hand (checker.hunt.examine)
    examined: str = ""  # what the engine's search for a counter-example covered, and found
    bound_used: float = 0.0  # the share of the solver's resource bound the deciding search used (checker.hunt.proofs)

    def as_dict(self) -> dict[str, Any]:
        return {"key": self.key, "claim": self.words, "reading": self.reading, "domain": self.domain,
                "result": self.result, "rules": self.rules, "witness": self.witness, "why": self.why,
                "also": self.also, "by": self.by, "examined": self.examined, "bound_used": self.bound_used}


class SettlementModel:
    """The payments of one ruleset under one set of options (those of `scorer`)."""

    def __init__(self, scorer: Scorer, saturated: Mapping[str, int] | None = None):
        self.scorer = scorer
        self.arith = ArithModel(scorer, saturated)
        self.pay = scorer.settlement
        self.ruleset = scorer.ruleset
        contract = self.pay.contract
        self.flag_names = [f for f in ((contract.mutual_flag, contract.ready_flag, contract.double_win_flag)
                                       if contract is not None else ()) if f]
        # 包's exemption (三番叫胡): a flag of the table under every reading (models of two readings share a table)
        exempt = roles(scorer.ruleset).liability_exempt
        if exempt and exempt not in self.flag_names:
            self.flag_names.append(exempt)
        self._evaluated: dict[tuple, dict[str, Any]] = {}  # evaluate's answers: the same situation, the same words
        # 一炮多响: each of up to three winners of one discard is paid as a hand of its own (procedure.multiple_winners)
        self.winners_most = len(SEATS) if scorer.bound.procedure.multiple_winners == "all_paid" else 1

    def domain_words(self, readings: int = 1) -> str:
        """The domain the model covers under this reading, read off the bound spec: each pattern's range (those
        not at the common bound named), the 底分 counter, the table, and the winners of one discard."""
        arith, top = self.arith, self.arith.top
        named = [f"{b.id} 0-{top[b.id]}" for b in arith.patterns if top[b.id] not in (1, MAX_COUNT)]
        once = [b.id for b in arith.patterns if top[b.id] == 1]
        counts = ", ".join(named + ([f"{len(once)} pattern(s) counted once 0-1"] if once else []) +
                           [f"every other pattern 0-{MAX_COUNT}"])
        base = (f"the 底分 counter {arith.counter} 0-{arith.base_top} or absent" if arith.counter else
                f"底分 {self.pay.base}")
        table = "each way of winning, each discarder"
        if self.pay.contract is not None:
            table += ", each contract partner (none or seats 1-3) and contract flag"
        if self.pay.liability is not None:
            table += f", 0-{CLAIMED_MOST} claimed sets"
            if self.pay.liability.exempt_flag:
                table += f", with or without the flag {self.pay.liability.exempt_flag}"
        winners = ("one winner of a hand" if self.winners_most == 1 else
                   f"one winner, or 2-{self.winners_most} winners of one discard each paid as a hand of its own "
                   f"(procedure.multiple_winners: all_paid)")
        past = [f"{pid} past {k} computed as {k} (proved to change no outcome under the reading)"
                for pid, k in sorted(arith.saturated.items())]
        if past:
            counts += "; " + ", ".join(past)
        joined = ("; each reading counts the same situation within its own ranges (a count past a reading's range "
                  "counted at its most)") if readings > 1 else ""
        return (f"pattern counts: {counts}; {base}; {table}; {winners}; all independently of one another{joined}")

    # ------------------------------------------------------------------ variables
    def situation(self, prefix: str, inner: str = "") -> tuple[Vars, Table]:
        """The variables of one situation; models given the same `prefix` share them."""
        return self.arith.copy(prefix, inner), self.table(prefix)

    def table(self, prefix: str) -> Table:
        """The variables of the table around one win (two hands compared at one table share them)."""
        return Table(z3.Int(f"{prefix}win"), z3.Int(f"{prefix}discarder"),
                     z3.Int(f"{prefix}partner") if self.pay.contract is not None else z3.IntVal(0),
                     {f: z3.Bool(f"{prefix}flag.{f}") for f in self.flag_names}, z3.Int(f"{prefix}claimed"))

    def domain(self, v: Vars, t: Table) -> list[Any]:
        out = self.arith._domain(v)
        out += [t.win >= 0, t.win < len(WIN_BY), t.discarder >= 1, t.discarder <= 3,
                t.claimed >= 0, t.claimed <= CLAIMED_MOST]
        if self.pay.contract is not None:
            out += [t.partner >= 0, t.partner <= 3]
        return out

    # ------------------------------------------------------------------ the payments
    def paid(self, v: Vars, t: Table) -> Paid:
        rules, value, valid = self.arith.statements(v)
        assertions = [a for _, a in rules]
        if self.pay.shares:
            changes, shares, base_part = self._shares(v, t, value)
        else:
            changes, shares, base_part = self._base_plus_points(t, value)
        return Paid(assertions, valid, value, changes, shares, base_part)

    def _won(self, t: Table, win_by: str) -> Any:
        return t.win == WIN_BY.index(win_by)

    def _base_plus_points(self, t: Table, points: Any) -> tuple[list[Any], list[Any], Any]:
        """MCR's way: each payer pays the base and the points so many times, by the way of winning and the
        discarder's seat."""
        base = self.pay.base
        paid = [z3.IntVal(0) for _ in SEATS]
        for win_by in WIN_BY:
            for discarder in (None,) if win_by == "self_draw" else SEATS:
                terms = self.pay.seat_terms(win_by, discarder)
                here = self._won(t, win_by) if discarder is None else z3.And(self._won(t, win_by),
                                                                              t.discarder == discarder)
                for i, (n_base, n_points) in enumerate(terms):
                    paid[i] = z3.If(here, n_base * base + n_points * points, paid[i])
        changes = [paid[0] + paid[1] + paid[2]] + [-p for p in paid]
        return changes, [z3.IntVal(1) for _ in SEATS], z3.IntVal(base)

    def _shares(self, v: Vars, t: Table, value: Any) -> tuple[list[Any], list[Any], Any]:
        pay = self.pay
        base: Any = z3.IntVal(pay.base)
        if pay.base_counter:
            base = z3.If(v.base >= 0, v.base, base)
        if not pay.direct_base:  # a share of a hand settled directly carries no 底分
            base = z3.If(self.arith.settles_directly(v), z3.IntVal(0), base)
        base_part = pay.n_base * base
        share = base_part + pay.n_value * value
        liability = pay.liability
        liable: Any = z3.BoolVal(False)
        if liability is not None:
            counted = [v.count[p] > 0 for p in sorted(liability.patterns) if p in v.count]
            liable = z3.And(z3.Or(counted) if counted else z3.BoolVal(False), self._won(t, "discard"),
                            t.claimed >= liability.claimed_sets)
            if liability.exempt_flag:
                liable = z3.And(liable, z3.Not(t.flags[liability.exempt_flag]))
        plain = []  # each seat's shares by the way of winning
        for seat in SEATS:
            n: Any = z3.IntVal(0)
            for win_by in WIN_BY:
                each, by_discarder, by_others = pay.roles(win_by)
                role = z3.IntVal(each) if each >= 0 else z3.If(t.discarder == seat, by_discarder, by_others)
                n = z3.If(self._won(t, win_by), role, n)
            plain.append(n)
        shares = list(plain)
        if liability is not None:
            shares = [z3.If(liable, z3.If(t.discarder == seat, liability.discarder, liability.others), n)
                      for seat, n in zip(SEATS, plain)]
        if pay.contract is not None:
            contracted = [z3.If(t.partner == 0, n, self._contract(t, seat, n)) for seat, n in zip(SEATS, shares)]
            with_contract = liability.with_contract if liability is not None else "contract"
            if with_contract == "liability":  # 包 prices it: the discarder pays what a self-draw would get
                drawn = self._contract_self_draw(t)
                contracted = [z3.If(z3.And(liable, t.partner != 0), z3.If(t.discarder == seat, drawn, 0), n)
                              for seat, n in zip(SEATS, contracted)]
            elif with_contract == "both":  # 包's shares and the contract's shares of the discard, added
                contracted = [z3.If(z3.And(liable, t.partner != 0), liable_n + self._contract(t, seat, n), c)
                              for seat, n, liable_n, c in zip(SEATS, plain, shares, contracted)]
            shares = contracted
        if pay.payment_limit is not None:  # the limit takes the 底分 in: each share, or a payer's whole payment
            top, per = pay.payment_limit
            if per == "share":
                paid = [n * z3.If(share > top, top, share) for n in shares]
            else:
                paid = [z3.If(n * share > top, top, n * share) for n in shares]
        elif pay.loss_limit is None:
            paid = [n * share for n in shares]
        else:  # the limit bounds the value terms a payer pays over all its shares; base terms stay outside it
            top = pay.loss_limit
            paid = []
            for n in shares:
                value_part = n * pay.n_value * value
                paid.append(n * base_part + z3.If(value_part > top, top, value_part))
        changes = [paid[0] + paid[1] + paid[2]] + [-p for p in paid]
        return changes, shares, base_part

    def _contract_self_draw(self, t: Table) -> Any:
        """The shares a self-drawn win under the contract collects: the partner's and the other two's
        (checker.engine.settlement.contract_self_draw)."""
        c = self.pay.contract
        assert c is not None
        return c.self_draw * self._mutual_factor(t) + 2 * c.self_draw_others

    def _mutual_factor(self, t: Table) -> Any:
        """How many times the contract's part counts at table `t` (checker.engine.settlement.mutual_factor)."""
        c = self.pay.contract
        assert c is not None
        return z3.If(t.flags[c.mutual_flag], c.mutual_factor, 1) if c.mutual_flag in t.flags else z3.IntVal(1)

    def _contract(self, t: Table, seat: int, n: Any) -> Any:
        """承包: the shares `seat` pays when the winner's contract partner is t.partner (1-3)."""
        c = self.pay.contract
        assert c is not None
        flag = t.flags
        factor = self._mutual_factor(t)
        is_partner, is_discarder = t.partner == seat, t.discarder == seat
        self_draw = z3.If(is_partner, c.self_draw * factor, c.self_draw_others)
        added = z3.If(t.partner == t.discarder, c.robbing_kong_konger, c.robbing_kong)
        robbed = z3.If(is_partner, n + added * factor, n)
        ready = flag[c.ready_flag] if c.ready_flag in flag else z3.BoolVal(False)
        if c.double_win_flag:
            double_win = flag[c.double_win_flag]
        else:
            double_win = z3.BoolVal(False)
        discard = z3.If(
            t.partner == t.discarder, z3.If(is_partner, c.discard * factor, n),
            z3.If(double_win,
                  z3.If(is_discarder, z3.If(ready, c.double_win_ready, c.double_win_not_ready),
                        z3.If(is_partner, 0, n)),
                  z3.If(ready,
                        z3.If(is_discarder, c.third_party_ready, z3.If(is_partner, c.third_party_ready * factor, n)),
                        z3.If(is_discarder, c.third_party_not_ready, n))))
        return z3.If(self._won(t, "self_draw"), self_draw, z3.If(self._won(t, "robbing_kong"), robbed, discard))

    # ------------------------------------------------------------------ one known situation
    def evaluate(self, counts: Mapping[str, int], base: int | None, table: Mapping[str, Any]) -> dict[str, Any]:
        """The model's payments for one situation, in words (see `words`): a real hand's counted patterns (a
        scored result's fans), its 底分 counter, and its table (win_by, discarder, contract_partner, flags, claimed_sets).
        Each situation is solved once per model (many hands count the same patterns at the same table)."""
        key = (tuple(sorted(counts.items())), base, table["win_by"], table.get("discarder"),
               table.get(CONTRACT_PARTNER, 0), tuple(sorted(table.get("flags") or ())), table.get("claimed_sets", 0))
        if key not in self._evaluated:
            self._evaluated[key] = self._evaluate(counts, base, table)
        return copy.deepcopy(self._evaluated[key])

    def _evaluate(self, counts: Mapping[str, int], base: int | None, table: Mapping[str, Any]) -> dict[str, Any]:
        v, t = self.situation("x.")
        paid = self.paid(v, t)
        solver = z3.Solver()
        solver.add(*self.domain(v, t), *paid.rules)
        derived = {self.ruleset.principles.chicken_hand} if self.arith.method == "fan_sum" else set()
        solver.add(*[c == counts.get(pid, 0) for pid, c in v.count.items() if pid not in derived])
        solver.add(v.base == (base if base is not None else -1), t.win == WIN_BY.index(table["win_by"]),
                   t.discarder == (table.get("discarder") or 1), t.claimed == table.get("claimed_sets", 0))
        if self.pay.contract is not None:
            solver.add(t.partner == table.get(CONTRACT_PARTNER, 0))
        flags = set(table.get("flags") or ())
        solver.add(*[b == (f in flags) for f, b in t.flags.items()])
        if solver.check() != z3.sat:
            raise ValueError(f"the settlement model has no payments for {dict(counts)} at {dict(table)}")
        return self.words(solver.model(), v, t, paid)

    # ------------------------------------------------------------------ reading a witness
    def words(self, model: Any, v: Vars, t: Table, paid: Paid) -> dict[str, Any]:
        """A situation the solver found, in words: the counted patterns, the table, the value and the changes."""
        def num(x: Any) -> int:
            return model.eval(x, model_completion=True).as_long()

        counts = {pid: num(c) for pid, c in v.count.items() if num(c)}
        win_by = WIN_BY[num(t.win)]
        out: dict[str, Any] = {"counts": counts, "win_by": win_by}
        if win_by != "self_draw":
            out["discarder"] = num(t.discarder)
        if self.pay.contract is not None and num(t.partner):
            out[CONTRACT_PARTNER] = num(t.partner)
            out["flags"] = sorted(f for f, b in t.flags.items() if z3.is_true(model.eval(b, model_completion=True)))
        if self.pay.liability is not None and win_by == "discard":
            out["claimed_sets"] = num(t.claimed)
            exempt = self.pay.liability.exempt_flag
            if exempt and z3.is_true(model.eval(t.flags[exempt], model_completion=True)):
                out["flags"] = sorted(set(out.get("flags", [])) | {exempt})
        base = num(v.base)
        if self.arith.counter and base >= 0:
            out["counters"] = {self.arith.counter: base}
        out["valid"] = z3.is_true(model.eval(paid.valid, model_completion=True))
        out["value"] = num(paid.value)
        out["payments"] = [num(c) for c in paid.changes]
        if self.pay.shares:
            out["shares"] = [num(n) for n in paid.shares]
            out["share_base"] = num(paid.base_part)  # the 底分 part of one share (0 when the value holds it)
        return out


def table_of(scorer: Scorer, data: Mapping[str, Any]) -> dict[str, Any]:
    """The table around a hand input as `SettlementModel.evaluate` reads it: its way of winning, discarder,
    contract partner (the engine's: the counter, else the seat its melds show the contract's calls from), flags
    and claimed sets."""
    from checker.case import hand_from_input
    from checker.engine.settlement import contract_partner

    contract = scorer.settlement.contract
    partner = contract_partner(contract, hand_from_input(data, scorer)) if contract is not None else 0
    return {"win_by": data.get("win_by"), "discarder": data.get("discarder"), CONTRACT_PARTNER: partner,
            "flags": [f for f, on in (data.get("flags") or {}).items() if on],
            "claimed_sets": len([m for m in data.get("melds") or [] if m.get("from")])}


def lost_in_value(words: Mapping[str, Any], seat: int) -> int:
    """What the payer at `seat` loses in value in a situation in words (`SettlementModel.words`): its payment less
    its shares' 底分 (where the settlement keeps 底分 outside the value)."""
    return -words["payments"][seat] - words["shares"][seat - 1] * words["share_base"]


def result_words(model: SettlementModel, hand: Mapping[str, Any], result: Mapping[str, Any],
                 table: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The model's situation for an engine's result on a hand input: the fans it counted, the hand's 底分 counter,
    and its table (`table_of` the hand, unless given)."""
    counter = model.pay.base_counter
    base = (hand.get("counters") or {}).get(counter) if counter else None
    return model.evaluate({f["id"]: int(f["count"]) for f in result.get("fans", [])}, base,
                          table if table is not None else table_of(model.scorer, hand))


def limit_of(scorer: Scorer) -> tuple[int, str] | None:
    """The single-hand limit the scorer applies (value units) and its step's rule, or None."""
    for (fn, params), (_, rule) in zip(scorer.steps, scorer.step_ids):
        if fn.__name__ == "outer_limit":
            return int(params["units"]) * int(params["unit"]), rule
    return None


def signature(scorer: Scorer) -> tuple:
    """What the model reads of a bound scorer: two readings with the same signature have the same model."""
    from checker.hunt.arith import ArithModel

    pay = scorer.settlement
    arith = ArithModel(scorer)
    steps = tuple((fn.__name__, sorted(params.items(), key=str)) for fn, params in scorer.steps)
    settled: tuple = (pay.shares, pay.base, pay.base_counter, pay.loss_limit, pay.payment_limit, pay.direct_base)
    if pay.shares:
        settled += (pay.n_base, pay.n_value, tuple(pay.roles(w) for w in WIN_BY))
    else:
        settled += tuple(pay.seat_terms(w, d) for w in WIN_BY for d in ((None,) if w == "self_draw" else SEATS))
    c = pay.contract
    if c is not None:
        settled += (c.mutual_factor, c.discard, c.self_draw, c.self_draw_others, c.robbing_kong,
                    c.robbing_kong_konger, c.third_party_ready, c.third_party_not_ready, c.double_win_ready,
                    c.double_win_not_ready, c.double_win_flag)
    li = pay.liability
    if li is not None:
        settled += (tuple(sorted(li.patterns)), li.claimed_sets, li.discarder, li.others, li.with_contract)
    return (scorer.ids, scorer.points, tuple(b.pattern.kind for b in scorer.patterns), steps,
            tuple(sorted(arith.top.items())), settled)
