"""A loopback HTTP file server for the fetch tests: Range support, and faults on demand."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import cast

_RANGE = re.compile(r"bytes=(\d+)-")


@dataclass
class Faults:
    """What the server does wrong, and what it saw (all counters per file path)."""

    cut_after: int | None = None  # cut the next longer body after this many bytes
    ignore_range: bool = False  # answer every request with 200 and the whole file
    fail_503: int = 0  # answer this many requests with 503 first
    shift_range: int = 0  # answer a Range request with a Content-Range starting this much later
    requests: list[tuple[str, str | None]] = field(default_factory=list)  # (path, Range header)
    served: dict[str, int] = field(default_factory=dict)  # body bytes written per path
    agents: set[str] = field(default_factory=set)  # User-Agent headers seen
    lock: threading.Lock = field(default_factory=threading.Lock)

    def count(self, path: str, sent: int) -> None:
        with self.lock:
            self.served[path] = self.served.get(path, 0) + sent


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    root: Path
    faults: Faults


class _Handler(BaseHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # keep pytest output clean
        pass

    def do_GET(self) -> None:
        server = cast(_Server, self.server)
        faults = server.faults
        faults.requests.append((self.path, self.headers.get("Range")))
        faults.agents.add(self.headers.get("User-Agent", ""))
        if faults.fail_503 > 0:
            faults.fail_503 -= 1
            self._empty(503)
            return
        file = server.root / self.path.lstrip("/")
        if not file.is_file():
            self._empty(404)
            return
        self._send_file(file.read_bytes(), faults)

    def _empty(self, status: int, extra: dict[str, str] | None = None) -> None:
        self.send_response(status)
        for key, value in (extra or {}).items():
            self.send_header(key, value)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def _send_file(self, data: bytes, faults: Faults) -> None:
        asked = _RANGE.fullmatch(self.headers.get("Range", ""))
        start = int(asked.group(1)) if asked and not faults.ignore_range else 0
        if start >= len(data) and asked and not faults.ignore_range:
            self._empty(416, {"Content-Range": f"bytes */{len(data)}"})
            return
        if asked and not faults.ignore_range:
            shown = start + faults.shift_range
            self.send_response(206)
            self.send_header("Content-Range", f"bytes {shown}-{len(data) - 1}/{len(data)}")
        else:
            self.send_response(200)
        body = data[start:]
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if faults.cut_after is not None and len(body) > faults.cut_after:
            body, faults.cut_after = body[: faults.cut_after], None
            self.close_connection = True
        # counted before it is written: a client that has read the whole body may look at the
        # counts before this thread runs again (a loaded machine failed the resume test so)
        faults.count(self.path, len(body))
        self.wfile.write(body)


@contextmanager
def serve(root: Path) -> Iterator[tuple[str, Faults]]:
    """Serve ``root`` on 127.0.0.1 (a free port); yields the base URL and the fault switches."""
    server = _Server(("127.0.0.1", 0), _Handler)
    server.root = root
    server.faults = Faults()
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", server.faults
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
