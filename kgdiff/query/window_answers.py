"""Pools, chains and updates as answers: rows, the snapshot each date read, and why a
question found nothing (or where the pools stop)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from pathlib import Path

import duckdb
import polars as pl
import pyarrow as pa

from kgdiff.errors import UsageError
from kgdiff.query.frames import frame_of, relation_frame
from kgdiff.query.ids import why_empty
from kgdiff.query.labels import label_notes, unlabelled_in
from kgdiff.query.pool_reads import read_lines, subject_snapshot
from kgdiff.temporal.builds import Build
from kgdiff.temporal.chains import ChainQuery, stage_chains, staged_relation, staged_unlabelled
from kgdiff.temporal.dates import DateRead
from kgdiff.temporal.parts import Part
from kgdiff.temporal.pool_export import export_pools
from kgdiff.temporal.pools import (
    PoolRequest,
    Reach,
    SubjectRange,
    latest_year,
    pool_readers,
    pools_reach,
)
from kgdiff.temporal.updates import UpdatesQuery, updates_in_parts, updates_of_build
from kgdiff.temporal.writers import write_reader
from kgdiff.timetext import bound_text

UPDATE_LABELS = [
    ("subject", "subject_label"),
    ("pid", "pid_label"),
    ("new_object", "new_object_label"),
    ("old_objects", "old_objects_labels"),
]
"""The id columns of an update and their label columns."""
POOL_LABELS = [
    ("subject", "subject_label"),
    ("pid", "pid_label"),
    ("all_objects", "all_objects_labels"),
]
"""The id columns of a group's pools and their label columns."""
SHOWN_CHAINS = 25
"""Chains a caller that writes them all to a file gets back to show."""
FIRST_POOL_YEAR = 2010
"""The pools' first year by default (ChroKnowBench's), or the latest snapshot's if earlier."""


def pool_years(
    connection: duckdb.DuckDBPyConnection, from_year: int | None, to_year: int | None
) -> tuple[int, int]:
    """The pools' years: ``to_year`` by default the latest snapshot's (a usage error when
    that is before ``from_year``), ``from_year`` by default 2010 (or ``to_year`` if earlier)."""
    last = to_year if to_year is not None else latest_year(connection)
    first = from_year if from_year is not None else min(FIRST_POOL_YEAR, last)
    if first > last and to_year is None:
        raise UsageError(
            f"--from-year {first} is after {last}, the year of the latest snapshot, where the"
            " pools stop; choose an earlier --from-year, or --to-year with --allow-gap"
        )
    return first, last


def pools_table(connection: duckdb.DuckDBPyConnection, request: PoolRequest) -> pa.Table:
    """Every group of the request (one table; empty with the query's columns)."""
    tables = [reader.read_all() for reader in pool_readers(connection, request)]
    return pa.concat_tables(tables) if len(tables) > 1 else tables[0]


def reach_lines(reach: Reach, defaulted: bool) -> list[str]:
    """Where the pools stop and why, and which periods lie after the data."""
    snapshot = f"{reach.snapshot} ({reach.snapshot_date})"
    if defaulted:
        lines = [
            f"pools stop at {reach.to_year}, the year of the latest snapshot, {snapshot}: later"
            " years are beyond the data (--to-year YEAR --allow-gap answers them anyway)"
        ]
    else:
        lines = [
            f"pools stop at {reach.to_year} (--to-year); they read the latest snapshot, {snapshot}"
        ]
    after = (date(reach.to_year, 12, 31) - reach.snapshot_date).days
    if after > 0:
        lines.append(
            f"the days after {reach.snapshot_date} (up to {after:,} days after it) are beyond"
            f" the data: the pools of those periods hold what {reach.snapshot} knows, not what"
            " happened then"
        )
    return lines


