"""Issue 22 for pools, chains, updates and facts_at: answers that say what they rest on.

On the demo's real subset snapshots (wd-2013-12 2013-12-21, wd-2014-10 2014-10-11,
wd-2014-12 2014-12-31): dates beyond the data are refused (exit 2, one line naming the
snapshots) or, allowed, answered with the gap; the catalog macros refuse them by themselves;
unknown ids are errors and ids are case-normalised; an empty answer says why; rows carry
labels (an id without one is shown as itself and counted); --out writes CSV, JSON lines or
Parquet and a bad --out fails before any work.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import duckdb
import pyarrow.parquet as pq
import pytest

from kgdiff.errors import UsageError
from kgdiff.temporal.dates import GapPolicy
from kgdiff.temporal.facts import facts_at
from kgdiff.temporal.pools import pools
from kgdiff.temporal.updates import knowledge_updates
from tests.paths import run_kgdiff

LISTING = "Snapshots: wd-2013-12 (2013-12-21), wd-2014-10 (2014-10-11), wd-2014-12 (2014-12-31)"
ALLOWED = GapPolicy(allow=True)


@pytest.fixture(scope="module")
def catalog(sample_store: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    with duckdb.connect(str(sample_store / "kg.duckdb"), read_only=True) as connection:
        yield connection


def kgdiff(store: Path, *args: str) -> Any:
    return run_kgdiff(*args, "--store", str(store))


def one_line_error(result: Any, *parts: str) -> None:
    """Exit 2 with one line on stderr holding every part."""
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 2, result.stdout + result.stderr
    assert len(lines) == 1 and lines[0].startswith("error:"), result.stderr
    for part in parts:
        assert part in lines[0]


def records(out: Path) -> list[dict[str, Any]]:
    if out.suffix == ".jsonl":
        return [json.loads(line) for line in out.read_text().splitlines()]
    if out.suffix == ".parquet":
        rows: list[dict[str, Any]] = pq.read_table(out).to_pylist()
        return rows
    with out.open(newline="") as handle:
        return list(csv.DictReader(handle))


# -- pools --------------------------------------------------------------------------------


def test_pools_stop_at_the_latest_snapshots_year_and_say_so(sample_store: Path) -> None:
    """Before, Germany's heads of government were 'static' 2010 … 2023 from data ending in
    2014; now the pools stop at 2014 and the output says where and why."""
    result = kgdiff(sample_store, "pools", "Q183", "--pid", "P6")
    assert result.returncode == 0, result.stderr
    assert "pools stop at 2014, the year of the latest snapshot, wd-2014-12 (2014-12-31)" in (
        result.stdout
    )
    assert "2010 … 2014" in result.stdout and "2010–2014" in result.stdout
    assert "2023" not in result.stdout


def test_pools_beyond_the_data_are_refused_or_carry_the_gap(sample_store: Path) -> None:
    args = ("pools", "Q183", "--pid", "P6", "--from-year", "2013", "--to-year", "2016")
    one_line_error(kgdiff(sample_store, *args), "2016-12-31 is 731 days after", LISTING)
    allowed = kgdiff(sample_store, *args, "--allow-gap")
    assert allowed.returncode == 0, allowed.stderr
    assert "pools stop at 2016 (--to-year)" in allowed.stdout
    assert "up to 731 days after it) are beyond the data" in allowed.stdout
    assert "after the data (up to 731 days after the snapshot)" in allowed.stdout
    wider = kgdiff(sample_store, *args[:-1], "2015", "--max-gap", "400")
    assert wider.returncode == 0, wider.stderr


def test_the_pools_macro_and_library_refuse_years_beyond_the_data(
    catalog: duckdb.DuckDBPyConnection,
) -> None:
    with pytest.raises(duckdb.Error, match="kgdiff: the pools' last day 2016-12-31 is 731 days"):
        catalog.sql("SELECT * FROM pools('Q183', 'P6', 2013, 2016)").fetchall()
    with pytest.raises(UsageError, match="2016-12-31 is 731 days after the latest snapshot"):
        pools(catalog, "Q183", "P6", 2013, 2016)
    query = "SELECT snapshot, periods FROM pools('Q183', 'P6', 2013, 2016, allow_gap := true)"
    ((snapshot, periods),) = catalog.sql(query).fetchall()
    assert snapshot == "wd-2014-12"
    assert [(p["period"], p["gap_days"]) for p in periods] == [
        ("2013", -365),
        ("2014", 0),
        ("2015", 365),
        ("2016", 731),
    ]
    library = pools(catalog, "Q183", "P6", 2013, 2016, gap=ALLOWED).fetchall()
    assert len(library) == 1


def test_pools_ids_unknown_lowercase_and_labelled(sample_store: Path) -> None:
    one_line_error(kgdiff(sample_store, "pools", "Q99999999", "--pid", "P6"), "Q99999999")
    one_line_error(kgdiff(sample_store, "pools", "Q183", "--pid", "P99999"), "P99999")
    shown = kgdiff(sample_store, "pools", "q183", "--pid", "p6", "--from-year", "2004")
    assert shown.returncode == 0, shown.stderr
    assert "Germany (Q183)" in shown.stdout and "head of government (P6)" in shown.stdout
    # Merkel is in none of the three samples: shown as her id and counted, never blank
    assert "id(s) have no en label in the store, shown as ids: Q2530, Q567" in shown.stdout
    german = kgdiff(sample_store, "pools", "Q183", "--pid", "P6", "--lang", "de")
    assert "Deutschland (Q183)" in german.stdout


def test_pools_of_an_item_the_latest_snapshot_lacks_read_the_latest_that_holds_it(
    sample_store: Path,
) -> None:
    """Berlin (Q64) is in wd-2013-12 and wd-2014-10, not in wd-2014-12, a subset snapshot:
    its pools read wd-2014-10, and the output says so (they were empty before: "no pools: Q64
    is not in wd-2014-12 (a subset snapshot), the snapshot read")."""
    result = kgdiff(sample_store, "pools", "Q64", "--pid", "P6")
    assert result.returncode == 0, result.stderr
    assert "no pools" not in result.stdout and "Berlin (Q64)" in result.stdout
    assert (
        "the pools of 1 subject (Q64) read wd-2014-10 (2014-10-11), the latest snapshot that"
        " holds it: the latest, wd-2014-12, is a subset snapshot without it; its periods after"
        " 2014-10-11 hold what wd-2014-10 knows"
    ) in " ".join(result.stdout.split())


def test_pools_bad_out_fails_before_any_work(sample_store: Path, tmp_path: Path) -> None:
    """The store does not exist: the --out error comes first, so no work was tried."""
    missing = tmp_path / "no-store"
    wrong = run_kgdiff("pools", "Q183", "--out", str(tmp_path / "p.txt"), "--store", str(missing))
    one_line_error(wrong, "use a .csv, .jsonl or .parquet file name")
    folder = tmp_path / "nowhere" / "p.csv"
    one_line_error(run_kgdiff("pools", "Q183", "--out", str(folder)), "is not a folder")
    assert not folder.parent.exists()


# -- chains -------------------------------------------------------------------------------


def test_chains_dates_beyond_the_data(sample_store: Path) -> None:
    base = ("chains", "--subject", "Q21", "--hops", "2")
    late = kgdiff(sample_store, *base, "--date", "2015-11-01")
    one_line_error(late, "date 2015-11-01 is 305 days after the latest snapshot", LISTING)
    early = kgdiff(sample_store, *base, "--date", "2013-01-01")
    one_line_error(early, "date 2013-01-01 is before the first snapshot, wd-2013-12")
    allowed = kgdiff(sample_store, *base, "--date", "2015-11-01", "--allow-gap")
    assert allowed.returncode == 0, allowed.stderr
    assert (
        "date 2015-11-01: record time reads wd-2014-12 (2014-12-31, subset), 305 days after it"
    ) in allowed.stdout


def test_the_chains_macro_refuses_dates_beyond_the_data(
    catalog: duckdb.DuckDBPyConnection,
) -> None:
    for day, message in [("2015-11-01", "305 days after"), ("2013-01-01", "before the first")]:
        with pytest.raises(duckdb.Error, match=f"kgdiff: date {day} is {message}"):
            catalog.sql(f"SELECT * FROM chains(DATE '{day}')").fetchall()
    query = "SELECT DISTINCT snapshot, gap_days FROM chains(DATE '2015-11-01', allow_gap := true)"
    assert catalog.sql(query).fetchall() == [("wd-2014-12", 305)]
    none = "SELECT count(*) FROM chains(DATE '2013-01-01', allow_gap := true)"
    assert catalog.sql(none).fetchall() == [(0,)]


def test_chains_from_an_item_the_snapshot_lacks_say_why(sample_store: Path) -> None:
    """Before: '0 chains' and no reason. Berlin (Q64) is not in wd-2014-12, which answers
    2014-12-31 in record time."""
    result = kgdiff(sample_store, "chains", "--date", "2014-12-31", "--subject", "Q64")
    assert result.returncode == 0, result.stderr
    assert "0 chains at 2014-12-31" in result.stdout
    assert (
        "no chain: Q64 is not in wd-2014-12 (a subset snapshot), the snapshot read; it is in"
        " wd-2013-12, wd-2014-10"
    ) in result.stdout


def test_chains_ids_unknown_and_lowercase(sample_store: Path) -> None:
    day = ("chains", "--date", "2014-11-01")
    one_line_error(kgdiff(sample_store, *day, "--subject", "Q99999999"), "Q99999999 is in no")
    lower = kgdiff(sample_store, *day, "--subject", "q21", "--pid", "p17", "--hops", "2")
    assert lower.returncode == 0, lower.stderr
    assert "England (Q21)" in lower.stdout and "country (P17)" in lower.stdout


@pytest.mark.parametrize("suffix", [".csv", ".jsonl", ".parquet"])
def test_chains_rows_carry_labels_never_blank(
    sample_store: Path, tmp_path: Path, suffix: str
) -> None:
    """answer_label was blank for Elizabeth II (Q9682), London's mayor (Q180589) and others:
    none of the three subset snapshots holds them, so the store has no label for them. Now
    such an answer is labelled with its id and counted; every hop carries its labels."""
    out = tmp_path / f"chains{suffix}"
    args = ("chains", "--date", "2014-11-01", "--subject", "Q21", "--out", str(out))
    result = kgdiff(sample_store, *args)
    assert result.returncode == 0, result.stderr
    rows = records(out)
    assert len(rows) == 24 and f"wrote {len(rows)} chains to" in result.stdout
    assert all(row["answer_label"] for row in rows)
    labels = {row["answer"]: row["answer_label"] for row in rows}
    assert labels["Q192"] == "David Cameron" and labels["Q9682"] == "Q9682"
    assert "England (Q21)" in result.stdout and "David Cameron (Q192)" in result.stdout
    assert "id(s) have no en label in the store, shown as ids:" in result.stdout
    hops = [json.loads(r["hops"]) if suffix == ".csv" else r["hops"] for r in rows]
    first = hops[0][0]
    assert (first["subject_label"], first["object_label"]) == ("England", "United Kingdom")
    assert all(h["pid_label"] for chain in hops for h in chain)


def test_chains_bad_out_fails_before_any_work(tmp_path: Path) -> None:
    missing = tmp_path / "no-store"
    args = ("chains", "--date", "2014-11-01", "--store", str(missing))
    one_line_error(run_kgdiff(*args, "--out", str(tmp_path / "c.json")), "use a .csv")
    one_line_error(run_kgdiff(*args, "--out", str(tmp_path / "x" / "c.csv")), "is not a folder")


# -- updates ------------------------------------------------------------------------------


def test_updates_dates_beyond_the_data(sample_store: Path, tmp_path: Path) -> None:
    late = ("updates", "--cutoff", "2005-06-01", "--current", "2015-12-31", "--pid", "P6")
    one_line_error(kgdiff(sample_store, *late), "current 2015-12-31 is 365 days after", LISTING)
    early = ("updates", "--cutoff", "2005-06-01", "--current", "2012-12-31")
    one_line_error(kgdiff(sample_store, *early), "the first is wd-2013-12 (2013-12-21)")
    out = tmp_path / "u.jsonl"
    allowed = kgdiff(sample_store, *late, "--allow-gap", "--out", str(out))
    assert allowed.returncode == 0, allowed.stderr
    assert (
        "current 2015-12-31: valid time reads wd-2014-12 (2014-12-31, subset), 365 days after it"
    ) in allowed.stdout
    rows = records(out)
    assert rows and {(r["snapshot"], r["gap_days"]) for r in rows} == {("wd-2014-12", 365)}


def test_the_updates_macro_and_library_refuse_dates_beyond_the_data(
    catalog: duckdb.DuckDBPyConnection,
) -> None:
    late = "updates(DATE '2005-06-01', DATE '2015-12-31'"
    with pytest.raises(duckdb.Error, match=r"kgdiff: .*current 2015-12-31 is 365 days after"):
        catalog.sql(f"SELECT * FROM {late})").fetchall()
    with pytest.raises(UsageError, match="current 2015-12-31 is 365 days after"):
        knowledge_updates(catalog, date(2005, 6, 1), date(2015, 12, 31))
    query = f"SELECT DISTINCT snapshot, gap_days FROM {late}, allow_gap := true)"
    assert catalog.sql(query).fetchall() == [("wd-2014-12", 365)]
    rows = knowledge_updates(catalog, date(2005, 6, 1), date(2015, 12, 31), ALLOWED).fetchall()
    assert len(rows) > 10


def test_updates_ids_labels_and_why_none(sample_store: Path, tmp_path: Path) -> None:
    dates = ("updates", "--cutoff", "2005-06-01", "--current", "2014-12-31")
    one_line_error(kgdiff(sample_store, *dates, "--pid", "P99999"), "P99999 is in no snapshot")
    out = tmp_path / "u.csv"
    lower = kgdiff(sample_store, *dates, "--pid", "p6", "--out", str(out))
    assert lower.returncode == 0, lower.stderr
    assert "Germany (Q183)" in lower.stdout and "head of government (P6)" in lower.stdout
    assert "id(s) have no en label in the store, shown as ids:" in lower.stdout
    germany = [r for r in records(out) if r["subject"] == "Q183"]
    assert [(r["subject_label"], r["pid_label"], r["new_object_label"]) for r in germany] == [
        ("Germany", "head of government", "Q567")
    ]
    none = kgdiff(sample_store, "updates", "--cutoff", "2014-06-01", "--current", "2014-12-31",
                  "--pid", "P36")  # fmt: skip
    assert none.returncode == 0, none.stderr
    assert "no knowledge update: no group of P36 in wd-2014-12 was replaced" in none.stdout


def test_updates_bad_out_fails_before_any_work(tmp_path: Path) -> None:
    args = ("updates", "--cutoff", "2005-06-01", "--current", "2014-12-31")
    missing = ("--store", str(tmp_path / "no-store"))
    one_line_error(run_kgdiff(*args, "--out", str(tmp_path / "u.xlsx"), *missing), "use a .csv")


# -- facts_at -----------------------------------------------------------------------------


def test_facts_at_refuses_dates_beyond_the_data(catalog: duckdb.DuckDBPyConnection) -> None:
    for sql, message in [
        ("facts_at(DATE '2015-06-01')", "day 2015-06-01 is 152 days after"),
        ("facts_at(DATE '2000-06-01')", "day 2000-06-01 is before the first snapshot"),
        ("facts_at(DATE '2015-06-01', mode := 'valid')", "day 2015-06-01 is 152 days after"),
    ]:
        with pytest.raises(duckdb.Error, match=f"kgdiff: {message}"):
            catalog.sql(f"SELECT * FROM {sql}").fetchall()
    with pytest.raises(UsageError, match="day 2015-06-01 is 152 days after"):
        facts_at(catalog, date(2015, 6, 1))
    query = "SELECT DISTINCT snapshot, gap_days FROM facts_at(DATE '2015-06-01', allow_gap := true)"
    assert catalog.sql(query).fetchall() == [("wd-2014-12", 152)]
    wider = "SELECT count(*) FROM facts_at(DATE '2015-06-01', max_gap := 200)"
    assert catalog.sql(wider).fetchall()[0][0] > 1000
    library = facts_at(catalog, date(2015, 6, 1), "valid", ALLOWED)
    assert {row[-2:] for row in library.fetchall()} == {("wd-2014-12", 152)}
