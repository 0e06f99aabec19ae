"""Random access into multistream ``.bz2`` page dumps through their index.

A multistream dump is many bz2 streams back to back: the first holds the export header
(``<mediawiki>`` and ``<siteinfo>``), each of the others about a hundred ``<page>``
elements, the last one the closing tag. Its index (``…-multistream-index.txt.bz2``) has
one line ``offset:page_id:title`` per page, where ``offset`` is the byte position of the
stream holding the page. Reading one stream costs one seek and ~100 pages of work instead
of decompressing the dump up to the page.
"""

from __future__ import annotations

import bz2
import io
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from kgdiff.readers.mediawiki_xml import Revision, iter_revisions
from kgdiff.readers.streams import ByteStream
from kgdiff.readers.xml_stream import XmlDumpError

READ_BLOCK = 1 << 16


class MultistreamError(ValueError):
    """A malformed index line, or an offset where no bz2 stream starts."""


@dataclass(frozen=True, slots=True)
class IndexEntry:
    """One line of a multistream index."""

    offset: int
    page_id: int
    title: str


def _lines(stream: ByteStream) -> Iterator[bytes]:
    pending = b""
    while block := stream.read(READ_BLOCK):
        *complete, pending = (pending + block).split(b"\n")
        yield from complete
    if pending:
        yield pending


def read_index(stream: ByteStream) -> Iterator[IndexEntry]:
    """The entries of a decompressed index, in file order (titles may contain colons)."""
    for number, raw in enumerate(_lines(stream), start=1):
        line = raw.decode("utf-8", errors="replace").rstrip("\r")
        if not line:
            continue
        offset, _, rest = line.partition(":")
        page_id, colon, title = rest.partition(":")
        if not (colon and offset.isdigit() and page_id.isdigit() and title):
            raise MultistreamError(
                f"index line {number}: {line[:80]!r} is not offset:page_id:title"
            )
        yield IndexEntry(int(offset), int(page_id), title)


def _one_stream(handle: io.BufferedReader, offset: int, path: Path) -> bytes:
    handle.seek(offset)
    decompressor = bz2.BZ2Decompressor()
    out: list[bytes] = []
    while not decompressor.eof:
        block = handle.read(READ_BLOCK)
        if not block:
            raise MultistreamError(f"{path}: offset {offset}: the bz2 stream is truncated")
        try:
            out.append(decompressor.decompress(block))
        except OSError as exc:
            raise MultistreamError(
                f"{path}: offset {offset}: no bz2 stream starts here ({exc}); "
                "is the index from another dump?"
            ) from exc
    return b"".join(out)


def _as_document(fragment: bytes) -> bytes:
    """Pages of one stream wrapped in a root element (the first stream has its own)."""
    text = fragment.strip()
    if text.startswith(b"<?xml") or text.startswith(b"<mediawiki"):
        return text if text.rstrip().endswith(b"</mediawiki>") else text + b"</mediawiki>"
    return b"<mediawiki>" + text.removesuffix(b"</mediawiki>") + b"</mediawiki>"


def revisions_at(path: Path, offset: int) -> list[Revision]:
    """Every revision in the stream starting at ``offset`` of a multistream dump."""
    with path.open("rb") as handle:
        fragment = _one_stream(handle, offset, path)
    try:
        return list(iter_revisions(io.BytesIO(_as_document(fragment))))
    except XmlDumpError as exc:
        raise MultistreamError(f"{path}: offset {offset}: {exc}") from exc


def revisions_of(path: Path, entries: Iterable[IndexEntry]) -> Iterator[Revision]:
    """The revisions of the pages named by ``entries``, reading each needed stream once."""
    wanted: dict[int, set[int]] = {}
    for entry in entries:
        wanted.setdefault(entry.offset, set()).add(entry.page_id)
    for offset in sorted(wanted):
        for revision in revisions_at(path, offset):
            if revision.page.page_id in wanted[offset]:
                yield revision
