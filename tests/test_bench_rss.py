"""The benchmark's process-tree measurement counts the CPU time of processes nobody waits for."""

from __future__ import annotations

import sys

from bench.rss import run_measured

SPIN = """
import time
deadline = time.process_time() + {seconds}
while time.process_time() < deadline:
    pass
"""

PARENT = f"""
import subprocess, sys, time
# a grandchild left running when the parent exits: like the forkserver's workers, it is
# never waited for by the measured process
subprocess.Popen([sys.executable, "-c", {SPIN.format(seconds=0.6)!r}])
{SPIN.format(seconds=0.4)}
time.sleep(0.8)
"""


def test_cpu_time_counts_a_grandchild_that_is_never_waited_for() -> None:
    measured = run_measured([sys.executable, "-c", PARENT])
    assert measured.returncode == 0, measured.stderr
    # 1.0 s of spinning in two processes (plus interpreter start-ups), less at most one
    # 50 ms sampling interval per process
    assert 0.85 <= measured.cpu_seconds <= 1.6, measured.cpu_seconds


FORKED = """
import os, time
block = bytearray(200 * 2**20)  # 200 MB, touched, then shared with a forked child
for start in range(0, len(block), 4096):
    block[start] = 1
if os.fork() == 0:
    time.sleep(0.6)
    os._exit(0)
time.sleep(0.6)
os.wait()
"""


def test_pss_counts_memory_a_forked_child_shares_once() -> None:
    measured = run_measured([sys.executable, "-c", FORKED])
    assert measured.returncode == 0, measured.stderr
    mb = 2**20
    # summed RSS sees the 200 MB in both processes; PSS once
    assert measured.peak_rss_bytes >= 400 * mb, measured.peak_rss_bytes
    assert 200 * mb <= measured.peak_pss_bytes <= 300 * mb, measured.peak_pss_bytes
