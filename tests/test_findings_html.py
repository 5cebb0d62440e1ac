"""The hunter's findings pages and the sweep's report as HTML (findings-R.html, sweep.html): tiles drawn by
checker.draw as inline SVG titled with their names, flowers as the command line reads them, every Chinese name
with its English, each page written beside its Markdown and readable 390 pixels wide.

Expected tile names, Unicode glyph names and English fan names are written out here by hand (from DESIGN.md's
tile notation, the Unicode Mahjong Tiles block and spec/*.yaml's `name.en`); what a page must show is worked out
from the data it was made from (the findings body, sweep.json), never read from the page itself. The browser
tests open the pages in Debian's chromium through Playwright (tests/conftest.py) at 1280 and 390 pixels.
"""
from __future__ import annotations

import fnmatch
import json
import re
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from conftest import browser_test, no_sideways_scroll, opened
from markupsafe import escape
from typer.testing import CliRunner

from checker.cli import app
from checker.draw import TILE_GLYPHS
from checker.engine import load_ruleset
from checker.hunt.page import Drawing, drawn, gloss, html_page, ordered
from checker.sweep.report import html_page as sweep_html_page
from checker.tiles import parse_tiles

ROOT = Path(__file__).resolve().parents[1]
FINDINGS = ROOT / "reports" / "findings"
WIDTHS = (1280, 390)
SUITS = {"m": "characters", "p": "dots", "s": "bamboo"}
HONOURS = {"1z": "East wind", "2z": "South wind", "3z": "West wind", "4z": "North wind", "5z": "White dragon",
           "6z": "Green dragon", "7z": "Red dragon"}
FLOWERS = {"1f": "Spring", "2f": "Summer", "3f": "Autumn", "4f": "Winter", "5f": "Plum", "6f": "Orchid",
           "7f": "Chrysanthemum", "8f": "Bamboo"}
NAME = re.compile(r"[1-9][mps]|[1-7]z|[1-8]f")


def title_of(name: str) -> str:
    """A tile's title as DESIGN.md names it: "5 of dots (5p)", "East wind (1z)", "Spring flower (1f)"."""
    if name[1] in SUITS:
        return f"{name[0]} of {SUITS[name[1]]} ({name})"
    return f"{HONOURS[name]} ({name})" if name[1] == "z" else f"{FLOWERS[name]} flower ({name})"


def titles(html: str) -> list[str]:
    """The titles of the tiles drawn in a piece of a page, in order (each drawn tile is an <svg class="tile">)."""
    return re.findall(r'<svg class="tile"[^>]*><title>([^<]*)</title>', html)


# ------------------------------------------------------------------ one glyph map, as the command line reads it

UNICODE_NAMES = {  # the Unicode Mahjong Tiles block's names, by tile (U+1F000-U+1F029)
    **{f"{r}{s}": f"MAHJONG TILE {w} OF {suit}" for s, suit in (("m", "CHARACTERS"), ("p", "CIRCLES"),
                                                               ("s", "BAMBOOS"))
       for r, w in enumerate(("ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE"), 1)},
    "1z": "MAHJONG TILE EAST WIND", "2z": "MAHJONG TILE SOUTH WIND", "3z": "MAHJONG TILE WEST WIND",
    "4z": "MAHJONG TILE NORTH WIND", "5z": "MAHJONG TILE WHITE DRAGON", "6z": "MAHJONG TILE GREEN DRAGON",
    "7z": "MAHJONG TILE RED DRAGON", "1f": "MAHJONG TILE SPRING", "2f": "MAHJONG TILE SUMMER",
    "3f": "MAHJONG TILE AUTUMN", "4f": "MAHJONG TILE WINTER", "5f": "MAHJONG TILE PLUM", "6f": "MAHJONG TILE ORCHID",
    "7f": "MAHJONG TILE CHRYSANTHEMUM", "8f": "MAHJONG TILE BAMBOO",
}


