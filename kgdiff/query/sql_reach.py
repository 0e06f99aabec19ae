"""Every function a user's query reaches, macros and views expanded, checked against the
allow-lists (kgdiff/query/sql_functions.py): the function part of the guard's first wall
(kgdiff/query/sql_guard.py).

A query's parse tree names functions, table functions, tables and SHOW clauses. A macro
(DuckDB's own, such as ``histogram_values``, or the catalog's) and a view (DuckDB's own,
such as ``duckdb_databases`` or ``information_schema.schemata``, or the catalog's) stand for
SQL that DuckDB runs in the query's place; that SQL is parsed from its definition in
``duckdb_functions()`` and ``duckdb_views()`` and checked the same way, down to the last
macro. So ``histogram_values('statements', 'rank')`` is refused for the ``query_table`` it
calls, and ``FROM pragma_database_list`` for the ``duckdb_databases()`` it reads. The
catalog's own macros and views (kgdiff wrote them) may call the private functions that
answer with settings and paths, which they use to find the store's files.
"""

from __future__ import annotations

from collections.abc import Iterator

import duckdb

from kgdiff.query.sql_definitions import Definition, Definitions, Tree, parse_trees
from kgdiff.query.sql_errors import SqlRefusedError
from kgdiff.query.sql_functions import Allowed, allowed, denied_reason

# Functions of the parser's own making, not in duckdb_functions(): UNNEST in a select list.
SYNTAX_FUNCTIONS = frozenset({"unnest", "unlist"})
# Functions that run the aggregate their second argument names.
AGGREGATE_BY_NAME = frozenset(
    {"aggregate", "list_aggregate", "list_aggr", "array_aggregate", "array_aggr"}
)
# SHOW clauses that answer with names (SHOW TABLES, SHOW DATABASES), never with values;
# SHOW VARIABLES is not among them, nor SHOW <setting>, which answers with its value.
SHOW_SPECIAL = frozenset({'"tables"', '"databases"', '"schemas"', "__show_tables_expanded"})
QUERY_ALLOWED = "DuckDB's built-in functions that only read, and the catalog's views and macros"

# Read the allow-lists where this module is imported: the query processes fork from a
# server that has (kgdiff/query/safe_sql.py preloads it), so none reads the file again.
allowed()

Via = tuple[str, ...]
"""The macros and views through which the user's query reaches a call, outermost first."""


def check_reach(connection: duckdb.DuckDBPyConnection, tree: Tree) -> None:
    """Refuse (:class:`SqlRefusedError`) a query whose parse tree ``tree`` reaches, through
    any macro or view, a function it may not call. The definitions are parsed a level at a
    time, each level in one statement (a classify() call reaches some 15)."""
    reach = Reach(allowed(), Definitions(connection))
    reach.check(tree, (), False)
    while reach.pending:
        batch, reach.pending = reach.pending, []
        trees = parse_trees(connection, [definition.sql for definition, _ in batch])
        for (definition, via), definition_tree in zip(batch, trees, strict=True):
            reach.check(definition_tree, (*via, definition.label), definition.trusted)


