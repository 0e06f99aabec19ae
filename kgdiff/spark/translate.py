"""The ``sql/`` statements in Spark SQL: sqlglot's DuckDB → Spark translation, plus fix-ups.

``sql/`` is written for DuckDB and stays the one copy of every query: what Spark SQL lacks
was rewritten there in constructs both engines share (see the comments in
``sql/classify/classify.sql``). What cannot be written in a shared way is fixed here, on
sqlglot's tree, after parsing and before generating Spark SQL:

* ``$name`` bind parameters become literals (Spark SQL has no named parameters in views);
* a call of a DuckDB *table macro* (``date_reads(...)``) reads a temporary view of the
  macro's rows instead, computed by the caller (Spark SQL has no table macros), or, for a
  macro given as *inlined* (the classification's rules, ``kgdiff_created(...)``), becomes
  a subquery of the macro's statement with its arguments in place of its parameters (a
  relation named by ``query_table('name')`` there is read by that name);
* ``list_bool_or(l)`` becomes ``exists(l, b -> b)`` and ``list_bit_or(l)`` becomes
  ``aggregate(l, 0, (a, b) -> a | b)`` (Spark SQL has no list aggregates; the classification
  wraps every ``list_bool_or`` in ``coalesce(..., false)`` and calls ``list_bit_or`` on
  non-empty lists, where the two agree with DuckDB's NULL handling).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date

import sqlglot
from sqlglot import exp

from kgdiff.sqlfiles import load_sql

Value = str | int | bool | date | None
Inlined = tuple[str, list[str]]
"""An inlined table macro: its statement's name in ``sql/`` and its parameters in order."""


def _literal(value: Value) -> exp.Expression:
    if value is None:
        return exp.Null()
    if isinstance(value, bool):
        return exp.Boolean(this=value)
    if isinstance(value, int):
        return exp.Literal.number(value)
    if isinstance(value, date):
        return exp.cast(exp.Literal.string(value.isoformat()), exp.DataType.build("date"))
    return exp.Literal.string(value)


def _lambda(body: exp.Expression, *names: str) -> exp.Lambda:
    return exp.Lambda(this=body, expressions=[exp.to_identifier(name) for name in names])


def _var(name: str) -> exp.Column:
    return exp.column(name)


def _list_aggregate(node: exp.Anonymous) -> exp.Expression:
    name = str(node.this).lower()
    (items,) = node.expressions
    if name == "list_bool_or":
        return exp.Anonymous(this="EXISTS", expressions=[items, _lambda(_var("kg_b"), "kg_b")])
    body = exp.BitwiseOr(this=_var("kg_acc"), expression=_var("kg_b"))
    return exp.Anonymous(
        this="AGGREGATE",
        expressions=[items, exp.Literal.number(0), _lambda(body, "kg_acc", "kg_b")],
    )


class Translator:
    """Turns a statement of ``sql/`` into Spark SQL with the given values and macro views."""

    def __init__(
        self,
        params: Mapping[str, Value],
        macro_views: Mapping[str, str],
        inlined: Mapping[str, Inlined] | None = None,
    ) -> None:
        self.params = dict(params)
        self.macro_views = {name.lower(): view for name, view in macro_views.items()}
        self.inlined = {name.lower(): macro for name, macro in (inlined or {}).items()}

    def _fix(self, node: exp.Expression) -> exp.Expression:
        if isinstance(node, exp.Placeholder) and node.name:
            if node.name not in self.params:
                raise KeyError(f"no value for ${node.name}")
            return _literal(self.params[node.name])
        if isinstance(node, exp.Anonymous) and str(node.this).lower() in (
            "list_bool_or",
            "list_bit_or",
        ):
            # sqlglot does not descend into a replaced node: fix its argument first.
            fixed = node.copy()
            fixed.set("expressions", [item.transform(self._fix) for item in node.expressions])
            return _list_aggregate(fixed)
        return node

    def tree(self, sql: str) -> exp.Expression:
        """The fixed-up tree of one DuckDB statement."""
        parsed = sqlglot.parse_one(sql, read="duckdb")
        # Table macros first: their arguments hold parameters that must not be required.
        parsed = parsed.transform(self._macro_call)
        return parsed.transform(self._fix)

    def _macro_call(self, node: exp.Expression) -> exp.Expression:
        if isinstance(node, exp.Table) and isinstance(node.this, exp.Anonymous):
            name = str(node.this.this).lower()
            view = self.macro_views.get(name)
            if view is not None:
                return exp.Table(this=exp.to_identifier(view), alias=node.args.get("alias"))
            if name == "query_table":
                (relation,) = node.this.expressions
                return exp.Table(
                    this=exp.to_identifier(relation.name), alias=node.args.get("alias")
                )
            if name in self.inlined:
                return self._inline(name, node)
        return node

    def _inline(self, name: str, node: exp.Table) -> exp.Expression:
        """The call ``node`` of the inlined macro ``name`` as a subquery of its statement."""
        statement, params = self.inlined[name]
        args = node.this.expressions
        if len(args) != len(params) or any(isinstance(a, exp.PropertyEQ) for a in args):
            raise ValueError(f"{name}: inlined with its {len(params)} arguments by position")
        values = dict(zip(params, args, strict=True))

        def substitute(item: exp.Expression) -> exp.Expression:
            if isinstance(item, exp.Placeholder) and item.name in values:
                copied: exp.Expression = values[item.name].copy()
                return copied
            return item

        text = "\n".join(
            line for line in load_sql(statement).splitlines() if not line.startswith("--")
        )  # its header left out: a comment in the middle of the query
        body = sqlglot.parse_one(text, read="duckdb").transform(substitute)
        alias = node.args.get("alias") or exp.TableAlias(this=exp.to_identifier(name))
        return exp.Subquery(this=body.transform(self._macro_call), alias=alias)

    def spark(self, sql: str) -> str:
        """One DuckDB statement as Spark SQL."""
        return self.tree(sql).sql(dialect="spark")

    def query(self, name: str) -> str:
        """The statement ``sql/<name>.sql`` as Spark SQL; for ``CREATE VIEW`` its query only
        (the caller registers it as a temporary view)."""
        tree = self.tree(load_sql(name))
        if isinstance(tree, exp.Create):
            body: exp.Expression = tree.expression
            return str(body.sql(dialect="spark"))
        return tree.sql(dialect="spark")
