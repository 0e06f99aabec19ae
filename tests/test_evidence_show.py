"""``kgdiff evidence show QID``: the evidence of one subject's facts, on the demo's real
snapshots (three Wikidata dumps, 206 English Wikipedia articles of May 2016)."""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb
import pytest

from kgdiff.demo import load_samples
from kgdiff.evidence.build import build_evidence
from kgdiff.ingest.pipeline import IngestRequest, ingest_wikidata
from kgdiff.store.layout import StoreLayout
from kgdiff.wikipedia.ingest import WikipediaRequest, ingest_wikipedia
from tests.paths import SAMPLES, run_kgdiff

SWITZERLAND = (
    "On the advice of the principal of the Polytechnic, he attended the Argovian cantonal "
    "school (gymnasium) in Aarau, Switzerland, in 1895–96 to complete his secondary schooling."
)
EINSTEIN_PAGE = "Albert Einstein (page 736, revision 716825343)"


def show(store: Path, *args: str) -> tuple[int, str, str]:
    """``kgdiff evidence show ARGS`` on ``store``: exit code, stdout, stderr."""
    result = run_kgdiff("evidence", "show", *args, "--store", str(store))
    return result.returncode, result.stdout, result.stderr


def test_a_mentioned_fact_shows_its_sentence_page_and_revision(demo_store: Path) -> None:
    code, out, err = show(demo_store, "Q937")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("Q937 (Albert Einstein) in enwiki-2016-05 (2016-05-01): ")
    assert f"article {EINSTEIN_PAGE}" in lines[0]
    where = lines.index(
        "  P27 (country of citizenship) → Q39 (Switzerland): mentioned as 'Switzerland' in the "
        "body of Albert Einstein (the subject's article; page 736, revision 716825343)"
    )
    assert lines[where + 1].strip() == SWITZERLAND
    # a fact the article never names is listed too, and says so
    assert any(
        line.startswith("  P103 (native language) → Q188 (German): mentioned") for line in lines
    )
    assert (
        "  P26 (spouse) → Q68761: not searched: the store has no name of it in the wiki's language"
        in lines
    )


def test_pid_keeps_one_property_and_ids_are_case_normalised(demo_store: Path) -> None:
    code, out, err = show(demo_store, "Q937", "--pid", "P27")
    assert code == 0, err
    facts = [line for line in out.splitlines() if line.startswith("  P")]
    assert facts and all(line.startswith("  P27 ") for line in facts)
    assert "Q937 (Albert Einstein) in enwiki-2016-05 (2016-05-01): 2 of 4 facts mentioned" in out
    assert show(demo_store, "q937", "--pid", "p27")[1] == out


def test_a_subject_without_an_article_is_shown_through_its_objects_articles(
    demo_store: Path,
) -> None:
    code, out, err = show(demo_store, "Q30", "--pid", "P6")
    assert code == 0, err
    assert "Q30 (United States of America) in enwiki-2016-05" in out
    assert (
        "  P6 (head of government) → Q91 (Abraham Lincoln): mentioned as 'United States' in the "
        "lead of Abraham Lincoln (the object's article; page 307, revision 717901482)"
    ) in out
    assert out.rstrip().endswith(
        "Q30 has no page in enwiki-2016-05: only its objects' articles were read"
    )


def test_a_subject_without_an_article_or_mentions_says_why_in_one_line(demo_store: Path) -> None:
    code, out, err = show(demo_store, "Q64")
    assert (code, err) == (0, "")
    assert out == "Q64 has no page in enwiki-2016-05, and no article of its objects names it\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["Q999999999"], "Q999999999 is not in any Wikidata snapshot of the store"),
        (["q999999999"], "Q999999999 is not in any Wikidata snapshot of the store"),
        (["Q937", "--pid", "P999999"], "P999999 is not in any Wikidata snapshot of the store"),
        (["Albert"], "'Albert' is not an item id like Q42"),
        (["Q937", "--snapshot", "enwiki-1999"], "no Wikipedia snapshot named 'enwiki-1999'"),
    ],
)
def test_an_unknown_id_is_a_usage_error_in_one_line(
    demo_store: Path, args: list[str], message: str
) -> None:
    code, out, err = show(demo_store, *args)
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1 and message in err


def test_no_facts_and_no_wikipedia_each_say_why(demo_store: Path, sample_store: Path) -> None:
    # Q30 has only item-valued facts under other properties than P1082 (population)
    code, out, _ = show(demo_store, "Q30", "--pid", "P1082")
    assert (code, out) == (0, "Q30 has no item-valued P1082 statement in any Wikidata snapshot\n")
    code, out, _ = show(sample_store, "Q937")
    assert code == 0
    assert out == "no Wikipedia snapshot in the store: ingest one with 'kgdiff ingest wikipedia'\n"


