"""kgdiff's DuckDB connections turn off the optimizers that gave wrong answers over the
catalog's views (kgdiff/store/optimizers.py): DuckDB 2.0's partitioned execution read every
snapshot's statements for a query that asked for one, on a store of 3 x 25 M statements
(too large to build here; the module says how it showed)."""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb
import pytest

import kgdiff
from kgdiff.query.sql_limits import SqlLimits
from kgdiff.query.sql_session import locked_connection
from kgdiff.store.layout import StoreLayout
from kgdiff.store.optimizers import (
    WRONG_ANSWERS,
    connect,
    disable_wrong_optimizers,
    optimizers_off,
)
from kgdiff.store.store_root import open_catalog
from kgdiff.temporal.parts import PLANNER_SETTING
from tests.paths import ROOT


def _disabled(connection: duckdb.DuckDBPyConnection) -> set[str]:
    row = connection.execute("SELECT current_setting('disabled_optimizers')").fetchone()
    return {name.strip() for name in str(row[0] if row else "").split(",") if name.strip()}


def test_catalog_connections_and_the_planner_setting_leave_them_off(sample_store: Path) -> None:
    with open_catalog(StoreLayout.resolve(sample_store)) as connection:
        assert set(WRONG_ANSWERS) <= _disabled(connection)
        connection.execute(PLANNER_SETTING)  # the classification's parts set their own
        assert set(WRONG_ANSWERS) | {"build_side_probe_side"} <= _disabled(connection)
    with kgdiff.open(sample_store, lookup=False).connection() as connection:
        assert set(WRONG_ANSWERS) <= _disabled(connection)


def test_turning_them_off_keeps_what_a_caller_turned_off() -> None:
    with duckdb.connect() as connection:
        connection.execute("SET disabled_optimizers = 'top_n'")
        disable_wrong_optimizers(connection)
        assert _disabled(connection) == {"top_n", *WRONG_ANSWERS}
        disable_wrong_optimizers(connection)
        assert _disabled(connection) == {"top_n", *WRONG_ANSWERS}


def test_a_block_turns_more_off_and_sets_back_what_was_off_before() -> None:
    with connect({"disabled_optimizers": "top_n"}) as connection:
        before = _disabled(connection)
        with optimizers_off(connection, "build_side_probe_side"):
            assert _disabled(connection) == before | {"build_side_probe_side"}
        assert _disabled(connection) == before == set(WRONG_ANSWERS) | {"top_n"}
        with pytest.raises(duckdb.Error), optimizers_off(connection, "build_side_probe_side"):
            connection.execute("SELECT * FROM no_such_table")
        assert _disabled(connection) == before


def test_the_services_sql_sessions_leave_them_off(sample_store: Path, tmp_path: Path) -> None:
    """A ``POST /v1/sql`` query's connection (its settings locked once it starts; made in a
    process of its own in the service, here on a copy of the catalog no other connection of
    this process has open)."""
    layout = StoreLayout.resolve(sample_store)
    catalog = tmp_path / "kg.duckdb"
    shutil.copyfile(layout.catalog, catalog)
    connection = locked_connection(layout, catalog, SqlLimits())
    try:
        assert set(WRONG_ANSWERS) <= _disabled(connection)
    finally:
        connection.close()


def test_a_new_database_starts_with_them_off_beside_the_callers_settings() -> None:
    with connect({"threads": 1, "disabled_optimizers": "top_n"}) as connection:
        assert _disabled(connection) == {"top_n", *WRONG_ANSWERS}
        assert connection.execute("SELECT current_setting('threads')").fetchone() == (1,)


def test_every_connection_kgdiff_opens_turns_them_off() -> None:
    """A file that opens DuckDB itself opens it with :func:`connect`, turns them off on the
    connection or names them in its configuration (a file's database keeps the
    configuration its first opener gave)."""
    careless = []
    for path in sorted((ROOT / "kgdiff").rglob("*.py")):
        text, name = path.read_text(encoding="utf-8"), str(path.relative_to(ROOT))
        if "duckdb.connect(" not in text or name == "kgdiff/store/optimizers.py":
            continue
        if not any(mark in text for mark in ("disable_wrong_optimizers(", "disabled_names(")):
            careless.append(name)
    assert careless == []
