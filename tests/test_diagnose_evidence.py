"""Diagnosis that proves its causes, on planted engines: Shanghai ones as much as MCR ones, refusals in an
engine's own words, fans under the documents' names, errors of several kinds, departures whose fans meet.

Each engine wraps the reference engine with changes made here (spec edits on the YAML data, or the answer
rewritten), and the causes each test expects are written by hand from what the engine was made to do, never read
from the tool's output. Every test also asserts that nothing else is named: no other cause, no rival, and every
case of every class explained (`named`). A cause is named only when the engine's answers to probes (cases built
to test it, asked of the engine after the run) bear it out.
"""
from __future__ import annotations

import json
from pathlib import Path

from checker.case import CaseRunner
from checker.conform import run_conformance
from checker.conform.adapters import EngineInfo, InProcessEngine
from checker.conform.known import declare, load_known
from checker.diagnose import Settings
from checker.spec import load_ruleset

from test_diagnose import CLASSIC, MCR, ROOT, edited_runner, engine, pattern, without_flag

KNOCKING = ROOT / "corpus" / "shanghai-knocking.jsonl"


def run(tmp_path: Path, corpus: Path, function, probes: int = 300) -> list[dict]:
    done = run_conformance(str(corpus), InProcessEngine(function, EngineInfo("planted", "1")), str(tmp_path / "out"),
                           diagnosis=Settings(probes=probes))
    classes = done.summary["classes"]
    assert classes, "the planted departure shows in the corpus"
    return classes


def named(classes: list[dict]) -> set[str]:
    """Every departure named anywhere (each part of a pair, and every rival named beside a cause), with every
    case of every class explained and every named cause confirmed by the engine's answers to probes."""
    found = set()
    for c in classes:
        cause = c["cause"]
        assert cause.get("explained_by") and cause["unexplained"] == 0, f"{c['signature']}: {cause['verdict']}"
        for e in cause["explained_by"]:
            found.update(e["id"].split(" + "))
            found.update(r["id"] for r in e.get("or_equally") or [])
            if e["kind"] not in ("fan names", "fan listing", "fans outside the spec", "input disagreement"):
                assert e.get("evidence") == "confirmed", f"{c['signature']}: {e}"
    return found


def refusing_no_flower_discards(rule: str):
    """The reference engine, except that a hand with no flowers won on a discard is refused, naming `rule`."""
    reference = CaseRunner()

    def answer(case):
        data = case["input"]
        if data.get("win_by") == "discard" and not data.get("flowers"):
            return {"valid": False, "error": rule}
        return reference.run(case)
    return answer


# ----------------------------------------------------------------------- Shanghai settlement and scoring

def test_an_engine_that_pays_no_base_is_named_by_the_base(tmp_path):
    """Classic: one share is 底分 + 花分 (the room's base, 2, plus the hand's value); this engine pays the value
    alone. Only the payments differ, and only the base explains them whole."""
    def no_base(data):
        data["settlement"]["base"] = 0
    classes = run(tmp_path, CLASSIC, engine(edited_runner(tmp_path, "shanghai-classic", no_base)))
    assert named(classes) == {"base=0"}


def test_a_konger_paying_once_for_a_robbed_kong_is_named_by_the_share(tmp_path):
    """Knocking: 抢杠 pays a flat ×3, the konger paying three times the value; this engine has him pay once."""
    def konger_once(data):
        data["settlement"]["robbing_kong"]["discarder"] = 1
    classes = run(tmp_path, KNOCKING, engine(edited_runner(tmp_path, "shanghai-knocking", konger_once)))
    assert named(classes) == {"share:robbing_kong/discarder=1"}


def test_a_cap_of_three_doubles_is_named(tmp_path):
    """Knocking: the whole sum is doubled once per double; this engine counts three at most. The shipped corpus
    holds one hand of four doubles (the generator's kill of the catalogue's doubles-at-most:3); one more is added,
    worked by hand: four concealed pungs of characters and a pair
    of 9m, self-drawn, knocked, one flower: hua 1 (底) + 1 (花) = 2; doubles 门清 1 + 碰碰胡 1 + 清一色 2 = 4;
    2 × 2^4 = 32 from each opponent: [96, -32, -32, -32] (the engine: 2 × 2^3 = 16)."""
    four = {"id": "four-doubles", "ruleset": "shanghai-knocking", "kind": "score", "options": {},
            "input": {"concealed": "1m1m1m3m3m3m5m5m5m7m7m7m9m", "melds": [], "win_tile": "9m", "win_by": "self_draw",
                      "discarder": None, "seat_wind": "E", "round_wind": "E", "flowers": "1f",
                      "flags": {"knocked": True}},
            "expect": {"valid": True, "total": 32, "payments": [96, -32, -32, -32],
                       "fans": [{"id": "going_out", "points": 1, "count": 1}, {"id": "flower", "points": 1, "count": 1},
                                {"id": "suited_pung", "points": 0, "count": 4},
                                {"id": "men_qing", "points": 1, "count": 1},
                                {"id": "peng_peng_hu", "points": 1, "count": 1},
                                {"id": "qing_yi_se", "points": 2, "count": 1}]}}
    corpus = tmp_path / "knocking.jsonl"
    corpus.write_text(KNOCKING.read_text(encoding="utf-8") + json.dumps(four, ensure_ascii=False) + "\n",
                      encoding="utf-8")

    def three(data):
        next(s for s in data["scoring"]["steps"] if s["step"] == "doubles")["params"] = {"most": 3}
    classes = run(tmp_path, corpus, engine(edited_runner(tmp_path, "shanghai-knocking", three)))
    assert named(classes) == {"doubles-at-most:3"}
    assert classes[0]["witness"]["id"] in ("four-doubles", "shanghai-knocking-kills-doubles-at-most-3")
    assert classes[0]["count"] == 2  # both hands of four doubles, and only they


def test_a_single_hand_limit_taking_the_base_in_is_named(tmp_path):
    """Classic: 5勒封顶 bounds what a payer loses in value, 底分 on top (single_hand_limit_scope whole_loss,
    base_placement after_caps); this engine bounds the whole payment, 底分 included. Worked by hand on the
    document's 风碰+荒番为8勒子, self-drawn, base 2: the hand is worth 80; the rules have each payer lose
    min(80, 50) + 2 = 52, [156, -52, -52, -52]; the engine min(80 + 2, 50) = 50, [150, -50, -50, -50]. Only
    payments above the limit differ, and no base, share or option reading pays both those and the rest alike."""
    def limit_with_base(data):
        next(s for s in data["scoring"]["steps"] if s["step"] == "outer_limit")["params"]["bounds"] = "payment"
    classes = run(tmp_path, CLASSIC, engine(edited_runner(tmp_path, "shanghai-classic", limit_with_base)))
    assert named(classes) == {"step:9:outer_limit.bounds=payment"}


