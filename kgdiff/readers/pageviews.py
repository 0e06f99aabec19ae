"""Page view rows out of Wikimedia dump files: hourly ``pageviews``/``pagecounts`` and
"pageview complete" daily or monthly files (see :mod:`kgdiff.readers.pageview_files`).

One :class:`PageviewRow` per line, titles with spaces (and percent-decoded for legacy
``pagecounts``), wikis as database names (:mod:`kgdiff.readers.pageview_codes`). A
malformed line is counted in :class:`PageviewStats` under its reason, with the first few
line numbers kept; it never stops the read unless ``max_rejects`` is exceeded.
"""

from __future__ import annotations

import calendar
import re
import zlib
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from urllib.parse import unquote_to_bytes

from kgdiff.errors import InputError, TooManyRejectsError
from kgdiff.readers.pageview_codes import dump_site, project_wiki
from kgdiff.readers.pageview_counts import HOURS, CountsError, decode_counts
from kgdiff.readers.pageview_files import (
    AGENTS,
    COMPLETE,
    HOURLY,
    DumpInfo,
    open_dump,
    period_start,
)

KEPT_LINE_NUMBERS = 5
ALL_ACCESS = "all-access"
ACCESS_METHODS = ("desktop", "mobile-web", "mobile-app")
_NUMBER = re.compile(r"[0-9]{1,18}")


@dataclass(frozen=True, slots=True)
class PageviewRow:
    """Views of one page in one period, as the store keeps them."""

    wiki: str
    title: str
    period_start: date
    period: str
    access: str
    agent: str
    views: int


@dataclass
class PageviewStats:
    """Counts of one read, updated as it goes."""

    source: str = ""
    max_rejects: int | None = None
    lines: int = 0
    rows: int = 0
    views: int = 0
    unverified: int = 0
    """Complete lines without letter-coded counts (their total taken as it is)."""
    rejects: dict[str, int] = field(default_factory=dict)
    reject_lines: dict[str, list[int]] = field(default_factory=dict)
    skipped: dict[str, int] = field(default_factory=dict)
    """Well-formed lines left out: other wikis, project totals, blank lines."""

    @property
    def rejected(self) -> int:
        """Malformed lines so far."""
        return sum(self.rejects.values())

    def reject(self, reason: str, line: int) -> None:
        """Count a malformed line; raise once more than ``max_rejects`` were seen."""
        self.rejects[reason] = self.rejects.get(reason, 0) + 1
        kept = self.reject_lines.setdefault(reason, [])
        if len(kept) < KEPT_LINE_NUMBERS:
            kept.append(line)
        if self.max_rejects is not None and self.rejected > self.max_rejects:
            raise TooManyRejectsError(
                f"{self.source}: line {line}: more than {self.max_rejects} malformed lines "
                f"({_summary(self.rejects)}); check the file or raise --max-rejects"
            )

    def skip(self, reason: str) -> None:
        """Count a well-formed line that is left out."""
        self.skipped[reason] = self.skipped.get(reason, 0) + 1


def _summary(counts: dict[str, int]) -> str:
    return ", ".join(f"{reason}: {count}" for reason, count in sorted(counts.items()))


