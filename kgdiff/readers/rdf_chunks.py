"""Wikibase RDF files cut into chunks of whole subjects, for rdflib to parse one at a time.

A file of any size is read as a stream (plain, ``.gz``, ``.bz2`` or ``.zst``: the caller
opens it with :func:`kgdiff.ingest.sources.open_source`) and cut into chunks of about
``chunk_bytes`` of text, each a complete document of its format:

* N-Triples and N-Quads are line-based: a chunk ends at a line break, never between two lines
  of the same subject (so a sitelink's or a statement's triples stay together).
* Turtle: every ``@prefix`` / ``@base`` / ``PREFIX`` / ``BASE`` line seen so far is carried
  into each chunk's header; a chunk ends after a statement's closing ``.`` when the next line
  starts a new subject at column 0 (Wikibase and rdflib indent continuation lines). Lines
  inside a long string (``\"\"\"…\"\"\"``) are never cut.
* RDF/XML has no such cut points: the whole file is one chunk, refused past
  :data:`XML_LIMIT_BYTES` (convert it to N-Triples first), or when it declares an external
  entity (:mod:`kgdiff.readers.xml_entities`).

Each chunk knows the file line its body starts at, so a parse error names the file's line.
Blank node labels are local to a chunk (a ``_:b`` in two chunks is two nodes): Wikibase RDF
uses them only for unknown values, where the node's identity carries nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from kgdiff.errors import InputError, UsageError
from kgdiff.readers.streams import ByteStream
from kgdiff.readers.xml_entities import refuse_external_entities

TURTLE = "turtle"
NTRIPLES = "nt"
NQUADS = "nquads"
RDFXML = "xml"
FORMATS = (TURTLE, NTRIPLES, NQUADS, RDFXML)
_SUFFIXES = {
    ".ttl": TURTLE,
    ".turtle": TURTLE,
    ".nt": NTRIPLES,
    ".ntriples": NTRIPLES,
    ".nq": NQUADS,
    ".nquads": NQUADS,
    ".rdf": RDFXML,
    ".xml": RDFXML,
    ".owl": RDFXML,
}
_COMPRESSED = (".gz", ".bz2", ".zst")
DEFAULT_CHUNK_BYTES = 4 << 20
XML_LIMIT_BYTES = 256 << 20
"""RDF/XML is parsed whole: larger files are refused (rdflib holds ~1 KB per triple)."""
READ_BYTES = 1 << 20
_DIRECTIVE = re.compile(rb"(@prefix|@base|prefix|base)\s", re.IGNORECASE)


def rdf_format(path: Path, given: str | None = None) -> str:
    """The RDF syntax of ``path`` (``turtle``, ``nt``, ``nquads``, ``xml``): ``given``, else
    from the name (``.ttl``, ``.nt``, ``.nq``, ``.rdf``/``.xml``/``.owl``, compressed or not)."""
    if given is not None:
        if given not in FORMATS:
            raise UsageError(f"--format {given!r} is not one of {', '.join(FORMATS)}")
        return given
    name = path.name.lower()
    for suffix in _COMPRESSED:
        name = name.removesuffix(suffix)
    found = _SUFFIXES.get(Path(name).suffix)
    if found is None:
        raise UsageError(
            f"{path.name}: cannot tell the RDF syntax from the name; pass --format "
            f"({', '.join(FORMATS)})"
        )
    return found


@dataclass(frozen=True)
class Chunk:
    """A parseable piece of the file: ``header`` (Turtle prefixes) then ``body``, which
    starts at line ``first_line`` (1-based) of the file."""

    header: str
    body: str
    first_line: int
    format: str

    @property
    def text(self) -> str:
        """What rdflib parses."""
        return self.header + self.body

    @property
    def header_lines(self) -> int:
        """Lines of the header, to turn a line of :attr:`text` into a line of the file."""
        return self.header.count("\n")


def _lines(stream: ByteStream) -> Iterator[bytes]:
    """The lines of a byte stream, each with its ``\\n`` (the last one maybe without)."""
    rest = b""
    while True:
        block = stream.read(READ_BYTES)
        if not block:
            break
        pieces = (rest + block).split(b"\n")
        rest = pieces.pop()
        for piece in pieces:
            yield piece + b"\n"
    if rest:
        yield rest


def _decode(lines: list[bytes], path: Path, first_line: int) -> str:
    try:
        return b"".join(lines).decode("utf-8")
    except UnicodeDecodeError:
        for number, line in enumerate(lines, first_line):
            try:
                line.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise InputError(
                    f"{path}: line {number}: not UTF-8 ({exc.reason}); RDF files are UTF-8"
                ) from exc
        raise


def _subject(line: bytes) -> bytes:
    """The subject term of an N-Triples / N-Quads line (IRIs and labels hold no blanks)."""
    return line.split(None, 1)[0] if line.strip() else b""


def _line_chunks(stream: ByteStream, path: Path, fmt: str, chunk_bytes: int) -> Iterator[Chunk]:
    lines: list[bytes] = []
    size, first, last_subject = 0, 1, b""
    for number, line in enumerate(_lines(stream), 1):
        subject = _subject(line)
        if size >= chunk_bytes and subject and subject != last_subject:
            yield Chunk("", _decode(lines, path, first), first, fmt)
            lines, size, first = [], 0, number
        lines.append(line)
        size += len(line)
        if subject and not line.lstrip().startswith(b"#"):
            last_subject = subject
    if lines:
        yield Chunk("", _decode(lines, path, first), first, fmt)


def _turtle_chunks(stream: ByteStream, path: Path, chunk_bytes: int) -> Iterator[Chunk]:
    header: list[bytes] = []
    lines: list[bytes] = []
    size, first = 0, 1
    ended = False  # the last significant line closed a statement
    in_long = False  # inside a \"\"\" or ''' string
    for number, line in enumerate(_lines(stream), 1):
        starts_subject = (
            not in_long and line[:1] not in (b" ", b"\t", b"\n", b"\r", b"#", b"") and ended
        )
        if starts_subject and size >= chunk_bytes:
            yield Chunk(_decode(header, path, 1), _decode(lines, path, first), first, TURTLE)
            lines, size, first = [], 0, number
        if not in_long and line[:1] in (b"@", b"P", b"p", b"B", b"b") and _DIRECTIVE.match(line):
            header.append(line if line.endswith(b"\n") else line + b"\n")
            lines.append(b"\n")  # keeps the body's line numbers
            ended = True
            continue
        lines.append(line)
        size += len(line)
        if (line.count(b'"""') + line.count(b"'''")) % 2:
            in_long = not in_long
        stripped = line.strip()
        if not in_long and stripped and not stripped.startswith(b"#"):
            ended = stripped.endswith(b".")
    if lines:
        yield Chunk(_decode(header, path, 1), _decode(lines, path, first), first, TURTLE)


