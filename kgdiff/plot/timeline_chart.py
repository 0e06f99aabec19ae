"""Draw an entity's timeline picture from its table (:mod:`kgdiff.plot.timeline_data`).

One row per property, one lane per statement: a thick bar for the record interval (first to
last snapshot seen, dots at the snapshots that have it), a thin one for the valid interval
(lighter bands where the dates' precision leaves a range, an arrow where it is open, a dashed
outline and "?" where a date is unknown). Snapshots are vertical guides, the cutoff a line,
each property's row is tinted by its level at the cutoff, and labelled with the level's letter.
Every bar has a ``gid`` (``record-N``, ``valid-N``), so the SVG has one element per bar.
The names along the top and the caption under the picture are placed so that no text
overprints another (:mod:`kgdiff.plot.timeline_labels`).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl

from kgdiff.calendars import day_of_date
from kgdiff.plot.embed import PlotData
from kgdiff.plot.render import (
    day_number,
    day_ticks,
    level_colour,
    level_marker,
    level_name,
    new_figure,
    save,
)
from kgdiff.plot.timeline_bars import draw_record_bar, draw_valid_bar
from kgdiff.plot.timeline_labels import caption, top_names

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

WIDTH = 9.0
"""Inches."""
LANE = 0.2
"""Inches per lane (one statement)."""
LABEL_CHARS = 34
"""The longest property or value label shown whole."""


def figure_size(data: PlotData) -> tuple[float, float]:
    """Inches of the timeline picture of ``data``: :data:`LANE` per lane, room for the names
    along the top, the legend and the caption's lines."""
    lines = sum(1 + len(sentence) // 160 for sentence in data.params.get("caption", []))
    return WIDTH, round(2.4 + LANE * lane_count(data) + 0.11 * lines, 2)


def lane_count(data: PlotData) -> int:
    """How many lanes (statements) the picture of ``data`` has; at least one."""
    if not data.frame.height:
        return 1
    return int(data.frame.select(pl.col("lane").max()).item()) + 1


def axis_span(data: PlotData) -> tuple[int, int]:
    """The days the x axis shows (before padding; day numbers, days since 1970-01-01): the
    snapshots' span, or with ``axis=all`` every day in the table (back to the Big Bang if a
    statement says so), the snapshots and the cutoff."""
    days = [day_of_date(date.fromisoformat(item["date"])) for item in data.params["snapshots"]]
    if data.params["axis"] == "all":
        days.append(day_of_date(date.fromisoformat(data.params["cutoff"])))
        for name in ("start", "end"):
            days += data.frame[name].drop_nulls().to_list()
    return min(days), max(days)


def draw_timeline(data: PlotData, out: Path) -> None:
    """Draw the timeline picture of ``data`` into ``out`` (.svg or .png), ``data`` inside."""
    with timeline_figure(data) as (figure, title):
        save(figure, out, data, title)


@contextmanager
def timeline_figure(data: PlotData) -> Iterator[tuple[Figure, str]]:
    """The timeline picture of ``data`` and its title, drawn, until the block ends."""
    width, height = figure_size(data)
    first, last = axis_span(data)
    pad = max((last - first) * 0.03, 10)
    left, right = first - pad, last + pad
    with new_figure(width, height) as figure:
        ax = figure.add_subplot()
        ax.set_xlim(left, right)
        lanes = lane_count(data)
        ax.set_ylim(lanes - 0.5, -0.5)
        _rows(ax, data)
        _guides(ax, data)
        minimum = (right - left) * 0.004
        seen_at = {item["name"]: item["date"] for item in data.params["snapshots"]}
        for bar in data.frame.iter_rows(named=True):
            if bar["kind"] == "record":
                draw_record_bar(ax, bar, minimum, seen_at)
            else:
                draw_valid_bar(ax, bar, minimum, (left, right))
        day_ticks(ax, left, right)
        if not data.frame.height:
            why = data.notes[0] if data.notes else "no statements"
            ax.text(
                0.5,
                0.5,
                why,
                transform=ax.transAxes,
                ha="center",
                va="center",
                bbox={"facecolor": "white", "lw": 0},
            )
        title = f"{_subject(data)}: cutoff {data.params['cutoff']}, {data.params['mode']} view"
        figure.suptitle(title, fontsize=10)
        _legend(figure, ax, data)
        caption(figure, ax, data.params.get("caption", []))
        top_names(figure, ax, data)
        yield figure, title


def _subject(data: PlotData) -> str:
    """``label (QID)``, or the id alone when no statement gave a label."""
    qid, label = data.params["qid"], data.params["subject_label"]
    return qid if label in (None, qid) else f"{label} ({qid})"


def _rows(ax: Axes, data: PlotData) -> None:
    """Each property's tinted band, its label (level letter, label, id) on the left and a rule
    below; each statement's value on the right."""
    ticks: list[float] = []
    labels: list[str] = []
    for _, lanes in data.frame.group_by(["row"], maintain_order=True):
        top, bottom = (
            int(lanes.select(pl.col("lane").min()).item()),
            int(lanes.select(pl.col("lane").max()).item()),
        )
        level, pid, label = lanes["level"][0], lanes["pid"][0], lanes["pid_label"][0]
        ax.axhspan(
            top - 0.5, bottom + 0.5, color=level_colour(level), alpha=0.14, lw=0, gid=f"row-{pid}"
        )
        ax.axhline(bottom + 0.5, color="#BBBBBB", lw=0.4)
        ticks.append((top + bottom) / 2)
        labels.append(f"[{level_marker(level)}] {_shorten(label)} ({pid})")
    ax.set_yticks(ticks, labels=labels)
    ax.tick_params(axis="y", length=0)
    values = data.frame.filter(pl.col("kind") == "record")
    right = ax.secondary_yaxis("right")
    right.set_yticks(values["lane"].to_list(), labels=[_shorten(v) for v in values["value_label"]])
    right.tick_params(axis="y", length=0, labelsize=6.5)


def _shorten(text: str) -> str:
    """``text`` cut to :data:`LABEL_CHARS` characters, an ellipsis marking the cut."""
    return text if len(text) <= LABEL_CHARS else text[: LABEL_CHARS - 1] + "…"


def _guides(ax: Axes, data: PlotData) -> None:
    """Snapshots as thin vertical lines (named along the top by
    :func:`~kgdiff.plot.timeline_labels.top_names`); the cutoff as a bold line."""
    for snapshot in data.params["snapshots"]:
        where = day_number(date.fromisoformat(snapshot["date"]))
        ax.axvline(where, color="#777777", lw=0.6, ls=":", gid=f"snapshot-{snapshot['name']}")
    cutoff = day_number(date.fromisoformat(data.params["cutoff"]))
    ax.axvline(cutoff, color="black", lw=1.4, gid="cutoff", label=f"cutoff {data.params['cutoff']}")


def _legend(figure: Any, ax: Axes, data: PlotData) -> None:
    """Levels present (colour and letter), the two kinds of bar, the cutoff."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    present = list(dict.fromkeys(data.frame["level"].to_list()))
    handles: list[Any] = [
        Patch(
            facecolor=level_colour(level),
            edgecolor="black",
            lw=0.3,
            label=f"[{level_marker(level)}] {level_name(level)}",
        )
        for level in present
    ]
    handles += [
        Patch(facecolor="white", edgecolor="black", lw=0.3, label="record: first to last snapshot"),
        Patch(facecolor="#333333", label="valid: qualifiers (grey: date range)"),
        Line2D([], [], marker=">", ls="none", color="#333333", label="open end"),
        Patch(facecolor="white", edgecolor="#333333", ls="--", label="? unknown date"),
        Line2D([], [], color="black", lw=1.4, label=f"cutoff {data.params['cutoff']}"),
    ]
    figure.legend(handles=handles, loc="outside lower center", ncols=4, frameon=False)
