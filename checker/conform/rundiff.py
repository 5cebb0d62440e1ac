"""`mjcheck diff RUN_A RUN_B`: what changed between two conformance runs of one corpus (two `--out` folders).

Each run is read from its results.jsonl as a stream (checker.conform.stream.ResultStream: one result per case,
the last written, in corpus line order; a damaged line is never read, its case has no result), and the run
headers' `corpus_sha256` must agree (two runs of different corpora are not compared). The two streams are walked
side by side, matched by line and id, so neither run is held in memory (only the cases the diff lists are); a
case is *failing* when it failed or errored. The diff:

- *fixed*: failing in A, passed in B, grouped by A's class;
- *newly failing*: failing in B and not in A (passed, skipped or no result there), grouped by B's class;
- *changed*: failing in both, with another answer or in another class, grouped by B's class;
- *still failing* (counted, and split into those whose class B's summary declares (`--known`) and the rest), and
  *not compared*: failing in A, skipped or with no result in B.

A case's class is its signature (checker.diagnose.classes), worked out again from its result; its cause verdict
and whether it is declared come from the class of that signature in the run's summary.json, when that file is
one mjcheck wrote for these results (its counts agree with results.jsonl), else are left out with a note.
"""
from __future__ import annotations

import json
import os
from collections import Counter
from dataclasses import dataclass
from typing import Any, Iterable, Iterator, Mapping, Sequence

from checker.conform.known import class_key
from checker.conform.outputs import MAX_SUMMARY_BYTES, SUMMARY_FILE
from checker.conform.results import OUTCOMES, RESULTS_FILE, CaseResult
from checker.conform.stream import ResultStream
from checker.diagnose.diff import diff
from checker.files import OwnedFileError, read_owned
from checker.inputs import FILE_JSON, InputError, bounded, json_text, parse_json

FAILING = ("failed", "errored")
LISTED = 20  # cases listed per group in the Markdown (--json has them all)
Key = tuple[str | None, int]


class DiffError(ValueError):
    """Two folders that cannot be compared (exit status 2)."""


@dataclass(frozen=True)
class Run:
    """One conformance run as its folder holds it."""

    folder: str
    header: Mapping[str, Any] | None
    results: ResultStream  # one result per case, in corpus line order, read from the file at each pass
    counts: Mapping[str, int]  # results by outcome
    damaged: int
    classes: dict[tuple[str, str], Mapping[str, Any]]  # (ruleset, signature) -> the summary's class
    notes: tuple[str, ...] = ()

    def close(self) -> None:
        self.results.close()

    @property
    def corpus_sha256(self) -> str | None:
        found = (self.header or {}).get("corpus_sha256")
        return found if isinstance(found, str) and found else None

    @property
    def missing(self) -> int:
        """The corpus's cases this run holds no result for (its header's count less the results; 0 unknown)."""
        cases = (self.header or {}).get("corpus_cases")
        if not isinstance(cases, int) or isinstance(cases, bool):
            return 0
        return max(0, cases - len(self.results))

    def describe(self) -> dict[str, Any]:
        header = self.header or {}
        engine: Mapping[str, Any] = header["engine"] if isinstance(header.get("engine"), Mapping) else {}
        counts = self.counts
        return {"folder": self.folder, "corpus": header.get("corpus"), "corpus_sha256": self.corpus_sha256,
                "engine_spec": header.get("engine_spec"),
                "engine": {"name": engine.get("name"), "version": engine.get("version")},
                "counts": {**{o: counts.get(o, 0) for o in OUTCOMES}, "damaged": self.damaged}}


def read_run(folder: str) -> Run:
    """A conformance folder's results and summary classes; DiffError when it holds no results."""
    path = os.path.join(folder, RESULTS_FILE)
    if not os.path.isdir(folder):
        raise DiffError(f"{folder}: not a folder (give two folders mjcheck conform --out wrote)")
    try:
        stream = ResultStream(path)
        counts = Counter(r.outcome for r in stream)
    except OwnedFileError as exc:
        raise DiffError(f"{path}: {exc.reason}") from None
    if stream.run is None and not len(stream):
        if not os.path.lexists(path):
            raise DiffError(f"{path}: no such file (not a folder mjcheck conform --out wrote)")
        raise DiffError(f"{path}: holds neither results nor a header naming the run")
    classes, notes = _summary_classes(folder, counts)
    return Run(folder, stream.run, stream, dict(counts), stream.damaged, classes, tuple(notes))


