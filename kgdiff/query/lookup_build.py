"""Making the lookup copy (:mod:`kgdiff.query.lookup`) range by range, in bounded memory and
in time linear in the store.

One ``CREATE TABLE … ORDER BY`` of a whole table sorted every statement of every snapshot at
once: its memory grew with the store (8.6 GB at three snapshots of 5 M statements) and so did
its time, more than linearly. The snapshots' files are sorted by subject already
(docs/data-model.md), so the copy is made in subject ranges instead, cut at row groups of the
latest snapshot's statements (:func:`subject_ranges`): each range reads only the row groups
of each snapshot that can hold its subjects, sorts a few million rows (its own, by id then
snapshot: one entity's rows of every snapshot side by side, which also compresses best) and
appends them; the tables end up sorted by id as before. DuckDB's memory is bounded
(:data:`~kgdiff.query.lookup.WRITER_MEMORY`, spilling beside the copy past it). The derived
tables are made range by range too, by the same SQL. The search index (``names``) is sorted
by language and text, not by id, so it is made a range of languages at a time
(:func:`language_ranges`), each range one sort of its labels and aliases.
"""

from __future__ import annotations

import itertools
import math
import os
import time
from collections.abc import Callable
from pathlib import Path

import duckdb

from kgdiff.query.lookup import (
    DERIVED_TABLES,
    INDEX_TABLES,
    SORTED_TABLES,
    SPILL_PREFIX,
    lookup_folder,
    lookup_path,
    made_whole,
    writing_beside_catalog,
)
from kgdiff.sqlfiles import load_sql, render
from kgdiff.store.layout import StoreLayout
from kgdiff.store.snapshots import list_snapshots
from kgdiff.temporal.helper_macros import time_macros
from kgdiff.temporal.parts import PAST_EVERY_SUBJECT
from kgdiff.temporal.parts import subject_ranges as cut_ranges
from kgdiff.temporal.timeline import catalog_macro as timeline_macro

ROWS_PER_RANGE = 4_000_000
"""Statements (of every snapshot) a range of the copy reads at most, about: its sort stays
within the writer's memory."""
OWN_SQL = frozenset({"entities", "statements", "labels"})
"""Copied tables with SQL of their own (``sql/lookup/copy_<name>[_empty].sql``): of the
entities and the statements the columns the lookups read only, the labels once for all the
snapshots that repeat them (read through a view with the catalog's columns,
``sql/lookup/copy_labels_view.sql``)."""
NAMES_PER_RANGE = 20_000_000
"""Labels and aliases (of every snapshot) a range of the search index reads at most, about:
its DISTINCT and sort stay within the writer's memory (every language at once ran out of
1 GB at 3 × 100 M statements)."""
Progress = Callable[[str], None]
Range = tuple[str, str]


def build_lookup(layout: StoreLayout, tag: str, progress: Progress | None = None) -> Path:
    """Make the lookup copy of ``tag`` unless it exists; return its path.

    Written to a temporary file and renamed, so a reader never sees half a copy; older
    copies of the store are removed once the new one is in place.
    """
    target = lookup_path(layout, tag)
    if target.is_file():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    _remove_orphans(target.parent)
    made_whole(target, lambda partial: _fill(layout, partial, tag, progress or (lambda _: None)))
    for older in lookup_folder(layout).glob("*.duckdb"):
        if not older.name.startswith(target.stem):  # its facts copies stay with it
            older.unlink(missing_ok=True)
    return target


def subject_ranges(
    connection: duckdb.DuckDBPyConnection, layout: StoreLayout, rows: int = ROWS_PER_RANGE
) -> list[Range]:
    """Subject ranges [lo, hi) that together hold every id, each about ``rows`` statements
    of all snapshots, cut at row groups of the latest snapshot's statements files."""
    total = sum(m.counts.get("statements", 0) for m in list_snapshots(layout))
    return cut_ranges(connection, layout, math.ceil(total / rows))


