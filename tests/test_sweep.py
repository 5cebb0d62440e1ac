"""`mjcheck sweep` on a two-worker local Dask cluster: a small sweep of the first hands of the concealed space
against the reference under another reading, its report, resuming after a lost shard, and bad input refused
before anything starts."""
from __future__ import annotations

import json

import pytest
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
    assert [e["id"] for e in c["cause"]["explained_by"]] == ["option:four_concealed_pungs_with_fully_concealed=false"]
    assert c["cause"]["unexplained"] == 0 and c["witnesses"] == 4  # one a shard
    page = (out / "sweep.md").read_text()
    assert "| cases |" in page and "`option:four_concealed_pungs_with_fully_concealed=false`" in page
    assert c["reproduce"] in page and c["words"] in page

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
        (["--against", "reference", "--against-options", "tile_hog_honors=true", "--space", "nope"], "unknown space"),
        (["--against", "reference", "--against-options", "tile_hog_honors=true", "--flag", "knocked"],
         "not a flag of mcr"),
        (["--against", "reference", "--against-options", "tile_hog_honors=true", "--meld", "pung:5p5p"], "meld"),
        (["--against", "reference", "--against-options", "tile_hog_honors=true", "--seat-wind", "X"], "seat_wind"),
        (["--against", "reference", "--against-options", "tile_hog_honors=true"]
         + [a for t in "1234" for a in ("--meld", f"pung:{t}z{t}z{t}z@2")] + ["--meld", "pung:5z5z5z@2"], "at most four"),
        (["--against", "reference", "--against-options", "tile_hog_honors=true", "--open-melds", "2"],
         "--space open"),
        (["--against", "reference", "--against-options", "tile_hog_honors=true", "--space", "open",
          "--open-melds", "5"], "--open-melds"),  # a hand has four sets
        (["--against", "reference", "--against-options", "tile_hog_honors=true", "--space", "special", "--meld",
          "pung:5p5p5p@2"], "no declared meld"),
        (["--against", "reference", "--against-options", "tile_hog_honors=true", "--space", "open", "--meld",
          "pung:5p5p5p@2"], "--space open places every meld"),
        # a kong's replacement tile without a kong among the melds: the hand checks refuse every case
        (["--against", "reference", "--against-options", "tile_hog_honors=true", "--flag", "kong_replacement"],
         "rules out every case"),
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


def test_pymahjonggb_in_a_batch_gives_what_it_gives_hand_by_hand():
    # The sweep calls PyMahjongGB once a case but converts a hand once per winning tile (the discard case
    # reuses the self-drawn one's arguments): the results must be those of converting each case alone.
    import pytest
    pytest.importorskip("MahjongGB")
    from checker.case import CaseRunner
    from checker.conform.pymahjonggb import PyMahjongGB, calculator
    from checker.sweep.work import cases_of

    runner = CaseRunner()
    engine, scorer = PyMahjongGB(runner, calculator()), runner.scorer("mcr", {})
    space = ConcealedSpace()
    for start in (0, 3_000_000, 9_000_000):
        for counts in space.hands(start, start + 30):
            hands = list(cases_of(counts))
            alone = [engine.fan_totals(h, scorer) for h in hands]
            assert engine.fan_totals_of_wins(hands, scorer) == alone
            # and they agree with the full result the conformance runs use
            for h, (valid, error, fans) in zip(hands, alone):
                full = engine.score(h, scorer)
                assert (full["valid"], full.get("error")) == (valid, error)
                if valid:
                    assert {f["id"]: f["points"] * f["count"] for f in full["fans"]} == fans


def test_readings_worth_the_same_agree_whichever_one_an_engine_names():
    # 6s7s8s 8s9s 55z 666z 777z + 7s self-drawn: the 7s completes 6s-8s (closed wait) or 7s8s9s (edge wait),
    # the only wait either way. Worked by hand, both readings: Little three dragons 64 (two dragon pungs and the
    # third dragon's pair), Half flush 6, Fully concealed hand 4, Two concealed pungs 2 (the dragon pungs) and the
    # wait 1 = 77. The spec keeps the highest reading and both are; an engine naming either agrees.
    from checker.case import CaseRunner, hand_from_input
    from checker.sweep.work import compared, difference

    scorer = CaseRunner().scorer("mcr", {})
    hand = hand_from_input({"concealed": "6s7s8s8s9s5z5z6z6z6z7z7z7z", "win_tile": "7s", "win_by": "self_draw"},
                           scorer)
    mine = compared(scorer.score(hand))
    shared = {"little_three_dragons": 64, "half_flush": 6, "fully_concealed_hand": 4, "two_concealed_pungs": 2}
    closed, edge = {**shared, "closed_wait": 1}, {**shared, "edge_wait": 1}
    assert [mine[2], *mine[3]] in ([closed, edge], [edge, closed])
    assert difference(mine, (True, None, edge, ())) is None
    assert difference(mine, (True, None, closed, ())) is None
    # a reading worth as much that the spec does not give is still a disagreement
    assert difference(mine, (True, None, {**shared, "single_wait": 1}, ())) is not None


