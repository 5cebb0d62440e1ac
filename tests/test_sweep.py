"""`mjcheck sweep` on a two-worker local Dask cluster: a small sweep of the first hands of the concealed space
against the reference under another reading, its report, resuming after a lost shard, and bad input refused
before anything starts."""
from __future__ import annotations

import json

from typer.testing import CliRunner

from checker.cli import app
from checker.space.concealed import ConcealedSpace

HANDS = 400


def _four_pungs_and_a_pair(counts: tuple[int, ...]) -> bool:
    return all(n in (0, 2, 3) for n in counts) and sum(n == 2 for n in counts) == 1


def test_a_small_sweep_against_another_reading_on_two_workers(tmp_path):
    out = tmp_path / "sweep"
    args = ["sweep", "--ruleset", "mcr", "--against", "reference", "--against-options",
            "four_concealed_pungs_with_fully_concealed=false", "--limit", str(HANDS), "--shard-hands", "100",
            "--workers", "2", "--out", str(out)]
    r = CliRunner().invoke(app, args)
    assert r.exit_code == 0, r.output
    body = json.loads((out / "sweep.json").read_text())
    # every distinct tile of each hand as the winning tile, self-drawn and on a discard
    hands = list(ConcealedSpace().hands(0, HANDS))
    assert body["hands"] == HANDS and body["cases"] == sum(2 * sum(1 for n in h if n) for h in hands)
    # The readings part only on a self-drawn hand of four concealed pungs: Fully concealed hand (4) under the
    # default, Self drawn (1) under the other. The first hands of the space are honours only: four pungs and
    # a pair each, so every such hand, self-drawn on any of its tiles, is one disagreement.
    expected = sum(sum(1 for n in h if n) for h in hands if _four_pungs_and_a_pair(h))
    assert expected > 0
    [c] = body["classes"]
    assert c["key"] == [["fully_concealed_hand", 4, 0], ["self_drawn", 0, 1]] and c["count"] == expected
    assert c["witness"]["win_by"] == "self_draw"
    assert c["explained_by"].startswith("the reading four_concealed_pungs_with_fully_concealed=false")
    assert "| cases |" in (out / "sweep.md").read_text()

    # a shard lost (a killed run): --resume redoes that one only
    shards = sorted((out / "shards").glob("*.json"))
    assert len(shards) == HANDS // 100
    kept = {p.name: p.stat().st_mtime_ns for p in shards[1:]}
    shards[0].unlink()
    r = CliRunner().invoke(app, args + ["--resume"])
    assert r.exit_code == 0, r.output
    assert shards[0].exists() and {p.name: p.stat().st_mtime_ns for p in shards[1:]} == kept
    assert json.loads((out / "sweep.json").read_text())["classes"][0]["count"] == expected

    # a shard file damaged (not that shard's summary): --resume runs that shard again
    shards[1].write_text("{broken", encoding="utf-8")
    r = CliRunner().invoke(app, args + ["--resume"])
    assert r.exit_code == 0, r.output
    assert json.loads(shards[1].read_text())["start"] == 100
    assert json.loads((out / "sweep.json").read_text())["classes"][0]["count"] == expected

    # the same folder without --resume, or for another sweep: refused, nothing started
    r = CliRunner().invoke(app, args)
    assert r.exit_code == 2 and "--resume" in r.output
    other = [a if a != "100" else "50" for a in args] + ["--resume"]
    r = CliRunner().invoke(app, other)
    assert r.exit_code == 2 and "another sweep" in r.output


def test_bad_input_is_refused_before_anything_starts(tmp_path):
    base = ["sweep", "--ruleset", "mcr", "--limit", "10", "--out", str(tmp_path / "x")]
    cases = [
        (["--against", "nope"], "unknown engine"),
        (["--against", "reference"], "--against-options"),
        (["--against", "reference", "--against-options", "no_such=1"], "scoring option"),
        (["--against", "reference", "--against-options", "tile_hog_honors=maybe"], "no value"),
        (["--against", "reference", "--against-options", "tile_hog_honors=true", "--space", "open"], "unknown space"),
    ]
    r = CliRunner().invoke(app, ["sweep", "--ruleset", "shanghai-classic", "--against", "reference",
                                 "--against-options", "lift_to=one_cap_unit", "--out", str(tmp_path / "x")])
    assert r.exit_code == 2 and "knocked" in r.output
    for extra, words in cases:
        r = CliRunner().invoke(app, base + extra)
        assert r.exit_code == 2 and words in r.output, (extra, r.output)
    assert not (tmp_path / "x").exists()


def test_a_scheduler_address_that_is_not_one_is_refused(tmp_path):
    r = CliRunner().invoke(app, ["sweep", "--ruleset", "mcr", "--against", "reference", "--against-options",
                                 "tile_hog_honors=true", "--limit", "10", "--scheduler", "nonsense",
                                 "--out", str(tmp_path / "z")])
    assert r.exit_code == 2 and "--scheduler nonsense" in r.output and not (tmp_path / "z").exists()


def test_an_unreachable_scheduler_is_refused(tmp_path):
    r = CliRunner().invoke(app, ["sweep", "--ruleset", "mcr", "--against", "reference", "--against-options",
                                 "tile_hog_honors=true", "--limit", "10", "--scheduler", "tcp://127.0.0.1:9",
                                 "--out", str(tmp_path / "y")])
    assert r.exit_code == 2 and "cannot reach" in r.output and not (tmp_path / "y").exists()
