"""Score a hand under a ruleset: every interpretation, its fans, exclusions, account-once, the best one.

The rules are data. `Scorer` binds a `Ruleset` to chosen option values once (points, predicate parameters,
which fans each fan keeps from counting) and then scores hands:

1. each pattern's predicate finds its instances in each interpretation (hand-wide ones once per hand);
2. exclusions read as defaults and exceptions: in order of value, a fan counts unless a fan already counted
   excludes it (its `excludes`, plus its `implies` closure under the non-repeat principle);
3. combination fans keep the largest set of instances the account-once principle allows;
4. the interpretation with the highest qualifying score wins (principle.highest_interpretation);
5. the chicken-hand pattern applies only when no interpretation has any other qualifying fan.

Beside it: what it answers (checker.engine.results: the Score, its fan lines, the readings compared), the
exclusions of step 2 (checker.engine.exclusions), what a batch of hands alike shares
(checker.engine.batch), and the predicates and shapes shared between bindings (checker.engine.binding). The
options themselves are resolved before, by the binding step (checker.spec.bind).
"""
from __future__ import annotations

from dataclasses import replace
from functools import partial
from types import MappingProxyType
from typing import Any, Callable, Final, Mapping

from checker import tiles as T
from checker.engine.checks import ABOUT_A_FLAG, CHECKS, MELDS_ONLY, REQUIRED
from checker.engine.hand import Hand, HandError
from checker.engine.interpretation import HandFacts, Interpretation, divisions_of, interpretations
from checker.engine.predicates import PREDICATES
from checker.engine.batch import Shared, SharedFans
from checker.engine.binding import DECIDERS, SHAPES, shared
from checker.engine.exclusions import ExclusionTable, Withheld, withheld_by
from checker.engine.predicates.registry import HAND, SPECIAL, Planned
from checker.engine.selection import best_combinations
from checker.engine.settlement import Payments
from checker.engine.shapes import BoundShapes, group_tiles
from checker.engine.steps import STEPS, Acted, Counted, Running, run_steps
from checker.spec import Ruleset
from checker.spec.bind import BindError, Bound, bind
from checker.spec.roles import roles
from checker.engine.results import BoundPattern, FanLine, Reading, Score, Tallied, counts_any, other_readings


