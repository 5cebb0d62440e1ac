"""Hostile input to every surface of `mjcheck score` and `mjcheck spec validate` (Hypothesis).

Whatever it is given, the tool must answer with exit status 0, 1 or 2 (never a traceback), say what is wrong
when it refuses (status 2), keep its output short and free of raw control characters, answer every line of
a batch with exactly one line in order, give the same status for a case in every mode, and never read a
file a case names. Each surface has its own test:

1. hand strings               `test_hand_strings_never_crash`
2. meld syntax                `test_meld_syntax_never_crashes`
3. flags and counters         `test_flags_and_counters_never_crash`
4. options                    `test_options_never_crash`
5. JSON case lines            `test_batch_answers_every_line_and_keeps_good_results`,
                              `test_case_modes_agree_on_exit_status`, `test_real_byte_streams_on_stdin`
6. YAML specs                 `test_mutated_specs_validate_or_refuse`
7. files                      `test_unreadable_files_are_refused`, `test_fifo_is_refused_without_hanging`,
                              `test_undecodable_command_line_bytes`
   pinned inputs              `test_pinned_hostile_inputs` (the same properties on inputs tried in every run)

Every run goes through the real command (`checker.cli.app` in process, or `python -m checker.cli` where
real byte streams matter). Loading a ruleset costs about 0.1-0.4 s per run, so the default run keeps the
number of examples small (the whole file runs in about two minutes on two cores) and caps the time spent
shrinking a failure; set MJCHECK_FUZZ_EXAMPLES=N to run N times as many examples (and shrink fully).
"""
from __future__ import annotations

import copy
import functools
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import traceback
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, Phase, assume, given, note, settings
from hypothesis.control import currently_in_test_context
from hypothesis import strategies as st
from typer.testing import CliRunner

from checker.cli import app
from conftest import fuzz_factor
from checker.inputs import MAX_CASE_LINE_BYTES
from checker.random_hands import winning_hand
from checker.spec import load_ruleset as load_spec_ruleset

MCR_CONTEXT = load_spec_ruleset("mcr").table_context  # the MCR names of the facts random hands are given

ROOT = Path(__file__).resolve().parents[1]
CORPUS_FILES = (ROOT / "corpus" / "mcr-examples.jsonl", ROOT / "corpus" / "shanghai-examples.jsonl")
SPEC_FILES = {name: ROOT / "spec" / f"{name}.yaml" for name in ("mcr", "shanghai-knocking", "shanghai-classic")}
RULESETS = tuple(SPEC_FILES)

# --------------------------------------------------------------------------- budget

FACTOR = fuzz_factor()  # MJCHECK_FUZZ_EXAMPLES=N runs N times as many examples

settings.register_profile(
    "mjcheck-hostile",
    deadline=None,  # one run of the command takes 0.1-0.5 s (loading a ruleset)
    derandomize=True,  # the default run is the same run every time
    database=None,  # nothing written into the working tree
    print_blob=True,
    # No explain phase: after a first failure it traces every later run (sys.settrace), which makes each run
    # of the command 10-30 times slower and a failing test take minutes to shrink.
    phases=(Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example,
                           HealthCheck.filter_too_much],
)
HOSTILE = settings.get_profile("mjcheck-hostile")


def fuzz(examples: int) -> settings:
    """The profile with `examples` examples in the default run (times MJCHECK_FUZZ_EXAMPLES)."""
    return settings(HOSTILE, max_examples=examples * FACTOR)


# One run costs up to a second, so shrinking a failure could take Hypothesis's full five minutes per test.
# The default run stops shrinking after SHRINK_SECONDS (the example shown may then be only partly shrunk);
# a longer run (MJCHECK_FUZZ_EXAMPLES set) shrinks as long as Hypothesis likes.
SHRINK_SECONDS = 15 if FACTOR == 1 and "MJCHECK_FUZZ_EXAMPLES" not in os.environ else None


@pytest.fixture(autouse=True)
def bounded_shrinking(monkeypatch):
    from hypothesis.internal.conjecture import engine  # documented as monkeypatchable for this purpose

    if SHRINK_SECONDS is not None and hasattr(engine, "MAX_SHRINKING_SECONDS"):
        monkeypatch.setattr(engine, "MAX_SHRINKING_SECONDS", SHRINK_SECONDS)


# --------------------------------------------------------------------------- running the command

cli = CliRunner()
OUTPUT_LIMIT = 5_000  # characters of output for one hand / one case (one batch line)
SUBPROCESS_TIMEOUT = 20  # seconds; a run that takes longer hangs

# Raw characters that must never reach a terminal: C0 and C1 controls (a newline ends a line and is fine) and
# the bidirectional formatting characters that reorder what is shown.
UNSAFE = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _secrets() -> list[str]:
    """Lines of files a case or option might try to read through a ruleset field: none may be printed."""
    found = ["root:x:0:0"]
    for path in ("/etc/passwd", "/etc/hosts"):
        try:
            lines = Path(path).read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            continue
        found += [ln for ln in lines if len(ln.strip()) >= 12 and not ln.lstrip().startswith("#")][:3]
    return found


SECRETS = _secrets()


def invoke(args: list[str], input: bytes | str | None = None):
    if currently_in_test_context():
        note(f"mjcheck {' '.join(repr(a) if len(a) < 300 else repr(a[:300]) + '…' for a in args)}")
    return cli.invoke(app, args, input=input)


def check_run(result, limit: int = OUTPUT_LIMIT):
    """The properties every run has: exit 0/1/2, no exception or traceback, a refusal that says what is
    wrong, bounded output that is UTF-8 and has no raw control characters, no file contents leaked."""
    exc = result.exception
    if exc is not None and not isinstance(exc, SystemExit):
        shown = "".join(traceback.format_exception(*result.exc_info)) if result.exc_info else repr(exc)
        pytest.fail(f"the command raised {type(exc).__name__}:\n{shown[-3000:]}")
    out = result.output
    assert result.exit_code in (0, 1, 2), f"exit status {result.exit_code}: {out[-500:]!r}"
    assert "Traceback" not in out, out[-2000:]
    result.stdout_bytes.decode("utf-8")  # output is UTF-8 (raises if not)
    result.stderr_bytes.decode("utf-8")
    if result.exit_code == 2:
        assert re.search(r"\w", out), "a refusal (exit 2) that says nothing"
    assert len(out) <= limit, f"{len(out):,} characters of output: {out[:300]!r} … {out[-300:]!r}"
    bad = UNSAFE.search(out)
    assert bad is None, f"raw {bad.group()!r} in the output: {out[max(0, bad.start() - 80):bad.end() + 80]!r}"
    for secret in SECRETS:
        assert secret not in out, f"file contents in the output: {secret!r}"
    return out


def stdout_lines(result) -> list[str]:
    """Lines of stdout, split on newlines only (JSON text may hold U+2028 and friends)."""
    text = result.stdout_bytes.decode("utf-8")
    return text.split("\n")[:-1] if text.endswith("\n") else text.split("\n") if text else []


@functools.lru_cache(maxsize=None)
def _python_cli() -> tuple[str, ...]:
    probe = subprocess.run([sys.executable, "-m", "checker.cli", "--help"], capture_output=True,
                           timeout=SUBPROCESS_TIMEOUT, cwd=ROOT)
    if probe.returncode == 0:
        return (sys.executable, "-m", "checker.cli")
    script = shutil.which("mjcheck", path=str(Path(sys.executable).parent))
    return (script,) if script else ()


