"""A conformance run in several processes (`--jobs N`): the corpus cut into byte ranges, one forked process each.

Each shard runs the same loop as a run in one process (`checker.conform.runner`) on its own range of lines:
it parses and checks its cases, runs them on its copy of the engine, judges them and writes its results to a
part file beside results.jsonl. The parent reads nothing of the corpus but where to cut it; it hears each
shard's progress through a pipe (how many results it will write, then a letter per result) and, when every shard
has ended, appends the part files to results.jsonl in the order of the corpus's parts: the same file as a run
in one process writes (an engine in this process answers in the corpus's order, and each part streams its
lines as one process streams them all).

Only engines that run in this process can be forked this way (reference, pymahjonggb, python:), and only where
the operating system forks (Linux); elsewhere the run takes one process.
"""
from __future__ import annotations

import os
import select
import shutil
import signal
import sys
import time
import traceback
from dataclasses import dataclass
from typing import BinaryIO, Callable, NoReturn

from checker.conform.results import FLUSH_SECONDS, drop_torn_tail
from checker.files import OwnedFileError, open_owned

PART_PREFIX = "results.jsonl.part-"
OUTCOME_LETTERS = {"passed": b"p", "failed": b"f", "errored": b"e", "skipped": b"s"}
_OUTCOMES = {letter[0]: outcome for outcome, letter in OUTCOME_LETTERS.items()}
_SCAN = 1 << 16  # bytes read at a time when looking for line endings
INTERRUPTED_STATUS = 130  # a shard cut short by Ctrl-C or SIGTERM (its finished results are kept)


@dataclass(frozen=True)
class Shard:
    """Bytes start … end of the corpus (whole lines), the first of them line number `first_line`."""

    index: int
    start: int
    end: int
    first_line: int


def can_fork() -> bool:
    """Whether shards can be forked here: Linux (elsewhere fork is missing or unsafe beside system threads)."""
    return sys.platform.startswith("linux") and hasattr(os, "fork")


AUTO_PART_BYTES = 1 << 20  # `--jobs auto` gives each process at least this much corpus (about 1,000 cases)
AUTO_MAX_JOBS = 8


def auto_jobs(path: str) -> int:
    """How many processes `--jobs auto` runs a corpus file in: one per processor this process may use (at most
    AUTO_MAX_JOBS), but no more than parts of AUTO_PART_BYTES: a process's start (forking, loading its specs
    and binding their options, some 20 ms) is then small beside its share of the run."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    try:
        size = os.path.getsize(path)
    except OSError:
        return 1
    return max(1, min(cores, AUTO_MAX_JOBS, size // AUTO_PART_BYTES))


def cut(path: str, jobs: int) -> list[Shard]:
    """Up to `jobs` ranges of about equal bytes, each starting at a line's start (a range that would be empty
    is dropped). Reads the file once, a block at a time, however long its lines."""
    size = os.path.getsize(path)
    starts, lines_before = [0], [0]
    with open(path, "rb") as stream:
        position = lines = 0  # newlines in bytes 0 … position-1
        for k in range(1, jobs):
            target = k * size // jobs
            if target <= position:
                continue
            lines += _newlines(stream, position, target)
            position = target
            stream.seek(target - 1)
            if stream.read(1) != b"\n":  # inside a line: the shard starts at the next one
                newline = _next_newline(stream, target)
                if newline < 0:
                    break
                lines, position = lines + 1, newline + 1
            if position >= size:
                break
            starts.append(position)
            lines_before.append(lines)
    ends = starts[1:] + [size]
    return [Shard(i, start, end, first) for i, (start, end, first) in enumerate(zip(starts, ends, lines_before))]


def _newlines(stream: BinaryIO, start: int, end: int) -> int:
    stream.seek(start)
    count, left = 0, end - start
    while left > 0:
        block = stream.read(min(_SCAN, left))
        if not block:
            break
        count += block.count(b"\n")
        left -= len(block)
    return count


def _next_newline(stream: BinaryIO, start: int) -> int:
    """Where the first line ending at or after byte `start` is, or -1."""
    stream.seek(start)
    position = start
    while True:
        block = stream.read(_SCAN)
        if not block:
            return -1
        found = block.find(b"\n")
        if found >= 0:
            return position + found
        position += len(block)


class RangeReader:
    """A binary stream's bytes start … end only, read a line at a time (what `checker.inputs.read_lines` asks)."""

    def __init__(self, stream: BinaryIO, start: int, end: int):
        self._stream, self._left = stream, end - start
        stream.seek(start)

    def readline(self, limit: int = -1) -> bytes:
        if self._left <= 0:
            return b""
        want = self._left if limit < 0 else min(limit, self._left)
        data = self._stream.readline(want)
        self._left -= len(data)
        return data


