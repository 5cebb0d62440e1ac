"""The binding step: a loaded ruleset under chosen options, every option resolved once, into typed frozen
records. The engine (checker.engine.scoring, settlement), the table (its `procedure`), the hunter and the corpus
read these records; none of them resolves an option value itself (`chosen` is called here and in
checker.spec.procedure only). `mjcheck spec validate` binds under the default options and under each other
value of each option, so whatever validates also builds.

A record keeps the spec's own names: a pattern's `points` and `params`, a step's `params`, the settlement's
payers by way of winning and role, the contract's amounts in shares.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any, Mapping

from checker.spec.model import Condition, Pattern, Ruleset, Settlement, chosen
from checker.spec.procedure import TableRules, _table_rules

WAYS_OF_WINNING = ("self_draw", "discard", "robbing_kong")


class BindError(ValueError):
    """A spec that loads but cannot be bound to option values; `pointer` is where in the spec (JSON pointer)."""

    def __init__(self, message: str, pointer: str, reason: str = ""):
        super().__init__(message)
        self.pointer, self.reason = pointer, reason or message

    def __reduce__(self) -> tuple:
        """Pickled with where and why (an error raised in a worker process reaches the parent whole)."""
        return (type(self), (str(self), self.pointer, self.reason))


def _refused(pointer: str, reason: str) -> BindError:
    return BindError(f"{pointer}: {reason}", pointer, reason)


@dataclass(frozen=True)
class PatternTerms:
    """A pattern active under the options: its points, its predicate's parameters, whether it lets a hand win
    (`allows_win`), and the patterns its `excludes_if` keeps from counting under these options (`excluded`:
    wholly; `excluded_some`: at most so many instances)."""

    pattern: Pattern
    index: int  # its place in the spec's `patterns`
    points: int
    params: Mapping[str, Any]
    allows_win: bool
    excluded: frozenset[str]
    excluded_some: Mapping[str, int]

    @property
    def id(self) -> str:
        return self.pattern.id


@dataclass(frozen=True)
class ShapeTerms:
    """A winning shape (`win.shapes`): its predicate's name and parameters."""

    id: str
    predicate: str
    params: Mapping[str, Any]


@dataclass(frozen=True)
class StepTerms:
    """A scoring step (`scoring.steps`) and its parameters; a step whose `applies` is false is not bound."""

    name: str
    params: Mapping[str, Any]
    rule: str


@dataclass(frozen=True)
class CheckTerms:
    """A hand check (`hand_checks`): its check's name and parameters, and the message a failure prints."""

    id: str
    check: str
    params: Mapping[str, Any]
    message: str
    index: int


@dataclass(frozen=True)
class ContractTerms:
    """承包 (settlement.contract): every amount a whole number of shares. An amount the spec leaves out is 0
    shares (the mutual factor 1; the konger-partner's, the robbed kong's)."""

    partner_counter: str
    mutual_flag: str
    ready_flag: str
    double_win_flag: str
    mutual_factor: int
    discard: int
    self_draw: int
    self_draw_others: int
    robbing_kong: int
    robbing_kong_konger: int
    third_party_ready: int
    third_party_not_ready: int
    double_win_ready: int
    double_win_not_ready: int
    calls: int = 0  # claims from one seat that make a contract with it, shown by the winner's melds (0: none)


@dataclass(frozen=True)
class LiabilityTerms:
    """包 (settlement.liability): a discard win counting one of `patterns`, with at least `claimed_sets`
    claimed sets, is paid `discarder` shares by the discarder and `others` by the rest; unless the hand carries
    `exempt_flag` (settlement.liability.exempt_flag, where its exemption applies; "" for none). Under a contract
    (承包), `with_contract` (settlement.liability.with_contract): "contract" prices it as any discard win,
    "liability" has the discarder pay alone what the winner would get self-drawn under the contract, "both" adds
    the 包 shares and the contract's."""

    patterns: frozenset[str]
    claimed_sets: int
    discarder: int
    others: int
    exempt_flag: str = ""
    with_contract: str = "contract"


@dataclass(frozen=True)
class SettlementTerms:
    """The settlement under the options. `payers[way of winning][role]`: base_plus_points, the terms a role
    pays (`base`, `points`); shares, its number of shares. Roles: each_opponent, or discarder and others.
    `per_share`: the terms of one share (shares)."""

    method: str
    base: int
    base_counter: str
    per_share: tuple[str, ...]
    payers: Mapping[str, Mapping[str, Any]]
    contract: ContractTerms | None
    liability: LiabilityTerms | None  # None: no 包, or not under these options
    direct_base: bool = True  # a share of a hand settled directly carries its base terms (settlement.direct_base)


