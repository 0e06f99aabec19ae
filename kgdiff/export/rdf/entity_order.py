"""A snapshot's RDF entity by entity: every triple about an entity is written together.

The snapshot is cut into subject ranges of a few thousand entities (``sql/rdf/bounds.sql``);
each table's rows of a range are read on their own (the tables are sorted by subject, so a
range reads only the row groups that can hold it), grouped by entity, and each entity's lines
are written as one block: its own triples (type, terms, ``wdt:``, ``p:`` links), then each
statement's node with its qualifiers, its sitelinks' pages, and last the value nodes its
snaks name, each once. Memory is bounded by one range, whatever the snapshot's size, and a
reader that takes entities one at a time (``kgdiff ingest rdf``) can stream the file.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

import duckdb
import pyarrow as pa

from kgdiff.export.rdf import ntriples as nt
from kgdiff.export.rdf import triples
from kgdiff.sqlfiles import render

RANGE_ENTITIES = 1_000
"""Entities per subject range: a range's rows are held (as Python rows) while it is written.
On the sample snapshot wd-2014-10 (1,700 entities, 84 MB of N-Triples) the export peaks at
190, 210, 240 and 270 MB with ranges of 250, 500, 1,000 and 2,000 entities, in the same time;
each range costs five queries, which a store of many part files pays in metadata reads."""
KEYS = {
    "entities": "qid",
    "labels": "qid",
    "sitelinks": "qid",
    "statements": "subject",
    "qualifiers": "subject",
}
VALUE_PREFIX = "<" + nt.WDV
Row = dict[str, Any]
EntityRows = Mapping[str, list[Row]]
"""One entity's rows, by table."""
Bound = str | None


def subject_ranges(
    connection: duckdb.DuckDBPyConnection, entity_files: list[str], every: int
) -> list[tuple[Bound, Bound]]:
    """Ranges [lo, hi) of ``every`` entities each, the first and last unbounded (None), so
    that together they hold every row whatever its subject."""
    if not entity_files:
        return [(None, None)]
    sql = render("rdf/bounds", files=entity_files)
    cuts = [qid for (qid,) in connection.execute(sql, {"every": every}).fetchall()]
    return list(itertools.pairwise([None, *cuts, None]))


def _grouped(table: pa.Table, key: str) -> dict[str, list[Row]]:
    groups: dict[str, list[Row]] = {}
    for row in triples.rows(table):
        groups.setdefault(row[key], []).append(row)
    return groups


def range_entities(
    connection: duckdb.DuckDBPyConnection,
    files: Mapping[str, list[str]],
    entities: list[str] | None,
    bounds: tuple[Bound, Bound],
) -> Iterator[tuple[str, EntityRows]]:
    """The rows of one subject range, entity by entity in id order."""
    by_table: dict[str, dict[str, list[Row]]] = {}
    params = {"entities": entities, "lo": bounds[0], "hi": bounds[1]}
    for table, table_files in files.items():
        if table_files:
            sql = render(f"rdf/{table}", files=table_files)
            rows = connection.sql(sql, params=params).to_arrow_table()
            by_table[table] = _grouped(rows, KEYS[table])
    for qid in sorted(set().union(*by_table.values())):
        yield qid, {table: groups.get(qid, []) for table, groups in by_table.items()}


class _Block:
    """One entity's lines, sorted into its own, its nodes' and pages', and value nodes."""

    def __init__(self, qid: str) -> None:
        self.own_prefix = nt.entity(qid) + " "
        self.own: dict[str, None] = {}
        """The entity's own triples, each once: two best-ranked statements of one value
        (Q183's two P463 statements of Q7825) state one ``wdt:`` triple, and N-Triples
        written twice is one triple that a line count reads as two."""
        self.nodes: list[str] = []
        self.pages: list[str] = []
        self.values: dict[str, None] = {}

    def add(self, lines: Iterable[str], into: list[str]) -> None:
        for text in lines:
            if text.startswith(self.own_prefix):
                self.own[text] = None
            elif text.startswith(VALUE_PREFIX):
                self.values[text] = None  # a value node shared by two snaks: written once
            else:
                into.append(text)

    def lines(self) -> list[str]:
        return [*self.own, *self.nodes, *self.pages, *self.values]


def _each(rows: Iterable[Row], to_lines: Callable[[Row], Iterator[str]]) -> Iterator[str]:
    for row in rows:
        yield from to_lines(row)


def entity_block(
    qid: str, rows: EntityRows, datatypes: Mapping[str, str], full: bool = True
) -> list[str]:
    """Every N-Triples line about one entity, in the order of the module docstring (``full``
    False: truthy ``wdt:`` triples, terms and sitelinks only)."""
    block = _Block(qid)
    block.add(_each(rows.get("entities", ()), triples.entity_lines), block.nodes)
    block.add(_each(rows.get("labels", ()), triples.label_lines), block.nodes)
    qualifiers: dict[str, list[Row]] = {}
    for row in rows.get("qualifiers", ()) if full else ():
        qualifiers.setdefault(row["statement_id"], []).append(row)
    for row in rows.get("statements", ()):
        block.add(triples.statement_lines(row, datatypes, full), block.nodes)
        for qualifier in qualifiers.pop(row["statement_id"], ()):
            block.add(triples.qualifier_lines(qualifier, datatypes), block.nodes)
    for left in qualifiers.values():  # a qualifier whose statement the snapshot lacks
        block.add(_each(left, lambda row: triples.qualifier_lines(row, datatypes)), block.nodes)
    block.add(_each(rows.get("sitelinks", ()), triples.sitelink_lines), block.pages)
    return block.lines()
