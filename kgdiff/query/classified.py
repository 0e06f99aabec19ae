"""Read back and export classification builds (JSON lines or Parquet).

When the store has evidence (``kgdiff evidence``), exports carry the ``supported`` columns
(:mod:`kgdiff.evidence.supported`), as the catalog's ``classified_*`` views do. The join lives
here, above the temporal core, so that :mod:`kgdiff.temporal` never imports the evidence, and
in the query, whose answers (:mod:`kgdiff.query.answers`, :mod:`kgdiff.query.pages`) read the
chosen groups through it as the export and ``kgdiff classify --out`` do.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import duckdb
import pyarrow as pa

from kgdiff.evidence.supported import (
    SupportedSummary,
    evidence_snapshots,
    evidence_wiki,
    summarise_supported,
    supported_select,
    supported_view,
)
from kgdiff.sqlfiles import load_sql, render
from kgdiff.store.layout import StoreLayout, duckdb_glob
from kgdiff.store.store_root import open_catalog, store_relative
from kgdiff.temporal.builds import Build
from kgdiff.temporal.writers import check_out, write_relation
from kgdiff.timetext import key_text


@dataclass(frozen=True)
class GroupChoice:
    """Which groups of a classification a user asked for (empty: all)."""

    pids: list[str] = field(default_factory=list)
    levels: list[str] = field(default_factory=list)
    subjects: list[str] = field(default_factory=list)
    substantive: bool = False
    """Report an evolved group whose change is not substantive (reformatted or refined) as
    stable (docs/classification.md#substantive-changes-only)."""

    def values(self) -> dict[str, list[str] | bool]:
        """The bind values ``$pids``, ``$levels``, ``$subjects`` and ``$substantive``."""
        return {
            "pids": self.pids,
            "levels": self.levels,
            "subjects": self.subjects,
            "substantive": self.substantive,
        }


def level_counts(build: Path, choice: GroupChoice) -> list[tuple[str, int]]:
    """Groups per level in a build, of the chosen properties and levels."""
    query = render("classify/level_counts", build=duckdb_glob(build))
    rows = duckdb.execute(query, choice.values()).fetchall()
    return [(str(level), int(count)) for level, count in rows]


@contextmanager
def export_source(layout: StoreLayout, build: Build) -> Iterator[duckdb.DuckDBPyConnection]:
    """A connection whose temporary view ``export_source`` holds the build's groups (and
    their evidence columns when the store has evidence)."""
    wiki = evidence_wiki(layout)
    connection = open_catalog(layout)  # its entity_labels macro labels the answers
    if wiki is None:
        view = render("classify/export_source", files=duckdb_glob(build.path))
    else:
        p = build.params
        relative = store_relative(layout, build.path)
        built = evidence_snapshots(layout)
        select = supported_select(relative, p.init, p.cutoff, p.current, wiki, built)
        view = supported_view("export_source", select, temporary=True)
    try:
        connection.execute(view)
        yield connection
    finally:
        connection.close()


def supported_counts(
    layout: StoreLayout, build: Build, choice: GroupChoice
) -> SupportedSummary | None:
    """Groups per level and ``supported`` value, and why the unknown ones are unknown, of the
    chosen groups; None when the store has no evidence."""
    if evidence_wiki(layout) is None:
        return None
    with export_source(layout, build) as connection:
        rows = connection.execute(load_sql("evidence/supported_counts"), choice.values())
        return summarise_supported(rows.fetchall())


@dataclass(frozen=True)
class Exported:
    """What an export wrote: rows, and the entity ids it shows without a label."""

    rows: int
    unlabelled: int
    unlabelled_examples: list[str]


@contextmanager
def classified_rows(
    layout: StoreLayout, build: Build, choice: GroupChoice, lang: str = "en"
) -> Iterator[tuple[duckdb.DuckDBPyConnection, duckdb.DuckDBPyRelation]]:
    """The chosen groups of a build, sorted by subject and property, with their evidence
    columns (when the store has evidence) and labels in ``lang``: a relation on the
    connection it comes with (both valid inside the block)."""
    with export_source(layout, build) as connection:
        chosen = connection.sql(load_sql("classify/export_chosen"), params=choice.values())
        connection.register("export_chosen", chosen)
        connection.execute(load_sql("classify/answer_names"), {"lang": lang})
        _label_times(connection)
        yield connection, connection.sql(load_sql("classify/export_rows"))


def _label_times(connection: duckdb.DuckDBPyConnection) -> None:
    """Give the time values among the answers their words as labels (``13.798 billion years
    BCE``, :mod:`kgdiff.timetext`): each distinct value rendered once."""
    keys = [str(row[0]) for row in connection.execute(load_sql("classify/answer_times")).fetchall()]
    if not keys:
        return
    words = pa.table({"id": keys, "label": [key_text(key) for key in keys]})
    connection.register("kgdiff_answer_times", words)
    try:
        connection.execute(load_sql("classify/add_answer_times"))
    finally:
        connection.unregister("kgdiff_answer_times")


def export_classification(
    layout: StoreLayout, build: Build, out: Path, choice: GroupChoice, lang: str = "en"
) -> Exported:
    """Write the chosen groups of a build to ``out`` (.csv, .jsonl or .parquet, atomically),
    sorted, with the labels in ``lang`` of their subjects, properties and answers."""
    check_out(out)
    with classified_rows(layout, build, choice, lang) as (connection, rows):
        written = write_relation(connection, rows, out)
        missing = connection.execute(load_sql("classify/unlabelled_ids")).fetchone()
    count, examples = missing if missing else (0, [])
    return Exported(written, int(count), list(examples or []))
