"""Chronological object pools (ChroKnowBench, docs/questions.md): real snapshots and CLI."""

from __future__ import annotations

import csv
from dataclasses import replace
from pathlib import Path
from typing import Any

import duckdb
import orjson
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import kgdiff
from kgdiff.errors import UsageError
from kgdiff.query.window_answers import pools_table
from kgdiff.store.layout import StoreLayout
from kgdiff.temporal.parts import cut
from kgdiff.temporal.pools import PoolRequest, pool_ranges, pool_readers, pools
from tests.paths import run_kgdiff

Record = dict[str, Any]


def records(relation: duckdb.DuckDBPyRelation) -> list[Record]:
    return [dict(zip(relation.columns, row, strict=True)) for row in relation.fetchall()]


def pool(
    store: Path, qid: str, pid: str, first: int, last: int, granularity: str = "year"
) -> Record:
    """The one record of (qid, pid) over [first, last]."""
    with duckdb.connect(str(store / "kg.duckdb"), read_only=True) as connection:
        (record,) = records(pools(connection, qid, pid, first, last, granularity))
    return record


def by_period(record: Record, field: str = "objects") -> dict[str, set[str]]:
    return {p["period"]: set(p[field]) for p in record["periods"]}


def spelled(*runs: tuple[int, int, set[str]]) -> dict[str, set[str]]:
    """Expected pools written as runs of years: (first year, last year, objects)."""
    return {str(y): objects for first, last, objects in runs for y in range(first, last + 1)}


def test_heads_of_government_year_by_year(sample_store: Path) -> None:
    """Q183 (Germany) P6, day-precision terms in the latest snapshot: Kohl Q2518 until
    1998-10-26, Schröder Q2530 1998-10-27 … 2005-10-18, Merkel Q567 from 2005-11-22 (end
    'novalue' = open)."""
    record = pool(sample_store, "Q183", "P6", 1997, 2008)
    assert by_period(record) == {
        "1997": {"Q2518"},
        "1998": {"Q2518", "Q2530"},
        "1999": {"Q2530"},
        "2000": {"Q2530"},
        "2001": {"Q2530"},
        "2002": {"Q2530"},
        "2003": {"Q2530"},
        "2004": {"Q2530"},
        "2005": {"Q2530", "Q567"},
        "2006": {"Q567"},
        "2007": {"Q567"},
        "2008": {"Q567"},
    }
    assert (record["state"], record["changes"]) == ("dynamic", 4)
    assert record["all_objects"] == ["Q2518", "Q2530", "Q567"]
    flags = [(p["precision_only"], p["unqualified"], p["filled"]) for p in record["periods"]]
    assert set(map(str, flags)) == {"([], [], False)"}


def test_citizenships_with_year_precision_and_novalue(sample_store: Path) -> None:
    """Q937 (Einstein) P27: Württemberg Q159631 1879-03-14 … 1896-01-28, stateless <novalue>
    1896-01-28 … 1901-02-21, Switzerland Q39 1901-02-21 … 1955-04-18, Weimar Republic Q41304
    1920 … 1933 (year precision both), USA Q30 1940 (year) … 1955-04-18."""
    record = pool(sample_store, "Q937", "P27", 1894, 1960)
    assert by_period(record) == spelled(
        (1894, 1895, {"Q159631"}),
        (1896, 1896, {"Q159631", "<novalue>"}),
        (1897, 1900, {"<novalue>"}),
        (1901, 1901, {"<novalue>", "Q39"}),
        (1902, 1919, {"Q39"}),
        (1920, 1933, {"Q39", "Q41304"}),
        (1934, 1939, {"Q39"}),
        (1940, 1960, {"Q30", "Q39"}),
    )
    # an end "1933" may be 1933-01-01: only precision puts Q41304 in 1933
    only = {k: v for k, v in by_period(record, "precision_only").items() if v}
    assert only == {"1933": {"Q41304"}}
    # nothing is valid after Einstein's death: 1956 … 1960 carry 1955's pool
    assert [p["period"] for p in record["periods"] if p["filled"]] == [
        str(y) for y in range(1956, 1961)
    ]
    assert record["state"] == "dynamic"


