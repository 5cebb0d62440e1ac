"""What a corpus-strength measure records: each mutant's status and the case that kills or separates it, counts by
family and ruleset, and the whole measure (checker.corpus.strength)."""

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from checker.case import INCOMPLETE
from checker.mutate.catalog import FAMILIES
from checker.mutate.mutation import Mutation
from checker.mutate.procedure import FAMILIES as PROCEDURE_FAMILIES

KILLED = "killed"
SEPARATED = "separated"  # a survivor: no case of the corpora kills it, a hand the search found does
UNSEARCHED_STATUS = INCOMPLETE  # the exit status of a measure the budget left incomplete
NOT_SEPARATED = "not separated"  # a survivor no hand searched tells from the spec (not known to be equivalent)
EQUIVALENT = "equivalent"  # a survivor proved to change no result a case can see (checker.corpus.equivalence)
UNBOUND = "unbound"
NOT_OBSERVABLE = "not observable"  # a procedure mutant no case kills, whose change no procedure case's result shows
STATUSES = (KILLED, SEPARATED, NOT_SEPARATED, EQUIVALENT, NOT_OBSERVABLE, UNBOUND)
SCORING_FAILURES = (ValueError, KeyError, TypeError, AttributeError, ArithmeticError, IndexError)

Progress = Callable[[int, int], None]  # (mutants judged, mutants in all)


@dataclass(frozen=True)
class CaseRef:
    """A case of the corpora and where it is: the corpus as named, its line."""

    corpus: str
    line: int
    case: Mapping[str, Any]

    @property
    def id(self) -> str | None:
        return self.case.get("id")

    def where(self) -> dict[str, Any]:
        return {"corpus": self.corpus, "line": self.line, "id": self.id}


@dataclass(frozen=True)
class CorpusRead:
    """What one corpus held: its lines that are cases, the score and procedure cases with `expect` kept, the
    others skipped."""

    path: str
    cases: int
    kept: int
    skipped: Mapping[str, int]
    procedure_kept: int = 0

    def as_json(self) -> dict[str, Any]:
        return {"path": self.path, "cases": self.cases, "score_cases": self.kept,
                "procedure_cases": self.procedure_kept, "skipped": dict(self.skipped)}


@dataclass(frozen=True)
class MutantResult:
    """What became of one mutant."""

    mutation: Mutation
    status: str
    killed_by: CaseRef | None = None
    killing_case: Mapping[str, Any] | None = None  # a survivor's, found by the search
    mutant_result: Mapping[str, Any] | None = None  # the killing case's result under the mutant
    searched: int = 0  # hands the search scored under the mutant (a procedure mutant: candidates it ran)
    found_as: str = ""  # how the search made a procedure mutant's killing case
    readings: tuple[Mapping[str, Any], ...] = ()  # the option sets the search used
    reason: str = ""  # why it is unbound, or why no procedure case can observe it
    cut: bool = False  # a survivor whose search the budget stopped before its end (not separated: unsearched)

    def as_json(self) -> dict[str, Any]:
        m = self.mutation
        out: dict[str, Any] = {"id": m.id, "family": m.family, "words": m.words, "rules": list(m.rules),
                               "status": self.status}
        if self.status == KILLED and self.killed_by is not None:
            out["killed_by"] = self.killed_by.where()
        elif self.status in (SEPARATED, NOT_SEPARATED):
            out["searched"] = self.searched
            if self.cut:
                out["cut_short"] = True
            out["readings"] = [dict(r) for r in self.readings]
            out["verdict"] = verdict(self)
            if self.killing_case is not None:
                out["killing_case"] = dict(self.killing_case)
                out["mutant_result"] = dict(self.mutant_result or {})
            if self.found_as:
                out["found_as"] = self.found_as
        elif self.status == EQUIVALENT:
            out["verdict"] = verdict(self)
        elif self.status == NOT_OBSERVABLE:
            out["verdict"] = verdict(self)
        elif self.status == UNBOUND:
            out["reason"] = self.reason
        return out


def verdict(result: MutantResult) -> str:
    if result.status == KILLED:
        return "killed"
    if result.status == SEPARATED:
        return "a case that kills it"
    if result.status == NOT_SEPARATED:
        return "not separated within the budget"
    if result.status == EQUIVALENT:
        return result.reason
    if result.status == NOT_OBSERVABLE:
        return f"not observable by a procedure case: {result.reason}"
    return "does not bind"


