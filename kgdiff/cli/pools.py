"""``kgdiff pools``: chronological object pools per (subject, property), ChroKnowBench style."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Annotated, Any

import typer
from rich.table import Table

from kgdiff.cli.common import StoreOption, console, graph, print_notes
from kgdiff.cli.options import (
    AllowGapOption,
    LangOption,
    MaxGapOption,
    OutOption,
    checked_out,
    gap_policy,
)
from kgdiff.cli.tables import key, prose
from kgdiff.wording import counted

Period = dict[str, Any]
Record = dict[str, Any]


def pools_command(
    subjects: Annotated[
        list[str] | None,
        typer.Argument(help="Subjects, e.g. Q183 Q937 (none: every subject of --pid)."),
    ] = None,
    pid: Annotated[
        str | None, typer.Option("--pid", help="The property, e.g. P6 (none: every property).")
    ] = None,
    from_year: Annotated[
        int | None,
        typer.Option("--from-year", help="First year (default 2010, or --to-year if earlier)."),
    ] = None,
    to_year: Annotated[
        int | None,
        typer.Option(
            "--to-year",
            help="Last year (inclusive; default: the year of the latest snapshot, where the"
            " data end; a later year needs --allow-gap).",
            show_default=False,
        ),
    ] = None,
    monthly: Annotated[
        bool, typer.Option("--monthly", help="One pool per month instead of per year.")
    ] = False,
    out: OutOption = None,
    lang: LangOption = "en",
    max_gap: MaxGapOption = 31,
    allow_gap: AllowGapOption = False,
    store: StoreOption = None,
) -> None:
    """Objects of each (subject, property) per year or month, from the subject's latest snapshot.

    A period with no object takes the previous period's pool (marked filled); objects that
    only the qualifiers' precision puts in a period are marked; a group is dynamic if its
    pool changes over the range, else static (docs/questions.md). A subject that the latest
    snapshot, a subset, does not hold is read from the latest earlier snapshot that holds it.
    The pools stop at the latest snapshot's year unless --to-year asks otherwise, and say where
    they stop and why.
    """
    out = checked_out(out)
    granularity = "month" if monthly else "year"
    gap = gap_policy(max_gap, allow_gap)
    answers = graph(store).answers
    if out is not None:  # written a batch at a time: every subject's pools can be many GB
        written, notes = answers.write_pools(
            out, subjects, pid, from_year, to_year, granularity, lang, gap
        )
        print_notes(notes[:1])
        console.print(f"wrote {counted(written, 'group')} to {out}, with {lang} labels")
    else:
        answer = answers.pools(subjects, pid, from_year, to_year, granularity, lang, gap)
        notes = answer.notes
        print_notes(notes[:1])
        console.print(_table(answer.frame.to_dicts(), granularity))
    print_notes(notes[1:])


def _named(label: object, value: object) -> str:
    return str(value) if label == value else f"{label} ({value})"


def _table(records: list[Record], granularity: str) -> Table:
    """One row per run of consecutive periods that share the same pool."""
    periods = [p["period"] for p in records[0]["periods"]] if records else []
    span = f"{periods[0][:4]}–{periods[-1][:4]}" if periods else "no period"
    table = Table(
        prose("subject"),
        prose("property"),
        key("state"),
        prose("periods"),
        prose("objects"),
        prose("notes"),
        title=f"object pools per {granularity}, {span}: {counted(len(records), 'group')}",
    )
    for record in records:
        names = dict(zip(record["all_objects"], record["all_objects_labels"], strict=True))
        head = [
            _named(record["subject_label"], record["subject"]),
            _named(record["pid_label"], record["pid"]),
            record["state"],
        ]
        for run in _runs(record["periods"]):
            objects = ", ".join(_named(names[v], v) for v in run[0]["objects"]) or "—"
            table.add_row(*head, _label(run), objects, _notes(run, names))
            head = ["", "", ""]
    return table


def _runs(periods: Iterable[Period]) -> Iterator[list[Period]]:
    """Consecutive periods grouped while their pool and flags stay the same."""
    run: list[Period] = []
    for period in periods:
        if run and _pool(period) != _pool(run[0]):
            yield run
            run = []
        run.append(period)
    if run:
        yield run


def _pool(period: Period) -> tuple[object, ...]:
    keys = ("objects", "precision_only", "unqualified", "filled")
    return (*(str(period[key]) for key in keys), period["gap_days"] > 0)


def _label(run: list[Period]) -> str:
    first, last = run[0]["period"], run[-1]["period"]
    return first if first == last else f"{first} … {last}"


def _notes(run: list[Period], names: dict[str, str]) -> str:
    period, notes = run[0], []
    if period["gap_days"] > 0:
        notes.append(f"after the data (up to {run[-1]['gap_days']:,} days after the snapshot)")
    if period["filled"]:
        notes.append("filled")
    if period["precision_only"]:
        shown = ", ".join(_named(names[v], v) for v in period["precision_only"])
        notes.append("precision only: " + shown)
    if period["unqualified"]:
        notes.append(
            "unqualified: " + ", ".join(_named(names[v], v) for v in period["unqualified"])
        )
    return "; ".join(notes)
