"""Make a matplotlib figure and write it, with its data, to an SVG or PNG file.

matplotlib is imported here, lazily, and draws on its ``Agg`` canvas (no display, no GUI
toolkit, no pyplot): only a plot command pays for it. The SVG is byte-identical for the same
data (a fixed ``svg.hashsalt`` for the ids matplotlib makes up, no creation date, glyphs as
paths).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kgdiff.plot.embed import PlotData, picture_kind, savefig_metadata
from kgdiff.temporal.writers import published

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


def pixel_size(width: float, height: float) -> tuple[int, int]:
    """The size in pixels of a ``width`` x ``height`` inch figure written as a PNG."""
    return round(width * DPI), round(height * DPI)