class Progress:
    """A shard's side of its pipe: once, before any result, how many results it will write; then one letter per
    result, flushed every 256 letters and at least every FLUSH_SECONDS (a slow engine's
    progress still shows); the parent makes them on_start and on_result calls."""

    def __init__(self, fd: int):
        self._fd, self._pending, self._flushed = fd, bytearray(), time.monotonic()

    def start(self, count: int) -> None:
        self._pending += b"n%d\n" % count
        self.flush()

    def result(self, outcome: str) -> None:
        self._pending += OUTCOME_LETTERS[outcome]
        if len(self._pending) >= 256 or time.monotonic() - self._flushed >= FLUSH_SECONDS:
            self.flush()

    def flush(self) -> None:
        if self._pending:
            try:
                os.write(self._fd, bytes(self._pending))
            except OSError:
                pass  # the parent is gone; the part file still holds the results
            self._pending.clear()
        self._flushed = time.monotonic()


def run_forked(shards: list[Shard], work: Callable[[Shard, Progress], None],
               on_start: Callable[[int], None] | None, on_result: Callable[[str], None] | None) -> list[int]:
    """Run `work` on each shard in a forked process; relay their progress; wait for all of them. Returns each
    shard's exit status (0 done, INTERRUPTED_STATUS cut short, else failed). A KeyboardInterrupt here (Ctrl-C,
    or SIGTERM through the command line) is passed on to the shards as SIGINT; they keep what they finished,
    and it is raised again once they have all ended."""
    sys.stdout.flush()
    sys.stderr.flush()
    children: dict[int, int] = {}  # read end -> pid
    open_ends: set[int] = set()
    parent = os.getpid()
    try:
        for shard in shards:
            read_end, write_end = os.pipe()
            pid = os.fork()
            if pid == 0:  # the shard: never returns into the caller's code
                os.close(read_end)
                _stop_with(parent)
                _shard_main(shard, work, write_end)
            os.close(write_end)
            children[read_end] = pid
            open_ends.add(read_end)
        totals: dict[int, int] = {}  # read end -> how many cases that shard runs
        interrupted = False
        buffers = {fd: b"" for fd in children}
        while open_ends:
            try:
                ready, _, _ = select.select(list(open_ends), [], [], 0.5)
                for fd in ready:
                    data = os.read(fd, 1 << 16)
                    if not data:
                        open_ends.discard(fd)
                        os.close(fd)
                        continue
                    buffers[fd] = _relay(buffers[fd] + data, fd, totals, on_start, on_result)
            except KeyboardInterrupt:
                interrupted = True
                for fd in open_ends:
                    _signal(children[fd], signal.SIGINT)
    except BaseException:  # a fork refused, a progress callback that raised: no shard is left running
        for fd, pid in children.items():
            _signal(pid, signal.SIGINT)
        for fd, pid in children.items():
            _reap(pid)
            if fd in open_ends:
                os.close(fd)
        raise
    statuses = []
    for fd, pid in children.items():
        while True:
            try:
                _, code = os.waitpid(pid, 0)
                break
            except KeyboardInterrupt:
                interrupted = True
                _signal(pid, signal.SIGINT)
        statuses.append(os.waitstatus_to_exitcode(code))
    if interrupted:
        raise KeyboardInterrupt
    return statuses


