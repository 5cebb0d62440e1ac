"""What a cause search finds: an explanation (one departure and how many cases it explains), a class's cause,
and the search's limits; checker.diagnose.causes says how they are searched."""
from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Mapping, Sequence

from checker.case import readings_of
from checker.diagnose.probes import CONFIRMED, UNTESTED, Probe, Reach, Trial, pays_alike
from checker.mutate.mutation import Mutation, together

MAX_MEMBERS_SCREENED = 40  # a class's cases a candidate is first tried on (then on all of them)
MAX_MEMBERS_FIRST = 5  # of those, the first ones a candidate must explain one of before it is tried on the rest
MAX_PASSING_CHECKED = 1000  # passing cases a cause is checked not to change (spread over the run)
PAIRS_FROM = 8  # the best partial candidates paired with each other
MAX_TRIALS_WITH_OTHERS = 60  # a departure found elsewhere paired with one of a class's own, at most
MAX_FOUND_IN_TRIPLES = 8  # the run's departures (those explaining most classes first) tried three at a time
JOINT_PASSES = 3  # passes of the one model over the run's classes (a departure's reach may grow in each)
MAX_ROUNDS = 4  # times the cases a partial cover leaves are screened again for a departure of their own
MAX_ALTERNATIVES = 4  # departures that explain a whole class alike, kept to choose among across classes
UNEXPLAINED = "unexplained"
WRITTEN = ("fan names", "fan listing", "fan notation")  # explanations of how an engine writes its answers
SCORER_COST = 10  # a scorer built for an edited spec, in re-scorings of the effort (checker.diagnose.causes)
PARTS_NEEDED = "of the cases it explains, those each part is needed for (the rest without it do not reproduce them): "
PARTS_UNASKED = "the probes that would put these of its parts to the engine apart from the others were not asked:"
PAYS_ALIKE = ("none of the hands its probes were chosen from pays or decides otherwise under it than under the rules: "
              "the probes bear out how the engine lists its fans, not what it pays")


class OutOfEffort(Exception):
    """The class being searched has spent its share of the run's effort."""


