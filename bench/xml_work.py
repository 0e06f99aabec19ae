"""What one worker of the XML benchmark does: read a range of pages of a MediaWiki XML file
and turn it into text one way (a *mode*), then tell what it did and what it cost.

A range starts at a ``<page>`` and ends before the next range's ``<page>``; the worker reads
the file's header, its range and a closing ``</mediawiki>`` as one well-formed document, so
N workers can split a file by byte ranges without any of them reading the others' bytes.
"""

from __future__ import annotations

import importlib.util
import os
import resource
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from lxml import etree

from kgdiff.readers.mediawiki_xml import iter_revisions
from kgdiff.readers.streams import ByteStream
from kgdiff.text.exact import exact_plain_text
from kgdiff.text.fast import plain_text
from kgdiff.text.sections import lead_text, lead_wikitext, sentences

BLOCK = 1 << 20
FOOTER = b"</mediawiki>\n"


@dataclass(frozen=True)
class Work:
    """One worker's task: the pages in ``[start, end)`` of ``path``, converted by ``mode``."""

    path: str
    start: int
    end: int
    mode: str


@dataclass(frozen=True)
class Done:
    """What a worker did: input bytes, revisions, texts converted, characters and sentences
    out, its own wall and CPU seconds, its peak RSS and its process id."""

    bytes: int
    revisions: int
    texts: int
    chars: int
    sentences: int
    seconds: float
    cpu_seconds: float
    peak_rss: int
    pid: int


def _next_page(handle: BinaryIO, offset: int, limit: int) -> int:
    """The offset of the first ``<page>`` at or after ``offset`` (``limit`` if none)."""
    handle.seek(offset)
    carried = b""
    while offset < limit and (block := handle.read(BLOCK)):
        found = (carried + block).find(b"<page>")
        if found >= 0:
            return min(offset - len(carried) + found, limit)
        carried = block[-5:]
        offset += len(block)
    return limit


def page_ranges(path: str, parts: int) -> list[tuple[int, int]]:
    """Split the pages of ``path`` into ``parts`` byte ranges of about the same size."""
    size = Path(path).stat().st_size
    with Path(path).open("rb") as handle:
        handle.seek(max(0, size - BLOCK))
        end = max(0, size - BLOCK) + handle.read().rindex(b"</mediawiki>")
        first = _next_page(handle, 0, end)
        cuts = [_next_page(handle, first + (end - first) * i // parts, end) for i in range(parts)]
    return list(zip(cuts, [*cuts[1:], end], strict=True))


class PageRange:
    """A readable stream: the file's header, the bytes of one range, the closing tag."""

    def __init__(self, path: str, start: int, end: int) -> None:
        self._handle = Path(path).open("rb", buffering=0)  # noqa: SIM115 - see close()
        header_size = _next_page(self._handle, 0, start)
        self._handle.seek(0)
        self._header = self._handle.read(header_size)
        self._handle.seek(start)
        self._left = end - start
        self._tail = FOOTER

    def read(self, size: int = -1, /) -> bytes:
        """Up to ``size`` bytes (all that is left when negative)."""
        size = BLOCK if size < 0 else size
        if self._header:
            out, self._header = self._header[:size], self._header[size:]
            return out
        if self._left > 0:
            out = self._handle.read(min(size, self._left))
            self._left -= len(out)
            return out
        out, self._tail = self._tail[:size], self._tail[size:]
        return out

    def close(self) -> None:
        """Close the file."""
        self._handle.close()


Tally = tuple[int, int, int, int]
"""(revisions, texts converted, characters out, sentences out)."""


def _lxml_only(stream: ByteStream) -> Tally:
    revisions = 0
    tags = ("{*}revision", "{*}page")
    for _event, elem in etree.iterparse(stream, events=("end",), tag=tags, huge_tree=True):
        if elem.tag.endswith("}revision"):
            revisions += 1
            continue
        elem.clear()
        while elem.getprevious() is not None:
            del elem.getparent()[0]
    return revisions, 0, 0, 0


def _mwxml_only(stream: ByteStream) -> Tally:
    import mwxml  # imported here: optional, and only this mode pays for its import

    revisions = chars = 0
    for page in mwxml.Dump.from_file(stream):
        for revision in page:
            revisions += 1
            chars += len(revision.text or "")
    return revisions, 0, chars, 0


def _texts(stream: ByteStream) -> Iterator[str | None]:
    for revision in iter_revisions(stream):
        yield revision.text


def _reader_only(stream: ByteStream) -> Tally:
    revisions = chars = 0
    for text in _texts(stream):
        revisions += 1
        chars += len(text or "")
    return revisions, 0, chars, 0


def _converting(convert: Callable[[str], tuple[int, int]]) -> Callable[[ByteStream], Tally]:
    """A mode that converts the text of every revision that has one."""

    def mode(stream: ByteStream) -> Tally:
        revisions = texts = chars = found = 0
        for text in _texts(stream):
            revisions += 1
            if text:
                texts += 1
                length, count = convert(text)
                chars += length
                found += count
        return revisions, texts, chars, found

    return mode


def _whole(text: str) -> tuple[int, int]:
    plain = plain_text(text)
    return len(plain), len(sentences(plain))


MODES: dict[str, Callable[[ByteStream], Tally]] = {
    "lxml": _lxml_only,
    "mwxml": _mwxml_only,
    "reader": _reader_only,
    "lead": _converting(lambda text: (len(lead_text(text)), 0)),
    "whole": _converting(_whole),
    "exact-lead": _converting(lambda text: (len(exact_plain_text(lead_wikitext(text))), 0)),
}
"""How a worker turns its pages into text, by name."""


def available(mode: str) -> bool:
    """Whether ``mode`` can run here (mwxml is optional)."""
    return mode != "mwxml" or importlib.util.find_spec("mwxml") is not None


def run(work: Work) -> Done:
    """Do ``work`` and measure it (its own wall and CPU time, peak RSS)."""
    stream = PageRange(work.path, work.start, work.end)
    started, cpu = time.perf_counter(), time.process_time()
    try:
        revisions, texts, chars, found = MODES[work.mode](stream)
    finally:
        stream.close()
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # KiB on Linux
    size = work.end - work.start
    return Done(size, revisions, texts, chars, found, seconds, cpu, peak, os.getpid())


def ready(_: int) -> int:
    """A no-op a pool runs first, so its workers are started before anything is timed."""
    time.sleep(0.2)
    return os.getpid()
