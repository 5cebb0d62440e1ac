"""`cmd:COMMAND`: an engine in a subprocess speaking DESIGN.md's JSON-lines protocol.

    → {"cmd": "start", "protocol": 1}      ← {"name": …, "version": …, "rulesets": […], "kinds": […]}
    → {"cmd": "run", "id": N, "case": {…}}  ← {"id": N, "result": {…}}  or  {"id": N, "error": "…"}
    → {"cmd": "stop"}

The runner adds an `id` to each run message; an engine that echoes it may answer in any order, one that
does not is read in strict request-reply order. Up to `window` requests are in flight at once (pipelining:
a writer thread feeds the engine's stdin, a reader thread reads its stdout), so the protocol is not the
bottleneck. When the engine crashes, hangs (no answer within `timeout` seconds of the last one), writes a
line that is not an answer or answers an id not in flight, it is killed and restarted, and the cases that
were in flight are retried once, one at a time, to pin the culprit: a case that breaks the engine on its
own is `errored` with the reason, and the run goes on. Killing an engine kills its whole process group (it
runs in a session of its own), so a child it left holding its output cannot hang the run. An answer to an
id answered already (a case answered twice) makes that case `errored` (the runner records it again, the
last result counting), never the case in flight after it. An engine that lets GIVE_UP_AFTER cases in a row
time out on their own is stopped, and the cases not yet run are `errored` with that reason ("not run: …"), so a
silent engine cannot hold a run for its number of cases times the timeout; `--resume` runs them again. Every answer is read by the one bounded JSON
reader (`checker.inputs.parse_json` with ANSWER_JSON: standard JSON only, its size, depth and number of
values limited).
"""
from __future__ import annotations

import os
import queue
import shlex
import signal
import subprocess
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Mapping
from typing import Any, Iterable, Iterator

from checker.conform.adapters import Answer, EngineError, EngineInfo, Key, modelled, skipped
from checker.conform.results import NOT_RUN
from checker.inputs import ANSWER_JSON, MAX_ANSWER_BYTES, InputError, bounded, excerpt, json_line, parse_json

PROTOCOL = 1
WINDOW = 64
START_TIMEOUT = 10.0  # seconds an engine may take to answer `start`, at least
MAX_TIMEOUT = 86_400.0  # the longest --timeout taken (a day)
GIVE_UP_AFTER = 3  # cases in a row that time out on their own before the engine is given up
ANSWERED_MEMORY = 4096  # ids answered lately, to tell a case answered twice from an id never asked
STDERR_KEPT = 64 * 1024  # bytes of an engine's stderr kept (its last lines name a crash)


def timeout_seconds(given: str | float) -> float:
    """A per-case time limit as given (`--timeout`, `--mjcheck-timeout`): a number of seconds from 0.001 to
    MAX_TIMEOUT; ValueError saying so otherwise (an infinity, NaN or 1e308 would overflow the clock's sums)."""
    try:
        seconds = float(given)
    except (TypeError, ValueError):
        raise ValueError("give a number of seconds") from None
    if not (0.001 <= seconds <= MAX_TIMEOUT):  # (false for NaN too)
        raise ValueError(f"give a number of seconds from 0.001 to {MAX_TIMEOUT:,.0f}")
    return seconds


class _Broken(Exception):
    """The engine process can no longer be trusted (crash, hang, garbage, wrong id): kill and restart it."""

    def __init__(self, reason: str, timed_out: bool = False):
        super().__init__(reason)
        self.timed_out = timed_out

    def __reduce__(self) -> tuple:
        return (type(self), (str(self), self.timed_out))


