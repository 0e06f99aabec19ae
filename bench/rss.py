"""Run a command and measure its wall time and the peak RSS of its whole process tree.

Usage as a library::

    from bench.rss import run_measured
    m = run_measured(["lbzip2", "-dc", "-n2", "dump.json.bz2"], stdout_path="/dev/null")
    print(m.seconds, m.peak_rss_bytes)

or from the shell (prints one line of JSON)::

    .venv/bin/python -m bench.rss [--stdout /dev/null] -- lbzip2 -dc -n2 dump.json.bz2

Every ``interval`` seconds (50 ms) the RSS of the process and of all its descendants
is summed with psutil and the peak is kept. Summed RSS counts pages shared between
processes (forked workers, shared libraries) once per process, so it is an upper
bound on the tree's real footprint; a peak shorter than the interval can be missed.
The same samples sum the proportional set size (PSS, /proc/PID/smaps_rollup: a page shared
by n processes counts 1/n in each), the tree's footprint without that double counting:
for a process that forks workers sharing its memory, PSS is the figure to read.

The same samples give the CPU time (user + system) of the whole tree: the last value seen
for each process, summed. The kernel's own accounting (``RUSAGE_CHILDREN``) cannot be used:
it loses the parse workers, whose parent (Python's forkserver) is never waited for. Each
process's last interval (at most 50 ms) is missed, so the figure is a slight undercount.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import IO

import psutil

INTERVAL = 0.05


@dataclass(frozen=True)
class Measured:
    """Outcome of :func:`run_measured`."""

    seconds: float
    peak_rss_bytes: int
    returncode: int
    stdout: str
    stderr: str
    samples: int = 0
    cpu_seconds: float = 0.0
    peak_pss_bytes: int = 0
    """Peak summed PSS of the tree (0 where /proc/PID/smaps_rollup cannot be read)."""
    """User + system CPU time of the whole process tree (see the module doc)."""


def _tree(root: psutil.Process) -> list[psutil.Process]:
    """``root`` and its live descendants (none once it is gone)."""
    try:
        return [root, *root.children(recursive=True)]
    except psutil.Error:
        return []


def tree_rss(root: psutil.Process, cpu: dict[tuple[int, float], float] | None = None) -> int:
    """Sum of the RSS of ``root`` and all its live descendants (0 once it is gone).

    ``cpu``, when given, gets each process's CPU seconds so far, by (pid, start time).
    """
    total = 0
    for process in _tree(root):
        try:
            with process.oneshot():
                total += int(process.memory_info().rss)
                if cpu is not None:
                    times = process.cpu_times()
                    cpu[(process.pid, process.create_time())] = times.user + times.system
        except psutil.Error:
            continue  # exited or became a zombie between listing and sampling
    return total


def tree_pss(root: psutil.Process) -> int:
    """Sum of the proportional set sizes of ``root`` and its live descendants, in bytes."""
    total = 0
    for process in _tree(root):
        try:
            text = Path(f"/proc/{process.pid}/smaps_rollup").read_text()
        except OSError:
            continue
        for line in text.splitlines():
            if line.startswith("Pss:"):
                total += int(line.split()[1]) * 1024
                break
    return total


def _drain(stream: IO[bytes], sink: list[bytes]) -> None:
    """Read a pipe to the end so the child never blocks on a full pipe."""
    for chunk in iter(lambda: stream.read(65536), b""):
        sink.append(chunk)
    stream.close()


def _start_reader(stream: IO[bytes] | None, sink: list[bytes]) -> threading.Thread | None:
    if stream is None:
        return None
    thread = threading.Thread(target=_drain, args=(stream, sink), daemon=True)
    thread.start()
    return thread


def _sample_until_exit(
    process: subprocess.Popen[bytes], interval: float, pss: bool = True
) -> tuple[int, int, float, int]:
    """Sample the tree until the process exits; return (peak RSS bytes, samples, CPU s,
    peak PSS bytes: 0 without ``pss``)."""
    root = psutil.Process(process.pid)
    peak = samples = peak_pss = 0
    cpu: dict[tuple[int, float], float] = {}
    while True:
        peak = max(peak, tree_rss(root, cpu))
        if pss:
            peak_pss = max(peak_pss, tree_pss(root))
        samples += 1
        try:
            process.wait(timeout=interval)
        except subprocess.TimeoutExpired:
            continue
        return peak, samples, sum(cpu.values()), peak_pss


def run_measured(
    cmd: Sequence[str],
    env: Mapping[str, str] | None = None,
    stdout_path: str | os.PathLike[str] | None = None,
    interval: float = INTERVAL,
    cwd: str | os.PathLike[str] | None = None,
    pss: bool = True,
) -> Measured:
    """Run ``cmd``; return wall seconds, peak summed RSS of its process tree and its output.

    ``stdout_path`` sends stdout to that file (e.g. ``/dev/null``) instead of capturing
    it; ``env`` replaces the environment (``None`` inherits ours). ``pss=False`` leaves the
    PSS out: reading /proc/PID/smaps_rollup takes the process's memory-map lock, which
    stalls a process that allocates a lot (an export ran ~10 s slower in 60 s sampled so).
    """
    out_chunks: list[bytes] = []
    err_chunks: list[bytes] = []
    with contextlib.ExitStack() as stack:
        out_file = None
        if stdout_path is not None:
            out_file = stack.enter_context(Path(stdout_path).open("wb"))
        start = time.perf_counter()
        process = subprocess.Popen(
            list(cmd),
            stdout=out_file if out_file is not None else subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=dict(env) if env is not None else None,
            cwd=cwd,
        )
        readers = [
            _start_reader(process.stdout, out_chunks),
            _start_reader(process.stderr, err_chunks),
        ]
        peak, samples, cpu_seconds, peak_pss = _sample_until_exit(process, interval, pss)
        seconds = time.perf_counter() - start
        for reader in readers:
            if reader is not None:
                reader.join()
    return Measured(
        seconds=seconds,
        peak_rss_bytes=peak,
        returncode=process.returncode,
        stdout=b"".join(out_chunks).decode("utf-8", "replace"),
        stderr=b"".join(err_chunks).decode("utf-8", "replace"),
        samples=samples,
        cpu_seconds=cpu_seconds,
        peak_pss_bytes=peak_pss,
    )


def main(argv: list[str] | None = None) -> int:
    """Entry point: run the command after ``--`` and print the measurement as JSON."""
    parser = argparse.ArgumentParser(prog="python -m bench.rss")
    parser.add_argument("--stdout", default=None, help="send the command's stdout here")
    parser.add_argument("--interval", type=float, default=INTERVAL)
    parser.add_argument("cmd", nargs=argparse.REMAINDER, help="-- command [args...]")
    args = parser.parse_args(argv)
    cmd = args.cmd[1:] if args.cmd[:1] == ["--"] else args.cmd
    if not cmd:
        parser.error("no command given")
    measured = run_measured(cmd, stdout_path=args.stdout, interval=args.interval)
    report = asdict(measured)
    report["stdout"] = measured.stdout[-2000:]
    report["stderr"] = measured.stderr[-2000:]
    sys.stdout.write(json.dumps(report) + "\n")
    return measured.returncode


if __name__ == "__main__":
    raise SystemExit(main())
