"""Deep time on every face (issue 34, finding 11): a store of real entities (Douglas Adams,
Germany) and synthetic ones dated from 5 billion years BCE to 5 billion years CE, at every
precision, before the common era (year 0 too), past year 9999, in the Julian calendar and
unknown (tests/deep_time_data.py), ingested by the real command line. The universe's
inception is ``-13798000000-00-00T00:00:00Z`` at precision 3, as current dumps write it.

Each face answers it, and the words a person reads are the right ones: ``kgdiff timeline``,
``kgdiff plot timeline`` and ``kgdiff chains`` (which exited 1 with ``PanicException:
out-of-range date`` or ``ValueError: year -752 is out of range``), the REST service (500 on
the timeline and the chains), the Python API, the catalog's ``timeline`` macro, the lookup
copy, a benchmark export and an RDF export read back.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import httpx
import orjson
import polars as pl
import pytest

import kgdiff
from kgdiff.plot import read_plot_data
from kgdiff.query.graph import KnowledgeGraph
from kgdiff.timevalue import time_key
from tests.browser import chromium
from tests.deep_time_data import (
    CITY,
    DEEP,
    EVENTS,
    EXPECTED_TEXTS,
    LAND,
    UNIVERSE_INCEPTION,
    write_dump,
)
from tests.paths import run_kgdiff
from tests.rest_server import copy_store, serving

CUTOFF = "2020-06-01"
BIG_BANG = "13.798 billion years BCE"
BIG_BANG_DAY = -5039981976297
"""The first day of 13,798 million years BCE (precision 3: the block of a million years
ending in 13,798,000,000 BCE):
days since 1970-01-01, proleptic Gregorian."""


def ok(*args: str) -> str:
    """Run ``kgdiff ARGS``; its output, after checking it exited 0."""
    result = run_kgdiff(*args)
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two snapshots of the deep-time dump, ingested by the command line."""
    folder = tmp_path_factory.mktemp("deep-time")
    store = folder / "store"
    for name, day, newer in (("deep-1", "2020-01-01", False), ("deep-2", "2021-01-01", True)):
        dump = write_dump(folder / f"{name}.json", newer)
        ok("ingest", "wikidata", str(dump), "--snapshot", name, "--date", day,
           "--coverage", "subset", "--store", str(store))  # fmt: skip
    return store


@pytest.fixture(scope="module")
def kg(store: Path) -> Iterator[KnowledgeGraph]:
    graph = kgdiff.open(store, lookup=False)
    yield graph
    graph.close()


def by_value(frame: pl.DataFrame) -> dict[str, dict[str, Any]]:
    return {row["value"]: row for row in frame.iter_rows(named=True)}


# --- the command line ----------------------------------------------------------------------------


def test_the_universes_timeline_on_the_command_line(store: Path, tmp_path: Path) -> None:
    """``kgdiff timeline Q1`` exited 1 (polars: out-of-range date); it lists the Big Bang in
    words, and writes the rows with day numbers."""
    out = tmp_path / "q1.jsonl"
    shown = ok("timeline", "Q1", "--store", str(store), "--out", str(out))
    assert f"at {BIG_BANG}" in shown and "13.6 billion years BCE" in shown
    rows = {row["statement_id"]: row for row in map(json.loads, out.read_text().splitlines())}
    big_bang = rows["Q1$bigbang"]
    assert big_bang["point"] == [f"{UNIVERSE_INCEPTION}|3|Q1985727"]
    assert (big_bang["point_lo"], big_bang["point_text"]) == (BIG_BANG_DAY, BIG_BANG)
    assert rows["Q1$inception"]["value_label"] == BIG_BANG
    era = rows["Q1$stelliferous"]
    assert (era["valid_from_text"], era["valid_until_snaktype"]) == (
        "13.6 billion years BCE",
        "somevalue",
    )
    for suffix in (".csv", ".parquet"):
        ok("timeline", "Q1", "--store", str(store), "--out", str(tmp_path / f"q1{suffix}"))


def test_every_precision_in_the_command_lines_timeline(store: Path, tmp_path: Path) -> None:
    out = tmp_path / "deep.jsonl"
    ok("timeline", DEEP, "--store", str(store), "--out", str(out))
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    points = {row["value"]: row["point_text"] for row in rows}
    for qid, _, _, _, text in EVENTS:
        assert points[qid] == text, qid
    span = next(row for row in rows if row["statement_id"] == f"{DEEP}$span")
    assert (span["valid_from_text"], span["valid_until_text"]) == (
        "66 million years BCE",
        "15 June 12345",
    )


