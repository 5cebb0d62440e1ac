"""Causes found without re-scoring: fans outside the spec, a refusal below the minimum, an input disagreement
(the engine errs or refuses on exactly the cases with some feature of their input)."""
from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping, Sequence

from checker.case import fans_of, readings_of
from checker.diagnose.classes import FailureClass, case_rule
from checker.diagnose.explanation import Explanation
from checker.diagnose.judged import Judged
from checker.diagnose.notation import scored_hands
from checker.spec import Ruleset

OUTSIDE = "outside:"  # the id of fans outside the spec named from the answers: outside:FAN,FAN

def fans_outside_spec(cls: FailureClass, ruleset: Ruleset | None) -> Explanation | None:
    """The engine scores fan ids the spec has none of, in place of the same spec fans in every case."""
    if ruleset is None:
        return None
    known = {p.id for p in ruleset.patterns}
    extra = {str(p["fan"]) for p in cls.parts if p.get("extra")}
    outside = sorted(extra - known)
    if not outside or extra - set(outside):
        return None
    replaced = sorted(str(p["fan"]) for p in cls.parts if p.get("missing"))
    others = [p for p in cls.parts if not (p.get("extra") or p.get("missing") or "names" in p or "unlisted" in p)]
    if others:
        return None
    words = outside_words(outside, replaced)
    return Explanation("fans outside the spec", OUTSIDE + ",".join(outside), words,
                       tuple(f"fan.{f}" for f in replaced), len(cls.members), len(cls.members))


def outside_words(outside: Sequence[str], replaced: Sequence[str]) -> str:
    """The words of fans outside the spec: names the spec has no fan under (an element the spec has as a scoring
    step, as the knocking fig, is one too: it is no fan of the spec's)."""
    named = f"{'a name' if len(outside) == 1 else 'names'} the spec has no fan under"
    return f"the engine scores {', '.join(outside)}, {named}" + (f", in place of {', '.join(replaced)}" if replaced else "")


def outside_ids(result: Any, known: set[str]) -> set[str]:
    """The fan ids an answer names that the spec has no pattern for (a hand of play: its winners')."""
    return {str(f.get("id")) for w in readings_of(result) for h in scored_hands(w) for f in fans_of(h)
            if str(f.get("id")) not in known}


def below_minimum(r: Judged) -> bool:
    """Whether the engine wins a hand the rules refuse for its points (every reading of the expectation)."""
    wants, gots = readings_of(r.expected), readings_of(r.actual)
    return bool(wants) and all(not w.get("valid", True) and w.get("error") == "win.minimum_points" for w in wants) \
        and any(g.get("valid", True) for g in gots)


FEATURES: tuple[tuple[str, Callable[[Mapping[str, Any], Mapping[str, Any]], Iterable[str]]], ...] = (
    ("win_by", lambda case, data: [f"a win by {data.get('win_by', 'self_draw')}"]),
    ("flags", lambda case, data: [f"the {k} flag" for k, v in (data.get("flags") or {}).items() if v]),
    ("counters", lambda case, data: [f"the {k} counter" for k in (data.get("counters") or {})]),
    ("melds", lambda case, data: [f"a {'concealed ' if m.get('concealed') else ''}{m.get('type')} meld"
                                  for m in (data.get("melds") or []) if isinstance(m, Mapping)]),
    ("flowers", lambda case, data: ["flowers"] if data.get("flowers") else []),
    ("options", lambda case, data: [f"option {k}" for k in (case.get("options") or {})]),
)


def _features(r: Judged) -> set[str]:
    return case_features(r.case or {})


def case_features(case: Mapping[str, Any]) -> set[str]:
    """The features of a case's input an engine may not take: its way of winning, flags, counters, kinds of meld,
    flowers, options (a hand of play: the kinds of event its log holds, and its options)."""
    given = case.get("input")
    data: Mapping[str, Any] = given if isinstance(given, Mapping) else {}
    out: set[str] = set()
    if case.get("kind", "score") == "procedure":  # a hand of play: the kinds of event its log holds, and options
        events = data.get("events")
        out.update(f"an event {e.get('event')}" for e in (events if isinstance(events, list) else [])
                   if isinstance(e, Mapping))
        out.update(f"option {k}" for k in (case.get("options") or {}))
        return out
    for _, read in FEATURES:
        try:
            out.update(read(case, data))
        except (AttributeError, TypeError):
            continue
    return out


def input_refused(cls: FailureClass) -> Explanation | None:
    """A class of cases the rules refuse as input (an `input.*` rule, one for the whole class: a tile that is none,
    a flag or counter the ruleset does not know) that the engine answers otherwise: it scores the hand (it does not
    check what the rule checks), or it errs where the rules refuse. Read off the class's cases and answers."""
    rules = {_input_rule(r) for r in cls.members}
    if len(rules) != 1 or None in rules or not cls.members:
        return None
    rule = str(rules.pop())
    if all(r.outcome == "errored" for r in cls.members):
        words = f"the engine errs on a case the rules refuse as input ({rule}), where the rules answer a refusal"
        return Explanation("input refused", f"input-errs:{rule}", words, (rule,), len(cls.members), len(cls.members))
    wins = all(any(g.get("valid", True) for g in readings_of(r.actual)) for r in cls.members)
    if not wins:
        return None
    words = f"the engine scores cases the rules refuse as input ({rule}): it does not check what that rule checks"
    return Explanation("input refused", f"input-taken:{rule}", words, (rule,), len(cls.members), len(cls.members))


def _input_rule(r: Judged) -> str | None:
    rule = case_rule(r)
    return rule if rule is not None and rule.startswith("input.") else None


def input_disagreement(cls: FailureClass, passing: Sequence[Judged]) -> Explanation | None:
    """An errored class (or one the engine refuses) whose cases all share an input feature no passing case has:
    the engine does not take a form the case format allows."""
    refuses = all(r.outcome == "errored" for r in cls.members) or any(
        "verdict" in p and p["verdict"]["actual"] != "win" and p["verdict"]["expected"] == "win" for p in cls.parts)
    if not refuses or not cls.members:
        return None
    common = set.intersection(*(_features(r) for r in cls.members))
    seen = set().union(*(_features(r) for r in passing)) if passing else set()
    alone = sorted(common - seen)
    if not alone:
        return None
    words = f"the engine does not take a case with {alone[0]} (it errs or refuses on every one; no passing case " \
            f"has it)"
    return Explanation("input disagreement", f"input:{alone[0]}", words, (), len(cls.members), len(cls.members))
