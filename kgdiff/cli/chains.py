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
from kgdiff.cli.tables import prose
from kgdiff.errors import UsageError
from kgdiff.query.window_answers import SHOWN_CHAINS
from kgdiff.temporal.chains import DEFAULT_HOPS, load_relations
from kgdiff.temporal.dates import DateRead
from kgdiff.wording import counted

SHOWN = SHOWN_CHAINS
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
    asked = (parse_day(day, "--date"), subject, load_relations(relations), hops, pid, lang, gap)
    answers = graph(store).answers
    if out is None:
        answer = answers.chains(*asked)
        found = answer.frame if limit is None else answer.frame.head(limit)
        total = found.height
    else:
        # written batch by batch: the chains of a whole store need not fit in memory
        answer, total = answers.write_chains(out, *asked, limit=limit)
        found = answer.frame
    for line in describe_reads(answer.reads):
        console.print(line, highlight=False, markup=False)
    console.print(_table(found.head(SHOWN).to_dicts(), total, answer.reads[0]))
    if out is not None:
        wrote = f"wrote {counted(total, 'chain')} to {out}, with {lang} labels"
        console.print(wrote, highlight=False)
    print_notes(answer.notes)


def _named(label: object, value: object) -> str:
    """``label (id)``, or the id alone when it has no label."""
    return str(value) if label == value else f"{label} ({value})"


def _table(rows: list[dict[str, Any]], total: int, read: DateRead) -> Table:
    title = f"{counted(total, 'chain')} at {read.day}"
    title += f" (snapshot {read.snapshot})" if rows else ""
    table = Table(*map(prose, ("start", "path", "answer")), title=title)
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