def why_no_pools(
    connection: duckdb.DuckDBPyConnection,
    request: PoolRequest,
    reach: Reach,
    found: set[str],
    any_group: bool,
) -> list[str]:
    """Why some subjects asked for (``found``: those with pools) or, without subjects, all of
    them (``any_group``: some have) have no pools."""
    span = f"{request.from_year}–{request.to_year}"
    otherwise = f"none of them may be valid in {span}"
    if request.subjects:
        reasons = []
        for qid in (s for s in request.subjects if s not in found):
            read = subject_snapshot(connection, qid, reach)
            snapshot = read.snapshot if read is not None else reach.snapshot
            reasons.append(
                "no pools: " + why_empty(connection, qid, request.pid, snapshot, otherwise)
            )
        return reasons
    if any_group:
        return []
    where = reach.snapshot
    if reach.read.coverage == "subset":
        where += " (nor, for the subjects it lacks, in the latest earlier snapshot holding them)"
    return [f"no pools: no statement of {request.pid} in {where} may be valid in {span}"]


def pools_of(
    connection: duckdb.DuckDBPyConnection, request: PoolRequest, defaulted: bool
) -> tuple[pl.DataFrame, list[str]]:
    """The pools of ``request`` and the notes: where they stop, why some are missing."""
    reach = pools_reach(connection, request.to_year, request.gap)
    table = pools_table(connection, request)
    found = set(table.column("subject").to_pylist())
    notes = reach_lines(reach, defaulted) + read_lines(table, reach)
    notes += why_no_pools(connection, request, reach, found, table.num_rows > 0)
    unlabelled = unlabelled_in(table, POOL_LABELS)
    return frame_of(table), notes + label_notes(unlabelled, request.lang)


def write_pools_of(
    connection: duckdb.DuckDBPyConnection, request: PoolRequest, defaulted: bool, out: Path
) -> tuple[int, list[str]]:
    """Write the pools of ``request`` to ``out`` a batch at a time (:func:`export_pools`);
    the groups written and the notes :func:`pools_of` gives."""
    reach = pools_reach(connection, request.to_year, request.gap)
    tally = export_pools(connection, request, out, reach.snapshot)
    elsewhere = tally.read_elsewhere()
    notes = reach_lines(reach, defaulted) + (read_lines(elsewhere, reach) if elsewhere else [])
    notes += why_no_pools(connection, request, reach, tally.subjects, tally.groups > 0)
    return tally.groups, notes + label_notes(tally.unlabelled, request.lang)


def chains_of(
    connection: duckdb.DuckDBPyConnection, query: ChainQuery, ranges: Sequence[SubjectRange] = ()
) -> tuple[pl.DataFrame, DateRead, list[str]]:
    """The chains of ``query`` (all of them; their hops found a subject range of ``ranges``
    at a time), the read of its date, and the notes: why none were found, the ids shown
    without a label."""
    read = query.check_date(connection)
    found = stage_chains(connection, query, ranges)
    frame = with_start_texts(relation_frame(staged_relation(connection, None)))
    notes = [] if found else why_no_chain(connection, query, read)
    return frame, read, notes + label_notes(staged_unlabelled(connection, None), query.lang)


CHAIN_BATCH = 20_000
"""Chains converted and written at a time by :func:`write_chains_of` (a chain's hops become
Python values for their start texts: a batch bounds that memory, not the result's size)."""


def write_chains_of(
    connection: duckdb.DuckDBPyConnection,
    query: ChainQuery,
    out: Path,
    limit: int | None,
    ranges: Sequence[SubjectRange] = (),
    batch: int = CHAIN_BATCH,
) -> tuple[pl.DataFrame, int, DateRead, list[str]]:
    """Write the first ``limit`` chains of ``query`` (all when None) to ``out``, ``batch``
    at a time, never holding them all; return the first :data:`SHOWN_CHAINS` of them, how
    many were written, the read of its date and the notes (as :func:`chains_of`)."""
    read = query.check_date(connection)
    found = stage_chains(connection, query, ranges)
    empty = with_start_texts(relation_frame(staged_relation(connection, 0)))
    batches = (
        with_start_texts(frame_of(pa.Table.from_batches([batch]))).to_arrow().to_batches()
        for batch in staged_relation(connection, limit).to_arrow_reader(batch)
    )
    schema = empty.to_arrow().schema
    reader = pa.RecordBatchReader.from_batches(
        schema, (part.cast(schema) for chunk in batches for part in chunk)
    )
    written = write_reader(reader, out)
    shown = with_start_texts(relation_frame(staged_relation(connection, SHOWN_CHAINS)))
    notes = [] if found else why_no_chain(connection, query, read)
    unlabelled = staged_unlabelled(connection, limit)
    return shown, written, read, notes + label_notes(unlabelled, query.lang)


