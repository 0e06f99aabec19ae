"""``--staging-compression auto``: uncompressed parts only when the staging fits in memory
and on the disk with room to spare (named codecs: ``tests/test_staging_codec.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kgdiff.ingest.pipeline import IngestRequest, ingest_wikidata
from kgdiff.ingest.staging_choice import (
    EXPANSION,
    SHARE_OF_ROOM,
    STAGING_PER_INPUT_BYTE,
    Room,
    auto_staging_codec,
    available_memory,
    projected_staging_bytes,
    room_at,
)
from tests.faultkit import sample_dump

GB = 10**9
PLENTY = Room(memory=64 * GB, disk=1000 * GB)


def test_auto_leaves_a_staging_that_fits_uncompressed() -> None:
    assert auto_staging_codec(1 * GB, "none", PLENTY) == "none"


def test_auto_compresses_when_memory_or_disk_is_short() -> None:
    needed = projected_staging_bytes(10 * GB, "none")
    short_memory = Room(memory=int(needed / SHARE_OF_ROOM) - 1, disk=1000 * GB)
    short_disk = Room(memory=64 * GB, disk=int(needed / SHARE_OF_ROOM) - 1)
    assert auto_staging_codec(10 * GB, "none", short_memory) == "lz4"
    assert auto_staging_codec(10 * GB, "none", short_disk) == "lz4"


def test_auto_compresses_when_the_free_memory_is_unknown() -> None:
    assert auto_staging_codec(1, "none", Room(memory=None, disk=1000 * GB)) == "lz4"


def test_a_full_dump_is_staged_with_lz4_on_a_workstation() -> None:
    # latest-all.json.gz is ~140 GB; a 64 GB machine cannot hold its staging in memory
    assert auto_staging_codec(140 * GB, "gzip", PLENTY) == "lz4"


def test_compressed_files_are_projected_with_their_expansion() -> None:
    assert projected_staging_bytes(GB, "none") == int(GB * STAGING_PER_INPUT_BYTE)
    assert projected_staging_bytes(GB, "bzip2") == int(GB * 18 * STAGING_PER_INPUT_BYTE)
    assert projected_staging_bytes(GB, "brotli") == projected_staging_bytes(GB, "zstd")
    assert max(EXPANSION.values()) == EXPANSION["zstd"]


@given(
    file_bytes=st.integers(0, 10**13),
    compression=st.sampled_from(sorted(EXPANSION)),
    memory=st.integers(0, 10**12),
    disk=st.integers(0, 10**13),
    more=st.integers(0, 10**12),
)
def test_more_room_never_turns_uncompressed_into_compressed(
    file_bytes: int, compression: str, memory: int, disk: int, more: int
) -> None:
    chosen = auto_staging_codec(file_bytes, compression, Room(memory, disk))
    roomier = auto_staging_codec(file_bytes, compression, Room(memory + more, disk + more))
    smaller = auto_staging_codec(file_bytes // 2, compression, Room(memory, disk))
    assert chosen in ("none", "lz4")
    if chosen == "none":
        assert roomier == smaller == "none"


def test_free_memory_comes_from_meminfo(tmp_path: Path) -> None:
    meminfo = tmp_path / "meminfo"
    meminfo.write_text("MemTotal:       24000000 kB\nMemAvailable:   20000000 kB\n")
    assert available_memory(meminfo) == 20000000 * 1024
    meminfo.write_text("MemTotal:       24000000 kB\nMemAvailable:\n")
    assert available_memory(meminfo) is None
    assert available_memory(tmp_path / "missing") is None


def test_this_machine_reports_its_room(tmp_path: Path) -> None:
    room = room_at(tmp_path)
    assert room.disk > 0
    if Path("/proc/meminfo").is_file():
        assert room.memory is not None and room.memory > 0


def test_an_auto_ingest_records_the_codec_it_chose(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    dump = sample_dump(tmp_path_factory)  # a few MB: fits wherever the free memory is known
    result = ingest_wikidata(IngestRequest(dump, "s", "2014-12-01", tmp_path))
    expected = "none" if available_memory() is not None else "lz4"
    assert result.manifest.staging_compression == expected
