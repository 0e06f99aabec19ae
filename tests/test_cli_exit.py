"""A successful ingest leaves without the interpreter's teardown, yet runs the exit
handlers and flushes its output; anything else exits as usual."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.paths import ROOT, SAMPLES, run_kgdiff

SCRIPT = """
import atexit, sys, threading, time
from kgdiff.cli.exit import exit_without_teardown
atexit.register(lambda: print("handler ran", flush=True))
sys.stdout.write("buffered, no newline")
if sys.argv[1] == "thread":
    threading.Thread(target=lambda: (time.sleep(0.3), print(" thread done"))).start()
exit_without_teardown()
print("never reached")
"""


def _run(mode: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", SCRIPT, mode], cwd=ROOT, capture_output=True, text=True, timeout=60
    )


def test_exit_handlers_run_and_output_is_flushed() -> None:
    result = _run("plain")
    assert result.returncode == 0
    assert result.stdout == "buffered, no newlinehandler ran\n"
    assert result.stderr == ""


def test_a_running_thread_gets_a_normal_exit() -> None:
    result = _run("thread")
    assert result.returncode == 0
    assert "thread done" in result.stdout and "never reached" not in result.stdout


def test_an_ingest_exits_cleanly_through_a_pipe(tmp_path: Path) -> None:
    store = tmp_path / "store"
    source = SAMPLES / "testDump_json_2014-12.json.bz2"
    args = ["ingest", "wikidata", "--snapshot", "s", "--date", "2014-12-01", "--store", str(store)]
    result = run_kgdiff(*args, str(source))
    assert result.returncode == 0, result.stderr
    assert "published snapshot s" in result.stdout
    assert "leaked" not in result.stderr and "Warning" not in result.stderr
    assert (store / "kg.duckdb").is_file()
    missing = run_kgdiff(*args, str(tmp_path / "missing.json"))
    assert missing.returncode not in (0, 2), missing.stderr  # the error's own exit code
