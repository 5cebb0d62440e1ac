"""The departures tried for a failure class (checker.diagnose.causes searches them), most likely first.

For a class: the option readings; the one-step spec edits its signature points at (the points an engine gives a
fan, a fan counted once where the spec counts each instance or the reverse, a multiplier read as doubles or the
reverse, the exclusions and implied links that would keep out a fan it
adds or lacks, a predicate's true/false parameter the other way); for a verdict or amounts that differ, the
amounts (the minimum and the flowers counted toward it, the base, each payer's share, each step's numbers, a cap
on the doubles) and a win refused by a context every case shares; then every context reading. A hand of play's
class is tried with the readings and the procedure's one-step edits (checker.mutate.procedure). Each edit is made
by checker.mutate; nothing here scores.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Callable, Mapping, Sequence

from checker.case import fans_of, readings_of
from checker.diagnose.classes import FailureClass
from checker.diagnose.judged import kind_of, rescorable
from checker.mutate import edits
from checker.mutate.catalog import contract_and_liability, predicate_parameter_edits, withheld_withholding
from checker.mutate import context
from checker.mutate.context import context_readings
from checker.mutate.mutation import Mutation
from checker.mutate.procedure import procedure_mutations
from checker.mutate.log_reads import log_readings
from checker.mutate.procedure import PREFIX as PROCEDURE
from checker.mutate.readings import default_readings, option_readings, places_deciding, table_readings
from checker.spec import Ruleset


def candidates_for(cls: FailureClass, ruleset: Ruleset,
                   parts: Sequence[Mapping[str, Any]] | None = None) -> list[Mutation]:
    """The departures tried for a class, smallest and most likely first: readings, the spec edits its
    signature (or `parts`, another view of it) suggests, then every context reading, then (where `parts` is
    another view) the amounts its verdict suggests."""
    found: list[Mutation] = list(option_readings(ruleset))
    if kind_of(cls.witness) == "procedure":  # a hand of play: the table's readings too, then the procedure's
        # one-step edits (corpus strength's), but for one that is a table reading said another way
        found += table_readings(ruleset)
        said = {m.id for m in found}
        edits_ = [m for m in procedure_mutations(ruleset) if _as_reading(m, ruleset) not in said]
        return list({m.id: m for m in found + edits_ + log_readings(ruleset)}.values())
    found += default_readings(ruleset)
    found += suggested_edits(cls, ruleset, parts)
    found += context_readings(ruleset)
    if parts is not None and parts is not cls.parts:
        found += _amount_edits(cls, ruleset)
    return list({m.id: m for m in found}.values())


def _as_reading(m: Mutation, ruleset: Ruleset) -> str:
    """The id of the option reading a procedure edit is, said another way, else "": an option's default changed
    (on a hand of play that names no option, the engine reading it so), or the one field an option decides fixed
    to one of its values (`procedure:knock.concealed_kong=never` is `option:knock_concealed_kong=never`)."""
    options = [r[len("option."):] for r in m.rules if r.startswith("option.")]
    if len(options) != 1 or not m.id.startswith(PROCEDURE) or "=" not in m.id:
        return ""
    value = m.id.rsplit("=", 1)[1]
    option = ruleset.options.get(options[0])
    if option is None or (not m.id.startswith(f"{PROCEDURE}default:") and places_deciding(ruleset, option.id) != 1):
        return ""
    return f"option:{option.id}={value}"


def suggested_edits(cls: FailureClass, ruleset: Ruleset, parts: Sequence[Mapping[str, Any]] | None = None) -> list[Mutation]:
    """The one-step spec edits a class's signature points at (`parts`: another view of its signature)."""
    return [m for edits_of_part in edits_by_part(cls, ruleset, parts) for m in edits_of_part]


