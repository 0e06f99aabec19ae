"""``kgdiff ingest wikipedia`` on every real Wikipedia sample: counts, the page in force at
the date, the catalog views, re-runs, conflicts and damaged input."""

from __future__ import annotations

import bz2
import shutil
from datetime import datetime
from pathlib import Path

import duckdb
import mwxml
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgdiff.errors import StoreError, UsageError
from kgdiff.readers.mediawiki_xml import PageInfo, Revision
from kgdiff.store.layout import StoreLayout
from kgdiff.wikipedia.ingest import WikipediaRequest, ingest_wikipedia
from kgdiff.wikipedia.select import SelectionStats, pages_in_force
from kgdiff.wikipedia.sites import resolve_wiki, wiki_from_base, wiki_language
from tests.paths import run_kgdiff
from tests.test_mediawiki_xml import MANIFEST, WIKIPEDIA, open_sample

WIKI_OF = {  # what each sample's header says (the table-markup sample has no <siteinfo>)
    "bgwiki-latest-pages-articles-shortened.xml.bz2": "bgwiki",
    "enwiki-latest-pages-articles1.xml-p000000010p000030302-shortened.bz2": "enwiki",
    "article-pear-0.10.xml": "enwiki",
    "article-pear.xml": "enwiki",  # schema 0.3: only <base>https://en.wikipedia.org/…
    "article-pyrus.xml": "enwiki",
    "pair-0.10.xml": "enwiki",
    "commonswiki_1page_59revs_export-0.11.xml": "commonswiki",
    "simplewiki_2pages_33revs_export-0.11.xml": "simplewiki",
    "simplewiki_2pages_export-0.10_older.xml": "simplewiki",
}


def ingest(store: Path, name: str, day: str = "2030-01-01", **options: str) -> dict[str, int]:
    """Ingest one sample; return the manifest's counts."""
    request = WikipediaRequest(WIKIPEDIA / name, date=day, store=store, **options)
    return ingest_wikipedia(request).manifest.counts


@pytest.mark.parametrize("name", sorted(WIKI_OF))
def test_every_sample_ingests_with_the_manifest_counts(tmp_path: Path, name: str) -> None:
    counts = ingest(tmp_path, name)
    pages, revisions, _ = MANIFEST[name]
    assert counts == {"pages": pages, "revisions": revisions}
    layout = StoreLayout.resolve(tmp_path)
    (folder,) = layout.wikipedia_dir.iterdir()
    wiki = duckdb.execute(f"SELECT DISTINCT wiki FROM '{folder}/pages.parquet'").fetchall()
    assert wiki == [(WIKI_OF[name],)]


def test_a_dump_without_site_information_needs_wiki(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="pass --wiki"):
        ingest(tmp_path, "enwiki-table-markup.xml.bz2")
    assert ingest(tmp_path, "enwiki-table-markup.xml.bz2", wiki="enwiki")["pages"] == 5


def reference_pages_at(name: str, until: datetime) -> dict[int, int]:
    """page id → revision id in force at ``until``, read with mwxml (an independent parser)."""
    chosen: dict[int, tuple[datetime, int]] = {}
    with open_sample(name) as handle:
        for page in mwxml.Dump.from_file(handle):
            for revision in page:
                when = datetime.fromtimestamp(revision.timestamp.unix()).replace(tzinfo=None)
                if when <= until and (
                    page.id not in chosen or (when, revision.id) > chosen[page.id]
                ):
                    chosen[page.id] = (when, revision.id)
    return {page_id: revision_id for page_id, (_, revision_id) in chosen.items()}


@pytest.mark.parametrize("day", ["2008-01-01", "2012-06-30", "2019-12-31"])
def test_pages_hold_the_revision_in_force_at_the_date(tmp_path: Path, day: str) -> None:
    name = "simplewiki_2pages_33revs_export-0.11.xml"
    ingest(tmp_path, name, day)
    expected = reference_pages_at(name, datetime.fromisoformat(f"{day}T23:59:59"))
    got = duckdb.execute(
        f"SELECT page_id, revision_id FROM '{tmp_path}/wikipedia/*/pages.parquet'"
    ).fetchall()
    assert dict(got) == expected