class Reach:
    """One check of a query: the definitions it reaches, each to be parsed and checked
    once (``pending``, with the macros and views through which the query reaches them)."""

    def __init__(self, lists: Allowed, definitions: Definitions):
        self.lists = lists
        self.definitions = definitions
        self.seen: set[tuple[str, bool]] = set()  # (SQL, trusted) of the definitions met
        self.pending: list[tuple[Definition, Via]] = []

    def check(self, tree: Tree, via: Via, trusted: bool) -> None:
        """Check every call of ``tree`` (the SQL that the user's query reaches through the
        macros and views ``via``), and what its own macros and views stand for, in turn."""
        for kind, node in _nodes(tree):
            if kind == "show":
                self._check_show(node, via)
            elif kind == "table":
                self._expand_views(node, via)
            else:
                self._check_call(node, kind == "from", via, trusted)

    def _check_call(self, node: Tree, in_from: bool, via: Via, trusted: bool) -> None:
        name = _name(node["function_name"])
        reason = denied_reason(name, trusted)
        if reason:
            raise _refused(name, reason, via)
        macros = self.definitions.macros(name, in_from)
        if macros and all(macro.trusted for macro in macros):
            self._expand(macros, via)
            return
        known = self.lists.table_functions if in_from else self.lists.functions
        if name not in known and not (not in_from and name in SYNTAX_FUNCTIONS):
            kind = "table function" if in_from else "function"
            raise SqlRefusedError(
                f"refused: {_chain(via, name)}{kind} {name}() is not among those a query may "
                f"call ({QUERY_ALLOWED})"
            )
        if name in AGGREGATE_BY_NAME:
            self._check_named_aggregate(node, name, via, trusted)
        self._expand(macros, via)

    def _check_named_aggregate(self, node: Tree, name: str, via: Via, trusted: bool) -> None:
        arguments = node.get("arguments") or []
        literal = (arguments[1].get("expression") or {}) if len(arguments) > 1 else {}
        text = (
            (literal.get("literal") or {}).get("text")
            if literal.get("class") == "CONSTANT"
            else None
        )
        if not isinstance(text, str):
            raise SqlRefusedError(
                f"refused: {_chain(via, name)}{name}() must name its aggregate in a constant "
                "string, which can be checked"
            )
        self._check_call({"function_name": text}, False, via, trusted)

    def _check_show(self, node: Tree, via: Via) -> None:
        kind, name = node.get("show_type"), str(node.get("table_name", ""))
        if kind in ("DESCRIBE", "SUMMARY", "SHOW_FROM"):
            return  # their query, if any, is walked as any other part of the tree
        if kind == "SHOW_SPECIAL" and name in SHOW_SPECIAL:
            return
        if kind == "SHOW" and _name(name) in self.definitions.table_names():
            return
        raise SqlRefusedError(
            f"refused: {_chain(via, 'SHOW')}SHOW {name} answers with the server's settings or "
            "variables; SHOW TABLES, SHOW DATABASES and DESCRIBE are answered"
        )

    def _expand_views(self, node: Tree, via: Via) -> None:
        """Check the views a table reference may name (a view is judged by who made it,
        not by who names it)."""
        name, schema = _name(node.get("table_name", "")), _name(node.get("schema_name", ""))
        self._expand(self.definitions.views(name, schema), via)

    def _expand(self, definitions: list[Definition], via: Via) -> None:
        for definition in definitions:
            key = (definition.sql, definition.trusted)
            if key not in self.seen:
                self.seen.add(key)
                self.pending.append((definition, via))


def _nodes(tree: Tree) -> Iterator[tuple[str, Tree]]:
    """Every call (``"call"``: a function; ``"from"``: a table function), table reference
    (``"table"``) and SHOW clause (``"show"``) of the parse tree.

    Walks every node rather than the known places, so that a function in a position this
    code never heard of (a lambda, a window, a CTE's default) is still found; with a stack
    rather than recursion, so that no nesting is too deep for Python."""
    stack: list[object] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            kind = node.get("type")
            if kind == "TABLE_FUNCTION" and isinstance(node.get("function"), dict):
                yield "from", node["function"]
                for part in (node, node["function"]):  # all but the function node itself
                    stack.extend(value for key, value in part.items() if key != "function")
                continue
            if kind == "BASE_TABLE":
                yield "table", node
            elif kind == "SHOW_REF":
                yield "show", node
            elif "function_name" in node:
                yield "call", node
            stack.extend(value for value in node.values() if isinstance(value, dict | list))
        elif isinstance(node, list):
            stack.extend(value for value in node if isinstance(value, dict | list))


def _name(text: object) -> str:
    return str(text).strip('"').lower()


def _chain(via: Via, name: str) -> str:
    """How the user's query reaches ``name``, as a message's opening (nothing when the
    query names it itself)."""
    return f"{' → '.join((*via, name + '()'))}: " if via else ""


def _refused(name: str, reason: str, via: Via) -> SqlRefusedError:
    return SqlRefusedError(f"refused: {_chain(via, name)}{name}() {reason}")
