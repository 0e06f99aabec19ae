"""``kgdiff pools``: chronological object pools per (subject, property), ChroKnowBench style."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Annotated, Any

import duckdb
import typer
from rich.table import Table

from kgdiff.cli.common import StoreOption, console
from kgdiff.cli.options import (
    AllowGapOption,
    LangOption,
    MaxGapOption,
    OutOption,
    checked_out,
    gap_policy,
)
from kgdiff.errors import StoreError, UsageError
from kgdiff.query.ids import check_known, normalise_id, normalise_ids, why_empty
from kgdiff.query.labels import Labels, is_entity_id
from kgdiff.store.layout import StoreLayout
from kgdiff.store.store_root import open_catalog
from kgdiff.temporal.pool_export import export_pools
from kgdiff.temporal.pools import PoolRequest, Reach, latest_year, pool_records, pools_reach

Period = dict[str, Any]
Record = dict[str, Any]


def pools_command(
    subjects: Annotated[
        list[str] | None,
        typer.Argument(help="Subjects, e.g. Q183 Q937 (none: every subject of --pid)."),
    ] = None,
    pid: Annotated[
        str | None, typer.Option("--pid", help="The property, e.g. P6 (none: every property).")
    ] = None,
    from_year: Annotated[int, typer.Option("--from-year", help="First year.")] = 2010,
    to_year: Annotated[
        int | None,
        typer.Option(
            "--to-year",
            help="Last year (inclusive; default: the year of the latest snapshot, where the"
            " data end; a later year needs --allow-gap).",
            show_default=False,
        ),
    ] = None,
    monthly: Annotated[
        bool, typer.Option("--monthly", help="One pool per month instead of per year.")
    ] = False,
    out: OutOption = None,
    lang: LangOption = "en",
    max_gap: MaxGapOption = 31,
    allow_gap: AllowGapOption = False,
    store: StoreOption = None,
) -> None:
    """Objects of each (subject, property) per year or month, from the latest snapshot.

    A period with no object takes the previous period's pool (marked filled); objects that
    only the qualifiers' precision puts in a period are marked; a group is dynamic if its
    pool changes over the range, else static (DESIGN.md §5). The pools stop at the latest
    snapshot's year unless --to-year asks otherwise, and say where they stop and why.
    """
    out = checked_out(out)
    asked = normalise_ids(subjects or [], "subject")
    prop = normalise_id(pid, "--pid") if pid is not None else None
    granularity = "month" if monthly else "year"
    gap = gap_policy(max_gap, allow_gap)
    layout = StoreLayout.resolve(store)
    with open_catalog(layout) as connection:
        check_known(connection, [*asked, *([prop] if prop else [])])
        year = _last_year(connection, from_year, to_year)
        request = PoolRequest(tuple(asked), prop, from_year, year, granularity, lang, gap)
        request.check()
        reach = pools_reach(connection, year, gap)
        try:
            answer = _answer(connection, request, out)
        except duckdb.CatalogException as exc:
            raise StoreError(f"{layout.catalog} has no statements; ingest a snapshot") from exc
        reasons = why_no_pools(connection, request, reach, answer.subjects)
    for line in reach_lines(reach, defaulted=to_year is None):
        console.print(line, highlight=False, markup=False)
    if answer.records is None:
        console.print(f"wrote {answer.groups:,} groups to {out}, with {lang} labels")
    else:
        console.print(_table(request, answer.records))
    for reason in reasons:
        console.print(f"no pools: {reason}", highlight=False, markup=False)
    note = Labels({}, lang, answer.unlabelled).missing_note()
    if note:
        console.print(note, highlight=False, markup=False)


@dataclass
class PoolAnswer:
    """The records to print (None: written to --out), how many groups, their subjects, and
    the ids shown without a label."""

    records: list[Record] | None
    groups: int
    subjects: set[str]
    unlabelled: set[str]


def _answer(
    connection: duckdb.DuckDBPyConnection, request: PoolRequest, out: Path | None
) -> PoolAnswer:
    if out is not None:
        done = export_pools(connection, request, out)
        return PoolAnswer(None, done.groups, done.subjects, done.unlabelled)
    records = list(pool_records(connection, request))
    subjects = {r["subject"] for r in records}
    unlabelled = set().union(*(unlabelled_ids_of(r) for r in records))
    return PoolAnswer(records, len(records), subjects, unlabelled)


def _last_year(connection: duckdb.DuckDBPyConnection, from_year: int, to_year: int | None) -> int:
    """``--to-year``, by default the latest snapshot's year (a usage error when that is
    before ``--from-year``)."""
    if to_year is not None:
        return to_year
    year = latest_year(connection)
    if from_year > year:
        raise UsageError(
            f"--from-year {from_year} is after {year}, the year of the latest snapshot, where"
            " the pools stop; choose an earlier --from-year, or --to-year with --allow-gap"
        )
    return year


def reach_lines(reach: Reach, defaulted: bool) -> list[str]:
    """Where the pools stop and why, and which periods lie after the data."""
    snapshot = f"{reach.snapshot} ({reach.snapshot_date})"
    if defaulted:
        lines = [
            f"pools stop at {reach.to_year}, the year of the latest snapshot, {snapshot}: later"
            " years are beyond the data (--to-year YEAR --allow-gap answers them anyway)"
        ]
    else:
        lines = [
            f"pools stop at {reach.to_year} (--to-year); they read the latest snapshot, {snapshot}"
        ]
    after = (date(reach.to_year, 12, 31) - reach.snapshot_date).days
    if after > 0:
        lines.append(
            f"the days after {reach.snapshot_date} (up to {after:,} days after it) are beyond"
            f" the data: the pools of those periods hold what {reach.snapshot} knows, not what"
            " happened then"
        )
    return lines


def why_no_pools(
    connection: duckdb.DuckDBPyConnection, request: PoolRequest, reach: Reach, found: set[str]
) -> list[str]:
    """Why some subjects asked for (or, without subjects, all of them) have no pools."""
    span = f"{request.from_year}–{request.to_year}"
    otherwise = f"none of them may be valid in {span}"
    if request.subjects:
        missing = [s for s in request.subjects if s not in found]
        return [why_empty(connection, s, request.pid, reach.snapshot, otherwise) for s in missing]
    if found:
        return []
    return [f"no statement of {request.pid} in {reach.snapshot} may be valid in {span}"]


def unlabelled_ids_of(record: Record) -> set[str]:
    """The ids a pools record shows without a label."""
    pairs = [(record["subject"], record["subject_label"]), (record["pid"], record["pid_label"])]
    pairs += list(zip(record["all_objects"], record["all_objects_labels"], strict=True))
    return {value for value, label in pairs if value == label and is_entity_id(value)}


def _named(label: object, value: object) -> str:
    return str(value) if label == value else f"{label} ({value})"


def _table(request: PoolRequest, records: list[Record]) -> Table:
    """One row per run of consecutive periods that share the same pool."""
    span = f"{request.from_year}–{request.to_year}"
    table = Table(
        "subject",
        "property",
        "state",
        "periods",
        "objects",
        "notes",
        title=f"object pools per {request.granularity}, {span}: {len(records):,} groups",
    )
    for record in records:
        names = dict(zip(record["all_objects"], record["all_objects_labels"], strict=True))
        head = [
            _named(record["subject_label"], record["subject"]),
            _named(record["pid_label"], record["pid"]),
            record["state"],
        ]
        for run in _runs(record["periods"]):
            objects = ", ".join(_named(names[v], v) for v in run[0]["objects"]) or "—"
            table.add_row(*head, _label(run), objects, _notes(run, names))
            head = ["", "", ""]
    return table


def _runs(periods: Iterable[Period]) -> Iterator[list[Period]]:
    """Consecutive periods grouped while their pool and flags stay the same."""
    run: list[Period] = []
    for period in periods:
        if run and _pool(period) != _pool(run[0]):
            yield run
            run = []
        run.append(period)
    if run:
        yield run


def _pool(period: Period) -> tuple[object, ...]:
    keys = ("objects", "precision_only", "unqualified", "filled")
    return (*(str(period[key]) for key in keys), period["gap_days"] > 0)


def _label(run: list[Period]) -> str:
    first, last = run[0]["period"], run[-1]["period"]
    return first if first == last else f"{first} … {last}"


def _notes(run: list[Period], names: dict[str, str]) -> str:
    period, notes = run[0], []
    if period["gap_days"] > 0:
        notes.append(f"after the data (up to {run[-1]['gap_days']:,} days after the snapshot)")
    if period["filled"]:
        notes.append("filled")
    if period["precision_only"]:
        shown = ", ".join(_named(names[v], v) for v in period["precision_only"])
        notes.append("precision only: " + shown)
    if period["unqualified"]:
        notes.append(
            "unqualified: " + ", ".join(_named(names[v], v) for v in period["unqualified"])
        )
    return "; ".join(notes)
