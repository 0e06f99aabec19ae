"""A store copied elsewhere (``cp -a``) reads its own files at once, never the original's: in
the ``duckdb`` shell from any folder, and in kgdiff's own commands."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest

from kgdiff.evidence.build import build_evidence
from kgdiff.pageviews.ingest import PageviewIngest, ingest_file
from kgdiff.sqlfiles import quote
from kgdiff.store.catalog import rebuild_catalog
from kgdiff.store.layout import StoreLayout
from kgdiff.store.store_root import open_catalog
from kgdiff.wikipedia.ingest import WikipediaRequest, ingest_wikipedia
from tests.paths import DATA, SAMPLES, run_kgdiff

DUCKDB_CLI = str(Path(sys.executable).parent / "duckdb")  # what the dependencies install
# current on the Wikipedia snapshot's day, so that the evidence columns are filled: 487 days
# after the last Wikidata snapshot, which classify answers only when told to
DATES = ["--init", "2013-12-21", "--cutoff", "2014-10-11", "--current", "2016-05-01", "--allow-gap"]
VIEW = "classified_20131221_20141011_20160501_record"
QUERIES = [
    "SELECT snapshot, count(*), count(DISTINCT subject), sum(hash(statement_id, value)) "
    "FROM statements GROUP BY 1 ORDER BY 1",
    "SELECT snapshot, count(*), sum(hash(qid, label_en)) FROM entities GROUP BY 1 ORDER BY 1",
    "SELECT snapshot, count(*) FROM labels WHERE qid = 'Q64' GROUP BY 1 ORDER BY 1",
    "SELECT snapshot, count(*) FROM sitelinks GROUP BY 1 ORDER BY 1",
    "SELECT snapshot, count(*) FROM qualifiers GROUP BY 1 ORDER BY 1",
    "SELECT name, date, statements, labels FROM snapshots ORDER BY 1",
    "SELECT name, date, pages, revisions FROM wikipedia_snapshots ORDER BY 1",
    "SELECT snapshot, count(*), sum(hash(title)) FROM pages GROUP BY 1 ORDER BY 1",
    "SELECT count(*), count(DISTINCT page_id) FROM revisions",
    "SELECT count(*) FROM page_entities",
    "SELECT count(*), count(DISTINCT subject) FROM evidence",
    "SELECT source, sum(views) FROM pageviews GROUP BY 1 ORDER BY 1",
    f"SELECT level, count(*) FILTER (WHERE len(mentioned_current) > 0), count(*) FROM {VIEW} "
    "GROUP BY 1 ORDER BY 1",
    "SELECT count(*) FROM timeline('Q64')",
]
"""Something of every view over the store's files (and a macro over the views)."""


