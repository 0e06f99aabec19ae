"""Chaos: ingests, classifications and a serving process killed (SIGKILL) at random moments
while clients read (issue 34).

Afterwards ``kgdiff store check`` finds what the kills left, ``--repair`` mends it and a
second check is clean; every command run again to its end gives a store equal, table by
table, to a store where the same commands ran undisturbed; every answer a client got during
the chaos equals the undisturbed answer; and no process of any killed command is left.

The moments come from a seeded generator: the seed is printed, and ``KGDIFF_CHAOS_SEED``
replays a run. ``KGDIFF_CHAOS_SECONDS`` sets how long the kills go on (default 20).
"""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from tests.chaos import Run, kill, leftovers, start, store_digest
from tests.paths import ROOT, run_kgdiff
from tests.rest_server import free_port

SECONDS = float(os.environ.get("KGDIFF_CHAOS_SECONDS", "20"))
DUMPS = ROOT / "snapshots"
INGESTS = {
    "chaos-a": ("testDump_json_2014-12.json.bz2", "2015-01-01"),
    "chaos-b": ("testDump_xml_2014-10.xml.bz2", "2015-02-01"),
    "chaos-c": ("testDump_xml_2013-12.xml.bz2", "2015-03-01"),
}
CUTOFFS = ("2014-03-01", "2014-08-01", "2014-11-01")
READS = (
    "/v1/entities/Q183?date=2014-06-01",
    "/v1/entities/Q31/facts?date=2014-06-01",
    "/v1/facts?cutoff=2014-10-11&init=2013-12-21&current=2014-12-31&subject=Q31&pid=P6",
    "/v1/search?q=berl",
)
"""Questions whose answers the chaos's new snapshots (dated 2015) do not change."""


def ingest_args(store: Path, name: str) -> list[str]:
    dump, day = INGESTS[name]
    return [
        "ingest", "wikidata", str(DUMPS / dump), "--snapshot", name, "--date", day,
        "--coverage", "subset", "--store", str(store),
    ]  # fmt: skip


def classify_args(store: Path, cutoff: str, out: Path | None = None) -> list[str]:
    args = [
        "classify", "--store", str(store), "--init", "2013-12-21", "--cutoff", cutoff,
        "--current", "2014-12-31",
    ]  # fmt: skip
    return [*args, "--out", str(out)] if out else args


class Server:
    """``kgdiff serve`` on one port, restarted after each kill."""

    def __init__(self, store: Path, log: Path) -> None:
        self.store, self.log, self.port = store, log, free_port()
        self.runs: list[Run] = []

    def start(self) -> None:
        args = ["serve", "--store", str(self.store), "--port", str(self.port)]
        self.runs.append(start(args, self.log))

    @property
    def current(self) -> Run:
        return self.runs[-1]


class Readers(threading.Thread):
    """A client asking :data:`READS` over and over; every 200 answer must equal ``expected``."""

    def __init__(self, port: int, expected: dict[str, object]) -> None:
        super().__init__(daemon=True)
        self.port, self.expected = port, expected
        self.stop, self.answered = threading.Event(), 0
        self.wrong: list[str] = []

    def run(self) -> None:
        with httpx.Client(base_url=f"http://127.0.0.1:{self.port}", timeout=30) as client:
            while not self.stop.is_set():
                for path in READS:
                    try:
                        response = client.get(path)
                    except httpx.TransportError:
                        time.sleep(0.05)  # the server is down: it is being restarted
                        continue
                    if response.status_code == 200:
                        self.answered += 1
                        if response.json() != self.expected[path]:
                            self.wrong.append(f"{path}: {response.text[:300]}")
                    elif response.status_code not in (202, 503):
                        self.wrong.append(f"{path}: {response.status_code} {response.text[:300]}")


def wait_up(port: int, run: Run, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=5) as client:
        while time.monotonic() < deadline:
            assert run.process.poll() is None, f"kgdiff serve ended ({run.process.returncode})"
            try:
                if client.get("/ping").status_code == 200:
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.1)
    raise AssertionError("kgdiff serve did not start")


def answers(port: int) -> dict[str, object]:
    """The undisturbed answers to :data:`READS` (a 202 is waited out)."""
    found: dict[str, object] = {}
    with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as client:
        for path in READS:
            for _ in range(600):
                response = client.get(path)
                if response.status_code == 200:
                    found[path] = response.json()
                    break
                assert response.status_code == 202, response.text
                time.sleep(0.1)
    return found


