"""`kgdiff updates`: AntiLeakBench knowledge updates after a cutoff."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import pyarrow as pa
import pyarrow.compute as pc
import typer
from rich.table import Table

from kgdiff.cli.common import StoreOption, console, parse_day
from kgdiff.store.layout import StoreLayout
from kgdiff.store.store_root import open_catalog
from kgdiff.temporal.updates import check_window, knowledge_updates
from kgdiff.temporal.writers import check_out, write_reader

SHOWN = 20


def updates_command(
    cutoff: Annotated[str, typer.Option("--cutoff", help="The model's knowledge cutoff.")],
    current: Annotated[str, typer.Option("--current", help="The present, YYYY-MM-DD.")],
    pid: Annotated[
        list[str] | None, typer.Option("--pid", help="Only these properties (repeatable).")
    ] = None,
    out: Annotated[
        Path | None, typer.Option("--out", help="Write the updates to FILE.jsonl or .parquet.")
    ] = None,
    store: StoreOption = None,
) -> None:
    """Knowledge updates after a cutoff, as AntiLeakBench defines them (valid time)."""
    layout = StoreLayout.resolve(store)
    days = parse_day(cutoff, "--cutoff"), parse_day(current, "--current")
    check_window(*days)
    if out is not None:
        check_out(out)
    with open_catalog(layout) as connection:
        table = knowledge_updates(connection, *days).to_arrow_table()
    if pid:
        table = table.filter(pc.is_in(table["pid"], value_set=pa.array(pid, pa.string())))
    console.print(_summary(table.slice(0, SHOWN).to_pylist(), table.num_rows))
    if out is not None:
        written = write_reader(table.to_reader(), out)
        console.print(f"wrote {written:,} updates to {out}")


def _summary(rows: list[dict[str, Any]], total: int) -> Table:
    table = Table("subject", "pid", "old", "new", "new since", title=f"{total:,} knowledge updates")
    for row in rows:
        since = row["new_start_lo"]
        if row["new_start_hi"] != since:
            since = f"{since} … {row['new_start_hi']}"
        old = ", ".join(row["old_objects"])
        table.add_row(row["subject"], row["pid"], old, row["new_object"], str(since))
    if total > len(rows):
        table.caption = f"first {len(rows)} shown; --out writes them all"
    return table
