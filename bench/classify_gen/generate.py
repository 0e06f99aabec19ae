"""Write a whole synthetic store: the universe once, then each snapshot's five tables.

Snapshots are published with kgdiff's own :func:`~kgdiff.store.publish.publish_snapshot`
(manifest, atomic rename, catalog rebuild), so the store is one kgdiff could have written.
``OUT/gen.json`` records the parameters; a second run with the same parameters does nothing,
and a run after one that was killed keeps the snapshots that one published.
"""

from __future__ import annotations

import json
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

import duckdb

from bench.classify_gen import draws, world
from bench.classify_gen.model import GenParams
from bench.classify_gen.statements import statements_sql
from bench.classify_gen.tables import (
    LABEL_SOURCES,
    entities_sql,
    label_sources_sql,
    labels_sql,
    qualifiers_sql,
    sitelinks_sql,
)
from kgdiff.sqlfiles import quote
from kgdiff.store.layout import TABLES, StoreLayout
from kgdiff.store.manifest import Manifest, SourceInfo, read_manifest
from kgdiff.store.publish import publish_snapshot, tool_versions, utc_now

RECORD = "gen.json"
ROW_GROUPS = {
    "statements": 200_000,
    "qualifiers": 200_000,
    "entities": 100_000,
    "labels": 500_000,
    "sitelinks": 500_000,
}

ONE_THREAD = frozenset({"labels"})
"""Tables copied on one thread. A snapshot's labels are ~30 rows an entity, unnested in
qid order: on two threads DuckDB's order-keeping copy held them until the end (at 3 M
statements no byte was written until 5.6 of 7.2 s; at 3 x 200 M it spilled every label, 27 GB
and growing when stopped), on one they stream into the file (9.8 s at 3 M)."""


@dataclass
class Timings:
    """Wall seconds of each step, for the report."""

    steps: dict[str, float] = field(default_factory=dict)

    def add(self, name: str, since: float) -> float:
        """Record the time since ``since`` under ``name``; return now."""
        now = time.perf_counter()
        self.steps[name] = round(now - since, 2)
        return now


def is_current(out: Path, params: GenParams) -> bool:
    """True when ``out`` already holds a complete store for ``params``."""
    record = out / RECORD
    if not record.is_file():
        return False
    recorded = json.loads(record.read_text())
    layout = StoreLayout(out.resolve())
    return bool(
        recorded.get("digest") == params.digest()
        and layout.published_names() == sorted(params.names())
    )


def _resumable(out: Path, params: GenParams) -> bool:
    """True when ``out`` holds an unfinished store of ``params`` (a run that was killed)."""
    record = out / RECORD
    return record.is_file() and json.loads(record.read_text()).get("digest") == params.digest()


def _source_sha(params: GenParams, k: int) -> str:
    """The ``source.sha256`` of snapshot k: the parameters' digest and the index."""
    return f"{params.digest()[:48]}{k:016x}"


def published(layout: StoreLayout, params: GenParams, k: int) -> Manifest | None:
    """Snapshot k as an earlier run of the same parameters published it, if it did."""
    path = layout.snapshot_dir(params.names()[k]) / "manifest.json"
    if not path.is_file():
        return None
    manifest = read_manifest(path)
    return manifest if manifest.source.sha256 == _source_sha(params, k) else None


def _clear(out: Path) -> None:
    """Remove a previous generated store from ``out`` (refuse anything else)."""
    if not out.exists() or not any(out.iterdir()):
        return
    if not (out / RECORD).is_file():
        raise SystemExit(f"{out} is not empty and was not made by bench.classify_gen; not touched")
    for name in ("snapshots", "builds", ".staging", ".gen"):
        shutil.rmtree(out / name, ignore_errors=True)
    for name in ("kg.duckdb", RECORD, ".lock"):
        (out / name).unlink(missing_ok=True)


def _connect(scratch: Path, threads: int, memory_limit: str) -> duckdb.DuckDBPyConnection:
    """The scratch database the universe is built in (spills next to it)."""
    scratch.mkdir(parents=True, exist_ok=True)
    con = duckdb.connect(str(scratch / "gen.duckdb"))
    con.execute(f"SET threads = {threads}")
    con.execute(f"SET memory_limit = {quote(memory_limit)}")
    con.execute(f"SET temp_directory = {quote(str(scratch / 'tmp'))}")
    con.execute("SET enable_progress_bar = false")
    con.execute("SET preserve_insertion_order = true")
    return con


