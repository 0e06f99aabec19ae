"""The ids a naming query names (``sql/export/entity_names.sql``, ``sql/export/entity_leads.sql``),
given to DuckDB as a registered Arrow table rather than a list parameter: a list of the 3 M
answers of 3 × 25 M statements took ~330 MB as Python strings (and DuckDB copied it again),
and grew with the store."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress

import duckdb
import polars as pl

from kgdiff.valuetext import ENTITY_ID

NAME_IDS = "kgdiff_name_ids"
"""The relation (``qid``) the naming queries read their ids from."""
_WHOLE_ID = f"^(?:{ENTITY_ID.pattern})$"


def entity_ids(ids: Iterable[str] | pl.Series) -> pl.Series:
    """The distinct entity ids among ``ids`` (items, properties, lexemes), sorted."""
    found = ids if isinstance(ids, pl.Series) else pl.Series(list(ids), dtype=pl.String())
    found = found.cast(pl.String()).drop_nulls().unique()
    return found.filter(found.str.contains(_WHOLE_ID)).sort()


@contextmanager
def name_ids(connection: duckdb.DuckDBPyConnection, ids: pl.Series) -> Iterator[None]:
    """``ids`` (distinct entity ids: :func:`entity_ids`) registered on ``connection`` as
    :data:`NAME_IDS` while the block runs."""
    connection.register(NAME_IDS, ids.to_frame("qid").to_arrow())
    try:
        yield
    finally:
        # a result left unfinished (a reader that stopped early) refuses it: the next
        # registration replaces it
        with suppress(duckdb.Error):
            connection.unregister(NAME_IDS)