def test_a_class_is_explained_by_two_readings_together():
    # 1112345678999s + 8s self-drawn (Nine gates), as an engine reading two options otherwise would score it:
    # Nine gates withholding Fully concealed hand, so Self drawn 1 counts (fully_concealed_with_concealed_shapes
    # =false), and only one of the terminal pungs (nine_gates_terminal_pungs=one): Nine gates 88, Two concealed
    # pungs 2 (111, 999), Short straight 1 (234 567), Pung of terminals 1, Self drawn 1 = 93. The spec's default
    # gives Fully concealed hand 4 and no terminal pung (95): no one reading alone gives the engine's fans. The
    # search (checker.diagnose, as for a conformance run) names the two readings together, checked against the
    # cases of the space's first hands on which the reference and the reference under both readings agree.
    from checker.sweep.causes import agreeing_sample, named_causes
    from checker.sweep.run import Plan

    readings = {"fully_concealed_with_concealed_shapes": False, "nine_gates_terminal_pungs": "one"}
    plan = Plan("mcr", "concealed", "reference", {}, readings, limit=200)
    other = {"nine_gates": 88, "two_concealed_pungs": 2, "short_straight": 1, "pung_of_terminals_or_honors": 1,
             "self_drawn": 1}
    seen = {"witness": {"concealed": "1s1s1s2s3s4s5s6s7s8s9s9s9s", "melds": [], "win_tile": "8s",
                        "win_by": "self_draw", "discarder": None, "seat_wind": "E", "round_wind": "E", "flowers": "",
                        "flags": {}},
            "reference": {"valid": True, "error": None, "fans": {}},  # (not read: the report scores it again)
            "other": {"valid": True, "error": None, "fans": other}}
    c = {"key": [["fully_concealed_hand", 4, 0], ["pung_of_terminals_or_honors", 0, 1], ["self_drawn", 0, 1]],
         "count": 1, **seen}
    [named] = named_causes(plan, [c], [[seen]], agreeing_sample(plan))
    assert [e["id"] for e in named["cause"]["explained_by"]] == \
        ["option:fully_concealed_with_concealed_shapes=false + option:nine_gates_terminal_pungs=one"]
    assert named["cause"]["explained_by"][0]["passing_checked"] > 0


def test_a_sweep_with_melds_and_a_flag_checks_the_concealed_parts_that_complete_them(tmp_path):
    # Two concealed kongs declared (2m, 3m) and the flag kong_replacement: the space is every concealed part of
    # two sets and a pair holding no 2m or 3m; a kong's replacement is drawn, so only self-drawn cases remain
    # (the discard ones are ruled out by context.kong_replacement_drawn). Against two_concealed_kongs_points=6,
    # Two concealed kongs is worth 8 on one side and 6 on the other wherever it counts.
    from checker.sweep.work import Context, space_of
    from checker.engine.hand import parse_meld_text

    out = tmp_path / "kongs"
    args = ["sweep", "--ruleset", "mcr", "--against", "reference", "--against-options", "two_concealed_kongs_points=6",
            "--meld", "concealed_kong:2m2m2m2m", "--meld", "concealed_kong:3m3m3m3m", "--flag", "kong_replacement",
            "--limit", "60", "--shard-hands", "30", "--workers", "1", "--out", str(out)]
    r = CliRunner().invoke(app, args)
    assert r.exit_code == 0, r.output
    body = json.loads((out / "sweep.json").read_text())
    space = space_of("concealed", Context(tuple(parse_meld_text(m) for m in ("concealed_kong:2m2m2m2m",
                                                                               "concealed_kong:3m3m3m3m"))))
    hands = list(space.hands(0, 60))
    assert all(h[1] == 0 and h[2] == 0 and sum(h) == 8 for h in hands)
    distinct = sum(sum(1 for n in h if n) for h in hands)
    assert body["hands"] == 60 and body["cases"] == distinct and body["ruled_out"] == distinct
    [c] = body["classes"]
    assert c["key"] == [["two_concealed_kongs", 8, 6]] and 0 < c["count"] <= distinct
    assert [m["tiles"] for m in c["witness"]["melds"]] == ["2m2m2m2m", "3m3m3m3m"]
    assert c["witness"]["flags"] == {"kong_replacement": True} and c["witness"]["win_by"] == "self_draw"
    page = (out / "sweep.md").read_text()
    assert "melds concealed_kong:2m2m2m2m concealed_kong:3m3m3m3m; flags kong_replacement" in page
    assert f"{distinct:,} cases the ruleset's hand checks refuse" in page