class _RejectError(Exception):
    """A malformed line (internal: caught and counted by the loop)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def iter_pageviews(
    path: Path,
    info: DumpInfo,
    stats: PageviewStats | None = None,
    wikis: Collection[str] | None = None,
) -> Iterator[PageviewRow]:
    """Yield the rows of the page view file ``path`` (gz, bz2 or plain), read as ``info``
    says; ``wikis`` keeps only those database names."""
    stats = stats if stats is not None else PageviewStats(source=str(path))
    info.complete(str(path))
    with open_dump(path) as stream:
        try:
            yield from iter_lines(stream, info, stats, wikis)
        except (OSError, EOFError, zlib.error) as exc:
            raise InputError(
                f"{path}: after line {stats.lines}: {exc}; the file is corrupt or truncated, "
                "download it again"
            ) from exc


def iter_lines(
    lines: Iterable[bytes],
    info: DumpInfo,
    stats: PageviewStats,
    wikis: Collection[str] | None = None,
) -> Iterator[PageviewRow]:
    """Yield the rows of dump ``lines`` (bytes, with or without line ends)."""
    day = period_start(info)
    layout = info.layout
    for number, raw in enumerate(lines, start=1):
        stats.lines = number
        text = raw.rstrip(b"\r\n")
        if not text.strip():
            stats.skip("blank")
            continue
        layout = layout or (COMPLETE if text.count(b" ") >= 4 else HOURLY)
        try:
            row = _parse(text, layout, info, day)
        except _RejectError as exc:
            stats.reject(exc.reason, number)
            continue
        if row is None:
            stats.skip("project_total")
        elif wikis is not None and row.wiki not in wikis:
            stats.skip("other_wiki")
        else:
            stats.rows += 1
            stats.views += row.views
            if layout == COMPLETE and text.count(b" ") == 4:  # no letter-coded counts to check
                stats.unverified += 1
            yield row


def _parse(raw: bytes, layout: str, info: DumpInfo, day: date) -> PageviewRow | None:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise _RejectError("bad_utf8") from None
    fields = text.split(" ")
    if layout == HOURLY:
        return _hourly(fields, info, day)
    return _complete(fields, info, day)


def _hourly(fields: list[str], info: DumpInfo, day: date) -> PageviewRow | None:
    """``domain_code page_title count_views total_response_size``."""
    if len(fields) != 4:
        raise _RejectError("field_count")
    code, title, views, size = fields
    site = dump_site(code)
    if site is None:
        raise _RejectError("unknown_domain")
    count = _number(views)
    _number(size)
    if site.aggregate:
        return None
    name = _legacy_title(title) if info.legacy else title
    return PageviewRow(
        site.wiki, _title(name), day, info.period or "hour", site.access, info.agent, count
    )


def _complete(fields: list[str], info: DumpInfo, day: date) -> PageviewRow:
    """``wiki_code article_title page_id access daily_total [letter-coded counts]``."""
    if len(fields) not in (5, 6):
        raise _RejectError("field_count")
    code, title, page_id, kind, total = fields[:5]
    wiki = project_wiki(code)
    if wiki is None:
        raise _RejectError("unknown_domain")
    if page_id != "null" and not _NUMBER.fullmatch(page_id):
        raise _RejectError("bad_page_id")
    access, agent = _access_agent(kind, info.agent)
    views = _number(total)
    if len(fields) == 6:
        _check_counts(fields[5], views, info.period, day)
    name = _unwrap(title)
    return PageviewRow(wiki, _title(name), day, info.period or "day", access, agent, views)


def _access_agent(kind: str, agent: str) -> tuple[str, str]:
    """The access method or, in older files, the agent type of the fourth field."""
    if kind in ACCESS_METHODS:
        return kind, agent
    if kind in AGENTS:
        return ALL_ACCESS, kind
    raise _RejectError("bad_access")


def _check_counts(text: str, total: int, period: str | None, day: date) -> None:
    slots = calendar.monthrange(day.year, day.month)[1] if period == "month" else HOURS
    try:
        counts = decode_counts(text, slots)
    except CountsError:
        raise _RejectError("bad_counts") from None
    if sum(counts.values()) != total:
        raise _RejectError("total_mismatch")


def _number(text: str) -> int:
    if not _NUMBER.fullmatch(text):
        raise _RejectError("bad_number")
    return int(text)


def _title(name: str) -> str:
    if not name:
        raise _RejectError("empty_title")
    return name.replace("_", " ")


def _unwrap(title: str) -> str:
    """Complete files wrap a title holding ``"`` in quotes and escape it as ``\\"``."""
    if len(title) >= 2 and title[0] == title[-1] == '"':
        return title[1:-1].replace('\\"', '"')
    return title


def _legacy_title(title: str) -> str:
    """A percent-encoded legacy title, decoded as UTF-8."""
    try:
        return unquote_to_bytes(title).decode("utf-8")
    except UnicodeDecodeError:
        raise _RejectError("bad_utf8") from None
