"""The audit reads what the store says of the distractors' items in one scan of the statements
(``sql/export/audit_item_statements.sql``): the same rows as the four plain queries it
replaced, written out here, on the real samples."""

from __future__ import annotations

from pathlib import Path

import duckdb
import polars as pl
import pytest

import kgdiff
from kgdiff.export.audit.item_kinds import HELD_SCHEMA, ROLE_SCHEMA, _item_statements

NOT_DEPRECATED = "s.rank <> 'deprecated'"
CLASSES = f"""SELECT DISTINCT s.subject AS item, s.object_qid AS class
FROM audit_items AS i JOIN statements AS s ON s.subject = i.item
WHERE s.pid IN ('P31', 'P279') AND s.object_qid IS NOT NULL AND {NOT_DEPRECATED}
ORDER BY item, class"""
PROPERTIES = f"""SELECT DISTINCT s.object_qid AS item, s.pid
FROM audit_items AS i JOIN statements AS s ON s.object_qid = i.item
WHERE {NOT_DEPRECATED} ORDER BY item, s.pid"""
ROLES = f"""SELECT DISTINCT s.subject AS item, s.pid, s.object_qid AS role
FROM audit_items AS i JOIN statements AS s ON s.subject = i.item
WHERE s.pid IN ('P21', 'P106', 'P39') AND s.object_qid IS NOT NULL AND {NOT_DEPRECATED}
ORDER BY item, s.pid, role"""
HELD = f"""SELECT DISTINCT s.subject, s.pid, s.object_qid AS item
FROM audit_subjects AS a JOIN statements AS s ON s.subject = a.subject
JOIN audit_items AS i ON i.item = s.object_qid
WHERE {NOT_DEPRECATED} ORDER BY s.subject, s.pid, item"""


def _plain(
    connection: duckdb.DuckDBPyConnection, items: list[str], subjects: list[str]
) -> list[pl.DataFrame]:
    """The classes, properties, roles and held items as the four queries read them."""
    connection.register("audit_items", pl.DataFrame({"item": items}, schema={"item": pl.String}))
    connection.register(
        "audit_subjects", pl.DataFrame({"subject": subjects}, schema={"subject": pl.String})
    )
    try:
        tables = [
            connection.sql(sql).to_arrow_table() for sql in (CLASSES, PROPERTIES, ROLES, HELD)
        ]
        return [pl.DataFrame(pl.from_arrow(table)) for table in tables]
    finally:
        connection.unregister("audit_items")
        connection.unregister("audit_subjects")


@pytest.mark.parametrize("subjects", [["Q183", "Q64", "Q42", "Q1"], []], ids=["subjects", "none"])
def test_one_scan_reads_what_four_queries_did(sample_store: Path, subjects: list[str]) -> None:
    kg = kgdiff.open(sample_store)
    try:
        with kg.connection() as connection:
            # items of every kind: countries, cities, people, classes and some never stated
            items = [row[0] for row in connection.execute(
                "SELECT DISTINCT object_qid FROM statements WHERE pid IN ('P17', 'P31', 'P106', "
                "'P27', 'P19', 'P6', 'P35') AND object_qid IS NOT NULL ORDER BY 1"
            ).fetchall()] + ["Q42", "Q64", "Q999999999"]  # fmt: skip
            want = _plain(connection, items, subjects)
            series = pl.Series(subjects, dtype=pl.String) if subjects else None
            got = _item_statements(connection, pl.Series(items, dtype=pl.String), series)
    finally:
        kg.close()
    classes, owned, roles, held = got
    assert classes.equals(want[0]) and classes.height > 100
    assert owned.equals(want[1]) and owned.height > 100
    assert roles.equals(want[2].cast(ROLE_SCHEMA))
    assert set(roles.get_column("pid")) == {"P21", "P106", "P39"}
    assert held.equals(want[3].cast(HELD_SCHEMA))
    assert held.height > 0 if subjects else held.is_empty()
