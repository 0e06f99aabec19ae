"""Load the SQL statements kept in ``sql/`` by name.

Each file holds one statement and starts with a header of ``-- name:``,
``-- purpose:`` and ``-- params:`` lines. DuckDB cannot bind parameters in
every position (``COPY ... TO`` paths, ``read_parquet`` file lists in views),
so such parameters are written ``{{name}}`` and substituted as quoted SQL
literals by :func:`render` (``{{@name}}`` for an identifier); everything else
uses ``$name`` bind parameters.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

import duckdb
import pyarrow as pa

from kgdiff.resources import MissingResourceError, sql_text

# DuckDB advises against Arrow from a DB-API result (it copies the rows): for the few rows of
# a point lookup the copy is nothing, and the relation API costs ~0.8 ms more per query.
warnings.filterwarnings(
    "ignore", message="Arrow output on a DB-API result", category=UserWarning, module=r"kgdiff\."
)

PLACEHOLDER = re.compile(r"\{\{(@?)(\w+)\}\}")
IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

Literal = str | int | float | None | list[str] | list[float] | dict[str, str]


class SqlFileError(LookupError):
    """A SQL file is missing, lacks its header, or a placeholder has no value."""


@cache
def load_sql(name: str) -> str:
    """The text of ``sql/<name>.sql`` (``name`` may contain a sub-folder, e.g. ``ingest/x``)."""
    try:
        text = sql_text(name)
    except MissingResourceError as exc:
        raise SqlFileError(f"no SQL statement named {name!r}: {exc}") from exc
    if f"-- name: {name.rsplit('/', 1)[-1]}" not in text:
        raise SqlFileError(f"sql/{name}.sql: the header must start with '-- name: {name}'")
    return text


def run_arrow(
    connection: duckdb.DuckDBPyConnection, name: str, params: Mapping[str, Any]
) -> pa.Table:
    """The rows of the statement ``name`` run with ``params``, as an Arrow table: the
    cheapest way to a few rows (a point lookup), not for large results (they are copied)."""
    return connection.execute(load_sql(name), dict(params)).to_arrow_table()


def quote(value: Literal) -> str:
    """A SQL literal for ``value``: strings quoted, lists as ``[...]``, dicts as structs."""
    if value is None:
        return "NULL"
    if isinstance(value, str):
        return "'" + value.replace("'", "''") + "'"
    if isinstance(value, list):
        return "[" + ", ".join(quote(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{quote(k)}: {quote(v)}" for k, v in value.items()) + "}"
    return repr(value)


def render(name: str, **literals: Literal) -> str:
    """The statement ``name`` with its ``{{placeholders}}`` replaced by quoted literals."""
    text = load_sql(name)

    def substitute(match: re.Match[str]) -> str:
        is_identifier, key = match.group(1), match.group(2)
        if key not in literals:
            raise SqlFileError(f"sql/{name}.sql needs a value for {{{{{key}}}}}")
        value = literals[key]
        if not is_identifier:
            return quote(value)
        if not isinstance(value, str) or not IDENTIFIER.fullmatch(value):
            raise SqlFileError(f"sql/{name}.sql: {value!r} is not a plain identifier")
        return f'"{value}"'

    return PLACEHOLDER.sub(substitute, text)


def _body(text: str) -> str:
    """A statement's text without its comment lines and its closing semicolon."""
    lines = (line for line in text.splitlines() if not line.lstrip().startswith("--"))
    return "\n".join(lines).strip().rstrip(";")


def used_params(name: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """Those of ``params`` the statement ``name`` binds (DuckDB refuses any other)."""
    body = _body(load_sql(name))
    return {key: value for key, value in params.items() if re.search(rf"\${key}\b", body)}


def staged_as_one(name: str, stages: Sequence[str]) -> str:
    """The statement ``name`` with the statements ``stages`` ahead of it as common table
    expressions, each named as its file (``chains/chain_edges`` → ``chain_edges``): what
    kgdiff runs one statement at a time, each kept in a temporary table the next one reads,
    as one query (for a table macro, or a result streamed without keeping it). ``name`` must
    start with ``WITH``."""
    final = _body(load_sql(name))
    if not final.startswith("WITH\n"):
        raise SqlFileError(f"sql/{name}.sql must start with WITH to take its stages")
    ahead = "".join(
        f"{stage.rsplit('/', 1)[-1]} AS (\n{_body(load_sql(stage))}\n),\n" for stage in stages
    )
    rest = final.removeprefix("WITH\n")
    return f"WITH\n{ahead}{rest};"


def as_table_macro(
    name: str,
    macro: str,
    params: list[str],
    defaults: dict[str, str] | None = None,
    text: str | None = None,
) -> str:
    """``CREATE MACRO macro(params) AS TABLE <statement name>`` for the DuckDB prompt.

    The statement's ``$param`` bind parameters become the macro's parameters, so the
    catalog macro and the library run the very same SQL. ``defaults`` maps trailing
    parameters to SQL expressions, making them optional (``name := value``). ``text``, when
    given, is the statement to use instead of the file's (:func:`staged_as_one`).
    """
    body = _body(load_sql(name) if text is None else text)
    for param in params:
        if f"${param}" not in body:
            raise SqlFileError(f"sql/{name}.sql has no parameter ${param}")
        body = re.sub(rf"\${param}\b", param, body)
    if not IDENTIFIER.fullmatch(macro) or re.search(r"\$\w", body):
        raise SqlFileError(f"sql/{name}.sql: cannot make macro {macro!r} ({params=})")
    defaults = defaults or {}
    signature = [f"{p} := {defaults[p]}" if p in defaults else p for p in params]
    return f"CREATE OR REPLACE MACRO {macro}({', '.join(signature)}) AS TABLE\n{body};"
