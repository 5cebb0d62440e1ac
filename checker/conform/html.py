"""`DIR/report.html`: a self-contained page (inline CSS, SVG and script, nothing fetched) of a conformance run.

Every case of the run is on the page (of a run of more than HTML_ALL_CASES, every failed and errored case, the
others counted), as compact JSON in one `<script type="application/json" id="case-data">` (the layout:
docs/contracts.md), drawn a page of PAGE_SIZE cases at a time by the page's script; the first page
of the unfiltered list is also written as HTML, so the page shows cases before any script runs (the script
draws the same markup: `_case_html` here, `caseHtml` there). Cases can be filtered by failure class, by cause
(the departures that explain a case's class), by fan (the case's expected or actual result lists it), by rule
(`covers`), by outcome and by option (the case's own options, or the option reading that explains a failure);
the filters combine, and the view (filters and page) is kept in the URL's query string. Each hand is drawn as
a row of tiles in inline SVG (`checker.draw`: each tile defined once on the page); each failed case shows its
expected and actual fans side by side, the fans that differ marked. Failure classes come first (each with its
witness drawn, its cause and a link to its cases), then the profile and the failures grouped by the option
reading, the rule or the fan that explains them. With a known file, new failure classes and cases come first,
declared departures apart. The template `templates/report.html.j2` ships as package data. The page is written
as it is made, its cases read from the results in passes (`PageData`), so memory holds the data's tables, not
its cases.
"""
from __future__ import annotations

import base64
import html
import io
import re
import secrets
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, Iterable, Iterator, Sequence, TextIO, TypeVar

import jinja2
from markupsafe import Markup

from checker.case import fans_of, readings_of
from checker.conform.known import ClassOf, declaration_words, declared_test, in_order
from checker.conform.profile import case_name, shared_runner
from checker.conform.report import listed, verdict_text
from checker.conform.results import OUTCOMES, CaseResult
from checker.conform.stream import in_latest_order
from checker.diagnose.classes import case_context
from checker.diagnose.diff import FanDiff, diff
from checker.diagnose.explanation import PARTS_NEEDED, PARTS_UNASKED, PAYS_ALIKE
from checker.draw import TILE_CODES, VIEWBOX, sprite, symbol_id, tile_title
from checker.inputs import json_line, json_text
from checker.spec import value_key
from checker.tiles import NUM_TILES_WITH_FLOWERS, parse_tiles, tile_name

T = TypeVar("T")
HTML_ALL_CASES = 100_000  # a run of more cases has only its failed and errored cases on the page
PAGE_SIZE = 25  # cases drawn at a time (a page of 25 is drawn, laid out and painted in well under 100 ms)
DEFAULTS = "(defaults)"  # the option filter's entry for cases that set no option
EXPLAINED = "explained: "  # the option filter's entries for the reading that explains a failure
MARKS = ("", "missing", "extra", "different")  # how a fan of a failed case's comparison differs
# a case in the page data: [id, line, outcome, ruleset, covers, options, hand, fans, class, reason, compare,
# declared] (covers, options and fans: numbers of index lists in the data's `lists`, the 0th empty; hand: its
# groups as "LABEL:CODES" joined by spaces, or a list of [LABEL, CODES] and [LABEL, TEXT, 1] when a group does not
# parse); the fields past ruleset are left off the end while they hold their empty value
EMPTY = (0, 0, "", 0, -1, "", 0, 0, "")


_NAME = re.compile(r"[1-9][mps]|[1-7]z|[1-8]f")
_CANONICAL = re.compile(r"(?:[1-9][mps]|[1-7]z|[1-8]f)+")
_CODE_OF_NAME = {tile_name(t): TILE_CODES[t] for t in range(NUM_TILES_WITH_FLOWERS)}


@dataclass(frozen=True)
class Group:
    """A group of a hand: its label ("concealed", "chow", "wins on"…), its kind (concealed, meld, win,
    flowers) and its tiles as TILE_CODES characters, or its text when it does not parse (`codes` None)."""

    label: str
    kind: str
    text: str
    codes: str | None


