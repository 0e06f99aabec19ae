"""Which years of a ``pools`` group are asked about, besides their subjects' salience
(docs/benchmark-export.md#the-pools-config): a relation whose fact does not change once it
holds (the catalogue's ``fixed``: a date of death, a parent, an author) has no question for
each year ("As of 2013, when was Albert Einstein recorded to have died?"), and a year that
began after its subject ceased to exist has none either ("In 2013, which country was Robert
Brasillach a citizen of?": he died in 1945)."""

from __future__ import annotations

from collections import Counter

import polars as pl

from kgdiff.export.relations.model import RelationCatalogue

FIXED_RELATION = "fixed_relation"
"""Why a year is not asked: its relation does not change once it holds."""
NO_LONGER_EXISTS = "subject_no_longer_exists"
"""Why a year is not asked: its subject no longer existed when it began."""


def changing_years(
    rows: pl.DataFrame, gone: pl.DataFrame, catalogue: RelationCatalogue, tally: Counter[str]
) -> pl.DataFrame:
    """The ``rows`` (a group's years: ``subject``, ``pid``, ``year``) of a relation that is
    not ``fixed`` and of a subject that still existed when the year began (not among the
    (``subject``, ``year``) pairs ``gone``:
    :meth:`~kgdiff.export.rules.entity_ends.EntityEnds.gone_years`); the others counted in
    ``tally`` (:data:`FIXED_RELATION`, then :data:`NO_LONGER_EXISTS`)."""
    fixed = pl.col("pid").is_in([relation.pid for relation in catalogue if relation.fixed])
    if (timeless := rows.filter(fixed).height) > 0:
        tally[FIXED_RELATION] += timeless
    rows = rows.filter(~fixed)
    kept = rows.join(gone, on=["subject", "year"], how="anti", maintain_order="left")
    if kept.height < rows.height:
        tally[NO_LONGER_EXISTS] += rows.height - kept.height
    return kept
