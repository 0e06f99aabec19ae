"""What the subjects of an export hold, so that no distractor is true of its subject
(docs/benchmark-export.md#option-kind-agreement): a value the subject holds in any snapshot
under the relation asked, or under another relation whose objects the catalogue expects of the
same class (Chile's head of state of 2013 is no wrong answer for a year the data do not cover;
its head of government is no wrong head of state; a person's place of death is no wrong place
of birth). Items only: a date or a number is not confused this way.

The truths grow with the store (3 M rows at 3 × 25 M statements: ~200 M for three snapshots
of a full Wikidata dump), so they are written to disk by DuckDB sorted by subject
(``sql/export/subject_truths.sql``) and a batch of requests reads the row groups of its own
range of subjects: records go in id order, and a record's id starts with its subject.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import duckdb
import polars as pl

from kgdiff.export.relations.model import ObjectType, RelationCatalogue
from kgdiff.sqlfiles import render

TRUTHS_SCHEMA = pl.Schema({"subject": pl.String(), "kin": pl.String(), "value": pl.String()})
"""``subject``, ``kin``, ``value``: an item a subject holds under a relation of kind ``kin``."""


def kin_groups(catalogue: RelationCatalogue) -> pl.DataFrame:
    """``pid``, ``kin``: each item relation of the catalogue and the kind of relation it is of
    (its object class, or itself when it has none)."""
    found = [r for r in catalogue if r.object_type is ObjectType.ITEM]
    return pl.DataFrame(
        {"pid": [r.pid for r in found], "kin": [r.object_class or r.pid for r in found]},
        schema={"pid": pl.String(), "kin": pl.String()},
    )


@dataclass(frozen=True)
class SubjectTruths:
    """Every (``subject``, ``kin``, ``value``) of the store's item statements of catalogued
    relations, in a Parquet file sorted by subject (:meth:`written`; ``None``: none), and each
    relation's ``kin`` (:func:`kin_groups`)."""

    path: Path | None
    kins: pl.DataFrame

    @classmethod
    def written(
        cls,
        connection: duckdb.DuckDBPyConnection,
        catalogue: RelationCatalogue,
        folder: Path,
    ) -> SubjectTruths:
        """The truths of the store under the catalogue's item relations, written by DuckDB
        into ``folder``."""
        kins = kin_groups(catalogue)
        if not kins.height:
            return cls(None, kins)
        path = folder / "subject-truths.parquet"
        params = {
            "pids": kins.get_column("pid").to_list(),
            "kins": kins.get_column("kin").to_list(),
        }
        connection.execute(render("export/subject_truths", out=str(path)), params)
        return cls(path, kins)

    def held(self, requests: pl.DataFrame) -> pl.DataFrame:
        """``_id``, ``value``: what each request's ``subject`` holds under a relation of the
        kind of its ``pid`` (only the row groups of the requests' range of subjects read)."""
        asked = requests.join(self.kins, on="pid").select("_id", "subject", "kin")
        subjects = asked.get_column("subject").drop_nulls()
        if self.path is None or subjects.is_empty():
            return asked.select("_id", pl.lit(None, pl.String()).alias("value")).clear()
        inside = pl.col("subject").is_between(pl.lit(subjects.min()), pl.lit(subjects.max()))
        truths = pl.scan_parquet(self.path, schema=TRUTHS_SCHEMA).filter(inside)
        found = asked.lazy().join(truths, on=["subject", "kin"]).select("_id", "value")
        return found.collect()


def blocked_values(requests: pl.DataFrame, truths: SubjectTruths | None) -> pl.DataFrame:
    """``_id``, ``value``: what no distractor of a request may be: its ``exclude`` values and,
    with ``truths`` and a ``subject`` column, what its subject holds under a relation of the
    kind of its ``pid`` in any snapshot."""
    own = requests.select("_id", pl.col("exclude").alias("value")).explode("value")
    if truths is None or "subject" not in requests.columns:
        return own
    held = truths.held(requests.select("_id", "subject", "pid"))
    return pl.concat([own, held], how="vertical_relaxed").unique(maintain_order=True)