def _copy(con: duckdb.DuckDBPyConnection, query: str, path: Path, table: str) -> int:
    """COPY ``query`` to ``path`` as zstd Parquet; return the row count."""
    copy = (
        f"COPY ({query}) TO {quote(str(path))} "
        f"(FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE {ROW_GROUPS[table]})"
    )
    if table not in ONE_THREAD:
        con.execute(copy)
    else:
        threads = con.execute("SELECT current_setting('threads')").fetchone()[0]  # type: ignore[index]
        con.execute("SET threads = 1")
        try:
            con.execute(copy)
        finally:
            con.execute(f"SET threads = {int(threads)}")
    row = con.execute(f"SELECT count(*) FROM read_parquet({quote(str(path))})").fetchone()
    return int(row[0]) if row else 0


def write_snapshot(
    con: duckdb.DuckDBPyConnection, params: GenParams, k: int, subjects: int, layout: StoreLayout
) -> Manifest:
    """Write and publish snapshot k."""
    start = time.perf_counter()
    name, day = params.names()[k], params.dates()[k]
    folder = layout.staging(name)
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    files = {table: folder / table / "part-00000.parquet" for table in ROW_GROUPS}
    for path in files.values():
        path.parent.mkdir()
    statements = str(files["statements"])
    queries = {
        "statements": statements_sql(params, k, subjects),
        "qualifiers": qualifiers_sql(statements),
        "entities": entities_sql(params, k, subjects, statements),
        "labels": labels_sql(),
        "sitelinks": sitelinks_sql(params, k, subjects),
    }
    timings = Timings()
    counts, step = {}, start
    sources = f"CREATE OR REPLACE TABLE {LABEL_SOURCES} AS {label_sources_sql(params, k, subjects)}"
    for table, query in queries.items():
        if table == "labels":
            con.execute(sources)
        counts[table] = _copy(con, query, files[table], table)
        step = timings.add(f"{table}_seconds", step)
    source = SourceInfo(
        path=f"synthetic:bench.classify_gen/{name}",
        size=files["statements"].stat().st_size,
        mtime_ns=0,
        sha256=_source_sha(params, k),
        format="synthetic",
    )
    manifest = Manifest(
        name=name,
        date=day.isoformat(),
        kind="wikidata",
        source=source,
        dump_date=day.isoformat(),
        counts={table: counts[table] for table in TABLES},
        rejects=0,
        rejects_file=None,
        created_at=utc_now(),
        elapsed_seconds=round(time.perf_counter() - start, 3),
        workers=int(con.execute("SELECT current_setting('threads')").fetchone()[0]),  # type: ignore[index]
        chunk_bytes=0,
        input_stats={"seed": params.seed, "snapshot_index": k},
        timings=timings.steps,
        **tool_versions(),
    )
    publish_snapshot(layout, folder, manifest)
    return manifest


def generate(out: Path, params: GenParams, threads: int, memory_limit: str) -> dict[str, object]:
    """Generate the store in ``out`` (unless current); return the report written to gen.json."""
    out = out.resolve()
    if is_current(out, params):
        report: dict[str, object] = json.loads((out / RECORD).read_text())
        report["reused"] = True
        return report
    if not _resumable(out, params):
        _clear(out)
    layout = StoreLayout(out)
    layout.ensure()
    (out / RECORD).write_text(json.dumps({"digest": params.digest(), "complete": False}) + "\n")
    timings = Timings()
    step = time.perf_counter()
    scratch = out / ".gen"
    con = _connect(scratch, threads, memory_limit)
    try:
        for statement in draws.macros(params):
            con.execute(statement)
        subjects, base = world.build(con, params)
        step = timings.add("universe_seconds", step)
        manifests = []
        for k in range(params.snapshots):
            kept = published(layout, params, k)  # a killed run's snapshots are kept
            manifests.append(kept or write_snapshot(con, params, k, subjects, layout))
            step = timings.add(f"snapshot_{k}_seconds", step)
    finally:
        con.close()
        shutil.rmtree(scratch, ignore_errors=True)
    report = {
        "digest": params.digest(),
        "params": params.as_json(),
        "base_subjects": subjects,
        "base_statements": base,
        "snapshots": {m.name: {"date": m.date, **m.counts} for m in manifests},
        "timings": timings.steps,
    }
    (out / RECORD).write_text(json.dumps(report, indent=2) + "\n")
    report["reused"] = False
    return report
