"""Every example of the README answers with rows on the demo's store (issue 22: two of them
answered nothing): the SQL queries of "A few queries", through the catalog as the `duckdb`
shell opens it, and the command lines of "Classifying facts for a knowledge cutoff"."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import duckdb
import pytest

from tests.paths import ROOT, run_kgdiff

README = (ROOT / "README.md").read_text(encoding="utf-8")


def section(title: str) -> str:
    """The README's text from the heading ``title`` to the next heading of its level."""
    start = README.index(title)
    level = title.split(" ", 1)[0]
    following = README.find(f"\n{level} ", start + len(title))
    return README[start : following if following > 0 else None]


def fenced(text: str, language: str) -> list[str]:
    """The contents of the ```language blocks of ``text``."""
    return re.findall(rf"```{language}\n(.*?)```", text, flags=re.S)


def queries() -> list[str]:
    """The SQL statements of the README's examples, each with its comment line."""
    block = fenced(section("### Examples"), "sql")[0]
    return [part.strip() for part in block.split(";\n") if part.strip()]


def command_lines() -> list[list[str]]:
    """The ``kgdiff`` command lines of the classification section, optional parts removed."""
    text = fenced(section("## Classifying facts for a knowledge cutoff"), "sh")[0]
    joined = text.replace("\\\n", " ")
    lines = []
    for line in joined.splitlines():
        line = re.sub(r"\[[^\]]*\]", "", line.split("  #")[0]).strip()
        if line.startswith(".venv/bin/kgdiff "):
            lines.append(shlex.split(line)[1:])
    return lines


def test_the_readme_has_examples_to_run() -> None:
    assert len(queries()) >= 12 and len(command_lines()) >= 6


@pytest.mark.parametrize("query", queries(), ids=lambda q: q.splitlines()[0][3:60])
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
