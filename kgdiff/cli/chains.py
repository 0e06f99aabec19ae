"""``kgdiff chains``: multi-hop chains valid at a reference date (DESIGN.md §5)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import duckdb
import typer
from rich.table import Table

from kgdiff.cli.common import StoreOption, console, parse_day
from kgdiff.cli.options import (
    AllowGapOption,
    LangOption,
    MaxGapOption,
    OutOption,
    checked_out,
    describe_reads,
    gap_policy,
    pid_list,
)
from kgdiff.errors import UsageError
from kgdiff.query.ids import check_known, normalise_ids, why_empty
from kgdiff.query.labels import Labels
from kgdiff.store.layout import StoreLayout
from kgdiff.store.store_root import open_catalog
from kgdiff.temporal.chains import (
    DEFAULT_HOPS,
    ChainQuery,
    export_chains,
    load_relations,
    stage_chains,
    staged_rows,
    staged_unlabelled,
)
from kgdiff.temporal.dates import DateRead

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
    out: OutOption = None,
    lang: LangOption = "en",
    max_gap: MaxGapOption = 31,
    allow_gap: AllowGapOption = False,
    store: StoreOption = None,
) -> None:
    """Chains (s1,p1,o1),(o1,p2,o2),... valid at a date (record time), with labels."""
    if limit is not None and limit < 1:
        raise UsageError(f"--limit {limit}: give a positive number of chains")
    out = checked_out(out)
    subjects = normalise_ids(subject or [], "--subject")
    query = ChainQuery(
        parse_day(day, "--date"),
        hops,
        load_relations(relations),
        subjects,
        pid_list(pid),
        lang,
        gap_policy(max_gap, allow_gap),
    )
    layout = StoreLayout.resolve(store)
    with open_catalog(layout) as connection:
        check_known(connection, [*query.subjects, *query.pids])
        read = query.check_date(connection)
        found = stage_chains(connection, query)
        rows = staged_rows(connection, min(limit or SHOWN, SHOWN))
        written = export_chains(connection, out, limit) if out is not None else None
        missing = staged_unlabelled(connection, limit if out is not None else len(rows))
        reasons = [] if found else why_no_chain(connection, query, read)
    for line in describe_reads([read]):
        console.print(line, highlight=False, markup=False)
    console.print(_table(rows, found if limit is None else min(found, limit), read))
    for reason in reasons:
        console.print(f"no chain: {reason}", highlight=False, markup=False)
    if written is not None:
        console.print(f"wrote {written:,} chains to {out}, with {lang} labels", highlight=False)
    note = Labels({}, lang, missing).missing_note()
    if note:
        console.print(note, highlight=False, markup=False)


def why_no_chain(
    connection: duckdb.DuckDBPyConnection, query: ChainQuery, read: DateRead
) -> list[str]:
    """Why a search found no chain: one reason per subject asked for, else one in all."""
    if read.snapshot is None:
        return [f"no snapshot answers {read.day} in record time"]
    day = query.ref_date
    otherwise = f"none starts a chain valid at {day} in {read.snapshot}"
    pid = query.pids[0] if len(query.pids) == 1 else None
    if query.subjects:
        return [why_empty(connection, s, pid, read.snapshot, otherwise) for s in query.subjects]
    firsts = ", ".join(query.pids) or "the relation map's first properties"
    return [f"no statement of {firsts} in {read.snapshot} starts a chain valid at {day}"]


def _named(label: object, value: object) -> str:
    """``label (id)``, or the id alone when it has no label."""
    return str(value) if label == value else f"{label} ({value})"


def _table(rows: list[dict[str, Any]], total: int, read: DateRead) -> Table:
    title = f"{total:,} chains at {read.day}" + (f" (snapshot {read.snapshot})" if rows else "")
    table = Table("start", "path", "answer", title=title)
    for row in rows:
        path = " · ".join(
            f"{_named(h['pid_label'], h['pid'])} → {_named(h['object_label'], h['object'])}"
            for h in row["hops"]
        )
        start = _named(row["start_label"], row["start_subject"])
        table.add_row(start, path, _named(row["answer_label"], row["answer"]))
    if total > len(rows):
        table.caption = f"first {len(rows)} of {total:,}; --out FILE writes them all"
    return table
