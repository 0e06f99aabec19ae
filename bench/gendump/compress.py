"""Compressed copies of the dump: ``.gz`` and ``.bz2`` by parallel tools when installed.

``pigz -6`` for gzip and ``lbzip2 -9`` for bzip2, on all cores; without them the ``gzip``
and ``bz2`` modules, and ``zstandard`` (multi-threaded) for ``.zst``. Output goes to a
``.tmp`` file renamed when complete.
"""

from __future__ import annotations

import bz2
import gzip
import os
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

from bench.gendump.common import MIB


def compress(src: Path, fmt: str) -> dict[str, Any]:
    """Write ``src.<fmt>`` (gz, bz2 or zst) next to ``src``; return its manifest record."""
    dst = src.with_name(f"{src.name}.{fmt}")
    tmp = dst.with_name(dst.name + ".tmp")
    threads = str(os.cpu_count() or 1)
    start = time.perf_counter()
    command: list[str] | None = None
    if fmt == "gz" and shutil.which("pigz"):
        command = ["pigz", "-6", "-p", threads, "-c", str(src)]
    elif fmt == "bz2" and shutil.which("lbzip2"):
        command = ["lbzip2", "-9", "-n", threads, "-c", str(src)]
    if command is not None:
        with tmp.open("wb") as out:
            subprocess.run(command, stdout=out, check=True)
        tool = " ".join(command[:-2])
    else:
        tool = _compress_in_process(src, tmp, fmt)
    tmp.replace(dst)
    seconds = time.perf_counter() - start
    return {"bytes": dst.stat().st_size, "seconds": round(seconds, 2), "tool": tool}


def _compress_in_process(src: Path, dst: Path, fmt: str) -> str:
    """Fallback compressors: gzip level 6, bz2 level 9, zstandard level 3 (all threads)."""
    with src.open("rb") as inp:
        if fmt == "zst":
            import zstandard

            compressor = zstandard.ZstdCompressor(level=3, threads=-1)
            with dst.open("wb") as out:
                compressor.copy_stream(inp, out, read_size=MIB, write_size=MIB)
            return "zstandard level 3"
        if fmt == "gz":
            with gzip.open(dst, "wb", compresslevel=6) as out:
                shutil.copyfileobj(inp, out, MIB)
            return "gzip module level 6"
        if fmt == "bz2":
            with bz2.open(dst, "wb", compresslevel=9) as out:
                shutil.copyfileobj(inp, out, MIB)
            return "bz2 module level 9"
    raise ValueError(f"unknown format {fmt!r}")
