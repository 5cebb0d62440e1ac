"""The sweep names each class of disagreement by the same cause search as a conformance run (checker.diagnose):
small sweeps against `python:` engines with planted departures, each wrapping the reference engine with one or
two changes, must name exactly the planted change(s) as the cause(s) of every class. The expected causes are
written here, by hand, from what each engine was made to do, never read from the tool's output.

As in tests/test_diagnose.py, a planted spec edit is made on the spec's YAML data (not through checker.mutate,
whose edits are what is being tested), a planted context reading rewrites the case before the reference engine
sees it, and a planted outside fan renames or merges fans in the answer. The engines are modules written into
the test's folder, imported by the sweep's Dask worker and by the report (which scores a sample of hands on both
engines to check each cause against the cases they agree on).

The sweeps are the first hands of the concealed space (honour pungs and a pair: the first 40 are all honours,
every one four concealed pungs when self-drawn), in two shards, so a class has up to two witnesses.
"""
from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from checker.cli import app

ROOT = Path(__file__).resolve().parents[1]

ENGINE_HEAD = '''
from checker.case import CaseRunner
from checker.spec import load_ruleset_file

_plain = CaseRunner()
_edited = {}


def edited():
    """The reference runner of the spec the test edited (read once a process)."""
    if "runner" not in _edited:
        _edited["runner"] = CaseRunner({"mcr": load_ruleset_file(SPEC)})
    return _edited["runner"]


def renamed(result, old, new):
    def rename(r):
        return {**r, "fans": [{**f, "id": new} if f["id"] == old else f for f in r.get("fans", [])]}
    return {"either": [rename(r) for r in result["either"]]} if "either" in result else rename(result)
'''


def planted(tmp_path: Path, monkeypatch, name: str, body: str, spec: Path | None = None) -> str:
    """A module `name` holding the engine `score` (`body`, beside ENGINE_HEAD's helpers), importable by this process
    and by the sweep's workers; its `python:` engine name."""
    text = f"SPEC = {str(spec)!r}\n" + ENGINE_HEAD + "\n\n" + textwrap.dedent(body)
    (tmp_path / f"{name}.py").write_text(text, encoding="utf-8")
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    monkeypatch.syspath_prepend(str(tmp_path))
    return f"python:{name}:score"


def edited_spec(tmp_path: Path, edit) -> Path:
    """The shipped MCR spec with `edit` made on its YAML data, written beside the test."""
    data = yaml.safe_load((ROOT / "spec" / "mcr.yaml").read_text(encoding="utf-8"))
    edit(data)
    path = tmp_path / "mcr-planted.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def pattern(data: dict, pattern_id: str) -> dict:
    return next(p for p in data["patterns"] if p["id"] == pattern_id)


