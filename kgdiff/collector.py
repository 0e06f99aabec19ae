"""Python's cyclic garbage collector kept out of the way of bulk work.

The collector runs its youngest generation every 700 new containers (tuples, lists, dicts,
objects) and every so often all of them, walking every live object. Work that turns columns
into millions of short-lived Python lists and tuples (the benchmark export names ~264,000
entities and puts ~390,000 values in words at 3 × 5 M statements) triggers thousands of young
collections and dozens of full ones: 8.3 s of the 3 × 5 M export's main thread went into them,
7.5 s in 42 full collections; an RDF ingest of the demo's latest snapshot (66 MB of
N-Triples) spent 6 s of its 19 in them. The objects are freed by reference counting anyway;
cycles are rare, and the young ones are still collected.

:func:`bulk_allocations` raises the thresholds while the work runs (the youngest generation
collected every :data:`BULK_THRESHOLDS`\\ [0] containers, the older ones practically never),
then collects once (the young generations, or all of them when the work's objects reached
the oldest: :func:`_collect_what_the_work_left`) and puts back what they were. The thresholds
are the process's: work running in several threads at once shares one raise, put back when
the last one ends. The command line runs every command but ``kgdiff serve`` so; the library's
export and audit raise them themselves.
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
_promotions_at_start = 0  # the collector's promotions when the first running block began


def _promotions() -> int:
    """How many times the collector has moved survivors into the oldest generation (each
    collection of the middle or the oldest one does)."""
    stats = gc.get_stats()
    return int(stats[1]["collections"]) + int(stats[2]["collections"])


def _collect_what_the_work_left() -> None:
    """Collect the cycles the bulk work left: the young generations when all it made is
    still there (a full collection walks every live object of the process, ~0.12 s in a
    test process, more in a notebook holding data), all of them when some of its objects
    were moved into the oldest."""
    gc.collect(2 if _promotions() > _promotions_at_start else 1)


@contextmanager
def bulk_allocations(collect: bool = True) -> Iterator[None]:
    """Run the block with the collector's thresholds at :data:`BULK_THRESHOLDS`; the last
    block to end collects what cycles were left (unless ``collect`` is false: a process about
    to exit) and puts the earlier thresholds back."""
    global _running, _saved, _promotions_at_start
    with _lock:
        if _running == 0:
            _saved = gc.get_threshold()
            _promotions_at_start = _promotions()
            gc.set_threshold(*BULK_THRESHOLDS)
        _running += 1
    try:
        yield
    finally:
        with _lock:
            _running -= 1
            if _running == 0:
                if collect:
                    _collect_what_the_work_left()
                gc.set_threshold(*_saved)