class Scorer:
    """A ruleset bound to option values, ready to score hands."""

    def __init__(self, ruleset: Ruleset, options: Mapping[str, Any] | None = None):
        self.ruleset = ruleset
        self.bound: Bound = bind(ruleset, options)  # every option resolved once (checker.spec.bind)
        self.options = self.bound.options
        self.counter_ranges = {name: (c.min, c.max, c.rule) for name, c in ruleset.counters.items()}
        self.known_flags = ruleset.flags or None  # what build_hand checks a hand against
        self.knock_flag: str | None = roles(ruleset).knocked  # the flag of the table's knock, if any
        self.dragons_as_flowers = ruleset.dragons_as_flowers
        terms = self.bound
        non_repeat = terms.non_repeat
        self.account_once = terms.account_once
        self.chicken = ruleset.principles.chicken_hand
        by_id = {p.id: p for p in ruleset.patterns}

        bound = []
        for pt in terms.patterns:  # those active under the options
            p = pt.pattern
            kind = PREDICATES[p.when.name]
            params = dict(pt.params)
            try:
                decide = shared(DECIDERS, (p.when.name, params), partial(kind.make, **params))
            except (TypeError, ValueError) as exc:
                raise BindError(f"pattern {p.id!r}: predicate {p.when.name!r}: {exc}",
                                f"/patterns/{pt.index}/when/params") from None
            blocks = withheld_by(p.excludes, p.implies, lambda pid: by_id[pid].implies) if non_repeat \
                else frozenset(p.excludes)
            # excludes_if: what it keeps whole, and at most so many instances (even of a pattern `excludes`
            # withholds whole)
            some = dict(pt.excluded_some)
            blocks = (blocks | pt.excluded) - frozenset(some)
            bound.append(BoundPattern(p, pt.points, kind.scope, decide, blocks,
                                      frozenset(p.implies_within) if non_repeat else frozenset(), some,
                                      p.id not in ruleset.win.minimum_excludes))
        # Defaults and exceptions: a fan counts unless a fan of higher value already counted excludes it.
        table_order = {p.id: i for i, p in enumerate(ruleset.patterns)}
        if ruleset.scoring.method == "fan_sum":
            self.patterns = tuple(sorted(bound, key=lambda b: (-b.points, table_order[b.id])))
        else:  # hua items, doubles and caps are different units: keep the spec's order
            self.patterns = tuple(bound)
        self.hand_patterns = tuple(b for b in self.patterns if b.scope == HAND)
        self.interp_patterns = tuple(b for b in self.patterns if b.scope not in (HAND, SPECIAL))
        self.rank = MappingProxyType({b.id: i for i, b in enumerate(self.patterns)})
        # While scoring, a pattern is its rank: its index in self.patterns, which is the value order.
        rank = self.rank
        self.ids: tuple[str, ...] = tuple(b.id for b in self.patterns)
        self.points: tuple[int, ...] = tuple(b.points for b in self.patterns)
        self.qualifies: tuple[bool, ...] = tuple(b.qualifies for b in self.patterns)
        self.blocks: tuple[frozenset[int], ...] = tuple(
            frozenset(rank[t] for t in b.blocks if t in rank) for b in self.patterns)  # absent: inactive
        self.blocks_within: tuple[frozenset[int], ...] = tuple(
            frozenset(rank[t] for t in b.blocks_within if t in rank) for b in self.patterns)
        # per pattern, (rank, how many) of each pattern it withholds only so many instances of
        self.blocks_some: tuple[tuple[tuple[int, int], ...], ...] = tuple(
            tuple((rank[t], n) for t, n in b.blocks_some.items() if t in rank) for b in self.patterns)
        self.combination: tuple[bool, ...] = tuple(b.pattern.counting == "combination" for b in self.patterns)
        self.once: tuple[bool, ...] = tuple(b.pattern.counting == "once" for b in self.patterns)
        # hand-level predicates with their gates (see predicates.registry.hand_gate): tiles within, flag, win_by
        self.hand_plan: tuple[Planned, ...] = tuple(
            Planned(rank[b.id], b.decide, ALL_TILES & ~(getattr(b.decide, "within", None) or ALL_TILES),
                    getattr(b.decide, "flag", None), getattr(b.decide, "win_by", None),
                    PREDICATES[b.pattern.when.name].tiles_only)
            for b in self.hand_patterns if b.decide is not None)
        self._hand_plans: dict[tuple[frozenset[str], str], list[Planned]] = {}
        self.interp_plan = tuple((rank[b.id], b.decide, PREDICATES[b.pattern.when.name].tiles_only)
                                 for b in self.interp_patterns if b.decide is not None)
        self.chicken_rank = rank.get(self.chicken, -1) if self.chicken else -1
        allows = {pt.id for pt in terms.patterns if pt.allows_win}
        self.allowing = frozenset(i for i, b in enumerate(self.patterns) if b.id in allows)
        self.requires_flags = tuple((flag, rule, message, frozenset(rank[e] for e in exempt if e in rank))
                                    for flag, rule, message, exempt in ruleset.win.requires_flags)
        # a refusal's shape (a win.shapes id) compared as the reading names it: by the shape's predicate
        predicate_of = {s.id: s.when.name for s in ruleset.win.shapes}
        self.refused_when = tuple(replace(r, shape=predicate_of.get(r.shape, r.shape)) if r.shape else r
                                  for r in ruleset.win.refused_when)
        self._plans: dict[tuple, list[Planned]] = {}
        self.exclusions = ExclusionTable(self.blocks, self.blocks_within, self.blocks_some, self.combination,
                                         terms.withheld_fans_withhold)
        # [rank][count] -> line, for fans without sets (counts up to 8; more are made each time)
        self._plain_lines: list[list[FanLine | None]] = [[None] * 9 for _ in self.patterns]
        self._line_heads = tuple((b.id, b.pattern.name_en, b.pattern.name_zh, b.points, b.pattern.requirement,
                                  b.pattern.kind) for b in self.patterns)
        self.method = ruleset.scoring.method
        raised = {b.id: (b.pattern.cap if b.pattern.cap is not None else b.points)
                  for b in self.patterns if b.pattern.cap is not None or b.pattern.kind == "direct"}
        # the engine's own arguments: the caps patterns raise (cap), the settlement's 底分 (add_base)
        given: dict[str, dict[str, Any]] = {"cap": {"raised": raised},
                                             "add_base": {"base": ruleset.settlement.base,
                                                          "counter": ruleset.settlement.base_counter or ""}}
        # the steps that apply under these options (checker.spec.bind leaves out one whose `applies` is false)
        self.steps = tuple((STEPS[st.name][0], {**st.params, **given.get(st.name, {})}) for st in terms.steps)
        # per step run, its name and the spec rule it implements ("" when the spec names none)
        self.step_ids: tuple[tuple[str, str], ...] = tuple((st.name, st.rule) for st in terms.steps)
        # a single-hand limit that bounds each payer's whole loss, or takes the 底分 in, is the settlement's to apply
        loss_limit = payment_limit = None
        for st in terms.steps:
            if st.name != "outer_limit":
                continue
            top, per = int(st.params["units"]) * int(st.params["unit"]), st.params.get("per", "share")
            if st.params.get("bounds", "value") == "payment":
                payment_limit = (top, per)
            elif per == "payer":
                loss_limit = top
        for hc in terms.checks:
            missing = REQUIRED[hc.check] - set(hc.params)
            if missing:
                raise BindError(f"hand check {hc.id!r}: check {hc.check!r} needs parameter(s) "
                                f"{', '.join(sorted(missing))}", f"/hand_checks/{hc.index}/params")
        self.checks = tuple(
            (hc.id, partial(CHECKS[hc.check][0], **hc.params), hc.message,
             hc.params["flag"] if hc.check in ABOUT_A_FLAG else None, hc.check in MELDS_ONLY)
            for hc in terms.checks)
        self.settlement = Payments(terms.settlement, loss_limit, payment_limit)
        # 包 (settlement.liability) under these options: the ranks of the fans that make a discard win liable
        # (none: no liability, or not under these options)
        liability = self.settlement.liability
        self.liable_ranks: frozenset[int] = frozenset(
            rank[pid] for pid in liability.patterns if pid in rank) if liability is not None else frozenset()
        self._check_plans: dict[frozenset[str], list] = {}  # by the hand's flags
        self._check_plans_after_melds: dict[frozenset[str], list] = {}  # the same, less the melds-only checks
        self.requires_allowing = terms.requires_allowing_pattern
        self.minimum_points: int = ruleset.win.minimum_points
        shapes = [(s.predicate, dict(s.params)) for s in terms.shapes]
        self.shapes: BoundShapes = shared(SHAPES, shapes, partial(BoundShapes, shapes))
        # (flag, flowers) of each shape declared on flowers (八花齐): such a hand may hold 13 tiles (Hand.build)
        self.declared: tuple[tuple[str, int], ...] = tuple(
            (str(s.params["flag"]), int(s.params.get("flowers", 8))) for s in terms.shapes
            if s.predicate == "declared_flowers")

    def build_hand(self, checked: bool = True, concealed: Any = (), melds: Any = (), win_tile: Any = None,
                   win_by: Any = "self_draw", discarder: Any = None, seat_wind: Any = "E", round_wind: Any = "E",
                   flowers: Any = (), flags: Any = (), counters: Any = None) -> Hand:
        """`Hand.build` with this ruleset's flags, counters and flower tiles, then (`checked`) its hand checks,
        which alone depend on the options. (The parameters are Hand.build's, written out: passing them on as
        **kwargs cost a corpus run a tenth of building the hand.)"""
        hand = Hand.build(concealed, melds, win_tile, win_by, discarder, seat_wind, round_wind, flowers, flags,
                          self.known_flags, counters, self.counter_ranges, self.dragons_as_flowers, self.declared,
                          self.knock_flag)
        if checked:
            self.check(hand)
        return hand

    def check(self, hand: Hand, melds_checked: bool = False) -> None:
        """Raise HandError if the hand breaks one of the ruleset's hand checks (bad input). `melds_checked`: a
        hand holding the same melds has passed them, so the checks that read the melds alone are left out."""
        flags = hand.flags
        plans = self._check_plans_after_melds if melds_checked else self._check_plans
        plan = plans.get(flags)
        if plan is None:  # the checks that can fail with these flags (those about a flag need it)
            plan = [c for c in self.checks if (c[3] is None or c[3] in flags) and not (melds_checked and c[4])]
            if len(plans) < 1 << 10:
                plans[flags] = plan
        for rule, fn, message, _, _ in plan:
            problem = fn(hand)
            if problem:
                raise HandError(f"{message}: {problem}", rule)

    # ------------------------------------------------------------------ scoring


    def accepts(self, hand: Hand) -> bool:
        """Whether the hand passes the ruleset's hand checks (`check` raises no HandError)."""
        try:
            self.check(hand)
        except HandError:
            return False
        return True
    def _plan(self, structure: tuple) -> list[Planned]:
        """The interpretation-level predicates that can hold for this structure (shape, chows, pungs, kongs,
        wait, winds and dragons present), in value order; cached per structure."""
        plan = self._plans.get(structure)
        if plan is None:
            plan = [Planned(i, decide, tiles_only=tiles_only) for i, decide, tiles_only in self.interp_plan
                    if _admits(decide, structure)]
            self._plans[structure] = plan
        return plan

    def score(self, hand: Hand) -> Score:
        if self.checks:
            self.check(hand)
        facts = HandFacts(hand, self.shapes)
        readings = interpretations(hand, facts)
        return self._score_readings(hand, self._winners(hand, facts, readings, None))

    def score_wins(self, hands: list[Hand]) -> list[Score]:
        """Score hands that differ only in the winning tile and the way of winning (the same tiles, melds and
        context: the sweep's cases of one hand), sharing what depends on the tiles alone: their divisions, and
        the answers of the predicates registered `tiles_only` (once per hand, once per division). The same
        results as scoring each alone (tests/test_properties.py); ValueError if the hands hold different tiles."""
        return [self._score_readings(hand, winners) for hand, winners in self._wins(hands)]

    def fan_totals_of_wins(self, hands: list[Hand]) -> list[tuple[bool, str | None, dict[str, int], tuple]]:
        """As `score_wins`, each result cut to what the sweep compares: whether the hand may win, the rule
        refusing it (None when it may), the points of each counted fan by id (the fans of the first of the best
        readings, as `Score.fans`), and the same for each other reading worth as much with other fans
        (`Score.alternatives`). No fan lines, payments or messages are made."""
        out: list[tuple[bool, str | None, dict[str, int], tuple]] = []
        for hand, winners in self._wins(hands):
            if winners is None:
                out.append((False, "win.shape", {}, ()))
                continue
            best = winners[0]
            error = self._refused_by(hand, best.tally, best.qualifying, best.interpretation.shape)
            others = tuple([self._totals(other.tally) for other in other_readings(winners)]) if len(winners) > 1 else ()
            out.append((error is None, error, self._totals(best.tally), others))
        return out

    def _totals(self, tally: tuple[Tallied, ...]) -> dict[str, int]:
        """The points of each counted fan of a tally, by fan id."""
        ids, points = self.ids, self.points
        fans: dict[str, int] = {}
        for t in tally:
            fans[ids[t.rank]] = points[t.rank] * t.count
        return fans

    def _wins(self, hands: list[Hand]) -> list[tuple[Hand, list[Reading] | None]]:
        """Each hand of a batch alike but for the winning tile and way, with its best readings (`_winners`)."""
        out: list[tuple[Hand, list[Reading] | None]] = []
        memo = Shared()
        last: HandFacts | None = None
        divisions: list = []
        for hand in hands:
            if self.checks:  # those reading the melds alone once: the batch's hands hold the same melds
                self.check(hand, melds_checked=last is not None)
            if last is None:
                facts = HandFacts(hand, self.shapes)
                divisions = divisions_of(hand, facts)
            else:
                before = last.hand
                if hand.melds != before.melds or not (
                        hand.concealed == before.concealed and hand.win_tile == before.win_tile
                        or last.holds_tiles_of(hand)):
                    raise ValueError("score_wins: the hands of a batch must hold the same tiles and melds")
                facts = HandFacts(hand, self.shapes, last)
            out.append((hand, self._winners(hand, facts, interpretations(hand, facts, divisions, memo.made), memo)))
            last = facts
        return out

    def _winners(self, hand: Hand, facts: HandFacts, readings: list[Interpretation],
                 memo: Shared | None) -> list[Reading] | None:
        """The best-scoring readings of the hand, or None when it has none."""
        if not readings:
            return None
        hand_found = self.hand_fans(facts, memo)
        scored = [s for x in readings for s in self._score_interpretation(x, hand_found, memo)]
        if self.chicken_rank >= 0 and not self._any_fan(scored):
            first = scored[0]
            points = self.points[self.chicken_rank]
            scored = [Reading(points, first.total + points, (Tallied(self.chicken_rank, 1, _UNITS[1]),) + first.tally,
                              first.interpretation, first.withheld, first.run)]
        if len(scored) == 1:
            return scored
        # the reading worth most among those that may win (any reading, when none may)
        pool = [s for s in scored if self._refused_by(hand, s.tally, s.qualifying, s.interpretation.shape) is None] \
            or scored
        best_qual = max(s.qualifying for s in pool)
        best_total = max(s.total for s in pool if s.qualifying == best_qual)
        return [s for s in pool if s.qualifying == best_qual and s.total == best_total]

    def _score_readings(self, hand: Hand, winners: list[Reading] | None) -> Score:
        rs = self.ruleset
        if winners is None:
            return Score(rs.id, False, error="win.shape", hand=hand, options=self.options,
                         message="not a winning hand: the tiles form none of this ruleset's winning shapes "
                                 f"({', '.join(s.id for s in rs.win.shapes)})")
        best = winners[0]
        qual, total, tally, run = best.qualifying, best.total, best.tally, best.run
        lines = self._fan_lines(best.interpretation, tally)
        alternatives = [self._fan_lines(other.interpretation, other.tally) for other in other_readings(winners)]
        withheld_ids = best.withheld.names(self.ids)
        error, message = self._refusal(hand, tally, qual, best.interpretation.shape)
        return Score(rs.id, error is None, total=total, qualifying=qual, fans=lines,
                     payments=self.settlement.pay(hand, total, self._liable(tally), run is not None and run.direct)
                     if error is None else None,
                     error=error, message=message, reading=best.interpretation, alternatives=tuple(alternatives),
                     withheld=withheld_ids, explain=tuple(run.explain) if run is not None else (), hand=hand,
                     options=self.options, steps=self._acted(run), cap=run.cap if run is not None else None)

    def _acted(self, run: Running | None) -> tuple[Acted, ...]:
        """The scoring steps that did something in a run, each with its name and the spec rule it implements."""
        if run is None:
            return ()
        return tuple([Acted(self.step_ids[i][0], self.step_ids[i][1], before, after) for i, before, after in run.acted])

    def found_fans(self, hand: Hand) -> list[tuple[Interpretation, list[int]]]:
        """Every interpretation of the hand with the ranks of the patterns found in it before any exclusion
        (whole-hand ones, then the interpretation's): what the hunter's proofs ask of every hand of a space.
        The hand is not checked (a space's hands are legal by construction); the chicken hand, which is a
        fallback rather than a pattern found, is not among them."""
        facts = HandFacts(hand, self.shapes)
        readings = interpretations(hand, facts)
        if not readings:
            return []
        hand_found = self.hand_fans(facts)
        out = []
        for x in readings:
            found = list(hand_found)
            for p in self._plan(x.structure):
                if p.decide(x):
                    found.append(p.rank)
            out.append((x, found))
        return out

    def _liable(self, tally: tuple[Tallied, ...]) -> bool:
        """Whether the counted fans include one that makes a discard win liable (包: settlement.liability)."""
        ranks = self.liable_ranks
        if ranks:
            for t in tally:
                if t.rank in ranks:
                    return True
        return False

    def _any_fan(self, scored: list[Reading]) -> bool:
        """Whether some reading has a qualifying fan (else the chicken hand applies)."""
        qualifies = self.qualifies
        for s in scored:
            if s.qualifying > 0:
                return True
            for t in s.tally:
                if qualifies[t.rank]:
                    return True
        return False

    def _refusal(self, hand: Hand, tally: tuple[Tallied, ...], qual: int, shape: str = "") -> tuple[str | None, str]:
        """Why the hand may not win as scored (the rule and a message), or (None, "") if it may."""
        rule = self._refused_by(hand, tally, qual, shape)
        if rule is None:
            return None, ""
        for flag, required_rule, message, _ in self.requires_flags:
            if rule == required_rule:
                return rule, message
        for refusal in self.refused_when:
            if rule == refusal.rule:
                return rule, refusal.message
        if rule == "win.minimum_points":
            return rule, f"{qual} qualifying point(s): a win needs at least {self.minimum_points} before flowers"
        allowed = ", ".join(self.patterns[i].pattern.name_en for i in sorted(self.allowing))
        return rule, f"only these hands may win: {allowed}"

    def _refused_by(self, hand: Hand, tally: tuple[Tallied, ...], qual: int, shape: str = "") -> str | None:
        """The rule by which the hand may not win as scored (None: it may): a flag it needs, a pattern that
        allows a win, the minimum."""
        for flag, rule, _, exempt in self.requires_flags:
            if flag not in hand.flags and not counts_any(tally, exempt):
                return rule
        for refusal in self.refused_when:  # (win.refused_when: a way of winning, the flowers, a flag missing)
            if refusal.refuses(hand.win_by, bool(hand.flowers), hand.flags, shape):
                return refusal.rule
        if self.requires_allowing and not counts_any(tally, self.allowing):
            return self.ruleset.win.allowing_pattern_rule
        if qual < self.minimum_points:
            return "win.minimum_points"
        return None

    def hand_fans(self, facts: HandFacts, memo: Shared | None = None) -> dict[int, tuple]:
        """The hand-level fans that hold (pattern rank -> instances); a predicate runs only if its gate admits
        the hand. With `memo` (a batch of hands holding the same tiles), a tiles_only predicate runs once."""
        found: dict[int, tuple] = {}
        flags, win_by = facts.flags, facts.hand.win_by
        mask = facts.mask
        if memo is not None:  # a batch: the tiles_only answers are known once the first hand has asked them
            key = (flags, win_by)
            shared = memo.hands.get(key)
            if shared is None:
                rest: list[Planned] = []
                for p in self._hand_plan(flags, win_by):
                    if mask & p.outside:
                        continue
                    if p.tiles_only:
                        r = p.decide(facts)
                        if r:
                            found[p.rank] = _instances(r)
                    else:
                        rest.append(p)
                shared = memo.hands[key] = SharedFans(dict(found), rest)
            else:
                found.update(shared.found)
            for p in shared.rest:
                r = p.decide(facts)
                if r:
                    found[p.rank] = _instances(r)
            return found
        for p in self._hand_plan(flags, win_by):
            if mask & p.outside:
                continue
            r = p.decide(facts)
            if r:
                found[p.rank] = _instances(r)
        return found

    def _hand_plan(self, flags: frozenset[str], win_by: str) -> list[Planned]:
        """The hand-level predicates whose flag and way of winning fit, with the tiles they exclude; cached."""
        plan = self._hand_plans.get((flags, win_by))
        if plan is None:
            plan = [g for g in self.hand_plan
                    if (g.flag is None or g.flag in flags) and (g.win_by is None or win_by in g.win_by)]
            self._hand_plans[(flags, win_by)] = plan
        return plan

    def _score_interpretation(self, x: Interpretation, hand_found: dict[int, tuple],
                              memo: Shared | None = None) -> list[Reading]:
        found = dict(hand_found)
        if memo is not None and x.division >= 0:  # a batch: the tiles_only answers of this division are known
            division = memo.division(x.division)
            shared = division.by_win_kind.get(x.win_kind)
            if shared is None:
                shared = division.by_win_kind[x.win_kind] = self._division_fans(x, division.answers)
            found.update(shared.found)
            for p in shared.rest:
                r = p.decide(x)
                if r:
                    found[p.rank] = _instances(r)
        else:
            for p in self._plan(x.structure):
                r = p.decide(x)
                if r:
                    found[p.rank] = _instances(r)
        excluded = self.exclusions.of_fans(found)
        withheld, combo_ids = excluded.withheld, excluded.combinations
        if excluded.needs_instances:
            counted, by = self.exclusions.of_instances(found)
            withheld = Withheld(by)
            combination = self.combination
            combo_ids = tuple(i for i in counted if combination[i])
            order = tuple(counted)
        else:  # the counted fans keep all the instances found
            counted, order = found, excluded.counted
        if not combo_ids or (len(combo_ids) == 1 and len(counted[combo_ids[0]]) == 1):
            return [self._lines(x, order, counted, withheld)]
        combos = {i: counted[i] for i in combo_ids}
        choices = best_combinations(combos, {i: self.points[i] for i in combos}, self.account_once)
        out = []
        for chosen in choices:
            dropped = {i: -1 for i in combos if len(chosen.get(i, [])) < len(combos[i]) and i not in withheld.by}
            kept = {i: tuple(chosen.get(i, [])) for i in combos}
            out.append(self._lines(x, order, {**counted, **kept}, Withheld({**withheld.by, **dropped})))
        return out

    def _division_fans(self, x: Interpretation, answers: dict[int, tuple]) -> SharedFans:
        """The tiles_only fans of x's division and structure, and the other predicates. `answers`: the tiles_only
        answers known for the division (by rank; () when the fan does not hold), whatever the winning tile's
        place, kept up to date: asked once a batch."""
        found: dict[int, tuple] = {}
        rest: list[Planned] = []
        for p in self._plan(x.structure):
            if p.tiles_only:
                instances = answers.get(p.rank)
                if instances is None:
                    r = p.decide(x)
                    instances = answers[p.rank] = _instances(r) if r else ()
                if instances:
                    found[p.rank] = instances
            else:
                rest.append(p)
        return SharedFans(found, rest)

    def _lines(self, x: Interpretation, order: tuple[int, ...], instances: dict[int, tuple], withheld: Withheld) -> Reading:
        """The reading of x counting the fans `order` (in value order) with their `instances`."""
        tally: list[Tallied] = []
        qual = total = 0
        points, qualifies, once = self.points, self.qualifies, self.once
        for i in order:
            insts = instances[i]
            if not insts:
                continue
            count = 1 if once[i] else len(insts)
            tally.append(Tallied(i, count, insts))
            total += points[i] * count
            if qualifies[i]:
                qual += points[i] * count
        run: Running | None = None
        if self.method == "hua":
            patterns = self.patterns
            items = [Counted(patterns[t.rank].id, patterns[t.rank].pattern.name_en, patterns[t.rank].pattern.kind,
                             points[t.rank], t.count) for t in tally]
            run = run_steps(self.steps, items, x.facts.hand)
            qual = total = run.value
        return Reading(qual, total, tuple(tally), x, withheld, run)

    def _fan_lines(self, x: Interpretation | None, tally: tuple[Tallied, ...]) -> tuple[FanLine, ...]:
        lines = []
        plain = self._plain_lines
        groups = x.groups if x is not None else ()
        for t in tally:
            i, count, insts = t.rank, t.count, t.instances
            if x is None or not _names_groups(insts):  # a fan of the whole hand: the same line every time
                known = plain[i]
                line = known[count] if count < 9 else None
                if line is None:
                    line = self._line(i, count, ())
                    if count < 9:
                        known[count] = line
            else:
                sets = []
                for inst in insts:
                    if inst:
                        sets.append(tuple([group_tiles(groups[g]) for g in inst]))
                line = self._line(i, count, tuple(sets))
            lines.append(line)
        return tuple(lines)

    def _line(self, i: int, count: int, sets: tuple) -> FanLine:
        pid, name, name_zh, points, requirement, kind = self._line_heads[i]
        return FanLine(pid, name, name_zh, points, count, sets, requirement, kind)


