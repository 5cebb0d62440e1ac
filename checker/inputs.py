"""Reading what other people and programs hand the tool: files, JSON, text to quote back.

Every reader here is bounded (sizes are checked before anything is parsed) and turns every way a file can
be unreadable (missing, a directory, a device, too long a name, invalid UTF-8, JSON nested too deeply, an
integer of thousands of digits) into an `InputError` whose message names the file, the line where known,
and the reason, and never quotes more than a short excerpt of what it read.
"""
from __future__ import annotations

import io
import json
import math
import os
import stat
from dataclasses import dataclass
from typing import Any, BinaryIO, Iterable, Iterator, Protocol

import orjson

MAX_CASE_LINE_BYTES = 64 * 1024  # one case (a --case file, or one line of a --batch file)
MAX_SPEC_BYTES = 4 * 1024 * 1024  # one ruleset spec file
MAX_JSON_DEPTH = 32  # the case format nests five levels deep
EXCERPT_CHARS = 60


class InputError(ValueError):
    """Input the tool cannot read or parse: "cannot ACTION LABEL: line N: REASON" (the line where known)."""

    def __init__(self, action: str, label: str, reason: str, line: int | None = None, what: str = ""):
        self.action, self.label, self.reason, self.line, self.what = action, label, reason, line, what
        at = f"line {line}: " if line is not None else ""
        source = " ".join(x for x in (what, label) if x)
        super().__init__(f"cannot {action} {source}: {at}{reason}" if source else f"cannot {action}: {at}{reason}")

    def __reduce__(self) -> tuple:
        """Pickled with its fields (an error raised in a worker process reaches the parent whole)."""
        return (type(self), (self.action, self.label, self.reason, self.line, self.what))


def option_pairs(items: Iterable[str]) -> dict[str, str]:
    """`--option NAME=VALUE` arguments as a mapping, in order (a later NAME wins); ValueError naming the first one
    written otherwise. The values stay words: the ruleset reads them (`Ruleset.resolve_options`)."""
    options: dict[str, str] = {}
    for item in items:
        if "=" not in item:
            raise ValueError(f"--option {excerpt(item)}: write it as NAME=VALUE, e.g. --option tile_hog_honors=true")
        key, value = item.split("=", 1)
        options[key.strip()] = value.strip()
    return options


def excerpt(value: Any, limit: int = EXCERPT_CHARS) -> str:
    """`value` quoted for a message: its repr, control and formatting characters escaped, cut to `limit`
    characters with the number of characters left out."""
    text = value if isinstance(value, str) else repr(value)
    shown = text[:limit]
    quoted = repr(shown) if isinstance(value, str) else shown
    quoted = "".join(_visible(c) for c in quoted)
    if len(text) > limit:
        quoted += f"… ({len(text) - limit:,} more characters)"
    return quoted


def _visible(c: str) -> str:
    """A character as it may reach a terminal: control and formatting characters (escape, bidi overrides)
    written as escapes."""
    if c.isprintable():
        return c
    code = ord(c)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def bounded(message: str, limit: int = 2000) -> str:
    """A whole message made safe to print: control characters escaped, at most `limit` characters (the
    middle left out, so the start and the rule id at the end stay)."""
    text = "".join(c if c == "\n" else _visible(c) for c in message)
    if len(text) <= limit:
        return text
    keep = limit // 2
    return f"{text[:keep]} … ({len(text) - 2 * keep:,} characters left out) … {text[-keep:]}"


def json_text(value: Any, indent: int | None = None) -> str:
    """JSON for output: readable text kept as it is (ensure_ascii off), but every character that is not
    printable (control and formatting characters, bidi overrides, lone surrogates) written as an escape,
    so no string taken from input can reach a terminal raw."""
    return _printable_json(json.dumps(value, ensure_ascii=False, indent=indent))


def json_line(value: Any) -> bytes:
    """`value` as one line of a JSON Lines file, UTF-8 with its line ending: compact, and written by orjson
    (a tenth of the stdlib's time: machine files written as fast as an engine answers, results.jsonl and the
    protocol's requests). The same guarantees as json_text: every character that is not printable is escaped.
    What orjson cannot write (an integer over 64 bits, a key that is not a string) is written by the stdlib;
    either way a float that is not a number (NaN, an infinity) is written null, as JSON has no such value."""
    try:
        data = orjson.dumps(value, option=orjson.OPT_APPEND_NEWLINE)
    except TypeError:
        text = json.dumps(_finite(value), ensure_ascii=False, separators=(",", ":"))
        return (_printable_json(text) + "\n").encode("utf-8")
    if data.isascii() and b"\x7f" not in data:  # orjson escapes the other control characters
        return data
    text = data.decode("utf-8")
    if text[:-1].isprintable():
        return data
    return (_printable_json(text[:-1]) + "\n").encode("utf-8")


