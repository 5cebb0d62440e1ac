"""Root issues: the findings of one ruleset merged by cause, each said to be the document's own problem or a
reading the spec brings in from elsewhere, and ranked by what is at stake.

A finding's root is the option that decides it (every reading of one option, and every example, dead rule or
limit that reading touches, is one issue), else its decision (`decided`), else the other ruleset
(cross-variant), else its own key (a rule, a pair of rules). Provenance:
- `document`: the text contradicts itself, leaves a gap or reads two ways (its sentences are the findings');
- `imported`: every reading the root's findings rest on is one the spec marks as brought in from elsewhere
  (an option's `imported`), with its source;
- `between documents`: the same hand under two rulesets (cross-variant).

Stakes: `money`, the most one seat's payment changes between two outcomes of one of the root's witnesses (a
hand that may not win against one that may counts the whole payment); and for a root deciding a scoring option,
two counts (checker.hunt.stakes): `touched` of `of` known legal hands (the checked-in corpus and the document's
examples) and `space_touched` of `space_of` cases of an even sample of the exhaustive spaces, each with its
money `moved`. Roots are ranked by provenance (the document's own first), then by money moved over the space
sample, then over the known hands, then by the witnesses' money; a root with none (a decision) comes last in its
group. The method is stated with each count.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from checker.case import CaseRunner
from checker.engine.hand import Hand
from checker.hunt.findings import DECIDED, PROVENANCE
from checker.hunt.stakes import Count, change, counted_known, counted_space
from checker.spec import Ruleset, value_key



@dataclass
class Root:
    key: str
    title: str
    provenance: str
    source: str  # what the provenance rests on, in words
    findings: list[str]
    money: int = 0
    touched: int | None = None
    of: int | None = None
    moved: int = 0
    space_touched: int | None = None
    space_of: int | None = None
    space_moved: int = 0
    method: str = ""
    kinds: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {"key": self.key, "title": self.title, "provenance": self.provenance, "source": self.source,
                "findings": self.findings, "kinds": self.kinds,
                "stakes": {"money": self.money, "touched": self.touched, "of": self.of, "moved": self.moved,
                           "space_touched": self.space_touched, "space_of": self.space_of,
                           "space_moved": self.space_moved, "method": self.method}}


def root_key(f: Mapping[str, Any]) -> str:
    if f.get("deciding_option"):
        return f"option.{f['deciding_option']}"
    key = str(f["key"])
    if f["kind"] == "cross-variant":
        return ".".join(key.split(".")[:2])
    return key


def witness_money(f: Mapping[str, Any]) -> int:
    results = [o["result"] for o in f.get("outcomes") or [] if isinstance(o.get("result"), Mapping)]
    return max((change(a, b) for i, a in enumerate(results) for b in results[i + 1:]), default=0)


def _readings(f: Mapping[str, Any], option_id: str) -> list[Any]:
    """The values of `option_id` a finding rests on: its witness's, else the one its key names."""
    options = (f.get("witness") or {}).get("options") or {}
    if option_id in options:
        return [options[option_id]]
    for part in str(f["key"]).replace("&", " ").replace("@", " ").split():
        if part.split(".")[-1].startswith(f"{option_id}="):
            return [part.split("=", 1)[1]]
    return []


def _provenance(ruleset: Ruleset, key: str, found: Sequence[Mapping[str, Any]]) -> tuple[str, str]:
    if key.startswith("cross-variant."):
        return "between documents", f"the same hand under {ruleset.id} and {key.split('.', 1)[1]}"
    if key.startswith("option."):
        option = ruleset.options.get(key.split(".", 1)[1])
        if option is not None and option.imported:
            imported = {value_key(v) for v in option.imported}
            rests = [value_key(v) for f in found for v in _readings(f, option.id)]
            if rests and all(v in imported for v in rests):
                return "imported", option.imported_from
        if option is not None:
            return "document", f"the text reads two ways ({option.id})"
    if key.startswith("decided."):
        return "document", "the text leaves it open; the spec decides it"
    return "document", "the text as the spec reads it"


