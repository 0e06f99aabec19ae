"""MediaWiki XML dumps of Wikibase entities, read with kgdiff.readers.wikidata_xml."""

from __future__ import annotations

import bz2
import io
import json
import re
import xml.etree.ElementTree as ET
from datetime import UTC, datetime, timedelta, timezone
from functools import cache
from typing import Any

import pytest

from kgdiff.readers.legacy import LegacyFormatError
from kgdiff.readers.wikidata_xml import (
    EntityJsonError,
    EntityPage,
    XmlStats,
    decode_entity_text,
    iter_entity_pages,
)
from kgdiff.readers.xml_stream import XmlDumpError
from tests.paths import DATA, SAMPLES

DAILY = DATA / "sample-daily-dump-20140220.xml"
DUMPS = {
    "testDump_xml_2013-12.xml.bz2": (1236, 11340),
    "testDump_xml_2014-10.xml.bz2": (1646, 14647),
}


@cache
def raw_bytes(name: str) -> bytes:
    path = (SAMPLES if name.startswith("testDump") else DATA) / name
    return bz2.decompress(path.read_bytes()) if name.endswith(".bz2") else path.read_bytes()


def read(data: bytes, **kwargs: Any) -> tuple[list[EntityPage], XmlStats]:
    stats = XmlStats()
    pages = list(iter_entity_pages(io.BytesIO(data), stats=stats, **kwargs))
    return pages, stats


def explained(stats: XmlStats) -> int:
    return (
        stats.entity_pages
        + stats.skipped_non_entity
        + stats.skipped_deleted
        + stats.skipped_after_cutoff
    )


def independent_count(data: bytes) -> dict[str, Any]:
    """Count entity pages and statements with the standard library alone."""
    pages, statements, legacy = {}, 0, 0
    for page in ET.fromstring(data).iter():
        if page.tag.rpartition("}")[2] != "page":
            continue
        fields = {child.tag.rpartition("}")[2]: child for child in page.iter()}
        if not (fields["model"].text or "").startswith("wikibase-"):
            continue
        doc = json.loads(fields["text"].text or "")
        claims = doc.get("claims") or []
        if "entity" in doc:
            legacy += 1
            statements += len(claims)
        else:
            statements += sum(len(group) for group in dict(claims).values())
        pages[fields["title"].text] = int(fields["revision"].findtext("./{*}id") or 0)
    return {"pages": pages, "statements": statements, "legacy": legacy}


@pytest.mark.parametrize("name", sorted(DUMPS))
def test_dump_counts_match_an_independent_count(name: str) -> None:
    data = raw_bytes(name)
    pages, stats = read(data)
    expected = independent_count(data)
    assert {p.title: p.revision_id for p in pages} == expected["pages"]
    total = sum(sum(map(len, decode_entity_text(p.text)["claims"].values())) for p in pages)
    assert total == expected["statements"]
    assert (len(pages), total) == DUMPS[name]
    assert stats.pages == stats.entity_pages == len(pages) == stats.revisions
    assert explained(stats) == stats.pages and stats.deleted_texts == 0
    assert {p.model for p in pages} == {"wikibase-item", "wikibase-property"}
    assert {p.ns for p in pages} == {0, 120}


def test_mixed_dump_decodes_legacy_and_current_alike() -> None:
    data = raw_bytes("testDump_xml_2014-10.xml.bz2")
    assert independent_count(data)["legacy"] == 302
    for page in read(data)[0]:
        doc = decode_entity_text(page.text)
        assert doc["id"] == page.title.removeprefix("Property:")
        assert isinstance(doc["claims"], dict) and isinstance(doc["labels"], dict)


def test_byte_offset_brackets_the_page_tag() -> None:
    data = raw_bytes("testDump_xml_2013-12.xml.bz2")
    starts = [m.start() for m in re.finditer(rb"<page>", data)]
    pages, _ = read(data)
    assert len(starts) == len(pages)
    for start, page in zip(starts, pages, strict=True):
        assert page.byte_offset - 5 <= start < page.byte_offset + 32768


def test_daily_dump_yields_the_last_revision_of_q1() -> None:
    pages, stats = read(DAILY.read_bytes())
    assert [(p.title, p.revision_id, p.timestamp) for p in pages] == [
        ("Q1", 110669245, "2014-02-20T01:44:07Z")
    ]
    assert (stats.pages, stats.revisions, stats.skipped_non_entity) == (2, 7, 1)
    doc = decode_entity_text(pages[0].text)
    assert doc["id"] == "Q1" and sum(map(len, doc["claims"].values())) == 12
    root = ET.fromstring(DAILY.read_bytes())
    revisions = [r for r in root.iter() if r.tag.endswith("}revision")][:5]
    latest = max(revisions, key=lambda r: r.findtext("./{*}timestamp") or "")
    assert int(latest.findtext("./{*}id") or 0) == pages[0].revision_id