def edits_by_part(cls: FailureClass, ruleset: Ruleset,
                  parts: Sequence[Mapping[str, Any]] | None = None) -> list[list[Mutation]]:
    """For each part of a class's signature, the spec edits that would make it, most likely first: the points an
    engine gives a fan; the exclusions or implied links that keep out a fan it adds; those that would keep out a
    fan it lacks; the amounts, for a verdict or a field."""
    rid = ruleset.id
    known = {p.id: p for p in ruleset.patterns}
    counted_in = _cases_counting(cls)
    counted = set(counted_in)
    engine_fans = _engine_fans(cls)
    out: list[list[Mutation]] = []
    shown = cls.parts if parts is None else parts
    # fans the spec has that differ make the total and payments differ with them; fans outside the spec do not
    # say what they are worth to the rules, so the amounts are searched beside them
    outside = any(part.get("extra") and part.get("fan") not in known for part in shown)
    fan_parts = any("fan" in part for part in shown) and not outside
    amounts_given = False
    for part in shown:
        fan = part.get("fan")
        found: list[Mutation] = []
        if part.get("different") and fan in known:
            (ep, ec), (ap, ac) = part["expected"], part["actual"]
            if ep != ap and isinstance(ap, int) and not isinstance(ap, bool) and ap >= 0:
                found.append(edits.points(rid, fan, ap, known[fan].points))
            if ec != ac and isinstance(ac, int) and isinstance(ec, int):  # each instance counted once, or the reverse
                if known[fan].counting == "each" and ac == 1 < ec:
                    found.append(edits.counting(rid, fan, "once", "each"))
                elif known[fan].counting == "once" and ac > 1:
                    found.append(edits.counting(rid, fan, "each", "once"))
            found += edits.kind_swaps(ruleset.id, known[fan])
        if part.get("extra") and fan in known:  # the patterns the reference counted in these hands first
            for p in sorted(ruleset.patterns, key=lambda p: p.id not in counted):
                if fan in p.excludes:
                    found.append(edits.exclusion_dropped(rid, p.id, fan))
                if fan in p.implies or fan in p.implies_within:
                    found.append(edits.implied_dropped(rid, p.id, fan))
        if part.get("missing") and fan in known:  # the fans counted beside it in most of the class's cases first
            found += withheld_withholding(ruleset)  # a fan withheld withholding it
            for other in sorted(engine_fans | counted, key=lambda f: (-counted_in.get(f, 0), f)):
                if other in known and other != fan:
                    if fan not in known[other].excludes:
                        found.append(edits.exclusion_added(rid, other, fan))
                    if fan not in known[other].implies:
                        found.append(edits.implied_added(rid, other, fan))
        if fan in known:
            found += predicate_parameter_edits(ruleset, known[fan])
        if "verdict" in part and part["verdict"]["expected"] == "win" and part["verdict"]["actual"] != "win":
            found += _refusals(cls, ruleset)  # the engine refuses wins the rules allow: by their context?
        if "verdict" in part and part["verdict"]["actual"] == "win":  # the engine wins hands a check refuses
            found += [edits.check_dropped(rid, hc.id, hc.message) for hc in ruleset.hand_checks
                      if hc.id == part["verdict"]["expected"]]
            found += _flag_checks(ruleset, part["verdict"]["expected"])
            found += _refused_input_read_absent(ruleset, part["verdict"]["expected"])
        if "verdict" in part or ("field" in part and not fan_parts and not amounts_given):
            found += _amount_edits(cls, ruleset)  # (a total that differs with the fans follows from them)
            amounts_given = "field" in part
        out.append(found)
    return out


def _flag_checks(ruleset: Ruleset, check_id: str) -> list[Mutation]:
    """Where the check a class shows not made is one of several checks of one flag: none of them made (an engine
    that never refuses a flag that does not fit, but reads it where it counts)."""
    flag = next((hc.check.params.get("flag") for hc in ruleset.hand_checks if hc.id == check_id), None)
    checks = tuple(hc.id for hc in ruleset.hand_checks if flag is not None and hc.check.params.get("flag") == flag)
    return [edits.flag_checks_dropped(ruleset.id, str(flag), checks)] if len(checks) > 1 else []


