"""A damaged sweep folder is never trusted, never crashes `mjcheck sweep` and never makes it wait: a shard file
that is not this sweep's summary is run again (its name replaced, whatever it pointed to left alone), a
plan.json that is not this sweep's is refused with a message naming it (exit status 2), and the report covers
every hand of the plan or says it is partial.

The sweeps here are tiny (the first 24 hands of the concealed space, shards of three) and are checked against
the reference under another reading of Four concealed pungs: the first hands of the space are four honour pungs
and a pair, so every shard holds a class of disagreement whose numbers damage could change."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from checker.cli import app
from checker.space.concealed import ConcealedSpace

HANDS, SHARD = 24, 3
STARTS = list(range(0, HANDS, SHARD))
READING = "four_concealed_pungs_with_fully_concealed=false"
ARGS = ["sweep", "--ruleset", "mcr", "--against", "reference", "--against-options", READING,
        "--limit", str(HANDS), "--shard-hands", str(SHARD), "--workers", "1"]
MJCHECK = [sys.executable, "-c", "from checker.cli import main; main()"]
# every distinct concealed tile of each hand wins, self-drawn and on a discard (counted here from the space,
# not from the engines)
CASES = sum(2 * sum(1 for n in h if n) for h in ConcealedSpace().hands(0, HANDS))


@pytest.fixture(scope="module")
def finished(tmp_path_factory) -> Path:
    """A finished tiny sweep's folder (copy it before damaging it)."""
    out = tmp_path_factory.mktemp("finished") / "sweep"
    r = CliRunner().invoke(app, ARGS + ["--out", str(out)])
    assert r.exit_code == 0, r.output
    return out


def _copy(finished: Path, tmp_path: Path) -> Path:
    out = tmp_path / "sweep"
    shutil.copytree(finished, out, symlinks=True)
    return out


def _shard(out: Path, start: int) -> Path:
    return out / "shards" / f"{start:09d}.json"


def _report(out: Path) -> dict:
    return json.loads((out / "sweep.json").read_text(encoding="utf-8"))


def _covers_every_hand(out: Path, finished: Path) -> None:
    """The report is complete, counts every planned hand and case, and finds what the undamaged sweep found."""
    body, first = _report(out), _report(finished)
    assert body["complete"] and body["hands"] == body["planned_hands"] == HANDS
    assert body["cases"] == CASES == body["agreed"] + sum(c["count"] for c in body["classes"])
    assert body["classes"] == first["classes"] and body["agreed"] == first["agreed"]


def _mjcheck(args: list[str], timeout: float = 120) -> subprocess.CompletedProcess:
    """`mjcheck ARGS` in a process of its own, given `timeout` seconds (a run that waits forever fails)."""
    return subprocess.run(MJCHECK + args, capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, "COLUMNS": "400"})


# --------------------------------------------------------------------------- damaged shards

def test_damaged_shard_files_are_run_again_and_nothing_outside_the_folder_is_touched(finished, tmp_path):
    out = _copy(finished, tmp_path)
    outside = tmp_path / "elsewhere.json"
    outside.write_bytes(_shard(out, 0).read_bytes())  # a file outside the folder, as a shard's summary reads
    kept = outside.read_bytes()
    damage = {
        # the case: the right bounds, the counts and classes wiped
        0: lambda p: p.write_text(json.dumps({**json.loads(p.read_text()), "hands": 0, "cases": 0, "agreed": 0,
                                              "classes": []})),
        # a class's count lowered, the totals kept consistent: only a checksum tells it from a summary
        3: lambda p: p.write_text(json.dumps(_lowered(json.loads(p.read_text())))),
        6: lambda p: p.write_bytes(b'{"start": 6, "stop": 9, "classes": [\xff\xfe]}'),  # not UTF-8
        9: lambda p: p.write_text("[" * 100_000 + "]" * 100_000),  # nested past any parser's recursion
        12: lambda p: (p.unlink(), os.mkfifo(p)),  # a named pipe no one writes to
        15: lambda p: (p.unlink(), p.symlink_to(outside)),  # a link to a file outside the folder
        18: lambda p: p.write_text("[1, 2, 3]"),
        21: lambda p: p.write_text("7"),
    }
    assert sorted(damage) == STARTS
    for start, how in damage.items():
        how(_shard(out, start))
    r = _mjcheck(ARGS + ["--out", str(out), "--resume"])
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr and "8 to run" in r.stderr
    assert outside.read_bytes() == kept and not outside.is_symlink()
    for start in STARTS:
        assert _shard(out, start).is_file() and not _shard(out, start).is_symlink()
    _covers_every_hand(out, finished)


def _lowered(body: dict) -> dict:
    body["classes"][0]["count"] -= 1
    body["agreed"] += 1
    return body


# --------------------------------------------------------------------------- damaged plans

def _plan_text(finished: Path) -> str:
    return (finished / "plan.json").read_text(encoding="utf-8")


