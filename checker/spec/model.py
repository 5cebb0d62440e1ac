"""The typed spec: the frozen records a ruleset is loaded into, its errors, and how a value is chosen
under options."""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from collections.abc import Mapping
from typing import Any

from checker.inputs import excerpt

# Rules the engine enforces on every hand under any ruleset (Hand.build and the scorer report them).
ENGINE_RULES = {
    "tiles.hand_size": "the engine: 14 tiles plus one per kong (13 or 12 for a self-drawn win declared on flowers, "
                       "八花齐, during the deal or before the last flower's replacement)",
    "tiles.four_copies": "the engine: four copies of each tile, one of each flower",
    "win.shape": "the engine: the tiles form one of the ruleset's winning shapes (win.shapes)",
}
# the settlement's ways of being paid, each a section of `settlement` (with `liability`, 包)
PAYMENT_PATHS: tuple[str, ...] = ("self_draw", "discard", "robbing_kong", "contract")
# who pays a liable hand (包) under a contract (settlement.liability.with_contract): the contract's shares, 包's
# (the discarder paying alone what a self-drawn win under the contract would get), or both added
WITH_CONTRACT: tuple[str, ...] = ("contract", "liability", "both")


# --------------------------------------------------------------------------- errors

@dataclass(frozen=True)
class SpecIssue:
    """One problem in a spec file: where it is and what is wrong."""

    file: str
    pointer: str
    reason: str
    line: int | None = None

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.pointer}: {self.reason}" if self.pointer else f"{where}: {self.reason}"


class SpecError(Exception):
    """A spec failed to load or validate; `issues` lists every problem found."""

    def __init__(self, issues: list[SpecIssue]):
        self.issues = tuple(issues)
        super().__init__("\n".join(str(i) for i in issues))

    def __reduce__(self) -> tuple:
        """Pickled with its issues (an error raised in a worker process reaches the parent whole)."""
        return (type(self), (list(self.issues),))


# --------------------------------------------------------------------------- typed spec

@dataclass(frozen=True)
class Locator:
    doc: str
    section: str
    phrase: str


@dataclass(frozen=True)
class OptionRef:
    """A parameter or value that takes the value of a ruleset option."""

    option: str


@dataclass(frozen=True)
class Condition:
    """True when option `option` has the value `is_`."""

    option: str
    is_: Any


@dataclass(frozen=True)
class ConditionalExclusion:
    """Patterns a pattern keeps from counting when an option has a value (`excludes_if`): all their instances,
    or at most `count` of them (the rest count)."""

    when: Condition
    excludes: tuple[str, ...]
    count: int | None = None


@dataclass(frozen=True)
class Option:
    id: str
    values: tuple
    default: Any
    readings: Mapping[str, str]
    sources: tuple[Locator, ...]
    note: str = ""
    read_by: str = "scorer"  # "table": a reading of the table procedure (checker.table); the scorer never reads it
    # values the spec brings in from elsewhere (`imported.from`), which the document itself does not read
    imported: tuple = ()
    imported_from: str = ""
    # the value that reads the document's words literally, where the default reads them otherwise (`literal`)
    literal: Any = None

    def other_values(self, current: Any = None) -> list[Any]:
        """The values other than `current` (the default when not given), in the spec's order; compared by value
        and type, so True is not taken for 1."""
        current = self.default if current is None else current
        return [v for v in self.values if not (v == current and type(v) is type(current))]

    def coerce(self, raw: Any) -> Any:
        """Turn a user-given value (often a string from the command line) into one of `values`."""
        for value in self.values:
            if raw == value and (type(raw) is type(value) or (type(raw) is float and type(value) is int)):
                return value  # (a number written 6.0 is 6, as the schemas read it; true is no number)
        text = str(raw).strip().lower()
        for value in self.values:
            if value_key(value) == text:
                return value
        allowed = ", ".join(value_key(v) for v in self.values)
        raise ValueError(f"option {self.id!r} has no value {excerpt(raw)}; allowed: {allowed}")


@dataclass(frozen=True)
class Predicate:
    name: str
    params: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True)
class Pattern:
    """A scoring pattern (fan, hua item, double): its value, what it excludes, the predicate deciding it."""

    id: str
    name_en: str
    name_zh: str
    points: int | OptionRef
    counting: str
    when: Predicate
    excludes: tuple[str, ...] = ()
    implies: tuple[str, ...] = ()
    implies_within: tuple[str, ...] = ()
    excludes_if: tuple[ConditionalExclusion, ...] = ()
    requirement: str = ""
    note: str = ""
    sources: tuple[Locator, ...] = ()
    kind: str = "fan"
    allows_win: bool | OptionRef = False
    active_if: Condition | None = None
    cap: int | None = None


@dataclass(frozen=True)
class Shape:
    id: str
    name_en: str
    when: Predicate
    sources: tuple[Locator, ...] = ()


