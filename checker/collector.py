"""Long-lived objects held out of the cyclic garbage collector's way while a run makes and drops many small ones.

CPython's collector walks every object it tracks in each full collection, and starts one whenever the objects
that outlived two collections have grown by a quarter. Reading a corpus of 10,000 cases into memory (some
100,000 lists and dicts it tracks) set off full collections again and again, each walking all that had been
read so far: about a third of an in-process conformance run (docs/performance.md, section 4). A run now
streams its corpus, but what exists when it starts (the modules, an engine's spec and tables) would still be
walked by each collection the run's own allocations set off, and the results read back for the reports are
such a mass again. Parsed JSON holds no reference cycles, so leaving it uncollected loses nothing.
"""
from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Callable, Iterator, TypeVar

T = TypeVar("T")


@contextmanager
def held_aside(read: Callable[[], T | None] = lambda: None) -> Iterator[T | None]:
    """`read()` (reading a results file; by default nothing) with automatic collection paused; then all that
    exists, what it read among it, out of the collector's sight (`gc.freeze`) for the block, and back in it at
    the end (`gc.unfreeze`), however the block ends; what the block makes is collected as usual. Frozen before the
    collector comes back on: else its first collection would walk all that was read. The collector is left
    as it was found; when objects are frozen already, whoever froze them decides when to unfreeze them, and
    nothing is frozen here."""
    was_enabled = gc.isenabled()
    gc.disable()
    frozen = False
    try:
        value = read()
        if not gc.get_freeze_count():
            gc.freeze()
            frozen = True
    finally:
        if was_enabled:
            gc.enable()
    try:
        yield value
    finally:
        if frozen:
            gc.unfreeze()
