"""``kgdiff export rdf``: snapshots as N-Triples or N-Quads (streamed), or Turtle or TriG (a
subset), with a classification in kgdiff's vocabulary beside them (N-Quads, TriG).

The tables are read by the ``sql/rdf/`` statements on an in-memory DuckDB connection (it
holds no lock on the catalog), one subject range at a time, and written entity by entity
(:mod:`kgdiff.export.rdf.entity_order`): memory stays bounded by a range and DuckDB's own
limit whatever the snapshot's size, and ``kgdiff ingest rdf`` reads the file back as a
stream. N-Quads are the same lines, each snapshot in its named graph, then the
classification's graph (:mod:`kgdiff.export.rdf.classification`); an ``out`` named ``.gz`` is
written gzip-compressed (:mod:`kgdiff.export.rdf.gzipped`). The file appears whole: it is
written beside ``out`` under a temporary name, then renamed.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TextIO

import duckdb

from kgdiff.errors import UsageError
from kgdiff.export.rdf.classification import (
    ClassificationTerms,
    classification_lines,
    snapshot_graph,
)
from kgdiff.export.rdf.entity_order import entity_block, range_entities, subject_ranges
from kgdiff.export.rdf.gzipped import is_gzip_name, write_gzipped
from kgdiff.export.rdf.rdflib_out import write_trig, write_ttl
from kgdiff.export.rdf.request import (
    QUADS,
    RdfRequest,
    RdfResult,
    check_request,
    check_snapshots,
    classification_days,
)
from kgdiff.query.graph import KnowledgeGraph
from kgdiff.sqlfiles import render
from kgdiff.store.compact import write_whole
from kgdiff.store.layout import StoreLayout, table_files
from kgdiff.store.optimizers import connect
from kgdiff.store.property_datatypes import property_datatypes
from kgdiff.store.snapshots import list_snapshots
from kgdiff.temporal.builds import Build

__all__ = ["RdfRequest", "RdfResult", "export_rdf", "snapshot_graph"]
MEMORY_LIMIT = "1GB"


def _files(folder: Path, table: str) -> list[str]:
    return [str(path) for path in table_files(folder, table)]


def _check_entities(
    connection: duckdb.DuckDBPyConnection, folders: list[Path], request: RdfRequest
) -> None:
    """Refuse ``--entities`` that no snapshot exported holds (a typo would else give an
    empty file without a word)."""
    if not request.entities:
        return
    present: set[str] = set()
    for folder in folders:
        sql = render("rdf/present", files=_files(folder, "entities"))
        found = connection.execute(sql, {"entities": request.entities}).fetchall()
        present.update(qid for (qid,) in found)
    missing = [qid for qid in request.entities if qid not in present]
    if missing:
        shown = ", ".join(missing[:5]) + (" …" if len(missing) > 5 else "")
        names = ", ".join(folder.name.removeprefix("snapshot=") for folder in folders)
        raise UsageError(f"snapshot {names} holds no entity {shown}")


def snapshot_lines(
    connection: duckdb.DuckDBPyConnection,
    folder: Path,
    datatypes: Mapping[str, str],
    request: RdfRequest,
) -> Iterator[str]:
    """Every N-Triples line of one snapshot, entity by entity (in id order)."""
    tables = ["entities", "labels", "sitelinks", "statements"]
    if not request.truthy:
        tables.append("qualifiers")
    files = {table: _files(folder, table) for table in tables}
    ranges = (
        [(None, None)]
        if request.entities
        else subject_ranges(connection, files["entities"], request.range_entities)
    )
    for bounds in ranges:
        for qid, rows in range_entities(connection, files, request.entities, bounds):
            yield from entity_block(qid, rows, datatypes, not request.truthy)


def as_quads(lines: Iterator[str], graph: str) -> Iterator[str]:
    """N-Triples lines as N-Quads lines in ``graph`` (an IRI in brackets)."""
    tail = f" {graph} .\n"
    for text in lines:
        yield text[:-3] + tail


def _classification(layout: StoreLayout, request: RdfRequest) -> Build:
    """The classification build asked for (built once, then reused, as ``kgdiff classify``)."""
    assert request.classification is not None
    init, cutoff, current = classification_days(request.classification)
    graph = KnowledgeGraph.open(layout.root)
    try:
        return graph.answers.classification(cutoff, init, current, request.mode)
    finally:
        graph.close()


def _read_snapshots(build: Build) -> list[str]:
    return list(dict.fromkeys(read.snapshot for read in build.reads if read.snapshot))


def _lines(
    connection: duckdb.DuckDBPyConnection,
    layout: StoreLayout,
    snapshots: Mapping[str, Path],
    request: RdfRequest,
    build: Build | None,
) -> Iterator[str]:
    """Every line of the export: each snapshot's (in its graph), then the classification's."""
    datatypes = property_datatypes(connection, layout)
    quads = request.format in QUADS
    for name, folder in snapshots.items():
        lines = snapshot_lines(connection, folder, datatypes, request)
        yield from as_quads(lines, snapshot_graph(name)) if quads else lines
    if build is not None:
        p = build.params
        graph = ClassificationTerms(p.init, p.cutoff, p.current, p.mode).graph
        yield from as_quads(classification_lines(layout, build, request.entities), graph)


def _write_lines(lines: Iterator[str], out: TextIO) -> int:
    count = 0
    for text in lines:
        out.write(text)
        count += 1
    return count


def _write(lines: Iterator[str], request: RdfRequest, path: Path) -> int:
    if request.format == "ttl":
        return write_ttl(lines, path)
    if request.format == "trig":
        return write_trig(lines, path)
    if is_gzip_name(request.out):
        return write_gzipped(lines, path)
    with path.open("w", encoding="utf-8", newline="\n") as out:
        return _write_lines(lines, out)


def _whole(layout: StoreLayout, snapshots: dict[str, Path], spill: Path) -> dict[str, Path]:
    """``snapshots`` with each one stored as a delta written whole into ``spill`` (the
    export reads a snapshot's files: a delta's hold its changes only)."""
    manifests = {m.name: m for m in list_snapshots(layout)}
    return {
        name: write_whole(layout, name, spill)
        if (manifest := manifests.get(name)) is not None and manifest.delta is not None
        else folder
        for name, folder in snapshots.items()
    }


def export_rdf(store: str | Path | None, request: RdfRequest) -> RdfResult:
    """Write the snapshots (and classification) of ``request`` as RDF to ``request.out``
    (whole or not at all)."""
    layout = StoreLayout.resolve(store)
    check_request(layout, request)
    build = _classification(layout, request) if request.classification else None
    names = request.snapshots or (_read_snapshots(build) if build else [])
    snapshots = dict(zip(names, check_snapshots(layout, names), strict=True))
    temporary = request.out.with_name(f".{request.out.name}.{os.getpid()}.tmp")
    spill = tempfile.TemporaryDirectory(prefix=".kgdiff-rdf-", dir=request.out.parent)
    # what does not fit in memory spills to disk past this limit
    config: dict[str, str | bool | int | float | list[str]] = {
        "memory_limit": MEMORY_LIMIT,
        "temp_directory": spill.name,
    }
    connection = connect(config)
    try:
        snapshots = _whole(layout, snapshots, Path(spill.name))
        _check_entities(connection, list(snapshots.values()), request)
        count = _write(_lines(connection, layout, snapshots, request, build), request, temporary)
        temporary.replace(request.out)
    finally:
        connection.close()
        temporary.unlink(missing_ok=True)
        spill.cleanup()
    return RdfResult(request.out, count)
