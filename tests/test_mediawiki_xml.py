"""The MediaWiki XML reader on every real Wikipedia/Commons sample and on generated exports.

Independent references: mwxml (a different parser, built on the standard library's
XML reader) for every field of every revision, and the figures of the samples'
manifest (pages, revisions, rev-deleted fields). Generated exports (hypothesis) cover
schema 0.3 (no <ns>) to 0.11, anonymous and deleted contributors, deleted comments and
texts, redirects and text that needs escaping.
"""

from __future__ import annotations

import bz2
import io
from typing import Any

import mwxml
import psutil
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from kgdiff.readers.mediawiki_xml import (
    MediaWikiStats,
    Revision,
    iter_revisions,
)
from kgdiff.readers.xml_stream import XmlDumpError
from tests.paths import DATA

WIKIPEDIA = DATA / "wikipedia"
# file: (pages, revisions, rev-deleted fields), as the samples' manifest states them
MANIFEST = {
    "bgwiki-latest-pages-articles-shortened.xml.bz2": (3, 3, 0),
    "enwiki-latest-pages-articles1.xml-p000000010p000030302-shortened.bz2": (206, 206, 0),
    "enwiki-table-markup.xml.bz2": (5, 5, 0),
    "article-pear-0.10.xml": (1, 1, 0),
    "article-pear.xml": (1, 4, 0),
    "article-pyrus.xml": (1, 6, 0),
    "pair-0.10.xml": (2, 4, 0),
    "commonswiki_1page_59revs_export-0.11.xml": (1, 59, 21),
    "simplewiki_2pages_33revs_export-0.11.xml": (2, 33, 11),
    "simplewiki_2pages_export-0.10_older.xml": (2, 33, 10),
}
MWXML_CANNOT_READ = {"enwiki-table-markup.xml.bz2"}  # no <siteinfo>: mwxml refuses it


def open_sample(name: str) -> io.BufferedIOBase:
    """A sample file, decompressed if it is a .bz2."""
    path = WIKIPEDIA / name
    return bz2.open(path, "rb") if name.endswith(".bz2") else path.open("rb")


def read(name: str) -> tuple[list[Revision], MediaWikiStats]:
    """Every revision of a sample, and the reader's counts."""
    stats = MediaWikiStats()
    with open_sample(name) as handle:
        return list(iter_revisions(handle, stats)), stats


def reference(name: str) -> list[dict[str, Any]]:
    """The same revisions as mwxml reads them, in kgdiff's terms."""
    rows = []
    with open_sample(name) as handle:
        for page in mwxml.Dump.from_file(handle):
            for rev in page:
                deleted = rev.deleted
                rows.append({
                    "page": (page.id, page.namespace, page.title, page.redirect),
                    "revision_id": rev.id, "parent_id": rev.parent_id,
                    "timestamp": str(rev.timestamp),
                    "user": None if rev.user is None else rev.user.text,
                    "user_id": None if rev.user is None else rev.user.id,
                    "minor": bool(rev.minor), "model": rev.model, "format": rev.format,
                    "sha1": rev.sha1, "size": rev.bytes,
                    "comment": rev.comment or None,
                    "text": rev.text or None,
                    "deleted": (bool(deleted.user), bool(deleted.comment), bool(deleted.text)),
                })  # fmt: skip
    return rows


def as_row(rev: Revision) -> dict[str, Any]:
    """A revision in the reference's shape."""
    page = rev.page
    return {
        "page": (page.page_id, page.ns, page.title, page.redirect),
        "revision_id": rev.revision_id, "parent_id": rev.parent_id, "timestamp": rev.timestamp,
        "user": rev.user, "user_id": rev.user_id, "minor": rev.minor, "model": rev.model,
        "format": rev.format, "sha1": rev.sha1, "size": rev.size, "comment": rev.comment,
        "text": rev.text, "deleted": (rev.user_deleted, rev.comment_deleted, rev.text_deleted),
    }  # fmt: skip


@pytest.mark.parametrize("name", sorted(MANIFEST))
def test_counts_match_the_manifest(name: str) -> None:
    """Pages, revisions and rev-deleted fields as the samples' manifest counts them."""
    revisions, stats = read(name)
    pages, count, deleted = MANIFEST[name]
    assert (stats.pages, stats.revisions, len(revisions)) == (pages, count, count)
    assert len({rev.page.page_id for rev in revisions}) == pages
    assert stats.deleted_users + stats.deleted_comments + stats.deleted_texts == deleted


