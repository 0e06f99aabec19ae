"""The README's examples, run top to bottom as a newcomer runs them after ``make demo``, leave
the demo's store as the demo left it, byte for byte (issue 39, item 1): the examples that
write use the scratch copy the README makes, or a store of their own.

The checkout is a folder whose ``kgdiff-data`` is a copy of the demo's store; ``/tmp/kgdiff-…``
paths are folders of the test's own. Every command line of the README's ``sh`` blocks runs,
but ``make``, the model run (``lm_eval``, whose predictions the test writes instead) and the
section on real dumps (downloads, other stores); the service is started as the README starts
it and asked every ``curl`` line; the Python blocks and every SQL query run in between.
"""

from __future__ import annotations

import hashlib
import json
import re
import shlex
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import duckdb
import httpx

from tests.cli_in_process import run_in_process
from tests.demo_run import DemoRun
from tests.paths import CRASH_LOGS, OWN_PROCESS, ROOT
from tests.rest_server import copy_store, serving
from tests.test_readme_rest import curl_lines

README = (ROOT / "README.md").read_text(encoding="utf-8")
UNTIL = "\n## Ingesting real dumps"
"""Where the examples a newcomer runs on the demo end (after: downloads and other stores)."""
BLOCK = re.compile(r"```(sh|python|sql)\n(.*?)```", re.S)
SKIPPED = ("make", "(cd", "curl", "kill")
"""Commands a newcomer runs that the test does not: set-up, the model's run (lm-eval, whose
predictions the test writes), the service's lines (run as a block)."""


def examples() -> Iterator[tuple[str, str]]:
    """(kind, text) of the README's examples in order: ``sh`` command lines (continued lines
    joined), ``rest`` blocks (a service and its curl lines), ``python`` blocks, ``sql``
    statements."""
    for kind, body in BLOCK.findall(README.split(UNTIL)[0]):
        if kind == "python":
            yield kind, body
        elif kind == "sql":
            yield from ((kind, part) for part in body.split(";\n") if part.strip())
        elif "kgdiff serve" in body:
            yield "rest", body
        else:
            for line in body.replace("\\\n", " ").splitlines():
                words = shlex.split(re.sub(r"\[[^\]]*\]", "", line.split("  #")[0]))
                if words and words[0] not in SKIPPED and "lm_eval" not in words:
                    yield kind, line


def digest(store: Path) -> dict[str, str]:
    """Every file of ``store`` and its SHA-256."""
    files = sorted(path for path in store.rglob("*") if path.is_file())
    return {str(p.relative_to(store)): hashlib.sha256(p.read_bytes()).hexdigest() for p in files}


class Newcomer:
    """Runs the examples in a checkout folder, with the ``/tmp/kgdiff-…`` folders its own."""

    def __init__(self, checkout: Path) -> None:
        self.checkout = checkout

    def words(self, line: str) -> list[str]:
        """The command line's words, its optional parts (``[…]``) and comment left out, the
        scratch folders and the installed kgdiff the test's own."""
        text = re.sub(r"\[[^\]]*\]", "", line.split("  #")[0])
        text = re.sub(r"/tmp/kgdiff-(\w+)", lambda m: str(self.checkout / m.group(1)), text)
        words = shlex.split(text)
        if words[0] == ".venv/bin/kgdiff":
            return [sys.executable, "-m", "kgdiff", *words[1:]]
        return words

    def run(self, words: list[str]) -> str:
        """Run a command line in the checkout; a kgdiff command inside this process, as
        tests/paths.py runs them (but those that start workers or servers)."""
        environment = {
            "COLUMNS": "200",
            "PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin",
            "HOME": str(self.checkout),
            "XDG_STATE_HOME": str(CRASH_LOGS),
        }
        if words[:3] == [sys.executable, "-m", "kgdiff"] and words[3] not in OWN_PROCESS:
            done = run_in_process(words[3:], environment, self.checkout)
        else:
            done = subprocess.run(
                words, cwd=self.checkout, capture_output=True, text=True, env=environment
            )
        assert done.returncode == 0, f"{shlex.join(words)}: {done.stderr}"
        return done.stdout

    def sh(self, line: str) -> None:
        words = self.words(line)
        if words[0].endswith("duckdb") and "-c" not in words:
            return  # the interactive prompt: its queries are the sql examples
        if words[3:4] == ["score"]:
            self.predict(words[words.index("--dataset") + 1])
        self.run(words)

    def predict(self, dataset: str) -> None:
        """predictions.jsonl as a model's run would leave it: the gold answer of each record."""
        records = (self.checkout / dataset / "data" / "qa" / "evolved.jsonl").read_text()
        lines = [json.loads(line) for line in records.splitlines()]
        answers = [{"id": r["id"], "prediction": r["answer_labels"][0]} for r in lines]
        text = "".join(json.dumps(answer) + "\n" for answer in answers)
        (self.checkout / "predictions.jsonl").write_text(text)

    def rest(self, block: str) -> None:
        """The service as the README starts it (with --enable-sql, as its last curl line
        asks), and each curl line."""
        (start,) = [line for line in block.splitlines() if "kgdiff serve" in line]
        words = self.words(start.replace("&", ""))
        store = Path(words[words.index("--store") + 1]) if "--store" in words else None
        with serving(store or self.checkout / "kgdiff-data", "--enable-sql") as api:
            for request in curl_lines(README):
                self.ask(api, request.method, request.path, request.headers, request.body)

    @staticmethod
    def ask(
        api: httpx.Client, method: str, path: str, headers: dict[str, str], body: object
    ) -> None:
        response = api.request(method, path, headers=headers, json=body)
        while response.status_code == 202:  # a job: wait for it, then ask again
            api.get(response.headers["location"])
            time.sleep(0.5)
            response = api.request(method, path, headers=headers, json=body)
        assert response.status_code < 500, response.text

    def python(self, program: str) -> None:
        self.run([sys.executable, "-c", program])

    def sql(self, query: str) -> None:
        catalog = self.checkout / "kgdiff-data" / "kg.duckdb"
        with duckdb.connect(str(catalog), read_only=True) as connection:
            assert connection.execute(query).fetchall(), query


def test_the_examples_leave_the_demo_store_as_the_demo_left_it(
    demo_run: DemoRun, tmp_path: Path
) -> None:
    # the store as `make demo` leaves it, its classifications and export included: the
    # session's run of the demo command from an empty folder
    store = copy_store(demo_run.store, tmp_path)
    demo = store.rename(tmp_path / "kgdiff-data")
    before = digest(demo)
    newcomer, ran = Newcomer(tmp_path), []
    for kind, text in examples():
        getattr(newcomer, kind)(text)
        ran.append(kind)
    after = digest(demo)
    names = before.keys() | after.keys()
    changed = sorted(name for name in names if before.get(name) != after.get(name))
    assert not changed, f"the README's examples changed the demo's store: {changed[:10]}"
    assert {"sh", "rest", "python", "sql"} <= set(ran) and ran.count("sh") >= 14
