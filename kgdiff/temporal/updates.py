"""AntiLeakBench knowledge updates (sql/updates/updates.sql), a subset of evolved/replaced.

The SQL calls the ``classify`` and ``entity_labels`` table macros, which the catalog defines;
on another connection :func:`kgdiff.temporal.classify.define_classify_macro` and
:func:`kgdiff.query.labels.catalog_macro` define them (the tests do). The classification the
updates rest on can also come from a build of it (:func:`updates_of_build`). The dates are read in
valid time from the latest snapshot at or before ``current``; a date the snapshots cannot
answer is refused unless the gap is allowed (:mod:`kgdiff.temporal.dates`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta

import duckdb
import pyarrow as pa
import pyarrow.compute as pc

from kgdiff.ids import DEFAULT_LANG
from kgdiff.sqlfiles import as_table_macro, load_sql, render
from kgdiff.store.layout import duckdb_glob
from kgdiff.temporal.builds import Build
from kgdiff.temporal.dates import DEFAULT_MAX_GAP, DateRead, GapPolicy
from kgdiff.temporal.parts import EVERY_GROUP, Part, merge_rows_kept
from kgdiff.temporal.window import Window, check_window

UPDATES_PARAMS = ["cutoff"]
OPTIONAL_PARAMS = {
    "current": "NULL",
    "pids": "CAST([] AS VARCHAR[])",
    "max_gap": str(DEFAULT_MAX_GAP),
    "allow_gap": "false",
    "lang": f"'{DEFAULT_LANG}'",
    "part": "'all'",
    "lo": "''",
    "hi": "''",
}
"""Optional macro parameters: only some properties, how far past the data the dates may go,
the labels' language, and which part of the groups (every one by default)."""


def catalog_macro() -> str:
    """``updates(cutoff, current := <latest snapshot's date>, pids := [], max_gap := 31,
    allow_gap := false, lang := 'en', part := 'all', lo := '', hi := '')`` for the catalog
    (after ``classify`` and ``entity_labels``)."""
    params = [*UPDATES_PARAMS, *OPTIONAL_PARAMS]
    return as_table_macro("updates/updates", "updates", params, OPTIONAL_PARAMS)


@dataclass(frozen=True)
class UpdatesQuery:
    """Which updates to find: the window, the properties (empty: all), the labels' language
    and how far past the data the dates may go."""

    cutoff: date
    current: date
    pids: Sequence[str] = ()
    lang: str = DEFAULT_LANG
    gap: GapPolicy = field(default_factory=GapPolicy)

    def check(self, connection: duckdb.DuckDBPyConnection) -> list[DateRead]:
        """The reads of both dates (valid time, the latest snapshot at or before current); a
        usage error for a wrong window or a date beyond the data the gap does not allow."""
        window = Window({"cutoff": self.cutoff, "current": self.current})
        return check_window(connection, window, "valid", self.gap)

    def params(self, part: Part = EVERY_GROUP) -> dict[str, object]:
        """The bind parameters of sql/updates/updates.sql (its dates checked already), for
        the groups of ``part`` (every one by default)."""
        return {
            "cutoff": self.cutoff,
            "current": self.current,
            "pids": list(self.pids),
            "max_gap": self.gap.max_gap,
            "allow_gap": True,
            "lang": self.lang,
            **part.values(),
        }

    def days(self) -> list[date]:
        """The dates of the classification the updates rest on (init = the cutoff's eve; a
        cutoff of 1 January of year 1 has none, and is refused later as before every snapshot)."""
        eve = self.cutoff - timedelta(days=1) if self.cutoff > date.min else date.min
        return [eve, self.cutoff, self.current]


def knowledge_updates(
    connection: duckdb.DuckDBPyConnection,
    cutoff: date,
    current: date,
    gap: GapPolicy | None = None,
) -> duckdb.DuckDBPyRelation:
    """The updates of every property as a relation (see :func:`find_updates`)."""
    return find_updates(connection, UpdatesQuery(cutoff, current, gap=gap or GapPolicy()))


def find_updates(
    connection: duckdb.DuckDBPyConnection, query: UpdatesQuery
) -> duckdb.DuckDBPyRelation:
    """The query as a relation; one row per (subject, pid, new object).

    Columns: subject, pid, new_object, old_objects, new_statement_id, new_start_lo,
    new_start_hi, old_statement_ids, old_end_hi, snapshot (the one that answered), gap_days
    (current minus its date), subject_label, pid_label, new_object_label, old_objects_labels,
    change_nature (substantive, or only reformatted or refined).
    """
    query.check(connection)
    return connection.sql(load_sql("updates/updates"), params=query.params())


def updates_in_parts(
    connection: duckdb.DuckDBPyConnection, query: UpdatesQuery, parts: Sequence[Part]
) -> pa.Table:
    """The rows of :func:`find_updates`, found part by part as a large store is classified
    (:func:`kgdiff.temporal.parts.plan_parts` with :meth:`UpdatesQuery.days`, valid time), so
    that DuckDB works on one subject range at a time; in the same order."""
    query.check(connection)
    statement = load_sql("updates/updates")
    with merge_rows_kept(connection, len(parts)):
        tables = [
            connection.execute(statement, query.params(part)).to_arrow_table() for part in parts
        ]
    if len(tables) == 1:
        return tables[0]
    found = pa.concat_tables(tables)
    order = [("subject", "ascending"), ("pid", "ascending"), ("new_object", "ascending")]
    return found.take(pc.sort_indices(found, sort_keys=order))


def updates_of_build(
    connection: duckdb.DuckDBPyConnection, query: UpdatesQuery, build: Build
) -> pa.Table:
    """The rows of :func:`find_updates`, the valid-time classification they rest on read from
    its ``build`` (of :meth:`UpdatesQuery.days`, mode ``valid``) instead of classifying the
    store again (sql/updates/build_classify.sql); an error if the build is of other dates."""
    query.check(connection)
    p = build.params
    shadow = render(
        "updates/build_classify", files=duckdb_glob(build.path), init=p.init, cutoff=p.cutoff,
        current=p.current, mode=p.mode, max_gap=DEFAULT_MAX_GAP,
    )  # fmt: skip
    connection.execute(shadow)
    try:
        return connection.execute(load_sql("updates/updates"), query.params()).to_arrow_table()
    finally:
        connection.execute(load_sql("updates/drop_build_classify"))
