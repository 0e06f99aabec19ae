"""The manifest of a refreshed snapshot: whole-snapshot counts, its base, its change files."""

from __future__ import annotations

import hashlib
import time
from pathlib import Path

from kgdiff.ingest.detect import infer_dump_date
from kgdiff.refresh.deletions import DeletionsRead
from kgdiff.refresh.inputs import ParsedInput
from kgdiff.refresh.request import REFRESH_FORMAT, RefreshRequest
from kgdiff.refresh.write import Written
from kgdiff.rows.native import native_enabled
from kgdiff.store.delta import manifest_sha256
from kgdiff.store.layout import StoreLayout
from kgdiff.store.manifest import DeltaRef, Manifest, RefreshInfo, SourceInfo
from kgdiff.store.publish import tool_versions, utc_now


def _identity(base_sha256: str, date: str, sources: list[SourceInfo]) -> str:
    """A SHA-256 that names the refreshed state: the base, the date, and every input's
    content (what classification builds are keyed by, as an ingest's dump hash)."""
    parts = [base_sha256, date, *(source.sha256 or "" for source in sources)]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def _source(inputs: list[SourceInfo], digest: str) -> SourceInfo:
    """The manifest's one ``source``: the first change file, all their bytes, the digest."""
    first = inputs[0]
    return SourceInfo(
        path=first.path,
        size=sum(source.size for source in inputs),
        mtime_ns=max(source.mtime_ns for source in inputs),
        sha256=digest,
        compression=first.compression,
        format=REFRESH_FORMAT,
    )


def _dump_date(inputs: list[SourceInfo]) -> str | None:
    found = [day for source in inputs if (day := infer_dump_date(Path(source.path)))]
    return max(found).isoformat() if found else None


def _stats(parsed: list[ParsedInput], deletions: DeletionsRead | None) -> dict[str, int]:
    stats: dict[str, int] = {}
    for item in parsed:
        for key, value in item.done.stats.items():
            stats[key] = stats.get(key, 0) + value
    if deletions is not None:
        stats.update({f"deletions_{key}": value for key, value in deletions.stats.items()})
    return stats


def refreshed_manifest(
    request: RefreshRequest,
    layout: StoreLayout,
    base: Manifest,
    parsed: list[ParsedInput],
    deletions: DeletionsRead | None,
    written: Written,
    timings: dict[str, float],
    started: float,
) -> Manifest:
    """The manifest of the snapshot ``request`` asks for, made as ``written`` says."""
    inputs = [item.done.source for item in parsed]
    base_sha256 = manifest_sha256(layout.snapshot_dir(base.name))
    hashed = [*inputs, *([deletions.source] if deletions else [])]
    refresh = RefreshInfo(
        base=base.name,
        base_manifest_sha256=base_sha256,
        inputs=inputs,
        deletions="known" if deletions else "unknown",
        deletions_source=deletions.source if deletions else None,
        changes=written.summary,
    )
    return Manifest(
        name=request.snapshot,
        date=request.date,
        kind="wikidata",
        source=_source(inputs, _identity(base_sha256, request.date, hashed)),
        dump_date=_dump_date(inputs),
        counts=written.counts,
        rejects=sum(item.done.rejects for item in parsed),
        rejects_file=written.rejects_file,
        **tool_versions(),
        created_at=utc_now(),
        elapsed_seconds=round(time.monotonic() - started, 3),
        workers=request.workers,
        chunk_bytes=request.chunk_bytes,
        input_stats=_stats(parsed, deletions),
        timings=timings,
        row_builder="native" if native_enabled() else "python",
        coverage=base.coverage,
        delta=DeltaRef(base.name, base_sha256, written.stored),
        refresh=refresh,
    )
