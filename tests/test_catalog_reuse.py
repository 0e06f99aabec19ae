"""A catalog rebuild keeps the previous catalog's macros only when they are exactly the
ones it would make, and otherwise starts from scratch."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from kgdiff.sqlfiles import render
from kgdiff.store.catalog import CATALOG_STORAGE_VERSION, rebuild_catalog, table_macros
from kgdiff.store.catalog_reuse import macro_mark, macro_names
from kgdiff.store.layout import StoreLayout
from kgdiff.store.store_root import root_macros

MACROS = [*root_macros(), *table_macros()]  # the store root's (scalar) and the table macros
MARK = macro_mark(MACROS, CATALOG_STORAGE_VERSION)
DUCKDB_CLI = str(Path(sys.executable).parent / "duckdb")  # what the dependencies install
TIMELINE_COUNT = "SELECT count(*) > 0 AS seen FROM timeline('Q42')"
FAKE_TIMELINE = "CREATE OR REPLACE MACRO timeline(qid) AS TABLE SELECT 42 AS answer"


@pytest.fixture
def layout(sample_store: Path, tmp_path: Path) -> StoreLayout:
    store = tmp_path / "store"
    shutil.copytree(sample_store, store)
    layout = StoreLayout(store)
    rebuild_catalog(layout)
    return layout


def _tamper(layout: StoreLayout, *statements: str) -> None:
    with duckdb.connect(str(layout.catalog)) as connection:
        for statement in statements:
            connection.execute(statement)


def _macros(layout: StoreLayout) -> dict[str, str]:
    with duckdb.connect(str(layout.catalog), read_only=True) as connection:
        rows = connection.execute(
            "SELECT DISTINCT function_name, comment FROM duckdb_functions() "
            "WHERE NOT internal AND function_type IN ('macro', 'table_macro')"
        ).fetchall()
    return dict(rows)


def _timeline_answers(layout: StoreLayout) -> list[tuple[object, ...]]:
    with duckdb.connect(str(layout.catalog), read_only=True) as connection:
        return connection.execute("SELECT * FROM timeline('Q42') LIMIT 1").fetchall()


def test_every_macro_carries_the_mark_of_its_set(layout: StoreLayout) -> None:
    assert _macros(layout) == dict.fromkeys(macro_names(MACROS), MARK)


def test_a_marked_set_is_kept_and_the_views_are_made_again(layout: StoreLayout) -> None:
    marked_fake = render("catalog/macro_comment", macro="timeline", comment=MARK)
    _tamper(layout, FAKE_TIMELINE, marked_fake, "CREATE VIEW stray AS SELECT 1 AS x")
    rebuild_catalog(layout)
    assert _timeline_answers(layout) == [(42,)]  # kept, not made again
    with duckdb.connect(str(layout.catalog), read_only=True) as connection:
        views = {
            row[0] for row in connection.execute("SELECT view_name FROM duckdb_views()").fetchall()
        }
        counts = connection.execute("SELECT count(*) FROM statements").fetchone()
    assert "stray" not in views and {"statements", "snapshots", "entities"} <= views
    assert counts is not None and counts[0] > 0


@pytest.mark.parametrize(
    "tampering",
    [
        [FAKE_TIMELINE],  # replaced, so unmarked
        [FAKE_TIMELINE, render("catalog/macro_comment", macro="timeline", comment="other")],
        ["CREATE MACRO mine(x) AS x + 1"],  # a macro kgdiff did not make
        ["CREATE TABLE notes AS SELECT 1 AS x"],
        ["DROP MACRO TABLE pools"],
        ["DROP MACRO kgdiff_store_files"],
        ["CREATE OR REPLACE MACRO kgdiff_store_root() AS '/elsewhere/'"],
    ],
    ids=[
        "unmarked",
        "other-mark",
        "foreign-macro",
        "table",
        "missing-macro",
        "missing-root-macro",
        "unmarked-root-macro",
    ],
)
def test_anything_else_means_a_rebuild_from_scratch(
    layout: StoreLayout, tampering: list[str]
) -> None:
    _tamper(layout, *tampering)
    rebuild_catalog(layout)
    assert _macros(layout) == dict.fromkeys(macro_names(MACROS), MARK)
    assert _timeline_answers(layout) != [(42,)]
    with duckdb.connect(str(layout.catalog), read_only=True) as connection:
        assert connection.execute("SELECT count(*) FROM duckdb_tables()").fetchone() == (0,)


def test_a_damaged_previous_catalog_is_rebuilt(layout: StoreLayout) -> None:
    layout.catalog.write_bytes(b"not a duckdb file" * 100)
    rebuild_catalog(layout)
    assert _macros(layout) == dict.fromkeys(macro_names(MACROS), MARK)
    assert not list(layout.root.glob(".kg.duckdb.tmp-*"))


def test_a_kept_catalog_opens_in_the_duckdb_shell(layout: StoreLayout) -> None:
    rebuild_catalog(layout)  # the second rebuild keeps the macros
    result = subprocess.run(
        [DUCKDB_CLI, str(layout.catalog), "-readonly", "-csv", "-c", TIMELINE_COUNT],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["seen", "true"]


def test_a_killed_rebuilds_leftovers_are_removed(layout: StoreLayout) -> None:
    stale = [layout.root / ".kg.duckdb.tmp-99999", layout.root / ".kg.duckdb.tmp-99999.wal"]
    for path in stale:
        path.write_bytes(b"half made")
    rebuild_catalog(layout)
    assert not any(path.exists() for path in stale)
    assert _macros(layout) == dict.fromkeys(macro_names(MACROS), MARK)
