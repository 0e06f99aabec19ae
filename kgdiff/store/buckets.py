"""Cut a table's finalize sort into subject ranges (buckets) that each fit in memory.

Sorting a table bigger than memory needs spilling and merging; sorting each range of
subjects on its own, into its own file, keeps every sort in memory, and the files, in
order, are the sorted table. The ranges are (sampled) quantiles of the entity ids, and a
bucket reads only the part files whose subject range (recorded by the parse worker, see
:func:`key_ranges`) overlaps it, so a dump in roughly id order (as Wikidata's are, shard
by shard) is read about once whatever the number of buckets. When the parts' ranges
overlap too much for that, the plan uses fewer buckets rather than read everything many
times.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import pyarrow as pa
import pyarrow.compute as pc

from kgdiff.store.occurrences import Dropped

KEY_COLUMNS = {
    "entities": "qid",
    "labels": "qid",
    "sitelinks": "qid",
    "statements": "subject",
    "qualifiers": "subject",
}
"""The subject column of each snapshot table: the first sort key, the bucket key."""

SORT_MEMORY_FACTOR = 3
"""Memory a bucket's sort holds per byte of its rows: the rows, their sorted copy, and the
sort indices and Parquet writer buffers."""

MAX_BUCKET_BYTES = 128 << 20
"""Largest bucket, whatever the memory limit. Measured on 1 GB of dump (2026-11-22): with
~170 MB buckets the finalize spent 2-5 s per GB in the kernel faulting in fresh zeroed
memory for its big sort buffers, with 128 MB buckets under 1.4 s, at a third less peak
memory; the extra reads of parts that straddle more bucket bounds cost less than that."""

MAX_READ_AMPLIFICATION = 4.0
"""How many times over the plan may read a table's parts, in total, to get smaller buckets."""


@dataclass(frozen=True, slots=True)
class PartFile:
    """One part file of a table, the size of its rows, and the range of subjects in its chunk."""

    path: str
    size: int
    """Bytes of the rows in memory (or of the file, when unknown): what buckets budget."""
    key_ranges: list[tuple[str, str]] | None
    """Smallest and largest subject of each kind in the chunk (see :func:`key_ranges`);
    None when unknown (read the file for every bucket)."""


@dataclass(frozen=True, slots=True)
class Bucket:
    """A range of subjects, ``lo`` inclusive to ``hi`` exclusive (None: unbounded), and the
    part files that may hold rows in it."""

    lo: str | None
    hi: str | None
    files: list[str]
    size: float = 0.0
    """Estimated bytes of its rows: each part's size split evenly over the buckets it touches."""
    dropped: tuple[Dropped, ...] = ()
    """The occurrences of repeated entity ids in its range that are left out (found once
    for every table by the plan: :func:`kgdiff.store.finalize.plan_tables`)."""


def key_ranges(tables: Mapping[str, pa.Table]) -> list[tuple[str, str]]:
    """The smallest and largest entity id of each kind (first letter: ``L``, ``P``, ``Q``,
    ...) and length in a chunk's entities table, ordered by the smallest; empty when it has
    no rows.

    The entities table is enough: every row of the other tables has the id of an entity
    of the same chunk as its subject, or (statements of lexeme forms and senses) that id
    followed by ``-F1``/``-S1``, which no other entity id sorts between, so bucket bounds
    (entity ids) never separate them from their lexeme. One range per kind, because a
    dump interleaves kinds (properties among items) and ``P…`` to ``Q…`` would cover
    every item id below the chunk's largest; and per length, because ids sort as text: a
    chunk holding ``Q9999`` and ``Q10000`` would otherwise cover ``Q10000`` to ``Q9999``,
    nearly every item, and be read for every bucket.
    """
    table = tables.get("entities")
    if table is None or not table.num_rows:
        return []
    # A chunk holds a few thousand ids in one to three groups: a plain loop costs less
    # than importing Acero for a group-by (~0.1 CPU-s per ingest, in two processes).
    bounds: dict[tuple[str, int], tuple[str, str]] = {}
    for key in table.column(KEY_COLUMNS["entities"]).to_pylist():
        group = (key[:1], len(key))
        seen = bounds.get(group)
        if seen is None:
            bounds[group] = (key, key)
        elif key < seen[0]:
            bounds[group] = (key, seen[1])
        elif key > seen[1]:
            bounds[group] = (seen[0], key)
    return sorted(bounds.values())


