"""AntiLeakBench knowledge updates (sql/updates/updates.sql), a subset of evolved/replaced.

The SQL calls the ``classify`` and ``entity_labels`` table macros, which the catalog defines;
on another connection :func:`kgdiff.temporal.classify.define_classify_macro` and
:func:`kgdiff.query.labels.catalog_macro` define them (the tests do). The dates are read in
valid time from the latest snapshot at or before ``current``; a date the snapshots cannot
answer is refused unless the gap is allowed (:mod:`kgdiff.temporal.dates`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date

import duckdb

from kgdiff.errors import UsageError
from kgdiff.query.labels import DEFAULT_LANG
from kgdiff.sqlfiles import as_table_macro, load_sql
from kgdiff.temporal.dates import DEFAULT_MAX_GAP, DateRead, GapPolicy, check_answerable

UPDATES_PARAMS = ["cutoff"]
OPTIONAL_PARAMS = {
    "current": "NULL",
    "pids": "CAST([] AS VARCHAR[])",
    "max_gap": str(DEFAULT_MAX_GAP),
    "allow_gap": "false",
    "lang": f"'{DEFAULT_LANG}'",
}
"""Optional macro parameters: only some properties, how far past the data the dates may go,
and the labels' language."""


def catalog_macro() -> str:
    """``updates(cutoff, current := <latest snapshot's date>, pids := [], max_gap := 31,
    allow_gap := false, lang := 'en')`` for the catalog (after ``classify`` and
    ``entity_labels``)."""
    params = [*UPDATES_PARAMS, *OPTIONAL_PARAMS]
    return as_table_macro("updates/updates", "updates", params, OPTIONAL_PARAMS)


def check_window(cutoff: date, current: date) -> None:
    """Raise :class:`UsageError` unless cutoff < current."""
    if not cutoff < current:
        raise UsageError(f"dates must satisfy cutoff < current (got {cutoff}, {current})")


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
        check_window(self.cutoff, self.current)
        days = {"cutoff": self.cutoff, "current": self.current}
        return check_answerable(connection, days, "valid", self.gap, as_of=self.current)

    def params(self) -> dict[str, object]:
        """The bind parameters of sql/updates/updates.sql (its dates checked already)."""
        return {
            "cutoff": self.cutoff,
            "current": self.current,
            "pids": list(self.pids),
            "max_gap": self.gap.max_gap,
            "allow_gap": True,
            "lang": self.lang,
        }


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
    (current minus its date), subject_label, pid_label, new_object_label, old_objects_labels.
    """
    query.check(connection)
    return connection.sql(load_sql("updates/updates"), params=query.params())
