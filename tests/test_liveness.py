"""The marks that tell whether the process that left a file in the store still runs."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import msgspec

from kgdiff.query.jobs import JobState, fail_orphaned_jobs, orphaned_jobs
from kgdiff.store.liveness import ProcessMark, is_running, start_ticks, this_process


def test_this_process_is_running() -> None:
    mark = this_process()
    assert mark.pid == os.getpid()
    assert mark.started is not None and mark.boot is not None
    assert is_running(mark)


def test_a_process_that_ended_is_not_running() -> None:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    started = start_ticks(child.pid)
    child.wait()
    assert not is_running(ProcessMark(child.pid, started, this_process().boot))


def test_another_process_with_the_same_pid_is_not_the_one_marked() -> None:
    mark = this_process()
    assert mark.started is not None
    assert not is_running(ProcessMark(mark.pid, mark.started - 1, mark.boot))
    assert not is_running(ProcessMark(mark.pid, mark.started, "another-boot"))


def test_a_command_name_with_spaces_and_parentheses_is_read_past() -> None:
    # a process may name itself anything (/proc/self/comm): the fields after it still count
    script = "open('/proc/self/comm', 'w').write('x) (y z'); print(flush=True); input()"
    child = subprocess.Popen(
        [sys.executable, "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    try:
        assert child.stdout is not None
        child.stdout.readline()
        assert "(x) (y z)" in Path(f"/proc/{child.pid}/stat").read_text()
        mark = ProcessMark(child.pid, start_ticks(child.pid), this_process().boot)
        assert mark.started is not None and is_running(mark)
    finally:
        child.kill()
        child.wait()


def test_jobs_of_a_stopped_server_are_found_and_failed(tmp_path: Path) -> None:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    dead = ProcessMark(child.pid, start_ticks(child.pid), this_process().boot)
    child.wait()
    states = {
        "a" * 20: JobState("a" * 20, "running", "/r", 0.0, owner=dead),
        "b" * 20: JobState("b" * 20, "running", "/r", 0.0, owner=this_process()),
        "c" * 20: JobState("c" * 20, "done", "/r", 0.0, owner=dead),
        "d" * 20: JobState("d" * 20, "queued", "/r", 0.0),  # an earlier kgdiff's: no owner
    }
    for ident, state in states.items():
        (tmp_path / f"{ident}.json").write_bytes(msgspec.json.encode(state))
    assert [s.id for s in orphaned_jobs(tmp_path)] == ["a" * 20, "d" * 20]
    failed = fail_orphaned_jobs(tmp_path)
    assert [s.status for s in failed] == ["failed", "failed"]
    assert orphaned_jobs(tmp_path) == []
    again = msgspec.json.decode((tmp_path / f"{'a' * 20}.json").read_bytes(), type=JobState)
    assert again.error_kind == "ServerStopped" and f"pid {child.pid}" in (again.error or "")
