"""Supporting revisions and entities as of a date through the API of a real MediaWiki 1.39
on loopback (tests/mediawiki/), checked against a history dump of the same wiki."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import duckdb
import pytest

from kgdiff.evidence.histories import ApiHistory, DumpHistory
from kgdiff.evidence.mentions import Name, NameMatcher
from kgdiff.evidence.revisions import Support
from kgdiff.ingest.pipeline import IngestRequest, ingest_wikidata
from kgdiff.wikiapi import WikiClient
from kgdiff.wikiapi.revisions import RevisionMeta
from kgdiff.wikipedia.ingest import WikipediaRequest, ingest_wikipedia
from tests.mediawiki.build import LoadedWiki
from tests.mediawiki.entities import entity_history_xml
from tests.mediawiki.history import SyntheticHistory
from tests.paths import run_kgdiff

EINSTEIN = NameMatcher([Name("Q937", "Albert Einstein", "label")])
MANHATTAN = NameMatcher([Name("Q127050", "Manhattan Project", "label")])


def search(
    mediawiki: LoadedWiki, history: SyntheticHistory, start: int, exact: bool
) -> tuple[Support | None, int]:
    """The API search after revision ``start``; the support and the requests it took."""
    client = WikiClient.from_api_url(mediawiki.api_url)
    after = history.revisions[start].timestamp.replace(tzinfo=None)
    found = ApiHistory(client, exact=exact).search(history.title, after, EINSTEIN, MANHATTAN)
    return found, client.requests_made


@pytest.mark.parametrize("start", [0, 150, 300])
def test_the_api_search_needs_at_most_three_requests(
    mediawiki: LoadedWiki, history: SyntheticHistory, metas: list[RevisionMeta], start: int
) -> None:
    found, requests = search(mediawiki, history, start, exact=False)
    assert found is not None
    # the reverted vandal edit naming both (history.first_mention) is skipped
    assert found.revision_id == metas[history.first_lasting_mention].revid
    assert history.first_mention < history.first_lasting_mention
    assert requests <= 3
    exact, exact_requests = search(mediawiki, history, start, exact=True)
    assert exact is not None and exact.revision_id == found.revision_id
    assert exact_requests >= requests
    walk = WikiClient.from_api_url(mediawiki.api_url)  # AntiLeakBench: every revision's text
    params: dict[str, str | int] = {
        "prop": "revisions", "titles": history.title, "rvprop": "ids|timestamp|content",
        "rvslots": "main", "rvlimit": 50, "rvdir": "newer",
    }  # fmt: skip
    assert sum(1 for _ in walk.query_pages(params, history.title)) == walk.requests_made
    assert walk.requests_made >= len(metas) // 50
    print(
        f"after revision {start}: {requests} requests probing, {exact_requests} reading "
        f"every lead, {walk.requests_made} for a full-history walk ({len(metas)} revisions)"
    )


def test_a_history_dump_of_the_same_wiki_gives_the_same_revision(
    mediawiki: LoadedWiki, history: SyntheticHistory, metas: list[RevisionMeta], tmp_path: Path
) -> None:
    dump = tmp_path / "testwiki-20260101-pages-meta-history.xml"
    mediawiki.maintenance("dumpBackup", "--full", "--quiet", f"--output=file:{dump}")
    ingest_wikipedia(
        WikipediaRequest(dump, snapshot="local", date="2030-01-01", wiki="testwiki", store=tmp_path)
    )
    with duckdb.connect(str(tmp_path / "kg.duckdb"), read_only=True) as connection:
        after = history.revisions[150].timestamp.replace(tzinfo=None)
        found = DumpHistory(connection, "local").search(history.title, after, EINSTEIN, MANHATTAN)
    assert found is not None
    assert found.revision_id == metas[history.first_lasting_mention].revid


def test_nothing_is_found_on_a_missing_page(mediawiki: LoadedWiki) -> None:
    client = WikiClient.from_api_url(mediawiki.api_url)
    search_ = ApiHistory(client).search(
        "No such page at all", datetime(2001, 1, 1), EINSTEIN, MANHATTAN
    )
    assert search_ is None and client.requests_made == 1


@pytest.mark.parametrize("day", ["2012-11-20", "2013-06-30", "2016-12-31"])
def test_entities_as_of_a_date_equal_the_history_dump_read_at_that_date(
    mediawiki: LoadedWiki, tmp_path: Path, day: str
) -> None:
    store = str(tmp_path / "store")
    api = run_kgdiff(
        "ingest", "api", "--entities", "Q1,Q424242", "--date", day, "--snapshot", "api",
        "--api", mediawiki.api_url, "--store", store,
    )  # fmt: skip
    assert api.returncode == 0, api.stderr
    assert "2 API requests" in api.stdout and "left out Q424242" in api.stdout
    dump = tmp_path / "wikidata-history.xml"
    dump.write_text(entity_history_xml("wikibase-item"), "utf-8")
    # the reference the API snapshot is checked against: read in-process (the command line of
    # `ingest wikidata` is not what this test is about)
    ingest_wikidata(IngestRequest(dump, snapshot="xml", date=day, store=store))
    with duckdb.connect(f"{store}/kg.duckdb", read_only=True) as connection:
        tables = {}
        for snapshot in ("api", "xml"):
            tables[snapshot] = [
                connection.execute(
                    f"SELECT * EXCLUDE (snapshot) FROM {table} WHERE snapshot = ? ORDER BY ALL",
                    [snapshot],
                ).fetchall()
                for table in ("entities", "labels", "sitelinks", "statements")
            ]
        coverage = connection.execute(
            "SELECT name, coverage, (SELECT list(qid ORDER BY qid) FROM coverage c"
            " WHERE c.snapshot = s.name) FROM snapshots s ORDER BY name"
        ).fetchall()
    assert tables["api"] == tables["xml"]
    assert tables["api"][0]  # Q1 existed at every tested date
    # the API snapshot covers what was asked, the id that did not exist included; the
    # history dump is a whole (tiny) dump
    assert coverage == [("api", "subset", ["Q1", "Q424242"]), ("xml", "full", None)]
    again = run_kgdiff(
        "ingest", "api", "--entities", "Q1,Q424242", "--date", day, "--snapshot", "api",
        "--api", mediawiki.api_url, "--store", store,
    )  # fmt: skip
    assert again.returncode == 0 and "0 API requests" in again.stdout


def test_entities_that_did_not_exist_yet_are_an_error(
    mediawiki: LoadedWiki, tmp_path: Path
) -> None:
    result = run_kgdiff(
        "ingest", "api", "--entities", "Q1", "--date", "2011-01-01", "--api", mediawiki.api_url,
        "--store", str(tmp_path),
    )  # fmt: skip
    assert result.returncode == 3 and "none of Q1 existed on 2011-01-01" in result.stderr


def test_a_page_as_of_a_date(mediawiki: LoadedWiki) -> None:
    result = run_kgdiff(
        "page", "Pear", "--date", "2002-06-01", "--lead", "--api", mediawiki.api_url
    )
    assert result.returncode == 0, result.stderr
    first_line, text = result.stdout.split("\n", 1)
    assert first_line.startswith("Pear: revision ") and first_line.endswith(
        "of 2002-02-25 15:43 UTC"
    )
    assert text.startswith("Pears are trees of the genus Pyrus")
    missing = run_kgdiff("page", "Pear", "--date", "2001-01-01", "--api", mediawiki.api_url)
    assert missing.returncode == 3 and "no page 'Pear' existed on 2001-01-01" in missing.stderr
