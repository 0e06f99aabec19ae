"""Python's cyclic garbage collector kept out of the way of bulk work.

The collector runs its youngest generation every 700 new containers (tuples, lists, dicts,
objects) and every so often all of them, walking every live object. Work that turns columns
into millions of short-lived Python lists and tuples (the benchmark export names ~260,000
entities and builds ~500,000 words lists at 3 × 5 M statements) triggers thousands of young
collections and dozens of full ones: 8.3 s of the 3 × 5 M export's main thread went into them,
7.5 s in 42 full collections. The objects are freed by reference counting anyway; cycles are
rare and live until the work ends.

:func:`bulk_allocations` raises the thresholds while the work runs (the youngest generation
collected every :data:`BULK_THRESHOLDS`\\ [0] containers, the older ones practically never),
then collects once and puts back what they were. The thresholds are the process's: work
running in several threads at once shares one raise, put back when the last one ends.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

BULK_THRESHOLDS = (100_000, 50, 100)
"""The collector's thresholds during bulk work (Python's defaults are 700, 10, 10)."""

_lock = threading.Lock()
_running = 0
_saved: tuple[int, int, int] = gc.get_threshold()


@contextmanager
def bulk_allocations() -> Iterator[None]:
    """Run the block with the collector's thresholds at :data:`BULK_THRESHOLDS`; the last
    block to end collects what cycles were left and puts the earlier thresholds back."""
    global _running, _saved
    with _lock:
        if _running == 0:
            _saved = gc.get_threshold()
            gc.set_threshold(*BULK_THRESHOLDS)
        _running += 1
    try:
        yield
    finally:
        with _lock:
            _running -= 1
            if _running == 0:
                gc.collect()
                gc.set_threshold(*_saved)
