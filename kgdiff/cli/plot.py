"""`kgdiff plot timeline` and `kgdiff plot staleness`: the explorer's pictures as SVG or PNG
files for papers, each carrying the table it was drawn from (docs/plots.md)."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Annotated

import typer

from kgdiff.cli.common import StoreOption, console, graph, parse_day, print_notes
from kgdiff.cli.options import LangOption, pid_list
from kgdiff.errors import UsageError
from kgdiff.plot.embed import PlotData, picture_kind
from kgdiff.plot.timeline_choice import MAX_LANES
from kgdiff.temporal.writers import OUT_SUFFIXES, check_out, check_parent, write_reader

PictureOption = Annotated[
    Path, typer.Option("--out", help="The picture to write: FILE.svg or FILE.png.")
]
DataOption = Annotated[
    Path | None,
    typer.Option(
        "--data", help="Also write the picture's table to FILE.csv, FILE.jsonl or FILE.parquet."
    ),
]
PlotModeOption = Annotated[
    str, typer.Option("--mode", help="record (snapshots) or valid (qualifiers) time.")
]
MODES = ("record", "valid")


def plot_timeline_command(
    qid: Annotated[str, typer.Argument(help="The entity, e.g. Q42.")],
    out: PictureOption,
    cutoff: Annotated[
        str | None,
        typer.Option(
            "--cutoff",
            help="The knowledge cutoff, YYYY-MM-DD. Default: the first of the month the middle"
            " of the snapshots' span falls in (as the explorer starts).",
        ),
    ] = None,
    mode: PlotModeOption = "record",
    pid: Annotated[
        list[str] | None,
        typer.Option(
            "--pid",
            help="Only these properties (repeatable), every statement of them. Default: the"
            " properties that changed and the relation catalogue's.",
        ),
    ] = None,
    every: Annotated[
        bool,
        typer.Option("--all", help="Every property and every statement, without the height cap."),
    ] = False,
    max_lanes: Annotated[
        int,
        typer.Option(
            "--max-lanes",
            metavar="N",
            help="The height cap: at most N statements (0: no cap); the picture names what it"
            " leaves out.",
        ),
    ] = MAX_LANES,
    lang: LangOption = "en",
    axis: Annotated[
        str,
        typer.Option(
            "--axis",
            help="snapshots: the snapshots' span (valid dates may reach back decades);"
            " all: every date shown (snapshots, cutoff, record and valid dates).",
        ),
    ] = "snapshots",
    data: DataOption = None,
    store: StoreOption = None,
) -> None:
    """An entity's statements by property: record and valid intervals, the snapshots, the
    cutoff, and each property's level at the cutoff. By default the properties that changed
    and the relation catalogue's, at most --max-lanes statements; the picture says what it
    leaves out."""
    from kgdiff.export.relations.catalogue import shipped_catalogue
    from kgdiff.plot.timeline_chart import draw_timeline
    from kgdiff.plot.timeline_data import TimelineRequest, timeline_data

    _check_outputs(out, data)
    day = parse_day(cutoff, "--cutoff") if cutoff is not None else None
    request = TimelineRequest(
        qid, day, _mode(mode), tuple(pid_list(pid)), lang, axis, max_lanes, every
    )
    table = timeline_data(graph(store), request, shipped_catalogue().relations.keys())
    draw_timeline(table, out)
    _finish(table, out, data, "bars")


def plot_staleness_command(
    out: PictureOption,
    mode: PlotModeOption = "record",
    seeds: Annotated[
        bool, typer.Option("--seeds", help="Mark the research papers' knowledge cutoffs.")
    ] = False,
    mark: Annotated[
        list[str] | None, typer.Option("--mark", help="Mark this date (repeatable), YYYY-MM-DD.")
    ] = None,
    data: DataOption = None,
    store: StoreOption = None,
) -> None:
    """Shares of stable, evolved and uncharted among the covered groups as the cutoff moves
    month by month between the snapshots."""
    from kgdiff.plot.staleness_chart import draw_staleness
    from kgdiff.plot.staleness_data import StalenessRequest, staleness_data

    _check_outputs(out, data)
    marks = tuple(_marks(mark))
    table = staleness_data(graph(store), StalenessRequest(_mode(mode), marks, seeds))
    draw_staleness(table, out)
    _finish(table, out, data, "points")


def _check_outputs(out: Path, data: Path | None) -> None:
    """Both outputs' kinds and folders, before any work."""
    picture_kind(out)
    check_parent(out)
    if data is not None:
        try:
            check_out(data)
        except UsageError as exc:
            raise UsageError(str(exc).replace("--out", "--data", 1)) from exc
        check_parent(data, "--data")


def _mode(mode: str) -> str:
    if mode not in MODES:
        raise UsageError(f"--mode {mode!r} is not one of {', '.join(MODES)}")
    return mode


def _marks(values: list[str] | None) -> list[date]:
    return [parse_day(value, "--mark") for value in values or []]


def _finish(table: PlotData, out: Path, data: Path | None, what: str) -> None:
    """Say what was written, write the table if asked, print the notes."""
    console.print(f"wrote {out} ({table.frame.height:,} {what})", highlight=False)
    if data is not None:
        write_reader(table.frame.to_arrow().to_reader(), data, OUT_SUFFIXES)
        console.print(f"wrote its table to {data}", highlight=False)
    print_notes(table.notes)
