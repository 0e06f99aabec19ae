"""Entities to choose from as a user types: an id, or the start of a label or alias."""

from __future__ import annotations

import duckdb
import polars as pl

from kgdiff.errors import UsageError
from kgdiff.ids import ENTITY_ID
from kgdiff.query.frames import relation_frame
from kgdiff.sqlfiles import load_sql

MAX_TEXT = 200
MAX_RESULTS = 100
MATCHES = {0: "id", 1: "label", 2: "label", 3: "alias"}
"""What matched, by sql/query/search_hits.sql's rank."""


def search_entities(
    connection: duckdb.DuckDBPyConnection,
    text: str,
    lang: str = "en",
    limit: int = 10,
    copied: bool = False,
) -> pl.DataFrame:
    """Up to ``limit`` entities for ``text``: the entity with that id, then those whose label
    or alias in ``lang`` starts with it, any case (sql/query/search_hits.sql; on a lookup
    copy, ``copied``, its ``names`` index: sql/query/search_hits_copied.sql), named by
    sql/query/search_names.sql; columns ``qid``, ``match`` (id, label or alias), ``label``
    and ``description``."""
    typed = text.strip()
    if not typed:
        raise UsageError("search text is empty: give an id such as Q42 or the start of a label")
    if len(typed) > MAX_TEXT:
        raise UsageError(f"search text is {len(typed)} characters long; give at most {MAX_TEXT}")
    if not 1 <= limit <= MAX_RESULTS:
        raise UsageError(f"search limit {limit} is not between 1 and {MAX_RESULTS}")
    qid = typed.upper() if ENTITY_ID.fullmatch(typed.upper()) else None
    values = {"text": typed, "qid": qid, "lang": lang, "limit": limit}
    hits_sql = load_sql("query/search_hits_copied" if copied else "query/search_hits")
    hits = relation_frame(connection.sql(hits_sql, params=values))
    names = relation_frame(
        connection.sql(
            load_sql("query/search_names"), params={"qids": hits["qid"].to_list(), "lang": lang}
        )
    )
    found = hits.join(names, on="qid", how="left").with_columns(
        pl.col("rank").replace_strict(MATCHES, return_dtype=pl.String).alias("match"),
        pl.col("label").str.len_chars().alias("label_length"),
    )
    found = found.sort(
        "rank", "label_length", pl.col("qid").str.len_chars(), "qid", nulls_last=True
    )
    return found.select("qid", "match", "label", "description")