def _whole(stream: ByteStream, path: Path) -> Iterator[Chunk]:
    data = stream.read(XML_LIMIT_BYTES + 1)
    if len(data) > XML_LIMIT_BYTES:
        raise UsageError(
            f"{path}: RDF/XML is parsed whole and this file is larger than "
            f"{XML_LIMIT_BYTES >> 20} MB; convert it to N-Triples first (e.g. rdflib, riot)"
        )
    refuse_external_entities(data, path, "RDF/XML")
    yield Chunk("", _decode([data], path, 1), 1, RDFXML)


def rdf_chunks(
    stream: ByteStream, path: Path, fmt: str, chunk_bytes: int = DEFAULT_CHUNK_BYTES
) -> Iterator[Chunk]:
    """The chunks of an RDF stream of format ``fmt`` (see the module docstring)."""
    if fmt in (NTRIPLES, NQUADS):
        return _line_chunks(stream, path, fmt, chunk_bytes)
    if fmt == TURTLE:
        return _turtle_chunks(stream, path, chunk_bytes)
    return _whole(stream, path)


def split_blocks(chunk: Chunk) -> Iterator[Chunk]:
    """The chunk cut into its smallest parseable pieces (a line, a Turtle statement), each
    with the chunk's header: for finding and setting aside the malformed ones."""
    lines = chunk.body.splitlines(keepends=True)
    if chunk.format in (NTRIPLES, NQUADS):
        for offset, line in enumerate(lines):
            if line.strip() and not line.lstrip().startswith("#"):
                yield Chunk("", line, chunk.first_line + offset, chunk.format)
        return
    if chunk.format != TURTLE:
        yield chunk
        return
    block: list[str] = []
    start, ended = 0, False
    for offset, line in enumerate(lines):
        if block and ended and line[:1] not in (" ", "\t", "\n", "\r", "#", ""):
            yield Chunk(chunk.header, "".join(block), chunk.first_line + start, TURTLE)
            block, start = [], offset
        if not block:
            start = offset
        block.append(line)
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            ended = stripped.endswith(".")
    if any(line.strip() for line in block):
        yield Chunk(chunk.header, "".join(block), chunk.first_line + start, TURTLE)
