"""Turn a staging folder's part files into the published tables.

Each table becomes a folder of ``part-NNNNN.parquet`` files, one per bucket (a range of
subjects, see :mod:`kgdiff.store.buckets`), each sorted; in file order they are the
whole table sorted. Buckets are sorted ``threads`` at a time (Arrow releases the GIL).
"""

from __future__ import annotations

import bisect
import shutil
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, replace
from pathlib import Path

import msgspec
import pyarrow as pa
import pyarrow.compute as pc

from kgdiff.store.bucket_sort import bucket_rows, entity_parts, write_rows
from kgdiff.store.buckets import Bucket, PartFile, bucket_budget, bucket_count, plan_buckets
from kgdiff.store.duplicates import find_dropped, write_dropped
from kgdiff.store.hugepages import without_huge_pages
from kgdiff.store.layout import TABLES
from kgdiff.store.occurrences import Dropped
from kgdiff.store.part_reader import read_rows
from kgdiff.store.publish import fsync_dir
from kgdiff.store.staging import Staging, part_file

DEFAULT_MEMORY_LIMIT_MB = 1024
SAMPLE_ROWS = 1 << 20
"""Entity ids sampled for the bucket bounds: enough for ranges within ~0.1 % of equal."""


def _part_files(staging: Staging) -> tuple[dict[str, list[PartFile]], int]:
    """Every table's part files in chunk order (size of rows, subject ranges); entity count."""
    folders = staging.part_folders()
    files: dict[str, list[PartFile]] = {table: [] for table in TABLES}
    for meta, folder in folders:
        for table in TABLES:
            path = part_file(folder, table)
            size = meta.table_bytes.get(table) or path.stat().st_size
            files[table].append(PartFile(str(path), size, meta.key_ranges))
    return files, sum(meta.entities for meta, _ in folders)


