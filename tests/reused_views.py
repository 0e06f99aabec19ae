"""One DuckDB connection for every example of a property test over reference snapshots.

:func:`load` (imported by the tests as ``tests.test_classify.load``) makes a connection's
views and macros (the classification's, and with ``query_macros`` those of
tests/query_macros.py) from reference snapshots: the connection, views and macros cost about
as much as one classification of a small history. :class:`LoadedOnce` makes them once per
test, and each example registers its own rows in place of the last example's (the views and
macros read whatever rows are registered when a query runs), so every example still sees
exactly its own data.
"""

from __future__ import annotations

import dataclasses

import duckdb
import pyarrow as pa

from kgdiff.temporal.classify import define_classify_macro
from tests.query_macros import add_query_macros
from tests.temporal_reference import Row, Snapshot

ROW_FIELDS = [f.name for f in dataclasses.fields(Row)]
DATE_FIELDS = {name for name in ROW_FIELDS if name.endswith(("_lo", "_hi"))}


def load(connection: duckdb.DuckDBPyConnection, snapshots: list[Snapshot]) -> None:
    """Define the `snapshots`, `statements`, `entities` and `coverage` views the SQL reads,
    from reference rows (statement ids are made up: subject$position in the snapshot; a
    subset snapshot covers the ids of its entity rows), and the `date_reads` and `classify`
    macros."""
    register_rows(connection, snapshots)
    connection.execute("CREATE OR REPLACE VIEW snapshots AS SELECT * FROM snapshot_rows")
    connection.execute("CREATE OR REPLACE VIEW statements AS SELECT * FROM statement_rows")
    connection.execute("CREATE OR REPLACE VIEW entities AS SELECT * FROM entity_rows")
    connection.execute("CREATE OR REPLACE VIEW coverage AS SELECT * FROM coverage_rows")
    define_classify_macro(connection)


def register_rows(connection: duckdb.DuckDBPyConnection, snapshots: list[Snapshot]) -> None:
    """Register the reference rows as the tables `snapshot_rows`, `statement_rows`,
    `entity_rows` and `coverage_rows` the views of :func:`load` read (replacing any that the
    connection had: the views and macros read whatever is registered when a query runs)."""
    names = pa.table(
        {
            "name": [s.name for s in snapshots],
            "date": [s.date for s in snapshots],
            "coverage": [s.coverage for s in snapshots],
        }
    )
    fields = ["snapshot", "statement_id", *ROW_FIELDS]
    columns: dict[str, list[object]] = {name: [] for name in fields}
    for snap in snapshots:
        for position, row in enumerate(snap.rows):
            columns["snapshot"].append(snap.name)
            columns["statement_id"].append(f"{row.subject}${position}")
            for name in ROW_FIELDS:
                columns[name].append(getattr(row, name))
    types = {name: pa.date32() if name in DATE_FIELDS else pa.string() for name in columns}
    statements = pa.table({k: pa.array(v, types[k]) for k, v in columns.items()})
    entities = pa.table(
        {
            "snapshot": pa.array([s.name for s in snapshots for _ in s.entities], pa.string()),
            "qid": pa.array([e.qid for s in snapshots for e in s.entities], pa.string()),
            "redirect_to": pa.array(
                [e.redirect_to for s in snapshots for e in s.entities], pa.string()
            ),
        }
    )
    subsets = [s for s in snapshots if s.coverage == "subset"]
    coverage = pa.table(
        {
            "snapshot": pa.array([s.name for s in subsets for _ in s.entities], pa.string()),
            "qid": pa.array([e.qid for s in subsets for e in s.entities], pa.string()),
        }
    )
    connection.register("snapshot_rows", names)
    connection.register("statement_rows", statements)
    connection.register("entity_rows", entities)
    connection.register("coverage_rows", coverage)


class LoadedOnce:
    """A connection whose views and macros are made on the first :meth:`load`; later calls
    only replace the rows the views read."""

    def __init__(self, query_macros: bool = False) -> None:
        self.query_macros = query_macros
        self.connection: duckdb.DuckDBPyConnection | None = None

    def load(self, snapshots: list[Snapshot]) -> duckdb.DuckDBPyConnection:
        """The connection, its views showing ``snapshots`` (as ``load`` would show them)."""
        if self.connection is None:
            self.connection = duckdb.connect()
            load(self.connection, snapshots)
            if self.query_macros:
                add_query_macros(self.connection)
        else:
            register_rows(self.connection, snapshots)
        return self.connection

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None
