"""The datatype of each property as the store's snapshots record it: the RDF ingest reads it
for a file that does not declare its properties' datatypes (:mod:`kgdiff.ingest.rdf_snapshot`),
the RDF export writes each value by it as Wikidata's RDF does (:mod:`kgdiff.export.rdf.writer`).
"""

from __future__ import annotations

import duckdb

from kgdiff.sqlfiles import render
from kgdiff.store.layout import StoreLayout, table_files


def property_datatypes(
    connection: duckdb.DuckDBPyConnection, layout: StoreLayout
) -> dict[str, str]:
    """The datatype of each property as the store's snapshots record it."""
    folders = [layout.snapshot_dir(name) for name in layout.published_names()]
    files = {
        t: [str(f) for d in folders for f in table_files(d, t)]
        for t in ("statements", "qualifiers", "entities")
    }
    sql = render(
        "store/property_datatypes",
        statement_files=files["statements"],
        qualifier_files=files["qualifiers"],
        entity_files=files["entities"],
    )
    return dict(connection.execute(sql).fetchall())