def test_each_glyph_is_the_tile_the_command_line_reads_it_as():
    assert len(set(TILE_GLYPHS)) == 42
    for name, unicode_name in UNICODE_NAMES.items():
        [tile] = parse_tiles(name)
        assert unicodedata.name(TILE_GLYPHS[tile]) == unicode_name, name
        assert parse_tiles(TILE_GLYPHS[tile]) == [tile]  # the parser reads the glyph back as the same tile


def test_flowers_are_written_and_drawn_as_spring_summer_autumn_winter_then_plum_orchid_chrysanthemum_bamboo():
    # the Markdown glyphs: 1f is 🀦 (spring), 5f 🀢 (plum), 7f 🀥 (chrysanthemum), 8f 🀤 (bamboo)
    assert drawn("1f2f3f4f5f6f7f8f") == "🀦🀧🀨🀩🀢🀣🀥🀤 (1f2f3f4f5f6f7f8f)"
    # the HTML draws what the command line reads: 春 and 🀦 are 1f, 菊 and 🀥 are 7f
    for written, name in (("春", "1f"), ("🀦", "1f"), ("梅", "5f"), ("菊", "7f"), ("🀥", "7f"), ("竹", "8f")):
        assert titles(Drawing().tiles(written)) == [title_of(name)], written


# ------------------------------------------------------------------ the findings page (no browser)

def hand_made_finding() -> dict[str, Any]:
    """A finding of shanghai-classic written here: a hand with two melds and two flowers, Chinese names in its
    title, a note with code, a reading that already gives its English."""
    return {
        "id": "shanghai-classic-9999", "ruleset": "shanghai-classic", "kind": "non-monotonic", "key": "test.hand-made",
        "title": "八花齐 beside one more 荒番", "rules": ["fan.eight_flowers"],
        "statements": [{"id": "s", "doc": "001_83aec190f966708c.txt", "section": "牌型说明",
                        "phrase": "胡牌时是由同一花色的牌构成的牌", "rules": []}],
        "witness": {"ruleset": "shanghai-classic", "options": {}, "kind": "score", "input": {
            "concealed": "2p3p4p6p6p6p7s7s", "melds": [{"type": "pung", "tiles": "5m5m5m", "from": 2},
                                                        {"type": "chow", "tiles": "1s2s3s", "from": 3}],
            "win_tile": "7s", "win_by": "discard", "discarder": 1, "flowers": "1f5f",
            "flags": {"knocked": True}, "counters": {"huangfan": 1}}},
        "outcomes": [{"reading": "with Last tile (和绝张)", "means": "the `flag` given",
                      "result": {"valid": True, "total": 20, "fans": [{"id": "peng_peng_hu", "points": 2, "count": 1}],
                                 "payments": [20, -10, -5, -5]}}],
        "method": "hypothesis", "deciding_option": None, "note": "see `mjcheck score --case`",
    }


@pytest.fixture(scope="module")
def findings_body() -> dict[str, Any]:
    """The checked-in shanghai-classic findings (hands of play, quotes in Chinese), and the hand-made one."""
    body = json.loads((FINDINGS / "findings-shanghai-classic.json").read_text(encoding="utf-8"))
    body["findings"].append(hand_made_finding())
    body["counts"]["non-monotonic"] += 1
    return body