def test_the_timeline_picture(store: Path, tmp_path: Path) -> None:
    """``kgdiff plot timeline Q1`` exited 1 (polars: out-of-range date); both axes draw it,
    the table inside the picture has its bars' days as numbers."""
    for axis, out in (("snapshots", tmp_path / "q1.svg"), ("all", tmp_path / "deep.png")):
        qid = "Q1" if axis == "snapshots" else DEEP
        ok("plot", "timeline", qid, "--cutoff", CUTOFF, "--axis", axis, "--store", str(store),
           "--out", str(out))  # fmt: skip
        bars = read_plot_data(out).frame
        assert bars.schema["start"] == pl.Int64 and bars.schema["point_lo"] == pl.Int64
    bars = read_plot_data(tmp_path / "q1.svg").frame.filter(pl.col("kind") == "valid")
    point = bars.filter(pl.col("statement_id") == "Q1$bigbang").row(0, named=True)
    assert (point["start"], point["point_text"]) == (BIG_BANG_DAY, BIG_BANG)


def test_chains_that_started_before_the_common_era(store: Path, tmp_path: Path) -> None:
    """``kgdiff chains --out`` exited 1 (year -752 is out of range)."""
    out = tmp_path / "chains.jsonl"
    ok("chains", "--date", CUTOFF, "--store", str(store), "--out", str(out))
    chains = {row["start_subject"]: row for row in map(json.loads, out.read_text().splitlines())}
    assert [hop["start_text"] for hop in chains[CITY]["hops"]] == [
        "21 April 753 BCE (Julian)",
        "27 BCE",
    ]
    assert chains[LAND]["hops"][0]["start_text"] == "5 billion years BCE"
    assert chains[CITY]["hops"][0]["start"] == ["-0753-04-21T00:00:00Z|11|Q1985786"]


# --- the Python API and SQL ----------------------------------------------------------------------


def test_the_python_api_words_and_days(kg: KnowledgeGraph) -> None:
    """Each point in time in words, its day key ordering the rows like the dates."""
    from kgdiff.timetext import key_day  # new: imported here, so the other tests run on old code

    timeline = kg.timeline(DEEP)
    rows = by_value(timeline)
    for qid, written, precision, calendar, text in EVENTS:
        row = rows[qid]
        assert row["point_text"] == text == EXPECTED_TEXTS[(written, precision, calendar)]
        assert row["point"] == [time_key(written, precision, calendar)]
        assert row["point_lo"] == key_day(row["point"][0])
    unknown = rows["Q900000202"]
    assert (unknown["point"], unknown["point_text"], unknown["point_snaktype"]) == (
        None,
        None,
        "somevalue",
    )
    days = [d for d in timeline["point_lo"].to_list() if d is not None]
    assert days == sorted(days) and days[0] < -1.8e12 and days[-1] > 1.8e12
    assert rows["-66000000-00-00T00:00:00Z|3|Q1985727"]["value_label"] == "66 million years BCE"
    assert rows["+12345-00-00T00:00:00Z|9|Q1985727"]["value_label"] == "12345"


def test_the_catalog_macro_and_the_lookup_copy(store: Path, kg: KnowledgeGraph) -> None:
    """The DuckDB prompt's ``timeline(...)`` gives the same bounds as day numbers (BIGINT,
    never a DATE); the lookup copy holds the same rows as the views."""
    with duckdb.connect(str(store / "kg.duckdb"), read_only=True) as connection:
        connection.execute("SET VARIABLE kgdiff_store = ?", [f"{store}/"])
        relation = connection.sql("SELECT * FROM timeline('Q1')")
        types = dict(zip(relation.columns, map(str, relation.types), strict=True))
        days = [row[0] for row in relation.select("point_lo").fetchall()]
    assert types["point_lo"] == types["valid_from_hi"] == "BIGINT"
    assert types["point"] == "VARCHAR[]"
    assert BIG_BANG_DAY in days
    copied = kgdiff.open(store)
    copied.build_lookup()
    assert copied.lookup_copy() is not None
    for qid in ("Q1", DEEP, "Q183"):
        assert copied.timeline(qid).equals(kg.timeline(qid)), qid
    copied.close()


