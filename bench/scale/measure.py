"""Run one step's command and measure it: wall and CPU seconds and peak RSS of its whole
process tree, the cores other processes kept busy meanwhile, and a time bound.

The sampling is :mod:`bench.rss`'s (every 50 ms the RSS and CPU time of the process and all
its descendants, summed), without PSS (reading ``smaps_rollup`` stalls a process that
allocates a lot). On top of it: a timeout (the whole tree is killed, and the step is
reported as such), the RSS over time (one point a second, to tell which phase peaks), and
``others``: the CPU the rest of the machine used during the step, from ``/proc/stat``, in
cores (on a shared machine, the reason a wall time is long).
"""

from __future__ import annotations

import os
import subprocess
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import psutil

from bench.rss import tree_rss

INTERVAL = 0.05
TIMELINE_EVERY = 1.0
TAIL_CHARS = 4000
EVENT_CHARS = 160
MAX_EVENTS = 400


@dataclass
class Measured:
    """What one command did."""

    returncode: int | None
    seconds: float
    cpu_seconds: float
    peak_rss_bytes: int
    others_cores: float
    timed_out: bool = False
    stdout: str = ""
    stderr: str = ""
    timeline: list[tuple[float, int]] = field(default_factory=list)
    """(seconds since the start, RSS bytes of the tree), about one point a second."""
    events: list[tuple[float, str]] = field(default_factory=list)
    """(seconds since the start, line) of what the command wrote to stderr (its progress)."""


def busy_ticks() -> tuple[int, int]:
    """(busy, total) CPU ticks of the whole machine so far (``/proc/stat``)."""
    try:
        fields = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
    except OSError:
        return 0, 0
    values = [int(value) for value in fields]
    idle = values[3] + (values[4] if len(values) > 4 else 0)
    return sum(values) - idle, sum(values)


def _drain(stream: object, sink: list[bytes]) -> None:
    for chunk in iter(lambda: stream.read(65536), b""):  # type: ignore[attr-defined]
        sink.append(chunk)


def _drain_lines(
    stream: object, sink: list[bytes], events: list[tuple[float, str]], started: float
) -> None:
    """Read a pipe line by line, keeping each line's time (what the step was doing when)."""
    for line in iter(stream.readline, b""):  # type: ignore[attr-defined]
        sink.append(line)
        text = line.decode("utf-8", "replace").strip()
        if text:
            events.append((round(time.perf_counter() - started, 1), text[:EVENT_CHARS]))
            del events[:-MAX_EVENTS]


def kill_tree(root: psutil.Process) -> None:
    """Kill ``root`` and every descendant (a step that ran past its bound)."""
    try:
        processes = [root, *root.children(recursive=True)]
    except psutil.Error:
        return
    for process in reversed(processes):
        try:
            process.kill()
        except psutil.Error:
            continue


class _Sampler:
    """The peak RSS, the CPU seconds and the RSS timeline of a process tree."""

    def __init__(self, pid: int) -> None:
        self.root = psutil.Process(pid)
        self.peak = 0
        self.cpu: dict[tuple[int, float], float] = {}
        self.timeline: list[tuple[float, int]] = []
        self.started = time.perf_counter()
        self._next_point = 0.0

    def sample(self) -> None:
        rss = tree_rss(self.root, self.cpu)
        self.peak = max(self.peak, rss)
        elapsed = time.perf_counter() - self.started
        if elapsed >= self._next_point and rss:
            self.timeline.append((round(elapsed, 1), rss))
            self._next_point = elapsed + TIMELINE_EVERY


def run_step(
    cmd: Sequence[str],
    timeout: float | None = None,
    env: Mapping[str, str] | None = None,
    cwd: str | os.PathLike[str] | None = None,
    tick: Callable[[], None] | None = None,
) -> Measured:
    """Run ``cmd`` to its end or ``timeout`` seconds (then kill its tree); measure it.
    ``tick``, if given, is called about once a second while it runs."""
    out: list[bytes] = []
    err: list[bytes] = []
    events: list[tuple[float, str]] = []
    busy_before, total_before = busy_ticks()
    start = time.perf_counter()
    process = subprocess.Popen(
        list(cmd),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=dict(env) if env is not None else None,
        cwd=cwd,
    )
    readers = [
        threading.Thread(target=_drain, args=(process.stdout, out), daemon=True),
        threading.Thread(
            target=_drain_lines, args=(process.stderr, err, events, start), daemon=True
        ),
    ]
    for reader in readers:
        reader.start()
    sampler = _Sampler(process.pid)
    timed_out = _wait(process, sampler, timeout, tick)
    seconds = time.perf_counter() - start
    for reader in readers:
        reader.join(timeout=30)
    cpu = sum(sampler.cpu.values())
    return Measured(
        returncode=process.returncode,
        seconds=seconds,
        cpu_seconds=cpu,
        peak_rss_bytes=sampler.peak,
        others_cores=others_cores(busy_before, total_before, cpu, seconds),
        timed_out=timed_out,
        stdout=b"".join(out).decode("utf-8", "replace")[-TAIL_CHARS:],
        stderr=b"".join(err).decode("utf-8", "replace")[-TAIL_CHARS:],
        timeline=sampler.timeline,
        events=events,
    )


def _wait(
    process: subprocess.Popen[bytes],
    sampler: _Sampler,
    timeout: float | None,
    tick: Callable[[], None] | None,
) -> bool:
    """Sample until the process exits; kill its tree past ``timeout``. True if killed."""
    deadline = None if timeout is None else time.perf_counter() + timeout
    next_tick = time.perf_counter() + TIMELINE_EVERY
    while True:
        sampler.sample()
        if tick is not None and time.perf_counter() >= next_tick:
            tick()
            next_tick = time.perf_counter() + TIMELINE_EVERY
        try:
            process.wait(timeout=INTERVAL)
            return False
        except subprocess.TimeoutExpired:
            pass
        if deadline is not None and time.perf_counter() > deadline:
            kill_tree(sampler.root)
            process.wait()
            return True


def others_cores(busy_before: int, total_before: int, ours: float, seconds: float) -> float:
    """Cores the rest of the machine kept busy on average while the step ran."""
    busy_after, total_after = busy_ticks()
    ticks = os.sysconf("SC_CLK_TCK")
    if total_after <= total_before or seconds <= 0:
        return 0.0
    busy = (busy_after - busy_before) / ticks
    return round(max(0.0, busy - ours) / seconds, 2)
