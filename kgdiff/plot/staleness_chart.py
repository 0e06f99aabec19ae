"""Draw the staleness picture from its table (:mod:`kgdiff.plot.staleness_data`).

One line per level (``stable``, ``evolved``, ``uncharted``): its share of the covered groups
as the cutoff moves month by month. Each level has its colour, its marker and its dash, so a
greyscale print still tells them apart; ``--mark`` dates and the papers' cutoffs are vertical
lines. Every line has a ``gid`` (``share-stable``, ``mark-0``, ``seed-0``).
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from kgdiff.plot.embed import PlotData
from kgdiff.plot.render import date_ticks, day_number, level_colour, level_marker, new_figure, save
from kgdiff.plot.staleness_data import SHOWN

if TYPE_CHECKING:
    from matplotlib.axes import Axes

SIZE = (8.0, 4.5)
"""Inches."""
LINES = {"stable": ("o", "-"), "evolved": ("s", "--"), "uncharted": ("^", ":")}
"""Each level's point marker and dash."""


def figure_size(data: PlotData) -> tuple[float, float]:
    """Inches of the staleness picture (always the same)."""
    return SIZE


def draw_staleness(data: PlotData, out: Path) -> None:
    """Draw the staleness picture of ``data`` into ``out`` (.svg or .png), ``data`` inside."""
    from matplotlib.ticker import PercentFormatter

    mode = data.params["mode"]
    title = f"Staleness by cutoff ({mode} view): shares of the covered groups"
    with new_figure(*figure_size(data)) as figure:
        ax = figure.add_subplot()
        for level in SHOWN:
            points = data.frame.filter(data.frame["level"] == level)
            marker, dash = LINES[level]
            ax.plot(
                [day_number(day) for day in points["cutoff"].to_list()],
                points["share"].to_list(),
                marker=marker,
                ms=3,
                ls=dash,
                lw=1.2,
                color=level_colour(level),
                label=f"[{level_marker(level)}] {level}",
                gid=f"share-{level}",
            )
        for index, day in enumerate(data.params["marks"]):
            ax.axvline(
                day_number(date.fromisoformat(day)),
                color="black",
                lw=1,
                gid=f"mark-{index}",
                label="marked date" if index == 0 else None,
            )
            _caption(ax, date.fromisoformat(day), day)
        for index, seed in enumerate(data.params["seeds"]):
            ax.axvline(
                day_number(date.fromisoformat(seed["date"])),
                color="#555555",
                lw=0.8,
                ls="-.",
                gid=f"seed-{index}",
                label="paper's cutoff" if index == 0 else None,
            )
            _caption(ax, date.fromisoformat(seed["date"]), seed["name"])
        first, latest = (date.fromisoformat(data.params[key]) for key in ("first", "latest"))
        ax.set_xlim(day_number(first), day_number(latest))
        ax.set_ylim(0, 1)
        ax.yaxis.set_major_formatter(PercentFormatter(1.0))
        date_ticks(ax)
        ax.set_xlabel("knowledge cutoff (first day of each month)")
        ax.set_ylabel("share of covered groups")
        ax.grid(axis="y", color="#DDDDDD", lw=0.5)
        if not data.frame.height:
            ax.text(
                0.5, 0.5, "no month lies between the snapshots", transform=ax.transAxes, ha="center"
            )
        ax.set_title(title)
        figure.legend(loc="outside lower center", ncols=5, frameon=False)
        save(figure, out, data, title)


def _caption(ax: Axes, day: date, text: str) -> None:
    """``text`` along a vertical line at ``day``, near the top of the axes."""
    ax.text(
        day_number(day),
        0.98,
        f" {text}",
        rotation=90,
        va="top",
        ha="left",
        fontsize=6,
        transform=ax.get_xaxis_transform(),
    )