def test_a_multiplier_read_as_a_double_is_named_and_not_as_other_points(tmp_path):
    """Classic: 荒番 multiplies the value and the cap by 2 (a multiplier, after the cap); this engine counts it as
    one double, inside the cap. On capped hands a 荒番 worth 1 (×1) gives the same totals, but not on the others
    of the same class, so no such points are named: the kind is."""
    def huang_fan_a_double(data):
        pattern(data, "huang_fan")["kind"] = "double"
        pattern(data, "huang_fan")["points"] = 1
    classes = run(tmp_path, CLASSIC, engine(edited_runner(tmp_path, "shanghai-classic", huang_fan_a_double)))
    assert named(classes) == {"kind:huang_fan=double"}


def test_a_refusal_in_the_engines_own_words_is_named_by_its_conditions_not_by_a_minimum(tmp_path):
    """Knocking: the engine refuses a hand with no flowers won on a discard, naming its own rule. A refusal is not
    explained by any other refusal: the cause names the conditions, reads the engine's rule id as the one the
    departure adds, and no minimum is named (a minimum refusing these hands would refuse others the engine wins:
    a probe shows it)."""
    classes = run(tmp_path, KNOCKING, refusing_no_flower_discards("no_flower_discard"))
    assert named(classes) == {"refusal:discard+no_flowers"}
    (cause,) = classes[0]["cause"]["explained_by"]
    assert cause["words"] == "a hand with no flowers may not win on a discard"
    assert cause["rules_read"] == {"no_flower_discard": "win.refused.discard.no_flowers"}


def in_chinese(runner: CaseRunner):
    """`runner`'s answers with every fan named by its Chinese name in the classic spec (清一色, not qing_yi_se)."""
    chinese = {p.id: p.name_zh for p in load_ruleset("shanghai-classic").patterns}

    def rename(r):
        return {**r, "fans": [{**f, "id": chinese[f["id"]]} for f in r.get("fans", [])]}

    def answer(case):
        result = runner.run(case)
        return {"either": [rename(r) for r in result["either"]]} if "either" in result else rename(result)
    return answer


def test_fans_answered_under_their_chinese_names_are_read_as_the_specs(tmp_path):
    """Classic: the engine answers every fan by its Chinese name; nothing else differs."""
    classes = run(tmp_path, CLASSIC, in_chinese(CaseRunner()))
    assert named(classes) == {"fan-names"}
    assert {c["signature"] for c in classes} == {"fans named in the documents' words"}


def in_table_words(runner: CaseRunner):
    """`runner`'s knocking answers with each fan named as the document's scoring table or doubles list names it:
    the first cell of its table row (`Each flower / dragon-as-flower` read without its "Each", as an engine author
    would label it) or the gloss after a double's Chinese name (`门清: fully concealed hand`)."""
    words = {"going_out": "Going out (base)", "flower": "Flower / dragon-as-flower", "suited_pung": "Plain-suit pung",
             "men_qing": "fully concealed hand", "gang_kai": "won off a kong or flower replacement draw",
             "qing_yi_se": "full flush"}

    def rename(r):
        return {**r, "fans": [{**f, "id": words.get(f["id"], f["id"])} for f in r.get("fans", [])]} \
            if "fans" in r else r

    def answer(case):
        result = runner.run(case)
        return {"either": [rename(r) for r in result["either"]]} if "either" in result else rename(result)
    return answer


def test_fans_answered_in_the_documents_table_words_are_read_as_the_specs(tmp_path):
    """Knocking: the names are the document's own words, not the spec's English or Chinese names (its English
    name for flower is "Flower or dragon kept"; the table's row says "Each flower / dragon-as-flower")."""
    classes = run(tmp_path, KNOCKING, in_table_words(CaseRunner()))
    assert named(classes) == {"fan-names"}
    assert {c["signature"] for c in classes} == {"fans named in the documents' words"}


def listing_no_zero(answer_of):
    """An engine that leaves every fan at 0 points out of its answers (knocking's Plain-suit pung: 0 hua)."""
    def strip(r):
        return {**r, "fans": [f for f in r["fans"] if f["points"] != 0]} if "fans" in r else r

    def answer(case):
        result = answer_of(case)
        return {"either": [strip(r) for r in result["either"]]} if "either" in result else strip(result)
    return answer


def test_fans_at_zero_points_left_unlisted_are_a_way_of_writing_not_a_departure(tmp_path):
    """Knocking: the engine scores by the rules but lists no fan at 0 points. Nothing it pays differs, so no
    departure of the rules is named (an exclusion of Plain-suit pung by Going out, which is on every hand, would
    fit every answer as well and is not the engine's rule): the class is this way of writing answers alone."""
    classes = run(tmp_path, KNOCKING, listing_no_zero(CaseRunner().run))
    assert named(classes) == {"unlisted-zero"}
    assert {c["signature"] for c in classes} == {"fans at 0 points not listed"}
    (cause,) = classes[0]["cause"]["explained_by"]
    assert "suited_pung left out" in cause["words"]


def test_fans_at_zero_points_unlisted_beside_a_base_not_paid_are_each_named(tmp_path):
    """The listing and a real departure at once (knocking's 1-hua base for going out worth 2): the listing is
    read off the answers, the departure found and confirmed as if every fan were listed."""
    def base_two(data):
        pattern(data, "going_out")["points"] = 2
    answer = listing_no_zero(edited_runner(tmp_path, "shanghai-knocking", base_two).run)
    assert named(run(tmp_path, KNOCKING, answer)) == {"unlisted-zero", "points:going_out=2"}


def test_fans_under_their_names_and_a_base_not_paid_are_each_named(tmp_path):
    """The two at once: the names are read back to the spec's ids, then the base explains what is left."""
    def no_base(data):
        data["settlement"]["base"] = 0
    answer = in_chinese(edited_runner(tmp_path, "shanghai-classic", no_base))
    assert named(run(tmp_path, CLASSIC, answer)) == {"fan-names", "base=0"}


def test_a_flower_replacement_not_counted_as_gang_kai_is_named(tmp_path):
    """Knocking: 杠开 is won off a kong or a flower replacement draw; this engine ignores the flower replacement."""
    classes = run(tmp_path, KNOCKING, engine(read=without_flag("flower_replacement")))
    assert named(classes) == {"flag-ignored:flower_replacement"}


