"""Take the contents of MediaWiki ``<text>`` elements out of an XML stream before lxml parses it.

A revision's ``<text>`` holds the entity's JSON with every quote written ``&quot;``; lxml
decoded every revision's text, kept or not, and that was most of the time of reading a daily
incremental dump (3.0 CPU-seconds for 150 MB of the bench's). :class:`TextCutter` gives the
parser the XML with each text's content taken out (its line breaks kept, so the parser's line
numbers stay those of the file) and the element marked ``kgdiff-cut="N"``; the reader asks
:meth:`TextCutter.take` for the content of the revision it keeps and decodes only that one
(:func:`unescape`: the five predefined entities, by the native extension's ``xml_unescape``
when it is built, else by ``bytes.replace``): 1.5 CPU-seconds for the same 150 MB. A
content the fast path cannot decode exactly (character references, CDATA, carriage returns)
is decoded by lxml. A stream not in UTF-8 (so its XML declaration or byte order mark says)
goes to the parser untouched.
"""

from __future__ import annotations

import importlib
import os
import re
from collections.abc import Callable

from lxml import etree

from kgdiff.readers.streams import ByteStream
from kgdiff.readers.xml_stream import XmlDumpError

CUT_ATTRIBUTE = "kgdiff-cut"
_OPEN = b"<text"
_CLOSE = b"</text>"
_DECLARATION = re.compile(rb"""^\s*<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._-]+)["']""")
_UTF8_NAMES = frozenset([b"utf-8", b"utf8", b"us-ascii", b"ascii"])
_ENTITIES = ((b"&quot;", b'"'), (b"&lt;", b"<"), (b"&gt;", b">"), (b"&apos;", b"'"))
_AMP = b"&amp;"
HEAD_BYTES = 256
"""Bytes enough to hold an XML declaration (its encoding decides whether texts are cut)."""


def _load_native() -> Callable[[bytes], bytes | None] | None:
    try:
        module = importlib.import_module("kgdiff._native")
    except ImportError:  # built without a C++ compiler: the Python path below decodes
        return None
    return getattr(module, "xml_unescape", None)  # None in a build older than this module


_NATIVE = _load_native()


def _native_unescape() -> Callable[[bytes], bytes | None] | None:
    """The extension's decoder, unless ``KGDIFF_NATIVE=0`` switches the extension off."""
    return _NATIVE if os.environ.get("KGDIFF_NATIVE", "1") != "0" else None


def unescape(content: bytes) -> bytes:
    """The character data of an XML element's raw ``content`` (no markup inside)."""
    native = _native_unescape()
    if native is not None:
        decoded = native(content)
        return _parsed(content) if decoded is None else decoded
    ampersands = content.count(b"&")
    if b"\r" in content or b"<" in content or ampersands != _predefined(content):
        return _parsed(content)
    for name, char in _ENTITIES:
        if name in content:
            content = content.replace(name, char)
    return content.replace(_AMP, b"&") if _AMP in content else content


def _predefined(content: bytes) -> int:
    """How many of ``content``'s ampersands start a predefined entity."""
    if b"&" not in content:
        return 0
    return content.count(_AMP) + sum(content.count(name) for name, _ in _ENTITIES)


def _parsed(content: bytes) -> bytes:
    """``content`` decoded by lxml (a character reference, CDATA or a carriage return)."""
    parser = etree.XMLParser(huge_tree=True, resolve_entities=False)
    try:
        text = etree.fromstring(b"<t>" + content + b"</t>", parser).text
    except etree.XMLSyntaxError as exc:
        raise XmlDumpError(f"a <text> element is not well-formed XML: {exc.msg}") from exc
    return (text or "").encode()


def utf8_document(head: bytes) -> bool:
    """Whether a document starting with ``head`` is in UTF-8 (or ASCII)."""
    if head.startswith((b"\xff\xfe", b"\xfe\xff")) or head[:4].count(b"\x00") >= 2:
        return False
    declared = _DECLARATION.match(head.removeprefix(b"\xef\xbb\xbf"))
    return declared is None or declared.group(1).lower() in _UTF8_NAMES


