"""The catalogue of a ruleset's scoring mutants: every one-step departure `mjcheck corpus strength` holds a corpus to.

A mutant is a `Mutation` (the same objects `checker.diagnose` searches for causes): a wrong engine stated in the
rules' own terms. The families, in the order they are listed (each family in the spec's order, so the order and
the ids are the same on every run):

- `fan points` (and `hua points`, `double points`, `direct points`, `multiplier points`, `lift points`: a hua
  ruleset's items, doubles, direct settlements, 荒番 and 开宝 multipliers are patterns too): each pattern whose
  points are a plain number, at each of `number_steps` (a pattern priced by an option is left to the option's
  mutants);
- `cap`: a pattern's cap (cap units it raises the hand's cap to), and each numeric parameter of a cap or limit
  step; a single-hand limit that bounds the value taken to bound what is paid, 底分 included; `scoring step`: each numeric parameter of another step (the fig's 10, the direct unit);
- `exclusion dropped`, `implied dropped`: every declared `excludes`, `implies` and `implies_within` link, and each
  pattern of each conditional exclusion (`excludes_if`: dropped under its option's reading; only a case read so
  can kill it);
- `exclusion added`, `implied added`: a link between two patterns that `together` names as counted side by side,
  where the spec declares none, from the pattern the scorer weighs first (the higher fan; in a hua ruleset the
  one listed first) to the other, under the defaults or some other reading of an option the scorer reads: a
  link the other way never withholds anything, as a fan counts unless one weighed before it excludes it. Without the evidence of `together` no link is added: a link between two
  patterns that never count together changes no hand, and every pair of an 81-fan table is 6,480 mutants. A
  spec whose non-repeat principle is off (`principles.non_repeat: false`, the hua rulesets) reads no implied
  link, so no `implied added` mutant is made for it (each would change nothing); nor is a link made from the
  chicken hand (`principles.chicken_hand`), which the scorer counts after every other fan and only when none
  counts;
  `exclusion added` also holds a fan another withholds still withholding its own
  (`principle:withheld_fans_withhold=true`), where the spec says it does not;
- `predicate parameter`: each true/false parameter of a predicate deciding a pattern, the other way, for every
  pattern it decides (Last tile read from its flag alone: `predicate:last_copy.own_melds=false`);
- `kind`: a multiplier (×2^d) read as d doubles inside the cap, or a double read as a multiplier;
- `scoring step` also holds a cap on the doubles a hand counts (`doubles-at-most:N`, N below the most it can count);
- `minimum` also holds a pattern the minimum leaves out counted toward it (`minimum-counts:P`, flowers);
- `refusal`: a win refused by one condition of its context (a way of winning, no flowers or some, a flag missing
  that not every win needs);
- `minimum`, `base`, `settlement share` (a number of shares at `number_steps`; a list of terms with one term
  dropped or one the settlement uses elsewhere added), `contract` and `liability` (the numbers of 承包 and 包, and
  each pattern of their `patterns` left out);
- `option default`: each option the scorer reads, defaulted to each of its other values (a case that names the
  option is unchanged: only a case that leaves it out can kill one);
- `counter effect`: each counter the ruleset declares, ignored (`checker.mutate.context.counter_ignored`).

`scoring_catalog` also binds each mutant's edited spec (a `Scorer` under the default options): one that does not
bind (a share no settlement can pay, a unit of 0) is no ruleset, and is kept aside with the reason, counted but
never run. Procedure mutants (claims, 漏胡, knocking, dealer rotation …) are made by `checker.mutate.procedure`.
"""
from __future__ import annotations

import inspect
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, Callable, Collection, Iterable, Mapping

from checker import params
from checker.engine.hand import WIN_BY
from checker.engine.predicates.registry import PREDICATES
from checker.engine.scoring import Scorer
from checker.engine.steps import STEPS
from checker.mutate import edits
from checker.mutate.context import counter_ignored
from checker.mutate.mutation import Mutation
from checker.spec import Ruleset, schema

FAMILIES = ("fan points", "hua points", "double points", "direct points", "multiplier points", "lift points",
            "counting", "kind", "cap", "scoring step", "exclusion dropped", "implied dropped", "exclusion added",
            "implied added", "predicate parameter", "minimum", "refusal", "base", "settlement share", "contract",
            "liability", "option default", "counter effect")
DOUBLES_AT_MOST = (1, 2, 3)  # caps on the doubles a hand counts (below the most it can count), for an uncapped step


