"""How far one search of the hunt may go: a count of work units (hands read), a moment in time, or both.

A hunt run with `--effort` bounds its exhaustive proofs and witness searches by counts alone, so the same seed
and effort find the same on a slow or a busy machine; a run with `--budget` (alone or as a cap) also stops them
at a moment in time. A search that stops short of its whole space says so (`CutShort`, or `complete: false`).
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass


@dataclass(frozen=True)
class Allowance:
    """`units`: the most hands the search may read (None: no count); `until`: a `time.monotonic()` moment it
    may not run past (infinity: none)."""

    units: int | None = None
    until: float = math.inf

    @staticmethod
    def of(bound: "Allowance | float") -> "Allowance":
        """An allowance as given, or a deadline (a `time.monotonic()` moment) as one."""
        return bound if isinstance(bound, Allowance) else Allowance(until=bound)

    def spent(self, done: int) -> bool:
        """Whether a search that has read `done` hands must stop."""
        return (self.units is not None and done >= self.units) or (self.until != math.inf and
                                                                  time.monotonic() > self.until)

    def times(self, effort: int) -> "Allowance":
        """`effort` times the count, the moment unchanged."""
        return Allowance(None if self.units is None else self.units * effort, self.until)
