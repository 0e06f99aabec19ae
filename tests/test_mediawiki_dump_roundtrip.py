"""A full-history dump of the test wiki, read back by kgdiff's reader, equals the API's view.

``dumpBackup.php --full`` writes every revision of the wiki as export-0.11;
``kgdiff.readers.mediawiki_xml.iter_revisions`` reads it; ``prop=revisions`` (paged, with
content) walks every page through the API. Both must state the same revisions: ids,
parents, timestamps, sha1 (base 36 in dumps, hex in the API), users, comments, sizes,
minor flags, texts, and the fields hidden by revision deletion.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

from kgdiff.readers.mediawiki_xml import MediaWikiStats, Revision, iter_revisions
from kgdiff.wikiapi import WikiClient
from kgdiff.wikiapi.parse import ApiRevision, parse_query, parse_timestamp
from tests.mediawiki.build import LoadedWiki

# pear 5, pyrus 6, pair 4, simplewiki 33, enwiki 206, synthetic 624, Q1 5, the Main Page
TOTAL_REVISIONS = 5 + 6 + 4 + 33 + 206 + 624 + 5 + 1
_PROPS = "ids|timestamp|sha1|user|comment|content|size|flags"


def dump_view(rev: Revision) -> tuple[Any, ...]:
    sha1 = None if rev.sha1 is None else format(int(rev.sha1, 36), "040x")
    hidden = (rev.user_deleted, rev.comment_deleted, rev.text_deleted)
    return (
        rev.revision_id, rev.parent_id, parse_timestamp(rev.timestamp), sha1, rev.user,
        rev.comment or "", rev.size, rev.minor, rev.text, hidden,
    )  # fmt: skip


def api_view(rev: ApiRevision) -> tuple[Any, ...]:
    hidden = (rev.user_hidden, rev.comment_hidden, rev.text_hidden)
    return (
        rev.revid, rev.parentid or None, rev.timestamp, rev.sha1, rev.user,
        rev.comment or "", rev.size, rev.minor, rev.text, hidden,
    )  # fmt: skip


def api_revisions(client: WikiClient, title: str) -> list[ApiRevision]:
    """Every revision of a page through the API, with content, in pages of 50."""
    params = {"prop": "revisions", "titles": title, "rvlimit": "max", "rvdir": "newer",
              "rvslots": "main", "rvprop": _PROPS}  # fmt: skip
    found: list[ApiRevision] = []
    for answer in client.query_pages(params, title):
        for page in parse_query(answer).pages:
            found += page.revisions
    return found


def test_full_dump_read_back_equals_the_api(mediawiki: LoadedWiki, tmp_path: Path) -> None:
    dump = tmp_path / "full.xml"
    mediawiki.maintenance("dumpBackup", "--full", "--quiet", f"--output=file:{dump}")
    stats = MediaWikiStats()
    pages: dict[str, list[Revision]] = defaultdict(list)
    with dump.open("rb") as handle:
        for rev in iter_revisions(handle, stats):
            pages[rev.page.title].append(rev)
    assert set(pages) == {*mediawiki.titles, "Main Page"}
    assert (stats.pages, stats.revisions, stats.dbname) == (215, TOTAL_REVISIONS, "kgdifftest")
    assert (stats.deleted_users, stats.deleted_comments, stats.deleted_texts) == (4, 3, 4)
    client = WikiClient.from_api_url(mediawiki.api_url)
    for title, revisions in pages.items():
        from_api = sorted(api_revisions(client, title), key=lambda r: r.revid or 0)
        from_dump = sorted(revisions, key=lambda r: r.revision_id)
        assert [dump_view(r) for r in from_dump] == [api_view(r) for r in from_api], title
    assert client.requests_made == 214 + 13  # one per page, 13 for the 624 revisions
