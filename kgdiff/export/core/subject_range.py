"""The bounds of a range of subjects, for the queries that read one range of groups at a time
(``$first`` and ``$last`` of ``sql/export/temporal_statements.sql`` and
``sql/export/pool_years.sql``): the store's statements and qualifiers are sorted by subject, so
a query bounded by them reads that range of their files; joined with the range's groups alone,
it read every file of the snapshot for each range, and the ranges grow with the store."""

from __future__ import annotations

import polars as pl


def subject_range(groups: pl.DataFrame) -> dict[str, object]:
    """``first`` and ``last``: the least and the greatest ``subject`` of ``groups`` (in text
    order, as DuckDB compares them; None for no group)."""
    subjects = groups.get_column("subject")
    return {"first": subjects.min(), "last": subjects.max()}
