"""`kgdiff timeline`: an entity's statements across the snapshots, in time order."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.table import Table

from kgdiff.cli.common import StoreOption, console, graph, print_notes
from kgdiff.cli.options import LangOption, OutOption, PidsOption, checked_out
from kgdiff.cli.tables import key, prose
from kgdiff.ids import is_entity_id
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
    answer = graph(store).answers.timeline(qid, pid, lang)
    rows = answer.frame.to_dicts()
    if rows:
        _print(rows)
    if rows and out is not None:
        written = write_reader(answer.arrow().to_reader(), out)
        console.print(f"wrote {written:,} statements to {out}")
    print_notes(answer.notes)


def _print(rows: list[dict[str, Any]]) -> None:
    first = rows[0]
    subject = _value(first["subject"], first["subject_label"])
    table = Table(
        prose("property"),
        prose("value"),
        key("first seen"),
        key("last seen"),
        key("now"),
        prose("valid from"),
        prose("valid until"),
        title=f"{subject}: {len(rows)} statements across snapshots",
    )
    for row in rows:
        table.add_row(
            f"{row['pid_label']} ({row['pid']})",
            _value(row["value"], row["value_label"]),
            str(row["first_seen"]),
            str(row["last_seen"]),
            "yes" if row["current"] else "no",
            _bound(row, "valid_from") or _bound(row, "point", "at "),
            _bound(row, "valid_until"),
        )
    console.print(table)


def _value(value: object, label: str) -> str:
    """An entity as ``label (id)``; any other value (a time in words) as its label."""
    return label if label == value or not is_entity_id(value) else f"{label} ({value})"


def _bound(row: dict[str, Any], bound: str, prefix: str = "") -> str:
    """A bound of the valid interval in words (kgdiff.timetext), ``unknown`` (somevalue) or
    ``none`` (novalue); empty without one."""
    text = row[f"{bound}_text"]
    if text is not None:
        return f"{prefix}{text}"
    words = {"somevalue": f"{prefix}unknown", "novalue": "none"}
    return words.get(str(row[f"{bound}_snaktype"]), "")
