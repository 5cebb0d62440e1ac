"""Hostile and careless input, one regression test per reproducer: no file is read through a case field, no
traceback, no lost batch line, bounded resources and messages, one exit-status rule for every mode.

The property-based fuzzing of every input surface is in test_hostile.py; these are the fixed reproducers.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from checker.cli import app
from checker.inputs import MAX_CASE_LINE_BYTES, bounded, excerpt
from checker.spec import spec_dir

runner = CliRunner()
CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "mcr-examples.jsonl"
GOOD = CORPUS.read_text(encoding="utf-8").splitlines()[0]  # the guide's regular self-draw, 11 points
PASSWD_LINE = "root:x:0:0"


def run(*args, input=None):
    result = runner.invoke(app, list(args), input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    assert result.exit_code in (0, 1, 2)
    return result


def case(**changes) -> dict:
    """The corpus's first case with fields of its input (or of the case) replaced."""
    data = json.loads(GOOD)
    for key, value in changes.items():
        if key in data["input"] or key in ("flags", "counters", "melds"):
            data["input"][key] = value
        else:
            data[key] = value
    return data


def batch_lines(output: str) -> list[dict]:
    return [json.loads(line) for line in output.splitlines() if line.startswith("{")]


# ----------------------------------------------------------------------------- 1. a case names a ruleset by id

@pytest.mark.parametrize("field", ["/etc/passwd", "../../../../etc/passwd", "/dev/zero", ".", "", "mcr.yaml",
                                   "spec/mcr.yaml", "x" * 300])
def test_a_case_ruleset_field_is_never_opened(field):
    line = json.dumps({"ruleset": field, "kind": "score", "input": {"concealed": "1m", "win_tile": "1m"}})
    r = run("score", "--batch", "-", input=line + "\n")
    assert r.exit_code == 2
    out = batch_lines(r.output)
    assert len(out) == 1 and out[0]["line"] == 1 and "/ruleset" in out[0]["message"]
    assert PASSWD_LINE not in r.output and len(r.output) < 2000


def test_a_fifo_named_by_a_case_is_not_opened(tmp_path):
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)  # opening it for reading would block for ever
    line = json.dumps({"ruleset": str(fifo), "kind": "score", "input": {"concealed": "1m", "win_tile": "1m"}})
    r = run("score", "--batch", "-", input=line + "\n")
    assert r.exit_code == 2 and "/ruleset" in batch_lines(r.output)[0]["message"]


def test_unknown_ruleset_id_lists_the_known_ones():
    r = run("score", "--batch", "-", input=json.dumps(case(ruleset="riichi")) + "\n")
    message = batch_lines(r.output)[0]["message"]
    assert r.exit_code == 2 and "unknown ruleset 'riichi'" in message and "shanghai-classic" in message


def test_ruleset_on_the_command_line_is_an_id_not_a_path():
    r = run("score", "-r", str(spec_dir() / "mcr.yaml"), "1m1m1m2m2m2m3p3p3p4s4s4s5m5m")
    assert r.exit_code == 2 and "--ruleset-file" in r.output


@pytest.fixture()
def my_mcr(tmp_path) -> Path:
    """mcr.yaml under the id my-mcr with All simples worth 3 points instead of 2."""
    data = yaml.safe_load((spec_dir() / "mcr.yaml").read_text(encoding="utf-8"))
    data["id"] = "my-mcr"
    next(p for p in data["patterns"] if p["id"] == "all_simples")["points"] = 3
    path = tmp_path / "my-mcr.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path


def test_ruleset_file_scores_a_hand_and_serves_cases_by_its_id(my_mcr):
    # The guide's regular self-draw: Mixed triple chow 8 + All simples (3 in this copy) + Self drawn 1 = 12;
    # self-drawn under MCR each opponent pays 8 + 12 = 20, the winner gets 60.
    r = run("score", "--ruleset-file", str(my_mcr), "2p3p4p2s3s4s6m6m6m5p", "--win", "5p", "--meld", "chow:234m",
            "--json")
    assert r.exit_code == 0 and json.loads(r.output)["total"] == 12
    line = json.dumps(case(ruleset="my-mcr", expect={"valid": True, "total": 12, "payments": [60, -20, -20, -20]}))
    r = run("score", "--ruleset-file", str(my_mcr), "--batch", "-", input=line + "\n")
    assert r.exit_code == 0 and batch_lines(r.output)[0]["matches"] is True
    # Without the file, the id is unknown: the case cannot reach the spec by any field of its own.
    r = run("score", "--batch", "-", input=line + "\n")
    assert r.exit_code == 2 and "unknown ruleset 'my-mcr'" in batch_lines(r.output)[0]["message"]