@dataclass(frozen=True)
class Explanation:
    """A departure and the cases of the class it reproduces (`explains` of `of`), checked against `checked`
    passing cases, none of which it changes; and what the engine's answers to probes said of it
    (checker.diagnose.probes): `evidence` confirmed or untested ("" before the probes, or for a kind that
    re-scoring cannot predict), the probes, the rivals no probe told apart from it (`or_equally`, id and
    words), why it is untested, and the engine's own refusal ids read as the reference's rules."""

    kind: str  # reading, spec edit, context reading, pair, fans outside the spec, input disagreement, input refused,
    # fan names, fan listing
    id: str
    words: str
    rules: tuple[str, ...]
    explains: int
    of: int
    checked: int = 0
    evidence: str = ""
    probes: tuple[Probe, ...] = ()
    or_equally: tuple[tuple[str, str], ...] = ()
    why_untested: str = ""
    rules_read: tuple[tuple[str, str], ...] = ()
    reach: tuple[Reach, ...] = ()  # where cases name an option the engine follows at another value
    confirmed_for: str = ""  # confirmed by the probes asked for another class (its signature) of the same departure
    parts_needed: tuple[tuple[str, int], ...] = ()  # a departure of several parts: each, and how many cases need it
    parts_unasked: tuple[str, ...] = ()  # of a departure of several parts, those its probes did not put to the engine
    nearest: str = ""  # contradicted at the class's own departing event: the nearest reading, not the engine's (why)

    def tried_by(self, trial: Trial, words_of: Callable[[str], str]) -> "Explanation":
        """The same explanation with what its trial found: the rivals left beside it, each saying why (no case the
        tool built tells them apart, or the probe that would was not asked). Of the rivals no case tells apart, one
        holding every part of another such rival (or of this explanation) and more is left out: on every case built
        its other parts do nothing beside those, and the smaller says the same."""
        alike = [frozenset(i.split(" + ")) for i in (self.id, *trial.inseparable)]
        inseparable = [rival for rival in trial.inseparable
                       if not any(other < frozenset(rival.split(" + ")) for other in alike)]
        beside = [(rival, f"{words_of(rival)} (no case the tool built tells them apart)") for rival in inseparable]
        beside += [(rival, f"{words_of(rival)} (the probe that would tell them apart was not asked: {trial.why or 'no engine, or the --probes budget spent'})")
                   for rival in trial.unasked]
        beside += [(rival, f"{words_of(rival)} (the engine answered the probes that would tell them apart as neither "
                           f"predicts: it departs there in some other way too)") for rival in trial.undecided]
        return replace(self, evidence=trial.status, probes=trial.probes, why_untested=trial.why,
                       or_equally=tuple(beside), parts_unasked=trial.parts_unasked)

    @property
    def pays_alike(self) -> bool:
        """Confirmed only on probes where it pays and decides as the rules do (no case the tool built tells them
        apart in money): a claim about how the engine lists its fans, said so."""
        against_rules = [p for p in self.probes if p.against is None and p.holds]
        return self.evidence == CONFIRMED and bool(against_rules) and all(
            pays_alike(p.predicted, p.against_predicted) for p in against_rules)

    def said(self) -> str:
        """Its words with its evidence: how many cases, the probes that confirm it, the rivals beside it."""
        text = f"{self.words}: {self.explains} of {self.of} cases"
        if self.rules_read:
            text += " (the engine's own refusal ids read as: " + ", ".join(f"{a} = {b}" for a, b in self.rules_read) + ")"
        if self.evidence == CONFIRMED:
            held = sum(1 for p in self.probes if p.holds)
            text += f", confirmed by {held} probe{'s' if held != 1 else ''}"
            if self.confirmed_for:
                text += f" (asked for the class \"{self.confirmed_for}\", where the same departure was named)"
            if self.pays_alike:
                text += f" ({PAYS_ALIKE})"
        elif self.evidence == UNTESTED:
            text += f", not confirmed by a probe ({self.why_untested}); checked against {self.checked} passing cases"
        if self.parts_unasked:
            text += (f"; {PARTS_UNASKED} {', '.join(self.parts_unasked)} "
                     f"({self.why_untested or 'no engine, or the --probes budget spent'})")
        if self.parts_needed:
            text += "; " + PARTS_NEEDED + ", ".join(f"{part} {n}" for part, n in self.parts_needed)
        if self.or_equally:
            text += "; or equally: " + "; ".join(w for _, w in self.or_equally)
        for r in self.reach:
            text += f"; {r.words()}"
        return text

    def as_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "id": self.id, "words": self.words, "rules": list(self.rules),
                "explains": self.explains, "of": self.of, "passing_checked": self.checked,
                **({"evidence": self.evidence} if self.evidence else {}),
                **({"why_untested": self.why_untested} if self.why_untested else {}),
                **({"probes": [p.as_json() for p in self.probes]} if self.probes else {}),
                **({"or_equally": [{"id": i, "words": w} for i, w in self.or_equally]} if self.or_equally else {}),
                **({"rules_read": dict(self.rules_read)} if self.rules_read else {}),
                **({"reach": [r.as_json() for r in self.reach]} if self.reach else {}),
                **({"confirmed_for": self.confirmed_for} if self.confirmed_for else {}),
                **({"pays_alike": True} if self.pays_alike else {}),
                **({"parts_needed": dict(self.parts_needed)} if self.parts_needed else {}),
                **({"parts_unasked": list(self.parts_unasked)} if self.parts_unasked else {}),
                **({"nearest": self.nearest} if self.nearest else {})}


