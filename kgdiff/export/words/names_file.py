"""The names of a set of entities read once into files, and those of any part of them built from
the files (:class:`NamesFile`): for a config that builds its records a part at a time and
would otherwise name each part with a query of its own.

``multi_hop`` named each part of 50,000 chains with :meth:`Names.read
<kgdiff.export.words.names.Names.read>`, a query over the names' tables of the whole store
whatever the part's size: at 3 × 100 M statements 15 % of the export's CPU, nine parts of
~70 s. Here the ids of every part are named in one pass, range by range as
:mod:`~kgdiff.export.words.name_stream` names them (``sql/export/entity_names.sql`` and the
articles' leads, ``sql/export/entity_leads.sql``, written by DuckDB into Parquet files of a
spill folder), and a part's :class:`~kgdiff.export.words.names.Names` are built from the rows
of its own ids: the same names as :meth:`Names.read` gives for them."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import duckdb
import polars as pl

from kgdiff.export.core.leftovers import SpillFolder
from kgdiff.export.words.name_ids import entity_ids, name_ids
from kgdiff.export.words.name_stream import RANGE_IDS
from kgdiff.export.words.names import Names, name_of_row
from kgdiff.export.words.names_cache import ensure_names_cache
from kgdiff.query.graph import KnowledgeGraph
from kgdiff.sqlfiles import load_sql, render
from kgdiff.temporal.writers import write_relation


class NamesFile:
    """The names of the entity ids among ``ids`` as of ``snapshot`` in ``lang``, written
    into a folder of ``parent`` (the system's temporary folder when None) when made."""

    def __init__(
        self,
        kg: KnowledgeGraph,
        ids: Iterable[str] | pl.Series,
        snapshot: str | None,
        lang: str,
        parent: Path | None = None,
    ) -> None:
        self._folder = SpillFolder(parent)
        wanted = entity_ids(ids)
        if wanted.is_empty():
            return
        try:
            with kg.connection() as connection:
                names = ensure_names_cache(connection, lang)
                connection.abort()  # its last result, unread, would refuse the ids
                for start in range(0, len(wanted), RANGE_IDS):
                    part = wanted.slice(start, RANGE_IDS)
                    self._write_range(connection, names, part, snapshot, lang, start)
        except BaseException:
            self._folder.close()  # no part of the names is left behind
            raise

    def _write_range(
        self,
        connection: duckdb.DuckDBPyConnection,
        names: str,
        part: pl.Series,
        snapshot: str | None,
        lang: str,
        start: int,
    ) -> None:
        """The names and leads of one range of sorted ids, each into a file."""
        params = {"snapshot": snapshot, "lang": lang, "first": part[0], "last": part[-1]}
        with name_ids(connection, part):
            query = connection.sql(render("export/entity_names", names=names), params=params)
            write_relation(connection, query, self._folder.path / f"names-{start:012d}.parquet")
            site = f"{lang}wiki"
            latest = connection.execute(load_sql("export/wikipedia_latest"), {"wiki": site})
            found = latest.fetchall()
            if found and found[0][0] is not None:
                leads = connection.sql(
                    load_sql("export/entity_leads"),
                    params={"site": site, "wiki_snapshot": found[0][0]},
                )
                write_relation(connection, leads, self._folder.path / f"leads-{start:012d}.parquet")

    def names(self, ids: Iterable[str] | pl.Series) -> Names:
        """The names of those of ``ids`` that were named (ids without a label have none)."""
        wanted = entity_ids(ids)
        rows = self._rows("names", wanted)
        if rows is None or not rows.height:
            return Names({})
        leads = self._rows("leads", wanted)
        lead = {} if leads is None else dict(leads.iter_rows())
        return Names({row[0]: name_of_row(row, lead.get(row[0])) for row in rows.iter_rows()})

    def _rows(self, kind: str, wanted: pl.Series) -> pl.DataFrame | None:
        """The rows of ``wanted`` in the files of ``kind`` (their first column the id), sorted
        by id (None: no file)."""
        files = sorted(self._folder.path.glob(f"{kind}-*.parquet"))
        if not files or wanted.is_empty():
            return None
        scan = pl.scan_parquet(files)
        key = scan.collect_schema().names()[0]
        return scan.filter(pl.col(key).is_in(wanted.implode())).collect().sort(key)

    def close(self) -> None:
        """Remove the files."""
        self._folder.close()
