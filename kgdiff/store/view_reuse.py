"""Keep the previous catalog's views that a rebuild would make again, unchanged.

Making a view binds its query: DuckDB reads the schema of the files it names (~3 ms a
snapshot table, ~18 ms a classification build's view joined with the evidence). A rebuild
made every view again, so publishing one classification build into a store holding twenty
bound all twenty-odd views anew (~0.2–0.4 CPU-s, paid by every ingest, build and command
that publishes). Each view now carries a mark: a fingerprint of its statement, of DuckDB's
and the catalog's storage version, and of the store's files and folders the statement names
(their inode, modification time and size, so a snapshot published again under the same name,
or a folder that gained or lost a part file, changes it). A rebuild from a copy of the
previous catalog keeps a view whose mark is the one it would give it, and makes every later
view of the plan again once one had to be made (a later view may read an earlier one, whose
columns could have changed). A view the plan makes twice (a classification build's, made
plain, then again with its evidence columns) is kept when it carries its last statement's
mark. Views the plan no longer names are dropped.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from pathlib import Path

import duckdb

from kgdiff.sqlfiles import load_sql, render

VIEW_NAME = re.compile(r'CREATE OR REPLACE VIEW\s+"?(\w+)"?\s+AS\b')
LITERAL = re.compile(r"'((?:[^']|'')*)'")
GLOB = re.compile(r"[*?\[{]")
MARK_PREFIX = "kgdiff view "


def view_name(statement: str) -> str:
    """The name of the view a ``CREATE OR REPLACE VIEW`` statement makes."""
    match = VIEW_NAME.search(statement)
    if match is None:
        raise ValueError(f"not a CREATE OR REPLACE VIEW statement: {statement[:60]!r}")
    return match.group(1)


def _named_files(root: Path, statement: str) -> Iterator[str]:
    """What identifies the store's files the statement names (relative paths in its string
    literals; for a glob over a folder's files, that folder), as it is on disk now."""
    for literal in LITERAL.findall(statement):
        text = literal.replace("''", "'")
        if "/" not in text or text.startswith("/"):
            continue
        path = root / text
        if GLOB.search(path.name):
            path = path.parent
        try:
            found = path.stat()
        except OSError:
            yield f"{text}\0missing"
            continue
        yield f"{text}\0{found.st_ino}\0{found.st_mtime_ns}\0{found.st_size}"


def view_mark(root: Path, statement: str, storage_version: str) -> str:
    """The comment a view made by ``statement`` carries in a catalog of the store at ``root``."""
    digest = hashlib.sha256()
    for part in (duckdb.__version__, storage_version, statement, *_named_files(root, statement)):
        digest.update(part.encode())
        digest.update(b"\0")
    return MARK_PREFIX + digest.hexdigest()


def make_views(
    connection: duckdb.DuckDBPyConnection, root: Path, views: list[str], storage_version: str
) -> list[str]:
    """Make ``views`` (in order) in the current database, the catalog, keeping those it holds
    already with the same mark; drop the views it holds that ``views`` does not name. The
    names of the views made, in order."""
    objects = connection.execute(load_sql("catalog/catalog_objects")).fetchall()
    held = {name: comment for kind, name, comment in objects if kind == "view"}
    names = [view_name(statement) for statement in views]
    for stale in sorted(set(held) - set(names)):
        connection.execute(render("catalog/drop_view", view=stale))
    marks = [view_mark(root, statement, storage_version) for statement in views]
    final = dict(zip(names, marks, strict=True))  # a view made twice keeps its last statement
    made: list[str] = []
    for name, statement, mark in zip(names, views, marks, strict=True):
        if not made and held.get(name) == final[name]:
            continue
        connection.execute(statement)
        connection.execute(render("catalog/view_comment", view=name, comment=mark))
        made.append(name)
    return made
