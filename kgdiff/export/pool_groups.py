"""The object pools a ``pools`` export asks about: the pools ``kg.pools`` gives the
classification's catalogued groups over the export's years, one row per group and year, read
for those groups alone in one query (sql/export/pool_years.sql, the rules of
sql/pools/pools.sql without its labels) (docs/benchmark-export.md#the-pools-config).

The years run from init's year to current's year, stopped at the latest snapshot's year: the
pools read that snapshot (valid time) and know nothing of a later year. A year is asked only
when the data give it a pool of its own; the pools' empty years (before a group's first object)
and filled years (an empty year given the previous year's pool, e.g. after a position ended)
are kept as rows with the ``reason`` they are left out. A group's state is ChroKnowBench's over
the years asked: ``dynamic`` when their pools differ, else ``static``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import date

import polars as pl

from kgdiff.export.benchmark_model import BenchmarkRequest, Dates
from kgdiff.query.graph import KnowledgeGraph
from kgdiff.sqlfiles import load_sql
from kgdiff.temporal.pools import check_years, pools_reach

TEXTS = pl.List(pl.String())
YEAR_SCHEMA = pl.Schema(
    {
        "group_id": pl.String(),
        "subject": pl.String(),
        "pid": pl.String(),
        "snapshot": pl.String(),
        "year": pl.Int64(),
        "objects": TEXTS,
        "precision_only": TEXTS,
        "reason": pl.String(),
    }
)
"""A group's year: the group's pools id (``pools/<subject>/<pid>``), the snapshot read, the
year's objects (value keys) and those only precision makes overlap it, and why it is not asked
(null when it is)."""


@dataclass(frozen=True)
class PoolYears:
    """The years a pools export asks about."""

    first: int
    last: int
    after_the_data: tuple[int, ...]
    """The window's years after the latest snapshot's year (none is asked)."""


def pool_years(dates: Dates, latest: date) -> PoolYears:
    """init's year to current's year, stopped at the year of the ``latest`` snapshot."""
    last = min(dates.current.year, latest.year)
    first = min(dates.init.year, last)
    return PoolYears(first, last, tuple(range(last + 1, dates.current.year + 1)))


def _found_years(found: pl.DataFrame, snapshot: str) -> pl.DataFrame:
    """The rows of sql/export/pool_years.sql in :data:`YEAR_SCHEMA`."""
    reason = (
        pl.when(pl.col("filled"))
        .then(pl.lit("filled_year"))
        .when(pl.col("objects").list.len() == 0)
        .then(pl.lit("empty_year"))
    )
    return found.select(
        pl.concat_str(pl.lit("pools/"), "subject", pl.lit("/"), "pid").alias("group_id"),
        "subject",
        "pid",
        pl.lit(snapshot, dtype=pl.String()).alias("snapshot"),
        pl.col("year").cast(pl.Int64()),
        "objects",
        "precision_only",
        reason.alias("reason"),
    ).cast(YEAR_SCHEMA)


def read_pool_years(
    kg: KnowledgeGraph, groups: pl.DataFrame, years: PoolYears, request: BenchmarkRequest
) -> pl.DataFrame:
    """Every year of every group of ``groups`` (``subject``, ``pid``) that has pools, in
    :data:`YEAR_SCHEMA`, sorted by group id and year: the pools ``kg.pools`` gives these
    groups (the same rules, sql/export/pool_years.sql), read in one query for the groups
    asked for alone."""
    wanted = groups.select("subject", "pid").unique()
    if not wanted.height:
        return pl.DataFrame(schema=YEAR_SCHEMA)
    check_years(years.first, years.last)
    with kg.connection() as connection:
        reach = pools_reach(connection, years.last, request.gap)
        snapshot = reach.read.snapshot or reach.snapshot
        connection.register("pool_groups", wanted.to_arrow())
        params = {"snapshot": snapshot, "from_year": years.first, "to_year": years.last}
        found = connection.sql(load_sql("export/pool_years"), params=params).pl()
    return _found_years(found, snapshot).sort("group_id", "year")


def reasons(years: pl.DataFrame) -> Counter[str]:
    """How many years of :func:`read_pool_years` are left out, per reason."""
    counted = years.filter(pl.col("reason").is_not_null()).group_by("reason").len()
    return Counter(dict(counted.iter_rows()))


def asked_years(years: pl.DataFrame) -> pl.DataFrame:
    """The years of :func:`read_pool_years` that are asked, each with its group's ``state``
    over them: ``dynamic`` when the pools of its asked years differ, else ``static``."""
    asked = years.filter(pl.col("reason").is_null()).drop("reason")
    changes = pl.col("objects").n_unique().over("group_id") > 1
    state = pl.when(changes).then(pl.lit("dynamic")).otherwise(pl.lit("static"))
    return asked.with_columns(state.alias("state"))


def states(years: pl.DataFrame) -> dict[str, int]:
    """Groups per state (sorted) of :func:`asked_years`."""
    counted = years.unique("group_id").group_by("state").len().sort("state")
    return dict(counted.iter_rows())
