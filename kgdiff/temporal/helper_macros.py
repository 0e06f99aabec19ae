"""The ``kgdiff_…`` helper macros kgdiff's SQL calls, and connections that have them even on a
catalog an older kgdiff made (added to a private copy, never to ``kg.duckdb``)."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import duckdb

from kgdiff.sqlfiles import load_sql
from kgdiff.store.catalog_copy import catalog_copy
from kgdiff.store.catalog_reuse import macro_names
from kgdiff.store.layout import StoreLayout
from kgdiff.store.optimizers import disable_wrong_optimizers
from kgdiff.store.store_root import open_catalog, set_store_root
from kgdiff.temporal.classify import rule_macros

TIME_MACROS = (
    "floor_div", "month_days", "day_number", "time_parts", "year_span", "time_day", "time_lo",
    "time_hi", "stored_lo", "stored_hi",
)  # fmt: skip
"""The scalar macros of time value keys (``sql/timevalue/``), each after those it calls:
``kgdiff_time_lo(value)`` and ``kgdiff_time_hi(value)``, a value's first and last day as
64-bit day numbers (:mod:`kgdiff.timetext`), their helpers, and ``kgdiff_stored_lo/hi``, the
same days read from a stored row's DATE where it is exact."""


POOLED_MACRO = "pools/pooled"
"""The table macro ``kgdiff_pooled(statements, periods)``: the pooling rules, which the
``pools`` question and the benchmark export's pools config both call."""


def time_macros() -> list[str]:
    """``CREATE MACRO`` statements of :data:`TIME_MACROS`, in order."""
    return [load_sql(f"timevalue/{name}") for name in TIME_MACROS]


def value_macros() -> list[str]:
    """``CREATE MACRO`` statements of the helper macros that read no store table: the time
    value macros, then ``kgdiff_pooled``."""
    return [*time_macros(), load_sql(POOLED_MACRO)]


def helper_macros() -> list[str]:
    """``CREATE MACRO`` statements of the ``kgdiff_…`` macros that kgdiff's SQL calls:
    :func:`value_macros`, then the classification's rules
    (:data:`~kgdiff.temporal.classify.RULE_MACROS`, which DuckDB binds to the store's tables
    when they are created)."""
    return [*value_macros(), *rule_macros()]


def helper_macro_names() -> list[str]:
    """The names the statements of :func:`helper_macros` define (``kgdiff_time_lo``, …,
    ``kgdiff_pooled``)."""
    return macro_names(helper_macros())


def has_helper_macros(connection: duckdb.DuckDBPyConnection) -> bool:
    """Whether ``connection``'s database defines the helper macros (a catalog made by an
    older kgdiff lacks some until it is rebuilt; the SQL of this one calls them)."""
    row = connection.execute(
        load_sql("timevalue/present"), {"names": helper_macro_names()}
    ).fetchone()
    return bool(row and row[0])


def with_helper_macros(copy: Path, layout: StoreLayout) -> Path:
    """A catalog file that is ``copy`` (a private copy of ``layout``'s catalog, made by an
    older kgdiff that lacks some helper macros) with the helper macros added: made once,
    beside ``copy``, and reused. ``kg.duckdb`` itself is never written."""
    target = copy.with_name(f"{copy.stem}-helpers.duckdb")
    if target.is_file():
        return target
    # as persistent macros of a copy rather than temporary ones of each cursor: binding the
    # rule macros costs ~0.2 s, which every question's cursor would pay
    handle, name = tempfile.mkstemp(prefix=f".{target.name}.", dir=copy.parent)
    os.close(handle)
    partial = Path(name)
    try:
        shutil.copyfile(copy, partial)
        with duckdb.connect(str(partial)) as connection:
            set_store_root(connection, layout)
            for macro in helper_macros():
                connection.execute(macro)
        partial.replace(target)
    finally:
        partial.unlink(missing_ok=True)
    return target


def with_helpers(
    connection: duckdb.DuckDBPyConnection, layout: StoreLayout
) -> duckdb.DuckDBPyConnection:
    """``connection`` (read-only, on the private copy of ``layout``'s catalog) when its
    database has the helper macros; else it is closed and a read-only connection to the copy
    with them (:func:`with_helper_macros`) takes its place, its store root not yet set."""
    if has_helper_macros(connection):
        return connection
    connection.close()
    helped = with_helper_macros(catalog_copy(layout.catalog), layout)
    connection = duckdb.connect(str(helped), read_only=True)
    disable_wrong_optimizers(connection)
    return connection


def open_catalog_with_helpers(layout: StoreLayout) -> duckdb.DuckDBPyConnection:
    """:func:`~kgdiff.store.store_root.open_catalog`, on the private copy with the helper
    macros when the catalog, an older kgdiff's, lacks some (:func:`with_helpers`): the SQL
    such a connection runs calls them (as the graph's connections do)."""
    connection = open_catalog(layout)
    helped = with_helpers(connection, layout)
    if helped is not connection:
        try:
            set_store_root(helped, layout)
        except BaseException:
            helped.close()
            raise
    return helped
