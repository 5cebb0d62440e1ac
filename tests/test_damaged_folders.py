"""Files the tool reads back, damaged (issue 43, item 9): the corpus folder (its manifest and its corpora) and
`--known` files. Whatever a file holds, and whatever stands where a file should (a folder, a pipe), every
command that reads it ends with an exit status and a message, never a traceback or a hang; a damaged manifest
is named with the way to mend it. (Results, summaries and shards: tests/test_integrity.py and
tests/test_sweep_integrity.py.)"""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import checker.corpus.manifest as manifest_module
import checker.corpus.shipped as shipped_module
from checker.cli import app
from checker.corpus.manifest import ManifestError, main as manifest_main, read_manifest

ROOT = Path(__file__).resolve().parents[1]
KEPT = ("manifest.json", "mcr-examples.jsonl", "shanghai-examples.jsonl")
FUZZ = settings(max_examples=30, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
cli = CliRunner()

json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=12),
                           lambda inner: st.lists(inner, max_size=3)
                           | st.dictionaries(st.sampled_from(["corpora", "ids", "version", "sha256", "mcr-examples"])
                                             | st.text(max_size=6), inner, max_size=4), max_leaves=12)
damages = st.sampled_from(["truncate", "flip", "garbage", "json", "empty", "delete", "folder", "pipe"])


def damage(path: Path, how: str, where: int, junk: bytes, value: object) -> None:
    data = path.read_bytes()
    at = where % max(1, len(data))
    if how in ("delete", "folder", "pipe"):
        path.unlink()
        if how == "folder":
            path.mkdir()
        elif how == "pipe":
            os.mkfifo(path)
        return
    path.write_bytes({"truncate": data[:at], "flip": data[:at] + bytes([data[at] ^ 0x5A]) + data[at + 1:],
                      "garbage": data[:at] + junk + data[at:], "json": json.dumps(value).encode(),
                      "empty": b""}[how])


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """A copy of the shipped corpus folder (its manifest and two small corpora) that the tool takes for its own."""
    copy = tmp_path / "corpus"
    copy.mkdir()
    for name in KEPT:
        shutil.copy(ROOT / "corpus" / name, copy / name)
    monkeypatch.setattr(shipped_module, "corpus_dir", lambda: copy)
    monkeypatch.setattr(manifest_module, "corpus_dir", lambda: copy)
    return copy


def ends_cleanly(result) -> None:
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code in (0, 1, 2), result.output
    if result.exit_code == 2:
        assert result.output.strip(), "a refusal says why"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="pipes named in a folder are POSIX")
@FUZZ
@given(target=st.sampled_from(KEPT), how=damages, where=st.integers(0, 10 ** 6), junk=st.binary(max_size=64),
       value=json_values)
def test_a_damaged_corpus_folder_ends_every_command_with_a_message(folder, tmp_path_factory, target, how, where,
                                                                   junk, value):
    for name in KEPT:  # each example starts from the shipped files
        path = folder / name
        if path.is_dir():
            path.rmdir()
        elif path.exists() or path.is_fifo():
            path.unlink()
        shutil.copy(ROOT / "corpus" / name, path)
    damage(folder / target, how, where, junk, value)
    ends_cleanly(cli.invoke(app, ["corpus", "list"]))
    ends_cleanly(cli.invoke(app, ["corpus", "list", "--json"]))
    out = tmp_path_factory.mktemp("run") / "out"
    ends_cleanly(cli.invoke(app, ["conform", "--corpus", "mcr-examples", "--engine", "reference", "--out", str(out),
                                  "--no-diagnose"]))
    assert manifest_main([]) in (0, 1, 2)


def test_a_damaged_manifest_is_named_with_the_way_to_mend_it(folder):
    (folder / "manifest.json").write_text('{"corpora": {"mcr": {"version": "one"}}}', encoding="utf-8")
    with pytest.raises(ManifestError, match="manifest.json is damaged: `corpora` is not a mapping"):
        read_manifest()
    result = cli.invoke(app, ["corpus", "list"])
    assert result.exit_code == 2
    assert "damaged" in result.output and "python -m checker.corpus.manifest --write" in result.output
    (folder / "manifest.json").write_bytes(b"\xff\xfe{")
    result = cli.invoke(app, ["corpus", "list"])
    assert result.exit_code == 2 and "manifest" in result.output


def test_a_pipe_named_like_a_corpus_is_no_corpus_and_is_never_opened(folder):
    if not hasattr(os, "mkfifo"):
        pytest.skip("pipes named in a folder are POSIX")
    os.mkfifo(folder / "stuck.jsonl")  # opening it for reading would wait for a writer for ever
    result = cli.invoke(app, ["corpus", "list", "--json"])
    assert result.exit_code == 0
    assert [e["name"] for e in json.loads(result.output)] == ["mcr-examples", "shanghai-examples"]


known_texts = st.one_of(
    st.binary(max_size=200),
    st.text(max_size=200).map(lambda t: t.encode("utf-8", "surrogatepass")),
    json_values.map(lambda v: json.dumps(v).encode()),
    st.sampled_from([b"readings: [", b"classes:\n  - {signature: \x00}", b"skips: {reason: 3}",
                     b"causes:\n  - &a {id: x}\n  - *a", b"readings:\n  tile_hog_honors: {value: \x1b}",
                     "classes:\n  - {signature: \ufffe}".encode(), b"\x7f\x7f", b"--- !!python/object:os.system {}"]))


@FUZZ
@given(text=known_texts)
def test_any_known_file_is_read_or_refused_with_a_message(tmp_path_factory, text):
    here = tmp_path_factory.mktemp("known")
    known = here / "known.yaml"
    known.write_bytes(text)
    out = here / "out"
    result = cli.invoke(app, ["conform", "--corpus", str(ROOT / "corpus" / "mcr-examples.jsonl"), "--engine",
                              "reference", "--out", str(out), "--no-diagnose", "--known", str(known)])
    ends_cleanly(result)
    if (out / "summary.json").exists():
        result = cli.invoke(app, ["report", str(out), "--known", str(known)])
        ends_cleanly(result)
