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
from kgdiff.export.records.options import UNKNOWN_OPTION
from kgdiff.export.relations.catalogue import shipped_catalogue
from kgdiff.export.scoring.text_match import normalise
from kgdiff.valuetext import text_language
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
FIRST_YEARS = """
    SELECT value, year(min(CASE
        WHEN start_snaktype IN ('value', 'somevalue') OR end_snaktype IN ('value', 'somevalue')
        THEN CASE WHEN start_snaktype = 'value' THEN start_lo END
        WHEN point_snaktype = 'value' THEN point_lo
    END)) AS first
    FROM statements
    WHERE snapshot = $s AND subject = $q AND pid = $p AND rank <> 'deprecated'
    GROUP BY value
"""
"""The year each value of a group may first hold (null: unknown)."""


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


def test_intervals_are_the_time_between_the_qualifiers_to_the_nearest_unit(
    done: BenchmarkExport, export_sample_store: Path
) -> None:
    found = qualifiers(export_sample_store)
    built = records(done.out, "interval", "temporal")
    days = 0
    for record in built:
        start, end = (
            found[(record["statement_id"], "start")],
            found[(record["statement_id"], "end")],
        )
        assert (record["start"], record["end"]) == (written(start), written(end))
        assert record["answers"][1] == str(record["duration"])
        if (record["start_precision"], record["end_precision"]) != ("day", "day"):
            continue
        days += 1
        span = date.fromisoformat(record["end"]) - date.fromisoformat(record["start"])
        months = span.days / (365.2425 / 12)
        unit = 12 if record["duration_unit"] == "years" else 1
        assert abs(record["duration"] * unit - months) <= unit / 2, record["id"]
    assert days > 0
    # 29 November 1949 to 2 October 1990: 40 years and 10 months, 41 years as people count
    bonn = next(r for r in built if r["subject"] == "Q183" and r["objects"] == ["Q586"])
    assert (bonn["start"], bonn["end"], bonn["answer_labels"]) == (
        "1949-11-29", "1990-10-02", ["41 years"],
    )  # fmt: skip


SPANS = """
    SELECT count(*) AS spans, count(*) FILTER (end_snaktype IN ('value', 'somevalue')) AS ends
    FROM statements
    WHERE snapshot = $s AND subject = $q AND pid = $p AND value = $o AND rank <> 'deprecated'
"""
"""How many statements of a group hold one object, and how many of them ended."""


def test_no_date_or_length_is_asked_of_a_value_held_more_than_once(
    done: BenchmarkExport, export_sample_store: Path
) -> None:
    # "When did Saint Petersburg's official name become Санкт-Петербург?" has two answers
    # (1703, 1991), and so has "When did Michelle Bachelet become the head of state of
    # Chile?" (2006 and 2014: her first term is one of her positions held, P39)
    kg = kgdiff.open(export_sample_store)
    asked = 0
    for kind in ("timestamp", "interval"):
        for record in records(done.out, kind, "temporal"):
            params = {"s": LATEST, "q": record["subject"], "p": record["pid"]}
            spans, ends = kg.sql(SPANS, {**params, "o": record["objects"][0]}).row(0)
            asked += 1
            assert (ends if record.get("bound") == "end" else spans) == 1, record["id"]
    ids = {r["id"] for r in records(done.out, "timestamp", "temporal")}
    bachelet = "temporal/timestamp/Q298/P35/Q298$64867868-4936-c7a1-741c-fa451784cacc/start"
    assert asked > 0 and bachelet not in ids


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
        others -= {"<novalue>", "<somevalue>"}  # no value is shown (Einstein's statelessness)
        # a value known to have first held after the year is no outdated answer (Einstein's
        # American citizenship, from 1940, is not outdated in 1935)
        firsts = kg.sql(FIRST_YEARS, {"s": LATEST, "q": record["subject"], "p": record["pid"]})
        later = {
            v for v, first in firsts.iter_rows() if first is not None and first > record["year"]
        }
        assert record["objects"] == sorted(valid)
        assert set(record["outdated"]) == others - valid - later, record["id"]
        assert record["year"] <= 2014 and record["question"].startswith(f"In {record['year']},")


