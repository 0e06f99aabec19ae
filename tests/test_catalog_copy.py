"""kgdiff's connections open a private copy of the catalog, never ``kg.duckdb`` itself."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from kgdiff.errors import StoreError
from kgdiff.store.catalog_copy import PREFIX, CatalogCopies
from kgdiff.store.liveness import remove_dead_folders


def _catalog(path: Path, answer: int) -> Path:
    with duckdb.connect(str(path)) as connection:
        connection.execute(f"create or replace view answer as select {answer} as value")
    return path


def _answer(copy: Path) -> int:
    with duckdb.connect(str(copy), read_only=True) as connection:
        row = connection.execute("select value from answer").fetchone()
    assert row is not None
    return int(row[0])


def test_a_copy_is_made_once_and_again_when_the_catalog_is_replaced(tmp_path: Path) -> None:
    catalog = _catalog(tmp_path / "kg.duckdb", 1)
    copies = CatalogCopies()
    first = copies.path(catalog)
    assert first.parent != tmp_path and _answer(first) == 1
    assert copies.path(catalog) == first  # unchanged: the same copy
    # a rebuild writes a new file and renames it over the catalog, as kgdiff's does
    _catalog(tmp_path / "next.duckdb", 2).replace(catalog)
    second = copies.path(catalog)
    assert second != first and _answer(second) == 2
    assert not first.exists()  # the old copy's name is gone (open connections keep it)


def test_a_connection_on_the_old_copy_keeps_reading_it(tmp_path: Path) -> None:
    catalog = _catalog(tmp_path / "kg.duckdb", 1)
    copies = CatalogCopies()
    with duckdb.connect(str(copies.path(catalog)), read_only=True) as old:
        _catalog(tmp_path / "next.duckdb", 2).replace(catalog)
        assert _answer(copies.path(catalog)) == 2
        assert old.execute("select value from answer").fetchone() == (1,)


def test_a_missing_catalog_is_a_store_error(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match=r"no catalog at .*kg\.duckdb"):
        CatalogCopies().path(tmp_path / "kg.duckdb")


def test_the_copies_go_when_the_process_ends(tmp_path: Path) -> None:
    catalog = _catalog(tmp_path / "kg.duckdb", 1)
    script = (
        "import sys; from pathlib import Path; from kgdiff.store.catalog_copy import catalog_copy;"
        f" print(catalog_copy(Path({str(catalog)!r})).parent)"
    )
    folder = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert folder and not Path(folder).exists()


def test_a_forked_child_makes_its_own_folder_and_leaves_the_parents(tmp_path: Path) -> None:
    catalog = _catalog(tmp_path / "kg.duckdb", 1)
    copies = CatalogCopies()
    parent_copy = copies.path(catalog)
    reader, writer = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child reports through the pipe
        try:
            os.write(writer, str(copies.path(catalog)).encode())
        finally:
            os._exit(0)
    os.close(writer)
    child_copy = Path(os.read(reader, 4096).decode())
    os.close(reader)
    os.waitpid(child, 0)
    assert child_copy.parent != parent_copy.parent
    assert parent_copy.is_file() and _answer(parent_copy) == 1


def test_kgdiffs_catalog_connections_are_held_to_the_catalog_memory(sample_store: Path) -> None:
    """DuckDB's own default is 80 % of the machine's memory: the evidence build took 2.7 GB at
    3 x 25 M statements through a connection without a limit, and grew with the store. The
    connections of a process share one database: a limit kgdiff set stays, in either order."""
    from kgdiff.query.graph import KnowledgeGraph
    from kgdiff.store.layout import StoreLayout
    from kgdiff.store.store_root import CATALOG_MEMORY, open_catalog

    def limit(connection: duckdb.DuckDBPyConnection) -> object:
        return connection.execute("SELECT current_setting('memory_limit')").fetchone()

    with duckdb.connect(config={"memory_limit": CATALOG_MEMORY}) as plain:
        catalog_limit = limit(plain)
    with duckdb.connect(config={"memory_limit": "700MB"}) as plain:
        lower = limit(plain)
    layout = StoreLayout.resolve(sample_store)
    with open_catalog(layout) as first:
        assert limit(first) == catalog_limit
        graph = KnowledgeGraph(layout, settings={"memory_limit": "700MB"})
        with graph.connection() as connection:  # the same database, opened second
            assert limit(connection) == lower
            with open_catalog(layout) as third:
                assert limit(third) == lower
        graph.close()
    with KnowledgeGraph.open(sample_store).connection() as connection:
        assert limit(connection) == catalog_limit


def test_the_folders_of_processes_that_no_longer_run_are_removed(tmp_path: Path) -> None:
    """A killed process cannot remove its folder: the next process to make one does."""
    catalog = _catalog(tmp_path / "kg.duckdb", 1)
    script = (
        "import os, signal; from pathlib import Path;"
        " from kgdiff.store.catalog_copy import catalog_copy;"
        f" print(catalog_copy(Path({str(catalog)!r})).parent, flush=True);"
        " os.kill(os.getpid(), signal.SIGKILL)"
    )
    killed = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert killed.returncode == -9
    orphan = Path(killed.stdout.strip())
    assert orphan.is_dir()  # no exit handler ran
    temporary = orphan.parent
    unrelated = temporary / f"{PREFIX}{os.getpid()}-{tmp_path.name}"  # a running process's
    old_style = temporary / f"{PREFIX}{tmp_path.name}"  # no process id in the name: left alone
    unrelated.mkdir()
    old_style.mkdir()
    try:
        assert orphan in remove_dead_folders(temporary, [PREFIX])
        assert not orphan.exists()
        assert unrelated.is_dir() and old_style.is_dir()
    finally:
        unrelated.rmdir()
        old_style.rmdir()


def test_a_copy_is_made_again_when_its_folder_was_swept(tmp_path: Path) -> None:
    catalog = _catalog(tmp_path / "kg.duckdb", 1)
    copies = CatalogCopies()
    first = copies.path(catalog)
    first.unlink()
    first.parent.rmdir()  # as a process of another pid namespace sharing /tmp might
    again = copies.path(catalog)
    assert again.is_file() and _answer(again) == 1
