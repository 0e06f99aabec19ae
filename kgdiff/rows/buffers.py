"""Collect the rows of a batch of entities and turn them into the five part tables."""

from __future__ import annotations

from typing import Any

import pyarrow as pa

from kgdiff.readers.entity_model import Entity, statement_groups
from kgdiff.rows.schema import ENTITY_ROWS, PART_SCHEMAS
from kgdiff.rows.statements import RowError, statement_rows
from kgdiff.rows.terms import TermColumns, english


def _aliases_en(entity: Entity) -> list[str] | None:
    aliases = entity.aliases
    if isinstance(aliases, dict) and "en" in aliases:
        return [term.value for term in aliases["en"]]
    return None


def _entity_row(entity: Entity, n_statements: int, source_line: int) -> tuple[Any, ...]:
    redirect = entity.redirect or (entity.redirects or {}).get("to")
    labels = entity.labels if isinstance(entity.labels, dict) else {}
    sitelinks = entity.sitelinks if isinstance(entity.sitelinks, dict) else {}
    return (
        entity.id,
        entity.type or ("redirect" if redirect else None),
        entity.datatype,
        redirect,
        entity.lastrevid,
        entity.modified,
        english(entity.labels) or english(entity.lemmas),
        english(entity.descriptions),
        _aliases_en(entity),
        len(labels),
        len(sitelinks),
        n_statements,
        source_line,
    )


def _table(rows: list[tuple[Any, ...]], schema: pa.Schema) -> pa.Table:
    if not rows:
        return schema.empty_table()
    columns = zip(*rows, strict=True)
    arrays = [pa.array(col, type=field.type) for col, field in zip(columns, schema, strict=True)]
    return pa.Table.from_arrays(arrays, schema=schema)


class RowBuffers:
    """Rows of one batch, for each part table."""

    def __init__(self) -> None:
        self.entities: list[tuple[Any, ...]] = []
        self.statements: list[tuple[Any, ...]] = []
        self.qualifiers: list[tuple[Any, ...]] = []
        self.terms = TermColumns()

    def add_entity(self, entity: Entity, source_line: int) -> int:
        """Append the rows of one entity; return its number of statements.

        Raises :class:`RowError` without leaving partial rows behind.
        """
        if not entity.id:
            raise RowError("entity without an 'id'")
        marks = (len(self.statements), len(self.qualifiers))
        count = 0
        try:
            groups = statement_groups(entity)
            for pid in sorted(groups):  # the published order: finalize keeps it
                statements = groups[pid]
                for ordinal, statement in enumerate(statements):
                    statement_rows(
                        statement, entity.id, pid, ordinal, self.statements, self.qualifiers
                    )
                    count += 1
        except RowError:
            del self.statements[marks[0] :], self.qualifiers[marks[1] :]
            raise
        self.terms.add(len(self.entities), entity)
        self.entities.append(_entity_row(entity, count, source_line))
        return count

    def to_tables(self) -> dict[str, pa.Table]:
        """Transpose the buffered rows into one Arrow table per part table."""
        tables = {
            "statements": _table(self.statements, PART_SCHEMAS["statements"]),
            "qualifiers": _table(self.qualifiers, PART_SCHEMAS["qualifiers"]),
        }
        tables.update(self.terms.to_tables(_table(self.entities, ENTITY_ROWS), PART_SCHEMAS))
        return {name: tables[name] for name in PART_SCHEMAS}