@dataclass(frozen=True)
class Bound:
    """A ruleset bound to option values: what every reader of the rules reads."""

    ruleset: Ruleset
    options: Mapping[str, Any]  # every option's value, the defaults overlaid with those chosen
    patterns: tuple[PatternTerms, ...]  # those active under the options, in the spec's order
    shapes: tuple[ShapeTerms, ...]
    steps: tuple[StepTerms, ...]
    checks: tuple[CheckTerms, ...]
    non_repeat: bool
    account_once: bool
    requires_allowing_pattern: bool
    settlement: SettlementTerms
    procedure: TableRules
    withheld_fans_withhold: bool = False  # a fan withheld still withholds what it would withhold when counted

    def shape_params(self, predicate: str) -> Mapping[str, Any] | None:
        """The parameters of the first winning shape using `predicate`; None when the ruleset has none."""
        return next((s.params for s in self.shapes if s.predicate == predicate), None)

    def check_params(self, check: str) -> Mapping[str, Any] | None:
        """The parameters of the first hand check of kind `check`; None when the ruleset has none."""
        return next((c.params for c in self.checks if c.check == check), None)


def holds(condition: bool | Condition, options: Mapping[str, Any]) -> bool:
    """A principle's or a pattern's condition under the options: an option's value, or a plain truth."""
    if isinstance(condition, Condition):
        return options[condition.option] == condition.is_
    return bool(condition)


def bind(ruleset: Ruleset, options: Mapping[str, Any] | None = None) -> Bound:
    """The ruleset under `options` (the defaults for those not given). An unknown option or value raises
    ValueError naming it; a value the spec cannot be bound with, BindError naming where; a procedure the table
    cannot play, checker.spec.procedure.ProcedureError."""
    opts = ruleset.resolve_options(options)
    settlement, procedure = _settlement(ruleset.settlement, opts), _table_rules(ruleset, opts)
    return Bound(
        ruleset=ruleset, options=opts,
        patterns=_patterns(ruleset, opts),
        shapes=tuple(ShapeTerms(s.id, s.when.name, _params(s.when.params, opts, f"/win/shapes/{i}/params"))
                     for i, s in enumerate(ruleset.win.shapes)),
        steps=_steps(ruleset, opts),
        checks=tuple(CheckTerms(c.id, c.check.name, _params(c.check.params, opts, f"/hand_checks/{i}/params"),
                                c.message, i)
                     for i, c in enumerate(ruleset.hand_checks)),
        non_repeat=holds(ruleset.principles.non_repeat, opts),
        account_once=holds(ruleset.principles.account_once, opts),
        withheld_fans_withhold=holds(ruleset.principles.withheld_fans_withhold, opts),
        requires_allowing_pattern=holds(ruleset.win.requires_allowing_pattern, opts),
        settlement=settlement,
        procedure=replace(procedure, liability_exempt_flag=settlement.liability.exempt_flag
                          if settlement.liability is not None else ""),  # 包's exemption, resolved once (above)
    )


def _resolved(value: Any, options: Mapping[str, Any], pointer: str) -> Any:
    try:
        return chosen(value, options)
    except KeyError as exc:
        raise _refused(pointer, f"names option {exc.args[0]!r}, which the spec does not declare (or a value its "
                                f"map lacks)") from None


def _params(params: Mapping[str, Any], options: Mapping[str, Any], pointer: str) -> Mapping[str, Any]:
    return MappingProxyType({k: _resolved(v, options, f"{pointer}/{k}") for k, v in params.items()})


def _whole(value: Any, options: Mapping[str, Any], pointer: str) -> int:
    """A number of points or shares: a plain number, an option's value, or an option mapped to numbers."""
    amount = _resolved(value, options, pointer)
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise _refused(pointer, f"{amount!r} is not a whole number")
    return amount


