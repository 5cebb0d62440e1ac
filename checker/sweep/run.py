"""Running a sweep on Dask: the space cut into shards (stable id ranges), each shard a task, each finished shard's
summary written to `DIR/shards/` as it arrives, so a killed run resumes where it stopped and a finished shard is
never redone. A local cluster by default (one worker process a core), or an existing scheduler.

`DIR/plan.json` says what the sweep is (ruleset, space, engine, options, shard size, limit): a run into a folder
holding another sweep is refused, and `--resume` continues only the same one.

Nothing read back from the folder is trusted as it stands. Each file the sweep writes carries a checksum of its
content (`sum`), and each shard file the sweep's identity (`plan`, a hash of the plan) beside its bounds and its
count of hands. A shard file that does not match (damaged, another sweep's, written by an earlier version
without a checksum, a link, a named pipe, too large) is run again and replaced; a plan.json that does not match
is refused with a message naming it (one of an earlier version, without a checksum, is read if it describes
this very sweep, and sealed). Files are read through `checker.files.read_owned` (no link followed, no pipe
waited on) and `checker.inputs.parse_json` (bounded), and written whole through `checker.files.write_text`.
"""
from __future__ import annotations

import errno
import hashlib
import json
import logging
import os
import stat
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Generator, Mapping, Sequence

from checker.case import INCOMPLETE
from checker.files import OwnedFileError, read_owned, write_text
from checker.inputs import FILE_JSON, InputError, decode, json_text, parse_json
from checker.sweep.work import context_of, space_of, sweep_shard

PARTIAL = INCOMPLETE  # the exit status of a sweep whose report is partial: some hands were not checked
SHARD_HANDS = 20_000  # hands a shard: a few seconds of work for one compiled worker
CONNECT_SECONDS = 5  # how long an unreachable --scheduler is waited for
PLAN_BYTES = 1024 * 1024  # a plan.json is a few hundred bytes
SHARD_BYTES = FILE_JSON.max_bytes  # a shard's summary: its counts and one witness a class


class SweepError(ValueError):
    """Bad input or a folder that holds another sweep: nothing is started."""


@dataclass
class Plan:
    ruleset: str
    space: str
    against: str
    options: dict[str, Any] = field(default_factory=dict)
    against_options: dict[str, Any] = field(default_factory=dict)
    shard_hands: int = SHARD_HANDS
    limit: int | None = None
    context: dict[str, Any] = field(default_factory=dict)  # melds, flags, winds (sweep.work.context_of)
    open_melds: int = 1  # the open space: hands of 1 to this many melds

    def hands(self) -> int:
        size = space_of(self.space, context_of(self.context), self.ruleset, self.open_melds, self.options).size
        return size if self.limit is None else min(size, self.limit)

    def shards(self) -> list[tuple[int, int]]:
        total = self.hands()
        return [(a, min(a + self.shard_hands, total)) for a in range(0, total, self.shard_hands)]



def shard_path(out_dir: Path, start: int) -> Path:
    return out_dir / "shards" / f"{start:09d}.json"


def identity(plan: Plan) -> str:
    """The sweep's identity: a hash of its plan (ruleset, space, engines, options, context, shard size, limit),
    which every shard file carries."""
    return hashlib.sha256(_canonical(asdict(plan))).hexdigest()


def sealed(body: Mapping[str, Any]) -> dict[str, Any]:
    """`body` with its checksum (`sum`: a hash of its canonical JSON, `sum` left out), as the sweep writes it."""
    out = {k: v for k, v in body.items() if k != "sum"}
    out["sum"] = hashlib.sha256(_canonical(out)).hexdigest()
    return out


def _canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False).encode()


def _seal_problem(body: Any) -> str | None:
    """Why a JSON value read back is not one the sweep sealed as it is (None: it is)."""
    if not isinstance(body, dict):
        return f"not a JSON object but {_kind(body)}"
    if "sum" not in body:
        return "it carries no checksum (written by an earlier version)"
    try:
        if sealed(body)["sum"] == body["sum"]:
            return None
    except ValueError:  # a value JSON cannot write back (NaN)
        pass
    return "damaged: its checksum does not match its content"


def _kind(value: Any) -> str:
    return {list: "a list", str: "a string", bool: "a boolean", type(None): "null"}.get(type(value), "a number")


def _read_back(path: Path, limit: int) -> Any:
    """The JSON value of a file the sweep wrote in its folder: FileNotFoundError when there is none, OSError
    when it is not a regular file of at most `limit` bytes (a link, a named pipe, a directory), InputError when
    it is not UTF-8 JSON within FILE_JSON's limits (size, depth, values)."""
    data = read_owned(str(path), limit)
    if data is None:
        raise FileNotFoundError(errno.ENOENT, "no such file", str(path))
    label = str(path)
    return parse_json(decode(data, label), label, limits=FILE_JSON)