@pytest.fixture(scope="module")
def template(sample_store: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The three sample Wikidata snapshots, a Wikipedia snapshot with its evidence, a page
    view source and a record-time classification."""
    store = tmp_path_factory.mktemp("relocatable") / "store"
    shutil.copytree(sample_store, store, ignore=shutil.ignore_patterns("builds"))
    wikipedia = SAMPLES / "enwiki-sample-pages-articles.xml.bz2"
    ingest_wikipedia(WikipediaRequest(wikipedia, "enwiki-2016-05", "2016-05-01", store=store))
    assert build_evidence(StoreLayout(store), "enwiki-2016-05").rows > 0
    views = DATA / "pageviews" / "pageviews-20190701-210000.head10.txt"
    ingest_file(PageviewIngest(views, period="hour", date="2019-07-01T21", store=store))
    made = run_kgdiff("classify", *DATES, "--store", str(store))
    assert made.returncode == 0, made.stderr
    return store


@pytest.fixture
def original(template: Path, tmp_path: Path) -> Path:
    """A store of its own, its catalog made where it is (as an ingest makes it)."""
    store = tmp_path / "original" / "store"
    shutil.copytree(template, store)
    rebuild_catalog(StoreLayout(store))
    return store


@pytest.fixture(scope="module")
def original_groups(template: Path, tmp_path_factory: pytest.TempPathFactory) -> list[Any]:
    """``kgdiff classify --out``'s groups for a store made as :func:`original` makes one
    (the same files, its catalog made where it is): what every copy must answer (asked once;
    each test asked its own original, 2 CPU-s a time)."""
    folder = tmp_path_factory.mktemp("original-groups")
    store = folder / "store"
    shutil.copytree(template, store)
    rebuild_catalog(StoreLayout(store))
    return classified(store, folder / "groups.jsonl")


def shell(catalog: str, cwd: Path, *commands: str) -> subprocess.CompletedProcess[str]:
    """Run ``commands`` in the ``duckdb`` shell on ``catalog`` (read-only), from ``cwd``."""
    args = [DUCKDB_CLI, catalog, "-readonly", "-csv"] if catalog else [DUCKDB_CLI, "-csv"]
    for command in commands:
        args += ["-c", command]
    env = {"PATH": "/usr/bin:/bin", "HOME": str(cwd)}  # no ~/.duckdbrc of the user's
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, check=False)


def answers(catalog: str, cwd: Path, *setup: str) -> str:
    """The shell's answers to :data:`QUERIES`, after the ``setup`` commands."""
    result = shell(catalog, cwd, *setup, *QUERIES)
    assert result.returncode == 0, result.stderr
    return result.stdout


def _sorted_lists(value: Any) -> Any:
    """``value`` with its lists of strings sorted (their order within a group is not
    specified)."""
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return sorted(value)
    if isinstance(value, dict):
        return {key: _sorted_lists(item) for key, item in value.items()}
    return value


def classified(store: Path, out: Path) -> list[dict[str, Any]]:
    """``kgdiff classify --out``'s groups (with their evidence columns) for ``store``."""
    result = run_kgdiff("classify", *DATES, "--store", str(store), "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert "reused" in result.stdout  # the copied build, not a new one
    return [_sorted_lists(json.loads(line)) for line in out.read_text().splitlines()]


def copied(original: Path, target: Path) -> Path:
    """``cp -a original target``; ``target``."""
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copytree(original, target, symlinks=True)
    return target


def scramble(store: Path) -> None:
    """Change every data file of ``store``: each Parquet file loses its rows and each
    manifest's counts become zero."""
    for path in store.rglob("*.parquet"):
        pq.write_table(pq.ParquetFile(path).schema_arrow.empty_table(), path)
    for path in store.rglob("manifest.json"):
        manifest = json.loads(path.read_text())
        if isinstance(manifest.get("counts"), dict):
            manifest["counts"] = dict.fromkeys(manifest["counts"], 0)
        path.write_text(json.dumps(manifest))


def test_a_copy_answers_as_the_original_did_once_the_original_is_gone(
    original: Path, tmp_path: Path, original_groups: list[Any]
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    before = answers(str(original / "kg.duckdb"), elsewhere)
    groups = original_groups
    copy = copied(original, tmp_path / "moved" / "store")
    shutil.rmtree(original)
    assert answers(str(copy / "kg.duckdb"), elsewhere) == before
    relative = os.path.relpath(copy / "kg.duckdb", elsewhere)  # ../moved/store/kg.duckdb
    assert answers(relative, elsewhere) == before
    assert answers("kg.duckdb", copy) == before  # opened from inside the store
    assert classified(copy, tmp_path / "after.jsonl") == groups


def test_a_copy_never_reads_the_original(
    original: Path, tmp_path: Path, original_groups: list[Any]
) -> None:
    before = answers(str(original / "kg.duckdb"), tmp_path)
    groups = original_groups
    copy = copied(original, tmp_path / "copy")
    scramble(original)
    assert answers(str(original / "kg.duckdb"), tmp_path) != before  # the change shows
    assert answers(str(copy / "kg.duckdb"), tmp_path) == before
    assert classified(copy, tmp_path / "after.jsonl") == groups
    with open_catalog(StoreLayout(copy)) as connection:
        connection.execute(f"SET temp_directory = {quote(str(tmp_path / 'spill'))}")
        rows = connection.execute("SELECT count(*) FROM statements").fetchone()
    assert rows is not None and rows[0] > 0  # kgdiff's connections name their store


def test_an_attached_catalog_reads_the_store_the_variable_names(
    original: Path, tmp_path: Path
) -> None:
    before = answers(str(original / "kg.duckdb"), tmp_path)
    copy = copied(original, tmp_path / "copy")
    scramble(original)
    attach = f"ATTACH {quote(str(copy / 'kg.duckdb'))} AS kg (READ_ONLY)"
    guessed = shell("", original, attach, "USE kg", "SELECT count(*) FROM statements")
    assert guessed.returncode != 0 and "SET VARIABLE kgdiff_store" in guessed.stderr
    named = f"SET VARIABLE kgdiff_store = {quote(str(copy))}"  # a missing final '/' is added
    assert answers("", original, attach, "USE kg", named) == before


def test_another_temp_directory_needs_the_variable(original: Path, tmp_path: Path) -> None:
    catalog = str(original / "kg.duckdb")
    before = answers(catalog, tmp_path)
    spill = f"SET temp_directory = {quote(str(tmp_path / 'spill'))}"
    refused = shell(catalog, tmp_path, spill, "SELECT count(*) FROM statements")
    assert refused.returncode != 0 and "SET VARIABLE kgdiff_store" in refused.stderr
    named = f"SET VARIABLE kgdiff_store = {quote(str(original) + '/')}"
    assert answers(catalog, tmp_path, spill, named) == before


def test_a_store_under_glob_characters_and_a_quote(
    original: Path, tmp_path: Path, original_groups: list[Any]
) -> None:
    before = answers(str(original / "kg.duckdb"), tmp_path)
    groups = original_groups
    copy = copied(original, tmp_path / "we[ir]d *{x} it's" / "store")
    shutil.rmtree(original)
    assert answers(str(copy / "kg.duckdb"), tmp_path) == before
    assert classified(copy, tmp_path / "after.jsonl") == groups
    rebuilt = run_kgdiff("snapshots", "catalog", "--store", str(copy))
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert answers(str(copy / "kg.duckdb"), tmp_path) == before


def test_a_store_under_a_question_mark_is_read(
    original: Path, tmp_path: Path, original_groups: list[Any]
) -> None:
    """DuckDB puts the '.tmp' of its default temp_directory before a '?' of the path (and
    cannot write a database there: its WAL goes the same way), so only reading is tried."""
    before = answers(str(original / "kg.duckdb"), tmp_path)
    groups = original_groups
    copy = copied(original, tmp_path / "what?" / "store")
    shutil.rmtree(original)
    assert answers(str(copy / "kg.duckdb"), tmp_path) == before
    assert classified(copy, tmp_path / "after.jsonl") == groups


def test_a_backslash_in_the_store_path_is_a_clear_error(original: Path, tmp_path: Path) -> None:
    copy = copied(original, tmp_path / "back\\slash" / "store")
    result = shell(str(copy / "kg.duckdb"), tmp_path, "SELECT count(*) FROM statements")
    assert result.returncode != 0 and "backslash" in result.stderr