def _refused_input_read_absent(ruleset: Ruleset, rule: str) -> list[Mutation]:
    """Where the engine scores a hand the rules refuse as bad input under `rule`: that input read as absent (a flag
    one of its checks refuses, a counter out of the range `rule` holds it to), not refused and not read."""
    flag = next((hc.check.params.get("flag") for hc in ruleset.hand_checks if hc.id == rule), None)
    found = [] if flag is None else [context.flag_unfit_ignored(ruleset, str(flag), tuple(
        hc.id for hc in ruleset.hand_checks if hc.check.params.get("flag") == flag))]
    found += [context.counter_out_of_range_ignored(ruleset, name) for name, c in ruleset.counters.items()
              if c.rule == rule]
    return found


def _amount_edits(cls: FailureClass, ruleset: Ruleset) -> list[Mutation]:
    """Edits of the amounts: the minimum (at the values that would flip the class's verdicts), the base, each
    payer's share, each scoring step's numeric parameters, the single-hand limit taking the 底分 in, the numbers of
    承包 and 包 and their patterns."""
    rid = ruleset.id
    out: list[Mutation] = []
    was = ruleset.win.minimum_points
    totals: list[int] = sorted({int(w["total"]) for r in cls.members for w in readings_of(r.expected)
                                if isinstance(w.get("total"), int)})
    values = set(edits.neighbours(was)) | {t + 1 for t in totals} | set(totals)
    out += [edits.minimum(rid, v, was) for v in sorted(values) if v != was and v >= 0]
    out += [edits.minimum_counts(rid, p) for p in ruleset.win.minimum_excludes]  # flowers toward the minimum
    settlement = ruleset.settlement
    if settlement.base:
        paid = {abs(p) for r in cls.members for a in readings_of(r.actual) if isinstance(a.get("payments"), list)
                for p in a["payments"] if isinstance(p, int) and not isinstance(p, bool) and p < 0}
        for r in cls.members:  # a payer of base and points: what is left of the payment when the points are out
            for a in readings_of(r.actual):
                if isinstance(a.get("total"), int):
                    paid |= {p - a["total"] for p in set(paid) if p > a["total"]}
        values = set(edits.neighbours(settlement.base)) | {v for v in paid if v <= 10 * settlement.base + 100}
        out += [edits.base(rid, v, settlement.base) for v in sorted(values) if v != settlement.base]
    for kind, roles in settlement.payers.items():
        for role, amount in roles.items():
            if isinstance(amount, int) and not isinstance(amount, bool):
                out += [edits.share(rid, kind, role, v, amount) for v in edits.neighbours(amount)]
            elif isinstance(amount, (list, tuple)) and all(isinstance(t, str) for t in amount):
                terms = list(amount)
                variants = [[t for t in terms if t != drop] for drop in terms] + \
                           [terms + [t] for t in ("base", "points", "value") if t not in terms and t in _terms(ruleset)]
                out += [edits.share(rid, kind, role, v, terms) for v in variants if v != terms]
    kinds = {p.id: p.kind for p in ruleset.patterns}
    doubled = sorted({sum(int(f.get("points") or 0) * int(f.get("count") or 1) for f in fans_of(w)
                          if kinds.get(str(f.get("id"))) == "double")
                      for r in cls.members for w in readings_of(r.expected)})
    for index, step in enumerate(ruleset.scoring.steps):
        for name, value in step.params.items():
            if isinstance(value, int) and not isinstance(value, bool):
                out += [edits.step_parameter(rid, index, step, name, v) for v in edits.neighbours(value)]
        if step.name == "doubles" and "most" not in step.params and doubled and doubled[-1] > 1:
            out += [edits.doubles_capped(rid, index, step, most) for most in range(1, doubled[-1])]
        if step.name == "outer_limit" and step.params.get("bounds", "value") == "value" and settlement.method == "shares":
            out.append(edits.limit_takes_base(rid, index, step))
    out += contract_and_liability(ruleset, edits.neighbours, table_read=True)  # who pays how many shares
    counted = _counted_fans(cls)
    for p in ruleset.patterns:
        if p.id in counted:
            out += edits.kind_swaps(ruleset.id, p)
    return out