@pytest.mark.parametrize("name", sorted(set(MANIFEST) - MWXML_CANNOT_READ))
def test_every_field_matches_mwxml(name: str) -> None:
    """Each revision equals what mwxml reads (mwxml has None where kgdiff tells an empty
    comment or text from a missing one)."""
    revisions, _ = read(name)
    expected = reference(name)
    assert len(revisions) == len(expected)
    seen: list[dict[str, Any]] = []
    for got, want in zip(map(as_row, revisions), expected, strict=True):
        got["comment"], got["text"] = got["comment"] or None, got["text"] or None
        if revisions[len(seen)].extra_slots:  # mwxml gives the main slot's sha1
            want["sha1"] = got["sha1"]
        seen.append(got)
        for key in ("size", "parent_id", "user_id"):  # -1: the dumper's "none"
            want[key] = None if want[key] == -1 else want[key]
        if want["user"] == "None" and got["user"] is None:  # <username></username>
            want["user"] = None
        page_id, ns, title, redirect = got["page"]
        got["page"] = page_id, ns, title, redirect or None  # mwxml ignores <redirect />
        assert got == want, (got["revision_id"], got["page"])


def test_utf16_export_is_decoded() -> None:
    """The bgwiki sample is UTF-16: titles and text arrive as proper Unicode."""
    revisions, _ = read("bgwiki-latest-pages-articles-shortened.xml.bz2")
    assert revisions[0].page.title == "Григориански календар"
    assert revisions[0].text is not None and "календар" in revisions[0].text


def test_schema_03_namespaces_come_from_the_title_prefix() -> None:
    """Export 0.3 has no <ns>: a page's namespace comes from <siteinfo> and its title."""
    revisions, _ = read("article-pear.xml")
    assert {(r.page.title, r.page.ns) for r in revisions} == {("Pear", 0)}
    assert revisions[0].timestamp == "2002-02-25T15:43:11Z"


def test_an_untitled_redirect_is_still_a_redirect() -> None:
    """Schema 0.3's ``<redirect />`` names no target: the page is a redirect all the same."""
    revisions, _ = read("article-pyrus.xml")
    assert {r.page.redirect for r in revisions} == {""}
    assert revisions[-1].text is not None and revisions[-1].text.startswith("#REDIRECT")
    assert {r.page.redirect for r in read("article-pear.xml")[0]} == {None}


def test_multi_content_revisions_name_their_extra_slots() -> None:
    """Commons revisions of schema 0.11 carry a mediainfo slot next to the main text."""
    revisions, _ = read("commonswiki_1page_59revs_export-0.11.xml")
    with_slots = [r for r in revisions if r.extra_slots]
    assert with_slots and {s for r in with_slots for s in r.extra_slots} == {"mediainfo"}
    assert all(r.text is None or not r.text.startswith('{"type":"mediainfo"') for r in revisions)


def test_deleted_fields_are_none_with_a_flag() -> None:
    """Suppressed contributor, comment and text: None and flagged, never ''."""
    revisions, _ = read("simplewiki_2pages_33revs_export-0.11.xml")
    gone = [r for r in revisions if r.text_deleted]
    assert gone and all(r.text is None and r.size is None for r in gone)
    assert all(r.comment is None for r in revisions if r.comment_deleted)
    assert all(r.user is None and r.user_id is None for r in revisions if r.user_deleted)


@pytest.mark.parametrize("cut", [0.3, 0.6, 0.95])
def test_truncated_export_raises_with_the_position(cut: float) -> None:
    """A cut file ends in XmlDumpError naming line, column and byte, never silently."""
    data = (WIKIPEDIA / "simplewiki_2pages_33revs_export-0.11.xml").read_bytes()
    with pytest.raises(XmlDumpError, match=r"line \d+, column \d+ \(stream byte ~\d+\)"):
        list(iter_revisions(io.BytesIO(data[: int(len(data) * cut)])))


# ----------------------------------------------------------------------------- generated


XML_TEXT = st.text(st.characters(exclude_categories=("Cs", "Cc")), max_size=40)
NAMES = XML_TEXT.map(str.strip).filter(bool)
CONTRIBUTORS = st.one_of(
    st.none(),
    st.just(("deleted", "")),
    st.tuples(st.just("ip"), st.ip_addresses().map(str)),
    st.tuples(NAMES, st.integers(1, 10**9).map(str)),
)


class Builder:
    """Writes elements of one export namespace."""

    def __init__(self, uri: str) -> None:
        self.uri = uri

    def sub(self, parent: Any, tag: str, text: str | None = None, **attrs: str) -> Any:
        """A child element with optional text and attributes."""
        elem = etree.SubElement(parent, f"{{{self.uri}}}{tag}", attrib=attrs)
        elem.text = text
        return elem


@st.composite
def exports(draw: st.DrawFn) -> tuple[bytes, list[dict[str, Any]]]:
    """An export document (schema 0.3 or 0.11) and the revisions it holds."""
    modern = draw(st.booleans())
    uri = f"http://www.mediawiki.org/xml/export-{'0.11' if modern else '0.3'}/"
    root = etree.fromstring(f'<mediawiki xmlns="{uri}"/>')
    put = Builder(uri)
    spaces = put.sub(put.sub(root, "siteinfo"), "namespaces")
    for key, name in (("0", None), ("1", "Talk"), ("10", "Template")):
        put.sub(spaces, "namespace", name, key=key)
    expected: list[dict[str, Any]] = []
    for page_id in range(1, draw(st.integers(0, 4)) + 1):
        expected += _page(draw, put, root, page_id, modern)
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8"), expected