@dataclass(frozen=True)
class Cause:
    """What a class's search found: the explanations that cover it (one, or several greedily), the cases none
    explains, and what was tried; after the probes, the departures that fit the cases but that the engine's
    answers contradict (each with the probe), and those that fit but nothing tested (no passing case, no probe:
    not named)."""

    explanations: tuple[Explanation, ...]
    unexplained: int
    tried: Mapping[str, int] = field(default_factory=dict)
    alternatives: tuple[Explanation, ...] = ()  # every single departure that explains the whole class alike
    stopped: int | None = None  # the effort budget, when it was spent before this class was searched (or in it)
    share: bool = False  # stopped in the class's own search, its share of the effort spent
    screened: tuple[int, int] | None = None  # then: how many of its candidates were screened, of how many
    effort: int = 1  # the run's --effort
    contradicted: tuple[Explanation, ...] = ()
    untested: tuple[Explanation, ...] = ()

    def choosing(self, chosen: Explanation) -> "Cause":
        """The same cause with `chosen`, one of its alternatives, named first (see `CauseSearch._prefer_shared`)."""
        return Cause((*(e for e in self.explanations if e.kind in WRITTEN), chosen), self.unexplained, self.tried,
                     self.alternatives)

    def _tried_words(self) -> str:
        """What was tried, where nothing reproduces a case of the class."""
        kinds = ", ".join(f"{n} {kind}{'' if n == 1 or kind.endswith('s') else 's'}"
                          for kind, n in self.tried.items() if isinstance(n, int) and n)
        return f"nothing tried ({kinds}) reproduces the engine's whole answer on any of its cases"

    def _stopped_words(self) -> str:
        if self.stopped is not None and self.share:
            searched = any(e.kind not in WRITTEN for e in self.explanations)
            text = (f"not searched to the end: the class's share of the search's effort (up to {self.stopped:,} "
                    f"re-scorings) was spent before {'the cases left were explained' if searched else 'a cause was found'}")
            if self.screened is not None and self.screened[0] >= self.screened[1]:
                return text + (f", with all {self.screened[1]} of its candidate departures screened, in its pairs and "
                               f"later rounds; --effort {self.effort * 2} or more gives it more")
            if self.screened is not None and self.screened[0]:
                done, of = self.screened
                more = -(-of * self.effort // done)  # its candidates cost alike: so many times the effort screens all
                return text + (f", with {done} of its {of} candidate departures screened; --effort {max(more, self.effort + 1)}"
                               f" would screen them all (before pairs and later rounds)")
            return text + f", before its first candidate was screened; --effort {self.effort * 2} or more gives it more"
        return (f"not searched: the search's effort ({self.stopped:,} re-scorings) was spent on larger classes; "
                f"--effort 2 or more gives every class more")

    @property
    def verdict(self) -> str:
        if self.stopped is not None and not self.explanations:
            return self._stopped_words()
        said = [e.said() for e in self.explanations]
        if self.contradicted:
            said.append("contradicted by the engine's answers to probes: " +
                        "; ".join(f"{e.words} ({e.nearest}; {probe_words(e.probes)})" if e.nearest else f"{e.words} (probe {probe_words(e.probes)})"
                                  for e in self.contradicted))
        if self.untested:
            said.append("fits the cases but no probe bore it out, so not named: " +
                        "; ".join(f"{e.words} ({e.why_untested})" for e in self.untested))
        if not self.explanations:
            if not said and self.tried:
                said.append(self._tried_words())
            return UNEXPLAINED + (": " + "; ".join(said) if said else "")
        if self.stopped is not None and not self.unexplained:
            said.append("read off the class's cases; its search for a departure of the rules was cut short: "
                        + self._stopped_words())
        if self.unexplained:
            why = self._stopped_words() if self.stopped is not None else \
                "nothing tried that the probes bear out reproduces the engine's whole answer there" \
                if self.contradicted or self.untested else "nothing tried reproduces the engine's whole answer there"
            said.append(f"{self.unexplained} of the class's cases {'is' if self.unexplained == 1 else 'are'} left "
                        f"{UNEXPLAINED}: {why}")
        return "; ".join(said)

    def as_json(self) -> dict[str, Any]:
        named = {e.id for e in self.explanations} | {i for e in self.explanations for i, _ in e.or_equally}
        settled = any(e.evidence for e in self.explanations)  # rivals the probes separated are not listed
        return {"explained_by": [e.as_json() for e in self.explanations], "unexplained": self.unexplained,
                "also_explained_by": [] if settled else
                [e.as_json() for e in self.alternatives if e.id not in named and e.checked],
                **({"contradicted": [e.as_json() for e in self.contradicted]} if self.contradicted else {}),
                **({"untested": [e.as_json() for e in self.untested]} if self.untested else {}),
                "tried": dict(self.tried), "verdict": self.verdict}


def probe_words(probes: Sequence[Probe]) -> str:
    wrong = next((p for p in probes if p.holds is False), None)
    if wrong is None:
        return "none"
    predicted, answered = short_result(wrong.predicted), short_result(wrong.answer)
    where = f" ({difference_words(wrong.predicted, wrong.answer)})" if predicted == answered else ""
    return f"{wrong.case.get('id')}: predicted {predicted}, the engine answered {answered}{where}"


# the fields of a result whose difference is said where the short words of two results read alike, in this order
TOLD_APART = ("valid", "error", "verdict", "event", "rule", "total", "fans", "payments", "next_dealer",
              "next_round_wind", "next_huangfan", "ended")


def difference_words(predicted: Any, answered: Any) -> str:
    """Where two results whose short words read alike differ (a winner's fans, else the first field of
    TOLD_APART), as each side writes it: so a contradiction never shows two answers that look the same."""
    if not isinstance(predicted, Mapping) or not isinstance(answered, Mapping):
        return ""
    p = readings_of(predicted)[0] if readings_of(predicted) else {}
    a = readings_of(answered)[0] if readings_of(answered) else {}
    winners = [[w for w in r.get("winners") or [] if isinstance(w, Mapping)] for r in (p, a)]
    for mine, theirs in zip(*winners):
        if mine.get("fans") != theirs.get("fans"):
            return f"seat {mine.get('seat')}'s fans: predicted {fans_words(mine.get('fans'))}, the engine's " \
                   f"{fans_words(theirs.get('fans'))}"
    for key in TOLD_APART:
        if p.get(key) != a.get(key):
            return f"{key}: predicted {json.dumps(p.get(key), ensure_ascii=False)}, the engine's " \
                   f"{json.dumps(a.get(key), ensure_ascii=False)}"
    return ""


def fans_words(fans: Any) -> str:
    """Fans as `id points×count`, comma-separated ("none" for none)."""
    listed = [f for f in fans or [] if isinstance(f, Mapping)]
    return ", ".join(f"{f.get('id')} {f.get('points')}" + (f"×{f.get('count')}" if f.get("count", 1) != 1 else "")
                     for f in listed) or "none"


def short_result(result: Any) -> str:
    if not isinstance(result, Mapping):
        return "nothing"
    first = readings_of(result)[0] if readings_of(result) else {}
    if "verdict" in first:  # a hand of play
        return play_words(first)
    if not first.get("valid", True):
        return f"a refusal ({first.get('error')})"
    fans = fans_words(first.get("fans")) if first.get("fans") else ""
    return f"a win of {first.get('total')} ({fans}), payments {first.get('payments')}"


def play_words(result: Mapping[str, Any]) -> str:
    """A hand of play's result in a few words: its verdict, the illegal event and rule, or how it ended, who won
    and the payments."""
    verdict = result.get("verdict")
    if verdict in ("illegal", "unfinished") and result.get("event") is not None:
        rule = f" ({result['rule']})" if result.get("rule") else ""
        return f"{verdict} at event {result['event']}{rule}" if verdict == "illegal" else \
            f"unfinished, legal up to event {result['event']}"
    if verdict != "legal":
        return str(verdict)
    winners = [w for w in result.get("winners") or [] if isinstance(w, Mapping)]
    won = ", ".join(f"seat {w.get('seat')} by {w.get('win_by')} for {w.get('total')}" for w in winners)
    return f"legal, ended by {result.get('ended')}" + (f" ({won})" if won else "") + \
        (f", payments {result['payments']}" if result.get("payments") is not None else "")


def family_kind(m: Mutation) -> str:
    if m.family == "reading":
        return "reading"
    if m.family.startswith("context"):
        return "context reading"
    if m.family == "pair":
        return "pair"
    if m.family == "log reading":  # (checker.mutate.log_reads)
        return "log reading"
    return "spec edit"


def canonical(result: Any) -> str:
    return json.dumps(result, sort_keys=True, default=str)


def passing_step(passing: int) -> int:
    """Every how many passing cases of a ruleset one is checked: at most MAX_PASSING_CHECKED, spread over the run."""
    return max(1, -(-passing // MAX_PASSING_CHECKED))

