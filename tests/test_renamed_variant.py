"""A shipped ruleset with every option, flag and counter renamed behaves exactly as the original (issue: rules bound
by role, not by name, item 4).

The variant is the shipped spec with each of those names prefixed `v_` wherever the spec uses it as that name (the
`options`, `flags` and `counters` keys, every value equal to one, and `option.X` / `flag.X` / `counter.X` rule ids),
under the shipped ruleset's own id: the case generators seed their random streams with the ruleset id, so only
under the same id can two runs be compared case by case. A common prefix keeps the names' order, so a tool that
sorts by name sorts alike. The variant stands in for the shipped ruleset through `checker.spec.rulesets_given`
(what `--ruleset-file` does). What it must do as the original does, citing only its own names:

- validate with the same counts, and trace the same clauses of the document (`spec coverage`);
- generate the same score and procedure corpora from the same seeds, case by case (in the variant's words);
- pass every shipped case of the ruleset written in its words, its refusals citing its own rules;
- part the same options in the hunter's scenes, keyed by the procedure fields they decide.

The comparison leaves out a case's id, `note` and `origin`: prose that names rules in English ("a knocked hand")
as well as by id.
"""
from __future__ import annotations

import json
import re
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest
import yaml

from checker.case import CaseRunner, example_cases, matches, read_case_file
from checker.corpus.generate import generate
from checker.corpus.procedure import generate_procedure
from checker.coverage import coverage
from checker.engine import load_ruleset, load_ruleset_file
from checker.hunt.scenarios import hunt_scenario, scene_options, waiting_hands
from checker.spec import corpus_dir, ruleset_path, rulesets_given
from checker.spec.roles import roles

ROOT = Path(__file__).resolve().parents[1]
RULESETS = ("shanghai-knocking", "shanghai-classic")
PROSE = ("id", "note", "origin")  # what the comparison leaves out (see the module)
TERMS = ("per_share",)  # its lists are payment terms: `base` there is the term, not classic's counter `base`


class Renaming:
    """The names of one shipped ruleset and their `v_` variants, applied to a spec or to cases."""

    def __init__(self, ruleset_id: str):
        rs = load_ruleset(ruleset_id)
        self.names = {n: f"v_{n}" for kind in (rs.options, rs.flags, rs.counters) for n in kind}
        # a name as it stands alone in a text: also in a case id's hyphenated form
        forms = dict(self.names)
        forms.update({n.replace("_", "-"): v.replace("_", "-") for n, v in self.names.items() if "_" in n})
        self._forms = forms
        self._word = re.compile(r"(?:(?<=option\.)|(?<=flag\.)|(?<=counter\.)|(?<![A-Za-z0-9_.]))("
                                + "|".join(map(re.escape, sorted(forms, key=len, reverse=True)))
                                + r")(?![A-Za-z0-9_])")

    def spec(self, node: Any, parent: str | None = None) -> Any:
        """The spec data with every use of a name renamed (see the module)."""
        if isinstance(node, dict):
            return {(self.names.get(k, k) if parent in ("options", "flags", "counters") else k):
                    self.spec(v, parent if parent in TERMS else k) for k, v in node.items()}
        if isinstance(node, list):
            if parent in TERMS:  # a list of payment terms
                return list(node)
            return [self.spec(v, parent) for v in node]
        if isinstance(node, str):
            if node in self.names:
                return self.names[node]
            return re.sub(r"\b(option|flag|counter)\.([a-z0-9_]+)\b",
                          lambda m: f"{m.group(1)}.{self.names.get(m.group(2), m.group(2))}", node)
        return node

    def words(self, node: Any) -> Any:
        """Case data (or any JSON) with every name renamed where it stands as a word."""
        if isinstance(node, dict):
            return {self.words(k): self.words(v) for k, v in node.items()}
        if isinstance(node, list):
            return [self.words(v) for v in node]
        if isinstance(node, str):
            return self._word.sub(lambda m: self._forms[m.group(1)], node)
        return node