@pytest.fixture(scope="module")
def findings_page(findings_body, tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("findings") / "findings-shanghai-classic.html"
    path.write_text(html_page("shanghai-classic", load_ruleset("shanghai-classic").title, findings_body),
                    encoding="utf-8")
    return path


def finding_ids(html: str) -> list[str]:
    """The ids of the findings a page shows, in order (each a <section class="finding KIND" id="ID">)."""
    return re.findall(r'<section class="finding [^"]+" id="([^"]+)"', html)


def section(html: str, anchor: str) -> str:
    """The part of a page from the element with id `anchor` to the next section."""
    start = html.index(f'id="{anchor}"')
    end = html.find("<section", start)
    return html[start:end if end > 0 else len(html)]


def test_the_findings_page_has_every_finding_and_the_counts(findings_page, findings_body):
    html = findings_page.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>")
    assert finding_ids(html) == [f["id"] for f in ordered(findings_body)]  # in the order of their root issues
    for kind, n in findings_body["counts"].items():
        assert re.search(rf"<tr><td>{kind}</td><td>[^<]*</td><td class=\"n\">{n}</td></tr>", html), kind
    # self-contained: nothing fetched, no script
    assert not re.search(r"<script|<link|<img|src=|@import|url\(", html)


def test_the_witness_is_drawn_tile_by_tile_with_each_tiles_name(findings_page):
    html = findings_page.read_text(encoding="utf-8")
    made = section(html, "shanghai-classic-9999")
    hand = made[made.index('<div class="hand">'):]
    groups = re.findall(r'<span class="group ([a-z]+)"><small>([^<]*)</small>(.*?)</span></span>', hand)
    assert [(kind, label) for kind, label, _ in groups] == [
        ("concealed", "concealed"), ("meld", "pung from the player across"), ("meld", "chow from the previous player"),
        ("win", "wins on it, discarded by the next player"), ("flowers", "flowers")]
    expected = ["2p3p4p6p6p6p7s7s", "5m5m5m", "1s2s3s", "7s", "1f5f"]
    for (_, _, tiles), names in zip(groups, expected):
        assert titles(tiles) == [title_of(n) for n in NAME.findall(names)]
    assert "counters: huangfan 1" in hand and "context: knocked" in hand
    assert '<span class="fan" title="peng_peng_hu">All pungs</span> 2' in made  # spec/shanghai-classic.yaml's name
    # each tile drawn is defined once on the page, and every one drawn is defined
    defined = re.findall(r'<symbol id="tile-([^"]+)"', html)
    used = set(re.findall(r'<use href="#tile-([^"]+)"/>', html))
    assert len(defined) == len(set(defined)) and set(defined) == used


def test_chinese_names_carry_their_english(findings_page):
    made = section(findings_page.read_text(encoding="utf-8"), "shanghai-classic-9999")
    # spec/shanghai-classic.yaml: 八花齐 "All eight flowers", 荒番 "Hand after a draw"; the document's section name
    assert ('八花齐<span class="en"> (All eight flowers)</span> beside one more '
            '荒番<span class="en"> (Hand after a draw)</span>') in made
    assert '牌型说明<span class="en"> (' in made
    assert "<code>with Last tile (和绝张)</code>" in made  # the English already given: no second one
    assert "<code>flag</code>" in made and "<code>mjcheck score --case</code>" in made  # `code` in a note
    assert str(gloss("同一花色", "shanghai-classic")) == "同一花色"  # 花 inside a word is not the name hua
    # 花 alone: hua, the points of shanghai-classic; a pattern of shanghai-knocking, named there
    assert str(gloss("花 from flowers", "shanghai-classic")) == '花<span class="en"> (hua, points)</span> from ' \
                                                                 'flowers'
    assert str(gloss("花", "shanghai-knocking")) == '花<span class="en"> (Flower or dragon kept)</span>'
    assert str(gloss("荒番", "mcr")) == '荒番<span class="en"> (Hand after a draw)</span>'  # another ruleset's name


def test_the_pages_name_cjk_fonts_first_and_fall_back(findings_page):
    # with a CJK font installed the names render in it; without one the English beside each is still readable
    conform = (ROOT / "checker" / "conform" / "templates" / "report.html.j2").read_text(encoding="utf-8")
    for css in (findings_page.read_text(encoding="utf-8"), conform):
        body = re.search(r"body \{ font-family: ([^;]+);", css)
        assert body is not None
        fonts = [f.strip().strip('"') for f in body.group(1).split(",")]
        for font in ("Noto Sans CJK SC", "Source Han Sans SC", "PingFang SC", "Microsoft YaHei"):
            assert font in fonts
        assert fonts[-1] == "sans-serif"


def test_the_checked_in_pages_are_made_from_the_checked_in_data():
    for path in sorted(FINDINGS.glob("findings-*.json")):
        body = json.loads(path.read_text(encoding="utf-8"))
        html = path.with_suffix(".html").read_text(encoding="utf-8")
        assert finding_ids(html) == [f["id"] for f in ordered(body)], (
            f"{path.with_suffix('.html')} is not made from {path.name}: python -m checker.hunt.page {path}")
    sweeps = sorted((ROOT / "reports").glob("sweep-*.json"))
    assert sweeps
    for path in sweeps:
        body = json.loads(path.read_text(encoding="utf-8"))
        html = path.with_suffix(".html").read_text(encoding="utf-8")
        assert html.count('<section class="class"') == len(body["classes"]), (
            f"{path.with_suffix('.html')} is not made from {path.name}: python -m checker.sweep.report {path}")


def test_the_templates_ship_with_the_package():
    # a regular install carries only the package data pyproject.toml names: a template left out is missing from
    # every install but an editable one (the pages then fail only in CI)
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["package-data"]
    for package in ("checker.hunt", "checker.sweep", "checker.conform"):
        folder = ROOT.joinpath(*package.split("."))
        templates = [p.relative_to(folder).as_posix() for p in (folder / "templates").iterdir()]
        assert templates and all(any(fnmatch.fnmatch(t, pattern) for pattern in data.get(package, []))
                                 for t in templates), (package, templates, data.get(package))


def test_the_hunt_writes_the_html_page_beside_the_markdown(tmp_path):
    r = CliRunner().invoke(app, ["hunt", "--ruleset", "shanghai-knocking", "--budget", "1", "--seed", "3",
                                 "--out", str(tmp_path)])
    body = json.loads((tmp_path / "findings-shanghai-knocking.json").read_text(encoding="utf-8"))
    assert r.exit_code == (3 if body["stopped_early"] else 0), r.output  # a second: it may stop early, and says so
    html = (tmp_path / "findings-shanghai-knocking.html").read_text(encoding="utf-8")
    assert (tmp_path / "findings-shanghai-knocking.md").exists()
    assert "findings-shanghai-knocking.md and .html" in r.output
    assert finding_ids(html) == [f["id"] for f in ordered(body)]


def test_a_run_that_stops_early_says_so_at_the_top_of_each_page_and_lists_what_it_left_out(tmp_path):
    # two passes of counted work asked for, capped at one second: the cap leaves searches, a pass and the pairs
    # of readings undone, and the file, both pages and the command's summary say so
    r = CliRunner().invoke(app, ["hunt", "--ruleset", "shanghai-knocking", "--effort", "2", "--budget", "1",
                                 "--seed", "3", "--out", str(tmp_path)])
    assert r.exit_code == 3, r.output  # it did not do all it set out to do: not exit 0
    body = json.loads((tmp_path / "findings-shanghai-knocking.json").read_text(encoding="utf-8"))
    assert body["effort"] == 2 and body["budget"] == 1 and body["stopped_early"]
    assert body["pairs"]["searched"] < body["pairs"]["of"]
    md = (tmp_path / "findings-shanghai-knocking.md").read_text(encoding="utf-8")
    html = (tmp_path / "findings-shanghai-knocking.html").read_text(encoding="utf-8")
    assert "`mjcheck hunt --ruleset shanghai-knocking --effort 2 --budget 1 --seed 3`" in md
    for page in (md, html):
        assert "This run stopped early" in page and "What this run left out" in page
        assert page.index("This run stopped early") < page.index("contradiction")  # before the counts
    for label in body["skipped"]:
        assert f"- {label}" in md
    assert "stopped early: " in " ".join(r.output.split())


def test_the_hunt_refuses_at_once_an_html_page_it_cannot_write(tmp_path):
    (tmp_path / "findings-shanghai-knocking.html").mkdir()
    r = CliRunner().invoke(app, ["hunt", "--ruleset", "shanghai-knocking", "--budget", "1", "--seed", "3",
                                 "--out", str(tmp_path)])
    assert r.exit_code == 2 and "findings-shanghai-knocking.html" in r.output
    assert not (tmp_path / "findings-shanghai-knocking.json").exists()  # refused before any search


# ------------------------------------------------------------------ the sweep's page

READING = "four_concealed_pungs_with_fully_concealed=false"
SWEEP = ["sweep", "--ruleset", "mcr", "--against", "reference", "--against-options", READING, "--limit", "24",
         "--shard-hands", "6", "--workers", "1"]


def _in_process(plan, pending, workers, scheduler):
    """The shards' summaries scored in this process rather than on Dask (the page is what is tested here)."""
    from checker.sweep.work import sweep_shard

    for a, b in pending:
        yield sweep_shard(plan.ruleset, plan.space, a, b, plan.options, plan.against, plan.against_options,
                          plan.context, plan.open_melds)


@pytest.fixture(scope="module")
def swept(tmp_path_factory) -> Path:
    """A sweep of the concealed space's first 24 hands against the other reading of four concealed pungs."""
    from checker.sweep import run

    out = tmp_path_factory.mktemp("sweep") / "out"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(run, "shard_summaries", _in_process)
        r = CliRunner().invoke(app, SWEEP + ["--out", str(out)])
    assert r.exit_code == 0, r.output
    assert "sweep.md and .html" in r.output
    return out


def test_the_sweep_writes_the_html_page_beside_the_markdown(swept):
    body = json.loads((swept / "sweep.json").read_text(encoding="utf-8"))
    html = (swept / "sweep.html").read_text(encoding="utf-8")
    assert (swept / "sweep.md").exists() and html.count('<section class="class"') == len(body["classes"]) > 0
    [c] = body["classes"]  # the readings part on a self-drawn hand of four concealed pungs only
    assert c["key"] == [["fully_concealed_hand", 4, 0], ["self_drawn", 0, 1]]
    # each fan by its English name (spec/mcr.yaml), its id as the title
    first = section(html, "class-1")
    assert ('<span class="fan" title="fully_concealed_hand">Fully concealed hand</span> 4 vs 0; '
            '<span class="fan" title="self_drawn">Self drawn</span> 0 vs 1') in first
    concealed = first[first.index('<span class="group concealed">'):]
    concealed = concealed[:concealed.index("</span></span>")]
    assert titles(concealed) == [title_of(n) for n in NAME.findall(c["witness"]["concealed"])]
    assert f"<pre>{escape(c['reproduce'])}</pre>" in first  # the command that reproduces the witness
    assert "option:four_concealed_pungs_with_fully_concealed=false" in first


def test_a_sweep_report_of_the_earlier_layout_is_drawn_with_its_causes():
    # the checked-in sweeps name each class's cause as a text (`explained_by`), not by the cause search
    body = json.loads((ROOT / "reports" / "sweep-mcr-pymahjonggb.json").read_text(encoding="utf-8"))
    html = sweep_html_page(body)
    for number, c in enumerate(body["classes"], 1):
        said = section(html, f"class-{number}")
        assert "Explained by: " + str(gloss(c["explained_by"])) in said
        assert titles(said[said.index('<div class="hand">'):])[-1] == title_of(c["witness"]["win_tile"])
    assert "checked against 0 cases" not in html  # no search was made: nothing said of one


# ------------------------------------------------------------------ in a headless browser

@pytest.fixture(params=WIDTHS, ids=[f"{w}px" for w in WIDTHS])
def width(request) -> int:
    return request.param


def tiles_are_svg_with_titles(p) -> None:
    """Every tile on the page is an inline SVG whose title names it and whose symbol the page defines, drawn at
    least 18 pixels wide (taller than wide)."""
    found = p.eval_on_selector_all("svg.tile", """ts => ts.map(t => {
        const b = t.getBoundingClientRect(), use = t.querySelector('use');
        return [t.querySelector('title') && t.querySelector('title').textContent,
                use && document.querySelectorAll('symbol' + use.getAttribute('href')).length, b.width, b.height];
    })""")
    assert found
    for title, symbols, w, h in found:
        name = re.search(r"\(([^)]+)\)$", title or "")
        assert name is not None and title == title_of(name.group(1)) and symbols == 1, title
        assert w >= 18 and h > w, (title, w, h)


def boxes_stay_in_the_page(p) -> None:
    """Wide tables and commands scroll inside their own box, which stays within the page's width."""
    width = p.viewport_size["width"]
    for left, right in p.eval_on_selector_all(".scroll, pre", "es => es.map(e => { const b = e.getBoundingClientRect();"
                                                             " return [b.left, b.right]; })"):
        assert left >= 0 and right <= width


@browser_test
def test_the_findings_page_in_a_browser(browser, findings_page, width):
    with opened(browser, findings_page, width) as p:
        tiles_are_svg_with_titles(p)
        no_sideways_scroll(p)
        boxes_stay_in_the_page(p)
        english = p.locator("#shanghai-classic-9999 h2 .en")
        assert english.count() == 2 and english.first.is_visible()
        assert english.first.text_content() == " (All eight flowers)"


@browser_test
def test_the_sweep_page_in_a_browser(browser, swept, width):
    with opened(browser, swept / "sweep.html", width) as p:
        tiles_are_svg_with_titles(p)
        no_sideways_scroll(p)
        boxes_stay_in_the_page(p)
        assert p.locator("section.class").count() == 1 and p.locator("table.classes svg.tile").count() > 0


@browser_test
def test_the_checked_in_sweep_page_in_a_browser(browser, width):
    # 23 classes in a table wider than a phone: the table scrolls in its box, the page does not
    with opened(browser, ROOT / "reports" / "sweep-mcr-pymahjonggb.html", width) as p:
        tiles_are_svg_with_titles(p)
        no_sideways_scroll(p)
        boxes_stay_in_the_page(p)


@pytest.mark.parametrize("path", sorted(FINDINGS.glob("findings-*.md")), ids=lambda p: p.name)
def test_each_checked_in_markdown_page_draws_every_tile_as_the_command_line_reads_it(path):
    # each run of glyphs is followed by its tiles' names in brackets ("🀦 (1f)"): the glyphs, read back through
    # the tile parser, are those very tiles (the page once drew 1f, Spring, as 🀢, Plum, which reads as 5f)
    text = path.read_text(encoding="utf-8")
    runs = re.findall(r"([\U0001F000-\U0001F02B]+) \(([0-9mpszf]+)\)", text)
    assert runs, path.name
    for glyphs, names in runs:
        assert list(parse_tiles(glyphs)) == list(parse_tiles(names)), (glyphs, names)


def test_a_long_hand_of_play_shows_the_events_that_matter_and_sums_up_the_plain_turns():
    from checker.hunt.page import events_shown, _witness

    def turn(seat: int, tile: str) -> list[dict]:
        return [{"event": "draw", "seat": seat}, {"event": "discard", "seat": seat, "tile": tile}]

    # 12 plain turns (events 0-23) and seat 0's draw (24), its flower and replacement (25, 26), its discard
    # that seat 1 pungs (27, 28), 12 plain turns (29-52); the last 8 events (45-52) are shown whatever they are
    events = [e for i in range(12) for e in turn(i % 4, "9s")]
    events += [{"event": "draw", "seat": 0}, {"event": "flower", "seat": 0, "tile": "1f"},
               {"event": "draw", "seat": 0, "from": "back"}]
    events += [{"event": "discard", "seat": 0, "tile": "5z"}, {"event": "pung", "seat": 1}]
    events += [e for i in range(12) for e in turn(i % 4, "9s")]
    assert len(events) == 53
    assert events_shown(events) == [(0, 24), 25, 26, 27, 28, (29, 44), *range(45, 53)]
    lines = _witness({"kind": "procedure", "input": {"seed": 1, "events": events}})
    assert "- … events 0-24: 13 draws from the wall and 12 discards nobody claimed or passed" in lines
    assert "28. seat 1 pung" in lines and "52. seat 3 discard 🀘 (9s)" in lines
    # a short one is shown whole
    assert events_shown(events[:16]) == list(range(16))
