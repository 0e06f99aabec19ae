"""``kgdiff ingest rdf``: a snapshot from Wikibase RDF (Turtle, N-Triples, N-Quads, RDF/XML).

The RDF is read in chunks (:mod:`kgdiff.readers.rdf_chunks`), each parsed by rdflib and
turned into entity documents in Wikibase's canonical JSON (:mod:`kgdiff.readers.rdf_entities`).
The documents are written, one per line, as a JSON dump (zstd-compressed) to
``STORE/rdf/NAME.json.zst``, which is then ingested like any dump
(:func:`kgdiff.ingest.pipeline.ingest_wikidata`): the same row builder makes the rows, so a
statement read from RDF and the same statement read from JSON give equal rows. The JSON stays
as the snapshot's source (as ``ingest api`` keeps its document), with ``NAME.rdf.json``
recording the RDF file it came from and what the conversion counted.

Malformed RDF (a line, a Turtle statement that rdflib cannot parse) is set aside in
``STORE/rdf/NAME.rejects.jsonl`` and counted, like a malformed entity of a JSON dump;
``max_rejects`` ends the run past that many (0: at the first, naming the file and line).
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import msgspec
import zstandard

from kgdiff.errors import InputError, StoreError, TooManyRejectsError
from kgdiff.ingest.detect import resolve_date
from kgdiff.ingest.pipeline import IngestRequest, IngestResult, ingest_wikidata
from kgdiff.ingest.progress import NullProgress, Progress, Retitled
from kgdiff.ingest.sources import SourceStream, open_source
from kgdiff.readers.input_file import check_input_file
from kgdiff.readers.rdf_chunks import (
    DEFAULT_CHUNK_BYTES,
    Chunk,
    rdf_chunks,
    rdf_format,
    split_blocks,
)
from kgdiff.readers.rdf_entities import (
    EntityBuilder,
    NotGroupedError,
    Triple,
    parse_chunk,
)
from kgdiff.readers.rdf_nodes import RdfStats
from kgdiff.store.layout import StoreLayout, check_snapshot_name
from kgdiff.store.manifest import SUBSET
from kgdiff.store.optimizers import connect
from kgdiff.store.property_datatypes import property_datatypes

FULL = "full"
SNIPPET = 200


@dataclass(frozen=True)
class RdfIngestRequest:
    """What ``kgdiff ingest rdf`` was asked to do."""

    path: Path
    snapshot: str | None = None
    date: str | None = None
    store: str | Path | None = None
    format: str | None = None
    """``turtle``, ``nt``, ``nquads`` or ``xml``; None: from the file name."""
    coverage: str | None = None
    """``full`` or ``subset``; None: full if the file declares itself a dump
    (``wikibase:Dump``), else subset."""
    max_rejects: int | None = None
    chunk_bytes: int = DEFAULT_CHUNK_BYTES
    grouped: bool = True
    """The file writes each entity's triples together (Wikibase and WDQS dumps do); False:
    any order, the whole file held in memory (kgdiff's own export is grouped: it needs none)."""


@dataclass(frozen=True)
class RdfIngestResult:
    """The published snapshot and what the RDF conversion counted."""

    ingest: IngestResult
    source: Path
    """The JSON dump the snapshot was made from."""
    counts: dict[str, int] = field(default_factory=dict)
    rejects: int = 0
    rejects_file: Path | None = None


class _Rejects:
    """Malformed pieces of the RDF: written to a JSON-lines file, counted, capped."""

    def __init__(self, path: Path, source: Path, limit: int | None) -> None:
        self.path, self.source, self.limit = path, source, limit
        self.count = 0
        self._out: IO[bytes] | None = None

    def add(self, block: Chunk, error: Exception) -> None:
        line = block.first_line + _error_line(error, block)
        what = _describe(error)
        if self.limit == 0:
            raise InputError(
                f"{self.source}: line {line}: malformed {block.format}: {what}; fix the "
                "line, or pass --max-rejects N to set up to N malformed pieces aside"
            )
        self.count += 1
        if self._out is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._out = self.path.open("wb")
        record = {"source": str(self.source), "line": line, "error": what,
                  "snippet": block.body[:SNIPPET]}  # fmt: skip
        self._out.write(msgspec.json.encode(record) + b"\n")
        if self.limit is not None and self.count > self.limit:
            raise TooManyRejectsError(
                f"{self.count} malformed pieces of RDF, more than --max-rejects {self.limit} "
                f"(the last at {self.source}: line {line}); see {self.path}"
            )

    def close(self) -> None:
        if self._out is not None:
            self._out.close()


def _error_line(error: Exception, block: Chunk) -> int:
    """The line of ``block``'s body (0-based) that rdflib complained about, if it says."""
    lines = getattr(error, "lines", None)  # rdflib's Turtle BadSyntax: newlines before it
    if isinstance(lines, int):
        return max(0, lines - block.header_lines)
    get_line = getattr(error, "getLineNumber", None)  # RDF/XML: a SAX error
    if callable(get_line):
        return max(0, int(get_line()) - 1)
    return 0


def _describe(error: Exception) -> str:
    text = " ".join(str(error).split())
    return (text[:160] + "…") if len(text) > 160 else text or type(error).__name__


def _triples(chunk: Chunk, rejects: _Rejects) -> list[Triple]:
    """The chunk's triples; a chunk that does not parse is parsed piece by piece, the
    malformed pieces set aside."""
    try:
        return parse_chunk(chunk)
    except Exception:  # rdflib raises many kinds (BadSyntax, ParseError, SAX, ValueError)
        pass
    triples: list[Triple] = []
    for block in split_blocks(chunk):
        try:
            triples.extend(parse_chunk(block))
        except Exception as exc:
            rejects.add(block, exc)
    return triples


def _store_datatypes(layout: StoreLayout) -> dict[str, str]:
    """Property datatypes the store's snapshots record (for files that do not declare them)."""
    if not layout.published_names():
        return {}
    with connect() as connection:
        return property_datatypes(connection, layout)


def convert_rdf(
    source: SourceStream,
    fmt: str,
    out: IO[bytes],
    builder: EntityBuilder,
    rejects: _Rejects,
    chunk_bytes: int = DEFAULT_CHUNK_BYTES,
    progress: Progress | None = None,
) -> int:
    """Write the entities of the RDF ``source`` to ``out`` as a JSON dump; return how many."""
    progress = progress or NullProgress()
    written = 0
    out.write(b"[\n")

    def write(docs: Any) -> None:
        nonlocal written
        for doc in docs:
            out.write((b",\n" if written else b"") + msgspec.json.encode(doc))
            written += 1

    for chunk in rdf_chunks(source, source.path, fmt, chunk_bytes):
        try:
            write(builder.add_triples(_triples(chunk, rejects)))
        except NotGroupedError as exc:
            last = chunk.first_line + chunk.body.count("\n")
            raise InputError(
                f"{source.path}: lines {chunk.first_line}-{last}:"
                f" entity {exc.qid} again after other entities: the file is not grouped by "
                "entity; pass --any-order (holds the whole file in memory) or sort it"
            ) from exc
        counts = builder.stats.counts
        progress.update(source.raw.position, counts["entities"], counts["statements"])
    write(builder.finish())  # the last entity is complete only now: the totals count it
    totals = builder.stats.counts
    progress.update(source.raw.position, totals["entities"], totals["statements"])
    out.write(b"\n]\n")
    return written


def _source_record(path: Path, fmt: str) -> dict[str, Any]:
    stat = path.stat()
    return {"path": str(path), "size": stat.st_size, "mtime_ns": stat.st_mtime_ns, "format": fmt}


def _convert(
    request: RdfIngestRequest, fmt: str, target: Path, rejects: _Rejects, progress: Progress,
    datatypes: dict[str, str],
) -> RdfStats:  # fmt: skip
    """Convert the RDF file into the JSON dump ``target`` (written whole or not at all)."""
    builder = EntityBuilder(datatypes, grouped=request.grouped)
    tmp = target.with_name(f".{target.name}.tmp-{os.getpid()}")
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        with open_source(request.path, threads=1) as source, tmp.open("wb") as raw:
            progress.begin(f"reading {request.path.name}", source.size)
            with zstandard.ZstdCompressor(level=3).stream_writer(raw, closefd=False) as out:
                written = convert_rdf(
                    source, fmt, out, builder, rejects, request.chunk_bytes, progress
                )
        if written == 0:
            raise InputError(
                f"{request.path}: no Wikibase entity found in this {fmt} file; check that it "
                "is Wikibase RDF (wd:Q… entities, p:/ps: statements)"
            )
        tmp.replace(target)
    finally:
        progress.end()
        tmp.unlink(missing_ok=True)
    builder.stats.counts["node_cache_dropped"] = builder.cache.dropped
    return builder.stats


def ingest_rdf(request: RdfIngestRequest, progress: Progress | None = None) -> RdfIngestResult:
    """Convert the RDF file to a JSON dump and publish it as a snapshot (a no-op when the
    snapshot was already built from this very file)."""
    progress = progress or NullProgress()
    path = request.path.expanduser().resolve()
    request = dataclasses.replace(request, path=path)
    check_input_file(path, "an RDF file (.ttl, .nt, .nq, .rdf, compressed or not)")
    fmt = rdf_format(path, request.format)
    day, _ = resolve_date(path, request.date)
    name = check_snapshot_name(request.snapshot or f"rdf-{day:%Y%m%d}")
    layout = StoreLayout.resolve(request.store)
    layout.ensure()
    folder = layout.root / "rdf"
    target, record_file = folder / f"{name}.json.zst", folder / f"{name}.rdf.json"
    rejects_path = folder / f"{name}.rejects.jsonl"
    record = _source_record(path, fmt)
    known = msgspec.json.decode(record_file.read_bytes()) if record_file.is_file() else {}
    converted = known.get("source") == record and target.is_file()
    if (layout.snapshot_dir(name) / "manifest.json").is_file() and not converted:
        raise StoreError(
            f"snapshot {name!r} already exists and was not built from {path}; remove it "
            f"with 'kgdiff snapshots rm {name}' or choose another --snapshot"
        )
    if converted:  # published, or converted by a run that stopped in the JSON ingest
        coverage = request.coverage or known["coverage"]
        counts, count = known["counts"], known["rejects"]
    else:
        record_file.unlink(missing_ok=True)
        rejects_path.unlink(missing_ok=True)
        rejects = _Rejects(rejects_path, path, request.max_rejects)
        try:
            stats = _convert(request, fmt, target, rejects, progress, _store_datatypes(layout))
        finally:
            rejects.close()
        coverage = request.coverage or (FULL if stats.is_dump else SUBSET)
        counts, count = dict(stats.counts), rejects.count
        data = {"source": record, "coverage": coverage, "counts": counts, "rejects": count}
        record_file.write_bytes(msgspec.json.encode(data))
    ingest = ingest_wikidata(
        IngestRequest(path=target, snapshot=name, date=day.isoformat(), store=layout.root,
                      workers=1, coverage=coverage),
        Retitled(progress, f"building snapshot {name} from the converted entities"),
    )  # fmt: skip
    return RdfIngestResult(
        ingest, target, counts, count, rejects_path if rejects_path.is_file() else None
    )
