"""The text contents of MediaWiki XML dumps, taken out before lxml parses them
(kgdiff.readers.xml_texts): the parser sees the markup only, the reader decodes the texts it
keeps, and every page reads as lxml alone reads it."""

from __future__ import annotations

import bz2
import io
import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from lxml import etree

import kgdiff.readers.xml_texts as xml_texts
from kgdiff.readers.wikidata_xml import iter_entity_pages
from kgdiff.readers.xml_stream import XmlDumpError
from kgdiff.readers.xml_texts import CUT_ATTRIBUTE, TextCutter, unescape
from tests.paths import DATA, SAMPLES

DAILY = DATA / "sample-daily-dump-20140220.xml"
HISTORY = SAMPLES / "testDump_xml_2013-12.xml.bz2"


def parser_text(content: bytes) -> bytes:
    """What lxml makes of ``content`` as an element's content."""
    return (etree.fromstring(b"<t>" + content + b"</t>").text or "").encode()


def mediawiki_escape(text: str) -> bytes:
    """``text`` as MediaWiki writes it in ``<text>`` (htmlspecialchars)."""
    for char, entity in (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ('"', "&quot;")):
        text = text.replace(char, entity)
    return text.replace("'", "&#039;").encode()


def cut_all(data: bytes, size: int = 32768) -> tuple[bytes, TextCutter]:
    cutter = TextCutter(io.BytesIO(data))
    parts = []
    while part := cutter.read(size):
        parts.append(part)
    return b"".join(parts), cutter


@pytest.fixture(params=["native", "python"])
def decoder(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Both decoders: the extension's and the Python one (KGDIFF_NATIVE=0)."""
    if request.param == "python":
        monkeypatch.setenv("KGDIFF_NATIVE", "0")
    elif xml_texts._NATIVE is None:
        pytest.skip("the native extension is not built with xml_unescape")
    return str(request.param)


CONTENTS = [
    b"",
    b"plain",
    b"{&quot;a&quot;:&quot;x &amp;lt; &lt;&gt;&apos;&quot;}",
    b"&amp;quot; stays &amp;quot;",
    "Zürich &amp; 東京 &quot;".encode(),
    b"line\none\n\nlines",
    b"a&#13;b &#x41;",  # character references: lxml decodes them
    b"a\r\nb\rc",  # carriage returns: XML makes them line feeds
    b"x<![CDATA[<&>]]>y",
]


@pytest.mark.parametrize("content", CONTENTS)
def test_unescape_gives_what_lxml_gives(content: bytes, decoder: str) -> None:
    assert unescape(content) == parser_text(content)


XML_CHARACTERS = st.characters(blacklist_categories=("Cs", "Cc", "Cn"), whitelist_characters="\n\t")


@given(st.text(XML_CHARACTERS))
def test_any_text_as_mediawiki_writes_it_comes_back(text: str) -> None:
    escaped = mediawiki_escape(text)
    assert unescape(escaped) == text.encode() == parser_text(escaped)


def test_an_undefined_entity_is_a_dump_error(decoder: str) -> None:
    with pytest.raises(XmlDumpError, match="not well-formed"):
        unescape(b"a &nbsp; b")


@pytest.mark.parametrize("size", [7, 100, 32768])
def test_the_parser_gets_the_markup_and_every_line(size: int) -> None:
    data = DAILY.read_bytes()
    texts: list[bytes] = []

    def marked(match: re.Match[bytes]) -> bytes:
        texts.append(match.group(2))
        mark = b' %s="%d">' % (CUT_ATTRIBUTE.encode(), len(texts) - 1)
        return match.group(1) + mark + b"\n" * match.group(2).count(b"\n") + b"</text>"

    expected = re.sub(rb"(<text[^>]*?[^/])>(.*?)</text>", marked, data, flags=re.S)
    skeleton, cutter = cut_all(data, size)
    assert skeleton == expected and len(texts) == 7
    assert [cutter.take(str(number)) for number in range(len(texts))] == texts
    assert cutter.consumed == len(data)


def test_a_page_tag_lies_in_the_read_that_starts_at_chunk_start() -> None:
    data = DAILY.read_bytes()
    cutter = TextCutter(io.BytesIO(data))
    pages = 0
    while part := cutter.read(4096):
        if b"<page>" in part:
            at = data.index(b"<page>", cutter.chunk_start)
            assert cutter.chunk_start <= at < cutter.chunk_start + 4096
            pages += 1
    assert pages == data.count(b"<page>")


def utf16(data: bytes) -> bytes:
    declared = re.sub(rb"^<\?xml[^>]*\?>\s*", b"", data)
    return ('<?xml version="1.0" encoding="UTF-16"?>\n' + declared.decode()).encode("utf-16")


def history_head() -> bytes:
    """The first pages of a real history dump (legacy and current texts), closed."""
    data = bz2.decompress(HISTORY.read_bytes())
    return data[: data.index(b"</page>", 3_000_000) + len(b"</page>")] + b"\n</mediawiki>\n"


@pytest.mark.parametrize("name", ["daily", "history"])
def test_pages_read_as_lxml_alone_reads_them(name: str) -> None:
    data = DAILY.read_bytes() if name == "daily" else history_head()
    cut = [page_fields(page) for page in iter_entity_pages(io.BytesIO(data))]
    # a stream in UTF-16 goes to lxml untouched: the reference
    whole = [page_fields(page) for page in iter_entity_pages(io.BytesIO(utf16(data)))]
    assert cut == whole and cut


def page_fields(page: Any) -> tuple[Any, ...]:
    return (page.title, page.ns, page.page_id, page.revision_id, page.timestamp, page.text)


def test_a_stream_cut_inside_a_text_is_reported_truncated() -> None:
    data = DAILY.read_bytes()
    inside = data.index(b"&quot;claims&quot;")
    with pytest.raises(XmlDumpError, match="corrupt or truncated"):
        list(iter_entity_pages(io.BytesIO(data[:inside])))