PLANS = {
    "invalid UTF-8": lambda out, text: (out / "plan.json").write_bytes(b"\xff\xfe{}"),
    "a JSON list": lambda out, text: (out / "plan.json").write_text("[1, 2]"),
    "a JSON number": lambda out, text: (out / "plan.json").write_text("12"),
    "nested 100,000 deep": lambda out, text: (out / "plan.json").write_text("[" * 100_000 + "]" * 100_000),
    "odd field types": lambda out, text: (out / "plan.json").write_text(json.dumps(
        {"sweep": {"ruleset": ["mcr"], "space": 5, "against": None, "options": [], "against_options": "x",
                   "shard_hands": "3", "limit": {"n": 24}, "context": 7, "open_melds": True}, "hands": "many"})),
    "truncated": lambda out, text: (out / "plan.json").write_text(text[: len(text) // 2]),
    "a limit changed": lambda out, text: (out / "plan.json").write_text(text.replace(f'"limit": {HANDS}',
                                                                                     f'"limit": {HANDS - 1}')),
    "a directory": lambda out, text: ((out / "plan.json").unlink(), (out / "plan.json").mkdir()),
}


@pytest.mark.parametrize("how", list(PLANS))
def test_a_damaged_plan_is_refused_with_a_message_naming_it(finished, tmp_path, how):
    out = _copy(finished, tmp_path)
    PLANS[how](out, _plan_text(finished))
    before = {p.name: p.read_bytes() for p in (out / "shards").iterdir()}
    r = CliRunner().invoke(app, ARGS + ["--out", str(out), "--resume"])
    assert r.exit_code == 2 and isinstance(r.exception, SystemExit), (r.output, r.exception)
    assert "plan.json" in r.output and "Traceback" not in r.output
    assert {p.name: p.read_bytes() for p in (out / "shards").iterdir()} == before


def test_a_plan_that_is_a_named_pipe_or_a_link_is_refused_without_waiting(finished, tmp_path):
    fifo = _copy(finished, tmp_path / "fifo")
    (fifo / "plan.json").unlink()
    os.mkfifo(fifo / "plan.json")
    linked = _copy(finished, tmp_path / "link")
    (tmp_path / "plan.json").write_text(_plan_text(finished))  # this very sweep's plan, but outside the folder
    (linked / "plan.json").unlink()
    (linked / "plan.json").symlink_to(tmp_path / "plan.json")
    for out in (fifo, linked):
        r = _mjcheck(ARGS + ["--out", str(out), "--resume"], timeout=60)
        assert r.returncode == 2, r.stderr
        assert "plan.json" in r.stderr and "Traceback" not in r.stderr


# --------------------------------------------------------------------------- writes

def test_links_planted_in_the_folder_are_replaced_not_written_through(finished, tmp_path):
    out = _copy(finished, tmp_path)
    targets = {}
    for name in ("sweep.json", "sweep.md", "plan.json.partial", "sweep.json.partial"):
        target = tmp_path / f"outside-{name}"
        target.write_text("not the sweep's\n")
        if (out / name).exists():
            (out / name).unlink()
        (out / name).symlink_to(target)
        targets[name] = target
    r = CliRunner().invoke(app, ARGS + ["--out", str(out), "--resume"])
    assert r.exit_code == 0, r.output
    assert all(t.read_text() == "not the sweep's\n" for t in targets.values())
    assert not (out / "sweep.json").is_symlink() and not (out / "sweep.md").is_symlink()
    _covers_every_hand(out, finished)


# --------------------------------------------------------------------------- shards run in this process

def _in_process(plan, pending, workers, scheduler):
    """The pending shards' summaries, scored in this process rather than on Dask (what is tested here is how the
    folder is read and written, not Dask)."""
    from checker.sweep.work import sweep_shard

    for a, b in pending:
        yield sweep_shard(plan.ruleset, plan.space, a, b, plan.options, plan.against, plan.against_options,
                          plan.context, plan.open_melds)


def _resume(out: Path, summaries=_in_process):
    from checker.sweep import run

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(run, "shard_summaries", summaries)
        return CliRunner().invoke(app, ARGS + ["--out", str(out), "--resume"])


def _plan():
    from checker.sweep.run import Plan

    return Plan("mcr", "concealed", "reference", {}, {READING.split("=")[0]: False}, SHARD, HANDS)


def test_a_folder_of_an_earlier_version_resumes_and_its_shards_are_run_again(finished, tmp_path):
    # plan.json and the shards of a version that wrote no checksum: the plan, the same sweep, is read and sealed;
    # the shards, which nothing vouches for, are run again
    out = _copy(finished, tmp_path)
    for path in [out / "plan.json", *(out / "shards").iterdir()]:
        body = json.loads(path.read_text())
        path.write_text(json.dumps({k: v for k, v in body.items() if k not in ("sum", "plan")}))
    r = _resume(out)
    assert r.exit_code == 0, r.output
    assert f"{len(STARTS)} to run" in r.output and "no checksum" in r.output
    assert "sum" in json.loads((out / "plan.json").read_text())
    _covers_every_hand(out, finished)


def test_a_shard_sealed_anew_over_wrong_counts_is_still_run_again(finished, tmp_path):
    # the checksum made again over an emptied shard (counts and classes wiped): its hands are not the shard's
    from checker.sweep.run import sealed

    out = _copy(finished, tmp_path)
    path = _shard(out, 6)
    body = json.loads(path.read_text())
    path.write_text(json.dumps(sealed({**body, "hands": 0, "cases": 0, "agreed": 0, "classes": []})))
    other = _shard(out, 9)  # and one sealed for another sweep
    other.write_text(json.dumps(sealed({**json.loads(other.read_text()), "plan": "0" * 64})))
    r = _resume(out)
    assert r.exit_code == 0, r.output
    assert "2 to run" in r.output and "counts 0 hands" in r.output and "another sweep" in r.output
    _covers_every_hand(out, finished)


def test_the_report_is_never_complete_with_a_shard_missing(finished, tmp_path):
    # a shard's summary that is not that shard's (it counts a hand too few) is not kept: the report says partial
    out = _copy(finished, tmp_path)
    _shard(out, 12).unlink()

    def short(plan, pending, workers, scheduler):
        for summary in _in_process(plan, pending, workers, scheduler):
            yield {**summary, "hands": summary["hands"] - 1}

    r = _resume(out, short)
    assert r.exit_code == 3, r.output  # hands left unchecked: never "all good"
    body = _report(out)
    assert not body["complete"] and body["hands"] == HANDS - SHARD and "partial: 1 of 8 shards" in r.output
    assert (out / "sweep.md").read_text().startswith("# Sweep") and "Partial" in (out / "sweep.md").read_text()
    r = _resume(out)  # the next --resume runs it
    assert r.exit_code == 0 and "1 to run" in r.output, r.output
    _covers_every_hand(out, finished)


def test_names_the_sweep_cannot_write_are_refused_before_anything_runs(finished, tmp_path):
    # shards/ a link to a folder elsewhere (writing there would replace its files), or a folder where a shard's
    # file goes (a rename cannot replace it): refused, naming it, before a shard is run
    out = _copy(finished, tmp_path / "link")
    elsewhere = tmp_path / "elsewhere"
    (out / "shards").rename(elsewhere)
    (out / "shards").symlink_to(elsewhere)
    r = _resume(out)
    assert r.exit_code == 2 and "shards" in r.output and "symbolic link" in r.output, r.output
    out = _copy(finished, tmp_path / "folder")
    _shard(out, 3).unlink()
    _shard(out, 3).mkdir()
    r = _resume(out)
    assert r.exit_code == 2 and "000000003.json: a folder" in r.output, r.output


# --------------------------------------------------------------------------- damage at random

json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=6),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                                       max_size=3),
                           max_leaves=8)