def python_cli() -> list[str]:
    """The command for a subprocess run: `python -m checker.cli`, else the `mjcheck` script beside python."""
    command = _python_cli()
    if not command:
        pytest.skip("neither `python -m checker.cli` nor an mjcheck script beside python works")
    return list(command)


def clean_env() -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE",
                                                            "CLICOLOR_FORCE")}
    env["PYTHONIOENCODING"] = "utf-8"
    return env


def run_subprocess(args: list, input: bytes | None = None, timeout: float = SUBPROCESS_TIMEOUT):
    """A real run; None when it did not finish within `timeout` seconds."""
    try:
        return subprocess.run(python_cli() + args, input=input, capture_output=True, timeout=timeout, cwd=ROOT,
                              env=clean_env())
    except subprocess.TimeoutExpired:
        return None


def check_process(proc, limit: int = OUTPUT_LIMIT) -> str:
    assert proc.returncode in (0, 1, 2), f"exit status {proc.returncode}: {proc.stderr[-2000:]!r}"
    out = proc.stdout.decode("utf-8") + proc.stderr.decode("utf-8")
    assert "Traceback" not in out, out[-3000:]
    if proc.returncode == 2:
        assert re.search(r"\w", out), "a refusal (exit 2) that says nothing"
    assert len(out) <= limit, f"{len(out):,} characters of output"
    bad = UNSAFE.search(out)
    assert bad is None, f"raw {bad.group()!r} in the output: {out[max(0, bad.start() - 80):bad.end() + 80]!r}"
    for secret in SECRETS:
        assert secret not in out
    return out


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("hostile")


class Blob(bytes):
    """Generated bytes (a case line, a batch file, a spec) that a failure report shows in short."""

    def __repr__(self) -> str:
        if len(self) <= 400:
            return bytes.__repr__(self)
        return f"{bytes(self[:240])!r} … ({len(self) - 340:,} bytes left out) … {bytes(self[-100:])!r}"

    def _repr_pretty_(self, printer, cycle) -> None:  # Hypothesis's pretty printer
        printer.text(repr(self))


def temp_file(directory: Path, data: bytes, suffix: str = ".jsonl") -> Path:
    fd, name = tempfile.mkstemp(suffix=suffix, dir=directory)
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)
    return Path(name)


# --------------------------------------------------------------------------- tile-ish text

CANONICAL = [f"{r}{s}" for s in "mps" for r in range(1, 10)] + [f"{r}z" for r in range(1, 8)] + \
            [f"{r}f" for r in range(1, 9)]
GB_CODES = [f"{c}{d}" for c in "WBT" for d in range(1, 10)] + [f"F{d}" for d in range(1, 5)] + \
           [f"J{d}" for d in range(1, 4)] + [f"H{d}" for d in range(1, 9)]
UNICODE_TILES = [chr(cp) for cp in range(0x1F000, 0x1F02C)]
CN_RANKS = "一二三四五六七八九"
CHINESE = [f"{CN_RANKS[r]}{suit}" for suit in ("万", "筒", "条", "萬", "饼", "索") for r in range(9)] + \
          list("东南西北白发中春夏秋冬梅兰菊竹東發蘭幺")
NEAR_TILES = ["0m", "10m", "8z", "9f", "0z", "M5", "5M", "w0", "J4", "H9", "F5", "123m", "11z", "99999p", "1234567890s",
              "m", "z", "万", "十万", "5", "12", "mp", "1m2", "🀇\ufe0f", "🀇\ufe0e", "🀪", "🀫", "１ｍ", "①m", "٣m",
              "五", "条", "1ｍ"]
SEPARATORS = ["", " ", " ", ",", "，", "、", ";", "\u3000", "\t", "\n", "\r\n", "\f", "\v"]
HOSTILE_BITS = ["\x1b[31m", "\x1b]0;title\x07", "\x1b[2J", "\x07", "\x00", "\x08", "\r", "\u202e", "\u202d", "\u2066",
                "\u200f", "\u061c", "\x9b31m", "\x85", "\x7f", "\ufeff", "\u2028", "\u200b", "\udcff", "\udc80\udcfe",
                "\ud800", "[red]", "[/]", "[/red]", "[bold red]x", "[link=file:///etc/passwd]x[/link]", "\\[", "%s",
                "%n", "{}", "{0}", "'", '"', "\\", "\\x1b", "\\u202e", "<script>", "${HOME}", "$(id)", "`id`",
                "../../etc/passwd", "/etc/passwd", "\U0010ffff", "\U000e0001", "𝟙m", "ﬀ", "İ", "ß"]
TILE_TOKENS = CANONICAL + GB_CODES + UNICODE_TILES + CHINESE + NEAR_TILES


def tileish(extra: list[str] = ()) -> st.SearchStrategy[str]:
    """Text from tile-ish alphabets, separators and hostile bits."""
    token = st.one_of(st.sampled_from(TILE_TOKENS), st.sampled_from(SEPARATORS), st.sampled_from(HOSTILE_BITS),
                      *( [st.sampled_from(list(extra))] if extra else []))
    return st.lists(token, max_size=30).map("".join)


def long_text(tokens: list[str]) -> st.SearchStrategy[str]:
    """Very long text: a few short tokens repeated up to 20,000 times."""
    short = [t for t in tokens if len(t) <= 12]
    return st.builds(lambda parts, n: "".join(parts) * n, st.lists(st.sampled_from(short), min_size=1, max_size=3),
                     st.integers(60, 20_000))


ANY_TEXT = st.text(max_size=80)  # arbitrary unicode (no lone surrogates; HOSTILE_BITS has those)
CONTROL_TEXT = st.text(st.characters(categories=["Cc", "Cf", "Zl", "Zp", "Co"]), max_size=20)


def hostile_text(tokens: list[str] = TILE_TOKENS) -> st.SearchStrategy[str]:
    return st.one_of(tileish(), ANY_TEXT, CONTROL_TEXT, long_text(tokens + HOSTILE_BITS))


# ----- valid hands in every notation (so that wins and non-wins are fuzzed too, not only refusals)