def test_month_granularity(sample_store: Path) -> None:
    merkel = pool(sample_store, "Q183", "P6", 2005, 2005, "month")
    expected = {f"2005-{m:02d}": {"Q2530"} for m in range(1, 11)}
    assert by_period(merkel) == expected | {"2005-11": {"Q567"}, "2005-12": {"Q567"}}
    february = merkel["periods"][1]
    assert (str(february["first_day"]), str(february["last_day"])) == ("2005-02-01", "2005-02-28")
    # Weimar citizenship starts "1920": surely held only on 1920-12-31
    weimar = by_period(pool(sample_store, "Q937", "P27", 1920, 1920, "month"), "precision_only")
    assert weimar == {f"1920-{m:02d}": {"Q41304"} for m in range(1, 12)} | {"1920-12": set()}


def test_static_and_dynamic(sample_store: Path) -> None:
    assert pool(sample_store, "Q183", "P6", 2006, 2010)["state"] == "static"
    capital = pool(sample_store, "Q183", "P36", 1991, 2000)  # Berlin Q64 from 1990-10-03
    assert (capital["state"], capital["changes"], capital["all_objects"]) == ("static", 0, ["Q64"])
    assert pool(sample_store, "Q183", "P36", 1989, 1991)["state"] == "dynamic"  # Bonn, then Berlin


def test_deprecated_statements_never_count(sample_store: Path) -> None:
    """Q83 (MediaWiki) P348: versions 1.18 … 1.22 are deprecated (with end dates 2012 … 2015);
    1.23 ends 2017-05 (month precision); the other versions have no qualifier. (This read
    2012 … 2016 before, calling the versions of 2015 and 2016 static from a snapshot of
    2014-12-31, a confident answer the data cannot support: the years after the latest
    snapshot's are refused now, see test_pools_beyond_the_data.)"""
    record = pool(sample_store, "Q83", "P348", 2012, 2014)
    current = {"1.19.21", "1.22.13", "1.23", "1.23.6", "1.24"}
    assert by_period(record) == spelled((2012, 2014, current))
    assert by_period(record, "unqualified") == spelled((2012, 2014, current - {"1.23"}))
    assert record["state"] == "static"


def test_null_means_every_subject_or_property(sample_store: Path) -> None:
    with duckdb.connect(str(sample_store / "kg.duckdb"), read_only=True) as connection:
        germany = records(pools(connection, "Q183", None, 2000, 2001))
        heads = records(pools(connection, None, "P6", 2000, 2001))
    assert {"P6", "P36", "P463"} <= {r["pid"] for r in germany}
    assert {r["subject"] for r in germany} == {"Q183"}
    assert {"Q183", "Q60", "Q647"} <= {r["subject"] for r in heads}
    assert {r["pid"] for r in heads} == {"P6"}


def test_the_catalog_macro_runs_the_same_query(sample_store: Path) -> None:
    with duckdb.connect(str(sample_store / "kg.duckdb"), read_only=True) as connection:
        direct = records(pools(connection, "Q183", "P6", 2004, 2006))
        macro = records(connection.sql("SELECT * FROM pools('Q183', 'P6', 2004, 2006)"))
        monthly = records(connection.sql("SELECT * FROM pools('Q183', 'P6', 2005, 2005, 'month')"))
    assert macro == direct
    assert len(monthly[0]["periods"]) == 12


def test_bad_arguments(sample_store: Path) -> None:
    with duckdb.connect(str(sample_store / "kg.duckdb"), read_only=True) as connection:
        for args, message in [
            (("Q183", "P6", 2010, 2000, "year"), "is after"),
            (("Q183", "P6", 2000, 2001, "week"), "granularity"),
            (("Q1'; --", "P6", 2000, 2001, "year"), "not an entity id"),
            (("Q183", "31", 2000, 2001, "year"), "not a property id"),
        ]:
            with pytest.raises(UsageError, match=message):
                pools(connection, *args)


def test_pools_command_table(sample_store: Path) -> None:
    store = str(sample_store)
    result = run_kgdiff(
        "pools", "Q183", "Q937", "--pid", "P6", "--from-year", "2004", "--store", store
    )
    assert result.returncode == 0, result.stderr
    assert "Q567" in result.stdout and "dynamic" in result.stdout and "1 group" in result.stdout