def tile_codes(text: Any) -> str | None:
    """A tile string as TILE_CODES characters (one a tile); None when it does not parse."""
    if not isinstance(text, str) or not text:
        return None
    if _CANONICAL.fullmatch(text):  # what corpora and results hold: two-character names, read without the parser
        return "".join(map(_CODE_OF_NAME.__getitem__, _NAME.findall(text)))
    try:
        return "".join(TILE_CODES[t] for t in parse_tiles(text))
    except ValueError:
        return None


def hand_groups(given: Mapping[str, Any] | None) -> list[Group]:
    """A case input as groups of tiles: the concealed tiles, each meld, the winning tile, the flowers."""
    if not isinstance(given, Mapping):
        return []
    groups: list[Group] = []

    def add(label: str, text: Any, kind: str) -> None:
        if text in (None, "", []):
            return
        if isinstance(text, list):
            text = " ".join(str(t) for t in text)
        groups.append(Group(label, kind, str(text), tile_codes(text)))

    add("concealed", given.get("concealed"), "concealed")
    melds = given.get("melds")
    for m in melds if isinstance(melds, list) else []:  # a results file is input like any other
        if isinstance(m, Mapping):
            add(f"{'concealed ' if m.get('concealed') else ''}{m.get('type', 'meld')}", m.get("tiles"), "meld")
    add("wins on", given.get("win_tile"), "win")
    add("flowers", given.get("flowers"), "flowers")
    return groups


# ------------------------------------------------------------------ markup (the page's script mirrors it)

def _esc(text: Any) -> str:
    return html.escape(str(text), quote=True)


def _tile_html(code: str) -> str:
    t = TILE_CODES.index(code)
    return (f'<svg class="tile" viewBox="{VIEWBOX}" role="img"><title>{_esc(tile_title(t))}</title>'
            f'<use href="#{symbol_id(t)}"></use></svg>')


def _group_html(label: str, kind: str, codes: str | None, text: str) -> str:
    inner = (f'<span class="tile-row">{"".join(_tile_html(c) for c in codes)}</span>' if codes is not None
             else f'<span class="raw">{_esc(text)}</span>')
    return f'<div class="group {_esc(kind)}"><small>{_esc(label)}</small>{inner}</div>'


def hand_html(groups: Sequence[Group]) -> str:
    """A hand drawn: its groups of tiles (a witness of the failure classes)."""
    return '<div class="tiles">' + "".join(_group_html(g.label, g.kind, g.codes, g.text) for g in groups) + "</div>"


def _case_html(c: Sequence[Any], n: int, data: Mapping[str, Any]) -> str:
    """One case of the page data as the page's script draws it (`caseHtml`), `n` its place in the list."""
    def at(i: int) -> Any:
        return c[i] if len(c) > i else EMPTY[i - 4]

    outcome, ruleset = data["outcomes"][c[2]], data["rulesets"][c[3]]
    declared, compare, cls = at(11), at(10), at(8)
    name = f"{c[0]} (line {c[1]})" if c[0] else f"line {c[1]}"
    out = [f'<div class="case {outcome}{" declared" if declared else ""}" id="case-{n}">',
           f'<h3><span class="outcome">{outcome}</span> {_esc(name)} <span class="tags">{_esc(ruleset)}</span>',
           ' <span class="tag declared">declared departure</span>' if declared else "", '</h3><div class="tags">']
    lists = data["lists"]
    out += [f'<span class="tag">{_esc(data["rules"][i])}</span>' for i in lists[at(4)]]
    for i in lists[at(5)]:
        option = data["options"][i]
        if option.startswith(EXPLAINED):
            out.append(f'<span class="tag why">explained by {_esc(option[len(EXPLAINED):])}</span>')
        elif option != DEFAULTS:
            out.append(f'<span class="tag opt">{_esc(option)}</span>')
    if not compare:
        out += [f'<span class="tag fan">{_esc(data["fans"][i])}</span>' for i in lists[at(7)]]
    if cls >= 0:
        number = data["classes"][cls][0]
        out.append(f'<a class="tag cls" href="#class-{number}">class {number}</a>')
    out.append('</div><div class="tiles">')
    hand = at(6)
    for g in ([part.split(":") for part in hand.split(" ")] if hand else []) if isinstance(hand, str) else hand:
        label, kind = data["groups"][int(g[0])]
        out.append(_group_html(label, kind, None if len(g) > 2 else g[1], g[1]))
    out.append("</div>")
    if at(12):
        out.append(f'<div class="context">{_esc(at(12))}</div>')
    if compare:
        out.append('<div class="compare">')
        names = data["fan_names"].get(ruleset, {})
        for side, total, fans in (("expected", compare[0], compare[2]), ("actual", compare[1], compare[3])):
            out.append(f'<div class="scroll"><table class="fans {side}"><tr><th colspan="3">{side}'
                       f'{": total " + _esc(total) if total else ""}</th></tr>')
            for fan, text, mark in fans:
                fan_id, m = data["fans"][fan], MARKS[mark]
                out.append(f'<tr><td class="{m}">{_esc(fan_id)}</td><td class="{m}">{_esc(names.get(fan_id, ""))}'
                           f'</td><td class="{m}">{_esc(text)}</td></tr>')
            out.append("</table></div>" if fans else '<tr><td colspan="3">(no fans)</td></tr></table></div>')
        if compare[4]:
            out.append('<div class="scroll"><table class="fields"><tr><th>field</th><th>expected</th>'
                       '<th>actual</th></tr>')
            out += [f'<tr><td>{_esc(k)}</td><td class="raw">{_esc(e)}</td><td class="raw">{_esc(a)}</td></tr>'
                    for k, e, a in compare[4]]
            out.append("</table></div>")
        out.append("</div>")
    if at(9):
        out.append(f'<div class="reason">{_esc(at(9))}</div>')
    out.append("</div>")
    return "".join(out)


