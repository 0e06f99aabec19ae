"""``kgdiff evidence``: the mentions that support each fact in one Wikipedia snapshot.

For every item-valued fact whose subject (or object) has an article in the snapshot, the
article's sentences are searched for the other entity's names (:mod:`kgdiff.evidence.mentions`);
the first mentioning sentence is the golden context, the article the golden document. The
result is a build, ``STORE/builds/evidence/NAME/evidence.parquet``, shown by the catalog view
``evidence``; it is rebuilt when the Wikidata snapshots it was made from change.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb
import msgspec
import pyarrow as pa
import pyarrow.parquet as pq

from kgdiff.errors import StoreError
from kgdiff.evidence.mentions import Mention, NameMatcher, first_mentions, make_name
from kgdiff.evidence.schema import EVIDENCE_SCHEMA, evidence_row
from kgdiff.sqlfiles import load_sql
from kgdiff.store.catalog import rebuild_catalog, store_lock
from kgdiff.store.layout import StoreLayout
from kgdiff.store.snapshots import get_snapshot, list_snapshots
from kgdiff.store.store_root import open_catalog
from kgdiff.store.vetting import parquet_problem
from kgdiff.text.sections import sentences
from kgdiff.wikipedia.sites import wiki_language

MAX_INCOMING = 500
"""Facts per object above which the object's own article is not searched for the subject."""
BATCH_PAGES = 256
RANGE_FACTS = 1_000_000
"""Candidate facts per range of pages read at once (sql/evidence/page_ranges.sql)."""


@dataclass(frozen=True)
class EvidenceBuild:
    """A built (or reused) evidence table."""

    snapshot: str
    path: Path
    rows: int
    reused: bool


def _params(layout: StoreLayout, name: str) -> dict[str, Any]:
    wikipedia = get_snapshot(layout, name)
    return {
        "wikipedia": [wikipedia.name, wikipedia.source.sha256],
        "wikidata": sorted([m.name, m.source.sha256] for m in list_snapshots(layout)),
        "max_incoming": MAX_INCOMING,
    }


def evidence_current(layout: StoreLayout, name: str) -> bool:
    """True when the evidence of Wikipedia snapshot ``name`` was built from the snapshots
    published now (a build would reuse it)."""
    return _is_current(layout.evidence_dir(name), _params(layout, name))


def _is_current(folder: Path, params: dict[str, Any]) -> bool:
    params_file = folder / "params.json"
    try:
        same = msgspec.json.decode(params_file.read_bytes()) == params
    except (OSError, msgspec.DecodeError):
        return False  # none, or damaged: made anew
    return same and parquet_problem(folder / "evidence.parquet") is None


def build_evidence(layout: StoreLayout, name: str) -> EvidenceBuild:
    """Find the evidence of Wikipedia snapshot ``name``, or reuse an up-to-date build."""
    params = _params(layout, name)
    if not params["wikidata"]:
        raise StoreError("no Wikidata snapshot to take facts and names from; ingest one first")
    folder = layout.evidence_dir(name)
    target = folder / "evidence.parquet"
    if _is_current(folder, params):
        return EvidenceBuild(name, target, pq.ParquetFile(target).metadata.num_rows, True)
    tmp = folder.with_name(f".tmp-{name}-{os.getpid()}")  # the pid: kgdiff store check
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    try:
        rows = _write_evidence(layout, name, tmp / "evidence.parquet")
        (tmp / "params.json").write_bytes(msgspec.json.encode(params))
        with store_lock(layout):
            shutil.rmtree(folder, ignore_errors=True)
            tmp.rename(folder)
            rebuild_catalog(layout)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return EvidenceBuild(name, target, rows, False)


def _write_evidence(layout: StoreLayout, name: str, out: Path) -> int:
    wiki = get_snapshot(layout, name).wiki or "enwiki"
    connection = open_catalog(layout)
    try:
        # stored in page order, so that a range of pages reads only its own row groups
        connection.execute(
            "CREATE TEMP TABLE evidence_candidates AS SELECT * FROM ("
            + load_sql("evidence/candidates").rstrip().rstrip(";")
            + ") ORDER BY page_id",
            {"snapshot": name, "max_incoming": MAX_INCOMING},
        )
        # in DuckDB (compressed, spilled past its limit), not in Python: each page's names
        # come with it (sql/evidence/page_texts.sql)
        connection.execute(
            "CREATE TEMP TABLE evidence_terms AS " + load_sql("evidence/terms"),
            {"lang": wiki_language(wiki)},
        )
        rows = 0
        with pq.ParquetWriter(out, EVIDENCE_SCHEMA, compression="zstd") as writer:
            for batch in _evidence_batches(connection, name):
                writer.write_batch(batch)
                rows += batch.num_rows
        return rows
    finally:
        connection.close()


def page_ranges(connection: duckdb.DuckDBPyConnection) -> list[tuple[int, int]]:
    """The page-id ranges (both ends included) of about :data:`RANGE_FACTS` candidate facts
    each."""
    ranges = connection.execute(load_sql("evidence/page_ranges"), {"per_range": RANGE_FACTS})
    return [(int(lo), int(hi)) for lo, hi in ranges.fetchall()]


def _evidence_batches(
    connection: duckdb.DuckDBPyConnection, snapshot: str
) -> Iterator[pa.RecordBatch]:
    for lo, hi in page_ranges(connection):
        params = {"snapshot": snapshot, "lo": lo, "hi": hi}
        relation = connection.sql(load_sql("evidence/page_texts"), params=params)
        for batch in relation.to_arrow_reader(BATCH_PAGES):
            rows = [row for page in batch.to_pylist() for row in _page_evidence(snapshot, page)]
            if rows:
                yield pa.RecordBatch.from_pylist(rows, schema=EVIDENCE_SCHEMA)


def _page_evidence(snapshot: str, page: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The evidence rows of one page of sql/evidence/page_texts.sql: its facts whose target
    one of its sentences names, by any name of the target the page's row carries."""
    names = page["names"] or ()
    made = (make_name(n["entity"], n["term"], n["kind"], bool(n["demonym"])) for n in names)
    matcher = NameMatcher(name for name in made if name is not None)
    text_sentences = sentences(page["text"])
    lead_count = len(sentences(page["lead"] or ""))
    found: dict[str, Mention] = first_mentions(text_sentences, matcher)
    for fact in page["facts"]:
        mention = found.get(fact["target"])
        if mention is not None:
            yield evidence_row(snapshot, page, fact, mention, lead_count)
