"""Monthly views of single articles from the Wikimedia REST API (AQS), when online.

``GET {base}/metrics/pageviews/per-article/{project}/{access}/{agent}/{article}/monthly/
{start}/{end}`` answers ``{"items": [{"project", "article", "granularity", "timestamp",
"access", "agent", "views"}, ...]}``; a 404 means no data (an empty result). Throttling
(429) and server errors (5xx) are retried with exponential backoff, honouring
``Retry-After``. Answers can be cached on disk as JSON, one file per URL.
"""

from __future__ import annotations

import calendar
import hashlib
import json
import os
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

import requests

from kgdiff.errors import InputError, UsageError
from kgdiff.readers.pageview_codes import wiki_project
from kgdiff.readers.pageviews import PageviewRow
from kgdiff.version import __version__

DEFAULT_BASE = "https://wikimedia.org/api/rest_v1"
USER_AGENT = (
    f"kgdiff/{__version__} (temporal knowledge graph research tool) requests/{requests.__version__}"
)
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
MAX_WAIT_SECONDS = 120.0


def parse_month(text: str, option: str) -> date:
    """``YYYY-MM`` as the first day of that month; a usage error naming ``option``."""
    try:
        return datetime.strptime(text, "%Y-%m").date()
    except ValueError as exc:
        raise UsageError(f"{option} {text!r} is not a month; write it as YYYY-MM") from exc


def _session() -> requests.Session:
    session = requests.Session()
    session.headers["User-Agent"] = USER_AGENT
    return session


@dataclass
class PageviewsApi:
    """A small client of the per-article page view endpoint."""

    base: str = DEFAULT_BASE
    cache_dir: Path | None = None
    retries: int = 5
    backoff: float = 1.0
    timeout: float = 30.0
    session: requests.Session = field(default_factory=_session)
    sleep: Callable[[float], None] = time.sleep

    def url(self, wiki: str, title: str, first: date, last: date, access: str, agent: str) -> str:
        """The request URL for ``title`` of ``wiki`` from month ``first`` to month ``last``."""
        project = wiki_project(wiki)
        if project is None:
            raise UsageError(f"--wiki {wiki!r}: not a Wikimedia database name like enwiki")
        article = quote(title.replace(" ", "_"), safe="")
        end = last.replace(day=calendar.monthrange(last.year, last.month)[1])
        span = f"{first:%Y%m}0100/{end:%Y%m%d}00"
        return (
            f"{self.base.rstrip('/')}/metrics/pageviews/per-article/{project}/{access}/{agent}/"
            f"{article}/monthly/{span}"
        )

    def monthly(
        self,
        wiki: str,
        title: str,
        first: date,
        last: date,
        access: str = "all-access",
        agent: str = "user",
    ) -> list[PageviewRow]:
        """Monthly rows of ``title`` (empty when the API has no data for it)."""
        url = self.url(wiki, title, first, last, access, agent)
        body = self._cached(url)
        return [_row(wiki, title, item, access, agent, url) for item in _items(body, url)]

    def _cached(self, url: str) -> dict[str, Any]:
        path = None
        if self.cache_dir is not None:
            path = self.cache_dir / f"{hashlib.sha256(url.encode()).hexdigest()[:32]}.json"
            if path.is_file():
                cached: dict[str, Any] = json.loads(path.read_text("utf-8"))
                return cached
        body = self._get(url)
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
            tmp.write_text(json.dumps(body), "utf-8")
            tmp.replace(path)
        return body

    def _get(self, url: str) -> dict[str, Any]:
        for attempt in range(self.retries + 1):
            last_try = attempt == self.retries
            try:
                response = self.session.get(url, timeout=self.timeout)
            except (requests.ConnectionError, requests.Timeout) as exc:
                if last_try:
                    raise InputError(
                        f"{url}: cannot reach the page view API ({exc}); check the network "
                        "or --api-base"
                    ) from exc
                self.sleep(self.backoff * 2**attempt)
                continue
            if response.status_code in RETRY_STATUSES and not last_try:
                self.sleep(_wait(response, self.backoff * 2**attempt))
                continue
            return _body(response, url)
        raise AssertionError("unreachable")  # the last attempt always returns or raises


def _wait(response: requests.Response, default: float) -> float:
    """Seconds to wait before retrying: ``Retry-After`` (seconds or a date), else ``default``."""
    header = response.headers.get("Retry-After")
    if header is None:
        return default
    try:
        seconds = float(header)
    except ValueError:
        try:
            seconds = (parsedate_to_datetime(header) - datetime.now(UTC)).total_seconds()
        except (TypeError, ValueError):
            return default
    return min(max(seconds, 0.0), MAX_WAIT_SECONDS)


def _body(response: requests.Response, url: str) -> dict[str, Any]:
    if response.status_code == 404:
        return {"items": []}
    if response.status_code != 200:
        detail = response.text[:200].replace("\n", " ")
        raise InputError(
            f"{url}: HTTP {response.status_code} ({detail}); check the title, wiki and months"
        )
    try:
        body = response.json()
    except ValueError as exc:
        raise InputError(f"{url}: the answer is not JSON; check --api-base") from exc
    if not isinstance(body, dict):
        raise InputError(f"{url}: expected a JSON object with 'items'; check --api-base")
    return body


def _items(body: dict[str, Any], url: str) -> list[dict[str, Any]]:
    items = body.get("items", [])
    if not isinstance(items, list) or not all(isinstance(item, dict) for item in items):
        raise InputError(f"{url}: 'items' is not a list of objects; check --api-base")
    return items


def _row(
    wiki: str, title: str, item: dict[str, Any], access: str, agent: str, url: str
) -> PageviewRow:
    stamp, views = item.get("timestamp"), item.get("views")
    try:
        day = datetime.strptime(str(stamp)[:8], "%Y%m%d").date()
    except ValueError as exc:
        raise InputError(f"{url}: item timestamp {stamp!r} is not YYYYMMDDHH") from exc
    if not isinstance(views, int) or isinstance(views, bool) or views < 0:
        raise InputError(f"{url}: item views {views!r} is not a count")
    access = str(item.get("access") or access)
    agent = str(item.get("agent") or agent)
    name = title.replace("_", " ")  # the asked title, as the store writes titles
    return PageviewRow(wiki, name, day.replace(day=1), "month", access, agent, views)


def fetch_monthly(
    api: PageviewsApi, wiki: str, titles: Iterable[str], first: date, last: date
) -> Iterator[PageviewRow]:
    """Monthly rows of every title in ``titles``, one request (or cache hit) per title."""
    if first > last:
        raise UsageError(f"--from {first:%Y-%m} is after --to {last:%Y-%m}")
    for title in titles:
        yield from api.monthly(wiki, title, first, last)