def _quantiles(entity_parts: list[PartFile], count: int, entities: int) -> list[str]:
    """The ``count - 1`` entity ids that cut a sample of the entities into equal ranges."""
    if count <= 1 or not entity_parts:
        return []
    step = max(1, entities // SAMPLE_ROWS)
    samples = []
    for part in entity_parts:
        qids = read_rows([part.path], "qid", None, None, ["qid"]).column("qid").combine_chunks()
        samples.append(qids.take(pa.array(range(0, len(qids), step), pa.int64())))
    sample = pa.chunked_array(samples, pa.string())
    keys = sample.take(pc.sort_indices(sample))
    if not len(keys):
        return []
    return [keys[len(keys) * index // count].as_py() for index in range(1, count)]


DROPPED_SUFFIX = ".dropped.jsonl"
"""Beside an entities file, the rejects records of the duplicates its bucket left out
(hidden; :func:`merge_rejects` moves them into ``rejects.jsonl``)."""


def dropped_file(target: Path) -> Path:
    """Where the bucket written to ``target`` records the duplicates it left out."""
    return target.with_name(f".{target.stem}{DROPPED_SUFFIX}")


def write_bucket(table: str, bucket: Bucket, target: Path, record: bool = True) -> int:
    """Sort the rows of one bucket of ``table`` into the Parquet file ``target``; its rows.

    The rows of the occurrences of repeated entity ids the plan found in the bucket's range
    are left out (:mod:`kgdiff.store.duplicates`); the entities buckets, which cover every
    id once, record them in :func:`dropped_file` (unless not ``record``)."""
    rows = bucket_rows(table, bucket, bucket.dropped)
    write_rows(table, rows, target)
    if record and bucket.dropped and table == "entities":
        write_dropped(bucket.dropped, dropped_file(target))
    return int(rows.num_rows)


SortProgress = Callable[[float, float], None]
"""Told (bytes of rows sorted so far, bytes of rows in all) after each bucket (estimates)."""


def _submit_all(
    pool: ThreadPoolExecutor, plans: dict[str, list[Bucket]], out: Path, record: bool
) -> dict[Future[int], tuple[str, float]]:
    """Queue every bucket, largest first, so the threads finish together; each future's
    table and estimated size."""
    jobs = [
        (table, index, bucket)
        for table, buckets in plans.items()
        for index, bucket in enumerate(buckets)
    ]
    futures: dict[Future[int], tuple[str, float]] = {}
    for table in plans:
        (out / table).mkdir()
    for table, index, bucket in sorted(jobs, key=lambda job: -job[2].size):
        target = out / table / f"part-{index:05d}.parquet"
        futures[pool.submit(write_bucket, table, bucket, target, record)] = (table, bucket.size)
    return futures


def _run(
    plans: dict[str, list[Bucket]],
    out: Path,
    threads: int,
    progress: SortProgress,
    record: bool = True,
) -> dict[str, int]:
    """Sort every bucket, ``threads`` at once; on Ctrl-C or a failed bucket, drop the queued
    ones and wait for the running ones (a few seconds) before raising."""
    pool = ThreadPoolExecutor(max_workers=max(1, threads), thread_name_prefix="kgdiff-sort")
    rows = dict.fromkeys(plans, 0)
    try:
        futures = _submit_all(pool, plans, out, record)
        total, done, pending = sum(size for _, size in futures.values()), 0.0, set(futures)
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                table, size = futures[future]
                rows[table] += future.result()  # the first failure stops the queued buckets
                done += size
            progress(done, total)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    for table in plans:
        fsync_dir(out / table)
    return rows


def _dropped_records(files: list[Path], source: str) -> Iterator[bytes]:
    """The rejects records of the duplicates left out, with the input they came from."""
    for path in files:
        for line in path.read_bytes().splitlines():
            record = msgspec.json.decode(line)
            yield msgspec.json.encode({"source": source, **record}) + b"\n"
        path.unlink()


@dataclass(frozen=True)
class Rejected:
    """The snapshot's rejects file (None: nothing rejected) and the duplicates left out."""

    file: str | None
    duplicates: int


def merge_rejects(staging: Staging, out: Path) -> Rejected:
    """Concatenate the chunks' rejects, in chunk order, then the duplicates the sort left
    out, in id order, into ``out/rejects.jsonl``."""
    files = staging.reject_files()
    dropped = sorted((out / "entities").glob(f".*{DROPPED_SUFFIX}"))
    if not files and not dropped:
        return Rejected(None, 0)
    target = out / "rejects.jsonl"
    duplicates = 0
    with target.open("wb") as sink:
        for path in files:
            with path.open("rb") as source:
                shutil.copyfileobj(source, sink)
        for record in _dropped_records(dropped, staging.state.source.path):
            sink.write(record)
            duplicates += 1
    return Rejected(target.name, duplicates)


@dataclass(frozen=True)
class Finalized:
    """What the finalize step wrote: the rows of each table, the rejects file and how many
    entities were left out as duplicates (see :mod:`kgdiff.store.duplicates`)."""

    counts: dict[str, int]
    rejects_file: str | None
    duplicates: int


def finalize(
    staging: Staging,
    threads: int,
    memory_limit_mb: int = DEFAULT_MEMORY_LIMIT_MB,
    bucket_bytes: int | None = None,
    progress: SortProgress | None = None,
    left_out: Sequence[Dropped] | None = None,
) -> Finalized:
    """Write the sorted tables into a fresh ``final`` folder; return row counts, the rejects
    file and the number of duplicates left out.

    ``bucket_bytes``: bytes of rows per bucket (default: ``threads`` buckets sorting at
    once fit ``memory_limit_mb``). ``progress`` is told how far the sort got after each bucket.
    ``left_out``: the entity occurrences to leave out, sorted by id, chosen by the caller
    (``kgdiff refresh`` keeps each entity's latest revision), instead of the duplicates the
    plan finds; they are not rejects.
    """
    out = staging.fresh_final()
    plans = plan_tables(staging, threads, memory_limit_mb, bucket_bytes, left_out)
    record = left_out is None
    with without_huge_pages():
        rows = _run(plans, out, threads, progress or (lambda done, total: None), record)
    rejected = merge_rejects(staging, out)
    return Finalized(rows, rejected.file, rejected.duplicates)


def plan_tables(
    staging: Staging,
    threads: int,
    memory_limit_mb: int = DEFAULT_MEMORY_LIMIT_MB,
    bucket_bytes: int | None = None,
    left_out: Sequence[Dropped] | None = None,
) -> dict[str, list[Bucket]]:
    """The buckets of every table: ``threads`` of them sorting at once fit the memory limit
    (or each holds ``bucket_bytes`` of rows); see :mod:`kgdiff.store.buckets`. Each bucket
    leaves out the repeated ids' occurrences the plan finds, or those of ``left_out``."""
    files, entities = _part_files(staging)
    budget = bucket_bytes or bucket_budget(memory_limit_mb, threads)
    counts = {table: bucket_count(sum(f.size for f in files[table]), budget) for table in TABLES}
    quantiles = _quantiles(files["entities"], max(counts.values()), entities)
    plans = {table: plan_buckets(files[table], quantiles, counts[table]) for table in TABLES}
    return _with_dropped(plans, left_out)


def _with_dropped(
    plans: dict[str, list[Bucket]], left_out: Sequence[Dropped] | None = None
) -> dict[str, list[Bucket]]:
    """``plans`` with, in each bucket, the occurrences in its range to leave out: those of
    repeated ids, found once in the entities buckets (which cover every entity), or
    ``left_out``; for every table."""
    dropped = (
        list(left_out)
        if left_out is not None
        else [
            drop
            for bucket in plans["entities"]
            for drop in find_dropped(entity_parts(bucket), bucket.lo, bucket.hi)
        ]
    )
    if not dropped:
        return plans
    ids = [drop.loser.qid for drop in dropped]  # sorted: buckets in order, each sorted by id

    def of(bucket: Bucket) -> tuple[Dropped, ...]:
        first = 0 if bucket.lo is None else bisect.bisect_left(ids, bucket.lo)
        last = len(ids) if bucket.hi is None else bisect.bisect_left(ids, bucket.hi)
        return tuple(dropped[first:last])

    return {
        table: [replace(bucket, dropped=of(bucket)) for bucket in buckets]
        for table, buckets in plans.items()
    }
