"""Page view sources in a store: ingest (aggregation, manifest, no-op re-runs, conflicts,
nothing published on failure), the catalog view, popularity against Python's
``statistics.median`` through real DuckDB, and the CLI commands."""

from __future__ import annotations

import gzip
import json
import math
import random
import statistics
from collections import defaultdict
from datetime import date
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import typer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from kgdiff.cli.pageviews import ingest_pageviews, popularity_command
from kgdiff.errors import InputError, StoreError, TooManyRejectsError, UsageError
from kgdiff.pageviews import (
    SCHEMA,
    PageviewIngest,
    ingest_file,
    ingest_rows,
    popularity,
    published_sources,
    table_files,
)
from kgdiff.pageviews.popularity import popularity_of_files
from kgdiff.readers.pageviews import PageviewRow
from kgdiff.sqlfiles import render
from kgdiff.store.layout import StoreLayout
from kgdiff.store.store_root import root_macros, set_store_root, store_relative

HOURLY = """\
en Foo 3 0
en.m Foo 4 0
en Foo 5 0
de.b Kochbuch 2 0
en Bar 1 0
xx.yy.zz.ww a 1 0
"""


def hourly_file(
    folder: Path, text: str = HOURLY, name: str = "pageviews-20230105-130000.gz"
) -> Path:
    path = folder / name
    path.write_bytes(gzip.compress(text.encode()))
    return path


def table_rows(directory: Path) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = pq.read_table(directory / "pageviews.parquet").to_pylist()
    return rows


def leftovers(store: Path) -> list[str]:
    root = store / "pageviews"
    return sorted(p.name for p in root.iterdir()) if root.is_dir() else []


def test_ingest_sums_repeats_and_writes_a_manifest(tmp_path: Path) -> None:
    store = tmp_path / "store"
    outcome = ingest_file(PageviewIngest(hourly_file(tmp_path), store=store))
    assert outcome.status == "published" and outcome.name == "pageviews-20230105-130000"
    day = date(2023, 1, 5)
    assert table_rows(outcome.directory) == [
        {"wiki": "dewikibooks", "title": "Kochbuch", "period_start": day, "period": "hour",
         "access": "desktop", "agent": "user", "views": 2},
        {"wiki": "enwiki", "title": "Bar", "period_start": day, "period": "hour",
         "access": "desktop", "agent": "user", "views": 1},
        {"wiki": "enwiki", "title": "Foo", "period_start": day, "period": "hour",
         "access": "desktop", "agent": "user", "views": 8},
        {"wiki": "enwiki", "title": "Foo", "period_start": day, "period": "hour",
         "access": "mobile-web", "agent": "user", "views": 4},
    ]  # fmt: skip
    assert pq.read_schema(outcome.directory / "pageviews.parquet").equals(SCHEMA)
    manifest = json.loads((outcome.directory / "manifest.json").read_text())
    assert manifest["counts"] == {
        "lines": 6, "rows": 5, "views": 15, "unverified": 0, "rows_written": 4
    }  # fmt: skip
    assert (manifest["rejects"], manifest["rejects_by_reason"]) == (1, {"unknown_domain": 1})
    assert manifest["reject_lines"] == {"unknown_domain": [6]}
    assert (manifest["period"], manifest["period_start"]) == ("hour", "2023-01-05T13:00:00")
    assert manifest["source"]["compression"] == "gzip"
    assert manifest["source"]["size"] == (tmp_path / "pageviews-20230105-130000.gz").stat().st_size
    assert leftovers(store) == ["source=pageviews-20230105-130000"]


def test_reingest_is_a_noop_and_conflicts_are_errors(tmp_path: Path) -> None:
    store = tmp_path / "store"
    path = hourly_file(tmp_path)
    first = ingest_file(PageviewIngest(path, store=store))
    stamp = (first.directory / "pageviews.parquet").stat().st_mtime_ns
    again = ingest_file(PageviewIngest(path, store=store))
    assert again.status == "unchanged" and again.manifest == first.manifest
    assert (first.directory / "pageviews.parquet").stat().st_mtime_ns == stamp
    other = hourly_file(tmp_path, HOURLY + "en Baz 1 0\n", "other.gz")
    with pytest.raises(StoreError, match="already holds"):
        ingest_file(PageviewIngest(other, source=first.name, store=store))
    with pytest.raises(StoreError, match="other content or options"):
        ingest_file(PageviewIngest(path, store=store, wikis=("enwiki",)))
    assert published_sources(StoreLayout.resolve(store)) == [first.name]