@contextmanager
def serving(store: Path, log: Path) -> Iterator[Server]:
    server = Server(store, log)
    server.start()
    try:
        wait_up(server.port, server.current)
        yield server
    finally:
        kill(server.current)


MADE = re.compile(r"^lookup copy: .*\.duckdb$", re.MULTILINE)
"""The line ``kgdiff serve`` ends its lookup copy with (the tables' lines come before)."""


def lookup_settled(log: Path, seconds: float = 120) -> None:
    """Wait until the server writing ``log`` has made its lookup copy or said why not: killed
    while it builds one, it leaves the partial copy, which ``store check`` rightly reports."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        text = log.read_text(errors="replace") if log.exists() else ""
        if MADE.search(text) or "lookup copy not made" in text:
            return
        time.sleep(0.2)
    raise AssertionError(f"no lookup copy within {seconds} s:\n{text[-2000:]}")


def chaos(store: Path, server: Server, rng: random.Random, log: Path) -> list[Run]:
    """Kill commands and the server at random moments for :data:`SECONDS`; the runs."""
    runs: list[Run] = []
    deadline = time.monotonic() + SECONDS
    while time.monotonic() < deadline:
        action = rng.choice(("ingest", "ingest", "classify", "classify", "serve"))
        if action == "serve":
            time.sleep(rng.uniform(0, 3))
            kill(server.current)
            server.start()
            continue
        if action == "ingest":
            args = ingest_args(store, rng.choice(sorted(INGESTS)))
        else:
            args = classify_args(store, rng.choice(CUTOFFS))
        run = start(args, log)
        runs.append(run)
        try:
            run.process.wait(rng.uniform(0.2, 5))
        except subprocess.TimeoutExpired:
            kill(run)
    return runs


def finish(store: Path, outputs: Path) -> None:
    """Run every command to its end (after a kill, a resume or a reuse)."""
    for name in sorted(INGESTS):
        done = run_kgdiff(*ingest_args(store, name))
        assert done.returncode == 0, done.stderr
    outputs.mkdir()
    for cutoff in CUTOFFS:
        done = run_kgdiff(*classify_args(store, cutoff, outputs / f"{cutoff}.jsonl"))
        assert done.returncode == 0, done.stderr


def test_chaos(demo_store: Path, tmp_path: Path) -> None:
    seed = int(os.environ.get("KGDIFF_CHAOS_SEED", random.randrange(1 << 32)))
    print(f"chaos seed {seed} (KGDIFF_CHAOS_SEED={seed} replays it)")
    rng = random.Random(seed)
    store, reference = tmp_path / "chaos", tmp_path / "reference"
    shutil.copytree(demo_store, store)
    shutil.copytree(demo_store, reference)
    log = tmp_path / "chaos.log"

    with serving(store, log) as server:
        readers = Readers(server.port, answers(server.port))
        readers.start()
        runs = chaos(store, server, rng, log)
        readers.stop.set()
        readers.join(60)
        servers = list(server.runs)
    sessions = {run.session for run in [*runs, *servers]}
    assert leftovers(sessions, within=5.0) == [], f"seed {seed}"
    assert readers.wrong == [], f"seed {seed}"

    check = run_kgdiff("store", "check", "--store", str(store))
    repaired = run_kgdiff("store", "check", "--repair", "--store", str(store))
    assert repaired.returncode == 0, f"seed {seed}: {check.stdout}\n{repaired.stdout}"
    clean = run_kgdiff("store", "check", "--store", str(store))
    assert clean.returncode == 0, f"seed {seed}: {clean.stdout}{clean.stderr}"

    finish(store, tmp_path / "chaos-out")
    finish(reference, tmp_path / "reference-out")
    assert store_digest(store) == store_digest(reference), f"seed {seed}"
    for cutoff in CUTOFFS:
        mine = (tmp_path / "chaos-out" / f"{cutoff}.jsonl").read_bytes()
        assert mine == (tmp_path / "reference-out" / f"{cutoff}.jsonl").read_bytes()
    after_log = tmp_path / "after.log"
    with serving(store, after_log) as after, serving(reference, log) as undisturbed:
        assert answers(after.port) == answers(undisturbed.port), f"seed {seed}"
        lookup_settled(after_log)
    final = run_kgdiff("store", "check", "--store", str(store))
    assert final.returncode == 0, f"seed {seed}: {final.stdout}"
    print(f"{len(runs)} commands and {len(servers)} servers; {readers.answered} answers read")
