"""A file an export writes once, the first time a part asks for it, and every part then
filters for its own ids (the entities' dates: :mod:`kgdiff.export.core.entity_dates`, how
they ended: :mod:`kgdiff.export.rules.entity_ends`).

What each part of a config would ask the store again — a scan of every snapshot's statements
each time, 4.5–4.8 s at 3 × 100 M statements however few its ids — is read once, for every
entity, into a file of the export's spill folder, and found there in a tenth of a second a
part: the parts grow with the store, so asking per part made the export's time grow with the
square of it."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from kgdiff.export.core.leftovers import SpillFolder


class OnceFile:
    """The file ``name`` of a folder of ``parent`` (the system's temporary folder when None),
    written by ``write`` (given its path) the first time it is asked for, from any thread."""

    def __init__(self, name: str, write: Callable[[Path], None], parent: Path | None = None):
        self._name, self._write, self._parent = name, write, parent
        self._folder: SpillFolder | None = None
        self._path: Path | None = None
        self._lock = threading.Lock()

    def path(self) -> Path:
        """The file's path, written first if it is not yet."""
        with self._lock:
            if self._path is None:
                folder = SpillFolder(self._parent)
                path = folder.path / self._name
                try:
                    self._write(path)
                except BaseException:
                    folder.close()  # nothing half-written is kept; the next asker writes again
                    raise
                self._folder, self._path = folder, path
            return self._path

    def close(self) -> None:
        """Remove the file (it is written again if asked for after)."""
        with self._lock:
            if self._folder is not None:
                self._folder.close()
            self._folder, self._path = None, None
