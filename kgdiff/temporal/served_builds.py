"""Classification builds made because of a request to the REST service: a cache, the least
recently used removed past a bound (``kgdiff serve --max-builds``).

A client may ask for a classification of any date, and each new one is a build in the store:
left alone, anonymous requests would fill the disk. So a build published while the service
makes it for a request (within :func:`serving_requests`) carries a mark, the file ``served``
in its folder, whose modification time is the build's last use (:func:`touch`). Publishing
one more removes the marked builds past the bound, least recently used first, under the
store lock and before the catalog is rebuilt (:func:`evict_served_builds`). A build the
command line or the Python API made carries no mark and is never removed; one they ask for
that the service made loses its mark (:func:`kept_for_caller`): it is theirs from then on.
A build is removed by one rename out of sight (``.tmp-evicted-<key>-<pid>``), then deleted.
"""

from __future__ import annotations

import logging
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from pathlib import Path

from kgdiff.store.catalog import rebuild_catalog, store_lock
from kgdiff.store.layout import StoreLayout

LOG = logging.getLogger(__name__)
MARK = "served"
"""The file in a build's folder marking it as made for a request (mtime: last use)."""
_kept: ContextVar[int | None] = ContextVar("kgdiff_served_builds", default=None)
"""How many marked builds the store keeps, while the service makes one (else None)."""


@contextmanager
def serving_requests(keep: int) -> Iterator[None]:
    """Within the block (in this thread), builds are made for requests: a build published
    is marked and the store keeps the ``keep`` most recently used marked builds."""
    token = _kept.set(max(1, keep))
    try:
        yield
    finally:
        _kept.reset(token)


def mark_if_serving(folder: Path) -> None:
    """Mark the build being filled in ``folder`` (not published yet) when it is made for
    a request."""
    if _kept.get() is not None:
        (folder / MARK).touch()


def kept_for_caller(layout: StoreLayout, folder: Path) -> bool:
    """Whether the published build in ``folder``, asked for again, is still there for the
    caller: the service's use counts as a use (its mark touched); any other caller's makes
    the build its own (the mark removed, under the store lock, so that no eviction removes
    it meanwhile). False when an eviction removed it first: the caller makes it again."""
    mark = folder / MARK
    if _kept.get() is not None:
        touch(folder)
        return folder.is_dir()
    if not mark.exists():
        return True
    with store_lock(layout):
        if not folder.is_dir():
            return False
        mark.unlink(missing_ok=True)
    return True


def touch(folder: Path) -> None:
    """Record a use of the build in ``folder`` (nothing for a build without a mark)."""
    with suppress(FileNotFoundError):  # a build of the command line, or one removed
        os.utime(folder / MARK)


def served_builds(layout: StoreLayout) -> list[Path]:
    """The marked builds' folders, most recently used first."""
    marks = []
    for mark in (layout.root / "builds" / "classify").glob(f"*/{MARK}"):
        if mark.parent.name.startswith("."):
            continue  # a build being made or removed
        try:
            marks.append((mark.stat().st_mtime_ns, mark.parent))
        except FileNotFoundError:
            continue  # removed meanwhile
    return [folder for _, folder in sorted(marks, reverse=True)]


def evict_if_serving(layout: StoreLayout, published: Path) -> list[Path]:
    """Called with the store lock held, after ``published`` appeared and before the catalog
    is rebuilt: when it was made for a request, remove the marked builds past the bound
    (never ``published``, whose use is now). Return the folders removed."""
    keep = _kept.get()
    if keep is None:
        return []
    touch(published)
    return _remove_past(layout, keep, spare=published)


def evict_served_builds(layout: StoreLayout, keep: int) -> list[Path]:
    """Remove the marked builds past the ``keep`` most recently used, and rebuild the
    catalog if any was removed (the service does this when it starts). Return them."""
    if len(served_builds(layout)) <= keep:
        return []
    with store_lock(layout):
        removed = _remove_past(layout, keep)
        if removed:
            rebuild_catalog(layout)
    return removed


def _remove_past(layout: StoreLayout, keep: int, spare: Path | None = None) -> list[Path]:
    """With the store lock held: remove the marked builds past the ``keep`` most recently
    used (``spare`` counted among the kept)."""
    others = [f for f in served_builds(layout) if f != spare]
    gone = []
    for folder in others[keep - 1 if spare is not None else keep :]:
        hidden = folder.with_name(f".tmp-evicted-{folder.name}-{os.getpid()}")
        try:
            folder.rename(hidden)
        except OSError as exc:  # kept: a build that stays is no harm, a failed publish is
            LOG.warning("build %s not removed from the cache: %s", folder.name, exc)
            continue
        # params.json first: what a killed removal leaves is no build to any reader
        (hidden / "params.json").unlink(missing_ok=True)
        shutil.rmtree(hidden, ignore_errors=True)
        gone.append(folder)
    if gone:
        LOG.info("removed %d builds made for requests (--max-builds %d)", len(gone), keep)
    return gone
