"""Page views (docs/data-model.md, docs/questions.md): dump ingest, the REST API,
and the popularity score ``ln(median monthly views + 1)``."""

from kgdiff.pageviews.ingest import IngestOutcome, PageviewIngest, ingest_file, ingest_rows
from kgdiff.pageviews.popularity import popularity
from kgdiff.pageviews.store import SCHEMA, published_sources, table_files

__all__ = [
    "SCHEMA",
    "IngestOutcome",
    "PageviewIngest",
    "ingest_file",
    "ingest_rows",
    "popularity",
    "published_sources",
    "table_files",
]
