"""Classify a large store part by part, so that DuckDB stays within its memory limit.

``sql/classify/classify.sql`` classifies one part of the groups at a time: the groups
of a subject range that no merge touches, or every group a merge touches; together
the parts are exactly the whole classification. Ranges are cut at row-group
boundaries of the statements file of the latest snapshot read (sorted by subject), so
each part scans only the row groups that can hold its subjects. The parts are written
as separate Parquet files, read together with a glob.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import duckdb

from kgdiff.sqlfiles import load_sql, render
from kgdiff.store.delta import chain
from kgdiff.store.layout import StoreLayout, table_files
from kgdiff.store.manifest import Manifest
from kgdiff.store.optimizers import disabled_setting
from kgdiff.store.snapshots import list_snapshots
from kgdiff.store.store_root import open_catalog

ROWS_PER_PART = 8_000_000
"""Statements read per part: DuckDB peaks at about 2.5 GB for that many (bench/)."""
PAST_EVERY_SUBJECT = "\U0010ffff"
"""Upper bound of the last range: sorts after every entity id."""
PLANNER_SETTING = disabled_setting("build_side_probe_side")
"""DuckDB's estimates through the catalog views are poor; without this setting it builds
hash tables on millions of statements instead of on the few snapshots read and runs out of
memory (3 × 20 M benchmark)."""

CLASSIFY_MEMORY = "3GB"
"""DuckDB's memory limit while a store is classified (its default is 80 % of the machine's
memory): a part's peak of about 2.5 GB fits, and the process stays within the 4 GB a step
may take at any size (issue 36; ``kgdiff classify --mode valid`` of 3 × 25 M statements
peaked at 4.1 GB under the default)."""

PartDone = Callable[[int, int], None]
"""Called with (parts done, parts in all) after each part."""


@dataclass(frozen=True)
class Part:
    """One part of the groups: ``all``, a subject ``range`` [lo, hi), or ``merged``."""

    kind: str
    lo: str = ""
    hi: str = ""

    def values(self) -> dict[str, str]:
        """The bind values of ``$part``, ``$lo`` and ``$hi``."""
        return {"part": self.kind, "lo": self.lo, "hi": self.hi}


EVERY_GROUP = Part("all")


def cut(bounds: list[str], count: int) -> list[Part]:
    """``count`` subject ranges cut at some of ``bounds`` (sorted), then the merged part."""
    if count <= 1 or not bounds:
        return [EVERY_GROUP]
    inner = sorted({bounds[len(bounds) * i // count] for i in range(1, count)} - {""})
    if not inner:
        return [EVERY_GROUP]
    edges = ["", *inner, PAST_EVERY_SUBJECT]
    return [Part("range", lo, hi) for lo, hi in itertools.pairwise(edges)] + [Part("merged")]


@contextmanager
def classifying(
    layout: StoreLayout,
    opener: Callable[[StoreLayout], duckdb.DuckDBPyConnection] = open_catalog,
    memory: str = CLASSIFY_MEMORY,
) -> Iterator[duckdb.DuckDBPyConnection]:
    """A connection to the store's catalog (opened by ``opener``) set for classifying it in
    parts: the planner held to good join sides (:data:`PLANNER_SETTING`), DuckDB to
    ``memory`` (:data:`CLASSIFY_MEMORY` unless the caller's own budget is smaller), and the
    rows merges are read from kept once for all parts (sql/classify/merge_rows_kept.sql)."""
    with opener(layout) as connection:
        connection.execute(f"SET memory_limit = '{memory}'")
        set_for_parts(connection)
        yield connection


def set_for_parts(connection: duckdb.DuckDBPyConnection) -> None:
    """Set a catalog connection for running a classification's parts: the planner held to
    good join sides (:data:`PLANNER_SETTING`), the rows merges are read from kept once for
    all parts (sql/classify/merge_rows_kept.sql)."""
    connection.execute(PLANNER_SETTING)
    connection.execute(load_sql("classify/merge_rows_kept"))


@contextmanager
def merge_rows_kept(connection: duckdb.DuckDBPyConnection, parts: int) -> Iterator[None]:
    """Keep the rows merges are read from on ``connection`` while ``parts`` parts run (when
    more than one, and unless the connection keeps them already), dropped afterwards: for a
    connection that outlives the parts, such as a graph cursor of the service."""
    if parts < 2 or connection.execute(load_sql("classify/merge_rows_present")).fetchall():
        yield
        return
    connection.execute(load_sql("classify/merge_rows_kept"))
    try:
        yield
    finally:
        connection.execute(load_sql("classify/merge_rows_dropped"))


def snapshots_read(manifests: list[Manifest], days: list[date], mode: str) -> list[Manifest]:
    """The snapshots a classification reads (as ``reads`` in classify.sql; only sizes parts)."""
    ordered = sorted(manifests, key=lambda m: (m.date, m.name))
    wanted = days if mode != "valid" else []
    if mode != "record":
        wanted = [*wanted, days[-1]]
    read = {}
    for day in wanted:
        before = [m for m in ordered if date.fromisoformat(m.date) <= day]
        if before:
            read[before[-1].name] = before[-1]
    return list(read.values())


def plan_parts(
    connection: duckdb.DuckDBPyConnection,
    layout: StoreLayout,
    manifests: list[Manifest],
    days: list[date],
    mode: str,
) -> list[Part]:
    """The parts for classifying at ``days`` (init, cutoff, current) in ``mode``."""
    read = snapshots_read(manifests, days, mode)
    rows = sum(m.counts.get("statements", 0) for m in read)
    count = math.ceil(rows / ROWS_PER_PART)
    if count <= 1:
        return [EVERY_GROUP]
    latest = max(read, key=lambda m: (m.date, m.name))
    # a delta's own files hold its changed entities only: its chain's whole snapshot is cut
    stored = chain({m.name: m for m in manifests}, latest.name)[-1]
    files = [str(path) for path in table_files(layout.snapshot_dir(stored), "statements")]
    found = connection.execute(load_sql("classify/part_bounds"), {"files": files})
    return cut([str(row[0]) for row in found.fetchall()], count)


def subject_ranges(
    connection: duckdb.DuckDBPyConnection, layout: StoreLayout, count: int
) -> list[tuple[str, str]]:
    """About ``count`` subject ranges [lo, hi) that together hold every id, cut at row groups
    of the latest snapshot's statements files (of its chain's whole snapshot when it is a
    delta, whose own files hold its changed entities only); one range when ``count`` is 1
    or less."""
    manifests = list_snapshots(layout)
    if count <= 1 or not manifests:
        return [("", PAST_EVERY_SUBJECT)]
    latest = max(manifests, key=lambda m: (m.date, m.name))
    stored = chain({m.name: m for m in manifests}, latest.name)[-1]
    files = [str(path) for path in table_files(layout.snapshot_dir(stored), "statements")]
    found = connection.execute(load_sql("classify/part_bounds"), {"files": files}).fetchall()
    parts = cut([str(row[0]) for row in found if row[0] is not None], count)
    return [(part.lo, part.hi) for part in parts if part.kind == "range"] or [
        ("", PAST_EVERY_SUBJECT)
    ]


def latest_ranges(
    connection: duckdb.DuckDBPyConnection, layout: StoreLayout, per_range: int
) -> tuple[tuple[str, str], ...]:
    """Subject ranges of about ``per_range`` statements of the latest snapshot each
    (:func:`subject_ranges`); none when it has no more than that."""
    latest = max(list_snapshots(layout), key=lambda m: (m.date, m.name), default=None)
    statements = latest.counts.get("statements", 0) if latest is not None else 0
    count = math.ceil(statements / per_range)
    return tuple(subject_ranges(connection, layout, count)) if count > 1 else ()


def classify_in_parts(
    connection: duckdb.DuckDBPyConnection,
    values: dict[str, object],
    parts: list[Part],
    folder: Path,
    on_part: PartDone | None = None,
) -> list[Path]:
    """Write each part's classification (``values``: init, cutoff, current, mode) into
    ``folder`` as ``part-NNNNN.parquet``, in order; return the files.

    The connection needs the ``classify`` macro (the catalog has it). Each part covers
    its own subjects (the part of merged groups comes last). Joining the parts into one
    file would cost more than an eighth of the whole run, so they stay apart.
    """
    folder.mkdir(parents=True, exist_ok=True)
    files = [folder / f"part-{index:05d}.parquet" for index in range(len(parts))]
    for index, (part, file) in enumerate(zip(parts, files, strict=True), start=1):
        statement = render("classify/classify_build", out=str(file))
        connection.execute(statement, values | part.values())
        if on_part:
            on_part(index, len(parts))
    return files
