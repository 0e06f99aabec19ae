"""The table an entity's timeline picture is drawn from: one row per drawn bar.

Every statement the picture draws (:mod:`kgdiff.plot.timeline_choice`: by default the
properties that changed and the relation catalogue's, under a height cap) gets a ``record``
bar (first to last snapshot it was seen in) and, when it has start, end or point-in-time
qualifiers, a ``valid`` bar. Each row also carries its property's level at the cutoff
(``graph.answers.classify``), the row and lane it is drawn in, and the statement's columns.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

import polars as pl

from kgdiff.errors import UsageError
from kgdiff.plot.embed import PlotData
from kgdiff.plot.timeline_choice import MAX_LANES, Choice, choose_statements
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
    """What a timeline picture shows: an entity, a cutoff (None: the first of the month
    the middle of the snapshots' span falls in, as the explorer starts), the view, the
    properties (none: the preferred ones, :mod:`kgdiff.plot.timeline_choice`), the height cap
    in lanes (0: none) and whether to draw ``every`` statement."""

    qid: str
    cutoff: date | None = None
    mode: str = "record"
    pids: tuple[str, ...] = ()
    lang: str = "en"
    axis: str = "snapshots"
    max_lanes: int = MAX_LANES
    every: bool = False


def timeline_data(
    graph: KnowledgeGraph, request: TimelineRequest, catalogue: Collection[str]
) -> PlotData:
    """The bars of ``request``'s timeline picture, the request, the snapshots and what was
    left out in its parameters, the timeline's notes and the left-out note (usage errors for
    an unknown entity or a cutoff the snapshots cannot answer). ``catalogue`` is the relation
    catalogue's property ids, which the picture prefers after the properties that changed (the
    command line gives the shipped catalogue's: the plot knows nothing of the export)."""
    if request.axis not in AXES:
        raise UsageError(f"--axis {request.axis!r} is not one of {', '.join(AXES)}")
    if request.max_lanes < 0:
        raise UsageError(f"--max-lanes {request.max_lanes} is negative; give 0 for no cap")
    snapshots = graph.answers.snapshots().frame.select("name", "date").sort("date")
    cutoff = request.cutoff or default_cutoff(snapshots["date"].to_list())
    pids = list(request.pids) or None
    timeline = graph.answers.timeline(request.qid, pids, request.lang)
    classified = graph.answers.classify(cutoff, mode=request.mode, subject=request.qid, pid=pids)
    levels = classified.frame.select("pid", "level", "change_kind")
    statements = _positions(timeline.frame)
    choice = choose_statements(
        statements,
        dict(levels.select("pid", "level").iter_rows()),
        catalogue,
        request.max_lanes,
        every=request.every,
        picked=bool(request.pids),
    )
    frame = bar_rows(statements.filter(pl.col("statement").is_in(choice.statements)), levels)
    subject = timeline.frame["subject_label"][0] if timeline.frame.height else request.qid
    uncovered = _not_covered_note(classified.frame, frame, f"{subject} ({request.qid})")
    caption = [*_left_out(choice), *uncovered]
    params: dict[str, Any] = {
        "qid": request.qid,
        "subject_label": subject,
        "cutoff": cutoff.isoformat(),
        "mode": request.mode,
        "lang": request.lang,
        "axis": request.axis,
        "pids": list(request.pids),
        "all": request.every,
        "snapshots": [
            {"name": name, "date": day.isoformat()} for name, day in snapshots.iter_rows()
        ],
        **choice.params(),
        "caption": caption,
    }
    return PlotData("timeline", frame, params, [*timeline.notes, *caption])


def default_cutoff(snapshot_days: list[date]) -> date:
    """The first of the month the middle of the snapshots' span falls in, kept strictly
    between the first and the latest snapshot (the explorer's first cutoff); a usage error
    when no day lies between them."""
    if len(snapshot_days) < 2 or snapshot_days[-1] - snapshot_days[0] < timedelta(days=2):
        raise UsageError(
            "a timeline picture needs a cutoff strictly between two snapshots at least two days"
            " apart; ingest another snapshot"
        )
    first, latest = snapshot_days[0], snapshot_days[-1]
    middle = first + (latest - first) / 2
    return min(max(middle.replace(day=1), first + timedelta(days=1)), latest - timedelta(days=1))


def _left_out(choice: Choice) -> list[str]:
    note = choice.note()
    return [note] if note else []


def _not_covered_note(classified: pl.DataFrame, bars: pl.DataFrame, subject: str) -> list[str]:
    """Why the drawn properties marked not covered are: the subset snapshots the
    classification reads that do not hold the entity (empty when none is drawn)."""
    drawn = set(bars.filter(pl.col("level") == "not_covered")["pid"].to_list())
    rows = classified.filter(pl.col("pid").is_in(drawn))
    missing = sorted(set().union(*rows["not_covered_in"].drop_nulls().to_list()))
    if not missing:
        return []
    which = ", ".join(missing)
    holds = "does" if len(missing) == 1 else "do"
    return [
        f"[-] not covered: {which}, which the classification reads, {holds} not hold {subject}"
        " (a subset snapshot): its groups are neither stable nor deleted."
    ]


def _positions(timeline: pl.DataFrame) -> pl.DataFrame:
    """The timeline with each statement's position (its bars' number) and snak types."""
    return (
        _with_snaktypes(timeline)
        .with_row_index("statement")
        .with_columns(pl.col("statement").cast(pl.Int64))
    )


def bar_rows(statements: pl.DataFrame, levels: pl.DataFrame) -> pl.DataFrame:
    """One row per bar of the ``statements`` (a timeline with their positions), properties
    in id order (``P19`` before ``P106``), each statement a lane; ``levels`` gives each
    property's level. A bar's ``start`` and ``end`` are day numbers (days since 1970-01-01),
    never dates: a valid bar may lie billions of years away."""
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
