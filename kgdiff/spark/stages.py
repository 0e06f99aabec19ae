"""A query's common table expressions as Spark temporary views, those read more than once
materialized once.

Spark SQL inlines a common table expression wherever the query reads it: the classification
reads ``resolved`` seven times and ``per_view`` three, so its plan holds the steps before them
many times over, and Spark's analyzer and optimizer walk every copy (~30 s of planning for the
real samples' few thousand statements, whatever the data's size). Registered as views in
order, each expression is analyzed once, and one read more than once is *checkpointed*: computed
there and then, its rows kept by Spark's block manager, and its plan cut to a scan of them, so
that the plans of the later steps stop there and it is computed once, as DuckDB materializes
such an expression. Cached instead (``DataFrame.cache``), a step kept its whole plan: every
later step's analysis walked it again, looking for cached pieces in it, and dropping each view
analyzed it once more (the real samples' classification, mode ``both``, ``local[2]``: 42
CPU-s of the JVM cached, 12 checkpointed).

A local checkpoint's rows live on the executor that computed them, so a lost executor fails
the run rather than computing them again; with a checkpoint folder set
(``spark.sparkContext.setCheckpointDir``, on storage every executor reaches) the steps are
written there instead, and survive it. The views are dropped and the rows released when the
caller is done.
"""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from sqlglot import exp

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

STAGE_PREFIX = "kgdiff_stage_"
"""Views of the stages are named so: no store view (``statements``, ``snapshots``...) is."""


def _with_key(tree: exp.Expression) -> str:
    """The argument holding a query's WITH clause (``with_`` in recent sqlglot, ``with`` before)."""
    return "with_" if "with_" in tree.arg_types else "with"


def _top_level_ctes(tree: exp.Expression) -> list[exp.CTE]:
    """The query's own common table expressions (not those of its subqueries), which must
    not share a name with a subquery's: a read of that name would be ambiguous here."""
    with_ = tree.args.get(_with_key(tree))
    ctes = list(with_.expressions) if isinstance(with_, exp.With) else []
    own = {id(cte) for cte in ctes}
    names = {cte.alias_or_name.lower() for cte in ctes}
    nested = {cte.alias_or_name.lower() for cte in tree.find_all(exp.CTE) if id(cte) not in own}
    if names & nested:
        shadowed = sorted(names & nested)
        raise ValueError(f"a subquery's common table expression shadows the query's: {shadowed}")
    return ctes


def _reads(tree: exp.Expression, names: set[str]) -> Counter[str]:
    """How many times the query reads each of ``names`` (unqualified table names)."""
    return Counter(
        table.name.lower()
        for table in tree.find_all(exp.Table)
        if not table.args.get("db") and table.name.lower() in names
    )


def _renamed(node: exp.Expression, names: set[str]) -> exp.Expression:
    """``node`` with its reads of ``names`` reading the stage views instead."""

    def rename(item: exp.Expression) -> exp.Expression:
        if isinstance(item, exp.Table) and not item.args.get("db") and item.name.lower() in names:
            alias = item.args.get("alias") or exp.TableAlias(this=exp.to_identifier(item.name))
            return exp.Table(this=exp.to_identifier(STAGE_PREFIX + item.name.lower()), alias=alias)
        return item

    return node.copy().transform(rename)


def _checkpointed(spark: SparkSession, frame: DataFrame) -> DataFrame:
    """``frame`` computed now, its plan a scan of its rows: written to the session's checkpoint
    folder when it has one, else kept by the executors (a local checkpoint)."""
    if spark.sparkContext.getCheckpointDir():
        return frame.checkpoint(eager=True)
    return frame.localCheckpoint(eager=True)


def _release(frame: DataFrame) -> None:
    """Let go of a local checkpoint's rows now (Spark's cleaner would once the frame is
    collected in the JVM, which may be long after). A reliable checkpoint's files are left to
    Spark, which removes them with the frame when ``spark.cleaner.referenceTracking.
    cleanCheckpoints`` is on."""
    from py4j.protocol import Py4JError

    with contextlib.suppress(Py4JError, AttributeError):
        plan = frame._jdf.queryExecution().analyzed()
        if plan.getClass().getSimpleName() == "LogicalRDD":
            plan.rdd().unpersist(False)


@contextmanager
def staged_frame(spark: SparkSession, tree: exp.Expression) -> Iterator[DataFrame]:
    """The query ``tree`` (Spark SQL's, with its top-level common table expressions) as a
    DataFrame reading its expressions as views, those read more than once checkpointed; the
    views and the checkpoints' rows last until the block ends."""
    ctes = _top_level_ctes(tree)
    names = {cte.alias_or_name.lower() for cte in ctes}
    reads = _reads(tree, names)
    views: list[str] = []
    checkpointed: list[DataFrame] = []
    try:
        for cte in ctes:
            name = cte.alias_or_name.lower()
            frame = spark.sql(_renamed(cte.this, names).sql(dialect="spark"))
            if reads[name] > 1:
                frame = _checkpointed(spark, frame)
                checkpointed.append(frame)
            frame.createOrReplaceTempView(STAGE_PREFIX + name)
            views.append(STAGE_PREFIX + name)
        body = tree.copy()
        body.set(_with_key(body), None)
        yield spark.sql(_renamed(body, names).sql(dialect="spark"))
    finally:
        for view in views:
            spark.catalog.dropTempView(view)
        for frame in checkpointed:
            _release(frame)
