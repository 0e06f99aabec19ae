"""Helpers shared by the MediaWiki XML readers: their error, a position-tracking input,
element access that ignores namespace URIs, and dropping finished elements so memory
stays flat."""

from __future__ import annotations

import re
from dataclasses import dataclass

from lxml import etree

from kgdiff.readers.streams import ByteStream

_POSITION = re.compile(r",? line \d+, column \d+$")


class XmlDumpError(ValueError):
    """The XML stream is malformed (corrupt or truncated) or misses a required element."""


def syntax_error(exc: etree.XMLSyntaxError, consumed: int) -> XmlDumpError:
    """The error for malformed XML: line, column and how far the stream was read."""
    line, column = exc.position
    return XmlDumpError(
        f"XML dump is corrupt or truncated at line {line}, column {column} (stream byte "
        f"~{consumed}): {_POSITION.sub('', exc.msg)}"
    )


@dataclass(slots=True)
class CountingReader:
    """File-like wrapper that tells how far the parser has read."""

    stream: ByteStream
    chunk_start: int = 0
    consumed: int = 0

    def read(self, size: int = -1) -> bytes:
        """Read like the wrapped stream, remembering where this read started."""
        data = self.stream.read(size)
        self.chunk_start = self.consumed
        self.consumed += len(data)
        return data


_LOCAL_NAMES: dict[object, str] = {}
"""The local name of each tag met so far: a dump uses a few dozen, and a dict lookup per
element costs a third of splitting its tag."""
_MAX_NAMES = 1024


def local(elem: etree._Element) -> str:
    """The tag name without its namespace URI ('' for comments and processing instructions)."""
    tag = elem.tag
    name = _LOCAL_NAMES.get(tag)
    if name is None:
        name = tag.rpartition("}")[2] if isinstance(tag, str) else ""
        if len(_LOCAL_NAMES) < _MAX_NAMES:
            _LOCAL_NAMES[tag] = name
    return name


def children(elem: etree._Element) -> dict[str, etree._Element]:
    """Child elements by local name (the last one wins)."""
    return {local(child): child for child in elem}


def text_of(elem: etree._Element | None) -> str:
    """The stripped text of an element, '' when it is missing or empty."""
    return "" if elem is None or elem.text is None else elem.text.strip()


def drop(elem: etree._Element, *, keep_header: bool) -> None:
    """Clear a finished element and its earlier siblings (a page's header stays if asked)."""
    elem.clear()
    parent = elem.getparent()
    while parent is not None and (previous := elem.getprevious()) is not None:
        if keep_header and local(previous) != "revision":
            break
        parent.remove(previous)


def number_of(elem: etree._Element | None) -> int | None:
    """The element's text as a non-negative integer; None when missing or not one."""
    text = text_of(elem)
    return int(text) if text.isascii() and text.isdigit() else None


def required_number(elem: etree._Element | None, what: str, where: etree._Element) -> int:
    """:func:`number_of`, or :class:`XmlDumpError` naming ``what`` and the line of ``where``."""
    number = number_of(elem)
    if number is None:
        raise XmlDumpError(f"{what} missing or not a number at line {where.sourceline}")
    return number
