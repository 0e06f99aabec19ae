"""Make a matplotlib figure and write it, with its data, to an SVG or PNG file.

matplotlib is imported here, lazily, and draws on its ``Agg`` canvas (no display, no GUI
toolkit, no pyplot): only a plot command pays for it. The SVG is byte-identical for the same
data (a fixed ``svg.hashsalt`` for the ids matplotlib makes up, no creation date, glyphs as
paths).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kgdiff.calendars import date_of_day, day_of_date
from kgdiff.calendars import day_number as calendar_day
from kgdiff.plot.embed import PlotData, picture_kind, savefig_metadata
from kgdiff.temporal.writers import published
from kgdiff.timetext import year_text

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

DPI = 150
"""Pixels per inch of a PNG (an SVG has no pixels)."""
STYLE: Any = {
    "svg.hashsalt": "kgdiff-plot",
    "svg.fonttype": "path",
    "font.size": 8,
    "axes.titlesize": 10,
    "legend.fontsize": 7,
    "text.parse_math": False,  # labels are data: a "$" in one is a dollar sign, not TeX
}
"""The rc settings every plot is drawn under."""
DATE_DAYS = (day_of_date(date(1, 1, 1)), day_of_date(date(9999, 12, 31)))
"""The day numbers matplotlib's date ticks can name (Python's dates)."""
LEVEL_STYLE: dict[str | None, tuple[str, str]] = {
    "stable": ("#0072B2", "S"),
    "evolved": ("#E69F00", "E"),
    "uncharted": ("#009E73", "U"),
    "recent": ("#56B4E9", "N"),
    "retracted": ("#D55E00", "X"),
    "ambiguous": ("#CC79A7", "A"),
    "not_covered": ("#999999", "-"),
    None: ("#DDDDDD", "."),
}
"""Each level's colour (Okabe and Ito's colour-blind safe set) and the letter shown beside
it, so a greyscale print still tells the levels apart; ``None``: no group at the cutoff."""


def level_colour(level: str | None) -> str:
    """The colour of ``level`` (a light grey for a property with no group)."""
    return LEVEL_STYLE.get(level, LEVEL_STYLE[None])[0]


def level_marker(level: str | None) -> str:
    """The one-letter marker of ``level``."""
    return LEVEL_STYLE.get(level, LEVEL_STYLE[None])[1]


def level_name(level: str | None) -> str:
    """How the legend names ``level``."""
    return "no group" if level is None else level


@contextmanager
def new_figure(width: float, height: float) -> Iterator[Figure]:
    """A figure of ``width`` x ``height`` inches (constrained layout: the size never moves) on
    an Agg canvas, drawn under :data:`STYLE`. No pyplot: nothing global changes, so a
    notebook's own backend and figures are left as they were."""
    import matplotlib
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    with matplotlib.rc_context(STYLE):
        figure = Figure(figsize=(width, height), dpi=DPI, layout="constrained")
        FigureCanvasAgg(figure)
        yield figure


def save(figure: Figure, out: Path, data: PlotData, title: str) -> None:
    """Write ``figure`` to ``out`` (kind from its suffix) with ``data`` embedded; the file
    appears whole or not at all (a temporary file beside it is renamed)."""
    import matplotlib

    kind = picture_kind(out)
    metadata = savefig_metadata(kind, data, title)
    with matplotlib.rc_context(STYLE), published(out) as tmp:
        figure.savefig(tmp, format=kind, dpi=DPI, metadata=metadata)


def day_number(day: date) -> float:
    """``day`` as a position on a matplotlib date axis."""
    from matplotlib import dates as mdates

    return float(mdates.date2num(day))  # type: ignore[no-untyped-call]


def date_ticks(ax: Axes) -> None:
    """Date ticks matplotlib chooses for the x axis, labelled concisely."""
    from matplotlib import dates as mdates

    locator = mdates.AutoDateLocator()  # type: ignore[no-untyped-call]
    ax.xaxis.set_major_locator(locator)
    ax.xaxis.set_major_formatter(mdates.ConciseDateFormatter(locator))  # type: ignore[no-untyped-call]


def day_ticks(ax: Axes, left: float, right: float) -> None:
    """Ticks for an x axis of day numbers (days since 1970-01-01, matplotlib's own date
    numbers) from ``left`` to ``right``: matplotlib's dates where its calendar reaches (years
    1-9999), else about ten round years in words (``13.8 billion years BCE`` is no date any
    library holds)."""
    if DATE_DAYS[0] <= left and right <= DATE_DAYS[1]:
        date_ticks(ax)
        return
    years = (right - left) / 365.2425
    step = next(s for s in _year_steps() if years / s <= 10)
    first, _, _ = date_of_day(math.floor(left))
    ticks, labels = [], []
    year = -(-first // step) * step
    while (day := calendar_day(year, 1, 1)) <= right:
        if day >= left:
            ticks.append(float(day))
            labels.append(year_text(year, step))
        year += step
    ax.set_xticks(ticks, labels=labels)


def _year_steps() -> Iterator[int]:
    """1, 2, 5, 10, 20, 50, … years."""
    power = 1
    while True:
        yield from (power, 2 * power, 5 * power)
        power *= 10


def pixel_size(width: float, height: float) -> tuple[int, int]:
    """The size in pixels of a ``width`` x ``height`` inch figure written as a PNG."""
    return round(width * DPI), round(height * DPI)
