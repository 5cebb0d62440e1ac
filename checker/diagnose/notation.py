"""How an engine writes its fans, learned from the run where its money agrees with the rules.

An engine may write the same answer in other words: its own name for a pattern (`明杠` for the spec's suited
exposed kong), its own units for a pattern's points (`清一色` 10, the points it is worth, where the spec writes 1,
its 勒子), or leave out of its list a pattern that adds nothing to the hand (a flower on a hand settled at a fixed
勒子 value). None of that moves money, and none of it is a departure. It is learned from the run itself, from the
failed cases whose money agrees (both sides win, the same total and payments): only there does a difference in
the fans say how the engine writes, not what it does.

- a *name*: an engine fan the spec does not know, which in every such case stands where one spec pattern is
  missing, with its count, and in at least MIN_CASES of them, the engine listing that pattern under no other
  name anywhere;
- *own units*: a spec pattern both sides list with the same count and other points, in at least MIN_CASES such
  cases of the same fans whose points do not add up to the totals on both sides (where they do, the points are
  money), one engine value for each of the spec's, where the rules with the pattern at the
  engine's number would pay one of those cases otherwise (so the number is not its points), or where that is
  so of another pattern (the engine is shown to write points its own way): its points are not compared (its
  count is);
- *left out*: a spec pattern the engine leaves out in at least MIN_CASES such cases where it lists nothing the
  spec does not, and lists in some other answer: where the engine does not list it, that is not a difference
  (money is always compared);
- *a step as an element*: an engine fan the spec does not know, named in the document's sentences about a scoring
  step that sets a hand's value to a fixed number (knocking's fig, 无花果, 10 hua), listed at that number in at
  least MIN_CASES such cases and never otherwise, where every spec pattern the engine leaves out is one the step
  stands in place of (the hua): where the engine lists it, it and those patterns are not compared (the engine
  writes the fig as an element of its own in place of the base and the 0-hua pungs);
- *the cap as an element*: an engine fan the spec does not know, named in the document's sentences about the cap
  (classic's 勒子), listed in at least MIN_CASES such cases, each time at the hand's total, and in at least
  MIN_CASES of them (PROOF_CASES re-scored) a value the rules' limit step cut to the cap: where the engine lists
  it at its total, it is not compared (it says again what the total says).

The notation holds for one diagnosis (`in_notation`); outside one, nothing is learned and answers are compared
as written. Every part of it is said in the class it touches, with the cases it was learned from.
"""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

from checker.case import readings_of
from checker.diagnose.romanized import in_pinyin

MIN_CASES = 3  # money-agreeing cases a part of the notation needs before it is read so
PROOF_CASES = 20  # of them re-scored with a pattern at the engine's points, to prove they are not its points