def _summary_classes(folder: str, mine: Mapping[str, int]) -> tuple[dict[tuple[str, str], Mapping[str, Any]],
                                                                   list[str]]:
    """The classes of the folder's summary.json by (ruleset, signature), if it is a summary of these results."""
    path = os.path.join(folder, SUMMARY_FILE)
    try:
        data = read_owned(path, MAX_SUMMARY_BYTES)
        loaded = parse_json(data.decode("utf-8"), path, limits=FILE_JSON) if data is not None else None
    except (OSError, InputError, UnicodeDecodeError):
        loaded = None
    if not isinstance(loaded, dict):
        return {}, [f"{path}: not readable: causes not shown (mjcheck report {folder} writes it again)"]
    counts: Mapping[str, Any] = loaded["counts"] if isinstance(loaded.get("counts"), dict) else {}
    if any(counts.get(o) != mine.get(o, 0) for o in OUTCOMES) or not isinstance(loaded.get("classes"), list):
        return {}, [f"{path}: not the summary of its results.jsonl: causes not shown (mjcheck report {folder} "
                    "writes it again)"]
    found: dict[tuple[str, str], Mapping[str, Any]] = {}
    for c in loaded["classes"]:
        if isinstance(c, dict) and isinstance(c.get("signature"), str) \
                and (c.get("ruleset") is None or isinstance(c.get("ruleset"), str)):
            found[(c.get("ruleset") or "", c["signature"])] = c
    return found, []


def _class_info(run: Run, r: CaseResult) -> dict[str, Any]:
    """A failing case's class in a run: its signature and ruleset, and from the summary its cause verdict and
    whether it is declared (null when the summary does not say)."""
    ruleset, words = class_key(r)
    known = run.classes.get((ruleset, words)) or {}
    cause: Mapping[str, Any] = known["cause"] if isinstance(known.get("cause"), Mapping) else {}
    verdict = cause.get("verdict") if isinstance(cause.get("verdict"), str) else None
    declared = known.get("declared") if isinstance(known.get("declared"), bool) else None
    return {"ruleset": r.ruleset, "signature": words, "cause": verdict, "declared": declared}


def compare(a: Run, b: Run) -> dict[str, Any]:
    """The diff of two runs as JSON (see the module's words); DiffError for runs of different corpora."""
    notes = [f"A: {n}" for n in a.notes] + [f"B: {n}" for n in b.notes]
    if a.corpus_sha256 and b.corpus_sha256:
        if a.corpus_sha256 != b.corpus_sha256:
            raise DiffError(f"{a.folder} and {b.folder} are runs of different corpora (SHA-256 "
                            f"{a.corpus_sha256[:12]}… and {b.corpus_sha256[:12]}…): a diff compares runs of one corpus")
        same: bool | None = True
    else:
        same = None
        notes.append("the runs' headers do not both name their corpus's SHA-256 (a results file of an earlier "
                     "layout, a damaged header, or a corpus read from a pipe): that they ran the same corpus is not "
                     "checked; cases are matched by id and line")
    fixed, new, changed, not_compared = [], [], [], []
    still = 0
    still_declared: Counter[bool | None] = Counter()  # of the still failing, by whether B's summary declares their class (None: unsaid)
    unchecked = 0  # A's cases B holds no result for
    pairs = _compared(a, b)
    while True:
        try:
            ra, rb = next(pairs)
        except StopIteration:
            break
        except OwnedFileError as exc:  # replaced or removed while it was read
            raise DiffError(f"{exc.path}: {exc.reason}") from None
        unchecked += rb is None
        fail_a = ra is not None and ra.outcome in FAILING
        fail_b = rb is not None and rb.outcome in FAILING
        if fail_a and rb is not None and rb.outcome == "passed":
            assert ra is not None
            fixed.append(_case(ra, rb, _class_info(a, ra)))
        elif fail_b and not fail_a:
            assert rb is not None
            new.append(_case(ra, rb, _class_info(b, rb)))
        elif fail_a and fail_b:
            assert ra is not None and rb is not None
            before, after = _class_info(a, ra), _class_info(b, rb)
            moved = (before["ruleset"], before["signature"]) != (after["ruleset"], after["signature"])
            answer = _answer_change(ra, rb)
            if moved or answer:
                changed.append({**_case(ra, rb, after), "before_class": before["signature"],
                                "before_cause": before["cause"], "answer": answer})
            else:
                still += 1
                still_declared[after["declared"]] += 1
        elif fail_a:
            assert ra is not None
            not_compared.append(_case(ra, rb, _class_info(a, ra)))
    if b.missing or b.damaged or unchecked:
        notes.append(f"B is partial: {b.missing} case(s) of its corpus have no result, {b.damaged} line(s) are "
                     f"damaged, {unchecked} case(s) of A are not in B; what they do in B is not known")
    return {"a": a.describe(), "b": b.describe(), "same_corpus": same, "notes": notes,
            "partial": bool(b.missing or b.damaged or unchecked),
            "counts": {"fixed": len(fixed), "newly_failing": len(new), "changed": len(changed),
                       "still_failing": still, "still_failing_declared": still_declared[True],
                       "still_failing_undeclared": still - still_declared[True], "not_compared": len(not_compared)},
            "newly_failing": _groups(new), "fixed": _groups(fixed), "changed": _groups(changed),
            "not_compared": [{**{k: v for k, v in c.items() if k != "_class"}, "signature": c["_class"]["signature"],
                              "cause": c["_class"]["cause"]} for c in not_compared]}