def _title(ruleset: Ruleset, key: str, found: Sequence[Mapping[str, Any]]) -> str:
    if key.startswith("option."):
        oid = key.split(".", 1)[1]
        option = ruleset.options.get(oid)
        shown = ", ".join(f"{value_key(v)} ({option.readings.get(value_key(v), '')})" for v in option.values) \
            if option is not None else ""
        return f"{oid}: {shown}" if shown else oid
    return str(found[0]["title"])


def roots(runner: CaseRunner, ruleset: Ruleset, findings: Sequence[Mapping[str, Any]],
          pool: Sequence[Mapping[str, Any]], sample: Sequence[Sequence[Hand]] = ()) -> list[Root]:
    """The findings merged by root and ranked (see the module's docstring); `pool` the known hands, `sample` the
    space sample (checker.hunt.stakes.space_sample)."""
    grouped: dict[str, list[Mapping[str, Any]]] = {}
    for f in findings:
        grouped.setdefault(root_key(f), []).append(f)
    out = []
    known_defaults: dict[int, Any] = {}  # each hand's result under the default readings, counted once for all options
    space_defaults: dict[tuple[int, int], Any] = {}
    for key, found in grouped.items():
        provenance, source = _provenance(ruleset, key, found)
        root = Root(key, _title(ruleset, key, found), provenance, source, [str(f["id"]) for f in found],
                    money=max(witness_money(f) for f in found), kinds=sorted({str(f["kind"]) for f in found}))
        oid = key.split(".", 1)[1] if key.startswith("option.") else ""
        counted = []
        if oid in ruleset.scoring_options() and pool:
            known: Count = counted_known(runner, ruleset, oid, pool, known_defaults)
            root.touched, root.moved, root.of = known.touched, known.moved, known.of
            counted.append(f"the {known.of} known legal hands (the checked-in corpus and the document's examples)")
        if oid in ruleset.scoring_options() and sample:
            space = counted_space(runner, ruleset, oid, sample, space_defaults)
            root.space_touched, root.space_moved, root.space_of = space.touched, space.moved, space.of
            several = (" and, one discard having several winners each paid as a hand of its own, pairs of its wins "
                       "on a discard won on one discard") \
                if runner.scorer(ruleset.id, {}).bound.procedure.multiple_winners == "all_paid" else ""
            counted.append(f"the {space.of} wins of an even sample of {len(sample)} hands of the exhaustive "
                           f"concealed and one-claimed-set spaces (every hand's every winning tile, self-drawn and "
                           f"on a discard, with the knock where every win needs it; the hands taking in turn no "
                           f"context, each counter at 1-3 and each other flag alone; no flowers{several})")
        if counted:
            root.method = ("an option's roots: counted over " + " and over ".join(counted) + ", each under the "
                           "default readings and under each other reading of the option")
        elif root.money:
            root.method = "other roots: their witnesses' own outcomes only (no space of hands counted)"
        else:
            root.method = "decisions and roots with no outcome that pays: not priced"
        out.append(root)
    out.sort(key=rank)
    return out


def rank(root: Root) -> tuple[Any, ...]:
    """An editor's order: the document's own problems, then imported readings, then those between documents;
    within each, the document contradicting itself first, then what it says two ways or gets wrong, then what it
    leaves unsaid (a point only decided, by the spec or the table), and exclusions that can never apply (a harmless
    redundancy of the table) last; then the money moved over the sampled space, over the known hands, and by the
    witnesses themselves."""
    contradiction = "contradiction" in root.kinds
    dead_exclusion = root.kinds == ["dead-rule"] and root.key.startswith("dead-rule.excludes.")
    only_decided = root.kinds == [DECIDED]
    return (PROVENANCE.index(root.provenance), not contradiction, dead_exclusion, only_decided, -root.space_moved,
            -root.moved, -root.money, root.key)