def test_a_sweep_folder_written_before_contexts_existed_resumes(tmp_path):
    # plan.json of a sweep written before the plan had a context reads as the same sweep with no context
    from checker.sweep.run import Plan, prepare

    plan = Plan("mcr", "concealed", "reference", {}, {"tile_hog_honors": True}, 100, 200)
    (tmp_path / "shards").mkdir()
    old = {"ruleset": "mcr", "space": "concealed", "against": "reference", "options": {},
           "against_options": {"tile_hog_honors": True}, "shard_hands": 100, "limit": 200}
    (tmp_path / "plan.json").write_text(json.dumps({"sweep": old, "hands": 200, "shards": 2}))
    assert prepare(plan, tmp_path, resume=True) == [(0, 100), (100, 200)]


def test_a_sweep_against_an_engine_behind_the_protocol(tmp_path):
    # Any engine `mjcheck conform` runs can be swept. The reference engine behind cmd: (examples/
    # reference_engine.py) agrees on every case; the example engine (every hand "valid, 0 points") disagrees on
    # every one: on the valid ones by every fan the reference counts, on the others by the verdict.
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    base = ["sweep", "--ruleset", "mcr", "--limit", "8", "--shard-hands", "4", "--workers", "1"]
    engine = f'cmd:"{sys.executable} {root / "examples" / "reference_engine.py"}"'
    r = CliRunner().invoke(app, base + ["--against", engine, "--out", str(tmp_path / "same")])
    assert r.exit_code == 0, r.output
    same = json.loads((tmp_path / "same" / "sweep.json").read_text())
    assert same["cases"] > 0 and same["agreed"] == same["cases"] and same["classes"] == []

    engine = f'cmd:"{sys.executable} {root / "examples" / "engine.py"}"'
    r = CliRunner().invoke(app, base + ["--against", engine, "--out", str(tmp_path / "zero")])
    assert r.exit_code == 0, r.output
    zero = json.loads((tmp_path / "zero" / "sweep.json").read_text())
    assert zero["cases"] == same["cases"] and zero["agreed"] == 0
    for c in zero["classes"]:
        if c["reference"]["valid"]:
            assert all(theirs == 0 for _, _, theirs in c["key"])
        else:
            assert c["key"][0][0] == "verdict"

    # an engine that does not start is bad input: nothing is written
    r = CliRunner().invoke(app, base + ["--against", 'cmd:"/no/such/engine"', "--out", str(tmp_path / "none")])
    assert r.exit_code == 2 and "cannot run" in r.output and not (tmp_path / "none").exists()


@pytest.mark.parametrize("name, space", [("sweep-mcr-pymahjonggb", "concealed"),
                                         ("sweep-mcr-special-pymahjonggb", "special")])
def test_the_checked_in_sweeps_cover_their_whole_space_with_every_class_explained(name, space):
    from pathlib import Path

    from checker.sweep.work import space_of

    body = json.loads((Path(__file__).resolve().parent.parent / "reports" / f"{name}.json").read_text())
    assert body["complete"] and body["hands"] == space_of(space).size == body["planned_hands"]
    assert body["sweep"]["space"] == space and body["sweep"]["against"] == "pymahjonggb"
    assert body["sweep"]["limit"] is None
    assert body["cases"] == body["agreed"] + sum(c["count"] for c in body["classes"])
    assert [c["key"] for c in body["classes"] if _unexplained(c)] == []


def _unexplained(c: dict) -> bool:
    """Whether a class of a sweep report is left unexplained, wholly or in part: a report of this version says it
    in its cause (as a conformance summary does); one written before the sweep used the shared search (the
    checked-in ones) in the words of its former explanation."""
    if "cause" in c:
        return not c["cause"].get("explained_by") or bool(c["cause"].get("unexplained"))
    return c["explained_by"] == "unexplained"


def test_a_sweep_of_the_open_space_scores_each_hand_with_its_own_melds(tmp_path):
    # The open space numbers hands by meld multiset, then by concealed completion: the first ones hold the
    # chow 1m2m3m (from seat 3) and four more sets' worth of concealed tiles; every distinct concealed tile
    # wins both ways.
    from checker.space.open import OpenSpace

    out, body = _small_sweep(tmp_path, "open", 40, 20, "mcr open (one meld): 40 hands")
    hands = list(OpenSpace(1).hands(0, 40))
    assert all(len(melds) == 1 and sum(counts) == 11 for melds, counts in hands)
    assert body["hands"] == 40 and body["ruled_out"] == 0
    assert body["cases"] == sum(2 * sum(1 for n in counts if n) for _, counts in hands)
    assert body["sweep"]["open_melds"] == 1 and "--space open" in (out / "sweep.md").read_text()


