"""The parse workers read a refresh's XML change files themselves, in chunks cut at page
boundaries (a page longer than a chunk at revision boundaries): on the real samples, the
chunks laid end to end are the file, each makes a document, and the pages, the revisions
kept and the reader's counts are those of one serial read; a refresh read in small chunks
(pages cut into parts) gives the snapshot a serial read gives."""

from __future__ import annotations

import bz2
import io
import shutil
from datetime import datetime
from pathlib import Path

import msgspec
import pytest

from bench.refresh_gen.xml_dump import Revision, write_revisions
from kgdiff.errors import InputError
from kgdiff.ingest.xml_chunk_parse import chunk_fates, joined_stats
from kgdiff.readers.wikidata_xml import XmlStats, iter_entity_pages
from kgdiff.readers.xml_chunks import XmlSpan, plan_xml_chunks
from kgdiff.refresh.pipeline import refresh_snapshot
from kgdiff.refresh.request import RefreshRequest
from tests.paths import DATA, SAMPLES
from tests.refresh_samples import refresh_of, snapshot_rows
from tests.test_refresh import _q1_revisions

DAILY = DATA / "sample-daily-dump-20140220.xml"
"""A real daily incremental dump: two pages, seven revisions (five of Q1)."""
HISTORY = SAMPLES / "testDump_xml_2014-10.xml.bz2"
"""A real XML dump of 1,646 entity pages."""
AS_OF = datetime(2014, 10, 11, 23, 59, 59)


def _data(path: Path) -> bytes:
    return bz2.decompress(path.read_bytes()) if path.suffix == ".bz2" else path.read_bytes()


def _serial(data: bytes) -> tuple[list[tuple[str, int, bytes]], XmlStats, list[str]]:
    stats, fates = XmlStats(), list[str]()
    pages = iter_entity_pages(io.BytesIO(data), as_of=AS_OF, stats=stats, fates=fates)
    return [(p.title, p.revision_id, p.text) for p in pages], stats, fates


Part = tuple[int, str, int, bytes]


def _in_chunks(data: bytes, size: int) -> tuple[list[Part], list[XmlSpan], int]:
    """Each chunk framed and read as the workers do: (page number, title, revision, text)
    of every part, the chunks' spans, and the bytes the chunks hold."""
    parts: list[Part] = []
    spans: list[XmlSpan] = []
    held = 0
    for span, frame, view in plan_xml_chunks(io.BytesIO(data), size):
        held += span.length
        spans.append(span)
        fates = list[str]()
        document = frame.prefix + bytes(view) + frame.suffix
        stats = XmlStats()
        first = span.pages_before + (0 if span.continues else 1)
        for page in iter_entity_pages(io.BytesIO(document), as_of=AS_OF, stats=stats, fates=fates):
            parts.append((first + stats.pages - 1, page.title, page.revision_id, page.text))
    return parts, spans, held


@pytest.mark.parametrize(
    ("source", "size"),
    [(DAILY, 2_000), (DAILY, 30_000), (DAILY, 1 << 20), (HISTORY, 150_000), (HISTORY, 4 << 20)],
    ids=["daily-2k", "daily-30k", "daily-1m", "dump-150k", "dump-4m"],
)
def test_the_chunks_are_the_file_and_read_as_one_serial_read(source: Path, size: int) -> None:
    data = _data(source)
    whole, _, fates = _serial(data)
    parts, spans, held = _in_chunks(data, size)
    assert held == len(data)
    assert [s.offset for s in spans] == [
        sum(s.length for s in spans[:i]) for i in range(len(spans))
    ]
    assert spans[-1].last and not any(s.last for s in spans[:-1])
    assert (size < 50_000) == any(s.ends_inside for s in spans)  # pages cut at revisions
    latest: dict[str, tuple[int, int, bytes]] = {}
    for number, title, revision, text in parts:
        if title not in latest or revision > latest[title][1]:
            latest[title] = (number, revision, text)
    assert {t: (r, x) for t, (_, r, x) in latest.items()} == {t: (r, x) for t, r, x in whole}
    numbers = {title: number for number, title, _, _ in parts}
    entity_numbers = [n for n, fate in enumerate(fates, start=1) if fate == "entity_pages"]
    assert sorted(numbers.values()) == entity_numbers  # a page's number: its place in the file


@pytest.fixture
def store(sample_store: Path, tmp_path: Path) -> Path:
    """A copy of the three real sample snapshots this test may refresh."""
    target = tmp_path / "store"
    shutil.copytree(sample_store, target, ignore=shutil.ignore_patterns("builds"))
    return target


def test_a_refresh_read_in_small_chunks_equals_one_in_whole_chunks(
    store: Path, tmp_path: Path
) -> None:
    revisions = _q1_revisions()
    # Q1's five real revisions (a page of 106 KB), and Q42's real entity, in one daily dump
    q42 = msgspec.json.encode(msgspec.json.decode((DATA / "wd_Q42.json").read_bytes()))
    other = Revision("Q42", 9, "2014-02-20T12:00:00Z", q42)
    incr = tmp_path / "wikidatawiki-20140220-pages-meta-hist-incr.xml.gz"
    write_revisions(incr, [*revisions, other])
    made = {}
    for name, chunk in (("whole", 32 << 20), ("small", 30_000)):
        request = RefreshRequest(
            changes=(incr,), base="wd-2013-12", snapshot=name, date="2014-02-20",
            store=store, chunk_bytes=chunk,
        )  # fmt: skip
        made[name] = refresh_snapshot(request).manifest
    assert snapshot_rows(store, "small") == snapshot_rows(store, "whole")
    small, whole = refresh_of(made["small"]), refresh_of(made["whole"])
    assert small.changes["changed"] + small.changes["added"] == 2
    assert small.changes["revisions_kept"] == whole.changes["revisions_kept"] == 2
    # Q1's page read in parts: each part's latest revision is read, the last one kept
    assert small.changes["revisions_superseded"] > 0 == whole.changes.get("revisions_superseded", 0)
    assert made["small"].input_stats == made["whole"].input_stats
    assert made["small"].input_stats["xml_entity_pages"] == 2
    assert made["small"].input_stats["xml_revisions"] == 6


def test_the_parts_counts_join_into_the_serial_reads() -> None:
    data = _data(DAILY)
    _, serial, _ = _serial(data)
    parts = []
    for span, frame, view in plan_xml_chunks(io.BytesIO(data), 2_000):
        stats, fates = XmlStats(), list[str]()
        document = io.BytesIO(frame.prefix + bytes(view) + frame.suffix)
        list(iter_entity_pages(document, as_of=AS_OF, stats=stats, fates=fates))
        parts.append(chunk_fates(span, stats, fates, []))
    assert sum(part.first_fate is not None for part in parts) > 1  # Q1 read in parts
    assert joined_stats(parts) == serial


def test_a_damaged_chunk_ends_the_run_naming_the_file_and_where(
    store: Path, tmp_path: Path
) -> None:
    incr = tmp_path / "wikidatawiki-20140220-pages-meta-hist-incr.xml"
    data = DAILY.read_bytes()
    incr.write_bytes(data[: len(data) * 2 // 3])  # cut inside a revision's text
    request = RefreshRequest(
        changes=(incr,), base="wd-2013-12", snapshot="cut", date="2014-02-20", store=store,
        chunk_bytes=30_000,
    )  # fmt: skip
    with pytest.raises(InputError, match=rf"{incr}: the XML from decompressed offset \d+"):
        refresh_snapshot(request)
    assert not (store / "snapshots" / "snapshot=cut").exists()
