"""What a new user ran into on the demo store (issue 22), on the demo's real snapshots:
dates beyond the data, subset snapshots read as deletions, unknown ids, unreadable outputs.

Each test failed on the code before the fix (confident answers the data cannot support)."""

from __future__ import annotations

import csv
import json
import subprocess
from pathlib import Path

import duckdb
import pytest

from tests.paths import run_kgdiff

DATES = ["--init", "2013-12-21", "--cutoff", "2014-10-11", "--current", "2014-12-31"]
SNAPSHOT_LIST = "wd-2013-12 (2013-12-21), wd-2014-10 (2014-10-11), wd-2014-12 (2014-12-31)"


def one_line_error(result: subprocess.CompletedProcess[str]) -> str:
    """The single stderr line of a failed command (exit 2)."""
    assert result.returncode == 2, result.stdout
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:"), lines
    return lines[0]


# dates beyond the data -------------------------------------------------------------------


def test_dates_after_the_latest_snapshot_are_refused_with_the_snapshots_listed(
    sample_store: Path,
) -> None:
    """Was: 7,901 stable, 1 evolved, exit 0, no warning (the data end in 2014)."""
    dates = ["--init", "2015-01-01", "--cutoff", "2020-01-01", "--current", "2024-01-01"]
    line = one_line_error(run_kgdiff("classify", *dates, "--store", str(sample_store)))
    assert "2024-01-01 is 3288 days after the latest snapshot, wd-2014-12" in line
    assert SNAPSHOT_LIST in line and "--allow-gap" in line


def test_allow_gap_answers_and_the_output_carries_the_gap(
    sample_store: Path, tmp_path: Path
) -> None:
    dates = ["--init", "2014-11-01", "--cutoff", "2015-06-01", "--current", "2016-01-01"]
    out = tmp_path / "gap.jsonl"
    result = run_kgdiff(
        "classify", *dates, "--allow-gap", "--store", str(sample_store), "--out", str(out)
    )
    assert result.returncode == 0, result.stderr
    assert "current 2016-01-01: record time reads wd-2014-12 (2014-12-31, subset), 366 days" in (
        result.stdout.replace("\n", " ")
    )
    record = json.loads(out.read_text().splitlines()[0])
    assert record["current_snapshot"] == "wd-2014-12" and record["current_gap_days"] == 366
    assert record["init_snapshot"] == "wd-2014-10" and record["init_gap_days"] == 21


def test_a_small_gap_is_within_the_tolerance_and_max_gap_changes_it(sample_store: Path) -> None:
    dates = ["--init", "2014-01-01", "--cutoff", "2014-11-01", "--current", "2015-01-20"]
    assert run_kgdiff("classify", *dates, "--store", str(sample_store)).returncode == 0
    strict = run_kgdiff("classify", *dates, "--max-gap", "7", "--store", str(sample_store))
    assert "20 days after the latest snapshot" in one_line_error(strict)


def test_record_time_refuses_a_date_before_the_first_snapshot_valid_time_answers_it(
    sample_store: Path,
) -> None:
    """Was: an empty table, exit 0."""
    dates = ["--init", "2012-01-01", "--cutoff", "2014-10-11", "--current", "2014-12-31"]
    line = one_line_error(run_kgdiff("classify", *dates, "--store", str(sample_store)))
    assert "init 2012-01-01 is before the first snapshot, wd-2013-12 (2013-12-21)" in line
    valid = run_kgdiff("classify", *dates, "--mode", "valid", "--store", str(sample_store))
    assert valid.returncode == 0, valid.stderr
    assert "init 2012-01-01: valid time reads wd-2014-12" in valid.stdout.replace("\n", " ")


def test_the_catalog_macro_refuses_dates_beyond_the_data_unless_allowed(
    sample_store: Path,
) -> None:
    query = "SELECT count(*) FROM classify(DATE '2015-01-01', DATE '2020-01-01', DATE '2024-01-01'"
    with duckdb.connect(str(sample_store / "kg.duckdb"), read_only=True) as catalog:
        with pytest.raises(duckdb.InvalidInputException, match="after the latest snapshot"):
            catalog.execute(query + ", 'record')").fetchall()
        rows = catalog.execute(query + ", 'record', allow_gap := true)").fetchall()
        gaps = catalog.execute(
            "SELECT DISTINCT current_snapshot, current_gap_days FROM classify(DATE '2013-12-21',"
            " DATE '2014-10-11', DATE '2015-01-15', 'record')"
        ).fetchall()
    assert rows[0][0] > 0
    assert gaps == [("wd-2014-12", 15)]