def test_the_other_questions_about_deep_time(kg: KnowledgeGraph) -> None:
    """Facts, entities, pools, updates and the staleness curve of the store answer; a
    classification labels its time values in words."""
    assert kg.entity("Q1")["label"].to_list() == ["universe"]
    inception = kg.classify(CUTOFF, subject="Q1", pid="P571").row(0, named=True)
    assert inception["latest_labels"] == [BIG_BANG]
    facts = kg.facts_at(CUTOFF, "valid", "Q1")
    assert f"{UNIVERSE_INCEPTION}|3|Q1985727" in facts.filter(pl.col("pid") == "P571")["best"][0]
    assert kg.pools(DEEP, "P793").height == 1
    kg.updates(CUTOFF)
    assert kg.staleness().height > 0


# --- the REST service ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def api(store: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[httpx.Client]:
    with serving(copy_store(store, tmp_path_factory.mktemp("deep-rest"))) as client:
        yield client


def test_the_rest_timeline_of_the_universe(api: httpx.Client, kg: KnowledgeGraph) -> None:
    """``GET /v1/entities/Q1/timeline`` answered 500 (plain text); now the library's rows."""
    for qid in ("Q1", DEEP):
        answer = api.get(f"/v1/entities/{qid}/timeline")
        assert answer.status_code == 200, answer.text
        items = answer.json()["items"]
        expected = orjson.loads(orjson.dumps(kg.timeline(qid).to_dicts()))
        assert [{k: row[k] for k in items[0]} for row in expected] == items
    big_bang = next(i for i in api.get("/v1/entities/Q1/timeline").json()["items"]
                    if i["statement_id"] == "Q1$bigbang")  # fmt: skip
    assert (big_bang["point_lo"], big_bang["point_text"]) == (BIG_BANG_DAY, BIG_BANG)


def test_the_rest_service_answers_every_question_about_deep_time(api: httpx.Client) -> None:
    """Chains answered 500 (a hop that started in 753 BCE); every route answers now."""
    chains = api.get(f"/v1/chains?date={CUTOFF}&subject={CITY}")
    assert chains.status_code == 200, chains.text
    (chain,) = chains.json()["items"]
    assert chain["hops"][0]["start_text"] == "21 April 753 BCE (Julian)"
    facts = api.get(f"/v1/facts?cutoff={CUTOFF}&limit=50")
    while facts.status_code == 202:  # a classification being made: wait for its job
        time.sleep(0.5)
        facts = api.get(f"/v1/facts?cutoff={CUTOFF}&limit=50")
    assert facts.status_code == 200, facts.text
    (inception,) = [i for i in facts.json()["items"] if (i["subject"], i["pid"]) == ("Q1", "P571")]
    assert inception["latest_labels"] == [BIG_BANG]
    for route in (
        "/v1/entities/Q1",
        f"/v1/entities/Q1/facts?date={CUTOFF}",
        f"/v1/entities/{DEEP}/facts?date={CUTOFF}&mode=valid",
        f"/v1/pools?subject={DEEP}&pid=P793",
        f"/v1/updates?cutoff={CUTOFF}",
        f"/v1/facts?cutoff={CUTOFF}&limit=50",
        "/v1/staleness",
    ):
        answer = api.get(route)
        assert answer.status_code == 200, (route, answer.text)


# --- exports -------------------------------------------------------------------------------------


def test_a_benchmark_of_deep_time(store: Path, tmp_path: Path) -> None:
    """The export stopped at its multi-hop chains (year -752 is out of range); its answers
    are in words."""
    out = tmp_path / "bench"
    # the deep-time samples have no sitelinks: the default salience filter would skip them
    ok("export", "benchmark", "--cutoff", CUTOFF, "--out", str(out), "--store", str(store),
       "--configs", "qa,multi_hop,updates,temporal,pools",
       "--min-sitelinks", "0")  # fmt: skip
    qa: dict[str, dict[str, Any]] = {}
    for split in (out / "data" / "qa").glob("*.jsonl"):
        qa |= {row["id"]: row for row in map(json.loads, split.read_text().splitlines())}
    # deep time as people write it, the timeline's words accepted too
    assert qa["qa/Q1/P571"]["answers"] == ["13.798 billion years ago", BIG_BANG]
    assert qa[f"qa/{DEEP}/P571"]["answers"] == ["66 million years ago", "66 million years BCE"]
    assert "66 million years ago" in qa[f"qa/{DEEP}/P571"]["options"]
    assert "66 million years ago" in qa[f"qa/{DEEP}/P571"]["tf_statement"]
    assert qa[f"qa/{DEEP}/P576"]["answers"] == ["12345"]
    timestamps = (out / "data" / "temporal" / "timestamp.jsonl").read_text().splitlines()
    asked = {row["subject"]: row for row in map(json.loads, timestamps)}
    assert asked[CITY]["answers"][0] == "21 April 753 BCE"
    hops = (out / "data" / "multi_hop" / "hops_2.jsonl").read_text()
    assert CITY in hops and LAND in hops