def test_wiki_filter_and_period_override(tmp_path: Path) -> None:
    store = tmp_path / "store"
    path = hourly_file(tmp_path, name="views.gz")
    request = PageviewIngest(
        path, source="jan", period="day", date="2023-01-07", store=store, wikis=("dewikibooks",)
    )
    outcome = ingest_file(request)
    assert [(r["wiki"], r["period"], r["period_start"]) for r in table_rows(outcome.directory)] == [
        ("dewikibooks", "day", date(2023, 1, 7))
    ]
    assert outcome.manifest["skipped"] == {"other_wiki": 4}


def test_failures_publish_nothing(tmp_path: Path) -> None:
    store = tmp_path / "store"
    bad = hourly_file(tmp_path, "garbage\n" * 10, "pageviews-20230105-140000.gz")
    with pytest.raises(TooManyRejectsError, match="more than 2 malformed"):
        ingest_file(PageviewIngest(bad, store=store, max_rejects=2))
    whole = gzip.compress(HOURLY.encode() * 100)
    cut = tmp_path / "pageviews-20230105-150000.gz"
    cut.write_bytes(whole[: len(whole) // 2])
    with pytest.raises(InputError, match="truncated"):
        ingest_file(PageviewIngest(cut, store=store))
    with pytest.raises(UsageError, match="--date"):
        ingest_file(PageviewIngest(hourly_file(tmp_path, name="pagecounts-x.gz"), store=store))
    with pytest.raises(UsageError, match="--source"):
        ingest_file(PageviewIngest(bad, source="../x", store=store))
    assert leftovers(store) == []


def test_catalog_view(tmp_path: Path) -> None:
    store = tmp_path / "store"
    ingest_file(PageviewIngest(hourly_file(tmp_path), store=store))
    other = hourly_file(tmp_path, name="pageviews-20230105-140000.gz")
    ingest_file(PageviewIngest(other, source="b", store=store))
    layout = StoreLayout(store)
    files = [store_relative(layout, Path(path)) for path in table_files(layout)]
    with duckdb.connect() as connection:
        for statement in root_macros():  # the view names its files relative to the store
            connection.execute(statement)
        set_store_root(connection, layout)
        connection.execute(render("catalog/pageviews_view", files=files))
        got = connection.execute(
            "SELECT source, sum(views) FROM pageviews GROUP BY 1 ORDER BY 1"
        ).fetchall()
        columns = [c[0] for c in connection.execute("DESCRIBE pageviews").fetchall()]
    assert got == [("b", 15), ("pageviews-20230105-130000", 15)]
    assert columns == ["source", *SCHEMA.names]


def test_empty_catalog_view_has_the_same_columns() -> None:
    with duckdb.connect() as connection:
        connection.execute(render("catalog/pageviews_empty"))
        described = connection.execute("DESCRIBE pageviews").fetchall()
        assert connection.execute("SELECT count(*) FROM pageviews").fetchone() == (0,)
    assert [(c[0], c[1]) for c in described] == [
        ("source", "VARCHAR"), ("wiki", "VARCHAR"), ("title", "VARCHAR"),
        ("period_start", "DATE"), ("period", "VARCHAR"), ("access", "VARCHAR"),
        ("agent", "VARCHAR"), ("views", "BIGINT"),
    ]  # fmt: skip


# --- popularity -------------------------------------------------------------------------


def generated_rows(rng: random.Random, count: int) -> list[PageviewRow]:
    """Rows over 3 wikis, 5 titles, 14 months, every period, access and agent."""
    rows = []
    for _ in range(count):
        month = date(2022 + rng.randrange(2), rng.randrange(1, 13), 1)
        period = rng.choice(["hour", "day", "month"])
        start = month if period == "month" else month.replace(day=rng.randrange(1, 29))
        rows.append(
            PageviewRow(
                rng.choice(["enwiki", "dewiki", "commonswiki"]),
                rng.choice(["A", "B b", "Ω", "D", "E"]),
                start,
                period,
                rng.choice(["desktop", "mobile-web", "mobile-app", "all-access"]),
                rng.choice(["user", "user", "all-agents", "spider", "automated"]),
                rng.randrange(0, 10_000),
            )
        )
    return rows


def expected_popularity(rows: list[PageviewRow]) -> dict[tuple[str, str], dict[str, Any]]:
    """The popularity rule, computed in plain Python."""
    monthly: dict[tuple[str, str], dict[date, int]] = defaultdict(lambda: defaultdict(int))
    for row in rows:
        if row.agent not in ("spider", "automated"):
            monthly[row.wiki, row.title][row.period_start.replace(day=1)] += row.views
    result = {}
    for key, months in monthly.items():
        median = statistics.median(months.values())
        result[key] = {
            "months": len(months),
            "median_monthly_views": float(median),
            "popularity": math.log(median + 1),
            "monthly_views": [{"month": m, "views": v} for m, v in sorted(months.items())],
        }
    return result


def check(got: list[dict[str, Any]], rows: list[PageviewRow]) -> None:
    expected = expected_popularity(rows)
    assert {(r["wiki"], r["title"]) for r in got} == set(expected)
    for record in got:
        want = expected[record["wiki"], record["title"]]
        assert record["months"] == want["months"]
        assert record["median_monthly_views"] == want["median_monthly_views"]
        assert record["popularity"] == pytest.approx(want["popularity"], rel=1e-12, abs=0)
        assert record["monthly_views"] == want["monthly_views"]
    scores = [r["popularity"] for r in got]
    assert scores == sorted(scores, reverse=True)


def test_popularity_over_two_sources(tmp_path: Path) -> None:
    rng = random.Random(20240501)
    first, second = generated_rows(rng, 400), generated_rows(rng, 300)
    ingest_rows(tmp_path, "one", first, {"test": 1})
    ingest_rows(tmp_path, "two", second, {"test": 2})
    layout = StoreLayout.resolve(tmp_path)
    check(popularity(layout).to_pylist(), first + second)
    enwiki = [r for r in first + second if r.wiki == "enwiki" and r.title in ("A", "Ω")]
    check(popularity(layout, "enwiki", ["A", "Ω"]).to_pylist(), enwiki)


ROW = st.builds(
    PageviewRow,
    st.sampled_from(["enwiki", "dewiki"]),
    st.sampled_from(["A", "B"]),
    st.dates(date(2020, 1, 1), date(2021, 12, 31)),
    st.sampled_from(["hour", "day", "month"]),
    st.just("desktop"),
    st.sampled_from(["user", "spider", "automated", "all-agents"]),
    st.integers(0, 2**40),
)


@settings(
    max_examples=40,
    suppress_health_check=[
        *settings.get_profile("kgdiff").suppress_health_check,
        HealthCheck.function_scoped_fixture,
    ],
)
@given(st.lists(ROW, max_size=40))
def test_popularity_property(tmp_path: Path, rows: list[PageviewRow]) -> None:
    path = tmp_path / "rows.parquet"
    columns = {name: [getattr(row, name) for row in rows] for name in SCHEMA.names}
    pq.write_table(pa.table(columns, schema=SCHEMA), path)
    check(popularity_of_files(str(path)).to_pylist(), rows)


def test_popularity_needs_page_views(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="kgdiff ingest pageviews"):
        popularity(StoreLayout.resolve(tmp_path))


# --- CLI ----------------------------------------------------------------------------------


def cli() -> typer.Typer:
    app = typer.Typer(pretty_exceptions_enable=False)
    app.command("ingest-pageviews")(ingest_pageviews)
    app.command("popularity")(popularity_command)
    return app


def test_cli_ingest_and_popularity(tmp_path: Path) -> None:
    store, runner = str(tmp_path / "store"), CliRunner()
    path = str(hourly_file(tmp_path))
    result = runner.invoke(cli(), ["ingest-pageviews", path, "--store", store])
    assert result.exit_code == 0, result.output
    assert "published page view source pageviews-20230105-130000" in result.output
    assert "rejected 1 × unknown_domain (lines 6…)" in result.output
    again = runner.invoke(cli(), ["ingest-pageviews", path, "--store", store, "--quiet"])
    assert (again.exit_code, again.output) == (0, "")
    out = tmp_path / "pop.jsonl"
    args = ["popularity", "--store", store, "--wiki", "en.wikipedia", "--out", str(out)]
    result = runner.invoke(cli(), args)
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["title"], r["median_monthly_views"], r["months"]) for r in records] == [
        ("Foo", 12.0, 1),
        ("Bar", 1.0, 1),
    ]
    shown = runner.invoke(cli(), ["popularity", "--store", store, "--title", "Kochbuch"])
    assert "Kochbuch" in shown.output and "1.099" in shown.output
    bad = runner.invoke(cli(), ["popularity", "--store", store, "--out", "x.txt"])
    assert isinstance(bad.exception, UsageError)