# ----------------------------------------------------------------------- MCR

def test_flowers_counted_toward_the_minimum_are_named(tmp_path):
    """MCR: eight points are needed before flowers; this engine counts the flowers toward them (so a flower is a
    fan that keeps Chicken hand away, and a 7-point hand with a flower wins)."""
    def flowers_in_minimum(data):
        data["win"]["minimum_excludes"] = []
        for statement in data["statements"]:  # the rule id goes with the list it named
            if "win.minimum_excludes" in statement.get("rules", []):
                statement["rules"] = ["win.minimum_points" if r == "win.minimum_excludes" else r
                                      for r in statement["rules"]]
    classes = run(tmp_path, MCR, engine(edited_runner(tmp_path, "mcr", flowers_in_minimum)))
    assert named(classes) == {"minimum-counts:flower_tiles"}


def test_two_departures_whose_fans_meet_are_each_named_and_nothing_else(tmp_path):
    """MCR: Fully concealed hand worth 5 (the table: 4) and no longer implying Self drawn, so both count. Both
    touch the same hands; no exclusion between other fans may be named for the cases where they meet."""
    def both(data):
        pattern(data, "fully_concealed_hand")["points"] = 5
        pattern(data, "fully_concealed_hand")["implies"].remove("self_drawn")
    classes = run(tmp_path, MCR, engine(edited_runner(tmp_path, "mcr", both)))
    assert named(classes) == {"points:fully_concealed_hand=5", "implied-dropped:fully_concealed_hand/self_drawn"}


def test_two_departures_of_one_engine_in_separate_classes_are_each_confirmed(tmp_path):
    """MCR with a base of 10 (the guide: 8) and Full flush worth 32: the base class and the Full flush class (a
    pair with the base); a probe of one may show the other, so each is predicted with the run's other departures
    where alone it would be contradicted."""
    def both(data):
        data["settlement"]["base"] = 10
        pattern(data, "full_flush")["points"] = 32
    classes = run(tmp_path, MCR, engine(edited_runner(tmp_path, "mcr", both)))
    assert named(classes) == {"base=10", "points:full_flush=32"}


def test_three_departures_meeting_in_one_class_are_named_together_and_each_alone_elsewhere(tmp_path):
    """MCR with a base of 10 (the guide: 8), Full flush worth 32 (24) and All chows worth 3 (2): one engine, one
    model. Cases with neither fan show the base alone; with one of the fans, the base and that fan; the four cases
    with both (e.g. mcr-exclusion-short-straight-pure-straight: Full flush, Pure straight, All chows) show all three
    at once, and are named by the three together, nothing more."""
    def three(data):
        data["settlement"]["base"] = 10
        pattern(data, "full_flush")["points"] = 32
        pattern(data, "all_chows")["points"] = 3
    classes = run(tmp_path, MCR, engine(edited_runner(tmp_path, "mcr", three)))
    assert named(classes) == {"base=10", "points:full_flush=32", "points:all_chows=3"}
    by_signature = {c["signature"]: {e["id"] for e in c["cause"]["explained_by"]} for c in classes}
    both = "all_chows 2×1 scored 3×1; full_flush 24×1 scored 32×1; payments differs; total differs"
    assert by_signature[both] == {"base=10 + points:all_chows=3 + points:full_flush=32"}
    assert by_signature["payments differs"] == {"base=10"}


def test_a_departure_a_cover_does_not_need_is_left_out_and_the_counts_follow(tmp_path):
    """The greedy cover of a class takes A (cases 1-3), then B (case 4), then C (cases 4-6): B explains nothing C
    does not, so the class is named by A and C, C counting the three cases no departure before it explains."""
    from checker.diagnose.causes import CauseSearch, Explanation
    from checker.mutate.mutation import Mutation

    cases = [object() for _ in range(6)]
    shows = {"A": cases[0:3], "B": cases[3:4], "C": cases[3:6]}

    class Search(CauseSearch):
        def _explained(self, members, m):
            return [r for r in members if r in shows[m.id]]

    search = Search([])
    for i in shows:
        search.mutations[i] = Mutation(i, "spec", "mcr", i)
    found = [Explanation("spec edit", i, i, (), len(shows[i]) if i != "C" else 2, 6) for i in "ABC"]
    kept = search._needed(None, cases, found)
    assert [(e.id, e.explains) for e in kept] == [("A", 3), ("C", 3)]


# ----------------------------------------------------------------------- hands of play

def test_a_table_with_two_procedure_departures_is_named_by_both(tmp_path):
    """Knocking, hands of play: the engine's table does not let the winner deal next (the guide: 东 stays dealer
    while winning, read as the winner dealing next) and does not lock a knocked hand (the guide: "Once knocked,
    your hand is locked"). Both are named in the procedure's own words and confirmed: the first by hands the bots
    play (the next dealer differs), the second by such hands changed at one event to claim after a knock (the
    rules refuse them; this table plays on)."""
    def table(data):
        data["procedure"]["dealer"]["winner_deals"] = False
        data["procedure"]["knock"]["locks_hand"] = False
    corpus = ROOT / "corpus" / "shanghai-knocking-procedure.jsonl"
    classes = run(tmp_path, corpus, engine(edited_runner(tmp_path, "shanghai-knocking", table)))
    assert named(classes) == {"procedure:dealer.winner_deals=false", "procedure:knock.locks_hand=false"}
    # (the corpus's concealed kong after the knock, refused under knock_concealed_kong=never, is a class of its own:
    # the rule cited is the option's; the unlocked table lets it stand too, and a hand of play the search finds, a
    # claim after the knock under that reading, tells "the lock is off" from "the option is not read")
    assert {c["signature"] for c in classes} == {
        "next_dealer differs", "expected the hand illegal (procedure.knock_locks_hand), engine: unfinished (procedure.turn)",
        "expected the hand illegal (option.knock_concealed_kong), engine: unfinished (procedure.turn)"}


# ----------------------------------------------------------------------- evidence

def test_with_no_probe_a_cause_no_passing_case_checked_is_not_named(tmp_path):
    """MCR with a base of 10 (the guide: 8): every case that wins fails, so the causes are checked against the
    few refused cases at most. Asked no probe, the run says so; asked probes, the base is confirmed."""
    def base_10(data):
        data["settlement"]["base"] = 10
    edited = edited_runner(tmp_path, "mcr", base_10)
    confirmed = run(tmp_path / "probed", MCR, engine(edited))
    assert named(confirmed) == {"base=10"}
    unprobed = run(tmp_path / "unprobed", MCR, engine(edited), probes=0)
    for c in unprobed:
        for e in c["cause"]["explained_by"]:
            assert e["passing_checked"] > 0 and e["evidence"] == "untested", e
            assert "no engine to ask" in e["why_untested"] or "probes were spent" in e["why_untested"]


