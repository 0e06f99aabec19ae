"""``kgdiff fetch incr``: the daily incremental dumps of a wiki over a range of days.

Wikimedia publishes, for each day, ``other/incr/WIKI/YYYYMMDD/`` with
``WIKI-YYYYMMDD-pages-meta-hist-incr.xml.bz2`` (every revision made that day) and
``WIKI-YYYYMMDD-md5sums.txt``. Each day's dump is downloaded by :func:`~kgdiff.fetch.download.fetch`
(resumed from its ``.part``, verified against the day's checksum list, kept under its own
name; a day already downloaded and verified is not fetched again), and the checksum list is
kept beside it. A day whose checksum list is not published, or does not list the dump, is
reported missing: the others are still fetched.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path

import requests

from kgdiff.errors import UsageError
from kgdiff.fetch.checksums import find_entry, parse_checksums
from kgdiff.fetch.download import FetchProgress, FetchResult, fetch
from kgdiff.fetch.published import fetch_text
from kgdiff.fetch.transfer import RetryPolicy, new_session

INCR_BASE_URL = "https://dumps.wikimedia.org/other/incr"
MAX_DAYS = 3660
"""At most ten years of days in one command."""
_WIKI = re.compile(r"[a-z0-9_]{2,40}")
ABSENT = frozenset({403, 404, 410})


def incremental_name(wiki: str, day: date) -> str:
    """The file name of a day's incremental dump."""
    return f"{wiki}-{day:%Y%m%d}-pages-meta-hist-incr.xml.bz2"


def checksums_name(wiki: str, day: date) -> str:
    """The file name of a day's checksum list."""
    return f"{wiki}-{day:%Y%m%d}-md5sums.txt"


def day_url(base_url: str, wiki: str, day: date, name: str) -> str:
    """The URL of a file of the day's folder."""
    return f"{base_url.rstrip('/')}/{wiki}/{day:%Y%m%d}/{name}"


def days(first: date, last: date) -> Iterator[date]:
    """Every day from ``first`` to ``last``, both included."""
    if last < first:
        raise UsageError(f"--to {last} is before --from {first}; give --from first")
    if (last - first).days >= MAX_DAYS:
        raise UsageError(f"--from {first} to --to {last} is more than {MAX_DAYS} days; split it")
    for offset in range((last - first).days + 1):
        yield first + timedelta(days=offset)


@dataclass(frozen=True)
class IncrementalResult:
    """The days downloaded (each dump's result) and the days not published."""

    fetched: list[FetchResult]
    missing: list[date]


@dataclass(frozen=True)
class IncrementalRequest:
    """Which days of which wiki, from where, to where."""

    wiki: str
    first: date
    last: date
    out: Path
    base_url: str = INCR_BASE_URL
    retries: int = 5


def _keep_checksums(out: Path, name: str, text: str) -> None:
    """Write the day's checksum list beside its dump (whole, by a rename)."""
    target = out / name
    temporary = target.with_name(f".{name}.tmp-{os.getpid()}")
    temporary.write_text(text, encoding="utf-8")
    temporary.replace(target)


def fetch_incremental(
    request: IncrementalRequest,
    session: requests.Session | None = None,
    progress: FetchProgress | None = None,
    on_day: Callable[[FetchResult], None] | None = None,
) -> IncrementalResult:
    """Download every published day of ``request`` (see the module docstring)."""
    if not _WIKI.fullmatch(request.wiki):
        raise UsageError(f"--wiki {request.wiki!r} is no wiki database name (like wikidatawiki)")
    session = session if session is not None else new_session()
    policy = RetryPolicy(request.retries)
    request.out.mkdir(parents=True, exist_ok=True)
    fetched, missing = [], []
    for day in days(request.first, request.last):
        name, sums = incremental_name(request.wiki, day), checksums_name(request.wiki, day)
        sums_url = day_url(request.base_url, request.wiki, day, sums)
        text = fetch_text(session, sums_url, policy, absent=ABSENT)
        if text is None or find_entry(parse_checksums(text.splitlines(), sums_url), name) is None:
            missing.append(day)
            continue
        url = day_url(request.base_url, request.wiki, day, name)
        result = fetch(
            url,
            request.out,
            checksum_url=sums_url,
            session=session,
            progress=progress,
            retries=request.retries,
        )
        _keep_checksums(request.out, sums, text)
        fetched.append(result)
        if on_day is not None:
            on_day(result)
    return IncrementalResult(fetched, missing)
