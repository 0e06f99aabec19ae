"""Draw an entity's timeline picture from its table (:mod:`kgdiff.plot.timeline_data`).

One row per property, one lane per statement: a thick bar for the record interval (first to
last snapshot seen, dots at the snapshots that have it), a thin one for the valid interval
(lighter bands where the dates' precision leaves a range, an arrow where it is open, a dashed
outline and "?" where a date is unknown). Snapshots are vertical guides, the cutoff a line,
each property's row is tinted by its level at the cutoff, and labelled with the level's letter.
Every bar has a ``gid`` (``record-N``, ``valid-N``), so the SVG has one element per bar.
"""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kgdiff.plot.embed import PlotData
from kgdiff.plot.render import level_colour, level_marker, level_name, new_figure, save

if TYPE_CHECKING:
    from matplotlib.axes import Axes

WIDTH = 10.0
"""Inches."""
RECORD = (-0.42, 0.4)
"""A record bar's top and height within its lane (lanes run downwards)."""
VALID = (0.06, 0.22)
"""A valid bar's top and height within its lane."""
LABEL_CHARS = 38


def figure_size(data: PlotData) -> tuple[float, float]:
    """Inches of the timeline picture of ``data``: 0.22 per lane and room for the rest."""
    lanes = int(data.frame["lane"].max() or 0) + 1 if data.frame.height else 1
    return WIDTH, round(2.2 + 0.22 * lanes, 2)


def axis_span(data: PlotData) -> tuple[date, date]:
    """The dates the x axis shows (before padding): the snapshots' span, or with
    ``axis=all`` every date in the table, the snapshots and the cutoff."""
    days = [date.fromisoformat(snapshot["date"]) for snapshot in data.params["snapshots"]]
    if data.params["axis"] == "all":
        days.append(date.fromisoformat(data.params["cutoff"]))
        for name in ("start", "end"):
            days += data.frame[name].drop_nulls().to_list()
    return min(days), max(days)


def draw_timeline(data: PlotData, out: Path) -> None:
    """Draw the timeline picture of ``data`` into ``out`` (.svg or .png), ``data`` inside."""
    from matplotlib import dates as mdates

    width, height = figure_size(data)
    first, last = axis_span(data)
    pad = max((last - first).days * 0.03, 10)
    left = mdates.date2num(first - timedelta(days=pad))
    right = mdates.date2num(last + timedelta(days=pad))
    with new_figure(width, height) as figure:
        ax = figure.add_subplot()
        ax.set_xlim(left, right)
        lanes = int(data.frame["lane"].max() or 0) + 1 if data.frame.height else 1
        ax.set_ylim(lanes - 0.5, -0.5)
        _rows(ax, data)
        _guides(ax, data)
        minimum = (right - left) * 0.004
        seen_at = {item["name"]: item["date"] for item in data.params["snapshots"]}
        for bar in data.frame.iter_rows(named=True):
            if bar["kind"] == "record":
                _record_bar(ax, bar, minimum, seen_at)
            else:
                _valid_bar(ax, bar, minimum, (left, right))
        ax.xaxis.set_major_locator(mdates.AutoDateLocator())
        ax.xaxis.set_major_formatter(mdates.ConciseDateFormatter(ax.xaxis.get_major_locator()))
        if not data.frame.height:
            ax.text(0.5, 0.5, "no statements", transform=ax.transAxes, ha="center")
        title = (
            f"{data.params['subject_label']} ({data.params['qid']}): cutoff"
            f" {data.params['cutoff']}, {data.params['mode']} view"
        )
        ax.set_title(title)
        _legend(figure, ax, data)
        save(figure, out, data, title)


def _rows(ax: Axes, data: PlotData) -> None:
    """Each property's tinted band, its label (level letter, label, id) and a rule below."""
    ticks: list[float] = []
    labels: list[str] = []
    for (row,), lanes in data.frame.group_by(["row"], maintain_order=True):
        top, bottom = int(lanes["lane"].min() or 0), int(lanes["lane"].max() or 0)
        level, pid, label = lanes["level"][0], lanes["pid"][0], lanes["pid_label"][0]
        ax.axhspan(top - 0.5, bottom + 0.5, color=level_colour(level), alpha=0.14, lw=0,
                   gid=f"row-{pid}")
        ax.axhline(bottom + 0.5, color="#BBBBBB", lw=0.4)
        ticks.append((top + bottom) / 2)
        text = label if len(label) <= LABEL_CHARS else label[: LABEL_CHARS - 1] + "…"
        labels.append(f"[{level_marker(level)}] {text} ({pid})")
    ax.set_yticks(ticks, labels=labels)
    ax.tick_params(axis="y", length=0)