PR_SET_PDEATHSIG = 1  # Linux prctl(2): the signal a process gets when its parent dies


def _stop_with(parent: int) -> None:
    """Have the kernel send this shard SIGINT when `parent` (the run) dies, even killed outright (SIGKILL, out of
    memory), so no shard outlives its run: it stops as on Ctrl-C, keeping what it finished. A parent gone before
    this was set is seen at once."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGINT)
    except (OSError, AttributeError):  # no prctl here: the shard ends with its work as before
        return
    if os.getppid() != parent:
        os.kill(os.getpid(), signal.SIGINT)


def _shard_main(shard: Shard, work: Callable[[Shard, Progress], None], write_end: int) -> NoReturn:
    """A forked shard's whole life: `work`, then its exit status (0 done, INTERRUPTED_STATUS cut short, 1 a
    fault of the runner itself, said on stderr)."""
    status = 1
    try:
        progress = Progress(write_end)
        try:
            work(shard, progress)
            status = 0
        except KeyboardInterrupt:
            status = INTERRUPTED_STATUS
        finally:
            progress.flush()
    except BaseException:
        traceback.print_exc()
        sys.stderr.flush()
    os._exit(status)


def _reap(pid: int) -> None:
    """Wait for a shard that was told to stop, whatever else arrives meanwhile."""
    while True:
        try:
            os.waitpid(pid, 0)
            return
        except ChildProcessError:
            return
        except KeyboardInterrupt:
            _signal(pid, signal.SIGINT)


def _relay(data: bytes, fd: int, totals: dict[int, int], on_start: Callable[[int], None] | None,
           on_result: Callable[[str], None] | None) -> bytes:
    """Pass on what a shard said: once `n<count>` and a line ending (how many results it will write), then a
    letter per result; returns an unfinished count, to read again with what comes next."""
    position = 0
    while position < len(data):
        count_at = data.find(b"n", position)
        letters = data[position:] if count_at < 0 else data[position:count_at]
        if on_result is not None:
            for letter in letters:
                on_result(_OUTCOMES[letter])
        if count_at < 0:
            return b""
        end = data.find(b"\n", count_at)
        if end < 0:
            return data[count_at:]
        totals[fd] = int(data[count_at + 1:end])
        if on_start is not None:
            on_start(sum(totals.values()))
        position = end + 1
    return b""


def _signal(pid: int, signum: int) -> None:
    try:
        os.kill(pid, signum)
    except ProcessLookupError:
        pass


def part_path(out_dir: str, shard: Shard) -> str:
    return os.path.join(out_dir, f"{PART_PREFIX}{shard.index}")


def remove_parts(out_dir: str) -> None:
    """Part files a run left (a run killed before it could merge them: their cases run again on --resume)."""
    for name in os.listdir(out_dir):
        if name.startswith(PART_PREFIX):
            os.remove(os.path.join(out_dir, name))


def merge_parts(out_dir: str, shards: list[Shard], results: BinaryIO) -> None:
    """Append each shard's part file to `results` in the order of the parts, whole lines only (a line torn by a
    kill is cut, as a resumed results file's is: its case runs again on --resume), and remove the part files."""
    for shard in shards:
        path = part_path(out_dir, shard)
        try:
            drop_torn_tail(path)
            stream = open_owned(path)
        except OwnedFileError as exc:  # not the part a shard wrote: its cases are missing from the run
            print(f"mjcheck: {exc}: left out", file=sys.stderr)
            continue
        if stream is None:
            continue
        with stream:
            shutil.copyfileobj(stream, results, 1 << 20)
        os.remove(path)