START_KEYS_SEPARATOR = "\x1f"
"""Joins a hop's start keys into one text (no time value key holds it)."""


def with_start_texts(chains: pl.DataFrame) -> pl.DataFrame:
    """``chains`` with each hop's start in words (``start_text``, :mod:`kgdiff.timetext`):
    "21 April 753 BCE (Julian)", "4.5 billion years BCE"; null without a start. Each distinct
    start is put in words once and the hops are rebuilt as columns: as Python objects the
    108,065 chains of 3 × 25 M statements took 2 GB."""
    hop_type = chains.schema["hops"]
    assert isinstance(hop_type, pl.List) and isinstance(hop_type.inner, pl.Struct)
    fields = [field.name for field in hop_type.inner.fields]
    flat = chains.select(pl.int_range(pl.len()).alias("_chain"), "hops").explode("hops")
    flat = flat.unnest("hops").with_columns(
        pl.col("start").list.join(START_KEYS_SEPARATOR).alias("_key")
    )
    keys = flat.get_column("_key").drop_nulls().unique().to_list()
    words = {key: bound_text(key.split(START_KEYS_SEPARATOR) if key else None) for key in keys}
    text = pl.col("_key").replace_strict(words, default=None, return_dtype=pl.String())
    hops = (
        flat.with_columns(text.alias("start_text"))
        .select("_chain", pl.struct([*fields, "start_text"]).alias("hops"))
        .group_by("_chain", maintain_order=True)
        .agg("hops")
        .sort("_chain")
    )
    return chains.with_columns(hops.get_column("hops"))


def why_no_chain(
    connection: duckdb.DuckDBPyConnection, query: ChainQuery, read: DateRead
) -> list[str]:
    """Why a search found no chain: one reason per subject asked for, else one in all."""
    if read.snapshot is None:
        return [f"no chain: no snapshot answers {read.day} in record time"]
    day = query.ref_date
    otherwise = f"none starts a chain valid at {day} in {read.snapshot}"
    pid = query.pids[0] if len(query.pids) == 1 else None
    if query.subjects:
        return [
            "no chain: " + why_empty(connection, s, pid, read.snapshot, otherwise)
            for s in query.subjects
        ]
    firsts = ", ".join(query.pids) or "the relation map's first properties"
    return [f"no chain: no statement of {firsts} in {read.snapshot} starts a chain valid at {day}"]


def updates_of(
    connection: duckdb.DuckDBPyConnection,
    query: UpdatesQuery,
    parts: Sequence[Part],
    build: Build | None = None,
) -> tuple[pl.DataFrame, list[DateRead], list[str]]:
    """The knowledge updates of ``query`` (from ``build``, the classification they rest on,
    when given, else classified part by part), the reads of its dates, why none were
    found."""
    reads = query.check(connection)
    if build is not None:
        found = updates_of_build(connection, query, build)
    else:
        found = updates_in_parts(connection, query, parts)
    frame = frame_of(found)
    notes = [] if frame.height else [why_no_update(query, reads)]
    unlabelled = unlabelled_in(frame.to_arrow(), UPDATE_LABELS)
    return frame, reads, notes + label_notes(unlabelled, query.lang)


def why_no_update(query: UpdatesQuery, reads: list[DateRead]) -> str:
    """Why no update was found: what an update needs, in the snapshot read."""
    read = next((r for r in reads if r.role == "current"), None)
    snapshot = read.snapshot if read is not None else None
    if snapshot is None:
        return f"no knowledge update: no snapshot at or before {query.current} to read"
    which = f" of {', '.join(query.pids)}" if query.pids else ""
    return (
        f"no knowledge update: no group{which} in {snapshot} was replaced after the cutoff"
        f" with an old statement ended by {query.current} and a new one started after"
        f" {query.cutoff} (valid time)"
    )
