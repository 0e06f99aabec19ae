"""Making the lookup copy (:mod:`kgdiff.query.lookup`) range by range, in bounded memory and
in time linear in the store.

One ``CREATE TABLE … ORDER BY`` of a whole table sorted every statement of every snapshot at
once: its memory grew with the store (8.6 GB at three snapshots of 5 M statements) and so did
its time, more than linearly. The snapshots' files are sorted by subject already
(docs/data-model.md), so the copy is made in subject ranges instead, cut at row groups of the
latest snapshot's statements (:func:`subject_ranges`): each range reads only the row groups
of each snapshot that can hold its subjects, sorts a few million rows (its own, by id then
snapshot: one entity's rows of every snapshot side by side, which also compresses best) and
writes them into a schema of its own (``r00000``, ``r00001``, …), so that a question about one
entity reads its range's tables, of a bounded size, instead of walking every row group of the
store's (:class:`~kgdiff.query.lookup_ranges.ShardMap`); ``main`` joins the ranges' tables in views
for the questions about many entities. DuckDB's memory is bounded
(:data:`~kgdiff.query.lookup.WRITER_MEMORY`, spilling beside the copy past it). The derived
tables are made range by range too, by the same SQL. The search index (``names``) is sorted
by language and text, not by id, so it is made a range of languages at a time
(:func:`language_ranges`), each range one sort of its labels and aliases. The labels a
timeline shows of its values are joined once for the whole copy and kept beside each range's
timelines (:func:`_value_labels`).
"""

from __future__ import annotations

import functools
import itertools
import math
import time
from collections.abc import Callable
from pathlib import Path

import duckdb

from kgdiff.ids import DEFAULT_LANG
from kgdiff.query.lookup import (
    DERIVED_TABLES,
    INDEX_TABLES,
    SHARDED_TABLES,
    SORTED_TABLES,
    SPILL_PREFIX,
    attach_again,
    lookup_folder,
    lookup_path,
    made_whole,
    writing_beside_catalog,
)
from kgdiff.query.lookup_ranges import Shard, ShardMap, shard_schema
from kgdiff.sqlfiles import load_sql, quote, render
from kgdiff.store.layout import StoreLayout
from kgdiff.store.liveness import ProcessMark, is_running
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
Settle = Callable[[], None]
"""Called after each range is written: lets go of what DuckDB keeps of the rows written
(:func:`~kgdiff.query.lookup.attach_again`), so the writer's memory does not grow with the copy."""
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
    connection: duckdb.DuckDBPyConnection, layout: StoreLayout, rows: int | None = None
) -> list[Range]:
    """Subject ranges [lo, hi) that together hold every id, each about ``rows``
    (:data:`ROWS_PER_RANGE`) statements of all snapshots, cut at row groups of the latest
    snapshot's statements files."""
    rows = rows or ROWS_PER_RANGE
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
        settle = functools.partial(attach_again, connection, partial, "lookup")
        # the timelines are made by this version's SQL even when the catalog was written by
        # an older kgdiff (whose `timeline` macro gives other columns, and which may lack
        # the time value macros it calls): temporary macros of the same names come first
        for macro in [*time_macros(), timeline_macro()]:
            connection.execute(macro.replace("OR REPLACE MACRO", "OR REPLACE TEMP MACRO"))
        connection.execute(load_sql("lookup/copy_snapshots"))
        shards = _shards(connection, subject_ranges(connection, layout))
        for table, key in SORTED_TABLES.items():
            create, append, names = _copy_sql(table, key)
            _made(connection, table, create, append, shards, settle, progress, names)
        for table in DERIVED_TABLES:
            create, append = f"lookup/copy_{table}_empty", f"lookup/copy_{table}"
            _made(connection, table, create, append, shards, settle, progress)
        _join_shards(connection, shards)
        # the scratch is named as a partial copy is: a killed build's is removed as its copy is
        scratch = partial.with_name(partial.name.replace(".tmp-", ".tmp-labels-"))
        _value_labels(connection, shards, settle, progress, scratch)
    # The index on a connection of its own: made alone at 3 x 100 M it took 1.2 GB, but after
    # the tables above, on their connection, it ran out of the writer's memory (bench/README.md)
    with writing_beside_catalog(layout, partial, "lookup") as connection:
        settle = functools.partial(attach_again, connection, partial, "lookup")
        for table in INDEX_TABLES:  # sorted by language first: made a range of them at a time
            create = load_sql(f"lookup/copy_{table}_empty")
            append = load_sql(f"lookup/copy_{table}")
            ranges = language_ranges(connection)
            _made_whole(connection, table, create, append, ranges, settle, progress)
        connection.execute(load_sql("lookup/stamp"), {"tag": tag})


def _shards(connection: duckdb.DuckDBPyConnection, ranges: list[Range]) -> list[Shard]:
    """A schema of the copy for each subject range (its tables are made in it), and the
    table ``shards`` that says which range each holds."""
    shards = [Shard(shard_schema(index), lo, hi) for index, (lo, hi) in enumerate(ranges)]
    for shard in shards:
        connection.execute(f'CREATE SCHEMA lookup."{shard.name}"')
    ShardMap(shards).write(connection, "lookup")
    return shards