# ------------------------------------------------------------------ the page data

@dataclass(frozen=True)
class _Row:
    """One case as the page shows it, before its texts are numbered into the page data's tables."""

    id: str
    line: int
    outcome: str
    ruleset: str
    covers: tuple[str, ...]
    options: tuple[str, ...]
    hand: tuple[Group, ...]
    fans: tuple[str, ...]
    cls: int
    reason: str
    compare: Mapping[str, Any] | None
    declared: bool
    context: str = ""  # the way of winning, discarder, winds, flags, flowers, counters, options in a few words


def _closest(value: Mapping[str, Any] | None, other: Mapping[str, Any] | None, first: bool) -> Mapping[str, Any]:
    """The member of an `either` result closest to the other side (the whole value otherwise)."""
    members = readings_of(value)
    if len(members) < 2:
        return members[0] if members else {}
    return min(members, key=lambda m: (diff(m, other) if first else diff(other, m)).size)


def _text(value: Any) -> str:
    return value if isinstance(value, str) else str(value) if isinstance(value, int) else json_text(value)


def _fan_rows(result: Mapping[str, Any], marks: Mapping[str, str]) -> list[tuple[str, str, str]]:
    return [(str(f.get("id")), f"{_text(f.get('points'))}×{_text(f.get('count'))}", marks.get(str(f.get("id")), ""))
            for f in fans_of(result)]


def _side_by_side(r: CaseResult) -> dict[str, Any]:
    expected = _closest(r.expected, r.actual if isinstance(r.actual, Mapping) else None, True)
    actual = _closest(r.actual, expected, False)
    found: FanDiff = diff(expected, actual)
    want = {str(f.get("id")): "missing" for f in found.missing}
    got = {str(f.get("id")): "extra" for f in found.extra}
    for e, _ in found.different:
        want[str(e.get("id"))] = got[str(e.get("id"))] = "different"
    total = {side: "" if value.get("total") is None else _text(value.get("total"))
             for side, value in (("expected", expected), ("actual", actual))}
    return {"expected": _fan_rows(expected, want), "actual": _fan_rows(actual, got),
            "expected_total": total["expected"], "actual_total": total["actual"],
            "fields": [(str(k), json_text(e), json_text(a)) for k, e, a in found.fields]}


def _fan_names(rulesets: Sequence[str], fans: Sequence[str]) -> dict[str, dict[str, str]]:
    """Per ruleset: fan id → "English 中文" from the spec, for the fans of the page and the rulesets that load."""
    runner = shared_runner()
    wanted = set(fans)
    names: dict[str, dict[str, str]] = {}
    for ruleset_id in rulesets:
        try:
            patterns = runner.ruleset(ruleset_id).patterns if ruleset_id else ()
        except ValueError:
            patterns = ()
        found = {p.id: f"{p.name_en} {p.name_zh}".strip() for p in patterns if p.id in wanted}
        if found:
            names[ruleset_id] = dict(sorted(found.items()))
    return names


