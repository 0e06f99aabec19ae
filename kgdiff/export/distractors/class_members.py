"""The store's items of classes too few answers share, as distractor candidates: "What came
just before November?" is offered other months even when no classified group names them
(docs/benchmark-export.md#option-kind-agreement)."""

from __future__ import annotations

from collections.abc import Iterable

import duckdb
import polars as pl

from kgdiff.export.relations.model import ObjectType, RelationCatalogue
from kgdiff.sqlfiles import load_sql


def relation_kinds(catalogue: RelationCatalogue) -> pl.DataFrame:
    """Each catalogued relation's ``pid`` and its object type (``kind``)."""
    return pl.DataFrame(
        {
            "pid": [relation.pid for relation in catalogue],
            "kind": [relation.object_type.value for relation in catalogue],
        },
        schema={"pid": pl.String(), "kind": pl.String()},
    )


def small_classes(
    pairs: pl.DataFrame,
    words: Iterable[pl.DataFrame],
    catalogue: RelationCatalogue,
    limit: int,
) -> list[str]:
    """The classes of the catalogued item answers among ``pairs`` (``pid``, ``value``, with
    the values' ``words``: ``value``, ``classes``, in batches, each value in one), and the
    catalogue's object classes, that fewer than ``limit`` distinct answers have: those whose
    distractor tiers the store's other items may fill."""
    kinds = relation_kinds(catalogue).filter(pl.col("kind") == ObjectType.ITEM.value)
    items = pairs.select("pid", "value").join(kinds, on="pid").select("value").unique()
    declared = pl.DataFrame(
        {"classes": sorted({r.object_class for r in catalogue if r.object_class})},
        schema={"classes": pl.String()},
    )
    counts = [declared.with_columns(n=pl.lit(0, pl.UInt32()))]
    for batch in words:
        classes = items.join(batch.select("value", "classes"), on="value").explode("classes")
        # classes are item ids; a person's role keys (kgdiff.export.distractors.human_roles) are not
        classes = classes.filter(pl.col("classes").str.contains(r"^Q\d+$"))
        counts.append(classes.group_by("classes").agg(pl.len().alias("n")))
    totals = pl.concat(counts, how="vertical_relaxed").group_by("classes").agg(pl.col("n").sum())
    return totals.filter(pl.col("n") < limit).get_column("classes").sort().to_list()


def class_members(
    connection: duckdb.DuckDBPyConnection, classes: list[str], per_class: int, snapshot: str | None
) -> list[str]:
    """Up to ``per_class`` items of each of ``classes`` (``sql/export/class_members.sql``:
    the first by id, as the snapshots up to ``snapshot`` record them), sorted."""
    if not classes:
        return []
    params = {"classes": classes, "per_class": per_class, "snapshot": snapshot}
    rows = connection.execute(load_sql("export/class_members"), params).fetchall()
    return sorted({str(subject) for _class, subject in rows})
