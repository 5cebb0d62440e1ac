"""pytest plugin (entry point `pytest11`, name `mjcheck`): hold an engine to a corpus inside its own test suite.

    pytest --mjcheck-corpus mcr --mjcheck-engine python:mypkg.scoring:score

adds one test item per case of each corpus (a shipped corpus's name, as `mjcheck corpus list` prints them, or
a file: checker.corpus.shipped), named by the case id (`line N` for a case without one; with several engines,
`ID[ENGINE]`), to whatever else the run collects. ENGINE is any form `mjcheck conform` takes (`reference`,
`pymahjonggb`, `python:package.module:function`, `cmd:"COMMAND"`); a `python:` engine's module is imported from
the project pytest runs in, as under `python -m pytest` (the directory it was started from and its rootdir go
first on sys.path), so an engine's own repository needs no path setup. Each case is sent in canonical form
(checker.corpus.canonical) and its answer checked against the result schema, as `mjcheck conform` does. A
case passes when the engine's result meets its `expect` (checker.case.matches, through the conform runner's
judge); a failure shows the fan diff (checker.diagnose.diff: missing, extra, different points, other fields)
with the expected and actual results; an engine that raises, crashes, hangs or answers outside the protocol
(or the result schema), or does not start, is an error of the item (pytest's ERROR, at its setup), with the
reason, as is a corpus line that is not a case; a case without `expect`, or of a ruleset or kind the engine
does not list, is skipped; a case the engine skips on purpose (`{"skip": "reason"}`) fails unless
`--mjcheck-known FILE` declares it (`skips`), and then is skipped. With that file, a failed or errored case its
`classes` or `readings` declare is an expected failure (xfail: checker.conform.declared); its `causes` are
matched to the terminal summary's classes only. Both --mjcheck-corpus and --mjcheck-engine repeat.

At the end of the session, the terminal summary lists the failure classes of each corpus and engine
(checker.diagnose over the cases the session judged, passing ones included, as `mjcheck conform` does): each
with its count, its cause's verdict, its witness in words and a command that reproduces it.

Without these options the plugin does nothing: this module imports only pytest, and the rest of mjcheck is
imported when a corpus is given. (It lives outside `checker.conform`, whose package import loads the engine
and jsonschema, so that every pytest run of an environment with mjcheck installed stays fast.)
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping, Sequence

import pytest

if TYPE_CHECKING:
    from checker.case import CaseLine
    from checker.conform.adapters import Answer, Engine, EngineInfo
    from checker.conform.known import Known
    from checker.conform.results import CaseResult

CORPUS_OPTION = "--mjcheck-corpus"
ENGINE_OPTION = "--mjcheck-engine"
TIMEOUT_OPTION = "--mjcheck-timeout"
KNOWN_OPTION = "--mjcheck-known"


RESULT_PROPERTY = "mjcheck_result"  # a case's judged result, as results.jsonl holds it, on its test report
TWICE_PROPERTY = "mjcheck_twice"  # (test id, why): a case the engine answered again, found while another ran


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("mjcheck", "mjcheck conformance: one test per case of a corpus")
    group.addoption(CORPUS_OPTION, action="append", default=[], metavar="FILE",
                    help="a JSON Lines corpus of cases with `expect` (repeat for several)")
    group.addoption(ENGINE_OPTION, action="append", default=[], metavar="ENGINE",
                    help="the engine under test: reference, pymahjonggb, python:package.module:function or "
                         "cmd:\"COMMAND\" (repeat to hold several engines to each corpus)")
    group.addoption(TIMEOUT_OPTION, type=float, default=10.0, metavar="SECONDS",
                    help="per-case time limit of a cmd: engine, 0.001 to 86400 seconds (default 10)")
    group.addoption(KNOWN_OPTION, default=None, metavar="FILE",
                    help="the engine's declared departures and skips, as `mjcheck conform --known` reads them: a "
                         "case of a declared class or reading is an expected failure (xfail), a declared skip a "
                         "skip; an undeclared skip fails")


def pytest_configure(config: pytest.Config) -> None:
    corpora, engines = config.getoption(CORPUS_OPTION), config.getoption(ENGINE_OPTION)
    if not corpora and not engines:
        return
    if not corpora or not engines:
        raise pytest.UsageError(f"give both {CORPUS_OPTION} FILE and {ENGINE_OPTION} ENGINE")
    from checker.conform.process import timeout_seconds

    try:
        seconds = timeout_seconds(config.getoption(TIMEOUT_OPTION))
    except ValueError as exc:
        raise pytest.UsageError(f"{TIMEOUT_OPTION}: {exc}") from None
    known = None
    if config.getoption(KNOWN_OPTION):
        from checker.conform.known import KnownError, load_known

        try:
            known = load_known(config.getoption(KNOWN_OPTION))
        except KnownError as exc:
            raise pytest.UsageError(f"{KNOWN_OPTION}: {exc}") from None
    if any(spec.startswith("python:") for spec in engines):
        _project_importable(config)
    if getattr(config.option, "numprocesses", None) and not hasattr(config, "workerinput"):
        _checked_early(corpora, engines, seconds)  # the xdist controller: its workers' usage errors are not shown
    config.pluginmanager.register(Conformance(corpora, engines, seconds, known), "mjcheck-conformance")


def _checked_early(corpora: list[str], engines: list[str], seconds: float) -> None:
    """Under xdist, refuse an engine nobody can make or a corpus nobody can read before any test runs: the workers
    collect, and a usage or collection error of theirs would reach the terminal as "no tests ran" with its message
    lost. (An engine is made, not started: a cmd: engine's process starts with its first case.)"""
    from checker.conform.adapters import EngineError
    from checker.conform.engines import engine_from_spec
    from checker.corpus.shipped import CorpusNameError, corpus_path
    from checker.inputs import InputError, open_input

    for spec in dict.fromkeys(engines):
        try:
            engine_from_spec(spec, timeout=seconds)
        except EngineError as exc:
            raise pytest.UsageError(f"{ENGINE_OPTION} {spec}: {exc}") from None
    for corpus in dict.fromkeys(corpora):
        try:
            with open_input(corpus_path(corpus), "corpus"):
                pass
        except (CorpusNameError, InputError) as exc:
            raise pytest.UsageError(f"{CORPUS_OPTION} {corpus}: {exc}") from None


def _project_importable(config: pytest.Config) -> None:
    """Put the directory pytest was started from, then its rootdir, first on sys.path (as `python -m pytest`
    does the first), so `python:myengine:score` imports the project's own module."""
    for folder in (str(config.rootpath), str(config.invocation_params.dir)):  # (each inserted first)
        if folder not in sys.path:
            sys.path.insert(0, folder)


class Conformance:
    """The corpora and engines of one pytest run: adds their items after collection, stops the engines at
    the end of the session."""

    def __init__(self, corpora: list[str], engines: list[str], timeout: float, known: Known | None = None):
        self.corpora, self.timeout, self.known = corpora, timeout, known
        self.twice: dict[str, str] = {}  # test id -> why: cases the engine answered twice (the session fails)
        self.engines = [EngineSlot(spec, timeout, known) for spec in dict.fromkeys(engines)]

    @pytest.hookimpl(tryfirst=True)  # before -k / -m deselection, so those select among the cases too
    def pytest_collection_modifyitems(self, session: pytest.Session, config: pytest.Config,
                                      items: list[pytest.Item]) -> None:
        from checker.conform.adapters import EngineError
        from checker.corpus.shipped import CorpusNameError, corpus_path, shipped_corpora

        for slot in self.engines:
            try:
                slot.create()
            except EngineError as exc:
                raise pytest.UsageError(f"{ENGINE_OPTION} {slot.spec}: {exc}") from None
        for corpus in dict.fromkeys(self.corpora):
            try:
                path = Path(corpus_path(corpus)).resolve()
            except CorpusNameError as exc:
                raise pytest.UsageError(f"{CORPUS_OPTION} {exc}") from None
            try:  # the corpus's node id: a shipped corpus's name, its path from the rootdir, else its absolute path
                nodeid = corpus if corpus in shipped_corpora() else path.relative_to(config.rootpath).as_posix()
            except ValueError:
                nodeid = path.as_posix()
            parent = CorpusFile.from_parent(session, path=path, nodeid=nodeid)
            parent.corpus, parent.engines = corpus, self.engines
            # collected through the collection hooks, so the terminal counts the items and reports a corpus
            # that cannot be read as a collection error, as for any test file
            session.ihook.pytest_collectstart(collector=parent)
            report = session.ihook.pytest_make_collect_report(collector=parent)
            session.ihook.pytest_collectreport(report=report)
            if report.passed:
                items.extend(x for x in report.result if isinstance(x, pytest.Item))

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        for slot in self.engines:
            slot.stop()
        if self.twice and session.exitstatus == pytest.ExitCode.OK:  # a case answered twice is an error
            session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """In the controlling process of pytest-xdist (whose workers judge the cases), each result as its worker
        sent it with the report, so the terminal summary sees every case; and, in any process, the cases the
        engine answered twice."""
        for name, value in report.user_properties:
            if name == TWICE_PROPERTY and isinstance(value, (list, tuple)) and len(value) == 2:
                self.twice[str(value[0])] = str(value[1])
        if not hasattr(report, "node"):  # (a report from a worker carries its node: this process judged nothing)
            return
        from checker.conform.results import from_json

        for name, value in report.user_properties:  # (typed as objects: checked before they are unpacked)
            # (a case's result rides on the report of the phase that ended it: the call, or a setup that erred)
            ended = report.when == "call" or (report.when == "setup" and not report.passed)
            if name != RESULT_PROPERTY or not ended or not isinstance(value, (list, tuple)) or len(value) != 3:
                continue
            corpus, spec, data = value
            result = from_json(data)
            slot = next((s for s in self.engines if s.spec == spec), None)
            if result is not None and slot is not None:
                slot.judged.setdefault(str(corpus), []).append(result)

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        """The cases the engine answered twice, then the failure classes of each corpus and engine whose judged
        cases failed or errored."""
        if self.twice:
            terminalreporter.write_sep("=", "mjcheck: cases the engine answered twice (the session fails)")
            for test_id, why in sorted(self.twice.items()):
                terminalreporter.write_line(f"{test_id}: {why[:500]}")
        runs = [(corpus, slot, judged) for slot in self.engines for corpus, judged in slot.judged.items()
                if any(r.outcome in ("failed", "errored") for r in judged)]
        if not runs:
            return
        from checker.diagnose import Prober, diagnose
        from checker.inputs import bounded

        def line(text: str) -> None:  # (a corpus's text reaches the terminal with its control characters escaped)
            terminalreporter.write_line(bounded(text, 4000))

        terminalreporter.write_sep("=", "mjcheck failure classes")
        if self.known is not None:
            from checker.conform.declared import has_causes

            if has_causes(self.known):
                line(f"({KNOWN_OPTION}: its causes entries are matched to the classes below only; their cases "
                     f"were not marked as expected failures: declare such a class by its signature instead)")
        for corpus, slot, judged in runs:
            classes = diagnose(judged, prober=Prober(slot.ask))  # its causes put to the engine (probes)
            if self.known is not None:
                from checker.conform.known import declare

                classes = declare(self.known, classes)[0]
            line(f"{corpus} on {slot.spec}: {len(classes)} failure class{'es' if len(classes) != 1 else ''}")
            for number, c in enumerate(classes, 1):
                cause = c.get("cause") or {}
                witness = c["witness"]
                name = f"{witness['id']} (line {witness['line']})" if witness.get("id") else f"line {witness['line']}"
                line(f"  {number}. {c['signature']} ({c['count']} case{'s' if c['count'] != 1 else ''}, "
                     f"{c.get('ruleset') or '?'}){' (declared)' if c.get('declared') else ''}")
                line(f"     cause: {cause.get('verdict', 'not searched')}")
                line(f"     witness {name}: {witness['words']}")
                line(f"     reproduce: {witness['reproduce']}")
                on_engine = _on_engine(str(witness.get("reproduce") or ""), slot.spec)
                if on_engine:
                    line(f"     on the engine: {on_engine}")
        for slot in self.engines:  # (started again for the probes, after the session's end stopped it)
            slot.stop()


class EngineSlot:
    """One engine of the run: created at collection (an unknown form or a python: module that does not import
    is a usage error), started at its first case (a start failure fails each of its cases), stopped at the end."""

    def __init__(self, spec: str, timeout: float, known: Known | None = None):
        self.spec, self.timeout, self.known = spec, timeout, known
        self.engine: Engine | None = None
        self.info: EngineInfo | None = None
        self.start_error: str | None = None
        self.judged: dict[str, list[CaseResult]] = {}  # corpus -> the cases judged on this engine, in run order
        self.twice: dict[str, str] = {}  # test id -> why: cases the engine answered again after they were judged
        self._reference: Any = None  # the reference engine, made when a declared reading is first tried

    def create(self) -> None:
        from checker.conform.engines import engine_from_spec

        if self.engine is None:
            self.engine = engine_from_spec(self.spec, timeout=self.timeout)

    def started(self) -> EngineInfo:
        from checker.conform.adapters import EngineError

        assert self.engine is not None
        if self.info is None and self.start_error is None:
            try:
                self.info = self.engine.start()
            except EngineError as exc:
                self.start_error = str(exc)
        if self.info is None:
            raise CaseFailure(f"engine {self.spec} did not start: {self.start_error}")
        return self.info

    def answer(self, case: Mapping[str, Any], key: str = "") -> Answer:
        """The engine's answer to this case. An answer the engine gives late to a case asked before (a case it
        answered twice) is not taken for this one: it is kept in `twice`, by that case's key."""
        from checker.conform.adapters import Answer

        assert self.engine is not None
        for asked, answer in self.engine.run([(key, case)]):
            if asked == key:
                return answer
            self.twice[str(asked)] = answer.error or "answered twice"
        return Answer(error="the engine gave no answer")

    def ask(self, cases: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any] | None]:
        """Diagnosis's probes put to the engine (started if it is not): each answer, or None for an error."""
        try:
            self.started()
        except CaseFailure:
            return [None] * len(cases)
        out: list[Mapping[str, Any] | None] = []
        for case in cases:
            answer = self.answer(case)
            out.append(answer.result if answer.error is None and isinstance(answer.result, Mapping) else None)
        return out

    def reference(self) -> Any:
        """The reference engine, for re-scoring a case under a declared reading."""
        if self._reference is None:
            from checker.case import CaseRunner

            self._reference = CaseRunner()
        return self._reference

    def stop(self) -> None:
        if self.engine is not None and self.info is not None:
            self.engine.stop()
            self.info = None


