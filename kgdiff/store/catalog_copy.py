"""The catalog as kgdiff's own connections open it: a private copy, never ``kg.duckdb`` itself.

``kg.duckdb`` belongs to the people at the DuckDB prompt: ``duckdb kgdiff-data/kg.duckdb``
opens it read-write, and DuckDB then wants the file to itself. Any other process that holds
it open, even read-only, locks that session out ("Conflicting lock is held"), and a session
that got there first locks out a read-only opener in turn. So kgdiff's readers (the
service, the command line, the Python API, the SQL endpoint's query processes) open a copy
in a private folder of their process instead, and no lock of theirs ever touches the file.

Copying is sound because kgdiff never writes into the catalog file: a rebuild writes a new
file and renames it over the old one (:mod:`kgdiff.store.catalog`), so the file read through
one open descriptor is always one whole catalog. The copy is small (views and macros, no
rows) and is made again only when the catalog's identity (device, inode, modification time,
size) changes. Its views read the store's files wherever the copy lies, because kgdiff sets
the store root on every connection (:mod:`kgdiff.store.store_root`).

The folder goes when the process exits normally. A process that is killed (a query process
past its time, a server stopped with SIGKILL) or a forked child that leaves by ``os._exit``
cannot remove its own, so each folder's name carries its process's id and a process making
its folder first removes the folders of processes that no longer run: the temporary
directory never fills with the copies of processes long gone.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from kgdiff.errors import StoreError
from kgdiff.store.liveness import remove_dead_folders

PREFIX = "kgdiff-catalog-"
"""The start of the name of every process's folder of copies, followed by its process id."""

Stamp = tuple[int, int, int, int]
"""A catalog file's identity: device, inode, modification time (ns) and size."""


@dataclass(frozen=True)
class _Copy:
    stamp: Stamp
    path: Path


def stamp_of(stat: os.stat_result) -> Stamp:
    """The identity of the file ``stat`` describes."""
    return (stat.st_dev, stat.st_ino, stat.st_mtime_ns, stat.st_size)


class CatalogCopies:
    """This process's copies of the catalogs it reads: one per catalog, the latest."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._copies: dict[Path, _Copy] = {}
        self._folder: Path | None = None
        self._owner = os.getpid()

    def path(self, catalog: Path) -> Path:
        """A private copy of ``catalog`` as it is now (made if the catalog changed since the
        last one); a :class:`StoreError` when there is no catalog."""
        try:
            source = catalog.open("rb")
        except OSError as exc:
            raise StoreError(
                f"no catalog at {catalog} ({exc.strerror}); ingest a snapshot first"
            ) from None
        with source, self._lock:
            if self._owner != os.getpid():  # a forked child: the copies are its parent's
                self._folder, self._owner = None, os.getpid()
                self._copies.clear()
            stamp = stamp_of(os.fstat(source.fileno()))
            known = self._copies.get(catalog)
            if known is not None and known.stamp == stamp and known.path.is_file():
                return known.path
            copy = self._write(source, stamp)
            self._copies[catalog] = _Copy(stamp, copy)
        if known is not None and known.path != copy:
            # connections still open on the old copy keep reading it: the name goes, the
            # file stays until they close
            known.path.unlink(missing_ok=True)
        return copy

    def _write(self, source: BinaryIO, stamp: Stamp) -> Path:
        """Copy the open catalog ``source`` into this process's folder; the copy's path."""
        folder = self._private_folder()
        folder.mkdir(mode=0o700, exist_ok=True)  # in case another pid namespace swept it
        name = "kg-{}-{}-{}.duckdb".format(*stamp[1:])
        target = folder / name
        partial = folder / f".{name}.partial"
        with partial.open("wb") as sink:
            shutil.copyfileobj(source, sink, 1 << 20)
        partial.replace(target)
        return target

    def _private_folder(self) -> Path:
        """This process's folder of copies, made on first use and removed at its exit."""
        if self._folder is None:
            self._folder = Path(tempfile.mkdtemp(prefix=f"{PREFIX}{self._owner}-"))
            atexit.register(_remove_folder, self._folder, self._owner)
            remove_dead_folders(self._folder.parent, [PREFIX])
        return self._folder


def _remove_folder(folder: Path, owner: int) -> None:
    if os.getpid() == owner:  # not in a forked child that inherited the hook
        shutil.rmtree(folder, ignore_errors=True)


COPIES = CatalogCopies()


def catalog_copy(catalog: Path) -> Path:
    """A private, read-only-use copy of the catalog file ``catalog`` as it is now: what every
    kgdiff connection opens instead of ``kg.duckdb`` (see the module)."""
    return COPIES.path(catalog)
