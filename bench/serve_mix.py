"""The realistic mix of ``bench/serve_load.py --mix realistic``: point lookups and heavy
requests at once, on at most N connections, against one service or two side by side.

Requests leave on a fixed schedule (open loop: a slow server shows as latency, not as a lower
rate; a latency counts from when its request was due, so requests waiting for one of the N
connections count their wait). The lookups are an entity, its timeline, its facts at the
cutoff, a search by the start of its label, and a page of ``/v1/facts`` from the build made
before the run; the heavy requests are knowledge updates (the whole store, or one property),
pools and chains of an entity, the staleness curve, and first classifications of new cutoffs
(``/v1/facts`` of a date nobody asked before). Each answer is counted by class: 2xx (its
latency kept), 202 (a job accepted), 429 (refused for now, with Retry-After) or an error
(any other status, a timeout, a dropped connection). The server's memory (RSS of its whole
process tree) is sampled every few seconds over the rounds.
"""

from __future__ import annotations

import asyncio
import random
import subprocess
import time
from contextlib import suppress
from dataclasses import asdict, dataclass, field
from datetime import date, timedelta

import aiohttp
import psutil

LOOKUP_SHARE = 0.97
"""Of the requests, the share of point lookups (the rest heavy)."""
HEAVY_PIDS = ("P31", "P50", "P1082", "P577", "P6", "P39")
"""Properties the heavy requests of one property ask about."""
TIMEOUT_SECONDS = 60.0
"""A request unanswered by then is an error (a heavy one waits up to 20 s, then 202)."""
RSS_EVERY_SECONDS = 5.0


@dataclass(frozen=True)
class Request:
    """One request of the mix: its class (``lookup`` or ``heavy``), kind and path."""

    group: str
    kind: str
    path: str


@dataclass
class Tally:
    """What came back for one kind of request."""

    latencies_ms: list[float] = field(default_factory=list)
    accepted: int = 0
    refused: int = 0
    errors: int = 0
    statuses: dict[int, int] = field(default_factory=dict)

    def add(self, other: Tally) -> None:
        """Fold ``other`` into this tally."""
        self.latencies_ms += other.latencies_ms
        self.accepted += other.accepted
        self.refused += other.refused
        self.errors += other.errors
        for status, count in other.statuses.items():
            self.statuses[status] = self.statuses.get(status, 0) + count

    def share(self, fraction: float) -> float:
        """The latency under which ``fraction`` of the 2xx answers came (ms)."""
        ordered = sorted(self.latencies_ms)
        if not ordered:
            return float("nan")
        return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


@dataclass
class MixRun:
    """A run of the mix against one server: the tallies per kind and the RSS samples."""

    label: str
    tallies: dict[tuple[str, str], Tally] = field(default_factory=dict)
    rss_mb: list[tuple[float, float]] = field(default_factory=list)
    seconds: float = 0.0

    def tally(self, group: str, kind: str) -> Tally:
        """The tally of one kind (made on first use)."""
        return self.tallies.setdefault((group, kind), Tally())

    def group(self, name: str) -> Tally:
        """Every kind of one class together."""
        total = Tally()
        for (group, _), tally in self.tallies.items():
            if group == name:
                total.add(tally)
        return total


@dataclass(frozen=True)
class MixSource:
    """What the mix draws from: entities, their search prefixes, the facts pages of the
    bench's build, its dates, and the days a first classification may ask."""

    subjects: list[str]
    prefixes: list[str]
    pages: list[str]
    cutoff: str
    new_days: list[str]

    def lookup(self, rng: random.Random) -> Request:
        """A point lookup: entity 20 %, timeline 25 %, facts at the cutoff 20 %, search
        15 %, a facts page 20 %."""
        roll, qid = rng.random(), rng.choice(self.subjects)
        if roll < 0.20:
            return Request("lookup", "entity", f"/v1/entities/{qid}")
        if roll < 0.45:
            return Request("lookup", "timeline", f"/v1/entities/{qid}/timeline")
        if roll < 0.65:
            return Request("lookup", "entity facts", f"/v1/entities/{qid}/facts?date={self.cutoff}")
        if roll < 0.80:
            text = rng.choice(self.prefixes)
            return Request("lookup", "search", f"/v1/search?q={text}")
        return Request("lookup", "facts page", rng.choice(self.pages))

    def heavy(self, rng: random.Random) -> Request:
        """A heavy request: updates 30 % (half of them of one property), pools 25 %, chains
        25 %, a first classification 10 %, the staleness curve 10 %."""
        roll, qid = rng.random(), rng.choice(self.subjects)
        if roll < 0.30:
            pid = f"&pid={rng.choice(HEAVY_PIDS)}" if rng.random() < 0.5 else ""
            return Request("heavy", "updates", f"/v1/updates?cutoff={self.cutoff}{pid}")
        if roll < 0.55:
            return Request("heavy", "pools", f"/v1/pools?subject={qid}")
        if roll < 0.80:
            return Request("heavy", "chains", f"/v1/chains?date={self.cutoff}&subject={qid}")
        if roll < 0.90:
            day = rng.choice(self.new_days)
            return Request("heavy", "first facts", f"/v1/facts?cutoff={day}&limit=50")
        return Request("heavy", "staleness", "/v1/staleness?mode=record")

    def schedule(self, count: int, seed: int) -> list[Request]:
        """``count`` requests drawn with ``seed`` (the same for every server compared)."""
        rng = random.Random(seed)
        return [
            self.lookup(rng) if rng.random() < LOOKUP_SHARE else self.heavy(rng)
            for _ in range(count)
        ]