@dataclass(frozen=True)
class Notation:
    """Per ruleset: `names` {engine name: spec id}, `own_units` {spec id: cases}, `left_out` {spec id: cases}."""

    names: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    own_units: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    left_out: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    # {ruleset: {engine name: the step it writes as an element}}
    steps: Mapping[str, Mapping[str, "Stepped"]] = field(default_factory=dict)
    # {ruleset: {engine name: the cap it lists at the value the cap left}}
    caps: Mapping[str, Mapping[str, "Capped"]] = field(default_factory=dict)
    # {ruleset: the departures the probes confirmed, in words}: where parts were also learned from cases whose
    # money agrees with the rules under them, not with the rules as written (set by checker.diagnose.diagnose)
    under: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.names or self.own_units or self.left_out or self.steps or self.caps)

    def _parts(self) -> set[tuple[str, str, str]]:
        return {(kind, ruleset_id, str(key)) for kind, learned in (
            ("names", self.names), ("units", self.own_units), ("left_out", self.left_out), ("steps", self.steps),
            ("caps", self.caps)) for ruleset_id, parts in learned.items() for key in parts}

    def beyond(self, other: "Notation") -> bool:
        """Whether this notation reads something `other` does not."""
        return bool(self._parts() - other._parts())

    def joined(self, other: "Notation") -> "Notation":
        """This notation with what `other` learned besides (a part both learned is this one's)."""
        def join(mine: Mapping[str, Mapping[str, Any]], theirs: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
            return {r: {**(theirs.get(r) or {}), **(mine.get(r) or {})} for r in {*mine, *theirs}}
        return Notation(join(self.names, other.names), join(self.own_units, other.own_units),
                        join(self.left_out, other.left_out), join(self.steps, other.steps),
                        join(self.caps, other.caps), {**self.under, **other.under})

    def said_under(self, ruleset_id: str | None) -> str:
        """Where the notation of a ruleset was learned under the engine's confirmed departures, which (else "")."""
        under = self.under.get(ruleset_id or "")
        return f" (or with them under the departures the probes confirmed: {'; '.join(under)})" if under else ""

    def read(self, ruleset_id: str | None, answer: Any) -> tuple[Any, dict[str, str]]:
        """The answer with each fan the engine names in its own learned words given the spec's id, and the
        names read."""
        names = self.names.get(ruleset_id or "") or {}
        if not names or not isinstance(answer, Mapping):
            return answer, {}
        read: dict[str, str] = {}

        def one(result: Any) -> Any:
            if isinstance(result, Mapping) and isinstance(result.get("winners"), list):  # a hand of play's winners
                return {**result, "winners": [one(w) for w in result["winners"]]}
            if not isinstance(result, Mapping) or not isinstance(result.get("fans"), list):
                return result
            out = []
            for f in result["fans"]:
                if isinstance(f, Mapping) and f.get("id") in names:
                    read[str(f["id"])] = names[str(f["id"])]
                    f = {**f, "id": names[str(f["id"])]}
                out.append(f)
            return {**result, "fans": out}

        renamed = {**answer, "either": [one(r) for r in answer["either"]]} if isinstance(answer.get("either"), list) \
            else one(answer)
        return (renamed if read else answer), read

    def units(self, ruleset_id: str | None) -> Mapping[str, int]:
        return self.own_units.get(ruleset_id or "") or {}

    def omitted(self, ruleset_id: str | None) -> Mapping[str, int]:
        return self.left_out.get(ruleset_id or "") or {}

    def stepped(self, ruleset_id: str | None) -> Mapping[str, "Stepped"]:
        return self.steps.get(ruleset_id or "") or {}

    def capped(self, ruleset_id: str | None) -> Mapping[str, "Capped"]:
        return self.caps.get(ruleset_id or "") or {}

    def cap_listed(self, ruleset_id: str | None, fan: Any, total: Any) -> bool:
        """Whether an engine's fan is the cap it lists as an element, at its answer's `total`."""
        return isinstance(fan, Mapping) and fan.get("id") in self.capped(ruleset_id) \
            and fan.get("points") == total and total is not None

    def as_written(self, ruleset_id: str | None, want: Any, got: Any, total: Any = None) -> tuple[Any, Any]:
        """Two fan lists (the rules', the engine's, whose answer's total is `total`) as this engine writes them:
        the cap it lists as an element at its total dropped from its side, a left-out pattern the engine does
        not list dropped from the rules' side, the points of a pattern in the engine's own units not kept on
        either side."""
        if not isinstance(want, list) or not isinstance(got, list):
            return want, got
        if self.capped(ruleset_id):
            got = [f for f in got if not self.cap_listed(ruleset_id, f, total)]
        units, omitted, stepped = self.units(ruleset_id), self.omitted(ruleset_id), self.stepped(ruleset_id)
        if not units and not omitted and not stepped:
            return want, got
        listed = {f.get("id") for f in got if isinstance(f, Mapping)}
        for name in listed & set(stepped):  # the step written as an element, in place of the patterns it replaces
            step = stepped[str(name)]
            got = [f for f in got if not (isinstance(f, Mapping) and f.get("id") == name and
                                          f.get("points") == step.value and f.get("count", 1) == 1)]
            want = [f for f in want if not (isinstance(f, Mapping) and f.get("id") in step.replaces
                                            and f.get("id") not in listed)]
        want = [f for f in want if not (isinstance(f, Mapping) and f.get("id") in omitted and f.get("id") not in listed)]
        return _unpointed(want, units), _unpointed(got, units)

    def as_json(self) -> dict[str, Any]:
        return {"names": {r: dict(v) for r, v in self.names.items()},
                "own_units": {r: dict(v) for r, v in self.own_units.items()},
                "left_out": {r: dict(v) for r, v in self.left_out.items()},
                "steps": {r: {n: {"rule": st.rule, "value": st.value, "cases": st.cases} for n, st in v.items()}
                          for r, v in self.steps.items()},
                "caps": {r: {n: {"rule": c.rule, "cases": c.cases, "cut": c.cut, "checked": c.checked}
                             for n, c in v.items()}
                         for r, v in self.caps.items()},
                "under": {r: list(v) for r, v in self.under.items()}}


@dataclass(frozen=True)
class Stepped:
    """A scoring step an engine writes as an element of its own: the step's rule, the number it lists it at, the
    spec patterns it stands in place of, and the money-agreeing cases it was learned from."""

    rule: str
    value: int
    replaces: frozenset[str]
    cases: int


@dataclass(frozen=True)
class Capped:
    """A cap an engine lists as an element of its own at the value the cap left: the limit step's rule, the
    money-agreeing cases it was learned from, and of those re-scored (`checked`), how many the rules' limit cut."""

    rule: str
    cases: int
    cut: int
    checked: int


def _unpointed(fans: list[Any], units: Mapping[str, int]) -> list[Any]:
    return [{**f, "points": None} if isinstance(f, Mapping) and f.get("id") in units else f for f in fans]


_CURRENT: ContextVar[Notation] = ContextVar("notation", default=Notation())


def current() -> Notation:
    """The notation of the diagnosis under way (empty outside one)."""
    return _CURRENT.get()


@contextmanager
def in_notation(notation: Notation) -> Iterator[Notation]:
    token = _CURRENT.set(notation)
    try:
        yield notation
    finally:
        _CURRENT.reset(token)


# ------------------------------------------------------------------ learning it

def money_agrees(want: Mapping[str, Any], got: Mapping[str, Any]) -> bool:
    """Both win, with fans listed, the same total and payments (where the rules' answer has them)."""
    return bool(want.get("valid", True)) and bool(got.get("valid", True)) and isinstance(want.get("fans"), list) \
        and isinstance(got.get("fans"), list) and all(got.get(k) == want.get(k) for k in ("total", "payments")
                                                      if k in want)


def scored_hands(result: Any) -> list[Mapping[str, Any]]:
    """The scored hands of an answer: itself, or a hand of play's winners (none where they are not a list)."""
    if not isinstance(result, Mapping):
        return []
    winners = result.get("winners") if "verdict" in result else [result]
    return [w for w in winners if isinstance(w, Mapping)] if isinstance(winners, list) else []


def paired_hands(want: Mapping[str, Any], got: Mapping[str, Any]) -> list[tuple[Mapping[str, Any], Mapping[str, Any]]]:
    """The rules' and the engine's scored hands, one for one: the answer itself, or, where a hand of play ends the
    same way with the same winners (seats, ways of winning) and the same payments, each winner's."""
    if "verdict" not in want:
        return [(want, got)]
    if any(got.get(k) != want.get(k) for k in ("verdict", "ended", "payments") if k in want):
        return []
    mine, theirs = scored_hands(want), scored_hands(got)
    if len(mine) != len(theirs) or any((w.get("seat"), w.get("win_by")) != (g.get("seat"), g.get("win_by"))
                                       for w, g in zip(mine, theirs)):
        return []
    return list(zip(mine, theirs))


def _adds_up(result: Mapping[str, Any]) -> bool:
    """Whether an answer's total is the sum of its fans' points times counts (its points are money)."""
    total = 0
    for f in result.get("fans") or []:
        points, count = (f.get("points"), f.get("count", 1)) if isinstance(f, Mapping) else (None, None)
        if not isinstance(points, int) or not isinstance(count, int):
            return False
        total += points * count
    return total == result.get("total")


def _fans(result: Mapping[str, Any]) -> dict[str, tuple[Any, Any]]:
    return {str(f.get("id")): (f.get("points"), f.get("count")) for f in result.get("fans") or []
            if isinstance(f, Mapping)}


Proof = Callable[[str, str, Any, list[Any]], bool]
CutProof = Callable[[str, Any, list[Any]], int]


def learn(results: Iterable[Any], read: Any, known: Any, proves: Proof | None = None,
          items: Callable[[str], Sequence[Any]] | None = None, caps: Callable[[str], Sequence[Any]] | None = None,
          cut: CutProof | None = None) -> Notation:
    """The notation of a run: `results` its judged cases (failed ones are read), `read(ruleset_id, answer)` the
    answer with fans named in the documents' words read as spec ids, `known(ruleset_id)` the spec's pattern ids
    (None: the ruleset is not known). `proves(ruleset_id, pattern, points, cases)`: whether the rules with the
    pattern at the engine's points would pay one of those cases otherwise than the engine (and the rules) do,
    which proves the engine's number is not the pattern's points; a pattern's own units need that proof (a
    pattern worth more that happens not to move money in these cases is a departure, not a unit). `items(ruleset_id)`:
    the ruleset's steps that set a fixed value (checker.diagnose.answers.step_items), which an engine may write as
    an element of its own. `caps(ruleset_id)`: the ruleset's limit steps (answers.cap_items), and `cut(ruleset_id,
    item, cases)`: how many of `cases` the rules' limit `item` cut the value of (each re-scored without it): an
    engine may list the cap as an element at the value it left."""
    pairs: dict[str, list[tuple[dict[str, tuple[Any, Any]], dict[str, tuple[Any, Any]]]]] = {}
    cases: dict[str, list[Any]] = {}
    listing: dict[str, set[str]] = {}  # the fans the engine lists somewhere (as read)
    summed: dict[str, list[bool]] = {}  # whether each such case's fans add up to its total on both sides
    totals: dict[str, list[Any]] = {}  # each such case's total (the engine's, the rules')
    for r in results:
        if r.outcome not in ("failed", "passed") or not r.ruleset:
            continue
        gots = readings_of(read(r.ruleset, r.actual))
        listing.setdefault(r.ruleset, set()).update(k for g in gots for w in scored_hands(g) for k in _fans(w))
        if r.outcome != "failed":
            continue
        wants = readings_of(r.expected)
        if len(wants) == 1 and len(gots) == 1:
            for want, got in paired_hands(wants[0], gots[0]):
                if money_agrees(want, got):
                    pairs.setdefault(r.ruleset, []).append((_fans(want), _fans(got)))
                    cases.setdefault(r.ruleset, []).append(r)
                    summed.setdefault(r.ruleset, []).append(_adds_up(want) and _adds_up(got))
                    totals.setdefault(r.ruleset, []).append(got.get("total"))
    names: dict[str, dict[str, str]] = {}
    units: dict[str, dict[str, int]] = {}
    omitted: dict[str, dict[str, int]] = {}
    steps: dict[str, dict[str, Stepped]] = {}
    capped: dict[str, dict[str, Capped]] = {}
    for ruleset_id, seen in pairs.items():
        ids = known(ruleset_id)
        if ids is None:
            continue
        capped[ruleset_id] = _caps(ruleset_id, seen, totals[ruleset_id], cases[ruleset_id], ids,
                                   caps(ruleset_id) if caps is not None else (), cut)
        # (the cap listed at the total says what the total says: the rest of the answer is read without it)
        seen = [(want, {k: v for k, v in got.items() if k not in capped[ruleset_id]}) for want, got in seen]
        steps[ruleset_id] = _steps(seen, ids, items(ruleset_id) if items is not None else ())
        # (a case listing a step's element says nothing of names, units or patterns left out: the element stands
        # in place of the base and the patterns worth nothing, which it is not a name for)
        keep = [i for i, (_, got) in enumerate(seen) if not set(got) & set(steps[ruleset_id])]
        seen = [seen[i] for i in keep]
        cases[ruleset_id] = [cases[ruleset_id][i] for i in keep]
        summed[ruleset_id] = [summed[ruleset_id][i] for i in keep]
        # (a name for a pattern the engine lists under another name elsewhere is not that pattern's name: the
        # knocking fig 无花果 stands where the base stands, but the engine lists the base too)
        learned = {name: spec for name, spec in _names(seen, ids).items() if spec not in listing.get(ruleset_id, set())}
        seen = [(want, {learned.get(k, k): v for k, v in got.items()}) for want, got in seen]
        names[ruleset_id] = learned
        # (listed elsewhere: an engine that never lists a pattern may not count it at all, which is a departure)
        omitted[ruleset_id] = {k: n for k, n in _omitted(seen).items()
                               if learned_listing(listing.get(ruleset_id, set()), learned, k)}
        # (a pattern left out where the engine does not list it is no evidence against the others' units)
        # (where both sides' points add up to their totals, the points are money: no evidence of units there; two
        # points changed that make up for each other, as 2 for 1 and 1 for 2, would look like units otherwise)
        # (an element of the engine's own the spec has no pattern for and no name was learned for, listed where
        # the money agrees, is part of a total both sides agree on, as 底分 listed beside a hand's doubles: it
        # says nothing of how the engine writes the spec's patterns, so it is set aside here)
        found = _units([({k: v for k, v in want.items() if k in got or k not in omitted[ruleset_id]},
                         {k: v for k, v in got.items() if k in ids})
                        for (want, got), adds in zip(seen, summed[ruleset_id]) if not adds])
        proved = {k: n for k, (n, value) in found.items() if proves is not None and proves(
            ruleset_id, k, value, [r for r, (want, got) in zip(cases[ruleset_id], seen)
                                   if k in want and k in got and want[k] != got[k]][:PROOF_CASES])}
        # an engine shown to write some patterns' points in its own units is read so for the others whose points
        # differ alike where the money agrees (a double written as its factor 2 on hands where the value is
        # capped proves nothing alone)
        units[ruleset_id] = {k: n for k, (n, _) in found.items()} if proved else {}
    return Notation({k: v for k, v in names.items() if v}, {k: v for k, v in units.items() if v},
                    {k: v for k, v in omitted.items() if v}, {k: v for k, v in steps.items() if v},
                    {k: v for k, v in capped.items() if v})


def _caps(ruleset_id: str, seen: list[tuple[dict[str, Any], dict[str, Any]]], totals: list[Any], cases: list[Any],
          ids: Any, items: Sequence[Any], cut: CutProof | None) -> dict[str, Capped]:
    """Engine names the spec does not know, written in the document's sentences about a cap (or in pinyin), listed
    at the hand's total in every such case that lists them, where the rules' limit cut the value in at least
    MIN_CASES of them (`cut`, on PROOF_CASES of them)."""
    if cut is None or not items:
        return {}
    found: dict[str, Any] = {}
    listing: dict[str, list[Any]] = {}
    spoilt: set[str] = set()
    for (_, got), total, r in zip(seen, totals, cases):
        for name, (points, _) in got.items():
            if name in ids or len(name) < 2:
                continue
            item = next((i for i in items if name in i.words or in_pinyin(name, i.words)), None)
            if item is None:
                continue
            if points != total or found.get(name, item) != item:
                spoilt.add(name)
            found[name] = item
            listing.setdefault(name, []).append(r)
    out = {}
    for name, item in found.items():
        if name in spoilt or len(listing[name]) < MIN_CASES:
            continue
        checked = listing[name][:PROOF_CASES]
        cuts = cut(ruleset_id, item, checked)
        if cuts >= MIN_CASES:
            out[name] = Capped(item.rule, len(listing[name]), cuts, len(checked))
    return out


def _steps(seen: list[tuple[dict[str, Any], dict[str, Any]]], ids: Any, items: Sequence[Any]) -> dict[str, Stepped]:
    """Engine names the spec does not know, each written in the document's sentences about one fixed-value step
    (or their Chinese in pinyin: checker.diagnose.romanized) and listed at its number in every such case, standing
    in place of patterns the step replaces only."""
    found: dict[str, Any] = {}
    cases: dict[str, int] = {}
    spoilt: set[str] = set()
    for want, got in seen:
        for name, (points, count) in got.items():
            if name in ids:
                continue
            item = next((i for i in items if len(name) >= 2 and (name in i.words or in_pinyin(name, i.words))), None)
            if item is None:
                continue
            missing = {k for k in want if k not in got}
            if points == item.value and count in (1, None) and missing <= item.replaces \
                    and found.get(name, item) == item:
                found[name] = item
                cases[name] = cases.get(name, 0) + 1
            else:
                spoilt.add(name)
    return {name: Stepped(item.rule, item.value, item.replaces, cases[name]) for name, item in found.items()
            if name not in spoilt and cases[name] >= MIN_CASES}


def learned_listing(listed: set[str], names: Mapping[str, str], pattern: str) -> bool:
    """Whether the engine lists `pattern` in some answer (under its spec id, or a name learned for it)."""
    return pattern in listed or any(spec == pattern and name in listed for name, spec in names.items())


def _names(seen: list[tuple[dict[str, Any], dict[str, Any]]], ids: Any) -> dict[str, str]:
    """Engine names the spec does not know, each standing in every case it appears in for one spec pattern the
    engine does not list there, with the same count."""
    could: dict[str, set[str] | None] = {}
    cases: dict[str, int] = {}
    same_points: dict[tuple[str, str], bool] = {}  # (name, spec id): the name's points the pattern's in every case
    for want, got in seen:
        for name, (points, count) in got.items():
            if name in ids:
                continue
            here = {k for k, (_, c) in want.items() if k not in got and c == count}
            before = could.get(name)
            could[name] = here if before is None else before & here
            cases[name] = cases.get(name, 0) + 1
            for k in here:
                same_points[name, k] = same_points.get((name, k), True) and want[k][0] == points
    found = {name: next(iter(c)) for name, c in could.items() if c and len(c) == 1 and cases[name] >= MIN_CASES}
    # two names standing for one pattern: the one written at the pattern's points is its name (a hand of play's
    # "going out" at 1 where the base stands, not 无花果 at 10, which stands in place of the base and more)
    out = {}
    for name, spec in found.items():
        rivals = [n for n, s in found.items() if s == spec]
        priced = [n for n in rivals if same_points.get((n, spec))]
        if len(rivals) == 1 or priced == [name]:
            out[name] = spec
    return out


def _units(seen: list[tuple[dict[str, Any], dict[str, Any]]]) -> dict[str, tuple[int, Any]]:
    """Spec patterns listed on both sides with the same fans and counts and other points, one engine value for
    each spec value: each with its cases and the engine's most usual value."""
    mapped: dict[str, dict[Any, set[Any]]] = {}
    cases: dict[str, int] = {}
    values: dict[str, list[Any]] = {}
    for want, got in seen:
        if set(want) != set(got) or any(want[k][1] != got[k][1] for k in want):
            continue
        for k, (points, _) in want.items():
            mapped.setdefault(k, {}).setdefault(repr(points), set()).add(repr(got[k][0]))
            if got[k][0] != points:
                cases[k] = cases.get(k, 0) + 1
                values.setdefault(k, []).append(got[k][0])
    return {k: (n, max(values[k], key=lambda v: (values[k].count(v), repr(v)))) for k, n in cases.items()
            if n >= MIN_CASES and all(len(v) == 1 for v in mapped[k].values())}


def _omitted(seen: list[tuple[dict[str, Any], dict[str, Any]]]) -> dict[str, int]:
    """Spec patterns the engine leaves out where it lists nothing the spec does not."""
    cases: dict[str, int] = {}
    for want, got in seen:
        if any(k not in want for k in got):
            continue
        for k in want:
            if k not in got:
                cases[k] = cases.get(k, 0) + 1
    return {k: n for k, n in cases.items() if n >= MIN_CASES}