@dataclass(frozen=True)
class WinRefusal:
    """A win refused by its context (win.refused_when): a hand that meets every condition given (a way of
    winning among `win_by`, flowers `none` or `some`, `without_flag` missing, read in the win shape `shape`)
    may not win, by `rule`."""

    rule: str
    message: str
    win_by: tuple[str, ...] = ()
    flowers: str | None = None
    without_flag: str | None = None
    shape: str | None = None

    def refuses(self, win_by: str, has_flowers: bool, flags: frozenset[str] | set[str], shape: str = "") -> bool:
        return (not self.win_by or win_by in self.win_by) \
            and (self.flowers is None or (self.flowers == "some") == has_flowers) \
            and (self.without_flag is None or self.without_flag not in flags) \
            and (self.shape is None or self.shape == shape)

    def words(self) -> str:
        """The refusal as a rule: `a hand with no flowers may not win on a discard`."""
        who = "a hand" + {"none": " with no flowers", "some": " with flowers", None: ""}[self.flowers]
        if self.without_flag:
            who += f" without the {self.without_flag} flag"
        if self.shape:
            who += f" read as {self.shape.replace('_', ' ')}"
        how = " or ".join({"self_draw": "self-drawn", "discard": "on a discard", "robbing_kong": "by robbing a kong"}
                          .get(w, w) for w in self.win_by)
        return f"{who} may not win" + (f" {how}" if how else "")


@dataclass(frozen=True)
class WinRule:
    shapes: tuple[Shape, ...]
    minimum_points: int = 0
    minimum_excludes: tuple[str, ...] = ()
    requires_flags: tuple[tuple[str, str, str, tuple[str, ...]], ...] = ()  # (flag, rule id, message, exempt)
    requires_allowing_pattern: bool | Condition = False
    allowing_pattern_rule: str = "win.allowed_hands"
    refused_when: tuple[WinRefusal, ...] = ()

    @property
    def required_flags(self) -> tuple[str, ...]:
        """The flags an ordinary win needs (`requires_flags`: the knock), by name."""
        return tuple(flag for flag, _, _, _ in self.requires_flags)


@dataclass(frozen=True)
class Step:
    """One step of a hua ruleset's scoring, in order."""

    name: str
    params: Mapping[str, Any]
    rule: str = ""


@dataclass(frozen=True)
class Scoring:
    method: str = "fan_sum"
    unit: str = "points"
    steps: tuple[Step, ...] = ()


@dataclass(frozen=True)
class HandCheck:
    id: str
    check: Predicate
    message: str


@dataclass(frozen=True)
class Principles:
    non_repeat: bool | Condition = False
    account_once: bool | Condition = False
    withheld_fans_withhold: bool | Condition = False  # a fan withheld still withholds (principles.withheld_fans_withhold)
    highest_interpretation: bool | Condition = True
    chicken_hand: str | None = None


@dataclass(frozen=True)
class Settlement:
    method: str
    base: int = 0
    payers: Mapping[str, Mapping[str, Any]] = field(default_factory=lambda: MappingProxyType({}))
    note: str = ""
    per_share: tuple[str, ...] | OptionMap = ("value",)  # the terms of one share, or an option's choice of them
    contract: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    base_counter: str | None = None
    # 包: a discard win the discarder pays for all (applies, patterns, claimed_sets, discarder, others, with_contract)
    liability: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    # whether a share of a hand settled directly (清一色 1勒 …) carries its base terms, or an option's choice
    direct_base: bool | OptionMap | OptionRef = True


@dataclass(frozen=True)
class Counter:
    """Whole-number context a hand may carry (荒番 count, 底分), with the range a hand may give it; a value
    outside it is bad input reported as `rule`."""

    name: str
    about: str
    min: int
    max: int
    rule: str = "input.counters"
    note: str = ""


@dataclass(frozen=True)
class Statement:
    id: str
    doc: str
    section: str
    phrase: str
    rules: tuple[str, ...] = ()
    status: str = "modeled"
    why: str = ""
    reason: str = ""  # for a not-modeled statement: platform, advice or scope


@dataclass(frozen=True)
class Decision:
    """A point the document leaves open that the spec or the engine decides without it (spec `decisions`):
    what decides it (`by`: rule ids or engine files), the reading taken first among `readings`, and the
    sentences that bear on it."""

    id: str
    question: str
    decided: str
    by: tuple[str, ...]
    readings: tuple[str, ...]
    sources: tuple[Locator, ...] = ()


@dataclass(frozen=True)
class Example:
    """An example hand of the spec (`examples`): what it aims at, whether the corpus generator takes it as a
    witness candidate or only the killing-case search tries it (`use`), and the hand in the short form."""

    aim: str
    use: str
    concealed: str
    win: str
    melds: tuple[tuple[Any, ...], ...] = ()
    win_by: str = "self_draw"
    discarder: int | None = None
    flowers: str = ""
    flags: tuple[str, ...] = ()
    counters: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True)
