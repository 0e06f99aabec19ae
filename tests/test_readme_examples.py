"""Every example of the README and of docs/ answers on the demo's store (issue 22: two of them
answered nothing): every SQL query of the README and of docs/sql.md, through the catalog as the
`duckdb` shell opens it; the command lines of "Classifying facts for a knowledge cutoff"; and
the Python examples of the README and of docs/python.md, run in order as one program."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from tests.paths import ROOT, run_kgdiff

README = (ROOT / "README.md").read_text(encoding="utf-8")
SQL_DOC = (ROOT / "docs" / "sql.md").read_text(encoding="utf-8")
PYTHON_DOC = (ROOT / "docs" / "python.md").read_text(encoding="utf-8")
NOT_RUN = "<!-- not run"
"""An HTML comment that marks the next block as an example the tests leave alone (it needs a
store elsewhere, or a build the demo makes)."""


def section(text: str, title: str) -> str:
    """The text from the heading ``title`` to the next heading of its level or a higher one."""
    start = text.index(f"\n{title}\n")
    level = len(title.split(" ", 1)[0])
    following = re.search(rf"\n#{{1,{level}}} ", text[start + len(title) + 1 :])
    return text[start : start + len(title) + 1 + following.start() if following else None]


def fenced(text: str, language: str) -> list[str]:
    """The contents of the ```language blocks of ``text``, but those marked as not run."""
    found = re.findall(rf"(\n[^\n]*)\n```{language}\n(.*?)```", text, flags=re.S)
    return [body for before, body in found if not before.strip().startswith(NOT_RUN)]


def statements(text: str) -> list[str]:
    """The SQL statements of ``text``'s sql blocks, each with its comment lines."""
    return [
        part.strip() for block in fenced(text, "sql") for part in block.split(";\n") if part.strip()
    ]


def queries() -> list[str]:
    """The SQL statements of the README's examples and of docs/sql.md."""
    return statements(README) + statements(SQL_DOC)


def command_lines() -> list[list[str]]:
    """The ``kgdiff`` command lines of the classification section, optional parts removed."""
    text = fenced(section(README, "## Classifying facts for a knowledge cutoff"), "sh")[0]
    joined = text.replace("\\\n", " ")
    lines = []
    for line in joined.splitlines():
        line = re.sub(r"\[[^\]]*\]", "", line.split("  #")[0]).strip()
        if line.startswith(".venv/bin/kgdiff "):
            lines.append(shlex.split(line)[1:])
    return lines


def test_the_readme_has_examples_to_run() -> None:
    assert len(statements(README)) >= 12 and len(command_lines()) >= 6
    assert len(statements(SQL_DOC)) >= 8 and len(fenced(PYTHON_DOC, "python")) >= 12


def query_id(query: str) -> str:
    """A test id: the query's comment, else its start."""
    first = query.splitlines()[0]
    return first[3:60] if first.startswith("-- ") else first[:57]


@pytest.mark.parametrize("query", queries(), ids=query_id)
def test_each_readme_query_returns_rows(demo_store: Path, query: str) -> None:
    with duckdb.connect(str(demo_store / "kg.duckdb"), read_only=True) as catalog:
        rows = catalog.execute(query).fetchall()
    assert rows, query


@pytest.mark.parametrize("args", command_lines(), ids=lambda a: " ".join(a[:2]))
def test_each_readme_command_answers(demo_store: Path, args: list[str]) -> None:
    result = run_kgdiff(*args, "--store", str(demo_store))
    assert result.returncode == 0, result.stderr
    assert "0 chains" not in result.stdout and "no statements" not in result.stdout
    assert "0 knowledge updates" not in result.stdout and ": 0 groups" not in result.stdout


@pytest.mark.parametrize("doc", ["README.md", "docs/python.md"])
def test_the_python_examples_run(demo_store: Path, tmp_path: Path, doc: str) -> None:
    """The blocks run in order, from a folder whose ``kgdiff-data`` is a copy of the demo's
    store, as ``make demo`` leaves it in the checkout; each block prints something."""
    blocks = fenced((ROOT / doc).read_text(encoding="utf-8"), "python")
    # a copy: the examples add builds (the staleness curve's months among them) that other
    # tests of the demo store must not find made
    shutil.copytree(demo_store, tmp_path / "kgdiff-data")
    marker = "--- next example ---"
    program = f"\nprint({marker!r})\n".join(blocks)
    result = subprocess.run(
        [sys.executable, "-c", program],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    outputs = result.stdout.split(marker)
    assert len(outputs) == len(blocks) and all(out.strip() for out in outputs), result.stdout


def test_the_benchmark_example_exports_and_scores(export_demo_store: Path, tmp_path: Path) -> None:
    text = fenced(section(README, "## Building a benchmark for a cutoff"), "sh")[0]
    lines = [re.sub(r"\[[^\]]*\]", "", line) for line in text.replace("\\\n", " ").splitlines()]
    files = {"bench-2014", "predictions.jsonl"}  # the README's relative paths, under tmp_path
    export, score = (
        [str(tmp_path / arg) if arg in files else arg for arg in shlex.split(line)[1:]]
        for line in lines
        if line.startswith(".venv/bin/")
    )
    done = run_kgdiff(*export, "--store", str(export_demo_store))
    assert done.returncode == 0, done.stderr
    evolved = (tmp_path / "bench-2014" / "data" / "qa" / "evolved.jsonl").read_text().splitlines()
    with (tmp_path / "predictions.jsonl").open("w") as out:
        for record in map(json.loads, evolved):
            out.write(json.dumps({"id": record["id"], "prediction": record["answer_labels"][0]}))
            out.write("\n")
    done = run_kgdiff(*score, "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["overall"]["n"] == len(evolved) > 0 and report["overall"]["em"] == 1.0


def test_the_rdf_example_exports_and_answers_sparql(demo_store: Path, tmp_path: Path) -> None:
    text = section(README, "## RDF")
    export, ingest = [line for line in text.splitlines() if line.startswith(".venv/bin/kgdiff ")]
    args = [str(tmp_path / a) if a == "germany.ttl" else a for a in shlex.split(export)[1:]]
    done = run_kgdiff(*args, "--store", str(demo_store))
    assert done.returncode == 0, done.stderr
    # the ingest example reads the exported file back, into a store of its own
    paths = {"germany.ttl": tmp_path / "germany.ttl", "/tmp/kgdiff-rdf": tmp_path / "store"}
    args = [str(paths.get(a, a)) for a in shlex.split(ingest)[1:]]
    assert str(tmp_path / "store") in args  # never the demo's store
    read = run_kgdiff(*args)
    assert read.returncode == 0, read.stderr
    assert "published snapshot germany-rdf" in read.stdout
    (program,) = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    result = subprocess.run(
        [sys.executable, "-c", program], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    heads = [line.split()[0] for line in result.stdout.splitlines()]
    assert heads[-3:] == ["Q2518", "Q2530", "Q567"]  # Kohl, Schröder, Merkel


def test_the_backfilled_example_shows_backfilled_facts(demo_store: Path) -> None:
    """The README's query of backfilled facts shows groups whose two views disagree because
    a value valid before the cutoff was recorded after it, not groups a subset snapshot
    cannot speak for (issue 39: it showed only not_covered ones)."""
    (query,) = [query for query in statements(README) if "backfilled" in query]
    with duckdb.connect(str(demo_store / "kg.duckdb"), read_only=True) as catalog:
        found = catalog.execute(query)
        columns = [column[0] for column in found.description]
        rows = [dict(zip(columns, row, strict=True)) for row in found.fetchall()]
    assert rows
    assert all(row["record_level"] not in ("not_covered", row["valid_level"]) for row in rows)