def language_ranges(connection: duckdb.DuckDBPyConnection, rows: int | None = None) -> list[Range]:
    """Ranges [lo, hi) of the labels' languages that together hold every one, each of about
    ``rows`` (:data:`NAMES_PER_RANGE`) labels and aliases (more when one language alone has
    more: it is never split)."""
    rows = rows or NAMES_PER_RANGE
    edges, held = [""], 0
    for lang, count in connection.execute(load_sql("lookup/names_languages")).fetchall():
        if held and held + int(count) > rows:
            edges.append(str(lang))
            held = 0
        held += int(count)
    return list(itertools.pairwise([*edges, PAST_EVERY_SUBJECT]))


def _fill(layout: StoreLayout, partial: Path, tag: str, progress: Progress) -> None:
    with writing_beside_catalog(layout, partial, "lookup") as connection:
        # the timelines are made by this version's SQL even when the catalog was written by
        # an older kgdiff (whose `timeline` macro gives other columns, and which may lack
        # the time value macros it calls): temporary macros of the same names come first
        for macro in [*time_macros(), timeline_macro()]:
            connection.execute(macro.replace("OR REPLACE MACRO", "OR REPLACE TEMP MACRO"))
        connection.execute(load_sql("lookup/copy_snapshots"))
        ranges = subject_ranges(connection, layout)
        for table, key in SORTED_TABLES.items():
            _made(connection, table, *_copy_sql(table, key), ranges, progress)
        for table in DERIVED_TABLES:
            create = load_sql(f"lookup/copy_{table}_empty")
            _made(connection, table, create, load_sql(f"lookup/copy_{table}"), ranges, progress)
    # The index on a connection of its own: made alone at 3 x 100 M it took 1.2 GB, but after
    # the tables above, on their connection, it ran out of the writer's memory (bench/README.md)
    with writing_beside_catalog(layout, partial, "lookup") as connection:
        for table in INDEX_TABLES:  # sorted by language first: made a range of them at a time
            create = load_sql(f"lookup/copy_{table}_empty")
            append = load_sql(f"lookup/copy_{table}")
            _made(connection, table, create, append, language_ranges(connection), progress)
        connection.execute(load_sql("lookup/stamp"), {"tag": tag})


def _copy_sql(table: str, key: str) -> tuple[str, str]:
    """The statements that create the copy of ``table`` empty and append a range of it."""
    if table == "labels":  # a table and the view of it that the questions read
        create = load_sql("lookup/copy_labels_empty") + load_sql("lookup/copy_labels_view")
        return create, load_sql("lookup/copy_labels")
    if table in OWN_SQL:
        return load_sql(f"lookup/copy_{table}_empty"), load_sql(f"lookup/copy_{table}")
    create = render("lookup/copy_table_empty", table=table)
    return create, render("lookup/copy_table_range", table=table, key=key)


def _made(
    connection: duckdb.DuckDBPyConnection,
    table: str,
    create: str,
    append: str,
    ranges: list[Range],
    progress: Progress,
) -> None:
    """Create ``table`` empty, then append each range's rows; a line of progress."""
    started = time.monotonic()
    connection.execute(create)
    for lo, hi in ranges:
        connection.execute(append, {"lo": lo, "hi": hi})
    rows = connection.execute(f"SELECT count(*) FROM lookup.{table}").fetchone()
    count = int(rows[0]) if rows else 0
    seconds = time.monotonic() - started
    progress(f"lookup copy: {table}, {count:,} rows in {seconds:.1f} s ({len(ranges)} ranges)")


def _remove_orphans(folder: Path) -> None:
    """Remove the partial copies (and their WALs, and their spill folders) of builds whose
    process is gone (killed before its cleanup ran); a live process's are left to it."""
    for partial in [*folder.glob(".*.duckdb.tmp-*"), *folder.glob(f"{SPILL_PREFIX}*")]:
        pid = partial.name.rsplit("-", 1)[-1].removesuffix(".wal")
        if pid.isdigit() and not _running(int(pid)):
            if partial.is_dir():
                for spilled in partial.iterdir():
                    spilled.unlink(missing_ok=True)
                partial.rmdir()
            else:
                partial.unlink(missing_ok=True)


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
