"""Witnesses: for each rule of a spec, a candidate hand that exercises it, chosen with as few other patterns
as possible.

A candidate is scored once through the reference engine (`checker.case`: the same path `mjcheck score
--batch` takes), and the scored candidate offers itself as a witness for every *target* it shows: a pattern
it scores, an exclusion pair its scorer's `withheld` list shows (both fans found, one withheld), the way it
was won and paid (self-draw, a discard from each seat, a robbed kong, 承包), the rule that refused it, and
the boundaries it sits on (MCR's 7 and 8 points before flowers; a hua ruleset's cap and limits).
Among the candidates for a target the one with the fewest counted fans wins; ties go to the first found,
so the choice depends only on the candidates' order.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from checker.case import CaseRunner, hand_from_input, readings_of
from checker.engine import HandError
from checker.engine.steps import Acted
from checker.spec import Ruleset
from checker.spec.roles import Roles

Target = tuple  # ("fan", id) | ("exclusion", withheld, by) | ("settlement", path, …) | ("refusal", rule) | ("boundary", …)


@dataclass(frozen=True)
class Scored:
    """A candidate input and what the reference engine gave for it under `options`."""

    source: str
    input: Mapping[str, Any]
    options: Mapping[str, Any]
    result: Mapping[str, Any]
    refused: bool
    withheld: tuple[tuple[str, str], ...] = ()
    steps: tuple[Acted, ...] = ()  # the scoring steps that did something (Score.steps)
    cap: int | None = None  # the hand's cap (Score.cap)
    qualifying: int = 0

    @property
    def valid(self) -> bool:
        return bool(self.result.get("valid")) or "either" in self.result

    @property
    def members(self) -> list[Mapping[str, Any]]:
        return readings_of(self.result)

    @property
    def fan_ids(self) -> set[str]:
        return {f["id"] for r in self.members for f in r.get("fans", [])}

    @property
    def noise(self) -> int:
        """How much else the hand scores: its counted fan entries (fewer is a clearer witness)."""
        return len(self.members[0].get("fans", []))


def score_input(runner: CaseRunner, ruleset_id: str, options: Mapping[str, Any], data: Mapping[str, Any],
                source: str = "") -> Scored:
    """Score one case input as `CaseRunner.outcome` would, keeping the scorer's withheld list and explanation."""
    scorer = runner.scorer(ruleset_id, options)
    try:
        hand = hand_from_input(data, scorer)
    except HandError as exc:
        return Scored(source, data, dict(options), {"valid": False, "error": exc.rule}, True)
    score = scorer.score(hand)
    return Scored(source, data, dict(options), score.as_expect(), False, tuple(score.withheld), score.steps,
                  score.cap, score.qualifying)


def exclusion_pairs(ruleset: Ruleset) -> list[tuple[str, str]]:
    """Every (withheld fan, withholding fan) pair the spec declares: excludes, implies, implies_within and
    option-conditional excludes, in spec order."""
    pairs: list[tuple[str, str]] = []
    for p in ruleset.patterns:
        named = list(p.excludes) + list(p.implies) + list(p.implies_within)
        for rule in p.excludes_if:
            named += list(rule.excludes)
        for other in named:
            if (other, p.id) not in pairs:
                pairs.append((other, p.id))
    return pairs


def targets(s: Scored, minimum_points: int = 0, role: Roles | None = None) -> list[Target]:
    """The targets a scored candidate can witness."""
    found: list[Target] = []
    data = s.input
    if s.refused:
        found.append(("refusal", s.result["error"]))
        return found
    if not s.valid:
        found.append(("refusal", s.result["error"]))
        if s.result["error"] == "win.minimum_points" and s.qualifying == minimum_points - 1:
            found.append(("boundary", "below_minimum", "flowers" if data.get("flowers") else "no_flowers"))
        return found
    found += [("fan", f) for f in sorted(s.fan_ids)]
    found += [("exclusion", w, by) for w, by in s.withheld if by != "account_once"]
    if any(w == "account_once" or by == "account_once" for w, by in s.withheld):
        found.append(("principle", "account_once"))
    if "either" in s.result:
        found.append(("principle", "either"))
    win_by = data.get("win_by", "self_draw")
    counters = data.get("counters") or {}
    if role is not None and role.contract_partner and counters.get(role.contract_partner):
        mutual = "mutual" if role.contract_mutual and (data.get("flags") or {}).get(role.contract_mutual) else "one_way"
        found.append(("settlement", "contract", win_by, mutual))
    elif win_by == "self_draw":
        found.append(("settlement", "self_draw"))
    else:
        found.append(("settlement", win_by, data.get("discarder")))
    if minimum_points and s.qualifying == minimum_points:
        found.append(("boundary", "at_minimum", "flowers" if data.get("flowers") else "no_flowers"))
    capped, limited = _cut(s, "limit") is not None, _cut(s, "outer_limit") is not None
    if capped:
        found.append(("boundary", "cap", "above"))
    if limited:
        found.append(("boundary", "single_hand_limit", "above"))
    total = s.members[0].get("total", 0)
    if s.cap is not None and not capped and not limited:
        if total == s.cap:
            found.append(("boundary", "cap", "at"))
        elif total < s.cap and s.cap - total <= 10:
            found.append(("boundary", "cap", "below"))
    return found


def _cut(s: Scored, step: str) -> Acted | None:
    """The run of the step named `step` (the engine's step names: `limit` cuts to the cap, `outer_limit` to the
    single-hand limit) when it lowered the hand's value, else None."""
    for acted in s.steps:
        if acted.step == step and acted.after < acted.before:
            return acted
    return None


def choose(scored: Iterable[Scored], minimum_points: int = 0, role: Roles | None = None) -> dict[Target, Scored]:
    """The clearest witness for each target the scored candidates show (fewest fans; first found on ties)."""
    best: dict[Target, Scored] = {}
    for s in scored:
        for t in targets(s, minimum_points, role):
            if t not in best or s.noise < best[t].noise:
                best[t] = s
    return best


def limit_witnesses(scored: Iterable[Scored], limit: int) -> dict[Target, Scored]:
    """Hands at and just below a value limit (the single-hand limit): the highest total under it, and one at it."""
    below: Scored | None = None
    at: Scored | None = None
    for s in scored:
        if not s.valid or s.refused or _cut(s, "outer_limit") is not None:
            continue
        total = s.members[0].get("total", 0)
        if total == limit and at is None:
            at = s
        elif total < limit and (below is None or total > below.members[0].get("total", 0)):
            below = s
    out: dict[Target, Scored] = {}
    if at is not None:
        out[("boundary", "single_hand_limit", "at")] = at
    if below is not None:
        out[("boundary", "single_hand_limit", "below")] = below
    return out


def limit_of(scored: Iterable[Scored]) -> int | None:
    """The single-hand limit a ruleset applies, read from a hand it limited (None: none seen)."""
    for s in scored:
        cut = _cut(s, "outer_limit")
        if cut is not None:
            return cut.after
    return None