class TextCutter:
    """A file-like view of ``stream`` whose ``<text>`` contents are held back (see the
    module docstring). ``chunk_start`` and ``consumed`` count the input's bytes: where the
    latest read began (its first byte that reached the parser) and how far it has gone."""

    def __init__(self, stream: ByteStream) -> None:
        self.stream = stream
        self.chunk_start = 0
        self.consumed = 0
        self._data = b""
        """Input read and not yet passed on from ``_at`` on (sliced once a read, not at
        every tag: the copies of the rest cost more than the search)."""
        self._at = 0
        self._pieces: list[bytes] | None = None
        """The content read so far of the text being cut (None: outside a text)."""
        self._cut: dict[int, bytes] = {}
        self._next = 0
        self._eof = False
        self._active: bool | None = None
        """Whether texts are cut (the stream is in UTF-8); None until its head is read."""

    def take(self, mark: str | None) -> bytes | None:
        """The raw content of the element marked ``mark`` (None: not cut); contents held
        for elements before it are dropped (the parser reports elements in order)."""
        if mark is None:
            return None
        number = int(mark)
        for older in [key for key in self._cut if key < number]:
            del self._cut[older]
        return self._cut.pop(number, None)

    def read(self, size: int = -1) -> bytes:
        """The next bytes for the parser (``b""`` at the end)."""
        size = size if size > 0 else 1 << 16
        while not (self._eof and self._left == 0 and self._pieces is None):
            start = self.consumed - self._left
            if not self._eof:
                self._fill(max(1, size - self._left))
            produced = self._process()
            if produced:
                self.chunk_start = start
                return produced
        return b""

    @property
    def _left(self) -> int:
        return len(self._data) - self._at

    def _fill(self, size: int) -> None:
        data = self.stream.read(size)
        self.consumed += len(data)
        self._eof = not data
        self._data = self._data[self._at :] + data
        self._at = 0

    def _process(self) -> bytes:
        """Move what can be decided of the pending input to the output."""
        if self._active is None:
            if self._left < HEAD_BYTES and not self._eof:
                return b""  # the XML declaration may not be whole yet
            self._active = utf8_document(self._data[self._at :])
        if not self._active:
            return self._take(self._left)
        out: list[bytes] = []
        moved = True
        while moved and (self._left or self._pieces is not None):
            moved = self._in_text(out) if self._pieces is not None else self._outside(out)
        return b"".join(out)

    def _take(self, count: int) -> bytes:
        """The next ``count`` pending bytes, taken off."""
        taken = self._data[self._at : self._at + count]
        self._at += count
        return taken

    def _outside(self, out: list[bytes]) -> bool:
        """Pass markup on up to the next ``<text>``'s content; whether to go on."""
        data, at = self._data, self._at
        found = data.find(_OPEN, at)
        end = data.find(b">", found) if found >= 0 else -1
        if end < 0:  # no whole start tag pending: pass on what cannot begin one
            keep = len(data) - found if found >= 0 else len(_OPEN) - 1
            out.append(self._take(self._left if self._eof else max(0, len(data) - keep - at)))
            return False
        after = data[found + len(_OPEN) : found + len(_OPEN) + 1]
        another_tag = not after.isspace() and after not in (b">", b"/")  # <textfoo ...>
        if another_tag or data[end - 1 : end] == b"/":  # or an empty <text ... />
            out.append(self._take(found + len(_OPEN) - at))
            return True
        out.append(self._take(end - at) + b' %s="%d">' % (CUT_ATTRIBUTE.encode(), self._next))
        self._at += 1
        self._pieces = []
        return True

    def _in_text(self, out: list[bytes]) -> bool:
        """Hold back a text's content up to its end tag; whether to go on."""
        assert self._pieces is not None
        found = self._data.find(_CLOSE, self._at)
        if found < 0 and self._eof:  # cut off inside a text: the parser says where
            out.append(b"".join(self._pieces) + self._take(self._left))
            self._pieces = None
            return False
        if found < 0:
            self._pieces.append(self._take(max(0, self._left - len(_CLOSE) + 1)))
            return False
        self._pieces.append(self._take(found - self._at))
        content = b"".join(self._pieces) if len(self._pieces) > 1 else self._pieces[0]
        self._cut[self._next] = content
        self._next += 1
        self._pieces = None
        out.append(b"\n" * content.count(b"\n"))
        return True
