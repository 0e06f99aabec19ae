"""The bars of the timeline picture: a statement's record interval and its valid interval.

Each bar is one matplotlib artist whose ``gid`` is the bar's name in the table
(``record-N``, ``valid-N``); the extras around a valid bar (precision bands, open-end
arrows, "?" for an unknown date, the dates of a bar beyond the axis) have gids that start
with it (``valid-N-from``, ``valid-N-until-open``, ...).
"""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING, Any

from kgdiff.plot.render import day_number, level_colour

if TYPE_CHECKING:
    from matplotlib.axes import Axes

RECORD = (-0.42, 0.4)
"""A record bar's top and height within its lane (lanes run downwards)."""
VALID = (0.06, 0.22)
"""A valid bar's top and height within its lane."""


def _rectangle(
    ax: Axes, x0: float, x1: float, lane: int, place: tuple[float, float], gid: str, **style: Any
) -> None:
    from matplotlib.patches import Rectangle

    top, height = place
    ax.add_patch(Rectangle((x0, lane + top), x1 - x0, height, gid=gid, **style))


def draw_record_bar(ax: Axes, bar: dict[str, Any], minimum: float, seen_at: dict[str, str]) -> None:
    """The record bar of ``bar`` (at least ``minimum`` wide), in its level's colour, a dot at
    each snapshot that has the statement (``seen_at``: each snapshot's date)."""
    x0, x1 = float(bar["start"]), float(bar["end"])
    colour = level_colour(bar["level"])
    _rectangle(
        ax,
        x0,
        max(x1, x0 + minimum),
        bar["lane"],
        RECORD,
        bar["bar"],
        facecolor=colour,
        edgecolor="black",
        lw=0.3,
    )
    seen = [day_number(date.fromisoformat(seen_at[name])) for name in bar["snapshots"]]
    middle = bar["lane"] + RECORD[0] + RECORD[1] / 2
    ax.plot(
        seen,
        [middle] * len(seen),
        ls="none",
        marker="o",
        ms=1.8,
        color="black",
        gid=f"seen-{bar['statement']}",
    )


def draw_valid_bar(
    ax: Axes, bar: dict[str, Any], minimum: float, edges: tuple[float, float]
) -> None:
    """The valid bar of ``bar`` between the axis ``edges``: the certain part solid (between
    the bands), each imprecise end a lighter band, an open end an arrow at the axis edge, an
    unknown one dashed with a "?"."""

    def num(value: int | None) -> float | None:
        return None if value is None else float(value)

    lane, gid = bar["lane"], bar["bar"]
    if bar["shape"] == "point":
        ends = [(num(bar["point_lo"]), num(bar["point_hi"]))] * 2
    else:
        ends = [
            (num(bar["valid_from_lo"]), num(bar["valid_from_hi"])),
            (num(bar["valid_until_lo"]), num(bar["valid_until_hi"])),
        ]
    kinds = (bar["start_kind"], bar["end_kind"])
    left = ends[0][1] if kinds[0] == "date" else edges[0]
    right = ends[1][0] if kinds[1] == "date" else edges[1]
    assert left is not None and right is not None
    unknown = "unknown" in kinds
    _rectangle(
        ax,
        left,
        max(right, left + minimum),
        lane,
        VALID,
        gid,
        facecolor="white" if unknown else "#333333",
        edgecolor="#333333",
        lw=0.6,
        ls="--" if unknown else "-",
    )
    middle = lane + VALID[0] + VALID[1] / 2
    for side, ((lo, hi), kind, edge) in enumerate(zip(ends, kinds, edges, strict=True)):
        name = f"{gid}-{'from' if side == 0 else 'until'}"
        if kind == "date" and lo is not None and hi is not None and hi > lo:
            _rectangle(ax, lo, hi, lane, VALID, name, facecolor="#AAAAAA", lw=0)
        elif kind == "open":
            ax.plot([edge], [middle], marker="<>"[side], ms=4, color="#333333", gid=f"{name}-open")
        elif kind == "unknown":
            ax.text(
                edge,
                middle,
                "?",
                ha="left" if side == 0 else "right",
                va="center",
                fontsize=7,
                fontweight="bold",
                gid=f"{name}-unknown",
            )
    if bar["shape"] == "point" and kinds[0] == "date":
        ax.plot(
            [(left + right) / 2], [middle], marker="D", ms=3, color="#333333", gid=f"{gid}-point"
        )
    _off_axis(ax, bar, (left, right), edges, middle)


def _off_axis(
    ax: Axes,
    bar: dict[str, Any],
    span: tuple[float, float],
    edges: tuple[float, float],
    middle: float,
) -> None:
    """A valid bar wholly beyond one side of the axis: its dates written at that edge, in
    words (``13.798 billion years BCE``)."""
    if bar["shape"] == "point":
        texts = [bar["point_text"]]
    else:
        texts = [bar["valid_from_text"], bar["valid_until_text"]]
    years = " – ".join(dict.fromkeys(text or "?" for text in texts))
    if span[1] < edges[0]:
        ax.text(
            edges[0],
            middle,
            f" < {years}",
            ha="left",
            va="center",
            fontsize=5,
            gid=f"{bar['bar']}-before",
        )
    elif span[0] > edges[1]:
        ax.text(
            edges[1],
            middle,
            f"{years} > ",
            ha="right",
            va="center",
            fontsize=5,
            gid=f"{bar['bar']}-after",
        )
