"""What a request may send, refused before it is read (issue 34, finding 4): a body past
``--max-body`` (413), whether it says its length or streams it in chunks, and a URL past
``--max-url`` (414); and the smaller faults of finding 13: ``HEAD`` on every ``GET`` route,
``POST /v1/sql`` of a service without ``--enable-sql``, ``/ping`` while every worker thread
waits. Each on a real ``kgdiff serve`` process, over real sockets."""

from __future__ import annotations

import contextlib
import json
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest

from tests.rest_server import copy_store, server_process, serving
from tests.test_rest_api import problem_of

MB = 1024 * 1024
HUGE = 400 * MB
"""The body of finding 4: 400 MB, which the service read whole before answering 422."""
CHUNK = 64 * 1024


@pytest.fixture(scope="module")
def store(demo_store: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_store(demo_store, tmp_path_factory.mktemp("rest-limits"))


@pytest.fixture(scope="module")
def sql_server(store: Path) -> Iterator[tuple[httpx.Client, subprocess.Popen[bytes]]]:
    with server_process(store, "--enable-sql", "--no-lookup") as served:
        yield served


def memory_kb(pid: int) -> dict[str, int]:
    """The process's resident memory now (VmRSS) and at its peak so far (VmHWM), in kB."""
    lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    fields = dict(line.split(":", 1) for line in lines)
    return {name: int(fields[name].split()[0]) for name in ("VmRSS", "VmHWM")}


@dataclass
class Exchange:
    """A raw HTTP/1.1 request sent over a socket by a thread, while the answer is read."""

    status: int = 0
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""
    sent: int = 0
    """Body bytes the client had sent when the answer's status line arrived."""


def read_answer(sock: socket.socket, exchange: Exchange, sent: list[int]) -> None:
    """Read one HTTP answer (status, headers, a Content-Length body) into ``exchange``."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            raise AssertionError(f"the server closed the connection without an answer: {data!r}")
        if not data:
            exchange.sent = sent[0]
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    exchange.status = int(status_line.split()[1])
    exchange.headers = {k.strip().lower(): v.strip() for k, v in (x.split(":", 1) for x in lines)}
    length = int(exchange.headers.get("content-length", "0"))
    while len(rest) < length:
        chunk = sock.recv(65536)
        if not chunk:
            break
        rest += chunk
    exchange.body = rest[:length]


def post_slowly(base_url: str, head: bytes, body: Iterator[bytes]) -> Exchange:
    """Send ``head`` then ``body``'s pieces, a little at a time, from one thread, and read
    the answer in this one as soon as it comes (as curl does); the sender stops when the
    server closes the connection or the answer has come."""
    host, port = httpx.URL(base_url).host, httpx.URL(base_url).port
    assert port is not None
    exchange, sent, answered = Exchange(), [0], threading.Event()
    with socket.create_connection((host, port), timeout=300) as sock:

        def send_all() -> None:
            try:
                sock.sendall(head)
                for piece in body:
                    if answered.is_set():
                        return
                    sock.sendall(piece)
                    sent[0] += len(piece)
                    time.sleep(0.001)  # a slow client: ~50 MB/s at most
            except OSError:
                return  # the server closed the connection: nothing more is read

        sender = threading.Thread(target=send_all, daemon=True)
        sender.start()
        try:
            read_answer(sock, exchange, sent)
        finally:
            answered.set()
            sender.join(300)
    return exchange


def chunked(total: int) -> Iterator[bytes]:
    """``total`` bytes of a JSON-looking body in HTTP/1.1 chunks, made as they are sent."""
    piece = b" " * CHUNK
    frame = f"{CHUNK:x}\r\n".encode() + piece + b"\r\n"
    for _ in range(total // CHUNK):
        yield frame
    yield b"0\r\n\r\n"


def request_head(length: int | None) -> bytes:
    framing = f"Content-Length: {length}" if length is not None else "Transfer-Encoding: chunked"
    return (
        "POST /v1/sql HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"{framing}\r\n\r\n"
    ).encode()


def body_problem(exchange: Exchange) -> dict[str, object]:
    assert exchange.status == 413, exchange
    assert exchange.headers["content-type"] == "application/problem+json"
    problem = json.loads(exchange.body)
    assert problem["type"].endswith("/body-too-large") and "--max-body" in problem["detail"]
    return dict(problem)


def test_a_streamed_400_mb_body_is_refused_after_the_limit_and_never_held(
    sql_server: tuple[httpx.Client, subprocess.Popen[bytes]],
) -> None:
    client, process = sql_server
    before = memory_kb(process.pid)
    exchange = post_slowly(str(client.base_url), request_head(None), chunked(HUGE))
    after = memory_kb(process.pid)
    print(f"sent {exchange.sent / MB:.1f} MB before the answer; server kB {before} -> {after}")
    body_problem(exchange)
    # answered long before the client had sent the body (the socket buffers hold a few MB)
    assert exchange.sent < HUGE // 20
    # the server never held it: its peak resident memory grew by less than 64 MB
    assert after["VmHWM"] - before["VmHWM"] < 64 * 1024, (before, after)
    assert client.get("/ping").status_code == 200


def test_a_declared_length_past_the_limit_is_refused_before_any_byte_of_the_body(
    sql_server: tuple[httpx.Client, subprocess.Popen[bytes]],
) -> None:
    client, _ = sql_server
    nothing: Iterator[bytes] = iter(())
    exchange = post_slowly(str(client.base_url), request_head(HUGE), nothing)
    body_problem(exchange)
    assert exchange.sent == 0 and exchange.headers["connection"] == "close"


def test_a_small_body_in_chunks_reaches_the_route_whole(
    sql_server: tuple[httpx.Client, subprocess.Popen[bytes]],
) -> None:
    client, _ = sql_server
    query = json.dumps({"query": "SELECT count(*) AS n FROM snapshots"}).encode()
    pieces = iter([query[:10], query[10:]])
    answer = client.post("/v1/sql", content=pieces, headers={"content-type": "application/json"})
    assert answer.status_code == 200, answer.text
    assert answer.json()["rows"] == [[3]]


def test_max_body_and_max_url_are_the_operators(store: Path) -> None:
    with serving(
        store, "--enable-sql", "--no-lookup", "--max-body", "100", "--max-url", "200"
    ) as api:
        query = "SELECT 1 AS x" + " " * 100
        problem = problem_of(api.post("/v1/sql", json={"query": query}), 413)
        assert "(100 bytes, kgdiff serve --max-body)" in problem["detail"]
        assert api.post("/v1/sql", json={"query": "SELECT 1 AS x"}).status_code == 200
        long = problem_of(api.get("/v1/search", params={"q": "x" * 200}), 414)
        assert long["type"].endswith("/uri-too-long") and "--max-url" in long["detail"]
        assert api.get("/v1/search", params={"q": "Q42"}).status_code == 200


def test_a_url_past_the_default_limit_is_414(
    sql_server: tuple[httpx.Client, subprocess.Popen[bytes]],
) -> None:
    client, _ = sql_server
    subjects = [("subject", f"Q{n}") for n in range(1, 2000)]  # ~18 KB of parameters
    problem = problem_of(client.get("/v1/facts", params=[("cutoff", "2014-10-11"), *subjects]), 414)
    assert "8,192" in problem["detail"]


def test_sql_of_a_service_without_enable_sql_says_how_to_enable_it(store: Path) -> None:
    with serving(store, "--no-lookup") as api:
        problem = problem_of(api.post("/v1/sql", json={"query": "SELECT 1"}), 404)
        assert problem["type"].endswith("/sql-disabled")
        assert "--enable-sql" in problem["detail"] and "KGDIFF_API_ENABLE_SQL" in problem["detail"]
        assert "/v1/sql" not in api.get("/openapi.json").json()["paths"]


HEADS = ["/ping", "/health", "/v1/snapshots", "/v1/search?q=Q42", "/v1/entities/Q42", "/"]


def test_head_answers_every_get_route_with_its_headers_and_no_body(
    sql_server: tuple[httpx.Client, subprocess.Popen[bytes]],
) -> None:
    client, _ = sql_server
    for url in HEADS:
        got, head = client.get(url), client.head(url)
        assert (head.status_code, head.content) == (got.status_code, b""), url
        for name in ("content-length", "content-type", "etag"):
            assert head.headers.get(name) == got.headers.get(name), (url, name)
    problem_of(client.get("/v1/entities/Q999999999"), 404)
    assert client.head("/v1/entities/Q999999999").status_code == 404
    assert client.head("/v1/sql").status_code == 405  # a POST route: HEAD is no GET of it


def test_ping_answers_while_every_worker_thread_waits_for_a_build(store: Path) -> None:
    """The valid-time staleness curve (12 classifications, serially, many seconds) runs in
    the heavy pool, and classifications of 44 distinct cutoffs are asked behind it, each
    request waiting for its job (the pool takes one running and 8 queued, and refuses the
    others with a 429). ``/ping`` answers meanwhile, before the curve's job is done: it
    waits for no thread. Before, it was a thread's work too, and answered only once the
    curve was done and a thread free."""
    env = {"KGDIFF_API_BUILD_WAIT": "600"}
    with serving(store, "--no-lookup", env=env) as api:
        jobs = store / "builds" / "jobs"
        before = set(jobs.glob("*.json")) if jobs.is_dir() else set()
        slow = httpx.Client(base_url=api.base_url, timeout=900, trust_env=False)
        cutoffs = [f"2014-{month:02d}-{day:02d}" for month in (2, 3, 4, 5) for day in range(1, 12)]
        urls = ["/v1/staleness?mode=valid"] + [f"/v1/facts?cutoff={c}&limit=1" for c in cutoffs]
        waiting = [threading.Thread(target=_ask, args=(slow, url), daemon=True) for url in urls]
        waiting[0].start()
        curve = _new_jobs(jobs, before, 1)[0]
        for thread in waiting[1:]:
            thread.start()
        _new_jobs(jobs, before, 9)
        assert api.get("/ping", timeout=900).json() == {"pong": True}
        assert json.loads(curve.read_bytes())["status"] in ("queued", "running")


def _ask(client: httpx.Client, url: str) -> None:
    """GET ``url``, whatever comes of it (the server is stopped before these end)."""
    with contextlib.suppress(httpx.HTTPError):
        client.get(url)


def _new_jobs(folder: Path, before: set[Path], count: int) -> list[Path]:
    """The first ``count`` job files written since ``before``, oldest first, once there."""
    for _ in range(6000):
        new = sorted(set(folder.glob("*.json")) - before, key=lambda p: p.stat().st_mtime_ns)
        if len(new) >= count:
            return new
        time.sleep(0.05)
    raise AssertionError(f"{count} jobs were not asked for within 300 s")