def _compared(a: Run, b: Run) -> Iterator[tuple[CaseResult | None, CaseResult | None]]:
    """The pairs the diff looks at: where either side fails (a passing pair, or a result with none beside it that
    passes, is counted, not kept), and A's results with none in B (to count them)."""
    for ra, rb in _side_by_side(a.results, b.results):
        if (ra is not None and ra.outcome in FAILING) or (rb is not None and rb.outcome in FAILING) or rb is None:
            yield ra, rb


def _side_by_side(a: Iterable[CaseResult], b: Iterable[CaseResult]
                  ) -> Iterator[tuple[CaseResult | None, CaseResult | None]]:
    """The results of two streams in corpus line order, paired by line and id (None: no result on that side)."""
    ia, ib = iter(a), iter(b)
    ra, rb = next(ia, None), next(ib, None)
    while ra is not None or rb is not None:
        ka = (ra.line, ra.id or "") if ra is not None else None
        kb = (rb.line, rb.id or "") if rb is not None else None
        if kb is None or (ka is not None and ka < kb):
            yield ra, None
            ra = next(ia, None)
        elif ka is None or kb < ka:
            yield None, rb
            rb = next(ib, None)
        else:
            yield ra, rb
            ra, rb = next(ia, None), next(ib, None)


def _case(ra: CaseResult | None, rb: CaseResult | None, cls: Mapping[str, Any]) -> dict[str, Any]:
    r = rb if rb is not None else ra
    assert r is not None
    return {"id": r.id, "line": r.line, "before": ra.outcome if ra is not None else "no result",
            "after": rb.outcome if rb is not None else "no result", "_class": cls}


def _answer_change(ra: CaseResult, rb: CaseResult) -> list[str]:
    """How B's answer differs from A's, in short phrases ([]: the same answer; an errored case: its reasons)."""
    if not (isinstance(ra.actual, Mapping) and isinstance(rb.actual, Mapping)):
        if _canonical(ra.actual) == _canonical(rb.actual):
            return []  # (an errored case's reason: its class tells what changed, not the excerpts it quotes)
        return [f"A: {ra.reason or _canonical(ra.actual)}", f"B: {rb.reason or _canonical(rb.actual)}"]
    found = diff(ra.actual, rb.actual)

    def fan(f: Mapping[str, Any]) -> str:
        return f"{f.get('id')} {f.get('points')}×{f.get('count')}"

    out = [f"B drops {fan(f)}" for f in found.missing] + [f"B adds {fan(f)}" for f in found.extra]
    out += [f"{e.get('id')} {e.get('points')}×{e.get('count')} in A, {g.get('points')}×{g.get('count')} in B"
            for e, g in found.different]
    out += [f"{k}: {json_text(x)} in A, {json_text(y)} in B" for k, x, y in found.fields]
    out += [f"B adds {k}" for k in rb.actual if k not in ra.actual and k != "fans"]
    return out


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=repr)


