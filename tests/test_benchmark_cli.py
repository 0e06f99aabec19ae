"""kgdiff export benchmark on the command line: its refusals, --force, and contexts from the
demo store's Wikipedia evidence."""

from __future__ import annotations

import json
import math
import shutil
from datetime import date
from pathlib import Path

import pytest

import kgdiff
from kgdiff.export.benchmark import (
    DUCKDB_BYTES_PER_STATEMENT,
    duckdb_limit,
    duckdb_memory,
    reads_ahead,
)
from kgdiff.export.core.duckdb_bounds import bounded_duckdb, release_duckdb
from kgdiff.store.layout import StoreLayout
from kgdiff.store.snapshots import list_snapshots
from kgdiff.temporal.dates import GapPolicy
from tests.benchmark_exports import SPLITS, all_records, export, records
from tests.paths import run_kgdiff


def bench(store: Path, out: Path, *extra: str) -> tuple[int, str, str]:
    done = run_kgdiff(
        "export",
        "benchmark",
        "--cutoff",
        "2014-10-11",
        "--out",
        str(out),
        "--store",
        str(store),
        *extra,
    )
    return done.returncode, done.stdout, done.stderr


def test_the_command_writes_the_dataset(export_sample_store: Path, tmp_path: Path) -> None:
    code, out, err = bench(export_sample_store, tmp_path / "b", "--seed", "3", "--limit", "4")
    assert code == 0, err
    assert f"written to {tmp_path / 'b'}" in out and "evolved" in out
    build = json.loads((tmp_path / "b" / "kgdiff_build.json").read_text())
    assert build["parameters"]["seed"] == 3
    assert all(len(records(tmp_path / "b", split)) <= 4 for split in SPLITS)
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_a_folder_that_is_not_empty_is_refused_unless_forced(
    export_sample_store: Path, tmp_path: Path
) -> None:
    out = tmp_path / "taken"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    code, _, err = bench(export_sample_store, out)
    assert code == 2
    assert "exists and is not empty" in err and "--force" in err
    assert [p.name for p in out.iterdir()] == ["notes.txt"]
    code, _, err = bench(export_sample_store, out, "--force")
    assert code == 0, err
    assert not (out / "notes.txt").exists() and (out / "README.md").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["taken"]


def test_an_empty_folder_is_filled(export_sample_store: Path, tmp_path: Path) -> None:
    out = tmp_path / "empty"
    out.mkdir()
    code, _, err = bench(export_sample_store, out, "--limit", "2")
    assert code == 0, err
    assert (out / "data" / "qa" / "stable.parquet").is_file()


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (("--configs", "qa,chrono"), "--configs 'chrono': not a config this kgdiff exports"),
        (
            ("--configs", "timeline"),
            "the ones it exports are qa, multi_hop, updates, temporal, pools",
        ),
        (("--mode", "both"), "--mode 'both'"),
        (("--limit", "0"), "--limit 0"),
        (("--options", "1"), "--options 1"),
        (("--init", "2014-11-01"), "init < cutoff < current"),
    ],
)
def test_wrong_arguments_are_one_line_usage_errors(
    export_sample_store: Path, tmp_path: Path, extra: tuple[str, ...], message: str
) -> None:
    code, _, err = bench(export_sample_store, tmp_path / "x", *extra)
    assert code == 2
    assert message in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "x").exists()


def test_a_malformed_relations_file_names_its_line(
    export_sample_store: Path, tmp_path: Path
) -> None:
    bad = tmp_path / "rel.toml"
    bad.write_text('[P36]\nlabel = "capital"\nqestion = "x"\n')
    code, _, err = bench(export_sample_store, tmp_path / "x", "--relations", str(bad))
    assert code == 2
    assert f"relations file {bad}, line" in err


def test_a_relations_file_rewords_the_questions(export_sample_store: Path, tmp_path: Path) -> None:
    own = tmp_path / "own.toml"
    own.write_text(
        'replace = true\n[P17]\nlabel = "country"\nobject_type = "item"\n'
        'multi_valued = false\ncontext = "subject"\n'
        'question = "In which state does {subject} lie?"\ncloze = "{subject} lies in"\n'
        'statement = "{subject} lies in {object}."\n'
        'question_at = "In {year}, in which state did {subject} lie?"\n'
        'cloze_at = "In {year}, {subject} lay in"\n'
        'statement_at = "In {year}, {subject} lay in {object}."\n'
    )
    code, _, err = bench(export_sample_store, tmp_path / "own", "--relations", str(own))
    assert code == 0, err
    exported = all_records(tmp_path / "own")
    assert exported and {r["pid"] for r in exported} == {"P17"}
    assert all(r["question"].startswith("In which state does") for r in exported)


