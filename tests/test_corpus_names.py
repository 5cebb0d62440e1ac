"""Corpora by name: `--corpus mcr` from any directory, also from an installed package; `mjcheck corpus list`;
frozen case ids (corpus/manifest.json); the pytest plugin run from an engine's own repository.

Counts and hashes are computed here from the corpus files themselves (lines, SHA-256 of the bytes), never taken
from the code under test; the engines below are test doubles that answer each case's own `expect`.
"""
from __future__ import annotations

import fnmatch
import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from checker.cli import app
from checker.corpus.manifest import WRITE, Manifest, case_hash, drift, read_manifest, recorded, renumbered
from checker.corpus.shipped import CorpusNameError, corpus_path, shipped_corpora

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "corpus"
BIN = Path(sys.executable).parent
cli = CliRunner()


def case_lines(path: Path) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip() and not line.startswith("#")]


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def clean_env() -> dict[str, str]:
    """The environment without PYTHONPATH: nothing on the path but what the venv installed."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}


# ------------------------------------------------------------------ names

def test_each_shipped_corpus_is_named_by_its_file():
    assert {name: path.name for name, path in shipped_corpora().items()} == \
        {p.stem: p.name for p in CORPUS.glob("*.jsonl")}
    for name in shipped_corpora():
        assert Path(corpus_path(name)).read_bytes() == (CORPUS / f"{name}.jsonl").read_bytes()


def test_a_value_that_is_no_name_is_a_path(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine").write_text("", encoding="utf-8")
    assert corpus_path("./mcr") == "./mcr"  # a file of one's own named like a shipped corpus
    assert corpus_path("mine") == "mine"  # a bare name that is a file here
    assert corpus_path("cases/my.jsonl") == "cases/my.jsonl"  # (missing: the reader says so)
    with pytest.raises(CorpusNameError, match=r"no corpus named 'mrc'.*mcr, mcr-examples"):
        corpus_path("mrc")


def test_conform_takes_a_name_from_any_directory(tmp_path):
    mcr = CORPUS / "mcr.jsonl"
    done = subprocess.run([str(BIN / "mjcheck"), "conform", "--corpus", "mcr", "--engine", "reference",
                           "--out", "out"], cwd=tmp_path, env=clean_env(), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    header = json.loads((tmp_path / "out" / "results.jsonl").read_text(encoding="utf-8").splitlines()[0])["run"]
    assert (header["corpus_sha256"], header["corpus_cases"]) == (sha256(mcr), len(case_lines(mcr)))
    refused = subprocess.run([str(BIN / "mjcheck"), "conform", "--corpus", "mrc", "--engine", "reference",
                              "--out", "out2"], cwd=tmp_path, env=clean_env(), capture_output=True, text=True,
                             timeout=300)
    assert refused.returncode == 2 and "no corpus named 'mrc'" in refused.stderr
    assert not (tmp_path / "out2").exists()


def test_corpus_list_gives_each_corpus_its_version_cases_and_hash():
    listed = cli.invoke(app, ["corpus", "list", "--json"])
    assert listed.exit_code == 0, listed.output
    entries = {e["name"]: e for e in json.loads(listed.output)}
    versions = json.loads((CORPUS / "manifest.json").read_text(encoding="utf-8"))["corpora"]
    assert set(entries) == {p.stem for p in CORPUS.glob("*.jsonl")}
    for name, entry in entries.items():
        path = CORPUS / f"{name}.jsonl"
        assert (entry["cases"], entry["sha256"]) == (len(case_lines(path)), sha256(path)), name
        assert (entry["version"], entry["recorded"]) == (versions[name]["version"], True), name
    text = cli.invoke(app, ["corpus", "list"]).output.splitlines()
    mcr = CORPUS / "mcr.jsonl"
    assert any(line.split() == ["mcr", "version", str(versions["mcr"]["version"]), str(len(case_lines(mcr))), "cases",
                                "sha256", sha256(mcr)] for line in text), text


# ------------------------------------------------------------------ frozen ids

def test_every_shipped_case_id_names_the_case_the_manifest_froze():
    found = drift(read_manifest())
    assert not found.refused, (
        "\n".join(found.refused) + "\n\nA case id always names the same case (corpus/manifest.json froze it): a "
        "case whose ruleset, options, kind, input or expect changed needs a new id; its old id stays reserved "
        f"in the manifest. Give the changed case a new id, then record it deliberately: `{WRITE}`.")
    assert not found.new, (
        f"ids not in corpus/manifest.json: {sorted(found.new)}. A new case's id is frozen once shipped: "
        f"record it deliberately with `{WRITE}` (and commit corpus/manifest.json).")
    assert not found.versions, (
        f"corpora changed since corpus/manifest.json recorded their version: {sorted(found.versions)}. Record "
        f"the new versions with `{WRITE}`.")


def write_cases(path: Path, cases: list[dict]) -> None:
    path.write_text("".join(json.dumps(c, ensure_ascii=False) + "\n" for c in cases), encoding="utf-8")


def test_a_changed_case_is_refused_a_new_one_recorded_and_the_version_bumped(tmp_path):
    cases = [json.loads(line) for line in case_lines(CORPUS / "mcr-examples.jsonl")]
    corpus = {"tiny": tmp_path / "tiny.jsonl"}
    write_cases(corpus["tiny"], cases[:2])
    first = recorded(Manifest({}, {}), drift(Manifest({}, {}), corpus))
    assert first.corpora["tiny"]["version"] == 1 and set(first.ids) == {cases[0]["id"], cases[1]["id"]}
    assert not drift(first, corpus).new and not drift(first, corpus).versions  # recorded: nothing more to record

    write_cases(corpus["tiny"], cases[:3])  # one case more
    grown = drift(first, corpus)
    assert list(grown.new) == [cases[2]["id"]] and grown.versions["tiny"]["version"] == 2 and not grown.refused

    changed = dict(cases[0], expect={**cases[0]["expect"], "total": cases[0]["expect"]["total"] + 1})
    write_cases(corpus["tiny"], [changed, cases[1]])  # the same id, another expectation
    refused = drift(first, corpus)
    assert len(refused.refused) == 1 and f"id {cases[0]['id']!r} names other content" in refused.refused[0]
    with pytest.raises(ValueError):
        recorded(first, refused)


def test_a_changed_case_is_renumbered_and_the_rest_of_the_file_left_as_it_was(tmp_path):
    cases = [json.loads(line) for line in case_lines(CORPUS / "mcr-examples.jsonl")]
    corpus = {"tiny": tmp_path / "tiny.jsonl"}
    write_cases(corpus["tiny"], cases[:2])
    first = recorded(Manifest({}, {}), drift(Manifest({}, {}), corpus))
    assert renumbered(first, corpus) == {}  # nothing changed: nothing renumbered
    changed = dict(cases[0], expect={**cases[0]["expect"], "total": cases[0]["expect"]["total"] + 1})
    write_cases(corpus["tiny"], [changed, cases[1]])
    second_line = corpus["tiny"].read_text(encoding="utf-8").splitlines(keepends=True)[1]
    text = renumbered(first, corpus)["tiny"]
    lines = text.splitlines(keepends=True)
    assert json.loads(lines[0]) == {**changed, "id": cases[0]["id"] + ".r2"} and lines[1] == second_line
    corpus["tiny"].write_text(text, encoding="utf-8")
    again = drift(first, corpus)
    assert not again.refused and list(again.new) == [cases[0]["id"] + ".r2"]
    # changed once more: .r2 is frozen to the first change, so the next takes .r3
    second = recorded(first, again)
    changed_again = dict(cases[0], expect={**cases[0]["expect"], "total": cases[0]["expect"]["total"] + 2})
    write_cases(corpus["tiny"], [changed_again, cases[1]])
    assert json.loads(renumbered(second, corpus)["tiny"].splitlines()[0])["id"] == cases[0]["id"] + ".r3"
    # and the case changed back to its first change takes .r2 again, the id frozen to that content
    write_cases(corpus["tiny"], [changed, cases[1]])
    assert json.loads(renumbered(second, corpus)["tiny"].splitlines()[0])["id"] == cases[0]["id"] + ".r2"
    # a line that is not a case is left as it is (no traceback), and drift names it by its line
    corpus["tiny"].write_text(corpus["tiny"].read_text(encoding="utf-8") + "{not json\n", encoding="utf-8")
    assert renumbered(second, corpus)["tiny"].endswith("{not json\n")
    assert any("line 3" in problem for problem in drift(second, corpus).refused)


def test_a_case_is_the_same_case_in_any_notation_and_whatever_its_note():
    case = json.loads(case_lines(CORPUS / "mcr-examples.jsonl")[0])  # chow written 234m
    assert case_hash(case) == case_hash({**case, "input": {**case["input"], "melds": [
        {**case["input"]["melds"][0], "tiles": "2m3m4m"}]}, "note": "a note", "covers": []})
    assert case_hash(case) != case_hash({**case, "input": {**case["input"], "win_by": "discard", "discarder": 1}})
    assert case_hash(case) != case_hash({**case, "options": {"tile_hog_honors": True}})


# ------------------------------------------------------------------ outside a checkout

def test_the_package_data_names_every_corpus_and_the_manifest():
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    assert setuptools["package-dir"]["checker.corpusdata"] == "corpus"
    patterns = setuptools["package-data"]["checker.corpusdata"]
    shipped = [p.name for p in CORPUS.glob("*.jsonl")] + ["manifest.json"]
    assert [name for name in shipped if not any(fnmatch.fnmatch(name, p) for p in patterns)] == []


def test_an_install_carries_the_corpora_and_their_manifest(tmp_path):
    """What setuptools puts in a wheel (build_py: packages and package data, from a copy of the sources), run
    from another directory: every corpus by name, its manifest, and a conformance run on one."""
    pytest.importorskip("setuptools")  # (a venv of Python 3.12+ may have none)
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy(ROOT / name, source / name)
    for name in ("checker", "spec", "corpus"):
        shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
    built = subprocess.run([sys.executable, "setup.py", "-q", "build_py", "--build-lib", str(tmp_path / "lib")],
                           cwd=source, env={**clean_env(), "MJCHECK_PURE": "1"}, capture_output=True, text=True,
                           timeout=300)
    assert built.returncode == 0, built.stderr
    data = tmp_path / "lib" / "checker" / "corpusdata"
    assert {p.name for p in data.iterdir()} >= {p.name for p in CORPUS.glob("*.jsonl")} | {"manifest.json"}

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {**clean_env(), "PYTHONPATH": str(tmp_path / "lib")}  # the built package in place of the sources

    def mjcheck(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-c", "from checker.cli import main; main()", *args], cwd=elsewhere,
                              env=env, capture_output=True, text=True, timeout=300)

    listed = mjcheck("corpus", "list", "--json")
    assert listed.returncode == 0, listed.stderr
    entries = json.loads(listed.stdout)
    assert {e["name"] for e in entries} == {p.stem for p in CORPUS.glob("*.jsonl")}
    assert all(Path(e["file"]).parent == data and e["recorded"] for e in entries)
    ran = mjcheck("conform", "--corpus", "mcr-examples", "--engine", "reference", "--out", "out")
    assert ran.returncode == 0, ran.stderr
    header = json.loads((elsewhere / "out" / "results.jsonl").read_text(encoding="utf-8").splitlines()[0])["run"]
    assert header["corpus"] == str(data / "mcr-examples.jsonl")
    assert header["corpus_sha256"] == sha256(CORPUS / "mcr-examples.jsonl")


# ------------------------------------------------------------------ the pytest plugin in an engine's repository

# The engine of a project's own (corpus/README.md shows this layout): it answers each case's own expect, but
# scores a made-up fan on the guide's regular discard hand, and refuses any tile field not in canonical form.
ENGINE = '''
import copy
import re

CANONICAL = re.compile(r"(?:[1-9][mps]|[1-7]z|[1-8]f)*")


def score(case):
    data = case["input"]
    fields = [data.get("concealed"), data.get("win_tile"), data.get("flowers")]
    for field in fields + [meld["tiles"] for meld in data.get("melds") or []]:
        if field is not None and field != "0m" and not CANONICAL.fullmatch(field):
            raise ValueError(f"not in canonical notation: {field}")
    result = copy.deepcopy(case["expect"])
    if case["id"] == "mcr-guide-regular-discard":
        result["fans"].append({"id": "made_up", "points": 2, "count": 1})
    return result
'''


def test_the_plugin_runs_a_shipped_corpus_in_an_engine_repository_with_no_setup(tmp_path):
    project = tmp_path / "my-engine"
    project.mkdir()
    (project / "myengine.py").write_text(ENGINE, encoding="utf-8")
    (project / "pyproject.toml").write_text('[project]\nname = "myengine"\nversion = "0.1"\n', encoding="utf-8")
    done = subprocess.run([str(BIN / "pytest"), "--mjcheck-corpus", "mcr", "--mjcheck-engine", "python:myengine:score",
                           "-p", "no:cacheprovider"], cwd=project, env=clean_env(), capture_output=True, text=True,
                          timeout=600)
    out = done.stdout
    total = len(case_lines(CORPUS / "mcr.jsonl"))
    assert done.returncode == 1, out + done.stderr
    assert f"1 failed, {total - 1} passed" in out  # the made-up fan; the compact `234m` melds were sent as 2m3m4m
    assert "mcr::mcr-guide-regular-discard" in out
    assert " mjcheck failure classes " in out  # the session's summary, after the failures
    assert "mcr on python:myengine:score: 1 failure class" in out
    assert "1. extra made_up 2 (1 case, mcr)" in out


def test_strength_and_batch_take_a_corpus_by_name(tmp_path, monkeypatch):
    """`corpus strength mcr-examples` and `score --batch mcr-examples` read the shipped file from any directory."""
    from typer.testing import CliRunner as _Runner

    from checker.cli import app as _app

    monkeypatch.chdir(tmp_path)
    cases = sum(1 for line in (ROOT / "corpus" / "mcr-examples.jsonl").read_text(encoding="utf-8")
                .splitlines() if line.strip())
    r = _Runner().invoke(_app, ["score", "--batch", "mcr-examples"])
    assert r.exit_code == 0, r.output  # the documents' own examples all meet their expect
    assert len([line for line in r.output.splitlines() if line.startswith("{")]) == cases
    r = _Runner().invoke(_app, ["corpus", "strength", "mcr-examples", "--sample", "2", "--budget", "0", "--json"])
    assert r.exit_code in (0, 1, 3), r.output  # 3: budget 0 leaves a survivor unsearched
    assert '"score_cases": %d' % cases in r.output
    r = _Runner().invoke(_app, ["corpus", "strength", "no-such-corpus"])
    assert r.exit_code == 2 and "no corpus named 'no-such-corpus'" in r.output
