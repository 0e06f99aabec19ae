"""What the subjects of an export hold, so that no distractor is true of its subject
(docs/benchmark-export.md#option-kind-agreement): a value the subject holds in any snapshot
under the relation asked, or under another relation whose objects the catalogue expects of the
same class (Chile's head of state of 2013 is no wrong answer for a year the data do not cover;
its head of government is no wrong head of state; a person's place of death is no wrong place
of birth). Items only: a date or a number is not confused this way.
"""

from __future__ import annotations

from dataclasses import dataclass

import duckdb
import polars as pl

from kgdiff.export.relations.model import ObjectType, RelationCatalogue
from kgdiff.sqlfiles import load_sql

VALUES_SCHEMA = pl.Schema({"subject": pl.String(), "pid": pl.String(), "value": pl.String()})
"""``subject``, ``pid``, ``value``: an item a subject holds under a relation."""


def kin_groups(catalogue: RelationCatalogue) -> pl.DataFrame:
    """``pid``, ``kin``: each item relation of the catalogue and the kind of relation it is of
    (its object class, or itself when it has none)."""
    found = [r for r in catalogue if r.object_type is ObjectType.ITEM]
    return pl.DataFrame(
        {"pid": [r.pid for r in found], "kin": [r.object_class or r.pid for r in found]},
        schema={"pid": pl.String(), "kin": pl.String()},
    )


def read_subject_values(connection: duckdb.DuckDBPyConnection, pids: list[str]) -> pl.DataFrame:
    """Every item a subject holds under the relations ``pids`` in any snapshot of the store
    (:data:`VALUES_SCHEMA`, ``sql/export/subject_values.sql``)."""
    table = connection.execute(load_sql("export/subject_values"), {"pids": pids}).to_arrow_table()
    found = pl.from_arrow(table)
    assert isinstance(found, pl.DataFrame)
    return found.cast(VALUES_SCHEMA)


@dataclass(frozen=True)
class SubjectTruths:
    """Every (``subject``, ``kin``, ``value``) of the store's item statements of catalogued
    relations, and each relation's ``kin`` (:func:`kin_groups`)."""

    values: pl.DataFrame
    kins: pl.DataFrame

    @classmethod
    def of(cls, values: pl.DataFrame, catalogue: RelationCatalogue) -> SubjectTruths:
        """The truths of ``values`` (:func:`read_subject_values`) under the catalogue's item
        relations."""
        kins = kin_groups(catalogue)
        held = values.join(kins, on="pid").select("subject", "kin", "value")
        return cls(held.unique(), kins)

    def held(self, requests: pl.DataFrame) -> pl.DataFrame:
        """``_id``, ``value``: what each request's ``subject`` holds under a relation of the
        kind of its ``pid``."""
        asked = requests.join(self.kins, on="pid").select("_id", "subject", "kin")
        return asked.join(self.values, on=["subject", "kin"]).select("_id", "value")


def blocked_values(requests: pl.DataFrame, truths: SubjectTruths | None) -> pl.DataFrame:
    """``_id``, ``value``: what no distractor of a request may be: its ``exclude`` values and,
    with ``truths`` and a ``subject`` column, what its subject holds under a relation of the
    kind of its ``pid`` in any snapshot."""
    own = requests.select("_id", pl.col("exclude").alias("value")).explode("value")
    if truths is None or "subject" not in requests.columns:
        return own
    held = truths.held(requests.select("_id", "subject", "pid"))
    return pl.concat([own, held], how="vertical_relaxed").unique(maintain_order=True)
