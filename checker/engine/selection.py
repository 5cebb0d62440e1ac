"""The account-once and non-identical principles of MCR, applied to combination fans.

Combination fans (double chows, short straights, triple pungs, …) join sets together. Among all their
instances in one interpretation, the counted ones must:
- account once: each instance brings in a set not yet joined to the others (the instances form a forest:
  no instance joins two sets that earlier instances already connected), so four chows give at most three
  pairwise fans and a three-set fan leaves one more pairing for the fourth set;
- be non-identical: a set joins at most one instance of the same fan.
The largest-scoring choice is kept; every equally scoring choice with a different fan list is returned too.
"""
from __future__ import annotations

from typing import Hashable, Mapping, Sequence, TypeVar

Instance = tuple[int, ...]
Fan = TypeVar("Fan", bound=Hashable)  # however the caller names its fans


def best_combinations(found: Mapping[Fan, Sequence[Instance]], points: Mapping[Fan, int],
                      account_once: bool = True) -> list[dict[Fan, list[Instance]]]:
    """Every best-scoring admissible choice of instances, distinct by (fan, count); the first is canonical."""
    if not account_once:
        return [{pid: list(insts) for pid, insts in found.items()}]
    candidates = sorted(((pid, inst) for pid, insts in found.items() for inst in insts),
                        key=lambda c: -points[c[0]])
    remaining = [0] * (len(candidates) + 1)
    for i in range(len(candidates) - 1, -1, -1):
        remaining[i] = remaining[i + 1] + points[candidates[i][0]]
    best: list = [-1, []]

    def find(parent: dict, a: int) -> int:
        while parent.get(a, a) != a:
            a = parent[a]
        return a

    def walk(i: int, parent: dict, used: set, chosen: list, value: int) -> None:
        if value + remaining[i] < best[0]:
            return
        if i == len(candidates):
            if value > best[0]:
                best[0], best[1] = value, [list(chosen)]
            elif value == best[0]:
                best[1].append(list(chosen))
            return
        pid, inst = candidates[i]
        roots = [find(parent, s) for s in inst]
        fresh = len(set(roots)) == len(roots) and not any((pid, s) in used for s in inst)
        if fresh:
            merged = dict(parent)
            for r in roots[1:]:
                merged[r] = roots[0]
            chosen.append((pid, inst))
            walk(i + 1, merged, used | {(pid, s) for s in inst}, chosen, value + points[pid])
            chosen.pop()
        walk(i + 1, parent, used, chosen, value)

    walk(0, {}, set(), [], 0)
    out, seen = [], set()
    for choice in best[1]:
        result: dict[Fan, list[Instance]] = {}
        for pid, inst in choice:
            result.setdefault(pid, []).append(inst)
        signature = tuple(sorted((pid, len(v)) for pid, v in result.items()))
        if signature not in seen:
            seen.add(signature)
            out.append(result)
    return out or [{}]
