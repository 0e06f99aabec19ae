"""Read ``--deletions``: a ``pages-logging`` XML dump or a list of ids (any compression)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

import pyarrow as pa

from kgdiff.errors import InputError
from kgdiff.ingest.sources import SourceStream, open_source
from kgdiff.readers.deletion_log import (
    Deletion,
    DeletionListError,
    LogStats,
    iter_listed_deletions,
    iter_log_deletions,
)
from kgdiff.readers.xml_stream import XmlDumpError
from kgdiff.refresh.select import DELETIONS_SCHEMA
from kgdiff.store.manifest import SourceInfo

LOG = "pages-logging"
ID_LIST = "id-list"


@dataclass(frozen=True)
class DeletionsRead:
    """The deletions of one file, as the selection reads them, and what the file was."""

    table: pa.Table
    source: SourceInfo
    stats: dict[str, int]


def no_deletions() -> pa.Table:
    """The deletions of a refresh without ``--deletions``: none."""
    return DELETIONS_SCHEMA.empty_table()


def read_deletions(path: Path) -> DeletionsRead:
    """Every deletion and undeletion of an entity page in ``path``; an :class:`InputError`
    naming the file and where, for a damaged file or a line that names no entity."""
    stats = LogStats()
    kind = _kind(path)
    with open_source(path, threads=1) as stream:
        try:
            if kind == LOG:
                found = list(iter_log_deletions(stream, stats))
            else:
                found = list(iter_listed_deletions(_lines(stream)))
        except XmlDumpError as exc:
            raise InputError(f"{path}: {exc}; fetch the file again") from exc
        except DeletionListError as exc:
            raise InputError(
                f"{path}: {exc}; give one id (Q42) or entity page title per line, or a "
                "pages-logging XML dump"
            ) from exc
    stat = path.stat()
    source = SourceInfo(
        str(path), stat.st_size, stat.st_mtime_ns, stream.sha256, stream.method, kind
    )
    counts = asdict(stats) if kind == LOG else {"ids": len(found)}
    counts = {key: value for key, value in counts.items() if isinstance(value, int)}
    return DeletionsRead(_table(found), source, counts)


def _kind(path: Path) -> str:
    """A logging dump (XML) or a list of ids, from the first bytes."""
    with open_source(path, threads=1, whole_hash=False) as stream:
        head = stream.read(4096).lstrip(b"\xef\xbb\xbf \t\r\n")
    return LOG if head.startswith(b"<") else ID_LIST


def _lines(stream: SourceStream) -> Iterator[bytes]:
    """The lines of a decompressed stream."""
    rest = b""
    while chunk := stream.read(1 << 20):
        *lines, rest = (rest + chunk).split(b"\n")
        yield from lines
    if rest:
        yield rest


def _table(found: list[Deletion]) -> pa.Table:
    return pa.table(
        [
            [d.entity for d in found],
            [d.timestamp for d in found],
            [d.action for d in found],
            list(range(len(found))),
        ],
        schema=DELETIONS_SCHEMA,
    )