damages = st.one_of(
    st.tuples(st.just("truncate"), st.floats(0, 1, exclude_max=True)),
    st.tuples(st.just("flip"), st.floats(0, 1, exclude_max=True), st.integers(1, 255)),
    st.tuples(st.just("json"), json_values),  # the whole file another JSON value
    st.tuples(st.just("field"), st.integers(0, 20), json_values),  # one field of the object another value
    st.tuples(st.just("delete")),
)
FILES = ["plan.json"] + [f"shards/{start:09d}.json" for start in STARTS]


def _damage(path: Path, how: tuple) -> None:
    """One kind of damage to a file (a file damaged before may be empty or not JSON)."""
    data = path.read_bytes()
    if how[0] == "truncate":
        path.write_bytes(data[: int(len(data) * how[1])])
    elif how[0] == "flip" and data:
        at = int(len(data) * how[1])
        path.write_bytes(data[:at] + bytes([data[at] ^ how[2]]) + data[at + 1:])
    elif how[0] == "json":
        path.write_text(json.dumps(how[1]))
    elif how[0] == "field":
        try:
            body = json.loads(data)
        except ValueError:
            body = None
        if isinstance(body, dict) and body:
            keys = sorted(body)
            body[keys[how[1] % len(keys)]] = how[2]
        path.write_text(json.dumps(body if isinstance(body, dict) else how[2]))
    elif how[0] == "delete":
        path.unlink()


@settings(max_examples=50, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(FILES), damages), min_size=1, max_size=4))
def test_a_sweep_folder_damaged_at_random_is_run_again_or_refused_never_trusted(finished, tmp_path_factory, hits):
    from checker.sweep.run import prepare

    out = _copy(finished, tmp_path_factory.mktemp("damaged"))
    plan_damaged = False
    for name, how in hits:
        path = out / name
        if path.exists():
            _damage(path, how)
            plan_damaged |= name == "plan.json" and how[0] != "delete" and path.exists()
    r = _resume(out)
    assert r.exception is None or isinstance(r.exception, SystemExit), (r.output, r.exception)
    assert "Traceback" not in r.output
    event(f"exit status {r.exit_code}")
    if r.exit_code == 2:  # only a plan.json whose content changed is refused, by name
        assert plan_damaged and "plan.json" in r.output, r.output
        return
    assert r.exit_code == 0, r.output
    _covers_every_hand(out, finished)
    notes: list[str] = []
    assert prepare(_plan(), out, resume=True, notes=notes) == [] and notes == []