class ProcedureExample:
    """A hand of play of the spec (`procedure_examples`), written out: the options it is played under, the tiles
    dealt to seats 0-3, the wall's front and back draws, its events written short, the rules it shows and the
    test that works it by hand."""

    id: str
    options: Mapping[str, Any]
    hands: tuple[str, ...]
    draws: str
    back: str
    events: tuple[str, ...]
    covers: tuple[str, ...]
    worked_in: str


@dataclass(frozen=True)
class Ruleset:
    id: str
    title: str
    title_zh: str
    path: str
    sources: tuple[Mapping[str, str], ...]
    options: Mapping[str, Option]
    win: WinRule
    principles: Principles
    patterns: tuple[Pattern, ...]
    settlement: Settlement
    statements: tuple[Statement, ...]
    tiles: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    flags: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    counters: Mapping[str, Counter] = field(default_factory=lambda: MappingProxyType({}))
    scoring: Scoring = field(default_factory=Scoring)
    hand_checks: tuple[HandCheck, ...] = ()
    procedure: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    # fact of play -> the flag (or, for contract_partner, the counter) the table sets for it on a win
    table_context: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    warnings: tuple[SpecIssue, ...] = ()  # what loads but deserves a look (an exclusion cycle)
    rules: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))  # rule id -> where defined
    cited: tuple[Locator, ...] = ()  # every locator anywhere in the spec (statements, patterns' sources, ...)
    decisions: tuple[Decision, ...] = ()  # what the spec or the engine decides where the document is silent
    examples: tuple[Example, ...] = ()  # example hands the candidate search tries (spec `examples`)
    procedure_examples: tuple[ProcedureExample, ...] = ()  # hands of play written out (spec `procedure_examples`)
    headings: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: MappingProxyType({}))  # doc -> its headings

    def pattern(self, pattern_id: str) -> Pattern:
        for p in self.patterns:
            if p.id == pattern_id:
                return p
        raise KeyError(pattern_id)

    def resolve_options(self, overrides: Mapping[str, Any] | None = None) -> Mapping[str, Any]:
        """Defaults overlaid with `overrides`; an unknown option or value raises ValueError naming it."""
        chosen = {oid: opt.default for oid, opt in self.options.items()}
        for key, raw in (overrides or {}).items():
            if key not in self.options:
                known = ", ".join(sorted(self.options)) or "none"
                raise ValueError(f"ruleset {self.id!r} has no option {excerpt(key)}; its options: {known}")
            chosen[key] = self.options[key].coerce(raw)
        return MappingProxyType(chosen)

    def scoring_options(self) -> Mapping[str, Option]:
        """The options the scorer reads (those of the table procedure left out: they never change a score)."""
        return {oid: o for oid, o in self.options.items() if o.read_by == "scorer"}

    @property
    def dragons_as_flowers(self) -> bool:
        """Whether the dragons are set aside as flowers (tiles.dragons_as_flowers): never among a hand's tiles."""
        return bool(self.tiles.get("dragons_as_flowers", False))

    @property
    def flower_tiles(self) -> int:
        """How many flower tiles the set holds (tiles.flowers; 8, 1f-8f, when the spec does not say)."""
        return int(self.tiles.get("flowers", 8))

    def executed_entries(self) -> tuple[str, ...]:
        """The procedure entries given for the table to execute: all but those holding `not_executed` (data
        with the reason the table does not play it)."""
        return tuple(name for name, raw in self.procedure.items()
                     if not (isinstance(raw, Mapping) and "not_executed" in raw))

    def rule_ids(self) -> frozenset[str]:
        """Every rule id this spec defines (see `defined_rules`), for statements and case `covers`."""
        return frozenset(self.rules)


def value_key(value: Any) -> str:
    """How an option value is written as a key (`readings`) or on the command line: true, 8, table_only."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def options_text(options: Mapping[str, Any]) -> str:
    """Option values as the command line takes them, in the order given: `fig_then_doubled=true, base=2`."""
    return ", ".join(f"{k}={value_key(v)}" for k, v in options.items())


@dataclass(frozen=True)
class OptionMap:
    """A value chosen by an option: `map[value of option]`."""

    option: str
    map: Mapping[str, Any]


def _value(raw: Any) -> Any:
    if isinstance(raw, dict) and set(raw) == {"option"}:
        return OptionRef(raw["option"])
    if isinstance(raw, dict) and set(raw) == {"option", "map"}:
        return OptionMap(raw["option"], MappingProxyType({k: _value(v) for k, v in raw["map"].items()}))
    if isinstance(raw, list):
        return tuple(raw)
    return raw


def chosen(value: Any, options: Mapping[str, Any]) -> Any:
    """A spec value under chosen options: an option's value (OptionRef), or what an option's `map` gives for
    its value, which may name another option in turn (OptionMap); any other value as it is. The engine calls
    it when it binds a ruleset to options, never while scoring."""
    if isinstance(value, OptionRef):
        return options[value.option]
    if isinstance(value, OptionMap):
        return chosen(value.map[value_key(options[value.option])], options)
    return value
