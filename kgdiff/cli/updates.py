"""`kgdiff updates`: AntiLeakBench knowledge updates after a cutoff."""

from __future__ import annotations

from typing import Annotated, Any

import pyarrow as pa
import typer
from rich.table import Table

from kgdiff.cli.common import StoreOption, console, parse_day
from kgdiff.cli.options import (
    AllowGapOption,
    LangOption,
    MaxGapOption,
    OutOption,
    PidsOption,
    checked_out,
    describe_reads,
    gap_policy,
    pid_list,
)
from kgdiff.query.ids import check_known
from kgdiff.query.labels import Labels, repeated_ids
from kgdiff.store.layout import StoreLayout
from kgdiff.store.store_root import open_catalog
from kgdiff.temporal.dates import DateRead
from kgdiff.temporal.updates import UpdatesQuery, check_window, find_updates
from kgdiff.temporal.writers import write_reader

SHOWN = 20
LABELLED = [
    ("subject", "subject_label"),
    ("pid", "pid_label"),
    ("new_object", "new_object_label"),
    ("old_objects", "old_objects_labels"),
]
"""The id columns of an update and their label columns."""


def updates_command(
    cutoff: Annotated[str, typer.Option("--cutoff", help="The model's knowledge cutoff.")],
    current: Annotated[str, typer.Option("--current", help="The present, YYYY-MM-DD.")],
    pid: PidsOption = None,
    out: OutOption = None,
    lang: LangOption = "en",
    max_gap: MaxGapOption = 31,
    allow_gap: AllowGapOption = False,
    store: StoreOption = None,
) -> None:
    """Knowledge updates after a cutoff, as AntiLeakBench defines them (valid time: the
    latest snapshot at or before --current is read)."""
    out = checked_out(out)
    days = parse_day(cutoff, "--cutoff"), parse_day(current, "--current")
    check_window(*days)
    query = UpdatesQuery(*days, pid_list(pid), lang, gap_policy(max_gap, allow_gap))
    layout = StoreLayout.resolve(store)
    with open_catalog(layout) as connection:
        check_known(connection, query.pids)
        reads = query.check(connection)
        table = find_updates(connection, query).to_arrow_table()
    for line in describe_reads(reads):
        console.print(line, highlight=False, markup=False)
    console.print(_summary(table.slice(0, SHOWN).to_pylist(), table.num_rows))
    if table.num_rows == 0:
        console.print(why_no_update(query, reads), highlight=False, markup=False)
    if out is not None:
        written = write_reader(table.to_reader(), out)
        console.print(f"wrote {written:,} updates to {out}, with {lang} labels", highlight=False)
    note = Labels({}, lang, unlabelled_ids(table)).missing_note()
    if note:
        console.print(note, highlight=False, markup=False)


def unlabelled_ids(table: pa.Table) -> set[str]:
    """The ids the updates show without a label."""
    found: set[str] = set()
    for ids, labels in LABELLED:
        found |= repeated_ids(table.column(ids), table.column(labels))
    return found


def why_no_update(query: UpdatesQuery, reads: list[DateRead]) -> str:
    """Why no update was found: what an update needs, in the snapshot read."""
    read = next((r for r in reads if r.role == "current"), None)
    snapshot = read.snapshot if read is not None else None
    if snapshot is None:
        return f"no knowledge update: no snapshot at or before {query.current} to read"
    which = f" of {', '.join(query.pids)}" if query.pids else ""
    return (
        f"no knowledge update: no group{which} in {snapshot} was replaced after the cutoff"
        f" with an old statement ended by {query.current} and a new one started after"
        f" {query.cutoff} (valid time)"
    )


def _named(label: object, value: object) -> str:
    return str(value) if label == value else f"{label} ({value})"


def _summary(rows: list[dict[str, Any]], total: int) -> Table:
    title = f"{total:,} knowledge updates"
    table = Table("subject", "property", "old", "new", "new since", title=title)
    for row in rows:
        since = row["new_start_lo"]
        if row["new_start_hi"] != since:
            since = f"{since} … {row['new_start_hi']}"
        pairs = zip(row["old_objects_labels"], row["old_objects"], strict=True)
        old = ", ".join(_named(label, value) for label, value in pairs)
        table.add_row(
            _named(row["subject_label"], row["subject"]),
            _named(row["pid_label"], row["pid"]),
            old,
            _named(row["new_object_label"], row["new_object"]),
            str(since),
        )
    if total > len(rows):
        table.caption = f"first {len(rows)} shown; --out writes them all"
    return table