ALL_TILES: Final = (1 << T.NUM_TILE_TYPES) - 1  # a tile mask holding every tile type
_UNITS: Final = tuple(((),) * n for n in range(17))  # a fan counted n times, found in no particular groups


def _instances(found: Any) -> tuple:
    """A predicate's answer as instances: a count n becomes n instances naming no groups; instances stay as
    they are (a tuple: shared, never changed)."""
    if isinstance(found, int):
        return _UNITS[found] if found < 17 else ((),) * found
    return found if isinstance(found, tuple) else tuple(found)


def _admits(decide: Callable[[Any], Any], structure: tuple) -> bool:
    """Whether a predicate's gate (see predicates.registry.gate) lets it hold for this structure."""
    shape, chows, pungs, kongs, win_kind, has_winds, has_dragons = structure
    shapes = getattr(decide, "shapes", None)
    honors = getattr(decide, "honors", None)
    return ((shapes is None or shape in shapes)
            and chows >= getattr(decide, "min_chows", 0) and pungs >= getattr(decide, "min_pungs", 0)
            and kongs >= getattr(decide, "min_kongs", 0)
            and getattr(decide, "win_kind", None) in (None, win_kind)
            and (honors is None or (honors == "winds" and has_winds) or (honors == "dragons" and has_dragons)))


def _names_groups(instances: tuple) -> bool:
    """Whether some instance of a fan names the groups it was found in (a whole-hand fan names none)."""
    for instance in instances:
        if instance:
            return True
    return False


def score_hand(ruleset: Ruleset, hand: Hand, options: Mapping[str, Any] | None = None) -> Score:
    """Score one hand (binds the ruleset each call: for many hands build one `Scorer`)."""
    return Scorer(ruleset, options).score(hand)


__all__ = ["Scorer", "Score", "FanLine", "score_hand"]
