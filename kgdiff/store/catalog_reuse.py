"""Keep the previous catalog's macros when a rebuild would make the very same ones.

Creating the catalog's table macros binds each against the views (~0.13 CPU-s, most of
a rebuild, paid by every ingest). Each macro kgdiff makes carries a comment with the
fingerprint of the whole macro set (their SQL, the DuckDB version, the storage version);
a rebuild that would make a set with the same fingerprint copies the previous catalog and
makes only the views that changed (:mod:`kgdiff.store.view_reuse`). Anything else in the
previous catalog (a missing or unmarked macro, a table) means a rebuild from scratch.
"""

from __future__ import annotations

import hashlib
import re
import shutil
from pathlib import Path

import duckdb

from kgdiff.sqlfiles import load_sql, render

MACRO_NAME = re.compile(r"CREATE OR REPLACE MACRO\s+(\w+)\s*\(")
MARK_PREFIX = "kgdiff macro set "
MARK_STATEMENTS = {"macro": "catalog/scalar_macro_comment", "table_macro": "catalog/macro_comment"}
"""The statement that marks a macro, by its kind in ``catalog/catalog_objects``."""


def macro_names(macros: list[str]) -> list[str]:
    """The names of the macros that these ``CREATE OR REPLACE MACRO`` statements make."""
    names = []
    for statement in macros:
        match = MACRO_NAME.search(statement)
        if match is None:
            raise ValueError(f"not a CREATE OR REPLACE MACRO statement: {statement[:60]!r}")
        names.append(match.group(1))
    return names


def macro_mark(macros: list[str], storage_version: str) -> str:
    """The comment every macro of this set carries: a fingerprint of what made it."""
    digest = hashlib.sha256()
    for part in (duckdb.__version__, storage_version, *macros):
        digest.update(part.encode())
        digest.update(b"\0")
    return MARK_PREFIX + digest.hexdigest()


def mark_macros(connection: duckdb.DuckDBPyConnection, macros: list[str], mark: str) -> None:
    """Comment each macro of the set with ``mark`` (the catalog is the current database)."""
    names = set(macro_names(macros))
    for kind, name, _ in connection.execute(load_sql("catalog/catalog_objects")).fetchall():
        if kind in MARK_STATEMENTS and name in names:
            connection.execute(render(MARK_STATEMENTS[kind], macro=name, comment=mark))


def copy_previous(previous: Path, tmp: Path) -> bool:
    """Copy the previous catalog to ``tmp``; False when there is none to copy."""
    try:
        shutil.copyfile(previous, tmp)
    except FileNotFoundError:
        return False
    return True


def keep_macros(connection: duckdb.DuckDBPyConnection, macros: list[str], mark: str) -> bool:
    """Whether the current database holds exactly this macro set, marked, and no table (the
    caller then skips the macros and makes only the views that changed:
    :mod:`kgdiff.store.view_reuse`)."""
    objects = connection.execute(load_sql("catalog/catalog_objects")).fetchall()
    found = {(name, comment) for kind, name, comment in objects if kind in MARK_STATEMENTS}
    if found != {(name, mark) for name in macro_names(macros)}:
        return False
    return not any(kind == "table" for kind, _, _ in objects)
