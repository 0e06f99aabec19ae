"""A polite MediaWiki Action API client on top of mwclient.

mwclient sends the requests (its session, User-Agent, gzip); this layer adds what a
benchmark build over thousands of pages needs: each HTTP request is counted against a
budget, failures that may pass (connection errors, HTTP 5xx/429, database lag, read-only
mode) are retried with exponential backoff, anything else becomes one
:class:`~kgdiff.wikiapi.errors.WikiApiError` line naming the wiki, the page and the API's
error code. mwclient's own retries are switched off (``max_retries=0``) so that every
attempt passes through here and is counted.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import mwclient
import requests
from requests.exceptions import ChunkedEncodingError

from kgdiff.version import __version__
from kgdiff.wikiapi.cache import RevisionCache
from kgdiff.wikiapi.errors import RequestBudgetError, WikiApiError

DEFAULT_USER_AGENT = f"kgdiff/{__version__} (research benchmark builder; contact via --user-agent)"
_RETRY_CODES = frozenset({"maxlag", "ratelimited", "readonly", "internal_api_error_DBQueryError"})
_RETRY_STATUS = frozenset({408, 429})

Params = Mapping[str, str | int]


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how patiently a failing request is tried again."""

    max_retries: int = 5
    base_delay: float = 1.0
    max_delay: float = 60.0

    def delay(self, attempt: int) -> float:
        """Seconds to wait after failed attempt number ``attempt`` (0-based)."""
        return float(min(self.max_delay, self.base_delay * 2**attempt))


class _RetryableError(Exception):
    """An attempt failed in a way that may pass; the message says how."""


class WikiClient:
    """One wiki's API: requests counted and budgeted, retried, and a revision text cache."""

    def __init__(
        self,
        host: str,
        *,
        path: str = "/w/",
        scheme: str = "https",
        user_agent: str | None = None,
        max_requests: int | None = None,
        cache_dir: Path | None = None,
        retry: RetryPolicy | None = None,
        timeout: float = 30.0,
        max_lag: int | None = 5,
    ) -> None:
        self.site_id = f"{scheme}://{host}{path}"
        self.site = mwclient.Site(
            host, path=path, scheme=scheme, clients_useragent=user_agent or DEFAULT_USER_AGENT,
            do_init=False, max_retries=0, retry_timeout=0,
            connection_options={"timeout": timeout},
        )  # fmt: skip
        self.max_requests = max_requests
        self.requests_made = 0
        """HTTP requests sent so far (every retry counts)."""
        self.cache = None if cache_dir is None else RevisionCache(cache_dir)
        self.retry = retry or RetryPolicy()
        self.max_lag = max_lag

    @classmethod
    def from_api_url(cls, api_url: str, **options: Any) -> WikiClient:
        """A client for ``https://host/w/api.php`` (scheme, host and path taken from it)."""
        parts = urlsplit(api_url)
        folder = parts.path.rsplit("/", 1)[0] + "/"
        if not parts.netloc or not parts.path.endswith("api.php"):
            raise WikiApiError(f"{api_url}: not an api.php URL (e.g. https://host/w/api.php)")
        return cls(parts.netloc, path=folder, scheme=parts.scheme or "https", **options)

    def query(self, params: Params, title: str | None = None) -> dict[str, Any]:
        """One ``action=query`` answer (``formatversion=2``); ``title`` names the page in
        error messages."""
        full = {"formatversion": 2, "continue": "", **params}
        if self.max_lag is not None:
            full["maxlag"] = self.max_lag
        where = self.site_id if title is None else f"{self.site_id} ({title!r})"
        attempt = 0
        while True:
            self._spend(where)
            try:
                return self._attempt(full, where)
            except _RetryableError as failure:
                if attempt >= self.retry.max_retries:
                    raise WikiApiError(
                        f"{where}: gave up after {attempt + 1} attempts ({failure}); "
                        "check the URL and your connection, or try again later"
                    ) from None
                time.sleep(self.retry.delay(attempt))
                attempt += 1

    def query_pages(self, params: Params, title: str | None = None) -> Iterator[dict[str, Any]]:
        """Answers of a query followed through its continuations, fetched one at a time
        as they are consumed (stop early, and no further request is made)."""
        extra: dict[str, str] = {}
        while True:
            answer = self.query({**params, **extra}, title)
            yield answer
            cont = answer.get("continue")
            if not isinstance(cont, Mapping):
                return
            extra = {str(k): str(v) for k, v in cont.items()}

    def _spend(self, where: str) -> None:
        if self.max_requests is not None and self.requests_made >= self.max_requests:
            raise RequestBudgetError(
                f"{where}: the budget of {self.max_requests} API requests is used up; "
                "allow more requests or use the cache from an earlier run"
            )
        self.requests_made += 1

    def _attempt(self, params: Params, where: str) -> dict[str, Any]:
        try:
            answer = self.site.raw_api("query", "GET", retry_on_error=False, **params)
        except (requests.ConnectionError, requests.Timeout, ChunkedEncodingError) as exc:
            raise _RetryableError(f"connection failed: {type(exc).__name__}") from None
        except requests.HTTPError as exc:
            status = 0 if exc.response is None else exc.response.status_code
            if status >= 500 or status in _RETRY_STATUS:
                raise _RetryableError(f"HTTP {status}") from None
            raise WikiApiError(f"{where}: HTTP {status}; check the API URL") from None
        except requests.RequestException as exc:
            raise WikiApiError(f"{where}: request failed: {type(exc).__name__}") from None
        except mwclient.errors.MaximumRetriesExceeded:
            raise _RetryableError("database lag above maxlag") from None
        except (mwclient.errors.InvalidResponse, mwclient.errors.APIDisabledError):
            raise WikiApiError(f"{where}: the answer is not API JSON; check the URL") from None
        if not isinstance(answer, dict):
            raise WikiApiError(f"{where}: the answer is not a JSON object; check the URL")
        error = answer.get("error")
        if error is None:
            return answer
        code = str(error.get("code", "unknown")) if isinstance(error, dict) else "unknown"
        info = " ".join(str(error.get("info", "")).split()) if isinstance(error, dict) else ""
        if code in _RETRY_CODES:
            raise _RetryableError(f"API error {code}")
        raise WikiApiError(f"{where}: API error {code}: {info}")
