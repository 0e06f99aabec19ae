"""Chunks travel as file positions: workers read the same bytes the main process cut.

For an uncompressed dump the main process only plans the chunks (one reused
buffer, hashing and counting lines) and the workers read their chunk from the
dump by offset; decompressed chunks go through a few reused slot files. Every
chunk must be byte-identical to what the copying splitter yields, a slot must
never be overwritten while a task still needs it, and a file that changes under
the ingest must fail it rather than publish a mix of two versions.
"""

from __future__ import annotations

import gzip
import io
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgdiff.errors import InputError
from kgdiff.ingest.pipeline import IngestRequest, ingest_wikidata
from kgdiff.ingest.slots import ChunkSlots
from kgdiff.readers.chunking import (
    ChunkSpan,
    ChunkView,
    FileChunk,
    count_lines,
    plan_chunks,
    split_chunks,
)
from kgdiff.readers.json_dump import Chunk, DumpFraming
from tests.faultkit import TABLES, assert_not_published, sample_dump, table_differences

LINE = st.binary(min_size=0, max_size=300).map(lambda b: b.replace(b"\n", b" "))


@settings(max_examples=80)
@given(st.lists(LINE, max_size=40), st.integers(1, 700), st.booleans())
def test_planned_chunks_read_back_identical(
    tmp_path_factory: pytest.TempPathFactory, lines: list[bytes], chunk_bytes: int, tail: bool
) -> None:
    data = b"{\n" + b"\n".join(lines) + (b"\n" if tail else b"")
    path = tmp_path_factory.mktemp("chunks") / "dump.json"
    path.write_bytes(data)
    copied = list(split_chunks(io.BytesIO(data), DumpFraming(str(path)), chunk_bytes))
    framing = DumpFraming(str(path))
    planned = [span for span, _view in plan_chunks(io.BytesIO(data), framing, chunk_bytes)]
    loaded = [FileChunk(str(path), span).load() for span in planned]
    assert loaded == copied
    joined = b"".join(chunk.data for chunk in loaded)
    assert data.startswith(joined) and not data[len(joined) :].strip()  # a blank tail is dropped
    assert framing.end_offset == len(data)
    for chunk in loaded:
        assert chunk.first_line == data[: chunk.offset].count(b"\n")
        # every chunk but the last ends a line; none is empty
        assert chunk.data and (chunk.data.endswith(b"\n") or chunk is loaded[-1])


@settings(max_examples=60)
@given(st.lists(LINE, min_size=1, max_size=40), st.integers(1, 700))
def test_chunks_read_into_one_reused_buffer_are_the_same_bytes(
    tmp_path_factory: pytest.TempPathFactory, lines: list[bytes], chunk_bytes: int
) -> None:
    data = b"{\n" + b"\n".join(lines) + b"\n"
    path = tmp_path_factory.mktemp("reuse") / "dump.json"
    path.write_bytes(data)
    planned = [span for span, _view in plan_chunks(io.BytesIO(data), DumpFraming(""), chunk_bytes)]
    buffer = bytearray()
    for span in planned:  # chunks of every size, growing and shrinking the one buffer
        chunk = FileChunk(str(path), span).load(buffer)
        assert chunk.data is buffer
        assert chunk.data == data[span.offset : span.offset + span.length]


def test_a_buffer_still_in_use_is_not_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "dump.json"
    path.write_bytes(b"[\n" + b'{"id":"Q1"},\n' * 8 + b"]\n")
    buffer = bytearray()
    first = FileChunk(str(path), ChunkSpan(0, 2, 1, 13)).load(buffer)
    with memoryview(first.data) as held:  # e.g. a view kept alive by a traceback
        second = FileChunk(str(path), ChunkSpan(1, 15, 2, 26)).load(buffer)
        assert second.data is not buffer and bytes(held) == b'{"id":"Q1"},\n'
    assert second.data == b'{"id":"Q1"},\n' * 2


def test_views_hold_the_chunk_bytes_until_the_next_one() -> None:
    data = b"[\n" + b"".join(b'{"id":"Q%d"},\n' % n for n in range(50)) + b"]\n"
    for span, view in plan_chunks(io.BytesIO(data), DumpFraming("d.json"), 64):
        assert bytes(view) == data[span.offset : span.offset + span.length]


