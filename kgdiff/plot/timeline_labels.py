"""The texts around a timeline picture that must never overprint each other: the names of the
snapshots and the cutoff along the top, and the caption under the picture (what was left
out, and how to draw it).

Snapshots a few days apart (or on the same day: an RDF snapshot of a dump's day) would put
their names on top of each other; each name is set on the lowest line above the axes where it
overlaps no other, its size measured by the renderer that draws it.
"""

from __future__ import annotations

import textwrap
from datetime import date
from typing import TYPE_CHECKING, Any

from kgdiff.plot.render import day_number

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure
    from matplotlib.text import Annotation

LINE_POINTS = 8.5
"""The height of one line of names above the axes, in points."""
GAP_PIXELS = 3.0
"""The least room between two names on one line."""
CAPTION_CHARS = 160
"""Characters per line of the caption."""


def top_names(figure: Figure, ax: Axes, data: Any) -> list[Annotation]:
    """Each snapshot's name above its guide, and the cutoff's (bold) above its line, each on
    the lowest line where it overlaps no other name (``data``: the picture's PlotData)."""
    marks = [
        (
            day_number(date.fromisoformat(item["date"])),
            item["name"],
            f"snapshot-name-{item['name']}",
        )
        for item in data.params["snapshots"]
    ]
    cutoff = day_number(date.fromisoformat(data.params["cutoff"]))
    marks.append((cutoff, f"cutoff {data.params['cutoff']}", "cutoff-name"))
    left, right = ax.get_xlim()
    names = [
        _name(ax, x, text, gid, bold=gid == "cutoff-name", at_right=x > (left + right) / 2)
        for x, text, gid in sorted(marks, key=lambda mark: mark[0])
    ]
    figure.draw_without_rendering()  # the layout settles, so the sizes are the drawn ones
    _stack(figure, names)
    return names


def _name(ax: Axes, x: float, text: str, gid: str, bold: bool, at_right: bool) -> Annotation:
    """A name just above the axes at ``x``, reaching away from the nearer edge."""
    return ax.annotate(
        text,
        xy=(x, 1.0),
        xycoords=("data", "axes fraction"),
        xytext=(0, 2),
        textcoords="offset points",
        ha="right" if at_right else "left",
        va="bottom",
        fontsize=6.5,
        fontweight="bold" if bold else "normal",
        annotation_clip=False,
        gid=gid,
    )


def _stack(figure: Figure, names: list[Annotation]) -> None:
    """Move each name up a line at a time until it overlaps none placed before it."""
    renderer = figure.canvas.get_renderer()  # type: ignore[attr-defined]
    placed: list[Any] = []
    for name in names:
        line = 0
        while True:
            name.set_position((0, 2 + line * LINE_POINTS))
            box = name.get_window_extent(renderer).expanded(1.0, 1.0).padded(GAP_PIXELS / 2)
            if not any(box.overlaps(other) for other in placed):
                break
            line += 1
        placed.append(box)


def caption(figure: Figure, ax: Axes, sentences: list[str]) -> None:
    """``sentences`` under the axes' tick labels, from the figure's left edge, wrapped; part
    of the layout, so the legend goes below it and nothing overprints it."""
    if not sentences:
        return
    text = "\n".join(textwrap.fill(sentence, CAPTION_CHARS) for sentence in sentences)
    ax.annotate(
        text,
        xy=(0.01, 0.0),
        xycoords=("figure fraction", "axes fraction"),
        xytext=(0, -18),
        textcoords="offset points",
        ha="left",
        va="top",
        fontsize=6.5,
        annotation_clip=False,
        gid="caption",
    )