class _Rows:
    """The cases of the page as rows, in its order (with a known file: new failures first, then the declared
    departures, then the rest), made again from the results at each iteration. `failing_only`: only the failed
    and errored cases (a run of more than HTML_ALL_CASES)."""

    def __init__(self, cases: Iterable[CaseResult], summary: Mapping[str, Any], classes: Sequence[Mapping[str, Any]],
                 failing_only: bool):
        self.cases, self.failing_only = cases, failing_only
        self.explains: dict[str, list[str]] = {}
        for key, members in (summary.get("failures") or {}).get("by_option", {}).items():
            for name in members:
                self.explains.setdefault(name, []).append(key)
        self.is_declared = declared_test(summary)
        self.declared = any(c.get("declared") for c in classes) and "known" in summary
        self.class_of = ClassOf(classes)
        self.number = {id(c): i for i, c in enumerate(classes)}

    def __iter__(self) -> Iterator[_Row]:
        failing = ("failed", "errored")
        for part in (0, 1, 2) if self.declared else (None,):  # new failures, declared departures, the rest
            for r in self.cases:
                if self.failing_only and r.outcome not in failing:
                    continue
                if part is not None:
                    declared = self.is_declared(r)
                    if part != (0 if r.outcome in failing and not declared else 1 if declared else 2):
                        continue
                yield self._row(r)

    def _row(self, r: CaseResult) -> _Row:
        name = case_name(r)
        options = tuple(f"{k}={value_key(v)}" for k, v in sorted((r.options or {}).items()))
        why = tuple(EXPLAINED + k for k in self.explains.get(name, []))
        fans = dict.fromkeys(str(f.get("id")) for side in (r.expected, r.actual) for reading in readings_of(side)
                             for f in fans_of(reading))
        cls = self.class_of(r)
        return _Row(r.id or "", r.line, r.outcome, r.ruleset or "", tuple(r.covers),
                    options + why + (() if options else (DEFAULTS,)), tuple(hand_groups(r.input)),
                    tuple(fans), self.number[id(cls)] if cls is not None else -1, r.reason or "",
                    _side_by_side(r) if r.outcome == "failed" else None, self.is_declared(r),
                    case_context(r.case))


def _hand_data(hand: Sequence[Group], group_at: Mapping[tuple[str, str], int]) -> str | list[list[Any]]:
    if all(g.codes is not None for g in hand):
        return " ".join(f"{group_at[(g.label, g.kind)]}:{g.codes}" for g in hand)
    return [[group_at[(g.label, g.kind)], g.codes] if g.codes is not None else [group_at[(g.label, g.kind)], g.text, 1]
            for g in hand]


def _numbering(values: Iterable[T], key: Any = None) -> tuple[list[T], dict[T, int]]:
    table = sorted(set(values), key=key)
    return table, {v: i for i, v in enumerate(table)}


