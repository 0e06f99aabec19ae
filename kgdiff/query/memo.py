"""What a store's state answers the same every time, kept until the catalog changes: the
labels of ids and which ids the store knows. A question about one entity asks both for a
few dozen ids, most of them asked before (properties, common values such as Q5); keeping
them spares a scan of the labels per question."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path

LIMIT = 500_000
"""Entries each memo holds at most (then it starts again empty): a few tens of MB."""

LabelKey = tuple[str | None, str, str]
"""(the snapshot labels are read as of, or None for the latest; the language; the id)."""


@dataclass
class StoreMemo:
    """The labels and known ids of one state of the store."""

    labels: dict[LabelKey, str | None] = field(default_factory=dict)
    known: set[str] = field(default_factory=set)

    def remember_labels(self, found: dict[LabelKey, str | None]) -> None:
        """Keep ``found`` (None: the id has no label), starting again when full."""
        if len(self.labels) + len(found) > LIMIT:
            self.labels.clear()
        self.labels.update(found)

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
