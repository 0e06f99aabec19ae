"""``kgdiff chains``: multi-hop chains valid at a reference date (DESIGN.md §5)."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from kgdiff.cli.common import StoreOption, console, parse_day
from kgdiff.errors import UsageError
from kgdiff.store.layout import StoreLayout
from kgdiff.store.store_root import open_catalog
from kgdiff.temporal.chains import (
    DEFAULT_HOPS,
    ChainQuery,
    export_chains,
    load_relations,
    stage_chains,
    staged_rows,
)
from kgdiff.temporal.writers import check_out

SHOWN = 25
"""Chains printed when no --limit is given (--out still writes them all)."""


def chains_command(
    day: Annotated[str, typer.Option("--date", help="The reference date, YYYY-MM-DD.")],
    hops: Annotated[int, typer.Option("--hops", help="Longest chain (at least 2).")] = (
        DEFAULT_HOPS
    ),
    subject: Annotated[
        list[str] | None, typer.Option("--subject", help="Only chains from this item (repeatable).")
    ] = None,
    pid: Annotated[
        list[str] | None,
        typer.Option("--pid", help="Only chains whose first hop has this property (repeatable)."),
    ] = None,
    relations: Annotated[
        Path | None,
        typer.Option("--relations", help="JSON map of a pid to its allowed next pids."),
    ] = None,
    limit: Annotated[int | None, typer.Option("--limit", help="At most N chains.")] = None,
    out: Annotated[
        Path | None, typer.Option("--out", help="Write the chains to FILE.jsonl or FILE.parquet.")
    ] = None,
    store: StoreOption = None,
) -> None:
    """Chains (s1,p1,o1),(o1,p2,o2),... valid at a date, with the answer's labels."""
    if limit is not None and limit < 1:
        raise UsageError(f"--limit {limit}: give a positive number of chains")
    if out is not None:
        check_out(out)
    query = ChainQuery(
        parse_day(day, "--date"), hops, load_relations(relations), subject or [], pid or []
    )
    layout = StoreLayout.resolve(store)
    with open_catalog(layout) as connection:
        found = stage_chains(connection, query)
        rows = staged_rows(connection, min(limit or SHOWN, SHOWN))
        written = export_chains(connection, out, limit) if out is not None else None
    console.print(_table(rows, found if limit is None else min(found, limit), query.ref_date))
    if written is not None:
        console.print(f"wrote {written:,} chains to {out}")


def _table(rows: list[dict[str, Any]], total: int, day: date) -> Table:
    title = f"{total:,} chains at {day}" + (f" (snapshot {rows[0]['snapshot']})" if rows else "")
    table = Table("start", "path", "answer", "label", title=title)
    for row in rows:
        path = " · ".join(f"{hop['pid']} → {hop['object']}" for hop in row["hops"])
        table.add_row(row["start_subject"], path, row["answer"], row["answer_label"] or "")
    if total > len(rows):
        table.caption = f"first {len(rows)} of {total:,}; --out FILE writes them all"
    return table