def number_steps(value: int) -> list[int]:
    """The values a one-step edit of a whole number tries: one more and one less (an off-by-one), twice as much
    (a factor confused, counted twice) and none (the rule left out); never below 0 nor the value itself. Halving
    (`edits.neighbours`, which the cause search also tries) is left out: for the small numbers of the tables it
    mostly repeats one less or none, and it would add a fifth of the mutants."""
    found = [value + 1, value - 1, value * 2, 0]
    return [v for v in dict.fromkeys(found) if v != value and v >= 0]


@dataclass(frozen=True)
class Catalog:
    """A ruleset's mutants in catalogue order (`mutations`), and why each one that does not bind does not."""

    ruleset: str
    mutations: tuple[Mutation, ...]
    unbound: Mapping[str, str] = field(default_factory=dict)  # mutant id -> why its edited spec does not bind

    @property
    def mutants(self) -> tuple[Mutation, ...]:
        """The mutants that bind."""
        return tuple(m for m in self.mutations if m.id not in self.unbound)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _points(ruleset: Ruleset) -> list[Mutation]:
    out = []
    for p in ruleset.patterns:
        if isinstance(p.points, int) and not isinstance(p.points, bool):
            family = f"{p.kind} points"
            out += [replace(edits.points(ruleset.id, p.id, v, p.points), family=family)
                    for v in number_steps(p.points)]
    return out


def _countings(ruleset: Ruleset) -> list[Mutation]:
    """A pattern counted once where the spec counts each instance (fan.PATTERN's counting); not for a pattern
    worth 0 (as many of nothing is nothing)."""
    return [edits.counting(ruleset.id, p.id, "once", p.counting) for p in ruleset.patterns
            if p.counting == "each" and not (_whole(p.points) and p.points == 0)]


def _kinds(ruleset: Ruleset) -> list[Mutation]:
    return [m for p in ruleset.patterns for m in edits.kind_swaps(ruleset.id, p)]


def _caps_and_steps(ruleset: Ruleset) -> list[Mutation]:
    out = [edits.pattern_cap(ruleset.id, p.id, v, p.cap) for p in ruleset.patterns if p.cap is not None
           for v in number_steps(p.cap)]
    for index, step in enumerate(ruleset.scoring.steps):
        for name, value in step.params.items():
            if _whole(value):
                out += [edits.step_parameter(ruleset.id, index, step, name, v) for v in number_steps(value)]
        if step.name == "outer_limit" and step.params.get("bounds", "value") == "value" and \
                ruleset.settlement.method == "shares":
            out.append(edits.limit_takes_base(ruleset.id, index, step))
        if step.name == "doubles" and "most" not in step.params:
            out += [replace(edits.doubles_capped(ruleset.id, index, step, most), family="scoring step")
                    for most in DOUBLES_AT_MOST if most < _most_doubles(ruleset)]
    return out


def _most_doubles(ruleset: Ruleset) -> int:
    """The most doubles one hand can count under the default options (each double pattern at its points, once,
    or four times when it counts each instance): a cap at or above it changes no such hand, so it is no mutant."""
    from checker.spec.bind import bind

    most = 0
    for terms in bind(ruleset).patterns:
        if terms.pattern.kind == "double":
            most += terms.points * (1 if terms.pattern.counting == "once" else 4)
    return most


def _refusals(ruleset: Ruleset) -> list[Mutation]:
    """A win refused by one condition of its context the spec does not refuse it for: a way of winning, no
    flowers or some, a flag missing (not one every win already needs)."""
    required = set(ruleset.win.required_flags)
    out = [edits.refusal_added(ruleset.id, (w,)) for w in WIN_BY]
    out += [edits.refusal_added(ruleset.id, flowers=f) for f in ("none", "some")]
    out += [edits.refusal_added(ruleset.id, without_flag=f) for f in ruleset.flags if f not in required]
    return out


def _links_dropped(ruleset: Ruleset) -> list[Mutation]:
    out = []
    for p in ruleset.patterns:
        out += [edits.exclusion_dropped(ruleset.id, p.id, x) for x in p.excludes]
        out += [edits.conditional_exclusion_dropped(ruleset.id, p.id, c.when.option, c.when.is_, x)
                for c in p.excludes_if for x in c.excludes]
        out += [edits.implied_dropped(ruleset.id, p.id, x) for x in p.implies + p.implies_within]
    return out