# ----------------------------------------------------------------------------- 2. counters have a range

CLASSIC_WIN = ("-r", "shanghai-classic", "1m1m1m2m2m2m3m3m3m4m4m4m5m", "--win", "5m", "--flag", "knocked")


@pytest.mark.parametrize("value", ["20000", "1000000000", "100"])
def test_huangfan_outside_its_range_is_refused_naming_the_range(value):
    r = run("score", *CLASSIC_WIN, "--counter", f"huangfan={value}")
    assert r.exit_code == 2 and "huangfan" in r.output and "0 to 99" in r.output and "input.counters" in r.output


def test_huangfan_at_the_top_of_its_range_scores():
    # The hand reads two ways, equally scored. As 清一色 (pungs read as chows) it settles at 1 勒 (10) and 门清
    # doubles it to 20; as 清碰 (all pungs) it settles at 2 勒 (20), 门清 capped at 2 勒. Either way 99 荒番 double
    # value and cap 99 times: 20 × 2^99, a whole number far past any machine word. The single-hand limit of 5 勒
    # bounds what each payer loses ("玩家一局最多只输5个勒子", the default scope whole_loss): 50 of value, and
    # 底分 2: 52; the winner gets 156.
    r = run("score", *CLASSIC_WIN, "--counter", "huangfan=99", "--json")
    result = json.loads(r.output)
    assert r.exit_code == 0
    assert {frozenset(f["id"] for f in x["fans"]) for x in result["either"]} == {
        frozenset({"qing_yi_se", "men_qing", "huang_fan"}), frozenset({"qing_peng", "men_qing", "huang_fan"})}
    assert all(x["total"] == 20 * 2 ** 99 and x["payments"] == [156, -52, -52, -52] for x in result["either"])


def test_a_5000_digit_counter_is_refused_with_a_short_message():
    r = run("score", *CLASSIC_WIN, "--counter", "huangfan=" + "9" * 5000)
    assert r.exit_code == 2 and "huangfan" in r.output and len(r.output) < 500


def test_a_20_digit_counter_in_json_is_refused():
    line = json.dumps({"ruleset": "shanghai-classic", "kind": "score",
                       "input": {"concealed": "1m1m1m2m2m2m3m3m3m4m4m4m5m", "win_tile": "5m",
                                 "flags": {"knocked": True}, "counters": {"huangfan": 10 ** 19}}})
    r = run("score", "--batch", "-", input=line + "\n")
    result = batch_lines(r.output)[0]["result"]
    assert r.exit_code == 2 and result["error"] == "input.counters" and "0 to 99" in result["message"]


def test_contract_seat_out_of_range_names_the_contract_rule():
    r = run("score", *CLASSIC_WIN, "--counter", "contract_with=4")
    assert r.exit_code == 2 and "procedure.contract_seat" in r.output and "0 to 3" in r.output


def test_rulesets_lists_counter_ranges():
    rows = json.loads(run("rulesets", "--json").output)
    classic = next(x for x in rows if x["id"] == "shanghai-classic")
    assert classic["counters"]["huangfan"]["max"] == 99 and classic["counters"]["contract_with"]["max"] == 3


# ----------------------------------------------------------------------------- 3. unreadable input

def _bad_paths(tmp_path) -> dict[str, str]:
    return {"a directory": str(tmp_path), "an empty name": "", "a 300-character name": "n" * 300,
            "a missing file": str(tmp_path / "missing.json")}


@pytest.mark.parametrize("what", ["a directory", "an empty name", "a 300-character name", "a missing file"])
@pytest.mark.parametrize("flag", ["--case", "--batch", "--ruleset-file"])
def test_unreadable_files_exit_2_saying_cannot_read(tmp_path, what, flag):
    path = _bad_paths(tmp_path)[what]
    args = ["score", flag, path] + (["1m1m1m2m2m2m3p3p3p4s4s4s5m5m"] if flag == "--ruleset-file" else [])
    r = run(*args)
    assert r.exit_code == 2 and "cannot read" in r.output and len(r.output) < 1000