def tile_text(t: int, notation: str) -> str:
    if t < 27:
        suit, rank = "mps"[t // 9], t % 9 + 1
    elif t < 34:
        suit, rank = "z", t - 26
    else:
        suit, rank = "f", t - 33
    if notation == "canonical":
        return f"{rank}{suit}"
    if notation == "upper":
        return f"{rank}{suit.upper()}"
    if notation == "gb":
        if suit in "mps":
            return "WBT"["mps".index(suit)] + str(rank)
        if suit == "f":
            return f"H{rank}"
        return f"F{rank}" if rank <= 4 else f"J{8 - rank}"  # 5z white = J3, 6z green = J2, 7z red = J1
    if notation == "unicode":
        if suit == "m":
            return chr(0x1F007 + rank - 1)
        if suit == "s":
            return chr(0x1F010 + rank - 1)
        if suit == "p":
            return chr(0x1F019 + rank - 1)
        if suit == "z":
            return chr((0x1F000, 0x1F001, 0x1F002, 0x1F003, 0x1F006, 0x1F005, 0x1F004)[rank - 1])
        return chr((0x1F026, 0x1F027, 0x1F028, 0x1F029, 0x1F022, 0x1F023, 0x1F025, 0x1F024)[rank - 1])
    # chinese
    if suit in "mps":
        return CN_RANKS[rank - 1] + "万筒条"["mps".index(suit)]
    if suit == "z":
        return "东南西北白发中"[rank - 1]
    return "春夏秋冬梅兰菊竹"[rank - 1]


def tiles_text(tiles, notation: str, sep: str) -> str:
    if notation == "compact":
        out, run_suit, digits = [], None, ""
        for t in tiles:
            name = tile_text(t, "canonical")
            if name[1] != run_suit and digits:
                out.append(digits + run_suit)
                digits = ""
            run_suit, digits = name[1], digits + name[0]
        if digits:
            out.append(digits + run_suit)
        return sep.join(out)
    return sep.join(tile_text(t, notation) for t in tiles)


NOTATIONS = ("canonical", "upper", "compact", "gb", "unicode", "chinese")
WIND_WORDS = {27: ["E", "east", "东", "1z", "F1", "e"], 28: ["S", "south", "南", "2z", "F2"],
              29: ["W", "west", "西", "3z", "F3"], 30: ["N", "north", "北", "4z", "F4"]}


@st.composite
def valid_hand_args(draw) -> list[str]:
    """The command-line arguments of a complete hand (checker.random_hands), written in a random notation."""
    hand = winning_hand(lambda seq: draw(st.sampled_from(list(seq))), MCR_CONTEXT)
    notation = draw(st.sampled_from(NOTATIONS))
    sep = draw(st.sampled_from(["", " ", ","]))
    args = [tiles_text(hand.concealed, notation, sep), "--win", tile_text(hand.win_tile, notation)]
    for m in hand.melds:
        label = "concealed_kong" if m.concealed else m.kind
        seat = "" if m.concealed or m.source is None else f"@{m.source}"
        args += ["--meld", f"{label}:{tiles_text(m.tiles, draw(st.sampled_from(NOTATIONS)), '')}{seat}"]
    if hand.win_by == "discard":
        args += ["--discard", str(hand.discarder)]
    elif hand.win_by == "robbing_kong":
        args += ["--robbing-kong", str(hand.discarder)]
    elif draw(st.booleans()):
        args += ["--self-draw"]
    for flag in sorted(hand.flags):
        args += ["--flag", flag]
    if hand.flowers:
        args += ["--flowers", tiles_text(hand.flowers, draw(st.sampled_from(NOTATIONS)), "")]
    args += ["--seat-wind", draw(st.sampled_from(WIND_WORDS[hand.seat_wind])),
             "--round-wind", draw(st.sampled_from(WIND_WORDS[hand.round_wind]))]
    return args


HOSTILE_RULESET_IDS = ["/etc/passwd", "../../etc/hosts", "/dev/zero", ".", "..", "", " ", "mcr/../mcr", "../spec/mcr",
                       "spec/mcr.yaml", "mcr.yaml", "MCR", " mcr", "mcr ", "mcr\x00", "mcr\n", "/proc/self/environ",
                       "file:///etc/passwd", "../../../../../../../../etc/passwd", "C:\\Windows\\win.ini", "schema",
                       "schema/case.schema", "~", "a" * 300, "\x1b[31mmcr", "mcr\u202e", "-", "--", "*", "*.yaml"]


RULESET_ARGS = st.one_of(st.sampled_from((None,) + RULESETS), st.sampled_from(HOSTILE_RULESET_IDS)).map(
    lambda choice: [] if choice is None else ["-r", choice])  # `-r ID`: the three rulesets, now and then a hostile id


@st.composite
def hand_args(draw) -> list[str]:
    """A hand on the command line: hostile text (with or without --win), or a complete hand in some notation,
    as it is or with a hostile bit put into its tiles or winning tile."""
    kind = draw(st.sampled_from(["valid", "mutated", "hostile", "hostile"]))
    if kind == "hostile":
        args = [draw(hostile_text())]
        if draw(st.booleans()):
            args += ["--win", draw(st.one_of(st.sampled_from(TILE_TOKENS), hostile_text()))]
        return args
    args = draw(valid_hand_args())
    if kind == "mutated":
        where = draw(st.sampled_from([0, 2, "--flowers", "--seat-wind", "--round-wind"]))
        if isinstance(where, str):  # the other tile-ish arguments
            args += [where, draw(st.sampled_from(["", "1f", "E", "春"]))]
            where = len(args) - 1
        text = args[where]
        at = draw(st.integers(0, len(text)))
        bit = draw(st.one_of(st.sampled_from(HOSTILE_BITS + NEAR_TILES), CONTROL_TEXT, ANY_TEXT, long_text(TILE_TOKENS)))
        args[where] = text[:at] + bit + text[at:]
    return args


# --------------------------------------------------------------------------- 1. hand strings

@fuzz(40)
@given(rules=RULESET_ARGS, args=hand_args(), as_json=st.booleans())
def test_hand_strings_never_crash(rules, args, as_json):
    hand_property(rules, args, as_json)


def hand_property(rules: list[str], args: list[str], as_json: bool) -> None:
    result = invoke(["score", *rules, *args] + (["--json"] if as_json else []))
    check_run(result)
    if as_json and result.exit_code in (0, 1):
        (line,) = stdout_lines(result)
        shown = json.loads(line)
        assert shown["valid"] is (result.exit_code == 0)
    if as_json and result.exit_code == 2 and result.stdout_bytes:
        (line,) = stdout_lines(result)
        shown = json.loads(line)
        assert shown["valid"] is False and shown["error"] and shown["message"]


# --------------------------------------------------------------------------- 2. melds

MELD_TYPES = ["chow", "pung", "kong", "concealed_kong", "concealed-kong", "ckong", "angang", "CHOW", " pung ", "Kong",
              "pong", "gang", "eye", "pair", ""]
MELD_TILES = ["234m", "555p", "7777s", "1z1z1z1z", "1z", "5p", "W2W3W4", "二万三万四万", "🀇🀈🀉", "白白白", "111f", "123z",
              "135m", "2m3m", "5p5p5p5p5p", "789m", "8m9m1p", "", "999999999m"]
MELD_FRAGMENTS = MELD_TYPES + MELD_TILES + [":", ":", "@", "@", "1", "2", "3", "0", "4", "-1", "@@", "::",
                                            ":after_knock", "after_knock", ":after_knock:after_knock", "@3:after_knock"]


@st.composite
def meld_values(draw) -> str:
    shape = draw(st.sampled_from(["well_formed", "fragments", "hostile"]))
    if shape == "well_formed":
        text = draw(st.sampled_from(MELD_TYPES)) + ":" + draw(st.sampled_from(MELD_TILES))
        if draw(st.booleans()):
            text += "@" + draw(st.sampled_from(["1", "2", "3", "0", "4", "", "1 ", "٣", "３", "12", "x"]))
        if draw(st.booleans()):
            text += ":after_knock"
        return text
    if shape == "fragments":
        return "".join(draw(st.lists(st.one_of(st.sampled_from(MELD_FRAGMENTS), st.sampled_from(HOSTILE_BITS),
                                               st.sampled_from(TILE_TOKENS)), max_size=8)))
    return draw(st.one_of(
        hostile_text(MELD_FRAGMENTS),
        st.builds(lambda k, t: f"{k}:{t}", st.sampled_from(MELD_TYPES), long_text(TILE_TOKENS)),
        st.builds(lambda t, n: f"chow:234m@{t * n}", st.sampled_from(["1", "\x1b", "@"]), st.integers(1, 5000)),
    ))


BASE_HANDS = {  # a hand that wins under each ruleset (README examples)
    "mcr": ["1m1m1m2m2m2m3p3p3p4s4s4s5m5m"],
    "shanghai-knocking": ["1s2s3s4s5s6s7s8s9s1z1z1z5s", "--win", "5s", "--flag", "knocked"],
    "shanghai-classic": ["1m1m1m2m2m2m3m3m3m4m4m4m5m", "--win", "5m", "--flag", "knocked"],
}
MELD_HANDS = {  # a hand missing one set, to take the fuzzed melds
    "mcr": ["2p3p4p2s3s4s6m6m6m5p", "--win", "5p"],
    "shanghai-knocking": ["1s2s3s4s5s6s1z1z1z5s", "--win", "5s", "--flag", "knocked"],
    "shanghai-classic": ["1m1m1m2m2m2m3m3m3m4m", "--win", "4m", "--flag", "knocked"],
}


@fuzz(30)
@given(ruleset=st.sampled_from(RULESETS), melds=st.lists(meld_values(), min_size=1, max_size=5),
       as_json=st.booleans())
def test_meld_syntax_never_crashes(ruleset, melds, as_json):
    args = ["score", "-r", ruleset, *MELD_HANDS[ruleset]]
    for meld in melds:
        args += ["--meld", meld]
    check_run(invoke(args + (["--json"] if as_json else [])))


# --------------------------------------------------------------------------- 3. flags and counters

REAL_FLAGS = sorted({"kong_replacement", "flower_replacement", "last_tile", "fourth_tile_visible", "knocked", "kaibao",
                     "eight_flowers_win", "contract_mutual", "discarder_ready"})
REAL_COUNTERS = ["huangfan", "base", "contract_with"]
NUMBERS = ["0", "1", "2", "3", "99", "100", "-1", "-0", "+5", " 7 ", "1_000", "0x10", "1e3", "1.5", "", "٣", "３",
           "١٠", "²", "½", "NaN", "inf", "-inf", "true", str(10 ** 30), str(-10 ** 30), str(2 ** 63), str(2 ** 31),
           "1000000", "1000001", "9" * 4300, "9" * 4301, "9" * 5000, "-" + "9" * 5000, "1" * 20_000, "=", "=1"]


@st.composite
def flag_names(draw) -> str:
    return draw(st.one_of(st.sampled_from(REAL_FLAGS), st.sampled_from(REAL_FLAGS).map(str.upper),
                          st.sampled_from(REAL_FLAGS).map(lambda f: f" {f} "), hostile_text(REAL_FLAGS)))


@st.composite
def counter_items(draw) -> str:
    name = draw(st.one_of(st.sampled_from(REAL_COUNTERS), st.sampled_from(REAL_COUNTERS).map(lambda c: f" {c}"),
                          hostile_text(REAL_COUNTERS)))
    value = draw(st.one_of(st.sampled_from(NUMBERS), st.integers().map(str), hostile_text(NUMBERS)))
    return draw(st.sampled_from([f"{name}={value}", name, f"{name}=={value}", f"={value}", f"{name}={value}={value}"]))


@fuzz(30)
@given(ruleset=st.sampled_from(RULESETS), flags=st.lists(flag_names(), max_size=6),
       counters=st.lists(counter_items(), max_size=4), as_json=st.booleans())
def test_flags_and_counters_never_crash(ruleset, flags, counters, as_json):
    args = ["score", "-r", ruleset, *BASE_HANDS[ruleset]]
    for flag in flags:
        args += ["--flag", flag]
    for item in counters:
        args += ["--counter", item]
    check_run(invoke(args + (["--json"] if as_json else [])))


# --------------------------------------------------------------------------- 4. options

def _real_options() -> dict[str, dict[str, list[str]]]:
    """Each shipped ruleset's options with their readings, read from the specs (as `mjcheck rulesets`)."""
    from checker.spec import available_rulesets, load_ruleset as load_spec, value_key
    return {rid: {o.id: [value_key(v) for v in o.values] for o in load_spec(rid).options.values()}
            for rid in available_rulesets()}


REAL_OPTIONS = _real_options()
ALL_OPTION_NAMES = sorted({name for table in REAL_OPTIONS.values() for name in table})
ALL_OPTION_VALUES = sorted({v for table in REAL_OPTIONS.values() for vs in table.values() for v in vs})
ODD_VALUES = ["TRUE", " true ", "True", "1", "0", "yes", "no", "null", "None", "8.0", "08", "+8", "-8", "6 ", "１",
              "[]", "{}", '"true"', "", "=", str(10 ** 30), "9" * 5000, "true\x00", "true\n"]


@st.composite
def option_items(draw) -> str:
    name = draw(st.one_of(st.sampled_from(ALL_OPTION_NAMES), hostile_text(ALL_OPTION_NAMES)))
    value = draw(st.one_of(st.sampled_from(ALL_OPTION_VALUES), st.sampled_from(ODD_VALUES),
                           hostile_text(ALL_OPTION_VALUES)))
    return draw(st.sampled_from([f"{name}={value}", name, f"{name}={value}={value}", f" {name} = {value} ",
                                 f"={value}"]))


@fuzz(30)
@given(ruleset=st.sampled_from(RULESETS), options=st.lists(option_items(), min_size=1, max_size=4),
       as_json=st.booleans())
def test_options_never_crash(ruleset, options, as_json):
    args = ["score", "-r", ruleset, *BASE_HANDS[ruleset]]
    for item in options:
        args += ["--option", item]
    check_run(invoke(args + (["--json"] if as_json else [])))


# --------------------------------------------------------------------------- 5. JSON case lines

CORPUS_LINES = [line for path in CORPUS_FILES for line in path.read_text(encoding="utf-8").splitlines()
                if line.strip() and not line.lstrip().startswith("#")]
CORPUS_CASES = [json.loads(line) for line in CORPUS_LINES]

# Raw JSON text put where json.dumps cannot write it: thousands of digits, non-finite numbers, deep nesting.
RAW_JSON = {
    "@@5000-digits@@": "1" + "0" * 4999,
    "@@-5000-digits@@": "-" + "9" * 5000,
    "@@4301-digits@@": "1" * 4301,
    "@@big-exponent@@": "1e999999",
    "@@tiny-exponent@@": "1e-999999",
    "@@NaN@@": "NaN",
    "@@Infinity@@": "Infinity",
    "@@-Infinity@@": "-Infinity",
    "@@deep-arrays@@": "[" * 1000 + "]" * 1000,
    "@@deep-objects@@": '{"a":' * 1000 + "1" + "}" * 1000,
    "@@deep-33@@": "[" * 33 + "]" * 33,
    "@@deep-30000@@": "[" * 30_000 + "]" * 30_000,
    "@@escaped-surrogate@@": '"\\udcff\\ud800"',
    "@@escaped-controls@@": '"\\u001b[31m\\u0007\\u202e\\u0000\\u0085\\u009b"',
}

HOSTILE_STRINGS = ["", " ", "mcr", "score", "E", "self_draw", "chow", "1m", "1m1m1m", "/etc/passwd", "../../etc/hosts",
                   "/dev/zero", ".", "\x1b[31mred", "\u202eevil", "\x00", "\x07\x07", "[red]x[/]", "[/]", "\ud800",
                   "\x85", "🀇🀈🀉", "一万", "E\u3000", "true", "null", "1", "-1"]
FIELD_NAMES = ["id", "ruleset", "options", "kind", "input", "expect", "covers", "origin", "note", "concealed", "melds",
               "win_tile", "win_by", "discarder", "seat_wind", "round_wind", "flowers", "flags", "counters", "type",
               "tiles", "from", "after_knock", "valid", "total", "fans", "payments", "either", "error", "points",
               "count", "__proto__", "$ref", "", "\x1b", "\u202e"]


def huge_string() -> st.SearchStrategy[str]:
    """Long text, mostly within a case line's limit (the `overlong` damage of case_line goes past it)."""
    return st.builds(lambda s, n: s * n, st.sampled_from(["1m", "🀇", "x", "\x1b[31m", "\u202e", "一万", "\\"]),
                     st.one_of(st.integers(100, 8_000), st.integers(8_000, 40_000)))


def nested(depth: int):
    value: object = 1
    for _ in range(depth):
        value = [value]
    return value


HOSTILE_STRING_VALUES = st.one_of(
    st.sampled_from(HOSTILE_STRINGS + HOSTILE_RULESET_IDS + HOSTILE_BITS),
    st.text(max_size=20),
    CONTROL_TEXT,
    huge_string(),
)
HOSTILE_VALUES = st.one_of(
    HOSTILE_STRING_VALUES,
    st.sampled_from([None, True, False, 0, -1, 1, 2, 3, 4, 99, 100, 2 ** 31, 2 ** 63, 10 ** 30, -10 ** 30, 1.5, -0.0,
                     1e308, [], {}, [None], {"": None}]),
    st.sampled_from(list(RAW_JSON)),
    st.integers(),
    st.lists(st.one_of(st.integers(), st.text(max_size=5)), max_size=3),
    st.dictionaries(st.sampled_from(FIELD_NAMES), st.one_of(st.integers(), st.text(max_size=5), st.booleans()),
                    max_size=3),
    st.integers(28, 40).map(nested),
)


def paths_of(value, prefix=()) -> list[tuple]:
    """Every path into a JSON tree (dict keys and list indices), the root () included."""
    found = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            found += paths_of(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            found += paths_of(v, prefix + (i,))
    return found


def get_at(tree, path):
    for part in path:
        tree = tree[part]
    return tree


def swap_type(value):
    """A value of another JSON type holding something like the old one."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int):
        return [value] if value % 2 else str(value)
    if isinstance(value, str):
        return [value] if len(value) % 2 else {value: value}
    if isinstance(value, list):
        return {str(i): v for i, v in enumerate(value)}
    if isinstance(value, dict):
        return list(value.values()) or None
    return 0


def free_text_paths(case: dict) -> list[tuple]:
    """Where a case holds text the schema leaves free (so a hostile value there still makes a valid case):
    the id, the tile fields, the notes, and the names and values of options, flags and counters."""
    def items(value) -> list:
        return list(value.items()) if isinstance(value, dict) else list(enumerate(value)) \
            if isinstance(value, list) else []

    found = [(k,) for k in ("id", "origin", "note") if isinstance(case.get(k), str)]
    found += [("covers", i) for i, v in items(case.get("covers")) if isinstance(v, str)]
    found += [("options", k) for k, v in items(case.get("options")) if isinstance(v, str)]
    data = case.get("input")
    if isinstance(data, dict):
        found += [("input", k) for k in ("concealed", "win_tile", "flowers") if isinstance(data.get(k), str)]
        found += [("input", "melds", i, "tiles") for i, m in items(data.get("melds"))
                  if isinstance(m, dict) and isinstance(m.get("tiles"), str)]
    return found


def rename_key(case: dict, where: str, name: str, value) -> None:
    """Give `case[where]` (or `case["input"][where]`) one more entry: a hostile name with a valid value."""
    holder = case if where == "options" else case.get("input")
    if isinstance(holder, dict):
        if not isinstance(holder.get(where), dict):
            holder[where] = {}
        holder[where][name] = value


@st.composite
def mutated_case(draw) -> dict:
    """A corpus case with one or two mutations: hostile text where the schema allows any text (most often),
    or a dropped, replaced, added or retyped field, or a `ruleset` that names a path."""
    case = copy.deepcopy(draw(st.sampled_from(CORPUS_CASES)))
    for _ in range(draw(st.integers(1, 2))):
        paths = paths_of(case)
        inner = [p for p in paths if p]
        op = draw(st.sampled_from(["free_text"] * 4 + ["id"] * 3 + ["free_name"] * 2 +
                                  ["drop", "replace", "add", "swap", "ruleset", "input"]))
        free = free_text_paths(case)
        if op == "id":  # the one free text field a batch answer repeats
            case["id"] = draw(HOSTILE_STRING_VALUES)
        elif op == "free_text" and free:  # still a valid case: the tool reads it and may quote it
            path = draw(st.sampled_from(free))
            get_at(case, path[:-1])[path[-1]] = draw(HOSTILE_STRING_VALUES)
        elif op == "free_name":  # an option, flag or counter named with hostile text
            where = draw(st.sampled_from(["options", "flags", "counters"]))
            value = {"options": "true", "flags": True, "counters": 1}[where]
            rename_key(case, where, draw(HOSTILE_STRING_VALUES), value)
        elif op == "ruleset":
            case["ruleset"] = draw(st.sampled_from(HOSTILE_RULESET_IDS + ["mcr", "shanghai-knocking"]))
        elif op == "input" and isinstance(case.get("input"), dict):  # the fields a scorer reads, most often
            case["input"][draw(st.sampled_from(FIELD_NAMES[9:19]))] = draw(HOSTILE_VALUES)
        elif op == "drop" and inner:
            path = draw(st.sampled_from(inner))
            parent = get_at(case, path[:-1])
            del parent[path[-1]]
        elif op == "replace" and inner:
            path = draw(st.sampled_from(inner))
            get_at(case, path[:-1])[path[-1]] = draw(HOSTILE_VALUES)
        elif op == "swap" and inner:
            path = draw(st.sampled_from(inner))
            parent = get_at(case, path[:-1])
            parent[path[-1]] = swap_type(parent[path[-1]])
        elif op == "add":
            holders = [p for p in paths if isinstance(get_at(case, p), dict)]
            if holders:
                holder = get_at(case, draw(st.sampled_from(holders)))
                holder[draw(st.one_of(st.sampled_from(FIELD_NAMES), st.text(max_size=8)))] = draw(HOSTILE_VALUES)
        if not isinstance(case, dict):
            break
    return case


def case_text(value, ensure_ascii: bool) -> str:
    text = json.dumps(value, ensure_ascii=ensure_ascii)
    for marker, raw in RAW_JSON.items():
        text = text.replace(json.dumps(marker), raw)
    return text


@st.composite
def case_line(draw) -> bytes:
    """One JSON case line as bytes (no newline in it): a good corpus line or a mutated one, sometimes
    damaged at the byte level (invalid UTF-8, cut short, overlong, a BOM, a number of 5,000 digits)."""
    if draw(st.integers(0, 4)) == 0:
        text = draw(st.sampled_from(CORPUS_LINES))
    else:
        text = case_text(draw(mutated_case()), draw(st.booleans()))
    data = text.encode("utf-8", "surrogatepass")  # a lone surrogate is itself invalid UTF-8
    damage = draw(st.sampled_from(["none"] * 10 + ["invalid_utf8", "cut", "overlong", "bom", "near_limit", "nul"]))
    if damage == "invalid_utf8":
        at = draw(st.integers(0, len(data)))
        data = data[:at] + draw(st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xc0\xaf",
                                                 b"\x80", b"\xe2\x82"])) + data[at:]
    elif damage == "cut":
        data = data[:draw(st.integers(0, len(data)))]
    elif damage == "bom":
        data = b"\xef\xbb\xbf" + data
    elif damage == "nul":
        at = draw(st.integers(0, len(data)))
        data = data[:at] + b"\x00" + data[at:]
    elif damage in ("overlong", "near_limit") and data.startswith(b"{") and data.endswith(b"}") and len(data) > 2:
        # a `note` field in front (a later `note` of the case wins) makes the line longer than the limit, or
        # brings it within two bytes of it
        delta = draw(st.integers(1, 3 * MAX_CASE_LINE_BYTES)) if damage == "overlong" else draw(st.integers(-2, 2))
        head, tail = b'{"note": "', b'", '
        filler = MAX_CASE_LINE_BYTES + delta - (len(data) - 1) - len(head) - len(tail)
        if filler >= 0:
            data = head + b"x" * filler + tail + data[1:]
    return Blob(data.replace(b"\n", b" "))


def expected_answers(data: bytes) -> list[int]:
    """The numbers of the lines a batch must answer: every line but the blank and the `#` ones (a line that
    is overlong or not UTF-8 is answered, with its error)."""
    raw_lines = data.split(b"\n")
    if raw_lines and raw_lines[-1] == b"":
        raw_lines.pop()
    answered = []
    for number, raw in enumerate(raw_lines, 1):
        if len(raw) > MAX_CASE_LINE_BYTES:
            answered.append(number)
            continue
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            answered.append(number)
            continue
        if text.strip() and not text.strip().startswith("#"):
            answered.append(number)
    return answered


def line_status(answer: dict) -> int:
    """The exit status one batch answer stands for."""
    if "error" in answer:
        return 2
    if "matches" in answer:
        return 0 if answer["matches"] else 1
    result = answer["result"]
    if "message" in result:  # refused input: {"valid": false, "error": RULE, "message": …}
        return 2
    return 0 if result.get("valid") or "either" in result else 1


def run_batch(path: Path, data: bytes, stdin: bool = False):
    """Run --batch on `data` and check every answer; returns (result, answers by line number)."""
    result = invoke(["score", "--batch", "-"], input=data) if stdin else invoke(["score", "--batch", str(path)])
    want = expected_answers(data)
    check_run(result, limit=OUTPUT_LIMIT * max(1, len(want)) + 200)
    lines = stdout_lines(result)
    answers = []
    for text in lines:
        assert len(text) <= OUTPUT_LIMIT, f"a batch answer of {len(text):,} characters: {text[:300]!r}"
        answer = json.loads(text)
        assert isinstance(answer, dict) and isinstance(answer.get("line"), int), text[:300]
        assert ("result" in answer) != ("error" in answer), text[:300]
        if "error" in answer:
            assert answer["error"] and answer.get("message"), f"a refused line that does not say why: {text[:300]}"
        answers.append(answer)
    assert [a["line"] for a in answers] == want, "answers do not match the input lines one for one, in order"
    if answers:
        assert result.exit_code == max(line_status(a) for a in answers)
    else:
        assert result.exit_code == 0
    return result, {a["line"]: a for a in answers}


_ALONE: dict[str, dict] = {}


def alone(directory: Path, text: str) -> dict:
    """The answer for one good line scored in a batch of its own (without its line number)."""
    if text not in _ALONE:
        path = temp_file(directory, text.encode("utf-8") + b"\n")
        _, answers = run_batch(path, path.read_bytes())
        _ALONE[text] = {k: v for k, v in answers[1].items() if k != "line"}
    return _ALONE[text]


BLANK_LINES = [b"", b"   ", b"\t", b"\r", "\u3000".encode(), " \x0c ".encode(), "\x1c".encode()]
COMMENT_LINES = [b"#", b"# a comment", b"   # indented", "#\x1b[31m \u202e".encode(), b"#" + b"x" * 100]
JUNK_LINES = [b"\xff", b"{", b"}", b"[]", b"null", b"{}", b'"case"', b"1", b"\x00", b"\xef\xbb\xbf", b"{\"ruleset\":",
              b"x" * (MAX_CASE_LINE_BYTES + 1), b" " * 10 + b"x" * (MAX_CASE_LINE_BYTES + 10), b"\x1b[31m",
              "\u202e{}".encode(), b"[" * 5000, b"\\", b"\xc3\x28\x00"]


@st.composite
def batch_file(draw) -> tuple[bytes, dict[int, str]]:
    """A JSON Lines file of good corpus lines among mutated, blank, comment and junk lines, with CRLF or LF
    line ends; returns its bytes and the good lines by line number."""
    good: dict[int, str] = {}
    chunks = []
    n = draw(st.integers(1, 8))
    for number in range(1, n + 1):
        kind = draw(st.sampled_from(["good", "good", "mutated", "mutated", "blank", "comment", "junk"]))
        if kind == "good":
            text = draw(st.sampled_from(CORPUS_LINES))
            good[number] = text
            raw = text.encode("utf-8")
        elif kind == "mutated":
            raw = draw(case_line())
        elif kind == "blank":
            raw = draw(st.sampled_from(BLANK_LINES))
        elif kind == "comment":
            raw = draw(st.sampled_from(COMMENT_LINES))
        else:
            raw = draw(st.one_of(st.sampled_from(JUNK_LINES), st.binary(max_size=30).map(lambda b: b.replace(b"\n", b""))))
        end = draw(st.sampled_from([b"\n", b"\n", b"\r\n"]))
        chunks.append(raw + (b"" if number == n and draw(st.booleans()) else end))
    return Blob(b"".join(chunks)), good


def with_field(text: str, **fields) -> str:
    """A corpus line with some of its fields replaced."""
    return json.dumps({**json.loads(text), **fields}, ensure_ascii=False)


def padded_to(text: str, size: int) -> bytes:
    """A corpus line padded (with a leading `note` the case's own `note` overrides) to exactly `size` bytes."""
    data = text.encode("utf-8")
    head, tail = b'{"note": "', b'", '
    return head + b"x" * (size - (len(data) - 1) - len(head) - len(tail)) + tail + data[1:]


@fuzz(25)
@given(batch=batch_file(), stdin=st.booleans())
def test_batch_answers_every_line_and_keeps_good_results(workdir, batch, stdin):
    batch_property(workdir, batch, stdin)


def batch_property(workdir: Path, batch: tuple[bytes, dict[int, str]], stdin: bool) -> None:
    data, good = batch
    path = temp_file(workdir, data)
    try:
        _, answers = run_batch(path, data, stdin=stdin)
    finally:
        path.unlink()
    for number, text in good.items():
        got = {k: v for k, v in answers[number].items() if k != "line"}
        assert got == alone(workdir, text), f"good line {number} scored differently among other lines"


@fuzz(15)
@given(line=case_line(), via_stdin=st.booleans())
def test_case_modes_agree_on_exit_status(workdir, line, via_stdin):
    text = line.decode("utf-8", "replace").strip()
    assume(text and not text.startswith("#"))  # a batch skips blank and comment lines; --case refuses them
    modes_property(workdir, line, via_stdin)


def modes_property(workdir: Path, line: bytes, via_stdin: bool) -> None:
    data = line + b"\n"
    path = temp_file(workdir, data, ".json")
    try:
        case_args = ["score", "--case", "-"] if via_stdin else ["score", "--case", str(path)]
        stdin = data if via_stdin else None
        alone_case = invoke(case_args, input=stdin)
        check_run(alone_case)
        as_json = invoke(case_args + ["--json"], input=stdin)
        check_run(as_json)
        batch, answers = run_batch(path, data)
    finally:
        path.unlink()
    statuses = {"--case": alone_case.exit_code, "--case --json": as_json.exit_code, "--batch": batch.exit_code}
    assert len(set(statuses.values())) == 1, f"one case, different exit statuses: {statuses}"
    if as_json.exit_code != 2 or as_json.stdout_bytes:
        for text in stdout_lines(as_json):
            if text.startswith("{"):
                json.loads(text)


# --------------------------------------------------------------------------- 6. YAML specs

try:
    _YAML_LOADER = yaml.CSafeLoader
except AttributeError:  # PyYAML without its C extension
    _YAML_LOADER = yaml.SafeLoader

_SPEC_DATA: dict[str, object] = {}


def spec_data(name: str):
    if name not in _SPEC_DATA:
        _SPEC_DATA[name] = yaml.load(SPEC_FILES[name].read_text(encoding="utf-8"), Loader=_YAML_LOADER)
    return copy.deepcopy(_SPEC_DATA[name])


SPEC_TEXT_DAMAGE = {
    "deep_list": lambda text: text + "\ndeep: " + "[" * 5000 + "]" * 5000 + "\n",
    "deep_block": lambda text: text + "\ndeep:\n" + "".join("  " * i + "- \n" for i in range(1, 400)),
    "alias_bomb": lambda text: text + '\nbomb_a: &a ["x", "x", "x", "x", "x", "x", "x", "x", "x"]\n'
                                      'bomb_b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n'
                                      'bomb_c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n',
    "python_tag": lambda text: text + "\npwn: !!python/object/apply:os.system ['touch /tmp/mjcheck-hostile-pwned']\n",
    "huge_int": lambda text: text.replace("points: 8\n", "points: " + "9" * 10_000 + "\n", 1),
    "tabs": lambda text: text.replace("\n  ", "\n\t", 3),
    "duplicate_key": lambda text: text + "\nid: again\n",
    "invalid_utf8": lambda text: text,  # handled on bytes below
    "control_chars": lambda text: text.replace("title:", "title: \"\\e[31m\\u202e\\a\"\nx_title:", 1),
    "markup": lambda text: re.sub(r"^id: (.*)$", r'id: "[/][red]\1\\e[31m"', text, count=1, flags=re.M),
}


SHOWN_SPEC_TEXT = {"en", "zh", "requirement", "message", "about", "summary", "note"}
SPEC_STRINGS = ["[/]", "[red]", "[bold red]x[/]", "[link=file:///etc/passwd]x[/link]", "\x1b[2J\x1b[31m", "\u202eevil",
                "\x07\x08", "\x9b31m", "x" * 20_000, "\x1b]0;title\x07" * 500, "[" * 1000, "\\[/]", "%s{}"]


@st.composite
def mutated_spec(draw) -> tuple[str, bytes]:
    """A spec file mutated from one of the three: a swapped type, a deleted key, a number out of range, an
    exclusion cycle, or damage to its YAML text."""
    name = draw(st.sampled_from(RULESETS))
    spec = spec_data(name)
    op = draw(st.sampled_from(["swap", "delete", "range", "cycle", "text", "string", "string"]))
    if op == "text":
        damage = draw(st.sampled_from(sorted(SPEC_TEXT_DAMAGE)))
        text = SPEC_TEXT_DAMAGE[damage](SPEC_FILES[name].read_text(encoding="utf-8"))
        data = text.encode("utf-8")
        if damage == "invalid_utf8":
            at = draw(st.integers(0, len(data)))
            data = data[:at] + b"\xff\xfe" + data[at:]
        return name, Blob(data)
    paths = [p for p in paths_of(spec) if p]
    if op == "string":  # text the tool prints (a title, a pattern's name, a rule's message) made hostile
        key = draw(st.sampled_from(sorted(SHOWN_SPEC_TEXT)))
        shown = [p for p in paths if p[-1] == key and isinstance(get_at(spec, p), str)]
        if shown:
            chosen = shown if draw(st.booleans()) else draw(st.lists(st.sampled_from(shown), min_size=1, max_size=3))
            text = draw(st.sampled_from(SPEC_STRINGS))
            for path in chosen:
                get_at(spec, path[:-1])[path[-1]] = text
    elif op == "swap":
        path = draw(st.sampled_from(paths))
        parent = get_at(spec, path[:-1])
        parent[path[-1]] = swap_type(parent[path[-1]])
    elif op == "delete":  # a required key most of the time: top level, or a pattern's / option's own keys
        required = [p for p in paths if len(p) == 1 or (len(p) == 3 and p[0] in ("patterns", "options"))]
        path = draw(st.sampled_from(required if draw(st.booleans()) else paths))
        del get_at(spec, path[:-1])[path[-1]]
    elif op == "range":
        numbers = [p for p in paths if isinstance(get_at(spec, p), int) and not isinstance(get_at(spec, p), bool)]
        if numbers:
            path = draw(st.sampled_from(numbers))
            get_at(spec, path[:-1])[path[-1]] = draw(st.sampled_from(
                [-1, -10 ** 9, 0, 10 ** 30, 2 ** 63, 1.5, float("inf"), float("nan"), 10 ** 6 + 1]))
    else:  # an exclusion cycle: a excludes b and b excludes a (or a excludes itself, or an unknown id)
        patterns = spec["patterns"]
        a, b = draw(st.integers(0, len(patterns) - 1)), draw(st.integers(0, len(patterns) - 1))
        target = draw(st.sampled_from([patterns[b]["id"], patterns[a]["id"], "no_such_pattern"]))
        patterns[a].setdefault("excludes", []).append(target)
        patterns[b].setdefault("excludes", []).append(patterns[a]["id"])
    text = yaml.safe_dump(spec, allow_unicode=True, sort_keys=False)
    return name, Blob(text.encode("utf-8"))


def pinned_spec(name: str, title: str) -> tuple[str, bytes]:
    spec = spec_data(name)
    spec["title"]["en"] = title
    return name, yaml.safe_dump(spec, allow_unicode=True, sort_keys=False).encode("utf-8")


@fuzz(12)
@given(spec=mutated_spec())
def test_mutated_specs_validate_or_refuse(workdir, spec):
    spec_property(workdir, spec)


def spec_property(workdir: Path, spec: tuple[str, bytes]) -> None:
    name, data = spec
    path = temp_file(workdir, data, ".yaml")
    try:
        checked = invoke(["spec", "validate", str(path)])
        out = check_run(checked, limit=200_000)
        for line in out.split("\n"):
            assert len(line) <= 2_500, f"a spec problem of {len(line):,} characters: {line[:300]!r}"
        assert checked.exit_code in (0, 2)
        if checked.exit_code == 0:
            assert "ok" in out
            scored = invoke(["score", "--ruleset-file", str(path), *BASE_HANDS[name]])
            check_run(scored)
    finally:
        path.unlink()
    assert not Path("/tmp/mjcheck-hostile-pwned").exists(), "a YAML tag ran a command"


# --------------------------------------------------------------------------- 7. files

def bad_paths(directory: Path) -> dict[str, str]:
    invalid = directory / "invalid-utf8.jsonl"
    invalid.write_bytes(b'{"id": "\xff\xfe", "ruleset": "mcr"}\n')
    return {
        "directory": str(directory),
        "empty name": "",
        "300-character name": str(directory / ("x" * 300)),
        "missing file": str(directory / "no-such-file.json"),
        "invalid UTF-8": str(invalid),
        "/dev/null": "/dev/null",
    }


SURFACES = {
    "--case": lambda p: ["score", "--case", p],
    "--case --json": lambda p: ["score", "--case", p, "--json"],
    "--batch": lambda p: ["score", "--batch", p],
    "--ruleset-file": lambda p: ["score", "--ruleset-file", p, *BASE_HANDS["mcr"]],
    "spec validate": lambda p: ["spec", "validate", p],
}
BAD_KINDS = ["directory", "empty name", "300-character name", "missing file", "invalid UTF-8", "/dev/null"]


@pytest.mark.parametrize("kind", BAD_KINDS)
@pytest.mark.parametrize("surface", sorted(SURFACES))
def test_unreadable_files_are_refused(workdir, surface, kind):
    if kind == "/dev/null" and not os.path.exists("/dev/null"):
        pytest.skip("no /dev/null")
    path = bad_paths(workdir)[kind]
    result = invoke(SURFACES[surface](path))
    out = check_run(result)
    assert result.exit_code == 2, out
    if surface == "--batch" and kind == "invalid UTF-8":
        # A batch reads each line on its own: the line that is not UTF-8 is answered with its error.
        (answer,) = [json.loads(text) for text in stdout_lines(result)]
        assert answer["line"] == 1 and "UTF-8" in answer["message"]
    else:
        assert "cannot read" in out, out


FIFO_TIMEOUT = 8  # seconds: a refusal takes well under one (the process starts in about half a second)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
@pytest.mark.parametrize("surface", ["--case", "--batch", "--ruleset-file", "spec validate"])
def test_fifo_is_refused_without_hanging(workdir, surface):
    fifo = workdir / f"fifo-{surface.strip('-').replace(' ', '-')}"
    if not fifo.exists():
        os.mkfifo(fifo)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    proc = run_subprocess(SURFACES[surface](str(fifo)), timeout=FIFO_TIMEOUT)
    assert proc is not None, f"mjcheck {surface} FIFO hangs (no answer within {FIFO_TIMEOUT} s)"
    out = check_process(proc)
    assert proc.returncode == 2 and "cannot read" in out, out


def test_real_byte_streams_on_stdin():
    """--batch - in a real process: raw bytes on stdin, line ends and all."""
    good = CORPUS_LINES[0].encode("utf-8")
    lines = [good, b"\xff\xfe garbage", b"x" * (MAX_CASE_LINE_BYTES + 5), b"", b"# comment", good + b"\r",
             b"\x00\x00", b"\xef\xbb\xbf" + good, '{"id": "\x1b[2J\u202e", "ruleset": "mcr"}'.encode(),
             b'{"id": "\\u001b]0;x\\u0007\\u202e", "ruleset": "mcr", "kind": "score", "input": {}}', good]
    data = b"\n".join(lines)  # the last line without a newline
    proc = run_subprocess(["score", "--batch", "-"], input=data)
    assert proc is not None, "mjcheck score --batch - hangs"
    check_process(proc, limit=OUTPUT_LIMIT * len(lines))
    answers = [json.loads(text) for text in proc.stdout.decode("utf-8").split("\n") if text]
    assert [a["line"] for a in answers] == expected_answers(data)
    assert answers[0]["matches"] is True and answers[-1]["matches"] is True
    assert proc.returncode == 2


def test_undecodable_command_line_bytes():
    """Bytes on the command line that are not UTF-8 reach Python as lone surrogates."""
    proc = subprocess.run([*python_cli(), "score", b"1m1m1m2m2m2m3p3p\xff\xfe3p4s4s4s5m5m", "--meld", b"chow:\xe4m"],
                          capture_output=True, timeout=SUBPROCESS_TIMEOUT, cwd=ROOT, env=clean_env())
    out = check_process(proc)
    assert proc.returncode == 2, out


# --------------------------------------------------------------------------- pinned inputs

# The same properties on inputs worth trying in every run, whatever the fuzzers draw (kept out of the
# Hypothesis tests as @example, where a failing one would stop the search before it starts).
PINNED = {
    "hand: long run of escapes and bidi overrides": lambda d: hand_property(
        [], ["\x1b[31m1m\u202e" * 3000, "--win", "\x07"], False),
    "hand: Rich markup": lambda d: hand_property(["-r", "shanghai-classic"], ["[/]1m[red]", "--win", "[/]"], False),
    "hand: -r /etc/passwd": lambda d: hand_property(["-r", "/etc/passwd"], ["1m1m1m2m2m2m3p3p3p4s4s4s5m5m"], True),
    "batch: ids with control characters": lambda d: batch_property(d, (b"\n".join([
        CORPUS_LINES[0].encode(), with_field(CORPUS_LINES[1], id="\u202e\x85\x1b[2J").encode(), b"\xff",
        CORPUS_LINES[3].encode()]) + b"\n", {1: CORPUS_LINES[0], 4: CORPUS_LINES[3]}), False),
    "batch: a 50,000-character id": lambda d: batch_property(d, (b"\n".join([
        CORPUS_LINES[0].encode(), with_field(CORPUS_LINES[2], id="z" * 50_000).encode()]) + b"\n",
        {1: CORPUS_LINES[0]}), False),
    "modes: a case line of exactly MAX_CASE_LINE_BYTES": lambda d: modes_property(
        d, padded_to(CORPUS_LINES[0], MAX_CASE_LINE_BYTES), False),
    "modes: an id of 3,000 bidi overrides": lambda d: modes_property(
        d, with_field(CORPUS_LINES[0], id="\u202e" * 3000).encode(), True),
    "spec: a title with Rich markup and escapes": lambda d: spec_property(
        d, pinned_spec("shanghai-knocking", "[/]\x1b[2J\u202e")),
    "spec: a pattern name with Rich markup": lambda d: spec_property(d, pinned_pattern_name("mcr", "[/]")),
}


def pinned_pattern_name(name: str, text: str) -> tuple[str, bytes]:
    spec = spec_data(name)
    for pattern in spec["patterns"]:
        pattern["name"]["en"] = text
    return name, yaml.safe_dump(spec, allow_unicode=True, sort_keys=False).encode("utf-8")


@pytest.mark.parametrize("name", sorted(PINNED))
def test_pinned_hostile_inputs(workdir, name):
    PINNED[name](workdir)
