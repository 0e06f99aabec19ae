"""``kgdiff export rdf``: one snapshot as N-Triples (streamed) or Turtle (a subset).

Each table is read by one ``sql/rdf/`` statement on an in-memory DuckDB connection (it holds
no lock on the catalog) and fetched in Arrow batches, so memory stays bounded by a batch and
DuckDB's own limit whatever the snapshot's size. N-Triples lines are written as they come;
the triples of a statement and of its qualifiers come from separate passes, which N-Triples
allows (a graph is a set of triples, their order carries nothing). The file appears whole:
it is written beside ``out`` under a temporary name, then renamed.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

import duckdb
import pyarrow as pa

from kgdiff.errors import UsageError
from kgdiff.export.rdf import ntriples as nt
from kgdiff.export.rdf import triples
from kgdiff.sqlfiles import render
from kgdiff.store.layout import StoreLayout, table_files

FORMATS = ("nt", "ttl")
BATCH_ROWS = 20_000
MEMORY_LIMIT = "1GB"


@dataclass(frozen=True)
class RdfRequest:
    """What to export: a snapshot, where, in which format, which entities, truthy only."""

    snapshot: str
    out: Path
    format: str = "nt"
    entities: list[str] | None = None
    truthy: bool = False


@dataclass(frozen=True)
class RdfResult:
    """What was written."""

    path: Path
    triples: int


def _files(folder: Path, table: str) -> list[str]:
    return [str(path) for path in table_files(folder, table)]


def _check(layout: StoreLayout, request: RdfRequest) -> Path:
    """The snapshot's folder, after refusing what cannot be done (before any work)."""
    if request.format not in FORMATS:
        raise UsageError(f"--format {request.format!r} is not one of {', '.join(FORMATS)}")
    if request.format == "ttl" and not request.entities:
        raise UsageError(
            "Turtle is written for a few entities: give --entities, or use --format nt"
        )
    folder = layout.snapshot_dir(request.snapshot)
    if not (folder / "manifest.json").is_file():
        raise UsageError(
            f"no snapshot {request.snapshot!r} in {layout.root}; `kgdiff snapshots` lists them"
        )
    if not request.out.parent.is_dir():
        raise UsageError(f"--out {request.out}: folder {request.out.parent} does not exist")
    return folder


def property_datatypes(
    connection: duckdb.DuckDBPyConnection, layout: StoreLayout
) -> dict[str, str]:
    """The datatype of each property as the store's snapshots record it."""
    folders = [layout.snapshot_dir(name) for name in layout.published_names()]
    files = {
        t: [f for d in folders for f in _files(d, t)]
        for t in ("statements", "qualifiers", "entities")
    }
    sql = render(
        "rdf/datatypes",
        statement_files=files["statements"],
        qualifier_files=files["qualifiers"],
        entity_files=files["entities"],
    )
    return dict(connection.execute(sql).fetchall())


def _check_entities(
    connection: duckdb.DuckDBPyConnection, folder: Path, request: RdfRequest
) -> None:
    """Refuse ``--entities`` that the snapshot does not hold (a typo would else give an
    empty file without a word)."""
    if not request.entities:
        return
    sql = render("rdf/present", files=_files(folder, "entities"))
    present = {qid for (qid,) in connection.execute(sql, {"entities": request.entities}).fetchall()}
    missing = [qid for qid in request.entities if qid not in present]
    if missing:
        shown = ", ".join(missing[:5]) + (" …" if len(missing) > 5 else "")
        raise UsageError(f"snapshot {request.snapshot!r} holds no entity {shown}")


def _batches(
    connection: duckdb.DuckDBPyConnection, name: str, files: list[str], entities: list[str] | None
) -> Iterator[pa.RecordBatch]:
    if not files:
        return
    sql = render(f"rdf/{name}", files=files)
    relation = connection.sql(sql, params={"entities": entities})
    yield from relation.to_arrow_reader(BATCH_ROWS)


def snapshot_lines(
    connection: duckdb.DuckDBPyConnection,
    folder: Path,
    datatypes: Mapping[str, str],
    request: RdfRequest,
) -> Iterator[str]:
    """Every N-Triples line of the export, table by table."""
    passes: list[tuple[str, Callable[[pa.RecordBatch], Iterator[str]]]] = [
        ("entities", triples.entity_lines),
        ("labels", triples.label_lines),
        ("sitelinks", triples.sitelink_lines),
        ("statements", lambda b: triples.statement_lines(b, datatypes, not request.truthy)),
    ]
    if not request.truthy:
        passes.append(("qualifiers", lambda b: triples.qualifier_lines(b, datatypes)))
    for table, to_lines in passes:
        for batch in _batches(connection, table, _files(folder, table), request.entities):
            yield from to_lines(batch)


def _write_nt(lines: Iterator[str], out: TextIO) -> int:
    count = 0
    for text in lines:
        out.write(text)
        count += 1
    return count


def _write_ttl(lines: Iterator[str], path: Path) -> int:
    import rdflib

    graph = rdflib.Graph()
    for prefix, namespace in nt.PREFIXES.items():
        graph.bind(prefix, rdflib.Namespace(namespace), replace=True)
    graph.parse(data="".join(lines), format="nt")
    graph.serialize(destination=path, format="turtle", encoding="utf-8")
    return len(graph)


def export_rdf(store: str | Path | None, request: RdfRequest) -> RdfResult:
    """Write the snapshot of ``request`` as RDF to ``request.out`` (whole or not at all)."""
    layout = StoreLayout.resolve(store)
    folder = _check(layout, request)
    temporary = request.out.with_name(f".{request.out.name}.{os.getpid()}.tmp")
    spill = tempfile.TemporaryDirectory(prefix=".kgdiff-rdf-", dir=request.out.parent)
    # what does not fit (the groups with a preferred statement) spills to disk past this limit
    config: dict[str, str | bool | int | float | list[str]] = {
        "memory_limit": MEMORY_LIMIT,
        "temp_directory": spill.name,
    }
    connection = duckdb.connect(config=config)
    try:
        _check_entities(connection, folder, request)
        datatypes = property_datatypes(connection, layout)
        lines = snapshot_lines(connection, folder, datatypes, request)
        if request.format == "ttl":
            count = _write_ttl(lines, temporary)
        else:
            with temporary.open("w", encoding="utf-8", newline="\n") as out:
                count = _write_nt(lines, out)
        temporary.replace(request.out)
    finally:
        connection.close()
        temporary.unlink(missing_ok=True)
        spill.cleanup()
    return RdfResult(request.out, count)