def swept(tmp_path: Path, engine: str, *more: str, hands: int = 40) -> dict:
    """The first `hands` hands of the concealed space swept against `engine` in two shards, on one worker."""
    out = tmp_path / "sweep"
    r = CliRunner().invoke(app, ["sweep", "--ruleset", "mcr", "--against", engine, "--limit", str(hands),
                                 "--shard-hands", str(hands // 2), "--workers", "1", "--out", str(out), *more])
    assert r.exit_code == 0, r.output
    body = json.loads((out / "sweep.json").read_text(encoding="utf-8"))
    assert body["classes"], "the planted departure shows in the sweep"
    return body


def causes(body: dict) -> dict[tuple, list[str]]:
    """Each class (its key, as tuples) and the ids of the causes named for it; every class must be explained whole."""
    found = {}
    for c in body["classes"]:
        cause = c["cause"]
        assert cause["explained_by"] and cause["unexplained"] == 0, (c["key"], cause)
        found[tuple(tuple(k) for k in c["key"])] = [e["id"] for e in cause["explained_by"]]
    return found


# --------------------------------------------------------------------------- one change each

def test_a_planted_spec_edit_is_named_with_the_conformance_search_words(tmp_path, monkeypatch):
    # Four concealed pungs no longer implies Three concealed pungs (its account-once link dropped): every hand of
    # four concealed pungs (self-drawn, or won on the pair's tile) also scores Three concealed pungs, 16.
    def edit(data):
        pattern(data, "four_concealed_pungs")["implies"].remove("three_concealed_pungs")

    engine = planted(tmp_path, monkeypatch, "planted_implied", '''
        def score(case):
            return edited().run(case)
    ''', edited_spec(tmp_path, edit))
    body = swept(tmp_path, engine)
    assert causes(body) == {(("three_concealed_pungs", 0, 16),):
                            ["implied-dropped:four_concealed_pungs/three_concealed_pungs"]}
    [c] = body["classes"]
    [e] = c["cause"]["explained_by"]
    assert e["kind"] == "spec edit" and "fan.three_concealed_pungs" in e["rules"]
    assert e["explains"] == e["of"] == c["witnesses"] == 2  # the witness of each shard
    # checked against the cases on which the engines agree (the discard wins off a pung's tile: three concealed
    # pungs both ways), scored when the report was written
    assert 0 < e["passing_checked"] == body["causes_checked"]["agreeing_cases"]
    assert body["causes_checked"]["hands"] == 40
    # the witness in words and a command that reproduces it (the reference engine's own result as its expect)
    assert c["words"].startswith("hand ") and "wins on" in c["words"]
    assert c["reproduce"].endswith("| mjcheck score --case -")
    case = json.loads(re.match(r"echo '(.*)' \| mjcheck score --case -$", c["reproduce"]).group(1))
    assert case["input"] == c["witness"]
    r = CliRunner().invoke(app, ["score", "--case", "-"], input=json.dumps(case))
    assert r.exit_code == 0, r.output
    page = (tmp_path / "sweep" / "sweep.md").read_text(encoding="utf-8")
    assert "`implied-dropped:four_concealed_pungs/three_concealed_pungs`" in page and c["reproduce"] in page
    assert f"checked against {e['passing_checked']:,} cases on which both engines agree" in page


def test_a_planted_context_reading_is_named_for_every_class_it_makes(tmp_path, monkeypatch):
    # The engine reads a win on a discard as self-drawn; self-drawn cases agree. The discard cases of these
    # all-honours hands of four pungs make two classes:
    # - the discard completes a pung: Concealed hand 2 and Three concealed pungs 16 become Fully concealed hand 4
    #   and Four concealed pungs 64 (which excludes Concealed hand);
    # - the discard is the pair's tile: the four pungs are concealed either way, and Four concealed pungs already
    #   excludes Concealed hand, so Fully concealed hand 4 is all the engine adds.
    engine = planted(tmp_path, monkeypatch, "planted_win_kind", '''
        def score(case):
            data = case["input"]
            if data.get("win_by") == "discard":
                data = {**data, "win_by": "self_draw", "discarder": None}
            return _plain.run({**case, "input": data})
    ''')
    body = swept(tmp_path, engine)
    assert causes(body) == {
        (("concealed_hand", 2, 0), ("four_concealed_pungs", 0, 64), ("fully_concealed_hand", 0, 4),
         ("three_concealed_pungs", 16, 0)): ["win-read-as:discard/self_draw"],
        (("fully_concealed_hand", 0, 4),): ["win-read-as:discard/self_draw"],
    }
    assert all(c["witness"]["win_by"] == "discard" for c in body["classes"])


def test_a_fan_outside_the_spec_is_named_with_the_fans_it_replaces(tmp_path, monkeypatch):
    # The engine calls All honors by a name of its own (not the document's, in Chinese, English or pinyin): every
    # case departs by that fan alone.
    engine = planted(tmp_path, monkeypatch, "planted_renamed", '''
        def score(case):
            return renamed(_plain.run(case), "all_honors", "honours_only_hand")
    ''')
    body = swept(tmp_path, engine)
    assert causes(body) == {(("all_honors", 64, 0), ("honours_only_hand", 0, 64)): ["outside:honours_only_hand"]}
    [e] = body["classes"][0]["cause"]["explained_by"]
    assert e["kind"] == "fans outside the spec" and "in place of all_honors" in e["words"]


# --------------------------------------------------------------------------- two changes at once

def test_a_reading_and_a_fan_outside_the_spec_are_named_together(tmp_path, monkeypatch):
    # The engine follows four_concealed_pungs_with_fully_concealed=false (Four concealed pungs excludes Fully
    # concealed hand: Self drawn 1 in place of its 4; every self-drawn hand here is four concealed pungs) and calls
    # Two dragon pungs (6) by a name of its own. Three classes:
    # - self-drawn with two dragon pungs: both changes, and no fan outside the spec explains the class alone: the
    #   search names the reading and the outside fan together;
    # - self-drawn without: the reading alone;
    # - on a discard with two dragon pungs: the name alone.
    engine = planted(tmp_path, monkeypatch, "planted_reading_renamed", '''
        def score(case):
            options = {**(case.get("options") or {}), "four_concealed_pungs_with_fully_concealed": False}
            return renamed(_plain.run({**case, "options": options}), "two_dragon_pungs", "dragon_pair_pungs")
    ''')
    body = swept(tmp_path, engine)
    reading = "option:four_concealed_pungs_with_fully_concealed=false"
    assert causes(body) == {
        (("dragon_pair_pungs", 0, 6), ("fully_concealed_hand", 4, 0), ("self_drawn", 0, 1), ("two_dragon_pungs", 6, 0)):
            [f"{reading} + outside:dragon_pair_pungs"],
        (("fully_concealed_hand", 4, 0), ("self_drawn", 0, 1)): [reading],
        (("dragon_pair_pungs", 0, 6), ("two_dragon_pungs", 6, 0)): ["outside:dragon_pair_pungs"],
    }


def test_a_merged_fan_outside_the_spec_that_lifts_a_hand_to_the_minimum(tmp_path, monkeypatch):
    # The engine scores one fan, ming_an_gang 5, for a concealed kong with a melded kong, in place of Concealed
    # kong 2 + Melded kong 1, and applies the 8-point minimum to its own fans. Two classes of a sweep holding a
    # concealed kong of 5m and a kong of 9p claimed from seat 1, each given as a shard keeps it (its key, one
    # witness, both sides' fans), the engine's side from the planted engine itself:
    # - 5z6z6z6z7z7z7z + 5z self-drawn: a win both ways, the kongs' fans renamed;
    # - 7s8s9s6z6z7z7z + 7z on a discard: Dragon pung 2, Concealed kong 2, Pung of terminals or honors 1 (the 9p
    #   kong), Melded kong 1 = 6, under the minimum of 8; the engine's 2 + 1 + 5 = 8 wins. That class is a
    #   verdict, read against the reference's fans with no minimum.
    from checker.sweep.causes import Sample, named_causes
    from checker.sweep.run import Plan
    from checker.sweep.work import result_of, shown, worker_runner

    def no_minimum(data):
        data["win"]["minimum_points"] = 1  # every win scores a point at least (Chicken hand, where nothing else)

    engine = planted(tmp_path, monkeypatch, "planted_merged_kongs", '''
        def score(case):
            result = edited().run(case)  # the reference's fans, with no minimum to speak of
            if not result.get("valid"):
                return result
            fans = [f for f in result["fans"] if f["id"] not in ("concealed_kong", "melded_kong")]
            if len(fans) == len(result["fans"]) - 2:
                fans.append({"id": "ming_an_gang", "points": 5, "count": 1})
            total = sum(f["points"] * f["count"] for f in fans)
            if total < 8:
                return {"valid": False, "error": "win.minimum_points"}
            return {"valid": True, "total": total, "fans": fans}
    ''', edited_spec(tmp_path, no_minimum))
    import planted_merged_kongs

    melds = [{"type": "kong", "tiles": "5m5m5m5m", "concealed": True}, {"type": "kong", "tiles": "9p9p9p9p", "from": 1}]
    plan = Plan("mcr", "concealed", engine, context={"melds": ["concealed_kong:5m5m5m5m", "kong:9p9p9p9p@1"]})
    classes, witnesses = [], []
    for key, concealed, win, win_by in [
            ([["concealed_kong", 2, 0], ["melded_kong", 1, 0], ["ming_an_gang", 0, 5]], "5z6z6z6z7z7z7z", "5z",
             "self_draw"),
            ([["verdict", "win.minimum_points", "win"]], "7s8s9s6z6z7z7z", "7z", "discard")]:
        data = {"concealed": concealed, "melds": melds, "win_tile": win, "win_by": win_by,
                "discarder": 1 if win_by == "discard" else None, "seat_wind": "E", "round_wind": "E", "flowers": "",
                "flags": {}}
        case = {"ruleset": "mcr", "kind": "score", "input": data}
        seen = {"witness": data, "reference": shown(result_of(worker_runner().run(case))),
                "other": shown(result_of(planted_merged_kongs.score(case)))}
        classes.append({"key": key, "count": 1, **seen})
        witnesses.append([seen])
    assert classes[1]["reference"]["valid"] is False and classes[1]["other"]["valid"] is True
    named = named_causes(plan, classes, witnesses, Sample((), 0))
    assert [[e["id"] for e in n["cause"]["explained_by"]] for n in named] == [["outside:ming_an_gang"]] * 2
    assert [n["cause"]["unexplained"] for n in named] == [0, 0]
    words = [n["cause"]["explained_by"][0]["words"] for n in named]
    assert all("in place of concealed_kong, melded_kong" in w for w in words)
    assert "minimum" in words[1] and "minimum" not in words[0]


# --------------------------------------------------------------------------- the checked-in sweeps

CHECKED_IN = [
    # The readings PyMahjongGB follows (spec/mcr.yaml names it in their words), one or two at a time.
    ("sweep-mcr-pymahjonggb", {"option:four_concealed_pungs_with_fully_concealed=false", "option:held_four_is_a_wait=true",
                               "option:fully_concealed_with_concealed_shapes=false", "option:nine_gates_terminal_pungs=one",
                               "option:fully_concealed_with_concealed_shapes=false + option:nine_gates_terminal_pungs=one"}),
    ("sweep-mcr-special-pymahjonggb", {"option:fully_concealed_with_concealed_shapes=false", "option:tile_hog_honors=true",
                                       "option:knitted_straight_as_chows=true",
                                       "option:fully_concealed_with_concealed_shapes=false + option:tile_hog_honors=true"}),
]


@pytest.mark.parametrize("name, expected", CHECKED_IN, ids=[x[0] for x in CHECKED_IN])
def test_the_shared_search_names_every_class_of_the_checked_in_sweeps(name, expected):
    # reports/sweep-*.json were written before the sweep used the shared search (each class's `explained_by` is
    # the words of the sweep's own former explanation: the readings it found): their classes, each with the
    # witness it kept, are searched again here, checked against the cases on which PyMahjongGB and the reference
    # agree among hands spread over the space. Every class is explained whole, by the readings the former code
    # named for it.
    pytest.importorskip("MahjongGB")
    from checker.sweep.causes import agreeing_sample, named_causes
    from checker.sweep.run import Plan

    body = json.loads((ROOT / "reports" / f"{name}.json").read_text(encoding="utf-8"))
    s = body["sweep"]
    plan = Plan(s["ruleset"], s["space"], s["against"], s["options"], s["against_options"], limit=s["limit"],
                context=s["context"] or {})
    sample = agreeing_sample(plan)
    assert len(sample.cases) > 100 and sample.problem is None
    witnesses = [[{k: c[k] for k in ("witness", "reference", "other")}] for c in body["classes"]]
    named = named_causes(plan, body["classes"], witnesses, sample)
    found = set()
    for c, n in zip(body["classes"], named):
        cause = n["cause"]
        assert cause["explained_by"] and cause["unexplained"] == 0, (c["key"], cause)
        ids = [e["id"] for e in cause["explained_by"]]
        found.update(ids)
        readings = set(re.findall(r"option:([a-z_]+)=([a-z0-9_]+)", " ".join(ids)))
        assert readings == set(re.findall(r"\b([a-z_]+)=([a-z0-9_]+)", c["explained_by"])), (c["key"], ids)
    assert found == expected
