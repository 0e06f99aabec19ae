"""Debian's chromium, headless, through Playwright's sync API, for the explorer's tests: no
browser download, and none of the background traffic (updates, sync, QUIC probes) that would
reach for the network."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

CHROMIUM = "/usr/bin/chromium"
QUIET = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@contextmanager
def chromium() -> Iterator[object]:
    """A headless chromium (a ``playwright.sync_api.Browser``) until the block ends; the test
    is skipped when Playwright or the browser is missing (scripts/system-packages test
    installs the browser, the dev extra Playwright)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    if shutil.which(CHROMIUM) is None:
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=QUIET)
        try:
            yield browser
        finally:
            browser.close()
