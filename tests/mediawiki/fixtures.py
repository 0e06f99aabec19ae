"""The ``mediawiki`` pytest fixture: one real test wiki per test session.

Enable it with ``from tests.mediawiki.fixtures import mediawiki  # noqa: F401`` in
tests/conftest.py. Without MediaWiki installed the tests that use it are skipped, unless the
``CI`` environment variable is set: there a missing MediaWiki is a failure (.ci/run installs it).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator

import pytest

from tests.mediawiki.build import LoadedWiki, build_wiki
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