def _refusals(cls: FailureClass, ruleset: Ruleset) -> list[Mutation]:
    """Wins refused by a context every case of the class shares: its way of winning, its flowers (none or
    some), a flag none of them has; alone and two together."""
    inputs = [r.input for r in cls.members if isinstance(r.input, Mapping)]
    if not inputs:
        return []
    ways = {str(d.get("win_by", "self_draw")) for d in inputs}
    flowered = {bool(d.get("flowers")) for d in inputs}
    had = {str(f) for d in inputs for f, v in (d.get("flags") or {}).items() if v} if all(
        isinstance(d.get("flags") or {}, Mapping) for d in inputs) else set(ruleset.flags)
    win_by = (next(iter(ways)),) if len(ways) == 1 else ()
    flowers = ("some" if next(iter(flowered)) else "none") if len(flowered) == 1 else None
    lacking = [f for f in ruleset.flags if f not in had]
    conditions: list[tuple[tuple[str, ...], str | None, str | None]] = []
    for w in ((), win_by) if win_by else ((),):
        for f in (None, flowers) if flowers else (None,):
            for flag in (None, *lacking):
                if sum((bool(w), f is not None, flag is not None)) in (1, 2):
                    conditions.append((w, f, flag))
    conditions.sort(key=lambda c: sum((bool(c[0]), c[1] is not None, c[2] is not None)))  # single ones first
    out = [edits.refusal_added(ruleset.id, w, f, flag) for w, f, flag in conditions]
    shape = _shared_shape(cls, ruleset)
    if shape is not None:  # a shape every case of the class is read in, when the ruleset has more than one
        out.insert(0, edits.refusal_added(ruleset.id, shape=shape))
    return out


SHAPE_SAMPLE = 40  # the class's cases whose shape is read (each scored once by the reference)


def _shared_shape(cls: FailureClass, ruleset: Ruleset) -> str | None:
    """The win shape (a win.shapes id) the reference reads every sampled case of the class in, when the ruleset
    has several and they all share one; None otherwise."""
    if len(ruleset.win.shapes) < 2:
        return None
    from checker.case import hand_from_input
    from checker.engine import HandError, Scorer

    named = {s.when.name: s.id for s in ruleset.win.shapes}
    found: set[str] = set()
    scorers: dict[str, Scorer] = {}  # the class's own ruleset under each reading its cases give (not looked up by id)
    for r in cls.members[:SHAPE_SAMPLE]:
        if not rescorable(r) or not isinstance(r.input, Mapping):
            return None
        options = dict(r.options or {})
        try:
            key = repr(sorted(options.items()))
            scorer = scorers.get(key) or scorers.setdefault(key, Scorer(ruleset, options))
            score = scorer.score(hand_from_input(r.input, scorer))
        except (HandError, ValueError, KeyError, TypeError, AttributeError):
            return None
        shape = named.get(score.reading.shape if score.reading is not None else "")
        if shape is None:
            return None
        found.add(shape)
        if len(found) > 1:
            return None
    return next(iter(found)) if found else None



def _terms(ruleset: Ruleset) -> set[str]:
    found: set[str] = set()
    for roles in ruleset.settlement.payers.values():
        for amount in roles.values():
            if isinstance(amount, (list, tuple)):
                found.update(t for t in amount if isinstance(t, str))
    return found


def _counted_fans(cls: FailureClass) -> set[str]:
    return {str(f.get("id")) for r in cls.members for w in readings_of(r.expected)
            for f in fans_of(w)}


def _cases_counting(cls: FailureClass) -> Counter[str]:
    """How many of the class's cases the rules count each fan in (in any of their readings)."""
    return Counter(fan for r in cls.members
                   for fan in {str(f.get("id")) for w in readings_of(r.expected) for f in fans_of(w)})


def _engine_fans(cls: FailureClass) -> set[str]:
    return {str(f.get("id")) for r in cls.members for w in readings_of(r.actual)
            for f in fans_of(w)}