def _patterns(ruleset: Ruleset, opts: Mapping[str, Any]) -> tuple[PatternTerms, ...]:
    out = []
    for index, p in enumerate(ruleset.patterns):
        if p.active_if is not None and not holds(p.active_if, opts):
            continue  # this pattern belongs to another reading of the rules
        whole: set[str] = set()
        some: dict[str, int] = {}
        for rule in p.excludes_if:
            if holds(rule.when, opts):
                if rule.count is None:
                    whole |= set(rule.excludes)
                else:
                    some.update((t, rule.count) for t in rule.excludes)
        out.append(PatternTerms(p, index, _whole(p.points, opts, f"/patterns/{index}/points"),
                                _params(p.when.params, opts, f"/patterns/{index}/when/params"),
                                bool(_resolved(p.allows_win, opts, f"/patterns/{index}/allows_win")),
                                frozenset(whole), MappingProxyType(some)))
    return tuple(out)


def _steps(ruleset: Ruleset, opts: Mapping[str, Any]) -> tuple[StepTerms, ...]:
    out = []
    for index, st in enumerate(ruleset.scoring.steps):
        params = _params(st.params, opts, f"/scoring/steps/{index}/params")
        if params.get("applies", True) is not False:  # a step that does not apply under these options does nothing
            out.append(StepTerms(st.name, params, st.rule or ""))
    return tuple(out)


def _settlement(st: Settlement, opts: Mapping[str, Any]) -> SettlementTerms:
    shares = st.method == "shares"
    payers: dict[str, Mapping[str, Any]] = {}
    for way in WAYS_OF_WINNING:
        roles = st.payers.get(way) or st.payers.get("discard")  # a robbed kong pays as a discard unless said
        if roles is None:
            continue
        where = f"/settlement/{way if way in st.payers else 'discard'}"
        payers[way] = MappingProxyType({
            role: _whole(amount, opts, f"{where}/{role}") if shares
            else tuple(_resolved(amount, opts, f"{where}/{role}"))
            for role, amount in roles.items()})
    return SettlementTerms(
        method=st.method, base=st.base, base_counter=st.base_counter or "",
        per_share=tuple(_resolved(st.per_share, opts, "/settlement/per_share")),
        payers=MappingProxyType(payers),
        contract=_contract(st.contract, opts) if st.contract else None,
        liability=_liability(st.liability, opts),
        direct_base=bool(_resolved(st.direct_base, opts, "/settlement/direct_base")),
    )


def _contract(contract: Mapping[str, Any], opts: Mapping[str, Any]) -> ContractTerms:
    def shares(key: str, default: Any = 0) -> int:
        return _whole(contract.get(key, default), opts, f"/settlement/contract/{key}")

    return ContractTerms(
        partner_counter=contract["partner_counter"], mutual_flag=contract["mutual_flag"],
        ready_flag=contract["ready_flag"], double_win_flag=contract.get("double_win_flag") or "",
        mutual_factor=shares("mutual_factor", 1), discard=shares("discard"), self_draw=shares("self_draw"),
        self_draw_others=shares("self_draw_others"), robbing_kong=shares("robbing_kong"),
        robbing_kong_konger=shares("robbing_kong_konger", contract.get("robbing_kong", 0)),
        third_party_ready=shares("third_party_discard_ready"),
        third_party_not_ready=shares("third_party_discard_not_ready"),
        double_win_ready=shares("double_win_ready"), double_win_not_ready=shares("double_win_not_ready"),
        calls=shares("calls"),
    )


def _liability(liability: Mapping[str, Any], opts: Mapping[str, Any]) -> LiabilityTerms | None:
    if not liability or not _resolved(liability.get("applies", True), opts, "/settlement/liability/applies"):
        return None
    return LiabilityTerms(frozenset(liability["patterns"]),
                          _whole(liability.get("claimed_sets", 0), opts, "/settlement/liability/claimed_sets"),
                          _whole(liability.get("discarder", 0), opts, "/settlement/liability/discarder"),
                          _whole(liability.get("others", 0), opts, "/settlement/liability/others"),
                          _exempt_flag(liability, opts),
                          str(_resolved(liability.get("with_contract", "contract"), opts,
                                        "/settlement/liability/with_contract")))


def _exempt_flag(liability: Mapping[str, Any], opts: Mapping[str, Any]) -> str:
    """The flag that exempts a hand from 包 under these options (settlement.liability.exempt_flag), or ""."""
    flag = liability.get("exempt_flag")
    if not flag or not _resolved(liability.get("exempt_applies", True), opts, "/settlement/liability/exempt_applies"):
        return ""
    return str(flag)