class PageData:
    """The page data (the layout: docs/contracts.md): tables of the texts, and each case as a list of numbers
    into them. Made in two passes over the rows, so that only the tables are held: the first finds the texts, the
    lists of texts (in the order they first come: their numbers in `lists`) and each filter's counts, and
    `write_json` writes the cases one at a time."""

    def __init__(self, rows: Iterable[_Row], classes: Sequence[Mapping[str, Any]]):
        self.rows = rows
        rulesets: set[str] = set()
        groups: set[tuple[str, str]] = set()
        texts: dict[str, set[str]] = {"rule": set(), "option": set(), "fan": set()}
        listed: dict[tuple[str, tuple[str, ...]], None] = {}  # (table, texts) of each list, as first met
        counted: dict[str, Counter[Any]] = {key: Counter() for key in ("rule", "option", "fan", "outcome", "class")}
        self.tiles: set[int] = set()  # the tiles the cases draw
        self.size = 0
        first: list[_Row] = []
        for r in rows:
            self.size += 1
            if len(first) < PAGE_SIZE:
                first.append(r)
            rulesets.add(r.ruleset)
            for key, values in (("rule", r.covers), ("option", r.options), ("fan", r.fans)):
                texts[key].update(values)
                listed.setdefault((key, values), None)
                counted[key].update(set(values))
            if r.compare:
                texts["fan"].update(f for side in ("expected", "actual") for f, _, _ in r.compare[side])
            groups.update((g.label, g.kind) for g in r.hand)
            self.tiles.update(TILE_CODES.index(ch) for g in r.hand for ch in g.codes or "")
            counted["outcome"][r.outcome] += 1
            if r.cls >= 0:
                counted["class"][r.cls] += 1
        self.rulesets, self.ruleset_at = _numbering(rulesets)
        self.rules, self.rule_at = _numbering(texts["rule"])
        self.options, self.option_at = _numbering(texts["option"], key=lambda o: (o == DEFAULTS, o))
        self.fans, self.fan_at = _numbering(texts["fan"])
        self.groups, self.group_at = _numbering(groups)
        causes: dict[str, str] = {}
        self.class_table = []
        for i, c in enumerate(classes):
            cause = c.get("cause") or {}
            named = [(str(e.get("id")), str(e.get("words") or e.get("id"))) for e in cause.get("explained_by") or []]
            if not named:
                verdict = str(cause.get("verdict") or "unexplained")
                named = [(verdict, verdict)]
            causes.update(named)
            self.class_table.append((i + 1, f"{i + 1}. {c.get('signature')} ({c.get('count')} case"
                                            f"{'s' if c.get('count') != 1 else ''}, {c.get('ruleset') or '?'})",
                                     [k for k, _ in named], bool(c.get("declared"))))
        self.cause_ids = sorted(causes)
        self.causes = causes
        self.cause_at = {k: i for i, k in enumerate(self.cause_ids)}
        self.outcome_at = {o: i for i, o in enumerate(OUTCOMES)}
        self.lists: dict[tuple[int, ...], int] = {(): 0}
        at = {"rule": self.rule_at, "option": self.option_at, "fan": self.fan_at}
        for key, values in listed:  # numbered as the cases name them, first come first
            self._listed(at[key][v] for v in values)
        self.counts = {"class": [counted["class"][i] for i in range(len(self.class_table))],
                       "cause": [0] * len(self.cause_ids),
                       "fan": [counted["fan"][f] for f in self.fans], "rule": [counted["rule"][r] for r in self.rules],
                       "outcome": [counted["outcome"][o] for o in OUTCOMES],
                       "option": [counted["option"][o] for o in self.options]}
        for i, (_, _, keys, _) in enumerate(self.class_table):
            for k in dict.fromkeys(keys):
                self.counts["cause"][self.cause_at[k]] += counted["class"][i]
        self.first = [self.encoded(r) for r in first]  # the first page's cases

    def _listed(self, values: Iterable[int]) -> int:
        return self.lists.setdefault(tuple(values), len(self.lists))

    def encoded(self, r: _Row) -> list[Any]:
        """One case as the page data holds it."""
        compare = None
        if r.compare:
            cmp = r.compare
            compare = [cmp["expected_total"], cmp["actual_total"],
                       *([[self.fan_at[f], text, MARKS.index(mark)] for f, text, mark in cmp[side]]
                         for side in ("expected", "actual")), [list(f) for f in cmp["fields"]]]
        case: list[Any] = [r.id, r.line, self.outcome_at[r.outcome], self.ruleset_at[r.ruleset],
                           self._listed(self.rule_at[c] for c in r.covers),
                           self._listed(self.option_at[o] for o in r.options), _hand_data(r.hand, self.group_at),
                           self._listed(self.fan_at[f] for f in r.fans), r.cls, r.reason, compare or 0,
                           1 if r.declared else 0, r.context]
        while len(case) > 4 and case[-1] == EMPTY[len(case) - 5]:
            case.pop()
        return case

    def head(self) -> dict[str, Any]:
        """The page data but its cases (`cases`: the first page's)."""
        return {
            "page": PAGE_SIZE, "outcomes": list(OUTCOMES), "rulesets": self.rulesets, "rules": self.rules,
            "options": self.options, "fans": self.fans, "fan_names": _fan_names(self.rulesets, self.fans),
            "groups": [list(g) for g in self.groups],
            "classes": [[n, title, [self.cause_at[k] for k in keys], 1 if declared else 0]
                        for n, title, keys, declared in self.class_table],
            "causes": [[k, self.causes[k]] for k in self.cause_ids],
            "counts": self.counts, "lists": [list(values) for values in self.lists],
            "tiles": [[tile_name(t), tile_title(t), symbol_id(t)] for t in range(NUM_TILES_WITH_FLOWERS)],
            "codes": TILE_CODES, "viewbox": VIEWBOX, "cases": self.first,
        }

    def write_json(self, out: TextIO) -> None:
        """The page data as JSON to sit inside a <script> element (see `_script_json`), its cases written one at
        a time."""
        head = _script_json({**self.head(), "cases": []})
        assert head.endswith('"cases":[]}')
        out.write(head[:-2])
        for number, r in enumerate(self.rows):
            if number:
                out.write(",")
            out.write(_script_json(self.encoded(r)))
        out.write("]}")


