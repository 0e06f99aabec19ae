"""Options that several commands share: dates beyond the data, labels' language, outputs."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from kgdiff.ids import normalise_ids
from kgdiff.temporal.dates import DateRead, GapPolicy
from kgdiff.temporal.writers import check_out, check_parent

MaxGapOption = Annotated[
    int,
    typer.Option(
        "--max-gap",
        min=0,
        help="Days a date may lie after the latest snapshot before it is refused.",
    ),
]
AllowGapOption = Annotated[
    bool,
    typer.Option(
        "--allow-gap",
        help="Answer dates beyond the data anyway (after the latest snapshot, or before the"
        " first in record time); the output says how far each date is from its snapshot.",
    ),
]
InitOption = Annotated[
    str | None,
    typer.Option(
        "--init", help="Start of the window, YYYY-MM-DD (default: the first snapshot's date)."
    ),
]
CutoffOption = Annotated[str, typer.Option("--cutoff", help="The model's knowledge cutoff.")]
CurrentOption = Annotated[
    str | None,
    typer.Option(
        "--current", help="The present, YYYY-MM-DD (default: the latest snapshot's date)."
    ),
]
LangOption = Annotated[
    str, typer.Option("--lang", help="Language of the labels shown (e.g. de, fr).")
]
OutOption = Annotated[
    Path | None,
    typer.Option("--out", help="Also write the rows to FILE.csv, FILE.jsonl or FILE.parquet."),
]
PidsOption = Annotated[
    list[str] | None, typer.Option("--pid", help="Only these properties (repeatable).")
]


def gap_policy(max_gap: int, allow_gap: bool) -> GapPolicy:
    """The policy of ``--max-gap`` and ``--allow-gap``."""
    return GapPolicy(max_gap=max_gap, allow=allow_gap)


def checked_out(out: Path | None) -> Path | None:
    """``--out`` once its kind and folder are known to work (before any work is done)."""
    if out is None:
        return None
    check_out(out)
    check_parent(out)
    return out


def pid_list(pids: list[str] | None) -> list[str]:
    """``--pid`` values normalised (``p6`` → ``P6``); a usage error for a malformed one."""
    return normalise_ids(pids or [], "--pid")


def describe_reads(reads: list[DateRead]) -> list[str]:
    """One line per date: the snapshot that answers it and how far the date is from it."""
    lines = []
    for read in reads:
        if read.snapshot is None:
            where = "no snapshot answers it"
        else:
            where = f"{read.view} time reads {read.snapshot} ({read.snapshot_date}"
            where += ", subset)" if read.coverage == "subset" else ")"
            where += f", {_distance(read.gap_days)}"
        problem = f"  [beyond the data: {read.problem}]" if read.problem else ""
        lines.append(f"{read.role} {read.day}: {where}{problem}")
    return lines


def _distance(days: int | None) -> str:
    if not days:
        return "its own day"
    span = f"{abs(days):,} day{'s' if abs(days) > 1 else ''}"
    if days > 0:
        return f"{span} after it"
    return f"{span} before it (qualifiers answer)"
