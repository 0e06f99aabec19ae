"""What a page view file holds, told by its name, and its bytes, whatever the compression.

=====================================  ==========  ======  ================================
file name                              layout      period  period start
=====================================  ==========  ======  ================================
``pageviews-20190701-210000[.gz]``     hourly      hour    2019-07-01 21:00 (start of hour)
``pagecounts-20090101-010000[.gz]``    hourly      hour    2009-01-01 00:00 (name = end)
``pageviews-20230101-user.bz2``        complete    day     2023-01-01
``pageviews-202301-user.bz2``          complete    month   2023-01-01
=====================================  ==========  ======  ================================

*Hourly* lines are ``domain_code page_title count_views total_response_size``; *complete*
lines are ``wiki_code title page_id access daily_total [letter-coded counts]``. The legacy
``pagecounts-*`` files (pagecounts-raw, pagecounts-all-sites) percent-encode their titles
and name each file after the *end* of its hour (Wikitech, "Pagecounts-all-sites": one
hour later than the ``pageviews-*`` files, which are named after the start).
"""

from __future__ import annotations

import bz2
import gzip
import io
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta
from pathlib import Path

from kgdiff.errors import InputError, UsageError

HOURLY = "hourly"
COMPLETE = "complete"
PERIODS = ("hour", "day", "month")
AGENTS = ("user", "automated", "spider")
ALL_AGENTS = "all-agents"

_HOURLY_NAME = re.compile(r"(pageviews|pagecounts)-(\d{8})-(\d{6})(?!\d)")
_COMPLETE_NAME = re.compile(r"pageviews-(\d{6}|\d{8})-(user|automated|spider)(?![a-z])")
_MAGIC = ((b"\x1f\x8b", "gzip"), (b"BZh", "bzip2"))


@dataclass(frozen=True, slots=True)
class DumpInfo:
    """How to read a page view file: its layout, period, period start and agent."""

    layout: str | None
    """``hourly`` or ``complete``; ``None``: tell from the first line."""
    period: str | None
    start: datetime | None
    """The start of the period the file covers (UTC; hour precision for hourly files)."""
    agent: str = ALL_AGENTS
    legacy: bool = False
    """``pagecounts-*``: percent-encoded titles."""

    def complete(self, name: str = "page view file") -> DumpInfo:
        """This description with its period and start checked (a usage error naming the
        file ``name`` otherwise)."""
        if self.period is None:
            raise UsageError(
                f"{name}: cannot tell the period from the file name; pass --period hour|day|month"
            )
        if self.start is None:
            raise UsageError(
                f"{name}: no date in the file name (like pageviews-20230101-user.bz2); pass --date"
            )
        return self


def describe_dump(path: Path, period: str | None = None, start: str | None = None) -> DumpInfo:
    """What ``path``'s name says, with ``period`` (hour|day|month) and ``start``
    (``YYYY-MM-DD``, ``YYYY-MM-DDTHH`` or ``YYYY-MM``) overriding it."""
    info = _from_name(path.name)
    if period is not None:
        if period not in PERIODS:
            raise UsageError(f"--period {period!r}: use one of {', '.join(PERIODS)}")
        layout = info.layout or (HOURLY if period == "hour" else None)
        info = replace(info, period=period, layout=layout)
    if start is not None:
        info = replace(info, start=_parse_start(start))
    return info


def _from_name(name: str) -> DumpInfo:
    hourly = _HOURLY_NAME.search(name)
    if hourly is not None:
        stamp = _stamp(f"{hourly[2]}{hourly[3]}", "%Y%m%d%H%M%S")
        legacy = hourly[1] == "pagecounts"
        if stamp is not None and legacy:
            stamp -= timedelta(hours=1)
        agent = ALL_AGENTS if legacy else "user"
        return DumpInfo(HOURLY, "hour", stamp, agent, legacy)
    complete = _COMPLETE_NAME.search(name)
    if complete is not None:
        monthly = len(complete[1]) == 6
        stamp = _stamp(complete[1], "%Y%m" if monthly else "%Y%m%d")
        return DumpInfo(COMPLETE, "month" if monthly else "day", stamp, complete[2])
    legacy = name.startswith("pagecounts")
    return DumpInfo(
        HOURLY if legacy else None, "hour" if legacy else None, None, ALL_AGENTS, legacy
    )


def _stamp(text: str, form: str) -> datetime | None:
    try:
        return datetime.strptime(text, form)
    except ValueError:
        return None


def _parse_start(text: str) -> datetime:
    for form in ("%Y-%m-%dT%H", "%Y-%m-%d", "%Y-%m"):
        stamp = _stamp(text, form)
        if stamp is not None:
            return stamp
    raise UsageError(f"--date {text!r} is not a date; write YYYY-MM-DD, YYYY-MM-DDTHH or YYYY-MM")


def period_start(info: DumpInfo) -> date:
    """The ``period_start`` date of every row of a file (the 1st for a month)."""
    start = info.complete().start
    assert start is not None
    day = start.date()
    return day.replace(day=1) if info.period == "month" else day


def detect_compression(path: Path) -> str:
    """``gzip``, ``bzip2`` or ``none``, from the file's first bytes."""
    with path.open("rb") as handle:
        head = handle.read(3)
    return next((name for magic, name in _MAGIC if head.startswith(magic)), "none")


@contextmanager
def open_dump(path: Path) -> Iterator[io.BufferedIOBase]:
    """The decompressed bytes of ``path`` (gzip, bzip2 with any number of streams, plain).

    An unreadable file is an :class:`InputError` naming it."""
    try:
        stream = _open(path, detect_compression(path))
    except OSError as exc:
        raise InputError(f"{path}: cannot open ({exc.strerror or exc}); check the path") from exc
    with stream:
        yield stream


def _open(path: Path, method: str) -> io.BufferedIOBase:
    if method == "gzip":
        return gzip.GzipFile(path, "rb")
    if method == "bzip2":
        return bz2.BZ2File(path, "rb")
    return path.open("rb")
