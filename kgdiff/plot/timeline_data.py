"""The table an entity's timeline picture is drawn from: one row per drawn bar.

Every statement of the timeline (``graph.answers.timeline``) gets a ``record`` bar (first to
last snapshot it was seen in) and, when it has start, end or point-in-time qualifiers, a
``valid`` bar. Each row also carries its property's level at the cutoff
(``graph.answers.classify``), the row and lane it is drawn in, and the statement's columns.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

import polars as pl

from kgdiff.errors import UsageError
from kgdiff.plot.embed import PlotData
from kgdiff.query.graph import KnowledgeGraph
from kgdiff.query.timeline_labels import BOUNDS

SNAKTYPES = ("valid_from_snaktype", "valid_until_snaktype", "point_snaktype")
"""Columns the timeline may carry: ``value``, ``somevalue`` (a date nobody knows),
``novalue`` (there is none) or null (no such qualifier)."""
STATEMENT_COLUMNS = (
    "pid",
    "pid_label",
    "value",
    "value_label",
    "statement_id",
    "rank",
    "first_seen",
    "last_seen",
    "current",
    "snapshots",
    *(f"{bound}{part}" for bound in BOUNDS for part in ("", "_lo", "_hi", "_text")),
    *SNAKTYPES,
)
"""The timeline's columns each bar's row repeats: a bound's dates as Wikidata writes them,
its first and last day (day numbers, days since 1970-01-01: any date, the Big Bang's too) and
its words."""
AXES = ("snapshots", "all")
"""``snapshots``: the store's snapshot span; ``all``: every date shown."""


@dataclass(frozen=True)
class TimelineRequest:
    """What a timeline picture shows: an entity, a cutoff, the view and the properties."""

    qid: str
    cutoff: date
    mode: str = "record"
    pids: tuple[str, ...] = ()
    lang: str = "en"
    axis: str = "snapshots"


def timeline_data(graph: KnowledgeGraph, request: TimelineRequest) -> PlotData:
    """The bars of ``request``'s timeline picture, the request and the snapshots in its
    parameters, the timeline's notes (usage errors for an unknown entity or a cutoff the
    snapshots cannot answer)."""
    if request.axis not in AXES:
        raise UsageError(f"--axis {request.axis!r} is not one of {', '.join(AXES)}")
    pids = list(request.pids) or None
    timeline = graph.answers.timeline(request.qid, pids, request.lang)
    classified = graph.answers.classify(
        request.cutoff, mode=request.mode, subject=request.qid, pid=pids
    )
    levels = classified.frame.select("pid", "level", "change_kind")
    snapshots = graph.answers.snapshots().frame.select("name", "date").sort("date")
    frame = bar_rows(timeline.frame, levels)
    subject = timeline.frame["subject_label"][0] if timeline.frame.height else request.qid
    params: dict[str, Any] = {
        "qid": request.qid,
        "subject_label": subject,
        "cutoff": request.cutoff.isoformat(),
        "mode": request.mode,
        "lang": request.lang,
        "axis": request.axis,
        "pids": list(request.pids),
        "snapshots": [
            {"name": name, "date": day.isoformat()} for name, day in snapshots.iter_rows()
        ],
    }
    return PlotData("timeline", frame, params, list(timeline.notes))


def bar_rows(timeline: pl.DataFrame, levels: pl.DataFrame) -> pl.DataFrame:
    """One row per bar of the ``timeline`` statements, properties in id order (``P19``
    before ``P106``), each statement a lane; ``levels`` gives each property's level. A bar's
    ``start`` and ``end`` are day numbers (days since 1970-01-01), never dates: a valid bar may
    lie billions of years away."""
    statements = (
        _with_snaktypes(timeline)
        .with_row_index("statement")
        .with_columns(pl.col("statement").cast(pl.Int64))
    )
    statements = statements.join(levels, on="pid", how="left")
    order = statements.with_columns(pl.col("pid").str.slice(1).cast(pl.Int64).alias("_pid_number"))
    order = order.sort("_pid_number", "statement").drop("_pid_number")
    pid_rows = {pid: row for row, pid in enumerate(order["pid"].unique(maintain_order=True))}
    order = order.with_columns(
        pl.col("pid").replace_strict(pid_rows, return_dtype=pl.Int64).alias("row"),
        pl.int_range(pl.len(), dtype=pl.Int64).alias("lane"),
    )
    records = order.with_columns(
        pl.lit("record").alias("kind"),
        pl.lit("record").alias("shape"),
        pl.col("first_seen").cast(pl.Int32).cast(pl.Int64).alias("start"),
        pl.col("last_seen").cast(pl.Int32).cast(pl.Int64).alias("end"),
        pl.lit("date").alias("start_kind"),
        pl.lit("date").alias("end_kind"),
    )
    valid = order.filter(_has_valid()).with_columns(pl.lit("valid").alias("kind"), *_valid_shape())
    bars = pl.concat([records, valid], how="vertical").with_columns(
        (pl.col("kind") + "-" + pl.col("statement").cast(pl.String)).alias("bar")
    )
    head = ["bar", "kind", "shape", "statement", "row", "lane", "level", "change_kind"]
    extents = ["start", "end", "start_kind", "end_kind"]
    return bars.select(*head, *extents, *STATEMENT_COLUMNS).sort("lane", "kind")


def _with_snaktypes(timeline: pl.DataFrame) -> pl.DataFrame:
    """The timeline with the qualifiers' snak types (null where the store has none yet)."""
    missing = [pl.lit(None, pl.String).alias(name) for name in SNAKTYPES if name not in timeline]
    return timeline.with_columns(missing) if missing else timeline


def _has_valid() -> pl.Expr:
    dates = ("valid_from_lo", "valid_until_lo", "point_lo")
    return pl.any_horizontal(pl.col(name).is_not_null() for name in (*dates, *SNAKTYPES))


def _end_kind(lo: str, snaktype: str) -> pl.Expr:
    return (
        pl.when(pl.col(lo).is_not_null())
        .then(pl.lit("date"))
        .when(pl.col(snaktype) == "somevalue")
        .then(pl.lit("unknown"))
        .otherwise(pl.lit("open"))
    )


def _valid_shape() -> list[pl.Expr]:
    """A statement with a start or end is an interval; one with only a point in time, a point."""
    interval = pl.any_horizontal(
        pl.col(name).is_not_null()
        for name in (
            "valid_from_lo",
            "valid_until_lo",
            "valid_from_snaktype",
            "valid_until_snaktype",
        )
    )
    point_kind = _end_kind("point_lo", "point_snaktype")
    return [
        pl.when(interval).then(pl.lit("interval")).otherwise(pl.lit("point")).alias("shape"),
        pl.when(interval)
        .then(pl.col("valid_from_lo"))
        .otherwise(pl.col("point_lo"))
        .alias("start"),
        pl.when(interval).then(pl.col("valid_until_hi")).otherwise(pl.col("point_hi")).alias("end"),
        pl.when(interval)
        .then(_end_kind("valid_from_lo", "valid_from_snaktype"))
        .otherwise(point_kind)
        .alias("start_kind"),
        pl.when(interval)
        .then(_end_kind("valid_until_lo", "valid_until_snaktype"))
        .otherwise(point_kind)
        .alias("end_kind"),
    ]