def test_a_sweep_against_a_python_engine(tmp_path, monkeypatch):
    # python:MODULE:FUNCTION is imported in each worker (PYTHONPATH reaches the worker processes): an engine that
    # answers with the reference engine's own result agrees on every case; a module that does not import is bad
    # input before anything starts.
    (tmp_path / "same_engine.py").write_text(
        "from checker.case import CaseRunner\n_runner = CaseRunner()\n\n\ndef score(case):\n"
        "    return _runner.run(case)\n", encoding="utf-8")
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    monkeypatch.syspath_prepend(str(tmp_path))
    base = ["sweep", "--ruleset", "mcr", "--limit", "6", "--shard-hands", "3", "--workers", "1"]
    r = CliRunner().invoke(app, base + ["--against", "python:same_engine:score", "--out", str(tmp_path / "same")])
    assert r.exit_code == 0, r.output
    body = json.loads((tmp_path / "same" / "sweep.json").read_text())
    assert body["cases"] > 0 and body["agreed"] == body["cases"] and body["classes"] == []
    r = CliRunner().invoke(app, base + ["--against", "python:no_such_module_xyz:f", "--out", str(tmp_path / "no")])
    assert r.exit_code == 2 and not (tmp_path / "no").exists()


def test_the_open_space_claims_chows_from_the_seat_the_ruleset_allows(monkeypatch):
    # The open space's chows come from the seat named by the ruleset's chow_from hand check: the previous
    # player (seat 3) in all three specs; a ruleset allowing chows from the next player (seat 1) sweeps chows
    # from seat 1, which its hand checks accept, so no case is ruled out.
    import dataclasses

    from checker.engine import Scorer
    from checker.space.open import OpenSpace
    from checker.spec import Predicate
    from checker.sweep import work

    runner = work.worker_runner()
    assert [work.chow_seat(r) for r in ("mcr", "shanghai-knocking", "shanghai-classic")] == [3, 3, 3]
    mcr = runner.ruleset("mcr")
    checks = tuple(dataclasses.replace(hc, check=Predicate("chow_from", {"seat": 1})) if hc.check.name == "chow_from"
                   else hc for hc in mcr.hand_checks)
    seat_one = dataclasses.replace(mcr, hand_checks=checks)

    class Runner:
        def ruleset(self, ruleset_id):
            return seat_one

    monkeypatch.setattr(work, "worker_runner", Runner)
    assert work.chow_seat("mcr") == 1
    space = work.space_of("open", ruleset_id="mcr")
    chows = [melds[0] for melds, _ in space.hands(0, 2000) if melds[0].kind == "chow"]
    assert chows and {m.source for m in chows} == {1}
    scorer = Scorer(seat_one)
    for melds, counts in space.hands(0, 50):
        for hand in work.cases_of(counts, work.Context(melds)):
            scorer.check(hand)  # accepted: the chow is from the seat this ruleset allows
    with pytest.raises(ValueError, match="seat 1, 2 or 3"):
        OpenSpace(1, chow_seat=4)


def test_a_sweep_of_the_special_shapes_starts_with_the_seven_pairs(tmp_path):
    # --space special numbers the seven pairs hands first (then thirteen orphans, honors-and-knitted, knitted
    # straight): its first hands are seven pairs, each distinct tile winning both ways
    from checker.space.special import SpecialSpace

    out, body = _small_sweep(tmp_path, "special", 12, 6, "mcr special: 12 hands")
    hands = list(SpecialSpace().hands(0, 12))
    assert all(set(counts) <= {0, 2, 4} and sum(counts) == 14 for counts in hands)
    assert body["hands"] == 12 and body["ruled_out"] == 0
    assert body["cases"] == sum(2 * sum(1 for n in counts if n) for counts in hands)
    assert "--space special" in (out / "sweep.md").read_text()


def _small_sweep(tmp_path, space: str, hands: int, shard: int, announced: str) -> tuple:
    """The first hands of a space swept on one worker against the reference under another reading: the output
    folder and its sweep.json, after checking the run said what it would sweep."""
    out = tmp_path / space
    r = CliRunner().invoke(app, ["sweep", "--space", space, "--against", "reference", "--against-options",
                                 "tile_hog_honors=true", "--limit", str(hands), "--shard-hands", str(shard),
                                 "--workers", "1", "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert announced in r.output
    return out, json.loads((out / "sweep.json").read_text())


def test_the_line_before_a_sweep_says_its_context_and_melds_apart():
    from checker.sweep.commands import space_words

    assert space_words("open", {"flags": ["knocked"]}, 3) == "flags knocked; 1 to 3 melds"
    assert space_words("open", {}, 1) == "one meld"
    assert space_words("concealed", {}, 1) == ""