# subset snapshots --------------------------------------------------------------------------


def test_subjects_missing_from_a_subset_snapshot_are_not_covered_never_retracted(
    sample_store: Path, tmp_path: Path
) -> None:
    """Was: 7,005 of 14,912 groups (47 %) retracted because their subject is not in the
    later sample. Now no group is retracted whose subject a snapshot read lacks."""
    out = tmp_path / "groups.parquet"
    result = run_kgdiff("classify", *DATES, "--store", str(sample_store), "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert "groups are not_covered" in result.stdout
    with duckdb.connect(str(sample_store / "kg.duckdb"), read_only=True) as catalog:
        held = catalog.execute(
            "SELECT snapshot, list(qid) FROM coverage GROUP BY snapshot"
        ).fetchall()
    holds = {name: set(qids) for name, qids in held}
    rows = duckdb.execute(f"SELECT subject, level, not_covered_in FROM '{out}'").fetchall()
    levels = {level for _, level, _ in rows}
    assert {"not_covered", "stable", "evolved"} <= levels
    for subject, level, missing_in in rows:
        in_all = all(subject in holds[name] for name in holds)
        if level in ("retracted", "uncharted", "recent"):
            assert in_all, (subject, level)
        if level == "not_covered":
            assert missing_in and all(subject not in holds[name] for name in missing_in)
    retracted = sum(level == "retracted" for _, level, _ in rows)
    assert retracted < 100  # 29 real retractions of properties of subjects every sample holds


def test_snapshots_record_their_coverage(sample_store: Path) -> None:
    with duckdb.connect(str(sample_store / "kg.duckdb"), read_only=True) as catalog:
        coverage = catalog.execute("SELECT name, coverage FROM snapshots ORDER BY 1").fetchall()
        listed = catalog.execute(
            "SELECT c.snapshot, count(*), count(e.qid) FROM coverage AS c LEFT JOIN entities AS e"
            " ON e.snapshot = c.snapshot AND e.qid = c.qid GROUP BY 1 ORDER BY 1"
        ).fetchall()
    assert coverage == [
        ("wd-2013-12", "subset"),
        ("wd-2014-10", "subset"),
        ("wd-2014-12", "subset"),
    ]
    assert listed == [("wd-2013-12", 1236, 1236), ("wd-2014-10", 1646, 1646),
                      ("wd-2014-12", 1704, 1704)]  # fmt: skip


# ids ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "named"),
    [
        (["timeline", "Q99999999"], "Q99999999"),
        (["timeline", "Q183", "--pid", "P99999"], "P99999"),
        (["classify", *DATES, "--pid", "P99999"], "P99999"),
    ],
)
def test_unknown_ids_are_usage_errors(sample_store: Path, command: list[str], named: str) -> None:
    """Was: empty results, exit 0."""
    line = one_line_error(run_kgdiff(*command, "--store", str(sample_store)))
    assert f"{named} is in no snapshot of the store" in line


def test_ids_are_case_normalised(sample_store: Path, tmp_path: Path) -> None:
    """Was: `--pid p6` gave nothing (no property is called p6)."""
    lower = run_kgdiff("timeline", "q183", "--pid", "p6", "--store", str(sample_store))
    assert lower.returncode == 0, lower.stderr
    assert "Germany (Q183)" in lower.stdout and "head of government (P6)" in lower.stdout
    out = tmp_path / "p6.jsonl"
    classify = run_kgdiff(
        "classify", *DATES, "--pid", "p6", "--store", str(sample_store), "--out", str(out)
    )
    assert classify.returncode == 0, classify.stderr
    pids = {json.loads(line)["pid"] for line in out.read_text().splitlines()}
    assert pids == {"P6"}


