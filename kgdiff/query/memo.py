"""What a store's state answers the same every time, kept until the catalog changes: the
labels of ids, which ids the store knows, which snapshot answers a date, the snapshots' span.
A question about one entity asks for the labels of a few dozen ids, most of them asked
before (properties, common values such as Q5); keeping them spares a scan of the labels per
question, and the dates' reads a query of their own."""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from kgdiff.temporal.dates import DateRead

LIMIT = 500_000
"""Entries each memo of ids holds at most (then it starts again empty): a few tens of MB."""
READS_LIMIT = 20_000
"""Questions whose dates' reads are kept at most (then they start again empty): clients
choose the dates and the gap, and an entry takes ~1 KB (measured), so ~20 MB at most."""

LabelKey = tuple[str | None, str, str]
"""(the snapshot labels are read as of, or None for the latest; the language; the id)."""


@dataclass
class StoreMemo:
    """The labels and known ids of one state of the store."""

    labels: dict[LabelKey, str | None] = field(default_factory=dict)
    known: set[str] = field(default_factory=set)
    reads: dict[Hashable, list[DateRead]] = field(default_factory=dict)
    """The snapshots that answer a question's dates, by (question, dates, mode, gap)."""
    span: tuple[date, date] | None = None
    """The first and the latest snapshot's dates."""

    def remember_labels(self, found: dict[LabelKey, str | None]) -> None:
        """Keep ``found`` (None: the id has no label), starting again when full."""
        if len(self.labels) + len(found) > LIMIT:
            self.labels.clear()
        self.labels.update(found)

    def reads_of(self, key: Hashable, read: Callable[[], list[DateRead]]) -> list[DateRead]:
        """The reads of ``key`` kept from an earlier question, else ``read()``'s, kept (a
        refused date raises in ``read`` and is never kept); starts again when full."""
        kept = self.reads.get(key)
        if kept is not None:
            return kept
        if len(self.reads) >= READS_LIMIT:
            self.reads.clear()
        self.reads[key] = found = read()
        return found

    def remember_known(self, ids: set[str]) -> None:
        """Keep ``ids`` as known to the store, starting again when full."""
        if len(self.known) + len(ids) > LIMIT:
            self.known.clear()
        self.known.update(ids)


class StoreMemos:
    """The :class:`StoreMemo` of a catalog's present state: a new, empty one whenever the
    catalog file is replaced (an ingest, a build), so nothing of an older state is reused."""

    def __init__(self, catalog: Path) -> None:
        self.catalog = catalog
        self._lock = threading.Lock()
        self._stamp: tuple[int, int] | None = None
        self._memo = StoreMemo()

    def current(self) -> StoreMemo:
        """The memo of the catalog as it is now."""
        stat = self.catalog.stat()
        stamp = (stat.st_ino, stat.st_mtime_ns)
        with self._lock:
            if stamp != self._stamp:
                self._memo, self._stamp = StoreMemo(), stamp
            return self._memo
