"""Pick, page by page, the revision in force at a date out of a stream of revisions."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime

from kgdiff.readers.mediawiki_xml import PageInfo, Revision
from kgdiff.wikipedia.rows import parse_timestamp


@dataclass(slots=True)
class SelectionStats:
    """What the selection saw: pages, revisions, and pages with nothing in force yet."""

    pages: int = 0
    revisions: int = 0
    revisions_after_date: int = 0
    pages_after_date: int = 0
    """Pages whose every revision is later than the date: they did not exist yet."""
    max_revisions_per_page: int = 0


def pages_in_force(
    revisions: Iterable[Revision],
    until: datetime,
    stats: SelectionStats,
    on_revision: Callable[[Revision], None] | None = None,
) -> Iterator[Revision]:
    """Yield, for every page, its latest revision at or before ``until`` (by timestamp, then id).

    ``on_revision`` sees every revision first (for a table of all revisions). Only one
    revision per page is held at a time, so memory does not grow with a page's history."""
    page: PageInfo | None = None
    best: Revision | None = None
    best_key: tuple[datetime, int] | None = None
    count = 0
    for revision in revisions:
        if revision.page is not page:
            yield from _finish_page(page, best, count, stats)
            page, best, best_key, count = revision.page, None, None, 0
        count += 1
        stats.revisions += 1
        if on_revision is not None:
            on_revision(revision)
        key = (parse_timestamp(revision.timestamp), revision.revision_id)
        if key[0] > until:
            stats.revisions_after_date += 1
        elif best_key is None or key > best_key:
            best, best_key = revision, key
    yield from _finish_page(page, best, count, stats)


def _finish_page(
    page: PageInfo | None, best: Revision | None, count: int, stats: SelectionStats
) -> Iterator[Revision]:
    if page is None:
        return
    stats.pages += 1
    stats.max_revisions_per_page = max(stats.max_revisions_per_page, count)
    if best is None:
        stats.pages_after_date += 1
    else:
        yield best
