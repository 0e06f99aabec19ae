"""Entities to choose from as a user types: an id, or the start of a label or alias."""

from __future__ import annotations

import duckdb
import polars as pl

from kgdiff.errors import UsageError
from kgdiff.ids import ENTITY_ID
from kgdiff.query.frames import frame_of
from kgdiff.query.lookup_ranges import ShardMap, route
from kgdiff.sqlfiles import run_arrow

MAX_TEXT = 200
MAX_RESULTS = 100
MATCHES = {0: "id", 1: "label", 2: "label", 3: "alias"}
"""What matched, by sql/query/search_hits.sql's rank."""


def search_entities(
    connection: duckdb.DuckDBPyConnection,
    text: str,
    lang: str = "en",
    limit: int = 10,
    copied: ShardMap | None = None,
) -> pl.DataFrame:
    """Up to ``limit`` entities for ``text``: the entity with that id, then those whose label
    or alias in ``lang`` starts with it, any case (sql/query/search_hits.sql; on a lookup
    copy with these subject ranges, ``copied``, its ``names`` index:
    sql/query/search_hits_copied.sql), named by sql/query/search_names.sql (on the copy a
    subject range at a time); columns ``qid``, ``match`` (id, label or alias), ``label``
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
    hits_sql = "query/search_hits" if copied is None else "query/search_hits_copied"
    hits = frame_of(run_arrow(connection, hits_sql, values))
    names = _names(connection, hits["qid"].to_list(), lang, copied)
    found = hits.join(names, on="qid", how="left").with_columns(
        pl.col("rank").replace_strict(MATCHES, return_dtype=pl.String).alias("match"),
        pl.col("label").str.len_chars().alias("label_length"),
    )
    found = found.sort(
        "rank", "label_length", pl.col("qid").str.len_chars(), "qid", nulls_last=True
    )
    return found.select("qid", "match", "label", "description")


def _names(
    connection: duckdb.DuckDBPyConnection, qids: list[str], lang: str, copied: ShardMap | None
) -> pl.DataFrame:
    """sql/query/search_names.sql for the hits ``qids``; on a lookup copy, the hits of each
    subject range read from its schema (the cursor is left reading every range's)."""
    sql = "query/search_names"
    if copied is None or not qids:
        return frame_of(run_arrow(connection, sql, {"qids": qids, "lang": lang}))
    frames = []
    try:
        for schema, held in copied.grouped(qids).items():
            route(connection, schema)
            frames.append(frame_of(run_arrow(connection, sql, {"qids": held, "lang": lang})))
    finally:
        route(connection, None)
    return pl.concat(frames)
