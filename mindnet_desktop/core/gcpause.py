"""The cyclic garbage collector paused while many objects are made at once.

Each collection the allocations trigger scans every object the process holds; none of a
snapshot's, a manifest's or a drawn graph's objects is garbage. Measured: a snapshot loads
2.7x faster, 20,000 notes' manifest in 0.1 s instead of 0.4-1.1 s, and the whole-vault graph
of 50,000 notes draws in 2.4 s instead of 3.6 s.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused_gc() -> Iterator[None]:
    """No cyclic collection inside the block (as it was after it)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