def new_days(first: date, last: date, count: int = 60) -> list[str]:
    """``count`` days spread between ``first`` and ``last`` (cutoffs nobody asked before)."""
    span = (last - first).days
    return [(first + timedelta(days=1 + i * (span - 2) // count)).isoformat() for i in range(count)]


async def run_mix(
    base: str, requests: list[Request], rate: float, connections: int, run: MixRun
) -> None:
    """Send ``requests`` at ``rate`` per second over at most ``connections`` connections."""
    connector = aiohttp.TCPConnector(limit=connections)
    timeout = aiohttp.ClientTimeout(total=TIMEOUT_SECONDS)
    async with aiohttp.ClientSession(base, connector=connector, timeout=timeout) as session:
        start, tasks = time.perf_counter(), []
        for index, request in enumerate(requests):
            due = start + index / rate
            delay = due - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            tasks.append(asyncio.create_task(_timed(session, request, due, run)))
        await asyncio.gather(*tasks)


async def _timed(session: aiohttp.ClientSession, request: Request, due: float, run: MixRun) -> None:
    tally = run.tally(request.group, request.kind)
    try:
        async with session.get(request.path) as response:
            await response.read()
            status = response.status
    except (aiohttp.ClientError, TimeoutError):
        tally.errors += 1
        return
    tally.statuses[status] = tally.statuses.get(status, 0) + 1
    if status == 202:
        tally.accepted += 1
    elif status == 429:
        tally.refused += 1
    elif status // 100 == 2:
        tally.latencies_ms.append((time.perf_counter() - due) * 1000)
    else:
        tally.errors += 1


def tree_rss_mb(server: subprocess.Popen[bytes]) -> float:
    """Resident memory of the server and every process under it (MB)."""
    try:
        root = psutil.Process(server.pid)
        processes = [root, *root.children(recursive=True)]
    except psutil.Error:
        return float("nan")
    total = 0
    for process in processes:
        try:
            total += process.memory_info().rss
        except psutil.Error:
            continue
    return total / 1e6


async def sample_rss(
    server: subprocess.Popen[bytes], run: MixRun, started: float, stop: asyncio.Event
) -> None:
    """Sample the server's RSS every :data:`RSS_EVERY_SECONDS` until ``stop``."""
    while not stop.is_set():
        run.rss_mb.append((time.perf_counter() - started, tree_rss_mb(server)))
        with suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), RSS_EVERY_SECONDS)


def measure_mix(
    server: subprocess.Popen[bytes],
    base: str,
    requests: list[Request],
    rate: float,
    connections: int,
    run: MixRun,
) -> None:
    """Send the whole schedule at ``rate``, sampling the server's RSS meanwhile."""

    async def whole() -> None:
        stop, started = asyncio.Event(), time.perf_counter()
        sampler = asyncio.create_task(sample_rss(server, run, started, stop))
        await run_mix(base, requests, rate, connections, run)
        run.seconds = time.perf_counter() - started
        stop.set()
        await sampler

    asyncio.run(whole())


def rss_rounds(run: MixRun, round_seconds: float) -> list[tuple[float, float, float]]:
    """Per round of ``round_seconds``: the RSS at its start, its end and its highest (MB)."""
    rounds = []
    count = max(1, round(run.seconds / round_seconds))
    for number in range(count):
        lo, hi = number * round_seconds, (number + 1) * round_seconds
        inside = [mb for at, mb in run.rss_mb if lo <= at <= hi]
        if inside:
            rounds.append((inside[0], inside[-1], max(inside)))
    return rounds


def run_json(run: MixRun) -> dict[str, object]:
    """What a run measured, as JSON values (its tallies keyed ``class/kind``)."""
    tallies = {f"{group}/{kind}": asdict(tally) for (group, kind), tally in run.tallies.items()}
    return {"label": run.label, "seconds": run.seconds, "rss_mb": run.rss_mb, "tallies": tallies}


def report_mix(runs: list[MixRun], round_seconds: float) -> None:
    """Per route kind, the runs side by side: 2xx p50/p95/p99 (ms), 202s, 429s, errors;
    then each class together, and the RSS per round."""
    header = f"{'class':7} {'kind':13}"
    for run in runs:
        header += (
            f" | {run.label + ': p50/p95/p99 ms':>27} {'2xx':>6} {'202':>5} {'429':>5} {'err':>5}"
        )
    print(header)
    kinds = sorted({key for run in runs for key in run.tallies})
    rows = [(group, kind, [run.tally(group, kind) for run in runs]) for group, kind in kinds]
    for group in ("lookup", "heavy"):
        rows.append((group, "(all)", [run.group(group) for run in runs]))
    for group, kind, tallies in rows:
        line = f"{group:7} {kind:13}"
        for tally in tallies:
            shares = "/".join(f"{tally.share(f):.0f}" for f in (0.5, 0.95, 0.99))
            line += (
                f" | {shares:>27} {len(tally.latencies_ms):>6} {tally.accepted:>5}"
                f" {tally.refused:>5} {tally.errors:>5}"
            )
        print(line)
    for run in runs:
        rounds = ", ".join(
            f"{a:,.0f} → {b:,.0f} (max {m:,.0f})" for a, b, m in rss_rounds(run, round_seconds)
        )
        print(f"RSS MB per {round_seconds:.0f} s round, {run.label}: {rounds}")
