"""A run's results as its reports read them: `DIR/results.jsonl` read again at each pass, one result at a time.

`ResultStream(path)` reads the file once to find its run (the header), its damaged lines and its cases; each
iteration then reads it again and yields one result per case (the last written for it), by corpus line, as
`latest` orders a list, while memory holds one result at a time whatever the run's size. A file whose results
are in that order already (a run in one process, or in parts: `--jobs`) is read straight through; one that is
not (a `cmd:` engine answering out of order, a case answered twice, a resumed run) has its cases' places
sorted once on disk (runs of SORT_RUN keys sorted in memory, then merged), and each pass reads its lines where
they lie. Every pass reads the file as the first found it: no further than its last whole line then, and from
the same file (one put in its place since is refused: OwnedFileError).
"""
from __future__ import annotations

import heapq
import os
import tempfile
from array import array
from typing import IO, Any, BinaryIO, Iterable, Iterator, Mapping, Protocol, Sequence

import orjson

from checker.conform.compared import judged_on
from checker.conform.results import CaseResult, Reading, result_at, result_lines
from checker.files import OwnedFileError, open_owned
from checker.inputs import json_line

SORT_RUN = 50_000  # keys of results sorted in memory at once, when the file is not in corpus line order
_OFFSETS_READ = 8192  # places read at once from the sorted order


def latest(results: Iterable[CaseResult]) -> list[CaseResult]:
    """One result per case (the last written for it), in corpus line order."""
    by_key = {r.key: r for r in results}
    return sorted(by_key.values(), key=lambda r: (r.line, r.id or ""))


class Cases(Protocol):
    """Results the reports read, in corpus line order, as often as they need: a list, or a ResultStream."""

    def __iter__(self) -> Iterator[CaseResult]: ...

    def __len__(self) -> int: ...


def in_latest_order(results: Iterable[CaseResult]) -> Cases:
    """`results` as the reports read them, one per case in corpus line order: a ResultStream as it is (it is so
    already, and read again at each pass), any other collection through `latest`."""
    return results if isinstance(results, ResultStream) else latest(results)


class ResultStream:
    """The results of a results file, one per case in corpus line order, read from the file at each iteration
    (see the module). `run`, `damaged` and `len()` (the cases) are known from the first reading; a missing file
    is an empty stream. OwnedFileError: the file is not a regular file the tool wrote (as read_results_file),
    or was replaced while it was read again. Close it (or use it as a context manager) to drop its sorted order."""

    def __init__(self, path: str, sort_run: int | None = None):
        self.path = path
        self._reading = Reading()
        self._cases = 0
        self._order: IO[bytes] | None = None  # the cases' places in the file, in order, when the file's own is not
        stream = open_owned(path)
        self._identity: tuple[int, int] | None = None
        if stream is None:
            return
        with stream:
            info = os.fstat(stream.fileno())
            self._identity = (info.st_dev, info.st_ino)
            in_order, previous = True, None
            for _, r in result_lines(stream, self._reading):
                here = (r.line, r.id or "")
                if previous is not None and here <= previous:
                    in_order = False
                previous = here
                self._cases += 1
            if not in_order:
                stream.seek(0)
                self._order, self._cases = _sorted_places(stream, self._reading.end, sort_run or SORT_RUN)

    @property
    def run(self) -> Mapping[str, Any] | None:
        """The run the file's header names (None: a file of the earlier layout, or no file)."""
        return self._reading.run

    @property
    def damaged(self) -> int:
        return self._reading.damaged

    def __len__(self) -> int:
        return self._cases

    def __iter__(self) -> Iterator[CaseResult]:
        judged = judged_on((self.run or {}).get("engine"))  # what the engine said it models, from the sealed header
        for r in self._lines():
            if r.case is not None:
                expect = r.case.get("expect")
                narrowed = judged(expect, str(r.case.get("kind", "score")))
                r.compared = narrowed if narrowed is not expect else None
            yield r

    def _lines(self) -> Iterator[CaseResult]:
        if self._identity is None:
            return
        stream = open_owned(self.path)
        if stream is None:
            raise OwnedFileError(self.path, "removed while the reports were made from it")
        with stream:
            info = os.fstat(stream.fileno())
            if (info.st_dev, info.st_ino) != self._identity:
                raise OwnedFileError(self.path, "replaced while the reports were made from it")
            if self._order is None:
                for _, r in result_lines(stream, Reading(), self._reading.end):
                    yield r
                return
            checked = self.run is not None
            at, fd = 0, self._order.fileno()
            while True:
                chunk = os.pread(fd, 8 * _OFFSETS_READ, at)
                if not chunk:
                    break
                at += len(chunk)
                places = array("q")
                places.frombytes(chunk)
                for place in places:
                    found = result_at(stream, place, checked)
                    if found is not None:
                        yield found

    def close(self) -> None:
        if self._order is not None:
            self._order.close()
            self._order = None

    def __enter__(self) -> "ResultStream":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _sorted_places(stream: BinaryIO, end: int, sort_run: int) -> tuple[IO[bytes], int]:
    """The places (offsets) of the results to read, one per case (the last written for it), in `latest`'s order,
    written to a temporary file; and how many. Sorted on disk: runs of `sort_run` keys sorted in memory, then
    merged."""
    runs: list[IO[bytes]] = []
    keys: list[tuple[int, str, bool, int]] = []
    for place, r in result_lines(stream, Reading(), end):
        keys.append((r.line, r.id or "", r.id is None, place))
        if len(keys) >= sort_run:
            runs.append(_spilled(keys))
            keys = []
    runs.append(_spilled(keys))
    order = tempfile.TemporaryFile()
    cases = 0
    try:
        places = array("q")
        for place in _one_per_case(heapq.merge(*(_read_run(run) for run in runs))):
            places.append(place)
            cases += 1
            if len(places) >= _OFFSETS_READ:
                order.write(places.tobytes())
                places = array("q")
        order.write(places.tobytes())
        order.flush()
    except BaseException:
        order.close()
        raise
    finally:
        for run in runs:
            run.close()
    return order, cases


def _spilled(keys: list[tuple[int, str, bool, int]]) -> IO[bytes]:
    keys.sort()
    run = tempfile.TemporaryFile()
    for key in keys:
        run.write(json_line(key))
    run.seek(0)
    return run


def _read_run(run: IO[bytes]) -> Iterator[tuple[int, str, bool, int]]:
    for raw in run:
        line, text, no_id, place = orjson.loads(raw)
        yield line, text, no_id, place


def _one_per_case(keys: Iterator[tuple[int, str, bool, int]]) -> Iterator[int]:
    """From keys sorted by (line, id text, id is None, place): the place of each case's last result, cases in
    `latest`'s order (by line and id text; two cases alike there, one with no id and one with an empty id, in
    the order their first results were written)."""
    pending: list[tuple[int, int]] = []  # (first place, last place) of each case of the current (line, id text)
    current: tuple[int, str, bool] | None = None
    for line, text, no_id, place in keys:
        key = (line, text, no_id)
        if key == current:
            pending[-1] = (pending[-1][0], place)
            continue
        if current is not None and (line, text) != current[:2]:
            yield from _lasts(pending)
            pending = []
        current = key
        pending.append((place, place))
    yield from _lasts(pending)


def _lasts(cases: Sequence[tuple[int, int]]) -> Iterator[int]:
    for _, last in sorted(cases):
        yield last
