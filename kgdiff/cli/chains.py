"""``kgdiff chains``: multi-hop chains valid at a reference date (docs/questions.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from kgdiff.cli.common import StoreOption, console, graph, parse_day, print_notes
from kgdiff.cli.options import (
    AllowGapOption,
    LangOption,
    MaxGapOption,
    OutOption,
    checked_out,
    describe_reads,
    gap_policy,
)
from kgdiff.errors import UsageError
from kgdiff.temporal.chains import DEFAULT_HOPS, load_relations
from kgdiff.temporal.dates import DateRead
from kgdiff.temporal.writers import write_reader

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
    gap = gap_policy(max_gap, allow_gap)
    answer = graph(store).answers.chains(
        parse_day(day, "--date"), subject, load_relations(relations), hops, pid, lang, gap
    )
    found = answer.frame if limit is None else answer.frame.head(limit)
    for line in describe_reads(answer.reads):
        console.print(line, highlight=False, markup=False)
    console.print(_table(found.head(SHOWN).to_dicts(), found.height, answer.reads[0]))
    if out is not None:
        written = write_reader(found.to_arrow().to_reader(), out)
        console.print(f"wrote {written:,} chains to {out}, with {lang} labels", highlight=False)
    print_notes(answer.notes)


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
