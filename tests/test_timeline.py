"""An entity's timeline across the real snapshots."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import duckdb
import pytest

from kgdiff.errors import UsageError
from kgdiff.temporal.timeline import timeline
from tests.paths import run_kgdiff


def day(year: int, month: int, dom: int) -> int:
    return date(year, month, dom).toordinal() - date(1970, 1, 1).toordinal()


def rows(store: Path, qid: str) -> list[dict[str, object]]:
    with duckdb.connect(str(store / "kg.duckdb"), read_only=True) as connection:
        rows: list[dict[str, object]] = timeline(connection, qid).to_pylist()
        return rows


def test_a_statement_seen_in_every_snapshot(sample_store: Path) -> None:
    """Q183 P463 Q2595976 is in all three snapshots, valid 1990-07-01 … 1990-10-02: the
    qualifiers' values as Wikidata writes them, and their first and last days as day numbers."""
    (row,) = [r for r in rows(sample_store, "Q183") if r["value"] == "Q2595976"]
    assert row["snapshots"] == ["wd-2013-12", "wd-2014-10", "wd-2014-12"]
    assert (row["first_seen"], row["last_seen"], row["current"]) == (
        date(2013, 12, 21),
        date(2014, 12, 31),
        True,
    )
    assert (row["valid_from_lo"], row["valid_until_hi"]) == (day(1990, 7, 1), day(1990, 10, 2))
    assert row["valid_from"] == ["+1990-07-01T00:00:00Z|11|Q1985727"]
    assert row["valid_until"] == ["+1990-10-02T00:00:00Z|11|Q1985727"]


def test_record_intervals_match_the_snapshots(sample_store: Path) -> None:
    """Every row's first/last seen and 'current' agree with the snapshots it lists."""
    dates = {
        "wd-2013-12": date(2013, 12, 21),
        "wd-2014-10": date(2014, 10, 11),
        "wd-2014-12": date(2014, 12, 31),
    }
    found = rows(sample_store, "Q183") + rows(sample_store, "Q1")
    assert len(found) > 100
    for row in found:
        seen = [dates[name] for name in row["snapshots"]]  # type: ignore[attr-defined]
        assert (row["first_seen"], row["last_seen"]) == (min(seen), max(seen))
        assert row["current"] == (max(seen) == date(2014, 12, 31))
    gone = [r for r in found if r["pid"] == "P31" and r["value"] == "Q1088088"]
    assert [(r["snapshots"], r["current"]) for r in gone] == [(["wd-2013-12"], False)]


def test_qualifier_snak_types_are_those_of_the_last_snapshot(sample_store: Path) -> None:
    """The start/end/point snak types come from the last snapshot holding the statement:
    Q1253's P39 statement ends on an unknown date ('somevalue') in wd-2014-12."""
    found = rows(sample_store, "Q1253")
    (unknown,) = [r for r in found if r["valid_until_snaktype"] == "somevalue"]
    assert unknown["pid"] == "P39"
    assert unknown["valid_until_lo"] is None
    with duckdb.connect(str(sample_store / "kg.duckdb"), read_only=True) as connection:
        expected = connection.execute(
            "SELECT statement_id, value, arg_max(start_snaktype, s.date),"
            " arg_max(end_snaktype, s.date), arg_max(point_snaktype, s.date)"
            " FROM statements JOIN snapshots AS s ON s.name = snapshot"
            " WHERE subject = 'Q1253' GROUP BY ALL"
        ).fetchall()
    kinds = "valid_from_snaktype", "valid_until_snaktype", "point_snaktype"
    got = {(r["statement_id"], r["value"], *(r[k] for k in kinds)) for r in found}
    assert got == set(expected)
    assert {r["valid_from_snaktype"] for r in found} >= {None, "value"}


def test_bad_entity_id(sample_store: Path) -> None:
    with pytest.raises(UsageError, match="is not a Wikidata id"):
        rows(sample_store, "Q42'; drop table x; --")


def test_timeline_command(sample_store: Path) -> None:
    result = run_kgdiff("timeline", "Q183", "--pid", "P6", "--store", str(sample_store))
    assert result.returncode == 0, result.stderr
    assert "Q567" in result.stdout and "22 November 2005" in result.stdout
