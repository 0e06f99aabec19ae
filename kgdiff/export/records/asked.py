"""What a ``qa``-like record asks, worded from its subject (the ``qa`` and ``updates`` configs
ask their groups alike): the question, the cloze and the statement about no object that the
tautology check reads (:mod:`kgdiff.export.rules.tautology`), the relation's templates rendered
for a whole frame (:mod:`kgdiff.export.relations.columns`)."""

from __future__ import annotations

import polars as pl

from kgdiff.export.relations.columns import rendered
from kgdiff.export.relations.model import RelationCatalogue
from kgdiff.export.rules.series_years import YEAR_COLUMN
from kgdiff.export.rules.tautology import Asked

BLANK = "\x00"
"""The object of a statement checked for tautologies: no word, so only the template's words
and the subject's are compared with the answers."""
ASKED = Asked(("subject_label",), ("question", "cloze", "_blank_statement"))
"""The texts of a record that must not name its answer (:mod:`kgdiff.export.rules.tautology`)."""


def asked_texts(rows: pl.DataFrame, catalogue: RelationCatalogue) -> pl.DataFrame:
    """``rows`` (``pid``, ``subject_phrase``, ``subject_ended``, ``subject_plural``: the
    columns of :func:`~kgdiff.export.rules.salience.subject_facts`) with their ``question``,
    ``cloze`` and ``_blank_statement`` (the statement about no object: :data:`BLANK`), worded
    as the records show them: the subject as it reads in a sentence, in the past tense when it
    no longer exists, its verbs plural when it is ("the Pennine Alps are")."""
    return rows.with_columns(
        question=worded(rows, catalogue, "question"),
        cloze=worded(rows, catalogue, "cloze"),
        _blank_statement=worded(rows, catalogue, "statement", object=pl.lit(BLANK)),
    )


def worded(
    rows: pl.DataFrame, catalogue: RelationCatalogue, kind: str, **values: pl.Expr
) -> pl.Expr:
    """The template ``kind`` (``question``, ``cloze``, ``statement``) of each row worded from
    its subject (:func:`subject_forms`) and ``values``; a count dated by its year (the column
    :data:`~kgdiff.export.rules.series_years.YEAR_COLUMN`, when the frame has it) takes the
    relation's ``_at`` template in that year ("In 2013, how many people lived in France?")."""
    subject, past, plural = subject_forms()
    plain = rendered(rows, catalogue, kind, past, plural, subject=subject, **values)
    if YEAR_COLUMN not in rows.columns or rows.get_column(YEAR_COLUMN).is_null().all():
        return plain
    year = pl.col(YEAR_COLUMN)
    dated = rendered(
        rows, catalogue, f"{kind}_at", None, plural, subject=subject, year=year, **values
    )
    return pl.when(year.is_not_null()).then(dated).otherwise(plain)


def subject_forms() -> tuple[pl.Expr, pl.Expr, pl.Expr]:
    """The columns a template is worded from: the subject's phrase, whether it no longer
    exists, whether it takes a plural verb."""
    return pl.col("subject_phrase"), pl.col("subject_ended"), pl.col("subject_plural")
