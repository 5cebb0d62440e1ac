"""Running a sweep on Dask: the space cut into shards (stable id ranges), each shard a task, each finished shard's
summary written to `DIR/shards/` as it arrives, so a killed run resumes where it stopped and a finished shard is
never redone. A local cluster by default (one worker process a core), or an existing scheduler.

`DIR/plan.json` says what the sweep is (ruleset, space, engine, options, shard size, limit): a run into a folder
holding another sweep is refused, and `--resume` continues only the same one.
"""
from __future__ import annotations

import json
import logging
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping

from checker.sweep.work import context_of, space_of, sweep_shard

SHARD_HANDS = 20_000  # hands a shard: a few seconds of work for one compiled worker
CONNECT_SECONDS = 5  # how long an unreachable --scheduler is waited for


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


def prepare(plan: Plan, out_dir: Path, resume: bool) -> list[tuple[int, int]]:
    """Write or check `DIR/plan.json`; the shards still to run."""
    meta_path = out_dir / "plan.json"
    meta = {"sweep": asdict(plan), "hands": plan.hands(), "shards": len(plan.shards())}
    if meta_path.exists():
        try:
            earlier = json.loads(meta_path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise SweepError(f"{meta_path}: not a sweep's description ({exc})") from None
        if not isinstance(earlier, dict) or _plan_of(earlier.get("sweep")) != plan:
            raise SweepError(f"{out_dir} holds another sweep ({meta_path}); use another --out, or the same "
                             f"ruleset, space, engine, options and limit to --resume it")
        if not resume:
            raise SweepError(f"{out_dir} already holds this sweep: --resume continues it")
    else:
        (out_dir / "shards").mkdir(parents=True, exist_ok=True)
        _write(meta_path, meta)
    return [s for s in plan.shards() if _shard(shard_path(out_dir, s[0]), s) is None]


def _plan_of(data: Any) -> Plan | None:
    """The plan a plan.json describes (one written before a field existed takes that field's default)."""
    try:
        return Plan(**data) if isinstance(data, dict) else None
    except TypeError:
        return None


def _shard(path: Path, bounds: tuple[int, int]) -> dict[str, Any] | None:
    """A finished shard's summary, or None when its file is missing or is not that shard's (damaged by hand or
    by a disk): such a shard is run again and its file rewritten."""
    try:
        body = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(body, dict) or (body.get("start"), body.get("stop")) != bounds or \
            not isinstance(body.get("classes"), list):
        return None
    return body


def _write(path: Path, body: Any) -> None:
    """Write whole or not at all: beside the target, then moved over it."""
    partial = path.with_name(path.name + ".partial")
    partial.write_text(json.dumps(body, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    os.replace(partial, path)


def check_scheduler(address: str) -> None:
    """SweepError when the scheduler at `address` cannot be reached (checked before anything is written)."""
    from distributed import Client

    try:
        Client(address, timeout=CONNECT_SECONDS).close()
    except (OSError, TimeoutError, ValueError) as exc:  # ValueError: not an address (no port, unknown protocol)
        raise SweepError(f"--scheduler {address}: cannot reach it ({exc})") from None


def run(plan: Plan, out_dir: Path, pending: list[tuple[int, int]], workers: int | None, scheduler: str | None,
        on_shard: Callable[[Mapping[str, Any]], None] = lambda s: None) -> None:
    """Run the pending shards on Dask, writing each summary as it arrives."""
    from distributed import Client, LocalCluster, as_completed

    if not pending:
        return
    cluster = None
    try:
        if scheduler:
            try:
                client = Client(scheduler, timeout=CONNECT_SECONDS)
            except (OSError, TimeoutError, ValueError) as exc:
                raise SweepError(f"--scheduler {scheduler}: cannot reach it ({exc})") from None
        else:
            cluster = LocalCluster(n_workers=workers or os.cpu_count() or 1, threads_per_worker=1, processes=True,
                                   dashboard_address=None, silence_logs=logging.CRITICAL)
            client = Client(cluster)
        with client:
            futures = [client.submit(sweep_shard, plan.ruleset, plan.space, a, b, plan.options, plan.against,
                                     plan.against_options, plan.context, plan.open_melds, key=f"shard-{a}", retries=2,
                                     pure=False)
                       for a, b in pending]
            for future in as_completed(futures):
                summary = future.result()
                _write(shard_path(out_dir, summary["start"]), summary)
                on_shard(summary)
    finally:
        if cluster is not None:
            cluster.close()


def read_shards(plan: Plan, out_dir: Path) -> list[dict[str, Any]]:
    """Every finished shard's summary, in id order (a shard whose file is not its summary is left out)."""
    out = []
    for bounds in plan.shards():
        body = _shard(shard_path(out_dir, bounds[0]), bounds)
        if body is not None:
            out.append(body)
    return out