def _why(exc: Exception) -> str:
    """The reason an OwnedFileError or InputError gives, without the file name (the message names it)."""
    if isinstance(exc, OwnedFileError):
        return exc.reason
    if isinstance(exc, InputError):
        return (f"line {exc.line}: " if exc.line is not None else "") + exc.reason
    return getattr(exc, "strerror", None) or str(exc)


def prepare(plan: Plan, out_dir: Path, resume: bool, notes: list[str] | None = None) -> list[tuple[int, int]]:
    """Write or check `DIR/plan.json`; the shards still to run. A shard file that is not this sweep's summary of
    its shard is to run again (why: appended to `notes`); a plan.json that is not this sweep's, or cannot be read,
    is a SweepError naming it."""
    meta_path = out_dir / "plan.json"
    meta = {"sweep": asdict(plan), "hands": plan.hands(), "shards": len(plan.shards()), "plan": identity(plan)}
    try:
        earlier = _read_back(meta_path, PLAN_BYTES)
    except FileNotFoundError:
        earlier = _MISSING
    except (OSError, InputError) as exc:
        raise SweepError(f"{meta_path}: not a sweep's description ({_why(exc)}); remove it or give another "
                         f"--out") from None
    if earlier is _MISSING:
        _shards_folder(out_dir)
        write_json(meta_path, sealed(meta))
    else:
        problem = _seal_problem(earlier)
        if not isinstance(earlier, dict) or (problem is not None and "sum" in earlier):
            raise SweepError(f"{meta_path}: not this sweep's description, {problem}; remove it or give another "
                             f"--out")
        described = _plan_of(earlier.get("sweep"))
        if described is None or identity(described) != identity(plan):
            raise SweepError(f"{out_dir} holds another sweep ({meta_path}); use another --out, or the same "
                             f"ruleset, space, engine, options and limit to --resume it")
        if not resume:
            raise SweepError(f"{out_dir} already holds this sweep: --resume continues it")
        _shards_folder(out_dir)
        if problem is not None:  # a plan.json of an earlier version, without a checksum: sealed now
            write_json(meta_path, sealed(meta))
    plan_id, pending = identity(plan), []
    for bounds in plan.shards():
        body, why = _shard(shard_path(out_dir, bounds[0]), bounds, plan_id)
        if body is None:
            pending.append(bounds)
            if why is not None and notes is not None:
                notes.append(f"{shard_path(out_dir, bounds[0])}: {why}")
    for path in [out_dir / "sweep.json", out_dir / "sweep.md", *(shard_path(out_dir, a) for a, _ in pending)]:
        if path.is_dir() and not path.is_symlink():  # a name the sweep will write, which a rename cannot replace
            raise SweepError(f"{path}: a folder where the sweep writes a file; remove it or give another --out")
    return pending


_MISSING = object()


def _shards_folder(out_dir: Path) -> None:
    """Make `DIR/shards`; SweepError when that name is not a folder of the sweep's own (a link, a file)."""
    folder = out_dir / "shards"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        pass
    info = os.lstat(folder)
    if not stat.S_ISDIR(info.st_mode):
        what = "a symbolic link" if stat.S_ISLNK(info.st_mode) else "not a folder"
        raise SweepError(f"{folder}: {what}, not the folder this sweep writes its shards in; remove it or give "
                         f"another --out")


def _plan_of(data: Any) -> Plan | None:
    """The plan a plan.json describes (one written before a field existed takes that field's default)."""
    try:
        return Plan(**data) if isinstance(data, dict) else None
    except TypeError:
        return None


def _shard(path: Path, bounds: tuple[int, int], plan_id: str) -> tuple[dict[str, Any] | None, str | None]:
    """A finished shard's summary and None, or None and why its file is not this sweep's summary of that shard
    (None when there is no file): damaged by hand or by a disk, written for another sweep or by an earlier
    version. Such a shard is run again and its file replaced."""
    try:
        body = _read_back(path, SHARD_BYTES)
    except FileNotFoundError:
        return None, None
    except (OSError, InputError) as exc:
        return None, _why(exc)
    problem = _seal_problem(body) or shard_problem(body, bounds, plan_id)
    return (None, problem) if problem is not None else (body, None)


def shard_problem(body: Mapping[str, Any], bounds: tuple[int, int], plan_id: str) -> str | None:
    """Why a shard's summary is not that of the shard `bounds` of the sweep `plan_id` (None: it is): another
    sweep's, another shard's, hands counted that are not the shard's, counts that do not add up, a class that
    is not one."""
    start, stop = bounds
    if body.get("plan") != plan_id:
        return "written for another sweep"
    if (body.get("start"), body.get("stop")) != bounds:
        return f"not the summary of hands {start:,} to {stop - 1:,}"
    counts = [body.get(k) for k in ("hands", "cases", "agreed", "ruled_out")]
    if not all(_count(n) for n in counts):
        return "its counts are not counts"
    hands, cases, agreed, _ = counts
    if hands != stop - start:
        return f"it counts {hands:,} hands of the shard's {stop - start:,}"
    classes = body.get("classes")
    if not isinstance(classes, list) or not all(_is_class(c) for c in classes):
        return "its classes are not classes of disagreement"
    if agreed + sum(c["count"] for c in classes) != cases:
        return "its cases are not those that agree and those of its classes"
    return None