def test_pages_created_after_the_date_are_counted_not_kept(tmp_path: Path) -> None:
    request = WikipediaRequest(WIKIPEDIA / "pair-0.10.xml", date="2001-01-01", store=tmp_path)
    manifest = ingest_wikipedia(request).manifest
    assert manifest.counts == {"pages": 0, "revisions": 4}
    assert manifest.input_stats["pages_after_date"] == 2


def test_the_catalog_shows_pages_revisions_and_links_to_entities(sample_store: Path) -> None:
    store = sample_store.parent / "wikipedia-catalog-store"
    shutil.copytree(sample_store, store)
    ingest(store, "enwiki-latest-pages-articles1.xml-p000000010p000030302-shortened.bz2")
    ingest(store, "simplewiki_2pages_33revs_export-0.11.xml", snapshot="simple")
    with duckdb.connect(str(store / "kg.duckdb"), read_only=True) as connection:
        per_snapshot = connection.sql(
            "SELECT snapshot, count(*) FROM revisions GROUP BY 1 ORDER BY 1"
        ).fetchall()
        assert per_snapshot == [("enwiki-20300101", 206), ("simple", 33)]
        linked = connection.sql(
            "SELECT title, qid, wikidata_snapshot FROM page_entities "
            "WHERE title = 'Albert Einstein'"
        ).fetchall()
        assert linked == [("Albert Einstein", "Q937", "wd-2014-12")]
        names = connection.sql("SELECT name, wiki FROM wikipedia_snapshots ORDER BY 1").fetchall()
        assert names == [("enwiki-20300101", "enwiki"), ("simple", "simplewiki")]
    listing = run_kgdiff("snapshots", "--store", str(store))
    assert "enwiki-20300101" in listing.stdout and "wd-2014-12" in listing.stdout
    removed = run_kgdiff("snapshots", "rm", "simple", "-y", "--store", str(store))
    assert removed.returncode == 0, removed.stderr
    assert StoreLayout.resolve(store).wikipedia_names() == ["enwiki-20300101"]


def test_rerun_is_a_no_op_and_another_file_under_the_same_name_is_refused(tmp_path: Path) -> None:
    first = ingest_wikipedia(
        WikipediaRequest(
            WIKIPEDIA / "pair-0.10.xml", date="2020-01-01", store=tmp_path, snapshot="w"
        )
    )
    again = ingest_wikipedia(
        WikipediaRequest(
            WIKIPEDIA / "pair-0.10.xml", date="2020-01-01", store=tmp_path, snapshot="w"
        )
    )
    assert (first.status, again.status) == ("ingested", "unchanged")
    other = run_kgdiff(
        "ingest",
        "wikipedia",
        str(WIKIPEDIA / "article-pyrus.xml"),
        "--snapshot",
        "w",
        "--date",
        "2020-01-01",
        "--store",
        str(tmp_path),
    )
    assert other.returncode == 5 and "already exists" in other.stderr


def test_a_name_taken_by_a_wikidata_snapshot_is_refused(sample_store: Path) -> None:
    with pytest.raises(StoreError, match="names a Wikidata snapshot"):
        ingest_wikipedia(
            WikipediaRequest(
                WIKIPEDIA / "pair-0.10.xml",
                snapshot="wd-2014-12",
                date="2020-01-01",
                store=sample_store,
            )
        )