def _page(
    draw: st.DrawFn, put: Builder, root: Any, page_id: int, modern: bool
) -> list[dict[str, Any]]:
    prefix, ns = draw(st.sampled_from([("", 0), ("Talk:", 1), ("Template:", 10)]))
    title = prefix + draw(NAMES.filter(lambda t: ":" not in t))
    page = put.sub(root, "page")
    put.sub(page, "title", title)
    if modern:
        put.sub(page, "ns", str(ns))
    put.sub(page, "id", str(page_id))
    redirect = draw(st.none() | XML_TEXT) if modern else None
    if redirect is not None:
        put.sub(page, "redirect", title=redirect)
    rows = []
    for index in range(draw(st.integers(1, 4))):
        row = _revision(draw, put, put.sub(page, "revision"), page_id * 100 + index, modern)
        rows.append({"page": (page_id, ns, title, redirect), **row})
    return rows


def _revision(
    draw: st.DrawFn, put: Builder, rev: Any, revision_id: int, modern: bool
) -> dict[str, Any]:
    first = revision_id % 100 == 0
    put.sub(rev, "id", str(revision_id))
    if not first:
        put.sub(rev, "parentid", str(revision_id - 1))
    timestamp = f"20{10 + revision_id % 100:02d}-01-01T12:00:00Z"
    put.sub(rev, "timestamp", timestamp)
    user, user_id, user_deleted = _contributor(draw(CONTRIBUTORS), put, rev)
    minor = draw(st.booleans())
    if minor:
        put.sub(rev, "minor")
    comment, comment_deleted = draw(st.none() | XML_TEXT), draw(st.booleans())
    if comment_deleted:
        put.sub(rev, "comment", deleted="deleted")
    elif comment is not None:
        put.sub(rev, "comment", comment)
    text, text_deleted = draw(XML_TEXT), draw(st.booleans())
    size = len(text.encode()) if modern and not text_deleted else None
    if text_deleted:
        put.sub(rev, "text", deleted="deleted")
    else:
        put.sub(rev, "text", text, **({"bytes": str(size)} if size is not None else {}))
    return {
        "revision_id": revision_id, "parent_id": None if first else revision_id - 1,
        "timestamp": timestamp, "user": user, "user_id": user_id, "minor": minor,
        "model": None, "format": None, "sha1": None, "size": size,
        "comment": None if comment_deleted else comment,
        "text": None if text_deleted else text,
        "deleted": (user_deleted, comment_deleted, text_deleted),
    }  # fmt: skip


def _contributor(
    drawn: tuple[str, str] | None, put: Builder, rev: Any
) -> tuple[str | None, int | None, bool]:
    """Write a drawn contributor; return (user, user id, deleted) as the reader should."""
    if drawn is None:
        return None, None, False
    kind, value = drawn
    if kind == "deleted":
        put.sub(rev, "contributor", deleted="deleted")
        return None, None, True
    who = put.sub(rev, "contributor")
    if kind == "ip":
        put.sub(who, "ip", value)
        return value, None, False
    put.sub(who, "username", kind)
    put.sub(who, "id", value)
    return kind, int(value), False


@settings(max_examples=150)
@given(exports())
def test_generated_exports_read_back_exactly(export: tuple[bytes, list[dict[str, Any]]]) -> None:
    data, expected = export
    stats = MediaWikiStats()
    got = [as_row(rev) for rev in iter_revisions(io.BytesIO(data), stats)]
    assert got == expected
    assert stats.revisions == len(expected)
    assert stats.pages == len({row["page"][0] for row in expected})


def test_memory_stays_flat_on_a_long_history() -> None:
    """A page with 50,000 revisions of 2 KB (100 MB of text): the process grows by far less
    than the text it read, because finished revisions leave the tree as they are read."""
    uri = "http://www.mediawiki.org/xml/export-0.11/"
    revision = (
        "<revision><id>{n}</id><timestamp>2020-01-01T00:00:00Z</timestamp>"
        "<text bytes='2000'>" + "x" * 2000 + "</text></revision>"
    )
    body = "".join(revision.format(n=n) for n in range(1, 50_001))
    head = f"<mediawiki xmlns='{uri}'><page><title>T</title><ns>0</ns><id>1</id>"
    data = io.BytesIO(f"{head}{body}</page></mediawiki>".encode())
    del body
    process = psutil.Process()
    before = process.memory_info().rss
    peak = before
    for count, _rev in enumerate(iter_revisions(data), start=1):
        if count % 5_000 == 0:
            peak = max(peak, process.memory_info().rss)
    assert count == 50_000
    assert peak - before < 40 * 2**20, f"grew by {(peak - before) >> 20} MB"