class _Process:
    """One running engine: its pipes, a thread writing requests to stdin, a thread reading answers."""

    def __init__(self, argv: list[str]):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     start_new_session=True)
        self.answers: queue.Queue[tuple[str, bytes]] = queue.Queue()
        self._outbox: queue.Queue[bytes | None] = queue.Queue()
        self._said = bytearray()  # the last STDERR_KEPT bytes the engine wrote to its stderr (the rest is dropped)
        self._said_lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._write, daemon=True).start()
        self._stderr_reader = threading.Thread(target=self._read_stderr, daemon=True)
        self._stderr_reader.start()

    def _read_stderr(self) -> None:
        """Keep the tail of the engine's stderr, read as it comes: a chatty engine fills no file and no memory."""
        stderr = self.proc.stderr
        assert stderr is not None
        while True:
            try:
                chunk = os.read(stderr.fileno(), 1 << 16)
            except (OSError, ValueError):
                chunk = b""
            if not chunk:
                break
            with self._said_lock:
                self._said += chunk
                if len(self._said) > STDERR_KEPT:
                    del self._said[:len(self._said) - STDERR_KEPT]
        try:
            stderr.close()
        except OSError:
            pass

    def send(self, message: Mapping[str, Any]) -> None:
        self._outbox.put(json_line(message))

    def _write(self) -> None:
        stdin = self.proc.stdin
        assert stdin is not None
        while True:
            item = self._outbox.get()
            chunks = []
            while item is not None:
                chunks.append(item)
                try:
                    item = self._outbox.get_nowait()
                except queue.Empty:
                    break
            try:
                if chunks:
                    stdin.write(b"".join(chunks))
                    stdin.flush()
                if item is None:
                    stdin.close()
                    return
            except (OSError, ValueError):  # the engine is gone; the reader reports it
                return

    def _read(self) -> None:
        stdout = self.proc.stdout
        assert stdout is not None
        while True:
            try:
                raw = stdout.readline(MAX_ANSWER_BYTES + 1)
            except (OSError, ValueError):
                raw = b""
            if not raw:
                self.answers.put(("eof", b""))
                break
            if len(raw) > MAX_ANSWER_BYTES and not raw.endswith(b"\n"):
                self.answers.put(("overlong", b""))
                break
            self.answers.put(("line", raw))
        try:  # closed here, by the thread reading it: closing it from another thread waits on this one's read
            stdout.close()
        except OSError:
            pass

    def next(self, wait: float) -> tuple[str, bytes]:
        try:
            return self.answers.get(timeout=max(0.0, wait))
        except queue.Empty:
            return ("timeout", b"")

    def exited(self) -> bool:
        """Whether the engine's own process has ended (whatever still holds its output)."""
        return self.proc.poll() is not None

    def crash_reason(self) -> str:
        try:
            status = self.proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            return "the engine closed its output"
        # its last words may still be in the pipe: let the reader drain it (up to a second: a child the engine left
        # behind may hold the pipe open)
        self._stderr_reader.join(timeout=1.0)
        with self._said_lock:
            tail = bytes(self._said[-2000:])
        lines = [x for x in tail.decode("utf-8", "replace").splitlines() if x.strip()]
        said = f"; its last message: {excerpt(lines[-1], 200)}" if lines else ""
        return f"the engine exited with status {status}{said}"

    def stop(self, grace: float = 2.0) -> None:
        """Ask the engine to stop, closing its stdin; kill it if it is still running after `grace` seconds."""
        self.send({"cmd": "stop"})
        self._outbox.put(None)
        try:
            self.proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            pass
        self.kill()

    def kill(self) -> None:
        """Kill the engine and every process of its session (a child left holding its output among them)."""
        self._outbox.put(None)
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        if self.proc.poll() is None:
            self.proc.kill()
        try:
            self.proc.wait(timeout=5.0)
        except subprocess.TimeoutExpired:
            pass


