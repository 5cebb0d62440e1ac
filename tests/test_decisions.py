"""Points the documents leave open that the spec or the engine decides (spec `decisions`): each traced to the
sentences that bear on it and to what decides it, refused when it names a rule the spec does not define, and
listed by the hunter as a finding of kind `decided`."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from checker.engine import load_ruleset, load_ruleset_file
from checker.hunt.decisions import decision_findings
from checker.hunt.findings import DECIDED, finding_problem, numbered
from checker.hunt.page import html_page, page
from checker.spec import SpecError, spec_dir

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT.parent / "shared" / "seeds"
RULESETS = ["mcr", "shanghai-classic", "shanghai-knocking"]


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_every_decision_names_what_decides_it_and_quotes_its_document(ruleset_id):
    ruleset = load_ruleset(ruleset_id)
    assert ruleset.decisions
    for d in ruleset.decisions:
        assert len(d.readings) >= 2 and d.question and d.decided
        for what in d.by:  # a rule the spec defines (the loader checks it), or an engine file that exists
            assert what in ruleset.rule_ids() or (ROOT / what).is_file(), (d.id, what)
        if SEEDS.is_dir():
            for s in d.sources:
                text = (SEEDS / s.doc).read_text(encoding="utf-8")
                assert s.phrase in text and s.section in text, (d.id, s.phrase)


def test_a_decision_naming_a_rule_the_spec_does_not_define_is_refused(tmp_path):
    data = yaml.safe_load((spec_dir() / "mcr.yaml").read_text(encoding="utf-8"))
    data["decisions"] = [{"id": "x", "question": "q", "decided": "d", "by": ["procedure.no_such_entry"],
                          "readings": ["a", "b"], "sources": []}]
    path = tmp_path / "mcr-edited.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    with pytest.raises(SpecError) as info:
        load_ruleset_file(path)
    (issue,) = info.value.issues
    assert issue.pointer == "/decisions/0/by/0" and "procedure.no_such_entry" in issue.reason


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_the_hunter_lists_every_decision_as_a_finding_of_its_own_kind_on_both_pages(ruleset_id):
    ruleset = load_ruleset(ruleset_id)
    found = numbered(ruleset, decision_findings(ruleset), {})
    assert sorted(f.key for f in found) == sorted(f"decided.{d.id}" for d in ruleset.decisions)
    body = {"ruleset": ruleset_id, "effort": 1, "budget": None, "seed": 1, "stopped_early": [],
            "counts": {DECIDED: len(found)}, "findings": [f.as_dict() for f in found]}
    assert all(finding_problem(json.loads(json.dumps(f))) is None for f in body["findings"])
    md, html = page(ruleset_id, ruleset.title, body), html_page(ruleset_id, ruleset.title, body)
    first = ruleset.decisions[0]
    for text in (md, html):
        assert f"| {DECIDED} |" in md and "The readings the text allows" in text
        assert "(taken)" in text and "decided by" in text
    assert first.readings[1] in md and first.decided in md


def test_a_decision_the_spec_no_longer_lists_leaves_the_findings_file():
    # findings a run does not find again are kept as missed (a shorter run may miss them); a decision comes from
    # the spec, so one the spec no longer gives is gone, while a searched finding is still kept
    ruleset = load_ruleset("shanghai-knocking")
    found = numbered(ruleset, decision_findings(ruleset), {})
    gone = {**found[0].as_dict(), "key": "decided.no-longer-in-the-spec", "id": "shanghai-knocking-0099"}
    missed = {**found[0].as_dict(), "kind": "ambiguity", "key": "option.x=1", "id": "shanghai-knocking-0098"}
    again = numbered(ruleset, decision_findings(ruleset), {gone["key"]: gone, missed["key"]: missed})
    keys = {f.key for f in again}
    assert "decided.no-longer-in-the-spec" not in keys and "option.x=1" in keys
