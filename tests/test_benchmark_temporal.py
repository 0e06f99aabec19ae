"""kgdiff export benchmark, config temporal, on the real samples: each item checked against
the store's statements read with plain SQL (dates, durations, the objects valid in a year,
years past the data), every candidate built or counted, and the options
(docs/benchmark-export.md#the-temporal-config; tests/test_benchmark_temporal_output.py has
the folder's determinism, loading and scoring)."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

import polars as pl
import pytest

import kgdiff
from kgdiff.export.benchmark import BenchmarkExport
from kgdiff.export.options import UNKNOWN_OPTION
from kgdiff.export.relations import shipped_catalogue
from kgdiff.export.text_match import normalise
from tests.benchmark_exports import export, records

KINDS = ("timestamp", "interval", "implicit", "unanswerable")
LATEST = "wd-2014-12"
QUALIFIERS = """
    SELECT st.statement_id, q.qualifier_pid, q.value, q.time_precision, q.time_calendar,
           st.subject, st.pid, st.value AS object,
           CAST(CASE q.qualifier_pid WHEN 'P580' THEN st.start_lo ELSE st.end_lo END
                AS VARCHAR) AS lo,
           CAST(CASE q.qualifier_pid WHEN 'P580' THEN st.start_hi ELSE st.end_hi END
                AS VARCHAR) AS hi,
           CASE q.qualifier_pid WHEN 'P580' THEN st.start_hi ELSE st.end_hi END
               <= DATE '2014-12-31' AS in_data
    FROM statements AS st
    JOIN qualifiers AS q ON q.snapshot = st.snapshot AND q.statement_id = st.statement_id
    WHERE st.snapshot = 'wd-2014-12' AND q.qualifier_pid IN ('P580', 'P582')
      AND q.snaktype = 'value' AND st.rank <> 'deprecated'
"""


IN_YEAR = """
    SELECT value,
           coalesce(start_snaktype = 'value' AND start_hi <= $first
                    AND (end_snaktype IS NULL OR end_snaktype = 'novalue'
                         OR (end_snaktype = 'value' AND end_lo > $last)), false) AS valid,
           coalesce((start_snaktype = 'value' AND start_lo > $last)
                    OR (end_snaktype = 'value' AND end_hi <= $first), false) AS out
    FROM statements
    WHERE snapshot = $s AND subject = $q AND pid = $p AND rank <> 'deprecated'
"""
"""Each statement of a group surely valid all year (``valid``) or surely not at all (``out``)."""


@pytest.fixture(scope="module")
def done(export_sample_store: Path, tmp_path_factory: pytest.TempPathFactory) -> BenchmarkExport:
    return export(export_sample_store, tmp_path_factory.mktemp("t") / "t", configs=("temporal",))


def every(folder: Path) -> dict[str, list[dict[str, Any]]]:
    return {kind: records(folder, kind, "temporal") for kind in KINDS}


def qualifiers(store: Path) -> dict[tuple[str, str], dict[str, Any]]:
    rows = kgdiff.open(store).sql(QUALIFIERS).iter_rows(named=True)
    bound = {"P580": "start", "P582": "end"}
    return {(row["statement_id"], bound[row["qualifier_pid"]]): row for row in rows}


def written(row: dict[str, Any]) -> str:
    """A qualifier's date as its value key writes it, cut to its precision."""
    sign, rest = row["value"][0], row["value"][1:]
    year, month, day = rest.split("T")[0].split("-")
    parts = [year, month, day][: {9: 1, 10: 2}.get(min(row["time_precision"], 11), 3)]
    return ("-" if sign == "-" else "") + "-".join(parts)


def test_every_split_has_records(done: BenchmarkExport) -> None:
    assert all(done.configs["temporal"][kind] > 0 for kind in KINDS), done.configs


def test_timestamps_are_the_qualifiers_at_their_precision(
    done: BenchmarkExport, export_sample_store: Path
) -> None:
    found = qualifiers(export_sample_store)
    for record in records(done.out, "timestamp", "temporal"):
        row = found[(record["statement_id"], record["bound"])]
        assert (record["subject"], record["pid"], record["objects"]) == (
            row["subject"], row["pid"], [row["object"]],
        )  # fmt: skip
        assert record["date"] == written(row) == record[record["bound"]]
        names = {9: "year", 10: "month", 11: "day"}
        assert record["date_precision"] == names[min(row["time_precision"], 11)]
        if row["time_calendar"] == "Q1985727" and record["date_precision"] == "day":
            assert row["lo"] == row["hi"] == record["date"]
        assert row["in_data"]  # never a date past the snapshot read
        asked = {"year": "In which year", "month": "In which month", "day": "On which date"}
        assert record["question"].startswith(asked[record["date_precision"]])
        assert record["question"].endswith(f"{record['object_labels'][0]}?")
        assert record["tf_label"] is not None


def test_intervals_count_whole_units_between_the_qualifiers(
    done: BenchmarkExport, export_sample_store: Path
) -> None:
    found = qualifiers(export_sample_store)
    built = records(done.out, "interval", "temporal")
    for record in built:
        start, end = (
            found[(record["statement_id"], "start")],
            found[(record["statement_id"], "end")],
        )
        assert (record["start"], record["end"]) == (written(start), written(end))
        years = int(record["end"][:4]) - int(record["start"][:4])
        if record["duration_unit"] == "years":
            assert years - 1 <= record["duration"] <= years
        else:
            assert record["duration"] < 12 and years <= 1
        assert record["answers"][1] == str(record["duration"])
    bonn = next(r for r in built if r["subject"] == "Q183" and r["objects"] == ["Q586"])
    assert (bonn["start"], bonn["end"], bonn["answer_labels"]) == (
        "1949-11-29", "1990-10-02", ["40 years"],
    )  # fmt: skip