def _links_added(ruleset: Ruleset, together: Collection[tuple[str, str]]) -> list[Mutation]:
    known = {p.id: p for p in ruleset.patterns}
    meet = {(a, b) for a, b in together if a in known and b in known and a != b}
    meet |= {(b, a) for a, b in meet}
    # the order the scorer weighs patterns in, under the defaults and under each other reading of each option the
    # scorer reads (an option can make a pattern active, or change its value and so its place)
    orders = [Scorer(ruleset, reading).rank for reading in scoring_readings(ruleset)]
    excluded, implied = [], []
    for p in ruleset.patterns:  # spec order, then the other pattern in spec order
        for q in ruleset.patterns:
            if (p.id, q.id) not in meet or q.id in p.excludes + p.implies + p.implies_within:
                continue
            if not any(p.id in rank and q.id in rank and rank[p.id] < rank[q.id] for rank in orders):
                continue  # under no reading is p weighed before q: a link from p never withholds it
            if p.id == ruleset.principles.chicken_hand:
                continue  # counted only after every other fan, when none counts: it withholds nothing
            excluded.append(edits.exclusion_added(ruleset.id, p.id, q.id))
            implied.append(edits.implied_added(ruleset.id, p.id, q.id))
    return excluded + withheld_withholding(ruleset) + (implied if ruleset.principles.non_repeat is not False else [])


def withheld_withholding(ruleset: Ruleset) -> list[Mutation]:
    """A fan another withholds still withholding its own, where the spec says it does not and fans withhold."""
    if ruleset.principles.withheld_fans_withhold is True or not any(p.excludes or p.implies for p in ruleset.patterns):
        return []
    return [edits.withheld_fans_withhold(ruleset.id)]


def predicate_parameters(ruleset: Ruleset) -> list[Mutation]:
    """Each true/false parameter of each predicate deciding a pattern, the other way (`predicate_parameter_edits`),
    each once."""
    found = {m.id: m for p in ruleset.patterns for m in predicate_parameter_edits(ruleset, p)}
    return list(found.values())


def predicate_parameter_edits(ruleset: Ruleset, pattern: Any) -> list[Mutation]:
    """Each true/false parameter of the predicate deciding `pattern`, the other way, for every pattern it decides
    (a parameter an option chooses is left to the option readings)."""
    kind = PREDICATES.get(pattern.when.name)
    if kind is None:
        return []
    patterns = tuple(p.id for p in ruleset.patterns if p.when.name == pattern.when.name)
    out = []
    for name, declared in kind.params.items():
        if declared.get("type") != "boolean":
            continue
        given = pattern.when.params.get(name, _default_of(kind.make, name))
        if isinstance(given, bool):
            out.append(edits.predicate_parameter(ruleset.id, pattern.when.name, name, not given, patterns,
                                                 str(declared.get("x-meaning") or "")))
    return out


def _default_of(make: Callable[..., Any], name: str) -> Any:
    """A factory's default for one parameter (False when it cannot be read: a compiled factory may hide it)."""
    try:
        default = inspect.signature(make).parameters[name].default
    except (ValueError, TypeError, KeyError):
        return False
    return False if default is inspect.Parameter.empty or default is None else default


def _amounts(ruleset: Ruleset) -> list[Mutation]:
    rid = ruleset.id
    out = [edits.minimum(rid, v, ruleset.win.minimum_points) for v in number_steps(ruleset.win.minimum_points)]
    out += [edits.minimum_counts(rid, p) for p in ruleset.win.minimum_excludes]  # (flowers toward the minimum)
    settlement = ruleset.settlement
    out += [edits.base(rid, v, settlement.base) for v in number_steps(settlement.base)]
    terms_used = sorted({t for roles in settlement.payers.values() for amount in roles.values()
                         if isinstance(amount, (list, tuple)) for t in amount if isinstance(t, str)})
    for kind, roles in settlement.payers.items():
        for role, amount in roles.items():
            if _whole(amount):
                out += [edits.share(rid, kind, role, v, amount) for v in number_steps(amount)]
            elif isinstance(amount, (list, tuple)) and all(isinstance(t, str) for t in amount):
                terms = list(amount)
                variants = [terms[:i] + terms[i + 1:] for i in range(len(terms))]
                variants += [terms + [t] for t in terms_used if t not in terms]
                out += [edits.share(rid, kind, role, v, terms) for v in variants if v != terms]
    return out + contract_and_liability(ruleset)


