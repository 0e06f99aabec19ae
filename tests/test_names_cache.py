"""The names an export reads come from tables it builds once (kgdiff/export/words/names_cache.py):
one database per language, built for the store as it is and built again when it changed, kept
while an export runs and gone once the last export on the store ends."""

from __future__ import annotations

from pathlib import Path

import duckdb
import polars as pl
import pytest

import kgdiff
from kgdiff.export.benchmark import export_benchmark
from kgdiff.export.core.benchmark_model import BenchmarkRequest
from kgdiff.export.words.name_ids import name_ids
from kgdiff.export.words.names import Names
from kgdiff.export.words.names_cache import ensure_names_cache, names_database, names_kept
from kgdiff.query.lookup import store_tag
from tests.benchmark_exports import CUTOFF
from tests.built_once import private_copy

IDS = ["Q183", "Q30", "Q76"]


def _attached(connection: duckdb.DuckDBPyConnection) -> set[str]:
    rows = connection.execute("SELECT database_name FROM duckdb_databases()").fetchall()
    return {str(name) for (name,) in rows if str(name).startswith("kgdiff_export_names")}


def test_each_language_has_its_own_names(export_demo_store: Path) -> None:
    with kgdiff.open(export_demo_store).connection() as connection:
        english = Names.read(connection, IDS, "wd-2014-10", "en")
        german = Names.read(connection, IDS, "wd-2014-10", "de")
        again = Names.read(connection, IDS, "wd-2014-10", "en")
        assert {names_database("en"), names_database("de")} <= _attached(connection)
    assert english.label("Q183") == "Germany"
    assert german.label("Q183") == "Deutschland"
    assert [again.label(qid) for qid in IDS] == [english.label(qid) for qid in IDS]
    assert names_database("zh-hant") == "kgdiff_export_names_zh_hant"


def test_tables_built_once_are_read_again(export_demo_store: Path) -> None:
    """A second naming reads the tables the first built: the ids each registers on the
    connection (kgdiff/export/words/name_ids.py) are not part of the store's fingerprint (they
    were, and every naming query of an export built the tables anew: +46 % CPU at 3 × 25 M)."""
    with kgdiff.open(export_demo_store).connection() as connection:
        Names.read(connection, IDS, "wd-2014-10", "en")
        tag = store_tag(connection)
        database = ensure_names_cache(connection, "en")
        atlantis = "UPDATE {}.in_lang SET value = 'Atlantis' WHERE kind = 'label' AND qid = 'Q183'"
        connection.execute(atlantis.format(database)).fetchall()
        try:
            with name_ids(connection, pl.Series(IDS)):
                assert store_tag(connection) == tag
            found = Names.read(connection, IDS, "wd-2014-10", "en")
        finally:  # the tables are shared by every graph of the store in this process
            connection.execute(f"UPDATE {database}.cache_key SET tag = 'stale'").fetchall()
    assert found.label("Q183") == "Atlantis"


def test_tables_built_for_another_store_are_built_again(export_demo_store: Path) -> None:
    """Tables whose fingerprint is not the store's (a snapshot added or removed since) are
    not read: what they hold is replaced."""
    with kgdiff.open(export_demo_store).connection() as connection:
        truth = Names.read(connection, IDS, "wd-2014-10", "en")
        database = ensure_names_cache(connection, "en")
        connection.execute(f"UPDATE {database}.in_lang SET value = 'Atlantis' WHERE kind = 'label'")
        connection.execute(f"UPDATE {database}.cache_key SET tag = 'another store'")
        found = Names.read(connection, IDS, "wd-2014-10", "en")
    assert [found.label(qid) for qid in IDS] == [truth.label(qid) for qid in IDS]
    assert "Atlantis" not in [truth.label(qid) for qid in IDS]


def test_the_last_export_to_end_detaches_the_names(export_demo_store: Path, tmp_path: Path) -> None:
    """A long-lived process (the service, a notebook) does not keep them after its exports;
    an export still running on the store's database keeps them when another ends."""
    kg = kgdiff.open(export_demo_store)
    with kg.connection() as connection:
        Names.read(connection, IDS, "wd-2014-10", "en")
        assert names_database("en") in _attached(connection)
    request = BenchmarkRequest(cutoff=CUTOFF, configs=("qa",))
    with names_kept(kgdiff.open(export_demo_store), "en"):  # another export, still running
        done = export_benchmark(kg, request, tmp_path / "bench")
        with kg.connection() as connection:
            assert names_database("en") in _attached(connection)
    assert sum(done.configs["qa"].values()) > 0
    with kg.connection() as connection:
        assert names_database("en") not in _attached(connection)


