"""An ingest's and a refresh's processes keep pandas out: pyarrow would import it (~0.8
CPU-seconds a process) to convert objects kgdiff never gives it. Each check runs in a fresh
interpreter, as the command line and the parse workers do."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from tests.paths import DATA, ROOT

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("pandas") is None,
    reason="pandas is not installed: nothing to keep out",
)

ARROW = """
import pyarrow as pa
table = pa.table({"qid": ["Q1", "Q2"], "n": [1, 2]})
assert table.num_rows == 2 and pa.schema([("a", pa.string())]).empty_table().num_rows == 0
"""


def _run(code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip()


def test_pyarrow_imports_pandas_unless_it_is_kept_out() -> None:
    assert _run(ARROW + "import sys; print('pandas' in sys.modules)") == "True"
    kept = "from kgdiff.no_pandas import keep_pandas_out; print(keep_pandas_out())\n"
    assert _run(kept + ARROW + "import sys; print('pandas' in sys.modules)") == "True\nFalse"


def test_a_parse_worker_keeps_pandas_out() -> None:
    code = "from kgdiff.ingest.worker import init_worker; init_worker()\n" + ARROW
    assert _run(code + "import sys; print('pandas' in sys.modules)") == "False"


@pytest.mark.parametrize("command", ["ingest", "refresh"])
def test_no_process_of_an_ingest_or_a_refresh_imports_pandas(command: str, tmp_path: Path) -> None:
    store = tmp_path / "store"
    item = DATA / "wdtk_item.json"
    ingest = ["ingest", "wikidata", str(item), "--snapshot", "base", "--date", "2019-01-01"]
    refresh = ["refresh", str(item), "--base", "base", "--snapshot", "new", "--date", "2020-01-01"]
    # -X importtime reports every import of every process: the main one, the forkserver
    # and the parse workers it forks (they inherit the interpreter's options)
    for args in [ingest, refresh] if command == "refresh" else [ingest]:
        done = subprocess.run(
            [sys.executable, "-X", "importtime", "-m", "kgdiff", *args, "--store", str(store)],
            cwd=ROOT, capture_output=True, text=True, check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr[-2000:]
    imported = [line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines()]
    assert "kgdiff.ingest.worker" in imported and "pyarrow" in imported
    # (a refused import of pandas itself is listed too; its modules would show a real one)
    assert not [name for name in imported if name.startswith("pandas.")]


def test_once_pandas_is_imported_nothing_is_kept_out() -> None:
    code = "import pandas\nfrom kgdiff.no_pandas import keep_pandas_out\nprint(keep_pandas_out())"
    assert _run(code + ARROW) == "False"
