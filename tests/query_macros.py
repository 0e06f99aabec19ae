"""What the pools, chains and updates SQL needs beside the views a test makes: a `labels`
table and the `date_reads`, `entity_labels` and helper macros (time values, kgdiff_pooled;
the catalog has them)."""

from __future__ import annotations

from collections.abc import Iterable

import duckdb

from kgdiff.query.labels import catalog_macro as entity_labels_macro
from kgdiff.temporal.dates import date_reads_macro
from kgdiff.temporal.helper_macros import value_macros

LABEL_COLUMNS = (
    "snapshot VARCHAR, qid VARCHAR, kind VARCHAR, lang VARCHAR, value VARCHAR, ordinal INTEGER"
)

LabelRow = tuple[str, str, str, str, str, int]


def add_query_macros(
    connection: duckdb.DuckDBPyConnection, labels: Iterable[LabelRow] = ()
) -> None:
    """Create the `labels` table with ``labels`` (snapshot, qid, kind, lang, value, ordinal)
    and define the macros that read no store table (the classification's rule macros, which
    DuckDB binds to the store's tables, come with `define_classify_macro`)."""
    connection.execute(f"CREATE TABLE labels ({LABEL_COLUMNS})")
    rows = list(labels)
    if rows:
        connection.executemany("INSERT INTO labels VALUES (?, ?, ?, ?, ?, ?)", rows)
    connection.execute(date_reads_macro())
    connection.execute(entity_labels_macro())
    for macro in value_macros():
        connection.execute(macro)


def english(snapshot: str, qid: str, label: str, aliases: Iterable[str] = ()) -> list[LabelRow]:
    """An English label and aliases of ``qid`` in ``snapshot`` as `labels` rows."""
    rows: list[LabelRow] = [(snapshot, qid, "label", "en", label, 0)]
    rows += [(snapshot, qid, "alias", "en", alias, i) for i, alias in enumerate(aliases)]
    return rows