def _finite(value: Any) -> Any:
    """`value` with every float that is not a number (NaN, an infinity) made None, as orjson writes them."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


def _printable_json(text: str) -> str:
    """JSON text with every character that is not printable (outside strings only layout, kept) escaped."""
    return "".join(c if c.isprintable() or c in "\n " else _json_escape(c) for c in text) \
        if not text.isprintable() else text


def _json_escape(c: str) -> str:
    code = ord(c)
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


# --------------------------------------------------------------------------- files

def _label(path: str, limit: int = 120) -> str:
    """A file name as a message shows it: a long one cut in the middle, so the directory's start and the
    file's own name both stay; control characters escaped."""
    if len(path) <= limit and path.isprintable():
        return path
    if len(path) <= limit:
        return excerpt(path, limit)
    head, tail = path[:limit // 3], path[-(2 * limit // 3):]
    left_out = len(path) - len(head) - len(tail)
    return excerpt(head, limit) + f" … ({left_out:,} characters) … " + excerpt(tail, limit)


def open_input(path: str, what: str, allow_pipe: bool = True) -> BinaryIO:
    """Open a file the user named on the command line, in binary. Refuses an empty name, a directory and
    devices (a FIFO, e.g. a shell's `<(…)`, only with `allow_pipe`)."""
    label = _label(path)
    if not path:
        raise InputError("read", "", "the file name is empty", what=what)
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        raise InputError("read", label, exc.strerror or str(exc), what=what) from None
    except ValueError as exc:  # an embedded NUL
        raise InputError("read", label, str(exc), what=what) from None
    if stat.S_ISDIR(mode):
        raise InputError("read", label, "it is a directory", what=what)
    if not (stat.S_ISREG(mode) or (allow_pipe and stat.S_ISFIFO(mode))):
        raise InputError("read", label, "not a regular file", what=what)
    try:
        return _open_pipe(path, label, what) if stat.S_ISFIFO(mode) else open(path, "rb")
    except OSError as exc:
        raise InputError("read", label, exc.strerror or str(exc), what=what) from None


def _open_pipe(path: str, label: str, what: str) -> BinaryIO:
    """A named pipe, opened without waiting for a writer: one that has a writer (a shell's `<(…)`) is read
    as usual; one that has none is refused at once rather than waited on for ever."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        first = os.read(fd, 1)
    except BlockingIOError:  # a writer is there, with nothing written yet
        first = None
    except OSError:
        os.close(fd)
        raise
    if first == b"":
        os.close(fd)
        raise InputError("read", label, "a named pipe with no writer", what=what)
    os.set_blocking(fd, True)
    return io.BufferedReader(_Prefixed(first or b"", fd))  # type: ignore[return-value]


class _Prefixed(io.RawIOBase):
    """A file descriptor read as a raw stream, after the bytes already taken from it."""

    def __init__(self, prefix: bytes, fd: int):
        self._prefix, self._file = prefix, io.FileIO(fd, "rb")

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:  # type: ignore[no-untyped-def]
        if self._prefix:
            n = min(len(buffer), len(self._prefix))
            buffer[:n] = self._prefix[:n]
            self._prefix = self._prefix[n:]
            return n
        return self._file.readinto(buffer) or 0

    def close(self) -> None:
        self._file.close()
        super().close()


def read_bounded(stream: BinaryIO, limit: int, label: str) -> bytes:
    """Everything a stream holds, refusing more than `limit` bytes (read no further than that)."""
    try:
        data = stream.read(limit + 1)
    except OSError as exc:
        raise InputError("read", label, exc.strerror or str(exc)) from None
    if len(data) > limit:
        raise InputError("read", label, f"it holds more than {limit:,} bytes, the limit for this input")
    return data


def decode(data: bytes, label: str, first_line: int = 1) -> str:
    """UTF-8 text, or an InputError naming the line and byte that is not UTF-8."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = first_line + data.count(b"\n", 0, exc.start)
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise InputError("read", label, f"invalid UTF-8 at byte {column} (0x{data[exc.start]:02x}); "
                                        "files are read as UTF-8", line) from None


def read_text_file(path: str, limit: int, what: str) -> str:
    """A whole regular text file of at most `limit` bytes (a spec), with InputErrors naming it."""
    label = _label(path)
    try:
        size = os.stat(path).st_size if path else 0
    except (OSError, ValueError):
        size = 0  # open_input gives the reason
    stream = open_input(path, what, allow_pipe=False)
    with stream:
        if size > limit:
            raise InputError("read", label, f"it is {size:,} bytes; the limit is {limit:,}", what=what)
        return decode(read_bounded(stream, limit, label), label)


# --------------------------------------------------------------------------- JSON

class JsonLimits:
    """How much of one JSON value from outside the tool is read: its size in bytes (UTF-8), how deeply it
    nests, and how many values it holds (each object, array and scalar, keys not counted). Checked before
    anything walks the value recursively: orjson parses without recursion and stops at 1,024 levels, the
    stdlib's parser (NaN, lone surrogates) runs only on a text whose nesting was counted first, and the
    parsed value is measured by an iterative walk."""

    def __init__(self, max_bytes: int, max_depth: int, max_values: int, strict: bool = False):
        self.max_bytes, self.max_depth, self.max_values, self.strict = max_bytes, max_depth, max_values, strict


MAX_ANSWER_BYTES = 1024 * 1024  # one engine answer (a result nests three levels and holds a few dozen values)
MAX_RESULT_LINE_BYTES = 4 * 1024 * 1024  # one line of results.jsonl: a case, an answer, a reason
# The limits of each kind of JSON the tool reads (listed in the README). A result line holds a case and an
# answer one level down, so its limits take in the largest of each: whatever is written can be read back.
CASE_JSON = JsonLimits(MAX_CASE_LINE_BYTES, MAX_JSON_DEPTH, 100_000)
ANSWER_JSON = JsonLimits(MAX_ANSWER_BYTES, MAX_JSON_DEPTH, 100_000, strict=True)
RESULT_JSON = JsonLimits(MAX_RESULT_LINE_BYTES, MAX_JSON_DEPTH + 1, 250_000)
FILE_JSON = JsonLimits(16 * 1024 * 1024, 64, 1_000_000)  # a summary, plan, shard or cache entry read back


def parse_json(text: str, label: str, line: int | None = None, limits: JsonLimits = CASE_JSON) -> Any:
    """One JSON value within `limits` (a case line's by default), or an InputError saying which limit it
    passes. An integer beyond 64 bits is read as the nearest float (no field of a case or an answer takes
    one). `limits.strict`: only standard JSON (no NaN or Infinity, no lone surrogate) is read."""
    if len(text) > limits.max_bytes or (not text.isascii() and len(text.encode("utf-8", "surrogatepass"))
                                        > limits.max_bytes):
        raise InputError("parse", label, f"more than {limits.max_bytes:,} bytes of JSON, the limit here", line)
    try:  # orjson, twice the stdlib's speed; what it refuses is read again by the stdlib, which words the reason
        value = orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        if limits.strict:
            if "depth limit" in str(exc):
                raise InputError("parse", label, _too_deep(limits), line) from None
            raise InputError("parse", label, f"not standard JSON: {excerpt(str(exc), 120).strip(chr(39))}",
                             line) from None
        if _text_depth(text) > limits.max_depth:  # before the stdlib's parser, which recurses
            raise InputError("parse", label, _too_deep(limits), line)
        value = _stdlib_json(text, label, line)
    # no deeper nor larger than its brackets and commas allow (those inside strings counted too): most need no walk
    brackets = text.count("[") + text.count("{")
    if brackets > limits.max_depth or brackets + text.count(",") + 1 > limits.max_values:
        depth, values = _measure(value, limits)
        if depth > limits.max_depth:
            raise InputError("parse", label, _too_deep(limits), line)
        if values > limits.max_values:
            raise InputError("parse", label, f"more than {limits.max_values:,} JSON values, the limit here", line)
    return value


def _too_deep(limits: JsonLimits) -> str:
    return f"JSON nested too deeply (the limit is {limits.max_depth} levels)"


def _text_depth(text: str) -> int:
    """How deeply the brackets of a JSON text nest, brackets inside strings not counted (no recursion)."""
    deepest = depth = 0
    in_string = escaped = False
    for c in text:
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c == "[" or c == "{":
            depth += 1
            if depth > deepest:
                deepest = depth
        elif c == "]" or c == "}":
            depth -= 1
    return deepest


def _stdlib_json(text: str, label: str, line: int | None) -> Any:
    """What the stdlib reads of a text orjson refuses (it also takes NaN and lone surrogates), or the
    InputError saying why not."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        if line is None:
            raise InputError("parse", label, f"column {exc.colno}: invalid JSON: {exc.msg}", exc.lineno) from None
        raise InputError("parse", label, f"column {exc.colno}: invalid JSON: {exc.msg}", line) from None
    except RecursionError:  # (its depth was counted first; kept for safety)
        raise InputError("parse", label, _too_deep(CASE_JSON), line) from None
    except ValueError as exc:  # an integer over Python's digit limit
        raise InputError("parse", label, _short_reason(exc), line) from None


def _short_reason(exc: Exception) -> str:
    text = str(exc)
    if "integer string conversion" in text:
        return "a number with too many digits"
    return excerpt(text, 200).strip("'\"")


def _measure(value: Any, limits: JsonLimits) -> tuple[int, int]:
    """How deeply a parsed JSON value nests and how many values it holds, iteratively (no recursion on hostile
    input), stopping as soon as either passes its limit."""
    if not isinstance(value, (dict, list)):
        return 0, 1
    deepest, values, stack = 0, 1, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > deepest:
            deepest = depth
            if depth > limits.max_depth:
                break
        children = item.values() if isinstance(item, dict) else item
        values += len(children)
        if values > limits.max_values:
            break
        for child in children:
            if isinstance(child, (dict, list)):
                stack.append((child, depth + 1))
    return deepest, values


# --------------------------------------------------------------------------- JSON Lines

@dataclass(slots=True)
class Line:
    """One line of a JSON Lines stream: its number and text, or why it could not be read. Read-only by
    convention (not frozen: a frozen dataclass's constructor sets each field through object.__setattr__, and
    one is made for every line read)."""

    number: int
    text: str | None
    error: str | None = None


class LineStream(Protocol):
    """What read_lines reads: a binary file, or a part of one (checker.conform.shards.RangeReader)."""

    def readline(self, limit: int = -1, /) -> bytes: ...


def read_lines(stream: LineStream, label: str, limit: int = MAX_CASE_LINE_BYTES,
               lines_before: int = 0) -> Iterator[Line]:
    """The lines of a binary stream one by one, each decoded on its own: an overlong line or one that is not
    UTF-8 is reported as that line's error and reading goes on with the next line. Memory stays bounded by
    `limit` whatever the stream holds."""
    number = lines_before  # the stream starts after so many lines of its file (a shard of a corpus)
    while True:
        try:
            raw = stream.readline(limit + 1)
        except OSError as exc:
            number += 1
            yield Line(number, None, f"cannot read {label}: {exc.strerror or exc}")
            return
        if not raw:
            return
        number += 1
        if len(raw) > limit and not raw.endswith(b"\n"):
            skipped = len(raw)
            while True:  # pass over the rest of the line without keeping it
                rest = stream.readline(limit)
                skipped += len(rest)
                if not rest or rest.endswith(b"\n"):
                    break
            yield Line(number, None, f"line {number} is {skipped:,} bytes or more; a case line is limited to "
                                     f"{limit:,} bytes")
            continue
        try:
            yield Line(number, decode(raw, label, number))
        except InputError as exc:
            yield Line(number, None, exc.reason)


def whole(value: Any) -> Any:
    """A number written with a zero fraction (2.0) as the integer it is, as the case and game schemas read it
    (JSON Schema's `integer`); any other value as it is."""
    if type(value) is float and value.is_integer():
        return int(value)
    return value


def schema_message(err: Any) -> str:
    """A schema error's (jsonschema.ValidationError's) message with the offending value cut to an excerpt (jsonschema quotes it whole); a
    field the schema does not define is named, with the fields that object takes."""
    if err.validator == "additionalProperties" and err.validator_value is False \
            and isinstance(err.instance, dict) and isinstance(err.schema, dict):
        known = list(err.schema.get("properties") or {})
        unknown = [k for k in err.instance if k not in known]
        if unknown:
            names = ", ".join(excerpt(k) for k in unknown[:5]) + (" …" if len(unknown) > 5 else "")
            return bounded(f"unknown field{'s' if len(unknown) > 1 else ''} {names} (the fields here: "
                           f"{', '.join(known)})", 300)
    message = err.message
    whole = repr(err.instance)
    if len(whole) > EXCERPT_CHARS or not whole.isprintable():
        message = message.replace(whole, excerpt(err.instance))
    return bounded(message, 300)