def _groups(cases: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Cases grouped by their class (ruleset, signature), largest group first."""
    grouped: dict[tuple[str, str], dict[str, Any]] = {}
    for c in cases:
        cls = c["_class"]
        group = grouped.setdefault((cls["ruleset"] or "", cls["signature"]), {**cls, "count": 0, "cases": []})
        group["count"] += 1
        group["cases"].append({k: v for k, v in c.items() if k != "_class"})
    return sorted(grouped.values(), key=lambda g: (-g["count"], g["ruleset"] or "", g["signature"]))


# ------------------------------------------------------------------ words

def _md(value: Any, limit: int = 300) -> str:
    text = bounded(str(value), limit).replace("\n", " ")
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("`", "\\`").replace("<", "&lt;")


def _run_line(label: str, run: Mapping[str, Any]) -> str:
    engine, counts = run["engine"], run["counts"]
    said = ", ".join(f"{counts[o]} {o}" for o in OUTCOMES)
    if counts.get("damaged"):
        said += f", {counts['damaged']} damaged line(s) not read"
    return (f"- {label}: `{_md(run['folder'])}`: {_md(engine.get('name') or '?')} {_md(engine.get('version') or '')}"
            f" (`{_md(run.get('engine_spec') or '')}`) on `{_md(run.get('corpus') or '?')}`: {said}")


def _case_words(c: Mapping[str, Any]) -> str:
    name = f"{c['id']} (line {c['line']})" if c.get("id") else f"line {c['line']}"
    return f"{_md(name)}: {c['before']} → {c['after']}"


def _group_lines(groups: Iterable[Mapping[str, Any]], which: str) -> list[str]:
    out: list[str] = []
    for g in groups:
        cause = g.get("cause")
        flags = " (declared)" if g.get("declared") else ""
        out += [f"### {_md(g['signature'])} ({g['count']} case{'s' if g['count'] != 1 else ''}, "
                f"{_md(g.get('ruleset') or '?')}){flags}", ""]
        out.append(f"- cause in {which}: {_md(cause, 400) if cause else '(not in its summary)'}")
        for c in g["cases"][:LISTED]:
            line = f"- {_case_words(c)}"
            if "before_class" in c:
                if c["before_class"] != g["signature"]:
                    line += f"; in A: {_md(c['before_class'])}" + (f" ({_md(c['before_cause'], 200)})"
                                                                  if c.get("before_cause") else "")
                if c.get("answer"):
                    line += "; " + _md("; ".join(c["answer"]), 400)
            out.append(line)
        if len(g["cases"]) > LISTED:
            out.append(f"- … {len(g['cases']) - LISTED} more (`--json` lists them all)")
        out.append("")
    return out


def markdown(found: Mapping[str, Any]) -> str:
    """The diff as Markdown: the two runs, the counts, then newly failing, fixed and changed cases by class."""
    counts = found["counts"]
    out = ["# Conformance diff: A → B", "", _run_line("A", found["a"]), _run_line("B", found["b"]), ""]
    out += [f"- note: {_md(n, 600)}" for n in found["notes"]]
    if found["notes"]:
        out.append("")
    out += ["| newly failing | fixed | changed | still failing (declared / not) | not compared |",
            "|---:|---:|---:|---:|---:|",
            f"| {counts['newly_failing']} | {counts['fixed']} | {counts['changed']} | {counts['still_failing']} "
            f"({counts.get('still_failing_declared', 0)} / {counts.get('still_failing_undeclared', 0)}) | "
            f"{counts['not_compared']} |", ""]
    if counts.get("still_failing_undeclared") and counts.get("still_failing_declared"):
        out += [f"{counts['still_failing_undeclared']} case(s) still failing are in classes B's known file does not "
                "declare: those are what a `--known` file leaves to fix.", ""]
    for title, key, which in (("Newly failing", "newly_failing", "B"), ("Fixed", "fixed", "A"),
                              ("Changed", "changed", "B")):
        if found[key]:
            out += [f"## {title} ({counts[key]})", ""]
            out += _group_lines(found[key], which)
    if found["not_compared"]:
        out += [f"## Not compared ({counts['not_compared']}): failing in A, skipped or with no result in B", ""]
        out += [f"- {_case_words(c)}" for c in found["not_compared"][:LISTED]]
        if len(found["not_compared"]) > LISTED:
            out.append(f"- … {len(found['not_compared']) - LISTED} more (`--json` lists them all)")
        out.append("")
    return "\n".join(out)