def _guides(ax: Axes, data: PlotData) -> None:
    """Snapshots as thin vertical lines named along the top; the cutoff as a bold line."""
    from matplotlib import dates as mdates

    positions = []
    for snapshot in data.params["snapshots"]:
        where = mdates.date2num(date.fromisoformat(snapshot["date"]))
        ax.axvline(where, color="#777777", lw=0.6, ls=":", gid=f"snapshot-{snapshot['name']}")
        positions.append(where)
    top = ax.secondary_xaxis("top")
    top.set_xticks(positions, labels=[item["name"] for item in data.params["snapshots"]])
    top.tick_params(labelsize=6, rotation=30)
    cutoff = mdates.date2num(date.fromisoformat(data.params["cutoff"]))
    ax.axvline(cutoff, color="black", lw=1.4, gid="cutoff", label=f"cutoff {data.params['cutoff']}")


def _rectangle(ax: Axes, x0: float, x1: float, lane: int, place: tuple[float, float],
               gid: str, **style: Any) -> None:
    from matplotlib.patches import Rectangle

    top, height = place
    ax.add_patch(Rectangle((x0, lane + top), x1 - x0, height, gid=gid, **style))


def _record_bar(ax: Axes, bar: dict[str, Any], minimum: float, seen_at: dict[str, str]) -> None:
    from matplotlib import dates as mdates

    x0, x1 = mdates.date2num(bar["start"]), mdates.date2num(bar["end"])
    colour = level_colour(bar["level"])
    _rectangle(ax, x0, max(x1, x0 + minimum), bar["lane"], RECORD, bar["bar"],
               facecolor=colour, edgecolor="black", lw=0.3)
    seen = [mdates.date2num(date.fromisoformat(seen_at[name])) for name in bar["snapshots"]]
    middle = bar["lane"] + RECORD[0] + RECORD[1] / 2
    ax.plot(seen, [middle] * len(seen), ls="none", marker="o", ms=1.8, color="black",
            gid=f"seen-{bar['statement']}")


def _valid_bar(ax: Axes, bar: dict[str, Any], minimum: float, edges: tuple[float, float]) -> None:
    """The certain part solid (between the bands), each imprecise end as a lighter band, an
    open end as an arrow at the axis edge, an unknown one dashed with a "?"."""
    from matplotlib import dates as mdates

    def num(value: date | None) -> float | None:
        return None if value is None else float(mdates.date2num(value))

    lane, gid = bar["lane"], bar["bar"]
    if bar["shape"] == "point":
        ends = [(num(bar["point_lo"]), num(bar["point_hi"]))] * 2
    else:
        ends = [(num(bar["valid_from_lo"]), num(bar["valid_from_hi"])),
                (num(bar["valid_until_lo"]), num(bar["valid_until_hi"]))]
    kinds = (bar["start_kind"], bar["end_kind"])
    left = ends[0][1] if kinds[0] == "date" else edges[0]
    right = ends[1][0] if kinds[1] == "date" else edges[1]
    assert left is not None and right is not None
    unknown = "unknown" in kinds
    _rectangle(ax, left, max(right, left + minimum), lane, VALID, gid,
               facecolor="white" if unknown else "#333333", edgecolor="#333333", lw=0.6,
               ls="--" if unknown else "-")
    middle = lane + VALID[0] + VALID[1] / 2
    for side, ((lo, hi), kind, edge) in enumerate(zip(ends, kinds, edges, strict=True)):
        name = f"{gid}-{'from' if side == 0 else 'until'}"
        if kind == "date" and lo is not None and hi is not None and hi > lo:
            _rectangle(ax, lo, hi, lane, VALID, name, facecolor="#AAAAAA", lw=0)
        elif kind == "open":
            ax.plot([edge], [middle], marker="<>"[side], ms=4, color="#333333", gid=f"{name}-open")
        elif kind == "unknown":
            ax.text(edge, middle, "?", ha="left" if side == 0 else "right", va="center",
                    fontsize=7, fontweight="bold", gid=f"{name}-unknown")
    if bar["shape"] == "point" and kinds[0] == "date":
        ax.plot([(left + right) / 2], [middle], marker="D", ms=3, color="#333333",
                gid=f"{gid}-point")
    _off_axis(ax, bar, (left, right), edges, middle)


def _off_axis(ax: Axes, bar: dict[str, Any], span: tuple[float, float],
              edges: tuple[float, float], middle: float) -> None:
    """A valid bar wholly beyond one side of the axis: its years written at that edge."""
    years = "–".join(dict.fromkeys(str(day.year) if day else "?" for day in (bar["start"], bar["end"])))
    if span[1] < edges[0]:
        ax.text(edges[0], middle, f" < {years}", ha="left", va="center", fontsize=5,
                gid=f"{bar['bar']}-before")
    elif span[0] > edges[1]:
        ax.text(edges[1], middle, f"{years} > ", ha="right", va="center", fontsize=5,
                gid=f"{bar['bar']}-after")


def _legend(figure: Any, ax: Axes, data: PlotData) -> None:
    """Levels present (colour and letter), the two kinds of bar, the cutoff."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    present = list(dict.fromkeys(data.frame["level"].to_list()))
    handles: list[Any] = [
        Patch(facecolor=level_colour(level), edgecolor="black", lw=0.3,
              label=f"[{level_marker(level)}] {level_name(level)}")
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
