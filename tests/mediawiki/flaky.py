"""A loopback HTTP front for the test wiki that fails on purpose, then passes requests on.

Each GET first consumes one scripted failure, if any are left (an HTTP status, or a
``maxlag`` error the way MediaWiki sends it: JSON with ``X-Database-Lag`` and
``Retry-After`` headers); afterwards requests are forwarded to the real api.php and its
answer is returned unchanged. The headers of every request are kept for inspection.
"""

from __future__ import annotations

import json
import threading
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

MAXLAG = "maxlag"


@dataclass
class Script:
    """What the front does: failures still to serve, and what it saw."""

    upstream: str
    failures: list[int | str] = field(default_factory=list)
    headers: list[dict[str, str]] = field(default_factory=list)


def _handler(script: Script) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            script.headers.append(dict(self.headers.items()))
            failure = script.failures.pop(0) if script.failures else None
            if failure == MAXLAG:
                body = {"error": {"code": "maxlag", "info": "Waiting for a database server"}}
                self._send(200, json.dumps(body).encode(), {"X-Database-Lag": "7"})
            elif isinstance(failure, int):
                self._send(failure, b"<html>try again later</html>", {})
            else:
                query = urlsplit(self.path).query
                with urllib.request.urlopen(f"{script.upstream}?{query}", timeout=30) as up:
                    self._send(up.status, up.read(), {})

        def _send(self, status: int, body: bytes, headers: dict[str, str]) -> None:
            self.send_response(status)
            for name, value in {"Retry-After": "0", **headers}.items():
                self.send_header(name, value)
            self.send_header("Content-Type", "application/json; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            """Quiet: the tests look at ``script.headers`` instead."""

    return Handler


@contextmanager
def flaky_front(upstream: str, failures: list[int | str]) -> Iterator[tuple[str, Script]]:
    """Serve on 127.0.0.1 (a free port); yields ``(host:port, script)``."""
    script = Script(upstream, list(failures))
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(script))
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield f"127.0.0.1:{server.server_address[1]}", script
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)