def test_every_probe_is_recorded_and_report_rebuilds_the_same_causes_without_the_engine(tmp_path):
    from typer.testing import CliRunner

    from checker.cli import app

    def konger_once(data):
        data["settlement"]["robbing_kong"]["discarder"] = 1
    run(tmp_path, KNOCKING, engine(edited_runner(tmp_path, "shanghai-knocking", konger_once)))
    out = tmp_path / "out"
    before = (out / "summary.json").read_bytes()
    probes = [json.loads(line) for line in (out / "probes.jsonl").read_text(encoding="utf-8").splitlines()]
    assert probes and all(p["case"]["input"] and p["answer"] for p in probes)
    result = CliRunner().invoke(app, ["report", str(out)])
    assert result.exit_code == 0, result.output
    assert (out / "summary.json").read_bytes() == before
    assert "confirmed by" in (out / "report.md").read_text(encoding="utf-8")


# ----------------------------------------------------------------------- errors by kind

def test_errors_are_classed_by_kind_and_a_known_pattern_declares_only_its_own(tmp_path):
    """Three ways of failing: a KeyError on hands with flowers, 'not supported' naming the tiles of a kong, and an
    answer that is not a result on hands won by robbing a kong (checked in that order)."""
    reference = CaseRunner()

    def erring(case):
        data = case["input"]
        if data.get("flowers"):
            raise KeyError("flowers")
        kongs = [m["tiles"] for m in data.get("melds") or [] if m["type"] == "kong"]
        if kongs:
            raise ValueError(f"not supported: {kongs[0]} in case {case.get('id')}")
        if data.get("win_by") == "robbing_kong":
            return ["not", "a", "result"]
        return reference.run(case)
    classes = run(tmp_path, MCR, erring)
    errors = sorted(c["signature"] for c in classes if c["outcome"] == "errored")
    assert len(errors) == 3, errors
    # the message as the runner quotes it, its varying parts masked: the tiles, the case's id, the line number
    assert any(e.startswith("errored: raised KeyError:") and "flowers" in e for e in errors)
    assert any("not supported: ‹tiles› in case ‹id›" in e for e in errors)
    known = tmp_path / "known.yaml"
    known.write_text('classes:\n  - {signature: "errored: raised ValueError: \'not supported*", note: kongs}\n',
                     encoding="utf-8")
    declared, _ = declare(load_known(str(known)), classes)
    assert [c["signature"] for c in declared if c["declared"]] == [e for e in errors if "not supported" in e]


def test_a_refusal_is_never_explained_by_a_refusal_of_another_rule_of_the_spec(tmp_path):
    """The engine refuses hands with no flowers won on a discard naming the spec's own minimum rule
    (`win.minimum_points`, an id the spec has): a departure that refuses them by another rule of the spec does
    not reproduce the answer, and the minimum, which would name the same rule, refuses hands the engine wins."""
    classes = run(tmp_path, KNOCKING, refusing_no_flower_discards("win.minimum_points"))
    for c in classes:
        for e in c["cause"].get("explained_by") or []:
            assert not e["id"].startswith("minimum="), e


# ----------------------------------------------------------------------- reproducers that show the engine

NO_FLOWER_ENGINE = '''\
from checker.case import CaseRunner

_reference = CaseRunner()


def score(case):
    data = case["input"]
    if data.get("win_by") == "discard" and not data.get("flowers"):
        return {"valid": False, "error": "no_flower_discard"}
    return _reference.run(case)
'''


