"""``kgdiff evidence show QID``: the evidence of one subject's facts, one line per fact and
mentioning page with the sentence under it (lines are not wrapped, so they can be grepped)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.text import Text

from kgdiff.cli.common import StoreOption, console, graph
from kgdiff.cli.options import checked_out
from kgdiff.evidence.show import EvidenceReport, SnapshotEvidence
from kgdiff.temporal.writers import write_reader
from kgdiff.wording import counted


def show_command(
    qid: Annotated[str, typer.Argument(help="The subject, e.g. Q42 (or q42).")],
    pid: Annotated[str | None, typer.Option("--pid", help="Only this property, e.g. P6.")] = None,
    snapshot: Annotated[
        str | None,
        typer.Option("--snapshot", help="Only this Wikipedia snapshot (default: every one)."),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Also write the rows to FILE.jsonl, .csv or .parquet."),
    ] = None,
    store: StoreOption = None,
) -> None:
    """Show where Wikipedia mentions each fact of a subject, and in which sentence.

    For each object: its label, whether and where an article mentions it, the sentence (the
    golden context), the page and its revision (the golden document)."""
    out = checked_out(out)
    report = graph(store).answers.evidence_report(qid, pid, snapshot)
    _print_report(report)
    if out is not None:
        written = write_reader(report.table().to_reader(), out)
        console.print(f"wrote {counted(written, 'row')} to {out}")


def _say(text: str, style: str = "") -> None:
    console.print(Text(text, style=style), soft_wrap=True)


def _print_report(report: EvidenceReport) -> None:
    if report.note is not None:
        _say(report.note)
        return
    for section in report.sections:
        if section.rows.num_rows:
            _print_section(section)
        for note in section.notes:
            _say(note)


def _print_section(section: SnapshotEvidence) -> None:
    rows = section.rows.to_pylist()
    first = rows[0]
    facts = {(r["pid"], r["object_qid"]) for r in rows}
    mentioned = {(r["pid"], r["object_qid"]) for r in rows if r["mentioned"]}
    page = "no article"
    if section.page is not None:
        page_id, title, revision_id, _ = section.page
        page = f"article {title} (page {page_id}, revision {revision_id})"
    _say(
        f"{_named(first['subject'], first['subject_label'])} in {section.snapshot.name} "
        f"({section.snapshot.date}): {len(mentioned)} of {len(facts)} facts mentioned; {page}",
        "bold",
    )
    for row in rows:
        _say(f"  {_fact(row)}: {_where(row)}")
        if row["sentence"] is not None:
            _say(f"      {row['sentence']}", "italic")


def _named(qid: str, label: str | None) -> str:
    return f"{qid} ({label})" if label else qid


def _fact(row: dict[str, Any]) -> str:
    prop = _named(row["pid"], row["property_label"])
    return f"{prop} → {_named(row['object_qid'], row['object_label'])}"


def _where(row: dict[str, Any]) -> str:
    if not row["mentioned"] and not row["object_named"]:
        return "not searched: the store has no name of it in the wiki's language"
    if not row["mentioned"]:
        return "not mentioned"
    how = f"weak ({row['weak_reason']}) mention" if row["weak"] else "mentioned"
    whose = "the subject's" if row["page_role"] == "subject" else "the object's"
    return (
        f"{how} as {row['term']!r} in the {row['section']} of {row['title']} ({whose} article; "
        f"page {row['page_id']}, revision {row['revision_id']})"
    )
