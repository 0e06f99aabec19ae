"""The names of many entities read in one pass, a chunk at a time, so that an export never
holds them all as Python objects (:class:`~kgdiff.export.words.names.Names` takes ~600 bytes an
entity: 2 GB for the 3.3 M answers and subjects of 3 × 25 M statements).

One query (``sql/export/entity_names.sql``) names every id, sorted by id; its rows are taken
:data:`CHUNK` at a time as Arrow batches, each turned into the
:class:`~kgdiff.export.words.names.Names` of its entities, with the leads of their Wikipedia
articles (``sql/export/entity_leads.sql``, also sorted by id, read beside it on a second
cursor and merged). The caller keeps what it needs of a chunk (words, a subject's facts: as
frames) and lets the chunk go. Reading in chunks of ids instead, one query each, would cost
each chunk the whole query's scans again: ~60 CPU-s a query at 3 × 25 M statements, whether
it names 20,000 entities or 200,000.
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


def named_chunks(
    kg: KnowledgeGraph, ids: Iterable[str] | pl.Series, snapshot: str | None, lang: str
) -> Iterator[Names]:
    """The names of the entity ids among ``ids`` as of ``snapshot`` in ``lang`` (as
    :meth:`Names.read <kgdiff.export.words.names.Names.read>` reads them), :data:`CHUNK` entities
    at a time, in id order; ids without a label are in none."""
    wanted = entity_ids(ids)
    if wanted.is_empty():
        return
    params = {"snapshot": snapshot, "lang": lang}
    with (
        kg.connection() as connection,
        kg.connection() as beside,
        name_ids(connection, wanted),
        name_ids(beside, wanted),
    ):
        names = ensure_names_cache(connection, lang)
        result = connection.execute(render("export/entity_names", names=names), params)
        leads = _Leads(beside, f"{lang}wiki")
        del wanted
        for batch in _batches(result):
            rows = _rows(batch)
            if not rows:
                continue
            found = leads.up_to(str(rows[-1][0]))
            named = {str(row[0]): name_of_row(row, found.get(str(row[0]))) for row in rows}
            yield Names(named, lang)
