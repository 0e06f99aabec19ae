"""The SQL that the macros and views of the open database stand for, and DuckDB's parse
trees of SQL: what kgdiff/query/sql_reach.py checks in place of a call of a macro or a
reference to a view.

Read from ``duckdb_functions()`` and ``duckdb_views()`` when first needed (the first costs
tens of milliseconds), once per query: DuckDB's own macros and views and the catalog's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import duckdb
import orjson

from kgdiff.query.sql_errors import SqlRefusedError
from kgdiff.sqlfiles import load_sql

Tree = dict[str, Any]


@dataclass(frozen=True)
class Definition:
    """The SELECT a macro or view stands for (``label`` names it in messages), and whether
    the catalog made it (``trusted``: kgdiff wrote it) rather than DuckDB."""

    label: str
    sql: str
    trusted: bool


class Definitions:
    """The macros and views of the open database, by lower-case name."""

    def __init__(self, connection: duckdb.DuckDBPyConnection) -> None:
        self.connection = connection
        self._macros: dict[tuple[str, bool], list[Definition]] | None = None
        self._views: dict[str, list[tuple[str, Definition]]] | None = None
        self._tables: set[str] | None = None

    def macros(self, name: str, in_from: bool) -> list[Definition]:
        """The overloads of the macro ``name`` (``in_from``: a table macro); none when it
        is not a macro."""
        if self._macros is None:
            self._macros = {}
            for macro, table, sql, trusted in self._rows("safe_sql/macros"):
                definition = Definition(f"{macro}()", sql if table else f"SELECT {sql}", trusted)
                self._macros.setdefault((macro, table), []).append(definition)
        return self._macros.get((name, in_from), [])

    def views(self, name: str, schema: str) -> list[Definition]:
        """The views a reference to ``name`` (in ``schema``, or any when it is ``''``) may
        mean."""
        if self._views is None:
            self._views = {}
            for view_schema, view, sql, trusted in self._rows("safe_sql/views"):
                definition = Definition(f"view {view_schema}.{view}", view_query(sql), trusted)
                self._views.setdefault(view, []).append((view_schema, definition))
        return [view for in_schema, view in self._views.get(name, []) if schema in ("", in_schema)]

    def table_names(self) -> set[str]:
        """The names of the tables and views of the open database."""
        if self._tables is None:
            self._tables = {str(row[0]) for row in self._rows("safe_sql/tables")}
        return self._tables

    def _rows(self, name: str) -> list[tuple[Any, ...]]:
        return self.connection.execute(load_sql(name)).fetchall()


def view_query(create: str) -> str:
    """The SELECT of a ``CREATE VIEW name AS SELECT …`` statement: what follows its first
    AS keyword (DuckDB's tokenizer tells a keyword from a quoted name)."""
    tokens = duckdb.tokenize(create)
    for index, (start, kind) in enumerate(tokens):
        end = tokens[index + 1][0] if index + 1 < len(tokens) else len(create)
        if kind == duckdb.token_type.keyword and create[start:end].strip().upper() == "AS":
            return create[end:]
    return create  # no AS: DuckDB will not serialize it, and the view is refused


def parse_tree(connection: duckdb.DuckDBPyConnection, sql: str) -> Tree:
    """DuckDB's parse tree of the SELECT ``sql``; a :class:`SqlRefusedError` when DuckDB
    cannot serialize it (not a SELECT) or it nests too deeply to be read."""
    return parse_trees(connection, [sql])[0]


def parse_trees(connection: duckdb.DuckDBPyConnection, texts: list[str]) -> list[Tree]:
    """The parse trees of several SELECTs, in one statement (see :func:`parse_tree`)."""
    row = connection.execute(load_sql("safe_sql/serialize"), {"texts": texts}).fetchone()
    return [_tree(text) for text in (row[0] if row else [None] * len(texts))]


def _tree(text: str | None) -> Tree:
    try:
        tree = orjson.loads(text) if text else {"error": True, "error_message": "no tree"}
    except orjson.JSONDecodeError as exc:  # deeper than orjson's 1024 levels
        raise SqlRefusedError(
            f"refused: the query nests too deeply to be checked ({exc})"
        ) from None
    if tree.get("error"):
        reason = tree.get("error_message", "no reason given")
        raise SqlRefusedError(f"refused: the query cannot be checked ({reason}); write a SELECT")
    return dict(tree)
