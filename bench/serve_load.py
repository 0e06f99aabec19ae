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

``--mix realistic`` sends point lookups and heavy requests at once instead, on at most
``--connections`` connections, and can run an older kgdiff's service beside this one
(bench/serve_realistic.py).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
import httpx
import psutil

import kgdiff

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
    by_kind: dict[str, list[float]] = field(default_factory=dict)
    errors: int = 0
    rss_mb: tuple[float, float] = (0.0, 0.0)
    server_cpu_s: float = 0.0
    client_cpu_s: float = 0.0

    def cpu_ms(self, seconds: float) -> float:
        """CPU time per request answered (ms): where the machine's two cores went."""
        answered = len(self.latencies_ms)
        return 1000 * seconds / answered if answered else float("nan")

    def percentile(self, share: float) -> float:
        """The latency below which ``share`` of the answers came (ms)."""
        return _share(self.latencies_ms, share)

    def error_rate(self) -> float:
        """Errors (non-2xx, timeouts) per request sent."""
        sent = len(self.latencies_ms) + self.errors
        return self.errors / sent if sent else 0.0


def free_port() -> int:
    """A free loopback port."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_server(
    store: Path,
    port: int,
    workers: int,
    options: Sequence[str] = (),
    checkout: Path | None = None,
) -> subprocess.Popen[bytes]:
    """``kgdiff serve`` on ``port`` (the kgdiff of ``checkout``, if given: another version's
    source tree), once it answers /health; its output goes to :func:`server_log`."""
    command = [checkout_python(checkout), "-m", "kgdiff", "serve", "--store", str(store)]
    command += ["--port", str(port), "--workers", str(workers), "--no-lookup", *options]
    with server_log(port).open("wb") as log:
        server = subprocess.Popen(
            command, stdout=log, stderr=log, env=checkout_env(checkout), cwd=checkout
        )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=1).status_code == 200:
                return server
        except httpx.TransportError:
            time.sleep(0.2)
    server.kill()
    raise SystemExit("the server did not answer /health within 60 s")


def server_log(port: int) -> Path:
    """Where the server on ``port`` writes its output (a failed job's traceback)."""
    return Path(tempfile.gettempdir()) / f"bench-serve-{port}.log"


def stop_server(server: subprocess.Popen[bytes], grace: float = 30.0) -> None:
    """Stop the server: SIGTERM, and SIGKILL past ``grace`` seconds (uvicorn waits for the
    requests in flight, which a server of an older kgdiff may spend minutes on)."""
    server.terminate()
    try:
        server.wait(grace)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait(30)


def checkout_python(checkout: Path | None) -> str:
    """The interpreter that runs the kgdiff of ``checkout``: its own ``.venv`` (an editable
    install of it, whose SQL files are its own), else this one with the checkout first on
    the path (its SQL files are then this kgdiff's: give the checkout a venv)."""
    if checkout is not None and (checkout / ".venv" / "bin" / "python").exists():
        return str(checkout / ".venv" / "bin" / "python")
    return sys.executable


def checkout_env(checkout: Path | None) -> dict[str, str] | None:
    """The environment that runs the kgdiff of ``checkout`` (None: this one)."""
    if checkout is None:
        return None
    return {**os.environ, "PYTHONPATH": str(checkout.resolve())}


def server_cpu_s(server: subprocess.Popen[bytes]) -> float:
    """CPU seconds (user + system) the server and its workers have used so far."""
    try:
        root = psutil.Process(server.pid)
        times = [p.cpu_times() for p in [root, *root.children(recursive=True)]]
        return float(sum(t.user + t.system for t in times))
    except psutil.Error:
        return float("nan")


def server_rss_mb(server: subprocess.Popen[bytes]) -> float:
    """Resident memory of the server and its workers (MB)."""
    try:
        root = psutil.Process(server.pid)
        processes = [root, *root.children(recursive=True)]
        return float(sum(p.memory_info().rss for p in processes)) / 1e6
    except psutil.Error:
        return float("nan")


@dataclass(frozen=True)
class Mix:
    """The requests a point-lookup load draws from: timelines, entity facts, facts pages."""

    timelines: list[str]
    entity_facts: list[str]
    pages: list[str]

    def draw(self, rng: random.Random) -> str:
        """One request path: 40 % timelines, 30 % entity facts, 30 % pages of facts."""
        roll = rng.random()
        pool = self.timelines if roll < 0.4 else self.entity_facts if roll < 0.7 else self.pages
        return rng.choice(pool)


def bench_dates(store: Path) -> tuple[str, str, str]:
    """init, cutoff, current as the classification bench takes them (thirds between the
    snapshots), so the facts pages read the build that bench made."""
    days = kgdiff.open(store).snapshots().get_column("date").to_list()
    first, middle, last = days[0], days[len(days) // 2], days[-1]
    return (
        (first + (middle - first) / 3).isoformat(),
        (middle + (last - middle) / 3).isoformat(),
        last.isoformat(),
    )


def warm(client: httpx.Client, facts: str) -> list[str]:
    """Build (or reuse) the classification the pages read, waiting for its job; return the
    cursors of the first pages (each a page request of the mix)."""
    deadline = time.monotonic() + 1800
    response = client.get(facts)
    while response.status_code == 202 and time.monotonic() < deadline:
        job = response.headers["location"]
        while (state := client.get(job).json()).get("status") not in ("done", "failed"):
            time.sleep(1)
        if state["status"] == "failed":
            port = client.base_url.port or 0
            raise SystemExit(f"{facts}: {state.get('error')} ({server_log(port)})")
        response = client.get(facts)
    response.raise_for_status()
    cursors: list[str] = []
    page = response.json()
    while page.get("next_cursor") and len(cursors) < 50:
        cursors.append(page["next_cursor"])
        page = client.get(f"{facts}&cursor={page['next_cursor']}").json()
    return cursors


def settle(base: str, quiet_ms: float = 20.0, limit_s: float = 300.0) -> None:
    """Wait until the server is idle (five quick answers to the floor route in a row): an
    overloaded run leaves requests the client gave up on, which the workers still answer."""
    deadline, quick = time.monotonic() + limit_s, 0
    with httpx.Client(base_url=base, timeout=60, trust_env=False) as client:
        while quick < 5 and time.monotonic() < deadline:
            started = time.perf_counter()
            client.get(FLOOR_ROUTE)
            quick = quick + 1 if (time.perf_counter() - started) * 1000 < quiet_ms else 0
            time.sleep(0.2)


def warm_up(client: httpx.Client, mix: Mix, whole: bool, base: str) -> None:
    """Ask a few requests of each kind first, or, with ``whole``, every request of the mix
    four times over eight connections at once (each worker takes some of the connections,
    so each has read nearly all the mix reads: the service as it runs after a while, not as
    it starts)."""
    if not whole:
        rng = random.Random(1)
        for _ in range(200):
            client.get(mix.draw(rng)).raise_for_status()
        return
    asyncio.run(_ask_all([*mix.timelines, *mix.entity_facts, *mix.pages] * 4, base))


async def _ask_all(paths: list[str], base: str, at_once: int = 8) -> None:
    """Ask every path, ``at_once`` at a time, each on a new connection."""
    gate = asyncio.Semaphore(at_once)
    connector = aiohttp.TCPConnector(force_close=True)
    async with aiohttp.ClientSession(base, connector=connector) as session:

        async def ask(path: str) -> None:
            async with gate, session.get(path) as response:
                response.raise_for_status()
                await response.read()

        await asyncio.gather(*(ask(path) for path in paths))


def build_mix(store: Path, client: httpx.Client, sample: int) -> Mix:
    """Entities drawn from the latest snapshot, and facts pages from the bench's dates."""
    kg = kgdiff.open(store)
    subjects = (
        kg.sql(
            f"SELECT DISTINCT subject FROM statements WHERE snapshot = (SELECT max(name) FROM "
            f"snapshots) USING SAMPLE reservoir({sample} ROWS) REPEATABLE (7)"
        )
        .get_column("subject")
        .to_list()
    )
    init, cutoff, current = bench_dates(store)
    facts = f"/v1/facts?init={init}&cutoff={cutoff}&current={current}&limit=50"
    cursors = warm(client, facts)
    return Mix(
        [f"/v1/entities/{q}/timeline" for q in subjects],
        [f"/v1/entities/{q}/facts?date={cutoff}" for q in subjects],
        [facts] + [f"{facts}&cursor={c}" for c in cursors],
    )


async def open_loop(base: str, paths: list[str], rate: int, seconds: float) -> Run:
    """Send ``paths`` at ``rate`` per second on a fixed schedule; collect the answers. A
    latency counts from when the request was due, so a client or server that falls behind
    shows it (no coordinated omission)."""
    run = Run(target="", rate=rate)
    connector = aiohttp.TCPConnector(limit=256)
    timeout = aiohttp.ClientTimeout(total=10)
    async with aiohttp.ClientSession(base, connector=connector, timeout=timeout) as session:
        start = time.perf_counter()
        tasks = []
        for index, path in enumerate(paths[: int(rate * seconds)]):
            due = start + index / rate
            delay = due - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            tasks.append(asyncio.create_task(_timed(session, path, due, run)))
        await asyncio.gather(*tasks)
    return run


async def _timed(session: aiohttp.ClientSession, path: str, due: float, run: Run) -> None:
    try:
        async with session.get(path) as response:
            await response.read()
            answered = response.status // 100 == 2
    except (aiohttp.ClientError, TimeoutError):
        answered = False
    if not answered:
        run.errors += 1
        return
    took = (time.perf_counter() - due) * 1000
    run.latencies_ms.append(took)
    run.by_kind.setdefault(kind_of(path), []).append(took)


def kind_of(path: str) -> str:
    """Which kind of request of the mix ``path`` is."""
    if path.endswith("/timeline"):
        return "timeline"
    if "/facts?date=" in path:
        return "entity facts"
    return "facts page" if path.startswith("/v1/facts") else "floor"


def measure(
    server: subprocess.Popen[bytes],
    base: str,
    target: str,
    paths: list[str],
    rate: int,
    seconds: float,
) -> Run:
    """One run at ``rate``, with the server's memory before and after."""
    before, cpu_before, client_before = (
        server_rss_mb(server),
        server_cpu_s(server),
        time.process_time(),
    )
    run = asyncio.run(open_loop(base, paths, rate, seconds))
    run.target, run.rss_mb = target, (before, server_rss_mb(server))
    run.server_cpu_s = server_cpu_s(server) - cpu_before
    run.client_cpu_s = time.process_time() - client_before
    return run


def _share(times: list[float], share: float) -> float:
    """The value below which ``share`` of ``times`` lie (NaN for none)."""
    ordered = sorted(times)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def report(runs: list[Run]) -> None:
    """One line per run, then the highest passing rate per target."""
    print(f"{'target':8} {'req/s':>6} {'sent':>6} {'p50 ms':>8} {'p99 ms':>8} {'errors':>7} "
          f"{'CPU ms/req server':>17} {'client':>6} {'RSS MB before→after':>20}")  # fmt: skip
    for run in runs:
        sent = len(run.latencies_ms) + run.errors
        print(f"{run.target:8} {run.rate:>6} {sent:>6} {run.percentile(0.5):>8.1f} "
              f"{run.percentile(0.99):>8.1f} {run.error_rate():>7.2%} "
              f"{run.cpu_ms(run.server_cpu_s):>17.1f} {run.cpu_ms(run.client_cpu_s):>6.1f} "
              f"{run.rss_mb[0]:>9.0f} → {run.rss_mb[1]:.0f}")  # fmt: skip
    print("per kind (kgdiff runs): p50 / p99 ms")
    for run in runs:
        if run.target == "kgdiff":
            kinds = ", ".join(
                f"{kind} {_share(times, 0.5):.0f}/{_share(times, 0.99):.0f}"
                for kind, times in sorted(run.by_kind.items())
            )
            print(f"  {run.rate:>4} req/s: {kinds}")
    for target in dict.fromkeys(run.target for run in runs):
        ok = [r.rate for r in runs if r.target == target and r.percentile(0.99) <= TARGET_P99_MS
              and r.errors == 0]  # fmt: skip
        print(f"{target}: highest rate with p99 <= {TARGET_P99_MS:.0f} ms and no error: "
              f"{max(ok) if ok else 'none'} req/s")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", type=Path, default=DEFAULT_STORE)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--rates", default=",".join(map(str, SEARCH_RATES)))
    parser.add_argument("--subjects", type=int, default=2000, help="entities the mix asks of")
    parser.add_argument(
        "--no-facts-copy",
        dest="facts_copy",
        action="store_false",
        help="answer entity facts by classifying each entity (no facts copy of the cutoff)",
    )
    parser.add_argument(
        "--cold",
        dest="warm",
        action="store_false",
        help="start the runs after 200 requests, not after every request of the mix 4 times",
    )
    parser.add_argument("--json", type=Path, help="also write the runs here")
    add_mix_options(parser)
    args = parser.parse_args()
    if args.mix == "realistic":
        from bench.serve_realistic import realistic

        realistic(args)
        return
    started = time.monotonic()
    graph = kgdiff.open(args.store)
    copy = graph.build_lookup()
    print(f"lookup copy {copy} ready in {time.monotonic() - started:.1f} s")
    if args.facts_copy:  # the entity facts of the mix are asked at the cutoff
        started = time.monotonic()
        made = graph.build_facts(bench_dates(args.store)[1], "record")
        print(f"facts copy {made} ready in {time.monotonic() - started:.1f} s")
    graph.close()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start_server(args.store, port, args.workers)
    try:
        with httpx.Client(base_url=base, timeout=600, trust_env=False) as client:
            mix = build_mix(args.store, client, args.subjects)
            warm_up(client, mix, args.warm, base)
        rng = random.Random(7)
        runs = []
        for rate in (int(r) for r in args.rates.split(",")):
            paths = [mix.draw(rng) for _ in range(int(rate * args.seconds))]
            floor = [FLOOR_ROUTE] * len(paths)
            settle(base)
            runs.append(measure(server, base, "floor", floor, rate, args.seconds))
            settle(base)
            runs.append(measure(server, base, "kgdiff", paths, rate, args.seconds))
    finally:
        stop_server(server)
    report(runs)
    if args.json:
        args.json.write_text(json.dumps([r.__dict__ for r in runs]))


def add_mix_options(parser: argparse.ArgumentParser) -> None:
    """The options of ``--mix realistic`` (bench/serve_mix.py)."""
    parser.add_argument("--mix", choices=("lookups", "realistic"), default="lookups")
    parser.add_argument("--rate", type=float, default=150.0, help="realistic: requests/s")
    parser.add_argument("--connections", type=int, default=200, help="realistic: at most")
    parser.add_argument("--rounds", type=int, default=3, help="realistic: rounds of the run")
    parser.add_argument("--round-seconds", type=float, default=60.0)
    parser.add_argument("--heavy-workers", type=int, default=1)
    parser.add_argument("--heavy-queue", type=int, default=8)
    parser.add_argument(
        "--compare-with",
        type=Path,
        help="realistic: also run the kgdiff of this source tree (e.g. a worktree of an older"
        " commit) the same way, after this one, and print the two side by side",
    )


if __name__ == "__main__":
    main()
