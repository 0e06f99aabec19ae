"""The names of many entities read in one pass, a chunk at a time, so that an export never
holds them all as Python objects (:class:`~kgdiff.export.words.names.Names` takes ~600 bytes an
entity: 2 GB for the 3.3 M answers and subjects of 3 × 25 M statements).

The ids are named range by range (:data:`RANGE_IDS` ids at a time, in id order), one query
(``sql/export/entity_names.sql``) a range: every table and file it reads is sorted by id, so
a range's query reads that range of them and DuckDB holds only its rows. Named in one query,
3.2 M answers at 3 × 50 M statements held DuckDB's whole 2 GB and could not run within 1 GB.
A range's rows are taken :data:`CHUNK` at a time as Arrow batches, each turned into the
:class:`~kgdiff.export.words.names.Names` of its entities, with the leads of their Wikipedia
articles (``sql/export/entity_leads.sql``, also sorted by id, read beside it on a second
cursor and merged). The caller keeps what it needs of a chunk (words, a subject's facts: as
frames) and lets the chunk go.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import duckdb
import polars as pl
import pyarrow as pa

from kgdiff.export.words.name_ids import entity_ids, name_ids
from kgdiff.export.words.names import Names, name_of_row
from kgdiff.export.words.names_cache import ensure_names_cache
from kgdiff.query.graph import KnowledgeGraph
from kgdiff.sqlfiles import load_sql, render

CHUNK = 50_000
"""Entities named at a time (their Python objects live only while the chunk is used)."""
RANGE_IDS = 500_000
"""Ids named by one query."""


def _rows(batch: pa.RecordBatch) -> list[tuple[object, ...]]:
    return list(zip(*(column.to_pylist() for column in batch.columns), strict=True))


def _batches(result: duckdb.DuckDBPyConnection) -> Iterator[pa.RecordBatch]:
    """The batches of :data:`CHUNK` rows of an executed query's result (none without one)."""
    reader = result.to_arrow_reader(CHUNK)
    return iter(reader) if reader is not None else iter(())


class _Leads:
    """The leads of the articles of sorted ids, read in order as the names come."""

    def __init__(self, connection: duckdb.DuckDBPyConnection, site: str) -> None:
        """The leads of the ids registered on ``connection`` (:func:`name_ids`)."""
        latest = connection.execute(load_sql("export/wikipedia_latest"), {"wiki": site}).fetchall()
        self._batches: Iterator[pa.RecordBatch] = iter(())
        if latest and latest[0][0] is not None:
            params = {"site": site, "wiki_snapshot": latest[0][0]}
            result = connection.execute(load_sql("export/entity_leads"), params)
            self._batches = _batches(result)
        self._waiting: list[tuple[object, ...]] = []

    def up_to(self, last: str) -> dict[str, str]:
        """The leads of the ids up to ``last`` (in order) not taken before."""
        found: dict[str, str] = {}
        while True:
            for index, (qid, lead) in enumerate(self._waiting):
                if str(qid) > last:
                    self._waiting = self._waiting[index:]
                    return found
                found[str(qid)] = str(lead)
            batch = next(self._batches, None)
            if batch is None:
                self._waiting = []
                return found
            self._waiting = _rows(batch)

    def close(self) -> None:
        """Let go of the leads not read (their result then frees the connection)."""
        self._batches, self._waiting = iter(()), []


def named_chunks(
    kg: KnowledgeGraph, ids: Iterable[str] | pl.Series, snapshot: str | None, lang: str
) -> Iterator[Names]:
    """The names of the entity ids among ``ids`` as of ``snapshot`` in ``lang`` (as
    :meth:`Names.read <kgdiff.export.words.names.Names.read>` reads them), :data:`CHUNK` entities
    at a time, in id order; ids without a label are in none."""
    wanted = entity_ids(ids)
    with kg.connection() as connection, kg.connection() as beside:
        names = ensure_names_cache(connection, lang) if not wanted.is_empty() else ""
        connection.abort()  # its last statement's result, unread, would refuse the ids
        for start in range(0, len(wanted), RANGE_IDS):
            part = wanted.slice(start, RANGE_IDS)
            yield from _range_named(connection, beside, names, part, snapshot, lang)


def _range_named(
    connection: duckdb.DuckDBPyConnection,
    beside: duckdb.DuckDBPyConnection,
    names: str,
    part: pl.Series,
    snapshot: str | None,
    lang: str,
) -> Iterator[Names]:
    """The names of one range of sorted ids ``part``, :data:`CHUNK` at a time (the names'
    tables are in the attached database ``names``)."""
    params = {"snapshot": snapshot, "lang": lang, "first": part[0], "last": part[-1]}
    with name_ids(connection, part), name_ids(beside, part):
        result = connection.execute(render("export/entity_names", names=names), params)
        leads = _Leads(beside, f"{lang}wiki")
        try:
            for batch in _batches(result):
                rows = _rows(batch)
                if not rows:
                    continue
                found = leads.up_to(str(rows[-1][0]))
                named = {str(row[0]): name_of_row(row, found.get(str(row[0]))) for row in rows}
                yield Names(named, lang)
        finally:
            leads.close()
            connection.abort()
            beside.abort()