def test_rdf_export_and_back(store: Path, tmp_path: Path, kg: KnowledgeGraph) -> None:
    """The N-Triples of the newer snapshot (signed xsd:dateTime years, as Wikidata writes
    them) read back to the same time values; a literal year 0 has no RDF form (left out)."""
    kg.close()  # DuckDB would hand this process's open catalog back, not the one made now
    nt = tmp_path / "deep.nt"
    ok("export", "rdf", "--snapshot", "deep-2", "--out", str(nt), "--store", str(store))
    assert '"-13798000000-01-01T00:00:00Z"^^<http://www.w3.org/2001/XMLSchema#dateTime>' in (
        nt.read_text()
    )
    ok("ingest", "rdf", str(nt), "--snapshot", "rdf-back", "--date", "2021-01-01",
       "--coverage", "subset", "--store", str(store))  # fmt: skip
    query = (
        "SELECT statement_id, coalesce(qualifier_pid, '') AS q, value FROM ("
        " SELECT snapshot, statement_id, NULL AS qualifier_pid, value, value_type FROM statements"
        " UNION ALL SELECT snapshot, statement_id, qualifier_pid, value, value_type"
        " FROM qualifiers) WHERE value_type = 'time' AND snapshot = ?"
    )
    with duckdb.connect(str(store / "kg.duckdb"), read_only=True) as connection:
        connection.execute("SET VARIABLE kgdiff_store = ?", [f"{store}/"])
        before = set(connection.execute(query, ["deep-2"]).fetchall())
        after = set(connection.execute(query, ["rdf-back"]).fetchall())
    year_zero = {row for row in before if row[2].startswith("+0000-")}
    assert len(before) > 40 and len(year_zero) == 1
    assert after == before - year_zero
    assert (f"{DEEP}$Q900000122", "P585", "+5000000000-00-00T00:00:00Z|0|Q1985727") in after


# --- the explorer --------------------------------------------------------------------------------


def test_the_explorer_draws_the_universe(api: httpx.Client) -> None:
    """In a real browser: the timeline of every date, on the snapshots' axis (the Big Bang a
    pointer at its edge, in words) and on the axis of all dates (ticks in billions of years);
    its table in words; no script error."""
    base = str(api.base_url).rstrip("/")
    with chromium() as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 800})  # type: ignore[attr-defined]
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        for query in ("?entity=Q1&axis=span", f"?entity={DEEP}&axis=all", "?entity=Q1&axis=all"):
            page.goto(f"{base}/{query}")
            page.wait_for_function("document.documentElement.dataset.ready === '1'", timeout=30_000)
            page.wait_for_selector("#timeline-table tbody tr", state="attached")
            table = page.text_content("#timeline-table") or ""
            chart = page.text_content("#timeline-chart") or ""
            if query.startswith("?entity=Q1"):
                assert BIG_BANG in table
            if query == "?entity=Q1&axis=span":
                assert f"◂ {BIG_BANG}" in chart
            if query.endswith("axis=all"):
                assert "billion BCE" in chart
                label = page.get_attribute("#timeline-chart svg", "aria-label") or ""
                assert "NaN" not in label and "billion BCE" in label
            if query == f"?entity={DEEP}&axis=all":
                for _, _, _, _, text in EVENTS:
                    assert text in table, text
        assert "13.6 billion years BCE" in (page.text_content("#timeline-table") or "")
        assert errors == [], errors


def test_a_catalog_of_an_older_kgdiff(store: Path, tmp_path: Path) -> None:
    """A catalog made before the helper macros existed (the time value macros and
    kgdiff_pooled; until the next ingest rebuilds it) still answers: the graph's connections
    make them as temporary macros."""
    from kgdiff.temporal.helper_macros import TIME_MACROS

    old = copy_store(store, tmp_path)
    with duckdb.connect(str(old / "kg.duckdb")) as connection:
        for name in TIME_MACROS:
            connection.execute(f"DROP MACRO kgdiff_{name}")
        connection.execute("DROP MACRO TABLE kgdiff_pooled")
    graph = kgdiff.open(old, lookup=False)
    try:
        rows = by_value(graph.timeline("Q1"))
        assert rows["Q323"]["point_lo"] == BIG_BANG_DAY
        assert graph.chains(CUTOFF, subject=CITY).height == 1
        assert graph.pools(CITY).height > 0
    finally:
        graph.close()