def _script_json(value: Any) -> str:
    """JSON to sit inside a <script> element: compact, and no `<` (so nothing in it can close the element)."""
    return json_line(value).decode("utf-8").rstrip("\n").replace("<", "\\u003c")


def html_report(summary: Mapping[str, Any], results: Iterable[CaseResult], out: TextIO | None = None) -> str:
    """report.html: the whole page as text, or written to `out` as it is made (then "" is returned), the cases
    read from `results` in passes (a list, or a run's results streamed from its file): of a run of more than
    HTML_ALL_CASES cases, only the failed and errored ones are on the page (the others are counted)."""
    cases = in_latest_order(results)
    total = len(cases)
    classes = in_order(summary.get("classes") or [])
    failing_only = total > HTML_ALL_CASES
    data = PageData(_Rows(cases, summary, classes, failing_only), classes)
    head = data.head()
    witnesses = [hand_groups((c.get("witness") or {}).get("input")) for c in classes]
    used = data.tiles | {TILE_CODES.index(ch) for hand in witnesses for g in hand for ch in g.codes or ""}
    first = "".join(_case_html(c, i + 1, head) for i, c in enumerate(data.first))
    profile = {rs: ({**entry, "options": {oid: {**o, "text": verdict_text(o)} for oid, o in entry["options"].items()}}
                    if "options" in entry else entry) for rs, entry in (summary.get("profile") or {}).items()}
    failures = summary["failures"]
    counted = {kind: {key: listed(failures, kind, key) for key in failures.get(kind) or {}}
               for kind in ("by_option", "by_rule")}
    pages = max(1, -(-data.size // PAGE_SIZE))
    counts = summary["counts"]
    mark = secrets.token_hex(16)  # where the page data goes in the rendered template
    page = _template().render(summary=summary, engine=summary.get("engine") or {}, counts=counts,
                              cases=data.size, pages=pages, page_size=PAGE_SIZE, first_page=Markup(first),
                              shown_to=min(PAGE_SIZE, data.size), sprite=Markup(sprite(used)),
                              data=Markup(mark), witnesses=[Markup(hand_html(w)) for w in witnesses],
                              failures=failures, counted=counted, profile=profile, classes=classes,
                              class_causes=[c[2] for c in head["classes"]], causes=head["causes"],
                              known=summary.get("known"), declaration_words=declaration_words,
                              failing_only=failing_only, all_cases=HTML_ALL_CASES, run_cases=total,
                              cjk_font=_cjk_font(), pays_alike_words=PAYS_ALIKE,
                              parts_needed_words=PARTS_NEEDED, parts_unasked_words=PARTS_UNASKED) + "\n"
    before, after = page.split(mark)
    if out is not None:
        _write_page(out, before, data, after)
        return ""
    text = io.StringIO()
    _write_page(text, before, data, after)
    return text.getvalue()


def _write_page(out: TextIO, before: str, data: PageData, after: str) -> None:
    out.write(before)
    data.write_json(out)
    out.write(after)


@lru_cache(maxsize=1)
@lru_cache(maxsize=1)
def _cjk_font() -> str:
    """The page's own CJK font (checker/conform/fonts/cjk.woff, made by tools/cjk_font.py), in base64."""
    return base64.b64encode(resources.files("checker.conform").joinpath("fonts/cjk.woff").read_bytes()).decode("ascii")


def _template() -> jinja2.Template:
    text = resources.files("checker.conform").joinpath("templates/report.html.j2").read_text(encoding="utf-8")
    env = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True,
                             lstrip_blocks=True, keep_trailing_newline=False)
    return env.from_string(text)
