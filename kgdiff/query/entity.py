"""An entity as of a date, and which history snapshot the supporting revisions read."""

from __future__ import annotations

import duckdb
import polars as pl

from kgdiff.errors import StoreError
from kgdiff.query.frames import frame_of
from kgdiff.query.labels import labels_for
from kgdiff.query.lookup_ranges import ShardMap
from kgdiff.query.memo import StoreMemo
from kgdiff.sqlfiles import run_arrow
from kgdiff.store.layout import StoreLayout
from kgdiff.store.snapshots import list_wikipedia_snapshots
from kgdiff.temporal.dates import DateRead


def entity_as_of(
    connection: duckdb.DuckDBPyConnection,
    qid: str,
    read: DateRead,
    lang: str,
    memo: StoreMemo | None = None,
    copied: ShardMap | None = None,
) -> pl.DataFrame:
    """``qid`` as the snapshot ``read`` holds it (no row when it does not), its types
    labelled (``type_labels``), and the date asked and its gap. ``copied``: ``connection``
    is on the lookup copy with these subject ranges (and may read ``qid``'s only)."""
    values = {"qid": qid, "snapshot": read.snapshot, "lang": lang}
    frame = frame_of(run_arrow(connection, "query/entity", values))
    types = frame.get_column("types").to_list()[0] if frame.height else []
    labels = labels_for(connection, types, read.snapshot, lang, memo, copied)
    return frame.with_columns(
        pl.Series("type_labels", [[labels.of(t) for t in types]] * frame.height),
        pl.lit(read.day).alias("date"),
        pl.lit(read.gap_days).alias("gap_days"),
    )


def latest_history(layout: StoreLayout, wiki: str) -> str:
    """The newest Wikipedia snapshot of ``wiki`` holding more than one revision of a page."""
    snapshots = [
        m
        for m in list_wikipedia_snapshots(layout)
        if m.wiki == wiki and m.input_stats.get("max_revisions_per_page", 0) > 1
    ]
    if not snapshots:
        raise StoreError(
            f"no history snapshot of {wiki} in {layout.root}: ingest a pages-meta-history dump "
            "with 'kgdiff ingest wikipedia', or search the live wiki with --api URL"
        )
    return snapshots[-1].name
