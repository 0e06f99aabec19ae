"""Refuse an input that gave no entity, before anything is sorted or published.

A snapshot without entities has no part files for the catalog's views to read, and says
nothing a classification could use: an empty dump, an XML dump without entity pages (or
whose entity revisions all come after ``--date``), or one whose every entity was malformed
is a bad input, reported in one line that says what the file held.
"""

from __future__ import annotations

from pathlib import Path

import msgspec

from kgdiff.errors import InputError
from kgdiff.ingest.detect import JSON_DUMP, XML_DUMP
from kgdiff.ingest.tally import Tally
from kgdiff.readers.wikidata_xml import XmlStats

NOTHING_PUBLISHED = "nothing was published"


class NoEntityError(InputError):
    """The input gave no entity; ``malformed`` tells whether it held malformed ones (whose
    rejects are worth keeping in the staging folder)."""

    def __init__(self, message: str, malformed: bool) -> None:
        super().__init__(message)
        self.malformed = malformed


def _first_reject(files: list[Path]) -> str:
    """``line N: error`` of the first reject recorded, '' when none can be read."""
    for path in files:
        with path.open("rb") as handle:
            first = handle.readline()
        try:
            record = msgspec.json.decode(first)
        except msgspec.DecodeError:
            continue
        return f"the first at line {record.get('line')}: {record.get('error')}"
    return ""


def _pages(count: int, what: str = "page") -> str:
    return f"{count:,} {what}" + ("" if count == 1 else "s")


def _xml_seen(stats: XmlStats, day: str) -> str:
    if stats.skipped_after_cutoff:
        later = _pages(stats.skipped_after_cutoff, "entity page")
        return f"{later} whose first revision is after --date {day}: choose a later date"
    if stats.skipped_deleted:
        return f"{_pages(stats.skipped_deleted, 'entity page')} whose texts are all deleted"
    if stats.pages:
        return f"{_pages(stats.pages)}, none of them a Wikibase entity"
    return "no page"


def _what_was_seen(kind: str, framing: str | None, stats: XmlStats, day: str) -> str:
    if kind == XML_DUMP:
        return _xml_seen(stats, day)
    if kind == JSON_DUMP:
        return "an empty JSON array" if framing == "array" else "no entity line"
    return "a JSON document without entities"


def refuse_without_entities(
    path: Path,
    kind: str,
    tally: Tally,
    rejects: list[Path],
    framing: str | None,
    stats: XmlStats,
    day: str,
) -> None:
    """Raise :class:`NoEntityError` when the parse gave no entity: what the input held instead
    (``framing``: the JSON dump's ``array`` or ``lines``; ``stats``: the XML dump's pages),
    or the first of its malformed entities (``rejects``: their files)."""
    if tally.entities:
        return
    if tally.rejects:
        first = _first_reject(rejects)
        detail = f" ({first})" if first else ""
        raise NoEntityError(
            f"{path} holds no entity that could be read: all {tally.rejects:,} were "
            f"malformed{detail}; {NOTHING_PUBLISHED}; see {tally.where}/parts/*/rejects.jsonl",
            malformed=True,
        )
    seen = _what_was_seen(kind, framing, stats, day)
    raise NoEntityError(f"{path} holds no entity ({seen}); {NOTHING_PUBLISHED}", malformed=False)
