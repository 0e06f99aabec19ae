"""Write MediaWiki XML dumps of entity revisions, laid out like Wikimedia's: daily incremental
(``pages-meta-hist-incr``) and history dumps, and ``pages-logging`` dumps of deletions.

Used by ``python -m bench.refresh_gen`` and by the tests of ``kgdiff refresh``, which write
the changes between two snapshots as the dumps Wikimedia would publish. The text of each
revision is the entity JSON as given (any serialisation the readers take).
"""

from __future__ import annotations

import bz2
import gzip
import itertools
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO
from xml.sax.saxutils import escape

HEADER = (
    '<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.10/" version="0.10" xml:lang="en">\n'
    "  <siteinfo>\n    <sitename>Wikidata</sitename>\n    <dbname>wikidatawiki</dbname>\n"
    "  </siteinfo>\n"
)
FOOTER = "</mediawiki>\n"
_PAGE_OF_KIND = {
    "Q": ("", 0, "wikibase-item"),
    "P": ("Property:", 120, "wikibase-property"),
    "L": ("Lexeme:", 146, "wikibase-lexeme"),
}


@dataclass(frozen=True)
class Revision:
    """One revision of an entity page: its id, time (``YYYY-MM-DDTHH:MM:SSZ``) and JSON text
    (None: a deleted text)."""

    entity: str
    revision_id: int
    timestamp: str
    text: bytes | None


@dataclass(frozen=True)
class LogEvent:
    """One deletion (``delete``) or undeletion (``restore``) of an entity page."""

    entity: str
    timestamp: str
    action: str
    log_id: int


def page_title(entity: str) -> tuple[str, int, str]:
    """The page title, namespace and content model of an entity id."""
    prefix, ns, model = _PAGE_OF_KIND[entity[0]]
    return prefix + entity, ns, model


def page_id(entity: str) -> int:
    """A page id for an entity (any one-to-one number will do)."""
    return {"Q": 1, "P": 2, "L": 3}[entity[0]] + 10 * int(entity[1:])


@contextmanager
def _open(path: Path) -> Iterator[IO[bytes]]:
    """``path`` for writing, compressed as its name says (.bz2, .gz, else plain)."""
    if path.suffix == ".bz2":
        with bz2.open(path, "wb") as handle:
            yield handle
    elif path.suffix == ".gz":
        with gzip.open(path, "wb") as handle:
            yield handle  # type: ignore[misc]
    else:
        with path.open("wb") as handle:
            yield handle


def _revision_xml(revision: Revision, model: str) -> str:
    if revision.text is None:
        text = '      <text deleted="deleted" />\n'
    else:
        body = escape(revision.text.decode("utf-8"), {'"': "&quot;"})
        text = f'      <text bytes="{len(revision.text)}" xml:space="preserve">{body}</text>\n'
    return (
        "    <revision>\n"
        f"      <id>{revision.revision_id}</id>\n"
        f"      <timestamp>{revision.timestamp}</timestamp>\n"
        "      <contributor><username>bench</username><id>1</id></contributor>\n"
        f"      <model>{model}</model>\n      <format>application/json</format>\n"
        f"{text}"
        "    </revision>\n"
    )


def write_revisions(path: Path, revisions: Iterable[Revision]) -> int:
    """Write ``revisions`` as a history or incremental dump: one ``<page>`` per run of
    revisions of one entity, in the order given (streamed); the pages written."""
    pages = 0
    with _open(path) as out:
        out.write(HEADER.encode())
        for entity, page_revisions in itertools.groupby(revisions, key=lambda r: r.entity):
            title, ns, model = page_title(entity)
            head = f"  <page>\n    <title>{title}</title>\n    <ns>{ns}</ns>\n"
            head += f"    <id>{page_id(entity)}</id>\n"
            body = "".join(_revision_xml(revision, model) for revision in page_revisions)
            out.write((head + body + "  </page>\n").encode())
            pages += 1
        out.write(FOOTER.encode())
    return pages


def write_log(path: Path, events: Iterable[LogEvent]) -> int:
    """Write ``events`` as a ``pages-logging`` dump; the events."""
    count = 0
    with _open(path) as out:
        out.write(HEADER.encode())
        for event in events:
            title, _, _ = page_title(event.entity)
            out.write(
                (
                    "  <logitem>\n"
                    f"    <id>{event.log_id}</id>\n"
                    f"    <timestamp>{event.timestamp}</timestamp>\n"
                    "    <contributor><username>bench</username><id>1</id></contributor>\n"
                    "    <comment>bench</comment>\n"
                    f"    <type>delete</type>\n    <action>{event.action}</action>\n"
                    f"    <logtitle>{title}</logtitle>\n"
                    '    <params xml:space="preserve" />\n'
                    "  </logitem>\n"
                ).encode()
            )
            count += 1
        out.write(FOOTER.encode())
    return count