def _join_shards(connection: duckdb.DuckDBPyConnection, shards: list[Shard]) -> None:
    """Each sharded table as a view in ``main`` over every range's part, and ``labels``
    over it (the questions about many entities read these)."""
    for table in SHARDED_TABLES:  # as many parts as ranges: the statement is put together here
        parts = [render("lookup/shard_view", shard=s.name, table=table) for s in shards]
        connection.execute(f'CREATE VIEW lookup.main."{table}" AS ' + "\nUNION ALL\n".join(parts))
    connection.execute(render("lookup/copy_labels_view", shard="main"))


def _value_labels(
    connection: duckdb.DuckDBPyConnection,
    shards: list[Shard],
    settle: Settle,
    progress: Progress,
    scratch: Path,
) -> None:
    """The labels the timelines show of their values, in the default language: each entity's
    latest label found a range at a time (``sql/lookup/copy_latest_labels.sql``), joined once
    for the whole copy (``sql/lookup/copy_value_labels_all.sql``) and sorted by subject, then
    kept a subject range at a time beside the range's timelines, so that a timeline reads its
    values' labels in one query of its own range instead of one scan of every range's labels
    its values are in. Each step is linear in the copy (a hash join on the labels, a sort, a
    read of each range's row groups). The steps' tables live in the database ``scratch``,
    removed after: dropped in the copy, their blocks stayed in its file (412 MB at 3 x 25 M)."""
    started = time.monotonic()
    connection.execute(f"ATTACH {quote(str(scratch))} AS scratch")
    try:
        connection.execute(load_sql("lookup/copy_latest_labels_empty"))
        for shard in shards:
            latest = render("lookup/copy_latest_labels", shard=shard.name)
            connection.execute(latest, {"lang": DEFAULT_LANG})
        connection.execute(load_sql("lookup/copy_value_labels_all"))
        connection.execute(load_sql("lookup/copy_value_labels_sorted"))
        for shard in shards:
            range_sql = render("lookup/copy_value_labels", shard=shard.name)
            connection.execute(range_sql, {"lo": shard.lo, "hi": shard.hi})
            settle()
        rows = connection.execute("SELECT count(*) FROM scratch.value_labels_all").fetchone()
    finally:
        connection.execute("DETACH scratch")
        for made in (scratch, Path(f"{scratch}.wal")):
            made.unlink(missing_ok=True)
    _tell(progress, "value_labels", int(rows[0]) if rows else 0, started, f"{len(shards)} ranges")


def _copy_sql(table: str, key: str) -> tuple[str, str, dict[str, str]]:
    """The SQL files that create a range's part of ``table`` empty and fill it, and the
    identifiers they need besides the range's schema."""
    if table in OWN_SQL:
        return f"lookup/copy_{table}_empty", f"lookup/copy_{table}", {}
    return "lookup/copy_table_empty", "lookup/copy_table_range", {"table": table, "key": key}


def _made(
    connection: duckdb.DuckDBPyConnection,
    table: str,
    create: str,
    append: str,
    shards: list[Shard],
    settle: Settle,
    progress: Progress,
    names: dict[str, str] | None = None,
) -> None:
    """Make ``table`` in each range's schema: created empty, then filled with the range's
    rows (the labels with their view), settled after each range; a line of progress."""
    started, count, names = time.monotonic(), 0, names or {}
    stored = "label_rows" if table == "labels" else table
    for shard in shards:
        connection.execute(render(create, shard=shard.name, **names))
        if table == "labels":
            connection.execute(render("lookup/copy_labels_view", shard=shard.name))
        range_sql = render(append, shard=shard.name, **names)
        connection.execute(range_sql, {"lo": shard.lo, "hi": shard.hi})
        rows = connection.execute(f'SELECT count(*) FROM lookup."{shard.name}"."{stored}"')
        count += int((rows.fetchone() or (0,))[0])
        settle()
    once = "; each once for the snapshots holding it" if table == "labels" else ""
    _tell(progress, table, count, started, f"{len(shards)} ranges{once}")


def _made_whole(
    connection: duckdb.DuckDBPyConnection,
    table: str,
    create: str,
    append: str,
    ranges: list[Range],
    settle: Settle,
    progress: Progress,
) -> None:
    """Create ``table`` (one table, in ``main``) empty, then append each range's rows,
    settled after each; a line of progress."""
    started = time.monotonic()
    connection.execute(create)
    for lo, hi in ranges:
        connection.execute(append, {"lo": lo, "hi": hi})
        settle()
    rows = connection.execute(f"SELECT count(*) FROM lookup.{table}").fetchone()
    _tell(progress, table, int(rows[0]) if rows else 0, started, f"{len(ranges)} ranges")


def _tell(progress: Progress, table: str, rows: int, started: float, ranges: str) -> None:
    """The line of progress of a table made (``ranges``: how, in parentheses)."""
    seconds = time.monotonic() - started
    progress(f"lookup copy: {table}, {rows:,} rows in {seconds:.1f} s ({ranges})")


def _remove_orphans(folder: Path) -> None:
    """Remove the partial copies (and their WALs, and their spill folders) of builds whose
    process is gone (killed before its cleanup ran); a live process's are left to it."""
    for partial in [*folder.glob(".*.duckdb.tmp-*"), *folder.glob(f"{SPILL_PREFIX}*")]:
        pid = partial.name.rsplit("-", 1)[-1].removesuffix(".wal")
        if pid.isdigit() and not is_running(ProcessMark(int(pid))):
            if partial.is_dir():
                for spilled in partial.iterdir():
                    spilled.unlink(missing_ok=True)
                partial.rmdir()
            else:
                partial.unlink(missing_ok=True)