@dataclass(frozen=True)
class FamilyCount:
    family: str
    counts: Mapping[str, int]

    @property
    def mutants(self) -> int:
        return sum(self.counts.values())

    @property
    def kill_rate(self) -> float | None:
        """Killed among the mutants that bind, that a case could observe and not proved equivalent (None: none)."""
        bound = self.mutants - self.counts.get(UNBOUND, 0) - self.counts.get(NOT_OBSERVABLE, 0) - \
            self.counts.get(EQUIVALENT, 0)
        return self.counts.get(KILLED, 0) / bound if bound else None

    def as_json(self) -> dict[str, Any]:
        rate = self.kill_rate
        return {"family": self.family, "mutants": self.mutants,
                **{status.replace(" ", "_"): self.counts.get(status, 0) for status in STATUSES},
                "kill_rate": None if rate is None else round(rate, 4)}


@dataclass(frozen=True)
class RulesetStrength:
    """One ruleset's mutants and what became of each, with the cases they were run on."""

    ruleset: str
    cases: int  # score cases with `expect` of this ruleset in the corpora
    left_out: tuple[tuple[CaseRef, str], ...]  # cases the reference engine does not pass, with why
    catalogue: int  # mutants the catalogue made (before a sample)
    results: tuple[MutantResult, ...]
    pool: int  # hands the search could draw on (0: no survivor needed it)
    procedure_cases: int = 0  # procedure cases with `expect` of this ruleset in the corpora
    procedure_left_out: tuple[tuple[CaseRef, str], ...] = ()  # those the reference table does not pass
    procedure_catalogue: int = 0  # procedure mutants the catalogue made (before a sample)

    def families(self) -> list[FamilyCount]:
        counts: dict[str, dict[str, int]] = {}
        for r in self.results:
            counts.setdefault(r.mutation.family, {})
            counts[r.mutation.family][r.status] = counts[r.mutation.family].get(r.status, 0) + 1
        order = {f: i for i, f in enumerate(FAMILIES + PROCEDURE_FAMILIES)}
        return [FamilyCount(f, counts[f]) for f in sorted(counts, key=lambda f: (order.get(f, len(order)), f))]

    def total(self) -> FamilyCount:
        counts: dict[str, int] = {}
        for r in self.results:
            counts[r.status] = counts.get(r.status, 0) + 1
        return FamilyCount("all", counts)

    def as_json(self) -> dict[str, Any]:
        total = self.total().as_json()
        del total["family"]
        return {"ruleset": self.ruleset, "cases": self.cases, "cases_used": self.cases - len(self.left_out),
                "cases_left_out": [{**ref.where(), "reason": why} for ref, why in self.left_out],
                "catalogue": self.catalogue, "pool_hands": self.pool,
                "procedure_cases": self.procedure_cases,
                "procedure_cases_used": self.procedure_cases - len(self.procedure_left_out),
                "procedure_cases_left_out": [{**ref.where(), "reason": why} for ref, why in self.procedure_left_out],
                "procedure_catalogue": self.procedure_catalogue, "totals": total,
                "families": [f.as_json() for f in self.families()],
                "mutants": [r.as_json() for r in self.results]}


@dataclass(frozen=True)
class Strength:
    """The whole report: the corpora read, the settings, and each ruleset's strength."""

    corpora: tuple[CorpusRead, ...]
    seed: int
    sample: int | None
    budget: float
    budget_reached: bool
    rulesets: tuple[RulesetStrength, ...] = field(default_factory=tuple)

    @property
    def status(self) -> int:
        """1: a survivor that a case found kills; else 3: a survivor the budget left unsearched (or cut short), so
        the measure is not whole; else 0."""
        results = [r for rs in self.rulesets for r in rs.results]
        if any(r.status == SEPARATED for r in results):
            return 1
        return UNSEARCHED_STATUS if self.unsearched() else 0

    def unsearched(self) -> int:
        """Survivors whose search the budget stopped before its end."""
        return sum(1 for rs in self.rulesets for r in rs.results if r.cut)

    def as_json(self) -> dict[str, Any]:
        return {"strength": 1, "seed": self.seed, "sample": self.sample, "budget": self.budget,
                "budget_reached": self.budget_reached, "corpora": [c.as_json() for c in self.corpora],
                "rulesets": [r.as_json() for r in self.rulesets]}


class StrengthError(ValueError):
    """Input corpus strength cannot take: nothing to measure, or a ruleset asked for that no case names."""
