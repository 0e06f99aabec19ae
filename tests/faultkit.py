"""Shared helpers of the fault-tolerance tests: run the CLI, damage inputs, inspect a store.

Every damaged input is derived from the bundled real sample
``snapshots/testDump_json_2014-12.json.bz2``, decompressed once per test session.
The CLI always runs as a subprocess in its own process group, so a test can kill
the whole ingest (main process, forkserver, parse workers, lbzip2) at once.
"""

from __future__ import annotations

import bz2
import contextlib
import gzip
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb
import msgspec
import psutil
import pytest
import zstandard

from tests.paths import SAMPLES

JSON_SAMPLE = SAMPLES / "testDump_json_2014-12.json.bz2"
SAMPLE_ENTITIES = 1704
SAMPLE_STATEMENTS = 11712
SAMPLE_DATE = "2014-12-01"
TABLES = ("entities", "labels", "sitelinks", "statements", "qualifiers")
RUN_TIMEOUT = 120.0
"""Seconds any single CLI run may take before the test kills it and fails."""
LINGER_GRACE = 5.0
"""Seconds the workers of a finished run may take to go away."""

_RICH_ENV = ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "KGDIFF_STORE")


# ----------------------------------------------------------------------------- inputs


def _cached(factory: pytest.TempPathFactory, name: str, make: Callable[[], bytes]) -> Path:
    """``name`` in a session-wide folder, built by ``make`` on first use (atomically)."""
    target = factory.getbasetemp() / "faultkit-inputs" / name
    if not target.is_file():
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(f".{name}.partial-{os.getpid()}")
        partial.write_bytes(make())
        partial.replace(target)
    return target


def sample_dump(factory: pytest.TempPathFactory) -> Path:
    """The JSON sample decompressed to a plain ``.json`` array dump (once per session)."""

    def make() -> bytes:
        with bz2.open(JSON_SAMPLE, "rb") as source:
            return source.read()

    return _cached(factory, "testDump_json_2014-12.json", make)


def compressed_sample(factory: pytest.TempPathFactory, kind: str) -> Path:
    """The JSON sample compressed as ``gz``, ``bz2`` or ``zst`` (once per session).

    ``bz2`` is the bundled file itself; ``gz`` goes through ``pigz`` when installed
    (else the gzip module); ``zst`` is written with a content checksum, as the
    ``zstd`` command line tool does by default (without one, zstd cannot notice a
    flipped byte at all).
    """
    if kind == "bz2":
        return JSON_SAMPLE
    raw = sample_dump(factory).read_bytes()

    def make() -> bytes:
        if kind == "gz" and shutil.which("pigz"):
            return subprocess.run(
                ["pigz", "-c", "-6", "-p", "2"], input=raw, capture_output=True, check=True
            ).stdout
        if kind == "gz":
            return gzip.compress(raw, compresslevel=6, mtime=0)
        if kind == "zst":
            return zstandard.ZstdCompressor(level=3, write_checksum=True).compress(raw)
        raise ValueError(f"unknown compression {kind!r}")

    return _cached(factory, f"testDump_json_2014-12.json.{kind}", make)


def entity_lines(dump: Path) -> list[bytes]:
    """The entity lines of an array dump, without their trailing commas."""
    lines = dump.read_bytes().split(b"\n")
    return [line.rstrip().removesuffix(b",") for line in lines if line.startswith(b"{")]


def array_dump(lines: list[bytes]) -> bytes:
    """An array dump in the Wikidata layout: ``[``, one entity per line, ``]``."""
    return b"[\n" + b",\n".join(lines) + b"\n]\n"


def flip_byte(data: bytes, offset: int) -> bytes:
    """``data`` with every bit of the byte at ``offset`` inverted."""
    damaged = bytearray(data)
    damaged[offset] ^= 0xFF
    return bytes(damaged)


# ----------------------------------------------------------------------------- running


def child_env(path: str | None = None) -> dict[str, str]:
    """Environment for a CLI run: no colour forcing, a narrow terminal, optionally PATH."""
    env = {key: value for key, value in os.environ.items() if key not in _RICH_ENV}
    env["COLUMNS"] = "40"  # a one-line error must not be wrapped, however narrow
    env["TERM"] = "dumb"
    if path is not None:
        env["PATH"] = path
    return env


def path_without_lbzip2(bin_dir: Path) -> str:
    """A PATH holding only a symlink to this Python, so kgdiff falls back to the bz2 module."""
    bin_dir.mkdir(parents=True, exist_ok=True)
    link = bin_dir / "python"
    if not link.exists():
        link.symlink_to(sys.executable)
    assert shutil.which("lbzip2", path=str(bin_dir)) is None
    return str(bin_dir)


def ingest_args(path: Path, store: Path, name: str, *extra: str) -> list[str]:
    """Command line of ``kgdiff ingest wikidata`` for ``path`` into ``store``."""
    return [
        sys.executable, "-m", "kgdiff", "ingest", "wikidata", str(path),
        "--snapshot", name, "--date", SAMPLE_DATE, "--store", str(store), *extra,
    ]  # fmt: skip


