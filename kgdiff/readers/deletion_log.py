"""Entity deletions out of a MediaWiki ``pages-logging`` dump, or out of a list of ids.

The logging dump (``wikidatawiki-YYYYMMDD-pages-logging.xml.gz``) holds one ``<logitem>``
per logged action: its ``<type>``, ``<action>``, ``<timestamp>`` and the page's
``<logtitle>`` (``Q42``, ``Property:P31``, ``Lexeme:L1``). A page deletion is type
``delete`` with action ``delete`` (``delete_redir``, ``delete_redir2``: a redirect deleted to
make room for a move); an undeletion is action ``restore``. Other actions (revision and
log deletions) and other pages are skipped; a suppressed title (``deleted="deleted"``) is
unknown and skipped. A list of ids is a text file of one id (or entity page title) per line;
blank lines and lines starting with ``#`` are skipped.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from lxml import etree

from kgdiff.readers.streams import ByteStream
from kgdiff.readers.xml_stream import (
    CountingReader,
    XmlDumpError,
    children,
    drop,
    syntax_error,
    text_of,
)

DELETE = "delete"
RESTORE = "restore"
_ACTIONS = {"delete": DELETE, "delete_redir": DELETE, "delete_redir2": DELETE, "restore": RESTORE}
_ENTITY_TITLE = re.compile(
    r"(?:(?:Item:)?(Q[1-9][0-9]*)|Property:(P[1-9][0-9]*)|Lexeme:(L[1-9][0-9]*))"
)
_BARE_ID = re.compile(r"[QPL][1-9][0-9]*")


class DeletionListError(ValueError):
    """A line of a list of deleted ids that names no entity."""


@dataclass(frozen=True, slots=True)
class Deletion:
    """One deletion or undeletion of an entity page: its id, when (UTC, ``YYYY-MM-DDTHH:MM:SSZ``;
    empty for a list of ids, which tells no time) and ``delete`` or ``restore``."""

    entity: str
    timestamp: str
    action: str


@dataclass(slots=True)
class LogStats:
    """Counts of one read of a logging dump."""

    items: int = 0
    deletions: int = 0
    restores: int = 0
    skipped_other_actions: int = 0
    skipped_other_pages: int = 0
    skipped_hidden: int = 0
    extra: dict[str, int] = field(default_factory=dict)


def entity_of_title(title: str) -> str | None:
    """The entity id of an entity page title (``Q42``, ``Property:P31``, ``Lexeme:L1``), or
    None for any other page."""
    match = _ENTITY_TITLE.fullmatch(title.strip())
    if match is None:
        return None
    return next(group for group in match.groups() if group)


def iter_log_deletions(stream: ByteStream, stats: LogStats | None = None) -> Iterator[Deletion]:
    """Yield the deletions and undeletions of entity pages in a decompressed logging dump,
    in the order of the dump. Raises :class:`XmlDumpError`."""
    stats = LogStats() if stats is None else stats
    reader = CountingReader(stream)
    events = etree.iterparse(reader, events=("end",), tag="{*}logitem", huge_tree=True)
    try:
        for _, item in events:
            found = _deletion(item, stats)
            drop(item, keep_header=False)
            if found is not None:
                yield found
    except etree.XMLSyntaxError as exc:
        raise syntax_error(exc, reader.consumed) from exc
    except EOFError as exc:
        raise XmlDumpError(f"XML stream truncated at byte {reader.consumed}: {exc}") from exc


def _deletion(item: etree._Element, stats: LogStats) -> Deletion | None:
    stats.items += 1
    fields = children(item)
    action = (
        _ACTIONS.get(text_of(fields.get("action")))
        if text_of(fields.get("type")) == DELETE
        else None
    )
    if action is None:
        stats.skipped_other_actions += 1
        return None
    title = fields.get("logtitle")
    if title is None or title.get("deleted") is not None:
        stats.skipped_hidden += 1
        return None
    entity = entity_of_title(text_of(title))
    if entity is None:
        stats.skipped_other_pages += 1
        return None
    timestamp = text_of(fields.get("timestamp"))
    if not timestamp:
        raise XmlDumpError(f"<logitem> without <timestamp> at line {item.sourceline}")
    if action == DELETE:
        stats.deletions += 1
    else:
        stats.restores += 1
    return Deletion(entity, timestamp, action)


def iter_listed_deletions(lines: Iterator[bytes]) -> Iterator[Deletion]:
    """The ids of a list of deleted entities, one per line (an id or an entity page title).
    Raises :class:`DeletionListError` naming the first line that names no entity."""
    for number, raw in enumerate(lines, start=1):
        text = raw.decode("utf-8", errors="replace").strip()
        if not text or text.startswith("#"):
            continue
        entity = text if _BARE_ID.fullmatch(text) else entity_of_title(text)
        if entity is None:
            raise DeletionListError(f"line {number}: {text[:80]!r} is no entity id (Q42, P31, L1)")
        yield Deletion(entity, "", DELETE)