def test_a_line_longer_than_a_chunk_grows_the_buffer() -> None:
    data = b"{" + b"x" * 5000 + b"}\n{" + b"y" * 300 + b"}\n"
    spans = [s for s, _ in plan_chunks(io.BytesIO(data), DumpFraming("d.json"), 100)]
    assert spans[0] == ChunkSpan(0, 0, 0, 5003)
    assert spans[1:] == [ChunkSpan(1, 5003, 1, 303)]


def test_a_file_cut_short_names_file_and_offset(tmp_path: Path) -> None:
    path = tmp_path / "dump.json"
    path.write_bytes(b"[\n{}\n]\n")
    with pytest.raises(InputError, match=r"dump\.json: offset 7: the file is shorter"):
        FileChunk(str(path), ChunkSpan(0, 2, 1, 10)).load()


class TouchOnFirstUpdate:
    """Progress that rewrites the dump's modification time once parsing is under way."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.touched = False

    def begin(self, description: str, total_bytes: int) -> None:
        """Nothing to do."""

    def update(self, done_bytes: int, entities: int, statements: int) -> None:
        """Move the file's mtime one second ahead, once."""
        if not self.touched:
            stat = self.path.stat()
            os.utime(self.path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
            self.touched = True

    def phase(self, description: str) -> None:
        """Nothing to do."""

    def advance(self, done: float, total: float) -> None:
        """Nothing to do."""

    def end(self) -> None:
        """Nothing to do."""


@pytest.fixture
def dump(tmp_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A private copy of the real sample as a plain JSON dump (tests change or compress it)."""
    path = tmp_path / "wikidata-20141201-all.json"
    path.write_bytes(sample_dump(tmp_path_factory).read_bytes())
    return path


def test_a_dump_that_changes_during_the_ingest_is_refused(tmp_path: Path, dump: Path) -> None:
    store = tmp_path / "store"
    request = IngestRequest(dump, snapshot="moving", store=store, chunk_bytes=1 << 20)
    progress = TouchOnFirstUpdate(dump)
    with pytest.raises(InputError, match=r"wikidata-20141201-all\.json: the file changed while"):
        ingest_wikidata(request, progress)
    assert progress.touched
    assert_not_published(store, "moving")


def test_slots_hand_back_each_chunk_until_released(tmp_path: Path) -> None:
    slots = ChunkSlots(tmp_path / "slots", 2)
    big = Chunk(0, 0, 0, b"x" * 5000 + b"\n")
    small = Chunk(1, 5001, 1, b"{}\n")
    first, first_slot = slots.stage(big)
    second, second_slot = slots.stage(small)
    assert slots.available == 0 and first_slot != second_slot
    assert first.load() == big and second.load() == small
    slots.release(first_slot)
    # a view into a larger buffer is staged like a chunk; the reused slot still holds
    # the longer chunk's tail, but only the span is read back
    view = ChunkView(ChunkSpan(2, 5004, 2, 3), memoryview(bytearray(b"[]\nleftover"))[:3])
    third, third_slot = slots.stage(view)
    assert third_slot == first_slot and third.load() == Chunk(2, 5004, 2, b"[]\n")
    slots.close()
    assert not (tmp_path / "slots").exists()


def test_gzip_through_slots_gives_the_plain_dumps_tables(tmp_path: Path, dump: Path) -> None:
    plain = dump
    packed = tmp_path / "wikidata-20141201-all.json.gz"
    packed.write_bytes(gzip.compress(plain.read_bytes(), compresslevel=1))
    store = tmp_path / "store"
    built = {
        name: ingest_wikidata(
            IngestRequest(path, snapshot=name, store=store, workers=2, chunk_bytes=200_000)
        )
        for name, path in (("plain", plain), ("packed", packed))
    }
    assert built["packed"].manifest.counts == built["plain"].manifest.counts
    for table in TABLES:
        differences = table_differences(built["plain"].directory, built["packed"].directory, table)
        assert differences == (0, 0), table
    assert not (store / ".staging").exists() or not any((store / ".staging").rglob("slot-*"))


@settings(max_examples=200)
@given(
    lengths=st.lists(st.one_of(st.integers(0, 40), st.integers(900, 3000)), max_size=700),
    cut=st.floats(0, 1),
)
def test_count_lines_equals_bytes_count(lengths: list[int], cut: float) -> None:
    """Long lines are hopped over, short ones counted in bulk: the same number either way."""
    buffer = bytearray(b"".join(b"x" * n + b"\n" for n in lengths))
    end = int(len(buffer) * cut)
    assert count_lines(buffer, end) == buffer.count(b"\n", 0, end)
