"""``kgdiff spark classify``: ``sql/classify/classify.sql`` run by Spark SQL, published as a build.

The query is the DuckDB one translated (:mod:`kgdiff.spark.translate`) over the store's
files (:mod:`kgdiff.spark.views`); the dates are checked, and the snapshot each one reads is
chosen, by ``date_reads`` in DuckDB as ``kgdiff classify`` does. The result is written as
the build ``kgdiff classify`` would make for the same parameters (same folder, same
``params.json``, ``result/part-NNNNN.parquet``), so the catalog lists it and
``kgdiff classify``, ``export`` and ``serve`` reuse it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from sqlglot import exp

from kgdiff.spark.stages import staged_frame
from kgdiff.spark.translate import Translator, Value
from kgdiff.spark.views import READS_VIEW, register_reads, register_store_views
from kgdiff.sqlfiles import load_sql
from kgdiff.store.layout import StoreLayout
from kgdiff.temporal.builds import Build, planned_build, publish_build
from kgdiff.temporal.classify import RULE_MACROS
from kgdiff.temporal.dates import DEFAULT_MAX_GAP, GapPolicy

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

RESULT_COMPRESSION = "zstd"


def classification_tree(init: date, cutoff: date, current: date, mode: str) -> exp.Expression:
    """``sql/classify/classify.sql`` for these dates as Spark SQL's tree (every group; the
    dates' reads in the view :data:`~kgdiff.spark.views.READS_VIEW`)."""
    values: dict[str, Value] = {
        "init": init,
        "cutoff": cutoff,
        "current": current,
        "mode": mode,
        "as_of": None,
        "part": "all",
        "lo": "",
        "hi": "",
        "max_gap": DEFAULT_MAX_GAP,
        "allow_gap": True,
    }
    rules = {f"kgdiff_{name}": (f"classify/{name}", params) for name, params in RULE_MACROS.items()}
    return Translator(values, {"date_reads": READS_VIEW}, rules).tree(load_sql("classify/classify"))


@contextmanager
def classification_frame(
    spark: SparkSession, init: date, cutoff: date, current: date, mode: str
) -> Iterator[DataFrame]:
    """The classification as a DataFrame, its steps read more than once cached
    (:mod:`kgdiff.spark.stages`) until the block ends (the views and the reads must be
    registered)."""
    with staged_frame(spark, classification_tree(init, cutoff, current, mode)) as frame:
        yield frame


def _tidy(result: Path) -> None:
    """Spark's output as a build's: ``part-NNNNN.parquet`` files and nothing else."""
    files = sorted(result.glob("part-*.parquet"))
    for index, path in enumerate(files):
        path.rename(result / f"part-{index:05d}.parquet")
    for leftover in result.iterdir():
        if not leftover.name.startswith("part-") or not leftover.name.endswith(".parquet"):
            leftover.unlink()


def spark_classification(
    spark: SparkSession,
    layout: StoreLayout,
    days: tuple[date, date, date],
    mode: str,
    gap: GapPolicy | None = None,
) -> Build:
    """The classification build for ``days`` (init, cutoff, current) in ``mode``, computed by
    Spark unless the store already has it (from Spark or DuckDB: the same build)."""
    init, cutoff, current = days
    manifests, params, reads = planned_build(layout, days, mode, gap)

    def fill(result: Path) -> None:
        register_store_views(spark, layout, manifests)
        register_reads(spark, reads)
        spark.sparkContext.setJobDescription(f"kgdiff: classify {params.view_name}")
        with classification_frame(spark, init, cutoff, current, mode) as frame:
            frame.write.parquet(str(result), compression=RESULT_COMPRESSION)
        _tidy(result)

    return publish_build(layout, params, reads, fill)
