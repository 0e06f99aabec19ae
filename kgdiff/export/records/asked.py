"""What a ``qa``-like record asks, worded from its subject (the ``qa`` and ``updates`` configs
ask their groups alike): the question, the cloze and the statement about no object that the
tautology check reads (:mod:`kgdiff.export.rules.tautology`), the relation's templates rendered
for a whole frame (:mod:`kgdiff.export.relations.columns`)."""

from __future__ import annotations

import polars as pl

from kgdiff.export.relations.columns import rendered
from kgdiff.export.relations.model import RelationCatalogue
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
    subject, past, plural = subject_forms()
    return rows.with_columns(
        question=rendered(rows, catalogue, "question", past, plural, subject=subject),
        cloze=rendered(rows, catalogue, "cloze", past, plural, subject=subject),
        _blank_statement=rendered(
            rows, catalogue, "statement", past, plural, subject=subject, object=pl.lit(BLANK)
        ),
    )


def subject_forms() -> tuple[pl.Expr, pl.Expr, pl.Expr]:
    """The columns a template is worded from: the subject's phrase, whether it no longer
    exists, whether it takes a plural verb."""
    return pl.col("subject_phrase"), pl.col("subject_ended"), pl.col("subject_plural")
