"""Ingest a page view dump file (or rows fetched elsewhere) as a named store source.

Re-ingesting a source from the same content with the same options is a no-op; anything
else under a taken name is a :class:`StoreError`, since published sources never change.
"""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from kgdiff.errors import InputError, StoreError
from kgdiff.pageviews.store import (
    check_source_name,
    publish,
    read_manifest,
    source_dir,
)
from kgdiff.readers.input_file import check_input_file
from kgdiff.readers.pageview_files import describe_dump, detect_compression
from kgdiff.readers.pageviews import PageviewRow, PageviewStats, iter_pageviews
from kgdiff.store.layout import StoreLayout
from kgdiff.version import __version__

_SUFFIXES = re.compile(r"(\.(gz|bz2|txt|tsv))+$")
HASH_BLOCK = 1 << 20


@dataclass(frozen=True)
class PageviewIngest:
    """What ``kgdiff ingest pageviews`` was asked to do."""

    path: Path
    source: str | None = None
    period: str | None = None
    date: str | None = None
    store: str | Path | None = None
    wikis: tuple[str, ...] = ()
    max_rejects: int | None = None


@dataclass(frozen=True)
class IngestOutcome:
    """``published`` (with the new manifest) or ``unchanged`` (the existing one)."""

    status: str
    name: str
    directory: Path
    manifest: dict[str, Any]


def default_source_name(path: Path) -> str:
    """The file name without compression and text suffixes: ``pageviews-20230101-user``."""
    return _SUFFIXES.sub("", path.name) or path.name


def file_sha256(path: Path) -> str:
    """The SHA-256 of the raw file (an :class:`InputError` if it cannot be read)."""
    digest = hashlib.sha256()
    try:
        with path.open("rb") as handle:
            while block := handle.read(HASH_BLOCK):
                digest.update(block)
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror or exc}); check the path") from exc
    return digest.hexdigest()


def ingest_file(request: PageviewIngest) -> IngestOutcome:
    """Read a page view dump and publish it as a source (a no-op when already there)."""
    layout = StoreLayout.resolve(request.store)
    name = check_source_name(request.source or default_source_name(request.path))
    check_input_file(request.path, "a page view dump file (hourly, daily or monthly)")
    options = {"period": request.period, "date": request.date, "wikis": sorted(request.wikis)}
    source = {
        "kind": "file",
        "path": str(request.path.resolve()),
        "size": request.path.stat().st_size,
        "sha256": file_sha256(request.path),
        "compression": detect_compression(request.path),
    }
    identity = {"sha256": source["sha256"], "options": options}
    existing = _existing(layout, name, identity)
    if existing is not None:
        return existing
    info = describe_dump(request.path, request.period, request.date).complete(str(request.path))
    stats = PageviewStats(source=str(request.path), max_rejects=request.max_rejects)
    rows = iter_pageviews(request.path, info, stats, set(request.wikis) or None)
    described: dict[str, Any] = {
        "layout": info.layout,
        "period": info.period,
        "period_start": info.start.isoformat() if info.start else None,
        "agent": info.agent,
        "source": source,
    }
    return _publish(layout, name, rows, stats, described, identity, request.path)


def ingest_rows(
    store: str | Path | None, name: str, rows: Iterable[PageviewRow], request: dict[str, Any]
) -> IngestOutcome:
    """Publish rows fetched from elsewhere (e.g. the REST API) as source ``name``;
    ``request`` describes how they were obtained and identifies them for a re-run."""
    layout = StoreLayout.resolve(store)
    check_source_name(name)
    identity = {"request": request}
    existing = _existing(layout, name, identity)
    if existing is not None:
        return existing
    stats = PageviewStats(source=name)
    counted = _counted(rows, stats)
    described = {"layout": "rest", "period": "month", "source": {"kind": "rest", **request}}
    return _publish(layout, name, counted, stats, described, identity)


def _counted(rows: Iterable[PageviewRow], stats: PageviewStats) -> Iterable[PageviewRow]:
    for row in rows:
        stats.lines += 1
        stats.rows += 1
        stats.views += row.views
        yield row


def _existing(layout: StoreLayout, name: str, identity: dict[str, Any]) -> IngestOutcome | None:
    manifest = read_manifest(layout, name)
    if manifest is None:
        return None
    if manifest.get("identity") == identity:
        return IngestOutcome("unchanged", name, source_dir(layout, name), manifest)
    taken = manifest.get("source", {})
    raise StoreError(
        f"page view source {name!r} already holds {taken.get('path') or taken.get('kind')} "
        f"(other content or options); pick another --source or remove {source_dir(layout, name)}"
    )


def _publish(
    layout: StoreLayout,
    name: str,
    rows: Iterable[PageviewRow],
    stats: PageviewStats,
    described: dict[str, Any],
    identity: dict[str, Any],
    file: Path | None = None,
) -> IngestOutcome:
    """Publish ``rows`` as source ``name``; a ``file`` none of whose lines gave a row is
    refused instead (:func:`refuse_unread`)."""
    started = time.monotonic()

    def finish(written: int) -> dict[str, Any]:
        if file is not None:
            refuse_unread(file, stats)
        counts = _counts(stats)
        counts["counts"]["rows_written"] = written
        return {
            "name": name,
            "kind": "pageviews",
            **described,
            **counts,
            "identity": identity,
            "tool_version": __version__,
            "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "elapsed_seconds": round(time.monotonic() - started, 3),
        }

    manifest = publish(layout, name, rows, finish)
    return IngestOutcome("published", name, source_dir(layout, name), manifest)


READ_BUT_LEFT_OUT = ("other_wiki", "project_total")
"""Skips of well-formed lines: a file with only these says there were no views to keep."""


def refuse_unread(path: Path, stats: PageviewStats) -> None:
    """Raise :class:`InputError` when no line of ``path`` was a page view count: an empty
    file, blank lines only, or every line malformed. (Lines of other wikis than ``--wiki``
    do count as read: a source without views of that wiki is published, empty.)"""
    if stats.rows or any(stats.skipped.get(reason) for reason in READ_BUT_LEFT_OUT):
        return
    if stats.rejected:
        reasons = ", ".join(f"{count:,} × {why}" for why, count in sorted(stats.rejects.items()))
        seen = f"all {stats.rejected:,} lines malformed: {reasons}"
    else:
        seen = "blank lines only" if stats.lines else "an empty file"
    raise InputError(f"{path} holds no page view count ({seen}); nothing was published")


def _counts(stats: PageviewStats) -> dict[str, Any]:
    return {
        "counts": {
            "lines": stats.lines,
            "rows": stats.rows,
            "views": stats.views,
            "unverified": stats.unverified,
        },
        "rejects": stats.rejected,
        "rejects_by_reason": dict(sorted(stats.rejects.items())),
        "reject_lines": dict(sorted(stats.reject_lines.items())),
        "skipped": dict(sorted(stats.skipped.items())),
    }
