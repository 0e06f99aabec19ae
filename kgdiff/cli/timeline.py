"""`kgdiff timeline`: an entity's statements across the snapshots, in time order."""

from __future__ import annotations

from typing import Annotated

import pyarrow as pa
import typer
from rich.table import Table

from kgdiff.cli.common import StoreOption, console
from kgdiff.cli.options import LangOption, OutOption, PidsOption, checked_out, pid_list
from kgdiff.query.ids import check_known, normalise_id, why_empty
from kgdiff.query.labels import Labels, labels_for
from kgdiff.store.layout import StoreLayout
from kgdiff.store.store_root import open_catalog
from kgdiff.temporal.timeline import timeline
from kgdiff.temporal.writers import write_reader


def timeline_command(
    qid: Annotated[str, typer.Argument(help="The entity, e.g. Q42.")],
    pid: PidsOption = None,
    out: OutOption = None,
    lang: LangOption = "en",
    store: StoreOption = None,
) -> None:
    """Every statement of an entity across the snapshots, in time order, with its record
    interval (first and last snapshot seen) and its valid interval (qualifiers)."""
    out = checked_out(out)
    subject = normalise_id(qid, "the entity")
    pids = pid_list(pid)
    layout = StoreLayout.resolve(store)
    with open_catalog(layout) as connection:
        check_known(connection, [subject, *pids])
        rows = timeline(connection, subject, pids).to_arrow_table()
        ids = [subject, *rows.column("pid").to_pylist(), *rows.column("value").to_pylist()]
        labels = labels_for(connection, ids, None, lang)
        reason = None if rows.num_rows else why_empty(connection, subject, _one(pids), None)
    if reason is not None:
        console.print(f"no statements: {reason}", highlight=False)
        return
    labelled = with_labels(rows, labels)
    _print(subject, labelled, labels)
    if out is not None:
        written = write_reader(labelled.to_reader(), out)
        console.print(f"wrote {written:,} statements to {out}")
    note = labels.missing_note()
    if note:
        console.print(note, highlight=False)


def with_labels(rows: pa.Table, labels: Labels) -> pa.Table:
    """The timeline with ``pid_label`` and ``value_label`` columns (ids without a label,
    and values that are no entity, stand for themselves)."""
    pid_labels = [labels.of(p) for p in rows.column("pid").to_pylist()]
    value_labels = [labels.of(v) for v in rows.column("value").to_pylist()]
    rows = rows.add_column(1, "pid_label", pa.array(pid_labels, pa.string()))
    return rows.add_column(3, "value_label", pa.array(value_labels, pa.string()))


def _one(pids: list[str]) -> str | None:
    return pids[0] if len(pids) == 1 else None


def _print(subject: str, rows: pa.Table, labels: Labels) -> None:
    table = Table(
        "property",
        "value",
        "first seen",
        "last seen",
        "now",
        "valid from",
        "valid until",
        title=f"{labels.named(subject)}: {rows.num_rows} statements across snapshots",
    )
    for row in rows.to_pylist():
        table.add_row(
            f"{row['pid_label']} ({row['pid']})",
            _value(row["value"], row["value_label"]),
            str(row["first_seen"]),
            str(row["last_seen"]),
            "yes" if row["current"] else "no",
            _interval(row["valid_from_lo"], row["valid_from_hi"], row["point_lo"]),
            _interval(row["valid_until_lo"], row["valid_until_hi"]),
        )
    console.print(table)


def _value(value: object, label: str) -> str:
    return str(value) if label == value else f"{label} ({value})"


def _interval(lo: object, hi: object, point: object = None) -> str:
    if lo is None:
        return "" if point is None else f"at {point}"
    return str(lo) if lo == hi else f"{lo} … {hi}"