def contract_and_liability(ruleset: Ruleset, values: Callable[[int], list[int]] = number_steps,
                           table_read: bool = False) -> list[Mutation]:
    """The numbers of 承包 and 包 (each at `values` of it) and each pattern of their `patterns` left out; the
    numbers the table reads (how many calls make a contract) only with `table_read` (the catalogue leaves them to
    checker.mutate.procedure; diagnosis tries them on a hand scored alone, whose partner its melds show)."""
    rid, settlement, out = ruleset.id, ruleset.settlement, []
    for section in ("contract", "liability"):
        table_only = read_by_table(section)
        for key, value in getattr(settlement, section).items():
            if _whole(value) and (table_read or key not in table_only):
                out += [edits.settlement_number(rid, section, key, v, value) for v in values(value)]
        patterns = getattr(settlement, section).get("patterns")
        if isinstance(patterns, (list, tuple)) and len(patterns) > 1:  # (one left: the section would apply to none)
            out += [edits.settlement_pattern_dropped(rid, section, p) for p in patterns if isinstance(p, str)]
    return out


def scoring_readings(ruleset: Ruleset) -> list[dict[str, Any]]:
    """The defaults, and each other value of each option the scorer reads, one at a time."""
    return [{}] + [{option.id: value} for option in ruleset.scoring_options().values()
                   for value in option.other_values()]


def read_by_table(section: str) -> list[str]:
    """The fields of the settlement's `section` (contract, liability) that the table reads, not the scorer (the
    schema's x-read-by): their mutants are the procedure's (checker.mutate.procedure)."""
    props = schema("ruleset")["properties"]["settlement"]["properties"].get(section, {}).get("properties", {})
    return [key for key, declared in props.items() if declared.get("x-read-by") == "checker.spec.procedure"]


def _option_defaults(ruleset: Ruleset) -> list[Mutation]:
    return [edits.option_default(ruleset.id, option, value) for option in ruleset.scoring_options().values()
            for value in option.other_values()]


def _counters(ruleset: Ruleset) -> list[Mutation]:
    return [replace(counter_ignored(ruleset.id, name), family="counter effect") for name in ruleset.counters]


def scoring_mutations(ruleset: Ruleset, together: Iterable[tuple[str, str]] = ()) -> list[Mutation]:
    """Every one-step scoring mutant of the ruleset, bound or not, in catalogue order (FAMILIES), each id once.
    `together`: pairs of pattern ids known to count side by side (the only pairs an added link is made for)."""
    found = _points(ruleset) + _countings(ruleset) + _kinds(ruleset) + _caps_and_steps(ruleset) + _links_dropped(ruleset)
    found += _links_added(ruleset, set(together)) + predicate_parameters(ruleset) + _amounts(ruleset)
    found += _refusals(ruleset) + _option_defaults(ruleset)
    found += _counters(ruleset)
    order = {family: i for i, family in enumerate(FAMILIES)}
    unique = list({m.id: m for m in found}.values())
    return sorted(unique, key=lambda m: order.get(m.family, len(order)))  # (stable: spec order within a family)


def binding_problem(ruleset: Ruleset, mutation: Mutation) -> str | None:
    """Why the mutant's edited spec does not bind under the default options (None: it binds): the edit fails, a
    step it changed is given a number the step's declared parameter type refuses (as loading the spec would
    refuse it), or the scorer cannot be bound."""
    try:
        edited = mutation.edit(ruleset)
        for index, step in enumerate(edited.scoring.steps):
            if index < len(ruleset.scoring.steps) and step is ruleset.scoring.steps[index]:
                continue
            declared = STEPS[step.name][1] if step.name in STEPS else {}
            for name, value in step.params.items():
                if _whole(value) and name in declared and not params.fits(value, declared[name]):
                    return f"scoring step {index} ({step.name}): {name} must be {params.describe(declared[name])}"
        Scorer(edited, mutation.options)
    except (ValueError, KeyError, TypeError, AttributeError, ArithmeticError) as exc:
        return f"{type(exc).__name__}: {exc}"
    return None


def scoring_catalog(ruleset: Ruleset, together: Iterable[tuple[str, str]] = ()) -> Catalog:
    """The ruleset's scoring mutants, each bound (`binding_problem`): those that do not bind are named with why."""
    mutations = scoring_mutations(ruleset, together)
    unbound = {}
    for m in mutations:
        problem = binding_problem(ruleset, m)
        if problem is not None:
            unbound[m.id] = problem
    return Catalog(ruleset.id, tuple(mutations), MappingProxyType(unbound))
