"""The ``mediawiki`` pytest fixture: one real test wiki per test session.

Enabled (with ``history`` and ``metas``, the long synthetic page and its revisions) by
tests/conftest.py. Without MediaWiki installed the tests that use it are skipped, unless the
``CI`` environment variable is set: there a missing MediaWiki is a failure (.ci/run installs it).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from kgdiff.wikiapi import WikiClient
from kgdiff.wikiapi.revisions import RevisionMeta, revisions_after
from tests.mediawiki.build import LoadedWiki, build_wiki
from tests.mediawiki.history import SyntheticHistory
from tests.mediawiki.server import MEDIAWIKI

_INSTALL = "apt-get install --no-install-recommends mediawiki php-cli php-sqlite3"


@pytest.fixture(scope="session")
def mediawiki(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LoadedWiki]:
    """A running MediaWiki 1.39 on 127.0.0.1 holding real page histories (stopped at the end)."""
    missing = [str(MEDIAWIKI)] if not MEDIAWIKI.is_dir() else []
    missing += [] if shutil.which("php") else ["php"]
    if missing:
        reason = f"the MediaWiki test server needs {' and '.join(missing)} ({_INSTALL})"
        if os.environ.get("CI"):
            pytest.fail(f"CI is set but {reason}")
        pytest.skip(reason)
    _bypass_proxies_for_loopback()
    wiki = build_wiki(tmp_path_factory.mktemp("mediawiki"))
    try:
        yield wiki
    finally:
        wiki.stop()


def _bypass_proxies_for_loopback() -> None:
    """Keep requests to the test wiki off any HTTP proxy the environment names."""
    for name in ("no_proxy", "NO_PROXY"):
        entries = [e for e in os.environ.get(name, "").split(",") if e]
        os.environ[name] = ",".join(dict.fromkeys([*entries, "127.0.0.1", "localhost"]))


@pytest.fixture(scope="session")
def history(mediawiki: LoadedWiki) -> SyntheticHistory:
    """The 624-revision page of the test wiki."""
    assert mediawiki.history is not None
    return mediawiki.history


@pytest.fixture(scope="session")
def metas(mediawiki: LoadedWiki, history: SyntheticHistory) -> list[RevisionMeta]:
    """Every revision of the 624-revision page, oldest first (ids are the wiki's own)."""
    walker = WikiClient.from_api_url(mediawiki.api_url)
    return list(revisions_after(walker, history.title, datetime(2000, 1, 1, tzinfo=UTC)))