class SubprocessEngine:
    """An engine in a subprocess; see the module's docstring for the protocol and what happens on failure."""

    def __init__(self, command: str, timeout: float = 10.0, window: int = WINDOW):
        try:
            self.argv = shlex.split(command)
            if len(self.argv) == 1 and any(c.isspace() for c in self.argv[0]):
                self.argv = shlex.split(self.argv[0])  # cmd:"python engine.py", the quotes kept by the shell
        except ValueError as exc:
            raise EngineError(f"cmd:{excerpt(command)}: {exc}") from None
        if not self.argv:
            raise EngineError("cmd: give the command that runs the engine, e.g. cmd:\"python engine.py\"")
        self.command, self.timeout, self.window = command, timeout, max(1, window)
        self.restarts = 0
        self._proc: _Process | None = None
        self.info: EngineInfo | None = None
        # request ids run on across calls of `run` (the pytest plugin makes one a case), and so does the memory
        # of the ids answered: a case answered twice is told apart from the next case's answer
        self._sequence = 0
        self._answered: OrderedDict[int, Key] = OrderedDict()

    # ------------------------------------------------------------------ starting

    def start(self) -> EngineInfo:
        self._proc = self._launch()
        return self.info  # type: ignore[return-value]  # set by _launch

    def _launch(self) -> _Process:
        where = f"cmd:{excerpt(self.command, 200)}"
        try:
            proc = _Process(self.argv)
        except OSError as exc:
            raise EngineError(f"{where}: cannot run {excerpt(self.argv[0])}: {exc.strerror or exc}") from None
        proc.send({"cmd": "start", "protocol": PROTOCOL})
        kind, raw = proc.next(max(START_TIMEOUT, self.timeout))
        if kind != "line":
            why = {"timeout": "no answer in time", "overlong": "an overlong line"}.get(kind) or proc.crash_reason()
            proc.kill()
            raise EngineError(f"{where}: the engine did not answer start: {why}")
        try:
            self.info = _engine_info(raw)
        except ValueError as exc:
            proc.kill()
            raise EngineError(f"{where}: {exc}") from None
        return proc

    # ------------------------------------------------------------------ running

    def run(self, cases: Iterable[tuple[Key, Mapping[str, Any]]]) -> Iterator[tuple[Key, Answer]]:
        pending = iter(cases)
        retry: deque[tuple[Key, Mapping[str, Any]]] = deque()  # cases in flight at a failure, run one at a time
        inflight: OrderedDict[int, tuple[Key, Mapping[str, Any]]] = OrderedDict()
        answered = self._answered  # the ids answered lately, each with its case's key
        solo = False  # the one case in flight is a retry
        silent = 0  # cases in a row that timed out on their own
        since = time.monotonic()
        sent: dict[int, float] = {}  # when each case in flight was sent
        last = since  # when the engine last answered (its answers come one after another)
        exhausted = False
        while True:
            if self._proc is None:
                try:
                    self._proc = self._launch()
                    self.restarts += 1
                except EngineError as exc:
                    yield from self._give_up(f"{NOT_RUN}the engine could not be restarted: {exc}", retry, pending)
                    return
            proc = self._proc
            if not inflight:
                since = time.monotonic()
            if retry:
                if not inflight:
                    key, case = retry.popleft()
                    self._sequence += 1
                    inflight[self._sequence] = (key, case)
                    sent[self._sequence] = time.monotonic()
                    proc.send({"cmd": "run", "id": self._sequence, "case": case})
                    solo = True
            else:
                solo = False
                while not exhausted and len(inflight) < self.window:
                    try:
                        key, case = next(pending)
                    except StopIteration:
                        exhausted = True
                        break
                    self._sequence += 1
                    inflight[self._sequence] = (key, case)
                    sent[self._sequence] = time.monotonic()
                    proc.send({"cmd": "run", "id": self._sequence, "case": case})
            if not inflight:
                return
            try:
                number, answer = self._answer(proc, inflight, answered, since)
            except _Broken as broken:
                proc.kill()
                self._proc = None
                if solo:
                    (key, _), = inflight.values()
                    yield key, Answer(error=f"{broken} (the engine was restarted)")
                    silent = silent + 1 if broken.timed_out else 0
                    if silent >= GIVE_UP_AFTER:
                        inflight.clear()
                        yield from self._give_up(f"{NOT_RUN}the engine was given up after {silent} cases in a row "
                                                 f"had no answer within {self.timeout:g} s", retry, pending)
                        return
                else:
                    retry.extend(inflight.values())
                inflight.clear()
                sent.clear()
                last = time.monotonic()
                continue
            if number in answered:  # a case answered twice: that case is in error, not the next one
                yield answered[number], answer
                continue
            key, _ = inflight.pop(number)
            now = time.monotonic()  # the engine's time on this case: from when it was sent or the last answer
            answer.seconds = now - max(sent.pop(number, now), last)
            last = now
            answered[number] = key
            if len(answered) > ANSWERED_MEMORY:
                answered.popitem(last=False)
            since = time.monotonic()
            silent = 0
            yield key, answer

    def _answer(self, proc: _Process, inflight: Mapping[int, Any], answered: Mapping[int, Any],
                since: float) -> tuple[int, Answer]:
        """The next answer and the request number it answers (an id answered already: an error for that case);
        _Broken when the engine failed."""
        kind, raw = proc.next(since + self.timeout - time.monotonic())
        if kind == "timeout":
            if proc.exited():  # a crash behind a process it left holding its output: a crash, not a hang
                raise _Broken(f"{proc.crash_reason()} (a process it left behind held its output open)")
            raise _Broken(f"no answer within {self.timeout:g} s", timed_out=True)
        if kind == "overlong":
            raise _Broken(f"an answer line longer than {MAX_ANSWER_BYTES:,} bytes")
        if kind == "eof":
            raise _Broken(proc.crash_reason())
        try:
            text = raw.decode("utf-8").strip()
        except UnicodeDecodeError:
            raise _Broken(f"an answer line that is not UTF-8: {excerpt(raw)}") from None
        try:
            message = parse_json(text, "the answer", limits=ANSWER_JSON)
        except InputError as exc:
            raise _Broken(f"not an answer of the protocol ({exc.reason}): {excerpt(text)}") from None
        if not isinstance(message, dict) or not ("result" in message or "error" in message or "skip" in message):
            raise _Broken(f"not an answer of the protocol: {excerpt(text)}")
        number = message.get("id", next(iter(inflight)))
        if isinstance(number, int) and not isinstance(number, bool) and number in answered:
            return number, Answer(error=f"the engine answered this case twice (id {number}); its answers: "
                                        f"{excerpt(text, 200)}")
        if not isinstance(number, int) or isinstance(number, bool) or number not in inflight:
            expected = " or ".join(str(n) for n in list(inflight)[:3]) + (" …" if len(inflight) > 3 else "")
            raise _Broken(f"answered id {excerpt(number)} while it was asked for id {expected}")
        skip = skipped(message)
        if skip is not None:
            return number, skip
        if "result" in message:
            if not isinstance(message["result"], dict):
                return number, Answer(error=f"a result that is not an object: {excerpt(message['result'])}")
            return number, Answer(result=message["result"])
        return number, Answer(error=f"the engine said: {excerpt(str(message['error']), 300)}")

    def _give_up(self, reason: str, *groups: Iterable[tuple[Key, Any]]) -> Iterator[tuple[Key, Answer]]:
        for group in groups:
            items = group.values() if isinstance(group, Mapping) else group
            for key, _ in items:
                yield key, Answer(error=reason)

    def stop(self) -> None:
        if self._proc is not None:
            self._proc.stop()
            self._proc = None


def _engine_info(raw: bytes) -> EngineInfo:
    """The start reply, checked: name and version strings, rulesets and kinds lists of strings."""
    text = raw.decode("utf-8", "replace").strip()
    try:
        reply = parse_json(text, "the start reply", limits=ANSWER_JSON)
    except InputError as exc:
        raise ValueError(f"the start reply is not JSON the tool reads ({exc.reason}): {excerpt(text)}") from None
    if not isinstance(reply, dict):
        raise ValueError(f"the start reply is not an object: {excerpt(text)}")
    problems = [key for key in ("name", "version") if not isinstance(reply.get(key), str)]
    problems += [key for key in ("rulesets", "kinds") if not (isinstance(reply.get(key), list)
                                                              and all(isinstance(x, str) for x in reply[key]))]
    if problems:
        raise ValueError(f"the start reply lacks {', '.join(problems)} (name and version strings, rulesets and "
                         f"kinds lists of strings): {excerpt(text)}")
    fields, own = modelled(reply, "the start reply")
    return EngineInfo(bounded(reply["name"], 200), bounded(reply["version"], 200), tuple(reply["rulesets"]),
                      tuple(reply["kinds"]), fields, own)
