"""The engine's profile, inferred from its answers: for each option of a ruleset, which reading they agree with.

For each option and each of its values (readings), the inputs of the cases the engine answered (`passed` and
`failed`) are scored again by the reference engine (`checker.case.CaseRunner`) with the case's own options
and that one option set to the reading. A case *distinguishes* the readings when those reference results
differ (compared on the keys the case's `expect` names); on each distinguishing case the engine's actual
result agrees with one reading, or several, or none. The verdict is the reading with the most agreement,
`tie` when two share the lead, `neither` when more distinguishing cases agree with no reading than with it,
`no evidence` when no case distinguishes them. The verdict rests on the cases that leave the option unset
(an engine that honours a case's options follows them where a case sets one); only when none of those tells
the readings apart does it rest on the cases that set it (`evidence` says which; `set_by_case` counts how
often the engine followed a case's own setting; when it followed every one, and they name more than one
reading, the verdict is `follows the case's options`). At most `MAX_CASES_PER_OPTION` cases are scored again per
option: those whose `covers` names the option first, then the rest in corpus order. The cases are read twice,
one at a time (a run's results are streamed from its file: checker.conform.stream): once to choose each
option's cases (by their place in the run), once to score the chosen ones, so memory holds numbers, not cases.

A failed case whose actual result is the reference's under a non-default reading (and not under the case's
own options) is *explained* by that option and reading (`by_option`). Fans the engine scores that the spec
does not define (an id none of its patterns has) are listed under `fans_outside_spec`.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from functools import lru_cache
from collections.abc import Mapping
from typing import Any, Iterable

from checker.case import CaseRunner, matches, readings_of
from checker.conform.results import CaseResult
from checker.conform.stream import ResultStream
from checker.diagnose.answers import document_read
from checker.spec import Ruleset, given_key, value_key

MAX_CASES_PER_OPTION = 2000
EXAMPLES = 20  # case names listed per reading, explanation or unknown fan
MAX_OUTSIDE_FANS = 200  # fans outside the spec listed by id a ruleset (the rest counted as one entry)
OTHER_OUTSIDE_FANS = "(other fans outside the spec)"
NO_EVIDENCE, NEITHER, TIE, FOLLOWS = "no evidence", "neither", "tie", "follows the case's options"


def shared_runner() -> CaseRunner:
    """One reference runner per process (and rulesets given on the command line, checker.spec.rulesets_given):
    its rulesets and scorers (one per options) are built once."""
    return _runner_for(given_key())


@lru_cache(maxsize=2)
def _runner_for(given: tuple) -> CaseRunner:
    return CaseRunner()


def case_name(r: CaseResult) -> str:
    return f"{r.id} (line {r.line})" if r.id else f"line {r.line}"


def infer_profile(cases: Iterable[CaseResult], runner: CaseRunner | None = None,
                  cap: int | None = None) -> tuple[dict[str, Any], dict[str, list[str]]]:
    """The profile per ruleset (as in summary.json's `profile`) and the failed cases each non-default
    reading explains (`"option=value"` → case names, as in `failures.by_option`). `cases`: read twice, in
    corpus line order (a list is put in that order first). `cap`: cases scored again per option (None: the
    module's MAX_CASES_PER_OPTION, read when called)."""
    cap = MAX_CASES_PER_OPTION if cap is None else cap
    runner = runner or shared_runner()
    if not isinstance(cases, ResultStream):
        cases = sorted(cases, key=lambda r: r.line)
    chosen = _Choice(runner, cap)
    outside = _FansOutside(runner)
    for number, r in enumerate(cases):
        outside.add(_read(r))
        if _answered(r):
            chosen.add(number, r)
    unknown = outside.found()
    rulesets = {ruleset_id: chosen.ruleset(ruleset_id) for ruleset_id in sorted(set(chosen.answered) | set(unknown))}
    tallies = {ruleset_id: {oid: _OptionTally(ruleset, oid) for oid in ruleset.scoring_options()}
               for ruleset_id, ruleset in rulesets.items() if ruleset is not None}
    work = chosen.work()
    if work:
        for number, r in enumerate(cases):
            jobs = work.get(number)
            if jobs is not None:
                r, memo = _read(r), _Memo()
                for ruleset_id, option_id, rank in jobs:
                    tallies[ruleset_id][option_id].add(r, rank, runner, memo)
    profile: dict[str, Any] = {}
    explained: dict[str, list[str]] = {}
    for ruleset_id, ruleset in rulesets.items():
        if ruleset is None:
            profile[ruleset_id] = {"error": chosen.errors[ruleset_id]}
            continue
        options = {}
        for oid, tally in tallies[ruleset_id].items():
            options[oid] = tally.result(len(chosen.chosen(ruleset_id, oid)))
            for key, names in tally.explained.items():
                explained.setdefault(key, []).extend(name for _, name in sorted(names))
        profile[ruleset_id] = {"cases": chosen.answered.get(ruleset_id, 0), "options": options,
                               "fans_outside_spec": unknown.get(ruleset_id, {})}
    return profile, dict(sorted(explained.items(), key=lambda kv: (-len(kv[1]), kv[0])))


def followed_options(profile: Mapping[str, Any]) -> dict[str, frozenset[str]]:
    """Per ruleset, the options the engine follows where a case names them: every option, where it followed one
    (`set_by_case.followed`) and answered no case naming an option as another of its readings (an engine that
    follows a case's options, whose answers to some option's cases meet another departure); else those it
    followed."""
    out = {}
    for ruleset_id, entry in profile.items():
        options = entry.get("options") if isinstance(entry, Mapping) else None
        given = {oid: o["set_by_case"] if isinstance(o.get("set_by_case"), Mapping) else {}
                 for oid, o in (options or {}).items() if isinstance(o, Mapping)}
        followed = frozenset(oid for oid, o in given.items() if o.get("followed"))
        if followed and not any(o.get("answered_otherwise") for o in given.values()):
            followed = frozenset(given)
        if followed:
            out[ruleset_id] = followed
    return out


def _read(r: CaseResult) -> CaseResult:
    """The result with the fans its answer names in the documents' own words (Chinese or English names the spec
    records) read as the spec's ids: an engine that writes 'All chows' for all_chows answers as the reading it
    follows, and scores no fan outside the spec by it."""
    if r.ruleset is None or not isinstance(r.actual, Mapping):
        return r
    read = document_read(r.ruleset, r.actual)
    return r if read is r.actual else replace(r, actual=read)


def _answered(r: CaseResult) -> bool:
    """A case whose answer can tell readings apart: a scored hand (not a hand of play: kind procedure) that the
    engine answered, passed or failed."""
    return r.ruleset is not None and r.outcome in ("passed", "failed") and isinstance(r.actual, Mapping) \
        and isinstance(r.input, Mapping) and isinstance(r.expected, Mapping) and "events" not in r.input


class _Choice:
    """The cases each option of a ruleset is scored on, by their number in the run: at most `cap`, those whose
    `covers` names the option first, then the rest, each in corpus order."""

    def __init__(self, runner: CaseRunner, cap: int):
        self.runner, self.cap = runner, cap
        self.rulesets: dict[str, Ruleset | None] = {}
        self.errors: dict[str, str] = {}
        self.rules: dict[str, list[tuple[str, str]]] = {}  # per ruleset: each scoring option and its rule id
        self.answered: dict[str, int] = {}  # answered cases of each ruleset
        self.covering: dict[tuple[str, str], list[int]] = {}
        self.others: dict[tuple[str, str], list[int]] = {}

    def add(self, number: int, r: CaseResult) -> None:
        ruleset_id = str(r.ruleset)
        self.answered[ruleset_id] = self.answered.get(ruleset_id, 0) + 1
        if self.ruleset(ruleset_id) is None:
            return
        for option_id, rule in self.rules[ruleset_id]:
            covers = any(c == rule or c.startswith(rule + ".") for c in r.covers)
            found = (self.covering if covers else self.others).setdefault((ruleset_id, option_id), [])
            if len(found) < self.cap:
                found.append(number)

    def ruleset(self, ruleset_id: str) -> Ruleset | None:
        if ruleset_id not in self.rulesets:
            try:
                ruleset = self.rulesets[ruleset_id] = self.runner.ruleset(ruleset_id)
                self.rules[ruleset_id] = [(oid, f"{ruleset_id}.option.{oid}") for oid in ruleset.scoring_options()]
            except ValueError as exc:
                self.rulesets[ruleset_id] = None
                self.errors[ruleset_id] = str(exc)
        return self.rulesets[ruleset_id]

    def chosen(self, ruleset_id: str, option_id: str) -> list[int]:
        covering = self.covering.get((ruleset_id, option_id), [])
        return covering + self.others.get((ruleset_id, option_id), [])[:self.cap - len(covering)]

    def work(self) -> dict[int, list[tuple[str, str, int]]]:
        """Case number → each (ruleset, option, rank in the option's chosen cases) that scores it."""
        out: dict[int, list[tuple[str, str, int]]] = {}
        for ruleset_id, option_id in dict.fromkeys([*self.covering, *self.others]):
            for rank, number in enumerate(self.chosen(ruleset_id, option_id)):
                out.setdefault(number, []).append((ruleset_id, option_id, rank))
        return out


class _OptionTally:
    """One option's evidence, gathered case by case (see the module): the pools of distinguishing cases, how
    often the engine followed a case's own setting, and the failed cases a non-default reading explains (each
    with its rank among the option's chosen cases, to list them in that order)."""

    def __init__(self, ruleset: Ruleset, option_id: str):
        self.option_id = option_id
        self.option = ruleset.options[option_id]
        self.keys = [value_key(v) for v in self.option.values]
        # pools[True]: cases that leave the option unset (the engine's own reading shows); pools[False]: cases that
        # set it (an engine honouring case options follows them, so they speak for the reading only by default).
        self.pools = {unset: _Pool(dict.fromkeys(self.keys, 0), dict.fromkeys(self.keys, 0)) for unset in (True, False)}
        self.follows = 0
        self.followed_values: set[str] = set()  # the values named by the cases whose reading the engine followed
        self.otherwise = 0  # cases naming the option that the engine answered as another of its readings
        self.explained: dict[str, list[tuple[int, str]]] = {}

    def add(self, r: CaseResult, rank: int, runner: CaseRunner, memo: _Memo) -> None:
        assert r.expected is not None and r.actual is not None
        option_id, option = self.option_id, self.option
        under = {key: _reference(runner, r, option_id, value, memo) for key, value in zip(self.keys, option.values)}
        if any(v is None for v in under.values()) or len({memo.canonical_of(v) for v in under.values()}) < 2:
            return
        pool = self.pools[option_id not in (r.options or {})]
        pool.distinguishing += 1
        hits = [key for key, result in under.items() if result is not None and _agrees(r.actual, result)]
        for key in hits:
            pool.agree[key] += 1
        if not hits:
            apart = _agrees_where_they_differ(r.actual, under)
            for key in apart:
                pool.apart[key] += 1
            if not apart:
                pool.neither += 1
        named = _same_value(option, (r.options or {})[option_id]) if option_id in (r.options or {}) else None
        if named is not None and named in hits:
            self.follows += 1
            self.followed_values.add(named)
        elif named is not None and hits:
            self.otherwise += 1
        own = _reference(runner, r, None, None, memo) if r.outcome == "failed" and hits else None
        if r.outcome == "failed" and hits and (own is None or not _agrees(r.actual, own)):
            for key in hits:
                if key != value_key(option.default):
                    self.explained.setdefault(f"{option_id}={key}", []).append((rank, case_name(r)))

    def result(self, rescored: int) -> dict[str, Any]:
        unset, given = self.pools[True], self.pools[False]
        chosen_pool = unset if unset.distinguishing else given
        agree, neither, distinguishing = chosen_pool.agree, chosen_pool.neither, chosen_pool.distinguishing
        kept_apart = chosen_pool.apart
        support = {k: agree[k] + kept_apart[k] for k in agree}  # a case whose other fans disagree still shows it
        if distinguishing == 0:
            verdict = NO_EVIDENCE
        elif chosen_pool is given and self.follows == distinguishing and sum(1 for n in agree.values() if n) > 1:
            verdict = FOLLOWS
        else:
            best = max(support.values())
            leaders = [k for k, n in support.items() if n == best]
            verdict = NEITHER if best == 0 or neither > best else leaders[0] if len(leaders) == 1 else TIE
        return {"default": value_key(self.option.default), "verdict": verdict, "agree": agree,
                "agree_other_fans_differ": kept_apart, "neither": neither,
                "distinguishing": distinguishing, "rescored": rescored,
                "evidence": "cases that leave the option unset" if chosen_pool is unset else "cases that set the option",
                "set_by_case": {"distinguishing": given.distinguishing, "follows_case": self.follows,
                                "followed": self._followed(verdict, given.distinguishing),
                                "answered_otherwise": self.otherwise}}

    def _followed(self, verdict: str, distinguishing: int) -> bool:
        """Whether the engine follows the option where a case names it: it answered every distinguishing case
        that names it as the named value reads it, one of them a value other than its own reading where a case
        is silent (the verdict; the default where that is not a reading)."""
        own = verdict if verdict in self.keys else value_key(self.option.default)
        return distinguishing > 0 and self.follows == distinguishing and bool(self.followed_values - {own})


@dataclass
class _Memo:
    """What the profile works out once per case, whatever the option it looks at (infer_profile keeps one per
    case while it scores it). Cases are keyed by identity (a merged summary's cases come from several files,
    their lines repeat); results by identity too, as `scored` keeps them alive."""

    hands: dict[int, Any] = field(default_factory=dict)  # case -> its input read (a Hand, or the HandError)
    scored: dict[tuple[int, int], Any] = field(default_factory=dict)  # (case, scorer) -> result cut to expect
    canonical: dict[int, str] = field(default_factory=dict)  # result -> _canonical(result)

    def canonical_of(self, result: Any) -> str:
        text = self.canonical.get(id(result))
        if text is None:
            text = self.canonical[id(result)] = _canonical(result)
        return text


@dataclass
class _Pool:
    agree: dict[str, int]
    apart: dict[str, int]  # agree where the readings differ, while other fans of the answer disagree (kept apart)
    neither: int = 0
    distinguishing: int = 0


def _view(result: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """A result's fans (id -> points and count) and its other fields."""
    if not isinstance(result, Mapping):
        return {}, {}
    fans = {str(f.get("id")): (f.get("points"), f.get("count")) for f in (result.get("fans") or [])
            if isinstance(f, Mapping)} if isinstance(result.get("fans"), list) else {}
    return fans, {k: v for k, v in result.items() if k != "fans"}


def _agrees_where_they_differ(actual: Any, under: Mapping[str, Any]) -> list[str]:
    """The readings whose result the engine's answer gives on the fans where the readings differ (or, when
    their fans agree, on the fields where they differ), whatever its other fans: an unrelated departure of the
    engine elsewhere in the hand then does not hide which reading it follows."""
    views = {key: _view((readings_of(result) or [{}])[0]) for key, result in under.items() if result is not None}
    if len(views) < 2:
        return []
    fan_ids = set().union(*(fans for fans, _ in views.values()))
    differing = {f for f in fan_ids if len({fans.get(f) for fans, _ in views.values()}) > 1}
    fields = set().union(*(rest for _, rest in views.values()))
    differing_fields = {k for k in fields if len({json.dumps(rest.get(k), sort_keys=True, default=str)
                                                  for _, rest in views.values()}) > 1}
    common = fan_ids - differing  # the fans every reading gives alike
    found = []
    for member in readings_of(actual):
        fans, rest = _view(member)
        # the answer must give most of the fans the readings share (an answer that scores nothing tells nothing)
        if common and 2 * sum(1 for f in common if fans.get(f) == next(iter(views.values()))[0].get(f)) < len(common):
            continue
        for key, (ref_fans, ref_rest) in views.items():
            if key in found:
                continue
            if differing:
                same = all(fans.get(f) == ref_fans.get(f) for f in differing)
            else:
                same = bool(differing_fields) and all(rest.get(k) == ref_rest.get(k) for k in differing_fields)
            if same:
                found.append(key)
    return found if len(found) == 1 else []  # an answer that fits several readings there tells none


def _same_value(option: Any, raw: Any) -> str | None:
    """The reading a case's own option value names, or None when it names none."""
    try:
        return value_key(option.coerce(raw))
    except ValueError:
        return None


def _reference(runner: CaseRunner, r: CaseResult, option_id: str | None, value: Any, memo: _Memo) -> Any:
    """The reference result for the case's input (its own options, with `option_id` set to `value`), as
    `CaseRunner.run` gives it, cut to the keys its `expect` names; None when the reference cannot run it. The
    input is read once for every reading, and scored once per set of option values (CaseRunner.scorer gives
    one scorer per set: the default reading of every option is the same scoring)."""
    options = dict(r.options or {})
    if option_id is not None:
        options[option_id] = value
    try:
        read = memo.hands.get(id(r))
        if read is None:
            read = memo.hands[id(r)] = runner.read_hand(str(r.ruleset), r.input or {})
        scored = (id(r), id(runner.scorer(str(r.ruleset), options)))
        if scored not in memo.scored:
            memo.scored[scored] = _cut(runner.result_of(str(r.ruleset), options, read), _keys(r.expected))
        return memo.scored[scored]
    except Exception:  # a case the reference cannot run gives no evidence either way
        return None


def _keys(expected: Mapping[str, Any] | None) -> set[str]:
    if not isinstance(expected, Mapping):
        return set()
    return {k for m in readings_of(expected) for k in m}


def _cut(result: Mapping[str, Any], keys: set[str]) -> Any:
    if isinstance(result.get("either"), list):
        return {"either": [_cut(m, keys) for m in result["either"] if isinstance(m, Mapping)]}
    return {k: v for k, v in result.items() if k in keys}


def _agrees(actual: Mapping[str, Any], reference: Mapping[str, Any]) -> bool:
    try:
        return matches(actual, reference)
    except (KeyError, TypeError, AttributeError):
        return False


def _fan_order(fan: Any) -> tuple:
    """A fan's place among a result's fans: by id, count and points, else (not such a fan) by its JSON text."""
    if isinstance(fan, dict) and isinstance(fan.get("id"), str) and len(fan) == 3 \
            and isinstance(fan.get("count"), int) and isinstance(fan.get("points"), int):
        return (0, fan["id"], fan["count"], fan["points"], "")
    return (1, "", 0, 0, json.dumps(fan, sort_keys=True, ensure_ascii=False, default=str))


def _canonical(result: Any) -> str:
    """One text per result, fan order ignored."""
    def norm(member: Any) -> Any:
        if isinstance(member, Mapping) and isinstance(member.get("fans"), list):
            return {**member, "fans": sorted(member["fans"], key=_fan_order)}
        return member
    if isinstance(result, Mapping) and isinstance(result.get("either"), list):
        result = {"either": sorted((norm(m) for m in result["either"]),
                                   key=lambda m: json.dumps(m, sort_keys=True, ensure_ascii=False))}
    return json.dumps(norm(result), sort_keys=True, ensure_ascii=False, default=str)


class _FansOutside:
    """Per ruleset: fan ids in the engine's results that none of the spec's patterns has, with counts and at most
    EXAMPLES case names, gathered case by case."""

    def __init__(self, runner: CaseRunner):
        self.runner = runner
        self.known: dict[str, frozenset[str] | None] = {}
        self.by_ruleset: dict[str, dict[str, Any]] = {}

    def add(self, r: CaseResult) -> None:
        if r.ruleset is None or not isinstance(r.actual, Mapping):
            return
        if r.ruleset not in self.known:
            try:
                self.known[r.ruleset] = frozenset(p.id for p in self.runner.ruleset(r.ruleset).patterns)
            except ValueError:
                self.known[r.ruleset] = None
        ids = self.known[r.ruleset]
        if ids is None:
            return
        seen = set()
        for m in readings_of(r.actual):
            fans = m.get("fans") if isinstance(m, Mapping) else None
            for fan in (fans if isinstance(fans, list) else []):
                fan_id = fan.get("id") if isinstance(fan, Mapping) else None
                if isinstance(fan_id, str) and fan_id not in ids and fan_id not in seen:
                    seen.add(fan_id)
                    listed = self.by_ruleset.setdefault(r.ruleset, {})
                    if fan_id not in listed and len(listed) >= MAX_OUTSIDE_FANS:  # past so many: one entry
                        fan_id = OTHER_OUTSIDE_FANS
                        if fan_id in seen and fan_id in listed:
                            continue
                        seen.add(fan_id)
                    entry = listed.setdefault(fan_id, {"cases": 0, "examples": []})
                    entry["cases"] += 1
                    if len(entry["examples"]) < EXAMPLES:
                        entry["examples"].append(case_name(r))

    def found(self) -> dict[str, dict[str, Any]]:
        return {rs: dict(sorted(fans.items(), key=lambda kv: (-kv[1]["cases"], kv[0])))
                for rs, fans in self.by_ruleset.items()}
