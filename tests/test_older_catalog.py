"""A catalog made by an older kgdiff, which lacks some helper macros, answers as a current one:
kgdiff adds them to its private copy once, never to ``kg.duckdb`` itself."""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb
import pytest

import kgdiff
from kgdiff.store.catalog import rebuild_catalog
from kgdiff.store.layout import StoreLayout
from kgdiff.temporal.helper_macros import helper_macro_names

DROPPED = ["DROP MACRO TABLE kgdiff_covered", "DROP MACRO TABLE kgdiff_created",
           "DROP MACRO TABLE kgdiff_implied", "DROP MACRO kgdiff_time_lo"]  # fmt: skip
"""Macros a catalog of an older kgdiff did not have (the rule macros came last)."""


@pytest.fixture
def stores(sample_store: Path, tmp_path: Path) -> tuple[StoreLayout, StoreLayout]:
    """The sample store twice: with a current catalog and with an older one."""
    current, older = StoreLayout(tmp_path / "current"), StoreLayout(tmp_path / "older")
    for layout in (current, older):
        shutil.copytree(sample_store, layout.root)
        rebuild_catalog(layout)
    with duckdb.connect(str(older.catalog)) as connection:
        for statement in DROPPED:
            connection.execute(statement)
    return current, older


def _persistent_macros(connection: duckdb.DuckDBPyConnection) -> set[str]:
    rows = connection.execute(
        "SELECT function_name FROM duckdb_functions() "
        "WHERE NOT internal AND database_name <> 'temp'"
    ).fetchall()
    return {row[0] for row in rows}


def test_an_older_catalog_answers_as_a_current_one(
    stores: tuple[StoreLayout, StoreLayout],
) -> None:
    current, older = stores
    before = older.catalog.read_bytes()
    new_kg, old_kg = kgdiff.open(current.root), kgdiff.open(older.root)
    try:
        for subject in ("Q64", "Q90", "Q42"):
            assert old_kg.facts_at("2014-01-01", subject=subject).equals(
                new_kg.facts_at("2014-01-01", subject=subject)
            )
        assert old_kg.timeline("Q64").equals(new_kg.timeline("Q64"))
        assert old_kg.pools("Q183", from_year=2012, to_year=2014).equals(
            new_kg.pools("Q183", from_year=2012, to_year=2014)
        )
        assert old_kg.updates("2014-06-01").equals(new_kg.updates("2014-06-01"))
        # the staleness curve runs on a connection of its own (not the graph's)
        for mode in ("record", "valid"):
            assert old_kg.staleness(mode).equals(new_kg.staleness(mode))
        with old_kg.connection() as first, old_kg.connection() as second:
            # in the database every cursor reads, not temporary macros of one cursor
            assert set(helper_macro_names()) <= _persistent_macros(first)
            assert set(helper_macro_names()) <= _persistent_macros(second)
    finally:
        new_kg.close()
        old_kg.close()
    assert older.catalog.read_bytes() == before