def _count(n: Any) -> bool:
    return isinstance(n, int) and not isinstance(n, bool) and n >= 0


def _is_class(c: Any) -> bool:
    """Whether `c` has the shape of a class of disagreement as the report reads it."""
    if not isinstance(c, dict) or not _count(c.get("count")) or not c["count"]:
        return False
    key, witness = c.get("key"), c.get("witness")
    if not isinstance(key, list) or not key or not all(isinstance(k, list) and len(k) == 3 and isinstance(k[0], str)
                                                       for k in key):
        return False
    if not isinstance(witness, dict) or not all(isinstance(witness.get(f), str)
                                                for f in ("concealed", "win_tile", "win_by")):
        return False
    melds = witness.get("melds") or []
    if not isinstance(melds, list) or not all(isinstance(m, dict) for m in melds):
        return False
    return all(isinstance(side, dict) and isinstance(side.get("valid"), bool) and isinstance(side.get("fans"), dict)
               for side in (c.get("reference"), c.get("other")))


def write_json(path: Path, body: Any) -> None:
    """Write whole or not at all (a fresh file beside the target, renamed over it: a link planted at the name is
    replaced, not written through)."""
    write_text(str(path), json_text(body, indent=1) + "\n")


def check_scheduler(address: str) -> None:
    """SweepError when the scheduler at `address` cannot be reached (checked before anything is written)."""
    from distributed import Client

    try:
        Client(address, timeout=CONNECT_SECONDS).close()
    except (OSError, TimeoutError, ValueError) as exc:  # ValueError: not an address (no port, unknown protocol)
        raise SweepError(f"--scheduler {address}: cannot reach it ({exc})") from None


def run(plan: Plan, out_dir: Path, pending: list[tuple[int, int]], workers: int | None, scheduler: str | None,
        on_shard: Callable[[Mapping[str, Any]], None] = lambda s: None) -> None:
    """Run the pending shards on Dask, writing each summary (sealed, with the sweep's identity) as it arrives."""
    if not pending:
        return
    plan_id = identity(plan)
    summaries = shard_summaries(plan, pending, workers, scheduler)
    try:
        for summary in summaries:
            write_json(shard_path(out_dir, summary["start"]), sealed({**summary, "plan": plan_id}))
            on_shard(summary)
    finally:
        summaries.close()


def shard_summaries(plan: Plan, pending: list[tuple[int, int]], workers: int | None,
                    scheduler: str | None) -> Generator[dict[str, Any], None, None]:
    """The pending shards' summaries (`sweep.work.sweep_shard`) as Dask's workers finish them."""
    from distributed import Client, LocalCluster, as_completed

    cluster = None
    try:
        if scheduler:
            try:
                client = Client(scheduler, timeout=CONNECT_SECONDS)
            except (OSError, TimeoutError, ValueError) as exc:
                raise SweepError(f"--scheduler {scheduler}: cannot reach it ({exc})") from None
        else:
            # no dashboard; the scheduler's own HTTP routes on a free port (not 8787, which another cluster may hold)
            cluster = LocalCluster(n_workers=workers or os.cpu_count() or 1, threads_per_worker=1, processes=True,
                                   dashboard_address=None, silence_logs=logging.CRITICAL,
                                   scheduler_kwargs={"dashboard": False, "dashboard_address": ":0"})
            client = Client(cluster)
        with client:
            futures = [client.submit(sweep_shard, plan.ruleset, plan.space, a, b, plan.options, plan.against,
                                     plan.against_options, plan.context, plan.open_melds, key=f"shard-{a}", retries=2,
                                     pure=False)
                       for a, b in pending]
            for future in as_completed(futures):
                yield future.result()
    finally:
        if cluster is not None:
            cluster.close()


def read_shards(plan: Plan, out_dir: Path) -> list[dict[str, Any]]:
    """Every finished shard's summary, in id order (a shard whose file is not this sweep's summary of it is left
    out: `complete` then says the report is partial)."""
    plan_id, out = identity(plan), []
    for bounds in plan.shards():
        body, _ = _shard(shard_path(out_dir, bounds[0]), bounds, plan_id)
        if body is not None:
            out.append(body)
    return out


def complete(plan: Plan, shards: Sequence[Mapping[str, Any]]) -> bool:
    """Whether the shards' summaries (`read_shards`) cover every hand of the plan, each shard once."""
    return [(s["start"], s["stop"]) for s in shards] == plan.shards() and sum(s["hands"] for s in shards) == plan.hands()
