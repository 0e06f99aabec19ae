"""Multistream .bz2 dumps: a dump and its index are built from the real enwiki sample the
way Wikimedia builds them (header stream, streams of pages, closing stream), then read
both sequentially and by random access through the index."""

from __future__ import annotations

import bz2
import io
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgdiff.readers.mediawiki_xml import iter_revisions
from kgdiff.readers.multistream import (
    IndexEntry,
    MultistreamError,
    read_index,
    revisions_at,
    revisions_of,
)
from tests.paths import DATA

SAMPLE = DATA / "wikipedia" / "enwiki-latest-pages-articles1.xml-p000000010p000030302-shortened.bz2"
PAGES_PER_STREAM = 20
TITLE_CHARACTERS = st.characters(codec="utf-8", exclude_characters="\n\r")


def build(folder: Path) -> tuple[Path, Path]:
    """The sample as a multistream dump and its bz2 index; returns (dump, index)."""
    xml = bz2.decompress(SAMPLE.read_bytes())
    first = xml.index(b"<page>")
    pages = re.findall(rb"  <page>.*?</page>\n", xml, re.S)
    chunks = [xml[:first]]
    chunks += [
        b"".join(pages[i : i + PAGES_PER_STREAM]) for i in range(0, len(pages), PAGES_PER_STREAM)
    ]
    chunks.append(b"</mediawiki>\n")
    dump, lines, offset = bytearray(), [], 0
    for chunk in chunks:
        for page in re.finditer(rb"<page>\s*<title>(.*?)</title>.*?<id>(\d+)</id>", chunk, re.S):
            title = page.group(1).decode().replace("&amp;", "&").replace("&quot;", '"')
            lines.append(f"{offset}:{int(page.group(2))}:{title}\n")
        data = bz2.compress(chunk)
        dump += data
        offset += len(data)
    dump_path, index_path = folder / "multistream.xml.bz2", folder / "index.txt.bz2"
    dump_path.write_bytes(bytes(dump))
    index_path.write_bytes(bz2.compress("".join(lines).encode()))
    return dump_path, index_path


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[IndexEntry]]:
    dump, index = build(tmp_path_factory.mktemp("multistream"))
    with bz2.open(index, "rb") as handle:
        return dump, list(read_index(handle))


def test_sequential_reading_sees_every_page(built: tuple[Path, list[IndexEntry]]) -> None:
    """Read front to back (bz2 joins the streams), the dump holds the sample's revisions."""
    dump, entries = built
    with bz2.open(dump, "rb") as handle:
        every = [(r.page.page_id, r.revision_id) for r in iter_revisions(handle)]
    with bz2.open(SAMPLE, "rb") as handle:
        assert every == [(r.page.page_id, r.revision_id) for r in iter_revisions(handle)]
    assert sorted(e.page_id for e in entries) == sorted(page for page, _ in every)


def test_every_page_is_found_at_its_offset(built: tuple[Path, list[IndexEntry]]) -> None:
    dump, entries = built
    by_offset: dict[int, set[int]] = {}
    for entry in entries:
        by_offset.setdefault(entry.offset, set()).add(entry.page_id)
    assert len(by_offset) == -(-len(entries) // PAGES_PER_STREAM)
    for offset, ids in by_offset.items():
        assert {r.page.page_id for r in revisions_at(dump, offset)} == ids


def test_pages_by_title_through_the_index(built: tuple[Path, list[IndexEntry]]) -> None:
    dump, entries = built
    wanted = [e for e in entries if e.title in {"Alaska", "Angola", "AccessibleComputing"}]
    found = {r.page.title: r for r in revisions_of(dump, wanted)}
    assert set(found) == {"Alaska", "Angola", "AccessibleComputing"}
    assert found["AccessibleComputing"].page.redirect == "Computer accessibility"
    assert found["Alaska"].text is not None and "Juneau" in found["Alaska"].text


def test_an_offset_from_another_dump_is_refused(built: tuple[Path, list[IndexEntry]]) -> None:
    dump, entries = built
    with pytest.raises(MultistreamError, match=r"offset \d+: no bz2 stream starts here"):
        revisions_at(dump, entries[-1].offset + 7)


def test_a_malformed_index_line_names_its_number() -> None:
    index = b"100:10:Good title: with colon\nnot an index line\n"
    entries = read_index(io.BytesIO(index))
    assert next(entries) == IndexEntry(100, 10, "Good title: with colon")
    with pytest.raises(MultistreamError, match="index line 2"):
        next(entries)


@settings(max_examples=200)
@given(
    st.lists(
        st.builds(
            IndexEntry,
            st.integers(0, 10**12),
            st.integers(1, 10**9),
            st.text(TITLE_CHARACTERS, min_size=1),
        ),
        max_size=30,
    )
)
def test_index_lines_read_back_exactly(entries: list[IndexEntry]) -> None:
    """Any index (titles with colons, spaces, any script) reads back entry for entry."""
    text = "".join(f"{e.offset}:{e.page_id}:{e.title}\n" for e in entries).encode()
    assert list(read_index(io.BytesIO(text))) == entries
