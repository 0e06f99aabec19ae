"""The lookup copy's subject ranges: which schema of the copy holds an id's rows, and a cursor
routed to it (:mod:`kgdiff.query.lookup`, :mod:`kgdiff.query.lookup_build`)."""

from __future__ import annotations

import bisect
from dataclasses import dataclass

import duckdb

from kgdiff.sqlfiles import quote, render

CATALOG_ALIAS = "kgdiff_catalog"
COPY_ALIAS = "kgdiff_lookup"
SHARD_PREFIX = "r"


@dataclass(frozen=True)
class Shard:
    """A subject range [lo, hi) of the copy and the schema that holds its rows."""

    name: str
    lo: str
    hi: str


def shard_schema(index: int) -> str:
    """The schema of the copy's ``index``-th subject range."""
    return f"{SHARD_PREFIX}{index:05d}"


class ShardMap:
    """Which of a copy's schemas holds an id's rows.

    DuckDB chooses the row groups a query reads by their min/max, but it walks every row
    group of a table to do so, ~1–2.4 µs each: on one table of every subject, one entity's
    statements took 91 ms at 3 × 100 M statements against 1.5 ms at 3 × 5 M, and would take
    over a second for the whole of Wikidata. Each range's tables hold a bounded number of rows
    (:data:`~kgdiff.query.lookup_build.ROWS_PER_RANGE` statements), so a question routed to
    its range's schema costs the same at any size."""

    def __init__(self, shards: list[Shard]) -> None:
        self.shards = sorted(shards, key=lambda shard: shard.lo)
        self._los = [shard.lo for shard in self.shards]

    @classmethod
    def read(cls, connection: duckdb.DuckDBPyConnection, copy: str = COPY_ALIAS) -> ShardMap:
        """The ranges of the copy attached as ``copy`` on ``connection``."""
        rows = connection.execute(render("lookup/shards", copy=copy)).fetchall()
        return cls([Shard(str(name), str(lo), str(hi)) for name, lo, hi in rows])

    def write(self, connection: duckdb.DuckDBPyConnection, copy: str) -> None:
        """Write the ranges into the table ``shards`` of the database ``copy``."""
        columns = {"names": [s.name for s in self.shards], "los": [s.lo for s in self.shards]}
        values = {**columns, "his": [s.hi for s in self.shards]}
        connection.execute(render("lookup/copy_shards", copy=copy), values)

    def schema_of(self, qid: str) -> str | None:
        """The schema whose range holds ``qid`` (None when none does)."""
        index = bisect.bisect_right(self._los, qid) - 1
        if index < 0 or not qid < self.shards[index].hi:
            return None
        return self.shards[index].name

    def grouped(self, ids: list[str]) -> dict[str | None, list[str]]:
        """``ids`` by the schema that holds each (in their order within each)."""
        groups: dict[str | None, list[str]] = {}
        for qid in ids:
            groups.setdefault(self.schema_of(qid), []).append(qid)
        return groups


def route(cursor: duckdb.DuckDBPyConnection, schema: str | None) -> None:
    """Make a cursor of :func:`~kgdiff.query.lookup.open_lookup` read the copy's tables from
    ``schema`` (a range's: only the rows of the ids it holds) or, for None, from ``main``
    (every id)."""
    path = [f"{COPY_ALIAS}.{schema}"] if schema else []
    path += [f"{COPY_ALIAS}.main", f"{CATALOG_ALIAS}.main"]
    cursor.execute(f"SET search_path = {quote(','.join(path))}")
