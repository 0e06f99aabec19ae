"""The year a count is dated by (docs/benchmark-export.md#counts-and-their-year): "How many
people live in France?" has no one answer (66,600,000 in 2013, 68 million ten years on), so a
record of a quantity relation (a population, a number of employees, a revenue: the catalogue's
``object_type = "quantity"``) whose gold values all carry a point in time (P585) of one year
is asked in that year, with the relation's ``_at`` templates: "In 2013, how many people lived
in France?". A gold without a point, or golds of different years, leave the record undated.
The points come from ``sql/export/series_years.sql``."""

from __future__ import annotations

import duckdb
import polars as pl

from kgdiff.export.relations.model import RelationCatalogue
from kgdiff.sqlfiles import run_arrow

YEAR_COLUMN = "_year"
"""The column of a frame of records holding the year a count is asked in (null: undated)."""
SERIES_YEARS_SCHEMA = pl.Schema(
    {"subject": pl.String(), "pid": pl.String(), YEAR_COLUMN: pl.Int64()}
)


def counted_pids(catalogue: RelationCatalogue) -> list[str]:
    """The relations whose objects are quantities."""
    return [relation.pid for relation in catalogue if relation.object_type == "quantity"]


def series_years(
    connection: duckdb.DuckDBPyConnection,
    counts: pl.DataFrame,
    snapshot: str | None,
) -> pl.DataFrame:
    """The year (:data:`SERIES_YEARS_SCHEMA`) of each group of ``counts`` (``subject``,
    ``pid``, ``latest``: groups of the relations of :func:`counted_pids`) whose ``latest``
    values all have a point in time in ``snapshot`` of one same year; the groups without one
    are absent."""
    if snapshot is None or counts.is_empty():
        return pl.DataFrame(schema=SERIES_YEARS_SCHEMA)
    params = {
        "subjects": counts.get_column("subject").to_list(),
        "pids": counts.get_column("pid").to_list(),
        "snapshot": snapshot,
    }
    points = pl.DataFrame(run_arrow(connection, "export/series_years", params))
    golds = counts.select("subject", "pid", pl.col("latest").alias("value")).explode("value")
    dated = golds.join(points.cast({"year": pl.Int64}), on=["subject", "pid", "value"], how="left")
    one_year = (pl.col("year").null_count() == 0) & (pl.col("year").n_unique() == 1)
    found = dated.group_by("subject", "pid").agg(
        pl.when(one_year).then(pl.col("year").first()).alias(YEAR_COLUMN)
    )
    return (
        found.drop_nulls(YEAR_COLUMN).cast(SERIES_YEARS_SCHEMA).select(SERIES_YEARS_SCHEMA.names())
    )