def test_a_known_id_without_a_result_says_why(sample_store: Path) -> None:
    result = run_kgdiff("timeline", "Q183", "--pid", "P1082", "--store", str(sample_store))
    assert result.returncode == 0, result.stderr
    assert "no statements: Q183 has no P1082 statement in any snapshot" in result.stdout


# readable outputs --------------------------------------------------------------------------


def test_classify_out_checks_its_file_before_any_work(sample_store: Path, tmp_path: Path) -> None:
    """Was: `--out x.txt` failed only after the whole classification."""
    dates = ["--init", "2013-12-22", "--cutoff", "2014-10-12", "--current", "2014-12-30"]
    builds = sorted((sample_store / "builds" / "classify").glob("*"))
    bad = run_kgdiff(
        "classify", *dates, "--store", str(sample_store), "--out", str(tmp_path / "x.txt")
    )
    assert "use a .csv, .jsonl or .parquet file name" in one_line_error(bad)
    assert sorted((sample_store / "builds" / "classify").glob("*")) == builds


def test_classify_writes_csv_with_labels_and_filters_levels(
    sample_store: Path, tmp_path: Path
) -> None:
    out = tmp_path / "evolved.csv"
    result = run_kgdiff(
        "classify", *DATES, "--level", "evolved", "--level", "stable", "--pid", "P6",
        "--store", str(sample_store), "--out", str(out),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    with out.open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert rows and {r["level"] for r in rows} <= {"evolved", "stable"}
    assert {r["pid_label"] for r in rows} == {"head of government"}
    labelled = {r["subject"]: r["subject_label"] for r in rows}
    assert labelled.get("Q183") == "Germany"
    for row in rows:
        answers, labels = json.loads(row["all_answers"]), json.loads(row["all_answers_labels"])
        assert len(answers) == len(labels) and all(labels)  # never blank: the id at worst
    assert "have no en label in the store and are shown as ids" in result.stdout


def test_classify_takes_another_language(sample_store: Path, tmp_path: Path) -> None:
    out = tmp_path / "de.jsonl"
    result = run_kgdiff(
        "classify", *DATES, "--pid", "P6", "--lang", "de", "--store", str(sample_store),
        "--out", str(out),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    labels = {
        json.loads(r)["subject"]: json.loads(r)["subject_label"]
        for r in out.read_text().splitlines()
    }
    assert labels["Q183"] == "Deutschland"


def test_not_covered_groups_can_be_left_out(sample_store: Path, tmp_path: Path) -> None:
    out = tmp_path / "covered.parquet"
    result = run_kgdiff(
        "classify", *DATES, "--drop-not-covered", "--store", str(sample_store), "--out", str(out)
    )
    assert result.returncode == 0, result.stderr
    levels = dict(duckdb.execute(f"SELECT level, count(*) FROM '{out}' GROUP BY 1").fetchall())
    assert "not_covered" not in levels and levels["stable"] > 1000
    assert "│ not_covered" not in result.stdout and "groups are not_covered" not in result.stdout


def test_a_bad_level_is_a_usage_error(sample_store: Path) -> None:
    line = one_line_error(
        run_kgdiff("classify", *DATES, "--level", "stale", "--store", str(sample_store))
    )
    assert "'stale' is not one of" in line


def test_timeline_is_in_time_order_with_labels_and_out(sample_store: Path, tmp_path: Path) -> None:
    """Was: sorted by property id, no labels, no --out."""
    out = tmp_path / "q183.csv"
    result = run_kgdiff(
        "timeline", "Q183", "--pid", "P6", "--out", str(out), "--store", str(sample_store)
    )
    assert result.returncode == 0, result.stderr
    with out.open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    starts = [int(r["valid_from_lo"]) for r in rows if r["valid_from_lo"]]  # day numbers
    assert starts == sorted(starts) and len(starts) >= 5
    firsts = [r["first_seen"] for r in rows]
    assert firsts == sorted(firsts)
    assert {"pid_label", "value_label"} <= set(rows[0])
    assert {r["pid_label"] for r in rows} == {"head of government"}
    # the chancellors are in none of the samples: shown as their ids, and counted
    assert all(r["value_label"] == r["value"] for r in rows)
    assert "9 id(s) have no en label in the store, shown as ids" in result.stdout
