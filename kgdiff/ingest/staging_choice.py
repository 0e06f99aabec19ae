"""The staging codec kgdiff picks when left to choose (``--staging-compression auto``).

Parsed chunks wait in the staging folder until the sort reads each of them back once.
While the whole staging fits in the page cache it is read back from memory, so
compressing it buys nothing but costs CPU twice (in the workers, then in the sort):
uncompressed parts, which the sort maps instead of reading and decompressing, took
about 8–17 % less CPU for a whole ingest of the 1 GB bench dump (``bench.revisions_ab``:
least CPU 0.92×; ``bench.ingest_bench``: 9.1 against 11.0 CPU-seconds with LZ4). A
staging larger than memory is read back from disk, where LZ4's parts (~55 % of the size)
cost less time than they save, and a disk too small for uncompressed parts needs them
compressed.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from kgdiff.store.staging import STAGING_CODECS

AUTO = "auto"
STAGING_CHOICES = (AUTO, *STAGING_CODECS)
"""What ``--staging-compression`` accepts: ``auto`` or one of the codecs."""
UNCOMPRESSED = "none"
COMPRESSED = "lz4"
EXPANSION = {"none": 1.0, "gzip": 12.0, "bzip2": 18.0, "zstd": 20.0}
"""Bytes of decompressed dump per byte of file, generous on purpose (the bench dump: 5.5× for
gzip, 8.5× for bzip2): a guess too high only picks LZ4 where ``none`` would have fitted."""
STAGING_PER_INPUT_BYTE = 0.7
"""Uncompressed staging per byte of decompressed JSON (0.63 on the bench dump)."""
SHARE_OF_ROOM = 0.5
"""The projected staging may take at most this share of the free memory and of the disk."""


@dataclass(frozen=True)
class Room:
    """Free memory (None: unknown) and free disk in the store, in bytes."""

    memory: int | None
    disk: int


def available_memory(meminfo: Path = Path("/proc/meminfo")) -> int | None:
    """Memory the kernel can hand out without swapping (``MemAvailable``), or None."""
    try:
        lines = meminfo.read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        name, _, rest = line.partition(":")
        fields = rest.split()
        if name == "MemAvailable" and fields and fields[0].isdigit():
            return int(fields[0]) * 1024
    return None


def room_at(store: Path) -> Room:
    """The free memory of this machine and the free disk where ``store`` lives."""
    return Room(available_memory(), shutil.disk_usage(store).free)


def projected_staging_bytes(file_bytes: int, compression: str) -> int:
    """Uncompressed staging for a dump file of ``file_bytes`` compressed with ``compression``."""
    expansion = EXPANSION.get(compression, max(EXPANSION.values()))
    return int(file_bytes * expansion * STAGING_PER_INPUT_BYTE)


def auto_staging_codec(file_bytes: int, compression: str, room: Room) -> str:
    """What ``auto`` means for this input: ``none`` when the projected staging fits in the
    page cache and on the disk with room to spare, else ``lz4``."""
    if room.memory is None:
        return COMPRESSED
    needed = projected_staging_bytes(file_bytes, compression)
    fits = needed <= SHARE_OF_ROOM * min(room.memory, room.disk)
    return UNCOMPRESSED if fits else COMPRESSED
