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
    """A headless chromium (a ``playwright.sync_api.Browser``) until the block ends. Without
    Playwright or the browser the test fails naming what is missing, as the suite's other
    tools do (the dev extra installs Playwright, scripts/system-packages test the browser)."""
    try:
        from playwright import sync_api
    except ImportError:
        pytest.fail("playwright is not installed: pip install -e '.[dev]'")
    if shutil.which(CHROMIUM) is None:
        pytest.fail(
            f"{CHROMIUM} is missing: apt-get install chromium (scripts/system-packages test)"
        )
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=QUIET)
        try:
            yield browser
        finally:
            browser.close()


def launch_beside(browser: object, *args: str) -> object:
    """Another headless chromium from the Playwright that started ``browser``, with ``args``
    besides the quiet ones (``--lang=de-DE``); the caller closes it."""
    kind = browser.browser_type  # type: ignore[attr-defined]
    return kind.launch(executable_path=CHROMIUM, headless=True, args=[*QUIET, *args])
