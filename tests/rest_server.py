"""A real ``kgdiff serve`` process on a free loopback port, for the REST service's tests."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

import httpx

from kgdiff.query.lookup import lookup_path, store_tag
from kgdiff.store.catalog import rebuild_catalog, store_lock
from kgdiff.store.layout import StoreLayout
from kgdiff.store.store_root import open_catalog
from tests.paths import CRASH_LOGS, ROOT

PATIENCE = 300.0
"""Seconds a known request may take: a heavy route (updates, pools, chains) on a loaded machine
took more than schemathesis's default 10 s and failed the test for a slow answer, not a wrong
one (speed is measured in bench/)."""

START_SECONDS = 60

LOOKUP_COPIES: list[Path] = []
"""The folder of the run's lookup copies, by their file name (set by tests/conftest.py)."""


def free_port() -> int:
    """A port nothing listens on now (the kernel's choice)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def copy_store(store: Path, into: Path) -> Path:
    """A copy of ``store`` the server may add builds to without disturbing other tests."""
    target = into / "store"
    shutil.copytree(store, target)
    return target


def copy_store_without_builds(store: Path, into: Path) -> Path:
    """A copy of ``store`` holding its snapshots and none of its classification builds.

    The session's stores are shared: a test on the same worker may have classified into one
    before, so a test that counts builds starts from this copy, whose catalog is rebuilt.
    """
    target = into / "store"
    shutil.copytree(store, target, ignore=shutil.ignore_patterns("classify"))
    layout = StoreLayout.resolve(target)
    with store_lock(layout):
        rebuild_catalog(layout)
    return target


@contextmanager
def serving(
    store: Path, *options: str, env: Mapping[str, str] | None = None
) -> Iterator[httpx.Client]:
    """``kgdiff serve --store STORE`` running until the block ends; a client for it."""
    with server_process(store, *options, env=env) as (client, _):
        yield client


@contextmanager
def server_process(
    store: Path, *options: str, env: Mapping[str, str] | None = None
) -> Iterator[tuple[httpx.Client, subprocess.Popen[bytes]]]:
    """As :func:`serving`, with the server's process (one worker: the process answering)."""
    port = free_port()
    command = [sys.executable, "-m", "kgdiff", "serve", "--store", str(store), "--port", str(port)]
    environment = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(ROOT),
        "XDG_STATE_HOME": str(CRASH_LOGS),
        "NO_PROXY": "127.0.0.1,localhost",
        # the heavy work at the service's own CPU priority, as before it had processes: on a
        # machine running the suite beside other work, a lower one starves it for minutes
        "KGDIFF_API_HEAVY_NICE": "0",
        **(env or {}),
    }
    copy = _lookup_copy(store) if "--no-lookup" not in options else None
    if copy is not None:
        _shared_lookup(copy, into_store=True)
    log = store.parent / f"server-{port}.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [*command, *options], cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, env=environment
        )
    try:
        with httpx.Client(
            base_url=f"http://127.0.0.1:{port}", timeout=60, trust_env=False
        ) as client:
            _wait_until_up(client, process, log)
            yield client, process
    finally:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if copy is not None:
            _shared_lookup(copy, into_store=False)


def _lookup_copy(store: Path) -> Path | None:
    """Where the service keeps the lookup copy of ``store`` as it is now (None: no catalog)."""
    layout = StoreLayout.resolve(store)
    if not layout.catalog.is_file():
        return None
    with open_catalog(layout) as connection:
        return lookup_path(layout, store_tag(connection))


def _shared_lookup(copy: Path, into_store: bool) -> None:
    """Share the lookup copies the servers make, by their file name (the store's fingerprint
    and the copy's layout): one made for a store state is given to every later server of a
    store in that state, which reads it as its own instead of making it again (~1.5 CPU-s on
    the samples, for each of some forty servers). ``into_store``: give ``copy`` from the
    shared folder if it is there; else keep the server's in the shared folder if it made one."""
    if not LOOKUP_COPIES:
        return  # outside a test session
    kept = LOOKUP_COPIES[0] / copy.name
    source, target = (kept, copy) if into_store else (copy, kept)
    if target.is_file() or not source.is_file():
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.{os.getpid()}")
    shutil.copyfile(source, partial)
    partial.replace(target)  # whole or not at all: another process may read it meanwhile


def _wait_until_up(client: httpx.Client, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"kgdiff serve ended ({process.returncode}):\n{log.read_text()}")
        try:
            if client.get("/health").status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    raise AssertionError(
        f"kgdiff serve did not answer within {START_SECONDS} s:\n{log.read_text()}"
    )


def server_env(**values: str) -> dict[str, str]:
    """Environment variables for the server (``KGDIFF_API_…``), beside the plain ones."""
    return {f"KGDIFF_API_{name.upper()}": value for name, value in values.items()} | {
        key: os.environ[key] for key in ("OPENBLAS_CORETYPE",) if key in os.environ
    }
