"""Speed of `mjcheck game import --from botzone`: recorded matches read and replayed under the rules, against
replaying the same hands' game logs alone (the baseline, measured in the same run: what reading the format
costs beyond the replay).

    python benchmarks/matchlog_import.py [--matches 1000] [--seed 1] [--jobs 2]

The matches are hands the bots play under the judge's readings (MCR, quarters, no flowers), written as the judge
records them (not timed). Prints the matches imported and validated a minute (the issue's target: 1,000 within a
minute on 2 cores) and the ratio of importing to replaying alone. Run it from a regular install (`pip install .`)
for the compiled engine.
"""
from __future__ import annotations

import argparse
import json
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from checker import tiles as T
from checker.engine import compiled
from checker.matchlog import botzone
from checker.table.log import replay_events
from checker.table.simulate import play_hand
from checker.table.wall import shuffled_wall

TARGET_PER_MINUTE = 1_000


def _match(seed: int) -> tuple[str, dict[str, Any], list[dict[str, Any]]]:
    hand = play_hand("mcr", seed, options=botzone.OPTIONS)
    header, *events = [json.loads(line) for line in hand.lines()]
    wall = shuffled_wall(seed, flowers=False)
    header = {k: v for k, v in header.items() if k != "seed"}
    header["wall"] = [T.format_tiles(wall[34 * s:34 * (s + 1)]) for s in range(4)]
    return json.dumps(botzone.write(header, events, replay_events(header, events).result)), header, events


def _import(texts: list[str]) -> int:
    legal = 0
    for text in texts:
        imported = botzone.read(json.loads(text))
        legal += replay_events(imported.header, imported.events).verdict == "legal"
    return legal


def _replay(logs: list[tuple[dict[str, Any], list[dict[str, Any]]]]) -> int:
    return sum(replay_events(h, e).verdict == "legal" for h, e in logs)


def _timed(fn: Any, chunks: list[Any], jobs: int) -> tuple[float, int]:
    started = time.perf_counter()
    with ProcessPoolExecutor(jobs) as pool:
        done = sum(pool.map(fn, chunks))
    return time.perf_counter() - started, done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    print(f"engine: {'compiled' if compiled() else 'pure Python'}; {args.matches} matches, {args.jobs} processes")
    with ProcessPoolExecutor(args.jobs) as pool:
        made = list(pool.map(_match, range(args.seed, args.seed + args.matches), chunksize=25))
    texts = [m[0] for m in made]
    logs = [(m[1], m[2]) for m in made]
    size = -(-len(made) // args.jobs)
    imported, legal = _timed(_import, [texts[i:i + size] for i in range(0, len(texts), size)], args.jobs)
    replayed, _ = _timed(_replay, [logs[i:i + size] for i in range(0, len(logs), size)], args.jobs)
    per_minute = len(texts) / imported * 60
    print(f"imported and validated {legal} of {len(texts)} legal: {per_minute:,.0f} matches/min, "
          f"import/replay alone {imported / replayed:.2f}x; "
          f"{'meets' if per_minute >= TARGET_PER_MINUTE else 'BELOW'} the {TARGET_PER_MINUTE:,}/min target")


if __name__ == "__main__":
    main()
