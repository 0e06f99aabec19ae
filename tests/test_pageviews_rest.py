"""The page view REST client and ``pageviews fetch`` against a real HTTP server on loopback
that answers like the Wikimedia per-article endpoint (one 429 with ``Retry-After: 0``
per article, a 404 article, a broken article that always fails)."""

from __future__ import annotations

import json
import math
import threading
from collections.abc import Iterator
from datetime import date
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from kgdiff import __version__
from kgdiff.cli.pageviews import pageviews_fetch_command, popularity_command
from kgdiff.errors import InputError, UsageError
from kgdiff.pageviews import popularity
from kgdiff.pageviews.rest import PageviewsApi, fetch_monthly
from kgdiff.readers.pageviews import PageviewRow
from kgdiff.store.layout import StoreLayout

PREFIX = "/api/rest_v1/metrics/pageviews/per-article/"


class AqsServer(ThreadingHTTPServer):
    """Serves monthly views: 100 × (month number since the start) for every article."""

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), AqsHandler)
        self.hits: list[str] = []
        self.agents: list[str] = []
        self.throttled: set[str] = set()
        self.lock = threading.Lock()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/api/rest_v1"


class AqsHandler(BaseHTTPRequestHandler):
    server: AqsServer

    def log_message(self, format: str, *args: object) -> None:  # quiet test output
        pass

    def do_GET(self) -> None:
        with self.server.lock:
            self.server.hits.append(self.path)
            self.server.agents.append(self.headers.get("User-Agent", ""))
        parts = self.path.removeprefix(PREFIX).split("/")
        project, access, agent, article, granularity, start, end = parts
        if article == "Missing_page":
            return self.reply(404, {"type": "not_found", "title": "Not found."})
        if article == "Broken":
            return self.reply(503, {"title": "Service unavailable"})
        with self.server.lock:
            first_time = article not in self.server.throttled
            self.server.throttled.add(article)
        if first_time:
            return self.reply(429, {"title": "Too many requests"}, {"Retry-After": "0"})
        items = [
            {"project": project.removesuffix(".org"), "article": article,
             "granularity": granularity, "timestamp": f"{month}0100", "access": access,
             "agent": agent, "views": 100 * index}
            for index, month in enumerate(months(start, end), start=1)
        ]  # fmt: skip
        return self.reply(200, {"items": items})

    def reply(self, status: int, body: object, headers: dict[str, str] | None = None) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)


def months(start: str, end: str) -> Iterator[str]:
    """``YYYYMM`` of every month from ``start`` to ``end`` (``YYYYMMDDHH`` stamps)."""
    year, month = int(start[:4]), int(start[4:6])
    while f"{year}{month:02d}" <= end[:6]:
        yield f"{year}{month:02d}"
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)


@pytest.fixture
def server() -> Iterator[AqsServer]:
    httpd = AqsServer()
    thread = threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    yield httpd
    httpd.shutdown()
    httpd.server_close()


def month_row(title: str, month: int, views: int) -> PageviewRow:
    return PageviewRow("enwiki", title, date(2023, month, 1), "month", "all-access", "user", views)


def test_monthly_views_with_a_retry(server: AqsServer) -> None:
    sleeps: list[float] = []
    api = PageviewsApi(base=server.base, sleep=sleeps.append)
    rows = api.monthly("enwiki", "Albert Einstein", date(2023, 1, 1), date(2023, 3, 1))
    assert rows == [
        month_row("Albert Einstein", 1, 100),
        month_row("Albert Einstein", 2, 200),
        month_row("Albert Einstein", 3, 300),
    ]
    url = PREFIX + "en.wikipedia.org/all-access/user/Albert_Einstein/monthly/2023010100/2023033100"
    assert server.hits == [url, url]
    assert sleeps == [0.0]
    assert server.agents[0].startswith(f"kgdiff/{__version__} ")


def test_missing_article_and_encoded_titles(server: AqsServer) -> None:
    api = PageviewsApi(base=server.base, sleep=lambda _: None)
    assert api.monthly("enwiki", "Missing page", date(2023, 1, 1), date(2023, 1, 1)) == []
    rows = api.monthly("dewiki", "AC/DC", date(2023, 2, 1), date(2023, 2, 1))
    assert [(r.wiki, r.title, r.period_start, r.views) for r in rows] == [
        ("dewiki", "AC/DC", date(2023, 2, 1), 100)
    ]
    assert server.hits[-1].startswith(PREFIX + "de.wikipedia.org/all-access/user/AC%2FDC/monthly/")


def test_cache_answers_without_the_server(server: AqsServer, tmp_path: Path) -> None:
    api = PageviewsApi(base=server.base, cache_dir=tmp_path / "cache", sleep=lambda _: None)
    first = api.monthly("enwiki", "Q", date(2023, 1, 1), date(2023, 2, 1))
    hits = len(server.hits)
    assert api.monthly("enwiki", "Q", date(2023, 1, 1), date(2023, 2, 1)) == first
    assert len(server.hits) == hits == 2
    assert len(list((tmp_path / "cache").glob("*.json"))) == 1


def test_server_errors_give_up_with_backoff(server: AqsServer) -> None:
    sleeps: list[float] = []
    api = PageviewsApi(base=server.base, retries=2, backoff=0.5, sleep=sleeps.append)
    with pytest.raises(InputError, match=r"Broken/monthly/.*HTTP 503"):
        api.monthly("enwiki", "Broken", date(2023, 1, 1), date(2023, 1, 1))
    assert sleeps == [0.5, 1.0] and len(server.hits) == 3


def test_unreachable_api_and_bad_arguments(server: AqsServer) -> None:
    port = server.server_address[1]
    server.shutdown()
    server.server_close()
    api = PageviewsApi(base=f"http://127.0.0.1:{port}/api", retries=0, timeout=2)
    with pytest.raises(InputError, match="cannot reach the page view API"):
        api.monthly("enwiki", "X", date(2023, 1, 1), date(2023, 1, 1))
    with pytest.raises(UsageError, match="--wiki"):
        api.url("not a wiki", "X", date(2023, 1, 1), date(2023, 1, 1), "all-access", "user")
    with pytest.raises(UsageError, match="after --to"):
        list(fetch_monthly(api, "enwiki", ["X"], date(2023, 2, 1), date(2023, 1, 1)))


def test_fetch_command_stores_a_source(server: AqsServer, tmp_path: Path) -> None:
    app = typer.Typer(pretty_exceptions_enable=False)
    app.command("fetch")(pageviews_fetch_command)
    app.command("popularity")(popularity_command)
    store = str(tmp_path / "store")
    args = ["fetch", "Albert_Einstein", "Missing_page", "--from", "2023-01", "--to", "2023-03"]
    args += ["--api-base", server.base, "--store", store]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "published page view source rest-enwiki-202301_202303-" in result.output
    table = popularity(StoreLayout.resolve(store)).to_pylist()
    assert [(r["title"], r["months"], r["median_monthly_views"]) for r in table] == [
        ("Albert Einstein", 3, 200.0)
    ]
    assert table[0]["popularity"] == pytest.approx(math.log(201), rel=1e-12)
    hits = len(server.hits)
    again = CliRunner().invoke(app, args)
    assert "already stored" in again.output
    assert len(server.hits) == hits  # answered from the cache in STORE/.cache
