"""The table the staleness picture is drawn from: one row per (cutoff, level) point.

``graph.answers.staleness(mode)`` counts every level's groups at the first day of each month
between the first and the latest snapshot; the picture shows the shares of ``stable``,
``evolved`` and ``uncharted`` among the covered groups (all but ``not_covered``). Dates to
mark (``--mark``, the research papers' cutoffs) outside the snapshots' span are not drawn:
a note names them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

import polars as pl

from kgdiff.plot.embed import PlotData
from kgdiff.query.graph import KnowledgeGraph
from kgdiff.temporal.seed_cutoffs import seed_cutoffs

SHOWN = ("stable", "evolved", "uncharted")
"""The levels whose shares the picture draws."""


@dataclass(frozen=True)
class StalenessRequest:
    """What the staleness picture shows: the view, dates to mark, and whether to mark the
    research papers' cutoffs."""

    mode: str = "record"
    marks: tuple[date, ...] = ()
    seeds: bool = False


def staleness_data(graph: KnowledgeGraph, request: StalenessRequest) -> PlotData:
    """The points of the staleness picture, with the marks and seeds it draws in the
    parameters and a note for each one outside the snapshots' span."""
    answer = graph.answers.staleness(mode=request.mode)
    frame = share_rows(answer.frame)
    first, latest = graph.answers.span()
    notes = list(answer.notes)
    marks, outside = _inside([("--mark", day, "") for day in request.marks], first, latest)
    notes += [
        f"--mark {day} lies outside the snapshots ({first} to {latest}) and is not drawn"
        for _, day, _ in outside
    ]
    seeds: list[dict[str, Any]] = []
    if request.seeds:
        found = [(seed.name, seed.date, f"{seed.paper}; {seed.role}") for seed in seed_cutoffs()]
        drawn, outside = _inside(found, first, latest)
        seeds = [
            {"name": name, "date": day.isoformat(), "about": about} for name, day, about in drawn
        ]
        if outside:
            listed = "; ".join(f"{name} ({day})" for name, day, _ in outside)
            notes.append(
                f"{len(outside)} of the papers' dates lie outside the snapshots ({first} to"
                f" {latest}) and are not drawn: {listed}"
            )
    params: dict[str, Any] = {
        "mode": request.mode,
        "first": first.isoformat(),
        "latest": latest.isoformat(),
        "marks": [day.isoformat() for _, day, _ in marks],
        "seeds": seeds,
    }
    return PlotData("staleness", frame, params, notes)


def share_rows(counts: pl.DataFrame) -> pl.DataFrame:
    """The rows of the :data:`SHOWN` levels from the staleness counts, with each one's share
    of the covered groups (0 where none is covered), by cutoff then level."""
    order = {level: index for index, level in enumerate(SHOWN)}
    shown = counts.filter(pl.col("level").is_in(SHOWN))
    return (
        shown.with_columns(
            pl.col("groups", "total", "covered").cast(pl.Int64),
            pl.when(pl.col("covered") > 0)
            .then(pl.col("groups") / pl.col("covered"))
            .otherwise(0.0)
            .cast(pl.Float64)
            .alias("share"),
            pl.col("level").replace_strict(order, return_dtype=pl.Int64).alias("_order"),
        )
        .sort("cutoff", "_order")
        .select("cutoff", "level", "groups", "covered", "total", "share")
    )


def _inside(
    dated: Sequence[tuple[str, date, str]], first: date, latest: date
) -> tuple[list[tuple[str, date, str]], list[tuple[str, date, str]]]:
    """``dated`` split into those within ``first``..``latest`` and those outside."""
    inside = [item for item in dated if first <= item[1] <= latest]
    return inside, [item for item in dated if not first <= item[1] <= latest]