def test_a_class_reproducer_puts_its_witness_and_probes_to_the_engine_and_shows_both_answers(tmp_path, monkeypatch):
    """conform writes each class's witness and probes to DIR/reproducers/class-N.jsonl with the command that puts
    them to the engine; `mjcheck reproduce` shows, case by case, the reference's result and the engine's answer."""
    from typer.testing import CliRunner

    from checker.cli import app

    (tmp_path / "no_flower_engine.py").write_text(NO_FLOWER_ENGINE, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    out = tmp_path / "out"
    r = CliRunner().invoke(app, ["conform", "--corpus", str(KNOCKING), "--engine", "python:no_flower_engine:score",
                                 "--out", str(out)])
    assert r.exit_code == 1, r.output
    (c,) = json.loads((out / "summary.json").read_text(encoding="utf-8"))["classes"]
    assert c["reproducer_file"] == "reproducers/class-1.jsonl"  # named within the run's folder
    assert c["reproduce_engine"] == "mjcheck reproduce --engine python:no_flower_engine:score reproducers/class-1.jsonl"
    lines = [json.loads(line) for line in (out / c["reproducer_file"]).read_text(encoding="utf-8").splitlines()]
    probes = c["cause"]["explained_by"][0]["probes"]
    assert [case["id"] for case in lines] == [c["witness"]["id"]] + [p["case"]["id"] for p in probes]
    assert c["reproduce_engine"] in (out / "report.md").read_text(encoding="utf-8")
    monkeypatch.chdir(out)
    shown = CliRunner().invoke(app, ["reproduce", "--engine", "python:no_flower_engine:score", c["reproducer_file"]])
    assert shown.exit_code == 1  # the engine departs from every case's expectation (each a win with no flowers)
    assert shown.output.count("the engine departs") == len(lines)
    assert shown.output.count('engine:    {"valid": false, "error": "no_flower_discard"}') == len(lines)
    assert shown.output.count('reference: {"valid": true') == len(lines)
    same = CliRunner().invoke(app, ["reproduce", "--engine", "reference", c["reproducer_file"]])
    assert same.exit_code == 0 and same.output.count("the engine agrees") == len(lines)


def test_fans_outside_the_spec_explain_only_what_their_worth_accounts_for(tmp_path):
    """MCR: the engine calls All simples `tanyao` (2 points, as the spec's) and adds 5 to every total besides. The
    outside fan accounts for the fans, not for the total: no cause may say the class is explained by it."""
    from test_diagnose import renamed
    rename = renamed("all_simples", "tanyao")
    reference = CaseRunner()

    def answer(case):
        result = rename(reference.run(case))
        if result.get("valid") and any(f["id"] == "tanyao" for f in result.get("fans", [])):
            return {**result, "total": result["total"] + 5}
        return result
    done = run_conformance(str(MCR), InProcessEngine(answer, EngineInfo("planted", "1")), str(tmp_path / "out"))
    c = next(c for c in done.summary["classes"] if "tanyao" in c["signature"])  # (largest first)
    assert "total differs" in c["signature"]
    whole = [e for e in c["cause"]["explained_by"] if e["explains"] == e["of"]]
    assert not any(e["id"] == "outside:tanyao" for e in whole), c["cause"]["verdict"]


def test_one_fan_outside_the_spec_in_place_of_two_is_named_whole_with_no_made_up_exclusion(tmp_path):
    """MCR: a hand with a concealed kong and a melded kong (Concealed kong 2 + Melded kong 1 in the table) is
    scored one fan of the engine's own, 明暗杠, worth 5. The engine is the reference with Concealed kong worth 4
    on those hands (so its total and payments are what 5 points make them), the two fans answered as one. The
    cause is the outside fan in place of both; no exclusion between other fans is made up to pair them off."""
    edited = edited_runner(tmp_path, "mcr", lambda data: pattern(data, "concealed_kong").update(points=4))
    reference = CaseRunner()

    def answer(case):
        result = reference.run(case)
        ids = {f["id"] for f in result.get("fans", [])} if "either" not in result else set()
        if not {"concealed_kong", "melded_kong"} <= ids:
            return result
        result = edited.run(case)
        fans = [f for f in result["fans"] if f["id"] not in ("concealed_kong", "melded_kong")]
        return {**result, "fans": fans + [{"id": "明暗杠", "points": 5, "count": 1}]}
    classes = run(tmp_path, MCR, answer)
    assert named(classes) == {"outside:明暗杠"}
    assert all("in place of concealed_kong, melded_kong" in e["words"]
               for c in classes for e in c["cause"]["explained_by"])


def test_a_class_whose_share_of_the_effort_ran_out_says_how_far_it_got_and_names_nothing(tmp_path):
    """With an effort of 300 re-scorings the Full flush class (Full flush worth 32) is stopped in its own search:
    it names no cause, says how many candidates it screened and what --effort would screen them all."""
    import re

    from checker.conform.results import read_results
    from checker.diagnose import classes_of
    from checker.diagnose.causes import CauseSearch

    def full_flush_32(data):
        pattern(data, "full_flush")["points"] = 32
    run(tmp_path, MCR, engine(edited_runner(tmp_path, "mcr", full_flush_32)))
    results = read_results(str(tmp_path / "out" / "results.jsonl"))
    (cause,) = CauseSearch(results, effort=300).explain_all(classes_of(results))
    assert not cause.explanations
    said = re.search(r"with (\d+) of its (\d+) candidate departures screened; --effort (\d+) would", cause.verdict)
    assert said is not None, cause.verdict
    done, of, effort = map(int, said.groups())
    assert 0 < done < of and effort >= -(-of // done)  # so many times the effort screens every candidate


def test_an_input_disagreement_is_put_to_the_engine_with_other_cases_of_that_form(tmp_path):
    """An engine that errs on every hand won by robbing a kong does not take that form: probes of other such hands
    confirm it. One that errs on the corpus's robbing-kong cases by their ids alone takes the form well: a probe
    of another hand won by robbing a kong shows it, and the disagreement is not named."""
    reference = CaseRunner()

    def by_form(case):
        if case["input"].get("win_by") == "robbing_kong":
            raise ValueError("robbing the kong is not supported")
        return reference.run(case)
    erring = {json.loads(line)["id"] for line in MCR.read_text(encoding="utf-8").splitlines()
              if json.loads(line)["input"].get("win_by") == "robbing_kong"}

    def by_id(case):
        if case.get("id") in erring:
            raise ValueError("this case is not supported")
        return reference.run(case)
    (form,) = run(tmp_path / "form", MCR, by_form)
    (disagreement,) = form["cause"]["explained_by"]
    assert (disagreement["id"], disagreement["evidence"]) == ("input:a win by robbing_kong", "confirmed")
    (ids,) = run(tmp_path / "ids", MCR, by_id)
    assert not ids["cause"]["explained_by"]
    assert [e["id"] for e in ids["cause"]["contradicted"]] == ["input:a win by robbing_kong"]


def test_a_probe_answer_changed_in_the_record_is_not_read_and_nothing_is_confirmed_by_it(tmp_path):
    """probes.jsonl carries each line's checksum: an answer edited by hand does not hold, so `mjcheck report`
    does not read it; the cause it confirmed is then said to be untested, never confirmed by a forged answer."""
    from typer.testing import CliRunner

    from checker.cli import app

    def konger_once(data):
        data["settlement"]["robbing_kong"]["discarder"] = 1
    run(tmp_path, KNOCKING, engine(edited_runner(tmp_path, "shanghai-knocking", konger_once)))
    out = tmp_path / "out"
    lines = (out / "probes.jsonl").read_text(encoding="utf-8").splitlines()
    assert lines and all(line.endswith('"}') and ',"sum":"' in line for line in lines)
    forged = [line.replace('"valid": true', '"valid": false') for line in lines]
    assert forged != lines  # (each answer a win, the konger paying once)
    (out / "probes.jsonl").write_text("".join(line + "\n" for line in forged), encoding="utf-8")
    assert CliRunner().invoke(app, ["report", str(out)]).exit_code == 0
    (c,) = json.loads((out / "summary.json").read_text(encoding="utf-8"))["classes"]
    (e,) = c["cause"]["explained_by"]
    assert e["evidence"] == "untested" and "not recorded" in e["why_untested"]


def test_a_rival_no_case_tells_apart_is_named_beside_the_cause_saying_so(tmp_path):
    """MCR: the engine follows two_concealed_kongs_points=6. The option's reading and the points edit of Two
    concealed kongs to 6 make the same spec: no case can tell them apart, and the cause says so."""
    reference = CaseRunner()

    def other_reading(case):
        return reference.run({**case, "options": {**(case.get("options") or {}), "two_concealed_kongs_points": 6}})
    classes = run(tmp_path, MCR, other_reading)
    beside = [r for c in classes for e in c["cause"]["explained_by"] for r in e.get("or_equally") or []]
    assert beside and all(r["words"].endswith("(no case the tool built tells them apart)") for r in beside)


def test_reproducers_are_not_written_through_a_link_planted_in_the_runs_folder(tmp_path):
    from typer.testing import CliRunner

    from checker.cli import app

    out, elsewhere = tmp_path / "out", tmp_path / "elsewhere"
    out.mkdir()
    elsewhere.mkdir()
    (out / "reproducers").symlink_to(elsewhere)
    (tmp_path / "no_flower_engine.py").write_text(NO_FLOWER_ENGINE, encoding="utf-8")
    import sys
    sys.path.insert(0, str(tmp_path))
    try:
        r = CliRunner().invoke(app, ["conform", "--corpus", str(KNOCKING), "--engine", "python:no_flower_engine:score",
                                     "--out", str(out)])
    finally:
        sys.path.remove(str(tmp_path))
    assert r.exit_code == 2 and "reproducers" in r.output and "Traceback" not in r.output
    assert list(elsewhere.iterdir()) == []


def test_reproduce_refuses_a_file_with_no_case(tmp_path):
    from typer.testing import CliRunner

    from checker.cli import app

    empty = tmp_path / "empty.jsonl"
    empty.write_text("", encoding="utf-8")
    r = CliRunner().invoke(app, ["reproduce", "--engine", "reference", str(empty)])
    assert r.exit_code == 2 and "no case to reproduce" in r.output


def test_a_witness_in_words_writes_flowers_given_as_a_list_as_tiles_and_options_as_the_command_line_does():
    """The case format takes flowers as a string of tiles or a list of them; a class witness says either as
    tiles (`1f2f`), never as a Python list, and its options as `mjcheck score --option` writes them."""
    from types import SimpleNamespace

    from checker.diagnose.classes import in_words

    case = SimpleNamespace(input={"concealed": "1m1m", "win_tile": "1m", "win_by": "self_draw",
                                  "flowers": ["1f", "2f"], "flags": {"knocked": True}},
                           options={"fig_then_doubled": False})
    said = in_words(case)
    assert "flowers 1f2f" in said and "['1f'" not in said
    assert "options: fig_then_doubled=false" in said


def test_a_cause_told_only_from_its_rival_on_hands_where_it_answers_as_the_rules_is_not_confirmed():
    """A probe against a rival where the hypothesis gives the rules' own answer tells it from that rival, not from
    the rules: if no probe on which it departs from the rules held, it stays untested. Hand-built answers: on case
    A the rules and the hypothesis both give 10 points and the rival 12; on case B the hypothesis gives 20 where
    the rules give 10. The engine answers A with 10 (the rival is out) and, in the second trial, B with 20."""
    from types import SimpleNamespace

    from checker.diagnose.probes import CONFIRMED, UNTESTED, Experiments, Prober

    def result(total):
        return {"valid": True, "fans": [{"id": "x", "points": total}], "total": total}

    by_case = {"A": {None: 10, "hyp": 10, "rival": 12}, "B": {None: 10, "hyp": 20, "rival": 20}}

    class Rescorer:
        def result(self, case, m):
            return result(by_case[case["input"]["name"]][None if m is None else m.id])

    def case(name):
        return {"ruleset": "r", "options": {}, "kind": "score", "input": {"name": name}}

    class Built(Experiments):
        def __init__(self, names, engine):
            super().__init__(Rescorer(), Prober(lambda cases: [result(engine[c["input"]["name"]]) for c in cases]),
                             lambda ruleset: ())
            self.names = names

        def _candidates(self, ruleset, members, naming=frozenset()):
            yield from (case(n) for n in self.names)

    ruleset = SimpleNamespace(id="r", patterns=())
    hyp, rival = SimpleNamespace(id="hyp", option_ids=frozenset()), SimpleNamespace(id="rival", option_ids=frozenset())
    only_rival = Built(["A"], {"A": 10}).trial(ruleset, [], hyp, [rival])
    assert only_rival.status == UNTESTED and [p.holds for p in only_rival.probes] == [True]
    assert "only from its rivals" in only_rival.why
    both = Built(["B", "A"], {"A": 10, "B": 20}).trial(ruleset, [], hyp, [rival])
    assert both.status == CONFIRMED and [p.departs for p in both.probes] == [True, False]


def test_a_win_refused_in_one_shape_is_named_by_the_shape(tmp_path):
    """An MCR engine that refuses a win read as seven pairs, by its own rule id (its spec: win.refused_when with
    shape seven_pairs), so a hand that also reads as four sets and a pair wins that way. The cause written by
    hand: a win read as seven pairs is refused (refusal:shape_seven_pairs), confirmed by other seven-pairs hands
    put to it, and nothing else named."""
    def no_seven_pairs(data):
        data["win"].setdefault("refused_when", []).append(
            {"rule": "engine.no_seven_pairs", "message": "seven pairs is not played here", "shape": "seven_pairs"})

    classes = run(tmp_path, MCR, engine(edited_runner(tmp_path, "mcr", no_seven_pairs)))
    assert named(classes) == {"refusal:shape_seven_pairs"}


def test_the_hands_of_play_changed_into_probes_are_bounded_by_the_effort(monkeypatch):
    """checker.diagnose.probes.changed_hands reads CHANGED_FROM hands with CHANGES_TRIED changed logs each at
    effort 1, and so many times over at a greater effort (a count, not a time)."""
    from types import SimpleNamespace

    from checker.diagnose import probes

    calls: list[int] = []

    def fake_witnesses(header, events, rules, budget):
        calls.append(budget)
        return {}

    monkeypatch.setattr(probes, "witnesses", fake_witnesses)
    hands = [{"wall": "", "dealer": 0, "events": []}] * (probes.CHANGED_FROM * 3)
    ruleset = SimpleNamespace(id="mcr")
    assert list(probes.changed_hands(ruleset, hands, {"procedure.claims"})) == []
    assert calls == [probes.CHANGES_TRIED] * probes.CHANGED_FROM
    calls.clear()
    list(probes.changed_hands(ruleset, hands, {"procedure.claims"}, effort=2))
    assert calls == [2 * probes.CHANGES_TRIED] * (2 * probes.CHANGED_FROM)


# ----------------------------------------------------------------------- a second departure a probe shows

def test_a_probe_showing_a_second_departure_no_class_shows_is_explained_not_taken_as_a_contradiction(tmp_path):
    """MCR, the engine reading fully_concealed_with_concealed_shapes=false (Seven pairs and the like take Self drawn,
    not Fully concealed hand) and nine_gates_terminal_pungs=one (Nine gates counts one Pung of terminals). The
    corpus holds only self-drawn Seven shifted pairs hands, so its one class shows the first reading alone; a probe,
    the self-drawn Nine gates 1112345678999m + 5m, is answered Nine gates 88, Self drawn 1, Two concealed pungs 2
    and Pung of terminals or honors 1: the first reading predicts all but the pung. The probe's answer is a case to
    explain: with the second reading both predict it, so the first is named, its words saying what the probe
    showed besides it, confirmed, and not left unexplained. The engine follows a case that names the options: the
    reading is named as its default (a probe naming the option at the spec's value tells the two apart)."""
    from checker.mutate import Rescorer
    from checker.mutate.readings import option_readings

    def two_readings(case):  # the engine's own defaults, where a case leaves the options out
        readings = {"fully_concealed_with_concealed_shapes": False, "nine_gates_terminal_pungs": "one"}
        return {**case, "options": {**readings, **(case.get("options") or {})}}
    mcr = load_ruleset("mcr")
    fc = next(m for m in option_readings(mcr) if m.id == "option:fully_concealed_with_concealed_shapes=false")
    rescorer = Rescorer()
    chosen = []
    for line in MCR.read_text(encoding="utf-8").splitlines():
        case = json.loads(line)
        fans = {f["id"] for f in case["expect"].get("fans") or []}
        if "seven_shifted_pairs" in fans and not case.get("options") \
                and case["input"].get("win_by", "self_draw") == "self_draw" \
                and rescorer.result(case, fc) != rescorer.result(case, None):
            chosen.append(line)
    assert chosen
    corpus = tmp_path / "seven-shifted-pairs.jsonl"
    corpus.write_text("\n".join(chosen) + "\n", encoding="utf-8")
    classes = run(tmp_path, corpus, engine(read=two_readings))
    assert named(classes) == {"default:fully_concealed_with_concealed_shapes=false"}
    (explained,) = {e["id"]: e for c in classes for e in c["cause"]["explained_by"]}.values()
    assert "the departures its probes showed besides it" in explained["words"]
    assert "nine_gates_terminal_pungs=one" in explained["words"], explained["words"]


def test_an_engine_s_own_default_reads_a_silent_case_its_way_and_a_case_naming_the_option_as_it_says():
    """The guide's 79-point hand (1m1m1m 2m2m2m 3p3p3p 4s4s4s and 5m, self-drawn on 5m): Four concealed pungs 64, Mixed
    shifted pungs 8, Fully concealed hand 4, Pung of terminals or honors 1, No honors 1, Single wait 1. Under the
    default four_concealed_pungs_with_fully_concealed=false a case that names no option loses Fully concealed hand
    and gains Self drawn: 79 - 4 + 1 = 76; one naming the option true stays 79. The reading itself (which overrides
    a case's value) gives 76 to both; the two set one option, and probes between them name it at the spec's
    value."""
    from checker.diagnose.probes import options_named
    from checker.mutate import Rescorer
    from checker.mutate.readings import default_readings, option_readings

    mcr = load_ruleset("mcr")
    default = next(m for m in default_readings(mcr) if m.id == "default:four_concealed_pungs_with_fully_concealed=false")
    reading = next(m for m in option_readings(mcr) if m.id == "option:four_concealed_pungs_with_fully_concealed=false")
    silent = {"ruleset": "mcr", "options": {}, "kind": "score",
              "input": {"concealed": "1m1m1m2m2m2m3p3p3p4s4s4s5m", "melds": [], "win_tile": "5m", "win_by": "self_draw",
                        "discarder": None, "seat_wind": "E", "round_wind": "E", "flowers": "", "flags": {}}}
    (named,) = options_named(mcr, [silent], {"four_concealed_pungs_with_fully_concealed"})
    assert named["options"] == {"four_concealed_pungs_with_fully_concealed": True}
    rescorer = Rescorer()
    assert rescorer.result(silent, None)["total"] == 79
    assert [rescorer.result(c, default)["total"] for c in (silent, named)] == [76, 79]
    assert [rescorer.result(c, reading)["total"] for c in (silent, named)] == [76, 76]
    assert default.targets == reading.targets and default.option_ids == reading.option_ids


def test_probes_feed_every_claimed_pung_and_kong_from_one_seat_and_leave_chows_and_concealed_kongs():
    """A rule that reads who fed the melds (a contract made by claims from one seat) shows on hands whose sources
    alone differ: each seat in turn feeds every claimed pung and kong; a chow (only one seat may feed it) and a
    concealed kong stay as they were; a hand with one such meld gives none."""
    from checker.diagnose.probes import sourced

    melds = [{"type": "pung", "tiles": "1m1m1m", "from": 1}, {"type": "kong", "tiles": "2p2p2p2p", "from": 2},
             {"type": "chow", "tiles": "4s5s6s", "from": 3}, {"type": "kong", "tiles": "7z7z7z7z", "concealed": True}]
    case = {"ruleset": "shanghai-classic", "kind": "score", "input": {"melds": melds, "win_tile": "9m"}}
    fed = list(sourced([case, {**case, "input": {"melds": melds[:1] + melds[2:]}}]))
    assert [[m.get("from") for m in c["input"]["melds"]] for c in fed] == \
        [[1, 1, 3, None], [2, 2, 3, None], [3, 3, 3, None]]
    assert all(c["input"]["win_tile"] == "9m" and c["ruleset"] == "shanghai-classic" for c in fed)
    assert melds[0]["from"] == 1 and melds[1]["from"] == 2  # the case itself is left as it was


def test_a_probe_whose_answer_fits_both_hypotheses_tells_nothing():
    """A probe built to tell a hypothesis from a rival, the two differing only in the fan they list (x or y, both
    spec fans, the same 10 points): an engine that lists neither, but a fan of its own (z) at the same money, fits
    both as it writes its answers; the probe holds neither way and says so, and the hypothesis is not confirmed by
    it. Hand-built answers, no reference engine."""
    from types import SimpleNamespace

    from checker.diagnose.probes import CONFIRMED, Experiments, Prober

    def result(fan):
        return {"valid": True, "fans": [{"id": fan, "points": 10, "count": 1}], "total": 10,
                "payments": [30, -10, -10, -10]}

    class Rescorer:
        def result(self, case, m):
            return result({None: "x", "hyp": "x", "rival": "y"}[None if m is None else m.id])

    class Built(Experiments):
        def _candidates(self, ruleset, members, naming=frozenset()):
            yield {"ruleset": "r", "options": {}, "kind": "score", "input": {"name": "C"}}

    ruleset = SimpleNamespace(id="r", patterns=(SimpleNamespace(id="x"), SimpleNamespace(id="y")))
    built = Built(Rescorer(), Prober(lambda cases: [result("z") for _ in cases]), lambda ruleset: ())
    trial = built.trial(ruleset, [], SimpleNamespace(id="hyp", option_ids=frozenset()),
                        [SimpleNamespace(id="rival", option_ids=frozenset())])
    (probe,) = [p for p in trial.probes if p.against == "rival"]
    assert probe.holds is None and "fits both" in probe.elsewhere
    assert trial.status != CONFIRMED


def test_a_class_that_screened_every_candidate_before_its_share_ran_out_says_so():
    """The words on a class whose share of the effort ran out after every candidate was screened (in its pairs or
    later rounds) name no number of candidates left to screen: all were screened."""
    from checker.diagnose.explanation import Cause

    done = Cause((), 7, stopped=32_040, share=True, screened=(275, 275), effort=1).verdict
    assert "all 275 of its candidate departures screened, in its pairs and later rounds" in done
    assert "--effort 2 or more gives it more" in done and "would screen them all" not in done
    part = Cause((), 7, stopped=32_040, share=True, screened=(45, 173), effort=1).verdict
    assert "with 45 of its 173 candidate departures screened; --effort 4 would screen them all" in part


def reading_unfit_input_as_absent(case):
    """Classic: a kong_replacement flag where it does not fit (no kong among the melds, or a win not self-drawn)
    and a contract_with counter outside 0–3 are dropped, not refused: the hand is scored without them."""
    data = dict(case["input"])
    flags = dict(data.get("flags") or {})
    if flags.get("kong_replacement") and (data.get("win_by", "self_draw") != "self_draw" or
                                          not any(m["type"] == "kong" for m in data.get("melds") or [])):
        flags.pop("kong_replacement")
    counters = dict(data.get("counters") or {})
    if counters.get("contract_with", 0) not in (0, 1, 2, 3):
        counters.pop("contract_with")
    return {**case, "input": {**data, "flags": flags, "counters": counters}}


def test_a_flag_and_a_counter_read_as_absent_where_the_rules_refuse_them_are_named_so(tmp_path):
    """Not "the check is not made" (a kong_replacement flag would then make 杠开 on a hand with no kong) nor "the
    flag / the counter is ignored" (it counts where it fits): the input the rules refuse is read as absent, and
    the probes (a self-drawn hand with no kong; a contract at seat 2) tell these apart."""
    classes = run(tmp_path, CLASSIC, engine(read=reading_unfit_input_as_absent))
    assert named(classes) == {"flag-unfit-ignored:kong_replacement", "counter-out-of-range-ignored:contract_with"}


def _hand_of_play(seat3_fans, payments=(-40, 20, 0, 20)):
    """A hand of play won on one discard by seats 1 and 3, each a share of 20 (a 2 勒 hand with no 底分)."""
    return {"verdict": "legal", "ended": "win", "payments": list(payments), "next_dealer": 2,
            "winners": [{"seat": 1, "win_by": "discard", "total": 20,
                         "fans": [{"id": "qing_yi_se", "points": 1, "count": 1}]},
                        {"seat": 3, "win_by": "discard", "total": 20, "fans": seat3_fans}]}


def _fan(fan_id, points=1, count=1):
    return {"id": fan_id, "points": points, "count": count}


def test_a_hand_of_play_answered_as_predicted_but_for_fans_the_hypothesis_gives_as_the_rules_met_another_departure():
    """probes.met_elsewhere on hands of play. The rules pay seat 3 a share of 22 (底分 2 + 2 勒, payments -44/22/0/22)
    and list wind_pung ×4, hun_peng and men_qing at 1; the hypothesis (no 底分, 门清 at 2) pays 20 and lists men_qing
    at 2, wind_pung ×4 as the rules do. An engine paying 20 and listing seat 3 without its wind pungs answers as the
    hypothesis wherever it moves the rules, and lists otherwise only a fan the hypothesis leaves as the rules have
    it: it met another departure (the words name seat 3's wind_pung). One listing men_qing at 1 differs in a fan the
    hypothesis moves, and one paying 22 in the payments: neither met another departure (""). Hand-built answers."""
    from checker.diagnose.probes import met_elsewhere

    rules = _hand_of_play([_fan("wind_pung", 1, 4), _fan("hun_peng"), _fan("men_qing")], (-44, 22, 0, 22))
    rules["winners"][0]["total"] = rules["winners"][1]["total"] = 22
    mine = _hand_of_play([_fan("wind_pung", 1, 4), _fan("hun_peng"), _fan("men_qing", 2)])
    listed_otherwise = _hand_of_play([_fan("hun_peng"), _fan("men_qing", 2)])
    said = met_elsewhere(listed_otherwise, mine, rules, "shanghai-classic")
    assert "seat 3's wind_pung" in said and "hun_peng" not in said
    assert met_elsewhere(_hand_of_play([_fan("hun_peng"), _fan("men_qing", 1)]), mine, rules, "shanghai-classic") == ""
    paid_otherwise = _hand_of_play([_fan("hun_peng"), _fan("men_qing", 2)], (-44, 22, 0, 22))
    assert met_elsewhere(paid_otherwise, mine, rules, "shanghai-classic") == ""
    assert met_elsewhere(mine, mine, rules, "shanghai-classic") == ""  # (as predicted: nothing met)


def test_a_probe_of_one_part_answered_as_predicted_but_for_fans_both_sides_list_alike_bears_the_part_out():
    """Experiments._between on a hand of play: a probe telling A + B (no 底分: 20 a share) from B alone (22), both
    listing seat 3's wind_pung ×4. The engine pays 20 and lists no wind pung: it answers as A + B wherever the two
    part and lists otherwise only a fan both give alike, so the probe bears A + B out, saying where it listed
    otherwise. Answering as B alone predicts (22) leaves it against A + B (held False). Hand-built answers."""
    from types import SimpleNamespace

    from checker.diagnose.probes import Experiments, Probe, Prober

    seat3 = [_fan("wind_pung", 1, 4), _fan("hun_peng")]
    mine, theirs = _hand_of_play(seat3), _hand_of_play(seat3, (-44, 22, 0, 22))
    theirs["winners"][0]["total"] = theirs["winners"][1]["total"] = 22
    ruleset = SimpleNamespace(id="shanghai-classic", patterns=(SimpleNamespace(id="wind_pung"),
                                                               SimpleNamespace(id="hun_peng")))
    experiments = Experiments(SimpleNamespace(result=lambda case, m: None), Prober(None), lambda r: ())
    case = {"id": "probe-1", "ruleset": "shanghai-classic", "kind": "procedure", "input": {}, "expect": theirs}
    joint, rest = (SimpleNamespace(id=i, option_ids=frozenset()) for i in ("a + b", "b"))

    def between(answer):
        return experiments._between(ruleset, Probe(case, mine, "a + b without a", theirs, answer, False), joint, rest)
    borne = between(_hand_of_play([_fan("hun_peng")]))
    assert borne.holds is True and "seat 3's wind_pung" in borne.elsewhere
    assert between(theirs).holds is False