@pytest.mark.parametrize("suffix", ["jsonl", "csv", "parquet"])
def test_out_writes_the_rows_shown(demo_store: Path, tmp_path: Path, suffix: str) -> None:
    out = tmp_path / f"evidence.{suffix}"
    code, stdout, err = show(demo_store, "Q937", "--pid", "P27", "--out", str(out))
    assert code == 0, err
    assert stdout.rstrip().endswith(f"wrote 4 rows to {out}")
    reader = {"jsonl": "read_json", "csv": "read_csv", "parquet": "read_parquet"}[suffix]
    rows = duckdb.execute(
        "SELECT snapshot, pid, object_qid, object_label, mentioned, section, sentence, title, "
        f"page_id, revision_id FROM {reader}(?) ORDER BY object_qid",
        [str(out)],
    ).fetchall()
    assert rows[2] == (
        "enwiki-2016-05", "P27", "Q39", "Switzerland", True, "body", SWITZERLAND,
        "Albert Einstein", 736, 716825343,
    )  # fmt: skip
    assert [(r[2], r[4]) for r in rows] == [
        ("Q159631", False), ("Q30", True), ("Q39", True), ("Q41304", False),
    ]  # fmt: skip


def test_out_with_another_suffix_is_refused_before_any_work(tmp_path: Path) -> None:
    missing_store = tmp_path / "no-store"
    code, _, err = show(missing_store, "Q937", "--out", str(tmp_path / "evidence.txt"))
    assert code == 2 and "use a .csv, .jsonl or .parquet file name" in err
    assert not missing_store.exists()


@pytest.fixture(scope="module")
def two_wikipedias(demo_store: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo store with the same articles again as a later snapshot, not yet searched."""
    store = tmp_path_factory.mktemp("two-wikipedias") / "store"
    shutil.copytree(demo_store, store)
    sample = SAMPLES / "enwiki-sample-pages-articles.xml.bz2"
    ingest_wikipedia(WikipediaRequest(sample, "enwiki-later", "2016-06-01", store=store))
    return store


def test_snapshot_picks_one_wikipedia_snapshot(two_wikipedias: Path) -> None:
    code, out, err = show(two_wikipedias, "Q937", "--pid", "P27")
    assert code == 0, err
    assert "Q937 (Albert Einstein) in enwiki-2016-05 (2016-05-01)" in out
    later = "no evidence built for enwiki-later: run 'kgdiff evidence build enwiki-later'"
    assert out.rstrip().endswith(later)
    code, out, _ = show(two_wikipedias, "Q937", "--pid", "P27", "--snapshot", "enwiki-later")
    assert (code, out) == (0, later + "\n")
    code, out, _ = show(two_wikipedias, "Q937", "--pid", "P27", "--snapshot", "enwiki-2016-05")
    assert code == 0 and "enwiki-later" not in out and SWITZERLAND in out


def test_evidence_build_and_the_bare_command_build_then_show(two_wikipedias: Path) -> None:
    store = str(two_wikipedias)
    built = run_kgdiff("evidence", "build", "enwiki-later", "--store", store)
    assert built.returncode == 0, built.stderr
    assert "built evidence of enwiki-later" in built.stdout
    bare = run_kgdiff("evidence", "--store", store)
    assert bare.returncode == 0, bare.stderr
    assert "reused evidence of enwiki-2016-05" in bare.stdout
    assert "reused evidence of enwiki-later" in bare.stdout
    code, out, _ = show(two_wikipedias, "Q937", "--pid", "P27", "--snapshot", "enwiki-later")
    assert code == 0 and "Q937 (Albert Einstein) in enwiki-later (2016-06-01)" in out
    assert SWITZERLAND in out


def test_evidence_older_than_the_wikidata_snapshots_is_shown_with_a_warning(
    tmp_path: Path,
) -> None:
    """Evidence built before the 2014-12 snapshot (where Einstein's citizenships are) finds
    none of them; show says so until the evidence is built again."""
    store = tmp_path / "store"
    first, second, third = load_samples()
    for sample in (first, second):
        ingest_wikidata(IngestRequest(SAMPLES / sample.file, sample.name, sample.date, store=store))
    articles = SAMPLES / "enwiki-sample-pages-articles.xml.bz2"
    ingest_wikipedia(WikipediaRequest(articles, "enwiki-2016-05", "2016-05-01", store=store))
    build_evidence(StoreLayout.resolve(store), "enwiki-2016-05")
    ingest_wikidata(IngestRequest(SAMPLES / third.file, third.name, third.date, store=store))
    code, out, err = show(store, "Q937", "--pid", "P27")
    assert code == 0, err
    assert "0 of 4 facts mentioned" in out
    stale = (
        "the evidence of enwiki-2016-05 was built from other Wikidata snapshots: "
        "run 'kgdiff evidence build enwiki-2016-05' to bring it up to date"
    )
    assert out.rstrip().endswith(stale)
    assert run_kgdiff("evidence", "build", "--store", str(store)).returncode == 0
    code, out, err = show(store, "Q937", "--pid", "P27")
    assert code == 0 and "2 of 4 facts mentioned" in out and SWITZERLAND in out
    assert stale not in out