@pytest.mark.parametrize("cut", [0.3, 0.7])
def test_a_truncated_dump_publishes_nothing(tmp_path: Path, cut: float) -> None:
    data = bz2.decompress((WIKIPEDIA / MANIFEST_ENWIKI).read_bytes())
    broken = tmp_path / "enwiki-20160501-pages-articles.xml"
    broken.write_bytes(data[: int(len(data) * cut)])
    result = run_kgdiff("ingest", "wikipedia", str(broken), "--store", str(tmp_path / "store"))
    assert result.returncode == 3, result.stderr
    assert str(broken) in result.stderr and "line" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    layout = StoreLayout.resolve(tmp_path / "store")
    assert layout.wikipedia_names() == []
    assert not any(layout.staging_dir.iterdir())


MANIFEST_ENWIKI = "enwiki-latest-pages-articles1.xml-p000000010p000030302-shortened.bz2"


def test_wiki_names_and_languages() -> None:
    assert wiki_from_base("https://simple.wikipedia.org/wiki/Main_Page") == "simplewiki"
    assert wiki_from_base("https://zh-yue.wikipedia.org/wiki/") == "zh_yuewiki"
    assert wiki_from_base("https://de.wikivoyage.org/wiki/Hauptseite") == "dewikivoyage"
    assert wiki_from_base("https://www.wikidata.org/wiki/Wikidata:Main_Page") == "wikidatawiki"
    assert wiki_from_base("http://localhost:8080/index.php/Main_Page") is None
    assert [wiki_language(w) for w in ("enwiki", "simplewiki", "zh_yuewiki", "commonswiki")] == [
        "en",
        "en",
        "zh-yue",
        "en",
    ]
    with pytest.raises(UsageError, match="database name"):
        resolve_wiki("EN wiki", None, None, "dump.xml")


def revision(page: PageInfo, revision_id: int, when: datetime) -> Revision:
    """A minimal revision of ``page``."""
    return Revision(
        page,
        revision_id,
        None,
        when.strftime("%Y-%m-%dT%H:%M:%SZ"),
        None,
        None,
        False,
        None,
        None,
        None,
        None,
        None,
        "text",
    )


@settings(max_examples=150)
@given(
    histories=st.lists(
        st.lists(st.datetimes(datetime(2001, 1, 1), datetime(2030, 1, 1)), min_size=1, max_size=8),
        min_size=1,
        max_size=6,
    ),
    until=st.datetimes(datetime(2001, 1, 1), datetime(2030, 1, 1)),
)
def test_selection_keeps_the_latest_revision_at_or_before_the_date(
    histories: list[list[datetime]], until: datetime
) -> None:
    until = until.replace(microsecond=0)
    stream: list[Revision] = []
    expected: dict[int, tuple[datetime, int]] = {}
    next_id = 1
    for page_id, times in enumerate(histories, start=1):
        page = PageInfo(page_id, 0, f"Page {page_id}", None)
        for when in times:
            when = when.replace(microsecond=0)
            stream.append(revision(page, next_id, when))
            if when <= until and (page_id not in expected or (when, next_id) > expected[page_id]):
                expected[page_id] = (when, next_id)
            next_id += 1
    stats = SelectionStats()
    chosen = {r.page.page_id: r.revision_id for r in pages_in_force(stream, until, stats)}
    assert chosen == {page_id: rid for page_id, (_, rid) in expected.items()}
    assert stats.pages == len(histories)
    assert stats.pages_after_date == len(histories) - len(expected)
    assert stats.revisions == len(stream)


@pytest.mark.parametrize("suffix", [".part", ".corrupt"])
def test_an_unverified_download_is_never_ingested(tmp_path: Path, suffix: str) -> None:
    left = tmp_path / f"enwiki-20160501-pages-articles.xml.bz2{suffix}"
    shutil.copyfile(WIKIPEDIA / MANIFEST_ENWIKI, left)
    for kind in ("wikipedia", "wikidata"):
        result = run_kgdiff("ingest", kind, str(left), "--store", str(tmp_path / "store"))
        assert result.returncode == 3, result.stderr
        assert "kgdiff fetch" in result.stderr
    assert StoreLayout.resolve(tmp_path / "store").wikipedia_names() == []
