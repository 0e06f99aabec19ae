"""Reading the store's files whole for a check, with progress by bytes.

A store can hold hundreds of GB: the check reports how far it got through a
:class:`~kgdiff.ingest.progress.Progress` (the command line's bar, or a line every half
minute in a log), counting the bytes it hashed or decoded, the files and the findings.
"""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from kgdiff.ingest.progress import NullProgress, Progress

BATCH_ROWS = 65_536


class Meter:
    """How much of the files a check reads it has read (told to ``progress``)."""

    def __init__(self, progress: Progress | None = None) -> None:
        self.progress = progress or NullProgress()
        self.bytes = 0
        self.files = 0
        self.findings = 0

    def begin(self, description: str, total_bytes: int) -> None:
        """The reading of ``total_bytes`` starts."""
        self.progress.begin(description, total_bytes)

    def read(self, count: int) -> None:
        """``count`` more bytes read."""
        self.bytes += count
        self.progress.update(self.bytes, self.files, self.findings)

    def file_done(self, found: int = 0) -> None:
        """One more file read, with ``found`` findings."""
        self.files += 1
        self.findings += found
        self.progress.update(self.bytes, self.files, self.findings)

    def end(self) -> None:
        """The reading is over."""
        self.progress.end()


def unreadable(path: Path, meter: Meter | None = None) -> str | None:
    """Why the Parquet file ``path`` cannot be read whole (every page decoded), or None."""
    try:
        reader = pq.ParquetFile(path)
        for _ in reader.iter_batches(batch_size=BATCH_ROWS):
            pass
    except FileNotFoundError:
        return "it is missing"
    except OSError as exc:
        return f"it cannot be read ({exc.strerror or _first_line(exc, path)})"
    except (ValueError, pa.ArrowException) as exc:
        return f"it is not a readable Parquet file ({_first_line(exc, path)})"
    finally:
        if meter is not None:
            meter.read(path.stat().st_size if path.is_file() else 0)
    return None


def _first_line(exc: BaseException, path: Path) -> str:
    """The first line of an exception's message about ``path``, naming it by its name."""
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return text.replace(str(path), path.name).rstrip(".")


def parquet_rows(path: Path) -> int | None:
    """The rows of a Parquet file (its footer), or None when it cannot be read."""
    try:
        return int(pq.read_metadata(path).num_rows)
    except (OSError, ValueError, pa.ArrowException):
        return None
