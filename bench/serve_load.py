"""Load test of the REST service: point lookups and pages of facts against `kgdiff serve`.

Run with ``.venv/bin/python -m bench.serve_load --store DIR`` (default: the classification
bench's 3 × 5 M store, ``/work/bench-data/classify/3x5M``, made by ``bench.classify_bench``).
It starts ``kgdiff serve --workers 2`` on a free loopback port, warms the classification the
facts pages read, then sends an open-loop load (requests leave on a fixed schedule, whatever
the answers' speed, so a slow server shows as latency, not as a lower rate) of a mix of
requests — an entity's timeline, an entity's facts at a date, a page of ``/v1/facts`` from a
random cursor — at each rate, and the same load against a trivial route of the same app (the
framework's floor on this machine). It prints p50 / p99 latency, the error rate and the
server's memory at the start and end of each run, and the highest rate whose p99 stays at or
under 100 ms. Figures are the run's own: compare the two targets within one run.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import psutil

DEFAULT_STORE = Path("/work/bench-data/classify/3x5M")
FLOOR_ROUTE = "/ping"
TARGET_P99_MS = 100.0
SEARCH_RATES = (100, 150, 200, 300, 400, 600, 800)


@dataclass
class Run:
    """One load run: its target, rate, and what came back."""

    target: str
    rate: int
    latencies_ms: list[float] = field(default_factory=list)
    errors: int = 0
    rss_mb: tuple[float, float] = (0.0, 0.0)

    def percentile(self, share: float) -> float:
        """The latency below which ``share`` of the answers came (ms)."""
        ordered = sorted(self.latencies_ms)
        if not ordered:
            return float("nan")
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))]

    def error_rate(self) -> float:
        """Errors (non-2xx, timeouts) per request sent."""
        sent = len(self.latencies_ms) + self.errors
        return self.errors / sent if sent else 0.0


def free_port() -> int:
    """A free loopback port."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_server(store: Path, port: int, workers: int) -> subprocess.Popen[bytes]:
    """``kgdiff serve`` on ``port``, once it answers /health."""
    command = [sys.executable, "-m", "kgdiff", "serve", "--store", str(store)]
    command += ["--port", str(port), "--workers", str(workers)]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=1).status_code == 200:
                return server
        except httpx.TransportError:
            time.sleep(0.2)
    server.kill()
    raise SystemExit("the server did not answer /health within 60 s")


def server_rss_mb(server: subprocess.Popen[bytes]) -> float:
    """Resident memory of the server and its workers (MB)."""
    try:
        root = psutil.Process(server.pid)
        processes = [root, *root.children(recursive=True)]
        return float(sum(p.memory_info().rss for p in processes)) / 1e6
    except psutil.Error:
        return float("nan")