@pytest.mark.parametrize(
    ("as_of", "revision_id"),
    [
        (datetime(2014, 2, 19, 23, 35), 110652868),
        (datetime(2014, 2, 20, 0, 35, tzinfo=timezone(timedelta(hours=1))), 110652868),
        (datetime(2014, 2, 19, 23, 34, 16, tzinfo=UTC), 110652822),
        (datetime(2014, 2, 20, 12, 0, tzinfo=UTC), 110669245),
    ],
)
def test_as_of_selects_an_earlier_revision(as_of: datetime, revision_id: int) -> None:
    pages, stats = read(DAILY.read_bytes(), as_of=as_of)
    assert [p.revision_id for p in pages] == [revision_id]
    assert explained(stats) == stats.pages == 2


def test_as_of_before_every_revision_yields_nothing() -> None:
    pages, stats = read(DAILY.read_bytes(), as_of=datetime(2014, 2, 1))
    assert pages == []
    assert (stats.skipped_after_cutoff, stats.revisions_after_cutoff) == (1, 5)
    assert explained(stats) == stats.pages


def test_pages_without_model_are_recognised_by_title() -> None:
    # Export schemas before 0.8 have no <model>/<format>: drop them from the real sample.
    data = re.sub(rb"\s*<(model|format)>[^<]*</\1>", b"", DAILY.read_bytes())
    assert b"<model>" not in data
    pages, stats = read(data)
    assert [(p.title, p.model, p.revision_id) for p in pages] == [
        ("Q1", "wikibase-item", 110669245)
    ]
    assert stats.skipped_non_entity == 1


def test_single_page_document() -> None:
    pages, stats = read((DATA / "testPage_Q157.xml").read_bytes())
    assert [(p.title, p.ns, p.page_id, p.revision_id) for p in pages] == [
        ("Q157", 0, 293, 162544093)
    ]
    doc = decode_entity_text(pages[0].text)
    assert doc["type"] == "item" and sum(map(len, doc["claims"].values())) == 60
    assert stats.pages == 1


@pytest.mark.parametrize("keep", [0.5, 0.9, 0.999])
def test_truncated_xml_raises_with_a_line_number(keep: float) -> None:
    data = DAILY.read_bytes()
    with pytest.raises(XmlDumpError, match=r"corrupt or truncated at line \d+, column \d+"):
        read(data[: int(len(data) * keep)])


def test_truncated_bz2_stream_raises() -> None:
    compressed = (SAMPLES / "testDump_xml_2013-12.xml.bz2").read_bytes()
    with (
        bz2.open(io.BytesIO(compressed[: len(compressed) // 2])) as stream,
        pytest.raises(XmlDumpError, match="truncated"),
    ):
        list(iter_entity_pages(stream))


def deleted_text_dump() -> bytes:
    # No sample has a deleted entity text: wrap a real legacy Q1 revision in export-0.11 XML.
    text = (DATA / "legacy" / "items_legacy_old_Q1-103.json").read_text(encoding="utf-8")
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace('"', "&quot;")

    def revision(rev_id: int, day: int, body: str) -> str:
        return (
            f"<revision><id>{rev_id}</id><timestamp>2012-10-{day:02}T10:00:00Z</timestamp>"
            f"<model>wikibase-item</model><format>application/json</format>{body}</revision>"
        )

    deleted = '<text bytes="0" deleted="deleted" />'
    visible = f'<text bytes="{len(text)}" xml:space="preserve">{text}</text>'
    return (
        '<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.11/" version="0.11">'
        f"<page><title>Q1</title><ns>0</ns><id>129</id>{revision(103, 1, visible)}"
        f"{revision(104, 2, deleted)}</page>"
        f"<page><title>Q2</title><ns>0</ns><id>130</id>{revision(105, 3, deleted)}</page>"
        "</mediawiki>"
    ).encode()


def test_deleted_texts_are_counted_not_yielded() -> None:
    pages, stats = read(deleted_text_dump())
    assert [(p.title, p.revision_id) for p in pages] == [("Q1", 103)]
    assert decode_entity_text(pages[0].text)["sitelinks"]["enwiki"]["title"] == "Universe"
    assert (stats.deleted_texts, stats.skipped_deleted, stats.entity_pages) == (2, 1, 1)
    assert explained(stats) == stats.pages == 2


@pytest.mark.parametrize(
    ("text", "error", "message"),
    [
        (b'{"label": {"en": "x"', EntityJsonError, "malformed entity JSON"),
        (b"[1, 2]", EntityJsonError, "not list"),
        (b'{"foo": 1}', LegacyFormatError, "neither canonical"),
    ],
)
def test_decode_errors(text: bytes, error: type[ValueError], message: str) -> None:
    with pytest.raises(error, match=message):
        decode_entity_text(text)