@pytest.mark.parametrize("what", ["a directory", "an empty name", "a 300-character name", "a missing file"])
def test_spec_validate_of_unreadable_files_exits_2(tmp_path, what):
    r = run("spec", "validate", _bad_paths(tmp_path)[what])
    assert r.exit_code == 2 and "cannot read" in r.output


def test_a_device_is_not_read_as_a_case_file():
    if not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero here")
    r = run("score", "--case", "/dev/zero")
    assert r.exit_code == 2 and "not a regular file" in r.output


def test_invalid_utf8_in_a_case_file_names_the_line(tmp_path):
    path = tmp_path / "case.json"
    path.write_bytes(b'{"ruleset": "mcr",\n "kind": "score", "id": "\xff"}')
    r = run("score", "--case", str(path))
    assert r.exit_code == 2 and "line 2" in r.output and "UTF-8" in r.output


def test_invalid_utf8_in_a_spec_file_names_the_line(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_bytes(b"id: bad\ntitle: \xfe\n")
    r = run("spec", "validate", str(path))
    assert r.exit_code == 2 and "bad.yaml:2: cannot read" in r.output and "UTF-8" in r.output


def test_json_nested_1000_deep_is_refused():
    r = run("score", "--case", "-", input="[" * 1000 + "]" * 1000)
    assert r.exit_code == 2 and "nested too deeply" in r.output


def test_json_nesting_is_limited_to_32_levels_whatever_else_the_text_holds():
    # The depth is walked only when the text has more opening brackets than the limit: brackets inside strings
    # and side by side are not nesting; 32 levels pass, 33 do not.
    from checker.inputs import MAX_JSON_DEPTH, InputError, parse_json

    assert MAX_JSON_DEPTH == 32
    assert parse_json("[" * 32 + "]" * 32, "t") is not None
    assert parse_json('{"a": "' + "[{" * 40 + '"}', "t") == {"a": "[{" * 40}
    assert len(parse_json("[" + ",".join(["[[]]"] * 50) + "]", "t")) == 50
    assert parse_json('"[[["', "t") == "[[["
    for deep in ("[" * 33 + "]" * 33, '{"a":' * 33 + "1" + "}" * 33, "[" + "[]," * 40 + "[" * 32 + "]" * 33):
        with pytest.raises(InputError, match="nested too deeply"):
            parse_json(deep, "t")


def test_json_that_orjson_refuses_is_read_again_by_the_stdlib_with_its_reasons():
    # parse_json reads with orjson and falls back to the stdlib for what orjson refuses: NaN and a lone
    # surrogate are still read (as json.loads reads them), and a syntax error is worded with its column.
    import math

    from checker.inputs import InputError, parse_json

    assert math.isnan(parse_json("[NaN]", "t")[0])
    assert parse_json('"\\ud800"', "t") == "\ud800"
    with pytest.raises(InputError, match="line 3: column 8: invalid JSON"):
        parse_json('{"a":1,}', "t", 3)
    assert parse_json('{"a": "\u00e9", "b": [1, 2.5, null, true]}', "t") == {"a": "\u00e9", "b": [1, 2.5, None, True]}


def test_a_json_line_is_one_line_of_standard_json_whatever_it_holds():
    # json_line (results.jsonl, protocol requests): compact UTF-8 ending in one newline; characters that are
    # not printable (a line separator, an escape, a C1 control) escaped; NaN and infinities written null, by
    # orjson and by the stdlib fallback alike (an integer over 64 bits is what sends a value to the fallback).
    import json

    from checker.inputs import json_line

    assert json_line({"a": "\u00e9", "b": [1, 2]}) == '{"a":"\u00e9","b":[1,2]}\n'.encode()
    hostile = {"t": "x\u2028y\x1b[31m\x85z", "n": float("nan"), "i": float("-inf")}
    for value in (hostile, {**hostile, "big": 2 ** 70}):
        line = json_line(value)
        assert line.endswith(b"\n") and line.count(b"\n") == 1
        text = line.decode("utf-8")[:-1]
        assert text.isprintable()
        back = json.loads(text)  # standard JSON: the stdlib reads it back without NaN
        assert back["t"] == hostile["t"] and back["n"] is None and back["i"] is None
    assert json.loads(json_line({1: 2})) == {"1": 2}  # a key that is not a string: the stdlib's way


def test_json_integer_of_5000_digits_is_refused():
    r = run("score", "--case", "-", input='{"ruleset": "mcr", "kind": "score", "id": ' + "7" * 5000 + "}")
    assert r.exit_code == 2 and "too many digits" in r.output and len(r.output) < 500


def test_yaml_integer_of_5000_digits_and_deep_nesting_are_refused(tmp_path):
    big = tmp_path / "big.yaml"
    big.write_text("id: " + "7" * 5000 + "\n")
    r = run("spec", "validate", str(big))
    assert r.exit_code == 2 and "too many digits" in r.output and len(r.output) < 1000
    deep = tmp_path / "deep.yaml"
    deep.write_text("id: " + "[" * 1500 + "]" * 1500 + "\n")
    r = run("spec", "validate", str(deep))
    assert r.exit_code == 2 and "nested too deeply" in r.output


def test_a_case_file_over_the_limit_is_refused_before_parsing():
    r = run("score", "--case", "-", input=" " * (MAX_CASE_LINE_BYTES + 1))
    assert r.exit_code == 2 and "more than" in r.output


# ----------------------------------------------------------------------------- 4. one bad line never ends a batch

def test_every_batch_line_is_answered_whatever_its_neighbours_hold(tmp_path):
    bad = [b"not json", b'{"ruleset": "mcr", "id": "\xff\xfe"}', b"[" * 1000 + b"]" * 1000,
           b'{"id": ' + b"1" * 5000 + b"}", b"x" * (MAX_CASE_LINE_BYTES + 10),
           json.dumps(case(ruleset="/etc/passwd")).encode(), json.dumps(case(concealed="1m")).encode()]
    lines = []
    for junk in bad:
        lines += [GOOD.encode(), junk]
    lines.append(GOOD.encode())
    path = tmp_path / "mixed.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    r = run("score", "--batch", str(path))
    out = batch_lines(r.output)
    assert [x["line"] for x in out] == list(range(1, len(lines) + 1))
    good = out[0::2]
    assert all(x.get("matches") is True for x in good) and len(good) == len(bad) + 1
    refused = out[1::2]
    assert all("error" in x or x["result"]["valid"] is False for x in refused)
    assert r.exit_code == 2


def test_an_invalid_byte_loses_no_earlier_or_later_output():
    data = (GOOD + "\n").encode() + b"\xff\xff\n" + (GOOD + "\n").encode()
    r = runner.invoke(app, ["score", "--batch", "-"], input=data)
    out = batch_lines(r.output)
    assert [x["line"] for x in out] == [1, 2, 3] and out[0]["matches"] and out[2]["matches"]
    assert "UTF-8" in out[1]["message"] and r.exit_code == 2


# ----------------------------------------------------------------------------- 6. contradictory context

KONG_HAND = ("1m2m3m4m5m6m7p8p9p1z", "--win", "9s", "--meld", "kong:7777s")  # refused before any scoring


@pytest.mark.parametrize("ruleset", ["mcr", "shanghai-knocking", "shanghai-classic"])
@pytest.mark.parametrize("flag", ["kong_replacement", "flower_replacement"])
@pytest.mark.parametrize("way", [("--discard", "1"), ("--robbing-kong", "2")])
def test_a_replacement_draw_win_is_never_on_a_discard_or_a_robbed_kong(ruleset, flag, way):
    r = run("score", "-r", ruleset, *KONG_HAND, "--flowers", "1f", "--flag", flag, *way,
            *(["--flag", "knocked"] if ruleset != "mcr" else []))
    assert r.exit_code == 2 and f"context.{flag}_drawn" in r.output


def test_a_concealed_kong_claimed_from_a_seat_is_refused():
    r = run("score", "1m2m3m4m5m6m7p8p9p5z", "--win", "5z", "--meld", "concealed_kong:7z@2")
    assert r.exit_code == 2 and "input.meld" in r.output and "not claimed" in r.output


def test_after_knock_under_mcr_is_refused():
    r = run("score", "4s5s6s7s8s9s1z1z1z5s", "--win", "5s", "--meld", "chow:123s@3:after_knock")
    assert r.exit_code == 2 and "no knocking" in r.output


def test_after_knock_without_having_knocked_is_refused():
    r = run("score", "-r", "shanghai-knocking", "4s5s6s7s8s9s1z1z1z5s", "--win", "5s",
            "--meld", "kong:7777p@1:after_knock")
    assert r.exit_code == 2 and "has not knocked" in r.output


# ----------------------------------------------------------------------------- 7. one validation path

def test_a_string_flag_is_refused_whether_the_ruleset_is_shipped_or_loaded(my_mcr):
    for extra, ruleset in (((), "mcr"), (("--ruleset-file", str(my_mcr)), "my-mcr")):
        line = json.dumps(case(ruleset=ruleset, flags={"last_tile": "false"}))
        r = run("score", *extra, "--batch", "-", input=line + "\n")
        out = batch_lines(r.output)[0]
        assert r.exit_code == 2 and "/input/flags/last_tile" in out["message"], out


# ----------------------------------------------------------------------------- 8. one exit-status rule

def without_expect(data: dict) -> dict:
    return {k: v for k, v in data.items() if k != "expect"}


@pytest.mark.parametrize("data, status", [
    (without_expect(case(concealed="2p3p4p2s3s4s6m6m6m")), 2),  # 13 tiles: refused as bad input
    (without_expect(case()), 0),  # a valid win
    (without_expect(case(concealed="1m1m1m2m2m2m3p3p3p9s9s9s5m", melds=[])), 1),  # 5m and 5p: no pair, no win
    (case(), 0),  # meets its expectation
    ({**case(), "expect": {"valid": True, "total": 12}}, 1),  # differs from its expectation (it is 11)
    (case(concealed="2p3p4p2s3s4s6m6m6m"), 1),  # expects a win, is refused: differs from its expectation
    ({**case(concealed="2p3p4p2s3s4s6m6m6m"), "expect": {"valid": False, "error": "tiles.hand_size"}}, 0),
])
def test_the_same_case_exits_the_same_in_every_mode(tmp_path, data, status):
    path = tmp_path / "case.json"
    path.write_text(json.dumps(data))
    assert run("score", "--case", str(path)).exit_code == status
    assert run("score", "--case", str(path), "--json").exit_code == status
    assert run("score", "--batch", str(path)).exit_code == status


# ----------------------------------------------------------------------------- 9. bounded, escaped messages

def test_a_huge_meld_gives_a_short_message():
    r = run("score", "1m2m3m4m5m6m7p8p9p5z", "--win", "5z", "--meld", "chow:" + "1m" * 500_000)
    assert r.exit_code == 2 and len(r.output) < 1000


def test_a_huge_hand_gives_a_short_message():
    r = run("score", "1m" * 5_000_000, "--win", "1m")
    assert r.exit_code == 2 and len(r.output) < 1000 and "limited to" in r.output


@pytest.mark.parametrize("args", [
    ("1m\x1b[31m2m",), ("--win", "5\x1b]0;title\x07", "1m"), ("1m", "--flag", "x\x1b[2J"),
    ("1m", "--option", "a\u202eb=1"), ("1m", "--meld", "chow:\x1b[31m"), ("1m", "--seat-wind", "\x1b"),
])
def test_control_characters_never_reach_the_terminal(args):
    r = run("score", *args)
    assert r.exit_code == 2
    assert "\x1b" not in r.output and "\x07" not in r.output and "\u202e" not in r.output


def test_control_characters_in_a_batch_line_are_escaped():
    line = json.dumps(without_expect(case(concealed="\x1b[31m\u202e")), ensure_ascii=False)
    r = run("score", "--batch", "-", input=line + "\n")
    assert r.exit_code == 2 and "\x1b" not in r.output and "\u202e" not in r.output


def test_excerpt_and_bounded():
    assert excerpt("abc") == "'abc'"
    assert excerpt("x" * 100, 10) == "'xxxxxxxxxx'… (90 more characters)"
    assert excerpt("a\x1bb") == "'a\\x1bb'" and excerpt("\u202e") == "'\\u202e'"
    text = bounded("start " + "y" * 10_000 + " [tiles.hand_size]", 200)
    assert len(text) < 260 and text.startswith("start") and text.endswith("[tiles.hand_size]")


# ----------------------------------------------------------------------------- 10. exclusion cycles

def test_an_exclusion_cycle_is_a_warning_naming_the_cycle(tmp_path):
    data = yaml.safe_load((spec_dir() / "shanghai-knocking.yaml").read_text(encoding="utf-8"))
    first, second = data["patterns"][1], data["patterns"][2]
    first.setdefault("excludes", []).append(second["id"])
    second.setdefault("implies", []).append(first["id"])
    path = tmp_path / "cycle.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    r = run("spec", "validate", str(path), "--json")
    report = json.loads(r.output)
    assert r.exit_code == 0 and not report["problems"]
    assert any(f"{first['id']} → {second['id']} → {first['id']}" in w["reason"] for w in report["warnings"])


def test_the_shipped_mcr_cycle_is_the_guides_mutual_exclusion():
    # The guide's table: Pure shifted pungs "Not counted again: Pure triple chow", and the other way round.
    r = run("spec", "validate", str(spec_dir() / "mcr.yaml"))
    assert r.exit_code == 0 and "pure_shifted_pungs → pure_triple_chow → pure_shifted_pungs" in r.output


def test_a_refused_case_names_its_rule_in_brackets():
    line = json.dumps(without_expect(case(concealed="1m")))
    r = run("score", "--case", "-", input=line)
    assert r.exit_code == 2 and "[tiles.hand_size]" in r.output


def test_markup_in_a_spec_of_ones_own_is_printed_as_text(my_mcr):
    data = yaml.safe_load(my_mcr.read_text(encoding="utf-8"))
    data["title"]["en"] = "[bold red]My[/] rules \x1b[5m"
    next(p for p in data["patterns"] if p["id"] == "all_simples")["name"]["en"] = "[blink]All simples[/blink]"
    my_mcr.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    r = run("score", "--ruleset-file", str(my_mcr), "2p3p4p2s3s4s6m6m6m5p", "--win", "5p", "--meld", "chow:234m")
    assert r.exit_code == 0
    assert "[bold red]My[/] rules \\x1b[5m" in r.output and "[blink]All simples[/blink]" in r.output


def test_json_output_escapes_what_a_terminal_would_obey():
    line = json.dumps({**without_expect(case()), "id": "\u202eevil\x1b[2J"}, ensure_ascii=False)
    r = run("score", "--batch", "-", input=line + "\n")
    assert r.exit_code == 0 and "\u202e" not in r.output and "\x1b" not in r.output
    assert batch_lines(r.output)[0]["id"] == "\u202eevil\x1b[2J"  # the JSON still carries the id exactly


# ----------------------------------------------------------------------------- 11. whole numbers written 2.0

def _first(path: str, test) -> dict:
    folder = Path(__file__).resolve().parents[1] / "corpus"
    return next(c for c in map(json.loads, (folder / path).read_text(encoding="utf-8").splitlines()) if test(c))


def _whole_number_pairs() -> list[tuple[str, dict, dict]]:
    """(what, a case as written with integers, the same case with some of them written as floats: 2.0)."""
    discard = _first("mcr-examples.jsonl", lambda c: c["input"].get("win_by") == "discard")
    counted = _first("shanghai-examples.jsonl", lambda c: bool(c["input"].get("counters")))
    mcr_play = _first("mcr-procedure.jsonl", lambda c: True)
    classic_play = _first("shanghai-classic-procedure.jsonl", lambda c: True)
    pairs = []

    def pair(what: str, base: dict, change) -> None:
        as_int, as_float = json.loads(json.dumps(base)), json.loads(json.dumps(base))
        change(as_int, int)
        change(as_float, float)
        pairs.append((what, as_int, as_float))

    pair("discarder", discard, lambda c, f: c["input"].update(discarder=f(c["input"]["discarder"])))
    pair("meld from", json.loads(GOOD), lambda c, f: c["input"]["melds"][0].update({"from": f(3)}))
    pair("counters", counted, lambda c, f: c["input"].update(counters={k: f(v) for k, v in
                                                                        c["input"]["counters"].items()}))
    pair("an option's number", discard, lambda c, f: c.update(options={"two_concealed_kongs_points": f(6)}))
    pair("dealer", mcr_play, lambda c, f: c["input"].update(dealer=f(c["input"].get("dealer", 0))))
    pair("hand", mcr_play, lambda c, f: c["input"].update(hand=f(5)))
    pair("seed", mcr_play, lambda c, f: (c["input"].pop("wall"), c["input"].update(seed=f(7))))
    pair("event seats", mcr_play, lambda c, f: [e.update(seat=f(e["seat"])) for e in c["input"]["events"]
                                                if "seat" in e])
    pair("play counters", classic_play, lambda c, f: c["input"].update(counters={"huangfan": f(1)}))
    return pairs


WHOLE_NUMBER_PAIRS = _whole_number_pairs()


def test_a_whole_number_written_as_a_float_reads_as_that_number_in_every_field():
    # The case and game schemas read 2.0 as the integer 2 (JSON Schema's integer): a meld's seat was read so,
    # and a discarder, counter, option, dealer, hand number, seed or event seat is read so too, never a
    # traceback (the compiled engine refuses a float where it keeps an int) and never a lost batch line.
    lines = [json.dumps(c) for _, as_int, as_float in WHOLE_NUMBER_PAIRS for c in (as_float, as_int)]
    r = run("score", "--batch", "-", input="\n".join(lines + [GOOD]) + "\n")
    out = batch_lines(r.output)
    assert [x["line"] for x in out] == list(range(1, len(lines) + 2)), r.output[-2000:]
    for i, (what, _, _) in enumerate(WHOLE_NUMBER_PAIRS):
        written_float, written_int = out[2 * i], out[2 * i + 1]
        assert "error" not in written_int, (what, written_int)
        assert written_float.get("result") == written_int["result"], what
    assert out[-1]["matches"] is True


@pytest.mark.parametrize("what", [w for w, _, _ in WHOLE_NUMBER_PAIRS if w in ("discarder", "dealer")])
def test_a_case_file_with_a_whole_float_scores_as_with_the_integer(what, tmp_path):
    _, as_int, as_float = next(p for p in WHOLE_NUMBER_PAIRS if p[0] == what)
    results = []
    for c in (as_int, as_float):
        r = run("score", "--case", "-", "--json", input=json.dumps(c))
        results.append((r.exit_code, json.loads(r.output.splitlines()[0])))
    assert results[0] == results[1]


def test_the_engine_refuses_a_discarder_that_is_no_seat_number(mcr):
    from checker.engine import HandError

    for seat in (2.5, "2", [2], True, float("nan")):
        with pytest.raises(HandError) as refused:
            mcr.build_hand(concealed="1m1m1m2m2m2m3p3p3p4s4s4s5m", melds=(), win_tile="5m", win_by="discard",
                           discarder=seat)
        assert refused.value.rule == "input.discarder"


def test_an_option_value_of_another_type_is_refused_whatever_came_before():
    # true == 1 in Python: a line giving 1 for a true/false option was accepted when a line before gave true
    base = without_expect(case())
    lines = [json.dumps({**base, "options": {"tile_hog_honors": v}}) for v in (True, 1, 1.0, "true")]
    out = batch_lines(run("score", "--batch", "-", input="\n".join(lines) + "\n").output)
    assert ["error" in x for x in out] == [False, True, True, False]
    assert out[1]["error"] == "input.options" and "tile_hog_honors" in out[1]["message"]


def test_a_case_the_engine_fails_on_is_answered_and_the_batch_goes_on(monkeypatch):
    import checker.commands.score as cli

    real = cli.CaseRunner

    class Failing:  # the batch's runner, failing on one case as a fault of the engine would
        def __init__(self, extra):
            self.runner = real(extra)

        def outcome(self, data):
            if data.get("id") == "fails":
                raise TypeError("int object expected; got float")
            return self.runner.outcome(data)

    monkeypatch.setattr(cli, "CaseRunner", Failing)
    lines = [GOOD, json.dumps({**json.loads(GOOD), "id": "fails"}), GOOD]
    r = run("score", "--batch", "-", input="\n".join(lines) + "\n")
    out = batch_lines(r.output)
    assert [x["line"] for x in out] == [1, 2, 3] and out[0]["matches"] and out[2]["matches"]
    assert out[1]["error"] == "engine.failure" and "TypeError" in out[1]["message"]
    assert r.exit_code == 2 and "a fault of mjcheck" in r.output