def test_official_names_in_another_language_are_not_asked(
    done: BenchmarkExport, export_sample_store: Path
) -> None:
    # "In 1920, what was the official name of Saint Petersburg?" -> "Петроград": no answer in
    # English; the store holds such names (P1448 in Russian), the export asks none of them
    held = kgdiff.open(export_sample_store).sql(
        "SELECT count(*) AS n FROM statements WHERE pid = 'P1448' AND value LIKE 'ru:%'"
    )
    assert held.item() > 0
    for found in every(done.out).values():
        for record in found:
            values = [*record["objects"], *record.get("outdated", [])]
            assert not [v for v in values if text_language(v) not in (None, "en")], record["id"]
    build = json.loads((done.out / "kgdiff_build.json").read_text())
    assert "no_object_text" in json.dumps(build["configs"]["temporal"])


BIRTHS = """
    SELECT subject, year(min(time_lo)) AS born, year(max(time_hi)) AS born_by
    FROM statements
    WHERE snapshot = $s AND pid = 'P569' AND rank <> 'deprecated' AND snaktype = 'value'
    GROUP BY subject
"""
"""The years a subject's birth dates may fall in."""


def test_no_unanswerable_year_comes_after_the_data(done: BenchmarkExport) -> None:
    # a year past the data is answerable by any model trained later ("In 2016, which city
    # was the capital of Italy?" with the gold "I don't know"): never asked
    built = records(done.out, "unanswerable", "temporal")
    assert built and all(record["year"] < 2014 for record in built)
    for record in built:
        assert record["options"][ord(record["gold"]) - ord("A")] == UNKNOWN_OPTION
        assert record["answer_labels"][0] == UNKNOWN_OPTION and record["tf_label"] is None
    assert {record["unanswerable_reason"] for record in built} <= {
        "before_subject", "unknown_value",
    }  # fmt: skip


def test_an_unanswerable_year_is_before_the_subjects_birth(
    done: BenchmarkExport, export_sample_store: Path
) -> None:
    # an inception is often a charter or an independence (London 1189, Chile 1818, Belarus
    # 1991) while the place or polity existed before: only a birth is a start of existence
    kg = kgdiff.open(export_sample_store)
    births = {row["subject"]: row for row in kg.sql(BIRTHS, {"s": LATEST}).iter_rows(named=True)}
    built = [
        record
        for record in records(done.out, "unanswerable", "temporal")
        if record["unanswerable_reason"] == "before_subject"
    ]
    for record in built:
        birth = births.get(record["subject"])
        assert birth is not None, f"{record['id']}: no birth, only an inception"
        assert birth["born"] == birth["born_by"] and record["year"] < birth["born"], record["id"]
        earliest = kg.sql(
            "SELECT year(min(coalesce(start_lo, point_lo))) AS y FROM statements"
            " WHERE snapshot = $s AND subject = $q AND pid = $p AND rank <> 'deprecated'",
            {"s": LATEST, "q": record["subject"], "p": record["pid"]},
        ).item()
        assert record["year"] < earliest
    asked = {record["subject"] for record in built}
    # Albert Einstein's citizenship; George Washington's one candidate, his spouse, is left
    # out (too_few_options): the store does not hold Martha Washington, so her sex, which
    # every distractor of a spouse must share, is unknown
    assert "Q937" in asked
    assert not asked & {"Q84", "Q184", "Q298", "Q183"}  # London, Belarus, Chile, Germany


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
    assert build["snapshot"] == LATEST and "data_reach" not in build
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
        "unanswerable": ranged.select("subject", "pid").unique().height,
        "implicit": build["periods"] + build["left_out"]["implicit"]["no_year_without_doubt"],
    }
    assert build["groups"] == groups.height
    for kind, count in candidates.items():
        left_out = sum(build["left_out"][kind].values())
        assert build["splits"][kind]["records"] + left_out == count, kind
    assert build["left_out"]["timestamp"]["several_dates"] > 0