@pytest.fixture(scope="module", params=RULESETS)
def variant(request, tmp_path_factory):
    """(ruleset id, its renaming, the variant loaded from its file, a folder with its documents' examples)."""
    rid = request.param
    renaming = Renaming(rid)
    folder = tmp_path_factory.mktemp(f"variant-{rid}")
    data = yaml.safe_load(ruleset_path(rid).read_text(encoding="utf-8"))
    path = folder / f"{rid}.yaml"
    path.write_text(yaml.safe_dump(renaming.spec(data), sort_keys=False, allow_unicode=True, width=200),
                    encoding="utf-8")
    examples = folder / "examples"
    examples.mkdir()
    (examples / "variant-examples.jsonl").write_text(
        "".join(json.dumps(renaming.words(c), ensure_ascii=False) + "\n" for c in example_cases(rid, corpus_dir())),
        encoding="utf-8")
    return rid, renaming, load_ruleset_file(path), examples


def _cases(corpus: Any) -> list[dict[str, Any]]:
    return [{k: v for k, v in json.loads(json.dumps(c)).items() if k not in PROSE} for c in corpus.cases]


def test_the_variant_uses_none_of_the_originals_names_and_plays_the_same_roles(variant):
    rid, renaming, rs, _ = variant
    original = load_ruleset(rid)
    assert not set(renaming.names) & (set(rs.options) | set(rs.flags) | set(rs.counters))
    assert (len(rs.patterns), len(rs.options), len(rs.statements)) == \
        (len(original.patterns), len(original.options), len(original.statements))
    theirs = {k: tuple(renaming.words(list(v))) if isinstance(v, tuple) else renaming.words(v)
              for k, v in asdict(roles(original)).items()}
    assert asdict(roles(rs)) == theirs


def test_the_variant_traces_the_same_clauses_of_its_document(variant):
    rid, renaming, rs, _ = variant
    documents = ROOT.parent / "shared" / "seeds"
    if not documents.is_dir():
        pytest.skip("the source documents are not beside the checkout")
    ours, theirs = coverage(rs, documents), coverage(load_ruleset(rid), documents)
    assert [renaming.words(c.as_json()) for c in theirs] == [c.as_json() for c in ours]
    assert not any(c.problems() for c in ours)


def test_the_variant_generates_the_originals_score_corpus_in_its_words(variant):
    rid, renaming, rs, examples = variant
    original = _cases(generate(rid, 3, 600, runner=CaseRunner()))
    with rulesets_given({rid: rs}):
        ours = _cases(generate(rid, 3, 600, runner=CaseRunner(), examples=examples))
    assert ours == [renaming.words(c) for c in original]


def test_the_variant_generates_the_originals_procedure_corpus_in_its_words(variant):
    rid, renaming, rs, _ = variant
    original = _cases(generate_procedure(rid, 10, hands=2))
    with rulesets_given({rid: rs}):
        ours = _cases(generate_procedure(rid, 10, hands=2))
    assert ours == [renaming.words(c) for c in original]
    # the table's refusals cite the variant's rules, never the original's names
    cited = {c["expect"]["rule"] for c in ours if c["expect"].get("rule")}
    assert cited and cited <= set(rs.rules) | {r for r in cited if r.startswith(("procedure.", "input."))}
    assert not any(r.split(".", 1)[1] in renaming.names for r in cited)


def test_every_shipped_case_in_the_variants_words_passes_under_it(variant):
    rid, renaming, rs, _ = variant
    shipped = [c for name in (rid, f"{rid}-procedure") for c in read_case_file(ROOT / "corpus" / f"{name}.jsonl")]
    shipped += [c for c in read_case_file(ROOT / "corpus" / "shanghai-examples.jsonl") if c["ruleset"] == rid]
    runner = CaseRunner()
    with rulesets_given({rid: rs}):
        failing = [c["id"] for c in map(renaming.words, shipped) if not matches(runner.run(c), c["expect"])]
    assert len(shipped) > 50 and not failing


def test_the_hunters_scenes_part_the_variants_options_as_the_originals(variant):
    rid, renaming, rs, _ = variant
    original = load_ruleset(rid)
    scenes = scene_options(original)
    assert scenes and scene_options(rs) == renaming.words(scenes)

    def found(ruleset: Any) -> list[Any]:
        out = []
        for scene in scene_options(ruleset):
            f = hunt_scenario(ruleset, scene, waiting_hands(rid, scene), 30, 1)
            assert f is not None, scene
            out.append([f.key, f.rules, f.witness, [o["reading"] for o in f.outcomes],
                        [{k: o["result"].get(k) for k in ("verdict", "rule", "payments", "next_dealer")}
                         for o in f.outcomes]])
        return out

    theirs = found(original)
    with rulesets_given({rid: rs}):
        ours = found(rs)
    assert ours == renaming.words(theirs)
