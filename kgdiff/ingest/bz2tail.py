"""Check that a bzip2 file ends with its end-of-stream marker.

``lbzip2`` exits successfully when data follows the last bzip2 stream, so the
end of the file is checked separately. The marker (48-bit magic, 32-bit CRC,
then 0–7 zero padding bits) is bit-aligned, hence the search over paddings.
"""

from __future__ import annotations

from pathlib import Path

EOS_MAGIC = 0x177245385090
TAIL_BYTES = 11


def bz2_ends_cleanly(path: Path) -> bool:
    """True when the last bytes of ``path`` are a bzip2 end-of-stream marker."""
    with path.open("rb") as handle:
        handle.seek(0, 2)
        size = handle.tell()
        if size < TAIL_BYTES:
            return False
        handle.seek(size - TAIL_BYTES)
        tail = int.from_bytes(handle.read(TAIL_BYTES), "big")
    for padding in range(8):
        magic = (tail >> (32 + padding)) & ((1 << 48) - 1)
        if magic == EOS_MAGIC and tail & ((1 << padding) - 1) == 0:
            return True
    return False