@pytest.mark.parametrize("suffix", [".jsonl", ".parquet", ".csv"])
def test_pools_command_out(sample_store: Path, tmp_path: Path, suffix: str) -> None:
    out = tmp_path / f"pools{suffix}"
    args = ["pools", "--pid", "p6", "--from-year", "2004", "--to-year", "2006", "--monthly"]
    result = run_kgdiff(*args, "--out", str(out), "--store", str(sample_store))
    assert result.returncode == 0, result.stderr
    rows = read_rows(out)
    assert len(rows) > 10 and f"wrote {len(rows)} groups" in result.stdout
    (germany,) = [r for r in rows if r["subject"] == "Q183"]
    assert (germany["granularity"], germany["state"], len(germany["periods"])) == (
        "month",
        "dynamic",
        36,
    )
    assert germany["objects_2005-10"] == ["Q2530"] and germany["objects_2005-11"] == ["Q567"]
    assert set(germany["periods"][0]) == {
        "period",
        "first_day",
        "last_day",
        "objects",
        "precision_only",
        "unqualified",
        "filled",
        "gap_days",
        "objects_labels",
    }
    assert (germany["subject_label"], germany["pid_label"]) == ("Germany", "head of government")
    assert (germany["snapshot"], germany["periods"][-1]["gap_days"]) == ("wd-2014-12", -2922)


def read_rows(out: Path) -> list[Record]:
    """The records of an export; in CSV, lists and structs are JSON text."""
    if out.suffix == ".jsonl":
        return [orjson.loads(line) for line in out.read_bytes().splitlines()]
    if out.suffix == ".parquet":
        rows: list[dict[str, Any]] = pq.read_table(out).to_pylist()
        return rows
    with out.open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    nested = [k for k in rows[0] if k.startswith(("objects_", "all_objects", "periods"))]
    return [r | {k: orjson.loads(r[k]) for k in nested} for r in rows]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["Q183", "--pid", "P6", "--from-year", "2010", "--to-year", "2000"], "is after"),
        (["--from-year", "2000"], "give one or more subjects, or --pid"),
        (["Q183", "--out", "x.txt"], "use a .csv, .jsonl or .parquet"),
    ],
)
def test_pools_command_errors(sample_store: Path, args: list[str], message: str) -> None:
    result = run_kgdiff("pools", *args, "--store", str(sample_store))
    assert result.returncode == 2
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(("pid", "granularity"), [("P31", "year"), ("P6", "month")])
def test_every_subjects_pools_read_range_by_range_are_those_read_at_once(
    sample_store: Path, pid: str, granularity: str
) -> None:
    """On a large store the pools of every subject are read a subject range at a time (one
    query over all of them ran out of DuckDB's memory at 3 × 25 M statements): the three
    real subset snapshots (subjects read from earlier snapshots too), cut into five ranges
    at every fifth subject, give the same groups in the same order as one query."""
    with duckdb.connect(str(sample_store / "kg.duckdb"), read_only=True) as connection:
        subjects = [row[0] for row in connection.sql(
            "SELECT DISTINCT subject FROM statements ORDER BY subject").fetchall()]  # fmt: skip
        ranges = tuple((p.lo, p.hi) for p in cut(subjects[::5], 5) if p.kind == "range")
        asked = PoolRequest((), pid, 2005, 2014, granularity)
        at_once = pools_table(connection, asked)
        ranged = [r.read_all() for r in pool_readers(connection, replace(asked, ranges=ranges))]
        assert pool_ranges(connection, StoreLayout(sample_store)) == ()  # a small store
    assert len(ranges) == 5 and len(ranged) == 5
    assert sum(1 for table in ranged if table.num_rows) >= 3, "the groups fall in several ranges"
    assert pa.concat_tables(ranged).equals(at_once)
    assert at_once.num_rows > 20 and len(set(at_once.column("snapshot").to_pylist())) > 1


@pytest.mark.parametrize(
    ("subjects", "pid"), [((), "P6"), (("Q183", "Q64", "Q1"), None), (("Q1",), "P6")]
)
def test_pools_written_a_batch_at_a_time_are_the_answers_groups_and_notes(
    sample_store: Path, tmp_path: Path, subjects: tuple[str, ...], pid: str | None
) -> None:
    """``write_pools`` (what ``kgdiff pools --out`` runs) streams the groups to the file, never
    holding them whole, and says what ``pools`` says: where they stop, the subjects read from
    an earlier snapshot, why some have none, the ids without a label."""
    kg = kgdiff.open(sample_store)
    answer = kg.answers.pools(list(subjects) or None, pid, 2005, 2014)
    out = tmp_path / "pools.parquet"
    written, notes = kg.answers.write_pools(out, list(subjects) or None, pid, 2005, 2014)
    assert notes == answer.notes and len(notes) >= 2
    table = pq.read_table(out)
    assert written == table.num_rows == answer.frame.height
    assert table.column("subject").to_pylist() == answer.frame.get_column("subject").to_list()
    assert table.column("pid").to_pylist() == answer.frame.get_column("pid").to_list()
    assert ("objects_2014" in table.column_names) == (written > 0)  # none: the columns alone
