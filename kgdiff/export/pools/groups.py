"""The object pools a ``pools`` export asks about: the pools ``kg.pools`` gives the
classification's catalogued groups over the export's years, one row per group and year, read
for those groups alone in one query (sql/export/pool_years.sql, the rules of
sql/pools/pools.sql without its labels) (docs/benchmark-export.md#the-pools-config).

The years run from init's year to current's year, stopped at the latest snapshot's year: the
pools read that snapshot (valid time) and know nothing of a later year; a subject that the
latest snapshot, a subset, does not hold is read from the latest earlier snapshot that holds it
(``snapshot`` names it), and its years stop at that snapshot's year. A year is asked only when
the data give it a pool of its own; the pools' empty years (before a group's first object),
filled years (an empty year given the previous year's pool, e.g. after a position ended) and
years after its subject's snapshot are kept as rows with the ``reason`` they are left out. A
group's state is ChroKnowBench's over the years asked: ``dynamic`` when their pools differ,
else ``static``.
"""

from __future__ import annotations

from collections import Counter
from contextlib import closing
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import duckdb
import polars as pl

from kgdiff.export.core.benchmark_model import BenchmarkRequest, Dates
from kgdiff.export.core.file_frames import frame_through_file
from kgdiff.export.core.leftovers import SpillFolder
from kgdiff.export.core.subject_range import subject_range
from kgdiff.export.inputs.group_file import NOT_SUBSTANTIVE
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


AFTER_THE_DATA = "after_the_data"
"""Why a year after the year of the snapshot its subject was read from is not asked: that
snapshot knows nothing of it (a subject the latest snapshot, a subset, lacks is read from an
earlier one)."""


def _found_years(found: pl.DataFrame, snapshot_years: dict[str, int]) -> pl.DataFrame:
    """The rows of sql/export/pool_years.sql in :data:`YEAR_SCHEMA` (``snapshot_years``: the
    year of each snapshot)."""
    last = pl.col("snapshot").replace_strict(snapshot_years, return_dtype=pl.Int64())
    reason = (
        pl.when(pl.col("year") > last)
        .then(pl.lit(AFTER_THE_DATA))
        .when(pl.col("filled"))
        .then(pl.lit("filled_year"))
        .when(pl.col("objects").list.len() == 0)
        .then(pl.lit("empty_year"))
    )
    return found.select(
        pl.concat_str(pl.lit("pools/"), "subject", pl.lit("/"), "pid").alias("group_id"),
        "subject",
        "pid",
        "snapshot",
        pl.col("year").cast(pl.Int64()),
        "objects",
        "precision_only",
        reason.alias("reason"),
    ).cast(YEAR_SCHEMA)


FOUND_SCHEMA = pl.Schema(
    {
        "subject": pl.String(),
        "pid": pl.String(),
        "year": pl.Int64(),
        "objects": TEXTS,
        "precision_only": TEXTS,
        "filled": pl.Boolean(),
        "snapshot": pl.String(),
    }
)
"""The rows of sql/export/pool_years.sql, with the snapshot they read."""


def _years_of(
    connection: duckdb.DuckDBPyConnection,
    groups: pl.DataFrame,
    snapshot: str,
    years: PoolYears,
    folder: Path,
) -> pl.DataFrame:
    """The rows of sql/export/pool_years.sql of ``groups``, whose subjects read ``snapshot``
    (handed over through a file of ``folder``: :mod:`~kgdiff.export.core.file_frames`)."""
    connection.unregister("pool_groups")
    connection.register("pool_groups", groups.select("subject", "pid").to_arrow())
    params = {
        "snapshot": snapshot, "from_year": years.first, "to_year": years.last,
        **subject_range(groups),
    }  # fmt: skip
    rows = frame_through_file(connection, load_sql("export/pool_years"), params, folder)
    return rows.with_columns(snapshot=pl.lit(snapshot, pl.String())).cast(FOUND_SCHEMA)


def read_pool_years(
    kg: KnowledgeGraph,
    groups: pl.DataFrame,
    years: PoolYears,
    request: BenchmarkRequest,
    spill: Path | None = None,
) -> pl.DataFrame:
    """Every year of every group of ``groups`` (``subject``, ``pid``) that has pools, in
    :data:`YEAR_SCHEMA`, sorted by group id and year: the pools ``kg.pools`` gives these
    groups (the same rules: each subject read from the latest snapshot that holds it,
    sql/export/pool_reads.sql, then sql/export/pool_years.sql), read in one query per
    snapshot read for the groups asked for alone; a year after the year of its subject's
    snapshot is not asked (:data:`AFTER_THE_DATA`). The rows pass through a folder of
    ``spill`` (the system's temporary folder when None)."""
    wanted = groups.select("subject", "pid").unique()
    if not wanted.height:
        return pl.DataFrame(schema=YEAR_SCHEMA)
    check_years(years.first, years.last)
    folder = SpillFolder(spill)
    with closing(folder), kg.connection() as connection:
        reach = pools_reach(connection, years.last, request.gap)
        connection.register("pool_groups", wanted.to_arrow())
        latest = {"snapshot": reach.read.snapshot or reach.snapshot}
        reads = connection.sql(load_sql("export/pool_reads"), params=latest).pl()
        found = [pl.DataFrame(schema=FOUND_SCHEMA)]
        for (name,), subjects in sorted(reads.partition_by("snapshot", as_dict=True).items()):
            read = wanted.join(subjects, on="subject")
            found.append(_years_of(connection, read, str(name), years, folder.path))
        listed = connection.sql(load_sql("query/snapshots")).pl()
    snapshot_years = dict(zip(listed["name"], listed["date"].dt.year(), strict=True))
    return _found_years(pl.concat(found), snapshot_years).sort("group_id", "year")


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


def substantive_states(asked: pl.DataFrame, groups: pl.DataFrame) -> pl.DataFrame:
    """The asked years of :func:`asked_years` with their group's ``change_nature`` in the
    classification (``groups``: its catalogued groups); a dynamic group whose change the
    classification calls reformatted or refined is ``static`` (nothing a model knew became
    false)."""
    natures = groups.select("subject", "pid", "change_nature")
    joined = asked.join(natures, on=["subject", "pid"], how="left", maintain_order="left")
    moved = (pl.col("state") == "dynamic") & pl.col("change_nature").is_in(NOT_SUBSTANTIVE)
    return joined.with_columns(
        pl.when(moved).then(pl.lit("static")).otherwise(pl.col("state")).alias("state")
    )


def groups_by_snapshot(years: pl.DataFrame) -> dict[str, int]:
    """Groups per snapshot read (most first) of :func:`read_pool_years`: the latest, and
    the earlier ones that hold the subjects a subset latest snapshot lacks."""
    counted = years.unique("group_id").group_by("snapshot").len()
    return dict(counted.sort(["len", "snapshot"], descending=[True, False]).iter_rows())


def read_note(by_snapshot: dict[str, int]) -> str | None:
    """What the export says of the snapshots its pools read, when they are more than one."""
    if len(by_snapshot) < 2:
        return None
    listed = ", ".join(f"{name} ({count:,} groups)" for name, count in by_snapshot.items())
    return (
        f"pools: the groups' pools read {len(by_snapshot)} snapshots, {listed}: each subject"
        " is read from the latest snapshot that holds it (a subset snapshot holds only its"
        " entities), and each record's snapshot names its own"
    )


def states(years: pl.DataFrame) -> dict[str, int]:
    """Groups per state (sorted) of :func:`asked_years`."""
    counted = years.unique("group_id").group_by("state").len().sort("state")
    return dict(counted.iter_rows())