def test_contexts_come_from_the_evidence_of_the_latest_answer(
    export_demo_store: Path, tmp_path: Path
) -> None:
    # the demo's Wikipedia snapshot is dated 2016-05-01, after the latest Wikidata snapshot,
    # whose items (read across the gap at every date) it has sentences about: Andrei
    # Tarkovsky's death in Paris
    done = export(
        export_demo_store, tmp_path / "ctx", init=date(2015, 1, 1), cutoff=date(2015, 6, 1),
        current=date(2016, 5, 1), gap=GapPolicy(allow=True),
    )  # fmt: skip
    exported = all_records(done.out)
    with_context = [r for r in exported if r["context"] is not None]
    assert with_context
    kg = kgdiff.open(export_demo_store)
    for record in with_context:
        rows = kg.sql(
            "SELECT title, sentence_index, sentence, object_qid FROM evidence"
            " WHERE subject = $s AND pid = $p AND revision_id = $r AND NOT weak",
            {"s": record["subject"], "p": record["pid"], "r": record["context_revision"]},
        )
        found = {(t, i, s) for t, i, s, qid in rows.iter_rows() if qid in record["latest"]}
        assert (record["context_page"], record["context_sentence"], record["context"]) in found
    without = [r for r in exported if r["context"] is None]
    assert all(r["context_page"] is None and r["context_revision"] is None for r in without)


def test_popularity_comes_from_the_page_views_of_the_subjects_article(
    export_sample_store: Path, tmp_path: Path
) -> None:
    from kgdiff.pageviews.ingest import PageviewIngest, ingest_file

    store = tmp_path / "store"
    shutil.copytree(export_sample_store, store)
    # no real page-view dump of these articles ships with the tests: an hourly dump's lines,
    # written here (two projects, so the wiki is told apart)
    views = tmp_path / "pageviews-20141201-100000"
    views.write_text("en Germany 500 0\nen Boston 40 0\nde Germany 9 0\n", encoding="utf-8")
    ingest_file(PageviewIngest(views, period="hour", date="2014-12-01T10", store=store))
    exported = all_records(export(store, tmp_path / "pop").out)
    by_subject = {r["subject"]: r["popularity"] for r in exported}
    assert by_subject["Q183"] == pytest.approx(math.log(501))
    assert by_subject["Q100"] == pytest.approx(math.log(41))
    assert {r["popularity"] for r in exported if r["subject"] not in ("Q183", "Q100")} == {None}


def test_duckdbs_limit_grows_with_the_largest_snapshot(export_sample_store: Path) -> None:
    kg = kgdiff.open(export_sample_store)
    largest = max(m.counts["statements"] for m in list_snapshots(StoreLayout(export_sample_store)))
    assert largest * DUCKDB_BYTES_PER_STATEMENT < 512 * 2**20
    assert duckdb_memory(kg) == "512MB"  # the floor: the samples are small
    assert duckdb_limit([5_000_000, 12_000_000]) == "732MB"  # 64 bytes a statement


def test_duckdbs_limit_holds_when_a_build_replaces_the_catalog(
    export_sample_store: Path, tmp_path: Path
) -> None:
    """The export's first classification for its dates publishes a build, which replaces
    the catalog: the graph opens it again, still held to the export's limit."""
    store = tmp_path / "store"
    shutil.copytree(export_sample_store, store)
    kg = kgdiff.open(store)
    with kg.connection() as connection:
        default = connection.execute("SELECT current_setting('memory_limit')").fetchone()
    with bounded_duckdb(kg, "600MB"):
        kg.answers.classification(date(2014, 10, 1))  # a new build: the catalog is rebuilt
        with kg.connection() as connection:
            held = connection.execute("SELECT current_setting('memory_limit')").fetchone()
            threads = connection.execute(
                "SELECT current_setting('allocator_background_threads')"
            ).fetchone()
    assert held == ("572.2 MiB",) and threads == (True,)
    with kg.connection() as connection:
        assert connection.execute("SELECT current_setting('memory_limit')").fetchone() == default


def test_releasing_duckdbs_memory_keeps_its_limit_and_its_tables(
    export_sample_store: Path, tmp_path: Path
) -> None:
    """The limit dips to the floor and comes back as the export set it; a temporary table
    larger than the floor (its pages evicted to disk, or the dip refused) reads back whole."""
    kg = kgdiff.open(export_sample_store, lookup=False)
    with bounded_duckdb(kg, "600MB"), kg.connection() as connection:
        connection.execute(f"SET temp_directory = '{tmp_path}'")
        rows = "SELECT range AS k, repeat('x', 40) || range AS v FROM range(3000000)"
        connection.execute(f"CREATE TEMP TABLE big AS {rows}")
        release_duckdb(kg)
        held = connection.execute("SELECT current_setting('memory_limit')").fetchone()
        total = connection.execute("SELECT count(*), sum(length(v)) FROM temp.big").fetchone()
    assert held == ("572.2 MiB",)
    assert total == (3_000_000, sum(40 + len(str(k)) for k in range(3_000_000)))


def test_duckdbs_limit_stops_at_its_cap_on_a_large_store() -> None:
    # issue 36: an export takes at most 4 GB at any size; 64 bytes a statement asked for
    # 12.8 GB at 200 M statements a snapshot
    assert duckdb_limit([20_000_000]) == "1024MB"
    assert duckdb_limit([150_000_000, 200_000_000]) == "1024MB"
    assert duckdb_limit([1_650_000_000]) == "1024MB"


def test_reads_run_ahead_only_while_the_store_is_small() -> None:
    # beside the qa records a read adds DuckDB's memory and its result (issue 36)
    assert reads_ahead([5_000_000, 5_200_000])
    assert not reads_ahead([25_000_000, 26_000_000])
    assert reads_ahead([])