def test_implicit_answers_are_the_objects_valid_all_that_year(
    done: BenchmarkExport, export_sample_store: Path
) -> None:
    kg = kgdiff.open(export_sample_store)
    for record in records(done.out, "implicit", "temporal"):
        first, last = date(record["year"], 1, 1), date(record["year"], 12, 31)
        rows = kg.sql(IN_YEAR, {"s": LATEST, "q": record["subject"], "p": record["pid"],
                                "first": first, "last": last})  # fmt: skip
        assert (rows.get_column("valid") | rows.get_column("out")).all(), record["id"]
        valid = set(rows.filter("valid").get_column("value"))
        others = set(rows.filter(~pl.col("valid")).get_column("value"))
        assert record["objects"] == sorted(valid) and set(record["outdated"]) == others - valid
        assert record["year"] <= 2014 and record["question"].startswith(f"In {record['year']},")


def test_unanswerable_years_are_past_the_data_or_before_the_subject(
    done: BenchmarkExport, export_sample_store: Path
) -> None:
    kg = kgdiff.open(export_sample_store)
    reasons = set()
    for record in records(done.out, "unanswerable", "temporal"):
        reasons.add(record["unanswerable_reason"])
        assert record["options"][ord(record["gold"]) - ord("A")] == UNKNOWN_OPTION
        assert record["answer_labels"][0] == UNKNOWN_OPTION and record["tf_label"] is None
        if record["unanswerable_reason"] == "after_data":
            # the data reach 31 days (--max-gap) past the snapshot read, 2014-12-31
            assert date(record["year"], 1, 1) > date(2015, 1, 31)
            ended = kg.sql(
                "SELECT count(*) FROM statements WHERE snapshot = $s AND subject = $q"
                " AND pid IN ('P570', 'P576') AND rank <> 'deprecated' AND snaktype = 'value'",
                {"s": LATEST, "q": record["subject"]},
            ).item()
            assert ended == 0  # the subject still exists
            continue
        born = kg.sql(
            "SELECT year(min(time_lo)) AS y FROM statements WHERE snapshot = $s AND subject = $q"
            " AND pid IN ('P569', 'P571') AND rank <> 'deprecated'",
            {"s": LATEST, "q": record["subject"]},
        ).item()
        earliest = kg.sql(
            "SELECT year(min(coalesce(start_lo, point_lo))) AS y FROM statements"
            " WHERE snapshot = $s AND subject = $q AND pid = $p AND rank <> 'deprecated'",
            {"s": LATEST, "q": record["subject"], "p": record["pid"]},
        ).item()
        assert record["year"] < min(born, earliest)
    assert reasons == {"after_data", "before_subject"}


def test_options_never_repeat_the_gold_nor_offer_its_aliases(done: BenchmarkExport) -> None:
    for kind, built in every(done.out).items():
        for record in built:
            gold = ord(record["gold"]) - ord("A")
            forms = [normalise(option) for option in record["options"]]
            assert len(set(forms)) == len(forms) and record["choice_types"].count("correct") <= 1
            right = {normalise(text) for text in record["answers"]}
            for form, kind_of in zip(forms, record["choice_types"], strict=True):
                if kind_of == "noise":
                    assert form not in right
                    assert form not in {normalise(t) for t in record["outdated_answers"]}
            if kind != "unanswerable":
                assert record["choice_types"][gold] == "correct"
                assert record["options"][gold] == record["answer_labels"][0]


def test_every_candidate_is_built_or_counted(
    done: BenchmarkExport, export_sample_store: Path
) -> None:
    build = json.loads((done.out / "kgdiff_build.json").read_text())["configs"]["temporal"]
    assert build["snapshot"] == LATEST and build["data_reach"] == "2015-01-31"
    kg = kgdiff.open(export_sample_store)
    groups = kg.classify(date(2014, 10, 11)).filter(pl.col("pid").is_in(shipped_catalogue().pids))
    statements = kg.sql(
        "SELECT subject, pid, start_snaktype IN ('value', 'somevalue') AS has_start,"
        " end_snaktype IN ('value', 'somevalue') AS has_end FROM statements"
        " WHERE snapshot = $s AND rank <> 'deprecated'",
        {"s": LATEST},
    ).join(groups.select("subject", "pid"), on=["subject", "pid"], how="semi")
    starts, ends = statements.get_column("has_start"), statements.get_column("has_end")
    ranged = statements.filter(pl.col("has_start") | pl.col("has_end"))
    candidates = {
        "timestamp": int(starts.sum()) + int(ends.sum()),
        "interval": int((starts & ends).sum()),
        "unanswerable": 2 * ranged.select("subject", "pid").unique().height,
        "implicit": build["periods"] + build["left_out"]["implicit"]["no_year_without_doubt"],
    }
    assert build["groups"] == groups.height
    for kind, count in candidates.items():
        left_out = sum(build["left_out"][kind].values())
        assert build["splits"][kind]["records"] + left_out == count, kind
    assert build["left_out"]["timestamp"]["several_dates"] > 0
