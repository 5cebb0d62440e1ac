"""Large parsed inputs held out of the cyclic garbage collector's way while a run uses them.

CPython's collector walks every object it tracks in each full collection, and starts one whenever the objects
that outlived two collections have grown by a quarter. Reading a corpus of 10,000 cases into memory (some
600,000 dicts and lists) set off full collections again and again, each walking all that had been read so far:
about a third of an in-process conformance run (docs/performance.md, section 4). Parsed JSON holds no reference
cycles, so leaving it uncollected loses nothing.
"""
from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator


@contextmanager
def collector_paused() -> Iterator[None]:
    """No automatic collection inside the block (for reading values that cannot form cycles); the collector is
    left as it was found (a caller that had disabled it keeps it disabled)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


@contextmanager
def held_aside() -> Iterator[None]:
    """Every object that exists when the block starts (a corpus just read) is out of the collector's sight
    inside it (`gc.freeze`) and back in its sight at the end (`gc.unfreeze`), however the block ends; what the
    block itself makes is collected as usual. Nothing is done when objects are frozen already: whoever froze
    them decides when to unfreeze them."""
    if gc.get_freeze_count():
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()
