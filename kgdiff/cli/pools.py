"""``kgdiff pools``: chronological object pools per (subject, property), ChroKnowBench style."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Annotated, Any

import duckdb
import typer
from rich.table import Table

from kgdiff.cli.common import StoreOption, console
from kgdiff.errors import StoreError
from kgdiff.store.layout import StoreLayout
from kgdiff.store.store_root import open_catalog
from kgdiff.temporal.pools import PoolRequest, export_pools, pool_records

Period = dict[str, Any]


def pools_command(
    subjects: Annotated[
        list[str] | None,
        typer.Argument(help="Subjects, e.g. Q183 Q937 (none: every subject of --pid)."),
    ] = None,
    pid: Annotated[
        str | None, typer.Option("--pid", help="The property, e.g. P6 (none: every property).")
    ] = None,
    from_year: Annotated[int, typer.Option("--from-year", help="First year.")] = 2010,
    to_year: Annotated[int, typer.Option("--to-year", help="Last year (inclusive).")] = 2023,
    monthly: Annotated[
        bool, typer.Option("--monthly", help="One pool per month instead of per year.")
    ] = False,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Write one record per group to FILE.jsonl or FILE.parquet."),
    ] = None,
    store: StoreOption = None,
) -> None:
    """Objects of each (subject, property) per year or month, from the latest snapshot.

    A period with no object takes the previous period's pool (marked filled); objects that
    only the qualifiers' precision puts in a period are marked; a group is dynamic if its
    pool changes over the range, else static (DESIGN.md §5).
    """
    granularity = "month" if monthly else "year"
    request = PoolRequest(tuple(subjects or ()), pid, from_year, to_year, granularity)
    request.check()
    layout = StoreLayout.resolve(store)
    with open_catalog(layout) as connection:
        try:
            if out is not None:
                written = export_pools(connection, request, out)
                console.print(f"wrote {written:,} groups to {out}")
                return
            records = list(pool_records(connection, request))
        except duckdb.CatalogException as exc:
            raise StoreError(f"{layout.catalog} has no statements; ingest a snapshot") from exc
    console.print(_table(request, records))


def _table(request: PoolRequest, records: list[dict[str, Any]]) -> Table:
    """One row per run of consecutive periods that share the same pool."""
    span = f"{request.from_year}–{request.to_year}"
    table = Table(
        "subject",
        "pid",
        "state",
        "periods",
        "objects",
        "notes",
        title=f"object pools per {request.granularity}, {span}: {len(records):,} groups",
    )
    for record in records:
        first = True
        for run in _runs(record["periods"]):
            head = [record["subject"], record["pid"], record["state"]] if first else ["", "", ""]
            table.add_row(*head, _label(run), ", ".join(run[0]["objects"]) or "—", _notes(run[0]))
            first = False
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
    return tuple(str(period[key]) for key in keys)


def _label(run: list[Period]) -> str:
    first, last = run[0]["period"], run[-1]["period"]
    return first if first == last else f"{first} … {last}"


def _notes(period: Period) -> str:
    notes = []
    if period["filled"]:
        notes.append("filled")
    if period["precision_only"]:
        notes.append("precision only: " + ", ".join(period["precision_only"]))
    if period["unqualified"]:
        notes.append("unqualified: " + ", ".join(period["unqualified"]))
    return "; ".join(notes)
