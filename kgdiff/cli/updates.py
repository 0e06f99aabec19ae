"""`kgdiff updates`: AntiLeakBench knowledge updates after a cutoff."""

from __future__ import annotations

from typing import Any

from rich.table import Table

from kgdiff.cli.common import StoreOption, console, graph, optional_day, parse_day, print_notes
from kgdiff.cli.options import (
    AllowGapOption,
    CurrentOption,
    CutoffOption,
    LangOption,
    MaxGapOption,
    OutOption,
    PidsOption,
    checked_out,
    describe_reads,
    gap_policy,
)
from kgdiff.cli.tables import prose
from kgdiff.temporal.writers import write_reader
from kgdiff.wording import counted

SHOWN = 20


def updates_command(
    cutoff: CutoffOption,
    current: CurrentOption = None,
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
    cutoff_day = parse_day(cutoff, "--cutoff")
    current_day = optional_day(current, "--current")
    gap = gap_policy(max_gap, allow_gap)
    answer = graph(store).answers.updates(cutoff_day, current_day, pid, lang, gap)
    for line in describe_reads(answer.reads):
        console.print(line, highlight=False, markup=False)
    rows = answer.frame.head(SHOWN).to_dicts()
    console.print(_summary(rows, answer.frame.height))
    if out is not None:
        written = write_reader(answer.arrow().to_reader(), out)
        console.print(f"wrote {written:,} updates to {out}, with {lang} labels", highlight=False)
    print_notes(answer.notes)


def _named(label: object, value: object) -> str:
    return str(value) if label == value else f"{label} ({value})"


def _summary(rows: list[dict[str, Any]], total: int) -> Table:
    title = counted(total, "knowledge update")
    table = Table(*map(prose, ("subject", "property", "old", "new", "new since")), title=title)
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
