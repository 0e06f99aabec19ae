"""The catalog's views, as Spark temporary views over the store's Parquet files.

The classification reads ``snapshots``, ``statements``, ``entities``, ``coverage`` and
``entity_redirects`` (sql/classify/classify.sql). Each table view is every snapshot's files
with a ``snapshot`` column first, as the DuckDB catalog's ``table_view.sql`` makes it;
``entity_redirects`` is ``sql/catalog/entity_redirects_view.sql`` translated.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import pyarrow as pa

from kgdiff.spark.translate import Translator
from kgdiff.store.catalog import TABLE_KEYS
from kgdiff.store.coverage import COVERAGE_TABLE
from kgdiff.store.delta import CHANGES_TABLE, chain
from kgdiff.store.layout import StoreLayout, table_files
from kgdiff.store.manifest import Manifest
from kgdiff.temporal.dates import DateRead

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

READS_VIEW = "kgdiff_date_reads"
"""The rows of the ``date_reads`` macro for the classification's dates (see
:mod:`kgdiff.spark.translate`)."""
READS_SCHEMA = pa.schema(
    [
        ("view", pa.string()),
        ("role", pa.string()),
        ("day", pa.date32()),
        ("snapshot", pa.string()),
        ("snapshot_date", pa.date32()),
        ("coverage", pa.string()),
        ("gap_days", pa.int64()),
    ]
)
SNAPSHOTS_SCHEMA = pa.schema(
    [("name", pa.string()), ("date", pa.date32()), ("coverage", pa.string())]
)
EMPTY_COVERAGE = "SELECT CAST(NULL AS STRING) AS snapshot, CAST(NULL AS STRING) AS qid WHERE false"


def _files(layout: StoreLayout, name: str, table: str) -> list[str]:
    return [str(path) for path in table_files(layout.snapshot_dir(name), table)]


def _table_frame(
    spark: SparkSession, layout: StoreLayout, manifests: Sequence[Manifest], table: str
) -> DataFrame | None:
    """Every snapshot's rows of ``table``, ``snapshot`` first (None: no snapshot has it); a
    delta's own rows and those it takes from below it (:mod:`kgdiff.store.delta`), as the
    DuckDB catalog's ``delta_table_view.sql`` reads them."""
    from pyspark.sql import functions

    by_name = {m.name: m for m in manifests}
    frames = []
    for manifest in manifests:
        files = _files(layout, manifest.name, table)
        if files:
            rows = spark.read.parquet(*files)
            frames.append(
                rows.select(functions.lit(manifest.name).alias("snapshot"), *rows.columns)
            )
        if manifest.delta is not None:
            frames.extend(_carried(spark, layout, by_name, manifest.name, table))
    if not frames:
        return None
    union = frames[0]
    for frame in frames[1:]:
        union = union.unionByName(frame)
    return union


def _carried(
    spark: SparkSession,
    layout: StoreLayout,
    by_name: dict[str, Manifest],
    delta: str,
    table: str,
) -> list[DataFrame]:
    """The rows of ``table`` the delta ``delta`` takes from each snapshot below it: those
    whose subject neither it nor a snapshot between them lists in ``changes``."""
    from pyspark.sql import functions

    key = TABLE_KEYS.get(table, "qid")
    links = chain(by_name, delta)
    frames = []
    for depth, layer in enumerate(links[1:], start=1):
        files = _files(layout, layer, table)
        if not files:
            continue
        rows = spark.read.parquet(*files)
        changed = [f for above in links[:depth] for f in _files(layout, above, CHANGES_TABLE)]
        hidden = spark.read.parquet(*changed).select(functions.col("qid").alias("hidden_qid"))
        kept = rows.join(hidden, rows[key] == hidden["hidden_qid"], "left_anti")
        frames.append(kept.select(functions.lit(delta).alias("snapshot"), *rows.columns))
    return frames


def register_store_views(
    spark: SparkSession, layout: StoreLayout, manifests: Sequence[Manifest]
) -> None:
    """Register the views the classification reads, over the snapshots of ``manifests``."""
    import datetime as dt

    names = [m.name for m in manifests]
    snapshots = pa.table(
        {
            "name": names,
            "date": [dt.date.fromisoformat(m.date) for m in manifests],
            "coverage": [m.coverage for m in manifests],
        },
        schema=SNAPSHOTS_SCHEMA,
    )
    spark.createDataFrame(snapshots).createOrReplaceTempView("snapshots")
    for table in ("statements", "entities", COVERAGE_TABLE):
        frame = _table_frame(spark, layout, manifests, table)
        if frame is None and table == COVERAGE_TABLE:
            frame = spark.sql(EMPTY_COVERAGE)
        if frame is None:
            raise ValueError(f"no snapshot of {layout.root} has a {table} table")
        frame.createOrReplaceTempView(table)
    register_redirects(spark)


def register_redirects(spark: SparkSession) -> None:
    """The ``entity_redirects`` view, from ``sql/catalog/entity_redirects_view.sql``."""
    query = Translator({}, {}).query("catalog/entity_redirects_view")
    spark.sql(query).createOrReplaceTempView("entity_redirects")


def register_reads(spark: SparkSession, reads: Sequence[DateRead]) -> None:
    """The ``date_reads`` rows of a classification (computed by DuckDB from the snapshots
    list: a few rows) as the view :data:`READS_VIEW`."""
    rows = pa.Table.from_pylist(
        [
            {
                "view": r.view,
                "role": r.role,
                "day": r.day,
                "snapshot": r.snapshot,
                "snapshot_date": r.snapshot_date,
                "coverage": r.coverage,
                "gap_days": r.gap_days,
            }
            for r in reads
        ],
        schema=READS_SCHEMA,
    )
    spark.createDataFrame(rows).createOrReplaceTempView(READS_VIEW)