def in_range_mask(
    values: pa.Array | pa.ChunkedArray, lo: str | None, hi: str | None
) -> pa.BooleanArray | pa.ChunkedArray | None:
    """Which ``values`` lie in the bucket range ``[lo, hi)`` (False for nulls); None when
    the range is unbounded and every value is in it."""
    if lo is None and hi is None:
        return None
    mask = pc.is_valid(values)  # and_kleene: False and null is False, so no nulls remain
    if lo is not None:
        mask = pc.and_kleene(mask, pc.greater_equal(values, lo))
    if hi is not None:
        mask = pc.and_kleene(mask, pc.less(values, hi))
    return mask


def bucket_budget(memory_limit_mb: int, threads: int) -> int:
    """Bytes of rows per bucket when ``threads`` buckets sort at once in ``memory_limit_mb``
    (at most :data:`MAX_BUCKET_BYTES`)."""
    share = (memory_limit_mb << 20) // (SORT_MEMORY_FACTOR * max(1, threads))
    return max(1, min(MAX_BUCKET_BYTES, share))


def bucket_count(part_bytes: int, budget: int) -> int:
    """The power of two of buckets that keeps each within ``budget`` bytes of part files."""
    wanted = max(1, math.ceil(part_bytes / max(1, budget)))
    return 1 << (wanted - 1).bit_length()


def _overlapping(bounds: Sequence[str], ranges: list[tuple[str, str]] | None) -> set[int]:
    """Indexes of the buckets (cut at ``bounds``) that a part with subjects in ``ranges``
    touches."""
    if ranges is None:
        return set(range(len(bounds) + 1))
    touched: set[int] = set()
    for first, last in ranges:
        touched.update(
            range(bisect.bisect_right(bounds, first), bisect.bisect_right(bounds, last) + 1)
        )
    return touched


def read_amplification(files: Sequence[PartFile], bounds: Sequence[str]) -> float:
    """How many times the parts are read in all, when cut into buckets at ``bounds``."""
    total = sum(f.size for f in files) or 1
    return sum(f.size * len(_overlapping(bounds, f.key_ranges)) for f in files) / total


def ranges_overlap(ranges: Sequence[tuple[str, str]], lo: str | None, hi: str | None) -> bool:
    """Whether any ``(first, last)`` range of subjects meets the bucket ``[lo, hi)``."""
    return any((hi is None or first < hi) and (lo is None or last >= lo) for first, last in ranges)


def every_nth(bounds: Sequence[str], count: int) -> list[str]:
    """The cuts for ``count`` buckets out of the cuts of ``len(bounds) + 1`` (powers of two)."""
    stride = (len(bounds) + 1) // count
    return [bounds[i] for i in range(stride - 1, len(bounds), stride)]


def plan_buckets(files: Sequence[PartFile], quantiles: Sequence[str], count: int) -> list[Bucket]:
    """Buckets for one table: ``count`` of them at most (a power of two dividing
    ``len(quantiles) + 1``), fewer when reading the parts for each would cost too much."""
    count = min(count, len(quantiles) + 1)
    while count > 1:
        bounds = sorted(set(every_nth(quantiles, count)))
        if read_amplification(files, bounds) <= MAX_READ_AMPLIFICATION:
            break
        count //= 2
    bounds = sorted(set(every_nth(quantiles, count))) if count > 1 else []
    members: list[list[str]] = [[] for _ in range(len(bounds) + 1)]
    sizes = [0.0] * (len(bounds) + 1)
    for part in files:
        touched = sorted(_overlapping(bounds, part.key_ranges))
        for index in touched:
            members[index].append(part.path)
            sizes[index] += part.size / len(touched)
    edges: list[str | None] = [None, *bounds, None]
    return [
        Bucket(lo, hi, paths, size)
        for lo, hi, paths, size in zip(edges[:-1], edges[1:], members, sizes, strict=True)
        if paths
    ]
