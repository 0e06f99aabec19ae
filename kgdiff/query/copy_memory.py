"""What DuckDB keeps in memory of the row groups a reader of a copy has read, and its bound.

DuckDB keeps what it loads of a row group (its columns' segments and statistics) until the
database is closed; a long-running reader of a copy (the lookup copy, a facts copy) that reads
every range would grow with the store. A reader weighs it now and then and opens its copy
again past :data:`READER_METADATA_BYTES`.
"""

from __future__ import annotations

import time

import duckdb

from kgdiff.sqlfiles import load_sql

READER_METADATA_BYTES = 512 << 20
"""What a reader of a copy may keep of the row groups it has read before it opens the copy
again. DuckDB keeps what it loads of a row group (its columns' segments and statistics) until
the database is closed: 6-12 MB a subject range of the copy (of ~4 M statements), ~250 MB for the
whole copy of 3 x 25 M statements, so a service reading every range would grow with the store.
Past this, the next question opens the copy again (a range read first after that costs ~40 ms
more, its row groups loaded again). Each worker of ``kgdiff serve`` has a reader of the lookup
copy and one of each facts copy it reads."""
WEIGH_EVERY_SECONDS = 10.0
"""How often a reader weighs what its instance keeps, at most."""


class MetadataBound:
    """How much of the row groups it read a reader's DuckDB instance may keep
    (:data:`READER_METADATA_BYTES`), weighed at most every ``weigh_every`` seconds: past it,
    the reader opens its copy again."""

    def __init__(
        self, most: int = READER_METADATA_BYTES, weigh_every: float = WEIGH_EVERY_SECONDS
    ) -> None:
        self.most, self.weigh_every = most, weigh_every
        self._weighed: dict[int, float] = {}

    def passed(self, instance: duckdb.DuckDBPyConnection) -> bool:
        """True when ``instance`` keeps more than :attr:`most` (False between weighings)."""
        now = time.monotonic()
        if now - self._weighed.get(id(instance), 0.0) < self.weigh_every:
            return False
        self._weighed[id(instance)] = now
        if row_group_metadata_bytes(instance) <= self.most:
            return False
        del self._weighed[id(instance)]
        return True


def row_group_metadata_bytes(connection: duckdb.DuckDBPyConnection) -> int:
    """What the DuckDB instance of ``connection`` keeps of its tables' row groups, in bytes."""
    found = connection.execute(load_sql("lookup/row_group_metadata")).fetchone()
    return int(found[0]) if found else 0
