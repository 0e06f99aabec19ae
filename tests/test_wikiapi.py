"""The MediaWiki API client against a real MediaWiki 1.39 on loopback (tests/mediawiki/).

The wiki holds real page histories (pywikibot and simplewiki exports, 206 enwiki articles)
and a 624-revision page generated from a real article (tests/mediawiki/history.py), whose
texts, timestamps and reverts the tests know exactly. Recorded Wikipedia answers
(tests/data/mediawiki/api/) go through the same parser as the live ones.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from kgdiff import __version__
from kgdiff.wikiapi import (
    DEFAULT_USER_AGENT,
    RequestBudgetError,
    RetryPolicy,
    RevisionMeta,
    WikiApiError,
    WikiClient,
    lead_texts,
    revision_at,
    revisions_after,
)
from kgdiff.wikiapi.parse import parse_query, parse_timestamp
from tests.mediawiki.build import LoadedWiki
from tests.mediawiki.flaky import MAXLAG, flaky_front
from tests.mediawiki.history import SyntheticHistory
from tests.paths import DATA

RECORDED = DATA / "mediawiki" / "api"
FAST = RetryPolicy(max_retries=3, base_delay=0.01, max_delay=0.05)
EPOCH = datetime(2000, 1, 1, tzinfo=UTC)


@pytest.fixture
def client(mediawiki: LoadedWiki, tmp_path: Path) -> WikiClient:
    """A fresh client (request counter at 0, empty cache) for the test wiki."""
    return WikiClient(
        mediawiki.host, path=mediawiki.path, scheme="http", cache_dir=tmp_path / "cache", retry=FAST
    )


def sha1_hex(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


def test_setup_is_fast_and_complete(mediawiki: LoadedWiki, metas: list[RevisionMeta]) -> None:
    assert mediawiki.setup_seconds < 120
    assert len(mediawiki.titles) == 214  # 6 from the exports, 206 enwiki, 1 synthetic, Q1
    assert len(metas) == 624


def test_revision_at_before_between_and_after(client: WikiClient, history: SyntheticHistory):
    first, mid, last = history.revisions[0], history.revisions[300], history.revisions[-1]
    assert revision_at(client, history.title, first.timestamp - timedelta(seconds=1)) is None
    found = revision_at(client, history.title, mid.timestamp + timedelta(seconds=30))
    assert found is not None
    assert (found.meta.timestamp, found.text, found.meta.sha1) == (
        mid.timestamp, mid.text, sha1_hex(mid.text)
    )  # fmt: skip
    assert (found.meta.size, found.meta.minor) == (len(mid.text.encode()), mid.minor)
    assert (found.title, found.redirected_from) == (history.title, None)
    exact = revision_at(client, history.title, mid.timestamp)
    assert exact is not None and exact.meta == found.meta
    latest = revision_at(client, history.title, datetime(2030, 1, 1))
    assert latest is not None and latest.text == last.text
    assert client.requests_made == 4


def test_paging_with_a_small_batch_equals_a_full_walk(client: WikiClient, history, metas):
    walked = list(revisions_after(client, history.title, EPOCH, batch=37))
    assert walked == metas
    assert client.requests_made == math.ceil(624 / 37)
    assert [m.timestamp for m in metas] == [r.timestamp for r in history.revisions]
    assert [m.sha1 for m in metas] == [sha1_hex(r.text) for r in history.revisions]
    assert all(a.revid < b.revid and b.parentid == a.revid for a, b in itertools.pairwise(metas))


def test_revisions_after_is_strictly_after(client: WikiClient, history, metas):
    after = list(revisions_after(client, history.title, history.revisions[150].timestamp))
    assert after == metas[151:]
    assert client.requests_made == 1


def test_stopping_early_makes_no_further_request(client: WikiClient, history, metas):
    walk = revisions_after(client, history.title, EPOCH, batch=10)
    assert [next(walk) for _ in range(10)] == metas[:10]
    assert client.requests_made == 1


def test_missing_page(client: WikiClient):
    assert revision_at(client, "No such page anywhere", datetime(2020, 1, 1)) is None
    assert list(revisions_after(client, "No such page anywhere", EPOCH)) == []
    assert lead_texts(client, "No such page anywhere", [999999]) == {}
    assert client.requests_made == 3


def test_redirect_is_followed_and_reported(client: WikiClient):
    found = revision_at(client, "pyrus", datetime(2015, 1, 1))  # normalised, then redirected
    assert found is not None
    assert (found.title, found.redirected_from) == ("Pear", "Pyrus")
    assert found.meta.timestamp == parse_timestamp("2014-12-17T21:09:18Z")
    assert found.text is not None and found.text.startswith("{{Redirect|Pyrus}}")
    after = list(revisions_after(client, "Pyrus", datetime(2002, 8, 31, 3, 0)))
    assert [m.timestamp.isoformat() for m in after] == [
        "2002-08-31T03:27:15+00:00", "2002-08-31T05:53:10+00:00", "2014-12-17T21:09:18+00:00"
    ]  # fmt: skip


def test_lead_texts_of_fifty_revisions_in_one_request(client: WikiClient, history, metas):
    picked = list(range(250, 300))  # includes reverted vandal edits (blanked, lead cut)
    leads = lead_texts(client, history.title, [metas[i].revid for i in picked])
    assert client.requests_made == 1
    assert leads == {metas[i].revid: history.revisions[i].lead for i in picked}
    assert "" in leads.values()


def test_lead_texts_come_from_the_disk_cache(mediawiki, client, history, metas, tmp_path):
    revids = [m.revid for m in metas[:120]]
    first = lead_texts(client, history.title, revids)
    assert client.requests_made == 3  # 50 + 50 + 20
    again = WikiClient(
        mediawiki.host, path="/", scheme="http", cache_dir=tmp_path / "cache", max_requests=0
    )
    assert lead_texts(again, history.title, revids) == first
    assert again.requests_made == 0
    damaged = next((tmp_path / "cache").rglob("*.json.gz"))
    damaged.write_bytes(b"\x1f\x8b not gzip")
    assert lead_texts(client, history.title, revids) == first
    assert client.requests_made == 4


def test_revision_at_a_past_date_is_cached(mediawiki, client, history, tmp_path):
    past = history.revisions[10].timestamp + timedelta(hours=1)
    first = revision_at(client, "Pyrus", past)
    again = WikiClient(
        mediawiki.host, path="/", scheme="http", cache_dir=tmp_path / "cache", max_requests=0
    )
    assert revision_at(again, "Pyrus", past) == first
    assert first is not None and (first.redirected_from, first.title) == ("Pyrus", "Pear")
    assert revision_at(client, history.title, datetime(2100, 1, 1)) is not None
    assert revision_at(client, history.title, datetime(2100, 1, 1)) is not None
    assert (client.requests_made, again.requests_made) == (3, 0)  # the future is not cached


def test_hidden_revisions(client: WikiClient):
    after = list(revisions_after(client, "User:Ryulong", datetime(2009, 8, 1)))
    hidden = [m for m in after if m.content_hidden]
    assert [(m.timestamp.isoformat(), m.sha1) for m in hidden] == [
        ("2009-08-31T10:30:39+00:00", None), ("2015-01-27T18:30:01+00:00", None)
    ]  # fmt: skip
    leads = lead_texts(client, "User:Ryulong", [m.revid for m in after])
    assert set(leads) == {m.revid for m in after} - {m.revid for m in hidden}


def test_budget_exceeded(mediawiki: LoadedWiki, history):
    budgeted = WikiClient(mediawiki.host, path="/", scheme="http", max_requests=2)
    with pytest.raises(RequestBudgetError, match="budget of 2 API requests") as caught:
        list(revisions_after(budgeted, history.title, EPOCH, batch=100))
    assert budgeted.requests_made == 2
    assert str(caught.value).startswith(f"http://{mediawiki.host}/ ('{history.title}')")
    assert caught.value.exit_code == 4


def test_api_error_is_one_line_naming_site_title_and_code(client: WikiClient):
    with pytest.raises(WikiApiError) as caught:
        client.query({"prop": "revisions", "titles": "Pear", "rvdir": "sideways"}, "Pear")
    message = str(caught.value)
    assert message.startswith(f"{client.site_id} ('Pear'): API error badvalue: ")
    assert "\n" not in message and caught.value.exit_code == 3
    with pytest.raises(WikiApiError, match="is not a valid page title"):
        revision_at(client, "Bad [[title", datetime(2020, 1, 1))


def test_retries_on_5xx_and_maxlag_with_our_user_agent(mediawiki: LoadedWiki, history):
    with flaky_front(mediawiki.api_url, [503, MAXLAG, 502]) as (host, script):
        flaky = WikiClient(host, path="/", scheme="http", retry=FAST)
        found = revision_at(flaky, history.title, datetime(2030, 1, 1))
    assert found is not None and found.text == history.revisions[-1].text
    assert flaky.requests_made == 4
    agents = {headers["User-Agent"] for headers in script.headers}
    mwclient_agent = "mwclient/0.11.0 (https://github.com/mwclient/mwclient)"
    assert agents == {f"{DEFAULT_USER_AGENT} {mwclient_agent}"}
    assert DEFAULT_USER_AGENT.startswith(f"kgdiff/{__version__} (research benchmark builder")


def test_gives_up_after_the_retries(mediawiki: LoadedWiki):
    with flaky_front(mediawiki.api_url, [500] * 10) as (host, script):
        flaky = WikiClient(host, path="/", scheme="http", retry=FAST, user_agent="me/1 (x@y)")
        with pytest.raises(WikiApiError, match=r"gave up after 4 attempts \(HTTP 500\)"):
            revision_at(flaky, "Pear", datetime(2020, 1, 1))
    assert flaky.requests_made == 4
    assert script.headers[0]["User-Agent"].startswith("me/1 (x@y) mwclient/")


def test_connection_refused_is_retried_then_reported(mediawiki: LoadedWiki):
    with flaky_front(mediawiki.api_url, []) as (host, _script):
        pass  # the port is free again once the front is closed
    gone = WikiClient(host, path="/", scheme="http", retry=FAST)
    with pytest.raises(WikiApiError, match="connection failed: ConnectionError"):
        revision_at(gone, "Pear", datetime(2020, 1, 1))
    assert gone.requests_made == 4


def test_from_api_url():
    parsed = WikiClient.from_api_url("https://en.wikipedia.org/w/api.php")
    assert parsed.site_id == "https://en.wikipedia.org/w/"
    with pytest.raises(WikiApiError, match=r"not an api\.php URL"):
        WikiClient.from_api_url("https://en.wikipedia.org/wiki/Pear")


def test_backoff_doubles_up_to_the_cap():
    policy = RetryPolicy(max_retries=6, base_delay=0.5, max_delay=3.0)
    assert [policy.delay(n) for n in range(5)] == [0.5, 1.0, 2.0, 3.0, 3.0]


def recorded(name: str) -> dict[str, object]:
    answer: dict[str, object] = json.loads((RECORDED / name).read_text(encoding="utf-8"))
    return answer


def test_recorded_answer_with_normalisation_and_redirect():
    result = parse_query(recorded("twp_case_king_disney.json"))
    assert result.normalized == {"disney": "Disney"}
    assert result.redirects == {"Disney": "The Walt Disney Company"}
    assert result.resolve("disney") == ("The Walt Disney Company", True)
    page = result.page("disney")
    assert page is not None and (page.page_id, page.ns, len(page.revisions)) == (37398, 0, 35)
    assert (page.revisions[0].user, page.revisions[0].timestamp) == (
        "The Herald", datetime(2023, 9, 23, 14, 29, 10, tzinfo=UTC)
    )  # fmt: skip
    assert page.revisions[-1].user == "Magical Golden Whip"
    assert result.continuation == {"rvcontinue": "20230625231617|1161932710", "continue": "||"}


def test_recorded_anonymous_edits_and_missing_page():
    zappa = parse_query(recorded("frank_zappa_2020_sample.json"))
    page = zappa.page("Zappa")
    assert page is not None and page.title == "Frank Zappa"
    assert [(r.user, r.anon) for r in page.revisions] == [
        ("DVdm", False), ("179.53.16.150", True), ("Strudjum", False), ("ClueBot NG", False)
    ]  # fmt: skip
    assert page.revisions[0].revid is None and page.revisions[0].text is None
    missing = parse_query(recorded("twp_case_king_jacobking.json"))
    gone = missing.page("jacobking")
    assert gone is not None
    assert (gone.title, gone.missing, gone.page_id) == ("Jacobking", True, None)
    assert missing.continuation is None


@pytest.mark.parametrize(
    ("name", "title", "count", "anon", "first", "last"),
    [
        ("twp_case_king_1993.json", "1993", 35, 11, "2023-09-24T12:15:07Z", "2023-05-19T07:29:17Z"),
        ("twp_case_king_anime.json", "Anime", 4, 0, "2023-09-22T01:10:09Z", "2023-09-15T16:29:20Z"),
        ("twp_case_king_soup.json", "Soup", 4, 0, "2023-08-12T22:31:36Z", "2023-06-14T11:49:23Z"),
    ],
)
def test_recorded_histories(name, title, count, anon, first, last):
    page = parse_query(recorded(name)).page(title)
    assert page is not None and len(page.revisions) == count
    assert sum(r.anon for r in page.revisions) == anon
    assert page.revisions[0].timestamp == parse_timestamp(first)
    assert page.revisions[-1].timestamp == parse_timestamp(last)


def test_first_supporting_revision_takes_three_requests(client: WikiClient, history, metas):
    """The primitives suffice: one metadata page, leads of 50 evenly spread revisions that
    were not reverted, then leads of the few between the last miss and the first hit."""
    start = history.revisions[150].timestamp
    after = list(revisions_after(client, history.title, start))
    kept = [m for i, m in enumerate(after) if not _reverted(after, i)]
    step = math.ceil(len(kept) / 50)
    probe = kept[::step]
    probed = lead_texts(client, history.title, [m.revid for m in probe])
    hit = next(i for i, m in enumerate(probe) if _names_both(probed[m.revid]))
    between = kept[(hit - 1) * step + 1 : hit * step + 1]
    leads = lead_texts(client, history.title, [m.revid for m in between])
    first = next(m for m in between if _names_both(leads[m.revid]))
    assert first.revid == metas[history.first_lasting_mention].revid
    assert client.requests_made == 3


def _names_both(lead: str) -> bool:
    return "Albert Einstein" in lead and "Manhattan Project" in lead


def _reverted(revisions: list[RevisionMeta], i: int) -> bool:
    """Undone by the next revision (which restores the text of the one before)."""
    return 0 < i < len(revisions) - 1 and revisions[i + 1].sha1 == revisions[i - 1].sha1
