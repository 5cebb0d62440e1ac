"""report.html at any size: tiles drawn as inline SVG (checker.draw), every case on the page as data, drawn a page
at a time, filters that combine and stay in the URL, and a page that never scrolls sideways at 390 pixels.

The run is made here: the MCR corpus on an engine that answers as the reference engine but leaves all_simples
out (so every case that expects it fails) and raises on one case with markup in its message, plus a case with
no expect (skipped). Every count a test expects is worked out from that run's results.jsonl (the data the test
made), never read from the page it checks. The browser tests drive Debian's chromium through Playwright at 1280
and at 390 pixels wide.
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Mapping

import pytest
from conftest import browser_test, no_sideways_scroll, opened

from checker.case import CaseRunner
from checker.conform.adapters import EngineInfo, InProcessEngine
from checker.conform.html import PAGE_SIZE
from checker.conform.runner import run_conformance
from checker.draw import TILE_CODES, sprite, tile_symbol, tile_title, tile_use

ROOT = Path(__file__).resolve().parents[1]
MCR = ROOT / "corpus" / "mcr.jsonl"
MCR_CASES = sum(1 for line in MCR.read_text(encoding="utf-8").splitlines() if line.strip())
WIDTHS = (1280, 390)
DROPPED = "all_simples"  # the fan the engine leaves out
HOSTILE = "</script><b>not markup</b>"  # in the message of the case the engine raises on
RAISES_ON = "mcr-guide-regular-discard"

_runner = CaseRunner()


def no_all_simples_engine(case: Mapping[str, Any]) -> Mapping[str, Any]:
    """The reference answer without all_simples (its points taken off the total); raises on one case."""
    if case.get("id") == RAISES_ON:
        raise RuntimeError(f"on purpose {HOSTILE}")
    result = dict(_runner.run(case))
    fans = result.get("fans") or []
    dropped = [f for f in fans if f["id"] == DROPPED]
    if dropped:
        result["fans"] = [f for f in fans if f["id"] != DROPPED]
        result["total"] -= sum(f["points"] * f["count"] for f in dropped)
    return result


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("html")
    corpus = out.parent / "html-corpus.jsonl"
    lines = MCR.read_text(encoding="utf-8").splitlines()
    no_expect = {k: v for k, v in json.loads(lines[0]).items() if k != "expect"} | {"id": "no-expect"}
    corpus.write_text("\n".join(lines) + "\n" + json.dumps(no_expect) + "\n", encoding="utf-8")
    engine = InProcessEngine(no_all_simples_engine, EngineInfo("no all simples", "1", ("mcr",), ("score",)))
    run_conformance(str(corpus), engine, str(out), engine_spec="python:test_report_html:no_all_simples_engine")
    return out


def results(out: Path) -> list[dict[str, Any]]:
    """The run's result lines (after the header), as written."""
    lines = (out / "results.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines[1:]]


def fan_ids(result: Any) -> set[str]:
    """The fan ids a result or expectation lists, any reading of an `either`."""
    if not isinstance(result, dict):
        return set()
    readings = result["either"] if isinstance(result.get("either"), list) else [result]
    return {f["id"] for r in readings for f in r.get("fans") or []}


def with_fan(out: Path, fan: str, outcome: str | None = None) -> int:
    """Cases whose expect or actual result lists `fan` (and of `outcome`, when given)."""
    return sum(1 for r in results(out)
               if fan in fan_ids((r.get("case") or {}).get("expect")) | fan_ids(r.get("actual"))
               and (outcome is None or r["outcome"] == outcome))


# ------------------------------------------------------------------ the tiles (no browser)

TITLES = {"5p": "5 of dots (5p)", "1m": "1 of characters (1m)", "9s": "9 of bamboo (9s)", "1z": "East wind (1z)",
          "4z": "North wind (4z)", "5z": "White dragon (5z)", "6z": "Green dragon (6z)", "7z": "Red dragon (7z)",
          "1f": "Spring flower (1f)", "5f": "Plum flower (5f)", "8f": "Bamboo flower (8f)"}
NUMBER = {f"{r}{s}": base + r - 1 for s, base, top in (("m", 0, 9), ("p", 9, 9), ("s", 18, 9), ("z", 27, 7),
                                                          ("f", 34, 8)) for r in range(1, top + 1)}


def test_every_tile_has_its_name_as_title():
    for name, title in TITLES.items():
        assert tile_title(NUMBER[name]) == title
    assert len({tile_title(t) for t in range(42)}) == 42


def test_tiles_are_drawn_with_shapes_only_each_its_own():
    symbols = [tile_symbol(t) for t in range(42)]
    for t, s in enumerate(symbols):
        assert s.startswith(f'<symbol id="tile-{next(n for n, i in NUMBER.items() if i == t)}" ')
        assert f"<title>{tile_title(t)}</title>" in s
        assert "<text" not in s and "font" not in s  # nothing for a font to draw
        body = s.split("</title>", 1)[1]
        assert body.startswith("<rect ") and re.search(r"<(path|circle|rect)\b", body[body.index("/>") + 2:])
    drawings = [s.split("</title>", 1)[1] for s in symbols]
    assert len(set(drawings)) == 42  # no two tiles drawn alike


def test_a_page_defines_each_tile_once_and_uses_it_by_reference():
    page = sprite([NUMBER["5p"], NUMBER["5p"], NUMBER["1z"]])
    assert page.count("<symbol") == 2 and 'id="tile-5p"' in page and 'id="tile-1z"' in page
    use = tile_use(NUMBER["5p"])
    assert '<use href="#tile-5p"/>' in use and "<title>5 of dots (5p)</title>" in use
    assert len(TILE_CODES) == len(set(TILE_CODES)) == 42


# ------------------------------------------------------------------ the page's data (no browser)

def page_data(out: Path) -> dict[str, Any]:
    html = (out / "report.html").read_text(encoding="utf-8")
    found = re.search(r'<script type="application/json" id="case-data">(.*?)</script>', html, re.S)
    assert found is not None
    return json.loads(found.group(1))


def test_every_case_is_in_the_page_data(run):
    data = page_data(run)
    written = results(run)
    assert len(data["cases"]) == len(written) == MCR_CASES + 1  # the corpus's cases and the one without expect
    assert [(c[0], c[1]) for c in data["cases"]] == [(r["id"], r["line"]) for r in written]
    html = (run / "report.html").read_text(encoding="utf-8")
    assert HOSTILE not in html  # the engine's message is data, escaped: it never closes the script
    assert html.count("<symbol ") == len(set(re.findall(r'<symbol id="(tile-[^"]+)"', html)))


def test_each_case_card_carries_its_context_in_words(run):
    """The page data holds each case's context (the way of winning, the discarder, the winds, flags, flowers,
    counters, options) and the first page's cards, drawn in Python as the script draws them, show it."""
    data = page_data(run)
    contexts = [c[12] if len(c) > 12 else "" for c in data["cases"]]
    assert all(contexts[:MCR_CASES])
    assert any(text.startswith("discard from ") for text in contexts)
    html = (run / "report.html").read_text(encoding="utf-8")
    first = data["cases"][0]
    assert f'<div class="context">{first[12]}</div>' in html


# ------------------------------------------------------------------ in a headless browser

@pytest.fixture(params=WIDTHS, ids=[f"{w}px" for w in WIDTHS])
def page(request, browser, run):
    """report.html open at one width; no console error, page error or request other than the file itself."""
    with opened(browser, run / "report.html", request.param) as p:
        p.wait_for_selector("html[data-ready]")
        yield p


def shown(p) -> int:
    return int(p.inner_text("#shown"))


def drawn(p) -> list[str]:
    """The ids of the case elements on the current page."""
    return p.eval_on_selector_all("#cases .case", "cs => cs.map(c => c.id)")


@browser_test
def test_every_case_is_reachable_through_paging(page, run):
    n = len(results(run))
    pages = -(-n // PAGE_SIZE)  # 25 cases a page, the last one shorter
    assert shown(page) == n and page.inner_text("#pages") == str(pages)
    seen: list[str] = []
    for k in range(1, pages + 1):
        assert page.input_value("#page") == str(k)
        on_page = drawn(page)
        assert len(on_page) == (PAGE_SIZE if k < pages else n - PAGE_SIZE * (pages - 1))
        seen += on_page
        no_sideways_scroll(page)
        if k < pages:
            page.click("#next")
    assert page.is_disabled("#next") and page.is_disabled("#last")
    assert seen == [f"case-{i}" for i in range(1, n + 1)]  # each case once, in the corpus's order
    names = page.eval_on_selector_all("#cases .case h3", "hs => hs.map(h => h.textContent)")
    last = results(run)[-1]
    assert f"{last['id']} (line {last['line']})" in names[-1]
    page.fill("#page", "3")
    page.dispatch_event("#page", "change")
    assert drawn(page)[0] == f"case-{2 * PAGE_SIZE + 1}"
    page.click("#first")
    assert drawn(page)[0] == "case-1" and page.is_disabled("#prev")


@browser_test
def test_a_filter_by_fan_keeps_exactly_the_cases_with_that_fan(page, run):
    expected = with_fan(run, DROPPED)
    failed = with_fan(run, DROPPED, "failed")
    assert 0 < failed < expected < len(results(run))  # worked out from results.jsonl
    page.select_option("#filter-fan", DROPPED)
    assert shown(page) == expected
    seen = []
    while True:  # every case on every page has the fan, in its expected or its actual result
        seen += drawn(page)
        if page.is_disabled("#next"):
            break
        page.click("#next")
    assert len(seen) == expected
    data = page_data(run)
    fan = data["fans"].index(DROPPED)
    for case_id in seen:
        case = data["cases"][int(case_id.split("-")[1]) - 1]
        assert fan in data["lists"][case[7]]
    page.select_option("#filter-outcome", "failed")  # combined: the fan and the outcome
    assert shown(page) == failed
    page.select_option("#filter-outcome", "passed")  # (an `either` expect whose other reading has no all_simples)
    assert shown(page) == with_fan(run, DROPPED, "passed")
    page.click("#clear-filters")
    assert shown(page) == len(results(run)) and page.input_value("#filter-fan") == ""
    no_sideways_scroll(page)


@browser_test
def test_filters_by_class_cause_rule_option_and_outcome(page, run):
    summary = json.loads((run / "summary.json").read_text(encoding="utf-8"))
    first = summary["classes"][0]
    page.select_option("#filter-class", "1")
    assert shown(page) == first["count"]
    page.select_option("#filter-class", "")
    cause = (first["cause"].get("explained_by") or [{"id": first["cause"].get("verdict")}])[0]["id"]
    page.select_option("#filter-cause", cause)
    classes = [c for c in summary["classes"]
               if cause in ([e["id"] for e in c["cause"].get("explained_by") or []]
                            or [c["cause"].get("verdict")])]
    assert shown(page) == sum(c["count"] for c in classes)
    page.select_option("#filter-cause", "")
    page.select_option("#filter-outcome", "errored")
    assert shown(page) == 1
    reason = page.text_content("#cases .case.errored .reason") or ""
    assert HOSTILE in reason and page.locator("#cases .case.errored .reason b").count() == 0
    page.select_option("#filter-outcome", "skipped")
    assert shown(page) == 1 and "no-expect" in (page.text_content("#cases .case h3") or "")
    page.select_option("#filter-outcome", "")
    rule = "mcr.fan.all_simples"
    page.select_option("#filter-rule", rule)
    assert shown(page) == sum(1 for r in results(run) if rule in ((r.get("case") or {}).get("covers") or []))
    page.select_option("#filter-rule", "")
    page.select_option("#filter-option", "(defaults)")
    assert shown(page) == sum(1 for r in results(run) if not (r.get("case") or {}).get("options"))
    page.click(f"button[data-set-fan='{DROPPED}']")  # the failures-by-fan table sets the fan filter alone
    assert page.input_value("#filter-option") == "" and page.input_value("#filter-fan") == DROPPED
    assert shown(page) == with_fan(run, DROPPED)


@browser_test
def test_the_url_keeps_the_view_across_a_reload(page, run):
    page.select_option("#filter-fan", DROPPED)
    page.select_option("#filter-outcome", "failed")
    failed = with_fan(run, DROPPED, "failed")
    if failed > PAGE_SIZE:
        page.click("#next")
    view = drawn(page)
    page.wait_for_function("() => new URLSearchParams(location.search).get('outcome') === 'failed'")
    query = page.evaluate("() => location.search")
    assert f"fan={DROPPED}" in query and "outcome=failed" in query
    page.reload()
    page.wait_for_selector("html[data-ready]")
    assert page.input_value("#filter-fan") == DROPPED and page.input_value("#filter-outcome") == "failed"
    assert shown(page) == failed and drawn(page) == view
    assert page.input_value("#page") == ("2" if failed > PAGE_SIZE else "1")
    # a shared link opens the same view
    page.goto((run / "report.html").as_uri() + "?outcome=errored")
    page.wait_for_selector("html[data-ready]")
    assert shown(page) == 1 and page.input_value("#filter-outcome") == "errored"


@browser_test
def test_tiles_are_svg_with_their_names(page, run):
    first = results(run)[0]["case"]["input"]
    tiles = page.locator("#case-1 .group.concealed svg.tile")
    names = re.findall(r"[1-9][mpszf]", first["concealed"])
    assert tiles.count() == len(names)
    titles = [tiles.nth(i).locator("title").text_content() for i in range(tiles.count())]
    suit = {"m": "characters", "p": "dots", "s": "bamboo"}
    assert titles == [f"{n[0]} of {suit[n[1]]} ({n})" if n[1] in suit else TITLES[n] for n in names]
    for i in range(tiles.count()):  # each drawn by reference to its symbol, which the page defines
        href = tiles.nth(i).locator("use").get_attribute("href")
        assert page.locator(f"symbol{href}").count() == 1
    box = tiles.first.bounding_box()
    assert box is not None and box["width"] >= 15 and box["height"] > box["width"]
    assert page.locator("#classes ~ section svg.tile").count() > 0  # each class's witness is drawn too
    no_sideways_scroll(page)


@browser_test
def test_the_script_draws_what_the_page_was_written_with(page):
    written = page.inner_html("#cases")
    page.select_option("#filter-outcome", "passed")
    assert page.inner_html("#cases") != written
    page.select_option("#filter-outcome", "")
    assert page.inner_html("#cases") == written  # checker/conform/html.py and the page's script agree


@browser_test
def test_nothing_scrolls_sideways(page):
    no_sideways_scroll(page)
    page.select_option("#filter-outcome", "failed")  # the fan tables side by side
    no_sideways_scroll(page)
    tables = page.locator("#cases .compare .scroll")
    assert tables.count() > 0
    for i in range(min(tables.count(), 6)):  # a wide table scrolls inside its own box
        box = tables.nth(i).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= page.viewport_size["width"]


@browser_test
def test_the_points_of_every_fan_table_are_in_view_at_any_width(page):
    """At 390 px as at 1280 px, each failed case's fan tables show their points column without scrolling: the
    fan's id and name wrap rather than push the points out of the table's box."""
    page.select_option("#filter-outcome", "failed")
    width = page.viewport_size["width"]
    cells = page.locator("#cases .compare table.fans tr td:nth-child(3)")
    assert cells.count() > 0
    for i in range(min(cells.count(), 30)):
        box = cells.nth(i).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, (i, box, width)


def test_the_pages_own_cjk_font_covers_every_chinese_name_of_the_shipped_specs():
    """report.html carries a CJK font of its own (checker/conform/fonts/cjk.woff, made by tools/cjk_font.py): the
    characters it was made for (cjk.chars) hold every Chinese character of the shipped rulesets' pattern names; a
    name with a new character fails here until the tool is run again."""
    from checker.spec import available_rulesets, load_ruleset

    fonts = ROOT / "checker" / "conform" / "fonts"
    covered = set((fonts / "cjk.chars").read_text(encoding="utf-8").strip())
    used = {ch for r in available_rulesets() for p in load_ruleset(r).patterns for ch in (p.name_zh or "")
            if 0x2E80 <= ord(ch) <= 0x9FFF}
    assert used and used <= covered, sorted(used - covered)
    assert (fonts / "cjk.woff").read_bytes()[:4] == b"wOFF" and "SIL OPEN FONT LICENSE" in (fonts / "OFL.txt").read_text()


@browser_test
def test_chinese_fan_names_are_drawn_in_the_pages_own_font(page):
    """The failed cases' fan tables name fans in Chinese; the page's @font-face (data URL, nothing fetched) is the
    font the browser picks for them, loaded, whatever fonts the system has."""
    page.select_option("#filter-outcome", "failed")
    name = page.locator("#cases .compare table.fans tr td:nth-child(2)").filter(has_text="断幺").first
    assert name.count() == 1
    faces = page.evaluate("""async () => {
        const used = await document.fonts.load('16px "mjcheck CJK subset"', '断幺');
        return used.map(f => [f.family, f.status]);
    }""")
    assert faces == [['"mjcheck CJK subset"', "loaded"]] or faces == [["mjcheck CJK subset", "loaded"]], faces