def clip(text: str, limit: int = 3000) -> str:
    """``text`` shortened to its beginning and end (for assertion messages)."""
    if len(text) <= limit:
        return text
    half = limit // 2
    return f"{text[:half]}\n[... {len(text) - limit} characters ...]\n{text[-half:]}"


@dataclass(frozen=True)
class RunResult:
    """Exit status and output of one finished CLI run."""

    returncode: int
    stdout: str
    stderr: str

    @property
    def err(self) -> str:
        """stderr, clipped for assertion messages."""
        return clip(self.stderr)


def dead_pid() -> int:
    """The pid of a process that has ended (and been reaped)."""
    child = subprocess.Popen(["true"])
    child.wait()
    return child.pid


def _group_alive(pgid: int) -> bool:
    """True while a process of group ``pgid`` is still running (zombies do not count)."""
    for proc in psutil.process_iter(["status"]):
        try:
            if os.getpgid(proc.pid) == pgid and proc.info["status"] != psutil.STATUS_ZOMBIE:
                return True
        except (ProcessLookupError, psutil.Error):
            continue
    return False


def group_gone(pgid: int, grace: float) -> bool:
    """Wait up to ``grace`` seconds for every process of group ``pgid`` to end."""
    deadline = time.monotonic() + grace
    while _group_alive(pgid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def kill_group(proc: subprocess.Popen[Any], sig: int = signal.SIGKILL) -> None:
    """Send ``sig`` to the process group led by ``proc``; after SIGKILL wait until all died."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, sig)
    if sig != signal.SIGKILL:
        return
    proc.wait()
    assert group_gone(proc.pid, grace=10), f"process group {proc.pid} survived SIGKILL"


class Background:
    """A CLI run in its own session (process group); stderr goes to a file."""

    def __init__(self, args: list[str], log: Path, env: Mapping[str, str] | None = None) -> None:
        self.log = log
        # a run that hangs is asked for its threads' stacks (:meth:`wait`) before it is killed
        environment = {**(env if env is not None else child_env()), "PYTHONFAULTHANDLER": "1"}
        with log.open("wb") as stderr:
            self.proc = subprocess.Popen(
                args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=stderr,
                env=environment, start_new_session=True, cwd=log.parent,
            )  # fmt: skip

    @property
    def stderr(self) -> str:
        """Everything the run wrote to stderr so far."""
        return self.log.read_text(errors="replace")

    def wait_for(
        self, predicate: Callable[[], bool], poll: float = 0.002, timeout: float = RUN_TIMEOUT
    ) -> bool:
        """Poll until ``predicate()`` (True) or the run ends (False); fail after ``timeout``."""
        deadline = time.monotonic() + timeout
        while self.proc.poll() is None:
            if predicate():
                return True
            if time.monotonic() > deadline:
                kill_group(self.proc)
                raise AssertionError(f"run did not reach the awaited point in {timeout} s")
            time.sleep(poll)
        return False

    def kill_when(self, predicate: Callable[[], bool], poll: float = 0.002) -> bool:
        """SIGKILL the whole group as soon as ``predicate()``; False if the run ended first."""
        reached = self.wait_for(predicate, poll)
        kill_group(self.proc)  # after a normal end: reaps anything the run left behind
        return reached

    def reap(self) -> None:
        """SIGKILL whatever is left of the run's process group and wait for it."""
        kill_group(self.proc)

    def wait(self, timeout: float = RUN_TIMEOUT) -> int:
        """Exit status; on timeout fails the test with where the run's processes were stuck
        (the Python stacks faulthandler prints on SIGABRT), having killed the group."""
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            stuck = self.stacks()
            kill_group(self.proc)
            raise AssertionError(
                f"run still going after {timeout} s; killed it. Its processes:\n{stuck}"
            ) from None

    def stacks(self) -> str:
        """SIGABRT to every process of the run (faulthandler prints each thread's stack to the
        run's stderr), and the end of that stderr with each process's command line."""
        try:
            processes = [psutil.Process(self.proc.pid)]
            processes += processes[0].children(recursive=True)
            described = [f"{p.pid} {p.status()} {' '.join(p.cmdline()[:6])}" for p in processes]
        except psutil.Error:
            processes, described = [], []
        for process in processes:
            with contextlib.suppress(psutil.Error):
                process.send_signal(signal.SIGABRT)
        time.sleep(1.0)
        return "\n".join([*described, self.stderr[-12_000:]])


def run_cli(args: list[str], env: Mapping[str, str] | None = None) -> RunResult:
    """Run the CLI to completion (in its own process group, killed on timeout)."""
    with subprocess.Popen(
        args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env=dict(env) if env is not None else child_env(), start_new_session=True,
        encoding="utf-8", errors="replace",
    ) as proc:  # fmt: skip
        try:
            stdout, stderr = proc.communicate(timeout=RUN_TIMEOUT)
        except subprocess.TimeoutExpired:
            kill_group(proc)
            raise AssertionError(f"{args} still going after {RUN_TIMEOUT} s; killed it") from None
    if not group_gone(proc.pid, grace=LINGER_GRACE):
        kill_group(proc)
        raise AssertionError(f"processes of {args} outlived it by {LINGER_GRACE} s")
    return RunResult(proc.returncode, stdout, stderr)


def run_all(
    commands: Mapping[str, tuple[list[str], Mapping[str, str] | None]], parallel: int = 3
) -> dict[str, RunResult]:
    """Run independent CLI commands a few at a time (a run mostly waits on its startup)."""
    with ThreadPoolExecutor(max_workers=parallel) as pool:
        futures = {key: pool.submit(run_cli, args, env) for key, (args, env) in commands.items()}
        return {key: future.result() for key, future in futures.items()}


# ----------------------------------------------------------------------------- checks


def assert_one_line_error(stderr: str, *needles: str) -> str:
    """``stderr`` is exactly one line ``error: ...`` containing every needle; return it."""
    assert "Traceback" not in stderr, f"traceback on stderr:\n{clip(stderr)}"
    lines = stderr.splitlines()
    assert len(lines) == 1, f"expected one line on stderr, got {len(lines)}:\n{clip(stderr)}"
    line = lines[0]
    assert line.startswith("error:"), line
    for needle in needles:
        assert needle in line, f"{needle!r} not in {line!r}"
    return line


def snapshot_dir(store: Path, name: str) -> Path:
    """Folder of the published snapshot ``name``."""
    return store / "snapshots" / f"snapshot={name}"


def staging_dir(store: Path, name: str) -> Path:
    """Work folder of an unfinished ingest of ``name``."""
    return store / ".staging" / name


def catalog_names(store: Path) -> list[str] | None:
    """Snapshot names in the ``snapshots`` view of ``kg.duckdb`` (None without a catalog)."""
    catalog = store / "kg.duckdb"
    if not catalog.is_file():
        return None
    with duckdb.connect(str(catalog), read_only=True) as connection:
        rows = connection.execute("SELECT name FROM snapshots ORDER BY name").fetchall()
    return [str(row[0]) for row in rows]


def assert_not_published(store: Path, name: str) -> None:
    """No trace of ``name`` among the published snapshots nor in the catalog."""
    folder = store / "snapshots"
    if folder.is_dir():
        leftovers = [p.name for p in folder.iterdir() if name in p.name]
        assert leftovers == [], f"published after a failure: {leftovers}"
    names = catalog_names(store)
    assert names is None or name not in names, f"{name!r} in the catalog: {names}"


def read_manifest(store: Path, name: str) -> dict[str, object]:
    """The published manifest of ``name`` as plain JSON values."""
    data = (snapshot_dir(store, name) / "manifest.json").read_bytes()
    manifest = msgspec.json.decode(data)
    assert isinstance(manifest, dict)
    return manifest


def parquet_rows(folder: Path) -> int:
    """Row count of a published table (a folder of Parquet files)."""
    with duckdb.connect() as connection:
        row = connection.execute(
            "SELECT count(*) FROM read_parquet(?)", [str(folder / "*.parquet")]
        ).fetchone()
    assert row is not None
    return int(row[0])


def table_differences(a: Path, b: Path, table: str) -> tuple[int, int]:
    """Rows of ``a/table`` missing from ``b/table`` and the reverse (multiset semantics)."""
    query = """
        SELECT
            (SELECT count(*) FROM (
                SELECT * FROM read_parquet($a, hive_partitioning = false)
                EXCEPT ALL SELECT * FROM read_parquet($b, hive_partitioning = false))),
            (SELECT count(*) FROM (
                SELECT * FROM read_parquet($b, hive_partitioning = false)
                EXCEPT ALL SELECT * FROM read_parquet($a, hive_partitioning = false)))
    """
    files = {"a": str(a / table / "*.parquet"), "b": str(b / table / "*.parquet")}
    with duckdb.connect() as connection:
        row = connection.execute(query, files).fetchone()
    assert row is not None
    return int(row[0]), int(row[1])


def assert_same_snapshot(store: Path, name: str, reference: Path) -> None:
    """The snapshot ``name`` holds exactly the rows (and counts) of the ``reference`` folder."""
    built = snapshot_dir(store, name)
    for table in TABLES:
        assert table_differences(built, reference, table) == (0, 0), table
    manifest = read_manifest(store, name)
    expected = msgspec.json.decode((reference / "manifest.json").read_bytes())
    assert manifest["counts"] == expected["counts"]
    assert manifest["rejects"] == expected["rejects"]
    source = manifest["source"]
    assert isinstance(source, dict)
    assert source["sha256"] == expected["source"]["sha256"]


def file_identities(folder: Path) -> dict[str, tuple[int, int, int]]:
    """``relative path -> (inode, size, mtime_ns)`` of every file below ``folder``."""
    found: dict[str, tuple[int, int, int]] = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            stat = path.stat()
            found[str(path.relative_to(folder))] = (stat.st_ino, stat.st_size, stat.st_mtime_ns)
    return found
