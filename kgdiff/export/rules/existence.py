"""Answers that did not exist yet (docs/benchmark-export.md#what-is-left-out): "Which country
was Ludwig van Beethoven a citizen of?" → Germany, whose inception the store dates 1871,
44 years after his death; "In 1820, which country was …" the same. For a relation whose
objects are states or places that exist from their inception on (the catalogue's
``dated_objects``: P17, P27, P131, P1532), a record is left out
(:data:`ANSWER_NOT_YET_EXISTING`) when one of its gold objects began (its earliest inception,
P571, in any snapshot) after its subject ended (its latest date of death, P570, or of
dissolution, P576), or after the year it asks about. The dates come from
``sql/export/entity_dates.sql``; an object or a subject without them is kept."""

from __future__ import annotations

import polars as pl

from kgdiff.export.relations.model import RelationCatalogue

ANSWER_NOT_YET_EXISTING = "answer_not_yet_existing"
"""The reason a record whose gold did not exist yet is left out."""
EXISTENCE_SCHEMA = pl.Schema({"qid": pl.String(), "began": pl.Date(), "ended": pl.Date()})
"""An entity's earliest inception (``began``) and latest end (``ended``), null without."""


def existence_of(dates: pl.DataFrame) -> pl.DataFrame:
    """The existence dates (:data:`EXISTENCE_SCHEMA`) of the entities of ``dates``
    (:data:`~kgdiff.export.core.entity_dates.ENTITY_DATES_SCHEMA`) that have some."""
    found = dates.select("qid", "began", "ended")
    return found.filter(pl.col("began").is_not_null() | pl.col("ended").is_not_null()).cast(
        EXISTENCE_SCHEMA
    )


def dated_pids(catalogue: RelationCatalogue) -> list[str]:
    """The relations whose objects exist from their inception on (``dated_objects``)."""
    return [relation.pid for relation in catalogue if relation.dated_objects]


def existence_ids(rows: pl.DataFrame, golds: str, catalogue: RelationCatalogue) -> list[str]:
    """The subjects and gold objects (the list ``golds``) of the ``rows`` of dated relations:
    the ids whose existence dates :func:`not_yet_existing` reads."""
    dated = rows.filter(pl.col("pid").is_in(dated_pids(catalogue)))
    objects = dated.get_column(golds).explode().drop_nulls()
    return pl.concat([dated.get_column("subject"), objects]).unique().to_list()


def not_yet_existing(
    rows: pl.DataFrame,
    golds: str,
    existence: pl.DataFrame,
    catalogue: RelationCatalogue,
    year: str | None = None,
) -> pl.Series:
    """The ``_id`` of each row (``_id``, ``subject``, ``pid``, the list ``golds``; the column
    ``year`` when a year is asked) of a dated relation one of whose gold objects began after
    its subject ended, or after its year."""
    dated = rows.filter(pl.col("pid").is_in(dated_pids(catalogue)))
    columns = ["_id", "subject", pl.col(golds).alias("_gold")]
    if year is not None:
        columns.append(pl.col(year).alias("_year"))
    golds_of = dated.select(columns).explode("_gold").drop_nulls("_gold")
    began = existence.select(pl.col("qid").alias("_gold"), "began").drop_nulls("began")
    ended = existence.select(pl.col("qid").alias("subject"), "ended").drop_nulls("ended")
    found = golds_of.join(began, on="_gold").join(ended, on="subject", how="left")
    late = (pl.col("began") > pl.col("ended")).fill_null(False)
    if year is not None:
        late = late | (pl.col("began").dt.year() > pl.col("_year")).fill_null(False)
    return found.filter(late).get_column("_id").unique(maintain_order=True)


def without_not_yet(
    rows: pl.DataFrame,
    golds: str,
    existence: pl.DataFrame,
    catalogue: RelationCatalogue,
    tally: dict[str, int],
    year: str | None = None,
) -> pl.DataFrame:
    """``rows`` without those :func:`not_yet_existing` finds, counted in ``tally``."""
    if not rows.height or not existence.height:
        return rows
    late = not_yet_existing(rows, golds, existence, catalogue, year)
    if not late.len():
        return rows
    tally[ANSWER_NOT_YET_EXISTING] = tally.get(ANSWER_NOT_YET_EXISTING, 0) + late.len()
    return rows.filter(~pl.col("_id").is_in(late.implode()))