class CaseFailure(Exception):
    """A case that failed or errored; its text is the whole failure report (no traceback)."""


class CorpusFile(pytest.File):
    """A corpus file: one item per case and engine (`line N` names a case without an id)."""

    corpus: str = ""
    engines: list[EngineSlot] = []

    def collect(self) -> list[pytest.Item]:
        from checker.case import read_cases
        from checker.inputs import InputError, open_input

        try:
            with open_input(str(self.path), "corpus") as stream:
                lines = list(read_cases(stream, self.corpus))
        except InputError as exc:
            raise self.CollectError(f"{CORPUS_OPTION} {self.corpus}: {exc}") from None
        items: list[pytest.Item] = []
        seen: set[str] = set()
        for item in lines:
            case_id = item.case.get("id") if item.case is not None else None
            name = case_id if isinstance(case_id, str) and case_id else f"line {item.line}"
            if name in seen:  # two cases of one id: the later ones are told apart by their line
                name = f"{name} (line {item.line})"
            seen.add(name)
            for slot in self.engines:
                shown = f"{name}[{slot.spec}]" if len(self.engines) > 1 else name
                items.append(CaseItem.from_parent(self, name=shown, case_line=item, slot=slot, corpus=self.corpus))
        return items


class CaseItem(pytest.Item):
    """One case of a corpus run on one engine."""

    def __init__(self, *, case_line: CaseLine, slot: EngineSlot, corpus: str = "", **kwargs: Any):
        super().__init__(**kwargs)
        self.case_line, self.slot, self.corpus = case_line, slot, corpus

    def setup(self) -> None:
        """The case put to the engine and judged. An engine that cannot answer it (it raised, crashed, hung,
        answered outside the protocol or the result schema, or did not start) is an error of the item, reported
        at its setup (pytest's ERROR), not a failed test."""
        from checker.conform.runner import judge, skip_reason
        from checker.corpus.canonical import canonical_case

        item, where = self.case_line, f"{self.case_line.source}, line {self.case_line.line}"
        if item.case is None:
            pytest.fail(f"{where}: not a case ({item.rule}): {item.error}", pytrace=False)
        skipped = skip_reason(item.case, lambda case: self._started())
        if skipped is not None:
            pytest.skip(skipped)
        before = len(self.slot.twice)
        result = judge(item, self.slot.answer(canonical_case(item.case), self.nodeid), self.slot.info)
        for earlier in list(self.slot.twice)[before:]:  # an earlier case answered again: said at the session's end
            self.user_properties.append((TWICE_PROPERTY, (earlier, self.slot.twice[earlier])))
        self.result = result
        self.slot.judged.setdefault(self.corpus, []).append(result)
        # carried to the session's controlling process with the report when pytest-xdist runs tests in workers
        self.user_properties.append((RESULT_PROPERTY, (self.corpus, self.slot.spec, result.as_json())))
        declared = self._declared(result)
        if result.outcome == "errored":
            if declared:
                pytest.xfail(f"errored, declared ({declared}): {result.reason}")
            from checker.diagnose.classes import case_words

            pytest.fail(f"{self._head()}: the engine erred: {result.reason}\nthe case: {case_words(result.case)}",
                        pytrace=False)

    def _started(self) -> str | None:
        try:
            return self.slot.started().refuses(self.case_line.case or {})
        except CaseFailure as exc:  # the engine did not start: an error of every item, at its setup
            pytest.fail(str(exc), pytrace=False)

    def _head(self) -> str:
        item = self.case_line
        where = f"{item.source}, line {item.line}"
        return f"case {(item.case or {}).get('id') or '(no id)'} ({where}) on engine {self.slot.spec}"

    def _declared(self, result: CaseResult) -> str:
        """The declarations of --mjcheck-known that declare this case, in words ("" for none)."""
        if self.slot.known is None:
            return ""
        from checker.conform.declared import declaring

        found = declaring(self.slot.known, result, self.slot.reference())
        return "; ".join(d.words() for d in found)

    def runtest(self) -> None:
        from checker.diagnose.diff import describe, diff

        result = self.result
        declared = self._declared(result)
        if result.outcome == "skipped":  # the engine skips it on purpose (`{"skip": "reason"}`)
            if declared:
                pytest.skip(f"{result.reason} (declared: {declared})")
            raise CaseFailure(f"{self._head()}: {result.reason}; no `skips` entry of {KNOWN_OPTION} declares it, "
                              f"so it was left unchecked (declare it with `skips: [{{reason: \"…\", note: …}}]`)")
        if result.outcome == "failed":
            from checker.diagnose.classes import case_words

            lines = [f"{self._head()}: the result departs from expect", f"the case: {case_words(result.case)}"]
            if result.covers:
                lines.append("covers: " + ", ".join(result.covers))
            lines += ["  " + line for line in describe(diff(result.expected, result.actual))] \
                or ["  (the results differ in shape)"]
            lines += [f"expected: {_json(result.expected)}", f"actual:   {_json(result.actual)}"]
            if declared:
                pytest.xfail(f"declared ({declared}): " + "; ".join(lines[2:5]))
            raise CaseFailure("\n".join(lines))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, CaseFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, self.case_line.line - 1, f"{self.case_line.source}:{self.case_line.line}: {self.name}"


def _on_engine(reference: str, spec: str) -> str:
    """The witness's reproducer put to the engine under test beside the reference (`mjcheck reproduce`), from
    the command that scores it on the reference (`echo '…' | mjcheck score --case -`); "" for another form."""
    import shlex

    tail = " | mjcheck score --case -"
    if not reference.startswith("echo ") or not reference.endswith(tail):
        return ""
    return f"{reference[:-len(tail)]} | mjcheck reproduce --engine {shlex.quote(spec)} -"


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=repr)
