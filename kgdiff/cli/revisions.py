"""``kgdiff revisions``: the first Wikipedia revision that states each knowledge update."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import pyarrow as pa
import typer
from rich.table import Table

from kgdiff.cli.common import StoreOption, console, graph, optional_day, parse_day
from kgdiff.cli.options import (
    AllowGapOption,
    CurrentOption,
    CutoffOption,
    LangOption,
    MaxGapOption,
    OutOption,
    checked_out,
    describe_reads,
    gap_policy,
)
from kgdiff.cli.tables import figure, key, prose
from kgdiff.evidence.histories import ApiHistory, History
from kgdiff.temporal.writers import write_reader
from kgdiff.wikiapi.client import WikiClient
from kgdiff.wording import counted

SHOWN = 20


def revisions_command(
    cutoff: CutoffOption,
    current: CurrentOption = None,
    wiki: Annotated[str, typer.Option("--wiki", help="Wiki of the articles.")] = "enwiki",
    pid: Annotated[
        list[str] | None, typer.Option("--pid", help="Only these properties (repeatable).")
    ] = None,
    wikipedia: Annotated[
        str | None,
        typer.Option("--wikipedia", help="History snapshot to search (default: the latest)."),
    ] = None,
    api: Annotated[
        str | None,
        typer.Option("--api", help="Search through this api.php URL instead of a dump."),
    ] = None,
    cache: Annotated[
        Path | None, typer.Option("--cache", help="Folder caching API texts (with --api).")
    ] = None,
    budget: Annotated[
        int | None, typer.Option("--budget", min=1, help="Most API requests (with --api).")
    ] = None,
    exact: Annotated[
        bool, typer.Option("--exact", help="With --api: read every candidate's lead.")
    ] = False,
    out: OutOption = None,
    lang: LangOption = "en",
    max_gap: MaxGapOption = 31,
    allow_gap: AllowGapOption = False,
    store: StoreOption = None,
) -> None:
    """First revision after each knowledge update whose lead names subject and new object."""
    out = checked_out(out)
    days = parse_day(cutoff, "--cutoff"), optional_day(current, "--current")
    gap = gap_policy(max_gap, allow_gap)
    client = None
    history: History | None = None
    if api is not None:
        client = WikiClient.from_api_url(api, cache_dir=cache, max_requests=budget)
        history = ApiHistory(client, exact=exact)
    answer = graph(store).answers.revisions(*days, pid, wiki, wikipedia, lang, gap, history)
    for line in describe_reads(answer.reads):
        console.print(line, highlight=False, markup=False)
    rows = answer.frame.to_dicts()
    console.print(_summary(rows))
    if client is not None:
        console.print(f"{client.requests_made:,} API requests")
    if out is not None:
        written = write_reader(pa.Table.from_pylist(rows).to_reader(), out)
        console.print(f"wrote {counted(written, 'row')} to {out}")


def _named(label: object, value: object) -> str:
    """``label (id)``, or the id alone when the store has no label for it."""
    return str(value) if label in (None, value) else f"{label} ({value})"


def _summary(rows: list[dict[str, Any]]) -> Table:
    found = sum(row["revision_id"] is not None for row in rows)
    table = Table(
        prose("subject"), prose("pid"), prose("new"), key("since"), prose("page"),
        figure("revision"), prose("sentence"),
        title=f"{found:,} of {counted(len(rows), 'knowledge update')} have a supporting revision",
    )  # fmt: skip
    for row in rows[:SHOWN]:
        table.add_row(
            _named(row["subject_label"], row["subject"]), _named(row["pid_label"], row["pid"]),
            _named(row["new_object_label"], row["new_object"]), str(row["new_start_lo"]),
            row["title"] or row["reason"], str(row["revision_id"] or ""), row["sentence"] or "",
        )  # fmt: skip
    if len(rows) > SHOWN:
        table.caption = f"first {SHOWN} shown; --out writes them all"
    return table