def test_a_store_gone_meanwhile_leaves_the_exports_own_error(
    pristine_demo: Path, tmp_path: Path
) -> None:
    """An export that fails because its store went away reports that, not the names'
    detaching, which has nothing left to free."""
    store = private_copy(pristine_demo, tmp_path / "store")
    kg = kgdiff.open(store)
    with pytest.raises(RuntimeError, match="the export's own error"), names_kept(kg, "en"):
        with kg.connection() as connection:
            Names.read(connection, IDS, "wd-2014-10", "en")
        (store / "kg.duckdb").unlink()
        raise RuntimeError("the export's own error")


def _files(connection: duckdb.DuckDBPyConnection) -> list[str]:
    rows = connection.execute("SELECT database_name, path FROM duckdb_databases()").fetchall()
    return [str(path) for name, path in rows if str(name) == names_database("en")]


def test_an_export_keeps_the_names_in_a_file_beside_its_output(
    pristine_demo: Path, tmp_path: Path
) -> None:
    """While an export runs, the names' database is a file of a temporary folder in the
    folder given (DuckDB lets go of its pages beyond its memory limit); the folder is gone
    after; a naming outside any export keeps them in memory."""
    kg = kgdiff.open(private_copy(pristine_demo, tmp_path / "store"))
    beside = tmp_path / "the user's exports"  # a quote in the path
    beside.mkdir()
    with names_kept(kg, "en", beside), kg.connection() as connection:
        Names.read(connection, IDS, "wd-2014-10", "en")
        (path,) = _files(connection)
        assert Path(path).parent.parent == beside and Path(path).stat().st_size > 0
    assert list(beside.iterdir()) == []
    with kg.connection() as connection:
        Names.read(connection, IDS, "wd-2014-10", "en")
        assert _files(connection) == ["None"]  # in memory: DuckDB gives no path


def test_exports_on_two_stores_keep_their_names_beside_their_own_outputs(
    pristine_demo: Path, tmp_path: Path
) -> None:
    """An export on one store running when another starts on another store (a notebook, a
    long-lived process) does not decide where the other's names are kept; each store's folder
    is gone after its own last export."""
    first = kgdiff.open(private_copy(pristine_demo, tmp_path / "first"))
    second = kgdiff.open(private_copy(pristine_demo, tmp_path / "second"))
    outputs = [tmp_path / "out-first", tmp_path / "out-second"]
    for output in outputs:
        output.mkdir()
    with names_kept(first, "en", outputs[0]):
        with names_kept(second, "en", outputs[1]):
            for kg, output in zip((first, second), outputs, strict=True):
                with kg.connection() as connection:
                    Names.read(connection, IDS, "wd-2014-10", "en")
                    (path,) = _files(connection)
                assert Path(path).parent.parent == output
        assert list(outputs[1].iterdir()) == []
        assert len(list(outputs[0].iterdir())) == 1
    assert list(outputs[0].iterdir()) == []


def test_an_export_keeps_its_folder_when_it_publishes_a_build(
    pristine_demo: Path, tmp_path: Path
) -> None:
    """An export's first classification for its dates publishes a build, which replaces the
    catalog (and the graph's DuckDB database of it): the names read after it are still kept
    in the export's folder, not in memory."""
    kg = kgdiff.open(private_copy(pristine_demo, tmp_path / "store"))
    beside = tmp_path / "exports"
    beside.mkdir()
    with names_kept(kg, "en", beside):
        with kg.connection() as connection:
            before = connection.execute("SELECT current_database()").fetchall()
        kg.answers.classification(CUTOFF)  # a new build: the catalog is rebuilt
        with kg.connection() as connection:
            assert connection.execute("SELECT current_database()").fetchall() != before
            Names.read(connection, IDS, "wd-2014-10", "en")
            (path,) = _files(connection)
        assert Path(path).parent.parent == beside
    assert list(beside.iterdir()) == []
